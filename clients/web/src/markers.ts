// SPDX-License-Identifier: MIT
// Heading chevrons over the boats: one instanced draw for the whole fleet.
// Each chevron is built in screen space (the vertex shader projects the
// boat and a point ahead of it, and lays the arrow along that line), so
// it points along the boat's heading from any camera angle. Its size in
// pixels grows with the hull's own size on screen from MIN_PX to MAX_PX,
// so a far skiff stays readable while a chevron never outgrows its boat,
// and it fades out once the hull itself is big on screen (FADE_PX).
// Depth-tested at a point just above the boat: a hull in front hides it.

import * as THREE from "three";

/** Chevron size, px (tip to back), far and near. */
const MIN_PX = 11;
const MAX_PX = 20;
/** Hull length on screen, px, over which the chevron fades out. */
const FADE_PX: [number, number] = [70, 140];

// The outline in chevron units: tip at +x, notched back, symmetric about x.
const OUTLINE: [number, number][] = [[0.65, 0], [-0.35, 0.42], [-0.12, 0], [-0.35, -0.42]];

const vertexShader = `
attribute vec3 aAnchor;
attribute vec2 aDir;
attribute vec3 aColour;
attribute float aLength;
uniform vec2 uViewport;
uniform float uFocal;
varying vec3 vColour;
varying float vAlpha;

void main() {
  vec4 c0 = projectionMatrix * viewMatrix * vec4(aAnchor, 1.0);
  vec4 c1 = projectionMatrix * viewMatrix * vec4(aAnchor + vec3(aDir.x, 0.0, aDir.y), 1.0);
  vec2 s0 = c0.xy / c0.w * 0.5 * uViewport, s1 = c1.xy / c1.w * 0.5 * uViewport;
  vec2 d = s1 - s0;
  d = dot(d, d) > 1e-8 && c1.w > 0.0 ? normalize(d) : vec2(0.0, 1.0);
  vec2 n = vec2(-d.y, d.x);
  float hullPx = aLength * uFocal / max(c0.w, 1e-3);
  float px = clamp(0.35 * hullPx, ${MIN_PX.toFixed(1)}, ${MAX_PX.toFixed(1)});
  vAlpha = 1.0 - smoothstep(${FADE_PX[0].toFixed(1)}, ${FADE_PX[1].toFixed(1)}, hullPx);
  vColour = aColour;
  // Above the anchor by half a chevron, so it sits over the boat.
  vec2 off = (position.x * d + position.y * n) * px + vec2(0.0, 0.6 * px);
  gl_Position = c0 + vec4(off / (0.5 * uViewport) * c0.w, 0.0, 0.0);
  if (vAlpha <= 0.0) gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // hidden: off screen
}`;

const fragmentShader = `
varying vec3 vColour;
varying float vAlpha;
void main() {
  gl_FragColor = vec4(vColour, 0.92 * vAlpha);
  #include <colorspace_fragment>
}`;

export class Markers {
  readonly mesh: THREE.Mesh;
  private readonly geometry = new THREE.InstancedBufferGeometry();
  private readonly material: THREE.ShaderMaterial;
  private anchor = new Float32Array(0);
  private dir = new Float32Array(0);
  private colour = new Float32Array(0);
  private length = new Float32Array(0);
  private count = 0;

  constructor() {
    const pos: number[] = [];
    for (const k of [0, 1, 2, 0, 2, 3]) pos.push(OUTLINE[k][0], OUTLINE[k][1], 0);
    this.geometry.setAttribute("position", new THREE.Float32BufferAttribute(pos, 3));
    this.material = new THREE.ShaderMaterial({
      vertexShader, fragmentShader, transparent: true, depthWrite: false, depthTest: true, side: THREE.DoubleSide,
      uniforms: { uViewport: { value: new THREE.Vector2(800, 500) }, uFocal: { value: 500 } },
    });
    this.mesh = new THREE.Mesh(this.geometry, this.material);
    this.mesh.frustumCulled = false; // anchors move every frame
    this.mesh.renderOrder = 2;
    this.grow(64);
  }

  private grow(need: number): void {
    if (need <= this.length.length) return;
    let cap = Math.max(64, this.length.length);
    while (cap < need) cap *= 2;
    const keep = (old: Float32Array, size: number) => {
      const a = new Float32Array(cap * size);
      a.set(old);
      return a;
    };
    this.anchor = keep(this.anchor, 3);
    this.dir = keep(this.dir, 2);
    this.colour = keep(this.colour, 3);
    this.length = keep(this.length, 1);
    const attr = (a: Float32Array, size: number) => new THREE.InstancedBufferAttribute(a, size).setUsage(THREE.DynamicDrawUsage);
    this.geometry.setAttribute("aAnchor", attr(this.anchor, 3));
    this.geometry.setAttribute("aDir", attr(this.dir, 2));
    this.geometry.setAttribute("aColour", attr(this.colour, 3));
    this.geometry.setAttribute("aLength", attr(this.length, 1));
  }

  /** Starts a frame of `n` boats at most. */
  begin(n: number): void {
    this.grow(n);
    this.count = 0;
  }

  /** One boat: the point above it, its heading as a unit (x, z), its colour and length (m). */
  add(x: number, y: number, z: number, fx: number, fz: number, colour: THREE.Color, length: number): void {
    const i = this.count++;
    this.anchor[3 * i] = x;
    this.anchor[3 * i + 1] = y;
    this.anchor[3 * i + 2] = z;
    this.dir[2 * i] = fx;
    this.dir[2 * i + 1] = fz;
    this.colour[3 * i] = colour.r;
    this.colour[3 * i + 1] = colour.g;
    this.colour[3 * i + 2] = colour.b;
    this.length[i] = length;
  }

  /** Uploads the frame's chevrons. */
  end(): void {
    this.geometry.instanceCount = this.count;
    for (const name of ["aAnchor", "aDir", "aColour", "aLength"]) {
      const a = this.geometry.getAttribute(name) as THREE.InstancedBufferAttribute;
      a.clearUpdateRanges();
      a.addUpdateRange(0, this.count * a.itemSize);
      a.needsUpdate = true;
    }
  }

  /** The camera's projection for sizing: the canvas's size (CSS px) and vertical field of view (degrees). */
  setCamera(width: number, height: number, fovDeg: number): void {
    const u = this.material.uniforms;
    u.uViewport.value.set(width, height);
    u.uFocal.value = height / 2 / Math.tan((fovDeg * Math.PI) / 360);
  }
}
