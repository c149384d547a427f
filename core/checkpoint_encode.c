// SPDX-License-Identifier: MIT
/* The encoder: a captured checkpoint into the format's bytes (layout in
 * checkpoint.h), field by field, little-endian. */
#include <stdlib.h>
#include <string.h>

#include "checkpoint_internal.h"
#include "grow.h"

typedef struct ckp_writer {
    uint8_t* data;
    size_t size, capacity;
    int failed; /* out of memory: every later put is a no-op */
} ckp_writer;

static uint8_t* ckp_room(ckp_writer* w, size_t n) {
    if (w->failed) return NULL;
    if (n > SIZE_MAX - w->size || GROW(&w->data, &w->capacity, w->size + n, 4096)) {
        w->failed = 1;
        return NULL;
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
static void put_v3(ckp_writer* w, nv_vec3 v) {
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

static void ckp_put_config(ckp_writer* w, const nv_world_config* c) {
    put_f64(w, c->tick_hz);
    put_f64(w, c->water_density);
    put_f64(w, c->gravity);
    put_f64(w, c->linear_damping);
    put_f64(w, c->angular_damping);
    put_u32(w, c->vertex_block);
    put_u32(w, c->triangle_block);
    put_f64(w, c->sunk_removal_depth);
}

static void ckp_put_ocean(ckp_writer* w, const nv_ocean_params* p) {
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

static void ckp_put_dynamics(ckp_writer* w, const nv_vessel_dynamics* d) {
    const nv_hydrodyn_coeffs* c = &d->coeffs;
    put_u32(w, c->forces);
    const double scalars[] = {c->water_density,    c->viscosity,        c->reynolds_min,       c->reference_length,
                              c->residual,         c->pressure_linear,  c->pressure_quadratic, c->pressure_falloff,
                              c->suction_linear,   c->suction_quadratic, c->suction_falloff,   c->reference_speed,
                              c->slam_power,       c->slam_gamma_max,   c->air_density,        c->air_drag,
                              c->damping_linear[0], c->damping_linear[1], c->damping_angular[0], c->damping_angular[1]};
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) put_f64(w, scalars[i]);
    put_v3(w, c->added_mass);
    put_v3(w, c->added_inertia);
    put_f64(w, c->bilge_keel[0]);
    put_f64(w, c->bilge_keel[1]);
    put_f64(w, c->roll_damping[0]);
    put_f64(w, c->roll_damping[1]);
    for (int i = 0; i < 3; i++) put_f64(w, c->planing[i]);
    const nv_actuator_set* a = &d->actuators;
    put_u32(w, a->propeller_count);
    for (uint32_t i = 0; i < a->propeller_count; i++) {
        const nv_actuator_propeller* p = &a->propellers[i];
        put_v3(w, p->position);
        put_v3(w, p->direction);
        put_f64(w, p->max_thrust);
        put_f64(w, p->reverse_fraction);
        put_f64(w, p->immersion);
        put_f64(w, p->steering_deg);
        put_f64(w, p->diameter);
    }
    put_u32(w, a->rudder_count);
    for (uint32_t i = 0; i < a->rudder_count; i++) {
        const nv_actuator_rudder* r = &a->rudders[i];
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

static void ckp_put_type(ckp_writer* w, const nv_scenario_hull* h, const nv_checkpoint_fingerprint* f,
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
    const nv_vessel_compartments* c = &h->compartments;
    put_u32(w, c->bulkhead_count);
    for (uint32_t i = 0; i < c->bulkhead_count; i++) put_f64(w, c->bulkheads[i]);
    put_u32(w, c->longitudinal_count);
    for (uint32_t i = 0; i < c->longitudinal_count; i++) put_f64(w, c->longitudinal[i]);
    put_f64(w, c->damage.pump_rate);
    put_f64(w, c->damage.breach_speed);
    put_f64(w, c->damage.breach_area);
    put_f64(w, c->damage.plating);
    put_f64(w, c->damage.breach_energy);
    put_u32(w, compartments);
    put_u8(w, h->has_rating ? 1 : 0);
    put_u8(w, h->has_rating ? (uint8_t)h->rated_beaufort : 0);
}

static void ckp_put_vessel(ckp_writer* w, const nv_world_vessel_record* r) {
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
    const nv_flood_state* f = r->flood;
    put_u32(w, f->hole_count);
    for (uint32_t i = 0; i < f->hole_count; i++) {
        put_u32(w, f->holes[i].compartment);
        put_v3(w, f->holes[i].point);
        put_f64(w, f->holes[i].area);
    }
    put_u64(w, f->full);
    put_u8(w, f->pumping);
    put_u8(w, f->sunk);
    put_u16(w, f->under_ticks);
    for (uint32_t k = 0; k < COMPARTMENT_MAX; k++) {
        put_f64(w, f->volume[k]);
        put_f64(w, f->level[k]);
    }
}

int nv_checkpoint_encode_captured(const nv_checkpoint* c, uint8_t** out, size_t* size, nv_error* err) {
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
    put_u32(&w, c->touching_count);
    for (uint32_t i = 0; i < c->touching_count; i++) put_u64(&w, c->touching[i]);
    for (uint32_t i = 0; i < c->touching_count; i++) put_v3(&w, c->touching_normal[i]);
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
        const nv_scenario_structure* st = &c->structures[i];
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

int nv_checkpoint_encode(const nv_checkpoint_source* src, uint8_t** out, size_t* size, nv_error* err) {
    *out = NULL;
    *size = 0;
    nv_checkpoint c;
    if (nv_checkpoint_capture(src, &c, err)) return -1;
    int rc = nv_checkpoint_encode_captured(&c, out, size, err);
    nv_checkpoint_free(&c);
    return rc;
}
