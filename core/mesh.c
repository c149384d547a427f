// SPDX-License-Identifier: MIT
/* Mesh storage, cleaning (weld, degenerate and unused-vertex removal),
 * volume and nv_mesh_finish. The edge checks are in mesh_check.c. */
#include "grow.h"
#include "mesh_internal.h"
#include "naval/mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A 32-bit sort key and its payload (a vertex index). */
typedef struct mesh_pair {
    uint32_t key;
    uint32_t value;
} mesh_pair;

#define MESH_RADIX_SIZE 65536u

/* Why radix and not qsort: a 1M-triangle STL has 3M corners and the loader
 * must stay well under a second. LSD radix is linear, and being stable it
 * keeps equal keys in input order, which is what makes weld deterministic
 * without a tie-break. tmp must hold n pairs. */
static int mesh_sort_pairs(mesh_pair* pairs, mesh_pair* tmp, size_t n, nv_error* err) {
    uint32_t* counts = calloc(2 * (size_t)MESH_RADIX_SIZE, sizeof *counts);
    if (!counts) return nv_error_fail(err, NV_ENOMEM, "out of memory sorting %zu vertices", n);
    for (size_t i = 0; i < n; i++) {
        counts[pairs[i].key & 0xFFFFu]++;
        counts[MESH_RADIX_SIZE + (pairs[i].key >> 16)]++;
    }
    for (unsigned pass = 0; pass < 2; pass++) {
        uint32_t* c = counts + (size_t)pass * MESH_RADIX_SIZE;
        uint32_t sum = 0;
        for (uint32_t d = 0; d < MESH_RADIX_SIZE; d++) {
            uint32_t k = c[d];
            c[d] = sum;
            sum += k;
        }
        const mesh_pair* src = pass ? tmp : pairs;
        mesh_pair* dst = pass ? pairs : tmp;
        unsigned shift = pass ? 16u : 0u;
        for (size_t i = 0; i < n; i++) dst[c[(src[i].key >> shift) & 0xFFFFu]++] = src[i];
    }
    free(counts);
    return 0;
}

nv_mesh_options nv_mesh_options_default(void) {
    nv_mesh_options o;
    o.up = 'y';
    o.max_triangles = MESH_DEFAULT_MAX_TRIANGLES;
    o.flip_inside_out = false;
    return o;
}

void nv_mesh_init(nv_mesh* m) { memset(m, 0, sizeof *m); }

void nv_mesh_free(nv_mesh* m) {
    if (!m) return;
    free(m->positions);
    free(m->indices);
    nv_mesh_init(m);
}

/* Exactly the room asked for (grow_resize checks the sizes for overflow,
 * which a uint32_t count cannot reach on a 64-bit host). */
int nv_mesh_reserve(nv_mesh* m, uint32_t vertices, uint32_t triangles, nv_error* err) {
    if (grow_reserve32((void**)&m->positions, &m->vertex_capacity, vertices, 3 * sizeof(float), 0))
        return nv_error_fail(err, NV_ENOMEM, "out of memory allocating %u vertices", vertices);
    if (grow_reserve32((void**)&m->indices, &m->triangle_capacity, triangles, 3 * sizeof(uint32_t), 0))
        return nv_error_fail(err, NV_ENOMEM, "out of memory allocating %u triangles", triangles);
    return 0;
}

static uint32_t mesh_grow_capacity(uint32_t cap) {
    if (cap < 64) return 64;
    return cap > UINT32_MAX / 2 ? UINT32_MAX : cap * 2;
}

int nv_mesh_add_vertex(nv_mesh* m, float x, float y, float z, nv_error* err) {
    if (m->vertex_count == m->vertex_capacity) {
        if (m->vertex_count == UINT32_MAX) return nv_error_set(err, "too many vertices (%u)", m->vertex_count);
        if (nv_mesh_reserve(m, mesh_grow_capacity(m->vertex_capacity), m->triangle_capacity, err)) return -1;
    }
    float* p = m->positions + (size_t)m->vertex_count * 3;
    p[0] = x;
    p[1] = y;
    p[2] = z;
    m->vertex_count++;
    return 0;
}

