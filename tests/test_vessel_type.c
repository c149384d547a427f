// SPDX-License-Identifier: MIT
/* Vessel types: the built-ins equal their example files, every key reaches
 * its field, every mistake is named by its key path, and the built-in
 * boats float at a sensible draft with positive stability. */
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "naval/statics.h"
#include "naval/vessel_type.h"
#include "test_util.h"

#define VESSEL_DATA NAVAL_TEST_DATA "/../../data/vessels"

/* Exact equality, named: the files must reproduce the built-ins bit for bit. */
#define EXPECT_SAME(field)                                                                           \
    do {                                                                                             \
        if (!((a)->field == (b)->field))                                                             \
            fail_msg("%s: %s differs: %.17g vs %.17g", (a)->name, #field, (double)(a)->field,        \
                     (double)(b)->field);                                                            \
    } while (0)
#define EXPECT_SAME3(field) \
    do {                    \
        EXPECT_SAME(field.x); \
        EXPECT_SAME(field.y); \
        EXPECT_SAME(field.z); \
    } while (0)

static void expect_same_type(const nv_vessel_type* a, const nv_vessel_type* b) {
    assert_string_equal(a->name, b->name);
    assert_string_equal(a->hull, b->hull);
    EXPECT_SAME(mesh.up);
    EXPECT_SAME(mesh.flip_inside_out);
    EXPECT_SAME(mesh.max_triangles);
    EXPECT_SAME(mass.mass);
    EXPECT_SAME(mass.density);
    EXPECT_SAME(mass.has_cg);
    EXPECT_SAME3(mass.cg);
    EXPECT_SAME(compartments.bulkhead_count);
    EXPECT_SAME(compartments.longitudinal_count);
    for (uint32_t i = 0; i < a->compartments.bulkhead_count; i++) EXPECT_SAME(compartments.bulkheads[i]);
    EXPECT_SAME(compartments.damage.pump_rate);
    EXPECT_SAME(compartments.damage.breach_speed);
    EXPECT_SAME(compartments.damage.breach_area);
    EXPECT_SAME(compartments.damage.plating);
    EXPECT_SAME(compartments.damage.breach_energy);
    EXPECT_SAME(rated_beaufort);
    EXPECT_SAME(dynamics.coeffs.bilge_keel[0]);
    EXPECT_SAME(dynamics.coeffs.bilge_keel[1]);
    EXPECT_SAME(dynamics.coeffs.roll_damping[0]);
    EXPECT_SAME(dynamics.coeffs.roll_damping[1]);
    EXPECT_SAME(dynamics.coeffs.planing[0]);
    EXPECT_SAME(dynamics.coeffs.planing[1]);
    EXPECT_SAME(dynamics.coeffs.planing[2]);
    EXPECT_SAME(mass.has_gyration);
    EXPECT_SAME3(mass.gyration);
    EXPECT_SAME(dynamics.coeffs.forces);
    EXPECT_SAME(dynamics.coeffs.water_density);
    EXPECT_SAME(dynamics.coeffs.viscosity);
    EXPECT_SAME(dynamics.coeffs.reynolds_min);
    EXPECT_SAME(dynamics.coeffs.reference_length);
    EXPECT_SAME(dynamics.coeffs.residual);
    EXPECT_SAME(dynamics.coeffs.pressure_linear);
    EXPECT_SAME(dynamics.coeffs.pressure_quadratic);
    EXPECT_SAME(dynamics.coeffs.pressure_falloff);
    EXPECT_SAME(dynamics.coeffs.suction_linear);
    EXPECT_SAME(dynamics.coeffs.suction_quadratic);
    EXPECT_SAME(dynamics.coeffs.suction_falloff);
    EXPECT_SAME(dynamics.coeffs.reference_speed);
    EXPECT_SAME(dynamics.coeffs.slam_power);
    EXPECT_SAME(dynamics.coeffs.slam_gamma_max);
    EXPECT_SAME(dynamics.coeffs.air_density);
    EXPECT_SAME(dynamics.coeffs.air_drag);
    EXPECT_SAME(dynamics.coeffs.damping_linear[0]);
    EXPECT_SAME(dynamics.coeffs.damping_linear[1]);
    EXPECT_SAME(dynamics.coeffs.damping_angular[0]);
    EXPECT_SAME(dynamics.coeffs.damping_angular[1]);
    EXPECT_SAME3(dynamics.coeffs.added_mass);
    EXPECT_SAME3(dynamics.coeffs.added_inertia);
    EXPECT_SAME(dynamics.actuators.propeller_count);
    EXPECT_SAME(dynamics.actuators.rudder_count);
    EXPECT_SAME(dynamics.actuators.throttle_rate);
    EXPECT_SAME(dynamics.actuators.rudder_rate);
    for (uint32_t i = 0; i < a->dynamics.actuators.propeller_count; i++) {
        EXPECT_SAME3(dynamics.actuators.propellers[i].position);
        EXPECT_SAME3(dynamics.actuators.propellers[i].direction);
        EXPECT_SAME(dynamics.actuators.propellers[i].max_thrust);
        EXPECT_SAME(dynamics.actuators.propellers[i].reverse_fraction);
        EXPECT_SAME(dynamics.actuators.propellers[i].immersion);
        EXPECT_SAME(dynamics.actuators.propellers[i].steering_deg);
        EXPECT_SAME(dynamics.actuators.propellers[i].diameter);
    }
    for (uint32_t i = 0; i < a->dynamics.actuators.rudder_count; i++) {
        EXPECT_SAME3(dynamics.actuators.rudders[i].position);
        EXPECT_SAME(dynamics.actuators.rudders[i].area);
        EXPECT_SAME(dynamics.actuators.rudders[i].max_angle_deg);
        EXPECT_SAME(dynamics.actuators.rudders[i].lift_slope);
        EXPECT_SAME(dynamics.actuators.rudders[i].stall_angle_deg);
        EXPECT_SAME(dynamics.actuators.rudders[i].drag_coefficient);
    }
}

