// SPDX-License-Identifier: MIT
// Drawing a player view's vessels. Unlike full snapshots, a view's update
// carries only the vessels that mattered most in its budget (near ones
// every tick, far ones a few times a second), so each vessel has its own
// samples (viewcodec.ts keeps the last HELD_SAMPLES) and is posed between
// its own two around the drawn time: positions lerp, orientations nlerp.
// The drawn time runs `delay` behind the server's clock as for snapshots
// (timeline.ts). A vessel whose newest sample is older than the drawn time
// (a far one between its updates) is carried on along its last two samples
// for at most `maxAhead` seconds, then held.

import { ServerClock, ensurePose, nlerp, type Pose } from "./timeline";
import type { HeldVessel, ViewSample } from "./viewcodec";

export class ViewPlayout {
  private readonly clock = new ServerClock();
  /** (sim time, tick) of the last second's updates: which tick is drawn. */
  private recent: { simTime: number; tick: number }[] = [];
  /** The newest update's sim time (s), NaN before any. */
  newestTime = NaN;
  newestTick = 0;

  constructor(public delay = 0.1, public maxAhead = 0.25) {}

  clear(): void {
    this.clock.clear();
    this.recent = [];
    this.newestTime = NaN;
    this.newestTick = 0;
  }

  /** An update stamped `simTime` arrived at `now` (s, local monotonic clock). */
  push(simTime: number, tick: number, now: number): void {
    // A tick going back is a new server: its clock starts afresh.
    if (tick < this.newestTick) this.clear();
    this.clock.push(simTime, now);
    this.newestTime = simTime;
    this.newestTick = tick;
    this.recent.push({ simTime, tick });
    while (this.recent.length > 1 && this.recent[0].simTime < simTime - 1) this.recent.shift();
  }

  /** The first update's tick at or after sim time t (the newest when t is past it), as the snapshot timeline reports the later snapshot. */
  private tickAt(t: number): number {
    for (const r of this.recent) if (r.simTime >= t) return r.tick;
    return this.newestTick;
  }

  /** The server sim time drawn at local time `now`. NaN before any update. */
  drawTime(now: number): number {
    if (this.clock.empty) return NaN;
    return now + this.clock.estimate(now) - this.delay;
  }

  /** Fills `out` with the held vessels posed at sim time t. false when there is nothing to draw. */
  sample(held: ReadonlyMap<number, HeldVessel>, t: number, out: Pose): boolean {
    if (!Number.isFinite(t)) return false;
    ensurePose(out, held.size);
    let i = 0;
    for (const v of held.values()) {
      out.ids[i] = v.id;
      out.types[i] = v.type;
      out.flags[i] = v.flags;
      poseAt(v.samples, t, this.maxAhead, out, i);
      i++;
    }
    out.count = i;
    out.simTime = t;
    out.tick = this.tickAt(t);
    out.snapshotCount = i;
    out.starved = t > this.newestTime;
    return true;
  }
}

/** Vessel i of `out` from `samples` (oldest first) at time t. */
export function poseAt(samples: readonly ViewSample[], t: number, maxAhead: number, out: Pose, i: number): void {
  const n = samples.length;
  let b = n - 1;
  while (b > 0 && samples[b - 1].simTime >= t) b--;
  const sb = samples[b];
  if (b === 0 && (n === 1 || t <= sb.simTime)) {
    // Only one sample, or the drawn time is before them all: its own pose.
    for (let k = 0; k < 3; k++) out.pos[3 * i + k] = sb.pos[k];
    for (let k = 0; k < 4; k++) out.quat[4 * i + k] = sb.quat[k];
    return;
  }
  // Between samples a and b, or past the newest (b): carried on for at most maxAhead.
  const sa = b === n - 1 && t > sb.simTime ? samples[n - 2] : samples[b - 1];
  const s1 = b === n - 1 && t > sb.simTime ? sb : samples[b];
  const span = s1.simTime - sa.simTime;
  const at = Math.min(t, s1.simTime + maxAhead);
  const u = span > 0 ? (at - sa.simTime) / span : 1;
  for (let k = 0; k < 3; k++) out.pos[3 * i + k] = sa.pos[k] + (s1.pos[k] - sa.pos[k]) * u;
  nlerp(sa.quat, 0, s1.quat, 0, u, out.quat, 4 * i);
}
