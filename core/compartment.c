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

#include "grow.h"
#include "naval/compartment.h"

#define POLY_MAX 8  /* a triangle clipped by two planes has at most 5 corners */

typedef struct cpoint {
    double v[3];   /* x, y, z */
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

static cpoint vertex_of(const nv_mesh* m, uint32_t i) {
    const float* p = &m->positions[3 * (size_t)i];
    cpoint c = {{p[0], p[1], p[2]}};
    return c;
}

static int before(cpoint a, cpoint b) {
    return a.v[0] < b.v[0] || (a.v[0] == b.v[0] && (a.v[1] < b.v[1] || (a.v[1] == b.v[1] && a.v[2] < b.v[2])));
}

/* The point where the segment a..b crosses the plane v[axis] = plane, the
 * same bits whichever way round the edge is given. */
static cpoint cut_at(cpoint a, cpoint b, int axis, double plane) {
    if (before(b, a)) {
        cpoint t = a;
        a = b;
        b = t;
    }
    double t = (plane - a.v[axis]) / (b.v[axis] - a.v[axis]);
    cpoint c;
    for (int k = 0; k < 3; k++) c.v[k] = a.v[k] + t * (b.v[k] - a.v[k]);
    c.v[axis] = plane;
    return c;
}

/* Keeps the part of the polygon on the side sign * (v[axis] - plane) >= 0. */
static uint32_t clip_poly(const corner* in, uint32_t n, int axis, double plane, double sign, corner* out) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        const corner* a = &in[i];
        const corner* b = &in[(i + 1) % n];
        double da = sign * (a->p.v[axis] - plane), db = sign * (b->p.v[axis] - plane);
        if (da >= 0.0) out[k++] = (corner){a->p, da == 0.0};
        if ((da > 0.0 && db < 0.0) || (da < 0.0 && db > 0.0)) out[k++] = (corner){cut_at(a->p, b->p, axis, plane), 1};
    }
    return k;
}

static int push_segment(segments* s, cpoint a, cpoint b) {
    if (GROW(&s->s, &s->cap, s->n + 1, 64)) return -1;
    s->s[s->n++] = (segment){a, b};
    return 0;
}

static int same(cpoint a, cpoint b) { return a.v[0] == b.v[0] && a.v[1] == b.v[1] && a.v[2] == b.v[2]; }

static int add_point(nv_mesh* m, cpoint p, uint32_t* index, nv_error* err) {
    *index = m->vertex_count;
    return nv_mesh_add_vertex(m, (float)p.v[0], (float)p.v[1], (float)p.v[2], err);
}

static int add_triangle(nv_mesh* m, cpoint a, cpoint b, cpoint c, nv_error* err) {
    uint32_t ia, ib, ic;
    if (add_point(m, a, &ia, err) || add_point(m, b, &ib, err) || add_point(m, c, &ic, err)) return -1;
    return nv_mesh_add_triangle(m, ia, ib, ic, err);
}

/* ---- caps ---------------------------------------------------------------------- */

static double cross2(double ay, double az, double by, double bz, double cy, double cz) {
    return (by - ay) * (cz - az) - (bz - az) * (cy - ay);
}

/* Ear clipping of a simple loop in the plane's own coordinates (the other
 * two axes); the triangles keep the loop's winding. Collinear corners stay
 * until an ear takes them (a corner is a side triangle's too: dropping it
 * would leave a T-junction). */
static int cap_loop(nv_mesh* m, cpoint* loop, uint32_t n, int axis, nv_error* err) {
    const int u = axis == 0 ? 1 : 0, w = axis == 2 ? 1 : 2;
    double area = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        const cpoint* a = &loop[i];
        const cpoint* b = &loop[(i + 1) % n];
        area += a->v[u] * b->v[w] - b->v[u] * a->v[w];
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
            if (wind * cross2(a->v[u], a->v[w], b->v[u], b->v[w], c->v[u], c->v[w]) <= 0.0) continue; /* reflex, flat */
            int ear = 1;
            for (uint32_t j = 0; j < left && ear; j++) {
                const cpoint* p = &loop[idx[j]];
                if (p == a || p == b || p == c) continue;
                /* Inside or on the ear (a corner on the new diagonal counts). */
                ear = !(wind * cross2(a->v[u], a->v[w], b->v[u], b->v[w], p->v[u], p->v[w]) >= 0.0 &&
                        wind * cross2(b->v[u], b->v[w], c->v[u], c->v[w], p->v[u], p->v[w]) >= 0.0 &&
                        wind * cross2(c->v[u], c->v[w], a->v[u], a->v[w], p->v[u], p->v[w]) >= 0.0);
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
static int cap_plane(nv_mesh* m, segments* s, int axis, double plane, nv_error* err) {
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
                rc = nv_error_set(err, "compartments: the hull's section at %c = %g m does not close", "xyz"[axis],
                                  plane);
                break;
            }
            used[next] = 1;
            loop[k++] = at;
            at = s->s[next].a;
        }
        if (!rc && k >= 3) rc = cap_loop(m, loop, k, axis, err);
    }
    free(loop);
    free(used);
    return rc;
}

