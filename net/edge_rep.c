// SPDX-License-Identifier: MIT
/* The REP role on a session (the transport is edge_session.c's, as nng
 * splits sp/protocol/reqrep0 from sp/transport): a REQ's message starts
 * with its routing header, 32-bit words up to the one with its top bit set
 * (the request id); the answer carries the same words back. At most
 * max_pending requests are unanswered or their answers unwritten; beyond,
 * the connection's input waits (edge_session_input pauses reading). */
#include <stdlib.h>
#include <string.h>

#include "edge_internal.h"

void edge_rep_begin(edge_conn* c) {
    edge* e = c->e;
    c->pending = calloc(e->lim.max_pending, sizeof *c->pending);
    if (!c->pending) {
        edge_conn_close(c);
        return;
    }
    edge_session_make_room(e, EDGE_REQUESTER);
    edge_list_append(&e->requesters, c);
    c->counted = 1;
    atomic_fetch_add_explicit(&e->stats.requesters, 1, memory_order_relaxed);
    if (e->cb.requester_open) e->cb.requester_open(e->cb.arg, c->id, c->addr);
}

void edge_rep_closed(edge_conn* c) {
    edge* e = c->e;
    if (!c->counted) return;
    c->counted = 0;
    atomic_fetch_sub_explicit(&e->stats.requesters, 1, memory_order_relaxed);
    if (e->cb.requester_closed) e->cb.requester_closed(e->cb.arg, c->id);
}

/* Answers count until they are written: a requester that does not read
 * them stops being read, so what it can make the server hold is bounded
 * by max_pending answers (edge.h). */
int edge_rep_full(const edge_conn* c) {
    return c->role == EDGE_REQUESTER && c->pending_count + c->writes >= c->e->lim.max_pending;
}

/* One request: its routing header kept for the answer, its body to the
 * owner. A message without a complete header is dropped, as nng does. */
void edge_rep_message(edge_conn* c, const uint8_t* m, size_t n) {
    edge* e = c->e;
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

void edge_rep_reply(edge* e, edge_reply_item* r) {
    edge_conn* c = edge_conn_by_id(e, r->conn);
    uint32_t slot = r->tag & 0xffff, gen = r->tag >> 16;
    if (!c || c->state == EDGE_CLOSING || c->role != EDGE_REQUESTER || !c->pending || slot >= e->lim.max_pending ||
        !c->pending[slot].used || c->pending[slot].gen != gen) {
        atomic_fetch_add_explicit(&e->stats.replies_lost, 1, memory_order_relaxed);
        return;
    }
    edge_pending* p = &c->pending[slot];
    size_t size;
    uint8_t* out = edge_session_frame(c, p->hops, p->hop_bytes, r->data, r->size, &size);
    p->used = 0;
    c->pending_count--;
    if (!out) {
        edge_conn_close(c);
        return;
    }
    atomic_fetch_add_explicit(&e->stats.replies, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&e->stats.reply_bytes, r->size, memory_order_relaxed);
    edge_conn_write_owned(c, out, out, size);
}
