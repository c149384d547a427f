// SPDX-License-Identifier: MIT
/* Closed-surface checks: every edge shared by exactly two triangles in
 * opposite directions, and the edge-connected components. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mesh_internal.h"
#include "naval/mesh.h"

/* Every corner's outgoing edge, grouped by undirected edge: bucket v holds
 * the edges whose smaller vertex is v, sorted by the other vertex and then
 * by corner (3 * triangle + slot; the edge runs from that corner to the
 * next). A counting sort on v plus tiny per-vertex sorts: linear time. */
typedef struct mesh_edge {
    uint32_t other;
    uint32_t corner;
} mesh_edge;

typedef struct mesh_edges {
    mesh_edge* items;
    uint32_t* end; /* end[v]: one past bucket v */
    uint32_t vertex_count;
} mesh_edges;

typedef struct mesh_edge_group {
    size_t begin, end; /* items[begin, end) share one undirected edge */
    uint32_t bucket;
} mesh_edge_group;

static void mesh_edges_free(mesh_edges* es) {
    free(es->items);
    free(es->end);
}

static int mesh_edge_compare(const void* pa, const void* pb) {
    const mesh_edge* a = pa;
    const mesh_edge* b = pb;
    if (a->other != b->other) return a->other < b->other ? -1 : 1;
    return a->corner < b->corner ? -1 : a->corner > b->corner;
}

static void mesh_edges_sort_bucket(mesh_edge* e, size_t n) {
    if (n > 32) { /* a vertex with a huge fan: keep it n log n */
        qsort(e, n, sizeof *e, mesh_edge_compare);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        mesh_edge x = e[i];
        size_t j = i;
        for (; j > 0 && mesh_edge_compare(&e[j - 1], &x) > 0; j--) e[j] = e[j - 1];
        e[j] = x;
    }
}

static int mesh_edges_build(const nv_mesh* m, mesh_edges* es, nv_error* err) {
    uint32_t nv = m->vertex_count;
    es->items = NULL;
    es->end = NULL;
    es->vertex_count = nv;
    if (m->triangle_count > UINT32_MAX / 3)
        return nv_error_set(err, "too many triangles (%u) to check edges", m->triangle_count);
    size_t n = (size_t)m->triangle_count * 3;
    es->end = calloc((size_t)nv + 1, sizeof *es->end);
    es->items = malloc((n ? n : 1) * sizeof *es->items);
    if (!es->end || !es->items) {
        mesh_edges_free(es);
        return nv_error_fail(err, NV_ENOMEM, "out of memory checking %u triangles", m->triangle_count);
    }
    for (size_t c = 0; c < n; c++) {
        uint32_t a = m->indices[c], b = m->indices[c % 3 == 2 ? c - 2 : c + 1];
        if (a >= nv || b >= nv) {
            mesh_edges_free(es);
            return nv_error_set(err, "triangle %zu uses vertex index %u, but the mesh has %u vertices", c / 3,
                                a >= nv ? a : b, nv);
        }
        es->end[a < b ? a : b]++;
    }
    uint32_t sum = 0;
    for (uint32_t v = 0; v < nv; v++) {
        uint32_t k = es->end[v];
        es->end[v] = sum;
        sum += k;
    }
    for (size_t c = 0; c < n; c++) {
        uint32_t a = m->indices[c], b = m->indices[c % 3 == 2 ? c - 2 : c + 1];
        mesh_edge e = {a < b ? b : a, (uint32_t)c};
        es->items[es->end[a < b ? a : b]++] = e;
    }
    for (uint32_t v = 0; v < nv; v++) {
        uint32_t begin = v ? es->end[v - 1] : 0;
        mesh_edges_sort_bucket(es->items + begin, es->end[v] - begin);
    }
    return 0;
}

/* Advances g to the next group; start with a zeroed group. */
static bool mesh_edges_next(const mesh_edges* es, mesh_edge_group* g) {
    g->begin = g->end;
    while (g->bucket < es->vertex_count && es->end[g->bucket] <= g->begin) g->bucket++;
    if (g->bucket >= es->vertex_count) return false;
    size_t limit = es->end[g->bucket];
    g->end = g->begin + 1;
    while (g->end < limit && es->items[g->end].other == es->items[g->begin].other) g->end++;
    return true;
}

