// SPDX-License-Identifier: MIT
/* naval-seakeeping's simulations: one world per trial, one vessel, no job
 * pool (the tool runs the trials side by side instead), so every figure
 * is a pure function of the type and the trial's inputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "naval/heave_pitch.h"
#include "naval/statics.h"
#include "naval/vecmath.h"
#include "seakeeping.h"

#define SK_DEG (180.0 / NV_PI)
#define SK_RAD (NV_PI / 180.0)

int sk_type_load(sk_type* t, const char* spec, nv_error* err) {
    memset(t, 0, sizeof *t);
    snprintf(t->spec, sizeof t->spec, "%s", spec);
    /* A bare name is a built-in; anything else is what from_spec takes. */
    int bare = strchr(spec, '/') == NULL && strchr(spec, '.') == NULL && strncmp(spec, "builtin:", 8) != 0;
    if (bare ? nv_vessel_type_builtin(spec, &t->vt, err) : nv_vessel_type_from_spec(spec, &t->vt, err)) return -1;
    if (nv_vessel_type_load_mesh(&t->vt, &t->mesh, err)) return -1;
    nv_world_config cfg = nv_world_config_default();
    t->rho = cfg.water_density;
    t->g = cfg.gravity;
    t->tick_hz = cfg.tick_hz;
    t->nu = t->vt.dynamics.coeffs.viscosity;
    t->bk_length = t->vt.dynamics.coeffs.bilge_keel[0];
    t->bk_breadth = t->vt.dynamics.coeffs.bilge_keel[1];
    nv_world* w = NULL;
    uint32_t type = 0;
    int rc = -1;
    if (nv_world_create(&w, &cfg, NULL, err) ||
        nv_world_add_hull_type(w, t->vt.name, &t->mesh, &t->vt.mass, &type, err) ||
        nv_world_set_type_dynamics(w, type, &t->vt.dynamics, err))
        goto done;
    const nv_hull* h = nv_world_hull_type(w, type);
    t->hull_length = (double)h->bounds_max[0] - (double)h->bounds_min[0];
    const nv_particulars* p = nv_world_type_particulars(w, type);
    const nv_roll_damper* d = nv_world_type_roll_damper(w, type);
    if (!p || !d || !(p->roll_omega > 0.0)) {
        nv_error_set(err, "%s: no roll damping or no upright stability (the type needs \"roll_damping\" among its "
                          "forces and a positive GM)",
                     t->vt.name);
        goto done;
    }
    t->p = *p;
    t->damper = *d;
    const nv_heave_pitch_damper* hp = nv_world_type_heave_pitch_damper(w, type);
    if (hp) t->heave_pitch = *hp;
    rc = 0;
done:
    nv_world_destroy(w);
    return rc;
}

void sk_type_free(sk_type* t) { nv_mesh_free(&t->mesh); }

/* ---- one world, one vessel --------------------------------------------- */

typedef struct sk_sim {
    nv_world* w;
    uint32_t type, id;
    nv_water_sine sine;
    double amplitude, ramp; /* the waves' amplitude, reached after `ramp` s (smoothstep) */
    double hz;
} sk_sim;

static void sk_sim_wave_update(void* ctx, double time, nv_jobs* pool) {
    (void)pool;
    sk_sim* s = ctx;
    double f = s->ramp > 0.0 ? time / s->ramp : 1.0;
    f = f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
    s->sine.amplitude = s->amplitude * f * f * (3.0 - 2.0 * f);
    nv_water_sine_set_time(&s->sine, time);
}

static int sk_sim_make(sk_sim* s, const sk_type* t) {
    memset(s, 0, sizeof *s);
    nv_error err;
    nv_world_config cfg = nv_world_config_default();
    s->hz = cfg.tick_hz;
    if (nv_world_create(&s->w, &cfg, NULL, &err)) return -1;
    if (nv_world_add_hull_type(s->w, t->vt.name, &t->mesh, &t->vt.mass, &s->type, &err) ||
        nv_world_set_type_dynamics(s->w, s->type, &t->vt.dynamics, &err)) {
        nv_world_destroy(s->w);
        s->w = NULL;
        return -1;
    }
    return 0;
}

/* Floating at its balance height in orientation q, at rest, at the origin. */
static int sk_sim_spawn(sk_sim* s, const sk_type* t, nv_quat q) {
    nv_error err;
    double y;
    if (nv_statics_balance_height_of(nv_world_hull_type(s->w, s->type), t->rho, t->g, q, &y, &err)) return -1;
    return nv_world_spawn(s->w, s->type, v3(0.0, y, 0.0), q, &s->id, &err);
}

