// SPDX-License-Identifier: MIT
/* naval-relay's player views (relay_views.h). */
#include "relay_views.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "proto.h"

/* Upstream messages waiting for the view thread. A compact delta is
 * relative to the last keyframe, so the thread decodes every compact
 * message it is given (cheap) and encodes only the newest frame: a
 * one-message mailbox would lose keyframes whenever the encoder falls
 * behind, and every view would stall for a keyframe interval each time.
 * Beyond this many the oldest is dropped unread (counted as superseded). */
#define RELAY_VIEWS_INBOX 16
/* Peer messages waiting for the view thread, in bytes: past this the
 * thread is hopelessly behind and further messages are dropped (counted)
 * rather than held without bound; openings and closings always go in. */
#define RELAY_VIEWS_MAX_PENDING_BYTES ((size_t)16 << 20)
/* Routine events (refusals, undecodable upstream messages) are summed
 * into one log line per interval. */
#define RELAY_VIEWS_SUMMARY_S 10.0

static log_counter relay_views_refused = LOG_COUNTER("view requests refused");
static log_counter relay_views_undecodable = LOG_COUNTER("upstream messages the views could not decode");

typedef enum relay_views_kind { RELAY_VIEWS_OPEN, RELAY_VIEWS_MESSAGE, RELAY_VIEWS_CLOSED } relay_views_kind;

typedef struct relay_views_event {
    relay_views_kind kind;
    uint32_t conn;
    uint8_t* data; /* a message's copy, else NULL */
    size_t size;
} relay_views_event;

typedef struct relay_views_events {
    relay_views_event* items;
    uint32_t count, cap;
    size_t bytes;
} relay_views_events;

struct relay_views {
    view_hub* hub;
    nv_jobs* pool;
    edge* e;
    proto_limits limits;
    pthread_t thread;
    int started;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    /* Under lock: what the other threads hand over. */
    int stopping;
    relay_views_events pending;
    nng_msg* inbox[RELAY_VIEWS_INBOX];
    uint32_t inbox_head, inbox_count;
    uint64_t superseded, peer_dropped;
    /* The view thread's own. */
    relay_views_events work;
    proto_compact_decoder* compact;
    proto_snapshot full, delta; /* decoder-owned storage of each kind */
    uint64_t tick_offset, last_tick;
    int ticked;
    uint64_t frames, skipped, undecodable, awaiting_keyframe, foreign;
    double next_summary;
};

static double relay_views_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int relay_views_create(relay_views** out, const view_config* cfg, uint32_t threads, size_t max_message,
                       nv_error* err) {
    *out = NULL;
    relay_views* v = calloc(1, sizeof *v);
    if (!v) return nv_error_fail(err, NV_ENOMEM, "views: out of memory");
    view_config c = *cfg;
    c.allow_own = 0;
    proto_error pe;
    if (pthread_mutex_init(&v->lock, NULL)) {
        free(v);
        return nv_error_fail(err, NV_ENOMEM, "views: cannot create a mutex");
    }
    if (pthread_cond_init(&v->wake, NULL)) {
        pthread_mutex_destroy(&v->lock);
        free(v);
        return nv_error_fail(err, NV_ENOMEM, "views: cannot create a condition variable");
    }
    if (view_hub_create(&v->hub, &c, NULL, NULL, err) || nv_jobs_create(&v->pool, threads, err)) {
        relay_views_destroy(v);
        return -1;
    }
    if (!(v->compact = proto_create_compact_decoder(&pe))) {
        relay_views_destroy(v);
        return nv_error_fail(err, NV_ENOMEM, "views: %s", pe.message);
    }
    v->limits = proto_default_limits();
    if (max_message < v->limits.max_message_size) v->limits.max_message_size = max_message;
    *out = v;
    return 0;
}

/* ---- the view thread --------------------------------------------------------- */

