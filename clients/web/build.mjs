// SPDX-License-Identifier: MIT
// Bundles the visualizer. Run by the CMake target `web` in its staging
// folder (BUILD/clients/web: package.json, node_modules from `npm ci`, a
// copy of src/ and tsconfig.json, the flatc TypeScript in gen/):
//   node build.mjs STAGE
// Type-checks with tsc, then esbuild writes STAGE/dist (what naval-server
// serves: index.html, style.css, app.js) and STAGE/lib (the pure modules
// as ES modules for the Node tests in tests/test_web_*.mjs).
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const stage = resolve(process.argv[2] ?? "");
if (!process.argv[2]) {
  console.error("usage: node build.mjs STAGE (the folder with node_modules, src/ and gen/)");
  process.exit(2);
}
const require = createRequire(join(stage, "package.json"));
let esbuild;
try {
  esbuild = require("esbuild");
} catch (e) {
  console.error(`web: esbuild is not installed in ${stage}/node_modules (npm ci failed?): ${e.message}`);
  process.exit(1);
}

// Types first: esbuild only strips them.
const tsc = join(stage, "node_modules", "typescript", "bin", "tsc");
try {
  execFileSync(process.execPath, [tsc, "-p", join(stage, "tsconfig.json")], { stdio: "inherit" });
} catch {
  console.error("web: type errors (above)");
  process.exit(1);
}

const dist = join(stage, "dist");
mkdirSync(dist, { recursive: true });
await esbuild.build({
  entryPoints: [join(stage, "src", "main.ts")],
  bundle: true,
  format: "iife",
  target: ["es2022"],
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  outfile: join(dist, "app.js"),
  tsconfig: join(stage, "tsconfig.json"),
  logLevel: "warning",
});
for (const f of ["index.html", "style.css"]) copyFileSync(join(here, f), join(dist, f));

await esbuild.build({
  entryPoints: ["damage", "follow", "hudfmt", "ocean", "params", "timeline", "viewcodec", "viewplay", "wire"].map((m) => join(stage, "src", `${m}.ts`)),
  bundle: true,
  format: "esm",
  platform: "node",
  target: ["node18"],
  outdir: join(stage, "lib"),
  outExtension: { ".js": ".mjs" },
  tsconfig: join(stage, "tsconfig.json"),
  logLevel: "warning",
});
console.log(`web: ${dist}`);
