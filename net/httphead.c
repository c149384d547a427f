// SPDX-License-Identifier: MIT
#include "httphead.h"

#include <stddef.h>
#include <string.h>

#define HTTPHEAD_METHOD_MAX 16

static int httphead_tchar(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("!#$%&'*+-.^_`|~", c));
}

static int httphead_lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int httphead_hex(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = httphead_lower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static httphead_result httphead_refuse(httphead_request* out, httphead_result status, const char* why) {
    out->why = why;
    return status;
}

/* Where the head ends (just past its empty line), or 0 when not yet seen;
 * the search resumes where the last call stopped. */
static size_t httphead_find_end(const char* d, size_t len, httphead_scan* scan) {
    size_t k = scan->searched;
    if (k + 1 < scan->line_end) k = scan->line_end - 1;
    for (; k < len; k++) {
        if (d[k] != '\n') continue;
        if (k + 1 >= len) break;
        if (d[k + 1] == '\n') return k + 2;
        if (d[k + 1] == '\r') {
            if (k + 2 >= len) break;
            if (d[k + 2] == '\n') return k + 3;
        }
    }
    scan->searched = k;
    return 0;
}

/* A line's content: [p, end) without its LF and optional CR; -1 when a CR
 * stands anywhere else. */
static int httphead_line(const char* p, const char* lf, const char** end) {
    const char* e = lf;
    if (e > p && e[-1] == '\r') e--;
    if (memchr(p, '\r', (size_t)(e - p))) return -1;
    *end = e;
    return 0;
}

static httphead_result httphead_request_line(const char* d, const char* lf, httphead_request* out) {
    const char* end;
    if (httphead_line(d, lf, &end)) return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "a CR inside the request line");
    const char* p = d;
    while (p < end && httphead_tchar((unsigned char)*p)) p++;
    if (p == d || p == end || *p != ' ')
        return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "the request line is not METHOD SP TARGET SP VERSION");
    if ((size_t)(p - d) > HTTPHEAD_METHOD_MAX)
        return httphead_refuse(out, HTTPHEAD_NOT_IMPLEMENTED, "unknown method");
    out->method = (httphead_slice){d, (size_t)(p - d)};
    const char* t = ++p;
    while (p < end && *p > 0x20 && *p < 0x7f) p++;
    if (p == t || p == end || *p != ' ')
        return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "the request target is empty or holds a space or control");
    out->target = (httphead_slice){t, (size_t)(p - t)};
    const char* v = ++p;
    if (end - v != 8 || memcmp(v, "HTTP/", 5) != 0 || v[5] < '0' || v[5] > '9' || v[6] != '.' || v[7] < '0' ||
        v[7] > '9')
        return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "the version is not HTTP/x.y");
    if (v[5] != '1') return httphead_refuse(out, HTTPHEAD_VERSION, "only HTTP/1.0 and HTTP/1.1 are served");
    /* RFC 9110 6.2: a higher minor version is answered as the highest known. */
    out->minor = v[7] == '0' ? 0 : 1;
    return HTTPHEAD_OK;
}

static httphead_result httphead_fields(const char* p, const char* head_end, httphead_request* out) {
    int hosts = 0;
    for (;;) {
        const char* lf = memchr(p, '\n', (size_t)(head_end - p));
        const char* end;
        if (!lf || httphead_line(p, lf, &end))
            return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "a CR inside a header field");
        if (end == p) return HTTPHEAD_OK; /* the empty line */
        if (*p == ' ' || *p == '\t')
            return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "folded header lines are not accepted");
        const char* n = p;
        while (p < end && httphead_tchar((unsigned char)*p)) p++;
        if (p == n || p == end || *p != ':')
            return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "a header field is not NAME: VALUE");
        if (out->field_count == HTTPHEAD_MAX_FIELDS)
            return httphead_refuse(out, HTTPHEAD_FIELDS_TOO_LARGE, "more header fields than the server takes");
        httphead_field* f = &out->fields[out->field_count++];
        f->name = (httphead_slice){n, (size_t)(p - n)};
        p++;
        while (p < end && (*p == ' ' || *p == '\t')) p++;
        const char* v = p, *last = p;
        for (; p < end; p++) {
            unsigned char c = (unsigned char)*p;
            if (c < 0x20 && c != '\t') return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "a control character in a header value");
            if (c == 0x7f) return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "a control character in a header value");
            if (c != ' ' && c != '\t') last = p + 1;
        }
        f->value = (httphead_slice){v, (size_t)(last - v)};
        if (httphead_equals_nocase(&f->name, "host") && ++hosts > 1)
            return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "more than one Host field");
        p = lf + 1;
    }
}

