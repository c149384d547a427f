// SPDX-License-Identifier: MIT
#include "naval/particulars.h"

#include <math.h>
#include <string.h>

#include "naval/vecmath.h"

/* A convex polygon of a triangle clipped by at most two planes. */
#define PART_POLY_MAX 8

typedef struct part_poly {
    double p[PART_POLY_MAX][3];
    int n;
} part_poly;

/* Keeps the part with p[axis] <= value (Sutherland-Hodgman on one plane). */
static void part_clip(part_poly* poly, int axis, double value) {
    part_poly out;
    out.n = 0;
    for (int i = 0; i < poly->n; i++) {
        const double* a = poly->p[i];
        const double* b = poly->p[(i + 1) % poly->n];
        double da = a[axis] - value, db = b[axis] - value;
        if (da <= 0.0) memcpy(out.p[out.n++], a, sizeof out.p[0]);
        if ((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0)) {
            double t = da / (da - db);
            double* q = out.p[out.n++];
            for (int k = 0; k < 3; k++) q[k] = a[k] + t * (b[k] - a[k]);
            q[axis] = value; /* exactly on the plane: the waterline's extent reads it */
        }
    }
    *poly = out;
}

/* Sums over the submerged surface: with the cap's contributions written as
 * minus the surface's projections (a closed region's flux of any field
 * with no divergence is zero), every waterplane and section figure comes
 * from the wet triangles alone. */
typedef struct part_sums {
    double volume;         /* integral (y - yw) n_y dA */
    double moment_y;       /* integral (y - yw)^2 / 2 n_y dA = integral (y - yw) dV */
    double wetted;         /* area */
    double wp_area;        /* -integral n_y dA */
    double wp_x, wp_z;     /* -integral x n_y dA, -integral z n_y dA */
    double wp_xx, wp_zz;   /* second moments */
    double x_min, x_max, z_min, z_max; /* the waterline's extent */
    int has_waterline;
} part_sums;

/* Integral over a triangle of a linear function's square: A / 6 (sum a_i^2 + sum_{i<j} a_i a_j). */
static double part_square(double a, double b, double c, double area) {
    return area / 6.0 * (a * a + b * b + c * c + a * b + a * c + b * c);
}

static void part_add_triangle(part_sums* s, const double* a, const double* b, const double* c, double yw) {
    double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0.0)) return;
    double area = 0.5 * len, ny = n[1] / len;
    double ya = a[1] - yw, yb = b[1] - yw, yc = c[1] - yw;
    s->wetted += area;
    s->volume += area * ny * (ya + yb + yc) / 3.0;
    s->moment_y += 0.5 * ny * part_square(ya, yb, yc, area);
    s->wp_area -= area * ny;
    s->wp_x -= area * ny * (a[0] + b[0] + c[0]) / 3.0;
    s->wp_z -= area * ny * (a[2] + b[2] + c[2]) / 3.0;
    s->wp_xx -= ny * part_square(a[0], b[0], c[0], area);
    s->wp_zz -= ny * part_square(a[2], b[2], c[2], area);
}

static void part_load(const nv_hull* h, uint32_t t, part_poly* poly) {
    poly->n = 3;
    for (int k = 0; k < 3; k++) {
        uint32_t v = h->triangles[3 * t + (uint32_t)k];
        poly->p[k][0] = h->vx[v], poly->p[k][1] = h->vy[v], poly->p[k][2] = h->vz[v];
    }
}

static void part_sum(const nv_hull* h, double yw, part_sums* s) {
    memset(s, 0, sizeof *s);
    s->x_min = s->z_min = INFINITY;
    s->x_max = s->z_max = -INFINITY;
    for (uint32_t t = 0; t < h->triangle_count; t++) {
        part_poly poly;
        part_load(h, t, &poly);
        part_clip(&poly, 1, yw);
        if (poly.n < 3) continue;
        for (int i = 0; i < poly.n; i++)
            if (poly.p[i][1] == yw) {
                s->has_waterline = 1;
                s->x_min = fmin(s->x_min, poly.p[i][0]), s->x_max = fmax(s->x_max, poly.p[i][0]);
                s->z_min = fmin(s->z_min, poly.p[i][2]), s->z_max = fmax(s->z_max, poly.p[i][2]);
            }
        for (int i = 1; i + 1 < poly.n; i++) part_add_triangle(s, poly.p[0], poly.p[i], poly.p[i + 1], yw);
    }
}

/* Integral over a triangle of a linear function's fourth power:
 * A / 15 times the sum of every monomial a^i b^j c^k with i + j + k = 4. */
static double part_fourth(double a, double b, double c, double area) {
    double cp[5] = {1.0, c, c * c, c * c * c, c * c * c * c};
    double sum = 0.0, ai = 1.0;
    for (int i = 0; i <= 4; i++, ai *= a) {
        double bj = 1.0;
        for (int j = 0; j <= 4 - i; j++, bj *= b) sum += ai * bj * cp[4 - i - j];
    }
    return area / 15.0 * sum;
}

/* The waterplane's second and fourth moments about (xf, zf), along x and
 * across z, from the wet triangles (the same flux argument as part_sums). */
