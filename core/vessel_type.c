// SPDX-License-Identifier: MIT
#include "naval/vessel_type.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_ranged.h"
#include "naval/hullgen.h"

static nv_actuator_propeller vt_propeller_default(void) {
    nv_actuator_propeller p;
    memset(&p, 0, sizeof p);
    p.direction = v3(1.0, 0.0, 0.0);
    p.reverse_fraction = 0.6;
    p.immersion = 0.3;
    return p;
}

static nv_actuator_rudder vt_rudder_default(void) {
    nv_actuator_rudder r;
    memset(&r, 0, sizeof r);
    r.max_angle_deg = 35.0;
    r.lift_slope = 3.0;
    r.stall_angle_deg = 25.0;
    r.drag_coefficient = 0.02;
    return r;
}

void nv_vessel_type_init(nv_vessel_type* t) {
    memset(t, 0, sizeof *t);
    t->mesh = nv_mesh_options_default();
    t->mass = nv_mass_spec_default();
    t->dynamics.coeffs = nv_hydrodyn_coeffs_default();
    nv_actuator_set_init(&t->dynamics.actuators);
    t->rated_beaufort = -1;
}

/* Force names in "coefficients.forces", in HYDRODYN_* bit order. */
static const char* const vt_force_names[] = {"viscous", "pressure_drag", "slamming", "air_drag", "area_damping",
                                             "added_mass", "residual", "roll_damping", "heave_pitch_damping",
                                             "water_entry", "manoeuvring", "breaking_crests"};
#define VT_FORCE_COUNT (sizeof vt_force_names / sizeof vt_force_names[0])

static int vt_parse_forces(const json_ctx* c, const cJSON* v, const char* path, uint32_t* out) {
    if (cJSON_IsString(v)) {
        if (strcmp(v->valuestring, "all") == 0) *out = HYDRODYN_ALL;
        else if (strcmp(v->valuestring, "none") == 0) *out = 0;
        else return json_fail(c, path, "expected \"all\", \"none\" or an array of force names (got \"%s\")", v->valuestring);
        return 0;
    }
    if (!cJSON_IsArray(v))
        return json_fail(c, path, "expected \"all\", \"none\" or an array of force names (got %s)", json_type_name(v));
    uint32_t bits = 0;
    int i = 0;
    for (const cJSON* it = v->child; it; it = it->next, i++) {
        char elem[JSON_PATH_MAX];
        json_path_index(elem, sizeof elem, path, i);
        if (!cJSON_IsString(it)) return json_fail(c, elem, "expected a force name (got %s)", json_type_name(it));
        size_t f = 0;
        while (f < VT_FORCE_COUNT && strcmp(it->valuestring, vt_force_names[f]) != 0) f++;
        if (f == VT_FORCE_COUNT)
            return json_fail(c, elem,
                             "'%s' is not one of viscous, pressure_drag, slamming, air_drag, area_damping, added_mass, "
                             "residual, roll_damping, heave_pitch_damping, water_entry, manoeuvring, breaking_crests",
                             it->valuestring);
        if (bits & (1u << f)) return json_fail(c, elem, "'%s' is listed twice", it->valuestring);
        bits |= 1u << f;
    }
    *out = bits;
    return 0;
}

/* The scalar coefficients: key = field name, with its row of the range
 * table (nv_hydrodyn_coeffs_validate checks the same rows; here the message
 * names the key's full path, and validate runs after as the last word). */
typedef struct vt_coeff_field {
    const char* key;
    size_t offset;
    nv_range_id range;
} vt_coeff_field;

#define VT_COEFF(field, id) {#field, offsetof(nv_hydrodyn_coeffs, field), id}
static const vt_coeff_field vt_coeff_fields[] = {
    VT_COEFF(viscosity, NV_RANGE_TYPE_VISCOSITY),
    VT_COEFF(reynolds_min, NV_RANGE_TYPE_REYNOLDS_MIN),
    VT_COEFF(reference_length, NV_RANGE_TYPE_REFERENCE_LENGTH),
    VT_COEFF(residual, NV_RANGE_TYPE_RESIDUAL),
    VT_COEFF(pressure_linear, NV_RANGE_TYPE_PRESSURE_LINEAR),
    VT_COEFF(pressure_quadratic, NV_RANGE_TYPE_PRESSURE_QUADRATIC),
    VT_COEFF(pressure_falloff, NV_RANGE_TYPE_PRESSURE_FALLOFF),
    VT_COEFF(suction_linear, NV_RANGE_TYPE_SUCTION_LINEAR),
    VT_COEFF(suction_quadratic, NV_RANGE_TYPE_SUCTION_QUADRATIC),
    VT_COEFF(suction_falloff, NV_RANGE_TYPE_SUCTION_FALLOFF),
    VT_COEFF(reference_speed, NV_RANGE_TYPE_REFERENCE_SPEED),
    VT_COEFF(slam_power, NV_RANGE_TYPE_SLAM_POWER),
    VT_COEFF(slam_gamma_max, NV_RANGE_TYPE_SLAM_GAMMA_MAX),
    VT_COEFF(air_density, NV_RANGE_TYPE_AIR_DENSITY),
    VT_COEFF(air_drag, NV_RANGE_TYPE_AIR_DRAG),
};
#define VT_COEFF_COUNT (sizeof vt_coeff_fields / sizeof vt_coeff_fields[0])

