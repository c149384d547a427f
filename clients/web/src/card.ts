// SPDX-License-Identifier: MIT
// The followed boat's card: who it is, how fast and where it goes, how it
// lies, its controls (known only for the boat at the helm: the wire
// carries controls as commands, never in snapshots), its contacts and its
// flooding. The figures come from main.ts (CardData, also in
// window.navalStats.card); this is only DOM.

import { fmt, leanText, percentText, speedText } from "./hudfmt";
import { pageElement as el } from "./dom";

/** The followed boat as the card shows it. */
export interface CardData {
  id: number;
  typeName: string;
  /** The colour its type is drawn in (#rrggbb), "" when unknown. */
  typeColour: string;
  /** The tick of the snapshot (or view update) the speed comes from. */
  tick: number;
  /** Horizontal speed of the CG, m/s (NaN: not yet known). */
  speed: number;
  /** "velocity": the snapshot's; "positions": between the view's last two samples (a view carries no velocities). */
  speedFrom: "velocity" | "positions";
  /** Degrees in [0, 360), about +y from +x toward -z (the protocol's); NaN when the bow points straight up or down. */
  heading: number;
  heel: number;
  trim: number;
  capsized: boolean;
  /** The boat at the helm: the controls this page sent (wanted, [-1, 1]) and how many the server acknowledged. */
  helm: { throttle: number; rudder: number; acknowledged: number } | null;
  /** Contacts begun since the page has seen it, and the last one as text ("" none); null: not carried (a player view). */
  contacts: { count: number; last: string } | null;
  /** Water aboard (m^3; NaN: compartment volumes unknown) and holes; null: dry. compartments: how many it has (0: cannot flood). */
  flooding: { water: number; holes: number } | null;
  compartments: number;
}

const HEADING_TIP = "Heading in degrees, 0-360: the bow's direction about +y, from +x toward -z " +
  "(the protocol's convention, as Spawn's heading; docs/protocol.md). 0° is +x, 90° is -z.";
const CONTROLS_TIP = "Throttle and rudder travel only as a player's commands (Control requests): snapshots and views do not carry them. " +
  "This page knows them for the boat at its own helm only.";
const CONTACTS_TIP = "Contacts the stream reported since this page first saw the boat: every one in full snapshots; in a view, those that came while it was in the view (a lost update's are not sent again).";

export class Card {
  private readonly box = el<HTMLElement>("card");
  private readonly title = el<HTMLElement>("card-title");
  private readonly body = el<HTMLElement>("card-body");
  private readonly note = el<HTMLElement>("card-note");

  /** `message`: what the page says about following (a boat not found, one gone), shown with or without a card. */
  show(c: CardData | null, message: string): void {
    this.note.textContent = message;
    this.note.hidden = !message;
    this.box.classList.toggle("card-empty", !c);
    if (!c) {
      this.title.replaceChildren("No boat followed");
      // The hint only when there is no message: on a small screen every line counts.
      this.body.replaceChildren(...(message ? [] : [Object.assign(document.createElement("p"), {
        className: "card-hint", textContent: "Click a boat, pick one from the list or type its id.",
      })]));
      return;
    }
    const swatch = Object.assign(document.createElement("span"), { className: "swatch" });
    swatch.style.background = c.typeColour || "#888";
    this.title.replaceChildren(swatch, `boat ${c.id}${c.typeName ? ` · ${c.typeName}` : ""}${c.helm ? " · your helm" : ""}`);
    const rows: [string, string, string, string][] = [
      ["speed", speedText(c.speed), c.speedFrom === "velocity"
        ? "Horizontal speed of the CG, from the snapshot's velocity"
        : "Horizontal speed of the CG, between the view's last two positions (a player view carries no velocities)", "card-speed"],
      ["heading", Number.isFinite(c.heading) ? `${c.heading.toFixed(0)}°` : "–", HEADING_TIP, "card-heading"],
      ["heel", `${leanText(c.heel, "starboard", "port")}${c.capsized ? " · CAPSIZED" : ""}`,
        "Heel, + starboard down, degrees, as drawn (core/statics.c's angle); CAPSIZED past 90°", "card-heel"],
      ["trim", leanText(c.trim, "bow up", "bow down"), "Trim, + bow up, degrees, as drawn (core/statics.c's angle)", "card-trim"],
      ["controls", c.helm ? `throttle\u00a0${percentText(c.helm.throttle)} · rudder\u00a0${percentText(c.helm.rudder)}` : "not sent for other boats",
        c.helm ? `${CONTROLS_TIP} Wanted now; ${c.helm.acknowledged} Control(s) acknowledged.` : CONTROLS_TIP, "card-controls"],
      ["contacts", c.contacts ? (c.contacts.count ? `${c.contacts.count} · last: ${c.contacts.last}` : "none seen") : "not in a view (?stream=full)",
        CONTACTS_TIP, "card-contacts"],
      ["flooding", c.compartments === 0 ? "no compartments" : c.flooding
        ? `${fmt(c.flooding.water, 1)} m³ · ${c.flooding.holes} hole${c.flooding.holes === 1 ? "" : "s"}` : "dry",
        "Water aboard and holes (the damage entries of the stream); the damage panel has each compartment", "card-flooding"],
    ];
    const table = document.createElement("table");
    for (const [k, v, tip, id] of rows) {
      const tr = table.insertRow();
      tr.id = id;
      tr.title = tip;
      tr.insertCell().textContent = k;
      tr.insertCell().textContent = v;
    }
    this.body.replaceChildren(table);
  }
}
