// SPDX-License-Identifier: MIT
/* The snapshot side: one receive always pending on nng's thread (no
 * receive timeout: nng 1.5.2's SUB has crash bugs on timed-out and
 * cancelled receives, see docs/network.md), a small ring of the newest
 * messages, and poll or a helper thread to decode them. */
#include <stdlib.h>
#include <string.h>

#include "nvc_internal.h"

#include <nng/protocol/pubsub0/sub.h>

static void nvc_recv_cb(void* arg) {
    nvc_client* c = arg;
    int rv = nng_aio_result(c->recv_aio);
    nng_mtx_lock(c->lock);
    if (rv == 0) {
        nng_msg* msg = nng_aio_get_msg(c->recv_aio);
        nng_aio_set_msg(c->recv_aio, NULL);
        uint32_t depth = c->opts.queue_depth;
        if (c->count == depth) {
            /* Full: the reader is behind; the oldest world state is the
             * least useful one. */
            nng_msg_free(c->queue[c->head]);
            c->head = (c->head + 1) % depth;
            c->count--;
            c->counts.dropped++;
        }
        c->queue[(c->head + c->count) % depth] = msg;
        c->count++;
        c->counts.received++;
        nng_cv_wake(c->ready);
    }
    int stop = c->closing || rv == NNG_ECLOSED;
    nng_mtx_unlock(c->lock);
    if (!stop) nng_recv_aio(c->sub, c->recv_aio);
}

int nvc_snapshots_open(nvc_client* c, nv_error* err) {
    const char* url = c->opts.snapshot_url;
    proto_error pe;
    int rv;
    c->queue = calloc(c->opts.queue_depth, sizeof *c->queue);
    c->compact = proto_create_compact_decoder(&pe);
    if (!c->queue || !c->compact || nng_mtx_alloc(&c->lock) || nng_cv_alloc(&c->ready, c->lock))
        return nv_error_fail(err, NV_ENOMEM, "out of memory");
    if ((rv = nng_sub0_open(&c->sub)) != 0)
        return nv_error_fail(err, NV_ENOMEM, "cannot open a SUB socket: %s", nng_strerror(rv));
    c->sub_open = 1;
    nng_dialer d;
    if ((rv = nng_socket_set(c->sub, NNG_OPT_SUB_SUBSCRIBE, "", 0)) != 0 ||
        (rv = nng_aio_alloc(&c->recv_aio, nvc_recv_cb, c)) != 0)
        return nv_error_fail(err, NV_ENOMEM, "SUB socket: %s", nng_strerror(rv));
    if ((rv = nng_dialer_create(&d, c->sub, url)) != 0)
        return nv_error_fail(err, NV_EINVAL, "snapshot URL %s: %s", url, nng_strerror(rv));
    /* A ws dialer caps messages at 1 MiB by default: a few thousand boats. */
    nng_dialer_set_size(d, NNG_OPT_RECVMAXSZ, c->opts.max_snapshot_bytes);
    if ((rv = nng_dialer_start(d, 0)) != 0)
        return nv_error_fail(err, NV_ECONNECT, "cannot connect to %s: %s", url, nng_strerror(rv));
    nng_recv_aio(c->sub, c->recv_aio);
    return 0;
}

void nvc_snapshots_close(nvc_client* c) {
    if (c->lock) {
        nng_mtx_lock(c->lock);
        c->closing = 1;
        nng_cv_wake(c->ready);
        nng_mtx_unlock(c->lock);
    }
    /* The receive stops first (its callback sees `closing`), so that
     * nng_close finds nothing in flight: nng 1.5.2's close can hang when it
     * races with callbacks. */
    if (c->recv_aio) nng_aio_stop(c->recv_aio);
    if (c->helper) nng_thread_destroy(c->helper); /* joins */
    if (c->sub_open) nng_close(c->sub);
    if (c->recv_aio) {
        nng_msg* left = nng_aio_get_msg(c->recv_aio);
        if (left) nng_msg_free(left);
        nng_aio_free(c->recv_aio);
    }
    for (uint32_t i = 0; i < c->count; i++) nng_msg_free(c->queue[(c->head + i) % c->opts.queue_depth]);
    free(c->queue);
    if (c->ready) nng_cv_free(c->ready);
    if (c->lock) nng_mtx_free(c->lock);
    proto_destroy_compact_decoder(c->compact);
}

/* The oldest queued message, waiting until `deadline` (0: do not wait,
 * NNG_DURATION_INFINITE: forever). Called with the lock held. */