static int vt_parse_coeffs(const json_ctx* c, const cJSON* o, const char* path, nv_hydrodyn_coeffs* h) {
    static const char* const keys[] = {"forces", "viscosity", "reynolds_min", "reference_length", "residual", "pressure_linear",
                                       "pressure_quadratic", "pressure_falloff", "suction_linear", "suction_quadratic",
                                       "suction_falloff", "reference_speed", "slam_power", "slam_gamma_max",
                                       "air_density", "air_drag", "damping_linear", "damping_angular", "added_mass",
                                       "added_inertia", NULL};
    if (json_check_keys(c, o, path, keys)) return -1;
    const cJSON* forces = cJSON_GetObjectItemCaseSensitive(o, "forces");
    char full[JSON_PATH_MAX];
    json_path_key(full, sizeof full, path, "forces");
    if (forces && vt_parse_forces(c, forces, full, &h->forces)) return -1;
    for (size_t i = 0; i < VT_COEFF_COUNT; i++) {
        const vt_coeff_field* f = &vt_coeff_fields[i];
        if (json_get_ranged(c, o, path, f->key, f->range, (double*)((char*)h + f->offset)) < 0) return -1;
    }
    double v[3];
    int n;
    if ((n = json_get_ranged_numbers(c, o, path, "damping_linear", 2, 2, NV_RANGE_TYPE_AREA_DAMPING, v)) < 0) return -1;
    if (n) h->damping_linear[0] = v[0], h->damping_linear[1] = v[1];
    if ((n = json_get_ranged_numbers(c, o, path, "damping_angular", 2, 2, NV_RANGE_TYPE_AREA_DAMPING, v)) < 0) return -1;
    if (n) h->damping_angular[0] = v[0], h->damping_angular[1] = v[1];
    if ((n = json_get_ranged_numbers(c, o, path, "added_mass", 3, 3, NV_RANGE_TYPE_ADDED_MASS, v)) < 0) return -1;
    if (n) h->added_mass = v3(v[0], v[1], v[2]);
    if ((n = json_get_ranged_numbers(c, o, path, "added_inertia", 3, 3, NV_RANGE_TYPE_ADDED_MASS, v)) < 0) return -1;
    if (n) h->added_inertia = v3(v[0], v[1], v[2]);
    nv_error inner;
    if (nv_hydrodyn_coeffs_validate(h, &inner)) return json_fail(c, path, "%s", inner.message);
    return 0;
}

/* A required position [x, y, z] in mesh coordinates. */
static int vt_get_position(const json_ctx* c, const cJSON* o, const char* path, nv_vec3* out) {
    double v[3];
    if (json_require(c, o, path, "position", "[x, y, z] in mesh coordinates, m") ||
        json_get_ranged_numbers(c, o, path, "position", 3, 3, NV_RANGE_TYPE_COORDINATE, v) < 0)
        return -1;
    *out = v3(v[0], v[1], v[2]);
    return 0;
}

static int vt_parse_propeller(const json_ctx* c, const cJSON* o, const char* path, nv_actuator_propeller* p) {
    static const char* const keys[] = {"position", "direction", "max_thrust", "reverse",
                                       "immersion", "steering", "diameter", NULL};
    if (json_check_keys(c, o, path, keys)) return -1;
    *p = vt_propeller_default();
    if (vt_get_position(c, o, path, &p->position)) return -1;
    double v[3];
    int n = json_get_ranged_numbers(c, o, path, "direction", 3, 3, NV_RANGE_TYPE_PROPELLER_DIRECTION, v);
    if (n < 0) return -1;
    if (n) {
        char full[JSON_PATH_MAX];
        json_path_key(full, sizeof full, path, "direction");
        p->direction = v3(v[0], v[1], v[2]);
        if (!(v3_length(p->direction) > 1e-9)) return json_fail(c, full, "must not be the zero vector");
    }
    if (json_require(c, o, path, "max_thrust", "a thrust in N") ||
        json_get_ranged(c, o, path, "max_thrust", NV_RANGE_TYPE_MAX_THRUST, &p->max_thrust) < 0 ||
        json_get_ranged(c, o, path, "reverse", NV_RANGE_TYPE_REVERSE, &p->reverse_fraction) < 0 ||
        json_get_ranged(c, o, path, "immersion", NV_RANGE_TYPE_IMMERSION, &p->immersion) < 0 ||
        json_get_ranged(c, o, path, "steering", NV_RANGE_TYPE_STEERING, &p->steering_deg) < 0 ||
        json_get_ranged(c, o, path, "diameter", NV_RANGE_TYPE_PROPELLER_DIAMETER, &p->diameter) < 0)
        return -1;
    return 0;
}

