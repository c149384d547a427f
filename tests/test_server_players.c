// SPDX-License-Identifier: MIT
/* naval-server's limits from outside, as a tester with many connections
 * from one address sees them: twelve connections that present one player
 * identity are one player (its vessels, its requests per second); twelve
 * without one are held by the limits of their address; a vessel type
 * name or client name holding a newline forges no log line; wrong admin
 * tokens are counted in /metrics and lock the address out for a time that
 * doubles; a heading of 1e308 rad is refused. One server, small limits,
 * its log (at debug) in a file. */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "naval_client.h"
#include "proto.h"
#include "test_server_logged.h"

#define ADMIN "players-test-admin-secret-0123"
#define CONNS 12
#define PER_PLAYER 4
#define PER_ADDRESS 10
#define RATE 10.0         /* per player */
#define BURST 10
/* Low enough that a flood outruns it even where every answer is slow
 * (ThreadSanitizer on a loaded machine answered 46 hellos a second). */
#define ADDRESS_RATE 12.0 /* per address */
#define ADDRESS_BURST 24

static server_proc srv;
static char dir[64], log_path[128];

static int group_setup(void** state) {
    (void)state;
    if (logged_tempdir(dir, sizeof dir, "naval_players")) return -1;
    snprintf(log_path, sizeof log_path, "%s/server.log", dir);
    /* Never a flag: the admin token comes from the environment. */
    setenv("NAVAL_ADMIN_TOKEN", ADMIN, 1);
    const char* extra[] = {"--boats", "0", "--terrain", "none", "--threads", "1", "--spawn-anywhere",
                           "--log-level", "debug", "--log-lines-per-second", "100000", "--log-interval", "1",
                           "--vessels-per-client", "4", "--vessels-per-address", "10", "--vessels-total", "200",
                           "--requests-per-second", "10", "--request-burst", "10",
                           "--requests-per-second-per-address", "12", "--request-burst-per-address", "24",
                           "--admin-token-failures", "3", "--admin-backoff", "1", "--orphan-timeout", "1", NULL};
    int rc = logged_start(&srv, extra, log_path, 15.0);
    unsetenv("NAVAL_ADMIN_TOKEN");
    if (rc) {
        fprintf(stderr, "naval-server did not start; its log:\n");
        char* text = logged_slurp(log_path, NULL);
        fprintf(stderr, "%s\n", text ? text : "(none)");
        free(text);
        return -1;
    }
    return 0;
}

static int group_teardown(void** state) {
    (void)state;
    if (srv.pid > 0) proc_stop(&srv, SIGKILL, 5.0);
    logged_rmdir(dir);
    return 0;
}

static nvc_client* connect_as(const char* admin) {
    nvc_options o;
    nvc_options_default(&o);
    o.command_url = srv.command_url;
    o.request_timeout_ms = 5000;
    o.admin_token = admin;
    nvc_client* c = NULL;
    nv_error e;
    if (nvc_connect(&c, &o, &e)) fail_msg("connect: %s", e.message);
    return c;
}

/* The address's bucket full again (ADDRESS_BURST / ADDRESS_RATE = 2 s),
 * so that one test's requests do not spend the next one's. */
static void let_the_address_refill(void) { proc_sleep_ms((int)(1000.0 * ADDRESS_BURST / ADDRESS_RATE) + 200); }

/* Calls refused for their rate are made again: the limits here are small,
 * and only the rate tests count refusals. */
#define PATIENTLY(rc, e, call)                                                                                 \
    do {                                                                                                       \
        double until_ = proc_now() + 10.0;                                                                     \
        while (((rc) = (call)) != 0 && (e).status == PROTO_STATUS_RATE_LIMITED && proc_now() < until_)         \
            proc_sleep_ms(50);                                                                                 \
    } while (0)

static uint64_t metric(const char* name) {
    static char text[1 << 17];
    if (proc_http_get(srv.http_port, "/metrics", text, sizeof text) != 200) fail_msg("no /metrics");
    char key[160];
    snprintf(key, sizeof key, "\n%s ", name);
    const char* at = strstr(text, key);
    if (!at) fail_msg("/metrics has no %s", name);
    return strtoull(at + strlen(key), NULL, 10);
}

