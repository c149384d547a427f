// SPDX-License-Identifier: MIT
/* The range table (naval/ranges.h) walked through every consumer it names.
 * For each row, every consumer that reads the quantity gets a value just
 * outside each finite end (the end itself where it is open), NaN and the
 * infinities where its parser takes them, and for power-of-two rows a
 * value between powers: each must be refused with a message naming the
 * key and the range ("ranges.json: ocean.wind: must be in [0, 60] m/s
 * (got 60.00000006)"; naval-ocean exits 2). Values on each closed
 * end, just inside each open one and in the middle must be accepted. So a
 * consumer that checks its own literal instead of the table (a wider or
 * narrower range) fails here, and so does a row that claims a consumer
 * this file does not walk, or a fixture whose consumer the row does not
 * claim. */
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "naval/actuator.h"
#include "naval/compartment.h"
#include "naval/hydrodyn.h"
#include "naval/ocean.h"
#include "naval/ranges.h"
#include "naval/scenario.h"
#include "naval/terrain.h"
#include "naval/vessel_type.h"
#include "naval/world.h"
#include "test_png.h"
#include "test_util.h"

#define OCEAN_BY NV_RANGE_BY_OCEAN
#define SCN NV_RANGE_BY_SCENARIO
#define VT NV_RANGE_BY_VESSEL_TYPE
#define TOOL NV_RANGE_BY_TOOL
#define SRV NV_RANGE_BY_SERVER
#define CORE NV_RANGE_BY_CORE

/* Fixture flags. F_LENGTH: the value is one component of a vector whose
 * length is checked: nothing below lo to try, but -(hi + d) is outside too.
 * F_NO_LO: below lo is a sentinel the consumer takes (beaufort -1).
 * F_DERIVED: a quantity computed from others (the grid spacing): NaN and
 * the infinities are refused by the rows of what it is computed from. */
enum { F_LENGTH = 1, F_NO_LO = 2, F_DERIVED = 4 };

/* Tools, run as programs. */
enum { T_NONE, T_OCEAN, T_HULL, T_BENCH };
static const char* const tool_paths[] = {NULL, NAVAL_OCEAN_BIN, NAVAL_HULL_BIN, NAVAL_BENCH_BIN};

/* OCEAN and CORE fixtures: set the value into a valid context and run the check. */
typedef int setter_fn(double v, nv_error* err);

typedef struct fixture {
    nv_range_id id;
    unsigned by;          /* one NV_RANGE_BY_* */
    const char* text;     /* JSON (SCN, VT, SRV's file), tool arguments or a server flag, %s = the value */
    const char* key;      /* what every refusal must name */
    setter_fn* set;       /* OCEAN, CORE */
    int tool;             /* TOOL: T_* */
    unsigned flags;
    double scale;         /* the text gets value * scale (0: 1) */
    int n_inside;         /* > 0: these values instead of the row's ends and middle */
    double inside[3];
} fixture;

/* --------------------------------------------------------------- setters */

static nv_ocean_params ocean_ctx(void) { return nv_ocean_params_default(); }

/* An int field's value, or `bad` (outside its range) for what no int holds. */
static int as_int(double v, int bad) { return isfinite(v) && v == floor(v) && fabs(v) < 1e9 ? (int)v : bad; }

#define OCEAN_SET(name, ...)                                  \
    static int name(double v, nv_error* err) {               \
        nv_ocean_params p = ocean_ctx();                        \
        __VA_ARGS__;                                         \
        return nv_ocean_params_validate(&p, err);            \
    }
OCEAN_SET(o_wind, p.wind_speed = v)
OCEAN_SET(o_wind_dir, p.wind_direction = v)
OCEAN_SET(o_fetch, p.fetch = v)
OCEAN_SET(o_depth, p.depth = v)
OCEAN_SET(o_hs, p.hs_target = v)
OCEAN_SET(o_tp, p.tp = v; p.hs_target = 2.0)
OCEAN_SET(o_gamma, p.gamma = v)
OCEAN_SET(o_swell, p.swell = v)
OCEAN_SET(o_choppiness, p.choppiness = v)
OCEAN_SET(o_size, p.size = v; p.cascades = 1; p.resolution = 64)
OCEAN_SET(o_spacing, p.size = v * 2048.0; p.cascades = 1; p.resolution = 2048)
OCEAN_SET(o_resolution, p.resolution = as_int(v, 3); p.cascades = 1)
OCEAN_SET(o_resolution_z, p.resolution_z = as_int(v, 3); p.cascades = 1)
OCEAN_SET(o_cascades, p.cascades = as_int(v, 0); p.resolution = 256)
OCEAN_SET(o_ratio, p.cascade_ratio = v; p.cascades = 2; p.resolution = 2048; p.size = 1e5)
OCEAN_SET(o_beaufort, p.beaufort = as_int(v, 13))
OCEAN_SET(o_min_wavelength, p.min_wavelength = v)
OCEAN_SET(o_repeat, p.repeat_period = v)
OCEAN_SET(o_iterations, p.query_iterations = as_int(v, 0))
OCEAN_SET(o_tolerance, p.query_tolerance = v)
OCEAN_SET(o_gravity, p.gravity = v)

#define WORLD_SET(name, field)                                 \
    static int name(double v, nv_error* err) {                \
        nv_world_config cfg = nv_world_config_default();         \
        cfg.field = v;                                        \
        nv_world* w = NULL;                                      \
        int rc = nv_world_create(&w, &cfg, NULL, err);        \
        nv_world_destroy(w);                                  \
        return rc;                                            \
    }
WORLD_SET(w_tick_hz, tick_hz)
WORLD_SET(w_density, water_density)
WORLD_SET(w_gravity, gravity)
WORLD_SET(w_linear, linear_damping)
WORLD_SET(w_angular, angular_damping)

/* A world with one 10 x 4 x 2 m barge type of 40 t. */
static nv_world* barge_world(uint32_t* type, nv_error* err) {
    nv_world_config cfg = nv_world_config_default();
    nv_world* w = NULL;
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, err), *err);
    nv_mesh m;
    ASSERT_OK(nv_hullgen_box(&m, 10.0, 4.0, 2.0, 1, 1, 1, err), *err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 40000.0;
    ASSERT_OK(nv_world_add_hull_type(w, "barge", &m, &spec, type, err), *err);
    nv_mesh_free(&m);
    return w;
}

static int w_spawn(double v, nv_error* err) {
    uint32_t type, id;
    nv_world* w = barge_world(&type, err);
    int rc = nv_world_spawn(w, type, v3(0.0, 0.0, v), quat_identity(), &id, err);
    nv_world_destroy(w);
    return rc;
}

static int w_sunk(double v, nv_error* err) {
    nv_world_config cfg = nv_world_config_default();
    nv_world* w = NULL;
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, err), *err);
    int rc = nv_world_set_sunk_removal_depth(w, v, err);
    nv_world_destroy(w);
    return rc;
}

#define CONTACT_SET(name, field)                               \
    static int name(double v, nv_error* err) {                \
        nv_world_config cfg = nv_world_config_default();         \
        nv_world* w = NULL;                                      \
        ASSERT_OK(nv_world_create(&w, &cfg, NULL, err), *err); \
        nv_world_contact_params p = nv_world_contacts_default(); \
        p.field = v;                                          \
        int rc = nv_world_set_contacts(w, &p, err);           \
        nv_world_destroy(w);                                  \
        return rc;                                            \
    }
CONTACT_SET(c_ground_friction, ground_friction)
CONTACT_SET(c_vessel_friction, vessel_friction)
CONTACT_SET(c_restitution, restitution)
CONTACT_SET(c_hertz, hertz)
CONTACT_SET(c_damping_ratio, damping_ratio)
CONTACT_SET(c_push_speed, push_speed)

#define TERRAIN_SET(name, ...)                                                         \
    static int name(double v, nv_error* err) {                                        \
        nv_terrain_spec s = {.origin_x = 0.0, .origin_z = 0.0, .cell_size = 1.0,          \
                          .min_elevation = -11000.0, .max_elevation = 9000.0};         \
        __VA_ARGS__;                                                                  \
        return nv_terrain_spec_validate(&s, err);                                     \
    }
