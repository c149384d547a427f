/* naval-relay: a stateless snapshot relay for spectators. It subscribes to
 * one upstream PUB (a naval-server or another relay) and republishes every
 * message unchanged on its own tcp and WebSocket listeners, with nng's
 * device (raw SUB -> raw PUB: no topic filtering, no copies beyond nng's).
 * Relays chain into a tree, so one server feeds any number of spectators
 * while its own fan-out stays at a handful of relays (docs/scaling.md).
 *
 * Like the server's PUB sockets it never blocks on a slow spectator: each
 * subscriber has a queue of --queue messages and the oldest is dropped when
 * it is full. The upstream is dialled in the background and redialled
 * whenever it goes away. SIGINT or SIGTERM closes everything and exits 0
 * (within 3 s: see RELAY_STOP_WATCHDOG_S). */
#include <errno.h>
#include <nng/nng.h>
#include <nng/protocol/pubsub0/pub.h>
#include <nng/protocol/pubsub0/sub.h>
#include <nng/supplemental/http/http.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "nv_error.h"

#define RELAY_MAX_LISTEN 8

static const char relay_usage[] =
    "usage: naval-relay --upstream URL --listen URL [--listen URL ...] [--queue N] [--max-message BYTES]\n"
    "                   [--health HOST:PORT] [--quiet]\n"
    "Subscribes to a snapshot stream and republishes every message unchanged (nng device, raw SUB -> PUB).\n\n"
    "  --upstream URL        the PUB to subscribe to: tcp://HOST:PORT (a naval-server's snapshot or compact\n"
    "                        URL, or another relay), also ws://, ipc://; dialled in the background, redialled\n"
    "  --listen URL          where spectators subscribe: tcp://HOST:PORT or ws://HOST:PORT/PATH (browsers:\n"
    "                        new WebSocket(url, \"pub.sp.nanomsg.org\")); up to 8\n"
    "  --queue N             messages queued per subscriber before the oldest drops (default 16, 1..8192)\n"
    "  --max-message BYTES   largest message accepted from upstream (default 64 MiB)\n"
    "  --health HOST:PORT    GET /healthz answers 200 while the upstream is connected, else 503\n"
    "                        (may share a ws listener's HOST:PORT, written identically)\n"
    "  --quiet               no log lines on stderr\n"
    "Exit: 0 after SIGINT / SIGTERM, 2 for bad arguments (the reason on stderr), 1 when a listener fails.\n";

typedef struct relay_args {
    const char* upstream;
    const char* listen[RELAY_MAX_LISTEN];
    int listen_count;
    uint64_t queue;
    uint64_t max_message;
    const char* health;
    int quiet;
} relay_args;

