// SPDX-License-Identifier: MIT
/* Which vessels may touch (world_pairs.h), the broadphase:
 *
 *   a uniform grid over the x-z extent of the vessels and
 *   structures (cells as wide as the largest swept bounding sphere),
 *   entities radix-sorted into cells, pairs found per entity against its
 *   own cell and the four ahead (counted per block, then written at each
 *   block's offset), radix-sorted into slot order, each pair of vessels
 *   then as its pairs of pieces whose spheres meet: every stage a job over
 *   fixed blocks (PAIRS_BLOCK). The narrowphase is world_pairs_narrow.c.
 *
 * The result does not depend on which thread found what. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shape.h"
#include "world_pairs.h"

/* The grid's per-entry arrays grow together (doubling from 256). */
static int pairs_reserve_sorted(world_pairs* p, uint32_t n) {
    if (n <= p->sorted_capacity) return 0;
    uint32_t cap = (uint32_t)grow_capacity(p->sorted_capacity, n, 256);
    if (grow_resize((void**)&p->slots, cap, sizeof *p->slots) || grow_resize((void**)&p->cell_of, cap, sizeof *p->cell_of))
        return -1;
    p->sorted_capacity = cap;
    return 0;
}

/* ---- broadphase --------------------------------------------------------- */

/* Every vessel but a frozen one: floaters too (distant traffic must not
 * sail through itself; their surface follower keeps the horizontal
 * velocity and yaw rate the solve leaves them). */
static inline int world_pairs_takes_part(const nv_world* w, uint32_t s) { return !(w->v.flags[s] & WORLD_VESSEL_FROZEN); }

static inline uint32_t pairs_cell_of(const world_pairs* p, double x, double z) {
    uint32_t ix = (uint32_t)((x - p->min_x) * p->inv_cell), iz = (uint32_t)((z - p->min_z) * p->inv_cell);
    if (ix >= p->grid_w) ix = p->grid_w - 1; /* the far edge's rounding */
    if (iz >= p->grid_h) iz = p->grid_h - 1;
    return iz * p->grid_w + ix;
}

/* The pairs of sorted entry i with the entries after it in its cell and
 * with the cells ahead of it (+x; and -x, 0, +x one row on): every pair of
 * neighbouring cells once. Two structures never pair. Writes them to out
 * when it is not NULL. */
static uint32_t pairs_scan(const nv_world* w, uint32_t i, uint64_t* out) {
    const world_pairs* p = &w->pairs;
    const pairs_entity* ea = &p->ent[p->slots[i]];
    const uint32_t a = ea->id, cell = p->cell_of[i];
    const uint32_t ix = cell % p->grid_w, iz = cell / p->grid_w;
    const double xa = ea->x, ya = ea->y, za = ea->z, ra = ea->reach;
    const int a_static = a >= w->count;
    uint32_t n = 0;
    /* (first entry, end) of the runs to test: the rest of its own cell, then the four cells ahead */
    uint32_t runs[5][2] = {{i + 1, p->cell_start[cell + 1]}};
    uint32_t nruns = 1;
    const int32_t ahead[4][2] = {{1, 0}, {-1, 1}, {0, 1}, {1, 1}};
    for (int k = 0; k < 4; k++) {
        int64_t jx = (int64_t)ix + ahead[k][0], jz = (int64_t)iz + ahead[k][1];
        if (jx < 0 || jx >= p->grid_w || jz >= p->grid_h) continue;
        uint32_t c = (uint32_t)jz * p->grid_w + (uint32_t)jx;
        runs[nruns][0] = p->cell_start[c], runs[nruns][1] = p->cell_start[c + 1];
        nruns++;
    }
    for (uint32_t r = 0; r < nruns; r++)
        for (uint32_t j = runs[r][0]; j < runs[r][1]; j++) {
            const pairs_entity* eb = &p->ent[p->slots[j]];
            uint32_t b = eb->id;
            if (a_static && b >= w->count) continue;
            double ex = eb->x - xa, ey = eb->y - ya, ez = eb->z - za, rr = ra + eb->reach;
            if (ex * ex + ey * ey + ez * ez >= rr * rr) continue;
            if (out) out[n] = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
            n++;
        }
    return n;
}

/* The block's share of [0, n): [b * PAIRS_BLOCK, its end). */
static inline uint32_t pairs_block_end(uint32_t b, uint32_t n) {
    uint64_t end = (uint64_t)(b + 1) * PAIRS_BLOCK;
    return end < n ? (uint32_t)end : n;
}

static inline uint32_t pairs_blocks_of(uint64_t n) { return (uint32_t)((n + PAIRS_BLOCK - 1) / PAIRS_BLOCK); }

