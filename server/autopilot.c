// SPDX-License-Identifier: MIT
#include "autopilot.h"

#include <math.h>
#include <stdlib.h>

#include "idmap.h"

/* Full rudder from ~30 degrees off course: enough to turn promptly, small
 * enough not to oscillate with the rudders' rate limits. */
#define AUTOPILOT_GAIN 2.0
#define AUTOPILOT_ARRIVE_M 40.0

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

static void autopilot_pick(autopilot* a, pilot* p) {
    p->wx = a->cx + (2.0 * autopilot_random(&a->rng) - 1.0) * a->half;
    p->wz = a->cz + (2.0 * autopilot_random(&a->rng) - 1.0) * a->half;
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
    if (a->count == a->capacity) {
        uint32_t cap = a->capacity ? a->capacity * 2 : 64;
        pilot* n = realloc(a->pilots, cap * sizeof *n);
        if (!n) return NULL;
        a->pilots = n;
        a->capacity = cap;
    }
    if (idmap_put(&a->index, vessel_id, a->count)) return NULL;
    pilot* p = &a->pilots[a->count++];
    p->id = vessel_id;
    return p;
}

int autopilot_add(autopilot* a, uint32_t vessel_id) {
    if (autopilot_has(a, vessel_id)) return 0;
    pilot* p = autopilot_append(a, vessel_id);
    if (!p) return -1;
    autopilot_pick(a, p);
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

double autopilot_heading_of(quat orientation) {
    vec3 bow = quat_rotate(orientation, v3(1.0, 0.0, 0.0));
    return atan2(-bow.z, bow.x);
}

void autopilot_update(autopilot* a, world* w) {
    for (uint32_t i = 0; i < a->count;) {
        pilot* p = &a->pilots[i];
        world_vessel_state s;
        if (nv_world_vessel_get(w, p->id, &s) != 0 || (s.flags & WORLD_VESSEL_FROZEN)) {
            autopilot_remove(a, p->id); /* moves the last pilot into i */
            continue;
        }
        double dx = p->wx - s.position.x, dz = p->wz - s.position.z;
        if (dx * dx + dz * dz < AUTOPILOT_ARRIVE_M * AUTOPILOT_ARRIVE_M) {
            autopilot_pick(a, p);
            dx = p->wx - s.position.x;
            dz = p->wz - s.position.z;
        }
        double error = atan2(-dz, dx) - autopilot_heading_of(s.orientation);
        error = remainder(error, 2.0 * NV_PI); /* to [-pi, pi] */
        double throttle = fabs(error) < 0.8 ? 1.0 : 0.4;
        nv_world_set_controls(w, p->id, throttle, autopilot_rudder_for(error), NULL);
        i++;
    }
}
