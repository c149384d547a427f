// SPDX-License-Identifier: MIT
/* naval-watch: a terminal spectator of naval-server. A live top-down map
 * of the boats around a point or a followed boat, and a status line (tick,
 * boats, server tick time, snapshots/s, bytes/s, latency). --once --json
 * prints one snapshot's summary for scripts. --view follows a player view
 * (what a game client receives around a point) instead of the stream.
 * Uses the client library (clients/naval_client.h); see --help and
 * docs/clients.md. */
#include <math.h>
#include <nng/nng.h>
#include <nng/supplemental/util/platform.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "closer.h"
#include "clock.h"
#include "naval_client.h"
#include "nstat.h"
#include "wline.h"
#include "wmap.h"
#include "wview.h"

#define WATCH_PI 3.14159265358979323846
#define WATCH_URL_MAX 256

typedef struct watch_options {
    const char* url;           /* the stream's, or the view's with --view */
    int view;                  /* url is a view's */
    uint64_t budget_kbps;      /* the view's; 0: the server's default */
    char commands[WATCH_URL_MAX];
    int commands_given;        /* --commands: never replaced by the announced port */
    int64_t follow;
    int has_centre;
    double cx, cz, radius;
    int once, json, ascii;
    int cols, rows;            /* 0: the terminal's */
    double interval, timeout;  /* s */
    int interval_given;        /* --interval given */
    const char* stream_url;    /* the URL argument, NULL when none */
} watch_options;

/* Figures over the current reporting interval. */
typedef struct watch_window {
    uint64_t snapshots, received0, bytes0, gaps;
    uint64_t sized;            /* bytes of the snapshots decoded, re-encoded (see watch_size) */
    double latency_sum, latency_max, tick_sum, tick_max;
    double start;
} watch_window;

static volatile sig_atomic_t watch_stop;

/* Contacts the snapshots reported since start: between vessels, with the
 * ground (full snapshots carry them; compact ones do not). */
static uint64_t watch_contacts_vessels, watch_contacts_ground;

static void watch_count_contacts(const proto_snapshot* s) {
    for (uint32_t i = 0; i < s->contact_count; i++) {
        if (s->contacts[i].b == PROTO_CONTACT_GROUND)
            watch_contacts_ground++;
        else
            watch_contacts_vessels++;
    }
}

static uint32_t watch_grounded(const proto_snapshot* s) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->vessel_count; i++) n += (s->vessels[i].flags & PROTO_VESSEL_GROUNDED) != 0;
    return n;
}

static void watch_on_signal(int sig) {
    (void)sig;
    watch_stop = 1;
}

/* tcp://HOST:PORT with the stream URL's host and the port a snapshot
 * announced (TickStats.command_port): the request socket on any layout. */
static void watch_commands_at(const char* url, unsigned port, char* out, size_t n) {
    out[0] = '\0';
    const char* colon = strrchr(url, ':');
    if (strncmp(url, "tcp://", 6) || !colon || colon < url + 6 || !port) return;
    snprintf(out, n, "%.*s:%u", (int)(colon - url), url, port);
}

/* The command URL beside a snapshot URL, by the server's default layout
 * (a stream's snapshots then announce the real port: watch_commands_at). */
static void watch_guess_commands(const char* url, char* out, size_t n) {
    out[0] = '\0';
    const char* paths[] = {"/ws/snapshots", "/ws/view"};
    for (int i = 0; i < 2; i++) {
        const char* ws = strstr(url, paths[i]);
        if (!strncmp(url, "ws", 2) && ws && !ws[strlen(paths[i])]) {
            snprintf(out, n, "%.*s/ws/commands", (int)(ws - url), url);
            return;
        }
    }
    size_t len = strlen(url);
    if (!strncmp(url, "tcp://", 6) && len > 5 && (!strcmp(url + len - 5, ":7700") || !strcmp(url + len - 5, ":7703")))
        snprintf(out, n, "%.*s:7701", (int)(len - 5), url);
}

static const char watch_about[] =
    "A terminal spectator of naval-server: a live top-down map of the boats with their headings\n"
    "(seen from above: +x right, -z up) and a status line. URL: the snapshot stream,\n"
    "tcp://HOST:7700 (default tcp://127.0.0.1:7700) or ws://HOST:8080/ws/snapshots.\n"
    "Views: a player's view of the sea instead of the whole stream (--view URL); --centre, --radius,\n"
    "--budget-kbps and --follow then steer the view, and --once waits until it has joined (an\n"
    "update brings nothing new), or 1 s.";
static const char watch_epilogue[] =
    "Bad arguments exit 2. When the server goes away the status line says so and naval-watch\n"
    "keeps retrying; Ctrl-C quits.";

/* The snapshot URL (one). */
static int watch_positional(const char* arg, void* args, char* why, size_t n) {
    watch_options* o = args;
    if (o->stream_url) {
        snprintf(why, n, "one URL only (got '%s' and '%s')", o->stream_url, arg);
        return -1;
    }
    if (!strstr(arg, "://") || strlen(arg) >= WATCH_URL_MAX) {
        snprintf(why, n, "URL: expected tcp://HOST:PORT or ws://HOST:PORT/ws/snapshots (got '%s')", arg);
        return -1;
    }
    if (!o->view) o->url = arg;
    o->stream_url = arg;
    return 0;
}

static int watch_parse_view(const cli_opt* opt, const char* v, void* args, char* why, size_t n) {
    watch_options* o = args;
    (void)opt;
    if (!strstr(v, "://") || strlen(v) >= WATCH_URL_MAX) {
        snprintf(why, n, "expected a view URL: tcp://HOST:7703 or ws://HOST:8080/ws/view (got '%s')", v);
        return -1;
    }
    if (o->view) {
        snprintf(why, n, "one view only (got '%s' and '%s')", o->url, v);
        return -1;
    }
    o->url = v;
    o->view = 1;
    return 0;
}

static int watch_parse_centre(const cli_opt* opt, const char* v, void* args, char* why, size_t n) {
    watch_options* o = args;
    (void)opt;
    if (cli_parse_point(v, &o->cx, &o->cz)) {
        snprintf(why, n, "expected X,Z in metres (got '%s')", v);
        return -1;
    }
    o->has_centre = 1;
    return 0;
}

