// SPDX-License-Identifier: MIT
/* naval-replay --export-web FILE: a replayed session as one file a browser
 * plays without a server (clients/web/src/replayfile.ts reads it;
 * docs/protocol.md, "Replay files"). A browser cannot re-simulate a record
 * log, so the exporter writes what the page would have received: the
 * world info and every hull mesh (the GetWorldInfo and GetHull Responses),
 * then full Snapshots sampled every `stride` ticks and at the last tick.
 *
 *   header (32 bytes, little-endian):
 *     0  "NVREPLAY"            magic
 *     8  u32 version           REPLAY_FILE_VERSION
 *     12 u32 type_count        hull records after the world info
 *     16 u32 snapshot_count    written last: 0 when the file was cut short
 *     20 u32 stride            ticks between snapshots
 *     24 u64 reserved          0
 *   records, each starting 8-aligned:
 *     u32 length, u32 kind (1 world info, 2 hull, 3 snapshot), the message
 *     (length bytes), zero padding to a multiple of 8
 *
 * Snapshots carry every contact and damage event since the previous one
 * (not only the sampled tick's), stats zero but the vessel count, and a
 * send time of 0: the file depends on the log alone, not on when it was
 * exported. Loop of naval-replay only. */
#ifndef NAVAL_SERVER_REPLAY_EXPORT_H
#define NAVAL_SERVER_REPLAY_EXPORT_H

#include <stdint.h>

#include "naval/nv_error.h"
#include "sim.h"

#define REPLAY_FILE_MAGIC "NVREPLAY"
#define REPLAY_FILE_VERSION 1u
#define REPLAY_FILE_HEADER 32u
#define REPLAY_RECORD_WORLD_INFO 1u
#define REPLAY_RECORD_HULL 2u
#define REPLAY_RECORD_SNAPSHOT 3u
#define REPLAY_DEFAULT_RATE_HZ 20.0

typedef struct replay_export replay_export;

/* Creates `path` and writes the header, the world info (named `name`) and
 * every type's hull from the world as it is now, then its first snapshot.
 * A snapshot every round(tick_hz / rate_hz) ticks (at least 1). Sets errno
 * and says "cannot write 'PATH'" when the file cannot be created. */
int replay_export_open(replay_export** out, const char* path, const sim* s, double rate_hz, const char* name,
                       nv_error* err);
/* After each step: keeps the step's contacts and damage events; writes a
 * snapshot when the tick is on the stride. */
int replay_export_step(replay_export* e, const sim* s, nv_error* err);
/* The last tick's snapshot (the one of this tick written again if there
 * is one: changes after the last step are in it), the snapshot count into
 * the header. */
int replay_export_finish(replay_export* e, const sim* s, nv_error* err);
/* Closes; removes the file unless `keep` and finished (a replay that
 * diverged is not the recorded session). Safe on NULL. */
int replay_export_close(replay_export* e, int keep, nv_error* err);
uint32_t replay_export_snapshots(const replay_export* e);
uint32_t replay_export_stride(const replay_export* e);

#endif
