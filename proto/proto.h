// SPDX-License-Identifier: MIT
/* The wire protocol (schema proto/naval.fbs, FlatBuffers) behind a plain C
 * API: snapshots (full and compact), world info, hull meshes, requests and
 * responses. The FlatBuffers code lives in one C++ unit (proto_codec.cpp);
 * nothing here throws, every function reports failure by its return value
 * and a message in a proto_error.
 *
 * Conventions (docs/protocol.md has the details):
 * - SI units, the world frame of docs/architecture.md (+y up).
 * - Every message starts with a 4-byte file identifier (PROTO_ID_*), one per
 *   message kind; a decoder rejects any other kind.
 * - Decoders treat input as hostile: the size is capped (proto_limits), the
 *   buffer is verified (flatbuffers::Verifier or the compact bit reader's
 *   bounds checks), strings and counts are checked against the limits, and
 *   on error the output holds no pointer into the input.
 * - Encoders reject values the wire cannot carry (names too long, counts
 *   over the limits, non-finite controls) instead of truncating them.
 *
 * Ownership: a struct that a decoder filled owns its arrays (the *_capacity
 * fields are non-zero) and keeps them for the next decode into it, so a
 * client that decodes every tick into the same struct stops allocating once
 * the arrays are big enough; free it with its proto_free_* function. A
 * struct the caller filled for an encoder owns nothing of proto's (leave
 * the capacities 0 and the proto_free_* functions leave its pointers alone).
 * Zero-initialise every struct ({0}) before its first use.
 *
 * Threads: no global state. Distinct objects may be used on distinct threads
 * at once; one object (proto_buf, encoder, decoder, decoded struct) by one
 * thread at a time.
 *
 * Why proto has its own error struct instead of core's nv_error: clients
 * and relays link this library without the simulation core (FFTW, libuv). */
#ifndef NAVAL_PROTO_H
#define NAVAL_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "naval/nv_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when a change breaks old readers (a field or union member removed
 * or retyped). Adding fields at the end of a table or members at the end of
 * a union keeps the version: old readers ignore what they do not know. */
#define PROTO_VERSION 1

/* File identifiers (bytes 4..7 of every message). */
#define PROTO_ID_SNAPSHOT "NVSS"
#define PROTO_ID_COMPACT "NVCS"
#define PROTO_ID_WORLD_INFO "NVWI"
#define PROTO_ID_HULL "NVHL"
#define PROTO_ID_REQUEST "NVRQ"
#define PROTO_ID_RESPONSE "NVRS"
#define PROTO_ID_VIEW_REQUEST "NVVR"
#define PROTO_ID_VIEW_UPDATE "NVVU"

#define PROTO_NAME_MAX 64      /* names, NUL included (63 bytes on the wire at most) */
#define PROTO_SECRET_MAX 128   /* the admin token string, NUL included */
#define PROTO_ERROR_MAX 256    /* a response's error text, NUL included */
#define PROTO_MAX_CASCADES 4   /* = core's OCEAN_MAX_CASCADES */
#define PROTO_MAX_TYPES 1024u  /* = core's WORLD_MAX_HULL_TYPES */

/* The library's one error type (naval/nv_error.h): decoding failures are
 * NV_EPROTO, bad arguments NV_EINVAL, sizes over a limit NV_ELIMIT. */
typedef nv_error proto_error;

/* ---- output buffer ------------------------------------------------------ */

/* Where encoders write. After a successful encode, data/size is the whole
 * message, valid until the next encode into the same buffer or
 * proto_free_buf; the memory (and the FlatBuffers builder in `impl`) is
 * kept, so encoding every tick into one buffer allocates nothing once it
 * has grown to the message size. On failure size is 0. */
typedef struct proto_buf {
    const uint8_t* data;
    size_t size;
    /* private */
    uint8_t* mem;
    size_t capacity;
    void* impl;
} proto_buf;

void proto_free_buf(proto_buf* b);

/* ---- limits --------------------------------------------------------------- */

/* Caps a decoder applies before it allocates or copies anything. A message
 * over a cap is an error, never a truncation. */
typedef struct proto_limits {
    size_t max_message_size;      /* bytes (256 MiB) */
    uint32_t max_vessels;         /* per snapshot (1 << 22); contacts per snapshot too */
    uint32_t max_types;           /* vessel types in world info (PROTO_MAX_TYPES) */
    uint32_t max_hull_vertices;   /* (1 << 20) */
    uint32_t max_hull_triangles;  /* (1 << 21) */
} proto_limits;

