// SPDX-License-Identifier: MIT
/* Levels of detail in naval-server (--lod), from outside: a game client's
 * vessel is a player and stays on the mesh, and every other vessel's
 * model in the snapshots (flag bits 2-3) is the one its distance to that
 * player gives; the step's stats carry the time the choice took; a
 * column edge inside the mesh edge is refused by name. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "proto.h"
#include "test_server_logged.h"

static server_proc srv;

static const proto_vessel* find_vessel(const proto_snapshot* s, uint32_t id) {
    for (uint32_t i = 0; i < s->vessel_count; i++)
        if (s->vessels[i].id == id) return &s->vessels[i];
    return NULL;
}

static void test_models_follow_the_player(void** state) {
    (void)state;
    const char* extra[] = {"--boats", "80", "--area", "3000", "--lod", "--threads", "2", "--tick-hz", "30",
                           "--log-level", "warn", NULL};
    if (proc_start(&srv, NAVAL_SERVER_PATH, extra, 20.0)) fail_msg("naval-server --lod did not start");
    nvc_client* c = proc_client(srv.snapshot_url, srv.command_url, 3000, 4);
    assert_non_null(c);
    nv_error e;
    nvc_vessel boat;
    if (nvc_spawn(c, "skiff", 0, 0.0, 0.0, 0.0, &boat, &e)) fail_msg("%s", e.message);
    proto_snapshot s = {0};
    const proto_vessel* me = NULL;
    double deadline = proc_now() + 5.0;
    while (!me && proc_now() < deadline) {
        if (nvc_poll_snapshot(c, 3000, &s, &e)) fail_msg("no snapshot: %s", e.message);
        me = find_vessel(&s, boat.id);
    }
    assert_non_null(me);
    /* one more tick: the choice is made at the start of a step */
    uint64_t seen = s.tick;
    while (s.tick <= seen + 1)
        if (nvc_poll_snapshot(c, 3000, &s, &e)) fail_msg("no snapshot: %s", e.message);
    me = find_vessel(&s, boat.id);
    assert_non_null(me);
    assert_true(me->flags & PROTO_VESSEL_PLAYER);
    assert_int_equal((me->flags & PROTO_VESSEL_MODEL_MASK) >> PROTO_VESSEL_MODEL_SHIFT, 0);
    uint32_t count[3] = {0, 0, 0}, checked = 0;
    for (uint32_t i = 0; i < s.vessel_count; i++) {
        const proto_vessel* v = &s.vessels[i];
        if (v->id == boat.id) continue;
        assert_false(v->flags & PROTO_VESSEL_PLAYER);
        unsigned model = (v->flags & PROTO_VESSEL_MODEL_MASK) >> PROTO_VESSEL_MODEL_SHIFT;
        assert_true(model <= 2);
        count[model]++;
        double d = hypot(v->position[0] - me->position[0], v->position[2] - me->position[2]);
        /* away from the edges, where the hysteresis and a tick's motion
         * could decide either way */
        if (fabs(d - 300.0) < 60.0 || fabs(d - 1500.0) < 250.0) continue;
        unsigned want = d < 300.0 ? 0 : d < 1500.0 ? 1 : 2;
        if (model != want) fail_msg("vessel %u at %.0f m from the player is on model %u, expected %u", v->id, d, model, want);
        checked++;
    }
    printf("# lod: %u mesh, %u columns, %u floaters around the player (%u checked away from the edges); "
           "lod %.3f ms of a %.3f ms step\n",
           count[0] + 1, count[1], count[2], checked, s.stats.lod_ms, s.stats.step_ms);
    assert_true(count[1] > 0 && count[2] > 0 && checked > 40);
    assert_true(s.stats.lod_ms > 0.0f && s.stats.step_ms >= s.stats.lod_ms);
    proto_free_snapshot(&s);
    nvc_close(c);
    assert_int_equal(proc_stop(&srv, SIGTERM, 15.0), 0);
}

static void test_bad_edges_are_named(void** state) {
    (void)state;
    char dir[64], out[128], err[128];
    assert_int_equal(logged_tempdir(dir, sizeof dir, "naval_lod"), 0);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(err, sizeof err, "%s/err.txt", dir);
    const char* argv[] = {NAVAL_SERVER_PATH, "--lod", "--lod-mesh-within", "500", "--lod-columns-within", "400",
                          "--check-config", NULL};
    assert_int_equal(logged_run(argv, out, err, 20.0), 2);
    assert_true(logged_contains(err, "lod.columns_within (400 m) must not be less than lod.mesh_within (500 m)"));
    logged_rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_models_follow_the_player),
        cmocka_unit_test(test_bad_edges_are_named),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (srv.pid > 0) proc_stop(&srv, SIGKILL, 5.0);
    return rc;
}
