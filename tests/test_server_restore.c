// SPDX-License-Identifier: MIT
/* naval-server across a crash: a server writing checkpoints
 * every 0.5 s is killed with SIGKILL after a client spawned and steered a
 * boat; the server restarted with --restore resumes at or after the
 * checkpoint's tick with the boat where it was, and the client's old token
 * still steers and despawns it while a wrong one is refused. Then the
 * newest checkpoint corrupted, then truncated: the restart uses FILE.prev
 * and logs why; both corrupt: exit 2 with the reasons. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "naval/checkpoint.h"
#include "naval_client.h"
#include "test_server_logged.h"

static char dir[64], ckpt[128], prev[128], log_path[128];
static server_proc srv;
static nvc_vessel boat;
static uint64_t good_tick, prev_tick;   /* the two files the first server left */

static int group_setup(void** state) {
    (void)state;
    if (logged_tempdir(dir, sizeof dir, "naval_restore")) return -1;
    snprintf(ckpt, sizeof ckpt, "%s/world.ckpt", dir);
    snprintf(prev, sizeof prev, "%s/world.ckpt%s", dir, CHECKPOINT_PREVIOUS_SUFFIX);
    snprintf(log_path, sizeof log_path, "%s/server.log", dir);
    return 0;
}

static int group_teardown(void** state) {
    (void)state;
    if (srv.pid > 0) proc_stop(&srv, SIGKILL, 5.0);
    logged_rmdir(dir);
    return 0;
}

static nvc_client* connect_to(const server_proc* p) {
    nvc_client* c = proc_client(p->snapshot_url, p->command_url, 3000, 4);
    assert_non_null(c);
    return c;
}

static const proto_vessel* find_vessel(const proto_snapshot* s, uint32_t id) {
    for (uint32_t i = 0; i < s->vessel_count; i++)
        if (s->vessels[i].id == id) return &s->vessels[i];
    return NULL;
}

static const nv_world_vessel_record* find_record(const nv_checkpoint* c, uint32_t id) {
    for (uint32_t i = 0; i < c->vessel_count; i++)
        if (c->vessels[i].id == id) return &c->vessels[i];
    return NULL;
}

/* A restarted server: the common flags plus --restore; no periodic writes,
 * so the files stay as the first server left them. */
static void start_restored(void) {
    const char* extra[] = {"--threads", "1", "--tick-hz", "30", "--restore", ckpt, "--checkpoint-interval", "0",
                           "--boats", "3", NULL};
    if (logged_start(&srv, extra, log_path, 20.0)) {
        char* text = logged_slurp(log_path, NULL);
        fail_msg("the restored server did not start: %s", text ? text : "(no log)");
    }
}

