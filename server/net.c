#include "net.h"

#include <nng/protocol/pubsub0/pub.h>
#include <nng/protocol/reqrep0/rep.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "log.h"

#define NET_URL_MAX 512

enum { NET_RECV = 0, NET_WAIT, NET_SEND };

typedef struct net_slot {
    net* owner;
    uint32_t index;
    nng_ctx ctx;
    nng_aio* aio;
    int state; /* NET_*: the callback and net_reply take turns, never at once */
} net_slot;

typedef struct net_pub {
    nng_socket sock;
    int open;
    metrics_stream stream;
    net* owner;
} net_pub;

/* nng's PUB writes to every idle subscriber's socket inside nng_sendmsg,
 * on the caller's thread (64 subscribers x 288 KB = ~7 ms measured): the
 * loop hands each snapshot to this thread instead and goes on ticking. A
 * snapshot still waiting when the next one comes is replaced (counted):
 * subscribers want the newest world, and the loop never waits. */
typedef struct net_outbox {
    uv_thread_t thread;
    uv_mutex_t lock;
    uv_cond_t wake;
    nng_msg* pending[METRICS_STREAMS];
    int stop, started;
} net_outbox;

struct net {
    net_pub pubs[METRICS_STREAMS];
    net_outbox out;
    nng_socket rep;
    int rep_open;
    net_slot* slots;
    uint32_t slot_count;
    cmdq* queue;
    metrics* m;
    atomic_int closing;
};

static void net_pub_pipe_cb(nng_pipe p, nng_pipe_ev ev, void* arg) {
    (void)p;
    net_pub* pub = arg;
    atomic_uint* count = &pub->owner->m->subscribers[pub->stream];
    if (ev == NNG_PIPE_EV_ADD_POST) atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
    else if (ev == NNG_PIPE_EV_REM_POST) atomic_fetch_sub_explicit(count, 1, memory_order_relaxed);
}

static void net_rep_pipe_cb(nng_pipe p, nng_pipe_ev ev, void* arg) {
    net* n = arg;
    if (ev == NNG_PIPE_EV_ADD_POST) {
        atomic_fetch_add_explicit(&n->m->command_connections, 1, memory_order_relaxed);
        return;
    }
    if (ev != NNG_PIPE_EV_REM_POST) return;
    atomic_fetch_sub_explicit(&n->m->command_connections, 1, memory_order_relaxed);
    /* The loop forgets the connection's rate limit and orphans its vessels. */
    cmdq_item it = {CMDQ_PIPE_CLOSED, 0, (uint32_t)nng_pipe_id(p), uv_hrtime(), NULL};
    if (!atomic_load(&n->closing) && cmdq_push(n->queue, &it))
        log_warn("command connection %u closed but out of memory to tell the loop", it.pipe);
}

static void net_outbox_main(void* arg) {
    net* n = arg;
    net_outbox* o = &n->out;
    for (;;) {
        nng_msg* take[METRICS_STREAMS] = {NULL};
        uv_mutex_lock(&o->lock);
        while (!o->stop && !o->pending[METRICS_FULL] && !o->pending[METRICS_COMPACT]) uv_cond_wait(&o->wake, &o->lock);
        for (int i = 0; i < METRICS_STREAMS; i++) {
            take[i] = o->pending[i];
            o->pending[i] = NULL;
        }
        int stop = o->stop;
        uv_mutex_unlock(&o->lock);
        for (int i = 0; i < METRICS_STREAMS; i++) {
            if (!take[i]) continue;
            size_t size = nng_msg_len(take[i]);
            uint32_t subscribers = atomic_load_explicit(&n->m->subscribers[i], memory_order_relaxed);
            if (nng_sendmsg(n->pubs[i].sock, take[i], NNG_FLAG_NONBLOCK) == 0)
                metrics_record_publish(n->m, (metrics_stream)i, size, subscribers);
            else
                nng_msg_free(take[i]);
        }
        if (stop) return;
    }
}

static int net_outbox_start(net* n, nv_error* err) {
    net_outbox* o = &n->out;
    if (uv_mutex_init(&o->lock)) return nv_error_set(err, "mutex init failed");
    if (uv_cond_init(&o->wake)) {
        uv_mutex_destroy(&o->lock);
        return nv_error_set(err, "condition variable init failed");
    }
    if (uv_thread_create(&o->thread, net_outbox_main, n)) {
        uv_cond_destroy(&o->wake);
        uv_mutex_destroy(&o->lock);
        return nv_error_set(err, "cannot start the publisher thread");
    }
    o->started = 1;
    return 0;
}

