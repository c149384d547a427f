// SPDX-License-Identifier: MIT
/* SP sessions on the edge, as nng's peers expect them (nng 1.5.2's
 * src/sp/transport/tcp and ws, RFC-style "SP over TCP" and "SP over
 * WebSocket"):
 *  - over tcp both sides send 8 bytes, 0x00 'S' 'P' 0x00, the protocol
 *    number (16 bits, big-endian) and two zero bytes, then messages with
 *    a 64-bit big-endian length before each;
 *  - over WebSocket the subprotocol names the server's protocol and each
 *    binary message is one SP message.
 * This file is the transport; the roles' rules are edge_rep.c (REP) and
 * edge_pair.c (PAIR1), and PUB's is the publishing in edge_pub.c: a PUB's
 * subscribers never send, and any byte from one closes it (as nng's PUB
 * does). */
#include <stdlib.h>
#include <string.h>

#include "edge_internal.h"
#include "grow.h"
#include "log.h"

void edge_session_protocol_error(edge_conn* c, const char* why) {
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

uint8_t* edge_session_frame(const edge_conn* c, const uint8_t* head, size_t head_n, const void* body, size_t body_n,
                           size_t* size) {
    if (c->framing != EDGE_FRAMING_SP) return edge_ws_frames(head, head_n, body, body_n, size);
    *size = 8 + head_n + body_n;
    uint8_t* out = malloc(*size);
    if (!out) return NULL;
    uint64_t len = head_n + body_n;
    for (int i = 0; i < 8; i++) out[i] = (uint8_t)(len >> (56 - 8 * i));
    memcpy(out + 8, head, head_n);
    if (body_n) memcpy(out + 8 + head_n, body, body_n);
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
void edge_session_make_room(edge* e, edge_role role) {
    uint32_t cap = role == EDGE_PEER ? e->lim.max_peers : e->lim.max_requesters;
    atomic_uint* open = role == EDGE_PEER ? &e->stats.peers : &e->stats.requesters;
    if (cap && atomic_load_explicit(open, memory_order_relaxed) >= cap) edge_evict_session(e, role);
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
    else if (c->role == EDGE_PEER) edge_pair_begin(c);
    else edge_rep_begin(c);
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
    if (c->role == EDGE_PEER) edge_pair_closed(c);
    else if (c->role == EDGE_REQUESTER) edge_rep_closed(c);
}

/* A whole message from a requester or a peer, to its role. */
static void edge_session_message(edge_conn* c, const uint8_t* m, size_t n) {
    c->active_ns = edge_now_ns();
    if (c->role == EDGE_PEER) edge_pair_message(c, m, n);
    else edge_rep_message(c, m, n);
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
    while (!edge_rep_full(c) && c->in_len - at >= 8) {
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
        if (grow_append(&c->msg, &c->msg_len, &c->msg_cap, f->payload, f->size)) {
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
    while (!edge_rep_full(c) && !c->close_after && at < c->in_len) {
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
    edge_conn_pause(c, c->close_after || (edge_rep_full(c) && c->in_len >= EDGE_READ_CHUNK));
    /* Part of a message waiting for the rest has a deadline; input that
     * waits for answers to be read is the server's to take, not late. */
    if ((c->in_len || c->msg_len) && !edge_rep_full(c)) {
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

void edge_session_reply(edge* e, edge_reply_item* r) {
    if (r->tag == EDGE_PEER_TAG || r->tag == EDGE_PEER_LAST_TAG) {
        edge_pair_send(e, r, r->tag == EDGE_PEER_LAST_TAG);
        return;
    }
    edge_rep_reply(e, r);
}
