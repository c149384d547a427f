// SPDX-License-Identifier: MIT
/* The record log: every change made to the world between ticks, each with
 * the tick it was made before, as the world itself reports it (its
 * recorder, naval/world.h's NV_WORLD_OPS: record_attach), the server's own
 * bookkeeping beside it (a vessel's token), and the world's state hash
 * every N ticks, so that naval-replay can run the session again from its
 * base checkpoint and show that it evolves identically. The server's
 * --record and naval-sim's --record write it. One event per line, in the
 * order made (readable with grep; numbers have 17 significant digits, so
 * they read back to the bit):
 *
 *   naval-record 5
 *   base TICK HASH PATH        the checkpoint the log starts from (HASH: 16 hex digits)
 *   hash_interval N
 *   TICK spawn ID TYPE X Y Z QW QX QY QZ   nv_world_spawn: the position and
 *                              orientation given, ID the vessel it made (version 5)
 *   TICK spawn ID TYPE X Z HEADING TOKEN   versions 2-4: the server's spawn
 *                              afloat at (X, Z) (TOKEN: 32 hex digits)
 *   TICK owner ID TOKEN        the server's: vessel ID's token (version 5)
 *   TICK control ID THROTTLE RUDDER
 *   TICK despawn ID
 *   TICK breach ID X Y Z AREA  a hole (body frame about the CG, m; m^2)
 *   TICK pumps ID ON           ON: 1 or 0
 *   TICK velocity ID VX VY VZ WX WY WZ     (version 5, as those below)
 *   TICK model ID MODEL        0 mesh, 1 columns, 2 floater
 *   TICK player ID ON
 *   TICK lod ENABLED MESH_WITHIN COLUMNS_WITHIN HYSTERESIS
 *   TICK wind X Y Z
 *   TICK contact_params ENABLED GROUND_FRICTION VESSEL_FRICTION RESTITUTION HERTZ DAMPING_RATIO PUSH_SPEED
 *   TICK sunk_removal_depth DEPTH
 *   TICK hash HASH             nv_world_state_hash at TICK, before that tick's changes
 *   TICK contact A B STRUCTURE CLOSING IMPULSE
 *                              a contact the step to TICK began (world.h's
 *                              event: B 4294967295 for the static world, then
 *                              STRUCTURE 0 the terrain or k + 1), in the
 *                              world's order
 *   TICK damage KIND ID K      a damage event of the step to TICK (KIND:
 *                              breach, full, capsized, sunk or removed; K the
 *                              compartment or -1), in the world's order
 *   end TICK                   the server stopped cleanly
 *   next TICK FILE             the log reached its size cap at TICK and goes
 *                              on in FILE (same directory), whose base is the
 *                              world at that moment (version 4)
 *
 * TICK is nv_world_tick when the change was made: it takes effect in the step
 * to TICK + 1. The writer is stdio-buffered on the loop thread (no system
 * call per event), flushed once a second and fdatasync'ed every checkpoint
 * interval (on libuv's pool, record_sync), at each file's end and at the
 * close, so a crash loses at most about a second and a power cut at most an
 * interval. The log holds vessel tokens: it is created with mode 0600. Loop
 * thread only (the reader: any one thread).
 *
 * The server's --record LOG is a series of numbered files (record_segment_*):
 * LOG.000001 with its base checkpoint LOG.000001.ckpt, LOG.000002 ..., one
 * for every start and one more each time a file reaches the size cap (the
 * new file's base is written then); LOG and LOG.ckpt are symbolic links to
 * the newest. A file never changes its name, and the oldest beyond the
 * number kept are removed. Each file replays alone from its base; files
 * replay in a row when each one's base is where the one before ended. */
#ifndef NAVAL_SERVER_RECORD_H
#define NAVAL_SERVER_RECORD_H

#include <stdint.h>
#include <stdio.h>
#include <uv.h>

#include "naval/nv_error.h"
#include "naval/world.h"
#include "proto.h"

/* 2: contacts; 3: breaches, pumps, damage events; 4: next; 5: the world's own operations (spawn with its
 * pose, velocity, model, player, lod, wind, contact_params, sunk_removal_depth) and owner (older logs
 * still read) */
#define RECORD_VERSION 5
#define RECORD_PATH_MAX 1024
#define RECORD_SEGMENT_DIGITS 6      /* LOG.000001: names that sort in order */
#define RECORD_BASE_SUFFIX ".ckpt"   /* a file's base checkpoint: LOG.000001.ckpt */

typedef struct record record;

/* Creates (truncates) `path` and writes the header. */
int record_open(record** out, const char* path, const char* base_path, uint64_t base_tick, uint64_t base_hash,
                uint32_t hash_interval, nv_error* err);
/* Writes "end TICK" when clean, flushes, fdatasyncs and closes. Safe on NULL. */
void record_close(record* r, uint64_t tick, int clean);
/* At the size cap: writes "next TICK FILE" (`next`: the file that goes
 * on, already open), flushes, starts its fdatasync on `loop`'s pool and
 * closes. Safe on NULL. */
void record_close_next(record* r, uint64_t tick, const char* next, uv_loop_t* loop);
/* Flushes and starts an fdatasync on `loop`'s pool (one at a time; on this
 * thread when none can start). Safe on NULL. */
