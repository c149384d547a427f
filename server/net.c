// SPDX-License-Identifier: MIT
#include "net.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "log.h"

struct net {
    edge* e;
    http_site* site;
    cmdq* queue;
    metrics* m;
    int stream_open[METRICS_STREAMS];
    atomic_int closing;
    int command_port; /* the tcp request socket's, 0: none */
};

/* Edge thread: the request is copied for the loop (the edge's buffer is
 * reused as soon as this returns). */
static int net_on_request(void* arg, uint32_t conn, uint32_t tag, const uint8_t* body, size_t size) {
    net* n = arg;
    cmdq_item it = {CMDQ_REQUEST, tag, conn, uv_hrtime(), malloc(size ? size : 1), size, {0}};
    if (!it.data) return -1;
    memcpy(it.data, body, size);
    if (cmdq_push(n->queue, &it)) {
        free(it.data);
        return -1; /* lost, as a dropped request: the client's timeout says so */
    }
    return 0;
}

static void net_on_requester_open(void* arg, uint32_t conn, const uint8_t addr[16]) {
    net* n = arg;
    /* The loop learns the address before the connection's first request
     * (the queue keeps their order): limits per address need it. */
    cmdq_item it = {CMDQ_PIPE_OPEN, 0, conn, uv_hrtime(), NULL, 0, {0}};
    memcpy(it.addr, addr, sizeof it.addr);
    if (!atomic_load(&n->closing) && cmdq_push(n->queue, &it))
        log_warn("command connection %u opened but out of memory to tell the loop", conn);
}

static void net_on_requester_closed(void* arg, uint32_t conn) {
    net* n = arg;
    /* The loop forgets the connection's rate limit and orphans its vessels. */
    cmdq_item it = {CMDQ_PIPE_CLOSED, 0, conn, uv_hrtime(), NULL, 0, {0}};
    if (!atomic_load(&n->closing) && cmdq_push(n->queue, &it))
        log_warn("command connection %u closed but out of memory to tell the loop", conn);
}

/* Edge thread: a player view's connection and its messages, in order. */
static void net_view_event(net* n, cmdq_kind kind, uint32_t conn, const uint8_t* body, size_t size,
                           const uint8_t* addr) {
    cmdq_item it = {kind, 0, conn, uv_hrtime(), NULL, size, {0}};
    if (addr) memcpy(it.addr, addr, sizeof it.addr);
    if (body) {
        if (!(it.data = malloc(size ? size : 1))) return;
        memcpy(it.data, body, size);
    }
    if (atomic_load(&n->closing) || cmdq_push(n->queue, &it)) {
        free(it.data);
        if (kind != CMDQ_VIEW_MESSAGE) log_warn("view connection %u: out of memory to tell the loop", conn);
    }
}

static void net_on_peer_open(void* arg, uint32_t conn, const uint8_t addr[16]) {
    net_view_event(arg, CMDQ_VIEW_OPEN, conn, NULL, 0, addr);
}
static void net_on_peer_closed(void* arg, uint32_t conn) { net_view_event(arg, CMDQ_VIEW_CLOSED, conn, NULL, 0, NULL); }
static void net_on_peer_message(void* arg, uint32_t conn, const uint8_t* body, size_t size) {
    net_view_event(arg, CMDQ_VIEW_MESSAGE, conn, body, size, NULL);
}

static void net_on_http(void* arg, const edge_http_request* req, edge_response* res) {
    net* n = arg;
    http_handle(n->site, req, res);
}

static int net_open_ws(net* n, int listener, const char* path, edge_role role, uint32_t stream, nv_error* err) {
    return listener < 0 ? 0 : edge_route_ws(n->e, listener, path, role, stream, err);
}

