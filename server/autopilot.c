// SPDX-License-Identifier: MIT
#include "autopilot.h"

#include <math.h>
#include <stdlib.h>

#include "grow.h"
#include "idmap.h"

/* Full rudder from ~30 degrees off course: enough to turn promptly, small
 * enough not to oscillate with the rudders' rate limits. */
#define AUTOPILOT_GAIN 2.0
#define AUTOPILOT_ARRIVE_M 40.0
/* Water this deep, at least, under a waypoint and along the way to it:
 * more than any built-in type's draft. */
#define AUTOPILOT_DEPTH_M 8.0
#define AUTOPILOT_PATH_STEP_M 20.0
#define AUTOPILOT_TRIES 32
/* Every boat looks this far along its way every AUTOPILOT_LOOK_TICKS
 * (staggered over the fleet): land ahead, a new waypoint. */
#define AUTOPILOT_LOOK_M 250.0
#define AUTOPILOT_LOOK_TICKS 30u

typedef autopilot_pilot pilot;

struct autopilot {
    pilot* pilots;
    uint32_t count, capacity;
    idmap index;    /* vessel id -> position in pilots */
    uint64_t rng;
    double cx, cz, half;
};

static double autopilot_random(uint64_t* s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}

static int autopilot_deep(const nv_terrain* t, double x, double z) {
    return nv_terrain_elevation(t, x, z) < -AUTOPILOT_DEPTH_M;
}

/* Deep water every AUTOPILOT_PATH_STEP_M on the straight way from (x, z)
 * to (wx, wz), for at most `look` metres, and at the waypoint when it is
 * that near. */
static int autopilot_clear(const nv_terrain* t, double x, double z, double wx, double wz, double look) {
    double dx = wx - x, dz = wz - z, length = sqrt(dx * dx + dz * dz);
    double span = length < look ? length : look;
    int steps = (int)(span / AUTOPILOT_PATH_STEP_M);
    for (int k = 1; k <= steps; k++) {
        double f = k * AUTOPILOT_PATH_STEP_M / length;
        if (!autopilot_deep(t, x + f * dx, z + f * dz)) return 0;
    }
    return length > look || autopilot_deep(t, wx, wz);
}

/* A random waypoint; with a terrain, the first of a few draws that is
 * reached over deep water from (x, z), else the first in deep water, else
 * the last. */
static void autopilot_pick(autopilot* a, pilot* p, const nv_terrain* t, double x, double z) {
    double fx = 0.0, fz = 0.0;
    int fallback = 0;
    for (int k = 0; k < (t ? AUTOPILOT_TRIES : 1); k++) {
        p->wx = a->cx + (2.0 * autopilot_random(&a->rng) - 1.0) * a->half;
        p->wz = a->cz + (2.0 * autopilot_random(&a->rng) - 1.0) * a->half;
        if (!t) return;
        if (autopilot_clear(t, x, z, p->wx, p->wz, INFINITY)) return;
        if (!fallback && autopilot_deep(t, p->wx, p->wz)) fx = p->wx, fz = p->wz, fallback = 1;
    }
    if (fallback) p->wx = fx, p->wz = fz;
}

autopilot* autopilot_create(uint64_t seed, double cx, double cz, double half_width) {
    autopilot* a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->rng = seed * 0x2545F4914F6CDD1Dull + 7;
    a->cx = cx;
    a->cz = cz;
    a->half = half_width > 1.0 ? half_width : 1.0;
    return a;
}

void autopilot_destroy(autopilot* a) {
    if (!a) return;
    idmap_free(&a->index);
    free(a->pilots);
    free(a);
}

/* A new pilot at the end, its waypoint not yet set; NULL when out of memory. */
static pilot* autopilot_append(autopilot* a, uint32_t vessel_id) {
    if (GROW(&a->pilots, &a->capacity, a->count + 1, 64)) return NULL;
    if (idmap_put(&a->index, vessel_id, a->count)) return NULL;
    pilot* p = &a->pilots[a->count++];
    p->id = vessel_id;
    return p;
}

