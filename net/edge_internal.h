// SPDX-License-Identifier: MIT
/* The edge's parts (edge.c: loop, listeners, limits, deadlines, writes;
 * edge_http.c: HTTP requests and upgrades; edge_session.c: the SP
 * transports over tcp and WebSocket; the roles on them: edge_pub.c PUB,
 * edge_rep.c REP, edge_pair.c PAIR1). Everything here belongs to the edge's thread
 * unless it says otherwise. */
#ifndef NAVAL_SERVER_EDGE_INTERNAL_H
#define NAVAL_SERVER_EDGE_INTERNAL_H

#include <uv.h>

#include "edge.h"
#include "httphead.h"
#include "idmap.h"
#include "wsframe.h"

#define EDGE_ADD(x, v) atomic_fetch_add_explicit(&(x), (v), memory_order_relaxed)
#define EDGE_SUB(x, v) atomic_fetch_sub_explicit(&(x), (v), memory_order_relaxed)

/* SP protocol numbers (nng: NNI_PROTO(major, minor) = major * 16 + minor). */
#define EDGE_SP_PUB 0x20
#define EDGE_SP_SUB 0x21
#define EDGE_SP_REQ 0x30
#define EDGE_SP_REP 0x31
#define EDGE_SP_PAIR1 0x11
#define EDGE_PAIR1_HEADER 4           /* PAIR1 messages start with a 32-bit hop count */
#define EDGE_PEER_TAG UINT32_MAX      /* an edge_reply_item that is a message to a peer */
#define EDGE_PEER_LAST_TAG (UINT32_MAX - 1) /* the same, closing the peer once written */
#define EDGE_SP_HANDSHAKE 8
#define EDGE_SP_MAX_HOPS 8           /* nng's REP gives up on deeper routing headers */
/* Frames of at most this much go to WebSocket peers, as nng's listener
 * sends them: nng's dialer refuses frames over 1 MiB whatever its
 * message limit. */
#define EDGE_WS_FRAGMENT 65536
#define EDGE_READ_CHUNK 65536

typedef enum edge_state {
    EDGE_HEAD = 0,      /* reading an HTTP request head (deadline) */
    EDGE_RESPONDING,    /* an HTTP response is being written */
    EDGE_IDLE,          /* keep-alive: waiting for the next head (deadline) */
    EDGE_HANDSHAKE,     /* SP over tcp: waiting for the peer's 8 bytes (deadline) */
    EDGE_SESSION,       /* SP messages, over tcp or WebSocket */
    EDGE_CLOSING,
} edge_state;

typedef enum edge_framing { EDGE_FRAMING_HTTP = 0, EDGE_FRAMING_SP, EDGE_FRAMING_WS } edge_framing;

typedef enum edge_timed { EDGE_LIST_NONE = 0, EDGE_LIST_HEAD, EDGE_LIST_IDLE, EDGE_LISTS } edge_timed;

/* A published message: one per publish, shared by every subscriber that
 * queued it, freed when the last lets go. */
typedef struct edge_buf {
    int refs;
    uint32_t stream;
    size_t size;
    const uint8_t* data;
    void (*release)(void*);
    void* release_arg;
    uint8_t sp_len[8];       /* SP over tcp: the length prefix */
    uint8_t* ws;             /* the message as WebSocket frames, built for the first ws subscriber */
    size_t ws_size;
    uint8_t inline_data[];   /* edge_publish's copy */
} edge_buf;

/* A request awaiting its answer: the routing header to send back. */
typedef struct edge_pending {
    uint16_t gen;
    uint8_t used;
    uint8_t hop_bytes;
    uint8_t hops[4 * EDGE_SP_MAX_HOPS];
} edge_pending;

typedef struct edge_conn edge_conn;

typedef struct edge_list {
    edge_conn* first;
    edge_conn* last;
} edge_list;