static int vt_parse_rudder(const json_ctx* c, const cJSON* o, const char* path, nv_actuator_rudder* r) {
    static const char* const keys[] = {"position", "area", "max_angle", "lift_slope", "stall_angle", "drag", NULL};
    if (json_check_keys(c, o, path, keys)) return -1;
    *r = vt_rudder_default();
    if (vt_get_position(c, o, path, &r->position)) return -1;
    if (json_require(c, o, path, "area", "one side's area in m^2") ||
        json_get_ranged(c, o, path, "area", NV_RANGE_TYPE_RUDDER_AREA, &r->area) < 0 ||
        json_get_ranged(c, o, path, "max_angle", NV_RANGE_TYPE_RUDDER_ANGLE, &r->max_angle_deg) < 0 ||
        json_get_ranged(c, o, path, "lift_slope", NV_RANGE_TYPE_LIFT_SLOPE, &r->lift_slope) < 0 ||
        json_get_ranged(c, o, path, "stall_angle", NV_RANGE_TYPE_RUDDER_ANGLE, &r->stall_angle_deg) < 0 ||
        json_get_ranged(c, o, path, "drag", NV_RANGE_TYPE_RUDDER_DRAG, &r->drag_coefficient) < 0)
        return -1;
    return 0;
}

/* An optional array of at most `max` objects, each read by `parse`. */
typedef int vt_parse_item_fn(const json_ctx* c, const cJSON* o, const char* path, void* item);

static int vt_parse_list(const json_ctx* c, const cJSON* parent, const char* path, const char* key, uint32_t max,
                         vt_parse_item_fn* parse, void* items, size_t item_size, uint32_t* count) {
    const cJSON* list = cJSON_GetObjectItemCaseSensitive(parent, key);
    *count = 0;
    if (!list) return 0;
    char full[JSON_PATH_MAX];
    json_path_key(full, sizeof full, path, key);
    if (!cJSON_IsArray(list)) return json_fail(c, full, "expected an array (got %s)", json_type_name(list));
    int n = cJSON_GetArraySize(list);
    if (n > (int)max) return json_fail(c, full, "at most %u (got %d)", max, n);
    int i = 0;
    for (const cJSON* it = list->child; it; it = it->next, i++) {
        char elem[JSON_PATH_MAX];
        json_path_index(elem, sizeof elem, full, i);
        if (parse(c, it, elem, (char*)items + (size_t)i * item_size)) return -1;
    }
    *count = (uint32_t)n;
    return 0;
}

static int vt_parse_propeller_item(const json_ctx* c, const cJSON* o, const char* path, void* item) {
    return vt_parse_propeller(c, o, path, item);
}

static int vt_parse_rudder_item(const json_ctx* c, const cJSON* o, const char* path, void* item) {
    return vt_parse_rudder(c, o, path, item);
}

static int vt_parse_actuators(const json_ctx* c, const cJSON* o, const char* path, nv_actuator_set* a) {
    if (vt_parse_list(c, o, path, "propellers", ACTUATOR_MAX_PROPELLERS, vt_parse_propeller_item, a->propellers,
                      sizeof a->propellers[0], &a->propeller_count) ||
        vt_parse_list(c, o, path, "rudders", ACTUATOR_MAX_RUDDERS, vt_parse_rudder_item, a->rudders,
                      sizeof a->rudders[0], &a->rudder_count))
        return -1;
    const cJSON* controls = cJSON_GetObjectItemCaseSensitive(o, "controls");
    if (controls) {
        static const char* const keys[] = {"throttle_rate", "rudder_rate", NULL};
        char full[JSON_PATH_MAX];
        json_path_key(full, sizeof full, path, "controls");
        if (json_check_keys(c, controls, full, keys) ||
            json_get_ranged(c, controls, full, "throttle_rate", NV_RANGE_TYPE_CONTROL_RATE, &a->throttle_rate) < 0 ||
            json_get_ranged(c, controls, full, "rudder_rate", NV_RANGE_TYPE_CONTROL_RATE, &a->rudder_rate) < 0)
            return -1;
    }
    nv_error inner;
    if (nv_actuator_set_validate(a, &inner)) return json_fail(c, path, "%s", inner.message);
    return 0;
}

/* Names end up in CSV columns and log lines: keep them plain. */
static int vt_name_is_plain(const char* name) {
    for (const char* p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
              *p == '-' || *p == '.'))
            return 0;
    return 1;
}

