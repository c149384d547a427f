// SPDX-License-Identifier: MIT
// The page's information and state in a real browser (Debian's chromium,
// headless, playwright-core) against a real naval-server (12 boats), at
// 800 x 500. What the page shows is checked against what the server sent,
// read by this test on its own sockets (opened in the page, decoded here
// with the page's pure decoders from BUILD/clients/web/lib):
// - ?ocean=100 and ?follow=99999: the warning is on the page; boat 99999
//   is not followed and the page says it was not found;
// - the legend lists the world info's types in the colours the boats are
//   drawn in (navalDebug.colourOf, and the screenshot's pixels);
// - a boat at the helm, full ahead: the card's speed is the snapshot's
//   velocity of that tick in m/s and knots, its controls are the helm's;
//   another boat's card says its controls are not sent;
// - a boat spawned by another client, followed by id, then despawned: the
//   follow is cleared and the camera freed; a followed boat the restarted
//   server does not have is let go after the reconnection;
// - a clock 30 s behind the server's: "clock skew", never a negative latency;
// - the panels hide with H (and stay hidden after a reload), and at
//   800 x 500 they cover under a quarter of the view (element rectangles;
//   the screenshot under the card changes when they hide).
// Leaves screenshots in OUT_DIR.
//
// Usage: node test_web_ui.mjs NAVAL_SERVER WEB_STAGE OUT_DIR
// Without chromium or playwright-core it fails naming them (skips, 77,
// when NAVAL_SKIP names browser: web_harness.mjs).
// Environment: NAVAL_CHROMIUM (default /usr/bin/chromium).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { inflateSync } from "node:zlib";
import {
  check, collectErrors, freePorts, launchBrowser, loadChromium, log, parseArgs, requireBuilt, runTest, startServer,
  stopServer, t0, waitUntil,
} from "./web_harness.mjs";

const [serverBin, stage, outDir] = parseArgs("test_web_ui.mjs", ["NAVAL_SERVER", "WEB_STAGE", "OUT_DIR"]);
if (!loadChromium(stage)) process.exit(77);
requireBuilt(stage, ["dist/app.js", "lib/wire.mjs"]);
const wire = await import(pathToFileURL(join(stage, "lib", "wire.mjs")).href);

const BOATS = 12;
const KNOTS_PER_MS = 3600 / 1852;
let server = null;

const startNaval = (ports) =>
  startServer(serverBin, ports, ["--boats", String(BOATS), "--threads", "1", "--tick-hz", "30", "--log-level", "warn"], { webRoot: join(stage, "dist") });

/** RGB(A) pixels of a PNG (8 bits a channel, not interlaced: what chromium's screenshots are). */
function decodePng(buf) {
  check(buf.readUInt32BE(0) === 0x89504e47, "screenshot: not a PNG");
  let off = 8, width = 0, height = 0, channels = 0;
  const idat = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off), type = buf.toString("latin1", off + 4, off + 8), data = buf.subarray(off + 8, off + 8 + len);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      check(data[8] === 8 && (data[9] === 2 || data[9] === 6) && data[12] === 0, `screenshot: PNG depth ${data[8]}, colour type ${data[9]}, interlace ${data[12]}`);
      channels = data[9] === 6 ? 4 : 3;
    } else if (type === "IDAT") idat.push(data);
    off += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat)), stride = width * channels, px = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? px[y * stride + x - channels] : 0, b = y ? px[(y - 1) * stride + x] : 0;
      const c = x >= channels && y ? px[(y - 1) * stride + x - channels] : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
      check(pred !== undefined, `screenshot: PNG filter ${f}`);
      px[y * stride + x] = (line[x] + pred) & 255;
    }
  }
  return { width, height, channels, px, at: (x, y) => Array.from(px.subarray(y * stride + x * channels, y * stride + x * channels + 3)) };
}

/** Mean of |a - b| over the RGB of a rectangle (CSS px = screenshot px here) of two screenshots. */
function meanDiff(a, b, r) {
  let sum = 0, n = 0;
  for (let y = Math.ceil(r.y); y < Math.floor(r.y + r.height); y++)
    for (let x = Math.ceil(r.x); x < Math.floor(r.x + r.width); x++) {
      const p = a.at(x, y), q = b.at(x, y);
      sum += Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]);
      n += 3;
    }
  return sum / n;
}

