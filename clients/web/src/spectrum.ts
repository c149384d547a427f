// SPDX-License-Identifier: MIT
// The wave spectra of core/ocean_spectrum.c, ported line for line so that
// the browser draws the sea the server simulates: same spectra, spreading,
// dispersion and the same hash-seeded Gaussian per wave. Kept in double
// like the C code; only libm's last bits may differ.

export enum SpectrumKind { Phillips = 0, PiersonMoskowitz = 1, Jonswap = 2, Tma = 3 }
export enum SpreadingKind { Auto = 0, Cos2 = 1, Mitsuyasu = 2, DonelanBanner = 3 }

const PHILLIPS_ALPHA = 0.0081;
const PM_ALPHA = 0.0081;
const PM_BETA = 0.74;
/** core's SPECTRUM_U195_PER_U10: the wind is U10, Pierson-Moskowitz's U19.5 = 1.075 U10. */
export const U195_PER_U10 = 1.075;
/** core's SPECTRUM_MAX_STEEPNESS: Tp >= 3.6 sqrt(Hs) (DNV-RP-C205), Hs / Lp <= 1 / 20.2. */
export const MAX_STEEPNESS = (2 * 3.14159265358979323846) / (9.81 * 3.6 * 3.6);

export interface SpectrumModel {
  type: SpectrumKind;
  spreading: SpreadingKind;
  gravity: number;
  windSpeed: number;
  fetch: number;
  depth: number;
  gamma: number;
  swell: number;
  scale: number;
  peakPeriod: number; // s; > 0 puts the peak at 2 pi / peakPeriod (PM, JONSWAP, TMA)
  // derived by spectrumPrepare
  alpha: number;
  omegaP: number;
  phillipsL: number;
}

const pmOmegaP = (u10: number, g: number) => (Math.pow(0.8 * PM_BETA, 0.25) * g) / (U195_PER_U10 * u10);
const fullyDevelopedChi = () => Math.pow((22 * U195_PER_U10) / Math.pow(0.8 * PM_BETA, 0.25), 3);

// core's jonswap_shape_integral: J(gamma), the deep JONSWAP m0 being alpha g^2 J / w_p^4.
function jonswapShapeIntegral(gamma: number): number {
  if (!(gamma > 1)) return 0.2;
  const lg = Math.log(gamma);
  let excess = 0;
  for (let side = 0; side < 2; side++) {
    const a = side ? 1 : 0.5, b = side ? 2 : 1, sigma = side ? 0.09 : 0.07, n = 400;
    const h = (b - a) / n;
    let part = 0;
    for (let i = 0; i <= n; i++) {
      const x = a + h * i, d = (x - 1) / sigma, x4 = x * x * x * x;
      const f = (Math.exp(-1.25 / x4) / (x4 * x)) * Math.expm1(lg * Math.exp(-0.5 * d * d));
      part += f * (i === 0 || i === n ? 1 : i & 1 ? 4 : 2);
    }
    excess += (part * h) / 3;
  }
  return 0.2 + excess;
}

/** core's nv_spectrum_min_peak_period: the shortest default peak period of a sea of height hs. */
export function minPeakPeriod(hs: number, g: number): number {
  if (!(hs > 0) || !(g > 0)) return 0;
  return Math.sqrt((2 * Math.PI * hs) / (g * MAX_STEEPNESS));
}

