// SPDX-License-Identifier: MIT
#include "config.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <nng/nng.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "edge.h"
#include "json_util.h"
#include "naval/checkpoint.h"
#include "naval/jobs.h"
#include "naval/ranges.h"
#include "view.h"

extern char** environ;

/* CFG_BOOL: a switch (0 or 1): "--flag" alone turns it on, "--flag=0" off;
 * variables and files take 1/0 or true/false. */
typedef enum cfg_kind { CFG_STR, CFG_NUM, CFG_INT, CFG_BOOL } cfg_kind;

/* A string setting's own rule: 0 when fine, else -1 with the reason. */
typedef int cfg_check_fn(const char* value, char* why, size_t n);

typedef struct cfg_entry {
    const char* key;  /* JSON key; "limits.NAME" lives in the "limits" object */
    const char* flag;
    const char* env;
    cfg_kind kind;
    size_t offset;
    size_t size;      /* strings: buffer size, NUL included */
    double lo, hi;    /* numbers: closed range unless lo_open */
    int lo_open;
    cfg_check_fn* check;
    const char* help;
} cfg_entry;

static int cfg_check_level(const char* v, char* why, size_t n) {
    log_level l;
    if (log_parse_level(v, &l) == 0) return 0;
    snprintf(why, n, "must be debug, info, warn, error or off");
    return -1;
}

/* What an endpoint URL may hold before nng parses it: nng 1.5.2's parser
 * reads past the end of some strings with userinfo ('@'; found by
 * fuzz/fuzz_config), and no endpoint here needs userinfo, a query, a
 * fragment or escapes. */
static int cfg_url_chars_ok(const char* v) {
    for (const char* p = v; *p; p++)
        if (!isgraph((unsigned char)*p) || strchr("@?#%\\\"'<>{}|^`", *p)) return 0;
    return 1;
}

static int cfg_check_url(const char* v, char* why, size_t n) {
    if (!v[0]) return 0;
    char reason[128];
    if (!cfg_url_chars_ok(v) || edge_check_endpoint(v, 1, reason, sizeof reason)) {
        snprintf(why, n, "is not a URL of the form tcp://HOST:PORT (e.g. tcp://0.0.0.0:7700)");
        return -1;
    }
    return 0;
}

static int cfg_check_hostport(const char* v, char* why, size_t n) {
    if (!v[0]) return 0;
    const char* colon = strrchr(v, ':');
    char* end = NULL;
    long port = colon ? strtol(colon + 1, &end, 10) : -1;
    if (!colon || colon == v || !isdigit((unsigned char)colon[1]) || *end || port < 1 || port > 65535) {
        snprintf(why, n, "must be HOST:PORT with a port in 1..65535 (e.g. 0.0.0.0:8080)");
        return -1;
    }
    for (const char* p = v; p < colon; p++)
        if (!isalnum((unsigned char)*p) && !strchr(".-[]:", *p)) {
            snprintf(why, n, "has a character that is not allowed in a host name");
            return -1;
        }
    return 0;
}

static int cfg_check_secret(const char* v, char* why, size_t n) {
    size_t len = strlen(v);
    if (len && len < CFG_SECRET_MIN) {
        snprintf(why, n, "must be at least %d characters (or empty: no admin operations)", CFG_SECRET_MIN);
        return -1;
    }
    for (const char* p = v; *p; p++)
        if (!isgraph((unsigned char)*p)) {
            snprintf(why, n, "must be printable ASCII without spaces");
            return -1;
        }
    return 0;
}

/* The Agones sidecar speaks plain HTTP on localhost. */
static int cfg_check_http_url(const char* v, char* why, size_t n) {
    if (!v[0]) return 0;
    nng_url* u = NULL;
    int ok = cfg_url_chars_ok(v) && nng_url_parse(&u, v) == 0 && strcmp(u->u_scheme, "http") == 0;
    if (u) nng_url_free(u);
    if (!ok) {
        snprintf(why, n, "must be an http:// URL (e.g. http://127.0.0.1:%d)", CFG_AGONES_PORT);
        return -1;
    }
    return 0;
}

static int cfg_check_name(const char* v, char* why, size_t n) {
    if (v[0]) return 0;
    snprintf(why, n, "must not be empty");
    return -1;
}

#define CFG_S(field) offsetof(cfg_server, field), sizeof(((cfg_server*)0)->field)
#define CFG_N(field) offsetof(cfg_server, field), 0

