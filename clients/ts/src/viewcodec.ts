// SPDX-License-Identifier: MIT
// A player view's client end in TypeScript (docs/protocol.md, "Player
// views"): the ViewUpdate decoder, which keeps the base (the last two
// acknowledged samples per vessel), the updates received since and the
// vessels held, and the ViewRequest encoder (acks and settings). Written
// from the protocol document alone, not from the C code, so that the
// document is proven complete: tests/test_web_unit.mjs decodes what the C
// encoder wrote (bench-view --write-session) to the C decoder's samples.
//
// Everything about a vessel is an integer on the wire (1/512 m steps, the
// smallest-three orientation's 11-bit components) and prediction is integer
// arithmetic, so both ends agree to the bit; doubles and floats are only
// made for drawing.

import * as flatbuffers from "flatbuffers";
import { Status } from "./gen/naval/proto/status.js";
import { ViewRequest } from "./gen/naval/proto/view-request.js";
import { ViewSettings } from "./gen/naval/proto/view-settings.js";
import { ViewOwn } from "./gen/naval/proto/view-own.js";
import { ViewUpdate } from "./gen/naval/proto/view-update.js";
import { VesselDamage } from "./gen/naval/proto/vessel-damage.js";
import { DamageEvent } from "./gen/naval/proto/damage-event.js";
import { isClear, readDamage, readDamageEvents, type DamageEventData, type VesselDamageData } from "./damage.js";
import { readContacts, type ContactData } from "./wire.js";

/** A vessel's state at a tick, as both ends hold it: integers only. */
export interface ViewState {
  tick: number; // the update's tick, low 32 bits
  px: number; // position, steps of 1/512 m, world frame
  py: number;
  pz: number;
  oi: number; // index (0..3: x, y, z, w) of the dropped largest component
  o0: number; // the other three, 11 bits each, in x, y, z, w order skipping oi
  o1: number;
  o2: number;
  flags: number;
  type: number;
}

/** A held sample, with what is drawn from it. */
export interface ViewSample {
  state: ViewState;
  tick: number;
  /** The sim time of the update that brought it (s): the samples' clock for drawing. */
  simTime: number;
  pos: [number, number, number]; // m, exact
  quat: [number, number, number, number]; // x, y, z, w, 32-bit float values
}

export interface HeldVessel {
  id: number;
  type: number;
  flags: number;
  /** Oldest first, at most HELD_SAMPLES. */
  samples: ViewSample[];
}

/** Event kinds, as tests/bench-view number them. */
export const EV_ENTERED = 0, EV_SPAWNED = 1, EV_LEFT = 2, EV_GONE = 3;
export type ViewEvent = [id: number, kind: number];

/** Samples kept per held vessel (the C decoder's too): 250 ms at 60 Hz, enough to interpolate 100 ms behind any vessel. */
export const HELD_SAMPLES = 16;

export interface ViewSettingsData {
  centerX: number;
  centerZ: number;
  radius: number;
  budgetKbps: number;
  followOwn: boolean;
  own: { id: number; token: { lo: bigint; hi: bigint } }[];
}

export interface ViewUpdateInfo {
  seq: number;
  baseSeq: number;
  keyframe: boolean;
  tick: number;
  simTime: number;
  sendTimeMs: number;
  status: number;
  error: string;
  /** The settings as the server applies them (only after they changed). */
  settings: ViewSettingsData | null;
  records: number;
  events: ViewEvent[];
  /** Damage entries of vessels the client holds (docs/protocol.md, "Damage"). */
  damage: VesselDamageData[];
  /** Damage events of vessels in the view since the previous update. */
  damageEvents: DamageEventData[];
  /** Contacts that vessels in the view began since the previous update (a lost update's are not sent again). */
  contacts: ContactData[];
}

/** Damage events one update carries at most (PROTO_VIEW_MAX_DAMAGE_EVENTS): a decoder refuses more. */
export const MAX_DAMAGE_EVENTS = 256;
/** Contacts one update carries at most (PROTO_VIEW_MAX_CONTACTS): a decoder refuses more. */
export const MAX_CONTACTS = 64;

// ---- the bit stream ("The bit stream": least significant bit first) ----------

