// SPDX-License-Identifier: MIT
/* SP sessions on the edge, as nng's peers expect them (nng 1.5.2's
 * src/sp/transport/tcp and ws, RFC-style "SP over TCP" and "SP over
 * WebSocket"):
 *  - over tcp both sides send 8 bytes, 0x00 'S' 'P' 0x00, the protocol
 *    number (16 bits, big-endian) and two zero bytes, then messages with
 *    a 64-bit big-endian length before each;
 *  - over WebSocket the subprotocol names the server's protocol and each
 *    binary message is one SP message.
 * A PUB's subscribers never send: any byte from one closes it (as nng's
 * PUB does). A REQ's message starts with its routing header, 32-bit words
 * up to the one with its top bit set (the request id); the answer carries
 * the same words back. A PAIR1 message starts with a 32-bit big-endian hop
 * count (below 256, else nng closes the pipe, as here); ours is 1, what
 * nng's PAIR1 sends after counting its own hop. */
#include <stdlib.h>
#include <string.h>

#include "edge_internal.h"
#include "log.h"

static void edge_session_protocol_error(edge_conn* c, const char* why) {
    edge* e = c->e;
    atomic_fetch_add_explicit(&e->stats.protocol_errors, 1, memory_order_relaxed);
    e->protocol_interval++;
    log_debug("connection %u on %s: %s", c->id, e->listeners[c->listener].name, why);
}

/* The payload a, then b, as binary WebSocket frames of at most
 * EDGE_WS_FRAGMENT bytes each, in one buffer. */
static uint8_t* edge_ws_frames(const uint8_t* a, size_t an, const uint8_t* b, size_t bn, size_t* out_size) {
    size_t total = an + bn;
    size_t frames = total ? (total + EDGE_WS_FRAGMENT - 1) / EDGE_WS_FRAGMENT : 1;
    uint8_t* out = malloc(total + frames * WSFRAME_HEADER_MAX);
    if (!out) return NULL;
    size_t at = 0, done = 0;
    for (size_t f = 0; f < frames; f++) {
        size_t n = total - done < EDGE_WS_FRAGMENT ? total - done : EDGE_WS_FRAGMENT;
        at += wsframe_header(out + at, f + 1 == frames, f ? WSFRAME_CONTINUATION : WSFRAME_BINARY, n);
        for (size_t left = n; left;) {
            const uint8_t* src = done < an ? a + done : b + (done - an);
            size_t take = done < an ? an - done : total - done;
            if (take > left) take = left;
            memcpy(out + at, src, take);
            at += take;
            done += take;
            left -= take;
        }
    }
    *out_size = at;
    return out;
}

void edge_session_buf_bytes(edge_conn* c, edge_buf* b, uv_buf_t* bufs, unsigned* count) {
    *count = 0;
    if (c->framing == EDGE_FRAMING_SP) {
        bufs[0] = uv_buf_init((char*)b->sp_len, 8);
        bufs[1] = uv_buf_init((char*)b->data, (unsigned)b->size);
        *count = 2;
        return;
    }
    /* Framed once per message, shared by every WebSocket subscriber
     * (server frames are not masked). */
    if (!b->ws && !(b->ws = edge_ws_frames(b->data, b->size, NULL, 0, &b->ws_size))) return;
    bufs[0] = uv_buf_init((char*)b->ws, (unsigned)b->ws_size);
    *count = 1;
}

static void edge_ws_control(edge_conn* c, wsframe_opcode op, const uint8_t* payload, size_t n) {
    uint8_t* f = malloc(WSFRAME_HEADER_MAX + WSFRAME_CONTROL_MAX);
    if (!f) {
        edge_conn_close(c);
        return;
    }
    if (n > WSFRAME_CONTROL_MAX) n = WSFRAME_CONTROL_MAX;
    size_t h = wsframe_header(f, 1, op, n);
    if (n) memcpy(f + h, payload, n);
    edge_conn_write_owned(c, f, f, h + n);
}

void edge_session_ws_close(edge_conn* c, int code, const char* why) {
    if (c->close_after || c->state == EDGE_CLOSING) return;
    uint8_t payload[WSFRAME_CONTROL_MAX];
    size_t n = strlen(why);
    if (n > sizeof payload - 2) n = sizeof payload - 2;
    payload[0] = (uint8_t)(code >> 8);
    payload[1] = (uint8_t)code;
    memcpy(payload + 2, why, n);
    c->close_after = 1;
    edge_conn_pause(c, 1);
    edge_conn_set_timed(c, EDGE_LIST_IDLE); /* a peer that never reads still goes */
    edge_ws_control(c, WSFRAME_CLOSE, payload, n + 2);
}

