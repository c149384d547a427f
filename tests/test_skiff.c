// SPDX-License-Identifier: MIT
/* The built-in skiff as a small craft at speed (issue 29, item 2): its
 * running trim and rise at full throttle on flat water against Savitsky's
 * planing equilibrium (naval/planing.h) for its own bottom (the planing
 * lift its type declares makes them, core/dynamics.c), and no
 * spontaneous roll-over at any throttle and helm in calm water or in a
 * Beaufort 4 sea, its rating. Figures are printed for the record. */
#include <math.h>

#include "naval/planing.h"
#include "naval/scenario.h"
#include "naval/statics.h"
#include "naval/vessel_type.h"
#include "naval/world.h"
#include "test_util.h"

#define DEG (3.14159265358979323846 / 180.0)

/* Sea time of the Beaufort 4 run: shorter under the sanitizers. */
#ifdef NAVAL_SKIFF_SEA_SECONDS
#define SEA_SECONDS NAVAL_SKIFF_SEA_SECONDS
#else
#define SEA_SECONDS 150
#endif

/* The skiff's bottom at the midship section of its mesh: the flat floor's
 * half-breadth and the knuckle above it (the hull's hard edge, where the
 * spray leaves it: Savitsky's chine). */
static void skiff_bottom(const nv_mesh* m, double* floor_half, double* chine_half, double* chine_height) {
    double keel = INFINITY;
    for (uint32_t i = 0; i < m->vertex_count; i++) keel = fmin(keel, m->positions[3 * i + 1]);
    *floor_half = 0.0;
    *chine_half = 0.0;
    *chine_height = INFINITY;
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const float* p = &m->positions[3 * i];
        if (fabs(p[0]) > 1e-3) continue;
        double y = p[1] - keel;
        if (y < 1e-6)
            *floor_half = fmax(*floor_half, fabs(p[2]));
        else if (y < *chine_height)
            *chine_height = y, *chine_half = fabs(p[2]);
    }
}