proto_limits proto_default_limits(void);

/* Which message this is, from its identifier (no verification: a decoder
 * still has to accept it). */
typedef enum proto_kind {
    PROTO_KIND_UNKNOWN = 0,
    PROTO_KIND_SNAPSHOT,
    PROTO_KIND_COMPACT,
    PROTO_KIND_WORLD_INFO,
    PROTO_KIND_HULL,
    PROTO_KIND_REQUEST,
    PROTO_KIND_RESPONSE,
    PROTO_KIND_VIEW_REQUEST,
    PROTO_KIND_VIEW_UPDATE
} proto_kind;

proto_kind proto_identify(const void* data, size_t size);

/* ---- snapshots ------------------------------------------------------------ */

/* One vessel's state; the same 72-byte layout as the wire's VesselState
 * struct. Position in double: a world is tens of km wide, and a float
 * (24-bit mantissa) holds only ~2-4 mm at 16-32 km from the origin, which
 * shows as jitter and breaks exact replays; the full snapshot carries the
 * server's state to the bit in position (the compact encoding is where
 * bytes are saved). Orientation and velocities are floats: 1e-7 relative. */
typedef struct proto_vessel {
    uint32_t id;
    uint16_t type;                /* vessel type index (world info) */
    uint16_t flags;               /* PROTO_VESSEL_* */
    double position[3];           /* CG, world frame, m */
    float orientation[4];         /* unit quaternion body -> world, (x, y, z, w) */
    float velocity[3];            /* CG, world frame, m/s */
    float angular_velocity[3];    /* world frame, rad/s */
} proto_vessel;

enum {
    PROTO_VESSEL_FROZEN = 1u << 0, /* = core's WORLD_VESSEL_FROZEN */
    PROTO_VESSEL_PLAYER = 1u << 1, /* = core's WORLD_VESSEL_PLAYER: levels of detail follow it */
    PROTO_VESSEL_MODEL_SHIFT = 2,  /* bits 2-3: core's world_model (0 mesh, 1 columns, 2 floater) */
    PROTO_VESSEL_MODEL_MASK = 3u << 2,
    PROTO_VESSEL_GROUNDED = 1u << 4, /* = core's WORLD_VESSEL_GROUNDED: touched the ground in the last step */
    PROTO_VESSEL_CAPSIZED = 1u << 5, /* nv_world_capsized(orientation): heeled past 90 degrees (keel-up) */
};

/* A contact that began at `tick` (the wire's Contact, 64 bytes). */
#define PROTO_CONTACT_GROUND UINT32_MAX /* b of a contact with the ground or a structure */
typedef struct proto_contact {
    uint64_t tick;
    uint32_t a, b;           /* vessel ids; b PROTO_CONTACT_GROUND for the ground */
    double point[3];         /* world, m */
    float normal[3];         /* unit, the way a is pushed */
    float closing_speed;     /* m/s */
    float impulse;           /* N s */
    uint32_t structure;      /* with b PROTO_CONTACT_GROUND: 0 the terrain, k + 1 structure k */
} proto_contact;

/* Damage (the wire's DamageEvent, 32 bytes; kinds as core's world_damage_kind). */
enum {
    PROTO_DAMAGE_BREACH = 0,
    PROTO_DAMAGE_FULL = 1,
    PROTO_DAMAGE_CAPSIZED = 2,
    PROTO_DAMAGE_SUNK = 3,
    PROTO_DAMAGE_REMOVED = 4,
};
#define PROTO_DAMAGE_NO_COMPARTMENT 255u
typedef struct proto_damage_event {
    uint64_t tick;
    uint32_t id;
    uint8_t kind;
    uint8_t compartment;     /* breach, full; else PROTO_DAMAGE_NO_COMPARTMENT */
    uint16_t pad;            /* 0 */
    float area;              /* breach: m^2 */
    float point[3];          /* breach: body frame about the CG, m */
} proto_damage_event;

