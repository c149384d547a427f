// SPDX-License-Identifier: MIT
/* Scenario files: what they describe reaches the world, and every mistake is
 * named by its key path. */
#include <math.h>
#include <png.h>
#include <unistd.h>

#include "naval/ocean_spectrum.h"
#include "naval/scenario.h"
#include "naval/statics.h"
#include "test_png.h"
#include "test_util.h"

static void small_file_builds_its_world(void** state) {
    (void)state;
    nv_scenario s;
    nv_error err;
    ASSERT_OK(nv_scenario_load_file(NAVAL_TEST_DATA "/scenario_small.json", &s, &err), err);
    assert_int_equal(s.hull_count, 2);
    assert_int_equal(s.vessel_count, 7);
    assert_false(s.has_ocean);
    ASSERT_NEAR_ABS(s.world.tick_hz, 30.0, 0.0);
    ASSERT_NEAR_ABS(s.world.water_density, 1000.0, 0.0);
    assert_true(s.hulls[0].mesh.up == 'z');
    assert_non_null(strstr(s.hulls[0].source, "/bourg_cube.off")); /* resolved against the file's folder */

    nv_scenario_instance inst;
    ASSERT_OK(nv_scenario_instantiate(&s, NULL, &inst, &err), err);
    assert_int_equal(nv_world_vessel_count(inst.world), 7);
    /* The afloat barge sits at the height where it floats upright. */
    double y;
    ASSERT_OK(nv_statics_balance_height_of(nv_world_hull_type(inst.world, 1), 1000.0, 9.81, quat_identity(), &y, &err),
              err);
    nv_world_vessel_state v;
    assert_int_equal(nv_world_vessel_get(inst.world, 0, &v), 0);
    ASSERT_NEAR_ABS(v.position.x, 10.0, 0.0);
    ASSERT_NEAR_ABS(v.position.y, y, 0.0);
    ASSERT_NEAR_ABS(v.position.z, -20.0, 0.0);
    ASSERT_NEAR_ABS(y, 1.0 - 40000.0 / (1000.0 * 10 * 4), 1e-6); /* CG 1 m above the keel, analytic draft */
    /* Heading 90 degrees turns the bow (+x) to -z. */
    nv_vec3 bow = quat_rotate(v.orientation, v3(1, 0, 0));
    ASSERT_NEAR_ABS(bow.z, -1.0, 1e-12);
    assert_int_equal(nv_world_vessel_get(inst.world, 1, &v), 0);
    ASSERT_NEAR_ABS(v.position.y, 5.0, 0.0); /* given explicitly */
    /* The fleet: five barges 30 m apart around (100, 100), moving at 3 m/s. */
    for (uint32_t id = 2; id < 7; id++) {
        assert_int_equal(nv_world_vessel_get(inst.world, id, &v), 0);
        ASSERT_NEAR_REL(v3_length(v.velocity), 3.0, 1e-12);
        nv_vec3 fwd = quat_rotate(v.orientation, v3(1, 0, 0));
        ASSERT_NEAR_REL(v3_dot(fwd, v.velocity), 3.0, 1e-9); /* moving bow first */
        assert_true(fabs(v.position.x - 100.0) <= 30.0 && fabs(v.position.z - 100.0) <= 30.0);
    }
    for (int i = 0; i < 60; i++) nv_world_step(inst.world);
    assert_int_equal(nv_world_vessel_get(inst.world, 6, &v), 0);
    assert_true(v3_is_finite(v.position) && v.flags == 0);
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&s);
}

