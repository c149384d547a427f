// SPDX-License-Identifier: MIT
// The server's FFT ocean (core/ocean.c, ocean_update.c) rebuilt in the
// browser from WorldInfo's OceanSpec: the same waves (amplitude, direction,
// random phase from the same seed hash, quantised frequency) evolved to the
// same time. The sea is a pure function of (spec, seed, t), so nothing but
// the spec crosses the wire.
//
// One deliberate difference: each cascade is transformed on a grid of at
// most `maxResolution` per axis, keeping the modes |n|, |m| < R/2 (the
// longest waves, which carry almost all the height) and dropping the rest.
// With R equal to the server's resolution it is the server's field (to
// float rounding); tests/test_web_ocean.mjs checks that against naval-ocean.

import { Fft2 } from "./fft";
import {
  SpectrumKind, SpectrumModel, SpreadingKind, beaufortHs, beaufortWind, gaussianPair, gaussianSeed, minPeakPeriod,
  spectrumDensity2d, spectrumDispersion, spectrumPeakOmega, spectrumPrepare, spectrumWavenumber,
} from "./spectrum";

import type { OceanSpecData } from "./wire";

/** core's ocean_params, as WorldInfo.ocean carries them (the client package's type). */
export type OceanSpecInput = OceanSpecData;

const MAX_CASCADES = 4;
const MAX_RESOLUTION = 2048;
const CASCADE_CUT = 8; // core's OCEAN_CASCADE_CUT
const PEAK_BAND_HI = 1.8; // core's OCEAN_PEAK_BAND_HI
/** core's OCEAN_BREAKING_SQUEEZE: the dominant waves' squeeze at which a crest starts to break. */
export const BREAKING_SQUEEZE = 0.2;
/** core's OCEAN_BREAKING_FULL: the squeeze from which all of a crest breaks (Stokes' limit, pi x 0.142). */
export const BREAKING_FULL = Math.PI * 0.142;
/**
 * The e-folding time (s) of a whitecap's foam in sea water, once its crest
 * has stopped breaking (Monahan, J. Phys. Oceanogr. 1, 1971: 3.85 s in
 * sea water, 2.54 s in fresh).
 */
export const FOAM_DECAY_S = 3.85;
/** The foam is brought up to date at most this often (s of the ocean's clock). */
export const FOAM_STEP_S = 0.1;
/**
 * A clock that steps back by less than this (s) keeps the foam: the page's
 * estimate of the server's clock snaps back a little when the server falls
 * behind. Further back (a replay's seek) the foam starts afresh.
 */
export const FOAM_SNAP_BACK_S = 1;

/** The part of a crest that breaks at a squeeze (core's ocean_breaking): none to the onset, then linear to all. */
export function breakingStrength(squeeze: number): number {
  if (!(squeeze > BREAKING_SQUEEZE)) return 0;
  return Math.min(1, (squeeze - BREAKING_SQUEEZE) / (BREAKING_FULL - BREAKING_SQUEEZE));
}

const isPow2In = (n: number, lo: number, hi: number) => Number.isInteger(n) && n >= lo && n <= hi && (n & (n - 1)) === 0;

