// SPDX-License-Identifier: MIT
/* One measured snapshot subscription for naval-load: a SUB socket dialled
 * to a tcp:// or ws:// URL, a receive always pending on nng's thread, and
 * per message, right in the completion callback: the bytes, the latency
 * from the server's send time (CLOCK_REALTIME on both sides: same host or
 * synced clocks), ticks missed (gaps in the tick numbers), and optionally
 * the server's tick figures carried in the snapshot.
 *
 * Why not the client library's snapshot queue: a load tester must time
 * the arrival where it happens (a queue and a reader thread add their own
 * delay) and count bytes, which nvc does not expose; dozens of streams
 * also cost no thread each this way. Like nvc, no receive timeout and no
 * cancellation while running (nng 1.5.2's SUB bugs, docs/network.md). */
#ifndef NAVAL_LOAD_SUB_H
#define NAVAL_LOAD_SUB_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"
#include "samples.h"

/* Snapshots a subscription queues while its callback is busy (nng's default: 128). */
#define SUB_RECV_QUEUE 8

typedef struct sub_stream sub_stream;

typedef struct sub_totals {
    uint64_t messages;      /* snapshots decoded */
    uint64_t bytes;         /* every message received */
    uint64_t ticks_missed;  /* sum of (tick - previous - 1) over increasing ticks */
    uint64_t out_of_order;  /* tick not above the previous one */
    uint64_t undecodable;
    uint64_t awaiting_keyframe; /* compact deltas before the first keyframe */
    uint64_t first_tick, last_tick;
    uint64_t overruns_first, overruns_last; /* server's count, as carried */
    uint32_t vessels_last;  /* vessels in the last snapshot */
    uint32_t world_vessels_last;
    char last_error[160];
} sub_totals;

/* Dials url (synchronously: a refused connection fails here, with the
 * reason in err) and starts receiving. compact: the stream carries compact
 * snapshots (decoded with a decoder of this stream's own).
 * server_stats: also keep every snapshot's step_ms (sub_tick_ms). */
int sub_open(sub_stream** out, const char* url, int compact, int server_stats, size_t max_bytes, char* err,
             size_t errlen);
/* Called on nng's thread with every snapshot decoded until sub_freeze; it
 * may swap the snapshot's storage for another's (proto.h's ownership). */
typedef void sub_snapshot_fn(void* arg, proto_snapshot* s);
/* sub_open, and fn(arg, snapshot) for each snapshot (naval-load's truth). */
int sub_open_listened(sub_stream** out, const char* url, int compact, int server_stats, size_t max_bytes,
                      sub_snapshot_fn* fn, void* arg, char* err, size_t errlen);
/* Starts counting from now on (what came before is dropped): measurement
 * starts when the load is in place. */
void sub_reset(sub_stream* s);
void sub_totals_get(sub_stream* s, sub_totals* out);
/* While running: the p-th percentile of the tick times since sub_reset (server_stats; NaN: none). */
double sub_tick_ms_now(sub_stream* s, double p);
/* Stops counting: the figures stay as they are. The socket stays open
 * until sub_free (closing can hang in nng 1.5.2: see closer.h). */
void sub_freeze(sub_stream* s);
/* After sub_freeze: the latencies (ms) and, with server_stats, the tick times (ms). */
const samples* sub_latency_ms(const sub_stream* s);
const samples* sub_tick_ms(const sub_stream* s);
/* Closes the socket and frees everything. Safe on NULL. */
void sub_free(sub_stream* s);

#endif
