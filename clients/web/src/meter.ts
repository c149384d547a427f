// SPDX-License-Identifier: MIT
// Figures over a sliding window of the last second or so: snapshot rate,
// bytes per second, latency and tick time (mean and max), frame rate.

export class Meter {
  private times: number[] = [];
  private values: number[] = [];

  constructor(private readonly window = 1) {}

  add(now: number, value = 1): void {
    this.times.push(now);
    this.values.push(value);
    this.trim(now);
  }

  private trim(now: number): void {
    let drop = 0;
    while (drop < this.times.length && this.times[drop] < now - this.window) drop++;
    if (drop) {
      this.times.splice(0, drop);
      this.values.splice(0, drop);
    }
  }

  /** Samples in the window per second. */
  rate(now: number): number {
    this.trim(now);
    return this.times.length / this.window;
  }

  /** Sum of the values per second. */
  sumRate(now: number): number {
    this.trim(now);
    let s = 0;
    for (const v of this.values) s += v;
    return s / this.window;
  }

  mean(now: number): number {
    this.trim(now);
    if (!this.values.length) return NaN;
    let s = 0;
    for (const v of this.values) s += v;
    return s / this.values.length;
  }

  max(now: number): number {
    this.trim(now);
    return this.values.length ? Math.max(...this.values) : NaN;
  }
}