/* A damaged vessel (the wire's VesselDamage). */
#define PROTO_MAX_COMPARTMENTS 64u
enum { PROTO_DAMAGE_PUMPING = 1u << 0, PROTO_DAMAGE_SUNK_FLAG = 1u << 1 };
typedef struct proto_vessel_damage {
    uint32_t id;
    uint8_t flags;           /* PROTO_DAMAGE_PUMPING, PROTO_DAMAGE_SUNK_FLAG */
    uint8_t holes;
    uint8_t compartment_count;
    uint8_t fill[PROTO_MAX_COMPARTMENTS]; /* water / volume x 255, rounded */
} proto_vessel_damage;

/* Per-tick figures the server measured (all optional: 0 when unknown). */
typedef struct proto_tick_stats {
    float step_ms;        /* the world step */
    float water_ms, vertex_ms, triangle_ms, integrate_ms;
    float snapshot_ms;    /* building + publishing the previous snapshot */
    uint32_t vessel_count;  /* in the world (a snapshot may carry fewer) */
    uint32_t subscribers;
    uint64_t overruns;    /* ticks late since start */
    float lod_ms;         /* levels of detail, part of step_ms */
    uint16_t command_port; /* the server's tcp request port (0: none), so that a
                              subscriber finds world info on any port layout */
} proto_tick_stats;

typedef struct proto_snapshot {
    uint64_t tick;
    double sim_time;         /* s, world time after this tick */
    uint64_t send_time_ns;   /* server wall clock (CLOCK_REALTIME) when built, ns since 1970 */
    proto_tick_stats stats;
    proto_vessel* vessels;
    uint32_t vessel_count;
    uint32_t vessel_capacity;  /* decoder-owned storage; 0 when the caller's */
    proto_contact* contacts;   /* begun since the previous snapshot */
    uint32_t contact_count;
    uint32_t contact_capacity; /* decoder-owned storage; 0 when the caller's */
    proto_vessel_damage* damage; /* damaged vessels among `vessels` */
    uint32_t damage_count;
    uint32_t damage_capacity;  /* decoder-owned storage; 0 when the caller's */
    proto_damage_event* damage_events; /* since the previous snapshot */
    uint32_t damage_event_count;
    uint32_t damage_event_capacity; /* decoder-owned storage; 0 when the caller's */
} proto_snapshot;

/* Full snapshot (PROTO_ID_SNAPSHOT): 72 bytes per vessel + ~72 of header.
 * Reads s (vessel_count entries of s->vessels); never keeps a pointer. */
int proto_encode_snapshot(proto_buf* out, const proto_snapshot* s, proto_error* err);
/* Fills *out (header and vessels, in the sent order), growing out->vessels
 * as needed (at most limits->max_vessels). limits NULL: the defaults. On
 * error *out keeps its storage, vessel_count is 0. */
int proto_decode_snapshot(const void* data, size_t size, const proto_limits* limits, proto_snapshot* out,
                          proto_error* err);
void proto_free_snapshot(proto_snapshot* s);

/* ---- compact snapshots (proto_compact.c) --------------------------------- */

/* Quantisation steps. Decoded values are within half a step of the sent
 * ones, per component (see docs/protocol.md for the orientation's angle). */
#define PROTO_COMPACT_POS_STEP (1.0 / 512.0)      /* m, relative to the keyframe origin */
#define PROTO_COMPACT_VEL_STEP (1.0 / 128.0)      /* m/s */
#define PROTO_COMPACT_ANGVEL_STEP (1.0 / 512.0)   /* rad/s */
#define PROTO_COMPACT_ORI_BITS 11                 /* smallest three, per component */
/* Step of each of the three smallest quaternion components (the largest is
 * rebuilt from them): sqrt(2) / (2^bits - 1). */
#define PROTO_COMPACT_ORI_STEP (1.4142135623730951 / (double)((1u << PROTO_COMPACT_ORI_BITS) - 1u))
/* Positions further than this from the keyframe origin (per axis), and
 * velocities or rates too large for the widest field, go as raw floats
 * ("raw" records): exact, never wrong, just bigger. */
#define PROTO_COMPACT_POS_RANGE ((double)(1u << 26) * PROTO_COMPACT_POS_STEP)  /* 131 072 m */

/* Keyframes carry every vessel (quantised); the snapshots between carry,
 * per vessel, the difference to the last keyframe's quantised values (PUB
 * has no acks: a client that misses a snapshot loses nothing, one that
 * missed the keyframe waits for the next). Vessels new since the keyframe
 * go whole; despawned ones are marked gone. */
typedef struct proto_compact_encoder proto_compact_encoder;

