// SPDX-License-Identifier: MIT
/* Compartments: a closed hull cut by transverse planes, each piece capped
 * (see naval/compartment.h). Each compartment is the hull's triangles
 * clipped to its slab between two planes, plus a cap on each plane: the
 * clipped triangles' edges that lie on the plane, chained into loops and
 * triangulated by ear clipping. An edge is cut at the same point from
 * both of its triangles (the point is computed from the edge's vertices in
 * a fixed order), so the loops close exactly and nv_mesh_finish welds the
 * cap to the sides into one closed shell. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "naval/compartment.h"

#define POLY_MAX 8  /* a triangle clipped by two planes has at most 5 corners */

typedef struct cpoint {
    double x, y, z;
} cpoint;

/* A corner of a clipped polygon: where it is, and whether it lies on the
 * plane just clipped against. */
typedef struct corner {
    cpoint p;
    int on_plane;
} corner;

typedef struct segment {
    cpoint a, b;
} segment;

typedef struct segments {
    segment* s;
    uint32_t n, cap;
} segments;

static cpoint vertex_of(const mesh* m, uint32_t i) {
    const float* p = &m->positions[3 * (size_t)i];
    cpoint c = {p[0], p[1], p[2]};
    return c;
}

/* The point where the segment a..b crosses x = plane, the same bits
 * whichever way round the edge is given. */
static cpoint cut_at(cpoint a, cpoint b, double plane) {
    if (a.x > b.x || (a.x == b.x && (a.y > b.y || (a.y == b.y && a.z > b.z)))) {
        cpoint t = a;
        a = b;
        b = t;
    }
    double t = (plane - a.x) / (b.x - a.x);
    cpoint c = {plane, a.y + t * (b.y - a.y), a.z + t * (b.z - a.z)};
    return c;
}

/* Keeps the part of the polygon on the side sign * (x - plane) >= 0. */
static uint32_t clip_poly(const corner* in, uint32_t n, double plane, double sign, corner* out) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        const corner* a = &in[i];
        const corner* b = &in[(i + 1) % n];
        double da = sign * (a->p.x - plane), db = sign * (b->p.x - plane);
        if (da >= 0.0) out[k++] = (corner){a->p, da == 0.0};
        if ((da > 0.0 && db < 0.0) || (da < 0.0 && db > 0.0)) out[k++] = (corner){cut_at(a->p, b->p, plane), 1};
    }
    return k;
}

static int push_segment(segments* s, cpoint a, cpoint b) {
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 64;
        segment* q = realloc(s->s, cap * sizeof *q);
        if (!q) return -1;
        s->s = q;
        s->cap = cap;
    }
    s->s[s->n++] = (segment){a, b};
    return 0;
}

static int same(cpoint a, cpoint b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static int add_point(mesh* m, cpoint p, uint32_t* index, nv_error* err) {
    *index = m->vertex_count;
    return nv_mesh_add_vertex(m, (float)p.x, (float)p.y, (float)p.z, err);
}

static int add_triangle(mesh* m, cpoint a, cpoint b, cpoint c, nv_error* err) {
    uint32_t ia, ib, ic;
    if (add_point(m, a, &ia, err) || add_point(m, b, &ib, err) || add_point(m, c, &ic, err)) return -1;
    return nv_mesh_add_triangle(m, ia, ib, ic, err);
}

/* ---- caps ---------------------------------------------------------------------- */

static double cross2(double ay, double az, double by, double bz, double cy, double cz) {
    return (by - ay) * (cz - az) - (bz - az) * (cy - ay);
}

/* Ear clipping of a simple loop in the plane's (y, z) coordinates; the
 * triangles keep the loop's winding. Collinear corners stay until an ear
 * takes them (a corner is a side triangle's too: dropping it would leave a
 * T-junction). */
static int cap_loop(mesh* m, cpoint* loop, uint32_t n, nv_error* err) {
    double area = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        const cpoint* a = &loop[i];
        const cpoint* b = &loop[(i + 1) % n];
        area += a->y * b->z - b->y * a->z;
    }
    double wind = area > 0.0 ? 1.0 : -1.0;
    uint32_t* idx = malloc(n * sizeof *idx);
    if (!idx) return nv_error_fail(err, NV_ENOMEM, "compartments: out of memory");
    for (uint32_t i = 0; i < n; i++) idx[i] = i;
    uint32_t left = n, guard = 0;
    while (left > 3 && guard < 4 * n * n) {
        int clipped = 0;
        for (uint32_t i = 0; i < left && left > 3; i++, guard++) {
            const cpoint* a = &loop[idx[(i + left - 1) % left]];
            const cpoint* b = &loop[idx[i]];
            const cpoint* c = &loop[idx[(i + 1) % left]];
            if (wind * cross2(a->y, a->z, b->y, b->z, c->y, c->z) <= 0.0) continue; /* reflex or flat */
            int ear = 1;
            for (uint32_t j = 0; j < left && ear; j++) {
                const cpoint* p = &loop[idx[j]];
                if (p == a || p == b || p == c) continue;
                /* Inside or on the ear (a corner on the new diagonal counts). */
                ear = !(wind * cross2(a->y, a->z, b->y, b->z, p->y, p->z) >= 0.0 &&
                        wind * cross2(b->y, b->z, c->y, c->z, p->y, p->z) >= 0.0 &&
                        wind * cross2(c->y, c->z, a->y, a->z, p->y, p->z) >= 0.0);
            }
            if (!ear) continue;
            if (add_triangle(m, *a, *b, *c, err)) {
                free(idx);
                return -1;
            }
            memmove(&idx[i], &idx[i + 1], (left - i - 1) * sizeof *idx);
            left--;
            clipped = 1;
        }
        if (!clipped) break;
    }
    int rc = 0;
    if (left == 3) rc = add_triangle(m, loop[idx[0]], loop[idx[1]], loop[idx[2]], err);
    else rc = nv_error_set(err, "compartments: a bulkhead's section is not a simple polygon");
    free(idx);
    return rc;
}

