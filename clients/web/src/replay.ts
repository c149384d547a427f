// SPDX-License-Identifier: MIT
// Playing a replay file: a clock over the recorded sim time that can be
// paused, moved (scrub) and sped up, and the snapshots around the drawn
// time fed into the live page's own Timeline, whose interpolation then
// poses the boats exactly as it does for a live stream. Pure (no DOM).

import type { Timeline } from "./timeline";
import type { ReplayFile } from "./replayfile";
import type { Frame } from "./wire";

export const REPLAY_SPEEDS = [0.25, 0.5, 1, 2, 4, 8];
/** More snapshots than this crossed in one frame (a fast speed on a slow machine): jump instead of playing each. */
const CATCH_UP_MAX = 32;

export class ReplayPlayer {
  private playingNow = false;
  private speedNow = 1;
  /** The sim time at local time `anchorAt` (s); the clock runs from there while playing. */
  private anchorTime: number;
  private anchorAt = 0;
  /** The newest snapshot in the timeline (-1: none; the timeline must be refilled). */
  private fed = -1;

  constructor(readonly file: ReplayFile) {
    this.anchorTime = this.start;
  }

  get start(): number { return this.file.simTimes[0]; }
  get end(): number { return this.file.simTimes[this.file.simTimes.length - 1]; }
  get playing(): boolean { return this.playingNow; }
  get speed(): number { return this.speedNow; }

  /** The sim time drawn at local time `now` (s); playing stops at the end. */
  time(now: number): number {
    if (!this.playingNow) return this.anchorTime;
    const t = this.anchorTime + (now - this.anchorAt) * this.speedNow;
    if (t < this.end) return t;
    this.playingNow = false;
    this.anchorTime = this.end;
    return this.end;
  }

  /** Plays from where it is (from the start again when at the end). */
  play(now: number): void {
    if (this.playingNow) return;
    if (this.anchorTime >= this.end) this.seek(this.start, now);
    this.anchorAt = now;
    this.playingNow = true;
  }

  pause(now: number): void {
    this.anchorTime = this.time(now);
    this.playingNow = false;
  }

  /** Moves to sim time t (clamped to the file's), playing or not. */
  seek(t: number, now: number): void {
    this.anchorTime = Math.min(this.end, Math.max(this.start, Number.isFinite(t) ? t : this.start));
    this.anchorAt = now;
    this.fed = -1;
  }

  setSpeed(speed: number, now: number): void {
    if (!(speed > 0 && Number.isFinite(speed))) throw new RangeError(`replay speed ${speed}: must be a positive number`);
    this.anchorTime = this.time(now);
    this.anchorAt = now;
    this.speedNow = speed;
  }

  /**
   * Puts the snapshots around sim time t into `timeline` (the one before t
   * and the one at or after it). Playing forward, each snapshot reached is
   * pushed in turn and handed to `played` (its contacts and damage events
   * happen then); after a seek the timeline is refilled and `shown` gets
   * the snapshot now drawn, whose events are not replayed.
   */
  feed(t: number, timeline: Timeline, played: (f: Frame) => void, shown: (f: Frame) => void): void {
    const b = this.file.indexAfter(t);
    if (this.fed >= 0 && b >= this.fed && b - this.fed <= CATCH_UP_MAX) {
      for (let i = this.fed + 1; i <= b; i++) {
        const f = this.file.frame(i);
        timeline.push(f, 0);
        played(f);
      }
      this.fed = b;
      return;
    }
    timeline.clear();
    if (b > 0) timeline.push(this.file.frame(b - 1), 0);
    const f = this.file.frame(b);
    timeline.push(f, 0);
    this.fed = b;
    shown(f);
  }
}

/** m:ss.s of a sim time since the start. */
export function formatReplayTime(s: number): string {
  const m = Math.floor(s / 60), rest = s - 60 * m;
  return `${m}:${rest < 10 ? "0" : ""}${rest.toFixed(1)}`;
}