static void builtins_equal_their_files(void** state) {
    (void)state;
    nv_error err;
    assert_int_equal(nv_vessel_type_builtin_count(), 3);
    assert_null(nv_vessel_type_builtin_name(3));
    for (int i = 0; i < nv_vessel_type_builtin_count(); i++) {
        const char* name = nv_vessel_type_builtin_name(i);
        char path[512];
        snprintf(path, sizeof path, "%s/%s.json", VESSEL_DATA, name);
        nv_vessel_type built, file, spec;
        ASSERT_OK(nv_vessel_type_builtin(name, &built, &err), err);
        ASSERT_OK(nv_vessel_type_load_file(path, &file, &err), err);
        expect_same_type(&built, &file);
        char builtin_spec[64];
        snprintf(builtin_spec, sizeof builtin_spec, "builtin:%s", name);
        ASSERT_OK(nv_vessel_type_from_spec(builtin_spec, &spec, &err), err);
        expect_same_type(&built, &spec);
        ASSERT_OK(nv_vessel_type_from_spec(path, &spec, &err), err);
        expect_same_type(&built, &spec);
        nv_mesh m;
        ASSERT_OK(nv_vessel_type_load_mesh(&built, &m, &err), err);
        assert_true(m.triangle_count >= 250 && m.triangle_count <= 900);
        nv_mesh_free(&m);
    }
    nv_vessel_type t;
    assert_int_equal(nv_vessel_type_builtin("dinghy", &t, &err), -1);
    assert_non_null(strstr(err.message, "unknown built-in vessel type 'dinghy'"));
    assert_non_null(strstr(err.message, "skiff, patrol, freighter"));
    assert_int_equal(nv_vessel_type_from_spec("builtin:dinghy", &t, &err), -1);
    assert_int_equal(nv_vessel_type_from_spec("/no/such/type.json", &t, &err), -1);
    assert_non_null(strstr(err.message, "/no/such/type.json: cannot open"));
}

