// SPDX-License-Identifier: MIT
/* The far models' stand-in for the triangles (dynamics.h): the mesh's own
 * horizontal resistance fitted once per type, at rest and, for a planing
 * type, at its running attitude; applied to the columns and stepped for
 * the floaters. docs/lod.md, "Under way" and "Planing far models". */
#include "dynamics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "floater.h"
#include "naval/planing.h"

/* The mesh running steadily at u on still water, posed at Savitsky's trim
 * and rise for it (naval/planing.h: the attitude its planing lift gives it,
 * docs/hydrodynamics.md "The skiff against Savitsky"): the resistance along
 * the track (the triangle pass without slamming's memory or wind, and the
 * planing lift) and each actuator point's depth less its depth at rest.
 * Returns the resistance, N, or NAN where Savitsky's method finds no
 * planing equilibrium at u. The sway and yaw derivatives there go to
 * `lateral`, the roll, pitch and heave damping (the planing lift's
 * included) to `damping` (dynamics.h). */
static double dynamics_running_at(const dynamics_model* m, const nv_hull* h, const nv_particulars* pp, float* height,
                                  double u, double gravity, double lateral[4], double damping[3],
                                  double* depth_change, double* wetted) {
    const dynamics_planing* p = m->planing;
    const nv_hydrodyn_coeffs* c = &m->hydro.c;
    nv_planing_hull ph;
    nv_planing_hull_init(&ph);
    ph.beam = p->beam;
    ph.deadrise_deg = p->deadrise_deg;
    ph.lcg = -p->transom_x; /* the hull's body frame is about its CG */
    ph.vcg = -p->keel_y;
    ph.mass = h->body.mass;
    ph.speed = u;
    ph.thrust_below = m->actuators.set.propeller_count ? -nv_actuator_point(&m->actuators, 0).y : 0.0;
    ph.friction = 1;
    ph.static_height = pp->cg_height;
    ph.water_density = c->water_density;
    ph.gravity = gravity;
    ph.viscosity = c->viscosity;
    nv_planing_result r;
    nv_error ignored;
    if (nv_planing_solve(&ph, &r, &ignored)) return NAN;
    double tau = r.tau_deg * NV_PI / 180.0, st = sin(tau), ct = cos(tau);
    for (uint32_t i = 0; i < h->vertex_count; i++)
        height[i] = (float)(r.cg_height + (double)h->vx[i] * st + (double)h->vy[i] * ct);
    nv_mat3 rot = {{{ct, -st, 0.0}, {st, ct, 0.0}, {0.0, 0.0, 1.0}}}; /* bow up by tau about +z */
    nv_hydrodyn_model model = m->hydro;
    model.c.forces &= ~(uint32_t)(HYDRODYN_SLAMMING | HYDRODYN_AIR_DRAG);
    nv_hydrodyn_frame frame;
    nv_vec3 zero = v3(0.0, 0.0, 0.0);
    nv_hydrodyn_frame_init(&frame, &model, &rot, v3(u, 0.0, 0.0), zero, 0.0, zero, h->body.mass, h->total_area,
                           1.0 / 60.0);
    hydro_sums sums;
    hydro_sums_clear(&sums);
    hydro_triangle_pass(h, height, 0, h->triangle_count, c->water_density * gravity, &frame, NULL, &sums, NULL);
    *wetted = pp->wetted_area > 0.0 ? fmin(sums.submerged_area / pp->wetted_area, 1.0) : 1.0;
    nv_vec3 fp, tp;
    double d = -(r.cg_height + p->transom_x * st + p->keel_y * ct);
    dynamics_planing_lift(m, tau, d, u, 0.0, v3(u * ct, -u * st, 0.0), zero, gravity, &fp, &tp);
    nv_vec3 f = v3_add(sums.force, fp); /* body frame */
    /* a drift of 3 degrees and the yaw rate that turns the ends as fast
     * (the planing lift does not depend on either) */
    double length = (double)h->bounds_max[0] - (double)h->bounds_min[0];
    double dv = 0.05 * u, dr = 2.0 * dv / length;
    hydro_sums drift, turn;
    hydro_sums_clear(&drift);
    hydro_sums_clear(&turn);
    nv_hydrodyn_frame_init(&frame, &model, &rot, v3(u, 0.0, dv), zero, 0.0, zero, h->body.mass, h->total_area,
                           1.0 / 60.0);
    hydro_triangle_pass(h, height, 0, h->triangle_count, c->water_density * gravity, &frame, NULL, &drift, NULL);
    nv_hydrodyn_frame_init(&frame, &model, &rot, v3(u, 0.0, 0.0), v3(0.0, dr, 0.0), 0.0, zero, h->body.mass,
                           h->total_area, 1.0 / 60.0);
    hydro_triangle_pass(h, height, 0, h->triangle_count, c->water_density * gravity, &frame, NULL, &turn, NULL);
    lateral[0] = -(drift.force.z - sums.force.z) / dv;
    lateral[1] = -(turn.force.z - sums.force.z) / dr;
    /* the yaw moment about the vertical, not about the trimmed hull's y */
    lateral[2] = -(st * (drift.torque.x - sums.torque.x) + ct * (drift.torque.y - sums.torque.y)) / dv;
    lateral[3] = -(st * (turn.torque.x - sums.torque.x) + ct * (turn.torque.y - sums.torque.y)) / dr;
    /* roll about the hull's x, pitch about z, heave along the vertical:
     * the triangles' and the planing lift's change, per unit rate */
    const double rates[3] = {DYNAMICS_DAMPING_ROLL_RATE, DYNAMICS_DAMPING_PITCH_RATE, DYNAMICS_DAMPING_HEAVE_RATE};
    for (int j = 0; j < 3; j++) {
        nv_vec3 vw = v3(u, j == 2 ? rates[2] : 0.0, 0.0);
        nv_vec3 ww = j == 0 ? v3(ct * rates[0], st * rates[0], 0.0) : j == 1 ? v3(0.0, 0.0, rates[1]) : zero;
        hydro_sums moved;
        hydro_sums_clear(&moved);
        nv_hydrodyn_frame_init(&frame, &model, &rot, vw, ww, 0.0, zero, h->body.mass, h->total_area, 1.0 / 60.0);
        hydro_triangle_pass(h, height, 0, h->triangle_count, c->water_density * gravity, &frame, NULL, &moved, NULL);
        nv_vec3 fq, tq;
        nv_vec3 vbq = v3(ct * vw.x + st * vw.y, -st * vw.x + ct * vw.y, 0.0);
        nv_vec3 wbq = v3(ct * ww.x + st * ww.y, -st * ww.x + ct * ww.y, ww.z);
        dynamics_planing_lift(m, tau, d, u, 0.0, vbq, wbq, gravity, &fq, &tq);
        nv_vec3 df = v3_sub(v3_add(moved.force, fq), f), dt = v3_sub(v3_add(moved.torque, tq), v3_add(sums.torque, tp));
        damping[j] = j == 0 ? -dt.x / rates[0] : j == 1 ? -dt.z / rates[1] : -(st * df.x + ct * df.y) / rates[2];
        if (!isfinite(damping[j])) return NAN;
    }
    for (uint32_t i = 0; i < m->actuators.point_count; i++) {
        nv_vec3 a = nv_actuator_point(&m->actuators, i);
        depth_change[i] = -(r.cg_height + a.x * st + a.y * ct) + (pp->cg_height + a.y);
    }
    double resistance = -(ct * f.x - st * f.y);
    for (int k = 0; k < 4; k++)
        if (!isfinite(lateral[k])) return NAN;
    return isfinite(resistance) ? resistance : NAN;
}

