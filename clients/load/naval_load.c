// SPDX-License-Identifier: MIT
/* naval-load: puts a naval-server under the load of players and spectators
 * and reports what each of them sees. See --help and docs/clients.md. */
#include <nng/nng.h>
#include <nng/supplemental/util/platform.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli.h"
#include "closer.h"
#include "naval_client.h"
#include "player.h"
#include "report.h"
#include "sub.h"
#include "truth.h"

#define LOAD_URL_MAX 256

typedef struct load_options {
    const char* host;
    uint64_t snapshot_port, compact_port, command_port, http_port, view_port;
    char snapshot_url[LOAD_URL_MAX], command_url[LOAD_URL_MAX], ws_url[LOAD_URL_MAX], view_url[LOAD_URL_MAX];
    char truth_url[LOAD_URL_MAX];   /* views: the full stream, even with --stream compact */
    char metrics_url[LOAD_URL_MAX]; /* the server's /metrics: its passes per tick */
    int compact;
    uint64_t players, boats, spectators, ws_spectators;
    const char* type_name;
    double duration, warmup, input_hz, spread, centre_x, centre_z;
    uint64_t max_snapshot_mib, timeout_ms, seed;
    int json;
    double view_radius;   /* m; 0: players subscribe to the stream, no views */
    uint64_t budget_kbps; /* 0: the server's default */
    report_limits limits;
    int ramp;             /* --ramp: add --players players a step until a budget breaks */
    double ramp_step_s;   /* measured seconds per step */
    uint64_t ramp_max_steps;
} load_options;

static volatile sig_atomic_t load_interrupted;

static void load_on_signal(int sig) {
    (void)sig;
    load_interrupted = 1;
}

/* The views' flags mean nothing without views: say so rather than ignore them. */
static int load_check_views(const load_options* o) {
    if (o->view_radius > 0.0) return 0;
    const char* flag = o->budget_kbps ? "--budget-kbps"
                       : o->limits.max_kbps_per_player > 0.0 ? "--max-kbps-per-player"
                       : o->limits.min_near_hz > 0.0 ? "--min-near-hz"
                       : o->limits.min_view_hz > 0.0 ? "--min-view-hz"
                       : o->limits.max_join_ms > 0.0 ? "--max-join-ms"
                                                     : NULL;
    if (!flag) return 0;
    fprintf(stderr, "naval-load: %s: needs --view-radius (players without views)\n", flag);
    return -1;
}

static const char load_about[] =
    "Connects players that spawn and steer boats and spectators that watch, to a naval-server,\n"
    "and reports per role: snapshots/s, ticks missed, latency (server send time to receipt),\n"
    "bytes/s, command round trips, errors; and the server's tick time as the snapshots carry it.";
static const char load_epilogue[] =
    "A run also fails (exit 1) when a player spawned fewer boats than asked.\n"
    "Reported under \"stream\": kbit/s per player (mean, max: view bytes x 8 / 1000 / s);\n"
    "near_hz_min, view_hz_min: near = within 300 m of the view's centre (the nearest own boat),\n"
    "view = within the radius; per (player, boat), over the whole seconds the truth had the boat\n"
    "there at every tick, the updates that carried it (its newest sample at the update's tick)\n"
    "per second, for boats there >= 2 such seconds; the lowest. error_near_m_p99,\n"
    "error_far_m_p99: 10 times a second each player's vessels drawn by nvc_view_sample 100 ms\n"
    "behind its newest update (interpolated, at most 3 ticks extrapolated) against the truth of\n"
    "that tick, 3-D, near and far (in view, not near). join_ms_p99: from a view's opening until\n"
    "it holds every boat the truth has within its radius less 20 m; p99 over players (null when\n"
    "that player never joined).\n\n"
    "Exit: 0 thresholds met (with --ramp: the ramp ran to its end), 1 a threshold missed or a spawn\n"
    "failed, 2 bad arguments, 3 server unreachable.\n"
    "Stops by itself after warm-up + duration (or on Ctrl-C) and despawns its boats.";

/* A URL into the char buffer of the row's field. */
static int load_parse_url(const cli_opt* opt, const char* v, void* args, char* why, size_t n) {
    if (!strstr(v, "://") || strlen(v) >= opt->size) {
        snprintf(why, n, "expected a URL such as tcp://HOST:PORT (got '%s')", v);
        return -1;
    }
    snprintf((char*)args + opt->offset, opt->size, "%s", v);
    return 0;
}

static int load_parse_host(const cli_opt* opt, const char* v, void* args, char* why, size_t n) {
    (void)opt;
    if (!v[0] || strchr(v, '/') || strlen(v) > 200) {
        snprintf(why, n, "expected a host name or address (got '%s')", v);
        return -1;
    }
    ((load_options*)args)->host = v;
    return 0;
}

static int load_parse_type(const cli_opt* opt, const char* v, void* args, char* why, size_t n) {
    (void)opt;
    if (!v[0] || strlen(v) >= PROTO_NAME_MAX) {
        snprintf(why, n, "expected a vessel type name (got '%s')", v);
        return -1;
    }
    ((load_options*)args)->type_name = v;
    return 0;
}

static int load_parse_centre(const cli_opt* opt, const char* v, void* args, char* why, size_t n) {
    load_options* o = args;
    (void)opt;
    if (cli_parse_point(v, &o->centre_x, &o->centre_z)) {
        snprintf(why, n, "expected X,Z in metres (got '%s')", v);
        return -1;
    }
    return 0;
}