static void ocean_section_reaches_the_ocean(void** state) {
    (void)state;
    const char* text =
        "{\"ocean\": {\"spectrum\": \"pm\", \"wind\": 9, \"resolution\": 32, \"size\": 200, \"cascades\": 1, \"seed\": 5},"
        " \"hull_types\": [{\"name\": \"b\", \"hull\": \"builtin:barge\"}],"
        " \"vessels\": [{\"type\": \"b\", \"position\": [0, 0]}]}";
    nv_scenario s;
    nv_error err;
    ASSERT_OK(nv_scenario_parse(text, strlen(text), "inline", NULL, &s, &err), err);
    assert_true(s.has_ocean);
    assert_int_equal(s.ocean.spectrum, SPECTRUM_PIERSON_MOSKOWITZ);
    assert_int_equal(s.ocean.resolution, 32);
    assert_int_equal(s.ocean.seed, 5);
    nv_scenario_instance inst;
    ASSERT_OK(nv_scenario_instantiate(&s, NULL, &inst, &err), err);
    assert_non_null(inst.ocean);
    for (int i = 0; i < 30; i++) nv_world_step(inst.world);
    nv_world_vessel_state v;
    assert_int_equal(nv_world_vessel_get(inst.world, 0, &v), 0);
    assert_true(v.flags == 0 && fabs(v.position.y) < 5.0); /* riding the waves */
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&s);
    /* a sea given by its height and peak period; no size: 16 peak wavelengths */
    text = "{\"ocean\": {\"hs\": 2, \"tp\": 9, \"resolution\": 32, \"cascades\": 1},"
           " \"hull_types\": [{\"name\": \"b\", \"hull\": \"builtin:barge\"}]}";
    ASSERT_OK(nv_scenario_parse(text, strlen(text), "inline", NULL, &s, &err), err);
    assert_true(s.ocean.tp == 9.0 && s.ocean.hs_target == 2.0 && s.ocean.size == 0.0);
    ASSERT_OK(nv_scenario_instantiate(&s, NULL, &inst, &err), err);
    ASSERT_NEAR_REL(nv_ocean_get_params(inst.ocean)->size, 16.0 * 9.81 * 81.0 / (2.0 * NV_PI), 1e-12);
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&s);
}

static void expect_rejection(const char* text, const char* want) {
    nv_scenario s;
    nv_error err;
    if (nv_scenario_parse(text, strlen(text), "bad.json", NULL, &s, &err) == 0) fail_msg("accepted: %s", text);
    if (!strstr(err.message, want)) fail_msg("message '%s' lacks '%s'", err.message, want);
}

#define HULLS "\"hull_types\": [{\"name\": \"b\", \"hull\": \"builtin:barge\"}]"

static void mistakes_are_named(void** state) {
    (void)state;
    expect_rejection("{\"tick_hz\": 60,\n \"hull_types\": [}", "bad.json: line 2, column");
    expect_rejection("{\"tick_hz\": 60}", "hull_types: expected a non-empty array");
    expect_rejection("{\"tick_hz\": 0, " HULLS "}", "bad.json: tick_hz: must be in [1, 1000] Hz (got 0)");
    expect_rejection("{\"speed\": 3, " HULLS "}", "bad.json: speed: unknown key");
    expect_rejection("{" HULLS ", \"vessels\": [{\"type\": \"b\", \"position\": [0, 0]}, {\"type\": \"b\", \"position\": [1]}]}",
                     "vessels[1].position: expected an array of 2 to 3 numbers");
    expect_rejection("{" HULLS ", \"vessels\": [{\"type\": \"c\", \"position\": [0, 0]}]}",
                     "vessels[0].type: 'c' is not among hull_types or vessel_types");
    expect_rejection("{" HULLS ", \"vessels\": [{\"type\": \"b\", \"position\": [0, 0], \"throttle\": 1}]}",
                     "vessels[0].throttle: unknown key");
    expect_rejection("{\"hull_types\": [{\"name\": \"b\"}]}", "hull_types[0].hull: missing");
    expect_rejection("{\"hull_types\": [{\"name\": \"b\", \"hull\": \"x.stl\", \"mass\": -1}]}", "hull_types[0].mass");
    expect_rejection("{\"hull_types\": [{\"name\": \"b\", \"hull\": \"x.stl\"}, {\"name\": \"b\", \"hull\": \"y.stl\"}]}",
                     "hull_types[1]: name 'b' is used twice");
    expect_rejection("{\"ocean\": {\"spectrum\": \"calm\"}, " HULLS "}", "ocean.spectrum: 'calm' is not one of");
    expect_rejection("{\"ocean\": {\"resolution\": 100}, " HULLS "}",
                     "bad.json: ocean.resolution: must be a power of two in [4, 2048] (got 100)");
    /* what only the whole set can say comes from nv_ocean_params_validate */
    expect_rejection("{\"ocean\": {\"resolution\": 16, \"cascades\": 3}, " HULLS "}",
                     "bad.json: ocean: resolution 16 is too small for 3 cascades");
    expect_rejection("{\"ocean\": {\"wind\": \"strong\"}, " HULLS "}", "ocean.wind: expected a number (got a string)");
    expect_rejection("{" HULLS ", \"fleets\": [{\"type\": \"b\", \"count\": 2.5}]}", "fleets[0].count: must be an integer in [1, 1000000] (got 2.5)");
    expect_rejection("{" HULLS ", \"fleets\": [{\"type\": \"b\"}]}", "fleets[0]: count is required");
    expect_rejection("{\"hull_types\": [{\"name\": \"b\", \"hull\": \"x.stl\", \"mass\": 5, \"density\": 3}]}",
                     "hull_types[0]: give mass or density, not both");
    expect_rejection("{\"ocean\": {\"beaufort\": 5, \"wind\": 3}, " HULLS "}", "ocean: beaufort sets the wind");
    expect_rejection("{" HULLS ", \"fleets\": [{\"type\": \"b\", \"count\": 600000}, {\"type\": \"b\", \"count\": 600000}]}",
                     "fleets[1]: 600000 more vessels would pass the limit");
}

