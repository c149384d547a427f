// SPDX-License-Identifier: MIT
/* Contacts between vessels, against the conservation laws and the closed
 * forms of an impact: two boxes meeting head-on keep their momentum
 * (water forces accounted) and lose kinetic energy, to the restitution's
 * closed form, without overlapping more than a few centimetres; an
 * off-centre blow yaws both the way r x J says; a 20 m/s closing speed at
 * 30 Hz does not tunnel through a 1 m beam; in none of these does the
 * kinetic energy ever pass the start's; 1,000 patrol boats released
 * overlapping in a small square are apart after 10 s; the state hash is
 * the same at 1, 2 and 3 threads; vessels on columns collide too; issue
 * 31's crowd of 120 under full thrust and rudder holds its overlaps under
 * 5 cm (p99) and 10 cm (the solve's colours run on the job system in the
 * thread-count check), a skiff squeezed by two freighters is held, and
 * a raft of 50 driven onto a quay wall holds under 5 cm. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "naval/jobs.h"
#include "naval/scenario.h"
#include "naval/vessel_type.h"
#include "naval/world.h"
#include "test_util.h"

/* A world at 30 Hz, flat water, with one box hull type (pure
 * hydrostatics: no added mass, no damping) of length L, beam B. */
static nv_world* box_world(nv_jobs* pool, double length, double beam, uint32_t* type) {
    nv_world_config cfg = nv_world_config_default();
    cfg.tick_hz = 30.0;
    nv_world* w;
    nv_error err;
    ASSERT_OK(nv_world_create(&w, &cfg, pool, &err), err);
    nv_mesh m;
    ASSERT_OK(nv_hullgen_box(&m, length, beam, 2.0, 8, 2, 4, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 1025.0 * length * beam * 1.0; /* floats 1 m deep */
    ASSERT_OK(nv_world_add_hull_type(w, "box", &m, &spec, type, &err), err);
    nv_mesh_free(&m);
    return w;
}

/* Kinetic energy, J: translation and rotation (the hull's inertia). */
static double energy_of(const nv_world* w, const nv_world_vessel_state* s) {
    const nv_hull* h = nv_world_hull_type(w, s->type);
    nv_mat3 r = quat_to_mat3(s->orientation), rt = m3_transpose(&r);
    nv_vec3 wb = m3_mul_v3(&rt, s->angular_velocity);
    nv_vec3 iw = m3_mul_v3(&h->body.inertia, wb);
    return 0.5 * h->body.mass * v3_dot(s->velocity, s->velocity) + 0.5 * v3_dot(wb, iw);
}

/* Two boxes, 10 m x 4 m, A at 6 m/s into B at -2 m/s along x. */
static void head_on_keeps_momentum(void** state) {
    (void)state;
    uint32_t type;
    nv_world* w = box_world(NULL, 10.0, 4.0, &type);
    const double mass = nv_world_hull_type(w, type)->body.mass;
    uint32_t a = test_spawn_afloat(w, type, -15.0, 0.0, v3(6.0, 0, 0));
    uint32_t b = test_spawn_afloat(w, type, 15.0, 0.0, v3(-2.0, 0, 0));
    const double dt = 1.0 / 30.0;
    double p0 = mass * (test_vessel_state(w, a).velocity.x + test_vessel_state(w, b).velocity.x);
    double e0 = 0.5 * mass * (36.0 + 4.0);
    double water = 0.0, deepest = 0.0, closing = 0.0;
    uint32_t events = 0;
    for (int i = 0; i < 120; i++) {
        nv_world_step(w);
        nv_world_vessel_state sa = test_vessel_state(w, a), sb = test_vessel_state(w, b);
        water += (sa.force.x + sb.force.x) * dt; /* the impulse of every force but the contact's */
        deepest = fmax(deepest, fmax(sa.penetration, sb.penetration));
        uint32_t n;
        const nv_world_contact_event* e = nv_world_contact_events(w, &n);
        for (uint32_t k = 0; k < n; k++)
            if (e[k].id_b != WORLD_CONTACT_GROUND) {
                events++;
                closing = e[k].closing_speed;
                assert_true(e[k].id_a == a && e[k].id_b == b);
                ASSERT_NEAR_ABS(e[k].normal.x, -1.0, 1e-3); /* a is pushed back */
                assert_true(e[k].impulse > 0.0);
            }
    }
    nv_world_vessel_state sa = test_vessel_state(w, a), sb = test_vessel_state(w, b);
    double p1 = mass * (sa.velocity.x + sb.velocity.x);
    print_message("head-on: p %.6f -> %.6f (water %.6f) kg m/s, v %.3f %.3f m/s, deepest %.4f m, closing %.2f\n", p0,
                  p1, water, sa.velocity.x, sb.velocity.x, deepest, closing);
    assert_int_equal(events, 1);
    ASSERT_NEAR_ABS(closing, 8.0, 0.05);
    /* the contact's impulses are equal and opposite: what is left is the
     * rounding of the velocities (an ulp of 164000 kg m/s is 3e-11) */
    ASSERT_NEAR_ABS(p1, p0 + water, 1e-9 * fabs(p0));
    double e1 = energy_of(w, &sa) + energy_of(w, &sb);
    assert_true(e1 < e0);
    /* restitution 0.2 above 1 m/s: separating at 0.2 x 8 m/s, about the
     * centre of mass moving at 2 m/s */
    ASSERT_NEAR_ABS(sb.velocity.x - sa.velocity.x, 0.2 * 8.0, 0.15);
    assert_true(deepest < 0.05);
    assert_true(sa.position.x + 5.0 < sb.position.x - 5.0 + 0.05);
    nv_world_destroy(w);
}

/* Floaters (the far boats' surface followers) collide too: the two boxes
 * of head_on_keeps_momentum as floaters meet once, keep their momentum
 * (a floater feels no water force along the surface), part at the
 * restitution's 0.2 x 8 m/s and never pass through each other. */
static void floaters_meet_head_on(void** state) {
    (void)state;
    uint32_t type;
    nv_error err;
    nv_world* w = box_world(NULL, 10.0, 4.0, &type);
    const double mass = nv_world_hull_type(w, type)->body.mass;
    uint32_t a = test_spawn_afloat(w, type, -15.0, 0.0, v3(6.0, 0, 0));
    uint32_t b = test_spawn_afloat(w, type, 15.0, 0.0, v3(-2.0, 0, 0));
    ASSERT_OK(nv_world_set_vessel_model(w, a, WORLD_MODEL_FLOATER, &err), err);
    ASSERT_OK(nv_world_set_vessel_model(w, b, WORLD_MODEL_FLOATER, &err), err);
    double p0 = mass * (test_vessel_state(w, a).velocity.x + test_vessel_state(w, b).velocity.x), worst = -INFINITY;
    uint32_t events = 0;
    for (int i = 0; i < 120; i++) {
        nv_world_step(w);
        nv_world_vessel_state sa = test_vessel_state(w, a), sb = test_vessel_state(w, b);
        assert_int_equal(sa.model, WORLD_MODEL_FLOATER);
        worst = fmax(worst, (sa.position.x + 5.0) - (sb.position.x - 5.0)); /* overlap of the ends */
        uint32_t n;
        const nv_world_contact_event* e = nv_world_contact_events(w, &n);
        for (uint32_t k = 0; k < n; k++) events += e[k].id_b != WORLD_CONTACT_GROUND;
    }
    nv_world_vessel_state sa = test_vessel_state(w, a), sb = test_vessel_state(w, b);
    double p1 = mass * (sa.velocity.x + sb.velocity.x);
    print_message("floaters head-on: p %.1f -> %.1f kg m/s, v %.3f %.3f m/s, deepest overlap %.4f m\n", p0, p1,
                  sa.velocity.x, sb.velocity.x, worst);
    assert_int_equal(events, 1);
    ASSERT_NEAR_ABS(p1, p0, 0.01 * mass * 6.0);
    ASSERT_NEAR_ABS(sb.velocity.x - sa.velocity.x, 0.2 * 8.0, 0.15);
    assert_true(worst < 0.05);
    nv_world_destroy(w);
}

/* A moving +x strikes B, whose centre is 3 m to +z: the contact is on A's
 * +z side, and r x J turns both about -y. */
static void glancing_blow_yaws_both(void** state) {
    (void)state;
    uint32_t type;
    nv_world* w = box_world(NULL, 10.0, 4.0, &type);
    uint32_t a = test_spawn_afloat(w, type, -12.0, 0.0, v3(5.0, 0, 0));
    uint32_t b = test_spawn_afloat(w, type, 0.0, 3.0, v3(0, 0, 0));
    /* no engine, no damping: the kinetic energy never exceeds the start's
     * (the contact may only take it, or pass it into heave and pitch) */
    nv_world_vessel_state s0 = test_vessel_state(w, a);
    const double e0 = energy_of(w, &s0);
    double most = 0.0;
    for (int i = 0; i < 75; i++) {
        nv_world_step(w);
        nv_world_vessel_state sa = test_vessel_state(w, a), sb = test_vessel_state(w, b);
        most = fmax(most, energy_of(w, &sa) + energy_of(w, &sb));
    }
    nv_world_vessel_state sa = test_vessel_state(w, a), sb = test_vessel_state(w, b);
    print_message("glancing: yaw rates %.4f %.4f rad/s, B pushed to (%.3f, %.3f) m/s; kinetic energy at most %.1f of %.1f J\n",
                  sa.angular_velocity.y, sb.angular_velocity.y, sb.velocity.x, sb.velocity.z, most, e0);
    assert_true(most <= e0 * (1.0 + 1e-9)); /* rounding aside */
    assert_true(sa.angular_velocity.y < -1e-3);
    assert_true(sb.angular_velocity.y < -1e-3);
    assert_true(sb.velocity.x > 0.1); /* and B is pushed ahead */
    nv_world_destroy(w);
}

/* Boxes 1 m in beam meeting side-on at 20 m/s closing, 30 Hz: 0.67 m of
 * travel per step, two thirds of a beam. They must not pass through. */
static void no_tunnelling_at_twenty_metres_a_second(void** state) {
    (void)state;
    uint32_t type;
    nv_world* w = box_world(NULL, 6.0, 1.0, &type);
    /* beams along x: turned 90 degrees, then they close along x */
    uint32_t a = test_spawn_afloat(w, type, -5.0, 0.0, v3(10.0, 0, 0));
    uint32_t b = test_spawn_afloat(w, type, 5.0, 0.0, v3(-10.0, 0, 0));
    nv_error err;
    nv_world_vessel_state sa = test_vessel_state(w, a), sb = test_vessel_state(w, b);
    nv_quat turn = quat_from_axis_angle(v3(0, 1, 0), NV_PI / 2);
    ASSERT_OK(nv_world_despawn(w, a, &err), err);
    ASSERT_OK(nv_world_despawn(w, b, &err), err);
    ASSERT_OK(nv_world_spawn(w, type, sa.position, turn, &a, &err), err);
    ASSERT_OK(nv_world_spawn(w, type, sb.position, turn, &b, &err), err);
    ASSERT_OK(nv_world_set_velocity(w, a, v3(10.0, 0, 0), v3(0, 0, 0), &err), err);
    ASSERT_OK(nv_world_set_velocity(w, b, v3(-10.0, 0, 0), v3(0, 0, 0), &err), err);
    double deepest = 0.0, most = 0.0;
    sa = test_vessel_state(w, a), sb = test_vessel_state(w, b);
    const double e0 = energy_of(w, &sa) + energy_of(w, &sb);
    for (int i = 0; i < 60; i++) {
        nv_world_step(w);
        sa = test_vessel_state(w, a), sb = test_vessel_state(w, b);
        deepest = fmax(deepest, sa.penetration);
        most = fmax(most, energy_of(w, &sa) + energy_of(w, &sb));
        assert_true(sa.position.x < sb.position.x);
    }
    print_message("20 m/s: deepest overlap %.4f m, gap %.3f m; kinetic energy at most %.1f of %.1f J\n", deepest,
                  sb.position.x - sa.position.x - 1.0, most, e0);
    assert_true(most <= e0 * (1.0 + 1e-9)); /* no engine, no damping: the impact only takes energy */
    assert_true(deepest < 0.05);
    assert_true(sb.position.x - sa.position.x > 1.0 - 0.05);
    nv_world_destroy(w);
}

/* 1,000 patrol boats (about 20 m x 5 m) placed 16 m apart with random
 * headings (most hulls overlap, by up to 11 m) are apart
 * after 10 s, and the hash of the run is the same at 1, 2 and 3 threads. */
static uint64_t crowd_run(uint32_t threads, uint32_t boats, int steps, double* deepest_out) {
    char text[512];
    snprintf(text, sizeof text,
             "{\"tick_hz\": 30, \"vessel_types\": [\"builtin:patrol\"],"
             " \"fleets\": [{\"type\": \"patrol\", \"count\": %u, \"spacing\": 16, \"seed\": 3}]}",
             boats);
    nv_scenario sc;
    nv_scenario_instance inst;
    nv_error err;
    nv_jobs* pool = NULL;
    if (threads > 1) ASSERT_OK(nv_jobs_create(&pool, threads, &err), err);
    ASSERT_OK(nv_scenario_parse(text, strlen(text), "crowd", NULL, &sc, &err), err);
    ASSERT_OK(nv_scenario_instantiate(&sc, pool, &inst, &err), err);
    for (int i = 0; i < steps; i++) nv_world_step(inst.world);
    double deepest = 0.0;
    uint32_t frozen = 0;
    for (uint32_t k = 0; k < nv_world_vessel_count(inst.world); k++) {
        nv_world_vessel_state v = test_vessel_state(inst.world, nv_world_vessel_id_at(inst.world, k));
        deepest = fmax(deepest, v.penetration);
        frozen += (v.flags & WORLD_VESSEL_FROZEN) != 0;
    }
    assert_int_equal(frozen, 0);
    if (deepest_out) *deepest_out = deepest;
    uint64_t hash = nv_world_state_hash(inst.world);
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&sc);
    nv_jobs_destroy(pool);
    return hash;
}

static void crowd_comes_apart(void** state) {
    (void)state;
    /* under the sanitizers (NAVAL_TEST_LIGHT) a quarter of the crowd: the
     * same code, at a quarter of the cost */
    const uint32_t boats = getenv("NAVAL_TEST_LIGHT") ? 250 : 1000;
    double deepest;
    crowd_run(2, boats, 300, &deepest);
    print_message("%u boats after 10 s: deepest overlap %.4f m\n", boats, deepest);
    assert_true(deepest < 0.05);
}

/* A scenario's world on two threads; the caller destroys it. */
static nv_scenario_instance scenario_world(const char* text, nv_scenario* sc, nv_jobs** pool) {
    nv_scenario_instance inst;
    nv_error err;
    ASSERT_OK(nv_jobs_create(pool, 2, &err), err);
    ASSERT_OK(nv_scenario_parse(text, strlen(text), "crowd", NULL, sc, &err), err);
    ASSERT_OK(nv_scenario_instantiate(sc, *pool, &inst, &err), err);
    return inst;
}

static int depth_compare(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

/* A scenario's world on two threads (the caller destroys it) run for
 * `steps`: each step's deepest overlap between vessels, from the second
 * second on (steps - rate of them, malloc'd), and the largest in *max. */
static double* run_deepest(const char* text, int steps, int rate, nv_scenario* sc, nv_jobs** pool,
                           nv_scenario_instance* inst, double* max) {
    *inst = scenario_world(text, sc, pool);
    nv_world* w = inst->world;
    uint32_t n = nv_world_vessel_count(w);
    nv_world_vessel_state* v = malloc(n * sizeof *v);
    double* depth = malloc((size_t)(steps - rate) * sizeof *depth);
    assert_non_null(v);
    assert_non_null(depth);
    for (int i = 0; i < steps; i++) {
        nv_world_step(w);
        if (i < rate) continue;
        uint32_t got = nv_world_read_vessels(w, 0, n, v);
        double deepest = 0.0;
        for (uint32_t k = 0; k < got; k++) deepest = fmax(deepest, v[k].penetration);
        depth[i - rate] = deepest;
    }
    *max = 0.0;
    for (int i = 0; i < steps - rate; i++) *max = fmax(*max, depth[i]);
    free(v);
    return depth;
}

/* Issue 31's crowd: 120 boats (patrol boats and skiffs in a checkerboard
 * 30 m apart, full throttle) run into each other for 30 s; from the
 * second second on, each step's deepest overlap has its 99th percentile
 * under 5 cm and its largest under 10 cm. helm_seed 0: headings 37
 * degrees apart, full rudder (the narrowphase before EPA let them sink
 * 1.8 m into each other); else headings and rudders drawn from it. */
static void crowd_check(uint64_t helm_seed) {
    const int rate = 60, steps = getenv("NAVAL_TEST_LIGHT") ? 900 : 1800;
    size_t cap = 32768, len = 0;
    char* text = malloc(cap);
    assert_non_null(text);
    len += (size_t)snprintf(text + len, cap - len,
                            "{\"tick_hz\": %d, \"vessel_types\": [\"builtin:patrol\", \"builtin:skiff\"], \"vessels\": [",
                            rate);
    uint64_t x = helm_seed;
    for (int k = 0; k < 120; k++) {
        int i = k / 10, j = k % 10, heading = (37 * k) % 360, rudder = 100;
        if (helm_seed) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            heading = (int)((x >> 33) % 360);
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            rudder = (int)((x >> 33) % 201) - 100;
        }
        len += (size_t)snprintf(text + len, cap - len,
                                "%s{\"type\": \"%s\", \"position\": [%d, %d], \"heading_deg\": %d,"
                                " \"controls\": {\"throttle\": 1, \"rudder\": %.2f}}",
                                k ? ", " : "", (i + j) % 2 ? "skiff" : "patrol", 30 * i, 30 * j, heading, rudder / 100.0);
        assert_true(len < cap);
    }
    len += (size_t)snprintf(text + len, cap - len, "]}");
    assert_true(len < cap);
    nv_scenario sc;
    nv_jobs* pool = NULL;
    nv_scenario_instance inst;
    double largest;
    double* depth = run_deepest(text, steps, rate, &sc, &pool, &inst, &largest);
    qsort(depth, (size_t)(steps - rate), sizeof *depth, depth_compare);
    double p50 = depth[(steps - rate) / 2], p99 = depth[(size_t)(0.99 * (steps - rate))], max = depth[steps - rate - 1];
    print_message("crowd of 120 (helms %s), %d s: deepest overlap p50 %.4f, p99 %.4f, max %.4f m\n",
                  helm_seed ? "drawn" : "in turn", steps / rate, p50, p99, max);
    assert_true(p99 < 0.05);
    assert_true(max < 0.10);
    free(depth);
    free(text);
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&sc);
    nv_jobs_destroy(pool);
}