/* The segments on one plane, chained into loops (each segment reversed:
 * the cap runs against the sides' edges), each loop capped. */
static int cap_plane(mesh* m, segments* s, double plane, nv_error* err) {
    uint32_t n = s->n;
    cpoint* loop = malloc((n + 1) * sizeof *loop);
    uint8_t* used = calloc(n ? n : 1, 1);
    if (!loop || !used) {
        free(loop);
        free(used);
        return nv_error_fail(err, NV_ENOMEM, "compartments: out of memory");
    }
    int rc = 0;
    for (uint32_t start = 0; start < n && !rc; start++) {
        if (used[start]) continue;
        used[start] = 1;
        uint32_t k = 0;
        loop[k++] = s->s[start].b;
        cpoint at = s->s[start].a, first = s->s[start].b;
        while (!same(at, first)) {
            /* The segment that ends where this one begins (reversed, it follows). */
            uint32_t next = n;
            for (uint32_t j = 0; j < n; j++)
                if (!used[j] && same(s->s[j].b, at)) {
                    next = j;
                    break;
                }
            if (next == n || k == n) {
                rc = nv_error_set(err, "compartments: the hull's section at x = %g m does not close", plane);
                break;
            }
            used[next] = 1;
            loop[k++] = at;
            at = s->s[next].a;
        }
        if (!rc && k >= 3) rc = cap_loop(m, loop, k, err);
    }
    free(loop);
    free(used);
    return rc;
}

/* ---- the split ------------------------------------------------------------------- */

static int build_slab(const mesh* hull, double lo, double hi, mesh* out, nv_error* err) {
    segments at_lo = {0}, at_hi = {0};
    int rc = 0;
    for (uint32_t t = 0; t < hull->triangle_count && !rc; t++) {
        corner a[POLY_MAX], b[POLY_MAX];
        for (int k = 0; k < 3; k++) a[k] = (corner){vertex_of(hull, hull->indices[3 * (size_t)t + k]), 0};
        uint32_t n = 3;
        if (isfinite(lo)) {
            n = clip_poly(a, n, lo, 1.0, b);
            for (uint32_t k = 0; k < n && !rc; k++)
                if (b[k].on_plane && b[(k + 1) % n].on_plane && n >= 3)
                    rc = push_segment(&at_lo, b[k].p, b[(k + 1) % n].p);
        } else {
            memcpy(b, a, sizeof a[0] * 3);
        }
        if (n < 3) continue;
        if (isfinite(hi)) {
            n = clip_poly(b, n, hi, -1.0, a);
            for (uint32_t k = 0; k < n && !rc; k++)
                if (a[k].on_plane && a[(k + 1) % n].on_plane && n >= 3)
                    rc = push_segment(&at_hi, a[k].p, a[(k + 1) % n].p);
        } else {
            memcpy(a, b, sizeof b[0] * n);
        }
        for (uint32_t k = 1; k + 1 < n && !rc; k++) rc = add_triangle(out, a[0].p, a[k].p, a[k + 1].p, err);
    }
    if (rc && err && err->code == NV_OK) nv_error_fail(err, NV_ENOMEM, "compartments: out of memory");
    if (!rc && isfinite(lo)) rc = cap_plane(out, &at_lo, lo, err);
    if (!rc && isfinite(hi)) rc = cap_plane(out, &at_hi, hi, err);
    free(at_lo.s);
    free(at_hi.s);
    return rc;
}

void nv_compartment_set_free(compartment_set* s) {
    if (!s) return;
    for (uint32_t k = 0; k < s->count; k++) nv_mesh_free(&s->meshes[k]);
    s->count = 0;
}

