// SPDX-License-Identifier: MIT
// The TypeScript client package (@naval/client, clients/ts) as a game
// would use it, against a real naval-server on free loopback ports:
// imported through its package.json "exports" from the built package,
// with the `ws` WebSocket (Node 20 has none). It connects (Hello), reads
// the world info and a hull, receives decoded snapshots, spawns a boat by
// type name, sees it in later snapshots, drives it ahead (it moves along
// its bow) and turns it (its heading changes), sees it in a player view
// opened on it, gets the server's reasons for a wrong token and an unknown
// type, despawns it (gone from later snapshots) and cannot connect to a
// closed port.
//
// Usage: node test_ts_client.mjs CLIENT_TS_STAGE NAVAL_SERVER
//   CLIENT_TS_STAGE: BUILD/clients/ts (built by the target client_ts)
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { freePort } from "./web_harness.mjs";

const [stage, serverBin] = process.argv.slice(2).map((a) => resolve(a));
if (!serverBin) {
  console.error("usage: node test_ts_client.mjs CLIENT_TS_STAGE NAVAL_SERVER");
  process.exit(2);
}
const TICK_HZ = 30;
const BOATS = 4;
let serverLog = "";
let failures = 0;

function check(cond, msg) {
  if (cond) {
    console.log(`ok: ${msg}`);
    return;
  }
  failures++;
  console.error(`FAIL: ${msg}`);
}
function fatal(msg) {
  console.error(`FAIL: ${msg}`);
  if (serverLog) console.error(`server log (last lines):\n${serverLog.split("\n").slice(-15).join("\n")}`);
  process.exit(1);
}

// ---- the package, as a dependent project would load it ----------------------

const pkg = JSON.parse(readFileSync(join(stage, "package.json"), "utf8"));
const entry = pkg.exports?.["."]?.import;
if (!entry || !existsSync(join(stage, entry))) fatal(`${stage}/package.json: exports["."].import (${entry}) is missing: build the target client_ts`);
const naval = await import(pathToFileURL(join(stage, entry)).href);
const WebSocket = createRequire(join(stage, "package.json"))("ws");
const { NavalClient, headingOf, speedOf } = naval;

// ---- the server ----------------------------------------------------------------

async function startServer() {
  const ports = { snap: await freePort(), compact: await freePort(), cmd: await freePort(), view: await freePort(), http: await freePort() };
  const args = [
    "--boats", String(BOATS), "--terrain", "none", "--threads", "1", "--tick-hz", String(TICK_HZ), "--log-level", "warn",
    "--snapshot-url", `tcp://127.0.0.1:${ports.snap}`, "--compact-url", `tcp://127.0.0.1:${ports.compact}`,
    "--command-url", `tcp://127.0.0.1:${ports.cmd}`, "--view-url", `tcp://127.0.0.1:${ports.view}`,
    "--http", `127.0.0.1:${ports.http}`,
  ];
  const p = spawn(serverBin, args, { stdio: ["ignore", "ignore", "pipe"] });
  p.stderr.on("data", (d) => (serverLog += d.toString()));
  p.exited = new Promise((res) => p.once("exit", (code, sig) => res(code ?? sig)));
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${ports.http}/healthz`)).ok) return { p, http: ports.http };
    } catch {
      // not listening yet
    }
    if (p.exitCode !== null) fatal(`naval-server exited with ${p.exitCode}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  p.kill("SIGKILL");
  fatal("naval-server did not answer /healthz within 10 s");
}

async function stopServer(p) {
  if (p.exitCode !== null) return;
  p.kill("SIGTERM");
  const timer = setTimeout(() => p.kill("SIGKILL"), 5000);
  await p.exited;
  clearTimeout(timer);
}

/** The error a promise rejects with (null when it resolves). */
async function rejection(promise) {
  try {
    await promise;
    return null;
  } catch (e) {
    return e;
  }
}

/** A vessel's pose in a snapshot: position, and its bow's heading in degrees about +y from +x toward -z. */
function pose(f, id) {
  const i = f.ids.indexOf(id);
  if (i < 0) return null;
  const [x, y, z, w] = f.quat.subarray(4 * i, 4 * i + 4);
  // The body's +x (the bow) in the world: the first column of the rotation.
  const bx = 1 - 2 * (y * y + z * z), bz = 2 * (x * z - w * y);
  return { i, x: f.pos[3 * i], z: f.pos[3 * i + 2], heading: (Math.atan2(-bz, bx) * 180) / Math.PI };
}

const angleDiff = (a, b) => ((((a - b) % 360) + 540) % 360) - 180;

// ---- the session ---------------------------------------------------------------