TERRAIN_SET(t_origin, s.origin_x = v)
TERRAIN_SET(t_cell, s.cell_size = v)
TERRAIN_SET(t_min, s.min_elevation = v)
TERRAIN_SET(t_max, s.max_elevation = v)

#define COEFF_SET(name, ...)                                    \
    static int name(double v, nv_error* err) {                 \
        nv_hydrodyn_coeffs c = nv_hydrodyn_coeffs_default();      \
        __VA_ARGS__;                                           \
        return nv_hydrodyn_coeffs_validate(&c, err);           \
    }
COEFF_SET(h_density, c.water_density = v)
COEFF_SET(h_viscosity, c.viscosity = v)
COEFF_SET(h_reynolds, c.reynolds_min = v)
COEFF_SET(h_length, c.reference_length = v)
COEFF_SET(h_residual, c.residual = v)
COEFF_SET(h_p_lin, c.pressure_linear = v)
COEFF_SET(h_p_quad, c.pressure_quadratic = v)
COEFF_SET(h_p_fall, c.pressure_falloff = v)
COEFF_SET(h_s_lin, c.suction_linear = v)
COEFF_SET(h_s_quad, c.suction_quadratic = v)
COEFF_SET(h_s_fall, c.suction_falloff = v)
COEFF_SET(h_ref_speed, c.reference_speed = v)
COEFF_SET(h_slam_power, c.slam_power = v)
COEFF_SET(h_slam_gamma, c.slam_gamma_max = v)
COEFF_SET(h_air_density, c.air_density = v)
COEFF_SET(h_air_drag, c.air_drag = v)
COEFF_SET(h_damping, c.damping_angular[1] = v)
COEFF_SET(h_added, c.added_inertia.y = v)
COEFF_SET(h_bilge_keel, (c.bilge_keel[0] = v, c.bilge_keel[1] = 0.5))
COEFF_SET(h_roll_damping, (c.roll_damping[0] = 0.0, c.roll_damping[1] = v))
COEFF_SET(h_planing_beam, (c.planing[0] = v, c.planing[2] = 3.0))
COEFF_SET(h_planing_deadrise, (c.planing[0] = 2.0, c.planing[1] = v, c.planing[2] = 3.0))

static nv_actuator_set actuator_ctx(void) {
    nv_actuator_set a;
    nv_actuator_set_init(&a);
    a.propeller_count = 1;
    a.propellers[0].direction = v3(1.0, 0.0, 0.0);
    a.propellers[0].max_thrust = 1000.0;
    a.propellers[0].reverse_fraction = 0.5;
    a.rudder_count = 1;
    a.rudders[0].area = 1.0;
    a.rudders[0].max_angle_deg = 35.0;
    a.rudders[0].lift_slope = 3.0;
    a.rudders[0].stall_angle_deg = 25.0;
    return a;
}

#define ACT_SET(name, ...)                              \
    static int name(double v, nv_error* err) {         \
        nv_actuator_set a = actuator_ctx();               \
        __VA_ARGS__;                                   \
        return nv_actuator_set_validate(&a, err);      \
    }
ACT_SET(a_position, a.rudders[0].position.y = v)
ACT_SET(a_direction, a.propellers[0].direction.z = v)
ACT_SET(a_thrust, a.propellers[0].max_thrust = v)
ACT_SET(a_reverse, a.propellers[0].reverse_fraction = v)
ACT_SET(a_immersion, a.propellers[0].immersion = v)
ACT_SET(a_steering, a.propellers[0].steering_deg = v)
ACT_SET(a_diameter, a.propellers[0].diameter = v)
ACT_SET(a_area, a.rudders[0].area = v)
ACT_SET(a_angle, a.rudders[0].stall_angle_deg = v)
ACT_SET(a_slope, a.rudders[0].lift_slope = v)
ACT_SET(a_drag, a.rudders[0].drag_coefficient = v)
ACT_SET(a_rate, a.rudder_rate = v)

static int f_hole(double v, nv_error* err) {
    nv_mesh m;
    ASSERT_OK(nv_hullgen_box(&m, 10.0, 4.0, 2.0, 1, 1, 1, err), *err);
    double x = 0.0;
    nv_compartment_set cs;
    ASSERT_OK(nv_compartment_split(&m, &x, 1, NULL, 0, &cs, err), *err);
    nv_flood_state fs;
    memset(&fs, 0, sizeof fs);
    int rc = nv_flood_add_hole(&cs, &fs, 0, v3(-2.0, 0.5, 0.0), v, err);
    nv_compartment_set_free(&cs);
    nv_mesh_free(&m);
    return rc;
}

/* -------------------------------------------------------------- fixtures */

#define SKIFF "\"vessel_types\": [\"builtin:skiff\"]"
#define ONE "\"vessels\": [{\"type\": \"skiff\", \"position\": [0, 0]}]"
#define VT_HEAD "{\"name\": \"t\", \"hull\": \"builtin:barge\", \"mass\": 40000, "
#define PROP "\"propellers\": [{\"position\": [0, 0, 0], \"max_thrust\": 1000, "
#define RUD "\"rudders\": [{\"position\": [0, 0, 0], \"area\": 1, "
/* A scenario with a heightmap (written by setup) and one with an event. */
#define TERRAIN(origin, cell, lo, hi)                                                                           \
    "{" SKIFF ", \"terrain\": {\"heightmap\": \"h.png\", \"origin\": [" origin ", 0], \"cell_size\": " cell \
    ", \"min_elevation\": " lo ", \"max_elevation\": " hi "}}"
#define EVENT(time, vessel, point, area)                                                                  \
    "{" SKIFF ", " ONE ", \"events\": [{\"time\": " time ", \"damage\": {\"vessel\": " vessel ", \"point\": " point \
    ", \"area\": " area "}}]}"
#define OCEAN_TOOL "--steps 1 --resolution 16 --cascades 1 "
#define BENCH_TOOL "--boats 1 --steps 2 --threads 1 --hull-tris 12 --ocean-resolution 16 "
#define INSIDE(...) .n_inside = sizeof((double[]){__VA_ARGS__}) / sizeof(double), .inside = {__VA_ARGS__}
/* One fixture per consumer kind; the last argument is more designated
 * initialisers (.flags, .scale, INSIDE(...)) or NONE. */
#define NONE .flags = 0
#define O(id_, key_, fn_, ...) {.id = id_, .by = OCEAN_BY, .key = key_, .set = fn_, __VA_ARGS__}
#define C(id_, key_, fn_, ...) {.id = id_, .by = CORE, .key = key_, .set = fn_, __VA_ARGS__}
#define S(id_, text_, key_, ...) {.id = id_, .by = SCN, .text = text_, .key = key_, __VA_ARGS__}
#define V(id_, text_, key_, ...) {.id = id_, .by = VT, .text = text_, .key = key_, __VA_ARGS__}
#define R(id_, text_, key_, ...) {.id = id_, .by = SRV, .text = text_, .key = key_, __VA_ARGS__}
#define T(id_, tool_, text_, key_, ...) {.id = id_, .by = TOOL, .tool = tool_, .text = text_, .key = key_, __VA_ARGS__}