/* Regular waves (travelling toward `direction`, radians as headings) whose
 * amplitude ramps up over `ramp` seconds. s must not move afterwards. */
static int sk_sim_waves(sk_sim* s, const sk_type* t, double amplitude, double wavelength, double direction, double ramp) {
    if (nv_water_sine_init(&s->sine, 0.0, wavelength, direction, t->g)) return -1;
    s->amplitude = amplitude;
    s->ramp = ramp;
    nv_world_water water = {&s->sine.base, sk_sim_wave_update, s};
    nv_world_set_water(s->w, &water);
    return 0;
}

static nv_world_vessel_state sk_sim_state(const sk_sim* s) {
    nv_world_vessel_state st;
    memset(&st, 0, sizeof st);
    nv_world_vessel_get(s->w, s->id, &st);
    return st;
}

/* The bow's direction in the horizontal plane, radians, + toward +z
 * (starboard of a vessel heading +x): a turn to starboard grows it. */
static double sk_yaw(nv_quat q) {
    nv_vec3 bow = quat_rotate(q, v3(1.0, 0.0, 0.0));
    return atan2(bow.z, bow.x);
}

static double sk_unwrap(double prev, double now) {
    double d = now - fmod(prev, 2.0 * NV_PI);
    while (d > NV_PI) d -= 2.0 * NV_PI;
    while (d < -NV_PI) d += 2.0 * NV_PI;
    return prev + d;
}

/* The amplitude of the first harmonic at omega of y[0, n) sampled at
 * times t, y less its mean. */
static double sk_first_harmonic(const double* y, const double* t, uint64_t n, double omega) {
    double mean = 0.0, re = 0.0, im = 0.0;
    for (uint64_t i = 0; i < n; i++) mean += y[i];
    mean /= (double)n;
    for (uint64_t i = 0; i < n; i++) {
        re += (y[i] - mean) * cos(omega * t[i]);
        im += (y[i] - mean) * sin(omega * t[i]);
    }
    return 2.0 * hypot(re, im) / (double)n;
}

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

/* ---- manoeuvres -------------------------------------------------------- */

/* The rudder command for `deg` degrees of rudder: by the first rudder's
 * largest angle, or a steering drive's when the type has no rudder. */
static double sk_rudder_command(const sk_type* t, double deg) {
    const nv_actuator_set* a = &t->vt.dynamics.actuators;
    double max = 0.0;
    if (a->rudder_count > 0) max = a->rudders[0].max_angle_deg;
    for (uint32_t i = 0; max <= 0.0 && i < a->propeller_count; i++)
        if (a->propellers[i].steering_deg > 0.0) max = a->propellers[i].steering_deg;
    if (!(max > 0.0)) return 0.0;
    double c = deg / max;
    return c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c;
}

static double sk_speed(const nv_world_vessel_state* st) { return hypot(st->velocity.x, st->velocity.z); }

void sk_run_approach(const sk_type* t, sk_approach* out) {
    memset(out, 0, sizeof *out);
    sk_sim s;
    if (sk_sim_make(&s, t)) return;
    nv_error err;
    if (sk_sim_spawn(&s, t, quat_identity()) || nv_world_set_controls(s.w, s.id, 1.0, 0.0, &err)) {
        nv_world_destroy(s.w);
        return;
    }
    /* settled: the speed changed less than 0.2 % over the last 30 s, checked every 10 s */
    uint64_t every = (uint64_t)llround(10.0 * s.hz), cap = (uint64_t)llround(1800.0 * s.hz);
    double history[4] = {0, 0, 0, 0};
    int seen = 0;
    for (uint64_t i = 1; i <= cap; i++) {
        nv_world_step(s.w);
        out->steps = i;
        if (i % every) continue;
        nv_world_vessel_state st = sk_sim_state(&s);
        if (nv_world_capsized(st.orientation) || (st.flags & WORLD_VESSEL_FROZEN)) break;
        memmove(history, history + 1, 3 * sizeof *history);
        history[3] = sk_speed(&st);
        seen++;
        if (seen >= 4 && history[3] > 0.0 && fabs(history[3] - history[0]) < 0.002 * history[3]) {
            out->settled = 1;
            break;
        }
    }
    nv_world_vessel_state st = sk_sim_state(&s);
    out->speed = sk_speed(&st);
    out->time = nv_world_time(s.w);
    if (nv_world_export_vessel(s.w, 0, &out->rec) == 0) {
        if (out->rec.slam_count > 0 && out->rec.slam) {
            out->slam = malloc(out->rec.slam_count * sizeof *out->slam);
            if (out->slam) memcpy(out->slam, out->rec.slam, out->rec.slam_count * sizeof *out->slam);
        }
        out->rec.slam = out->slam;
        out->rec.flood = NULL;
        if (out->rec.slam_count > 0 && !out->slam) out->settled = 0;
    } else {
        out->settled = 0;
    }
    nv_world_destroy(s.w);
}

