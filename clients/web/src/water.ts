// SPDX-License-Identifier: MIT
// The sea surface on the GPU. Each cascade's fields (Dx, h, Dz per label,
// from ocean.ts) are a float texture; a square grid of vertices around the
// view centre is a set of labels x0, and the vertex shader moves each to
// x0 + (Dx, h, Dz) summed over the cascades: exactly the choppy surface
// the server's queries answer on. Normals come from the displaced
// neighbours. The grid's step grows with the camera distance (powers of
// two of the field's cell) and its origin snaps to that step, so vertices
// stay on the same labels while the view moves: the sea does not swim.
// Beyond the grid the outer ring of vertices is pulled out to the horizon
// with the waves faded out, and fog hides where it ends.
// Whitecaps: where the server's breaking crests are (Ocean.breakingAt, the
// same squeeze over the same stencil, per vertex), the water turns to foam
// by the part of the crest that breaks: what a spectator sees break is what
// strikes the hulls.

import * as THREE from "three";
import { BREAKING_FULL, BREAKING_SQUEEZE, type Ocean } from "./ocean";

const HORIZON = 30000; // m

export interface WaterLook {
  sky: THREE.Color;
  horizon: THREE.Color;
  deep: THREE.Color;
  sun: THREE.Vector3;
}

/**
 * GLSL of the ocean's displacement: the cascades' field samplers and tile
 * uniforms, fieldAt and displacement(label) = (Dx, h, Dz) summed over the
 * cascades. Shared by the water and the wakes (wake.ts), whose uniforms
 * are Water.oceanUniforms().
 */
// Bilinear on the periodic tile (texelFetch: exact floats, no filtering
// extension needed). tile = (size m, nx, nz).
const FIELD_AT_GLSL = `
vec4 fieldAt(sampler2D f, vec3 tile, vec2 label) {
  vec2 g = label / tile.x * tile.yz;
  vec2 i0 = floor(g), t = g - i0;
  vec2 a = mod(i0, tile.yz), b = mod(i0 + 1.0, tile.yz);
  vec4 v00 = texelFetch(f, ivec2(a.x, a.y), 0), v10 = texelFetch(f, ivec2(b.x, a.y), 0);
  vec4 v01 = texelFetch(f, ivec2(a.x, b.y), 0), v11 = texelFetch(f, ivec2(b.x, b.y), 0);
  return mix(mix(v00, v10, t.x), mix(v01, v11, t.x), t.y);
}`;

export function oceanGLSL(cascades: number): string {
  const fields: string[] = [], sums: string[] = [];
  for (let c = 0; c < cascades; c++) {
    fields.push(`uniform sampler2D uField${c};\nuniform vec3 uTile${c};`);
    sums.push(`d += fieldAt(uField${c}, uTile${c}, label).xyz;`);
  }
  return `
${fields.join("\n")}
${FIELD_AT_GLSL}
vec3 displacement(vec2 label) {
  vec3 d = vec3(0.0);
  ${sums.join("\n  ")}
  return d;
}`;
}

function vertexShader(cascades: number): string {
  return `
${oceanGLSL(cascades)}
uniform vec2 uOrigin;
uniform vec2 uCentre;
uniform float uSpacing;
uniform float uFadeStart;
uniform float uFadeEnd;
uniform float uBreakStencil;
varying vec3 vWorld;
varying vec3 vNormal;
varying float vFoam;
varying vec2 vLabel;
varying float vFade;

// Ocean.breakingAt: the part of the crest at the label that breaks.
float breaking(vec2 label, float height) {
  float d = uBreakStencil;
  if (!(d > 0.0 && height > 0.0)) return 0.0;
  float squeeze = -((displacement(label + vec2(d, 0.0)).x - displacement(label - vec2(d, 0.0)).x)
                  + (displacement(label + vec2(0.0, d)).z - displacement(label - vec2(0.0, d)).z)) / (2.0 * d);
  return clamp((squeeze - ${BREAKING_SQUEEZE.toFixed(6)}) / ${(BREAKING_FULL - BREAKING_SQUEEZE).toFixed(6)}, 0.0, 1.0);
}

void main() {
  vec2 label = position.xz + uOrigin;
  vec2 off = abs(label - uCentre);
  float w = 1.0 - smoothstep(uFadeStart, uFadeEnd, max(off.x, off.y));
  vec3 raw = displacement(label);
  vFoam = breaking(label, raw.y) * w;
  vLabel = label;
  vFade = w;
  vec3 d0 = raw * w;
  vec3 dx = displacement(label + vec2(uSpacing, 0.0)) * w;
  vec3 dz = displacement(label + vec2(0.0, uSpacing)) * w;
  vec3 p = vec3(label.x, 0.0, label.y) + d0;
  vec3 tx = vec3(uSpacing, 0.0, 0.0) + dx - d0;
  vec3 tz = vec3(0.0, 0.0, uSpacing) + dz - d0;
  vNormal = normalize(cross(tz, tx));
  vWorld = p;
  gl_Position = projectionMatrix * viewMatrix * vec4(p, 1.0);
}`;
}

