// SPDX-License-Identifier: MIT
// The visualizer's entry: links to the server, the world (ocean, hulls),
// the snapshot timeline, the view, the HUD and the helm, tied together in
// one animation loop. Served by naval-server at / (see docs/clients.md).
//
// URL parameters: ?server=HOST:PORT (default: the page's own host),
// ?ocean=N (waves drawn per axis per cascade, a power of two; default 128),
// ?quality=low (no antialiasing, coarser sea: software rendering, old machines),
// ?stream=full (every vessel every tick from /ws/snapshots instead of a
// player view on /ws/view), ?radius=M (the view's radius, default 1500 m;
// the server caps it), ?budget=KBPS (the view's budget; default the server's),
// ?follow=ID (the boat to follow from the start), ?camera=follow (open
// close behind the nearest boat instead of over the fleet). A value the page cannot
// use is named on the page (params.ts).

import { attitude, compartments, describeEvent, DAMAGE_PUMPING, DAMAGE_SUNK_FLAG, type DamageEventData, type VesselDamageData } from "./damage";
import type { CardData } from "./card";
import { NO_BOAT } from "./fleet";
import { FollowTracker } from "./follow";
import { ContactLog, contactText, headingDeg } from "./hudfmt";
import { Legend } from "./legend";
import { Minimap, type MinimapDrawn } from "./minimap";
import { Nameplates, type PlateShown, type PlateType } from "./nameplates";
import { Panels } from "./panels";
import { followParam, paramWarnings } from "./params";
import { CommandLink, LinkStatus, SnapshotLink } from "./link";
import { Helm } from "./helm";
import { Hud, NavalStats, type FollowedDamage } from "./hud";
import { Meter } from "./meter";
import { Ocean } from "./ocean";
import { Timeline, emptyPose } from "./timeline";
import { View, PixelSample, type LookDebug } from "./view";
import { ViewClient } from "./viewclient";
import { ReplayMode, replayRequested } from "./replaycontrols";
import { EV_GONE, type HeldVessel, type ViewUpdateInfo } from "./viewcodec";
import { FLAG_GROUNDED, HullData, PROTO_VERSION, WorldInfoData, decodeSnapshot, modelOf, type ContactData, type Frame } from "./wire";

declare global {
  interface Window {
    navalStats: NavalStats;
    navalDebug: {
      samplePixels: () => PixelSample;
      screenOf: (id: number) => { x: number; y: number } | null;
      colourOf: (id: number) => string;
      groundNodes: () => number;
      structures: () => number;
      /** Spray: droplets thrown since the page opened, by how many contacts, and drawn now. */
      spray: () => { thrown: number; throws: number; drawn: number };
      /** The nameplates drawn last frame (boat, text, water aboard in [0, 1] or NaN, screen place). */
      nameplates: () => PlateShown[];
      /** What the minimap drew last (while its box is open). */
      minimap: () => MinimapDrawn;
      /** Points the camera at (x, z), keeping its offset (a player view follows). */
      lookAt: (x: number, z: number) => void;
      /** Admin: holes vessel id (body frame point, m; area m^2) with the server's admin token; the compartment holed. */
      damage: (id: number, point: [number, number, number], area: number, adminToken: string) => Promise<number>;
      /** The view's look: frames read back, layers, camera, boats as drawn (view.ts). */
      look: LookDebug;
    };
  }
}

const SPECTRA = ["Phillips", "Pierson-Moskowitz", "JONSWAP", "TMA"];
const VIEW_RADIUS_M = 1500;
/** How long a damage event's message stays, and how many at most. */
const DAMAGE_MESSAGE_S = 6;
const DAMAGE_MESSAGES = 6;
/** How often the world's vessel count is asked for in view mode (a view does not carry it). */
const WORLD_STATS_S = 2;

