// SPDX-License-Identifier: MIT
// The boats: one InstancedMesh per vessel type, built from the hull mesh
// the server sends (GetHull: body frame about the CG, +x bow, +y up, the
// world's axes too), so thousands of boats cost one draw call per type.
// Each type also gets a superstructure (superstructure.ts), a second
// InstancedMesh that shares the hulls' instance matrices. Over every boat
// a heading chevron (markers.ts) keeps a 5 m skiff readable in a view of
// the whole fleet; behind every moving boat, a wake (wake.ts). Speeds come
// from the drawn positions (a player view carries no velocities).

import * as THREE from "three";
import { Markers } from "./markers";
import { buildSuperstructure } from "./superstructure";
import type { Pose } from "./timeline";
import { WAKE_MIN_SPEED, Wakes } from "./wake";
import { DAMAGE_SUNK_FLAG, type VesselDamageData } from "./damage";
import { FLAG_CAPSIZED, FLAG_FROZEN, FLAG_GROUNDED, type HullData, type VesselTypeData } from "./wire";

/**
 * Hull colours by the type's name, whatever its place in the world info's
 * list (a world with the patrol boat first must not paint it the skiff's
 * grey): the built-ins' own, other names hashed into the rest of the
 * palette. The superstructures are white.
 */
const BUILTIN_COLOURS: Readonly<Record<string, number>> = { skiff: 0xaab6bf, patrol: 0x6f93b8, freighter: 0x8c9a6a };
const PALETTE = [0xc39a74, 0xa493c4, 0x6fae9e, 0xb8a24e, 0x8f7f9a, 0x5f8f8a, 0xb07f6a, 0x7f9fb0];
/**
 * The colours that override a boat's type colour (legend.ts shows them too):
 * who it is (frozen, the helm's, the followed one), then what state it is in
 * (sunk, capsized, aground, holed), each a hue of its own and none near a
 * type's. A boat's hull takes the first that applies; its marker above it
 * shows the state even when the hull shows who (a followed boat aground
 * still reads aground).
 */
export const FLEET_HIGHLIGHTS = {
  frozen: 0xd03030, helm: 0xff7a2e, followed: 0xffd84a,
  sunk: 0x2de0f0, capsized: 0xb04ad8, aground: 0x7a4a22, damaged: 0xff3f8e,
} as const;
const SELECTED = new THREE.Color(FLEET_HIGHLIGHTS.followed);
const HELM = new THREE.Color(FLEET_HIGHLIGHTS.helm);
const FROZEN = new THREE.Color(FLEET_HIGHLIGHTS.frozen);
/** The lowest a chevron goes (m over still water). */
const MARKER_MIN_Y = 1.5;
const SUNK = new THREE.Color(FLEET_HIGHLIGHTS.sunk);
const CAPSIZED = new THREE.Color(FLEET_HIGHLIGHTS.capsized);
const GROUNDED = new THREE.Color(FLEET_HIGHLIGHTS.aground);
const DAMAGED = new THREE.Color(FLEET_HIGHLIGHTS.damaged);
/** A superstructure stays white; a highlighted boat's is tinted with its highlight. */
const DECK = new THREE.Color(0xffffff);
const DECK_TINT = 0.4;
/** Vessel ids start at 0: "no boat" is -1. */
export const NO_BOAT = -1;
/** How fast a drawn speed follows the positions, s. */
const SPEED_SMOOTHING_S = 0.4;
/**
 * The way made good is the velocity averaged over longer than a wave period
 * (s): a boat lying in a seaway swings to and fro at up to 1-1.5 m/s with the
 * waves' orbital motion, which averages out, and only way through the water
 * makes a wake.
 */
const WAY_SMOOTHING_S = 3;

/** The colour (#rrggbb) of the hulls of the type named `name`. */
export function fleetTypeColour(name: string): string {
  let c = BUILTIN_COLOURS[name];
  if (c === undefined) {
    let h = 0x811c9dc5; // FNV-1a of the name
    for (let k = 0; k < name.length; k++) h = Math.imul(h ^ name.charCodeAt(k), 0x01000193) >>> 0;
    c = PALETTE[h % PALETTE.length];
  }
  return `#${c.toString(16).padStart(6, "0")}`;
}

