// SPDX-License-Identifier: MIT
/* HTTP/1.1 on the edge: one request head at a time (pipelined ones wait
 * in the input), answered by the owner's handler, by the edge itself when
 * the head breaks a rule, or with a WebSocket upgrade on a routed path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edge_internal.h"
#include "log.h"

#define EDGE_HTTP_HEAD_MAX 1024

static void edge_http_consume(edge_conn* c, size_t n) {
    if (n >= c->in_len) {
        c->in_len = 0;
    } else {
        memmove(c->in, c->in + n, c->in_len - n);
        c->in_len -= n;
    }
    memset(&c->scan, 0, sizeof c->scan);
}

/* The head (status line and fields) of a response; NULL when out of memory. */
static char* edge_http_head(int status, const char* ctype, size_t length, int close, const char* extra, size_t* size) {
    char* h = malloc(EDGE_HTTP_HEAD_MAX);
    if (!h) return NULL;
    int n = snprintf(h, EDGE_HTTP_HEAD_MAX,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nX-Content-Type-Options: nosniff\r\n"
                     "%s%s\r\n",
                     status, httphead_reason(status), ctype ? ctype : "text/plain; charset=utf-8", length,
                     close ? "Connection: close\r\n" : "", extra ? extra : "");
    if (n < 0 || n >= EDGE_HTTP_HEAD_MAX) {
        free(h);
        return NULL;
    }
    *size = (size_t)n;
    return h;
}

static void edge_http_send(edge_conn* c, const edge_response* res, int head_only) {
    size_t head_size = 0;
    char* head = edge_http_head(res->status, res->content_type, res->size, c->close_after, res->headers, &head_size);
    c->state = EDGE_RESPONDING;
    /* A client that never reads its answer goes at the idle deadline. */
    edge_conn_set_timed(c, EDGE_LIST_IDLE);
    edge_conn_pause(c, 1);
    if (!head) {
        free(res->owned);
        edge_conn_close(c);
        return;
    }
    edge_conn_write_two(c, head, head_size, res->body, head_only ? 0 : res->size, res->owned);
}

/* An answer of the edge's own, as text: the connection closes after it. */
static void edge_http_plain(edge_conn* c, int status, const char* why, const char* extra) {
    char* body = malloc(512);
    int n = body ? snprintf(body, 512, "%d %s: %s\n", status, httphead_reason(status), why) : -1;
    if (n < 0) {
        free(body);
        edge_conn_close(c);
        return;
    }
    edge_response res = {status, "text/plain; charset=utf-8", body, (size_t)(n < 512 ? n : 511), body, extra};
    atomic_fetch_add_explicit(&c->e->stats.http_refused, 1, memory_order_relaxed);
    c->close_after = 1;
    edge_http_send(c, &res, 0);
}

static void edge_http_refuse(edge_conn* c, int status, const char* why) {
    edge* e = c->e;
    e->bad_heads_interval++;
    log_debug("http: answered %d on %s: %s", status, e->listeners[c->listener].name, why ? why : "?");
    edge_http_plain(c, status, why ? why : httphead_reason(status), NULL);
}

static const edge_route* edge_http_route(const edge_conn* c, const char* path) {
    const edge_listener* l = &c->e->listeners[c->listener];
    for (int i = 0; i < l->route_count; i++)
        if (strcmp(l->routes[i].path, path) == 0) return &l->routes[i];
    return NULL;
}

/* RFC 6455 4.2: any Host is fine (the page takes it from the address
 * bar: localhost, [::1], a name); the SP subprotocol, when named, must be
 * the route's. */
