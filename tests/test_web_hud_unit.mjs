// SPDX-License-Identifier: MIT
// The page's HUD helpers in Node (BUILD/clients/web/lib, pure modules):
// knots, the protocol's heading from a quaternion, latency or clock skew,
// the contact tally of a vessel, the follow tracker's decisions (a boat
// not found, one gone, a pause of the stream that is no loss) and the URL
// parameters' warnings.
//
// Usage: node test_web_hud_unit.mjs WEB_STAGE
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const stage = resolve(process.argv[2] ?? "");
if (!process.argv[2]) {
  console.error("usage: node test_web_hud_unit.mjs WEB_STAGE");
  process.exit(2);
}
const lib = (m) => {
  const p = join(stage, "lib", `${m}.mjs`);
  if (!existsSync(p)) {
    console.error(`FAIL: ${p} is missing: build the target web first`);
    process.exit(1);
  }
  return import(pathToFileURL(p).href);
};
const fmt = await lib("hudfmt");
const { FollowTracker, FOLLOW_WAIT_S, FOLLOW_LOST_S } = await lib("follow");
const { paramWarnings, followParam } = await lib("params");

let failures = 0, checks = 0;
function check(cond, msg) {
  checks++;
  if (!cond) {
    failures++;
    console.error(`FAIL: ${msg}`);
  }
}
const near = (a, b, tol = 1e-9) => Math.abs(a - b) <= tol;

// Knots: 1852 m an hour.
check(near(fmt.KNOTS_PER_MS * 1852, 3600), `knots per m/s: ${fmt.KNOTS_PER_MS}`);
check(fmt.speedText(1852 / 3600 * 10) === "5.14 m/s · 10.0 kn", `10 kn: ${fmt.speedText(1852 / 3600 * 10)}`);
check(fmt.speedText(NaN) === "–", "unknown speed");

// Heading: about +y from +x toward -z, [0, 360). A yaw of a about +y
// (right-handed: +x turns toward -z) is the quaternion (0, sin a/2, 0, cos a/2).
const yaw = (deg) => {
  const h = (deg * Math.PI) / 360;
  return [0, Math.sin(h), 0, Math.cos(h)];
};
for (const [deg, want] of [[0, 0], [90, 90], [180, 180], [-90, 270], [359, 359], [450, 90]]) {
  const got = fmt.headingDeg(yaw(deg));
  check(near(got, want, 1e-6), `heading of a yaw of ${deg}°: ${got}, expected ${want}`);
}
// A yaw of 90°: the bow (+x) now points along -z, as the protocol counts heading.
{
  const [x, y, z, w] = yaw(90);
  const bowZ = 2 * (x * z - w * y);
  check(near(bowZ, -1, 1e-12), `a yaw of 90° points the bow along ${bowZ} z, expected -z`);
}
// Heeled 30° (about the bow axis), the heading is the yaw's.
{
  const a = (40 * Math.PI) / 360, b = (30 * Math.PI) / 360;
  // yaw 40° then heel: q = qyaw * qheel(about x)
  const [y1, w1] = [Math.sin(a), Math.cos(a)], [x2, w2] = [Math.sin(b), Math.cos(b)];
  const q = [w1 * x2, y1 * w2, -y1 * x2, w1 * w2];
  check(near(fmt.headingDeg(q), 40, 1e-6), `heading of a heeled boat: ${fmt.headingDeg(q)}`);
}
check(Number.isNaN(fmt.headingDeg([0, 0, Math.SQRT1_2, Math.SQRT1_2])), "a bow straight up has no heading");

// Latency, or clock skew.
{
  const ok = fmt.latencyText(12.34, 20);
  check(!ok.skew && ok.text === "12.3 ms, max 20.0 ms (server send → here)", `latency: ${ok.text}`);
  const skew = fmt.latencyText(-9119.2, -9000);
  check(skew.skew && skew.text === "clock skew" && !/-/.test(skew.text), `negative latency: ${skew.text}`);
  check(/Measured -9119\.2 ms/.test(skew.title) && /by at least 9119 ms/.test(skew.title), `skew tooltip: ${skew.title}`);
  const some = fmt.latencyText(3, -1); // one negative sample among the second's
  check(some.skew, "a negative maximum is skew too");
  check(fmt.latencyText(NaN, NaN).text === "–", "no latency yet");
}
check(fmt.percentText(0.75) === "+75\u00a0%" && fmt.percentText(-0.25) === "-25\u00a0%" && fmt.percentText(0) === "0\u00a0%", "percentages");
check(fmt.leanText(-2.04, "starboard", "port") === "2.0° port" && fmt.leanText(0.01, "bow up", "bow down") === "0.0°", "lean");