interface TypeBatch {
  type: number;
  mesh: THREE.InstancedMesh;
  /** The superstructure, drawn with the hull's instance matrices. */
  deck: THREE.InstancedMesh;
  /** Instance -> vessel id, this frame. */
  ids: Uint32Array;
  count: number;
  colour: THREE.Color;
  /** Body-frame box of hull and superstructure (m): the camera keeps out of it. */
  boxMin: THREE.Vector3;
  boxMax: THREE.Vector3;
  length: number; // bow to stern, m
  halfBeam: number;
}

/** What the fleet keeps of a boat between frames. */
interface Motion {
  x: number;
  z: number;
  simTime: number;
  /** m/s over the water, smoothed. */
  speed: number;
  /** The velocity (x, z) averaged over WAY_SMOOTHING_S, m/s. */
  wayX: number;
  wayZ: number;
  /** Heading as a unit (x, z) of the bow. */
  fx: number;
  fz: number;
  quat: THREE.Quaternion;
  batch: TypeBatch | null;
}

export interface BoatLook {
  pos: [number, number, number];
  quat: [number, number, number, number];
  heading: [number, number];
  speed: number;
  /** Speed made good (m/s): the velocity averaged over several wave periods; what the wake follows. */
  way: number;
  length: number;
  boxMin: [number, number, number];
  boxMax: [number, number, number];
}

/** Which parts are drawn (the page test hides some to measure the others). */
export interface FleetLayers {
  hulls: boolean;
  superstructures: boolean;
  markers: boolean;
  wakes: boolean;
}

export class Fleet {
  readonly group = new THREE.Group();
  private batches = new Map<number, TypeBatch>();
  private readonly material = new THREE.MeshStandardMaterial({ roughness: 0.7, metalness: 0.05, flatShading: true });
  private readonly deckMaterial = new THREE.MeshStandardMaterial({ roughness: 0.6, metalness: 0.05, flatShading: true, vertexColors: true });
  readonly markers = new Markers();
  readonly wakes = new Wakes();
  private readonly layers: FleetLayers = { hulls: true, superstructures: true, markers: true, wakes: true };
  private readonly m = new THREE.Matrix4();
  private readonly q = new THREE.Quaternion();
  private readonly p = new THREE.Vector3();
  private readonly v = new THREE.Vector3();
  private readonly one = new THREE.Vector3(1, 1, 1);
  private readonly c = new THREE.Color();
  private readonly tint = new THREE.Color();
  private readonly motion = new Map<number, Motion>();
  /** Boats drawn in the last update (hull instances; the markers are the same boats). */
  drawn = 0;
  /** World position of every boat drawn, by id (for follow and picking). */
  readonly where = new Map<number, THREE.Vector3>();

  constructor() {
    this.group.add(this.wakes.mesh);
    this.group.add(this.markers.mesh);
  }

  /** Builds a batch per type from its hull (replacing the old ones). */
  setTypes(types: VesselTypeData[], hulls: Map<number, HullData>): void {
    for (const b of this.batches.values()) {
      this.group.remove(b.mesh, b.deck);
      b.mesh.geometry.dispose();
      b.deck.geometry.dispose();
      b.mesh.dispose();
      b.deck.dispose();
    }
    this.batches.clear();
    this.motion.clear();
    types.forEach((t) => {
      const hull = hulls.get(t.type);
      if (!hull) return;
      const g = new THREE.BufferGeometry();
      g.setAttribute("position", new THREE.BufferAttribute(hull.vertices, 3));
      g.setIndex(new THREE.BufferAttribute(hull.indices, 1));
      g.computeVertexNormals();
      const ss = buildSuperstructure(t.name, t.boundsMin, t.boundsMax);
      const batch: TypeBatch = {
        type: t.type, mesh: this.makeMesh(g, this.material, 16), deck: this.makeMesh(ss.geometry, this.deckMaterial, 16),
        ids: new Uint32Array(16), count: 0, colour: new THREE.Color(fleetTypeColour(t.name)),
        boxMin: new THREE.Vector3(...t.boundsMin), boxMax: new THREE.Vector3(t.boundsMax[0], Math.max(t.boundsMax[1], ss.top), t.boundsMax[2]),
        length: t.boundsMax[0] - t.boundsMin[0], halfBeam: (t.boundsMax[2] - t.boundsMin[2]) / 2,
      };
      this.share(batch);
      this.batches.set(t.type, batch);
      this.group.add(batch.mesh, batch.deck);
    });
    this.applyLayers();
  }

