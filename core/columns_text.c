// SPDX-License-Identifier: MIT
/* The column model's text format (Zephyr's: comment lines, the count,
 * then one column a line, "X,Ymin,Z,Ymax,Volume,Density"): write, parse
 * with errors that name the line and field, read from a file. */
#include "naval/columns.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

static const char* const columns_field_names[6] = {"X", "Ymin", "Z", "Ymax", "Volume", "Density"};

int nv_columns_export(const nv_columns_set* s, const char* path, nv_error* err) {
    FILE* f = fopen(path, "w");
    if (!f) return nv_error_fail(err, NV_EIO, "%s: cannot write: %s", path, strerror(errno));
    fprintf(f, "# NB_LINE_PER_DATA\n%u\n\n# COORDINATE, VOLUME, DENSITY\n", s->count);
    for (uint32_t i = 0; i < s->count; i++) {
        const nv_columns_column* c = &s->columns[i];
        fprintf(f, "%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", c->x, c->ymin, c->z, c->ymax, c->volume, c->density);
    }
    int failed = ferror(f);
    if (fclose(f) || failed) return nv_error_fail(err, NV_EIO, "%s: write failed: %s", path, strerror(errno));
    return 0;
}

/* Copy of a piece of text for a message: at most 40 characters, anything
 * unprintable as '?'. */
static const char* columns_show(const char* p, size_t n, char* buf, size_t size) {
    size_t k = 0;
    for (; k < n && k + 4 < size && k < 40; k++) buf[k] = isprint((unsigned char)p[k]) ? p[k] : '?';
    if (k < n && k + 4 < size) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k] = '\0';
    return buf;
}

static void columns_trim(const char** p, size_t* n) {
    while (*n > 0 && isspace((unsigned char)**p)) (*p)++, (*n)--;
    while (*n > 0 && isspace((unsigned char)(*p)[*n - 1])) (*n)--;
}

/* The whole field must be one finite number. */
static int columns_number(const char* p, size_t n, double* out) {
    char buf[64];
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    char* end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end != buf + n || !isfinite(v) || errno == ERANGE) return -1;
    *out = v;
    return 0;
}

static int columns_parse_line(const char* p, size_t n, const char* name, unsigned line, nv_columns_column* c,
                              nv_error* err) {
    char show[64];
    double v[6];
    int field = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && p[i] != ',') continue;
        if (field == 6)
            return nv_error_set(err, "%s:%u: more than 6 fields (expected X,Ymin,Z,Ymax,Volume,Density)", name, line);
        const char* f = p + start;
        size_t len = i - start;
        columns_trim(&f, &len);
        if (len == 0)
            return nv_error_set(err, "%s:%u: field %s: empty (expected a number)", name, line,
                                columns_field_names[field]);
        if (columns_number(f, len, &v[field]))
            return nv_error_set(err, "%s:%u: field %s: expected a finite number, found '%s'", name, line,
                                columns_field_names[field], columns_show(f, len, show, sizeof show));
        field++;
        start = i + 1;
    }
    if (field < 6)
        return nv_error_set(err, "%s:%u: %d field%s, expected 6 (X,Ymin,Z,Ymax,Volume,Density); field %s is missing",
                            name, line, field, field == 1 ? "" : "s", columns_field_names[field]);
    c->x = v[0];
    c->ymin = v[1];
    c->z = v[2];
    c->ymax = v[3];
    c->volume = v[4];
    c->density = v[5];
    if (c->ymax < c->ymin)
        return nv_error_set(err, "%s:%u: field Ymax: %.10g is below Ymin %.10g", name, line, c->ymax, c->ymin);
    if (c->volume < 0.0) return nv_error_set(err, "%s:%u: field Volume: %.10g is negative", name, line, c->volume);
    if (c->volume > 0.0 && c->ymax == c->ymin)
        return nv_error_set(err, "%s:%u: field Ymax: equals Ymin while Volume is %.10g (a column with volume needs height)",
                            name, line, c->volume);
    if (!(c->density > 0.0))
        return nv_error_set(err, "%s:%u: field Density: %.10g must be positive", name, line, c->density);
    return 0;
}

