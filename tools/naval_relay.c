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
 * see RELAY_STOP_WATCHDOG_S).
 *
 * With --view-listen it also serves player views (PAIR1, one per client)
 * encoded from the same stream on a thread of its own (relay_views.h), so
 * views scale out on relays the way spectators do. */
#include <errno.h>
#include <nng/nng.h>
#include <nng/protocol/pubsub0/sub.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "edge.h"
#include "log.h"
#include "naval/jobs.h"
#include "naval/nv_error.h"
#include "relay_views.h"

#define RELAY_MAX_LISTEN 8

static const char relay_usage[] =
    "usage: naval-relay --upstream URL [--listen URL ...] [--view-listen URL ...] [--queue N] [--max-message BYTES]\n"
    "                   [--health HOST:PORT] [--max-connections N] [--max-connections-per-address N] [--quiet]\n"
    "                   [--threads N] [--tick-hz HZ] [--max-view-radius M] [--max-views N]\n"
    "                   [--view-budget KBPS] [--max-view-budget KBPS] [--max-view-vessels N]\n"
    "Subscribes to a snapshot stream and republishes every message unchanged to spectators (--listen),\n"
    "and serves player views encoded from it (--view-listen): at least one of the two.\n\n"
    "  --upstream URL        the PUB to subscribe to: tcp://HOST:PORT (a naval-server's snapshot or compact\n"
    "                        URL, or another relay), also ws://, ipc://; dialled in the background, redialled\n"
    "  --listen URL          where spectators subscribe: tcp://HOST:PORT or ws://HOST:PORT/PATH (browsers:\n"
    "                        new WebSocket(url, \"pub.sp.nanomsg.org\")); up to 8\n"
    "  --queue N             messages queued per subscriber (and updates per view) before the oldest\n"
    "                        drops (default 16, 1..8192)\n"
    "  --max-message BYTES   largest message accepted from upstream (default 64 MiB)\n"
    "  --health HOST:PORT    GET /healthz answers 200 while the upstream is connected, else 503\n"
    "                        (may share a ws listener's HOST:PORT, written identically)\n"
    "  --max-connections N   open connections per listener; more are refused (default 4096)\n"
    "  --max-connections-per-address N\n"
    "                        open connections from one IP address, all listeners (default 256)\n"
    "  --quiet               no log lines on stderr\n"
    "Player views (docs/protocol.md, \"Player views\"; docs/scaling.md, \"Views on relays\"):\n"
    "  --view-listen URL     where player views connect (PAIR1): tcp://HOST:PORT or ws://HOST:PORT/PATH\n"
    "                        (subprotocol pair1.sp.nanomsg.org); up to 8. The upstream must be a full or\n"
    "                        compact snapshot stream. Views naming own vessels are refused (Unsupported):\n"
    "                        a relay cannot check their tokens\n"
    "  --threads N           threads encoding the views, the view thread included (default 2, 1..64)\n"
    "  --tick-hz HZ          the upstream's snapshots per second, the server's tick rate (default 60,\n"
    "                        1..1000): view budgets and keyframe intervals are counted in it\n"
    "  --max-view-radius M   the largest radius a view gets, m: also the fog of war (default 2000, 1..1e6)\n"
    "  --max-views N         views open at once; more get nothing (default 256, 1..100000)\n"
    "  --view-budget KBPS    a view's bandwidth when it names none, kbit/s (default 256, 1..1000000)\n"
    "  --max-view-budget KBPS\n"
    "                        the largest budget a view gets, kbit/s (default 2048, 1..1000000)\n"
    "  --max-view-vessels N  vessels one view holds at most, the nearest (default 1024, 1..65536)\n"
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
    /* player views: on with view_listen_count > 0 */
    const char* view_listen[RELAY_MAX_LISTEN];
    int view_listen_count;
    const char* view_flag; /* the first view setting given (they need --view-listen) */
    uint64_t threads;
    double tick_hz, max_view_radius;
    uint64_t max_views, view_budget, max_view_budget, max_view_vessels;
} relay_args;

