// SPDX-License-Identifier: MIT
// The 3D view: renderer, sky and light, the water, the fleet, an orbit
// camera that can ride along with a boat, and clicks turned into boats.
// The camera opens close behind and above one boat (a third-person view
// that turns with it); the user can still orbit and zoom. Whatever the
// controls or the code ask, the camera stays above the waves and out of
// every hull.

import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import type { VesselDamageData } from "./damage";
import { Fleet, NO_BOAT, type BoatLook, type FleetLayers } from "./fleet";
import { Flashes } from "./flashes";
import { Spray } from "./spray";
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

/** Where the camera is, what it looks at, and the sea's height under it (m). */
export interface CameraState {
  position: [number, number, number];
  target: [number, number, number];
  seaHeight: number;
}

/** The camera keeps this far above the sea's surface under it, m. */
export const CAMERA_SEA_MARGIN = 1.5;
/** ... and this far out of every hull's box (hull and superstructure), m. */
export const CAMERA_HULL_MARGIN = 1;
/** The third-person camera: elevation, and bearing off the stern (to port), degrees. */
const CHASE_ELEVATION_DEG = 20;
/** The overview's elevation (degrees) and the least half width it shows (m). */
const OVERVIEW_ELEVATION_DEG = 40;
const OVERVIEW_MIN_HALF_M = 80;
const CHASE_BEARING_DEG = 30;

/** The third-person camera's distance from a boat of length `len` m: close, whatever its size. */
export function chaseDistance(len: number): number {
  return Math.min(400, Math.max(12, 1.1 * (Number.isFinite(len) ? len : 20) + 8));
}

/** What a frame is drawn from (the page's current pose and highlights). */
export interface FrameInput {
  pose: Pose;
  selected: number;
  helm: number;
  /** A boat's damage entry, as the page's own frames are drawn with it. */
  damage?: (id: number) => VesselDamageData | undefined;
}

/** The sea's layers: the water, the whitecaps on it, and (with them) the foam breakers leave. */
export interface SeaLayers {
  water?: boolean;
  whitecaps?: boolean;
  foam?: boolean;
}

/** window.navalDebug.look: the page test's handles on the view (tests/test_web_look.mjs). */
export interface LookDebug {
  /** Draws a frame and returns its pixels (RGBA, top row first, base64). */
  readFrame: () => { width: number; height: number; cssWidth: number; cssHeight: number; rgba: string };
  /** Shows or hides the water, its whitecaps and foam, hulls, superstructures, markers, wakes; returns what is drawn. */
  layers: (l: Partial<FleetLayers> & SeaLayers) => FleetLayers & Required<SeaLayers>;
  /** The sea at world (x, z) as drawn: its height (m), the part of its crest that breaks and the foam there (0..1, the whitecaps). */
  sea: (x: number, z: number) => { height: number; breaking: number; foam: number };
  boat: (id: number) => BoatLook | null;
  project: (x: number, y: number, z: number) => { x: number; y: number } | null;
  camera: () => CameraState;
  /** Puts the camera there (kept out of hulls and above the sea from the next frame on). */
  placeCamera: (position: [number, number, number], target: [number, number, number]) => void;
  /** Draws a frame now (the camera is kept clear in it). */
  frame: () => void;
}