/* Spawns on every connection, `each` apiece, far apart: how many went.
 * Refusals must be LIMIT_EXCEEDED naming `limit`. */
static uint32_t spawn_all(nvc_client** c, int each, nvc_vessel* got, uint32_t cap, const char* limit) {
    uint32_t n = 0;
    for (int k = 0; k < each; k++)
        for (int i = 0; i < CONNS; i++) {
            nvc_vessel v;
            nv_error e;
            int rc;
            PATIENTLY(rc, e, nvc_spawn(c[i], "skiff", 0, 100.0 * i, 100.0 * k, 0.0, &v, &e));
            if (rc == 0) {
                assert_true(n < cap);
                got[n++] = v;
            } else if (e.status != PROTO_STATUS_LIMIT_EXCEEDED || !strstr(e.message, limit)) {
                fail_msg("connection %d: unexpected refusal: %s", i, e.message);
            }
        }
    return n;
}

static void despawn_all(nvc_client* c, const nvc_vessel* v, uint32_t n) {
    nv_error e;
    for (uint32_t i = 0; i < n; i++) {
        int rc;
        PATIENTLY(rc, e, nvc_despawn(c, &v[i], &e));
        if (rc) fail_msg("despawn %u: %s", v[i].id, e.message);
    }
}

/* Hellos from every connection, `rounds` times: how many were answered in
 * *ok, and in why the last refusal whose reason contains `want` (else the
 * last refusal). */
typedef struct hello_flooder {
    pthread_t thread;
    nvc_client* c;
    const char* want;
    int rounds, ok;
    char why[NV_ERROR_MAX];
    char unexpected[NV_ERROR_MAX];
} hello_flooder;

static void* hello_flooder_main(void* arg) {
    hello_flooder* f = arg;
    for (int r = 0; r < f->rounds; r++) {
        nv_error e;
        if (nvc_hello(f->c, "flood", NULL, &e) == 0) f->ok++;
        else if (e.status == PROTO_STATUS_RATE_LIMITED) {
            if (!f->why[0] || !strstr(f->why, f->want) || strstr(e.message, f->want))
                snprintf(f->why, sizeof f->why, "%s", e.message);
        }
        else snprintf(f->unexpected, sizeof f->unexpected, "%s", e.message);
    }
    return NULL;
}

/* `rounds` hellos on each connection, all connections at once (a thread
 * each: a flood outruns the buckets even where every answer is slow, as
 * under the sanitizers); *ok how many were answered, `why` the last
 * refusal's words. The seconds it took. */
static double hello_flood(nvc_client** c, int rounds, const char* want, int* ok, char* why, size_t why_size) {
    static hello_flooder f[CONNS];
    double t0 = proc_now();
    why[0] = '\0';
    for (int i = 0; i < CONNS; i++) {
        f[i] = (hello_flooder){.c = c[i], .want = want, .rounds = rounds};
        if (pthread_create(&f[i].thread, NULL, hello_flooder_main, &f[i])) fail_msg("pthread_create");
    }
    *ok = 0;
    for (int i = 0; i < CONNS; i++) {
        pthread_join(f[i].thread, NULL);
        *ok += f[i].ok;
        if (f[i].why[0] && (!why[0] || !strstr(why, want) || strstr(f[i].why, want)))
            snprintf(why, why_size, "%s", f[i].why);
        if (f[i].unexpected[0]) fail_msg("unexpected: %s", f[i].unexpected);
    }
    return proc_now() - t0;
}

/* Floods until a refusal names `want`: a flood too slow to outrun a
 * bucket (every answer is slow under ThreadSanitizer) proves nothing, so it
 * is tried again with twice the rounds, three times at most. Every try must
 * answer no more than the bucket allows: burst + rate x its seconds. */
