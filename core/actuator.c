// SPDX-License-Identifier: MIT
#include "naval/actuator.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "naval/ranges.h"

void nv_actuator_set_init(nv_actuator_set* a) {
    memset(a, 0, sizeof *a);
    a->throttle_rate = 0.5;
    a->rudder_rate = 1.0;
}

/* "propellers[i].key: must be ..." from the row of naval/ranges.h. */
static int actuator_check(nv_error* err, const char* list, uint32_t i, const char* key, double v, nv_range_id id) {
    char why[256];
    if (nv_range_why(id, v, why, sizeof why) == 0) return 0;
    return nv_error_set(err, "%s[%u].%s: %s", list, i, key, why);
}

static int actuator_check3(nv_error* err, const char* list, uint32_t i, const char* key, nv_vec3 v, nv_range_id id) {
    const double c[3] = {v.x, v.y, v.z};
    for (int k = 0; k < 3; k++) {
        char elem[32];
        snprintf(elem, sizeof elem, "%s[%d]", key, k);
        if (actuator_check(err, list, i, elem, c[k], id)) return -1;
    }
    return 0;
}

int nv_actuator_set_validate(const nv_actuator_set* a, nv_error* err) {
    if (a->propeller_count > ACTUATOR_MAX_PROPELLERS)
        return nv_error_set(err, "propellers: at most %d (got %u)", ACTUATOR_MAX_PROPELLERS, a->propeller_count);
    if (a->rudder_count > ACTUATOR_MAX_RUDDERS)
        return nv_error_set(err, "rudders: at most %d (got %u)", ACTUATOR_MAX_RUDDERS, a->rudder_count);
    for (uint32_t i = 0; i < a->propeller_count; i++) {
        const nv_actuator_propeller* p = &a->propellers[i];
        if (actuator_check3(err, "propellers", i, "position", p->position, NV_RANGE_TYPE_COORDINATE) ||
            actuator_check3(err, "propellers", i, "direction", p->direction, NV_RANGE_TYPE_PROPELLER_DIRECTION))
            return -1;
        if (!(v3_length(p->direction) > 1e-6))
            return nv_error_set(err, "propellers[%u].direction: must not be the zero vector", i);
        if (actuator_check(err, "propellers", i, "max_thrust", p->max_thrust, NV_RANGE_TYPE_MAX_THRUST) ||
            actuator_check(err, "propellers", i, "reverse", p->reverse_fraction, NV_RANGE_TYPE_REVERSE) ||
            actuator_check(err, "propellers", i, "immersion", p->immersion, NV_RANGE_TYPE_IMMERSION) ||
            actuator_check(err, "propellers", i, "steering", p->steering_deg, NV_RANGE_TYPE_STEERING) ||
            actuator_check(err, "propellers", i, "diameter", p->diameter, NV_RANGE_TYPE_PROPELLER_DIAMETER))
            return -1;
    }
    for (uint32_t i = 0; i < a->rudder_count; i++) {
        const nv_actuator_rudder* r = &a->rudders[i];
        if (actuator_check3(err, "rudders", i, "position", r->position, NV_RANGE_TYPE_COORDINATE) ||
            actuator_check(err, "rudders", i, "area", r->area, NV_RANGE_TYPE_RUDDER_AREA) ||
            actuator_check(err, "rudders", i, "max_angle", r->max_angle_deg, NV_RANGE_TYPE_RUDDER_ANGLE) ||
            actuator_check(err, "rudders", i, "lift_slope", r->lift_slope, NV_RANGE_TYPE_LIFT_SLOPE) ||
            actuator_check(err, "rudders", i, "stall_angle", r->stall_angle_deg, NV_RANGE_TYPE_RUDDER_ANGLE) ||
            actuator_check(err, "rudders", i, "drag", r->drag_coefficient, NV_RANGE_TYPE_RUDDER_DRAG))
            return -1;
    }
    if (nv_range_check(NV_RANGE_TYPE_CONTROL_RATE, a->throttle_rate, "throttle_rate", err) ||
        nv_range_check(NV_RANGE_TYPE_CONTROL_RATE, a->rudder_rate, "rudder_rate", err))
        return -1;
    return 0;
}