static void relay_views_refuse(relay_views* v, uint32_t conn, const nv_error* why) {
    const uint8_t* data;
    size_t size;
    log_event(&relay_views_refused, "view connection %u: %s", conn, why->message);
    if (!view_refusal(v->hub, conn, why, &data, &size) && edge_send(v->e, conn, data, size))
        log_warn("views: out of memory for a refusal to view connection %u", conn);
}

static void relay_views_apply(relay_views* v, const relay_views_event* ev) {
    nv_error err;
    switch (ev->kind) {
    case RELAY_VIEWS_OPEN:
        /* Past max_views the connection gets nothing, as on the server. */
        if (view_open(v->hub, ev->conn, &err))
            log_event(&relay_views_refused, "view connection %u: %s", ev->conn, err.message);
        break;
    case RELAY_VIEWS_MESSAGE:
        if (view_handle(v->hub, ev->conn, ev->data, ev->size, &err)) relay_views_refuse(v, ev->conn, &err);
        break;
    case RELAY_VIEWS_CLOSED: view_close(v->hub, ev->conn); break;
    }
}

static void relay_views_apply_all(relay_views* v) {
    for (uint32_t i = 0; i < v->work.count; i++) {
        relay_views_apply(v, &v->work.items[i]);
        free(v->work.items[i].data);
    }
    v->work.count = 0;
    v->work.bytes = 0;
}

/* The snapshot in m, or NULL: not a snapshot, undecodable, or a delta
 * whose keyframe this relay has not had (each counted). */
static const proto_snapshot* relay_views_decode(relay_views* v, nng_msg* m) {
    const void* data = nng_msg_body(m);
    size_t size = nng_msg_len(m);
    proto_error err;
    switch (proto_identify(data, size)) {
    case PROTO_KIND_SNAPSHOT:
        if (!proto_decode_snapshot(data, size, &v->limits, &v->full, &err)) return &v->full;
        break;
    case PROTO_KIND_COMPACT: {
        int rc = proto_decode_compact(v->compact, data, size, &v->limits, &v->delta, &err);
        if (rc == 0) return &v->delta;
        if (rc == PROTO_NEED_KEYFRAME) {
            v->awaiting_keyframe++;
            return NULL;
        }
        break;
    }
    default: v->foreign++; return NULL;
    }
    v->undecodable++;
    log_event(&relay_views_undecodable, "views: an upstream message does not decode: %s", err.message);
    return NULL;
}

/* The views' ticks never go back, so that every view's base stays valid
 * when the upstream restarts and its ticks start again: a tick at or
 * below the last one continues from there (an offset from then on). */
static uint64_t relay_views_tick(relay_views* v, uint64_t upstream) {
    uint64_t t = upstream + v->tick_offset;
    if (v->ticked && t <= v->last_tick) {
        v->tick_offset = v->last_tick + 1 - upstream;
        log_info("views: the upstream's tick went back to %llu; the views go on from tick %llu",
                 (unsigned long long)upstream, (unsigned long long)(v->last_tick + 1));
        t = v->last_tick + 1;
    }
    v->ticked = 1;
    v->last_tick = t;
    return t;
}

static void relay_views_encode(relay_views* v, const proto_snapshot* s) {
    view_frame f = {relay_views_tick(v, s->tick), s->sim_time, s->send_time_ns, s->vessels, s->vessel_count,
                    s->contacts, s->contact_count};
    nv_error err;
    /* A full upstream carries damage (a compact one none); the events of
     * frames the relay skipped while behind are not seen. */
    if (view_hub_set_damage(v->hub, s->damage, s->damage_count, s->damage_events, s->damage_event_count, &err))
        log_error("views: %s", err.message);
    if (view_hub_encode(v->hub, &f, v->pool, &err)) log_error("views: %s", err.message);
    v->frames++;
    for (uint32_t i = 0; i < view_hub_output_count(v->hub); i++) {
        uint32_t conn;
        const uint8_t* data;
        size_t size;
        view_hub_output(v->hub, i, &conn, &data, &size);
        if (edge_send(v->e, conn, data, size))
            log_warn("views: out of memory for an update to view connection %u", conn);
    }
}

