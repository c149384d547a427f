// SPDX-License-Identifier: MIT
// The legend: each vessel type of the world (world info) in the colour its
// hulls and markers are drawn in (the fleet's), and the colours that
// override a type's: a frozen boat, the helm's, the followed one, then the
// states (sunk, capsized, aground, holed). Only DOM.

import { pageElement } from "./dom";
import { FLEET_HIGHLIGHTS } from "./fleet";

/** A legend entry: what it is and its colour (#rrggbb). */
export interface LegendEntry {
  label: string;
  colour: string;
  /** A vessel type's id (world info), absent for the highlight colours. */
  type?: number;
  /** What it means (a tooltip). */
  tip?: string;
}

const hex = (c: number): string => `#${c.toString(16).padStart(6, "0")}`;

/**
 * The colours fleet.ts gives a boat over its type's, in its order of
 * precedence; tests/test_web_ui.mjs checks that the followed and the
 * helm's boat are drawn in these.
 */
export const HIGHLIGHTS: readonly LegendEntry[] = [
  { label: "frozen", colour: hex(FLEET_HIGHLIGHTS.frozen), tip: "frozen by the server (a fault in its physics): it no longer moves" },
  { label: "your helm", colour: hex(FLEET_HIGHLIGHTS.helm), tip: "the boat this page steers" },
  { label: "followed", colour: hex(FLEET_HIGHLIGHTS.followed), tip: "the boat the camera follows (its card is above)" },
  { label: "sunk", colour: hex(FLEET_HIGHLIGHTS.sunk), tip: "its reserve buoyancy is gone, or it stayed under the surface (hull and marker)" },
  { label: "capsized", colour: hex(FLEET_HIGHLIGHTS.capsized), tip: "heeled past 90 degrees (hull and marker)" },
  { label: "aground", colour: hex(FLEET_HIGHLIGHTS.aground), tip: "touched the seabed or land in the last step (hull and marker)" },
  { label: "holed", colour: hex(FLEET_HIGHLIGHTS.damaged), tip: "a hole in its hull, afloat (hull and marker)" },
];

export class Legend {
  private readonly list: HTMLElement;
  private key = "";
  entries: LegendEntry[] = [];

  constructor(id = "legend") {
    this.list = pageElement(id);
  }

  /** The world's types (id, name) with `colourOf(type)`, the colour the fleet draws them in. */
  set(types: readonly { type: number; name: string }[], colourOf: (type: number) => string): void {
    const entries: LegendEntry[] = [...types.map((t) => ({ label: t.name, colour: colourOf(t.type), type: t.type })), ...HIGHLIGHTS];
    const key = JSON.stringify(entries);
    if (key === this.key) return;
    this.key = key;
    this.entries = entries;
    this.list.replaceChildren(...entries.map((e) => {
      const item = document.createElement("span");
      item.className = e.type === undefined ? "legend-item legend-highlight" : "legend-item";
      if (e.type !== undefined) item.dataset.type = String(e.type);
      item.dataset.colour = e.colour;
      item.title = e.tip ?? `vessel type ${e.type}: every boat of this type, unless highlighted`;
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = e.colour;
      item.append(swatch, e.label);
      return item;
    }));
  }
}