/* A number in [lo, hi]; a bad one is "FLAG: expected WANT (got 'V')". */
#define LOAD_NUM(flag, t, field, lo, hi, want, vn, text)                                                            \
    {flag, .type = t, CLI_FIELD(load_options, field), .min = lo, .max = hi, .bad = flag ": expected " want,       \
     .value_name = vn, .help = text}
#define LOAD_PORT(flag, field, text) LOAD_NUM(flag, CLI_UINT, field, 1, 65535, "a port number in [1, 65535]", "N", text)
#define LOAD_URL(flag, field, text)                                                                                 \
    {flag, .type = CLI_CUSTOM, CLI_FIELD(load_options, field), .parse = load_parse_url, .value_name = "URL",        \
     .help = text}

static const char* const load_streams[] = {"full", "compact", NULL};

static const cli_opt load_opts[] = {
    {"--server", .type = CLI_CUSTOM, .parse = load_parse_host, .value_name = "HOST",
     .help = "the server's host (127.0.0.1); ports below"},
    LOAD_PORT("--snapshot-port", snapshot_port, "tcp full snapshots (7700)"),
    LOAD_PORT("--compact-port", compact_port, "tcp compact (7702)"),
    LOAD_PORT("--command-port", command_port, "tcp commands (7701)"),
    LOAD_PORT("--http-port", http_port, "WebSocket (8080)"),
    LOAD_PORT("--view-port", view_port, "tcp views (7703)"),
    LOAD_URL("--snapshot-url", snapshot_url, "instead of HOST and port"),
    LOAD_URL("--command-url", command_url, "instead of HOST and port"),
    LOAD_URL("--ws-url", ws_url, "instead of HOST and port"),
    LOAD_URL("--view-url", view_url, "instead of HOST and port (e.g. ws://HOST:8080/ws/view)"),
    LOAD_URL("--metrics-url", metrics_url, "the server's passes (http://HOST:HTTP-PORT/metrics)"),
    {"--stream", .type = CLI_ENUM, CLI_FIELD(load_options, compact), .words = load_streams,
     .bad = "--stream: expected full or compact", .help = "the snapshot stream subscribers read (full)"},
    LOAD_NUM("--players", CLI_UINT, players, 0, 1000, "a whole number in [0, 1000]", "P",
             "players (4), each with a command connection and a tcp subscription\n(or a view: --view-radius)"),
    LOAD_NUM("--boats-per-player", CLI_UINT, boats, 0, 10000, "a whole number in [0, 10000]", "B",
             "boats each player spawns and steers (4)"),
    {"--type", .type = CLI_CUSTOM, .parse = load_parse_type, .value_name = "NAME",
     .help = "their vessel type (skiff)"},
    LOAD_NUM("--input-hz", CLI_DOUBLE, input_hz, 0.1, 1000, "a rate in [0.1, 1000] per second", "R",
             "steering rounds per second, one Control per boat each (5)"),
    LOAD_NUM("--spread", CLI_DOUBLE, spread, 0, 1e6, "a number in range (see --help)", "M",
             "boats spawn within M of the centre (300)"),
    {"--centre", .alias = "--center", .type = CLI_CUSTOM, .parse = load_parse_centre, .value_name = "X,Z",
     .help = "the centre they spawn about (0,0)"},
    LOAD_NUM("--spectators", CLI_UINT, spectators, 0, 1000, "a whole number in [0, 1000]", "S",
             "tcp spectators (4)"),
    LOAD_NUM("--ws-spectators", CLI_UINT, ws_spectators, 0, 1000, "a whole number in [0, 1000]", "W",
             "WebSocket spectators (4)"),
    LOAD_NUM("--duration", CLI_DOUBLE, duration, 0.1, 86400, "seconds in [0.1, 86400]", "SEC", "measured time (10)"),
    LOAD_NUM("--warmup", CLI_DOUBLE, warmup, 0, 600, "seconds in [0, 600]", "SEC", "before it (1)"),
    LOAD_NUM("--max-p99-tick-ms", CLI_DOUBLE, limits.max_p99_tick_ms, 1e-6, 1e6, "a number in range (see --help)",
             "X", "fail (exit 1) when the server's tick p99 exceeds X ms (default: none)"),
    LOAD_NUM("--max-overrun-rate", CLI_DOUBLE, limits.max_overrun_rate, 0, 1, "a fraction in [0, 1]", "Y",
             "fail (exit 1) when more than this fraction of the window's ticks overran\n"
             "the server's tick budget (default 0.01: 1 %; 1 turns it off)"),
    LOAD_NUM("--max-drop-rate", CLI_DOUBLE, limits.max_drop_rate, 0, 1, "a fraction in [0, 1]", "Y",
             "fail (exit 1) when a role or the monitor misses more than this fraction\n"
             "of ticks (default 0.01: 1 %; 1 turns it off)"),
    {"--ramp", .type = CLI_SWITCH, CLI_FIELD(load_options, ramp),
     .help = "add --players players a step until a budget breaks"},
    LOAD_NUM("--ramp-step-s", CLI_DOUBLE, ramp_step_s, 0.1, 3600, "seconds in [0.1, 3600]", "S",
             "measured seconds per step (5)"),
    LOAD_NUM("--ramp-max-steps", CLI_UINT, ramp_max_steps, 1, 1000, "a whole number in [1, 1000]", "N",
             "steps at most (50)"),
    LOAD_NUM("--max-snapshot-mib", CLI_UINT, max_snapshot_mib, 1, 2047, "a number in range (see --help)", "MIB",
             "largest snapshot accepted (64)"),
    LOAD_NUM("--timeout-ms", CLI_UINT, timeout_ms, 1, 600000, "a number in range (see --help)", "MS",
             "a command's timeout (2000)"),
    LOAD_NUM("--seed", CLI_UINT, seed, 0, 0, "a number in range (see --help)", "S", "spawn positions' seed (1)"),
    LOAD_NUM("--view-radius", CLI_DOUBLE, view_radius, 1, 1e6, "metres in [1, 1e6]", "M",
             "players open a view of this radius instead of subscribing"),
    LOAD_NUM("--budget-kbps", CLI_UINT, budget_kbps, 1, 1000000, "kbit/s, a whole number in [1, 1000000]", "K",
             "the views' budget (default: the server's)"),
    LOAD_NUM("--max-kbps-per-player", CLI_DOUBLE, limits.max_kbps_per_player, 1e-6, 1e9,
             "a number in range (see --help)", "X", "fail when a player receives more than X kbit/s"),
    LOAD_NUM("--min-near-hz", CLI_DOUBLE, limits.min_near_hz, 1e-6, 1e6, "a number in range (see --help)", "X",
             "fail when a near boat is updated less often"),
    LOAD_NUM("--min-view-hz", CLI_DOUBLE, limits.min_view_hz, 1e-6, 1e6, "a number in range (see --help)", "X",
             "fail when a boat in view is updated less often"),
    LOAD_NUM("--max-join-ms", CLI_DOUBLE, limits.max_join_ms, 1e-6, 1e9, "a number in range (see --help)", "X",
             "fail when the join p99 exceeds X ms"),
    {"--json", .type = CLI_SWITCH, CLI_FIELD(load_options, json), .help = "the report as JSON on stdout"},
    {0}};

