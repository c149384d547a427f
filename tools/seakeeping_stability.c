// SPDX-License-Identifier: MIT
/* The IS Code 2008's intact stability of a vessel type on its righting
 * lever curve (core/stability.c): Part A 2.2, the general criteria, and
 * 2.3, the severe wind and rolling criterion's balance of areas, with the
 * Code's phi_1 and, when the weather trial ran, with the phi_1 measured as
 * MSC.1/Circ.1200 prescribes (docs/seakeeping.md, section 8). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "naval/stability.h"
#include "seakeeping.h"

/* The first heel at or above `from` where gz - lever changes sign from
 * + to - (sign = +1) or from - to + (sign = -1), interpolated; NAN: none. */
static double sk_stab_crossing(const sk_stability* s, double lever, double from, int sign) {
    for (int i = 0; i + 1 < s->n; i++) {
        double x0 = s->heel0 + s->step * i, x1 = x0 + s->step;
        if (x1 <= from) continue;
        double f0 = sign * (s->gz[i] - lever), f1 = sign * (s->gz[i + 1] - lever);
        if (x0 < from) { /* start inside the interval */
            f0 = f0 + (f1 - f0) * (from - x0) / s->step;
            x0 = from;
        }
        if (f0 > 0.0 && f1 <= 0.0) return x0 + (x1 - x0) * f0 / (f0 - f1);
    }
    return NAN;
}

void sk_stability_balance(const sk_stability* s, double phi1, double* area_a, double* area_b) {
    /* a: lw2 over GZ from the roll to windward to where lw2 meets GZ;
     * b: GZ over lw2 from there to phi_2 */
    double from = s->phi0 - phi1;
    *area_a = s->lw2 * (s->phi_x - from) * (NV_PI / 180.0) -
              nv_stability_area(s->gz, s->n, s->heel0, s->step, from, s->phi_x);
    *area_b = nv_stability_area(s->gz, s->n, s->heel0, s->step, s->phi_x, s->phi2) -
              s->lw2 * (s->phi2 - s->phi_x) * (NV_PI / 180.0);
}

int sk_run_stability(const sk_type* t, const sk_weather* wc, sk_stability* s) {
    memset(s, 0, sizeof *s);
    s->heel0 = SK_STAB_HEEL0, s->step = SK_STAB_STEP, s->n = SK_STAB_POINTS;
    nv_hull h;
    nv_error err;
    if (nv_hull_create(&h, &t->mesh, &t->vt.mass, &err)) {
        snprintf(s->error, sizeof s->error, "%s", err.message);
        return -1;
    }
    int rc = -1;
    nv_stability_point upright;
    if (nv_stability_lever(&h, t->rho, t->g, 0.0, &upright, &err)) {
        snprintf(s->error, sizeof s->error, "%s", err.message);
        goto done;
    }
    /* the deck edge amidships, starboard: its height over the water, heel by heel */
    double edge_before = NAN;
    for (int i = 0; i < s->n; i++) {
        double heel = s->heel0 + s->step * i;
        nv_stability_point pt;
        if (nv_stability_lever(&h, t->rho, t->g, heel, &pt, &err)) {
            /* past the Code's range (60 degrees) the curve may end short:
             * the range of stability is then unknown, not the criteria */
            if (heel > SK_STAB_CRITERIA_END) {
                s->n = i;
                snprintf(s->error, sizeof s->error, "the curve ends at %g deg: %s", heel - s->step, err.message);
                break;
            }
            snprintf(s->error, sizeof s->error, "%s", err.message);
            goto done;
        }
        s->gz[i] = pt.gz, s->trim[i] = pt.trim_deg;
        if (t->has_deck_edge && heel > 0.0) {
            nv_mat3 r = quat_to_mat3(pt.orientation);
            double edge = v3_add(pt.position, m3_mul_v3(&r, t->deck_edge)).y;
            if (s->deck_edge == 0.0 && edge <= 0.0 && edge_before > 0.0)
                s->deck_edge = heel - s->step * (1.0 - edge_before / (edge_before - edge));
            edge_before = edge;
        }
    }
    if (t->has_deck_edge) {
        nv_mat3 r = quat_to_mat3(upright.orientation);
        s->freeboard = v3_add(upright.position, m3_mul_v3(&r, t->deck_edge)).y;
    }
    s->gm0 = t->p.gm_t;
    const double* gz = s->gz;
    s->area30 = nv_stability_area(gz, s->n, s->heel0, s->step, 0.0, 30.0);
    s->area40 = nv_stability_area(gz, s->n, s->heel0, s->step, 0.0, 40.0);
    s->area30_40 = nv_stability_area(gz, s->n, s->heel0, s->step, 30.0, 40.0);
    s->gz_max = -INFINITY;
    for (int i = 0; i < s->n; i++) {
        double heel = s->heel0 + s->step * i;
        if (heel > 0.0 && gz[i] > s->gz_max) s->gz_max = gz[i], s->heel_gz_max = heel;
        if (heel >= 30.0 && gz[i] > s->gz30) s->gz30 = gz[i];
    }
    s->vanish = sk_stab_crossing(s, 0.0, 1.0, 1);
    s->general_pass = s->area30 >= 0.055 && s->area40 >= 0.09 && s->area30_40 >= 0.03 && s->gz30 >= 0.2 &&
                      s->heel_gz_max >= 25.0 && s->gm0 >= 0.15;

    /* 2.3: the wind's lever from the hull's own side above the water (the
     * simulation's windage: superstructures are drawn by the clients, not
     * meshed), to the centre of the underwater lateral plane */
    nv_stability_lateral lat;
    nv_stability_lateral_areas(&h, &upright, &lat);
    s->windage = lat.area_above;
    s->lever_z = lat.centroid_above - lat.centroid_below;
    double weight = t->rho * t->g * upright.displacement;
    s->lw1 = weight > 0.0 ? SK_WIND_PRESSURE * s->windage * s->lever_z / weight : 0.0;
    s->lw2 = 1.5 * s->lw1;
    s->phi0 = sk_stab_crossing(s, s->lw1, 0.0, -1);
    s->phi0_limit = s->deck_edge > 0.0 ? fmin(16.0, 0.8 * s->deck_edge) : 16.0; /* none: the 16 */
    s->phi_x = sk_stab_crossing(s, s->lw2, 0.0, -1);
    s->phi_c = isfinite(s->phi_x) ? sk_stab_crossing(s, s->lw2, s->phi_x + 1e-9, 1) : NAN;
    s->phi2 = isfinite(s->phi_c) ? fmin(50.0, s->phi_c) : 50.0;
    s->phi1 = wc->phi1;
    if (isfinite(s->phi0) && isfinite(s->phi_x) && s->phi0 - s->phi1 >= s->heel0) {
        sk_stability_balance(s, s->phi1, &s->area_a, &s->area_b);
        s->weather_pass = s->phi0 <= s->phi0_limit && s->area_b >= s->area_a;
    } else {
        s->area_a = s->area_b = NAN;
    }
    rc = 0;
done:
    nv_hull_destroy(&h);
    return rc;
}