typedef struct relay {
    relay_args args;
    nng_socket sub, pub;
    nng_http_server* health_server;
    atomic_int upstream_pipes; /* > 0 while connected upstream */
    int device_rv;
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
    static const char* const listen_schemes[] = {"tcp", "tcp4", "tcp6", "ws", "ws4", "ws6", "ipc", NULL};
    const char* const* schemes = listening ? listen_schemes : dial_schemes;
    int known = 0;
    for (int i = 0; schemes[i]; i++) known |= !strcmp(u->u_scheme, schemes[i]);
    int rc = 0;
    if (!known) {
        fprintf(stderr, "naval-relay: %s '%s': the scheme must be tcp://, ws:// or ipc://\n", flag, text);
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
                    !strcmp(arg, "--max-message") || !strcmp(arg, "--health");
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

static void relay_healthz(nng_aio* aio) {
    nng_http_handler* h = nng_aio_get_input(aio, 1);
    relay* r = nng_http_handler_get_data(h);
    int up = atomic_load(&r->upstream_pipes) > 0;
    const char* body = up ? "ok: upstream connected\n" : "unavailable: upstream not connected\n";
    nng_http_res* res;
    int rv = nng_http_res_alloc(&res);
    if (rv) {
        nng_aio_finish(aio, rv);
        return;
    }
    nng_http_res_set_status(res, up ? 200 : 503);
    nng_http_res_set_header(res, "Content-Type", "text/plain; charset=utf-8");
    nng_http_res_copy_data(res, body, strlen(body));
    nng_aio_set_output(aio, 0, res);
    nng_aio_finish(aio, 0);
}

static int relay_start_health(relay* r) {
    char text[300];
    snprintf(text, sizeof text, "http://%s", r->args.health);
    nng_url* u = NULL;
    nng_http_handler* h = NULL;
    int rv = nng_url_parse(&u, text);
    if (!rv) rv = nng_http_server_hold(&r->health_server, u);
    if (!rv) rv = nng_http_handler_alloc(&h, "/healthz", relay_healthz);
    if (!rv) rv = nng_http_handler_set_data(h, r, NULL);
    if (!rv) {
        rv = nng_http_server_add_handler(r->health_server, h);
        if (rv) nng_http_handler_free(h);
    }
    if (!rv) rv = nng_http_server_start(r->health_server);
    if (u) nng_url_free(u);
    if (rv) fprintf(stderr, "naval-relay: --health %s: %s\n", r->args.health, nng_strerror(rv));
    return rv;
}

static void* relay_device_thread(void* arg) {
    relay* r = arg;
    r->device_rv = nng_device(r->sub, r->pub);
    /* Closing the sockets (shutdown) ends it with NNG_ECLOSED; anything
     * else is a failure the main thread must hear about. */
    if (r->device_rv != NNG_ECLOSED) kill(getpid(), SIGUSR1);
    return NULL;
}

static int relay_open(relay* r) {
    int rv = nng_sub0_open_raw(&r->sub);
    if (!rv) rv = nng_pub0_open_raw(&r->pub);
    if (rv) {
        fprintf(stderr, "naval-relay: cannot open sockets: %s\n", nng_strerror(rv));
        return 1;
    }
    /* Snapshots of big worlds exceed nng's 1 MiB default; the PUB side
     * receives nothing (a subscriber that sends is disconnected by nng). */
    nng_socket_set_size(r->sub, NNG_OPT_RECVMAXSZ, (size_t)r->args.max_message);
    nng_socket_set_int(r->pub, NNG_OPT_SENDBUF, (int)r->args.queue);
    nng_socket_set_ms(r->sub, NNG_OPT_RECONNMINT, 100);
    nng_socket_set_ms(r->sub, NNG_OPT_RECONNMAXT, 2000);
    nng_pipe_notify(r->sub, NNG_PIPE_EV_ADD_POST, relay_pipe_event, r);
    nng_pipe_notify(r->sub, NNG_PIPE_EV_REM_POST, relay_pipe_event, r);
    for (int i = 0; i < r->args.listen_count; i++) {
        rv = nng_listen(r->pub, r->args.listen[i], NULL, 0);
        if (rv) {
            fprintf(stderr, "naval-relay: --listen %s: %s\n", r->args.listen[i], nng_strerror(rv));
            return 1;
        }
    }
    if (r->args.health && relay_start_health(r)) return 1;
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
static const char* const relay_stop_steps[] = {"closing the upstream SUB", "closing the listeners' PUB",
                                               "joining the device thread", "stopping the /healthz server"};

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
    rc = relay_open(&r);
    pthread_t device;
    if (!rc && pthread_create(&device, NULL, relay_device_thread, &r) != 0) {
        fprintf(stderr, "naval-relay: cannot start the device thread\n");
        rc = 1;
    }
    if (rc) {
        if (r.health_server) nng_http_server_release(r.health_server);
        nng_close(r.sub);
        nng_close(r.pub);
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
    nng_close(r.pub);
    relay_stop_step = 2;
    pthread_join(device, NULL);
    relay_stop_step = 3;
    if (r.health_server) {
        nng_http_server_stop(r.health_server);
        nng_http_server_release(r.health_server);
    }
    if (sig == SIGUSR1) {
        fprintf(stderr, "naval-relay: the device stopped: %s\n", nng_strerror(r.device_rv));
        return 1;
    }
    if (!r.args.quiet) fprintf(stderr, "naval-relay: %s, stopped\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    return 0;
}