/* The running table of a planing type (dynamics.h). */
static void dynamics_running_fit(dynamics_model* m, const nv_hull* h, const nv_particulars* pp, float* height,
                                 double gravity) {
    dynamics_hull_drag* d = &m->drag;
    d->running_count = 0;
    d->running_unit = 0.0;
    if (!m->planing || !(pp->cg_height == pp->cg_height)) return;
    double unit = sqrt(gravity * m->planing->beam);
    uint32_t first = DYNAMICS_RUNNING_SPEEDS;
    for (uint32_t k = 0; k < DYNAMICS_RUNNING_SPEEDS; k++) {
        double u = unit * (1.0 + DYNAMICS_RUNNING_STEP * k);
        double r = dynamics_running_at(m, h, pp, height, u, gravity, d->running_lateral[k], d->running_damping[k],
                                       d->running_depth[k], &d->running_wetted[k]);
        if (!(r > 0.0) || !(d->running_lateral[k][0] >= 0.0) || !(d->running_lateral[k][3] >= 0.0)) {
            if (first < DYNAMICS_RUNNING_SPEEDS) break; /* the table ends at the first gap */
            continue;                                    /* no equilibrium yet at the lowest speeds */
        }
        d->running_resistance[k] = r;
        d->running_count = k + 1;
        if (first == DYNAMICS_RUNNING_SPEEDS) first = k;
    }
    /* the speeds below the first equilibrium take its entry */
    for (uint32_t k = 0; k < first && k < d->running_count; k++) {
        d->running_resistance[k] = d->running_resistance[first];
        memcpy(d->running_lateral[k], d->running_lateral[first], sizeof d->running_lateral[k]);
        memcpy(d->running_damping[k], d->running_damping[first], sizeof d->running_damping[k]);
        memcpy(d->running_depth[k], d->running_depth[first], sizeof d->running_depth[k]);
        d->running_wetted[k] = d->running_wetted[first];
    }
    if (d->running_count >= 2) d->running_unit = unit;
    else d->running_count = 0;
    d->mass = h->body.mass;
}

