// SPDX-License-Identifier: MIT
#include "agones.h"

#include <nng/nng.h>
#include <nng/supplemental/http/http.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "log.h"

/* Repeated failures are logged at most this often. */
#define AGONES_LOG_EVERY_NS (30ull * 1000000000ull)

struct agones {
    metrics* m;
    char base[256];
    nng_url* ready_url;
    nng_url* health_url;
    nng_http_client* client;
    nng_aio* aio;
    /* The call in flight: set by the loop before the aio starts, read and
     * released by the callback; atomic_int busy orders the hand-over. */
    nng_http_req* req;
    nng_http_res* res;
    int calling_ready;
    atomic_int busy;
    atomic_int ready;
    /* The callback's own (one call at a time). */
    int failing;
    uint64_t failures_unlogged, last_log_ns;
};

static void agones_on_done(void* arg);

int agones_open(agones** out, const char* base_url, metrics* m, nv_error* err) {
    *out = NULL;
    agones* a = calloc(1, sizeof *a);
    if (!a) return nv_error_fail(err, NV_ENOMEM, "out of memory");
    a->m = m;
    snprintf(a->base, sizeof a->base, "%s", base_url);
    size_t len = strlen(a->base);
    while (len && a->base[len - 1] == '/') a->base[--len] = '\0';
    char url[300];
    nng_url* base = NULL;
    int rv = nng_url_parse(&base, a->base);
    if (!rv) rv = nng_http_client_alloc(&a->client, base);
    if (base) nng_url_free(base);
    snprintf(url, sizeof url, "%s/ready", a->base);
    if (!rv) rv = nng_url_parse(&a->ready_url, url);
    snprintf(url, sizeof url, "%s/health", a->base);
    if (!rv) rv = nng_url_parse(&a->health_url, url);
    if (!rv) rv = nng_aio_alloc(&a->aio, agones_on_done, a);
    if (rv) {
        agones_close(a);
        return nv_error_set(err, "agones: %s: %s", base_url, nng_strerror(rv));
    }
    nng_aio_set_timeout(a->aio, AGONES_TIMEOUT_MS);
    *out = a;
    return 0;
}

/* The call's own objects go with it. */
static void agones_release_call(agones* a) {
    if (a->req) nng_http_req_free(a->req);
    if (a->res) nng_http_res_free(a->res);
    a->req = NULL;
    a->res = NULL;
}

static void agones_on_done(void* arg) {
    agones* a = arg;
    int rv = nng_aio_result(a->aio);
    unsigned status = rv ? 0 : nng_http_res_get_status(a->res);
    const char* what = a->calling_ready ? "/ready" : "/health";
    agones_release_call(a);
    uint64_t now = uv_hrtime();
    if (!rv && status >= 200 && status < 300) {
        atomic_fetch_add_explicit(&a->m->agones_ok, 1, memory_order_relaxed);
        if (a->calling_ready) {
            atomic_store(&a->ready, 1);
            log_info("agones: %s%s answered %u: the sea is Ready", a->base, what, status);
        } else if (a->failing) {
            log_info("agones: %s answers again (%llu failed calls before)", a->base,
                     (unsigned long long)a->failures_unlogged);
        }
        a->failing = 0;
        a->failures_unlogged = 0;
    } else {
        atomic_fetch_add_explicit(&a->m->agones_failures, 1, memory_order_relaxed);
        a->failures_unlogged++;
        if (!a->failing || now - a->last_log_ns >= AGONES_LOG_EVERY_NS) {
            char why[96];
            if (rv) snprintf(why, sizeof why, "%s", nng_strerror(rv));
            else snprintf(why, sizeof why, "HTTP status %u", status);
            log_warn("agones: POST %s%s failed: %s (%llu failed call%s; the server keeps running)", a->base, what,
                     why, (unsigned long long)a->failures_unlogged, a->failures_unlogged == 1 ? "" : "s");
            a->last_log_ns = now;
            a->failures_unlogged = 0;
        }
        a->failing = 1;
    }
    atomic_store_explicit(&a->busy, 0, memory_order_release);
}

void agones_call(agones* a) {
    if (!a || atomic_load_explicit(&a->busy, memory_order_acquire)) return;
    a->calling_ready = !atomic_load(&a->ready);
    int rv = nng_http_req_alloc(&a->req, a->calling_ready ? a->ready_url : a->health_url);
    if (!rv) rv = nng_http_res_alloc(&a->res);
    if (!rv) rv = nng_http_req_set_method(a->req, "POST");
    if (!rv) rv = nng_http_req_set_header(a->req, "Content-Type", "application/json");
    if (!rv) rv = nng_http_req_copy_data(a->req, "{}", 2);
    if (rv) {
        agones_release_call(a);
        atomic_fetch_add_explicit(&a->m->agones_failures, 1, memory_order_relaxed);
        log_warn("agones: cannot make a request: %s", nng_strerror(rv));
        return;
    }
    atomic_store_explicit(&a->busy, 1, memory_order_release);
    nng_http_client_transact(a->client, a->req, a->res, a->aio);
}

void agones_close(agones* a) {
    if (!a) return;
    /* Cancels the call in flight and waits for its callback. */
    if (a->aio) nng_aio_stop(a->aio);
    agones_release_call(a);
    if (a->aio) nng_aio_free(a->aio);
    if (a->client) nng_http_client_free(a->client);
    if (a->ready_url) nng_url_free(a->ready_url);
    if (a->health_url) nng_url_free(a->health_url);
    free(a);
}
