// SPDX-License-Identifier: MIT
/* mesh.c: storage, weld, degenerate removal, validation, volume, finish. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "naval/mesh.h"

/* cmocka 1.1 compares floats only as float; these checks need doubles. */
#define assert_near(a, b, tol)                                                                                         \
    do {                                                                                                               \
        double a_ = (a), b_ = (b);                                                                                     \
        if (!(fabs(a_ - b_) <= (tol))) fail_msg("%s = %.17g, expected %.17g +- %g", #a, a_, b_, (double)(tol));        \
    } while (0)

/* Bourg's sample cube (z-up, edge 2, z in [0, 2]), counter-clockwise seen
 * from outside: volume 8. */
static const float cube_vertices[8][3] = {
    {-1, -1, 0}, {-1, -1, 2}, {1, -1, 0}, {1, -1, 2}, {-1, 1, 0}, {1, 1, 0}, {1, 1, 2}, {-1, 1, 2},
};
static const uint32_t cube_faces[12][3] = {
    {2, 3, 1}, {2, 1, 0}, {4, 5, 2}, {4, 2, 0}, {6, 3, 2}, {6, 2, 5},
    {6, 7, 1}, {6, 1, 3}, {6, 5, 4}, {6, 4, 7}, {1, 7, 4}, {1, 4, 0},
};

static void add_cube(nv_mesh* m, float dx, float dy, float dz, int skip_face) {
    nv_error err;
    uint32_t base = m->vertex_count;
    for (int i = 0; i < 8; i++)
        assert_int_equal(
            nv_mesh_add_vertex(m, cube_vertices[i][0] + dx, cube_vertices[i][1] + dy, cube_vertices[i][2] + dz, &err),
            0);
    for (int t = 0; t < 12; t++)
        if (t != skip_face)
            assert_int_equal(nv_mesh_add_triangle(m, base + cube_faces[t][0], base + cube_faces[t][1],
                                                  base + cube_faces[t][2], &err),
                             0);
}

static void make_cube(nv_mesh* m) {
    nv_mesh_init(m);
    add_cube(m, 0, 0, 0, -1);
}

/* The cube as an STL stores it: three fresh vertices per triangle. */
static void make_cube_soup(nv_mesh* m) {
    nv_error err;
    nv_mesh_init(m);
    for (uint32_t t = 0; t < 12; t++) {
        for (int k = 0; k < 3; k++) {
            const float* p = cube_vertices[cube_faces[t][k]];
            assert_int_equal(nv_mesh_add_vertex(m, p[0], p[1], p[2], &err), 0);
        }
        assert_int_equal(nv_mesh_add_triangle(m, 3 * t, 3 * t + 1, 3 * t + 2, &err), 0);
    }
}

static void test_options_default(void** state) {
    (void)state;
    nv_mesh_options o = nv_mesh_options_default();
    assert_int_equal(o.up, 'y');
    assert_int_equal(o.max_triangles, 1000000u);
    assert_false(o.flip_inside_out);
}

static void test_storage_grows_and_checks_indices(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_init(&m);
    assert_null(m.positions);
    assert_int_equal(nv_mesh_reserve(&m, 10, 5, &err), 0);
    assert_true(m.vertex_capacity >= 10);
    assert_true(m.triangle_capacity >= 5);
    for (int i = 0; i < 1000; i++) assert_int_equal(nv_mesh_add_vertex(&m, (float)i, 0.5f, -(float)i, &err), 0);
    assert_int_equal(m.vertex_count, 1000);
    assert_true(m.positions[3 * 999] == 999.0f && m.positions[3 * 999 + 2] == -999.0f);
    for (uint32_t i = 0; i + 2 < 1000; i++) assert_int_equal(nv_mesh_add_triangle(&m, i, i + 1, i + 2, &err), 0);
    assert_int_equal(m.triangle_count, 998);
    assert_int_equal(nv_mesh_add_triangle(&m, 0, 1, 1000, &err), -1);
    assert_non_null(strstr(err.message, "triangle 998 (0, 1, 1000) uses a vertex index beyond the 1000 vertices"));
    nv_mesh_free(&m);
    assert_null(m.positions);
    assert_null(m.indices);
    assert_int_equal(m.vertex_count, 0);
    assert_int_equal(m.triangle_capacity, 0);
}

static void test_convert_z_up(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_init(&m);
    assert_int_equal(nv_mesh_add_vertex(&m, 1.0f, 2.0f, 3.0f, &err), 0);
    nv_mesh_convert_z_up(&m);
    assert_true(m.positions[0] == 1.0f && m.positions[1] == 3.0f && m.positions[2] == -2.0f);
    nv_mesh_free(&m);
}

static void test_weld_keeps_first_occurrence_order(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_init(&m);
    /* 0: A, 1: B, 2: A again, 3: C, 4: B with -0 for +0, 5: almost A */
    assert_int_equal(nv_mesh_add_vertex(&m, 5.0f, 1.0f, 0.0f, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, 0.0f, 2.0f, 0.0f, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, 5.0f, 1.0f, 0.0f, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, -3.0f, 1.0f, 7.0f, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, -0.0f, 2.0f, -0.0f, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, nextafterf(5.0f, 6.0f), 1.0f, 0.0f, &err), 0);
    assert_int_equal(nv_mesh_add_triangle(&m, 2, 4, 3, &err), 0);
    assert_int_equal(nv_mesh_add_triangle(&m, 5, 0, 1, &err), 0);
    uint32_t removed = 99;
    nv_mesh_weld(&m, &removed);
    assert_int_equal(removed, 2);
    assert_int_equal(m.vertex_count, 4);
    const float expect[4][3] = {{5, 1, 0}, {0, 2, 0}, {-3, 1, 7}, {nextafterf(5.0f, 6.0f), 1, 0}};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++) assert_true(m.positions[3 * i + k] == expect[i][k]);
    const uint32_t idx[6] = {0, 1, 2, 3, 0, 1};
    for (int i = 0; i < 6; i++) assert_int_equal(m.indices[i], idx[i]);
    nv_mesh_free(&m);
}

