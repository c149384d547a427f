// SPDX-License-Identifier: MIT
#include "sub.h"
#include "clock.h"

#include <nng/nng.h>
#include <nng/protocol/pubsub0/sub.h>
#include <nng/supplemental/util/platform.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "proto.h"

struct sub_stream {
    nng_socket sock;
    int open;
    nng_aio* aio;
    nng_mtx* lock;          /* guards everything below against sub_totals_get / sub_reset */
    int compact, server_stats, stopping;
    proto_compact_decoder* decoder;
    proto_snapshot snap;    /* decoded into, reused */
    proto_limits limits;
    sub_totals t;
    int have_tick;
    samples latency, tick_ms;
    sub_snapshot_fn* listener;
    void* listener_arg;
};

/* On nng's thread: one message, measured then decoded (decoding checks the
 * message is whole and gives the tick, send time and stats). */
static void sub_recv_cb(void* arg) {
    sub_stream* s = arg;
    int rv = nng_aio_result(s->aio);
    if (rv != 0) {
        nng_mtx_lock(s->lock);
        int stop = s->stopping || rv == NNG_ECLOSED;
        if (!stop) snprintf(s->t.last_error, sizeof s->t.last_error, "receive: %s", nng_strerror(rv));
        nng_mtx_unlock(s->lock);
        if (!stop) nng_recv_aio(s->sock, s->aio);
        return;
    }
    uint64_t now = clock_wall_ns();
    nng_msg* msg = nng_aio_get_msg(s->aio);
    nng_aio_set_msg(s->aio, NULL);
    nng_mtx_lock(s->lock);
    int frozen = s->stopping;
    nng_mtx_unlock(s->lock);
    if (frozen) { /* counting is over: no more receives */
        nng_msg_free(msg);
        return;
    }
    const void* data = nng_msg_body(msg);
    size_t size = nng_msg_len(msg);
    proto_error pe;
    int drc = s->compact ? proto_decode_compact(s->decoder, data, size, &s->limits, &s->snap, &pe)
                         : proto_decode_snapshot(data, size, &s->limits, &s->snap, &pe);
    nng_msg_free(msg);
    nng_mtx_lock(s->lock);
    if (s->stopping) { /* frozen while this one was decoded */
        nng_mtx_unlock(s->lock);
        return;
    }
    s->t.bytes += size;
    if (drc == PROTO_NEED_KEYFRAME) {
        s->t.awaiting_keyframe++;
    } else if (drc != 0) {
        s->t.undecodable++;
        snprintf(s->t.last_error, sizeof s->t.last_error, "snapshot of %zu bytes: %.100s", size, pe.message);
    } else {
        const proto_snapshot* p = &s->snap;
        s->t.messages++;
        if (!s->have_tick) {
            s->have_tick = 1;
            s->t.first_tick = s->t.last_tick = p->tick;
            s->t.overruns_first = p->stats.overruns;
        } else if (p->tick > s->t.last_tick) {
            s->t.ticks_missed += p->tick - s->t.last_tick - 1;
            s->t.last_tick = p->tick;
        } else {
            s->t.out_of_order++;
        }
        s->t.overruns_last = p->stats.overruns;
        s->t.vessels_last = p->vessel_count;
        s->t.world_vessels_last = p->stats.vessel_count;
        /* A clock step between the hosts can put the send time ahead of now. */
        double ms = now >= p->send_time_ns ? (double)(now - p->send_time_ns) * 1e-6 : 0.0;
        samples_add(&s->latency, ms);
        if (s->server_stats) samples_add(&s->tick_ms, p->stats.step_ms);
    }
    int stop = s->stopping;
    nng_mtx_unlock(s->lock);
    /* Outside the lock: the listener may take its time, sub_totals_get need not wait. */
    if (drc == 0 && !stop && s->listener) s->listener(s->listener_arg, &s->snap);
    if (!stop) nng_recv_aio(s->sock, s->aio);
}

int sub_open(sub_stream** out, const char* url, int compact, int server_stats, size_t max_bytes, char* err,
             size_t errlen) {
    return sub_open_listened(out, url, compact, server_stats, max_bytes, NULL, NULL, err, errlen);
}