static int watch_parse_commands(const cli_opt* opt, const char* v, void* args, char* why, size_t n) {
    watch_options* o = args;
    (void)opt;
    if (v[0] && (!strstr(v, "://") || strlen(v) >= WATCH_URL_MAX)) {
        snprintf(why, n, "expected a URL such as tcp://HOST:7701, or \"\" (got '%s')", v);
        return -1;
    }
    snprintf(o->commands, sizeof o->commands, "%s", v);
    o->commands_given = 1;
    return 0;
}

static int watch_parse_size(const cli_opt* opt, const char* v, void* args, char* why, size_t n) {
    watch_options* o = args;
    int c = 0, r = 0;
    char extra;
    (void)opt;
    if (sscanf(v, "%dx%d%c", &c, &r, &extra) != 2 || c < 10 || c > 1000 || r < 4 || r > 1000) {
        snprintf(why, n, "expected COLSxROWS, 10..1000 x 4..1000 (got '%s')", v);
        return -1;
    }
    o->cols = c;
    o->rows = r;
    return 0;
}

static const cli_opt watch_opts[] = {
    {"--follow", .type = CLI_UINT, CLI_FIELD(watch_options, follow), .min = 0, .max = UINT32_MAX, .value_name = "ID",
     .bad = "--follow: expected a boat id (a whole number)",
     .help = "centre on boat ID and keep it there (marked); a view moves with it once it holds it"},
    {"--center", .alias = "--centre", .type = CLI_CUSTOM, .parse = watch_parse_centre, .value_name = "X,Z",
     .help = "centre of the map in m (default: the fleet's centre); a view's centre (0,0)"},
    {"--radius", .type = CLI_DOUBLE, CLI_FIELD(watch_options, radius), .min = 1, .max = 1e7, .value_name = "M",
     .bad = "--radius: expected metres in [1, 1e7]",
     .help = "half the map's width in m (default: 200 following, else the fleet);\n"
             "a view's radius (1000; the server caps it)"},
    {"--commands", .type = CLI_CUSTOM, .parse = watch_parse_commands, .value_name = "URL",
     .help = "request URL for the vessel types' names (default: the port the\n"
             "server's snapshots or view updates announce, on URL's host;\n"
             "/ws/snapshots or /ws/view -> /ws/commands; \"\" for none)"},
    {"--once", .type = CLI_SWITCH, CLI_FIELD(watch_options, once),
     .help = "one snapshot, then exit (1 when none comes within --timeout)"},
    {"--json", .type = CLI_SWITCH, CLI_FIELD(watch_options, json),
     .help = "a JSON summary instead of the map (with --once: one; else one a second)"},
    {"--ascii", .type = CLI_SWITCH, CLI_FIELD(watch_options, ascii), .help = "ASCII arrows and frame"},
    {"--size", .type = CLI_CUSTOM, .parse = watch_parse_size, .value_name = "COLSxROWS",
     .help = "map size in cells (default: the terminal's)"},
    {"--interval", .type = CLI_DOUBLE, CLI_FIELD(watch_options, interval), CLI_SEEN(watch_options, interval_given),
     .min = 0.02, .max = 3600, .value_name = "S", .bad = "--interval: expected seconds in [0.02, 3600]",
     .help = "redraw period (0.25; 1 with --json)"},
    {"--timeout", .type = CLI_DOUBLE, CLI_FIELD(watch_options, timeout), .min = 0.1, .max = 3600, .value_name = "S",
     .bad = "--timeout: expected seconds in [0.1, 3600]", .help = "--once: how long to wait for a snapshot (10)"},
    {"--view", .type = CLI_CUSTOM, .parse = watch_parse_view, .value_name = "URL",
     .help = "the view URL: tcp://HOST:7703 or ws://HOST:8080/ws/view; the map shows\n"
             "the view's vessels, the status its updates/s, kbit/s received, vessels\n"
             "that entered and left; --json adds \"view\": {...}"},
    {"--budget-kbps", .type = CLI_UINT, CLI_FIELD(watch_options, budget_kbps), .min = 1, .max = 1000000,
     .value_name = "K", .bad = "--budget-kbps: expected kbit/s, a whole number in [1, 1000000]",
     .help = "the view's bandwidth (default: the server's)"},
    {0}};

static const cli_spec watch_spec = {
    .prog = "naval-watch",
    .synopsis = "naval-watch [URL] [--follow ID] [--once] [--json] [options]\n"
                "       naval-watch --view URL [--centre X,Z] [--radius M] [--budget-kbps K] [options]",
    .about = watch_about,
    .opts = watch_opts,
    .positional = watch_positional,
    .epilogue = watch_epilogue};

/* 0, or the exit status (0 after --help, 2 after a usage error, said). */
static int watch_parse(int argc, char** argv, watch_options* o) {
    memset(o, 0, sizeof *o);
    o->url = "tcp://127.0.0.1:7700";
    o->follow = -1;
    o->timeout = 10.0;
    int rc = cli_parse(&watch_spec, argc, argv, o);
    if (rc != CLI_RUN) exit(rc);
    if (!o->interval_given) o->interval = o->json ? 1.0 : 0.25;
    if (o->view && o->stream_url)
        return cli_usage_error("naval-watch", "--view: a view replaces the snapshot URL (got '%s' too)", o->stream_url);
    if (o->budget_kbps && !o->view)
        return cli_usage_error("naval-watch", "--budget-kbps: needs --view (the stream has no budget)");
    if (!o->commands_given) watch_guess_commands(o->url, o->commands, sizeof o->commands);
    return 0;
}

/* Heading of a body's +x (bow) in the world, radians about +y from +x
 * toward -z; heel and trim would need more than the map shows. */
static double watch_heading(const float q[4]) {
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double fx = 1.0 - 2.0 * (y * y + z * z), fz = 2.0 * (x * z - w * y);
    return atan2(-fz, fx);
}

static const char* watch_type_name(const proto_world_info* wi, uint16_t type, char* buf, size_t n) {
    for (uint32_t i = 0; wi && i < wi->type_count; i++)
        if (wi->types[i].type == type) return wi->types[i].name;
    snprintf(buf, n, "type %u", type);
    return buf;
}