static int vt_parse_hull(const json_ctx* c, const cJSON* o, const char* path, nv_vessel_type* t) {
    int failed;
    char full[JSON_PATH_MAX];
    const char* name = json_get_string(c, o, path, "name", true, &failed);
    if (failed) return -1;
    json_path_key(full, sizeof full, path, "name");
    if (strlen(name) >= sizeof t->name)
        return json_fail(c, full, "longer than %zu characters", sizeof t->name - 1);
    if (!vt_name_is_plain(name))
        return json_fail(c, full, "'%s' may hold only letters, digits, '_', '-' and '.'", name);
    strcpy(t->name, name);
    const char* source = json_get_string(c, o, path, "hull", true, &failed);
    if (failed) return -1;
    json_path_key(full, sizeof full, path, "hull");
    if (json_resolve_path(c, full, source, t->hull, sizeof t->hull)) return -1;
    const char* up = json_get_string(c, o, path, "up", false, &failed);
    if (failed) return -1;
    if (up) {
        json_path_key(full, sizeof full, path, "up");
        if (strcmp(up, "y") && strcmp(up, "z")) return json_fail(c, full, "must be \"y\" or \"z\" (got \"%s\")", up);
        t->mesh.up = up[0];
    }
    if (json_get_bool(c, o, path, "flip", &t->mesh.flip_inside_out) < 0) return -1;
    if (cJSON_GetObjectItemCaseSensitive(o, "mass") && cJSON_GetObjectItemCaseSensitive(o, "density"))
        return json_fail(c, path, "give mass or density, not both");
    if (json_get_ranged(c, o, path, "mass", NV_RANGE_TYPE_MASS, &t->mass.mass) < 0 ||
        json_get_ranged(c, o, path, "density", NV_RANGE_TYPE_DENSITY, &t->mass.density) < 0)
        return -1;
    double v[3];
    int got = json_get_ranged_numbers(c, o, path, "cg", 3, 3, NV_RANGE_TYPE_COORDINATE, v);
    if (got < 0) return -1;
    if (got) t->mass.has_cg = true, t->mass.cg = v3(v[0], v[1], v[2]);
    got = json_get_ranged_numbers(c, o, path, "gyration", 3, 3, NV_RANGE_TYPE_GYRATION, v);
    if (got < 0) return -1;
    if (got) t->mass.has_gyration = true, t->mass.gyration = v3(v[0], v[1], v[2]);
    return 0;
}

/* "compartments": {"bulkheads": [x, ...], "longitudinal": [z, ...],
 * "pumps": m^3/s, "breach_speed": m/s, "breach_area": m^2}: the planes in
 * increasing order (their place on the hull is checked when the hull is
 * loaded: nv_vessel_type_compartments). */
static int vt_parse_compartments(const json_ctx* c, const cJSON* o, const char* path, nv_vessel_compartments* out) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(o, "compartments");
    if (!v) return 0;
    char full[JSON_PATH_MAX];
    json_path_key(full, sizeof full, path, "compartments");
    if (!cJSON_IsObject(v)) return json_fail(c, full, "expected an object (got %s)", json_type_name(v));
    static const char* const keys[] = {"bulkheads", "longitudinal", "pumps", "breach_speed", "breach_area", NULL};
    if (json_check_keys(c, v, full, keys)) return -1;
    if (json_get_ranged(c, v, full, "pumps", NV_RANGE_TYPE_PUMPS, &out->damage.pump_rate) < 0 ||
        json_get_ranged(c, v, full, "breach_speed", NV_RANGE_TYPE_BREACH_SPEED, &out->damage.breach_speed) < 0 ||
        json_get_ranged(c, v, full, "breach_area", NV_RANGE_TYPE_HOLE_AREA, &out->damage.breach_area) < 0)
        return -1;
    int nx = json_get_ranged_numbers(c, v, full, "bulkheads", 1, COMPARTMENT_MAX - 1, NV_RANGE_TYPE_COORDINATE,
                                     out->bulkheads);
    if (nx < 0) return -1;
    int nz = json_get_ranged_numbers(c, v, full, "longitudinal", 1, COMPARTMENT_MAX - 1, NV_RANGE_TYPE_COORDINATE,
                                     out->longitudinal);
    if (nz < 0) return -1;
    out->bulkhead_count = (uint32_t)nx;
    out->longitudinal_count = (uint32_t)nz;
    const char* names[2] = {"bulkheads", "longitudinal"};
    const double* planes[2] = {out->bulkheads, out->longitudinal};
    int counts[2] = {nx, nz};
    for (int a = 0; a < 2; a++)
        for (int i = 1; i < counts[a]; i++)
            if (!(planes[a][i] > planes[a][i - 1])) {
                json_path_key(full, sizeof full, path, "compartments");
                char key[JSON_PATH_MAX];
                json_path_key(key, sizeof key, full, names[a]);
                return json_fail(c, key, "must increase (%g then %g)", planes[a][i - 1], planes[a][i]);
            }
    if ((uint64_t)(nx + 1) * (uint64_t)(nz + 1) > COMPARTMENT_MAX)
        return json_fail(c, full, "%d x %d compartments, at most %d", nx + 1, nz + 1, COMPARTMENT_MAX);
    return 0;
}