export function spectrumPrepare(m: SpectrumModel): void {
  const g = m.gravity, u = m.windSpeed;
  if (m.spreading === SpreadingKind.Auto) m.spreading = m.type === SpectrumKind.Phillips ? SpreadingKind.Cos2 : SpreadingKind.Mitsuyasu;
  m.alpha = 0;
  m.omegaP = 0;
  m.phillipsL = 0;
  if (!(u > 0) || !(g > 0)) return;
  switch (m.type) {
    case SpectrumKind.Phillips: {
      m.alpha = PHILLIPS_ALPHA;
      m.phillipsL = (u * u) / g;
      const kp = Math.sqrt(2 / 3) / m.phillipsL;
      m.omegaP = spectrumDispersion(kp, m.depth, g);
      break;
    }
    case SpectrumKind.PiersonMoskowitz:
      m.alpha = PM_ALPHA;
      m.omegaP = m.peakPeriod > 0 ? (2 * Math.PI) / m.peakPeriod : pmOmegaP(u, g);
      break;
    case SpectrumKind.Jonswap:
    case SpectrumKind.Tma:
      if (m.fetch > 0) {
        const wpFd = pmOmegaP(u, g);
        m.alpha = 0.076 * Math.pow((u * u) / (g * m.fetch), 0.22);
        m.omegaP = 22 * Math.cbrt((g * g) / (u * m.fetch));
        if (m.omegaP < wpFd) { // past the fully developed fetch: the peak stops at PM's
          m.alpha = 0.076 * Math.pow(fullyDevelopedChi(), -0.22);
          m.omegaP = wpFd;
        }
        if (m.peakPeriod > 0) {
          m.omegaP = (2 * Math.PI) / m.peakPeriod;
        } else { // nor does the energy grow past PM's
          const r = wpFd / m.omegaP;
          const excess = ((m.alpha * jonswapShapeIntegral(m.gamma)) / (PM_ALPHA * 0.2)) * (r * r * r * r);
          if (excess > 1) m.alpha /= excess;
        }
      }
      break;
  }
}

export function spectrumDispersion(k: number, depth: number, g: number): number {
  if (!(k > 0)) return 0;
  if (depth > 0) return Math.sqrt(g * k * Math.tanh(k * depth));
  return Math.sqrt(g * k);
}

function dispersionDerivative(k: number, depth: number, g: number): number {
  if (!(k > 0)) return depth > 0 ? Math.sqrt(g * depth) : 0;
  const w = spectrumDispersion(k, depth, g);
  if (!(w > 0)) return 0;
  if (depth > 0) {
    const kh = k * depth, th = Math.tanh(kh), sech = 1 / Math.cosh(kh);
    return (g * (th + kh * sech * sech)) / (2 * w);
  }
  return g / (2 * w);
}

function tmaFactor(omega: number, depth: number, g: number): number {
  if (!(depth > 0)) return 1;
  const wh = omega * Math.sqrt(depth / g);
  if (wh <= 1) return 0.5 * wh * wh;
  if (wh < 2) return 1 - 0.5 * (2 - wh) * (2 - wh);
  return 1;
}

function phillipsK(m: SpectrumModel, k: number): number {
  if (!(k > 0) || !(m.phillipsL > 0)) return 0;
  const kl = k * m.phillipsL, e = -1 / (kl * kl);
  if (e < -700) return 0;
  return (0.5 * m.alpha * Math.exp(e)) / (k * k * k);
}

function omegaNative(m: SpectrumModel, w: number): number {
  if (!(w > 0) || !(m.omegaP > 0)) return 0;
  const g = m.gravity, r = m.omegaP / w, r4 = r * r * r * r, w5 = w * w * w * w * w;
  const e = -1.25 * r4;
  if (e < -700) return 0;
  if (m.type === SpectrumKind.PiersonMoskowitz) return ((m.alpha * g * g) / w5) * Math.exp(e);
  const sigma = w <= m.omegaP ? 0.07 : 0.09;
  const d = (w - m.omegaP) / (sigma * m.omegaP);
  const peak = Math.pow(m.gamma > 1 ? m.gamma : 1, Math.exp(-0.5 * d * d));
  let s = ((m.alpha * g * g) / w5) * Math.exp(e) * peak;
  if (m.type === SpectrumKind.Tma) s *= tmaFactor(w, m.depth, g);
  return s;
}

