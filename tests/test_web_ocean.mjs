// SPDX-License-Identifier: MIT
// The browser's ocean (clients/web/src/ocean.ts) is the server's: for the
// same spec, seed and time, drawn at the server's full resolution, its
// height field has the statistics naval-ocean (core's ocean) measures:
// Hs of the grid, highest and lowest label, expected Hs of the modes.
// Any slip in the spectrum, the seed hash, the frequency quantisation, the
// Hermitian pairing or the transform shows up in these.
// Its whitecaps are the server's breaking crests: the squeeze's stencil is
// naval-ocean's, and over the labels the share of them that breaks and the
// mean part of a crest that breaks where one does are naval-ocean's (core's
// ocean_breaking asked at the labels' surface points).
//
// Usage: node test_web_ocean.mjs WEB_STAGE NAVAL_OCEAN
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [stage, navalOcean] = process.argv.slice(2).map((a) => resolve(a));
if (!navalOcean) {
  console.error("usage: node test_web_ocean.mjs WEB_STAGE NAVAL_OCEAN");
  process.exit(2);
}
if (!existsSync(join(stage, "lib", "ocean.mjs"))) {
  console.error(`FAIL: ${stage}/lib/ocean.mjs is missing: build the target web first`);
  process.exit(1);
}
const { Ocean, oceanSpecProblem, breakingStrength, BREAKING_SQUEEZE, BREAKING_FULL, FOAM_DECAY_S, FOAM_STEP_S, FOAM_SNAP_BACK_S } = await import(pathToFileURL(join(stage, "lib", "ocean.mjs")).href);

const base = {
  spectrum: 2, spreading: 0, gravity: 9.81, windSpeed: 10, windDirection: 0, fetch: 100000, depth: 0, gamma: 3.3, swell: 0,
  choppiness: 1, beaufort: -1, hsTarget: 0, tp: 0, size: 1000, cascadeRatio: 5.23, cascades: 3, resolution: 256, resolutionZ: 0,
  repeatPeriod: 1000, minWavelength: 0, seed: 1n,
};
const SPECTRA = ["phillips", "pm", "jonswap", "tma"];
// Each case: the spec (over `base`) and the time.
const cases = [
  { name: "server default sea", spec: { windSpeed: 9, windDirection: 30, size: 600, resolution: 256, cascades: 1 }, time: 37.5 },
  { name: "Phillips, Hs target, 3 cascades", spec: { spectrum: 0, windSpeed: 12, windDirection: -40, size: 800, resolution: 128, hsTarget: 2.5, seed: 7n }, time: 1234.25 },
  { name: "TMA shallow, choppy", spec: { spectrum: 3, depth: 15, choppiness: 1.8, size: 300, resolution: 64, cascades: 1, seed: 99n }, time: 5 },
  { name: "Beaufort 6, PM", spec: { spectrum: 1, beaufort: 6, size: 500, resolution: 128, cascades: 2, seed: 3n }, time: 999.9 },
  // 5 m/s over 100 km: fully developed (the peak and the energy capped at
  // PM's), its 24 m peak on the default cut of a 1000 m tile: the cut moves
  { name: "JONSWAP fully developed, cut off the peak", spec: { windSpeed: 5, size: 1000, resolution: 256, cascades: 3, seed: 11n }, time: 3 },
  // Hs 11.5 m at 30.55 m/s: the peak period lengthened to 3.6 sqrt(Hs)
  { name: "Beaufort 11, JONSWAP", spec: { beaufort: 11, size: 3000, resolution: 128, cascades: 2, seed: 4n }, time: 77 },
  { name: "TMA, Hs and Tp given", spec: { spectrum: 3, depth: 40, hsTarget: 3, tp: 10, size: 1500, resolution: 128, cascades: 1, seed: 8n }, time: 12.5 },
  // the server's and the envelope's layout in a gale: crests break
  { name: "Beaufort 8, one 600 m tile", spec: { beaufort: 8, size: 600, resolution: 256, cascades: 1, seed: 5n }, time: 61 },
  { name: "Beaufort 10, three cascades", spec: { beaufort: 10, size: 1200, resolution: 256, cascades: 3, seed: 2n }, time: 400.5 },
];

