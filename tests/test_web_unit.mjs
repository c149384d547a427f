// SPDX-License-Identifier: MIT
// The web client's pure modules in Node (no browser): the snapshot decoder
// on a snapshot the C codec wrote (bench-proto --write-snapshot), the
// request encoder read back by flatc with the schema, and the snapshot
// timeline's interpolation and clock.
//
// Usage: node test_web_unit.mjs WEB_STAGE BENCH_PROTO FLATC SCHEMA
//   WEB_STAGE: BUILD/clients/web (lib/*.mjs made by the target web)
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [stage, benchProto, flatc, schema] = process.argv.slice(2).map((a) => resolve(a));
if (!schema) {
  console.error("usage: node test_web_unit.mjs WEB_STAGE BENCH_PROTO FLATC SCHEMA");
  process.exit(2);
}
if (!existsSync(join(stage, "lib", "wire.mjs"))) {
  console.error(`FAIL: ${stage}/lib/wire.mjs is missing: build the target web first`);
  process.exit(1);
}
const lib = (m) => import(pathToFileURL(join(stage, "lib", `${m}.mjs`)).href);
const { decodeSnapshot, encodeRequest } = await lib("wire");
const { Timeline, emptyPose, nlerp } = await lib("timeline");

let failures = 0;
function check(cond, msg) {
  if (!cond) {
    console.error(`FAIL: ${msg}`);
    failures++;
  }
}
const f32 = (x) => Math.fround(x);
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
    [{ kind: "control", id: 77, token, throttle: 0.75, rudder: -2 }, "Control", { vessel_id: 77, throttle: 0.75, rudder: -1 }],
    [{ kind: "despawn", id: 9, token }, "Despawn", { vessel_id: 9 }],
    [{ kind: "hull", type: 3 }, "GetHull", { type: 3 }],
    [{ kind: "hello", clientName: "unit" }, "Hello", { protocol_version: 1, client_name: "unit" }],
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
    if (spec.token) {
      // 64-bit integers: read from the text (JSON numbers are doubles).
      const lo = /"lo":\s*(\d+)/.exec(text)?.[1], hi = /"hi":\s*(\d+)/.exec(text)?.[1];
      check(lo !== undefined && BigInt(lo) === token.lo && BigInt(hi) === token.hi, `${type}: token lo ${lo} hi ${hi}`);
    }
  }
  threw = "";
  try {
    encodeRequest(1n, { kind: "control", id: 1, token, throttle: NaN, rudder: 0 });
  } catch (e) {
    threw = e.message;
  }
  check(/throttle must be a finite number/.test(threw), `NaN throttle: "${threw}"`);

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
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

if (failures) {
  console.error(`test_web_unit: ${failures} failure(s)`);
  process.exit(1);
}
console.log("test_web_unit: ok");
