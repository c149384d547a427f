// SPDX-License-Identifier: MIT
/* The small fleet fuzz_view.c encodes views of, and make_seeds.c the
 * view seeds from: the same frames, so that the seeds' acks name updates
 * the harness's hub really sends. Also the harness's input format.
 *
 * Step k is tick 1000 + k. Vessels 1..6 circle the origin within 240 m
 * (vessel 3 is "owned": token bytes all 0x11), vessel 7 is there on even
 * steps only (spawns and despawns), vessel 8 is 1.6 km out (beyond most
 * radii), vessel 9 beyond the position limit (never sendable). */
#ifndef NAVAL_FUZZ_VIEW_FLEET_H
#define NAVAL_FUZZ_VIEW_FLEET_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "proto.h"
#include "view.h"

#define FUZZ_VIEW_FLEET_MAX 9
#define FUZZ_VIEW_OWN_ID 3
#define FUZZ_VIEW_OWN_BYTE 0x11
#define FUZZ_VIEW_CONN 7
/* Chunks: a 16-bit little-endian length, then that many bytes (cut at the
 * input's end); at most this many are read. */
#define FUZZ_VIEW_MAX_CHUNKS 64

static inline uint32_t fuzz_view_fleet(uint32_t step, proto_vessel* v, uint64_t* tick) {
    double t = step / 60.0;
    uint32_t n = 0;
    *tick = 1000u + step;
    for (uint32_t id = 1; id <= FUZZ_VIEW_FLEET_MAX; id++) {
        if (id == 7 && (step & 1u)) continue;
        proto_vessel* b = &v[n++];
        memset(b, 0, sizeof *b);
        double a = 0.9 * id + 0.2 * t, r = 40.0 * id;
        if (id == 8) r = 1600.0;
        if (id == 9) r = 2e6;
        b->id = id;
        b->type = (uint16_t)(id % 3);
        b->flags = (uint16_t)(id == 5 && step > 4 ? 1 : 0);
        b->position[0] = r * cos(a);
        b->position[1] = 0.3 * sin(t + id);
        b->position[2] = r * sin(a);
        b->orientation[1] = (float)sin(a / 2);
        b->orientation[3] = (float)cos(a / 2);
        b->velocity[0] = (float)(-0.2 * r * sin(a));
        b->velocity[2] = (float)(0.2 * r * cos(a));
    }
    return n;
}

static inline int fuzz_view_owner(void* arg, uint32_t id, const proto_token* token) {
    (void)arg;
    for (int i = 0; i < 16; i++)
        if (token->bytes[i] != FUZZ_VIEW_OWN_BYTE) return 0;
    return id == FUZZ_VIEW_OWN_ID;
}

static inline void fuzz_view_config(view_config* c) {
    view_config_default(c);
    c->max_radius = 1000.0f;
    c->max_vessels = 16;
    c->max_views = 2;
    c->max_budget_kbps = 512;
}

#endif
