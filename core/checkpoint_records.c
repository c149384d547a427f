// SPDX-License-Identifier: MIT
/* The decoder's readers of the records in the sections: the world's
 * config, the ocean's params, a hull type (with its dynamics and
 * compartments), a vessel and its flooding. Each checks what it reads and
 * names the place when it fails. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint_internal.h"

void ckp_get_config(ckp_reader* r, nv_world_config* c) {
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

void ckp_get_ocean(ckp_reader* r, nv_ocean_params* p) {
    if (!rd_need(r, 15 * 8 + 8 + 8 * 4, "the ocean params")) return;
    uint32_t spectrum = get_u32(r), spreading = get_u32(r);
    if (spectrum > SPECTRUM_TMA) rd_fail(r, "the ocean params", "unknown spectrum %u", spectrum);
    if (spreading > SPREADING_DONELAN_BANNER) rd_fail(r, "the ocean params", "unknown spreading %u", spreading);
    p->spectrum = (nv_spectrum_type)spectrum;
    p->spreading = (nv_spreading_type)spreading;
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

static void ckp_get_dynamics(ckp_reader* r, nv_vessel_dynamics* d, const char* what) {
    nv_hydrodyn_coeffs* c = &d->coeffs;
    if (!rd_need(r, 4 + 33 * 8 + 4, what)) return;
    c->forces = get_u32(r);
    double* scalars[] = {&c->water_density,    &c->viscosity,         &c->reynolds_min,       &c->reference_length,
                         &c->residual,         &c->pressure_linear,   &c->pressure_quadratic, &c->pressure_falloff,
                         &c->suction_linear,   &c->suction_quadratic, &c->suction_falloff,    &c->reference_speed,
                         &c->slam_power,       &c->slam_gamma_max,    &c->air_density,        &c->air_drag,
                         &c->damping_linear[0], &c->damping_linear[1], &c->damping_angular[0], &c->damping_angular[1]};
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) *scalars[i] = get_f64(r);
    c->added_mass = get_v3(r);
    c->added_inertia = get_v3(r);
    c->bilge_keel[0] = get_f64(r);
    c->bilge_keel[1] = get_f64(r);
    c->roll_damping[0] = get_f64(r);
    c->roll_damping[1] = get_f64(r);
    for (int i = 0; i < 3; i++) c->planing[i] = get_f64(r);
    nv_actuator_set* a = &d->actuators;
    memset(a, 0, sizeof *a);
    a->propeller_count = get_u32(r);
    if (a->propeller_count > ACTUATOR_MAX_PROPELLERS) {
        rd_fail(r, what, "%u propellers, at most %d", a->propeller_count, ACTUATOR_MAX_PROPELLERS);
        return;
    }
    if (!rd_need(r, (size_t)a->propeller_count * 11 * 8 + 4, what)) return;
    for (uint32_t i = 0; i < a->propeller_count; i++) {
        nv_actuator_propeller* p = &a->propellers[i];
        p->position = get_v3(r);
        p->direction = get_v3(r);
        p->max_thrust = get_f64(r);
        p->reverse_fraction = get_f64(r);
        p->immersion = get_f64(r);
        p->steering_deg = get_f64(r);
        p->diameter = get_f64(r);
    }
    a->rudder_count = get_u32(r);
    if (a->rudder_count > ACTUATOR_MAX_RUDDERS) {
        rd_fail(r, what, "%u rudders, at most %d", a->rudder_count, ACTUATOR_MAX_RUDDERS);
        return;
    }
    if (!rd_need(r, (size_t)a->rudder_count * 8 * 8 + 2 * 8, what)) return;
    for (uint32_t i = 0; i < a->rudder_count; i++) {
        nv_actuator_rudder* u = &a->rudders[i];
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

void ckp_get_type(ckp_reader* r, uint32_t index, nv_scenario_hull* h, nv_checkpoint_fingerprint* f,
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
    nv_vessel_compartments* c = &h->compartments;
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
    if (!rd_need(r, 5 * 8 + 4, what)) return;
    c->damage.pump_rate = get_f64(r);
    c->damage.breach_speed = get_f64(r);
    c->damage.breach_area = get_f64(r);
    c->damage.plating = get_f64(r);
    c->damage.breach_energy = get_f64(r);
    if (!(c->damage.plating >= 0.0) || !(c->damage.breach_energy >= 0.0) || !isfinite(c->damage.plating) ||
        !isfinite(c->damage.breach_energy))
        rd_fail(r, what, "hull strength: plating %g m and breach energy %g J must be finite and >= 0",
                c->damage.plating, c->damage.breach_energy);
    *compartments = get_u32(r);
    if (*compartments > COMPARTMENT_MAX) rd_fail(r, what, "%u compartments, at most %d", *compartments, COMPARTMENT_MAX);
    h->has_rating = get_bool(r, what);
    if (!rd_need(r, 1, what)) return;
    uint8_t rated = get_u8(r);
    if (rated > 12 || (!h->has_rating && rated))
        rd_fail(r, what, "rated Beaufort number %u: 0..12, and 0 when the type is unrated", (unsigned)rated);
    h->rated_beaufort = rated;
}

void ckp_get_vessel(ckp_reader* r, uint32_t index, nv_world_vessel_record* v, uint16_t** slam_next,
                    const uint16_t* slam_end) {
    char what[64];
    snprintf(what, sizeof what, "vessel %u (slot %u)", index, index);
    if (!rd_need(r, CKP_VESSEL_FIXED, what)) return;
    v->id = get_u32(r);
    v->type = get_u32(r);
    v->flags = get_u32(r);
    uint32_t model = get_u32(r);
    if (model > WORLD_MODEL_FLOATER) rd_fail(r, what, "unknown model %u", model);
    v->model = (nv_world_model)model;
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

void ckp_get_flood(ckp_reader* r, uint32_t index, nv_world_vessel_record* v) {
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
    nv_flood_state* f = calloc(1, sizeof *f);
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
    f->under_ticks = get_u16(r);
    for (uint32_t k = 0; k < COMPARTMENT_MAX; k++) {
        f->volume[k] = get_f64(r);
        f->level[k] = get_f64(r);
        if (!(f->volume[k] >= 0.0) || !isfinite(f->volume[k]) || !isfinite(f->level[k]))
            rd_fail(r, what, "compartment %u: water %g m^3 at level %g m (finite, >= 0 needed)", k, f->volume[k],
                    f->level[k]);
    }
}
