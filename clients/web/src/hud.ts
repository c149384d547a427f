// SPDX-License-Identifier: MIT
// The page around the canvas: status panel, connection banner, notices,
// boat list, helm panel, damage panel; the followed boat's card is
// card.ts's. Only DOM; the figures come from main.ts (NavalStats).

import { Card, type CardData } from "./card";
import { pageElement as el } from "./dom";
import type { CompartmentView } from "./damage";
import type { HelmState } from "./helm";
import { fmt, latencyText, percentText } from "./hudfmt";

/** The followed boat's damage as the panel shows it (docs/protocol.md, "Damage"). */
export interface FollowedDamage {
  id: number;
  typeName: string;
  holes: number;
  pumping: boolean;
  sunk: boolean;
  capsized: boolean;
  /** Per compartment: fraction of its volume flooded, m^3 of water, its volume (NaN when unknown). */
  compartments: CompartmentView[];
  /** m^3 of water in all, and the type's pump rate per compartment (m^3/s, 0: none). */
  water: number;
  pumpRate: number;
  /** The helm's boat: the panel offers its pumps. */
  own: boolean;
}
/** What the page shows, also published as window.navalStats for tests and the console. */
export interface NavalStats {
  connected: boolean;
  commandsConnected: boolean;
  banner: string;
  serverName: string;
  tickHz: number;
  tick: number;
  drawnTick: number;
  snapshotBoats: number;
  boatsRendered: number;
  worldBoats: number;
  snapshotsPerSec: number;
  bytesPerSec: number;
  latencyMs: number;
  latencyMaxMs: number;
  tickMs: number;
  tickMsMax: number;
  overruns: number;
  /** Vessels on the mesh, columns and floater models in the last snapshot, and the server's time choosing them. */
  models: [number, number, number];
  lodMs: number;
  /** Boats aground in the last snapshot; contacts seen since the page opened. */
  grounded: number;
  contactsVessels: number;
  contactsGround: number;
  fps: number;
  starvedPct: number;
  frames: number;
  snapshots: number;
  badSnapshots: number;
  reconnects: number;
  ocean: string;
  oceanTime: number;
  followed: number;
  helm: HelmState & { x: number; z: number; speed: number; heading: number };
  lastError: string;
  /** "view": a player view on /ws/view (the default); "full": every vessel every tick from /ws/snapshots. */
  stream: "view" | "full";
  /** The view's received kbit/s and updates per second, over the last second. */
  viewKbps: number;
  viewUpdatesPerSec: number;
  /** The view as the server applies it (its echo): radius (m) and centre (x, z). */
  viewRadius: number;
  viewCentre: [number, number];
  /** The server's last refusal of a view request ("" when none). */
  viewRefusal: string;
  /** View updates that failed to decode (refused, not acknowledged). */
  badUpdates: number;
  /** The followed boat's heel (+ starboard down, (-180, 180]: about 180 keel-up) and trim (+ bow up, [-90, 90]), degrees (NaN: none drawn); capsized as the world says. */
  heel: number;
  trim: number;
  capsized: boolean;
  /** The followed boat's damage (null: intact, or none followed). */
  damage: FollowedDamage | null;
  /** Damage events shown now (a few seconds each, newest last), and all received since the page opened. */
  damageMessages: string[];
  damageEvents: number;
  /** The followed boat's card (null: none followed). */
  card: CardData | null;
  /** What the page says about following: a boat asked for and not found, a followed one gone ("" when none). */
  followMessage: string;
  /** Warnings for the user (bad URL parameters...), shown on the page until dismissed. */
  notices: string[];
}

export class Hud {
  private readonly panel = el<HTMLElement>("hud");
  private readonly banner = el<HTMLElement>("banner");
  private readonly boats = el<HTMLSelectElement>("boats");
  private readonly find = el<HTMLInputElement>("find");
  private readonly helmType = el<HTMLSelectElement>("helm-type");
  private readonly helmTake = el<HTMLButtonElement>("helm-take");
  private readonly helmLeave = el<HTMLButtonElement>("helm-leave");
  private readonly helmState = el<HTMLElement>("helm-state");
  private readonly about = el<HTMLElement>("about");
  private readonly damage = el<HTMLElement>("damage");
  private readonly damageState = el<HTMLElement>("damage-state");
  private readonly damageBars = el<HTMLElement>("damage-bars");
  private readonly damagePumps = el<HTMLButtonElement>("damage-pumps");
  private readonly damageLog = el<HTMLElement>("damage-log");
  private readonly notices = el<HTMLElement>("notices");
  private readonly card = new Card();
  private noticesKey = "";
  private pumpsOn = false;
  private listKey = "";
  private logKey = "";