int nv_mesh_add_triangle(nv_mesh* m, uint32_t a, uint32_t b, uint32_t c, nv_error* err) {
    if (a >= m->vertex_count || b >= m->vertex_count || c >= m->vertex_count)
        return nv_error_set(err, "triangle %u (%u, %u, %u) uses a vertex index beyond the %u vertices",
                            m->triangle_count, a, b, c, m->vertex_count);
    if (m->triangle_count == m->triangle_capacity) {
        if (m->triangle_count == UINT32_MAX) return nv_error_set(err, "too many triangles (%u)", m->triangle_count);
        if (nv_mesh_reserve(m, m->vertex_capacity, mesh_grow_capacity(m->triangle_capacity), err)) return -1;
    }
    uint32_t* t = m->indices + (size_t)m->triangle_count * 3;
    t[0] = a;
    t[1] = b;
    t[2] = c;
    m->triangle_count++;
    return 0;
}

void nv_mesh_convert_z_up(nv_mesh* m) {
    for (size_t i = 0; i < m->vertex_count; i++) {
        float* p = m->positions + 3 * i;
        float y = p[1];
        p[1] = p[2];
        p[2] = -y;
    }
}

static uint32_t mesh_float_key(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u == 0x80000000u ? 0u : u; /* -0 and +0 are the same point */
}

/* Replaces every index by remap[index]. Out-of-range indices stay out of
 * range (shifted to just past the new count) so that validation still
 * reports them instead of them silently aliasing a real vertex. */
static void mesh_remap_indices(nv_mesh* m, const uint32_t* remap, uint32_t old_count, uint32_t new_count) {
    size_t n = (size_t)m->triangle_count * 3;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = m->indices[i];
        m->indices[i] = v < old_count ? remap[v] : v - old_count + new_count;
    }
}

/* Moves vertex i to slot next; origin (may be NULL) follows its vertices. */
static void mesh_move_vertex(nv_mesh* m, uint32_t* origin, uint32_t next, uint32_t i) {
    if (next == i) return;
    memmove(m->positions + 3 * (size_t)next, m->positions + 3 * (size_t)i, 3 * sizeof(float));
    if (origin) origin[next] = origin[i];
}

/* Keeps vertex i when keep[i] == i, else merges it into keep[i] < i; the
 * kept vertices retain their relative order. keep is overwritten with the
 * new numbering. Returns the new vertex count. */
static uint32_t mesh_compact_vertices(nv_mesh* m, uint32_t* keep, uint32_t* origin) {
    uint32_t n = m->vertex_count, next = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (keep[i] == i) {
            mesh_move_vertex(m, origin, next, i);
            keep[i] = next++;
        } else {
            keep[i] = keep[keep[i]]; /* keep[i] < i: already renumbered */
        }
    }
    mesh_remap_indices(m, keep, n, next);
    m->vertex_count = next;
    return next;
}

static bool mesh_same_position(const float* a, const float* b) {
    return mesh_float_key(a[0]) == mesh_float_key(b[0]) && mesh_float_key(a[1]) == mesh_float_key(b[1]) &&
           mesh_float_key(a[2]) == mesh_float_key(b[2]);
}

/* Only groups candidates: equal positions always hash alike, and the rare
 * collisions are split by mesh_weld_split_run, so the result does not
 * depend on this function at all. */
static uint32_t mesh_position_hash(const float* p) {
    uint64_t h = ((uint64_t)mesh_float_key(p[0]) | (uint64_t)mesh_float_key(p[1]) << 32) * 0x9E3779B97F4A7C15u;
    h ^= (uint64_t)mesh_float_key(p[2]) * 0xC2B2AE3D27D4EB4Fu;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9u;
    h ^= h >> 29;
    return (uint32_t)(h >> 32);
}

typedef struct mesh_weld_key {
    uint32_t k[3];
    uint32_t index;
} mesh_weld_key;