/* Each face of a box gets its own (n+1)^2 grid, as a face-by-face exporter
 * writes it, at coordinates whose bit patterns differ in every radix digit. */
static void make_grid_box(nv_mesh* m, int n) {
    nv_error err;
    nv_mesh_init(m);
    for (int axis = 0; axis < 3; axis++)
        for (int side = 0; side < 2; side++) {
            int u = (axis + 1) % 3, v = (axis + 2) % 3;
            uint32_t base = m->vertex_count;
            for (int j = 0; j <= n; j++)
                for (int i = 0; i <= n; i++) {
                    float p[3];
                    p[axis] = side ? 1.0f : 0.0f;
                    p[u] = (float)i / (float)n;
                    p[v] = (float)j / (float)n;
                    assert_int_equal(
                        nv_mesh_add_vertex(m, 1000.0f + 3.7f * p[0], -20.0f + 1.3f * p[1], 0.01f * p[2], &err), 0);
                }
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    uint32_t a = base + (uint32_t)(j * (n + 1) + i), b = a + 1, c = a + (uint32_t)n + 2,
                             d = a + (uint32_t)n + 1;
                    /* (u, v, axis) is right-handed: u x v points along +axis. */
                    if (side) {
                        assert_int_equal(nv_mesh_add_triangle(m, a, b, c, &err), 0);
                        assert_int_equal(nv_mesh_add_triangle(m, a, c, d, &err), 0);
                    } else {
                        assert_int_equal(nv_mesh_add_triangle(m, a, c, b, &err), 0);
                        assert_int_equal(nv_mesh_add_triangle(m, a, d, c, &err), 0);
                    }
                }
        }
}

static void test_weld_large_grid_box(void** state) {
    (void)state;
    const int n = 60;
    nv_mesh m, again;
    nv_error err;
    make_grid_box(&m, n);
    make_grid_box(&again, n);
    uint32_t removed = 0, removed_again = 0;
    nv_mesh_weld(&m, &removed);
    nv_mesh_weld(&again, &removed_again);
    uint32_t unique = (uint32_t)(6 * n * n + 2);
    assert_int_equal(m.vertex_count, unique);
    assert_int_equal(removed, 6u * (uint32_t)((n + 1) * (n + 1)) - unique);
    /* Deterministic: the same input welds to the same bytes. */
    assert_int_equal(removed_again, removed);
    assert_memory_equal(m.positions, again.positions, (size_t)m.vertex_count * 3 * sizeof(float));
    assert_memory_equal(m.indices, again.indices, (size_t)m.triangle_count * 3 * sizeof(uint32_t));
    assert_int_equal(nv_mesh_validate_closed(&m, &err), 0);
    assert_int_equal(nv_mesh_count_components(&m), 1);
    assert_near(nv_mesh_signed_volume(&m), 3.7 * 1.3 * 0.01, 1e-6);
    nv_mesh_free(&m);
    nv_mesh_free(&again);
}