static void crowd_of_120_stays_apart(void** state) {
    (void)state;
    crowd_check(0);
    /* drawn helms: with the split push (before the soft step) this crowd
     * reached 17.7 cm in its first 15 s */
    crowd_check(8);
    /* and this one 10.5 cm at 17 s with the soft step before the step's
     * forces were spread over its substeps (a capsized skiff squeezed
     * between two patrol boats) */
    crowd_check(1);
}

/* A skiff between two freighters that converge under full thrust and
 * rudder (1:5000 in mass): it is pressed between them, rolled but afloat,
 * never passes into or through either, and no hull enters another by
 * 10 cm (issue 31: "squeezed out or held"). */
static void skiff_held_between_freighters(void** state) {
    (void)state;
    const int rate = 60, steps = 3600; /* three boats: cheap under the sanitizers too */
    const char* text =
        "{\"tick_hz\": 60, \"vessel_types\": [\"builtin:freighter\", \"builtin:skiff\"], \"vessels\": ["
        "{\"type\": \"freighter\", \"position\": [0, -13], \"heading_deg\": -2, \"velocity\": [3, 0, 0],"
        " \"controls\": {\"throttle\": 1, \"rudder\": 0.3}},"
        "{\"type\": \"freighter\", \"position\": [0, 13], \"heading_deg\": 2, \"velocity\": [3, 0, 0],"
        " \"controls\": {\"throttle\": 1, \"rudder\": -0.3}},"
        "{\"type\": \"skiff\", \"position\": [20, 0], \"velocity\": [3, 0, 0],"
        " \"controls\": {\"throttle\": 0.2, \"rudder\": 0}}]}";
    nv_scenario sc;
    nv_jobs* pool = NULL;
    nv_scenario_instance inst = scenario_world(text, &sc, &pool);
    nv_world* w = inst.world;
    nv_world_vessel_state v[3], a, b, skiff;
    double max = 0.0;
    int pressed = 0, between = 1;
    for (int i = 0; i < steps; i++) {
        nv_world_step(w);
        assert_int_equal(nv_world_read_vessels(w, 0, 3, v), 3);
        a = v[0], b = v[1], skiff = v[2];
        if (i >= rate)
            for (int k = 0; k < 3; k++) max = fmax(max, v[k].penetration);
        pressed += skiff.contact_points == 2;
        between &= a.position.z < skiff.position.z && skiff.position.z < b.position.z;
    }
    print_message("skiff between freighters, %d s: deepest overlap %.4f m; z %.2f | %.2f | %.2f m; pressed by both "
                  "%.1f s, %u contact points at the end\n",
                  steps / rate, max, a.position.z, skiff.position.z, b.position.z, (double)pressed / rate,
                  skiff.contact_points);
    assert_true(max < 0.10);
    assert_true(between);
    /* their bows pinch it, turned in by their helms, and the push there
     * holds their CGs 25-31 m apart: both pressed on it for 31 s of the
     * minute (the whole last 40 s until their rudders met the flow their
     * hulls and screws straighten; now they turn in harder, the pinch
     * moves forward and lets it go after about 53 s, alongside their
     * forebodies while the two freighters touch each other) */
    assert_true(pressed >= 20 * rate);
    assert_int_equal(skiff.flags & (WORLD_VESSEL_FROZEN), 0);
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&sc);
    nv_jobs_destroy(pool);
}

