// SPDX-License-Identifier: MIT
/* Righting levers with the trim free, and the hull's lateral areas at a
 * floating position (include/naval/stability.h). */
#include "naval/stability.h"

#include <math.h>
#include <stdlib.h>

#include "hydro.h"
#include "naval/statics.h"

#define STABILITY_DEG (NV_PI / 180.0)

typedef struct stability_probe {
    const nv_hull* h;
    double rho, g, extent;
    float* height; /* per vertex, above the flat water at 0 */
} stability_probe;

/* Floats the hull at heel and trim (degrees), its height balancing the
 * weight; fills the point (gz and all) and returns the centre of
 * buoyancy's lead on the CG along the world's x (+ ahead). */
static int stability_float(stability_probe* pr, double heel, double trim, nv_stability_point* pt, double* lead,
                           nv_error* err) {
    nv_quat q = quat_normalize(quat_mul(quat_from_axis_angle(v3(0, 0, 1), trim * STABILITY_DEG),
                                        quat_from_axis_angle(v3(1, 0, 0), heel * STABILITY_DEG)));
    double y;
    if (nv_statics_balance_height_of(pr->h, pr->rho, pr->g, q, &y, err)) return -1;
    nv_mat3 r = quat_to_mat3(q);
    nv_vec3 position = v3(0.0, y, 0.0);
    for (uint32_t i = 0; i < pr->h->vertex_count; i++) pr->height[i] = (float)(y + hydro_vertex_offset(pr->h, &r, i).y);
    nv_vec3 cb;
    pt->displacement = nv_statics_buoyancy_center(pr->h, pr->height, position, &r, 0.0, &cb);
    pt->heel_deg = heel;
    pt->trim_deg = trim;
    pt->gz = cb.z - position.z;
    pt->position = position;
    pt->orientation = q;
    *lead = cb.x - position.x;
    return 0;
}

int nv_stability_lever(const nv_hull* h, double water_density, double gravity, double heel_deg, nv_stability_point* out,
                       nv_error* err) {
    stability_probe pr = {h, water_density, gravity, 0.0, malloc(sizeof(float) * (h->vertex_count ? h->vertex_count : 1))};
    if (!pr.height) return nv_error_set(err, "stability: out of memory for %u vertex heights", h->vertex_count);
    for (int a = 0; a < 3; a++) pr.extent = fmax(pr.extent, (double)h->bounds_max[a] - (double)h->bounds_min[a]);
    /* The lead falls as the bow rises (more of the stern immersed): a root
     * in [-45, 45] degrees, found by the secant with the bracket kept from
     * the signs met; a step that leaves the bracket bisects instead. */
    double lo = -45.0, hi = 45.0, xp = 0.0, fp, x, f;
    double tolerance = 1e-6 * pr.extent;
    int rc = -1;
    if (stability_float(&pr, heel_deg, xp, out, &fp, err)) goto done;
    if (fabs(fp) <= tolerance) {
        rc = 0;
        goto done;
    }
    if (fp > 0.0) lo = xp, x = 0.5;
    else hi = xp, x = -0.5;
    if (stability_float(&pr, heel_deg, x, out, &f, err)) goto done;
    for (int i = 0; i < 80; i++) {
        if (fabs(f) <= tolerance) {
            rc = 0;
            goto done;
        }
        if (f > 0.0) lo = fmax(lo, x);
        else hi = fmin(hi, x);
        if (!(hi - lo >= 1e-9)) break;
        double next = f != fp ? x - f * (x - xp) / (f - fp) : 0.5 * (lo + hi);
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        xp = x, fp = f, x = next;
        if (stability_float(&pr, heel_deg, x, out, &f, err)) goto done;
    }
    /* A bracket closed on a root the float noise keeps a little off zero; not
     * a jump in the lead (a slot in the hull), nor a bracket turned inside
     * out by a lead that does not fall as the bow rises. */
    if (hi >= lo && hi - lo < 1e-6 && fabs(f) <= 100.0 * tolerance && lo > -44.999 && hi < 44.999) rc = 0;
    else
        nv_error_set(err, "stability: no trim within +-45 degrees balances the hull at a heel of %g degrees (the lead "
                          "of its centre of buoyancy on the CG %.3g m at a trim of %.4g degrees)",
                     heel_deg, f, x);
done:
    free(pr.height);
    return rc;
}