/* The size of a full snapshot on the wire: encoding the decoded snapshot
 * again gives the very bytes the server sent (same codec, same values,
 * FlatBuffers is deterministic). Needed because nng 1.5.2 counts no bytes
 * on WebSocket pipes (nstat.h) and the client library reports no sizes.
 * Not for compact streams: 0. */
static uint64_t watch_size(proto_buf* buf, const proto_snapshot* s, int compact) {
    proto_error pe;
    if (compact || proto_encode_snapshot(buf, s, &pe)) return 0;
    return buf->size;
}

static int watch_find(const proto_snapshot* s, int64_t id) {
    if (id < 0) return -1;
    for (uint32_t i = 0; i < s->vessel_count; i++)
        if (s->vessels[i].id == (uint32_t)id) return (int)i;
    return -1;
}

static void watch_json_string(FILE* f, const char* s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

/* The fleet's extent, centre, speeds, and counts per type name. */
static void watch_json_fleet(FILE* f, const proto_snapshot* s, const proto_world_info* wi) {
    double minx = INFINITY, maxx = -INFINITY, minz = INFINITY, maxz = -INFINITY, sx = 0, sz = 0, vsum = 0, vmax = 0;
    for (uint32_t i = 0; i < s->vessel_count; i++) {
        const proto_vessel* v = &s->vessels[i];
        minx = fmin(minx, v->position[0]);
        maxx = fmax(maxx, v->position[0]);
        minz = fmin(minz, v->position[2]);
        maxz = fmax(maxz, v->position[2]);
        sx += v->position[0];
        sz += v->position[2];
        double sp = hypot(v->velocity[0], v->velocity[2]);
        vsum += sp;
        vmax = fmax(vmax, sp);
    }
    uint32_t n = s->vessel_count;
    if (n)
        fprintf(f, " \"bounds\": {\"min_x\": %.3f, \"max_x\": %.3f, \"min_z\": %.3f, \"max_z\": %.3f}, "
               "\"centre\": [%.3f, %.3f], \"speed_mean\": %.3f, \"speed_max\": %.3f,\n",
               minx, maxx, minz, maxz, sx / n, sz / n, vsum / n, vmax);
    fprintf(f, " \"types\": {");
    /* counts per type, in type order (types are few) */
    int first = 1;
    for (uint32_t t = 0; t <= 0xFFFF && n; t++) {
        uint32_t count = 0, more = 0;
        for (uint32_t i = 0; i < n; i++) {
            count += s->vessels[i].type == t;
            more += s->vessels[i].type > t;
        }
        if (count) {
            char buf[32];
            fprintf(f, "%s", first ? "" : ", ");
            watch_json_string(f, watch_type_name(wi, (uint16_t)t, buf, sizeof buf));
            fprintf(f, ": %u", count);
            first = 0;
        }
        if (!more) break;
    }
    fprintf(f, "}");
}

static void watch_json_followed(FILE* f, const watch_options* o, const proto_snapshot* s, const proto_world_info* wi) {
    int fi = watch_find(s, o->follow);
    if (fi >= 0) {
        const proto_vessel* v = &s->vessels[fi];
        char buf[32];
        fprintf(f, ",\n \"followed\": {\"id\": %u, \"type\": ", v->id);
        watch_json_string(f, watch_type_name(wi, v->type, buf, sizeof buf));
        fprintf(f, ", \"position\": [%.3f, %.3f, %.3f], \"heading_deg\": %.2f, \"speed\": %.3f, "
                   "\"velocity\": [%.3f, %.3f, %.3f]}",
                v->position[0], v->position[1], v->position[2], watch_heading(v->orientation) * 180.0 / WATCH_PI,
                hypot(v->velocity[0], v->velocity[2]), v->velocity[0], v->velocity[1], v->velocity[2]);
    } else if (o->follow >= 0) {
        fprintf(f, ",\n \"followed\": null");
    }
}

/* Ends the object: pretty with --once, one line each in the live stream (JSON Lines). */
static void watch_json_end(const watch_options* o, FILE* f, char** text, const size_t* len, const char* lost) {
    if (lost[0]) {
        fprintf(f, ",\n \"lost\": ");
        watch_json_string(f, lost);
    }
    fprintf(f, "}\n");
    fclose(f); /* sets *text and *len */
    if (!o->once)
        for (size_t i = 0; i + 1 < *len; i++)
            if ((*text)[i] == '\n') (*text)[i] = ' ';
    fputs(*text, stdout);
    fflush(stdout);
    free(*text);
}

static void watch_json_latency(FILE* f, double latency_ms) {
    if (isfinite(latency_ms))
        fprintf(f, "%.3f,\n", latency_ms);
    else
        fprintf(f, "null,\n"); /* nothing came in this interval */
}

/* One snapshot as JSON: header, fleet extent, speeds, per-type counts,
 * the followed boat; and the interval's rates when there was one. */
static void watch_print_json(const watch_options* o, const proto_snapshot* s, const proto_world_info* wi,
                             double latency_ms, const watch_window* win, double rate, double bytes_rate,
                             uint64_t bytes_total, uint64_t snapshot_bytes, const char* bytes_source,
                             const char* lost) {
    char* text = NULL;
    size_t len = 0;
    FILE* f = open_memstream(&text, &len);
    if (!f) return;
    uint32_t frozen = 0;
    for (uint32_t i = 0; i < s->vessel_count; i++) frozen += (s->vessels[i].flags & PROTO_VESSEL_FROZEN) != 0;
    fprintf(f, "{\"url\": ");
    watch_json_string(f, o->url);
    fprintf(f, ", \"tick\": %llu, \"sim_time\": %.6f, \"send_time_ns\": %llu, \"latency_ms\": ",
            (unsigned long long)s->tick, s->sim_time, (unsigned long long)s->send_time_ns);
    watch_json_latency(f, latency_ms);
    fprintf(f,
            " \"vessels\": %u, \"world_vessels\": %u, \"frozen\": %u, \"tick_ms\": %.4f, \"snapshot_ms\": %.4f, "
            "\"overruns\": %llu, \"subscribers\": %u,\n",
            s->vessel_count, s->stats.vessel_count, frozen, s->stats.step_ms, s->stats.snapshot_ms,
            (unsigned long long)s->stats.overruns, s->stats.subscribers);
    fprintf(f, " \"grounded\": %u, \"contacts\": {\"between_vessels\": %llu, \"with_ground\": %llu},\n",
            watch_grounded(s), (unsigned long long)watch_contacts_vessels, (unsigned long long)watch_contacts_ground);
    watch_json_fleet(f, s, wi);
    fprintf(f, ",\n \"snapshot_bytes\": ");
    if (snapshot_bytes) fprintf(f, "%llu", (unsigned long long)snapshot_bytes);
    else fprintf(f, "null");
    if (win) {
        fprintf(f, ", \"snapshots_per_s\": %.2f, \"bytes_per_s\": ", rate);
        if (bytes_source[0]) fprintf(f, "%.0f", bytes_rate);
        else fprintf(f, "null");
        fprintf(f, ", \"bytes_source\": \"%s\", \"ticks_missed\": %llu", bytes_source[0] ? bytes_source : "none",
               (unsigned long long)win->gaps);
    } else {
        fprintf(f, ", \"bytes_received\": %llu", (unsigned long long)bytes_total);
    }
    watch_json_followed(f, o, s, wi);
    watch_json_end(o, f, &text, &len, lost);
}

static void watch_terminal_size(const watch_options* o, int* cols, int* rows) {
    *cols = 80;
    *rows = 24;
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 && ws.ws_row >= 8) {
        *cols = ws.ws_col;
        *rows = ws.ws_row;
    }
    /* the frame takes 2 columns; the frame, the header and two status lines 5 rows */
    *cols = o->cols ? o->cols : *cols - 2;
    *rows = o->rows ? o->rows : *rows - 5;
}