void record_sync(record* r, uv_loop_t* loop);
/* What the file holds once flushed, header included (0 for NULL). */
uint64_t record_bytes(const record* r);
const char* record_path(const record* r);

/* ---- the numbered files of --record LOG ---- */

/* LOG.NNNNNN + suffix (NULL: none) into out. */
void record_segment_name(char* out, size_t cap, const char* log, uint32_t n, const char* suffix);
/* The number the next file takes: one past the highest of LOG's numbered
 * files (1 when there are none). A regular file at LOG (an older server's
 * log) and its LOG.ckpt are first renamed to the next number, kept. */
int record_segment_next(const char* log, uint32_t* next, nv_error* err);
/* Removes every numbered file (logs, bases, their temporaries) below
 * newest - keep + 1; keep 0 keeps all. Failures are logged. */
void record_segment_prune(const char* log, uint32_t newest, uint32_t keep);
/* LOG -> LOG.n and LOG.ckpt -> LOG.n.ckpt (relative symbolic links,
 * replaced atomically); a regular file there is left alone (-1). */
int record_segment_link(const char* log, uint32_t n, nv_error* err);

/* Writes the world's operations into `r` from now on: attaches the log
 * as w's recorder (nv_world_set_recorder); NULL detaches. */
void record_attach(nv_world* w, record* r);
/* After a step: the state hash (every hash_interval ticks), the contacts
 * and the damage events the step made. */
void record_step(record* r, const nv_world* w);
/* A write failed (the log is incomplete from there). */
int record_failed(const record* r);

/* The server's: vessel id's token (after its spawn). */
void record_owner(record* r, uint64_t tick, uint32_t id, const proto_token* token);
/* The spawn line of versions 2-4 (afloat at x, z, with its token), which
 * the reader still reads; the world's spawns are written by the recorder. */
void record_spawn(record* r, uint64_t tick, uint32_t id, uint32_t type, double x, double z, double heading,
                  const proto_token* token);
void record_control(record* r, uint64_t tick, uint32_t id, double throttle, double rudder);
void record_despawn(record* r, uint64_t tick, uint32_t id);
void record_breach(record* r, uint64_t tick, uint32_t id, const double point[3], double area);
void record_pumps(record* r, uint64_t tick, uint32_t id, int on);
/* Every damage event the step to `tick` made. */
void record_damage(record* r, uint64_t tick, const nv_world_damage_event* events, uint32_t count);
/* The damage events' KIND words, by world_damage_kind (written and read). */
#define RECORD_DAMAGE_KINDS 5
extern const char* const record_damage_names[RECORD_DAMAGE_KINDS];
void record_hash(record* r, uint64_t tick, uint64_t hash);
/* Every contact the step to `tick` began. */
void record_contacts(record* r, uint64_t tick, const nv_world_contact_event* events, uint32_t count);
uint32_t record_hash_interval(const record* r);
/* Hands the buffer to the kernel; a failed write is logged once. */
void record_flush(record* r);

/* ---- reading (naval-replay) ---- */

typedef enum record_kind {
    RECORD_SPAWN = 0,
    RECORD_CONTROL,
    RECORD_DESPAWN,
    RECORD_HASH,
    RECORD_END,
    RECORD_CONTACT,
    RECORD_BREACH,
    RECORD_PUMPS,
    RECORD_DAMAGE,
    RECORD_NEXT,              /* the log goes on in record_reader.next */
    RECORD_OWNER,             /* id's token (version 5) */
    RECORD_WORLD,             /* another world operation (version 5): record_event.op */
} record_kind;

typedef struct record_event {
    record_kind kind;
    uint64_t tick;
    uint32_t id, type;
    double x, z, heading;     /* spawn */
    double throttle, rudder;  /* control */
    proto_token token;        /* spawn */
    uint64_t hash;            /* hash */
    uint32_t other, structure; /* contact: B and STRUCTURE (id is A) */
    double closing, impulse;  /* contact */
    double point[3], area;    /* breach */
    uint32_t on;              /* pumps */
    uint32_t damage_kind;     /* damage: world_damage_kind */
    int64_t compartment;      /* damage: -1 none */
    uint64_t line;            /* where it is in the file */
    int has_op;               /* a world operation (control, despawn, breach, pumps, and RECORD_WORLD): */
    nv_world_op op;           /* it, for nv_world_apply_op */
} record_event;

typedef struct record_reader {
    FILE* f;
    char path[RECORD_PATH_MAX];
    char base_path[RECORD_PATH_MAX];
    uint64_t base_tick, base_hash;
    uint32_t hash_interval;
    int version;
    uint64_t line, last_tick;
    int ended;                /* "end" or "next" was read */
    char next[RECORD_PATH_MAX]; /* "next": the file that goes on ("" none) */
    int partial;              /* the file ends inside a line (a crash while writing): ignored */
} record_reader;

/* Opens the log and reads its header. */
int record_reader_open(record_reader* r, const char* path, nv_error* err);
/* The next event: 1, or 0 at the end of the file, or -1 naming the line. */
int record_read(record_reader* r, record_event* ev, nv_error* err);
void record_reader_close(record_reader* r);

#endif