static void skiff_against_savitsky(void** state) {
    (void)state;
    nv_error err;
    nv_vessel_type vt;
    ASSERT_OK(nv_vessel_type_builtin("skiff", &vt, &err), err);
    nv_mesh m;
    ASSERT_OK(nv_vessel_type_load_mesh(&vt, &m, &err), err);
    double floor_half, chine_half, chine_height, x_min = INFINITY, keel = INFINITY;
    skiff_bottom(&m, &floor_half, &chine_half, &chine_height);
    for (uint32_t i = 0; i < m.vertex_count; i++) {
        x_min = fmin(x_min, m.positions[3 * i]);
        keel = fmin(keel, m.positions[3 * i + 1]);
    }
    nv_world* w;
    nv_world_config cfg = nv_world_config_default();
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, &err), err);
    uint32_t type, id;
    ASSERT_OK(nv_world_add_hull_type(w, vt.name, &m, &vt.mass, &type, &err), err);
    ASSERT_OK(nv_world_set_type_dynamics(w, type, &vt.dynamics, &err), err);
    nv_mesh_free(&m);
    const nv_hull* h = nv_world_hull_type(w, type);
    double y;
    ASSERT_OK(nv_statics_balance_height_of(h, 1025.0, 9.81, quat_identity(), &y, &err), err);
    ASSERT_OK(nv_world_spawn(w, type, v3(0, y, 0), quat_identity(), &id, &err), err);
    nv_world_vessel_state st;
    for (int i = 0; i < 600; i++) nv_world_step(w); /* settle */
    assert_int_equal(nv_world_vessel_get(w, id, &st), 0);
    double rest_y = st.position.y, rest_trim, rest_area = st.submerged_area;
    nv_statics_attitude(st.orientation, NULL, &rest_trim, NULL);
    ASSERT_OK(nv_world_set_controls(w, id, 1.0, 0.0, &err), err);
    double sum_y = 0.0, sum_trim = 0.0, sum_v = 0.0, sum_area = 0.0, trim_lo = INFINITY, trim_hi = -INFINITY;
    int n = 0;
    for (int i = 0; i < 60 * 60; i++) {
        nv_world_step(w);
        if (i < 60 * 50) continue;
        assert_int_equal(nv_world_vessel_get(w, id, &st), 0);
        double trim;
        nv_statics_attitude(st.orientation, NULL, &trim, NULL);
        sum_y += st.position.y, sum_trim += trim, sum_v += v3_length(st.velocity), n++;
        sum_area += st.submerged_area;
        trim_lo = fmin(trim_lo, trim), trim_hi = fmax(trim_hi, trim);
    }
    nv_world_destroy(w);
    double trim = sum_trim / n, rise = sum_y / n - rest_y, speed = sum_v / n, area = sum_area / n;
    printf("skiff wetted area: at rest %.2f m^2, at full throttle %.2f m^2\n", rest_area, area);
    /* on the plane it runs on the aft part of its bottom (and carries that
     * part's added mass: docs/hydrodynamics.md, "Added mass") */
    assert_true(area > 0.1 * rest_area && area < 0.5 * rest_area);

    /* Savitsky for the skiff's own bottom: the chine beam at the knuckle,
     * the flat floor's deadrise (0: it carries the planing lift), the CG
     * from the transom and above the keel, the thrust line below the CG,
     * at the speed the simulation reached. */
    nv_planing_hull ph;
    nv_planing_hull_init(&ph);
    ph.beam = 2.0 * chine_half;
    ph.deadrise_deg = 0.0;
    ph.lcg = vt.mass.cg.x - x_min;
    ph.vcg = vt.mass.cg.y - keel;
    ph.mass = vt.mass.mass;
    ph.speed = speed;
    ph.thrust_below = vt.mass.cg.y - vt.dynamics.actuators.propellers[0].position.y;
    ph.friction = 1;
    ph.static_height = rest_y; /* the CG above the water at rest */
    nv_planing_result r;
    ASSERT_OK(nv_planing_solve(&ph, &r, &err), err);
    nv_planing_hull vee = ph; /* the mean deadrise from the keel to the knuckle, for the record */
    vee.deadrise_deg = atan2(chine_height, chine_half) / DEG;
    nv_planing_result rv;
    ASSERT_OK(nv_planing_solve(&vee, &rv, &err), err);
    printf("skiff bottom: floor %.3f m wide, knuckle %.3f m wide at %.3f m; b %.3f m, LCG %.2f m, VCG %.2f m, "
           "thrust %.2f m below the CG\n",
           2.0 * floor_half, 2.0 * chine_half, chine_height, ph.beam, ph.lcg, ph.vcg, ph.thrust_below);
    printf("skiff at full throttle, %.2f m/s (Cv %.2f): trim %.2f deg (at rest %.2f; %.2f to %.2f over 10 s), CG rise "
           "%.3f m\n",
           speed, r.cv, trim, rest_trim, trim_lo, trim_hi, rise);
    printf("Savitsky, flat floor: trim %.2f deg, lambda %.2f, rise %.3f m, transom draft %.3f m, thrust %.0f N\n",
           r.tau_deg, r.lambda, r.rise, r.transom_draft, r.thrust);
    printf("Savitsky, mean deadrise %.1f deg: trim %.2f deg, lambda %.2f, rise %.3f m\n", vee.deadrise_deg, rv.tau_deg,
           rv.lambda, rv.rise);
    assert_true(speed > 10.0 && speed < 18.0);
    /* It runs steadily: no porpoising (a flat floor of this loading is
     * prone to it; docs/hydrodynamics.md, "The planing lift"). */
    assert_true(trim_hi - trim_lo < 0.1);
    /* The check: trim and rise within 25 % of Savitsky's. The
     * planing lift (core/dynamics.c) puts Savitsky's dynamic lift where he
     * puts it; without it the triangles' pressure drag, centred on the
     * wetted area, ran the hull deeper and flatter (rise 46 % short). */
    assert_true(fabs(trim - r.tau_deg) <= 0.25 * r.tau_deg);
    assert_true(fabs(rise - r.rise) <= 0.25 * r.rise);
}