static const fixture fixtures[] = {
    /* ---- ocean.wind: the parameters, the scenario (and its flat-water wind vector), naval-ocean */
    O(NV_RANGE_OCEAN_WIND, "wind", o_wind, NONE),
    S(NV_RANGE_OCEAN_WIND, "{\"ocean\": {\"wind\": %s}, " SKIFF "}", "ranges.json: ocean.wind", NONE),
    S(NV_RANGE_OCEAN_WIND, "{\"wind\": [0, 0, %s], " SKIFF "}", "ranges.json: wind: its length", .flags = F_LENGTH),
    T(NV_RANGE_OCEAN_WIND, T_OCEAN, OCEAN_TOOL "--wind %s", "--wind", NONE),
    R(NV_RANGE_OCEAN_WIND, "--wind", "--wind", NONE),
    R(NV_RANGE_OCEAN_WIND, "{\"wind\": %s}", "ranges.json: wind", NONE),
    O(NV_RANGE_OCEAN_WIND_DIR, "wind_dir", o_wind_dir, NONE),
    S(NV_RANGE_OCEAN_WIND_DIR, "{\"ocean\": {\"wind_dir\": %s}, " SKIFF "}", "ranges.json: ocean.wind_dir", NONE),
    T(NV_RANGE_OCEAN_WIND_DIR, T_OCEAN, OCEAN_TOOL "--wind-dir %s", "--wind-dir", NONE),
    O(NV_RANGE_OCEAN_FETCH, "fetch", o_fetch, NONE),
    S(NV_RANGE_OCEAN_FETCH, "{\"ocean\": {\"fetch\": %s}, " SKIFF "}", "ranges.json: ocean.fetch", NONE),
    T(NV_RANGE_OCEAN_FETCH, T_OCEAN, OCEAN_TOOL "--fetch %s", "--fetch", NONE),
    O(NV_RANGE_OCEAN_DEPTH, "depth", o_depth, NONE),
    S(NV_RANGE_OCEAN_DEPTH, "{\"ocean\": {\"depth\": %s}, " SKIFF "}", "ranges.json: ocean.depth", NONE),
    T(NV_RANGE_OCEAN_DEPTH, T_OCEAN, OCEAN_TOOL "--depth %s", "--depth", NONE),
    O(NV_RANGE_OCEAN_HS, "hs", o_hs, NONE),
    S(NV_RANGE_OCEAN_HS, "{\"ocean\": {\"hs\": %s}, " SKIFF "}", "ranges.json: ocean.hs", NONE),
    T(NV_RANGE_OCEAN_HS, T_OCEAN, OCEAN_TOOL "--hs %s", "--hs", NONE),
    R(NV_RANGE_OCEAN_HS, "--hs", "--hs", NONE),
    R(NV_RANGE_OCEAN_HS, "{\"hs\": %s}", "ranges.json: hs", NONE),
    O(NV_RANGE_OCEAN_TP, "tp", o_tp, NONE),
    S(NV_RANGE_OCEAN_TP, "{\"ocean\": {\"hs\": 2, \"tp\": %s}, " SKIFF "}", "ranges.json: ocean.tp", NONE),
    T(NV_RANGE_OCEAN_TP, T_OCEAN, OCEAN_TOOL "--hs 2 --tp %s", "--tp", NONE),
    R(NV_RANGE_OCEAN_TP, "--tp", "--tp", NONE),
    R(NV_RANGE_OCEAN_TP, "{\"tp\": %s}", "ranges.json: tp", NONE),
    O(NV_RANGE_OCEAN_GAMMA, "gamma", o_gamma, NONE),
    S(NV_RANGE_OCEAN_GAMMA, "{\"ocean\": {\"gamma\": %s}, " SKIFF "}", "ranges.json: ocean.gamma", NONE),
    T(NV_RANGE_OCEAN_GAMMA, T_OCEAN, OCEAN_TOOL "--gamma %s", "--gamma", NONE),
    O(NV_RANGE_OCEAN_SWELL, "swell", o_swell, NONE),
    S(NV_RANGE_OCEAN_SWELL, "{\"ocean\": {\"swell\": %s}, " SKIFF "}", "ranges.json: ocean.swell", NONE),
    T(NV_RANGE_OCEAN_SWELL, T_OCEAN, OCEAN_TOOL "--swell %s", "--swell", NONE),
    O(NV_RANGE_OCEAN_CHOPPINESS, "choppiness", o_choppiness, NONE),
    S(NV_RANGE_OCEAN_CHOPPINESS, "{\"ocean\": {\"choppiness\": %s}, " SKIFF "}", "ranges.json: ocean.choppiness", NONE),
    T(NV_RANGE_OCEAN_CHOPPINESS, T_OCEAN, OCEAN_TOOL "--choppiness %s", "--choppiness", NONE),
    O(NV_RANGE_OCEAN_SIZE, "size", o_size, NONE),
    S(NV_RANGE_OCEAN_SIZE, "{\"ocean\": {\"size\": %s, \"cascades\": 1, \"resolution\": 64}, " SKIFF "}",
      "ranges.json: ocean.size", NONE),
    /* 0 (automatic) is the ocean's to resolve: the tool runs the ends */
    T(NV_RANGE_OCEAN_SIZE, T_OCEAN, OCEAN_TOOL "--size %s", "--size", INSIDE(1.0, 1e5)),
    /* the finest grid spacing: size over resolution, one cascade */
    O(NV_RANGE_OCEAN_GRID_SPACING, "size: the finest grid spacing", o_spacing, .flags = F_DERIVED),
    S(NV_RANGE_OCEAN_GRID_SPACING, "{\"ocean\": {\"size\": %s, \"cascades\": 1, \"resolution\": 2048}, " SKIFF "}",
      "ranges.json: ocean: size: the finest grid spacing", .flags = F_DERIVED, .scale = 2048.0),
    T(NV_RANGE_OCEAN_GRID_SPACING, T_OCEAN, OCEAN_TOOL "--resolution 128 --size %s", "size: the finest grid spacing",
      .flags = F_DERIVED, .scale = 128.0, INSIDE(0.01, 0.1)),
    O(NV_RANGE_OCEAN_RESOLUTION, "resolution", o_resolution, NONE),
    O(NV_RANGE_OCEAN_RESOLUTION, "resolution_z", o_resolution_z, NONE),
    S(NV_RANGE_OCEAN_RESOLUTION, "{\"ocean\": {\"resolution\": %s, \"cascades\": 1}, " SKIFF "}",
      "ranges.json: ocean.resolution", NONE),
    T(NV_RANGE_OCEAN_RESOLUTION, T_OCEAN, OCEAN_TOOL "--resolution %s", "--resolution", INSIDE(4, 64)),
    T(NV_RANGE_OCEAN_RESOLUTION, T_BENCH, BENCH_TOOL "--ocean-resolution %s", "--ocean-resolution", INSIDE(4, 64)),
    O(NV_RANGE_OCEAN_CASCADES, "cascades", o_cascades, NONE),
    S(NV_RANGE_OCEAN_CASCADES, "{\"ocean\": {\"cascades\": %s}, " SKIFF "}", "ranges.json: ocean.cascades", NONE),
    T(NV_RANGE_OCEAN_CASCADES, T_OCEAN, OCEAN_TOOL "--resolution 128 --cascades %s", "--cascades", NONE),
    T(NV_RANGE_OCEAN_CASCADES, T_BENCH, BENCH_TOOL "--ocean-resolution 128 --cascades %s", "--cascades", INSIDE(1, 4)),
    O(NV_RANGE_OCEAN_CASCADE_RATIO, "cascade_ratio", o_ratio, NONE),
    T(NV_RANGE_OCEAN_CASCADE_RATIO, T_OCEAN, OCEAN_TOOL "--resolution 64 --cascades 2 --ratio %s", "--ratio",
      INSIDE(1.5, 4)),
    O(NV_RANGE_OCEAN_BEAUFORT, "beaufort", o_beaufort, .flags = F_NO_LO),
    S(NV_RANGE_OCEAN_BEAUFORT, "{\"ocean\": {\"beaufort\": %s}, " SKIFF "}", "ranges.json: ocean.beaufort", NONE),
    T(NV_RANGE_OCEAN_BEAUFORT, T_OCEAN, OCEAN_TOOL "--beaufort %s", "--beaufort", NONE),
    R(NV_RANGE_OCEAN_BEAUFORT, "--beaufort", "--beaufort", NONE),
    R(NV_RANGE_OCEAN_BEAUFORT, "{\"beaufort\": %s}", "ranges.json: beaufort", NONE),
    O(NV_RANGE_OCEAN_MIN_WAVELENGTH, "min_wavelength", o_min_wavelength, NONE),
    O(NV_RANGE_OCEAN_REPEAT_PERIOD, "repeat_period", o_repeat, NONE),
    O(NV_RANGE_OCEAN_QUERY_ITERATIONS, "query_iterations", o_iterations, NONE),
    O(NV_RANGE_OCEAN_QUERY_TOLERANCE, "query_tolerance", o_tolerance, NONE),
    /* ---- the world */
    S(NV_RANGE_WORLD_TICK_HZ, "{\"tick_hz\": %s, " SKIFF "}", "ranges.json: tick_hz", NONE),
    R(NV_RANGE_WORLD_TICK_HZ, "--tick-hz", "--tick-hz", NONE),
    R(NV_RANGE_WORLD_TICK_HZ, "{\"tick_hz\": %s}", "ranges.json: tick_hz", NONE),
    T(NV_RANGE_WORLD_TICK_HZ, T_BENCH, BENCH_TOOL "--tick-hz %s", "--tick-hz", INSIDE(1, 60, 1000)),
    C(NV_RANGE_WORLD_TICK_HZ, "world: tick_hz", w_tick_hz, NONE),
    S(NV_RANGE_WORLD_WATER_DENSITY, "{\"water\": {\"density\": %s}, " SKIFF "}", "ranges.json: water.density", NONE),
    T(NV_RANGE_WORLD_WATER_DENSITY, T_HULL, "builtin:barge --mass 1000 --rho %s", "--rho", NONE),
    C(NV_RANGE_WORLD_WATER_DENSITY, "world: water_density", w_density, NONE),
    C(NV_RANGE_WORLD_WATER_DENSITY, "water_density", h_density, NONE),
    S(NV_RANGE_WORLD_GRAVITY, "{\"water\": {\"gravity\": %s}, " SKIFF "}", "ranges.json: water.gravity", NONE),
    O(NV_RANGE_WORLD_GRAVITY, "gravity", o_gravity, NONE),
    C(NV_RANGE_WORLD_GRAVITY, "world: gravity", w_gravity, NONE),
    S(NV_RANGE_WORLD_LINEAR_DAMPING, "{\"damping\": {\"linear\": %s}, " SKIFF "}", "ranges.json: damping.linear", NONE),
    C(NV_RANGE_WORLD_LINEAR_DAMPING, "world: linear_damping", w_linear, NONE),
    S(NV_RANGE_WORLD_ANGULAR_DAMPING, "{\"damping\": {\"angular\": %s}, " SKIFF "}", "ranges.json: damping.angular",
      NONE),
    C(NV_RANGE_WORLD_ANGULAR_DAMPING, "world: angular_damping", w_angular, NONE),
    S(NV_RANGE_WORLD_SUNK_REMOVAL_DEPTH, "{\"sunk_removal_depth\": %s, " SKIFF "}", "ranges.json: sunk_removal_depth",
      NONE),
    R(NV_RANGE_WORLD_SUNK_REMOVAL_DEPTH, "--sunk-removal-depth", "--sunk-removal-depth", NONE),
    R(NV_RANGE_WORLD_SUNK_REMOVAL_DEPTH, "{\"sunk_removal_depth\": %s}", "ranges.json: sunk_removal_depth", NONE),
    C(NV_RANGE_WORLD_SUNK_REMOVAL_DEPTH, "sunk_removal_depth", w_sunk, NONE),
    S(NV_RANGE_WORLD_POSITION, "{" SKIFF ", \"vessels\": [{\"type\": \"skiff\", \"position\": [0, %s]}]}",
      "ranges.json: vessels[0].position[1]", NONE),
    S(NV_RANGE_WORLD_POSITION, "{" SKIFF ", \"fleets\": [{\"type\": \"skiff\", \"count\": 1, \"origin\": [%s, 0]}]}",
      "ranges.json: fleets[0].origin[0]", NONE),
    S(NV_RANGE_WORLD_POSITION, "{" SKIFF ", \"structures\": [{\"box\": [1, 1, 1], \"position\": [0, 0, %s]}]}",
      "ranges.json: structures[0].position[2]", NONE),
    S(NV_RANGE_WORLD_POSITION, TERRAIN("%s", "4", "-20", "45"), "ranges.json: terrain.origin[0]", NONE),
    C(NV_RANGE_WORLD_POSITION, "terrain: origin[0]", t_origin, NONE),
    C(NV_RANGE_WORLD_POSITION, "spawn: position.z", w_spawn, NONE),
    S(NV_RANGE_WORLD_HEADING,
      "{" SKIFF ", \"vessels\": [{\"type\": \"skiff\", \"position\": [0, 0], \"heading_deg\": %s}]}",
      "ranges.json: vessels[0].heading_deg", NONE),
    S(NV_RANGE_WORLD_HEADING,
      "{" SKIFF ", \"structures\": [{\"box\": [1, 1, 1], \"position\": [0, 0, 0], \"heading_deg\": %s}]}",
      "ranges.json: structures[0].heading_deg", NONE),
    S(NV_RANGE_WORLD_SEED, "{\"ocean\": {\"seed\": %s}, " SKIFF "}", "ranges.json: ocean.seed", NONE),
    S(NV_RANGE_WORLD_SEED, "{" SKIFF ", \"fleets\": [{\"type\": \"skiff\", \"count\": 1, \"seed\": %s}]}",
      "ranges.json: fleets[0].seed", NONE),
    R(NV_RANGE_WORLD_SEED, "--seed", "--seed", NONE),
    R(NV_RANGE_WORLD_SEED, "{\"seed\": %s}", "ranges.json: seed", NONE),
    T(NV_RANGE_WORLD_SEED, T_OCEAN, OCEAN_TOOL "--seed %s", "--seed", NONE),
    T(NV_RANGE_WORLD_SEED, T_BENCH, BENCH_TOOL "--seed %s", "--seed", NONE),
    /* ---- vessels and fleets */
    S(NV_RANGE_VESSEL_SPEED,
      "{" SKIFF ", \"vessels\": [{\"type\": \"skiff\", \"position\": [0, 0], \"velocity\": [%s, 0, 0]}]}",
      "ranges.json: vessels[0].velocity: its length", .flags = F_LENGTH),
    S(NV_RANGE_VESSEL_SPEED, "{" SKIFF ", \"fleets\": [{\"type\": \"skiff\", \"count\": 1, \"speed\": %s}]}",
      "ranges.json: fleets[0].speed", NONE),
    S(NV_RANGE_VESSEL_TURN_RATE,
      "{" SKIFF ", \"vessels\": [{\"type\": \"skiff\", \"position\": [0, 0], \"angular_velocity\": [0, %s, 0]}]}",
      "ranges.json: vessels[0].angular_velocity: its length", .flags = F_LENGTH),
    S(NV_RANGE_VESSEL_CONTROL,
      "{" SKIFF ", \"vessels\": [{\"type\": \"skiff\", \"position\": [0, 0], \"controls\": {\"throttle\": %s}}]}",
      "ranges.json: vessels[0].controls.throttle", NONE),
    S(NV_RANGE_VESSEL_CONTROL,
      "{" SKIFF ", \"fleets\": [{\"type\": \"skiff\", \"count\": 1, \"controls\": {\"rudder\": %s}}]}",
      "ranges.json: fleets[0].controls.rudder", NONE),
    S(NV_RANGE_VESSEL_ID,
      EVENT("1", "%s", "[0, 0, 0]", "0.1"),
      "ranges.json: events[0].damage.vessel", INSIDE(0)),
    S(NV_RANGE_FLEET_COUNT, "{" SKIFF ", \"fleets\": [{\"type\": \"skiff\", \"count\": %s}]}",
      "ranges.json: fleets[0].count", INSIDE(1, 1000)),
    S(NV_RANGE_FLEET_SPACING, "{" SKIFF ", \"fleets\": [{\"type\": \"skiff\", \"count\": 4, \"spacing\": %s}]}",
      "ranges.json: fleets[0].spacing", NONE),
    T(NV_RANGE_FLEET_SPACING, T_BENCH, BENCH_TOOL "--spacing %s", "--spacing", INSIDE(0.5, 1e4)),
    /* ---- the static world */
    S(NV_RANGE_TERRAIN_CELL_SIZE,
      TERRAIN("0", "%s", "-20", "45"),
      "ranges.json: terrain.cell_size", NONE),
    C(NV_RANGE_TERRAIN_CELL_SIZE, "terrain: cell_size", t_cell, NONE),
    S(NV_RANGE_TERRAIN_ELEVATION,
      TERRAIN("0", "4", "%s", "9000"),
      "ranges.json: terrain.min_elevation", INSIDE(-11000, 0)),
    S(NV_RANGE_TERRAIN_ELEVATION,
      TERRAIN("0", "4", "-11000", "%s"),
      "ranges.json: terrain.max_elevation", INSIDE(0, 9000)),
    C(NV_RANGE_TERRAIN_ELEVATION, "terrain: min_elevation", t_min, INSIDE(-11000, 0)),
    C(NV_RANGE_TERRAIN_ELEVATION, "terrain: max_elevation", t_max, INSIDE(0, 9000)),
    S(NV_RANGE_STRUCTURE_BOX, "{" SKIFF ", \"structures\": [{\"box\": [1, %s, 1], \"position\": [0, 0, 0]}]}",
      "ranges.json: structures[0].box[1]", NONE),
    S(NV_RANGE_CONTACT_FRICTION, "{" SKIFF ", \"contacts\": {\"ground_friction\": %s}}",
      "ranges.json: contacts.ground_friction", NONE),
    S(NV_RANGE_CONTACT_FRICTION, "{" SKIFF ", \"contacts\": {\"vessel_friction\": %s}}",
      "ranges.json: contacts.vessel_friction", NONE),
    C(NV_RANGE_CONTACT_FRICTION, "contacts.ground_friction", c_ground_friction, NONE),
    C(NV_RANGE_CONTACT_FRICTION, "contacts.vessel_friction", c_vessel_friction, NONE),
    S(NV_RANGE_CONTACT_RESTITUTION, "{" SKIFF ", \"contacts\": {\"restitution\": %s}}",
      "ranges.json: contacts.restitution", NONE),
    C(NV_RANGE_CONTACT_RESTITUTION, "contacts.restitution", c_restitution, NONE),
    S(NV_RANGE_CONTACT_HERTZ, "{" SKIFF ", \"contacts\": {\"hertz\": %s}}", "ranges.json: contacts.hertz", NONE),
    C(NV_RANGE_CONTACT_HERTZ, "contacts.hertz", c_hertz, NONE),
    S(NV_RANGE_CONTACT_DAMPING_RATIO, "{" SKIFF ", \"contacts\": {\"damping_ratio\": %s}}",
      "ranges.json: contacts.damping_ratio", NONE),
    C(NV_RANGE_CONTACT_DAMPING_RATIO, "contacts.damping_ratio", c_damping_ratio, NONE),
    S(NV_RANGE_CONTACT_PUSH_SPEED, "{" SKIFF ", \"contacts\": {\"push_speed\": %s}}",
      "ranges.json: contacts.push_speed", NONE),
    C(NV_RANGE_CONTACT_PUSH_SPEED, "contacts.push_speed", c_push_speed, NONE),
    S(NV_RANGE_EVENT_TIME,
      EVENT("%s", "0", "[0, 0, 0]", "0.1"),
      "ranges.json: events[0].time", NONE),
    /* ---- vessel types: mass properties */
    V(NV_RANGE_TYPE_MASS, "{\"name\": \"t\", \"hull\": \"builtin:barge\", \"mass\": %s}", "t.json: mass", NONE),
    S(NV_RANGE_TYPE_MASS, "{\"hull_types\": [{\"name\": \"b\", \"hull\": \"builtin:barge\", \"mass\": %s}]}",
      "ranges.json: hull_types[0].mass", NONE),
    T(NV_RANGE_TYPE_MASS, T_HULL, "builtin:barge --mass %s", "--mass", INSIDE(1000, 40000)),
    V(NV_RANGE_TYPE_DENSITY, "{\"name\": \"t\", \"hull\": \"builtin:barge\", \"density\": %s}", "t.json: density",
      NONE),
    S(NV_RANGE_TYPE_DENSITY, "{\"hull_types\": [{\"name\": \"b\", \"hull\": \"builtin:barge\", \"density\": %s}]}",
      "ranges.json: hull_types[0].density", NONE),
    V(NV_RANGE_TYPE_COORDINATE, VT_HEAD "\"cg\": [0, %s, 0]}", "t.json: cg[1]", NONE),
    V(NV_RANGE_TYPE_COORDINATE, VT_HEAD "\"propellers\": [{\"max_thrust\": 1000, \"position\": [%s, 0, 0]}]}",
      "t.json: propellers[0].position[0]", NONE),
    V(NV_RANGE_TYPE_COORDINATE, VT_HEAD "\"rudders\": [{\"area\": 1, \"position\": [0, 0, %s]}]}",
      "t.json: rudders[0].position[2]", NONE),
    V(NV_RANGE_TYPE_COORDINATE, VT_HEAD "\"compartments\": {\"bulkheads\": [%s]}}", "t.json: compartments.bulkheads[0]",
      NONE),
    V(NV_RANGE_TYPE_COORDINATE, VT_HEAD "\"compartments\": {\"longitudinal\": [%s]}}",
      "t.json: compartments.longitudinal[0]", NONE),
    S(NV_RANGE_TYPE_COORDINATE,
      EVENT("1", "0", "[0, %s, 0]", "0.1"),
      "ranges.json: events[0].damage.point[1]", NONE),
    S(NV_RANGE_TYPE_COORDINATE,
      "{\"hull_types\": [{\"name\": \"b\", \"hull\": \"builtin:barge\", \"cg\": [%s, 0, 0]}]}",
      "ranges.json: hull_types[0].cg[0]", NONE),
    T(NV_RANGE_TYPE_COORDINATE, T_HULL, "builtin:barge --mass 40000 --cg 0,%s,0", "--cg", INSIDE(0, 0.5)),
    C(NV_RANGE_TYPE_COORDINATE, "rudders[0].position[1]", a_position, NONE),
    V(NV_RANGE_TYPE_GYRATION, VT_HEAD "\"gyration\": [1, 1, %s]}", "t.json: gyration[2]", NONE),
    S(NV_RANGE_TYPE_GYRATION,
      "{\"hull_types\": [{\"name\": \"b\", \"hull\": \"builtin:barge\", \"mass\": 40000, \"gyration\": [%s, 1, 1]}]}",
      "ranges.json: hull_types[0].gyration[0]", NONE),
    T(NV_RANGE_TYPE_GYRATION, T_HULL, "builtin:barge --mass 40000 --gyration 1,%s,3", "--gyration", INSIDE(1, 3)),
    /* ---- vessel types: coefficients, in files and in nv_hydrodyn_coeffs_validate */
#define COEFF(id, key, fn) \
    V(id, VT_HEAD "\"coefficients\": {\"" key "\": %s}}", "t.json: coefficients." key, NONE), C(id, key, fn, NONE)
    COEFF(NV_RANGE_TYPE_VISCOSITY, "viscosity", h_viscosity),
    COEFF(NV_RANGE_TYPE_REYNOLDS_MIN, "reynolds_min", h_reynolds),
    COEFF(NV_RANGE_TYPE_REFERENCE_LENGTH, "reference_length", h_length),
    COEFF(NV_RANGE_TYPE_RESIDUAL, "residual", h_residual),
    COEFF(NV_RANGE_TYPE_PRESSURE_LINEAR, "pressure_linear", h_p_lin),
    COEFF(NV_RANGE_TYPE_PRESSURE_QUADRATIC, "pressure_quadratic", h_p_quad),
    COEFF(NV_RANGE_TYPE_PRESSURE_FALLOFF, "pressure_falloff", h_p_fall),
    COEFF(NV_RANGE_TYPE_SUCTION_LINEAR, "suction_linear", h_s_lin),
    COEFF(NV_RANGE_TYPE_SUCTION_QUADRATIC, "suction_quadratic", h_s_quad),
    COEFF(NV_RANGE_TYPE_SUCTION_FALLOFF, "suction_falloff", h_s_fall),
    COEFF(NV_RANGE_TYPE_REFERENCE_SPEED, "reference_speed", h_ref_speed),
    COEFF(NV_RANGE_TYPE_SLAM_POWER, "slam_power", h_slam_power),
    COEFF(NV_RANGE_TYPE_SLAM_GAMMA_MAX, "slam_gamma_max", h_slam_gamma),
    COEFF(NV_RANGE_TYPE_AIR_DENSITY, "air_density", h_air_density),
    COEFF(NV_RANGE_TYPE_AIR_DRAG, "air_drag", h_air_drag),
#undef COEFF
    V(NV_RANGE_TYPE_AREA_DAMPING, VT_HEAD "\"coefficients\": {\"damping_linear\": [%s, 0]}}",
      "t.json: coefficients.damping_linear[0]", NONE),
    V(NV_RANGE_TYPE_AREA_DAMPING, VT_HEAD "\"coefficients\": {\"damping_angular\": [0, %s]}}",
      "t.json: coefficients.damping_angular[1]", NONE),
    C(NV_RANGE_TYPE_AREA_DAMPING, "damping_angular[1]", h_damping, NONE),
    V(NV_RANGE_TYPE_ADDED_MASS, VT_HEAD "\"coefficients\": {\"added_mass\": [%s, 0, 0]}}",
      "t.json: coefficients.added_mass[0]", NONE),
    V(NV_RANGE_TYPE_ADDED_MASS, VT_HEAD "\"coefficients\": {\"added_inertia\": [0, %s, 0]}}",
      "t.json: coefficients.added_inertia[1]", NONE),
    C(NV_RANGE_TYPE_ADDED_MASS, "added_inertia[1]", h_added, NONE),
    V(NV_RANGE_TYPE_BILGE_KEEL, VT_HEAD "\"bilge_keels\": {\"length\": %s, \"breadth\": 0.5}}", "t.json: bilge_keels.length",
      NONE),
    C(NV_RANGE_TYPE_BILGE_KEEL, "bilge_keels.length", h_bilge_keel, NONE),
    V(NV_RANGE_TYPE_ROLL_DAMPING, VT_HEAD "\"roll_damping\": {\"linear\": 0, \"quadratic\": %s}}",
      "t.json: roll_damping.quadratic", NONE),
    C(NV_RANGE_TYPE_ROLL_DAMPING, "roll_damping.quadratic", h_roll_damping, NONE),
    V(NV_RANGE_TYPE_PLANING_LENGTH, VT_HEAD "\"planing\": {\"chine_beam\": %s, \"deadrise\": 0, \"length\": 3}}",
      "t.json: planing.chine_beam", NONE),
    C(NV_RANGE_TYPE_PLANING_LENGTH, "planing.chine_beam", h_planing_beam, NONE),
    V(NV_RANGE_TYPE_PLANING_DEADRISE, VT_HEAD "\"planing\": {\"chine_beam\": 2, \"deadrise\": %s, \"length\": 3}}",
      "t.json: planing.deadrise", NONE),
    C(NV_RANGE_TYPE_PLANING_DEADRISE, "planing.deadrise", h_planing_deadrise, NONE),
    V(NV_RANGE_TYPE_RATED_BEAUFORT, VT_HEAD "\"rated_beaufort\": %s}", "t.json: rated_beaufort", .n_inside = 3,
      .inside = {0, 7, 12}),
    /* ---- vessel types: actuators, in files and in nv_actuator_set_validate */
    V(NV_RANGE_TYPE_PROPELLER_DIRECTION, VT_HEAD PROP "\"direction\": [1, 0, %s]}]}",
      "t.json: propellers[0].direction[2]", NONE),
    C(NV_RANGE_TYPE_PROPELLER_DIRECTION, "propellers[0].direction[2]", a_direction, NONE),
    V(NV_RANGE_TYPE_MAX_THRUST, VT_HEAD "\"propellers\": [{\"position\": [0, 0, 0], \"max_thrust\": %s}]}",
      "t.json: propellers[0].max_thrust", NONE),
    C(NV_RANGE_TYPE_MAX_THRUST, "propellers[0].max_thrust", a_thrust, NONE),
    V(NV_RANGE_TYPE_REVERSE, VT_HEAD PROP "\"reverse\": %s}]}", "t.json: propellers[0].reverse", NONE),
    C(NV_RANGE_TYPE_REVERSE, "propellers[0].reverse", a_reverse, NONE),
    V(NV_RANGE_TYPE_IMMERSION, VT_HEAD PROP "\"immersion\": %s}]}", "t.json: propellers[0].immersion", NONE),
    C(NV_RANGE_TYPE_IMMERSION, "propellers[0].immersion", a_immersion, NONE),
    V(NV_RANGE_TYPE_STEERING, VT_HEAD PROP "\"steering\": %s}]}", "t.json: propellers[0].steering", NONE),
    C(NV_RANGE_TYPE_STEERING, "propellers[0].steering", a_steering, NONE),
    V(NV_RANGE_TYPE_PROPELLER_DIAMETER, VT_HEAD PROP "\"diameter\": %s}]}", "t.json: propellers[0].diameter", NONE),
    C(NV_RANGE_TYPE_PROPELLER_DIAMETER, "propellers[0].diameter", a_diameter, NONE),
    V(NV_RANGE_TYPE_RUDDER_AREA, VT_HEAD "\"rudders\": [{\"position\": [0, 0, 0], \"area\": %s}]}",
      "t.json: rudders[0].area", NONE),
    C(NV_RANGE_TYPE_RUDDER_AREA, "rudders[0].area", a_area, NONE),
    V(NV_RANGE_TYPE_RUDDER_ANGLE, VT_HEAD RUD "\"max_angle\": %s}]}", "t.json: rudders[0].max_angle", NONE),
    V(NV_RANGE_TYPE_RUDDER_ANGLE, VT_HEAD RUD "\"stall_angle\": %s}]}", "t.json: rudders[0].stall_angle", NONE),
    C(NV_RANGE_TYPE_RUDDER_ANGLE, "rudders[0].stall_angle", a_angle, NONE),
    V(NV_RANGE_TYPE_LIFT_SLOPE, VT_HEAD RUD "\"lift_slope\": %s}]}", "t.json: rudders[0].lift_slope", NONE),
    C(NV_RANGE_TYPE_LIFT_SLOPE, "rudders[0].lift_slope", a_slope, NONE),
    V(NV_RANGE_TYPE_RUDDER_DRAG, VT_HEAD RUD "\"drag\": %s}]}", "t.json: rudders[0].drag", NONE),
    C(NV_RANGE_TYPE_RUDDER_DRAG, "rudders[0].drag", a_drag, NONE),
    V(NV_RANGE_TYPE_CONTROL_RATE, VT_HEAD "\"controls\": {\"throttle_rate\": %s}}", "t.json: controls.throttle_rate",
      NONE),
    V(NV_RANGE_TYPE_CONTROL_RATE, VT_HEAD "\"controls\": {\"rudder_rate\": %s}}", "t.json: controls.rudder_rate", NONE),
    C(NV_RANGE_TYPE_CONTROL_RATE, "rudder_rate", a_rate, NONE),
    /* ---- vessel types: damage */
    V(NV_RANGE_TYPE_PUMPS, VT_HEAD "\"compartments\": {\"pumps\": %s}}", "t.json: compartments.pumps", NONE),
    V(NV_RANGE_TYPE_BREACH_SPEED, VT_HEAD "\"compartments\": {\"breach_speed\": %s}}",
      "t.json: compartments.breach_speed", NONE),
    V(NV_RANGE_TYPE_HOLE_AREA, VT_HEAD "\"compartments\": {\"breach_area\": %s}}", "t.json: compartments.breach_area",
      NONE),
    V(NV_RANGE_TYPE_PLATING,
      VT_HEAD "\"compartments\": {\"bulkheads\": [0]}, \"hull_strength\": {\"plating\": %s, \"breach_energy\": 1}}",
      "t.json: hull_strength.plating", NONE),
    V(NV_RANGE_TYPE_BREACH_ENERGY,
      VT_HEAD "\"compartments\": {\"bulkheads\": [0]}, \"hull_strength\": {\"plating\": 0.01, \"breach_energy\": %s}}",
      "t.json: hull_strength.breach_energy", NONE),
    S(NV_RANGE_TYPE_HOLE_AREA,
      EVENT("1", "0", "[0, 0, 0]", "%s"),
      "ranges.json: events[0].damage.area", NONE),
    C(NV_RANGE_TYPE_HOLE_AREA, "breach: area", f_hole, NONE),
};
#define FIXTURE_COUNT (sizeof fixtures / sizeof fixtures[0])

