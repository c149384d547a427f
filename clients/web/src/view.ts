// SPDX-License-Identifier: MIT
// The 3D view: renderer, sky and light, the water, the fleet, an orbit
// camera that can ride along with a boat, and clicks turned into boats.

import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { Fleet, NO_BOAT } from "./fleet";
import { Flashes } from "./flashes";
import { Ground } from "./ground";
import type { Ocean } from "./ocean";
import type { Pose } from "./timeline";
import { Water } from "./water";

export interface PixelSample {
  width: number;
  height: number;
  /** Distinct colours among the sampled pixels (quantised to 4 bits a channel). */
  distinct: number;
  /** Standard deviation of the luma over the samples (0..255). */
  lumaStd: number;
  /** RGB at the centre of the view. */
  centre: [number, number, number];
}

export class View {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly camera: THREE.PerspectiveCamera;
  readonly controls: OrbitControls;
  readonly water: Water;
  readonly fleet = new Fleet();
  readonly flashes = new Flashes();
  readonly ground = new Ground();
  private readonly raycaster = new THREE.Raycaster();
  private followed = NO_BOAT;
  private readonly lastTarget = new THREE.Vector3();
  private placed = false;

  /** low: no antialiasing, one pixel per CSS pixel, a coarser sea (software GL, slow machines). */
  constructor(private readonly canvas: HTMLCanvasElement, low = false) {
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: !low });
    this.renderer.setPixelRatio(low ? 1 : Math.min(window.devicePixelRatio, 2));
    const horizon = new THREE.Color(0xb9cbd8);
    this.scene.background = horizon;
    this.camera = new THREE.PerspectiveCamera(50, 1, 0.5, 40000);
    this.camera.position.set(0, 300, 600);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = true;
    this.controls.maxPolarAngle = Math.PI / 2 - 0.03; // stay above the sea
    this.controls.minDistance = 5;
    this.controls.maxDistance = 15000;
    const sun = new THREE.Vector3(0.4, 0.55, -0.35).normalize();
    this.water = new Water({ sky: new THREE.Color(0x4f7fae), horizon, deep: new THREE.Color(0x1d5b7c), sun }, low ? 112 : 192);
    this.scene.add(this.water.mesh);
    this.scene.add(this.fleet.group);
    this.scene.add(this.flashes.points);
    this.scene.add(this.ground.group);
    this.scene.add(new THREE.HemisphereLight(0xdfefff, 0x20384a, 1.4));
    const light = new THREE.DirectionalLight(0xfff4e0, 2.2);
    light.position.copy(sun).multiplyScalar(1000);
    this.scene.add(light);
    this.resize();
    window.addEventListener("resize", () => this.resize());
  }

  resize(): void {
    const w = this.canvas.clientWidth || 640, h = this.canvas.clientHeight || 480;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  setOcean(ocean: Ocean | null): void {
    this.water.setOcean(ocean);
  }

  /** Points the camera at the fleet the first time there is one. */
  frameFleet(pose: Pose): void {
    if (this.placed || !pose.count) return;
    let cx = 0, cz = 0, r = 0;
    for (let i = 0; i < pose.count; i++) {
      cx += pose.pos[3 * i];
      cz += pose.pos[3 * i + 2];
    }
    cx /= pose.count;
    cz /= pose.count;
    for (let i = 0; i < pose.count; i++) r = Math.max(r, Math.hypot(pose.pos[3 * i] - cx, pose.pos[3 * i + 2] - cz));
    const d = Math.min(4000, Math.max(80, 1.3 * r));
    this.controls.target.set(cx, 0, cz);
    this.camera.position.set(cx + 0.3 * d, 0.55 * d, cz + 0.8 * d);
    this.lastTarget.copy(this.controls.target);
    this.placed = true;
  }

  /** Moves the camera's target to (x, z) on the sea, keeping the camera's offset. */
  lookAt(x: number, z: number): void {
    const off = this.camera.position.clone().sub(this.controls.target);
    this.controls.target.set(x, 0, z);
    this.camera.position.copy(this.controls.target).add(off);
    this.lastTarget.copy(this.controls.target);
    this.placed = true;
  }

  /** Rides along with boat `id` (NO_BOAT: stop); the camera keeps its offset. */
  follow(id: number, closeUp = false): void {
    this.followed = id;
    const w = this.fleet.where.get(id);
    if (w && closeUp) {
      // Close enough to see the boat, whatever its size.
      const off = this.camera.position.clone().sub(this.controls.target);
      const len = this.fleet.lengthOf(id);
      off.setLength(Math.min(400, Math.max(30, 5 * (Number.isFinite(len) ? len : 20))));
      this.controls.target.copy(w);
      this.camera.position.copy(w).add(off);
      this.lastTarget.copy(w);
    }
  }

  get following(): number {
    return this.followed;
  }

  /** Poses the boats, moves the camera with the followed one, draws. */
  frame(pose: Pose, selected: number, helm: number): void {
    this.fleet.update(pose, selected, helm);
    this.flashes.update(performance.now() / 1000);
    const w = this.fleet.where.get(this.followed);
    if (w) {
      const delta = w.clone().sub(this.lastTarget);
      this.controls.target.add(delta);
      this.camera.position.add(delta);
    }
    this.controls.update();
    this.lastTarget.copy(this.controls.target);
    const t = this.controls.target;
    this.water.follow(t.x, t.z, this.camera.position.distanceTo(t));
    this.renderer.render(this.scene, this.camera);
  }

  /** The boat under a canvas pixel, NO_BOAT when none. */
  pick(clientX: number, clientY: number): number {
    const r = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.camera);
    return this.fleet.pick(this.raycaster, this.camera, ndc, { w: r.width, h: r.height });
  }

  /** Where boat `id` is on the canvas (CSS pixels), null when not drawn or behind the camera. */
  screenOf(id: number): { x: number; y: number } | null {
    const w = this.fleet.where.get(id);
    if (!w) return null;
    const v = w.clone().project(this.camera);
    if (v.z > 1) return null;
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
  }

  /**
   * Draws a frame and reads its pixels back at once (the drawing buffer is
   * not kept after compositing): a check that the canvas shows something.
   */
  samplePixels(pose: Pose, selected: number, helm: number): PixelSample {
    this.frame(pose, selected, helm);
    const gl = this.renderer.getContext();
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const px = new Uint8Array(4 * w * h);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    const colours = new Set<number>();
    let sum = 0, sum2 = 0, n = 0;
    const step = Math.max(1, Math.floor(Math.sqrt((w * h) / 20000)));
    for (let y = 0; y < h; y += step)
      for (let x = 0; x < w; x += step) {
        const i = 4 * (y * w + x);
        colours.add(((px[i] >> 4) << 8) | ((px[i + 1] >> 4) << 4) | (px[i + 2] >> 4));
        const l = 0.299 * px[i] + 0.587 * px[i + 1] + 0.114 * px[i + 2];
        sum += l;
        sum2 += l * l;
        n++;
      }
    const mean = sum / n;
    const c = 4 * ((h >> 1) * w + (w >> 1));
    return { width: w, height: h, distinct: colours.size, lumaStd: Math.sqrt(Math.max(0, sum2 / n - mean * mean)), centre: [px[c], px[c + 1], px[c + 2]] };
  }
}
