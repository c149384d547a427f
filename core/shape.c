// SPDX-License-Identifier: MIT
#include "shape.h"

#include "contact.h"

#include <ccd/ccd.h>
#include <emmintrin.h>
#include <libqhull_r/qhull_ra.h>
#include <stdlib.h>
#include <string.h>

int shape_build(shape* s, const nv_hull* h, nv_error* err) {
    return shape_build_points(s, h->vx, h->vy, h->vz, 1, h->vertex_count, err);
}

/* The hull qhull built into s: its corners in input order (the shape does
 * not depend on qhull's own), each facet's plane and its triangle
 * (counter-clockwise seen from outside; "Qt" makes every facet one). -1
 * when out of memory. */
static int shape_take_hull(shape* s, qhT* qh, const coordT* pts, uint32_t vertex_count) {
    uint32_t* index_of = malloc((size_t)vertex_count * sizeof *index_of);
    s->points = malloc((size_t)qh->num_vertices * 3 * sizeof *s->points);
    s->planes = malloc((size_t)qh->num_facets * 4 * sizeof *s->planes);
    s->triangles = malloc((size_t)qh->num_facets * 3 * sizeof *s->triangles);
    if (!index_of || !s->points || !s->planes || !s->triangles) {
        free(index_of);
        return -1;
    }
    for (uint32_t k = 0; k < vertex_count; k++) index_of[k] = UINT32_MAX;
    vertexT* vertex;
    FORALLvertices index_of[qh_pointid(qh, vertex->point)] = 0;
    uint32_t kept = 0;
    for (uint32_t k = 0; k < vertex_count; k++) {
        if (index_of[k] == UINT32_MAX) continue;
        index_of[k] = kept;
        double* p = &s->points[3 * kept++];
        p[0] = pts[3 * k], p[1] = pts[3 * k + 1], p[2] = pts[3 * k + 2];
        s->radius = fmax(s->radius, sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
    }
    s->count = kept;
    s->soa_stride = (kept + 3u) & ~3u;
    if (!kept || !(s->soa = malloc((size_t)s->soa_stride * 3 * sizeof *s->soa))) {
        free(index_of);
        return -1;
    }
    for (uint32_t k = 0; k < s->soa_stride; k++)
        for (int c = 0; c < 3; c++) s->soa[(size_t)c * s->soa_stride + k] = s->points[3 * (k < kept ? k : kept - 1) + c];
    uint32_t f = 0, t = 0;
    facetT* facet;
    FORALLfacets {
        if (f == (uint32_t)qh->num_facets) break;
        double* q = &s->planes[4 * f++];
        q[0] = facet->normal[0], q[1] = facet->normal[1], q[2] = facet->normal[2];
        q[3] = facet->offset;
        if (qh_setsize(qh, facet->vertices) != 3) continue;
        uint32_t* tri = &s->triangles[3 * t];
        for (int c = 0; c < 3; c++)
            tri[c] = index_of[qh_pointid(qh, ((vertexT*)facet->vertices->e[c].p)->point)];
        const double *a = &s->points[3 * tri[0]], *b = &s->points[3 * tri[1]], *c = &s->points[3 * tri[2]];
        nv_vec3 n = v3_cross(v3(b[0] - a[0], b[1] - a[1], b[2] - a[2]), v3(c[0] - a[0], c[1] - a[1], c[2] - a[2]));
        if (v3_dot(n, v3(q[0], q[1], q[2])) < 0.0) {
            uint32_t swap = tri[1];
            tri[1] = tri[2], tri[2] = swap;
        }
        t++;
    }
    s->plane_count = f;
    s->triangle_count = t;
    free(index_of);
    return 0;
}

int shape_build_points(shape* s, const float* x, const float* y, const float* z, uint32_t stride, uint32_t n,
                       nv_error* err) {
    memset(s, 0, sizeof *s);
    if (n < 4) return nv_error_set(err, "shape: %u vertices cannot enclose a volume", n);
    coordT* pts = malloc((size_t)n * 3 * sizeof *pts);
    if (!pts) return nv_error_fail(err, NV_ENOMEM, "shape: out of memory");
    for (uint32_t k = 0; k < n; k++) {
        pts[3 * k] = x[(size_t)k * stride];
        pts[3 * k + 1] = y[(size_t)k * stride];
        pts[3 * k + 2] = z[(size_t)k * stride];
    }
    const uint32_t vertex_count = n;
    qhT qh_storage;
    qhT* qh = &qh_storage;
    qh_zero(qh, NULL);
    char flags[] = "qhull Qt";
    /* qhull reports to a stream: an in-memory one, whose text becomes the
     * error message */
    char* text = NULL;
    size_t text_size = 0;
    FILE* errors = open_memstream(&text, &text_size);
    int rc = errors ? qh_new_qhull(qh, 3, (int)vertex_count, pts, False, flags, NULL, errors) : -1;
    if (rc == 0 && shape_take_hull(s, qh, pts, vertex_count)) {
        free(s->points), free(s->planes), free(s->triangles);
        s->points = NULL, s->planes = NULL, s->triangles = NULL;
    }
    qh_freeqhull(qh, !qh_ALL);
    int curlong, totlong;
    qh_memfreeshort(qh, &curlong, &totlong);
    if (errors) fclose(errors);
    free(pts);
    if (rc != 0) {
        nv_error_set(err, "shape: qhull could not build the convex hull: %.200s", text ? text : "no stream");
        free(text);
        return -1;
    }
    free(text);
    if (!s->points) return nv_error_fail(err, NV_ENOMEM, "shape: out of memory");
    return 0;
}

void shape_free(shape* s) {
    free(s->soa);
    free(s->points);
    free(s->planes);
    free(s->triangles);
    memset(s, 0, sizeof *s);
}

/* Corners k and k + 1's distances along body direction b: x b.x + y b.y
 * + z b.z in that order, as the scalar form (no contraction:
 * -ffp-contract=off), so each is the same bits as one corner at a time. */
static inline __m128d shape_dots(const shape* s, uint32_t k, __m128d bx, __m128d by, __m128d bz) {
    const double *xs = s->soa, *ys = xs + s->soa_stride, *zs = ys + s->soa_stride;
    return _mm_add_pd(_mm_add_pd(_mm_mul_pd(_mm_loadu_pd(xs + k), bx), _mm_mul_pd(_mm_loadu_pd(ys + k), by)),
                      _mm_mul_pd(_mm_loadu_pd(zs + k), bz));
}

/* The first corner farthest along body direction b (a NaN distance never
 * wins; all NaN: corner 0), as the scalar search over the corners in order
 * finds it: each lane keeps its own first strict maximum, and the lanes
 * are joined by value, then by the lower index. */
static uint32_t shape_farthest_corner(const shape* s, nv_vec3 b) {
    const __m128d bx = _mm_set1_pd(b.x), by = _mm_set1_pd(b.y), bz = _mm_set1_pd(b.z);
    __m128d v0 = _mm_set1_pd(-INFINITY), v1 = v0, i0 = _mm_setzero_pd(), i1 = i0;
    __m128d k0 = _mm_set_pd(1.0, 0.0), k1 = _mm_set_pd(3.0, 2.0);
    const __m128d four = _mm_set1_pd(4.0);
    for (uint32_t k = 0; k < s->soa_stride; k += 4) {
        __m128d d0 = shape_dots(s, k, bx, by, bz), d1 = shape_dots(s, k + 2, bx, by, bz);
        __m128d g0 = _mm_cmpgt_pd(d0, v0), g1 = _mm_cmpgt_pd(d1, v1);
        v0 = _mm_or_pd(_mm_and_pd(g0, d0), _mm_andnot_pd(g0, v0));
        v1 = _mm_or_pd(_mm_and_pd(g1, d1), _mm_andnot_pd(g1, v1));
        i0 = _mm_or_pd(_mm_and_pd(g0, k0), _mm_andnot_pd(g0, i0));
        i1 = _mm_or_pd(_mm_and_pd(g1, k1), _mm_andnot_pd(g1, i1));
        k0 = _mm_add_pd(k0, four);
        k1 = _mm_add_pd(k1, four);
    }
    double v[4], i[4];
    _mm_storeu_pd(v, v0);
    _mm_storeu_pd(v + 2, v1);
    _mm_storeu_pd(i, i0);
    _mm_storeu_pd(i + 2, i1);
    double bv = -INFINITY, bi = 0.0;
    for (int l = 0; l < 4; l++)
        if (v[l] > bv || (v[l] == bv && i[l] < bi)) bv = v[l], bi = i[l];
    uint32_t best = (uint32_t)bi;
    /* the padding repeats the last corner */
    return best < s->count ? best : s->count - 1;
}

/* The farthest point of the swept shape along a world direction. */
static void shape_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
    const shape_pose* p = obj;
    const nv_mat3* r = &p->rotation;
    nv_vec3 d = v3(dir->v[0], dir->v[1], dir->v[2]);
    /* the direction in the body frame: R^T d */
    nv_vec3 b = v3(r->m[0][0] * d.x + r->m[1][0] * d.y + r->m[2][0] * d.z,
                r->m[0][1] * d.x + r->m[1][1] * d.y + r->m[2][1] * d.z,
                r->m[0][2] * d.x + r->m[1][2] * d.y + r->m[2][2] * d.z);
    const double* pts = p->shape->points;
    uint32_t best = shape_farthest_corner(p->shape, b);
    nv_vec3 c = m3_mul_v3(r, v3(pts[3 * best], pts[3 * best + 1], pts[3 * best + 2]));
    double len = v3_length(d);
    nv_vec3 w = v3_add(p->position, c);
    if (len > 0.0) w = v3_madd(w, d, p->margin / len);
    out->v[0] = w.x, out->v[1] = w.y, out->v[2] = w.z;
}

