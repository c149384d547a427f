// SPDX-License-Identifier: MIT
#include "edge.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "edge_internal.h"
#include "grow.h"
#include "log.h"

#define EDGE_SWEEP_MS 250
#define EDGE_BACKLOG 511
/* Descriptors kept for everything but connections: files (checkpoints,
 * the record log, the site), libuv, nng's client, the job system. */
#define EDGE_FD_RESERVE 128
/* A connection younger than this is not evicted for a newcomer: its
 * request is likely on the way. */
#define EDGE_EVICT_MIN_AGE_NS 50000000ull
/* A session that has sent nothing for this long may be closed to make
 * room for a newcomer of its role: a player between two commands is
 * idle for far less, and one from a crowded address goes first anyway. */
#define EDGE_EVICT_MIN_IDLE_NS 1000000000ull


void edge_limits_default(edge_limits* l) {
    l->max_connections = 4096;
    l->max_connections_per_address = 256;
    l->header_timeout_s = 5.0;
    l->idle_timeout_s = 30.0;
    l->send_timeout_s = 30.0;
    l->max_header_bytes = 8192;
    l->send_queue = 16;
    l->max_message_bytes = 1u << 20;
    l->max_pending = 16;
    l->log_interval_s = 10.0;
    l->max_total = 0;
    l->publish_queue = 1;
    l->peer_messages_per_s = 240;
    l->request_idle_timeout_s = 300.0;
    l->peer_idle_timeout_s = 30.0;
    l->message_timeout_s = 15.0;
    l->max_requesters = 0;
    l->max_peers = 0;
}

uint64_t edge_now_ns(void) { return uv_hrtime(); }

/* ---- connections --------------------------------------------------------------- */

static void edge_timed_remove(edge_list* l, edge_conn* c) {
    if (c->prev) c->prev->next = c->next;
    else l->first = c->next;
    if (c->next) c->next->prev = c->prev;
    else l->last = c->prev;
    c->prev = c->next = NULL;
}

static void edge_stream_remove(edge_list* l, edge_conn* c) {
    if (c->sprev) c->sprev->snext = c->snext;
    else l->first = c->snext;
    if (c->snext) c->snext->sprev = c->sprev;
    else l->last = c->sprev;
    c->sprev = c->snext = NULL;
}

void edge_conn_set_timed(edge_conn* c, edge_timed list) {
    edge* e = c->e;
    if (c->timed != EDGE_LIST_NONE) edge_timed_remove(&e->timed[c->timed], c);
    c->timed = (uint8_t)list;
    if (list == EDGE_LIST_NONE) return;
    c->since_ns = edge_now_ns();
    edge_list* l = &e->timed[list];
    c->prev = l->last;
    c->next = NULL;
    if (l->last) l->last->next = c;
    else l->first = c;
    l->last = c;
}

static void edge_alloc_cb(uv_handle_t* h, size_t suggested, uv_buf_t* buf) {
    (void)suggested;
    edge_conn* c = (edge_conn*)h;
    /* Reads are handled at once, one connection at a time: one buffer
     * serves them all, and what a connection keeps is copied out. */
    *buf = uv_buf_init(c->e->read_buf, sizeof c->e->read_buf);
}


static void edge_read_cb(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf) {
    edge_conn* c = (edge_conn*)s;
    if (nread == 0 || c->state == EDGE_CLOSING) return;
    if (nread < 0 || grow_append(&c->in, &c->in_len, &c->in_cap, buf->base, (size_t)nread)) {
        edge_conn_close(c);
        return;
    }
    if (c->framing == EDGE_FRAMING_HTTP) edge_http_input(c);
    else edge_session_input(c);
}

void edge_conn_pause(edge_conn* c, int paused) {
    if (c->state == EDGE_CLOSING || c->paused == paused) return;
    c->paused = (uint8_t)paused;
    if (paused) uv_read_stop((uv_stream_t*)&c->tcp);
    else uv_read_start((uv_stream_t*)&c->tcp, edge_alloc_cb, edge_read_cb);
}

