// SPDX-License-Identifier: MIT
#include "shape.h"

#include <ccd/ccd.h>
#include <libqhull_r/qhull_ra.h>
#include <stdlib.h>
#include <string.h>

int shape_build(shape* s, const nv_hull* h, nv_error* err) {
    return shape_build_points(s, h->vx, h->vy, h->vz, 1, h->vertex_count, err);
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
    if (rc == 0) {
        s->count = (uint32_t)qh->num_vertices;
        s->points = malloc((size_t)s->count * 3 * sizeof *s->points);
        if (s->points) {
            uint32_t kept = 0;
            vertexT* vertex;
            /* in input order: the shape does not depend on qhull's own */
            uint8_t* on_hull = calloc(vertex_count, 1);
            if (on_hull) {
                FORALLvertices on_hull[qh_pointid(qh, vertex->point)] = 1;
                for (uint32_t k = 0; k < vertex_count; k++)
                    if (on_hull[k]) {
                        double* p = &s->points[3 * kept++];
                        p[0] = pts[3 * k], p[1] = pts[3 * k + 1], p[2] = pts[3 * k + 2];
                        s->radius = fmax(s->radius, sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
                    }
                free(on_hull);
                s->count = kept;
                s->plane_count = (uint32_t)qh->num_facets;
                s->planes = malloc((size_t)s->plane_count * 4 * sizeof *s->planes);
                if (s->planes) {
                    uint32_t f = 0;
                    facetT* facet;
                    FORALLfacets {
                        if (f == s->plane_count) break;
                        double* q = &s->planes[4 * f++];
                        q[0] = facet->normal[0], q[1] = facet->normal[1], q[2] = facet->normal[2];
                        q[3] = facet->offset;
                    }
                    s->plane_count = f;
                } else {
                    free(s->points);
                    s->points = NULL;
                }
            } else {
                free(s->points);
                s->points = NULL;
            }
        }
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
    free(s->points);
    free(s->planes);
    memset(s, 0, sizeof *s);
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
    uint32_t best = 0;
    double best_dot = -INFINITY;
    for (uint32_t k = 0; k < p->shape->count; k++) {
        double dot = pts[3 * k] * b.x + pts[3 * k + 1] * b.y + pts[3 * k + 2] * b.z;
        if (dot > best_dot) best_dot = dot, best = k;
    }
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

int shape_penetration(const shape_pose* a, const shape_pose* b, double* depth, nv_vec3* normal, nv_vec3* point) {
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
    if (ccdMPRPenetration(a, b, &ccd, &d, &dir, &pos) != 0) return -1;
    nv_vec3 n = v3(dir.v[0], dir.v[1], dir.v[2]);
    double len = v3_length(n);
    if (!(len > 0.0) || !isfinite(d)) return -1;
    *depth = d;
    *normal = v3_scale(n, 1.0 / len);
    *point = v3(pos.v[0], pos.v[1], pos.v[2]);
    return 0;
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
