// SPDX-License-Identifier: MIT
// The web client's pure modules in Node (no browser): the snapshot decoder
// on a snapshot the C codec wrote (bench-proto --write-snapshot), the
// request encoder read back by flatc with the schema, the snapshot
// timeline's interpolation and clock, and the player view's decoder
// (viewcodec.ts, written from docs/protocol.md alone) on every update of a
// session the C encoder wrote (bench-view --write-session): the same
// vessels, events, sample counts and newest samples to the bit as the C
// decoder held after each; its refusals, acks and ViewRequests (read back
// by flatc); and the view's playout. Damage: the snapshot's damage
// entries and events, the world info's compartment volumes and pump
// rates, the DamageReply, and a view session's damage entries, events and
// the damage held after each update, all as the C decoders read what the C
// encoders wrote (web-damage-fixture); the Damage and Pumps requests read
// back by flatc; attitude, clearing entries and event messages.
//
// Usage: node test_web_unit.mjs WEB_STAGE BENCH_PROTO FLATC SCHEMA BENCH_VIEW DAMAGE_FIXTURE
//   WEB_STAGE: BUILD/clients/web (lib/*.mjs made by the target web)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [stage, benchProto, flatc, schema, benchView, damageFixture] = process.argv.slice(2).map((a) => resolve(a));
if (!damageFixture) {
  console.error("usage: node test_web_unit.mjs WEB_STAGE BENCH_PROTO FLATC SCHEMA BENCH_VIEW DAMAGE_FIXTURE");
  process.exit(2);
}
if (!existsSync(join(stage, "lib", "wire.mjs"))) {
  console.error(`FAIL: ${stage}/lib/wire.mjs is missing: build the target web first`);
  process.exit(1);
}
const lib = (m) => import(pathToFileURL(join(stage, "lib", `${m}.mjs`)).href);
const { decodeSnapshot, encodeRequest, decodeResponse } = await lib("wire");
const damageLib = await lib("damage");
const { Timeline, emptyPose, nlerp } = await lib("timeline");
const view = await lib("viewcodec");
const { ViewPlayout } = await lib("viewplay");

let failures = 0;
function check(cond, msg) {
  if (!cond) {
    console.error(`FAIL: ${msg}`);
    failures++;
  }
}
const f32 = (x) => Math.fround(x);
const log = (msg) => console.log(msg);
const tmp = mkdtempSync(join(tmpdir(), "naval-web-unit-"));