/* Enough distinct positions that some share a 32-bit hash (about eight
 * pairs expected), each repeated: exactly the repeats must go, and the
 * survivors stay in first-occurrence order. */
static void test_weld_many_points(void** state) {
    (void)state;
    const uint32_t side = 64, count = side * side * side;
    nv_mesh m;
    nv_error err;
    nv_mesh_init(&m);
    assert_int_equal(nv_mesh_reserve(&m, 2 * count, 0, &err), 0);
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t n = 0; n < count; n++) {
            uint32_t q = pass ? count - 1 - n : n;
            float x = (float)(q % side) * 0.37f, y = (float)(q / side % side) * 1.1f - 5.0f,
                  z = (float)(q / side / side) * 3e-3f;
            assert_int_equal(nv_mesh_add_vertex(&m, x, y, z, &err), 0);
        }
    float* first = malloc((size_t)count * 3 * sizeof *first);
    assert_non_null(first);
    memcpy(first, m.positions, (size_t)count * 3 * sizeof *first);
    uint32_t removed = 0;
    nv_mesh_weld(&m, &removed);
    assert_int_equal(removed, count);
    assert_int_equal(m.vertex_count, count);
    assert_memory_equal(m.positions, first, (size_t)count * 3 * sizeof *first);
    free(first);
    nv_mesh_free(&m);
}

static void test_drop_degenerate_keeps_zero_area(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_init(&m);
    assert_int_equal(nv_mesh_add_vertex(&m, 0, 0, 0, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, 1, 0, 0, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, 0, 1, 0, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, 2, 0, 0, &err), 0); /* collinear with 0 and 1 */
    assert_int_equal(nv_mesh_add_triangle(&m, 0, 1, 2, &err), 0);
    assert_int_equal(nv_mesh_add_triangle(&m, 0, 0, 1, &err), 0);
    assert_int_equal(nv_mesh_add_triangle(&m, 1, 2, 1, &err), 0);
    assert_int_equal(nv_mesh_add_triangle(&m, 0, 1, 3, &err), 0); /* zero area, three distinct vertices */
    assert_int_equal(nv_mesh_add_triangle(&m, 2, 2, 2, &err), 0);
    uint32_t dropped = 0;
    nv_mesh_drop_degenerate(&m, &dropped);
    assert_int_equal(dropped, 3);
    assert_int_equal(m.triangle_count, 2);
    const uint32_t idx[6] = {0, 1, 2, 0, 1, 3};
    for (int i = 0; i < 6; i++) assert_int_equal(m.indices[i], idx[i]);
    nv_mesh_free(&m);
}

static void test_drop_unused_vertices(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_init(&m);
    for (int i = 0; i < 5; i++) assert_int_equal(nv_mesh_add_vertex(&m, (float)i, 0, 0, &err), 0);
    assert_int_equal(nv_mesh_add_triangle(&m, 4, 1, 3, &err), 0);
    uint32_t removed = 0;
    nv_mesh_drop_unused(&m, &removed);
    assert_int_equal(removed, 2);
    assert_int_equal(m.vertex_count, 3);
    assert_true(m.positions[0] == 1.0f && m.positions[3] == 3.0f && m.positions[6] == 4.0f);
    assert_int_equal(m.indices[0], 2);
    assert_int_equal(m.indices[1], 0);
    assert_int_equal(m.indices[2], 1);
    nv_mesh_free(&m);
}

static void test_validate_closed_cube(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    make_cube(&m);
    assert_int_equal(nv_mesh_validate_closed(&m, &err), 0);
    nv_mesh_free(&m);
}