static void missing_mesh_fails_at_instantiation(void** state) {
    (void)state;
    const char* text = "{\"hull_types\": [{\"name\": \"ghost\", \"hull\": \"no/such/hull.stl\"}]}";
    nv_scenario s;
    nv_error err;
    ASSERT_OK(nv_scenario_parse(text, strlen(text), "inline", NULL, &s, &err), err);
    nv_scenario_instance inst;
    assert_int_equal(nv_scenario_instantiate(&s, NULL, &inst, &err), -1);
    assert_non_null(strstr(err.message, "hull type 'ghost'"));
    assert_non_null(strstr(err.message, "cannot open"));
    nv_scenario_free(&s);
    assert_int_equal(nv_scenario_load_file("/no/such/scenario.json", &s, &err), -1);
    assert_non_null(strstr(err.message, "cannot open"));
}

#define SCENARIOS NAVAL_TEST_DATA "/../../data/scenarios"

/* Every kind of type entry reaches the world with its dynamics; controls and
 * wind too. */
static void vessel_types_reach_the_world(void** state) {
    (void)state;
    const char* text =
        "{\"wind\": [3, 0, -4],"
        " \"hull_types\": [{\"name\": \"barge\", \"hull\": \"builtin:barge\", \"mass\": 40000},"
        "                  {\"name\": \"dragged\", \"hull\": \"builtin:barge\", \"mass\": 40000,"
        "                   \"coefficients\": {\"forces\": [\"viscous\"]}}],"
        " \"vessel_types\": [\"builtin:skiff\", \"../vessels/patrol.json\","
        "                    {\"name\": \"tug\", \"hull\": \"builtin:patrol:300\", \"mass\": 90000,"
        "                     \"propellers\": [{\"position\": [-12, 0.4, 0], \"max_thrust\": 90000}]}],"
        " \"vessels\": [{\"type\": \"patrol\", \"position\": [0, 0], \"controls\": {\"throttle\": 0.5, \"rudder\": -1}},"
        "              {\"type\": \"barge\", \"position\": [50, 0]},"
        "              {\"type\": \"tug\", \"position\": [100, 0], \"controls\": {\"rudder\": 0.25}}],"
        " \"fleets\": [{\"type\": \"skiff\", \"count\": 3, \"spacing\": 10, \"origin\": [0, 100],"
        "              \"controls\": {\"throttle\": 1, \"rudder\": 0.5}}]}";
    nv_scenario s;
    nv_error err;
    ASSERT_OK(nv_scenario_parse(text, strlen(text), "inline", SCENARIOS, &s, &err), err);
    assert_int_equal(s.hull_count, 5);
    assert_string_equal(s.hulls[2].name, "skiff");
    assert_string_equal(s.hulls[3].name, "patrol");
    assert_string_equal(s.hulls[4].name, "tug");
    assert_false(s.hulls[0].has_dynamics); /* a bare hull type: pure hydrostatics */
    assert_true(s.hulls[1].has_dynamics && s.hulls[1].dynamics.coeffs.forces == HYDRODYN_VISCOUS);
    ASSERT_NEAR_ABS(s.hulls[1].dynamics.coeffs.pressure_linear, nv_hydrodyn_coeffs_default().pressure_linear, 0.0);
    assert_true(s.hulls[4].has_dynamics && s.hulls[4].dynamics.actuators.propeller_count == 1);
    nv_vec3 wind = nv_scenario_wind(&s);
    assert_true(wind.x == 3.0 && wind.y == 0.0 && wind.z == -4.0);

    nv_scenario_instance inst;
    ASSERT_OK(nv_scenario_instantiate(&s, NULL, &inst, &err), err);
    nv_world* w = inst.world;
    assert_int_equal(nv_world_vessel_count(w), 6);
    assert_int_equal(nv_world_type_dynamics(w, 0)->coeffs.forces, 0);
    assert_int_equal(nv_world_type_dynamics(w, 0)->actuators.propeller_count, 0);
    assert_int_equal(nv_world_type_dynamics(w, 1)->coeffs.forces, HYDRODYN_VISCOUS);
    assert_int_equal(nv_world_type_dynamics(w, 2)->actuators.propeller_count, 1);
    assert_int_equal(nv_world_type_dynamics(w, 3)->actuators.propeller_count, 2);
    assert_int_equal(nv_world_type_dynamics(w, 3)->actuators.rudder_count, 2);
    ASSERT_NEAR_ABS(nv_world_type_dynamics(w, 4)->actuators.propellers[0].max_thrust, 90000.0, 0.0);
    assert_int_equal(nv_world_hull_type(w, 4)->triangle_count < 400, 1);
    nv_world_vessel_state v;
    assert_int_equal(nv_world_vessel_get(w, 0, &v), 0);
    assert_int_equal(v.type, 3);
    ASSERT_NEAR_ABS(v.throttle, 0.5, 0.0);
    ASSERT_NEAR_ABS(v.rudder, -1.0, 0.0);
    assert_int_equal(nv_world_vessel_get(w, 1, &v), 0);
    ASSERT_NEAR_ABS(v.throttle, 0.0, 0.0);
    assert_int_equal(nv_world_vessel_get(w, 2, &v), 0);
    ASSERT_NEAR_ABS(v.throttle, 0.0, 0.0);
    ASSERT_NEAR_ABS(v.rudder, 0.25, 0.0);
    for (uint32_t id = 3; id < 6; id++) {
        assert_int_equal(nv_world_vessel_get(w, id, &v), 0);
        assert_int_equal(v.type, 2);
        ASSERT_NEAR_ABS(v.throttle, 1.0, 0.0);
        ASSERT_NEAR_ABS(v.rudder, 0.5, 0.0);
    }
    /* The commands act: after a second the patrol boat's throttle has moved
     * toward its command at the type's rate, and it has started ahead. */
    for (int i = 0; i < 60; i++) nv_world_step(w);
    assert_int_equal(nv_world_vessel_get(w, 0, &v), 0);
    ASSERT_NEAR_ABS(v.throttle_actual, 0.25, 0.02); /* patrol: 0.25 per second */
    for (int i = 0; i < 120; i++) nv_world_step(w);
    assert_int_equal(nv_world_vessel_get(w, 0, &v), 0);
    ASSERT_NEAR_ABS(v.throttle_actual, 0.5, 1e-6); /* at its command */
    assert_true(v.flags == 0 && v3_dot(quat_rotate(v.orientation, v3(1, 0, 0)), v.velocity) > 0.2);
    assert_int_equal(nv_world_vessel_get(w, 1, &v), 0);
    ASSERT_NEAR_ABS(v.throttle_actual, 0.0, 0.0);
    assert_true(v3_length(v.velocity) < 0.05); /* the bare barge has no propeller and no command */
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&s);
}