void nv_actuator_model_init(nv_actuator_model* m, const nv_actuator_set* set, nv_vec3 cg) {
    memset(m, 0, sizeof *m);
    m->set = *set;
    const double deg = NV_PI / 180.0;
    for (uint32_t i = 0; i < set->propeller_count; i++) {
        m->propeller_offset[i] = v3_sub(set->propellers[i].position, cg);
        m->propeller_direction[i] = v3_normalize(set->propellers[i].direction);
        m->propeller_steer[i] = set->propellers[i].steering_deg * deg;
    }
    for (uint32_t i = 0; i < set->rudder_count; i++) {
        m->rudder_offset[i] = v3_sub(set->rudders[i].position, cg);
        m->rudder_max_angle[i] = set->rudders[i].max_angle_deg * deg;
        m->rudder_stall[i] = set->rudders[i].stall_angle_deg * deg;
    }
    for (uint32_t i = 0; i < set->propeller_count; i++) {
        double d = set->propellers[i].diameter;
        m->propeller_load[i] = d > 0.0 ? 8.0 / (NV_PI * d * d) : 0.0;
    }
    for (uint32_t i = 0; i < set->rudder_count; i++) {
        const nv_actuator_rudder* r = &set->rudders[i];
        int k = nv_actuator_race_of(set, i);
        m->race_propeller[i] = k;
        m->race_inflow[i] = 1.0;
        if (k < 0) continue;
        const nv_actuator_propeller* p = &set->propellers[k];
        nv_vec3 axis = v3_normalize(p->direction);
        double behind = -v3_dot(v3_sub(r->position, p->position), axis), radius = 0.5 * p->diameter;
        /* On an actuator disk's axis the velocity added at x behind it is
         * (1 + x / sqrt(x^2 + R^2)) / 2 of the far race's: 0.78-0.95 at
         * the usual half to one diameter. Ships' rudders meet less. The
         * MMG method's measured kappa epsilon (the race's increment at the
         * rudder over the far race's) is 0.55 for KVLCC2 (Yasukawa and
         * Yoshimura 2015) and 0.70 for the Seiun Maru (Yoshimura and
         * Masumoto 2012): the race contracts, mixes and is blocked by the
         * rudder itself. With the disk's value a hull slowing in a hard
         * turn kept its whole race: the patrol boat circled in 10 m at
         * 1.2 m/s (docs/hydrodynamics.md, "The propeller race"). */
        double disk = 0.5 * (1.0 + behind / sqrt(behind * behind + radius * radius));
        m->race_gain[i] = disk < ACTUATOR_RACE_AT_RUDDER ? disk : ACTUATOR_RACE_AT_RUDDER;
        /* The span from the area and the aspect ratio the lift slope
         * stands for (2 pi A / (A + 2) = slope); a slope of 2 pi or more
         * is a foil between end plates: the race covers its height. */
        double slope = r->lift_slope, span = 0.0;
        if (slope < 2.0 * NV_PI - 1e-9) span = sqrt(r->area * 2.0 * slope / (2.0 * NV_PI - slope));
        m->race_share[i] = span > p->diameter ? p->diameter / span : 1.0;
    }
    m->point_count = set->propeller_count + set->rudder_count;
}

void nv_actuator_model_set_block(nv_actuator_model* m, double block) {
    if (!(block > 0.0)) return;
    for (uint32_t i = 0; i < m->set.rudder_count; i++) {
        int k = m->race_propeller[i];
        if (k < 0) continue;
        const nv_actuator_propeller* p = &m->set.propellers[k];
        int centreline = fabs(p->position.z) < 0.5 * p->diameter;
        double w = centreline ? 0.50 * block - 0.05 : 0.55 * block - 0.20;
        w = w < 0.0 ? 0.0 : (w > 0.5 ? 0.5 : w);
        m->race_inflow[i] = 1.0 - w;
    }
}

int nv_actuator_race_of(const nv_actuator_set* set, uint32_t rudder) {
    if (rudder >= set->rudder_count) return -1;
    const nv_actuator_rudder* r = &set->rudders[rudder];
    int best = -1;
    double nearest = 0.0;
    for (uint32_t k = 0; k < set->propeller_count; k++) {
        const nv_actuator_propeller* p = &set->propellers[k];
        if (!(p->diameter > 0.0) || p->steering_deg > 0.0 || !(v3_length(p->direction) > 1e-9)) continue;
        nv_vec3 axis = v3_normalize(p->direction), rel = v3_sub(r->position, p->position);
        double behind = -v3_dot(rel, axis);
        double off = v3_length(v3_add(rel, v3_scale(axis, behind)));
        if (!(behind > 0.0) || off > 0.5 * p->diameter) continue;
        if (best < 0 || behind < nearest) {
            best = (int)k;
            nearest = behind;
        }
    }
    return best;
}