static void test_validate_open_mesh(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_init(&m);
    add_cube(&m, 0, 0, 0, 11); /* without triangle (1, 4, 0) */
    assert_int_equal(nv_mesh_validate_closed(&m, &err), -1);
    assert_string_equal(err.message,
                        "open mesh: edge between vertex 1 (-1, -1, 2) and vertex 0 (-1, -1, 0) belongs to "
                        "triangle 1 only (and 2 more bad edges)");
    nv_mesh_free(&m);
}

static void test_validate_inconsistent_winding(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    make_cube(&m);
    m.indices[1] = 1; /* triangle 0: (2, 3, 1) -> (2, 1, 3) */
    m.indices[2] = 3;
    assert_int_equal(nv_mesh_validate_closed(&m, &err), -1);
    assert_non_null(strstr(err.message,
                           "inconsistent winding: triangles 0 and 1 both run from vertex 2 (1, -1, 0) to "
                           "vertex 1 (-1, -1, 2)"));
    assert_non_null(strstr(err.message, "(and 2 more bad edges)"));
    nv_mesh_free(&m);
}

static void test_validate_non_manifold(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    make_cube(&m);
    assert_int_equal(nv_mesh_add_vertex(&m, 3, -1, 1, &err), 0);
    assert_int_equal(nv_mesh_add_triangle(&m, 2, 3, 8, &err), 0); /* a fin on edge 2-3 */
    assert_int_equal(nv_mesh_validate_closed(&m, &err), -1);
    assert_non_null(strstr(err.message,
                           "non-manifold edge: edge between vertex 2 (1, -1, 0) and vertex 3 (1, -1, 2) "
                           "is used by 3 triangles (0, 4, 12)"));
    nv_mesh_free(&m);
}

/* Six triangles on one edge: the message lists the first few. */
static void test_validate_non_manifold_book(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_init(&m);
    assert_int_equal(nv_mesh_add_vertex(&m, 0, 0, 0, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, 0, 1, 0, &err), 0);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(nv_mesh_add_vertex(&m, cosf((float)i), 0.5f, sinf((float)i), &err), 0);
        assert_int_equal(nv_mesh_add_triangle(&m, 0, 1, 2 + (uint32_t)i, &err), 0);
    }
    assert_int_equal(nv_mesh_validate_closed(&m, &err), -1);
    assert_non_null(strstr(err.message,
                           "non-manifold edge: edge between vertex 0 (0, 0, 0) and vertex 1 (0, 1, 0) is "
                           "used by 6 triangles (0, 1, 2, 3, ...)"));
    nv_mesh_free(&m);
}

/* A double cone whose apexes each carry 48 triangles: the edge grouping
 * takes its n log n path for such fans. */
static void test_validate_high_degree_vertex(void** state) {
    (void)state;
    const uint32_t n = 48;
    nv_mesh m;
    nv_error err;
    nv_mesh_report report;
    nv_mesh_init(&m);
    assert_int_equal(nv_mesh_add_vertex(&m, 0, 1, 0, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, 0, -1, 0, &err), 0);
    for (uint32_t i = 0; i < n; i++) {
        double a = 2.0 * 3.14159265358979323846 * i / n;
        assert_int_equal(nv_mesh_add_vertex(&m, (float)cos(a), 0, (float)sin(a), &err), 0);
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r0 = 2 + i, r1 = 2 + (i + 1) % n;
        assert_int_equal(nv_mesh_add_triangle(&m, 0, r1, r0, &err), 0);
        assert_int_equal(nv_mesh_add_triangle(&m, 1, r0, r1, &err), 0);
    }
    assert_int_equal(nv_mesh_validate_closed(&m, &err), 0);
    assert_int_equal(nv_mesh_count_components(&m), 1);
    assert_int_equal(nv_mesh_finish(&m, NULL, "cone", &report, &err), 0);
    assert_false(report.flipped);
    assert_true(nv_mesh_signed_volume(&m) > 2.0 / 3.0 * 0.99 * 3.14159265358979323846 * 0.99);
    nv_mesh_free(&m);
}

static void test_validate_bad_vertices(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    make_cube(&m);
    m.positions[3 * 5 + 1] = NAN;
    assert_int_equal(nv_mesh_validate_closed(&m, &err), -1);
    assert_non_null(strstr(err.message, "vertex 5 has a non-finite coordinate (1, nan, 0)"));
    m.positions[3 * 5 + 1] = 1.0f;
    m.indices[7] = 42;
    assert_int_equal(nv_mesh_validate_closed(&m, &err), -1);
    assert_string_equal(err.message, "triangle 2 uses vertex index 42, but the mesh has 8 vertices");
    m.indices[7] = 4;
    assert_int_equal(nv_mesh_validate_closed(&m, &err), -1);
    assert_string_equal(err.message, "triangle 2 (4, 4, 2) uses a vertex twice");
    nv_mesh_free(&m);
}

