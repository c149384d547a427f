// SPDX-License-Identifier: MIT
// The protocol (proto/naval.fbs) through the TypeScript flatc generates at
// build time: snapshots into flat typed arrays, requests out, responses
// and their bodies (world info, hull meshes, spawn replies) into plain
// objects. The TS runtime has no verifier, so every decoder checks the
// file identifier and throws an Error that says what is wrong; a browser
// should only talk to its own server anyway (docs/protocol.md).

import * as flatbuffers from "flatbuffers";
// flatc's output, one module per table (BUILD/proto/ts/naval/proto/*.ts),
// staged as src/gen/ with ".js" on its imports (clients/ts/build.mjs).
import { Contact } from "./gen/naval/proto/contact.js";
import { Control } from "./gen/naval/proto/control.js";
import { Damage } from "./gen/naval/proto/damage.js";
import { DamageEvent } from "./gen/naval/proto/damage-event.js";
import { DamageReply } from "./gen/naval/proto/damage-reply.js";
import { Despawn } from "./gen/naval/proto/despawn.js";
import { GetHull } from "./gen/naval/proto/get-hull.js";
import { GetStats } from "./gen/naval/proto/get-stats.js";
import { GetWorldInfo } from "./gen/naval/proto/get-world-info.js";
import { Hello } from "./gen/naval/proto/hello.js";
import { HelloReply } from "./gen/naval/proto/hello-reply.js";
import { HullMesh } from "./gen/naval/proto/hull-mesh.js";
import { OceanSpec } from "./gen/naval/proto/ocean-spec.js";
import { Pumps } from "./gen/naval/proto/pumps.js";
import { Request } from "./gen/naval/proto/request.js";
import { RequestBody } from "./gen/naval/proto/request-body.js";
import { Response } from "./gen/naval/proto/response.js";
import { ResponseBody } from "./gen/naval/proto/response-body.js";
import { Snapshot } from "./gen/naval/proto/snapshot.js";
import { Spawn } from "./gen/naval/proto/spawn.js";
import { SpawnReply } from "./gen/naval/proto/spawn-reply.js";
import { StatsReply } from "./gen/naval/proto/stats-reply.js";
import { Status } from "./gen/naval/proto/status.js";
import { TerrainInfo } from "./gen/naval/proto/terrain-info.js";
import { StructureInfo } from "./gen/naval/proto/structure-info.js";
import { TickStats } from "./gen/naval/proto/tick-stats.js";
import { Token } from "./gen/naval/proto/token.js";
import { Vec3d } from "./gen/naval/proto/vec3d.js";
import { VesselDamage } from "./gen/naval/proto/vessel-damage.js";
import { VesselState } from "./gen/naval/proto/vessel-state.js";
import { VesselType } from "./gen/naval/proto/vessel-type.js";
import { WorldInfo } from "./gen/naval/proto/world-info.js";
import { Vec3f } from "./gen/naval/proto/vec3f.js";
import { readDamage, readDamageEvents, type DamageEventData, type VesselDamageData } from "./damage.js";

export const PROTO_VERSION = 1;
const VESSEL_BYTES = 72; // the VesselState struct, fixed forever

export interface TickStatsData {
  stepMs: number;
  waterMs: number;
  snapshotMs: number;
  vesselCount: number;
  subscribers: number;
  overruns: number;
  lodMs: number;
}

/** Vessel flags (naval.fbs VesselState.flags). */
export const FLAG_FROZEN = 1;
export const FLAG_PLAYER = 2;
/** On the ground: it touched the seabed or land in the last step. */
export const FLAG_GROUNDED = 16;
/** Capsized: heeled past 90 degrees about its own x axis (core's nv_world_capsized). */
export const FLAG_CAPSIZED = 32;
/** Contact.b of a contact with the ground. */
export const CONTACT_GROUND = 0xffffffff;

/** A contact that began at `tick` (naval.fbs Contact). */
export interface ContactData {
  tick: number;
  a: number;
  b: number; // CONTACT_GROUND for the ground
  point: [number, number, number];
  normal: [number, number, number];
  closingSpeed: number; // m/s
  impulse: number; // N s
}