void nv_actuator_model_set_mid(nv_actuator_model* m, double mid_ahead) {
    m->mid_ahead = isfinite(mid_ahead) ? mid_ahead : 0.0;
}

nv_vec3 nv_actuator_point(const nv_actuator_model* m, uint32_t i) {
    return i < m->set.propeller_count ? m->propeller_offset[i] : m->rudder_offset[i - m->set.propeller_count];
}

double nv_actuator_follow(double actual, double command, double rate, double dt) {
    double step = rate * dt;
    if (command > actual + step) return actual + step;
    if (command < actual - step) return actual - step;
    return command;
}

double nv_actuator_rudder_lift(double slope, double stall, double alpha) {
    double a = fabs(alpha), peak = slope * stall, cl;
    if (a <= stall)
        cl = slope * a;
    else if (a >= 2.0 * stall)
        cl = 0.5 * peak;
    else cl = peak * (1.0 - 0.5 * (a - stall) / stall);
    return alpha < 0.0 ? -cl : cl;
}

/* Thrust and lift fade in over this depth (m) when not given: a propeller
 * or rudder breaking the surface loses its grip gradually, not at once. */
static double actuator_immersion(double depth, double ramp) {
    if (!(depth > 0.0)) return 0.0;
    if (!(ramp > 0.0) || depth >= ramp) return 1.0;
    return depth / ramp;
}

/* Induced drag factor 1 / (pi e AR) for a rudder of aspect ratio ~1.5. */
#define ACTUATOR_INDUCED_DRAG 0.25
#define ACTUATOR_RUDDER_IMMERSION 0.3

/* A rudder's lift and drag meeting water that flows past it at -(vx, vz)
 * (body frame), over `share` of its wetted area. Right rudder (+) swings the trailing
 * edge to starboard, so the chord's leading edge points to port: the rudder
 * meets the water at alpha = drift + deflection. Lift acts at right angles
 * to the motion, to port of it for alpha > 0, pushing the stern to port and
 * the bow to starboard. */
static nv_vec3 actuator_rudder_force(const nv_actuator_rudder* r, double stall, double deflection, double vx, double vz,
                                     double water_density, double wet, double share) {
    double v2 = vx * vx + vz * vz;
    if (!(v2 > 1e-8) || !(share > 0.0)) return v3(0, 0, 0);
    double speed = sqrt(v2);
    double alpha = atan2(vz, vx) + deflection;
    double cl = nv_actuator_rudder_lift(r->lift_slope, stall, alpha);
    double cd = r->drag_coefficient + ACTUATOR_INDUCED_DRAG * cl * cl;
    double q = 0.5 * water_density * v2 * r->area * wet * share;
    double ux = vx / speed, uz = vz / speed; /* direction of motion */
    return v3(q * (cl * uz - cd * ux), 0.0, q * (-cl * ux - cd * uz));
}

/* The drift a rudder behind a hull and its screw meets, as the velocity
 * across its chord (body +z). Moving ahead, the hull and the screw
 * straighten the flow: the drift at mid-length (MMG's beta) and the yaw's
 * part on a lever lengthened from there reach the rudder reduced, as the
 * MMG method's v_R = U gamma_R (beta - l'_R r') has it. It was measured on
 * ships under way at drifts up to about 20 degrees, so it holds in full
 * while the flow meets the rudder within 30 degrees of ahead and its
 * weight falls to none for a rudder meeting the water abeam or from
 * astern (a hull moving sideways or astern). The roll's part is left as
 * it is: MMG has no roll. Only a rudder in a race takes it: the measured
 * values are of rudders behind screws, and a skiff's skeg, which is what
 * holds its stern, spun the boat in half its length with it
 * (docs/hydrodynamics.md, "Flow straightening"). */
#define ACTUATOR_STRAIGHT_COS 0.86602540378443864676 /* cos 30 degrees */

