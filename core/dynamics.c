// SPDX-License-Identifier: MIT
#include "dynamics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "naval/planing.h"

void dynamics_triangle_motion(const dynamics_model* m, const nv_hull* h, const float* height, nv_vec3 v, nv_vec3 w,
                              double gravity, nv_vec3* force, nv_vec3* torque) {
    nv_hydrodyn_model model = m->hydro;
    model.c.forces &= ~(uint32_t)(HYDRODYN_SLAMMING | HYDRODYN_AIR_DRAG); /* no memory, no wind here */
    nv_mat3 upright = {{{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}}};
    nv_hydrodyn_frame frame;
    nv_hydrodyn_frame_init(&frame, &model, &upright, v, w, 0.0, v3(0.0, 0.0, 0.0), h->body.mass, h->total_area,
                           1.0 / 60.0);
    double rho_g = m->hydro.c.water_density * gravity;
    hydro_sums moving, still;
    hydro_sums_clear(&moving);
    hydro_sums_clear(&still);
    hydro_triangle_pass(h, height, 0, h->triangle_count, rho_g, &frame, NULL, &moving, NULL);
    hydro_triangle_pass(h, height, 0, h->triangle_count, rho_g, NULL, NULL, &still, NULL);
    *force = v3_sub(moving.force, still.force);
    *torque = v3_sub(moving.torque, still.torque);
}

/* k1, k2 >= 0 of r(x) = k1 x + k2 x^2 through r(x) = r1 and r(x / 2) = r2;
 * a resistance that does not grow with x (the fit would be negative)
 * falls back to the linear law through r1. */
void dynamics_fit_resistance(double x, double r1, double r2, double k[2]) {
    double k2 = 2.0 * (r1 - 2.0 * r2) / (x * x);
    double k1 = (r1 - k2 * x * x) / x;
    if (!(k2 >= 0.0) || !(k1 >= 0.0)) {
        k2 = k2 >= 0.0 && isfinite(k2) ? fmax(r1, 0.0) / (x * x) : 0.0;
        k1 = k2 > 0.0 ? 0.0 : fmax(r1, 0.0) / x;
    }
    k[0] = isfinite(k1) ? k1 : 0.0;
    k[1] = isfinite(k2) ? k2 : 0.0;
}

static double dynamics_triangle_roll_moment(const dynamics_model* m, const nv_hull* h, const float* height, double p,
                                            double gravity) {
    nv_vec3 f, t;
    dynamics_triangle_motion(m, h, height, v3(0.0, 0.0, 0.0), v3(p, 0.0, 0.0), gravity, &f, &t);
    return t.x;
}

/* The equivalent linear roll damping (N m s) the triangle pass gives the
 * upright hull at the reference amplitude and its natural frequency: the
 * moment fitted as -(k1 p + k2 |p| p) at the peak roll rate and half of it,
 * then k1 + (8 / (3 pi)) omega phi_a k2. Deterministic: one hull, fixed
 * inputs, summed in triangle order. */
static double dynamics_triangle_roll_damping(const dynamics_model* m, const nv_hull* h, double gravity) {
    const nv_particulars* pp = &m->particulars;
    if (!(pp->roll_omega > 0.0) || !m->per_triangle) return 0.0;
    float* height = malloc(sizeof *height * (h->vertex_count ? h->vertex_count : 1));
    if (!height) return 0.0;
    for (uint32_t i = 0; i < h->vertex_count; i++) height[i] = (float)(pp->cg_height + (double)h->vy[i]);
    double peak = NV_ROLL_REFERENCE_AMPLITUDE * pp->roll_omega;
    double m1 = -dynamics_triangle_roll_moment(m, h, height, peak, gravity);
    double m2 = -dynamics_triangle_roll_moment(m, h, height, 0.5 * peak, gravity);
    free(height);
    /* m1 = k1 p + k2 p^2, m2 = k1 p / 2 + k2 p^2 / 4 */
    double k2 = 2.0 * (m1 - 2.0 * m2) / (peak * peak);
    double k1 = (m1 - k2 * peak * peak) / peak;
    double eq = k1 + 8.0 / (3.0 * NV_PI) * pp->roll_omega * NV_ROLL_REFERENCE_AMPLITUDE * k2;
    return isfinite(eq) && eq > 0.0 ? eq : 0.0;
}