/* The columns' stand-in for the triangles' resistance (dynamics.h). The
 * reference rates: surge at a Froude number of 1 on the hull's length,
 * sway at a quarter of that, yaw turning the ends at the sway rate. */
void dynamics_hull_drag_fit(dynamics_model* m, const nv_hull* h, double gravity) {
    memset(&m->drag, 0, sizeof m->drag);
    if (!m->per_triangle) return;
    nv_particulars own;
    const nv_particulars* pp = &m->particulars;
    nv_error ignored;
    if (!(pp->volume > 0.0)) {
        if (nv_particulars_compute(h, m->hydro.c.water_density, gravity, 0.0, &own, &ignored)) return;
        pp = &own;
    }
    double length = (double)h->bounds_max[0] - (double)h->bounds_min[0];
    if (!(length > 0.0) || !(pp->volume > 0.0)) return;
    float* height = malloc(sizeof *height * (h->vertex_count ? h->vertex_count : 1));
    if (!height) return;
    for (uint32_t i = 0; i < h->vertex_count; i++) height[i] = (float)(pp->cg_height + (double)h->vy[i]);
    double u = sqrt(gravity * length), v = 0.25 * u, r = 2.0 * v / length;
    nv_vec3 f1, f2, t1, t2, zero = v3(0.0, 0.0, 0.0);
    dynamics_triangle_motion(m, h, height, v3(u, 0.0, 0.0), zero, gravity, &f1, &t1);
    dynamics_triangle_motion(m, h, height, v3(0.5 * u, 0.0, 0.0), zero, gravity, &f2, &t2);
    dynamics_fit_resistance(u, -f1.x, -f2.x, m->drag.surge);
    dynamics_triangle_motion(m, h, height, v3(0.0, 0.0, v), zero, gravity, &f1, &t1);
    dynamics_triangle_motion(m, h, height, v3(0.0, 0.0, 0.5 * v), zero, gravity, &f2, &t2);
    dynamics_fit_resistance(v, -f1.z, -f2.z, m->drag.sway);
    m->drag.sway_yaw = -t1.y / v;
    dynamics_triangle_motion(m, h, height, zero, v3(0.0, r, 0.0), gravity, &f1, &t1);
    dynamics_triangle_motion(m, h, height, zero, v3(0.0, 0.5 * r, 0.0), gravity, &f2, &t2);
    dynamics_fit_resistance(r, -t1.y, -t2.y, m->drag.yaw);
    m->drag.yaw_sway = -f1.z / r;
    /* roll, pitch and heave damping at rest and at u / 2 and u ahead */
    const double rates[3] = {DYNAMICS_DAMPING_ROLL_RATE, DYNAMICS_DAMPING_PITCH_RATE, DYNAMICS_DAMPING_HEAVE_RATE};
    double at[3][3];
    for (int s = 0; s < 3; s++) {
        double ahead = s == 0 ? 0.0 : s == 1 ? 0.5 * u : u;
        nv_vec3 f0, t0, fj, tj;
        dynamics_triangle_motion(m, h, height, v3(ahead, 0.0, 0.0), zero, gravity, &f0, &t0);
        dynamics_triangle_motion(m, h, height, v3(ahead, 0.0, 0.0), v3(rates[0], 0.0, 0.0), gravity, &fj, &tj);
        at[0][s] = -(tj.x - t0.x) / rates[0];
        dynamics_triangle_motion(m, h, height, v3(ahead, 0.0, 0.0), v3(0.0, 0.0, rates[1]), gravity, &fj, &tj);
        at[1][s] = -(tj.z - t0.z) / rates[1];
        dynamics_triangle_motion(m, h, height, v3(ahead, rates[2], 0.0), zero, gravity, &fj, &tj);
        at[2][s] = -(fj.y - f0.y) / rates[2];
    }
    for (int j = 0; j < 3; j++) {
        m->drag.rest_damping[j] = isfinite(at[j][0]) ? at[j][0] : 0.0;
        dynamics_fit_resistance(u, at[j][2] - at[j][0], at[j][1] - at[j][0], m->drag.speed_damping[j]);
    }
    dynamics_running_fit(m, h, pp, height, gravity);
    free(height);
    m->drag.volume = pp->volume;
    m->drag.cg_height = pp->cg_height;
    m->drag.valid = 1;
}

