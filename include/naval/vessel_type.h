// SPDX-License-Identifier: MIT
/* Vessel types: everything a game needs to field a class of boat, from a
 * small JSON file or from the built-ins (data/vessels/ holds the built-ins
 * as editable files).
 *
 *   {
 *     "name": "patrol",                          required; letters, digits, _ - .
 *     "hull": "builtin:patrol" | "meshes/patrol.stl",   required; a path is
 *                                                relative to the file
 *     "up": "y", "flip": false,                  mesh options (as naval-hull)
 *     "mass": 80000 | "density": 500,            kg or kg/m^3 (not both)
 *     "cg": [-2.3, 1.1, 0], "gyration": [2.1, 6, 6],   mesh coordinates, m
 *     "coefficients": {                          absent: nv_hydrodyn_coeffs_default()
 *       "forces": "all" | "none" | ["viscous", "pressure_drag", "slamming",
 *                                   "air_drag", "area_damping", "added_mass",
 *                                   "residual", "roll_damping",
 *                                   "heave_pitch_damping", "water_entry",
 *                                   "manoeuvring", "breaking_crests"],
 *                                                manoeuvring: the hull's sway
 *                                                and yaw from Clarke's derivatives and a
 *                                                cross-flow drag (naval/manoeuvring.h; not
 *                                                with "planing"); breaking_crests: the jet
 *                                                of a breaking crest on the hull; both
 *                                                named only: "all" is every other force
 *       "viscosity": 1.19e-6, "reynolds_min": 1e5, "reference_length": 0,
 *       "residual": C_r,                         Bourg's residual resistance
 *                                                (wave making, form), 2e-3
 *       "pressure_linear": C_PD1, "pressure_quadratic": C_PD2,
 *       "pressure_falloff": f_P, "suction_linear": C_SD1,
 *       "suction_quadratic": C_SD2, "suction_falloff": f_S,
 *       "reference_speed": v_r, "slam_power": p, "slam_gamma_max": G,
 *       "air_density": 1.225, "air_drag": C_air,
 *       "damping_linear": [c1, c2], "damping_angular": [c1, c2],
 *       "added_mass": [x, y, z], "added_inertia": [x, y, z]},
 *     "propellers": [{"position": [-12.2, 0.4, 1.3],    required
 *                     "direction": [1, 0, 0],           thrust at throttle +1
 *                     "max_thrust": 22000,              N, required
 *                     "reverse": 0.6,                   fraction at throttle -1
 *                     "immersion": 0.3,                 m of depth to full thrust
 *                     "steering": 0,                    degrees the drive swivels at
 *                                                       rudder +1 (outboard, azimuth);
 *                                                       0 = fixed
 *                     "diameter": 0}],                  m; a rudder behind a fixed
 *                                                       propeller of known diameter
 *                                                       meets its race; 0 = none
 *     "rudders": [{"position": [-12.6, 0.5, 1.3],       required
 *                  "area": 0.5,                         m^2, required
 *                  "max_angle": 35, "stall_angle": 25,  degrees
 *                  "lift_slope": 3.0, "drag": 0.02}],   per radian; C_D0
 *     "controls": {"throttle_rate": 0.5, "rudder_rate": 1.0},  units/s
 *     "bilge_keels": {"length": 6, "breadth": 0.3},  m; roll damping (Ikeda)
 *     "roll_damping": {"linear": 2e5, "quadratic": 1e6},  N m s, N m s^2:
 *                                                replace Ikeda's estimate
 *     "planing": {"chine_beam": 1.735,          m: Savitsky's planing lift on a
 *                 "deadrise": 0,                 bottom of this beam and deadrise
 *                 "length": 3.5},                (degrees), prismatic this far
 *                                                forward of the transom (m);
 *                                                absent: none (naval/planing.h)
 *     "rated_beaufort": 7,                       the sea it is rated for (0..12;
 *                                                absent: not rated)
 *     "compartments": {"bulkheads": [x, ...],    watertight planes across the
 *                                                hull, mesh x (m); absent: one
 *                      "longitudinal": [z, ...], planes along it, mesh z (m)
 *                      "pumps": 0,               m^3/s per compartment; 0: none
 *                      "breach_speed": 0,        m/s: a contact closing faster
 *                                                holes the hull; 0: never
 *                      "breach_area": 0}         m^2, the hole it makes
 *     "hull_strength": {"plating": 0.006,        m of steel-equivalent shell:
 *                                                contacts hole the hull by the
 *                                                energy they absorb (Minorsky;
 *                                                breach_speed is then unused)
 *                       "breach_energy": 1e5}    J a blow's share must pass;
 *                                                needs compartments
 *   }
 *
 * Optional keys of propellers, rudders, controls and compartments show
 * their defaults (tests/vessel_type_keys.sh checks that every key the
 * parser accepts appears in this comment).
 * Without mass or density the hull is a solid of 500 kg/m^3; without cg,
 * the CG is the volume centroid; without gyration, the inertia is the
 * uniform solid's. The coefficient keys are hydrodyn_coeffs' field names
 * (see hydrodyn.h for their meaning and defaults); the water density is the
 * world's. Positive rudder turns to starboard. At most 4 propellers
 * and 4 rudders. Unknown keys, keys given twice, wrong types, non-finite
 * numbers and out-of-range values (the ranges of naval/ranges.h) are
 * rejected with the key's path named ("patrol.json:
 * propellers[0].max_thrust: must be in (0, 1e+08] N (got -5)").
 * Built-in types: "skiff" (~5 m fast boat), "patrol" (~24 m) and
 * "freighter" (~120 m); each also works as "builtin:NAME" wherever a type
 * file name is accepted. */
