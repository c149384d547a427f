// SPDX-License-Identifier: MIT
/* naval-relay end to end: a PUB in this process -> the relay (a real
 * process) -> a tcp SUB and a WebSocket SUB, which must receive the same
 * bytes in the same order; /healthz follows the upstream; the upstream
 * is redialled after it goes away; SIGTERM and SIGINT exit 0; bad flags
 * exit 2 naming what is wrong. With --view-listen, player views of the C
 * client (tcp and WebSocket) hold the vessels within their radius of a
 * fleet published as full, then compact snapshots, and none outside it;
 * a view naming own vessels is refused as Unsupported. Loopback only. */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <nng/nng.h>
#include <nng/protocol/pubsub0/pub.h>
#include <nng/protocol/pubsub0/sub.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "naval_client.h"
#include "proto.h"
#include "test_server_proc.h"

/* ---- processes and ports ----------------------------------------------- */

/* Starts the relay with these arguments; its stderr goes to err_fd (or is
 * inherited when < 0). */
static pid_t relay_test_spawn(const char* const* args, int err_fd) {
    const char* argv[32];
    int n = 0;
    argv[n++] = NAVAL_RELAY_PATH;
    for (int i = 0; args[i] && n < 31; i++) argv[n++] = args[i];
    argv[n] = NULL;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (err_fd >= 0) dup2(err_fd, 2);
        execv(NAVAL_RELAY_PATH, (char* const*)argv);
        _exit(127);
    }
    return pid;
}

/* Runs the relay to its end: exit code and what it wrote on stderr. */
static int relay_test_run(const char* const* args, char* out, size_t cap) {
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = relay_test_spawn(args, fds[1]);
    close(fds[1]);
    size_t len = 0;
    ssize_t got;
    while (len + 1 < cap && (got = read(fds[0], out + len, cap - 1 - len)) > 0) len += (size_t)got;
    out[len] = '\0';
    close(fds[0]);
    return proc_wait(pid, 10.0);
}

/* GET /healthz on 127.0.0.1:port: the HTTP status, -1 when no answer. */
static int relay_test_health(int port) {
    char buf[512];
    return proc_http_get(port, "/healthz", buf, sizeof buf);
}

static int relay_test_wait_health(int port, int want, double timeout_s) {
    double deadline = proc_now() + timeout_s;
    int got = -1;
    while (proc_now() < deadline) {
        if ((got = relay_test_health(port)) == want) return got;
        proc_sleep_ms(50);
    }
    return got;
}

/* ---- sockets ------------------------------------------------------------ */

static nng_socket relay_test_sub(const char* url) {
    nng_socket s;
    assert_int_equal(nng_sub0_open(&s), 0);
    assert_int_equal(nng_socket_set(s, NNG_OPT_SUB_SUBSCRIBE, "", 0), 0);
    assert_int_equal(nng_socket_set_size(s, NNG_OPT_RECVMAXSZ, 8u << 20), 0);
    assert_int_equal(nng_socket_set_ms(s, NNG_OPT_RECVTIMEO, 100), 0);
    assert_int_equal(nng_socket_set_ms(s, NNG_OPT_RECONNMINT, 50), 0);
    assert_int_equal(nng_dial(s, url, NULL, NNG_FLAG_NONBLOCK), 0);
    return s;
}

static nng_socket relay_test_pub(const char* url) {
    nng_socket s;
    assert_int_equal(nng_pub0_open(&s), 0);
    assert_int_equal(nng_socket_set_int(s, NNG_OPT_SENDBUF, 1024), 0);
    int rv = nng_listen(s, url, NULL, 0);
    if (rv) fail_msg("listen %s: %s", url, nng_strerror(rv));
    return s;
}

/* Publishes "probe" until both subscribers have one: every hop (relay
 * upstream, relay listeners) is connected once that happens. */
