// SPDX-License-Identifier: MIT
// Damage (docs/protocol.md, "Damage"): the VesselDamage entries and
// DamageEvents of full snapshots and player view updates as plain
// objects, what a vessel's water and attitude come to, and the short
// messages a client shows for events. Pure: no DOM, so that the Node tests
// run it.

import type { DamageEvent } from "./gen/naval/proto/damage-event.js";
import type { VesselDamage } from "./gen/naval/proto/vessel-damage.js";
import { Vec3f } from "./gen/naval/proto/vec3f.js";

/** DamageEvent.kind. */
export const DAMAGE_BREACH = 0, DAMAGE_FULL = 1, DAMAGE_CAPSIZED = 2, DAMAGE_SUNK = 3, DAMAGE_REMOVED = 4;
/** DamageEvent.compartment when none is concerned. */
export const NO_COMPARTMENT = 255;
/** VesselDamage.flags. */
export const DAMAGE_PUMPING = 1, DAMAGE_SUNK_FLAG = 2;

/** A damaged vessel (naval.fbs VesselDamage): fill[k] / 255 of compartment k's volume is water. */
export interface VesselDamageData {
  id: number;
  flags: number;
  holes: number;
  fill: number[];
}

/** What happened to a vessel at `tick` (naval.fbs DamageEvent). */
export interface DamageEventData {
  tick: number;
  id: number;
  kind: number;
  compartment: number; // NO_COMPARTMENT when none
  area: number; // breach: m^2
  point: [number, number, number]; // breach: body frame about the CG, m
}

export function vesselDamageData(d: VesselDamage): VesselDamageData {
  const fill: number[] = [];
  for (let k = 0, n = d.fillLength(); k < n; k++) fill.push(d.fill(k) ?? 0);
  return { id: d.id(), flags: d.flags(), holes: d.holes(), fill };
}

const point = new Vec3f();
export function damageEventData(e: DamageEvent): DamageEventData {
  const p = e.point(point)!;
  return { tick: Number(e.tick()), id: e.id(), kind: e.kind(), compartment: e.compartment(), area: e.area(), point: [p.x(), p.y(), p.z()] };
}

/** The entries of a vector of VesselDamage (n of them, the i-th by get). */
export function readDamage(n: number, get: (i: number, o: VesselDamage) => VesselDamage | null, make: () => VesselDamage): VesselDamageData[] {
  const out: VesselDamageData[] = [];
  const o = make();
  for (let i = 0; i < n; i++) {
    const d = get(i, o);
    if (!d) throw new Error(`damage: entry ${i} is missing`);
    out.push(vesselDamageData(d));
  }
  return out;
}

/** The events of a vector of DamageEvent; an unknown kind is refused, as the C decoders do. */
export function readDamageEvents(n: number, get: (i: number, o: DamageEvent) => DamageEvent | null, make: () => DamageEvent): DamageEventData[] {
  const out: DamageEventData[] = [];
  const o = make();
  for (let i = 0; i < n; i++) {
    const e = get(i, o);
    if (!e) throw new Error(`damage events: event ${i} is missing`);
    const ev = damageEventData(e);
    if (ev.kind > DAMAGE_REMOVED) throw new Error(`damage events: event ${i} has unknown kind ${ev.kind}`);
    out.push(ev);
  }
  return out;
}

/** An entry that says "no longer damaged": no flags, no holes, no water. */
export function isClear(d: VesselDamageData): boolean {
  return d.flags === 0 && d.holes === 0 && d.fill.every((f) => f === 0);
}

/**
 * Heel (+ starboard down, in (-180, 180]: about 180 keel-up) and trim
 * (+ bow up, [-90, 90]) in degrees, as core/statics.c measures them
 * (nv_statics_attitude: yaw, then trim about the body's starboard axis,
 * then heel about its own bow axis), and whether it has capsized as the
 * world says (nv_statics_capsized, the snapshots' flag bit 5: heeled past
 * 90 degrees while trimmed under 60; a hull stood on its bow or stern has
 * not). The page takes them from the drawn quaternion, so the panel's
 * heel and its "capsized" agree with what is on screen.
 */
export function attitude(q: ArrayLike<number>): { heel: number; trim: number; capsized: boolean } {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  const deg = 180 / Math.PI, unit = (v: number) => Math.max(-1, Math.min(1, v));
  // The world's up in the body frame (the middle row of R).
  const ux = 2 * (x * y + w * z), uy = 1 - 2 * (x * x + z * z), uz = 2 * (y * z - w * x);
  const trim = Math.asin(unit(ux)) * deg;
  let heel = Math.hypot(uy, uz) > 1e-12 ? Math.atan2(-uz, uy) * deg : 0;
  if (heel <= -180) heel += 360;
  return { heel, trim, capsized: uy < 0 && uy * uy + uz * uz > 0.25 };
}

/** One compartment as the panel shows it. */
export interface CompartmentView {
  fraction: number; // of its volume, 0..1
  water: number; // m^3 (NaN when the volume is unknown)
  volume: number; // m^3 (NaN when unknown)
}

/** A damaged vessel's compartments with their volumes (WorldInfo's VesselType.compartment_volumes). */
export function compartments(d: VesselDamageData, volumes: readonly number[]): CompartmentView[] {
  return d.fill.map((f, k) => {
    const volume = volumes[k] ?? NaN;
    return { fraction: f / 255, water: (f / 255) * volume, volume };
  });
}

/**
 * A short message for an event, compartments numbered from 1 as the
 * panel's bars are: "boat 12 (patrol): holed in compartment 3, 0.50 m²".
 */
export function describeEvent(e: DamageEventData, typeName = ""): string {
  const who = `boat ${e.id}${typeName ? ` (${typeName})` : ""}`;
  const c = e.compartment === NO_COMPARTMENT ? "" : ` ${e.compartment + 1}`;
  switch (e.kind) {
    case DAMAGE_BREACH: return `${who}: holed${c ? ` in compartment${c}` : ""}, ${e.area.toFixed(2)} m²`;
    case DAMAGE_FULL: return `${who}: compartment${c} full`;
    case DAMAGE_CAPSIZED: return `${who}: capsized`;
    case DAMAGE_SUNK: return `${who}: sunk`;
    case DAMAGE_REMOVED: return `${who}: sunk and gone`;
    default: return `${who}: damage of kind ${e.kind}`;
  }
}