static const cfg_entry cfg_table[] = {
    {"server_name", "--name", "NAVAL_SERVER_NAME", CFG_STR, CFG_S(server_name), 0, 0, 0, cfg_check_name,
     "name in hello replies and world info"},
    {"scenario", "--scenario", "NAVAL_SCENARIO", CFG_STR, CFG_S(scenario), 0, 0, 0, NULL,
     "scenario file (JSON, see include/naval/scenario.h) instead of the default world"},
    {"terrain", "--terrain", "NAVAL_TERRAIN", CFG_STR, CFG_S(terrain), 0, 0, 0, NULL,
     "the ground: builtin:harbour, none, or a JSON file as a scenario's \"terrain\" (default: the scenario's, "
     "builtin:harbour on the default world)"},
    {"boats", "--boats", "NAVAL_BOATS", CFG_INT, CFG_N(boats), 0, 100000, 0, NULL,
     "demo boats on autopilot (default 200; 0 with a scenario)"},
    /* tick_hz, sunk_removal_depth and seed take their bounds from the range
     * table (naval/ranges.h, cfg_shared_range): scenarios and the world
     * check the same rows. */
    {"tick_hz", "--tick-hz", "NAVAL_TICK_HZ", CFG_NUM, CFG_N(tick_hz), 0, 0, 0, NULL,
     "ticks per second (default 60, or the scenario's)"},
    {"sunk_removal_depth", "--sunk-removal-depth", "NAVAL_SUNK_REMOVAL_DEPTH", CFG_NUM, CFG_N(sunk_removal_depth), 0,
     0, 0, NULL,
     "m below the still water at which a sunk vessel is removed, 0 never (default 50, or the scenario's)"},
    {"threads", "--threads", "NAVAL_THREADS", CFG_INT, CFG_N(threads), 1, JOBS_MAX_THREADS, 0, NULL,
     "simulation threads, the loop thread included (default: all cores)"},
    {"seed", "--seed", "NAVAL_SEED", CFG_INT, CFG_N(seed), 0, 0, 0, NULL,
     "seed of the default world's sea and fleet (default 1)"},
    {"snapshot_url", "--snapshot-url", "NAVAL_SNAPSHOT_URL", CFG_STR, CFG_S(snapshot_url), 0, 0, 0, cfg_check_url,
     "PUB socket of full snapshots (\"\" = none)"},
    {"compact_url", "--compact-url", "NAVAL_COMPACT_URL", CFG_STR, CFG_S(compact_url), 0, 0, 0, cfg_check_url,
     "PUB socket of compact snapshots (\"\" = none)"},
    {"command_url", "--command-url", "NAVAL_COMMAND_URL", CFG_STR, CFG_S(command_url), 0, 0, 0, cfg_check_url,
     "REP socket of requests (\"\" = none)"},
    {"view_url", "--view-url", "NAVAL_VIEW_URL", CFG_STR, CFG_S(view_url), 0, 0, 0, cfg_check_url,
     "PAIR1 socket of player views, one per connection (\"\" = none; ws: /ws/view)"},
    {"http", "--http", "NAVAL_HTTP", CFG_STR, CFG_S(http), 0, 0, 0, cfg_check_hostport,
     "HOST:PORT of web client, /ws/*, /metrics, /healthz (\"\" = none)"},
    {"web_root", "--web-root", "NAVAL_WEB_ROOT", CFG_STR, CFG_S(web_root), 0, 0, 0, NULL,
     "folder served at / (default: the built web client, else a built-in page)"},
    {"log_level", "--log-level", "NAVAL_LOG_LEVEL", CFG_STR, CFG_S(log_level), 0, 0, 0, cfg_check_level,
     "debug, info, warn, error or off"},
    {"admin_token", NULL, "NAVAL_ADMIN_TOKEN", CFG_STR, CFG_S(admin_token), 0, 0, 0, cfg_check_secret,
     "secret for admin requests, >= 16 characters (config or environment only)"},
    {"max_catchup", "--max-catchup", "NAVAL_MAX_CATCHUP", CFG_INT, CFG_N(max_catchup), 1, 100, 0, NULL,
     "most steps per loop turn when late; the rest is dropped (default 4)"},
    {"keyframe_interval", "--keyframe-interval", "NAVAL_KEYFRAME_INTERVAL", CFG_INT, CFG_N(keyframe_interval), 1,
     100000, 0, NULL, "ticks between compact keyframes (default 60)"},
    {"command_contexts", "--command-contexts", "NAVAL_COMMAND_CONTEXTS", CFG_INT, CFG_N(command_contexts), 1, 1024,
     0, NULL, "requests in flight per command connection; reading pauses beyond (default 16)"},
    {"snapshot_queue", "--snapshot-queue", "NAVAL_SNAPSHOT_QUEUE", CFG_INT, CFG_N(snapshot_queue), 1, 8192, 0, NULL,
     "snapshots queued per subscriber before the oldest drops (default 16)"},
    {"area", "--area", "NAVAL_AREA", CFG_NUM, CFG_N(area), 0, 1e6, 0, NULL,
     "demo fleet's area half-width in m: its lanes' straights are 0.8 of it long (default: from the fleet size)"},
    {"checkpoint", "--checkpoint", "NAVAL_CHECKPOINT", CFG_STR, CFG_S(checkpoint), 0, 0, 0, NULL,
     "write the whole world to FILE (atomically, FILE.prev kept) every interval and at shutdown (\"\" = none; "
     "default: the restore file)"},
    {"checkpoint_interval_s", "--checkpoint-interval", "NAVAL_CHECKPOINT_INTERVAL", CFG_NUM,
     CFG_N(checkpoint_interval_s), 0, 86400, 0, NULL, "s between checkpoints (0: only at shutdown; default 10)"},
    {"restore", "--restore", "NAVAL_RESTORE", CFG_STR, CFG_S(restore), 0, 0, 0, NULL,
     "resume from this checkpoint (or FILE.prev when FILE is refused) instead of building a world"},
    {"restore_if_present", "--restore-if-present", "NAVAL_RESTORE_IF_PRESENT", CFG_BOOL, CFG_N(restore_if_present),
     0, 1, 0, NULL,
     "with restore: when neither FILE nor FILE.prev exists yet (a first start), build the world and checkpoint "
     "to FILE; a refused file still stops the server (default off)"},
    {"record", "--record", "NAVAL_RECORD", CFG_STR, CFG_S(record), 0, 0, 0, NULL,
     "log every change to the world and state hashes to FILE (base checkpoint FILE.ckpt; see naval-replay)"},
    {"record_hash_interval", "--record-hash-interval", "NAVAL_RECORD_HASH_INTERVAL", CFG_INT,
     CFG_N(record_hash_interval), 1, 1000000, 0, NULL, "ticks between state hashes in the record log (default 60)"},
    {"record_max_bytes", "--record-max-bytes", "NAVAL_RECORD_MAX_BYTES", CFG_INT, CFG_N(record_max_bytes), 0, 1e15, 0,
     NULL, "a record file this big is closed and the log goes on in the next, from a new base (0: no cap; default "
     "268435456)"},
    {"record_keep", "--record-keep", "NAVAL_RECORD_KEEP", CFG_INT, CFG_N(record_keep), 0, 1000000, 0, NULL,
     "record files kept, the newest (with their bases); older ones are removed (0: all; default 10)"},
    {"agones", "--agones", "NAVAL_AGONES", CFG_BOOL, CFG_N(agones), 0, 1, 0, NULL,
     "tell the Agones SDK sidecar: /ready once listening, /health every 2 s (default off)"},
    {"agones_url", "--agones-url", "NAVAL_AGONES_URL", CFG_STR, CFG_S(agones_url), 0, 0, 0, cfg_check_http_url,
     "the sidecar (default http://127.0.0.1:$AGONES_SDK_HTTP_PORT, else port 9358)"},
    /* The default world's sea: bounds from the range table (cfg_shared_range). */
    {"beaufort", "--beaufort", "NAVAL_BEAUFORT", CFG_INT, CFG_N(sea_beaufort), 0, 0, 0, NULL,
     "the default world's sea state 0..12: sets the wind and Hs (not with a scenario or restore)"},
    {"wind", "--wind", "NAVAL_WIND", CFG_NUM, CFG_N(sea_wind), 0, 0, 0, NULL,
     "the default world's wind U10, m/s (default 9)"},
    {"hs", "--hs", "NAVAL_HS", CFG_NUM, CFG_N(sea_hs), 0, 0, 0, NULL,
     "the default world's target significant wave height, m (the wind from it unless --wind)"},
    {"tp", "--tp", "NAVAL_TP", CFG_NUM, CFG_N(sea_tp), 0, 0, 0, NULL,
     "peak period of the --hs sea, s (default: from Hs)"},
    {"wind_dir", "--wind-dir", "NAVAL_WIND_DIR", CFG_NUM, CFG_N(sea_wind_dir), 0, 0, 0, NULL,
     "toward which the default world's wind blows, degrees about +y from +x toward -z as headings (default -30)"},
    {"spawn_search", "--spawn-search", "NAVAL_SPAWN_SEARCH", CFG_NUM, CFG_N(spawn_search), 0, 1e5, 0, NULL,
     "m around a spawn's position searched for free water; none: refused (default 500)"},
    {"spawn_clearance", "--spawn-clearance", "NAVAL_SPAWN_CLEARANCE", CFG_NUM, CFG_N(spawn_clearance), 0, 1000, 0,
     NULL, "m a spawn keeps from other hulls' bounding circles, structures and the ground (default 2)"},
    {"spawn_anywhere", "--spawn-anywhere", "NAVAL_SPAWN_ANYWHERE", CFG_BOOL, CFG_N(spawn_anywhere), 0, 1, 0, NULL,
     "spawns go exactly where asked, on land or inside other hulls, no search (staged scenes, tests; default "
     "off)"},
    {"lod.enabled", "--lod", "NAVAL_LOD", CFG_BOOL, CFG_N(lod), 0, 1, 0, NULL,
     "levels of detail: clients' vessels are players; others get the mesh near one, 20 x 5 columns farther, a "
     "floater beyond (default off)"},
    {"lod.mesh_within", "--lod-mesh-within", "NAVAL_LOD_MESH_WITHIN", CFG_NUM, CFG_N(lod_mesh_within), 0, 1e6, 0, NULL,
     "m from the nearest player within which a vessel gets the mesh (default 300)"},
    {"lod.columns_within", "--lod-columns-within", "NAVAL_LOD_COLUMNS_WITHIN", CFG_NUM, CFG_N(lod_columns_within), 0,
     1e6, 0, NULL, "m within which it gets columns; a floater beyond (default 1500)"},
    {"limits.max_request_bytes", "--max-request-bytes", "NAVAL_MAX_REQUEST_BYTES", CFG_INT,
     CFG_N(limits.max_request_bytes), 256, 16777216, 0, NULL, "largest request (default 65536)"},
    {"limits.vessels_per_client", "--vessels-per-client", "NAVAL_VESSELS_PER_CLIENT", CFG_INT,
     CFG_N(limits.vessels_per_client), 0, 1000000, 0, NULL, "vessels one player may own: a connection, or the connections sharing a player identity (default 16)"},
    {"limits.vessels_total", "--vessels-total", "NAVAL_VESSELS_TOTAL", CFG_INT, CFG_N(limits.vessels_total), 1,
     1000000, 0, NULL, "vessels in the world, demo fleet included (default 10000)"},
    {"limits.requests_per_second", "--requests-per-second", "NAVAL_REQUESTS_PER_SECOND", CFG_NUM,
     CFG_N(limits.requests_per_second), 0, 1e6, 1, NULL, "per player (a connection, or those sharing an identity), sustained (default 100)"},
    {"limits.request_burst", "--request-burst", "NAVAL_REQUEST_BURST", CFG_INT, CFG_N(limits.request_burst), 1, 1e6,
     0, NULL, "per player, at once (default 200)"},
    {"limits.vessels_per_address", "--vessels-per-address", "NAVAL_VESSELS_PER_ADDRESS", CFG_INT,
     CFG_N(limits.vessels_per_address), 0, 1000000, 0, NULL,
     "vessels the players of one IP address may own together, orphans included (default 512)"},
    {"limits.requests_per_second_per_address", "--requests-per-second-per-address",
     "NAVAL_REQUESTS_PER_SECOND_PER_ADDRESS", CFG_NUM, CFG_N(limits.requests_per_second_per_address), 0, 1e7, 1, NULL,
     "requests per second from one IP address, all its connections, sustained (default 2000)"},
    {"limits.request_burst_per_address", "--request-burst-per-address", "NAVAL_REQUEST_BURST_PER_ADDRESS", CFG_INT,
     CFG_N(limits.request_burst_per_address), 1, 1e7, 0, NULL, "the same at once (default 4000)"},
    {"limits.admin_token_failures", "--admin-token-failures", "NAVAL_ADMIN_TOKEN_FAILURES", CFG_INT,
     CFG_N(limits.admin_token_failures), 1, 1000000, 0, NULL,
     "wrong admin tokens from one IP address within the window before it is locked out (default 5)"},
    {"limits.admin_failure_window_s", "--admin-failure-window", "NAVAL_ADMIN_FAILURE_WINDOW", CFG_NUM,
     CFG_N(limits.admin_failure_window_s), 1, 86400, 0, NULL,
     "s without a wrong admin token after which an address's count starts again (default 600)"},
    {"limits.admin_backoff_s", "--admin-backoff", "NAVAL_ADMIN_BACKOFF", CFG_NUM, CFG_N(limits.admin_backoff_s), 0.1,
     3600, 0, NULL,
     "s an address is locked out of admin requests, doubling with each wrong token after (at most 1 h; default 10)"},
    {"limits.max_clients", "--max-clients", "NAVAL_MAX_CLIENTS", CFG_INT, CFG_N(limits.max_clients), 1, 1000000, 0,
     NULL, "command connections at once (default 1024)"},
    {"limits.orphan_timeout_s", "--orphan-timeout", "NAVAL_ORPHAN_TIMEOUT", CFG_NUM, CFG_N(limits.orphan_timeout_s),
     0, 1e7, 0, NULL, "s before a disconnected client's vessels go (0: never; default 60)"},
    {"limits.max_connections", "--max-connections", "NAVAL_MAX_CONNECTIONS", CFG_INT, CFG_N(limits.max_connections),
     1, 65536, 0, NULL, "open connections per listener; more are refused (default 4096)"},
    {"limits.max_connections_per_address", "--max-connections-per-address", "NAVAL_MAX_CONNECTIONS_PER_ADDRESS",
     CFG_INT, CFG_N(limits.max_connections_per_address), 1, 65536, 0, NULL,
     "open connections from one IP address, all listeners (default 256)"},
    {"limits.header_timeout_s", "--header-timeout", "NAVAL_HEADER_TIMEOUT", CFG_NUM, CFG_N(limits.header_timeout_s),
     0.1, 600, 0, NULL, "s for an HTTP request head or SP handshake to arrive (default 5)"},
    {"limits.idle_timeout_s", "--idle-timeout", "NAVAL_IDLE_TIMEOUT", CFG_NUM, CFG_N(limits.idle_timeout_s), 0.1, 3600,
     0, NULL, "s an idle keep-alive HTTP connection stays open (default 30)"},
    {"limits.send_timeout_s", "--send-timeout", "NAVAL_SEND_TIMEOUT", CFG_NUM, CFG_N(limits.send_timeout_s), 0, 3600,
     0, NULL, "s a subscriber may take to read one snapshot before it is closed (0: never; default 30)"},
    {"limits.request_idle_timeout_s", "--request-idle-timeout", "NAVAL_REQUEST_IDLE_TIMEOUT", CFG_NUM,
     CFG_N(limits.request_idle_timeout_s), 0, 86400, 0, NULL,
     "s a command connection with nothing asked or unanswered stays open (0: forever; default 300)"},
    {"limits.view_idle_timeout_s", "--view-idle-timeout", "NAVAL_VIEW_IDLE_TIMEOUT", CFG_NUM,
     CFG_N(limits.view_idle_timeout_s), 0, 86400, 0, NULL,
     "s a player view may go without acknowledging before it is closed (0: forever; default 30)"},
    {"limits.message_timeout_s", "--message-timeout", "NAVAL_MESSAGE_TIMEOUT", CFG_NUM,
     CFG_N(limits.message_timeout_s), 0, 3600, 0, NULL,
     "s a request or view message begun may take to arrive whole (0: forever; default 15)"},
    {"private_streams", "--private-streams", "NAVAL_PRIVATE_STREAMS", CFG_BOOL, CFG_N(private_streams), 0, 1, 0, NULL,
     "the full and compact snapshot streams (tcp and /ws/snapshots, /ws/compact) only for clients on this host "
     "(127.0.0.1, ::1): players see the sea through their views alone (default off: public)"},
    {"limits.max_header_bytes", "--max-header-bytes", "NAVAL_MAX_HEADER_BYTES", CFG_INT,
     CFG_N(limits.max_header_bytes), 1024, 65536, 0, NULL,
     "largest HTTP request head, 431 beyond; its request line half of it, 414 beyond (default 8192)"},
    {"limits.max_views", "--max-views", "NAVAL_MAX_VIEWS", CFG_INT, CFG_N(limits.max_views), 0, 100000, 0, NULL,
     "player views open at once (default 256; 0: none)"},
    {"limits.max_view_radius", "--max-view-radius", "NAVAL_MAX_VIEW_RADIUS", CFG_NUM, CFG_N(limits.max_view_radius), 1,
     1e6, 0, NULL, "the largest radius a view gets, m: also the fog of war (default 2000)"},
    {"limits.view_budget_kbps", "--view-budget", "NAVAL_VIEW_BUDGET", CFG_INT, CFG_N(limits.view_budget_kbps), 1,
     1000000, 0, NULL, "a view's bandwidth when it names none, kbit/s (default 256)"},
    {"limits.max_view_budget_kbps", "--max-view-budget", "NAVAL_MAX_VIEW_BUDGET", CFG_INT,
     CFG_N(limits.max_view_budget_kbps), 1, 1000000, 0, NULL, "the largest budget a view gets, kbit/s (default 2048)"},
    {"limits.view_hz", "--view-hz", "NAVAL_VIEW_HZ", CFG_NUM, CFG_N(limits.view_hz), 0.1, 1000, 1, NULL,
     "updates per second a view gets at most (default 30; the tick rate at most)"},
    {"limits.max_view_vessels", "--max-view-vessels", "NAVAL_MAX_VIEW_VESSELS", CFG_INT,
     CFG_N(limits.max_view_vessels), 1, 65536, 0, NULL, "vessels one view holds at most, the nearest (default 1024)"},
    {"limits.log_interval_s", "--log-interval", "NAVAL_LOG_INTERVAL", CFG_NUM, CFG_N(limits.log_interval_s), 1, 3600, 0,
     NULL, "s between the log's summaries of routine events (default 10)"},
    {"limits.log_lines_per_second", "--log-lines-per-second", "NAVAL_LOG_LINES_PER_SECOND", CFG_INT,
     CFG_N(limits.log_lines_per_second), 1, 100000, 0, NULL,
     "most log lines written per second; the rest are counted and dropped (default 100)"},
};
#define CFG_COUNT (sizeof cfg_table / sizeof cfg_table[0])