/** A positive number from the URL, else the default. */
function param(params: URLSearchParams, name: string, fallback: number): number {
  const v = Number(params.get(name) ?? NaN);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/** The helm's boat: where it is, how it lies, how fast it goes (m/s). */
interface HelmBoat {
  pos: readonly number[];
  quat: readonly number[];
  speed: number;
}

class App {
  private readonly params = new URLSearchParams(location.search);
  private readonly timeline = new Timeline(0.1);
  private readonly pose = emptyPose();
  private readonly view: View;
  private readonly hud: Hud;
  private readonly helm: Helm;
  /** Exactly one of the two streams: full snapshots (?stream=full) or a player view. */
  private readonly snapshots: SnapshotLink | null = null;
  private readonly viewc: ViewClient | null = null;
  /** ?replay: a file plays instead of a server, and no link is opened (replaycontrols.ts). */
  private readonly replay: ReplayMode | null = null;
  private readonly commands: CommandLink;
  private readonly rate = new Meter();
  private readonly bytes = new Meter();
  private readonly latency = new Meter();
  private readonly tickMs = new Meter();
  private readonly fps = new Meter();
  private readonly starved = new Meter(2);
  private world: WorldInfoData | null = null;
  private worldKey = "";
  private oceanRes: number;
  private ocean: Ocean | null = null;
  private loading = false;
  private selected = NO_BOAT;
  /** Which boat is followed, and what the page says about it (follow.ts). */
  private readonly follow = new FollowTracker();
  private readonly contacts = new ContactLog();
  private readonly legend = new Legend();
  private readonly panels = new Panels();
  private helmMissingSince = NaN;
  private lastHud = 0;
  private lastList = 0;
  private lastSnapshotAt = NaN;
  private lastWorldStats = -Infinity;
  private damageMessages: { text: string; at: number }[] = [];
  readonly stats: NavalStats;

  constructor() {
    const host = this.params.get("server") || location.host;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const res = Number(this.params.get("ocean") ?? 128);
    this.oceanRes = Number.isInteger(res) && res >= 4 && res <= 2048 && (res & (res - 1)) === 0 ? res : 128;
    this.stats = {
      connected: false, commandsConnected: false, banner: `connecting to ${host}...`, serverName: "", tickHz: 0, tick: 0, drawnTick: 0,
      snapshotBoats: 0, boatsRendered: 0, worldBoats: 0, snapshotsPerSec: 0, bytesPerSec: 0, latencyMs: NaN, latencyMaxMs: NaN,
      tickMs: NaN, tickMsMax: NaN, overruns: 0, models: [0, 0, 0], lodMs: 0, grounded: 0, contactsVessels: 0, contactsGround: 0, fps: 0, starvedPct: 0, frames: 0, snapshots: 0, badSnapshots: 0, reconnects: 0,
      ocean: "", oceanTime: NaN, followed: NO_BOAT, lastError: "",
      stream: this.params.get("stream") === "full" ? "full" : "view", viewKbps: 0, viewUpdatesPerSec: 0, viewRadius: NaN, viewCentre: [NaN, NaN], viewRefusal: "", badUpdates: 0,
      helm: { phase: "idle", id: 0, typeName: "", throttle: 0, rudder: 0, acknowledged: 0, lastRttMs: NaN, message: "", x: NaN, z: NaN, speed: NaN, heading: NaN },
      heel: NaN, trim: NaN, capsized: false, damage: null, damageMessages: [], damageEvents: 0,
      card: null, followMessage: "", notices: paramWarnings(this.params, VIEW_RADIUS_M),
    };
    for (const w of this.stats.notices) console.warn(w);
    window.navalStats = this.stats;
    this.view = new View(document.getElementById("view") as HTMLCanvasElement, this.params.get("quality") === "low");
    this.hud = new Hud({
      pick: (id) => this.pick(id),
      free: () => this.pick(NO_BOAT),
      take: (type) => this.takeHelm(type),
      leave: () => void this.helm.leave(),
      pumps: (on) => void this.helm.pumps(on),
      dismiss: () => {
        this.stats.notices = [];
        this.showSoon();
      },
    });
    if (replayRequested(this.params)) {
      this.stats.stream = "full"; // snapshots through the timeline, as with ?stream=full
      this.replay = new ReplayMode(this.params, {
        world: (info, hulls) => this.replayWorld(info, hulls),
        frame: (f, now, events) => this.onFrame(f, now, events),
        pose: this.pose,
      });
    } else if (this.stats.stream === "full") {
      this.snapshots = new SnapshotLink(`${scheme}//${host}/ws/snapshots`, (d) => this.onSnapshot(d), (s) => this.onStreamLink(s));
    } else {
      const radius = param(this.params, "radius", VIEW_RADIUS_M), budget = Math.round(param(this.params, "budget", 0));
      this.viewc = new ViewClient(`${scheme}//${host}/ws/view`, radius, budget, (u, n, now) => this.onViewUpdate(u, n, now), (s) => this.onStreamLink(s));
    }
    this.commands = new CommandLink(`${scheme}//${host}/ws/commands`, (s) => this.onCommandLink(s));
    this.helm = new Helm(this.commands, () => this.showSoon());
    window.navalDebug = {
      samplePixels: () => this.view.samplePixels(this.pose, this.selected, this.helmId(), this.damageOf()),
      screenOf: (id) => this.view.screenOf(id),
      colourOf: (id) => this.view.fleet.colourOf(id),
      groundNodes: () => this.view.ground.nodes,
      structures: () => this.view.ground.structures,
      spray: () => ({ thrown: this.view.spray.thrown, throws: this.view.spray.throws, drawn: this.view.spray.count }),
      nameplates: () => this.nameplates.shown,
      minimap: () => this.minimap.drawn,
      lookAt: (x, z) => {
        this.pick(NO_BOAT);
        this.view.lookAt(x, z);
      },
      damage: async (id, point, area, adminToken) => {
        const b = await this.commands.call({ kind: "damage", id, point, area, adminToken });
        if (b.kind !== "damage") throw new Error(`damage: unexpected answer ${b.kind}`);
        return b.compartment;
      },
      look: this.view.lookDebug(() => ({ pose: this.pose, selected: this.selected, helm: this.helmId(), damage: this.damageOf() })),
    };
    this.bindInput();
    if (followParam(this.params) >= 0) this.pick(followParam(this.params));
    this.snapshots?.start();
    this.viewc?.start();
    if (!this.replay) this.commands.start();
    requestAnimationFrame((t) => this.frame(t));
  }

  private helmId(): number {
    return this.helm.state.phase === "steering" ? this.helm.state.id : NO_BOAT;
  }

  private error(msg: string): void {
    this.stats.lastError = msg;
    console.warn(msg);
  }

  private bindInput(): void {
    const canvas = document.getElementById("view") as HTMLCanvasElement;
    let down: { x: number; y: number } | null = null;
    canvas.addEventListener("pointerdown", (e) => (down = { x: e.clientX, y: e.clientY }));
    canvas.addEventListener("pointerup", (e) => {
      // A click, not the end of an orbit drag.
      if (down && Math.hypot(e.clientX - down.x, e.clientY - down.y) < 5) {
        const id = this.view.pick(e.clientX, e.clientY);
        if (id !== NO_BOAT) this.pick(id);
      }
      down = null;
    });
    window.addEventListener("keydown", (e) => {
      const t = e.target as HTMLElement;
      if (t instanceof HTMLInputElement || (t instanceof HTMLSelectElement && e.code.startsWith("Arrow"))) return;
      if (this.helm.key(e.code) || this.panels.key(e.code)) e.preventDefault();
      else if (e.code === "Escape") this.pick(NO_BOAT);
    });
    window.addEventListener("pagehide", () => this.helm.abandon());
  }

  /** Follow boat `id` once it is drawn (NO_BOAT: free the camera); the page says when it is not found. */
  private pick(id: number, waitS?: number): void {
    this.follow.ask(id, performance.now() / 1000, waitS);
    if (id === NO_BOAT) {
      this.selected = NO_BOAT;
      this.view.follow(NO_BOAT);
    } else if (this.view.fleet.where.has(id)) this.applyFollow();
    this.showSoon();
  }

  /** The tracker's decisions applied to the camera and the highlight. */
  private applyFollow(): void {
    const where = this.viewc
      ? { place: "in the view", detail: `${Number.isFinite(this.stats.viewRadius) ? this.stats.viewRadius : "?"} m around the camera; the world has ${this.stats.worldBoats} boats` }
      : { place: "in the snapshots", detail: `${this.stats.snapshotBoats} boats` };
    // Frames arriving now (a server's, or a replay's while it plays): only then can a boat be missing.
    const flowing = performance.now() / 1000 - this.lastSnapshotAt < 0.5;
    const a = this.follow.update(performance.now() / 1000, (id) => this.view.fleet.where.has(id), flowing, where);
    if (a.kind === "follow") {
      this.selected = a.id;
      this.view.follow(a.id, true);
    } else if (a.kind === "release") {
      this.selected = NO_BOAT;
      this.view.follow(NO_BOAT);
    }
    if (a.kind !== "none") this.showSoon();
  }

  private takeHelm(typeName: string): void {
    const t = this.view.controls.target, cam = this.view.camera.position;
    // Spawn at the view's centre, bow away from the camera. Heading is
    // about +y from +x toward -z (docs/protocol.md).
    const heading = Math.atan2(-(t.z - cam.z), t.x - cam.x);
    void this.helm.take(typeName, t.x, t.z, heading).then(() => {
      // The new boat takes a few ticks to reach the stream.
      if (this.helm.state.phase === "steering") this.pick(this.helm.state.id, 5);
    });
  }

  private onStreamLink(s: LinkStatus): void {
    const was = this.stats.connected;
    this.stats.connected = s.state === "open";
    if (was && !this.stats.connected) this.stats.reconnects++;
    this.showSoon();
  }

  private onCommandLink(s: LinkStatus): void {
    this.stats.commandsConnected = s.state === "open";
    if (s.state === "open") {
      void this.loadWorld();
      this.helm.resend();
    }
    this.showSoon();
  }

  /** World info and hulls; rebuilds ocean and boats when the world changed (a new server). */
  private async loadWorld(): Promise<void> {
    if (this.loading) return;
    this.loading = true;
    try {
      const hello = await this.commands.call({ kind: "hello", clientName: "naval-web" });
      if (hello.kind === "hello" && hello.protocolVersion !== PROTO_VERSION)
        throw new Error(`server speaks protocol ${hello.protocolVersion}, this page ${PROTO_VERSION}: reload the page from the server`);
      const body = await this.commands.call({ kind: "worldInfo" });
      if (body.kind !== "worldInfo") throw new Error(`world info: unexpected answer ${body.kind}`);
      const info = body.info;
      const key = JSON.stringify({ n: info.serverName, t: info.types, o: info.ocean && { ...info.ocean, seed: String(info.ocean.seed), time: 0 } });
      if (key !== this.worldKey) {
        const hulls = new Map<number, HullData>();
        for (const t of info.types) {
          const h = await this.commands.call({ kind: "hull", type: t.type }, 10000);
          if (h.kind === "hull") hulls.set(t.type, h.hull);
        }
        this.buildWorld(info, hulls, key);
      }
      this.world = info; // always: a restarted server restarts the ocean's clock too
      this.stats.lastError = ""; // what went wrong before this (re)connection is over
      this.stats.serverName = info.serverName;
      this.stats.tickHz = info.tickHz;
    } catch (e) {
      this.error(`loading the world: ${(e as Error).message}`);
    } finally {
      this.loading = false;
    }
  }

  /** Ocean, boats, ground and the panels' types for a new world (a server's or a replay file's). */
  private buildWorld(info: WorldInfoData, hulls: Map<number, HullData>, key: string): void {
    this.ocean = info.ocean ? new Ocean(info.ocean, this.oceanRes) : null;
    this.view.setOcean(this.ocean);
    this.view.fleet.setTypes(info.types, hulls);
    this.view.ground.set(info.terrain);
    this.view.ground.setStructures(info.structures ?? []);
    this.minimap.setWorld(info.terrain, info.structures ?? []);
    this.plateTypes = new Map(info.types.map((t) => [t.type, { name: t.name, volumes: t.compartmentVolumes }]));
    this.hud.setTypes(info.types.map((t) => t.name));
    this.legend.set(info.types, (type) => this.view.fleet.typeColour(type));
    this.contacts.clear();
    this.worldKey = key;
    this.hud.setAbout(this.describeSea(info));
  }

  /** A replay file's world, as loadWorld takes a server's. */
  private replayWorld(info: WorldInfoData, hulls: Map<number, HullData>): void {
    this.timeline.clear();
    this.buildWorld(info, hulls, "");
    this.world = info;
    this.stats.serverName = info.serverName;
    this.stats.tickHz = info.tickHz;
  }

  private describeSea(info: WorldInfoData): string {
    const o = info.ocean;
    if (!o || !this.ocean) {
      this.stats.ocean = "flat water";
      return "Sea: flat water at y = 0 (the server has no ocean).";
    }
    const oc = this.ocean;
    const drawn = oc.renderNx === oc.serverNx && oc.renderNz === oc.serverNz
      ? `all its ${oc.serverNx}×${oc.serverNz} wave modes`
      : `${oc.renderNx}×${oc.renderNz} of its ${oc.serverNx}×${oc.serverNz} wave modes per cascade (waves shorter than ~${((2 * o.size) / oc.renderNx).toFixed(0)} m left out)`;
    this.stats.ocean = `${SPECTRA[o.spectrum] ?? "?"} ${o.windSpeed} m/s, Hs ${oc.hsGrid.toFixed(2)} m, seed ${o.seed}, ${o.cascades} cascade(s), drawn ${oc.renderNx}²`;
    return `Sea: ${SPECTRA[o.spectrum] ?? "spectrum " + o.spectrum}, wind ${o.windSpeed} m/s toward ${o.windDirection}°, ` +
      `Hs ${oc.hsGrid.toFixed(2)} m, seed ${o.seed}: rebuilt in this page from the server's spectrum, seed and clock ` +
      `(the same waves the boats ride), drawn with ${drawn}.`;
  }

  private onSnapshot(data: ArrayBuffer): void {
    const now = performance.now() / 1000;
    try {
      const f = decodeSnapshot(data);
      this.timeline.push(f, now);
      this.bytes.add(now, data.byteLength);
      this.latency.add(now, Date.now() - f.sendTimeMs);
      this.onFrame(f, now, true);
    } catch (e) {
      this.stats.badSnapshots++;
      this.error(`snapshot of ${data.byteLength} bytes: ${(e as Error).message}`);
    }
  }

  /** A snapshot in the timeline (live, or a replay's: `events` false after a seek, whose contacts and damage are not news). */
  private onFrame(f: Frame, now: number, events: boolean): void {
    if (events) {
      this.onContacts(f.contacts, now);
      this.onDamageEvents(f.damageEvents, now);
    }
    this.stats.snapshots++;
    this.lastSnapshotAt = now;
    this.rate.add(now);
    this.tickMs.add(now, f.stats.stepMs);
    this.stats.tick = f.tick;
    this.stats.snapshotBoats = f.count;
    this.stats.worldBoats = f.stats.vesselCount;
    this.stats.overruns = f.stats.overruns;
    this.stats.lodMs = f.stats.lodMs;
    const models: [number, number, number] = [0, 0, 0];
    let grounded = 0;
    for (let i = 0; i < f.count; i++) {
      models[Math.min(2, modelOf(f.flags[i]))]++;
      if (f.flags[i] & FLAG_GROUNDED) grounded++;
    }
    this.stats.models = models;
    this.stats.grounded = grounded;
  }

  /** A player view's update, read and acknowledged (viewclient.ts). */
  private onViewUpdate(u: ViewUpdateInfo, bytes: number, now: number): void {
    const held = this.viewc!.decoder.held;
    this.onContacts(u.contacts, now);
    this.onDamageEvents(u.damageEvents, now);
    for (const [id, kind] of u.events)
      if (kind === EV_GONE && this.follow.gone(id, "despawned or sunk (the view says so)").kind === "release") this.applyFollow();
    this.stats.snapshots++;
    this.lastSnapshotAt = now;
    this.rate.add(now);
    this.bytes.add(now, bytes);
    this.latency.add(now, Date.now() - u.sendTimeMs);
    this.stats.tick = u.tick;
    this.stats.snapshotBoats = held.size;
    const models: [number, number, number] = [0, 0, 0];
    let grounded = 0;
    for (const v of held.values()) {
      models[Math.min(2, modelOf(v.flags))]++;
      if (v.flags & FLAG_GROUNDED) grounded++;
    }
    this.stats.models = models;
    this.stats.grounded = grounded;
  }

  private typeName(type: number): string {
    return this.world?.types.find((t) => t.type === type)?.name ?? "";
  }

  /** Contacts (either stream): flashes, spray, and each boat's last one for its card. */
  private onContacts(contacts: ContactData[], now: number): void {
    if (!contacts.length) return;
    this.view.flashes.add(contacts, now);
    this.view.spray.add(contacts, now);
    this.contacts.add(contacts, now);
    this.stats.contactsVessels = this.view.flashes.vessels;
    this.stats.contactsGround = this.view.flashes.ground;
  }

  /** Damage events (either stream) as short messages, shown for a few seconds. */
  private onDamageEvents(events: DamageEventData[], now: number): void {
    if (!events.length) return;
    this.stats.damageEvents += events.length;
    for (const e of events) {
      const i = this.pose.ids.subarray(0, this.pose.count).indexOf(e.id);
      this.damageMessages.push({ text: describeEvent(e, i >= 0 ? this.typeName(this.pose.types[i]) : ""), at: now });
    }
    if (this.damageMessages.length > DAMAGE_MESSAGES) this.damageMessages.splice(0, this.damageMessages.length - DAMAGE_MESSAGES);
    this.showSoon();
  }

  private readonly nameplates = new Nameplates(document.getElementById("nameplates") as HTMLElement);
  private readonly minimap = new Minimap(document.getElementById("minimap") as HTMLCanvasElement,
    () => (document.getElementById("map-box") as HTMLDetailsElement).open, (x, z) => {
      this.pick(NO_BOAT);
      this.view.lookAt(x, z);
    });
  private plateTypes = new Map<number, PlateType>();
  private damageFrame: Frame | null = null;
  private damageById = new Map<number, VesselDamageData>();

  /** Each boat's damage entry, as last received (a view's decoder holds them; a full snapshot lists them). */
  private damageOf(): (id: number) => VesselDamageData | undefined {
    if (this.viewc) {
      const held = this.viewc.decoder.damage;
      return (id) => held.get(id);
    }
    const newest = this.timeline.newest;
    if (newest !== this.damageFrame) {
      this.damageFrame = newest;
      this.damageById.clear();
      for (const d of newest?.damage ?? []) this.damageById.set(d.id, d);
    }
    return (id) => this.damageById.get(id);
  }

  /** The followed boat's attitude (as drawn), damage (as last received) and card. */
  private trackFollowed(now: number): void {
    this.damageMessages = this.damageMessages.filter((m) => now - m.at < DAMAGE_MESSAGE_S);
    this.stats.damageMessages = this.damageMessages.map((m) => m.text);
    const id = this.view.following;
    const i = id >= 0 ? this.pose.ids.subarray(0, this.pose.count).indexOf(id) : -1;
    this.stats.heel = this.stats.trim = NaN;
    this.stats.capsized = false;
    this.stats.damage = null;
    this.stats.card = null;
    this.stats.followMessage = this.follow.message;
    if (i < 0) return;
    const quat = this.pose.quat.subarray(4 * i, 4 * i + 4);
    const a = attitude(quat);
    this.stats.heel = a.heel;
    this.stats.trim = a.trim;
    this.stats.capsized = a.capsized;
    const type = this.world?.types.find((t) => t.type === this.pose.types[i]);
    const d: VesselDamageData | undefined = this.viewc
      ? this.viewc.decoder.damage.get(id)
      : this.timeline.newest?.damage.find((x) => x.id === id);
    if (d) {
      const comps = compartments(d, type?.compartmentVolumes ?? []);
      const damage: FollowedDamage = {
        id, typeName: type?.name ?? "", holes: d.holes, pumping: (d.flags & DAMAGE_PUMPING) !== 0, sunk: (d.flags & DAMAGE_SUNK_FLAG) !== 0,
        capsized: a.capsized, compartments: comps, water: comps.reduce((sum, c) => sum + c.water, 0), pumpRate: type?.pumpRate ?? 0,
        own: this.helmId() === id,
      };
      this.stats.damage = damage;
    }
    this.stats.card = this.cardOf(id, quat, type, now);
  }

  /** The card's figures for boat `id`, drawn with orientation `quat`. */
  private cardOf(id: number, quat: ArrayLike<number>, type: WorldInfoData["types"][number] | undefined, now: number): CardData {
    let speed = NaN, tick = 0;
    if (this.viewc) {
      const b = this.helmInView(this.viewc.decoder.held.get(id));
      const s = this.viewc.decoder.held.get(id)?.samples;
      speed = b ? b.speed : NaN;
      tick = s?.length ? s[s.length - 1].tick : 0;
    } else {
      const f = this.timeline.newest;
      const j = f ? f.ids.indexOf(id) : -1;
      if (f && j >= 0) {
        speed = Math.hypot(f.vel[3 * j], f.vel[3 * j + 2]);
        tick = f.tick;
      }
    }
    const h = this.helmId() === id ? this.helm.state : null;
    const c = this.contacts.of(id);
    const d = this.stats.damage;
    return {
      id, typeName: type?.name ?? "", typeColour: type ? this.view.fleet.typeColour(type.type) : "", tick, speed,
      speedFrom: this.viewc ? "positions" : "velocity", heading: headingDeg(quat), heel: this.stats.heel, trim: this.stats.trim,
      capsized: this.stats.capsized, helm: h && { throttle: h.throttle, rudder: h.rudder, acknowledged: h.acknowledged },
      contacts: { count: c?.count ?? 0, last: c ? contactText(c.last, id, now - c.at) : "" },
      flooding: d && { water: d.water, holes: d.holes }, compartments: type?.compartmentVolumes.length ?? 0,
    };
  }

  /** A view does not carry the world's figures: ask for them now and then. */
  private pollWorldStats(now: number): void {
    if (!this.viewc || this.commands.status.state !== "open" || now - this.lastWorldStats < WORLD_STATS_S) return;
    this.lastWorldStats = now;
    this.commands.call({ kind: "stats" }).then((b) => {
      if (b.kind !== "stats") return;
      this.stats.worldBoats = b.stats.vesselCount;
      this.stats.tickMs = b.stats.stepMsP50;
      this.stats.tickMsMax = b.stats.stepMsP99;
      this.stats.overruns = b.stats.overruns;
    }, () => undefined); // the banner already says when commands are down
  }

  private banner(now: number): string {
    if (this.replay) return this.replay.banner();
    const s = (this.snapshots ?? this.viewc)!.status;
    const what = this.snapshots ? "snapshot" : "view update";
    if (s.state === "retrying") {
      const wait = Math.max(0, (s.retryAt - performance.now()) / 1000);
      return `Server gone (${s.url}: ${s.reason}). Reconnecting in ${wait.toFixed(1)} s, attempt ${s.attempts + 1}...`;
    }
    if (s.state === "stopped" && s.reason) return `Cannot connect: ${s.reason}`;
    if (s.state === "connecting") return `Connecting to ${s.url}...`;
    // Refused settings leave the view as it was, unless it had none: then it gets nothing.
    if (this.viewc?.refusal && !this.viewc.applied) return `The view was refused: ${this.viewc.refusal}`;
    if (Number.isFinite(this.lastSnapshotAt) && now - this.lastSnapshotAt > 2)
      return `No ${what} for ${(now - this.lastSnapshotAt).toFixed(0)} s: is the server stalled?`;
    if (!Number.isFinite(this.lastSnapshotAt)) return `Connected; waiting for the first ${what}...`;
    const c = this.commands.status;
    if (c.state !== "open") return `Commands unavailable (${c.url}: ${c.reason || c.state}): viewing only, the helm is off.`;
    return "";
  }

  private showSoon(): void {
    this.lastHud = 0;
  }

  private frame(ms: number): void {
    requestAnimationFrame((t) => this.frame(t));
    const now = performance.now() / 1000;
    const vc = this.viewc;
    const t = this.replay ? this.replay.drawTime(now, this.timeline) : vc ? vc.playout.drawTime(now) : this.timeline.drawTime(now);
    const have = vc ? vc.playout.sample(vc.decoder.held, t, this.pose) : this.timeline.sample(t, this.pose);
    if (have) {
      // The first boats: an overview of the fleet (pick a boat to follow
      // it), or with ?camera=follow the camera close behind the nearest;
      // a boat asked for (?follow=ID) is followed either way.
      if (this.params.get("camera") === "follow") {
        const first = this.view.frameFleet(this.pose);
        if (first !== NO_BOAT && this.follow.pending === NO_BOAT && this.follow.followed === NO_BOAT) this.pick(first);
      } else if (this.follow.followed === NO_BOAT) {
        this.view.overviewFleet(this.pose);
      }
      this.starved.add(now, this.pose.starved ? 1 : 0);
      this.stats.drawnTick = this.pose.tick;
    }
    if (this.ocean && this.world?.ocean) {
      const ot = this.world.ocean.time + ((have ? t : this.world.simTime) - this.world.simTime);
      this.ocean.update(ot);
      this.view.water.refresh();
      this.stats.oceanTime = ot;
    }
    this.trackHelm(now);
    this.applyFollow();
    const damage = this.damageOf();
    this.view.frame(this.pose, this.selected, this.helmId(), damage);
    const canvas = this.view.renderer.domElement;
    this.nameplates.update(this.pose, this.view.camera, canvas.clientWidth, canvas.clientHeight, (id) => this.view.fleet.where.get(id),
      (id) => this.view.fleet.topOf(id), (type) => this.plateTypes.get(type), damage);
    const target = this.view.controls.target, eye = this.view.camera.position;
    this.minimap.draw(now * 1000, this.pose, (type) => this.view.fleet.typeColour(type), this.selected, this.helmId(), target, eye);
    if (vc) {
      // The view follows the camera (and so the followed boat), and keeps the helm's boat.
      const own = this.helm.own;
      vc.setOwn(own ? [own] : [], now);
      vc.aim(this.view.controls.target.x, this.view.controls.target.z, now);
      this.pollWorldStats(now);
    }
    this.fps.add(now);
    this.stats.frames++;
    this.stats.boatsRendered = this.view.fleet.drawn;
    this.stats.followed = this.view.following;
    if (ms - this.lastHud > 250) {
      this.lastHud = ms;
      this.stats.snapshotsPerSec = this.rate.rate(now);
      this.stats.bytesPerSec = this.bytes.sumRate(now);
      if (vc) {
        this.stats.viewKbps = vc.kbps(now);
        this.stats.viewUpdatesPerSec = vc.updatesPerSec(now);
        this.stats.viewRadius = vc.applied ? vc.applied.radius : NaN;
        this.stats.viewCentre = vc.applied ? [vc.applied.centerX, vc.applied.centerZ] : [NaN, NaN];
        this.stats.viewRefusal = vc.refusal;
        if (vc.badUpdates !== this.stats.badUpdates) this.error(vc.lastError);
        this.stats.badUpdates = vc.badUpdates;
      }
      this.stats.latencyMs = this.latency.mean(now);
      this.stats.latencyMaxMs = this.latency.max(now);
      if (!vc) {
        this.stats.tickMs = this.tickMs.mean(now);
        this.stats.tickMsMax = this.tickMs.max(now);
      }
      this.stats.fps = this.fps.rate(now);
      this.stats.starvedPct = 100 * this.starved.mean(now) || 0;
      this.stats.banner = this.banner(now);
      this.trackFollowed(now);
      this.hud.show(this.stats);
    }
    if (ms - this.lastList > 1000 && have) {
      this.lastList = ms;
      const types = this.world?.types ?? [];
      const name = (i: number) => types.find((x) => x.type === this.pose.types[i])?.name ?? `type ${this.pose.types[i]}`;
      this.hud.setBoats(this.pose.ids, this.pose.count, name, this.selected);
    }
  }

  /** The helm's boat as last received; gone for 3 s while snapshots (or updates) flow: lost. */
  private trackHelm(now: number): void {
    const h = this.stats.helm;
    Object.assign(h, this.helm.state);
    if (this.helm.state.phase !== "steering") {
      h.x = h.z = h.speed = h.heading = NaN;
      this.helmMissingSince = NaN;
      return;
    }
    const b = this.viewc ? this.helmInView(this.viewc.decoder.held.get(this.helm.state.id)) : this.helmInSnapshot(this.helm.state.id);
    if (!b) {
      const where = this.viewc ? "view" : "snapshots";
      if (!Number.isFinite(this.helmMissingSince)) this.helmMissingSince = now;
      else if (now - this.helmMissingSince > 3 && now - this.lastSnapshotAt < 1) this.helm.lost(`not in the ${where} for 3 s`);
      return;
    }
    this.helmMissingSince = NaN;
    h.x = b.pos[0];
    h.z = b.pos[2];
    h.speed = b.speed;
    // Heading from the body's +x axis in the world, as the protocol counts it.
    const [x, y, z, w] = b.quat;
    const fx = 1 - 2 * (y * y + z * z), fz = 2 * (x * z - w * y);
    h.heading = Math.atan2(-fz, fx);
  }

  private helmInSnapshot(id: number): HelmBoat | null {
    const f = this.timeline.newest;
    const i = f ? f.ids.indexOf(id) : -1;
    if (!f || i < 0) return null;
    return {
      pos: [f.pos[3 * i], f.pos[3 * i + 1], f.pos[3 * i + 2]],
      quat: [f.quat[4 * i], f.quat[4 * i + 1], f.quat[4 * i + 2], f.quat[4 * i + 3]],
      speed: Math.hypot(f.vel[3 * i], f.vel[3 * i + 2]),
    };
  }

  /** A view carries no velocities: the speed is that between the boat's last two samples. */
  private helmInView(v: HeldVessel | undefined): HelmBoat | null {
    if (!v) return null;
    const s = v.samples, b = s[s.length - 1], a = s.length > 1 ? s[s.length - 2] : null;
    const dt = a ? b.simTime - a.simTime : 0;
    const speed = a && dt > 0 ? Math.hypot(b.pos[0] - a.pos[0], b.pos[2] - a.pos[2]) / dt : NaN;
    return { pos: b.pos, quat: b.quat, speed };
  }
}

new App();