static void part_waterplane_moments(const nv_hull* h, double yw, double xf, double zf, double m[4]) {
    m[0] = m[1] = m[2] = m[3] = 0.0;
    for (uint32_t t = 0; t < h->triangle_count; t++) {
        part_poly poly;
        part_load(h, t, &poly);
        part_clip(&poly, 1, yw);
        for (int i = 1; i + 1 < poly.n; i++) {
            const double *a = poly.p[0], *b = poly.p[i], *c = poly.p[i + 1];
            double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
            double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            /* the triangle's area projected on the waterplane, as -A n_y */
            double proj = -0.5 * (e1[2] * e2[0] - e1[0] * e2[2]);
            if (proj == 0.0) continue;
            double xa = a[0] - xf, xb = b[0] - xf, xc = c[0] - xf;
            double za = a[2] - zf, zb = b[2] - zf, zc = c[2] - zf;
            m[0] += part_square(xa, xb, xc, proj);
            m[1] += part_fourth(xa, xb, xc, proj);
            m[2] += part_square(za, zb, zc, proj);
            m[3] += part_fourth(za, zb, zc, proj);
        }
    }
}

/* The submerged section's area at x = xm: the cap at x = xm of the region
 * below both planes, again minus the surface's projection on x. */
static double part_section_area(const nv_hull* h, double yw, double xm) {
    double area = 0.0;
    for (uint32_t t = 0; t < h->triangle_count; t++) {
        part_poly poly;
        part_load(h, t, &poly);
        part_clip(&poly, 1, yw);
        if (poly.n >= 3) part_clip(&poly, 0, xm);
        for (int i = 1; i + 1 < poly.n; i++) {
            const double *a = poly.p[0], *b = poly.p[i], *c = poly.p[i + 1];
            double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
            double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            area -= 0.5 * (e1[1] * e2[2] - e1[2] * e2[1]);
        }
    }
    return area;
}

int nv_particulars_compute(const nv_hull* h, double water_density, double gravity, double added_roll, nv_particulars* out,
                           nv_error* err) {
    memset(out, 0, sizeof *out);
    if (!(water_density > 0.0) || !(gravity > 0.0) || !(added_roll >= 0.0))
        return nv_error_set(err, "particulars: water density and gravity must be positive, added inertia >= 0");
    if (!h->triangle_count || !(h->body.mass > 0.0)) return nv_error_set(err, "particulars: the hull has no triangles or mass");
    double need = h->body.mass / water_density;
    double lo = h->bounds_min[1], hi = h->bounds_max[1];
    part_sums s;
    part_sum(h, hi, &s);
    if (!(s.volume >= need))
        return nv_error_set(err, "particulars: the hull sinks (%.6g kg needs %.6g m^3, it holds %.6g)", h->body.mass, need,
                            s.volume);
    /* The volume below a plane grows monotonically with its height. */
    for (int i = 0; i < 80 && hi - lo > 1e-9 * (1.0 + fabs(hi) + fabs(lo)); i++) {
        double mid = 0.5 * (lo + hi);
        part_sum(h, mid, &s);
        if (s.volume < need) lo = mid;
        else hi = mid;
    }
    double yw = 0.5 * (lo + hi);
    part_sum(h, yw, &s);
    if (!s.has_waterline || !(s.volume > 0.0) || !(s.wp_area > 0.0))
        return nv_error_set(err, "particulars: the hull has no waterline at its floating draft");
    double keel = h->bounds_min[1];
    out->length = s.x_max - s.x_min;
    out->beam = s.z_max - s.z_min;
    out->draft = yw - keel;
    out->volume = s.volume;
    out->wetted_area = s.wetted;
    out->waterplane_area = s.wp_area;
    double lbd = out->length * out->beam * out->draft;
    out->block = lbd > 0.0 ? s.volume / lbd : 0.0;
    out->waterplane = out->length * out->beam > 0.0 ? s.wp_area / (out->length * out->beam) : 0.0;
    out->midship_area = part_section_area(h, yw, 0.5 * (s.x_min + s.x_max));
    out->midship = out->beam * out->draft > 0.0 ? out->midship_area / (out->beam * out->draft) : 0.0;
    out->kb = out->draft + s.moment_y / s.volume; /* moment_y is about the waterline (negative) */
    double xf = s.wp_x / s.wp_area, zf = s.wp_z / s.wp_area;
    out->bm_t = (s.wp_zz - s.wp_area * zf * zf) / s.volume;
    out->bm_l = (s.wp_xx - s.wp_area * xf * xf) / s.volume;
    double m[4];
    part_waterplane_moments(h, yw, xf, zf, m);
    out->reach_long = m[0] > 0.0 && m[1] > 0.0 ? sqrt(m[1] / m[0]) : 0.0;
    out->reach_trans = m[2] > 0.0 && m[3] > 0.0 ? sqrt(m[3] / m[2]) : 0.0;
    out->kg = -keel;
    out->gm_t = out->kb + out->bm_t - out->kg;
    out->gm_l = out->kb + out->bm_l - out->kg;
    out->og = out->draft - out->kg;
    out->cg_height = -yw;
    out->mass = h->body.mass;
    out->roll_inertia = h->body.inertia.m[0][0];
    out->added_roll = added_roll;
    double inertia = out->roll_inertia * (1.0 + added_roll);
    if (out->gm_t > 0.0 && inertia > 0.0) {
        out->roll_omega = sqrt(water_density * gravity * out->volume * out->gm_t / inertia);
        out->roll_period = 2.0 * NV_PI / out->roll_omega;
    }
    return 0;
}
