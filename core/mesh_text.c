// SPDX-License-Identifier: MIT
/* The text mesh formats: ASCII STL, Wavefront OBJ, OFF. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_internal.h"

/* Longest number token we parse; real files never come close, and a fixed
 * buffer lets us NUL-terminate a token for strtod without allocating. */
#define MESH_NUMBER_MAX 64

typedef struct mesh_span {
    const char* p;
    const char* end;
} mesh_span;

/* Reading position in a text file; line is 1-based once a line is read. */
typedef struct mesh_text {
    const char* p;
    const char* end;
    uint32_t line;
    uint32_t token_line; /* line of the last token; where "end of file" is reported */
} mesh_text;

static bool mesh_is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* On false, *tok is the empty span at the end. */
static bool mesh_span_token(mesh_span* s, mesh_span* tok) {
    while (s->p < s->end && mesh_is_space(*s->p)) s->p++;
    tok->p = tok->end = s->p;
    if (s->p == s->end) return false;
    while (s->p < s->end && !mesh_is_space(*s->p)) s->p++;
    tok->end = s->p;
    return true;
}

static uint32_t mesh_span_count_tokens(mesh_span s) {
    mesh_span tok;
    uint32_t n = 0;
    while (mesh_span_token(&s, &tok)) n++;
    return n;
}

/* Editors on some systems write a UTF-8 byte order mark; it is not part of
 * the first keyword. */
static mesh_text mesh_text_start(const char* data, size_t size, uint32_t line) {
    mesh_text t = {data, data + size, line, line};
    if (size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) t.p += 3;
    return t;
}

/* Next line with its '#' comment cut off; false at end of data. */
static bool mesh_text_line(mesh_text* t, mesh_span* line) {
    if (t->p >= t->end) return false;
    const char* nl = memchr(t->p, '\n', (size_t)(t->end - t->p));
    line->p = t->p;
    line->end = nl ? nl : t->end;
    t->p = nl ? nl + 1 : t->end;
    t->line++;
    const char* hash = memchr(line->p, '#', (size_t)(line->end - line->p));
    if (hash) line->end = hash;
    return true;
}

/* Next line holding at least one token. */
static bool mesh_text_content_line(mesh_text* t, mesh_span* line) {
    while (mesh_text_line(t, line)) {
        mesh_span probe = *line, tok;
        if (mesh_span_token(&probe, &tok)) return true;
    }
    return false;
}

/* Case-insensitive; word must be lower case. */
static bool mesh_token_is(mesh_span tok, const char* word) {
    size_t n = strlen(word);
    if ((size_t)(tok.end - tok.p) != n) return false;
    for (size_t i = 0; i < n; i++) {
        char c = tok.p[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != word[i]) return false;
    }
    return true;
}

/* A token made safe to quote in a message: clipped, control bytes shown as '?'. */
static const char* mesh_token_show(mesh_span tok, char* buf, size_t size) {
    size_t len = (size_t)(tok.end - tok.p), n = 0;
    for (; n < len && n + 4 < size; n++) {
        unsigned char c = (unsigned char)tok.p[n];
        buf[n] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
    }
    if (n < len) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
    return buf;
}

static bool mesh_token_copy(mesh_span tok, char buf[MESH_NUMBER_MAX]) {
    size_t len = (size_t)(tok.end - tok.p);
    if (len == 0 || len >= MESH_NUMBER_MAX) return false;
    memcpy(buf, tok.p, len);
    buf[len] = '\0';
    return true;
}

/* A coordinate; what names it in the message ("vertex 7"). Returns -1 with
 * the message set when the token is not a number or not a finite float. */