static void shape_center(const void* obj, ccd_vec3_t* out) {
    const shape_pose* p = obj;
    out->v[0] = p->position.x, out->v[1] = p->position.y, out->v[2] = p->position.z;
}

#define SHAPE_SAT_FROM 0.02     /* m of overlap past the sweeps from which the whole sphere is searched */
#define SHAPE_SPHERE_SAMPLES 128 /* directions swept then (about 18 degrees apart) */
#define SHAPE_SPHERE_KEEP 3      /* of them refined, the least overlaps */
#define SHAPE_REFINE_FIRST 0.1  /* rad */
#define SHAPE_REFINE_LAST 0.01  /* rad: the faces near finish it */
#define SHAPE_SNAP_COS 0.98     /* the faces within 11 degrees of the refined normal */
#define SHAPE_REFINE_MOVES 8    /* per step size */

/* One of libccd's answers as (depth, unit normal, point); -1 when it
 * found no overlap or no direction. */
static int shape_ccd_answer(int rc, ccd_real_t d, const ccd_vec3_t* dir, const ccd_vec3_t* pos, double* depth,
                            nv_vec3* normal, nv_vec3* point) {
    nv_vec3 n = v3(dir->v[0], dir->v[1], dir->v[2]);
    double len = v3_length(n);
    if (rc != 0 || !(len > 0.0) || !isfinite(d)) return -1;
    *depth = d;
    *normal = v3_scale(n, 1.0 / len);
    *point = v3(pos->v[0], pos->v[1], pos->v[2]);
    return 0;
}