int nv_vessel_type_compartments(const nv_vessel_type* t, const nv_mesh* hull, nv_vec3 cg, nv_compartment_set* out, nv_error* err) {
    const nv_vessel_compartments* c = &t->compartments;
    /* The cut is in mesh coordinates (where the planes are given), the
     * result moved to the body frame. */
    if (nv_compartment_split(hull, c->bulkheads, c->bulkhead_count, c->longitudinal, c->longitudinal_count, out, err))
        return nv_error_prefix(err, "%s: compartments", t->name[0] ? t->name : "vessel type");
    out->damage = c->damage;
    for (uint32_t k = 0; k < out->count; k++) {
        nv_mesh* m = &out->meshes[k];
        for (uint32_t i = 0; i < m->vertex_count; i++) {
            m->positions[3 * i] -= (float)cg.x;
            m->positions[3 * i + 1] -= (float)cg.y;
            m->positions[3 * i + 2] -= (float)cg.z;
        }
    }
    for (uint32_t k = 0; k <= out->nx; k++) out->x_bounds[k] -= cg.x;
    for (uint32_t k = 0; k <= out->nz; k++) out->z_bounds[k] -= cg.z;
    return 0;
}

/* "bilge_keels": {"length": m, "breadth": m} and "roll_damping":
 * {"linear": N m s, "quadratic": N m s^2} into the coefficients (which
 * must switch roll_damping on for either to act); "planing":
 * {"chine_beam": m, "deadrise": degrees, "length": m} (Savitsky's planing
 * lift, naval/planing.h); "rated_beaufort". */
static int vt_parse_seakeeping(const json_ctx* c, const cJSON* o, const char* path, nv_vessel_type* out) {
    nv_hydrodyn_coeffs* h = &out->dynamics.coeffs;
    char full[JSON_PATH_MAX];
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(o, "bilge_keels");
    if (v) {
        json_path_key(full, sizeof full, path, "bilge_keels");
        if (!cJSON_IsObject(v)) return json_fail(c, full, "expected {\"length\": m, \"breadth\": m} (got %s)", json_type_name(v));
        static const char* const keys[] = {"length", "breadth", NULL};
        if (json_check_keys(c, v, full, keys) || json_require(c, v, full, "length", "m along the hull") ||
            json_require(c, v, full, "breadth", "m out from the hull") ||
            json_get_ranged(c, v, full, "length", NV_RANGE_TYPE_BILGE_KEEL, &h->bilge_keel[0]) < 0 ||
            json_get_ranged(c, v, full, "breadth", NV_RANGE_TYPE_BILGE_KEEL, &h->bilge_keel[1]) < 0)
            return -1;
    }
    v = cJSON_GetObjectItemCaseSensitive(o, "roll_damping");
    if (v) {
        json_path_key(full, sizeof full, path, "roll_damping");
        if (!cJSON_IsObject(v))
            return json_fail(c, full, "expected {\"linear\": N m s, \"quadratic\": N m s^2} (got %s)", json_type_name(v));
        static const char* const keys[] = {"linear", "quadratic", NULL};
        if (json_check_keys(c, v, full, keys) || json_require(c, v, full, "linear", "N m s of roll moment per rad/s") ||
            json_require(c, v, full, "quadratic", "N m s^2 of roll moment per (rad/s)^2") ||
            json_get_ranged(c, v, full, "linear", NV_RANGE_TYPE_ROLL_DAMPING, &h->roll_damping[0]) < 0 ||
            json_get_ranged(c, v, full, "quadratic", NV_RANGE_TYPE_ROLL_DAMPING, &h->roll_damping[1]) < 0)
            return -1;
    }
    v = cJSON_GetObjectItemCaseSensitive(o, "planing");
    if (v) {
        json_path_key(full, sizeof full, path, "planing");
        if (!cJSON_IsObject(v))
            return json_fail(c, full, "expected {\"chine_beam\": m, \"deadrise\": degrees, \"length\": m} (got %s)",
                             json_type_name(v));
        static const char* const keys[] = {"chine_beam", "deadrise", "length", NULL};
        if (json_check_keys(c, v, full, keys) || json_require(c, v, full, "chine_beam", "m across the chines") ||
            json_require(c, v, full, "deadrise", "degrees of the bottom from the horizontal") ||
            json_require(c, v, full, "length", "m of prismatic bottom forward of the transom") ||
            json_get_ranged(c, v, full, "chine_beam", NV_RANGE_TYPE_PLANING_LENGTH, &h->planing[0]) < 0 ||
            json_get_ranged(c, v, full, "deadrise", NV_RANGE_TYPE_PLANING_DEADRISE, &h->planing[1]) < 0 ||
            json_get_ranged(c, v, full, "length", NV_RANGE_TYPE_PLANING_LENGTH, &h->planing[2]) < 0)
            return -1;
    }
    int64_t rated = out->rated_beaufort;
    if (json_get_ranged_int(c, o, path, "rated_beaufort", NV_RANGE_TYPE_RATED_BEAUFORT, &rated) < 0) return -1;
    out->rated_beaufort = (int)rated;
    return 0;
}

