// SPDX-License-Identifier: MIT
// A recorded session played in the browser. naval-server records 8 s of
// its demo fleet (--record); naval-replay --export-web writes the file at
// 10 Hz. In Node, this test walks the file itself (header, records) and
// decodes its snapshots with the page's wire.ts; the page's parser
// (replayfile.ts) must find the same ticks and times and refuse a wrong
// magic, version or a cut record by name; the player (replay.ts) keeps
// time at 1x and 4x, pauses, clamps seeks, stops at the end, and feeds
// the Timeline so that it draws a snapshot's boats at that snapshot's time.
// Then in headless chromium (?replay=URL from a local HTTP server, no
// naval-server): the page opens no WebSocket, shows the first snapshot,
// plays (the drawn tick advances), pauses (it stops), scrubs (the drawn
// boats are the file's at that time, and halfway between two snapshots
// the average of both), plays 4x about four times as fast as 1x, and
// loads a file from its Open button. Leaves a screenshot.
//
// Usage: node test_web_replay.mjs NAVAL_SERVER NAVAL_REPLAY WEB_STAGE OUT_DIR
//   WEB_STAGE: BUILD/clients/web (node_modules with esbuild and playwright-core, src/, dist/)
// Without chromium or playwright-core it fails after the Node part, naming
// them (skips, 77, when NAVAL_SKIP names browser).
// Environment: NAVAL_CHROMIUM (default /usr/bin/chromium).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  check, fail, freePort, freePorts, launchBrowser, loadChromium, log, parseArgs, requireBuilt, runTest, sleep, startServer,
  t0, waitUntil,
} from "./web_harness.mjs";

const [serverBin, replayBin, stage, outDir] = parseArgs("test_web_replay.mjs", ["NAVAL_SERVER", "NAVAL_REPLAY", "WEB_STAGE", "OUT_DIR"]);
let esbuild;
try {
  esbuild = createRequire(join(stage, "package.json"))("esbuild");
} catch (e) {
  // The stage's own build tool: without it the build is broken, not a tool missing.
  console.error(`FAIL: esbuild is not installed in ${stage}/node_modules (build the target web): ${e.message}`);
  process.exit(1);
}
requireBuilt(stage);

const TICK_HZ = 30, RATE_HZ = 10, RECORD_S = 8;
const tmp = mkdtempSync(join(tmpdir(), "naval-web-replay-"));
let server = null, http = null;

function throwsWith(fn, pattern, what) {
  try {
    fn();
  } catch (e) {
    check(pattern.test(e.message), `${what}: the error "${e.message}" does not match ${pattern}`);
    return;
  }
  fail(`${what}: no error`);
}

/** naval-server with --record for RECORD_S seconds, then SIGTERM (a clean end). */
async function record(recPath) {
  const args = ["--boats", "8", "--threads", "1", "--tick-hz", String(TICK_HZ), "--log-level", "warn", "--record", recPath];
  server = await startServer(serverBin, await freePorts(), args);
  await sleep(RECORD_S * 1000);
  server.kill("SIGTERM");
  check((await server.exited) === 0, "naval-server did not exit 0 on SIGTERM");
  server = null;
}

/** The file walked here, not by the page's parser: header, records, snapshots decoded by wire.ts. */
function walk(bytes, decodeSnapshot) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  check(Buffer.from(bytes.subarray(0, 8)).toString("latin1") === "NVREPLAY", "magic");
  const header = { version: dv.getUint32(8, true), types: dv.getUint32(12, true), snapshots: dv.getUint32(16, true), stride: dv.getUint32(20, true) };
  const kinds = [], snaps = [];
  for (let at = 32; at < bytes.length;) {
    const length = dv.getUint32(at, true), kind = dv.getUint32(at + 4, true);
    kinds.push(kind);
    if (kind === 3) {
      const copy = bytes.slice(at + 8, at + 8 + length);
      snaps.push(decodeSnapshot(copy.buffer));
    }
    at += 8 + length + ((8 - (length % 8)) % 8);
  }
  return { header, kinds, snaps };
}

/** The page's pure modules bundled for Node from the staged sources. */
async function bundle() {
  const entry = join(tmp, "entry.ts");
  writeFileSync(entry, ["replayfile", "replay", "timeline", "wire"].map((m) => `export * from ${JSON.stringify(join(stage, "src", m))};`).join("\n"));
  const out = join(tmp, "replay-lib.mjs");
  await esbuild.build({
    entryPoints: [entry], bundle: true, format: "esm", platform: "node", target: ["node18"], outfile: out,
    tsconfig: join(stage, "tsconfig.json"), logLevel: "warning",
  });
  return import(pathToFileURL(out).href);
}