const ID_GAP = [2, 5, 8, 32];
const POS_RES = [2, 5, 10, 32];
const ORI_RES = [2, 4, 7, 12];
const POS_REL = [13, 18, 23, 32];
const POS_UNIT = [1, 4, 32, 128];
const ORI_UNIT = [1, 2, 8, 16];
const POS_MAX = 2 ** 29 - 1;
const ID_NONE = 2 ** 32 - 1;
/** Past this many ticks apart, samples are too old to extrapolate from (the prediction is s1). */
const PREDICT_MAX_DT = 120;
/** Updates received and not yet in the base that are kept (the server falls back to keyframes long before). */
const MAX_PENDING = 1024;

export class ViewError extends Error {}

class BitReader {
  private pos = 0;
  private readonly bits: number;
  constructor(private readonly data: Uint8Array) {
    this.bits = 8 * data.length;
  }

  /** An unsigned field of n <= 32 bits, first bit read least significant. */
  u(n: number): number {
    if (this.pos + n > this.bits) throw new ViewError(`records: the stream ends early (bit ${this.pos} of ${this.bits}, ${n} more wanted)`);
    let v = 0, got = 0;
    while (got < n) {
      const off = this.pos & 7, take = Math.min(8 - off, n - got);
      v += ((this.data[this.pos >>> 3] >>> off) & ((1 << take) - 1)) * 2 ** got;
      got += take;
      this.pos += take;
    }
    return v;
  }

  /** A zigzagged signed field of n <= 32 bits (in doubles: 32-bit ints would wrap). */
  z(n: number): number {
    const u = this.u(n);
    return u % 2 ? -(u + 1) / 2 : u / 2;
  }

  /** group(W) into out[0..2]. */
  group(w: number[], out: number[]): void {
    if (!this.u(1)) {
      out[0] = out[1] = out[2] = 0;
      return;
    }
    const n = w[this.u(2)];
    out[0] = this.z(n);
    out[1] = this.z(n);
    out[2] = this.z(n);
  }

  /** The stream must end within the last byte: padding, never a whole byte. */
  finish(): void {
    const used = Math.ceil(this.pos / 8);
    if (used !== this.data.length) throw new ViewError(`records: ${this.data.length - used} byte(s) left after the records`);
  }
}

// ---- values ----------------------------------------------------------------

const clamp = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);
/** R(a, b): a / b to the nearest integer, halves up; exact in doubles (|a| < 2^40). */
const R = (a: number, b: number): number => Math.floor((2 * a + b) / (2 * b));

const ORI_S = 1.4142135623730951 / 2047.0;
const ORI_H = 0.7071067811865476;

/** The smallest-three orientation ("Values"), as float32 values x, y, z, w. */
export function orientation(i: number, c0: number, c1: number, c2: number): [number, number, number, number] {
  const q = [0, 0, 0, 0];
  const c = [c0, c1, c2];
  let sum = 0;
  for (let k = 0, j = 0; k < 4; k++) {
    if (k === i) continue;
    q[k] = c[j++] * ORI_S - ORI_H;
    sum += q[k] * q[k];
  }
  q[i] = sum < 1 ? Math.sqrt(1 - sum) : 0;
  const inv = 1 / Math.sqrt(sum + q[i] * q[i]);
  return [Math.fround(q[0] * inv), Math.fround(q[1] * inv), Math.fround(q[2] * inv), Math.fround(q[3] * inv)];
}

/** The state an update record's residuals apply to ("Prediction"). */
export function predict(s0: ViewState | null, s1: ViewState, tick: number): ViewState {
  if (!s0) return { ...s1, tick };
  const dt0 = (s1.tick - s0.tick) >>> 0, dt = (tick - s1.tick) >>> 0;
  if (dt0 === 0 || dt0 > PREDICT_MAX_DT || dt > PREDICT_MAX_DT) return { ...s1, tick };
  const p = (a: number, b: number) => clamp(b + R((b - a) * dt, dt0), -POS_MAX, POS_MAX);
  const o = (a: number, b: number) => clamp(b + R((b - a) * dt, dt0), 0, 2047);
  const same = s0.oi === s1.oi;
  return {
    tick, px: p(s0.px, s1.px), py: p(s0.py, s1.py), pz: p(s0.pz, s1.pz), oi: s1.oi,
    o0: same ? o(s0.o0, s1.o0) : s1.o0, o1: same ? o(s0.o1, s1.o1) : s1.o1, o2: same ? o(s0.o2, s1.o2) : s1.o2,
    flags: s1.flags, type: s1.type,
  };
}

