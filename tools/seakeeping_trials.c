// SPDX-License-Identifier: MIT
/* naval-seakeeping's trials at rest: roll decay and regular waves, one
 * world per trial (seakeeping_sim.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "naval/heave_pitch.h"
#include "naval/statics.h"
#include "naval/vecmath.h"
#include "seakeeping.h"
#include "seakeeping_sim.h"

/* ---- roll decay -------------------------------------------------------- */

typedef struct sk_peak {
    double t, v;
} sk_peak;

/* Local extrema of y (one sample per dt) away from zero, refined by a
 * parabola through three samples, alternating in sign (of two peaks of one
 * sign in a row the larger stays). */
static int sk_peaks(const double* y, size_t n, double dt, double floor_abs, sk_peak* out, int cap) {
    int count = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        int is_max = y[i] >= y[i - 1] && y[i] > y[i + 1] && y[i] > floor_abs;
        int is_min = y[i] <= y[i - 1] && y[i] < y[i + 1] && y[i] < -floor_abs;
        if (!is_max && !is_min) continue;
        double den = y[i - 1] - 2.0 * y[i] + y[i + 1], off = 0.0;
        if (den != 0.0) off = 0.5 * (y[i - 1] - y[i + 1]) / den;
        if (off > 0.5) off = 0.5;
        if (off < -0.5) off = -0.5;
        sk_peak p = {((double)i + off) * dt, y[i] - 0.25 * (y[i - 1] - y[i + 1]) * off};
        if (count > 0 && (out[count - 1].v > 0.0) == (p.v > 0.0)) {
            if (fabs(p.v) > fabs(out[count - 1].v)) out[count - 1] = p;
            continue;
        }
        if (count == cap) break;
        out[count++] = p;
    }
    return count;
}

void sk_run_decay(const sk_type* t, double release_deg, sk_decay* out) {
    memset(out, 0, sizeof *out);
    out->release_deg = release_deg;
    sk_sim s;
    if (sk_sim_make(&s, t)) return;
    nv_quat q = quat_from_axis_angle(v3(1.0, 0.0, 0.0), release_deg * SK_RAD);
    if (sk_sim_spawn(&s, t, q)) {
        nv_world_destroy(s.w);
        return;
    }
    double rest_y;
    nv_error err;
    if (nv_statics_balance_height_of(nv_world_hull_type(s.w, s.type), t->rho, t->g, quat_identity(), &rest_y, &err))
        rest_y = sk_sim_state(&s).position.y;
    /* 16 natural periods, or until the roll has died below half a degree */
    size_t cap = (size_t)(16.0 * t->p.roll_period * s.hz) + 2;
    double* heel = malloc(cap * sizeof *heel);
    if (!heel) {
        nv_world_destroy(s.w);
        return;
    }
    size_t n = 0;
    heel[n++] = release_deg;
    double window_max = 0.0;
    size_t window_steps = (size_t)(t->p.roll_period * s.hz) + 1;
    while (n < cap) {
        nv_world_step(s.w);
        nv_world_vessel_state st = sk_sim_state(&s);
        double h;
        nv_statics_attitude(st.orientation, &h, NULL, NULL);
        heel[n++] = h;
        if (fabs(st.position.y - rest_y) > out->heave_max) out->heave_max = fabs(st.position.y - rest_y);
        if (nv_world_capsized(st.orientation) || (st.flags & WORLD_VESSEL_FROZEN)) {
            out->capsized = 1;
            break;
        }
        if (fabs(h) > window_max) window_max = fabs(h);
        if (n % window_steps == 0) {
            if (window_max < 0.5 && n > 3 * window_steps) break;
            window_max = 0.0;
        }
    }
    out->steps = n - 1;
    nv_world_destroy(s.w);
    sk_peak peaks[2 * SK_MAX_CYCLES + 2];
    /* skip the release itself (sample 0): the first peak is the first swing's end */
    int np = sk_peaks(heel, n, 1.0 / s.hz, 0.3, peaks, 2 * SK_MAX_CYCLES + 2);
    free(heel);
    for (int j = 0; j + 2 < np && out->count < SK_MAX_CYCLES; j++) {
        double a = fabs(peaks[j].v), b = fabs(peaks[j + 2].v);
        if (!(a > 0.0 && b > 0.0)) continue;
        double d = log(a / b);
        sk_cycle* c = &out->cycle[out->count++];
        c->amp_mean = 0.5 * (a + b);
        c->zeta = d / sqrt(4.0 * NV_PI * NV_PI + d * d);
        c->period = peaks[j + 2].t - peaks[j].t;
    }
}

/* ---- regular waves ----------------------------------------------------- */

/* The captive test: the hull held upright where it floats at rest, the waves
 * at their full amplitude passing it over one period (SK_EXCITATION_PHASES
 * instants); the first harmonic of the roll moment the water puts on it
 * over the moment the whole wave slope would, rho g V GM k a. The steps
 * after this set the waves' time and amplitude again. */
