// SPDX-License-Identifier: MIT
/* The world pipeline: bit-identical for any thread count, equal to the
 * single-vessel reference, stable ids, and a vessel gone non-finite is
 * frozen without touching the others. */
#include <math.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "naval/checkpoint.h"
#include "naval/hullgen.h"
#include "naval/jobs.h"
#include "naval/statics.h"
#include "naval/vessel_type.h"
#include "naval/world.h"
#include "test_util.h"
#include "vessel.h"
#include "world_internal.h" /* the id table's handles and room */

typedef struct test_world {
    nv_world* w;
    nv_jobs* pool;
    nv_water_sine wave;
    nv_world_water water;
} test_world;

/* Two hull types, a fleet at assorted poses and speeds on a travelling wave. */
static void test_world_make(test_world* t, uint32_t threads, uint32_t triangle_block, int boats) {
    nv_error err;
    t->pool = NULL;
    if (threads > 1) ASSERT_OK(nv_jobs_create(&t->pool, threads, &err), err);
    nv_world_config cfg = nv_world_config_default();
    cfg.triangle_block = triangle_block;
    cfg.vertex_block = 64;
    cfg.linear_damping = 0.1;
    cfg.angular_damping = 0.2;
    ASSERT_OK(nv_world_create(&t->w, &cfg, t->pool, &err), err);
    assert_int_equal(nv_water_sine_init(&t->wave, 0.8, 60.0, 0.4, 9.81), 0);
    t->water.surface = &t->wave.base;
    t->water.update = NULL;
    nv_world_set_water(t->w, &t->water);
    nv_mesh m;
    uint32_t ship, barge;
    nv_mass_spec spec = nv_mass_spec_default();
    ASSERT_OK(nv_hullgen_build("ship", 500, &m, &err), err);
    spec.mass = 600e3;
    ASSERT_OK(nv_world_add_hull_type(t->w, "ship", &m, &spec, &ship, &err), err);
    nv_mesh_free(&m);
    ASSERT_OK(nv_hullgen_build("barge", 300, &m, &err), err);
    spec.mass = 40e3;
    ASSERT_OK(nv_world_add_hull_type(t->w, "barge", &m, &spec, &barge, &err), err);
    nv_mesh_free(&m);
    test_rng rng = {99};
    for (int i = 0; i < boats; i++) {
        uint32_t id;
        nv_vec3 pos = v3(test_rng_uniform(&rng, -500, 500), test_rng_uniform(&rng, -1.5, 0.5), test_rng_uniform(&rng, -500, 500));
        nv_quat q = quat_from_axis_angle(v3(test_rng_uniform(&rng, -0.1, 0.1), 1, test_rng_uniform(&rng, -0.1, 0.1)),
                                      test_rng_uniform(&rng, 0, 2 * NV_PI));
        ASSERT_OK(nv_world_spawn(t->w, i % 3 == 0 ? barge : ship, pos, q, &id, &err), err);
        ASSERT_OK(nv_world_set_velocity(t->w, id, v3(test_rng_uniform(&rng, -3, 3), 0, test_rng_uniform(&rng, -3, 3)),
                                        v3(0, test_rng_uniform(&rng, -0.1, 0.1), 0), &err),
                  err);
    }
}

static void test_world_free(test_world* t) {
    nv_world_destroy(t->w);
    nv_jobs_destroy(t->pool);
}

static void same_state_for_any_thread_count(void** state) {
    (void)state;
    const uint32_t threads[] = {1, 2, 3, 8};
    uint64_t hashes[4];
    for (int k = 0; k < 4; k++) {
        test_world t;
        test_world_make(&t, threads[k], 128, 40); /* several triangle blocks per ship */
        nv_error err;
        for (int step = 0; step < 90; step++) {
            nv_water_sine_set_time(&t.wave, nv_world_time(t.w));
            nv_world_step(t.w);
            /* Despawns move slots and rebuild the blocks mid-run. */
            if (step == 30) {
                const uint32_t gone[] = {3, 17, 0, 39};
                for (int g = 0; g < 4; g++) ASSERT_OK(nv_world_despawn(t.w, gone[g], &err), err);
            }
            if (step == 45) {
                uint32_t id;
                ASSERT_OK(nv_world_spawn(t.w, 0, v3(12, 0.2, -40), quat_identity(), &id, &err), err);
                assert_int_equal(id, 40);
            }
        }
        hashes[k] = nv_world_state_hash(t.w);
        nv_world_vessel_state s;
        assert_int_equal(nv_world_vessel_get(t.w, 1, &s), 0);
        assert_true(v3_is_finite(s.position) && s.flags == 0);
        assert_int_equal(nv_world_vessel_count(t.w), 37);
        test_world_free(&t);
    }
    for (int k = 1; k < 4; k++)
        if (hashes[k] != hashes[0])
            fail_msg("state hash with %u threads %016llx differs from 1 thread %016llx", threads[k],
                     (unsigned long long)hashes[k], (unsigned long long)hashes[0]);
}