/* The equivalent linear heave (N s/m) and pitch (N m s) damping the
 * triangle pass gives the upright hull at the reference motion
 * (NV_HEAVE_PITCH_REFERENCE) and the natural frequencies: force and moment
 * fitted as -(k1 x + k2 |x| x) at the peak rate and half of it, then
 * k1 + (8 / (3 pi)) x_peak k2. */
static void dynamics_triangle_heave_pitch(const dynamics_model* m, const nv_hull* h, double gravity, double heave_omega,
                                          double pitch_omega, double* heave, double* pitch) {
    const nv_particulars* pp = &m->particulars;
    *heave = *pitch = 0.0;
    if (!m->per_triangle || !(pp->length > 0.0)) return;
    float* height = malloc(sizeof *height * (h->vertex_count ? h->vertex_count : 1));
    if (!height) return;
    for (uint32_t i = 0; i < h->vertex_count; i++) height[i] = (float)(pp->cg_height + (double)h->vy[i]);
    const nv_vec3 zero = v3(0.0, 0.0, 0.0);
    const double v = NV_HEAVE_PITCH_REFERENCE * pp->draft * heave_omega;
    const double q = NV_HEAVE_PITCH_REFERENCE * pp->draft / (0.5 * pp->length) * pitch_omega;
    nv_vec3 f1, f2, t1, t2;
    double k[2];
    if (v > 0.0) {
        dynamics_triangle_motion(m, h, height, v3(0.0, v, 0.0), zero, gravity, &f1, &t1);
        dynamics_triangle_motion(m, h, height, v3(0.0, 0.5 * v, 0.0), zero, gravity, &f2, &t2);
        dynamics_fit_resistance(v, -f1.y, -f2.y, k);
        *heave = k[0] + 8.0 / (3.0 * NV_PI) * v * k[1];
    }
    if (q > 0.0) {
        dynamics_triangle_motion(m, h, height, zero, v3(0.0, 0.0, q), gravity, &f1, &t1);
        dynamics_triangle_motion(m, h, height, zero, v3(0.0, 0.0, 0.5 * q), gravity, &f2, &t2);
        dynamics_fit_resistance(q, -t1.z, -t2.z, k);
        *pitch = k[0] + 8.0 / (3.0 * NV_PI) * q * k[1];
    }
    free(height);
}

/* The planing bottom's table (dynamics.h): for each trim tau and transom
 * depth d, the hull upright on still water with its keel at the transom d
 * deep and bow up by tau. Kerner's pressure on a prismatic face (normal n
 * with no x part) moving along the surface at incidence alpha has cos t =
 * -n_y sin alpha: per pascal of (C_PD1 r + C_PD2 r^2) and per sin^f_P
 * alpha, the submerged pieces of the prismatic bottom's faces that meet
 * the flow (centroid within `length` of the transom, |n_x| <= 0.01,
 * n_y < 0) push -A (-n_y)^f_P n, with their moment about the CG: what the
 * triangle pass gives those faces, over (C_PD1 r + C_PD2 r^2) sin^f_P
 * alpha. In double, in triangle order: deterministic. NULL without a
 * planing bottom; zero with the type's pressure drag off (nothing to take
 * back). */