static const cli_spec load_spec = {.prog = "naval-load",
                                   .synopsis = "naval-load [options]",
                                   .about = load_about,
                                   .opts = load_opts,
                                   .epilogue = load_epilogue};

static int load_parse(int argc, char** argv, load_options* o) {
    memset(o, 0, sizeof *o);
    o->host = "127.0.0.1";
    o->snapshot_port = 7700;
    o->compact_port = 7702;
    o->command_port = 7701;
    o->http_port = 8080;
    o->view_port = 7703;
    o->players = 4;
    o->boats = 4;
    o->spectators = 4;
    o->ws_spectators = 4;
    o->type_name = "skiff";
    o->duration = 10.0;
    o->warmup = 1.0;
    o->input_hz = 5.0;
    o->spread = 300.0;
    o->max_snapshot_mib = 64;
    o->timeout_ms = 2000;
    o->seed = 1;
    o->limits.max_p99_tick_ms = 0.0;
    o->limits.max_drop_rate = 0.01;
    o->limits.max_overrun_rate = 0.01;
    o->ramp_step_s = 5.0;
    o->ramp_max_steps = 50;
    int rc = cli_parse(&load_spec, argc, argv, o);
    if (rc != CLI_RUN) exit(rc);
    if (load_check_views(o)) return -1;
    if (o->ramp && o->view_radius > 0.0) {
        fprintf(stderr, "naval-load: --ramp: not with --view-radius (ramp the stream's players)\n");
        return -1;
    }
    if (o->ramp && (!o->players || !o->boats)) {
        fprintf(stderr, "naval-load: --ramp: needs --players and --boats-per-player above 0 (each step adds them)\n");
        return -1;
    }
    if (!o->snapshot_url[0])
        snprintf(o->snapshot_url, LOAD_URL_MAX, "tcp://%s:%llu", o->host,
                 (unsigned long long)(o->compact ? o->compact_port : o->snapshot_port));
    if (!o->command_url[0])
        snprintf(o->command_url, LOAD_URL_MAX, "tcp://%s:%llu", o->host, (unsigned long long)o->command_port);
    if (!o->ws_url[0])
        snprintf(o->ws_url, LOAD_URL_MAX, "ws://%s:%llu/ws/%s", o->host, (unsigned long long)o->http_port,
                 o->compact ? "compact" : "snapshots");
    if (!o->metrics_url[0])
        snprintf(o->metrics_url, LOAD_URL_MAX, "http://%s:%llu/metrics", o->host, (unsigned long long)o->http_port);
    if (!o->view_url[0])
        snprintf(o->view_url, LOAD_URL_MAX, "tcp://%s:%llu", o->host, (unsigned long long)o->view_port);
    /* The truth is the full stream: the monitor's URL unless that is compact. */
    if (o->compact)
        snprintf(o->truth_url, LOAD_URL_MAX, "tcp://%s:%llu", o->host, (unsigned long long)o->snapshot_port);
    else
        snprintf(o->truth_url, LOAD_URL_MAX, "%s", o->snapshot_url);
    return 0;
}

static double load_now(void) { return (double)nng_clock() * 1e-3; }

/* Everything to close at the end (on a thread with a time limit: closer.h). */
typedef struct load_teardown {
    const load_options* o;
    uint64_t np;
    player** players;
    sub_stream** tcp;
    sub_stream** ws;
    sub_stream* watch;
    sub_stream* truth_sub;    /* NULL when the monitor is the truth */
    truth* truth;
    nvc_client* monitor;
} load_teardown;