static int mesh_token_coordinate(mesh_span tok, uint32_t line, const char* what, float* out, nv_error* err) {
    char buf[MESH_NUMBER_MAX], show[40];
    char* endp = buf;
    double d = 0.0;
    bool copied = mesh_token_copy(tok, buf);
    if (copied) d = strtod(buf, &endp);
    if (!copied || endp != buf + strlen(buf))
        return nv_error_set(err, "line %u: %s: expected a number, found '%s'", line, what,
                            mesh_token_show(tok, show, sizeof show));
    if (!isfinite(d))
        return nv_error_set(err, "line %u: %s: non-finite coordinate '%s'", line, what,
                            mesh_token_show(tok, show, sizeof show));
    /* Converting an out-of-range double to float is undefined behaviour. */
    if (fabs(d) > FLT_MAX)
        return nv_error_set(err, "line %u: %s: coordinate '%s' is too large for a float (non-finite)", line, what,
                            mesh_token_show(tok, show, sizeof show));
    *out = (float)d;
    return 0;
}

static bool mesh_token_is_number(mesh_span tok) {
    char buf[MESH_NUMBER_MAX];
    char* endp;
    if (!mesh_token_copy(tok, buf)) return false;
    (void)strtod(buf, &endp);
    return endp == buf + strlen(buf);
}

/* A base-10 integer; false when not one or out of long long range. */
static bool mesh_token_integer(mesh_span tok, long long* out) {
    char buf[MESH_NUMBER_MAX];
    char* endp;
    if (!mesh_token_copy(tok, buf)) return false;
    errno = 0;
    long long v = strtoll(buf, &endp, 10);
    if (errno == ERANGE || endp != buf + strlen(buf)) return false;
    *out = v;
    return true;
}