/* One vessel in the world follows the single-vessel reference (vessel.c):
 * exactly when its triangles form one block, to round-off when split. */
static void world_matches_the_single_vessel_reference(void** state) {
    (void)state;
    nv_error err;
    nv_hull h;
    test_hull_builtin(&h, "ship", 800, 500.0);
    nv_mesh m;
    ASSERT_OK(nv_hullgen_build("ship", 800, &m, &err), err);
    const uint32_t blocks[] = {4096, 96};
    for (int k = 0; k < 2; k++) {
        nv_world_config cfg = nv_world_config_default();
        cfg.triangle_block = blocks[k];
        cfg.linear_damping = 0.3;
        cfg.angular_damping = 0.3;
        nv_world* w;
        ASSERT_OK(nv_world_create(&w, &cfg, NULL, &err), err);
        nv_mass_spec spec = nv_mass_spec_default();
        spec.density = 500.0;
        uint32_t type, id;
        ASSERT_OK(nv_world_add_hull_type(w, "ship", &m, &spec, &type, &err), err);
        nv_quat q0 = quat_from_axis_angle(v3(1, 0, 0.3), 0.2);
        ASSERT_OK(nv_world_spawn(w, type, v3(5, 0.5, -3), q0, &id, &err), err);

        vessel ref;
        ASSERT_OK(vessel_init(&ref, &h, &err), err);
        vessel_place(&ref, v3(5, 0.5, -3), q0);
        vessel_env env = vessel_env_default();
        env.linear_damping = 0.3;
        env.angular_damping = 0.3;
        nv_water_flat flat;
        nv_water_flat_init(&flat, 0.0);
        for (int step = 0; step < 200; step++) {
            nv_world_step(w);
            vessel_step(&ref, &flat.base, &env, 1.0 / 60.0);
        }
        nv_world_vessel_state s;
        assert_int_equal(nv_world_vessel_get(w, id, &s), 0);
        /* split, the hydrostatic kernel's float lanes are summed per run of
         * a block, so other triangles share a float sum: 2e-9 m after 200
         * steps on this hull */
        double tol = k == 0 ? 0.0 : 1e-7;
        ASSERT_NEAR_ABS(s.position.x, ref.body.position.x, tol);
        ASSERT_NEAR_ABS(s.position.y, ref.body.position.y, tol);
        ASSERT_NEAR_ABS(s.position.z, ref.body.position.z, tol);
        ASSERT_NEAR_ABS(s.orientation.w, ref.body.orientation.w, tol);
        ASSERT_NEAR_ABS(s.orientation.x, ref.body.orientation.x, tol);
        vessel_free(&ref);
        nv_world_destroy(w);
    }
    nv_mesh_free(&m);
    nv_hull_destroy(&h);
}