static nng_msg* nvc_take_locked(nvc_client* c, nng_time deadline, int forever) {
    while (!c->count && !c->closing) {
        if (forever) nng_cv_wait(c->ready);
        else if (nng_cv_until(c->ready, deadline) == NNG_ETIMEDOUT) break;
    }
    if (!c->count) return NULL;
    nng_msg* m = c->queue[c->head];
    c->head = (c->head + 1) % c->opts.queue_depth;
    c->count--;
    return m;
}

/* 0 decoded, 1 skipped (a compact delta without its keyframe), -1 bad. */
static int nvc_decode(nvc_client* c, nng_msg* m, proto_snapshot* out, nv_error* err) {
    const void* data = nng_msg_body(m);
    size_t size = nng_msg_len(m);
    proto_error pe;
    proto_limits lim = proto_default_limits();
    lim.max_message_size = c->opts.max_snapshot_bytes;
    proto_kind kind = proto_identify(data, size);
    int rc;
    if (kind == PROTO_KIND_COMPACT) rc = proto_decode_compact(c->compact, data, size, &lim, out, &pe);
    else rc = proto_decode_snapshot(data, size, &lim, out, &pe);
    if (rc == PROTO_NEED_KEYFRAME) {
        nng_mtx_lock(c->lock);
        c->counts.awaiting_keyframe++;
        nng_mtx_unlock(c->lock);
        return 1;
    }
    if (rc) {
        nng_mtx_lock(c->lock);
        c->counts.undecodable++;
        nng_mtx_unlock(c->lock);
        return nv_error_fail(err, NV_EPROTO, "snapshot of %zu bytes does not decode: %s", size, pe.message);
    }
    return 0;
}

int nvc_poll_snapshot(nvc_client* c, int timeout_ms, proto_snapshot* out, nv_error* err) {
    if (!c || !out) return nv_error_fail(err, NV_EINVAL, "poll: missing argument");
    if (!c->sub_open) return nv_error_fail(err, NV_ESTATE, "this client has no snapshot URL");
    if (c->callback) return nv_error_fail(err, NV_ESTATE, "snapshots go to the callback: poll is off");
    nng_time deadline = nng_clock() + (timeout_ms > 0 ? (nng_time)timeout_ms : 0);
    for (;;) {
        nng_mtx_lock(c->lock);
        nng_msg* m = nvc_take_locked(c, deadline, timeout_ms < 0);
        int closing = c->closing;
        nng_mtx_unlock(c->lock);
        if (!m) {
            if (closing) return nv_error_fail(err, NV_ECLOSED, "the client is closing");
            return nv_error_fail(err, NV_ETIMEDOUT, "no snapshot within %d ms", timeout_ms);
        }
        int rc = nvc_decode(c, m, out, err);
        nng_msg_free(m);
        if (rc <= 0) {
            if (rc == 0 && err) err->code = NV_OK;
            return rc;
        }
        /* A delta we cannot use yet: wait for the next message. */
    }
}

static void nvc_helper(void* arg) {
    nvc_client* c = arg;
    proto_snapshot s = {0};
    for (;;) {
        nng_mtx_lock(c->lock);
        nng_msg* m = nvc_take_locked(c, 0, 1);
        nng_mtx_unlock(c->lock);
        if (!m) break; /* closing */
        int rc = nvc_decode(c, m, &s, NULL);
        nng_msg_free(m);
        if (rc == 0) c->callback(c->callback_user, &s);
    }
    proto_free_snapshot(&s);
}

int nvc_set_snapshot_callback(nvc_client* c, nvc_snapshot_fn* fn, void* user, nv_error* err) {
    if (!c || !fn) return nv_error_fail(err, NV_EINVAL, "callback: missing argument");
    if (!c->sub_open) return nv_error_fail(err, NV_ESTATE, "this client has no snapshot URL");
    if (c->callback) return nv_error_fail(err, NV_ESTATE, "a snapshot callback is set already");
    c->callback = fn;
    c->callback_user = user;
    int rv = nng_thread_create(&c->helper, nvc_helper, c);
    if (rv) {
        c->callback = NULL;
        return nv_error_fail(err, NV_ENOMEM, "cannot start the callback thread: %s", nng_strerror(rv));
    }
    nng_thread_set_name(c->helper, "nvc-snapshots");
    return 0;
}

void nvc_snapshot_counts_get(nvc_client* c, nvc_snapshot_counts* out) {
    memset(out, 0, sizeof *out);
    if (!c || !c->lock) return;
    nng_mtx_lock(c->lock);
    *out = c->counts;
    nng_mtx_unlock(c->lock);
}