/* One world, `count` skiffs 300 m apart at `throttle`, each its rudder
 * from `rudders` and its heading from the fleet's seed; returns how many
 * heeled past 90 degrees at some step within `seconds`, and the largest
 * heel seen. Contacts between the boats are off, as in naval-envelope:
 * turning skiffs cross each other's tracks, and a capsize here is the
 * sea's, not a collision's. */
static int skiffs_capsized(const char* ocean, const double* throttles, const double* rudders, int count, double seconds,
                           double* max_heel) {
    char text[4096];
    int len = snprintf(text, sizeof text, "{\"tick_hz\": 60, \"contacts\": {\"enabled\": false}, %s \"vessel_types\": [\"builtin:skiff\"], \"vessels\": [",
                       ocean);
    for (int i = 0; i < count; i++)
        len += snprintf(text + len, sizeof text - (size_t)len,
                        "%s{\"type\": \"skiff\", \"position\": [%d, %d], \"heading_deg\": %d, "
                        "\"controls\": {\"throttle\": %g, \"rudder\": %g}}",
                        i ? ", " : "", (i % 4) * 300, (i / 4) * 300, (i * 97) % 360, throttles[i], rudders[i]);
    snprintf(text + len, sizeof text - (size_t)len, "]}");
    nv_error err;
    nv_scenario sc;
    ASSERT_OK(nv_scenario_parse(text, strlen(text), "skiffs", NULL, &sc, &err), err);
    nv_scenario_instance inst;
    ASSERT_OK(nv_scenario_instantiate(&sc, NULL, &inst, &err), err);
    int capsized[32] = {0}, total = 0;
    *max_heel = 0.0;
    int steps = (int)(seconds * 60.0);
    for (int s = 0; s < steps; s++) {
        nv_world_step(inst.world);
        for (int i = 0; i < count; i++) {
            nv_world_vessel_state st;
            assert_int_equal(nv_world_vessel_get(inst.world, (uint32_t)i, &st), 0);
            double heel;
            nv_statics_attitude(st.orientation, &heel, NULL, NULL);
            *max_heel = fmax(*max_heel, fabs(heel));
            if (!capsized[i] && nv_statics_capsized(st.orientation)) capsized[i] = 1, total++;
        }
    }
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&sc);
    return total;
}

/* Calm water: every throttle and helm, two minutes each. */
static void skiff_calm_any_throttle_and_helm(void** state) {
    (void)state;
    double throttle[15], rudder[15];
    const double t[] = {0.0, 0.5, 1.0}, r[] = {-1.0, -0.3, 0.0, 0.3, 1.0};
    for (int i = 0; i < 15; i++) throttle[i] = t[i / 5], rudder[i] = r[i % 5];
    double max_heel;
    int n = skiffs_capsized("", throttle, rudder, 15, 120.0, &max_heel);
    printf("calm: %d of 15 skiffs capsized; largest heel %.1f deg\n", n, max_heel);
    assert_int_equal(n, 0);
    assert_true(max_heel < 30.0);
}

/* Beaufort 4 (the skiff's rating): full throttle, helm 0, 0.3 and 1, four
 * headings each, on one FFT sea. */
static void skiff_beaufort_4_full_throttle(void** state) {
    (void)state;
    double throttle[12], rudder[12];
    const double r[] = {0.0, 0.3, 1.0};
    for (int i = 0; i < 12; i++) throttle[i] = 1.0, rudder[i] = r[i % 3];
    double max_heel;
    int n = skiffs_capsized("\"ocean\": {\"spectrum\": \"jonswap\", \"beaufort\": 4, \"fetch\": 100000, \"seed\": 7, "
                            "\"resolution\": 128},",
                            throttle, rudder, 12, SEA_SECONDS, &max_heel);
    printf("Beaufort 4, %d s: %d of 12 skiffs at full throttle capsized; largest heel %.1f deg\n", SEA_SECONDS, n,
           max_heel);
    assert_int_equal(n, 0);
}