/* What became of vessel i: sunk (its damage says so), capsized and
 * aground (its flags), holed (it has a damage entry), or afloat. */
static wmap_state watch_state(const proto_snapshot* s, uint32_t i) {
    const proto_vessel* p = &s->vessels[i];
    const proto_vessel_damage* d = NULL;
    for (uint32_t k = 0; k < s->damage_count && !d; k++)
        if (s->damage[k].id == p->id) d = &s->damage[k];
    if (d && (d->flags & PROTO_DAMAGE_SUNK_FLAG)) return WMAP_SUNK;
    if (p->flags & PROTO_VESSEL_CAPSIZED) return WMAP_CAPSIZED;
    if (p->flags & PROTO_VESSEL_GROUNDED) return WMAP_AGROUND;
    return d && d->holes ? WMAP_DAMAGED : WMAP_AFLOAT;
}

/* Whether (x, z) lies under a structure: inside the plan of one of its
 * triangles (a closed convex hull's plan is covered by them). */
static int watch_in_structure(const proto_structure_info* st, double x, double z) {
    for (uint32_t t = 0; t < st->triangle_count; t++) {
        const float* p[3];
        for (int k = 0; k < 3; k++) p[k] = &st->vertices[3 * (size_t)st->indices[3 * t + k]];
        double d[3];
        for (int k = 0; k < 3; k++) {
            const float *a = p[k], *b = p[(k + 1) % 3];
            d[k] = ((double)b[0] - a[0]) * (z - a[2]) - ((double)b[2] - a[2]) * (x - a[0]);
        }
        if ((d[0] >= 0 && d[1] >= 0 && d[2] >= 0) || (d[0] <= 0 && d[1] <= 0 && d[2] <= 0)) {
            if (d[0] != 0 || d[1] != 0 || d[2] != 0) return 1; /* not a triangle seen edge-on */
        }
    }
    return 0;
}

/* What the world info puts at (x, z) (wmap_view.is_land): a structure,
 * else the terrain above the still water at the nearest node. */
static int watch_is_land(const void* ctx, double x, double z) {
    const proto_world_info* wi = ctx;
    for (uint32_t k = 0; k < wi->structure_count; k++)
        if (watch_in_structure(&wi->structures[k], x, z)) return WMAP_STRUCTURE;
    const proto_terrain_info* t = &wi->terrain;
    if (!t->present || !t->heights || !(t->cell_size > 0.0)) return WMAP_WATER;
    double fi = (x - t->origin_x) / t->cell_size, fj = (z - t->origin_z) / t->cell_size;
    if (!(fi >= -0.5 && fj >= -0.5 && fi < t->nx - 0.5 && fj < t->nz - 0.5)) return 0;
    uint32_t i = (uint32_t)lround(fi), j = (uint32_t)lround(fj);
    double h = t->min_elevation + (t->max_elevation - t->min_elevation) * t->heights[(size_t)j * t->nx + i] / 65535.0;
    return h > 0.0 ? WMAP_LAND : WMAP_WATER;
}