/* The farthest reach of the swept shape along a unit world direction. */
static double shape_reach_along(const shape_pose* p, nv_vec3 d) {
    const nv_mat3* r = &p->rotation;
    nv_vec3 b = v3(r->m[0][0] * d.x + r->m[1][0] * d.y + r->m[2][0] * d.z,
                   r->m[0][1] * d.x + r->m[1][1] * d.y + r->m[2][1] * d.z,
                   r->m[0][2] * d.x + r->m[1][2] * d.y + r->m[2][2] * d.z);
    /* the max of shape_dots exact in any order: the same bits as one
     * corner at a time. _mm_max_pd keeps its second operand when the first
     * is NaN, as "dot > best" does. */
    const shape* s = p->shape;
    const __m128d bx = _mm_set1_pd(b.x), by = _mm_set1_pd(b.y), bz = _mm_set1_pd(b.z);
    __m128d m0 = _mm_set1_pd(-INFINITY), m1 = m0;
    for (uint32_t k = 0; k < s->soa_stride; k += 4) {
        m0 = _mm_max_pd(shape_dots(s, k, bx, by, bz), m0);
        m1 = _mm_max_pd(shape_dots(s, k + 2, bx, by, bz), m1);
    }
    m0 = _mm_max_pd(m0, m1);
    double best = _mm_cvtsd_f64(_mm_max_sd(m0, _mm_unpackhi_pd(m0, m0)));
    return best + v3_dot(p->position, d) + p->margin;
}