function fragmentShader(cascades: number): string {
  return `
${cascades > 0 ? `uniform sampler2D uField0;\nuniform vec3 uTile0;\n${FIELD_AT_GLSL}` : ""}
uniform float uFoamShown;
uniform vec3 uSun;
uniform vec3 uSky;
uniform vec3 uHorizon;
uniform vec3 uDeep;
uniform float uFogDensity;
varying vec3 vWorld;
varying vec3 vNormal;
varying float vFoam;
varying vec2 vLabel;
varying float vFade;

// Ocean.foamAt: the foam breakers left, on tile 0's labels (its fourth
// field), sampled per fragment: smooth where the vertices lie far apart.
float foamAt(vec2 label) {
  return ${cascades > 0 ? "fieldAt(uField0, uTile0, label).w" : "0.0"};
}

// Value noise on a lattice of hashed corners (a hash without sin: steady
// at the large labels of a wide sea).
float latticeHash(vec2 p) {
  vec3 q = fract(vec3(p.xyx) * 0.1031);
  q += dot(q, q.yzx + 33.33);
  return fract((q.x + q.y) * q.z);
}

float valueNoise(vec2 p) {
  vec2 i = floor(p), f = fract(p);
  f = f * f * (3.0 - 2.0 * f);
  return mix(mix(latticeHash(i), latticeHash(i + vec2(1.0, 0.0)), f.x),
             mix(latticeHash(i + vec2(0.0, 1.0)), latticeHash(i + vec2(1.0, 1.0)), f.x), f.y);
}

void main() {
  vec3 n = normalize(vNormal);
  vec3 v = normalize(cameraPosition - vWorld);
  float nv = dot(n, v);
  if (nv < 0.02) { n = normalize(n + v * (0.02 - nv)); nv = 0.02; } // back-facing: seen grazing
  float fresnel = 0.02 + 0.98 * pow(1.0 - nv, 5.0);
  vec3 r = reflect(-v, n);
  vec3 sky = mix(uHorizon, uSky, clamp(r.y * 2.0, 0.0, 1.0));
  vec3 body = uDeep * (0.35 + 0.65 * max(dot(n, uSun), 0.0));
  // The sun's glint: broad and faint. A sharp, bright one (x3 at power 300)
  // read as a hard white blotch on calm water, worst in a corner of the view.
  float spec = pow(max(dot(n, normalize(uSun + v)), 0.0), 120.0) * 0.3;
  vec3 col = min(mix(body, sky, fresnel) + vec3(1.0, 0.95, 0.85) * spec, vec3(0.92));
  // Foam scatters light every way: lit by the sun and the sky, not a mirror.
  // Opaque from half the crest breaking; the square root shows a spilling
  // crest (a tenth of it breaking) plainly.
  // Marbled on the water's labels (it moves with them), so that the foam
  // is not a flat sheet.
  vec3 foam = vec3(0.90, 0.93, 0.95) * (0.75 + 0.25 * max(dot(n, uSun), 0.0));
  float f = max(vFoam, uFoamShown * foamAt(vLabel) * vFade);
  float marble = 0.6 + 0.4 * (0.6 * valueNoise(vLabel * 0.3) + 0.4 * valueNoise(vLabel * 1.1));
  col = mix(col, foam, min(1.0, 1.4 * sqrt(clamp(f, 0.0, 1.0))) * marble);
  float fog = 1.0 - exp(-uFogDensity * length(cameraPosition - vWorld));
  gl_FragColor = vec4(mix(col, uHorizon, clamp(fog, 0.0, 1.0)), 1.0);
}`;
}