/** A message's contacts (a snapshot's, a view update's): `get(i, c)` fills c with the i-th of `count`. */
export function readContacts(count: number, get: (i: number, c: Contact) => Contact | null): ContactData[] {
  const out: ContactData[] = [];
  const c = new Contact(), p = new Vec3d(), n = new Vec3f();
  for (let i = 0; i < count; i++) {
    if (!get(i, c)) throw new Error(`contact ${i} of ${count} missing`);
    c.point(p);
    c.normal(n);
    out.push({
      tick: Number(c.tick()), a: c.a(), b: c.b(), point: [p.x(), p.y(), p.z()], normal: [n.x(), n.y(), n.z()],
      closingSpeed: c.closingSpeed(), impulse: c.impulse(),
    });
  }
  return out;
}
/** How a vessel meets the water, from its flags: 0 mesh, 1 columns, 2 floater. */
export function modelOf(flags: number): number {
  return (flags >> 2) & 3;
}

/** One snapshot, per vessel as structure-of-arrays (i-th vessel: ids[i], pos[3i..3i+2], quat[4i..4i+3]). */
export interface Frame {
  tick: number;
  simTime: number;
  sendTimeMs: number; // server wall clock, ms since 1970
  stats: TickStatsData;
  count: number;
  ids: Uint32Array;
  types: Uint16Array;
  flags: Uint16Array;
  pos: Float64Array;
  quat: Float32Array;
  vel: Float32Array;
  /** Contacts begun since the previous snapshot. */
  contacts: ContactData[];
  /** Every damaged vessel (docs/protocol.md, "Damage"), in the vessels' order. */
  damage: VesselDamageData[];
  /** Damage events since the previous snapshot, in step order. */
  damageEvents: DamageEventData[];
  bytes: number;
}

/**
 * Vessel i's heading in a frame: the bow's direction in radians about +y,
 * from +x toward -z, in (-pi, pi] (as SpawnSpec.heading and the C#
 * binding's VesselState.Heading).
 */
export function headingOf(f: Frame, i: number): number {
  const [x, y, z, w] = [f.quat[4 * i], f.quat[4 * i + 1], f.quat[4 * i + 2], f.quat[4 * i + 3]];
  // The bow in the world: the first column of the rotation matrix.
  const bx = 1 - 2 * (y * y + z * z), bz = 2 * (x * z - w * y);
  return Math.atan2(-bz, bx);
}

/** Vessel i's horizontal speed in a frame, m/s. */
export function speedOf(f: Frame, i: number): number {
  return Math.hypot(f.vel[3 * i], f.vel[3 * i + 2]);
}

function checkIdentifier(bb: flatbuffers.ByteBuffer, id: string, what: string): void {
  if (bb.capacity() < 8) throw new Error(`${what}: ${bb.capacity()} bytes is too short for a message`);
  if (!bb.__has_identifier(id)) {
    const got = String.fromCharCode(...bb.bytes().subarray(4, 8));
    throw new Error(`${what}: identifier ${JSON.stringify(got)}, expected ${id}`);
  }
}

export function decodeSnapshot(data: ArrayBuffer): Frame {
  const bytes = new Uint8Array(data);
  const bb = new flatbuffers.ByteBuffer(bytes);
  checkIdentifier(bb, "NVSS", "snapshot");
  const s = Snapshot.getRootAsSnapshot(bb);
  const st = s.stats(new TickStats());
  const count = s.vesselsLength();
  const frame: Frame = {
    tick: Number(s.tick()),
    simTime: s.simTime(),
    sendTimeMs: Number(s.sendTimeNs() / 1000n) / 1000,
    stats: {
      stepMs: st ? st.stepMs() : 0,
      waterMs: st ? st.waterMs() : 0,
      snapshotMs: st ? st.snapshotMs() : 0,
      vesselCount: st ? st.vesselCount() : count,
      subscribers: st ? st.subscribers() : 0,
      overruns: st ? Number(st.overruns()) : 0,
      lodMs: st ? st.lodMs() : 0,
    },
    count,
    ids: new Uint32Array(count),
    types: new Uint16Array(count),
    flags: new Uint16Array(count),
    pos: new Float64Array(3 * count),
    quat: new Float32Array(4 * count),
    vel: new Float32Array(3 * count),
    contacts: readContacts(s.contactsLength(), (i, o) => s.contacts(i, o)),
    damage: readDamage(s.damageLength(), (i, o) => s.damage(i, o), () => new VesselDamage()),
    damageEvents: readDamageEvents(s.damageEventsLength(), (i, o) => s.damageEvents(i, o), () => new DamageEvent()),
    bytes: data.byteLength,
  };
  if (count === 0) return frame;
  // The generated accessor locates the struct vector; its 72-byte records
  // are then read in one pass (an object per vessel per tick would not do
  // for thousands of boats).
  const base = s.vessels(0, new VesselState())!.bb_pos;
  if (base + count * VESSEL_BYTES > bytes.length) throw new Error(`snapshot: ${count} vessels do not fit in ${bytes.length} bytes`);
  const dv = new DataView(data, 0, bytes.length);
  for (let i = 0, o = base; i < count; i++, o += VESSEL_BYTES) {
    frame.ids[i] = dv.getUint32(o, true);
    frame.types[i] = dv.getUint16(o + 4, true);
    frame.flags[i] = dv.getUint16(o + 6, true);
    for (let k = 0; k < 3; k++) frame.pos[3 * i + k] = dv.getFloat64(o + 8 + 8 * k, true);
    for (let k = 0; k < 4; k++) frame.quat[4 * i + k] = dv.getFloat32(o + 32 + 4 * k, true);
    for (let k = 0; k < 3; k++) frame.vel[3 * i + k] = dv.getFloat32(o + 48 + 4 * k, true);
  }
  return frame;
}