typedef struct relay {
    relay_args args;
    nng_socket sub;
    edge* e;
    relay_views* views; /* NULL: no --view-listen */
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

/* The view settings: 0 taken, 2 bad (reported), -1 not one of them. */
static int relay_parse_view_flag(relay_args* a, const char* arg, const char* val) {
    static const struct {
        const char* flag;
        size_t field;
        uint64_t lo, hi;
    } ints[] = {{"--threads", offsetof(relay_args, threads), 1, JOBS_MAX_THREADS},
                {"--max-views", offsetof(relay_args, max_views), 1, 100000},
                {"--view-budget", offsetof(relay_args, view_budget), 1, 1000000},
                {"--max-view-budget", offsetof(relay_args, max_view_budget), 1, 1000000},
                {"--max-view-vessels", offsetof(relay_args, max_view_vessels), 1, 65536}};
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        if (strcmp(arg, ints[k].flag) != 0) continue;
        uint64_t* v = (uint64_t*)((char*)a + ints[k].field);
        if (cli_parse_u64(val, ints[k].lo, ints[k].hi, v))
            return relay_arg_error("%s must be an integer in %llu..%llu (got '%s')", arg,
                                   (unsigned long long)ints[k].lo, (unsigned long long)ints[k].hi, val);
        return 0;
    }
    double* d = !strcmp(arg, "--tick-hz")           ? &a->tick_hz
                : !strcmp(arg, "--max-view-radius") ? &a->max_view_radius
                                                    : NULL;
    if (!d) return -1;
    double hi = d == &a->tick_hz ? 1000.0 : 1e6;
    if (cli_parse_double(val, d) || !(*d >= 1.0 && *d <= hi))
        return relay_arg_error("%s must be a number in 1..%.0f (got '%s')", arg, hi, val);
    return 0;
}

/* The flags that take a value. */
static const char* const relay_flags[] = {"--upstream", "--listen", "--queue", "--max-message", "--health",
                                          "--max-connections", "--max-connections-per-address", "--view-listen",
                                          "--threads", "--tick-hz", "--max-view-radius", "--max-views",
                                          "--view-budget", "--max-view-budget", "--max-view-vessels", NULL};
/* Every flag, for the unknown-option suggestion. */
static const char* const relay_all_flags[] = {"--upstream", "--listen", "--queue", "--max-message", "--health",
                                              "--max-connections", "--max-connections-per-address", "--view-listen",
                                              "--threads", "--tick-hz", "--max-view-radius", "--max-views",
                                              "--view-budget", "--max-view-budget", "--max-view-vessels", "--quiet",
                                              "--help", NULL};

static int relay_takes_value(const char* arg) {
    for (int i = 0; relay_flags[i]; i++)
        if (!strcmp(arg, relay_flags[i])) return 1;
    return 0;
}

/* A URL flag that may be repeated. */
static int relay_add_url(const char* flag, const char* val, const char** list, int* count) {
    if (*count == RELAY_MAX_LISTEN) return relay_arg_error("%s: at most %d listeners", flag, RELAY_MAX_LISTEN);
    if (relay_check_url(flag, val, 1)) return 2;
    list[(*count)++] = val;
    return 0;
}

/* One flag and its value: 0 or 2 (reported). */
static int relay_parse_flag(relay_args* a, const char* arg, const char* val) {
    if (!strcmp(arg, "--upstream")) {
        if (a->upstream) return relay_arg_error("%s: given twice (one upstream per relay)", arg);
        if (relay_check_url(arg, val, 0)) return 2;
        a->upstream = val;
    } else if (!strcmp(arg, "--listen")) {
        return relay_add_url(arg, val, a->listen, &a->listen_count);
    } else if (!strcmp(arg, "--view-listen")) {
        return relay_add_url(arg, val, a->view_listen, &a->view_listen_count);
    } else if (!strcmp(arg, "--queue")) {
        if (cli_parse_u64(val, 1, 8192, &a->queue))
            return relay_arg_error("--queue must be an integer in 1..8192 (got '%s')", val);
    } else if (!strcmp(arg, "--max-connections") || !strcmp(arg, "--max-connections-per-address")) {
        uint64_t* v = !strcmp(arg, "--max-connections") ? &a->max_connections : &a->max_per_address;
        if (cli_parse_u64(val, 1, 65536, v))
            return relay_arg_error("%s must be an integer in 1..65536 (got '%s')", arg, val);
    } else if (!strcmp(arg, "--max-message")) {
        if (cli_parse_u64(val, 1024, (uint64_t)1 << 31, &a->max_message))
            return relay_arg_error("--max-message must be an integer in 1024..2147483648 (got '%s')", val);
    } else if (!strcmp(arg, "--health")) {
        const char* colon = strrchr(val, ':');
        uint64_t port;
        if (!colon || colon == val || cli_parse_u64(colon + 1, 1, 65535, &port))
            return relay_arg_error("--health must be HOST:PORT with a port in 1..65535 (got '%s')", val);
        a->health = val;
    } else {
        int rc = relay_parse_view_flag(a, arg, val);
        if (rc) return rc < 0 ? cli_unknown_option("naval-relay", arg, relay_all_flags) : rc;
        if (!a->view_flag) a->view_flag = arg;
    }
    return 0;
}