/* How far the placed shapes overlap along the unit direction n (a to b),
 * their sweeps counted: the depth that moving b along n must undo. */
double shape_overlap_along(const shape_pose* a, const shape_pose* b, nv_vec3 n) {
    return shape_reach_along(a, n) + shape_reach_along(b, v3_scale(n, -1.0));
}

/* The unit direction near n (within about SHAPE_REFINE_FIRST radians) along
 * which the shapes overlap least, by a pattern search on the sphere: the
 * steps halve from SHAPE_REFINE_FIRST to SHAPE_REFINE_LAST radians. */
static double shape_refine_normal(const shape_pose* a, const shape_pose* b, nv_vec3* n) {
    double best = shape_overlap_along(a, b, *n);
    for (double step = SHAPE_REFINE_FIRST; step >= SHAPE_REFINE_LAST; step *= 0.5) {
        for (int moves = 0; moves < SHAPE_REFINE_MOVES; moves++) {
            nv_vec3 t[2];
            contact_tangents(*n, t);
            nv_vec3 pick = *n;
            double pick_o = best;
            /* the diagonals too: along a ridge of the overlap (an edge
             * across an edge) the axes alone find no way down */
            static const double dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {0.7071067811865476, 0.7071067811865476},
                                              {-0.7071067811865476, -0.7071067811865476},
                                              {0.7071067811865476, -0.7071067811865476},
                                              {-0.7071067811865476, 0.7071067811865476}};
            for (int k = 0; k < 8; k++) {
                nv_vec3 d = v3_add(v3_scale(t[0], dirs[k][0] * step), v3_scale(t[1], dirs[k][1] * step));
                nv_vec3 m = v3_normalize(v3_add(*n, d));
                double o = shape_overlap_along(a, b, m);
                if (o < pick_o) pick_o = o, pick = m;
            }
            if (!(pick_o < best)) break;
            best = pick_o, *n = pick;
        }
    }
    return best;
}

/* The face normals of either shape within the cone cos_limit of *n (all
 * of them for -1) tried as the normal; *n and *best become the least
 * overlap's. A face normal is exact where the refinement's step is not
 * (0.002 rad along a 60 m side is 12 cm). */
static void shape_snap_to_faces(const shape_pose* a, const shape_pose* b, double cos_limit, nv_vec3* n, double* best) {
    const nv_vec3 start = *n;
    for (int side = 0; side < 2; side++) {
        const shape_pose *owner = side ? b : a, *other = side ? a : b;
        const double sign = side ? -1.0 : 1.0;
        const double* q = owner->shape->planes;
        for (uint32_t f = 0; f < owner->shape->plane_count; f++, q += 4) {
            nv_vec3 axis = m3_mul_v3(&owner->rotation, v3(q[0], q[1], q[2]));
            if (sign * v3_dot(axis, start) < cos_limit) continue;
            double o = -q[3] + v3_dot(owner->position, axis) + owner->margin +
                       shape_reach_along(other, v3_scale(axis, -1.0));
            if (o < *best) *best = o, *n = v3_scale(axis, sign);
        }
    }
}

int shape_penetration(const shape_pose* a, const shape_pose* b, double* depth, nv_vec3* normal, nv_vec3* point) {
    return shape_penetration_from(a, b, NULL, depth, normal, point);
}