static dynamics_planing* dynamics_planing_build(const dynamics_model* m, const nv_hull* h) {
    const nv_hydrodyn_coeffs* c = &m->hydro.c;
    double length = (double)h->bounds_max[0] - (double)h->bounds_min[0];
    double depth = (double)h->bounds_max[1] - (double)h->bounds_min[1];
    if (!(c->planing[0] > 0.0 && c->planing[2] > 0.0) || !(length > 0.0) || !(depth > 0.0)) return NULL;
    dynamics_planing* p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->beam = c->planing[0];
    p->deadrise_deg = c->planing[1];
    p->length = c->planing[2];
    p->transom_x = h->bounds_min[0];
    p->keel_y = h->bounds_min[1];
    p->span = fmin(2.0 * p->beam, length);
    p->depth_max = depth;
    if (!(c->forces & HYDRODYN_PRESSURE_DRAG)) return p;
    for (uint32_t t = 0; t < h->triangle_count; t++) {
        const uint32_t* tri = &h->triangles[3 * t];
        nv_vec3 q[3];
        for (int k = 0; k < 3; k++) q[k] = v3(h->vx[tri[k]], h->vy[tri[k]], h->vz[tri[k]]);
        if ((q[0].x + q[1].x + q[2].x) / 3.0 - p->transom_x > p->length) continue; /* the forefoot */
        nv_vec3 cr = v3_cross(v3_sub(q[1], q[0]), v3_sub(q[2], q[0]));
        double twice = v3_length(cr);
        if (!(twice > 0.0)) continue;
        nv_vec3 n = v3_scale(cr, 1.0 / twice);
        if (!(fabs(n.x) <= 0.01 && n.y < 0.0)) continue; /* not prismatic, or not under the flow */
        double pressure = pow(-n.y, c->pressure_falloff);
        for (int i = 0; i < DYNAMICS_PLANING_TRIMS; i++) {
            double tau = DYNAMICS_PLANING_TRIM_MAX_DEG * NV_PI / 180.0 * i / (DYNAMICS_PLANING_TRIMS - 1);
            double st = sin(tau), ct = cos(tau);
            for (int j = 1; j < DYNAMICS_PLANING_DEPTHS; j++) { /* at depth 0 nothing is wet */
                double d = depth * j / (DYNAMICS_PLANING_DEPTHS - 1);
                double y0 = -d - (p->transom_x * st + p->keel_y * ct); /* the CG's height */
                double hgt[3];
                for (int k = 0; k < 3; k++) hgt[k] = q[k].x * st + q[k].y * ct + y0;
                hydro_cut cut;
                hydro_cut_triangle(q, hgt, &cut);
                for (int k = 0; k < cut.piece_count; k++) {
                    const nv_vec3* r = cut.pieces[k].p;
                    double area = 0.5 * v3_length(v3_cross(v3_sub(r[1], r[0]), v3_sub(r[2], r[0])));
                    nv_vec3 centre = v3_scale(v3_add(v3_add(r[0], r[1]), r[2]), 1.0 / 3.0);
                    nv_vec3 f = v3_scale(n, -area * pressure);
                    double* e = p->table[i][j];
                    e[0] += f.x;
                    e[1] += f.y;
                    e[2] += centre.x * f.y - centre.y * f.x;
                }
            }
        }
    }
    return p;
}

void dynamics_model_release(dynamics_model* m) {
    if (!m) return;
    free(m->planing);
    m->planing = NULL;
    free(m->manoeuvre);
    m->manoeuvre = NULL;
}

/* With "manoeuvring", the model's lateral forces in place of the
 * triangles' (a hull with no waterline keeps its own). */
static void dynamics_manoeuvre_take(dynamics_model* m, const nv_hull* h) {
    if (!(m->hydro.c.forces & HYDRODYN_MANOEUVRING) || !(m->particulars.length > 0.0)) return;
    m->manoeuvre = dynamics_manoeuvre_build(m, h);
    m->drag.lateral_from_model = m->manoeuvre != NULL;
}