  constructor(handlers: {
    pick: (id: number) => void; free: () => void; take: (type: string) => void; leave: () => void; pumps: (on: boolean) => void;
    dismiss: () => void;
  }) {
    this.notices.addEventListener("click", (e) => {
      if (e.target instanceof HTMLButtonElement) handlers.dismiss();
    });
    this.damagePumps.addEventListener("click", () => handlers.pumps(!this.pumpsOn));
    this.boats.addEventListener("change", () => {
      if (this.boats.value !== "") handlers.pick(Number(this.boats.value));
    });
    this.find.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      const id = Number(this.find.value.trim());
      if (this.find.value.trim() !== "" && Number.isInteger(id) && id >= 0) handlers.pick(id);
      else this.find.setCustomValidity("a boat id: a whole number >= 0");
      this.find.reportValidity();
    });
    this.find.addEventListener("input", () => this.find.setCustomValidity(""));
    el<HTMLButtonElement>("unfollow").addEventListener("click", () => handlers.free());
    this.helmTake.addEventListener("click", () => handlers.take(this.helmType.value));
    this.helmLeave.addEventListener("click", () => handlers.leave());
  }

  setTypes(names: string[]): void {
    const keep = this.helmType.value;
    this.helmType.replaceChildren(...names.map((n) => new Option(n, n)));
    this.helmType.value = names.includes(keep) ? keep : names.includes("skiff") ? "skiff" : names[0] ?? "";
  }

  setAbout(text: string): void {
    this.about.textContent = text;
  }

  /** The boat list, rebuilt only when the set of boats changed. */
  setBoats(ids: ArrayLike<number>, count: number, typeOf: (i: number) => string, selected: number): void {
    const sorted = Array.from({ length: count }, (_, i) => i).sort((a, b) => ids[a] - ids[b]);
    const key = sorted.map((i) => `${ids[i]}:${typeOf(i)}`).join(",");
    if (key !== this.listKey) {
      this.listKey = key;
      this.boats.replaceChildren(...sorted.map((i) => new Option(`${ids[i]} · ${typeOf(i)}`, String(ids[i]))));
    }
    const want = selected >= 0 ? String(selected) : "";
    if (this.boats.value !== want) this.boats.value = want;
  }

  show(s: NavalStats): void {
    this.banner.hidden = !s.banner;
    this.banner.textContent = s.banner;
    const view = s.stream === "view";
    const rows: [string, string][] = [
      ["server", s.serverName ? `${s.serverName} · ${fmt(s.tickHz, 0)} Hz` : "–"],
      ["tick", s.tick ? `${s.tick} (drawn ${s.drawnTick})` : "–"],
      ["boats shown", `${s.boatsRendered} of ${s.snapshotBoats} in the ${view ? "view" : "snapshot"}, ${s.worldBoats} in the world`],
      ["server tick", view
        ? `${fmt(s.tickMs, 2)} ms median, p99 ${fmt(s.tickMsMax, 2)} ms · ${s.overruns} overruns`
        : `${fmt(s.tickMs, 2)} ms, max ${fmt(s.tickMsMax, 2)} ms · ${s.overruns} overruns`],
      ["levels of detail", s.models[1] + s.models[2] > 0 || s.lodMs > 0
        ? `${s.models[0]} mesh · ${s.models[1]} columns · ${s.models[2]} floaters (${fmt(s.lodMs, 2)} ms)`
        : `all ${s.models[0]} on the mesh`],
      ["contacts", `${s.contactsVessels} between boats · ${s.contactsGround} with the ground${view ? " (in the view)" : ""} · ${s.grounded} aground now`],
      view
        ? ["view", `${fmt(s.viewKbps, 1)} kbit/s · ${fmt(s.viewUpdatesPerSec, 0)} updates/s · ` +
            (Number.isFinite(s.viewRadius) ? `${fmt(s.viewRadius, 0)} m around (${fmt(s.viewCentre[0], 0)}, ${fmt(s.viewCentre[1], 0)})` : "not set yet")]
        : ["snapshots", `${fmt(s.snapshotsPerSec, 0)}/s · ${fmt(s.bytesPerSec / 1024, 0)} KiB/s`],
      ["latency", latencyText(s.latencyMs, s.latencyMaxMs).text],
      ["drawn", `${fmt(s.fps, 0)} fps · 100 ms behind · ${fmt(s.starvedPct, 0)} % held`],
    ];
    if (s.viewRefusal) rows.push(["view refused", s.viewRefusal]);
    if (s.lastError) rows.push(["last error", s.lastError]);
    const table = document.createElement("table");
    for (const [k, v] of rows) {
      const tr = table.insertRow();
      tr.insertCell().textContent = k;
      tr.insertCell().textContent = v;
      if (k === "latency") {
        // A negative figure is the clocks', not the network's: the figure goes to the tooltip.
        const l = latencyText(s.latencyMs, s.latencyMaxMs);
        tr.id = "hud-latency";
        tr.title = l.title;
        if (l.skew) tr.className = "skew";
      }
    }
    this.panel.replaceChildren(table);
    this.card.show(s.card, s.followMessage);
    this.showNotices(s.notices);
    const h = s.helm;
    this.helmTake.hidden = h.phase !== "idle";
    this.helmTake.disabled = !s.commandsConnected;
    this.helmLeave.hidden = h.phase !== "steering";
    this.helmType.disabled = h.phase !== "idle";
    let text = h.message;
    if (h.phase === "steering") {
      // Which boat, its speed, throttle and rudder are on the card while it is the followed one.
      const onCard = s.followed === h.id;
      text = (onCard ? "" : `boat ${h.id} (${h.typeName}) · throttle ${percentText(h.throttle)} · rudder ${percentText(h.rudder)} · ` +
        `${fmt(h.speed, 1)} m/s · `) + `command round trip ${fmt(h.lastRttMs, 1)} ms` + (h.message ? ` · ${h.message}` : "");
    }
    this.helmState.textContent = text;
    this.showDamage(s);
  }

  /** The page's warnings, with one button that dismisses them. */
  private showNotices(notices: string[]): void {
    const key = notices.join("\n");
    if (key === this.noticesKey) return;
    this.noticesKey = key;
    this.notices.hidden = notices.length === 0;
    const close = Object.assign(document.createElement("button"), { type: "button", textContent: "×", title: "Dismiss" });
    close.setAttribute("aria-label", "dismiss the warnings");
    this.notices.replaceChildren(...notices.map((n) => Object.assign(document.createElement("div"), { textContent: n })));
    this.notices.firstElementChild?.append(close);
  }

  /** The followed boat's damage panel, and the damage events of the last seconds. */
  private showDamage(s: NavalStats): void {
    const d = s.damage;
    this.damage.hidden = !d;
    if (d) {
      const state = d.sunk ? "SUNK" : d.capsized ? "CAPSIZED" : "afloat";
      this.damageState.replaceChildren(
        Object.assign(document.createElement("span"), { className: `damage-${state.toLowerCase()}`, textContent: state }),
        ` · ${d.holes} hole${d.holes === 1 ? "" : "s"} · pumps ${d.pumping ? "on" : "off"}` +
          (d.pumpRate > 0 ? ` (${fmt(d.pumpRate, 2)} m³/s each)` : " (none)") +
          (Number.isFinite(d.water) ? ` · ${fmt(d.water, 1)} m³ of water` : ""),
      );
      this.damageBars.replaceChildren(...d.compartments.map((c, k) => {
        const row = document.createElement("div");
        row.className = "damage-row";
        const bar = document.createElement("div");
        bar.className = "damage-bar";
        bar.setAttribute("role", "meter");
        bar.setAttribute("aria-label", `compartment ${k + 1}`);
        bar.setAttribute("aria-valuenow", String(Math.round(100 * c.fraction)));
        const fill = document.createElement("div");
        fill.style.width = `${(100 * c.fraction).toFixed(1)}%`;
        if (c.fraction >= 0.999) fill.className = "full";
        bar.append(fill);
        const label = document.createElement("span");
        label.textContent = Number.isFinite(c.volume)
          ? `${k + 1}: ${fmt(c.water, 1)} / ${fmt(c.volume, 1)} m³`
          : `${k + 1}: ${fmt(100 * c.fraction, 0)} %`;
        row.append(bar, label);
        return row;
      }));
      this.pumpsOn = d.pumping;
      this.damagePumps.hidden = !d.own || d.sunk;
      this.damagePumps.textContent = d.pumping ? "Pumps off" : "Pumps on";
    }
    const key = s.damageMessages.join("\n");
    if (key !== this.logKey) {
      this.logKey = key;
      this.damageLog.hidden = s.damageMessages.length === 0;
      this.damageLog.replaceChildren(...s.damageMessages.map((m) => Object.assign(document.createElement("div"), { textContent: m })));
    }
  }
}