// The server asks its crests at surface points, whose labels it finds by
// three fixed-point steps (a few mm off the label in these seas), in float;
// the browser at the labels themselves, in double.
const BREAKING_FRACTION_TOL = 0.02, BREAKING_STRENGTH_TOL = 0.005;

let failures = 0;
const close = (got, want, tol, what) => {
  if (!(Math.abs(got - want) <= tol)) {
    console.error(`FAIL: ${what}: browser ${got}, server ${want} (tolerance ${tol})`);
    failures++;
  }
};

for (const c of cases) {
  const spec = { ...base, ...c.spec };
  const args = [
    "--spectrum", SPECTRA[spec.spectrum], "--size", String(spec.size), "--resolution", String(spec.resolution),
    "--cascades", String(spec.cascades), "--choppiness", String(spec.choppiness), "--seed", String(spec.seed),
    "--wind-dir", String(spec.windDirection), "--time", String(c.time), "--steps", "1", "--json",
  ];
  if (spec.beaufort >= 0) args.push("--beaufort", String(spec.beaufort));
  else args.push("--wind", String(spec.windSpeed));
  if (spec.hsTarget > 0) args.push("--hs", String(spec.hsTarget));
  if (spec.tp > 0) args.push("--tp", String(spec.tp));
  if (spec.depth > 0) args.push("--depth", String(spec.depth));
  const server = JSON.parse(execFileSync(navalOcean, args, { encoding: "utf8" }));
  const ocean = new Ocean(spec, spec.resolution);
  ocean.update(c.time);
  const m = ocean.measure();
  // naval-ocean prints 6 significant digits; the C field is float.
  close(m.hsMeasured, server.hs_measured, 2e-5 * server.hs_measured + 1e-6, `${c.name}: hs_measured`);
  close(ocean.hsGrid, server.hs_grid, 2e-5 * server.hs_grid + 1e-6, `${c.name}: hs_grid`);
  if (spec.cascades === 1) {
    // Over the labels of the only cascade (with several, core sums the
    // others by bilinear queries at those labels: not what the browser draws).
    close(m.maxHeight, server.max_height, 1e-4, `${c.name}: max_height`);
    close(m.minHeight, server.min_height, 1e-4, `${c.name}: min_height`);
  }
  console.log(`${c.name}: Hs ${m.hsMeasured.toFixed(5)} m (server ${server.hs_measured}), max ${m.maxHeight.toFixed(4)} (${server.max_height}), min ${m.minHeight.toFixed(4)} (${server.min_height})`);

  // Whitecaps: the same stencil, the same crests breaking by the same part.
  close(ocean.breakingStencil, server.breaking_stencil, 1e-6 * server.breaking_stencil, `${c.name}: breaking_stencil`);
  const b = ocean.measureBreaking();
  close(b.fraction, server.breaking_fraction, BREAKING_FRACTION_TOL * server.breaking_fraction + 2 / (spec.resolution * spec.resolution), `${c.name}: breaking_fraction`);
  close(b.strengthMean, server.breaking_strength_mean, BREAKING_STRENGTH_TOL, `${c.name}: breaking_strength_mean`);
  console.log(`${c.name}: breaking ${b.fraction.toFixed(5)} of the labels (server ${server.breaking_fraction}), over ${b.strengthMean.toFixed(4)} of the crest (${server.breaking_strength_mean}), stencil ${ocean.breakingStencil.toFixed(4)} m (${server.breaking_stencil})`);

  // Drawn at a lower resolution it is the same sea without its shortest
  // waves: nearly all of the height remains.
  if (spec.resolution >= 128) {
    const coarse = new Ocean(spec, spec.resolution / 2);
    coarse.update(c.time);
    const hs = coarse.measure().hsMeasured;
    if (!(hs <= m.hsMeasured * 1.0001 && hs > 0.9 * m.hsMeasured)) {
      console.error(`FAIL: ${c.name}: at half resolution Hs ${hs}, full ${m.hsMeasured}`);
      failures++;
    }
    // and nearly the same whitecaps at the page's default 128 modes: the
    // squeeze's stencil keeps little of the waves it drops (where enough
    // crests break to count)
    if (spec.resolution === 256 && b.fraction > 0.002) {
      const half = coarse.measureBreaking();
      console.log(`${c.name}: at half resolution breaking ${half.fraction.toFixed(5)} of the labels, over ${half.strengthMean.toFixed(4)} of the crest`);
      if (!(Math.abs(half.fraction - b.fraction) <= 0.25 * b.fraction && Math.abs(half.strengthMean - b.strengthMean) <= 0.15 * b.strengthMean)) {
        console.error(`FAIL: ${c.name}: at half resolution breaking ${half.fraction} over ${half.strengthMean}, full ${b.fraction} over ${b.strengthMean}`);
        failures++;
      }
    }
  }
}

