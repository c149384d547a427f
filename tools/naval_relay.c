// SPDX-License-Identifier: MIT
/* naval-relay: a stateless snapshot relay for spectators. It subscribes to
 * one upstream PUB (a naval-server or another relay) with nng's raw SUB
 * and republishes every message unchanged on its own tcp and WebSocket
 * listeners through the server's network edge (server/edge.h): the same
 * connection caps and deadlines, and each message one buffer shared by
 * every subscriber (nng's message itself: no copy). Relays chain into a
 * tree, so one server feeds any number of spectators while its own
 * fan-out stays at a handful of relays (docs/scaling.md).
 *
 * Like the server it never blocks on a slow spectator: each subscriber has
 * a queue of --queue messages and the oldest is dropped when it is full.
 * The upstream is dialled in the background and redialled whenever it
 * goes away. SIGINT or SIGTERM closes everything and exits 0 (within 3 s:
 * see RELAY_STOP_WATCHDOG_S). */
#include <errno.h>
#include <nng/nng.h>
#include <nng/protocol/pubsub0/sub.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "edge.h"
#include "log.h"
#include "naval/nv_error.h"

#define RELAY_MAX_LISTEN 8

static const char relay_usage[] =
    "usage: naval-relay --upstream URL --listen URL [--listen URL ...] [--queue N] [--max-message BYTES]\n"
    "                   [--health HOST:PORT] [--max-connections N] [--max-connections-per-address N] [--quiet]\n"
    "Subscribes to a snapshot stream and republishes every message unchanged.\n\n"
    "  --upstream URL        the PUB to subscribe to: tcp://HOST:PORT (a naval-server's snapshot or compact\n"
    "                        URL, or another relay), also ws://, ipc://; dialled in the background, redialled\n"
    "  --listen URL          where spectators subscribe: tcp://HOST:PORT or ws://HOST:PORT/PATH (browsers:\n"
    "                        new WebSocket(url, \"pub.sp.nanomsg.org\")); up to 8\n"
    "  --queue N             messages queued per subscriber before the oldest drops (default 16, 1..8192)\n"
    "  --max-message BYTES   largest message accepted from upstream (default 64 MiB)\n"
    "  --health HOST:PORT    GET /healthz answers 200 while the upstream is connected, else 503\n"
    "                        (may share a ws listener's HOST:PORT, written identically)\n"
    "  --max-connections N   open connections per listener; more are refused (default 4096)\n"
    "  --max-connections-per-address N\n"
    "                        open connections from one IP address, all listeners (default 256)\n"
    "  --quiet               no log lines on stderr\n"
    "Exit: 0 after SIGINT / SIGTERM, 2 for bad arguments (the reason on stderr), 1 when a listener fails.\n";

typedef struct relay_args {
    const char* upstream;
    const char* listen[RELAY_MAX_LISTEN];
    int listen_count;
    uint64_t queue;
    uint64_t max_message;
    const char* health;
    uint64_t max_connections, max_per_address;
    int quiet;
} relay_args;

typedef struct relay {
    relay_args args;
    nng_socket sub;
    edge* e;
    atomic_int upstream_pipes; /* > 0 while connected upstream */
    int recv_rv;
} relay;

static int relay_arg_error(const char* fmt, ...) NV_PRINTF_LIKE(1, 2);
static int relay_arg_error(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "naval-relay: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(naval-relay --help for usage)\n");
    va_end(ap);
    return 2;
}

