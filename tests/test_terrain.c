// SPDX-License-Identifier: MIT
/* The terrain heightfield: bilinear sampling reproduces a plane exactly
 * and a saddle's closed form, its normal is the surface's; a 16-bit PNG
 * written here reads back with 0 -> min and 65535 -> max; every bad input
 * (missing, not a PNG, truncated, 8-bit, colour, reversed or NaN
 * elevations) is refused with an error naming it. */
#include <math.h>
#include <png.h>
#include <unistd.h>

#include "naval/terrain.h"
#include "test_png.h"
#include "test_util.h"

static nv_terrain_spec spec_of(double x0, double z0, double cell, double lo, double hi) {
    nv_terrain_spec s = {x0, z0, cell, lo, hi};
    return s;
}

/* A plane h = a + b x + c z on a 7 x 5 grid: bilinear interpolation of a
 * plane is the plane, and its normal is (-b, 1, -c) normalised. */
static void plane_is_reproduced(void** state) {
    (void)state;
    const double a = -12.0, b = 0.25, c = -0.125, x0 = -30.0, z0 = 40.0, cell = 10.0;
    float e[7 * 5];
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 7; i++) e[j * 7 + i] = (float)(a + b * (x0 + i * cell) + c * (z0 + j * cell));
    nv_terrain_spec s = spec_of(x0, z0, cell, -100.0, 100.0);
    nv_terrain* t;
    nv_error err;
    ASSERT_OK(nv_terrain_create(&t, 7, 5, e, &s, &err), err);
    const nv_vec3 want = v3_normalize(v3(-b, 1.0, -c));
    for (double x = x0; x <= x0 + 60.0; x += 3.7)
        for (double z = z0; z <= z0 + 40.0; z += 2.9) {
            nv_vec3 n;
            double h = nv_terrain_sample(t, x, z, &n);
            ASSERT_NEAR_ABS(h, a + b * x + c * z, 1e-5); /* float nodes */
            ASSERT_NEAR_ABS(n.x, want.x, 1e-6);
            ASSERT_NEAR_ABS(n.y, want.y, 1e-6);
            ASSERT_NEAR_ABS(n.z, want.z, 1e-6);
        }
    /* the far edges belong to the grid, one step beyond is open sea */
    ASSERT_NEAR_ABS(nv_terrain_elevation(t, x0 + 60.0, z0 + 40.0), a + b * (x0 + 60.0) + c * (z0 + 40.0), 1e-5);
    assert_true(nv_terrain_elevation(t, x0 + 60.001, z0) == TERRAIN_DEEP);
    assert_true(nv_terrain_elevation(t, x0, z0 - 0.001) == TERRAIN_DEEP);
    nv_vec3 n;
    assert_true(nv_terrain_sample(t, 1e9, 0.0, &n) == TERRAIN_DEEP);
    assert_true(n.x == 0.0 && n.y == 1.0 && n.z == 0.0);
    nv_terrain_destroy(t);
}