static void edge_http_upgrade(edge_conn* c, const httphead_request* req, const edge_route* r) {
    const char* proto = r->role == EDGE_SUBSCRIBER  ? "pub.sp.nanomsg.org"
                        : r->role == EDGE_PEER ? "pair1.sp.nanomsg.org"
                                               : "rep.sp.nanomsg.org";
    const httphead_slice* v = httphead_find(req, "Sec-WebSocket-Version");
    const httphead_slice* key = httphead_find(req, "Sec-WebSocket-Key");
    const httphead_slice* sub = httphead_find(req, "Sec-WebSocket-Protocol");
    if (!httphead_equals(&req->method, "GET") || req->minor != 1) {
        edge_http_refuse(c, 400, "a WebSocket upgrade must be GET over HTTP/1.1");
        return;
    }
    if (!httphead_has_token(httphead_find(req, "Connection"), "upgrade")) {
        edge_http_refuse(c, 400, "a WebSocket upgrade needs 'Connection: Upgrade'");
        return;
    }
    if (!v || !httphead_equals(v, "13")) {
        edge_http_plain(c, 426, "this server speaks WebSocket version 13", "Sec-WebSocket-Version: 13\r\n");
        return;
    }
    char accept[WSFRAME_ACCEPT_LEN + 1];
    if (!key || wsframe_accept_key(key->p, key->n, accept)) {
        edge_http_refuse(c, 400, "Sec-WebSocket-Key is not the base64 of 16 bytes");
        return;
    }
    if (sub && !httphead_has_token(sub, proto)) {
        edge_http_refuse(c, 400, r->role == EDGE_SUBSCRIBER  ? "this path speaks the subprotocol pub.sp.nanomsg.org"
                                 : r->role == EDGE_PEER ? "this path speaks the subprotocol pair1.sp.nanomsg.org"
                                                        : "this path speaks the subprotocol rep.sp.nanomsg.org");
        return;
    }
    if (edge_session_private(c, r->role, r->stream)) {
        edge_http_plain(c, 403, "this stream is private to the server's host: player views (/ws/view) show the sea",
                        NULL);
        return;
    }
    char* head = malloc(EDGE_HTTP_HEAD_MAX);
    int n = head ? snprintf(head, EDGE_HTTP_HEAD_MAX,
                            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            "Sec-WebSocket-Accept: %s\r\n%s%s%s\r\n",
                            accept, sub ? "Sec-WebSocket-Protocol: " : "", sub ? proto : "", sub ? "\r\n" : "")
                 : -1;
    if (n < 0 || n >= EDGE_HTTP_HEAD_MAX) {
        free(head);
        edge_conn_close(c);
        return;
    }
    if (edge_conn_write_owned(c, head, head, (size_t)n)) return;
    edge_session_upgraded(c, r->role, r->stream);
}

static void edge_http_answer(edge_conn* c, const httphead_request* req) {
    edge* e = c->e;
    int get = httphead_equals(&req->method, "GET"), head = httphead_equals(&req->method, "HEAD");
    const httphead_slice* length = httphead_find(req, "Content-Length");
    if (httphead_find(req, "Transfer-Encoding") || (length && !httphead_equals(length, "0"))) {
        edge_http_refuse(c, 413, "request bodies are not accepted here");
        return;
    }
    if (req->minor == 1 && !httphead_find(req, "Host")) {
        edge_http_refuse(c, 400, "an HTTP/1.1 request needs a Host field");
        return;
    }
    const edge_route* route = edge_http_route(c, req->path);
    if (httphead_has_token(httphead_find(req, "Upgrade"), "websocket")) {
        if (!route) {
            edge_http_refuse(c, 404, "no WebSocket endpoint at this path");
            return;
        }
        edge_http_upgrade(c, req, route);
        return;
    }
    if (!get && !head) {
        edge_http_plain(c, 405, "this server answers GET and HEAD", "Allow: GET, HEAD\r\n");
        return;
    }
    if (route) {
        edge_http_plain(c, 426, "this path takes WebSocket upgrades", "Upgrade: websocket\r\n");
        return;
    }
    if (req->minor == 0 || httphead_has_token(httphead_find(req, "Connection"), "close")) c->close_after = 1;
    edge_response res = {404, "text/plain; charset=utf-8", "404 Not Found\n", 14, NULL, NULL};
    if (e->cb.http) {
        edge_http_request r = {req->path, head, c->listener};
        e->cb.http(e->cb.arg, &r, &res);
    }
    edge_http_send(c, &res, head);
}

void edge_http_input(edge_conn* c) {
    edge* e = c->e;
    httphead_limits lim = {e->lim.max_header_bytes / 2, e->lim.max_header_bytes};
    while (c->in_len && (c->state == EDGE_HEAD || c->state == EDGE_IDLE)) {
        if (c->state == EDGE_IDLE) {
            c->state = EDGE_HEAD;
            edge_conn_set_timed(c, EDGE_LIST_HEAD);
        }
        httphead_request req;
        httphead_result r = httphead_parse((const char*)c->in, c->in_len, &lim, &c->scan, &req);
        if (r == HTTPHEAD_INCOMPLETE) return;
        atomic_fetch_add_explicit(&e->stats.http_requests, 1, memory_order_relaxed);
        if (r != HTTPHEAD_OK) {
            edge_http_refuse(c, (int)r, req.why);
            return;
        }
        edge_http_answer(c, &req);
        if (c->state == EDGE_CLOSING) return;
        edge_http_consume(c, req.head_size);
        if (c->framing == EDGE_FRAMING_WS) {
            if (c->in_len) edge_session_input(c);
            return;
        }
    }
}

void edge_http_written(edge_conn* c) {
    c->state = EDGE_IDLE;
    edge_conn_set_timed(c, EDGE_LIST_IDLE);
    edge_conn_pause(c, 0);
    edge_http_input(c);
}