/** null when usable, else what is wrong (the checks of nv_ocean_params_validate the client depends on). */
export function oceanSpecProblem(p: OceanSpecInput): string | null {
  const finite = (v: number) => typeof v === "number" && Number.isFinite(v);
  if (!(p.spectrum >= 0 && p.spectrum <= 3)) return `spectrum: unknown spectrum ${p.spectrum}`;
  if (!(p.spreading >= 0 && p.spreading <= 3)) return `spreading: unknown spreading ${p.spreading}`;
  if (!finite(p.gravity) || !(p.gravity > 0)) return `gravity must be > 0 m/s^2 (got ${p.gravity})`;
  if (!finite(p.windSpeed) || !(p.windSpeed >= 0)) return `wind speed must be >= 0 m/s (got ${p.windSpeed})`;
  if (!finite(p.windDirection)) return `wind direction must be finite (got ${p.windDirection})`;
  if (!finite(p.fetch) || !(p.fetch > 0)) return `fetch must be > 0 m (got ${p.fetch})`;
  if (!finite(p.depth) || !(p.depth >= 0)) return `depth must be >= 0 m (got ${p.depth})`;
  if (!finite(p.gamma) || !(p.gamma >= 1)) return `gamma must be >= 1 (got ${p.gamma})`;
  if (!finite(p.choppiness) || !(p.choppiness >= 0 && p.choppiness <= 10)) return `choppiness must be in [0, 10] (got ${p.choppiness})`;
  if (!(Number.isInteger(p.beaufort) && p.beaufort >= -1 && p.beaufort <= 12)) return `beaufort must be 0..12 or -1 (got ${p.beaufort})`;
  if (!finite(p.hsTarget) || !(p.hsTarget >= 0)) return `hs target must be >= 0 m (got ${p.hsTarget})`;
  const tp = p.tp ?? 0;
  if (!finite(tp) || !(tp >= 0)) return `tp must be >= 0 s (got ${tp})`;
  if (tp > 0 && p.spectrum === SpectrumKind.Phillips) return "tp: the Phillips spectrum has no peak period to set";
  if (tp > 0 && !(p.hsTarget > 0) && p.beaufort < 0) return `tp ${tp} s needs hs (or beaufort)`;
  if (!finite(p.size) || !(p.size > 0 && p.size <= 1e6)) return `size must be in (0, 1e6] m (got ${p.size})`;
  if (!(Number.isInteger(p.cascades) && p.cascades >= 1 && p.cascades <= MAX_CASCADES)) return `cascades must be 1..${MAX_CASCADES} (got ${p.cascades})`;
  if (!isPow2In(p.resolution, 4, MAX_RESOLUTION)) return `resolution must be a power of two in [4, ${MAX_RESOLUTION}] (got ${p.resolution})`;
  if (p.resolutionZ !== 0 && !isPow2In(p.resolutionZ, 4, MAX_RESOLUTION)) return `resolution_z must be 0 or a power of two in [4, ${MAX_RESOLUTION}] (got ${p.resolutionZ})`;
  if (p.cascades > 1 && !(finite(p.cascadeRatio) && p.cascadeRatio > 1)) return `cascade ratio must be > 1 (got ${p.cascadeRatio})`;
  if (!finite(p.repeatPeriod) || !(p.repeatPeriod >= 1 && p.repeatPeriod <= 1e5)) return `repeat period must be in [1, 1e5] s (got ${p.repeatPeriod})`;
  if (!finite(p.minWavelength) || !(p.minWavelength >= 0)) return `min wavelength must be >= 0 m (got ${p.minWavelength})`;
  return null;
}

/** One cascade as drawn: a periodic tile of `size` metres sampled on nx x nz labels. */
export interface OceanTile {
  size: number;
  nx: number;
  nz: number;
  /**
   * Per label (x fastest): Dx, h, Dz (m), the surface point of label x0
   * being x0 + (Dx, h, Dz); then, on tile 0, the foam there (0..1, below),
   * on the others 0.
   */
  fields: Float32Array;
}

interface CascadeModes {
  size: number;
  dk: number;
  kLo: number;
  kHi: number;
  // per render cell, index iz * nx + ix
  sigR: Float64Array; // h0(k) + h0(-k)
  sigI: Float64Array;
  delR: Float64Array; // Re h0(-k) - Re h0(k)
  delI: Float64Array; // Im h0(k) - Im h0(-k)
  widx: Int32Array;   // w / (2 pi / T)
  dispX: Float64Array; // lambda kx / k
  dispZ: Float64Array;
}

/** A label's cell on a periodic tile: its corners' offsets into the fields and where in it the label lies. */
interface TileCell { o00: number; o10: number; o01: number; o11: number; fx: number; fz: number }

function locateCell(t: OceanTile, lx: number, lz: number, c: TileCell): void {
  const gx = (lx / t.size) * t.nx, gz = (lz / t.size) * t.nz;
  const ix = Math.floor(gx), iz = Math.floor(gz);
  const ax = ((ix % t.nx) + t.nx) % t.nx, az = ((iz % t.nz) + t.nz) % t.nz;
  const bx = (ax + 1) % t.nx, bz = (az + 1) % t.nz;
  c.o00 = 4 * (az * t.nx + ax);
  c.o10 = 4 * (az * t.nx + bx);
  c.o01 = 4 * (bz * t.nx + ax);
  c.o11 = 4 * (bz * t.nx + bx);
  c.fx = gx - ix;
  c.fz = gz - iz;
}