  /** The superstructure draws with the hull's matrices: one upload serves both. */
  private share(b: TypeBatch): void {
    b.deck.instanceMatrix = b.mesh.instanceMatrix;
  }

  /** Length of boat `id`'s hull (m), NaN when not drawn. */
  lengthOf(id: number): number {
    return this.motion.get(id)?.batch?.length ?? NaN;
  }

  /** The top of boat `id`'s hull box above its CG (m), NaN when it is not drawn. */
  topOf(id: number): number {
    return this.motion.get(id)?.batch?.boxMax.y ?? NaN;
  }

  /** The hull colour of vessel type `type` (its id), "#888" when unknown. */
  typeColour(type: number): string {
    const b = this.batches.get(type);
    return b ? `#${b.colour.getHexString()}` : "#888";
  }

  private makeMesh(g: THREE.BufferGeometry, material: THREE.Material, capacity: number): THREE.InstancedMesh {
    const mesh = new THREE.InstancedMesh(g, material, capacity);
    mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    mesh.setColorAt(0, new THREE.Color()); // allocates instanceColor
    // Boats move every frame; recomputing bounds for culling would cost more than drawing.
    mesh.frustumCulled = false;
    mesh.count = 0;
    return mesh;
  }

  private grow(b: TypeBatch, need: number): void {
    let cap = b.ids.length;
    if (need <= cap) return;
    while (cap < need) cap *= 2;
    this.group.remove(b.mesh, b.deck);
    b.mesh.dispose();
    b.deck.dispose();
    b.mesh = this.makeMesh(b.mesh.geometry, this.material, cap);
    b.deck = this.makeMesh(b.deck.geometry, this.deckMaterial, cap);
    this.share(b);
    this.group.add(b.mesh, b.deck);
    const ids = new Uint32Array(cap);
    ids.set(b.ids);
    b.ids = ids;
    this.applyLayers();
  }

  /** Shows or hides parts of the fleet; returns the layers now drawn. */
  setLayers(l: Partial<FleetLayers>): FleetLayers {
    Object.assign(this.layers, l);
    this.applyLayers();
    return { ...this.layers };
  }

  private applyLayers(): void {
    for (const b of this.batches.values()) {
      b.mesh.visible = this.layers.hulls;
      b.deck.visible = this.layers.superstructures;
    }
    this.markers.mesh.visible = this.layers.markers;
    this.wakes.mesh.visible = this.layers.wakes;
  }

  /** The boat's motion record, created the first time it is seen. */
  private motionOf(id: number): Motion {
    let mo = this.motion.get(id);
    if (!mo) {
      mo = { x: NaN, z: NaN, simTime: NaN, speed: 0, wayX: 0, wayZ: 0, fx: 1, fz: 0, quat: new THREE.Quaternion(), batch: null };
      this.motion.set(id, mo);
    }
    return mo;
  }

  /** The drawn speed: the distance between drawn positions over the sim time between them, smoothed. */
  private track(mo: Motion, x: number, z: number, simTime: number): void {
    const dt = simTime - mo.simTime;
    if (dt > 0 && dt < 2) {
      const vx = (x - mo.x) / dt, vz = (z - mo.z) / dt;
      mo.speed += (Math.hypot(vx, vz) - mo.speed) * Math.min(1, dt / SPEED_SMOOTHING_S);
      const k = Math.min(1, dt / WAY_SMOOTHING_S);
      mo.wayX += (vx - mo.wayX) * k;
      mo.wayZ += (vz - mo.wayZ) * k;
    } else if (!(dt === 0)) mo.speed = mo.wayX = mo.wayZ = 0; // first sight, a jump or a new server's clock
    if (dt !== 0) {
      mo.x = x;
      mo.z = z;
      mo.simTime = simTime;
    }
  }

  /** The state's colour of a boat with these flags and damage entry, null when intact and afloat. */
  private stateColour(flags: number, damage: VesselDamageData | undefined): THREE.Color | null {
    if (damage && damage.flags & DAMAGE_SUNK_FLAG) return SUNK;
    if (flags & FLAG_CAPSIZED) return CAPSIZED;
    if (flags & FLAG_GROUNDED) return GROUNDED;
    if (damage && damage.holes > 0) return DAMAGED;
    return null;
  }

