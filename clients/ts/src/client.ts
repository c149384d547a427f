// SPDX-License-Identifier: MIT
// The high-level client a game uses: one object per server, on its
// WebSocket endpoints (docs/protocol.md; naval-server --http HOST:PORT):
// /ws/commands for requests (Hello on connect, world info, hulls, spawn,
// control, despawn, pumps), /ws/snapshots for every vessel every tick, and
// /ws/view for a player view. Requests resolve with the decoded body or
// reject with the server's status and reason; snapshots and view updates
// arrive decoded. Every socket redials by itself (link.ts); close() stops
// them all, which a Node program needs to exit.

import {
  CommandLink, SnapshotLink, ViewLink, type LinkOptions, type LinkStatus,
} from "./link.js";
import {
  PROTO_VERSION, decodeSnapshot, type Frame, type HullData, type RequestSpec, type ResponseBodyData,
  type ResponseData, type StatsData, type VesselToken, type WorldInfoData,
} from "./wire.js";
import { ViewDecoder, encodeViewRequest, type ViewSettingsData, type ViewUpdateInfo } from "./viewcodec.js";

export interface ConnectOptions extends LinkOptions {
  /** The name the server logs for this client (Hello). */
  clientName?: string;
  /** How long connecting, and then each request, may take (ms; default 5000). */
  timeoutMs?: number;
}

/** A vessel this client spawned: its id and the token that proves it is ours. */
export interface OwnVessel {
  id: number;
  token: VesselToken;
  /** Where the server placed it (the nearest free water to the spot asked for). */
  x: number;
  z: number;
}

export interface SpawnSpec {
  /** A vessel type's name (WorldInfoData.types[i].name) or number. */
  type: string | number;
  /** Where, in m (world frame, y up); default 0. */
  x?: number;
  z?: number;
  /** Radians about +y from +x toward -z, in [-2 pi, 2 pi] (the protocol's Spawn.heading); default 0. */
  heading?: number;
}

export interface ViewSpec {
  /** The disc the view covers (m); the server caps the radius (limits.max_view_radius). */
  centerX: number;
  centerZ: number;
  radius: number;
  /** kbit/s; 0 or absent: the server's default. */
  budgetKbps?: number;
  /** Vessels always in the view, proved by their tokens. */
  own?: OwnVessel[];
  /** The view is the discs of `radius` around the own vessels instead of the centre. */
  followOwn?: boolean;
}

const DEFAULT_TIMEOUT_MS = 5000;

/**
 * The WebSocket base of a server from "HOST:PORT", "http://HOST:PORT",
 * "https://..." or "ws://...": its --http address.
 */
export function serverBase(server: string): string {
  const s = server.trim().replace(/\/+$/, "");
  const m = /^(wss?|https?):\/\/(.+)$/i.exec(s);
  if (m) return `${/^(wss|https)$/i.test(m[1]) ? "wss" : "ws"}://${m[2]}`;
  if (!/^[^/\s]+:\d+$/.test(s)) throw new Error(`server: expected HOST:PORT or ws://HOST:PORT (naval-server's --http), got ${JSON.stringify(server)}`);
  return `ws://${s}`;
}

function viewSettings(v: ViewSpec): ViewSettingsData {
  if (![v.centerX, v.centerZ, v.radius].every(Number.isFinite) || !(v.radius > 0))
    throw new Error(`view: the centre must be finite and the radius > 0 m (got ${v.centerX}, ${v.centerZ}, ${v.radius})`);
  return {
    centerX: v.centerX, centerZ: v.centerZ, radius: v.radius, budgetKbps: v.budgetKbps ?? 0, followOwn: v.followOwn ?? false,
    own: (v.own ?? []).map((o) => ({ id: o.id, token: o.token })),
  };
}

/** A subscription to /ws/snapshots: every vessel, every tick, decoded. */
export class SnapshotStream {
  /** The newest snapshot decoded (null before the first). */
  latest: Frame | null = null;
  /** Messages that failed to decode, and the last reason. */
  errors = 0;
  lastError = "";
  private readonly link: SnapshotLink;
  private readonly waiters = new Set<(f: Frame) => void>();

  constructor(url: string, private readonly onFrame: ((f: Frame) => void) | null, options: LinkOptions) {
    this.link = new SnapshotLink(url, (d) => this.receive(d), () => {}, options);
    this.link.start();
  }