/* --------------------------------------------------------------- running */

static char tmp_dir[256];

/* The value as a consumer reads it: JSON has no NaN and spells infinity
 * 1e999 (cJSON reads it as inf); the command lines take "nan" and "inf". */
static void value_text(double v, int json, char* out, size_t n) {
    if (isnan(v)) snprintf(out, n, "nan");
    else if (isinf(v)) snprintf(out, n, json ? "%s1e999" : "%sinf", v < 0 ? "-" : "");
    else snprintf(out, n, "%.17g", v);
}

/* Accepted (0) or refused (-1, the message in msg). */
static int run_fixture(const fixture* f, double v, char* msg, size_t n) {
    msg[0] = '\0';
    double shown = f->scale ? v * f->scale : v;
    nv_error err;
    err.message[0] = '\0';
    char val[64], text[2048];
    value_text(shown, f->by == SCN || f->by == VT || (f->by == SRV && f->text[0] == '{'), val, sizeof val);
    if (f->text) snprintf(text, sizeof text, f->text, val);
    int rc = 0;
    switch (f->by) {
    case OCEAN_BY:
    case CORE:
        rc = f->set(v, &err);
        break;
    case SCN: {
        nv_scenario s;
        rc = nv_scenario_parse(text, strlen(text), "ranges.json", tmp_dir, &s, &err);
        if (rc == 0) nv_scenario_free(&s);
        break;
    }
    case VT: {
        nv_vessel_type t;
        rc = nv_vessel_type_parse(text, strlen(text), "t.json", tmp_dir, &t, &err);
        break;
    }
    case SRV: {
        cfg_server c;
        cfg_defaults(&c);
        if (f->text[0] == '{') rc = cfg_parse_text(&c, text, strlen(text), "ranges.json", &err);
        else rc = cfg_set_text(&c, CFG_FROM_FLAG, f->text, val, &err);
        break;
    }
    case TOOL: {
        char errfile[320], cmd[4096];
        snprintf(errfile, sizeof errfile, "%s/stderr.txt", tmp_dir);
        snprintf(cmd, sizeof cmd, "'%s' %s > /dev/null 2> '%s'", tool_paths[f->tool], text, errfile);
        int status = system(cmd);
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
        FILE* in = fopen(errfile, "r");
        size_t got = in ? fread(msg, 1, n - 1, in) : 0;
        if (in) fclose(in);
        msg[got] = '\0';
        if (code != 0 && code != 2) fail_msg("%s exited %d: %s", cmd, code, msg);
        return code == 0 ? 0 : -1;
    }
    default:
        fail_msg("fixture of row %d: unknown consumer %u", (int)f->id, f->by);
    }
    snprintf(msg, n, "%s", err.message);
    return rc == 0 ? 0 : -1;
}