/* How far a far model has taken on the running attitude at surge speed u,
 * as the mesh's planing lift comes in (nv_planing_weight, level), and
 * where u falls in the running table. */
static double dynamics_running_weight(const dynamics_hull_drag* d, double u, uint32_t* k, double* t) {
    if (!(d->running_count >= 2) || !(u > 0.0)) return 0.0;
    double cv = u / d->running_unit;
    double w = nv_planing_weight(cv, 0.0, 0.0);
    if (!(w > 0.0)) return 0.0;
    double x = (cv - 1.0) / DYNAMICS_RUNNING_STEP;
    if (!(x > 0.0)) x = 0.0;
    uint32_t i = (uint32_t)fmin(x, (double)(d->running_count - 2)); /* past the table: the last interval */
    *k = i;
    *t = x - (double)i; /* > 1 past the table: the resistance is extended, the rest held */
    return w;
}

double dynamics_running_share(const dynamics_hull_drag* d, double u) {
    uint32_t k;
    double t;
    return dynamics_running_weight(d, u, &k, &t);
}

double dynamics_running_added_share(const dynamics_hull_drag* d, double u) {
    uint32_t k;
    double t;
    double w = dynamics_running_weight(d, u, &k, &t);
    if (!(w > 0.0)) return 1.0;
    double run = d->running_wetted[k] + fmin(t, 1.0) * (d->running_wetted[k + 1] - d->running_wetted[k]);
    return (1.0 - w) + w * run;
}

double dynamics_hull_drag_surge(const dynamics_hull_drag* d, double u) {
    double rate = d->surge[0] + d->surge[1] * fabs(u);
    uint32_t k;
    double t;
    double w = dynamics_running_weight(d, u, &k, &t);
    if (!(w > 0.0)) return rate;
    double running = d->running_resistance[k] + t * (d->running_resistance[k + 1] - d->running_resistance[k]);
    return (1.0 - w) * rate + w * fmax(running, 0.0) / u;
}

void dynamics_running_depths(const dynamics_hull_drag* d, const nv_actuator_model* a, const nv_mat3* rot, double u,
                             double* depth) {
    uint32_t k;
    double t;
    double w = dynamics_running_weight(d, u, &k, &t);
    if (!(w > 0.0)) return;
    for (uint32_t i = 0; i < a->point_count; i++) {
        nv_vec3 p = nv_actuator_point(a, i);
        /* the model's own tilt lowers a point by p.y - (R p).y */
        double own = rot ? rot->m[1][0] * p.x + rot->m[1][1] * p.y + rot->m[1][2] * p.z - p.y : 0.0;
        double tt = fmin(t, 1.0);
        depth[i] += w * (d->running_depth[k][i] + tt * (d->running_depth[k + 1][i] - d->running_depth[k][i]) + own);
    }
}