// How much of a crest breaks: none to the onset, linear to all of it at
// Stokes' limiting steepness (core's ocean_breaking); the two ends are
// core's constants, which the fractions above would also miss.
close(BREAKING_FULL, Math.PI * 0.142, 1e-12, "BREAKING_FULL (pi x Stokes' 0.142)");
close(breakingStrength(BREAKING_SQUEEZE), 0, 0, "the part breaking at the onset");
close(breakingStrength(0.5 * (BREAKING_SQUEEZE + BREAKING_FULL)), 0.5, 1e-12, "the part breaking half way to the limit");
close(breakingStrength(BREAKING_FULL), 1, 1e-12, "the part breaking at the limit");
close(breakingStrength(2), 1, 0, "the part breaking past the limit");
close(breakingStrength(NaN), 0, 0, "the part breaking at a NaN squeeze");

// The foam breakers leave: on tile 0's labels, at least what breaks there
// now, and what was there fading by exp(-dt / FOAM_DECAY_S) (Monahan's
// 3.85 s); brought up to date every FOAM_STEP_S at most; afresh when the
// clock runs backwards.
// breakingAt on a scripted field, against the squeeze by hand: on a 64 m
// tile of 1 m labels, Dx = -A sin(kx x), Dz = -B sin(kz z), h = cos(2 pi z / 64);
// central differences d either side give A sin(kx d) cos(kx x) / d +
// B sin(kz d) cos(kz z) / d, and only a crest (h > 0) breaks.
{
  const sea = new Ocean({ ...base, size: 64, resolution: 64, cascades: 1 }, 64), t = sea.tiles[0];
  const A = 2, B = 1, kx = (2 * Math.PI) / 32, kz = (2 * Math.PI) / 16, d = 4;
  sea.breakingStencil = d;
  for (let iz = 0; iz < 64; iz++)
    for (let ix = 0; ix < 64; ix++) {
      const i = 4 * (iz * 64 + ix);
      t.fields[i] = -A * Math.sin(kx * ix);
      t.fields[i + 1] = Math.cos((2 * Math.PI * iz) / 64);
      t.fields[i + 2] = -B * Math.sin(kz * iz);
    }
  let bad = 0, broke = 0, troughs = 0;
  for (let iz = 0; iz < 64; iz++)
    for (let ix = 0; ix < 64; ix++) {
      const squeeze = (A * Math.sin(kx * d) * Math.cos(kx * ix) + B * Math.sin(kz * d) * Math.cos(kz * iz)) / d;
      const h = t.fields[4 * (iz * 64 + ix) + 1];
      const want = h > 0 ? breakingStrength(squeeze) : 0, got = sea.breakingAt(ix, iz);
      if (!(Math.abs(got - want) <= 1e-5)) bad++;
      if (want > 0) broke++;
      if (!(h > 0) && breakingStrength(squeeze) > 0) troughs++;
    }
  console.log(`scripted field: ${broke} labels break, ${troughs} troughs squeezed past the onset do not`);
  if (bad || !(broke > 100) || !(troughs > 100)) {
    console.error(`FAIL: scripted field: ${bad} labels off the squeeze by hand (${broke} breaking, ${troughs} squeezed troughs)`);
    failures++;
  }
}