/* Issue 31's raft: 50 patrol boats, five ranks of ten 7 m apart, driven
 * at full throttle onto a quay wall (a box 10 m thick, 200 m long) for a
 * minute: from the second second on, no step leaves two hulls, or a hull
 * and the wall, 5 cm into each other (MPR's normal alone left 2.1 m). */
static void raft_held_at_a_quay(void** state) {
    (void)state;
    const int rate = 60, steps = getenv("NAVAL_TEST_LIGHT") ? 900 : 3600;
    char text[16384];
    size_t len = (size_t)snprintf(text, sizeof text,
                                  "{\"tick_hz\": %d, \"vessel_types\": [\"builtin:patrol\"],"
                                  " \"structures\": [{\"box\": [10, 12, 200], \"position\": [50, -8, 0]}], \"vessels\": [",
                                  rate);
    for (int k = 0; k < 50; k++) {
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "%s{\"type\": \"patrol\", \"position\": [%d, %.1f], \"heading_deg\": 0,"
                                " \"controls\": {\"throttle\": 1, \"rudder\": 0}}",
                                k ? ", " : "", 20 - 30 * (k / 10), (k % 10 - 4.5) * 7.0);
        assert_true(len < sizeof text);
    }
    len += (size_t)snprintf(text + len, sizeof text - len, "]}");
    assert_true(len < sizeof text);
    nv_scenario sc;
    nv_jobs* pool = NULL;
    nv_scenario_instance inst;
    double max;
    double* depth = run_deepest(text, steps, rate, &sc, &pool, &inst, &max);
    uint32_t touching = 0;
    for (uint32_t k = 0; k < nv_world_vessel_count(inst.world); k++)
        touching += test_vessel_state(inst.world, nv_world_vessel_id_at(inst.world, k)).contact_points > 0;
    print_message("raft of 50 at a quay, %d s: deepest overlap %.4f m, %u boats pressing at the end\n", steps / rate, max,
                  touching);
    assert_true(max < 0.05);
    assert_true(touching >= 10); /* the front rank at least, held against the wall */
    free(depth);
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&sc);
    nv_jobs_destroy(pool);
}