int shape_penetration_from(const shape_pose* a, const shape_pose* b, const nv_vec3* hint, double* depth,
                           nv_vec3* normal, nv_vec3* point) {
    ccd_t ccd;
    CCD_INIT(&ccd);
    ccd.support1 = shape_support;
    ccd.support2 = shape_support;
    ccd.center1 = shape_center;
    ccd.center2 = shape_center;
    ccd.max_iterations = 100;
    ccd.mpr_tolerance = 1e-6;
    ccd_real_t d;
    ccd_vec3_t dir, pos;
    /* MPR tells exactly whether the swept shapes overlap, but its normal
     * is the one its portal found from the centres' line, not the least
     * overlap's (1.8 m deep for a heeled skiff 2 cm into a patrol boat's
     * side). The least overlap of two convex polytopes lies along a face
     * normal of either or across an edge of each; the face normals are
     * all tried (each face's own reach is its plane's offset) and the
     * best, with MPR's, is refined on the sphere, which finds the edge
     * case near the faces that meet there. (GJK+EPA, libccd's other
     * answer, allocates its polytope on every call and stops short of the
     * least overlap by up to 5 cm.) */
    double dd;
    nv_vec3 n;
    int rc = ccdMPRPenetration(a, b, &ccd, &d, &dir, &pos);
    if (shape_ccd_answer(rc, d, &dir, &pos, &dd, &n, point)) return -1;
    const double sweep = a->margin + b->margin;
    double best = shape_overlap_along(a, b, n);
    /* Only the sweeps meet along MPR's normal: the cores are apart there,
     * so no normal finds them deeper, and a gap closing this step is
     * held along MPR's. */
    if (best > sweep) {
        best = shape_refine_normal(a, b, &n);
        shape_snap_to_faces(a, b, SHAPE_SNAP_COS, &n, &best);
    }
    /* Refined, MPR's answer bounds the least overlap from above: where it
     * leaves the hulls within SHAPE_SAT_FROM of touching, no other normal
     * could matter more (the solve leaves 2 cm anyway). */
    if (best > sweep + SHAPE_SAT_FROM && hint && v3_is_finite(*hint)) {
        /* last step's normal refined, and the best face normal of either
         * shape refined (the least overlap jumps to another face as a hull
         * slides past a corner), against MPR's: the sphere's sweep is for
         * a pair's first step */
        nv_vec3 start[2] = {v3_normalize(*hint), n};
        double start_o[2] = {INFINITY, best};
        shape_snap_to_faces(a, b, -1.0, &start[1], &start_o[1]);
        /* MPR's own normal is refined already: a face start only if one beat it */
        int starts = start_o[1] < best ? 2 : 1;
        for (int k = 0; k < starts; k++) {
            nv_vec3 m = start[k];
            double least = shape_refine_normal(a, b, &m);
            shape_snap_to_faces(a, b, SHAPE_SNAP_COS, &m, &least);
            if (least < best) best = least, n = m;
        }
    } else if (best > sweep + SHAPE_SAT_FROM) {
        /* Starts for the search, besides MPR's: the best face normal of
         * either shape, and the best few of a sweep of the sphere (an edge
         * across an edge has its least overlap away from every face
         * normal: a skiff under a patrol boat's overhang, 6 mm deep
         * upward, read 21 cm deep sideways). */
        nv_vec3 start[1 + SHAPE_SPHERE_KEEP];
        double start_o[1 + SHAPE_SPHERE_KEEP];
        start[0] = n, start_o[0] = best;
        shape_snap_to_faces(a, b, -1.0, &start[0], &start_o[0]);
        for (int k = 1; k <= SHAPE_SPHERE_KEEP; k++) start_o[k] = INFINITY, start[k] = n;
        for (int i = 0; i < SHAPE_SPHERE_SAMPLES; i++) {
            double y = 1.0 - 2.0 * (i + 0.5) / SHAPE_SPHERE_SAMPLES, r = sqrt(fmax(0.0, 1.0 - y * y));
            double phi = i * 2.399963229728653; /* the golden angle: a Fibonacci sphere */
            nv_vec3 dir_i = v3(r * cos(phi), y, r * sin(phi));
            double o = shape_overlap_along(a, b, dir_i);
            for (int k = 1; k <= SHAPE_SPHERE_KEEP; k++)
                if (o < start_o[k]) { /* insert, keeping the list sorted */
                    for (int j = SHAPE_SPHERE_KEEP; j > k; j--) start_o[j] = start_o[j - 1], start[j] = start[j - 1];
                    start_o[k] = o, start[k] = dir_i;
                    break;
                }
        }
        for (int k = 0; k <= SHAPE_SPHERE_KEEP; k++) {
            if (!isfinite(start_o[k])) continue;
            nv_vec3 m = start[k];
            double least = shape_refine_normal(a, b, &m);
            shape_snap_to_faces(a, b, SHAPE_SNAP_COS, &m, &least);
            if (least < best) best = least, n = m;
        }
    }
    if (!(best > 0.0) || !isfinite(best)) return -1;
    *depth = best;
    *normal = n;
    return 0;
}