static void load_free_all(void* arg) {
    load_teardown* t = arg;
    for (uint64_t i = 0; t->players && i < t->np; i++) player_free(t->players[i]);
    for (uint64_t i = 0; t->tcp && i < t->o->spectators; i++) sub_free(t->tcp[i]);
    for (uint64_t i = 0; t->ws && i < t->o->ws_spectators; i++) sub_free(t->ws[i]);
    free(t->players);
    free(t->tcp);
    free(t->ws);
    sub_free(t->watch);
    sub_free(t->truth_sub);
    truth_free(t->truth); /* after every player and the subscriptions that feed it */
    nvc_close(t->monitor);
}

static void load_put_truth(void* arg, proto_snapshot* s) { truth_put(arg, s); }

/* The truth's newest tick + 1: where a window of ticks starts or ends now. */
static uint64_t load_tick_now(truth* t) {
    uint64_t tick;
    return truth_newest(t, &tick) ? tick + 1 : 0;
}

/* The truth's subscription: the monitor itself when it reads full
 * snapshots (one full stream of the whole fleet is costly enough). */
static int load_open_truth(const load_options* o, double tick_hz, size_t max_bytes, truth** out, sub_stream** watch,
                           sub_stream** truth_sub) {
    char err[512];
    /* ~3 s of ticks: the players' threads read the ticks they need well within that. */
    uint32_t ticks = (uint32_t)(3.0 * (tick_hz > 0.0 ? tick_hz : 60.0)) + 1;
    if (!(*out = truth_create(ticks < 64 ? 64 : ticks))) {
        fprintf(stderr, "naval-load: out of memory\n");
        return -1;
    }
    if (o->compact ? sub_open_listened(truth_sub, o->truth_url, 0, 0, max_bytes, load_put_truth, *out, err, sizeof err)
                   : sub_open_listened(watch, o->snapshot_url, 0, 1, max_bytes, load_put_truth, *out, err, sizeof err)) {
        fprintf(stderr, "naval-load: the truth's full snapshots: %s\n", err);
        return -1;
    }
    return 0;
}

/* One line on stderr: what the server does now (the monitor's counts since its last reset). */
typedef struct load_progress {
    sub_stream* watch;
    double last_at;
    uint64_t last_messages;
} load_progress;

static void load_progress_line(load_progress* pg, const char* what, double done, double total) {
    double now = load_now();
    if (pg->last_at > 0.0 && now - pg->last_at < 1.0) return;
    sub_totals t;
    sub_totals_get(pg->watch, &t);
    double rate = pg->last_at > 0.0 && t.messages >= pg->last_messages
                      ? (double)(t.messages - pg->last_messages) / (now - pg->last_at)
                      : 0.0;
    double p99 = sub_tick_ms_now(pg->watch, 99);
    uint64_t ticks = t.last_tick > t.first_tick ? t.last_tick - t.first_tick : 0;
    uint64_t overruns = t.overruns_last - t.overruns_first;
    char tick[32];
    fprintf(stderr,
            "naval-load: %s %.0f/%.0f s: %u vessels, %.1f snapshots/s, tick p99 %s, %llu overruns (%.1f %%), "
            "%llu ticks missed, tester RSS peak %.0f MiB\n",
            what, done, total, t.world_vessels_last, rate, report_ms(tick, sizeof tick, p99),
            (unsigned long long)overruns, ticks ? 100.0 * (double)overruns / (double)ticks : 0.0,
            (unsigned long long)t.ticks_missed, report_peak_rss_mib());
    pg->last_at = now;
    pg->last_messages = t.messages;
}

/* load_sleep, with a progress line every second. */
static void load_wait(load_progress* pg, const char* what, double seconds) {
    double t0 = load_now(), end = t0 + seconds;
    pg->last_at = t0;
    sub_totals t;
    sub_totals_get(pg->watch, &t);
    pg->last_messages = t.messages;
    while (!load_interrupted && load_now() < end) {
        nng_msleep(50);
        load_progress_line(pg, what, load_now() - t0, seconds);
    }
}

/* The passes' JSON into a buffer (the ramp's steps are built in one). */
static size_t load_passes_json(char* out, size_t n, const scrape_sample* a, const scrape_sample* b) {
    FILE* f = fmemopen(out, n, "w");
    if (!f) return n;
    scrape_print_json(f, a, b);
    long k = ftell(f);
    fclose(f);
    return k < 0 ? n : (size_t)k;
}

/* The server's figures over the window from the monitor's counts. */
static void load_server_window(sub_stream* watch, report_server* srv) {
    sub_totals wt;
    sub_totals_get(watch, &wt);
    srv->snapshots = wt.messages;
    srv->ticks_missed = wt.ticks_missed;
    srv->overruns = wt.overruns_last - wt.overruns_first;
    srv->vessels = wt.world_vessels_last;
    srv->window_ticks = wt.messages && wt.last_tick > wt.first_tick ? wt.last_tick - wt.first_tick : 0;
    srv->overrun_rate = srv->window_ticks ? (double)srv->overruns / (double)srv->window_ticks : NAN;
    uint64_t expected = wt.messages + wt.ticks_missed;
    srv->drop_rate = expected ? (double)wt.ticks_missed / (double)expected : 1.0;
}

/* Snapshots and KiB each spectator of `subs` received per second over the
 * last `seconds` (counted since their sub_reset); -1 with none. */