/* keyframe_interval: ticks from one keyframe to the next (>= 1; 1 sends
 * only keyframes). NULL on failure (allocation, bad interval). */
proto_compact_encoder* proto_create_compact_encoder(uint32_t keyframe_interval, proto_error* err);
void proto_destroy_compact_encoder(proto_compact_encoder* e);
/* The next encode is a keyframe (e.g. after the world was reset). */
void proto_force_keyframe(proto_compact_encoder* e);
/* Encodes s (PROTO_ID_COMPACT) as a keyframe when one is due, else as a
 * delta. *is_keyframe (may be NULL) says which. Reads s, keeps nothing of
 * it but the quantised keyframe. Ticks must not go backwards (a smaller
 * tick forces a keyframe). */
int proto_encode_compact(proto_compact_encoder* e, const proto_snapshot* s, proto_buf* out, int* is_keyframe,
                         proto_error* err);

typedef struct proto_compact_decoder proto_compact_decoder;

proto_compact_decoder* proto_create_compact_decoder(proto_error* err);
void proto_destroy_compact_decoder(proto_compact_decoder* d);

/* Returned by proto_decode_compact for a delta against a keyframe this
 * decoder does not hold (joined late, or the keyframe was dropped): not an
 * error; *out is untouched; wait for the next keyframe. */
#define PROTO_NEED_KEYFRAME 1

/* 0: *out holds the snapshot (vessels in keyframe order, then new ones:
 * not the server's order; find vessels by id). PROTO_NEED_KEYFRAME: see
 * above. -1: malformed (the decoder forgets its keyframe only if the bad
 * message was a keyframe). */
int proto_decode_compact(proto_compact_decoder* d, const void* data, size_t size, const proto_limits* limits,
                         proto_snapshot* out, proto_error* err);

/* ---- world info --------------------------------------------------------- */

/* Everything core's ocean_params holds, as the server configured it, so
 * that a client calling nv_ocean_create on the same values gets the same sea;
 * enums keep core's numbers (spectrum_type, spreading_type). */
typedef struct proto_ocean_spec {
    uint8_t spectrum;          /* 0 Phillips, 1 Pierson-Moskowitz, 2 JONSWAP, 3 TMA */
    uint8_t spreading;         /* 0 auto, 1 cos^2, 2 Mitsuyasu, 3 Donelan-Banner */
    double gravity;            /* m/s^2 */
    double wind_speed;         /* m/s */
    double wind_direction;     /* degrees about +y from +x toward -z, as headings */
    double fetch;              /* m */
    double depth;              /* m, 0 = deep */
    double gamma, swell, choppiness;
    int32_t beaufort;          /* -1 = unused */
    double hs_target;          /* m, 0 = off */
    double size;               /* cascade 0's tile, m */
    double cascade_ratio;
    int32_t cascades;          /* 1..PROTO_MAX_CASCADES */
    int32_t resolution, resolution_z;
    double repeat_period;      /* s */
    double min_wavelength;     /* m */
    uint64_t seed;
    int32_t query_iterations;
    double query_tolerance;    /* m */
    int32_t surface_grid;
    double patch_sizes[PROTO_MAX_CASCADES]; /* each cascade's tile, m (derived; cascades used) */
    double time;               /* the ocean's time at the world info's sim_time, s */
    double tp;                 /* s, peak period of the hs_target sea; 0 = from the wind */
} proto_ocean_spec;

typedef struct proto_vessel_type {
    uint16_t type;                 /* index used by snapshots and spawn */
    char name[PROTO_NAME_MAX];
    double mass;                   /* kg */
    float bounds_min[3], bounds_max[3];  /* hull box in the body frame (about the CG), m */
    uint32_t vertex_count, triangle_count;
    uint32_t compartment_count;    /* 0: none (cannot be holed) */
    float compartment_volumes[PROTO_MAX_COMPARTMENTS]; /* m^3 */
    float pump_rate;               /* m^3/s per compartment; 0: none */
} proto_vessel_type;

/* The ground for renderers (the wire's TerrainInfo). */
#define PROTO_TERRAIN_MAX_NODES 256u /* per axis */
typedef struct proto_terrain_info {
    int present;                   /* 0: open deep sea, the rest unused */
    double origin_x, origin_z;     /* node (0, 0), m */
    double cell_size;              /* m between nodes */
    uint32_t nx, nz;               /* 2..PROTO_TERRAIN_MAX_NODES each */
    float min_elevation, max_elevation; /* m at height 0 and 65535 */
    uint16_t* heights;             /* nx * nz, row j (z) after row j - 1 */
    uint32_t height_capacity;      /* decoder-owned storage; 0 when the caller's */
} proto_terrain_info;