int autopilot_add(autopilot* a, uint32_t vessel_id) {
    if (autopilot_has(a, vessel_id)) return 0;
    pilot* p = autopilot_append(a, vessel_id);
    if (!p) return -1;
    autopilot_pick(a, p, NULL, 0.0, 0.0);
    return 0;
}

autopilot_state autopilot_get_state(const autopilot* a) {
    autopilot_state st = {a->rng, a->cx, a->cz, a->half, a->pilots, a->count};
    return st;
}

autopilot* autopilot_restore(const autopilot_state* st) {
    autopilot* a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->rng = st->rng;
    a->cx = st->cx;
    a->cz = st->cz;
    a->half = st->half;
    for (uint32_t i = 0; i < st->count; i++) {
        pilot* p = autopilot_has(a, st->pilots[i].id) ? NULL : autopilot_append(a, st->pilots[i].id);
        if (!p) {
            autopilot_destroy(a);
            return NULL;
        }
        *p = st->pilots[i];
    }
    return a;
}

int autopilot_remove(autopilot* a, uint32_t vessel_id) {
    uint32_t i;
    if (!idmap_get(&a->index, vessel_id, &i)) return 0;
    idmap_remove(&a->index, vessel_id);
    if (i != --a->count) {
        a->pilots[i] = a->pilots[a->count];
        idmap_put(&a->index, a->pilots[i].id, i); /* an existing key: never allocates */
    }
    return 1;
}

int autopilot_has(const autopilot* a, uint32_t vessel_id) {
    uint32_t i;
    return idmap_get(&a->index, vessel_id, &i);
}

uint32_t autopilot_count(const autopilot* a) { return a->count; }

double autopilot_rudder_for(double heading_error) {
    double r = -AUTOPILOT_GAIN * heading_error;
    return r < -1.0 ? -1.0 : (r > 1.0 ? 1.0 : r);
}

double autopilot_heading_of(nv_quat orientation) {
    nv_vec3 bow = quat_rotate(orientation, v3(1.0, 0.0, 0.0));
    return atan2(-bow.z, bow.x);
}

void autopilot_update(autopilot* a, nv_world* w) {
    const nv_terrain* t = nv_world_get_terrain(w);
    const uint64_t tick = nv_world_tick(w);
    for (uint32_t i = 0; i < a->count;) {
        pilot* p = &a->pilots[i];
        nv_world_vessel_state s;
        if (nv_world_vessel_get(w, p->id, &s) != 0 || (s.flags & WORLD_VESSEL_FROZEN)) {
            autopilot_remove(a, p->id); /* moves the last pilot into i */
            continue;
        }
        const double x = s.position.x, z = s.position.z;
        double dx = p->wx - x, dz = p->wz - z;
        int grounded = (s.flags & WORLD_VESSEL_GROUNDED) != 0;
        int look = t && (grounded || (tick + i) % AUTOPILOT_LOOK_TICKS == 0);
        /* arrived, or the waypoint on land (drawn before the boat's place
         * was known), or land ahead (or aground): another waypoint */
        if (dx * dx + dz * dz < AUTOPILOT_ARRIVE_M * AUTOPILOT_ARRIVE_M || (t && !autopilot_deep(t, p->wx, p->wz)) ||
            (look && !autopilot_clear(t, x, z, p->wx, p->wz, AUTOPILOT_LOOK_M))) {
            autopilot_pick(a, p, t, x, z);
            dx = p->wx - x;
            dz = p->wz - z;
        }
        double error = atan2(-dz, dx) - autopilot_heading_of(s.orientation);
        error = remainder(error, 2.0 * NV_PI); /* to [-pi, pi] */
        double throttle = fabs(error) < 0.8 ? 1.0 : 0.4;
        /* aground: back off astern, rudder amidships, until afloat */
        if (grounded)
            nv_world_set_controls(w, p->id, -1.0, 0.0, NULL);
        else
            nv_world_set_controls(w, p->id, throttle, autopilot_rudder_for(error), NULL);
        i++;
    }
}