/* The direction at `angle` in the plane of the unit vectors u and v. */
static nv_vec3 shape_in_plane(nv_vec3 u, nv_vec3 v, double angle) {
    double c = cos(angle), s = sin(angle);
    return v3(u.x * c + v.x * s, u.y * c + v.y * s, u.z * c + v.z * s);
}

#define SHAPE_PLANE_SAMPLES 32
#define SHAPE_PLANE_REFINE 16 /* golden-section steps: the bracket to 0.0002 of a sample's width */

double shape_overlap_in_plane(const shape_pose* a, const shape_pose* b, nv_vec3 u, nv_vec3 v, nv_vec3* normal) {
    const double step = 2.0 * NV_PI / SHAPE_PLANE_SAMPLES;
    double best = INFINITY, at = 0.0;
    for (int k = 0; k < SHAPE_PLANE_SAMPLES; k++) {
        double o = shape_overlap_along(a, b, shape_in_plane(u, v, k * step));
        if (o < best) best = o, at = k * step;
    }
    const double golden = 0.6180339887498949;
    double lo = at - step, hi = at + step;
    double x1 = hi - golden * (hi - lo), x2 = lo + golden * (hi - lo);
    double f1 = shape_overlap_along(a, b, shape_in_plane(u, v, x1)), f2 = shape_overlap_along(a, b, shape_in_plane(u, v, x2));
    for (int k = 0; k < SHAPE_PLANE_REFINE; k++) {
        if (f1 < f2)
            hi = x2, x2 = x1, f2 = f1, x1 = hi - golden * (hi - lo), f1 = shape_overlap_along(a, b, shape_in_plane(u, v, x1));
        else
            lo = x1, x1 = x2, f1 = f2, x2 = lo + golden * (hi - lo), f2 = shape_overlap_along(a, b, shape_in_plane(u, v, x2));
    }
    if (f1 < best) best = f1, at = x1;
    if (f2 < best) best = f2, at = x2;
    *normal = shape_in_plane(u, v, at);
    return best;
}

double shape_overlap_horizontal(const shape_pose* a, const shape_pose* b, nv_vec3* normal) {
    return shape_overlap_in_plane(a, b, v3(1, 0, 0), v3(0, 0, 1), normal);
}

double shape_outside(const shape_pose* p, nv_vec3 point) {
    const nv_mat3* r = &p->rotation;
    nv_vec3 d = v3_sub(point, p->position);
    nv_vec3 b = v3(r->m[0][0] * d.x + r->m[1][0] * d.y + r->m[2][0] * d.z,
                r->m[0][1] * d.x + r->m[1][1] * d.y + r->m[2][1] * d.z,
                r->m[0][2] * d.x + r->m[1][2] * d.y + r->m[2][2] * d.z);
    double worst = -INFINITY;
    for (uint32_t f = 0; f < p->shape->plane_count; f++) {
        const double* q = &p->shape->planes[4 * f];
        double dist = q[0] * b.x + q[1] * b.y + q[2] * b.z + q[3];
        if (dist > worst) worst = dist;
    }
    return worst;
}