/* Each block's `first` from the counts before it: the total. */
static uint64_t pairs_blocks_scan(pairs_block* blocks, uint32_t count) {
    uint64_t total = 0;
    for (uint32_t b = 0; b < count; b++) {
        blocks[b].first = (uint32_t)total;
        total += blocks[b].count;
    }
    return total;
}

/* Per block of sorted entries: how many candidates its entries find. */
static void pairs_count_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    world_pairs* p = &w->pairs;
    for (uint32_t b = begin; b < end; b++) {
        uint32_t found = 0;
        for (uint32_t i = b * PAIRS_BLOCK, last = pairs_block_end(b, p->entry_count); i < last; i++)
            found += pairs_scan(w, i, NULL);
        p->blocks[b].count = found;
    }
}

/* Per block of sorted entries: its candidates, from its first on. */
static void pairs_fill_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    world_pairs* p = &w->pairs;
    for (uint32_t b = begin; b < end; b++) {
        uint64_t* out = p->keys + p->blocks[b].first;
        for (uint32_t i = b * PAIRS_BLOCK, last = pairs_block_end(b, p->entry_count); i < last; i++)
            out += pairs_scan(w, i, out);
    }
}

/* Per block of entities: its cell and index as one key (cell << 32 | k),
 * to sort into cell order with entity order within a cell. */
static void pairs_cell_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    world_pairs* p = &w->pairs;
    for (uint32_t b = begin; b < end; b++)
        for (uint32_t k = b * PAIRS_BLOCK, last = pairs_block_end(b, p->entry_count); k < last; k++)
            p->keys[k] = (uint64_t)pairs_cell_of(p, p->ent[k].x, p->ent[k].z) << 32 | k;
}

/* Per block of sorted entries: each one's entity and cell, and the start
 * of every cell from the one after the last entry's cell through its own
 * (so every cell's start is written once, empty cells too). */
static void pairs_unpack_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    world_pairs* p = &w->pairs;
    const uint64_t* sorted = p->keys;
    const uint32_t n = p->entry_count, cells = p->grid_w * p->grid_h;
    for (uint32_t b = begin; b < end; b++)
        for (uint32_t i = b * PAIRS_BLOCK, last = pairs_block_end(b, n); i < last; i++) {
            uint32_t cell = (uint32_t)(sorted[i] >> 32);
            p->slots[i] = (uint32_t)sorted[i];
            p->cell_of[i] = cell;
            for (uint32_t c = i ? (uint32_t)(sorted[i - 1] >> 32) + 1 : 0; c <= cell; c++) p->cell_start[c] = i;
            if (i == n - 1)
                for (uint32_t c = cell + 1; c <= cells; c++) p->cell_start[c] = n;
        }
}

/* Sorts keys[0, n) by their bits from low_bit up, in place of p->keys
 * (the sort may leave them in the other buffer, which then becomes
 * p->keys). */
static void pairs_sort_keys(nv_world* w, uint32_t n, int low_bit) {
    world_pairs* p = &w->pairs;
    uint64_t* sorted = keysort_run(&p->sort, w->pool, p->keys, p->tmp_keys, n, low_bit);
    if (sorted == p->keys) return;
    uint32_t cap = p->keys_capacity;
    p->tmp_keys = p->keys, p->keys_capacity = p->tmp_keys_capacity;
    p->keys = sorted, p->tmp_keys_capacity = cap;
}

/* A uniform grid over the entities' x-z extent (the blocks' bounds),
 * cells at least as wide as the widest swept bounding sphere (widened
 * while there would be more cells than twice the entities, so a
 * spread-out world stays small); the entities sorted into their cells
 * (entity order within a cell). p->ent holds the entry_count entities
 * taking part, in entity order; the sorted entries point into it. */
static int pairs_grid(nv_world* w, double x0, double x1, double z0, double z1, double widest) {
    world_pairs* p = &w->pairs;
    const uint32_t n = p->entry_count;
    double cell = widest;
    double gw = floor((x1 - x0) / cell) + 1.0, gh = floor((z1 - z0) / cell) + 1.0;
    while (gw * gh > 2.0 * n + 64.0) {
        cell *= 1.25;
        gw = floor((x1 - x0) / cell) + 1.0, gh = floor((z1 - z0) / cell) + 1.0;
    }
    p->min_x = x0, p->min_z = z0, p->inv_cell = 1.0 / cell;
    p->grid_w = (uint32_t)gw, p->grid_h = (uint32_t)gh;
    uint64_t cells = (uint64_t)p->grid_w * p->grid_h;
    if (GROW(&p->cell_start, &p->cell_capacity, cells + 1, 256) || pairs_reserve_sorted(p, n) ||
        keysort_reserve(&p->sort, n))
        return -1;
    world_run(w, pairs_blocks_of(n), 1, pairs_cell_job);
    pairs_sort_keys(w, n, 32); /* written in entity order: only the cells to sort */
    world_run(w, pairs_blocks_of(n), 1, pairs_unpack_job);
    return 0;
}