static void ids_survive_spawns_and_despawns(void** state) {
    (void)state;
    nv_error err;
    nv_world* w;
    nv_world_config cfg = nv_world_config_default();
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, &err), err);
    nv_mesh m;
    ASSERT_OK(nv_hullgen_build("barge", 100, &m, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    uint32_t type, ids[6];
    ASSERT_OK(nv_world_add_hull_type(w, "barge", &m, &spec, &type, &err), err);
    assert_int_equal(nv_world_add_hull_type(w, "barge", &m, &spec, &type, &err), -1);
    assert_non_null(strstr(err.message, "exists already"));
    nv_mesh_free(&m);
    for (int i = 0; i < 5; i++)
        ASSERT_OK(nv_world_spawn(w, type, v3(10.0 * i, 0, 0), quat_identity(), &ids[i], &err), err);
    nv_world_step(w);
    ASSERT_OK(nv_world_despawn(w, ids[1], &err), err);
    assert_int_equal(nv_world_despawn(w, ids[1], &err), -1);
    assert_non_null(strstr(err.message, "no vessel with id"));
    assert_int_equal(err.code, NV_ENOENT); /* as every call that takes an id */
    ASSERT_OK(nv_world_spawn(w, type, v3(99, 0, 0), quat_identity(), &ids[5], &err), err);
    assert_int_equal(ids[5], 5); /* ids are never reused */
    nv_world_step(w);
    assert_int_equal(nv_world_vessel_count(w), 5);
    nv_world_vessel_state s;
    assert_int_equal(nv_world_vessel_get(w, ids[1], &s), -1);
    for (int i = 0; i < 6; i++) {
        if (i == 1) continue;
        assert_int_equal(nv_world_vessel_get(w, ids[i], &s), 0);
        assert_int_equal(s.id, ids[i]);
        ASSERT_NEAR_ABS(s.position.x, i == 5 ? 99.0 : 10.0 * i, 1e-9); /* barges only bob */
    }
    assert_int_equal(nv_world_spawn(w, 7, v3(0, 0, 0), quat_identity(), &ids[0], &err), -1);
    assert_non_null(strstr(err.message, "no hull type 7"));
    assert_int_equal(nv_world_spawn(w, type, v3(NAN, 0, 0), quat_identity(), &ids[0], &err), -1);
    assert_non_null(strstr(err.message, "spawn: position.x: must be in [-1e+06, 1e+06] m (got nan)"));
    nv_quat zero = {0, 0, 0, 0};
    assert_int_equal(nv_world_spawn(w, type, v3(0, 0, 0), zero, &ids[0], &err), -1);
    nv_world_destroy(w);
}

/* The id table through a server's life: a million spawns and despawns
 * while the fleet grows to 3000 and falls back to 20. Ids are never
 * reused, a gone id is unknown (NV_ENOENT) to every call that takes one, a
 * handle kept past its vessel's despawn is stale even once its entry and
 * slot are reused, lookups after slot moves find the right vessel, and the
 * table's memory follows the live fleet, not the ids issued. */
static void id_table_stays_bounded_by_the_fleet(void** state) {
    (void)state;
    nv_error err;
    nv_world* w;
    nv_world_config cfg = nv_world_config_default();
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, &err), err);
    nv_mesh m;
    ASSERT_OK(nv_hullgen_build("barge", 16, &m, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    uint32_t type;
    ASSERT_OK(nv_world_add_hull_type(w, "barge", &m, &spec, &type, &err), err);
    nv_mesh_free(&m);
    enum { CYCLES = 1000000, MAX_LIVE = 3000 };
    uint32_t* live = malloc(MAX_LIVE * sizeof *live); /* the live ids, any order */
    assert_non_null(live);
    uint32_t n = 0, peak = 0, next = 0;
    test_rng rng = {7};
    /* A vessel's id is in its spawn position (100 m apart: no contacts)
     * and its commanded throttle. */
#define ID_X(id) ((double)((id) % 10000u) * 100.0 - 5e5)
#define ID_Z(id) ((double)((id) / 10000u) * 100.0)
#define ID_THROTTLE(id) ((float)((id) % 1000u) / 1000.0f)
    for (uint32_t c = 0; c < CYCLES; c++) {
        /* the fleet: up to 3000 in the first fifth, down to 20 after half */
        uint32_t target = c < CYCLES / 5 ? MAX_LIVE : (c < CYCLES / 2 ? 1000 : 20);
        /* below the target mostly spawns, above it despawns, at it replaces
         * one vessel by a new one (which gets the entry just freed) */
        int spawn = n < target ? n < 2 || (test_rng_next(&rng) & 3) != 0 : n == target;
        int despawn = n >= target || !spawn;
        if (despawn) {
            uint32_t k = (uint32_t)(test_rng_next(&rng) % n), gone = live[k];
            world_handle h = world_handle_of(w, gone);
            assert_int_not_equal(world_handle_slot(w, h), UINT32_MAX);
            ASSERT_OK(nv_world_despawn(w, gone, &err), err);
            live[k] = live[--n];
            assert_int_equal(world_handle_slot(w, h), UINT32_MAX);
            assert_int_equal(world_handle_of(w, gone).index, UINT32_MAX);
            nv_world_vessel_state st;
            assert_int_equal(nv_world_vessel_get(w, gone, &st), -1);
            assert_int_equal(nv_world_despawn(w, gone, &err), -1);
            assert_int_equal(err.code, NV_ENOENT);
            if (c % 997 == 0) { /* every call that takes an id */
                assert_int_equal(nv_world_set_controls(w, gone, 0, 0, &err), -1);
                assert_int_equal(err.code, NV_ENOENT);
                assert_int_equal(nv_world_set_velocity(w, gone, v3(0, 0, 0), v3(0, 0, 0), &err), -1);
                assert_int_equal(err.code, NV_ENOENT);
                assert_int_equal(nv_world_set_vessel_model(w, gone, WORLD_MODEL_MESH, &err), -1);
                assert_int_equal(err.code, NV_ENOENT);
                assert_int_equal(nv_world_set_player(w, gone, 1, &err), -1);
                assert_int_equal(err.code, NV_ENOENT);
                assert_int_equal(nv_world_breach(w, gone, v3(0, 0, 0), 0.1, &err), -1);
                assert_int_equal(err.code, NV_ENOENT);
                assert_int_equal(nv_world_set_pumps(w, gone, 1, &err), -1);
                assert_int_equal(err.code, NV_ENOENT);
                nv_flood_state f;
                assert_int_equal(nv_world_flooding(w, gone, &f), -1);
                assert_null(nv_world_flood_of(w, gone));
            }
            if (spawn) { /* the entry just freed goes to the next vessel: the old handle stays stale */
                uint32_t id;
                ASSERT_OK(nv_world_spawn(w, type, v3(ID_X(next), 0, ID_Z(next)), quat_identity(), &id, &err), err);
                assert_int_equal(id, next);
                world_handle fresh = world_handle_of(w, id);
                assert_int_equal(fresh.index, h.index);
                assert_int_not_equal(fresh.generation, h.generation);
                assert_int_equal(world_handle_slot(w, h), UINT32_MAX);
                assert_int_equal(world_handle_slot(w, fresh), world_slot_of(w, id));
                ASSERT_OK(nv_world_set_controls(w, id, ID_THROTTLE(id), 0, &err), err);
                live[n++] = id;
                next++;
                spawn = 0;
            }
        }
        if (spawn) {
            uint32_t id;
            ASSERT_OK(nv_world_spawn(w, type, v3(ID_X(next), 0, ID_Z(next)), quat_identity(), &id, &err), err);
            assert_int_equal(id, next); /* in order, never reused */
            ASSERT_OK(nv_world_set_controls(w, id, ID_THROTTLE(id), 0, &err), err);
            live[n++] = id;
            next++;
        }
        if (n > peak) peak = n;
        assert_int_equal(nv_world_vessel_count(w), n);
        assert_int_equal(nv_world_next_id(w), next);
        /* a lookup finds its own vessel, whatever moved into which slot */
        if (n) {
            uint32_t id = live[test_rng_next(&rng) % n];
            nv_world_vessel_state st;
            assert_int_equal(nv_world_vessel_get(w, id, &st), 0);
            assert_int_equal(st.id, id);
            assert_true(st.throttle == ID_THROTTLE(id));
            ASSERT_NEAR_ABS(st.position.x, ID_X(id), 0.5);
            ASSERT_NEAR_ABS(st.position.z, ID_Z(id), 0.5);
        }
        /* the table's room: handles at most the peak fleet (the free list
         * reuses them), the map within 8x the live ids (it shrinks) */
        assert_true(w->ids.entry_count <= peak);
        assert_true(w->ids.map.count == n);
        assert_true(w->ids.map.capacity <= (8 * n > WORLD_IDS_MIN_MAP ? 8 * n : WORLD_IDS_MIN_MAP));
        if (c % 100000 == 99999) { /* a step now and then, and every slot's id found at its slot */
            nv_world_step(w);
            for (uint32_t s = 0; s < n; s++) assert_int_equal(world_slot_of(w, nv_world_vessel_id_at(w, s)), s);
        }
    }
    assert_int_equal(peak, MAX_LIVE);
    assert_true(next > CYCLES / 2);
    assert_true(w->ids.entry_capacity <= 2 * MAX_LIVE);
    assert_true(w->ids.map.capacity <= 2 * WORLD_IDS_MIN_MAP); /* 20 live of ~500,000 ids issued */
    for (uint32_t i = 0; i < n; i++) {
        nv_world_vessel_state st;
        assert_int_equal(nv_world_vessel_get(w, live[i], &st), 0);
        assert_int_equal(st.id, live[i]);
    }

    /* A restored id far past the counter: the counter follows it, the map
     * does not grow with it; a spawn past the last id is a limit. */
    nv_world_vessel_record r;
    uint32_t moved = live[0];
    ASSERT_OK(nv_world_export_vessel(w, world_slot_of(w, moved), &r), err);
    ASSERT_OK(nv_world_despawn(w, moved, &err), err);
    r.id = 4000000000u;
    ASSERT_OK(nv_world_restore_vessel(w, &r, &err), err);
    assert_int_equal(nv_world_next_id(w), 4000000001u);
    nv_world_vessel_state st;
    assert_int_equal(nv_world_vessel_get(w, 4000000000u, &st), 0);
    assert_true(st.throttle == ID_THROTTLE(moved));
    assert_int_equal(nv_world_vessel_get(w, moved, &st), -1);
    assert_int_equal(nv_world_restore_vessel(w, &r, &err), -1);
    assert_non_null(strstr(err.message, "in use already"));
    assert_true(w->ids.map.capacity <= 2 * WORLD_IDS_MIN_MAP);
    assert_int_equal(nv_world_set_next_id(w, 5, &err), -1);
    ASSERT_OK(nv_world_set_next_id(w, UINT32_MAX, &err), err);
    uint32_t id;
    assert_int_equal(nv_world_spawn(w, type, v3(0, 0, 0), quat_identity(), &id, &err), -1);
    assert_int_equal(err.code, NV_ELIMIT);
    assert_non_null(strstr(err.message, "vessel ids are exhausted"));
    assert_int_equal(nv_world_despawn(w, UINT32_MAX, &err), -1);
    assert_int_equal(err.code, NV_ENOENT);
#undef ID_X
#undef ID_Z
#undef ID_THROTTLE
    free(live);
    nv_world_destroy(w);
}

/* Water that answers NaN east of x = 1000: a vessel there is frozen at its
 * last finite state; the others step exactly as in a world without it. */
typedef struct broken_water {
    nv_water_surface base;
} broken_water;

static size_t broken_water_sample(const nv_water_surface* self, const nv_water_query* q) {
    (void)self;
    for (size_t i = 0; i < q->count; i++) q->height[i] = q->x[i] > 1000.0 ? NAN : 0.0f;
    return 0;
}

static void non_finite_vessel_is_contained(void** state) {
    (void)state;
    nv_error err;
    broken_water bw = {{broken_water_sample, NULL, 0.0, 0.0, NULL}};
    nv_world_water water = {&bw.base, NULL, NULL};
    nv_world* worlds[2];
    uint32_t good[2][2], bad = 0;
    for (int k = 0; k < 2; k++) {
        nv_world_config cfg = nv_world_config_default();
        ASSERT_OK(nv_world_create(&worlds[k], &cfg, NULL, &err), err);
        nv_world_set_water(worlds[k], &water);
        nv_mesh m;
        ASSERT_OK(nv_hullgen_build("ship", 400, &m, &err), err);
        nv_mass_spec spec = nv_mass_spec_default();
        uint32_t type;
        ASSERT_OK(nv_world_add_hull_type(worlds[k], "ship", &m, &spec, &type, &err), err);
        nv_mesh_free(&m);
        ASSERT_OK(nv_world_spawn(worlds[k], type, v3(0, 0.3, 0), quat_identity(), &good[k][0], &err), err);
        if (k == 1) ASSERT_OK(nv_world_spawn(worlds[k], type, v3(1200, 0.3, 0), quat_identity(), &bad, &err), err);
        ASSERT_OK(nv_world_spawn(worlds[k], type, v3(-200, 0.3, 40), quat_identity(), &good[k][1], &err), err);
    }
    for (int step = 0; step < 60; step++) {
        nv_world_step(worlds[0]);
        nv_world_step(worlds[1]);
    }
    nv_world_vessel_state s, a, b;
    assert_int_equal(nv_world_vessel_get(worlds[1], bad, &s), 0);
    assert_true(s.flags & WORLD_VESSEL_FROZEN);
    assert_true(v3_is_finite(s.position) && v3_is_finite(s.velocity));
    for (int i = 0; i < 2; i++) {
        assert_int_equal(nv_world_vessel_get(worlds[0], good[0][i], &a), 0);
        assert_int_equal(nv_world_vessel_get(worlds[1], good[1][i], &b), 0);
        assert_int_equal(b.flags, 0);
        assert_memory_equal(&a.position, &b.position, sizeof a.position);
        assert_memory_equal(&a.orientation, &b.orientation, sizeof a.orientation);
    }
    nv_world_destroy(worlds[0]);
    nv_world_destroy(worlds[1]);
}

/* The bulk read gives, slot by slot, what the per-id read gives, and
 * stops at the end of the world; the float height is the hydrostatics'
 * balance of the type's own hull. */
/* The water the forces are relative to and the actuators' depths are
 * sampled a batch of vessels to a query (world_heave_job,
 * world_actuator_depths): with propellers and rudders under way in waves,
 * the state is the same for any thread count (the batches fall differently
 * in each), and every vessel's heave velocity is the surface's own at the
 * CG the step started from. */
static void batched_water_samples_match_the_surface(void** state) {
    (void)state;
    nv_error err;
    nv_vessel_type patrol;
    ASSERT_OK(nv_vessel_type_builtin("patrol", &patrol, &err), err);
    const uint32_t threads[] = {1, 3};
    uint64_t hashes[2];
    for (int k = 0; k < 2; k++) {
        test_world t;
        test_world_make(&t, threads[k], 128, 70);
        for (uint32_t type = 0; type < 2; type++)
            ASSERT_OK(nv_world_set_type_dynamics(t.w, type, &patrol.dynamics, &err), err);
        for (uint32_t id = 0; id < 70; id++)
            ASSERT_OK(nv_world_set_controls(t.w, id, 0.2 + 0.01 * id, id % 2 ? 0.3 : -0.3, &err), err);
        for (int step = 0; step < 40; step++) {
            nv_water_sine_set_time(&t.wave, nv_world_time(t.w));
            nv_world_step(t.w);
        }
        const uint32_t n = nv_world_vessel_count(t.w);
        double x[70], z[70];
        for (uint32_t s = 0; s < n; s++) {
            nv_world_vessel_record r;
            assert_int_equal(nv_world_export_vessel(t.w, s, &r), 0);
            x[s] = r.position.x, z[s] = r.position.z;
        }
        nv_water_sine_set_time(&t.wave, nv_world_time(t.w));
        nv_world_step(t.w);
        float height[70], vertical[70];
        nv_water_query q = {.count = n, .x = x, .z = z, .height = height, .vertical_velocity = vertical};
        water_sample(&t.wave.base, &q);
        uint32_t moving = 0;
        for (uint32_t s = 0; s < n; s++) {
            nv_world_vessel_record r;
            assert_int_equal(nv_world_export_vessel(t.w, s, &r), 0);
            assert_true(r.flags == 0);
            if (r.water_vy != vertical[s])
                fail_msg("vessel %u: heave velocity %.9g, the surface's at its CG %.9g", r.id, r.water_vy, vertical[s]);
            moving += fabsf(vertical[s]) > 0.1f;
        }
        assert_true(moving > n / 4); /* the wave moves the water under most of them */
        hashes[k] = nv_world_state_hash(t.w);
        test_world_free(&t);
    }
    if (hashes[1] != hashes[0])
        fail_msg("state hash with 3 threads %016llx differs from 1 thread %016llx", (unsigned long long)hashes[1],
                 (unsigned long long)hashes[0]);
}

static void bulk_read_and_float_height_agree(void** state) {
    (void)state;
    test_world t;
    test_world_make(&t, 1, 128, 7);
    nv_error err;
    for (int step = 0; step < 5; step++) nv_world_step(t.w);
    ASSERT_OK(nv_world_despawn(t.w, nv_world_vessel_id_at(t.w, 2), &err), err);
    uint32_t n = nv_world_vessel_count(t.w);
    assert_int_equal(n, 6);
    nv_world_vessel_state bulk[8], one;
    memset(bulk, 0, sizeof bulk); /* padding compared too */
    memset(&one, 0, sizeof one);
    assert_int_equal(nv_world_read_vessels(t.w, 1, 8, bulk), n - 1);
    for (uint32_t i = 1; i < n; i++) {
        assert_int_equal(nv_world_vessel_get(t.w, nv_world_vessel_id_at(t.w, i), &one), 0);
        assert_memory_equal(&bulk[i - 1], &one, sizeof one);
    }
    assert_int_equal(nv_world_read_vessels(t.w, n, 4, bulk), 0);
    nv_world_vessel_pose poses[8];
    assert_int_equal(nv_world_read_poses(t.w, 0, 8, poses), n);
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(nv_world_vessel_get(t.w, nv_world_vessel_id_at(t.w, i), &one), 0);
        assert_int_equal(poses[i].id, one.id);
        assert_int_equal(poses[i].type, one.type);
        assert_int_equal(poses[i].flags, one.flags);
        assert_int_equal(poses[i].model, one.model);
        assert_memory_equal(&poses[i].position, &one.position, sizeof one.position);
        assert_memory_equal(&poses[i].orientation, &one.orientation, sizeof one.orientation);
        assert_memory_equal(&poses[i].velocity, &one.velocity, sizeof one.velocity);
        assert_memory_equal(&poses[i].angular_velocity, &one.angular_velocity, sizeof one.angular_velocity);
    }
    for (uint32_t type = 0; type < nv_world_hull_type_count(t.w); type++) {
        double y, expected;
        ASSERT_OK(nv_world_type_float_height(t.w, type, &y, &err), err);
        ASSERT_OK(nv_statics_balance_height_of(nv_world_hull_type(t.w, type), nv_world_get_config(t.w)->water_density,
                                               nv_world_get_config(t.w)->gravity, quat_identity(), &expected, &err),
                  err);
        assert_true(y == expected);
    }
    assert_int_equal(nv_world_type_float_height(t.w, 99, &(double){0}, &err), -1);
    assert_non_null(strstr(err.message, "no hull type 99"));
    assert_int_equal(err.code, NV_ENOENT);
    nv_mesh m;
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 1e9; /* far beyond the barge's whole displacement */
    uint32_t lead;
    ASSERT_OK(nv_hullgen_build("barge", 300, &m, &err), err);
    ASSERT_OK(nv_world_add_hull_type(t.w, "lead", &m, &spec, &lead, &err), err);
    nv_mesh_free(&m);
    assert_int_equal(nv_world_type_float_height(t.w, lead, &(double){0}, &err), -1);
    assert_non_null(strstr(err.message, "hull type 'lead'"));
    assert_int_equal(err.code, NV_ESTATE);
    /* the codes a caller acts on, and what a server answers with them */
    assert_int_equal(nv_world_set_controls(t.w, 12345, 0.5, 0.0, &err), -1);
    assert_int_equal(err.code, NV_ENOENT);
    assert_int_equal(nv_world_set_controls(t.w, nv_world_vessel_id_at(t.w, 0), NAN, 0.0, &err), -1);
    assert_int_equal(err.code, NV_EINVAL);
    assert_int_equal(nv_world_spawn(t.w, 77, v3(0, 0, 0), quat_identity(), &(uint32_t){0}, &err), -1);
    assert_int_equal(err.code, NV_ENOENT);
    assert_int_equal(nv_world_vessel_get(t.w, 12345, &one), -1);
    test_world_free(&t);
}

