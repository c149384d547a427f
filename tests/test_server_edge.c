// SPDX-License-Identifier: MIT
/* naval-server's network edge from outside, against real server processes
 * on loopback, with raw sockets (what clients the project did not write
 * send):
 *  - a flood of half-open HTTP requests: /healthz, a new subscriber and a
 *    new command client from another address are served at once; the
 *    refusals are counted in /metrics;
 *  - subscriber churn over tcp and WebSocket: the server's heap
 *    (/metrics naval_heap_bytes) comes back to its level, and it still
 *    exits promptly on SIGTERM;
 *  - a WebSocket upgrade with Host: localhost on a server bound to
 *    127.0.0.1 (the page's own address) is accepted;
 *  - a connecting loop of hellos: no line per hello at INFO, one summary
 *    per interval; at DEBUG the line budget holds and says what it
 *    dropped. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "proto.h"
#include "test_net_util.h"
#include "test_server_logged.h"

/* The sanitizers slow the server 5-15x: fewer connections there, the
 * same checks. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define EDGE_SLOW 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define EDGE_SLOW 1
#endif
#endif
#ifndef EDGE_SLOW
#define EDGE_SLOW 0
#endif

/* From an address of its own: the floods fill 127.0.0.1's share. */
static double metric(const server_proc* p, const char* series) {
    double v = proc_metric(p, "127.0.0.9", series);
    if (isnan(v)) fail_msg("no %s in /metrics", series);
    return v;
}

/* One hello over a fresh SP REQ connection from `source` (NULL: any): 0
 * once answered. */
static int raw_hello(int port, const char* source, uint32_t id) {
    int fd = net_connect_from(port, source);
    if (fd < 0) return -1;
    int rc = -1;
    proto_request req;
    memset(&req, 0, sizeof req);
    req.kind = PROTO_BODY_HELLO;
    req.request_id = id;
    req.body.hello.protocol_version = PROTO_VERSION;
    snprintf(req.body.hello.client_name, sizeof req.body.hello.client_name, "flood");
    proto_buf buf = {0};
    proto_error pe;
    static uint8_t msg[4096];
    if (net_sp_handshake(fd, NET_SP_REQ, NET_SP_REP) == 0 && proto_encode_request(&buf, &req, &pe) == 0 &&
        buf.size + 4 <= sizeof msg) {
        uint32_t rid = 0x80000000u | id;
        for (int i = 0; i < 4; i++) msg[i] = (uint8_t)(rid >> (24 - 8 * i));
        memcpy(msg + 4, buf.data, buf.size);
        if (net_sp_send(fd, msg, buf.size + 4) == 0 && net_sp_recv(fd, msg, sizeof msg, 5.0) > 4) rc = 0;
    }
    proto_free_buf(&buf);
    close(fd);
    return rc;
}