static void flood_until_refused(nvc_client** c, int rounds, const char* want, int burst, double rate, char* why,
                                size_t why_size) {
    for (int attempt = 0; attempt < 3; attempt++, rounds *= 2) {
        if (attempt) let_the_address_refill();
        int ok;
        double took = hello_flood(c, rounds, want, &ok, why, why_size);
        if (ok > burst + (int)(rate * took) + 1)
            fail_msg("%d of %d hellos answered in %.2f s (burst %d, %g per second)", ok, rounds * CONNS, took, burst,
                     rate);
        if (strstr(why, want)) return;
        print_message("flood of %d answered %d in %.2f s, last refusal \"%s\": again with more rounds\n",
                      rounds * CONNS, ok, took, why);
    }
    fail_msg("no refusal naming \"%s\" (last: \"%s\")", want, why);
}

/* Twelve connections, one identity: one player's vessels and requests. */
static void test_one_player_on_twelve_connections(void** state) {
    (void)state;
    let_the_address_refill();
    nvc_client* c[CONNS];
    nv_error e;
    int rc;
    proto_hello_reply hello;
    c[0] = connect_as(NULL);
    PATIENTLY(rc, e, nvc_hello(c[0], "first", &hello, &e));
    if (rc) fail_msg("hello: %s", e.message);
    assert_true(hello.has_player); /* the server made one and says which */
    for (int i = 1; i < CONNS; i++) {
        c[i] = connect_as(NULL);
        nvc_set_player(c[i], &hello.player);
        PATIENTLY(rc, e, nvc_hello(c[i], "same player", NULL, &e));
        if (rc) fail_msg("hello %d: %s", i, e.message);
    }
    nvc_vessel v[2 * CONNS];
    assert_int_equal(spawn_all(c, 2, v, 2 * CONNS, "(limit 4 per player)"), PER_PLAYER);
    /* One despawned (from another connection of the player): room for one. */
    despawn_all(c[7], v, 1);
    nvc_vessel again;
    PATIENTLY(rc, e, nvc_spawn(c[9], "skiff", 0, 2000.0, 0.0, 0.0, &again, &e));
    if (rc) fail_msg("spawn after despawn: %s", e.message);
    v[0] = again;
    PATIENTLY(rc, e, nvc_spawn(c[3], "skiff", 0, 2100.0, 0.0, 0.0, &again, &e));
    assert_int_equal(rc, -1);
    assert_non_null(strstr(e.message, "this player already owns 4 vessels (limit 4 per player)"));
    /* Its connections all close: the orphans still count against it. */
    for (int i = 0; i < CONNS; i++) nvc_close(c[i]);
    nvc_client* back = connect_as(NULL);
    nvc_set_player(back, &hello.player);
    PATIENTLY(rc, e, nvc_hello(back, "back", NULL, &e));
    if (rc) fail_msg("hello: %s", e.message);
    PATIENTLY(rc, e, nvc_spawn(back, "skiff", 0, 2200.0, 0.0, 0.0, &again, &e));
    assert_int_equal(rc, -1);
    assert_non_null(strstr(e.message, "limit 4 per player"));
    /* Taken back with their tokens (same player: no count changes), then gone. */
    for (int i = 0; i < PER_PLAYER; i++) {
        PATIENTLY(rc, e, nvc_control(back, &v[i], 0.0f, 0.0f, &e));
        if (rc) fail_msg("take back %u: %s", v[i].id, e.message);
    }
    despawn_all(back, v, PER_PLAYER);
    PATIENTLY(rc, e, nvc_spawn(back, "skiff", 0, 2300.0, 0.0, 0.0, &again, &e));
    if (rc) fail_msg("spawn: %s", e.message);
    despawn_all(back, &again, 1);

    /* Requests: one bucket (burst 10, 5 per second) for the twelve. */
    let_the_address_refill();
    c[0] = back;
    for (int i = 1; i < CONNS; i++) {
        c[i] = connect_as(NULL);
        nvc_set_player(c[i], &hello.player);
    }
    char why[NV_ERROR_MAX] = "";
    flood_until_refused(c, 3, "from this player (limit per player", BURST, RATE, why, sizeof why);
    assert_non_null(strstr(why, "requests per second"));
    assert_true(metric("naval_requests_refused_total{reason=\"player_rate\"}") >= 1);
    assert_true(metric("naval_requests_refused_total{reason=\"player_vessels\"}") >= 1);
    for (int i = 0; i < CONNS; i++) nvc_close(c[i]);
}