static void parse_ok(const char* text, const char* base_dir, nv_vessel_type* t) {
    nv_error err;
    if (nv_vessel_type_parse(text, strlen(text), "t.json", base_dir, t, &err))
        fail_msg("rejected: %s\n%s", err.message, text);
}

static void every_key_reaches_its_field(void** state) {
    (void)state;
    nv_vessel_type t;
    parse_ok("{\"name\": \"minimal\", \"hull\": \"builtin:barge\"}", NULL, &t);
    /* Absent keys keep the documented defaults. */
    nv_hydrodyn_coeffs d = nv_hydrodyn_coeffs_default();
    assert_int_equal(t.dynamics.coeffs.forces, d.forces);
    assert_int_equal(t.dynamics.actuators.propeller_count, 0);
    assert_true(t.mass.density == nv_mass_spec_default().density && t.mass.mass == 0.0 && !t.mass.has_cg);
    parse_ok(
        "{\"name\": \"k.1-x_2\", \"hull\": \"hull.obj\", \"up\": \"z\", \"flip\": true, \"density\": 321,"
        " \"cg\": [1, 2, 3], \"gyration\": [4, 5, 6],"
        " \"coefficients\": {\"forces\": [\"viscous\", \"area_damping\"], \"viscosity\": 1e-6,"
        "  \"reynolds_min\": 2e5, \"reference_length\": 7, \"pressure_linear\": 11, \"pressure_quadratic\": 12,"
        "  \"pressure_falloff\": 0.3, \"suction_linear\": 13, \"suction_quadratic\": 14, \"suction_falloff\": 0.4,"
        "  \"reference_speed\": 2, \"slam_power\": 3, \"slam_gamma_max\": 500, \"air_density\": 1.3, \"air_drag\": 0.9,"
        "  \"damping_linear\": [0.1, 0.2], \"damping_angular\": [0.3, 0.4], \"added_mass\": [0.5, 0.6, 0.7],"
        "  \"added_inertia\": [0.8, 0.9, 1.0]},"
        " \"propellers\": [{\"position\": [-1, 0.2, 0.5], \"direction\": [1, 0, 0.1], \"max_thrust\": 900,"
        "  \"reverse\": 0.25, \"immersion\": 0.2}],"
        " \"rudders\": [{\"position\": [-1.2, 0.3, 0], \"area\": 0.4, \"max_angle\": 40, \"lift_slope\": 4,"
        "  \"stall_angle\": 20, \"drag\": 0.05}, {\"position\": [-1.2, 0.3, 1], \"area\": 0.3}],"
        " \"controls\": {\"throttle_rate\": 0.7, \"rudder_rate\": 2}}",
        "/ships", &t);
    assert_string_equal(t.name, "k.1-x_2");
    assert_string_equal(t.hull, "/ships/hull.obj");
    assert_true(t.mesh.up == 'z' && t.mesh.flip_inside_out);
    assert_true(t.mass.density == 321.0 && t.mass.has_cg && t.mass.cg.z == 3.0 && t.mass.gyration.y == 5.0);
    const nv_hydrodyn_coeffs* c = &t.dynamics.coeffs;
    assert_int_equal(c->forces, HYDRODYN_VISCOUS | HYDRODYN_AREA_DAMPING);
    assert_true(c->viscosity == 1e-6 && c->reynolds_min == 2e5 && c->reference_length == 7.0);
    assert_true(c->pressure_linear == 11 && c->pressure_quadratic == 12 && c->pressure_falloff == 0.3);
    assert_true(c->suction_linear == 13 && c->suction_quadratic == 14 && c->suction_falloff == 0.4);
    assert_true(c->reference_speed == 2 && c->slam_power == 3 && c->slam_gamma_max == 500);
    assert_true(c->air_density == 1.3 && c->air_drag == 0.9);
    assert_true(c->damping_linear[0] == 0.1 && c->damping_linear[1] == 0.2);
    assert_true(c->damping_angular[0] == 0.3 && c->damping_angular[1] == 0.4);
    assert_true(c->added_mass.x == 0.5 && c->added_mass.y == 0.6 && c->added_mass.z == 0.7);
    assert_true(c->added_inertia.x == 0.8 && c->added_inertia.y == 0.9 && c->added_inertia.z == 1.0);
    const nv_actuator_set* a = &t.dynamics.actuators;
    assert_int_equal(a->propeller_count, 1);
    assert_true(a->propellers[0].position.x == -1 && a->propellers[0].direction.z == 0.1);
    assert_true(a->propellers[0].max_thrust == 900 && a->propellers[0].reverse_fraction == 0.25 &&
                a->propellers[0].immersion == 0.2);
    assert_int_equal(a->rudder_count, 2);
    assert_true(a->rudders[0].area == 0.4 && a->rudders[0].max_angle_deg == 40 && a->rudders[0].lift_slope == 4 &&
                a->rudders[0].stall_angle_deg == 20 && a->rudders[0].drag_coefficient == 0.05);
    /* The second rudder gives only what it must: the rest are defaults. */
    assert_true(a->rudders[1].area == 0.3 && a->rudders[1].max_angle_deg == 35 && a->rudders[1].stall_angle_deg == 25);
    assert_true(a->throttle_rate == 0.7 && a->rudder_rate == 2);
    parse_ok("{\"name\": \"a\", \"hull\": \"builtin:ship\", \"coefficients\": {\"forces\": \"all\"}}", NULL, &t);
    assert_int_equal(t.dynamics.coeffs.forces, HYDRODYN_ALL);
    parse_ok("{\"name\": \"a\", \"hull\": \"builtin:ship\", \"coefficients\": {\"forces\": \"none\"}}", NULL, &t);
    assert_int_equal(t.dynamics.coeffs.forces, 0);
    parse_ok("{\"name\": \"a\", \"hull\": \"/abs/hull.stl\", \"mass\": 5}", "/ships", &t);
    assert_string_equal(t.hull, "/abs/hull.stl");
    assert_true(t.mass.mass == 5.0);
}

