// SPDX-License-Identifier: MIT
// The boats: one InstancedMesh per vessel type, built from the hull mesh
// the server sends (GetHull: body frame about the CG, +x bow, +y up, the
// world's axes too), so thousands of boats cost one draw call per type.
// Every boat also gets a screen-sized marker above it: a 5 m skiff is a
// fraction of a pixel in a view of the whole fleet.

import * as THREE from "three";
import type { Pose } from "./timeline";
import { FLAG_FROZEN, FLAG_GROUNDED, type HullData, type VesselTypeData } from "./wire";

const PALETTE = [0xe8e4da, 0x9fb6c8, 0x7d8c6a, 0xc9a27e, 0xb0a0c8, 0x8fc0b0];
const SELECTED = new THREE.Color(0xffd84a);
const HELM = new THREE.Color(0xff7a2e);
const FROZEN = new THREE.Color(0xd03030);
const GROUNDED = new THREE.Color(0xd9a441); // aground: sand
/** Vessel ids start at 0: "no boat" is -1. */
export const NO_BOAT = -1;

interface TypeBatch {
  type: number;
  mesh: THREE.InstancedMesh;
  /** Instance -> vessel id, this frame. */
  ids: Uint32Array;
  count: number;
  colour: THREE.Color;
  height: number; // top of the hull above the CG, m
  length: number; // bow to stern, m
}

export class Fleet {
  readonly group = new THREE.Group();
  private batches = new Map<number, TypeBatch>();
  private readonly material = new THREE.MeshStandardMaterial({ roughness: 0.65, metalness: 0.05, flatShading: true });
  private readonly markers: THREE.Points;
  private markerPos = new Float32Array(0);
  private markerCol = new Float32Array(0);
  private readonly m = new THREE.Matrix4();
  private readonly q = new THREE.Quaternion();
  private readonly p = new THREE.Vector3();
  private readonly one = new THREE.Vector3(1, 1, 1);
  private readonly c = new THREE.Color();
  /** Boats drawn in the last update (hull instances; the markers are the same boats). */
  drawn = 0;
  /** World position of every boat drawn, by id (for follow and picking). */
  readonly where = new Map<number, THREE.Vector3>();

  constructor() {
    const g = new THREE.BufferGeometry();
    this.markers = new THREE.Points(g, new THREE.PointsMaterial({ size: 7, sizeAttenuation: false, vertexColors: true, depthTest: false, transparent: true, opacity: 0.9 }));
    this.markers.frustumCulled = false;
    this.markers.renderOrder = 2;
    this.group.add(this.markers);
  }

  /** Builds a batch per type from its hull (replacing the old ones). */
  setTypes(types: VesselTypeData[], hulls: Map<number, HullData>): void {
    for (const b of this.batches.values()) {
      this.group.remove(b.mesh);
      b.mesh.geometry.dispose();
      b.mesh.dispose();
    }
    this.batches.clear();
    types.forEach((t, i) => {
      const hull = hulls.get(t.type);
      if (!hull) return;
      const g = new THREE.BufferGeometry();
      g.setAttribute("position", new THREE.BufferAttribute(hull.vertices, 3));
      g.setIndex(new THREE.BufferAttribute(hull.indices, 1));
      g.computeVertexNormals();
      const colour = new THREE.Color(PALETTE[i % PALETTE.length]);
      const batch: TypeBatch = { type: t.type, mesh: this.makeMesh(g, 16), ids: new Uint32Array(16), count: 0, colour, height: t.boundsMax[1], length: t.boundsMax[0] - t.boundsMin[0] };
      this.batches.set(t.type, batch);
      this.group.add(batch.mesh);
    });
  }

  /** Length of boat `id`'s hull (m), NaN when not drawn. */
  lengthOf(id: number): number {
    for (const b of this.batches.values())
      for (let i = 0; i < b.count; i++) if (b.ids[i] === id) return b.length;
    return NaN;
  }

  typeColour(type: number): string {
    const b = this.batches.get(type);
    return b ? `#${b.colour.getHexString()}` : "#888";
  }