function checkParser(lib, bytes, want) {
  const buf = () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const f = lib.parseReplay(buf());
  check(f.version === 1 && f.stride === want.header.stride && f.complete, `parsed header: version ${f.version}, stride ${f.stride}, complete ${f.complete}`);
  check(f.ticks.length === want.snaps.length, `the parser found ${f.ticks.length} snapshots, the walk ${want.snaps.length}`);
  want.snaps.forEach((s, i) => check(f.ticks[i] === s.tick && f.simTimes[i] === s.simTime, `snapshot ${i}: tick ${f.ticks[i]} / ${s.tick}`));
  check(f.world.tickHz === TICK_HZ && f.hulls.size === want.header.types && f.world.types.length === want.header.types, "world info and hulls");
  const mid = want.snaps[5];
  const g = f.frame(5);
  check(g.tick === mid.tick && g.count === mid.count && g.pos.every((v, k) => v === mid.pos[k]), "frame(5) is the walked snapshot 5");
  check(f.indexAfter(mid.simTime) === 5 && f.indexAfter(mid.simTime + 1e-6) === 6 && f.indexAfter(-1) === 0, "indexAfter");
  check(f.indexAfter(1e9) === f.ticks.length - 1, "indexAfter past the end");
  // refusals that say what is wrong
  const bad = (edit) => {
    const b = new Uint8Array(buf());
    edit(b);
    return b.buffer;
  };
  throwsWith(() => lib.parseReplay(bad((b) => b.set([88], 0))), /not NVREPLAY/, "a wrong magic");
  throwsWith(() => lib.parseReplay(bad((b) => b.set([2], 8))), /version 2; this page reads version 1/, "another version");
  throwsWith(() => lib.parseReplay(buf().slice(0, 32 + 8 + 100)), /record 0 at byte 32: \d+ bytes run past the end/, "a cut record");
  throwsWith(() => lib.parseReplay(bad((b) => b.set([9], 36))), /record 0 at byte 32: unknown kind 9/, "an unknown record kind");
  throwsWith(() => lib.parseReplay(buf().slice(0, 20)), /too short/, "a short file");
  // a file cut between records plays what it has, and says it is incomplete
  const lastRecord = want.kinds.length - 1;
  let cut = 32;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < lastRecord; i++) cut += 8 + dv.getUint32(cut, true) + ((8 - (dv.getUint32(cut, true) % 8)) % 8);
  const short = lib.parseReplay(buf().slice(0, cut));
  check(!short.complete && short.ticks.length === want.snaps.length - 1, `a file without its last record: complete ${short.complete}, ${short.ticks.length} snapshots`);
  return f;
}

function checkPlayer(lib, file, want) {
  const p = new lib.ReplayPlayer(file);
  check(p.start === want.snaps[0].simTime && p.end === want.snaps.at(-1).simTime && !p.playing, "player: start, end, paused");
  check(p.time(100) === p.start, "paused: the clock does not move");
  p.play(100);
  check(Math.abs(p.time(101) - (p.start + 1)) < 1e-9, "1x: one second a second");
  p.setSpeed(4, 101);
  check(Math.abs(p.time(102) - (p.start + 5)) < 1e-9, "4x: four seconds a second");
  p.pause(102);
  check(Math.abs(p.time(110) - (p.start + 5)) < 1e-9 && !p.playing, "paused at 5 s");
  p.seek(-100, 110);
  check(p.time(111) === p.start, "a seek before the start is the start");
  p.play(111);
  check(p.time(1000) === p.end && !p.playing, "playing stops at the end");
  // the timeline draws a snapshot's boats at its time, and blends between two
  const tl = new lib.Timeline(0.1), pose = lib.emptyPose();
  let played = 0, shown = 0;
  const k = 7, a = want.snaps[k], b = want.snaps[k + 1];
  p.seek(a.simTime, 0);
  p.feed(a.simTime, tl, () => played++, () => shown++);
  check(shown === 1 && played === 0, `after a seek: ${shown} shown, ${played} played`);
  check(tl.sample(a.simTime, pose) && pose.tick === a.tick && pose.count === a.count, `pose at snapshot ${k}: tick ${pose.tick}`);
  check(pose.pos.subarray(0, 3 * a.count).every((v, i) => v === a.pos[i]), `pose at snapshot ${k}: positions`);
  const half = (a.simTime + b.simTime) / 2;
  p.feed(half, tl, () => played++, () => shown++);
  check(played === 1 && shown === 1, `forward to the next snapshot: ${played} played`);
  tl.sample(half, pose);
  const j = Array.from(a.ids).indexOf(pose.ids[0]);
  check(j >= 0 && Math.abs(pose.pos[0] - (a.pos[3 * j] + b.pos[0]) / 2) < 1e-6, "halfway: the average of both snapshots");
  // playing on crosses every snapshot once
  p.feed(want.snaps[k + 10].simTime, tl, () => played++, () => shown++);
  check(played === 10 && shown === 1, `nine snapshots further: ${played} played in all`);
}

