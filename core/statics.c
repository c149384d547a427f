// SPDX-License-Identifier: MIT
#include "naval/statics.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "hydro.h"
#include "vessel.h"

nv_statics_options nv_statics_options_default(void) {
    nv_statics_options o;
    memset(&o, 0, sizeof o);
    o.water_density = 1025.0;
    o.gravity = 9.81;
    o.dt = 1.0 / 60.0;
    o.max_time = 900.0;
    /* Released slightly heeled and trimmed: an upright hull that is unstable
     * (GM < 0) must show it by tipping, not sit on its unstable balance. */
    o.initial_tilt_axis = v3(1, 0, 0.5);
    o.initial_tilt_deg = 1.0;
    return o;
}

static double statics_clamp_unit(double x) { return x < -1.0 ? -1.0 : (x > 1.0 ? 1.0 : x); }

/* The world's up in the body frame: the middle row of R (body -> world),
 * whose columns are the body axes in the world (x bow, y up, z starboard). */
static nv_vec3 statics_up_in_body(nv_quat orientation) {
    nv_mat3 r = quat_to_mat3(orientation);
    return v3(r.m[1][0], r.m[1][1], r.m[1][2]);
}

/* Yaw about the world's up, then trim about the body's starboard axis,
 * then heel about the body's own bow axis: the world's up seen from the
 * body is u = (sin trim, cos trim cos heel, -cos trim sin heel), so
 * trim = asin(u.x) in [-90, 90] (the bow's elevation) and heel =
 * atan2(-u.z, u.y) in (-180, 180]: a hull floating keel-up reads 180, not
 * 0 as asin(-u.z) would. Standing on end (u.y = u.z = 0) the heel is
 * undefined and reads 0. */
void nv_statics_attitude(nv_quat orientation, double* heel_deg, double* trim_deg, double* tilt_deg) {
    nv_vec3 u = statics_up_in_body(orientation);
    const double deg = 180.0 / NV_PI;
    if (trim_deg) *trim_deg = asin(statics_clamp_unit(u.x)) * deg;
    if (heel_deg) {
        double heel = hypot(u.y, u.z) > 1e-12 ? atan2(-u.z, u.y) * deg : 0.0;
        *heel_deg = heel <= -180.0 ? heel + 360.0 : heel;
    }
    if (tilt_deg) *tilt_deg = acos(statics_clamp_unit(u.y)) * deg;
}

/* |heel| > 90 (u.y < 0) while |trim| < 60 (cos trim = |(u.y, u.z)| > 1/2). */
int nv_statics_capsized(nv_quat orientation) {
    nv_vec3 u = statics_up_in_body(orientation);
    return u.y < 0.0 && u.y * u.y + u.z * u.z > 0.25;
}

/* With the lid at the water level contributing nothing, the divergence
 * theorem turns volume integrals into sums over the submerged pieces:
 *   V          = -sum N_y (sum d) / 3
 *   int x dV   = -sum N_y int(d x dA) / A      (same for z)
 *   int (y - level) dV = sum N_y int(d^2 dA) / (2 A)     (d = level - y)
 * with the exact integrals of products of linear functions over a piece. */
double nv_statics_buoyancy_center(const nv_hull* h, const float* height, nv_vec3 position, const nv_mat3* rotation, double level,
                                  nv_vec3* center) {
    double volume = 0.0, mx = 0.0, mz = 0.0, md = 0.0;
    for (uint32_t t = 0; t < h->triangle_count; t++) {
        const uint32_t* tri = h->triangles + 3 * (size_t)t;
        nv_vec3 p[3];
        double hh[3];
        for (int i = 0; i < 3; i++) {
            p[i] = hydro_vertex_offset(h, rotation, tri[i]);
            hh[i] = height[tri[i]];
        }
        hydro_cut cut;
        hydro_cut_triangle(p, hh, &cut);
        for (int k = 0; k < cut.piece_count; k++) {
            const hydro_piece* pc = &cut.pieces[k];
            nv_vec3 n_area = v3_scale(v3_cross(v3_sub(pc->p[1], pc->p[0]), v3_sub(pc->p[2], pc->p[0])), 0.5);
            double s = pc->depth[0] + pc->depth[1] + pc->depth[2];
            double s2 = pc->depth[0] * pc->depth[0] + pc->depth[1] * pc->depth[1] + pc->depth[2] * pc->depth[2];
            double sx = pc->p[0].x + pc->p[1].x + pc->p[2].x, sz = pc->p[0].z + pc->p[1].z + pc->p[2].z;
            double dx = pc->depth[0] * pc->p[0].x + pc->depth[1] * pc->p[1].x + pc->depth[2] * pc->p[2].x;
            double dz = pc->depth[0] * pc->p[0].z + pc->depth[1] * pc->p[1].z + pc->depth[2] * pc->p[2].z;
            volume -= n_area.y * s / 3.0;
            mx -= n_area.y * (dx + s * sx) / 12.0;
            mz -= n_area.y * (dz + s * sz) / 12.0;
            md += n_area.y * (s2 + s * s) / 24.0;
        }
    }
    if (center) {
        if (volume > 0.0) {
            /* md integrates (y - level) = -d over the volume */
            *center = v3(position.x + mx / volume, level + md / volume, position.z + mz / volume);
        } else {
            *center = position;
        }
    }
    return volume;
}