void cfg_defaults(cfg_server* c) {
    memset(c, 0, sizeof *c);
    snprintf(c->server_name, sizeof c->server_name, "naval");
    snprintf(c->snapshot_url, sizeof c->snapshot_url, "tcp://0.0.0.0:7700");
    snprintf(c->command_url, sizeof c->command_url, "tcp://0.0.0.0:7701");
    snprintf(c->compact_url, sizeof c->compact_url, "tcp://0.0.0.0:7702");
    snprintf(c->view_url, sizeof c->view_url, "tcp://0.0.0.0:7703");
    snprintf(c->http, sizeof c->http, "0.0.0.0:8080");
    snprintf(c->log_level, sizeof c->log_level, "info");
    c->boats = -1;
    c->sunk_removal_depth = -1;
    c->seed = 1;
    c->max_catchup = 4;
    c->keyframe_interval = 60;
    c->command_contexts = 16;
    c->snapshot_queue = 16;
    c->checkpoint_interval_s = 10;
    c->record_hash_interval = 60;
    c->record_max_bytes = 256.0 * 1024 * 1024;
    c->record_keep = 10;
    c->lod_mesh_within = 300;
    c->lod_columns_within = 1500;
    c->sea_beaufort = -1;
    c->sea_wind = -1;
    c->sea_hs = -1;
    c->sea_tp = -1;
    c->sea_wind_dir = CFG_WIND_DIR_UNSET;
    c->spawn_search = 500;
    c->spawn_clearance = 2;
    c->limits.max_request_bytes = 65536;
    c->limits.vessels_per_client = 16;
    c->limits.vessels_total = 10000;
    c->limits.requests_per_second = 100;
    c->limits.request_burst = 200;
    c->limits.vessels_per_address = 512;
    c->limits.requests_per_second_per_address = 2000;
    c->limits.request_burst_per_address = 4000;
    c->limits.admin_token_failures = 5;
    c->limits.admin_failure_window_s = 600;
    c->limits.admin_backoff_s = 10;
    c->limits.max_clients = 1024;
    c->limits.orphan_timeout_s = 60;
    /* The edge's and the views' limits are their own defaults (net/edge.h,
     * view/view.h), the same the relay starts from. */
    edge_limits el;
    edge_limits_default(&el);
    view_config vc;
    view_config_default(&vc);
    c->limits.max_connections = el.max_connections;
    c->limits.max_connections_per_address = el.max_connections_per_address;
    c->limits.header_timeout_s = el.header_timeout_s;
    c->limits.idle_timeout_s = el.idle_timeout_s;
    c->limits.send_timeout_s = el.send_timeout_s;
    c->limits.max_header_bytes = el.max_header_bytes;
    c->limits.log_interval_s = el.log_interval_s;
    c->limits.max_views = vc.max_views;
    c->limits.request_idle_timeout_s = el.request_idle_timeout_s;
    c->limits.view_idle_timeout_s = el.peer_idle_timeout_s;
    c->limits.message_timeout_s = el.message_timeout_s;
    c->limits.max_view_radius = vc.max_radius;
    c->limits.view_budget_kbps = vc.default_budget_kbps;
    c->limits.max_view_budget_kbps = vc.max_budget_kbps;
    c->limits.max_view_vessels = vc.max_vessels;
    c->limits.view_hz = vc.update_hz;
    c->limits.log_lines_per_second = 100;
}

