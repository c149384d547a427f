/* Scenario files: what they describe reaches the world, and every mistake is
 * named by its key path. */
#include <math.h>

#include "scenario.h"
#include "statics.h"
#include "test_util.h"

static void small_file_builds_its_world(void** state) {
    (void)state;
    scenario s;
    nv_error err;
    ASSERT_OK(scenario_load_file(NAVAL_TEST_DATA "/scenario_small.json", &s, &err), err);
    assert_int_equal(s.hull_count, 2);
    assert_int_equal(s.vessel_count, 7);
    assert_false(s.has_ocean);
    ASSERT_NEAR_ABS(s.world.tick_hz, 30.0, 0.0);
    ASSERT_NEAR_ABS(s.world.water_density, 1000.0, 0.0);
    assert_true(s.hulls[0].mesh.up == 'z');
    assert_non_null(strstr(s.hulls[0].source, "/bourg_cube.off")); /* resolved against the file's folder */

    scenario_instance inst;
    ASSERT_OK(scenario_instantiate(&s, NULL, &inst, &err), err);
    assert_int_equal(world_vessel_count(inst.world), 7);
    /* The afloat barge sits at the height where it floats upright. */
    double y;
    ASSERT_OK(statics_balance_height_of(world_hull_type(inst.world, 1), 1000.0, 9.81, quat_identity(), &y, &err), err);
    world_vessel_state v;
    assert_int_equal(world_vessel_get(inst.world, 0, &v), 0);
    ASSERT_NEAR_ABS(v.position.x, 10.0, 0.0);
    ASSERT_NEAR_ABS(v.position.y, y, 0.0);
    ASSERT_NEAR_ABS(v.position.z, -20.0, 0.0);
    ASSERT_NEAR_ABS(y, 1.0 - 40000.0 / (1000.0 * 10 * 4), 1e-6); /* CG 1 m above the keel, analytic draft */
    /* Heading 90 degrees turns the bow (+x) to -z. */
    vec3 bow = quat_rotate(v.orientation, v3(1, 0, 0));
    ASSERT_NEAR_ABS(bow.z, -1.0, 1e-12);
    assert_int_equal(world_vessel_get(inst.world, 1, &v), 0);
    ASSERT_NEAR_ABS(v.position.y, 5.0, 0.0); /* given explicitly */
    /* The fleet: five barges 30 m apart around (100, 100), moving at 3 m/s. */
    for (uint32_t id = 2; id < 7; id++) {
        assert_int_equal(world_vessel_get(inst.world, id, &v), 0);
        ASSERT_NEAR_REL(v3_length(v.velocity), 3.0, 1e-12);
        vec3 fwd = quat_rotate(v.orientation, v3(1, 0, 0));
        ASSERT_NEAR_REL(v3_dot(fwd, v.velocity), 3.0, 1e-9); /* moving bow first */
        assert_true(fabs(v.position.x - 100.0) <= 30.0 && fabs(v.position.z - 100.0) <= 30.0);
    }
    for (int i = 0; i < 60; i++) world_step(inst.world);
    assert_int_equal(world_vessel_get(inst.world, 6, &v), 0);
    assert_true(v3_is_finite(v.position) && v.flags == 0);
    scenario_instance_destroy(&inst);
    scenario_free(&s);
}

static void ocean_section_reaches_the_ocean(void** state) {
    (void)state;
    const char* text =
        "{\"ocean\": {\"spectrum\": \"pm\", \"wind\": 9, \"resolution\": 32, \"size\": 200, \"cascades\": 1, \"seed\": 5},"
        " \"hull_types\": [{\"name\": \"b\", \"hull\": \"builtin:barge\"}],"
        " \"vessels\": [{\"type\": \"b\", \"position\": [0, 0]}]}";
    scenario s;
    nv_error err;
    ASSERT_OK(scenario_parse(text, strlen(text), "inline", NULL, &s, &err), err);
    assert_true(s.has_ocean);
    assert_int_equal(s.ocean.spectrum, SPECTRUM_PIERSON_MOSKOWITZ);
    assert_int_equal(s.ocean.resolution, 32);
    assert_int_equal(s.ocean.seed, 5);
    scenario_instance inst;
    ASSERT_OK(scenario_instantiate(&s, NULL, &inst, &err), err);
    assert_non_null(inst.ocean);
    for (int i = 0; i < 30; i++) world_step(inst.world);
    world_vessel_state v;
    assert_int_equal(world_vessel_get(inst.world, 0, &v), 0);
    assert_true(v.flags == 0 && fabs(v.position.y) < 5.0); /* riding the waves */
    scenario_instance_destroy(&inst);
    scenario_free(&s);
}

