// SPDX-License-Identifier: MIT
// The @naval/client package (clients/ts) is complete as npm would ship
// it: `npm pack --dry-run --json` in its build folder lists package.json,
// README.md and every file its "exports" name (JS and .d.ts); every
// relative import in a packed module names a packed file, every bare one
// a declared dependency; no sources, tests or node_modules go along. Each
// export loads in Node and the index has the API the README shows. Last, a
// TypeScript project that depends on the package (node_modules/@naval/client,
// moduleResolution NodeNext) type-checks against its .d.ts, and a misuse
// of it is refused.
//
// Usage: node test_ts_package.mjs CLIENT_TS_STAGE
//   CLIENT_TS_STAGE: BUILD/clients/ts (built by the target client_ts)
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, normalize, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const stage = resolve(process.argv[2] ?? "");
if (!process.argv[2]) {
  console.error("usage: node test_ts_package.mjs CLIENT_TS_STAGE");
  process.exit(2);
}
if (!existsSync(join(stage, "dist", "index.js"))) {
  console.error(`FAIL: ${stage}/dist/index.js is missing: build the target client_ts first`);
  process.exit(1);
}
let failures = 0;
function check(cond, msg) {
  if (cond) console.log(`ok: ${msg}`);
  else {
    failures++;
    console.error(`FAIL: ${msg}`);
  }
}

// ---- what npm would pack ----------------------------------------------------

const npm = process.env.NPM ?? "npm";
const packed = JSON.parse(execFileSync(npm, ["pack", "--dry-run", "--json", "--loglevel=error"], { cwd: stage, encoding: "utf8" }));
const files = new Set(packed[0].files.map((f) => f.path));
const pkg = JSON.parse(readFileSync(join(stage, "package.json"), "utf8"));
check(packed[0].name === "@naval/client" && pkg.type === "module", `packs ${packed[0].name}@${packed[0].version}, ${files.size} files, ES modules`);
check(files.has("package.json") && files.has("README.md"), "package.json and README.md are packed");

const targets = [pkg.main, pkg.types];
for (const [sub, t] of Object.entries(pkg.exports)) {
  if (typeof t === "string") targets.push(t);
  else {
    check(t.types && t.import, `exports["${sub}"] has types and import`);
    targets.push(t.types, t.import);
  }
}
const missing = targets.filter((t) => !files.has(normalize(t)));
check(missing.length === 0, `every file package.json names is packed (${targets.length}; missing: ${missing.join(", ") || "none"})`);