// ---- requests ------------------------------------------------------------

export interface VesselToken {
  lo: bigint;
  hi: bigint;
}

export type RequestSpec =
  | { kind: "hello"; clientName: string }
  | { kind: "worldInfo" }
  | { kind: "hull"; type: number }
  | { kind: "stats" }
  | { kind: "spawn"; typeName: string; type: number; x: number; z: number; heading: number }
  | { kind: "control"; id: number; token: VesselToken; throttle: number; rudder: number }
  | { kind: "despawn"; id: number; token: VesselToken }
  /** The vessel's pumps on or off (its owner's token). */
  | { kind: "pumps"; id: number; token: VesselToken; on: boolean }
  /** Admin only (the server's admin token): a hole of `area` m^2 in (0, 100] at `point` (body frame about the CG, m). */
  | { kind: "damage"; id: number; point: [number, number, number]; area: number; adminToken: string };

/* The server refuses a Control outside [-1, 1] (its codec's words); say so
 * here, before the request leaves, rather than clamp it silently. */
const checkUnit = (v: number, what: string): number => {
  if (!Number.isFinite(v) || v < -1 || v > 1) throw new RangeError(`control: ${what} ${v} must be in [-1, 1]`);
  return v;
};

export function encodeRequest(requestId: bigint, r: RequestSpec): Uint8Array {
  const b = new flatbuffers.Builder(128);
  let type: RequestBody, body: flatbuffers.Offset, admin = 0;
  switch (r.kind) {
    case "hello": {
      const name = b.createString(r.clientName);
      Hello.startHello(b);
      Hello.addProtocolVersion(b, PROTO_VERSION);
      Hello.addClientName(b, name);
      body = Hello.endHello(b);
      type = RequestBody.Hello;
      break;
    }
    case "worldInfo":
      GetWorldInfo.startGetWorldInfo(b);
      body = GetWorldInfo.endGetWorldInfo(b);
      type = RequestBody.GetWorldInfo;
      break;
    case "stats":
      GetStats.startGetStats(b);
      body = GetStats.endGetStats(b);
      type = RequestBody.GetStats;
      break;
    case "hull":
      GetHull.startGetHull(b);
      GetHull.addType(b, r.type);
      body = GetHull.endGetHull(b);
      type = RequestBody.GetHull;
      break;
    case "spawn": {
      if (![r.x, r.z, r.heading].every(Number.isFinite)) throw new Error(`spawn: position and heading must be finite (got ${r.x}, ${r.z}, ${r.heading})`);
      const name = b.createString(r.typeName);
      Spawn.startSpawn(b);
      Spawn.addType(b, r.type);
      Spawn.addTypeName(b, name);
      Spawn.addX(b, r.x);
      Spawn.addZ(b, r.z);
      Spawn.addHeading(b, r.heading);
      body = Spawn.endSpawn(b);
      type = RequestBody.Spawn;
      break;
    }
    case "control":
      Control.startControl(b);
      Control.addVesselId(b, r.id);
      Control.addToken(b, Token.createToken(b, r.token.lo, r.token.hi));
      Control.addThrottle(b, checkUnit(r.throttle, "throttle"));
      Control.addRudder(b, checkUnit(r.rudder, "rudder"));
      body = Control.endControl(b);
      type = RequestBody.Control;
      break;
    case "despawn":
      Despawn.startDespawn(b);
      Despawn.addVesselId(b, r.id);
      Despawn.addToken(b, Token.createToken(b, r.token.lo, r.token.hi));
      body = Despawn.endDespawn(b);
      type = RequestBody.Despawn;
      break;
    case "pumps":
      Pumps.startPumps(b);
      Pumps.addVesselId(b, r.id);
      Pumps.addToken(b, Token.createToken(b, r.token.lo, r.token.hi));
      Pumps.addOn(b, r.on);
      body = Pumps.endPumps(b);
      type = RequestBody.Pumps;
      break;
    case "damage": {
      if (!r.point.every(Number.isFinite) || !(r.area > 0 && r.area <= 100))
        throw new Error(`damage: the point must be finite and the area in (0, 100] m² (got ${r.point}, ${r.area})`);
      admin = b.createString(r.adminToken);
      Damage.startDamage(b);
      Damage.addVesselId(b, r.id);
      Damage.addPoint(b, Vec3f.createVec3f(b, r.point[0], r.point[1], r.point[2]));
      Damage.addArea(b, r.area);
      body = Damage.endDamage(b);
      type = RequestBody.Damage;
      break;
    }
  }
  Request.startRequest(b);
  Request.addRequestId(b, requestId);
  if (admin) Request.addAdminToken(b, admin);
  Request.addBodyType(b, type);
  Request.addBody(b, body);
  b.finish(Request.endRequest(b), "NVRQ");
  return b.asUint8Array();
}