/* The slope at sample i: central differences inside, one-sided at the ends. */
static double stability_slope(const double* gz, int n, int i, double step) {
    if (i == 0) return (gz[1] - gz[0]) / step;
    if (i == n - 1) return (gz[n - 1] - gz[n - 2]) / step;
    return (gz[i + 1] - gz[i - 1]) / (2.0 * step);
}

/* The integral over t in [0, u] of the cubic Hermite basis (h00, h10, h01, h11). */
static void stability_hermite_integrals(double u, double w[4]) {
    double u2 = u * u, u3 = u2 * u, u4 = u3 * u;
    w[0] = u - u3 + 0.5 * u4;
    w[1] = 0.5 * u2 - 2.0 * u3 / 3.0 + 0.25 * u4;
    w[2] = u3 - 0.5 * u4;
    w[3] = -u3 / 3.0 + 0.25 * u4;
}

double nv_stability_area(const double* gz, int n, double heel0, double step, double a, double b) {
    if (n < 2 || !(step > 0.0)) return 0.0;
    if (!isfinite(a) || !isfinite(b)) return NAN;
    double sign = 1.0;
    if (b < a) {
        double t = a;
        a = b, b = t, sign = -1.0;
    }
    double last = heel0 + step * (n - 1);
    a = fmax(a, heel0), b = fmin(b, last);
    double sum = 0.0;
    for (int i = 0; i + 1 < n; i++) {
        double x0 = heel0 + step * i, x1 = x0 + step;
        double s = fmax(a, x0), e = fmin(b, x1);
        if (!(e > s)) continue;
        double m0 = stability_slope(gz, n, i, step) * step, m1 = stability_slope(gz, n, i + 1, step) * step;
        double ws[4], we[4];
        stability_hermite_integrals((s - x0) / step, ws);
        stability_hermite_integrals((e - x0) / step, we);
        sum += step * ((we[0] - ws[0]) * gz[i] + (we[1] - ws[1]) * m0 + (we[2] - ws[2]) * gz[i + 1] +
                       (we[3] - ws[3]) * m1);
    }
    return sign * sum * STABILITY_DEG;
}

void nv_stability_lateral_areas(const nv_hull* h, const nv_stability_point* at, nv_stability_lateral* out) {
    nv_mat3 r = quat_to_mat3(at->orientation);
    double all = 0.0, all_y = 0.0, wet = 0.0, wet_y = 0.0;
    for (uint32_t t = 0; t < h->triangle_count; t++) {
        const uint32_t* tri = h->triangles + 3 * (size_t)t;
        nv_vec3 p[3];
        double hh[3];
        for (int i = 0; i < 3; i++) {
            p[i] = v3_add(at->position, hydro_vertex_offset(h, &r, tri[i]));
            hh[i] = p[i].y;
        }
        /* the projection on the side (x, y) plane of the starboard-facing part */
        double nz = 0.5 * v3_cross(v3_sub(p[1], p[0]), v3_sub(p[2], p[0])).z;
        if (!(nz > 0.0)) continue;
        all += nz;
        all_y += nz * (p[0].y + p[1].y + p[2].y) / 3.0;
        hydro_cut cut;
        hydro_cut_triangle(p, hh, &cut);
        for (int k = 0; k < cut.piece_count; k++) {
            const hydro_piece* pc = &cut.pieces[k];
            double pz = 0.5 * v3_cross(v3_sub(pc->p[1], pc->p[0]), v3_sub(pc->p[2], pc->p[0])).z;
            wet += pz;
            wet_y += pz * (pc->p[0].y + pc->p[1].y + pc->p[2].y) / 3.0;
        }
    }
    out->area_below = wet;
    out->centroid_below = wet > 0.0 ? wet_y / wet : 0.0;
    out->area_above = all - wet;
    out->centroid_above = all - wet > 0.0 ? (all_y - wet_y) / (all - wet) : 0.0;
}