void dynamics_model_init(dynamics_model* m, const nv_vessel_dynamics* d, const nv_hull* h, double gravity) {
    double length = (double)h->bounds_max[0] - (double)h->bounds_min[0];
    nv_hydrodyn_model_init(&m->hydro, &d->coeffs, length);
    m->hydro.gravity = gravity;
    nv_actuator_model_init(&m->actuators, &d->actuators, h->body.cg);
    uint32_t f = d->coeffs.forces;
    m->slamming = (f & HYDRODYN_SLAMMING) != 0;
    m->per_triangle =
        (f & (HYDRODYN_VISCOUS | HYDRODYN_RESIDUAL | HYDRODYN_PRESSURE_DRAG | HYDRODYN_SLAMMING | HYDRODYN_AIR_DRAG |
              HYDRODYN_WATER_ENTRY)) !=
        0;
    m->total_area = h->total_area;
    memset(&m->drag, 0, sizeof m->drag);
    m->planing = dynamics_planing_build(m, h);
    m->manoeuvre = NULL;
    /* The dampers need the hull afloat upright: one that sinks or has no
     * upright stability gets none (nothing to linearise about). */
    const nv_hydrodyn_coeffs* c = &d->coeffs;
    nv_error ignored;
    memset(&m->particulars, 0, sizeof m->particulars);
    memset(&m->roll, 0, sizeof m->roll);
    memset(&m->heave_pitch, 0, sizeof m->heave_pitch);
    m->roll_damping = 0;
    m->heave_pitch_damping = 0;
    const int added = (f & HYDRODYN_ADDED_MASS) != 0;
    if (!(f & (HYDRODYN_ROLL_DAMPING | HYDRODYN_HEAVE_PITCH_DAMPING))) {
        /* the added mass's share needs the upright wetted area all the same */
        if ((added || (f & HYDRODYN_MANOEUVRING)) &&
            nv_particulars_compute(h, c->water_density, gravity, added ? c->added_inertia.x : 0.0, &m->particulars,
                                   &ignored))
            memset(&m->particulars, 0, sizeof m->particulars);
        nv_actuator_model_set_block(&m->actuators, m->particulars.block);
        nv_actuator_model_set_mid(&m->actuators, nv_manoeuvring_mid_ahead(h, &m->particulars));
        dynamics_hull_drag_fit(m, h, gravity);
        dynamics_manoeuvre_take(m, h);
        return;
    }
    if (nv_particulars_compute(h, c->water_density, gravity, added ? c->added_inertia.x : 0.0, &m->particulars, &ignored))
        return;
    nv_actuator_model_set_block(&m->actuators, m->particulars.block);
    nv_actuator_model_set_mid(&m->actuators, nv_manoeuvring_mid_ahead(h, &m->particulars));
    if (f & HYDRODYN_ROLL_DAMPING) {
        if (c->roll_damping[0] >= 0.0)
            nv_roll_damper_explicit(&m->roll, c->roll_damping[0], c->roll_damping[1], m->particulars.wetted_area);
        else
            nv_roll_damper_from_ikeda(&m->roll, &m->particulars, c->bilge_keel[0], c->bilge_keel[1],
                                      dynamics_triangle_roll_damping(m, h, gravity), c->water_density, gravity,
                                      c->viscosity);
        m->roll_damping = m->roll.wetted_area > 0.0;
    }
    if (f & HYDRODYN_HEAVE_PITCH_DAMPING) {
        /* pitch: about the body's z axis (beam) */
        const double added_heave = added ? c->added_mass.y : 0.0, added_pitch = added ? c->added_inertia.z : 0.0;
        const double inertia = h->body.inertia.m[2][2];
        double w3, w5, tri_heave, tri_pitch;
        nv_heave_pitch_frequencies(&m->particulars, h->body.mass, added_heave, inertia, added_pitch, c->water_density,
                                   gravity, &w3, &w5);
        dynamics_triangle_heave_pitch(m, h, gravity, w3, w5, &tri_heave, &tri_pitch);
        nv_heave_pitch_damper_init(&m->heave_pitch, &m->particulars, h->body.mass, added_heave, inertia, added_pitch,
                                   tri_heave, tri_pitch, c->water_density, gravity);
        m->heave_pitch_damping = m->heave_pitch.wetted_area > 0.0;
    }
    dynamics_hull_drag_fit(m, h, gravity);
    dynamics_manoeuvre_take(m, h);
}

uint32_t dynamics_actuator_points(const dynamics_model* m, nv_vec3 position, const nv_mat3* rot, double* x, double* y,
                                  double* z) {
    uint32_t n = m->actuators.point_count;
    for (uint32_t i = 0; i < n; i++) {
        nv_vec3 p = v3_add(position, m3_mul_v3(rot, nv_actuator_point(&m->actuators, i)));
        x[i] = p.x, y[i] = p.y, z[i] = p.z;
    }
    return n;
}

/* The planing lift's force and moment (body frame, about the CG) on a
 * vessel of a type with a planing bottom (dynamics.h; naval/planing.h;
 * docs/hydrodynamics.md, "The planing lift"). The geometry from the water
 * line through two samples (the keel at the transom and `span` forward of
 * it): the keel's trim tau over it, the transom's depth d below it, the
 * keel wetted L_K = d / sin tau forward of the transom; the speed V over
 * the water along the heading. Weighted by nv_planing_weight (speed, trim,
 * heel) and out as the transom sinks past the hull's depth. Zero when the
 * hull is keel up, out of the water, trimmed bow down or not moving ahead. */
