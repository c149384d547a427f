// SPDX-License-Identifier: MIT
/* naval-seakeeping's trials under way: the approach run, the IMO
 * manoeuvres and head seas at speed, one world per trial
 * (seakeeping_sim.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "naval/heave_pitch.h"
#include "naval/statics.h"
#include "naval/vecmath.h"
#include "seakeeping.h"
#include "seakeeping_sim.h"

/* ---- manoeuvres -------------------------------------------------------- */

/* One step of a manoeuvre: st the vessel's state after it, and the
 * distance sailed added to *track from *last (when track is not NULL);
 * 0 once the vessel has capsized or frozen, which ends the manoeuvre. */
static int sk_underway_step(sk_sim* s, nv_world_vessel_state* st, nv_vec3* last, double* track) {
    nv_world_step(s->w);
    *st = sk_sim_state(s);
    if (nv_world_capsized(st->orientation) || (st->flags & WORLD_VESSEL_FROZEN)) return 0;
    if (track) {
        *track += hypot(st->position.x - last->x, st->position.z - last->z);
        *last = st->position;
    }
    return 1;
}

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
    /* waves from ahead travel against the bow, along (-cos, -sin) of the
     * heading in (x, z); a wave's direction turns the other way (toward -z,
     * as headings), so that is pi - heading: the approach need not end
     * heading +x (a hull that is only just stable on its course wanders) */
    double heading = sk_yaw(st.orientation);
    if (nv_world_set_controls(s.w, s.id, 1.0, 0.0, &err) ||
        sk_sim_waves(&s, t, out->amplitude, out->wavelength, NV_PI - heading, 3.0 * out->period)) {
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
        out->steps = i;
        if (!sk_underway_step(&s, &st, NULL, NULL)) break;
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

void sk_run_pullout(const sk_type* t, const sk_approach* a, double rudder_deg, sk_pullout* out) {
    memset(out, 0, sizeof *out);
    out->rudder_deg = rudder_deg;
    out->time_half = NAN;
    sk_sim s;
    if (sk_sim_from_approach(&s, t, a)) return;
    nv_error err;
    nv_world_vessel_state st = sk_sim_state(&s);
    nv_world_set_controls(s.w, s.id, 1.0, sk_rudder_command(t, rudder_deg), &err);
    /* L / V as MSC.137 and the report take it: the waterline's length */
    const double side = rudder_deg < 0.0 ? -1.0 : 1.0, lv = t->p.length / (a->speed > 0.5 ? a->speed : 0.5);
    const uint64_t second = (uint64_t)llround(s.hz);
    double yaw = sk_yaw(st.orientation), yaw_prev = yaw, yaw0 = yaw, rates[11] = {0};
    int seen = 0;
    /* the turn: until its rate, sampled each second, changed by under 1 %
     * over 10 s after at least 90 degrees of heading */
    uint64_t cap = (uint64_t)llround((600.0 + 60.0 * lv) * s.hz), i = 0;
    int steady = 0;
    while (!steady && i < cap) {
        for (uint64_t k = 0; k < second; k++, i++)
            if (!sk_underway_step(&s, &st, NULL, NULL)) goto done;
        yaw = sk_unwrap(yaw, sk_yaw(st.orientation));
        memmove(rates, rates + 1, 10 * sizeof *rates);
        rates[10] = side * (yaw - yaw_prev) * SK_DEG; /* over the last second */
        yaw_prev = yaw;
        seen++;
        steady = seen >= 11 && fabs(yaw - yaw0) * SK_DEG >= 90.0 && rates[10] > 0.0 &&
                 fabs(rates[10] - rates[0]) < 0.01 * rates[10];
    }
    if (!steady) goto done;
    out->steady = 1;
    out->rate_turn = rates[10];
    /* the rudder amidships, watched for 40 L / V */
    nv_world_set_controls(s.w, s.id, 1.0, 0.0, &err);
    out->watch = fmax(60.0, 40.0 * lv);
    const uint64_t watch = (uint64_t)llround(out->watch), tail = watch / 10 > 0 ? watch / 10 : 1;
    double tail_turned = 0.0;
    for (uint64_t sec = 1; sec <= watch; sec++) {
        for (uint64_t k = 0; k < second; k++, i++)
            if (!sk_underway_step(&s, &st, NULL, NULL)) goto done;
        yaw = sk_unwrap(yaw, sk_yaw(st.orientation));
        double rate = side * (yaw - yaw_prev) * SK_DEG;
        yaw_prev = yaw;
        if (isnan(out->time_half) && rate <= 0.5 * out->rate_turn) out->time_half = (double)sec;
        if (sec > watch - tail) tail_turned += rate;
    }
    out->rate_residual = tail_turned / (double)tail;
    out->done = 1;
done:
    out->steps = i;
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
        out->steps = i;
        if (!sk_underway_step(&s, &st, &last, &track)) break;
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
        out->steps = i;
        if (!sk_underway_step(&s, &st, &last, &track)) break;
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
