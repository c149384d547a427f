// SPDX-License-Identifier: MIT
/* The server's settings and their four sources, lowest priority first:
 * built-in defaults, a JSON file (--config FILE or NAVAL_CONFIG), NAVAL_*
 * environment variables, command-line flags. One table (config.c) names
 * each setting's JSON key, flag and variable, its type and range, so every
 * source is checked the same way and every message names what was wrong
 * and where it came from ("server.json: limits.vessels_per_client: must be
 * an integer in [0, 1000000] (got 1.5)", "--tick-hz: must be a number in
 * [1, 1000] Hz (got 'fast')"). The settings the world shares (tick_hz,
 * sunk_removal_depth, seed) take their ranges from naval/ranges.h. */
#ifndef NAVAL_SERVER_CONFIG_H
#define NAVAL_SERVER_CONFIG_H

#include <stdint.h>
#include <stdio.h>

#include "log.h"
#include "naval/nv_error.h"

#define CFG_URL_MAX 256
#define CFG_PATH_MAX 1024
#define CFG_NAME_MAX 64
#define CFG_SECRET_MAX 128
#define CFG_SECRET_MIN 16
/* The Agones SDK sidecar's REST port when AGONES_SDK_HTTP_PORT is not set. */
#define CFG_AGONES_PORT 9358

/* sea_wind_dir when not given (every direction in [-360, 360] is one). */
#define CFG_WIND_DIR_UNSET (-1000.0)

typedef struct cfg_limits {
    double max_request_bytes;   /* a bigger request gets LIMIT_EXCEEDED */
    double vessels_per_client;  /* live vessels one player (a connection, or those sharing a player identity) may own */
    double vessels_total;       /* vessels in the world, demo fleet included */
    double requests_per_second; /* per player, token bucket refill rate */
    double request_burst;       /* token bucket size */
    /* The same per remote address, all its connections and players
     * together: more connections cannot multiply the limits. */
    double vessels_per_address;
    double requests_per_second_per_address;
    double request_burst_per_address;
    /* Wrong admin tokens: this many from one address within the window
     * lock it out for admin_backoff_s, doubling with each one after. */
    double admin_token_failures;
    double admin_failure_window_s;
    double admin_backoff_s;
    double max_clients;         /* command connections tracked at once */
    double orphan_timeout_s;    /* a vessel whose connection closed is removed after this (0: never) */
    /* Connections (edge.h): caps and deadlines on every listener. */
    double max_connections;     /* open at once per listener */
    double max_connections_per_address; /* open at once from one IP address, all listeners together */
    double header_timeout_s;    /* an HTTP request head or SP handshake must complete within */
    double idle_timeout_s;      /* an idle keep-alive HTTP connection is closed after */
    double send_timeout_s;      /* a subscriber that has not taken a snapshot for this long is closed (0: never) */
    double max_header_bytes;    /* an HTTP request head (its request line: half) */
    double request_idle_timeout_s; /* a command connection with nothing asked or unanswered is closed after (0: never) */
    double view_idle_timeout_s; /* a player view that sends nothing (no acks) is closed after (0: never) */
    double message_timeout_s;   /* a message begun must arrive whole within (0: never) */
    /* Logging: routine events are summed per interval; no more lines per second than this. */
    double log_interval_s;
    double log_lines_per_second;
    /* Player views (view/view.h). */
    double max_views;           /* open at once */
    double max_view_radius;     /* m: nothing further from a view's discs reaches it */
    double view_budget_kbps;    /* a view that names no budget */
    double max_view_budget_kbps;
    double max_view_vessels;    /* per view */
    double view_hz;             /* updates per second per view, at most */
} cfg_limits;

/* Numbers are doubles so that one range check serves every source;
 * integer settings are checked to be whole, switches are 0 or 1. */