static void test_half_open_flood(void** state) {
    (void)state;
    server_proc srv;
    const char* extra[] = {"--boats", "20", "--threads", "1", "--max-connections-per-address", "64",
                           "--header-timeout", "2", "--log-level", "warn", NULL};
    assert_int_equal(proc_start(&srv, NAVAL_SERVER_PATH, extra, 20.0), 0);
    enum { FLOOD = 500 };
    static int fds[FLOOD];
    for (int i = 0; i < FLOOD; i++) {
        fds[i] = net_connect(srv.http_port);
        assert_true(fds[i] >= 0);
        net_send_text(fds[i], "GET /healthz HTTP/1.1\r\nHo");
    }
    double t0 = net_now();
    /* Another address: the site, a new subscriber, a new command client. */
    int fd = net_connect_from(srv.http_port, "127.0.0.2");
    static char out[8192];
    assert_int_equal(net_send_text(fd, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"), 0);
    assert_int_equal(net_recv_head(fd, out, sizeof out, 5.0), 200);
    close(fd);
    fd = net_connect_from(srv.http_port, "127.0.0.2");
    assert_int_equal(net_ws_upgrade(fd, "/ws/snapshots", "x", "pub.sp.nanomsg.org", out, sizeof out), 101);
    int op;
    static uint8_t snap[1 << 20];
    assert_true(net_ws_recv(fd, snap, sizeof snap, &op, 5.0) > 0);
    close(fd);
    assert_int_equal(raw_hello(srv.command_port, "127.0.0.2", 1), 0);
    print_message("beside %d half-open requests: /healthz, a ws subscriber's first snapshot and a hello in %.0f ms\n",
                  FLOOD, (net_now() - t0) * 1e3);
    assert_true(metric(&srv, "naval_connections_refused_total{reason=\"address_full\"} ") >= FLOOD - 64 - 2);
    for (int i = 0; i < FLOOD; i++) close(fds[i]);
    assert_int_equal(proc_stop(&srv, SIGTERM, 10.0), 0);
}

static void churn(const server_proc* srv, int count) {
    static uint8_t buf[1 << 16];
    static char head[2048];
    for (int i = 0; i < count; i++) {
        int ws = i & 1;
        int fd = net_connect(ws ? srv->http_port : srv->snapshot_port);
        if (fd < 0) continue;
        int ok = ws ? net_ws_upgrade(fd, "/ws/snapshots", "x", NULL, head, sizeof head) == 101
                    : net_sp_handshake(fd, NET_SP_SUB, NET_SP_PUB) == 0;
        if (ok && (i & 2)) net_recv_some(fd, buf, sizeof buf, 0.5); /* part of a snapshot */
        if (i & 4) net_abort_close(fd);
        else close(fd);
    }
}

/* The heap once the churn's connections are gone: the lowest of a few
 * readings (the world's own work allocates and frees every tick). */
static double quiet_heap(const server_proc* srv) {
    double deadline = net_now() + 10.0;
    while (metric(srv, "naval_connections ") > 1 && net_now() < deadline) net_sleep_ms(20);
    double low = 1e300;
    for (int i = 0; i < 5; i++) {
        double h = metric(srv, "naval_heap_bytes ");
        if (h < low) low = h;
        net_sleep_ms(50);
    }
    return low;
}

static void test_churn_and_exit(void** state) {
    (void)state;
    server_proc srv;
    const char* extra[] = {"--boats", "300", "--threads", "1", "--tick-hz", "200", "--log-level", "warn", NULL};
    assert_int_equal(proc_start(&srv, NAVAL_SERVER_PATH, extra, 20.0), 0);
    churn(&srv, EDGE_SLOW ? 100 : 400);
    double before = quiet_heap(&srv);
    enum { CONNECTS = EDGE_SLOW ? 400 : 2000 };
    double t0 = net_now();
    churn(&srv, CONNECTS);
    double took = net_now() - t0;
    double after = quiet_heap(&srv);
    double per = (after - before) / CONNECTS;
    print_message("%d subscriber connects in %.1f s (tcp and ws): server heap %.0f -> %.0f bytes (%+.1f per connect)\n",
                  CONNECTS, took, before, after, per);
    /* nng 1.5.2's PUB kept 37 (tcp) to 711 (ws) bytes per connect. */
    assert_true(per < 10.0);
    assert_true(metric(&srv, "naval_snapshot_buffers ") <= 2);
    t0 = net_now();
    assert_int_equal(proc_stop(&srv, SIGTERM, 10.0), 0);
    print_message("exit %.0f ms after SIGTERM\n", (net_now() - t0) * 1e3);
}

static void test_ws_host_localhost(void** state) {
    (void)state;
    server_proc srv;
    const char* extra[] = {"--boats", "5", "--threads", "1", "--log-level", "warn", NULL};
    assert_int_equal(proc_start(&srv, NAVAL_SERVER_PATH, extra, 20.0), 0);
    const char* hosts[] = {"localhost", "[::1]", "naval.example", "127.0.0.1"};
    static char head[2048];
    for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
        char host[96];
        snprintf(host, sizeof host, "%s:%d", hosts[i], srv.http_port);
        int fd = net_connect(srv.http_port);
        int status = net_ws_upgrade(fd, "/ws/snapshots", host, "pub.sp.nanomsg.org", head, sizeof head);
        close(fd);
        if (status != 101) fail_msg("Host: %s: status %d", host, status);
    }
    assert_int_equal(proc_stop(&srv, SIGTERM, 10.0), 0);
}

static int count_in_file(const char* path, const char* word, long* sum_after) {
    size_t size;
    char* text = logged_slurp(path, &size);
    if (!text) return -1;
    int n = 0;
    if (sum_after) *sum_after = 0;
    for (char* p = text; (p = strstr(p, word)); p += strlen(word)) {
        n++;
        /* "in the last 1 s: 812 hellos": the number before the word. */
        if (sum_after) {
            char* q = p;
            while (q > text && q[-1] == ' ') q--;
            while (q > text && q[-1] >= '0' && q[-1] <= '9') q--;
            *sum_after += atol(q);
        }
    }
    free(text);
    return n;
}

static void test_log_flood(void** state) {
    (void)state;
    char log_path[] = "/tmp/naval_edge_log_XXXXXX";
    int tmp = mkstemp(log_path);
    assert_true(tmp >= 0);
    close(tmp);
    server_proc srv;
    /* INFO: hellos are counted, summed once per interval. */
    const char* info[] = {"--boats", "5", "--threads", "1", "--log-interval", "1", NULL};
    assert_int_equal(logged_start(&srv, info, log_path, 20.0), 0);
    enum { HELLOS = 300 };
    for (int i = 0; i < HELLOS; i++) assert_int_equal(raw_hello(srv.command_port, NULL, (uint32_t)i + 1), 0);
    net_sleep_ms(1500);
    assert_int_equal(proc_stop(&srv, SIGTERM, 10.0), 0);
    long summed = 0;
    assert_int_equal(count_in_file(log_path, "hello from", NULL), 0);
    assert_true(count_in_file(log_path, " hellos", &summed) >= 1);
    /* proc_start's probe says hello too. */
    assert_true(summed >= HELLOS && summed <= HELLOS + 5);
    /* DEBUG with a budget of 20 lines a second: the flood is cut (the
     * sanitizer builds, at -O1, answer about 80 hellos a second here). */
    const int budget = 20;
    char budget_text[16], notice[64];
    snprintf(budget_text, sizeof budget_text, "%d", budget);
    snprintf(notice, sizeof notice, "lines dropped (over %d lines per second)", budget);
    const char* debug[] = {"--boats", "5", "--threads", "1", "--log-level", "debug", "--log-lines-per-second", budget_text,
                           NULL};
    assert_int_equal(logged_start(&srv, debug, log_path, 20.0), 0);
    double t0 = net_now();
    for (int i = 0; i < HELLOS; i++) assert_int_equal(raw_hello(srv.command_port, NULL, (uint32_t)i + 1), 0);
    double dropped = metric(&srv, "naval_log_lines_dropped_total ");
    double seconds = net_now() - t0 + 1.0; /* and the stop */
    assert_int_equal(proc_stop(&srv, SIGTERM, 10.0), 0);
    size_t size;
    char* text = logged_slurp(log_path, &size);
    assert_non_null(text);
    int lines = 0;
    for (char* p = text; *p; p++) lines += *p == '\n';
    free(text);
    print_message("%d hellos at DEBUG in %.1f s with a budget of %d lines/s: %d lines written, %.0f dropped\n", HELLOS,
                  seconds, budget, lines, dropped);
    assert_true(dropped > 0);
    assert_true(count_in_file(log_path, notice, NULL) >= 1);
    /* At most the budget per second and its burst (the notices of drops
     * draw on it too), start-up lines included. */
    assert_true(lines <= budget * seconds + budget);
    unlink(log_path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_half_open_flood),
        cmocka_unit_test(test_churn_and_exit),
        cmocka_unit_test(test_ws_host_localhost),
        cmocka_unit_test(test_log_flood),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