/* world.h's "between steps only": a change from inside a step (here the
 * water's update hook spawning) aborts a debug build, naming the call. */
#ifndef NDEBUG
static void spawn_from_the_water_hook(void* ctx, double time, nv_jobs* pool) {
    (void)time, (void)pool;
    nv_world* w = ctx;
    nv_error err;
    uint32_t id;
    nv_world_spawn(w, 0, v3(0, 0, 0), quat_identity(), &id, &err);
}
#endif

static void changes_inside_a_step_are_caught(void** state) {
    (void)state;
#ifdef NDEBUG
    skip(); /* the check is a debug build's (make test-sanitize runs it) */
#else
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        test_world t;
        test_world_make(&t, 1, 128, 1);
        t.water.update = spawn_from_the_water_hook;
        t.water.ctx = t.w;
        nv_world_set_water(t.w, &t.water);
        nv_world_step(t.w);
        _exit(0); /* not reached when the check works */
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
#endif
}

/* A world with one barge (40 t, no added mass) lying at rest, upright, on
 * flat water: the mooring lines' checks compare it with its twin. */
static nv_world* lines_world(uint32_t* id) {
    nv_error err;
    nv_world* w;
    nv_world_config cfg = nv_world_config_default();
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, &err), err);
    nv_mesh m;
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 40e3;
    uint32_t barge;
    ASSERT_OK(nv_hullgen_build("barge", 300, &m, &err), err);
    ASSERT_OK(nv_world_add_hull_type(w, "barge", &m, &spec, &barge, &err), err);
    nv_mesh_free(&m);
    ASSERT_OK(nv_world_spawn(w, barge, v3(0.0, 0.0, 0.0), quat_identity(), id, &err), err);
    return w;
}

