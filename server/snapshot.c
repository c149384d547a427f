// SPDX-License-Identifier: MIT
#include "snapshot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grow.h"

int snap_init(snap_builder* b, uint32_t keyframe_interval, nv_error* err) {
    memset(b, 0, sizeof *b);
    proto_error pe;
    b->encoder = proto_create_compact_encoder(keyframe_interval, &pe);
    if (!b->encoder) return nv_error_set(err, "compact encoder: %s", pe.message);
    return 0;
}

void snap_free(snap_builder* b) {
    free(b->snap.vessels);
    free(b->snap.contacts);
    free(b->snap.damage);
    free(b->snap.damage_events);
    free(b->damaged);
    proto_free_buf(&b->full);
    proto_free_buf(&b->compact);
    proto_destroy_compact_encoder(b->encoder);
    for (uint32_t i = 0; i < b->hull_count; i++) {
        free(b->hulls[i].vertices);
        free(b->hulls[i].indices);
    }
    free(b->hulls);
    memset(b, 0, sizeof *b);
}

uint64_t snap_wall_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Vessels read from the world at a time (nv_world_read_poses: no id lookups,
 * only what a snapshot sends): a small stack buffer that stays in L1. */
#define SNAP_READ_BATCH 8u

/* Room for n elements in *p (doubling from 16, kept between ticks). */
static int snap_room(void** p, uint32_t* capacity, size_t size, uint32_t n, const char* what, nv_error* err) {
    if (grow_reserve32(p, capacity, n, size, 16))
        return nv_error_fail(err, NV_ENOMEM, "snapshot: out of memory for %u %s", n, what);
    return 0;
}

/* The damaged vessels (a fill byte per compartment) and the tick's damage
 * events: nothing to walk but a pointer per slot when none is damaged. */
static int snap_capture_damage(snap_builder* b, const nv_world* w, nv_error* err) {
    uint32_t n = nv_world_damaged_ids(w, b->damaged, b->damaged_capacity);
    if (n > b->damaged_capacity) {
        if (snap_room((void**)&b->damaged, &b->damaged_capacity, sizeof *b->damaged, n, "damaged vessels", err))
            return -1;
        n = nv_world_damaged_ids(w, b->damaged, b->damaged_capacity);
    }
    if (snap_room((void**)&b->snap.damage, &b->damage_capacity, sizeof *b->snap.damage, n, "damaged vessels", err))
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        proto_vessel_damage* d = &b->snap.damage[i];
        const nv_flood_state* f = nv_world_flood_of(w, b->damaged[i]);
        nv_world_vessel_state st;
        nv_world_vessel_get(w, b->damaged[i], &st);
        const nv_compartment_set* cs = nv_world_type_compartments(w, st.type);
        memset(d, 0, sizeof *d);
        d->id = b->damaged[i];
        d->flags = (uint8_t)((f->pumping ? PROTO_DAMAGE_PUMPING : 0) | (f->sunk ? PROTO_DAMAGE_SUNK_FLAG : 0));
        d->holes = (uint8_t)f->hole_count;
        d->compartment_count = (uint8_t)(cs ? cs->count : 0);
        for (uint32_t k = 0; k < d->compartment_count; k++) {
            double fraction = cs->volume[k] > 0.0 ? f->volume[k] / cs->volume[k] : 0.0;
            d->fill[k] = (uint8_t)lround(fmin(fmax(fraction, 0.0), 1.0) * 255.0);
        }
    }
    b->snap.damage_count = n;
    uint32_t ne;
    const nv_world_damage_event* e = nv_world_damage_events(w, &ne);
    if (snap_room((void**)&b->snap.damage_events, &b->damage_event_capacity, sizeof *b->snap.damage_events, ne,
                  "damage events", err))
        return -1;
    _Static_assert((int)WORLD_DAMAGE_REMOVED == (int)PROTO_DAMAGE_REMOVED && (int)WORLD_DAMAGE_CAPSIZED == (int)PROTO_DAMAGE_CAPSIZED,
                   "the damage kinds are the same on the wire");
    for (uint32_t i = 0; i < ne; i++) {
        proto_damage_event* o = &b->snap.damage_events[i];
        memset(o, 0, sizeof *o);
        o->tick = e[i].tick;
        o->id = e[i].id;
        o->kind = (uint8_t)e[i].kind;
        o->compartment = e[i].compartment < PROTO_MAX_COMPARTMENTS ? (uint8_t)e[i].compartment
                                                                    : (uint8_t)PROTO_DAMAGE_NO_COMPARTMENT;
        o->area = (float)e[i].area;
        o->point[0] = (float)e[i].point.x, o->point[1] = (float)e[i].point.y, o->point[2] = (float)e[i].point.z;
    }
    b->snap.damage_event_count = ne;
    return 0;
}