/* A structure vessels collide with (the wire's StructureInfo): its convex
 * hull as triangles, world frame. */
#define PROTO_MAX_STRUCTURES 4096u /* = SCENARIO_MAX_STRUCTURES */
typedef struct proto_structure_info {
    float* vertices;               /* 3 per vertex, m */
    uint32_t vertex_count;
    uint32_t* indices;             /* 3 per triangle, each < vertex_count, counter-clockwise from outside */
    uint32_t triangle_count;
    uint32_t vertex_capacity, index_capacity; /* decoder-owned storage (floats, indices) */
} proto_structure_info;

typedef struct proto_world_info {
    uint16_t protocol_version;     /* the encoder writes PROTO_VERSION */
    char server_name[PROTO_NAME_MAX];
    double tick_hz;
    uint64_t tick;                 /* when this was taken */
    double sim_time;               /* s */
    double gravity, water_density;
    int has_ocean;                 /* 0: flat water at y = 0, `ocean` unused */
    proto_ocean_spec ocean;
    proto_vessel_type* types;
    uint32_t type_count;
    uint32_t type_capacity;        /* decoder-owned storage */
    proto_terrain_info terrain;
    proto_structure_info* structures;
    uint32_t structure_count;
    uint32_t structure_capacity;   /* decoder-owned storage */
} proto_world_info;

int proto_encode_world_info(proto_buf* out, const proto_world_info* w, proto_error* err);
int proto_decode_world_info(const void* data, size_t size, const proto_limits* limits, proto_world_info* out,
                            proto_error* err);
void proto_free_world_info(proto_world_info* w);

/* ---- hull meshes ---------------------------------------------------------- */

/* A vessel type's triangle mesh for drawing: body frame about the CG, m,
 * counter-clockwise seen from outside. */
typedef struct proto_hull {
    uint16_t type;
    char name[PROTO_NAME_MAX];
    float* vertices;               /* 3 per vertex */
    uint32_t vertex_count;
    uint32_t* indices;             /* 3 per triangle, each < vertex_count */
    uint32_t triangle_count;
    uint32_t vertex_capacity, index_capacity;  /* decoder-owned storage (floats, indices) */
} proto_hull;

int proto_encode_hull(proto_buf* out, const proto_hull* h, proto_error* err);
/* Rejects an index >= vertex_count. */
int proto_decode_hull(const void* data, size_t size, const proto_limits* limits, proto_hull* out,
                      proto_error* err);
void proto_free_hull(proto_hull* h);

/* ---- requests and responses ----------------------------------------------- */

typedef struct proto_token {
    uint8_t bytes[16];             /* random, from the OS; opaque */
} proto_token;

/* 1 when equal. Constant time: the comparison leaks nothing of where a
 * guessed token differs. */
int proto_equal_tokens(const proto_token* a, const proto_token* b);

/* What a request asks and what its response carries (the same numbers). */
typedef enum proto_body {
    PROTO_BODY_NONE = 0,
    PROTO_BODY_HELLO = 1,
    PROTO_BODY_SPAWN = 2,
    PROTO_BODY_CONTROL = 3,
    PROTO_BODY_DESPAWN = 4,
    PROTO_BODY_WORLD_INFO = 5,
    PROTO_BODY_HULL = 6,
    PROTO_BODY_STATS = 7,
    PROTO_BODY_DAMAGE = 8,
    PROTO_BODY_PUMPS = 9
} proto_body;

typedef enum proto_status {
    PROTO_STATUS_OK = 0,
    PROTO_STATUS_BAD_REQUEST = 1,     /* malformed, wrong kind, bad values */
    PROTO_STATUS_UNAUTHORIZED = 2,    /* wrong control token or admin token */
    PROTO_STATUS_NOT_FOUND = 3,       /* no such vessel / vessel type */
    PROTO_STATUS_LIMIT_EXCEEDED = 4,  /* vessels per client or in total, message size */
    PROTO_STATUS_RATE_LIMITED = 5,    /* too many requests per second */
    PROTO_STATUS_UNSUPPORTED = 6,     /* protocol version, unknown request */
    PROTO_STATUS_INTERNAL = 7,        /* the server failed; the request may be retried */
    PROTO_STATUS_SHUTTING_DOWN = 8
} proto_status;