double dynamics_planing_lift(const dynamics_model* m, double tau, double d, double speed, double heel, nv_vec3 vb,
                             nv_vec3 wb, double gravity, nv_vec3* force, nv_vec3* torque) {
    const dynamics_planing* p = m->planing;
    const nv_hydrodyn_coeffs* c = &m->hydro.c;
    *force = v3(0.0, 0.0, 0.0);
    *torque = v3(0.0, 0.0, 0.0);
    if (!(d > 0.0) || !(speed > 0.0) || !(tau > 0.0) || !(tau < 0.5 * NV_PI)) return 0.0;
    double tau_deg = tau * 180.0 / NV_PI;
    double sink = fmin(fmax((d / p->depth_max - 0.75) / 0.25, 0.0), 1.0); /* the transom's deck going under */
    double w = (1.0 - sink * sink * (3.0 - 2.0 * sink)) *
               nv_planing_weight(speed / sqrt(gravity * p->beam), tau_deg, heel * 180.0 / NV_PI);
    if (!(w > 0.0)) return 0.0;
    /* Savitsky's dynamic lift on the prismatic bottom, normal to the keel at
     * its centre x_c = x_T + 0.75 lambda b (x_T the transom), at the
     * incidence of the flow at the transom, alpha_T (the angle of the
     * transom's velocity relative to the water below the keel: tau in
     * steady running). That is slender-body (momentum) theory's lift: the
     * water leaves the bottom at the transom with the momentum m_T u_n of
     * the added mass there, so the force follows the transom's penetration
     * rate u_n = V sin alpha_T (heave, and pitch through the transom's
     * lever); once the transom rises out of the flow (alpha_T <= 0) it is
     * gone (a ventilated transom draws no suction). With the transom's
     * added mass m_T = (rho / 2) b^2 dC_Ld / dalpha that makes the momentum
     * lift V^2 m_T alpha Savitsky's, the same theory gives the rest of the
     * pitch moment: -(V m_T q / 2) ((x_c - x_T)^2 + s^2), q the pitch rate
     * and s = lambda b / 4 the spread of a flat plate's loading about its
     * centre (thin-aerofoil theory, peaked at the spray root), always
     * against q: -(5 / 16) V m_T q (lambda b)^2. */
    double lambda = nv_planing_mean_wetted_length(p->beam, p->deadrise_deg, tau_deg, d / sin(tau), p->length);
    double chord = lambda * p->beam, centre = p->transom_x + 0.75 * chord;
    nv_vec3 vt = v3_add(vb, v3_cross(wb, v3(p->transom_x, p->keel_y, 0.0)));
    double alpha = vt.x > 0.0 ? atan2(-vt.y, vt.x) : 0.0;
    double dyn = 0.5 * c->water_density * speed * speed * p->beam * p->beam;
    double lift = dyn * nv_planing_dynamic_lift_coefficient(alpha * 180.0 / NV_PI, lambda, p->deadrise_deg);
    double added = 0.5 * c->water_density * p->beam * p->beam *
                   nv_planing_dynamic_lift_slope(tau_deg, lambda, p->deadrise_deg);
    double damping = -0.3125 * speed * added * wb.z * chord * chord;
    /* Rolling, the bottom sheds the roll momentum of the water at the
     * transom as it sheds the heave's: the same theory's roll damping is
     * V a44_T p, a44_T the transom section's added roll inertia. A flat
     * plate across the chines on the free surface has rho pi b^4 / 256 per
     * metre (half its pi rho c^4 / 8 in open water, c = b / 2), against its
     * heave added mass rho pi b^2 / 8; scaled as the heave's is to m_T
     * (Savitsky's lift slope), a44_T = m_T b^2 / 32. A flat plate: a
     * V bottom's section differs. It grows with the speed as Ikeda's lift
     * term does for a displacement hull, and is an order of magnitude
     * larger. */
    double roll_damping = -speed * added * p->beam * p->beam / 32.0 * wb.x;
    /* what the triangles' pressure drag gives the prismatic bottom wetted at
     * (tau, d), at speed V and the incidence of the flow at the centre of
     * that pressure x_K (moment over force): taken back, so that what is
     * left of it is its own spread about x_K */
    double fi = fmin(tau_deg, DYNAMICS_PLANING_TRIM_MAX_DEG) / DYNAMICS_PLANING_TRIM_MAX_DEG *
                (DYNAMICS_PLANING_TRIMS - 1);
    double fj = fmin(d / p->depth_max, 1.0) * (DYNAMICS_PLANING_DEPTHS - 1);
    int i = (int)fi, j = (int)fj;
    if (i > DYNAMICS_PLANING_TRIMS - 2) i = DYNAMICS_PLANING_TRIMS - 2;
    if (j > DYNAMICS_PLANING_DEPTHS - 2) j = DYNAMICS_PLANING_DEPTHS - 2;
    double u = fi - i, t = fj - j, e[3];
    for (int k = 0; k < 3; k++)
        e[k] = (1.0 - u) * ((1.0 - t) * p->table[i][j][k] + t * p->table[i][j + 1][k]) +
               u * ((1.0 - t) * p->table[i + 1][j][k] + t * p->table[i + 1][j + 1][k]);
    double kerner = 0.0;
    if (e[1] > 0.0) {
        nv_vec3 vk = v3_add(vb, v3_cross(wb, v3(e[2] / e[1], p->keel_y, 0.0)));
        double incidence = vk.x > 0.0 ? atan2(-vk.y, vk.x) : 0.0;
        double rr = speed / c->reference_speed;
        if (incidence > 0.0 && incidence < 0.5 * NV_PI)
            kerner = (c->pressure_linear * rr + c->pressure_quadratic * rr * rr) *
                     pow(sin(incidence), c->pressure_falloff);
    }
    nv_vec3 f = v3(-kerner * e[0], lift - kerner * e[1], 0.0);
    nv_vec3 tq = v3(roll_damping, 0.0, centre * lift + damping - kerner * e[2]);
    if (!v3_is_finite(f) || !v3_is_finite(tq)) return 0.0;
    *force = v3_scale(f, w);
    *torque = v3_scale(tq, w);
    return w;
}

