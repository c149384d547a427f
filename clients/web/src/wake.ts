// SPDX-License-Identifier: MIT
// Wakes: foam behind every moving boat, one instanced draw for the fleet.
// A boat moving over deep water leaves a Kelvin wake, a V of half-angle
// asin(1/3) = 19.47 degrees whatever its speed; here each arm of foam has
// its outer edge on that line from the bow and spreads inward, a band of
// propeller wash trails the stern, and both grow longer and more opaque
// with speed and fade with distance astern. The bow's splash is the arms'
// first metres, drawn brighter. The template is one fixed mesh in wake
// coordinates; per boat there are a few floats (where, heading, hull
// extents, wake length, strength), written in place each frame. The
// vertex shader lays the foam on the sea surface the water draws (the
// same displacement fields, water.ts).

import * as THREE from "three";
import { oceanGLSL, type Water } from "./water";

/** Kelvin's half-angle, radians: asin(1/3). */
export const KELVIN_HALF_ANGLE = Math.asin(1 / 3);
/**
 * Below this speed made good (m/s) a boat leaves no wake: a boat lying in a
 * seaway drifts at a few tenths of a metre a second with the wind and the
 * waves, and foam comes only with way through the water, about 1.5 knots on.
 */
export const WAKE_MIN_SPEED = 0.8;

const ARM_SEGMENTS = 28;
const WASH_SEGMENTS = 16;
// Template kinds (aWake.x).
const LEFT_ARM = 0, RIGHT_ARM = 1, WASH = 2;

/** The foam's length astern (m) at a speed (m/s) for a hull of length `len` (m). */
export function wakeLength(speed: number, len: number): number {
  return Math.min(15 * speed, 4 * len + 60);
}

/** The foam's opacity at a speed (m/s): none at rest, full from 4 m/s. */
export function wakeStrength(speed: number): number {
  const t = Math.min(1, Math.max(0, (speed - WAKE_MIN_SPEED) / (4 - WAKE_MIN_SPEED)));
  return t * t * (3 - 2 * t);
}

function vertexShader(cascades: number): string {
  return `
${oceanGLSL(cascades)}
attribute vec3 aWake;   // kind, u (0 at the start .. 1 at the end), v (across)
attribute vec2 aCentre; // the boat's CG, world x and z
attribute vec2 aFwd;    // its heading, unit (x, z)
attribute vec4 aShape;  // bow x, stern x, half beam (body frame, m), wake length (m)
attribute float aStrength;
varying float vAlpha;
varying vec2 vFoam;

void main() {
  float kind = aWake.x, u = aWake.y, v = aWake.z;
  float bow = aShape.x, stern = aShape.y, halfBeam = aShape.z, len = aShape.w;
  float hull = bow - stern;
  float ca = ${Math.cos(KELVIN_HALF_ANGLE).toFixed(6)}, sa = ${Math.sin(KELVIN_HALF_ANGLE).toFixed(6)};
  vec2 p;
  float a;
  if (kind < ${WASH - 0.5}) {
    // An arm: its outer edge on the Kelvin line from the bow, spreading inward.
    float side = kind < ${LEFT_ARM + 0.5} ? -1.0 : 1.0;
    float s = u * (len + hull);
    float w = 0.35 * halfBeam + 0.08 * s;
    vec2 inward = vec2(-sa, -side * ca);
    p = vec2(bow - s * ca, side * s * sa) + inward * v * w;
    float splash = exp(-s / (0.3 * hull + 1.0)); // the bow's splash
    a = pow(1.0 - u, 1.2) * pow(1.0 - v, 0.7) * (0.6 + 0.4 * splash) * smoothstep(0.0, 0.015, u);
  } else {
    // The wash astern: as wide as the hull, widening slowly.
    float s = u * 0.6 * len;
    p = vec2(stern - s, v * (0.8 * halfBeam + 0.05 * s));
    a = 0.85 * pow(1.0 - u, 1.4) * (1.0 - v * v);
  }
  vec2 side = vec2(-aFwd.y, aFwd.x);
  vec2 xz = aCentre + aFwd * p.x + side * p.y;
  // The sea's height there: one step of inverting the choppy displacement.
  vec2 label = xz - displacement(xz).xz;
  float y = displacement(label).y + 0.12;
  vAlpha = aStrength * a;
  vFoam = xz;
  gl_Position = projectionMatrix * viewMatrix * vec4(xz.x, y, xz.y, 1.0);
}`;
}

const fragmentShader = `
varying float vAlpha;
varying vec2 vFoam;
void main() {
  // Streaks, so that the foam is not a flat sheet.
  float streak = 0.8 + 0.2 * sin(vFoam.x * 1.7 + 2.3 * sin(vFoam.y * 0.9));
  gl_FragColor = vec4(0.93, 0.96, 0.98, clamp(vAlpha * streak, 0.0, 1.0));
  #include <colorspace_fragment>
}`;