// ---- responses -------------------------------------------------------------

export interface VesselTypeData {
  type: number;
  name: string;
  mass: number;
  boundsMin: [number, number, number];
  boundsMax: [number, number, number];
  vertexCount: number;
  triangleCount: number;
  /** m^3 each, in the order of VesselDamage.fill; empty: no compartments (cannot be holed). */
  compartmentVolumes: number[];
  /** m^3/s each compartment's pump removes; 0: none. */
  pumpRate: number;
}

/** The server's ocean (naval.fbs OceanSpec, core's ocean_params): everything needed to rebuild its waves. */
export interface OceanSpecData {
  spectrum: number; // 0 Phillips, 1 Pierson-Moskowitz, 2 JONSWAP, 3 TMA
  spreading: number; // 0 auto, 1 cos2, 2 Mitsuyasu, 3 Donelan-Banner
  gravity: number; // m/s^2
  windSpeed: number; // U10, m/s, for every spectrum
  windDirection: number; // degrees about +y from +x toward -z, as headings
  fetch: number; // m
  depth: number; // m, 0: deep water
  gamma: number;
  swell: number;
  choppiness: number;
  beaufort: number;
  hsTarget: number; // m, 0: from the wind
  tp?: number; // s, peak period of the hsTarget sea; 0 or absent: from the wind (at least 3.6 sqrt(Hs))
  size: number; // m, cascade 0's tile as the server resolved it
  cascadeRatio: number;
  cascades: number;
  resolution: number;
  resolutionZ: number;
  repeatPeriod: number; // s
  minWavelength: number; // m
  seed: bigint;
}

export interface WorldInfoData {
  protocolVersion: number;
  serverName: string;
  tickHz: number;
  tick: number;
  simTime: number;
  gravity: number;
  waterDensity: number;
  /** null: flat water at y = 0. `time` is the ocean's clock at simTime. */
  ocean: (OceanSpecData & { time: number }) | null;
  types: VesselTypeData[];
  /** null: open deep sea. */
  terrain: TerrainData | null;
  /** What vessels collide with besides the ground (quays, piers): each one's convex hull. */
  structures: StructureData[];
}

/** A structure (naval.fbs StructureInfo): its convex hull as triangles, world frame. */
export interface StructureData {
  vertices: Float32Array; // 3 per vertex, m
  indices: Uint32Array;   // 3 per triangle, counter-clockwise from outside
}

/** The ground (naval.fbs TerrainInfo): node (i, j) at origin + (i, j) * cell, elevations in m, + up. */
export interface TerrainData {
  originX: number;
  originZ: number;
  cell: number;
  nx: number;
  nz: number;
  elevation: Float32Array; // nx * nz, row j (z) after row j - 1
}