/* ---- the split ------------------------------------------------------------------- */

/* The closed mesh clipped to lo <= v[axis] <= hi (an infinite bound does
 * not cut), each cut capped: closed again. */
static int clip_axis(const nv_mesh* in, int axis, double lo, double hi, nv_mesh* out, nv_error* err) {
    segments at[2] = {{0}}; /* lo, hi */
    int rc = 0;
    for (uint32_t t = 0; t < in->triangle_count && !rc; t++) {
        corner buf[2][POLY_MAX];
        int cur = 0;
        for (int k = 0; k < 3; k++) buf[0][k] = (corner){vertex_of(in, in->indices[3 * (size_t)t + k]), 0};
        uint32_t n = 3;
        for (int p = 0; p < 2 && n >= 3 && !rc; p++) {
            double plane = p ? hi : lo;
            if (!isfinite(plane)) continue;
            n = clip_poly(buf[cur], n, axis, plane, p ? -1.0 : 1.0, buf[!cur]);
            cur = !cur;
            for (uint32_t k = 0; k < n && n >= 3 && !rc; k++)
                if (buf[cur][k].on_plane && buf[cur][(k + 1) % n].on_plane)
                    rc = push_segment(&at[p], buf[cur][k].p, buf[cur][(k + 1) % n].p);
        }
        if (rc) nv_error_fail(err, NV_ENOMEM, "compartments: out of memory");
        for (uint32_t k = 1; k + 1 < n && n >= 3 && !rc; k++)
            rc = add_triangle(out, buf[cur][0].p, buf[cur][k].p, buf[cur][k + 1].p, err);
    }
    for (int p = 0; p < 2 && !rc; p++) {
        double plane = p ? hi : lo;
        if (isfinite(plane)) rc = cap_plane(out, &at[p], axis, plane, err);
    }
    free(at[0].s);
    free(at[1].s);
    return rc;
}

/* The hull's cell between the transverse planes lo[0], hi[0] and the
 * longitudinal ones lo[1], hi[1]: cut and capped across first, then the
 * closed piece cut and capped along (so that each cap's section closes). */
static int build_cell(const nv_mesh* hull, const double lo[2], const double hi[2], nv_mesh* out, nv_error* err) {
    if (!isfinite(lo[1]) && !isfinite(hi[1])) return clip_axis(hull, 0, lo[0], hi[0], out, err);
    nv_mesh slab;
    nv_mesh_init(&slab);
    nv_mesh_options opts = nv_mesh_options_default();
    int rc = clip_axis(hull, 0, lo[0], hi[0], &slab, err) || nv_mesh_finish(&slab, &opts, "compartment", NULL, err) ||
             clip_axis(&slab, 2, lo[1], hi[1], out, err);
    nv_mesh_free(&slab);
    return rc ? -1 : 0;
}

void nv_compartment_set_free(nv_compartment_set* s) {
    if (!s) return;
    for (uint32_t k = 0; k < s->count; k++) nv_mesh_free(&s->meshes[k]);
    s->count = 0;
}

/* Planes along one axis: finite, increasing by the minimum gap, inside
 * the hull's extent [lo, hi] by it too. */
static int check_planes(const double* p, uint32_t n, double lo, double hi, const char* what, nv_error* err) {
    for (uint32_t k = 0; k < n; k++) {
        double x = p[k];
        if (!isfinite(x)) return nv_error_set(err, "compartments: %s %u is not a number", what, k + 1);
        if (x <= lo + COMPARTMENT_MIN_GAP || x >= hi - COMPARTMENT_MIN_GAP)
            return nv_error_set(err, "compartments: %s %u at %g m is outside the hull (from %g to %g m)", what, k + 1, x,
                                lo, hi);
        if (k && x < p[k - 1] + COMPARTMENT_MIN_GAP)
            return nv_error_set(err, "compartments: %ss must increase by at least %g m (%g then %g)", what,
                                COMPARTMENT_MIN_GAP, p[k - 1], x);
    }
    return 0;
}