const char* proto_status_name(proto_status s);  /* "ok", "bad_request", ...; never NULL */
/* The status that answers a request which failed with that code: the
 * caller's fault (NV_EINVAL, NV_ESTATE, NV_EPROTO) is BAD_REQUEST,
 * NV_ENOENT NOT_FOUND, NV_ELIMIT LIMIT_EXCEEDED, NV_ECLOSED SHUTTING_DOWN,
 * the rest (memory, files, the library's own failure) INTERNAL. */
proto_status proto_status_of(nv_code code);

typedef struct proto_hello {
    uint16_t protocol_version;     /* the client's PROTO_VERSION */
    char client_name[PROTO_NAME_MAX];
    /* Optional: the secret that names the player this connection plays as
     * (connections presenting the same one share its limits). */
    uint8_t has_player;
    proto_token player;
} proto_hello;

/* Spawn afloat at (x, z): the server finds the height. */
typedef struct proto_spawn {
    uint16_t type;                 /* vessel type index, used when type_name is "" */
    char type_name[PROTO_NAME_MAX];
    double x, z;                   /* m */
    double heading;                /* rad about +y, from +x toward -z (as scenario files) */
} proto_spawn;

typedef struct proto_control {
    uint32_t vessel_id;
    proto_token token;
    float throttle;                /* [-1, 1]: full astern .. full ahead */
    float rudder;                  /* [-1, 1]: full port .. full starboard */
} proto_control;

typedef struct proto_despawn {
    uint32_t vessel_id;
    proto_token token;
} proto_despawn;

typedef struct proto_get_hull {
    uint16_t type;
} proto_get_hull;

/* Admin only: a hole of `area` m^2 at `point` (body frame about the CG).
 * Both ends refuse a non-finite point and an area outside (0, max]. */
#define PROTO_MAX_HOLE_AREA 100.0
typedef struct proto_damage {
    uint32_t vessel_id;
    float point[3];
    float area;
} proto_damage;

typedef struct proto_pumps {
    uint32_t vessel_id;
    proto_token token;
    uint8_t on;
} proto_pumps;

typedef struct proto_request {
    uint64_t request_id;           /* echoed in the response */
    char admin_token[PROTO_SECRET_MAX];  /* "" when none */
    proto_body kind;               /* WORLD_INFO and STATS carry no fields */
    union {
        proto_hello hello;
        proto_spawn spawn;
        proto_control control;
        proto_despawn despawn;
        proto_get_hull get_hull;
        proto_damage damage;
        proto_pumps pumps;
    } body;
} proto_request;

/* Requests are small and fixed-size: encode and decode allocate nothing
 * (but the proto_buf's first growth). The decoder rejects NONE, unknown
 * kinds, a kind whose table does not match, a missing token, throttle or
 * rudder outside [-1, 1] or non-finite, non-finite spawn values, names that
 * do not fit. */
int proto_encode_request(proto_buf* out, const proto_request* r, proto_error* err);
int proto_decode_request(const void* data, size_t size, const proto_limits* limits, proto_request* out,
                         proto_error* err);
/* A request's id, read with bounds checks from a buffer that may fail
 * decoding (0 when even that cannot be read): refusals name it too. A
 * failed proto_decode_request leaves it in out->request_id as well. */
uint64_t proto_request_id(const void* data, size_t size);

typedef struct proto_hello_reply {
    uint16_t protocol_version;     /* the server's */
    char server_name[PROTO_NAME_MAX];
    double tick_hz;
    uint32_t max_vessels_per_client;  /* per player */
    /* The connection's player: the one the hello presented, or one the
     * server made; present it in the hellos of further connections to
     * share the player's limits. has_player 0: an older server. */
    uint8_t has_player;
    proto_token player;
} proto_hello_reply;

typedef struct proto_spawn_reply {
    uint32_t vessel_id;
    proto_token token;             /* needed by control and despawn */
    double x, z;                   /* m: where it went (the nearest free water to the request) */
} proto_spawn_reply;

typedef struct proto_stats {
    uint64_t tick;
    double sim_time, uptime_s, tick_hz;
    uint32_t vessel_count, clients, subscribers;
    float step_ms_p50, step_ms_p99, step_ms_max;
    uint64_t overruns, snapshots_sent, bytes_out, requests, request_errors;
} proto_stats;