static void expect_rejection(const char* text, const char* want) {
    nv_vessel_type t;
    nv_error err;
    if (nv_vessel_type_parse(text, strlen(text), "patrol.json", NULL, &t, &err) == 0) fail_msg("accepted: %s", text);
    if (!strstr(err.message, want)) fail_msg("message '%s' lacks '%s'", err.message, want);
}

#define HEAD "{\"name\": \"p\", \"hull\": \"builtin:patrol\", "
#define PROP(extra) "\"propellers\": [{\"position\": [-11, 0.3, 0], \"max_thrust\": 1000" extra "}]"
#define RUDDER(extra) "\"rudders\": [{\"position\": [-11, 0.3, 0], \"area\": 0.5" extra "}]"

static void mistakes_are_named(void** state) {
    (void)state;
    /* Syntax, missing keys. */
    expect_rejection("{\"name\": \"p\",\n \"hull\": }", "patrol.json: line 2, column");
    expect_rejection("[1, 2]", "patrol.json: expected an object (got an array)");
    expect_rejection("{\"hull\": \"builtin:patrol\"}", "patrol.json: name: missing");
    expect_rejection("{\"name\": \"p\"}", "patrol.json: hull: missing");
    expect_rejection(HEAD "\"propellers\": [{\"max_thrust\": 5}]}", "propellers[0].position: missing");
    expect_rejection(HEAD "\"propellers\": [{\"position\": [0, 0, 0]}]}", "propellers[0].max_thrust: missing");
    expect_rejection(HEAD "\"rudders\": [{\"position\": [0, 0, 0]}]}", "rudders[0].area: missing");
    /* Unknown and repeated keys, at every level. */
    expect_rejection(HEAD "\"speed\": 3}", "patrol.json: speed: unknown key");
    expect_rejection(HEAD "\"coefficients\": {\"visocsity\": 1e-6}}", "coefficients.visocsity: unknown key");
    expect_rejection(HEAD "\"coefficients\": {\"water_density\": 1000}}", "coefficients.water_density: unknown key");
    expect_rejection(HEAD PROP(", \"pitch\": 1") "}", "propellers[0].pitch: unknown key");
    expect_rejection(HEAD "\"rudders\": [{\"position\": [0, 0, 0], \"area\": 1}, {\"position\": [0, 0, 0], \"area\": 1, "
                          "\"angle\": 3}]}",
                     "rudders[1].angle: unknown key");
    expect_rejection(HEAD "\"controls\": {\"throttle\": 1}}", "controls.throttle: unknown key");
    expect_rejection(HEAD "\"mass\": 5, \"mass\": 6}", "patrol.json: mass: given twice");
    /* Out of range. */
    expect_rejection(HEAD PROP("") ", \"propellers\": []}", "propellers: given twice");
    expect_rejection(HEAD "\"propellers\": [{\"position\": [-11, 0.3, 0], \"max_thrust\": -5}]}",
                     "patrol.json: propellers[0].max_thrust: must be in (0, 1e+08] N (got -5)");
    expect_rejection(HEAD PROP(", \"reverse\": 1.5") "}", "propellers[0].reverse: must be in [0, 1] (got 1.5)");
    expect_rejection(HEAD PROP(", \"direction\": [0, 0, 0]") "}", "propellers[0].direction: must not be the zero vector");
    expect_rejection(HEAD RUDDER(", \"max_angle\": 95") "}", "rudders[0].max_angle: must be in (0, 90] degrees (got 95)");
    expect_rejection(HEAD RUDDER(", \"stall_angle\": 0") "}", "rudders[0].stall_angle: must be in (0, 90] degrees (got 0)");
    expect_rejection(HEAD "\"rudders\": [{\"position\": [-11, 0.3, 0], \"area\": 0}]}", "rudders[0].area: must be in (0");
    expect_rejection(HEAD "\"mass\": 0}", "patrol.json: mass: must be in (0, 1e+09] kg (got 0)");
    expect_rejection(HEAD "\"mass\": 5, \"density\": 3}", "patrol.json: give mass or density, not both");
    expect_rejection(HEAD "\"gyration\": [1, -2, 3]}", "gyration[1]: must be in [0.01, 1000] m (got -2)");
    expect_rejection(HEAD "\"cg\": [1, 2e6, 3]}", "cg[1]: must be in [-10000, 10000] m");
    expect_rejection(HEAD "\"coefficients\": {\"pressure_falloff\": 0}}", "coefficients.pressure_falloff: must be in [0.01, 1]");
    expect_rejection(HEAD "\"coefficients\": {\"slam_power\": 0.5}}", "coefficients.slam_power: must be in [1, 10] (got 0.5)");
    expect_rejection(HEAD "\"coefficients\": {\"added_mass\": [0, -1, 0]}}", "coefficients.added_mass[1]: must be in [0, 10]");
    expect_rejection(HEAD "\"controls\": {\"rudder_rate\": 0}}", "controls.rudder_rate: must be in (0, 1000] 1/s (got 0)");
    expect_rejection(HEAD "\"rudders\": [" "{\"position\": [0, 0, 0], \"area\": 1}, {\"position\": [0, 0, 0], \"area\": 1},"
                          "{\"position\": [0, 0, 0], \"area\": 1}, {\"position\": [0, 0, 0], \"area\": 1},"
                          "{\"position\": [0, 0, 0], \"area\": 1}]}",
                     "patrol.json: rudders: at most 4 (got 5)");
    expect_rejection("{\"name\": \"my boat\", \"hull\": \"builtin:patrol\"}", "name: 'my boat' may hold only");
    expect_rejection("{\"name\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", \"hull\": \"x.stl\"}",
                     "name: longer than 47 characters");
    /* Wrong types and non-finite numbers. */
    expect_rejection(HEAD "\"mass\": \"heavy\"}", "patrol.json: mass: expected a number (got a string)");
    expect_rejection(HEAD "\"mass\": 1e999}", "mass: must be in (0, 1e+09] kg (got inf)");
    expect_rejection(HEAD "\"cg\": [0, \"a\", 0]}", "cg[1]: expected a number (got a string)");
    expect_rejection(HEAD "\"cg\": [0, 0]}", "cg: expected an array of 3 numbers (got 2 elements)");
    expect_rejection(HEAD "\"flip\": 1}", "flip: expected true or false (got a number)");
    expect_rejection(HEAD "\"up\": \"x\"}", "up: must be \"y\" or \"z\" (got \"x\")");
    expect_rejection("{\"name\": 7, \"hull\": \"builtin:patrol\"}", "name: expected a non-empty string (got a number)");
    expect_rejection(HEAD "\"propellers\": {}}", "propellers: expected an array (got an object)");
    expect_rejection(HEAD "\"propellers\": [5]}", "propellers[0]: expected an object (got a number)");
    expect_rejection(HEAD "\"coefficients\": []}", "coefficients: expected an object (got an array)");
    expect_rejection(HEAD "\"coefficients\": {\"forces\": 3}}", "coefficients.forces: expected \"all\", \"none\" or an array");
    expect_rejection(HEAD "\"coefficients\": {\"forces\": \"some\"}}", "coefficients.forces: expected \"all\"");
    expect_rejection(HEAD "\"coefficients\": {\"forces\": [\"viscous\", \"drag\"]}}",
                     "coefficients.forces[1]: 'drag' is not one of viscous, pressure_drag");
    expect_rejection(HEAD "\"coefficients\": {\"forces\": [\"slamming\", \"slamming\"]}}",
                     "coefficients.forces[1]: 'slamming' is listed twice");
    expect_rejection(HEAD "\"coefficients\": {\"forces\": [true]}}", "coefficients.forces[0]: expected a force name (got true)");
    expect_rejection(HEAD "\"coefficients\": {\"damping_linear\": [1]}}",
                     "coefficients.damping_linear: expected an array of 2 numbers (got 1 element)");
    /* A hull strength needs compartments to hold its holes, and both numbers. */
    expect_rejection(HEAD "\"hull_strength\": {\"plating\": 0.006, \"breach_energy\": 1e5}}",
                     "hull_strength: needs \"compartments\" with a bulkhead");
    expect_rejection(HEAD "\"compartments\": {\"bulkheads\": [0]}, \"hull_strength\": {\"plating\": 0.006}}",
                     "hull_strength.breach_energy: missing (J a blow must pass");
}