/** core's spectrum_wavenumber: k of omega by the dispersion relation (Newton from the deep or the shallow guess). */
export function spectrumWavenumber(omega: number, depth: number, g: number): number {
  if (!(omega > 0)) return 0;
  let k = (omega * omega) / g;
  if (!(depth > 0)) return k;
  const ks = omega / Math.sqrt(g * depth);
  if (ks > k) k = ks;
  for (let i = 0; i < 60; i++) {
    const f = spectrumDispersion(k, depth, g) - omega, df = dispersionDerivative(k, depth, g);
    if (!(df > 0)) break;
    let kn = k - f / df;
    if (kn <= 0) kn = 0.5 * k;
    if (Math.abs(kn - k) <= 1e-14 * k) return kn;
    k = kn;
  }
  return k;
}

/** core's nv_spectrum_omega_density: S(omega), m^2 s. */
export function spectrumOmegaDensity(m: SpectrumModel, omega: number): number {
  if (!(omega > 0)) return 0;
  if (m.type === SpectrumKind.Phillips) {
    const k = spectrumWavenumber(omega, m.depth, m.gravity), dwdk = dispersionDerivative(k, m.depth, m.gravity);
    return dwdk > 0 ? (m.scale * phillipsK(m, k)) / dwdk : 0;
  }
  return m.scale * omegaNative(m, omega);
}

/**
 * core's nv_spectrum_peak_omega: where S(omega) peaks (a log scan about
 * the formula's peak, then golden section), 0 without a peak.
 */
