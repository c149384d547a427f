// SPDX-License-Identifier: MIT
// Nameplates: the boats nearest the camera labelled "id · type" over their
// hulls, the text smaller with distance, and for a damaged boat a bar of the
// water aboard (its compartments' water over their volume; full when
// sunk). DOM over the canvas, placed from the fleet's drawn positions each
// frame; a few dozen at most, none over another (the nearer boat's wins),
// so the overview stays readable.

import * as THREE from "three";
import { DAMAGE_SUNK_FLAG, type VesselDamageData } from "./damage";
import type { Pose } from "./timeline";

/** At most this many plates, the nearest boats first. */
const MAX_PLATES = 24;
/** Full size within NEAR_M of the camera, smallest at FAR_M, none beyond. */
const NEAR_M = 80;
const FAR_M = 2500;
const LARGEST_PX = 13;
const SMALLEST_PX = 9;

/** What a plate shows of a boat's type: its name and its compartments' volumes (m^3). */
export interface PlateType {
  name: string;
  volumes: readonly number[];
}

/** A plate as drawn (for the tests): the boat, its text, the water aboard in [0, 1] (NaN: no bar). */
export interface PlateShown {
  id: number;
  text: string;
  flooded: number;
  x: number;
  y: number;
}

/** The fraction of a boat's compartments' volume that is water (1 when sunk), NaN for an intact boat. */
export function floodedFraction(d: VesselDamageData | undefined, volumes: readonly number[]): number {
  if (!d) return NaN;
  if (d.flags & DAMAGE_SUNK_FLAG) return 1;
  let water = 0, total = 0;
  d.fill.forEach((f, k) => {
    const v = volumes[k];
    if (Number.isFinite(v) && v > 0) (water += (f / 255) * v), (total += v);
  });
  return total > 0 ? water / total : d.holes > 0 ? 0 : NaN;
}

export class Nameplates {
  private readonly plates: { root: HTMLDivElement; label: HTMLSpanElement; bar: HTMLDivElement; fill: HTMLDivElement }[] = [];
  private readonly p = new THREE.Vector3();
  private order: { i: number; d: number }[] = [];
  private readonly taken: { x0: number; x1: number; y0: number; y1: number }[] = [];
  /** The plates drawn last frame. */
  shown: PlateShown[] = [];

  constructor(private readonly layer: HTMLElement) {}

  /**
   * Places the plates: `where(id)` the boat's drawn position, `top(id)` its
   * hull's height above the CG (m), `damage(id)` its damage entry.
   */
  update(pose: Pose, camera: THREE.PerspectiveCamera, width: number, height: number, where: (id: number) => THREE.Vector3 | undefined,
    top: (id: number) => number, typeOf: (type: number) => PlateType | undefined, damage: (id: number) => VesselDamageData | undefined): void {
    this.order.length = 0;
    for (let i = 0; i < pose.count; i++) {
      const w = where(pose.ids[i]);
      if (!w) continue;
      const d = camera.position.distanceTo(w);
      if (d < FAR_M) this.order.push({ i, d });
    }
    this.order.sort((a, b) => a.d - b.d || pose.ids[a.i] - pose.ids[b.i]);
    this.shown = [];
    this.taken.length = 0;
    let used = 0;
    for (const { i, d } of this.order) {
      if (used >= MAX_PLATES) break;
      const id = pose.ids[i], w = where(id)!;
      this.p.copy(w).setY(w.y + Math.max(2, top(id)) + 2).project(camera);
      if (this.p.z > 1 || Math.abs(this.p.x) > 1 || Math.abs(this.p.y) > 1) continue;
      const x = ((this.p.x + 1) / 2) * width, y = ((1 - this.p.y) / 2) * height;
      const type = typeOf(pose.types[i]);
      const flooded = floodedFraction(damage(id), type?.volumes ?? []);
      const text = `${id} · ${type?.name ?? `type ${pose.types[i]}`}`;
      const k = Math.min(1, Math.max(0, (d - NEAR_M) / (FAR_M - NEAR_M)));
      const px = LARGEST_PX + (SMALLEST_PX - LARGEST_PX) * Math.sqrt(k);
      // a nearer boat's plate wins the place: none drawn over another
      const box = { x0: x - 0.3 * px * text.length, x1: x + 0.3 * px * text.length, y0: y - 1.8 * px, y1: y };
      if (this.taken.some((b) => b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1)) continue;
      this.taken.push(box);
      const plate = this.plate(used++);
      plate.root.hidden = false;
      plate.root.style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px) translate(-50%, -100%)`;
      plate.root.style.fontSize = `${px.toFixed(1)}px`;
      plate.root.dataset.id = String(id);
      if (plate.label.textContent !== text) plate.label.textContent = text;
      plate.bar.hidden = !Number.isFinite(flooded);
      if (Number.isFinite(flooded)) {
        plate.fill.style.width = `${(100 * flooded).toFixed(1)}%`;
        plate.root.dataset.flooded = flooded.toFixed(3);
      } else delete plate.root.dataset.flooded;
      this.shown.push({ id, text, flooded, x, y });
    }
    for (let k = used; k < this.plates.length; k++) this.plates[k].root.hidden = true;
  }

  private plate(k: number) {
    while (this.plates.length <= k) {
      const root = document.createElement("div");
      root.className = "nameplate";
      const label = document.createElement("span");
      const bar = document.createElement("div");
      bar.className = "nameplate-bar";
      bar.title = "water aboard: the compartments' water over their volume";
      const fill = document.createElement("div");
      bar.append(fill);
      root.append(label, bar);
      this.layer.append(root);
      this.plates.push({ root, label, bar, fill });
    }
    return this.plates[k];
  }
}