/* The planing lift on a vessel in the sea: the keel over the water line
 * through two samples of the surface. */
static void dynamics_planing_apply(const dynamics_model* m, const body* b, const nv_mat3* rot, double water_vertical,
                                   const dynamics_env* env, nv_vec3* force, nv_vec3* torque, double* weight) {
    const dynamics_planing* p = m->planing;
    *force = v3(0.0, 0.0, 0.0);
    *torque = v3(0.0, 0.0, 0.0);
    *weight = 0.0;
    const double(*r)[3] = rot->m;
    nv_vec3 ex = v3(r[0][0], r[1][0], r[2][0]), ey = v3(r[0][1], r[1][1], r[2][1]), ez = v3(r[0][2], r[1][2], r[2][2]);
    double horiz = sqrt(ex.x * ex.x + ex.z * ex.z);
    if (!env->water || !(ey.y > 0.0) || !(horiz > 1e-6)) return;
    nv_vec3 aft = v3_add(b->position, m3_mul_v3(rot, v3(p->transom_x, p->keel_y, 0.0)));
    nv_vec3 fore = v3_madd(aft, ex, p->span);
    double qx[2] = {aft.x, fore.x}, qz[2] = {aft.z, fore.z};
    float surface[2];
    nv_water_query q = {.count = 2, .x = qx, .z = qz, .height = surface};
    water_sample(env->water, &q);
    double slope = ((double)surface[1] - (double)surface[0]) / (p->span * horiz);
    if (!isfinite(slope)) return;
    double slope_angle = atan(slope);
    double tau = atan2(ex.y, horiz) - slope_angle;
    double d = ((double)surface[0] - aft.y) * cos(slope_angle);
    double speed = (b->velocity.x * ex.x + b->velocity.z * ex.z) / horiz;
    double heel = atan2(-ez.y, ey.y);
    nv_mat3 rt = m3_transpose(rot);
    nv_vec3 vb = m3_mul_v3(&rt, v3_sub(b->velocity, v3(0.0, water_vertical, 0.0)));
    nv_vec3 wb = m3_mul_v3(&rt, b->angular_velocity);
    *weight = dynamics_planing_lift(m, tau, d, speed, heel, vb, wb, env->gravity, force, torque);
}

double dynamics_added_share(const dynamics_model* m, double wetted) {
    double upright = m->particulars.wetted_area;
    if (!(upright > 0.0)) return 1.0; /* a hull that cannot float is always under */
    double share = wetted / upright;
    return share < 1.0 ? (share > 0.0 ? share : 0.0) : 1.0;
}

/* Scales a body-frame vector component-wise by 1 / (1 + a). */
static nv_vec3 dynamics_divide_added(const nv_mat3* rot, nv_vec3 world_v, nv_vec3 added) {
    nv_mat3 rt = m3_transpose(rot);
    nv_vec3 b = m3_mul_v3(&rt, world_v);
    b = v3(b.x / (1.0 + added.x), b.y / (1.0 + added.y), b.z / (1.0 + added.z));
    return m3_mul_v3(rot, b);
}