function terrainData(t: TerrainInfo | null): TerrainData | null {
  if (!t) return null;
  const nx = t.nx(), nz = t.nz(), n = t.heightsLength();
  if (nx < 2 || nz < 2 || n !== nx * nz) return null; // the server never sends this: draw nothing
  const lo = t.minElevation(), span = (t.maxElevation() - lo) / 65535;
  const h = t.heightsArray()!;
  const elevation = new Float32Array(n);
  for (let k = 0; k < n; k++) elevation[k] = lo + h[k] * span;
  return { originX: t.originX(), originZ: t.originZ(), cell: t.cellSize(), nx, nz, elevation };
}

export interface HullData {
  type: number;
  name: string;
  vertices: Float32Array; // 3 per vertex, body frame about the CG
  indices: Uint32Array;   // 3 per triangle, counter-clockwise from outside
}

export interface StatsData {
  tick: number;
  vesselCount: number;
  clients: number;
  subscribers: number;
  stepMsP50: number;
  stepMsP99: number;
  overruns: number;
}

export type ResponseBodyData =
  | { kind: "none" }
  | { kind: "hello"; protocolVersion: number; serverName: string; tickHz: number; maxVesselsPerClient: number }
  | { kind: "spawn"; id: number; token: VesselToken; x: number; z: number }
  | { kind: "control" }
  | { kind: "despawn" }
  | { kind: "worldInfo"; info: WorldInfoData }
  | { kind: "hull"; hull: HullData }
  | { kind: "stats"; stats: StatsData }
  | { kind: "damage"; compartment: number }
  | { kind: "pumps" };

export interface ResponseData {
  requestId: bigint;
  status: number;
  statusName: string;
  error: string;
  body: ResponseBodyData;
}

const STATUS_NAMES = ["ok", "bad_request", "unauthorized", "not_found", "limit_exceeded", "rate_limited", "unsupported", "internal", "shutting_down"];
export const statusName = (s: number): string => STATUS_NAMES[s] ?? `status ${s}`;

const vec3 = (v: Vec3f | null): [number, number, number] => (v ? [v.x(), v.y(), v.z()] : [0, 0, 0]);

function worldInfoData(w: WorldInfo): WorldInfoData {
  const o: OceanSpec | null = w.ocean(new OceanSpec());
  const types: VesselTypeData[] = [];
  for (let i = 0; i < w.vesselTypesLength(); i++) {
    const t = w.vesselTypes(i, new VesselType())!;
    // Element by element: a Float32Array view needs an aligned offset.
    const compartmentVolumes: number[] = [];
    for (let k = 0, n = t.compartmentVolumesLength(); k < n; k++) compartmentVolumes.push(t.compartmentVolumes(k) ?? 0);
    types.push({
      type: t.type(), name: t.name() ?? `type ${t.type()}`, mass: t.mass(), boundsMin: vec3(t.boundsMin(new Vec3f())),
      boundsMax: vec3(t.boundsMax(new Vec3f())), vertexCount: t.vertexCount(), triangleCount: t.triangleCount(),
      compartmentVolumes, pumpRate: t.pumpRate(),
    });
  }
  return {
    protocolVersion: w.protocolVersion(),
    serverName: w.serverName() ?? "",
    tickHz: w.tickHz(),
    tick: Number(w.tick()),
    simTime: w.simTime(),
    gravity: w.gravity(),
    waterDensity: w.waterDensity(),
    ocean: o && {
      spectrum: o.spectrum(), spreading: o.spreading(), gravity: o.gravity(), windSpeed: o.windSpeed(),
      windDirection: o.windDirection(), fetch: o.fetch(), depth: o.depth(), gamma: o.gamma(), swell: o.swell(),
      choppiness: o.choppiness(), beaufort: o.beaufort(), hsTarget: o.hsTarget(), size: o.size(),
      cascadeRatio: o.cascadeRatio(), cascades: o.cascades(), resolution: o.resolution(), resolutionZ: o.resolutionZ(),
      repeatPeriod: o.repeatPeriod(), minWavelength: o.minWavelength(), seed: o.seed(), time: o.time(), tp: o.tp(),
    },
    types,
    terrain: terrainData(w.terrain(new TerrainInfo())),
    structures: Array.from({ length: w.structuresLength() }, (_, k) => structureData(w.structures(k, new StructureInfo())!, k)),
  };
}