struct edge_conn {
    uv_tcp_t tcp;            /* first: the handle's address is the connection's */
    edge* e;
    uint32_t id, slot;
    uint8_t addr[16];        /* the remote address's key in the per-address counts */
    uint8_t listener;
    uint8_t state;           /* edge_state */
    uint8_t framing;         /* edge_framing */
    uint8_t role;            /* edge_role, for sessions */
    uint8_t timed;           /* edge_timed: which deadline list holds it */
    uint8_t paused;          /* reading stopped (a response or answers outstanding) */
    uint8_t close_after;     /* close once the writes in flight are done */
    uint8_t counted;         /* in the subscriber or requester gauge */
    uint32_t stream;
    uint64_t since_ns;       /* entered its timed state */
    edge_conn *prev, *next;  /* in its deadline list */
    edge_conn *sprev, *snext;/* in its stream's subscribers */
    /* input not yet consumed */
    uint8_t* in;
    size_t in_len, in_cap;
    httphead_scan scan;
    /* a WebSocket message arriving in fragments */
    uint8_t* msg;
    size_t msg_len, msg_cap;
    wsframe_sequence seq;
    /* the broadcast write: one in flight, the rest queued (oldest first) */
    uv_write_t wr;
    edge_buf* inflight;
    uint64_t write_ns;
    edge_buf** queue;
    uint32_t q_head, q_count;
    uint32_t writes;         /* writes in flight, broadcast and private */
    /* requests awaiting answers */
    edge_pending* pending;
    uint32_t pending_count;
    uint16_t gen;
    /* a PAIR1 peer: its input rate and whether its writes are stuck */
    double peer_tokens;
    uint64_t peer_refill_ns;
    uint64_t waiting_ns;     /* since when its oldest unfinished write waits (0: none) */
    /* a requester or peer session: deadlines and eviction */
    uint64_t active_ns;      /* its last message arrived (or the session began) */
    uint64_t partial_ns;     /* since when part of a message waits for the rest (0: none) */
    size_t queued_bytes;     /* answers and peer messages written to the socket, not yet done */
};

typedef struct edge_route {
    char path[HTTPHEAD_PATH_MAX];
    edge_role role;
    uint32_t stream;
} edge_route;

typedef struct edge_listener {
    uv_tcp_t tcp;
    edge* e;
    int index;
    edge_framing framing;    /* HTTP or SP */
    edge_role role;          /* SP listeners */
    uint32_t stream;
    char name[96];           /* as configured, for logs */
    uint32_t open;           /* connections now */
    uint32_t refused_interval[EDGE_REFUSALS];
    edge_route routes[EDGE_MAX_ROUTES];
    int route_count;
    int port;
} edge_listener;

/* One entry per remote address with connections open. */
typedef struct edge_addr {
    uint8_t key[16];
    uint32_t count;          /* 0: free */
} edge_addr;

typedef struct edge_reply_item {
    uint32_t conn, tag;
    size_t size;
    uint8_t data[];
} edge_reply_item;

struct edge {
    edge_limits lim;
    edge_callbacks cb;
    uint32_t streams;
    edge_stats stats;
    uv_loop_t loop;
    uv_async_t wake;
    uv_timer_t sweep;
    uv_thread_t thread;
    int started, loop_ready, stopping;
    edge_listener listeners[EDGE_MAX_LISTENERS];
    int listener_count;
    /* connections by slot; ids map to slots */
    edge_conn** conns;
    uint32_t conn_cap, conn_count, *free_slots, free_count;
    uint32_t next_id;
    idmap ids;
    edge_addr* addrs;        /* open addressing, capacity a power of two */
    uint32_t addr_cap;
    edge_list timed[EDGE_LISTS];
    edge_list subscribers[EDGE_MAX_STREAMS];
    edge_list peers;         /* PAIR1 sessions (linked through sprev/snext) */
    edge_list requesters;    /* REP sessions (linked through sprev/snext) */
    uint32_t local_only;     /* bit per stream: subscribers from loopback only */
    uint64_t timeout_ns[EDGE_LISTS];
    /* handed over from other threads under `lock` */
    uv_mutex_t lock;
    edge_buf* incoming[EDGE_MAX_STREAMS][EDGE_MAX_PUBLISH_QUEUE]; /* a ring per stream */
    uint32_t incoming_head[EDGE_MAX_STREAMS], incoming_count[EDGE_MAX_STREAMS];
    edge_reply_item** replies;
    uint32_t reply_count, reply_cap;
    edge_reply_item** replies_spare;  /* swapped in by the edge thread */
    uint32_t replies_spare_cap;
    atomic_int stop;
    uint32_t budget;         /* connections at once, from the descriptor limit */
    /* one summary log line per interval */
    uint64_t interval_start_ns;
    uint64_t timeouts_interval[EDGE_TIMEOUTS];
    uint64_t bad_heads_interval, protocol_interval, evicted_interval, private_interval;
    char last_refused[64];
    char read_buf[EDGE_READ_CHUNK];
};