  get status(): LinkStatus { return this.link.status; }

  /** The next snapshot that `accept` takes (any by default); rejects after timeoutMs. */
  next(accept: (f: Frame) => boolean = () => true, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const waiter = (f: Frame) => {
        if (!accept(f)) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(f);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const why = this.status.state === "open" ? "" : ` (${this.status.state}: ${this.status.reason || "not connected"})`;
        reject(new Error(`snapshots: none accepted within ${timeoutMs} ms${why}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  close(): void {
    this.link.stop();
  }

  private receive(data: ArrayBuffer): void {
    let f: Frame;
    try {
      f = decodeSnapshot(data);
    } catch (e) {
      this.errors++;
      this.lastError = (e as Error).message;
      return;
    }
    this.latest = f;
    this.onFrame?.(f);
    for (const w of [...this.waiters]) w(f);
  }
}

/**
 * A player view on /ws/view: the decoder holds the vessels in it
 * (`held`, with their newest samples) and every update is acknowledged at
 * once. Each connection is a new view: on a redial the settings go again.
 */
export class PlayerView {
  readonly decoder = new ViewDecoder();
  /** The last refusal of our settings ("" when none): the server's status and reason. */
  refusal = "";
  errors = 0;
  lastError = "";
  private readonly link: ViewLink;
  private settings: ViewSettingsData;
  private sendSettings = true;

  constructor(url: string, spec: ViewSpec, private readonly onUpdate: ((u: ViewUpdateInfo, view: PlayerView) => void) | null, options: LinkOptions) {
    this.settings = viewSettings(spec);
    this.link = new ViewLink(url, (m) => this.receive(m), (s) => {
      if (s.state !== "open") return;
      this.decoder.reset();
      this.sendSettings = true;
      this.send();
    }, options);
    this.link.start();
  }

  get status(): LinkStatus { return this.link.status; }
  /** The vessels in the view, by id. */
  get held() { return this.decoder.held; }

  /** Moves or resizes the view (the server refuses over 20 changes a second). */
  change(spec: ViewSpec): void {
    this.settings = viewSettings(spec);
    this.sendSettings = true;
    this.send();
  }

  close(): void {
    this.link.stop();
  }

  private send(): void {
    const { ack, ackMask } = this.decoder.ack;
    if (this.link.send(encodeViewRequest({ ack, ackMask, settings: this.sendSettings ? this.settings : undefined }))) this.sendSettings = false;
  }

  private receive(msg: Uint8Array): void {
    let u: ViewUpdateInfo;
    try {
      u = this.decoder.read(msg);
    } catch (e) {
      // Not acknowledged: the server's next differences will not rest on it.
      this.errors++;
      this.lastError = (e as Error).message;
      return;
    }
    if (u.status !== 0) this.refusal = u.error || `status ${u.status}`;
    else this.send();
    this.onUpdate?.(u, this);
  }
}

/** One server: requests on /ws/commands, and the streams opened from it. */
export class NavalClient {
  /** The Hello reply: the server's name, tick rate and per-client vessel limit. */
  server = { name: "", protocolVersion: 0, tickHz: 0, maxVesselsPerClient: 0 };
  private readonly streams = new Set<{ close(): void }>();

  private constructor(
    /** The server's WebSocket base, ws://HOST:PORT. */
    readonly base: string,
    private readonly commands: CommandLink,
    private readonly options: ConnectOptions,
  ) {}

  /**
   * Opens /ws/commands on `server` (HOST:PORT, naval-server's --http) and
   * says Hello; rejects when the server cannot be reached within the
   * timeout or speaks another protocol version.
   */
  static async connect(server: string, options: ConnectOptions = {}): Promise<NavalClient> {
    const base = serverBase(server);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let opened: () => void = () => {};
    let failed: (e: Error) => void = () => {};
    const open = new Promise<void>((resolve, reject) => { opened = resolve; failed = reject; });
    const link = new CommandLink(`${base}/ws/commands`, (s) => {
      if (s.state === "open") opened();
      else if (s.state === "stopped" && s.reason) failed(new Error(s.reason));
    }, options);
    const timer = setTimeout(() => failed(new Error(`no connection within ${timeoutMs} ms (${link.status.reason || link.status.state})`)), timeoutMs);
    link.start();
    try {
      await open;
    } catch (e) {
      link.stop();
      throw new Error(`cannot connect to ${base}/ws/commands: ${(e as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    const client = new NavalClient(base, link, options);
    try {
      const hello = await client.call({ kind: "hello", clientName: options.clientName ?? "naval-client-ts" });
      if (hello.kind !== "hello") throw new Error(`hello: the server answered with a ${hello.kind} reply`);
      if (hello.protocolVersion !== PROTO_VERSION)
        throw new Error(`the server speaks protocol ${hello.protocolVersion}, this client ${PROTO_VERSION}`);
      client.server = { name: hello.serverName, protocolVersion: hello.protocolVersion, tickHz: hello.tickHz, maxVesselsPerClient: hello.maxVesselsPerClient };
    } catch (e) {
      client.close();
      throw e;
    }
    return client;
  }

  /** Any request; resolves with the response whatever its status. */
  request(spec: RequestSpec): Promise<ResponseData> {
    return this.commands.request(spec, this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  }

  /** Any request; a refusal rejects with the server's status and reason. */
  call(spec: RequestSpec): Promise<ResponseBodyData> {
    return this.commands.call(spec, this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  }

  /** The world: tick rate, gravity, the ocean's spec, the vessel types, the terrain. */
  async worldInfo(): Promise<WorldInfoData> {
    const b = await this.call({ kind: "worldInfo" });
    if (b.kind !== "worldInfo") throw new Error(`worldInfo: the server answered with a ${b.kind} reply`);
    return b.info;
  }

  /** A vessel type's hull mesh (body frame about its CG). */
  async hull(type: number): Promise<HullData> {
    const b = await this.call({ kind: "hull", type });
    if (b.kind !== "hull") throw new Error(`hull: the server answered with a ${b.kind} reply`);
    return b.hull;
  }

  async stats(): Promise<StatsData> {
    const b = await this.call({ kind: "stats" });
    if (b.kind !== "stats") throw new Error(`stats: the server answered with a ${b.kind} reply`);
    return b.stats;
  }

  /** Spawns a vessel afloat; keep the result: its token steers and removes it. */
  async spawn(spec: SpawnSpec): Promise<OwnVessel> {
    const byName = typeof spec.type === "string";
    const b = await this.call({
      kind: "spawn", typeName: byName ? (spec.type as string) : "", type: byName ? 0 : (spec.type as number),
      x: spec.x ?? 0, z: spec.z ?? 0, heading: spec.heading ?? 0,
    });
    if (b.kind !== "spawn") throw new Error(`spawn: the server answered with a ${b.kind} reply`);
    return { id: b.id, token: b.token, x: b.x, z: b.z };
  }

  /** Throttle and rudder, each in [-1, 1] (outside it: a RangeError, as the server would refuse it); the vessel's actuators follow at their rates. */
  async control(vessel: Pick<OwnVessel, "id" | "token">, throttle: number, rudder: number): Promise<void> {
    await this.call({ kind: "control", id: vessel.id, token: vessel.token, throttle, rudder });
  }

  async despawn(vessel: Pick<OwnVessel, "id" | "token">): Promise<void> {
    await this.call({ kind: "despawn", id: vessel.id, token: vessel.token });
  }

  /** Switches the vessel's pumps on or off. */
  async pumps(vessel: Pick<OwnVessel, "id" | "token">, on: boolean): Promise<void> {
    await this.call({ kind: "pumps", id: vessel.id, token: vessel.token, on });
  }

  /** Subscribes to every vessel every tick; `onFrame` (optional) gets each snapshot decoded. */
  snapshots(onFrame?: (f: Frame) => void): SnapshotStream {
    const s = new SnapshotStream(`${this.base}/ws/snapshots`, onFrame ?? null, this.options);
    this.streams.add(s);
    return s;
  }

  /** Opens a player view; `onUpdate` (optional) runs after each update is applied. */
  openView(spec: ViewSpec, onUpdate?: (u: ViewUpdateInfo, view: PlayerView) => void): PlayerView {
    const v = new PlayerView(`${this.base}/ws/view`, spec, onUpdate ?? null, this.options);
    this.streams.add(v);
    return v;
  }

  /** Closes the commands socket and every stream opened from this client. */
  close(): void {
    for (const s of this.streams) s.close();
    this.streams.clear();
    this.commands.stop();
  }
}
