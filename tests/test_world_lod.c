// SPDX-License-Identifier: MIT
/* Levels of detail in the world: per-vessel models, switches that keep the
 * pose, the automatic choice by distance from the players, and determinism
 * with mixed models. */
#include <math.h>
#include <string.h>

#include "floater.h"
#include "naval/hullgen.h"
#include "naval/jobs.h"
#include "naval/particulars.h"
#include "naval/statics.h"
#include "naval/vessel_type.h"
#include "naval/world.h"
#include "test_util.h"

typedef struct lod_world {
    nv_world* w;
    nv_jobs* pool;
    uint32_t type;
} lod_world;

static void lod_world_make(lod_world* t, uint32_t threads, int with_columns) {
    nv_error err;
    t->pool = NULL;
    if (threads > 1) ASSERT_OK(nv_jobs_create(&t->pool, threads, &err), err);
    nv_world_config cfg = nv_world_config_default();
    cfg.linear_damping = 0.05;
    cfg.angular_damping = 0.3;
    ASSERT_OK(nv_world_create(&t->w, &cfg, t->pool, &err), err);
    nv_mesh m;
    ASSERT_OK(nv_hullgen_build("patrol", 0, &m, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.density = 450.0; /* floats at about half its depth */
    ASSERT_OK(nv_world_add_hull_type(t->w, "patrol", &m, &spec, &t->type, &err), err);
    nv_mesh_free(&m);
    if (with_columns) ASSERT_OK(nv_world_build_type_columns(t->w, t->type, 20, 5, &err), err);
}

static void lod_world_free(lod_world* t) {
    nv_world_destroy(t->w);
    nv_jobs_destroy(t->pool);
}

static uint32_t lod_spawn(lod_world* t, double x, double z, double drop) {
    nv_error err;
    double y;
    ASSERT_OK(nv_statics_balance_height_of(nv_world_hull_type(t->w, t->type), 1025.0, 9.81, quat_identity(), &y, &err),
              err);
    uint32_t id;
    ASSERT_OK(nv_world_spawn(t->w, t->type, v3(x, y + drop, z), quat_identity(), &id, &err), err);
    return id;
}

/* A world on flat water with one built-in vessel type, its dynamics and
 * 20 x 5 columns; *y the CG height at which it floats upright at rest. */
static nv_world* lod_builtin_world(const char* name, uint32_t* type, double* y) {
    nv_error err;
    nv_vessel_type vt;
    ASSERT_OK(nv_vessel_type_builtin(name, &vt, &err), err);
    nv_world_config cfg = nv_world_config_default();
    nv_world* w;
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, &err), err);
    nv_mesh m;
    ASSERT_OK(nv_vessel_type_load_mesh(&vt, &m, &err), err);
    ASSERT_OK(nv_world_add_hull_type(w, vt.name, &m, &vt.mass, type, &err), err);
    nv_mesh_free(&m);
    ASSERT_OK(nv_world_set_type_dynamics(w, *type, &vt.dynamics, &err), err);
    ASSERT_OK(nv_world_build_type_columns(w, *type, 20, 5, &err), err);
    ASSERT_OK(nv_statics_balance_height_of(nv_world_hull_type(w, *type), 1025.0, 9.81, quat_identity(), y, &err), err);
    return w;
}

static nv_world_vessel_state lod_state_of(nv_world* w, uint32_t id) {
    nv_world_vessel_state s;
    assert_int_equal(nv_world_vessel_get(w, id, &s), 0);
    return s;
}

static nv_world_vessel_state lod_state(const lod_world* t, uint32_t id) { return lod_state_of(t->w, id); }

/* Columns float the patrol boat at the mesh model's draft (within
 * 3 %), and a
 * switch in either direction leaves the pose where it was. */
