// SPDX-License-Identifier: MIT
/* The network edge: every socket a client reaches, on one libuv loop of its
 * own thread. It speaks
 *  - HTTP/1.1 on HOST:PORT listeners: the site's pages (a handler the
 *    owner gives), and WebSocket upgrades on the paths routed here;
 *  - SP (the scalability protocols nng and nanomsg speak) over tcp:// and,
 *    after an upgrade, over WebSocket: PUB to SUB subscribers, REP to REQ
 *    requesters, PAIR1 to PAIR1 peers (one per connection: player views),
 *    so nng's own dialers, nngcat and browsers connect as before.
 * Every connection is held to limits: open connections per listener, per
 * remote address and in all (what the process's descriptor limit allows),
 * a deadline for an HTTP request head or an SP handshake, an idle deadline between keep-alive requests, a stall
 * deadline for a subscriber that stops reading, a cap on what a client
 * may send. When a listener or the process is full, the oldest connection
 * that has not finished its request head or handshake (else the oldest
 * idle keep-alive) makes room: connections held open without a request
 * cannot keep anyone out. Refusals, evictions and timeouts are counted
 * (edge_stats) and logged once per interval.
 *
 * Why not nng's own listeners (docs/scaling.md): nng 1.5.2's HTTP server
 * has no deadline, cap or per-connection hook, so half-open requests use
 * up every descriptor; its WebSocket handler answers only the Host it was
 * bound to; and its SP pipes leak a message whenever a send races a close
 * (nanomsg/nng#1713, fixed in 1.7; over WebSocket on every failed send).
 * Here a published message is one reference-counted buffer shared by all
 * subscribers and released by the edge itself, whatever the peers do.
 *
 * Threads: edge_create, the edge_listen_* calls, edge_start and
 * edge_destroy on the owner's thread; edge_publish from one thread at a
 * time; edge_reply from any thread; the callbacks on the edge's thread. */
#ifndef NAVAL_SERVER_EDGE_H
#define NAVAL_SERVER_EDGE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "naval/nv_error.h"

#define EDGE_MAX_STREAMS 4
#define EDGE_MAX_LISTENERS 8
#define EDGE_MAX_ROUTES 8
#define EDGE_MAX_PUBLISH_QUEUE 64

typedef struct edge edge;

typedef struct edge_limits {
    uint32_t max_connections;          /* open at once per listener; more are refused */
    uint32_t max_connections_per_address; /* open at once from one IP address, all listeners */
    double header_timeout_s;           /* an HTTP request head or an SP handshake must complete within */
    double idle_timeout_s;             /* a keep-alive HTTP connection waits this long for its next request */
    double send_timeout_s;             /* a subscriber whose write has not finished for this long is closed (0: never) */
    uint32_t max_header_bytes;         /* HTTP request head; its request line may take half */
    uint32_t send_queue;               /* messages queued per subscriber; the oldest drops when full */
    uint32_t max_message_bytes;        /* largest message a requester may send; a bigger one closes it */
    uint32_t max_pending;              /* requests awaiting their answer per connection; reading pauses beyond */
    double log_interval_s;             /* refusals and timeouts are summed into one line per interval */
    uint32_t max_total;                /* open at once on all listeners; 0: what the descriptor limit allows */
    uint32_t publish_queue;            /* messages handed to the edge and not yet taken, per stream (1..64):
                                          1 keeps only the newest (a server's snapshots), more keeps a
                                          relay's burst; the oldest is superseded when full */
    uint32_t peer_messages_per_s;      /* a PAIR1 peer's messages per second (burst: as many); more are dropped */
    /* Deadlines for every state a peer can park in (0: never). */
    double request_idle_timeout_s;     /* a requester with nothing asked, unanswered or arriving is closed after */
    double peer_idle_timeout_s;        /* a PAIR1 peer that sends nothing (a view that never acknowledges) */
    double message_timeout_s;          /* a message begun must arrive whole within */
    /* Sessions of a role open at once (0: no cap). A newcomer past the cap
     * makes room by closing the longest idle session of its role from the
     * most crowded address; when none is idle it is still let in, and the
     * owner's own cap refuses it with a reason (nothing is refused silently). */
    uint32_t max_requesters;
    uint32_t max_peers;
} edge_limits;

void edge_limits_default(edge_limits* l);

