// SPDX-License-Identifier: MIT
// What stands on a hull's deck: the server sends bare hulls (GetHull), so
// the page adds a simple superstructure per type, made of boxes sized from
// the hull's bounding box (body frame about the CG: +x bow, +y up, +z
// starboard): a wheelhouse and mast on the patrol boat, an accommodation
// block, bridge, funnel and cargo on the freighter, a console and an
// outboard on the skiff, and a generic deckhouse for any other type. One
// geometry per type, drawn instanced with the hulls (fleet.ts).

import * as THREE from "three";

const WHITE = 0xe9ecee;
const PAINT = 0xd7dcdf;
const GLASS = 0x1f2b35;
const STEEL = 0x59636b;
const FUNNEL = 0x8e2f25;
const CARGO = [0xa4452f, 0x2f5d8a, 0x4f7a45, 0x8a8f94, 0xb08a2e];

export interface Superstructure {
  geometry: THREE.BufferGeometry;
  /** Highest point above the CG, m (the hull's deck when nothing stands on it). */
  top: number;
}

/** Flat-shaded boxes with vertex colours, merged into one geometry. */
class BoxBuilder {
  private readonly pos: number[] = [];
  private readonly nrm: number[] = [];
  private readonly col: number[] = [];
  private readonly c = new THREE.Color();
  top = -Infinity;

  /** A box from (x0, y0, z0) to (x1, y1, z1), body frame. */
  box(x0: number, x1: number, y0: number, y1: number, z0: number, z1: number, colour: number): void {
    this.c.setHex(colour);
    const faces: [number[], number[][]][] = [
      [[1, 0, 0], [[x1, y0, z0], [x1, y1, z0], [x1, y1, z1], [x1, y0, z1]]],
      [[-1, 0, 0], [[x0, y0, z1], [x0, y1, z1], [x0, y1, z0], [x0, y0, z0]]],
      [[0, 1, 0], [[x0, y1, z0], [x0, y1, z1], [x1, y1, z1], [x1, y1, z0]]],
      [[0, -1, 0], [[x0, y0, z1], [x0, y0, z0], [x1, y0, z0], [x1, y0, z1]]],
      [[0, 0, 1], [[x1, y0, z1], [x1, y1, z1], [x0, y1, z1], [x0, y0, z1]]],
      [[0, 0, -1], [[x0, y0, z0], [x0, y1, z0], [x1, y1, z0], [x1, y0, z0]]],
    ];
    for (const [n, q] of faces)
      for (const k of [0, 1, 2, 0, 2, 3]) {
        this.pos.push(...q[k]);
        this.nrm.push(...n);
        this.col.push(this.c.r, this.c.g, this.c.b);
      }
    this.top = Math.max(this.top, y1);
  }

  geometry(): THREE.BufferGeometry {
    const g = new THREE.BufferGeometry();
    g.setAttribute("position", new THREE.Float32BufferAttribute(this.pos, 3));
    g.setAttribute("normal", new THREE.Float32BufferAttribute(this.nrm, 3));
    g.setAttribute("color", new THREE.Float32BufferAttribute(this.col, 3));
    return g;
  }
}

/** Hull extents the shapes are sized from. */
interface Frame {
  stern: number; // x of the transom
  len: number;
  beam: number;
  deck: number; // y of the deck
}

/** x at a fraction of the length from the stern. */
const at = (f: Frame, u: number) => f.stern + u * f.len;

/** A house with a band of windows near its top (all four sides). */
function house(b: BoxBuilder, f: Frame, u0: number, u1: number, halfWidth: number, height: number, colour: number): number {
  const x0 = at(f, u0), x1 = at(f, u1), y1 = f.deck + height;
  b.box(x0, x1, f.deck, y1, -halfWidth, halfWidth, colour);
  const band = Math.min(0.3 * height, 0.08 * f.len + 0.2), pad = 0.02 * halfWidth + 0.01;
  b.box(x0 - pad, x1 + pad, y1 - 1.6 * band, y1 - 0.4 * band, -halfWidth - pad, halfWidth + pad, GLASS);
  return y1;
}