int snap_capture(snap_builder* b, const nv_world* w, const proto_tick_stats* stats, nv_error* err) {
    uint32_t n = nv_world_vessel_count(w);
    if (snap_room((void**)&b->snap.vessels, &b->capacity, sizeof *b->snap.vessels, n, "vessels", err)) return -1;
    nv_world_vessel_pose batch[SNAP_READ_BATCH];
    for (uint32_t i = 0; i < n; i++) {
        if (i % SNAP_READ_BATCH == 0) nv_world_read_poses(w, i, SNAP_READ_BATCH, batch);
        const nv_world_vessel_pose* s = &batch[i % SNAP_READ_BATCH];
        proto_vessel* o = &b->snap.vessels[i];
        o->id = s->id;
        o->type = (uint16_t)s->type;
        _Static_assert((int)WORLD_MODEL_FLOATER <= (int)(PROTO_VESSEL_MODEL_MASK >> PROTO_VESSEL_MODEL_SHIFT) &&
                           (int)WORLD_VESSEL_FROZEN == (int)PROTO_VESSEL_FROZEN && (int)WORLD_VESSEL_PLAYER == (int)PROTO_VESSEL_PLAYER,
                       "core's models and flags must fit the snapshot's flag bits");
        o->flags = (uint16_t)(((s->flags & WORLD_VESSEL_FROZEN) ? PROTO_VESSEL_FROZEN : 0) |
                              ((s->flags & WORLD_VESSEL_PLAYER) ? PROTO_VESSEL_PLAYER : 0) |
                              ((s->flags & WORLD_VESSEL_GROUNDED) ? PROTO_VESSEL_GROUNDED : 0) |
                              (nv_world_capsized(s->orientation) ? PROTO_VESSEL_CAPSIZED : 0) |
                              (((unsigned)s->model << PROTO_VESSEL_MODEL_SHIFT) & PROTO_VESSEL_MODEL_MASK));
        o->position[0] = s->position.x;
        o->position[1] = s->position.y;
        o->position[2] = s->position.z;
        o->orientation[0] = (float)s->orientation.x;
        o->orientation[1] = (float)s->orientation.y;
        o->orientation[2] = (float)s->orientation.z;
        o->orientation[3] = (float)s->orientation.w;
        o->velocity[0] = (float)s->velocity.x;
        o->velocity[1] = (float)s->velocity.y;
        o->velocity[2] = (float)s->velocity.z;
        o->angular_velocity[0] = (float)s->angular_velocity.x;
        o->angular_velocity[1] = (float)s->angular_velocity.y;
        o->angular_velocity[2] = (float)s->angular_velocity.z;
    }
    b->snap.vessel_count = n;
    /* every tick is published: the contacts begun in this one */
    uint32_t nc;
    const nv_world_contact_event* e = nv_world_contact_events(w, &nc);
    if (snap_room((void**)&b->snap.contacts, &b->contact_capacity, sizeof *b->snap.contacts, nc, "contacts", err))
        return -1;
    _Static_assert(WORLD_CONTACT_GROUND == PROTO_CONTACT_GROUND, "the ground's id is the same on the wire");
    for (uint32_t i = 0; i < nc; i++) {
        proto_contact* c = &b->snap.contacts[i];
        memset(c, 0, sizeof *c);
        c->tick = e[i].tick;
        c->a = e[i].id_a;
        c->b = e[i].id_b;
        c->point[0] = e[i].point.x, c->point[1] = e[i].point.y, c->point[2] = e[i].point.z;
        c->normal[0] = (float)e[i].normal.x, c->normal[1] = (float)e[i].normal.y, c->normal[2] = (float)e[i].normal.z;
        c->closing_speed = (float)e[i].closing_speed;
        c->impulse = (float)e[i].impulse;
        c->structure = e[i].structure;
    }
    b->snap.contact_count = nc;
    if (snap_capture_damage(b, w, err)) return -1;
    b->snap.tick = nv_world_tick(w);
    b->snap.sim_time = nv_world_time(w);
    b->snap.send_time_ns = snap_wall_ns();
    b->snap.stats = *stats;
    b->snap.stats.vessel_count = n;
    return 0;
}

int snap_encode_full(snap_builder* b, nv_error* err) {
    proto_error pe;
    if (proto_encode_snapshot(&b->full, &b->snap, &pe)) return nv_error_set(err, "snapshot: %s", pe.message);
    return 0;
}

int snap_encode_compact(snap_builder* b, nv_error* err) {
    proto_error pe;
    if (proto_encode_compact(b->encoder, &b->snap, &b->compact, NULL, &pe))
        return nv_error_set(err, "compact snapshot: %s", pe.message);
    return 0;
}

