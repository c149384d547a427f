// SPDX-License-Identifier: MIT
#include "scrape.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nng/nng.h>
#include <nng/supplemental/http/http.h>

static void scrape_fail(scrape_sample* s, const char* what, const char* detail) {
    s->ok = 0;
    snprintf(s->error, sizeof s->error, "%s%s%s", what, detail ? ": " : "", detail ? detail : "");
}

/* One line "NAME{LABELS} VALUE" or "NAME VALUE": the value after the last space. */
static int scrape_value(const char* line, size_t len, double* v) {
    const char* sp = NULL;
    for (size_t i = 0; i < len; i++)
        if (line[i] == ' ') sp = line + i;
    if (!sp) return -1;
    char buf[64];
    size_t n = len - (size_t)(sp + 1 - line);
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, sp + 1, n);
    buf[n] = '\0';
    char* end;
    errno = 0;
    *v = strtod(buf, &end);
    return errno || end == buf || !isfinite(*v) ? -1 : 0;
}

int scrape_parse(const char* text, size_t size, scrape_sample* s) {
    static const char ticks_name[] = "naval_ticks_total ";
    static const char pass_prefix[] = "naval_tick_pass_seconds_total{pass=\"";
    memset(s, 0, sizeof *s);
    int have_ticks = 0;
    const char* p = text;
    const char* end = text + size;
    while (p < end) {
        const char* nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        double v;
        if (len > sizeof ticks_name - 1 && !memcmp(p, ticks_name, sizeof ticks_name - 1)) {
            if (scrape_value(p, len, &v) || v < 0.0) {
                scrape_fail(s, "naval_ticks_total", "not a count");
                return -1;
            }
            s->ticks = (uint64_t)v;
            have_ticks = 1;
        } else if (len > sizeof pass_prefix - 1 && !memcmp(p, pass_prefix, sizeof pass_prefix - 1)) {
            const char* name = p + sizeof pass_prefix - 1;
            const char* q = memchr(name, '"', len - (size_t)(name - p));
            if (!q || q == name || (size_t)(q - name) >= SCRAPE_NAME_MAX || scrape_value(p, len, &v) || v < 0.0) {
                scrape_fail(s, "naval_tick_pass_seconds_total", "a line that does not parse");
                return -1;
            }
            if (s->passes < SCRAPE_MAX_PASSES) {
                memcpy(s->name[s->passes], name, (size_t)(q - name));
                s->name[s->passes][q - name] = '\0';
                s->seconds[s->passes++] = v;
            }
        }
        p += len + 1;
    }
    if (!have_ticks) {
        scrape_fail(s, "no naval_ticks_total in /metrics", NULL);
        return -1;
    }
    if (!s->passes) {
        scrape_fail(s, "no naval_tick_pass_seconds_total in /metrics (a server older than its per-pass times?)", NULL);
        return -1;
    }
    s->ok = 1;
    return 0;
}

void scrape_metrics(const char* url, int timeout_ms, scrape_sample* s) {
    memset(s, 0, sizeof *s);
    nng_url* u = NULL;
    nng_http_client* c = NULL;
    nng_http_req* req = NULL;
    nng_http_res* res = NULL;
    nng_aio* aio = NULL;
    int rv;
    if ((rv = nng_url_parse(&u, url)) || (rv = nng_http_client_alloc(&c, u)) || (rv = nng_http_req_alloc(&req, u)) ||
        (rv = nng_http_res_alloc(&res)) || (rv = nng_aio_alloc(&aio, NULL, NULL))) {
        scrape_fail(s, url, nng_strerror(rv));
        goto done;
    }
    nng_aio_set_timeout(aio, timeout_ms);
    nng_http_client_transact(c, req, res, aio);
    nng_aio_wait(aio);
    if ((rv = nng_aio_result(aio))) {
        scrape_fail(s, url, nng_strerror(rv));
        goto done;
    }
    if (nng_http_res_get_status(res) != 200) {
        char why[64];
        snprintf(why, sizeof why, "HTTP status %u", (unsigned)nng_http_res_get_status(res));
        scrape_fail(s, url, why);
        goto done;
    }
    void* body;
    size_t size;
    nng_http_res_get_data(res, &body, &size);
    scrape_parse(body, size, s);
done:
    nng_aio_free(aio);
    nng_http_res_free(res);
    nng_http_req_free(req);
    nng_http_client_free(c);
    nng_url_free(u);
}

/* The pass's index in b, or -1. */
static int scrape_find(const scrape_sample* b, const char* name) {
    for (uint32_t i = 0; i < b->passes; i++)
        if (!strcmp(b->name[i], name)) return (int)i;
    return -1;
}

static const char* scrape_why(const scrape_sample* a, const scrape_sample* b) {
    if (!a->ok) return a->error;
    if (!b->ok) return b->error;
    if (b->ticks <= a->ticks) return "no tick between the two scrapes";
    return NULL;
}

void scrape_print_json(FILE* out, const scrape_sample* a, const scrape_sample* b) {
    if (scrape_why(a, b)) {
        fputs("null", out);
        return;
    }
    double ticks = (double)(b->ticks - a->ticks);
    fputc('{', out);
    int first = 1;
    for (uint32_t i = 0; i < a->passes; i++) {
        int j = scrape_find(b, a->name[i]);
        if (j < 0) continue;
        fprintf(out, "%s\"%s\": %.4f", first ? "" : ", ", a->name[i], (b->seconds[j] - a->seconds[i]) * 1e3 / ticks);
        first = 0;
    }
    fputc('}', out);
}

void scrape_format(char* out, size_t n, const scrape_sample* a, const scrape_sample* b) {
    const char* why = scrape_why(a, b);
    if (why) {
        snprintf(out, n, "not measured (%s)", why);
        return;
    }
    double ticks = (double)(b->ticks - a->ticks);
    size_t k = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < a->passes && k < n; i++) {
        int j = scrape_find(b, a->name[i]);
        if (j < 0) continue;
        k += (size_t)snprintf(out + k, n - k, "%s%s %.3f", k ? ", " : "", a->name[i],
                              (b->seconds[j] - a->seconds[i]) * 1e3 / ticks);
    }
}