static uint32_t mesh_vertex_limit(uint32_t max_triangles) {
    /* A closed mesh has about half as many vertices as triangles; three per
     * triangle is what unwelded STL-like data needs at most. */
    uint64_t v = (uint64_t)max_triangles * 3;
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static int mesh_check_triangle_room(const nv_mesh* out, uint64_t more, uint32_t max_triangles, uint32_t line,
                                    nv_error* err) {
    if ((uint64_t)out->triangle_count + more > max_triangles)
        return nv_error_set(err, "line %u: more than %u triangles (max_triangles)", line, max_triangles);
    return 0;
}

/* ---- ASCII STL: a token stream, since writers disagree on line breaks ---- */

static bool mesh_text_token(mesh_text* t, mesh_span* tok) {
    for (;;) {
        while (t->p < t->end && mesh_is_space(*t->p)) t->p++;
        if (t->p == t->end) return false;
        if (*t->p != '\n') break;
        t->p++;
        t->line++;
    }
    tok->p = t->p;
    while (t->p < t->end && !mesh_is_space(*t->p) && *t->p != '\n') t->p++;
    tok->end = t->p;
    t->token_line = t->line;
    return true;
}

static void mesh_text_skip_line(mesh_text* t) {
    const char* nl = memchr(t->p, '\n', (size_t)(t->end - t->p));
    if (!nl) {
        t->p = t->end;
        return;
    }
    t->p = nl + 1;
    t->line++;
}

static int mesh_stl_expect(mesh_text* t, const char* word, const char* where, nv_error* err) {
    mesh_span tok;
    char show[40];
    if (!mesh_text_token(t, &tok))
        return nv_error_set(err, "line %u: end of file %s (expected '%s'; truncated?)", t->token_line, where, word);
    if (!mesh_token_is(tok, word))
        return nv_error_set(err, "line %u: expected '%s' %s, found '%s'", t->line, word, where,
                            mesh_token_show(tok, show, sizeof show));
    return 0;
}

static int mesh_stl_facet(mesh_text* t, uint32_t facet, nv_mesh* out, nv_error* err) {
    mesh_span tok;
    char show[40];
    if (mesh_stl_expect(t, "normal", "after 'facet'", err)) return -1;
    for (int k = 0; k < 3; k++) {
        /* Normals are ignored (the winding decides) and writers emit NaN
         * ones for slivers, so any number is accepted here. */
        if (!mesh_text_token(t, &tok))
            return nv_error_set(err, "line %u: end of file in a facet normal", t->token_line);
        if (!mesh_token_is_number(tok))
            return nv_error_set(err, "line %u: expected a normal component, found '%s'", t->line,
                                mesh_token_show(tok, show, sizeof show));
    }
    if (mesh_stl_expect(t, "outer", "in a facet", err) || mesh_stl_expect(t, "loop", "after 'outer'", err)) return -1;
    uint32_t first = out->vertex_count;
    for (int v = 0; v < 3; v++) {
        if (mesh_stl_expect(t, "vertex", v == 0 ? "after 'outer loop'" : "in a facet loop", err)) return -1;
        char what[48];
        snprintf(what, sizeof what, "triangle %u, vertex %d", facet, v);
        float p[3];
        for (int k = 0; k < 3; k++) {
            if (!mesh_text_token(t, &tok)) return nv_error_set(err, "line %u: end of file in a vertex", t->token_line);
            if (mesh_token_coordinate(tok, t->line, what, &p[k], err)) return -1;
        }
        if (nv_mesh_add_vertex(out, p[0], p[1], p[2], err)) return -1;
    }
    if (mesh_stl_expect(t, "endloop", "after a facet's three vertices", err) ||
        mesh_stl_expect(t, "endfacet", "after 'endloop'", err))
        return -1;
    return nv_mesh_add_triangle(out, first, first + 1, first + 2, err);
}

int mesh_parse_stl_ascii(const char* data, size_t size, uint32_t max_triangles, nv_mesh* out, nv_error* err) {
    mesh_text t = mesh_text_start(data, size, 1);
    mesh_span tok;
    char show[40];
    if (!mesh_text_token(&t, &tok) || !mesh_token_is(tok, "solid"))
        return nv_error_set(err, "line %u: ASCII STL must start with 'solid'", t.line);
    mesh_text_skip_line(&t); /* the solid's name */
    bool in_solid = true;
    while (mesh_text_token(&t, &tok)) {
        if (!in_solid) {
            /* Several solids in one file: one per body of a multi-hull. */
            if (!mesh_token_is(tok, "solid"))
                return nv_error_set(err, "line %u: expected 'solid' after 'endsolid', found '%s'", t.line,
                                    mesh_token_show(tok, show, sizeof show));
            mesh_text_skip_line(&t);
            in_solid = true;
        } else if (mesh_token_is(tok, "endsolid")) {
            mesh_text_skip_line(&t);
            in_solid = false;
        } else if (mesh_token_is(tok, "facet")) {
            if (mesh_check_triangle_room(out, 1, max_triangles, t.line, err)) return -1;
            if (mesh_stl_facet(&t, out->triangle_count, out, err)) return -1;
        } else {
            return nv_error_set(err, "line %u: expected 'facet' or 'endsolid', found '%s'", t.line,
                                mesh_token_show(tok, show, sizeof show));
        }
    }
    if (in_solid) return nv_error_set(err, "line %u: end of file before 'endsolid' (truncated?)", t.token_line);
    return 0;
}

/* ---- Wavefront OBJ ---- */

/* Statements that carry no surface geometry we need. */
static const char* const mesh_obj_ignored[] = {
    "vt",     "vn",     "vp",  "o",     "g",        "s",        "usemtl",     "mtllib",    "l",     "p",     "mg",
    "maplib", "usemap", "lod", "bevel", "c_interp", "d_interp", "shadow_obj", "trace_obj", "ctech", "stech",
};
static const char* const mesh_obj_freeform[] = {
    "cstype", "deg", "bmat", "step", "curv", "curv2", "surf", "parm", "trim", "hole", "scrv", "sp", "end", "con",
};

static bool mesh_token_in(mesh_span tok, const char* const* words, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (mesh_token_is(tok, words[i])) return true;
    return false;
}

static int mesh_obj_vertex(mesh_span rest, uint32_t line, uint32_t max_vertices, nv_mesh* out, nv_error* err) {
    mesh_span tok;
    char show[40];
    char what[32];
    snprintf(what, sizeof what, "vertex %u", out->vertex_count); /* 0-based, as in every mesh message */
    float p[3];
    int n = 0;
    while (mesh_span_token(&rest, &tok)) {
        if (n < 3) {
            if (mesh_token_coordinate(tok, line, what, &p[n], err)) return -1;
        } else if (n >= 7 || !mesh_token_is_number(tok)) {
            /* x y z, optionally w or an r g b colour: nothing else. */
            return nv_error_set(err, "line %u: unexpected '%s' after a vertex's coordinates", line,
                                mesh_token_show(tok, show, sizeof show));
        }
        n++;
    }
    if (n < 3) return nv_error_set(err, "line %u: vertex has %d coordinates, expected 3", line, n);
    if (out->vertex_count >= max_vertices)
        return nv_error_set(err, "line %u: more than %u vertices (3 x max_triangles)", line, max_vertices);
    return nv_mesh_add_vertex(out, p[0], p[1], p[2], err);
}

/* One face corner "v", "v/vt", "v/vt/vn" or "v//vn": the position index,
 * 1-based, or negative counting back from the latest vertex. */
static int mesh_obj_corner(mesh_span tok, uint32_t line, uint32_t vertex_count, uint32_t* out, nv_error* err) {
    char show[40];
    mesh_span part[3];
    int parts = 0;
    const char* s = tok.p;
    for (;;) {
        const char* slash = memchr(s, '/', (size_t)(tok.end - s));
        if (parts == 3)
            return nv_error_set(err, "line %u: bad face corner '%s'", line, mesh_token_show(tok, show, sizeof show));
        part[parts].p = s;
        part[parts].end = slash ? slash : tok.end;
        parts++;
        if (!slash) break;
        s = slash + 1;
    }
    long long v = 0;
    bool ok = mesh_token_integer(part[0], &v);
    for (int k = 1; k < parts && ok; k++) {
        long long ignored;
        ok = part[k].p == part[k].end || mesh_token_integer(part[k], &ignored);
    }
    if (!ok)
        return nv_error_set(err, "line %u: bad face corner '%s' (expected v, v/vt, v/vt/vn or v//vn)", line,
                            mesh_token_show(tok, show, sizeof show));
    if (v == 0) return nv_error_set(err, "line %u: face index 0 is invalid (OBJ indices start at 1)", line);
    long long idx = v > 0 ? v - 1 : (long long)vertex_count + v;
    if (idx < 0 || idx >= (long long)vertex_count)
        return nv_error_set(err, "line %u: face index %lld is out of range (%u vertices defined so far)", line, v,
                            vertex_count);
    *out = (uint32_t)idx;
    return 0;
}

static int mesh_obj_face(mesh_span rest, uint32_t line, uint32_t max_triangles, nv_mesh* out, nv_error* err) {
    uint32_t n = mesh_span_count_tokens(rest);
    if (n < 3) return nv_error_set(err, "line %u: face has %u vertices, need at least 3", line, n);
    if (n > MESH_MAX_POLYGON_VERTICES)
        return nv_error_set(err, "line %u: face has %u vertices, more than the %u a polygon may have", line, n,
                            MESH_MAX_POLYGON_VERTICES);
    if (mesh_check_triangle_room(out, n - 2, max_triangles, line, err)) return -1;
    mesh_span tok;
    uint32_t first = 0, prev = 0;
    for (uint32_t k = 0; mesh_span_token(&rest, &tok); k++) {
        uint32_t v = 0;
        if (mesh_obj_corner(tok, line, out->vertex_count, &v, err)) return -1;
        if (k >= 2 && nv_mesh_add_triangle(out, first, prev, v, err)) return -1;
        if (k == 0) first = v;
        prev = v;
    }
    return 0;
}

int mesh_parse_obj(const char* data, size_t size, uint32_t max_triangles, nv_mesh* out, nv_error* err) {
    mesh_text t = mesh_text_start(data, size, 0);
    uint32_t max_vertices = mesh_vertex_limit(max_triangles);
    mesh_span line, kw;
    char show[40];
    while (mesh_text_line(&t, &line)) {
        if (!mesh_span_token(&line, &kw)) continue;
        if (mesh_token_is(kw, "v")) {
            if (mesh_obj_vertex(line, t.line, max_vertices, out, err)) return -1;
        } else if (mesh_token_is(kw, "f") || mesh_token_is(kw, "fo")) {
            if (mesh_obj_face(line, t.line, max_triangles, out, err)) return -1;
        } else if (mesh_token_in(kw, mesh_obj_freeform, sizeof mesh_obj_freeform / sizeof *mesh_obj_freeform)) {
            return nv_error_set(err, "line %u: free-form geometry ('%s') is not supported; export polygons", t.line,
                                mesh_token_show(kw, show, sizeof show));
        } else if (!mesh_token_in(kw, mesh_obj_ignored, sizeof mesh_obj_ignored / sizeof *mesh_obj_ignored)) {
            return nv_error_set(err, "line %u: unknown OBJ statement '%s'", t.line,
                                mesh_token_show(kw, show, sizeof show));
        }
    }
    return 0;
}

/* ---- OFF ---- */

static int mesh_off_count(mesh_span tok, uint32_t line, const char* what, uint32_t* out, nv_error* err) {
    char show[40];
    long long v;
    if (!mesh_token_integer(tok, &v) || v < 0 || v > (long long)UINT32_MAX)
        return nv_error_set(err, "line %u: bad %s count '%s'", line, what, mesh_token_show(tok, show, sizeof show));
    *out = (uint32_t)v;
    return 0;
}

/* Header: "OFF", then "nv nf [ne]" on the same line or the next. */
static int mesh_off_header(mesh_text* t, uint32_t* nv, uint32_t* nf, nv_error* err) {
    mesh_span line, tok;
    char show[40];
    if (!mesh_text_content_line(t, &line)) return nv_error_set(err, "line %u: no 'OFF' header", t->line);
    mesh_span_token(&line, &tok);
    if (!mesh_token_is(tok, "off"))
        return nv_error_set(err, "line %u: expected the 'OFF' header, found '%s'", t->line,
                            mesh_token_show(tok, show, sizeof show));
    mesh_span counts = line;
    if (mesh_span_count_tokens(counts) == 0 && !mesh_text_content_line(t, &counts))
        return nv_error_set(err, "line %u: end of file before the vertex and face counts", t->line);
    uint32_t n = mesh_span_count_tokens(counts);
    if (n < 2 || n > 3)
        return nv_error_set(err, "line %u: expected 'vertices faces [edges]' counts, found %u values", t->line, n);
    mesh_span_token(&counts, &tok);
    if (mesh_off_count(tok, t->line, "vertex", nv, err)) return -1;
    mesh_span_token(&counts, &tok);
    if (mesh_off_count(tok, t->line, "face", nf, err)) return -1;
    if (n == 3) {
        uint32_t edges;
        mesh_span_token(&counts, &tok);
        if (mesh_off_count(tok, t->line, "edge", &edges, err)) return -1;
    }
    return 0;
}

static int mesh_off_face(mesh_span line, uint32_t lineno, uint32_t face, uint32_t nv, uint32_t max_triangles, nv_mesh* out,
                         nv_error* err) {
    mesh_span tok;
    char show[40], hint[80] = "";
    long long n;
    /* A vertex line where the first face should be means the header's
     * vertex count is short: say so. */
    if (face == 0) snprintf(hint, sizeof hint, " (does the header's vertex count %u match the file?)", nv);
    mesh_span_token(&line, &tok);
    if (!mesh_token_integer(tok, &n))
        return nv_error_set(err, "line %u: face %u: expected its vertex count, found '%s'%s", lineno, face,
                            mesh_token_show(tok, show, sizeof show), hint);
    if (n < 3) return nv_error_set(err, "line %u: face %u has %lld vertices, need at least 3%s", lineno, face, n, hint);
    if (n > (long long)MESH_MAX_POLYGON_VERTICES)
        return nv_error_set(err, "line %u: face %u has %lld vertices, more than the %u a polygon may have", lineno,
                            face, n, MESH_MAX_POLYGON_VERTICES);
    uint32_t extra = mesh_span_count_tokens(line);
    if (extra < (uint32_t)n)
        return nv_error_set(err, "line %u: face %u says %lld vertices but lists %u", lineno, face, n, extra);
    if (extra - (uint32_t)n > 4)
        return nv_error_set(err, "line %u: face %u has %u values after its %lld indices (a colour has at most 4)",
                            lineno, face, extra - (uint32_t)n, n);
    if (mesh_check_triangle_room(out, (uint64_t)n - 2, max_triangles, lineno, err)) return -1;
    uint32_t first = 0, prev = 0;
    for (long long k = 0; k < n; k++) {
        long long v;
        mesh_span_token(&line, &tok);
        if (!mesh_token_integer(tok, &v))
            return nv_error_set(err, "line %u: face %u: bad vertex index '%s'", lineno, face,
                                mesh_token_show(tok, show, sizeof show));
        if (v < 0 || v >= (long long)nv)
            return nv_error_set(err, "line %u: face %u: vertex index %lld is out of range (%u vertices, 0-based)",
                                lineno, face, v, nv);
        if (k >= 2 && nv_mesh_add_triangle(out, first, prev, (uint32_t)v, err)) return -1;
        if (k == 0) first = (uint32_t)v;
        prev = (uint32_t)v;
    }
    while (mesh_span_token(&line, &tok))
        if (!mesh_token_is_number(tok))
            return nv_error_set(err, "line %u: face %u: bad colour value '%s'", lineno, face,
                                mesh_token_show(tok, show, sizeof show));
    return 0;
}

int mesh_parse_off(const char* data, size_t size, uint32_t max_triangles, nv_mesh* out, nv_error* err) {
    mesh_text t = mesh_text_start(data, size, 0);
    uint32_t nv = 0, nf = 0;
    if (mesh_off_header(&t, &nv, &nf, err)) return -1;
    /* Counts are checked before anything is allocated from them. */
    if (nf > max_triangles)
        return nv_error_set(err, "line %u: header declares %u faces, more than max_triangles (%u)", t.line, nf,
                            max_triangles);
    if (nv > mesh_vertex_limit(max_triangles))
        return nv_error_set(err, "line %u: header declares %u vertices, more than 3 x max_triangles (%u)", t.line, nv,
                            mesh_vertex_limit(max_triangles));
    /* A lying count must not allocate more than the file could describe:
     * a vertex line takes at least 6 bytes, a face line at least 8. */
    size_t left = (size_t)(t.end - t.p);
    if (nv_mesh_reserve(out, nv < left / 6 ? nv : (uint32_t)(left / 6), nf < left / 8 ? nf : (uint32_t)(left / 8), err))
        return -1;

    mesh_span line, tok;
    for (uint32_t i = 0; i < nv; i++) {
        if (!mesh_text_content_line(&t, &line))
            return nv_error_set(err, "line %u: end of file after %u of the %u vertices the header declares", t.line, i,
                                nv);
        uint32_t n = mesh_span_count_tokens(line);
        if (n != 3)
            return nv_error_set(err,
                                "line %u: vertex %u has %u values, expected 3 coordinates (does the header's vertex "
                                "count %u match the file?)",
                                t.line, i, n, nv);
        char what[32];
        snprintf(what, sizeof what, "vertex %u", i);
        float p[3];
        for (int k = 0; k < 3; k++) {
            mesh_span_token(&line, &tok);
            if (mesh_token_coordinate(tok, t.line, what, &p[k], err)) return -1;
        }
        if (nv_mesh_add_vertex(out, p[0], p[1], p[2], err)) return -1;
    }
    for (uint32_t f = 0; f < nf; f++) {
        if (!mesh_text_content_line(&t, &line))
            return nv_error_set(err, "line %u: end of file after %u of the %u faces the header declares", t.line, f,
                                nf);
        if (mesh_off_face(line, t.line, f, nv, max_triangles, out, err)) return -1;
    }
    if (mesh_text_content_line(&t, &line))
        return nv_error_set(err,
                            "line %u: data after the %u vertices and %u faces the header declares (do the counts "
                            "match the file?)",
                            t.line, nv, nf);
    return 0;
}