void sk_approach_free(sk_approach* a) {
    free(a->slam);
    a->slam = NULL;
}

/* A world holding the vessel as the approach left it. */
static int sk_sim_from_approach(sk_sim* s, const sk_type* t, const sk_approach* a) {
    if (!a->settled || sk_sim_make(s, t)) return -1;
    nv_error err;
    if (nv_world_restore_vessel(s->w, &a->rec, &err)) {
        nv_world_destroy(s->w);
        return -1;
    }
    s->id = a->rec.id;
    return 0;
}

/* ---- head seas under way ----------------------------------------------- */

const double sk_head_lambda_ratio[SK_HEAD_RUNS] = {0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.5, 3.0, 4.0};

void sk_run_head(const sk_type* t, const sk_approach* a, double lambda_ratio, double steepness, sk_head* out) {
    memset(out, 0, sizeof *out);
    out->lambda_ratio = lambda_ratio;
    out->wavelength = lambda_ratio * t->p.length;
    const double k = 2.0 * NV_PI / out->wavelength, omega = sqrt(k * t->g);
    out->period = 2.0 * NV_PI / omega;
    out->amplitude = 0.5 * steepness * out->wavelength;
    sk_sim s;
    if (sk_sim_from_approach(&s, t, a)) return;
    nv_error err;
    nv_world_vessel_state st = sk_sim_state(&s);
    /* waves from ahead travel against the bow */
    double heading = sk_yaw(st.orientation);
    if (nv_world_set_controls(s.w, s.id, 1.0, 0.0, &err) ||
        sk_sim_waves(&s, t, out->amplitude, out->wavelength, heading + NV_PI, 3.0 * out->period)) {
        nv_world_destroy(s.w);
        return;
    }
    const double encounter0 = 2.0 * NV_PI / (omega + k * a->speed);
    const uint64_t first = (uint64_t)llround((3.0 * out->period + 20.0 + 3.0 * encounter0) * s.hz);
    const uint64_t total = first + (uint64_t)llround(12.0 * encounter0 * s.hz);
    size_t cap = (size_t)(total - first + 1);
    double* heave = malloc(cap * sizeof *heave);
    double* pitch = malloc(cap * sizeof *pitch);
    double* time = malloc(cap * sizeof *time);
    if (!heave || !pitch || !time) goto done;
    double yaw0 = heading, yaw = heading, x0 = 0.0, z0 = 0.0;
    const double wy = 2.0 * NV_PI / (SK_YAW_RESTRAINT_PERIODS * t->p.roll_period), dt = 1.0 / s.hz;
    uint64_t m = 0;
    for (uint64_t i = 0; i < total; i++) {
        double psi = yaw - yaw0, r = -st.angular_velocity.y;
        r += dt * (-wy * wy * psi - 2.0 * wy * r);
        nv_vec3 w = st.angular_velocity;
        w.y = -r;
        nv_world_set_velocity(s.w, s.id, st.velocity, w, &err);
        nv_world_step(s.w);
        st = sk_sim_state(&s);
        yaw = sk_unwrap(yaw, sk_yaw(st.orientation));
        out->steps = i + 1;
        if (nv_world_capsized(st.orientation) || (st.flags & WORLD_VESSEL_FROZEN)) {
            out->capsized = 1;
            goto done;
        }
        if (i + 1 == first) x0 = st.position.x, z0 = st.position.z;
        if (i + 1 > first && m < cap) {
            double heel, trim;
            nv_statics_attitude(st.orientation, &heel, &trim, NULL);
            heave[m] = st.position.y, pitch[m] = trim, time[m] = nv_world_time(s.w);
            out->pitch_max_deg = fmax(out->pitch_max_deg, fabs(trim));
            m++;
        }
    }
    if (m < 8) goto done;
    out->speed = hypot(st.position.x - x0, st.position.z - z0) / (time[m - 1] - time[0] + dt);
    const double we = omega + k * out->speed;
    out->encounter = 2.0 * NV_PI / we;
    /* first harmonics at the encounter frequency */
    out->heave = sk_first_harmonic(heave, time, m, we) / out->amplitude;
    out->pitch = sk_first_harmonic(pitch, time, m, we) * SK_RAD / (k * out->amplitude);
    nv_heave_pitch_closed_form(omega, NV_PI, out->speed, t->p.length, t->p.beam, t->p.draft, t->p.block, t->g,
                               &out->jmo_heave, &out->jmo_pitch);
done:
    free(heave);
    free(pitch);
    free(time);
    nv_world_destroy(s.w);
}