int sub_open_listened(sub_stream** out, const char* url, int compact, int server_stats, size_t max_bytes,
                      sub_snapshot_fn* fn, void* arg, char* err, size_t errlen) {
    *out = NULL;
    sub_stream* s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->listener = fn;
    s->listener_arg = arg;
    s->compact = compact;
    s->server_stats = server_stats;
    s->limits = proto_default_limits();
    s->limits.max_message_size = max_bytes;
    proto_error pe;
    int rv;
    if (compact && !(s->decoder = proto_create_compact_decoder(&pe))) {
        snprintf(err, errlen, "compact decoder: %s", pe.message);
        sub_free(s);
        return -1;
    }
    if ((rv = nng_mtx_alloc(&s->lock)) != 0 || (rv = nng_sub0_open(&s->sock)) != 0) {
        snprintf(err, errlen, "SUB socket: %s", nng_strerror(rv));
        sub_free(s);
        return -1;
    }
    s->open = 1;
    nng_dialer d;
    /* nng's SUB queues up to 128 messages by default: with a tester slower
     * than the stream that is 128 snapshots per subscription (125 players'
     * streams of 2,000 boats, 144 KB each: 2.3 GB). A short queue bounds
     * the memory; what it drops shows as ticks missed, as for a real client
     * that falls behind. */
    if ((rv = nng_socket_set(s->sock, NNG_OPT_SUB_SUBSCRIBE, "", 0)) != 0 ||
        (rv = nng_socket_set_int(s->sock, NNG_OPT_RECVBUF, SUB_RECV_QUEUE)) != 0 ||
        (rv = nng_aio_alloc(&s->aio, sub_recv_cb, s)) != 0) {
        snprintf(err, errlen, "SUB socket: %s", nng_strerror(rv));
        sub_free(s);
        return -1;
    }
    if ((rv = nng_dialer_create(&d, s->sock, url)) != 0) {
        snprintf(err, errlen, "%s: %s", url, nng_strerror(rv));
        sub_free(s);
        return -1;
    }
    /* A ws dialer refuses messages over 1 MiB by default: a few thousand boats. */
    nng_dialer_set_size(d, NNG_OPT_RECVMAXSZ, max_bytes);
    if ((rv = nng_dialer_start(d, 0)) != 0) {
        snprintf(err, errlen, "cannot connect to %s: %s", url, nng_strerror(rv));
        sub_free(s);
        return -1;
    }
    nng_recv_aio(s->sock, s->aio);
    *out = s;
    return 0;
}

void sub_reset(sub_stream* s) {
    nng_mtx_lock(s->lock);
    memset(&s->t, 0, sizeof s->t);
    s->have_tick = 0;
    samples_clear(&s->latency);
    samples_clear(&s->tick_ms);
    nng_mtx_unlock(s->lock);
}

double sub_tick_ms_now(sub_stream* s, double p) {
    nng_mtx_lock(s->lock);
    double v = samples_percentile(&s->tick_ms, p);
    nng_mtx_unlock(s->lock);
    return v;
}

void sub_totals_get(sub_stream* s, sub_totals* out) {
    nng_mtx_lock(s->lock);
    *out = s->t;
    nng_mtx_unlock(s->lock);
}

void sub_freeze(sub_stream* s) {
    if (!s || !s->lock) return;
    nng_mtx_lock(s->lock);
    s->stopping = 1;
    nng_mtx_unlock(s->lock);
}

const samples* sub_latency_ms(const sub_stream* s) { return &s->latency; }
const samples* sub_tick_ms(const sub_stream* s) { return &s->tick_ms; }

void sub_free(sub_stream* s) {
    if (!s) return;
    sub_freeze(s);
    if (s->open) {
        /* Closing completes a pending receive with NNG_ECLOSED; nng_aio_stop
         * then waits for the callback to return. Never a cancel while it
         * runs (nng 1.5.2's SUB bugs, docs/network.md). */
        nng_close(s->sock);
        s->open = 0;
    }
    if (s->aio) {
        nng_aio_stop(s->aio);
        nng_msg* left = nng_aio_get_msg(s->aio);
        if (left) nng_msg_free(left);
        nng_aio_free(s->aio);
    }
    if (s->lock) nng_mtx_free(s->lock);
    proto_destroy_compact_decoder(s->decoder);
    proto_free_snapshot(&s->snap);
    samples_free(&s->latency);
    samples_free(&s->tick_ms);
    free(s);
}