static void columns_float_like_the_mesh(void** state) {
    (void)state;
    lod_world t;
    lod_world_make(&t, 1, 1);
    nv_error err;
    uint32_t a = lod_spawn(&t, 0, 0, 0.3), b = lod_spawn(&t, 100, 0, 0.3);
    ASSERT_OK(nv_world_set_vessel_model(t.w, b, WORLD_MODEL_COLUMNS, &err), err);
    for (int i = 0; i < 60 * 40; i++) nv_world_step(t.w);
    nv_world_vessel_state sa = lod_state(&t, a), sb = lod_state(&t, b);
    assert_int_equal(sb.model, WORLD_MODEL_COLUMNS);
    const nv_hull* h = nv_world_hull_type(t.w, t.type);
    double keel_a = sa.position.y + h->bounds_min[1], keel_b = sb.position.y + h->bounds_min[1];
    double trim_a, trim_b;
    nv_statics_attitude(sa.orientation, NULL, &trim_a, NULL);
    nv_statics_attitude(sb.orientation, NULL, &trim_b, NULL);
    printf("patrol at rest: draft mesh %.3f m (trim %.2f deg), columns %.3f m (trim %.2f deg), vy %.4f\n", -keel_a,
           trim_a, -keel_b, trim_b, sb.velocity.y);
    ASSERT_NEAR_REL(-keel_b, -keel_a, 0.03);
    /* switch both ways: same pose right after, and no jump over a step */
    nv_world_vessel_state before = lod_state(&t, b);
    ASSERT_OK(nv_world_set_vessel_model(t.w, b, WORLD_MODEL_MESH, &err), err);
    nv_world_vessel_state after = lod_state(&t, b);
    assert_true(after.position.y == before.position.y && after.orientation.w == before.orientation.w);
    nv_world_step(t.w);
    after = lod_state(&t, b);
    assert_true(fabs(after.position.y - before.position.y) < 0.01);
    nv_world_destroy(t.w);
}

static void model_errors_are_named(void** state) {
    (void)state;
    lod_world t;
    lod_world_make(&t, 1, 0);
    nv_error err;
    uint32_t a = lod_spawn(&t, 0, 0, 0);
    assert_int_equal(nv_world_set_vessel_model(t.w, a, WORLD_MODEL_COLUMNS, &err), -1);
    assert_non_null(strstr(err.message, "no column model"));
    assert_int_equal(nv_world_set_vessel_model(t.w, 77, WORLD_MODEL_MESH, &err), -1);
    assert_int_equal(nv_world_set_vessel_model(t.w, a, (nv_world_model)9, &err), -1);
    nv_world_destroy(t.w);
}

/* A line of boats away from one player: mesh near, columns farther, and
 * the border does not flap when a boat sits on it. */
static void automatic_levels_by_distance(void** state) {
    (void)state;
    lod_world t;
    lod_world_make(&t, 1, 1);
    nv_error err;
    uint32_t player = lod_spawn(&t, 0, 0, 0);
    ASSERT_OK(nv_world_set_player(t.w, player, 1, &err), err);
    uint32_t near = lod_spawn(&t, 100, 0, 0), mid = lod_spawn(&t, 800, 0, 0), edge = lod_spawn(&t, 310, 0, 0);
    uint32_t far = lod_spawn(&t, 0, 3000, 0);
    nv_world_lod lod = nv_world_lod_default();
    lod.enabled = 1;
    nv_world_set_lod(t.w, &lod);
    nv_world_step(t.w);
    assert_int_equal(lod_state(&t, player).model, WORLD_MODEL_MESH);
    assert_int_equal(lod_state(&t, near).model, WORLD_MODEL_MESH);
    assert_int_equal(lod_state(&t, mid).model, WORLD_MODEL_COLUMNS);
    /* 310 m is past 300 m but within the 10 % hysteresis: it came in
     * as mesh, so it stays mesh */
    assert_int_equal(lod_state(&t, edge).model, WORLD_MODEL_MESH);
    assert_int_equal(lod_state(&t, far).model, WORLD_MODEL_FLOATER);
    /* the player sails toward the far boat: it comes back to the mesh */
    for (int i = 0; i < 2; i++) { /* to 200 m from it */
        nv_world_vessel_state p = lod_state(&t, player);
        ASSERT_OK(nv_world_despawn(t.w, player, &err), err);
        player = lod_spawn(&t, p.position.x, p.position.z + 1400.0, 0);
        ASSERT_OK(nv_world_set_player(t.w, player, 1, &err), err);
        nv_world_step(t.w);
    }
    assert_int_equal(lod_state(&t, far).model, WORLD_MODEL_MESH);
    lod_world_free(&t);
}

