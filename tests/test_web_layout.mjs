// SPDX-License-Identifier: MIT
// The page's layout as a newcomer first sees it: Debian's chromium,
// headless, driven by playwright-core, against a real naval-server on its
// default world (what `make run` serves: 200 boats round the harbour), at
// 1280x720 and at 800x500:
//  1. the opening view, with no input (the overview camera, once the
//     view's first updates are in: 3 s), shows at least 20 boats;
//  2. with damage messages in the log (three boats holed with the admin
//     token) and a notice up, no panel covers another (the left column,
//     the side column, the damage log, the notices, the panels' button),
//     each lies inside the window, and at least half the view is sea;
//  3. the same with every section of the panels opened (the columns scroll
//     inside their own boxes instead of running into the log).
// Screenshots of each case are left in OUT_DIR.
//
// Usage: node test_web_layout.mjs NAVAL_SERVER WEB_STAGE OUT_DIR
// Without chromium or playwright-core it fails naming them (skips, 77,
// when NAVAL_SKIP names browser: web_harness.mjs).
// Environment: NAVAL_CHROMIUM (default /usr/bin/chromium).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  check, collectErrors, freePorts, launchBrowser, loadChromium, log, parseArgs, requireBuilt, runTest, startServer,
  stopServer, waitUntil,
} from "./web_harness.mjs";

const [serverBin, stage, outDir] = parseArgs("test_web_layout.mjs", ["NAVAL_SERVER", "WEB_STAGE", "OUT_DIR"]);
if (!loadChromium(stage)) process.exit(77);
requireBuilt(stage);

const ADMIN = "web-layout-admin-token-0123";
const BOXES = ["#banner", "#notices", "#left", "#side", "#damage-log", "#panels-toggle"];
const SIZES = [{ width: 1280, height: 720 }, { width: 800, height: 500 }];
let server = null;

/** The visible boxes' rectangles (CSS px), by selector. */
function boxesOf(page) {
  return page.evaluate((sels) => {
    const out = {};
    for (const s of sels) {
      const e = document.querySelector(s);
      if (!e || e.hidden || !e.offsetParent || !e.textContent.trim()) continue;
      const r = e.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) out[s] = { x: r.left, y: r.top, w: r.width, h: r.height };
    }
    return out;
  }, BOXES);
}

const overlap = (a, b) =>
  Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

function checkLayout(boxes, size, what) {
  const names = Object.keys(boxes);
  for (let i = 0; i < names.length; i++) {
    const a = boxes[names[i]];
    check(a.x >= 0 && a.y >= 0 && a.x + a.w <= size.width + 0.5 && a.y + a.h <= size.height + 0.5,
      `${what}: ${names[i]} (${JSON.stringify(a)}) is not inside the ${size.width}x${size.height} window`);
    for (let j = 0; j < i; j++) {
      const o = overlap(a, boxes[names[j]]);
      check(o === 0, `${what}: ${names[i]} covers ${o.toFixed(0)} px² of ${names[j]}: ${JSON.stringify(a)} over ${JSON.stringify(boxes[names[j]])}`);
    }
  }
  // The sea's share: the window less the boxes (they do not overlap).
  const covered = names.reduce((s, n) => s + boxes[n].w * boxes[n].h, 0);
  return 1 - covered / (size.width * size.height);
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const ports = await freePorts();
  server = await startServer(serverBin, ports, ["--threads", "1", "--log-level", "warn"], {
    webRoot: join(stage, "dist"), env: { NAVAL_ADMIN_TOKEN: ADMIN },
  });
  log(`naval-server on http://127.0.0.1:${ports.http}/ (its default world)`);
  const browser = await launchBrowser();
  let holed = 0;
  for (const size of SIZES) {
    const tag = `${size.width}x${size.height}`;
    const page = await browser.newPage({ viewport: size });
    const pageErrors = [];
    collectErrors(page, pageErrors);
    // A URL warning puts a notice up (the camera it does not know; it opens on the overview).
    await page.goto(`http://localhost:${ports.http}/?quality=low&camera=sideways`);
    const stats = () => page.evaluate(() => window.navalStats);

    // 1. The opening view: how many boats are on the screen. A view's
    // first updates bring the nearest boats first (its budget), so the
    // overview frames the fleet as it comes in.
    await waitUntil("a frame with boats", stats, (s) => s && s.connected && s.boatsRendered > 0, 25000);
    await page.waitForTimeout(3000);
    const onScreen = await page.evaluate(([w, h]) => {
      const ids = [...document.querySelectorAll("#boats option")].map((o) => Number(o.value)).filter(Number.isFinite);
      return ids.filter((id) => {
        const p = window.navalDebug.screenOf(id);
        return p && p.x >= 0 && p.y >= 0 && p.x < w && p.y < h;
      }).length;
    }, [size.width, size.height]);
    log(`${tag}: the opening view shows ${onScreen} boats`);
    check(onScreen >= 20, `${tag}: the opening view shows ${onScreen} boats on the screen (want >= 20)`);

    // 2. Damage messages in the log, a notice up; the default (compact) sections.
    const ids = await page.evaluate(() => [...document.querySelectorAll("#boats option")].map((o) => Number(o.value)).filter(Number.isFinite));
    for (const id of ids.slice(holed, holed + 3))
      await page.evaluate(([i, admin]) => window.navalDebug.damage(i, [1.0, -0.2, 0.0], 0.02, admin), [id, ADMIN]);
    holed += 3;
    await waitUntil("damage messages in the log", () => page.evaluate(() => document.querySelectorAll("#damage-log > *").length), (n) => n >= 3, 10000);
    check(await page.evaluate(() => !!document.querySelector("#notices")?.textContent.trim()), `${tag}: no notice for ?camera=sideways`);
    let boxes = await boxesOf(page);
    check(boxes["#damage-log"] && boxes["#notices"] && boxes["#left"] && boxes["#side"], `${tag}: boxes missing: ${JSON.stringify(boxes)}`);
    const sea = checkLayout(boxes, size, `${tag}, default sections`);
    log(`${tag}, default sections: ${Object.keys(boxes).join(", ")} apart; ${(100 * sea).toFixed(0)} % of the view is sea; screenshot ${join(outDir, `layout_${tag}.png`)}`);
    await page.screenshot({ path: join(outDir, `layout_${tag}.png`) });
    check(sea >= 0.5, `${tag}: the panels cover ${(100 * (1 - sea)).toFixed(0)} % of the view (want at most half)`);

    // 3. Every section open.
    await page.evaluate(() => document.querySelectorAll("details").forEach((d) => { d.open = true; }));
    await page.waitForTimeout(300);
    boxes = await boxesOf(page);
    checkLayout(boxes, size, `${tag}, every section open`);
    log(`${tag}, every section open: ${Object.keys(boxes).join(", ")} apart; screenshot ${join(outDir, `layout_${tag}_open.png`)}`);
    await page.screenshot({ path: join(outDir, `layout_${tag}_open.png`) });
    check(pageErrors.length === 0, `${tag}: page errors: ${pageErrors.join(" | ")}`);
    await page.close();
  }
  await browser.close();
  log("ok");
}

await runTest(main, async () => {
  if (server) await stopServer(server);
});
