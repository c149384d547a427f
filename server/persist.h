// SPDX-License-Identifier: MIT
/* The server's checkpoints (include/naval/checkpoint.h) with what it needs to
 * resume (resume.h's owner blob): written every interval and at shutdown
 * without stalling a tick, and read back for --restore.
 *
 * Threads: persist_start runs on the loop thread between ticks and copies
 * the world (nv_checkpoint_capture: about memcpy speed plus the state hash);
 * the encoding, the write, the fsyncs and the renames run on libuv's
 * thread pool (uv_queue_work) on that copy alone, while the world moves
 * on. One write at a time: an interval that comes while one is still
 * running is skipped (logged). The completion (log line, metrics, freeing
 * the copy) runs on the loop thread. */
#ifndef NAVAL_SERVER_PERSIST_H
#define NAVAL_SERVER_PERSIST_H

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "config.h"
#include "metrics.h"
#include "naval/checkpoint.h"
#include "naval/nv_error.h"
#include "owners.h"
#include "resume.h"
#include "sim.h"

typedef struct persist {
    uv_loop_t* loop;
    const sim* sim;
    const owners* owners;
    metrics* m;
    char path[CFG_PATH_MAX];
    resume_buf blob;         /* the owner blob, grown once and reused */
    uv_work_t work;
    nv_checkpoint captured;     /* the copy being written (owned by the writer while busy) */
    int busy;                /* a write is in flight */
    int final;               /* the one in flight is the shutdown's */
    int final_wanted;        /* shutdown came while busy: one more when it ends */
    int final_failed;        /* the shutdown's checkpoint was not written */
    uint64_t capture_ns, write_ns;
    size_t bytes;
    int rc;
    nv_error err;
} persist;

void persist_init(persist* p, uv_loop_t* loop, const sim* s, const owners* o, metrics* m, const char* path);
/* After the loop has run out (no write in flight). */
void persist_free(persist* p);

/* Captures the world now and writes it in the background: 0 started, 1
 * skipped (a write is still running), -1 the capture failed (logged and
 * counted). */
int persist_start(persist* p);
/* At shutdown: the world as it stands, after the write in flight if any;
 * libuv's loop runs until it is on disk. */
void persist_final(persist* p);

/* Whether a write is in flight or the final one is still to come. */
int persist_pending(const persist* p);
/* 0 unless the final checkpoint was taken or written and failed. */
int persist_final_failed(const persist* p);

/* The same, all on the calling thread (the record log's base checkpoint,
 * before the loop runs). *bytes: the file's size. */
int persist_write_now(persist* p, const char* path, size_t* bytes, uint64_t* ms, nv_error* err);

/* --restore: the newest whole checkpoint of path, path.prev and the
 * complete temporary files a write cut short left (path.tmp.*;
 * nv_checkpoint_find_newest), the reason path was not used logged. -1
 * with the reasons when none can be used. Reads only (--check-config). */
int persist_read(const char* path, nv_checkpoint* out, nv_error* err);
/* The same for a server about to run: then a temporary file it used takes
 * path's place and the other temporaries are removed (logged). */
int persist_recover(const char* path, nv_checkpoint* out, nv_error* err);
/* A server that writes checkpoints to `path`: the temporaries an earlier
 * run's crash left beside it are removed (they hold tokens; logged). */
void persist_tidy(const char* path);

#endif