  /**
   * Poses every boat of `pose`; `selected` and `helm` are highlighted
   * (NO_BOAT: none); `damage` gives a boat's damage entry (holes, sunk).
   */
  update(pose: Pose, selected: number, helm: number, damage: (id: number) => VesselDamageData | undefined = () => undefined): void {
    const n = pose.count;
    // Room first: growing replaces the mesh and would lose this frame's matrices.
    for (const b of this.batches.values()) b.count = 0;
    for (let i = 0; i < n; i++) {
      const b = this.batches.get(pose.types[i]);
      if (b) b.count++;
    }
    for (const b of this.batches.values()) {
      this.grow(b, b.count);
      b.count = 0;
    }
    this.markers.begin(n);
    this.wakes.begin(n);
    const seen = new Set<number>();
    let drawn = 0;
    for (let i = 0; i < n; i++) {
      const b = this.batches.get(pose.types[i]) ?? null;
      const id = pose.ids[i];
      this.p.set(pose.pos[3 * i], pose.pos[3 * i + 1], pose.pos[3 * i + 2]);
      let w = this.where.get(id);
      if (!w) this.where.set(id, (w = new THREE.Vector3()));
      w.copy(this.p);
      seen.add(id);
      this.q.set(pose.quat[4 * i], pose.quat[4 * i + 1], pose.quat[4 * i + 2], pose.quat[4 * i + 3]);
      const mo = this.motionOf(id);
      mo.batch = b;
      mo.quat.copy(this.q);
      // The heading: the bow (body +x) in the world, on the horizontal.
      this.v.set(1, 0, 0).applyQuaternion(this.q);
      const h = Math.hypot(this.v.x, this.v.z);
      if (h > 1e-6) {
        mo.fx = this.v.x / h;
        mo.fz = this.v.z / h;
      }
      this.track(mo, this.p.x, this.p.z, pose.simTime);
      const f = pose.flags[i];
      const highlight = f & FLAG_FROZEN ? FROZEN : id === helm ? HELM : id === selected ? SELECTED : null;
      const state = this.stateColour(f, damage(id));
      const colour = highlight ?? state ?? (b ? b.colour : this.c.set(0x888888));
      // Over the boat, and never under the sea: a wreck's marker floats where it went down.
      const markerY = Math.max(this.p.y + (b ? b.boxMax.y : 2) + 1, MARKER_MIN_Y);
      this.markers.add(this.p.x, markerY, this.p.z, mo.fx, mo.fz, state ?? colour, b ? b.length : 10);
      if (!b) continue; // a type without a hull yet: marker only
      const way = Math.hypot(mo.wayX, mo.wayZ);
      if (way > WAKE_MIN_SPEED) this.wakes.add(this.p.x, this.p.z, mo.fx, mo.fz, b.boxMax.x, b.boxMin.x, b.halfBeam, way);
      this.m.compose(this.p, this.q, this.one);
      b.mesh.setMatrixAt(b.count, this.m);
      b.mesh.setColorAt(b.count, colour);
      b.deck.setColorAt(b.count, highlight ? this.tint.copy(DECK).lerp(highlight, DECK_TINT) : DECK);
      b.ids[b.count++] = id;
      drawn++;
    }
    for (const id of this.where.keys()) if (!seen.has(id)) this.where.delete(id);
    for (const id of this.motion.keys()) if (!seen.has(id)) this.motion.delete(id);
    for (const b of this.batches.values()) {
      b.mesh.count = b.deck.count = b.count;
      b.mesh.instanceMatrix.needsUpdate = true;
      if (b.mesh.instanceColor) b.mesh.instanceColor.needsUpdate = true;
      if (b.deck.instanceColor) b.deck.instanceColor.needsUpdate = true;
    }
    this.markers.end();
    this.wakes.end();
    this.drawn = drawn;
  }

  /** Boat `id` as drawn: pose, heading, speed and its box (body frame); null when not drawn. */
  look(id: number): BoatLook | null {
    const w = this.where.get(id), mo = this.motion.get(id);
    if (!w || !mo) return null;
    const b = mo.batch;
    return {
      pos: [w.x, w.y, w.z], quat: [mo.quat.x, mo.quat.y, mo.quat.z, mo.quat.w], heading: [mo.fx, mo.fz], speed: mo.speed, way: Math.hypot(mo.wayX, mo.wayZ),
      length: b ? b.length : NaN, boxMin: b ? [b.boxMin.x, b.boxMin.y, b.boxMin.z] : [0, 0, 0], boxMax: b ? [b.boxMax.x, b.boxMax.y, b.boxMax.z] : [0, 0, 0],
    };
  }