/* A floater on a long swell rides it: its height follows the surface at
 * its position, and it keeps its course and speed. */
static void floater_rides_the_swell(void** state) {
    (void)state;
    lod_world t;
    lod_world_make(&t, 1, 0);
    nv_water_sine wave;
    assert_int_equal(nv_water_sine_init(&wave, 1.0, 120.0, 0.0, 9.81), 0);
    nv_world_water water = {&wave.base, NULL, NULL};
    nv_world_set_water(t.w, &water);
    nv_error err;
    uint32_t id = lod_spawn(&t, 0, 0, 0);
    ASSERT_OK(nv_world_set_velocity(t.w, id, v3(0, 0, 3), v3(0, 0, 0), &err), err);
    ASSERT_OK(nv_world_set_vessel_model(t.w, id, WORLD_MODEL_FLOATER, &err), err);
    double rest;
    ASSERT_OK(nv_statics_balance_height_of(nv_world_hull_type(t.w, t.type), 1025.0, 9.81, quat_identity(), &rest, &err),
              err);
    double worst = 0.0;
    for (int i = 0; i < 60 * 20; i++) {
        nv_water_sine_set_time(&wave, nv_world_time(t.w));
        nv_world_step(t.w);
        nv_world_vessel_state st = lod_state(&t, id);
        if (i > 60) { /* after the follower's own settling */
            double x = st.position.x, z = st.position.z;
            double q[1] = {0}, height;
            float h;
            q[0] = x;
            nv_water_query wq = {.count = 1, .x = q, .z = &z, .height = &h};
            water_sample(&wave.base, &wq);
            height = h;
            double err_y = fabs(st.position.y - rest - height);
            if (err_y > worst) worst = err_y;
        }
    }
    nv_world_vessel_state st = lod_state(&t, id);
    printf("floater on a 1 m, 120 m swell: worst height lag %.3f m; travelled z %.1f m in 20 s\n", worst,
           st.position.z);
    assert_true(worst < 0.4); /* a 1 m swell: the smoothing lags but follows */
    ASSERT_NEAR_REL(st.position.z, 3.0 * 20.0, 0.01);
    assert_true(st.model == WORLD_MODEL_FLOATER);
    lod_world_free(&t);
}

/* A floater standing in for a hull tilts with the wave as two samples at
 * the waterplane's reach see it (nv_particulars), not with the slope under
 * its centre: on a 30 m wave, near the patrol boat's 24 m, its largest
 * trim is atan(A sin(k r) / r), about half the wave's own A k. */
static void floater_tilts_with_its_waterplane(void** state) {
    (void)state;
    lod_world t;
    lod_world_make(&t, 1, 0);
    const double amp = 0.5, lambda = 30.0, k = 2.0 * NV_PI / lambda;
    nv_water_sine wave;
    assert_int_equal(nv_water_sine_init(&wave, amp, lambda, 0.0, 9.81), 0);
    nv_world_water water = {&wave.base, NULL, NULL};
    nv_world_set_water(t.w, &water);
    nv_error err;
    nv_particulars p;
    ASSERT_OK(nv_particulars_compute(nv_world_hull_type(t.w, t.type), 1025.0, 9.81, 0.0, &p, &err), err);
    assert_true(p.reach_long > 0.25 * p.length && p.reach_long < 0.5 * p.length);
    uint32_t id = lod_spawn(&t, 0, 0, 0);
    ASSERT_OK(nv_world_set_vessel_model(t.w, id, WORLD_MODEL_FLOATER, &err), err);
    double worst = 0.0;
    for (int i = 0; i < 60 * 10; i++) {
        nv_water_sine_set_time(&wave, nv_world_time(t.w));
        nv_world_step(t.w);
        nv_world_vessel_state st = lod_state(&t, id);
        nv_vec3 up = quat_rotate(st.orientation, v3(0, 1, 0));
        worst = fmax(worst, acos(fmin(1.0, up.y)));
    }
    double want = atan(amp * sin(k * p.reach_long) / p.reach_long);
    printf("floater on a 0.5 m, 30 m wave: largest trim %.3f deg (waterplane %.3f, the wave's slope %.3f)\n",
           worst * 180.0 / NV_PI, want * 180.0 / NV_PI, atan(amp * k) * 180.0 / NV_PI);
    ASSERT_NEAR_REL(worst, want, 0.01);
    lod_world_free(&t);
}