/* Kasa's algebraic circle fit on points about their mean: the diameter, or -1. */
static double sk_circle_diameter(const double* x, const double* z, size_t n) {
    if (n < 8) return -1.0;
    double mx = 0.0, mz = 0.0;
    for (size_t i = 0; i < n; i++) mx += x[i], mz += z[i];
    mx /= (double)n, mz /= (double)n;
    /* minimise sum (u^2 + v^2 + D u + E v + F)^2: normal equations M p = r */
    double m[3][3] = {{0}}, r[3] = {0};
    for (size_t i = 0; i < n; i++) {
        double u = x[i] - mx, v = z[i] - mz, q = u * u + v * v, row[3] = {u, v, 1.0};
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++) m[a][b] += row[a] * row[b];
            r[a] -= row[a] * q;
        }
    }
    /* Cramer's rule on the 3 x 3 system */
    double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                 m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    if (!(fabs(det) > 1e-12)) return -1.0;
    double p[3];
    for (int c = 0; c < 3; c++) {
        double k[3][3];
        memcpy(k, m, sizeof k);
        for (int a = 0; a < 3; a++) k[a][c] = r[a];
        p[c] = (k[0][0] * (k[1][1] * k[2][2] - k[1][2] * k[2][1]) - k[0][1] * (k[1][0] * k[2][2] - k[1][2] * k[2][0]) +
                k[0][2] * (k[1][0] * k[2][1] - k[1][1] * k[2][0])) /
               det;
    }
    double cu = -0.5 * p[0], cv = -0.5 * p[1], r2 = cu * cu + cv * cv - p[2];
    return r2 > 0.0 ? 2.0 * sqrt(r2) : -1.0;
}

void sk_run_turn(const sk_type* t, const sk_approach* a, sk_turn* out) {
    memset(out, 0, sizeof *out);
    out->rudder_deg = 35.0;
    sk_sim s;
    if (sk_sim_from_approach(&s, t, a)) return;
    nv_error err;
    nv_world_vessel_state st = sk_sim_state(&s);
    double cmd = sk_rudder_command(t, 35.0);
    nv_world_set_controls(s.w, s.id, 1.0, cmd, &err);
    double yaw0 = sk_yaw(st.orientation), yaw = yaw0;
    nv_vec3 p0 = st.position;
    double ux = cos(yaw0), uz = sin(yaw0); /* along the approach; starboard is (-uz, ux) */
    double prev_turned = 0.0, prev_along = 0.0, prev_across = 0.0;
    uint64_t cap = (uint64_t)llround((1200.0 + 40.0 * t->hull_length / (a->speed > 0.5 ? a->speed : 0.5)) * s.hz);
    size_t keep = (size_t)cap, n = 0;
    double* x = malloc(keep * sizeof *x);
    double* z = malloc(keep * sizeof *z);
    double speed_sum = 0.0;
    if (!x || !z) goto done;
    for (uint64_t i = 1; i <= cap; i++) {
        nv_world_step(s.w);
        out->steps = i;
        st = sk_sim_state(&s);
        if (nv_world_capsized(st.orientation) || (st.flags & WORLD_VESSEL_FROZEN)) break;
        double heel;
        nv_statics_attitude(st.orientation, &heel, NULL, NULL);
        if (fabs(heel) > out->max_heel) out->max_heel = fabs(heel);
        yaw = sk_unwrap(yaw, sk_yaw(st.orientation));
        double turned = fabs(yaw - yaw0) * SK_DEG, time = (double)i / s.hz;
        double dx = st.position.x - p0.x, dz = st.position.z - p0.z;
        double along = dx * ux + dz * uz, across = -dx * uz + dz * ux;
        if (prev_turned < 90.0 && turned >= 90.0) {
            double f = (90.0 - prev_turned) / (turned - prev_turned);
            out->advance = prev_along + f * (along - prev_along);
            out->transfer = fabs(prev_across + f * (across - prev_across));
            out->time_90 = time - (1.0 - f) / s.hz;
        }
        if (prev_turned < 180.0 && turned >= 180.0) {
            double f = (180.0 - prev_turned) / (turned - prev_turned);
            out->tactical = fabs(prev_across + f * (across - prev_across));
            out->time_180 = time - (1.0 - f) / s.hz;
            out->done = 1;
        }
        if (turned >= 360.0) {
            x[n] = st.position.x, z[n] = st.position.z, n++;
            speed_sum += sk_speed(&st);
        }
        prev_turned = turned, prev_along = along, prev_across = across;
        if (turned >= 720.0) break;
    }
    if (n >= 8) {
        out->diameter = sk_circle_diameter(x, z, n);
        out->speed_in_turn = speed_sum / (double)n;
    }
done:
    free(x);
    free(z);
    nv_world_destroy(s.w);
}