static void ocean_sets_the_wind(void** state) {
    (void)state;
    const char* text = "{\"ocean\": {\"wind\": 10, \"wind_dir\": 90, \"resolution\": 16, \"cascades\": 1}, \"vessel_types\": [\"builtin:skiff\"]}";
    nv_scenario s;
    nv_error err;
    ASSERT_OK(nv_scenario_parse(text, strlen(text), "inline", NULL, &s, &err), err);
    nv_vec3 wind = nv_scenario_wind(&s);
    ASSERT_NEAR_ABS(wind.x, 0.0, 1e-12);
    ASSERT_NEAR_ABS(wind.z, -10.0, 1e-12); /* toward -z: where a heading of 90 degrees points */
    nv_scenario_free(&s);
    text =
        "{\"ocean\": {\"beaufort\": 6, \"wind_dir\": 180, \"resolution\": 16, \"cascades\": 1}, \"vessel_types\": "
        "[\"builtin:skiff\"]}";
    ASSERT_OK(nv_scenario_parse(text, strlen(text), "inline", NULL, &s, &err), err);
    wind = nv_scenario_wind(&s);
    ASSERT_NEAR_ABS(wind.x, -nv_spectrum_beaufort_wind(6), 1e-12);
    nv_scenario_free(&s);
    text = "{\"vessel_types\": [\"builtin:skiff\"]}";
    ASSERT_OK(nv_scenario_parse(text, strlen(text), "inline", NULL, &s, &err), err);
    wind = nv_scenario_wind(&s);
    assert_true(wind.x == 0.0 && wind.y == 0.0 && wind.z == 0.0); /* still air */
    nv_scenario_free(&s);
}