export class View {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly camera: THREE.PerspectiveCamera;
  readonly controls: OrbitControls;
  readonly water: Water;
  readonly fleet = new Fleet();
  readonly flashes = new Flashes();
  readonly spray = new Spray();
  readonly ground = new Ground();
  private readonly raycaster = new THREE.Raycaster();
  private followed = NO_BOAT;
  private readonly lastTarget = new THREE.Vector3();
  /** The followed boat's heading last frame (rad): the camera turns with it. */
  private lastHeading = NaN;
  private placed = false;
  private readonly offset = new THREE.Vector3();
  private static readonly UP = new THREE.Vector3(0, 1, 0);

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
    this.fleet.wakes.setWater(this.water);
    this.scene.add(this.flashes.points);
    this.scene.add(this.spray.points);
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
    this.fleet.markers.setCamera(w, h, this.camera.fov); // chevrons in CSS pixels
  }

  setOcean(ocean: Ocean | null): void {
    this.water.setOcean(ocean);
    this.fleet.wakes.setWater(this.water); // its shader samples the same fields
  }

  /**
   * The first time there are boats: puts the camera close behind the boat
   * nearest to where it looks and returns that boat (the page follows it),
   * else NO_BOAT.
   */
  /**
   * The first time there are boats: the camera over the whole fleet (the
   * box of their positions about the boat nearest its middle, seen from the
   * south at 40 degrees, far enough for all of it to fit), following none.
   * True when it placed it.
   */
  overviewFleet(pose: Pose): boolean {
    if (this.placed || !pose.count) return false;
    let x0 = Infinity, x1 = -Infinity, z0 = Infinity, z1 = -Infinity;
    for (let i = 0; i < pose.count; i++) {
      const x = pose.pos[3 * i], z = pose.pos[3 * i + 2];
      if (!Number.isFinite(x) || !Number.isFinite(z)) continue;
      x0 = Math.min(x0, x), x1 = Math.max(x1, x), z0 = Math.min(z0, z), z1 = Math.max(z1, z);
    }
    if (!(x1 >= x0 && z1 >= z0)) return false;
    // Centred on the boat nearest the box's middle: water, where "take the
    // helm" spawns (the middle of a fleet round an island is land).
    let cx = 0.5 * (x0 + x1), cz = 0.5 * (z0 + z1), best = Infinity;
    for (let i = 0; i < pose.count; i++) {
      const x = pose.pos[3 * i], z = pose.pos[3 * i + 2], d2 = (x - 0.5 * (x0 + x1)) ** 2 + (z - 0.5 * (z0 + z1)) ** 2;
      if (d2 < best) best = d2, cx = x, cz = z;
    }
    const half = Math.max(OVERVIEW_MIN_HALF_M, x1 - cx, cx - x0, z1 - cz, cz - z0);
    // the box's half diagonal within the narrower half angle of the view
    const fov = (this.camera.fov * Math.PI) / 180, narrower = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * this.camera.aspect));
    const d = Math.min(this.controls.maxDistance, (half * Math.SQRT2) / Math.tan(narrower / 2));
    const el = (OVERVIEW_ELEVATION_DEG * Math.PI) / 180;
    this.placeCamera([cx, d * Math.sin(el), cz + d * Math.cos(el)], [cx, 0, cz]);
    return true;
  }

  frameFleet(pose: Pose): number {
    if (this.placed || !pose.count) return NO_BOAT;
    this.fleet.update(pose, NO_BOAT, NO_BOAT);
    const id = this.fleet.nearest(this.controls.target.x, this.controls.target.z);
    // Not before its hull has come (GetHull): the distance is the hull's length.
    if (id === NO_BOAT || !Number.isFinite(this.fleet.lengthOf(id))) return NO_BOAT;
    this.chase(id);
    this.placed = true;
    return id;
  }

  /** Puts the camera behind and above boat `id`, off its port quarter, at the chase distance. */
  private chase(id: number): void {
    const w = this.fleet.where.get(id), h = this.fleet.headingOf(id);
    if (!w || !Number.isFinite(h)) return;
    const el = (CHASE_ELEVATION_DEG * Math.PI) / 180, d = chaseDistance(this.fleet.lengthOf(id));
    // Astern is the heading + 180 degrees; the port quarter lies that much toward the port beam (heading + 90).
    const bearing = h + Math.PI - (CHASE_BEARING_DEG * Math.PI) / 180;
    this.offset.set(Math.cos(bearing) * Math.cos(el), Math.sin(el), -Math.sin(bearing) * Math.cos(el)).multiplyScalar(d);
    this.controls.target.copy(w);
    this.camera.position.copy(w).add(this.offset);
    this.lastTarget.copy(w);
    this.lastHeading = h;
  }

  /** Moves the camera's target to (x, z) on the sea, keeping the camera's offset. */
  lookAt(x: number, z: number): void {
    const off = this.camera.position.clone().sub(this.controls.target);
    this.controls.target.set(x, 0, z);
    this.camera.position.copy(this.controls.target).add(off);
    this.lastTarget.copy(this.controls.target);
    this.placed = true;
  }

  /**
   * Rides along with boat `id` (NO_BOAT: stop), turning with it. closeUp:
   * from the third-person place behind it; else from where the camera is.
   */
  follow(id: number, closeUp = false): void {
    this.followed = id;
    this.lastHeading = this.fleet.headingOf(id);
    if (closeUp && this.fleet.where.has(id)) {
      this.chase(id);
      this.placed = true;
    }
  }

  get following(): number {
    return this.followed;
  }

  /** Poses the boats (`damage`: a boat's damage entry), moves the camera with the followed one, draws. */
  frame(pose: Pose, selected: number, helm: number, damage?: (id: number) => VesselDamageData | undefined): void {
    this.fleet.update(pose, selected, helm, damage);
    this.flashes.update(performance.now() / 1000);
    this.spray.update(performance.now() / 1000);
    const w = this.fleet.where.get(this.followed);
    if (w) {
      const delta = this.offset.copy(w).sub(this.lastTarget);
      this.controls.target.add(delta);
      this.camera.position.add(delta);
      // Turn with the boat: the camera keeps its bearing off the bow.
      const h = this.fleet.headingOf(this.followed);
      if (Number.isFinite(h) && Number.isFinite(this.lastHeading)) {
        const turn = Math.atan2(Math.sin(h - this.lastHeading), Math.cos(h - this.lastHeading));
        this.offset.copy(this.camera.position).sub(w).applyAxisAngle(View.UP, turn);
        this.camera.position.copy(w).add(this.offset);
      }
      this.lastHeading = h;
    }
    this.controls.update();
    if (this.keepCameraClear()) this.camera.lookAt(this.controls.target);
    this.lastTarget.copy(this.controls.target);
    const t = this.controls.target;
    this.water.follow(t.x, t.z, this.camera.position.distanceTo(t));
    this.renderer.render(this.scene, this.camera);
  }

  /** Keeps the camera out of the hulls and above the sea; true when it moved. */
  private keepCameraClear(): boolean {
    const c = this.camera.position;
    let moved = this.fleet.keepOutOfHulls(c, CAMERA_HULL_MARGIN);
    const floor = this.water.heightAt(c.x, c.z) + CAMERA_SEA_MARGIN;
    if (c.y < floor) {
      c.y = floor;
      moved = true;
    }
    return moved;
  }

  /** Puts the camera at `position` looking at `target` (world, m); then it is kept clear as always. */
  placeCamera(position: readonly number[], target: readonly number[]): void {
    this.camera.position.set(position[0], position[1], position[2]);
    this.controls.target.set(target[0], target[1], target[2]);
    this.lastTarget.copy(this.controls.target);
    this.placed = true;
  }

  cameraState(): CameraState {
    const p = this.camera.position, t = this.controls.target;
    return { position: [p.x, p.y, p.z], target: [t.x, t.y, t.z], seaHeight: this.water.heightAt(p.x, p.z) };
  }

  /** Shows or hides the water and parts of the fleet (the page test measures them apart). */
  setLayers(l: Partial<FleetLayers> & SeaLayers): FleetLayers & Required<SeaLayers> {
    if (l.water !== undefined) this.water.mesh.visible = l.water;
    if (l.whitecaps !== undefined) this.water.whitecaps = l.whitecaps;
    if (l.foam !== undefined) this.water.foam = l.foam;
    return { ...this.fleet.setLayers(l), water: this.water.mesh.visible, whitecaps: this.water.whitecaps, foam: this.water.foam };
  }

  /** Boat `id` as drawn (fleet.ts), null when not drawn. */
  boat(id: number): BoatLook | null {
    return this.fleet.look(id);
  }

  /** Where a world point is on the canvas (CSS pixels), null behind the camera. */
  project(x: number, y: number, z: number): { x: number; y: number } | null {
    const v = new THREE.Vector3(x, y, z).project(this.camera);
    if (v.z > 1) return null;
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
  }

  /**
   * Draws a frame and returns its pixels (RGBA, top row first, base64) in
   * drawing-buffer pixels, with the canvas's size in CSS pixels.
   */
  readFrame(pose: Pose, selected: number, helm: number, damage?: (id: number) => VesselDamageData | undefined): { width: number; height: number; cssWidth: number; cssHeight: number; rgba: string } {
    this.frame(pose, selected, helm, damage);
    const gl = this.renderer.getContext();
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const px = new Uint8Array(4 * w * h);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    const flipped = new Uint8Array(px.length);
    for (let y = 0; y < h; y++) flipped.set(px.subarray(4 * w * (h - 1 - y), 4 * w * (h - y)), 4 * w * y);
    let bin = "";
    for (let i = 0; i < flipped.length; i += 0x8000) bin += String.fromCharCode(...flipped.subarray(i, i + 0x8000));
    const r = this.canvas.getBoundingClientRect();
    return { width: w, height: h, cssWidth: r.width, cssHeight: r.height, rgba: btoa(bin) };
  }

  /** The page test's handles, drawing frames from `input()`. */
  lookDebug(input: () => FrameInput): LookDebug {
    const draw = () => {
      const f = input();
      this.frame(f.pose, f.selected, f.helm, f.damage);
    };
    return {
      readFrame: () => {
        const f = input();
        return this.readFrame(f.pose, f.selected, f.helm, f.damage);
      },
      layers: (l) => this.setLayers(l),
      sea: (x, z) => this.water.seaAt(x, z),
      boat: (id) => this.boat(id),
      project: (x, y, z) => this.project(x, y, z),
      camera: () => this.cameraState(),
      placeCamera: (p, t) => this.placeCamera(p, t),
      frame: draw,
    };
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
  samplePixels(pose: Pose, selected: number, helm: number, damage?: (id: number) => VesselDamageData | undefined): PixelSample {
    this.frame(pose, selected, helm, damage);
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