/* One cell holding a saddle: corners 0, 0, 0, 1 (at (1,1)) give h = u v. */
static void bilinear_saddle(void** state) {
    (void)state;
    const float e[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    nv_terrain_spec s = spec_of(0.0, 0.0, 2.0, 0.0, 1.0);
    nv_terrain* t;
    nv_error err;
    ASSERT_OK(nv_terrain_create(&t, 2, 2, e, &s, &err), err);
    for (double x = 0.0; x <= 2.0; x += 0.25)
        for (double z = 0.0; z <= 2.0; z += 0.25) {
            nv_vec3 n;
            double u = x / 2.0, v = z / 2.0;
            ASSERT_NEAR_ABS(nv_terrain_sample(t, x, z, &n), u * v, 1e-12);
            nv_vec3 want = v3_normalize(v3(-v / 2.0, 1.0, -u / 2.0)); /* dh/dx = v / cell, dh/dz = u / cell */
            ASSERT_NEAR_ABS(n.x, want.x, 1e-12);
            ASSERT_NEAR_ABS(n.z, want.z, 1e-12);
        }
    nv_terrain_destroy(t);
}

/* The footprint bound: over random rectangles of a random 37 x 29 grid it
 * is never below the highest sample inside (a dense brute force), never
 * above the highest node of the blocks touched, and it is TERRAIN_DEEP
 * all outside the grid. */
static void max_bounds_the_footprint(void** state) {
    (void)state;
    enum { NX = 37, NZ = 29 };
    float e[NX * NZ];
    uint64_t seed = 12345;
    for (int k = 0; k < NX * NZ; k++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        e[k] = (float)((double)(seed >> 11) / 9007199254740992.0 * 40.0 - 30.0);
    }
    const double x0 = 100.0, z0 = -50.0, cell = 3.0;
    nv_terrain_spec s = spec_of(x0, z0, cell, -30.0, 10.0);
    nv_terrain* t;
    nv_error err;
    ASSERT_OK(nv_terrain_create(&t, NX, NZ, e, &s, &err), err);
    float top = -INFINITY;
    for (int k = 0; k < NX * NZ; k++) top = fmaxf(top, e[k]);
    for (int trial = 0; trial < 300; trial++) {
        double r[4];
        for (int q = 0; q < 4; q++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            r[q] = (double)(seed >> 11) / 9007199254740992.0;
        }
        double ax = x0 - 20.0 + r[0] * (NX * cell + 40.0), az = z0 - 20.0 + r[1] * (NZ * cell + 40.0);
        double bx = ax + r[2] * 30.0, bz = az + r[3] * 30.0;
        double bound = nv_terrain_max_in(t, ax, az, bx, bz), seen = -INFINITY;
        for (int a = 0; a <= 40; a++)
            for (int b = 0; b <= 40; b++)
                seen = fmax(seen, nv_terrain_elevation(t, ax + (bx - ax) * a / 40.0, az + (bz - az) * b / 40.0));
        assert_true(bound >= seen);
        assert_true(bound <= top);
    }
    /* inside one block of a plane tilted up along x, the bound is that block's highest node */
    assert_true(nv_terrain_max_in(t, x0 - 90.0, z0, x0 - 10.0, z0 + 5.0) == TERRAIN_DEEP);
    assert_true(nv_terrain_max_in(t, x0 + 1e6, z0, x0 + 2e6, z0 + 5.0) == TERRAIN_DEEP);
    nv_terrain_destroy(t);
    float p[NX * NZ];
    for (int j = 0; j < NZ; j++)
        for (int i = 0; i < NX; i++) p[j * NX + i] = (float)(i * 0.5 - 10.0);
    ASSERT_OK(nv_terrain_create(&t, NX, NZ, p, &s, &err), err);
    /* cells 1..2 lie in the first block (nodes 0..8): its highest node is i = 8 */
    ASSERT_NEAR_ABS(nv_terrain_max_in(t, x0 + 1.0 * cell, z0 + cell, x0 + 2.5 * cell, z0 + 2.0 * cell), -6.0, 1e-6);
    /* the last cells: the grid's highest node, i = 36 */
    ASSERT_NEAR_ABS(nv_terrain_max_in(t, x0 + 34.5 * cell, z0, x0 + 35.5 * cell, z0 + cell), 8.0, 1e-6);
    nv_terrain_destroy(t);
}

#define WRITE_PNG(...) assert_int_equal(test_write_png(__VA_ARGS__), 0)

static unsigned ramp(int i, int j) { return i == 0 && j == 0 ? 0u : (i == 3 && j == 2 ? 65535u : (unsigned)(i * 1000 + j * 7)); }

static void png_reads_back(void** state) {
    (void)state;
    char path[] = "/tmp/naval_terrain_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    WRITE_PNG(path, 4, 3, 16, PNG_COLOR_TYPE_GRAY, ramp);
    nv_terrain_spec s = spec_of(100.0, -50.0, 5.0, -40.0, 25.0);
    nv_terrain* t;
    nv_error err;
    ASSERT_OK(nv_terrain_load_png(&t, path, &s, &err), err);
    uint32_t nx, nz;
    nv_terrain_size(t, &nx, &nz);
    assert_int_equal(nx, 4);
    assert_int_equal(nz, 3);
    const double step = (25.0 - -40.0) / 65535.0;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 4; i++)
            ASSERT_NEAR_ABS(nv_terrain_elevation(t, 100.0 + 5.0 * i, -50.0 + 5.0 * j), -40.0 + ramp(i, j) * step, 1e-5);
    ASSERT_NEAR_ABS(nv_terrain_elevation(t, 100.0, -50.0), -40.0, 1e-6);
    ASSERT_NEAR_ABS(nv_terrain_elevation(t, 115.0, -40.0), 25.0, 1e-6);
    nv_terrain_destroy(t);
    unlink(path);
}

static unsigned flat(int i, int j) { return (unsigned)(i + j) * 100u; }

/* The call fails with that code and a message holding that text. */
#define ASSERT_REFUSED(call, err, code_, text)                                                              \
    do {                                                                                                    \
        assert_int_equal((call), -1);                                                                       \
        assert_int_equal((err).code, (code_));                                                              \
        if (!strstr((err).message, (text))) fail_msg("expected \"%s\" in \"%s\"", (text), (err).message); \
    } while (0)