/* The map and the status lines, drawn over the previous ones on a tty. */
static void watch_draw(const watch_options* o, const proto_snapshot* s, const proto_world_info* wi,
                       const char* status, const char* lost, int tty) {
    wmap_view v = {0};
    watch_terminal_size(o, &v.cols, &v.rows);
    v.ascii = o->ascii;
    v.highlight = tty;
    v.mark = o->follow;
    if (wi && (wi->terrain.present || wi->structure_count)) v.is_land = watch_is_land, v.land_ctx = wi;
    wmap_boat* boats = calloc(s->vessel_count ? s->vessel_count : 1, sizeof *boats);
    char* map = malloc(wmap_capacity(&v));
    if (!boats || !map) {
        free(boats);
        free(map);
        fprintf(stderr, "naval-watch: out of memory\n");
        return;
    }
    double sx = 0, sz = 0, r = 0;
    for (uint32_t i = 0; i < s->vessel_count; i++) {
        const proto_vessel* p = &s->vessels[i];
        boats[i] = (wmap_boat){p->position[0], p->position[2], watch_heading(p->orientation), p->id, p->type,
                               watch_state(s, i)};
        sx += p->position[0];
        sz += p->position[2];
    }
    if (s->vessel_count) {
        sx /= s->vessel_count;
        sz /= s->vessel_count;
    }
    for (uint32_t i = 0; i < s->vessel_count; i++) r = fmax(r, fmax(fabs(boats[i].x - sx), fabs(boats[i].z - sz)));
    int f = watch_find(s, o->follow);
    char where[200] = "";
    if (f >= 0) {
        v.cx = boats[f].x;
        v.cz = boats[f].z;
        v.half_width = o->radius > 0 ? o->radius : 200.0;
        char buf[32];
        const proto_vessel* p = &s->vessels[f];
        snprintf(where, sizeof where, "following boat %u (%s) \u00b7 at (%.1f, %.1f) \u00b7 heading %.0f deg \u00b7 %.1f m/s", p->id,
                 watch_type_name(wi, p->type, buf, sizeof buf), p->position[0], p->position[2],
                 fmod(watch_heading(p->orientation) * 180.0 / WATCH_PI + 360.0, 360.0),
                 hypot(p->velocity[0], p->velocity[2]));
    } else {
        v.cx = o->has_centre ? o->cx : sx;
        v.cz = o->has_centre ? o->cz : sz;
        /* The whole fleet: the map spans 2 half_width across and, rows
         * being twice as tall, 4 half_width rows / cols down. */
        v.half_width = o->radius > 0 ? o->radius : fmax(50.0, 1.05 * r * fmax(1.0, v.cols / (2.0 * v.rows)));
        if (o->follow >= 0) snprintf(where, sizeof where, "boat %lld is not in the snapshot", (long long)o->follow);
    }
    size_t inside = wmap_render(&v, boats, s->vessel_count, map, wmap_capacity(&v));
    /* Every line fits the frame's width: one that wraps pushes the map's
     * top border off the redrawn screen. */
    int width = v.cols + 2;
    char header[1024], scale[256], line[1024];
    wline_scale_bar(2.0 * v.half_width / v.cols, v.cols / 4 > 3 ? v.cols / 4 : 3, v.ascii, scale, sizeof scale);
    /* The parts that matter most first: wline_fit drops from the end. */
    int n = snprintf(header, sizeof header, "%s", scale[0] ? scale : "-");
    for (uint32_t i = 0; wi && !v.ascii && i < wi->type_count && n > 0 && (size_t)n < sizeof header; i++)
        n += snprintf(header + n, sizeof header - (size_t)n, " \u00b7 %s %s",
                      wmap_glyph_family(0.0, wi->types[i].type, 0), wi->types[i].name);
    if (!wi && n > 0 && (size_t)n < sizeof header)
        n += snprintf(header + n, sizeof header - (size_t)n, " \u00b7 type names unknown (--commands URL)");
    if (n > 0 && (size_t)n < sizeof header)
        snprintf(header + n, sizeof header - (size_t)n, " \u00b7 up is -z \u00b7 %zu of %u boats \u00b7 centre (%.0f, %.0f) m",
                 inside, s->vessel_count, v.cx, v.cz);
    wline_fit(header, width, v.ascii);
    if (tty) fputs("\x1b[H", stdout);
    printf("%s%s\n", header, tty ? "\x1b[K" : "");
    fputs(map, stdout);
    snprintf(line, sizeof line, "%s", wmap_legend(v.ascii));
    wline_fit(line, width, v.ascii);
    printf("%s%s\n", line, tty ? "\x1b[K" : "");
    snprintf(line, sizeof line, "%s", status);
    wline_fit(line, width, v.ascii);
    printf("%s%s\n", line, tty ? "\x1b[K" : "");
    snprintf(line, sizeof line, "%s", lost[0] ? lost : where);
    wline_fit(line, width, v.ascii);
    printf("%s%s%s\n", line, tty ? "\x1b[K" : "", tty ? "\x1b[J" : "");
    if (!tty) putchar('\n');
    fflush(stdout);
    free(boats);
    free(map);
}

static void watch_close(void* c) { nvc_close(c); }

static void watch_load_types(const char* url, proto_world_info* wi, int* have) {
    if (!url[0]) return;
    nvc_options o;
    nvc_options_default(&o);
    o.command_url = url;
    o.request_timeout_ms = 1000;
    nvc_client* c;
    nv_error e;
    if (nvc_connect(&c, &o, &e) == 0) {
        *have = nvc_get_world_info(c, wi, &e) == 0;
        nvc_close(c);
    }
}

/* ---- --view: a player view instead of the stream -------------------------------- */

#define WATCH_VIEW_RADIUS 1000.0

static void watch_close_view(void* w) { wview_close(w); }

/* The view as JSON: the held vessels like a snapshot's, and "view": its
 * settings, what it received since it opened and the rates over dt. */
static void watch_print_view_json(const watch_options* o, const wview* w, const proto_world_info* wi,
                                  const wview_counts* then, double dt, const char* lost) {
    char* text = NULL;
    size_t len = 0;
    FILE* f = open_memstream(&text, &len);
    if (!f) return;
    const proto_snapshot* s = wview_snapshot(w);
    wview_counts c;
    wview_counts_get(w, &c);
    uint64_t updates = c.updates - then->updates;
    fprintf(f, "{\"url\": ");
    watch_json_string(f, o->url);
    fprintf(f, ", \"tick\": %llu, \"sim_time\": %.6f, \"send_time_ns\": %llu, \"latency_ms\": ",
            (unsigned long long)s->tick, s->sim_time, (unsigned long long)s->send_time_ns);
    watch_json_latency(f, updates ? (c.latency_sum - then->latency_sum) / (double)updates : NAN);
    fprintf(f, " \"vessels\": %u,\n", s->vessel_count);
    watch_json_fleet(f, s, wi);
    double centre[2];
    float radius;
    uint32_t budget;
    wview_settings(w, centre, &radius, &budget);
    fprintf(f, ",\n \"view\": {\"centre\": [%.3f, %.3f], \"radius\": %.1f, \"budget_kbps\": %u, \"updates\": %llu, "
               "\"keyframes\": %llu, \"entered\": %llu, \"spawned\": %llu, \"left\": %llu, \"gone\": %llu,\n"
               "  \"ticks_missed\": %llu, \"refusals\": %llu, \"bytes_received\": %llu, \"updates_per_s\": %.2f, "
               "\"kbps\": %.2f}",
            centre[0], centre[1], radius, budget, (unsigned long long)c.updates, (unsigned long long)c.keyframes,
            (unsigned long long)c.entered, (unsigned long long)c.spawned, (unsigned long long)c.left,
            (unsigned long long)c.gone, (unsigned long long)c.ticks_missed, (unsigned long long)c.refusals,
            (unsigned long long)c.bytes, dt > 0.0 ? (double)updates / dt : 0.0,
            dt > 0.0 ? (double)(c.bytes - then->bytes) * 8.0 / 1000.0 / dt : 0.0);
    watch_json_followed(f, o, s, wi);
    watch_json_end(o, f, &text, &len, lost);
}