int nv_compartment_split(const nv_mesh* hull, const double* bulkheads, uint32_t n, const double* longitudinal, uint32_t m,
                         nv_compartment_set* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    if (!hull || (n && !bulkheads) || (m && !longitudinal))
        return nv_error_set(err, "compartments: no hull or no bulkheads");
    if ((uint64_t)(n + 1) * (m + 1) > COMPARTMENT_MAX)
        return nv_error_fail(err, NV_ELIMIT, "compartments: %u x %u of them, at most %d", n + 1, m + 1, COMPARTMENT_MAX);
    float lo[3], hi[3];
    nv_mesh_bounds(hull, lo, hi);
    if (check_planes(bulkheads, n, lo[0], hi[0], "bulkhead", err) ||
        check_planes(longitudinal, m, lo[2], hi[2], "longitudinal bulkhead", err))
        return -1;
    out->nx = n + 1;
    out->nz = m + 1;
    out->x_bounds[0] = lo[0];
    for (uint32_t k = 0; k < n; k++) out->x_bounds[k + 1] = bulkheads[k];
    out->x_bounds[n + 1] = hi[0];
    out->z_bounds[0] = lo[2];
    for (uint32_t k = 0; k < m; k++) out->z_bounds[k + 1] = longitudinal[k];
    out->z_bounds[m + 1] = hi[2];
    nv_mesh_options opts = nv_mesh_options_default();
    for (uint32_t ix = 0; ix <= n; ix++)
        for (uint32_t iz = 0; iz <= m; iz++) {
            uint32_t k = ix * (m + 1) + iz;
            nv_mesh* mk = &out->meshes[k];
            nv_mesh_init(mk);
            out->count = k + 1;
            double a[2] = {ix ? bulkheads[ix - 1] : -INFINITY, iz ? longitudinal[iz - 1] : -INFINITY};
            double b[2] = {ix < n ? bulkheads[ix] : INFINITY, iz < m ? longitudinal[iz] : INFINITY};
            if (build_cell(hull, a, b, mk, err) ||
                (mk->triangle_count && nv_mesh_finish(mk, &opts, "compartment", NULL, err))) {
                nv_error_prefix(err, "compartment %u (x from %g to %g m, z from %g to %g m)", k + 1, out->x_bounds[ix],
                                out->x_bounds[ix + 1], out->z_bounds[iz], out->z_bounds[iz + 1]);
                nv_compartment_set_free(out);
                return -1;
            }
            /* A cell the hull does not reach (a wing at a narrow bow) stays
             * empty: no mesh, no volume, no hole can be made in it. */
            out->volume[k] = mk->triangle_count ? nv_mesh_signed_volume(mk) : 0.0;
        }
    return 0;
}

uint32_t nv_compartment_at(const nv_compartment_set* s, nv_vec3 point) {
    for (uint32_t ix = 0; ix < s->nx; ix++) {
        if (point.x < s->x_bounds[ix] || point.x > s->x_bounds[ix + 1]) continue;
        for (uint32_t iz = 0; iz < s->nz; iz++)
            if (point.z >= s->z_bounds[iz] && point.z <= s->z_bounds[iz + 1]) return ix * s->nz + iz;
    }
    return UINT32_MAX;
}

/* ---- water in a compartment -------------------------------------------------------- */

static nv_vec3 place(const nv_mat3* r, nv_vec3 t, const float* p) {
    double x = p[0], y = p[1], z = p[2];
    return v3(r->m[0][0] * x + r->m[0][1] * y + r->m[0][2] * z + t.x,
              r->m[1][0] * x + r->m[1][1] * y + r->m[1][2] * z + t.y,
              r->m[2][0] * x + r->m[2][1] * y + r->m[2][2] * z + t.z);
}

/* A compartment at one pose: its vertices placed once (a level search
 * evaluates the volume three to six times, each corner of each triangle
 * otherwise placed again), on the stack up to COMPARTMENT_PLACED vertices. */
#define COMPARTMENT_PLACED 1024
typedef struct compartment_pose {
    const nv_mesh* mesh;
    const nv_mat3* rotation;
    nv_vec3 position;
    const nv_vec3* placed; /* NULL: place each corner as it is met */
} compartment_pose;

static void compartment_pose_init(compartment_pose* cp, nv_vec3* room, const nv_mesh* m, const nv_mat3* rotation,
                                  nv_vec3 position) {
    cp->mesh = m, cp->rotation = rotation, cp->position = position, cp->placed = NULL;
    if (!room || m->vertex_count > COMPARTMENT_PLACED) return;
    for (uint32_t i = 0; i < m->vertex_count; i++) room[i] = place(rotation, position, &m->positions[3 * (size_t)i]);
    cp->placed = room;
}