/* A URL nng can use, with a scheme this relay speaks and a port. */
static int relay_check_url(const char* flag, const char* text, int listening) {
    nng_url* u = NULL;
    int rv = nng_url_parse(&u, text);
    if (rv) {
        fprintf(stderr, "naval-relay: %s '%s': not a URL (%s)\n", flag, text, nng_strerror(rv));
        return 2;
    }
    static const char* const dial_schemes[] = {"tcp", "tcp4", "tcp6", "ws", "ws4", "ws6", "ipc", NULL};
    static const char* const listen_schemes[] = {"tcp", "ws", NULL};
    const char* const* schemes = listening ? listen_schemes : dial_schemes;
    int known = 0;
    for (int i = 0; schemes[i]; i++) known |= !strcmp(u->u_scheme, schemes[i]);
    int rc = 0;
    if (!known) {
        fprintf(stderr, "naval-relay: %s '%s': the scheme must be tcp:// or ws://%s\n", flag, text,
                listening ? "" : " (or ipc://)");
        rc = 2;
    } else if (strcmp(u->u_scheme, "ipc") != 0) {
        char* end = NULL;
        long port = u->u_port && u->u_port[0] ? strtol(u->u_port, &end, 10) : -1;
        if (port < 1 || port > 65535 || (end && *end)) {
            fprintf(stderr, "naval-relay: %s '%s': needs a port in 1..65535 (e.g. tcp://127.0.0.1:7700)\n", flag,
                    text);
            rc = 2;
        } else if (!listening && !u->u_hostname[0]) {
            fprintf(stderr, "naval-relay: %s '%s': needs a host to dial\n", flag, text);
            rc = 2;
        }
    }
    nng_url_free(u);
    return rc;
}

/* 0: run; 1: --help shown; 2: bad arguments (reported). */
static int relay_parse_args(int argc, char** argv, relay_args* a) {
    memset(a, 0, sizeof *a);
    a->queue = 16;
    a->max_message = 64u << 20;
    a->max_connections = 4096;
    a->max_per_address = 256;
    for (int i = 1; i < argc; i++) {
        const char* arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            fputs(relay_usage, stdout);
            return 1;
        }
        if (!strcmp(arg, "--quiet")) {
            a->quiet = 1;
            continue;
        }
        int takes = !strcmp(arg, "--upstream") || !strcmp(arg, "--listen") || !strcmp(arg, "--queue") ||
                    !strcmp(arg, "--max-message") || !strcmp(arg, "--health") || !strcmp(arg, "--max-connections") ||
                    !strcmp(arg, "--max-connections-per-address");
        if (!takes) return relay_arg_error("%s: unknown option", arg);
        if (i + 1 >= argc) return relay_arg_error("%s: missing value", arg);
        const char* val = argv[++i];
        if (!strcmp(arg, "--upstream")) {
            if (a->upstream) return relay_arg_error("%s: given twice (one upstream per relay)", arg);
            if (relay_check_url(arg, val, 0)) return 2;
            a->upstream = val;
        } else if (!strcmp(arg, "--listen")) {
            if (a->listen_count == RELAY_MAX_LISTEN) return relay_arg_error("%s: at most %d listeners", arg, RELAY_MAX_LISTEN);
            if (relay_check_url(arg, val, 1)) return 2;
            a->listen[a->listen_count++] = val;
        } else if (!strcmp(arg, "--queue")) {
            if (cli_parse_u64(val, 1, 8192, &a->queue))
                return relay_arg_error("--queue must be an integer in 1..8192 (got '%s')", val);
        } else if (!strcmp(arg, "--max-connections") || !strcmp(arg, "--max-connections-per-address")) {
            uint64_t* v = !strcmp(arg, "--max-connections") ? &a->max_connections : &a->max_per_address;
            if (cli_parse_u64(val, 1, 65536, v)) return relay_arg_error("%s must be an integer in 1..65536 (got '%s')", arg, val);
        } else if (!strcmp(arg, "--max-message")) {
            if (cli_parse_u64(val, 1024, (uint64_t)1 << 31, &a->max_message))
                return relay_arg_error("--max-message must be an integer in 1024..2147483648 (got '%s')", val);
        } else {
            const char* colon = strrchr(val, ':');
            uint64_t port;
            if (!colon || colon == val || cli_parse_u64(colon + 1, 1, 65535, &port))
                return relay_arg_error("--health must be HOST:PORT with a port in 1..65535 (got '%s')", val);
            a->health = val;
        }
    }
    if (!a->upstream) return relay_arg_error("--upstream URL is required");
    if (!a->listen_count) return relay_arg_error("at least one --listen URL is required");
    return 0;
}

static void relay_pipe_event(nng_pipe p, nng_pipe_ev ev, void* arg) {
    (void)p;
    relay* r = arg;
    if (ev == NNG_PIPE_EV_ADD_POST) atomic_fetch_add(&r->upstream_pipes, 1);
    else if (ev == NNG_PIPE_EV_REM_POST) atomic_fetch_sub(&r->upstream_pipes, 1);
}

