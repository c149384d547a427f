// SPDX-License-Identifier: MIT
// The figures the page's panels print, as text: speed in m/s and knots,
// the protocol's heading, latency (or clock skew), controls, contacts.
// Pure: no DOM, so that tests/test_web_hud_unit.mjs runs it in Node.

import { CONTACT_GROUND, type ContactData } from "./wire";

/** Knots per m/s: a knot is one nautical mile (1852 m) an hour. */
export const KNOTS_PER_MS = 3600 / 1852;

/** "–" for a figure the page does not have. */
export const fmt = (v: number, digits = 1): string => (Number.isFinite(v) ? v.toFixed(digits) : "–");

/** "3.20 m/s · 6.2 kn" (NaN: unknown). */
export function speedText(ms: number): string {
  return Number.isFinite(ms) ? `${ms.toFixed(2)} m/s · ${(ms * KNOTS_PER_MS).toFixed(1)} kn` : "–";
}

/**
 * Heading in degrees, [0, 360), the protocol's convention (docs/protocol.md,
 * Spawn): the body's +x (bow) axis in the world, about +y from +x toward -z.
 * `q` is the body-to-world quaternion (x, y, z, w).
 */
export function headingDeg(q: ArrayLike<number>): number {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  const fx = 1 - 2 * (y * y + z * z), fz = 2 * (x * z - w * y);
  if (Math.hypot(fx, fz) < 1e-9) return NaN; // bow straight up or down: no heading
  const deg = (Math.atan2(-fz, fx) * 180) / Math.PI;
  return deg < 0 ? deg + 360 : deg >= 360 ? deg - 360 : deg;
}

/** Heel (+ starboard down) or trim (+ bow up) with the side it leans to. */
export function leanText(deg: number, plus: string, minus: string): string {
  if (!Number.isFinite(deg)) return "–";
  const side = Math.abs(deg) < 0.05 ? "" : ` ${deg > 0 ? plus : minus}`;
  return `${Math.abs(deg).toFixed(1)}°${side}`;
}

/**
 * The measured latency (arrival wall clock minus the server's send time).
 * A negative one is no latency: this machine's clock is behind the
 * server's, so the figure says nothing about the network. It is shown as
 * "clock skew" with the figure in the tooltip.
 */
export function latencyText(meanMs: number, maxMs: number): { text: string; title: string; skew: boolean } {
  const base = "Arrival time here minus the server's send time (send_time_ns): the two clocks must agree (the same host, or NTP).";
  if (!Number.isFinite(meanMs)) return { text: "–", title: base, skew: false };
  if (meanMs < 0 || maxMs < 0)
    return {
      text: "clock skew",
      title: `${base} Measured ${meanMs.toFixed(1)} ms (max ${fmt(maxMs, 1)} ms): below zero, so this machine's clock is ` +
        `behind the server's by at least ${(-Math.min(meanMs, maxMs)).toFixed(0)} ms and the latency cannot be measured.`,
      skew: true,
    };
  return { text: `${meanMs.toFixed(1)} ms, max ${fmt(maxMs, 1)} ms (server send → here)`, title: base, skew: false };
}

/** Throttle or rudder as a signed percentage. */
export function percentText(v: number): string {
  // No break inside the figure: a narrow card wraps between figures only.
  return Number.isFinite(v) ? `${v > 0 ? "+" : ""}${Math.round(v * 100)}\u00a0%` : "–";
}

/** One contact as the card shows its last one: "boat 7, 1.3 m/s, 4 s ago" or "the ground, ...". */
export function contactText(c: ContactData, self: number, agoS: number): string {
  const other = c.b === CONTACT_GROUND ? "the ground" : `boat ${c.a === self ? c.b : c.a}`;
  return `${other}, ${c.closingSpeed.toFixed(1)} m/s, ${agoS < 1 ? "just now" : `${agoS.toFixed(0)} s ago`}`;
}

/** A vessel's contacts: how many began since the page saw it first, and the last one. */
export interface ContactTally {
  count: number;
  last: ContactData;
  /** When the last one arrived (s, the page's clock). */
  at: number;
}

/**
 * The contacts of every vessel, from the full snapshots' `contacts` (each
 * contact is in the snapshot of the step it began in, docs/contacts.md).
 */
export class ContactLog {
  private readonly byId = new Map<number, ContactTally>();

  add(contacts: readonly ContactData[], now: number): void {
    for (const c of contacts) {
      this.note(c.a, c, now);
      if (c.b !== CONTACT_GROUND) this.note(c.b, c, now);
    }
  }

  private note(id: number, c: ContactData, now: number): void {
    const t = this.byId.get(id);
    if (t) {
      t.count++;
      t.last = c;
      t.at = now;
    } else this.byId.set(id, { count: 1, last: c, at: now });
  }

  of(id: number): ContactTally | null {
    return this.byId.get(id) ?? null;
  }

  /** A new world: its vessel ids are other boats. */
  clear(): void {
    this.byId.clear();
  }
}