  /** Heading of boat `id`, radians about +y from +x toward -z (the protocol's), NaN when not drawn. */
  headingOf(id: number): number {
    const mo = this.motion.get(id);
    return mo && this.where.has(id) ? Math.atan2(-mo.fz, mo.fx) : NaN;
  }

  /** The drawn boat nearest to (x, z), NO_BOAT when none. */
  nearest(x: number, z: number): number {
    let best = NO_BOAT, bestD = Infinity;
    for (const [id, w] of this.where) {
      const d = (w.x - x) ** 2 + (w.z - z) ** 2;
      if (d < bestD || (d === bestD && id < best)) {
        bestD = d;
        best = id;
      }
    }
    return best;
  }

  /**
   * Moves `p` (world) out of every hull's box grown by `margin` m, through
   * the nearest side, end or top (never down, into the sea). True when it
   * moved.
   */
  keepOutOfHulls(p: THREE.Vector3, margin: number): boolean {
    let moved = false;
    const local = this.v, inv = this.q;
    for (const [id, w] of this.where) {
      const mo = this.motion.get(id);
      const b = mo?.batch;
      if (!mo || !b) continue;
      const r = Math.max(b.boxMax.length(), b.boxMin.length()) + margin;
      if (p.distanceToSquared(w) > r * r) continue;
      local.copy(p).sub(w).applyQuaternion(inv.copy(mo.quat).invert());
      const lo = b.boxMin, hi = b.boxMax;
      const out = [
        local.x - (lo.x - margin), (hi.x + margin) - local.x,
        local.z - (lo.z - margin), (hi.z + margin) - local.z,
        (hi.y + margin) - local.y,
      ];
      if (out.some((d) => d <= 0) || local.y < lo.y - margin) continue; // outside
      const k = out.indexOf(Math.min(...out));
      if (k === 0) local.x = lo.x - margin;
      else if (k === 1) local.x = hi.x + margin;
      else if (k === 2) local.z = lo.z - margin;
      else if (k === 3) local.z = hi.z + margin;
      else local.y = hi.y + margin;
      p.copy(local.applyQuaternion(mo.quat)).add(w);
      moved = true;
    }
    return moved;
  }

  /** The colour boat `id`'s hull was given in the last update (sRGB hex), "" when not drawn. */
  colourOf(id: number): string {
    for (const b of this.batches.values())
      for (let i = 0; i < b.count; i++)
        if (b.ids[i] === id && b.mesh.instanceColor) {
          const a = b.mesh.instanceColor.array;
          return `#${this.c.setRGB(a[3 * i], a[3 * i + 1], a[3 * i + 2]).getHexString()}`;
        }
    return "";
  }

  /** The boat under a ray (its hull or superstructure), else the boat nearest to the click within `px` pixels. */
  pick(raycaster: THREE.Raycaster, camera: THREE.Camera, ndc: THREE.Vector2, viewport: { w: number; h: number }, px = 12): number {
    let best = NO_BOAT, bestDist = Infinity;
    for (const b of this.batches.values()) {
      if (!b.count) continue;
      for (const mesh of [b.mesh, b.deck]) {
        mesh.computeBoundingSphere();
        for (const hit of raycaster.intersectObject(mesh, false)) {
          if (hit.instanceId !== undefined && hit.distance < bestDist) {
            bestDist = hit.distance;
            best = b.ids[hit.instanceId];
          }
        }
      }
    }
    if (best !== NO_BOAT) return best;
    let bestPx = px * px;
    const v = new THREE.Vector3();
    for (const [id, w] of this.where) {
      v.copy(w).project(camera);
      if (v.z > 1) continue;
      const dx = ((v.x - ndc.x) * viewport.w) / 2, dy = ((v.y - ndc.y) * viewport.h) / 2;
      const d = dx * dx + dy * dy;
      if (d < bestPx) {
        bestPx = d;
        best = id;
      }
    }
    return best;
  }
}