static void watch_view_status(const wview* w, const wview_counts* then, double dt, char* out, size_t n) {
    const proto_snapshot* s = wview_snapshot(w);
    wview_counts c;
    wview_counts_get(w, &c);
    double centre[2];
    float radius;
    uint32_t budget;
    wview_settings(w, centre, &radius, &budget);
    uint64_t updates = c.updates - then->updates;
    snprintf(out, n,
             "tick %llu · %u in view (%.0f m around %.0f, %.0f) · %.1f updates/s · %.1f kbit/s of %u · "
             "+%llu entered -%llu left · latency %.1f ms (max %.1f) · %llu missed",
             (unsigned long long)s->tick, s->vessel_count, radius, centre[0], centre[1],
             dt > 0.0 ? (double)updates / dt : 0.0, dt > 0.0 ? (double)(c.bytes - then->bytes) * 8e-3 / dt : 0.0,
             budget, (unsigned long long)(c.entered + c.spawned - then->entered - then->spawned),
             (unsigned long long)(c.left + c.gone - then->left - then->gone),
             updates ? (c.latency_sum - then->latency_sum) / (double)updates : 0.0, c.latency_max,
             (unsigned long long)(c.ticks_missed - then->ticks_missed));
}

/* --follow: the view moves with the boat, at most twice a second (the
 * server allows a few settings changes a second). */
static void watch_view_follow(const watch_options* o, wview* w, double* last_move) {
    const proto_snapshot* s = wview_snapshot(w);
    int i = watch_find(s, o->follow);
    double now = clock_mono_s(), centre[2];
    float radius;
    uint32_t budget;
    if (i < 0 || now - *last_move < 0.5) return;
    wview_settings(w, centre, &radius, &budget);
    const proto_vessel* v = &s->vessels[i];
    if (hypot(v->position[0] - centre[0], v->position[2] - centre[1]) < 0.1 * radius) return;
    nv_error e;
    if (wview_move(w, v->position[0], v->position[2], &e) == 0) *last_move = now;
}

/* Opens the view, retrying while nothing listens; 0, 1 (gave up) or 2. */
static int watch_open_view(const watch_options* o, wview** w, double started) {
    wview_options vo = {o->url, {o->has_centre ? o->cx : 0.0, o->has_centre ? o->cz : 0.0},
                        (float)(o->radius > 0.0 ? o->radius : WATCH_VIEW_RADIUS), (uint32_t)o->budget_kbps};
    nv_error e;
    while (wview_open(w, &vo, &e)) {
        if (e.code == NV_EINVAL) {
            fprintf(stderr, "naval-watch: %s\n", e.message);
            return 2;
        }
        if (o->once && clock_mono_s() - started > o->timeout) {
            fprintf(stderr, "naval-watch: %s (gave up after %.0f s)\n", e.message, o->timeout);
            return 1;
        }
        fprintf(stderr, "naval-watch: %s; retrying every second\n", e.message);
        for (int i = 0; i < 10 && !watch_stop; i++) nng_msleep(100);
        if (watch_stop) return 1;
    }
    return 0;
}

/* --once: the view, when it has joined. */
static int watch_view_once(const watch_options* o, const wview* w, const proto_world_info* wi, double opened) {
    const proto_snapshot* s = wview_snapshot(w);
    if (o->follow >= 0 && watch_find(s, o->follow) < 0) {
        fprintf(stderr, "naval-watch: boat %lld is not in the view (%u boats)\n", (long long)o->follow,
                s->vessel_count);
        return 1;
    }
    wview_counts zero;
    memset(&zero, 0, sizeof zero);
    if (o->json) {
        watch_print_view_json(o, w, wi, &zero, clock_mono_s() - opened, "");
    } else {
        char status[512];
        watch_view_status(w, &zero, clock_mono_s() - opened, status, sizeof status);
        watch_draw(o, s, wi, status, "", 0);
    }
    return 0;
}

/* A new view with the same settings in place of *w (kept when that fails). */
static void watch_reopen_view(const watch_options* o, wview** w, wview_counts* then) {
    wview* fresh = NULL;
    wview_options vo = {o->url, {0.0, 0.0}, 0.0f, (uint32_t)o->budget_kbps};
    uint32_t applied;
    wview_settings(*w, vo.centre, &vo.radius, &applied);
    nv_error e;
    if (wview_open(&fresh, &vo, &e)) return;
    wview_close(*w);
    *w = fresh;
    memset(then, 0, sizeof *then);
}