/* The row of the range table a shared setting is checked against, or NULL. */
static const nv_range* cfg_shared_range(const cfg_entry* e) {
    static const struct {
        const char* key;
        nv_range_id range;
    } shared[] = {{"tick_hz", NV_RANGE_WORLD_TICK_HZ},
                  {"sunk_removal_depth", NV_RANGE_WORLD_SUNK_REMOVAL_DEPTH},
                  {"seed", NV_RANGE_WORLD_SEED},
                  {"beaufort", NV_RANGE_OCEAN_BEAUFORT},
                  {"wind", NV_RANGE_OCEAN_WIND},
                  {"hs", NV_RANGE_OCEAN_HS},
                  {"tp", NV_RANGE_OCEAN_TP},
                  {"wind_dir", NV_RANGE_OCEAN_WIND_DIR}};
    for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++)
        if (!strcmp(e->key, shared[i].key)) return nv_range_get(shared[i].range);
    return NULL;
}

static void cfg_describe_range(const cfg_entry* e, char* out, size_t n) {
    if (e->kind == CFG_BOOL) {
        snprintf(out, n, "1 or 0 (true or false)");
        return;
    }
    const nv_range* r = cfg_shared_range(e);
    if (r) {
        char range[80];
        nv_range_describe(r, range, sizeof range);
        /* "an integer in [...]" already says what it is */
        snprintf(out, n, "%s%s", (r->kind & NV_RANGE_INTEGER) ? "" : "a number ", range);
        return;
    }
    snprintf(out, n, "%s in %c%.15g, %.15g]", e->kind == CFG_INT ? "an integer" : "a number", e->lo_open ? '(' : '[',
             e->lo, e->hi);
}

