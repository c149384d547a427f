// SPDX-License-Identifier: MIT
// A replay file (naval-replay --export-web; docs/protocol.md, "Replay
// files") read in memory: the world info and hull meshes the page would
// have asked the server for, and an index of the full snapshots (tick and
// sim time of each, read from the FlatBuffer without decoding its
// vessels). Snapshots are decoded when played, a few kept: a long session
// of many boats decoded at once would not fit a tab. Pure (no DOM), so
// that Node tests it.

import * as flatbuffers from "flatbuffers";
import { Snapshot } from "@naval/proto/snapshot";
import { decodeResponse, decodeSnapshot, type Frame, type HullData, type WorldInfoData } from "./wire";

export const REPLAY_MAGIC = "NVREPLAY";
export const REPLAY_VERSION = 1;
const HEADER_BYTES = 32;
const RECORD_WORLD_INFO = 1;
const RECORD_HULL = 2;
const RECORD_SNAPSHOT = 3;
/** Decoded snapshots kept (playing needs two; a few more make stepping back cheap). */
const DECODED_KEPT = 8;

export class ReplayFileError extends Error {}

export interface ReplayFile {
  version: number;
  /** Ticks between snapshots, as exported. */
  stride: number;
  world: WorldInfoData;
  hulls: Map<number, HullData>;
  /** Per snapshot, in file order (ticks strictly increasing). */
  ticks: Float64Array;
  simTimes: Float64Array;
  /** false when the header's snapshot count is missing or differs (a file cut short): what is there plays. */
  complete: boolean;
  byteLength: number;
  /** Snapshot i, decoded (cached). */
  frame(i: number): Frame;
  /** The index of the first snapshot at or after sim time t (the last one past the end). */
  indexAfter(t: number): number;
}

function fail(msg: string): never {
  throw new ReplayFileError(`replay file: ${msg}`);
}

function identifier(bytes: Uint8Array, at: number, length: number): string {
  return length >= 8 ? String.fromCharCode(...bytes.subarray(at + 4, at + 8)) : "";
}

/** Reads a whole replay file; throws ReplayFileError saying what is wrong and where. */
export function parseReplay(data: ArrayBuffer): ReplayFile {
  const bytes = new Uint8Array(data);
  const dv = new DataView(data);
  if (bytes.length < HEADER_BYTES) fail(`${bytes.length} bytes is too short for its ${HEADER_BYTES}-byte header`);
  const magic = String.fromCharCode(...bytes.subarray(0, 8));
  if (magic !== REPLAY_MAGIC) fail(`starts with ${JSON.stringify(magic)}, not ${REPLAY_MAGIC} (not a file from naval-replay --export-web)`);
  const version = dv.getUint32(8, true);
  if (version !== REPLAY_VERSION) fail(`version ${version}; this page reads version ${REPLAY_VERSION}`);
  const typeCount = dv.getUint32(12, true), snapshotCount = dv.getUint32(16, true), stride = dv.getUint32(20, true);
  let world: WorldInfoData | null = null;
  const hulls = new Map<number, HullData>();
  const offsets: number[] = [], lengths: number[] = [], ticks: number[] = [], simTimes: number[] = [];
  let at = HEADER_BYTES;
  for (let n = 0; at < bytes.length; n++) {
    const where = `record ${n} at byte ${at}`;
    if (at + 8 > bytes.length) fail(`${where}: the file ends inside its 8-byte head`);
    const length = dv.getUint32(at, true), kind = dv.getUint32(at + 4, true), start = at + 8;
    if (start + length > bytes.length) fail(`${where}: ${length} bytes run past the end of the file (${bytes.length} bytes)`);
    const body = bytes.subarray(start, start + length);
    if (kind === RECORD_WORLD_INFO || kind === RECORD_HULL) {
      if (offsets.length) fail(`${where}: world info or hull after the snapshots`);
      let r;
      try {
        r = decodeResponse(body);
      } catch (e) {
        fail(`${where}: ${(e as Error).message}`);
      }
      if (kind === RECORD_WORLD_INFO) {
        if (r.body.kind !== "worldInfo" || world) fail(`${where}: expected the one world info, got ${world ? "a second" : r.body.kind}`);
        world = r.body.info;
      } else {
        if (r.body.kind !== "hull") fail(`${where}: expected a hull mesh, got ${r.body.kind}`);
        hulls.set(r.body.hull.type, r.body.hull);
      }
    } else if (kind === RECORD_SNAPSHOT) {
      if (!world) fail(`${where}: a snapshot before the world info`);
      const id = identifier(body, 0, length);
      if (id !== "NVSS") fail(`${where}: identifier ${JSON.stringify(id)}, expected NVSS (a Snapshot)`);
      const s = Snapshot.getRootAsSnapshot(new flatbuffers.ByteBuffer(body));
      const tick = Number(s.tick()), simTime = s.simTime();
      if (ticks.length && tick <= ticks[ticks.length - 1]) fail(`${where}: tick ${tick} after tick ${ticks[ticks.length - 1]}`);
      if (!Number.isFinite(simTime)) fail(`${where}: sim time ${simTime}`);
      offsets.push(start);
      lengths.push(length);
      ticks.push(tick);
      simTimes.push(simTime);
    } else {
      fail(`${where}: unknown kind ${kind} (1 world info, 2 hull, 3 snapshot)`);
    }
    at = start + length + ((8 - (length % 8)) % 8);
  }
  if (!world) fail("no world info");
  if (!ticks.length) fail("no snapshots");
  for (const t of world.types) if (!hulls.has(t.type)) fail(`no hull mesh for type ${t.type} (${t.name})`);
  if (hulls.size !== typeCount) fail(`${hulls.size} hull meshes, the header says ${typeCount}`);

  const times = Float64Array.from(simTimes);
  const cache = new Map<number, Frame>();
  return {
    version,
    stride,
    world,
    hulls,
    ticks: Float64Array.from(ticks),
    simTimes: times,
    complete: snapshotCount === ticks.length,
    byteLength: bytes.length,
    frame(i: number): Frame {
      if (!(i >= 0 && i < offsets.length)) throw new RangeError(`replay file: no snapshot ${i} (it has ${offsets.length})`);
      let f = cache.get(i);
      if (f) {
        cache.delete(i); // most recently used last
      } else {
        f = decodeSnapshot(data.slice(offsets[i], offsets[i] + lengths[i]));
        if (cache.size >= DECODED_KEPT) cache.delete(cache.keys().next().value as number);
      }
      cache.set(i, f);
      return f;
    },
    indexAfter(t: number): number {
      let lo = 0, hi = times.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (times[mid] < t) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    },
  };
}