static void edge_closed_cb(uv_handle_t* h) {
    edge_conn* c = (edge_conn*)h;
    edge* e = c->e;
    /* uv_close cancelled its writes (their callbacks ran first): whatever
     * is still counted was never handed over. */
    if (c->queued_bytes) EDGE_SUB(e->stats.reply_bytes_queued, c->queued_bytes);
    for (uint32_t i = 0; i < c->q_count; i++)
        edge_buf_unref(e, c->queue[(c->q_head + i) % e->lim.send_queue]);
    if (c->id) {
        idmap_remove(&e->ids, c->id);
        e->conns[c->slot] = NULL;
        e->free_slots[e->free_count++] = c->slot;
        e->conn_count--;
    }
    free(c->in);
    free(c->msg);
    free(c->queue);
    free(c->pending);
    free(c);
    EDGE_SUB(e->stats.connection_memory, 1);
}

/* 127.0.0.1 and ::1, the addresses a program on this host connects
 * from: not all of 127/8, so that tests can play other hosts from
 * 127.0.0.2 and up. */
int edge_conn_is_local(const edge_conn* c) {
    static const uint8_t v4[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1};
    static const uint8_t v6[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    return memcmp(c->addr, v4, 16) == 0 || memcmp(c->addr, v6, 16) == 0;
}

void edge_conn_close(edge_conn* c) {
    if (c->state == EDGE_CLOSING) return;
    edge* e = c->e;
    if (c->role == EDGE_REQUESTER && c->counted) edge_stream_remove(&e->requesters, c);
    edge_session_closed(c);
    c->state = EDGE_CLOSING;
    edge_conn_set_timed(c, EDGE_LIST_NONE);
    if (c->role == EDGE_PEER && c->counted) {
        edge_stream_remove(&e->peers, c);
        EDGE_SUB(e->stats.peers, 1);
        c->counted = 0;
    }
    if (c->role == EDGE_SUBSCRIBER && c->counted) {
        edge_stream_remove(&e->subscribers[c->stream], c);
        EDGE_SUB(e->stats.subscribers[c->stream], 1);
        c->counted = 0;
    }
    if (c->id) {
        e->listeners[c->listener].open--;
        edge_addr_release(e, c->addr);
        EDGE_SUB(e->stats.connections, 1);
    }
    uv_read_stop((uv_stream_t*)&c->tcp);
    uv_close((uv_handle_t*)&c->tcp, edge_closed_cb);
}

/* ---- writes ------------------------------------------------------------------ */

typedef struct edge_write {
    uv_write_t req;
    edge_conn* c;
    void* mem[2];
    size_t size;
} edge_write;

static int edge_is_session(const edge_conn* c) {
    return c->state == EDGE_SESSION && (c->role == EDGE_REQUESTER || c->role == EDGE_PEER);
}

void edge_conn_written(edge_conn* c, int status) {
    c->writes--;
    /* A session's writes progress: the next one waits from now. */
    if (c->role == EDGE_PEER || c->role == EDGE_REQUESTER) c->waiting_ns = c->writes ? edge_now_ns() : 0;
    if (c->state == EDGE_CLOSING) return;
    if (status < 0) {
        edge_conn_close(c);
        return;
    }
    if (c->close_after) {
        if (!c->writes) edge_conn_close(c);
        return;
    }
    if (c->state == EDGE_RESPONDING && !c->writes) edge_http_written(c);
    /* An answer written frees its request's room: requests that waited
     * in the input go on (reading paused while answers were unread). */
    else if (c->state == EDGE_SESSION && c->role == EDGE_REQUESTER) edge_session_input(c);
}

static void edge_private_written(uv_write_t* req, int status) {
    edge_write* w = (edge_write*)req;
    free(w->mem[0]);
    free(w->mem[1]);
    edge_conn* c = w->c;
    c->queued_bytes -= w->size;
    EDGE_SUB(c->e->stats.reply_bytes_queued, w->size);
    free(w);
    edge_conn_written(c, status);
}

int edge_conn_write_two(edge_conn* c, void* head, size_t head_size, const void* body, size_t body_size,
                        void* body_owned) {
    edge_write* w = malloc(sizeof *w);
    if (!w) {
        free(head);
        free(body_owned);
        edge_conn_close(c);
        return -1;
    }
    w->c = c;
    w->mem[0] = head;
    w->mem[1] = body_owned;
    w->size = head_size + body_size;
    uv_buf_t bufs[2];
    unsigned n = 0;
    if (head_size) bufs[n++] = uv_buf_init(head, (unsigned)head_size);
    if (body_size) bufs[n++] = uv_buf_init((char*)body, (unsigned)body_size);
    if (!n) bufs[n++] = uv_buf_init((char*)"", 0);
    if (!c->writes && edge_is_session(c)) c->waiting_ns = edge_now_ns();
    c->writes++;
    c->queued_bytes += w->size;
    EDGE_ADD(c->e->stats.reply_bytes_queued, w->size);
    int rv = uv_write(&w->req, (uv_stream_t*)&c->tcp, bufs, n, edge_private_written);
    if (rv) {
        c->writes--;
        c->queued_bytes -= w->size;
        EDGE_SUB(c->e->stats.reply_bytes_queued, w->size);
        free(head);
        free(body_owned);
        free(w);
        edge_conn_close(c);
        return -1;
    }
    return 0;
}

int edge_conn_write_owned(edge_conn* c, void* mem, const void* data, size_t size) {
    return edge_conn_write_two(c, NULL, 0, data, size, mem);
}

/* ---- answers and peer messages, from any thread --------------------------------- */

int edge_reply(edge* e, uint32_t conn, uint32_t tag, const void* data, size_t size) {
    if (!e) return -1;
    edge_reply_item* r = malloc(sizeof *r + size);
    if (!r) return -1;
    r->conn = conn;
    r->tag = tag;
    r->size = size;
    if (size) memcpy(r->data, data, size);
    uv_mutex_lock(&e->lock);
    if (GROW(&e->replies, &e->reply_cap, e->reply_count + 1, 64)) {
        uv_mutex_unlock(&e->lock);
        free(r);
        return -1;
    }
    e->replies[e->reply_count++] = r;
    uv_mutex_unlock(&e->lock);
    uv_async_send(&e->wake);
    return 0;
}

int edge_send(edge* e, uint32_t conn, const void* data, size_t size) {
    return edge_reply(e, conn, EDGE_PEER_TAG, data, size);
}

int edge_send_last(edge* e, uint32_t conn, const void* data, size_t size) {
    return edge_reply(e, conn, EDGE_PEER_LAST_TAG, data, size);
}

int edge_stream_local_only(edge* e, uint32_t stream, nv_error* err) {
    if (stream >= e->streams) return nv_error_set(err, "edge: no stream %u", stream);
    e->local_only |= 1u << stream;
    return 0;
}

const edge_stats* edge_get_stats(const edge* e) { return &e->stats; }

/* ---- accepting ----------------------------------------------------------------- */

static const char edge_busy_response[] =
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 41\r\n"
    "Connection: close\r\nRetry-After: 5\r\n\r\ntoo many connections: try again shortly\r\n";

static void edge_refuse(edge_conn* c, edge_listener* l, edge_refusal why, const uint8_t key[16]) {
    edge* e = c->e;
    EDGE_ADD(e->stats.refused[why], 1);
    l->refused_interval[why]++;
    edge_address_text(key, e->last_refused, sizeof e->last_refused);
    c->state = EDGE_RESPONDING;
    if (l->framing == EDGE_FRAMING_HTTP) {
        c->close_after = 1;
        edge_conn_write_two(c, NULL, 0, edge_busy_response, sizeof edge_busy_response - 1, NULL);
    } else {
        edge_conn_close(c);
    }
}

static int edge_conn_register(edge* e, edge_conn* c) {
    if (e->free_count == 0) {
        uint32_t cap = (uint32_t)grow_capacity(e->conn_cap, (size_t)e->conn_cap + 1, 1024);
        if (grow_resize((void**)&e->conns, cap, sizeof *e->conns) ||
            grow_resize((void**)&e->free_slots, cap, sizeof *e->free_slots))
            return -1;
        for (uint32_t i = cap; i > e->conn_cap; i--) {
            e->conns[i - 1] = NULL;
            e->free_slots[e->free_count++] = i - 1;
        }
        e->conn_cap = cap;
    }
    do {
        if (++e->next_id == IDMAP_EMPTY) e->next_id = 1;
    } while (idmap_get(&e->ids, e->next_id, &(uint32_t){0}));
    uint32_t slot = e->free_slots[e->free_count - 1];
    if (idmap_put(&e->ids, e->next_id, slot)) return -1;
    e->free_count--;
    e->conns[slot] = c;
    e->conn_count++;
    c->slot = slot;
    c->id = e->next_id;
    return 0;
}

edge_conn* edge_conn_by_id(edge* e, uint32_t id) {
    uint32_t slot;
    return idmap_get(&e->ids, id, &slot) ? e->conns[slot] : NULL;
}

/* Closes the oldest connection of `listener` (any: -1) that is still on
 * its request head or handshake, else the oldest idle keep-alive; 0 when
 * there is none old enough. */
static int edge_evict(edge* e, int listener) {
    uint64_t now = edge_now_ns();
    for (int list = EDGE_LIST_HEAD; list <= EDGE_LIST_IDLE; list++)
        for (edge_conn* c = e->timed[list].first; c && now - c->since_ns >= EDGE_EVICT_MIN_AGE_NS; c = c->next) {
            if (listener >= 0 && c->listener != listener) continue;
            if (c->state == EDGE_RESPONDING || c->close_after) continue; /* finishing an answer */
            EDGE_ADD(e->stats.evicted, 1);
            e->evicted_interval++;
            edge_conn_close(c);
            return 1;
        }
    return 0;
}

static int edge_session_idle(const edge_conn* c, uint64_t now) {
    if (c->state != EDGE_SESSION || c->close_after || c->partial_ns || now - c->active_ns < EDGE_EVICT_MIN_IDLE_NS)
        return 0;
    return c->role == EDGE_PEER || (c->pending_count == 0 && c->writes == 0);
}

int edge_evict_session(edge* e, edge_role role) {
    uint64_t now = edge_now_ns();
    edge_conn* victim = NULL;
    uint32_t crowd = 0;
    /* The most crowded address first, then the longest idle there: one
     * address that parks sessions cannot keep the others out. */
    for (edge_conn* c = role == EDGE_PEER ? e->peers.first : e->requesters.first; c; c = c->snext) {
        if (!edge_session_idle(c, now)) continue;
        uint32_t n = edge_addr_count(e, c->addr);
        if (!victim || n > crowd || (n == crowd && c->active_ns < victim->active_ns)) {
            victim = c;
            crowd = n;
        }
    }
    if (!victim) return 0;
    EDGE_ADD(e->stats.sessions_evicted, 1);
    e->evicted_interval++;
    char addr[64];
    edge_address_text(victim->addr, addr, sizeof addr);
    log_debug("closed idle %s %u from %s (%u connections) to make room", role == EDGE_PEER ? "peer" : "requester",
              victim->id, addr, crowd);
    edge_conn_close(victim);
    return 1;
}

static void edge_on_connection(uv_stream_t* server, int status) {
    edge_listener* l = (edge_listener*)server;
    edge* e = l->e;
    if (status < 0 || atomic_load(&e->stop)) return;
    edge_conn* c = calloc(1, sizeof *c);
    if (!c) return;
    EDGE_ADD(e->stats.connection_memory, 1);
    c->e = e;
    c->listener = (uint8_t)l->index;
    c->framing = (uint8_t)l->framing;
    uv_tcp_init(&e->loop, &c->tcp);
    if (uv_accept(server, (uv_stream_t*)&c->tcp)) {
        c->state = EDGE_CLOSING;
        uv_close((uv_handle_t*)&c->tcp, edge_closed_cb);
        return;
    }
    EDGE_ADD(e->stats.accepted, 1);
    struct sockaddr_storage peer;
    int len = sizeof peer;
    memset(&peer, 0, sizeof peer);
    uv_tcp_getpeername(&c->tcp, (struct sockaddr*)&peer, &len);
    uint8_t key[16];
    edge_addr_key(&peer, key);
    if (edge_addr_count(e, key) >= e->lim.max_connections_per_address) {
        edge_refuse(c, l, EDGE_REFUSED_ADDRESS_FULL, key);
        return;
    }
    if (l->open >= e->lim.max_connections && !edge_evict(e, l->index)) {
        edge_refuse(c, l, EDGE_REFUSED_LISTENER_FULL, key);
        return;
    }
    if (e->conn_count >= e->budget && !edge_evict(e, -1)) {
        edge_refuse(c, l, EDGE_REFUSED_SERVER_FULL, key);
        return;
    }
    if ((e->addr_cap == 0 || 2 * (e->conn_count + 1) > e->addr_cap) && edge_addr_grow(e)) {
        edge_refuse(c, l, EDGE_REFUSED_LISTENER_FULL, key);
        return;
    }
    if (edge_conn_register(e, c)) {
        edge_refuse(c, l, EDGE_REFUSED_LISTENER_FULL, key);
        return;
    }
    uint32_t a = edge_addr_find(e, key);
    if (!e->addrs[a].count) memcpy(e->addrs[a].key, key, 16);
    e->addrs[a].count++;
    memcpy(c->addr, key, 16);
    l->open++;
    EDGE_ADD(e->stats.connections, 1);
    uv_tcp_nodelay(&c->tcp, 1);
    if (l->framing == EDGE_FRAMING_HTTP) {
        c->state = EDGE_HEAD;
        edge_conn_set_timed(c, EDGE_LIST_HEAD);
    } else {
        c->state = EDGE_HANDSHAKE;
        c->role = (uint8_t)l->role;
        c->stream = l->stream;
        edge_conn_set_timed(c, EDGE_LIST_HEAD);
        edge_session_start(c);
    }
    if (c->state != EDGE_CLOSING) uv_read_start((uv_stream_t*)&c->tcp, edge_alloc_cb, edge_read_cb);
}

/* ---- deadlines and the summary line --------------------------------------------- */

static const char* const edge_timeout_names[EDGE_TIMEOUTS] = {
    "request heads or handshakes", "idle keep-alives", "sessions that stopped reading",
    "idle requesters or silent peers", "half-sent messages"};

static void edge_log_interval(edge* e, uint64_t now) {
    double interval = e->lim.log_interval_s;
    if ((double)(now - e->interval_start_ns) * 1e-9 < interval) return;
    char line[768];
    size_t n = 0;
    for (int i = 0; i < e->listener_count; i++) {
        edge_listener* l = &e->listeners[i];
        uint64_t full = l->refused_interval[EDGE_REFUSED_LISTENER_FULL] + l->refused_interval[EDGE_REFUSED_SERVER_FULL];
        uint64_t addr = l->refused_interval[EDGE_REFUSED_ADDRESS_FULL];
        if (!full && !addr) continue;
        if (n < sizeof line)
            n += (size_t)snprintf(line + n, sizeof line - n,
                                  "%s refused %llu connection%s on %s (%llu with the listener or the server full, "
                                  "%llu over %u per address; last from %s)",
                                  n ? ";" : "", (unsigned long long)(full + addr), full + addr == 1 ? "" : "s", l->name,
                                  (unsigned long long)full, (unsigned long long)addr,
                                  e->lim.max_connections_per_address, e->last_refused);
        memset(l->refused_interval, 0, sizeof l->refused_interval);
    }
    for (int t = 0; t < EDGE_TIMEOUTS; t++) {
        if (!e->timeouts_interval[t] || n >= sizeof line) continue;
        n += (size_t)snprintf(line + n, sizeof line - n, "%s closed %llu %s after their deadline", n ? ";" : "",
                              (unsigned long long)e->timeouts_interval[t], edge_timeout_names[t]);
        e->timeouts_interval[t] = 0;
    }
    if (e->evicted_interval && n < sizeof line)
        n += (size_t)snprintf(line + n, sizeof line - n, "%s closed %llu half-open or idle connection%s to make room",
                              n ? ";" : "", (unsigned long long)e->evicted_interval, e->evicted_interval == 1 ? "" : "s");
    e->evicted_interval = 0;
    if (e->private_interval && n < sizeof line)
        n += (size_t)snprintf(line + n, sizeof line - n, "%s refused %llu subscriber%s from other hosts to a private "
                              "stream", n ? ";" : "", (unsigned long long)e->private_interval,
                              e->private_interval == 1 ? "" : "s");
    e->private_interval = 0;
    if (e->bad_heads_interval && n < sizeof line)
        n += (size_t)snprintf(line + n, sizeof line - n, "%s answered %llu malformed HTTP request%s", n ? ";" : "",
                              (unsigned long long)e->bad_heads_interval, e->bad_heads_interval == 1 ? "" : "s");
    if (e->protocol_interval && n < sizeof line)
        n += (size_t)snprintf(line + n, sizeof line - n, "%s closed %llu connection%s that broke the SP or WebSocket "
                              "rules", n ? ";" : "", (unsigned long long)e->protocol_interval,
                              e->protocol_interval == 1 ? "" : "s");
    e->bad_heads_interval = e->protocol_interval = 0;
    e->interval_start_ns = now;
    if (n) log_warn("connections in the last %g s:%s", interval, line);
}

static void edge_expire(edge* e, edge_timed list, edge_timeout kind, uint64_t now) {
    uint64_t limit = e->timeout_ns[list];
    while (e->timed[list].first && now - e->timed[list].first->since_ns >= limit) {
        edge_conn* c = e->timed[list].first;
        EDGE_ADD(e->stats.timeouts[kind], 1);
        e->timeouts_interval[kind]++;
        edge_conn_set_timed(c, EDGE_LIST_NONE);
        if (c->state == EDGE_HEAD) {
            /* Answered, so that a slow but honest client learns why. */
            static const char timeout[] = "HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
            c->state = EDGE_RESPONDING;
            c->close_after = 1;
            edge_conn_pause(c, 1);
            edge_conn_write_two(c, NULL, 0, timeout, sizeof timeout - 1, NULL);
        } else {
            edge_conn_close(c);
        }
    }
}

static void edge_time_out(edge* e, edge_conn* c, edge_timeout kind) {
    EDGE_ADD(e->stats.timeouts[kind], 1);
    e->timeouts_interval[kind]++;
    edge_conn_close(c);
}

static uint64_t edge_limit_ns(double s) { return s > 0 ? (uint64_t)(s * 1e9) : UINT64_MAX; }

/* Requesters and peers: the deadlines of each state they can park in.
 * Which one expired, or EDGE_TIMEOUTS for none. */
static edge_timeout edge_session_expired(const edge* e, const edge_conn* c, uint64_t now) {
    if (c->waiting_ns && now - c->waiting_ns >= edge_limit_ns(e->lim.send_timeout_s)) return EDGE_TIMEOUT_SEND;
    if (c->partial_ns && now - c->partial_ns >= edge_limit_ns(e->lim.message_timeout_s)) return EDGE_TIMEOUT_MESSAGE;
    if (c->close_after) return EDGE_TIMEOUTS;
    uint64_t idle = edge_limit_ns(c->role == EDGE_PEER ? e->lim.peer_idle_timeout_s : e->lim.request_idle_timeout_s);
    int quiet = c->role == EDGE_PEER || (c->pending_count == 0 && c->writes == 0);
    if (quiet && now - c->active_ns >= idle) return EDGE_TIMEOUT_SESSION;
    return EDGE_TIMEOUTS;
}

static void edge_on_sweep(uv_timer_t* t) {
    edge* e = t->data;
    uint64_t now = edge_now_ns();
    edge_expire(e, EDGE_LIST_HEAD, EDGE_TIMEOUT_HEAD, now);
    edge_expire(e, EDGE_LIST_IDLE, EDGE_TIMEOUT_IDLE, now);
    if (e->lim.send_timeout_s > 0) {
        uint64_t limit = edge_limit_ns(e->lim.send_timeout_s);
        for (uint32_t s = 0; s < e->streams; s++)
            for (edge_conn *c = e->subscribers[s].first, *next; c; c = next) {
                next = c->snext;
                if (c->inflight && now - c->write_ns >= limit) edge_time_out(e, c, EDGE_TIMEOUT_SEND);
            }
    }
    edge_list* sessions[2] = {&e->peers, &e->requesters};
    for (int k = 0; k < 2; k++)
        for (edge_conn *c = sessions[k]->first, *next; c; c = next) {
            next = c->snext;
            edge_timeout why = edge_session_expired(e, c, now);
            if (why != EDGE_TIMEOUTS) edge_time_out(e, c, why);
        }
    edge_log_interval(e, now);
}

/* ---- the thread ------------------------------------------------------------------ */

static void edge_close_all(edge* e) {
    for (int i = 0; i < e->listener_count; i++)
        if (!uv_is_closing((uv_handle_t*)&e->listeners[i].tcp)) uv_close((uv_handle_t*)&e->listeners[i].tcp, NULL);
    for (uint32_t i = 0; i < e->conn_cap; i++)
        if (e->conns[i]) edge_conn_close(e->conns[i]);
    uv_close((uv_handle_t*)&e->sweep, NULL);
    uv_close((uv_handle_t*)&e->wake, NULL);
}

static void edge_on_wake(uv_async_t* a) {
    edge* e = a->data;
    if (atomic_load(&e->stop)) {
        edge_close_all(e);
        return;
    }
    edge_buf* take[EDGE_MAX_STREAMS][EDGE_MAX_PUBLISH_QUEUE];
    uint32_t taken[EDGE_MAX_STREAMS] = {0}, ring = e->lim.publish_queue;
    uv_mutex_lock(&e->lock);
    for (uint32_t s = 0; s < e->streams; s++) {
        for (uint32_t i = 0; i < e->incoming_count[s]; i++)
            take[s][i] = e->incoming[s][(e->incoming_head[s] + i) % ring];
        taken[s] = e->incoming_count[s];
        e->incoming_head[s] = e->incoming_count[s] = 0;
    }
    /* Swap the reply vectors: the other threads append to an empty one. */
    edge_reply_item** replies = e->replies;
    uint32_t count = e->reply_count, cap = e->reply_cap;
    e->replies = e->replies_spare;
    e->reply_cap = e->replies_spare_cap;
    e->reply_count = 0;
    uv_mutex_unlock(&e->lock);
    for (uint32_t s = 0; s < e->streams; s++)
        for (uint32_t i = 0; i < taken[s]; i++) edge_deliver(e, take[s][i]);
    for (uint32_t i = 0; i < count; i++) {
        edge_session_reply(e, replies[i]);
        free(replies[i]);
    }
    e->replies_spare = replies;
    e->replies_spare_cap = cap;
}

static void edge_main(void* arg) {
    edge* e = arg;
    uv_run(&e->loop, UV_RUN_DEFAULT);
}

int edge_create(edge** out, const edge_limits* limits, const edge_callbacks* cb, uint32_t streams, nv_error* err) {
    if (streams > EDGE_MAX_STREAMS) return nv_error_set(err, "edge: at most %d streams", EDGE_MAX_STREAMS);
    if (!limits->send_queue || !limits->max_pending || !limits->max_connections || !limits->max_header_bytes)
        return nv_error_set(err, "edge: queue, pending, connection and header limits must be positive");
    if (limits->publish_queue < 1 || limits->publish_queue > EDGE_MAX_PUBLISH_QUEUE)
        return nv_error_set(err, "edge: publish_queue must be in 1..%d", EDGE_MAX_PUBLISH_QUEUE);
    edge* e = calloc(1, sizeof *e);
    if (!e) return nv_error_fail(err, NV_ENOMEM, "out of memory");
    e->lim = *limits;
    if (cb) e->cb = *cb;
    e->streams = streams;
    e->timeout_ns[EDGE_LIST_HEAD] = (uint64_t)(limits->header_timeout_s * 1e9);
    e->timeout_ns[EDGE_LIST_IDLE] = (uint64_t)(limits->idle_timeout_s * 1e9);
    if (uv_loop_init(&e->loop)) {
        free(e);
        return nv_error_set(err, "edge: libuv loop init failed");
    }
    if (uv_mutex_init(&e->lock)) {
        uv_loop_close(&e->loop);
        free(e);
        return nv_error_set(err, "edge: mutex init failed");
    }
    uv_async_init(&e->loop, &e->wake, edge_on_wake);
    uv_timer_init(&e->loop, &e->sweep);
    e->wake.data = e->sweep.data = e;
    e->loop_ready = 1;
    e->interval_start_ns = edge_now_ns();
    *out = e;
    return 0;
}

static edge_listener* edge_new_listener(edge* e, const char* text, int want_scheme, nv_error* err) {
    if (e->listener_count == EDGE_MAX_LISTENERS) {
        nv_error_set(err, "edge: at most %d listeners", EDGE_MAX_LISTENERS);
        return NULL;
    }
    edge_endpoint ep;
    char why[128];
    if (edge_parse_endpoint(text, want_scheme, &ep, why, sizeof why)) {
        nv_error_set(err, "cannot listen on '%s': it %s", text, why);
        return NULL;
    }
    struct sockaddr_storage addr;
    if (edge_resolve(&ep, &addr, err, text)) return NULL;
    edge_listener* l = &e->listeners[e->listener_count];
    memset(l, 0, sizeof *l);
    l->e = e;
    l->index = e->listener_count;
    snprintf(l->name, sizeof l->name, "%s", text);
    uv_tcp_init(&e->loop, &l->tcp);
    e->listener_count++;
    int rv = uv_tcp_bind(&l->tcp, (const struct sockaddr*)&addr, 0);
    if (!rv) rv = uv_listen((uv_stream_t*)&l->tcp, EDGE_BACKLOG, edge_on_connection);
    if (rv) {
        nv_error_set(err, "cannot listen on %s: %s", text, uv_strerror(rv));
        return NULL;
    }
    struct sockaddr_storage bound;
    int len = sizeof bound;
    if (uv_tcp_getsockname(&l->tcp, (struct sockaddr*)&bound, &len) == 0)
        l->port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6*)&bound)->sin6_port
                                                    : ((struct sockaddr_in*)&bound)->sin_port);
    return l;
}

