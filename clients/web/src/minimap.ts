// SPDX-License-Identifier: MIT
// The minimap: the world from above (+x right, -z up, as naval-watch draws
// it) in a small canvas of the side panel: land from the world info's
// terrain, the structures, every boat a dot in its type's colour (the
// followed one and the helm's ringed), the camera's target and where it
// looks from. A click there moves the camera's target (the page frees the
// follow). Drawn only while its box is open, at most 5 times a second.

import type { StructureData, TerrainData } from "./wire";
import type { Pose } from "./timeline";

const REDRAW_MS = 200;
const MARGIN = 0.08; // of the extent, around the boats and the ground

/** What the map drew last (for the tests): boats, land pixels, and the world at the canvas's top left corner (x0, z0) with the metres its shorter side spans. */
export interface MinimapDrawn {
  boats: number;
  landPixels: number;
  box: [number, number, number];
}

export class Minimap {
  private land: HTMLCanvasElement | null = null;
  private landBox: [number, number, number, number] = [0, 0, 0, 0]; // x0, z0, x1, z1 of the land image
  private structures: StructureData[] = [];
  private terrainBox: [number, number, number, number] | null = null;
  private last = -Infinity;
  private box: [number, number, number] = [0, 0, 1]; // x0, z0, size (m) of the square drawn
  drawn: MinimapDrawn = { boats: 0, landPixels: 0, box: [0, 0, 0] };

  constructor(private readonly canvas: HTMLCanvasElement, private readonly open: () => boolean, onPick: (x: number, z: number) => void) {
    canvas.addEventListener("click", (e) => {
      const r = canvas.getBoundingClientRect();
      const [x0, z0, size] = this.box, s = Math.min(canvas.width, canvas.height) / size;
      onPick(x0 + (((e.clientX - r.left) / r.width) * canvas.width) / s, z0 + (((e.clientY - r.top) / r.height) * canvas.height) / s);
    });
  }

  /** The world's ground and structures (drawn under the boats). */
  setWorld(terrain: TerrainData | null, structures: StructureData[]): void {
    this.structures = structures;
    this.land = null;
    this.terrainBox = null;
    this.last = -Infinity;
    if (!terrain) return;
    const { nx, nz, originX, originZ, cell, elevation } = terrain;
    const img = document.createElement("canvas");
    img.width = nx;
    img.height = nz;
    const g = img.getContext("2d");
    if (!g) return;
    const px = g.createImageData(nx, nz);
    for (let j = 0; j < nz; j++)
      for (let i = 0; i < nx; i++) {
        const e = elevation[j * nx + i], k = 4 * (j * nx + i);
        if (e <= 0) continue;
        const rgb = e < 2 ? [216, 196, 138] : e < 10 ? [111, 143, 78] : [138, 135, 124];
        px.data.set([...rgb, 255], k);
      }
    g.putImageData(px, 0, 0);
    this.land = img;
    this.landBox = [originX - cell / 2, originZ - cell / 2, originX + (nx - 0.5) * cell, originZ + (nz - 0.5) * cell];
    let lx0 = Infinity, lx1 = -Infinity, lz0 = Infinity, lz1 = -Infinity;
    for (let j = 0; j < nz; j++)
      for (let i = 0; i < nx; i++)
        if (elevation[j * nx + i] > 0) {
          const x = originX + i * cell, z = originZ + j * cell;
          lx0 = Math.min(lx0, x), lx1 = Math.max(lx1, x), lz0 = Math.min(lz0, z), lz1 = Math.max(lz1, z);
        }
    if (lx1 >= lx0) this.terrainBox = [lx0, lz0, lx1, lz1];
  }

  /** Draws the map when its box is open and REDRAW_MS have passed. */
  draw(now: number, pose: Pose, colourOfType: (type: number) => string, followed: number, helm: number,
    target: { x: number; z: number }, eye: { x: number; z: number }): void {
    if (!this.open() || now - this.last < REDRAW_MS) return;
    this.last = now;
    const g = this.canvas.getContext("2d");
    if (!g) return;
    // The square that holds the boats, the land and the camera's target.
    let x0 = target.x, x1 = target.x, z0 = target.z, z1 = target.z;
    for (let i = 0; i < pose.count; i++) {
      const x = pose.pos[3 * i], z = pose.pos[3 * i + 2];
      if (Number.isFinite(x) && Number.isFinite(z)) x0 = Math.min(x0, x), x1 = Math.max(x1, x), z0 = Math.min(z0, z), z1 = Math.max(z1, z);
    }
    if (this.terrainBox) {
      const [a, b, c, d] = this.terrainBox;
      x0 = Math.min(x0, a), z0 = Math.min(z0, b), x1 = Math.max(x1, c), z1 = Math.max(z1, d);
    }
    // centred, `size` m across the canvas's shorter side
    const size = Math.max(100, x1 - x0, z1 - z0) * (1 + 2 * MARGIN);
    const W = this.canvas.width, H = this.canvas.height, s = Math.min(W, H) / size;
    this.box = [0.5 * (x0 + x1) - W / (2 * s), 0.5 * (z0 + z1) - H / (2 * s), size];
    const sx = (x: number) => (x - this.box[0]) * s, sz = (z: number) => (z - this.box[1]) * s;
    g.fillStyle = "#1d4f6e";
    g.fillRect(0, 0, W, H);
    let landPixels = 0;
    if (this.land) {
      const [a, b, c, d] = this.landBox;
      g.imageSmoothingEnabled = false;
      g.drawImage(this.land, sx(a), sz(b), (c - a) * s, (d - b) * s);
      const px = g.getImageData(0, 0, W, H).data;
      for (let k = 0; k < px.length; k += 4) if (px[k] > 100) landPixels++;
    }
    g.fillStyle = "#9a9a94";
    for (const st of this.structures) {
      g.beginPath();
      for (let t = 0; t < st.indices.length; t += 3) {
        const v = [st.indices[t], st.indices[t + 1], st.indices[t + 2]];
        g.moveTo(sx(st.vertices[3 * v[0]]), sz(st.vertices[3 * v[0] + 2]));
        g.lineTo(sx(st.vertices[3 * v[1]]), sz(st.vertices[3 * v[1] + 2]));
        g.lineTo(sx(st.vertices[3 * v[2]]), sz(st.vertices[3 * v[2] + 2]));
        g.closePath();
      }
      g.fill();
    }
    let boats = 0;
    for (let i = 0; i < pose.count; i++) {
      const x = sx(pose.pos[3 * i]), y = sz(pose.pos[3 * i + 2]);
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      g.fillStyle = colourOfType(pose.types[i]);
      g.fillRect(x - 1.5, y - 1.5, 3, 3);
      const id = pose.ids[i];
      if (id === followed || id === helm) {
        g.strokeStyle = id === helm ? "#ff7a2e" : "#ffd84a";
        g.lineWidth = 1.5;
        g.beginPath();
        g.arc(x, y, 5, 0, 2 * Math.PI);
        g.stroke();
      }
      boats++;
    }
    // The camera: a line from where it looks from to its target.
    g.strokeStyle = "#ffffffcc";
    g.lineWidth = 1;
    g.beginPath();
    g.moveTo(sx(eye.x), sz(eye.z));
    g.lineTo(sx(target.x), sz(target.z));
    g.stroke();
    g.strokeRect(sx(target.x) - 3, sz(target.z) - 3, 6, 6);
    this.drawn = { boats, landPixels, box: [...this.box] };
  }
}
