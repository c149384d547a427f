// SPDX-License-Identifier: MIT
/* World checkpoints (format in checkpoint.h): the encoder, the checked
 * decoder, the atomic file write and the restore. */
#include "naval/checkpoint.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "naval/hull.h"

static const uint8_t ckp_magic[8] = {'N', 'V', 'C', 'H', 'K', 'P', 'T', '\n'};

/* Section tags, in file order. */
enum { CKP_WORLD, CKP_OCEAN, CKP_GROUND, CKP_TYPES, CKP_VESSELS, CKP_OWNER, CKP_SECTION_COUNT };
static const char ckp_tags[CKP_SECTION_COUNT][5] = {"WRLD", "OCEN", "GRND", "TYPS", "VSLS", "OWNR"};
#define CKP_SECTION_HEADER 16u
#define CKP_TRAILER 4u

/* Every struct below is written field by field. A field added to one of
 * them would silently be left out of checkpoints: these sizes make the
 * build fail instead, so that the field gets written and read here and
 * CHECKPOINT_VERSION goes up. (LP64: x86-64 and aarch64.) */
_Static_assert(sizeof(world_config) == 56, "world_config changed: update checkpoint.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(world_lod) == 32, "world_lod changed: update checkpoint.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(ocean_params) == 176, "ocean_params changed: update checkpoint.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(mesh_options) == 12, "mesh_options changed: update checkpoint.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(mass_spec) == 80, "mass_spec changed: update checkpoint.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(hydrodyn_coeffs) == 216, "hydrodyn_coeffs changed: update checkpoint.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(actuator_propeller) == 80, "actuator_propeller changed: update checkpoint.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(actuator_rudder) == 64, "actuator_rudder changed: update checkpoint.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(actuator_set) == 4 * 80 + 8 + 4 * 64 + 8 + 16,
               "actuator_set changed: update checkpoint.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(terrain_spec) == 40, "terrain_spec changed: update checkpoint.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(world_contact_params) == 56,
               "world_contact_params changed: update checkpoint.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(compartment_damage) == 24,
               "compartment_damage changed: update checkpoint.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(flood_state) == 64 * 16 + 16 * 40 + 8 + 8 + 8,
               "flood_state changed: update checkpoint.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(world_vessel_record) == 240,
               "world_vessel_record changed: update checkpoint.c and CHECKPOINT_VERSION");

/* ---- CRC-32 ----------------------------------------------------------- */

uint32_t nv_checkpoint_crc32(uint32_t crc, const void* data, size_t size) {
    /* Slicing by 8 (eight bytes per step through eight tables): a big
     * checkpoint is tens of MB. The tables cost ~4k operations to build:
     * cheaper to make per call than to share safely between threads. */
    uint32_t t[8][256];
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int k = 1; k < 8; k++) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFFu];
    const uint8_t* p = data;
    crc = ~crc;
    for (; size >= 8; size -= 8, p += 8) {
        uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
        crc = t[7][lo & 0xFFu] ^ t[6][(lo >> 8) & 0xFFu] ^ t[5][(lo >> 16) & 0xFFu] ^ t[4][lo >> 24] ^
              t[3][hi & 0xFFu] ^ t[2][(hi >> 8) & 0xFFu] ^ t[1][(hi >> 16) & 0xFFu] ^ t[0][hi >> 24];
    }
    for (; size; size--, p++) crc = t[0][(crc ^ *p) & 0xFFu] ^ (crc >> 8);
    return ~crc;
}

/* ---- little-endian bytes ---------------------------------------------- */

static void ckp_store_u32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void ckp_store_u64(uint8_t* p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t ckp_load_u32(const uint8_t* p) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i);
    return v;
}
static uint64_t ckp_load_u64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* ---- the encoder ------------------------------------------------------ */

typedef struct ckp_writer {
    uint8_t* data;
    size_t size, capacity;
    int failed; /* out of memory: every later put is a no-op */
} ckp_writer;

static uint8_t* ckp_room(ckp_writer* w, size_t n) {
    if (w->failed) return NULL;
    if (w->size + n > w->capacity) {
        size_t cap = w->capacity ? w->capacity : 4096;
        while (cap < w->size + n) cap *= 2;
        uint8_t* d = realloc(w->data, cap);
        if (!d) {
            w->failed = 1;
            return NULL;
        }
        w->data = d;
        w->capacity = cap;
    }
    uint8_t* p = w->data + w->size;
    w->size += n;
    return p;
}

static void put_u8(ckp_writer* w, uint8_t v) {
    uint8_t* p = ckp_room(w, 1);
    if (p) *p = v;
}
static void put_u16(ckp_writer* w, uint16_t v) {
    uint8_t* p = ckp_room(w, 2);
    if (p) p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8);
}
static void put_u32(ckp_writer* w, uint32_t v) {
    uint8_t* p = ckp_room(w, 4);
    if (p) ckp_store_u32(p, v);
}
static void put_u64(ckp_writer* w, uint64_t v) {
    uint8_t* p = ckp_room(w, 8);
    if (p) ckp_store_u64(p, v);
}
static void put_i32(ckp_writer* w, int v) { put_u32(w, (uint32_t)v); }
static void put_f32(ckp_writer* w, float v) {
    uint32_t u;
    memcpy(&u, &v, 4);
    put_u32(w, u);
}
static void put_f64(ckp_writer* w, double v) {
    uint64_t u;
    memcpy(&u, &v, 8);
    put_u64(w, u);
}
static void put_v3(ckp_writer* w, vec3 v) {
    put_f64(w, v.x);
    put_f64(w, v.y);
    put_f64(w, v.z);
}
static void put_bytes(ckp_writer* w, const void* src, size_t n) {
    uint8_t* p = ckp_room(w, n);
    if (p && n) memcpy(p, src, n);
}
static void put_str(ckp_writer* w, const char* s) {
    size_t n = strlen(s);
    put_u16(w, (uint16_t)n);
    put_bytes(w, s, n);
}

/* A section's header now; its length once the payload is written. */
static size_t ckp_section_begin(ckp_writer* w, int section) {
    put_bytes(w, ckp_tags[section], 4);
    put_u32(w, 0);
    put_u64(w, 0);
    return w->size;
}
static void ckp_section_end(ckp_writer* w, size_t start) {
    if (!w->failed) ckp_store_u64(w->data + start - 8, (uint64_t)(w->size - start));
}

static void ckp_put_config(ckp_writer* w, const world_config* c) {
    put_f64(w, c->tick_hz);
    put_f64(w, c->water_density);
    put_f64(w, c->gravity);
    put_f64(w, c->linear_damping);
    put_f64(w, c->angular_damping);
    put_u32(w, c->vertex_block);
    put_u32(w, c->triangle_block);
    put_f64(w, c->sunk_removal_depth);
}

static void ckp_put_ocean(ckp_writer* w, const ocean_params* p) {
    put_u32(w, (uint32_t)p->spectrum);
    put_u32(w, (uint32_t)p->spreading);
    put_f64(w, p->gravity);
    put_f64(w, p->wind_speed);
    put_f64(w, p->wind_direction);
    put_f64(w, p->fetch);
    put_f64(w, p->depth);
    put_f64(w, p->gamma);
    put_f64(w, p->swell);
    put_f64(w, p->choppiness);
    put_i32(w, p->beaufort);
    put_f64(w, p->hs_target);
    put_f64(w, p->tp);
    put_f64(w, p->size);
    put_f64(w, p->cascade_ratio);
    put_i32(w, p->cascades);
    put_i32(w, p->resolution);
    put_i32(w, p->resolution_z);
    put_f64(w, p->repeat_period);
    put_f64(w, p->min_wavelength);
    put_u64(w, p->seed);
    put_i32(w, p->query_iterations);
    put_f64(w, p->query_tolerance);
    put_i32(w, p->surface_grid);
}

static void ckp_put_dynamics(ckp_writer* w, const vessel_dynamics* d) {
    const hydrodyn_coeffs* c = &d->coeffs;
    put_u32(w, c->forces);
    const double scalars[] = {c->water_density,    c->viscosity,        c->reynolds_min,       c->reference_length,
                              c->residual,         c->pressure_linear,  c->pressure_quadratic, c->pressure_falloff,
                              c->suction_linear,   c->suction_quadratic, c->suction_falloff,   c->reference_speed,
                              c->slam_power,       c->slam_gamma_max,   c->air_density,        c->air_drag,
                              c->damping_linear[0], c->damping_linear[1], c->damping_angular[0], c->damping_angular[1]};
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) put_f64(w, scalars[i]);
    put_v3(w, c->added_mass);
    put_v3(w, c->added_inertia);
    const actuator_set* a = &d->actuators;
    put_u32(w, a->propeller_count);
    for (uint32_t i = 0; i < a->propeller_count; i++) {
        const actuator_propeller* p = &a->propellers[i];
        put_v3(w, p->position);
        put_v3(w, p->direction);
        put_f64(w, p->max_thrust);
        put_f64(w, p->reverse_fraction);
        put_f64(w, p->immersion);
        put_f64(w, p->steering_deg);
    }
    put_u32(w, a->rudder_count);
    for (uint32_t i = 0; i < a->rudder_count; i++) {
        const actuator_rudder* r = &a->rudders[i];
        put_v3(w, r->position);
        put_f64(w, r->area);
        put_f64(w, r->max_angle_deg);
        put_f64(w, r->lift_slope);
        put_f64(w, r->stall_angle_deg);
        put_f64(w, r->drag_coefficient);
    }
    put_f64(w, a->throttle_rate);
    put_f64(w, a->rudder_rate);
}