/* Sends what is pending, then joins. */
static void net_outbox_stop(net* n) {
    net_outbox* o = &n->out;
    if (!o->started) return;
    uv_mutex_lock(&o->lock);
    o->stop = 1;
    uv_cond_signal(&o->wake);
    uv_mutex_unlock(&o->lock);
    uv_thread_join(&o->thread);
    for (int i = 0; i < METRICS_STREAMS; i++)
        if (o->pending[i]) nng_msg_free(o->pending[i]);
    uv_cond_destroy(&o->wake);
    uv_mutex_destroy(&o->lock);
    o->started = 0;
}

static void net_slot_recv(net_slot* s) {
    s->state = NET_RECV;
    nng_ctx_recv(s->ctx, s->aio);
}

static void net_slot_cb(void* arg) {
    net_slot* s = arg;
    net* n = s->owner;
    int rv = nng_aio_result(s->aio);
    if (s->state == NET_SEND) {
        if (rv != 0) {
            /* The requester went away: the message is still ours. */
            nng_msg* unsent = nng_aio_get_msg(s->aio);
            if (unsent) nng_msg_free(unsent);
            nng_aio_set_msg(s->aio, NULL);
        }
        if (rv == NNG_ECLOSED || atomic_load(&n->closing)) return;
        net_slot_recv(s);
        return;
    }
    if (rv != 0) {
        if (rv == NNG_ECLOSED || atomic_load(&n->closing)) return;
        net_slot_recv(s);
        return;
    }
    nng_msg* msg = nng_aio_get_msg(s->aio);
    nng_aio_set_msg(s->aio, NULL);
    s->state = NET_WAIT;
    cmdq_item it = {CMDQ_REQUEST, s->index, (uint32_t)nng_pipe_id(nng_msg_get_pipe(msg)), uv_hrtime(), msg};
    if (cmdq_push(n->queue, &it)) {
        /* No memory to queue it: drop it, as a lost request; the client's
         * timeout tells it so. */
        nng_msg_free(msg);
        net_slot_recv(s);
    }
}

static int net_fail(nv_error* err, const char* what, const char* url, int rv) {
    return nv_error_set(err, "%s %s: %s", what, url, nng_strerror(rv));
}

static int net_listen(nng_socket sock, const char* url, size_t recv_max, nv_error* err) {
    nng_listener l;
    int rv = nng_listener_create(&l, sock, url);
    if (rv == 0 && recv_max) rv = nng_listener_set_size(l, NNG_OPT_RECVMAXSZ, recv_max);
    if (rv == 0) rv = nng_listener_start(l, 0);
    if (rv) return net_fail(err, "cannot listen on", url, rv);
    log_info("listening on %s", url);
    return 0;
}

static int net_ws_url(char* out, size_t n, const char* http, const char* path) {
    int len = snprintf(out, n, "ws://%s%s", http, path);
    return len < 0 || (size_t)len >= n ? -1 : 0;
}

static int net_open_pub(net* n, metrics_stream s, const char* url, const char* http, const char* path,
                        const net_config* cfg, nv_error* err) {
    net_pub* pub = &n->pubs[s];
    if (!url[0] && !http[0]) return 0;
    pub->owner = n;
    pub->stream = s;
    int rv = nng_pub0_open(&pub->sock);
    if (rv) return nv_error_set(err, "cannot open a PUB socket: %s", nng_strerror(rv));
    pub->open = 1;
    if ((rv = nng_socket_set_int(pub->sock, NNG_OPT_SENDBUF, (int)cfg->send_queue)) ||
        (rv = nng_pipe_notify(pub->sock, NNG_PIPE_EV_ADD_POST, net_pub_pipe_cb, pub)) ||
        (rv = nng_pipe_notify(pub->sock, NNG_PIPE_EV_REM_POST, net_pub_pipe_cb, pub)))
        return nv_error_set(err, "PUB socket options: %s", nng_strerror(rv));
    /* A subscriber sends nothing; a small cap keeps a misbehaving peer from
     * making us buffer anything big before PUB closes its pipe. */
    if (url[0] && net_listen(pub->sock, url, 4096, err)) return -1;
    char ws[NET_URL_MAX];
    if (http[0]) {
        if (net_ws_url(ws, sizeof ws, http, path)) return nv_error_set(err, "http address too long: %s", http);
        if (net_listen(pub->sock, ws, 4096, err)) return -1;
    }
    return 0;
}