int nv_compartment_split(const mesh* hull, const double* bulkheads, uint32_t n, compartment_set* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    if (!hull || (n && !bulkheads)) return nv_error_set(err, "compartments: no hull or no bulkheads");
    if (n + 1 > COMPARTMENT_MAX)
        return nv_error_fail(err, NV_ELIMIT, "compartments: %u bulkheads, at most %d", n, COMPARTMENT_MAX - 1);
    float lo[3], hi[3];
    nv_mesh_bounds(hull, lo, hi);
    for (uint32_t k = 0; k < n; k++) {
        double x = bulkheads[k];
        if (!isfinite(x)) return nv_error_set(err, "compartments: bulkhead %u is not a number", k + 1);
        if (x <= lo[0] + COMPARTMENT_MIN_GAP || x >= hi[0] - COMPARTMENT_MIN_GAP)
            return nv_error_set(err, "compartments: bulkhead %u at x = %g m is outside the hull (x from %g to %g m)",
                                k + 1, x, lo[0], hi[0]);
        if (k && x < bulkheads[k - 1] + COMPARTMENT_MIN_GAP)
            return nv_error_set(err, "compartments: bulkheads must increase by at least %g m (%g then %g)",
                                COMPARTMENT_MIN_GAP, bulkheads[k - 1], x);
    }
    out->bounds[0] = lo[0];
    for (uint32_t k = 0; k < n; k++) out->bounds[k + 1] = bulkheads[k];
    out->bounds[n + 1] = hi[0];
    mesh_options opts = nv_mesh_options_default();
    for (uint32_t k = 0; k <= n; k++) {
        mesh* m = &out->meshes[k];
        nv_mesh_init(m);
        out->count = k + 1;
        double a = k ? bulkheads[k - 1] : -INFINITY, b = k < n ? bulkheads[k] : INFINITY;
        if (build_slab(hull, a, b, m, err) || nv_mesh_finish(m, &opts, "compartment", NULL, err)) {
            nv_error_prefix(err, "compartment %u (x from %g to %g m)", k + 1, out->bounds[k], out->bounds[k + 1]);
            nv_compartment_set_free(out);
            return -1;
        }
        out->volume[k] = nv_mesh_signed_volume(m);
    }
    return 0;
}

/* ---- water in a compartment -------------------------------------------------------- */

static vec3 place(const mat3* r, vec3 t, const float* p) {
    double x = p[0], y = p[1], z = p[2];
    return v3(r->m[0][0] * x + r->m[0][1] * y + r->m[0][2] * z + t.x,
              r->m[1][0] * x + r->m[1][1] * y + r->m[1][2] * z + t.y,
              r->m[2][0] * x + r->m[2][1] * y + r->m[2][2] * z + t.z);
}

double nv_compartment_volume_below(const mesh* m, const mat3* rotation, vec3 position, double level, vec3* centroid) {
    /* Tetrahedra from a point on the plane: the cut's cap lies in the
     * plane, so its tetrahedra are flat and it needs no triangulation. */
    vec3 apex = v3(position.x, level, position.z);
    double v6 = 0.0;
    vec3 c = v3(0.0, 0.0, 0.0);
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        vec3 p[3], q[5];
        double d[3];
        for (int k = 0; k < 3; k++) {
            p[k] = place(rotation, position, &m->positions[3 * (size_t)m->indices[3 * (size_t)t + k]]);
            d[k] = p[k].y - level;
        }
        uint32_t n = 0;
        for (int k = 0; k < 3; k++) {
            int j = (k + 1) % 3;
            if (d[k] <= 0.0) q[n++] = p[k];
            if ((d[k] < 0.0 && d[j] > 0.0) || (d[k] > 0.0 && d[j] < 0.0))
                q[n++] = v3_madd(p[k], v3_sub(p[j], p[k]), d[k] / (d[k] - d[j]));
        }
        for (uint32_t k = 1; k + 1 < n; k++) {
            vec3 a = v3_sub(q[0], apex), b = v3_sub(q[k], apex), e = v3_sub(q[k + 1], apex);
            double w = v3_dot(a, v3_cross(b, e));
            v6 += w;
            c = v3_madd(c, v3_add(v3_add(a, b), e), w);
        }
    }
    double v = v6 / 6.0;
    /* A tetrahedron's centroid is a quarter of its corners' sum (the apex at 0). */
    if (centroid) *centroid = v6 != 0.0 ? v3_add(apex, v3_scale(c, 1.0 / (4.0 * v6))) : apex;
    return v;
}

double nv_compartment_level_for(const mesh* m, const mat3* rotation, vec3 position, double volume, vec3* centroid) {
    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        double y = place(rotation, position, &m->positions[3 * (size_t)i]).y;
        lo = y < lo ? y : lo;
        hi = y > hi ? y : hi;
    }
    if (!(volume > 0.0) || m->vertex_count == 0) {
        if (centroid) nv_compartment_volume_below(m, rotation, position, lo, centroid);
        return lo;
    }
    /* The volume below grows with the level: bisect to a tenth of a
     * micrometre (about 40 halvings of a hull's depth). */
    for (int i = 0; i < 64 && hi - lo > 1e-7; i++) {
        double mid = 0.5 * (lo + hi);
        if (nv_compartment_volume_below(m, rotation, position, mid, NULL) < volume) lo = mid;
        else hi = mid;
    }
    double level = 0.5 * (lo + hi);
    if (centroid) nv_compartment_volume_below(m, rotation, position, level, centroid);
    return level;
}

double nv_compartment_orifice_flow(double cd, double area, double gravity, double dh) {
    double q = cd * area * sqrt(2.0 * gravity * fabs(dh));
    return dh < 0.0 ? -q : q;
}