/* Oldest first: compact messages all go through the decoder (it must see
 * every keyframe); only the newest frame is encoded, and a full snapshot
 * that is not the newest is not even decoded (it stands alone). */
static void relay_views_take(relay_views* v, nng_msg** msgs, uint32_t n) {
    int wanted = view_count(v->hub) > 0;
    const proto_snapshot* s = NULL;
    for (uint32_t i = 0; i < n; i++) {
        int newest = i + 1 == n;
        int full = proto_identify(nng_msg_body(msgs[i]), nng_msg_len(msgs[i])) == PROTO_KIND_SNAPSHOT;
        if (full && !(newest && wanted)) {
            v->skipped += !newest;
        } else {
            s = relay_views_decode(v, msgs[i]);
            v->skipped += !newest && s;
        }
        if (!newest) s = NULL;
        nng_msg_free(msgs[i]);
    }
    if (s && wanted) relay_views_encode(v, s);
}

static void relay_views_summarize(relay_views* v) {
    double now = relay_views_now();
    if (now < v->next_summary) return;
    if (v->next_summary > 0.0) log_summarize(RELAY_VIEWS_SUMMARY_S);
    v->next_summary = now + RELAY_VIEWS_SUMMARY_S;
}

static void* relay_views_main(void* arg) {
    relay_views* v = arg;
    nng_msg* msgs[RELAY_VIEWS_INBOX];
    for (;;) {
        uint32_t n = 0;
        pthread_mutex_lock(&v->lock);
        while (!v->stopping && !v->pending.count && !v->inbox_count) pthread_cond_wait(&v->wake, &v->lock);
        int stop = v->stopping;
        if (!stop) {
            relay_views_events t = v->pending;
            v->pending = v->work; /* emptied by the last apply: its storage is reused */
            v->work = t;
            for (; v->inbox_count; v->inbox_count--, v->inbox_head = (v->inbox_head + 1) % RELAY_VIEWS_INBOX)
                msgs[n++] = v->inbox[v->inbox_head];
        }
        pthread_mutex_unlock(&v->lock);
        if (stop) return NULL;
        /* Events first: a view's settings apply to this very frame. */
        relay_views_apply_all(v);
        relay_views_take(v, msgs, n);
        relay_views_summarize(v);
    }
}

int relay_views_start(relay_views* v, edge* e, nv_error* err) {
    v->e = e;
    if (pthread_create(&v->thread, NULL, relay_views_main, v) != 0)
        return nv_error_fail(err, NV_ENOMEM, "views: cannot start the view thread");
    v->started = 1;
    return 0;
}

void relay_views_stop(relay_views* v) {
    if (!v) return;
    pthread_mutex_lock(&v->lock);
    v->stopping = 1;
    pthread_cond_signal(&v->wake);
    pthread_mutex_unlock(&v->lock);
    if (!v->started) return;
    pthread_join(v->thread, NULL);
    v->started = 0;
    view_stats st;
    view_hub_stats(v->hub, &st);
    log_info("views: %llu frames encoded, %llu updates (%llu keyframes, %llu bytes), %llu refusals; upstream "
             "messages: %llu superseded, %llu skipped for a newer one, %llu before a keyframe, %llu undecodable, "
             "%llu not snapshots; %llu peer messages dropped",
             (unsigned long long)v->frames, (unsigned long long)st.updates, (unsigned long long)st.keyframes,
             (unsigned long long)st.bytes, (unsigned long long)st.refusals, (unsigned long long)v->superseded,
             (unsigned long long)v->skipped, (unsigned long long)v->awaiting_keyframe,
             (unsigned long long)v->undecodable, (unsigned long long)v->foreign, (unsigned long long)v->peer_dropped);
}