static double actuator_rudder_drift(const nv_actuator_model* m, nv_vec3 velocity, nv_vec3 angular_velocity, nv_vec3 at,
                                    double ahead) {
    const double mid = m->mid_ahead, roll = angular_velocity.x * at.y;
    const double drift = velocity.z - angular_velocity.y * mid, yaw = -angular_velocity.y * (at.x - mid);
    const double across = drift + yaw + roll, flow = sqrt(ahead * ahead + across * across);
    const double cosine = ahead > 0.0 && flow > 0.0 ? ahead / flow : 0.0;
    const double weight = cosine >= ACTUATOR_STRAIGHT_COS ? 1.0 : cosine / ACTUATOR_STRAIGHT_COS;
    const double gamma = 1.0 - (1.0 - ACTUATOR_FLOW_STRAIGHTENING) * weight;
    const double lever = 1.0 + (ACTUATOR_YAW_LEVER - 1.0) * weight;
    return gamma * (drift + lever * yaw) + roll;
}

void nv_actuator_forces(const nv_actuator_model* m, double throttle, double rudder, const double* depth, nv_vec3 velocity,
                        nv_vec3 angular_velocity, double water_density, nv_vec3* force, nv_vec3* torque) {
    nv_vec3 f_sum = v3(0, 0, 0), t_sum = v3(0, 0, 0);
    const nv_actuator_set* s = &m->set;
    double thrusts[ACTUATOR_MAX_PROPELLERS];
    for (uint32_t i = 0; i < s->propeller_count; i++) {
        const nv_actuator_propeller* p = &s->propellers[i];
        double thrust = throttle >= 0.0 ? throttle * p->max_thrust : throttle * p->max_thrust * p->reverse_fraction;
        thrust *= actuator_immersion(depth[i], p->immersion);
        thrusts[i] = thrust;
        nv_vec3 d = m->propeller_direction[i];
        if (m->propeller_steer[i] > 0.0) {
            /* swivelled about +y: at rudder +1 the thrust gains a -z (port)
             * part, pushing the stern to port and the bow to starboard */
            double swivel = rudder * m->propeller_steer[i], cs = cos(swivel), sn = sin(swivel);
            d = v3(d.x * cs + d.z * sn, d.y, -d.x * sn + d.z * cs);
        }
        nv_vec3 f = v3_scale(d, thrust);
        f_sum = v3_add(f_sum, f);
        t_sum = v3_add(t_sum, v3_cross(m->propeller_offset[i], f));
    }
    for (uint32_t i = 0; i < s->rudder_count; i++) {
        const nv_actuator_rudder* r = &s->rudders[i];
        nv_vec3 at = m->rudder_offset[i];
        nv_vec3 v = v3_add(velocity, v3_cross(angular_velocity, at));
        double wet = actuator_immersion(depth[s->propeller_count + i], ACTUATOR_RUDDER_IMMERSION);
        if (!(wet > 0.0)) continue;
        double deflection = rudder * m->rudder_max_angle[i];
        nv_vec3 f;
        int k = m->race_propeller[i];
        if (k < 0) {
            f = actuator_rudder_force(r, m->rudder_stall[i], deflection, v.x, v.z, water_density, wet, 1.0);
        } else {
            /* The hull's wake slows the axial inflow; the race, pushed aft
             * by ahead thrust only, adds to it over the share of the span
             * it covers (astern thrust throws its race forward, off the
             * rudder). */
            v.z = actuator_rudder_drift(m, velocity, angular_velocity, at, v.x);
            double inflow = m->race_inflow[i] * v.x, share = m->race_share[i];
            double ua = inflow > 0.0 ? inflow : 0.0;
            double thrust = thrusts[k] > 0.0 && water_density > 0.0 ? thrusts[k] : 0.0;
            double far = thrust > 0.0 ? sqrt(ua * ua + m->propeller_load[k] * thrust / water_density) : ua;
            double in_race = inflow + m->race_gain[i] * (far - ua);
            f = v3_add(actuator_rudder_force(r, m->rudder_stall[i], deflection, in_race, v.z, water_density, wet, share),
                       actuator_rudder_force(r, m->rudder_stall[i], deflection, inflow, v.z, water_density, wet,
                                             1.0 - share));
        }
        f_sum = v3_add(f_sum, f);
        t_sum = v3_add(t_sum, v3_cross(at, f));
    }
    *force = f_sum;
    *torque = t_sum;
}