static void example_scenarios_run(void** state) {
    (void)state;
    const char* files[] = {SCENARIOS "/harbour.json", SCENARIOS "/turning.json"};
    const uint32_t counts[] = {11, 1};
    for (int f = 0; f < 2; f++) {
        nv_scenario s;
        nv_error err;
        ASSERT_OK(nv_scenario_load_file(files[f], &s, &err), err);
        assert_int_equal(s.vessel_count, counts[f]);
        nv_scenario_instance inst;
        ASSERT_OK(nv_scenario_instantiate(&s, NULL, &inst, &err), err);
        for (int i = 0; i < 10; i++) nv_world_step(inst.world);
        for (uint32_t k = 0; k < nv_world_vessel_count(inst.world); k++) {
            nv_world_vessel_state v;
            assert_int_equal(nv_world_vessel_get(inst.world, nv_world_vessel_id_at(inst.world, k), &v), 0);
            assert_true(v.flags == 0 && v3_is_finite(v.position));
        }
        nv_scenario_instance_destroy(&inst);
        nv_scenario_free(&s);
    }
}

/* data/scenarios/states.json shows the page's every state within 40 s:
 * boat 0 aground on the island's beach, 1 holed but afloat, 2 sunk, 3 (a
 * top-heavy skiff) capsized by itself, 4 under way and intact. */
static uint32_t state_of_flags(nv_world* w, uint32_t id) {
    nv_world_vessel_state v;
    assert_int_equal(nv_world_vessel_get(w, id, &v), 0);
    return v.flags;
}

static void states_scenario_reaches_each_state(void** state) {
    (void)state;
    nv_scenario s;
    nv_error err;
    ASSERT_OK(nv_scenario_load_file(SCENARIOS "/states.json", &s, &err), err);
    nv_scenario_instance inst;
    ASSERT_OK(nv_scenario_instantiate(&s, NULL, &inst, &err), err);
    int breached[5] = {0}, sunk[5] = {0}, capsized[5] = {0}, grounded[5] = {0};
    uint32_t next = 0;
    for (int i = 0; i < 40 * 30; i++) {
        /* the runner's part (naval-sim, the server): the events due */
        for (; next < s.event_count && s.events[next].time <= nv_world_time(inst.world) + 1e-9; next++)
            ASSERT_OK(nv_world_breach(inst.world, s.events[next].vessel, s.events[next].point, s.events[next].area, &err),
                      err);
        nv_world_step(inst.world);
        uint32_t n;
        const nv_world_damage_event* e = nv_world_damage_events(inst.world, &n);
        for (uint32_t k = 0; k < n; k++) {
            assert_true(e[k].id < 5);
            breached[e[k].id] |= e[k].kind == WORLD_DAMAGE_BREACH;
            sunk[e[k].id] |= e[k].kind == WORLD_DAMAGE_SUNK;
            capsized[e[k].id] |= e[k].kind == WORLD_DAMAGE_CAPSIZED;
        }
        for (uint32_t id = 0; id < 5; id++) grounded[id] |= (state_of_flags(inst.world, id) & WORLD_VESSEL_GROUNDED) != 0;
    }
    assert_true(grounded[0] && !breached[0] && !capsized[0]);
    assert_true(breached[1] && !sunk[1] && !capsized[1]);
    assert_true(breached[2] && sunk[2]);
    assert_true(capsized[3] && !breached[3]);
    assert_true(!grounded[4] && !breached[4] && !capsized[4]);
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&s);
}

#define SKIFF "\"vessel_types\": [\"builtin:skiff\"]"

static unsigned slope_pixels(int i, int j) { return (unsigned)(i * 4000 + j); }
static unsigned flat_pixels(int i, int j) { return (void)i, (void)j, 1000u; }

/* A heightmap next to the scenario text, relative to its folder; the
 * builtin harbour; the contact parameters; every bad terrain named with
 * its key and file. */