static void test_restore_after_kill(void** state) {
    (void)state;
    const char* extra[] = {"--boats", "10", "--threads", "1", "--tick-hz", "30", "--checkpoint", ckpt,
                           "--checkpoint-interval", "0.5", NULL};
    if (logged_start(&srv, extra, log_path, 20.0)) fail_msg("naval-server did not start");
    nvc_client* c = connect_to(&srv);
    nv_error e;
    if (nvc_spawn(c, "patrol", 0, 60.0, -40.0, 0.3, &boat, &e)) fail_msg("spawn: %s", e.message);
    if (nvc_control(c, &boat, 1.0f, 0.4f, &e)) fail_msg("control: %s", e.message);
    proto_stats st;
    if (nvc_get_stats(c, &st, &e)) fail_msg("stats: %s", e.message);
    /* A checkpoint taken well after the control, with an older one beside it. */
    nv_checkpoint ck;
    memset(&ck, 0, sizeof ck);
    double deadline = proc_now() + 8.0;
    nv_error err;
    for (;;) {
        struct stat sb;
        if (stat(prev, &sb) == 0 && nv_checkpoint_read_file(ckpt, &ck, &err) == 0) {
            if (ck.tick >= st.tick + 10) break;
            nv_checkpoint_free(&ck);
        }
        if (proc_now() > deadline) fail_msg("no checkpoint after tick %llu within 8 s", (unsigned long long)st.tick);
        proc_sleep_ms(50);
    }
    assert_int_equal(proc_stop(&srv, SIGKILL, 5.0), 128 + SIGKILL);
    nvc_close(c);
    good_tick = ck.tick;
    const nv_world_vessel_record* r = find_record(&ck, boat.id);
    assert_non_null(r);
    assert_true(r->throttle_cmd == 1.0f && fabsf(r->rudder_cmd - 0.4f) < 1e-6f); /* the control was in it */
    nv_vec3 then = r->position;
    assert_int_equal(ck.vessel_count, 11);
    nv_checkpoint_free(&ck);
    assert_true(logged_contains(log_path, "checkpoint at tick"));

    start_restored();
    c = connect_to(&srv);
    proto_snapshot s = {0};
    if (nvc_poll_snapshot(c, 3000, &s, &e)) fail_msg("no snapshot: %s", e.message);
    if (s.tick < good_tick)
        fail_msg("restored at tick %llu, before the checkpoint's %llu", (unsigned long long)s.tick,
                 (unsigned long long)good_tick);
    assert_int_equal(s.vessel_count, 11); /* --boats 3 ignored: the checkpoint's fleet */
    const proto_vessel* v = find_vessel(&s, boat.id);
    assert_non_null(v);
    double dx = v->position[0] - then.x, dz = v->position[2] - then.z;
    /* Under 10 m/s for the few ticks since the restore. */
    if (!(sqrt(dx * dx + dz * dz) < 25.0))
        fail_msg("vessel %u is %.1f m from where the checkpoint had it", boat.id, sqrt(dx * dx + dz * dz));
    proto_free_snapshot(&s);
    assert_true(logged_contains(log_path, "restored tick"));
    assert_true(logged_contains(log_path, "ignoring boats 3"));

    /* The old token from a new connection takes it over; a wrong one does not. */
    nvc_vessel wrong = boat;
    wrong.token.bytes[5] ^= 0x10;
    assert_int_not_equal(nvc_control(c, &wrong, 0.5f, 0.0f, &e), 0);
    assert_int_equal(e.status, PROTO_STATUS_UNAUTHORIZED);
    if (nvc_control(c, &boat, -0.5f, -0.2f, &e)) fail_msg("old token refused: %s", e.message);
    assert_int_not_equal(nvc_despawn(c, &wrong, &e), 0);
    if (nvc_despawn(c, &boat, &e)) fail_msg("despawn with the old token: %s", e.message);
    if (nvc_get_stats(c, &st, &e)) fail_msg("stats: %s", e.message);
    memset(&s, 0, sizeof s);
    do { /* snapshots queued before the despawn still have it */
        if (nvc_poll_snapshot(c, 3000, &s, &e)) fail_msg("no snapshot: %s", e.message);
    } while (s.tick <= st.tick);
    assert_null(find_vessel(&s, boat.id));
    proto_free_snapshot(&s);
    nvc_close(c);
    assert_int_equal(proc_stop(&srv, SIGKILL, 5.0), 128 + SIGKILL);
}

/* The tick the log says the server restored. */
static uint64_t restored_tick(void) {
    char* text = logged_slurp(log_path, NULL);
    assert_non_null(text);
    const char* at = strstr(text, "restored tick ");
    unsigned long long t = 0;
    if (!at || sscanf(at, "restored tick %llu", &t) != 1) fail_msg("no 'restored tick' in the log: %s", text);
    free(text);
    return t;
}

