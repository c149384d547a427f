// SPDX-License-Identifier: MIT
// What the browser tests (test_web*.mjs) share: their command line, the
// fail when chromium or playwright-core is missing (skip, 77, when NAVAL_SKIP names browser), failures that
// carry the server's last log lines, naval-server on free loopback ports,
// headless chromium and the teardown. Each test keeps its own server
// arguments, pages and checks. One test per process: the state here
// (clock, server log, browser) is that test's.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { join, resolve } from "node:path";

export const t0 = Date.now();
export const log = (msg) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${msg}`);
export const chromiumPath = process.env.NAVAL_CHROMIUM || "/usr/bin/chromium";

let serverLog = "", chromium = null, browser = null;

/** The command line's paths (resolved), one per name; usage and exit 2 when short. */
export function parseArgs(script, names) {
  const paths = process.argv.slice(2).map((a) => resolve(a));
  if (paths.length < names.length) {
    console.error(`usage: node ${script} ${names.join(" ")}`);
    process.exit(2);
  }
  return paths;
}

/**
 * A browser test's tool is missing: the test fails naming it, unless the
 * user opted the browser tests out (NAVAL_SKIP names "browser", as
 * tests/missing.sh reads it): then false, with the SKIP line printed, and
 * the caller skips (exit or return 77).
 */
function browserMissing(what) {
  if ((process.env.NAVAL_SKIP ?? "").split(",").includes("browser")) {
    console.log(`SKIP (NAVAL_SKIP=${process.env.NAVAL_SKIP}): ${what}`);
    return false;
  }
  console.error(`FAIL: ${what}. Install it (scripts/setup.sh installs everything), or opt the browser tests out: make test NAVAL_SKIP=browser`);
  process.exit(1);
}

/** Finds chromium and the stage's playwright-core (browserMissing when either is not there). */
export function loadChromium(stage) {
  if (!existsSync(chromiumPath))
    return browserMissing(`no chromium at ${chromiumPath} (Debian: apt-get install chromium; or set NAVAL_CHROMIUM)`);
  try {
    ({ chromium } = createRequire(join(stage, "package.json"))("playwright-core"));
  } catch (e) {
    return browserMissing(`playwright-core is not installed in ${stage}/node_modules (build the target web): ${e.message}`);
  }
  return true;
}

/** A stage without the built page is a failure (exit 1), not a skip: the build is broken. */
export function requireBuilt(stage, files = ["dist/app.js"]) {
  for (const f of files)
    if (!existsSync(join(stage, f))) {
      console.error(`FAIL: ${stage}/${f} is missing: build the target web first`);
      process.exit(1);
    }
}

// A failure is thrown (not exited) so that the teardown still runs; it is
// reported once here, with the server's stderr, the likeliest cause.
export class TestFailure extends Error {}
export function fail(msg) {
  console.error(`FAIL: ${msg}`);
  if (serverLog) console.error(`server log (last lines):\n${serverLog.split("\n").slice(-15).join("\n")}`);
  throw new TestFailure(msg);
}
export function check(cond, msg) {
  if (!cond) fail(msg);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `sample` until `ok` holds; fails with the last sample (`show`) after timeoutMs. */
export async function waitUntil(what, sample, ok, timeoutMs, { every = 200, show = JSON.stringify } = {}) {
  const end = Date.now() + timeoutMs;
  let s;
  while (Date.now() < end) {
    s = await sample();
    if (ok(s)) return s;
    await sleep(every);
  }
  fail(`${what}: not within ${timeoutMs / 1000} s; page state: ${show(s)}`);
}

/** A loopback port free now (the OS picks it; closed again for the server to bind). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** A free port for each of naval-server's listeners. */
export async function freePorts() {
  return { snap: await freePort(), compact: await freePort(), cmd: await freePort(), view: await freePort(), http: await freePort() };
}

/**
 * naval-server with `args` (the test's world and options), listening on
 * `ports`, serving `webRoot` if given; resolves once /healthz answers. Its
 * stderr becomes the log that failures print (this server's only: a
 * restart starts it afresh). The process gets `exited` (its code or signal).
 */
export async function startServer(bin, ports, args, { env = {}, webRoot = null } = {}) {
  const all = [
    ...args,
    "--snapshot-url", `tcp://127.0.0.1:${ports.snap}`, "--compact-url", `tcp://127.0.0.1:${ports.compact}`,
    "--command-url", `tcp://127.0.0.1:${ports.cmd}`, "--view-url", `tcp://127.0.0.1:${ports.view}`,
    "--http", `127.0.0.1:${ports.http}`, ...(webRoot ? ["--web-root", webRoot] : []),
  ];
  serverLog = "";
  const p = spawn(bin, all, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
  p.stderr.on("data", (d) => (serverLog += d.toString()));
  p.exited = new Promise((resolve) => p.once("exit", (code, sig) => resolve(code ?? sig)));
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${ports.http}/healthz`)).ok) return p;
    } catch {
      // not listening yet
    }
    if (p.exitCode !== null) fail(`naval-server exited with ${p.exitCode}`);
    await sleep(100);
  }
  p.kill("SIGKILL");
  fail("naval-server did not answer /healthz within 10 s");
}

/** SIGTERM (a clean shutdown), SIGKILL if it takes over 5 s. */
export async function stopServer(p) {
  if (!p || p.exitCode !== null) return;
  p.kill("SIGTERM");
  const timer = setTimeout(() => p.kill("SIGKILL"), 5000);
  await p.exited;
  clearTimeout(timer);
}

/** Headless chromium (after loadChromium); closed by runTest. */
export async function launchBrowser() {
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    // No GPU here: WebGL 2 on SwiftShader, Chromium's software renderer.
    args: ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist", "--no-sandbox"],
  });
  return browser;
}

/** Collects the page's uncaught errors and console errors, less those of a server going away. */
export function collectErrors(page, errors) {
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" && !/WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/.test(m.text())) errors.push(m.text());
  });
}

/**
 * Runs the test: main's value (if any) is the exit code; a failure exits 1
 * (a TestFailure already said why; anything else is printed). The browser
 * is closed, then `cleanup` runs (the test's servers, files), either way.
 */
export async function runTest(main, cleanup = async () => undefined) {
  try {
    const code = await main();
    if (code !== undefined) process.exitCode = code;
  } catch (e) {
    if (!(e instanceof TestFailure)) console.error(`FAIL: ${e.stack ?? e}`);
    process.exitCode = 1;
  } finally {
    if (browser) await browser.close().catch(() => undefined);
    await cleanup();
  }
}