/* Every source ends here: the value's range, then the store. */
static int cfg_store_number(cfg_server* c, const cfg_entry* e, double v, const char* where, const char* shown,
                            nv_error* err) {
    const nv_range* r = cfg_shared_range(e);
    int ok = r ? nv_range_contains(r, v) : isfinite(v) && (e->lo_open ? v > e->lo : v >= e->lo) && v <= e->hi;
    if (ok && e->kind != CFG_NUM) ok = v == floor(v);
    if (!ok) {
        char range[96];
        cfg_describe_range(e, range, sizeof range);
        return nv_error_set(err, "%s: must be %s (got %s)", where, range, shown);
    }
    *(double*)((char*)c + e->offset) = v;
    return 0;
}

static int cfg_store_string(cfg_server* c, const cfg_entry* e, const char* v, const char* where, nv_error* err) {
    if (strlen(v) >= e->size) return nv_error_set(err, "%s: longer than %zu characters", where, e->size - 1);
    char why[160];
    if (e->check && e->check(v, why, sizeof why))
        return nv_error_set(err, "%s: %s (got '%.200s')", where, why, e->check == cfg_check_secret ? "(hidden)" : v);
    snprintf((char*)c + e->offset, e->size, "%s", v);
    return 0;
}

static const cfg_entry* cfg_find(cfg_origin origin, const char* name) {
    for (size_t i = 0; i < CFG_COUNT; i++) {
        const char* n = origin == CFG_FROM_FLAG ? cfg_table[i].flag : cfg_table[i].env;
        if (n && strcmp(n, name) == 0) return &cfg_table[i];
    }
    return NULL;
}