/* A catamaran (builtin:catamaran: two hulls 4 m apart, a deck 1.2 m above
 * the keels) coasting at 3 m/s onto a pile 0.6 m square whose top stands
 * 0.25 m above the water. On the centre line the pile fits between the
 * hulls and under the deck: each part is its own convex piece, so it
 * passes with no contact (the one convex hull of the whole boat would
 * have held the pile inside it). In line with a hull it strikes. */
static void catamaran_passes_a_pile(void** state) {
    (void)state;
    for (int in_line = 0; in_line < 2; in_line++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "{\"tick_hz\": 60, \"hull_types\": [{\"name\": \"cat\", \"hull\": \"builtin:catamaran\", \"mass\": 8000}],"
                 " \"structures\": [{\"box\": [0.6, 6.25, 0.6], \"position\": [20, -6, %s]}],"
                 " \"vessels\": [{\"type\": \"cat\", \"position\": [0, 0], \"velocity\": [3, 0, 0]}]}",
                 in_line ? "2" : "0");
        nv_scenario sc;
        nv_jobs* pool = NULL;
        nv_scenario_instance inst = scenario_world(text, &sc, &pool);
        nv_world* w = inst.world;
        uint32_t id = nv_world_vessel_id_at(w, 0), events = 0;
        double deepest = 0.0;
        for (int i = 0; i < 900; i++) {
            nv_world_step(w);
            uint32_t n;
            const nv_world_contact_event* e = nv_world_contact_events(w, &n);
            for (uint32_t k = 0; k < n; k++) events += e[k].structure == 1;
            deepest = fmax(deepest, test_vessel_state(w, id).penetration);
        }
        nv_world_vessel_state s = test_vessel_state(w, id);
        print_message("catamaran, pile %s: x %.2f m, speed %.3f m/s, %u contacts with it, deepest %.4f m\n",
                      in_line ? "in line with a hull" : "on the centre line", s.position.x, s.velocity.x, events, deepest);
        if (!in_line) {
            assert_int_equal(events, 0);
            assert_true(s.position.x > 20.0 + 6.0 + 10.0); /* past it, stern and all */
            ASSERT_NEAR_ABS(s.velocity.x, 3.0, 0.05);
        } else {
            assert_true(events >= 1);
            assert_true(s.position.x < 20.0); /* held at the bow */
            assert_true(deepest < 0.05);
        }
        nv_scenario_instance_destroy(&inst);
        nv_scenario_free(&sc);
        nv_jobs_destroy(pool);
    }
}

