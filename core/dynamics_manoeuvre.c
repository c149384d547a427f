// SPDX-License-Identifier: MIT
/* The triangles' calm-water sway force and yaw moment, tabulated once per
 * type that takes its lateral forces from its manoeuvring model, and that
 * model applied in their place (dynamics.h, "dynamics_manoeuvre"). */
#include <math.h>
#include <stdlib.h>

#include "dynamics.h"

#define MANOEUVRE_QUARTER (0.5 * NV_PI)

#define MANOEUVRE_HALF (DYNAMICS_MANOEUVRE_QUARTER / 2) /* nodes per eighth of a turn */
#define MANOEUVRE_SIN45 0.70710678118654752440

/* The angle (from the table's start) of node k: whole quarter turns, then
 * within the quarter the angle lambda whose sine (first half) or cosine
 * (second half) is sin 45 t^2, t even in [0, 1]: dense at the quarter's
 * ends, where the force grows as a square root. */
static double manoeuvre_node(int k) {
    const int q = k / DYNAMICS_MANOEUVRE_QUARTER, rem = k % DYNAMICS_MANOEUVRE_QUARTER;
    const double t = (double)(rem <= MANOEUVRE_HALF ? rem : DYNAMICS_MANOEUVRE_QUARTER - rem) / MANOEUVRE_HALF;
    const double lambda = asin(MANOEUVRE_SIN45 * t * t);
    return MANOEUVRE_QUARTER * q + (rem <= MANOEUVRE_HALF ? lambda : MANOEUVRE_QUARTER - lambda);
}

/* The (fractional) node of a direction in quarter q at lambda within it,
 * given sin lambda and cos lambda (both >= 0): the inverse of
 * manoeuvre_node without a trigonometric call (the table is read for
 * every vessel at every step). */
static double manoeuvre_index(int q, double sine, double cosine) {
    const double base = (double)DYNAMICS_MANOEUVRE_QUARTER * q;
    if (sine <= cosine) return base + MANOEUVRE_HALF * sqrt(fmax(sine, 0.0) / MANOEUVRE_SIN45);
    return base + DYNAMICS_MANOEUVRE_QUARTER - MANOEUVRE_HALF * sqrt(fmax(cosine, 0.0) / MANOEUVRE_SIN45);
}

/* The triangle pass on the upright hull at rest draft moving at body
 * velocity v and yaw rate r (body y): force along z, moment about y. */
static void manoeuvre_moving(const dynamics_model* m, const nv_hull* h, const float* height, const hydro_sums* still,
                             double u, double v, double r, double gravity, double* fz, double* ty) {
    nv_hydrodyn_model model = m->hydro;
    model.c.forces &= ~(uint32_t)(HYDRODYN_SLAMMING | HYDRODYN_AIR_DRAG); /* no memory, no wind here */
    nv_mat3 upright = {{{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}}};
    nv_hydrodyn_frame frame;
    nv_hydrodyn_frame_init(&frame, &model, &upright, v3(u, 0.0, v), v3(0.0, r, 0.0), 0.0, v3(0.0, 0.0, 0.0),
                           h->body.mass, h->total_area, 1.0 / 60.0);
    hydro_sums moving;
    hydro_sums_clear(&moving);
    hydro_triangle_pass(h, height, 0, h->triangle_count, m->hydro.c.water_density * gravity, &frame, NULL, &moving,
                        NULL);
    *fz = moving.force.z - still->force.z;
    *ty = moving.torque.y - still->torque.y;
}

dynamics_manoeuvre* dynamics_manoeuvre_build(const dynamics_model* m, const nv_hull* h, double gravity) {
    const nv_particulars* p = &m->particulars;
    dynamics_manoeuvre* t = calloc(1, sizeof *t);
    if (!t) return NULL;
    if (nv_manoeuvring_init(&t->target, p, nv_manoeuvring_mid_ahead(h, p), m->hydro.c.water_density)) {
        free(t);
        return NULL;
    }
    t->half_length = 0.5 * p->length;
    float* height = malloc(sizeof *height * (h->vertex_count ? h->vertex_count : 1));
    if (!height) {
        free(t);
        return NULL;
    }
    for (uint32_t i = 0; i < h->vertex_count; i++) height[i] = (float)(p->cg_height + (double)h->vy[i]);
    hydro_sums still;
    hydro_sums_clear(&still);
    hydro_triangle_pass(h, height, 0, h->triangle_count, m->hydro.c.water_density * gravity, NULL, NULL, &still, NULL);
    /* the magnitude the fit is taken at: a Froude number of 0.25 */
    const double s = 0.25 * sqrt(gravity * p->length);
    for (int j = 0; j < DYNAMICS_MANOEUVRE_GAMMAS; j++) {
        const double gamma = -0.5 * NV_PI + manoeuvre_node(j);
        const int pole = j == 0 || j == DYNAMICS_MANOEUVRE_GAMMAS - 1; /* pure yaw: every azimuth alike */
        for (int i = 0; i < DYNAMICS_MANOEUVRE_BETAS; i++) {
            double* e = t->table[j][i];
            if ((pole && i > 0) || i == DYNAMICS_MANOEUVRE_BETAS - 1) { /* 180 is -180 */
                const double* from = t->table[j][0];
                for (int k = 0; k < 4; k++) e[k] = from[k];
                continue;
            }
            const double beta = -NV_PI + manoeuvre_node(i), cg = pole ? 0.0 : cos(gamma);
            const double u = cg * cos(beta), v = cg * sin(beta), r = sin(gamma) / t->half_length;
            double f1, n1, f2, n2;
            manoeuvre_moving(m, h, height, &still, s * u, s * v, s * r, gravity, &f1, &n1);
            manoeuvre_moving(m, h, height, &still, 0.5 * s * u, 0.5 * s * v, 0.5 * s * r, gravity, &f2, &n2);
            /* f(s) = a s + b s^2 through f(s) and f(s / 2) */
            const double bf = 2.0 * (f1 - 2.0 * f2) / (s * s), bn = 2.0 * (n1 - 2.0 * n2) / (s * s);
            e[0] = (f1 - bf * s * s) / s;
            e[1] = bf;
            e[2] = (n1 - bn * s * s) / s;
            e[3] = bn;
        }
    }
    free(height);
    return t;
}

