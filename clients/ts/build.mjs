// SPDX-License-Identifier: MIT
// Builds the @naval/client package in its staging folder. Run by the CMake
// target `client_ts` after `npm ci` there:
//   node build.mjs PROTO_TS STAGE
// PROTO_TS is flatc's TypeScript (BUILD/proto/ts), STAGE the folder with
// package.json and node_modules (BUILD/clients/ts). It copies src/ and
// README.md beside them, flatc's modules into src/gen/ with ".js" added
// to their relative imports (flatc 2.0.8 writes them without, which Node's
// ES modules cannot resolve), then tsc writes dist/: JS and .d.ts. The
// source tree is only read.
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
if (process.argv.length !== 4) {
  console.error("usage: node build.mjs PROTO_TS STAGE");
  process.exit(2);
}
const [protoTs, stage] = process.argv.slice(2).map((a) => resolve(a));
const protoDir = join(protoTs, "naval", "proto");
if (!existsSync(protoDir)) {
  console.error(`client_ts: ${protoDir} is missing: flatc's TypeScript (target proto_ts) must be built first`);
  process.exit(1);
}
const tsc = join(stage, "node_modules", "typescript", "bin", "tsc");
if (!existsSync(tsc)) {
  console.error(`client_ts: ${tsc} is missing: npm ci in ${stage} failed?`);
  process.exit(1);
}

for (const d of ["src", "dist"]) rmSync(join(stage, d), { recursive: true, force: true });
cpSync(join(here, "src"), join(stage, "src"), { recursive: true });
for (const f of ["tsconfig.json", "README.md"]) copyFileSync(join(here, f), join(stage, f));

// from '../../naval/proto/vec3f' -> from '../../naval/proto/vec3f.js'
const relativeImport = /(from\s+['"])(\.{1,2}\/[^'"]+?)(?<!\.js)(['"])/g;
const gen = join(stage, "src", "gen", "naval", "proto");
mkdirSync(gen, { recursive: true });
let modules = 0;
for (const f of readdirSync(protoDir)) {
  if (!f.endsWith(".ts")) continue;
  writeFileSync(join(gen, f), readFileSync(join(protoDir, f), "utf8").replace(relativeImport, "$1$2.js$3"));
  modules++;
}
if (modules === 0) {
  console.error(`client_ts: no flatc modules in ${protoDir}`);
  process.exit(1);
}

try {
  execFileSync(process.execPath, [tsc, "-p", join(stage, "tsconfig.json")], { stdio: "inherit" });
} catch {
  console.error("client_ts: type errors (above)");
  process.exit(1);
}
console.log(`client_ts: ${join(stage, "dist")} (${modules} generated modules)`);