typedef struct cfg_server {
    char server_name[CFG_NAME_MAX];
    char snapshot_url[CFG_URL_MAX]; /* "" disables the tcp stream (ws stays) */
    char compact_url[CFG_URL_MAX];  /* "" disables the compact stream */
    char command_url[CFG_URL_MAX];  /* "" disables the tcp command socket */
    char view_url[CFG_URL_MAX];     /* "" disables the tcp player views (ws stays) */
    char http[CFG_URL_MAX];         /* "HOST:PORT"; "" disables HTTP and WebSocket */
    char web_root[CFG_PATH_MAX];    /* "" : the build tree's clients/web/dist when bundled */
    char scenario[CFG_PATH_MAX];    /* "" : the default world */
    char terrain[CFG_PATH_MAX];     /* "" : the scenario's, or builtin:harbour on the default world */
    char admin_token[CFG_SECRET_MAX];
    char log_level[16];
    double boats;                   /* demo fleet; -1: 200 on the default world, 0 with a scenario */
    double tick_hz;                 /* 0: 60, or the scenario's */
    double sunk_removal_depth;      /* m; -1: the scenario's, or SIM_DEFAULT_SUNK_REMOVAL_DEPTH on the default world */
    double threads;                 /* 0: the machine's */
    double seed;
    double max_catchup;             /* steps one loop turn may run to catch up */
    double keyframe_interval;       /* ticks between compact keyframes */
    double command_contexts;        /* requests in flight at once per command connection */
    double snapshot_queue;          /* messages queued per subscriber before the oldest is dropped */
    double area;                    /* demo fleet's half-width, m (0: from the fleet size) */
    /* Keeping the world across restarts, recording it, Agones. */
    char checkpoint[CFG_PATH_MAX];  /* "" : no checkpoints; with restore set, defaults to it */
    double checkpoint_interval_s;   /* between checkpoints (0: only at shutdown) */
    char restore[CFG_PATH_MAX];     /* "" : build the world; else resume from this checkpoint (or its .prev) */
    double restore_if_present;      /* 0 / 1: with restore, a first start (neither file there) builds the world */
    int restore_absent;             /* set by cfg_finish: restore_if_present found nothing, restore cleared */
    char record[CFG_PATH_MAX];      /* "" : no record log */
    double record_hash_interval;    /* ticks between state hashes in the record log */
    double record_max_bytes;        /* a record file's cap: the log goes on in the next file (0: none) */
    double record_keep;             /* record files kept, the newest (0: all) */
    double agones;                  /* 0 / 1: call the Agones SDK sidecar */
    char agones_url[CFG_URL_MAX];   /* the sidecar's REST base URL ("" : from AGONES_SDK_HTTP_PORT, else 9358) */
    /* Levels of detail: vessels spawned by game clients are players; the
     * others meet the water with the mesh near one, with columns farther
     * and as floaters beyond (include/naval/world.h world_lod). */
    double lod;                     /* 0 / 1 */
    double lod_mesh_within;         /* m */
    double lod_columns_within;      /* m */
    /* The default world's sea (naval/ocean.h); -1: unset (the default
     * 9 m/s JONSWAP sea). Refused with a scenario or a restore: their
     * ocean is their own. */
    double sea_beaufort;            /* 0..12: sets the wind and Hs */
    double sea_wind;                /* U10, m/s */
    double sea_hs;                  /* target significant height, m */
    double sea_tp;                  /* peak period of the --hs sea, s */
    double sea_wind_dir;            /* degrees about +y from +x toward -z; CFG_WIND_DIR_UNSET */
    /* Spawns go to the nearest free water (nv_world_find_free_water). */
    double spawn_search;            /* m searched around the asked position */
    double spawn_clearance;         /* m kept from other hulls, structures and the ground */
    double spawn_anywhere;          /* 0 / 1: spawns go exactly where asked (staged scenes, tests) */
    double private_streams;         /* 0 / 1: full and compact streams for clients on this host only */
    cfg_limits limits;
} cfg_server;

void cfg_defaults(cfg_server* c);

/* One value from a source: `source` labels messages ("--boats",
 * "NAVAL_BOATS"). name is a flag ("--boats") or a variable ("NAVAL_BOATS"). */
typedef enum cfg_origin { CFG_FROM_FLAG, CFG_FROM_ENV } cfg_origin;
/* 1 when `name` is a known flag or variable, 0 when not (value untouched). */
int cfg_is_known(cfg_origin origin, const char* name);
/* 1 when the flag is a switch: given alone it means 1 and takes no value. */
int cfg_is_switch(const char* flag);
int cfg_set_text(cfg_server* c, cfg_origin origin, const char* name, const char* value, nv_error* err);

/* The JSON file: strict keys (an unknown key is named), types and ranges. */
int cfg_load_file(cfg_server* c, const char* path, nv_error* err);
/* The same from text in memory; `name` labels messages. */
int cfg_parse_text(cfg_server* c, const char* text, size_t length, const char* name, nv_error* err);
/* Every NAVAL_* variable of the table that is set; `unknown` (may be NULL)
 * receives the first NAVAL_* name that is not a setting (a likely typo). */
int cfg_load_env(cfg_server* c, char* unknown, size_t unknown_size, nv_error* err);

/* Cross-field checks and the resolution of automatic values (boats,
 * threads); call after every source. Does not read the scenario file. */
int cfg_finish(cfg_server* c, nv_error* err);

/* Settings as JSON (the admin token hidden). */
void cfg_print_json(const cfg_server* c, FILE* out);
/* The usage text's settings part: flag, variable, meaning, default. */
void cfg_print_usage(FILE* out);

#endif