const { p: server, http } = await startServer();
let client;
try {
  client = await NavalClient.connect(`127.0.0.1:${http}`, { WebSocket, clientName: "test_ts_client", timeoutMs: 5000 });
  check(client.server.tickHz === TICK_HZ, `hello: tick rate ${client.server.tickHz} Hz (expected ${TICK_HZ})`);
  check(client.server.maxVesselsPerClient > 0, `hello: ${client.server.maxVesselsPerClient} vessels per client`);

  const world = await client.worldInfo();
  check(world.tickHz === TICK_HZ && world.types.length > 0, `world info: ${world.tickHz} Hz, types ${world.types.map((t) => t.name).join(", ")}`);
  check(world.terrain === null, "world info: no terrain (--terrain none)");
  check(Array.isArray(world.structures) && world.structures.length === 0, `world info: ${world.structures?.length} structures (none in the default world)`);
  const type = world.types.find((t) => t.name === "skiff") ?? world.types[0];
  const hull = await client.hull(type.type);
  check(hull.name === type.name && hull.vertices.length === 3 * type.vertexCount && hull.indices.length === 3 * type.triangleCount,
    `hull ${hull.name}: ${hull.vertices.length / 3} vertices, ${hull.indices.length / 3} triangles as the world info says (${type.vertexCount}, ${type.triangleCount})`);
  check(hull.indices.every((k) => k < hull.vertices.length / 3), "hull: every index names a vertex");

  const stream = client.snapshots();
  const first = await stream.next();
  check(first.count === BOATS && first.stats.vesselCount === BOATS, `snapshot: ${first.count} vessels (expected ${BOATS})`);
  const later = await stream.next((f) => f.tick > first.tick);
  check(later.simTime > first.simTime, `snapshots advance: tick ${first.tick} -> ${later.tick}`);

  // The package's heading helper reads back a spawn's heading (radians).
  const turnedOne = await client.spawn({ type: type.name, x: 150, z: -80, heading: 0.7 });
  const at07 = await stream.next((f) => f.ids.includes(turnedOne.id));
  const h07 = headingOf(at07, at07.ids.indexOf(turnedOne.id));
  check(Math.abs(h07 - 0.7) < 0.03, `headingOf: a boat spawned at 0.7 rad heads ${h07.toFixed(3)} rad`);
  await client.despawn(turnedOne);
  await stream.next((f) => !f.ids.includes(turnedOne.id));

  const boat = await client.spawn({ type: type.name, x: -150, z: 80, heading: 0 });
  check(Number.isInteger(boat.id) && typeof boat.token.lo === "bigint", `spawn ${type.name}: vessel ${boat.id} at (${boat.x.toFixed(1)}, ${boat.z.toFixed(1)})`);
  const seen = await stream.next((f) => f.ids.includes(boat.id));
  const p0 = pose(seen, boat.id);
  check(seen.types[p0.i] === type.type, `snapshot: vessel ${boat.id} is of type ${seen.types[p0.i]} (expected ${type.type})`);
  check(!first.ids.includes(boat.id), `snapshot: vessel ${boat.id} is new (not one of the first snapshot's)`);
  check(Math.hypot(p0.x - boat.x, p0.z - boat.z) < 2, `snapshot: vessel ${boat.id} at (${p0.x.toFixed(1)}, ${p0.z.toFixed(1)}), where the spawn reply put it`);

  // Full ahead: it moves, and along its bow.
  await client.control(boat, 1, 0);
  const ahead = await stream.next((f) => f.simTime >= seen.simTime + 4 && f.ids.includes(boat.id), 15000);
  const p1 = pose(ahead, boat.id);
  const dx = p1.x - p0.x, dz = p1.z - p0.z, moved = Math.hypot(dx, dz);
  const h = (p0.heading * Math.PI) / 180, along = dx * Math.cos(h) - dz * Math.sin(h);
  check(moved > 3, `full ahead for ${(ahead.simTime - seen.simTime).toFixed(1)} s: moved ${moved.toFixed(1)} m`);
  check(along > 0.9 * moved, `full ahead: ${along.toFixed(1)} of ${moved.toFixed(1)} m along the bow (heading ${p0.heading.toFixed(1)} deg)`);
  const v = speedOf(ahead, p1.i);
  check(v > 0.5 && v === Math.hypot(ahead.vel[3 * p1.i], ahead.vel[3 * p1.i + 2]), `full ahead: speedOf says ${v.toFixed(2)} m/s`);
  check(Math.abs((headingOf(ahead, p1.i) * 180) / Math.PI - p1.heading) < 1e-9, `headingOf: ${headingOf(ahead, p1.i).toFixed(3)} rad, the bow's direction`);

  // Hard over: the heading turns.
  await client.control(boat, 1, 1);
  const turned = await stream.next((f) => f.simTime >= ahead.simTime + 5 && f.ids.includes(boat.id), 15000);
  const p2 = pose(turned, boat.id);
  const turn = angleDiff(p2.heading, p1.heading);
  check(Math.abs(turn) > 15, `rudder hard over for ${(turned.simTime - ahead.simTime).toFixed(1)} s: heading ${p1.heading.toFixed(1)} -> ${p2.heading.toFixed(1)} deg (${turn.toFixed(1)})`);

  // A player view on the boat: it is held, where the snapshots have it.
  let updates = 0;
  const view = client.openView({ centerX: p2.x, centerZ: p2.z, radius: 500, own: [boat] }, () => updates++);
  const held = await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`view: vessel ${boat.id} not held within 5 s (${updates} updates, refusal "${view.refusal}", errors ${view.errors} ${view.lastError})`)), 5000);
    const poll = setInterval(() => {
      const hv = view.held.get(boat.id);
      if (hv && hv.samples.length >= 2) {
        clearTimeout(timer);
        clearInterval(poll);
        res(hv);
      }
    }, 20);
  });
  const s = held.samples[held.samples.length - 1];
  const near = stream.latest && pose(stream.latest, boat.id);
  check(held.type === type.type && view.errors === 0 && view.refusal === "", `view: vessel ${boat.id} held (type ${held.type}) after ${updates} updates`);
  check(near && Math.hypot(s.pos[0] - near.x, s.pos[2] - near.z) < 20,
    `view: its sample at (${s.pos[0].toFixed(1)}, ${s.pos[2].toFixed(1)}), the snapshots' at (${near?.x.toFixed(1)}, ${near?.z.toFixed(1)})`);
  view.close();

  // Out of [-1, 1]: refused before it leaves, as the server would refuse it.
  const over = await rejection(client.control(boat, 2, 0));
  check(over instanceof RangeError && /control: throttle 2 must be in \[-1, 1\]/.test(over.message), `control(boat, 2, 0): ${over?.message}`);
  const nan = await rejection(client.control(boat, 0, NaN));
  check(nan instanceof RangeError && /rudder NaN/.test(nan.message), `control(boat, 0, NaN): ${nan?.message}`);

  // The server's reasons come through.
  const forged = await rejection(client.control({ id: boat.id, token: { lo: boat.token.lo ^ 1n, hi: boat.token.hi } }, 0, 0));
  check(forged && /control refused: unauthorized/.test(forged.message), `control with a wrong token: ${forged?.message}`);
  const unknown = await rejection(client.spawn({ type: "no-such-type" }));
  check(unknown && /spawn refused: \w+/.test(unknown.message), `spawn of an unknown type: ${unknown?.message}`);

  await client.despawn(boat);
  const gone = await stream.next((f) => !f.ids.includes(boat.id));
  check(gone.count === BOATS, `despawn: vessel ${boat.id} gone, ${gone.count} vessels`);
  const again = await rejection(client.despawn(boat));
  check(again && /despawn refused/.test(again.message), `despawn again: ${again?.message}`);
  check(stream.errors === 0, `snapshots: ${stream.errors} failed to decode ${stream.lastError}`);
  client.close();
  client = null;

  // Nothing listens on a fresh free port: connect says so within its timeout.
  const closed = await freePort();
  const t0 = Date.now();
  const refused = await rejection(NavalClient.connect(`127.0.0.1:${closed}`, { WebSocket, timeoutMs: 1500 }));
  check(refused && refused.message.includes(`cannot connect to ws://127.0.0.1:${closed}/ws/commands`) && Date.now() - t0 < 4000,
    `connect to a closed port: ${refused?.message}`);
  const bad = await rejection(NavalClient.connect("no port here", { WebSocket }));
  check(bad && /expected HOST:PORT/.test(bad.message), `connect to a malformed address: ${bad?.message}`);
  if (!globalThis.WebSocket) {
    // Node 20: no WebSocket class unless given one, and connect says so at once.
    const none = await rejection(NavalClient.connect(`127.0.0.1:${http}`, { timeoutMs: 3000 }));
    check(none && /no WebSocket class/.test(none.message), `connect without a WebSocket class: ${none?.message}`);
  }
} catch (e) {
  failures++;
  console.error(`FAIL: ${e.stack ?? e}`);
} finally {
  client?.close();
  await stopServer(server);
}
if (failures) {
  if (serverLog) console.error(`server log (last lines):\n${serverLog.split("\n").slice(-15).join("\n")}`);
  console.error(`${failures} check(s) failed`);
  process.exit(1);
}
console.log("test_ts_client: all checks passed");
