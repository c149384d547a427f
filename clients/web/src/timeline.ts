// SPDX-License-Identifier: MIT
// Snapshot buffer and interpolation. Boats are drawn `delay` seconds in
// the past of the server's clock so that there is nearly always a snapshot
// on each side of the drawn time, and poses are blended between those two:
// motion stays smooth through network jitter and the odd lost snapshot
// (PUB drops rather than stalls), at the price of that fixed delay (Valve's
// Source engine uses 100 ms the same way).

import type { Frame } from "./wire";

/** The drawn fleet: the later snapshot's vessels, posed at the drawn time. */
export interface Pose {
  count: number;
  ids: Uint32Array;
  types: Uint16Array;
  flags: Uint16Array;
  pos: Float64Array;
  quat: Float32Array;
  /** Server sim time drawn, s. */
  simTime: number;
  /** The later snapshot used (its tick and vessel count). */
  tick: number;
  snapshotCount: number;
  /** true when the drawn time was past the newest snapshot (held, not interpolated). */
  starved: boolean;
}

export function emptyPose(): Pose {
  return {
    count: 0, ids: new Uint32Array(0), types: new Uint16Array(0), flags: new Uint16Array(0), pos: new Float64Array(0),
    quat: new Float32Array(0), simTime: 0, tick: 0, snapshotCount: 0, starved: false,
  };
}

const OFFSET_WINDOW_S = 2;
const KEEP_BEHIND_S = 0.25; // frames older than the drawn time by more are dropped

/**
 * The server clock seen locally, from (sim time, arrival) pairs of the
 * messages that carry it: snapshots here, a player view's updates in
 * viewplay.ts.
 */
export class ServerClock {
  /** (arrival, simTime - arrival) of recent messages. */
  private offsets: { at: number; offset: number }[] = [];
  private offset = NaN;
  private lastNow = NaN;

  get empty(): boolean {
    return this.offsets.length === 0;
  }

  clear(): void {
    this.offsets = [];
    this.offset = NaN;
  }

  /** A message stamped `simTime` arrived at `now` (s, local monotonic clock). */
  push(simTime: number, now: number): void {
    this.offsets.push({ at: now, offset: simTime - now });
  }

  /**
   * The largest simTime - arrival over the last seconds, i.e. the least
   * delayed message's. Network delay only ever makes arrivals late, so the
   * maximum is the best estimate; the window lets it follow a server that
   * fell behind real time.
   */
  estimate(now: number): number {
    while (this.offsets.length > 1 && this.offsets[0].at < now - OFFSET_WINDOW_S) this.offsets.shift();
    let best = -Infinity;
    for (const o of this.offsets) best = Math.max(best, o.offset);
    if (!Number.isFinite(this.offset) || Math.abs(best - this.offset) > 0.25) {
      this.offset = best;
    } else {
      // Glide toward it so that the drawn time never jumps.
      const dt = Number.isFinite(this.lastNow) ? Math.max(0, now - this.lastNow) : 0;
      this.offset += (best - this.offset) * Math.min(1, 2 * dt);
    }
    this.lastNow = now;
    return this.offset;
  }
}

export class Timeline {
  private frames: Frame[] = [];
  private readonly clock = new ServerClock();
  private indexCache = new WeakMap<Frame, Map<number, number>>();

  constructor(public delay = 0.1) {}

  get newest(): Frame | null {
    return this.frames.length ? this.frames[this.frames.length - 1] : null;
  }

  get size(): number {
    return this.frames.length;
  }

  clear(): void {
    this.frames = [];
    this.clock.clear();
  }

  /** A snapshot that arrived at `now` (s, local monotonic clock). */
  push(f: Frame, now: number): void {
    const last = this.newest;
    if (last && f.tick <= last.tick) {
      if (f.tick === last.tick) return; // a duplicate
      // The tick went back: a new server (or a reset world). Start over.
      this.clear();
    }
    this.frames.push(f);
    this.clock.push(f.simTime, now);
  }