const stray = [...files].filter((f) => /(^|\/)node_modules\//.test(f) || (f.endsWith(".ts") && !f.endsWith(".d.ts")) || /^src\/|tsconfig|\.tgz$/.test(f));
check(stray.length === 0, `no sources, node_modules or build files packed (${stray.join(", ") || "none"})`);

// Every import and export specifier of every packed module.
const specifier = /(?:^|\n)\s*(?:import|export)[^'"\n;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const deps = new Set(Object.keys(pkg.dependencies ?? {}));
const unresolved = [], undeclared = new Set();
let modules = 0, links = 0;
for (const f of files) {
  const dts = f.endsWith(".d.ts");
  if (!dts && !f.endsWith(".js")) continue;
  modules++;
  const text = readFileSync(join(stage, f), "utf8");
  for (const m of text.matchAll(specifier)) {
    const s = m[1] ?? m[2];
    links++;
    if (s.startsWith(".")) {
      const target = normalize(join(dirname(f), s));
      const want = dts ? target.replace(/\.js$/, ".d.ts") : target;
      if (!files.has(want)) unresolved.push(`${f}: ${s}`);
    } else if (!s.startsWith("node:") && !builtinModules.includes(s)) {
      const name = s.startsWith("@") ? s.split("/").slice(0, 2).join("/") : s.split("/")[0];
      if (!deps.has(name)) undeclared.add(`${f}: ${s}`);
    }
  }
}
check(modules > 10 && links > modules, `${modules} packed modules, ${links} imports read`);
check(unresolved.length === 0, `every relative import names a packed file (${unresolved.slice(0, 5).join("; ") || "all do"})`);
check(undeclared.size === 0, `every bare import is a declared dependency (${[...undeclared].slice(0, 5).join("; ") || `${[...deps].join(", ")}`})`);

// ---- every export loads ------------------------------------------------------

for (const [sub, t] of Object.entries(pkg.exports)) {
  if (typeof t === "string") continue;
  const m = await import(pathToFileURL(join(stage, t.import)).href);
  check(Object.keys(m).length > 0, `exports["${sub}"] loads: ${Object.keys(m).length} names`);
}
const index = await import(pathToFileURL(join(stage, pkg.exports["."].import)).href);
const api = ["NavalClient", "SnapshotStream", "PlayerView", "serverBase", "CommandLink", "SnapshotLink", "ViewLink",
  "decodeSnapshot", "encodeRequest", "decodeResponse", "ViewDecoder", "encodeViewRequest", "attitude", "PROTO_VERSION"];
const absent = api.filter((n) => !(n in index));
check(absent.length === 0, `the index exports ${api.length} API names (missing: ${absent.join(", ") || "none"})`);
check(index.serverBase("example.org:8080") === "ws://example.org:8080" && index.serverBase("https://example.org:443/") === "wss://example.org:443",
  "serverBase: HOST:PORT -> ws://, https:// -> wss://");

// ---- a TypeScript project that depends on it ------------------------------------

const tsc = join(stage, "node_modules", "typescript", "bin", "tsc");
const work = mkdtempSync(join(tmpdir(), "naval-ts-consumer-"));
try {
  mkdirSync(join(work, "node_modules", "@naval"), { recursive: true });
  symlinkSync(stage, join(work, "node_modules", "@naval", "client"), "dir");
  writeFileSync(join(work, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  writeFileSync(join(work, "tsconfig.json"), JSON.stringify({
    compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2022", "DOM"], types: [], strict: true, noEmit: true },
    include: ["*.ts"],
  }));
  const good = `import { NavalClient, headingOf, speedOf, type Frame, type OwnVessel, type WorldInfoData } from "@naval/client";
import { decodeSnapshot } from "@naval/client/wire";
import { ViewDecoder } from "@naval/client/viewcodec";
class NodeSocket { constructor(readonly url: string, readonly protocol: string | string[] = [], readonly options = {}) {} }
const client: NavalClient = await NavalClient.connect("127.0.0.1:8080", { clientName: "consumer", WebSocket: NodeSocket });
const world: WorldInfoData = await client.worldInfo();
const boat: OwnVessel = await client.spawn({ type: world.types[0].name, x: 0, z: 0, heading: Math.PI / 2 });
await client.control(boat, 1, -0.5);
const f: Frame = await client.snapshots().next((s) => s.ids.includes(boat.id));
const x: number = f.pos[0] + decodeSnapshot(new ArrayBuffer(0)).count + headingOf(f, 0) + speedOf(f, 0);
const held: number = client.openView({ centerX: x, centerZ: 0, radius: 500, own: [boat] }).held.size + new ViewDecoder().held.size;
await client.despawn(boat);
client.close();
export { held };
`;
  writeFileSync(join(work, "game.ts"), good);
  const run = () => {
    try {
      execFileSync(process.execPath, [tsc, "-p", work], { encoding: "utf8", stdio: "pipe" });
      return "";
    } catch (e) {
      return `${e.stdout}${e.stderr}`.trim() || e.message;
    }
  };
  const out = run();
  check(out === "", `a dependent TypeScript project type-checks against the .d.ts${out ? `:\n${out}` : ""}`);
  // The .d.ts must carry real types, not any: a wrong argument is an error.
  writeFileSync(join(work, "game.ts"), good.replace("await client.control(boat, 1, -0.5);", 'await client.control(boat, "full", -0.5);'));
  const bad = run();
  check(/game\.ts\(\d+,\d+\): error TS2345/.test(bad), `a misuse (a string throttle) is a type error: ${bad.split("\n")[0]}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (failures) {
  console.error(`${failures} check(s) failed`);
  process.exit(1);
}
console.log("test_ts_package: all checks passed");