static void relay_views_free_events(relay_views_events* q) {
    for (uint32_t i = 0; i < q->count; i++) free(q->items[i].data);
    free(q->items);
    memset(q, 0, sizeof *q);
}

void relay_views_destroy(relay_views* v) {
    if (!v) return;
    relay_views_stop(v);
    relay_views_free_events(&v->pending);
    relay_views_free_events(&v->work);
    for (; v->inbox_count; v->inbox_count--, v->inbox_head = (v->inbox_head + 1) % RELAY_VIEWS_INBOX)
        nng_msg_free(v->inbox[v->inbox_head]);
    proto_destroy_compact_decoder(v->compact);
    proto_free_snapshot(&v->full);
    proto_free_snapshot(&v->delta);
    view_hub_destroy(v->hub);
    nv_jobs_destroy(v->pool);
    pthread_cond_destroy(&v->wake);
    pthread_mutex_destroy(&v->lock);
    free(v);
}

/* ---- the other threads ----------------------------------------------------- */

void relay_views_offer(relay_views* v, nng_msg* m) {
    nng_msg* old = NULL;
    pthread_mutex_lock(&v->lock);
    if (v->stopping) {
        old = m;
    } else {
        if (v->inbox_count == RELAY_VIEWS_INBOX) {
            old = v->inbox[v->inbox_head];
            v->inbox_head = (v->inbox_head + 1) % RELAY_VIEWS_INBOX;
            v->inbox_count--;
            v->superseded++;
        }
        v->inbox[(v->inbox_head + v->inbox_count++) % RELAY_VIEWS_INBOX] = m;
        pthread_cond_signal(&v->wake);
    }
    pthread_mutex_unlock(&v->lock);
    if (old) nng_msg_free(old);
}

static int relay_views_grow(relay_views_events* q) {
    if (q->count < q->cap) return 0;
    uint32_t cap = q->cap ? 2 * q->cap : 64;
    relay_views_event* items = realloc(q->items, (size_t)cap * sizeof *items);
    if (!items) return -1;
    q->items = items;
    q->cap = cap;
    return 0;
}

/* The edge's buffer is reused once the callback returns: a message is
 * copied (outside the lock) for the view thread. */
static void relay_views_push(relay_views* v, relay_views_kind kind, uint32_t conn, const uint8_t* body, size_t size) {
    relay_views_event ev = {kind, conn, NULL, size};
    if (body && (ev.data = malloc(size ? size : 1)) != NULL) memcpy(ev.data, body, size);
    pthread_mutex_lock(&v->lock);
    int dropped = v->stopping || (body && !ev.data) ||
                  (kind == RELAY_VIEWS_MESSAGE && v->pending.bytes + size > RELAY_VIEWS_MAX_PENDING_BYTES) ||
                  relay_views_grow(&v->pending);
    if (!dropped) {
        v->pending.items[v->pending.count++] = ev;
        v->pending.bytes += size;
        pthread_cond_signal(&v->wake);
    } else if (!v->stopping) {
        v->peer_dropped++;
    }
    int stopping = v->stopping;
    pthread_mutex_unlock(&v->lock);
    if (!dropped) return;
    free(ev.data);
    if (!stopping && kind != RELAY_VIEWS_MESSAGE)
        log_warn("views: out of memory to tell the view thread of view connection %u", conn);
}

void relay_views_on_open(relay_views* v, uint32_t conn) { relay_views_push(v, RELAY_VIEWS_OPEN, conn, NULL, 0); }

void relay_views_on_message(relay_views* v, uint32_t conn, const uint8_t* body, size_t size) {
    relay_views_push(v, RELAY_VIEWS_MESSAGE, conn, body, size);
}

void relay_views_on_closed(relay_views* v, uint32_t conn) { relay_views_push(v, RELAY_VIEWS_CLOSED, conn, NULL, 0); }