/* Per block of vessels: each one's reach this step (2 cm plus how far its
 * farthest point can move) and swept bounding sphere, 0 for those that
 * take no part; how many take part, their extent and widest sphere. */
static void pairs_reach_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    for (uint32_t b = begin; b < end; b++) {
        pairs_block blk = {INFINITY, -INFINITY, INFINITY, -INFINITY, 0.0, 0, 0};
        for (uint32_t s = b * PAIRS_BLOCK, last = pairs_block_end(b, w->count); s < last; s++) {
            w->sv.pair_reach[s] = 0.0f;
            if (!world_pairs_takes_part(w, s)) continue;
            const world_type* t = &w->types[w->v.type[s]];
            double speed = sqrt(w->v.vx[s] * w->v.vx[s] + w->v.vy[s] * w->v.vy[s] + w->v.vz[s] * w->v.vz[s]) +
                           sqrt(w->v.wx[s] * w->v.wx[s] + w->v.wy[s] * w->v.wy[s] + w->v.wz[s] * w->v.wz[s]) * t->radius;
            double margin = PAIR_SLOP + speed * w->dt;
            if (!isfinite(margin) || !isfinite(w->v.px[s]) || !isfinite(w->v.pz[s])) continue;
            w->sv.pair_margin[s] = (float)margin;
            w->sv.pair_reach[s] = (float)(t->shape.radius + margin);
            blk.x0 = fmin(blk.x0, w->v.px[s]), blk.x1 = fmax(blk.x1, w->v.px[s]);
            blk.z0 = fmin(blk.z0, w->v.pz[s]), blk.z1 = fmax(blk.z1, w->v.pz[s]);
            blk.widest = fmax(blk.widest, 2.0 * w->sv.pair_reach[s]);
            blk.count++;
        }
        w->pairs.blocks[b] = blk;
    }
}

/* Per block of vessels: those taking part into p->ent, from the block's first. */
static void pairs_gather_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    world_pairs* p = &w->pairs;
    for (uint32_t b = begin; b < end; b++) {
        pairs_entity* out = p->ent + p->blocks[b].first;
        for (uint32_t s = b * PAIRS_BLOCK, last = pairs_block_end(b, w->count); s < last; s++)
            if (w->sv.pair_reach[s] > 0.0f) *out++ = (pairs_entity){w->v.px[s], w->v.py[s], w->v.pz[s], w->sv.pair_reach[s], s};
    }
}

/* The pairs of pieces of the candidate (slot a << 32 | slot b) whose
 * swept spheres meet, written to out when it is not NULL: one pair, the
 * whole shapes, where both are one piece. */
static uint32_t pairs_pieces(const nv_world* w, uint64_t key, world_pair* out) {
    const uint32_t a = (uint32_t)(key >> 32), b = (uint32_t)key;
    const uint32_t na = pairs_piece_count(w, a), nb = pairs_piece_count(w, b);
    if (na * nb == 1) {
        if (out) out->a = a, out->b = b, out->piece_a = out->piece_b = 0;
        return 1;
    }
    /* each piece's sphere in the world: its centre turned with the vessel */
    nv_vec3 centre[2][WORLD_MAX_PIECES];
    double radius[2][WORLD_MAX_PIECES];
    const uint32_t e[2] = {a, b}, n[2] = {na, nb};
    for (int side = 0; side < 2; side++) {
        uint32_t s = e[side];
        if (s >= w->count) {
            centre[side][0] = w->structures[s - w->count].position;
            radius[side][0] = w->structures[s - w->count].shape.radius;
            continue;
        }
        const world_type* t = &w->types[w->v.type[s]];
        if (!t->pieces) {
            centre[side][0] = v3(w->v.px[s], w->v.py[s], w->v.pz[s]);
            radius[side][0] = t->shape.radius + w->sv.pair_margin[s];
            continue;
        }
        nv_quat q = {w->v.qw[s], w->v.qx[s], w->v.qy[s], w->v.qz[s]};
        nv_mat3 r = quat_to_mat3(q);
        for (uint32_t k = 0; k < n[side]; k++) {
            const double* sp = &t->piece_sphere[4 * k];
            centre[side][k] = v3_add(v3(w->v.px[s], w->v.py[s], w->v.pz[s]), m3_mul_v3(&r, v3(sp[0], sp[1], sp[2])));
            radius[side][k] = sp[3] + w->sv.pair_margin[s];
        }
    }
    uint32_t count = 0;
    for (uint32_t i = 0; i < na; i++)
        for (uint32_t j = 0; j < nb; j++) {
            nv_vec3 d = v3_sub(centre[1][j], centre[0][i]);
            double rr = radius[0][i] + radius[1][j];
            if (!(v3_dot(d, d) < rr * rr)) continue;
            if (out) out[count].a = a, out[count].b = b, out[count].piece_a = i, out[count].piece_b = j;
            count++;
        }
    return count;
}

