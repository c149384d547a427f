// SPDX-License-Identifier: MIT
/* naval-seakeeping's virtual oblique tow: the hull's own sway force and
 * yaw moment in a steady drift, the manoeuvring model's first input,
 * against Clarke's linear derivatives (docs/seakeeping.md, section 6). */
#include <math.h>
#include <string.h>

#include "naval/vecmath.h"
#include "seakeeping.h"
#include "seakeeping_sim.h"

const double sk_drift_speed_ratio[SK_DRIFT_SPEEDS] = {0.25, 0.5, 1.0};
const double sk_drift_angle[SK_DRIFT_ANGLES] = {-10.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 90.0};
const double sk_turn_rate[SK_TURN_RATES] = {-0.2, 0.1, 0.2, 0.4};

#define SK_DRIFT_SECONDS 30.0

void sk_run_drift(const sk_type* t, double speed, double drift_deg, double turn, sk_drift* out) {
    memset(out, 0, sizeof *out);
    out->speed = speed;
    out->drift_deg = drift_deg;
    out->turn = turn;
    if (!(speed > 0.0) || !(t->p.length > 0.0)) return;
    /* the hull alone: a rudder at 0 would lift in the drift */
    sk_type bare = *t;
    bare.vt.dynamics.actuators.rudder_count = 0;
    sk_sim s;
    if (sk_sim_make(&s, &bare)) return;
    nv_error err;
    if (sk_sim_spawn(&s, &bare, quat_identity())) {
        nv_world_destroy(s.w);
        return;
    }
    const double beta = drift_deg * SK_RAD;
    /* a turn to starboard grows the heading: about -y (+y turns the bow to port) */
    const double yaw_rate = -turn * speed / t->p.length;
    const uint64_t steps = (uint64_t)llround(SK_DRIFT_SECONDS * s.hz), from = steps / 2;
    double x = 0.0, y = 0.0, n = 0.0, heel = 0.0;
    uint64_t counted = 0;
    for (uint64_t i = 0; i < steps; i++) {
        nv_world_vessel_state st = sk_sim_state(&s);
        /* held along the heading it keeps (+x at the start, yaw rate 0) */
        double yaw = sk_yaw(st.orientation);
        nv_vec3 v = v3(speed * cos(yaw + beta), st.velocity.y, speed * sin(yaw + beta));
        nv_vec3 w = v3(st.angular_velocity.x, yaw_rate, st.angular_velocity.z);
        if (nv_world_set_velocity(s.w, s.id, v, w, &err)) break;
        nv_world_step(s.w);
        out->steps++;
        st = sk_sim_state(&s);
        if (nv_world_capsized(st.orientation) || (st.flags & WORLD_VESSEL_FROZEN)) break;
        if (i < from) continue;
        /* in the horizontal plane along and across the heading: the body
         * frame would tip the buoyancy into the sway by the heel */
        double h = sk_yaw(st.orientation), ch = cos(h), sh = sin(h);
        x += st.force.x * ch + st.force.z * sh;
        y += -st.force.x * sh + st.force.z * ch;
        n += st.torque.y;
        nv_vec3 up = quat_rotate(st.orientation, v3(0.0, 1.0, 0.0));
        heel += asin(fmax(-1.0, fmin(1.0, up.z))) * SK_DEG; /* + to starboard */
        counted++;
    }
    nv_world_destroy(s.w);
    if (counted == 0 || counted + from < steps) return;
    out->x = x / (double)counted;
    out->y = y / (double)counted;
    out->n = n / (double)counted;
    out->heel_deg = heel / (double)counted;
    double q = 0.5 * t->rho * t->p.length * t->p.draft * speed * speed;
    out->y_coef = q > 0.0 ? -out->y / q : 0.0;
    out->n_coef = q > 0.0 ? out->n / (q * t->p.length) : 0.0;
    /* a sway force -F (to port) at x ahead of the CG turns the bow by
     * x F about +y: the centre is n / -y, then from the mid-length */
    out->centre = fabs(out->y) > 0.0 ? (out->n / -out->y - t->mid_ahead) / t->p.length : 0.0;
    double my, mn;
    nv_manoeuvring_forces(&t->manoeuvring, speed * cos(beta), speed * sin(beta), yaw_rate, &my, &mn);
    out->model_y_coef = q > 0.0 ? -my / q : 0.0;
    out->model_n_coef = q > 0.0 ? mn / (q * t->p.length) : 0.0;
    out->model_centre = fabs(my) > 0.0 ? (mn / -my - t->mid_ahead) / t->p.length : 0.0;
    out->ok = 1;
}

double sk_clarke_sway(const nv_particulars* p, double beta) {
    if (!(p->length > 0.0) || !(p->draft > 0.0)) return 0.0;
    return NV_PI * (p->draft / p->length) * (1.0 + 0.40 * p->block * p->beam / p->draft) * beta;
}

double sk_clarke_centre(const nv_particulars* p) {
    if (!(p->length > 0.0) || !(p->draft > 0.0)) return 0.0;
    return (0.50 + 2.4 * p->draft / p->length) / (1.0 + 0.40 * p->block * p->beam / p->draft);
}