close(FOAM_DECAY_S, 3.85, 0, "FOAM_DECAY_S (Monahan's sea water)");
{
  const spec = { ...base, beaufort: 8, size: 600, resolution: 128, cascades: 1, seed: 5n };
  const sea = new Ocean(spec, 128), t = sea.tiles[0];
  const foamOf = () => Float32Array.from({ length: t.nx * t.nz }, (_, i) => t.fields[4 * i + 3]);
  const activeOf = () => Float64Array.from({ length: t.nx * t.nz }, (_, i) => sea.breakingAt(((i % t.nx) * t.size) / t.nx, (Math.floor(i / t.nx) * t.size) / t.nz));
  const expectFoam = (what, want) => {
    const got = foamOf();
    let bad = 0, worst = 0;
    for (let i = 0; i < got.length; i++) {
      const e = Math.abs(got[i] - want[i]);
      if (e > 1e-6) bad++;
      worst = Math.max(worst, e);
    }
    if (bad) {
      console.error(`FAIL: foam ${what}: ${bad} labels off, by up to ${worst}`);
      failures++;
    }
  };
  sea.update(61);
  const first = activeOf();
  expectFoam("at the first update", first);
  const lit = first.filter((v) => v > 0).length;
  if (!(lit > 0.002 * first.length)) {
    console.error(`FAIL: foam: only ${lit} labels break in the Beaufort 8 tile`);
    failures++;
  }
  let prev = foamOf();
  for (const dt of [0.5, 1.5, 4]) {
    const now = sea.time + dt;
    sea.update(now);
    const active = activeOf(), keep = Math.exp(-dt / FOAM_DECAY_S);
    expectFoam(`${dt} s on`, active.map((a, i) => Math.max(a, prev[i] * keep)));
    prev = foamOf();
  }
  // foam left where no crest breaks now: fading, not gone
  const activeNow = activeOf();
  const left = prev.filter((v, i) => v > 0 && activeNow[i] === 0).length;
  console.log(`foam: ${lit} labels breaking at first, ${prev.filter((v) => v > 0).length} with foam 6 s on, ${left} of them no longer breaking`);
  if (!(left > lit)) {
    console.error(`FAIL: foam: ${left} labels hold foam left by crests that no longer break, fewer than the ${lit} that broke at first`);
    failures++;
  }
  sea.update(sea.time + 0.5 * FOAM_STEP_S);
  expectFoam("within a step", prev);
  sea.update(sea.time - 0.5 * FOAM_SNAP_BACK_S);
  expectFoam("after the clock snapped back a little", prev);
  sea.update(30);
  expectFoam("after the clock ran back", activeOf());
}

// Bad specs are refused with the field named.
const bad = [
  [{ resolution: 100 }, /resolution must be a power of two/],
  [{ gravity: -1 }, /gravity must be > 0/],
  [{ cascades: 9 }, /cascades must be 1\.\.4/],
  [{ windDirection: NaN }, /wind direction must be finite/],
  [{ tp: 8 }, /tp 8 s needs hs/],
];
for (const [patch, re] of bad) {
  const why = oceanSpecProblem({ ...base, ...patch });
  let threw = "";
  try {
    new Ocean({ ...base, ...patch });
  } catch (e) {
    threw = e.message;
  }
  if (!why || !re.test(why) || !threw.startsWith("ocean spec: ")) {
    console.error(`FAIL: ${JSON.stringify(patch)}: problem "${why}", constructor "${threw}"`);
    failures++;
  }
}

if (failures) {
  console.error(`test_web_ocean: ${failures} failure(s)`);
  process.exit(1);
}
console.log("test_web_ocean: ok");
