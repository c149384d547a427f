// SPDX-License-Identifier: MIT
// Spray where a hull strikes: every contact a snapshot or a view reports
// (naval.fbs Contact) at more than MIN_SPEED throws droplets up from its
// point, more and higher for a harder blow (its closing speed), which fly
// under gravity and fade, and end when they fall back into the sea. A
// fixed pool: the oldest droplets give way, nothing is allocated per frame.
// The flashes (flashes.ts) say where and with what; the spray says how hard.

import * as THREE from "three";
import type { ContactData } from "./wire";

/** Closing speed (m/s) under which a contact throws nothing: a boat settling against a quay. */
const MIN_SPEED = 0.4;
const MAX_DROPS = 2048;
const LIFE_S = 2.2;
const GRAVITY = 9.81;
/** Droplets per m/s of closing speed, and at most per contact. */
const DROPS_PER_MPS = 14;
const MAX_PER_CONTACT = 160;
const COLOUR = new THREE.Color(0xf4f8ff);

export class Spray {
  readonly points: THREE.Points;
  private readonly pos = new Float32Array(3 * MAX_DROPS);
  private readonly col = new Float32Array(4 * MAX_DROPS);
  // Per droplet: its launch point, velocity, the sea level it falls back to, birth (s).
  private readonly p0 = new Float32Array(3 * MAX_DROPS);
  private readonly v0 = new Float32Array(3 * MAX_DROPS);
  private readonly sea = new Float32Array(MAX_DROPS);
  private readonly born = new Float64Array(MAX_DROPS).fill(-Infinity);
  private next = 0;
  private seed = 0x9e3779b9;
  private alive = 0;
  /** Droplets thrown since the page opened, and the contacts that threw them. */
  thrown = 0;
  throws = 0;

  constructor() {
    const g = new THREE.BufferGeometry();
    g.setAttribute("position", new THREE.BufferAttribute(this.pos, 3).setUsage(THREE.DynamicDrawUsage));
    g.setAttribute("color", new THREE.BufferAttribute(this.col, 4).setUsage(THREE.DynamicDrawUsage));
    g.setDrawRange(0, 0);
    this.points = new THREE.Points(g, new THREE.PointsMaterial({
      size: 0.45, sizeAttenuation: true, vertexColors: true, transparent: true, depthWrite: false,
    }));
    this.points.frustumCulled = false;
    this.points.renderOrder = 2;
  }

  /** A uniform number in [0, 1): the same droplets for the same contacts (screenshots compare). */
  private random(): number {
    let t = (this.seed = (this.seed + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** The contacts of one snapshot or view update, seen at `now` (s). */
  add(contacts: readonly ContactData[], now: number): void {
    for (const c of contacts) {
      const speed = Math.abs(c.closingSpeed);
      if (!(speed >= MIN_SPEED)) continue;
      const n = Math.min(MAX_PER_CONTACT, Math.round(DROPS_PER_MPS * speed));
      // Up at about the speed of the blow (a sheet thrown as high as the
      // closing speed's head, v^2 / 2g), outward on all sides.
      const up = Math.min(14, 1.5 + 0.9 * speed);
      const [x, y, z] = c.point;
      const sea = Math.min(y, 0.5);
      for (let k = 0; k < n; k++) {
        const i = this.next;
        this.next = (this.next + 1) % MAX_DROPS;
        const a = 2 * Math.PI * this.random(), out = up * (0.25 + 0.45 * this.random());
        this.p0[3 * i] = x + 0.6 * (this.random() - 0.5);
        this.p0[3 * i + 1] = Math.max(y, sea);
        this.p0[3 * i + 2] = z + 0.6 * (this.random() - 0.5);
        this.v0[3 * i] = out * Math.cos(a);
        this.v0[3 * i + 1] = up * (0.55 + 0.45 * this.random());
        this.v0[3 * i + 2] = out * Math.sin(a);
        this.sea[i] = sea;
        this.born[i] = now;
      }
      this.thrown += n;
      this.throws++;
    }
  }

  /** The droplets at `now` (s): flown, faded, and those back in the sea gone. */
  update(now: number): void {
    let m = 0;
    for (let i = 0; i < MAX_DROPS; i++) {
      const t = now - this.born[i];
      if (!(t >= 0 && t < LIFE_S)) continue;
      const y = this.p0[3 * i + 1] + this.v0[3 * i + 1] * t - 0.5 * GRAVITY * t * t;
      if (y < this.sea[i] && t > 0.05) {
        this.born[i] = -Infinity; // back in the sea
        continue;
      }
      this.pos[3 * m] = this.p0[3 * i] + this.v0[3 * i] * t;
      this.pos[3 * m + 1] = y;
      this.pos[3 * m + 2] = this.p0[3 * i + 2] + this.v0[3 * i + 2] * t;
      this.col[4 * m] = COLOUR.r;
      this.col[4 * m + 1] = COLOUR.g;
      this.col[4 * m + 2] = COLOUR.b;
      this.col[4 * m + 3] = 0.9 * (1 - t / LIFE_S);
      m++;
    }
    this.alive = m;
    const g = this.points.geometry;
    g.setDrawRange(0, m);
    g.getAttribute("position").needsUpdate = true;
    g.getAttribute("color").needsUpdate = true;
  }

  /** Droplets drawn in the last update. */
  get count(): number {
    return this.alive;
  }
}
