// SPDX-License-Identifier: MIT
/* mesh_io.c / mesh_text.c: the loaders, their formats and their messages.
 * Binary STL inputs are generated here into a temporary directory. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "naval/mesh.h"

/* cmocka 1.1 compares floats only as float; these checks need doubles. */
#define assert_near(a, b, tol)                                                                                         \
    do {                                                                                                               \
        double a_ = (a), b_ = (b);                                                                                     \
        if (!(fabs(a_ - b_) <= (tol))) fail_msg("%s = %.17g, expected %.17g +- %g", #a, a_, b_, (double)(tol));        \
    } while (0)

#define DATA NAVAL_TEST_DATA "/"
#define PI 3.14159265358979323846

static const float cube_vertices[8][3] = {
    {-1, -1, 0}, {-1, -1, 2}, {1, -1, 0}, {1, -1, 2}, {-1, 1, 0}, {1, 1, 0}, {1, 1, 2}, {-1, 1, 2},
};
static const uint32_t cube_faces[12][3] = {
    {2, 3, 1}, {2, 1, 0}, {4, 5, 2}, {4, 2, 0}, {6, 3, 2}, {6, 2, 5},
    {6, 7, 1}, {6, 1, 3}, {6, 5, 4}, {6, 4, 7}, {1, 7, 4}, {1, 4, 0},
};

/* The cube's first seven vertices as OBJ text (a comment on line 1, then
 * lines 2-8); the eighth is apart so a test can put a face before it. */
static const char cube_obj_head[] =
    "# cube\n"
    "v -1 -1 0\nv -1 -1 2\nv 1 -1 0\nv 1 -1 2\nv -1 1 0\nv 1 1 0\nv 1 1 2\n";
static const char cube_obj_v8[] = "v -1 1 2\n";

typedef struct tmpdir {
    char path[256];
    char files[16][320];
    int nfiles;
} tmpdir;

static int setup_tmpdir(void** state) {
    tmpdir* d = calloc(1, sizeof *d);
    if (!d) return -1;
    const char* base = getenv("TMPDIR");
    snprintf(d->path, sizeof d->path, "%s/test_mesh_io.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(d->path)) {
        free(d);
        return -1;
    }
    *state = d;
    return 0;
}

static int teardown_tmpdir(void** state) {
    tmpdir* d = *state;
    for (int i = 0; i < d->nfiles; i++) unlink(d->files[i]);
    rmdir(d->path);
    free(d);
    return 0;
}

/* Writes a file in the temporary directory; returns its path. */
static const char* write_file(tmpdir* d, const char* name, const void* data, size_t size) {
    assert_true(d->nfiles < 16);
    char* path = d->files[d->nfiles++];
    char buf[sizeof d->files[0]];
    snprintf(buf, sizeof buf, "%s/%s", d->path, name);
    memcpy(path, buf, sizeof buf);
    FILE* f = fopen(path, "wb");
    assert_non_null(f);
    if (size) assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
    return path;
}

static void put_le32(unsigned char* p, uint32_t v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static void put_lef32(unsigned char* p, float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    put_le32(p, u);
}

/* The cube as a binary STL: 84 + 12 * 50 bytes, little-endian whatever the
 * host. *size gets the byte count; the buffer has 100 spare bytes. */
static unsigned char* cube_binary_stl(const char* header, size_t* size) {
    size_t n = 84 + 12 * 50;
    unsigned char* b = calloc(1, n + 100);
    assert_non_null(b);
    memset(b, ' ', 80);
    memcpy(b, header, strlen(header));
    put_le32(b + 80, 12);
    for (int t = 0; t < 12; t++) {
        unsigned char* r = b + 84 + 50 * t;
        /* Normals are ignored by the loader; write a wrong one to prove it. */
        put_lef32(r, 0.0f);
        put_lef32(r + 4, 0.0f);
        put_lef32(r + 8, 1.0f);
        for (int v = 0; v < 3; v++)
            for (int k = 0; k < 3; k++) put_lef32(r + 12 + 12 * v + 4 * k, cube_vertices[cube_faces[t][v]][k]);
    }
    *size = n;
    return b;
}

/* Volume-weighted centroid from signed tetrahedra about the origin. */
static void centroid(const nv_mesh* m, double c[3], double* volume) {
    double v = 0, s[3] = {0, 0, 0};
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        const float* a = m->positions + 3 * m->indices[3 * t];
        const float* b = m->positions + 3 * m->indices[3 * t + 1];
        const float* p = m->positions + 3 * m->indices[3 * t + 2];
        double dv =
            (a[0] * ((double)b[1] * p[2] - (double)b[2] * p[1]) + a[1] * ((double)b[2] * p[0] - (double)b[0] * p[2]) +
             a[2] * ((double)b[0] * p[1] - (double)b[1] * p[0])) /
            6.0;
        v += dv;
        for (int k = 0; k < 3; k++) s[k] += dv * ((double)a[k] + b[k] + p[k]) / 4.0;
    }
    for (int k = 0; k < 3; k++) c[k] = s[k] / v;
    *volume = v;
}

static void assert_cube(const nv_mesh* m, const nv_mesh_report* r) {
    assert_int_equal(m->vertex_count, 8);
    assert_int_equal(m->triangle_count, 12);
    assert_int_equal(r->input_triangles, 12);
    assert_int_equal(r->components, 1);
    assert_int_equal(r->dropped_triangles, 0);
    assert_false(r->flipped);
    assert_near(nv_mesh_signed_volume(m), 8.0, 1e-12);
    float lo[3], hi[3];
    nv_mesh_bounds(m, lo, hi);
    assert_true(lo[0] == -1.0f && lo[1] == -1.0f && lo[2] == 0.0f);
    assert_true(hi[0] == 1.0f && hi[1] == 1.0f && hi[2] == 2.0f);
}

static void assert_empty(const nv_mesh* m) {
    assert_null(m->positions);
    assert_null(m->indices);
    assert_int_equal(m->vertex_count, 0);
    assert_int_equal(m->triangle_count, 0);
}

/* Loads text through nv_mesh_load_memory and expects a failure whose message
 * contains every given fragment. */
static void expect_text_error(const char* name, const char* text, const nv_mesh_options* opts, const char* frag1,
                              const char* frag2) {
    nv_mesh m;
    nv_mesh_report r;
    nv_error err;
    assert_int_equal(nv_mesh_load_memory(text, strlen(text), MESH_FORMAT_AUTO, name, opts, &m, &r, &err), -1);
    if (!strstr(err.message, frag1) || (frag2 && !strstr(err.message, frag2)))
        fail_msg("message \"%s\" lacks \"%s\"%s%s", err.message, frag1, frag2 ? " or " : "", frag2 ? frag2 : "");
    assert_empty(&m);
}

/* ---- the same cube from every format ---- */

static void test_cube_binary_stl(void** state) {
    tmpdir* d = *state;
    size_t size;
    unsigned char* stl = cube_binary_stl("naval test cube", &size);
    const char* path = write_file(d, "cube.STL", stl, size);
    nv_mesh m;
    nv_mesh_report r;
    nv_error err;
    assert_int_equal(nv_mesh_load_file(path, MESH_FORMAT_AUTO, NULL, &m, &r, &err), 0);
    assert_cube(&m, &r);
    assert_int_equal(r.welded_vertices, 28); /* 36 corner records -> 8 vertices */
    nv_mesh_free(&m);
    free(stl);
}

/* A binary header may start with "solid"; the exact size says binary. */
static void test_binary_stl_header_says_solid(void** state) {
    (void)state;
    size_t size;
    unsigned char* stl = cube_binary_stl("solid cube exported by a careless tool", &size);
    nv_mesh m;
    nv_mesh_report r;
    nv_error err;
    assert_int_equal(nv_mesh_load_memory(stl, size, MESH_FORMAT_STL, "solid.stl", NULL, &m, &r, &err), 0);
    assert_cube(&m, &r);
    nv_mesh_free(&m);
    free(stl);
}

static void test_cube_ascii_stl(void** state) {
    (void)state;
    nv_mesh m;
    nv_mesh_report r;
    nv_error err;
    assert_int_equal(nv_mesh_load_file(DATA "cube_ascii.stl", MESH_FORMAT_AUTO, NULL, &m, &r, &err), 0);
    assert_cube(&m, &r);
    assert_int_equal(r.welded_vertices, 28);
    nv_mesh_free(&m);
}

static void test_cube_obj_quads(void** state) {
    (void)state;
    nv_mesh m;
    nv_mesh_report r;
    nv_error err;
    assert_int_equal(nv_mesh_load_file(DATA "cube.obj", MESH_FORMAT_AUTO, NULL, &m, &r, &err), 0);
    assert_cube(&m, &r); /* six quads -> 12 triangles */
    assert_int_equal(r.welded_vertices, 0);
    nv_mesh_free(&m);
}

static void test_cube_off(void** state) {
    (void)state;
    nv_mesh m;
    nv_mesh_report r;
    nv_error err;
    assert_int_equal(nv_mesh_load_file(DATA "bourg_cube.off", MESH_FORMAT_AUTO, NULL, &m, &r, &err), 0);
    assert_cube(&m, &r);
    assert_int_equal(r.welded_vertices, 0);
    nv_mesh_free(&m);
}

static void test_z_up_moves_centroid(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    double c[3], v;
    assert_int_equal(nv_mesh_load_file(DATA "bourg_cube.off", MESH_FORMAT_OFF, NULL, &m, NULL, &err), 0);
    centroid(&m, c, &v);
    assert_near(v, 8.0, 1e-12);
    assert_near(c[0], 0.0, 1e-12);
    assert_near(c[1], 0.0, 1e-12);
    assert_near(c[2], 1.0, 1e-12);
    nv_mesh_free(&m);

    nv_mesh_options opts = nv_mesh_options_default();
    opts.up = 'z';
    assert_int_equal(nv_mesh_load_file(DATA "bourg_cube.off", MESH_FORMAT_OFF, &opts, &m, NULL, &err), 0);
    centroid(&m, c, &v);
    assert_near(v, 8.0, 1e-12);
    assert_near(c[0], 0.0, 1e-12);
    assert_near(c[1], 1.0, 1e-12);
    assert_near(c[2], 0.0, 1e-12);
    nv_mesh_free(&m);
}

static void test_two_cubes_two_components(void** state) {
    (void)state;
    nv_mesh m;
    nv_mesh_report r;
    nv_error err;
    assert_int_equal(nv_mesh_load_file(DATA "two_cubes.obj", MESH_FORMAT_AUTO, NULL, &m, &r, &err), 0);
    assert_int_equal(r.components, 2);
    assert_int_equal(m.vertex_count, 16);
    assert_int_equal(m.triangle_count, 24);
    assert_near(nv_mesh_signed_volume(&m), 2.0, 1e-12);
    nv_mesh_free(&m);
}

/* Bourg's boat hull: vertices 2 and 5 coincide, so two triangles collapse
 * once welded; what is left must be closed with the book's volume and
 * centroid (28.67; (-1.43, 0.00, 1.08) in file coordinates). */
static void test_bourg_boat(void** state) {
    (void)state;
    nv_mesh m;
    nv_mesh_report r;
    nv_error err;
    double c[3], v;
    if (nv_mesh_load_file(DATA "bourg_boat.off", MESH_FORMAT_AUTO, NULL, &m, &r, &err)) fail_msg("%s", err.message);
    assert_int_equal(r.input_triangles, 68);
    assert_int_equal(r.welded_vertices, 1);
    assert_int_equal(r.dropped_triangles, 2);
    assert_int_equal(r.unused_vertices, 0);
    assert_int_equal(r.components, 1);
    assert_false(r.flipped);
    assert_int_equal(m.vertex_count, 35);
    assert_int_equal(m.triangle_count, 66);
    centroid(&m, c, &v);
    assert_near(v, 28.67, 0.005);
    assert_near(c[0], -1.43, 0.005);
    assert_near(c[1], 0.00, 0.005);
    assert_near(c[2], 1.08, 0.005);
    nv_mesh_free(&m);

    nv_mesh_options opts = nv_mesh_options_default();
    opts.up = 'z';
    assert_int_equal(nv_mesh_load_file(DATA "bourg_boat.off", MESH_FORMAT_AUTO, &opts, &m, &r, &err), 0);
    centroid(&m, c, &v);
    assert_near(v, 28.67, 0.005);
    assert_near(c[0], -1.43, 0.005);
    assert_near(c[1], 1.08, 0.005);
    assert_near(c[2], 0.00, 0.005);
    nv_mesh_free(&m);
}

/* ---- binary STL rejections ---- */

static void test_binary_stl_truncated(void** state) {
    tmpdir* d = *state;
    size_t size;
    unsigned char* stl = cube_binary_stl("cube", &size);
    const char* path = write_file(d, "short.stl", stl, 84 + 5 * 50 + 20);
    nv_mesh m;
    nv_error err;
    assert_int_equal(nv_mesh_load_file(path, MESH_FORMAT_AUTO, NULL, &m, NULL, &err), -1);
    assert_non_null(strstr(err.message,
                           "short.stl: truncated binary STL: the header says 12 triangles (684 bytes) but "
                           "the file has 354 bytes; triangle 5 is incomplete"));
    assert_empty(&m);

    assert_int_equal(nv_mesh_load_memory(stl, 50, MESH_FORMAT_STL, "tiny.stl", NULL, &m, NULL, &err), -1);
    assert_non_null(strstr(err.message, "tiny.stl: truncated binary STL: 50 bytes, shorter than the 84-byte header"));
    free(stl);
}

static void test_binary_stl_count_lies(void** state) {
    (void)state;
    size_t size;
    unsigned char* stl = cube_binary_stl("cube", &size);
    nv_mesh m;
    nv_error err;

    put_le32(stl + 80, 13); /* more than the data */
    assert_int_equal(nv_mesh_load_memory(stl, size, MESH_FORMAT_STL, "more.stl", NULL, &m, NULL, &err), -1);
    assert_non_null(strstr(err.message,
                           "more.stl: truncated binary STL: the header says 13 triangles (734 bytes) but "
                           "the file has 684 bytes; triangle 12 is incomplete"));
    assert_empty(&m);

    /* A count this big must be refused from the size alone, not allocated. */
    put_le32(stl + 80, 0xFFFFFFFFu);
    assert_int_equal(nv_mesh_load_memory(stl, size, MESH_FORMAT_STL, "huge.stl", NULL, &m, NULL, &err), -1);
    assert_non_null(strstr(err.message, "the header says 4294967295 triangles (214748364834 bytes)"));

    put_le32(stl + 80, 11); /* fewer than the data */
    assert_int_equal(nv_mesh_load_memory(stl, size, MESH_FORMAT_STL, "fewer.stl", NULL, &m, NULL, &err), -1);
    assert_non_null(strstr(err.message,
                           "fewer.stl: binary STL size mismatch: the header says 11 triangles (634 bytes) "
                           "but the file has 684 bytes (room for 12 triangles)"));
    assert_empty(&m);

    put_le32(stl + 80, 12);
    assert_int_equal(nv_mesh_load_memory(stl, size + 7, MESH_FORMAT_STL, "tail.stl", NULL, &m, NULL, &err), -1);
    assert_non_null(strstr(err.message, "(room for 12 triangles and some)"));

    nv_mesh_options opts = nv_mesh_options_default();
    opts.max_triangles = 10;
    assert_int_equal(nv_mesh_load_memory(stl, size, MESH_FORMAT_STL, "big.stl", &opts, &m, NULL, &err), -1);
    assert_string_equal(err.message, "big.stl: binary STL has 12 triangles, more than max_triangles (10)");
    free(stl);
}

static void test_binary_stl_nan(void** state) {
    (void)state;
    size_t size;
    unsigned char* stl = cube_binary_stl("cube", &size);
    put_lef32(stl + 84 + 7 * 50 + 12 + 2 * 12 + 4, NAN); /* triangle 7, vertex 2, y */
    nv_mesh m;
    nv_error err;
    assert_int_equal(nv_mesh_load_memory(stl, size, MESH_FORMAT_STL, "nan.stl", NULL, &m, NULL, &err), -1);
    assert_string_equal(err.message, "nan.stl: triangle 7: vertex 2 has a non-finite coordinate (1, nan, 2)");
    assert_empty(&m);
    put_lef32(stl + 84 + 3 * 50 + 12, -INFINITY);
    assert_int_equal(nv_mesh_load_memory(stl, size, MESH_FORMAT_STL, "inf.stl", NULL, &m, NULL, &err), -1);
    assert_non_null(strstr(err.message, "inf.stl: triangle 3: vertex 0 has a non-finite coordinate (-inf"));
    free(stl);
}

/* ---- ASCII STL ---- */

static const char ascii_facet_ok[] =
    "facet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n  vertex 0 1 0\n"
    " endloop\nendfacet\n";

static void test_ascii_stl_errors(void** state) {
    (void)state;
    char text[1024];
    snprintf(text, sizeof text, "solid x\n%sfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex nan 0 0\n",
             ascii_facet_ok);
    expect_text_error("nan.stl", text, NULL, "nan.stl: line 12: triangle 1, vertex 1: non-finite coordinate 'nan'",
                      NULL);
    snprintf(text, sizeof text, "solid x\n%sfacet normal 0 0 1\n outer loop\n  vertex 0 0 1e39\n", ascii_facet_ok);
    expect_text_error("big.stl", text, NULL, "big.stl: line 11: triangle 1, vertex 0: coordinate '1e39' is too large",
                      NULL);
    snprintf(text, sizeof text, "solid x\n%s", ascii_facet_ok);
    expect_text_error("cut.stl", text, NULL, "cut.stl: line 8: end of file before 'endsolid' (truncated?)", NULL);
    snprintf(text, sizeof text, "solid x\n%sfacet normal 0 0 1\n outer loop\n  vertex 0 0", ascii_facet_ok);
    expect_text_error("cut2.stl", text, NULL, "cut2.stl: line 11: end of file in a vertex", NULL);
    snprintf(text, sizeof text,
             "solid x\n%sfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n"
             "  vertex 0 1 0\n  vertex 1 1 0\n endloop\nendfacet\nendsolid x\n",
             ascii_facet_ok);
    expect_text_error("quad.stl", text, NULL,
                      "quad.stl: line 14: expected 'endloop' after a facet's three vertices, "
                      "found 'vertex'",
                      NULL);
    expect_text_error("junk.stl", "solid x\n  facet normal 0 0 x1\n", NULL,
                      "junk.stl: line 2: expected a normal "
                      "component, found 'x1'",
                      NULL);
}

/* Several solids in one file, NaN normals (written for slivers), CRLF and
 * upper case: all accepted. */
static void test_ascii_stl_tolerated(void** state) {
    (void)state;
    char text[8192];
    size_t len = 0;
    for (int t = 0; t < 12; t++) {
        if (t == 0 || t == 6) len += (size_t)snprintf(text + len, sizeof text - len, "solid part%d\r\n", t);
        len += (size_t)snprintf(text + len, sizeof text - len, "FACET NORMAL nan nan nan\r\nOUTER LOOP\r\n");
        for (int v = 0; v < 3; v++) {
            const float* p = cube_vertices[cube_faces[t][v]];
            len += (size_t)snprintf(text + len, sizeof text - len, "VERTEX %g %g %g\r\n", p[0], p[1], p[2]);
        }
        len += (size_t)snprintf(text + len, sizeof text - len, "ENDLOOP\r\nENDFACET\r\n");
        if (t == 5 || t == 11) len += (size_t)snprintf(text + len, sizeof text - len, "endsolid\r\n");
    }
    nv_mesh m;
    nv_mesh_report r;
    nv_error err;
    assert_int_equal(nv_mesh_load_memory(text, len, MESH_FORMAT_STL, "crlf", NULL, &m, &r, &err), 0);
    assert_cube(&m, &r);
    nv_mesh_free(&m);
}

/* ---- OBJ ---- */

static void test_obj_nan(void** state) {
    (void)state;
    expect_text_error("nan.obj", "v 0 0 0\n# comment\nv 0 nan 0\n", NULL,
                      "nan.obj: line 3: vertex 1: non-finite coordinate 'nan'", NULL);
    expect_text_error("inf.obj", "v 0 0 0\nv 0 0 -inf\n", NULL,
                      "inf.obj: line 2: vertex 1: non-finite coordinate '-inf'", NULL);
    expect_text_error("word.obj", "v 0 0 zero\n", NULL, "word.obj: line 1: vertex 0: expected a number, found 'zero'",
                      NULL);
}

static void test_obj_face_index_errors(void** state) {
    (void)state;
    char text[1024];
    snprintf(text, sizeof text, "%s%sf 1 2 9\n", cube_obj_head, cube_obj_v8);
    expect_text_error("range.obj", text, NULL,
                      "range.obj: line 10: face index 9 is out of range (8 vertices defined so "
                      "far)",
                      NULL);
    /* A forward reference is out of range too: OBJ indices look backwards. */
    snprintf(text, sizeof text, "%sf 1 2 8\n%s", cube_obj_head, cube_obj_v8);
    expect_text_error("forward.obj", text, NULL,
                      "forward.obj: line 9: face index 8 is out of range (7 vertices "
                      "defined so far)",
                      NULL);
    snprintf(text, sizeof text, "%s%sf 1 2 -9\n", cube_obj_head, cube_obj_v8);
    expect_text_error("neg.obj", text, NULL, "neg.obj: line 10: face index -9 is out of range", NULL);
    snprintf(text, sizeof text, "%s%sf 1 0 2\n", cube_obj_head, cube_obj_v8);
    expect_text_error("zero.obj", text, NULL, "zero.obj: line 10: face index 0 is invalid (OBJ indices start at 1)",
                      NULL);
    snprintf(text, sizeof text, "%s%sf 1 2/x 3\n", cube_obj_head, cube_obj_v8);
    expect_text_error("corner.obj", text, NULL, "corner.obj: line 10: bad face corner '2/x'", NULL);
    snprintf(text, sizeof text, "%s%sf 1 2\n", cube_obj_head, cube_obj_v8);
    expect_text_error("two.obj", text, NULL, "two.obj: line 10: face has 2 vertices, need at least 3", NULL);
    expect_text_error("curve.obj", "v 0 0 0\ncstype bspline\n", NULL,
                      "curve.obj: line 2: free-form geometry ('cstype') is not supported", NULL);
    expect_text_error("what.obj", "v 0 0 0\nvertex 1 2 3\n", NULL, "what.obj: line 2: unknown OBJ statement 'vertex'",
                      NULL);
}

static void test_obj_polygon_limits(void** state) {
    (void)state;
    /* A polygon with an absurd vertex count is refused before any triangle
     * is made from it. */
    size_t cap = 8 + 70000 * 3;
    char* text = malloc(cap);
    assert_non_null(text);
    size_t len = (size_t)snprintf(text, cap, "v 0 0 0\nf");
    for (int i = 0; i < 70000; i++) len += (size_t)snprintf(text + len, cap - len, " 1");
    expect_text_error("poly.obj", text, NULL,
                      "poly.obj: line 2: face has 70000 vertices, more than the 65536 a "
                      "polygon may have",
                      NULL);
    free(text);

    nv_mesh_options opts = nv_mesh_options_default();
    opts.max_triangles = 11;
    char small[512];
    snprintf(small, sizeof small, "%s%sf 1 2 3 4 5 6 7 8\nf 1 2 3 4 5 6 7 8\n", cube_obj_head, cube_obj_v8);
    expect_text_error("many.obj", small, &opts, "many.obj: line 11: more than 11 triangles (max_triangles)", NULL);
}

/* ---- OFF ---- */

static void test_off_nan(void** state) {
    (void)state;
    expect_text_error("nan.off", "OFF\n3 1 0\n0 0 0\n1 NaN 0\n0 1 0\n3 0 1 2\n", NULL,
                      "nan.off: line 4: vertex 1: non-finite coordinate 'NaN'", NULL);
}

static void test_off_vertex_count_mismatch(void** state) {
    (void)state;
    /* The header claims 9 vertices; the first face line is read as vertex 8. */
    expect_text_error("nine.off",
                      "OFF\n9 12 0\n-1 -1 0\n-1 -1 2\n1 -1 0\n1 -1 2\n-1 1 0\n1 1 0\n1 1 2\n-1 1 2\n3 2 3 1\n", NULL,
                      "nine.off: line 11: vertex 8 has 4 values, expected 3 coordinates (does the header's vertex "
                      "count 9 match the file?)",
                      NULL);
    /* The header claims 7: the eighth vertex is read as a face. */
    expect_text_error("seven.off",
                      "OFF\n7 12 0\n-1.0 -1.0 0.0\n-1.0 -1.0 2.0\n1.0 -1.0 0.0\n1.0 -1.0 2.0\n-1.0 1.0 0.0\n"
                      "1.0 1.0 0.0\n1.0 1.0 2.0\n-1.0 1.0 2.0\n3 2 3 1\n",
                      NULL,
                      "seven.off: line 10: face 0: expected its vertex count, found '-1.0' (does the header's vertex "
                      "count 7 match the file?)",
                      NULL);
    expect_text_error("seven2.off",
                      "OFF\n7 12 0\n-1 -1 0\n-1 -1 2\n1 -1 0\n1 -1 2\n-1 1 0\n1 1 0\n1 1 2\n-1 1 2\n3 2 3 1\n", NULL,
                      "seven2.off: line 10: face 0 has -1 vertices, need at least 3 (does the header's vertex count 7 "
                      "match the file?)",
                      NULL);
    expect_text_error("few.off", "OFF\n4 1 0\n0 0 0\n1 0 0\n", NULL,
                      "few.off: line 4: end of file after 2 of the 4 vertices the header declares", NULL);
    expect_text_error("faces.off", "OFF\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", NULL,
                      "faces.off: line 6: end of file after 1 of the 2 faces the header declares", NULL);
    expect_text_error("extra.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 0 2 1\n", NULL,
                      "extra.off: line 7: data after the 3 vertices and 1 faces the header declares", NULL);
}

static void test_off_other_errors(void** state) {
    (void)state;
    expect_text_error("idx.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n", NULL,
                      "idx.off: line 6: face 0: vertex index 3 is out of range (3 vertices, 0-based)", NULL);
    expect_text_error("hdr.off", "# no header\nCOFF\n3 1 0\n", NULL,
                      "hdr.off: line 2: expected the 'OFF' header, found 'COFF'", NULL);
    expect_text_error("short.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n4 0 1 2\n", NULL,
                      "short.off: line 6: face 0 says 4 vertices but lists 3", NULL);
    /* Counts beyond the limits are refused before anything is allocated. */
    expect_text_error("lie.off", "OFF\n4000000000 4000000000 0\n", NULL,
                      "lie.off: line 2: header declares 4000000000 faces, more than max_triangles (1000000)", NULL);
    expect_text_error("lie2.off", "OFF\n4000000 10 0\n", NULL,
                      "lie2.off: line 2: header declares 4000000 vertices, more than 3 x max_triangles (3000000)",
                      NULL);
    expect_text_error("neg.off", "OFF\n-3 1 0\n", NULL, "neg.off: line 2: bad vertex count '-3'", NULL);
    /* Counts within the limits but far beyond the data: reported, not trusted. */
    expect_text_error("lie3.off", "OFF 2000000 1000000 0\n0 0 0\n", NULL,
                      "lie3.off: line 2: end of file after 1 of the 2000000 vertices the header declares", NULL);
}

/* Counts on the header line, comments, blank lines, a quad and colours. */
static void test_off_tolerated(void** state) {
    (void)state;
    nv_mesh m;
    nv_mesh_report r;
    nv_error err;
    const char* cube =
        "OFF 8 10 0 # counts on the header line\n"
        "-1 -1 0\n-1 -1 2\n1 -1 0\n1 -1 2\n\n-1 1 0\n1 1 0\n1 1 2\n-1 1 2\n"
        "4 2 3 1 0  255 0 0\n"
        "3 4 5 2 0.5 0.5 0.5 1.0\n"
        "3 4 2 0\n"
        "3 6 3 2 7\n"
        "3 6 2 5\n"
        "4 6 7 1 3\n"
        "3 6 5 4\n3 6 4 7\n\t3 1 7 4\r\n3 1 4 0\n\n# trailing comment\n";
    assert_int_equal(nv_mesh_load_memory(cube, strlen(cube), MESH_FORMAT_OFF, "tol", NULL, &m, &r, &err), 0);
    assert_cube(&m, &r);
    nv_mesh_free(&m);
}

/* Smaller rules of the text formats, accepted and rejected. */
static void test_text_format_details(void** state) {
    (void)state;
    nv_mesh m;
    nv_mesh_report r;
    nv_error err;
    char text[2048];
    size_t len = (size_t)snprintf(text, sizeof text, "\xEF\xBB\xBFsolid bom\n");
    for (int t = 0; t < 12; t++) {
        len += (size_t)snprintf(text + len, sizeof text - len, "facet normal 0 0 0 outer loop");
        for (int v = 0; v < 3; v++) {
            const float* p = cube_vertices[cube_faces[t][v]];
            len += (size_t)snprintf(text + len, sizeof text - len, " vertex %g %g %g", p[0], p[1], p[2]);
        }
        len += (size_t)snprintf(text + len, sizeof text - len, " endloop endfacet\n");
    }
    len += (size_t)snprintf(text + len, sizeof text - len, "endsolid bom");
    assert_int_equal(nv_mesh_load_memory(text, len, MESH_FORMAT_STL, "bom.stl", NULL, &m, &r, &err), 0);
    assert_cube(&m, &r);
    nv_mesh_free(&m);

    expect_text_error("two.stl", "solid a\nendsolid a\nfacet\n", NULL,
                      "two.stl: line 3: expected 'solid' after 'endsolid', found 'facet'", NULL);
    expect_text_error("kw.stl", "solid a\n  facets normal 0 0 1\n", NULL,
                      "kw.stl: line 2: expected 'facet' or 'endsolid', found 'facets'", NULL);
    expect_text_error("nothing.stl", "solid a\nendsolid a\n", NULL, "nothing.stl: no triangles", NULL);
    expect_text_error("normal.stl", "solid a\nfacet normal 0 0", NULL,
                      "normal.stl: line 2: end of file in a facet normal", NULL);

    /* OBJ: w and vertex colours are allowed after x y z, nothing else. */
    const char* extra[8] = {" 1", " 0.5 0.5 0.5", "", "", "", "", "", ""};
    text[0] = '\0';
    for (int i = 0; i < 8; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "v %g %g %g%s\n", cube_vertices[i][0],
                 cube_vertices[i][1], cube_vertices[i][2], extra[i]);
    for (int t = 0; t < 12; t++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "f %u %u %u\n", cube_faces[t][0] + 1,
                 cube_faces[t][1] + 1, cube_faces[t][2] + 1);
    assert_int_equal(nv_mesh_load_memory(text, strlen(text), MESH_FORMAT_OBJ, "w.obj", NULL, &m, &r, &err), 0);
    assert_cube(&m, &r);
    nv_mesh_free(&m);
    expect_text_error("junk.obj", "v 1 2 3 x\n", NULL, "junk.obj: line 1: unexpected 'x' after a vertex's coordinates",
                      NULL);
    expect_text_error("short.obj", "\n\nv 1 2\n", NULL, "short.obj: line 3: vertex has 2 coordinates, expected 3",
                      NULL);
    nv_mesh_options opts = nv_mesh_options_default();
    opts.max_triangles = 1;
    expect_text_error("verts.obj", "v 0 0 0\nv 0 0 0\nv 0 0 0\nv 0 0 0\n", &opts,
                      "verts.obj: line 4: more than 3 vertices (3 x max_triangles)", NULL);

    /* OFF */
    expect_text_error("counts.off", "OFF\n# only a comment\n", NULL,
                      "counts.off: line 2: end of file before the vertex and face counts", NULL);
    expect_text_error("counts2.off", "OFF\n8\n", NULL,
                      "counts2.off: line 2: expected 'vertices faces [edges]' counts, found 1 values", NULL);
    expect_text_error("colour.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 red\n", NULL,
                      "colour.off: line 6: face 0: bad colour value 'red'", NULL);
    expect_text_error("colour2.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 1 1 1 1 1\n", NULL,
                      "colour2.off: line 6: face 0 has 5 values after its 3 indices (a colour has at most 4)", NULL);
    expect_text_error("huge.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n100000 0 1 2\n", NULL,
                      "huge.off: line 6: face 0 has 100000 vertices, more than the 65536 a polygon may have", NULL);
    expect_text_error("empty.off", "\n# nothing\n\n", NULL, "empty.off: line 3: no 'OFF' header", NULL);
}

/* ---- errors every format shares ---- */

static void test_empty_files(void** state) {
    tmpdir* d = *state;
    const char* names[3] = {"empty.stl", "empty.obj", "empty.off"};
    const char* kinds[3] = {"STL", "OBJ", "OFF"};
    for (int i = 0; i < 3; i++) {
        const char* path = write_file(d, names[i], "", 0);
        nv_mesh m;
        nv_error err;
        char expect[512];
        assert_int_equal(nv_mesh_load_file(path, MESH_FORMAT_AUTO, NULL, &m, NULL, &err), -1);
        snprintf(expect, sizeof expect, "%s: empty file (0 bytes), not a valid %s mesh", path, kinds[i]);
        assert_string_equal(err.message, expect);
        assert_empty(&m);
    }
}

static void test_open_mesh(void** state) {
    (void)state;
    /* cube.obj without its last face (the x = +1 side). */
    const char* text =
        "v -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nv -1 -1 2\nv 1 -1 2\nv 1 1 2\nv -1 1 2\n"
        "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 3 4 8 7\nf 4 1 5 8\n";
    nv_mesh m;
    nv_error err;
    assert_int_equal(nv_mesh_load_memory(text, strlen(text), MESH_FORMAT_AUTO, "open.obj", NULL, &m, NULL, &err), -1);
    assert_string_equal(err.message,
                        "open.obj: open mesh: edge between vertex 2 (1, 1, 0) and vertex 1 (1, -1, 0) "
                        "belongs to triangle 1 only (and 3 more bad edges)");
    assert_empty(&m);
    /* A z-up file is converted only once it passed: the message quotes the
     * coordinates as the file has them. */
    nv_mesh_options opts = nv_mesh_options_default();
    opts.up = 'z';
    assert_int_equal(nv_mesh_load_memory(text, strlen(text), MESH_FORMAT_AUTO, "open.obj", &opts, &m, NULL, &err), -1);
    assert_non_null(strstr(err.message, "vertex 2 (1, 1, 0) and vertex 1 (1, -1, 0) belongs to triangle 1 only"));
}

static void test_inconsistent_winding(void** state) {
    (void)state;
    /* cube.obj with its top face written clockwise. */
    const char* text =
        "v -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nv -1 -1 2\nv 1 -1 2\nv 1 1 2\nv -1 1 2\n"
        "f 1 4 3 2\nf 8 7 6 5\nf 1 2 6 5\nf 3 4 8 7\nf 4 1 5 8\nf 2 3 7 6\n";
    nv_mesh m;
    nv_error err;
    assert_int_equal(nv_mesh_load_memory(text, strlen(text), MESH_FORMAT_AUTO, "wind.obj", NULL, &m, NULL, &err), -1);
    assert_string_equal(err.message,
                        "wind.obj: inconsistent winding: triangles 2 and 7 both run from vertex 7 (-1, 1, 2) to "
                        "vertex 6 (1, 1, 2); triangles sharing an edge must traverse it in opposite directions (one "
                        "of them is flipped) (and 3 more bad edges)");
    assert_empty(&m);
}

static void test_inside_out(void** state) {
    (void)state;
    const char* text =
        "OFF\n8 12 0\n-1 -1 0\n-1 -1 2\n1 -1 0\n1 -1 2\n-1 1 0\n1 1 0\n1 1 2\n-1 1 2\n"
        "3 2 1 3\n3 2 0 1\n3 4 2 5\n3 4 0 2\n3 6 2 3\n3 6 5 2\n"
        "3 6 1 7\n3 6 3 1\n3 6 4 5\n3 6 7 4\n3 1 4 7\n3 1 0 4\n";
    nv_mesh m;
    nv_mesh_report r;
    nv_error err;
    assert_int_equal(nv_mesh_load_memory(text, strlen(text), MESH_FORMAT_AUTO, "inside.off", NULL, &m, &r, &err), -1);
    assert_string_equal(err.message,
                        "inside.off: inside-out: total volume is -8.000 m^3 (triangles wind clockwise "
                        "seen from outside); use flip_inside_out (naval-hull --flip) to reverse them");
    assert_empty(&m);

    nv_mesh_options opts = nv_mesh_options_default();
    opts.flip_inside_out = true;
    assert_int_equal(nv_mesh_load_memory(text, strlen(text), MESH_FORMAT_AUTO, "inside.off", &opts, &m, &r, &err), 0);
    assert_true(r.flipped);
    r.flipped = false; /* the rest of the report is a plain cube's */
    assert_cube(&m, &r);
    nv_mesh_free(&m);
}

static void test_unknown_extension(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    assert_int_equal(nv_mesh_load_file("/nonexistent/hull.ply", MESH_FORMAT_AUTO, NULL, &m, NULL, &err), -1);
    assert_string_equal(err.message,
                        "/nonexistent/hull.ply: unknown mesh file extension '.ply' (expected .stl, .obj "
                        "or .off)");
    assert_empty(&m);
    assert_int_equal(nv_mesh_load_file("/nonexistent/hull", MESH_FORMAT_AUTO, NULL, &m, NULL, &err), -1);
    assert_non_null(strstr(err.message, "/nonexistent/hull: no file extension"));
    assert_int_equal(nv_mesh_load_memory("v 0 0 0\n", 8, MESH_FORMAT_AUTO, "a.b/hull", NULL, &m, NULL, &err), -1);
    assert_non_null(strstr(err.message, "a.b/hull: no file extension"));
}

static void test_missing_file(void** state) {
    tmpdir* d = *state;
    char path[400];
    snprintf(path, sizeof path, "%s/missing.stl", d->path);
    nv_mesh m;
    nv_error err;
    assert_int_equal(nv_mesh_load_file(path, MESH_FORMAT_AUTO, NULL, &m, NULL, &err), -1);
    char expect[512];
    snprintf(expect, sizeof expect, "%s: cannot open: %s", path, strerror(ENOENT));
    assert_string_equal(err.message, expect);
    assert_empty(&m);

    /* An explicit format overrides the extension. */
    assert_int_equal(nv_mesh_load_file(DATA "bourg_cube.off", MESH_FORMAT_OBJ, NULL, &m, NULL, &err), -1);
    assert_non_null(strstr(err.message, "bourg_cube.off: line 1: unknown OBJ statement 'OFF'"));
    assert_int_equal(nv_mesh_load_file(d->path, MESH_FORMAT_STL, NULL, &m, NULL, &err), -1);
    assert_non_null(strstr(err.message, strerror(EISDIR)));
}

/* A mesh big enough to exercise every radix pass: a sphere-like closed grid
 * written as a binary STL soup. */
static void test_binary_stl_large(void** state) {
    (void)state;
    const int n = 40; /* 6 * 2 * 40^2 = 19200 triangles */
    size_t count = (size_t)6 * 2 * n * n, size = 84 + 50 * count;
    unsigned char* b = calloc(1, size);
    assert_non_null(b);
    put_le32(b + 80, (uint32_t)count);
    unsigned char* r = b + 84;
    for (int axis = 0; axis < 3; axis++)
        for (int side = 0; side < 2; side++)
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    int u = (axis + 1) % 3, v = (axis + 2) % 3;
                    int q[4][2] = {{i, j}, {i + 1, j}, {i + 1, j + 1}, {i, j + 1}};
                    int tri[2][3] = {{0, 1, 2}, {0, 2, 3}};
                    for (int t = 0; t < 2; t++, r += 50)
                        for (int c = 0; c < 3; c++) {
                            int corner = tri[t][side ? c : 2 - c];
                            double p[3];
                            p[axis] = side ? 1.0 : -1.0;
                            p[u] = 2.0 * q[corner][0] / n - 1.0;
                            p[v] = 2.0 * q[corner][1] / n - 1.0;
                            double len = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
                            for (int k = 0; k < 3; k++) put_lef32(r + 12 + 12 * c + 4 * k, (float)(5.0 * p[k] / len));
                        }
                }
    nv_mesh m;
    nv_mesh_report rep;
    nv_error err;
    if (nv_mesh_load_memory(b, size, MESH_FORMAT_STL, "ball.stl", NULL, &m, &rep, &err)) fail_msg("%s", err.message);
    assert_int_equal(m.triangle_count, count);
    assert_int_equal(m.vertex_count, 6 * n * n + 2);
    assert_int_equal(rep.welded_vertices, 3 * count - (6 * n * n + 2));
    assert_int_equal(rep.components, 1);
    double vol = nv_mesh_signed_volume(&m);
    assert_true(vol > 0.99 * 4.0 / 3.0 * PI * 125.0 && vol < 4.0 / 3.0 * PI * 125.0);
    nv_mesh_free(&m);
    free(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube_binary_stl),
        cmocka_unit_test(test_binary_stl_header_says_solid),
        cmocka_unit_test(test_cube_ascii_stl),
        cmocka_unit_test(test_cube_obj_quads),
        cmocka_unit_test(test_cube_off),
        cmocka_unit_test(test_z_up_moves_centroid),
        cmocka_unit_test(test_two_cubes_two_components),
        cmocka_unit_test(test_bourg_boat),
        cmocka_unit_test(test_binary_stl_truncated),
        cmocka_unit_test(test_binary_stl_count_lies),
        cmocka_unit_test(test_binary_stl_nan),
        cmocka_unit_test(test_ascii_stl_errors),
        cmocka_unit_test(test_ascii_stl_tolerated),
        cmocka_unit_test(test_obj_nan),
        cmocka_unit_test(test_obj_face_index_errors),
        cmocka_unit_test(test_obj_polygon_limits),
        cmocka_unit_test(test_off_nan),
        cmocka_unit_test(test_off_vertex_count_mismatch),
        cmocka_unit_test(test_off_other_errors),
        cmocka_unit_test(test_off_tolerated),
        cmocka_unit_test(test_text_format_details),
        cmocka_unit_test(test_empty_files),
        cmocka_unit_test(test_open_mesh),
        cmocka_unit_test(test_inconsistent_winding),
        cmocka_unit_test(test_inside_out),
        cmocka_unit_test(test_unknown_extension),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_binary_stl_large),
    };
    return cmocka_run_group_tests(tests, setup_tmpdir, teardown_tmpdir);
}