/* "hull_strength": {"plating": m, "breach_energy": J}: contacts hole the
 * hull by impact energy (compartment.h); needs compartments to hold the
 * holes. */
static int vt_parse_hull_strength(const json_ctx* c, const cJSON* o, const char* path, nv_vessel_type* out) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(o, "hull_strength");
    if (!v) return 0;
    char full[JSON_PATH_MAX];
    json_path_key(full, sizeof full, path, "hull_strength");
    if (!cJSON_IsObject(v))
        return json_fail(c, full, "expected {\"plating\": m, \"breach_energy\": J} (got %s)", json_type_name(v));
    static const char* const keys[] = {"plating", "breach_energy", NULL};
    nv_compartment_damage* d = &out->compartments.damage;
    if (json_check_keys(c, v, full, keys) || json_require(c, v, full, "plating", "m of steel-equivalent shell") ||
        json_require(c, v, full, "breach_energy", "J a blow must pass to hole the hull") ||
        json_get_ranged(c, v, full, "plating", NV_RANGE_TYPE_PLATING, &d->plating) < 0 ||
        json_get_ranged(c, v, full, "breach_energy", NV_RANGE_TYPE_BREACH_ENERGY, &d->breach_energy) < 0)
        return -1;
    if (!out->compartments.bulkhead_count && !out->compartments.longitudinal_count)
        return json_fail(c, full, "needs \"compartments\" with a bulkhead: a hole is made in a compartment");
    return 0;
}

int nv_vessel_type_parse_object(const json_ctx* c, const cJSON* o, const char* path, unsigned flags, nv_vessel_type* out) {
    static const char* const full_keys[] = {"name",    "hull",     "up",       "flip",         "mass",
                                            "density", "cg",       "gyration", "coefficients", "propellers",
                                            "rudders", "controls", "compartments", "bilge_keels",
                                            "roll_damping", "planing", "rated_beaufort", "hull_strength", NULL};
    static const char* const hull_keys[] = {"name", "hull", "up", "flip", "mass", "density", "cg", "gyration",
                                            "coefficients", NULL};
    int hull_entry = (flags & VESSEL_TYPE_HULL_ENTRY) != 0;
    nv_vessel_type_init(out);
    if (hull_entry) out->dynamics.coeffs = nv_hydrodyn_coeffs_none();
    if (json_check_keys(c, o, path, hull_entry ? hull_keys : full_keys) || vt_parse_hull(c, o, path, out)) return -1;
    const cJSON* coeffs = cJSON_GetObjectItemCaseSensitive(o, "coefficients");
    if (coeffs) {
        /* A hull entry that asks for forces starts from the same defaults
         * as a vessel type. */
        out->dynamics.coeffs = nv_hydrodyn_coeffs_default();
        char full[JSON_PATH_MAX];
        json_path_key(full, sizeof full, path, "coefficients");
        if (vt_parse_coeffs(c, coeffs, full, &out->dynamics.coeffs)) return -1;
    }
    if (hull_entry) return 0;
    if (vt_parse_seakeeping(c, o, path, out) || vt_parse_actuators(c, o, path, &out->dynamics.actuators) ||
        vt_parse_compartments(c, o, path, &out->compartments) || vt_parse_hull_strength(c, o, path, out))
        return -1;
    /* the coefficients again, with the top-level keys they depend on (a
     * planing bottom refuses "manoeuvring") */
    nv_error inner;
    if (nv_hydrodyn_coeffs_validate(&out->dynamics.coeffs, &inner)) return json_fail(c, path, "%s", inner.message);
    return 0;
}

int nv_vessel_type_parse(const char* text, size_t length, const char* name, const char* base_dir, nv_vessel_type* out,
                         nv_error* err) {
    json_ctx c = {name ? name : "vessel type", base_dir, err};
    nv_vessel_type_init(out);
    cJSON* root = json_parse_text(&c, text, length);
    if (!root) return -1;
    int rc = nv_vessel_type_parse_object(&c, root, "", 0, out);
    cJSON_Delete(root);
    return rc;
}

static int vt_parse_text(const char* text, size_t length, const char* name, const char* base_dir, void* out,
                         nv_error* err) {
    return nv_vessel_type_parse(text, length, name, base_dir, out, err);
}

int nv_vessel_type_load_file(const char* path, nv_vessel_type* out, nv_error* err) {
    nv_vessel_type_init(out);
    return json_load_file(path, vt_parse_text, out, err);
}

/* The built-in types. Hull dimensions (hullgen.c, keel at y = 0, midship at
 * x = 0, transom at x = -L/2): skiff 5 x 1.9 x 0.8 m, patrol 24 x 5.6 x
 * 2.6 m, freighter 120 x 19 x 12 m. Masses float each at 40-60 % of its
 * depth, CGs sit a little below the waterline and over the centre of
 * buoyancy (level trim), gyration radii are 0.38 B (roll; the skiff 0.32 B) and 0.25 L (yaw,
 * pitch). Thrust is sized against the default coefficients' resistance for
 * top speeds of about 14, 12 and 8 m/s on flat water (measured with
 * naval-sim; see README). data/vessels/NAME.json holds the same numbers (a
 * test checks). */
