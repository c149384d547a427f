// SPDX-License-Identifier: MIT
/* The PUB role: a published message is one reference-counted buffer
 * shared by every subscriber of its stream (edge_buf) and released by the
 * edge itself whatever the peers do; each subscriber has one write in
 * flight and a queue of send_queue messages behind it, the oldest dropped
 * when full, as nng's PUB does. Publishing hands the buffer to the edge's
 * thread under the lock, at most publish_queue per stream (the oldest is
 * superseded: subscribers want the newest). */
#include <stdlib.h>
#include <string.h>

#include "edge_internal.h"

void edge_buf_unref(edge* e, edge_buf* b) {
    if (--b->refs > 0) return;
    if (b->release) b->release(b->release_arg);
    free(b->ws);
    free(b);
    EDGE_SUB(e->stats.buffers, 1);
}

static void edge_broadcast_written(uv_write_t* req, int status);

static void edge_broadcast_next(edge_conn* c) {
    edge* e = c->e;
    if (c->inflight || !c->q_count || c->state == EDGE_CLOSING || c->close_after) return;
    edge_buf* b = c->queue[c->q_head];
    c->q_head = (c->q_head + 1) % e->lim.send_queue;
    c->q_count--;
    uv_buf_t bufs[2];
    unsigned n = 0;
    edge_session_buf_bytes(c, b, bufs, &n);
    if (!n) { /* out of memory for the frames: this one is lost */
        edge_buf_unref(e, b);
        EDGE_ADD(e->stats.dropped[b->stream < EDGE_MAX_STREAMS ? b->stream : 0], 1);
        return;
    }
    c->inflight = b;
    c->write_ns = edge_now_ns();
    c->writes++;
    if (uv_write(&c->wr, (uv_stream_t*)&c->tcp, bufs, n, edge_broadcast_written)) {
        c->writes--;
        c->inflight = NULL;
        edge_buf_unref(e, b);
        edge_conn_close(c);
    }
}

static void edge_broadcast_written(uv_write_t* req, int status) {
    edge_conn* c = (edge_conn*)((char*)req - offsetof(edge_conn, wr));
    edge_buf* b = c->inflight;
    c->inflight = NULL;
    edge_buf_unref(c->e, b);
    edge_conn_written(c, status);
    if (c->state != EDGE_CLOSING) edge_broadcast_next(c);
}

static void edge_enqueue(edge_conn* c, edge_buf* b) {
    edge* e = c->e;
    uint32_t cap = e->lim.send_queue;
    if (c->q_count == cap) {
        /* Full: the oldest goes, as nng's PUB does. */
        edge_buf_unref(e, c->queue[c->q_head]);
        c->q_head = (c->q_head + 1) % cap;
        c->q_count--;
        EDGE_ADD(e->stats.dropped[b->stream], 1);
    }
    c->queue[(c->q_head + c->q_count) % cap] = b;
    c->q_count++;
    b->refs++;
    edge_broadcast_next(c);
}

void edge_deliver(edge* e, edge_buf* b) {
    uint64_t n = 0;
    for (edge_conn* c = e->subscribers[b->stream].first; c; c = c->snext) {
        edge_enqueue(c, b);
        n++;
    }
    EDGE_ADD(e->stats.messages[b->stream], n);
    EDGE_ADD(e->stats.bytes[b->stream], n * b->size);
    edge_buf_unref(e, b); /* the publisher's reference */
}

void edge_list_append(edge_list* l, edge_conn* c) {
    c->sprev = l->last;
    c->snext = NULL;
    if (l->last) l->last->snext = c;
    else l->first = c;
    l->last = c;
}

void edge_subscribe(edge_conn* c, uint32_t stream) {
    edge* e = c->e;
    c->queue = calloc(e->lim.send_queue, sizeof *c->queue);
    if (!c->queue) {
        edge_conn_close(c);
        return;
    }
    c->stream = stream;
    edge_list_append(&e->subscribers[stream], c);
    c->counted = 1;
    EDGE_ADD(e->stats.subscribers[stream], 1);
}

static int edge_publish_buf(edge* e, uint32_t stream, edge_buf* b) {
    b->refs = 1;
    b->stream = stream;
    for (int i = 0; i < 8; i++) b->sp_len[i] = (uint8_t)((uint64_t)b->size >> (56 - 8 * i));
    EDGE_ADD(e->stats.buffers, 1);
    EDGE_ADD(e->stats.published[stream], 1);
    uint32_t cap = e->lim.publish_queue;
    edge_buf* old = NULL;
    uv_mutex_lock(&e->lock);
    if (e->incoming_count[stream] == cap) {
        old = e->incoming[stream][e->incoming_head[stream]];
        e->incoming_head[stream] = (e->incoming_head[stream] + 1) % cap;
        e->incoming_count[stream]--;
    }
    e->incoming[stream][(e->incoming_head[stream] + e->incoming_count[stream]) % cap] = b;
    e->incoming_count[stream]++;
    uv_mutex_unlock(&e->lock);
    if (old) {
        EDGE_ADD(e->stats.superseded[stream], 1);
        old->refs = 1;
        edge_buf_unref(e, old); /* never shared: safe off the edge's thread */
    }
    uv_async_send(&e->wake);
    return 0;
}

int edge_publish(edge* e, uint32_t stream, const void* data, size_t size) {
    if (!e || stream >= e->streams) return -1;
    edge_buf* b = malloc(sizeof *b + size);
    if (!b) return -1;
    memset(b, 0, sizeof *b);
    memcpy(b->inline_data, data, size);
    b->data = b->inline_data;
    b->size = size;
    return edge_publish_buf(e, stream, b);
}

int edge_publish_owned(edge* e, uint32_t stream, const void* data, size_t size, void (*release)(void*),
                       void* release_arg) {
    if (!e || stream >= e->streams) return -1;
    edge_buf* b = calloc(1, sizeof *b);
    if (!b) return -1;
    b->data = data;
    b->size = size;
    b->release = release;
    b->release_arg = release_arg;
    return edge_publish_buf(e, stream, b);
}