static void test_count_components(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    make_cube(&m);
    assert_int_equal(nv_mesh_count_components(&m), 1);
    add_cube(&m, 5, 0, 0, -1);
    assert_int_equal(nv_mesh_count_components(&m), 2);
    assert_int_equal(nv_mesh_validate_closed(&m, &err), 0);
    nv_mesh_free(&m);

    /* Two cubes touching at one corner: vertex-connected, not edge-connected. */
    make_cube(&m);
    add_cube(&m, 2, 2, 2, -1);
    uint32_t removed = 0;
    nv_mesh_weld(&m, &removed);
    assert_int_equal(removed, 1);
    assert_int_equal(nv_mesh_validate_closed(&m, &err), 0);
    assert_int_equal(nv_mesh_count_components(&m), 2);
    nv_mesh_free(&m);

    nv_mesh_init(&m);
    assert_int_equal(nv_mesh_count_components(&m), 0);

    make_cube(&m);
    m.indices[5] = 8; /* out of range: no answer rather than a wild read */
    assert_int_equal(nv_mesh_count_components(&m), 0);
    nv_mesh_free(&m);
}

static void test_volume_flip_bounds(void** state) {
    (void)state;
    nv_mesh m;
    make_cube(&m);
    assert_near(nv_mesh_signed_volume(&m), 8.0, 1e-12);
    nv_mesh_flip(&m);
    assert_near(nv_mesh_signed_volume(&m), -8.0, 1e-12);
    assert_int_equal(m.indices[0], 2);
    assert_int_equal(m.indices[1], 1);
    assert_int_equal(m.indices[2], 3);
    float lo[3], hi[3];
    nv_mesh_bounds(&m, lo, hi);
    assert_true(lo[0] == -1.0f && lo[1] == -1.0f && lo[2] == 0.0f);
    assert_true(hi[0] == 1.0f && hi[1] == 1.0f && hi[2] == 2.0f);
    nv_mesh_free(&m);
    nv_mesh_init(&m);
    nv_mesh_bounds(&m, lo, hi);
    assert_true(lo[0] == 0.0f && hi[2] == 0.0f);
    assert_near(nv_mesh_signed_volume(&m), 0.0, 0.0);
    /* Far from the origin the volume must not drown in rounding. */
    nv_mesh_init(&m);
    add_cube(&m, 4096.0f, 4096.0f, 4096.0f, -1);
    assert_near(nv_mesh_signed_volume(&m), 8.0, 1e-9);
    nv_mesh_free(&m);
}

static void test_finish_report(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_report report;
    nv_mesh_options opts = nv_mesh_options_default();
    make_cube_soup(&m);
    assert_int_equal(nv_mesh_add_vertex(&m, 9, 9, 9, &err), 0);   /* unused */
    assert_int_equal(nv_mesh_add_triangle(&m, 0, 3, 3, &err), 0); /* degenerate once welded */
    assert_int_equal(nv_mesh_finish(&m, &opts, "soup", &report, &err), 0);
    assert_int_equal(report.input_triangles, 13);
    assert_int_equal(report.welded_vertices, 28);
    assert_int_equal(report.dropped_triangles, 1);
    assert_int_equal(report.unused_vertices, 1);
    assert_int_equal(report.components, 1);
    assert_false(report.flipped);
    assert_int_equal(m.vertex_count, 8);
    assert_int_equal(m.triangle_count, 12);
    assert_near(nv_mesh_signed_volume(&m), 8.0, 1e-12);
    nv_mesh_free(&m);
}

/* After weld and removal the mesh is renumbered; messages still use the
 * input's numbers. */