static void relay_http(void* arg, const edge_http_request* req, edge_response* res) {
    relay* r = arg;
    if (strcmp(req->path, "/healthz") != 0) return; /* 404 */
    int up = atomic_load(&r->upstream_pipes) > 0;
    const char* body = up ? "ok: upstream connected\n" : "unavailable: upstream not connected\n";
    *res = (edge_response){up ? 200 : 503, "text/plain; charset=utf-8", body, strlen(body), NULL,
                           "Cache-Control: no-store\r\n"};
}

static void relay_release(void* msg) { nng_msg_free(msg); }

/* Each upstream message goes to the edge as it is: the edge frees it once
 * every subscriber has it (or has gone). */
static void* relay_recv_thread(void* arg) {
    relay* r = arg;
    for (;;) {
        nng_msg* m = NULL;
        int rv = nng_recvmsg(r->sub, &m, 0);
        if (rv) {
            r->recv_rv = rv;
            /* Closing the socket (shutdown) ends it with NNG_ECLOSED;
             * anything else is a failure the main thread must hear about. */
            if (rv != NNG_ECLOSED) kill(getpid(), SIGUSR1);
            return NULL;
        }
        if (edge_publish_owned(r->e, 0, nng_msg_body(m), nng_msg_len(m), relay_release, m)) nng_msg_free(m);
    }
}

/* ws://HOST:PORT/PATH as the edge's HOST:PORT and PATH. */
static int relay_ws_parts(const char* url, char* hostport, size_t hp_size, char* path, size_t path_size) {
    nng_url* u = NULL;
    if (nng_url_parse(&u, url)) return -1;
    int v6 = strchr(u->u_hostname, ':') != NULL;
    snprintf(hostport, hp_size, v6 ? "[%s]:%s" : "%s:%s", u->u_hostname, u->u_port);
    snprintf(path, path_size, "%s", u->u_path[0] ? u->u_path : "/");
    nng_url_free(u);
    return 0;
}

static int relay_open(relay* r) {
    int rv = nng_sub0_open_raw(&r->sub);
    if (rv) {
        fprintf(stderr, "naval-relay: cannot open the upstream socket: %s\n", nng_strerror(rv));
        return 1;
    }
    /* Snapshots of big worlds exceed nng's 1 MiB default. */
    nng_socket_set_size(r->sub, NNG_OPT_RECVMAXSZ, (size_t)r->args.max_message);
    nng_socket_set_ms(r->sub, NNG_OPT_RECONNMINT, 100);
    nng_socket_set_ms(r->sub, NNG_OPT_RECONNMAXT, 2000);
    nng_pipe_notify(r->sub, NNG_PIPE_EV_ADD_POST, relay_pipe_event, r);
    nng_pipe_notify(r->sub, NNG_PIPE_EV_REM_POST, relay_pipe_event, r);
    edge_limits lim;
    edge_limits_default(&lim);
    lim.send_queue = (uint32_t)r->args.queue;
    /* Every upstream message is worth passing on: a burst waits (up to the
     * subscribers' own queue) rather than being replaced by the next. */
    lim.publish_queue = r->args.queue < EDGE_MAX_PUBLISH_QUEUE ? (uint32_t)r->args.queue : EDGE_MAX_PUBLISH_QUEUE;
    lim.max_connections = (uint32_t)r->args.max_connections;
    lim.max_connections_per_address = (uint32_t)r->args.max_per_address;
    edge_callbacks cb = {r, relay_http, NULL, NULL, NULL, NULL, NULL, NULL};
    nv_error err;
    if (edge_create(&r->e, &lim, &cb, 1, &err)) {
        fprintf(stderr, "naval-relay: %s\n", err.message);
        return 1;
    }
    for (int i = 0; i < r->args.listen_count; i++) {
        const char* url = r->args.listen[i];
        int failed;
        if (strncmp(url, "ws://", 5) == 0) {
            char hostport[300], path[256];
            int l = relay_ws_parts(url, hostport, sizeof hostport, path, sizeof path) ? -1
                                                                                      : edge_listen_http(r->e, hostport, &err);
            failed = l < 0 || edge_route_ws(r->e, l, path, EDGE_SUBSCRIBER, 0, &err);
        } else {
            failed = edge_listen_sp(r->e, url, EDGE_SUBSCRIBER, 0, &err) < 0;
        }
        if (failed) {
            fprintf(stderr, "naval-relay: --listen %s: %s\n", url, err.message);
            return 1;
        }
    }
    if (r->args.health && edge_listen_http(r->e, r->args.health, &err) < 0) {
        fprintf(stderr, "naval-relay: --health %s: %s\n", r->args.health, err.message);
        return 1;
    }
    if (edge_start(r->e, &err)) {
        fprintf(stderr, "naval-relay: %s\n", err.message);
        return 1;
    }
    rv = nng_dial(r->sub, r->args.upstream, NULL, NNG_FLAG_NONBLOCK);
    if (rv) {
        fprintf(stderr, "naval-relay: --upstream %s: %s\n", r->args.upstream, nng_strerror(rv));
        return 1;
    }
    return 0;
}