/* A hull type of more closed parts than the contacts take (16) is refused,
 * naming the count, before any convex hull is built. */
static void too_many_parts_are_refused(void** state) {
    (void)state;
    nv_mesh m, cube;
    nv_error err;
    nv_mesh_init(&m);
    ASSERT_OK(nv_hullgen_box(&cube, 1.0, 1.0, 1.0, 1, 1, 1, &err), err);
    for (uint32_t k = 0; k < 17; k++) {
        uint32_t base = m.vertex_count;
        for (uint32_t v = 0; v < cube.vertex_count; v++)
            ASSERT_OK(nv_mesh_add_vertex(&m, cube.positions[3 * v] + 2.0f * (float)k, cube.positions[3 * v + 1],
                                         cube.positions[3 * v + 2], &err),
                      err);
        for (uint32_t t = 0; t < 3 * cube.triangle_count; t += 3)
            ASSERT_OK(nv_mesh_add_triangle(&m, base + cube.indices[t], base + cube.indices[t + 1], base + cube.indices[t + 2], &err),
                      err);
    }
    nv_world_config cfg = nv_world_config_default();
    nv_world* w;
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 1025.0 * 17 * 0.5;
    uint32_t type;
    assert_int_equal(nv_world_add_hull_type(w, "rows", &m, &spec, &type, &err), -1);
    assert_non_null(strstr(err.message, "17 separate closed parts; at most 16"));
    nv_world_destroy(w);
    nv_mesh_free(&cube);
    nv_mesh_free(&m);
}

