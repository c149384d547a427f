// SPDX-License-Identifier: MIT
/* The pass of contacts between vessels, in four files:
 * world_pairs_broad.c finds which pairs may touch (the grid, the pair
 * search), world_pairs_narrow.c where they touch (MPR, the manifolds, the
 * seams between pieces), world_pairs_solve.c solves them and
 * world_pairs.c reports them (and holds the structures). Private to them. */
#ifndef NAVAL_WORLD_PAIRS_H
#define NAVAL_WORLD_PAIRS_H

#include "world_internal.h"

#define PAIR_SLOP 0.02 /* m: gaps this small count as touching */
#define PAIR_LEFT_OVERLAP 0.01 /* m: overlaps this small are left, not pushed apart (docs/contacts.md: 2, 1 and 0.5 cm measured) */

#define PAIR_POINTS 4 /* per pair: enough to hold a face flat */
#define PAIR_CANDIDATES 64
#define PAIR_STEEP 0.5 /* |normal.y| above which two vessels are parted across the water (30 degrees) */
#define PAIR_PARTED 0.1 /* m: a gap this wide ends a contact (closer, it may press again without a new event) */
#define PAIR_STACKED 0.25 /* m: a steep overlap deeper than this is a hull inside another */
#define PAIR_FEATURE 0.1 /* m: corners this near a shape's extreme along the normal face the other */
#define PAIR_SHARED_FEATURE 0.001 /* m: corners this near a piece's extreme are the feature it meets with */
#define PAIR_SHARED_ON_FACE 1e-4  /* m: a corner this near a bound of a piece's region lies on the shared face */

typedef struct pair_point {
    nv_vec3 ra, rb;       /* from each CG to the point */
    double separation; /* m along the normal; < 0 overlapping */
    double normal_mass, tangent_mass[2];
    double normal_impulse;               /* N s over the whole step (the events') */
    double substep_impulse, tangent_impulse[2]; /* this substep's (warm started from the last one's), then the bounce's */
    double closing_speed; /* m/s before the solve, > 0 closing */
    double bounce;        /* m/s: the separating speed restitution asks for */
} pair_point;

typedef struct world_pair {
    uint32_t a, b;   /* slots, a < b */
    uint32_t piece_a, piece_b; /* the collision pieces of each (world_type_piece; 0 for a structure) */
    uint32_t count;  /* contact points; 0: apart */
    uint32_t ba, bb; /* indices into the solver's bodies */
    uint32_t colour; /* the solve's: PAIR_COLOURS is the overflow */
    /* the pieces met across a face one shares with another piece of its
     * vessel (bit 0: a's, bit 1: b's; world_pairs_narrow.c), and that
     * face's outward normal (world) */
    uint32_t across_shared;
    nv_vec3 shared_axis[2];
    double depth;      /* the narrowphase's overlap of the swept shapes */
    nv_vec3 witness;   /* and its point in it */
    nv_vec3 normal;     /* unit, from a to b */
    nv_vec3 tangent[2];
    nv_vec3 point[PAIR_POINTS]; /* world */
    pair_point p[PAIR_POINTS];
} world_pair;

/* The pair by ids: (low << 32 | high) for two vessels; a vessel and
 * structure k as (id << 32 | UINT32_MAX - k), past any vessel id a world
 * reaches. */
static inline uint64_t pairs_id_key(const nv_world* w, const world_pair* c) {
    uint32_t ia = w->v.id[c->a];
    if (c->b >= w->count) return (uint64_t)ia << 32 | (UINT32_MAX - (c->b - w->count));
    uint32_t ib = w->v.id[c->b];
    return ia < ib ? (uint64_t)ia << 32 | ib : (uint64_t)ib << 32 | ia;
}

/* Whether slot a holds the pair's lower id (a structure is always the higher). */
static inline int pairs_id_lower_first(const nv_world* w, const world_pair* c) {
    return c->b >= w->count || w->v.id[c->a] < w->v.id[c->b];
}

/* The key's index in the touching set after the last step, or UINT32_MAX. */
uint32_t pairs_touching_index(const world_pairs* p, uint64_t key);

/* The position of entity e: vessel slot e, or structure e - count. */
static inline nv_vec3 pairs_position(const nv_world* w, uint32_t e) {
    return e >= w->count ? w->structures[e - w->count].position : v3(w->v.px[e], w->v.py[e], w->v.pz[e]);
}

/* An entity taking part in the broadphase: its swept bounding sphere and
 * who it is (a vessel's slot, or count + a structure's index). */
typedef struct pairs_entity {
    double x, y, z, reach;
    uint32_t id;
} pairs_entity;

/* The broadphase works in fixed blocks of PAIRS_BLOCK vessels, entries or
 * candidates, so what a block finds does not depend on the threads. */
#define PAIRS_BLOCK 1024u
typedef struct pairs_block {
    double x0, x1, z0, z1, widest; /* the entities' extent, the widest swept sphere */
    uint32_t count;                /* what the block found */
    uint32_t first;                /* where its share starts */
} pairs_block;

/* The pieces of entity e: a vessel type's, or a structure's one. */
static inline uint32_t pairs_piece_count(const nv_world* w, uint32_t e) {
    return e >= w->count ? 1u : w->types[w->v.type[e]].piece_count;
}

/* The candidate pairs in slot order into w->pairs (pair_count); -1 when
 * out of memory. Sets each vessel's reach (sv.pair_margin, pair_reach). */
int pairs_broadphase(nv_world* w);
/* Jobs over the candidates: each one's normal and contact points (count 0
 * when apart). */
void pairs_narrow_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker);
/* After the narrowphase: a pair of pieces met across a face one shares
 * with another piece of its vessel (a seam) is dropped when another pair
 * of the same two vessels touches on the hulls' surface, else parted
 * along the seam instead of across it. */
void pairs_seams(nv_world* w);
/* Solves the touching pairs (world_pairs_solve.c): the vessels' velocities
 * and poses after them; each pair's impulses for the events. -1 when out
 * of memory (nothing was solved). */
int pairs_solve(nv_world* w);

#endif