static uint32_t mesh_corner_from(const nv_mesh* m, uint32_t corner) { return m->indices[corner]; }
static uint32_t mesh_corner_to(const nv_mesh* m, uint32_t corner) {
    return m->indices[corner % 3 == 2 ? corner - 2 : corner + 1];
}

int mesh_check_vertices(const nv_mesh* m, nv_error* err) {
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        const uint32_t* s = m->indices + 3 * (size_t)t;
        for (int k = 0; k < 3; k++)
            if (s[k] >= m->vertex_count)
                return nv_error_set(err, "triangle %u uses vertex index %u, but the mesh has %u vertices", t, s[k],
                                    m->vertex_count);
    }
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const float* p = m->positions + 3 * (size_t)i;
        if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
            return nv_error_set(err, "vertex %u has a non-finite coordinate (%g, %g, %g)", i, p[0], p[1], p[2]);
    }
    return 0;
}

static int mesh_check_degenerate(const nv_mesh* m, nv_error* err) {
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        const uint32_t* s = m->indices + 3 * (size_t)t;
        if (s[0] == s[1] || s[1] == s[2] || s[2] == s[0])
            return nv_error_set(err, "triangle %u (%u, %u, %u) uses a vertex twice", t, s[0], s[1], s[2]);
    }
    return 0;
}

/* How a message numbers vertices and triangles: as the input did (the
 * maps of nv_mesh_finish), or as the mesh does when a map is NULL. */
typedef struct mesh_numbering {
    const uint32_t* vertex;
    const uint32_t* triangle;
} mesh_numbering;

static uint32_t mesh_number_triangle(const mesh_numbering* n, uint32_t corner) {
    return n->triangle ? n->triangle[corner / 3] : corner / 3;
}

/* Formats "vertex A (x, y, z)<join>vertex B (x, y, z)" for the edge leaving
 * a corner. */
static void mesh_describe_edge(const nv_mesh* m, const mesh_numbering* n, uint32_t corner, const char* join, char* buf,
                               size_t size) {
    uint32_t a = mesh_corner_from(m, corner), b = mesh_corner_to(m, corner);
    const float* p = m->positions + 3 * (size_t)a;
    const float* q = m->positions + 3 * (size_t)b;
    snprintf(buf, size, "vertex %u (%g, %g, %g)%svertex %u (%g, %g, %g)", n->vertex ? n->vertex[a] : a, p[0], p[1],
             p[2], join, n->vertex ? n->vertex[b] : b, q[0], q[1], q[2]);
}

/* Reports the first bad edge of the earliest triangle that has one, so the
 * message points at the same place whatever the vertex numbering. */