static void snap_ocean_spec(const nv_ocean* o, proto_ocean_spec* out) {
    const nv_ocean_params* p = nv_ocean_get_params(o);
    memset(out, 0, sizeof *out);
    out->spectrum = (uint8_t)p->spectrum;
    out->spreading = (uint8_t)p->spreading;
    out->gravity = p->gravity;
    out->wind_speed = p->wind_speed;
    out->wind_direction = p->wind_direction;
    out->fetch = p->fetch;
    out->depth = p->depth;
    out->gamma = p->gamma;
    out->swell = p->swell;
    out->choppiness = p->choppiness;
    out->beaufort = p->beaufort;
    out->hs_target = p->hs_target;
    out->tp = p->tp;
    out->size = p->size;
    out->cascade_ratio = p->cascade_ratio;
    out->cascades = p->cascades;
    out->resolution = p->resolution;
    out->resolution_z = p->resolution_z;
    out->repeat_period = p->repeat_period;
    out->min_wavelength = p->min_wavelength;
    out->seed = p->seed;
    out->query_iterations = p->query_iterations;
    out->query_tolerance = p->query_tolerance;
    out->surface_grid = p->surface_grid;
    for (int c = 0; c < nv_ocean_cascade_count(o) && c < PROTO_MAX_CASCADES; c++)
        out->patch_sizes[c] = nv_ocean_cascade_size(o, c);
    out->time = nv_ocean_time(o);
}

/* The ground for renderers: every stride-th node, at most
 * PROTO_TERRAIN_MAX_NODES per axis, quantised between the spec's bounds. */
static int snap_terrain(const nv_terrain* t, proto_terrain_info* out, nv_error* err) {
    uint32_t nx, nz;
    nv_terrain_size(t, &nx, &nz);
    const nv_terrain_spec* spec = nv_terrain_get_spec(t);
    uint32_t longest = nx > nz ? nx : nz;
    uint32_t stride = (longest - 2) / (PROTO_TERRAIN_MAX_NODES - 1) + 1;
    out->nx = (nx - 1) / stride + 1;
    out->nz = (nz - 1) / stride + 1;
    out->heights = malloc((size_t)out->nx * out->nz * sizeof *out->heights);
    if (!out->heights) return nv_error_fail(err, NV_ENOMEM, "world info: out of memory for the terrain");
    out->origin_x = spec->origin_x;
    out->origin_z = spec->origin_z;
    out->cell_size = spec->cell_size * stride;
    out->min_elevation = (float)spec->min_elevation;
    out->max_elevation = (float)spec->max_elevation;
    const double range = spec->max_elevation - spec->min_elevation;
    for (uint32_t j = 0; j < out->nz; j++)
        for (uint32_t i = 0; i < out->nx; i++) {
            double e = nv_terrain_elevation(t, out->origin_x + i * out->cell_size, out->origin_z + j * out->cell_size);
            double q = range > 0.0 ? (e - spec->min_elevation) / range * 65535.0 : 0.0;
            out->heights[(size_t)j * out->nx + i] = (uint16_t)(q < 0.0 ? 0.0 : (q > 65535.0 ? 65535.0 : q + 0.5));
        }
    out->present = 1;
    return 0;
}

/* Each structure's convex hull (what vessels meet), in the world frame. */
static int snap_structures(const nv_world* w, proto_world_info* out, nv_error* err) {
    uint32_t n = nv_world_structure_count(w);
    if (n > PROTO_MAX_STRUCTURES) n = PROTO_MAX_STRUCTURES;
    if (!n) return 0;
    out->structures = calloc(n, sizeof *out->structures);
    if (!out->structures) return nv_error_fail(err, NV_ENOMEM, "world info: out of memory for the structures");
    out->structure_count = n;
    for (uint32_t k = 0; k < n; k++) {
        nv_world_structure_shape sh;
        proto_structure_info* o = &out->structures[k];
        if (nv_world_structure_shape_get(w, k, &sh)) return nv_error_set(err, "world info: no structure %u", k);
        o->vertices = malloc((size_t)sh.point_count * 3 * sizeof *o->vertices);
        o->indices = malloc((size_t)sh.triangle_count * 3 * sizeof *o->indices);
        if (!o->vertices || !o->indices) return nv_error_fail(err, NV_ENOMEM, "world info: out of memory for a structure");
        for (uint32_t i = 0; i < sh.point_count; i++) {
            const double* p = &sh.points[3 * i];
            nv_vec3 q = v3_add(sh.position, m3_mul_v3(&sh.rotation, v3(p[0], p[1], p[2])));
            o->vertices[3 * i] = (float)q.x, o->vertices[3 * i + 1] = (float)q.y, o->vertices[3 * i + 2] = (float)q.z;
        }
        memcpy(o->indices, sh.triangles, (size_t)sh.triangle_count * 3 * sizeof *o->indices);
        o->vertex_count = sh.point_count;
        o->triangle_count = sh.triangle_count;
    }
    return 0;
}

