// SPDX-License-Identifier: MIT
// Contacts as flashes: every contact a snapshot reports (naval.fbs
// Contact) lights a point where it happened, bright for a hard blow, that
// fades over FADE_S seconds: red between boats, sand-yellow on the ground.

import * as THREE from "three";
import { CONTACT_GROUND, type ContactData } from "./wire";

const FADE_S = 1.5;
const MAX_FLASHES = 256;
const VESSEL = new THREE.Color(0xff3b2f);
const GROUND = new THREE.Color(0xf2c14e);

interface Flash {
  x: number;
  y: number;
  z: number;
  born: number; // s, page clock
  ground: boolean;
}

export class Flashes {
  readonly points: THREE.Points;
  private readonly pos = new Float32Array(3 * MAX_FLASHES);
  private readonly col = new Float32Array(3 * MAX_FLASHES);
  private live: Flash[] = [];
  /** Contacts seen since the page opened: between boats, and with the ground. */
  vessels = 0;
  ground = 0;

  constructor() {
    const g = new THREE.BufferGeometry();
    g.setAttribute("position", new THREE.BufferAttribute(this.pos, 3).setUsage(THREE.DynamicDrawUsage));
    g.setAttribute("color", new THREE.BufferAttribute(this.col, 3).setUsage(THREE.DynamicDrawUsage));
    g.setDrawRange(0, 0);
    this.points = new THREE.Points(g, new THREE.PointsMaterial({ size: 18, sizeAttenuation: false, vertexColors: true, depthTest: false, transparent: true }));
    this.points.frustumCulled = false;
    this.points.renderOrder = 3;
  }

  /** The contacts of one snapshot, seen at `now` (s). The oldest flashes give way. */
  add(contacts: ContactData[], now: number): void {
    for (const c of contacts) {
      const ground = c.b === CONTACT_GROUND;
      if (ground) this.ground++;
      else this.vessels++;
      this.live.push({ x: c.point[0], y: c.point[1] + 2, z: c.point[2], born: now, ground });
    }
    if (this.live.length > MAX_FLASHES) this.live.splice(0, this.live.length - MAX_FLASHES);
  }

  /** Fades the flashes to `now` and drops the spent ones. */
  update(now: number): void {
    this.live = this.live.filter((f) => now - f.born < FADE_S);
    this.live.forEach((f, i) => {
      const k = 1 - (now - f.born) / FADE_S;
      const c = f.ground ? GROUND : VESSEL;
      this.pos[3 * i] = f.x;
      this.pos[3 * i + 1] = f.y;
      this.pos[3 * i + 2] = f.z;
      this.col[3 * i] = c.r * k;
      this.col[3 * i + 1] = c.g * k;
      this.col[3 * i + 2] = c.b * k;
    });
    const g = this.points.geometry;
    g.setDrawRange(0, this.live.length);
    g.getAttribute("position").needsUpdate = true;
    g.getAttribute("color").needsUpdate = true;
  }

  get count(): number {
    return this.live.length;
  }
}