static int mesh_weld_key_compare(const void* pa, const void* pb) {
    const mesh_weld_key* a = pa;
    const mesh_weld_key* b = pb;
    for (int i = 0; i < 3; i++)
        if (a->k[i] != b->k[i]) return a->k[i] < b->k[i] ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* A hash run [start, ...) holding more than one position: sort it by the
 * full key (index breaks ties, so the order is total) and point every
 * member at the first index of its own position. */
static int mesh_weld_split_run(const nv_mesh* m, const mesh_pair* pairs, size_t n, size_t start, uint32_t* keep,
                               nv_error* err) {
    size_t end = start + 1;
    while (end < n && pairs[end].key == pairs[start].key) end++;
    mesh_weld_key* keys = malloc((end - start) * sizeof *keys);
    if (!keys) return nv_error_fail(err, NV_ENOMEM, "out of memory welding vertices");
    for (size_t i = start; i < end; i++) {
        const float* p = m->positions + 3 * (size_t)pairs[i].value;
        for (int k = 0; k < 3; k++) keys[i - start].k[k] = mesh_float_key(p[k]);
        keys[i - start].index = pairs[i].value;
    }
    qsort(keys, end - start, sizeof *keys, mesh_weld_key_compare);
    for (size_t g = 0; g < end - start;) {
        size_t e = g + 1;
        while (e < end - start && memcmp(keys[e].k, keys[g].k, sizeof keys[g].k) == 0) e++;
        for (size_t i = g; i < e; i++) keep[keys[i].index] = keys[g].index;
        g = e;
    }
    free(keys);
    return 0;
}

static int mesh_weld_checked(nv_mesh* m, uint32_t* removed, uint32_t* origin, nv_error* err) {
    *removed = 0;
    uint32_t n = m->vertex_count;
    if (n < 2) return 0;
    mesh_pair* pairs = malloc((size_t)n * sizeof *pairs);
    mesh_pair* tmp = malloc((size_t)n * sizeof *tmp);
    uint32_t* keep = malloc((size_t)n * sizeof *keep);
    int rc = -1;
    if (!pairs || !tmp || !keep) {
        nv_error_fail(err, NV_ENOMEM, "out of memory welding %u vertices", n);
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) {
        pairs[i].key = mesh_position_hash(m->positions + 3 * (size_t)i);
        pairs[i].value = i;
    }
    if (mesh_sort_pairs(pairs, tmp, n, err)) goto done;
    /* Stable sort: a run of equal hashes starts with its smallest index,
     * the first occurrence, which survives. */
    uint32_t* run_start = (uint32_t*)tmp; /* tmp is free again: reuse it */
    for (uint32_t g = 0; g < n;) {
        uint32_t e = g + 1;
        while (e < n && pairs[e].key == pairs[g].key) e++;
        for (uint32_t k = g; k < e; k++) {
            keep[pairs[k].value] = pairs[g].value;
            run_start[pairs[k].value] = g;
        }
        g = e;
    }
    /* In input order the survivor was usually seen just before, so this
     * check mostly hits the cache; a mismatch is a hash collision. */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = keep[i];
        if (r != i && !mesh_same_position(m->positions + 3 * (size_t)i, m->positions + 3 * (size_t)r) &&
            mesh_weld_split_run(m, pairs, n, run_start[i], keep, err))
            goto done;
    }
    *removed = n - mesh_compact_vertices(m, keep, origin);
    rc = 0;
done:
    free(pairs);
    free(tmp);
    free(keep);
    return rc;
}

void nv_mesh_weld(nv_mesh* m, uint32_t* removed) {
    uint32_t count = 0;
    /* Out of memory leaves the mesh as it was; nv_mesh_finish reports it. */
    (void)mesh_weld_checked(m, &count, NULL, NULL);
    if (removed) *removed = count;
}