typedef struct vt_builtin_spec {
    const char* name;
    double mass;
    nv_vec3 cg, gyration;
    uint32_t propellers, rudders;
    nv_actuator_propeller propeller[2]; /* position, direction, max_thrust, reverse, immersion, steering, diameter */
    nv_actuator_rudder rudder[2];       /* position, area, max_angle, lift_slope, stall_angle, drag */
    double throttle_rate, rudder_rate;
    uint32_t bulkheads;
    double bulkhead[8];              /* mesh x, m */
    nv_compartment_damage damage;       /* pumps m^3/s, breach speed m/s, breach area m^2, plating m, breach energy J */
    int rated_beaufort;
    double bilge_keel[2];               /* length, breadth, m */
    double planing[3];                  /* chine beam m, deadrise degrees, prismatic length m; 0: none */
    uint32_t forces_added;              /* HYDRODYN_* beyond nv_hydrodyn_coeffs_default()'s */
} vt_builtin_spec;

static const vt_builtin_spec vt_builtins[] = {
    /* An outboard skiff: the motor swivels 15 degrees with the helm (it
     * steers by its thrust), over a small skeg; shallow immersion ramp for a
     * small, high-set propeller. Roll gyration 0.32 B, not the ships' 0.38
     * B: an open boat's weights (motor, fuel, crew on the thwarts) sit near
     * the centreline; at 0.38 B it rolled over at speed in its rated sea
     * (docs/hydrodynamics.md, "Planing craft"). */
    {"skiff", 1500.0, {-0.5, 0.3, 0.0}, {0.6, 1.25, 1.25}, 1, 1,
     {{{-2.6, 0.05, 0.0}, {1.0, 0.0, 0.0}, 4000.0, 0.5, 0.1, 15.0, 0.0}},
     {{{-2.75, 0.15, 0.0}, 0.1, 35.0, 3.0, 30.0, 0.02}}, 0.5, 1.0,
     /* A buoyancy locker forward of 1.5 m. GRP: 2 mm of steel's worth
     * against Minorsky's law, torn by 2 kJ (a 1.6 m/s blow against a
     * quay; 3.1 m/s bow to bow with another). */
     1, {1.5}, {0.0, 0.0, 0.0, 0.002, 2000.0}, 4, {0.0, 0.0},
     /* It planes (Cv 3.4 at full throttle): Savitsky's lift on its flat
     * floor, between the knuckles (1.735 m apart at midship) and as far
     * forward as the keel runs straight (70 % of the length). Struck by
     * breaking crests, as every built-in is: above its rating it first
     * capsizes in bow and beam seas (docs/hydrodynamics.md, "Breaking
     * crests"). */
     {1.735, 0.0, 3.5}, HYDRODYN_BREAKING_CRESTS},
    /* Twin screws of 0.7 m and twin rudders in their races, 1.3 m either
     * side of the centreline; bilge keels a third of its length, 0.25 m
     * deep (5 % of the beam). */
    {"patrol", 80000.0, {-2.3, 1.1, 0.0}, {2.1, 6.0, 6.0}, 2, 2,
     {{{-12.2, 0.4, -1.3}, {1.0, 0.0, 0.0}, 22000.0, 0.6, 0.3, 0.0, 0.7},
      {{-12.2, 0.4, 1.3}, {1.0, 0.0, 0.0}, 22000.0, 0.6, 0.3, 0.0, 0.7}},
     {{{-12.6, 0.5, -1.3}, 0.5, 35.0, 3.0, 25.0, 0.02}, {{-12.6, 0.5, 1.3}, 0.5, 35.0, 3.0, 25.0, 0.02}}, 0.25, 0.5,
     /* Five compartments: steering gear, engine room, midships, forward, forepeak. */
     4, {-8.0, -2.5, 3.5, 8.5},
     /* A salvage pump of 30 l/s per compartment. 6 mm steel, torn by
     * 100 kJ: 1.5 m/s against a quay, 3.1 m/s bow to bow. Rated
     * Beaufort 7: over 30 minutes (three seeds) nothing capsized in 5, 6
     * or 7 at any speed and heading, once the added mass left a hull
     * launched off a crest, nor with breaking crests striking it
     * (docs/hydrodynamics.md, "Thirty minutes", "Breaking crests"). */
     {0.03, 0.0, 0.0, 0.006, 100000.0}, 7, {8.0, 0.25}, {0.0, 0.0, 0.0},
     /* Clarke's manoeuvring derivatives: the displacement hulls turn and
     * hold a course as ships do (docs/hydrodynamics.md, "Manoeuvring
     * forces"); the skiff planes, outside their regressions */
     HYDRODYN_MANOEUVRING | HYDRODYN_BREAKING_CRESTS},
    /* One large slow screw of 4.5 m; in its race a rudder of 2.2 % of L d (14 m^2 missed IMO
     * MSC.137(76)'s initial turning: 2.68 L for 10 degrees, the limit 2.5)
     * that swings hard over to hard over in ~28 s (SOLAS). */
    {"freighter", 9000000.0, {-10.5, 6.0, 0.0}, {7.2, 30.0, 30.0}, 1, 1,
     {{{-60.5, 3.5, 0.0}, {1.0, 0.0, 0.0}, 620000.0, 0.6, 1.0, 0.0, 4.5}},
     {{{-62.0, 4.0, 0.0}, 18.0, 35.0, 3.0, 25.0, 0.02}}, 0.05, 0.07,
     /* Seven: aft peak, engine room, four holds, forepeak (a collision
     * bulkhead 6 % of the length aft of the stem). */
     6, {-50.0, -32.0, -12.0, 8.0, 28.0, 52.0},
     /* Bilge and ballast pumps, 300 m^3/h per compartment. 15 mm steel,
     * torn by 10 MJ (a berthing blow at 1 m/s is 5 MJ; 1.4 m/s against
     * a quay, 2.8 m/s bow to bow). Bilge keels over 35 % of its length,
     * 0.8 m deep (4.6 % of the beam): zeta 0.04 at 10 degrees, what a cargo
     * ship with keels measures. */
     {0.083, 0.0, 0.0, 0.015, 1.0e7}, 10, {42.0, 0.8}, {0.0, 0.0, 0.0},
     HYDRODYN_MANOEUVRING | HYDRODYN_BREAKING_CRESTS},
};
#define VT_BUILTIN_COUNT ((int)(sizeof vt_builtins / sizeof vt_builtins[0]))