/* What no single flag can tell. */
static int relay_check_args(const relay_args* a) {
    if (!a->upstream) return relay_arg_error("--upstream URL is required");
    if (!a->listen_count && !a->view_listen_count)
        return relay_arg_error("at least one --listen URL is required (or --view-listen for views only)");
    if (a->view_flag && !a->view_listen_count)
        return relay_arg_error("%s: views are off without --view-listen URL", a->view_flag);
    if (a->view_budget > a->max_view_budget)
        return relay_arg_error("--view-budget (%llu) is over --max-view-budget (%llu)",
                               (unsigned long long)a->view_budget, (unsigned long long)a->max_view_budget);
    return 0;
}

/* 0: run; 1: --help shown; 2: bad arguments (reported). */
static int relay_parse_args(int argc, char** argv, relay_args* a) {
    memset(a, 0, sizeof *a);
    a->queue = 16;
    a->max_message = 64u << 20;
    a->max_connections = 4096;
    a->max_per_address = 256;
    /* the views' defaults are the server's limits.* (server/config.c) */
    a->threads = 2;
    a->tick_hz = 60.0;
    a->max_view_radius = 2000.0;
    a->max_views = 256;
    a->view_budget = 256;
    a->max_view_budget = 2048;
    a->max_view_vessels = 1024;
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
        if (!relay_takes_value(arg)) return cli_unknown_option("naval-relay", arg, relay_all_flags);
        if (i + 1 >= argc) return relay_arg_error("%s: missing value", arg);
        int rc = relay_parse_flag(a, arg, argv[++i]);
        if (rc) return rc;
    }
    return relay_check_args(a);
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
 * every subscriber has it (or has gone). The views get their own copy:
 * the edge frees its message at times of its own. */
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
        nng_msg* copy = NULL;
        if (r->views && nng_msg_dup(&copy, m) == 0) relay_views_offer(r->views, copy);
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

/* The edge's thread: PAIR1 peers are player views. */
static void relay_on_peer_open(void* arg, uint32_t conn, const uint8_t addr[16]) {
    (void)addr;
    relay_views_on_open(((relay*)arg)->views, conn);
}
static void relay_on_peer_closed(void* arg, uint32_t conn) { relay_views_on_closed(((relay*)arg)->views, conn); }
static void relay_on_peer_message(void* arg, uint32_t conn, const uint8_t* body, size_t size) {
    relay_views_on_message(((relay*)arg)->views, conn, body, size);
}

/* tcp:// or ws:// for this role: 0, or 1 with the reason on stderr. */
static int relay_listen(relay* r, const char* flag, const char* url, edge_role role) {
    nv_error err;
    int failed;
    if (strncmp(url, "ws://", 5) == 0) {
        char hostport[300], path[256];
        int l = relay_ws_parts(url, hostport, sizeof hostport, path, sizeof path)
                    ? -1
                    : edge_listen_http(r->e, hostport, &err);
        failed = l < 0 || edge_route_ws(r->e, l, path, role, 0, &err);
    } else {
        failed = edge_listen_sp(r->e, url, role, 0, &err) < 0;
    }
    if (failed) fprintf(stderr, "naval-relay: %s %s: %s\n", flag, url, err.message);
    return failed;
}