int nv_columns_parse(const char* text, size_t size, const char* name, nv_columns_set* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    if (!name) name = "columns";
    if (!text && size > 0) return nv_error_set(err, "%s: no data", name);
    char show[64];
    enum { WANT_HEADER, WANT_COUNT, WANT_DATA } state = WANT_HEADER;
    uint32_t expected = 0, got = 0;
    unsigned line = 0;
    size_t pos = 0;
    while (pos < size) {
        size_t end = pos;
        while (end < size && text[end] != '\n') end++;
        line++;
        const char* p = text + pos;
        size_t n = end - pos;
        pos = end + 1;
        columns_trim(&p, &n);
        if (state == WANT_HEADER) {
            if (n == 0) continue;
            /* "# NB_LINE_PER_DATA", spaces after '#' optional */
            const char* q = p;
            size_t m = n;
            if (m > 0 && *q == '#') {
                q++, m--;
                columns_trim(&q, &m);
            }
            if (p[0] != '#' || m != 16 || memcmp(q, "NB_LINE_PER_DATA", 16)) {
                nv_columns_free(out);
                return nv_error_set(err, "%s:%u: expected the header '# NB_LINE_PER_DATA', found '%s'", name, line,
                                    columns_show(p, n, show, sizeof show));
            }
            state = WANT_COUNT;
            continue;
        }
        if (n == 0 || p[0] == '#') continue;
        if (state == WANT_COUNT) {
            double v;
            if (columns_number(p, n, &v) || v != floor(v) || v < 1.0 || v > COLUMNS_MAX_COUNT) {
                nv_columns_free(out);
                return nv_error_set(err, "%s:%u: NB_LINE_PER_DATA: expected a column count 1..%u, found '%s'", name,
                                    line, COLUMNS_MAX_COUNT, columns_show(p, n, show, sizeof show));
            }
            expected = (uint32_t)v;
            out->columns = calloc(expected, sizeof *out->columns);
            if (!out->columns) return nv_error_fail(err, NV_ENOMEM, "%s: out of memory for %u columns", name, expected);
            state = WANT_DATA;
            continue;
        }
        if (got == expected) {
            nv_columns_free(out);
            return nv_error_set(err, "%s:%u: more columns than NB_LINE_PER_DATA says (%u)", name, line, expected);
        }
        if (columns_parse_line(p, n, name, line, &out->columns[got], err)) {
            nv_columns_free(out);
            return -1;
        }
        got++;
    }
    if (state != WANT_DATA || got < expected) {
        nv_columns_free(out);
        if (line == 0) line = 1; /* an empty file */
        if (state == WANT_HEADER)
            return nv_error_set(err, "%s:%u: no '# NB_LINE_PER_DATA' header (empty file?)", name, line);
        if (state == WANT_COUNT) return nv_error_set(err, "%s:%u: end of file before the column count", name, line);
        return nv_error_set(err, "%s:%u: end of file after %u columns, NB_LINE_PER_DATA says %u (truncated?)", name,
                            line, got, expected);
    }
    out->count = got;
    return 0;
}

int nv_columns_import(const char* path, nv_columns_set* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    FILE* f = fopen(path, "rb");
    if (!f) return nv_error_fail(err, errno == ENOENT ? NV_ENOENT : NV_EIO, "%s: %s", path, strerror(errno));
    size_t cap = 1 << 16, size = 0;
    char* text = malloc(cap);
    while (text) {
        size += fread(text + size, 1, cap - size, f);
        if (size < cap) break;
        /* Each column is a line of ~60 bytes: a file many times that long is not one. */
        if (cap > (size_t)COLUMNS_MAX_COUNT * 512) {
            free(text);
            fclose(f);
            return nv_error_set(err, "%s: larger than %u MB: not a columns file", path, COLUMNS_MAX_COUNT * 512u >> 20);
        }
        if (grow_resize((void**)&text, cap * 2, 1)) {
            free(text);
            text = NULL;
            break;
        }
        cap *= 2;
    }
    int failed = ferror(f);
    fclose(f);
    if (!text) return nv_error_fail(err, NV_ENOMEM, "%s: out of memory reading it", path);
    if (failed) {
        free(text);
        return nv_error_set(err, "%s: read error", path);
    }
    int rc = nv_columns_parse(text, size, path, out, err);
    free(text);
    return rc;
}

