// SPDX-License-Identifier: MIT
// "Take the helm": spawn a boat of one's own through /ws/commands and steer
// it from the keyboard. The server answers a spawn with the vessel's id
// and a control token; every Control carries the token. Key presses only
// change the wanted throttle and rudder: one Control is in flight at a time
// and the newest wish goes next, so a slow link never builds a queue of
// stale commands (and the per-client request rate limit is never hit).

import type { CommandLink } from "./link";
import type { VesselToken } from "./wire";

export type HelmPhase = "idle" | "spawning" | "steering" | "leaving";

export interface HelmState {
  phase: HelmPhase;
  id: number;
  typeName: string;
  throttle: number; // wanted, [-1, 1]
  rudder: number;
  /** Controls the server accepted. */
  acknowledged: number;
  /** Round trip of the last Control, ms. */
  lastRttMs: number;
  message: string;
}

const STEP = 0.25;

export class Helm {
  readonly state: HelmState = { phase: "idle", id: 0, typeName: "", throttle: 0, rudder: 0, acknowledged: 0, lastRttMs: NaN, message: "" };
  private token: VesselToken | null = null;
  private inFlight = false;
  private dirty = false;

  constructor(private readonly commands: CommandLink, private readonly onChange: () => void) {}

  /** The steered boat and its token (a player view keeps its own vessels in view), null when none. */
  get own(): { id: number; token: VesselToken } | null {
    return this.state.phase === "steering" && this.token ? { id: this.state.id, token: this.token } : null;
  }

  async take(typeName: string, x: number, z: number, heading: number): Promise<void> {
    if (this.state.phase !== "idle") return;
    this.set({ phase: "spawning", message: `spawning a ${typeName}...` });
    try {
      const body = await this.commands.call({ kind: "spawn", typeName, type: 0, x, z, heading });
      if (body.kind !== "spawn") throw new Error(`spawn: unexpected answer ${body.kind}`);
      this.token = body.token;
      this.set({ phase: "steering", id: body.id, typeName, throttle: 0, rudder: 0, acknowledged: 0, message: "" });
    } catch (e) {
      this.set({ phase: "idle", id: 0, message: (e as Error).message });
    }
  }

  async leave(): Promise<void> {
    if (this.state.phase !== "steering" || !this.token) return;
    const id = this.state.id, token = this.token;
    this.set({ phase: "leaving", message: "" });
    try {
      await this.commands.call({ kind: "despawn", id, token });
      this.set({ message: `boat ${id} despawned` });
    } catch (e) {
      this.set({ message: `despawn of boat ${id}: ${(e as Error).message}` });
    }
    this.reset();
  }

  /** The boat's pumps on or off (docs/protocol.md, "Damage"); the damage panel shows the result. */
  async pumps(on: boolean): Promise<void> {
    if (this.state.phase !== "steering" || !this.token) return;
    try {
      await this.commands.call({ kind: "pumps", id: this.state.id, token: this.token, on });
      this.set({ message: `pumps ${on ? "on" : "off"}` });
    } catch (e) {
      this.set({ message: `pumps: ${(e as Error).message}` });
    }
  }

  /** The boat is gone from the world (server restarted, or despawned elsewhere). */
  lost(why: string): void {
    if (this.state.phase !== "steering") return;
    this.set({ message: `boat ${this.state.id} is gone: ${why}` });
    this.reset();
  }

  /** Best effort on page exit: the server would drop it after its orphan timeout anyway. */
  abandon(): void {
    if (this.state.phase === "steering" && this.token) void this.commands.request({ kind: "despawn", id: this.state.id, token: this.token }, 500).catch(() => undefined);
  }

  /** Commands links come back after an outage: send the wish again. */
  resend(): void {
    if (this.state.phase === "steering") this.send();
  }

  private reset(): void {
    this.token = null;
    this.dirty = false;
    this.set({ phase: "idle", id: 0, throttle: 0, rudder: 0 });
  }

  /** true when the key was a helm key (and the page should not use it). */
  key(code: string): boolean {
    if (this.state.phase !== "steering") return false;
    let { throttle, rudder } = this.state;
    switch (code) {
      case "KeyW": case "ArrowUp": throttle += STEP; break;
      case "KeyS": case "ArrowDown": throttle -= STEP; break;
      case "KeyA": case "ArrowLeft": rudder -= STEP; break; // port
      case "KeyD": case "ArrowRight": rudder += STEP; break; // starboard
      case "Space": rudder = 0; break;
      case "KeyX": throttle = 0; break;
      default: return false;
    }
    throttle = Math.round(Math.max(-1, Math.min(1, throttle)) / STEP) * STEP;
    rudder = Math.round(Math.max(-1, Math.min(1, rudder)) / STEP) * STEP;
    this.set({ throttle, rudder });
    this.send();
    return true;
  }

  private send(): void {
    if (!this.token) return;
    if (this.inFlight) {
      this.dirty = true;
      return;
    }
    this.inFlight = true;
    const { id, throttle, rudder } = this.state;
    const t0 = performance.now();
    this.commands
      .call({ kind: "control", id, token: this.token, throttle, rudder })
      .then(() => this.set({ acknowledged: this.state.acknowledged + 1, lastRttMs: performance.now() - t0, message: "" }))
      .catch((e: Error) => this.set({ message: e.message }))
      .finally(() => {
        this.inFlight = false;
        if (this.dirty) {
          this.dirty = false;
          this.send();
        }
      });
  }

  private set(p: Partial<HelmState>): void {
    Object.assign(this.state, p);
    this.onChange();
  }
}
