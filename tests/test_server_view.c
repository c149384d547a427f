// SPDX-License-Identifier: MIT
/* Player views end to end: a real naval-server (60 boats, 60 Hz) and
 * clients of the C library over PAIR1 on tcp and WebSocket. A view that
 * follows a spawned boat holds it and every boat near it, at the full
 * stream's positions of the same tick within the near step; a view
 * elsewhere never sees it (fog of war); a view with someone else's token is
 * refused, and so are acks of updates never sent; a client that stops
 * reading does not slow the tick; the metrics count it all. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <nng/nng.h>
#include <nng/protocol/pair1/pair.h>

#include "closer.h"
#include "naval_client.h"
#include "proto.h"
#include "test_server_proc.h"

static server_proc srv;
static nvc_client* cli;

static int group_setup(void** state) {
    (void)state;
    const char* extra[] = {"--boats", "60", "--threads", "2", "--log-level", "warn", "--max-view-radius", "1500",
                           "--max-view-budget", "1024", NULL};
    if (proc_start(&srv, NAVAL_SERVER_PATH, extra, 15.0)) {
        fprintf(stderr, "naval-server did not start\n");
        return -1;
    }
    cli = proc_client(srv.snapshot_url, srv.command_url, 3000, 64);
    return cli ? 0 : -1;
}

/* A close of an nng socket left hanging on its thread (below): main then
 * leaves with _exit, since a normal exit may wait on what it holds. */
static int abandoned;

static void close_client(void* c) { nvc_close(c); }

static int group_teardown(void** state) {
    (void)state;
    /* The client's subscription has queued snapshots nobody reads, the
     * case nng 1.5.2's close hangs in likeliest (close_view_bounded,
     * below): one TSan run on a loaded CI machine, 2026-11-30, timed out
     * here or at exit after all three tests had passed. */
    if (closer_run(close_client, cli, 10.0)) {
        print_message("# nvc_close hung (nng 1.5.2, nanomsg/nng#1543): left on its thread\n");
        abandoned = 1;
    }
    if (srv.pid > 0) proc_stop(&srv, SIGKILL, 5.0);
    return 0;
}

/* nng 1.5.2's nng_close can hang for good (nanomsg/nng#1543, about once in
 * 300 closes; views whose queues are full of unread updates are the
 * likeliest): what is tested here is the server, so a close that has not
 * returned in 10 s is left on its thread and said, not waited for. */
static void close_view(void* v) { nvc_view_close(v); }

static void close_view_bounded(nvc_view* v) {
    if (closer_run(close_view, v, 10.0)) {
        print_message("# nvc_view_close hung (nng 1.5.2, nanomsg/nng#1543): left on its thread\n");
        abandoned = 1;
    }
}

static void close_socket(void* s) { nng_close(*(nng_socket*)s); }

static void close_socket_bounded(nng_socket s) {
    static nng_socket left; /* outlives a close left on its thread */
    left = s;
    if (closer_run(close_socket, &left, 10.0)) {
        print_message("# nng_close hung (nng 1.5.2, nanomsg/nng#1543): left on its thread\n");
        abandoned = 1;
    }
}

static nvc_view* open_view(const char* url, double x, double z, float radius, const nvc_vessel* own, int follow) {
    nvc_view_options o;
    nvc_view_options_default(&o);
    o.url = url;
    o.center[0] = x;
    o.center[1] = z;
    o.radius = radius;
    o.own = own;
    o.own_count = own ? 1 : 0;
    o.follow_own = follow;
    nvc_view* v = NULL;
    nv_error e;
    if (nvc_view_open(&v, &o, &e)) fail_msg("view: %s", e.message);
    return v;
}

/* Recent full snapshots by tick, for the truth. */
#define RING 256
static proto_snapshot ring[RING];

static const proto_vessel* truth(uint64_t tick, uint32_t id) {
    const proto_snapshot* s = &ring[tick % RING];
    if (s->tick != tick) return NULL;
    for (uint32_t i = 0; i < s->vessel_count; i++)
        if (s->vessels[i].id == id) return &s->vessels[i];
    return NULL;
}

static void drain_snapshots(void) {
    nv_error e;
    proto_snapshot s = {0};
    while (nvc_poll_snapshot(cli, 0, &s, &e) == 0) {
        proto_snapshot* slot = &ring[s.tick % RING];
        proto_snapshot tmp = *slot;
        *slot = s;
        s = tmp; /* reuse the old slot's storage next */
    }
    proto_free_snapshot(&s);
}