/* Per block of candidates: how many pairs of pieces they make. */
static void pairs_pieces_count_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    world_pairs* p = &w->pairs;
    for (uint32_t b = begin; b < end; b++) {
        uint32_t found = 0;
        for (uint32_t k = b * PAIRS_BLOCK, last = pairs_block_end(b, p->candidate_count); k < last; k++)
            found += pairs_pieces(w, p->keys[k], NULL);
        p->blocks[b].count = found;
    }
}

static void pairs_pieces_fill_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    nv_world* w = ctx;
    world_pairs* p = &w->pairs;
    for (uint32_t b = begin; b < end; b++) {
        world_pair* out = p->pairs + p->blocks[b].first;
        for (uint32_t k = b * PAIRS_BLOCK, last = pairs_block_end(b, p->candidate_count); k < last; k++)
            out += pairs_pieces(w, p->keys[k], out);
    }
}

static int pairs_reserve_blocks(world_pairs* p, uint64_t n) {
    return GROW(&p->blocks, &p->block_capacity, pairs_blocks_of(n) ? pairs_blocks_of(n) : 1, 16);
}

int pairs_broadphase(nv_world* w) {
    world_pairs* p = &w->pairs;
    p->pair_count = 0;
    uint64_t most = (uint64_t)w->count + w->structure_count;
    if (pairs_reserve_blocks(p, w->count) ||
        GROW(&p->ent, &p->ent_capacity, most, 256) ||
        GROW(&p->keys, &p->keys_capacity, most, 256) ||
        GROW(&p->tmp_keys, &p->tmp_keys_capacity, most, 256))
        return -1;
    /* the vessels taking part, in slot order, and their extent */
    const uint32_t vessel_blocks = pairs_blocks_of(w->count);
    world_run(w, vessel_blocks, 1, pairs_reach_job);
    double x0 = INFINITY, x1 = -INFINITY, z0 = INFINITY, z1 = -INFINITY, widest = 0.0;
    for (uint32_t b = 0; b < vessel_blocks; b++) {
        const pairs_block* blk = &p->blocks[b];
        x0 = fmin(x0, blk->x0), x1 = fmax(x1, blk->x1), z0 = fmin(z0, blk->z0), z1 = fmax(z1, blk->z1);
        widest = fmax(widest, blk->widest);
    }
    uint32_t n = (uint32_t)pairs_blocks_scan(p->blocks, vessel_blocks);
    if (n == 0 || n + w->structure_count < 2) return 0;
    world_run(w, vessel_blocks, 1, pairs_gather_job);
    for (uint32_t k = 0; k < w->structure_count; k++) {
        const world_structure* st = &w->structures[k];
        p->ent[n++] = (pairs_entity){st->position.x, st->position.y, st->position.z, st->shape.radius, w->count + k};
        x0 = fmin(x0, st->position.x), x1 = fmax(x1, st->position.x);
        z0 = fmin(z0, st->position.z), z1 = fmax(z1, st->position.z);
        widest = fmax(widest, 2.0 * st->shape.radius);
    }
    p->entry_count = n;
    if (pairs_reserve_blocks(p, n) || pairs_grid(w, x0, x1, z0, z1, widest)) return -1;
    /* the candidates: counted per block of entries, then written at each
     * block's offset, then sorted into slot order */
    const uint32_t entry_blocks = pairs_blocks_of(n);
    world_run(w, entry_blocks, 1, pairs_count_job);
    uint64_t total = pairs_blocks_scan(p->blocks, entry_blocks);
    if (total > UINT32_MAX || GROW(&p->keys, &p->keys_capacity, total, 256) ||
        GROW(&p->tmp_keys, &p->tmp_keys_capacity, total, 256) || keysort_reserve(&p->sort, (uint32_t)total))
        return -1;
    world_run(w, entry_blocks, 1, pairs_fill_job);
    pairs_sort_keys(w, (uint32_t)total, 0);
    /* each pair of vessels as its pairs of pieces whose spheres meet (one
     * pair where both are one piece) */
    p->candidate_count = (uint32_t)total;
    if (pairs_reserve_blocks(p, total)) return -1;
    const uint32_t candidate_blocks = pairs_blocks_of(total);
    world_run(w, candidate_blocks, 1, pairs_pieces_count_job);
    uint64_t pieces = pairs_blocks_scan(p->blocks, candidate_blocks);
    if (pieces > UINT32_MAX || GROW(&p->pairs, &p->pair_capacity, pieces, 256)) return -1;
    world_run(w, candidate_blocks, 1, pairs_pieces_fill_job);
    p->pair_count = (uint32_t)pieces;
    return 0;
}
