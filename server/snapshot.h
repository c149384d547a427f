// SPDX-License-Identifier: MIT
/* The world as the wire sees it: per-tick snapshots (full and compact),
 * world info and hull meshes, through proto's C API. Loop thread only. */
#ifndef NAVAL_SERVER_SNAPSHOT_H
#define NAVAL_SERVER_SNAPSHOT_H

#include <stdint.h>

#include "naval/nv_error.h"
#include "proto.h"
#include "sim.h"

typedef struct snap_builder {
    proto_snapshot snap;          /* vessels and contacts owned here (capacity kept between ticks) */
    uint32_t capacity, contact_capacity, damage_capacity, damage_event_capacity;
    uint32_t* damaged;            /* ids of the damaged vessels (scratch) */
    uint32_t damaged_capacity;
    proto_buf full, compact;
    proto_compact_encoder* encoder;
    proto_hull* hulls;            /* per type, built on first request (vertices about the CG) */
    uint32_t hull_count;
} snap_builder;

int snap_init(snap_builder* b, uint32_t keyframe_interval, nv_error* err);
void snap_free(snap_builder* b);

/* Copies every vessel's state into b->snap with the tick's statistics, the
 * damaged vessels' fill bytes and the tick's damage events. */
int snap_capture(snap_builder* b, const nv_world* w, const proto_tick_stats* stats, nv_error* err);
/* Encodings of the captured snapshot into b->full / b->compact. */
int snap_encode_full(snap_builder* b, nv_error* err);
int snap_encode_compact(snap_builder* b, nv_error* err);

/* World info as of now (types[] malloc'd: free with snap_free_world_info). */
int snap_world_info(const sim* s, const char* server_name, proto_world_info* out, nv_error* err);
void snap_free_world_info(proto_world_info* w);

/* The type's mesh for drawing, in the body frame about the CG (the frame
 * of the snapshots' positions); the builder keeps it for later requests.
 * NULL with err set when the type does not exist. */
const proto_hull* snap_hull(snap_builder* b, const nv_world* w, uint32_t type, nv_error* err);

/* Wall clock now, ns since 1970 (the snapshots' send time). */
uint64_t snap_wall_ns(void);

#endif