int cfg_is_known(cfg_origin origin, const char* name) { return cfg_find(origin, name) != NULL; }

int cfg_is_switch(const char* flag) {
    const cfg_entry* e = cfg_find(CFG_FROM_FLAG, flag);
    return e && e->kind == CFG_BOOL;
}

int cfg_set_text(cfg_server* c, cfg_origin origin, const char* name, const char* value, nv_error* err) {
    const cfg_entry* e = cfg_find(origin, name);
    if (!e) return nv_error_set(err, "%s: unknown %s", name, origin == CFG_FROM_FLAG ? "option" : "variable");
    if (e->kind == CFG_STR) return cfg_store_string(c, e, value, name, err);
    char shown[80];
    snprintf(shown, sizeof shown, "'%.60s'", value);
    if (e->kind == CFG_BOOL && (!strcmp(value, "true") || !strcmp(value, "false")))
        return cfg_store_number(c, e, value[0] == 't' ? 1.0 : 0.0, name, shown, err);
    char* end = NULL;
    errno = 0;
    double v = strtod(value, &end);
    /* strtod takes blanks, hex and "inf": a flag must be a plain decimal. */
    int plain = value[0] && !isspace((unsigned char)value[0]) && end && *end == '\0' && errno != ERANGE &&
                !strpbrk(value, "xXnN");
    if (!plain) v = NAN;
    return cfg_store_number(c, e, v, name, shown, err);
}

static int cfg_read_json_value(cfg_server* c, const json_ctx* jc, const cfg_entry* e, const cJSON* v) {
    if (e->kind == CFG_STR) {
        if (!cJSON_IsString(v))
            return json_fail(jc, e->key, "expected a string (got %s)", json_type_name(v));
        char where[NV_ERROR_MAX];
        snprintf(where, sizeof where, "%s: %s", jc->name, e->key);
        return cfg_store_string(c, e, v->valuestring, where, jc->err);
    }
    char where[NV_ERROR_MAX], shown[40];
    snprintf(where, sizeof where, "%s: %s", jc->name, e->key);
    if (e->kind == CFG_BOOL && cJSON_IsBool(v))
        return cfg_store_number(c, e, cJSON_IsTrue(v) ? 1.0 : 0.0, where, "", jc->err);
    if (!cJSON_IsNumber(v))
        return json_fail(jc, e->key, "expected %s (got %s)", e->kind == CFG_BOOL ? "true or false" : "a number",
                         json_type_name(v));
    snprintf(shown, sizeof shown, "%.15g", v->valuedouble);
    return cfg_store_number(c, e, v->valuedouble, where, shown, jc->err);
}

/* Keys of one object level: top-level keys, or those under "limits.". */
static int cfg_collect_keys(const char* prefix, const char** keys, size_t cap) {
    size_t n = 0, plen = strlen(prefix);
    for (size_t i = 0; i < CFG_COUNT && n + 1 < cap; i++) {
        const char* k = cfg_table[i].key;
        if (plen ? strncmp(k, prefix, plen) == 0 : strchr(k, '.') == NULL) keys[n++] = k + plen;
    }
    if (!plen) keys[n++] = "limits";
    keys[n] = NULL;
    return (int)n;
}

static int cfg_parse_json(const char* text, size_t length, const char* name, const char* base_dir, void* out,
                          nv_error* err) {
    (void)base_dir;
    cfg_server* c = out;
    json_ctx jc = {name, NULL, err};
    cJSON* root = json_parse_text(&jc, text, length);
    if (!root) return -1;
    const char* top[CFG_COUNT + 2];
    const char* lim[CFG_COUNT + 2];
    cfg_collect_keys("", top, CFG_COUNT + 2);
    cfg_collect_keys("limits.", lim, CFG_COUNT + 2);
    int rc = json_check_keys(&jc, root, "", top);
    const cJSON* limits = cJSON_GetObjectItemCaseSensitive(root, "limits");
    if (!rc && limits) rc = json_check_keys(&jc, limits, "limits", lim);
    for (size_t i = 0; i < CFG_COUNT && !rc; i++) {
        const cfg_entry* e = &cfg_table[i];
        const char* dot = strchr(e->key, '.');
        const cJSON* v = dot ? (limits ? cJSON_GetObjectItemCaseSensitive(limits, dot + 1) : NULL)
                             : cJSON_GetObjectItemCaseSensitive(root, e->key);
        if (v) rc = cfg_read_json_value(c, &jc, e, v);
    }
    cJSON_Delete(root);
    return rc;
}