typedef enum edge_role {
    EDGE_SUBSCRIBER = 0,   /* PUB side: gets every message published on its stream */
    EDGE_REQUESTER,        /* REP side: sends requests, gets one answer each */
    EDGE_PEER,             /* PAIR1: messages both ways, one connection each (a player view) */
} edge_role;

/* An HTTP request the edge has checked (method GET or HEAD, no body). */
typedef struct edge_http_request {
    const char* path;      /* percent-decoded, without the query */
    int head;              /* HEAD: the edge sends no body */
    int listener;          /* index, as edge_listen_http returned */
} edge_http_request;

/* What the handler answers. body stays valid until the edge drops it:
 * `owned` (if not NULL) is free()d after the write, otherwise body must
 * live as long as the edge. */
typedef struct edge_response {
    int status;
    const char* content_type;
    const void* body;
    size_t size;
    void* owned;
    const char* headers;   /* extra "Name: value\r\n" lines (static), or NULL */
} edge_response;

typedef struct edge_callbacks {
    void* arg;
    /* Every GET or HEAD that is no WebSocket upgrade; NULL: 404 for all. */
    void (*http)(void* arg, const edge_http_request* req, edge_response* res);
    /* A request from requester `conn`, its SP routing header removed:
     * answer it with edge_reply(conn, tag, ...). Return -1 to drop it (the
     * requester's own timeout tells it). */
    int (*request)(void* arg, uint32_t conn, uint32_t tag, const uint8_t* body, size_t size);
    /* A requester connection came or went (its id is never reused while
     * the edge runs: 2^32 connections). addr: the remote IP address as 16
     * bytes (IPv4 as ::ffff:a.b.c.d), for limits per address. */
    void (*requester_open)(void* arg, uint32_t conn, const uint8_t addr[16]);
    void (*requester_closed)(void* arg, uint32_t conn);
    /* A PAIR1 peer came, sent a message (its hop-count header removed), or
     * went. Past `peer_messages_per_s` a peer's messages are dropped. */
    void (*peer_open)(void* arg, uint32_t conn, const uint8_t addr[16]);
    void (*peer_message)(void* arg, uint32_t conn, const uint8_t* body, size_t size);
    void (*peer_closed)(void* arg, uint32_t conn);
} edge_callbacks;

typedef enum edge_refusal {
    EDGE_REFUSED_LISTENER_FULL = 0,  /* the listener's cap, nothing to evict */
    EDGE_REFUSED_ADDRESS_FULL,       /* the remote address's cap */
    EDGE_REFUSED_SERVER_FULL,        /* the process's descriptor budget, nothing to evict */
    EDGE_REFUSALS
} edge_refusal;
typedef enum edge_timeout {
    EDGE_TIMEOUT_HEAD = 0,   /* an HTTP request head or an SP handshake */
    EDGE_TIMEOUT_IDLE,       /* an idle keep-alive */
    EDGE_TIMEOUT_SEND,       /* a subscriber, requester or peer that stopped reading */
    EDGE_TIMEOUT_SESSION,    /* an idle requester, a silent peer */
    EDGE_TIMEOUT_MESSAGE,    /* a message begun and never finished */
    EDGE_TIMEOUTS
} edge_timeout;

/* Counters any thread may read (relaxed: each on its own). */
typedef struct edge_stats {
    atomic_uint connections;                   /* open now, all listeners */
    atomic_uint subscribers[EDGE_MAX_STREAMS];
    atomic_uint requesters;
    atomic_uint peers;
    atomic_uint_least64_t accepted;
    atomic_uint_least64_t refused[EDGE_REFUSALS];
    atomic_uint_least64_t evicted;              /* half-open or idle connections closed to make room */
    atomic_uint_least64_t sessions_evicted;     /* idle requesters and peers closed to make room for a newcomer */
    atomic_uint_least64_t private_refused;      /* subscribers from other hosts refused by a local-only stream */
    atomic_uint_least64_t reply_bytes_queued;   /* answers and peer messages handed to the socket, not yet written */
    atomic_uint budget;                         /* connections the descriptor limit allows at once */
    atomic_uint_least64_t timeouts[EDGE_TIMEOUTS];
    atomic_uint_least64_t http_requests;        /* heads parsed, upgrades included */
    atomic_uint_least64_t http_refused;         /* answered 4xx/5xx by the edge itself (bad heads) */
    atomic_uint_least64_t protocol_errors;      /* SP or WebSocket rules broken: closed */
    atomic_uint_least64_t published[EDGE_MAX_STREAMS];   /* messages given to the edge */
    atomic_uint_least64_t superseded[EDGE_MAX_STREAMS];  /* replaced by a newer one before the edge took them */
    atomic_uint_least64_t messages[EDGE_MAX_STREAMS];    /* queued to subscribers (one per subscriber) */
    atomic_uint_least64_t bytes[EDGE_MAX_STREAMS];       /* their payload bytes */
    atomic_uint_least64_t dropped[EDGE_MAX_STREAMS];     /* dropped from full subscriber queues */
    atomic_uint_least64_t replies, reply_bytes, replies_lost; /* lost: the requester had gone */
    atomic_uint_least64_t peer_sent, peer_bytes;    /* messages to PAIR1 peers and their payload bytes */
    atomic_uint_least64_t peer_dropped;             /* to a peer with send_queue messages unwritten */
    atomic_uint_least64_t peer_received, peer_flooded; /* from peers; flooded: over the rate, dropped */
    atomic_int buffers;                         /* published messages alive (shared by subscribers) */
    atomic_int connection_memory;               /* connection structures alive */
} edge_stats;