/** The template: two arms (u along, v 0 outer .. 1 inner) and the wash (v -1 .. 0 .. 1). */
function template(): THREE.InstancedBufferGeometry {
  const w: number[] = [], idx: number[] = [];
  const strip = (kind: number, segments: number, v0: number, v1: number) => {
    const base = w.length / 3;
    for (let i = 0; i <= segments; i++) {
      const u = i / segments;
      w.push(kind, u, v0, kind, u, v1);
    }
    for (let i = 0; i < segments; i++) {
      const a = base + 2 * i;
      idx.push(a, a + 1, a + 2, a + 1, a + 3, a + 2);
    }
  };
  strip(LEFT_ARM, ARM_SEGMENTS, 0, 1);
  strip(RIGHT_ARM, ARM_SEGMENTS, 0, 1);
  // Two halves: the wash fades to both edges, and a strip's alpha is interpolated across it.
  strip(WASH, WASH_SEGMENTS, -1, 0);
  strip(WASH, WASH_SEGMENTS, 0, 1);
  const g = new THREE.InstancedBufferGeometry();
  g.setAttribute("aWake", new THREE.Float32BufferAttribute(w, 3));
  // three.js wants a position attribute to count vertices; the shader ignores it.
  g.setAttribute("position", new THREE.Float32BufferAttribute(new Float32Array(w.length), 3));
  g.setIndex(idx);
  return g;
}

export class Wakes {
  readonly mesh: THREE.Mesh;
  private readonly geometry = template();
  private material: THREE.ShaderMaterial;
  private centre = new Float32Array(0);
  private fwd = new Float32Array(0);
  private shape = new Float32Array(0);
  private strength = new Float32Array(0);
  /** Wakes drawn this frame. */
  count = 0;

  constructor() {
    this.material = this.makeMaterial(null);
    this.mesh = new THREE.Mesh(this.geometry, this.material);
    this.mesh.frustumCulled = false; // positions come from the instances
    this.mesh.renderOrder = 1; // over the water, under the markers
    this.grow(64);
  }

  private makeMaterial(water: Water | null): THREE.ShaderMaterial {
    return new THREE.ShaderMaterial({
      vertexShader: vertexShader(water ? water.cascades : 0), fragmentShader,
      uniforms: water ? water.oceanUniforms() : {},
      transparent: true, depthWrite: false, side: THREE.DoubleSide,
      // A constant bias only: a slope-scaled one pulls the foam in front of
      // a low hull's sides when seen at a grazing angle.
      polygonOffset: true, polygonOffsetFactor: 0, polygonOffsetUnits: -4,
    });
  }

  /** Follows the water's ocean (call after Water.setOcean). */
  setWater(water: Water): void {
    const old = this.material;
    this.material = this.makeMaterial(water);
    this.mesh.material = this.material;
    old.dispose();
  }

  private grow(need: number): void {
    if (need <= this.strength.length) return;
    let cap = Math.max(64, this.strength.length);
    while (cap < need) cap *= 2;
    const keep = (old: Float32Array, size: number) => {
      const a = new Float32Array(cap * size);
      a.set(old);
      return a;
    };
    this.centre = keep(this.centre, 2);
    this.fwd = keep(this.fwd, 2);
    this.shape = keep(this.shape, 4);
    this.strength = keep(this.strength, 1);
    const attr = (a: Float32Array, size: number) => new THREE.InstancedBufferAttribute(a, size).setUsage(THREE.DynamicDrawUsage);
    this.geometry.setAttribute("aCentre", attr(this.centre, 2));
    this.geometry.setAttribute("aFwd", attr(this.fwd, 2));
    this.geometry.setAttribute("aShape", attr(this.shape, 4));
    this.geometry.setAttribute("aStrength", attr(this.strength, 1));
  }

  /** Starts a frame of `n` boats at most. */
  begin(n: number): void {
    this.grow(n);
    this.count = 0;
  }

  /**
   * One boat moving at `speed` m/s: its CG (x, z), heading (unit fx, fz),
   * bow and stern x and half beam (body frame, m). Too slow: no wake.
   */
  add(x: number, z: number, fx: number, fz: number, bow: number, stern: number, halfBeam: number, speed: number): void {
    const strength = wakeStrength(speed);
    if (strength <= 0) return;
    const i = this.count++;
    this.centre[2 * i] = x;
    this.centre[2 * i + 1] = z;
    this.fwd[2 * i] = fx;
    this.fwd[2 * i + 1] = fz;
    this.shape[4 * i] = bow;
    this.shape[4 * i + 1] = stern;
    this.shape[4 * i + 2] = halfBeam;
    this.shape[4 * i + 3] = wakeLength(speed, bow - stern);
    this.strength[i] = strength;
  }

  /** Uploads the frame's wakes. */
  end(): void {
    this.geometry.instanceCount = this.count;
    for (const name of ["aCentre", "aFwd", "aShape", "aStrength"]) {
      const a = this.geometry.getAttribute(name) as THREE.InstancedBufferAttribute;
      a.clearUpdateRanges();
      a.addUpdateRange(0, this.count * a.itemSize);
      a.needsUpdate = true;
    }
  }
}