int snap_world_info(const sim* s, const char* server_name, proto_world_info* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    out->protocol_version = PROTO_VERSION;
    snprintf(out->server_name, sizeof out->server_name, "%s", server_name);
    out->tick_hz = s->tick_hz;
    out->tick = nv_world_tick(s->world);
    out->sim_time = nv_world_time(s->world);
    out->gravity = s->world_cfg.gravity;
    out->water_density = s->world_cfg.water_density;
    out->has_ocean = s->inst.ocean != NULL;
    if (s->inst.ocean) snap_ocean_spec(s->inst.ocean, &out->ocean);
    uint32_t n = nv_world_hull_type_count(s->world);
    if (n > PROTO_MAX_TYPES) n = PROTO_MAX_TYPES;
    out->types = calloc(n ? n : 1, sizeof *out->types);
    if (!out->types) return nv_error_fail(err, NV_ENOMEM, "world info: out of memory");
    for (uint32_t i = 0; i < n; i++) {
        const nv_hull* h = nv_world_hull_type(s->world, i);
        proto_vessel_type* t = &out->types[i];
        t->type = (uint16_t)i;
        snprintf(t->name, sizeof t->name, "%s", nv_world_hull_type_name(s->world, i));
        t->mass = h->body.mass;
        memcpy(t->bounds_min, h->bounds_min, sizeof t->bounds_min);
        memcpy(t->bounds_max, h->bounds_max, sizeof t->bounds_max);
        t->vertex_count = h->vertex_count;
        t->triangle_count = h->triangle_count;
        const nv_compartment_set* cs = nv_world_type_compartments(s->world, i);
        if (cs) {
            t->compartment_count = cs->count;
            for (uint32_t k = 0; k < cs->count; k++) t->compartment_volumes[k] = (float)cs->volume[k];
            t->pump_rate = (float)cs->damage.pump_rate;
        }
    }
    out->type_count = n;
    const nv_terrain* ground = nv_world_get_terrain(s->world);
    if (ground && snap_terrain(ground, &out->terrain, err)) return -1;
    return snap_structures(s->world, out, err);
}

void snap_free_world_info(proto_world_info* w) {
    free(w->types);
    free(w->terrain.heights);
    w->types = NULL;
    w->type_count = 0;
    w->terrain.heights = NULL;
    w->terrain.present = 0;
    for (uint32_t k = 0; w->structures && k < w->structure_count; k++) {
        free(w->structures[k].vertices);
        free(w->structures[k].indices);
    }
    free(w->structures);
    w->structures = NULL;
    w->structure_count = 0;
}

const proto_hull* snap_hull(snap_builder* b, const nv_world* w, uint32_t type, nv_error* err) {
    uint32_t n = nv_world_hull_type_count(w);
    if (type >= n) {
        nv_error_fail(err, NV_ENOENT, "no vessel type %u (the world has %u)", type, n);
        return NULL;
    }
    if (!b->hulls) {
        b->hulls = calloc(n, sizeof *b->hulls);
        if (!b->hulls) {
            nv_error_fail(err, NV_ENOMEM, "hull: out of memory");
            return NULL;
        }
        b->hull_count = n;
    }
    proto_hull* out = &b->hulls[type];
    if (out->vertices) return out;
    const nv_hull* h = nv_world_hull_type(w, type);
    float* v = malloc((size_t)h->vertex_count * 3 * sizeof *v);
    uint32_t* idx = malloc((size_t)h->triangle_count * 3 * sizeof *idx);
    if (!v || !idx) {
        free(v);
        free(idx);
        nv_error_fail(err, NV_ENOMEM, "hull: out of memory");
        return NULL;
    }
    for (uint32_t i = 0; i < h->vertex_count; i++) {
        v[3 * i] = h->vx[i];
        v[3 * i + 1] = h->vy[i];
        v[3 * i + 2] = h->vz[i];
    }
    memcpy(idx, h->triangles, (size_t)h->triangle_count * 3 * sizeof *idx);
    out->type = (uint16_t)type;
    snprintf(out->name, sizeof out->name, "%s", nv_world_hull_type_name(w, type));
    out->vertices = v;
    out->vertex_count = h->vertex_count;
    out->indices = idx;
    out->triangle_count = h->triangle_count;
    return out;
}
