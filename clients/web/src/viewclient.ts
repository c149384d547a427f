// SPDX-License-Identifier: MIT
// The page's player view: one PAIR1 WebSocket on /ws/view, the decoder
// (viewcodec.ts) and the playout (viewplay.ts), and the requests that keep
// the view where the camera looks. The view is a disc of `radius` around
// the camera's target; it is moved when the target has moved MOVE_M or
// more, at most every MIN_INTERVAL_S (the server refuses over 20 changes a
// second, and a view moved every frame would keep re-sending enters). The
// boat at the helm rides along as an own vessel, always in the view.
// Every update read is acknowledged at once: the server's differences are
// against what was acknowledged, so the sooner, the smaller.

import { ViewLink, type LinkStatus } from "./link";
import { Meter } from "./meter";
import { ViewDecoder, ViewError, encodeViewRequest, type ViewSettingsData, type ViewUpdateInfo } from "./viewcodec";
import { ViewPlayout } from "./viewplay";
import { statusName, type VesselToken } from "./wire";

const MOVE_M = 50;
const MIN_INTERVAL_S = 0.25;
const RETRY_S = 1;
const STATUS_UNAUTHORIZED = 2;

export interface ViewOwnVessel {
  id: number;
  token: VesselToken;
}

export class ViewClient {
  readonly decoder = new ViewDecoder();
  readonly playout = new ViewPlayout(0.1);
  private readonly link: ViewLink;
  private readonly bytes = new Meter();
  private readonly rate = new Meter();
  private aimX = 0;
  private aimZ = 0;
  private own: ViewOwnVessel[] = [];
  /** The settings last sent (null: none on this connection yet, or they must go again). */
  private sent: { x: number; z: number; ownKey: string } | null = null;
  private lastSentAt = -Infinity;
  private notBefore = 0;
  /** The settings as the server applies them (its echo). */
  applied: ViewSettingsData | null = null;
  /** The last refusal of a request of ours ("" when none on this connection). */
  refusal = "";
  badUpdates = 0;
  lastError = "";

  constructor(
    url: string,
    private readonly radius: number,
    private readonly budgetKbps: number,
    private readonly onUpdate: (u: ViewUpdateInfo, bytes: number, now: number) => void,
    onStatus: (s: LinkStatus) => void,
  ) {
    this.link = new ViewLink(url, (m, n) => this.receive(m, n), (s) => {
      if (s.state === "open") {
        // A new connection is a new view: nothing held, nothing acknowledged.
        this.decoder.reset();
        this.playout.clear();
        this.sent = null;
        this.applied = null;
        this.refusal = "";
        this.notBefore = 0;
        this.lastSentAt = -Infinity;
        this.send(performance.now() / 1000);
      }
      onStatus(s);
    });
  }

  get status(): LinkStatus { return this.link.status; }
  start(): void { this.link.start(); }
  stop(): void { this.link.stop(); }

  /** kbit/s received over the last second (PAIR1 header included). */
  kbps(now: number): number {
    return (this.bytes.sumRate(now) * 8) / 1000;
  }

  updatesPerSec(now: number): number {
    return this.rate.rate(now);
  }

  /** Where the camera looks (m); the view follows it. */
  aim(x: number, z: number, now: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(z)) return;
    this.aimX = x;
    this.aimZ = z;
    if (this.due(now)) this.send(now);
  }

  /** The vessels always in the view (the helm's boat). */
  setOwn(own: ViewOwnVessel[], now: number): void {
    this.own = own;
    if (this.due(now)) this.send(now);
  }

  private ownKey(): string {
    return this.own.map((o) => o.id).join(",");
  }

  private due(now: number): boolean {
    if (this.link.status.state !== "open" || now < this.notBefore || now - this.lastSentAt < MIN_INTERVAL_S) return false;
    const s = this.sent;
    return !s || Math.hypot(this.aimX - s.x, this.aimZ - s.z) >= MOVE_M || s.ownKey !== this.ownKey();
  }

  /** The acks, and the settings when they are due. */
  private send(now: number): void {
    const { ack, ackMask } = this.decoder.ack;
    const settings: ViewSettingsData | undefined = this.due(now)
      ? { centerX: this.aimX, centerZ: this.aimZ, radius: this.radius, budgetKbps: this.budgetKbps, followOwn: false, own: this.own }
      : undefined;
    if (!this.link.send(encodeViewRequest({ ack, ackMask, settings }))) return;
    if (settings) {
      this.sent = { x: this.aimX, z: this.aimZ, ownKey: this.ownKey() };
      this.lastSentAt = now;
    }
  }

  private receive(msg: Uint8Array, bytes: number): void {
    const now = performance.now() / 1000;
    this.bytes.add(now, bytes);
    let u: ViewUpdateInfo;
    try {
      u = this.decoder.read(msg);
    } catch (e) {
      // Not acknowledged: the server's next differences will not rest on it.
      this.badUpdates++;
      this.lastError = `view update of ${msg.length} bytes: ${(e as Error).message}`;
      if (!(e instanceof ViewError)) console.warn(e);
      return;
    }
    if (u.settings) this.applied = u.settings;
    if (u.status !== 0) {
      // Our last request was refused (the acks in it still count): say why,
      // and send the settings again a little later, without own vessels
      // whose tokens no longer hold (a restarted server, a sunk boat).
      this.refusal = `${statusName(u.status)}: ${u.error}`;
      if (u.status === STATUS_UNAUTHORIZED) this.own = [];
      this.sent = null;
      this.notBefore = now + RETRY_S;
      return;
    }
    this.rate.add(now);
    this.playout.push(u.simTime, u.tick, now);
    this.send(now);
    this.onUpdate(u, bytes, now);
  }
}