function contentType(p) {
  return { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".map": "application/json" }[extname(p)] ?? "application/octet-stream";
}

/** dist/ and the replay file, as any static web server would serve them. */
function serve(port, replayPath) {
  const dist = join(stage, "dist");
  http = createHttpServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    const file = path === "/session.nvreplay" ? replayPath : join(dist, path === "/" ? "index.html" : path.slice(1));
    if (!file.startsWith(dist) && file !== replayPath) return res.writeHead(403).end();
    if (!existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": contentType(file) }).end(readFileSync(file));
  });
  return new Promise((resolve) => http.listen(port, "127.0.0.1", resolve));
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const rec = join(tmp, "session.rec"), file = join(tmp, "session.nvreplay");
  await record(rec);
  const out = execFileSync(replayBin, [`${rec}.ckpt`, rec, "--export-web", file, "--rate", String(RATE_HZ), "--json"], { encoding: "utf8" });
  const summary = JSON.parse(out);
  check(summary.ok && summary.export_stride === TICK_HZ / RATE_HZ, `naval-replay: ${out}`);
  log(`recorded ${summary.end_tick - summary.base_tick} ticks; exported ${summary.exported_snapshots} snapshots`);

  const lib = await bundle();
  const bytes = new Uint8Array(readFileSync(file));
  const want = walk(bytes, lib.decodeSnapshot);
  check(want.header.snapshots === want.snaps.length && want.snaps.length === summary.exported_snapshots, `${want.snaps.length} snapshots in the file`);
  check(want.snaps.length >= RECORD_S * RATE_HZ - 5, `${want.snaps.length} snapshots for ${RECORD_S} s at ${RATE_HZ} Hz`);
  const parsed = checkParser(lib, bytes, want);
  checkPlayer(lib, parsed, want);
  log("Node: the parser and the player agree with the file");

  // The browser part needs chromium (the Node part above ran without it).
  if (!loadChromium(stage)) return 77;
  const port = await freePort();
  await serve(port, file);
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 900, height: 560 } });
  const pageErrors = [];
  let sockets = 0;
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("console", (m) => m.type() === "error" && pageErrors.push(m.text()));
  page.on("websocket", () => sockets++);
  await page.goto(`http://127.0.0.1:${port}/?quality=low&replay=/session.nvreplay`);
  const state = () => page.evaluate(() => window.navalReplay.state());
  const frames = (n) => page.evaluate((n) => new Promise((resolve) => {
    const next = (left) => (left ? requestAnimationFrame(() => next(left - 1)) : resolve());
    next(n);
  }), n);
  const drawn = () => page.evaluate(() => window.navalReplay.drawn());
  const sample = () => page.evaluate(() => ({ replay: window.navalReplay.state(), drawn: window.navalReplay.drawn(), stats: window.navalStats }));
  const waitFor = (what, fn, timeoutMs) => waitUntil(what, sample, fn, timeoutMs,
    { every: 100, show: (s) => JSON.stringify({ replay: s.replay, tick: s.drawn.tick, banner: s.stats.banner }) });
  const first = want.snaps[0];
  // The banner's text is the status panel's, refreshed a few times a second: it clears a refresh after the load.
  let s = await waitFor("the file loaded, its first snapshot drawn, the loading banner gone",
    (s) => s.replay.loaded && s.drawn.tick === first.tick && s.stats.boatsRendered === first.count && s.stats.banner === "", 20000);
  check(!s.replay.playing && s.replay.snapshots === want.snaps.length && s.stats.banner === "", `loaded: ${JSON.stringify(s.replay)}, banner "${s.stats.banner}"`);
  log(`page: ${s.replay.snapshots} snapshots loaded, ${s.stats.boatsRendered} boats drawn at tick ${s.drawn.tick}`);

  // play: the drawn tick advances
  await page.click("#replay-play");
  s = await waitFor("playing: the drawn tick advances", (s) => s.replay.playing && s.drawn.tick >= first.tick + 3 * want.header.stride, 10000);
  check((await page.textContent("#replay-play")) === "Pause", "the button says Pause while playing");
  // pause: it stops
  await page.click("#replay-play");
  await frames(2); // the frame after the click draws where it paused
  const paused = await state(), pausedTick = (await drawn()).tick;
  await page.waitForTimeout(800);
  const later = await state(), laterTick = (await drawn()).tick;
  check(!later.playing && later.time === paused.time && laterTick === pausedTick, `paused at ${paused.time} (tick ${pausedTick}), then ${later.time} (tick ${laterTick})`);
  log(`paused at ${(paused.time - paused.start).toFixed(2)} s, tick ${pausedTick}`);

  // scrub to snapshot k: the file's boats, where the file has them
  const scrub = (t) => page.evaluate((v) => {
    const bar = document.getElementById("replay-seek");
    bar.value = String(v);
    bar.dispatchEvent(new Event("input"));
  }, t - first.simTime);
  const samePlaces = (d, snap, blend, what) => {
    check(d.ids.length === snap.count, `${what}: ${d.ids.length} boats drawn, the file has ${snap.count}`);
    d.ids.forEach((id, i) => {
      const j = Array.from(snap.ids).indexOf(id);
      check(j >= 0, `${what}: boat ${id} is not in the file's snapshot`);
      for (let c = 0; c < 3; c++) {
        const expect = blend ? (snap.pos[3 * j + c] + blend.pos[3 * Array.from(blend.ids).indexOf(id) + c]) / 2 : snap.pos[3 * j + c];
        check(Math.abs(d.pos[3 * i + c] - expect) < 1e-6, `${what}: boat ${id} drawn at ${d.pos.slice(3 * i, 3 * i + 3)}, the file says ${expect} (axis ${c})`);
      }
    });
  };
  const k = Math.floor(want.snaps.length * 0.6), snap = want.snaps[k];
  await scrub(snap.simTime);
  s = await waitFor(`scrubbed to snapshot ${k}`, (s) => Math.abs(s.drawn.simTime - snap.simTime) < 1e-9, 5000);
  samePlaces(s.drawn, snap, null, `scrubbed to ${(snap.simTime - first.simTime).toFixed(2)} s`);
  check(s.stats.tick === snap.tick || s.stats.tick === want.snaps[k + 1]?.tick, `the HUD's tick ${s.stats.tick} after the scrub`);
  const timeText = await page.textContent("#replay-time");
  check(timeText.startsWith(`0:0${(snap.simTime - first.simTime).toFixed(1)}`), `time shown "${timeText}"`);
  // halfway between two snapshots: the timeline's blend
  const early = want.snaps[3], next = want.snaps[4];
  await scrub((early.simTime + next.simTime) / 2);
  s = await waitFor("scrubbed back between snapshots 3 and 4", (s) => s.drawn.simTime < next.simTime && s.drawn.simTime > early.simTime, 5000);
  samePlaces(s.drawn, early, next, "halfway between snapshots 3 and 4");
  log(`scrubbed: the drawn boats are the file's at ${(snap.simTime - first.simTime).toFixed(2)} s and halfway between two snapshots`);

  // speed: 4x plays about four times as fast as 1x (drawn sim time over wall time, in frames)
  const rateAt = async (speed, ms) => {
    await page.selectOption("#replay-speed", String(speed));
    await scrub(first.simTime);
    if (!(await state()).playing) await page.click("#replay-play");
    await page.waitForTimeout(150);
    const r = await page.evaluate((ms) => new Promise((resolve) => {
      const at = () => ({ wall: performance.now() / 1000, sim: window.navalReplay.drawn().simTime });
      requestAnimationFrame(() => {
        const a = at();
        setTimeout(() => requestAnimationFrame(() => {
          const b = at();
          resolve((b.sim - a.sim) / (b.wall - a.wall));
        }), ms);
      });
    }), ms);
    await page.click("#replay-play");
    return r;
  };
  // (4x for 0.8 s: 3.2 s of the 8, with room for slow frames before the end)
  const r1 = await rateAt(1, 1200), r4 = await rateAt(4, 800);
  check(r1 > 0.8 && r1 < 1.2, `1x plays ${r1.toFixed(2)} s a second`);
  check(r4 > 3.2 && r4 < 4.8 && r4 / r1 > 3.2, `4x plays ${r4.toFixed(2)} s a second (1x: ${r1.toFixed(2)})`);
  log(`speed: 1x ${r1.toFixed(2)} s/s, 4x ${r4.toFixed(2)} s/s`);
  const shot = join(outDir, "web_replay.png");
  await page.screenshot({ path: shot });

  // the Open button reads a local file the same way
  await page.setInputFiles("#replay-file", file);
  s = await waitFor("the file opened from the button", (s) => s.replay.name === "session.nvreplay" && !s.replay.playing && s.drawn.tick === first.tick, 10000);
  check(sockets === 0, `the page opened ${sockets} WebSocket(s) in replay mode`);
  check(pageErrors.length === 0, `errors in the page: ${pageErrors.join(" | ")}`);
  log(`screenshot: ${shot}`);
  console.log(`test_web_replay: ok (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return 0;
}

await runTest(main, () => {
  if (http) http.close();
  if (server && server.exitCode === null) server.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});
