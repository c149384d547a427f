// SPDX-License-Identifier: MIT
/* naval-relay: a stateless snapshot relay for spectators. It subscribes to
 * one upstream PUB (a naval-server or another relay) with nng's raw SUB
 * and republishes every message unchanged on its own tcp and WebSocket
 * listeners through the server's network edge (net/edge.h): the same
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
#include "watchdog.h"

#define RELAY_MAX_LISTEN 8
/* --threads ... --max-view-vessels */
#define RELAY_VIEW_SETTINGS 7

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
    int view_seen[RELAY_VIEW_SETTINGS]; /* the view settings given (they need --view-listen) */
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

/* A URL nng can use, with a scheme this relay speaks and a port: 0, or -1
 * and why ("'tcp//x': not a URL (...)"). */
static int relay_url_why(const char* text, int listening, char* why, size_t n) {
    nng_url* u = NULL;
    int rv = nng_url_parse(&u, text);
    if (rv) {
        snprintf(why, n, "'%s': not a URL (%s)", text, nng_strerror(rv));
        return -1;
    }
    static const char* const dial_schemes[] = {"tcp", "tcp4", "tcp6", "ws", "ws4", "ws6", "ipc", NULL};
    static const char* const listen_schemes[] = {"tcp", "ws", NULL};
    const char* const* schemes = listening ? listen_schemes : dial_schemes;
    int known = 0;
    for (int i = 0; schemes[i]; i++) known |= !strcmp(u->u_scheme, schemes[i]);
    int rc = 0;
    if (!known) {
        snprintf(why, n, "'%s': the scheme must be tcp:// or ws://%s", text, listening ? "" : " (or ipc://)");
        rc = -1;
    } else if (strcmp(u->u_scheme, "ipc") != 0) {
        char* end = NULL;
        long port = u->u_port && u->u_port[0] ? strtol(u->u_port, &end, 10) : -1;
        if (port < 1 || port > 65535 || (end && *end)) {
            snprintf(why, n, "'%s': needs a port in 1..65535 (e.g. tcp://127.0.0.1:7700)", text);
            rc = -1;
        } else if (!listening && !u->u_hostname[0]) {
            snprintf(why, n, "'%s': needs a host to dial", text);
            rc = -1;
        }
    }
    nng_url_free(u);
    return rc;
}

static int relay_parse_upstream(const cli_opt* o, const char* text, void* args, char* why, size_t n) {
    relay_args* a = args;
    (void)o;
    if (a->upstream) {
        snprintf(why, n, "given twice (one upstream per relay)");
        return -1;
    }
    if (relay_url_why(text, 0, why, n)) return -1;
    a->upstream = text;
    return 0;
}

/* --listen (id 0) and --view-listen (id 1): repeated, up to RELAY_MAX_LISTEN. */
static int relay_parse_listen(const cli_opt* o, const char* text, void* args, char* why, size_t n) {
    relay_args* a = args;
    const char** list = o->id ? a->view_listen : a->listen;
    int* count = o->id ? &a->view_listen_count : &a->listen_count;
    if (*count == RELAY_MAX_LISTEN) {
        snprintf(why, n, "at most %d listeners", RELAY_MAX_LISTEN);
        return -1;
    }
    if (relay_url_why(text, 1, why, n)) return -1;
    list[(*count)++] = text;
    return 0;
}

static int relay_parse_health(const cli_opt* o, const char* text, void* args, char* why, size_t n) {
    const char* colon = strrchr(text, ':');
    uint64_t port;
    (void)o;
    if (!colon || colon == text || cli_parse_u64(colon + 1, 1, 65535, &port)) {
        snprintf(why, n, "must be HOST:PORT with a port in 1..65535 (got '%s')", text);
        return -1;
    }
    ((relay_args*)args)->health = text;
    return 0;
}