static void test_finish_names_input_numbering(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_init(&m);
    /* triangle 0: degenerate once welded; its vertices end up unused */
    assert_int_equal(nv_mesh_add_vertex(&m, 5, 5, 5, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, 5, 5, 5, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, 6, 5, 5, &err), 0);
    assert_int_equal(nv_mesh_add_triangle(&m, 0, 1, 2, &err), 0);
    /* triangles 1..11: the cube as an STL soup, without its last face */
    for (uint32_t t = 0; t < 11; t++) {
        uint32_t base = m.vertex_count;
        for (int k = 0; k < 3; k++) {
            const float* p = cube_vertices[cube_faces[t][k]];
            assert_int_equal(nv_mesh_add_vertex(&m, p[0], p[1], p[2], &err), 0);
        }
        assert_int_equal(nv_mesh_add_triangle(&m, base, base + 1, base + 2, &err), 0);
    }
    assert_int_equal(nv_mesh_finish(&m, NULL, "soup", NULL, &err), -1);
    assert_string_equal(err.message,
                        "soup: open mesh: edge between vertex 5 (-1, -1, 2) and vertex 8 (-1, -1, 0) "
                        "belongs to triangle 2 only (and 2 more bad edges)");
    nv_mesh_free(&m);
}

static void test_finish_inside_out(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_report report;
    nv_mesh_options opts = nv_mesh_options_default();
    make_cube(&m);
    nv_mesh_flip(&m);
    assert_int_equal(nv_mesh_finish(&m, &opts, "cube", &report, &err), -1);
    assert_string_equal(err.message,
                        "cube: inside-out: total volume is -8.000 m^3 (triangles wind clockwise seen from "
                        "outside); use flip_inside_out (naval-hull --flip) to reverse them");
    nv_mesh_free(&m);

    make_cube(&m);
    nv_mesh_flip(&m);
    opts.flip_inside_out = true;
    assert_int_equal(nv_mesh_finish(&m, &opts, "cube", &report, &err), 0);
    assert_true(report.flipped);
    assert_near(nv_mesh_signed_volume(&m), 8.0, 1e-12);
    nv_mesh_free(&m);

    make_cube(&m);
    assert_int_equal(nv_mesh_finish(&m, &opts, "cube", &report, &err), 0);
    assert_false(report.flipped);
    nv_mesh_free(&m);
}

static void test_finish_zero_volume(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_init(&m);
    /* One triangle, both sides: closed and consistently wound, but empty. */
    assert_int_equal(nv_mesh_add_vertex(&m, 0, 0, 0, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, 1, 0, 0, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, 0, 1, 0, &err), 0);
    assert_int_equal(nv_mesh_add_triangle(&m, 0, 1, 2, &err), 0);
    assert_int_equal(nv_mesh_add_triangle(&m, 0, 2, 1, &err), 0);
    assert_int_equal(nv_mesh_validate_closed(&m, &err), 0);
    assert_int_equal(nv_mesh_finish(&m, NULL, "sheet", NULL, &err), -1);
    assert_non_null(strstr(err.message, "sheet: total volume is zero"));
    nv_mesh_free(&m);
}

static void test_finish_rejections(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_options opts = nv_mesh_options_default();
    opts.max_triangles = 11;
    make_cube(&m);
    assert_int_equal(nv_mesh_finish(&m, &opts, "cube", NULL, &err), -1);
    assert_string_equal(err.message, "cube: 12 triangles, more than the limit of 11 (max_triangles)");
    nv_mesh_free(&m);

    opts = nv_mesh_options_default();
    opts.up = 'x';
    make_cube(&m);
    assert_int_equal(nv_mesh_finish(&m, &opts, "cube", NULL, &err), -1);
    assert_string_equal(err.message, "cube: unknown up axis 'x' (use 'y' or 'z')");
    nv_mesh_free(&m);

    nv_mesh_init(&m);
    assert_int_equal(nv_mesh_finish(&m, NULL, "nothing", NULL, &err), -1);
    assert_string_equal(err.message, "nothing: no triangles");

    nv_mesh_init(&m);
    assert_int_equal(nv_mesh_add_vertex(&m, 0, 0, 0, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, -0.0f, 0, 0, &err), 0);
    assert_int_equal(nv_mesh_add_vertex(&m, 1, 0, 0, &err), 0);
    assert_int_equal(nv_mesh_add_triangle(&m, 0, 1, 2, &err), 0);
    assert_int_equal(nv_mesh_finish(&m, NULL, "needle", NULL, &err), -1);
    assert_string_equal(err.message, "needle: all 1 triangles are degenerate (each uses a vertex twice)");
    nv_mesh_free(&m);

    make_cube(&m);
    m.positions[4] = INFINITY;
    assert_int_equal(nv_mesh_finish(&m, NULL, "cube", NULL, &err), -1);
    assert_string_equal(err.message, "cube: vertex 1 has a non-finite coordinate (-1, inf, 2)");
    nv_mesh_free(&m);

    nv_mesh_init(&m);
    add_cube(&m, 0, 0, 0, 3);
    assert_int_equal(nv_mesh_finish(&m, NULL, "cube", NULL, &err), -1);
    assert_non_null(strstr(err.message, "cube: open mesh: edge between vertex "));
    nv_mesh_free(&m);
}