// ---- the decoder -----------------------------------------------------------

/** A vessel in the base: its last two acknowledged samples (s0 older, null with one). */
export interface BaseEntry {
  s0: ViewState | null;
  s1: ViewState;
}

export const KIND_UPDATE = 0, KIND_ENTER = 1, KIND_LEAVE = 2;
export interface ViewRecord {
  id: number;
  kind: number;
  state: ViewState | null; // null for a leave
  flag: boolean; // enter: spawned; leave: gone
}

interface Received {
  seq: number;
  keyframe: boolean;
  records: ViewRecord[];
}

function applyToBase(base: Map<number, BaseEntry>, u: Received): void {
  if (u.keyframe) base.clear();
  for (const r of u.records) {
    if (r.kind === KIND_LEAVE) base.delete(r.id);
    else if (r.kind === KIND_ENTER) base.set(r.id, { s0: null, s1: r.state! });
    else {
      const e = base.get(r.id);
      base.set(r.id, { s0: e ? e.s1 : null, s1: r.state! });
    }
  }
}

function settingsData(s: ViewSettings | null): ViewSettingsData | null {
  if (!s) return null;
  const own: ViewSettingsData["own"] = [];
  const o = new ViewOwn();
  for (let i = 0; i < s.ownLength(); i++) {
    s.own(i, o);
    const t = o.token()!;
    own.push({ id: o.id(), token: { lo: t.lo(), hi: t.hi() } });
  }
  return { centerX: s.centerX(), centerZ: s.centerZ(), radius: s.radius(), budgetKbps: s.budgetKbps(), followOwn: s.followOwn(), own };
}

/** A ViewUpdate's header, and its records still as bits. */
export function readViewUpdate(msg: Uint8Array): { info: ViewUpdateInfo; data: Uint8Array; header: RecordsHeader } {
  const bb = new flatbuffers.ByteBuffer(msg);
  if (msg.length < 8) throw new ViewError(`view update: ${msg.length} bytes is too short for a message`);
  if (!bb.__has_identifier("NVVU")) throw new ViewError(`view update: identifier ${JSON.stringify(String.fromCharCode(...msg.subarray(4, 8)))}, expected NVVU`);
  const u = ViewUpdate.getRootAsViewUpdate(bb);
  const info: ViewUpdateInfo = {
    seq: u.seq(), baseSeq: u.baseSeq(), keyframe: u.keyframe(), tick: Number(u.tick()), simTime: u.simTime(),
    sendTimeMs: Number(u.sendTimeNs() / 1000n) / 1000, status: u.status(), error: u.error() ?? "",
    settings: settingsData(u.settings(new ViewSettings())), records: u.recordCount(), events: [],
    damage: [], damageEvents: [], contacts: [],
  };
  if (u.damageEventsLength() > MAX_DAMAGE_EVENTS)
    throw new ViewError(`view update ${info.seq}: ${u.damageEventsLength()} damage events, over ${MAX_DAMAGE_EVENTS}`);
  if (u.contactsLength() > MAX_CONTACTS)
    throw new ViewError(`view update ${info.seq}: ${u.contactsLength()} contacts, over ${MAX_CONTACTS}`);
  try {
    info.damage = readDamage(u.damageLength(), (i, o) => u.damage(i, o), () => new VesselDamage());
    info.damageEvents = readDamageEvents(u.damageEventsLength(), (i, o) => u.damageEvents(i, o), () => new DamageEvent());
    info.contacts = readContacts(u.contactsLength(), (i, o) => u.contacts(i, o));
  } catch (e) {
    throw new ViewError(`view update ${info.seq}: ${(e as Error).message}`);
  }
  const header: RecordsHeader = {
    seq: info.seq, keyframe: info.keyframe, tick: Number(u.tick() & 0xffffffffn), originX: u.originX(), originZ: u.originZ(), recordCount: info.records,
  };
  return { info, data: u.dataArray() ?? new Uint8Array(0), header };
}