/* Mooring lines (nv_world_set_lines): a taut line through the CG changes
 * the velocity by (k stretch - c rate) dt / m along it against the same
 * world without it; a line from the bow to a bollard abeam turns the bow
 * toward it; a slack line changes nothing; the lines last one step; bad
 * lines are refused, naming what is wrong. */
static void mooring_lines_pull_as_springs(void** state) {
    (void)state;
    nv_error err;
    const double k = 5e4, c = 2e4, dt = 1.0 / 60.0, mass = 40e3;
    uint32_t id, twin_id;
    nv_world *w = lines_world(&id), *twin = lines_world(&twin_id);
    nv_world_vessel_state s0, s, t;
    assert_int_equal(nv_world_vessel_get(w, id, &s0), 0);
    /* through the CG, 20 m to +x, 15 m long, and drawing away at 0.5 m/s */
    ASSERT_OK(nv_world_set_velocity(w, id, v3(-0.5, 0.0, 0.0), v3(0, 0, 0), &err), err);
    ASSERT_OK(nv_world_set_velocity(twin, twin_id, v3(-0.5, 0.0, 0.0), v3(0, 0, 0), &err), err);
    nv_world_line line = {.hull = v3(0, 0, 0), .bollard = v3_add(s0.position, v3(20.0, 0.0, 0.0)), .length = 15.0,
                          .stiffness = k, .damping = c};
    ASSERT_OK(nv_world_set_lines(w, id, &line, 1, &err), err);
    nv_world_step(w);
    nv_world_step(twin);
    assert_int_equal(nv_world_vessel_get(w, id, &s), 0);
    assert_int_equal(nv_world_vessel_get(twin, twin_id, &t), 0);
    const double want = (k * 5.0 + c * 0.5) * dt / mass;
    print_message("a taut line: dv %.9f m/s, (k stretch + c rate) dt / m = %.9f\n", s.velocity.x - t.velocity.x, want);
    assert_true(fabs((s.velocity.x - t.velocity.x) - want) < 1e-9 * want + 1e-12);
    assert_true(fabs(s.velocity.z - t.velocity.z) < 1e-12 && fabs(s.angular_velocity.y - t.angular_velocity.y) < 1e-12);
    assert_int_equal(w->lines.count, 0); /* one step only */
    nv_world_destroy(w);
    nv_world_destroy(twin);

    /* from the bow (10 m forward) to a bollard 20 m abeam to +z: pulls +z,
     * turns the bow toward +z (a negative rate about +y) */
    w = lines_world(&id), twin = lines_world(&twin_id);
    line = (nv_world_line){.hull = v3(10.0, 0, 0), .bollard = v3_add(s0.position, v3(10.0, 0.0, 20.0)), .length = 18.0,
                           .stiffness = k, .damping = 0.0};
    ASSERT_OK(nv_world_set_lines(w, id, &line, 1, &err), err);
    nv_world_step(w);
    nv_world_step(twin);
    assert_int_equal(nv_world_vessel_get(w, id, &s), 0);
    assert_int_equal(nv_world_vessel_get(twin, twin_id, &t), 0);
    assert_true(fabs((s.velocity.z - t.velocity.z) - k * 2.0 * dt / mass) < 1e-9);
    assert_true(s.angular_velocity.y - t.angular_velocity.y < -1e-6);
    nv_world_destroy(w);
    nv_world_destroy(twin);

    /* slack: as if there were none */
    w = lines_world(&id), twin = lines_world(&twin_id);
    line = (nv_world_line){.hull = v3(0, 0, 0), .bollard = v3_add(s0.position, v3(10.0, 0.0, 0.0)), .length = 12.0,
                           .stiffness = k, .damping = c};
    ASSERT_OK(nv_world_set_lines(w, id, &line, 1, &err), err);
    for (int i = 0; i < 5; i++) nv_world_step(w), nv_world_step(twin);
    assert_true(nv_world_state_hash(w) == nv_world_state_hash(twin));

    /* refused */
    nv_world_line lines[NV_WORLD_MAX_LINES + 1];
    for (uint32_t i = 0; i <= NV_WORLD_MAX_LINES; i++) lines[i] = line;
    assert_int_not_equal(nv_world_set_lines(w, id, lines, NV_WORLD_MAX_LINES + 1, &err), 0);
    assert_non_null(strstr(err.message, "mooring lines, at most"));
    lines[1].length = -1.0;
    assert_int_not_equal(nv_world_set_lines(w, id, lines, 2, &err), 0);
    assert_non_null(strstr(err.message, "mooring line 1"));
    lines[1] = line, lines[1].bollard.x = NAN;
    assert_int_not_equal(nv_world_set_lines(w, id, lines, 2, &err), 0);
    assert_int_not_equal(nv_world_set_lines(w, 999, lines, 1, &err), 0);
    assert_non_null(strstr(err.message, "no vessel with id 999"));
    assert_int_equal(w->lines.count, 0); /* nothing taken from the refused calls */
    nv_world_destroy(w);
    nv_world_destroy(twin);
}

