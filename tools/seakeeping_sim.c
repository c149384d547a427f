// SPDX-License-Identifier: MIT
/* naval-seakeeping's vessel types and its one world with one vessel: no
 * job pool (the tool runs the trials side by side instead), so every
 * figure is a pure function of the type and the trial's inputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "naval/heave_pitch.h"
#include "naval/statics.h"
#include "naval/vecmath.h"
#include "seakeeping.h"
#include "seakeeping_sim.h"

/* Where the hull's triangles cross the plane where body coordinate `axis`
 * equals `at`: the least and the greatest of coordinate `along` over the
 * crossings. Returns 0 when the plane misses the hull. */
static int sk_slice_range(const nv_hull* h, int axis, double at, int along, double* lo, double* hi) {
    const float* c[3] = {h->vx, h->vy, h->vz};
    *lo = INFINITY, *hi = -INFINITY;
    for (uint32_t t = 0; t < h->triangle_count; t++)
        for (int e = 0; e < 3; e++) {
            uint32_t a = h->triangles[3 * t + e], b = h->triangles[3 * t + (e + 1) % 3];
            double pa = (double)c[axis][a] - at, pb = (double)c[axis][b] - at;
            double qa = c[along][a], qb = c[along][b];
            if (pa == 0.0) *lo = fmin(*lo, qa), *hi = fmax(*hi, qa);
            if ((pa < 0.0 && pb > 0.0) || (pa > 0.0 && pb < 0.0)) {
                double q = qa + pa / (pa - pb) * (qb - qa);
                *lo = fmin(*lo, q), *hi = fmax(*hi, q);
            }
        }
    return *hi >= *lo;
}

/* The IS Code's moulded breadth and length from the hull (body frame,
 * `station` the waterline's mid-length). The breadth: the widest the
 * triangles cross the midship plane, at any height (a mesh with bridge
 * wings or sponsons there gives theirs; a multihull its overall breadth).
 * The length, the Load Line Convention's that the Code takes: 96 % of the
 * length on the waterline at 85 % of the moulded depth amidships above the
 * keel, or from the stem's fore side on that waterline to the rudder stock
 * if that is greater (the stock taken at the aftmost rudder's centre of
 * pressure: a type gives no stock). 0 where a plane misses the hull. */
static void sk_code_dimensions(sk_type* t, const nv_hull* h, double station) {
    double lo, hi, keel, deck, aft, fore;
    t->moulded_breadth = sk_slice_range(h, 0, station, 2, &lo, &hi) ? hi - lo : 0.0;
    t->code_length = 0.0;
    if (!sk_slice_range(h, 0, station, 1, &keel, &deck)) return;
    t->deck_edge = v3(station, deck, hi);
    t->has_deck_edge = 1;
    if (!sk_slice_range(h, 1, keel + 0.85 * (deck - keel), 0, &aft, &fore)) return;
    t->code_length = 0.96 * (fore - aft);
    const nv_actuator_set* a = &t->vt.dynamics.actuators;
    for (uint32_t i = 0; i < a->rudder_count; i++) {
        double stock = a->rudders[i].position.x - h->body.cg.x; /* mesh to body frame */
        if (fore - stock > t->code_length) t->code_length = fore - stock;
    }
}

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
    t->manoeuvring_on = (t->vt.dynamics.coeffs.forces & HYDRODYN_MANOEUVRING) != 0;
    /* the mid-length Clarke's derivatives are about: the waterline's */
    t->mid_ahead = nv_manoeuvring_mid_ahead(h, p);
    sk_code_dimensions(t, h, t->mid_ahead);
    nv_manoeuvring_init(&t->manoeuvring, p, t->mid_ahead, t->rho);
    const nv_heave_pitch_damper* hp = nv_world_type_heave_pitch_damper(w, type);
    if (hp) t->heave_pitch = *hp;
    rc = 0;
done:
    nv_world_destroy(w);
    return rc;
}

void sk_type_free(sk_type* t) { nv_mesh_free(&t->mesh); }

/* ---- one world, one vessel --------------------------------------------- */

static void sk_sim_wave_update(void* ctx, double time, nv_jobs* pool) {
    (void)pool;
    sk_sim* s = ctx;
    double f = s->ramp > 0.0 ? time / s->ramp : 1.0;
    f = f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
    s->sine.amplitude = s->amplitude * f * f * (3.0 - 2.0 * f);
    nv_water_sine_set_time(&s->sine, time);
}

int sk_sim_make(sk_sim* s, const sk_type* t) {
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
int sk_sim_spawn(sk_sim* s, const sk_type* t, nv_quat q) {
    nv_error err;
    double y;
    if (nv_statics_balance_height_of(nv_world_hull_type(s->w, s->type), t->rho, t->g, q, &y, &err)) return -1;
    return nv_world_spawn(s->w, s->type, v3(0.0, y, 0.0), q, &s->id, &err);
}

/* Regular waves (travelling toward `direction`, radians as headings) whose
 * amplitude ramps up over `ramp` seconds. s must not move afterwards. */
int sk_sim_waves(sk_sim* s, const sk_type* t, double amplitude, double wavelength, double direction, double ramp) {
    if (nv_water_sine_init(&s->sine, 0.0, wavelength, direction, t->g)) return -1;
    s->amplitude = amplitude;
    s->ramp = ramp;
    nv_world_water water = {&s->sine.base, sk_sim_wave_update, s};
    nv_world_set_water(s->w, &water);
    return 0;
}

nv_world_vessel_state sk_sim_state(const sk_sim* s) {
    nv_world_vessel_state st;
    memset(&st, 0, sizeof st);
    nv_world_vessel_get(s->w, s->id, &st);
    return st;
}

/* The bow's direction in the horizontal plane, radians, + toward +z
 * (starboard of a vessel heading +x): a turn to starboard grows it. */
double sk_yaw(nv_quat q) {
    nv_vec3 bow = quat_rotate(q, v3(1.0, 0.0, 0.0));
    return atan2(bow.z, bow.x);
}

double sk_unwrap(double prev, double now) {
    double d = now - fmod(prev, 2.0 * NV_PI);
    while (d > NV_PI) d -= 2.0 * NV_PI;
    while (d < -NV_PI) d += 2.0 * NV_PI;
    return prev + d;
}

/* The amplitude of the first harmonic at omega of y[0, n) sampled at
 * times t, y less its mean. */
double sk_first_harmonic(const double* y, const double* t, uint64_t n, double omega) {
    double mean = 0.0, re = 0.0, im = 0.0;
    for (uint64_t i = 0; i < n; i++) mean += y[i];
    mean /= (double)n;
    for (uint64_t i = 0; i < n; i++) {
        re += (y[i] - mean) * cos(omega * t[i]);
        im += (y[i] - mean) * sin(omega * t[i]);
    }
    return 2.0 * hypot(re, im) / (double)n;
}