/* status OK: `kind` says which member holds the answer (CONTROL and
 * DESPAWN carry none). Any other status: kind may name the request's kind
 * or be NONE, and `error` says why (never empty). world_info and hull are
 * members of their own because they own arrays (proto_free_response). */
typedef struct proto_response {
    uint64_t request_id;
    proto_status status;
    char error[PROTO_ERROR_MAX];
    proto_body kind;
    union {
        proto_hello_reply hello;
        proto_spawn_reply spawn;
        proto_stats stats;
        uint8_t damage_compartment; /* DAMAGE: the compartment holed */
    } body;
    proto_world_info world_info;
    proto_hull hull;
} proto_response;

int proto_encode_response(proto_buf* out, const proto_response* r, proto_error* err);
/* The short form for failures: status != OK and a message (printf-free,
 * truncated to PROTO_ERROR_MAX - 1 bytes at a UTF-8 boundary). */
int proto_encode_error_response(proto_buf* out, uint64_t request_id, proto_body kind, proto_status status,
                                const char* message, proto_error* err);
int proto_decode_response(const void* data, size_t size, const proto_limits* limits, proto_response* out,
                          proto_error* err);
void proto_free_response(proto_response* r);

/* ---- player views (proto_view.c, proto_view_decoder.c) -------------------- */

/* A view is one PAIR1 connection (docs/protocol.md, "Player views"): the
 * client sends ViewRequests (its acks, and its settings when they change),
 * the server ViewUpdates: the vessels that matter most to that client within
 * its bandwidth budget, each as a difference to the state the client last
 * acknowledged, predicted from the two last acknowledged states. */
#define PROTO_VIEW_MAX_OWN 32          /* own vessels per view */
#define PROTO_VIEW_POS_STEP (1.0 / 512.0)   /* m: positions are integers of this step, world frame */
#define PROTO_VIEW_POS_LIMIT (1 << 29)      /* steps: vessels further than 1,048,576 m from the origin are not sent */
#define PROTO_VIEW_HISTORY 16          /* samples a decoder keeps per vessel (newest first): 250 ms at 60 Hz */
#define PROTO_VIEW_MAX_DAMAGE_EVENTS 256 /* damage events one update carries at most (a decoder refuses more) */
#define PROTO_VIEW_MAX_CONTACTS 64 /* contacts one update carries at most (a decoder refuses more) */

typedef struct proto_view_own {
    uint32_t id;
    proto_token token;
} proto_view_own;

typedef struct proto_view_settings {
    double center[2];        /* x, z in m (ignored with follow_own) */
    float radius;            /* m */
    uint32_t budget_kbps;    /* 0: the server's default */
    int follow_own;          /* discs of `radius` around the own vessels */
    uint32_t own_count;
    proto_view_own own[PROTO_VIEW_MAX_OWN];
} proto_view_settings;

typedef struct proto_view_request {
    uint32_t ack;            /* newest update seq received, 0: none */
    uint32_t ack_mask;       /* bit k: update ack - 1 - k received */
    int has_settings;
    proto_view_settings settings;
} proto_view_request;

int proto_encode_view_request(proto_buf* out, const proto_view_request* r, proto_error* err);
/* Verifies and fills *out (radius, budget and centre must be finite and
 * non-negative where it matters; own ids at most PROTO_VIEW_MAX_OWN). */
int proto_decode_view_request(const void* data, size_t size, proto_view_request* out, proto_error* err);

/* A ViewUpdate's header; its records are the bit stream in `data`. */
typedef struct proto_view_header {
    uint32_t seq, base_seq;
    int keyframe;
    uint64_t tick;
    double sim_time;
    uint64_t send_time_ns;
    int32_t origin[2];       /* whole metres (x, z): entering vessels are relative to it */
    uint32_t record_count;
    proto_status status;     /* not OK: a refusal of the last request, `error` says why */
    char error[PROTO_ERROR_MAX];
    int has_settings;        /* the view as the server applies it, after a change */
    proto_view_settings settings;
    uint16_t command_port;   /* on no base (the first updates, keyframes): the server's tcp
                                request port (0: none), so that a view client finds world
                                info on any port layout */
    /* Damage (docs/protocol.md, "Damage"): entries of damaged vessels the
     * client holds (in keyframes, at most a second apart, and when one is
     * new or its flags or holes changed; an entry with no flags, no holes
     * and no water says the vessel is no longer damaged) and the damage
     * events of vessels in the view since the previous update. Encoding:
     * the caller's arrays; decoding: the decoder's, valid until the next
     * decode (proto_view_decoder_damage* keep what applies). */
    const proto_vessel_damage* damage;
    uint32_t damage_count;
    const proto_damage_event* damage_events;
    uint32_t damage_event_count;
    /* The contacts vessels in the view began since the previous update
     * (at most PROTO_VIEW_MAX_CONTACTS; lost with their update: they are
     * for drawing, the damage events are the record). Arrays as above. */
    const proto_contact* contacts;
    uint32_t contact_count;
} proto_view_header;

