// SPDX-License-Identifier: MIT
#include "http.h"

#include <dirent.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <uv.h>

#include "grow.h"
#include "http_page.h"
#include "httphead.h"
#include "log.h"

#define HTTP_PATH_MAX 1024

typedef struct http_file {
    char* uri;
    char* data;
    size_t size;
    const char* ctype;
} http_file;

struct http_site {
    http_file* files_list;   /* sorted by uri after loading */
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

/* Takes data (malloc'd) whatever happens. */
static int http_add_static(http_site* s, const char* uri, char* data, size_t size, const char* ctype, nv_error* err) {
    char* u = strdup(uri);
    if (!u || grow_resize((void**)&s->files_list, (size_t)s->files + 1, sizeof *s->files_list)) {
        free(u);
        free(data);
        return nv_error_fail(err, NV_ENOMEM, "out of memory for the site's files");
    }
    s->files_list[s->files] = (http_file){u, data, size, ctype};
    s->files++;
    s->bytes += size;
    return 0;
}

static char* http_copy(const char* data, size_t size) {
    char* c = malloc(size ? size : 1);
    if (c) memcpy(c, data, size);
    return c;
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
        /* A folder's index.html also answers the folder itself. */
        if (strcmp(e->d_name, "index.html") == 0) {
            char* copy = http_copy(data, size);
            rc = copy ? http_add_static(s, uri[0] ? uri : "/", copy, size, ctype, err)
                      : nv_error_fail(err, NV_ENOMEM, "out of memory for the site's files");
            if (!uri[0]) s->has_index = 1;
        }
        if (!rc) rc = http_add_static(s, sub, data, size, ctype, err);
        else free(data);
    }
    closedir(d);
    return rc;
}

static int http_cmp_file(const void* a, const void* b) {
    return strcmp(((const http_file*)a)->uri, ((const http_file*)b)->uri);
}

static void http_metrics(http_site* s, edge_response* res) {
    size_t len = 0;
    char* text = metrics_render(s->m, uv_hrtime(), &len);
    if (!text) {
        *res = (edge_response){500, NULL, "out of memory\n", 14, NULL, NULL};
        return;
    }
    *res = (edge_response){200, "text/plain; version=0.0.4; charset=utf-8", text, len, text, "Cache-Control: no-store\r\n"};
}

static void http_healthz(http_site* s, edge_response* res) {
    char* text = malloc(128);
    if (!text) {
        *res = (edge_response){500, NULL, "out of memory\n", 14, NULL, NULL};
        return;
    }
    uint64_t now = uv_hrtime(), last = atomic_load_explicit(&s->m->last_tick_ns, memory_order_relaxed);
    uint64_t ticks = atomic_load_explicit(&s->m->ticks, memory_order_relaxed);
    int status = 200;
    if (atomic_load(&s->stopping)) {
        snprintf(text, 128, "shutting down\n");
        status = 503;
    } else if (now > last && now - last > s->stall_ns) {
        snprintf(text, 128, "stalled: no tick for %.1f s\n", (double)(now - last) * 1e-9);
        status = 503;
    } else {
        snprintf(text, 128, "ok %llu ticks\n", (unsigned long long)ticks);
    }
    *res = (edge_response){status, "text/plain; charset=utf-8", text, strlen(text), text, "Cache-Control: no-store\r\n"};
}

void http_handle(http_site* s, const edge_http_request* req, edge_response* res) {
    if (strcmp(req->path, "/metrics") == 0) {
        http_metrics(s, res);
        return;
    }
    if (strcmp(req->path, "/healthz") == 0) {
        http_healthz(s, res);
        return;
    }
    http_file key = {(char*)req->path, NULL, 0, NULL};
    const http_file* f = bsearch(&key, s->files_list, s->files, sizeof *f, http_cmp_file);
    if (!f && strcmp(req->path, "/") != 0 && req->path[strlen(req->path) - 1] == '/') {
        /* "/folder/" is its index, as "/folder" is. */
        char folder[HTTPHEAD_PATH_MAX];
        snprintf(folder, sizeof folder, "%.*s", (int)strlen(req->path) - 1, req->path);
        key.uri = folder;
        f = bsearch(&key, s->files_list, s->files, sizeof *f, http_cmp_file);
    }
    if (!f) {
        *res = (edge_response){404, NULL, "404 Not Found\n", 14, NULL, NULL};
        return;
    }
    *res = (edge_response){200, f->ctype, f->data, f->size, NULL, "Cache-Control: no-cache\r\n"};
}

int http_open(http_site** out, const http_config* cfg, metrics* m, nv_error* err) {
    http_site* s = calloc(1, sizeof *s);
    if (!s) return nv_error_fail(err, NV_ENOMEM, "out of memory");
    s->m = m;
    double stall = cfg->tick_hz > 0 ? 10.0 / cfg->tick_hz : 1.0;
    s->stall_ns = (uint64_t)((stall < 1.0 ? 1.0 : stall) * 1e9);
    int failed = cfg->web_root && cfg->web_root[0] ? http_walk(s, cfg->web_root, "", 0, err) : 0;
    /* "/" always shows something: the folder's index.html, else the page. */
    if (!failed && !s->has_index) {
        char* page = http_copy(http_page_html, strlen(http_page_html));
        failed = page ? http_add_static(s, "/", page, strlen(http_page_html), "text/html; charset=utf-8", err)
                      : nv_error_fail(err, NV_ENOMEM, "out of memory");
    }
    if (failed) {
        http_free(s);
        return -1;
    }
    qsort(s->files_list, s->files, sizeof *s->files_list, http_cmp_file);
    *out = s;
    return 0;
}

void http_set_stopping(http_site* s) {
    if (s) atomic_store(&s->stopping, 1);
}

void http_free(http_site* s) {
    if (!s) return;
    for (uint32_t i = 0; i < s->files; i++) {
        free(s->files_list[i].uri);
        free(s->files_list[i].data);
    }
    free(s->files_list);
    free(s);
}

uint32_t http_file_count(const http_site* s) { return s->files; }