static const char* consumer_name(unsigned by) {
    switch (by) {
    case OCEAN_BY: return "nv_ocean_params_validate";
    case SCN: return "scenario";
    case VT: return "vessel type";
    case TOOL: return "tool";
    case SRV: return "server config";
    case CORE: return "core";
    }
    return "?";
}

/* A value the consumer must refuse, naming the key and the range. */
static void expect_refused(const fixture* f, double v, int numeric) {
    const nv_range* r = nv_range_get(f->id);
    char msg[4096], range[160];
    nv_range_describe(r, range, sizeof range);
    if (run_fixture(f, v, msg, sizeof msg) == 0)
        fail_msg("%s (%s, row %s %s) took %.17g", f->key, consumer_name(f->by), r->name, range, v);
    if (!strstr(msg, f->key)) fail_msg("%s (%s): refusing %.17g, the message does not name it: %s", f->key,
                                       consumer_name(f->by), v, msg);
    /* tools refuse "nan" and "inf" as no number at all */
    if (numeric && !strstr(msg, range))
        fail_msg("%s (%s): refusing %.17g, the message lacks the range '%s': %s", f->key, consumer_name(f->by), v,
                 range, msg);
}

static void expect_accepted(const fixture* f, double v) {
    char msg[4096];
    if (run_fixture(f, v, msg, sizeof msg) != 0)
        fail_msg("%s (%s, row %s) refused %.17g: %s", f->key, consumer_name(f->by), nv_range_get(f->id)->name, v, msg);
}