int nv_vessel_type_builtin_count(void) { return VT_BUILTIN_COUNT; }

const char* nv_vessel_type_builtin_name(int index) {
    return index >= 0 && index < VT_BUILTIN_COUNT ? vt_builtins[index].name : NULL;
}

int nv_vessel_type_builtin(const char* name, nv_vessel_type* out, nv_error* err) {
    nv_vessel_type_init(out);
    for (int i = 0; i < VT_BUILTIN_COUNT; i++) {
        const vt_builtin_spec* b = &vt_builtins[i];
        if (strcmp(name, b->name) != 0) continue;
        snprintf(out->name, sizeof out->name, "%s", b->name);
        snprintf(out->hull, sizeof out->hull, "builtin:%s", b->name);
        out->mass.mass = b->mass;
        out->mass.has_cg = true;
        out->mass.cg = b->cg;
        out->mass.has_gyration = true;
        out->mass.gyration = b->gyration;
        nv_actuator_set* a = &out->dynamics.actuators;
        a->propeller_count = b->propellers;
        a->rudder_count = b->rudders;
        memcpy(a->propellers, b->propeller, b->propellers * sizeof b->propeller[0]);
        memcpy(a->rudders, b->rudder, b->rudders * sizeof b->rudder[0]);
        out->rated_beaufort = b->rated_beaufort;
        out->dynamics.coeffs.bilge_keel[0] = b->bilge_keel[0];
        out->dynamics.coeffs.bilge_keel[1] = b->bilge_keel[1];
        memcpy(out->dynamics.coeffs.planing, b->planing, sizeof b->planing);
        out->dynamics.coeffs.forces |= b->forces_added;
        a->throttle_rate = b->throttle_rate;
        a->rudder_rate = b->rudder_rate;
        out->compartments.bulkhead_count = b->bulkheads;
        memcpy(out->compartments.bulkheads, b->bulkhead, b->bulkheads * sizeof b->bulkhead[0]);
        out->compartments.damage = b->damage;
        return 0;
    }
    return nv_error_set(err, "unknown built-in vessel type '%s' (known: skiff, patrol, freighter)", name);
}

int nv_vessel_type_from_spec(const char* spec, nv_vessel_type* out, nv_error* err) {
    static const char prefix[] = "builtin:";
    if (strncmp(spec, prefix, sizeof prefix - 1) == 0)
        return nv_vessel_type_builtin(spec + sizeof prefix - 1, out, err);
    return nv_vessel_type_load_file(spec, out, err);
}

int nv_vessel_type_load_hull(const char* hull, const nv_mesh_options* opts, nv_mesh* out, nv_error* err) {
    nv_mesh_report rep;
    int rc = nv_hullgen_from_spec(hull, out, &rep, err);
    if (rc < 0) return -1;
    if (rc > 0) return 0;
    return nv_mesh_load_file(hull, MESH_FORMAT_AUTO, opts, out, &rep, err);
}

int nv_vessel_type_load_mesh(const nv_vessel_type* t, nv_mesh* out, nv_error* err) {
    return nv_vessel_type_load_hull(t->hull, &t->mesh, out, err);
}