/* Past the role's cap the longest idle session of the most crowded
 * address makes room; with none idle the newcomer still comes in, and
 * the owner's own cap answers it with the reason. */
static void edge_make_room(edge* e, edge_role role) {
    uint32_t cap = role == EDGE_PEER ? e->lim.max_peers : e->lim.max_requesters;
    atomic_uint* open = role == EDGE_PEER ? &e->stats.peers : &e->stats.requesters;
    if (cap && atomic_load_explicit(open, memory_order_relaxed) >= cap) edge_evict_session(e, role);
}

static void edge_requester_begin(edge_conn* c) {
    edge* e = c->e;
    c->pending = calloc(e->lim.max_pending, sizeof *c->pending);
    if (!c->pending) {
        edge_conn_close(c);
        return;
    }
    edge_make_room(e, EDGE_REQUESTER);
    edge_list_append(&e->requesters, c);
    c->counted = 1;
    atomic_fetch_add_explicit(&e->stats.requesters, 1, memory_order_relaxed);
    if (e->cb.requester_open) e->cb.requester_open(e->cb.arg, c->id, c->addr);
}

static void edge_peer_begin(edge_conn* c) {
    edge* e = c->e;
    edge_make_room(e, EDGE_PEER);
    edge_list_append(&e->peers, c);
    c->counted = 1;
    c->peer_tokens = e->lim.peer_messages_per_s;
    c->peer_refill_ns = edge_now_ns();
    atomic_fetch_add_explicit(&e->stats.peers, 1, memory_order_relaxed);
    if (e->cb.peer_open) e->cb.peer_open(e->cb.arg, c->id, c->addr);
}

int edge_session_private(const edge_conn* c, edge_role role, uint32_t stream) {
    edge* e = c->e;
    if (role != EDGE_SUBSCRIBER || !(e->local_only >> stream & 1u) || edge_conn_is_local(c)) return 0;
    atomic_fetch_add_explicit(&e->stats.private_refused, 1, memory_order_relaxed);
    e->private_interval++;
    return 1;
}

static void edge_session_begin(edge_conn* c) {
    c->state = EDGE_SESSION;
    c->active_ns = edge_now_ns();
    edge_conn_set_timed(c, EDGE_LIST_NONE);
    if (c->framing == EDGE_FRAMING_SP && edge_session_private(c, (edge_role)c->role, c->stream)) {
        edge_conn_close(c); /* SP over tcp has no way to say why */
        return;
    }
    if (c->role == EDGE_SUBSCRIBER) edge_subscribe(c, c->stream);
    else if (c->role == EDGE_PEER) edge_peer_begin(c);
    else edge_requester_begin(c);
}

void edge_session_start(edge_conn* c) {
    static const uint8_t pub[EDGE_SP_HANDSHAKE] = {0, 'S', 'P', 0, 0, EDGE_SP_PUB, 0, 0};
    static const uint8_t rep[EDGE_SP_HANDSHAKE] = {0, 'S', 'P', 0, 0, EDGE_SP_REP, 0, 0};
    static const uint8_t pair[EDGE_SP_HANDSHAKE] = {0, 'S', 'P', 0, 0, EDGE_SP_PAIR1, 0, 0};
    const uint8_t* mine = c->role == EDGE_SUBSCRIBER ? pub : c->role == EDGE_PEER ? pair : rep;
    edge_conn_write_two(c, NULL, 0, mine, EDGE_SP_HANDSHAKE, NULL);
}

void edge_session_upgraded(edge_conn* c, edge_role role, uint32_t stream) {
    c->framing = EDGE_FRAMING_WS;
    c->role = (uint8_t)role;
    c->stream = stream;
    edge_session_begin(c);
}

void edge_session_closed(edge_conn* c) {
    edge* e = c->e;
    if (c->role == EDGE_PEER && c->counted) {
        /* The gauge and the list: edge_conn_close, after this. */
        if (e->cb.peer_closed) e->cb.peer_closed(e->cb.arg, c->id);
        return;
    }
    if (c->role != EDGE_REQUESTER || !c->counted) return;
    c->counted = 0;
    atomic_fetch_sub_explicit(&e->stats.requesters, 1, memory_order_relaxed);
    if (e->cb.requester_closed) e->cb.requester_closed(e->cb.arg, c->id);
}