/** Field k bilinear in the cell (the GPU's fieldAt: along x, then along z). */
function lerpCell(f: Float32Array, c: TileCell, k: number): number {
  const v00 = f[c.o00 + k], v01 = f[c.o01 + k];
  return (v00 + (f[c.o10 + k] - v00) * c.fx) * (1 - c.fz) + (v01 + (f[c.o11 + k] - v01) * c.fx) * c.fz;
}

const wrapIndex = (i: number, n: number) => (i < n / 2 ? i : i - n);

export class Ocean {
  readonly tiles: OceanTile[] = [];
  /** 4 sqrt(expected variance of the server's modes), m. */
  readonly hsGrid: number;
  /** Grid used per cascade and the server's. */
  readonly renderNx: number;
  readonly renderNz: number;
  readonly serverNx: number;
  readonly serverNz: number;
  /**
   * Half-width (m) of the central differences the dominant waves' squeeze
   * is taken over (core's ocean_breaking): a quarter of the spectral
   * peak's half wavelength; 0 for a sea without a peak (nothing breaks).
   */
  readonly breakingStencil: number;
  private readonly modes: CascadeModes[] = [];
  private readonly omega0: number;
  private readonly period: number;
  private readonly jmax: number;
  private readonly phasor: Float64Array;
  private readonly fft: Fft2;
  private readonly aRe: Float64Array;
  private readonly aIm: Float64Array;
  private readonly bRe: Float64Array;
  private readonly bIm: Float64Array;
  time = NaN;
  /** The ocean's time the foam was last brought to (NaN: never). */
  private foamTime = NaN;