/* A floater lying still on a wave that runs across its heading keeps the
 * heading: read back through the tilt each step (floater_heading_of), not
 * as the bow's bearing, which turns with the tilt and made the heading
 * wander with the waves' slope. One under way goes where it heads: its
 * surge and sway are resolved along that heading too. */
static void floater_keeps_its_heading_on_a_slanting_sea(void** state) {
    (void)state;
    lod_world t;
    lod_world_make(&t, 1, 0);
    nv_water_sine wave;
    assert_int_equal(nv_water_sine_init(&wave, 1.0, 40.0, 0.8, 9.81), 0); /* 46 degrees off the bow */
    nv_world_water water = {&wave.base, NULL, NULL};
    nv_world_set_water(t.w, &water);
    nv_error err;
    uint32_t id = lod_spawn(&t, 0, 0, 0);
    ASSERT_OK(nv_world_set_vessel_model(t.w, id, WORLD_MODEL_FLOATER, &err), err);
    double worst = 0.0, tilt = 0.0, crab = 0.0;
    for (int i = 0; i < 60 * 30; i++) {
        nv_water_sine_set_time(&wave, nv_world_time(t.w));
        nv_world_step(t.w);
        nv_world_vessel_state st = lod_state(&t, id);
        worst = fmax(worst, fabs(floater_heading_of(st.orientation)));
        tilt = fmax(tilt, acos(fmin(1.0, quat_rotate(st.orientation, v3(0, 1, 0)).y)));
    }
    printf("floater across a 1 m, 40 m wave for 30 s: tilt up to %.1f deg, heading within %.2e rad\n",
           tilt * 180.0 / NV_PI, worst);
    assert_true(tilt > 3.0 * NV_PI / 180.0); /* the sea does tilt it */
    assert_true(worst < 1e-5);
    /* under way, with a type's actuators and resistance: no crabbing */
    lod_world_free(&t);
    nv_vessel_type vt;
    ASSERT_OK(nv_vessel_type_builtin("patrol", &vt, &err), err);
    nv_world_config cfg = nv_world_config_default();
    ASSERT_OK(nv_world_create(&t.w, &cfg, NULL, &err), err);
    t.pool = NULL;
    nv_mesh m;
    ASSERT_OK(nv_vessel_type_load_mesh(&vt, &m, &err), err);
    ASSERT_OK(nv_world_add_hull_type(t.w, vt.name, &m, &vt.mass, &t.type, &err), err);
    nv_mesh_free(&m);
    ASSERT_OK(nv_world_set_type_dynamics(t.w, t.type, &vt.dynamics, &err), err);
    nv_world_set_water(t.w, &water);
    id = lod_spawn(&t, 0, 0, 0);
    ASSERT_OK(nv_world_set_vessel_model(t.w, id, WORLD_MODEL_FLOATER, &err), err);
    ASSERT_OK(nv_world_set_controls(t.w, id, 1.0, 0.0, &err), err);
    for (int i = 0; i < 60 * 30; i++) {
        nv_water_sine_set_time(&wave, nv_world_time(t.w));
        nv_world_step(t.w);
        nv_world_vessel_state st = lod_state(&t, id);
        double h = floater_heading_of(st.orientation), speed = hypot(st.velocity.x, st.velocity.z);
        if (speed > 0.5) crab = fmax(crab, fabs(remainder(atan2(-st.velocity.z, st.velocity.x) - h, 2.0 * NV_PI)));
    }
    printf("under way at full throttle: its track within %.2e rad of its heading\n", crab);
    assert_true(crab < 1e-6);
    lod_world_free(&t);
}