static void test_follow_own_boat(void** state) {
    (void)state;
    nv_error e;
    nvc_vessel boat;
    if (nvc_spawn(cli, "patrol", 0, 250.0, 900.0, 0.0, &boat, &e)) fail_msg("%s", e.message);
    if (nvc_control(cli, &boat, 1.0f, 0.3f, &e)) fail_msg("%s", e.message);
    nvc_view* v = open_view(srv.view_url, 0.0, 0.0, 800.0f, &boat, 1);
    uint32_t checked = 0, own_seen = 0, updates = 0;
    double worst = 0.0;
    /* 120 updates: 2 s at 60 Hz, longer in the sanitizer builds' slower server. */
    double deadline = proc_now() + 30.0;
    proto_view_header h;
    while (updates < 120 && proc_now() < deadline) {
        drain_snapshots();
        if (nvc_view_poll(v, 200, &h, &e)) {
            if (e.code == NV_ETIMEDOUT) continue;
            fail_msg("poll: %s", e.message);
        }
        updates++;
        drain_snapshots();
        uint32_t n;
        const proto_view_vessel* vs = nvc_view_vessels(v, &n);
        for (uint32_t i = 0; i < n; i++) {
            if (vs[i].samples[0].tick != h.tick) continue;
            /* counted whether or not the full stream's snapshot of that
             * tick has come (under load it drops some: the view does not) */
            own_seen += vs[i].id == boat.id;
            const proto_vessel* t = truth(h.tick, vs[i].id);
            if (!t) continue;
            double d = hypot(t->position[0] - vs[i].samples[0].position[0],
                             t->position[2] - vs[i].samples[0].position[2]);
            worst = d > worst ? d : worst;
            /* The far class's step is 25 cm; the own boat is near: 2 mm. */
            assert_true(d < (vs[i].id == boat.id ? 0.004 : 0.2));
            checked++;
        }
    }
    print_message("%u updates, %u samples checked against the full stream, worst %.1f mm, own boat %u times\n", updates,
                  checked, worst * 1000.0, own_seen);
    assert_true(updates >= 120);
    assert_true(own_seen > 100);  /* the own boat is in nearly every update */
    assert_true(checked > 300);
    nvc_view_counts c;
    nvc_view_counts_get(v, &c);
    assert_int_equal(c.undecodable, 0);
    assert_int_equal(c.reconnects, 0);
    close_view_bounded(v);
    /* Fog of war: a view 1.5 km away never holds it, over WebSocket too. */
    nvc_view* far = open_view(srv.ws_view, -3000.0, -3000.0, 1e9f, NULL, 0);
    for (int i = 0; i < 60; i++) {
        if (nvc_view_poll(far, 500, &h, &e) && e.code != NV_ETIMEDOUT) fail_msg("ws poll: %s", e.message);
        assert_null(nvc_view_find(far, boat.id));
        if (h.has_settings) assert_true(h.settings.radius == 1500.0f); /* capped */
    }
    close_view_bounded(far);
    nvc_despawn(cli, &boat, &e);
}

