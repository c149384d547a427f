// SPDX-License-Identifier: MIT
/* The tick's vessels for every view: quantised once, found by id, and put
 * on a uniform grid so that each view visits only the cells its discs
 * touch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "view_internal.h"

#define VIEW_CELL_M 200.0
#define VIEW_GRID_MAX 1024u  /* cells per axis: a wider fleet gets wider cells */


void view_frame_free(view_frame_data* fr) {
    free(fr->vq);
    free(fr->speed);
    free(fr->ok);
    idmap_free(&fr->slots);
    idmap_free(&fr->seen[0]);
    idmap_free(&fr->seen[1]);
    free(fr->cell_start);
    free(fr->cell_items);
    memset(fr, 0, sizeof *fr);
}

static int build_grid(view_frame_data* fr) {
    const view_frame* f = fr->f;
    double x0 = INFINITY, z0 = INFINITY, x1 = -INFINITY, z1 = -INFINITY;
    for (uint32_t i = 0; i < f->count; i++) {
        if (!fr->ok[i]) continue;
        double x = f->vessels[i].position[0], z = f->vessels[i].position[2];
        x0 = x < x0 ? x : x0;
        x1 = x > x1 ? x : x1;
        z0 = z < z0 ? z : z0;
        z1 = z > z1 ? z : z1;
    }
    if (x0 > x1) x0 = x1 = z0 = z1 = 0.0;
    double extent = fmax(x1 - x0, z1 - z0);
    fr->cell = fmax(VIEW_CELL_M, extent / (VIEW_GRID_MAX - 1));
    fr->x0 = x0;
    fr->z0 = z0;
    fr->nx = (uint32_t)((x1 - x0) / fr->cell) + 1;
    fr->nz = (uint32_t)((z1 - z0) / fr->cell) + 1;
    uint32_t cells = fr->nx * fr->nz;
    if (GROW(&fr->cell_start, &fr->cell_cap, (size_t)cells + 1, 0)) return -1;
    memset(fr->cell_start, 0, (cells + 1) * sizeof *fr->cell_start);
    /* Counting sort: the items of cell k are cell_items[cell_start[k] .. cell_start[k + 1]). */
    uint32_t* cell_of = fr->cell_items + f->count; /* second half: scratch */
    for (uint32_t i = 0; i < f->count; i++) {
        if (!fr->ok[i]) continue;
        uint32_t cx = (uint32_t)((f->vessels[i].position[0] - x0) / fr->cell);
        uint32_t cz = (uint32_t)((f->vessels[i].position[2] - z0) / fr->cell);
        cx = cx < fr->nx ? cx : fr->nx - 1;
        cz = cz < fr->nz ? cz : fr->nz - 1;
        cell_of[i] = cz * fr->nx + cx;
        fr->cell_start[cell_of[i] + 1]++;
    }
    for (uint32_t k = 0; k < cells; k++) fr->cell_start[k + 1] += fr->cell_start[k];
    for (uint32_t i = 0; i < f->count; i++)
        if (fr->ok[i]) fr->cell_items[fr->cell_start[cell_of[i]]++] = i;
    /* The fill moved each start to the next cell's: shift back. */
    for (uint32_t k = cells; k > 0; k--) fr->cell_start[k] = fr->cell_start[k - 1];
    fr->cell_start[0] = 0;
    return 0;
}

int view_frame_build(view_hub* h, const view_frame* f) {
    view_frame_data* fr = &h->fr;
    int first = fr->f == NULL;
    fr->f = f;
    uint32_t n = f->count;
    if (n > fr->cap) {
        if (grow_resize((void**)&fr->vq, n, sizeof *fr->vq) || grow_resize((void**)&fr->speed, n, sizeof *fr->speed) ||
            grow_resize((void**)&fr->ok, n, 1) || grow_resize((void**)&fr->cell_items, 2 * (size_t)n, sizeof *fr->cell_items))
            return -1;
        fr->cap = n;
    }
    idmap_clear(&fr->slots);
    idmap* old = &fr->seen[fr->seen_cur];
    idmap* now = &fr->seen[!fr->seen_cur];
    idmap_clear(now);
    uint32_t tick = (uint32_t)f->tick;
    /* What is there at the start was not spawned in anyone's view. */
    uint32_t long_ago = tick - 2u * (uint32_t)h->cfg.tick_hz - 1u;
    for (uint32_t i = 0; i < n; i++) {
        const proto_vessel* v = &f->vessels[i];
        fr->ok[i] = proto_view_quantise(v, tick, &fr->vq[i]) == 0;
        fr->speed[i] = sqrtf(v->velocity[0] * v->velocity[0] + v->velocity[1] * v->velocity[1] +
                             v->velocity[2] * v->velocity[2]);
        if (!isfinite(fr->speed[i])) fr->speed[i] = 0.0f;
        uint32_t seen;
        if (!idmap_get(old, v->id, &seen)) seen = first ? long_ago : tick;
        if (idmap_put(&fr->slots, v->id, i) || idmap_put(now, v->id, seen)) return -1;
    }
    fr->seen_cur = !fr->seen_cur;
    return build_grid(fr);
}

int view_frame_spawned(const view_hub* h, uint32_t id) {
    uint32_t seen;
    if (!idmap_get(&h->fr.seen[h->fr.seen_cur], id, &seen)) return 0;
    return (uint32_t)h->fr.f->tick - seen < (uint32_t)h->cfg.tick_hz;
}

int view_frame_query(const view_frame_data* fr, double x, double z, double r, view_visit_fn* fn, void* arg) {
    const view_frame* f = fr->f;
    if (!f || !f->count) return 0;
    double lo_x = (x - r - fr->x0) / fr->cell, hi_x = (x + r - fr->x0) / fr->cell;
    double lo_z = (z - r - fr->z0) / fr->cell, hi_z = (z + r - fr->z0) / fr->cell;
    if (hi_x < 0.0 || hi_z < 0.0 || lo_x >= fr->nx || lo_z >= fr->nz) return 0;
    uint32_t cx0 = lo_x > 0.0 ? (uint32_t)lo_x : 0, cz0 = lo_z > 0.0 ? (uint32_t)lo_z : 0;
    uint32_t cx1 = hi_x < fr->nx - 1 ? (uint32_t)hi_x : fr->nx - 1;
    uint32_t cz1 = hi_z < fr->nz - 1 ? (uint32_t)hi_z : fr->nz - 1;
    double r2 = r * r;
    for (uint32_t cz = cz0; cz <= cz1; cz++)
        for (uint32_t cx = cx0; cx <= cx1; cx++) {
            uint32_t k = cz * fr->nx + cx;
            for (uint32_t j = fr->cell_start[k]; j < fr->cell_start[k + 1]; j++) {
                uint32_t i = fr->cell_items[j];
                double dx = f->vessels[i].position[0] - x, dz = f->vessels[i].position[2] - z;
                double d2 = dx * dx + dz * dz;
                if (d2 <= r2 && fn(arg, i, (float)sqrt(d2))) return -1;
            }
        }
    return 0;
}