static void same_hash_at_any_thread_count(void** state) {
    (void)state;
    /* 300 boats: the first steps hold colours large enough for the job system */
    uint64_t h1 = crowd_run(1, 300, 30, NULL), h2 = crowd_run(2, 300, 30, NULL), h3 = crowd_run(3, 300, 30, NULL);
    assert_true(h1 == h2);
    assert_true(h1 == h3);
}

/* An argument runs only the tests it names (a cmocka filter): the
 * ThreadSanitizer build runs the thread-count test alone. */
/* A quay wall: a box 10 m thick, 200 m long, from 8 m under the water to
 * 4 m above it, its face at x = 45. A patrol boat at 15 m/s, full ahead,
 * straight at it: it stops at the face without passing it, then, pushed
 * on at a third of its throttle, rests there without jitter. Its heading
 * is held (the yaw rate zeroed before each step, as a tug would): a boat
 * pushed bow first into a wall with its rudder amidships and no way on
 * slews round and slides along it, as real ones do (a hull with ships'
 * manoeuvring forces has little to hold its head at rest), which is not
 * what this tests. */
/* The yaw rate zeroed, the rest of the motion as it is. */
static void hold_heading(nv_world* w, uint32_t id) {
    nv_world_vessel_state v = test_vessel_state(w, id);
    nv_error err;
    ASSERT_OK(nv_world_set_velocity(w, id, v.velocity, v3(v.angular_velocity.x, 0.0, v.angular_velocity.z), &err), err);
}