static void test_refusals(void** state) {
    (void)state;
    nv_error e;
    nvc_vessel boat;
    if (nvc_spawn(cli, "skiff", 0, -400.0, 300.0, 0.0, &boat, &e)) fail_msg("%s", e.message);
    nvc_vessel forged = boat;
    forged.token.bytes[3] ^= 0x55;
    nvc_view* v = open_view(srv.view_url, 0.0, 0.0, 500.0f, &forged, 1);
    proto_view_header h;
    int refused = 0;
    for (int i = 0; i < 20 && !refused; i++)
        if (nvc_view_poll(v, 500, &h, &e) && e.code == NV_EREFUSED) {
            assert_int_equal(e.status, PROTO_STATUS_UNAUTHORIZED);
            assert_non_null(strstr(e.message, "not yours"));
            refused = 1;
        }
    assert_true(refused);
    close_view_bounded(v);
    /* Raw PAIR1: an ack of an update never sent, then garbage. */
    nng_socket s;
    assert_int_equal(nng_pair1_open(&s), 0);
    assert_int_equal(nng_dial(s, srv.view_url, NULL, 0), 0);
    nng_socket_set_ms(s, NNG_OPT_RECVTIMEO, 2000);
    proto_view_request r;
    memset(&r, 0, sizeof r);
    r.ack = 123456;
    proto_buf b = {0};
    assert_int_equal(proto_encode_view_request(&b, &r, NULL), 0);
    assert_int_equal(nng_send(s, (void*)b.data, b.size, 0), 0);
    proto_view_decoder* d = proto_create_view_decoder(64, NULL);
    char* buf = NULL;
    size_t size = 0;
    assert_int_equal(nng_recv(s, &buf, &size, NNG_FLAG_ALLOC), 0);
    assert_int_equal(proto_decode_view_update(d, buf, size, &h, NULL), 0);
    assert_int_equal(h.status, PROTO_STATUS_BAD_REQUEST);
    assert_non_null(strstr(h.error, "never sent"));
    nng_free(buf, size);
    assert_int_equal(nng_send(s, "\x01\x02garbage", 9, 0), 0);
    assert_int_equal(nng_recv(s, &buf, &size, NNG_FLAG_ALLOC), 0);
    assert_int_equal(proto_decode_view_update(d, buf, size, &h, NULL), 0);
    assert_int_equal(h.status, PROTO_STATUS_BAD_REQUEST);
    nng_free(buf, size);
    proto_destroy_view_decoder(d);
    proto_free_buf(&b);
    close_socket_bounded(s);
    nvc_despawn(cli, &boat, &e);
}

/* Views that never read: the tick goes on, the metrics count them. */
static void test_silent_views_and_metrics(void** state) {
    (void)state;
    nvc_view* silent[4];
    for (int i = 0; i < 4; i++) silent[i] = open_view(srv.view_url, 0.0, 0.0, 1500.0f, NULL, 0);
    nvc_view* live = open_view(srv.view_url, 0.0, 0.0, 1500.0f, NULL, 0);
    nv_error e;
    proto_view_header h;
    proto_stats st0, st1;
    if (nvc_get_stats(cli, &st0, &e)) fail_msg("%s", e.message);
    uint64_t first = 0, last = 0, updates = 0;
    double deadline = proc_now() + 3.0;
    while (proc_now() < deadline)
        if (nvc_view_poll(live, 200, &h, &e) == 0) {
            if (!first) first = h.tick;
            last = h.tick;
            updates++;
        }
    if (nvc_get_stats(cli, &st1, &e)) fail_msg("%s", e.message);
    /* The live view gets an update nearly every tick the server made
     * (sanitizer builds tick slower: compare with the server's own count). */
    uint64_t ticks = st1.tick - st0.tick;
    print_message("%llu ticks, the live view saw %llu of them in %llu updates\n", (unsigned long long)ticks,
                  (unsigned long long)(last - first), (unsigned long long)updates);
    assert_true(ticks > 30);
    assert_true((double)(last - first) > 0.8 * (double)ticks);
    /* The silent views go to keyframes once 32 updates wait for their
     * acks (64 ticks at 60 Hz; longer in the sanitizer builds' slower
     * server): the metrics say so. */
    static char text[65536];
    unsigned views = 0, fallback = 0;
    deadline = proc_now() + 30.0;
    while (fallback < 4 && proc_now() < deadline) {
        nvc_view_poll(live, 200, &h, &e);
        assert_int_equal(proc_http_get(srv.http_port, "/metrics", text, sizeof text), 200);
        const char* p = strstr(text, "\nnaval_views ");
        assert_non_null(p);
        sscanf(p, "\nnaval_views %u", &views);
        p = strstr(text, "\nnaval_views_fallback ");
        assert_non_null(p);
        sscanf(p, "\nnaval_views_fallback %u", &fallback);
    }
    print_message("views %u, on keyframes %u\n", views, fallback);
    assert_true(views >= 5);
    assert_true(fallback >= 4);
    for (int i = 0; i < 4; i++) close_view_bounded(silent[i]);
    close_view_bounded(live);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_follow_own_boat),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_silent_views_and_metrics),
    };
    int rc = cmocka_run_group_tests(tests, group_setup, group_teardown);
    for (int i = 0; i < RING; i++) proto_free_snapshot(&ring[i]);
    if (abandoned) {
        fflush(NULL);
        _exit(rc);
    }
    return rc;
}
