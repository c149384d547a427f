/* The one HTTP port: the web client's files at / (loaded into memory at
 * start, so no request touches the disk or escapes the folder), /metrics
 * (Prometheus text), /healthz, and, added by net.c's ws listeners on the
 * same nng HTTP server, /ws/snapshots, /ws/compact and /ws/commands.
 * Handlers run on nng's threads and only read atomics. */
#ifndef NAVAL_SERVER_HTTP_H
#define NAVAL_SERVER_HTTP_H

#include <stdint.h>

#include "metrics.h"
#include "nv_error.h"

typedef struct http_config {
    const char* hostport;   /* "HOST:PORT" */
    const char* web_root;   /* folder to serve (NULL or "": none); without an
                               index.html of its own, "/" is the built-in page */
    double tick_hz;         /* /healthz: stalled after 10 periods (at least 1 s) without a tick */
} http_config;

#define HTTP_MAX_FILES 4096
#define HTTP_MAX_BYTES (64u << 20)

typedef struct http_site http_site;

/* Holds the nng HTTP server for HOST:PORT, adds the handlers and starts it
 * (the ws listeners opened afterwards join it). */
int http_open(http_site** out, const http_config* cfg, metrics* m, nv_error* err);
/* /healthz answers 503 "shutting down" from now on. */
void http_set_stopping(http_site* s);
/* Stops and releases the server (after the ws listeners are closed). A
 * handler already running may still read the site: free it only after
 * nng_fini (http_free). */
void http_close(http_site* s);
void http_free(http_site* s);
/* Files served (the built-in page counts as one). */
uint32_t http_file_count(const http_site* s);

/* Content type by file extension (application/octet-stream when unknown). */
const char* http_content_type(const char* path);

#endif