static void test_restore_falls_back_and_refuses(void** state) {
    (void)state;
    nv_error err;
    nv_checkpoint ck;
    if (nv_checkpoint_read_file(prev, &ck, &err)) fail_msg("%s", err.message);
    prev_tick = ck.tick;
    nv_checkpoint_free(&ck);
    assert_true(prev_tick < good_tick);
    size_t size = 0;
    char* good = logged_slurp(ckpt, &size);
    assert_non_null(good);

    /* One byte flipped in the middle of the newest file. */
    good[size / 2] ^= 0x01;
    assert_int_equal(logged_write(ckpt, good, size), 0);
    good[size / 2] ^= 0x01;
    start_restored();
    assert_int_equal(restored_tick(), prev_tick);
    assert_true(logged_contains(log_path, "--restore: refused"));
    assert_true(logged_contains(log_path, "checksum mismatch"));
    assert_int_equal(proc_stop(&srv, SIGKILL, 5.0), 128 + SIGKILL);

    /* Cut to half its length. */
    assert_int_equal(logged_write(ckpt, good, size / 2), 0);
    start_restored();
    assert_int_equal(restored_tick(), prev_tick);
    assert_true(logged_contains(log_path, "truncated"));
    assert_true(logged_contains(log_path, "resuming from the previous checkpoint"));
    assert_int_equal(proc_stop(&srv, SIGKILL, 5.0), 128 + SIGKILL);
    free(good);

    /* Both bad: exit 2 naming both. */
    size_t psize = 0;
    char* p = logged_slurp(prev, &psize);
    assert_non_null(p);
    p[psize - 3] ^= 0x40;
    assert_int_equal(logged_write(prev, p, psize), 0);
    free(p);
    char out[160];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    const char* argv[] = {NAVAL_SERVER_PATH, "--restore", ckpt, "--http", "", "--snapshot-url", "tcp://127.0.0.1:0",
                          "--command-url", "", "--compact-url", "", "--view-url", "", NULL};
    int rc = logged_run(argv, out, log_path, 20.0);
    char* text = logged_slurp(log_path, NULL);
    if (rc != 2) fail_msg("exit %d with both checkpoints corrupt, expected 2: %s", rc, text ? text : "");
    assert_non_null(strstr(text, "no usable checkpoint"));
    assert_non_null(strstr(text, "world.ckpt: "));
    assert_non_null(strstr(text, "world.ckpt.prev: "));
    free(text);
}

/* A pod's first start with --restore-if-present: no checkpoint yet, so a
 * new world that checkpoints where the next start restores from; killed
 * and started again with the same flags, it resumes. */
static void test_restore_if_present(void** state) {
    (void)state;
    char pod[160], pod_log[160];
    snprintf(pod, sizeof pod, "%s/pod.ckpt", dir);
    snprintf(pod_log, sizeof pod_log, "%s/pod.log", dir);
    const char* extra[] = {"--boats", "4", "--threads", "1", "--tick-hz", "30", "--restore", pod,
                           "--restore-if-present", "--checkpoint-interval", "0.5", NULL};
    if (logged_start(&srv, extra, pod_log, 20.0)) fail_msg("naval-server did not start without a checkpoint");
    assert_true(logged_contains(pod_log, "no checkpoint at"));
    nv_checkpoint ck;
    memset(&ck, 0, sizeof ck);
    nv_error err;
    double deadline = proc_now() + 8.0;
    while (nv_checkpoint_read_file(pod, &ck, &err) != 0 || ck.tick < 10) {
        nv_checkpoint_free(&ck);
        if (proc_now() > deadline) fail_msg("no checkpoint at %s within 8 s", pod);
        proc_sleep_ms(50);
    }
    uint64_t tick = ck.tick;
    nv_checkpoint_free(&ck);
    assert_int_equal(proc_stop(&srv, SIGKILL, 5.0), 128 + SIGKILL);
    if (logged_start(&srv, extra, pod_log, 20.0)) fail_msg("naval-server did not restart from %s", pod);
    assert_true(logged_contains(pod_log, "restored tick"));
    nvc_client* c = connect_to(&srv);
    proto_snapshot s = {0};
    nv_error e;
    if (nvc_poll_snapshot(c, 3000, &s, &e)) fail_msg("no snapshot: %s", e.message);
    assert_true(s.tick >= tick);
    assert_int_equal(s.vessel_count, 4);
    proto_free_snapshot(&s);
    nvc_close(c);
    assert_int_equal(logged_stop(&srv, SIGTERM, 15.0, pod_log, 0), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_restore_after_kill),
        cmocka_unit_test(test_restore_falls_back_and_refuses),
        cmocka_unit_test(test_restore_if_present),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
