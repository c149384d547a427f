// SPDX-License-Identifier: MIT
/* The server's endpoints on the edge (edge.h): the full and compact
 * snapshot streams (PUB over tcp and ws://HTTP/ws/snapshots,
 * /ws/compact), the command endpoint (REP over tcp and
 * ws://HTTP/ws/commands), player views (PAIR1 over tcp and
 * ws://HTTP/ws/view) and the HTTP site (http.h) on the same port as
 * the WebSocket paths. Requests and view messages go to the loop through
 * the cmdq, answers come back with net_reply and view updates with
 * net_send; snapshots leave with net_publish.
 *
 * Threads: net_open, net_publish, net_reply and net_close on the loop
 * thread; the edge's callbacks (cmdq pushes) on the edge's thread. */
#ifndef NAVAL_SERVER_NET_H
#define NAVAL_SERVER_NET_H

#include <stddef.h>
#include <stdint.h>

#include "cmdq.h"
#include "edge.h"
#include "http.h"
#include "metrics.h"
#include "naval/nv_error.h"

typedef struct net_config {
    const char* snapshot_url;   /* "" : none */
    const char* compact_url;    /* "" : none */
    const char* command_url;    /* "" : none */
    const char* view_url;       /* "" : none (PAIR1, player views) */
    const char* http;           /* "HOST:PORT" for the site and the ws endpoints; "" : none */
    edge_limits limits;
    int private_streams;        /* the full and compact streams only for clients on this host */
} net_config;

#define NET_WS_SNAPSHOTS "/ws/snapshots"
#define NET_WS_COMPACT "/ws/compact"
#define NET_WS_COMMANDS "/ws/commands"
#define NET_WS_VIEW "/ws/view"

typedef struct net net;

/* Binds every endpoint (an address in use fails here, named) and starts
 * the edge. site may be NULL (no HTTP pages, the ws paths still work). */
int net_open(net** out, const net_config* cfg, http_site* site, cmdq* queue, metrics* m, nv_error* err);
/* Closes every connection (what is queued may be lost) and joins the
 * edge's thread. Safe on NULL. */
void net_close(net* n);

/* Whether anyone listens to the stream (skip building what nobody reads). */
int net_has_subscribers(const net* n, metrics_stream s);
/* Copies the snapshot and hands it to the edge; never blocks. */
int net_publish(net* n, metrics_stream s, const void* data, size_t size);
/* The answer to request `tag` of connection `pipe`. */
void net_reply(net* n, uint32_t pipe, uint32_t tag, const void* data, size_t size);
/* A message to player view connection `conn` (PAIR1). */
void net_send_view(net* n, uint32_t conn, const void* data, size_t size);
/* The same, and the connection closes once it is written (a refusal). */
void net_send_view_last(net* n, uint32_t conn, const void* data, size_t size);
/* Waits for nothing: true while the endpoints are open. */
int net_is_open(const net* n);
/* The tcp request socket's bound port (0: none), announced in snapshots. */
int net_command_port(const net* n);
const edge_stats* net_stats(const net* n);

#endif