static void terrain_reaches_the_world(void** state) {
    (void)state;
    char dir[] = "/tmp/naval_scn_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char png[128], png8[128], cut[128];
    snprintf(png, sizeof png, "%s/bay.png", dir);
    snprintf(png8, sizeof png8, "%s/bay8.png", dir);
    snprintf(cut, sizeof cut, "%s/cut.png", dir);
    assert_int_equal(test_write_png(png, 16, 8, 16, PNG_COLOR_TYPE_GRAY, slope_pixels), 0);
    assert_int_equal(test_write_png(png8, 16, 8, 8, PNG_COLOR_TYPE_GRAY, flat_pixels), 0);
    assert_int_equal(test_write_png(cut, 64, 64, 16, PNG_COLOR_TYPE_GRAY, slope_pixels), 0);
    assert_int_equal(truncate(cut, 80), 0);
    const char* text = "{" SKIFF
                       ", \"terrain\": {\"heightmap\": \"bay.png\", \"origin\": [-40, 10], \"cell_size\": 5,"
                       " \"min_elevation\": -20, \"max_elevation\": 45},"
                       " \"contacts\": {\"ground_friction\": 0.3, \"push_speed\": 1.5}}";
    nv_scenario s;
    nv_error err;
    ASSERT_OK(nv_scenario_parse(text, strlen(text), "bay.json", dir, &s, &err), err);
    nv_scenario_instance inst;
    ASSERT_OK(nv_scenario_instantiate(&s, NULL, &inst, &err), err);
    const nv_terrain* t = nv_world_get_terrain(inst.world);
    assert_true(t != NULL && t == inst.terrain);
    /* pixel (3, 2) at (-40 + 15, 10 + 10) */
    ASSERT_NEAR_ABS(nv_terrain_elevation(t, -25.0, 20.0), -20.0 + (3 * 4000 + 2) * 65.0 / 65535.0, 1e-4);
    nv_world_contact_params cp = nv_world_get_contacts(inst.world);
    assert_true(cp.enabled && cp.ground_friction == 0.3 && cp.push_speed == 1.5 && cp.damping_ratio == 10.0);
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&s);

    const char* harbour = "{" SKIFF ", \"terrain\": \"builtin:harbour\", \"contacts\": {\"enabled\": false}}";
    ASSERT_OK(nv_scenario_parse(harbour, strlen(harbour), "h.json", NULL, &s, &err), err);
    ASSERT_OK(nv_scenario_instantiate(&s, NULL, &inst, &err), err);
    assert_non_null(nv_world_get_terrain(inst.world));
    assert_false(nv_world_get_contacts(inst.world).enabled);
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&s);

    char bad[600];
    const char* cases[][2] = {
        {"\"heightmap\": \"nothere.png\", \"cell_size\": 5, \"min_elevation\": -20, \"max_elevation\": 45",
         "terrain.heightmap: "},
        {"\"heightmap\": \"bay8.png\", \"cell_size\": 5, \"min_elevation\": -20, \"max_elevation\": 45",
         "must be 16-bit grayscale"},
        {"\"heightmap\": \"cut.png\", \"cell_size\": 5, \"min_elevation\": -20, \"max_elevation\": 45",
         "unreadable PNG"},
        {"\"heightmap\": \"bay.png\", \"cell_size\": 5, \"min_elevation\": 45, \"max_elevation\": -20",
         "bad.json: terrain: terrain: max_elevation (-20) must be above min_elevation (45)"},
        {"\"heightmap\": \"bay.png\", \"cell_size\": 0, \"min_elevation\": -20, \"max_elevation\": 45",
         "terrain.cell_size: must be"},
        {"\"heightmap\": \"bay.png\", \"min_elevation\": -20, \"max_elevation\": 45", "terrain.cell_size: missing"},
        {"\"heightmap\": \"bay.png\", \"cell_size\": 5, \"min_elevation\": -20, \"max_elevation\": 45, \"tide\": 1",
         "terrain.tide: unknown key"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        snprintf(bad, sizeof bad, "{" SKIFF ", \"terrain\": {%s}}", cases[k][0]);
        if (nv_scenario_parse(bad, strlen(bad), "bad.json", dir, &s, &err) == 0) fail_msg("accepted: %s", bad);
        if (!strstr(err.message, cases[k][1])) fail_msg("message '%s' lacks '%s'", err.message, cases[k][1]);
        /* the file is named where a file is at fault */
        if (k < 3 && !strstr(err.message, dir)) fail_msg("message '%s' does not name the file", err.message);
    }
    /* structures: a mesh file next to the scenario and a box reach the
     * world; an open mesh, neither or both of mesh and box are refused */
    char obj[128], open_obj[128];
    snprintf(obj, sizeof obj, "%s/pier.obj", dir);
    snprintf(open_obj, sizeof open_obj, "%s/open.obj", dir);
    FILE* f = fopen(obj, "w");
    assert_non_null(f);
    fputs("v 0 0 0\nv 10 0 0\nv 0 10 0\nv 0 0 10\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n", f);
    fclose(f);
    f = fopen(open_obj, "w");
    assert_non_null(f);
    fputs("v 0 0 0\nv 10 0 0\nv 0 10 0\nv 0 0 10\nf 1 3 2\nf 1 2 4\nf 1 4 3\n", f);
    fclose(f);
    const char* built = "{" SKIFF
                        ", \"structures\": [{\"mesh\": \"pier.obj\", \"position\": [5, -2, 7], \"heading_deg\": 90},"
                        " {\"box\": [20, 6, 4], \"position\": [100, -3, 0]}]}";
    ASSERT_OK(nv_scenario_parse(built, strlen(built), "s.json", dir, &s, &err), err);
    assert_int_equal(s.structure_count, 2);
    ASSERT_OK(nv_scenario_instantiate(&s, NULL, &inst, &err), err);
    assert_int_equal(nv_world_structure_count(inst.world), 2);
    assert_true(nv_world_structure_fingerprint(inst.world, 0) != nv_world_structure_fingerprint(inst.world, 1));
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&s);
    snprintf(bad, sizeof bad, "{" SKIFF ", \"structures\": [{\"mesh\": \"open.obj\", \"position\": [0, 0, 0]}]}");
    if (nv_scenario_parse(bad, strlen(bad), "bad.json", dir, &s, &err) == 0) fail_msg("accepted an open mesh");
    if (!strstr(err.message, "structures[0].mesh") || !strstr(err.message, "open.obj"))
        fail_msg("message '%s' does not name the key and the file", err.message);
    expect_rejection("{" SKIFF ", \"structures\": [{\"position\": [0, 0, 0]}]}",
                     "structures[0]: give \"mesh\" or \"box\"");
    expect_rejection("{" SKIFF ", \"structures\": [{\"box\": [1, 1, 1]}]}", "structures[0].position: missing");
    expect_rejection("{" SKIFF ", \"structures\": [{\"box\": [1, 0, 1], \"position\": [0, 0, 0]}]}",
                     "structures[0].box[1]: must be");
    expect_rejection("{" SKIFF ", \"structures\": {\"box\": [1, 1, 1]}}", "structures: expected an array");
    unlink(obj);
    unlink(open_obj);
    expect_rejection("{" SKIFF ", \"terrain\": \"harbour\"}", "terrain: expected \"builtin:NAME\" or a heightmap");
    expect_rejection("{" SKIFF ", \"terrain\": \"builtin:atoll\"}", "no built-in terrain 'atoll'");
    expect_rejection("{" SKIFF ", \"contacts\": {\"ground_friction\": -1}}", "contacts.ground_friction: must be in");
    expect_rejection("{" SKIFF ", \"contacts\": {\"stiff\": 1}}", "contacts.stiff: unknown key");
    unlink(png);
    unlink(png8);
    unlink(cut);
    rmdir(dir);
}