int edge_listen_sp(edge* e, const char* url, edge_role role, uint32_t stream, nv_error* err) {
    if (stream >= e->streams) return nv_error_set(err, "edge: no stream %u", stream);
    edge_listener* l = edge_new_listener(e, url, 1, err);
    if (!l) return -1;
    l->framing = EDGE_FRAMING_SP;
    l->role = role;
    l->stream = stream;
    log_info("listening on %s (SP %s)", url, role == EDGE_SUBSCRIBER ? "PUB" : role == EDGE_PEER ? "PAIR1" : "REP");
    return l->index;
}

int edge_listen_http(edge* e, const char* hostport, nv_error* err) {
    for (int i = 0; i < e->listener_count; i++)
        if (e->listeners[i].framing == EDGE_FRAMING_HTTP && strcmp(e->listeners[i].name, hostport) == 0) return i;
    edge_listener* l = edge_new_listener(e, hostport, 0, err);
    if (!l) return -1;
    l->framing = EDGE_FRAMING_HTTP;
    return l->index;
}

int edge_route_ws(edge* e, int listener, const char* path, edge_role role, uint32_t stream, nv_error* err) {
    if (listener < 0 || listener >= e->listener_count || e->listeners[listener].framing != EDGE_FRAMING_HTTP)
        return nv_error_set(err, "edge: listener %d is not an HTTP listener", listener);
    edge_listener* l = &e->listeners[listener];
    if (l->route_count == EDGE_MAX_ROUTES) return nv_error_set(err, "edge: at most %d WebSocket paths", EDGE_MAX_ROUTES);
    if (stream >= e->streams || path[0] != '/' || strlen(path) >= sizeof l->routes[0].path)
        return nv_error_set(err, "edge: bad WebSocket route '%s'", path);
    edge_route* r = &l->routes[l->route_count++];
    snprintf(r->path, sizeof r->path, "%s", path);
    r->role = role;
    r->stream = stream;
    return 0;
}