/* A PAIR1 message: the hop count checked and removed, the rate held. */
static void edge_peer_message(edge_conn* c, const uint8_t* m, size_t n) {
    edge* e = c->e;
    if (n < EDGE_PAIR1_HEADER || m[0] || m[1] || m[2]) {
        edge_session_protocol_error(c, "a PAIR1 message without its hop count");
        edge_conn_close(c);
        return;
    }
    uint64_t now = edge_now_ns();
    double rate = e->lim.peer_messages_per_s;
    c->peer_tokens += (double)(now - c->peer_refill_ns) * 1e-9 * rate;
    if (c->peer_tokens > rate) c->peer_tokens = rate;
    c->peer_refill_ns = now;
    if (c->peer_tokens < 1.0) {
        atomic_fetch_add_explicit(&e->stats.peer_flooded, 1, memory_order_relaxed);
        return;
    }
    c->peer_tokens -= 1.0;
    atomic_fetch_add_explicit(&e->stats.peer_received, 1, memory_order_relaxed);
    if (e->cb.peer_message) e->cb.peer_message(e->cb.arg, c->id, m + EDGE_PAIR1_HEADER, n - EDGE_PAIR1_HEADER);
}

/* One request: its routing header kept for the answer, its body to the
 * owner. A message without a complete header is dropped, as nng does. */
static void edge_session_message(edge_conn* c, const uint8_t* m, size_t n) {
    edge* e = c->e;
    c->active_ns = edge_now_ns();
    if (c->role == EDGE_PEER) {
        edge_peer_message(c, m, n);
        return;
    }
    size_t at = 0;
    for (int hops = 0;; hops++) {
        if (at + 4 > n || hops == EDGE_SP_MAX_HOPS) {
            edge_session_protocol_error(c, "a request without a complete routing header (dropped)");
            return;
        }
        uint8_t top = m[at];
        at += 4;
        if (top & 0x80) break;
    }
    uint32_t slot = 0;
    while (slot < e->lim.max_pending && c->pending[slot].used) slot++;
    if (slot == e->lim.max_pending) return; /* cannot happen: reading pauses first */
    edge_pending* p = &c->pending[slot];
    if (++c->gen == 0) c->gen = 1;
    p->used = 1;
    p->gen = c->gen;
    p->hop_bytes = (uint8_t)at;
    memcpy(p->hops, m, at);
    c->pending_count++;
    uint32_t tag = slot | ((uint32_t)p->gen << 16);
    if (!e->cb.request || e->cb.request(e->cb.arg, c->id, tag, m + at, n - at)) {
        p->used = 0;
        c->pending_count--;
    }
}

/* Answers count until they are written: a requester that does not read
 * them stops being read, so what it can make the server hold is bounded
 * by max_pending answers (edge.h). */
static int edge_session_full(const edge_conn* c) {
    return c->role == EDGE_REQUESTER && c->pending_count + c->writes >= c->e->lim.max_pending;
}

/* SP over tcp: the handshake, then length-prefixed messages. Returns the
 * bytes consumed. */
static size_t edge_session_sp(edge_conn* c) {
    edge* e = c->e;
    size_t at = 0;
    if (c->state == EDGE_HANDSHAKE) {
        if (c->in_len < EDGE_SP_HANDSHAKE) return 0;
        const uint8_t* h = c->in;
        int want = c->role == EDGE_SUBSCRIBER ? EDGE_SP_SUB : c->role == EDGE_PEER ? EDGE_SP_PAIR1 : EDGE_SP_REQ;
        if (h[0] || h[1] != 'S' || h[2] != 'P' || h[3] || h[6] || h[7] || ((h[4] << 8) | h[5]) != want) {
            edge_session_protocol_error(c, "not an SP handshake of the peer protocol");
            edge_conn_close(c);
            return 0;
        }
        at = EDGE_SP_HANDSHAKE;
        edge_session_begin(c);
        if (c->state == EDGE_CLOSING) return 0;
    }
    if (c->role == EDGE_SUBSCRIBER) {
        if (c->in_len > at) {
            edge_session_protocol_error(c, "a subscriber sent data");
            edge_conn_close(c);
        }
        return at;
    }
    while (!edge_session_full(c) && c->in_len - at >= 8) {
        uint64_t len = 0;
        for (int i = 0; i < 8; i++) len = (len << 8) | c->in[at + i];
        if (len > e->lim.max_message_bytes) {
            edge_session_protocol_error(c, "a message over the size limit");
            edge_conn_close(c);
            return 0;
        }
        if (c->in_len - at - 8 < len) break;
        edge_session_message(c, c->in + at + 8, (size_t)len);
        if (c->state == EDGE_CLOSING) return 0;
        at += 8 + (size_t)len;
    }
    return at;
}