static void vessel_type_mistakes_are_named(void** state) {
    (void)state;
    expect_rejection("{\"vessel_types\": [\"builtin:dinghy\"]}", "bad.json: vessel_types[0]: unknown built-in vessel type 'dinghy'");
    expect_rejection("{\"vessel_types\": [\"builtin:skiff\", \"none.json\"]}", "vessel_types[1]: none.json: cannot open");
    expect_rejection("{\"vessel_types\": [5]}", "vessel_types[0]: expected \"builtin:NAME\", a vessel-type file or a vessel-type object (got a number)");
    expect_rejection("{\"vessel_types\": [\"\"]}", "vessel_types[0]: expected \"builtin:NAME\"");
    expect_rejection("{\"vessel_types\": {}}", "bad.json: vessel_types: expected an array (got an object)");
    expect_rejection("{\"vessel_types\": []}", "hull_types: expected a non-empty array of hull types, or vessel_types");
    expect_rejection("{\"vessel_types\": [{\"name\": \"x\", \"hull\": \"builtin:skiff\","
                     " \"propellers\": [{\"position\": [0, 0, 0], \"max_thrust\": -5}]}]}",
                     "bad.json: vessel_types[0].propellers[0].max_thrust: must be in (0, 1e+08] N (got -5)");
    expect_rejection("{\"vessel_types\": [{\"name\": \"x\", \"hull\": \"builtin:skiff\", \"coefficients\": {\"drag\": 1}}]}",
                     "vessel_types[0].coefficients.drag: unknown key");
    expect_rejection("{\"hull_types\": [{\"name\": \"skiff\", \"hull\": \"builtin:barge\"}], " SKIFF "}",
                     "vessel_types[0]: name 'skiff' is used twice");
    expect_rejection("{\"hull_types\": [{\"name\": \"b\", \"hull\": \"builtin:barge\", \"rudders\": []}]}",
                     "hull_types[0].rudders: unknown key");
    expect_rejection("{\"hull_types\": [{\"name\": \"b\", \"hull\": \"builtin:barge\", \"coefficients\": {\"slam_power\": 0}}]}",
                     "hull_types[0].coefficients.slam_power: must be in [1, 10] (got 0)");
    expect_rejection("{" SKIFF ", \"vessels\": [{\"type\": \"skiff\", \"position\": [0, 0], \"controls\": {\"throttle\": 2}}]}",
                     "vessels[0].controls.throttle: must be in [-1, 1] (got 2)");
    expect_rejection("{" SKIFF ", \"vessels\": [{\"type\": \"skiff\", \"position\": [0, 0], \"controls\": {\"helm\": 1}}]}",
                     "vessels[0].controls.helm: unknown key");
    expect_rejection("{" SKIFF ", \"vessels\": [{\"type\": \"skiff\", \"position\": [0, 0], \"controls\": [1, 0]}]}",
                     "vessels[0].controls: expected an object (got an array)");
    expect_rejection("{" SKIFF ", \"fleets\": [{\"type\": \"skiff\", \"count\": 2, \"controls\": {\"rudder\": \"hard\"}}]}",
                     "fleets[0].controls.rudder: expected a number (got a string)");
    expect_rejection("{" SKIFF ", \"wind\": [1, 2]}", "bad.json: wind: expected an array of 3 numbers (got 2 elements)");
    expect_rejection("{" SKIFF ", \"wind\": [1, 2, 300]}", "bad.json: wind: its length must be in [0, 60] m/s (got 300.008)");
    expect_rejection("{" SKIFF ", \"ocean\": {\"wind\": 5}, \"wind\": [1, 0, 0]}", "bad.json: wind: the ocean sets the wind");
}