static void relay_test_until_both_hear(nng_socket pub, nng_socket a, nng_socket b, double timeout_s) {
    int heard_a = 0, heard_b = 0;
    double deadline = proc_now() + timeout_s;
    while (!(heard_a && heard_b)) {
        if (proc_now() > deadline) fail_msg("no probe through the relay (tcp %d, ws %d)", heard_a, heard_b);
        assert_int_equal(nng_send(pub, "probe", 5, 0), 0);
        char* buf;
        size_t len;
        if (!heard_a && nng_recv(a, &buf, &len, NNG_FLAG_ALLOC) == 0) {
            heard_a = 1;
            nng_free(buf, len);
        }
        if (!heard_b && nng_recv(b, &buf, &len, NNG_FLAG_ALLOC) == 0) {
            heard_b = 1;
            nng_free(buf, len);
        }
    }
    /* Drain the probes still on their way. */
    proc_sleep_ms(200);
    char* buf;
    size_t len;
    while (nng_recv(a, &buf, &len, NNG_FLAG_ALLOC) == 0) nng_free(buf, len);
    while (nng_recv(b, &buf, &len, NNG_FLAG_ALLOC) == 0) nng_free(buf, len);
}

/* Message k: its number, then bytes that depend on it, of a size that
 * crosses the WebSocket listener's 64 KiB fragments for some k. */
static size_t relay_test_message(uint32_t k, uint8_t* out, size_t cap) {
    static const size_t sizes[] = {16, 1000, 65536, 65537, 200000, 3, 1 << 20};
    size_t n = sizes[k % (sizeof sizes / sizeof sizes[0])];
    assert_true(n <= cap);
    uint32_t x = k * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        out[i] = (uint8_t)(x >> 24);
    }
    if (n >= 4) memcpy(out, &k, 4);
    return n;
}

static void relay_test_expect(nng_socket s, const char* which, uint32_t k, const uint8_t* want, size_t n) {
    char* buf = NULL;
    size_t len = 0;
    int rv = -1;
    for (int tries = 0; tries < 30 && rv != 0; tries++) rv = nng_recv(s, &buf, &len, NNG_FLAG_ALLOC);
    if (rv) fail_msg("%s: message %u never came: %s", which, k, nng_strerror(rv));
    if (len != n || memcmp(buf, want, n) != 0)
        fail_msg("%s: message %u: %zu bytes, wanted %zu (or different bytes)", which, k, len, n);
    nng_free(buf, len);
}

typedef struct relay_setup {
    int up_port, tcp_port, ws_port;
    char up[64], tcp[64], ws[96], health[64];
    pid_t pid;
} relay_setup;

static void relay_setup_start(relay_setup* r) {
    r->up_port = proc_free_port();
    r->tcp_port = proc_free_port();
    r->ws_port = proc_free_port();
    snprintf(r->up, sizeof r->up, "tcp://127.0.0.1:%d", r->up_port);
    snprintf(r->tcp, sizeof r->tcp, "tcp://127.0.0.1:%d", r->tcp_port);
    snprintf(r->ws, sizeof r->ws, "ws://127.0.0.1:%d/spectate", r->ws_port);
    /* /healthz on the WebSocket listener's own port */
    snprintf(r->health, sizeof r->health, "127.0.0.1:%d", r->ws_port);
    const char* args[] = {"--upstream", r->up, "--listen", r->tcp, "--listen", r->ws, "--health", r->health,
                          "--quiet", NULL};
    r->pid = relay_test_spawn(args, -1);
}

static void tcp_and_ws_get_the_same_bytes(void** state) {
    (void)state;
    relay_setup r;
    relay_setup_start(&r);
    /* No upstream yet: alive, but not ready. */
    assert_int_equal(relay_test_wait_health(r.ws_port, 503, 5.0), 503);
    nng_socket pub = relay_test_pub(r.up);
    assert_int_equal(relay_test_wait_health(r.ws_port, 200, 5.0), 200);
    nng_socket tcp = relay_test_sub(r.tcp), ws = relay_test_sub(r.ws);
    relay_test_until_both_hear(pub, tcp, ws, 10.0);

    /* static: a failed assertion longjmps past any free */
    static uint8_t msg[1u << 20];
    const size_t cap = sizeof msg;
    for (uint32_t k = 0; k < 28; k++) {
        size_t n = relay_test_message(k, msg, cap);
        assert_int_equal(nng_send(pub, msg, n, 0), 0);
        relay_test_expect(tcp, "tcp", k, msg, n);
        relay_test_expect(ws, "ws", k, msg, n);
    }

    /* The upstream goes away: not ready; it comes back: redialled. */
    nng_close(pub);
    assert_int_equal(relay_test_wait_health(r.ws_port, 503, 5.0), 503);
    pub = relay_test_pub(r.up);
    assert_int_equal(relay_test_wait_health(r.ws_port, 200, 5.0), 200);
    relay_test_until_both_hear(pub, tcp, ws, 10.0);
    size_t n = relay_test_message(4, msg, cap);
    assert_int_equal(nng_send(pub, msg, n, 0), 0);
    relay_test_expect(tcp, "tcp after the redial", 4, msg, n);
    relay_test_expect(ws, "ws after the redial", 4, msg, n);

    kill(r.pid, SIGTERM);
    assert_int_equal(proc_wait(r.pid, 5.0), 0);
    nng_close(tcp);
    nng_close(ws);
    nng_close(pub);
}