static int mesh_check_edges(const nv_mesh* m, const mesh_edges* es, const mesh_numbering* n, nv_error* err) {
    const mesh_edge* items = es->items;
    size_t bad_start = 0, bad_end = 0, bad_count = 0;
    uint32_t bad_corner = UINT32_MAX;
    mesh_edge_group g = {0, 0, 0};
    while (mesh_edges_next(es, &g)) {
        bool ok = false;
        if (g.end - g.begin == 2) {
            uint32_t c0 = items[g.begin].corner, c1 = items[g.begin + 1].corner;
            ok = mesh_corner_from(m, c0) == mesh_corner_to(m, c1);
        }
        if (!ok) {
            bad_count++;
            if (items[g.begin].corner < bad_corner) { /* a group's items are in corner order */
                bad_corner = items[g.begin].corner;
                bad_start = g.begin;
                bad_end = g.end;
            }
        }
    }
    if (bad_count == 0) return 0;

    char edge[200], more[64] = "";
    if (bad_count > 1) snprintf(more, sizeof more, " (and %zu more bad edges)", bad_count - 1);
    uint32_t c0 = items[bad_start].corner;
    size_t uses = bad_end - bad_start;
    if (uses == 1) {
        mesh_describe_edge(m, n, c0, " and ", edge, sizeof edge);
        return nv_error_set(err, "open mesh: edge between %s belongs to triangle %u only%s", edge,
                            mesh_number_triangle(n, c0), more);
    }
    if (uses == 2) {
        uint32_t c1 = items[bad_start + 1].corner;
        mesh_describe_edge(m, n, c0, " to ", edge, sizeof edge);
        return nv_error_set(err,
                            "inconsistent winding: triangles %u and %u both run from %s; triangles sharing an edge "
                            "must traverse it in opposite directions (one of them is flipped)%s",
                            mesh_number_triangle(n, c0), mesh_number_triangle(n, c1), edge, more);
    }
    char list[80] = "";
    size_t len = 0;
    for (size_t k = bad_start; k < bad_end && len < sizeof list - 16; k++) {
        if (k - bad_start == 4 && uses > 5) {
            len += (size_t)snprintf(list + len, sizeof list - len, ", ...");
            break;
        }
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%u", k == bad_start ? "" : ", ",
                                mesh_number_triangle(n, items[k].corner));
    }
    mesh_describe_edge(m, n, c0, " and ", edge, sizeof edge);
    return nv_error_set(err,
                        "non-manifold edge: edge between %s is used by %zu triangles (%s); an edge of a closed "
                        "surface belongs to exactly two%s",
                        edge, uses, list, more);
}

static uint32_t mesh_find_root(uint32_t* parent, uint32_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Union-find over triangles joined through shared edges: two shells that
 * only touch at a vertex count as two, which is what a buoyancy solid is. */
static int mesh_components_from_edges(const nv_mesh* m, const mesh_edges* es, uint32_t* components, nv_error* err) {
    *components = 0;
    uint32_t nt = m->triangle_count;
    if (nt == 0) return 0;
    uint32_t* parent = malloc((size_t)nt * sizeof *parent);
    if (!parent) return nv_error_fail(err, NV_ENOMEM, "out of memory counting components of %u triangles", nt);
    for (uint32_t t = 0; t < nt; t++) parent[t] = t;
    mesh_edge_group g = {0, 0, 0};
    while (mesh_edges_next(es, &g)) {
        /* The smaller root wins: the result cannot depend on visit order. */
        uint32_t r0 = mesh_find_root(parent, es->items[g.begin].corner / 3);
        for (size_t k = g.begin + 1; k < g.end; k++) {
            uint32_t r = mesh_find_root(parent, es->items[k].corner / 3);
            if (r < r0) {
                parent[r0] = r;
                r0 = r;
            } else if (r > r0) {
                parent[r] = r0;
            }
        }
    }
    uint32_t count = 0;
    for (uint32_t t = 0; t < nt; t++) count += parent[t] == t;
    free(parent);
    *components = count;
    return 0;
}

int nv_mesh_validate_closed(const nv_mesh* m, nv_error* err) {
    if (mesh_check_vertices(m, err) || mesh_check_degenerate(m, err)) return -1;
    mesh_edges es;
    if (mesh_edges_build(m, &es, err)) return -1;
    mesh_numbering own = {NULL, NULL};
    int rc = mesh_check_edges(m, &es, &own, err);
    mesh_edges_free(&es);
    return rc;
}

uint32_t nv_mesh_count_components(const nv_mesh* m) {
    mesh_edges es;
    uint32_t components = 0;
    if (mesh_edges_build(m, &es, NULL)) return 0;
    (void)mesh_components_from_edges(m, &es, &components, NULL);
    mesh_edges_free(&es);
    return components;
}

int mesh_check_topology(const nv_mesh* m, const uint32_t* vertex_origin, const uint32_t* triangle_origin,
                        uint32_t* components, nv_error* err) {
    mesh_edges es;
    if (mesh_edges_build(m, &es, err)) return -1;
    mesh_numbering input = {vertex_origin, triangle_origin};
    int rc = mesh_check_edges(m, &es, &input, err);
    if (rc == 0) rc = mesh_components_from_edges(m, &es, components, err);
    mesh_edges_free(&es);
    return rc;
}