/* edge_addr.c: endpoints and the per-address counts */
typedef struct edge_endpoint {
    char host[256];
    int port;
    int wildcard;
} edge_endpoint;
int edge_parse_endpoint(const char* text, int want_scheme, edge_endpoint* ep, char* why, size_t why_size);
int edge_resolve(const edge_endpoint* ep, struct sockaddr_storage* out, nv_error* err, const char* text);
void edge_addr_key(const struct sockaddr_storage* a, uint8_t key[16]);
/* The slot holding key, or the free slot where it would go. */
uint32_t edge_addr_find(const edge* e, const uint8_t key[16]);
int edge_addr_grow(edge* e);
uint32_t edge_addr_count(const edge* e, const uint8_t key[16]);
void edge_addr_release(edge* e, const uint8_t key[16]);

/* edge.c: the loop, listeners, limits and deadlines, writes (buffers grow
 * with grow_append, grow.h) */

void edge_conn_close(edge_conn* c);
/* A write of the connection's finished (status < 0: failed): closes or
 * goes on with what waited for it. */
void edge_conn_written(edge_conn* c, int status);
/* Whether the connection came from this host (127/8, ::1). */
int edge_conn_is_local(const edge_conn* c);
/* A session reached a role's cap: closes the longest idle one of that
 * role from the most crowded address, if any is idle; 1 when it did. */
int edge_evict_session(edge* e, edge_role role);
void edge_conn_set_timed(edge_conn* c, edge_timed list);
void edge_conn_pause(edge_conn* c, int paused);
/* Writes `size` bytes the connection owns from now: `mem` is free()d once
 * written (data points into it). Closes afterwards when close_after is set. */
int edge_conn_write_owned(edge_conn* c, void* mem, const void* data, size_t size);
/* The same for a head (owned) and a body (owned or borrowed). */
int edge_conn_write_two(edge_conn* c, void* head, size_t head_size, const void* body, size_t body_size,
                        void* body_owned);
edge_conn* edge_conn_by_id(edge* e, uint32_t id);
uint64_t edge_now_ns(void);

/* edge_pub.c: the PUB role */
void edge_subscribe(edge_conn* c, uint32_t stream);
void edge_list_append(edge_list* l, edge_conn* c);
void edge_buf_unref(edge* e, edge_buf* b);
/* Queues a published message to every subscriber of its stream and drops
 * the publisher's reference. */
void edge_deliver(edge* e, edge_buf* b);

/* edge_http.c */
void edge_http_input(edge_conn* c);
void edge_http_written(edge_conn* c);

/* edge_session.c: the SP transports (tcp, WebSocket) under every role */
void edge_session_start(edge_conn* c);            /* SP over tcp: send our handshake */
void edge_session_input(edge_conn* c);            /* bytes arrived (or answers freed room) */
void edge_session_closed(edge_conn* c);           /* the connection is going: forget requests */
void edge_session_reply(edge* e, edge_reply_item* r);
/* A WebSocket session begins (after the 101 was queued). */
void edge_session_upgraded(edge_conn* c, edge_role role, uint32_t stream);
/* Whether a subscriber of `stream` from c's address is refused because
 * the stream is local-only (counted when it is). */
int edge_session_private(const edge_conn* c, edge_role role, uint32_t stream);
/* Frames a close with `code` and closes after it is written. */
void edge_session_ws_close(edge_conn* c, int code, const char* why);
/* The broadcast write's bytes for this connection. */
void edge_session_buf_bytes(edge_conn* c, edge_buf* b, uv_buf_t* bufs, unsigned* count);
/* A message of head then body as this session's transport frames it (SP's
 * length, or WebSocket frames): malloc'd, *size its length; NULL when out
 * of memory. */
uint8_t* edge_session_frame(const edge_conn* c, const uint8_t* head, size_t head_n, const void* body, size_t body_n,
                           size_t* size);
void edge_session_protocol_error(edge_conn* c, const char* why);
/* At a role's cap: makes room if a session is idle (edge_evict_session). */
void edge_session_make_room(edge* e, edge_role role);

/* edge_rep.c: the REP role */
void edge_rep_begin(edge_conn* c);
void edge_rep_closed(edge_conn* c);
/* Whether max_pending requests are unanswered or unwritten: input waits. */
int edge_rep_full(const edge_conn* c);
void edge_rep_message(edge_conn* c, const uint8_t* m, size_t n);
void edge_rep_reply(edge* e, edge_reply_item* r);

/* edge_pair.c: the PAIR1 role */
void edge_pair_begin(edge_conn* c);
void edge_pair_closed(edge_conn* c);
void edge_pair_message(edge_conn* c, const uint8_t* m, size_t n);
void edge_pair_send(edge* e, edge_reply_item* r, int last);

#endif