  constructor(input: OceanSpecInput, maxResolution = 128) {
    const problem = oceanSpecProblem(input);
    if (problem) throw new Error(`ocean spec: ${problem}`);
    if (!isPow2In(maxResolution, 4, MAX_RESOLUTION)) throw new Error(`ocean: render resolution must be a power of two in [4, ${MAX_RESOLUTION}] (got ${maxResolution})`);
    const p = { ...input };
    if (p.beaufort >= 0) {
      p.windSpeed = beaufortWind(p.beaufort);
      p.hsTarget = beaufortHs(p.beaufort);
    }
    if (p.resolutionZ === 0) p.resolutionZ = p.resolution;
    this.serverNx = p.resolution;
    this.serverNz = p.resolutionZ;
    const nx = Math.min(p.resolution, maxResolution), nz = Math.min(p.resolutionZ, maxResolution);
    this.renderNx = nx;
    this.renderNz = nz;
    this.period = p.repeatPeriod;
    this.omega0 = (2 * Math.PI) / p.repeatPeriod;
    const model: SpectrumModel = {
      type: p.spectrum as SpectrumKind, spreading: p.spreading as SpreadingKind, gravity: p.gravity, windSpeed: p.windSpeed,
      fetch: p.fetch, depth: p.depth, gamma: p.gamma, swell: p.swell, scale: 1, peakPeriod: p.tp ?? 0, alpha: 0, omegaP: 0,
      phillipsL: 0,
    };
    spectrumPrepare(model);
    // core's nv_ocean_create: a sea given by its height alone is no steeper than MAX_STEEPNESS
    if (p.hsTarget > 0 && !((p.tp ?? 0) > 0) && model.type !== SpectrumKind.Phillips && model.omegaP > 0) {
      const tpMin = minPeakPeriod(p.hsTarget, p.gravity);
      if ((2 * Math.PI) / model.omegaP < tpMin) {
        model.peakPeriod = tpMin;
        spectrumPrepare(model);
      }
    }
    const peakOmega = spectrumPeakOmega(model), peakK = spectrumWavenumber(peakOmega, p.depth, p.gravity);
    this.breakingStencil = peakK > 0 ? (0.25 * Math.PI) / peakK : 0;
    // core's cascade_moved_cut: a cut in the peak band moves to its top when the coarser grid holds it
    const kp = (model.omegaP * model.omegaP) / model.gravity, nMin = Math.min(p.resolution, p.resolutionZ);
    const movedCut = (c: number): number => {
      const lo = (CASCADE_CUT * 2 * Math.PI * Math.pow(p.cascadeRatio, c + 1)) / p.size;
      const hi = ((nMin / 2 - 1) * 2 * Math.PI * Math.pow(p.cascadeRatio, c)) / p.size;
      const top = kp * PEAK_BAND_HI;
      return kp > 0 && top > lo && top <= hi ? top : 0;
    };
    // The spectrum measures angles from +x toward +z; headings and wind turn toward -z (core/ocean.c).
    const windDir = (-p.windDirection * Math.PI) / 180;

    // h0(k) of cascade c, before the Hs scale; 0 outside its band: core's wave_amplitude.
    const xi = new Float64Array(2);
    const amplitude = (c: CascadeModes, seedHash: bigint | null, n: number, m: number, out: Float64Array): number => {
      out[0] = out[1] = 0;
      if (n <= -this.serverNx / 2 || n >= this.serverNx / 2 || m <= -this.serverNz / 2 || m >= this.serverNz / 2) return 0;
      if (n === 0 && m === 0) return 0;
      const kx = c.dk * n, kz = c.dk * m, k = Math.sqrt(kx * kx + kz * kz);
      if (!(k >= c.kLo && k < c.kHi)) return 0;
      if (p.minWavelength > 0 && k > (2 * Math.PI) / p.minWavelength) return 0;
      const s = spectrumDensity2d(model, kx, kz, windDir);
      if (!(s > 0)) return 0;
      const a = 0.5 * Math.sqrt(s) * c.dk;
      if (seedHash !== null) {
        gaussianPair(seedHash, n, m, xi);
        out[0] = a * xi[0];
        out[1] = a * xi[1];
      }
      return 2 * a * a;
    };

    let moved = 0;
    for (let c = 0; c < p.cascades; c++) {
      const size = p.size / Math.pow(p.cascadeRatio, c), dk = (2 * Math.PI) / size;
      const cells = nx * nz;
      const kLo = c === 0 ? 0 : moved > 0 ? moved : CASCADE_CUT * dk;
      moved = c + 1 < p.cascades ? movedCut(c) : 0;
      this.modes.push({
        size, dk, kLo,
        kHi: c + 1 < p.cascades ? (moved > 0 ? moved : (CASCADE_CUT * 2 * Math.PI * Math.pow(p.cascadeRatio, c + 1)) / p.size) : Infinity,
        sigR: new Float64Array(cells), sigI: new Float64Array(cells), delR: new Float64Array(cells), delI: new Float64Array(cells),
        widx: new Int32Array(cells), dispX: new Float64Array(cells), dispZ: new Float64Array(cells),
      });
      this.tiles.push({ size, nx, nz, fields: new Float32Array(cells * 4) });
    }

    // The Hs target scales by the variance of ALL the server's modes, not
    // only the drawn ones, or the drawn sea would be too high.
    let variance = 0, expected = 0;
    const h0 = new Float64Array(2);
    const needRandom = p.hsTarget > 0;
    for (let c = 0; c < p.cascades; c++) {
      const seedHash = needRandom ? gaussianSeed(p.seed, c) : null;
      for (let n = -this.serverNx / 2 + 1; n < this.serverNx / 2; n++)
        for (let m = -this.serverNz / 2 + 1; m < this.serverNz / 2; m++) {
          expected += 2 * amplitude(this.modes[c], seedHash, n, m, h0);
          variance += 2 * (h0[0] * h0[0] + h0[1] * h0[1]);
        }
    }
    let scale = 1;
    if (p.hsTarget > 0) {
      if (!(variance > 0)) throw new Error(`ocean spec: hs target ${p.hsTarget} m but the spectrum is flat (wind speed 0?)`);
      scale = (0.25 * p.hsTarget) / Math.sqrt(variance);
    }
    this.hsGrid = 4 * Math.sqrt(expected * scale * scale);

    let jmax = 0;
    const q = new Float64Array(2);
    for (let c = 0; c < p.cascades; c++) {
      const cm = this.modes[c], seedHash = gaussianSeed(p.seed, c);
      for (let iz = 0; iz < nz; iz++) {
        const m = wrapIndex(iz, nz);
        for (let ix = 0; ix < nx; ix++) {
          const n = wrapIndex(ix, nx), i = iz * nx + ix;
          // The render grid's own Nyquist row and column would have no
          // conjugate partner: left out, like the server's.
          if (n === -nx / 2 || m === -nz / 2) continue;
          amplitude(cm, seedHash, n, m, h0);
          amplitude(cm, seedHash, -n, -m, q);
          if (h0[0] === 0 && h0[1] === 0 && q[0] === 0 && q[1] === 0) continue;
          cm.sigR[i] = (h0[0] + q[0]) * scale;
          cm.sigI[i] = (h0[1] + q[1]) * scale;
          cm.delR[i] = (q[0] - h0[0]) * scale;
          cm.delI[i] = (h0[1] - q[1]) * scale;
          const kx = cm.dk * n, kz = cm.dk * m, k = Math.sqrt(kx * kx + kz * kz);
          const j = Math.max(1, Math.floor(spectrumDispersion(k, p.depth, p.gravity) / this.omega0 + 0.5));
          cm.widx[i] = j;
          if (j > jmax) jmax = j;
          cm.dispX[i] = (p.choppiness * kx) / k;
          cm.dispZ[i] = (p.choppiness * kz) / k;
        }
      }
    }
    this.jmax = jmax;
    this.phasor = new Float64Array(2 * (jmax + 1));
    this.fft = new Fft2(nx, nz);
    this.aRe = new Float64Array(nx * nz);
    this.aIm = new Float64Array(nx * nz);
    this.bRe = new Float64Array(nx * nz);
    this.bIm = new Float64Array(nx * nz);
  }