int cfg_parse_text(cfg_server* c, const char* text, size_t length, const char* name, nv_error* err) {
    cfg_server tmp = *c;
    if (cfg_parse_json(text, length, name, NULL, &tmp, err)) return -1;
    *c = tmp;
    return 0;
}

int cfg_load_file(cfg_server* c, const char* path, nv_error* err) {
    /* Parse into a copy: a bad file leaves the settings as they were. */
    cfg_server tmp = *c;
    if (json_load_file(path, cfg_parse_json, &tmp, err)) return -1;
    *c = tmp;
    return 0;
}

int cfg_load_env(cfg_server* c, char* unknown, size_t unknown_size, nv_error* err) {
    if (unknown && unknown_size) unknown[0] = '\0';
    for (char** env = environ; env && *env; env++) {
        const char* eq = strchr(*env, '=');
        if (!eq || strncmp(*env, "NAVAL_", 6) != 0) continue;
        char name[64];
        size_t len = (size_t)(eq - *env);
        if (len >= sizeof name) continue;
        memcpy(name, *env, len);
        name[len] = '\0';
        if (!strcmp(name, "NAVAL_CONFIG")) continue; /* read by args.c, before the file */
        /* make test exports it to every test, and so to every server a test starts */
        if (!strcmp(name, "NAVAL_SKIP")) continue;
        if (!cfg_is_known(CFG_FROM_ENV, name)) {
            if (unknown && unknown_size && !unknown[0]) snprintf(unknown, unknown_size, "%s", name);
            continue;
        }
        if (cfg_set_text(c, CFG_FROM_ENV, name, eq + 1, err)) return -1;
    }
    return 0;
}

static int cfg_same_endpoint(const char* a, const char* b) { return a[0] && b[0] && strcmp(a, b) == 0; }

/* The sidecar's port as Agones injects it, else the manifest's 9358 (only
 * with agones on: a stray variable must not stop a server without it). */
static int cfg_resolve_agones_url(cfg_server* c, nv_error* err) {
    if (c->agones_url[0] || !c->agones) return 0;
    const char* port = getenv("AGONES_SDK_HTTP_PORT");
    char* end = NULL;
    long p = port && port[0] ? strtol(port, &end, 10) : CFG_AGONES_PORT;
    if (port && port[0] && (*end || p < 1 || p > 65535))
        return nv_error_set(err, "AGONES_SDK_HTTP_PORT: must be a port in 1..65535 (got '%.40s')", port);
    snprintf(c->agones_url, sizeof c->agones_url, "http://127.0.0.1:%ld", p);
    return 0;
}

/* The record log, its base checkpoint (record + ".ckpt") and the
 * checkpoint pair must be different files, or one would overwrite another. */
static int cfg_check_files(const cfg_server* c, nv_error* err) {
    if (!c->record[0]) return 0;
    char base[CFG_PATH_MAX + 8], prev[CFG_PATH_MAX + 8];
    snprintf(base, sizeof base, "%s.ckpt", c->record);
    snprintf(prev, sizeof prev, "%s%s", c->checkpoint, CHECKPOINT_PREVIOUS_SUFFIX);
    if (c->checkpoint[0] && (!strcmp(c->record, c->checkpoint) || !strcmp(c->record, prev) ||
                             !strcmp(base, c->checkpoint) || !strcmp(base, prev)))
        return nv_error_set(err, "record '%s' (and its base checkpoint %s) must not be the checkpoint file '%s'",
                            c->record, base, c->checkpoint);
    if (c->restore[0] && !strcmp(c->record, c->restore))
        return nv_error_set(err, "record '%s' must not be the restore file", c->record);
    return 0;
}