int net_open(net** out, const net_config* cfg, http_site* site, cmdq* queue, metrics* m, nv_error* err) {
    net* n = calloc(1, sizeof *n);
    if (!n) return nv_error_fail(err, NV_ENOMEM, "out of memory");
    n->queue = queue;
    n->m = m;
    n->site = site;
    edge_callbacks cb = {n,
                         site ? net_on_http : NULL,
                         net_on_request,
                         net_on_requester_open,
                         net_on_requester_closed,
                         net_on_peer_open,
                         net_on_peer_message,
                         net_on_peer_closed};
    if (edge_create(&n->e, &cfg->limits, &cb, METRICS_STREAMS, err)) {
        free(n);
        return -1;
    }
    int http = -1, command = -1;
    int failed = (cfg->http[0] && (http = edge_listen_http(n->e, cfg->http, err)) < 0) ||
                 (cfg->snapshot_url[0] && edge_listen_sp(n->e, cfg->snapshot_url, EDGE_SUBSCRIBER, METRICS_FULL, err) < 0) ||
                 (cfg->compact_url[0] && edge_listen_sp(n->e, cfg->compact_url, EDGE_SUBSCRIBER, METRICS_COMPACT, err) < 0) ||
                 (cfg->command_url[0] && (command = edge_listen_sp(n->e, cfg->command_url, EDGE_REQUESTER, 0, err)) < 0) ||
                 (cfg->view_url[0] && edge_listen_sp(n->e, cfg->view_url, EDGE_PEER, 0, err) < 0) ||
                 net_open_ws(n, http, NET_WS_VIEW, EDGE_PEER, 0, err) ||
                 net_open_ws(n, http, NET_WS_SNAPSHOTS, EDGE_SUBSCRIBER, METRICS_FULL, err) ||
                 (cfg->compact_url[0] && net_open_ws(n, http, NET_WS_COMPACT, EDGE_SUBSCRIBER, METRICS_COMPACT, err)) ||
                 net_open_ws(n, http, NET_WS_COMMANDS, EDGE_REQUESTER, 0, err);
    if (!failed && cfg->private_streams)
        failed = edge_stream_local_only(n->e, METRICS_FULL, err) || edge_stream_local_only(n->e, METRICS_COMPACT, err);
    n->stream_open[METRICS_FULL] = cfg->snapshot_url[0] || cfg->http[0];
    n->stream_open[METRICS_COMPACT] = cfg->compact_url[0] != 0;
    if (!failed && http >= 0)
        log_info("listening on http://%s (the site, /ws/snapshots, /ws/compact, /ws/commands, /ws/view)", cfg->http);
    if (failed || edge_start(n->e, err)) {
        edge_destroy(n->e);
        free(n);
        return -1;
    }
    if (m) metrics_attach_edge(m, edge_get_stats(n->e));
    n->command_port = command >= 0 ? edge_listener_port(n->e, command) : 0;
    *out = n;
    return 0;
}

void net_close(net* n) {
    if (!n) return;
    atomic_store(&n->closing, 1);
    edge_destroy(n->e);
    free(n);
}

int net_has_subscribers(const net* n, metrics_stream s) {
    return n && n->stream_open[s] &&
           atomic_load_explicit(&edge_get_stats(n->e)->subscribers[s], memory_order_relaxed) > 0;
}

int net_publish(net* n, metrics_stream s, const void* data, size_t size) {
    if (!n || !n->stream_open[s]) return 0;
    return edge_publish(n->e, (uint32_t)s, data, size);
}

void net_reply(net* n, uint32_t pipe, uint32_t tag, const void* data, size_t size) {
    if (!n || atomic_load(&n->closing)) return;
    if (edge_reply(n->e, pipe, tag, data, size))
        log_warn("out of memory for the answer to connection %u (its client times out)", pipe);
}

void net_send_view(net* n, uint32_t conn, const void* data, size_t size) {
    if (!n || atomic_load(&n->closing)) return;
    if (edge_send(n->e, conn, data, size)) log_warn("out of memory for an update to view connection %u", conn);
}

void net_send_view_last(net* n, uint32_t conn, const void* data, size_t size) {
    if (!n || atomic_load(&n->closing)) return;
    if (edge_send_last(n->e, conn, data, size)) log_warn("out of memory for a refusal to view connection %u", conn);
}

int net_is_open(const net* n) { return n && !atomic_load(&n->closing); }

const edge_stats* net_stats(const net* n) { return n ? edge_get_stats(n->e) : NULL; }

int net_command_port(const net* n) { return n->command_port; }