static void sigint_exits_cleanly(void** state) {
    (void)state;
    relay_setup r;
    relay_setup_start(&r);
    assert_int_equal(relay_test_wait_health(r.ws_port, 503, 5.0), 503);
    kill(r.pid, SIGINT);
    assert_int_equal(proc_wait(r.pid, 5.0), 0);
}

static void bad_arguments_are_named(void** state) {
    (void)state;
    char out[2048];
    struct {
        const char* args[10];
        int code;
        const char* says;
    } cases[] = {
        {{"--upstream", "tcp//nowhere", "--listen", "tcp://127.0.0.1:7999", NULL}, 2, "--upstream 'tcp//nowhere': not a URL"},
        {{"--upstream", "http://a:1", "--listen", "tcp://127.0.0.1:7999", NULL}, 2, "the scheme must be"},
        {{"--upstream", "tcp://a", "--listen", "tcp://127.0.0.1:7999", NULL}, 2, "needs a port"},
        {{"--upstream", "tcp://a:1", "--listen", "tcp://127.0.0.1:70000", NULL}, 2, "--listen 'tcp://127.0.0.1:70000'"},
        {{"--upstream", "tcp://a:1", NULL}, 2, "at least one --listen"},
        {{"--listen", "tcp://127.0.0.1:7999", NULL}, 2, "--upstream URL is required"},
        {{"--upstream", "tcp://a:1", "--listen", "tcp://127.0.0.1:7999", "--queue", "0", NULL}, 2, "--queue must be"},
        {{"--upstream", "tcp://a:1", "--listen", "tcp://127.0.0.1:7999", "--health", "8080", NULL}, 2,
         "--health must be HOST:PORT"},
        {{"--upstream", "tcp://a:1", "--listen", "tcp://127.0.0.1:7999", "--frobnicate", NULL}, 2,
         "naval-relay: unknown option '--frobnicate'"},
        {{"--upstream", "tcp://a:1", "--listen", "tcp://127.0.0.1:7999", "--tick-hzz", "30", NULL}, 2,
         "unknown option '--tick-hzz' (did you mean --tick-hz?)"},
        {{"--upstream", "tcp://a:1", "--listen", NULL}, 2, "--listen: missing value"},
        {{"--upstream", "tcp://a:1", "--listen", "tcp://127.0.0.1:7999", "--max-views", "5", NULL}, 2,
         "--max-views: views are off without --view-listen"},
        {{"--upstream", "tcp://a:1", "--view-listen", "tcp://127.0.0.1:7999", "--threads", "0", NULL}, 2,
         "--threads must be an integer in 1..64"},
        {{"--upstream", "tcp://a:1", "--view-listen", "tcp://127.0.0.1:7999", "--tick-hz", "nan", NULL}, 2,
         "--tick-hz must be a number"},
        {{"--upstream", "tcp://a:1", "--view-listen", "udp://127.0.0.1:7999", NULL}, 2,
         "--view-listen 'udp://127.0.0.1:7999'"},
        {{"--upstream", "tcp://a:1", "--view-listen", "tcp://127.0.0.1:7999", "--view-budget", "5000",
          "--max-view-budget", "100", NULL},
         2, "--view-budget (5000) is over --max-view-budget (100)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int code = relay_test_run(cases[i].args, out, sizeof out);
        if (code != cases[i].code || !strstr(out, cases[i].says))
            fail_msg("case %zu: exit %d, stderr \"%s\" (wanted %d and \"%s\")", i, code, out, cases[i].code,
                     cases[i].says);
    }
    /* A listener that cannot bind: exit 1, the address and the reason. */
    int port = proc_free_port();
    char busy[64];
    snprintf(busy, sizeof busy, "tcp://127.0.0.1:%d", port);
    nng_socket holder = relay_test_pub(busy);
    const char* args[] = {"--upstream", "tcp://127.0.0.1:1", "--listen", busy, NULL};
    int code = relay_test_run(args, out, sizeof out);
    if (code != 1 || !strstr(out, busy) || !strstr(out, "in use"))
        fail_msg("busy port: exit %d, stderr \"%s\"", code, out);
    nng_close(holder);
}

/* ---- player views ---------------------------------------------------------- */

/* A fleet in two groups 6.4 km apart, each boat circling its group's
 * centre within 210 m: ids 1.. around (0, 0), 101.. around (5000, -4000).
 * Upstream tick u is at sim_time u / 60, so a view's update names the
 * upstream tick its states are of whatever its own tick is. */
#define FLEET_NEAR 12
#define FLEET_FAR 6
#define FLEET_FAR_ID 101
#define FLEET_HZ 60.0

static uint32_t fleet_build(uint64_t tick, proto_vessel* v) {
    double t = (double)tick / FLEET_HZ;
    for (uint32_t k = 0; k < FLEET_NEAR + FLEET_FAR; k++) {
        int far = k >= FLEET_NEAR;
        uint32_t j = far ? k - FLEET_NEAR : k;
        double a = 0.5 * j + 0.05 * t, r = 40.0 + 15.0 * j, heading = a + 1.5707963267948966;
        proto_vessel* b = &v[k];
        memset(b, 0, sizeof *b);
        b->id = far ? FLEET_FAR_ID + j : 1 + j;
        b->type = (uint16_t)(j % 3);
        b->position[0] = (far ? 5000.0 : 0.0) + r * cos(a);
        b->position[1] = 0.2 * sin(t + j);
        b->position[2] = (far ? -4000.0 : 0.0) + r * sin(a);
        b->orientation[1] = (float)sin(-heading / 2);
        b->orientation[3] = (float)cos(-heading / 2);
        b->velocity[0] = (float)(-0.05 * r * sin(a));
        b->velocity[2] = (float)(0.05 * r * cos(a));
        b->angular_velocity[1] = -0.05f;
    }
    return FLEET_NEAR + FLEET_FAR;
}

/* Full snapshots when ce is NULL, else compact ones. */
static void fleet_publish(nng_socket pub, proto_compact_encoder* ce, uint64_t tick, proto_buf* b) {
    proto_vessel v[FLEET_NEAR + FLEET_FAR];
    proto_snapshot s;
    memset(&s, 0, sizeof s);
    s.tick = tick;
    s.sim_time = (double)tick / FLEET_HZ;
    s.send_time_ns = 1700000000000000000ull + tick;
    s.vessels = v;
    s.vessel_count = fleet_build(tick, v);
    proto_error err;
    if (ce ? proto_encode_compact(ce, &s, b, NULL, &err) : proto_encode_snapshot(b, &s, &err))
        fail_msg("encoding tick %llu: %s", (unsigned long long)tick, err.message);
    assert_int_equal(nng_send(pub, (void*)b->data, b->size, 0), 0);
}

typedef struct relay_test_view {
    const char* name;
    nvc_view* v;
    uint32_t lo, hi;          /* the ids it may hold: [lo, hi) */
    uint32_t updates, checked, refusals;
    int status;               /* of the last refusal */
    char why[NV_ERROR_MAX];
    uint64_t last_tick;
    float radius;             /* as the relay applies it (0: not echoed yet) */
    double worst;             /* m */
} relay_test_view;

static nvc_view* relay_test_open_view(const char* url, double x, double z, float radius, const nvc_vessel* own) {
    nvc_view_options o;
    nvc_view_options_default(&o);
    o.url = url;
    o.center[0] = x;
    o.center[1] = z;
    o.radius = radius;
    o.own = own;
    o.own_count = own ? 1 : 0;
    o.follow_own = own != NULL;
    nvc_view* v = NULL;
    nv_error e;
    double deadline = proc_now() + 5.0;
    while (nvc_view_open(&v, &o, &e)) {
        if (proc_now() > deadline) fail_msg("view %s: %s", url, e.message);
        proc_sleep_ms(50);
    }
    return v;
}

/* Every vessel the update left at its own tick is where the fleet was
 * (the near step plus the quantising of both streams: well under 1 cm). */
static void relay_test_check(relay_test_view* tv, const proto_view_header* h) {
    proto_vessel truth[FLEET_NEAR + FLEET_FAR];
    uint32_t count = fleet_build((uint64_t)llround(h->sim_time * FLEET_HZ), truth);
    uint32_t n;
    const proto_view_vessel* vs = nvc_view_vessels(tv->v, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (vs[i].id < tv->lo || vs[i].id >= tv->hi)
            fail_msg("%s view holds vessel %u, outside its radius", tv->name, vs[i].id);
        if (vs[i].samples[0].tick != h->tick) continue;
        const proto_vessel* t = NULL;
        for (uint32_t k = 0; k < count && !t; k++)
            if (truth[k].id == vs[i].id) t = &truth[k];
        assert_non_null(t);
        const double* p = vs[i].samples[0].position;
        double d = sqrt((p[0] - t->position[0]) * (p[0] - t->position[0]) +
                        (p[1] - t->position[1]) * (p[1] - t->position[1]) +
                        (p[2] - t->position[2]) * (p[2] - t->position[2]));
        if (d > 0.01) fail_msg("%s view: vessel %u %.1f mm from where it was", tv->name, vs[i].id, d * 1000.0);
        tv->worst = d > tv->worst ? d : tv->worst;
        tv->checked++;
    }
}

static void relay_test_poll(relay_test_view* tv, int timeout_ms) {
    proto_view_header h;
    nv_error e;
    if (nvc_view_poll(tv->v, timeout_ms, &h, &e)) {
        if (e.code == NV_ETIMEDOUT) return;
        if (e.code != NV_EREFUSED) fail_msg("%s view: %s", tv->name, e.message);
        tv->refusals++;
        tv->status = e.status;
        snprintf(tv->why, sizeof tv->why, "%s", e.message);
        return;
    }
    tv->updates++;
    /* The relay's ticks go on when the upstream's start again. */
    if (h.tick <= tv->last_tick)
        fail_msg("%s view: tick %llu after %llu", tv->name, (unsigned long long)h.tick,
                 (unsigned long long)tv->last_tick);
    tv->last_tick = h.tick;
    if (h.has_settings) tv->radius = h.settings.radius;
    relay_test_check(tv, &h);
}

/* What spectators get is still the upstream's bytes: full snapshots
 * decode to the fleet to the bit. */
static uint32_t relay_test_spectate(nng_socket sub, proto_snapshot* s) {
    uint32_t got = 0;
    char* buf;
    size_t len;
    while (nng_recv(sub, &buf, &len, NNG_FLAG_ALLOC | NNG_FLAG_NONBLOCK) == 0) {
        proto_kind kind = proto_identify(buf, len);
        assert_true(kind == PROTO_KIND_SNAPSHOT || kind == PROTO_KIND_COMPACT);
        if (kind == PROTO_KIND_SNAPSHOT) {
            assert_int_equal(proto_decode_snapshot(buf, len, NULL, s, NULL), 0);
            proto_vessel truth[FLEET_NEAR + FLEET_FAR];
            assert_int_equal(s->vessel_count, fleet_build(s->tick, truth));
            assert_memory_equal(s->vessels, truth, sizeof truth);
        }
        nng_free(buf, len);
        got++;
    }
    return got;
}

/* One message per tick for `count` ticks from `first`; the views are
 * polled (and acknowledge) in between. */
static uint32_t relay_test_pump(nng_socket pub, proto_compact_encoder* ce, uint64_t first, uint32_t count,
                                relay_test_view* views, int nviews, nng_socket spectator) {
    static proto_buf b;
    static proto_snapshot s;
    uint32_t spectated = 0;
    for (uint32_t k = 0; k < count; k++) {
        fleet_publish(pub, ce, first + k, &b);
        double until = proc_now() + 1.0 / FLEET_HZ;
        while (proc_now() < until)
            for (int i = 0; i < nviews; i++) relay_test_poll(&views[i], 1);
        spectated += relay_test_spectate(spectator, &s);
    }
    return spectated;
}

static void views_hold_what_is_near(void** state) {
    (void)state;
    int up_port = proc_free_port(), spec_port = proc_free_port(), view_port = proc_free_port(),
        ws_port = proc_free_port();
    char up[64], spec[64], view_tcp[64], view_ws[96], health[64];
    snprintf(up, sizeof up, "tcp://127.0.0.1:%d", up_port);
    snprintf(spec, sizeof spec, "tcp://127.0.0.1:%d", spec_port);
    snprintf(view_tcp, sizeof view_tcp, "tcp://127.0.0.1:%d", view_port);
    snprintf(view_ws, sizeof view_ws, "ws://127.0.0.1:%d/view", ws_port);
    snprintf(health, sizeof health, "127.0.0.1:%d", ws_port);
    const char* args[] = {"--upstream", up, "--listen", spec, "--view-listen", view_tcp, "--view-listen", view_ws,
                          "--health", health, "--max-view-radius", "1500", "--threads", "2", "--tick-hz", "60",
                          "--quiet", NULL};
    pid_t pid = relay_test_spawn(args, -1);
    nng_socket pub = relay_test_pub(up);
    assert_int_equal(relay_test_wait_health(ws_port, 200, 5.0), 200);
    nng_socket spectator = relay_test_sub(spec);
    nvc_vessel own = {1, {{0}}, 0.0, 0.0};
    own.token.bytes[0] = 7;
    relay_test_view views[3] = {
        {.name = "near (tcp)", .lo = 1, .hi = 1 + FLEET_NEAR},
        {.name = "far (ws)", .lo = FLEET_FAR_ID, .hi = FLEET_FAR_ID + FLEET_FAR},
        {.name = "own", .lo = 0, .hi = 0},
    };
    views[0].v = relay_test_open_view(view_tcp, 0.0, 0.0, 1000.0f, NULL);
    /* a radius past --max-view-radius is capped: still 4.9 km short of the others */
    views[1].v = relay_test_open_view(view_ws, 5000.0, -4000.0, 1e9f, NULL);
    views[2].v = relay_test_open_view(view_tcp, 0.0, 0.0, 1000.0f, &own);

    /* Full snapshots, then a restarted upstream's compact stream whose
     * ticks begin again (a keyframe every 30). */
    uint32_t spectated = relay_test_pump(pub, NULL, 100000, 75, views, 3, spectator);
    uint32_t full_updates[2] = {views[0].updates, views[1].updates};
    proto_error err;
    proto_compact_encoder* ce = proto_create_compact_encoder(30, &err);
    assert_non_null(ce);
    spectated += relay_test_pump(pub, ce, 10, 75, views, 3, spectator);
    proto_destroy_compact_encoder(ce);

    for (int i = 0; i < 3; i++)
        print_message("%s: %u updates, %u states checked (worst %.2f mm), %u refusals\n", views[i].name,
                      views[i].updates, views[i].checked, views[i].worst * 1000.0, views[i].refusals);
    print_message("spectator: %u messages\n", spectated);
    /* ~75 ticks each, less the start; the views acknowledge every update */
    for (int i = 0; i < 2; i++) {
        assert_true(full_updates[i] > 30);
        assert_true(views[i].updates - full_updates[i] > 30);
        assert_true(views[i].checked > 200);
    }
    assert_true(spectated > 100);
    uint32_t n;
    nvc_view_vessels(views[0].v, &n);
    assert_int_equal(n, FLEET_NEAR);
    nvc_view_vessels(views[1].v, &n);
    assert_int_equal(n, FLEET_FAR);
    assert_true(views[1].radius == 1500.0f);
    /* A relay cannot check tokens: own vessels are refused, nothing sent. */
    assert_true(views[2].refusals >= 1);
    assert_int_equal(views[2].status, PROTO_STATUS_UNSUPPORTED);
    if (!strstr(views[2].why, "relay")) fail_msg("own view refused with \"%s\"", views[2].why);
    assert_int_equal(views[2].updates, 0);

    for (int i = 0; i < 3; i++) nvc_view_close(views[i].v);
    kill(pid, SIGTERM);
    assert_int_equal(proc_wait(pid, 5.0), 0);
    nng_close(spectator);
    nng_close(pub);
}

int main(void) {
    /* A relay that dies must not take this process with SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_arguments_are_named),
        cmocka_unit_test(sigint_exits_cleanly),
        cmocka_unit_test(tcp_and_ws_get_the_same_bytes),
        cmocka_unit_test(views_hold_what_is_near),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