/* Just past an end: the end itself when open, else a relative step out. */
static double past(double end, int open, int integer, double dir) {
    if (open) return end;
    if (integer) return end + dir;
    return end + dir * fmax(fabs(end), 1.0) * 1e-9;
}

static void walk_fixture(const fixture* f) {
    const nv_range* r = nv_range_get(f->id);
    int integer = (r->kind & NV_RANGE_INTEGER) != 0, lo_open = (r->open & NV_RANGE_LO_OPEN) != 0,
        hi_open = (r->open & NV_RANGE_HI_OPEN) != 0;
    /* outside */
    if (isfinite(r->lo) && !(f->flags & (F_LENGTH | F_NO_LO)))
        expect_refused(f, past(r->lo, lo_open, integer, -1.0), 1);
    if (isfinite(r->hi)) {
        double out = past(r->hi, hi_open, integer, 1.0);
        expect_refused(f, out, 1);
        if (f->flags & F_LENGTH) expect_refused(f, -out, 1);
    }
    if (r->kind & NV_RANGE_POW2) expect_refused(f, 3.0 * r->lo, 1); /* between powers of two */
    if (integer) expect_refused(f, isfinite(r->lo) ? r->lo + 0.5 : 0.5, 1);
    int json = f->by == SCN || f->by == VT || (f->by == SRV && f->text[0] == '{');
    int numeric_nonfinite = f->by != TOOL; /* the parsers of the command lines refuse them as "not a number" */
    if (!(f->flags & F_DERIVED)) {
        if (!json) expect_refused(f, NAN, numeric_nonfinite);
        expect_refused(f, INFINITY, numeric_nonfinite);
        if (!(f->flags & F_NO_LO)) expect_refused(f, -INFINITY, numeric_nonfinite);
    }
    /* inside */
    if (f->n_inside) {
        for (int i = 0; i < f->n_inside; i++) expect_accepted(f, f->inside[i]);
        return;
    }
    if (isfinite(r->lo)) expect_accepted(f, lo_open ? r->lo + fmax(fabs(r->lo), 1.0) * 1e-9 : r->lo);
    if (isfinite(r->hi)) expect_accepted(f, hi_open ? r->hi - fmax(fabs(r->hi), 1.0) * 1e-9 : r->hi);
    if ((r->kind & NV_RANGE_OR_ZERO)) expect_accepted(f, 0.0);
    if (isfinite(r->lo) && isfinite(r->hi) && !(r->kind & NV_RANGE_POW2)) {
        double mid = 0.5 * (r->lo + r->hi);
        expect_accepted(f, integer ? floor(mid) : mid);
    }
    if (!isfinite(r->hi)) expect_accepted(f, 10.0 * r->lo);
}