double dynamics_impulse_share(const body* b, nv_vec3 v, nv_vec3 f, nv_vec3 t, double dt) {
    const double f2 = v3_dot(f, f);
    if (!(f2 > 0.0) || !(dt > 0.0)) return 1.0;
    const double fl = sqrt(f2);
    const nv_vec3 n = v3_scale(f, 1.0 / fl), r = v3_scale(v3_cross(f, t), 1.0 / f2);
    const nv_vec3 rn = v3_cross(r, n);
    const nv_mat3 inv_i = body_world_inverse_inertia(b);
    const double inv_mass = b->inverse_mass + v3_dot(rn, m3_mul_v3(&inv_i, rn));
    const double closing = -v3_dot(v3_add(v, v3_cross(b->angular_velocity, r)), n);
    if (!(closing > 0.0) || !(inv_mass > 0.0)) return 0.0;
    const double allowed = closing / inv_mass, impulse = fl * dt;
    return impulse > allowed ? allowed / impulse : 1.0;
}

void dynamics_assemble(dynamics_vessel* v, const dynamics_env* env, nv_vec3* force, nv_vec3* torque, nv_vec3* water_force,
                       nv_vec3* water_torque) {
    const body* b = v->body;
    const dynamics_model* m = v->model;
    nv_mat3 rot = quat_to_mat3(b->orientation);
    hydro_sums s = v->sums;
    /* the speed ahead through the water, what the running table is in */
    const nv_vec3 ahead = v3(rot.m[0][0], rot.m[1][0], rot.m[2][0]);
    const double surge = v3_dot(v3_sub(b->velocity, v3(0.0, v->water_vertical, 0.0)), ahead);
    if (m && m->actuators.point_count > 0) {
        const nv_actuator_set* a = &m->actuators.set;
        v->throttle = nv_actuator_follow(v->throttle, v->throttle_cmd, a->throttle_rate, env->dt);
        v->rudder = nv_actuator_follow(v->rudder, v->rudder_cmd, a->rudder_rate, env->dt);
        double depth[DYNAMICS_ACTUATOR_POINTS];
        for (uint32_t i = 0; i < m->actuators.point_count; i++) depth[i] = v->actuator_depth[i];
        nv_mat3 rt = m3_transpose(&rot);
        nv_vec3 v_body = m3_mul_v3(&rt, v3_sub(b->velocity, v3(0.0, v->water_vertical, 0.0)));
        /* the columns sit at the rest draft: running, the mesh's stern rises */
        if (!v->triangles) dynamics_running_depths(&m->drag, &m->actuators, &rot, v_body.x, depth);
        nv_vec3 w_body = m3_mul_v3(&rt, b->angular_velocity);
        nv_vec3 fa, ta;
        nv_actuator_forces(&m->actuators, v->throttle, v->rudder, depth, v_body, w_body, m->hydro.c.water_density, &fa,
                           &ta);
        s.force = v3_add(s.force, fa);
        s.torque = v3_add(s.torque, ta);
    }
    if (m && m->roll_damping) {
        nv_mat3 rt = m3_transpose(&rot);
        double p = m3_mul_v3(&rt, b->angular_velocity).x;
        double u = m3_mul_v3(&rt, v3_sub(b->velocity, v3(0.0, v->water_vertical, 0.0))).x;
        s.torque.x += nv_roll_damper_moment(&m->roll, p, u, s.submerged_area);
    }
    if (m && m->manoeuvre) {
        nv_mat3 rt = m3_transpose(&rot);
        nv_vec3 vb = m3_mul_v3(&rt, v3_sub(b->velocity, v3(0.0, v->water_vertical, 0.0)));
        nv_vec3 wb = m3_mul_v3(&rt, b->angular_velocity);
        dynamics_manoeuvre_apply(m, vb, wb, v->triangles ? &v->sums : NULL, dynamics_added_share(m, s.submerged_area),
                                 &s.force, &s.torque);
    }
    double planing = 0.0; /* how far the planing lift has taken over (0..1) */
    if (m && m->planing && v->triangles) {
        nv_vec3 fp, tp;
        dynamics_planing_apply(m, b, &rot, v->water_vertical, env, &fp, &tp, &planing);
        s.force = v3_add(s.force, fp);
        s.torque = v3_add(s.torque, tp);
    } else if (m && m->planing) {
        /* the columns: their running table's damping carries the planing
         * lift's, as the mesh's lift does */
        planing = dynamics_running_share(&m->drag, surge);
    }
    /* One rotation per vessel: the blocks summed in the body frame. */
    hydro_sums_to_world(&s, &rot);
    nv_vec3 f = s.force, t = s.torque;
    if (m && m->heave_pitch_damping) {
        /* Heave is the vertical motion relative to the water and pitch the
         * turn about the horizontal axis across the bow, whatever the heel:
         * it is they that make waves (a capsized hull's own y and z axes
         * would damp its sway and yaw). */
        nv_vec3 bow = v3(rot.m[0][0], rot.m[1][0], rot.m[2][0]);
        double across = sqrt(bow.x * bow.x + bow.z * bow.z);
        nv_vec3 axis = across > 0.0 ? v3(bow.z / across, 0.0, -bow.x / across) : v3(0.0, 0.0, 0.0);
        double fy, moment;
        nv_heave_pitch_damper_apply(&m->heave_pitch, b->velocity.y - v->water_vertical, v3_dot(b->angular_velocity, axis),
                                    s.submerged_area, &fy, &moment);
        /* Planing, the bottom's lift damps heave and pitch (slender-body
         * theory, through the transom's penetration rate and its pitch
         * term): the displacement hull's radiated waves give way to it as
         * the lift comes in. */
        f.y += (1.0 - planing) * fy;
        t = v3_madd(t, axis, (1.0 - planing) * moment);
    }
    const nv_vec3 v_water = v3_sub(b->velocity, v3(0.0, v->water_vertical, 0.0));
    if (m && v3_is_finite(s.slam_force) && v3_is_finite(s.slam_torque)) {
        /* Slamming may stop the point where it acts within the step, never
         * throw it back (dynamics_impulse_share): capped at the whole mass
         * against the CG's speed, a hull landing on one side was spun over */
        const double k = dynamics_impulse_share(b, v_water, s.slam_force, s.slam_torque, env->dt);
        f = v3_madd(f, s.slam_force, k);
        t = v3_madd(t, s.slam_torque, k);
    } else if (m) {
        f = v3_add(f, s.slam_force); /* non-finite: let the caller contain the vessel */
    }
    const int entered = s.entry_force.x != 0.0 || s.entry_force.y != 0.0 || s.entry_force.z != 0.0 ||
                        !v3_is_finite(s.entry_torque);
    if (!m || !entered) {
        /* nothing entered the water this step (or the force is off) */
    } else if (v3_is_finite(s.entry_force) && v3_is_finite(s.entry_torque)) {
        const double k = dynamics_impulse_share(b, v_water, s.entry_force, s.entry_torque, env->dt);
        f = v3_madd(f, s.entry_force, k);
        t = v3_madd(t, s.entry_torque, k);
    } else {
        f = v3_add(f, v3_add(s.entry_force, s.entry_torque)); /* non-finite: let the caller contain the vessel */
    }
    if (m && (m->hydro.c.forces & HYDRODYN_AREA_DAMPING) && m->total_area > 0.0) {
        const nv_hydrodyn_coeffs* c = &m->hydro.c;
        double ratio = s.submerged_area / m->total_area;
        nv_vec3 vw = v3_sub(b->velocity, v3(0.0, v->water_vertical, 0.0));
        double sp = v3_length(vw), wn = v3_length(b->angular_velocity);
        f = v3_madd(f, vw, -b->mass * ratio * (c->damping_linear[0] + c->damping_linear[1] * sp));
        nv_mat3 iw = body_world_inertia(b);
        t = v3_madd(t, m3_mul_v3(&iw, b->angular_velocity),
                    -ratio * (c->damping_angular[0] + c->damping_angular[1] * wn));
    }
    *water_force = f;
    *water_torque = t;
    f.y -= b->mass * env->gravity;
    f = v3_madd(f, b->velocity, -env->linear_damping * b->mass);
    if (env->angular_damping > 0.0) {
        nv_mat3 iw = body_world_inertia(b);
        t = v3_madd(t, m3_mul_v3(&iw, b->angular_velocity), -env->angular_damping);
    }
    if (m && (m->hydro.c.forces & HYDRODYN_ADDED_MASS)) {
        /* Added mass enters the inertia only: every force, the weight
         * included, accelerates (1 + a) times the mass along that axis.
         * It is the water's, so it scales with the immersion: a hull
         * leaving a crest falls at g, not at g / (1 + a). */
        double share = dynamics_added_share(m, s.submerged_area);
        /* the columns are immersed to their rest area while the mesh they
         * stand for runs on the aft part of its bottom */
        if (!v->triangles) share *= dynamics_running_added_share(&m->drag, surge);
        f = dynamics_divide_added(&rot, f, v3_scale(m->hydro.c.added_mass, share));
        t = dynamics_divide_added(&rot, t, v3_scale(m->hydro.c.added_inertia, share));
    }
    *force = f;
    *torque = t;
}