typedef struct overlap_lines {
    int count;
    char first[320];
} overlap_lines;

static void collect_overlap(void* ctx, const char* message) {
    overlap_lines* l = ctx;
    if (l->count++ == 0) snprintf(l->first, sizeof l->first, "%s", message);
}

/* Two freighters 10 m apart overlap: one warning naming both and the
 * distance. Two side by side 25 m apart (19 m beams: their bounding
 * spheres overlap, their hulls do not) and one far off are not named. */
static void overlapping_vessels_are_warned(void** state) {
    (void)state;
    static const char json[] = "{\"vessel_types\": [\"builtin:freighter\"], \"vessels\": ["
                               "{\"type\": \"freighter\", \"position\": [0, 0]},"
                               "{\"type\": \"freighter\", \"position\": [10, 0]},"
                               "{\"type\": \"freighter\", \"position\": [0, 300]},"
                               "{\"type\": \"freighter\", \"position\": [0, 325]}]}";
    nv_scenario s;
    nv_scenario_instance inst;
    nv_error err;
    ASSERT_OK(nv_scenario_parse(json, sizeof json - 1, "two.json", NULL, &s, &err), err);
    ASSERT_OK(nv_scenario_instantiate(&s, NULL, &inst, &err), err);
    overlap_lines lines = {0};
    assert_int_equal(nv_scenario_check_overlaps(&s, &inst, collect_overlap, &lines), 1);
    assert_int_equal(lines.count, 1);
    if (!strstr(lines.first, "vessels[0] (freighter) and vessels[1] (freighter) overlap at the start: centres 10 m apart"))
        fail_msg("got '%s'", lines.first);
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_file_builds_its_world),  cmocka_unit_test(ocean_section_reaches_the_ocean),
        cmocka_unit_test(mistakes_are_named),           cmocka_unit_test(missing_mesh_fails_at_instantiation),
        cmocka_unit_test(vessel_types_reach_the_world), cmocka_unit_test(ocean_sets_the_wind),
        cmocka_unit_test(example_scenarios_run),
        cmocka_unit_test(states_scenario_reaches_each_state),        cmocka_unit_test(vessel_type_mistakes_are_named),
        cmocka_unit_test(terrain_reaches_the_world),      cmocka_unit_test(overlapping_vessels_are_warned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