/* A vessel-type file beside its mesh: the hull path is the file's folder's. */
static void relative_hull_paths_follow_the_file(void** state) {
    (void)state;
    char dir[] = "/tmp/naval_vt_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[128], obj[160], json[160];
    snprintf(sub, sizeof sub, "%s/meshes", dir);
    snprintf(obj, sizeof obj, "%s/box.obj", sub);
    snprintf(json, sizeof json, "%s/box.json", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    FILE* f = fopen(obj, "w");
    assert_non_null(f);
    fputs("v 0 0 0\nv 2 0 0\nv 2 1 0\nv 0 1 0\nv 0 0 1\nv 2 0 1\nv 2 1 1\nv 0 1 1\n"
          "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 3 4 8 7\nf 2 3 7 6\nf 1 5 8 4\n",
          f);
    fclose(f);
    f = fopen(json, "w");
    assert_non_null(f);
    fputs("{\"name\": \"box\", \"hull\": \"meshes/box.obj\", \"density\": 400,\n"
          " \"propellers\": [{\"position\": [0, 0.1, 0.5], \"max_thrust\": 100}]}\n",
          f);
    fclose(f);
    nv_vessel_type t;
    nv_error err;
    ASSERT_OK(nv_vessel_type_load_file(json, &t, &err), err);
    char want[512];
    snprintf(want, sizeof want, "%s/meshes/box.obj", dir);
    assert_string_equal(t.hull, want);
    nv_mesh m;
    ASSERT_OK(nv_vessel_type_load_mesh(&t, &m, &err), err);
    assert_int_equal(m.triangle_count, 12);
    ASSERT_NEAR_REL(nv_mesh_signed_volume(&m), 2.0, 1e-12);
    nv_mesh_free(&m);
    /* A file's mistakes carry its name. */
    f = fopen(json, "w");
    assert_non_null(f);
    fputs("{\"name\": \"box\", \"hull\": \"meshes/box.obj\",\n \"propellers\": [{\"position\": [0, 0, 0], \"max_thrust\": -5}]}", f);
    fclose(f);
    assert_int_equal(nv_vessel_type_load_file(json, &t, &err), -1);
    snprintf(want, sizeof want, "%s: propellers[0].max_thrust: must be in (0, 1e+08] N (got -5)", json);
    assert_string_equal(err.message, want);
    remove(json);
    remove(obj);
    rmdir(sub);
    rmdir(dir);
}

/* Righting lever at a heel of `heel_deg` with the weight's displacement:
 * GZ = the horizontal offset of the centre of buoyancy from the CG. */
static double righting_lever(const nv_hull* h, double heel_deg) {
    nv_error err;
    nv_quat q = quat_from_axis_angle(v3(1, 0, 0), heel_deg * NV_PI / 180.0);
    double y;
    ASSERT_OK(nv_statics_balance_height_of(h, 1025.0, 9.81, q, &y, &err), err);
    nv_mat3 r = quat_to_mat3(q);
    float* height = malloc(h->vertex_count * sizeof *height);
    assert_non_null(height);
    for (uint32_t i = 0; i < h->vertex_count; i++)
        height[i] = (float)(y + m3_mul_v3(&r, v3(h->vx[i], h->vy[i], h->vz[i])).y);
    nv_vec3 b;
    double volume = nv_statics_buoyancy_center(h, height, v3(0, y, 0), &r, 0.0, &b);
    free(height);
    ASSERT_NEAR_REL(volume * 1025.0, h->body.mass, 2e-3);
    return b.z;
}

static void builtins_float_upright_and_stable(void** state) {
    (void)state;
    nv_error err;
    for (int i = 0; i < nv_vessel_type_builtin_count(); i++) {
        nv_vessel_type t;
        nv_mesh m;
        nv_hull h;
        ASSERT_OK(nv_vessel_type_builtin(nv_vessel_type_builtin_name(i), &t, &err), err);
        ASSERT_OK(nv_vessel_type_load_mesh(&t, &m, &err), err);
        ASSERT_OK(nv_hull_create(&h, &m, &t.mass, &err), err);
        nv_mesh_free(&m);
        double y;
        ASSERT_OK(nv_statics_balance_height_of(&h, 1025.0, 9.81, quat_identity(), &y, &err), err);
        double depth = h.bounds_max[1] - h.bounds_min[1], length = h.bounds_max[0] - h.bounds_min[0];
        double draft = -(y + h.bounds_min[1]); /* the keel's depth below the water */
        double gm = righting_lever(&h, 3.0) / sin(3.0 * NV_PI / 180.0);
        double gz30 = righting_lever(&h, 30.0);
        print_message("%-9s  L %.1f m  mass %.0f kg  draft %.3f m (%.0f %% of %.2f m)  CG %.2f m above the keel  "
                      "GM %.3f m  GZ(30 deg) %.3f m\n",
                      t.name, length, h.body.mass, draft, 100.0 * draft / depth, depth, t.mass.cg.y, gm, gz30);
        assert_true(draft > 0.4 * depth && draft < 0.6 * depth);
        assert_true(t.mass.cg.y < draft + 0.1 * depth); /* CG about at the waterline or below */
        assert_true(gm > 0.02 * (h.bounds_max[2] - h.bounds_min[2]));
        assert_true(gz30 > 0.0);
        /* Every propeller and rudder below the waterline, at the stern. */
        const nv_actuator_set* a = &t.dynamics.actuators;
        for (uint32_t k = 0; k < a->propeller_count; k++)
            assert_true(a->propellers[k].position.y < draft && a->propellers[k].position.x < -0.4 * length);
        for (uint32_t k = 0; k < a->rudder_count; k++)
            assert_true(a->rudders[k].position.y < draft && a->rudders[k].position.x < a->propellers[0].position.x);
        nv_hull_destroy(&h);
    }
}

/* Compartments: the built-in types split into closed compartments adding
 * up to their hulls (five for the patrol boat, seven for the freighter,
 * two for the skiff); bad definitions are refused by name. */
static void compartments_split_and_refuse(void** state) {
    (void)state;
    const char* names[3] = {"skiff", "patrol", "freighter"};
    const uint32_t counts[3] = {2, 5, 7};
    for (int i = 0; i < 3; i++) {
        nv_vessel_type t;
        nv_mesh m;
        nv_error err;
        nv_compartment_set cs;
        assert_int_equal(nv_vessel_type_builtin(names[i], &t, &err), 0);
        assert_int_equal(nv_vessel_type_load_mesh(&t, &m, &err), 0);
        if (nv_vessel_type_compartments(&t, &m, t.mass.cg, &cs, &err)) fail_msg("%s", err.message);
        assert_int_equal(cs.count, counts[i]);
        double sum = 0.0, whole = nv_mesh_signed_volume(&m);
        for (uint32_t k = 0; k < cs.count; k++) sum += cs.volume[k];
        assert_true(fabs(sum - whole) < 1e-5 * whole);
        /* In the body frame: the first compartment starts at the hull's stern less the CG's x. */
        float lo[3], hi[3];
        nv_mesh_bounds(&m, lo, hi);
        assert_true(fabs(cs.x_bounds[0] - (lo[0] - t.mass.cg.x)) < 1e-6);
        nv_compartment_set_free(&cs);
        /* A plane past the bow is named. */
        t.compartments.bulkhead_count = 1;
        t.compartments.bulkheads[0] = hi[0] + 1.0;
        assert_int_equal(nv_vessel_type_compartments(&t, &m, t.mass.cg, &cs, &err), -1);
        assert_non_null(strstr(err.message, names[i]));
        assert_non_null(strstr(err.message, "outside the hull"));
        nv_mesh_free(&m);
    }
    expect_rejection("{\"name\": \"a\", \"hull\": \"builtin:barge\", \"compartments\": {\"bulkheads\": [2, 1]}}",
                     "compartments.bulkheads: must increase (2 then 1)");
    expect_rejection("{\"name\": \"a\", \"hull\": \"builtin:barge\", \"compartments\": {\"walls\": [1]}}", "walls");
    expect_rejection("{\"name\": \"a\", \"hull\": \"builtin:barge\", \"compartments\": [1, 2]}",
                     "compartments: expected an object");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builtins_equal_their_files),
        cmocka_unit_test(every_key_reaches_its_field),
        cmocka_unit_test(mistakes_are_named),
        cmocka_unit_test(relative_hull_paths_follow_the_file),
        cmocka_unit_test(builtins_float_upright_and_stable),
        cmocka_unit_test(compartments_split_and_refuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