static void quay_stops_a_boat(void** state) {
    (void)state;
    const char* text =
        "{\"tick_hz\": 30, \"vessel_types\": [\"builtin:patrol\"],"
        " \"vessels\": [{\"type\": \"patrol\", \"position\": [-20, 0], \"heading_deg\": 0,"
        "               \"velocity\": [15, 0, 0], \"controls\": {\"throttle\": 1, \"rudder\": 0}}]}";
    nv_scenario sc;
    nv_scenario_instance inst;
    nv_error err;
    ASSERT_OK(nv_scenario_parse(text, strlen(text), "quay", NULL, &sc, &err), err);
    ASSERT_OK(nv_scenario_instantiate(&sc, NULL, &inst, &err), err);
    nv_world* w = inst.world;
    /* The contact alone: the hull made unbreakable (no hull strength). At
     * 15 m/s the built-in patrol boat's bow would be torn open (Minorsky:
     * 9.9 MJ, about 35 m^2 of its 6 mm shell; test_damage.c) and it would
     * settle by the head against the wall. */
    nv_vessel_type patrol;
    ASSERT_OK(nv_vessel_type_builtin("patrol", &patrol, &err), err);
    patrol.compartments.damage.plating = 0.0;
    nv_mesh hull;
    ASSERT_OK(nv_vessel_type_load_mesh(&patrol, &hull, &err), err);
    nv_compartment_set cs;
    ASSERT_OK(nv_vessel_type_compartments(&patrol, &hull, nv_world_hull_type(w, 0)->body.cg, &cs, &err), err);
    ASSERT_OK(nv_world_set_type_compartments(w, 0, &cs, &err), err);
    nv_compartment_set_free(&cs);
    nv_mesh_free(&hull);
    nv_mesh m;
    ASSERT_OK(nv_hullgen_box(&m, 10.0, 200.0, 12.0, 2, 2, 2, &err), err); /* L along x, B along z, H */
    uint32_t quay;
    ASSERT_OK(nv_world_add_structure(w, &m, v3(50.0, -8.0, 0.0), 0.0, &quay, &err), err);
    nv_mesh_free(&m);
    assert_int_equal(nv_world_structure_count(w), 1);
    uint32_t id = nv_world_vessel_id_at(w, 0), events = 0;
    const nv_hull* h = nv_world_hull_type(w, 0);
    double bow = 0.0, deepest = 0.0;
    for (int i = 0; i < 10 * 30; i++) {
        hold_heading(w, id);
        nv_world_step(w);
        nv_world_vessel_state v = test_vessel_state(w, id);
        bow = fmax(bow, v.position.x + h->bounds_max[0]);
        deepest = fmax(deepest, v.penetration);
        uint32_t n;
        const nv_world_contact_event* e = nv_world_contact_events(w, &n);
        for (uint32_t k = 0; k < n; k++) {
            assert_true(e[k].id_a == id && e[k].id_b == WORLD_CONTACT_GROUND && e[k].structure == quay + 1);
            if (!events) ASSERT_NEAR_ABS(e[k].normal.x, -1.0, 0.05);
            events++;
        }
    }
    ASSERT_OK(nv_world_set_controls(w, id, 0.3, 0.0, &err), err);
    double fastest = 0.0;
    for (int i = 0; i < 20 * 30; i++) {
        hold_heading(w, id);
        nv_world_step(w);
        nv_world_vessel_state v = test_vessel_state(w, id);
        bow = fmax(bow, v.position.x + h->bounds_max[0]);
        if (i >= 15 * 30) fastest = fmax(fastest, v3_length(v.velocity));
    }
    nv_world_vessel_state v = test_vessel_state(w, id);
    print_message("quay: bow at most %.3f m (face 45), deepest %.4f m, %u events, last 5 s fastest %.4f m/s\n", bow,
                  deepest, events, fastest);
    assert_true(events >= 1);
    assert_true(bow < 45.0 + 0.1);                             /* never through the face */
    assert_true(v.position.x + h->bounds_max[0] > 45.0 - 1.0); /* and resting on it */
    assert_true(fastest < 0.01);                               /* without jitter */
    assert_false(v.flags & WORLD_VESSEL_GROUNDED);             /* a quay is not the ground */
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&sc);
}