export class Water {
  readonly mesh: THREE.Mesh;
  private material: THREE.ShaderMaterial;
  private textures: THREE.DataTexture[] = [];
  private ocean: Ocean | null = null;
  private showWhitecaps = true;
  private showFoam = true;
  /** Smallest grid step: the finest drawn cell of cascade 0 (m). */
  private baseStep = 4;
  spacing = 4;

  /** grid: vertices per side of the wave mesh. */
  constructor(private readonly look: WaterLook, private readonly grid = 192) {
    const GRID = grid;
    const g = new THREE.BufferGeometry();
    const pos = new Float32Array(GRID * GRID * 3);
    for (let iz = 0; iz < GRID; iz++)
      for (let ix = 0; ix < GRID; ix++) {
        const i = iz * GRID + ix;
        pos[3 * i] = ix;
        pos[3 * i + 2] = iz;
      }
    const idx: number[] = [];
    for (let iz = 0; iz + 1 < GRID; iz++)
      for (let ix = 0; ix + 1 < GRID; ix++) {
        const a = iz * GRID + ix, b = a + 1, c = a + GRID, d = c + 1;
        idx.push(a, c, b, b, c, d);
      }
    g.setAttribute("position", new THREE.BufferAttribute(pos, 3));
    g.setIndex(idx);
    this.material = this.makeMaterial(0);
    this.mesh = new THREE.Mesh(g, this.material);
    // Its vertices move in the shader: the geometry's bounds mean nothing.
    this.mesh.frustumCulled = false;
    this.setSpacing(this.baseStep);
  }

  private makeMaterial(cascades: number): THREE.ShaderMaterial {
    const uniforms: Record<string, THREE.IUniform> = {
      uOrigin: { value: new THREE.Vector2() },
      uCentre: { value: new THREE.Vector2() },
      uSpacing: { value: 1 },
      uFadeStart: { value: 1 },
      uFadeEnd: { value: 2 },
      uSun: { value: this.look.sun.clone().normalize() },
      uSky: { value: this.look.sky },
      uHorizon: { value: this.look.horizon },
      uDeep: { value: this.look.deep },
      uFogDensity: { value: 0.00035 },
      uBreakStencil: { value: this.ocean && this.showWhitecaps ? this.ocean.breakingStencil : 0 },
      uFoamShown: { value: this.showWhitecaps && this.showFoam ? 1 : 0 },
    };
    for (let c = 0; c < cascades; c++) {
      uniforms[`uField${c}`] = { value: this.textures[c] };
      const t = this.ocean!.tiles[c];
      uniforms[`uTile${c}`] = { value: new THREE.Vector3(t.size, t.nx, t.nz) };
    }
    return new THREE.ShaderMaterial({ uniforms, vertexShader: vertexShader(cascades), fragmentShader: fragmentShader(cascades) });
  }

  /** The ocean to draw (null: flat water at y = 0). */
  setOcean(ocean: Ocean | null): void {
    for (const t of this.textures) t.dispose();
    this.textures = [];
    this.ocean = ocean;
    if (ocean) {
      for (const tile of ocean.tiles) {
        const tex = new THREE.DataTexture(tile.fields, tile.nx, tile.nz, THREE.RGBAFormat, THREE.FloatType);
        tex.minFilter = tex.magFilter = THREE.NearestFilter;
        tex.needsUpdate = true;
        this.textures.push(tex);
      }
      this.baseStep = ocean.tiles[0].size / ocean.tiles[0].nx;
    } else {
      this.baseStep = 4;
    }
    const old = this.material;
    this.material = this.makeMaterial(this.textures.length);
    this.mesh.material = this.material;
    old.dispose();
    this.setSpacing(this.baseStep);
  }

  /** Cascades drawn (0: flat water). */
  get cascades(): number {
    return this.textures.length;
  }

  /**
   * The uniforms oceanGLSL's displacement reads: the same texture objects
   * as the water's, so a material built with them moves with the sea.
   */
  oceanUniforms(): Record<string, THREE.IUniform> {
    const u: Record<string, THREE.IUniform> = {};
    for (let c = 0; c < this.textures.length; c++) {
      u[`uField${c}`] = this.material.uniforms[`uField${c}`];
      u[`uTile${c}`] = this.material.uniforms[`uTile${c}`];
    }
    return u;
  }