/* nng 1.5.2 can hang in nng_close (nanomsg/nng#1503, #1813): the relay
 * holds no state, so a close that outlasts this is cut short rather than
 * left for the supervisor's SIGKILL. Same guard as the server's stop. */
#define RELAY_STOP_WATCHDOG_S 3
#define RELAY_STR(x) RELAY_STR2(x)
#define RELAY_STR2(x) #x

/* Which step of the stop is running, for the watchdog's message. */
static volatile sig_atomic_t relay_stop_step;
static const char* const relay_stop_steps[] = {"closing the upstream SUB", "joining the receiving thread",
                                               "closing the listeners"};

/* Async-signal-safe. */
static void relay_on_watchdog(int sig) {
    (void)sig;
    static const char head[] = "naval-relay: WARNING the stop hung for " RELAY_STR(RELAY_STOP_WATCHDOG_S) " s while ";
    static const char tail[] = " (an nng_close hang); exiting\n";
    const char* step = relay_stop_steps[relay_stop_step];
    ssize_t rc = write(STDERR_FILENO, head, sizeof head - 1);
    rc = write(STDERR_FILENO, step, strlen(step));
    rc = write(STDERR_FILENO, tail, sizeof tail - 1);
    (void)rc;
    _exit(0);
}

static void relay_arm_watchdog(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = relay_on_watchdog;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    alarm(RELAY_STOP_WATCHDOG_S);
}

int main(int argc, char** argv) {
    relay r;
    memset(&r, 0, sizeof r);
    int rc = relay_parse_args(argc, argv, &r.args);
    if (rc) return rc == 1 ? 0 : rc;
    /* Signals are taken by sigwait below: blocked before nng starts its
     * threads, so that none of them receives one. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    atomic_init(&r.upstream_pipes, 0);
    log_set_level(r.args.quiet ? LOG_LEVEL_OFF : LOG_LEVEL_INFO);
    rc = relay_open(&r);
    pthread_t receiver;
    if (!rc && pthread_create(&receiver, NULL, relay_recv_thread, &r) != 0) {
        fprintf(stderr, "naval-relay: cannot start the receiving thread\n");
        rc = 1;
    }
    if (rc) {
        nng_close(r.sub);
        edge_destroy(r.e);
        return rc;
    }
    if (!r.args.quiet) {
        fprintf(stderr, "naval-relay: relaying %s to", r.args.upstream);
        for (int i = 0; i < r.args.listen_count; i++) fprintf(stderr, " %s", r.args.listen[i]);
        fprintf(stderr, "\n");
    }
    int sig = 0;
    while (sigwait(&set, &sig) != 0) {
    }
    relay_arm_watchdog();
    nng_close(r.sub);
    relay_stop_step = 1;
    pthread_join(receiver, NULL);
    relay_stop_step = 2;
    edge_destroy(r.e);
    if (sig == SIGUSR1) {
        fprintf(stderr, "naval-relay: receiving from upstream stopped: %s\n", nng_strerror(r.recv_rv));
        return 1;
    }
    if (!r.args.quiet) fprintf(stderr, "naval-relay: %s, stopped\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    return 0;
}
