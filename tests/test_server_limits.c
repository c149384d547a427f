// SPDX-License-Identifier: MIT
/* naval-server's limits end to end, on a server started with small ones:
 * vessels per connection and in total, requests per second, orphaned
 * vessels removed after their connection closes unless taken over with
 * the token, and SIGINT exiting cleanly. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "naval_client.h"
#include "proto.h"
#include "test_server_proc.h"

static server_proc srv;

static nvc_client* connect_to(const char* snapshots, const char* commands) {
    nvc_client* c = proc_client(snapshots, commands, 3000, 4);
    assert_non_null(c);
    return c;
}

/* A web root without an index.html: "/" falls back to the built-in page. */
static char web_root[64];

static int group_setup(void** state) {
    (void)state;
    snprintf(web_root, sizeof web_root, "/tmp/naval_web_XXXXXX");
    if (!mkdtemp(web_root)) return -1;
    const char* extra[] = {"--boats", "2", "--threads", "1", "--log-level", "warn", "--vessels-per-client", "2",
                           "--vessels-total", "6", "--requests-per-second", "1", "--request-burst", "3",
                           "--orphan-timeout", "1", "--web-root", web_root, NULL};
    if (proc_start(&srv, NAVAL_SERVER_PATH, extra, 15.0)) {
        fprintf(stderr, "naval-server did not start\n");
        return -1;
    }
    return 0;
}

static int group_teardown(void** state) {
    (void)state;
    if (srv.pid > 0) proc_stop(&srv, SIGKILL, 5.0);
    rmdir(web_root);
    return 0;
}

static uint32_t vessels_now(nvc_client* snaps) {
    proto_snapshot s = {0};
    nv_error e;
    /* The newest: drain what is queued, then one more. */
    while (nvc_poll_snapshot(snaps, 0, &s, &e) == 0) {
    }
    if (nvc_poll_snapshot(snaps, 3000, &s, &e)) fail_msg("no snapshot: %s", e.message);
    uint32_t n = s.vessel_count;
    proto_free_snapshot(&s);
    return n;
}

/* Snapshots in flight may predate the last request: wait for the count. */
static uint32_t wait_vessels(nvc_client* snaps, uint32_t expect, double seconds) {
    double deadline = proc_now() + seconds;
    uint32_t n;
    while ((n = vessels_now(snaps)) != expect && proc_now() < deadline) proc_sleep_ms(50);
    return n;
}

static void test_vessel_limits_and_orphans(void** state) {
    (void)state;
    nvc_client* watch = connect_to(srv.snapshot_url, NULL);
    assert_int_equal(vessels_now(watch), 2);
    nv_error e;
    nvc_client* a = connect_to(NULL, srv.command_url);
    nvc_vessel va[3];
    assert_int_equal(nvc_spawn(a, "skiff", 0, 0, 100, 0, &va[0], &e), 0);
    assert_int_equal(nvc_spawn(a, "skiff", 0, 0, 120, 0, &va[1], &e), 0);
    assert_int_equal(nvc_spawn(a, "skiff", 0, 0, 140, 0, &va[2], &e), -1);
    assert_int_equal(e.status, PROTO_STATUS_LIMIT_EXCEEDED);
    assert_non_null(strstr(e.message, "(limit 2 per player)"));
    nvc_client* b = connect_to(NULL, srv.command_url);
    nvc_vessel vb[2];
    assert_int_equal(nvc_spawn(b, "patrol", 0, 0, -100, 0, &vb[0], &e), 0);
    assert_int_equal(nvc_spawn(b, "patrol", 0, 0, -160, 0, &vb[1], &e), 0);
    nvc_client* c = connect_to(NULL, srv.command_url);
    nvc_vessel vc;
    assert_int_equal(nvc_spawn(c, "skiff", 0, 50, 0, 0, &vc, &e), -1);
    assert_int_equal(e.status, PROTO_STATUS_LIMIT_EXCEEDED);
    assert_non_null(strstr(e.message, "full"));
    assert_int_equal(wait_vessels(watch, 6, 10.0), 6);
    /* a leaves: its two skiffs go after the 1 s orphan timeout. b leaves
     * too, but c takes one of b's boats over with its token first. */
    nvc_close(a);
    nvc_close(b);
    proc_sleep_ms(200);
    assert_int_equal(nvc_control(c, &vb[0], 0.5f, 0.0f, &e), 0);
    assert_int_equal(wait_vessels(watch, 3, 10.0), 3);
    proc_sleep_ms(1500);
    assert_int_equal(vessels_now(watch), 3);
    assert_int_equal(nvc_control(c, &vb[0], 0.0f, 0.0f, &e), 0);
    assert_int_equal(nvc_control(c, &vb[1], 0.0f, 0.0f, &e), -1);
    assert_int_equal(e.status, PROTO_STATUS_NOT_FOUND);
    nvc_close(c);
    nvc_close(watch);
}

static void test_rate_limit(void** state) {
    (void)state;
    nvc_client* c = connect_to(NULL, srv.command_url);
    nv_error e;
    int ok = 0, limited = 0;
    char why[NV_ERROR_MAX] = "";
    double t0 = proc_now();
    for (int i = 0; i < 12; i++) {
        if (nvc_hello(c, "flood", NULL, &e) == 0) {
            ok++;
        } else if (e.status == PROTO_STATUS_RATE_LIMITED) {
            limited++;
            snprintf(why, sizeof why, "%s", e.message);
        } else {
            fail_msg("unexpected: %s", e.message);
        }
    }
    /* A burst of 3, plus what refills (1 per second) while they run: slow
     * (sanitizer) builds take seconds for the twelve. */
    double refill = 1.0 * (proc_now() - t0);
    if (!(ok >= 3 && ok <= 3 + (int)refill + 1 && limited >= 1))
        fail_msg("%d accepted and %d refused in %.2f s (burst 3, 1 per second)", ok, limited, proc_now() - t0);
    assert_non_null(strstr(why, "requests per second"));
    /* Another connection has its own bucket; this one refills. */
    nvc_client* other = connect_to(NULL, srv.command_url);
    assert_int_equal(nvc_hello(other, "calm", NULL, &e), 0);
    nvc_close(other);
    proc_sleep_ms(1100);
    assert_int_equal(nvc_hello(c, "later", NULL, &e), 0);
    nvc_close(c);
}

static void test_builtin_page(void** state) {
    (void)state;
    static char text[1 << 16];
    assert_int_equal(proc_http_get(srv.http_port, "/", text, sizeof text), 200);
    assert_non_null(strstr(text, "/ws/snapshots"));
    assert_non_null(strstr(text, "pub.sp.nanomsg.org"));
}

static void test_sigint_exits_cleanly(void** state) {
    (void)state;
    assert_true(proc_alive(&srv));
    assert_int_equal(proc_stop(&srv, SIGINT, 10.0), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vessel_limits_and_orphans),
        cmocka_unit_test(test_rate_limit),
        cmocka_unit_test(test_builtin_page),
        cmocka_unit_test(test_sigint_exits_cleanly),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