try {
  // ---- the snapshot decoder against the C codec ---------------------------
  const snapPath = join(tmp, "snap.bin");
  execFileSync(benchProto, ["--boats", "40", "--write-snapshot", snapPath]);
  const bytes = readFileSync(snapPath);
  const want = JSON.parse(readFileSync(`${snapPath}.json`, "utf8"));
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const f = decodeSnapshot(buf);
  check(f.tick === want.tick, `tick ${f.tick} != ${want.tick}`);
  check(f.simTime === want.sim_time, `sim_time ${f.simTime} != ${want.sim_time}`);
  check(f.sendTimeMs === Number(BigInt(want.send_time_ns) / 1000n) / 1000, `send time ${f.sendTimeMs} ms from ${want.send_time_ns} ns`);
  check(f.stats.stepMs === f32(want.step_ms) && f.stats.overruns === want.overruns, `stats ${JSON.stringify(f.stats)}`);
  check(f.count === want.vessels.length && f.bytes === bytes.length, `count ${f.count}, bytes ${f.bytes}`);
  want.vessels.forEach((w, i) => {
    const same = (got, exp, what) => check(got.every((v, k) => v === exp[k]), `vessel ${i} ${what}: ${got} != ${exp}`);
    check(f.ids[i] === w.id && f.types[i] === w.type && f.flags[i] === w.flags, `vessel ${i} id/type/flags`);
    same(Array.from(f.pos.subarray(3 * i, 3 * i + 3)), w.position, "position");
    same(Array.from(f.quat.subarray(4 * i, 4 * i + 4)), w.orientation.map(f32), "orientation");
    same(Array.from(f.vel.subarray(3 * i, 3 * i + 3)), w.velocity.map(f32), "velocity");
  });
  // the contacts begun in that tick, field by field
  check(f.contacts.length === want.contacts.length, `${f.contacts.length} contacts, expected ${want.contacts.length}`);
  want.contacts.forEach((w, i) => {
    const c = f.contacts[i] || {};
    check(c.tick === w.tick && c.a === w.a && c.b === w.b, `contact ${i} tick/a/b ${JSON.stringify(c)}`);
    check(c.point.every((v, k) => v === w.point[k]), `contact ${i} point ${c.point} != ${w.point}`);
    check(c.normal.every((v, k) => v === f32(w.normal[k])), `contact ${i} normal ${c.normal}`);
    check(c.closingSpeed === f32(w.closing_speed) && c.impulse === f32(w.impulse), `contact ${i} speed/impulse`);
  });
  check(f.contacts[0] && f.contacts[0].b === 0xffffffff, "the first contact is with the ground");
  let threw = "";
  try {
    const bad = new Uint8Array(bytes);
    bad.set([0x4e, 0x56, 0x52, 0x51], 4); // NVRQ
    decodeSnapshot(bad.buffer);
  } catch (e) {
    threw = e.message;
  }
  check(/identifier "NVRQ", expected NVSS/.test(threw), `a request read as a snapshot: "${threw}"`);
  threw = "";
  try {
    decodeSnapshot(new ArrayBuffer(5));
  } catch (e) {
    threw = e.message;
  }
  check(/too short/.test(threw), `5 bytes: "${threw}"`);

  // ---- requests, read back by flatc with the schema -----------------------
  const token = { lo: 0x0123456789abcdefn, hi: 0xfedcba9876543210n };
  const requests = [
    [{ kind: "spawn", typeName: "skiff", type: 2, x: 12.5, z: -7.25, heading: 1.5 }, "Spawn", { type: 2, type_name: "skiff", x: 12.5, z: -7.25, heading: 1.5 }],
    [{ kind: "control", id: 77, token, throttle: 0.75, rudder: -1 }, "Control", { vessel_id: 77, throttle: 0.75, rudder: -1 }],
    [{ kind: "despawn", id: 9, token }, "Despawn", { vessel_id: 9 }],
    [{ kind: "hull", type: 3 }, "GetHull", { type: 3 }],
    [{ kind: "hello", clientName: "unit" }, "Hello", { protocol_version: 1, client_name: "unit" }],
    [{ kind: "pumps", id: 5, token, on: true }, "Pumps", { vessel_id: 5, on: true }],
    [{ kind: "damage", id: 8, point: [1.5, -0.5, 2.25], area: 0.75, adminToken: "an-admin-token-of-24chars" }, "Damage", { vessel_id: 8, area: 0.75 }],
  ];
  for (const [spec, type, fields] of requests) {
    const data = encodeRequest(4242n, spec);
    check(Buffer.from(data.subarray(4, 8)).toString() === "NVRQ", `${type}: identifier`);
    const bin = join(tmp, `${type}.bin`);
    writeFileSync(bin, data);
    execFileSync(flatc, ["--json", "--strict-json", "--raw-binary", "--defaults-json", "--root-type", "naval.proto.Request", "-o", tmp, schema, "--", bin]);
    const text = readFileSync(join(tmp, `${type}.json`), "utf8");
    const got = JSON.parse(text);
    check(got.request_id === 4242 && got.body_type === type, `${type}: ${JSON.stringify(got)}`);
    for (const [k, v] of Object.entries(fields)) check(got.body[k] === v, `${type}.${k}: ${got.body[k]} != ${v}`);
    if (spec.kind === "damage") {
      check(got.admin_token === spec.adminToken, `Damage: admin token ${got.admin_token}`);
      const p = got.body.point ?? {};
      check(p.x === 1.5 && p.y === -0.5 && p.z === 2.25, `Damage: point ${JSON.stringify(p)}`);
    }
    if (spec.token) {
      // 64-bit integers: read from the text (JSON numbers are doubles).
      const lo = /"lo":\s*(\d+)/.exec(text)?.[1], hi = /"hi":\s*(\d+)/.exec(text)?.[1];
      check(lo !== undefined && BigInt(lo) === token.lo && BigInt(hi) === token.hi, `${type}: token lo ${lo} hi ${hi}`);
    }
  }
  // Outside [-1, 1] or not a number: refused as the server refuses it, not clamped.
  for (const [throttle, rudder, words] of [[NaN, 0, /throttle NaN must be in \[-1, 1\]/], [0.75, -2, /rudder -2 must be in \[-1, 1\]/], [1.0001, 0, /throttle 1.0001 must/]]) {
    threw = null;
    try {
      encodeRequest(1n, { kind: "control", id: 1, token, throttle, rudder });
    } catch (e) {
      threw = e;
    }
    check(threw instanceof RangeError && words.test(threw.message), `control ${throttle}, ${rudder}: "${threw?.message}"`);
  }
  for (const area of [0, 100.5, NaN]) {
    threw = "";
    try {
      encodeRequest(1n, { kind: "damage", id: 1, point: [0, 0, 0], area, adminToken: "" });
    } catch (e) {
      threw = e.message;
    }
    check(/area in \(0, 100\]/.test(threw), `a hole of ${area} m²: "${threw}"`);
  }
  check(f.damage.length === 0 && f.damageEvents.length === 0, "a snapshot without damage: empty lists");

  testDamage();

  // ---- timeline --------------------------------------------------------------
  const frame = (tick, simTime, boats) => ({
    tick, simTime, sendTimeMs: 0, stats: {}, count: boats.length, bytes: 0,
    ids: Uint32Array.from(boats.map((b) => b.id)), types: new Uint16Array(boats.length), flags: new Uint16Array(boats.length),
    pos: Float64Array.from(boats.flatMap((b) => b.p)), quat: Float32Array.from(boats.flatMap((b) => b.q ?? [0, 0, 0, 1])),
    vel: new Float32Array(3 * boats.length),
  });
  const tl = new Timeline(0.1);
  const pose = emptyPose();
  // 10 Hz snapshots of two boats; boat 2 moves 1 m per tick in x.
  for (let k = 0; k < 10; k++) tl.push(frame(k + 1, k * 0.1, [{ id: 1, p: [0, 0, 0] }, { id: 2, p: [k, 0, 5] }]), 100 + k * 0.1);
  check(tl.sample(0.55, pose), "sample");
  check(pose.count === 2 && Math.abs(pose.pos[3] - 5.5) < 1e-9 && pose.pos[5] === 5 && !pose.starved, `midway: x ${pose.pos[3]}`);
  // Arrivals late by up to 30 ms: the clock follows the earliest, the
  // drawn time is 100 ms behind the newest snapshot.
  const late = new Timeline(0.1);
  for (let k = 0; k < 20; k++) late.push(frame(k + 1, k * 0.05, [{ id: 1, p: [k, 0, 0] }]), 10 + k * 0.05 + (k % 3) * 0.015);
  const drawn = late.drawTime(10 + 19 * 0.05);
  check(Math.abs(drawn - (19 * 0.05 - 0.1)) < 1e-9, `draw time ${drawn}, expected ${19 * 0.05 - 0.1}`);
  // Boats in another order, a new one, one gone.
  const tl2 = new Timeline(0.1);
  tl2.push(frame(1, 0, [{ id: 5, p: [0, 0, 0] }, { id: 6, p: [10, 0, 0] }, { id: 7, p: [3, 0, 0] }]), 0);
  tl2.push(frame(2, 1, [{ id: 6, p: [20, 0, 0] }, { id: 5, p: [2, 0, 0] }, { id: 8, p: [-4, 0, 0] }]), 1);
  tl2.sample(0.5, pose);
  check(pose.count === 3 && Array.from(pose.ids.subarray(0, 3)).join() === "6,5,8", `ids ${pose.ids.subarray(0, 3)}`);
  check(pose.pos[0] === 15 && pose.pos[3] === 1 && pose.pos[6] === -4, `reordered blend: ${pose.pos.subarray(0, 9)}`);
  // Past the newest: held, flagged starved.
  tl2.sample(1.5, pose);
  check(pose.starved && pose.pos[0] === 20, `held past the newest: ${pose.starved} ${pose.pos[0]}`);
  // A tick going back (a new server) starts over.
  tl2.push(frame(1, 0, [{ id: 1, p: [1, 1, 1] }]), 2);
  check(tl2.size === 1 && tl2.newest.ids[0] === 1, `restart: ${tl2.size} frames`);
  // nlerp takes the short way: q and -q are one rotation.
  const out = new Float32Array(4);
  const s = Math.SQRT1_2;
  nlerp([0, 0, 0, 1], 0, [0, -s, 0, -s], 0, 0.5, out, 0); // -(90 deg about y)
  const angle = 2 * Math.acos(Math.min(1, Math.abs(out[3])));
  check(Math.abs(angle - Math.PI / 4) < 1e-6 && Math.abs(Math.hypot(...out) - 1) < 1e-6, `nlerp halfway: ${out}, angle ${angle}`);

  testView();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// ---- damage ------------------------------------------------------------------------

function sameDamage(got, want, what) {
  check(got.length === want.length, `${what}: ${got.length} entries, expected ${want.length}`);
  want.forEach((w, i) => {
    const g = got[i] ?? {};
    check(g.id === w.id && g.flags === w.flags && g.holes === w.holes && JSON.stringify(g.fill) === JSON.stringify(w.fill),
      `${what} ${i}: ${JSON.stringify(g)} != ${JSON.stringify(w)}`);
  });
}

function sameEvents(got, want, what) {
  check(got.length === want.length, `${what}: ${got.length} events, expected ${want.length}`);
  want.forEach((w, i) => {
    const g = got[i] ?? { point: [] };
    check(g.tick === w.tick && g.id === w.id && g.kind === w.kind && g.compartment === w.compartment && g.area === f32(w.area) &&
      g.point.every((v, k) => v === f32(w.point[k])), `${what} ${i}: ${JSON.stringify(g)} != ${JSON.stringify(w)}`);
  });
}

function testDamage() {
  const dir = join(tmp, "damage");
  mkdirSync(dir);
  execFileSync(damageFixture, [dir], { stdio: ["ignore", "ignore", "inherit"] });
  const read = (name) => readFileSync(join(dir, name));
  const json = (name) => JSON.parse(readFileSync(join(dir, name), "utf8"));
  const ab = (b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);

  // 1. A full snapshot: every damaged vessel, every kind of event.
  const snap = decodeSnapshot(ab(read("snapshot.bin")));
  const ws = json("snapshot.json");
  check(snap.tick === ws.tick, `damage snapshot tick ${snap.tick}`);
  sameDamage(snap.damage, ws.damage, "snapshot damage");
  sameEvents(snap.damageEvents, ws.damage_events, "snapshot damage event");
  check(new Set(snap.damageEvents.map((e) => e.kind)).size === 5, "the snapshot has events of all five kinds");

  // 2. World info: compartment volumes and pump rates per type; the DamageReply.
  const r = decodeResponse(new Uint8Array(read("response.bin")));
  const wr = json("response.json");
  check(r.body.kind === "worldInfo" && r.body.info.types.length === wr.types.length, `world info: ${JSON.stringify(r.body.kind)}`);
  wr.types.forEach((w, i) => {
    const t = r.body.info.types[i];
    check(t.name === w.name && t.pumpRate === f32(w.pump_rate), `type ${i}: ${t.name} pump rate ${t.pumpRate}, expected ${w.name} ${w.pump_rate}`);
    check(t.compartmentVolumes.length === w.compartment_volumes.length && t.compartmentVolumes.every((v, k) => v === f32(w.compartment_volumes[k])),
      `type ${i} volumes ${t.compartmentVolumes} != ${w.compartment_volumes}`);
  });
  // the structures, as the C codec wrote them
  const st = r.body.info.structures;
  check(st.length === wr.structures.length && wr.structures.length === 1, `world info: ${st.length} structures, expected ${wr.structures.length}`);
  wr.structures.forEach((w, i) => {
    check(st[i].vertices.length === w.vertices.length && st[i].vertices.every((v, k) => v === f32(w.vertices[k])), `structure ${i} vertices ${st[i].vertices}`);
    check(st[i].indices.length === w.indices.length && st[i].indices.every((v, k) => v === w.indices[k]), `structure ${i} indices ${st[i].indices}`);
  });
  const reply = decodeResponse(new Uint8Array(read("reply.bin")));
  check(reply.body.kind === "damage" && reply.body.compartment === 3, `damage reply: ${JSON.stringify(reply.body)}`);

  // 3. A view session: each update's damage entries and events, and the damage held after it.
  const bin = read("updates.bin");
  const want = json("updates.json");
  const msgs = [];
  for (let o = 0; o < bin.length; ) {
    const n = bin.readUInt32LE(o);
    msgs.push(new Uint8Array(bin.buffer, bin.byteOffset + o + 4, n));
    o += 4 + n;
  }
  check(msgs.length === want.length && msgs.length > 100, `damage session: ${msgs.length} updates, ${want.length} expected`);
  const dec = new view.ViewDecoder();
  let bad = 0, entries = 0, events = 0, clears = 0, keyframesWithDamage = 0;
  msgs.forEach((m, i) => {
    if (bad > 3) return;
    const w = want[i], before = failures;
    let info;
    try {
      info = dec.read(m);
    } catch (e) {
      check(false, `damage update ${i + 1}: refused: ${e.message}`);
      bad++;
      return;
    }
    check(info.seq === w.seq && info.keyframe === !!w.keyframe, `damage update ${i + 1}: seq ${info.seq}`);
    sameDamage(info.damage, w.damage, `update ${info.seq} damage entry`);
    sameEvents(info.damageEvents, w.damage_events, `update ${info.seq} damage event`);
    sameEvents(dec.damageEvents, w.damage_events, `update ${info.seq} the decoder's damage event`);
    sameDamage([...dec.damage.values()].sort((a, b) => a.id - b.id), w.held, `update ${info.seq} held damage`);
    for (const d of dec.damage.values()) check(dec.held.has(d.id) && !damageLib.isClear(d), `update ${info.seq}: damage of ${d.id} kept wrongly`);
    entries += info.damage.length;
    events += info.damageEvents.length;
    clears += info.damage.filter((d) => damageLib.isClear(d)).length;
    keyframesWithDamage += info.keyframe && info.damage.length > 0;
    if (failures > before) bad++;
  });
  check(entries > 50 && events > 100 && clears >= 1 && keyframesWithDamage >= 1,
    `damage session coverage: ${entries} entries, ${events} events, ${clears} clearing, ${keyframesWithDamage} keyframes with damage`);
  if (!bad) log(`damage: snapshot, world info, reply and a view session of ${msgs.length} updates (${entries} damage entries, ${events} events) read as the C decoders did`);
  check(view.MAX_DAMAGE_EVENTS === 256, `MAX_DAMAGE_EVENTS ${view.MAX_DAMAGE_EVENTS}`);

  // 4. The page's arithmetic: attitude as core/statics.c, compartments, messages.
  const { attitude, compartments, describeEvent, isClear } = damageLib;
  const rot = (ax, deg) => {
    const h = (deg * Math.PI) / 360, q = [0, 0, 0, Math.cos(h)];
    q[ax] = Math.sin(h);
    return q;
  };
  let a = attitude(rot(0, 10)); // about +x (the bow): starboard (+z) goes down
  check(Math.abs(a.heel - 10) < 1e-9 && Math.abs(a.trim) < 1e-9 && !a.capsized, `heel 10: ${JSON.stringify(a)}`);
  a = attitude(rot(2, 5)); // about +z (starboard): the bow (+x) goes up
  check(Math.abs(a.trim - 5) < 1e-9 && Math.abs(a.heel) < 1e-9, `trim 5: ${JSON.stringify(a)}`);
  a = attitude(rot(0, 120));
  check(a.capsized && Math.abs(a.heel - 120) < 1e-9, `heeled 120 degrees: ${JSON.stringify(a)}`);
  a = attitude(rot(0, 180)); // keel-up: heel 180 (in (-180, 180]), not 0
  check(a.capsized && Math.abs(a.heel - 180) < 1e-9 && Math.abs(a.trim) < 1e-9, `keel-up: ${JSON.stringify(a)}`);
  a = attitude(rot(0, -100));
  check(a.capsized && Math.abs(a.heel + 100) < 1e-9, `heeled -100 degrees: ${JSON.stringify(a)}`);
  check(!attitude(rot(2, -95)).capsized, "stood on its bow is not capsized");
  check(!attitude([0, 0, 0, 1]).capsized && attitude(rot(0, -179)).capsized, "upright and upside down");
  const c = compartments({ id: 1, flags: 0, holes: 1, fill: [0, 255, 51] }, [10, 20]);
  check(c[1].water === 20 && c[1].fraction === 1 && Math.abs(c[2].fraction - 0.2) < 1e-12 && Number.isNaN(c[2].water), `compartments ${JSON.stringify(c)}`);
  check(isClear({ id: 1, flags: 0, holes: 0, fill: [0, 0] }) && !isClear({ id: 1, flags: 1, holes: 0, fill: [] }), "clearing entries");
  const msg = describeEvent({ tick: 1, id: 12, kind: 0, compartment: 2, area: 0.5, point: [0, 0, 0] }, "patrol");
  check(msg === "boat 12 (patrol): holed in compartment 3, 0.50 m²", `breach message: ${msg}`);
  check(describeEvent({ tick: 1, id: 7, kind: 3, compartment: 255, area: 0, point: [0, 0, 0] }) === "boat 7: sunk", "sunk message");
}

// ---- player views ----------------------------------------------------------------

/** Expect fn to throw a ViewError whose message matches re. */
function refuses(fn, re, what) {
  let threw = null;
  try {
    fn();
  } catch (e) {
    threw = e;
  }
  check(threw instanceof view.ViewError && re.test(threw.message), `${what}: ${threw ? threw.message : "not refused"}`);
}

function testView() {
  const { ViewDecoder, readViewUpdate, decodeRecords, encodeViewRequest, predict, orientation, pair1Frame, pair1Body } = view;
  const dir = join(tmp, "session");
  mkdirSync(dir);
  execFileSync(benchView, ["--write-session", dir]);
  const bin = readFileSync(join(dir, "updates.bin"));
  const want = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8"));
  const msgs = [];
  for (let o = 0; o < bin.length; ) {
    const n = bin.readUInt32LE(o);
    msgs.push(new Uint8Array(bin.buffer, bin.byteOffset + o + 4, n));
    o += 4 + n;
  }
  check(msgs.length === want.length && msgs.length > 100, `session: ${msgs.length} updates, ${want.length} expected`);

  // 1. Every update, in order: what the decoder holds is what the C decoder held.
  const dec = new ViewDecoder();
  const seen = { keyframes: 0, events: [0, 0, 0, 0], samples: new Set() };
  let mismatches = 0;
  msgs.forEach((m, i) => {
    if (mismatches > 5) return;
    const w = want[i], where = `update ${i + 1}`;
    let info;
    try {
      info = dec.read(m);
    } catch (e) {
      check(false, `${where}: refused: ${e.message}`);
      mismatches++;
      return;
    }
    const errs = [];
    if (info.tick !== w.tick) errs.push(`tick ${info.tick} != ${w.tick}`);
    if (JSON.stringify(info.events) !== JSON.stringify(w.events)) errs.push(`events ${JSON.stringify(info.events)} != ${JSON.stringify(w.events)}`);
    const held = [...dec.held.values()].sort((a, b) => a.id - b.id);
    if (held.map((v) => v.id).join() !== w.held.join()) errs.push(`holds ${held.map((v) => v.id)}, expected ${w.held}`);
    else
      w.vessels.forEach((v) => {
        // The vessels this update brought (the C side lists those): their newest sample.
        const h = dec.held.get(v.id), s = h.samples[h.samples.length - 1];
        if (h.type !== v.type || h.flags !== v.flags || h.samples.length !== v.samples || s.tick !== v.tick)
          errs.push(`vessel ${h.id}: type ${h.type} flags ${h.flags} ${h.samples.length} samples tick ${s.tick}, expected ${v.type} ${v.flags} ${v.samples} ${v.tick}`);
        if (!s.pos.every((x, j) => x === v.p[j])) errs.push(`vessel ${h.id} position ${s.pos} != ${v.p}`);
        if (!s.quat.every((x, j) => x === f32(v.q[j]))) errs.push(`vessel ${h.id} orientation ${s.quat} != ${v.q}`);
        seen.samples.add(h.samples.length);
      });
    if (errs.length) {
      mismatches++;
      check(false, `${where} (seq ${info.seq}, base ${info.baseSeq}${info.keyframe ? ", keyframe" : ""}): ${errs.slice(0, 3).join(" | ")}`);
    }
    seen.keyframes += info.keyframe;
    for (const [, k] of info.events) seen.events[k]++;
  });
  // The session is what its description says: joins, leaves, a despawn, a spawn, a keyframe fallback.
  check(seen.keyframes >= 1 && seen.events.every((n) => n > 0) && seen.samples.has(16), `session coverage: ${JSON.stringify({ ...seen, samples: [...seen.samples] })}`);
  const a = dec.ack;
  check(a.ack === msgs.length && a.ackMask === 0xffffffff, `ack after the session: ${a.ack} mask ${a.ackMask.toString(16)}`);
  if (!mismatches) log(`view session: ${msgs.length} updates (${seen.keyframes} keyframes) decoded as the C decoder did; events ${seen.events}`);

  // 2. Refusals change nothing; acks say what was received.
  const d2 = new ViewDecoder();
  for (const i of [0, 1, 2]) d2.read(msgs[i]);
  const heldBefore = [...d2.held.keys()].join();
  refuses(() => d2.read(msgs[2]), /not after/, "an update read twice");
  refuses(() => d2.read(msgs[1]), /not after/, "an older update");
  check([...d2.held.keys()].join() === heldBefore, "a refusal changed what is held");
  // Skip one update (its seq is then never acknowledged), read one whose base the client has.
  const hdr = msgs.map((m) => readViewUpdate(m).info);
  const skipped = hdr[3].seq;
  const next = hdr.findIndex((h, i) => i > 3 && !h.keyframe && h.baseSeq < skipped);
  check(next > 3, "the session has an update on an older base after the fourth");
  d2.read(msgs[next]);
  const gap = hdr[next].seq - 1 - skipped; // bits for the updates between, not received either
  const ack2 = d2.ack;
  let mask = 0;
  for (let k = 0; k < 32; k++) {
    const s = hdr[next].seq - 1 - k;
    if (s >= 1 && s <= hdr[2].seq) mask |= 1 << k;
  }
  check(ack2.ack === hdr[next].seq && ack2.ackMask === mask >>> 0, `ack with a gap of ${gap + 1}: ${ack2.ack} ${ack2.ackMask.toString(2)}, expected ${mask.toString(2)}`);
  const onSkipped = hdr.findIndex((h) => h.baseSeq === skipped);
  check(onSkipped > next, "the session has an update on the fourth");
  refuses(() => d2.read(msgs[onSkipped]), /never received/, "an update on a base never received");
  // Not a view update; a refusal of our request (status not Ok) is outside the sequence.
  refuses(() => new ViewDecoder().read(new Uint8Array(6)), /too short/, "6 bytes");
  const wrongId = new Uint8Array(msgs[0]);
  wrongId.set([0x4e, 0x56, 0x56, 0x52], 4); // NVVR
  refuses(() => new ViewDecoder().read(wrongId), /identifier "NVVR", expected NVVU/, "a request read as an update");

  // 3. The record stream must end in its last byte.
  const kf = readViewUpdate(msgs[0]);
  check(kf.data.length > 4 && kf.header.recordCount > 0, "the first update has records");
  refuses(() => decodeRecords(kf.data.subarray(0, kf.data.length - 1), kf.header), /ends early|cannot fit/, "a stream cut short");
  const longer = new Uint8Array(kf.data.length + 1);
  longer.set(kf.data);
  refuses(() => decodeRecords(longer, kf.header), /left after/, "a byte after the records");
  check(decodeRecords(kf.data, kf.header).length === kf.header.recordCount, "the first update's records alone");
  // An update record needs its vessel in the base.
  const upd = hdr.findIndex((h, i) => i > 0 && !h.keyframe && h.records > 0 && want[i].events.length === 0);
  const u = readViewUpdate(msgs[upd]);
  refuses(() => decodeRecords(u.data, u.header, new Map()), /base does not hold/, "an update against an empty base");

  // 4. Prediction, exactly as the document gives it (integers, R rounds halves up).
  const st = (tick, px, o = [1000, 1000, 1000], oi = 3) => ({ tick, px, py: -px, pz: 0, oi, o0: o[0], o1: o[1], o2: o[2], flags: 0, type: 1 });
  let p = predict(st(10, 0), st(20, 5), 25); // 5 + R(25, 10) = 5 + 3 (2.5 up)
  check(p.px === 8 && p.py === -7 && p.tick === 25, `predict: ${p.px} ${p.py}`); // -5 + R(-25, 10) = -5 - 2 (-2.5 up)
  p = predict(st(10, 0, [2040, 5, 1000]), st(20, 5, [2046, 1, 1000]), 30); // 2046 + 6 -> 2047; 1 - 4 -> 0
  check(p.o0 === 2047 && p.o1 === 0 && p.o2 === 1000, `predict orientation clamped: ${p.o0} ${p.o1} ${p.o2}`);
  p = predict(st(10, 0, [0, 0, 0], 1), st(20, 5, [9, 9, 9], 3), 30);
  check(p.px === 10 && p.o0 === 9 && p.oi === 3, `predict across a change of the largest component: ${JSON.stringify(p)}`);
  p = predict(st(0, 0), st(121, 5), 130);
  check(p.px === 5, `predict from samples 121 ticks apart: ${p.px}`);
  p = predict(st(0, 0), st(100, 100), 221);
  check(p.px === 100, `predict 121 ticks ahead: ${p.px}`);
  p = predict(st(0xfffffff0, 0), st(6, 22), 17); // ticks wrap: dt0 22, dt 11
  check(p.px === 33, `predict over a tick wrap: ${p.px}`);
  p = predict(null, st(20, 5), 21);
  check(p.px === 5 && p.tick === 21, `predict from one sample: ${p.px}`);
  const q = orientation(3, 1024, 1024, 1024); // about the identity
  check(Math.abs(q[3] - 1) < 1e-6 && q.every((x) => x === f32(x)), `orientation: ${q}`);

  // 5. ViewRequests, read back by flatc with the schema.
  const token = { lo: 0x0123456789abcdefn, hi: 0xfedcba9876543210n };
  const reqs = [
    ["ack", { ack: 4000000000, ackMask: 0xfffffffe }],
    ["settings", { ack: 7, ackMask: 5, settings: { centerX: -1234.5, centerZ: 98765.25, radius: 1500, budgetKbps: 512, followOwn: true, own: [{ id: 3, token }, { id: 77, token: { lo: 1n, hi: 2n } }] } }],
  ];
  for (const [name, spec] of reqs) {
    const data = encodeViewRequest(spec);
    check(Buffer.from(data.subarray(4, 8)).toString() === "NVVR", `view request ${name}: identifier`);
    const framed = pair1Frame(data);
    check(framed.length === data.length + 4 && framed[0] === 0 && framed[3] === 0 && framed[4] === data[0], `view request ${name}: PAIR1 framing`);
    check(pair1Body(framed.buffer).length === data.length, `view request ${name}: PAIR1 body`);
    const bin = join(tmp, `view-${name}.bin`);
    writeFileSync(bin, data);
    execFileSync(flatc, ["--json", "--strict-json", "--raw-binary", "--defaults-json", "--root-type", "naval.proto.ViewRequest", "-o", tmp, schema, "--", bin]);
    const text = readFileSync(join(tmp, `view-${name}.json`), "utf8");
    const got = JSON.parse(text);
    check(got.ack === spec.ack && got.ack_mask === spec.ackMask, `view request ${name}: ack ${got.ack} mask ${got.ack_mask}`);
    const s = spec.settings;
    if (!s) {
      check(got.settings === undefined, `view request ${name}: settings ${JSON.stringify(got.settings)}`);
      continue;
    }
    const gs = got.settings ?? {};
    check(gs.center_x === s.centerX && gs.center_z === s.centerZ && gs.radius === s.radius && gs.budget_kbps === s.budgetKbps && gs.follow_own === true,
      `view request ${name}: settings ${JSON.stringify(gs)}`);
    check((gs.own ?? []).map((o) => o.id).join() === "3,77", `view request ${name}: own ${JSON.stringify(gs.own)}`);
    const los = [...text.matchAll(/"lo":\s*(\d+)/g)].map((m) => BigInt(m[1])), his = [...text.matchAll(/"hi":\s*(\d+)/g)].map((m) => BigInt(m[1]));
    check(los.join() === `${token.lo},1` && his.join() === `${token.hi},2`, `view request ${name}: tokens ${los} ${his}`);
  }

  // 6. The playout: each vessel between its own samples, carried on past its newest for a while.
  const sample = (simTime, x, yaw = 0) => ({ tick: 0, simTime, state: null, pos: [x, 0, 0], quat: [0, Math.sin(yaw / 2), 0, Math.cos(yaw / 2)] });
  const heldMap = new Map([
    [1, { id: 1, type: 0, flags: 0, samples: [sample(0, 0), sample(0.1, 1, 0.2), sample(0.2, 2, 0.4)] }],
    [2, { id: 2, type: 1, flags: 4, samples: [sample(0, 10)] }],
    [3, { id: 3, type: 1, flags: 0, samples: [sample(0, 20), sample(0.5, 25)] }],
  ]);
  const play = new ViewPlayout(0.1, 0.25);
  play.push(0.2, 6, 100);
  const pose = emptyPose();
  check(play.sample(heldMap, 0.15, pose) && pose.count === 3, "playout: three vessels");
  check(Math.abs(pose.pos[0] - 1.5) < 1e-12 && Math.abs(2 * Math.asin(pose.quat[1]) - 0.3) < 1e-6, `playout: between samples ${pose.pos[0]} ${pose.quat[1]}`);
  check(pose.pos[3] === 10 && pose.flags[1] === 4 && pose.types[1] === 1, "playout: one sample held");
  check(Math.abs(pose.pos[6] - 21.5) < 1e-12, `playout: a slow vessel ${pose.pos[6]}`);
  play.sample(heldMap, 0.3, pose);
  check(Math.abs(pose.pos[0] - 3) < 1e-12 && pose.starved, `playout: carried on past the newest ${pose.pos[0]}`);
  play.sample(heldMap, 1, pose);
  check(Math.abs(pose.pos[0] - 4.5) < 1e-12, `playout: carried on at most 0.25 s ${pose.pos[0]}`);
  play.sample(heldMap, -1, pose);
  check(pose.pos[0] === 0 && pose.pos[6] === 20, "playout: before every sample");
  check(Math.abs(play.drawTime(100) - 0.1) < 1e-12, `playout: drawn 100 ms behind ${play.drawTime(100)}`);
}

if (failures) {
  console.error(`test_web_unit: ${failures} failure(s)`);
  process.exit(1);
}
console.log("test_web_unit: ok");