/* A view setting: it needs --view-listen (relay_check_args names the first given). */
#define RELAY_VIEW(name, t, field, k, lo, hi, message, vn, text)                                                    \
    {name, .type = t, CLI_FIELD(relay_args, field), CLI_SEEN(relay_args, view_seen[k]), .min = lo, .max = hi,     \
     .bad = message, .value_name = vn, .help = text, .show_default = 1}

static const cli_opt relay_opts[] = {
    {"--upstream", .type = CLI_CUSTOM, .parse = relay_parse_upstream, .value_name = "URL",
     .help = "the PUB to subscribe to: tcp://HOST:PORT (a naval-server's snapshot or compact\n"
             "URL, or another relay), also ws://, ipc://; dialled in the background, redialled"},
    {"--listen", .type = CLI_CUSTOM, .parse = relay_parse_listen, .id = 0, .value_name = "URL",
     .help = "where spectators subscribe: tcp://HOST:PORT or ws://HOST:PORT/PATH (browsers:\n"
             "new WebSocket(url, \"pub.sp.nanomsg.org\")); up to 8"},
    CLI_UINT_OPT(relay_args, "--queue", queue, 1, 8192, "N",
              "messages queued per subscriber (and updates per view) before the oldest\ndrops (1..8192)"),
    CLI_UINT_OPT(relay_args, "--max-message", max_message, 1024, 2147483648.0, "BYTES", "largest message accepted from upstream"),
    {"--health", .type = CLI_CUSTOM, .parse = relay_parse_health, .value_name = "HOST:PORT",
     .help = "GET /healthz answers 200 while the upstream is connected, else 503\n"
             "(may share a ws listener's HOST:PORT, written identically)"},
    CLI_UINT_OPT(relay_args, "--max-connections", max_connections, 1, 65536, "N",
              "open connections per listener; more are refused"),
    CLI_UINT_OPT(relay_args, "--max-connections-per-address", max_per_address, 1, 65536, "N",
              "open connections from one IP address, all listeners"),
    {"--quiet", .type = CLI_SWITCH, CLI_FIELD(relay_args, quiet), .help = "no log lines on stderr"},
    {"--view-listen", .type = CLI_CUSTOM, .parse = relay_parse_listen, .id = 1, .value_name = "URL",
     .help = "player views (docs/protocol.md, \"Player views\"; docs/scaling.md, \"Views on relays\"):\n"
             "where they connect (PAIR1): tcp://HOST:PORT or ws://HOST:PORT/PATH\n"
             "(subprotocol pair1.sp.nanomsg.org); up to 8. The upstream must be a full or\n"
             "compact snapshot stream. Views naming own vessels are refused (Unsupported):\n"
             "a relay cannot check their tokens"},
    RELAY_VIEW("--threads", CLI_UINT, threads, 0, 1, JOBS_MAX_THREADS, "--threads must be an integer in 1..64", "N",
               "threads encoding the views, the view thread included (1..64)"),
    RELAY_VIEW("--tick-hz", CLI_DOUBLE, tick_hz, 1, 1, 1000, "--tick-hz must be a number in 1..1000", "HZ",
               "the upstream's snapshots per second, the server's tick rate\n"
               "(1..1000): view budgets and keyframe intervals are counted in it"),
    RELAY_VIEW("--max-view-radius", CLI_DOUBLE, max_view_radius, 2, 1, 1e6,
               "--max-view-radius must be a number in 1..1000000", "M",
               "the largest radius a view gets, m: also the fog of war (1..1e6)"),
    RELAY_VIEW("--max-views", CLI_UINT, max_views, 3, 1, 100000, "--max-views must be an integer in 1..100000", "N",
               "views open at once; more get nothing (1..100000)"),
    RELAY_VIEW("--view-budget", CLI_UINT, view_budget, 4, 1, 1000000,
               "--view-budget must be an integer in 1..1000000", "KBPS",
               "a view's bandwidth when it names none, kbit/s (1..1000000)"),
    RELAY_VIEW("--max-view-budget", CLI_UINT, max_view_budget, 5, 1, 1000000,
               "--max-view-budget must be an integer in 1..1000000", "KBPS",
               "the largest budget a view gets, kbit/s (1..1000000)"),
    RELAY_VIEW("--max-view-vessels", CLI_UINT, max_view_vessels, 6, 1, 65536,
               "--max-view-vessels must be an integer in 1..65536", "N",
               "vessels one view holds at most, the nearest (1..65536)"),
    {0}};

