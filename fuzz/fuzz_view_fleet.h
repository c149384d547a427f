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

/* The damage of step k, for the hub (view_hub_set_damage): vessels 2, 4
 * and 8 damaged (2 pumped dry and no longer damaged on steps 12..15 of
 * every 16, 4's flags and water changing), 7 on even steps; an event of
 * vessel 1 + k % 9 every third step (of a kind cycling through them). */
static inline void fuzz_view_damage(uint32_t step, proto_vessel_damage* d, uint32_t* n, proto_damage_event* ev,
                                    uint32_t* nev) {
    static const uint32_t ids[] = {2, 4, 7, 8};
    *n = *nev = 0;
    for (uint32_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        uint32_t id = ids[k];
        if ((id == 2 && step % 16 >= 12) || (id == 7 && (step & 1u))) continue;
        proto_vessel_damage* e = &d[(*n)++];
        memset(e, 0, sizeof *e);
        e->id = id;
        e->flags = (uint8_t)(id == 4 ? (step / 8) % 4 : 0);
        e->holes = (uint8_t)(1 + id % 3);
        e->compartment_count = (uint8_t)(id + 1);
        for (uint32_t c = 0; c < e->compartment_count; c++) e->fill[c] = (uint8_t)(step * (c + 1) + id);
    }
    if (step % 3 == 0) {
        proto_damage_event* e = &ev[(*nev)++];
        memset(e, 0, sizeof *e);
        e->tick = 1000u + step;
        e->id = 1 + step % 9;
        e->kind = (uint8_t)(step / 3 % 5);
        e->compartment = e->kind <= PROTO_DAMAGE_FULL ? (uint8_t)(step % 4) : PROTO_DAMAGE_NO_COMPARTMENT;
        e->area = 0.5f;
    }
}
#define FUZZ_VIEW_DAMAGE_MAX 4

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
