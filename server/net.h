/* The nng side: the snapshot PUB sockets (full and compact; each listens on
 * its tcp URL and on ws://HTTP/ws/...), and the command REP socket (tcp and
 * ws://HTTP/ws/commands) served by a pool of contexts. Each context is a
 * small state machine on nng's threads: receive -> hand the request to the
 * loop (cmdq) -> wait -> the loop calls net_reply -> send -> receive. The
 * callbacks never block and never touch the world.
 *
 * Threads: net_open, net_publish, net_reply and net_close on the loop
 * thread; the callbacks on nng's; nng_sendmsg of snapshots on net's own
 * publisher thread. */
#ifndef NAVAL_SERVER_NET_H
#define NAVAL_SERVER_NET_H

#include <stddef.h>
#include <stdint.h>

#include "cmdq.h"
#include "metrics.h"
#include "nv_error.h"

typedef struct net_config {
    const char* snapshot_url;   /* "" : none */
    const char* compact_url;    /* "" : none */
    const char* command_url;    /* "" : none */
    const char* http;           /* "HOST:PORT" for the ws endpoints; "" : none */
    size_t recv_max;            /* hard cap per request: a bigger one closes the connection */
    uint32_t contexts;          /* REP contexts */
    uint32_t send_queue;        /* per subscriber, messages */
} net_config;

#define NET_WS_SNAPSHOTS "/ws/snapshots"
#define NET_WS_COMPACT "/ws/compact"
#define NET_WS_COMMANDS "/ws/commands"

typedef struct net net;

/* The HTTP server (http.h) must already hold HOST:PORT so that the ws
 * listeners share it. */
int net_open(net** out, const net_config* cfg, cmdq* queue, metrics* m, nv_error* err);
/* Stops receiving, closes the sockets (queued snapshots may be lost) and
 * waits for every callback to finish. Safe on NULL. */
void net_close(net* n);

/* Whether anyone listens to the stream (skip building what nobody reads). */
int net_has_subscribers(const net* n, metrics_stream s);
/* Copies data into a message and hands it to the publisher thread, which
 * sends it to every subscriber of the stream (nng's PUB writes to the
 * sockets inside nng_sendmsg: that time stays off the tick). Never blocks:
 * a full subscriber queue drops its oldest message, and a snapshot the
 * publisher has not taken yet is replaced by the newer one (counted). */
int net_publish(net* n, metrics_stream s, const void* data, size_t size);
/* The response to the request that arrived on context `slot`. */
void net_reply(net* n, uint32_t slot, const void* data, size_t size);
/* Waits for nothing: true while the sockets are open. */
int net_is_open(const net* n);

#endif