/* Twelve connections, no identity: twelve players, held by the address. */
static void test_twelve_connections_one_address(void** state) {
    (void)state;
    let_the_address_refill();
    nvc_client* c[CONNS];
    for (int i = 0; i < CONNS; i++) c[i] = connect_as(NULL);
    nvc_vessel v[2 * CONNS];
    uint32_t n = spawn_all(c, 2, v, 2 * CONNS, "(limit 10 per address)");
    assert_int_equal(n, PER_ADDRESS);
    nv_error e;
    int rc;
    nvc_vessel extra;
    PATIENTLY(rc, e, nvc_spawn(c[11], "skiff", 0, 3000.0, 0.0, 0.0, &extra, &e));
    assert_int_equal(rc, -1);
    assert_non_null(strstr(e.message, "the players of 127.0.0.1 already own 10 vessels (limit 10 per address)"));
    assert_true(metric("naval_requests_refused_total{reason=\"address_vessels\"}") >= 1);
    /* Despawned by their owners: the address has room again. */
    for (uint32_t i = 0; i < n; i++) despawn_all(c[i % CONNS], &v[i], 1); /* spawn_all went round them */
    PATIENTLY(rc, e, nvc_spawn(c[11], "skiff", 0, 3000.0, 0.0, 0.0, &extra, &e));
    if (rc) fail_msg("spawn: %s", e.message);
    despawn_all(c[11], &extra, 1);

    /* Requests: 8 rounds of 12 (96) against a burst of 24 for the address;
     * each connection's own bucket (10) would have let them all through. */
    let_the_address_refill();
    char why[NV_ERROR_MAX] = "", want[128];
    snprintf(want, sizeof want, "requests per second (burst %d) from 127.0.0.1 (limit per address)", ADDRESS_BURST);
    flood_until_refused(c, 8, want, ADDRESS_BURST, ADDRESS_RATE, why, sizeof why);
    assert_true(metric("naval_requests_refused_total{reason=\"address_rate\"}") >= 1);
    for (int i = 0; i < CONNS; i++) nvc_close(c[i]);
}

/* Whether any line of the log does not start with a timestamp: a forged
 * line (or the tail of one) would not. */
static int log_has_forged_line(const char* text, const char* marker) {
    for (const char* line = text; *line;) {
        const char* end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        int stamped = len > 24 && line[4] == '-' && line[7] == '-' && line[10] == 'T' && line[23] == 'Z';
        if (!stamped || (strncmp(line, marker, strlen(marker)) == 0)) return 1;
        line += len + (end ? 1 : 0);
    }
    return 0;
}

static void test_client_text_forges_no_log_line(void** state) {
    (void)state;
    let_the_address_refill();
    nvc_client* c = connect_as(NULL);
    nv_error e;
    const char* forged = "2099-01-01T00:00:00.000Z ERROR admin logged in";
    char name[64];
    snprintf(name, sizeof name, "x\n%s", forged);
    nvc_vessel v;
    assert_int_equal(nvc_spawn(c, name, 0, 0.0, 0.0, 0.0, &v, &e), -1);
    assert_int_equal(e.status, PROTO_STATUS_NOT_FOUND);
    char hello[64];
    snprintf(hello, sizeof hello, "y\r\n%s\x1b[2J", forged);
    if (nvc_hello(c, hello, NULL, &e)) fail_msg("hello: %s", e.message);
    nvc_close(c);
    /* Both reach the log (at debug), quoted. */
    double deadline = proc_now() + 5.0;
    while (!(logged_contains(log_path, "no vessel type named \"x\\n2099-01-01") &&
             logged_contains(log_path, "hello from \"y\\r\\n2099-01-01")) &&
           proc_now() < deadline)
        proc_sleep_ms(50);
    char* text = logged_slurp(log_path, NULL);
    assert_non_null(text);
    if (!strstr(text, "no vessel type named \"x\\n2099-01-01T00:00:00.000Z ERROR admin logged in\"") ||
        !strstr(text, "\\x1b[2J\""))
        fail_msg("the quoted names are not in the log:\n%s", text);
    if (log_has_forged_line(text, "2099")) fail_msg("a forged line in the log:\n%s", text);
    free(text);
}

