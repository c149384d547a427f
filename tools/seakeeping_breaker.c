// SPDX-License-Identifier: MIT
/* naval-seakeeping's breaker strike: a hull at rest met by one breaking
 * crest, as the model tests after the 1979 Fastnet race struck their
 * models (docs/seakeeping.md, "Breaking crests"). One world per run
 * (seakeeping_sim.h). */
#include <math.h>
#include <string.h>

#include "naval/statics.h"
#include "naval/vecmath.h"
#include "seakeeping.h"
#include "seakeeping_sim.h"

/* The largest angle between the hull's up and the world's (heel or trim). */
static double sk_tilt_deg(nv_quat q) {
    const nv_vec3 up = quat_rotate(q, v3(0.0, 1.0, 0.0));
    const double c = up.y > 1.0 ? 1.0 : up.y < -1.0 ? -1.0 : up.y;
    return acos(c) * SK_DEG;
}

void sk_run_breaker(const sk_type* t, double height_ratio, double heading_deg, int breaking, sk_breaker* out) {
    memset(out, 0, sizeof *out);
    out->height_ratio = height_ratio;
    out->heading_deg = heading_deg;
    out->breaking = breaking;
    out->height = height_ratio * t->hull_length;
    out->wavelength = out->height / SK_BREAKER_STEEPNESS;
    const double k = 2.0 * NV_PI / out->wavelength, omega = sqrt(t->g * k), period = 2.0 * NV_PI / omega;
    out->speed = omega / k;
    /* the jet on this hull whether or not its type takes breaking crests at sea */
    sk_type struck = *t;
    struck.vt.dynamics.coeffs.forces |= HYDRODYN_BREAKING_CRESTS;
    t = &struck;
    sk_sim s;
    if (sk_sim_make(&s, t)) return;
    if (sk_sim_spawn(&s, t, quat_identity()) ||
        sk_sim_waves(&s, t, 0.5 * out->height, out->wavelength, heading_deg * SK_RAD, SK_BREAKER_RAMP * period)) {
        nv_world_destroy(s.w);
        return;
    }
    /* one crest breaks as it passes the hull: the window is a wave period */
    const double from = (SK_BREAKER_RAMP + SK_BREAKER_STEADY) * period;
    if (breaking) nv_water_sine_set_breaking(&s.sine, from, from + period);
    const uint64_t total = (uint64_t)llround((from + SK_BREAKER_AFTER * period) * s.hz);
    for (uint64_t i = 0; i < total; i++) {
        nv_world_step(s.w);
        const nv_world_vessel_state st = sk_sim_state(&s);
        const double tilt = sk_tilt_deg(st.orientation);
        if (nv_world_time(s.w) < from) {
            if (tilt > out->tilt_before) out->tilt_before = tilt;
        } else if (tilt > out->tilt_max) {
            out->tilt_max = tilt;
        }
        if (st.flags & WORLD_VESSEL_FROZEN) break;
    }
    out->rolled = out->tilt_max >= SK_BREAKER_ROLLED_DEG;
    out->done = 1;
    nv_world_destroy(s.w);
}
