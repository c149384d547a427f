// SPDX-License-Identifier: MIT
/* naval-server under Agones: a fake SDK sidecar (an nng HTTP
 * server in this process) counts the calls: with NAVAL_AGONES=1 and the
 * sidecar's port in AGONES_SDK_HTTP_PORT the server POSTs {} to /ready
 * once and to /health every 2 s; with no sidecar listening a second
 * server keeps ticking, counts the failures in /metrics and logs them
 * once (rate-limited). Both exit 0 on SIGTERM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <nng/nng.h>
#include <nng/supplemental/http/http.h>

#include "naval_client.h"
#include "test_server_logged.h"

typedef struct sidecar {
    nng_http_server* server;
    atomic_int ready, health, bad_body;
} sidecar;

static sidecar fake;
static char dir[64];

static void sidecar_answer(nng_aio* aio, atomic_int* counter) {
    nng_http_req* req = nng_aio_get_input(aio, 0);
    void* body;
    size_t len;
    nng_http_req_get_data(req, &body, &len);
    if (len != 2 || memcmp(body, "{}", 2) != 0) atomic_fetch_add(&fake.bad_body, 1);
    atomic_fetch_add(counter, 1);
    nng_http_res* res;
    if (nng_http_res_alloc(&res) != 0) {
        nng_aio_finish(aio, NNG_ENOMEM);
        return;
    }
    nng_http_res_copy_data(res, "{}", 2);
    nng_aio_set_output(aio, 0, res);
    nng_aio_finish(aio, 0);
}

static void on_ready(nng_aio* aio) { sidecar_answer(aio, &fake.ready); }
static void on_health(nng_aio* aio) { sidecar_answer(aio, &fake.health); }

static int sidecar_open(int port) {
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", port);
    nng_url* u;
    if (nng_url_parse(&u, url)) return -1;
    int rv = nng_http_server_hold(&fake.server, u);
    nng_url_free(u);
    if (rv) return -1;
    static const char* const paths[] = {"/ready", "/health"};
    void (*const cbs[])(nng_aio*) = {on_ready, on_health};
    for (int i = 0; i < 2; i++) {
        nng_http_handler* h;
        if (nng_http_handler_alloc(&h, paths[i], cbs[i]) || nng_http_handler_set_method(h, "POST") ||
            nng_http_server_add_handler(fake.server, h))
            return -1;
    }
    return nng_http_server_start(fake.server) ? -1 : 0;
}

static int group_setup(void** state) {
    (void)state;
    return logged_tempdir(dir, sizeof dir, "naval_agones");
}

static int group_teardown(void** state) {
    (void)state;
    if (fake.server) {
        nng_http_server_stop(fake.server);
        nng_http_server_release(fake.server);
    }
    logged_rmdir(dir);
    return 0;
}

static uint64_t metric(int http_port, const char* name) {
    static char text[65536];
    if (proc_http_get(http_port, "/metrics", text, sizeof text) != 200) fail_msg("no /metrics");
    const char* at = strstr(text, name);
    unsigned long long v = 0;
    if (!at || sscanf(at + strlen(name), " %llu", &v) != 1) fail_msg("no %s in /metrics", name);
    return v;
}

static uint64_t latest_tick(const server_proc* p) {
    nvc_options o;
    nvc_options_default(&o);
    o.command_url = p->command_url;
    nvc_client* c;
    nv_error e;
    proto_stats st;
    if (nvc_connect(&c, &o, &e) || nvc_get_stats(c, &st, &e)) fail_msg("stats: %s", e.message);
    nvc_close(c);
    return st.tick;
}

static void test_sidecar_called(void** state) {
    (void)state;
    int port = proc_free_port();
    if (sidecar_open(port)) fail_msg("the fake sidecar cannot listen on %d", port);
    char port_text[16], log_up[128], log_down[128];
    snprintf(port_text, sizeof port_text, "%d", port);
    snprintf(log_up, sizeof log_up, "%s/up.log", dir);
    snprintf(log_down, sizeof log_down, "%s/down.log", dir);
    const char* extra[] = {"--boats", "5", "--threads", "1", "--tick-hz", "30", NULL};
    server_proc up, down;
    setenv("NAVAL_AGONES", "1", 1);
    setenv("AGONES_SDK_HTTP_PORT", port_text, 1);
    if (logged_start(&up, extra, log_up, 20.0)) fail_msg("naval-server (with a sidecar) did not start");
    /* The second server's sidecar is a port nobody listens on. */
    snprintf(port_text, sizeof port_text, "%d", proc_free_port());
    setenv("AGONES_SDK_HTTP_PORT", port_text, 1);
    int started = logged_start(&down, extra, log_down, 20.0);
    unsetenv("NAVAL_AGONES");
    unsetenv("AGONES_SDK_HTTP_PORT");
    if (started) fail_msg("naval-server (without a sidecar) did not start");
    uint64_t tick0 = latest_tick(&down);
    /* /ready at start, then /health at 2 and 4 s. */
    double deadline = proc_now() + 8.0;
    const char* failed = "naval_agones_requests_total{result=\"failed\"}";
    while ((atomic_load(&fake.health) < 2 || metric(down.http_port, failed) < 3) && proc_now() < deadline)
        proc_sleep_ms(100);
    assert_int_equal(atomic_load(&fake.ready), 1);
    if (atomic_load(&fake.health) < 2) fail_msg("%d health calls in 8 s", atomic_load(&fake.health));
    assert_int_equal(atomic_load(&fake.bad_body), 0);
    assert_true(metric(up.http_port, "naval_agones_requests_total{result=\"ok\"}") >= 3);
    assert_int_equal(metric(up.http_port, "naval_agones_requests_total{result=\"failed\"}"), 0);
    assert_true(logged_contains(log_up, "the sea is Ready"));

    /* No sidecar: still ticking, failures counted, one log line for them. */
    assert_true(proc_alive(&down));
    uint64_t tick1 = latest_tick(&down);
    assert_true(tick1 > tick0 + 10);
    assert_true(metric(down.http_port, "naval_agones_requests_total{result=\"failed\"}") >= 3);
    char* text = logged_slurp(log_down, NULL);
    assert_non_null(text);
    int lines = 0;
    for (const char* p = text; (p = strstr(p, "agones: POST")) != NULL; p++) lines++;
    if (lines != 1) fail_msg("%d failure lines (expected one, rate-limited): %s", lines, text);
    free(text);

    assert_int_equal(logged_stop(&up, SIGTERM, 10.0, log_up, 0), 0);
    assert_int_equal(logged_stop(&down, SIGTERM, 10.0, log_down, 0), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_sidecar_called)};
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