/* A structure must be a closed mesh with a finite pose. */
static void structures_are_checked(void** state) {
    (void)state;
    uint32_t type, k;
    nv_world* w = box_world(NULL, 10.0, 4.0, &type);
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_box(&m, 10.0, 10.0, 10.0, 1, 1, 1, &err), err);
    assert_int_equal(nv_world_add_structure(w, &m, v3(NAN, 0, 0), 0.0, &k, &err), -1);
    assert_non_null(strstr(err.message, "finite"));
    m.triangle_count -= 1; /* a hole */
    assert_int_equal(nv_world_add_structure(w, &m, v3(0, 0, 0), 0.0, &k, &err), -1);
    assert_non_null(strstr(err.message, "structure"));
    assert_int_equal(nv_world_structure_count(w), 0);
    nv_mesh_free(&m);
    nv_world_destroy(w);
}

int main(int argc, char** argv) {
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(head_on_keeps_momentum),
        cmocka_unit_test(floaters_meet_head_on),
        cmocka_unit_test(glancing_blow_yaws_both),
        cmocka_unit_test(no_tunnelling_at_twenty_metres_a_second),
        cmocka_unit_test(crowd_comes_apart),
        cmocka_unit_test(crowd_of_120_stays_apart),
        cmocka_unit_test(skiff_held_between_freighters),
        cmocka_unit_test(raft_held_at_a_quay),
        cmocka_unit_test(quay_stops_a_boat),
        cmocka_unit_test(structures_are_checked),
        cmocka_unit_test(catamaran_passes_a_pile),
        cmocka_unit_test(too_many_parts_are_refused),
        cmocka_unit_test(same_hash_at_any_thread_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
