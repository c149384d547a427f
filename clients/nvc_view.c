// SPDX-License-Identifier: MIT
/* A player view on a PAIR1 socket: settings out, updates in, each update
 * decoded (proto_view_decoder) and acknowledged at once, so that the
 * server's base is never more than a round trip behind.
 *
 * nng redials by itself when the connection drops; the server (or relay)
 * then sees a new view, so the next poll starts a fresh decoder, sends the
 * settings again and ignores what the old connection had left queued. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <nng/nng.h>
#include <nng/protocol/pair1/pair.h>
#include <nng/supplemental/util/platform.h>

#include "naval_client.h"

struct nvc_view {
    nng_socket sock;
    int open;
    uint32_t max_vessels;
    proto_view_decoder* dec;
    proto_view_settings settings;
    proto_buf out;
    nvc_view_counts counts;
    uint32_t pipe;               /* the connection the decoder follows (0: the first) */
    nng_time last_send;          /* ms, nng's clock */
    atomic_uint newest_pipe;     /* set by nng's thread when a connection comes */
};

void nvc_view_options_default(nvc_view_options* o) {
    memset(o, 0, sizeof *o);
    o->radius = 1000.0f;
    o->max_vessels = 4096;
    o->max_message_bytes = 4u << 20;
}

static int nvc_view_send(nvc_view* v, int with_settings, nv_error* err) {
    proto_view_request r;
    memset(&r, 0, sizeof r);
    proto_view_decoder_ack(v->dec, &r.ack, &r.ack_mask);
    r.has_settings = with_settings;
    if (with_settings) r.settings = v->settings;
    proto_error pe;
    if (proto_encode_view_request(&v->out, &r, &pe)) return nv_error_fail(err, pe.code, "view: %s", pe.message);
    /* Never block on a server that does not read: a later ack covers this one. */
    int rv = nng_send(v->sock, (void*)v->out.data, v->out.size, NNG_FLAG_NONBLOCK);
    if (rv == NNG_EAGAIN && !with_settings) {
        v->counts.acks_unsent++;
        return 0;
    }
    if (rv) return nv_error_fail(err, rv == NNG_ECLOSED ? NV_ECLOSED : NV_ECONNECT, "view: %s", nng_strerror(rv));
    v->last_send = nng_clock();
    return 0;
}

/* nng's thread: only note it; the caller's thread acts on it in poll. */
static void nvc_view_on_pipe(nng_pipe p, nng_pipe_ev ev, void* arg) {
    nvc_view* v = arg;
    if (ev == NNG_PIPE_EV_ADD_POST) atomic_store(&v->newest_pipe, nng_pipe_id(p));
}

/* A new connection: a new view on the server's side. */
static int nvc_view_restart(nvc_view* v, uint32_t pipe, nv_error* err) {
    proto_error pe;
    proto_view_decoder* d = proto_create_view_decoder(v->max_vessels, &pe);
    if (!d) return nv_error_fail(err, NV_ENOMEM, "view: %s", pe.message);
    proto_destroy_view_decoder(v->dec);
    v->dec = d;
    v->pipe = pipe;
    v->counts.reconnects++;
    return nvc_view_send(v, 1, err);
}

int nvc_view_open(nvc_view** out, const nvc_view_options* o, nv_error* err) {
    *out = NULL;
    if (!o || !o->url) return nv_error_fail(err, NV_EINVAL, "view: no URL");
    if (o->own_count > PROTO_VIEW_MAX_OWN || (o->own_count && !o->own))
        return nv_error_fail(err, NV_EINVAL, "view: at most %d own vessels", PROTO_VIEW_MAX_OWN);
    if (!(o->radius > 0.0f) || !o->max_vessels || o->max_message_bytes < 1024)
        return nv_error_fail(err, NV_EINVAL, "view: radius > 0, max_vessels and max_message_bytes needed "
                                             "(nvc_view_options_default sets them)");
    nvc_view* v = calloc(1, sizeof *v);
    if (!v) return nv_error_fail(err, NV_ENOMEM, "out of memory");
    v->max_vessels = o->max_vessels;
    proto_error pe;
    if (!(v->dec = proto_create_view_decoder(o->max_vessels, &pe))) {
        free(v);
        return nv_error_fail(err, NV_ENOMEM, "view: %s", pe.message);
    }
    v->settings.center[0] = o->center[0];
    v->settings.center[1] = o->center[1];
    v->settings.radius = o->radius;
    v->settings.budget_kbps = o->budget_kbps;
    v->settings.follow_own = o->follow_own;
    v->settings.own_count = o->own_count;
    for (uint32_t i = 0; i < o->own_count; i++) {
        v->settings.own[i].id = o->own[i].id;
        v->settings.own[i].token = o->own[i].token;
    }
    int rv = nng_pair1_open(&v->sock);
    if (rv) {
        nvc_view_close(v);
        return nv_error_fail(err, NV_ENOMEM, "view: cannot open a PAIR1 socket: %s", nng_strerror(rv));
    }
    v->open = 1;
    nng_dialer d;
    if ((rv = nng_dialer_create(&d, v->sock, o->url)) != 0) {
        nvc_view_close(v);
        return nv_error_fail(err, NV_EINVAL, "view URL %s: %s", o->url, nng_strerror(rv));
    }
    nng_dialer_set_size(d, NNG_OPT_RECVMAXSZ, o->max_message_bytes);
    if ((rv = nng_pipe_notify(v->sock, NNG_PIPE_EV_ADD_POST, nvc_view_on_pipe, v)) != 0 ||
        (rv = nng_dialer_start(d, 0)) != 0) {
        nvc_view_close(v);
        return nv_error_fail(err, NV_ECONNECT, "cannot connect to %s: %s", o->url, nng_strerror(rv));
    }
    v->pipe = atomic_load(&v->newest_pipe);
    if (nvc_view_send(v, 1, err)) {
        nvc_view_close(v);
        return -1;
    }
    *out = v;
    nv_error_clear(err);
    return 0;
}