/* The sway and yaw laws as a rate on their own velocity and a coupling
 * rate on the other's: force -(rate_v v + couple_v r), moment -(rate_r r +
 * couple_r v); at rest the fitted laws, running the running derivatives
 * blended in (dynamics.h). */
typedef struct dynamics_lateral {
    double rate_v, couple_v, rate_r, couple_r;
} dynamics_lateral;

static dynamics_lateral dynamics_lateral_at(const dynamics_hull_drag* d, double u, double v, double r) {
    dynamics_lateral l = {d->sway[0] + d->sway[1] * fabs(v), d->yaw_sway, d->yaw[0] + d->yaw[1] * fabs(r), d->sway_yaw};
    if (d->lateral_from_model) return (dynamics_lateral){0.0, 0.0, 0.0, 0.0}; /* dynamics_manoeuvre_apply's */
    uint32_t k;
    double t;
    double w = dynamics_running_weight(d, u, &k, &t);
    if (!(w > 0.0)) return l;
    double x[4], tt = fmin(t, 1.0);
    for (int i = 0; i < 4; i++)
        x[i] = d->running_lateral[k][i] + tt * (d->running_lateral[k + 1][i] - d->running_lateral[k][i]);
    /* Planing, the hull banks into a turn until its bottom's lift, tilted
     * with it, carries the turn (tan heel = u r / g: the mesh skiff heels
     * 3.7 degrees at 14.5 m/s and 2.36 degrees a second, 3.5 by that):
     * the level far models take that lift, m u r across, as given. */
    l.rate_v = (1.0 - w) * l.rate_v + w * x[0];
    l.couple_v = (1.0 - w) * l.couple_v + w * (x[1] + d->mass * u);
    l.couple_r = (1.0 - w) * l.couple_r + w * x[2];
    l.rate_r = (1.0 - w) * l.rate_r + w * x[3];
    return l;
}

/* What forward speed u adds to the damping of roll, pitch and heave
 * (dynamics.h: speed_damping; planing, the running attitude's blended in). */
static void dynamics_speed_damping(const dynamics_hull_drag* d, double u, double out[3]) {
    double s = fabs(u);
    for (int j = 0; j < 3; j++) out[j] = (d->speed_damping[j][0] + d->speed_damping[j][1] * s) * s;
    uint32_t k;
    double t;
    double w = dynamics_running_weight(d, u, &k, &t);
    if (!(w > 0.0)) return;
    double tt = fmin(t, 1.0);
    for (int j = 0; j < 3; j++) {
        double run = d->running_damping[k][j] + tt * (d->running_damping[k + 1][j] - d->running_damping[k][j]);
        out[j] = (1.0 - w) * out[j] + w * fmax(run - d->rest_damping[j], 0.0);
    }
}

void dynamics_hull_drag_apply(const dynamics_hull_drag* d, const nv_mat3* rot, nv_vec3 v, nv_vec3 w, double immersed,
                              nv_vec3* force, nv_vec3* torque) {
    /* The resistance ahead grows with the hull immersed, beyond its rest
     * volume too: a bow buried in a crest is what slows the mesh in a
     * seaway (capped at the rest volume, the column skiff ran faster in
     * waves than on flat water). The lateral laws and the damping stay at
     * the rest volume's: scaled past it, the bank's lift and the couplings
     * fed a column skiff's turn until it ran away. */
    double ks = d->valid && d->volume > 0.0 && isfinite(immersed) ? fmax(immersed / d->volume, 0.0) : 0.0;
    double k = fmin(ks, 1.0);
    dynamics_lateral l = dynamics_lateral_at(d, v.x, v.z, w.y);
    double extra[3];
    dynamics_speed_damping(d, v.x, extra);
    /* heave is the vertical motion through the water, whatever the trim:
     * the body's y would turn the speed ahead into a lift */
    const double(*r)[3] = rot->m;
    double heave = -k * extra[2] * (r[1][0] * v.x + r[1][1] * v.y + r[1][2] * v.z);
    *force = v3(-ks * dynamics_hull_drag_surge(d, v.x) * v.x + heave * r[1][0], heave * r[1][1],
                -k * (l.rate_v * v.z + l.couple_v * w.y) + heave * r[1][2]);
    /* roll and pitch about the body's own axes: it is the triangles'
     * pressure drag, fixed to the hull, that this stands for (about the
     * horizontal axis across the bow instead, as the wave-radiation damper
     * takes pitch, the columns' heading p99 against the mesh went from 26
     * to 29 degrees with 16 players and from 22 to 31 with one) */
    *torque = v3(-k * extra[0] * w.x, -k * (l.rate_r * w.y + l.couple_r * v.z), -k * extra[1] * w.z);
}

