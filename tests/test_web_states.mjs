// SPDX-License-Identifier: MIT
// A boat in each state, as a spectator sees them: Debian's chromium,
// headless, driven by playwright-core, against a real naval-server on
// data/scenarios/states.json (boat 0 runs aground on the island's beach, 1
// is holed but floats, 2 is holed until it sinks, 3 is a top-heavy skiff
// that capsizes by itself, 4 is under way and intact), the page at
// 1280x720 in its default mode (a player view, the overview camera):
//  1. each hull is drawn in its state's legend colour (aground, holed,
//     sunk, capsized), the intact boat in its type's;
//  2. from a camera high over them, the chevron over each boat, read back
//     from the canvas's pixels, is its state's colour, and the four are
//     visibly distinct; the wreck's chevron floats over the water;
//  3. the grounding threw spray (droplets drawn) and lit a flash: a view
//     carries the contacts of its boats.
// Screenshots of each step are left in OUT_DIR.
//
// Usage: node test_web_states.mjs NAVAL_SERVER WEB_STAGE OUT_DIR
// Without chromium or playwright-core it fails naming them (skips, 77,
// when NAVAL_SKIP names browser: web_harness.mjs).
// Environment: NAVAL_CHROMIUM (default /usr/bin/chromium).
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  check, collectErrors, freePorts, launchBrowser, loadChromium, log, parseArgs, requireBuilt, runTest, startServer,
  stopServer, waitUntil,
} from "./web_harness.mjs";

const [serverBin, stage, outDir] = parseArgs("test_web_states.mjs", ["NAVAL_SERVER", "WEB_STAGE", "OUT_DIR"]);
const scenario = resolve(new URL("../data/scenarios/states.json", import.meta.url).pathname);
if (!loadChromium(stage)) process.exit(77);
requireBuilt(stage);

const STATES = { 0: "aground", 1: "holed", 2: "sunk", 3: "capsized" };
const INTACT = 4;
const NONE = { water: false, hulls: false, superstructures: false, markers: false, wakes: false };
let server = null;

const rgb = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
const distance = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