/* Mixed models step to the same bits on 1, 2 and 3 threads. */
static void mixed_models_are_deterministic(void** state) {
    (void)state;
    uint64_t hashes[3];
    for (uint32_t k = 0; k < 3; k++) {
        lod_world t;
        lod_world_make(&t, k + 1, 1);
        nv_error err;
        for (int i = 0; i < 12; i++) {
            uint32_t id = lod_spawn(&t, 60.0 * i, 30.0 * (i % 3), 0.2 * (i % 4));
            ASSERT_OK(nv_world_set_velocity(t.w, id, v3(2, 0, 1), v3(0, 0.05, 0), &err), err);
            if (i % 3 == 1) ASSERT_OK(nv_world_set_vessel_model(t.w, id, WORLD_MODEL_COLUMNS, &err), err);
            if (i % 3 == 2) ASSERT_OK(nv_world_set_vessel_model(t.w, id, WORLD_MODEL_FLOATER, &err), err);
        }
        for (int i = 0; i < 120; i++) nv_world_step(t.w);
        hashes[k] = nv_world_state_hash(t.w);
        lod_world_free(&t);
    }
    assert_true(hashes[0] == hashes[1] && hashes[1] == hashes[2]);
}

/* Floaters are stepped in chunks, one water query per chunk: each one
 * ends where it would alone in a world (a chunk of one), bit for bit,
 * on any thread count. */
static void floater_batches_match_one_by_one(void** state) {
    (void)state;
    nv_water_sine wave;
    assert_int_equal(nv_water_sine_init(&wave, 1.0, 90.0, 0.4, 9.81), 0);
    nv_world_water water = {&wave.base, NULL, NULL};
    nv_error err;
    enum { N = 150 }; /* three chunks, the last one partial */
    lod_world many;
    lod_world_make(&many, 3, 0);
    nv_world_set_water(many.w, &water);
    uint32_t ids[N];
    for (int i = 0; i < N; i++) {
        ids[i] = lod_spawn(&many, 37.0 * (i % 15), 41.0 * (i / 15), 0.1 * (i % 5));
        ASSERT_OK(nv_world_set_velocity(many.w, ids[i], v3(1.0 + 0.01 * i, 0, -2), v3(0, 0.02 * (i % 7), 0), &err),
                  err);
        ASSERT_OK(nv_world_set_vessel_model(many.w, ids[i], WORLD_MODEL_FLOATER, &err), err);
    }
    const int checked[] = {0, 63, 64, 100, 149};
    for (size_t c = 0; c < sizeof checked / sizeof checked[0]; c++) {
        int i = checked[c];
        lod_world one;
        lod_world_make(&one, 1, 0);
        nv_world_set_water(one.w, &water);
        uint32_t id = lod_spawn(&one, 37.0 * (i % 15), 41.0 * (i / 15), 0.1 * (i % 5));
        ASSERT_OK(nv_world_set_velocity(one.w, id, v3(1.0 + 0.01 * i, 0, -2), v3(0, 0.02 * (i % 7), 0), &err), err);
        ASSERT_OK(nv_world_set_vessel_model(one.w, id, WORLD_MODEL_FLOATER, &err), err);
        for (int k = 0; k < 90; k++) {
            nv_water_sine_set_time(&wave, nv_world_time(one.w));
            nv_world_step(one.w);
        }
        if (c == 0)
            for (int k = 0; k < 90; k++) {
                nv_water_sine_set_time(&wave, nv_world_time(many.w));
                nv_world_step(many.w);
            }
        nv_world_vessel_state a = lod_state(&one, id), b = lod_state(&many, ids[i]);
        assert_true(a.position.x == b.position.x && a.position.y == b.position.y && a.position.z == b.position.z);
        assert_true(a.orientation.w == b.orientation.w && a.orientation.x == b.orientation.x &&
                    a.orientation.y == b.orientation.y && a.orientation.z == b.orientation.z);
        assert_true(a.velocity.y == b.velocity.y);
        assert_true(fabs(b.position.z - (-2.0 * 90 / 60.0 + 41.0 * (i / 15))) < 1e-9);
        lod_world_free(&one);
    }
    lod_world_free(&many);
}

