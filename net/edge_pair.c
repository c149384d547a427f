// SPDX-License-Identifier: MIT
/* The PAIR1 role on a session (player views; the transport is
 * edge_session.c's): a PAIR1 message starts with a 32-bit big-endian hop
 * count (below 256, else nng closes the pipe, as here); ours is 1, what
 * nng's PAIR1 sends after counting its own hop. A peer's messages are held
 * to peer_messages_per_s; what goes to it is dropped while send_queue
 * messages wait unwritten. */
#include <stdlib.h>
#include <string.h>

#include "edge_internal.h"

void edge_pair_begin(edge_conn* c) {
    edge* e = c->e;
    edge_session_make_room(e, EDGE_PEER);
    edge_list_append(&e->peers, c);
    c->counted = 1;
    c->peer_tokens = e->lim.peer_messages_per_s;
    c->peer_refill_ns = edge_now_ns();
    atomic_fetch_add_explicit(&e->stats.peers, 1, memory_order_relaxed);
    if (e->cb.peer_open) e->cb.peer_open(e->cb.arg, c->id, c->addr);
}

void edge_pair_closed(edge_conn* c) {
    edge* e = c->e;
    /* The gauge and the list: edge_conn_close, after this. */
    if (c->counted && e->cb.peer_closed) e->cb.peer_closed(e->cb.arg, c->id);
}

/* The hop count checked and removed, the rate held. */
void edge_pair_message(edge_conn* c, const uint8_t* m, size_t n) {
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

/* Dropped when its writes are backed up, unless it is the last (a
 * refusal), after which the peer is closed. */
void edge_pair_send(edge* e, edge_reply_item* r, int last) {
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
    uint8_t* out = edge_session_frame(c, hop, EDGE_PAIR1_HEADER, r->data, r->size, &size);
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