static void expect_rejection(const char* text, const char* want) {
    scenario s;
    nv_error err;
    if (scenario_parse(text, strlen(text), "bad.json", NULL, &s, &err) == 0) fail_msg("accepted: %s", text);
    if (!strstr(err.message, want)) fail_msg("message '%s' lacks '%s'", err.message, want);
}

#define HULLS "\"hull_types\": [{\"name\": \"b\", \"hull\": \"builtin:barge\"}]"

static void mistakes_are_named(void** state) {
    (void)state;
    expect_rejection("{\"tick_hz\": 60,\n \"hull_types\": [}", "bad.json: line 2, column");
    expect_rejection("{\"tick_hz\": 60}", "hull_types: expected a non-empty array");
    expect_rejection("{\"tick_hz\": 0, " HULLS "}", "tick_hz: 0 is out of range");
    expect_rejection("{\"speed\": 3, " HULLS "}", "bad.json: speed: unknown key");
    expect_rejection("{" HULLS ", \"vessels\": [{\"type\": \"b\", \"position\": [0, 0]}, {\"type\": \"b\", \"position\": [1]}]}",
                     "vessels[1].position: expected an array of 2 to 3 numbers");
    expect_rejection("{" HULLS ", \"vessels\": [{\"type\": \"c\", \"position\": [0, 0]}]}",
                     "vessels[0]: type 'c' is not among hull_types");
    expect_rejection("{" HULLS ", \"vessels\": [{\"type\": \"b\", \"position\": [0, 0], \"throttle\": 1}]}",
                     "vessels[0].throttle: unknown key");
    expect_rejection("{\"hull_types\": [{\"name\": \"b\"}]}", "hull_types[0].hull: missing");
    expect_rejection("{\"hull_types\": [{\"name\": \"b\", \"hull\": \"x.stl\", \"mass\": -1}]}", "hull_types[0].mass");
    expect_rejection("{\"hull_types\": [{\"name\": \"b\", \"hull\": \"x.stl\"}, {\"name\": \"b\", \"hull\": \"y.stl\"}]}",
                     "hull_types[1]: name 'b' is used twice");
    expect_rejection("{\"ocean\": {\"spectrum\": \"calm\"}, " HULLS "}", "ocean.spectrum: 'calm' is not one of");
    expect_rejection("{\"ocean\": {\"resolution\": 100}, " HULLS "}", "ocean: ");
    expect_rejection("{\"ocean\": {\"wind\": \"strong\"}, " HULLS "}", "ocean.wind: expected a number");
    expect_rejection("{" HULLS ", \"fleets\": [{\"type\": \"b\", \"count\": 2.5}]}", "fleets[0].count: expected a whole number");
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
    scenario s;
    nv_error err;
    ASSERT_OK(scenario_parse(text, strlen(text), "inline", NULL, &s, &err), err);
    scenario_instance inst;
    assert_int_equal(scenario_instantiate(&s, NULL, &inst, &err), -1);
    assert_non_null(strstr(err.message, "hull type 'ghost'"));
    assert_non_null(strstr(err.message, "cannot open"));
    scenario_free(&s);
    assert_int_equal(scenario_load_file("/no/such/scenario.json", &s, &err), -1);
    assert_non_null(strstr(err.message, "cannot open"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_file_builds_its_world),
        cmocka_unit_test(ocean_section_reaches_the_ocean),
        cmocka_unit_test(mistakes_are_named),
        cmocka_unit_test(missing_mesh_fails_at_instantiation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