/* The automatic choice for thousands of vessels and several players, as
 * jobs: every vessel gets the model a direct search of the nearest player
 * gives, on 1 and 3 threads alike, and its time is in the step's. */
static void automatic_choice_matches_a_direct_search(void** state) {
    (void)state;
    enum { N = 2000, PLAYERS = 5 };
    static nv_world_model got[2][N];
    for (uint32_t k = 0; k < 2; k++) {
        lod_world t;
        lod_world_make(&t, k ? 3 : 1, 1);
        nv_error err;
        uint64_t rng = 12345;
        static double x[N], z[N];
        static uint32_t ids[N];
        for (int i = 0; i < N; i++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            x[i] = (double)(rng >> 40) / (double)(1ull << 24) * 6000.0 - 3000.0;
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            z[i] = (double)(rng >> 40) / (double)(1ull << 24) * 6000.0 - 3000.0;
            ids[i] = lod_spawn(&t, x[i], z[i], 0);
            if (i % (N / PLAYERS) == 0) ASSERT_OK(nv_world_set_player(t.w, ids[i], 1, &err), err);
        }
        nv_world_lod lod = nv_world_lod_default();
        lod.enabled = 1;
        nv_world_set_lod(t.w, &lod);
        nv_world_step(t.w);
        const nv_world_timing* tm = nv_world_last_timing(t.w);
        assert_true(tm->lod_ms > 0.0 && tm->step_ms >= tm->lod_ms);
        for (int i = 0; i < N; i++) {
            double best = INFINITY;
            for (int p = 0; p < N; p += N / PLAYERS) best = fmin(best, hypot(x[p] - x[i], z[p] - z[i]));
            /* every vessel came in on the mesh: the hysteresis widens both edges */
            nv_world_model want = best < lod.mesh_within * (1 + lod.hysteresis)      ? WORLD_MODEL_MESH
                               : best < lod.columns_within * (1 + lod.hysteresis) ? WORLD_MODEL_COLUMNS
                                                                                  : WORLD_MODEL_FLOATER;
            if (i % (N / PLAYERS) == 0) want = WORLD_MODEL_MESH;
            got[k][i] = lod_state(&t, ids[i]).model;
            assert_int_equal(got[k][i], want);
        }
        lod_world_free(&t);
    }
    assert_memory_equal(got[0], got[1], sizeof got[0]);
}

/* A far boat on the columns or a floater goes as fast and turns as it
 * would on the mesh: both carry the mesh's own resistance in surge, sway
 * and yaw (fitted from the triangle pass once per type) against their
 * actuators, not a generic damping (which ran the skiff at 39 m/s and the
 * freighter at 1.4 against 13.9 and 6.9 on the columns, and turned none of
 * them) or none (a floater kept whatever velocity it had, whatever its
 * controls). Each built-in type on flat water, the same controls on the
 * three models, side by side 2 km apart. */