static inline nv_vec3 compartment_corner(const compartment_pose* cp, uint32_t t, int k) {
    uint32_t i = cp->mesh->indices[3 * (size_t)t + k];
    return cp->placed ? cp->placed[i] : place(cp->rotation, cp->position, &cp->mesh->positions[3 * (size_t)i]);
}

static double compartment_volume_below(const compartment_pose* cp, double level, nv_vec3* centroid) {
    /* Tetrahedra from a point on the plane: the cut's cap lies in the
     * plane, so its tetrahedra are flat and it needs no triangulation. */
    const nv_mesh* m = cp->mesh;
    nv_vec3 apex = v3(cp->position.x, level, cp->position.z);
    double v6 = 0.0;
    nv_vec3 c = v3(0.0, 0.0, 0.0);
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        nv_vec3 p[3], q[5];
        double d[3];
        for (int k = 0; k < 3; k++) {
            p[k] = compartment_corner(cp, t, k);
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
            nv_vec3 a = v3_sub(q[0], apex), b = v3_sub(q[k], apex), e = v3_sub(q[k + 1], apex);
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

static double compartment_level_for(const compartment_pose* cp, double volume, nv_vec3* centroid) {
    const nv_mesh* m = cp->mesh;
    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        double y = cp->placed ? cp->placed[i].y : place(cp->rotation, cp->position, &m->positions[3 * (size_t)i]).y;
        lo = y < lo ? y : lo;
        hi = y > hi ? y : hi;
    }
    if (!(volume > 0.0) || m->vertex_count == 0) {
        if (centroid) compartment_volume_below(cp, lo, centroid);
        return lo;
    }
    /* The volume below grows with the level: bisect to a tenth of a
     * micrometre (about 40 halvings of a hull's depth). */
    for (int i = 0; i < 64 && hi - lo > 1e-7; i++) {
        double mid = 0.5 * (lo + hi);
        if (compartment_volume_below(cp, mid, NULL) < volume) lo = mid;
        else hi = mid;
    }
    double level = 0.5 * (lo + hi);
    if (centroid) compartment_volume_below(cp, level, centroid);
    return level;
}

double nv_compartment_volume_below(const nv_mesh* m, const nv_mat3* rotation, nv_vec3 position, double level, nv_vec3* centroid) {
    compartment_pose cp;
    compartment_pose_init(&cp, NULL, m, rotation, position); /* one evaluation: no room, each corner placed as met */
    return compartment_volume_below(&cp, level, centroid);
}

double nv_compartment_level_for(const nv_mesh* m, const nv_mat3* rotation, nv_vec3 position, double volume, nv_vec3* centroid) {
    nv_vec3 room[COMPARTMENT_PLACED];
    compartment_pose cp;
    compartment_pose_init(&cp, room, m, rotation, position);
    return compartment_level_for(&cp, volume, centroid);
}

double nv_compartment_level_near(const nv_mesh* m, const nv_mat3* rotation, nv_vec3 position, double volume, double hint,
                                 nv_vec3* centroid) {
    const double tol = 1e-7;
    nv_vec3 room[COMPARTMENT_PLACED];
    compartment_pose cp;
    compartment_pose_init(&cp, room, m, rotation, position);
    if (!(volume > 0.0) || !isfinite(hint)) return compartment_level_for(&cp, volume, centroid);
    double h0 = hint, v0 = compartment_volume_below(&cp, h0, centroid);
    if (fabs(v0 - volume) <= 1e-9 * (volume + 1.0)) return h0;
    /* A first step of 1 cm shows the slope (the free surface's area). */
    double h1 = h0 + (v0 < volume ? 0.01 : -0.01), v1 = compartment_volume_below(&cp, h1, centroid);
    for (int i = 0; i < 12; i++) {
        double slope = (v1 - v0) / (h1 - h0);
        if (!(slope > 0.0) || !isfinite(slope)) break;
        double h2 = h1 + (volume - v1) / slope;
        if (fabs(h2 - h1) > 10.0) break; /* a wild step: bisect */
        double v2 = compartment_volume_below(&cp, h2, centroid);
        if (fabs(h2 - h1) <= tol) return h2;
        h0 = h1, v0 = v1, h1 = h2, v1 = v2;
    }
    return compartment_level_for(&cp, volume, centroid);
}

double nv_compartment_orifice_flow(double cd, double area, double gravity, double dh) {
    double q = cd * area * sqrt(2.0 * gravity * fabs(dh));
    return dh < 0.0 ? -q : q;
}