int cfg_finish(cfg_server* c, nv_error* err) {
    /* A restored server takes its world, tick rate and fleet from the
     * checkpoint: boats and tick_hz stay unresolved (-1 / 0) so that the
     * restore can say which given settings it ignores. A supervisor restarts
     * with the same flags, so the checkpoints go on where they came from. */
    if (c->restore[0] && !c->checkpoint[0]) snprintf(c->checkpoint, sizeof c->checkpoint, "%s", c->restore);
    /* Each checkpoint copies the world on the loop thread: not every tick. */
    if (c->lod_columns_within < c->lod_mesh_within)
        return nv_error_set(err, "lod.columns_within (%g m) must not be less than lod.mesh_within (%g m)",
                            c->lod_columns_within, c->lod_mesh_within);
    if (c->checkpoint_interval_s > 0.0 && c->checkpoint_interval_s < 0.1)
        return nv_error_set(err, "checkpoint_interval_s: 0 (only at shutdown) or at least 0.1 s (got %g)",
                            c->checkpoint_interval_s);
    {
        const char* sea = c->sea_beaufort >= 0 ? "beaufort"
                          : c->sea_wind >= 0   ? "wind"
                          : c->sea_hs >= 0     ? "hs"
                          : c->sea_tp >= 0     ? "tp"
                          : c->sea_wind_dir != CFG_WIND_DIR_UNSET ? "wind_dir"
                                               : NULL;
        if (sea && (c->scenario[0] || c->restore[0]))
            return nv_error_set(err, "%s (--%s) sets the default world's sea: a %s brings its own ocean", sea,
                                strcmp(sea, "wind_dir") ? sea : "wind-dir", c->scenario[0] ? "scenario" : "restored checkpoint");
        if (c->sea_beaufort >= 0 && (c->sea_wind >= 0 || c->sea_hs >= 0))
            return nv_error_set(err, "beaufort (--beaufort) sets the wind and Hs: give it alone, or wind and hs");
        if (c->sea_tp >= 0 && c->sea_hs < 0)
            return nv_error_set(err, "tp (--tp) is the period of the --hs sea: give hs too");
    }
    if (c->restore_if_present && !c->restore[0])
        return nv_error_set(err, "restore_if_present needs restore (the checkpoint file to resume from)");
    /* Only absence counts: a file that is there but unreadable or corrupt
     * is the restore's to refuse, never a reason to start a new world; and
     * a temporary file a killed writer left may hold the newest checkpoint
     * (nv_checkpoint_find_newest), so it counts as present too. */
    char prev[CFG_PATH_MAX + 8], temps[CFG_PATH_MAX + 16];
    snprintf(prev, sizeof prev, "%s%s", c->restore, CHECKPOINT_PREVIOUS_SUFFIX);
    snprintf(temps, sizeof temps, "%s.tmp.*", c->restore);
    struct stat found;
    int any_temp = 0;
    if (c->restore[0]) {
        glob_t left;
        any_temp = glob(temps, GLOB_NOSORT, NULL, &left) == 0 && left.gl_pathc > 0;
        globfree(&left);
    }
    if (c->restore[0] && c->restore_if_present && !any_temp && stat(c->restore, &found) != 0 && errno == ENOENT &&
        stat(prev, &found) != 0 && errno == ENOENT) {
        c->restore_absent = 1;
        c->restore[0] = '\0';
    }
    if (c->boats < 0 && !c->restore[0]) c->boats = c->scenario[0] ? 0 : 200;
    if (c->threads == 0) c->threads = nv_jobs_hardware_threads();
    if (c->tick_hz == 0 && !c->scenario[0] && !c->restore[0]) c->tick_hz = 60;
    if (cfg_resolve_agones_url(c, err) || cfg_check_files(c, err)) return -1;
#ifdef NAVAL_DEFAULT_WEB_ROOT
    /* The build tree's web client once it is bundled; without it the
     * server falls back to its built-in page rather than failing. */
    if (!c->web_root[0]) {
        char index[CFG_PATH_MAX + 16];
        struct stat st;
        snprintf(index, sizeof index, "%s/index.html", NAVAL_DEFAULT_WEB_ROOT);
        if (stat(index, &st) == 0 && S_ISREG(st.st_mode))
            snprintf(c->web_root, sizeof c->web_root, "%s", NAVAL_DEFAULT_WEB_ROOT);
    }
#endif
    {
        const char* urls[4] = {c->snapshot_url, c->compact_url, c->command_url, c->view_url};
        for (int i = 0; i < 4; i++)
            for (int j = i + 1; j < 4; j++)
                if (cfg_same_endpoint(urls[i], urls[j]))
                    return nv_error_set(err, "snapshot_url, compact_url, command_url and view_url must differ (two are "
                                             "'%s')", urls[i]);
    }
    if (c->limits.view_budget_kbps > c->limits.max_view_budget_kbps)
        return nv_error_set(err, "limits.view_budget_kbps (%g) is over limits.max_view_budget_kbps (%g)",
                            c->limits.view_budget_kbps, c->limits.max_view_budget_kbps);
    if (!c->snapshot_url[0] && !c->http[0])
        return nv_error_set(err, "no way to receive snapshots: give snapshot_url or http");
    if (c->limits.request_burst < 1) c->limits.request_burst = 1;
    if (c->web_root[0]) {
        struct stat st;
        if (stat(c->web_root, &st) != 0 || !S_ISDIR(st.st_mode))
            return nv_error_set(err, "web_root: '%s' is not a folder", c->web_root);
    }
    return 0;
}

static void cfg_print_string(FILE* out, const char* s) {
    fputc('"', out);
    for (const unsigned char* p = (const unsigned char*)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

void cfg_print_json(const cfg_server* c, FILE* out) {
    fputs("{", out);
    int in_limits = 0;
    for (size_t i = 0; i < CFG_COUNT; i++) {
        const cfg_entry* e = &cfg_table[i];
        const char* dot = strchr(e->key, '.');
        if (dot && !in_limits) {
            fputs(", \"limits\": {", out);
            in_limits = 1;
        } else if (i) {
            fputs(", ", out);
        }
        cfg_print_string(out, dot ? dot + 1 : e->key);
        fputs(": ", out);
        const char* base = (const char*)c + e->offset;
        if (e->kind == CFG_BOOL) fputs(*(const double*)base != 0 ? "true" : "false", out);
        else if (e->kind != CFG_STR) fprintf(out, "%.15g", *(const double*)base);
        else if (e->check == cfg_check_secret) cfg_print_string(out, base[0] ? "(set)" : "");
        else cfg_print_string(out, base);
    }
    fputs(in_limits ? "}}\n" : "}\n", out);
}

/* What a flag's value looks like, for the usage text. */
static const char* cfg_metavar(const cfg_entry* e) {
    if (e->kind == CFG_BOOL) return "";
    if (e->kind != CFG_STR) return e->kind == CFG_INT ? "N" : "X";
    if (e->check == cfg_check_url) return "URL";
    if (e->check == cfg_check_hostport) return "HOST:PORT";
    if (e->check == cfg_check_level) return "LEVEL";
    if (e->check == cfg_check_http_url) return "URL";
    if (!strcmp(e->key, "scenario") || !strcmp(e->key, "checkpoint") || !strcmp(e->key, "restore") ||
        !strcmp(e->key, "record"))
        return "FILE";
    if (!strcmp(e->key, "web_root")) return "DIR";
    return "TEXT";
}

void cfg_print_usage(FILE* out) {
    for (size_t i = 0; i < CFG_COUNT; i++) {
        const cfg_entry* e = &cfg_table[i];
        char left[64];
        if (e->flag && e->kind == CFG_BOOL) snprintf(left, sizeof left, "%s", e->flag);
        else if (e->flag) snprintf(left, sizeof left, "%s %s", e->flag, cfg_metavar(e));
        else left[0] = '\0';
        fprintf(out, "  %-26s %s\n  %-26s   %s, config key \"%s\"\n", left, e->help, "", e->env, e->key);
    }
}