static void far_models_keep_the_mesh_speed_and_turn(void** state) {
    (void)state;
    /* the skiff planes on the mesh (its planing lift raises it 0.3 m: less
     * wetted hull, less drag, its rudder clear of the water, and it banks
     * into a turn); the far models take its running attitude from
     * Savitsky's, fading in over the hump as the mesh's lift does: its
     * half throttle (Cv 1.8) within 10 % (docs/lod.md). Hard over from
     * rest, the mesh skiff can circle on the hump at 9.5 m/s for about a
     * minute before it planes (its roll damped on the plane, since
     * 2026-11-30: docs/hydrodynamics.md "The planing lift"), so it runs
     * 150 s to its steady turn */
    const char* names[] = {"skiff", "patrol", "freighter"};
    const double speed_tol[] = {0.10, 0.05, 0.05}, run_s[] = {150.0, 120.0, 240.0};
    const double yaw_factor[] = {2.0, 2.0, 2.0};
    const double controls[3][2] = {{1.0, 0.0}, {0.5, 0.0}, {1.0, 0.5}};
    for (int k = 0; k < 3; k++) {
        nv_error err;
        uint32_t type;
        double y;
        nv_world* w = lod_builtin_world(names[k], &type, &y);
        uint32_t id[3][3];
        for (int c = 0; c < 3; c++)
            for (int model = 0; model < 3; model++) {
                ASSERT_OK(nv_world_spawn(w, type, v3(0.0, y, 2000.0 * (3 * c + model)), quat_identity(), &id[c][model],
                                         &err),
                          err);
                ASSERT_OK(nv_world_set_controls(w, id[c][model], controls[c][0], controls[c][1], &err), err);
                if (model)
                    ASSERT_OK(nv_world_set_vessel_model(w, id[c][model], (nv_world_model)model, &err), err);
            }
        for (int i = 0; i < (int)(run_s[k] * 60.0); i++) nv_world_step(w);
        static const char* const model_names[3] = {"mesh", "columns", "floater"};
        for (int c = 0; c < 3; c++)
            for (int model = 1; model < 3; model++) {
                nv_world_vessel_state a, b;
                assert_int_equal(nv_world_vessel_get(w, id[c][0], &a), 0);
                assert_int_equal(nv_world_vessel_get(w, id[c][model], &b), 0);
                assert_int_equal(b.model, model);
                double sa = hypot(a.velocity.x, a.velocity.z), sb = hypot(b.velocity.x, b.velocity.z);
                double ra = a.angular_velocity.y * 180.0 / NV_PI, rb = b.angular_velocity.y * 180.0 / NV_PI;
                printf("%-9s throttle %.1f rudder %.1f: speed mesh %.2f, %s %.2f m/s (%+.0f %%); yaw rate mesh %.2f, "
                       "%s %.2f deg/s\n",
                       names[k], controls[c][0], controls[c][1], sa, model_names[model], sb, 100.0 * (sb / sa - 1.0), ra,
                       model_names[model], rb);
                assert_true(sa > 1.0);
                /* in a turn the mesh also heels and drifts: twice the bound */
                ASSERT_NEAR_REL(sb, sa, controls[c][1] != 0.0 ? 2.0 * speed_tol[k] : speed_tol[k]);
                if (controls[c][1] != 0.0) {
                    /* the same sense, within a factor of 2: a fit of the
                     * hull going straight and turning apart, not of it
                     * heeled in a drifting turn */
                    assert_true(ra * rb > 0.0);
                    assert_true(fabs(rb) > fabs(ra) / yaw_factor[k] && fabs(rb) < yaw_factor[k] * fabs(ra));
                } else {
                    assert_true(fabs(rb) < 0.01);
                }
            }
        nv_world_destroy(w);
    }
}

/* The same skiff on the mesh and on the columns, 3 km apart, at full
 * throttle for 60 s in regular waves 0.4 m x 25 m travelling `dir`
 * degrees off its heading (amp 0: flat water): over the last 40 s, the
 * largest tilt, the rms heel, the mean speed, and whether it capsized. */
typedef struct skiff_ride {
    double tilt_max[2], heel_rms[2], speed[2];
    int capsized[2];
} skiff_ride;