  /** The server sim time drawn at local time `now`. NaN before any snapshot. */
  drawTime(now: number): number {
    if (!this.frames.length) return NaN;
    return now + this.clock.estimate(now) - this.delay;
  }

  private indexOf(f: Frame): Map<number, number> {
    let m = this.indexCache.get(f);
    if (!m) {
      m = new Map();
      for (let i = 0; i < f.count; i++) m.set(f.ids[i], i);
      this.indexCache.set(f, m);
    }
    return m;
  }

  /** Fills `out` with the fleet at sim time t (see drawTime). false when empty. */
  sample(t: number, out: Pose): boolean {
    const frames = this.frames;
    if (!frames.length || !Number.isFinite(t)) return false;
    // Forget what is well behind the drawn time (keep one before it).
    while (frames.length > 2 && frames[1].simTime < t - KEEP_BEHIND_S) frames.shift();
    let b = frames.length - 1;
    while (b > 0 && frames[b - 1].simTime > t) b--;
    const fb = frames[b];
    const fa = b > 0 ? frames[b - 1] : fb;
    let u = 1;
    out.starved = t > fb.simTime;
    if (fa !== fb && !out.starved) u = Math.min(1, Math.max(0, (t - fa.simTime) / (fb.simTime - fa.simTime)));
    if (fa === fb) u = 1;
    ensurePose(out, fb.count);
    out.count = fb.count;
    out.simTime = t;
    out.tick = fb.tick;
    out.snapshotCount = fb.count;
    const sameOrder = fa.count === fb.count && equalIds(fa.ids, fb.ids);
    const index = sameOrder || u === 1 ? null : this.indexOf(fa);
    for (let i = 0; i < fb.count; i++) {
      out.ids[i] = fb.ids[i];
      out.types[i] = fb.types[i];
      out.flags[i] = fb.flags[i];
      const j = sameOrder ? i : index ? index.get(fb.ids[i]) : undefined;
      if (j === undefined || u === 1) {
        // New since the earlier snapshot (or no blend): its own pose.
        for (let k = 0; k < 3; k++) out.pos[3 * i + k] = fb.pos[3 * i + k];
        for (let k = 0; k < 4; k++) out.quat[4 * i + k] = fb.quat[4 * i + k];
        continue;
      }
      for (let k = 0; k < 3; k++) out.pos[3 * i + k] = fa.pos[3 * j + k] + (fb.pos[3 * i + k] - fa.pos[3 * j + k]) * u;
      nlerp(fa.quat, 4 * j, fb.quat, 4 * i, u, out.quat, 4 * i);
    }
    return true;
  }
}

function equalIds(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Room for n vessels in `p`. */
export function ensurePose(p: Pose, n: number): void {
  if (p.ids.length >= n) return;
  const cap = Math.max(n, 2 * p.ids.length, 64);
  p.ids = new Uint32Array(cap);
  p.types = new Uint16Array(cap);
  p.flags = new Uint16Array(cap);
  p.pos = new Float64Array(3 * cap);
  p.quat = new Float32Array(4 * cap);
}

/**
 * Normalised linear blend of two unit quaternions, along the shorter arc
 * (q and -q are the same rotation). Between snapshots a tick apart the
 * angle is small, where nlerp and slerp differ by far less than a pixel.
 */
export function nlerp(a: ArrayLike<number>, ia: number, b: ArrayLike<number>, ib: number, u: number, out: Float32Array, io: number): void {
  let dot = 0;
  for (let k = 0; k < 4; k++) dot += a[ia + k] * b[ib + k];
  const sb = dot < 0 ? -u : u;
  let n = 0;
  for (let k = 0; k < 4; k++) {
    const v = a[ia + k] * (1 - u) + b[ib + k] * sb;
    out[io + k] = v;
    n += v * v;
  }
  n = n > 0 ? 1 / Math.sqrt(n) : 0;
  for (let k = 0; k < 4; k++) out[io + k] *= n;
}