/* One vessel a view holds: its newest samples, newest first. */
typedef struct proto_view_sample {
    uint64_t tick;
    double position[3];      /* CG, world frame, m */
    float orientation[4];    /* body -> world (x, y, z, w) */
} proto_view_sample;

typedef struct proto_view_vessel {
    uint32_t id;
    uint16_t type, flags;
    uint32_t sample_count;   /* 1 .. PROTO_VIEW_HISTORY */
    proto_view_sample samples[PROTO_VIEW_HISTORY];
} proto_view_vessel;

typedef enum proto_view_event_kind {
    PROTO_VIEW_ENTERED = 0,  /* came into the view */
    PROTO_VIEW_SPAWNED,      /* new in the world, in the view */
    PROTO_VIEW_LEFT,         /* went out of the view */
    PROTO_VIEW_GONE          /* despawned (or sank) */
} proto_view_event_kind;

typedef struct proto_view_event {
    uint32_t id;
    proto_view_event_kind kind;
} proto_view_event;

/* The client's side: applies updates in the order they arrive, keeps what
 * the server bases its differences on, and says what to acknowledge. */
typedef struct proto_view_decoder proto_view_decoder;

/* max_vessels: vessels held at most (an update that would hold more is
 * refused). NULL when out of memory. */
proto_view_decoder* proto_create_view_decoder(uint32_t max_vessels, proto_error* err);
void proto_destroy_view_decoder(proto_view_decoder* d);
/* 0: *h filled and the records applied (a refusal, h->status not OK,
 * carries none); -1: malformed or out of order: none of its records is
 * applied (the base may have taken the updates up to the base_seq its
 * header named, which this client received). */
int proto_decode_view_update(proto_view_decoder* d, const void* data, size_t size, proto_view_header* h,
                             proto_error* err);
/* What to send back after each update (a ViewRequest's ack and mask). */
void proto_view_decoder_ack(const proto_view_decoder* d, uint32_t* ack, uint32_t* mask);
/* The vessels held now (any order; valid until the next decode). */
const proto_view_vessel* proto_view_decoder_vessels(const proto_view_decoder* d, uint32_t* count);
/* The vessels that came and went in the last decoded update. */
const proto_view_event* proto_view_decoder_events(const proto_view_decoder* d, uint32_t* count);
/* The vessel with that id, or NULL. */
const proto_view_vessel* proto_view_decoder_find(const proto_view_decoder* d, uint32_t id);
/* The damage of a held vessel: the newest entry received for it since it
 * was last entered (NULL: none, or not held). Valid until the next decode. */
const proto_vessel_damage* proto_view_decoder_damage(const proto_view_decoder* d, uint32_t id);
/* Every held vessel's damage (any order; valid until the next decode). */
const proto_vessel_damage* proto_view_decoder_damaged(const proto_view_decoder* d, uint32_t* count);
/* The damage events the last decoded update carried, in the server's order. */
const proto_damage_event* proto_view_decoder_damage_events(const proto_view_decoder* d, uint32_t* count);
/* 1 when a damage entry says "no longer damaged": no flags, no holes, no water. */
int proto_damage_is_clear(const proto_vessel_damage* d);

/* Where the vessel was at `tick` (fractional): interpolated between the two
 * samples around it (position linearly, orientation by normalised lerp),
 * extrapolated from the two newest past the newest (at most
 * max_extrapolate ticks), clamped to the oldest before it. */
void proto_view_sample_at(const proto_view_vessel* v, double tick, double max_extrapolate, double position[3],
                          float orientation[4]);

#ifdef __cplusplus
}
#endif

#endif
