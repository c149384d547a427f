// SPDX-License-Identifier: MIT
/* Scenario files: a small JSON description of a world (tick rate, water,
 * optional FFT ocean or wind, hull and vessel types, vessels and fleets)
 * that the tools and the server load. Unknown keys and out-of-range values
 * are rejected with the key's path named ("ships.json: vessels[2].position:
 * ...").
 *
 *   {
 *     "tick_hz": 60,
 *     "water": {"density": 1025, "gravity": 9.81},
 *     "damping": {"linear": 0.02, "angular": 0.5},
 *     "ocean": {"spectrum": "jonswap", "wind": 12, "wind_dir": 30, "fetch": 100000,
 *               "depth": 0, "size": 600, "resolution": 256, "cascades": 1,
 *               "choppiness": 1, "seed": 7, "beaufort": 5, "hs": 2.0, "tp": 8, "query": "grid"},
 *     "wind": [8, 0, 3],
 *     "hull_types": [{"name": "ship", "hull": "builtin:ship:500", "up": "y", "flip": false,
 *                     "mass": 600000, "density": 450, "cg": [0, 2, 0], "gyration": [3, 12, 12],
 *                     "coefficients": {"forces": "all"}}],
 *     "vessel_types": ["builtin:patrol", "../vessels/skiff.json",
 *                      {"name": "tug", "hull": "builtin:patrol", "mass": 90000, ...}],
 *     "vessels": [{"type": "ship", "position": [0, 0], "heading_deg": 90,
 *                  "velocity": [0, 0, 4], "angular_velocity": [0, 0, 0],
 *                  "controls": {"throttle": 1, "rudder": -0.5}}],
 *     "fleets": [{"type": "patrol", "count": 100, "spacing": 80, "origin": [0, 0],
 *                 "speed": 4, "seed": 1, "controls": {"throttle": 0.5, "rudder": 0}}],
 *     "terrain": {"heightmap": "bay.png", "origin": [-500, -500], "cell_size": 4,
 *                 "min_elevation": -40, "max_elevation": 30},
 *     "contacts": {"enabled": true, "ground_friction": 0.5, "hertz": 0, "damping_ratio": 10,
 *                  "push_speed": 2}
 *   }
 *
 * Types: "hull_types" entries are hulls with mass properties and no
 * actuators; they feel pure hydrostatics (plus "damping") unless they carry
 * a "coefficients" object (vessel_type.h's format; it starts from the
 * default coefficients). "vessel_types" entries are full vessel types
 * (vessel_type.h): "builtin:NAME", a vessel-type file (relative to the
 * scenario file) or an inline object in that format. At least one type is
 * needed; names are unique across both lists, and vessels and fleets name
 * their type from either.
 *
 * A position of two numbers [x, z] places the vessel afloat (its CG at the
 * height where it floats upright on flat water); three numbers are x, y, z.
 * heading_deg turns the bow (+x) about +y, toward -z. "controls" (throttle
 * and rudder in [-1, 1], default 0) are the vessel's commands from the
 * start; a fleet's apply to each of its vessels.
 *
 * Wind (air drag): with an ocean, the ocean's wind (speed "wind" or the
 * Beaufort number's, toward "wind_dir" degrees about +y from +x toward -z, as headings); on flat
 * water the top-level "wind" vector [x, y, z] m/s (default still air).
 * Giving both is an error. The ocean's "wind" is U10 (m/s at 10 m) for
 * every spectrum (Pierson-Moskowitz's U19.5 is 1.075 U10, docs/ocean.md).
 * "hs" sets the significant height, "tp" (with "hs" or "beaufort") its
 * peak period in s (default: from the wind and fetch, at least 3.6
 * sqrt(hs)); "size" absent or 0: 16 peak wavelengths.
 *
 * "query": "exact" inverts the choppy displacement at every vertex; "grid"
 * (the default with one cascade, refused with more) tabulates the surface
 * once per step and interpolates it (see ocean_params.surface_grid).
 * Mesh paths are relative to the scenario file. "ocean" absent: flat water.
 *
 * "terrain" (absent: open deep sea) is the ground under and beside the
 * water (terrain.h): a 16-bit grayscale PNG heightmap (its path relative to
 * the scenario file; pixel (i, j) is the elevation at origin + (i, j) *
 * cell_size, 0 -> min_elevation, 65535 -> max_elevation, metres, + up), or
 * a built-in one by name, "terrain": "builtin:harbour". The heightmap is
 * read when the scenario is parsed, so a bad one fails there, naming the
 * key and the file. "contacts" sets the world's contact parameters
 * (world_contact_params; absent: the defaults). */
#ifndef NAVAL_SCENARIO_H
#define NAVAL_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jobs.h"
#include "mass.h"
#include "mesh.h"
#include "nv_error.h"
#include "ocean.h"
#include "terrain.h"
#include "vessel_type.h"
#include "world.h"
#include "naval/nv_api.h"

NV_API_BEGIN

#define SCENARIO_MAX_VESSELS 1000000u
#define SCENARIO_PATH_MAX 1024

typedef struct nv_scenario_hull {
    char name[WORLD_NAME_MAX];
    char source[SCENARIO_PATH_MAX]; /* builtin:NAME[:TRIS] or a mesh path (resolved) */
    nv_mesh_options mesh;
    nv_mass_spec mass;
    bool has_dynamics;              /* false: the world's default (pure hydrostatics, no actuators) */
    nv_vessel_dynamics dynamics;
    uint32_t columns_nx, columns_nz; /* a column model built from the hull (nv_world_build_type_columns); 0: none */
    nv_vessel_compartments compartments; /* watertight bulkheads (vessel types' "compartments"); none: no breaches */
    bool has_rating;                     /* the type's "rated_beaufort" is set (zeroed: unrated) */
    int rated_beaufort;                  /* 0..12: the sea the server's autopilot keeps it inside */
} nv_scenario_hull;