/**
 * One view's client end. read() takes each ViewUpdate (without the PAIR1
 * hop count) in the order received; a refused one (ViewError) changes
 * nothing and is not acknowledged.
 */
export class ViewDecoder {
  /** What the client holds: every vessel in its view, by id. */
  readonly held = new Map<number, HeldVessel>();
  /** Events of the last update read. */
  events: ViewEvent[] = [];
  /** The damage of held vessels: each one's newest entry (dropped when it leaves; a keyframe starts afresh). */
  readonly damage = new Map<number, VesselDamageData>();
  /** Damage events of the last update read. */
  damageEvents: DamageEventData[] = [];
  private base = new Map<number, BaseEntry>();
  private baseSeq = 0;
  private pending: Received[] = [];
  /** The newest update dropped from `pending` unapplied: a base past it is unknown until a keyframe. */
  private lost = 0;
  private newest = 0;
  private mask = 0;

  /** The ack to send: the newest seq received (0: none) and the 32 before it. */
  get ack(): { ack: number; ackMask: number } {
    return { ack: this.newest, ackMask: this.mask >>> 0 };
  }

  /** Forgets everything: a new connection is a new view. */
  reset(): void {
    this.held.clear();
    this.events = [];
    this.damage.clear();
    this.damageEvents = [];
    this.base.clear();
    this.baseSeq = 0;
    this.pending = [];
    this.lost = 0;
    this.newest = 0;
    this.mask = 0;
  }

  read(msg: Uint8Array): ViewUpdateInfo {
    const { info, data, header } = readViewUpdate(msg);
    // A refusal of our request is outside the sequence: it carries no records.
    if (info.status !== Status.Ok) {
      this.damageEvents = [];
      return info;
    }
    const { seq, baseSeq, keyframe } = info;
    if (seq <= this.newest) throw new ViewError(`view update ${seq}: not after ${this.newest}`);
    if (keyframe && baseSeq !== 0) throw new ViewError(`view update ${seq}: a keyframe with base ${baseSeq}`);
    if (!keyframe && baseSeq < this.baseSeq) throw new ViewError(`view update ${seq}: base ${baseSeq} is older than the base ${this.baseSeq} already applied`);
    if (!keyframe && baseSeq > this.baseSeq && !this.pending.some((p) => p.seq === baseSeq))
      throw new ViewError(`view update ${seq}: base ${baseSeq} was never received`);

    // The base this update is relative to: a copy, so that a refusal changes nothing.
    let base = this.base, applied = 0;
    if (keyframe) base = new Map();
    else if (baseSeq > this.baseSeq) {
      const apply = this.pending.filter((p) => p.seq <= baseSeq);
      if (this.lost && baseSeq >= this.lost && !apply.some((p) => p.keyframe && p.seq > this.lost))
        throw new ViewError(`view update ${seq}: base ${baseSeq} needs updates no longer kept; waiting for a keyframe`);
      base = new Map(base);
      for (const p of apply) applyToBase(base, p);
      applied = apply.length;
    }
    const records = decodeRecords(data, header, base);

    // Accepted: commit.
    if (!keyframe && baseSeq > this.baseSeq) {
      this.base = base;
      this.baseSeq = baseSeq;
      this.pending.splice(0, applied);
      if (baseSeq >= this.lost) this.lost = 0; // a keyframe past it made the base exact again
    }
    this.pending.push({ seq, keyframe, records });
    if (this.pending.length > MAX_PENDING) this.lost = this.pending.shift()!.seq;
    const d = seq - this.newest;
    this.mask = this.newest === 0 ? 0 : ((d <= 32 ? 1 << (d - 1) : 0) | (d < 32 ? this.mask << d : 0)) >>> 0;
    this.newest = seq;
    this.hold(records, keyframe, info);
    this.holdDamage(info);
    return info;
  }