/** A Vec3f vector's floats, read in one pass over the buffer. */
function vec3fArray(first: Vec3f | null, count: number, bytes: Uint8Array): Float32Array {
  const out = new Float32Array(3 * count);
  if (count > 0 && first) {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < 3 * count; i++) out[i] = dv.getFloat32(first.bb_pos + 4 * i, true);
  }
  return out;
}

function structureData(st: StructureInfo, k: number): StructureData {
  const nv = st.verticesLength(), ni = st.indicesLength();
  if (ni % 3 !== 0) throw new Error(`structure ${k}: ${ni} indices is not a whole number of triangles`);
  const vertices = vec3fArray(st.vertices(0, new Vec3f()), nv, st.bb!.bytes());
  const indices = new Uint32Array(ni);
  for (let i = 0; i < ni; i++) {
    const v = st.indices(i)!;
    if (v >= nv) throw new Error(`structure ${k}: index ${v} at ${i} is past its ${nv} vertices`);
    indices[i] = v;
  }
  return { vertices, indices };
}

function hullData(h: HullMesh): HullData {
  const nv = h.verticesLength(), ni = h.indicesLength();
  if (ni % 3 !== 0) throw new Error(`hull ${h.type()}: ${ni} indices is not a whole number of triangles`);
  const vertices = vec3fArray(nv > 0 ? h.vertices(0, new Vec3f()) : null, nv, h.bb!.bytes());
  const indices = new Uint32Array(ni);
  for (let i = 0; i < ni; i++) {
    const v = h.indices(i)!;
    if (v >= nv) throw new Error(`hull ${h.type()}: index ${v} at ${i} is past its ${nv} vertices`);
    indices[i] = v;
  }
  return { type: h.type(), name: h.name() ?? `type ${h.type()}`, vertices, indices };
}

function tokenData(t: Token | null): VesselToken {
  if (!t) throw new Error("spawn reply: no token");
  return { lo: t.lo(), hi: t.hi() };
}

export function decodeResponse(bytes: Uint8Array): ResponseData {
  const bb = new flatbuffers.ByteBuffer(bytes);
  checkIdentifier(bb, "NVRS", "response");
  const r = Response.getRootAsResponse(bb);
  const status = r.status();
  const out: ResponseData = { requestId: r.requestId(), status, statusName: statusName(status), error: r.error() ?? "", body: { kind: "none" } };
  if (status !== Status.Ok) return out;
  switch (r.bodyType()) {
    case ResponseBody.HelloReply: {
      const h = r.body(new HelloReply()) as HelloReply;
      out.body = { kind: "hello", protocolVersion: h.protocolVersion(), serverName: h.serverName() ?? "", tickHz: h.tickHz(), maxVesselsPerClient: h.maxVesselsPerClient() };
      break;
    }
    case ResponseBody.SpawnReply: {
      const s = r.body(new SpawnReply()) as SpawnReply;
      out.body = { kind: "spawn", id: s.vesselId(), token: tokenData(s.token(new Token())), x: s.x(), z: s.z() };
      break;
    }
    case ResponseBody.ControlReply:
      out.body = { kind: "control" };
      break;
    case ResponseBody.DespawnReply:
      out.body = { kind: "despawn" };
      break;
    case ResponseBody.WorldInfo:
      out.body = { kind: "worldInfo", info: worldInfoData(r.body(new WorldInfo()) as WorldInfo) };
      break;
    case ResponseBody.HullMesh:
      out.body = { kind: "hull", hull: hullData(r.body(new HullMesh()) as HullMesh) };
      break;
    case ResponseBody.StatsReply: {
      const s = r.body(new StatsReply()) as StatsReply;
      out.body = {
        kind: "stats",
        stats: {
          tick: Number(s.tick()), vesselCount: s.vesselCount(), clients: s.clients(), subscribers: s.subscribers(),
          stepMsP50: s.stepMsP50(), stepMsP99: s.stepMsP99(), overruns: Number(s.overruns()),
        },
      };
      break;
    }
    case ResponseBody.DamageReply:
      out.body = { kind: "damage", compartment: (r.body(new DamageReply()) as DamageReply).compartment() };
      break;
    case ResponseBody.PumpsReply:
      out.body = { kind: "pumps" };
      break;
    default:
      throw new Error(`response: unknown body type ${r.bodyType()}`);
  }
  return out;
}