static int watch_run_view(const watch_options* o) {
    int tty = isatty(STDOUT_FILENO) && !o->json;
    double started = clock_mono_s();
    wview* w = NULL;
    int rc = watch_open_view(o, &w, started);
    if (rc) return watch_stop && rc == 1 ? 0 : rc;
    proto_world_info wi = {0};
    int have_types = 0;
    char commands[WATCH_URL_MAX];
    snprintf(commands, sizeof commands, "%s", o->commands);
    watch_load_types(commands, &wi, &have_types);
    double opened = clock_mono_s(), last_update = opened, next_draw = opened + (o->once ? 0 : o->interval);
    double first_update = 0.0, last_move = 0.0, win_start = opened, probed = opened, reopened = opened;
    int joined = 0, probe_sent = 1;
    wview_counts then;
    memset(&then, 0, sizeof then);
    char lost[NV_ERROR_MAX + 160] = "";
    if (tty) fputs("\x1b[2J", stdout);
    while (!watch_stop) {
        double now = clock_mono_s();
        int wait_ms = (int)(((o->once ? started + o->timeout : next_draw) - now) * 1000.0);
        if (o->once && first_update > 0.0 && wait_ms > 100) wait_ms = 100; /* the second since the first update */
        nv_error e;
        e.code = NV_OK;
        if (wait_ms > 0 && wview_poll(w, wait_ms > 200 ? 200 : wait_ms, &e) == 0) {
            last_update = clock_mono_s();
            if (first_update == 0.0) first_update = last_update;
            lost[0] = '\0';
            if (o->follow >= 0) watch_view_follow(o, w, &last_move);
            char announced[WATCH_URL_MAX];
            watch_commands_at(o->url, wview_command_port(w), announced, sizeof announced);
            if (!o->commands_given && announced[0] && strcmp(announced, commands)) {
                snprintf(commands, sizeof commands, "%s", announced);
                proto_free_world_info(&wi);
                memset(&wi, 0, sizeof wi);
                have_types = 0;
                watch_load_types(commands, &wi, &have_types);
            }
            wview_counts c;
            wview_counts_get(w, &c);
            joined |= c.updates >= 2 && !wview_arrivals(w);
        } else if (e.code == NV_EREFUSED || e.code == NV_EPROTO) {
            snprintf(lost, sizeof lost, "%s", e.message);
            if (o->once) {
                fprintf(stderr, "naval-watch: %s\n", e.message);
                rc = 1;
                break;
            }
            /* Most likely a new server: it knows nothing of this view (it
             * refuses its acks, its updates start again at 1). Start again,
             * at most every 2 s. */
            if (clock_mono_s() - reopened > 2.0) {
                watch_reopen_view(o, &w, &then);
                reopened = clock_mono_s();
            }
        } else if (e.code != NV_OK && e.code != NV_ETIMEDOUT) {
            snprintf(lost, sizeof lost, "%s", e.message);
        }
        now = clock_mono_s();
        /* Joined: an update that brings nothing new, or a second since the
         * first (an empty view gets no update after the first). */
        if (o->once && first_update > 0.0 && (joined || now - first_update >= 1.0)) {
            rc = watch_view_once(o, w, have_types ? &wi : NULL, opened);
            break;
        }
        if (o->once) {
            if (now - started > o->timeout) {
                fprintf(stderr, "naval-watch: no view update from %s within %.1f s (is the server running?)\n",
                        o->url, o->timeout);
                rc = 1;
                break;
            }
            continue;
        }
        /* Silence: an empty view, or no server. A probe tells them apart:
         * a server answers it, even for an empty view. */
        if (now - last_update > 2.0) {
            if (now - probed > 2.0) {
                nv_error pe;
                probed = now;
                probe_sent = wview_probe(w, &pe) == 0;
            }
            if (!probe_sent || now - probed > 1.0) {
                snprintf(lost, sizeof lost, "SERVER LOST: no view update from %s for %.0f s; retrying...", o->url,
                         now - last_update);
                if (!have_types) watch_load_types(commands, &wi, &have_types);
            }
        }
        if (now < next_draw) continue;
        next_draw = now + o->interval;
        double dt = now - win_start;
        if (first_update == 0.0) {
            if (o->json)
                printf("{\"url\": \"%s\", \"waiting\": true, \"lost\": %s}\n", o->url, lost[0] ? "true" : "false");
            else
                fprintf(stderr, "naval-watch: %s\n", lost[0] ? lost : "waiting for the first view update...");
            fflush(stdout);
        } else if (o->json) {
            watch_print_view_json(o, w, have_types ? &wi : NULL, &then, dt, lost);
        } else {
            char status[512];
            watch_view_status(w, &then, dt, status, sizeof status);
            watch_draw(o, wview_snapshot(w), have_types ? &wi : NULL, status, lost, tty);
        }
        wview_counts_get(w, &then);
        win_start = now;
    }
    if (tty) putchar('\n');
    proto_free_world_info(&wi);
    fflush(stdout);
    if (closer_run(watch_close_view, w, 5.0)) {
        fprintf(stderr, "naval-watch: closing the sockets hangs (nng 1.5.2, nanomsg/nng#1543); leaving without closing them\n");
        _exit(rc);
    }
    return rc;
}