async function main() {
  mkdirSync(outDir, { recursive: true });
  const ports = await freePorts();
  server = await startServer(serverBin, ports, ["--scenario", scenario, "--threads", "1", "--log-level", "warn"], { webRoot: join(stage, "dist") });
  log(`naval-server on http://127.0.0.1:${ports.http}/ (${scenario})`);
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const pageErrors = [];
  collectErrors(page, pageErrors);
  await page.goto(`http://localhost:${ports.http}/?quality=low`);
  const shot = async (name) => {
    const path = join(outDir, name);
    await page.screenshot({ path });
    return path;
  };
  const legend = await waitUntil("the legend lists the states", () => page.$$eval("#legend .legend-item", (items) => items.map((i) => ({ text: i.textContent, colour: i.dataset.colour }))),
    (l) => ["aground", "holed", "sunk", "capsized", "patrol"].every((n) => l.some((e) => e.text === n)), 25000);
  const legendColour = (name) => legend.find((e) => e.text === name)?.colour;

  // 1. Hulls in their states' colours (the scenario takes about 15 s to get there).
  const colours = () => page.evaluate((ids) => ids.map((id) => window.navalDebug.colourOf(id)), [0, 1, 2, 3, INTACT]);
  const want = [...Object.values(STATES).map(legendColour), legendColour("patrol")];
  const got = await waitUntil("each boat drawn in its state's colour", colours, (c) => c.every((x, i) => x === want[i]), 45000);
  log(`hulls: ${got.map((c, i) => `${i} ${STATES[i] ?? "intact patrol"} ${c}`).join(", ")}; screenshot ${await shot("states_default.png")}`);

  // 2. Chevrons from high above, by their pixels: frames with and without the markers.
  const read = await page.evaluate(([none, ids]) => {
    const L = window.navalDebug.look;
    const boats = ids.map((id) => L.boat(id));
    const cx = boats.reduce((a, b) => a + b.pos[0], 0) / boats.length, cz = boats.reduce((a, b) => a + b.pos[2], 0) / boats.length;
    L.placeCamera([cx + 40, 420, cz + 260], [cx, 0, cz]);
    L.layers(none);
    const bare = L.readFrame();
    L.layers({ ...none, markers: true });
    const marked = L.readFrame();
    L.layers({ water: true, hulls: true, superstructures: true, markers: true, wakes: true });
    const probes = boats.map((b) => L.project(b.pos[0], Math.max(b.pos[1] + b.boxMax[1] + 1, 1.5), b.pos[2]));
    return { bare, marked, probes, sunkY: boats[2].pos[1] };
  }, [NONE, [0, 1, 2, 3, INTACT]]);
  const bare = Buffer.from(read.bare.rgba, "base64"), marked = Buffer.from(read.marked.rgba, "base64");
  const { width, height, cssWidth, cssHeight } = read.marked;
  const seen = read.probes.map((p, i) => {
    check(p, `boat ${i}'s chevron is off the screen from the high camera`);
    const sum = [0, 0, 0];
    let n = 0;
    const px = (p.x * width) / cssWidth, py = (p.y * height) / cssHeight, r = 22;
    for (let y = Math.max(0, Math.floor(py - r)); y < Math.min(height, py + r); y++)
      for (let x = Math.max(0, Math.floor(px - r)); x < Math.min(width, px + r); x++) {
        const k = 4 * (y * width + x);
        const d = Math.abs(bare[k] - marked[k]) + Math.abs(bare[k + 1] - marked[k + 1]) + Math.abs(bare[k + 2] - marked[k + 2]);
        if (d <= 40) continue;
        for (let c = 0; c < 3; c++) sum[c] += marked[k + c];
        n++;
      }
    return { n, colour: sum.map((v) => v / Math.max(n, 1)) };
  });
  log(`chevrons from above: ${seen.map((s, i) => `${i} ${s.n} px (${s.colour.map((v) => v.toFixed(0)).join(",")})`).join("; ")}; the wreck's CG at y ${read.sunkY.toFixed(1)} m`);
  check(read.sunkY < -1, `boat 2 is at y ${read.sunkY.toFixed(2)} m: not sunk`);
  for (let i = 0; i < 4; i++) {
    check(seen[i].n >= 20, `boat ${i} (${STATES[i]}): its chevron drew ${seen[i].n} pixels (want >= 20)`);
    const own = distance(seen[i].colour, rgb(legendColour(STATES[i])));
    check(own < 60, `boat ${i}'s chevron is (${seen[i].colour.map((v) => v.toFixed(0))}), ${own.toFixed(0)} from ${STATES[i]}'s ${legendColour(STATES[i])} (want < 60)`);
    for (let j = 0; j < i; j++) {
      const apart = distance(seen[i].colour, seen[j].colour);
      check(apart > 80, `the chevrons of ${STATES[i]} and ${STATES[j]} are ${apart.toFixed(0)} apart in RGB (want > 80)`);
    }
  }
  log(`screenshot from above: ${await shot("states_above.png")}`);

  // 3. The grounding's contact reached the page: a flash and spray.
  const s = await page.evaluate(() => ({ stats: window.navalStats, spray: window.navalDebug.spray() }));
  log(`contacts seen: ${s.stats.contactsGround} with the ground, ${s.stats.contactsVessels} between boats; spray: ${s.spray.thrown} droplets from ${s.spray.throws} contacts`);
  check(s.stats.contactsGround >= 1, `the page saw ${s.stats.contactsGround} contacts with the ground; boat 0 ran aground`);
  // A grounding at 6 m/s meets the beach's slope at well under 1 m/s along its normal: a few droplets.
  check(s.spray.throws >= 1 && s.spray.thrown >= s.spray.throws, `the grounding threw no spray: ${JSON.stringify(s.spray)}`);
  check(pageErrors.length === 0, `page errors: ${pageErrors.join(" | ")}`);
  await browser.close();
  log("ok");
}

await runTest(main, async () => {
  if (server) await stopServer(server);
});