int edge_create(edge** out, const edge_limits* limits, const edge_callbacks* cb, uint32_t streams, nv_error* err);

/* tcp://HOST:PORT (HOST a name, an address, [v6], or empty / * for all):
 * SP over tcp. Returns the listener's index, or -1. */
int edge_listen_sp(edge* e, const char* url, edge_role role, uint32_t stream, nv_error* err);
/* HTTP on HOST:PORT (the same HOST:PORT twice gives the same listener). */
int edge_listen_http(edge* e, const char* hostport, nv_error* err);
/* A WebSocket path on an HTTP listener: SP with the subprotocol
 * "pub.sp.nanomsg.org" (subscribers), "rep.sp.nanomsg.org" (requesters) or
 * "pair1.sp.nanomsg.org" (peers);
 * an upgrade may name it or no subprotocol at all. */
int edge_route_ws(edge* e, int listener, const char* path, edge_role role, uint32_t stream, nv_error* err);
/* Keeps a stream private to this host (call before edge_start): its
 * subscribers (tcp and WebSocket) must connect from 127.0.0.1 or ::1;
 * others get a 403 (ws) or are closed (tcp), and are counted in
 * private_refused. */
int edge_stream_local_only(edge* e, uint32_t stream, nv_error* err);
/* The port a listener is bound to (useful with port 0). */
int edge_listener_port(const edge* e, int listener);

/* Starts the edge's thread: from now on the listeners accept. */
int edge_start(edge* e, nv_error* err);
/* Closes every connection and listener (what is queued may be lost),
 * joins the thread and frees everything. Safe on NULL. */
void edge_destroy(edge* e);

/* Copies the message and hands it to the edge's thread, which queues it
 * to every subscriber of the stream. When `publish_queue` messages wait
 * for the thread already, the oldest is dropped (counted as superseded):
 * subscribers want the newest. -1 when out of memory. */
int edge_publish(edge* e, uint32_t stream, const void* data, size_t size);
/* The same without the copy: release(release_arg) once nobody needs it. */
int edge_publish_owned(edge* e, uint32_t stream, const void* data, size_t size, void (*release)(void*),
                       void* release_arg);
/* The answer to request `tag` of requester `conn` (copied); dropped, and
 * counted, when that connection has gone. -1 when out of memory. */
int edge_reply(edge* e, uint32_t conn, uint32_t tag, const void* data, size_t size);
/* A message to PAIR1 peer `conn` (copied), from any thread. Dropped, and
 * counted, when the peer has gone or has send_queue messages unwritten; a
 * peer whose writes stay stuck that way for send_timeout_s is closed. */
int edge_send(edge* e, uint32_t conn, const void* data, size_t size);
/* The same, and the peer is closed once it is written: a refusal. */
int edge_send_last(edge* e, uint32_t conn, const void* data, size_t size);

const edge_stats* edge_get_stats(const edge* e);

/* The text of a 16-byte address key (an IPv4 one as a.b.c.d). */
void edge_address_text(const uint8_t key[16], char* out, size_t n);

/* Parses tcp://HOST:PORT (want_scheme) or HOST:PORT without resolving
 * names: 0, or -1 with the reason. For settings checks. */
int edge_check_endpoint(const char* text, int want_scheme, char* why, size_t why_size);

#endif