void dynamics_manoeuvre_triangles(const dynamics_manoeuvre* t, double u, double v, double r, double* sway, double* yaw) {
    *sway = *yaw = 0.0;
    const double h = r * t->half_length, across = sqrt(u * u + v * v), s = sqrt(across * across + h * h);
    if (!(s > 0.0) || !isfinite(s)) return;
    /* azimuth from -180: quarters [-180, -90), [-90, 0), [0, 90), [90, 180],
     * lambda's sine and cosine within each from the direction's */
    double fi = 4.0 * DYNAMICS_MANOEUVRE_QUARTER;
    if (across > 0.0) {
        const double c = u / across, sn = v / across;
        fi = sn < 0.0 ? (c < 0.0 ? manoeuvre_index(0, -sn, -c) : manoeuvre_index(1, c, -sn))
                      : (c > 0.0 ? manoeuvre_index(2, sn, c) : manoeuvre_index(3, -c, sn));
    }
    /* elevation from -90: quarters [-90, 0) and [0, 90] */
    const double fj = h < 0.0 ? manoeuvre_index(0, across / s, -h / s) : manoeuvre_index(1, h / s, across / s);
    int i = (int)fi, j = (int)fj;
    if (i > DYNAMICS_MANOEUVRE_BETAS - 2) i = DYNAMICS_MANOEUVRE_BETAS - 2;
    if (j > DYNAMICS_MANOEUVRE_GAMMAS - 2) j = DYNAMICS_MANOEUVRE_GAMMAS - 2;
    const double a = fi - i, b = fj - j;
    double e[4];
    for (int k = 0; k < 4; k++)
        e[k] = (1.0 - b) * ((1.0 - a) * t->table[j][i][k] + a * t->table[j][i + 1][k]) +
               b * ((1.0 - a) * t->table[j + 1][i][k] + a * t->table[j + 1][i + 1][k]);
    *sway = e[0] * s + e[1] * s * s;
    *yaw = e[2] * s + e[3] * s * s;
}

void dynamics_manoeuvre_apply(const dynamics_model* m, nv_vec3 vb, nv_vec3 wb, int triangles, double share,
                              nv_vec3* force, nv_vec3* torque) {
    const dynamics_manoeuvre* t = m->manoeuvre;
    double fy, ny;
    nv_manoeuvring_forces(&t->target, vb.x, vb.z, wb.y, &fy, &ny);
    /* The added mass goes in as a mass along each body axis (the forces
     * divided by 1 + a): turning, the sway axis then carries (m + m_y) u r
     * of centripetal force and the surge axis (m + m_x) v r. A ship's
     * equations carry m u r in sway (Clarke's Y_r comes off the rotating
     * arm with the water's own share, Kirchhoff's -m_x u r, in it) and
     * (m + m_y) v r in surge (Kirchhoff's m_y v r; the triangles' surge
     * force has no ideal-fluid part). The differences given back, in ship
     * axes (r to starboard = -wb.y): + m_y u r in sway, + (m_y - m_x) v r
     * in surge. */
    double fx = 0.0;
    if (m->hydro.c.forces & HYDRODYN_ADDED_MASS) {
        const double mx = m->hydro.c.added_mass.x * m->particulars.mass, my = m->hydro.c.added_mass.z * m->particulars.mass;
        fy -= my * vb.x * wb.y;
        fx -= (my - mx) * vb.z * wb.y;
    }
    if (triangles) {
        double tf, tn;
        dynamics_manoeuvre_triangles(t, vb.x, vb.z, wb.y, &tf, &tn);
        fy -= tf;
        ny -= tn;
    }
    force->x += share * fx;
    force->z += share * fy;
    torque->y += share * ny;
}