#ifndef NAVAL_VESSEL_TYPE_H
#define NAVAL_VESSEL_TYPE_H

#include "actuator.h"
#include "hydrodyn.h"
#include "mass.h"
#include "mesh.h"
#include "compartment.h"
#include "nv_error.h"
#include "naval/nv_api.h"

NV_API_BEGIN

#define VESSEL_TYPE_NAME_MAX 48
#define VESSEL_TYPE_PATH_MAX 1024

/* How a hull type moves beyond its mesh and mass: its force coefficients
 * and its actuators. */
typedef struct nv_vessel_dynamics {
    nv_hydrodyn_coeffs coeffs;
    nv_actuator_set actuators;
} nv_vessel_dynamics;

/* Watertight bulkheads (naval/compartment.h), mesh coordinates: planes
 * x = bulkheads[i] across the hull, z = longitudinal[i] along it (wing
 * compartments); none: one compartment. With them, how the type takes
 * damage: its pumps and what a collision does (compartment_damage). */
typedef struct nv_vessel_compartments {
    uint32_t bulkhead_count, longitudinal_count;
    double bulkheads[COMPARTMENT_MAX];
    double longitudinal[COMPARTMENT_MAX];
    nv_compartment_damage damage;
} nv_vessel_compartments;

typedef struct nv_vessel_type {
    char name[VESSEL_TYPE_NAME_MAX];
    char hull[VESSEL_TYPE_PATH_MAX]; /* builtin:NAME[:TRIS] or a mesh path (resolved against the file) */
    nv_mesh_options mesh;
    nv_mass_spec mass;
    nv_vessel_dynamics dynamics;
    nv_vessel_compartments compartments;
    int rated_beaufort; /* the highest Beaufort force it is rated for, 0..12; -1: not rated */
} nv_vessel_type;

/* A type with the defaults: hull unset, default mass spec and mesh options,
 * nv_hydrodyn_coeffs_default(), no actuators, default control rates. */
void nv_vessel_type_init(nv_vessel_type* t);

/* Parses a vessel-type file's JSON text. `name` prefixes messages (the file
 * name); `base_dir` resolves a relative hull path (NULL: as given). */
int nv_vessel_type_parse(const char* text, size_t length, const char* name, const char* base_dir, nv_vessel_type* out,
                         nv_error* err);
int nv_vessel_type_load_file(const char* path, nv_vessel_type* out, nv_error* err);

/* The built-in types by name; an unknown name is an error listing them. */
int nv_vessel_type_builtin(const char* name, nv_vessel_type* out, nv_error* err);
int nv_vessel_type_builtin_count(void);
const char* nv_vessel_type_builtin_name(int index);

/* "builtin:NAME" gives a built-in type, anything else is a file path. */
int nv_vessel_type_from_spec(const char* spec, nv_vessel_type* out, nv_error* err);

/* The type's compartments: its hull (mesh coordinates, as loaded) cut at
 * its bulkheads, moved to the body frame about `cg` (the hull type's CG,
 * mesh coordinates). A bad definition is refused naming the type and the
 * plane ("patrol: compartments: bulkhead 5 at 30 m is outside the hull
 * ..."). */
int nv_vessel_type_compartments(const nv_vessel_type* t, const nv_mesh* hull, nv_vec3 cg, nv_compartment_set* out, nv_error* err);

/* The type's hull as a mesh (built-in or loaded from its file). */
int nv_vessel_type_load_mesh(const nv_vessel_type* t, nv_mesh* out, nv_error* err);
/* The same from a hull spec ("builtin:NAME[:TRIS]" or a mesh path). */
int nv_vessel_type_load_hull(const char* hull, const nv_mesh_options* opts, nv_mesh* out, nv_error* err);

/* For other JSON readers (scenario.c) that hold a vessel type inline: reads
 * the object `obj` at key path `path` (see json_util.h). With
 * VESSEL_TYPE_HULL_ENTRY it reads a scenario's "hull_types" entry: no
 * actuator keys, and pure hydrostatics unless "coefficients" is given. */
enum { VESSEL_TYPE_HULL_ENTRY = 1u << 0 };
struct json_ctx;
struct cJSON;
int nv_vessel_type_parse_object(const struct json_ctx* c, const struct cJSON* obj, const char* path, unsigned flags,
                                nv_vessel_type* out);

NV_API_END

#endif