/* The target's path (origin or absolute form), query cut, percent-decoded. */
static httphead_result httphead_path(httphead_request* out) {
    const char* p = out->target.p;
    const char* end = p + out->target.n;
    if (out->target.n == 1 && *p == '*') {
        strcpy(out->path, "*");
        return HTTPHEAD_OK;
    }
    size_t scheme = out->target.n >= 7 && strncmp(p, "http://", 7) == 0    ? 7
                    : out->target.n >= 8 && strncmp(p, "https://", 8) == 0 ? 8
                                                                           : 0;
    if (scheme) {
        p += scheme;
        while (p < end && *p != '/' && *p != '?' && *p != '#') p++;
        if (p == end || *p != '/') {
            strcpy(out->path, "/");
            return HTTPHEAD_OK;
        }
    } else if (*p != '/') {
        return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "the target is not a path");
    }
    size_t n = 0;
    for (; p < end && *p != '?' && *p != '#'; p++) {
        int c = (unsigned char)*p;
        if (c == '%') {
            int hi = p + 2 < end ? httphead_hex(p[1]) : -1, lo = p + 2 < end ? httphead_hex(p[2]) : -1;
            if (hi < 0 || lo < 0) return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "a bad percent escape in the path");
            c = hi * 16 + lo;
            p += 2;
            if (c == 0) return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "an escaped NUL in the path");
            if (c < 0x20 || c == 0x7f)
                return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "an escaped control character in the path");
        }
        if (n + 1 >= sizeof out->path) return httphead_refuse(out, HTTPHEAD_URI_TOO_LONG, "the path is too long");
        out->path[n++] = (char)c;
    }
    out->path[n] = '\0';
    /* "." and ".." segments: nothing here is a folder to climb, and a
     * client that sends them is not a browser. */
    for (const char* s = out->path; *s;) {
        const char* e = strchr(s + 1, '/');
        size_t seg = e ? (size_t)(e - s - 1) : strlen(s + 1);
        if ((seg == 1 && s[1] == '.') || (seg == 2 && s[1] == '.' && s[2] == '.'))
            return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "a dot segment in the path");
        if (!e) break;
        s = e;
    }
    return HTTPHEAD_OK;
}

httphead_result httphead_parse(const char* d, size_t len, const httphead_limits* lim, httphead_scan* scan,
                               httphead_request* out) {
    if (!scan->line_end) {
        /* Whatever does not start with METHOD SP is no HTTP request (a TLS
         * hello, a stray protocol): refused on its first bytes. */
        size_t m = 0;
        while (m < len && m <= HTTPHEAD_METHOD_MAX && httphead_tchar((unsigned char)d[m])) m++;
        if (m < len && (m == 0 || d[m] != ' ')) {
            if (m > HTTPHEAD_METHOD_MAX) return httphead_refuse(out, HTTPHEAD_NOT_IMPLEMENTED, "unknown method");
            return httphead_refuse(out, HTTPHEAD_BAD_REQUEST, "not an HTTP request");
        }
        const char* lf = memchr(d + scan->searched, '\n', len - scan->searched);
        if (!lf) {
            scan->searched = len;
            /* The limit counts the line without its CR LF. */
            if (len > lim->max_line + 1) return httphead_refuse(out, HTTPHEAD_URI_TOO_LONG, "the request line is too long");
            return HTTPHEAD_INCOMPLETE;
        }
        size_t line = (size_t)(lf - d);
        if (line && d[line - 1] == '\r') line--;
        if (line > lim->max_line) return httphead_refuse(out, HTTPHEAD_URI_TOO_LONG, "the request line is too long");
        scan->line_end = (size_t)(lf - d) + 1;
    }
    size_t end = httphead_find_end(d, len, scan);
    if (!end || end > lim->max_head) {
        if (end || len > lim->max_head)
            return httphead_refuse(out, HTTPHEAD_FIELDS_TOO_LARGE, "the request head is too large");
        return HTTPHEAD_INCOMPLETE;
    }
    memset(out, 0, offsetof(httphead_request, fields));
    out->field_count = 0;
    out->path[0] = '\0';
    out->why = NULL;
    out->head_size = end;
    httphead_result r = httphead_request_line(d, d + scan->line_end - 1, out);
    if (r == HTTPHEAD_OK) r = httphead_fields(d + scan->line_end, d + end, out);
    if (r == HTTPHEAD_OK) r = httphead_path(out);
    return r;
}

int httphead_equals(const httphead_slice* s, const char* text) {
    size_t n = strlen(text);
    return s->n == n && memcmp(s->p, text, n) == 0;
}

int httphead_equals_nocase(const httphead_slice* s, const char* text) {
    size_t n = strlen(text);
    if (s->n != n) return 0;
    for (size_t i = 0; i < n; i++)
        if (httphead_lower((unsigned char)s->p[i]) != httphead_lower((unsigned char)text[i])) return 0;
    return 1;
}

const httphead_slice* httphead_find(const httphead_request* r, const char* name) {
    for (uint32_t i = 0; i < r->field_count; i++)
        if (httphead_equals_nocase(&r->fields[i].name, name)) return &r->fields[i].value;
    return NULL;
}

int httphead_has_token(const httphead_slice* value, const char* token) {
    if (!value) return 0;
    const char* p = value->p;
    const char* end = p + value->n;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == ',')) p++;
        const char* t = p;
        while (p < end && *p != ',') p++;
        const char* e = p;
        while (e > t && (e[-1] == ' ' || e[-1] == '\t')) e--;
        httphead_slice s = {t, (size_t)(e - t)};
        if (s.n && httphead_equals_nocase(&s, token)) return 1;
    }
    return 0;
}

const char* httphead_reason(int status) {
    switch (status) {
    case 101: return "Switching Protocols";
    case 200: return "OK";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 426: return "Upgrade Required";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
    }
}