/* The captive load: a box held upright on flat water, d under it, meets
 * rho g L B d straight up through its CG; bad asks are refused. */
static void captive_load_is_the_hydrostatics(void** state) {
    (void)state;
    nv_error err;
    nv_world_config cfg = nv_world_config_default();
    nv_world* w;
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, &err), err);
    const uint32_t type = test_world_box_type(w, 10.0, 4.0, 2.0, 4, 2, 4);
    const double keel = nv_world_hull_type(w, type)->bounds_min[1];
    for (int i = 0; i < 3; i++) {
        const double draft = 0.5 + 0.5 * i, want = cfg.water_density * cfg.gravity * 10.0 * 4.0 * draft;
        nv_vec3 f, t;
        ASSERT_OK(nv_world_type_water_load(w, type, v3(3.0, -draft - keel, -7.0), quat_identity(), &f, &t, &err), err);
        assert_true(fabs(f.y - want) < 1e-5 * want);
        assert_true(fabs(f.x) < 1e-5 * want && fabs(f.z) < 1e-5 * want);
        assert_true(v3_length(t) < 1e-5 * want * 10.0);
    }
    nv_vec3 f, t;
    assert_int_equal(nv_world_type_water_load(w, type + 1, v3(0, 0, 0), quat_identity(), &f, &t, &err), -1);
    assert_int_equal(err.code, NV_ENOENT);
    assert_int_equal(nv_world_type_water_load(w, type, v3(NAN, 0, 0), quat_identity(), &f, &t, &err), -1);
    assert_int_equal(nv_world_type_water_load(w, type, v3(0, 0, 0), (nv_quat){0, 0, 0, 0}, &f, &t, &err), -1);
    nv_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_state_for_any_thread_count),
        cmocka_unit_test(batched_water_samples_match_the_surface),
        cmocka_unit_test(captive_load_is_the_hydrostatics),
        cmocka_unit_test(mooring_lines_pull_as_springs),
        cmocka_unit_test(world_matches_the_single_vessel_reference),
        cmocka_unit_test(ids_survive_spawns_and_despawns),
        cmocka_unit_test(id_table_stays_bounded_by_the_fleet),
        cmocka_unit_test(non_finite_vessel_is_contained),
        cmocka_unit_test(bulk_read_and_float_height_agree),
        cmocka_unit_test(changes_inside_a_step_are_caught),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