#define SK_EXCITATION_PHASES 32
static double sk_excitation(sk_sim* s, const sk_type* t, const sk_wave_case* c, double omega, double k) {
    const nv_world_vessel_state st = sk_sim_state(s);
    double moment[SK_EXCITATION_PHASES], when[SK_EXCITATION_PHASES];
    s->sine.amplitude = c->amplitude;
    for (int j = 0; j < SK_EXCITATION_PHASES; j++) {
        when[j] = c->period * j / SK_EXCITATION_PHASES;
        nv_water_sine_set_time(&s->sine, when[j]);
        nv_vec3 f, m;
        nv_error err;
        if (nv_world_type_water_load(s->w, s->type, st.position, st.orientation, &f, &m, &err)) return NAN;
        moment[j] = v3_dot(m, quat_rotate(st.orientation, v3(1.0, 0.0, 0.0))); /* about the body's x */
    }
    s->sine.amplitude = 0.0;
    nv_water_sine_set_time(&s->sine, 0.0);
    const double whole = t->rho * t->g * t->p.volume * t->p.gm_t * k * c->amplitude;
    return whole > 0.0 ? sk_first_harmonic(moment, when, SK_EXCITATION_PHASES, omega) / whole : NAN;
}

void sk_run_wave(const sk_type* t, const sk_wave_case* c, sk_wave* out) {
    memset(out, 0, sizeof *out);
    out->c = *c;
    double omega = 2.0 * NV_PI / c->period;
    out->k = omega * omega / t->g;
    out->wavelength = 2.0 * NV_PI / out->k;
    sk_sim s;
    if (sk_sim_make(&s, t)) return;
    /* Waves from mu off the bow (from starboard) travel along (cos mu, -sin mu)
     * in (x, z): a direction of mu radians as headings. */
    if (sk_sim_spawn(&s, t, quat_identity()) ||
        sk_sim_waves(&s, t, c->amplitude, out->wavelength, c->heading_deg * SK_RAD, 3.0 * c->period)) {
        nv_world_destroy(s.w);
        return;
    }
    out->excitation = sk_excitation(&s, t, c, omega, out->k);
    uint64_t total = (uint64_t)llround(c->cycles * c->period * s.hz);
    uint64_t window = (uint64_t)llround(c->window * c->period * s.hz);
    if (window > total) window = total;
    uint64_t first = total - window;
    double* roll = malloc((size_t)(window + 1) * sizeof *roll);
    double* heave = malloc((size_t)(window + 1) * sizeof *heave);
    double* pitch = malloc((size_t)(window + 1) * sizeof *pitch);
    double* time = malloc((size_t)(window + 1) * sizeof *time);
    if (!roll || !heave || !pitch || !time) goto done;
    nv_world_vessel_state st = sk_sim_state(&s);
    nv_vec3 start = st.position;
    double yaw0 = sk_yaw(st.orientation), yaw = yaw0;
    /* the soft yaw restraint (seakeeping.h): critically damped, natural period c->yaw_period */
    double wy = c->yaw_period > 0.0 ? 2.0 * NV_PI / c->yaw_period : 0.0, dt = 1.0 / s.hz;
    uint64_t m = 0;
    for (uint64_t i = 0; i < total; i++) {
        if (wy > 0.0) {
            /* sk_yaw grows toward +z: its rate is minus the world angular velocity's vertical part */
            double psi = yaw - yaw0, r = -st.angular_velocity.y;
            r += dt * (-wy * wy * psi - 2.0 * wy * r);
            nv_vec3 w = st.angular_velocity;
            w.y = -r;
            nv_error err;
            nv_world_set_velocity(s.w, s.id, st.velocity, w, &err);
        }
        nv_world_step(s.w);
        st = sk_sim_state(&s);
        double heel, trim;
        nv_statics_attitude(st.orientation, &heel, &trim, NULL);
        yaw = sk_unwrap(yaw, sk_yaw(st.orientation));
        double dpsi = fabs(yaw - yaw0) * SK_DEG;
        if (dpsi > out->yaw_max) out->yaw_max = dpsi;
        if (i >= first && dpsi > out->yaw_window) out->yaw_window = dpsi;
        if (fabs(heel) > out->roll_max) out->roll_max = fabs(heel);
        out->steps = i + 1;
        if (nv_world_capsized(st.orientation) || (st.flags & WORLD_VESSEL_FROZEN)) {
            out->capsized = 1;
            break;
        }
        if (i >= first) {
            roll[m] = heel, heave[m] = st.position.y, pitch[m] = trim, time[m] = nv_world_time(s.w);
            m++;
        }
    }
    out->yaw_drift = (yaw - yaw0) * SK_DEG;
    out->drift = hypot(st.position.x - start.x, st.position.z - start.z);
    if (out->capsized || m < 8) goto done;
    /* first harmonic at the wave frequency */
    out->roll = sk_first_harmonic(roll, time, m, omega);
    out->heave = sk_first_harmonic(heave, time, m, omega);
    out->pitch = sk_first_harmonic(pitch, time, m, omega);
    /* the steady amplitude: half the swing between successive extremes of
     * the heel (less its mean) over the window, averaged. It does not assume
     * the roll keeps the wave's period: a hull that drifts with the waves
     * meets them at a longer period than they have. */
    double mean = 0.0;
    for (uint64_t i = 0; i < m; i++) mean += roll[i];
    mean /= (double)m;
    for (uint64_t i = 0; i < m; i++) roll[i] -= mean;
    int cap = 4 * (int)ceil(c->window) + 16, periods = 0;
    sk_peak* peaks = malloc((size_t)cap * sizeof *peaks);
    double sum = 0.0;
    int np = peaks ? sk_peaks(roll, (size_t)m, 1.0 / s.hz, 0.05, peaks, cap) : 0;
    for (int j = 0; j + 1 < np; j++, periods++) sum += 0.5 * fabs(peaks[j].v - peaks[j + 1].v);
    free(peaks);
    out->roll_half_range = periods ? sum / periods : 0.0;
done:
    free(roll);
    free(heave);
    free(pitch);
    free(time);
    nv_world_destroy(s.w);
}