static void load_spectator_rates(sub_stream** subs, uint64_t n, double seconds, double* per_s, double* kib_per_s) {
    *per_s = *kib_per_s = -1.0;
    if (!n || !(seconds > 0.0)) return;
    uint64_t messages = 0, bytes = 0;
    for (uint64_t i = 0; i < n; i++) {
        sub_totals t;
        sub_totals_get(subs[i], &t);
        messages += t.messages;
        bytes += t.bytes;
    }
    *per_s = (double)messages / (double)n / seconds;
    *kib_per_s = (double)bytes / 1024.0 / (double)n / seconds;
}

/* The last ramp step's window ends here for the spectators: what they get
 * while the report is made is not counted. */
static void load_freeze_spectators(sub_stream** tcp, uint64_t ntcp, sub_stream** ws, uint64_t nws) {
    for (uint64_t i = 0; i < ntcp; i++) sub_freeze(tcp[i]);
    for (uint64_t i = 0; i < nws; i++) sub_freeze(ws[i]);
}

static double load_cpu_seconds(void) {
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru)) return -1.0;
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

int main(int argc, char** argv) {
    load_options o;
    if (load_parse(argc, argv, &o)) return 2;
    signal(SIGINT, load_on_signal);
    signal(SIGTERM, load_on_signal);
    size_t max_bytes = (size_t)o.max_snapshot_mib << 20;
    char err[512];

    /* The monitor: the server's hello and final stats, and one more tcp
     * subscription that keeps every snapshot's tick time. */
    nvc_options no;
    nvc_options_default(&no);
    no.command_url = o.command_url;
    no.request_timeout_ms = (int)o.timeout_ms;
    nvc_client* monitor = NULL;
    nv_error e;
    proto_hello_reply hello;
    if (nvc_connect(&monitor, &no, &e) || nvc_hello(monitor, "naval-load", &hello, &e)) {
        fprintf(stderr, "naval-load: cannot reach the server's commands: %s\n", e.message);
        nvc_close(monitor);
        return 3;
    }
    if (o.boats > hello.max_vessels_per_client && o.players)
        fprintf(stderr, "naval-load: warning: %llu boats per player, the server allows %u per client: the rest are refused\n",
                (unsigned long long)o.boats, hello.max_vessels_per_client);
    if (o.view_radius > 0.0 && o.boats > PROTO_VIEW_MAX_OWN)
        fprintf(stderr, "naval-load: warning: a view follows at most %d own boats; the rest are not named to it\n",
                PROTO_VIEW_MAX_OWN);
    sub_stream *watch = NULL, *truth_sub = NULL;
    truth* tr = NULL;
    if (o.view_radius > 0.0 && load_open_truth(&o, hello.tick_hz, max_bytes, &tr, &watch, &truth_sub)) {
        sub_free(watch);
        sub_free(truth_sub);
        truth_free(tr);
        nvc_close(monitor);
        return 3;
    }
    if (!watch && sub_open(&watch, o.snapshot_url, o.compact, 1, max_bytes, err, sizeof err)) {
        fprintf(stderr, "naval-load: snapshots: %s\n", err);
        sub_free(truth_sub);
        truth_free(tr);
        nvc_close(monitor);
        return 3;
    }

    int rc = 0;
    /* Ramp mode adds o.players players a step: room for every step's. */
    uint64_t cap_players = o.ramp ? o.players * o.ramp_max_steps : o.players;
    uint64_t np = 0; /* players started */
    player** players = calloc(cap_players ? cap_players : 1, sizeof *players);
    sub_stream** tcp = calloc(o.spectators ? o.spectators : 1, sizeof *tcp);
    sub_stream** ws = calloc(o.ws_spectators ? o.ws_spectators : 1, sizeof *ws);
    load_progress pg = {.watch = watch};
    char ramp_json[16384];
    ramp_json[0] = '\0';
    if (!players || !tcp || !ws) {
        fprintf(stderr, "naval-load: out of memory\n");
        rc = 3;
        goto done;
    }
    /* Starts players up to `upto`; the number of boats they failed to spawn (-1: a player failed to start). */
    uint64_t unspawned = 0;
#define LOAD_START_PLAYERS(upto)                                                                                     \
    do {                                                                                                             \
        unspawned = 0;                                                                                               \
        uint64_t target = (upto);                                                                                    \
        double started_at = load_now(), said_at = started_at;                                                        \
        for (; np < target && !load_interrupted; np++) {                                                             \
            player_config pc = {                                                                                     \
                .command_url = o.command_url, .snapshot_url = o.snapshot_url, .compact = o.compact,                  \
                .max_snapshot_bytes = max_bytes, .type_name = o.type_name, .boats = (uint32_t)o.boats,               \
                .input_hz = o.input_hz, .centre_x = o.centre_x, .centre_z = o.centre_z, .spread = o.spread,          \
                .seed = o.seed * 1000003u + np, .request_timeout_ms = (int)o.timeout_ms,                             \
                .view_url = o.view_radius > 0.0 ? o.view_url : NULL, .view_radius = (float)o.view_radius,            \
                .budget_kbps = (uint32_t)o.budget_kbps, .truth = tr, .tick_hz = hello.tick_hz,                       \
            };                                                                                                       \
            if (player_start(&players[np], &pc, err, sizeof err)) {                                                  \
                fprintf(stderr, "naval-load: player %llu: %s\n", (unsigned long long)np, err);                      \
                rc = 3;                                                                                              \
                goto done;                                                                                           \
            }                                                                                                        \
            player_totals t;                                                                                         \
            player_totals_get(players[np], &t);                                                                      \
            if (t.spawned < o.boats) {                                                                               \
                unspawned += o.boats - t.spawned;                                                                    \
                fprintf(stderr, "naval-load: player %llu spawned %u of %llu boats of type '%s': %s\n",             \
                        (unsigned long long)np, t.spawned, (unsigned long long)o.boats, o.type_name, t.last_error);  \
            }                                                                                                        \
            if (load_now() - said_at >= 1.0) {                                                                       \
                said_at = load_now();                                                                                \
                fprintf(stderr, "naval-load: starting players: %llu of %llu (%.0f s)\n",                            \
                        (unsigned long long)np + 1, (unsigned long long)target, said_at - started_at);               \
            }                                                                                                        \
        }                                                                                                            \
    } while (0)
    LOAD_START_PLAYERS(o.players);
    for (uint64_t i = 0; i < o.spectators && !load_interrupted; i++)
        if (sub_open(&tcp[i], o.snapshot_url, o.compact, 0, max_bytes, err, sizeof err)) {
            fprintf(stderr, "naval-load: tcp spectator %llu: %s\n", (unsigned long long)i, err);
            rc = 3;
            goto done;
        }
    for (uint64_t i = 0; i < o.ws_spectators && !load_interrupted; i++)
        if (sub_open(&ws[i], o.ws_url, o.compact, 0, max_bytes, err, sizeof err)) {
            fprintf(stderr, "naval-load: ws spectator %llu: %s\n", (unsigned long long)i, err);
            rc = 3;
            goto done;
        }

    /* Ramp: measure a step, add o.players players, until a budget breaks. */
    uint64_t held_players = 0, held_boats = 0;
    double step_seconds = o.ramp_step_s;
    uint32_t held_vessels = 0;
    int ramp_broke = 0;
    scrape_sample last_from, last_to; /* the last ramp step's passes */
    memset(&last_from, 0, sizeof last_from);
    memset(&last_to, 0, sizeof last_to);
    char ramp_limit[512] = "";
    size_t rj = 0;
    if (o.ramp) rj += (size_t)snprintf(ramp_json + rj, sizeof ramp_json - rj, "{\"steps\": [");
    for (uint64_t step = 0;; step++) {
        char what[64];
        snprintf(what, sizeof what, o.ramp ? "ramp step %llu, warm-up" : "warm-up", (unsigned long long)step + 1);
        load_wait(&pg, what, o.warmup);
        for (uint64_t i = 0; i < np; i++) player_measure(players[i]);
        if (!o.ramp) break;
        /* Every stream counts this step alone: the report after the ramp is
         * its last step's, figures over that step's own window. */
        scrape_sample passes_from, passes_to;
        scrape_metrics(o.metrics_url, (int)o.timeout_ms, &passes_from);
        sub_reset(watch);
        for (uint64_t i = 0; i < o.spectators; i++) sub_reset(tcp[i]);
        for (uint64_t i = 0; i < o.ws_spectators; i++) sub_reset(ws[i]);
        double step_t0 = load_now();
        snprintf(what, sizeof what, "ramp step %llu (%llu players)", (unsigned long long)step + 1,
                 (unsigned long long)np);
        load_wait(&pg, what, o.ramp_step_s);
        step_seconds = load_now() - step_t0;
        double tcp_rate, tcp_kib, ws_rate, ws_kib;
        load_spectator_rates(tcp, o.spectators, step_seconds, &tcp_rate, &tcp_kib);
        load_spectator_rates(ws, o.ws_spectators, step_seconds, &ws_rate, &ws_kib);
        report_server w;
        memset(&w, 0, sizeof w);
        load_server_window(watch, &w);
        double p99 = sub_tick_ms_now(watch, 99);
        scrape_metrics(o.metrics_url, (int)o.timeout_ms, &passes_to);
        uint64_t boats = 0;
        for (uint64_t i = 0; i < np; i++) {
            player_totals t;
            player_totals_get(players[i], &t);
            boats += t.spawned;
        }
        char tick[32];
        if (!w.window_ticks) snprintf(ramp_limit, sizeof ramp_limit, "no ticks seen in %.1f s", o.ramp_step_s);
        else if (unspawned)
            snprintf(ramp_limit, sizeof ramp_limit, "spawns refused: %llu of the step's %llu boats",
                     (unsigned long long)unspawned, (unsigned long long)(o.players * o.boats));
        else if (o.limits.max_overrun_rate >= 0.0 && w.overrun_rate > o.limits.max_overrun_rate)
            snprintf(ramp_limit, sizeof ramp_limit, "overruns %.2f %% of ticks > %g %% (%llu in %llu ticks)",
                     w.overrun_rate * 100.0, o.limits.max_overrun_rate * 100.0, (unsigned long long)w.overruns,
                     (unsigned long long)w.window_ticks);
        else if (o.limits.max_drop_rate >= 0.0 && w.drop_rate > o.limits.max_drop_rate)
            snprintf(ramp_limit, sizeof ramp_limit, "ticks missed %.2f %% > %g %% (%llu missed)", w.drop_rate * 100.0,
                     o.limits.max_drop_rate * 100.0, (unsigned long long)w.ticks_missed);
        else if (o.limits.max_p99_tick_ms > 0.0 && !(p99 <= o.limits.max_p99_tick_ms))
            snprintf(ramp_limit, sizeof ramp_limit, "tick p99 %s > %g ms", report_ms(tick, sizeof tick, p99),
                     o.limits.max_p99_tick_ms);
        int broke = ramp_limit[0] != '\0';
        char spect[160] = "";
        if (o.spectators || o.ws_spectators)
            snprintf(spect, sizeof spect, ", each spectator %.1f snapshots/s %.1f KiB/s (tcp) %.1f %.1f (ws)",
                     tcp_rate, tcp_kib, ws_rate, ws_kib);
        fprintf(stderr, "naval-load: ramp step %llu: %llu players, %llu boats spawned, %u vessels: tick p99 %s, "
                        "overruns %.2f %%, ticks missed %.2f %%%s: %s%s\n",
                (unsigned long long)step + 1, (unsigned long long)np, (unsigned long long)boats, w.vessels,
                report_ms(tick, sizeof tick, p99), isfinite(w.overrun_rate) ? w.overrun_rate * 100.0 : 0.0,
                w.drop_rate * 100.0, spect, broke ? "broke: " : "held", ramp_limit);
        if (rj < sizeof ramp_json)
            rj += (size_t)snprintf(ramp_json + rj, sizeof ramp_json - rj,
                                   "%s{\"players\": %llu, \"boats\": %llu, \"vessels\": %u, \"tick_p99_ms\": %.3f, "
                                   "\"overrun_rate\": %.6f, \"drop_rate\": %.6f, \"seconds\": %.3f, "
                                   "\"tcp_spectator_snapshots_per_s\": %.3f, \"tcp_spectator_kib_per_s\": %.3f, "
                                   "\"ws_spectator_snapshots_per_s\": %.3f, \"ws_spectator_kib_per_s\": %.3f, "
                                   "\"held\": %s, \"passes_ms_per_tick\": ",
                                   step ? ", " : "", (unsigned long long)np, (unsigned long long)boats, w.vessels,
                                   isfinite(p99) ? p99 : -1.0, isfinite(w.overrun_rate) ? w.overrun_rate : -1.0,
                                   w.drop_rate, step_seconds, tcp_rate, tcp_kib, ws_rate, ws_kib,
                                   broke ? "false" : "true");
        if (rj < sizeof ramp_json) rj += load_passes_json(ramp_json + rj, sizeof ramp_json - rj, &passes_from, &passes_to);
        if (rj < sizeof ramp_json) rj += (size_t)snprintf(ramp_json + rj, sizeof ramp_json - rj, "}");
        last_from = passes_from;
        last_to = passes_to;
        if (broke) {
            ramp_broke = 1;
            load_freeze_spectators(tcp, o.spectators, ws, o.ws_spectators);
            break;
        }
        held_players = np;
        held_boats = boats;
        held_vessels = w.vessels;
        if (step + 1 >= o.ramp_max_steps || load_interrupted) {
            load_freeze_spectators(tcp, o.spectators, ws, o.ws_spectators);
            break;
        }
        LOAD_START_PLAYERS(np + o.players);
    }
#undef LOAD_START_PLAYERS
    if (o.ramp) {
        if (!ramp_limit[0])
            snprintf(ramp_limit, sizeof ramp_limit, "none: no budget broke in %llu steps%s",
                     (unsigned long long)o.ramp_max_steps, load_interrupted ? " (interrupted)" : "");
        fprintf(stderr, "naval-load: ramp done; the report below is the last step's\n");
        if (rj < sizeof ramp_json) {
            snprintf(ramp_json + rj, sizeof ramp_json - rj,
                     "],\n    \"holds_boats\": %llu, \"holds_players\": %llu, \"holds_vessels\": %u, \"tick_hz\": %g, "
                     "\"broke\": %s, \"limit\": \"%s\"}",
                     (unsigned long long)held_boats, (unsigned long long)held_players, held_vessels, hello.tick_hz,
                     ramp_broke ? "true" : "false", ramp_limit);
        } else {
            snprintf(ramp_json, sizeof ramp_json, "null");
        }
    }

    uint64_t first_tick = tr ? load_tick_now(tr) : 0;
    for (uint64_t i = 0; i < np && !o.ramp; i++)
        if (player_view(players[i])) pview_measure(player_view(players[i]), first_tick);
    double cpu0 = load_cpu_seconds(), t0 = load_now(), seconds;
    if (o.ramp) {
        seconds = step_seconds; /* the last step's window, already measured */
    } else {
        for (uint64_t i = 0; i < o.spectators; i++) sub_reset(tcp[i]);
        for (uint64_t i = 0; i < o.ws_spectators; i++) sub_reset(ws[i]);
        sub_reset(watch);
        scrape_metrics(o.metrics_url, (int)o.timeout_ms, &last_from);
        if (!o.json)
            fprintf(stderr, "naval-load: %llu players x %llu boats%s, %llu tcp + %llu ws spectators, %s snapshots; measuring %.1f s\n",
                    (unsigned long long)o.players, (unsigned long long)o.boats, tr ? " with views" : "",
                    (unsigned long long)o.spectators, (unsigned long long)o.ws_spectators, o.compact ? "compact" : "full",
                    o.duration);
        load_wait(&pg, "measuring", o.duration);
        seconds = load_now() - t0;
    }

    /* The views' window ends at the truth's newest tick, which then stays in its ring. */
    uint64_t end_tick = tr ? load_tick_now(tr) : 0;
    if (!o.ramp) scrape_metrics(o.metrics_url, (int)o.timeout_ms, &last_to);
    sub_freeze(watch);
    sub_freeze(truth_sub);
    for (uint64_t i = 0; i < np; i++)
        if (player_view(players[i])) pview_end(player_view(players[i]), end_tick);
    for (uint64_t i = 0; i < o.spectators; i++) sub_freeze(tcp[i]);
    for (uint64_t i = 0; i < o.ws_spectators; i++) sub_freeze(ws[i]);
    /* Every stream ends now, before the first player's despawns change the world. */
    for (uint64_t i = 0; i < np; i++) sub_freeze(player_sub(players[i]));
    double tick_p50 = samples_percentile(sub_tick_ms(watch), 50), tick_p99 = samples_percentile(sub_tick_ms(watch), 99),
           tick_max = samples_max(sub_tick_ms(watch));
    report_server srv;
    memset(&srv, 0, sizeof srv);
    load_server_window(watch, &srv);
    srv.passes_from = last_from;
    srv.passes_to = last_to;
    if (np) fprintf(stderr, "naval-load: despawning the boats of %llu players\n", (unsigned long long)np);
    for (uint64_t i = 0; i < np; i++) player_stop(players[i]);
    double cpu = load_cpu_seconds() - cpu0;

    report_role roles[3];
    memset(roles, 0, sizeof roles);
    roles[0].name = "players";
    roles[1].name = "tcp_spectators";
    roles[2].name = "ws_spectators";
    report_add_players(&roles[0], players, (uint32_t)np, seconds);
    roles[0].boats_wanted = (uint32_t)(np * o.boats);
    roles[0].type_name = o.type_name;
    report_add_streams(&roles[1], tcp, (uint32_t)o.spectators, seconds);
    report_add_streams(&roles[2], ws, (uint32_t)o.ws_spectators, seconds);
    srv.tick_p50 = tick_p50;
    srv.tick_p99 = tick_p99;
    srv.tick_max = tick_max;
    srv.tick_hz = hello.tick_hz;
    srv.have_stats = nvc_get_stats(monitor, &srv.stats, &e) == 0;
    report_views views;
    if (tr) report_add_views(&views, players, (uint32_t)np, seconds, hello.tick_hz);

    char why[4096];
    int missed = report_check(roles, 3, &srv, tr ? &views : NULL, &o.limits, why, sizeof why);
    if (o.json) {
        char cfg[4096];
        snprintf(cfg, sizeof cfg,
                 "{\"snapshot_url\": \"%s\", \"command_url\": \"%s\", \"ws_url\": \"%s\", \"stream\": \"%s\", "
                 "\"players\": %llu, \"boats_per_player\": %llu, \"type\": \"%s\", \"spectators\": %llu, "
                 "\"ws_spectators\": %llu, \"duration_s\": %g, \"warmup_s\": %g, \"input_hz\": %g, "
                 "\"tick_hz\": %g, \"max_p99_tick_ms\": %g, \"max_drop_rate\": %g, \"max_overrun_rate\": %g, "
                 "\"ramp\": %s, \"ramp_step_s\": %g, \"interrupted\": %s, "
                 "\"view_url\": %s%s%s, \"view_radius\": %g, \"budget_kbps\": %llu}",
                 o.snapshot_url, o.command_url, o.ws_url, o.compact ? "compact" : "full",
                 (unsigned long long)o.players, (unsigned long long)o.boats, o.type_name,
                 (unsigned long long)o.spectators, (unsigned long long)o.ws_spectators, o.duration, o.warmup,
                 o.input_hz, hello.tick_hz, o.limits.max_p99_tick_ms, o.limits.max_drop_rate,
                 o.limits.max_overrun_rate, o.ramp ? "true" : "false", o.ramp_step_s,
                 load_interrupted ? "true" : "false", tr ? "\"" : "", tr ? o.view_url : "null", tr ? "\"" : "",
                 o.view_radius, (unsigned long long)o.budget_kbps);
        report_print_json(stdout, cfg, roles, 3, &srv, tr ? &views : NULL, seconds, cpu, why,
                          o.ramp ? ramp_json : NULL);
    } else {
        report_print_text(stdout, roles, 3, &srv, tr ? &views : NULL, seconds, why);
    }
    if (o.ramp) {
        /* The answer, last: on stdout with the text report, on stderr with --json. */
        FILE* out = o.json ? stderr : stdout;
        fprintf(out, "this server holds %s%llu boats / %llu players at %g Hz (%u vessels in its world); limit: %s\n",
                ramp_broke ? "" : "at least ", (unsigned long long)held_boats, (unsigned long long)held_players,
                hello.tick_hz, held_vessels, ramp_limit);
        if (ramp_broke && !held_players)
            fprintf(out, "  (the first step, %llu boats / %llu players, already broke the budget)\n",
                    (unsigned long long)(o.players * o.boats), (unsigned long long)o.players);
        rc = 0; /* a ramp measures; its answer is the line above, whatever N is */
    } else {
        rc = missed ? 1 : 0;
    }

done:;
    load_teardown t = {&o, np, players, tcp, ws, watch, truth_sub, tr, monitor};
    fflush(stdout);
    if (closer_run(load_free_all, &t, 5.0)) {
        fprintf(stderr, "naval-load: closing the sockets hangs (nng 1.5.2, nanomsg/nng#1543); leaving without closing them\n");
        _exit(rc);
    }
    return rc;
}