static int net_open_rep(net* n, const net_config* cfg, nv_error* err) {
    if (!cfg->command_url[0] && !cfg->http[0]) return 0;
    int rv = nng_rep0_open(&n->rep);
    if (rv) return nv_error_set(err, "cannot open a REP socket: %s", nng_strerror(rv));
    n->rep_open = 1;
    if ((rv = nng_socket_set_size(n->rep, NNG_OPT_RECVMAXSZ, cfg->recv_max)) ||
        (rv = nng_pipe_notify(n->rep, NNG_PIPE_EV_ADD_POST, net_rep_pipe_cb, n)) ||
        (rv = nng_pipe_notify(n->rep, NNG_PIPE_EV_REM_POST, net_rep_pipe_cb, n)))
        return nv_error_set(err, "REP socket options: %s", nng_strerror(rv));
    n->slots = calloc(cfg->contexts, sizeof *n->slots);
    if (!n->slots) return nv_error_set(err, "out of memory for %u contexts", cfg->contexts);
    for (uint32_t i = 0; i < cfg->contexts; i++) {
        net_slot* s = &n->slots[i];
        s->owner = n;
        s->index = i;
        if ((rv = nng_aio_alloc(&s->aio, net_slot_cb, s)) || (rv = nng_ctx_open(&s->ctx, n->rep))) {
            if (s->aio) nng_aio_free(s->aio);
            s->aio = NULL;
            return nv_error_set(err, "REP context %u: %s", i, nng_strerror(rv));
        }
        n->slot_count = i + 1;
    }
    if (cfg->command_url[0] && net_listen(n->rep, cfg->command_url, cfg->recv_max, err)) return -1;
    if (cfg->http[0]) {
        char ws[NET_URL_MAX];
        if (net_ws_url(ws, sizeof ws, cfg->http, NET_WS_COMMANDS))
            return nv_error_set(err, "http address too long: %s", cfg->http);
        if (net_listen(n->rep, ws, cfg->recv_max, err)) return -1;
    }
    for (uint32_t i = 0; i < n->slot_count; i++) net_slot_recv(&n->slots[i]);
    return 0;
}

int net_open(net** out, const net_config* cfg, cmdq* queue, metrics* m, nv_error* err) {
    net* n = calloc(1, sizeof *n);
    if (!n) return nv_error_set(err, "out of memory");
    n->queue = queue;
    n->m = m;
    if (net_outbox_start(n, err) ||
        net_open_pub(n, METRICS_FULL, cfg->snapshot_url, cfg->http, NET_WS_SNAPSHOTS, cfg, err) ||
        net_open_pub(n, METRICS_COMPACT, cfg->compact_url, cfg->compact_url[0] ? cfg->http : "", NET_WS_COMPACT, cfg,
                     err) ||
        net_open_rep(n, cfg, err)) {
        net_close(n);
        return -1;
    }
    *out = n;
    return 0;
}

void net_close(net* n) {
    if (!n) return;
    atomic_store(&n->closing, 1);
    /* Stop every context's aio first (the callbacks see `closing` and do
     * not re-arm; nng_aio_stop waits for them), then close the socket with
     * nothing in flight: nng 1.5.2's nng_close can hang when it races with
     * pipes and callbacks still at work (network.md). */
    for (uint32_t i = 0; i < n->slot_count; i++) nng_aio_stop(n->slots[i].aio);
    if (n->rep_open) nng_close(n->rep);
    for (uint32_t i = 0; i < n->slot_count; i++) {
        nng_msg* left = nng_aio_get_msg(n->slots[i].aio);
        if (left) nng_msg_free(left);
        nng_aio_free(n->slots[i].aio);
    }
    net_outbox_stop(n);
    for (int s = 0; s < METRICS_STREAMS; s++)
        if (n->pubs[s].open) nng_close(n->pubs[s].sock);
    free(n->slots);
    free(n);
}

int net_has_subscribers(const net* n, metrics_stream s) {
    return n && n->pubs[s].open && atomic_load_explicit(&n->m->subscribers[s], memory_order_relaxed) > 0;
}

int net_publish(net* n, metrics_stream s, const void* data, size_t size) {
    if (!n || !n->pubs[s].open) return 0;
    nng_msg* msg;
    int rv = nng_msg_alloc(&msg, size);
    if (rv) return -1;
    memcpy(nng_msg_body(msg), data, size);
    uv_mutex_lock(&n->out.lock);
    nng_msg* old = n->out.pending[s];
    n->out.pending[s] = msg;
    uv_cond_signal(&n->out.wake);
    uv_mutex_unlock(&n->out.lock);
    if (old) {
        nng_msg_free(old);
        atomic_fetch_add_explicit(&n->m->superseded[s], 1, memory_order_relaxed);
    }
    return 0;
}

void net_reply(net* n, uint32_t slot, const void* data, size_t size) {
    if (!n || slot >= n->slot_count || atomic_load(&n->closing)) return;
    net_slot* s = &n->slots[slot];
    nng_msg* msg;
    if (nng_msg_alloc(&msg, size) != 0) {
        /* Nothing to say it with: free the context for the next request. */
        net_slot_recv(s);
        return;
    }
    memcpy(nng_msg_body(msg), data, size);
    atomic_fetch_add_explicit(&n->m->response_bytes, size, memory_order_relaxed);
    s->state = NET_SEND;
    nng_aio_set_msg(s->aio, msg);
    nng_ctx_send(s->ctx, s->aio);
}

int net_is_open(const net* n) { return n && !atomic_load(&n->closing); }