/* One skiff on flat water at `throttle`, settled for `settle` seconds, then
 * given a roll rate of 0.6 rad/s about its own x: the first two extreme
 * heels after it (the swing, then the overshoot the other way). */
static void skiff_roll_swing(double throttle, double settle, double* swing, double* overshoot, double* speed) {
    char text[512];
    snprintf(text, sizeof text,
             "{\"tick_hz\": 60, \"vessel_types\": [\"builtin:skiff\"], \"vessels\": [{\"type\": \"skiff\", "
             "\"position\": [0, 0], \"heading_deg\": 0, \"controls\": {\"throttle\": %g, \"rudder\": 0}}]}",
             throttle);
    nv_error err;
    nv_scenario sc;
    ASSERT_OK(nv_scenario_parse(text, strlen(text), "roll", NULL, &sc, &err), err);
    nv_scenario_instance inst;
    ASSERT_OK(nv_scenario_instantiate(&sc, NULL, &inst, &err), err);
    nv_world_vessel_state st;
    for (int s = 0; s < (int)(settle * 60.0); s++) nv_world_step(inst.world);
    assert_int_equal(nv_world_vessel_get(inst.world, 0, &st), 0);
    *speed = v3_length(st.velocity);
    nv_vec3 w = v3_madd(st.angular_velocity, quat_rotate(st.orientation, v3(1.0, 0.0, 0.0)), 0.6);
    ASSERT_OK(nv_world_set_velocity(inst.world, st.id, st.velocity, w, &err), err);
    double prev = 0.0, prev2 = 0.0;
    int found = 0;
    *swing = *overshoot = 0.0;
    for (int s = 0; s < 60 * 6 && found < 2; s++) {
        nv_world_step(inst.world);
        assert_int_equal(nv_world_vessel_get(inst.world, 0, &st), 0);
        double heel;
        nv_statics_attitude(st.orientation, &heel, NULL, NULL);
        /* an extreme: the heel turned back (after two samples) */
        if (s >= 2 && (heel - prev) * (prev - prev2) < 0.0) {
            if (found == 0) *swing = prev;
            else *overshoot = prev;
            found++;
        }
        prev2 = prev, prev = heel;
    }
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&sc);
}

/* On the plane the bottom's lift damps roll (slender-body theory, the
 * transom's added roll inertia carried off at the speed: "The planing
 * lift" in docs/hydrodynamics.md): a roll given to the skiff at full
 * throttle dies within the swing, where at rest it rolls back most of
 * the way (the decay's zeta 0.08 there). The ratio of the overshoot to the
 * swing is exp(-pi zeta / sqrt(1 - zeta^2)) for a linear roll. */
static void skiff_roll_damped_on_the_plane(void** state) {
    (void)state;
    double swing[2], overshoot[2], speed[2];
    skiff_roll_swing(0.0, 10.0, &swing[0], &overshoot[0], &speed[0]);
    skiff_roll_swing(1.0, 45.0, &swing[1], &overshoot[1], &speed[1]);
    for (int i = 0; i < 2; i++) {
        double r = fabs(overshoot[i] / swing[i]), lr = -log(fmax(r, 1e-9));
        printf("roll given 0.6 rad/s at %.1f m/s: swing %.2f deg, overshoot %.2f deg (ratio %.3f, zeta %.3f)\n",
               speed[i], swing[i], overshoot[i], r, lr / sqrt(NV_PI * NV_PI + lr * lr));
    }
    assert_true(speed[0] < 0.1 && speed[1] > 12.0);
    assert_true(swing[0] > 5.0 && swing[1] > 2.0);
    assert_true(fabs(overshoot[0] / swing[0]) > 0.6);  /* at rest: zeta under 0.16 */
    assert_true(fabs(overshoot[1] / swing[1]) < 0.25); /* planing: zeta over 0.4 */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(skiff_against_savitsky),
        cmocka_unit_test(skiff_roll_damped_on_the_plane),
        cmocka_unit_test(skiff_calm_any_throttle_and_helm),
        cmocka_unit_test(skiff_beaufort_4_full_throttle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
