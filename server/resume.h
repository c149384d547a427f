// SPDX-License-Identifier: MIT
/* The owner blob: what naval-server keeps beside the world in a checkpoint
 * (the opaque "OWNR" section of include/naval/checkpoint.h) to resume exactly where
 * it stopped: every client-owned vessel's id and 128-bit token, so that
 * clients' tokens still work after a restore, and the demo fleet's
 * autopilot (generator state, area, pilots in order with their waypoints),
 * so that a restored world evolves as the original would have.
 *
 * Format (version 5), little-endian:
 *
 *   u8  version (5), 3 bytes zero
 *   u32 owned vessel count, then per vessel: u32 id, 16 bytes token
 *   u64 autopilot generator state, f64 area centre x, z and half-width
 *   u32 lane count, then per lane (lanes.h): f64 centre x, z, axis, half
 *       straight, radius, look, clear, throttle, speed, berth; u32 berth
 *       ticks, beach, type, boats
 *   u32 pilot count, then per pilot: u32 vessel id, f64 waypoint x, z,
 *       f64 avoidance turn, u8 slow, u32 lane (UINT32_MAX: none), f64 pace,
 *       i64 berth (autopilot.h)
 *
 * Versions 2 to 4 are read too: version 4 has no beaches (lanes without
 * the beach u32), version 3 no berths (lanes end at
 * speed, pilots at pace), version 2 no lanes (pilots end at "slow"): its
 * pilots steer for waypoints.
 *
 * Connections are not kept: restored vessels are orphans from the restore
 * on, and a client that presents its token takes its vessel back. Reading
 * checks the version, each count against the bytes left, repeated ids,
 * non-finite numbers and bytes after the end; given the world, that every
 * vessel named is in it. Loop thread (or any thread on its own data). */
#ifndef NAVAL_SERVER_RESUME_H
#define NAVAL_SERVER_RESUME_H

#include <stddef.h>
#include <stdint.h>

#include "autopilot.h"
#include "naval/nv_error.h"
#include "naval/world.h"
#include "owners.h"

#define RESUME_VERSION 5u /* 2: each pilot's avoidance (turn f64, slow u8); 3: lanes; 4: berths; 5: beaches */

/* Bytes grown once and reused for every checkpoint. */
typedef struct resume_buf {
    uint8_t* data;
    size_t size, capacity;
} resume_buf;

void resume_buf_free(resume_buf* b);

/* Replaces b's contents with the blob; -1 when out of memory. */
int resume_encode(const owners* o, const autopilot* a, resume_buf* b);

/* Parses a blob: *o (empty on entry) gets the vessels as orphans since
 * now_ns, *a a new autopilot. `w` (may be NULL) must hold every vessel
 * named. -1 with the reason, nothing kept, on a bad blob. */
int resume_decode(const void* data, size_t size, const nv_world* w, uint64_t now_ns, owners* o, autopilot** a,
                  nv_error* err);

#endif
