// SPDX-License-Identifier: MIT
// The page's replay mode (?replay=URL, or ?replay= alone to pick a file):
// a file from naval-replay --export-web plays instead of a server, and no
// connection is opened. The file comes from the URL (fetched), the Open
// button or a drop on the page; the bar at the bottom plays and pauses
// it, scrubs to any time, sets the speed (0.25x to 8x) and shows the
// time. main.ts draws what this feeds into its Timeline, as it would draw
// a live stream.

import { REPLAY_SPEEDS, ReplayPlayer, formatReplayTime } from "./replay";
import { parseReplay, type ReplayFile } from "./replayfile";
import type { Pose, Timeline } from "./timeline";
import type { Frame, HullData, WorldInfoData } from "./wire";

/** What the page does with a replay: build its world, count and show its snapshots. */
export interface ReplayHost {
  world(info: WorldInfoData, hulls: Map<number, HullData>): void;
  /** A snapshot reached while playing (`events`: its contacts and damage happen now) or shown after a seek. */
  frame(f: Frame, now: number, events: boolean): void;
  /** The fleet as drawn (for the test handle). */
  readonly pose: Pose;
}

/** What a test (or the console) reads and does: window.navalReplay. */
export interface ReplayDebug {
  state(): {
    loaded: boolean; name: string; error: string; playing: boolean; speed: number; time: number; start: number; end: number;
    snapshots: number; complete: boolean; stride: number; tickHz: number;
  };
  /** The fleet as drawn now: its tick, sim time, ids and positions (3 per boat). */
  drawn(): { tick: number; simTime: number; ids: number[]; pos: number[] };
}

declare global {
  interface Window {
    navalReplay: ReplayDebug;
  }
}

export function replayRequested(params: URLSearchParams): boolean {
  return params.has("replay");
}