static uint64_t ckp_fnv(uint64_t h, const void* data, size_t n) {
    const uint8_t* p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static checkpoint_fingerprint ckp_fingerprint_of(const hull* h) {
    checkpoint_fingerprint f = {h->vertex_count, h->triangle_count, h->body.mass, 0xcbf29ce484222325ull};
    f.geometry_hash = ckp_fnv(f.geometry_hash, h->vx, h->vertex_count * sizeof(float));
    f.geometry_hash = ckp_fnv(f.geometry_hash, h->vy, h->vertex_count * sizeof(float));
    f.geometry_hash = ckp_fnv(f.geometry_hash, h->vz, h->vertex_count * sizeof(float));
    f.geometry_hash = ckp_fnv(f.geometry_hash, h->triangles, 3u * h->triangle_count * sizeof(uint32_t));
    return f;
}

static void ckp_put_type(ckp_writer* w, const scenario_hull* h, const checkpoint_fingerprint* f,
                         uint32_t compartments) {
    put_str(w, h->name);
    put_str(w, h->source);
    put_u8(w, (uint8_t)h->mesh.up);
    put_u8(w, h->mesh.flip_inside_out ? 1 : 0);
    put_u32(w, h->mesh.max_triangles);
    put_f64(w, h->mass.mass);
    put_f64(w, h->mass.density);
    put_u8(w, h->mass.has_cg ? 1 : 0);
    put_v3(w, h->mass.cg);
    put_u8(w, h->mass.has_gyration ? 1 : 0);
    put_v3(w, h->mass.gyration);
    put_u8(w, h->has_dynamics ? 1 : 0);
    if (h->has_dynamics) ckp_put_dynamics(w, &h->dynamics);
    put_u32(w, h->columns_nx);
    put_u32(w, h->columns_nz);
    put_u32(w, f->vertex_count);
    put_u32(w, f->triangle_count);
    put_f64(w, f->mass);
    put_u64(w, f->geometry_hash);
    const vessel_compartments* c = &h->compartments;
    put_u32(w, c->bulkhead_count);
    for (uint32_t i = 0; i < c->bulkhead_count; i++) put_f64(w, c->bulkheads[i]);
    put_u32(w, c->longitudinal_count);
    for (uint32_t i = 0; i < c->longitudinal_count; i++) put_f64(w, c->longitudinal[i]);
    put_f64(w, c->damage.pump_rate);
    put_f64(w, c->damage.breach_speed);
    put_f64(w, c->damage.breach_area);
    put_u32(w, compartments);
}

static void ckp_put_vessel(ckp_writer* w, const world_vessel_record* r) {
    put_u32(w, r->id);
    put_u32(w, r->type);
    put_u32(w, r->flags);
    put_u32(w, (uint32_t)r->model);
    put_v3(w, r->position);
    put_f64(w, r->orientation.w);
    put_f64(w, r->orientation.x);
    put_f64(w, r->orientation.y);
    put_f64(w, r->orientation.z);
    put_v3(w, r->velocity);
    put_v3(w, r->angular_momentum);
    put_v3(w, r->angular_velocity);
    put_v3(w, r->force);
    put_v3(w, r->torque);
    put_f32(w, r->submerged_area);
    put_f32(w, r->throttle_cmd);
    put_f32(w, r->rudder_cmd);
    put_f32(w, r->throttle);
    put_f32(w, r->rudder);
    put_f32(w, r->water_vy);
    put_u32(w, r->slam_count);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* the file's byte order: one copy (most of a big checkpoint is this) */
    put_bytes(w, r->slam, (size_t)r->slam_count * sizeof(uint16_t));
#else
    for (uint32_t i = 0; i < r->slam_count; i++) put_u16(w, r->slam[i]);
#endif
    put_u8(w, r->flood ? 1 : 0);
    if (!r->flood) return;
    const flood_state* f = r->flood;
    put_u32(w, f->hole_count);
    for (uint32_t i = 0; i < f->hole_count; i++) {
        put_u32(w, f->holes[i].compartment);
        put_v3(w, f->holes[i].point);
        put_f64(w, f->holes[i].area);
    }
    put_u64(w, f->full);
    put_u8(w, f->pumping);
    put_u8(w, f->sunk);
    for (uint32_t k = 0; k < COMPARTMENT_MAX; k++) {
        put_f64(w, f->volume[k]);
        put_f64(w, f->level[k]);
    }
}
/* Bytes of a vessel record without its slamming memory. */
#define CKP_VESSEL_FIXED (4u * 4 + 22u * 8 + 6u * 4 + 4 + 1)
/* Bytes of a flood state after its holes. */
#define CKP_FLOOD_FIXED (8u + 2 + COMPARTMENT_MAX * 16u) /* after the hole count */

static int ckp_check_source(const checkpoint_source* src, nv_error* err) {
    if (!src->world) return nv_error_set(err, "checkpoint: no world");
    uint32_t types = nv_world_hull_type_count(src->world);
    if (src->hull_count != types || (types && !src->hulls))
        return nv_error_set(err, "checkpoint: %u hull type descriptions for a world of %u hull types", src->hull_count,
                            types);
    for (uint32_t i = 0; i < types; i++) {
        const scenario_hull* h = &src->hulls[i];
        const char* name = nv_world_hull_type_name(src->world, i);
        if (strnlen(h->name, sizeof h->name) == sizeof h->name || strcmp(h->name, name) != 0)
            return nv_error_set(err, "checkpoint: hull type %u is '%s' in the world but '%.*s' in its description", i,
                                name, (int)sizeof h->name, h->name);
        if (strnlen(h->source, sizeof h->source) == sizeof h->source || !h->source[0])
            return nv_error_set(err, "checkpoint: hull type '%s' has no source to rebuild it from", name);
    }
    if (src->owner_size && !src->owner_blob)
        return nv_error_set(err, "checkpoint: owner blob of %zu bytes is NULL", src->owner_size);
    int described = src->terrain && src->terrain->source[0];
    if (described != (nv_world_get_terrain(src->world) != NULL))
        return nv_error_set(err, "checkpoint: the world %s a terrain but its description %s",
                            described ? "has no" : "has", described ? "names one" : "names none");
    if (described && strnlen(src->terrain->source, sizeof src->terrain->source) == sizeof src->terrain->source)
        return nv_error_set(err, "checkpoint: the terrain's source is not terminated");
    uint32_t structures = nv_world_structure_count(src->world);
    if (structures && !src->structures)
        return nv_error_set(err, "checkpoint: the world has %u structures but no descriptions of them", structures);
    for (uint32_t i = 0; i < structures; i++)
        if (strnlen(src->structures[i].source, sizeof src->structures[i].source) == sizeof src->structures[i].source)
            return nv_error_set(err, "checkpoint: structure %u's source is not terminated", i);
    return 0;
}

int nv_checkpoint_capture(const checkpoint_source* src, checkpoint* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    if (ckp_check_source(src, err)) return -1;
    const world* wd = src->world;
    checkpoint* c = out;
    c->tick = nv_world_tick(wd);
    c->time = nv_world_time(wd);
    c->state_hash = nv_world_state_hash(wd);
    c->next_id = nv_world_next_id(wd);
    c->world = *nv_world_get_config(wd);
    c->wind = nv_world_get_wind(wd);
    c->lod = nv_world_get_lod(wd);
    c->has_ocean = src->ocean != NULL;
    if (src->ocean) c->ocean = *nv_ocean_get_params(src->ocean);
    if (src->terrain) c->terrain = *src->terrain;
    const terrain* ground = nv_world_get_terrain(wd);
    c->terrain_fingerprint = ground ? nv_terrain_fingerprint(ground) : 0;
    c->contacts = nv_world_get_contacts(wd);
    c->structure_count = nv_world_structure_count(wd);
    if (c->structure_count) {
        c->structures = malloc(c->structure_count * sizeof *c->structures);
        c->structure_fingerprints = malloc(c->structure_count * sizeof *c->structure_fingerprints);
        if (!c->structures || !c->structure_fingerprints) {
            nv_checkpoint_free(c);
            return nv_error_fail(err, NV_ENOMEM, "checkpoint: out of memory for %u structures",
                                 nv_world_structure_count(wd));
        }
        for (uint32_t i = 0; i < c->structure_count; i++) {
            c->structures[i] = src->structures[i];
            c->structure_fingerprints[i] = nv_world_structure_fingerprint(wd, i);
        }
    }
    c->hull_count = src->hull_count;
    c->vessel_count = nv_world_vessel_count(wd);
    size_t slam_total = 0;
    for (uint32_t s = 0; s < c->vessel_count; s++) {
        world_vessel_record r;
        nv_world_export_vessel(wd, s, &r);
        slam_total += r.slam_count;
    }
    c->hulls = calloc(c->hull_count ? c->hull_count : 1, sizeof *c->hulls);
    c->fingerprints = calloc(c->hull_count ? c->hull_count : 1, sizeof *c->fingerprints);
    c->compartment_counts = calloc(c->hull_count ? c->hull_count : 1, sizeof *c->compartment_counts);
    c->vessels = calloc(c->vessel_count ? c->vessel_count : 1, sizeof *c->vessels);
    c->slam_storage = malloc((slam_total ? slam_total : 1) * sizeof(uint16_t));
    c->owner_size = src->owner_size;
    c->owner_blob = malloc(src->owner_size ? src->owner_size : 1);
    if (!c->hulls || !c->fingerprints || !c->compartment_counts || !c->vessels || !c->slam_storage ||
        !c->owner_blob) {
        nv_checkpoint_free(c);
        return nv_error_fail(err, NV_ENOMEM, "checkpoint: out of memory for %u vessels", nv_world_vessel_count(wd));
    }
    for (uint32_t i = 0; i < c->hull_count; i++) {
        c->hulls[i] = src->hulls[i];
        /* the world's dynamics are the ones in force (and carry its water density) */
        if (c->hulls[i].has_dynamics) c->hulls[i].dynamics = *nv_world_type_dynamics(wd, i);
        c->fingerprints[i] = ckp_fingerprint_of(nv_world_hull_type(wd, i));
        const compartment_set* cs = nv_world_type_compartments(wd, i);
        c->compartment_counts[i] = cs ? cs->count : 0;
        const vessel_compartments* d = &c->hulls[i].compartments;
        if (cs && !d->bulkhead_count && !d->longitudinal_count) {
            nv_error_set(err, "checkpoint: hull type '%s' has compartments its description does not name",
                         c->hulls[i].name);
            nv_checkpoint_free(c);
            return -1;
        }
    }
    uint16_t* slam = c->slam_storage;
    for (uint32_t s = 0; s < c->vessel_count; s++) {
        world_vessel_record* r = &c->vessels[s];
        nv_world_export_vessel(wd, s, r);
        if (r->slam_count) {
            memcpy(slam, r->slam, (size_t)r->slam_count * sizeof(uint16_t));
            r->slam = slam;
            slam += r->slam_count;
        }
        if (r->flood) {
            flood_state* copy = malloc(sizeof *copy);
            if (!copy) {
                r->flood = NULL;
                nv_checkpoint_free(c);
                return nv_error_fail(err, NV_ENOMEM, "checkpoint: out of memory for a vessel's flooding");
            }
            *copy = *r->flood;
            r->flood = copy;
        }
    }
    if (src->owner_size) memcpy(c->owner_blob, src->owner_blob, src->owner_size);
    return 0;
}

int nv_checkpoint_encode_captured(const checkpoint* c, uint8_t** out, size_t* size, nv_error* err) {
    *out = NULL;
    *size = 0;
    ckp_writer w = {0};
    put_bytes(&w, ckp_magic, 8);
    put_u32(&w, CHECKPOINT_VERSION);
    put_u32(&w, CKP_SECTION_COUNT);
    put_u64(&w, 0); /* file size, below */
    put_u32(&w, 0);
    put_u32(&w, 0); /* header checksum, below */

    size_t at = ckp_section_begin(&w, CKP_WORLD);
    put_u64(&w, c->tick);
    put_f64(&w, c->time);
    put_u64(&w, c->state_hash);
    put_u32(&w, c->next_id);
    put_u32(&w, c->vessel_count);
    put_u32(&w, c->hull_count);
    ckp_put_config(&w, &c->world);
    put_v3(&w, c->wind);
    put_u8(&w, c->lod.enabled ? 1 : 0);
    put_f64(&w, c->lod.mesh_within);
    put_f64(&w, c->lod.columns_within);
    put_f64(&w, c->lod.hysteresis);
    ckp_section_end(&w, at);

    at = ckp_section_begin(&w, CKP_OCEAN);
    put_u8(&w, c->has_ocean ? 1 : 0);
    if (c->has_ocean) ckp_put_ocean(&w, &c->ocean);
    ckp_section_end(&w, at);

    at = ckp_section_begin(&w, CKP_GROUND);
    put_u8(&w, c->terrain.source[0] ? 1 : 0);
    if (c->terrain.source[0]) {
        put_str(&w, c->terrain.source);
        put_f64(&w, c->terrain.spec.origin_x);
        put_f64(&w, c->terrain.spec.origin_z);
        put_f64(&w, c->terrain.spec.cell_size);
        put_f64(&w, c->terrain.spec.min_elevation);
        put_f64(&w, c->terrain.spec.max_elevation);
        put_u64(&w, c->terrain_fingerprint);
    }
    put_u8(&w, c->contacts.enabled ? 1 : 0);
    put_f64(&w, c->contacts.ground_friction);
    put_f64(&w, c->contacts.vessel_friction);
    put_f64(&w, c->contacts.restitution);
    put_f64(&w, c->contacts.hertz);
    put_f64(&w, c->contacts.damping_ratio);
    put_f64(&w, c->contacts.push_speed);
    put_u32(&w, c->structure_count);
    for (uint32_t i = 0; i < c->structure_count; i++) {
        const scenario_structure* st = &c->structures[i];
        put_str(&w, st->source);
        for (int k = 0; k < 3; k++) put_f64(&w, st->box[k]);
        put_f64(&w, st->x);
        put_f64(&w, st->y);
        put_f64(&w, st->z);
        put_f64(&w, st->heading_deg);
        put_u64(&w, c->structure_fingerprints[i]);
    }
    ckp_section_end(&w, at);

    at = ckp_section_begin(&w, CKP_TYPES);
    put_u32(&w, c->hull_count);
    for (uint32_t i = 0; i < c->hull_count; i++)
        ckp_put_type(&w, &c->hulls[i], &c->fingerprints[i], c->compartment_counts[i]);
    ckp_section_end(&w, at);

    at = ckp_section_begin(&w, CKP_VESSELS);
    put_u32(&w, c->vessel_count);
    for (uint32_t s = 0; s < c->vessel_count; s++) ckp_put_vessel(&w, &c->vessels[s]);
    ckp_section_end(&w, at);

    at = ckp_section_begin(&w, CKP_OWNER);
    put_bytes(&w, c->owner_blob, c->owner_size);
    ckp_section_end(&w, at);

    uint8_t* crc_at = ckp_room(&w, CKP_TRAILER);
    if (w.failed || !crc_at) {
        free(w.data);
        return nv_error_fail(err, NV_ENOMEM, "checkpoint: out of memory for %zu bytes", w.size);
    }
    ckp_store_u64(w.data + 16, (uint64_t)w.size);
    ckp_store_u32(w.data + 28, nv_checkpoint_crc32(0, w.data, 28));
    ckp_store_u32(w.data + w.size - CKP_TRAILER, nv_checkpoint_crc32(0, w.data, w.size - CKP_TRAILER));
    *out = w.data;
    *size = w.size;
    return 0;
}

int nv_checkpoint_encode(const checkpoint_source* src, uint8_t** out, size_t* size, nv_error* err) {
    *out = NULL;
    *size = 0;
    checkpoint c;
    if (nv_checkpoint_capture(src, &c, err)) return -1;
    int rc = nv_checkpoint_encode_captured(&c, out, size, err);
    nv_checkpoint_free(&c);
    return rc;
}

/* ---- the decoder ------------------------------------------------------ */

typedef struct ckp_reader {
    const uint8_t* data;
    size_t pos, end; /* absolute offsets; end: the current section's */
    const char* name;
    const char* tag;
    nv_error* err;
    int failed;
} ckp_reader;

/* Whether n more bytes of `what` lie inside the section; names the place
 * when not. Once failed, every later read answers zeros. */
static int rd_need(ckp_reader* r, size_t n, const char* what) {
    if (r->failed) return 0;
    if (n > r->end - r->pos) {
        nv_error_set(r->err, "%s: section '%s' ends at byte %zu, inside %s (%zu bytes needed, %zu left)", r->name,
                     r->tag, r->end, what, n, r->end - r->pos);
        r->failed = 1;
        return 0;
    }
    return 1;
}
/* "NAME: section 'TAG': WHAT: MESSAGE"; the first failure wins. */
static int rd_fail(ckp_reader* r, const char* what, const char* fmt, ...) NV_PRINTF_LIKE(3, 4);
static int rd_fail(ckp_reader* r, const char* what, const char* fmt, ...) {
    if (!r->failed) {
        char msg[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        nv_error_fail(r->err, NV_EPROTO, "%s: section '%s': %s: %s", r->name, r->tag, what, msg);
    }
    r->failed = 1;
    return -1;
}

static uint8_t get_u8(ckp_reader* r) { return r->failed ? 0 : r->data[r->pos++]; }
static uint16_t get_u16(ckp_reader* r) {
    if (r->failed) return 0;
    uint16_t v = (uint16_t)(r->data[r->pos] | r->data[r->pos + 1] << 8);
    r->pos += 2;
    return v;
}
static uint32_t get_u32(ckp_reader* r) {
    if (r->failed) return 0;
    uint32_t v = ckp_load_u32(r->data + r->pos);
    r->pos += 4;
    return v;
}
static uint64_t get_u64(ckp_reader* r) {
    if (r->failed) return 0;
    uint64_t v = ckp_load_u64(r->data + r->pos);
    r->pos += 8;
    return v;
}
static int get_i32(ckp_reader* r) {
    uint32_t u = get_u32(r);
    int v;
    memcpy(&v, &u, sizeof v); /* two's complement, as written */
    return v;
}
static float get_f32(ckp_reader* r) {
    uint32_t u = get_u32(r);
    float v;
    memcpy(&v, &u, 4);
    return v;
}
static double get_f64(ckp_reader* r) {
    uint64_t u = get_u64(r);
    double v;
    memcpy(&v, &u, 8);
    return v;
}
static vec3 get_v3(ckp_reader* r) {
    vec3 v;
    v.x = get_f64(r);
    v.y = get_f64(r);
    v.z = get_f64(r);
    return v;
}
static bool get_bool(ckp_reader* r, const char* what) {
    if (!rd_need(r, 1, what)) return false;
    uint8_t v = get_u8(r);
    if (v > 1) rd_fail(r, what, "must be 0 or 1 (got %u)", (unsigned)v);
    return v == 1;
}
/* A u16-length string into buf (NUL-terminated): no NUL inside, fits. */
static void get_str(ckp_reader* r, char* buf, size_t cap, const char* what) {
    buf[0] = '\0';
    if (!rd_need(r, 2, what)) return;
    uint16_t n = get_u16(r);
    if (!rd_need(r, n, what)) return;
    if (n >= cap) {
        rd_fail(r, what, "a string of %u bytes, longer than %zu", (unsigned)n, cap - 1);
        return;
    }
    if (memchr(r->data + r->pos, '\0', n)) {
        rd_fail(r, what, "a string of %u bytes holds a NUL byte", (unsigned)n);
        return;
    }
    memcpy(buf, r->data + r->pos, n);
    buf[n] = '\0';
    r->pos += n;
}

static void ckp_get_config(ckp_reader* r, world_config* c) {
    if (!rd_need(r, 6 * 8 + 2 * 4, "the world config")) return;
    c->tick_hz = get_f64(r);
    c->water_density = get_f64(r);
    c->gravity = get_f64(r);
    c->linear_damping = get_f64(r);
    c->angular_damping = get_f64(r);
    c->vertex_block = get_u32(r);
    c->triangle_block = get_u32(r);
    c->sunk_removal_depth = get_f64(r);
}

static void ckp_get_ocean(ckp_reader* r, ocean_params* p) {
    if (!rd_need(r, 15 * 8 + 8 + 8 * 4, "the ocean params")) return;
    uint32_t spectrum = get_u32(r), spreading = get_u32(r);
    if (spectrum > SPECTRUM_TMA) rd_fail(r, "the ocean params", "unknown spectrum %u", spectrum);
    if (spreading > SPREADING_DONELAN_BANNER) rd_fail(r, "the ocean params", "unknown spreading %u", spreading);
    p->spectrum = (spectrum_type)spectrum;
    p->spreading = (spreading_type)spreading;
    p->gravity = get_f64(r);
    p->wind_speed = get_f64(r);
    p->wind_direction = get_f64(r);
    p->fetch = get_f64(r);
    p->depth = get_f64(r);
    p->gamma = get_f64(r);
    p->swell = get_f64(r);
    p->choppiness = get_f64(r);
    p->beaufort = get_i32(r);
    p->hs_target = get_f64(r);
    p->tp = get_f64(r);
    p->size = get_f64(r);
    p->cascade_ratio = get_f64(r);
    p->cascades = get_i32(r);
    p->resolution = get_i32(r);
    p->resolution_z = get_i32(r);
    p->repeat_period = get_f64(r);
    p->min_wavelength = get_f64(r);
    p->seed = get_u64(r);
    p->query_iterations = get_i32(r);
    p->query_tolerance = get_f64(r);
    p->surface_grid = get_i32(r);
}

static void ckp_get_dynamics(ckp_reader* r, vessel_dynamics* d, const char* what) {
    hydrodyn_coeffs* c = &d->coeffs;
    if (!rd_need(r, 4 + 26 * 8 + 4, what)) return;
    c->forces = get_u32(r);
    double* scalars[] = {&c->water_density,    &c->viscosity,         &c->reynolds_min,       &c->reference_length,
                         &c->residual,         &c->pressure_linear,   &c->pressure_quadratic, &c->pressure_falloff,
                         &c->suction_linear,   &c->suction_quadratic, &c->suction_falloff,    &c->reference_speed,
                         &c->slam_power,       &c->slam_gamma_max,    &c->air_density,        &c->air_drag,
                         &c->damping_linear[0], &c->damping_linear[1], &c->damping_angular[0], &c->damping_angular[1]};
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) *scalars[i] = get_f64(r);
    c->added_mass = get_v3(r);
    c->added_inertia = get_v3(r);
    actuator_set* a = &d->actuators;
    memset(a, 0, sizeof *a);
    a->propeller_count = get_u32(r);
    if (a->propeller_count > ACTUATOR_MAX_PROPELLERS) {
        rd_fail(r, what, "%u propellers, at most %d", a->propeller_count, ACTUATOR_MAX_PROPELLERS);
        return;
    }
    if (!rd_need(r, (size_t)a->propeller_count * 10 * 8 + 4, what)) return;
    for (uint32_t i = 0; i < a->propeller_count; i++) {
        actuator_propeller* p = &a->propellers[i];
        p->position = get_v3(r);
        p->direction = get_v3(r);
        p->max_thrust = get_f64(r);
        p->reverse_fraction = get_f64(r);
        p->immersion = get_f64(r);
        p->steering_deg = get_f64(r);
    }
    a->rudder_count = get_u32(r);
    if (a->rudder_count > ACTUATOR_MAX_RUDDERS) {
        rd_fail(r, what, "%u rudders, at most %d", a->rudder_count, ACTUATOR_MAX_RUDDERS);
        return;
    }
    if (!rd_need(r, (size_t)a->rudder_count * 8 * 8 + 2 * 8, what)) return;
    for (uint32_t i = 0; i < a->rudder_count; i++) {
        actuator_rudder* u = &a->rudders[i];
        u->position = get_v3(r);
        u->area = get_f64(r);
        u->max_angle_deg = get_f64(r);
        u->lift_slope = get_f64(r);
        u->stall_angle_deg = get_f64(r);
        u->drag_coefficient = get_f64(r);
    }
    a->throttle_rate = get_f64(r);
    a->rudder_rate = get_f64(r);
}

static void ckp_get_type(ckp_reader* r, uint32_t index, scenario_hull* h, checkpoint_fingerprint* f,
                         uint32_t* compartments) {
    char what[64];
    snprintf(what, sizeof what, "hull type %u", index);
    memset(h, 0, sizeof *h);
    get_str(r, h->name, sizeof h->name, what);
    if (!r->failed && !h->name[0]) rd_fail(r, what, "an empty name");
    get_str(r, h->source, sizeof h->source, what);
    if (!r->failed && !h->source[0]) rd_fail(r, what, "an empty source");
    if (!rd_need(r, 2 + 4 + 2 * 8, what)) return;
    uint8_t up = get_u8(r);
    if (up != 'y' && up != 'z') rd_fail(r, what, "the mesh's up axis must be 'y' or 'z' (byte %u)", (unsigned)up);
    h->mesh.up = (char)up;
    h->mesh.flip_inside_out = get_bool(r, what);
    h->mesh.max_triangles = get_u32(r);
    h->mass.mass = get_f64(r);
    h->mass.density = get_f64(r);
    h->mass.has_cg = get_bool(r, what);
    if (!rd_need(r, 3 * 8, what)) return;
    h->mass.cg = get_v3(r);
    h->mass.has_gyration = get_bool(r, what);
    if (!rd_need(r, 3 * 8, what)) return;
    h->mass.gyration = get_v3(r);
    h->has_dynamics = get_bool(r, what);
    if (h->has_dynamics) ckp_get_dynamics(r, &h->dynamics, what);
    if (!rd_need(r, 4 * 4 + 2 * 8, what)) return;
    h->columns_nx = get_u32(r);
    h->columns_nz = get_u32(r);
    if ((h->columns_nx == 0) != (h->columns_nz == 0) || h->columns_nx > CHECKPOINT_MAX_COLUMNS ||
        h->columns_nz > CHECKPOINT_MAX_COLUMNS)
        rd_fail(r, what, "columns %u x %u: both 0 (none) or both in 1..%u", h->columns_nx, h->columns_nz,
                CHECKPOINT_MAX_COLUMNS);
    f->vertex_count = get_u32(r);
    f->triangle_count = get_u32(r);
    f->mass = get_f64(r);
    f->geometry_hash = get_u64(r);
    vessel_compartments* c = &h->compartments;
    uint32_t* counts[2] = {&c->bulkhead_count, &c->longitudinal_count};
    double* planes[2] = {c->bulkheads, c->longitudinal};
    for (int a = 0; a < 2; a++) {
        if (!rd_need(r, 4, what)) return;
        uint32_t n = get_u32(r);
        if (n >= COMPARTMENT_MAX) {
            rd_fail(r, what, "%u %s bulkheads, at most %d", n, a ? "longitudinal" : "transverse", COMPARTMENT_MAX - 1);
            return;
        }
        if (!rd_need(r, (size_t)n * 8, what)) return;
        *counts[a] = n;
        for (uint32_t i = 0; i < n; i++) planes[a][i] = get_f64(r);
    }
    if (!rd_need(r, 3 * 8 + 4, what)) return;
    c->damage.pump_rate = get_f64(r);
    c->damage.breach_speed = get_f64(r);
    c->damage.breach_area = get_f64(r);
    *compartments = get_u32(r);
    if (*compartments > COMPARTMENT_MAX) rd_fail(r, what, "%u compartments, at most %d", *compartments, COMPARTMENT_MAX);
}

static void ckp_get_vessel(ckp_reader* r, uint32_t index, world_vessel_record* v, uint16_t** slam_next,
                           const uint16_t* slam_end) {
    char what[64];
    snprintf(what, sizeof what, "vessel %u (slot %u)", index, index);
    if (!rd_need(r, CKP_VESSEL_FIXED, what)) return;
    v->id = get_u32(r);
    v->type = get_u32(r);
    v->flags = get_u32(r);
    uint32_t model = get_u32(r);
    if (model > WORLD_MODEL_FLOATER) rd_fail(r, what, "unknown model %u", model);
    v->model = (world_model)model;
    v->position = get_v3(r);
    v->orientation.w = get_f64(r);
    v->orientation.x = get_f64(r);
    v->orientation.y = get_f64(r);
    v->orientation.z = get_f64(r);
    v->velocity = get_v3(r);
    v->angular_momentum = get_v3(r);
    v->angular_velocity = get_v3(r);
    v->force = get_v3(r);
    v->torque = get_v3(r);
    v->submerged_area = get_f32(r);
    v->throttle_cmd = get_f32(r);
    v->rudder_cmd = get_f32(r);
    v->throttle = get_f32(r);
    v->rudder = get_f32(r);
    v->water_vy = get_f32(r);
    v->slam_count = get_u32(r);
    v->slam = NULL;
    if (r->failed || !v->slam_count) return;
    if (!rd_need(r, (size_t)v->slam_count * 2, what)) return;
    /* the section's size bounds every vessel's slamming memory together */
    if ((size_t)(slam_end - *slam_next) < v->slam_count) {
        rd_fail(r, what, "%u values of slamming memory run past the section", v->slam_count);
        return;
    }
    uint16_t* dst = *slam_next;
    for (uint32_t i = 0; i < v->slam_count; i++) dst[i] = get_u16(r);
    v->slam = dst;
    *slam_next += v->slam_count;
}

/* After the slamming memory: the vessel's damage, if any. */
static void ckp_get_flood(ckp_reader* r, uint32_t index, world_vessel_record* v) {
    char what[64];
    snprintf(what, sizeof what, "vessel %u (slot %u)", index, index);
    if (r->failed || !rd_need(r, 1, what) || !get_bool(r, what)) return;
    if (!rd_need(r, 4, what)) return;
    uint32_t holes = get_u32(r);
    if (holes > FLOOD_MAX_HOLES) {
        rd_fail(r, what, "%u holes, at most %d", holes, FLOOD_MAX_HOLES);
        return;
    }
    if (!rd_need(r, (size_t)holes * 36 + CKP_FLOOD_FIXED, what)) return;
    flood_state* f = calloc(1, sizeof *f);
    if (!f) {
        rd_fail(r, what, "out of memory for its flooding");
        return;
    }
    v->flood = f;
    f->hole_count = holes;
    for (uint32_t i = 0; i < holes; i++) {
        f->holes[i].compartment = get_u32(r);
        f->holes[i].point = get_v3(r);
        f->holes[i].area = get_f64(r);
        if (f->holes[i].compartment >= COMPARTMENT_MAX || !v3_is_finite(f->holes[i].point) ||
            !(f->holes[i].area > 0.0) || !isfinite(f->holes[i].area))
            rd_fail(r, what, "hole %u: compartment %u, a finite point and an area above 0 needed", i,
                    f->holes[i].compartment);
    }
    f->full = get_u64(r);
    f->pumping = get_bool(r, what);
    f->sunk = get_bool(r, what);
    for (uint32_t k = 0; k < COMPARTMENT_MAX; k++) {
        f->volume[k] = get_f64(r);
        f->level[k] = get_f64(r);
        if (!(f->volume[k] >= 0.0) || !isfinite(f->volume[k]) || !isfinite(f->level[k]))
            rd_fail(r, what, "compartment %u: water %g m^3 at level %g m (finite, >= 0 needed)", k, f->volume[k],
                    f->level[k]);
    }
}

/* The section at r->pos must be `section`; sets r->end to its end. */
static int ckp_open_section(ckp_reader* r, int section, size_t body_end) {
    r->tag = ckp_tags[section];
    if (body_end - r->pos < CKP_SECTION_HEADER)
        return nv_error_fail(r->err, NV_EPROTO, "%s: section '%s' missing: %zu bytes left at byte %zu", r->name, r->tag,
                             body_end - r->pos, r->pos);
    const uint8_t* p = r->data + r->pos;
    if (memcmp(p, ckp_tags[section], 4) != 0) {
        char got[5];
        for (int i = 0; i < 4; i++) got[i] = (p[i] >= 32 && p[i] < 127) ? (char)p[i] : '?';
        got[4] = '\0';
        return nv_error_fail(r->err, NV_EPROTO, "%s: expected section '%s' at byte %zu, found '%s'", r->name, r->tag,
                             r->pos, got);
    }
    if (ckp_load_u32(p + 4) != 0)
        return nv_error_fail(r->err, NV_EPROTO, "%s: section '%s' has unknown flags %#x", r->name, r->tag,
                             ckp_load_u32(p + 4));
    uint64_t len = ckp_load_u64(p + 8);
    r->pos += CKP_SECTION_HEADER;
    if (len > body_end - r->pos)
        return nv_error_fail(r->err, NV_EPROTO, "%s: section '%s' at byte %zu claims %llu bytes, only %zu remain",
                             r->name, r->tag, r->pos - CKP_SECTION_HEADER, (unsigned long long)len, body_end - r->pos);
    r->end = r->pos + (size_t)len;
    r->failed = 0;
    return 0;
}

static int ckp_close_section(ckp_reader* r) {
    if (r->failed) return -1;
    if (r->pos != r->end)
        return nv_error_fail(r->err, NV_EPROTO, "%s: section '%s' has %zu unread bytes after its fields (at byte %zu)",
                             r->name, r->tag, r->end - r->pos, r->pos);
    return 0;
}

void nv_checkpoint_free(checkpoint* c) {
    free(c->structures);
    free(c->structure_fingerprints);
    free(c->hulls);
    free(c->fingerprints);
    for (uint32_t i = 0; c->vessels && i < c->vessel_count; i++) free((flood_state*)c->vessels[i].flood);
    free(c->vessels);
    free(c->compartment_counts);
    free(c->slam_storage);
    free(c->owner_blob);
    memset(c, 0, sizeof *c);
}

/* The fixed header and the checksums: everything but the sections. */
static int ckp_check_frame(const uint8_t* d, size_t size, const char* name, nv_error* err) {
    if (size < CHECKPOINT_HEADER_SIZE)
        return nv_error_fail(err, NV_EPROTO, "%s: truncated at byte %zu: a checkpoint starts with a %u-byte header",
                             name, size, CHECKPOINT_HEADER_SIZE);
    if (memcmp(d, ckp_magic, sizeof ckp_magic) != 0)
        return nv_error_fail(err, NV_EPROTO, "%s: bad magic: not a naval checkpoint (no \"NVCHKPT\" at byte 0)", name);
    uint32_t version = ckp_load_u32(d + 8);
    uint32_t header_crc = ckp_load_u32(d + 28), header_want = nv_checkpoint_crc32(0, d, 28);
    if (header_crc != header_want)
        return nv_error_fail(err, NV_EPROTO,
                             "%s: header checksum mismatch (stored %08x, computed %08x): the header is corrupt", name,
                             header_crc, header_want);
    if (version != CHECKPOINT_VERSION)
        return nv_error_fail(err, NV_EPROTO, "%s: format version %u, this build reads version %u", name, version,
                             CHECKPOINT_VERSION);
    if (ckp_load_u32(d + 24) != 0)
        return nv_error_fail(err, NV_EPROTO, "%s: unknown header flags %#x", name, ckp_load_u32(d + 24));
    if (ckp_load_u32(d + 12) != CKP_SECTION_COUNT)
        return nv_error_fail(err, NV_EPROTO, "%s: %u sections, version %u has %u", name, ckp_load_u32(d + 12),
                             CHECKPOINT_VERSION, CKP_SECTION_COUNT);
    uint64_t declared = ckp_load_u64(d + 16);
    if (declared < CHECKPOINT_HEADER_SIZE + CKP_TRAILER)
        return nv_error_fail(err, NV_EPROTO, "%s: the header declares %llu bytes, fewer than a header and a checksum",
                             name, (unsigned long long)declared);
    if (size < declared)
        return nv_error_fail(err, NV_EPROTO, "%s: truncated at byte %zu (the header declares %llu bytes)", name, size,
                             (unsigned long long)declared);
    if (size > declared)
        return nv_error_fail(err, NV_EPROTO, "%s: %zu bytes after the end the header declares (byte %llu)", name,
                             size - (size_t)declared, (unsigned long long)declared);
    uint32_t stored = ckp_load_u32(d + size - CKP_TRAILER), want = nv_checkpoint_crc32(0, d, size - CKP_TRAILER);
    if (stored != want)
        return nv_error_fail(err, NV_EPROTO,
                             "%s: checksum mismatch (stored %08x, computed %08x over bytes 0..%zu): the file is "
                             "corrupt",
                             name, stored, want, size - CKP_TRAILER - 1);
    return 0;
}

int nv_checkpoint_decode(const void* data, size_t size, const char* name, checkpoint* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    const uint8_t* d = data;
    if (!name) name = "checkpoint";
    if (ckp_check_frame(d, size, name, err)) return -1;
    size_t body_end = size - CKP_TRAILER;
    ckp_reader r = {.data = d, .pos = CHECKPOINT_HEADER_SIZE, .name = name, .err = err};
    checkpoint* c = out;

    if (ckp_open_section(&r, CKP_WORLD, body_end)) goto fail;
    uint32_t vessel_count = 0, type_count = 0;
    if (rd_need(&r, 8 + 8 + 8 + 4 * 3, "the clock and counts")) {
        c->tick = get_u64(&r);
        c->time = get_f64(&r);
        c->state_hash = get_u64(&r);
        c->next_id = get_u32(&r);
        vessel_count = get_u32(&r);
        type_count = get_u32(&r);
    }
    ckp_get_config(&r, &c->world);
    if (rd_need(&r, 3 * 8 + 1 + 3 * 8, "the wind and levels of detail")) {
        c->wind = get_v3(&r);
        c->lod.enabled = get_bool(&r, "levels of detail");
        c->lod.mesh_within = get_f64(&r);
        c->lod.columns_within = get_f64(&r);
        c->lod.hysteresis = get_f64(&r);
    }
    if (ckp_close_section(&r)) goto fail;
    /* the world derives its time from the tick this way, never by adding */
    if (!(c->world.tick_hz > 0.0) || (double)c->tick * (1.0 / c->world.tick_hz) != c->time) {
        nv_error_fail(err, NV_EPROTO, "%s: time %.17g is not tick %llu at %g Hz", name, c->time,
                      (unsigned long long)c->tick, c->world.tick_hz);
        goto fail;
    }

    if (ckp_open_section(&r, CKP_OCEAN, body_end)) goto fail;
    c->has_ocean = get_bool(&r, "the ocean's presence");
    if (c->has_ocean) ckp_get_ocean(&r, &c->ocean);
    if (ckp_close_section(&r)) goto fail;

    if (ckp_open_section(&r, CKP_GROUND, body_end)) goto fail;
    if (get_bool(&r, "the terrain's presence")) {
        get_str(&r, c->terrain.source, sizeof c->terrain.source, "the terrain's source");
        if (!r.failed && !c->terrain.source[0]) rd_fail(&r, "the terrain's source", "an empty source");
        if (rd_need(&r, 5 * 8 + 8, "the terrain's spec")) {
            c->terrain.spec.origin_x = get_f64(&r);
            c->terrain.spec.origin_z = get_f64(&r);
            c->terrain.spec.cell_size = get_f64(&r);
            c->terrain.spec.min_elevation = get_f64(&r);
            c->terrain.spec.max_elevation = get_f64(&r);
            c->terrain_fingerprint = get_u64(&r);
        }
    }
    c->contacts.enabled = get_bool(&r, "contacts enabled");
    if (rd_need(&r, 6 * 8, "the contact parameters")) {
        c->contacts.ground_friction = get_f64(&r);
        c->contacts.vessel_friction = get_f64(&r);
        c->contacts.restitution = get_f64(&r);
        c->contacts.hertz = get_f64(&r);
        c->contacts.damping_ratio = get_f64(&r);
        c->contacts.push_speed = get_f64(&r);
    }
    if (rd_need(&r, 4, "the structure count")) c->structure_count = get_u32(&r);
    /* each takes at least a string length, 7 numbers and a fingerprint */
    if (!r.failed && (uint64_t)c->structure_count * (2 + 7 * 8 + 8) > r.end - r.pos) {
        nv_error_fail(err, NV_EPROTO, "%s: section 'GRND' lists %u structures, more than its bytes hold", name,
                      c->structure_count);
        goto fail;
    }
    if (!r.failed && c->structure_count) {
        c->structures = calloc(c->structure_count, sizeof *c->structures);
        c->structure_fingerprints = calloc(c->structure_count, sizeof *c->structure_fingerprints);
        if (!c->structures || !c->structure_fingerprints) {
            nv_error_fail(err, NV_ENOMEM, "%s: out of memory for %u structures", name, c->structure_count);
            goto fail;
        }
        for (uint32_t i = 0; i < c->structure_count && !r.failed; i++) {
            scenario_structure* st = &c->structures[i];
            get_str(&r, st->source, sizeof st->source, "a structure's mesh");
            if (!rd_need(&r, 7 * 8 + 8, "a structure's box and pose")) break;
            for (int k = 0; k < 3; k++) st->box[k] = get_f64(&r);
            st->x = get_f64(&r);
            st->y = get_f64(&r);
            st->z = get_f64(&r);
            st->heading_deg = get_f64(&r);
            c->structure_fingerprints[i] = get_u64(&r);
        }
    }
    if (ckp_close_section(&r)) goto fail;

    if (ckp_open_section(&r, CKP_TYPES, body_end)) goto fail;
    if (rd_need(&r, 4, "the hull type count")) c->hull_count = get_u32(&r);
    if (r.failed) goto fail;
    if (c->hull_count != type_count || c->hull_count > WORLD_MAX_HULL_TYPES ||
        (size_t)c->hull_count > (r.end - r.pos) / 40) {
        nv_error_fail(err, NV_ELIMIT,
                      "%s: section 'TYPS' lists %u hull types, the world section %u (at most %u, and each needs "
                      "40 bytes)",
                      name, c->hull_count, type_count, WORLD_MAX_HULL_TYPES);
        goto fail;
    }
    c->hulls = calloc(c->hull_count ? c->hull_count : 1, sizeof *c->hulls);
    c->fingerprints = calloc(c->hull_count ? c->hull_count : 1, sizeof *c->fingerprints);
    c->compartment_counts = calloc(c->hull_count ? c->hull_count : 1, sizeof *c->compartment_counts);
    if (!c->hulls || !c->fingerprints || !c->compartment_counts) {
        nv_error_fail(err, NV_ENOMEM, "%s: out of memory for %u hull types", name, c->hull_count);
        goto fail;
    }
    for (uint32_t i = 0; i < c->hull_count && !r.failed; i++) {
        ckp_get_type(&r, i, &c->hulls[i], &c->fingerprints[i], &c->compartment_counts[i]);
        for (uint32_t k = 0; k < i && !r.failed; k++)
            if (!strcmp(c->hulls[k].name, c->hulls[i].name)) rd_fail(&r, "hull types", "%u and %u are both named '%s'", k, i, c->hulls[i].name);
    }
    if (ckp_close_section(&r)) goto fail;

    if (ckp_open_section(&r, CKP_VESSELS, body_end)) goto fail;
    uint32_t listed = 0;
    if (rd_need(&r, 4, "the vessel count")) listed = get_u32(&r);
    if (r.failed) goto fail;
    size_t room = r.end - r.pos;
    if (listed != vessel_count || listed > WORLD_MAX_VESSELS || (size_t)listed > room / CKP_VESSEL_FIXED) {
        nv_error_fail(err, NV_ELIMIT,
                      "%s: section 'VSLS' lists %u vessels, the world section %u (at most %u, and each needs %u "
                      "bytes)",
                      name, listed, vessel_count, WORLD_MAX_VESSELS, CKP_VESSEL_FIXED);
        goto fail;
    }
    c->vessel_count = listed;
    /* Slamming memory fits in what the records leave of the section. */
    size_t slam_room = (room - (size_t)listed * CKP_VESSEL_FIXED) / 2;
    c->vessels = calloc(listed ? listed : 1, sizeof *c->vessels);
    c->slam_storage = malloc((slam_room ? slam_room : 1) * sizeof(uint16_t));
    if (!c->vessels || !c->slam_storage) {
        nv_error_fail(err, NV_ENOMEM, "%s: out of memory for %u vessels", name, listed);
        goto fail;
    }
    uint16_t* slam_next = c->slam_storage;
    for (uint32_t i = 0; i < listed && !r.failed; i++) {
        world_vessel_record* v = &c->vessels[i];
        ckp_get_vessel(&r, i, v, &slam_next, c->slam_storage + slam_room);
        ckp_get_flood(&r, i, v);
        if (r.failed) break;
        if (v->type >= c->hull_count)
            rd_fail(&r, "vessels", "vessel %u (slot %u) has hull type %u, the list has %u", v->id, i, v->type,
                    c->hull_count);
        else if (v->id >= c->next_id)
            rd_fail(&r, "vessels", "vessel %u (slot %u) has an id at or past the next id %u", v->id, i, c->next_id);
    }
    if (ckp_close_section(&r)) goto fail;

    if (ckp_open_section(&r, CKP_OWNER, body_end)) goto fail;
    c->owner_size = r.end - r.pos;
    c->owner_blob = malloc(c->owner_size ? c->owner_size : 1);
    if (!c->owner_blob) {
        nv_error_fail(err, NV_ENOMEM, "%s: out of memory for an owner blob of %zu bytes", name, c->owner_size);
        goto fail;
    }
    memcpy(c->owner_blob, d + r.pos, c->owner_size);
    r.pos = r.end;
    if (r.pos != body_end) {
        nv_error_fail(err, NV_EPROTO, "%s: %zu bytes between the last section and the checksum (at byte %zu)", name,
                      body_end - r.pos, r.pos);
        goto fail;
    }
    return 0;
fail:
    nv_checkpoint_free(out);
    return -1;
}

/* ---- files ------------------------------------------------------------ */

/* Tests stop the writer after a step (to leave the files as a kill -9 there
 * would); NULL in every program. */
static nv_checkpoint_step_fn* ckp_step_hook;

void nv_checkpoint_set_step_hook(nv_checkpoint_step_fn* fn) { ckp_step_hook = fn; }

static void ckp_step(const char* path, checkpoint_step step) {
    if (ckp_step_hook) ckp_step_hook(path, step);
}

static int ckp_write_all(int fd, const uint8_t* p, size_t n) {
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* The directory holding `path` ("." or "/" when it names none). */
static void ckp_dir_of(const char* path, char* dir, size_t cap) {
    const char* slash = strrchr(path, '/');
    if (!slash) snprintf(dir, cap, ".");
    else if (slash == path) snprintf(dir, cap, "/");
    else snprintf(dir, cap, "%.*s", (int)(slash - path), path);
}

/* fsync of the directory holding `path`, so that the rename is durable. */
static int ckp_sync_dir(const char* path, nv_error* err) {
    char dir[4096];
    ckp_dir_of(path, dir, sizeof dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return nv_error_fail(err, NV_EIO, "checkpoint: cannot open directory %s to sync it: %s", dir, strerror(errno));
    /* some file systems cannot sync a directory (EINVAL): nothing more to do there */
    int rc = fsync(fd) != 0 && errno != EINVAL ? -1 : 0;
    int saved = errno;
    close(fd);
    if (rc) return nv_error_fail(err, NV_EIO, "checkpoint: fsync of directory %s: %s", dir, strerror(saved));
    return 0;
}

/* The whole file into *data (malloc'd). */
static int ckp_slurp(const char* path, uint8_t** data, size_t* size, nv_error* err) {
    *data = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return nv_error_fail(err, errno == ENOENT ? NV_ENOENT : NV_EIO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        close(fd);
        return nv_error_set(err, "%s: not a regular file", path);
    }
    size_t cap = (size_t)st.st_size;
    uint8_t* buf = malloc(cap ? cap : 1);
    if (!buf) {
        close(fd);
        return nv_error_fail(err, NV_ENOMEM, "%s: out of memory for %zu bytes", path, cap);
    }
    size_t got = 0;
    while (got < cap) {
        ssize_t k = read(fd, buf + got, cap - got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            int saved = errno;
            close(fd);
            free(buf);
            return nv_error_fail(err, NV_EIO, "%s: read: %s", path, strerror(saved));
        }
        if (k == 0) break; /* shrank while read: decoded as truncated */
        got += (size_t)k;
    }
    close(fd);
    *data = buf;
    *size = got;
    return 0;
}

/* 1 when `path` holds a whole checkpoint (its size and checksums hold),
 * 0 when it is missing, unreadable, truncated or corrupt. Only such a file
 * may become path.prev: a broken one (the file a restore just refused)
 * must never take the place of a good previous checkpoint. */
static int ckp_file_is_complete(const char* path) {
    uint8_t* data;
    size_t size;
    nv_error ignored;
    if (ckp_slurp(path, &data, &size, &ignored)) return 0;
    int ok = ckp_check_frame(data, size, path, &ignored) == 0;
    free(data);
    return ok;
}

int nv_checkpoint_write_file(const char* path, const checkpoint_source* src, nv_error* err) {
    checkpoint c;
    if (nv_checkpoint_capture(src, &c, err)) return -1;
    int rc = nv_checkpoint_write_captured(path, &c, err);
    nv_checkpoint_free(&c);
    return rc;
}

/* The bytes into a new temporary file beside `path`, on disk: 0 with its
 * name in tmp, else -1 and no temporary file. */
static int ckp_write_temporary(const char* path, const uint8_t* data, size_t size, char* tmp, size_t cap,
                               nv_error* err) {
    snprintf(tmp, cap, "%s%sXXXXXX", path, CHECKPOINT_TEMPORARY_INFIX);
    int fd = mkstemp(tmp); /* mode 0600: it holds owners' tokens */
    if (fd < 0)
        return nv_error_fail(err, NV_EIO, "checkpoint: cannot create a temporary file beside %s: %s", path,
                             strerror(errno));
    const char* step = NULL;
    if (ckp_write_all(fd, data, size / 2)) step = "write";
    if (!step) ckp_step(path, CHECKPOINT_STEP_TEMP_PARTIAL);
    if (!step && ckp_write_all(fd, data + size / 2, size - size / 2)) step = "write";
    if (!step) ckp_step(path, CHECKPOINT_STEP_TEMP_WRITTEN);
    if (!step && fsync(fd)) step = "fsync";
    int saved = errno;
    if (close(fd) && !step) step = "close", saved = errno;
    if (step) {
        unlink(tmp);
        return nv_error_fail(err, NV_EIO, "checkpoint: %s of %s: %s", step, tmp, strerror(saved));
    }
    ckp_step(path, CHECKPOINT_STEP_TEMP_SYNCED);
    return 0;
}

int nv_checkpoint_write_captured(const char* path, const checkpoint* c, nv_error* err) {
    size_t len = strlen(path);
    if (!len || len > 4000) return nv_error_set(err, "checkpoint: the path must be 1..4000 characters");
    uint8_t* data;
    size_t size;
    if (nv_checkpoint_encode_captured(c, &data, &size, err)) return -1;
    char tmp[4096], prev[4096];
    snprintf(prev, sizeof prev, "%s%s", path, CHECKPOINT_PREVIOUS_SUFFIX);
    int rc = ckp_write_temporary(path, data, size, tmp, sizeof tmp, err);
    free(data);
    if (rc) return -1;
    /* The file there becomes the previous one only when it is whole; a
     * broken one is simply replaced, and path.prev (perhaps the checkpoint
     * the server was restored from) stays. */
    int had_previous = ckp_file_is_complete(path);
    if (had_previous && rename(path, prev)) {
        int saved = errno;
        unlink(tmp);
        return nv_error_fail(err, NV_EIO, "checkpoint: cannot move %s to %s: %s", path, prev, strerror(saved));
    }
    if (had_previous) ckp_step(path, CHECKPOINT_STEP_OLD_MOVED);
    if (rename(tmp, path)) {
        int saved = errno;
        unlink(tmp);
        if (had_previous) rename(prev, path); /* put the old one back; best effort */
        return nv_error_fail(err, NV_EIO, "checkpoint: cannot rename %s to %s: %s", tmp, path, strerror(saved));
    }
    ckp_step(path, CHECKPOINT_STEP_RENAMED);
    if (ckp_sync_dir(path, err)) return -1;
    ckp_step(path, CHECKPOINT_STEP_DIR_SYNCED);
    return 0;
}

int nv_checkpoint_read_file(const char* path, checkpoint* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    uint8_t* data;
    size_t size;
    if (ckp_slurp(path, &data, &size, err)) return -1;
    int rc = nv_checkpoint_decode(data, size, path, out, err);
    free(data);
    return rc;
}

/* ---- the newest complete checkpoint after a crash ---------------------- */

/* A file the writer may have left: path, path.prev or a temporary. */
typedef struct ckp_candidate {
    char name[4096];
    int kind;              /* CHECKPOINT_USED_* */
    struct timespec mtime; /* when its bytes were written (a rename keeps it) */
} ckp_candidate;

/* Calls fn for every path.tmp.* beside `path`; stops at its first
 * non-zero result and returns it; -1 when the directory cannot be read. */
static int ckp_each_temporary(const char* path, int (*fn)(void* ctx, const char* name), void* ctx, nv_error* err) {
    char dir[4096], prefix[4096];
    ckp_dir_of(path, dir, sizeof dir);
    const char* slash = strrchr(path, '/');
    snprintf(prefix, sizeof prefix, "%s%s", slash ? slash + 1 : path, CHECKPOINT_TEMPORARY_INFIX);
    size_t plen = strlen(prefix);
    DIR* d = opendir(dir);
    if (!d) return nv_error_fail(err, NV_EIO, "checkpoint: cannot read directory %s: %s", dir, strerror(errno));
    int rc = 0;
    struct dirent* e;
    while (!rc && (e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, plen) || !e->d_name[plen]) continue;
        char name[4096 + 256];
        if (slash) snprintf(name, sizeof name, "%s/%s", dir, e->d_name);
        else snprintf(name, sizeof name, "%s", e->d_name);
        rc = fn(ctx, name);
    }
    closedir(d);
    return rc;
}

/* Whether a (whose checkpoint has tick ta) was written after b. */
static int ckp_newer(const ckp_candidate* a, uint64_t ta, const ckp_candidate* b, uint64_t tb) {
    if (a->mtime.tv_sec != b->mtime.tv_sec) return a->mtime.tv_sec > b->mtime.tv_sec;
    if (a->mtime.tv_nsec != b->mtime.tv_nsec) return a->mtime.tv_nsec > b->mtime.tv_nsec;
    if (ta != tb) return ta > tb;
    return a->kind < b->kind; /* path, then path.prev, then a temporary */
}

typedef struct ckp_search {
    checkpoint best;
    ckp_candidate best_at;
    int found;
    nv_error first, second; /* why path and path.prev were refused */
} ckp_search;

/* Reads one candidate and keeps it when it is usable and the newest yet. */
static void ckp_consider(ckp_search* s, const char* name, int kind) {
    ckp_candidate at;
    memset(&at, 0, sizeof at);
    snprintf(at.name, sizeof at.name, "%s", name);
    at.kind = kind;
    nv_error why;
    checkpoint c;
    struct stat st;
    int rc = nv_checkpoint_read_file(name, &c, &why);
    if (!rc && stat(name, &st)) rc = nv_error_fail(&why, NV_EIO, "%s: cannot stat: %s", name, strerror(errno));
    if (rc) {
        if (kind == CHECKPOINT_USED_FILE) s->first = why;
        else if (kind == CHECKPOINT_USED_PREVIOUS) s->second = why;
        return; /* a temporary that does not decode is a write cut short: not a candidate */
    }
    at.mtime = st.st_mtim;
    if (s->found && !ckp_newer(&at, c.tick, &s->best_at, s->best.tick)) {
        nv_checkpoint_free(&c);
        return;
    }
    if (s->found) nv_checkpoint_free(&s->best);
    s->best = c;
    s->best_at = at;
    s->found = 1;
}

static int ckp_consider_temporary(void* ctx, const char* name) {
    ckp_consider(ctx, name, CHECKPOINT_USED_TEMPORARY);
    return 0;
}

/* The newest usable file of path, path.prev and path.tmp.*. */
static int ckp_search_newest(const char* path, ckp_search* s, nv_error* err) {
    memset(s, 0, sizeof *s);
    char prev[4096];
    snprintf(prev, sizeof prev, "%s%s", path, CHECKPOINT_PREVIOUS_SUFFIX);
    ckp_consider(s, path, CHECKPOINT_USED_FILE);
    ckp_consider(s, prev, CHECKPOINT_USED_PREVIOUS);
    nv_error ignored; /* an unreadable directory leaves path and path.prev, which were read above */
    ckp_each_temporary(path, ckp_consider_temporary, s, &ignored);
    if (!s->found)
        return nv_error_set(err, "no usable checkpoint: %s; and %s", s->first.message, s->second.message);
    return 0;
}

int nv_checkpoint_read_newest(const char* path, checkpoint* out, int* used, nv_error* refused, nv_error* err) {
    checkpoint_recovery r;
    if (nv_checkpoint_find_newest(path, out, &r, err)) return -1;
    if (used) *used = r.used;
    if (refused) *refused = r.refused;
    return 0;
}

int nv_checkpoint_find_newest(const char* path, checkpoint* out, checkpoint_recovery* info, nv_error* err) {
    memset(out, 0, sizeof *out);
    memset(info, 0, sizeof *info);
    if (strlen(path) > 4000) return nv_error_set(err, "checkpoint: the path must be 1..4000 characters");
    ckp_search s;
    if (ckp_search_newest(path, &s, err)) return -1;
    *out = s.best;
    info->used = s.best_at.kind;
    snprintf(info->file, sizeof info->file, "%s", s.best_at.name);
    if (s.best_at.kind == CHECKPOINT_USED_FILE) return 0;
    if (s.first.message[0]) info->refused = s.first;
    else
        nv_error_set(&info->refused, "%s: %s is newer (a write cut short before its rename)", path,
                     s.best_at.name);
    return 0;
}

static int ckp_remove_temporary(void* ctx, const char* name) {
    int* removed = ctx;
    if (unlink(name) == 0) (*removed)++;
    return 0;
}

int nv_checkpoint_remove_temporaries(const char* path, int* removed, nv_error* err) {
    int n = 0;
    if (removed) *removed = 0;
    int rc = ckp_each_temporary(path, ckp_remove_temporary, &n, err);
    if (removed) *removed = n;
    return rc < 0 ? -1 : 0;
}

/* The temporary the restore used takes path's place as a finished write
 * would have (path, when whole, becoming path.prev), so that a crash
 * before the next checkpoint finds it again under its own name. */
static int ckp_promote(const char* path, const char* tmp, nv_error* err) {
    char prev[4096];
    snprintf(prev, sizeof prev, "%s%s", path, CHECKPOINT_PREVIOUS_SUFFIX);
    if (ckp_file_is_complete(path) && rename(path, prev))
        return nv_error_fail(err, NV_EIO, "checkpoint: cannot move %s to %s: %s", path, prev, strerror(errno));
    if (rename(tmp, path))
        return nv_error_fail(err, NV_EIO, "checkpoint: cannot rename %s to %s: %s", tmp, path, strerror(errno));
    return ckp_sync_dir(path, err);
}

int nv_checkpoint_recover(const char* path, checkpoint* out, checkpoint_recovery* info, nv_error* err) {
    if (nv_checkpoint_find_newest(path, out, info, err)) return -1;
    if (info->used == CHECKPOINT_USED_TEMPORARY && ckp_promote(path, info->file, &info->tidy)) return 0;
    if (info->used == CHECKPOINT_USED_TEMPORARY) snprintf(info->file, sizeof info->file, "%s", path);
    nv_checkpoint_remove_temporaries(path, &info->removed, &info->tidy);
    return 0;
}

/* ---- restore ---------------------------------------------------------- */

int nv_checkpoint_restore(const checkpoint* c, jobs* pool, scenario_instance* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    /* The types and the water through the same path the scenario took, so
     * every derived number is computed the same way. */
    scenario scn;
    memset(&scn, 0, sizeof scn);
    scn.world = c->world;
    scn.has_ocean = c->has_ocean;
    scn.ocean = c->ocean;
    scn.wind = c->wind;
    scn.hulls = c->hulls;
    scn.hull_count = c->hull_count;
    scn.terrain = c->terrain;
    scn.contacts = c->contacts;
    scn.structures = c->structures;
    scn.structure_count = c->structure_count;
    if (nv_scenario_instantiate(&scn, pool, out, err)) return nv_error_prefix(err, "restore");
    world* w = out->world;
    if (out->terrain && nv_terrain_fingerprint(out->terrain) != c->terrain_fingerprint) {
        nv_error_set(err,
                     "restore: the terrain from %s is not the one the checkpoint was taken with: did its "
                     "heightmap change?",
                     c->terrain.source);
        goto fail;
    }
    for (uint32_t i = 0; i < c->structure_count; i++)
        if (nv_world_structure_fingerprint(w, i) != c->structure_fingerprints[i]) {
            nv_error_set(err,
                         "restore: structure %u from %s is not the one the checkpoint was taken with: did its mesh "
                         "change?",
                         i, c->structures[i].source[0] ? c->structures[i].source : "a box");
            goto fail;
        }
    nv_world_set_wind(w, c->wind);
    nv_world_set_lod(w, &c->lod);
    for (uint32_t i = 0; i < c->hull_count; i++) {
        checkpoint_fingerprint now = ckp_fingerprint_of(nv_world_hull_type(w, i));
        const checkpoint_fingerprint* then = &c->fingerprints[i];
        if (now.vertex_count != then->vertex_count || now.triangle_count != then->triangle_count ||
            now.mass != then->mass || now.geometry_hash != then->geometry_hash) {
            nv_error_set(err,
                         "restore: hull type '%s' from %s is not the hull the checkpoint was taken with (%u vertices, "
                         "%u triangles, %.9g kg now; %u, %u, %.9g kg then): did its mesh file change?",
                         c->hulls[i].name, c->hulls[i].source, now.vertex_count, now.triangle_count, now.mass,
                         then->vertex_count, then->triangle_count, then->mass);
            goto fail;
        }
        const compartment_set* cs = nv_world_type_compartments(w, i);
        if ((cs ? cs->count : 0) != c->compartment_counts[i]) {
            nv_error_set(err, "restore: hull type '%s' has %u compartments now, %u then", c->hulls[i].name,
                         cs ? cs->count : 0, c->compartment_counts[i]);
            goto fail;
        }
    }
    for (uint32_t i = 0; i < c->vessel_count; i++)
        if (nv_world_restore_vessel(w, &c->vessels[i], err)) goto fail;
    if (nv_world_set_next_id(w, c->next_id, err)) goto fail;
    nv_world_set_clock(w, c->tick);
    uint64_t hash = nv_world_state_hash(w);
    if (hash != c->state_hash) {
        nv_error_set(err, "restore: the rebuilt world's state hash %016llx differs from the checkpoint's %016llx",
                     (unsigned long long)hash, (unsigned long long)c->state_hash);
        goto fail;
    }
    return 0;
fail:
    nv_scenario_instance_destroy(out);
    return -1;
}