// Contacts: both vessels of a contact count it; the ground only its vessel.
{
  const log = new fmt.ContactLog();
  const c = (a, b, v) => ({ tick: 1, a, b, point: [0, 0, 0], normal: [0, 1, 0], closingSpeed: v, impulse: 1 });
  log.add([c(3, 7, 1.25), c(3, 0xffffffff, 0.5)], 10);
  log.add([c(7, 9, 2)], 12);
  check(log.of(3).count === 2 && log.of(7).count === 2 && log.of(9).count === 1 && log.of(4) === null, "contact counts");
  check(fmt.contactText(log.of(3).last, 3, 4.2) === "the ground, 0.5 m/s, 4 s ago", `last contact of 3: ${fmt.contactText(log.of(3).last, 3, 4.2)}`);
  check(fmt.contactText(log.of(9).last, 9, 0.2) === "boat 7, 2.0 m/s, just now", `last contact of 9: ${fmt.contactText(log.of(9).last, 9, 0.2)}`);
  log.clear();
  check(log.of(3) === null, "cleared");
}

// The follow tracker.
const where = { place: "in the snapshots", detail: "12 boats" };
{
  const f = new FollowTracker();
  const none = () => false;
  f.ask(99999, 0);
  check(f.followed === -1 && /looking for boat 99999/.test(f.message), `asked: ${f.message}`);
  // Not flowing: no verdict, however long.
  check(f.update(10, none, false, where).kind === "none" && f.pending === 99999, "a stalled stream cannot say a boat is missing");
  check(f.update(10 + FOLLOW_WAIT_S / 2, none, true, where).kind === "none" && f.pending === 99999, "too early to say");
  f.update(10 + FOLLOW_WAIT_S + 0.1, none, true, where);
  check(f.pending === -1 && f.followed === -1 && f.message === "no boat 99999 in the snapshots (12 boats): not following it", `not found: ${f.message}`);
}
{
  const f = new FollowTracker();
  let here = false;
  f.ask(5, 0);
  check(f.update(0.5, () => here, true, where).kind === "none", "not there yet");
  here = true;
  const a = f.update(0.6, (id) => here && id === 5, true, where);
  check(a.kind === "follow" && a.id === 5 && f.followed === 5 && f.message === "", `found: ${JSON.stringify(a)}`);
  here = false;
  // A stalled stream is no loss, and neither is the first moment after it.
  check(f.update(5, () => here, false, where).kind === "none" && f.followed === 5, "a pause lets it go");
  check(f.update(5 + FOLLOW_LOST_S * 0.4, () => here, true, where).kind === "none" && f.followed === 5, "lost too soon after a pause");
  const r = f.update(5 + FOLLOW_LOST_S * 1.2, () => here, true, where);
  check(r.kind === "release" && r.id === 5 && f.followed === -1 && /boat 5 is gone, not in the snapshots any more/.test(f.message), `lost: ${JSON.stringify(r)} ${f.message}`);
}
{
  const f = new FollowTracker();
  f.ask(8, 0);
  f.update(0.1, () => true, true, where);
  check(f.gone(9, "x").kind === "none" && f.followed === 8, "another boat's removal");
  const r = f.gone(8, "despawned or sunk (the view says so)");
  check(r.kind === "release" && f.followed === -1 && /boat 8 is gone, despawned or sunk/.test(f.message), `gone: ${f.message}`);
  f.ask(8, 1);
  f.release();
  check(f.pending === -1 && f.followed === -1 && f.message === "", "released");
}

// URL parameters.
{
  const w = (q) => paramWarnings(new URLSearchParams(q), 1500);
  check(w("ocean=256&quality=low&stream=full&radius=800&budget=64&follow=12&server=example.org:8080").length === 0, `good parameters: ${w("ocean=256&quality=low&stream=full&radius=800&budget=64&follow=12&server=example.org:8080")}`);
  check(w("ocean=100")[0] === "?ocean=100: not a power of two in [4, 2048]; using 128", `ocean: ${w("ocean=100")}`);
  check(/\?radius=-5: not a positive number of metres; using 1500 m/.test(w("radius=-5")[0]), `radius: ${w("radius=-5")}`);
  check(w("quality=high").length === 1 && w("stream=both").length === 1 && w("budget=").length === 1 && w("server=a b").length === 1, "other bad values");
  check(/\?follow=abc: not a boat id/.test(w("follow=abc")[0]) && w("follow=-1").length === 1, `follow: ${w("follow=abc")}`);
  check(followParam(new URLSearchParams("follow=42")) === 42 && followParam(new URLSearchParams("follow=4.5")) === -1 &&
    followParam(new URLSearchParams("")) === -1, "follow parameter");
}

if (failures) {
  console.error(`test_web_hud_unit: ${failures} of ${checks} checks failed`);
  process.exit(1);
}
console.log(`test_web_hud_unit: ok (${checks} checks)`);