function patrol(b: BoxBuilder, f: Frame): void {
  const roof = house(b, f, 0.42, 0.66, 0.31 * f.beam, 0.09 * f.len, WHITE);
  const mx = at(f, 0.52), mw = 0.004 * f.len + 0.04;
  b.box(mx - mw, mx + mw, roof, roof + 0.18 * f.len, -mw, mw, STEEL); // mast
  const yard = roof + 0.14 * f.len;
  b.box(mx - mw, mx + mw, yard, yard + 2 * mw, -0.2 * f.beam, 0.2 * f.beam, STEEL); // radar yard
  b.box(at(f, 0.08), at(f, 0.2), f.deck, f.deck + 0.03 * f.len, -0.3 * f.beam, 0.3 * f.beam, PAINT); // aft locker
}

function freighter(b: BoxBuilder, f: Frame): void {
  // Bridge aft, as on most cargo ships: accommodation, bridge with wings, funnel.
  const roof = house(b, f, 0.06, 0.17, 0.42 * f.beam, 0.13 * f.len, WHITE);
  b.box(at(f, 0.13), at(f, 0.175), roof, roof + 0.025 * f.len, -0.5 * f.beam, 0.5 * f.beam, WHITE);
  b.box(at(f, 0.128), at(f, 0.177), roof + 0.008 * f.len, roof + 0.018 * f.len, -0.51 * f.beam, 0.51 * f.beam, GLASS);
  b.box(at(f, 0.02), at(f, 0.06), f.deck, f.deck + 0.2 * f.len, -0.1 * f.beam, 0.1 * f.beam, FUNNEL);
  b.box(at(f, 0.018), at(f, 0.062), f.deck + 0.2 * f.len, f.deck + 0.215 * f.len, -0.105 * f.beam, 0.105 * f.beam, GLASS);
  // Cargo along the parallel midbody, short of the fine bow.
  for (let k = 0, u = 0.21; u + 0.08 <= 0.7; k++, u += 0.1)
    b.box(at(f, u), at(f, u + 0.085), f.deck, f.deck + 0.045 * f.len * (k % 2 ? 0.8 : 1), -0.4 * f.beam, 0.4 * f.beam, CARGO[k % CARGO.length]);
  const fx = at(f, 0.86), fw = 0.004 * f.len;
  b.box(fx - fw, fx + fw, f.deck, f.deck + 0.1 * f.len, -fw, fw, STEEL); // foremast
}

function skiff(b: BoxBuilder, f: Frame): void {
  const top = f.deck + 0.17 * f.len;
  b.box(at(f, 0.42), at(f, 0.56), f.deck, top, -0.18 * f.beam, 0.18 * f.beam, WHITE); // console
  b.box(at(f, 0.555), at(f, 0.6), top - 0.02 * f.len, top + 0.06 * f.len, -0.2 * f.beam, 0.2 * f.beam, GLASS); // windscreen
  const ox = f.stern;
  b.box(ox - 0.05 * f.len, ox + 0.01 * f.len, f.deck - 0.25 * f.len, f.deck + 0.12 * f.len, -0.07 * f.beam, 0.07 * f.beam, STEEL); // outboard
}

function deckhouse(b: BoxBuilder, f: Frame): void {
  house(b, f, 0.35, 0.6, 0.3 * f.beam, Math.min(8, Math.max(0.6, 0.09 * f.len)), WHITE);
}

const SHAPES: Record<string, (b: BoxBuilder, f: Frame) => void> = { patrol, freighter, skiff };

/** The superstructure of a type by its name; unknown names get a deckhouse. */
export function buildSuperstructure(name: string, boundsMin: readonly number[], boundsMax: readonly number[]): Superstructure {
  const f: Frame = { stern: boundsMin[0], len: boundsMax[0] - boundsMin[0], beam: boundsMax[2] - boundsMin[2], deck: boundsMax[1] };
  const b = new BoxBuilder();
  if (f.len > 0 && f.beam > 0) (SHAPES[name] ?? deckhouse)(b, f);
  return { geometry: b.geometry(), top: Number.isFinite(b.top) ? b.top : f.deck };
}