  /** Evolves every tile to `time` (s, the ocean's clock). */
  update(time: number): void {
    if (time === this.time) return;
    this.time = time;
    let t = time % this.period;
    if (t < 0) t += this.period;
    if (!(t >= 0 && t < this.period)) t = 0;
    const theta = (2 * Math.PI * t) / this.period;
    for (let j = 0; j <= this.jmax; j++) {
      this.phasor[2 * j] = Math.cos(j * theta);
      this.phasor[2 * j + 1] = Math.sin(j * theta);
    }
    const { aRe, aIm, bRe, bIm, phasor } = this;
    for (let c = 0; c < this.modes.length; c++) {
      const cm = this.modes[c], tile = this.tiles[c], cells = tile.nx * tile.nz;
      for (let i = 0; i < cells; i++) {
        const j = cm.widx[i];
        if (j === 0) {
          aRe[i] = aIm[i] = bRe[i] = bIm[i] = 0;
          continue;
        }
        const cs = phasor[2 * j], sn = phasor[2 * j + 1];
        // h~ = h0(k) e^{-iwt} + conj(h0(-k)) e^{iwt}, from sigma and delta (core's column_height)
        const hr = cs * cm.sigR[i] + sn * cm.sigI[i];
        const hi = cs * cm.delI[i] + sn * cm.delR[i];
        // Two real fields per complex transform: A = h + i Dx, with
        // Dx~ = i (lambda kx / k) h~; B = Dz alone.
        const dx = cm.dispX[i], dz = cm.dispZ[i];
        aRe[i] = hr - dx * hr;
        aIm[i] = hi - dx * hi;
        bRe[i] = -dz * hi;
        bIm[i] = dz * hr;
      }
      this.fft.inverse(aRe, aIm);
      this.fft.inverse(bRe, bIm);
      const f = tile.fields;
      for (let i = 0; i < cells; i++) {
        f[4 * i] = aIm[i];
        f[4 * i + 1] = aRe[i];
        f[4 * i + 2] = bRe[i];
      }
    }
    this.updateFoam(time);
  }

