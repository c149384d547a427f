#include "http.h"

#include <dirent.h>
#include <nng/nng.h>
#include <nng/supplemental/http/http.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <uv.h>

#include "http_page.h"
#include "log.h"

#define HTTP_PATH_MAX 1024

struct http_site {
    nng_http_server* server;
    metrics* m;
    uint64_t stall_ns;
    atomic_int stopping;
    uint32_t files;
    size_t bytes;
    int has_index;  /* the folder's index.html answers "/" */
};

const char* http_content_type(const char* path) {
    static const char* const map[][2] = {
        {".html", "text/html; charset=utf-8"}, {".htm", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"}, {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"}, {".json", "application/json"}, {".map", "application/json"},
        {".svg", "image/svg+xml"}, {".png", "image/png"}, {".jpg", "image/jpeg"}, {".ico", "image/x-icon"},
        {".wasm", "application/wasm"}, {".txt", "text/plain; charset=utf-8"}, {".fbs", "text/plain; charset=utf-8"},
        {".ts", "text/plain; charset=utf-8"}, {".glsl", "text/plain; charset=utf-8"},
    };
    size_t len = strlen(path);
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        size_t el = strlen(map[i][0]);
        if (len >= el && strcmp(path + len - el, map[i][0]) == 0) return map[i][1];
    }
    return "application/octet-stream";
}

static int http_add(http_site* s, nng_http_handler* h, const char* what, nv_error* err) {
    int rv = nng_http_server_add_handler(s->server, h);
    if (rv) {
        nng_http_handler_free(h);
        return nv_error_set(err, "HTTP handler %s: %s", what, nng_strerror(rv));
    }
    return 0;
}

static int http_add_static(http_site* s, const char* uri, const void* data, size_t size, const char* ctype,
                           nv_error* err) {
    nng_http_handler* h;
    int rv = nng_http_handler_alloc_static(&h, uri, data, size, ctype);
    if (rv) return nv_error_set(err, "HTTP %s: %s", uri, nng_strerror(rv));
    if (http_add(s, h, uri, err)) return -1;
    s->files++;
    s->bytes += size;
    return 0;
}

static char* http_read_file(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    char* data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && (unsigned long)n <= HTTP_MAX_BYTES && fseek(f, 0, SEEK_SET) == 0 &&
            (data = malloc((size_t)n + 1)) && fread(data, 1, (size_t)n, f) != (size_t)n) {
            free(data);
            data = NULL;
        }
        *size = n > 0 ? (size_t)n : 0;
    }
    fclose(f);
    return data;
}

/* URIs are the files' paths under the root; names that would need
 * escaping in a URL (or hide: dot files) are skipped. */
static int http_name_ok(const char* name) {
    if (name[0] == '.' || !name[0]) return 0;
    for (const char* p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("._-+", *p)))
            return 0;
    return 1;
}

static int http_walk(http_site* s, const char* dir, const char* uri, int depth, nv_error* err) {
    if (depth > 8) return 0;
    DIR* d = opendir(dir);
    if (!d) return nv_error_set(err, "web_root: cannot open folder %s", dir);
    int rc = 0;
    struct dirent* e;
    while (!rc && (e = readdir(d))) {
        if (!http_name_ok(e->d_name)) continue;
        char path[HTTP_PATH_MAX], sub[HTTP_PATH_MAX];
        int n1 = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        int n2 = snprintf(sub, sizeof sub, "%s/%s", uri, e->d_name);
        if (n1 < 0 || n2 < 0 || (size_t)n1 >= sizeof path || (size_t)n2 >= sizeof sub) continue;
        struct stat st;
        /* lstat: a symbolic link could lead out of the folder. */
        if (lstat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            rc = http_walk(s, path, sub, depth + 1, err);
            continue;
        }
        if (!S_ISREG(st.st_mode)) continue;
        if (s->files >= HTTP_MAX_FILES || s->bytes + (size_t)st.st_size > HTTP_MAX_BYTES) {
            rc = nv_error_set(err, "web_root: more than %u files or %u MiB", HTTP_MAX_FILES, HTTP_MAX_BYTES >> 20);
            break;
        }
        size_t size = 0;
        char* data = http_read_file(path, &size);
        if (!data) {
            rc = nv_error_set(err, "web_root: cannot read %s", path);
            break;
        }
        const char* ctype = http_content_type(e->d_name);
        rc = http_add_static(s, sub, data, size, ctype, err);
        /* A folder's index.html also answers the folder itself. */
        if (!rc && strcmp(e->d_name, "index.html") == 0) {
            rc = http_add_static(s, uri[0] ? uri : "/", data, size, ctype, err);
            if (!uri[0]) s->has_index = 1;
        }
        free(data);
    }
    closedir(d);
    return rc;
}