static skiff_ride skiff_ride_run(double amp, double dir) {
    skiff_ride out;
    memset(&out, 0, sizeof out);
    nv_error err;
    uint32_t type;
    double y;
    nv_world* w = lod_builtin_world("skiff", &type, &y);
    nv_water_sine wave;
    assert_int_equal(nv_water_sine_init(&wave, amp > 0.0 ? amp : 1.0, 25.0, dir * NV_PI / 180.0, 9.81), 0);
    nv_world_water water = {&wave.base, NULL, NULL};
    if (amp > 0.0) nv_world_set_water(w, &water);
    uint32_t id[2];
    for (int k = 0; k < 2; k++) {
        ASSERT_OK(nv_world_spawn(w, type, v3(0.0, y, 3000.0 * k), quat_identity(), &id[k], &err), err);
        ASSERT_OK(nv_world_set_controls(w, id[k], 1.0, 0.0, &err), err);
    }
    ASSERT_OK(nv_world_set_vessel_model(w, id[1], WORLD_MODEL_COLUMNS, &err), err);
    int n = 0;
    for (int i = 0; i < 60 * 60; i++) {
        nv_water_sine_set_time(&wave, nv_world_time(w));
        nv_world_step(w);
        if (i < 20 * 60) continue; /* up to speed */
        n++;
        for (int k = 0; k < 2; k++) {
            nv_world_vessel_state st = lod_state_of(w, id[k]);
            double heel, tilt;
            nv_statics_attitude(st.orientation, &heel, NULL, &tilt);
            out.tilt_max[k] = fmax(out.tilt_max[k], tilt);
            out.heel_rms[k] += heel * heel;
            out.speed[k] += hypot(st.velocity.x, st.velocity.z);
            out.capsized[k] |= nv_world_capsized(st.orientation);
        }
    }
    for (int k = 0; k < 2; k++) out.heel_rms[k] = sqrt(out.heel_rms[k] / n), out.speed[k] /= n;
    nv_world_destroy(w);
    return out;
}

/* Under way a hull's damping of roll, pitch and heave grows with its
 * speed (the triangles' pressure drag grows with the whole flow's), and
 * the columns, whose own damping is the hull's at rest, take that on
 * (dynamics_hull_drag_apply). Without it a column skiff at full throttle
 * capsized in regular head seas that the mesh skiff crosses with its
 * heel under a degree. In head seas a hull also buries its bow in the
 * crests and slows: the columns' resistance grows with the hull immersed
 * past its rest volume (capped there, the column skiff ran faster in
 * these seas than on flat water, 19.1 against 16.0 m/s). */
static void column_skiff_rides_the_seas_under_way(void** state) {
    (void)state;
    const skiff_ride flat = skiff_ride_run(0.0, 0.0);
    const double dirs[2] = {180.0, 135.0}; /* the waves' travel from the bow's heading: head seas, bow seas */
    for (int c = 0; c < 2; c++) {
        skiff_ride r = skiff_ride_run(0.4, dirs[c]);
        printf("skiff at full throttle, waves 0.4 m x 25 m travelling %.0f deg off its heading: mesh heel rms %.2f, "
               "tilt max %.1f deg, %.2f m/s (%.2f on flat water); columns %.2f, %.1f deg, %.2f m/s (%.2f)\n",
               dirs[c], r.heel_rms[0], r.tilt_max[0], r.speed[0], flat.speed[0], r.heel_rms[1], r.tilt_max[1],
               r.speed[1], flat.speed[1]);
        assert_false(r.capsized[0]);
        assert_false(r.capsized[1]);
        assert_true(r.tilt_max[1] < 2.0 * r.tilt_max[0]);
        if (c == 0) {
            assert_true(r.speed[0] < 0.9 * flat.speed[0]); /* the mesh slows in head seas */
            assert_true(r.speed[1] < 0.9 * flat.speed[1]); /* and so do the columns */
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(columns_float_like_the_mesh),
        cmocka_unit_test(far_models_keep_the_mesh_speed_and_turn),
        cmocka_unit_test(column_skiff_rides_the_seas_under_way),
        cmocka_unit_test(model_errors_are_named),
        cmocka_unit_test(automatic_levels_by_distance),
        cmocka_unit_test(floater_rides_the_swell),
        cmocka_unit_test(floater_tilts_with_its_waterplane),
        cmocka_unit_test(floater_keeps_its_heading_on_a_slanting_sea),
        cmocka_unit_test(mixed_models_are_deterministic),
        cmocka_unit_test(floater_batches_match_one_by_one),
        cmocka_unit_test(automatic_choice_matches_a_direct_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
