// SPDX-License-Identifier: MIT
/* naval-relay end to end: a PUB in this process -> the relay (a real
 * process) -> a tcp SUB and a WebSocket SUB, which must receive the same
 * bytes in the same order; /healthz follows the upstream; the upstream
 * is redialled after it goes away; SIGTERM and SIGINT exit 0; bad flags
 * exit 2 naming what is wrong. Loopback only. */
#include <arpa/inet.h>
#include <errno.h>
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
        const char* args[8];
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
         "--frobnicate: unknown option"},
        {{"--upstream", "tcp://a:1", "--listen", NULL}, 2, "--listen: missing value"},
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

int main(void) {
    /* A relay that dies must not take this process with SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_arguments_are_named),
        cmocka_unit_test(sigint_exits_cleanly),
        cmocka_unit_test(tcp_and_ws_get_the_same_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