/* How long a message just sent may take to leave: nng 1.5.2 leaks a
 * message whose pipe closes while it is being written (nanomsg/nng#1713,
 * fixed in 1.7), so a close waits that long after the last send. */
#define NVC_VIEW_SEND_DRAIN_MS 50

void nvc_view_close(nvc_view* v) {
    if (!v) return;
    if (v->open) {
        nng_time since = nng_clock() - v->last_send;
        if (v->last_send && since < NVC_VIEW_SEND_DRAIN_MS) nng_msleep((nng_duration)(NVC_VIEW_SEND_DRAIN_MS - since));
        nng_close(v->sock);
    }
    proto_destroy_view_decoder(v->dec);
    proto_free_buf(&v->out);
    free(v);
}

int nvc_view_move(nvc_view* v, double x, double z, float radius, nv_error* err) {
    v->settings.center[0] = x;
    v->settings.center[1] = z;
    v->settings.radius = radius;
    return nvc_view_send(v, 1, err);
}

int nvc_view_set_budget(nvc_view* v, uint32_t kbps, nv_error* err) {
    v->settings.budget_kbps = kbps;
    return nvc_view_send(v, 1, err);
}

int nvc_view_poll(nvc_view* v, int timeout_ms, proto_view_header* h, nv_error* err) {
    proto_view_header local;
    if (!h) h = &local;
    uint32_t newest = atomic_load(&v->newest_pipe);
    if (newest != v->pipe && nvc_view_restart(v, newest, err)) return -1;
    nng_socket_set_ms(v->sock, NNG_OPT_RECVTIMEO, timeout_ms < 0 ? NNG_DURATION_INFINITE : timeout_ms);
    nng_msg* msg = NULL;
    int rv = nng_recvmsg(v->sock, &msg, 0);
    if (rv == NNG_ETIMEDOUT) return nv_error_fail(err, NV_ETIMEDOUT, "view: no update within %d ms", timeout_ms);
    if (rv) return nv_error_fail(err, rv == NNG_ECLOSED ? NV_ECLOSED : NV_ECONNECT, "view: %s", nng_strerror(rv));
    uint32_t from = nng_pipe_id(nng_msg_get_pipe(msg));
    if (from != v->pipe) {
        /* Left over from the connection before, or the first of a new one. */
        newest = atomic_load(&v->newest_pipe);
        if (from != newest || nvc_view_restart(v, newest, err)) {
            nng_msg_free(msg);
            return from != newest ? nv_error_fail(err, NV_ETIMEDOUT, "view: an update of a closed connection") : -1;
        }
    }
    proto_error pe;
    int dec = proto_decode_view_update(v->dec, nng_msg_body(msg), nng_msg_len(msg), h, &pe);
    size_t bytes = nng_msg_len(msg);
    nng_msg_free(msg);
    if (dec) {
        v->counts.undecodable++;
        return nv_error_fail(err, NV_EPROTO, "view: %s", pe.message);
    }
    if (h->status != PROTO_STATUS_OK) {
        v->counts.refusals++;
        nv_error_fail(err, NV_EREFUSED, "view refused (%s): %s", proto_status_name(h->status), h->error);
        if (err) err->status = (int)h->status;
        return -1;
    }
    v->counts.updates++;
    v->counts.keyframes += (uint64_t)h->keyframe;
    v->counts.bytes += bytes;
    return nvc_view_send(v, 0, err);
}

const proto_view_vessel* nvc_view_vessels(const nvc_view* v, uint32_t* count) {
    return proto_view_decoder_vessels(v->dec, count);
}

const proto_view_event* nvc_view_events(const nvc_view* v, uint32_t* count) {
    return proto_view_decoder_events(v->dec, count);
}

const proto_view_vessel* nvc_view_find(const nvc_view* v, uint32_t id) { return proto_view_decoder_find(v->dec, id); }

const proto_vessel_damage* nvc_view_damage(const nvc_view* v, uint32_t id) {
    return proto_view_decoder_damage(v->dec, id);
}

const proto_vessel_damage* nvc_view_damaged(const nvc_view* v, uint32_t* count) {
    return proto_view_decoder_damaged(v->dec, count);
}

const proto_damage_event* nvc_view_damage_events(const nvc_view* v, uint32_t* count) {
    return proto_view_decoder_damage_events(v->dec, count);
}

uint32_t nvc_view_sample(const nvc_view* v, double tick, double max_extrapolate, nvc_view_state* out, uint32_t cap) {
    uint32_t n;
    const proto_view_vessel* vs = proto_view_decoder_vessels(v->dec, &n);
    if (n > cap) n = cap;
    for (uint32_t i = 0; i < n; i++) {
        out[i].id = vs[i].id;
        out[i].type = vs[i].type;
        out[i].flags = vs[i].flags;
        proto_view_sample_at(&vs[i], tick, max_extrapolate, out[i].position, out[i].orientation);
    }
    return n;
}

void nvc_view_counts_get(const nvc_view* v, nvc_view_counts* out) { *out = v->counts; }