/* ------------------------------------------------------------------ tests */

static void table_is_whole(void** state) {
    (void)state;
    for (int i = 0; i < NV_RANGE_COUNT; i++) {
        const nv_range* r = nv_range_get((nv_range_id)i);
        if (!r->name) fail_msg("row %d has no name", i);
        if (nv_range_find(r->name) != r) fail_msg("row %s: its name is not unique", r->name);
        if (!r->unit || !r->reason || strlen(r->reason) < 10) fail_msg("row %s: no unit or no reason", r->name);
        if (!(r->lo < r->hi)) fail_msg("row %s: empty range", r->name);
        if (!r->consumers) fail_msg("row %s: no consumer", r->name);
    }
    assert_null(nv_range_get(NV_RANGE_COUNT));
    assert_null(nv_range_find("ocean.wind_speed_in_knots"));
    /* the words of a message */
    char why[256];
    assert_int_equal(nv_range_why(NV_RANGE_OCEAN_WIND, 1e300, why, sizeof why), -1);
    assert_string_equal(why, "must be in [0, 60] m/s (got 1e+300)");
    assert_int_equal(nv_range_why(NV_RANGE_OCEAN_RESOLUTION, 100, why, sizeof why), -1);
    assert_string_equal(why, "must be a power of two in [4, 2048] (got 100)");
    assert_int_equal(nv_range_why(NV_RANGE_OCEAN_SIZE, 1e-9, why, sizeof why), -1);
    assert_string_equal(why, "must be 0 or in [1, 100000] m (got 1e-09)");
    assert_int_equal(nv_range_why(NV_RANGE_OCEAN_GRID_SPACING, 0.001, why, sizeof why), -1);
    assert_string_equal(why, "must be >= 0.01 m (got 0.001)");
    assert_int_equal(nv_range_why(NV_RANGE_TYPE_MAX_THRUST, 0, why, sizeof why), -1);
    assert_string_equal(why, "must be in (0, 1e+08] N (got 0)");
    assert_int_equal(nv_range_why(NV_RANGE_WORLD_SEED, 9007199254740992.0, why, sizeof why), -1);
    assert_string_equal(why, "must be an integer in [0, 9007199254740991] (got 9007199254740992)");
    assert_int_equal(nv_range_why(NV_RANGE_OCEAN_WIND, 60.000001, why, sizeof why), -1);
    assert_string_equal(why, "must be in [0, 60] m/s (got 60.000001)");
    assert_int_equal(nv_range_why(NV_RANGE_OCEAN_WIND, NAN, why, sizeof why), -1);
    assert_int_equal(nv_range_why(NV_RANGE_OCEAN_WIND, 60.0, why, sizeof why), 0);
    nv_error err;
    assert_int_equal(nv_range_check(NV_RANGE_OCEAN_FETCH, 1e30, NULL, &err), -1);
    assert_string_equal(err.message, "ocean.fetch: must be in [1, 1e+07] m (got 1e+30)");
    assert_int_equal(err.code, NV_EINVAL);
}