  /** After the records: the damage of vessels no longer held goes, the update's entries of held ones apply. */
  private holdDamage(info: ViewUpdateInfo): void {
    if (info.keyframe) this.damage.clear();
    for (const id of [...this.damage.keys()]) if (!this.held.has(id)) this.damage.delete(id);
    for (const d of info.damage) {
      if (!this.held.has(d.id)) continue; // not held: nothing to say of it
      if (isClear(d)) this.damage.delete(d.id);
      else this.damage.set(d.id, d);
    }
    this.damageEvents = info.damageEvents;
  }

  /** What the client draws: every update read applies at once, whatever its base. */
  private hold(records: ViewRecord[], keyframe: boolean, info: ViewUpdateInfo): void {
    if (keyframe) this.held.clear(); // the client forgets what it held
    const events: ViewEvent[] = [];
    for (const r of records) {
      if (r.kind === KIND_LEAVE) {
        // A leave the server repeats (it had not yet heard of the first) is no news.
        if (this.held.delete(r.id)) events.push([r.id, r.flag ? EV_GONE : EV_LEFT]);
        continue;
      }
      const s = r.state!;
      const sample: ViewSample = {
        state: s, tick: s.tick, simTime: info.simTime, pos: [s.px / 512, s.py / 512, s.pz / 512], quat: orientation(s.oi, s.o0, s.o1, s.o2),
      };
      let h = this.held.get(r.id);
      // News is a vessel the client did not hold: an enter the server
      // repeats (it had not yet heard that the first arrived) restarts the
      // samples but is no news, while an update of a vessel that had left
      // (its leave not yet in the base) brings it back.
      if (!h) events.push([r.id, r.kind === KIND_ENTER && r.flag ? EV_SPAWNED : EV_ENTERED]);
      if (r.kind === KIND_ENTER || !h) {
        h = { id: r.id, type: s.type, flags: s.flags, samples: [] };
        this.held.set(r.id, h);
      }
      h.type = s.type;
      h.flags = s.flags;
      h.samples.push(sample);
      if (h.samples.length > HELD_SAMPLES) h.samples.shift();
    }
    this.events = events;
    info.events = events;
  }
}

/** What the record stream needs of its update's header. */
export interface RecordsHeader {
  seq: number;
  keyframe: boolean;
  tick: number; // low 32 bits
  originX: number; // whole metres
  originZ: number;
  recordCount: number;
}

/** The record stream ("The record stream") against `base` (empty for a keyframe). */
export function decodeRecords(data: Uint8Array, h: RecordsHeader, base: ReadonlyMap<number, BaseEntry> = new Map()): ViewRecord[] {
  const { seq, keyframe, tick, recordCount: count } = h;
  // A record takes at least 3 bits: refuse a lying count before allocating.
  if (count > (8 * data.length) / 3) throw new ViewError(`view update ${seq}: ${count} records cannot fit in ${data.length} bytes`);
  const ox = 512 * h.originX, oz = 512 * h.originZ;
  const br = new BitReader(data);
  const v = [0, 0, 0];
  const records: ViewRecord[] = [];
  let prev = ID_NONE, enterType = 0;
  const whole = (s: ViewState) => {
    s.oi = br.u(2);
    s.o0 = br.u(11);
    s.o1 = br.u(11);
    s.o2 = br.u(11);
  };
  for (let n = 0; n < count; n++) {
    const k = br.u(2);
    const g = br.u(ID_GAP[k]);
    const id = prev === ID_NONE ? g : prev + 1 + g;
    if (id >= ID_NONE) throw new ViewError(`view update ${seq}: record ${n}: id past 2^32 - 2`);
    prev = id;
    const kind = !br.u(1) ? KIND_UPDATE : !br.u(1) ? KIND_ENTER : KIND_LEAVE;
    if (keyframe && kind !== KIND_ENTER) throw new ViewError(`view update ${seq}: a keyframe with a record other than an enter (id ${id})`);
    if (kind === KIND_LEAVE) {
      records.push({ id, kind, state: null, flag: !!br.u(1) });
      continue;
    }
    if (kind === KIND_ENTER) {
      const spawned = !!br.u(1);
      const type = br.u(1) ? enterType : br.u(16);
      enterType = type;
      const flags = br.u(1) ? br.u(16) : 0;
      br.group(POS_REL, v);
      const s: ViewState = { tick, px: v[0] + ox, py: v[1], pz: v[2] + oz, oi: 0, o0: 0, o1: 0, o2: 0, flags, type };
      // Positions are below 2^29 steps ("States"); predictions rely on it.
      if (Math.abs(s.px) > POS_MAX || Math.abs(s.py) > POS_MAX || Math.abs(s.pz) > POS_MAX)
        throw new ViewError(`view update ${seq}: vessel ${id} enters beyond the position limit`);
      whole(s);
      records.push({ id, kind, state: s, flag: spawned });
      continue;
    }
    const e = base.get(id);
    if (!e) throw new ViewError(`view update ${seq}: an update of vessel ${id}, which the base does not hold`);
    const c = br.u(2);
    const s = predict(e.s0, e.s1, tick);
    if (br.u(1)) s.flags = br.u(16);
    br.group(POS_RES, v);
    const U = POS_UNIT[c];
    s.px = clamp(s.px + v[0] * U, -POS_MAX, POS_MAX);
    s.py = clamp(s.py + v[1] * U, -POS_MAX, POS_MAX);
    s.pz = clamp(s.pz + v[2] * U, -POS_MAX, POS_MAX);
    if (br.u(1)) {
      br.group(ORI_RES, v);
      const V = ORI_UNIT[c];
      s.o0 = clamp(s.o0 + v[0] * V, 0, 2047);
      s.o1 = clamp(s.o1 + v[1] * V, 0, 2047);
      s.o2 = clamp(s.o2 + v[2] * V, 0, 2047);
    } else whole(s);
    records.push({ id, kind, state: s, flag: false });
  }
  br.finish();
  return records;
}