  private makeMesh(g: THREE.BufferGeometry, capacity: number): THREE.InstancedMesh {
    const mesh = new THREE.InstancedMesh(g, this.material, capacity);
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
    this.group.remove(b.mesh);
    const g = b.mesh.geometry;
    b.mesh.dispose();
    b.mesh = this.makeMesh(g, cap);
    this.group.add(b.mesh);
    const ids = new Uint32Array(cap);
    ids.set(b.ids);
    b.ids = ids;
  }

  /** Poses every boat of `pose`; `selected` and `helm` are highlighted (NO_BOAT: none). */
  update(pose: Pose, selected: number, helm: number): void {
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
    if (this.markerPos.length < 3 * n) {
      const cap = Math.max(3 * n, 2 * this.markerPos.length);
      this.markerPos = new Float32Array(cap);
      this.markerCol = new Float32Array(cap);
      const g = this.markers.geometry;
      g.setAttribute("position", new THREE.BufferAttribute(this.markerPos, 3).setUsage(THREE.DynamicDrawUsage));
      g.setAttribute("color", new THREE.BufferAttribute(this.markerCol, 3).setUsage(THREE.DynamicDrawUsage));
    }
    const seen = new Set<number>();
    let drawn = 0;
    for (let i = 0; i < n; i++) {
      const b = this.batches.get(pose.types[i]);
      const id = pose.ids[i];
      this.p.set(pose.pos[3 * i], pose.pos[3 * i + 1], pose.pos[3 * i + 2]);
      let w = this.where.get(id);
      if (!w) this.where.set(id, (w = new THREE.Vector3()));
      w.copy(this.p);
      seen.add(id);
      const f = pose.flags[i];
      const colour = f & FLAG_FROZEN ? FROZEN : id === helm ? HELM : id === selected ? SELECTED : f & FLAG_GROUNDED ? GROUNDED : b ? b.colour : this.c.set(0x888888);
      this.markerPos[3 * i] = this.p.x;
      this.markerPos[3 * i + 1] = this.p.y + (b ? b.height : 2) + 3;
      this.markerPos[3 * i + 2] = this.p.z;
      this.markerCol[3 * i] = colour.r;
      this.markerCol[3 * i + 1] = colour.g;
      this.markerCol[3 * i + 2] = colour.b;
      if (!b) continue; // a type without a hull yet: marker only
      this.q.set(pose.quat[4 * i], pose.quat[4 * i + 1], pose.quat[4 * i + 2], pose.quat[4 * i + 3]);
      this.m.compose(this.p, this.q, this.one);
      b.mesh.setMatrixAt(b.count, this.m);
      b.mesh.setColorAt(b.count, colour);
      b.ids[b.count++] = id;
      drawn++;
    }
    for (const id of this.where.keys()) if (!seen.has(id)) this.where.delete(id);
    for (const b of this.batches.values()) {
      b.mesh.count = b.count;
      b.mesh.instanceMatrix.needsUpdate = true;
      if (b.mesh.instanceColor) b.mesh.instanceColor.needsUpdate = true;
    }
    const g = this.markers.geometry;
    g.setDrawRange(0, n);
    if (n) {
      g.getAttribute("position").needsUpdate = true;
      g.getAttribute("color").needsUpdate = true;
    }
    this.drawn = drawn;
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

  /** The boat under a ray (its hull), else the marker nearest to the click within `px` pixels. */
  pick(raycaster: THREE.Raycaster, camera: THREE.Camera, ndc: THREE.Vector2, viewport: { w: number; h: number }, px = 12): number {
    let best = NO_BOAT, bestDist = Infinity;
    for (const b of this.batches.values()) {
      if (!b.count) continue;
      b.mesh.computeBoundingSphere();
      for (const hit of raycaster.intersectObject(b.mesh, false)) {
        if (hit.instanceId !== undefined && hit.distance < bestDist) {
          bestDist = hit.distance;
          best = b.ids[hit.instanceId];
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