static const cli_spec relay_spec = {
    .prog = "naval-relay",
    .synopsis = "naval-relay --upstream URL [--listen URL ...] [--view-listen URL ...] [options]",
    .about = "Subscribes to a snapshot stream and republishes every message unchanged to spectators (--listen),\n"
             "and serves player views encoded from it (--view-listen): at least one of the two.",
    .opts = relay_opts,
    .epilogue = "Exit: 0 after SIGINT / SIGTERM, 2 for bad arguments (the reason on stderr), 1 when a listener fails.",
    .flag_sep = " "};

/* What no single flag can tell. */
static int relay_check_args(const relay_args* a) {
    if (!a->upstream) return relay_arg_error("--upstream URL is required");
    if (!a->listen_count && !a->view_listen_count)
        return relay_arg_error("at least one --listen URL is required (or --view-listen for views only)");
    for (int k = 0; k < RELAY_VIEW_SETTINGS && !a->view_listen_count; k++) {
        const cli_opt* o = relay_opts;
        while (o->flag && o->seen != offsetof(relay_args, view_seen[k]) + 1) o++;
        if (a->view_seen[k]) return relay_arg_error("%s: views are off without --view-listen URL", o->flag);
    }
    if (a->view_budget > a->max_view_budget)
        return relay_arg_error("--view-budget (%llu) is over --max-view-budget (%llu)",
                               (unsigned long long)a->view_budget, (unsigned long long)a->max_view_budget);
    return 0;
}

/* 0: run; 1: --help shown; 2: bad arguments (reported). The defaults are
 * the edge's and the views' own (net/edge.h, view/view.h), as the server's. */
static int relay_parse_args(int argc, char** argv, relay_args* a) {
    memset(a, 0, sizeof *a);
    edge_limits lim;
    edge_limits_default(&lim);
    view_config vc;
    view_config_default(&vc);
    a->queue = lim.send_queue;
    a->max_message = 64u << 20;
    a->max_connections = lim.max_connections;
    a->max_per_address = lim.max_connections_per_address;
    a->threads = 2;
    a->tick_hz = vc.tick_hz;
    a->max_view_radius = vc.max_radius;
    a->max_views = vc.max_views;
    a->view_budget = vc.default_budget_kbps;
    a->max_view_budget = vc.max_budget_kbps;
    a->max_view_vessels = vc.max_vessels;
    int rc = cli_parse(&relay_spec, argc, argv, a);
    if (rc != CLI_RUN) return rc ? rc : 1;
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
    watchdog_step("closing the upstream SUB");
    watchdog_arm(RELAY_STOP_WATCHDOG_S, 0,
                 "naval-relay: WARNING the stop hung for " RELAY_STR(RELAY_STOP_WATCHDOG_S) " s while ",
                 " (an nng_close hang); exiting\n");
    nng_close(r.sub);
    watchdog_step("joining the receiving thread");
    pthread_join(receiver, NULL);
    /* The view thread sends on the edge: it ends first. */
    watchdog_step("joining the view thread");
    relay_views_stop(r.views);
    watchdog_step("closing the listeners");
    edge_destroy(r.e);
    relay_views_destroy(r.views);
    if (sig == SIGUSR1) {
        fprintf(stderr, "naval-relay: receiving from upstream stopped: %s\n", nng_strerror(r.recv_rv));
        return 1;
    }
    if (!r.args.quiet) fprintf(stderr, "naval-relay: %s, stopped\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    return 0;
}
