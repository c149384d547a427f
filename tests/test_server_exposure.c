// SPDX-License-Identifier: MIT
/* Issue 34's probes against real server processes, with raw sockets from
 * several loopback addresses (127.0.0.2 and up play other hosts):
 *  - 4 command connections flood GetWorldInfo (a 40+ KB answer) and never
 *    read: the server's heap grows by under 64 MB and comes back within
 *    3 s of their closing;
 *  - 1,024 idle command connections from 4 addresses, each after one
 *    GetStats (the whole max_clients): a newcomer from a fifth address is
 *    answered, within 40 s (at once: the most crowded address's idle one
 *    makes room);
 *  - 256 idle views from 2 addresses (the whole max_views), over tcp and
 *    /ws/view: a newcomer's view gets updates; with nobody idle, a newcomer
 *    is told why and closed;
 *  - private streams: a subscriber from another host gets 403, views still
 *    work. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "proto.h"
#include "test_net_util.h"
#include "test_server_logged.h"

/* RFC 6455's opcode of a binary frame. */
#define WS_BINARY 0x2

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define EXPOSURE_SLOW 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define EXPOSURE_SLOW 1
#endif
#endif
#ifndef EXPOSURE_SLOW
#define EXPOSURE_SLOW 0
#endif

/* From an address of its own: the floods fill 127.0.0.1's share. */
static double metric(const server_proc* p, const char* series) {
    double v = proc_metric(p, "127.0.0.99", series);
    if (isnan(v)) fail_msg("no %s in /metrics", series);
    return v;
}

/* A request as an SP REQ sends it: the request id with its top bit, then
 * the FlatBuffers request. */
static size_t raw_request(uint8_t* out, size_t cap, proto_body kind, uint32_t id) {
    proto_request req;
    memset(&req, 0, sizeof req);
    req.kind = kind;
    req.request_id = id;
    if (kind == PROTO_BODY_HELLO) {
        req.body.hello.protocol_version = PROTO_VERSION;
        snprintf(req.body.hello.client_name, sizeof req.body.hello.client_name, "probe");
    }
    proto_buf buf = {0};
    proto_error pe;
    if (proto_encode_request(&buf, &req, &pe) || buf.size + 4 > cap) fail_msg("cannot encode a request");
    uint32_t rid = 0x80000000u | id;
    for (int i = 0; i < 4; i++) out[i] = (uint8_t)(rid >> (24 - 8 * i));
    memcpy(out + 4, buf.data, buf.size);
    size_t n = buf.size + 4;
    proto_free_buf(&buf);
    return n;
}

/* A command connection from `source` that has said hello: its fd. */
static int raw_requester(int port, const char* source) {
    int fd = net_connect_from(port, source);
    if (fd < 0 || net_sp_handshake(fd, NET_SP_REQ, NET_SP_REP)) return -1;
    return fd;
}

/* One request answered on fd: the answer's status. */
static int raw_ask(int fd, proto_body kind, uint32_t id) {
    static uint8_t msg[1 << 17];
    size_t n = raw_request(msg, sizeof msg, kind, id);
    if (net_sp_send(fd, msg, n)) return -1;
    long got = net_sp_recv(fd, msg, sizeof msg, 10.0);
    if (got <= 4) return -1;
    proto_response r;
    proto_error pe;
    memset(&r, 0, sizeof r);
    int rc = proto_decode_response(msg + 4, (size_t)got - 4, NULL, &r, &pe) ? -1 : (int)r.status;
    proto_free_response(&r);
    return rc;
}

