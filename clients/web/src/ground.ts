// SPDX-License-Identifier: MIT
// The ground the server sends in its world info (TerrainInfo): one mesh of
// the heightfield, coloured by elevation (seabed, sand at the waterline,
// grass, rock), so that spectators see the island the boats steer round
// and the beach they run onto. The water is drawn over it. The structures
// (quays, piers: StructureInfo) are drawn as the convex hulls boats
// collide with, in concrete grey.

import * as THREE from "three";
import type { StructureData, TerrainData } from "./wire";

const SEABED = new THREE.Color(0x4d6b73);
const SAND = new THREE.Color(0xd8c48a);
const GRASS = new THREE.Color(0x6f8f4e);
const ROCK = new THREE.Color(0x8a877c);
const CONCRETE = 0x9a9a94;

/** The colour of ground at elevation e (m): blended between bands. */
function colourAt(e: number, out: THREE.Color): THREE.Color {
  if (e < -3) return out.copy(SEABED);
  if (e < 0) return out.copy(SEABED).lerp(SAND, (e + 3) / 3);
  if (e < 2) return out.copy(SAND);
  if (e < 6) return out.copy(SAND).lerp(GRASS, (e - 2) / 4);
  if (e < 15) return out.copy(GRASS).lerp(ROCK, (e - 6) / 9);
  return out.copy(ROCK);
}

export class Ground {
  readonly group = new THREE.Group();
  private mesh: THREE.Mesh | null = null;
  private built: THREE.Mesh[] = [];
  /** Nodes drawn (0: no ground). */
  nodes = 0;
  /** Structures drawn. */
  structures = 0;

  /** Replaces the structures (world frame triangles; none: nothing drawn). */
  setStructures(list: StructureData[]): void {
    for (const m of this.built) {
      this.group.remove(m);
      m.geometry.dispose();
      (m.material as THREE.Material).dispose();
    }
    this.built = [];
    for (const st of list) {
      if (st.indices.length < 12) continue;
      const g = new THREE.BufferGeometry();
      g.setAttribute("position", new THREE.BufferAttribute(st.vertices, 3));
      g.setIndex(new THREE.BufferAttribute(st.indices, 1));
      g.computeVertexNormals();
      const m = new THREE.Mesh(g, new THREE.MeshStandardMaterial({ color: CONCRETE, roughness: 0.9, metalness: 0, flatShading: true }));
      this.group.add(m);
      this.built.push(m);
    }
    this.structures = this.built.length;
  }

  /** Replaces the ground (null: open sea, nothing drawn). */
  set(t: TerrainData | null): void {
    if (this.mesh) {
      this.group.remove(this.mesh);
      this.mesh.geometry.dispose();
      (this.mesh.material as THREE.Material).dispose();
      this.mesh = null;
    }
    this.nodes = 0;
    if (!t) return;
    const n = t.nx * t.nz;
    const pos = new Float32Array(3 * n), col = new Float32Array(3 * n);
    const c = new THREE.Color();
    for (let j = 0; j < t.nz; j++)
      for (let i = 0; i < t.nx; i++) {
        const k = j * t.nx + i, e = t.elevation[k];
        pos[3 * k] = t.originX + i * t.cell;
        pos[3 * k + 1] = e;
        pos[3 * k + 2] = t.originZ + j * t.cell;
        colourAt(e, c);
        col[3 * k] = c.r;
        col[3 * k + 1] = c.g;
        col[3 * k + 2] = c.b;
      }
    const idx = new Uint32Array(6 * (t.nx - 1) * (t.nz - 1));
    let m = 0;
    for (let j = 0; j + 1 < t.nz; j++)
      for (let i = 0; i + 1 < t.nx; i++) {
        const a = j * t.nx + i, b = a + 1, d = a + t.nx, e = d + 1;
        // counter-clockwise seen from above (+y): a, d, b and b, d, e
        idx.set([a, d, b, b, d, e], m);
        m += 6;
      }
    const g = new THREE.BufferGeometry();
    g.setAttribute("position", new THREE.BufferAttribute(pos, 3));
    g.setAttribute("color", new THREE.BufferAttribute(col, 3));
    g.setIndex(new THREE.BufferAttribute(idx, 1));
    g.computeVertexNormals();
    this.mesh = new THREE.Mesh(g, new THREE.MeshStandardMaterial({ vertexColors: true, roughness: 0.95, metalness: 0, flatShading: true }));
    this.group.add(this.mesh);
    this.nodes = n;
  }
}