static void test_wrong_admin_tokens_back_off(void** state) {
    (void)state;
    let_the_address_refill();
    uint64_t before = metric("naval_admin_token_failures_total");
    nvc_client* wrong = connect_as("not-the-admin-secret-at-all");
    nvc_client* right = connect_as(ADMIN);
    nvc_client* plain = connect_as(NULL);
    nv_error e;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(nvc_hello(wrong, "guess", NULL, &e), -1);
        assert_int_equal(e.status, PROTO_STATUS_UNAUTHORIZED);
    }
    /* The third locked the address out for 1 s, the right token too. */
    assert_non_null(strstr(e.message, "too many from 127.0.0.1: admin requests from it are refused for 1 s"));
    assert_int_equal(nvc_hello(right, "admin", NULL, &e), -1);
    assert_int_equal(e.status, PROTO_STATUS_RATE_LIMITED);
    assert_non_null(strstr(e.message, "too many wrong admin tokens from 127.0.0.1: try again in 1 s"));
    if (nvc_hello(plain, "no token", NULL, &e)) fail_msg("a request without a token: %s", e.message);
    assert_int_equal(metric("naval_admin_token_failures_total"), before + 3);
    assert_true(metric("naval_requests_refused_total{reason=\"admin_backoff\"}") >= 1);
    assert_true(metric("naval_admin_lockouts_total") >= 1);
    /* Once over, one more wrong token doubles it. */
    proc_sleep_ms(1100);
    assert_int_equal(nvc_hello(wrong, "guess", NULL, &e), -1);
    assert_non_null(strstr(e.message, "refused for 2 s"));
    proc_sleep_ms(2100);
    /* The right token then starts the count again: two wrong ones lock nothing. */
    if (nvc_hello(right, "admin", NULL, &e)) fail_msg("the right token after the lockout: %s", e.message);
    for (int i = 0; i < 2; i++) assert_int_equal(nvc_hello(wrong, "guess", NULL, &e), -1);
    assert_null(strstr(e.message, "refused for"));
    if (nvc_hello(right, "admin", NULL, &e)) fail_msg("the right token: %s", e.message);
    /* The summary line (every 1 s here) names the address. */
    double deadline = proc_now() + 5.0;
    while (!logged_contains(log_path, "requests refused in the last 1 s: 127.0.0.1: ") && proc_now() < deadline)
        proc_sleep_ms(100);
    assert_true(logged_contains(log_path, "of them wrong admin tokens"));
    assert_true(logged_contains(log_path, "requests refused in the last 1 s: 127.0.0.1: "));
    nvc_close(wrong);
    nvc_close(right);
    nvc_close(plain);
}

static void test_heading_within_a_turn(void** state) {
    (void)state;
    nvc_client* c = connect_as(NULL);
    nv_error e;
    nvc_vessel v;
    assert_int_equal(nvc_spawn(c, "skiff", 0, 0.0, 0.0, 1e308, &v, &e), -1);
    assert_int_equal(e.status, PROTO_STATUS_BAD_REQUEST);
    assert_non_null(strstr(e.message, "heading 1e+308 rad: must be in [-360, 360] degrees"));
    assert_int_equal(nvc_spawn(c, "skiff", 0, 0.0, 0.0, -7.0, &v, &e), -1); /* 401 degrees */
    if (nvc_spawn(c, "skiff", 0, 0.0, 0.0, 6.0, &v, &e)) fail_msg("heading 6 rad: %s", e.message);
    despawn_all(c, &v, 1);
    nvc_close(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_player_on_twelve_connections),
        cmocka_unit_test(test_twelve_connections_one_address),
        cmocka_unit_test(test_client_text_forges_no_log_line),
        cmocka_unit_test(test_wrong_admin_tokens_back_off),
        cmocka_unit_test(test_heading_within_a_turn),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
