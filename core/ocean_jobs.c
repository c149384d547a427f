// SPDX-License-Identifier: MIT
#include "ocean_jobs.h"

/* Rows or columns per work item: large enough that a claim amortises, small
 * enough that two cascades of 256 rows still spread over 16 threads. */
#define OCEAN_JOBS_ROWS 32
/* The surface grid's rows go four at a time (SSE2 lanes) and cost ~5 us
 * each at 256^2: blocks of 16 keep the lanes full and still give 16 items
 * to balance over the threads. */
#define OCEAN_JOBS_SURFACE_ROWS 16

typedef struct ocean_jobs_ctx {
    nv_ocean* o;
    int cascades;
    int blocks_x; /* blocks of spectrum columns per cascade */
    int blocks_z; /* blocks of grid rows per cascade */
    int nx, nz;
} ocean_jobs_ctx;

static void ocean_jobs_columns(void* p, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    ocean_jobs_ctx* c = p;
    for (uint32_t i = begin; i < end; i++) {
        int cascade = (int)i / c->blocks_x, b = (int)i % c->blocks_x;
        int col0 = b * OCEAN_JOBS_ROWS, col1 = col0 + OCEAN_JOBS_ROWS;
        if (col1 > c->nx / 2) col1 = c->nx / 2;
        nv_ocean_update_columns(c->o, cascade, col0, col1);
    }
}

/* Work item = (lane, cascade, row block). Lanes 0-2 are pairs 0-2; lane 3 runs
 * pair 3 then pair 4, which needs pair 3's rows (the Jacobian). */
#define OCEAN_JOBS_LANES 4

static void ocean_jobs_pairs(void* p, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    ocean_jobs_ctx* c = p;
    uint32_t per_lane = (uint32_t)(c->cascades * c->blocks_z);
    for (uint32_t i = begin; i < end; i++) {
        int lane = (int)(i / per_lane), item = (int)(i % per_lane);
        int cascade = item / c->blocks_z;
        int row0 = (item % c->blocks_z) * OCEAN_JOBS_ROWS, row1 = row0 + OCEAN_JOBS_ROWS;
        if (row1 > c->nz) row1 = c->nz;
        nv_ocean_transform_pair_rows(c->o, cascade, lane, row0, row1);
        if (lane == OCEAN_JOBS_LANES - 1)
            for (int pair = OCEAN_JOBS_LANES; pair < OCEAN_PAIR_COUNT; pair++)
                nv_ocean_transform_pair_rows(c->o, cascade, pair, row0, row1);
    }
}

static void ocean_jobs_surface(void* p, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    ocean_jobs_ctx* c = p;
    for (uint32_t i = begin; i < end; i++) {
        int row0 = (int)i * OCEAN_JOBS_SURFACE_ROWS, row1 = row0 + OCEAN_JOBS_SURFACE_ROWS;
        if (row1 > c->nz) row1 = c->nz;
        nv_ocean_update_surface_rows(c->o, row0, row1);
    }
}

static void ocean_jobs_run(nv_jobs* pool, uint32_t count, nv_jobs_range_fn* fn, void* ctx) {
    if (pool)
        nv_jobs_parallel_for(pool, count, 1, fn, ctx);
    else
        fn(ctx, 0, count, 0);
}

void ocean_jobs_update(nv_ocean* o, double time, nv_jobs* pool) {
    ocean_jobs_ctx c;
    c.o = o;
    c.cascades = nv_ocean_cascade_count(o);
    nv_ocean_resolution(o, &c.nx, &c.nz);
    c.blocks_x = (c.nx / 2 + OCEAN_JOBS_ROWS - 1) / OCEAN_JOBS_ROWS;
    c.blocks_z = (c.nz + OCEAN_JOBS_ROWS - 1) / OCEAN_JOBS_ROWS;
    nv_ocean_update_begin(o, time);
    ocean_jobs_run(pool, (uint32_t)(c.cascades * c.blocks_x), ocean_jobs_columns, &c);
    ocean_jobs_run(pool, (uint32_t)(OCEAN_JOBS_LANES * c.cascades * c.blocks_z), ocean_jobs_pairs, &c);
    if (nv_ocean_has_surface_grid(o))
        ocean_jobs_run(pool, (uint32_t)((c.nz + OCEAN_JOBS_SURFACE_ROWS - 1) / OCEAN_JOBS_SURFACE_ROWS),
                       ocean_jobs_surface, &c);
}

static void ocean_jobs_world_update(void* ctx, double time, nv_jobs* pool) { ocean_jobs_update(ctx, time, pool); }

nv_world_water ocean_jobs_water(nv_ocean* o) {
    nv_world_water w = {nv_ocean_surface(o), ocean_jobs_world_update, o};
    return w;
}