/* origin (may be NULL) follows the triangles. */
static void mesh_drop_degenerate_tracked(nv_mesh* m, uint32_t* dropped, uint32_t* origin) {
    uint32_t out = 0, n = m->triangle_count;
    for (uint32_t t = 0; t < n; t++) {
        const uint32_t* s = m->indices + 3 * (size_t)t;
        if (s[0] == s[1] || s[1] == s[2] || s[2] == s[0]) continue;
        if (out != t) {
            memmove(m->indices + 3 * (size_t)out, s, 3 * sizeof *s);
            if (origin) origin[out] = origin[t];
        }
        out++;
    }
    m->triangle_count = out;
    if (dropped) *dropped = n - out;
}

void nv_mesh_drop_degenerate(nv_mesh* m, uint32_t* dropped) { mesh_drop_degenerate_tracked(m, dropped, NULL); }

static int mesh_drop_unused_checked(nv_mesh* m, uint32_t* removed, uint32_t* origin, nv_error* err) {
    *removed = 0;
    uint32_t n = m->vertex_count;
    if (n == 0) return 0;
    uint32_t* keep = malloc((size_t)n * sizeof *keep);
    if (!keep) return nv_error_fail(err, NV_ENOMEM, "out of memory checking %u vertices", n);
    /* n (never a valid index) marks a vertex no triangle has claimed. */
    for (uint32_t i = 0; i < n; i++) keep[i] = n;
    size_t ni = (size_t)m->triangle_count * 3;
    for (size_t i = 0; i < ni; i++)
        if (m->indices[i] < n) keep[m->indices[i]] = m->indices[i];
    uint32_t next = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (keep[i] == n) continue;
        mesh_move_vertex(m, origin, next, i);
        keep[i] = next++;
    }
    mesh_remap_indices(m, keep, n, next);
    m->vertex_count = next;
    *removed = n - next;
    free(keep);
    return 0;
}

void nv_mesh_drop_unused(nv_mesh* m, uint32_t* removed) {
    uint32_t count = 0;
    (void)mesh_drop_unused_checked(m, &count, NULL, NULL);
    if (removed) *removed = count;
}

/* Relative to the first vertex rather than the origin: identical for a
 * closed surface, and far better conditioned for a hull modelled away from
 * the origin (the products stay small). */
double nv_mesh_signed_volume(const nv_mesh* m) {
    if (m->vertex_count == 0) return 0.0;
    const float* o = m->positions;
    double sum = 0.0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        const uint32_t* s = m->indices + 3 * (size_t)t;
        const float* pa = m->positions + 3 * (size_t)s[0];
        const float* pb = m->positions + 3 * (size_t)s[1];
        const float* pc = m->positions + 3 * (size_t)s[2];
        double a[3], b[3], c[3];
        for (int k = 0; k < 3; k++) {
            a[k] = (double)pa[k] - o[k];
            b[k] = (double)pb[k] - o[k];
            c[k] = (double)pc[k] - o[k];
        }
        sum += a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
               a[2] * (b[0] * c[1] - b[1] * c[0]);
    }
    return sum / 6.0;
}

void nv_mesh_flip(nv_mesh* m) {
    for (size_t t = 0; t < m->triangle_count; t++) {
        uint32_t* s = m->indices + 3 * t;
        uint32_t tmp = s[1];
        s[1] = s[2];
        s[2] = tmp;
    }
}

void nv_mesh_bounds(const nv_mesh* m, float min_out[3], float max_out[3]) {
    if (m->vertex_count == 0) {
        for (int k = 0; k < 3; k++) min_out[k] = max_out[k] = 0.0f;
        return;
    }
    for (int k = 0; k < 3; k++) min_out[k] = max_out[k] = m->positions[k];
    for (size_t i = 1; i < m->vertex_count; i++) {
        const float* p = m->positions + 3 * i;
        for (int k = 0; k < 3; k++) {
            if (p[k] < min_out[k]) min_out[k] = p[k];
            if (p[k] > max_out[k]) max_out[k] = p[k];
        }
    }
}

/* Below this fraction of the bounding cube the volume is rounding noise:
 * a flat double-sided sheet is "closed" but encloses nothing. */
#define MESH_ZERO_VOLUME_RATIO 1e-9

/* The input's numbering of each vertex and triangle, carried through weld
 * and removal so messages name what the user's file holds. */