export function spectrumPeakOmega(m: SpectrumModel): number {
  if (!(m.omegaP > 0)) return 0;
  const lo = m.omegaP / 8, hi = m.omegaP * 8, n = 2000, ratio = Math.pow(hi / lo, 1 / n);
  let bestW = m.omegaP, bestS = -1;
  for (let i = 0; i <= n; i++) {
    const w = lo * Math.pow(ratio, i), s = spectrumOmegaDensity(m, w);
    if (s > bestS) {
      bestS = s;
      bestW = w;
    }
  }
  let a = bestW / ratio, b = bestW * ratio;
  const gr = 0.5 * (Math.sqrt(5) - 1);
  let c = b - gr * (b - a), d = a + gr * (b - a);
  let fc = spectrumOmegaDensity(m, c), fd = spectrumOmegaDensity(m, d);
  for (let i = 0; i < 60; i++) {
    if (fc > fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - gr * (b - a);
      fc = spectrumOmegaDensity(m, c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + gr * (b - a);
      fd = spectrumOmegaDensity(m, d);
    }
  }
  return 0.5 * (a + b);
}

export function spectrumKDensity(m: SpectrumModel, k: number): number {
  if (!(k > 0)) return 0;
  if (m.type === SpectrumKind.Phillips) return m.scale * phillipsK(m, k);
  const w = spectrumDispersion(k, m.depth, m.gravity);
  return m.scale * omegaNative(m, w) * dispersionDerivative(k, m.depth, m.gravity);
}

// ln Gamma(x), x > 0: shifted up to x >= 15, then Stirling's series (its
// next term is under 1e-14 there): enough for the cos-2s normalisation.
function lnGamma(x: number): number {
  let shift = 0;
  while (x < 15) {
    shift += Math.log(x);
    x += 1;
  }
  const ix = 1 / x, ix2 = ix * ix;
  const series = ix * (1 / 12 - ix2 * (1 / 360 - ix2 * (1 / 1260 - ix2 / 1680)));
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + series - shift;
}

function cos2sNorm(s: number): number {
  if (!(s > 0)) return 1 / (2 * Math.PI);
  return Math.exp(lnGamma(s + 1) - lnGamma(s + 0.5)) / (2 * Math.sqrt(Math.PI));
}

function wrapAngle(a: number): number {
  a = a % (2 * Math.PI); // like fmod: keeps the sign of a
  if (a > Math.PI) a -= 2 * Math.PI;
  if (a < -Math.PI) a += 2 * Math.PI;
  return a;
}

export function spectrumSpreading(m: SpectrumModel, omega: number, theta: number): number {
  const iso = 1 / (2 * Math.PI);
  theta = wrapAngle(theta);
  switch (m.spreading) {
    case SpreadingKind.Cos2: {
      const c = Math.cos(theta);
      return (c * c) / Math.PI;
    }
    case SpreadingKind.Mitsuyasu: {
      if (!(m.omegaP > 0) || !(omega > 0) || !(m.windSpeed > 0)) return iso;
      const r = omega / m.omegaP;
      const sp = 11.5 * Math.pow(m.gravity / (m.omegaP * m.windSpeed), 2.5);
      let s = r <= 1 ? sp * Math.pow(r, 5) : sp * Math.pow(r, -2.5);
      s += 16 * Math.tanh(1 / r) * m.swell * m.swell;
      const c = Math.abs(Math.cos(0.5 * theta));
      return cos2sNorm(s) * Math.pow(c, 2 * s);
    }
    case SpreadingKind.DonelanBanner: {
      if (!(m.omegaP > 0) || !(omega > 0)) return iso;
      const r = omega / m.omegaP;
      let beta: number;
      if (r < 0.95) beta = 2.61 * Math.pow(r, 1.3);
      else if (r < 1.6) beta = 2.28 * Math.pow(r, -0.65);
      else beta = Math.pow(10, -0.4 + 0.8393 * Math.exp(-0.567 * Math.log(r * r)));
      if (beta < 1e-6) return iso;
      const sech = 1 / Math.cosh(beta * theta);
      return (beta / (2 * Math.tanh(beta * Math.PI))) * sech * sech;
    }
    default:
      return iso;
  }
}

export function spectrumDensity2d(m: SpectrumModel, kx: number, kz: number, windDir: number): number {
  const k = Math.sqrt(kx * kx + kz * kz);
  if (!(k > 0)) return 0;
  const sk = spectrumKDensity(m, k);
  if (!(sk > 0)) return 0;
  const w = spectrumDispersion(k, m.depth, m.gravity);
  return (sk * spectrumSpreading(m, w, Math.atan2(kz, kx) - windDir)) / k;
}

// Beaufort 0..12: mean wind at 10 m and the WMO probable Hs (as core).
const BEAUFORT_WIND = [0.0, 0.9, 2.45, 4.4, 6.7, 9.35, 12.3, 15.5, 18.95, 22.6, 26.45, 30.55, 35.0];
const BEAUFORT_HS = [0.0, 0.1, 0.2, 0.6, 1.0, 2.0, 3.0, 4.0, 5.5, 7.0, 9.0, 11.5, 14.0];
export function beaufortWind(b: number): number { return BEAUFORT_WIND[b]; }
export function beaufortHs(b: number): number { return BEAUFORT_HS[b]; }

// splitmix64's finaliser, in BigInt: the same bits as the C uint64 code.
const M64 = (1n << 64n) - 1n;
function hash64(x: bigint): bigint {
  x = (x + 0x9e3779b97f4a7c15n) & M64;
  x = ((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  x = ((x ^ (x >> 27n)) * 0x94d049bb133111ebn) & M64;
  return x ^ (x >> 31n);
}

/** The seed's part of the hash, once per ocean (the costly BigInt work is per wave). */
export function gaussianSeed(seed: bigint, cascade: number): bigint {
  return hash64(hash64(seed & M64) ^ BigInt(cascade >>> 0));
}

/** Two standard normals for wave (n, m): core's nv_spectrum_gaussian_pair. */
export function gaussianPair(seedHash: bigint, n: number, m: number, out: Float64Array): void {
  const h = hash64(seedHash ^ ((BigInt(n >>> 0) << 32n) | BigInt(m >>> 0)));
  const a = hash64(h), b = hash64(h ^ 0xd1b54a32d192ed03n);
  const u1 = 1 - Number(a >> 11n) * 2 ** -53;
  const u2 = Number(b >> 11n) * 2 ** -53;
  const r = Math.sqrt(-2 * Math.log(u1));
  out[0] = r * Math.cos(2 * Math.PI * u2);
  out[1] = r * Math.sin(2 * Math.PI * u2);
}