static void bad_input_is_named(void** state) {
    (void)state;
    char path[] = "/tmp/naval_terrain_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    nv_terrain_spec s = spec_of(0.0, 0.0, 1.0, -10.0, 10.0);
    nv_terrain* t = NULL;
    nv_error err;
    ASSERT_REFUSED(nv_terrain_load_png(&t, "/nonexistent/map.png", &s, &err), err, NV_ENOENT, "/nonexistent/map.png");
    assert_null(t);
    /* not a PNG */
    FILE* f = fopen(path, "wb");
    fputs("P5 not a png at all", f);
    fclose(f);
    ASSERT_REFUSED(nv_terrain_load_png(&t, path, &s, &err), err, NV_EPROTO, "not a PNG");
    /* 8-bit gray and 16-bit RGB: the depth and type are named */
    WRITE_PNG(path, 4, 4, 8, PNG_COLOR_TYPE_GRAY, flat);
    ASSERT_REFUSED(nv_terrain_load_png(&t, path, &s, &err), err, NV_EINVAL, "16-bit grayscale (this one is 8-bit");
    WRITE_PNG(path, 4, 4, 16, PNG_COLOR_TYPE_RGB, flat);
    ASSERT_REFUSED(nv_terrain_load_png(&t, path, &s, &err), err, NV_EINVAL, "colour type 2");
    /* truncated in the middle of its image data */
    WRITE_PNG(path, 64, 64, 16, PNG_COLOR_TYPE_GRAY, flat);
    f = fopen(path, "rb+");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    assert_int_equal(truncate(path, size / 2), 0);
    ASSERT_REFUSED(nv_terrain_load_png(&t, path, &s, &err), err, NV_EPROTO, "unreadable PNG");
    assert_null(t);
    /* the spec: reversed and NaN elevations, a zero cell */
    WRITE_PNG(path, 4, 4, 16, PNG_COLOR_TYPE_GRAY, flat);
    nv_terrain_spec bad = spec_of(0.0, 0.0, 1.0, 10.0, -10.0);
    ASSERT_REFUSED(nv_terrain_load_png(&t, path, &bad, &err), err, NV_EINVAL, "max_elevation");
    bad = spec_of(0.0, 0.0, 1.0, NAN, 10.0);
    ASSERT_REFUSED(nv_terrain_load_png(&t, path, &bad, &err), err, NV_EINVAL, "min_elevation: must be in [-11000, 9000] m (got nan)");
    bad = spec_of(0.0, 0.0, 0.0, -1.0, 1.0);
    ASSERT_REFUSED(nv_terrain_load_png(&t, path, &bad, &err), err, NV_EINVAL, "cell_size");
    /* heights given directly must lie within the spec's range */
    const float e[4] = {0.0f, 1.0f, 2.0f, 30.0f};
    ASSERT_REFUSED(nv_terrain_create(&t, 2, 2, e, &s, &err), err, NV_EINVAL, "node (1, 1) is 30 m");
    ASSERT_REFUSED(nv_terrain_create(&t, 1, 2, e, &s, &err), err, NV_EINVAL, "1 x 2 nodes");
    unlink(path);
}

/* builtin:harbour holds what its comment promises: the island's top, the
 * 1:10 beach through the shoreline on its -z side, the quay and jetty 2 m
 * out of the water with deep water beside them, the sea floor. */
static void harbour_has_its_features(void** state) {
    (void)state;
    nv_terrain* t;
    nv_error err;
    ASSERT_OK(nv_terrain_builtin("harbour", &t, &err), err);
    ASSERT_NEAR_ABS(nv_terrain_elevation(t, -60.0, 0.0), 25.0, 1e-4);
    /* the beach: straight toward -z from the island's centre (-60, 0) */
    for (double d = -30.0; d <= 60.0; d += 10.0) {
        double z = -140.0 - d;
        ASSERT_NEAR_ABS(nv_terrain_elevation(t, -60.0, z), -d / 10.0, 0.02);
    }
    ASSERT_NEAR_ABS(nv_terrain_elevation(t, 80.0, -40.0), 2.0, 1e-6);   /* the quay */
    ASSERT_NEAR_ABS(nv_terrain_elevation(t, 150.0, 14.0), 2.0, 1e-6);   /* the jetty */
    ASSERT_NEAR_ABS(nv_terrain_elevation(t, 150.0, 40.0), -9.0, 1e-6);  /* the basin beside it */
    ASSERT_NEAR_ABS(nv_terrain_elevation(t, 110.0, -40.0), -9.0, 1e-6); /* off the quay's face */
    ASSERT_NEAR_ABS(nv_terrain_elevation(t, 200.0, 250.0), -30.0, 1e-6);
    assert_true(nv_terrain_elevation(t, 400.0, 0.0) == TERRAIN_DEEP);
    nv_terrain_destroy(t);
    assert_int_equal(nv_terrain_builtin("atoll", &t, &err), -1);
    assert_null(t);
    assert_non_null(strstr(err.message, "atoll"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plane_is_reproduced),      cmocka_unit_test(bilinear_saddle),
        cmocka_unit_test(max_bounds_the_footprint), cmocka_unit_test(harbour_has_its_features),
        cmocka_unit_test(png_reads_back),           cmocka_unit_test(bad_input_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