/* One frame from a WebSocket peer; 0 to go on, -1 when the connection is
 * closing. */
static int edge_ws_frame(edge_conn* c, const wsframe* f) {
    edge* e = c->e;
    const char* why = NULL;
    switch (f->opcode) {
    case WSFRAME_PING: edge_ws_control(c, WSFRAME_PONG, f->payload, f->size); return 0;
    case WSFRAME_PONG: return 0;
    case WSFRAME_CLOSE: {
        /* Echo the code (RFC 6455 5.5.1), then close. */
        uint8_t code[2] = {WSFRAME_CLOSE_NORMAL >> 8, WSFRAME_CLOSE_NORMAL & 0xff};
        if (f->size >= 2) memcpy(code, f->payload, 2);
        c->close_after = 1;
        edge_conn_pause(c, 1);
        edge_conn_set_timed(c, EDGE_LIST_IDLE);
        edge_ws_control(c, WSFRAME_CLOSE, code, 2);
        return -1;
    }
    default: break;
    }
    int rc = wsframe_sequence_check(&c->seq, f, &why);
    if (rc) {
        edge_session_protocol_error(c, why);
        edge_session_ws_close(c, -rc, why);
        return -1;
    }
    if (c->role == EDGE_SUBSCRIBER) {
        edge_session_protocol_error(c, "a subscriber sent a message");
        edge_session_ws_close(c, WSFRAME_CLOSE_POLICY, "subscribers send nothing");
        return -1;
    }
    if (c->seq.opcode != WSFRAME_BINARY) {
        edge_session_protocol_error(c, "a text message");
        edge_session_ws_close(c, WSFRAME_CLOSE_UNSUPPORTED, "SP messages are binary");
        return -1;
    }
    if (c->msg_len + f->size > e->lim.max_message_bytes) {
        edge_session_protocol_error(c, "a request over the size limit");
        edge_session_ws_close(c, WSFRAME_CLOSE_TOO_BIG, "message over the size limit");
        return -1;
    }
    if (f->fin && !c->msg_len) {
        edge_session_message(c, f->payload, f->size); /* whole in one frame: no copy */
    } else {
        if (edge_append(&c->msg, &c->msg_len, &c->msg_cap, f->payload, f->size)) {
            edge_conn_close(c);
            return -1;
        }
        if (f->fin) {
            edge_session_message(c, c->msg, c->msg_len);
            c->msg_len = 0;
        }
    }
    return c->state == EDGE_CLOSING ? -1 : 0;
}

static size_t edge_session_ws(edge_conn* c) {
    edge* e = c->e;
    size_t at = 0;
    /* A frame may be a little over the message limit: its header. */
    size_t max_frame = c->role == EDGE_SUBSCRIBER ? WSFRAME_CONTROL_MAX : e->lim.max_message_bytes;
    while (!edge_session_full(c) && !c->close_after && at < c->in_len) {
        wsframe f;
        const char* why = NULL;
        long n = wsframe_decode(c->in + at, c->in_len - at, max_frame, &f, &why);
        if (n == 0) break;
        if (n < 0) {
            edge_session_protocol_error(c, why);
            edge_session_ws_close(c, (int)-n, why);
            return at;
        }
        at += (size_t)n;
        if (edge_ws_frame(c, &f)) break;
    }
    return at;
}