int main(int argc, char** argv) {
    watch_options o;
    if (watch_parse(argc, argv, &o)) return 2;
    signal(SIGINT, watch_on_signal);
    signal(SIGTERM, watch_on_signal);
    if (o.view) return watch_run_view(&o);
    int tty = isatty(STDOUT_FILENO) && !o.json;

    nvc_options no;
    nvc_options_default(&no);
    no.snapshot_url = o.url;
    nvc_client* c = NULL;
    nv_error e;
    double started = clock_mono_s();
    /* A server that is not up yet (or gone): say so and retry. */
    while (nvc_connect(&c, &no, &e)) {
        if (e.code == NV_EINVAL) {
            fprintf(stderr, "naval-watch: %s\n", e.message);
            return 2;
        }
        if (o.once && clock_mono_s() - started > o.timeout) {
            fprintf(stderr, "naval-watch: %s (gave up after %.0f s)\n", e.message, o.timeout);
            return 1;
        }
        fprintf(stderr, "naval-watch: %s; retrying every second\n", e.message);
        for (int i = 0; i < 10 && !watch_stop; i++) nng_msleep(100);
        if (watch_stop) return 0;
    }
    proto_world_info wi = {0};
    int have_types = 0;
    watch_load_types(o.commands, &wi, &have_types);

    proto_snapshot s = {0}, last = {0};
    proto_buf sizebuf = {0};
    nstat ns = {0};
    int compact = strstr(o.url, "/ws/compact") != NULL;
    int have = 0, rc = 0;
    uint64_t last_tick = 0;
    double last_snapshot = clock_mono_s(), next_draw = clock_mono_s() + (o.once ? 0 : o.interval);
    watch_window win = {0};
    win.start = clock_mono_s();
    nvc_snapshot_counts counts;
    nvc_snapshot_counts_get(c, &counts);
    win.received0 = counts.received;
    win.bytes0 = nstat_sub_rx(&ns);
    if (tty) fputs("\x1b[2J", stdout);
    char lost[NV_ERROR_MAX + 128] = "";
    int was_lost = 0;
    while (!watch_stop) {
        double now = clock_mono_s();
        int wait_ms = (int)((next_draw - now) * 1000.0);
        if (o.once) wait_ms = (int)((started + o.timeout - now) * 1000.0);
        if (wait_ms > 0 && nvc_poll_snapshot(c, wait_ms > 200 ? 200 : wait_ms, &s, &e) == 0) {
            double ms = (double)(clock_wall_ns() - s.send_time_ns) * 1e-6;
            if (have && s.tick > last_tick + 1) win.gaps += s.tick - last_tick - 1;
            last_tick = s.tick;
            watch_count_contacts(&s);
            last_snapshot = clock_mono_s();
            win.snapshots++;
            win.latency_sum += ms;
            win.latency_max = fmax(win.latency_max, ms);
            win.tick_sum += s.stats.step_ms;
            win.tick_max = fmax(win.tick_max, s.stats.step_ms);
            uint64_t size = watch_size(&sizebuf, &s, compact);
            win.sized += size;
            /* keep the newest for drawing (swap: both keep their storage) */
            proto_snapshot t = last;
            last = s;
            s = t;
            have = 1;
            char announced[WATCH_URL_MAX];
            watch_commands_at(o.url, last.stats.command_port, announced, sizeof announced);
            if (!o.commands_given && announced[0] && strcmp(announced, o.commands)) {
                snprintf(o.commands, sizeof o.commands, "%s", announced);
                proto_free_world_info(&wi);
                memset(&wi, 0, sizeof wi);
                have_types = 0;
                watch_load_types(o.commands, &wi, &have_types);
            }
            if (was_lost && !have_types) watch_load_types(o.commands, &wi, &have_types);
            was_lost = 0;
            lost[0] = '\0';
            if (o.once) {
                uint64_t bytes = nstat_sub_rx(&ns);
                int f = watch_find(&last, o.follow);
                if (o.follow >= 0 && f < 0) {
                    fprintf(stderr, "naval-watch: boat %lld is not in the snapshot (%u boats)\n", (long long)o.follow,
                            last.vessel_count);
                    rc = 1;
                } else if (o.json) {
                    watch_print_json(&o, &last, have_types ? &wi : NULL, ms, NULL, 0, 0, bytes, size, "", "");
                } else {
                    char status[256];
                    snprintf(status, sizeof status, "tick %llu · %u boats (%u in the world) · tick %.2f ms · latency %.1f ms",
                             (unsigned long long)last.tick, last.vessel_count, last.stats.vessel_count,
                             last.stats.step_ms, ms);
                    watch_draw(&o, &last, have_types ? &wi : NULL, status, "", 0);
                }
                break;
            }
        } else if (e.code != NV_OK && e.code != NV_ETIMEDOUT && e.code != NV_ECLOSED) {
            snprintf(lost, sizeof lost, "%s", e.message); /* a snapshot that does not decode */
        }
        now = clock_mono_s();
        if (o.once) {
            if (now - started > o.timeout) {
                fprintf(stderr, "naval-watch: no snapshot from %s within %.1f s (is the server running?)\n", o.url,
                        o.timeout);
                rc = 1;
                break;
            }
            continue;
        }
        if (now - last_snapshot > 2.0) {
            snprintf(lost, sizeof lost, "SERVER LOST: no snapshot from %s for %.0f s; retrying...", o.url,
                     now - last_snapshot);
            was_lost = 1;
        }
        if (now < next_draw) continue;
        next_draw = now + o.interval;
        double dt = now - win.start;
        nvc_snapshot_counts_get(c, &counts);
        uint64_t bytes = nstat_sub_rx(&ns);
        double rate = (double)(counts.received - win.received0) / dt, brate = (double)(bytes - win.bytes0) / dt;
        /* nng's counters where it keeps them (tcp), else the decoded
         * snapshots' sizes (ws; what the queue dropped is not in them). */
        const char* source = "nng";
        if (bytes == win.bytes0 && win.sized) {
            brate = (double)win.sized / dt;
            source = "snapshot_sizes";
        } else if (bytes == win.bytes0) {
            source = "";
        }
        if (!have) {
            if (o.json) printf("{\"url\": \"%s\", \"waiting\": true, \"lost\": %s}\n", o.url, lost[0] ? "true" : "false");
            else fprintf(stderr, "naval-watch: %s\n", lost[0] ? lost : "waiting for the first snapshot...");
            fflush(stdout);
        } else if (o.json) {
            watch_print_json(&o, &last, have_types ? &wi : NULL, win.snapshots ? win.latency_sum / win.snapshots : NAN,
                             &win, rate, brate, bytes, watch_size(&sizebuf, &last, compact), source, lost);
        } else {
            char status[384];
            if (win.snapshots)
                snprintf(status, sizeof status,
                         "tick %llu · %u boats (%u in the world) · tick %.2f ms (max %.2f) · %.1f snapshots/s · "
                         "%.1f KiB/s%s · latency %.1f ms (max %.1f) · %llu missed · contacts %llu + %llu ground · "
                         "%u aground",
                         (unsigned long long)last.tick, last.vessel_count, last.stats.vessel_count,
                         win.tick_sum / win.snapshots, win.tick_max, rate, brate / 1024.0,
                         source[0] ? "" : " (unknown)", win.latency_sum / win.snapshots, win.latency_max,
                         (unsigned long long)win.gaps, (unsigned long long)watch_contacts_vessels,
                         (unsigned long long)watch_contacts_ground, watch_grounded(&last));
            else
                snprintf(status, sizeof status, "tick %llu · %u boats · no snapshot in the last %.1f s",
                         (unsigned long long)last.tick, last.vessel_count, dt);
            watch_draw(&o, &last, have_types ? &wi : NULL, status, lost, tty);
        }
        memset(&win, 0, sizeof win);
        win.start = now;
        win.received0 = counts.received;
        win.bytes0 = bytes;
    }
    if (tty) putchar('\n');
    proto_free_snapshot(&s);
    proto_free_snapshot(&last);
    proto_free_buf(&sizebuf);
    proto_free_world_info(&wi);
    fflush(stdout);
    if (closer_run(watch_close, c, 5.0)) {
        fprintf(stderr, "naval-watch: closing the sockets hangs (nng 1.5.2, nanomsg/nng#1543); leaving without closing them\n");
        _exit(rc);
    }
    return rc;
}