  /**
   * The foam on tile 0's labels: where a crest breaks, at least the part
   * of it that breaks; where none breaks any more, what was there fading
   * by exp(-dt / FOAM_DECAY_S). A label is a water particle's rest place,
   * so foam kept on labels rides the waves' orbits with the water. Every
   * FOAM_STEP_S at most; a clock run backwards by FOAM_SNAP_BACK_S or
   * more (a replay's seek) starts it afresh. With several cascades, the foam repeats with tile 0, as the
   * dominant waves that break do.
   */
  private updateFoam(time: number): void {
    const dt = time - this.foamTime;
    if (dt > -FOAM_SNAP_BACK_S && dt < FOAM_STEP_S) return;
    const keep = dt > 0 ? Math.exp(-dt / FOAM_DECAY_S) : 0;
    this.foamTime = time;
    const t = this.tiles[0], f = t.fields;
    for (let iz = 0; iz < t.nz; iz++)
      for (let ix = 0; ix < t.nx; ix++) {
        const i = 4 * (iz * t.nx + ix) + 3;
        f[i] = Math.max(this.breakingAt((ix * t.size) / t.nx, (iz * t.size) / t.nz), f[i] * keep);
      }
  }

  /** The foam at a label (0..1): bilinear on tile 0, as the water draws it. */
  foamAt(lx: number, lz: number): number {
    locateCell(this.tiles[0], lx, lz, this.cell);
    return lerpCell(this.tiles[0].fields, this.cell, 3);
  }

  /** (Dx, h, Dz) at a label (m), summed over the tiles: bilinear on each periodic tile, as the GPU's fieldAt. */
  displacementAt(lx: number, lz: number, out: Float64Array | number[]): void {
    out[0] = out[1] = out[2] = 0;
    const c = this.cell;
    for (const t of this.tiles) {
      locateCell(t, lx, lz, c);
      for (let k = 0; k < 3; k++) out[k] += lerpCell(t.fields, c, k);
    }
  }

  private readonly cell: TileCell = { o00: 0, o10: 0, o01: 0, o11: 0, fx: 0, fz: 0 };
  private readonly probe = new Float64Array(3);

  /**
   * The part of the crest at a label that breaks, 0..1: the server's
   * breaking crest (core's ocean_breaking, whose reach over the crest's
   * height this is). Only a crest above the mean level breaks, once the
   * dominant waves' squeeze there (central differences over
   * breakingStencil) passes BREAKING_SQUEEZE, all of it from BREAKING_FULL.
   * The water's vertex shader draws the same as whitecaps.
   */
  breakingAt(lx: number, lz: number): number {
    const d = this.breakingStencil, q = this.probe;
    this.displacementAt(lx, lz, q);
    if (!(d > 0 && q[1] > 0)) return 0;
    this.displacementAt(lx + d, lz, q);
    let squeeze = q[0];
    this.displacementAt(lx - d, lz, q);
    squeeze -= q[0];
    this.displacementAt(lx, lz + d, q);
    squeeze += q[2];
    this.displacementAt(lx, lz - d, q);
    squeeze = -(squeeze - q[2]) / (2 * d);
    return breakingStrength(squeeze);
  }

  /** Over tile 0's labels: the share that breaks and the mean breakingAt where it does (naval-ocean's breaking_*). */
  measureBreaking(): { fraction: number; strengthMean: number } {
    const t = this.tiles[0];
    let count = 0, sum = 0;
    for (let iz = 0; iz < t.nz; iz++)
      for (let ix = 0; ix < t.nx; ix++) {
        const b = this.breakingAt((ix * t.size) / t.nx, (iz * t.size) / t.nz);
        if (b > 0) {
          count++;
          sum += b;
        }
      }
    return { fraction: count / (t.nx * t.nz), strengthMean: count ? sum / count : 0 };
  }

  /** Field statistics as core's nv_ocean_measure computes them (one cascade: max/min over its labels). */
  measure(): { hsMeasured: number; maxHeight: number; minHeight: number; meanHeight: number } {
    let variance = 0, max = -Infinity, min = Infinity, mean = 0;
    this.tiles.forEach((tile, c) => {
      const cells = tile.nx * tile.nz;
      let sum = 0, sum2 = 0;
      for (let i = 0; i < cells; i++) {
        const h = tile.fields[4 * i + 1];
        sum += h;
        sum2 += h * h;
        if (c === 0) {
          if (h > max) max = h;
          if (h < min) min = h;
        }
      }
      const m = sum / cells, v = sum2 / cells - m * m;
      variance += v > 0 ? v : 0;
      if (c === 0) mean = m;
    });
    return { hsMeasured: 4 * Math.sqrt(variance), maxHeight: max, minHeight: min, meanHeight: mean };
  }
}