function el<T extends HTMLElement>(tag: string, attrs: Record<string, string>, text = ""): T {
  const e = document.createElement(tag) as T;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

export class ReplayMode {
  private player: ReplayPlayer | null = null;
  private file: ReplayFile | null = null;
  private name = "";
  private error = "";
  private loading = "";
  private scrubbing = false;
  private lastText = "";
  private readonly bar: HTMLElement;
  private readonly playButton: HTMLButtonElement;
  private readonly seekBar: HTMLInputElement;
  private readonly speedSelect: HTMLSelectElement;
  private readonly timeText: HTMLElement;

  constructor(params: URLSearchParams, private readonly host: ReplayHost) {
    document.body.classList.add("replay");
    document.title = "naval: replay";
    this.bar = el("div", { id: "replay", role: "group", "aria-label": "replay" });
    const open = el<HTMLLabelElement>("label", { id: "replay-open", title: "Open a file from naval-replay --export-web (or drop it on the page)" }, "Open…");
    const input = el<HTMLInputElement>("input", { id: "replay-file", type: "file", accept: ".nvreplay,application/octet-stream" });
    open.append(input);
    this.playButton = el("button", { id: "replay-play", type: "button", disabled: "" }, "Play");
    this.seekBar = el("input", { id: "replay-seek", type: "range", min: "0", max: "0", step: "any", value: "0", disabled: "", "aria-label": "replay time" });
    this.speedSelect = el("select", { id: "replay-speed", "aria-label": "replay speed" });
    for (const s of REPLAY_SPEEDS) this.speedSelect.append(el("option", { value: String(s), ...(s === 1 ? { selected: "" } : {}) }, `${s}×`));
    this.timeText = el("span", { id: "replay-time", role: "status" }, "no file");
    this.bar.append(open, this.playButton, this.seekBar, this.speedSelect, this.timeText);
    document.body.append(this.bar);

    this.playButton.addEventListener("click", () => this.toggle());
    this.seekBar.addEventListener("pointerdown", () => (this.scrubbing = true));
    this.seekBar.addEventListener("pointerup", () => (this.scrubbing = false));
    this.seekBar.addEventListener("input", () => this.player?.seek(this.player.start + Number(this.seekBar.value), performance.now() / 1000));
    this.speedSelect.addEventListener("change", () => this.player?.setSpeed(Number(this.speedSelect.value), performance.now() / 1000));
    input.addEventListener("change", () => {
      const f = input.files?.[0];
      if (f) void this.loadBlob(f);
    });
    window.addEventListener("dragover", (e) => e.preventDefault());
    window.addEventListener("drop", (e) => {
      e.preventDefault();
      const f = e.dataTransfer?.files[0];
      if (f) void this.loadBlob(f);
    });
    window.navalReplay = {
      state: () => {
        const p = this.player, f = this.file;
        return {
          loaded: !!p, name: this.name, error: this.error, playing: p?.playing ?? false, speed: p?.speed ?? 1,
          time: p ? p.time(performance.now() / 1000) : NaN, start: p?.start ?? NaN, end: p?.end ?? NaN,
          snapshots: f?.ticks.length ?? 0, complete: f?.complete ?? false, stride: f?.stride ?? 0, tickHz: f?.world.tickHz ?? 0,
        };
      },
      drawn: () => {
        const p = this.host.pose;
        return { tick: p.tick, simTime: p.simTime, ids: Array.from(p.ids.subarray(0, p.count)), pos: Array.from(p.pos.subarray(0, 3 * p.count)) };
      },
    };
    const url = params.get("replay");
    if (url) void this.loadUrl(url);
  }

  private async loadUrl(url: string): Promise<void> {
    this.loading = `Loading the replay ${url}...`;
    try {
      const r = await fetch(url);
      if (!r.ok) throw new Error(`HTTP ${r.status} ${r.statusText}`);
      this.load(await r.arrayBuffer(), url);
    } catch (e) {
      this.fail(`Cannot load the replay ${url}: ${(e as Error).message}`);
    }
  }

  private async loadBlob(f: File): Promise<void> {
    this.loading = `Reading ${f.name}...`;
    try {
      this.load(await f.arrayBuffer(), f.name);
    } catch (e) {
      this.fail(`Cannot read ${f.name}: ${(e as Error).message}`);
    }
  }

  private fail(msg: string): void {
    this.loading = "";
    this.error = msg;
    console.warn(msg);
  }

  /** A new file replaces the one playing; it starts paused at its beginning. */
  private load(data: ArrayBuffer, name: string): void {
    const file = parseReplay(data); // throws what is wrong with it
    this.file = file;
    this.name = name;
    this.error = this.loading = "";
    this.player = new ReplayPlayer(file);
    this.player.setSpeed(Number(this.speedSelect.value), performance.now() / 1000);
    this.host.world(file.world, file.hulls);
    this.seekBar.max = String(this.player.end - this.player.start);
    this.seekBar.disabled = this.playButton.disabled = false;
    if (!file.complete) console.warn(`${name}: the file was cut short; its ${file.ticks.length} snapshots play`);
  }

  private toggle(): void {
    const p = this.player, now = performance.now() / 1000;
    if (!p) return;
    if (p.playing) p.pause(now);
    else p.play(now);
  }

  /** The sim time to draw at `now`, its snapshots fed into `timeline`; NaN without a file. */
  drawTime(now: number, timeline: Timeline): number {
    const p = this.player;
    if (!p) return NaN;
    const t = p.time(now);
    p.feed(t, timeline, (f) => this.host.frame(f, now, true), (f) => this.host.frame(f, now, false));
    this.showControls(p, t);
    return t;
  }

  private showControls(p: ReplayPlayer, t: number): void {
    if (!this.scrubbing) this.seekBar.value = String(t - p.start);
    const label = p.playing ? "Pause" : "Play";
    if (this.playButton.textContent !== label) this.playButton.textContent = label;
    // The tick drawn: that of the snapshot at or after t (the timeline's later one).
    const tick = p.file.ticks[p.file.indexAfter(t)];
    const text = `${formatReplayTime(t - p.start)} / ${formatReplayTime(p.end - p.start)} · tick ${tick}`;
    if (text !== this.lastText) this.timeText.textContent = this.lastText = text;
  }

  /** The page's banner line in replay mode ("" while a file plays). */
  banner(): string {
    if (this.error) return this.error;
    if (this.loading) return this.loading;
    if (!this.player) return "Replay: open a file from naval-replay --export-web (Open…, or drop it here).";
    return "";
  }
}