static void test_unread_answers(void** state) {
    (void)state;
    server_proc srv;
    const char* extra[] = {"--boats", "20", "--threads", "1", "--log-level", "warn", "--requests-per-second", "1000",
                           "--request-burst", "1000", "--requests-per-second-per-address", "4000", NULL};
    assert_int_equal(proc_start(&srv, NAVAL_SERVER_PATH, extra, 20.0), 0);
    double before = metric(&srv, "naval_heap_bytes ");
    enum { CONNS = 4 };
    int fds[CONNS];
    for (int k = 0; k < CONNS; k++) {
        fds[k] = raw_requester(srv.command_port, "127.0.0.2");
        assert_true(fds[k] >= 0);
        int small = 4096;
        setsockopt(fds[k], SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    }
    static uint8_t msg[4096];
    size_t n = raw_request(msg, sizeof msg, PROTO_BODY_WORLD_INFO, 1);
    /* About 90 requests a second each, none of the answers read. */
    const double seconds = EXPOSURE_SLOW ? 8.0 : 20.0;
    double t0 = net_now(), peak = before, next_sample = t0;
    uint64_t sent = 0;
    while (net_now() - t0 < seconds) {
        for (int k = 0; k < CONNS; k++)
            if (net_sp_send(fds[k], msg, n) == 0) sent++;
        net_sleep_ms(11);
        if (net_now() >= next_sample) {
            double h = metric(&srv, "naval_heap_bytes ");
            if (h > peak) peak = h;
            next_sample = net_now() + 0.5;
        }
    }
    double unsent = metric(&srv, "naval_unsent_bytes ");
    for (int k = 0; k < CONNS; k++) close(fds[k]);
    double closed_at = net_now(), after = peak;
    while (net_now() - closed_at < 3.0) {
        after = metric(&srv, "naval_heap_bytes ");
        if (after < before + 4e6) break;
        net_sleep_ms(100);
    }
    double back = net_now() - closed_at;
    print_message("%d connections asked %llu world infos in %.0f s without reading: heap %.1f -> peak %.1f MB "
                  "(%.2f MB unsent at the end), %.1f MB %.1f s after closing\n",
                  CONNS, (unsigned long long)sent, seconds, before / 1e6, peak / 1e6, unsent / 1e6, after / 1e6, back);
    assert_true(peak - before < 64e6);
    assert_true(after < before + 4e6);
    assert_true(back < 3.0);
    /* And the server still answers. */
    int fd = raw_requester(srv.command_port, "127.0.0.3");
    assert_int_equal(raw_ask(fd, PROTO_BODY_STATS, 2), PROTO_STATUS_OK);
    close(fd);
    assert_int_equal(proc_stop(&srv, SIGTERM, 10.0), 0);
}

static void test_idle_requesters(void** state) {
    (void)state;
    server_proc srv;
    const char* extra[] = {"--boats", "5", "--threads", "1", "--log-level", "warn", NULL};
    assert_int_equal(proc_start(&srv, NAVAL_SERVER_PATH, extra, 20.0), 0);
    enum { PER = 256, ADDRS = 4 };
    static int fds[PER * ADDRS];
    /* proc_start's hello came and went: all 1,024 places are the flood's. */
    for (int a = 0; a < ADDRS; a++) {
        char source[32];
        snprintf(source, sizeof source, "127.0.0.%d", 10 + a);
        for (int i = 0; i < PER; i++) {
            int k = a * PER + i;
            fds[k] = raw_requester(srv.command_port, source);
            assert_true(fds[k] >= 0);
            assert_int_equal(raw_ask(fds[k], PROTO_BODY_STATS, (uint32_t)k + 1), PROTO_STATUS_OK);
        }
    }
    net_sleep_ms(1100); /* idle now */
    double t0 = net_now();
    int fd = raw_requester(srv.command_port, "127.0.0.20");
    assert_true(fd >= 0);
    assert_int_equal(raw_ask(fd, PROTO_BODY_HELLO, 1), PROTO_STATUS_OK);
    double took = net_now() - t0;
    close(fd);
    /* /ws/commands too, from a sixth address. */
    fd = net_connect_from(srv.http_port, "127.0.0.21");
    static char head[2048];
    assert_int_equal(net_ws_upgrade(fd, "/ws/commands", "x", "rep.sp.nanomsg.org", head, sizeof head), 101);
    static uint8_t msg[4096], frame[4200];
    size_t n = raw_request(msg, sizeof msg, PROTO_BODY_HELLO, 2);
    size_t f = net_ws_frame(frame, 1, WS_BINARY, msg, n);
    assert_int_equal(net_send(fd, frame, f), 0);
    int op;
    static uint8_t answer[1 << 16];
    long got = net_ws_recv(fd, answer, sizeof answer, &op, 10.0);
    assert_true(got > 4);
    proto_response r;
    proto_error pe;
    memset(&r, 0, sizeof r);
    assert_int_equal(proto_decode_response(answer + 4, (size_t)got - 4, NULL, &r, &pe), 0);
    assert_int_equal(r.status, PROTO_STATUS_OK);
    proto_free_response(&r);
    close(fd);
    double evicted = metric(&srv, "naval_sessions_evicted_total ");
    print_message("1024 idle command connections from 4 addresses: a newcomer answered in %.0f ms; %.0f evicted\n",
                  took * 1e3, evicted);
    assert_true(took < 40.0);
    assert_true(evicted >= 1);
    for (int k = 0; k < PER * ADDRS; k++) close(fds[k]);
    assert_int_equal(proc_stop(&srv, SIGTERM, 10.0), 0);
}

/* A PAIR1 message: the hop count, then a ViewRequest with settings. */
static size_t view_open_message(uint8_t* out, size_t cap) {
    proto_view_request vr;
    memset(&vr, 0, sizeof vr);
    vr.has_settings = 1;
    vr.settings.radius = 500.0f;
    proto_buf buf = {0};
    proto_error pe;
    if (proto_encode_view_request(&buf, &vr, &pe) || buf.size + 4 > cap) fail_msg("cannot encode a view request");
    out[0] = out[1] = out[2] = 0;
    out[3] = 1;
    memcpy(out + 4, buf.data, buf.size);
    size_t n = buf.size + 4;
    proto_free_buf(&buf);
    return n;
}

/* The first update a view opened on fd gets (tcp or ws): its status, or -1. */
static int view_first_update(int fd, int ws, char* error, size_t error_cap) {
    static uint8_t msg[1 << 20];
    int op = 0;
    long got = ws ? net_ws_recv(fd, msg, sizeof msg, &op, 10.0) : net_sp_recv(fd, msg, sizeof msg, 10.0);
    if (got <= 4) return -1;
    proto_view_header h;
    proto_error pe;
    proto_view_decoder* d = proto_create_view_decoder(4096, &pe);
    if (!d) return -1;
    int rc = proto_decode_view_update(d, msg + 4, (size_t)got - 4, &h, &pe);
    proto_destroy_view_decoder(d);
    if (rc) return -1;
    if (error) snprintf(error, error_cap, "%s", h.error);
    return (int)h.status;
}

static int view_connect(const server_proc* srv, int ws, const char* source) {
    static char head[2048];
    int fd = net_connect_from(ws ? srv->http_port : srv->view_port, source);
    if (fd < 0) return -1;
    int ok = ws ? net_ws_upgrade(fd, "/ws/view", "x", "pair1.sp.nanomsg.org", head, sizeof head) == 101
                : net_sp_handshake(fd, NET_SP_PAIR1, NET_SP_PAIR1) == 0;
    if (!ok) {
        close(fd);
        return -1;
    }
    return fd;
}

static int view_send(int fd, int ws, const uint8_t* m, size_t n) {
    if (!ws) return net_sp_send(fd, m, n);
    static uint8_t frame[8192];
    size_t f = net_ws_frame(frame, 1, WS_BINARY, m, n);
    return net_send(fd, frame, f);
}

static void test_idle_views(void** state) {
    (void)state;
    server_proc srv;
    const char* extra[] = {"--boats", "5", "--threads", "1", "--log-level", "warn", "--max-views", "256", NULL};
    assert_int_equal(proc_start(&srv, NAVAL_SERVER_PATH, extra, 20.0), 0);
    static uint8_t open_msg[4096];
    size_t open_n = view_open_message(open_msg, sizeof open_msg);
    enum { VIEWS = 256 };
    static int fds[VIEWS];
    for (int ws = 0; ws < 2; ws++) {
        /* Parked: connected, never a word. */
        for (int i = 0; i < VIEWS; i++) {
            fds[i] = view_connect(&srv, ws, i & 1 ? "127.0.0.31" : "127.0.0.32");
            assert_true(fds[i] >= 0);
        }
        double deadline = net_now() + 10.0;
        while (metric(&srv, "naval_views ") < VIEWS && net_now() < deadline) net_sleep_ms(50);
        assert_int_equal(metric(&srv, "naval_views "), VIEWS);
        net_sleep_ms(1100);
        double t0 = net_now();
        int fd = view_connect(&srv, ws, "127.0.0.33");
        assert_true(fd >= 0);
        assert_int_equal(view_send(fd, ws, open_msg, open_n), 0);
        assert_int_equal(view_first_update(fd, ws, NULL, 0), PROTO_STATUS_OK);
        print_message("256 idle views (%s) from 2 addresses: a newcomer's first update in %.0f ms\n",
                      ws ? "/ws/view" : "tcp", (net_now() - t0) * 1e3);
        close(fd);
        for (int i = 0; i < VIEWS; i++) close(fds[i]);
        deadline = net_now() + 10.0;
        while (metric(&srv, "naval_views ") > 0 && net_now() < deadline) net_sleep_ms(50);
    }
    /* Full of views that speak: the newcomer is told why, and closed. */
    for (int i = 0; i < VIEWS; i++) {
        fds[i] = view_connect(&srv, 0, "127.0.0.34");
        assert_true(fds[i] >= 0);
        assert_int_equal(view_send(fds[i], 0, open_msg, open_n), 0);
    }
    double deadline = net_now() + 10.0;
    while (metric(&srv, "naval_views ") < VIEWS && net_now() < deadline) net_sleep_ms(50);
    int fd = view_connect(&srv, 0, "127.0.0.35");
    assert_true(fd >= 0);
    char why[256];
    assert_int_equal(view_first_update(fd, 0, why, sizeof why), PROTO_STATUS_LIMIT_EXCEEDED);
    assert_non_null(strstr(why, "max_views"));
    assert_int_equal(net_wait_closed(fd, 5.0), 0);
    close(fd);
    for (int i = 0; i < VIEWS; i++) close(fds[i]);
    assert_int_equal(proc_stop(&srv, SIGTERM, 10.0), 0);
}

static void test_private_streams(void** state) {
    (void)state;
    server_proc srv;
    const char* extra[] = {"--boats", "5", "--threads", "1", "--log-level", "warn", "--private-streams", NULL};
    assert_int_equal(proc_start(&srv, NAVAL_SERVER_PATH, extra, 20.0), 0);
    static char head[2048];
    static uint8_t msg[1 << 20];
    int fd = net_connect_from(srv.http_port, "127.0.0.1");
    assert_int_equal(net_ws_upgrade(fd, "/ws/snapshots", "x", NULL, head, sizeof head), 101);
    int op;
    assert_true(net_ws_recv(fd, msg, sizeof msg, &op, 5.0) > 0);
    close(fd);
    fd = net_connect_from(srv.http_port, "127.0.0.40");
    assert_int_equal(net_ws_upgrade(fd, "/ws/snapshots", "x", NULL, head, sizeof head), 403);
    close(fd);
    fd = net_connect_from(srv.snapshot_port, "127.0.0.40");
    net_sp_handshake(fd, NET_SP_SUB, NET_SP_PUB);
    assert_int_equal(net_wait_closed(fd, 5.0), 0);
    close(fd);
    assert_int_equal(metric(&srv, "naval_private_stream_refused_total "), 2);
    /* Views from anywhere: the fog of war is the only way to see. */
    static uint8_t open_msg[4096];
    size_t open_n = view_open_message(open_msg, sizeof open_msg);
    fd = view_connect(&srv, 1, "127.0.0.40");
    assert_int_equal(view_send(fd, 1, open_msg, open_n), 0);
    assert_int_equal(view_first_update(fd, 1, NULL, 0), PROTO_STATUS_OK);
    close(fd);
    assert_int_equal(proc_stop(&srv, SIGTERM, 10.0), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unread_answers),
        cmocka_unit_test(test_idle_requesters),
        cmocka_unit_test(test_idle_views),
        cmocka_unit_test(test_private_streams),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