void sk_run_zigzag(const sk_type* t, const sk_approach* a, double angle_deg, sk_zigzag* out) {
    memset(out, 0, sizeof *out);
    out->angle = angle_deg;
    sk_sim s;
    if (sk_sim_from_approach(&s, t, a)) return;
    nv_error err;
    nv_world_vessel_state st = sk_sim_state(&s);
    double cmd = sk_rudder_command(t, angle_deg);
    nv_world_set_controls(s.w, s.id, 1.0, cmd, &err);
    double yaw0 = sk_yaw(st.orientation), yaw = yaw0, track = 0.0;
    nv_vec3 last = st.position;
    /* phase 0: to starboard until +angle; 1: rudder to port, watching the
     * first overshoot, until -angle; 2: rudder to starboard, watching the
     * second, until the heading turns back */
    int phase = 0;
    double extreme = 0.0;
    uint64_t cap = (uint64_t)llround((600.0 + 60.0 * t->hull_length / (a->speed > 0.5 ? a->speed : 0.5)) * s.hz);
    for (uint64_t i = 1; i <= cap && !out->done; i++) {
        nv_world_step(s.w);
        out->steps = i;
        st = sk_sim_state(&s);
        if (nv_world_capsized(st.orientation) || (st.flags & WORLD_VESSEL_FROZEN)) break;
        track += hypot(st.position.x - last.x, st.position.z - last.z);
        last = st.position;
        yaw = sk_unwrap(yaw, sk_yaw(st.orientation));
        double psi = (yaw - yaw0) * SK_DEG;
        switch (phase) {
        case 0:
            if (psi >= angle_deg) {
                out->reach_initial = track;
                out->time_initial = (double)i / s.hz;
                nv_world_set_controls(s.w, s.id, 1.0, -cmd, &err);
                phase = 1;
                extreme = psi;
            }
            break;
        case 1:
            if (psi > extreme) extreme = psi;
            if (psi <= -angle_deg) {
                out->overshoot1 = extreme - angle_deg;
                nv_world_set_controls(s.w, s.id, 1.0, cmd, &err);
                phase = 2;
                extreme = psi;
            }
            break;
        default:
            if (psi < extreme) extreme = psi;
            if (psi > extreme + 0.5) { /* turned back: the overshoot is over */
                out->overshoot2 = -angle_deg - extreme;
                out->done = 1;
            }
            break;
        }
    }
    nv_world_destroy(s.w);
}

void sk_run_stop(const sk_type* t, const sk_approach* a, sk_stop* out) {
    memset(out, 0, sizeof *out);
    sk_sim s;
    if (sk_sim_from_approach(&s, t, a)) return;
    nv_error err;
    nv_world_vessel_state st = sk_sim_state(&s);
    nv_world_set_controls(s.w, s.id, -1.0, 0.0, &err);
    double yaw0 = sk_yaw(st.orientation), ux = cos(yaw0), uz = sin(yaw0);
    nv_vec3 p0 = st.position, last = p0;
    double track = 0.0;
    uint64_t cap = (uint64_t)llround(1800.0 * s.hz);
    for (uint64_t i = 1; i <= cap; i++) {
        nv_world_step(s.w);
        out->steps = i;
        st = sk_sim_state(&s);
        if (nv_world_capsized(st.orientation) || (st.flags & WORLD_VESSEL_FROZEN)) break;
        track += hypot(st.position.x - last.x, st.position.z - last.z);
        last = st.position;
        nv_vec3 bow = quat_rotate(st.orientation, v3(1.0, 0.0, 0.0));
        double ahead = st.velocity.x * bow.x + st.velocity.z * bow.z;
        if (ahead <= 0.0) {
            double dx = st.position.x - p0.x, dz = st.position.z - p0.z;
            out->track_reach = track;
            out->head_reach = dx * ux + dz * uz;
            out->lateral = fabs(-dx * uz + dz * ux);
            out->time = (double)i / s.hz;
            out->done = 1;
            break;
        }
    }
    nv_world_destroy(s.w);
}
