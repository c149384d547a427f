// SPDX-License-Identifier: MIT
// The browser visualizer in a real browser: Debian's chromium, headless,
// driven by playwright-core, against a real naval-server on free loopback
// ports, opened at http://localhost:PORT. With ?stream=full (every vessel
// every tick): checks that the page connects, draws as many boats as the
// snapshot holds, that the canvas shows something, that taking the helm
// spawns a boat the keyboard moves, and that the page says when the server
// is gone and reconnects by itself when it is back. Leaves a screenshot.
// Damage (a server on data/scenarios/flooding.json, whose patrol boats
// have compartments; full snapshots, then the player view): a patrol boat
// at the helm, holed with the admin token, shows its heel and trim, the
// damage panel (a bar per compartment, the hole, its water in m^3) and the
// breach's message, and its pumps go on from the panel.
// Then by default (a player view): the page opens /ws/view and not
// /ws/snapshots, draws every boat near the camera, shows the view's
// kbit/s, the view follows the camera away from the fleet and back, and
// the helm's boat is in the view. Leaves a screenshot of each mode.
//
// Usage: node test_web.mjs NAVAL_SERVER WEB_STAGE OUT_DIR
//   WEB_STAGE: BUILD/clients/web (node_modules with playwright-core, dist/)
// Without chromium or playwright-core it fails naming them (skips, 77,
// when NAVAL_SKIP names browser: web_harness.mjs).
// Environment: NAVAL_CHROMIUM (default /usr/bin/chromium).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  check, collectErrors, freePorts, launchBrowser, loadChromium, log, parseArgs, requireBuilt, runTest, startServer,
  stopServer, t0, waitUntil,
} from "./web_harness.mjs";

const [serverBin, stage, outDir] = parseArgs("test_web.mjs", ["NAVAL_SERVER", "WEB_STAGE", "OUT_DIR"]);
const scenario = resolve(new URL("../data/scenarios/flooding.json", import.meta.url).pathname);
if (!loadChromium(stage)) process.exit(77);
requireBuilt(stage);

const BOATS = 12;
const ADMIN = "web-test-admin-token-0123";
let server = null;

// 30 Hz, the admin token (the damage part holes boats with it).
const startNaval = (ports, world = ["--boats", String(BOATS)]) =>
  startServer(serverBin, ports, [...world, "--threads", "1", "--tick-hz", "30", "--log-level", "warn"], {
    webRoot: join(stage, "dist"), env: { NAVAL_ADMIN_TOKEN: ADMIN },
  });