typedef struct nv_scenario_vessel {
    uint32_t hull;          /* index into hulls */
    double x, y, z;
    bool afloat;            /* y is found, not given */
    double heading_deg;     /* about +y, from +x toward -z (right-handed) */
    nv_vec3 velocity;
    nv_vec3 angular_velocity;
    bool has_controls;
    double throttle, rudder; /* [-1, 1] */
} nv_scenario_vessel;

typedef struct nv_scenario_terrain {
    char source[SCENARIO_PATH_MAX]; /* "builtin:NAME" or a PNG path (resolved); "" for none */
    nv_terrain_spec spec;              /* where a PNG lies and its elevations */
} nv_scenario_terrain;

/* A static structure: a closed mesh file, or a box [-L/2, L/2] x [0, H] x
 * [-W/2, W/2] (source ""), placed with its origin at (x, y, z) and turned
 * heading_deg about +y (world.h, nv_world_add_structure). */
typedef struct nv_scenario_structure {
    char source[SCENARIO_PATH_MAX]; /* a mesh path (resolved), or "" for the box */
    double box[3];                  /* length (x), height (y), width (z), m */
    double x, y, z, heading_deg;
} nv_scenario_structure;

#define SCENARIO_MAX_STRUCTURES 4096u

/* "events": [{"time": T, "damage": {"vessel": ID, "point": [x, y, z], "area": A}}]:
 * at T s a hole of A m^2 at the point (body frame, about the CG) in the
 * vessel with that id (the scenario's vessels get 0, 1, 2 ... in order,
 * fleets after the vessels); the runner applies them (nv_world_breach). */
typedef struct nv_scenario_event {
    double time;
    uint32_t vessel;
    nv_vec3 point;
    double area;
} nv_scenario_event;

typedef struct nv_scenario {
    nv_world_config world;
    nv_scenario_terrain terrain;
    nv_scenario_structure* structures;
    uint32_t structure_count;
    nv_world_contact_params contacts;
    bool has_ocean;
    nv_ocean_params ocean;
    nv_vec3 wind;              /* top-level "wind" (flat water); with an ocean, the ocean's */
    nv_scenario_hull* hulls;
    uint32_t hull_count;
    nv_scenario_vessel* vessels;
    uint32_t vessel_count;
    uint32_t vessel_capacity;
    nv_scenario_event* events;  /* in time order */
    uint32_t event_count;
} nv_scenario;

/* Parses JSON text; `name` prefixes messages, `base_dir` resolves relative
 * mesh paths (NULL: as given). */
int nv_scenario_parse(const char* text, size_t length, const char* name, const char* base_dir, nv_scenario* out,
                      nv_error* err);
int nv_scenario_load_file(const char* path, nv_scenario* out, nv_error* err);
void nv_scenario_free(nv_scenario* s);

/* A vessel type as a scenario's type list holds it (`has_dynamics` false:
 * the world's default dynamics, as a "hull_types" entry without
 * "coefficients" gets). */
void nv_scenario_hull_from_type(const nv_vessel_type* t, bool has_dynamics, nv_scenario_hull* h);

/* Appends a square grid of `count` vessels of hull type `type` around (x, z) =
 * origin, `spacing` apart, afloat, headings drawn from `seed`, moving ahead
 * at `speed` m/s. */
int nv_scenario_add_fleet(nv_scenario* s, uint32_t type, uint32_t count, double spacing, const double origin[2],
                          double speed, uint64_t seed, nv_error* err);

/* The wind over the water, world frame, m/s: the ocean's when there is one
 * (its Beaufort number's wind when it gives one), else the top-level one. */
nv_vec3 nv_scenario_wind(const nv_scenario* s);

/* A scenario made real: the ocean (NULL for flat water) and the world on it,
 * with every type's dynamics, the wind and the vessels' controls set. */
typedef struct nv_scenario_instance {
    nv_world* world;
    nv_ocean* ocean;
    nv_terrain* terrain; /* NULL without one */
} nv_scenario_instance;

/* The scenario's terrain, loaded (*out NULL when it names none); errors
 * name the key ("terrain.heightmap") and the file. */
int nv_scenario_load_terrain(const nv_scenario_terrain* t, nv_terrain** out, nv_error* err);
/* A terrain named on its own (a server setting): "none", "builtin:NAME",
 * or a JSON file holding what a scenario's "terrain" key holds (its
 * heightmap relative to that file). Checked as a scenario's is. */
int nv_scenario_terrain_from_spec(const char* spec, nv_scenario_terrain* out, nv_error* err);
/* A structure's closed mesh (its file, or its box); errors name the file. */
int nv_scenario_load_structure(const nv_scenario_structure* s, nv_mesh* out, nv_error* err);

int nv_scenario_instantiate(const nv_scenario* s, nv_jobs* pool, nv_scenario_instance* out, nv_error* err);
void nv_scenario_instance_destroy(nv_scenario_instance* inst);

/* Vessels whose hulls overlap at the start (nv_world_find_overlaps on the
 * instance made from `s`; vessels[i] is vessel id i): `warn` (may be NULL)
 * gets one line per pair, "vessels[0] (freighter) and vessels[1]
 * (freighter) overlap at the start: centres 10 m apart".
 * A warning, not an error: boats moored alongside or a collision staged
 * in contact are meant, and the contacts push the hulls apart in the
 * first steps. Returns the pairs (0 also when out of memory). */
uint32_t nv_scenario_check_overlaps(const nv_scenario* s, const nv_scenario_instance* inst,
                                    void (*warn)(void* ctx, const char* message), void* ctx);

NV_API_END

#endif
