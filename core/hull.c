// SPDX-License-Identifier: MIT
#include "naval/hull.h"
#include "hull_layout.h"

#include <stdlib.h>
#include <string.h>

typedef struct hull_sort_key {
    double y;
    uint32_t index;
} hull_sort_key;

static int hull_sort_compare(const void* pa, const void* pb) {
    const hull_sort_key *a = pa, *b = pb;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* The mesh's triangles from the lowest centroid up. A floating hull is
 * then wet at the start of its table and dry at the end, in long runs: the
 * triangle pass's wet/dry tests predict well and the force kernels skip
 * whole lanes of dry triangles. */
static int hull_sort_triangles(nv_hull* h, const nv_mesh* m, size_t nt) {
    hull_sort_key* keys = malloc((nt ? nt : 1) * sizeof *keys);
    if (!keys) return -1;
    for (size_t t = 0; t < nt; t++) {
        const uint32_t* tri = m->indices + 3 * t;
        keys[t].y = (double)h->vy[tri[0]] + (double)h->vy[tri[1]] + (double)h->vy[tri[2]];
        keys[t].index = (uint32_t)t;
    }
    qsort(keys, nt, sizeof *keys, hull_sort_compare);
    for (size_t t = 0; t < nt; t++) memcpy(h->triangles + 3 * t, m->indices + 3 * (size_t)keys[t].index, 3 * sizeof(uint32_t));
    free(keys);
    return 0;
}

/* Zeroed bytes starting on a cache line (freed with free). */
static void* hull_alloc_lines(size_t bytes) {
    size_t rounded = (bytes + 63) & ~(size_t)63;
    void* p = aligned_alloc(64, rounded ? rounded : 64);
    if (p) memset(p, 0, rounded);
    return p;
}

int nv_hull_create(nv_hull* h, const nv_mesh* m, const nv_mass_spec* spec, nv_error* err) {
    memset(h, 0, sizeof *h);
    if (nv_mass_compute(m, &h->mesh_props, err)) return -1;
    if (nv_mass_resolve(&h->mesh_props, spec, &h->body, err)) return -1;
    size_t nv = m->vertex_count, nt = m->triangle_count;
    h->vx = malloc(nv * sizeof(float));
    h->vy = malloc(nv * sizeof(float));
    h->vz = malloc(nv * sizeof(float));
    h->triangles = malloc(3 * nt * sizeof(uint32_t));
    /* on cache lines: the kernels' eight-float loads of a column never
     * split one (malloc gives 16 bytes) */
    size_t groups = hull_group_count((uint32_t)nt);
    h->lanes = hull_alloc_lines((groups ? groups : 1) * HULL_LANE_BLOCK * sizeof(float));
    h->corner_lanes = hull_alloc_lines((groups ? groups : 1) * 3 * HULL_GROUP * sizeof(uint32_t));
    if (!h->vx || !h->vy || !h->vz || !h->triangles || !h->lanes || !h->corner_lanes) {
        nv_hull_destroy(h);
        return nv_error_fail(err, NV_ENOMEM, "hull: out of memory for %zu vertices, %zu triangles", nv, nt);
    }
    h->vertex_count = (uint32_t)nv;
    h->triangle_count = (uint32_t)nt;
    nv_vec3 cg = h->body.cg;
    for (int a = 0; a < 3; a++) {
        h->bounds_min[a] = INFINITY;
        h->bounds_max[a] = -INFINITY;
    }
    for (size_t i = 0; i < nv; i++) {
        const float* p = m->positions + 3 * i;
        float r[3] = {(float)(p[0] - cg.x), (float)(p[1] - cg.y), (float)(p[2] - cg.z)};
        h->vx[i] = r[0];
        h->vy[i] = r[1];
        h->vz[i] = r[2];
        for (int a = 0; a < 3; a++) {
            if (r[a] < h->bounds_min[a]) h->bounds_min[a] = r[a];
            if (r[a] > h->bounds_max[a]) h->bounds_max[a] = r[a];
        }
    }
    if (hull_sort_triangles(h, m, nt)) {
        nv_hull_destroy(h);
        return nv_error_fail(err, NV_ENOMEM, "hull: out of memory for %zu vertices, %zu triangles", nv, nt);
    }
    double total = 0.0;
    for (size_t t = 0; t < nt; t++) {
        const uint32_t* tri = h->triangles + 3 * t;
        nv_vec3 a = v3(h->vx[tri[0]], h->vy[tri[0]], h->vz[tri[0]]);
        nv_vec3 b = v3(h->vx[tri[1]], h->vy[tri[1]], h->vz[tri[1]]);
        nv_vec3 c = v3(h->vx[tri[2]], h->vy[tri[2]], h->vz[tri[2]]);
        nv_vec3 n_area = v3_scale(v3_cross(v3_sub(b, a), v3_sub(c, a)), 0.5);
        double area = v3_length(n_area);
        nv_vec3 n = v3_normalize(n_area), k0 = v3_cross(n_area, a), k1 = v3_cross(n_area, b), k2 = v3_cross(n_area, c);
        nv_vec3 centroid = v3_scale(v3_add(v3_add(a, b), c), 1.0 / 3.0);
        nv_vec3 e1 = v3_sub(b, a), e2 = v3_sub(c, a);
        const double column[HULL_LANE_COLUMNS] = {
            centroid.x, centroid.y, centroid.z, n.x,  n.y,  n.z,  area, e1.x, e1.y, e1.z, e2.x,
            e2.y,       e2.z,       k0.x,       k0.y, k0.z, k1.x, k1.y, k1.z, k2.x, k2.y, k2.z};
        float* block = h->lanes + (t / HULL_GROUP) * HULL_LANE_BLOCK + t % HULL_GROUP;
        uint32_t* corners = h->corner_lanes + (t / HULL_GROUP) * 3 * HULL_GROUP + t % HULL_GROUP;
        for (int i = 0; i < HULL_LANE_COLUMNS; i++) block[i * HULL_GROUP] = (float)column[i];
        for (int i = 0; i < 3; i++) corners[i * HULL_GROUP] = tri[i];
        total += area;
    }
    h->total_area = total;
    return 0;
}

void nv_hull_destroy(nv_hull* h) {
    free(h->vx);
    free(h->vy);
    free(h->vz);
    free(h->triangles);
    free(h->lanes);
    free(h->corner_lanes);
    memset(h, 0, sizeof *h);
}

int nv_hull_to_mesh(const nv_hull* h, nv_mesh* out, nv_error* err) {
    nv_mesh_init(out);
    if (nv_mesh_reserve(out, h->vertex_count, h->triangle_count, err)) return -1;
    nv_vec3 cg = h->body.cg;
    for (uint32_t i = 0; i < h->vertex_count; i++) {
        float* p = out->positions + 3 * (size_t)i;
        p[0] = (float)(h->vx[i] + cg.x);
        p[1] = (float)(h->vy[i] + cg.y);
        p[2] = (float)(h->vz[i] + cg.z);
    }
    memcpy(out->indices, h->triangles, 3 * (size_t)h->triangle_count * sizeof(uint32_t));
    out->vertex_count = h->vertex_count;
    out->triangle_count = h->triangle_count;
    return 0;
}