void edge_session_input(edge_conn* c) {
    if (c->state == EDGE_CLOSING || c->close_after) return;
    size_t used = c->framing == EDGE_FRAMING_SP ? edge_session_sp(c) : edge_session_ws(c);
    if (c->state == EDGE_CLOSING) return;
    if (used >= c->in_len) {
        c->in_len = 0;
    } else if (used) {
        memmove(c->in, c->in + used, c->in_len - used);
        c->in_len -= used;
    }
    /* Requests past the limit wait in the input until answers free room;
     * reading goes on (a peer that leaves is still seen) until a chunk
     * waits there. */
    edge_conn_pause(c, c->close_after || (edge_session_full(c) && c->in_len >= EDGE_READ_CHUNK));
    /* Part of a message waiting for the rest has a deadline; input that
     * waits for answers to be read is the server's to take, not late. */
    if ((c->in_len || c->msg_len) && !edge_session_full(c)) {
        if (!c->partial_ns) c->partial_ns = edge_now_ns();
    } else {
        c->partial_ns = 0;
    }
    if (!c->in_len && c->in_cap > 65536) {
        free(c->in);
        c->in = NULL;
        c->in_cap = 0;
    }
}

/* A message to a peer: dropped when its writes are backed up, unless it
 * is the last (a refusal), after which the peer is closed. */
static void edge_peer_send(edge* e, edge_reply_item* r, int last) {
    edge_conn* c = edge_conn_by_id(e, r->conn);
    if (!c || c->state == EDGE_CLOSING || c->close_after || c->role != EDGE_PEER || c->state != EDGE_SESSION) {
        atomic_fetch_add_explicit(&e->stats.replies_lost, 1, memory_order_relaxed);
        return;
    }
    if (c->writes >= e->lim.send_queue && !last) {
        atomic_fetch_add_explicit(&e->stats.peer_dropped, 1, memory_order_relaxed);
        return;
    }
    static const uint8_t hop[EDGE_PAIR1_HEADER] = {0, 0, 0, 1};
    size_t size;
    uint8_t* out;
    if (c->framing == EDGE_FRAMING_SP) {
        size = 8 + EDGE_PAIR1_HEADER + r->size;
        out = malloc(size);
        if (out) {
            uint64_t len = EDGE_PAIR1_HEADER + r->size;
            for (int i = 0; i < 8; i++) out[i] = (uint8_t)(len >> (56 - 8 * i));
            memcpy(out + 8, hop, EDGE_PAIR1_HEADER);
            if (r->size) memcpy(out + 8 + EDGE_PAIR1_HEADER, r->data, r->size);
        }
    } else {
        out = edge_ws_frames(hop, EDGE_PAIR1_HEADER, r->data, r->size, &size);
    }
    if (!out) {
        edge_conn_close(c);
        return;
    }
    atomic_fetch_add_explicit(&e->stats.peer_sent, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&e->stats.peer_bytes, r->size, memory_order_relaxed);
    if (edge_conn_write_owned(c, out, out, size) || !last) return;
    c->close_after = 1;
    edge_conn_pause(c, 1);
}

void edge_session_reply(edge* e, edge_reply_item* r) {
    if (r->tag == EDGE_PEER_TAG || r->tag == EDGE_PEER_LAST_TAG) {
        edge_peer_send(e, r, r->tag == EDGE_PEER_LAST_TAG);
        return;
    }
    edge_conn* c = edge_conn_by_id(e, r->conn);
    uint32_t slot = r->tag & 0xffff, gen = r->tag >> 16;
    if (!c || c->state == EDGE_CLOSING || c->role != EDGE_REQUESTER || !c->pending || slot >= e->lim.max_pending ||
        !c->pending[slot].used || c->pending[slot].gen != gen) {
        atomic_fetch_add_explicit(&e->stats.replies_lost, 1, memory_order_relaxed);
        return;
    }
    edge_pending* p = &c->pending[slot];
    size_t size;
    uint8_t* out;
    if (c->framing == EDGE_FRAMING_SP) {
        size = 8 + p->hop_bytes + r->size;
        out = malloc(size);
        if (out) {
            uint64_t len = p->hop_bytes + r->size;
            for (int i = 0; i < 8; i++) out[i] = (uint8_t)(len >> (56 - 8 * i));
            memcpy(out + 8, p->hops, p->hop_bytes);
            if (r->size) memcpy(out + 8 + p->hop_bytes, r->data, r->size);
        }
    } else {
        out = edge_ws_frames(p->hops, p->hop_bytes, r->data, r->size, &size);
    }
    p->used = 0;
    c->pending_count--;
    if (!out) {
        edge_conn_close(c);
        return;
    }
    atomic_fetch_add_explicit(&e->stats.replies, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&e->stats.reply_bytes, r->size, memory_order_relaxed);
    if (edge_conn_write_owned(c, out, out, size)) return;
    edge_session_input(c); /* requests that waited for room */
}