int edge_listener_port(const edge* e, int listener) {
    return listener >= 0 && listener < e->listener_count ? e->listeners[listener].port : -1;
}

/* What the descriptor limit allows, the soft limit raised to the hard one
 * first (a server's usual start-up step). */
static uint32_t edge_descriptor_budget(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return 1024 - EDGE_FD_RESERVE;
    if (rl.rlim_cur < rl.rlim_max) {
        struct rlimit raised = {rl.rlim_max, rl.rlim_max};
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0) rl = raised;
    }
    rlim_t n = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (1u << 20) ? (1u << 20) : rl.rlim_cur;
    return n > 2 * EDGE_FD_RESERVE ? (uint32_t)(n - EDGE_FD_RESERVE) : (uint32_t)(n / 2);
}

int edge_start(edge* e, nv_error* err) {
    e->budget = edge_descriptor_budget();
    if (e->lim.max_total && e->lim.max_total < e->budget) e->budget = e->lim.max_total;
    uint64_t caps = (uint64_t)e->lim.max_connections * (uint64_t)e->listener_count;
    if (caps > e->budget)
        log_info("connections: at most %u at once on all listeners (the descriptor limit; %d listener%s x %u)", e->budget,
                 e->listener_count, e->listener_count == 1 ? "" : "s", e->lim.max_connections);
    atomic_store(&e->stats.budget, e->budget);
    uv_timer_start(&e->sweep, edge_on_sweep, EDGE_SWEEP_MS, EDGE_SWEEP_MS);
    if (uv_thread_create(&e->thread, edge_main, e)) return nv_error_set(err, "edge: cannot start its thread");
    e->started = 1;
    return 0;
}

void edge_destroy(edge* e) {
    if (!e) return;
    if (e->loop_ready) {
        atomic_store(&e->stop, 1);
        if (e->started) {
            uv_async_send(&e->wake);
            uv_thread_join(&e->thread);
        } else {
            edge_close_all(e);
            uv_run(&e->loop, UV_RUN_DEFAULT);
        }
        uv_loop_close(&e->loop);
        uv_mutex_destroy(&e->lock);
    }
    for (uint32_t s = 0; s < EDGE_MAX_STREAMS; s++)
        for (uint32_t i = 0; i < e->incoming_count[s]; i++)
            edge_buf_unref(e, e->incoming[s][(e->incoming_head[s] + i) % e->lim.publish_queue]);
    for (uint32_t i = 0; i < e->reply_count; i++) free(e->replies[i]);
    free(e->replies);
    free(e->replies_spare);
    free(e->conns);
    free(e->free_slots);
    free(e->addrs);
    idmap_free(&e->ids);
    free(e);
}