  /**
   * The sea's height (m) at world (x, z) as drawn: the displacement of the
   * label one inversion step from (x, z), as the shader samples it (CPU;
   * for the camera, which must stay above the waves).
   */
  heightAt(x: number, z: number): number {
    if (!this.ocean) return 0;
    const q = this.sample;
    this.ocean.displacementAt(x, z, q);
    this.ocean.displacementAt(x - q[0], z - q[2], q);
    return q[1];
  }

  private readonly sample = new Float64Array(3);

  /**
   * The sea at world (x, z) as drawn, at the label one inversion step
   * away: its height (m), the part of its crest that breaks and the foam
   * there (0..1; Ocean.breakingAt and foamAt).
   */
  seaAt(x: number, z: number): { height: number; breaking: number; foam: number } {
    if (!this.ocean) return { height: 0, breaking: 0, foam: 0 };
    const q = this.sample;
    this.ocean.displacementAt(x, z, q);
    const lx = x - q[0], lz = z - q[2];
    this.ocean.displacementAt(lx, lz, q);
    return { height: q[1], breaking: this.ocean.breakingAt(lx, lz), foam: this.ocean.foamAt(lx, lz) };
  }

  /** Whether breaking crests, and the foam they leave, are drawn as whitecaps (on by default). */
  get whitecaps(): boolean {
    return this.showWhitecaps;
  }

  set whitecaps(on: boolean) {
    this.showWhitecaps = on;
    this.setWhitecapUniforms();
  }

  /** Whether the foam breakers leave is drawn with the whitecaps (on by default; the page test looks at each apart). */
  get foam(): boolean {
    return this.showFoam;
  }

  set foam(on: boolean) {
    this.showFoam = on;
    this.setWhitecapUniforms();
  }

  private setWhitecapUniforms(): void {
    const u = this.material.uniforms;
    u.uBreakStencil.value = this.ocean && this.showWhitecaps ? this.ocean.breakingStencil : 0;
    u.uFoamShown.value = this.showWhitecaps && this.showFoam ? 1 : 0;
  }

  /** The fields changed (after Ocean.update). */
  refresh(): void {
    for (const t of this.textures) t.needsUpdate = true;
  }

  private setSpacing(step: number): void {
    const GRID = this.grid;
    this.spacing = step;
    const u = this.material.uniforms;
    u.uSpacing.value = step;
    const half = ((GRID - 1) / 2) * step;
    u.uFadeStart.value = 0.7 * half;
    u.uFadeEnd.value = 0.95 * half;
    // The outer ring reaches the horizon; the shader fades the waves there.
    const pos = (this.mesh.geometry.getAttribute("position") as THREE.BufferAttribute).array as Float32Array;
    const far = HORIZON / step;
    for (let iz = 0; iz < GRID; iz++)
      for (let ix = 0; ix < GRID; ix++) {
        const i = iz * GRID + ix;
        const edgeX = ix === 0 ? -1 : ix === GRID - 1 ? 1 : 0, edgeZ = iz === 0 ? -1 : iz === GRID - 1 ? 1 : 0;
        pos[3 * i] = (edgeX ? (GRID - 1) / 2 + edgeX * far : ix) * step;
        pos[3 * i + 2] = (edgeZ ? (GRID - 1) / 2 + edgeZ * far : iz) * step;
      }
    this.mesh.geometry.getAttribute("position").needsUpdate = true;
  }

  /** Centres the grid on (x, z) with a step suited to a camera `distance` m away. */
  follow(x: number, z: number, distance: number): void {
    let step = this.baseStep;
    while (step * 48 < distance && step < this.baseStep * 16) step *= 2;
    if (step !== this.spacing) this.setSpacing(step);
    const half = ((this.grid - 1) / 2) * step;
    const u = this.material.uniforms;
    u.uOrigin.value.set(Math.round((x - half) / step) * step, Math.round((z - half) / step) * step);
    u.uCentre.value.set(u.uOrigin.value.x + half, u.uOrigin.value.y + half);
  }
}