static void http_reply_text(nng_aio* aio, uint16_t status, const char* ctype, const char* text, size_t len) {
    nng_http_res* res;
    int rv = nng_http_res_alloc(&res);
    if (rv == 0 && ((rv = nng_http_res_set_status(res, status)) || (rv = nng_http_res_set_header(res, "Content-Type", ctype)) ||
                    (rv = nng_http_res_set_header(res, "Cache-Control", "no-store")) ||
                    (rv = nng_http_res_copy_data(res, text, len)))) {
        nng_http_res_free(res);
    }
    if (rv) {
        nng_aio_finish(aio, rv);
        return;
    }
    nng_aio_set_output(aio, 0, res);
    nng_aio_finish(aio, 0);
}

static void http_metrics_cb(nng_aio* aio) {
    http_site* s = nng_http_handler_get_data(nng_aio_get_input(aio, 1));
    size_t len = 0;
    char* text = metrics_render(s->m, uv_hrtime(), &len);
    if (!text) {
        nng_aio_finish(aio, NNG_ENOMEM);
        return;
    }
    http_reply_text(aio, NNG_HTTP_STATUS_OK, "text/plain; version=0.0.4; charset=utf-8", text, len);
    free(text);
}

static void http_healthz_cb(nng_aio* aio) {
    http_site* s = nng_http_handler_get_data(nng_aio_get_input(aio, 1));
    char text[128];
    uint64_t now = uv_hrtime(), last = atomic_load_explicit(&s->m->last_tick_ns, memory_order_relaxed);
    uint64_t ticks = atomic_load_explicit(&s->m->ticks, memory_order_relaxed);
    uint16_t status = NNG_HTTP_STATUS_OK;
    if (atomic_load(&s->stopping)) {
        snprintf(text, sizeof text, "shutting down\n");
        status = NNG_HTTP_STATUS_SERVICE_UNAVAILABLE;
    } else if (now > last && now - last > s->stall_ns) {
        snprintf(text, sizeof text, "stalled: no tick for %.1f s\n", (double)(now - last) * 1e-9);
        status = NNG_HTTP_STATUS_SERVICE_UNAVAILABLE;
    } else {
        snprintf(text, sizeof text, "ok %llu ticks\n", (unsigned long long)ticks);
    }
    http_reply_text(aio, status, "text/plain; charset=utf-8", text, strlen(text));
}

static int http_add_callback(http_site* s, const char* uri, void (*cb)(nng_aio*), nv_error* err) {
    nng_http_handler* h;
    int rv = nng_http_handler_alloc(&h, uri, cb);
    if (rv == 0 && (rv = nng_http_handler_set_data(h, s, NULL))) nng_http_handler_free(h);
    if (rv) return nv_error_set(err, "HTTP %s: %s", uri, nng_strerror(rv));
    return http_add(s, h, uri, err);
}

int http_open(http_site** out, const http_config* cfg, metrics* m, nv_error* err) {
    http_site* s = calloc(1, sizeof *s);
    if (!s) return nv_error_set(err, "out of memory");
    s->m = m;
    double stall = cfg->tick_hz > 0 ? 10.0 / cfg->tick_hz : 1.0;
    s->stall_ns = (uint64_t)((stall < 1.0 ? 1.0 : stall) * 1e9);
    char text[HTTP_PATH_MAX];
    snprintf(text, sizeof text, "http://%s", cfg->hostport);
    nng_url* url = NULL;
    int rv = nng_url_parse(&url, text);
    if (rv == 0) {
        rv = nng_http_server_hold(&s->server, url);
        nng_url_free(url);
    }
    if (rv) {
        free(s);
        return nv_error_set(err, "HTTP server on %s: %s", cfg->hostport, nng_strerror(rv));
    }
    int failed = http_add_callback(s, "/metrics", http_metrics_cb, err) ||
                 http_add_callback(s, "/healthz", http_healthz_cb, err);
    if (!failed && cfg->web_root && cfg->web_root[0]) failed = http_walk(s, cfg->web_root, "", 0, err);
    /* "/" always shows something: the folder's index.html, else the page. */
    if (!failed && !s->has_index)
        failed = http_add_static(s, "/", http_page_html, strlen(http_page_html), "text/html; charset=utf-8", err);
    if (!failed && (rv = nng_http_server_start(s->server)))
        failed = nv_error_set(err, "cannot listen on http://%s: %s", cfg->hostport, nng_strerror(rv));
    if (failed) {
        /* Not started: no handler can be running. */
        nng_http_server_release(s->server);
        free(s);
        return -1;
    }
    log_info("listening on http://%s (%u file%s at /, /metrics, /healthz)", cfg->hostport, s->files,
             s->files == 1 ? "" : "s");
    *out = s;
    return 0;
}

void http_set_stopping(http_site* s) {
    if (s) atomic_store(&s->stopping, 1);
}

void http_close(http_site* s) {
    if (!s || !s->server) return;
    nng_http_server_stop(s->server);
    nng_http_server_release(s->server);
    s->server = NULL;
}

void http_free(http_site* s) { free(s); }

uint32_t http_file_count(const http_site* s) { return s->files; }
