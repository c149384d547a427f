// SPDX-License-Identifier: MIT
// Inverse 2D FFT for the ocean: radix-2, in place, unnormalised, e^{+i}
// (FFTW's BACKWARD, which core/ocean_update.c uses), so that a field is
// f(x) = sum_k F(k) e^{i k.x} exactly as on the server.

export class Fft {
  readonly n: number;
  private readonly rev: Uint32Array;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;

  constructor(n: number) {
    if (!(n >= 2 && n <= 4096 && (n & (n - 1)) === 0)) throw new Error(`fft: size must be a power of two in [2, 4096] (got ${n})`);
    this.n = n;
    this.rev = new Uint32Array(n);
    const bits = Math.log2(n);
    for (let i = 0; i < n; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.rev[i] = r;
    }
    // Twiddles from one table of e^{2 pi i k / n}, k < n/2: every stage
    // reads it with a stride, so no error accumulates from recurrences.
    this.cos = new Float64Array(n / 2);
    this.sin = new Float64Array(n / 2);
    for (let k = 0; k < n / 2; k++) {
      this.cos[k] = Math.cos((2 * Math.PI * k) / n);
      this.sin[k] = Math.sin((2 * Math.PI * k) / n);
    }
  }

  /** One transform of n complex values at re[off + i*stride], im[...]. */
  inverse(re: Float64Array, im: Float64Array, off: number, stride: number, sre: Float64Array, sim: Float64Array): void {
    const n = this.n;
    for (let i = 0; i < n; i++) {
      const j = off + this.rev[i] * stride;
      sre[i] = re[j];
      sim[i] = im[j];
    }
    for (let size = 2; size <= n; size <<= 1) {
      const half = size >> 1, step = n / size;
      for (let start = 0; start < n; start += size) {
        for (let k = 0; k < half; k++) {
          const c = this.cos[k * step], s = this.sin[k * step];
          const a = start + k, b = a + half;
          const tr = sre[b] * c - sim[b] * s, ti = sre[b] * s + sim[b] * c;
          sre[b] = sre[a] - tr;
          sim[b] = sim[a] - ti;
          sre[a] += tr;
          sim[a] += ti;
        }
      }
    }
    for (let i = 0; i < n; i++) {
      const j = off + i * stride;
      re[j] = sre[i];
      im[j] = sim[i];
    }
  }
}

/** nx x nz complex grid, row-major (x fastest): rows, then columns. */
export class Fft2 {
  private readonly fx: Fft;
  private readonly fz: Fft;
  private readonly sre: Float64Array;
  private readonly sim: Float64Array;

  constructor(readonly nx: number, readonly nz: number) {
    this.fx = new Fft(nx);
    this.fz = nz === nx ? this.fx : new Fft(nz);
    const m = Math.max(nx, nz);
    this.sre = new Float64Array(m);
    this.sim = new Float64Array(m);
  }

  inverse(re: Float64Array, im: Float64Array): void {
    for (let z = 0; z < this.nz; z++) this.fx.inverse(re, im, z * this.nx, 1, this.sre, this.sim);
    for (let x = 0; x < this.nx; x++) this.fz.inverse(re, im, x, this.nx, this.sre, this.sim);
  }
}