const hex = (rgb) => `#${rgb.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
const near = (a, b, tol) => a.every((v, i) => Math.abs(v - b[i]) <= tol);
const rgbOf = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

async function main() {
  mkdirSync(outDir, { recursive: true });
  const ports = await freePorts();
  server = await startNaval(ports);
  const base = `http://localhost:${ports.http}/`;
  log(`naval-server on ${base} (${BOATS} boats)`);
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 800, height: 500 } });
  const pageErrors = [];
  let page = await context.newPage();
  const watch = (p) => collectErrors(p, pageErrors);
  watch(page);
  const stats = () => page.evaluate(() => window.navalStats);
  const waitFor = (what, fn, timeoutMs) => waitUntil(what, stats, (s) => s && fn(s), timeoutMs,
    { every: 150, show: (s) => JSON.stringify({ ...s, helm: s?.helm, card: s?.card }) });
  // A request on a WebSocket of its own (opened in the page: Node 20 has none), encoded and decoded here.
  let rid = 1;
  const rpc = async (spec) => {
    const body = wire.encodeRequest(BigInt(rid), spec);
    const msg = new Uint8Array(4 + body.length);
    new DataView(msg.buffer).setUint32(0, (rid++ | 0x80000000) >>> 0, false);
    msg.set(body, 4);
    const got = await page.evaluate(([url, bytes]) => new Promise((resolve, reject) => {
      const ws = new WebSocket(url, "rep.sp.nanomsg.org");
      ws.binaryType = "arraybuffer";
      ws.onopen = () => ws.send(new Uint8Array(bytes));
      ws.onmessage = (e) => { ws.close(); resolve(Array.from(new Uint8Array(e.data))); };
      ws.onerror = () => reject(new Error("commands socket failed"));
      setTimeout(() => reject(new Error("no answer in 3 s")), 3000);
    }), [`ws://localhost:${ports.http}/ws/commands`, Array.from(msg)]);
    const r = wire.decodeResponse(new Uint8Array(got).subarray(4));
    check(r.status === 0, `${spec.kind}: ${r.statusName}: ${r.error}`);
    return r.body;
  };
  // Full snapshots for `ms` on a socket of its own; `during` runs in the page halfway and its value comes back.
  const snapshotsAround = async (ms, during) => {
    const got = await page.evaluate(([url, ms, during]) => new Promise((resolve, reject) => {
      const frames = [];
      let mid = null;
      const ws = new WebSocket(url, "pub.sp.nanomsg.org");
      ws.binaryType = "arraybuffer";
      ws.onmessage = (e) => frames.push(Array.from(new Uint8Array(e.data)));
      ws.onerror = () => reject(new Error("snapshot socket failed"));
      setTimeout(() => (mid = new Function(`return (${during})()`)()), ms / 2);
      setTimeout(() => { ws.close(); resolve({ frames, mid }); }, ms);
    }), [`ws://localhost:${ports.http}/ws/snapshots`, ms, during.toString()]);
    return { frames: got.frames.map((f) => wire.decodeSnapshot(new Uint8Array(f).buffer)), mid: got.mid };
  };

  // 1. ?ocean=100 and ?follow=99999: both said on the page; 99999 not followed.
  await page.goto(`${base}?quality=low&stream=full&ocean=100&follow=99999`);
  let s = await waitFor("connected, world loaded", (s) => s.connected && s.commandsConnected && s.serverName && s.boatsRendered === BOATS, 20000);
  check(!(await page.isHidden("#notices")), "the ?ocean=100 warning is not on the page");
  const notices = await page.textContent("#notices");
  check(/\?ocean=100: not a power of two.*using 128/.test(notices), `notices: ${notices}`);
  s = await waitFor("boat 99999 reported as not found", (s) => /no boat 99999/.test(s.followMessage), 5000);
  check(s.followed === -1 && s.card === null, `boat 99999 is followed: followed ${s.followed}, card ${JSON.stringify(s.card)}`);
  const note = await page.textContent("#card-note");
  check(!(await page.isHidden("#card-note")) && /no boat 99999 in the snapshots \(12 boats\)/.test(note), `card note: ${note}`);
  log(`?ocean=100: "${notices.trim()}"; ?follow=99999: "${note}"`);
  // Typed into the id field: the same.
  await page.fill("#find", "88888");
  await page.press("#find", "Enter");
  s = await waitFor("boat 88888 reported as not found", (s) => /no boat 88888/.test(s.followMessage), 5000);
  check(s.followed === -1, `boat 88888 is followed: ${s.followed}`);
  await page.click("#notices button");
  await waitFor("the warnings dismissed", (s) => s.notices.length === 0, 2000);
  await page.waitForTimeout(300); // the next HUD refresh
  check(await page.isHidden("#notices"), "the warnings are not dismissed from the page");

  // 2. The legend: the world's types, in the colours the boats are drawn in.
  const world = await rpc({ kind: "worldInfo" });
  // Folded at 800 x 500 (the compact layout): open it as a user would.
  check(!(await page.$eval("#legend-box", (d) => d.open)), "the legend is not folded at 800 x 500");
  await page.click("#legend-box > summary");
  const legend = await page.$$eval("#legend .legend-item", (items) => items.map((i) => ({ type: i.dataset.type, colour: i.dataset.colour, text: i.textContent })));
  const typed = legend.filter((e) => e.type !== undefined);
  check(JSON.stringify(typed.map((e) => [Number(e.type), e.text])) === JSON.stringify(world.info.types.map((t) => [t.type, t.name])),
    `legend ${JSON.stringify(typed)} is not the world's types ${JSON.stringify(world.info.types.map((t) => [t.type, t.name]))}`);
  const { frames: [snap] } = await snapshotsAround(1500, () => 0);
  check(snap && snap.count === BOATS, `own snapshot: ${snap?.count} boats`);
  const drawnTypes = new Set();
  for (let i = 0; i < snap.count; i++) {
    // (a boat in a state is drawn in the state's colour: checked in test_web.mjs)
    if (snap.flags[i] & (wire.FLAG_FROZEN | wire.FLAG_GROUNDED | wire.FLAG_CAPSIZED)) continue;
    if (snap.damage.some((d) => d.id === snap.ids[i] && (d.holes > 0 || d.flags))) continue;
    const entry = typed.find((e) => Number(e.type) === snap.types[i]);
    const colour = await page.evaluate((id) => window.navalDebug.colourOf(id), snap.ids[i]);
    check(entry && colour === entry.colour, `boat ${snap.ids[i]} of type ${snap.types[i]} is drawn in ${colour}, the legend says ${entry?.colour}`);
    drawnTypes.add(snap.types[i]);
  }
  check(drawnTypes.size >= 2, `only ${drawnTypes.size} type(s) drawn to compare with the legend`);
  // The swatches on screen are those colours.
  const swatches = await page.$$eval("#legend .legend-item .swatch", (sw) => sw.map((e) => {
    const r = e.getBoundingClientRect();
    return { x: Math.round(r.x + r.width / 2), y: Math.round(r.y + r.height / 2) };
  }));
  const legendShot = decodePng(await page.screenshot({ path: join(outDir, "web_ui_legend.png") }));
  legend.forEach((e, k) => {
    const got = legendShot.at(swatches[k].x, swatches[k].y);
    check(near(got, rgbOf(e.colour), 3), `legend swatch ${e.text}: screen ${hex(got)}, legend ${e.colour}`);
  });
  log(`legend: ${legend.map((e) => `${e.text} ${e.colour}`).join(", ")}; boats of ${drawnTypes.size} types drawn in them`);

  // 3. The helm, full ahead: the card's speed is the snapshot's, in m/s and kn.
  await page.click("#helm-take");
  s = await waitFor("the helm's boat followed", (s) => s.helm.phase === "steering" && s.followed === s.helm.id && s.card?.id === s.helm.id, 10000);
  const helmId = s.helm.id;
  const followedColour = await page.evaluate((id) => window.navalDebug.colourOf(id), helmId);
  check(followedColour === legend.find((e) => e.text === "your helm").colour, `the helm's boat is drawn in ${followedColour}, not the legend's`);
  for (let i = 0; i < 4; i++) await page.keyboard.press("KeyW");
  s = await waitFor("under way", (s) => s.card && s.card.speed > 1.5 && s.card.helm?.throttle === 1, 15000);
  const around = await snapshotsAround(1600, () => ({
    card: window.navalStats.card,
    speed: document.querySelector("#card-speed td:last-child").textContent,
    controls: document.querySelector("#card-controls td:last-child").textContent.replace(/\u00a0/g, " "),
  }));
  const { card, speed: speedText, controls } = around.mid;
  const f = around.frames.find((x) => x.tick === card.tick);
  check(f, `no snapshot of tick ${card.tick} among the ${around.frames.length} received (${around.frames[0]?.tick}..${around.frames.at(-1)?.tick})`);
  const j = Array.from(f.ids).indexOf(helmId);
  const v = Math.hypot(f.vel[3 * j], f.vel[3 * j + 2]);
  const want = `${v.toFixed(2)} m/s · ${(v * KNOTS_PER_MS).toFixed(1)} kn`;
  check(speedText === want && v > 1.5, `card speed "${speedText}", the snapshot of tick ${card.tick} says ${want}`);
  check(controls === "throttle +100 % · rudder 0 %", `card controls at the helm: ${controls}`);
  const cardText = await page.textContent("#card");
  check(new RegExp(`boat ${helmId} · skiff · your helm`).test(cardText) && /heading\d+°/.test(cardText) && /heel[\d.]+°/.test(cardText) &&
    /trim[\d.]+°/.test(cardText) && /flooding/.test(cardText),
    `card: ${cardText}`);
  const hud = await page.textContent("#helm-state");
  check(!/m\/s|throttle|rudder/.test(hud), `the helm panel repeats the card's figures: ${hud}`);
  log(`card: boat ${helmId} "${speedText}" = snapshot tick ${card.tick}; ${controls}`);
  await page.screenshot({ path: join(outDir, "web_ui_card.png") });

  // Another boat: its controls are not sent; and the latency is a latency.
  await page.selectOption("#boats", String(snap.ids[0]));
  s = await waitFor("another boat's card", (s) => s.card?.id === snap.ids[0], 5000);
  const other = await page.textContent("#card-controls");
  check(/not sent/.test(other) && s.card.helm === null, `another boat's controls: ${other}`);
  // The helm's figures go back to the helm panel while the card shows another boat.
  await page.waitForTimeout(300);
  const helmPanel = (await page.textContent("#helm-state")).replace(/\u00a0/g, " ");
  check(new RegExp(`boat ${helmId} \\(skiff\\) · throttle \\+100 % · rudder 0 % · [\\d.]+ m/s`).test(helmPanel), `the helm panel while another boat is followed: ${helmPanel}`);
  const lat = await page.textContent("#hud-latency");
  check(s.latencyMs >= 0 && !/skew/.test(lat) && / ms/.test(lat), `latency row: ${lat} (${s.latencyMs} ms)`);

  // 4. Despawned by another client: the follow is cleared and the camera freed.
  const spawned = await rpc({ kind: "spawn", typeName: "patrol", type: 0, x: 300, z: -300, heading: 0 });
  await page.fill("#find", String(spawned.id));
  await page.press("#find", "Enter");
  s = await waitFor("the spawned boat followed", (s) => s.followed === spawned.id && s.card?.id === spawned.id, 5000);
  await rpc({ kind: "despawn", id: spawned.id, token: spawned.token });
  s = await waitFor("the follow cleared", (s) => s.followed === -1 && s.card === null, 5000);
  check(new RegExp(`boat ${spawned.id} is gone`).test(s.followMessage), `follow message: ${s.followMessage}`);
  check(new RegExp(`boat ${spawned.id} is gone`).test(await page.textContent("#card-note")), "the card does not say the boat is gone");
  log(`despawned boat ${spawned.id}: "${s.followMessage}"`);

  // 5. A restarted server without the followed boat (the helm's): let go after the reconnection.
  await page.selectOption("#boats", String(helmId));
  s = await waitFor("the helm's boat followed again", (s) => s.followed === helmId, 5000);
  await stopServer(server);
  await waitFor("server gone", (s) => !s.connected, 8000);
  server = await startNaval(ports);
  s = await waitFor("reconnected, the follow cleared", (s) => s.connected && s.snapshotBoats === BOATS && s.followed === -1, 20000);
  check(s.card === null && /is gone/.test(s.followMessage), `after the restart: card ${JSON.stringify(s.card)}, "${s.followMessage}"`);
  log(`restarted server: "${s.followMessage}"`);

  // 6. The panels: at most a quarter of 800 x 500 with a boat followed (its card the tallest), hidden by H, remembered.
  await page.selectOption("#boats", String(snap.ids[1]));
  s = await waitFor("a boat followed", (s) => s.card?.id === snap.ids[1], 5000);
  await page.click("#legend-box > summary"); // folded again, as the compact layout starts
  await page.waitForTimeout(300); // its card drawn
  const cardRect = await page.$eval("#card", (e) => e.getBoundingClientRect().toJSON());
  const area = await page.evaluate(() => {
    const rects = [...document.querySelectorAll("#panels > *, #left > *, #panels-toggle, #notices")]
      .filter((e) => e.id !== "left" && e.checkVisibility()).map((e) => e.getBoundingClientRect());
    const W = innerWidth, H = innerHeight, covered = new Uint8Array(W * H);
    for (const r of rects)
      for (let y = Math.max(0, Math.floor(r.top)); y < Math.min(H, Math.ceil(r.bottom)); y++)
        covered.fill(1, y * W + Math.max(0, Math.floor(r.left)), y * W + Math.min(W, Math.ceil(r.right)));
    return { fraction: covered.reduce((a, b) => a + b, 0) / (W * H), rects: rects.length,
      sizes: rects.map((r) => `${Math.round(r.width)}x${Math.round(r.height)}@${Math.round(r.left)},${Math.round(r.top)}`).join(" ") };
  });
  const shown = decodePng(await page.screenshot({ path: join(outDir, "web_ui_panels.png") }));
  check(area.fraction < 0.25 && area.rects >= 4, `the panels cover ${(100 * area.fraction).toFixed(1)} % of 800 x 500 (${area.sizes})`);
  const visible = () => page.$eval("#card", (e) => e.checkVisibility());
  await page.evaluate(() => document.activeElement?.blur()); // H in the id field is a letter typed
  await page.keyboard.press("KeyH");
  check(!(await visible()) && (await page.textContent("#panels-toggle")) === "Show panels (H)", "H did not hide the panels");
  const hidden = decodePng(await page.screenshot({ path: join(outDir, "web_ui_hidden.png") }));
  const diff = meanDiff(shown, hidden, cardRect);
  check(diff > 12, `the screenshot under the card hardly changed when the panels hid (mean difference ${diff.toFixed(1)})`);
  await page.reload();
  await waitFor("reloaded", (s) => s.connected && s.boatsRendered === BOATS, 20000);
  check(!(await visible()), "the hidden panels are not remembered across a reload");
  await page.click("#panels-toggle");
  check(await visible(), "the button did not show the panels again");
  log(`panels: ${(100 * area.fraction).toFixed(1)} % of the view at 800 x 500; hidden by H (screen under the card changed by ${diff.toFixed(1)}), remembered`);
  await page.close();

  // 7. The default page (a player view) with a clock 30 s behind the server's: "clock skew", the
  // figure in the tooltip; a boat the view does not hold is not followed; a card from the view.
  page = await context.newPage();
  watch(page);
  await page.addInitScript(() => {
    const now = Date.now.bind(Date);
    Date.now = () => now() - 30000;
  });
  await page.goto(`${base}?quality=low&follow=99999`);
  s = await waitFor("a negative latency measured", (s) => s.connected && s.latencyMs < -25000, 20000);
  check(s.stream === "view", `default stream: ${s.stream}`);
  await page.waitForTimeout(400); // the next HUD refresh
  const skew = await page.$eval("#hud-latency", (e) => ({ text: e.textContent, title: e.title }));
  check(/clock skew/.test(skew.text) && !/-\d/.test(skew.text), `latency row with a clock 30 s behind: ${skew.text}`);
  check(/Measured -\d{5}\.\d ms/.test(skew.title) && /behind the server's by at least \d{5} ms/.test(skew.title), `latency tooltip: ${skew.title}`);
  log(`clock 30 s behind: "${skew.text}" (${skew.title.replace(/^.*Measured/, "measured")})`);
  s = await waitFor("boat 99999 not in the view", (s) => /no boat 99999 in the view \(1500 m around the camera; the world has 12 boats\)/.test(s.followMessage), 5000);
  check(s.followed === -1, `boat 99999 followed in the view: ${s.followed}`);
  const notInView = s.followMessage;
  await page.selectOption("#boats", String(snap.ids[2]));
  s = await waitFor("a card from the view", (s) => s.card?.id === snap.ids[2] && Number.isFinite(s.card.speed), 5000);
  const vcard = await page.textContent("#card");
  check(s.card.speedFrom === "positions" && s.card.contacts?.count === 0 && /contactsnone seen/.test(vcard) && /\d+\.\d\d m\/s · \d+\.\d kn/.test(vcard),
    `view card: ${JSON.stringify(s.card)} ${vcard}`);
  log(`view: "${notInView}"; boat ${s.card.id}'s card: ${s.card.speed.toFixed(2)} m/s from positions`);
  await page.close();

  check(pageErrors.length === 0, `errors in the page: ${pageErrors.join(" | ")}`);
  console.log(`test_web_ui: ok (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

await runTest(main, () => stopServer(server));