// ---- requests --------------------------------------------------------------

export interface ViewRequestSpec {
  ack: number;
  ackMask: number;
  /** Present when opening or changing the view. */
  settings?: ViewSettingsData;
}

/** A ViewRequest (NVVR), the FlatBuffers message alone. */
export function encodeViewRequest(r: ViewRequestSpec): Uint8Array {
  const b = new flatbuffers.Builder(128);
  let settings = 0;
  if (r.settings) {
    const s = r.settings;
    if (![s.centerX, s.centerZ, s.radius].every(Number.isFinite)) throw new Error(`view settings: centre and radius must be finite (got ${s.centerX}, ${s.centerZ}, ${s.radius})`);
    let own = 0;
    if (s.own.length) {
      ViewSettings.startOwnVector(b, s.own.length);
      // Vectors are built back to front.
      for (let i = s.own.length - 1; i >= 0; i--) ViewOwn.createViewOwn(b, s.own[i].id, s.own[i].token.lo, s.own[i].token.hi);
      own = b.endVector();
    }
    ViewSettings.startViewSettings(b);
    ViewSettings.addCenterX(b, s.centerX);
    ViewSettings.addCenterZ(b, s.centerZ);
    ViewSettings.addRadius(b, s.radius);
    ViewSettings.addBudgetKbps(b, s.budgetKbps >>> 0);
    ViewSettings.addFollowOwn(b, s.followOwn);
    if (own) ViewSettings.addOwn(b, own);
    settings = ViewSettings.endViewSettings(b);
  }
  ViewRequest.startViewRequest(b);
  ViewRequest.addAck(b, r.ack >>> 0);
  ViewRequest.addAckMask(b, r.ackMask >>> 0);
  if (settings) ViewRequest.addSettings(b, settings);
  b.finish(ViewRequest.endViewRequest(b), "NVVR");
  return b.asUint8Array();
}

/** The PAIR1 hop count: 4 bytes big-endian before every message (the server ignores ours). */
export const PAIR1_HEADER = 4;

/** A message as sent on a PAIR1 WebSocket: the hop count (0), then the message. */
export function pair1Frame(msg: Uint8Array): Uint8Array {
  const out = new Uint8Array(PAIR1_HEADER + msg.length);
  out.set(msg, PAIR1_HEADER);
  return out;
}

/** The message in a PAIR1 WebSocket message (after its hop count). */
export function pair1Body(data: ArrayBuffer): Uint8Array {
  if (data.byteLength < PAIR1_HEADER) throw new ViewError(`view: a ${data.byteLength}-byte message has no PAIR1 header`);
  return new Uint8Array(data, PAIR1_HEADER);
}