async function main() {
  mkdirSync(outDir, { recursive: true });
  const ports = await freePorts();
  server = await startNaval(ports);
  log(`naval-server on http://127.0.0.1:${ports.http}/ (${BOATS} boats)`);

  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 800, height: 500 } });
  const pageErrors = [];
  collectErrors(page, pageErrors);
  // By name, as a user types it: the page's ws:// URLs carry Host:
  // localhost while the server is bound to 127.0.0.1 (nng's own listener
  // refused such upgrades with 404).
  await page.goto(`http://localhost:${ports.http}/?quality=low&stream=full`);
  let current = page;
  const stats = () => current.evaluate(() => window.navalStats);
  const waitFor = (what, fn, timeoutMs) => waitUntil(what, stats, (s) => s && fn(s), timeoutMs);

  // 1. Connected, world loaded, every boat of the snapshot drawn.
  check((await stats()).stream === "full", "?stream=full: the page is not on the full stream");
  let s = await waitFor("connected with boats drawn", (s) => s.connected && s.commandsConnected && s.serverName && s.boatsRendered > 0 && s.ocean, 20000);
  s = await waitFor("all boats drawn", (s) => s.boatsRendered === s.snapshotBoats && s.snapshotBoats === BOATS, 5000);
  check(s.worldBoats === BOATS, `the snapshot says ${s.worldBoats} boats in the world, the server has ${BOATS}`);
  check(s.banner === "", `banner while connected: ${s.banner}`);
  check(/JONSWAP/.test(s.ocean), `ocean description: ${s.ocean}`);
  // NaN while no snapshot came in the last second (a loaded machine): wait for a figure.
  s = await waitFor("a latency figure", (s) => Number.isFinite(s.latencyMs), 10000);
  check(s.latencyMs >= 0 && s.latencyMs < 2000, `latency ${s.latencyMs} ms`);
  log(`connected: ${s.boatsRendered} of ${s.snapshotBoats} boats drawn, ${s.snapshotsPerSec} snapshots/s, latency ${s.latencyMs?.toFixed(1)} ms, ${s.fps} fps`);
  const hudText = await page.textContent("#hud");
  check(hudText.includes(`${BOATS} of ${BOATS} in the snapshot`), `HUD: ${hudText}`);
  // the default world's ground (builtin:harbour, 151 x 151 nodes on the wire) is drawn
  const ground = await page.evaluate(() => window.navalDebug.groundNodes());
  check(ground === 151 * 151, `ground nodes drawn: ${ground}, expected the harbour's 151 x 151`);
  // The minimap (folded at first): every boat a dot, the island's land;
  // a click there moves the camera's target to that place.
  await page.click("#map-box > summary");
  const map = await waitUntil("the minimap drawn", () => page.evaluate(() => window.navalDebug.minimap()), (m) => m.boats === BOATS && m.landPixels > 50, 5000);
  const box = await page.$eval("#minimap", (c) => c.getBoundingClientRect().toJSON());
  // (the box the map drew just before the click: it follows the boats)
  const [mx0, mz0, size] = await page.evaluate(() => window.navalDebug.minimap().box), scale = Math.min(220, 160) / size;
  await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.25);
  const want = [mx0 + (0.25 * 220) / scale, mz0 + (0.25 * 160) / scale];
  const cam = await waitUntil("the camera looking where the minimap was clicked", () => page.evaluate(() => window.navalDebug.look.camera()),
    (c) => Math.hypot(c.target[0] - want[0], c.target[2] - want[1]) < 0.05 * size, 3000,
    { show: (c) => `target (${c.target[0].toFixed(0)}, ${c.target[2].toFixed(0)}), expected (${want[0].toFixed(0)}, ${want[1].toFixed(0)})` });
  log(`minimap: ${map.boats} boats, ${map.landPixels} land pixels, ${size.toFixed(0)} m across; a click looks at (${cam.target[0].toFixed(0)}, ${cam.target[2].toFixed(0)})`);
  await page.click("#map-box > summary");

  // 2. The canvas is not blank. Sampled looking over the harbour, not
  // behind the followed boat: where the world has moved by then, a
  // freighter alongside can fill that view with one flat hull.
  await page.evaluate(() => window.navalDebug.lookAt(0, 0));
  await page.waitForTimeout(500);
  const px = await page.evaluate(() => window.navalDebug.samplePixels());
  check(px.width > 0 && px.distinct >= 20 && px.lumaStd > 4, `canvas looks blank: ${JSON.stringify(px)}`);
  log(`canvas: ${px.distinct} distinct colours, luma std ${px.lumaStd.toFixed(1)}`);

  // 3. Pick a boat from the list: the camera follows it and it is drawn,
  // highlighted, at the centre of the view.
  const firstId = await page.evaluate(() => document.querySelector("#boats option")?.value);
  check(firstId !== undefined, "the boat list is empty");
  await page.selectOption("#boats", firstId);
  s = await waitFor("following the picked boat", (s) => s.followed === Number(firstId), 5000);
  await page.waitForTimeout(1500); // the orbit camera's damping settles
  const centre = await page.evaluate(() => window.navalDebug.samplePixels().centre);
  const [r, g, b] = centre;
  check(r > b + 30 && g > b + 10, `the followed boat (highlighted yellow) is not at the centre: pixel ${centre}`);
  log(`following boat ${firstId}: centre pixel ${centre}`);

  // 4. The helm: spawn, full ahead, the boat moves.
  await page.click("#helm-take");
  s = await waitFor("the spawned boat in the snapshots", (s) => s.helm.phase === "steering" && Number.isFinite(s.helm.x), 10000);
  const start = { x: s.helm.x, z: s.helm.z, id: s.helm.id };
  log(`helm: boat ${start.id} (${s.helm.typeName}) at (${start.x.toFixed(1)}, ${start.z.toFixed(1)})`);
  s = await waitFor("one more boat drawn", (s) => s.snapshotBoats === BOATS + 1 && s.boatsRendered === BOATS + 1, 5000);
  for (let i = 0; i < 4; i++) await page.keyboard.press("KeyW");
  s = await waitFor("full ahead acknowledged", (s) => s.helm.throttle === 1 && s.helm.acknowledged >= 1, 5000);
  await page.keyboard.press("KeyD");
  s = await waitFor("moving", (s) => Math.hypot(s.helm.x - start.x, s.helm.z - start.z) > 15 && s.helm.speed > 2, 15000);
  const moved = Math.hypot(s.helm.x - start.x, s.helm.z - start.z);
  log(`helm: moved ${moved.toFixed(1)} m, ${s.helm.speed.toFixed(1)} m/s, rudder ${s.helm.rudder}, command round trip ${s.helm.lastRttMs?.toFixed(1)} ms`);
  check(s.helm.rudder === 0.25, `rudder after one D: ${s.helm.rudder}`);
  const helmColour = await page.evaluate((id) => window.navalDebug.colourOf(id), start.id);
  check(helmColour === "#ff7a2e", `the helm's boat is drawn in ${helmColour}, not the helm colour #ff7a2e`);
  const shot = join(outDir, "web_view.png");
  await page.screenshot({ path: shot });
  log(`screenshot: ${shot}`);

  // 5. The server goes away: the page says so; it comes back: the page reconnects.
  await stopServer(server);
  s = await waitFor("'server gone' shown", (s) => !s.connected && /Server gone/.test(s.banner), 8000);
  const banner = await page.textContent("#banner");
  check(/Server gone/.test(banner) && !(await page.isHidden("#banner")), `banner: ${banner}`);
  log(`server stopped: "${s.banner}"`);
  server = await startNaval(ports);
  s = await waitFor("reconnected", (s) => s.connected && s.commandsConnected && s.banner === "" && s.snapshotBoats === BOATS && s.boatsRendered === BOATS, 20000);
  check(s.reconnects >= 1, `reconnects: ${s.reconnects}`);
  s = await waitFor("the lost helm boat noticed", (s) => s.helm.phase === "idle", 8000);
  log(`reconnected after ${s.reconnects} drop(s); helm: ${s.helm.message}`);

  check(pageErrors.length === 0, `errors in the page: ${pageErrors.join(" | ")}`);
  const final = await stats();
  check(final.badSnapshots === 0, `${final.badSnapshots} snapshots failed to decode: ${final.lastError}`);
  await page.close(); // software WebGL: one page at a time

  // 6. The default page: a player view that follows the camera.
  const vpage = await browser.newPage({ viewport: { width: 800, height: 500 } });
  current = vpage;
  const sockets = [];
  vpage.on("websocket", (ws) => sockets.push(new URL(ws.url()).pathname));
  vpage.on("pageerror", (e) => pageErrors.push(e.message));
  await vpage.goto(`http://localhost:${ports.http}/?quality=low`);
  s = await waitFor("the view with every boat drawn", (s) => s.connected && s.serverName && s.boatsRendered === BOATS && s.snapshotBoats === BOATS && s.viewKbps > 0, 20000);
  check(s.stream === "view", `default stream: ${s.stream}`);
  check(sockets.includes("/ws/view") && !sockets.includes("/ws/snapshots"), `the page opened ${sockets.join(", ")}`);
  check(s.viewRadius === 1500 && s.banner === "" && s.viewRefusal === "", `view: radius ${s.viewRadius}, banner "${s.banner}", refusal "${s.viewRefusal}"`);
  s = await waitFor("the world's boats counted", (s) => s.worldBoats === BOATS, 5000);
  const vhud = await vpage.textContent("#hud");
  const kbps = /view([\d.]+) kbit\/s/.exec(vhud);
  check(kbps && Number(kbps[1]) > 0 && vhud.includes(`${BOATS} of ${BOATS} in the view`), `HUD: ${vhud}`);
  await vpage.waitForTimeout(1000); // a second of updates for the figures
  s = await stats();
  const vshot = join(outDir, "web_view_default.png");
  await vpage.screenshot({ path: vshot });
  log(`view: ${s.boatsRendered} boats, ${s.viewKbps.toFixed(1)} kbit/s, ${s.viewUpdatesPerSec} updates/s, around (${s.viewCentre.map((v) => v.toFixed(0))}); screenshot ${vshot}`);
  // The camera looks 20 km away: the view follows, the boats leave; and back.
  const home = s.viewCentre;
  await vpage.evaluate(() => window.navalDebug.lookAt(20000, 20000));
  s = await waitFor("the view moved away", (s) => s.viewCentre[0] === 20000 && s.viewCentre[1] === 20000 && s.snapshotBoats === 0 && s.boatsRendered === 0, 5000);
  await vpage.evaluate(([x, z]) => window.navalDebug.lookAt(x, z), home);
  s = await waitFor("the view came back", (s) => s.boatsRendered === BOATS && s.snapshotBoats === BOATS, 5000);
  log(`view: followed the camera 20 km away (no boats) and back (${s.boatsRendered} boats)`);
  // The helm's boat rides along in the view, wherever the camera looks.
  await vpage.click("#helm-take");
  // (followed: the page has done following it, which would take the camera back)
  s = await waitFor("the helm's boat in the view", (s) => s.helm.phase === "steering" && Number.isFinite(s.helm.x) && s.boatsRendered === BOATS + 1 && s.followed === s.helm.id, 10000);
  await vpage.evaluate(() => window.navalDebug.lookAt(20000, 20000));
  s = await waitFor("the helm's boat alone in the view", (s) => s.viewCentre[0] === 20000 && s.snapshotBoats === 1 && s.boatsRendered === 1, 5000);
  check(s.helm.phase === "steering" && s.viewRefusal === "", `helm: ${JSON.stringify(s.helm)}, refusal "${s.viewRefusal}"`);
  log(`view: the helm's boat ${s.helm.id} stays in the view 20 km from the camera`);
  check(pageErrors.length === 0, `errors in the page: ${pageErrors.join(" | ")}`);
  check(s.badUpdates === 0, `${s.badUpdates} view updates failed to decode: ${s.lastError}`);
  await vpage.close();
  await stopServer(server);

  // 7. Damage, on a world whose patrol boats have compartments: with full
  // snapshots, then with the default player view.
  // (the flooding scenario with a quay wall west of the boats: the world
  // info's structure is drawn)
  mkdirSync(outDir, { recursive: true });
  const quayScenario = join(outDir, "flooding_quay.json");
  writeFileSync(quayScenario, JSON.stringify({ ...JSON.parse(readFileSync(scenario, "utf8")), structures: [{ box: [10, 8, 60], position: [-80, -4, 0] }] }));
  server = await startNaval(ports, ["--scenario", quayScenario]);
  for (const mode of ["full", "view"]) {
    const dpage = await browser.newPage({ viewport: { width: 800, height: 500 } });
    current = dpage;
    dpage.on("pageerror", (e) => pageErrors.push(e.message));
    await dpage.goto(`http://localhost:${ports.http}/?quality=low${mode === "full" ? "&stream=full" : ""}`);
    s = await waitFor(`${mode}: connected to the flooding scenario`, (s) => s.stream === mode && s.connected && s.commandsConnected && s.serverName && s.boatsRendered > 0, 20000);
    const quays = await dpage.evaluate(() => window.navalDebug.structures());
    check(quays === 1, `${mode}: ${quays} structures drawn, the scenario has 1`);
    // Away from the scenario's boats (a hard contact holes a hull too).
    await dpage.evaluate(() => window.navalDebug.lookAt(0, 400));
    await dpage.selectOption("#helm-type", "patrol");
    await dpage.click("#helm-take");
    s = await waitFor(`${mode}: the patrol boat followed`, (s) => s.helm.phase === "steering" && s.followed === s.helm.id && Number.isFinite(s.heel), 10000);
    check(s.damage === null && Math.abs(s.heel) < 20 && Math.abs(s.trim) < 20 && !s.capsized, `${mode}: an intact boat: ${JSON.stringify({ d: s.damage, heel: s.heel, trim: s.trim })}`);
    check(await dpage.isHidden("#damage"), `${mode}: the damage panel shows for an intact boat`);
    const holed = await dpage.evaluate(([id, admin]) => window.navalDebug.damage(id, [-2.7, -1.0, 0.0], 0.2, admin), [s.helm.id, ADMIN]);
    check(holed === 1, `${mode}: the hole went into compartment ${holed}, expected 1 (the engine room)`);
    // The hole's message shows for 6 s of wall time; on a loaded machine the
    // water can take longer than that to pass 0.5 m³, so it is caught here.
    const holeMessage = (s) => s.damageMessages.some((m) => m.includes(`boat ${s.helm.id}`) && /holed in compartment 2/.test(m));
    s = await waitFor(`${mode}: the hole's message`, (s) => s.damageEvents >= 1 && holeMessage(s), 10000);
    const holeMessages = s.damageMessages.slice();
    s = await waitFor(`${mode}: the damage panel with water aboard`, (s) => s.damage && s.damage.holes === 1 && s.damage.water > 0.5, 10000);
    // The scenario holed boat 0 at 2 s: its hull is in the legend's
    // "holed" colour (sunk once it cannot float); the helm's boat keeps
    // the helm's colour, holed or not.
    const legend = await dpage.$$eval("#legend .legend-item", (items) => items.map((i) => ({ text: i.textContent, colour: i.dataset.colour })));
    const legendColour = (name) => legend.find((e) => e.text === name)?.colour;
    const holedColour = await dpage.evaluate(() => window.navalDebug.colourOf(0));
    check(holedColour === legendColour("holed") || holedColour === legendColour("sunk"), `${mode}: the holed boat 0 is drawn in ${holedColour}, the legend's holed is ${legendColour("holed")}`);
    const helmColour = await dpage.evaluate((id) => window.navalDebug.colourOf(id), s.helm.id);
    check(helmColour === legendColour("your helm"), `${mode}: the holed helm's boat is drawn in ${helmColour}, not the helm's ${legendColour("your helm")}`);
    check(new Set(["sunk", "capsized", "aground", "holed", "your helm", "followed", "frozen"].map(legendColour)).size === 7, `${mode}: the legend's state colours are not all distinct: ${JSON.stringify(legend)}`);
    // a type's colour is its name's: the patrol boat first in this world's list is still the default world's blue
    check(legendColour("patrol") === "#6f93b8", `${mode}: the patrol boat's colour here is ${legendColour("patrol")}, in the default world #6f93b8`);
    // Its nameplate over it: id and type, and the water aboard as a bar
    // (the damage panel's water over the compartments' volume).
    const plates = await dpage.evaluate(() => window.navalDebug.nameplates());
    const own = plates.find((p) => p.id === s.helm.id);
    const volume = s.damage.compartments.reduce((sum, c) => sum + c.volume, 0);
    check(own && own.text === `${s.helm.id} · patrol` && own.flooded > 0 && Math.abs(own.flooded - s.damage.water / volume) < 0.02,
      `${mode}: the helm's nameplate ${JSON.stringify(own)}, water ${s.damage.water.toFixed(2)} of ${volume.toFixed(1)} m³`);
    check(plates.length >= 2 && plates.length <= 24 && plates.every((p) => p.x >= 0 && p.x <= 800 && p.y >= 0 && p.y <= 500),
      `${mode}: nameplates ${JSON.stringify(plates)}`);
    check(s.damage.compartments.length === 5 && s.damage.compartments[1].water > 0 && s.damage.compartments.every((c) => c.volume > 0),
      `${mode}: compartments: ${JSON.stringify(s.damage.compartments)}`);
    check(!s.damage.pumping && !s.damage.sunk && s.damage.own && s.damage.pumpRate > 0, `${mode}: damage: ${JSON.stringify(s.damage)}`);
    check(s.damageEvents >= 1 && holeMessages.some((m) => m.includes(`boat ${s.helm.id}`) && /holed in compartment 2/.test(m)),
      `${mode}: messages: ${JSON.stringify(holeMessages)}`);
    const panel = await dpage.textContent("#damage");
    check(/1 hole/.test(panel) && /pumps off/.test(panel) && /2: [\d.]+ \/ [\d.]+ m³/.test(panel) && !(await dpage.isHidden("#damage-log")), `${mode}: panel: ${panel}`);
    const card = await dpage.textContent("#card");
    check(new RegExp(`boat ${s.helm.id} · patrol.*heel[\\d.]+°( port| starboard)?.*trim[\\d.]+°( bow up| bow down)?.*flooding[\\d.]+ m³ · 1 hole`, "s").test(card),
      `${mode}: the card's attitude and flooding: ${card}`);
    await dpage.click("#damage-pumps");
    s = await waitFor(`${mode}: pumps on`, (s) => s.damage && s.damage.pumping, 5000);
    const dshot = join(outDir, mode === "full" ? "web_damage.png" : "web_damage_view.png");
    await dpage.screenshot({ path: dshot });
    log(`damage (${mode}): boat ${s.helm.id} holed, ${s.damage.water.toFixed(1)} m³ aboard, heel ${s.heel.toFixed(1)}°, trim ${s.trim.toFixed(1)}°, pumps on; "${s.damageMessages.at(-1)}"; screenshot ${dshot}`);
    await dpage.click("#helm-leave");
    s = await waitFor(`${mode}: the patrol boat left`, (s) => s.helm.phase === "idle", 5000);
    check(s.badSnapshots === 0 && s.badUpdates === 0, `${mode}: ${s.badSnapshots + s.badUpdates} messages failed to decode: ${s.lastError}`);
    await dpage.close();
  }
  check(pageErrors.length === 0, `errors in the page: ${pageErrors.join(" | ")}`);
  console.log(`test_web: ok (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

await runTest(main, () => stopServer(server));