/* x' = (x + dt f / m) / (1 + dt (k1 + k2 |x|) / m): linear and quadratic
 * drag taken implicitly at the old |x|, so a light hull's stiff drag
 * cannot overshoot zero within a step. */
static double dynamics_implicit_step(double x, double push, double mass, const double k[2], double dt) {
    if (!(mass > 0.0)) return x;
    return (x + dt * push / mass) / (1.0 + dt * (k[0] + k[1] * fabs(x)) / mass);
}

int dynamics_floater_manoeuvre(const dynamics_model* m, body* b, double throttle_cmd, double rudder_cmd,
                               double* throttle, double* rudder, double dt) {
    if (!m || !m->drag.valid) return 0;
    const nv_actuator_set* a = &m->actuators.set;
    *throttle = nv_actuator_follow(*throttle, throttle_cmd, a->throttle_rate, dt);
    *rudder = nv_actuator_follow(*rudder, rudder_cmd, a->rudder_rate, dt);
    /* the hull level at its heading: the follower's heel and trim are the
     * sea's, not the manoeuvre's; the heading is the follower's own, which
     * the bow's bearing is not once the hull tilts */
    double heading = floater_heading_of(b->orientation);
    if (!isfinite(heading)) return 0;
    nv_vec3 ex = v3(cos(heading), 0.0, -sin(heading)), ez = v3(-ex.z, 0.0, ex.x); /* bow, starboard */
    double u = v3_dot(b->velocity, ex), v = v3_dot(b->velocity, ez), yaw = b->angular_velocity.y;
    nv_vec3 vb = v3(u, 0.0, v), wb = v3(0.0, yaw, 0.0);
    double depth[ACTUATOR_MAX_PROPELLERS + ACTUATOR_MAX_RUDDERS];
    for (uint32_t i = 0; i < m->actuators.point_count; i++)
        depth[i] = -(m->drag.cg_height + nv_actuator_point(&m->actuators, i).y);
    dynamics_running_depths(&m->drag, &m->actuators, NULL, u, depth);
    nv_vec3 fa = v3(0.0, 0.0, 0.0), ta = v3(0.0, 0.0, 0.0);
    if (m->actuators.point_count)
        nv_actuator_forces(&m->actuators, *throttle, *rudder, depth, vb, wb, m->hydro.c.water_density, &fa, &ta);
    if (m->manoeuvre) dynamics_manoeuvre_apply(m, vb, wb, NULL, 1.0, &fa, &ta);
    /* planing, its wetted hull is the aft part: so is its added mass */
    const double share = dynamics_running_added_share(&m->drag, u);
    const nv_vec3 am = v3_scale(m->hydro.c.added_mass, share), ai = v3_scale(m->hydro.c.added_inertia, share);
    const dynamics_hull_drag* d = &m->drag;
    /* the couplings explicit, as pushes */
    /* each rate at the old velocities, as the fitted laws' were */
    dynamics_lateral l = dynamics_lateral_at(d, u, v, yaw);
    const double surge[2] = {dynamics_hull_drag_surge(d, u), 0.0}, sway[2] = {l.rate_v, 0.0}, turn[2] = {l.rate_r, 0.0};
    double u1 = dynamics_implicit_step(u, fa.x, b->mass * (1.0 + am.x), surge, dt);
    double v1 = dynamics_implicit_step(v, fa.z - l.couple_v * yaw, b->mass * (1.0 + am.z), sway, dt);
    double r1 = dynamics_implicit_step(yaw, ta.y - l.couple_r * v, b->inertia.m[1][1] * (1.0 + ai.y), turn, dt);
    if (!isfinite(u1) || !isfinite(v1) || !isfinite(r1)) return 0;
    b->velocity.x = ex.x * u1 + ez.x * v1;
    b->velocity.z = ex.z * u1 + ez.z * v1;
    body_set_angular_velocity(b, v3(0.0, r1, 0.0));
    return 1;
}