/* Upward hydrostatic force minus weight at CG height y and attitude q. */
static double statics_net_lift(vessel* v, const nv_water_surface* water, const vessel_env* env, double y, nv_quat q) {
    vessel_place(v, v3(0, y, 0), q);
    vessel_update_hydrostatics(v, water, env);
    return v->hydro.force.y - v->body.mass * env->gravity;
}

static double statics_extent(const nv_hull* h) {
    double extent = 0.0;
    for (int a = 0; a < 3; a++) extent = fmax(extent, fmax(fabs(h->bounds_min[a]), fabs(h->bounds_max[a])));
    return extent;
}

/* Bisection on the CG height for zero net lift on flat water at 0: the
 * lift falls monotonically as the hull rises. */
static double statics_balance_height(vessel* v, const nv_water_surface* water, const vessel_env* env, nv_quat q) {
    double extent = statics_extent(v->hull);
    double lo = -2.0 * extent - 1.0, hi = 2.0 * extent + 1.0; /* fully under .. fully dry */
    for (int i = 0; i < 100 && hi - lo > 1e-12 * (1.0 + extent); i++) {
        double mid = 0.5 * (lo + hi);
        if (statics_net_lift(v, water, env, mid, q) > 0.0) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

static int statics_check_floats(const nv_hull* h, double water_density, nv_error* err) {
    double capacity = water_density * h->mesh_props.volume;
    if (h->body.mass >= capacity)
        return nv_error_set(err,
                            "the hull sinks: its mass %.6g kg is not less than the %.6g kg of water its whole volume "
                            "displaces at %g kg/m^3",
                            h->body.mass, capacity, water_density);
    return 0;
}

/* The thinnest film a hull may float on, upright, as a fraction of its
 * extent from the CG: the hull's vertices are floats relative to the CG
 * (24-bit mantissa: rounded by up to about 6e-8 x extent), so a "flat"
 * bottom is uneven by that much, and a draft of 1e-4 x extent keeps that
 * within 0.1 % of it. A lighter hull is refused, by its mass, with the
 * least mass that floats that deep. */
#define STATICS_MIN_DRAFT 1e-4
/* Largest omega x dt of the release's step, omega the fastest of heave,
 * roll and pitch (the explicit damping near critical included). */
#define STATICS_STEP_OMEGA 0.2

static double statics_lowest_height(const vessel* v) {
    double lowest = DBL_MAX;
    for (uint32_t i = 0; i < v->hull->vertex_count; i++) lowest = fmin(lowest, v->height[i]);
    return lowest;
}

/* Refuses a hull whose upright draft (at y_up, the balance height upright)
 * is under STATICS_MIN_DRAFT x extent. */
static int statics_check_draft(vessel* v, const nv_water_surface* water, const vessel_env* env, double y_up,
                               double extent, nv_error* err) {
    statics_net_lift(v, water, env, y_up, quat_identity());
    double draft = fmax(-statics_lowest_height(v), 0.0), least = STATICS_MIN_DRAFT * extent;
    if (draft >= least) return 0;
    /* Heights move rigidly with the CG: lower it until the lowest point is
     * `least` deep and weigh the water displaced there. */
    double lift = statics_net_lift(v, water, env, y_up - (least - draft), quat_identity()) + v->body.mass * env->gravity;
    return nv_error_set(err,
                        "mass %.6g kg is too light for this hull: it would float on %.3g mm, under the %.3g mm "
                        "(1e-4 of its %.3g m extent from the CG) the statics resolve; at least %.3g kg",
                        v->body.mass, 1e3 * draft, 1e3 * least, extent, lift / env->gravity);
}

/* The fastest natural frequency at (y, q), rad/s: heave (the lift's rate
 * per metre over the mass) and small roll and pitch about the CG (the
 * restoring, or capsizing, moment's rate per radian over the moment of
 * inertia about that axis). */
static double statics_fastest_frequency(vessel* v, const nv_water_surface* water, const vessel_env* env, double y,
                                        nv_quat q, double extent) {
    double dy = 1e-4 * (1.0 + extent);
    double heave = (statics_net_lift(v, water, env, y - dy, q) - statics_net_lift(v, water, env, y + dy, q)) / (2.0 * dy);
    double fastest = sqrt(fabs(heave) / v->body.mass);
    const double delta = 1e-3;
    const nv_vec3 axes[2] = {v3(1, 0, 0), v3(0, 0, 1)};
    for (int a = 0; a < 2; a++) {
        double moment[2];
        for (int k = 0; k < 2; k++) {
            statics_net_lift(v, water, env, y, quat_mul(quat_from_axis_angle(axes[a], k ? delta : -delta), q));
            moment[k] = v3_dot(v->hydro.torque, axes[a]);
        }
        nv_mat3 iw = body_world_inertia(&v->body);
        double inertia = v3_dot(axes[a], m3_mul_v3(&iw, axes[a]));
        if (inertia > 0.0) fastest = fmax(fastest, sqrt(fabs(moment[1] - moment[0]) / (2.0 * delta) / inertia));
    }
    return fastest;
}

int nv_statics_balance_height_of(const nv_hull* h, double water_density, double gravity, nv_quat orientation, double* y,
                                 nv_error* err) {
    if (statics_check_floats(h, water_density, err)) return -1;
    vessel v;
    if (vessel_init(&v, h, err)) return -1;
    nv_water_flat flat;
    nv_water_flat_init(&flat, 0.0);
    vessel_env env = vessel_env_default();
    env.water_density = water_density;
    env.gravity = gravity;
    *y = statics_balance_height(&v, &flat.base, &env, orientation);
    vessel_free(&v);
    return 0;
}

int nv_statics_find_equilibrium(const nv_hull* h, const nv_statics_options* opts, nv_statics_result* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    if (!(opts->dt > 0.0) || !(opts->max_time > 0.0) || !(opts->water_density > 0.0) || !(opts->gravity > 0.0))
        return nv_error_set(err, "equilibrium: density, gravity, time step and time limit must be positive");
    if (statics_check_floats(h, opts->water_density, err)) return nv_error_prefix(err, "equilibrium");
    nv_water_flat flat;
    nv_water_flat_init(&flat, 0.0);
    vessel_env env = vessel_env_default();
    env.water_density = opts->water_density;
    env.gravity = opts->gravity;
    vessel v;
    if (vessel_init(&v, h, err)) return -1;

    /* Release height: where the displacement carries the weight, upright
     * but for the perturbation. */
    nv_quat q0 = quat_from_axis_angle(opts->initial_tilt_axis, opts->initial_tilt_deg * NV_PI / 180.0);
    double extent = statics_extent(h);
    double y0 = statics_balance_height(&v, &flat.base, &env, q0);
    double y_up = statics_balance_height(&v, &flat.base, &env, quat_identity());
    if (statics_check_draft(&v, &flat.base, &env, y_up, extent, err)) {
        vessel_free(&v);
        return nv_error_prefix(err, "equilibrium");
    }
    /* Waterplane area from dV/dy gives the heave frequency, and the damping
     * is set near critical for heave so the release settles quickly. */
    double dy = 1e-4 * (1.0 + extent);
    double f_lo = statics_net_lift(&v, &flat.base, &env, y0 - dy, q0);
    double f_hi = statics_net_lift(&v, &flat.base, &env, y0 + dy, q0);
    double stiffness = (f_lo - f_hi) / (2.0 * dy);
    double omega = stiffness > 0.0 ? sqrt(stiffness / h->body.mass) : sqrt(opts->gravity / (extent + 1e-3));
    env.linear_damping = 1.4 * omega;
    env.angular_damping = 1.0 * omega;
    /* The step resolves the fastest of heave, roll and pitch, at release
     * and upright (a light hull released on a corner settles on a face: a
     * thin film is a stiff spring, which a step of 1/60 s would throw out
     * of the water); the built-in hulls at their masses keep opts->dt. */
    double fastest = fmax(statics_fastest_frequency(&v, &flat.base, &env, y0, q0, extent),
                          statics_fastest_frequency(&v, &flat.base, &env, y_up, quat_identity(), extent));
    double dt = fmin(opts->dt, STATICS_STEP_OMEGA / fastest);

    vessel_place(&v, v3(0, y0, 0), q0);
    /* Settled: slow and unforced for one full second (a turning point of an
     * oscillation is slow only for an instant). */
    double quiet = 0.0, t = 0.0;
    double v_tol = 1e-6 * (1.0 + extent), w_tol = 1e-7;
    while (t < opts->max_time) {
        vessel_step(&v, &flat.base, &env, dt);
        t += dt;
        if (!v3_is_finite(v.body.position) || !v3_is_finite(v.body.velocity)) {
            vessel_free(&v);
            return nv_error_set(err, "equilibrium: the simulation became non-finite after %.2f s", t);
        }
        int slow = v3_length(v.body.velocity) < v_tol && v3_length(v.body.angular_velocity) < w_tol;
        quiet = slow ? quiet + dt : 0.0;
        if (quiet >= 1.0) {
            out->settled = true;
            break;
        }
    }
    out->settle_time = t;

    vessel_update_hydrostatics(&v, &flat.base, &env);
    out->draft = -statics_lowest_height(&v);
    out->position = v.body.position;
    out->orientation = v.body.orientation;
    nv_statics_attitude(v.body.orientation, &out->heel_deg, &out->trim_deg, &out->tilt_deg);
    out->capsized = nv_statics_capsized(v.body.orientation) != 0;
    nv_vec3 cb_world;
    nv_mat3 r = body_rotation(&v.body), rt = m3_transpose(&r);
    out->displacement = nv_statics_buoyancy_center(h, v.height, v.body.position, &r, 0.0, &cb_world);
    /* Back to mesh coordinates: CG + R^T (B - position). */
    out->center_of_buoyancy = hull_body_to_mesh(h, m3_mul_v3(&rt, v3_sub(cb_world, v.body.position)));
    vessel_free(&v);
    return 0;
}