typedef struct mesh_origins {
    uint32_t* vertex;
    uint32_t* triangle;
} mesh_origins;

static int mesh_finish_steps(nv_mesh* m, const nv_mesh_options* opts, nv_mesh_report* report, mesh_origins* o, nv_error* err) {
    uint32_t max_triangles = opts->max_triangles ? opts->max_triangles : MESH_DEFAULT_MAX_TRIANGLES;
    bool z_up = opts->up == 'z' || opts->up == 'Z';
    if (!z_up && opts->up != 'y' && opts->up != 'Y' && opts->up != '\0')
        return nv_error_set(err, "unknown up axis '%c' (use 'y' or 'z')", opts->up);
    report->input_triangles = m->triangle_count;
    if (m->triangle_count > max_triangles)
        return nv_error_set(err, "%u triangles, more than the limit of %u (max_triangles)", m->triangle_count,
                            max_triangles);
    if (m->triangle_count == 0) return nv_error_set(err, "no triangles");
    if (mesh_check_vertices(m, err)) return -1;

    o->vertex = malloc((size_t)m->vertex_count * sizeof *o->vertex);
    o->triangle = malloc((size_t)m->triangle_count * sizeof *o->triangle);
    if (!o->vertex || !o->triangle)
        return nv_error_fail(err, NV_ENOMEM, "out of memory checking %u triangles", m->triangle_count);
    for (uint32_t i = 0; i < m->vertex_count; i++) o->vertex[i] = i;
    for (uint32_t t = 0; t < m->triangle_count; t++) o->triangle[t] = t;

    if (mesh_weld_checked(m, &report->welded_vertices, o->vertex, err)) return -1;
    mesh_drop_degenerate_tracked(m, &report->dropped_triangles, o->triangle);
    if (m->triangle_count == 0)
        return nv_error_set(err, "all %u triangles are degenerate (each uses a vertex twice)", report->input_triangles);
    /* Stray vertices would widen the bounds and cost the per-vertex passes. */
    if (mesh_drop_unused_checked(m, &report->unused_vertices, o->vertex, err)) return -1;

    if (mesh_check_topology(m, o->vertex, o->triangle, &report->components, err)) return -1;

    double volume = nv_mesh_signed_volume(m);
    float lo[3], hi[3];
    nv_mesh_bounds(m, lo, hi);
    double extent = 0.0;
    for (int k = 0; k < 3; k++)
        if ((double)hi[k] - lo[k] > extent) extent = (double)hi[k] - lo[k];
    double zero = MESH_ZERO_VOLUME_RATIO * extent * extent * extent;
    if (!isfinite(volume)) return nv_error_set(err, "total volume is not finite (coordinates too large)");
    if (fabs(volume) <= zero)
        return nv_error_set(err, "total volume is zero (%g m^3): the closed surface encloses nothing", volume);
    if (volume < 0.0) {
        if (!opts->flip_inside_out)
            return nv_error_set(err,
                                "inside-out: total volume is %.3f m^3 (triangles wind clockwise seen from outside); "
                                "use flip_inside_out (naval-hull --flip) to reverse them",
                                volume);
        nv_mesh_flip(m);
        report->flipped = true;
    }
    /* Last, so that every message above quotes the file's own coordinates;
     * a rotation changes neither the topology nor the volume. */
    if (z_up) nv_mesh_convert_z_up(m);
    return 0;
}

int nv_mesh_finish(nv_mesh* m, const nv_mesh_options* opts, const char* name, nv_mesh_report* report, nv_error* err) {
    nv_mesh_options defaults = nv_mesh_options_default();
    nv_mesh_report local;
    mesh_origins origins = {NULL, NULL};
    if (!opts) opts = &defaults;
    if (!report) report = &local;
    memset(report, 0, sizeof *report);
    int rc = mesh_finish_steps(m, opts, report, &origins, err);
    free(origins.vertex);
    free(origins.triangle);
    if (rc) return nv_error_prefix(err, "%s", name ? name : "mesh");
    return 0;
}