/* A T-junction closed by a zero-area sliver must survive nv_mesh_finish. */
static void test_finish_keeps_t_junction_sliver(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_report report;
    nv_mesh_init(&m);
    for (int i = 0; i < 8; i++)
        assert_int_equal(nv_mesh_add_vertex(&m, cube_vertices[i][0], cube_vertices[i][1], cube_vertices[i][2], &err),
                         0);
    assert_int_equal(nv_mesh_add_vertex(&m, 1, -1, 1, &err), 0); /* 8: middle of edge 2-3 */
    assert_int_equal(nv_mesh_add_triangle(&m, 2, 8, 1, &err), 0);
    assert_int_equal(nv_mesh_add_triangle(&m, 8, 3, 1, &err), 0);
    for (int t = 1; t < 12; t++)
        assert_int_equal(nv_mesh_add_triangle(&m, cube_faces[t][0], cube_faces[t][1], cube_faces[t][2], &err), 0);
    assert_int_equal(nv_mesh_add_triangle(&m, 3, 8, 2, &err), 0); /* the sliver */
    assert_int_equal(nv_mesh_finish(&m, NULL, "t", &report, &err), 0);
    assert_int_equal(report.dropped_triangles, 0);
    assert_int_equal(m.triangle_count, 14);
    assert_near(nv_mesh_signed_volume(&m), 8.0, 1e-12);
    nv_mesh_free(&m);
}

static void test_finish_z_up(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    nv_mesh_options opts = nv_mesh_options_default();
    opts.up = 'z';
    make_cube(&m);
    assert_int_equal(nv_mesh_finish(&m, &opts, "cube", NULL, &err), 0);
    float lo[3], hi[3];
    nv_mesh_bounds(&m, lo, hi);
    assert_true(lo[0] == -1.0f && lo[1] == 0.0f && lo[2] == -1.0f);
    assert_true(hi[0] == 1.0f && hi[1] == 2.0f && hi[2] == 1.0f);
    /* The conversion is a rotation: the winding stays outward. */
    assert_near(nv_mesh_signed_volume(&m), 8.0, 1e-12);
    nv_mesh_free(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options_default),
        cmocka_unit_test(test_storage_grows_and_checks_indices),
        cmocka_unit_test(test_convert_z_up),
        cmocka_unit_test(test_weld_keeps_first_occurrence_order),
        cmocka_unit_test(test_weld_large_grid_box),
        cmocka_unit_test(test_weld_many_points),
        cmocka_unit_test(test_drop_degenerate_keeps_zero_area),
        cmocka_unit_test(test_drop_unused_vertices),
        cmocka_unit_test(test_validate_closed_cube),
        cmocka_unit_test(test_validate_open_mesh),
        cmocka_unit_test(test_validate_inconsistent_winding),
        cmocka_unit_test(test_validate_non_manifold),
        cmocka_unit_test(test_validate_non_manifold_book),
        cmocka_unit_test(test_validate_high_degree_vertex),
        cmocka_unit_test(test_validate_bad_vertices),
        cmocka_unit_test(test_count_components),
        cmocka_unit_test(test_volume_flip_bounds),
        cmocka_unit_test(test_finish_report),
        cmocka_unit_test(test_finish_names_input_numbering),
        cmocka_unit_test(test_finish_inside_out),
        cmocka_unit_test(test_finish_zero_volume),
        cmocka_unit_test(test_finish_rejections),
        cmocka_unit_test(test_finish_keeps_t_junction_sliver),
        cmocka_unit_test(test_finish_z_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