/* Every consumer a row claims has a fixture here, and every fixture's
 * consumer is claimed by its row. */
static void every_consumer_is_walked(void** state) {
    (void)state;
    for (int i = 0; i < NV_RANGE_COUNT; i++) {
        const nv_range* r = nv_range_get((nv_range_id)i);
        unsigned seen = 0;
        for (size_t k = 0; k < FIXTURE_COUNT; k++)
            if ((int)fixtures[k].id == i) seen |= fixtures[k].by;
        for (unsigned by = 1; by <= CORE; by <<= 1)
            if ((r->consumers & by) && !(seen & by))
                fail_msg("row %s claims the %s but no fixture walks it", r->name, consumer_name(by));
        if (seen & ~r->consumers) fail_msg("row %s: a fixture walks a consumer the row does not claim", r->name);
    }
}

static void rows_hold_in_every_consumer(void** state) {
    (void)state;
    for (size_t k = 0; k < FIXTURE_COUNT; k++)
        if (fixtures[k].by != TOOL) walk_fixture(&fixtures[k]);
}

static void rows_hold_in_the_tools(void** state) {
    (void)state;
    for (size_t k = 0; k < FIXTURE_COUNT; k++)
        if (fixtures[k].by == TOOL) walk_fixture(&fixtures[k]);
}

/* A state the step throws out of the world is as lost as a non-finite
 * one: frozen where it was, at rest (the contact pass must never see a hull
 * 1e17 m away: one there once took every vessel with it). */
static void leaving_the_world_freezes(void** state) {
    (void)state;
    nv_error err;
    uint32_t type, out, in;
    nv_world* w = barge_world(&type, &err);
    const nv_range* place = nv_range_get(NV_RANGE_WORLD_POSITION);
    nv_vec3 edge = v3(place->hi - 1.0, 0.0, 0.0);
    ASSERT_OK(nv_world_spawn(w, type, edge, quat_identity(), &out, &err), err);
    ASSERT_OK(nv_world_set_velocity(w, out, v3(100.0, 0.0, 0.0), v3(0, 0, 0), &err), err);
    ASSERT_OK(nv_world_spawn(w, type, v3(0.0, 0.0, 0.0), quat_identity(), &in, &err), err);
    ASSERT_OK(nv_world_set_velocity(w, in, v3(100.0, 0.0, 0.0), v3(0, 0, 0), &err), err);
    nv_world_step(w);
    nv_world_vessel_state a, b;
    assert_int_equal(nv_world_vessel_get(w, out, &a), 0);
    assert_int_equal(nv_world_vessel_get(w, in, &b), 0);
    assert_true(a.flags & WORLD_VESSEL_FROZEN);
    assert_true(a.position.x == edge.x && a.velocity.x == 0.0);
    assert_false(b.flags & WORLD_VESSEL_FROZEN);
    assert_true(b.position.x > 1.0);
    nv_world_destroy(w);
}

/* The absurd inputs, as given. */
static void absurd_ocean_flags_exit_2(void** state) {
    (void)state;
    static const struct {
        const char* args;
        const char* says;
    } cases[] = {
        {"--size 1e-9", "--size: must be 0 or in [1, 100000] m (got 1e-09)"},
        {"--wind 1e300", "--wind: must be in [0, 60] m/s (got 1e+300)"},
        {"--gamma 1e300", "--gamma: must be in [1, 10] (got 1e+300)"},
        {"--fetch 1e30", "--fetch: must be in [1, 1e+07] m (got 1e+30)"},
        {"--hs 1e30", "--hs: must be in [0, 30] m (got 1e+30)"},
        {"--wind-dir 1e300", "--wind-dir: must be in [-360, 360] degrees (got 1e+300)"},
        {"--size 10 --resolution 2048 --cascades 1", "must be >= 0.01 m (got 0.0048828125)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[1024], errfile[320], msg[2048];
        snprintf(errfile, sizeof errfile, "%s/stderr.txt", tmp_dir);
        snprintf(cmd, sizeof cmd, "'%s' %s > /dev/null 2> '%s'", NAVAL_OCEAN_BIN, cases[i].args, errfile);
        int status = system(cmd);
        FILE* in = fopen(errfile, "r");
        size_t got = in ? fread(msg, 1, sizeof msg - 1, in) : 0;
        if (in) fclose(in);
        msg[got] = '\0';
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 2)
            fail_msg("naval-ocean %s: status %d", cases[i].args, status);
        if (!strstr(msg, cases[i].says))
            fail_msg("naval-ocean %s said '%s', not '%s'", cases[i].args, msg, cases[i].says);
    }
}

static unsigned flat_height(int i, int j) {
    (void)i, (void)j;
    return 30000;
}

static int setup(void** state) {
    (void)state;
    snprintf(tmp_dir, sizeof tmp_dir, "/tmp/naval_ranges_XXXXXX");
    if (!mkdtemp(tmp_dir)) return -1;
    char png_path[320];
    snprintf(png_path, sizeof png_path, "%s/h.png", tmp_dir);
    return test_write_png(png_path, 4, 4, 16, PNG_COLOR_TYPE_GRAY, flat_height);
}

static int teardown(void** state) {
    (void)state;
    char path[320];
    snprintf(path, sizeof path, "%s/h.png", tmp_dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/stderr.txt", tmp_dir);
    unlink(path);
    rmdir(tmp_dir);
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_is_whole),
        cmocka_unit_test(every_consumer_is_walked),
        cmocka_unit_test(rows_hold_in_every_consumer),
        cmocka_unit_test(rows_hold_in_the_tools),
        cmocka_unit_test(absurd_ocean_flags_exit_2),
        cmocka_unit_test(leaving_the_world_freezes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
