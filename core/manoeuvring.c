// SPDX-License-Identifier: MIT
/* A displacement hull's manoeuvring forces: Clarke's linear derivatives and
 * a cross-flow drag on Hoerner's curve (naval/manoeuvring.h). */
#include "naval/manoeuvring.h"

#include <math.h>
#include <string.h>

#include "naval/vecmath.h"

/* Hoerner's cross-flow drag coefficient of ship sections by B / 2T, the
 * digitised points of Leite et al. (1998), Fig. 3, to three digits. The
 * step near 0.48 is a section turning from a round bilge to a sharp one. */
static const double manoeuvring_hoerner_curve[][2] = {
    {0.01, 1.966}, {0.18, 1.966}, {0.35, 1.898}, {0.45, 1.787}, {0.47, 1.584}, {0.49, 1.279}, {0.56, 1.084},
    {0.65, 0.999}, {0.83, 0.880}, {0.99, 0.828}, {1.31, 0.760}, {1.64, 0.691}, {1.86, 0.657}, {2.31, 0.631},
    {2.60, 0.596}, {3.01, 0.587}, {3.45, 0.586}, {3.74, 0.560}, {4.00, 0.559},
};
#define MANOEUVRING_HOERNER_ROWS (sizeof manoeuvring_hoerner_curve / sizeof manoeuvring_hoerner_curve[0])

double nv_manoeuvring_hoerner(double ratio) {
    const double(*c)[2] = manoeuvring_hoerner_curve;
    if (!(ratio > c[0][0])) return c[0][1]; /* NaN too: the slenderest section's */
    for (size_t i = 1; i < MANOEUVRING_HOERNER_ROWS; i++)
        if (ratio <= c[i][0]) return c[i - 1][1] + (c[i][1] - c[i - 1][1]) * (ratio - c[i - 1][0]) / (c[i][0] - c[i - 1][0]);
    return c[MANOEUVRING_HOERNER_ROWS - 1][1];
}

int nv_manoeuvring_init(nv_manoeuvring* m, const nv_particulars* p, double mid_ahead, double water_density) {
    memset(m, 0, sizeof *m);
    if (!(p->length > 0.0) || !(p->beam > 0.0) || !(p->draft > 0.0) || !isfinite(mid_ahead) || !(water_density > 0.0))
        return -1;
    const double L = p->length, B = p->beam, T = p->draft, s = NV_PI * (T / L) * (T / L);
    m->length = L;
    m->beam = B;
    m->draft = T;
    m->block = p->block;
    m->mid_ahead = mid_ahead;
    m->water_density = water_density;
    m->yv = -s * (1.0 + 0.40 * p->block * B / T);
    m->yr = -s * (-0.5 + 2.2 * B / L - 0.080 * B / T);
    m->nv = -s * (0.5 + 2.4 * T / L);
    m->nr = -s * (0.25 + 0.039 * B / T - 0.56 * B / L);
    m->cross_flow_drag = nv_manoeuvring_hoerner(B / (2.0 * T));
    return 0;
}

double nv_manoeuvring_mid_ahead(const nv_hull* h, const nv_particulars* p) {
    /* the waterline: where the triangles' edges cross the still water, as
     * the particulars' waterplane cut finds it (a raked stem's end lies on
     * an edge, not at a vertex) */
    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t t = 0; t < h->triangle_count; t++) {
        const uint32_t* tri = &h->triangles[3 * t];
        for (int k = 0; k < 3; k++) {
            const uint32_t a = tri[k], b = tri[(k + 1) % 3];
            const double ha = p->cg_height + (double)h->vy[a], hb = p->cg_height + (double)h->vy[b];
            if ((ha > 0.0) == (hb > 0.0)) continue;
            const double x = (double)h->vx[a] + ((double)h->vx[b] - (double)h->vx[a]) * ha / (ha - hb);
            lo = fmin(lo, x);
            hi = fmax(hi, x);
        }
    }
    return lo <= hi ? 0.5 * (lo + hi) : 0.0;
}

void nv_manoeuvring_forces(const nv_manoeuvring* m, double u, double v, double r, double* sway, double* yaw) {
    *sway = *yaw = 0.0;
    const double L = m->length;
    if (!(L > 0.0)) return;
    /* the ship convention: the sway to starboard as is, the yaw rate about
     * z down (bow to starboard +), the moment about the mid-length */
    const double rs = -r, xm = m->mid_ahead, half_rho = 0.5 * m->water_density;
    const double vm = v + xm * rs, au = fabs(u);
    double y = half_rho * L * L * (m->yv * au * vm + m->yr * L * u * rs);
    double n = half_rho * L * L * L * (m->nv * u * vm + m->nr * L * au * rs);
    const double dx = L / NV_MANOEUVRING_STRIPS, k = half_rho * m->draft * m->cross_flow_drag * dx;
    for (int i = 0; i < NV_MANOEUVRING_STRIPS; i++) {
        const double x = -0.5 * L + (i + 0.5) * dx, c = vm + x * rs, f = -k * fabs(c) * c;
        y += f;
        n += x * f;
    }
    *sway = y;
    *yaw = -(n + xm * y); /* about the CG, then about body y (up) */
}
