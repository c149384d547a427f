// SPDX-License-Identifier: MIT
/* The site on the one HTTP port: the web client's files at / (loaded into
 * memory at start, so no request touches the disk or escapes the folder),
 * /metrics (Prometheus text) and /healthz. The edge (edge.h, through
 * net.h) serves it beside the WebSocket paths /ws/snapshots, /ws/compact
 * and /ws/commands, and calls http_handle on its own thread: the handler
 * only reads atomics and the files loaded at start. */
#ifndef NAVAL_SERVER_HTTP_H
#define NAVAL_SERVER_HTTP_H

#include <stdint.h>

#include "edge.h"
#include "metrics.h"
#include "naval/nv_error.h"

typedef struct http_config {
    const char* web_root;   /* folder to serve (NULL or "": none); without an
                               index.html of its own, "/" is the built-in page */
    double tick_hz;         /* /healthz: stalled after 10 periods (at least 1 s) without a tick */
} http_config;

#define HTTP_MAX_FILES 4096
#define HTTP_MAX_BYTES (64u << 20)

typedef struct http_site http_site;

/* Loads the files; the site answers once net_open has given it to the edge. */
int http_open(http_site** out, const http_config* cfg, metrics* m, nv_error* err);
/* The answer to a GET or HEAD (edge's thread). */
void http_handle(http_site* s, const edge_http_request* req, edge_response* res);
/* /healthz answers 503 "shutting down" from now on. */
void http_set_stopping(http_site* s);
/* After the edge is gone (net_close). Safe on NULL. */
void http_free(http_site* s);
/* Files served (the built-in page counts as one). */
uint32_t http_file_count(const http_site* s);

/* Content type by file extension (application/octet-stream when unknown). */
const char* http_content_type(const char* path);

#endif