static int relay_create_views(relay* r) {
    const relay_args* a = &r->args;
    view_config vc;
    view_config_default(&vc);
    vc.tick_hz = a->tick_hz;
    vc.max_radius = (float)a->max_view_radius;
    vc.default_budget_kbps = (uint32_t)a->view_budget;
    vc.max_budget_kbps = (uint32_t)a->max_view_budget;
    vc.max_vessels = (uint32_t)a->max_view_vessels;
    vc.max_views = (uint32_t)a->max_views;
    vc.allow_own = 0; /* a relay cannot check tokens: such views are refused as Unsupported */
    nv_error err;
    if (relay_views_create(&r->views, &vc, (uint32_t)a->threads, (size_t)a->max_message, &err)) {
        fprintf(stderr, "naval-relay: %s\n", err.message);
        return 1;
    }
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
    if (r->args.view_listen_count && relay_create_views(r)) return 1;
    edge_limits lim;
    edge_limits_default(&lim);
    lim.send_queue = (uint32_t)r->args.queue;
    /* Every upstream message is worth passing on: a burst waits (up to the
     * subscribers' own queue) rather than being replaced by the next. */
    lim.publish_queue = r->args.queue < EDGE_MAX_PUBLISH_QUEUE ? (uint32_t)r->args.queue : EDGE_MAX_PUBLISH_QUEUE;
    lim.max_connections = (uint32_t)r->args.max_connections;
    lim.max_connections_per_address = (uint32_t)r->args.max_per_address;
    edge_callbacks cb = {r, relay_http, NULL, NULL, NULL, NULL, NULL, NULL};
    if (r->views) {
        cb.peer_open = relay_on_peer_open;
        cb.peer_message = relay_on_peer_message;
        cb.peer_closed = relay_on_peer_closed;
    }
    nv_error err;
    if (edge_create(&r->e, &lim, &cb, 1, &err)) {
        fprintf(stderr, "naval-relay: %s\n", err.message);
        return 1;
    }
    for (int i = 0; i < r->args.listen_count; i++)
        if (relay_listen(r, "--listen", r->args.listen[i], EDGE_SUBSCRIBER)) return 1;
    for (int i = 0; i < r->args.view_listen_count; i++)
        if (relay_listen(r, "--view-listen", r->args.view_listen[i], EDGE_PEER)) return 1;
    if (r->args.health && edge_listen_http(r->e, r->args.health, &err) < 0) {
        fprintf(stderr, "naval-relay: --health %s: %s\n", r->args.health, err.message);
        return 1;
    }
    if (edge_start(r->e, &err) || (r->views && relay_views_start(r->views, r->e, &err))) {
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
                                               "joining the view thread", "closing the listeners"};

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
        relay_views_stop(r.views);
        edge_destroy(r.e);
        relay_views_destroy(r.views);
        return rc;
    }
    if (!r.args.quiet) {
        fprintf(stderr, "naval-relay: relaying %s to", r.args.upstream);
        for (int i = 0; i < r.args.listen_count; i++) fprintf(stderr, " %s", r.args.listen[i]);
        if (r.views) fprintf(stderr, "%s views on", r.args.listen_count ? ";" : "");
        for (int i = 0; i < r.args.view_listen_count; i++) fprintf(stderr, " %s", r.args.view_listen[i]);
        fprintf(stderr, "\n");
    }
    int sig = 0;
    while (sigwait(&set, &sig) != 0) {
    }
    relay_arm_watchdog();
    nng_close(r.sub);
    relay_stop_step = 1;
    pthread_join(receiver, NULL);
    /* The view thread sends on the edge: it ends first. */
    relay_stop_step = 2;
    relay_views_stop(r.views);
    relay_stop_step = 3;
    edge_destroy(r.e);
    relay_views_destroy(r.views);
    if (sig == SIGUSR1) {
        fprintf(stderr, "naval-relay: receiving from upstream stopped: %s\n", nng_strerror(r.recv_rv));
        return 1;
    }
    if (!r.args.quiet) fprintf(stderr, "naval-relay: %s, stopped\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    return 0;
}
