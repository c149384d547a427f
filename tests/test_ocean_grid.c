// SPDX-License-Identifier: MIT
/* The resampled choppy surface (ocean_params.surface_grid): its nodes
 * against the exact query, the bilinear error between nodes, the table
 * bit for bit whatever the job split and thread count, folds, the
 * origin-and-offsets query, and the parameter check. */
#include "test_ocean_util.h"

#include "naval/jobs.h"
#include "naval/simd.h"
#include "ocean_jobs.h"

/* A rough sea on a tile of whole-metre cells (512 m / 128 = 4 m): node
 * coordinates are exact in double and in the grid's float cells, so a
 * query at a node reads the table's value itself. */
static nv_ocean_params grid_params(void) {
    nv_ocean_params p = nv_ocean_params_default();
    p.cascades = 1;
    p.resolution = 128;
    p.size = 512.0;
    p.wind_speed = 12.0; /* JONSWAP, Hs ~2.4 m */
    p.choppiness = 1.0;
    p.surface_grid = 1;
    return p;
}

static double cell_of(const nv_ocean* o) {
    int nx;
    nv_ocean_resolution(o, &nx, NULL);
    return nv_ocean_cascade_size(o, 0) / nx;
}

static double cell_z_of(const nv_ocean* o) {
    int nz;
    nv_ocean_resolution(o, NULL, &nz);
    return nv_ocean_cascade_size(o, 0) / nz;
}

/* The table through the public query: heights and vertical velocities at
 * every node (x fastest). */
static void read_table(const nv_ocean* o, float* h, float* v) {
    int nx, nz;
    nv_ocean_resolution(o, &nx, &nz);
    const double cell = cell_of(o), cell_z = cell_z_of(o);
    size_t n = (size_t)nx * nz;
    double* x = malloc(n * sizeof *x);
    double* z = malloc(n * sizeof *z);
    assert_non_null(x);
    assert_non_null(z);
    for (int iz = 0; iz < nz; iz++)
        for (int ix = 0; ix < nx; ix++) {
            x[(size_t)iz * nx + ix] = ix * cell;
            z[(size_t)iz * nx + ix] = iz * cell_z;
        }
    nv_water_query q = {.count = n, .x = x, .z = z, .height = h, .vertical_velocity = v};
    assert_int_equal(nv_ocean_sample(o, &q), 0);
    free(x);
    free(z);
}

/* The largest |gradient| of a label field's bilinear interpolation: its
 * cell differences over the cell size (exact for bilinear cells). */
static double field_gradient(const nv_ocean* o, nv_ocean_field_id f) {
    int n;
    nv_ocean_resolution(o, &n, NULL);
    const double cell = cell_of(o);
    double g = 0.0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double a = grid(o, 0, f, i, j);
            double gx = (grid(o, 0, f, (i + 1) % n, j) - a) / cell, gz = (grid(o, 0, f, i, (j + 1) % n) - a) / cell;
            g = fmax(g, hypot(gx, gz));
        }
    return g;
}

/* Whether the surface near world (x, z) is unfolded: the labels around
 * where (x, z) came from (x0 ~ q - D(q), within a few cells) all have
 * J >= 0.5. Elsewhere two answers can both be right. */
static int unfolded_near(const nv_ocean* o, double x, double z) {
    int n;
    nv_ocean_resolution(o, &n, NULL);
    const double cell = cell_of(o);
    int i = (int)floor(x / cell), j = (int)floor(z / cell);
    i = ((i % n) + n) % n;
    j = ((j % n) + n) % n;
    int li = (int)lround(i - grid(o, 0, OCEAN_FIELD_DISP_X, i, j) / cell);
    int lj = (int)lround(j - grid(o, 0, OCEAN_FIELD_DISP_Z, i, j) / cell);
    for (int b = -2; b <= 2; b++)
        for (int a = -2; a <= 2; a++)
            if (grid(o, 0, OCEAN_FIELD_JACOBIAN, (((li + a) % n) + n) % n, (((lj + b) % n) + n) % n) < 0.5f) return 0;
    return 1;
}

static int cmp_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* Every node against the exact query at that point. Both answers are
 * labels whose displaced positions are within the tolerance of the node,
 * so they are at most 2 tol / sigma_min(J) apart in label space and their
 * heights at most that times the height's gradient G. With J >= 0.5 and
 * |J| <= 2 there, sigma_min >= 0.25: bound 8 tol G (2.5 mm here; measured
 * 0.7-0.85 mm over five seeds). A node one cell off is wrong by ~G cell,
 * about a metre. Vertical velocities: the same with dh/dt's gradient. */
static void test_nodes_match_exact(void** state) {
    (void)state;
    nv_ocean_params p = grid_params();
    for (int seed = 1; seed <= 2; seed++) {
        p.seed = (uint64_t)seed;
        nv_ocean* o = make(&p);
        nv_ocean_update(o, 10.0 * seed);
        int n;
        nv_ocean_resolution(o, &n, NULL);
        const size_t nodes = (size_t)n * n;
        const double cell = cell_of(o), tol = p.query_tolerance;
        float* h = malloc(nodes * sizeof *h);
        float* v = malloc(nodes * sizeof *v);
        float* he = malloc(nodes * sizeof *he);
        float* ve = malloc(nodes * sizeof *ve);
        double* x = malloc(nodes * sizeof *x);
        double* z = malloc(nodes * sizeof *z);
        assert_true(h && v && he && ve && x && z);
        read_table(o, h, v);
        for (size_t k = 0; k < nodes; k++) {
            x[k] = (double)(k % n) * cell;
            z[k] = (double)(k / n) * cell;
        }
        nv_water_query q = {.count = nodes, .x = x, .z = z, .height = he, .vertical_velocity = ve};
        assert_int_equal(nv_ocean_sample_exact(o, &q), 0);
        const double bound_h = 8.0 * tol * field_gradient(o, OCEAN_FIELD_HEIGHT);
        const double bound_v = 8.0 * tol * field_gradient(o, OCEAN_FIELD_VELOCITY_Y);
        double worst_h = 0.0, worst_v = 0.0, moved = 0.0;
        size_t used = 0;
        for (size_t k = 0; k < nodes; k++) {
            moved = fmax(moved, fabs(he[k] - grid(o, 0, OCEAN_FIELD_HEIGHT, (int)(k % n), (int)(k / n))));
            if (!unfolded_near(o, x[k], z[k])) continue;
            used++;
            worst_h = fmax(worst_h, fabs(h[k] - he[k]));
            worst_v = fmax(worst_v, fabs(v[k] - ve[k]));
        }
        print_message("seed %d: nodes %zu/%zu, max |dh| %.3f mm (bound %.3f), max |dv| %.3f mm/s (bound %.3f)\n",
                      seed, used, nodes, worst_h * 1e3, bound_h * 1e3, worst_v * 1e3, bound_v * 1e3);
        assert_true(used > nodes * 9 / 10);
        assert_true(worst_h <= bound_h);
        assert_true(worst_v <= bound_v);
        assert_true(moved > 0.3); /* the surface is choppy: labels' heights are not the answer */
        free(h);
        free(v);
        free(he);
        free(ve);
        free(x);
        free(z);
        nv_ocean_destroy(o);
    }
}

/* Between nodes the grid interpolates bilinearly: its error against the
 * exact query is that interpolation's, ~h''/8 cell^2 for waves a few cells
 * long. Measured over 20000 points at five seeds: p50 8.0-8.5 mm, p99 69-80
 * mm, max 145-208 mm. Bounds: p50 15 mm, p99 0.1 m, max 0.3 m. The labels'
 * heights at q (no inversion) fail them: p99 0.2-0.27 m. */
static void test_between_nodes(void** state) {
    (void)state;
    nv_ocean_params p = grid_params();
    nv_ocean* o = make(&p);
    nv_ocean_update(o, 10.0);
    enum { K = 8000 };
    double* x = malloc(K * sizeof *x);
    double* z = malloc(K * sizeof *z);
    float* hg = malloc(K * sizeof *hg);
    float* he = malloc(K * sizeof *he);
    float* ng = malloc(3 * K * sizeof *ng);
    double* err = malloc(K * sizeof *err);
    assert_true(x && z && hg && he && ng && err);
    uint64_t s = 12345;
    for (int k = 0; k < K; k++) { /* over three tiles each way: the wrap too */
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x[k] = (double)(s >> 11) / 9007199254740992.0 * 3.0 * p.size - p.size;
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        z[k] = (double)(s >> 11) / 9007199254740992.0 * 3.0 * p.size - p.size;
    }
    nv_water_query qe = {.count = K, .x = x, .z = z, .height = he};
    nv_water_query qg = {.count = K, .x = x, .z = z, .height = hg, .normal = ng};
    nv_ocean_sample_exact(o, &qe);
    assert_int_equal(nv_ocean_sample(o, &qg), 0);
    int m = 0;
    for (int k = 0; k < K; k++) {
        double len = sqrt(ng[3 * k] * ng[3 * k] + ng[3 * k + 1] * ng[3 * k + 1] + ng[3 * k + 2] * ng[3 * k + 2]);
        ASSERT_NEAR_ABS(len, 1.0, 1e-5);
        assert_true(ng[3 * k + 1] > 0.0f);
        if (unfolded_near(o, x[k], z[k])) err[m++] = fabs(hg[k] - he[k]);
    }
    assert_true(m > K * 9 / 10);
    qsort(err, (size_t)m, sizeof *err, cmp_double);
    double p50 = err[m / 2], p99 = err[m * 99 / 100], max = err[m - 1];
    print_message("between nodes (%d points): p50 %.1f mm, p99 %.1f mm, max %.1f mm\n", m, p50 * 1e3, p99 * 1e3,
                  max * 1e3);
    assert_true(p50 <= 0.015);
    assert_true(p99 <= 0.1);
    assert_true(max <= 0.3);
    free(x);
    free(z);
    free(hg);
    free(he);
    free(ng);
    free(err);
    nv_ocean_destroy(o);
}

/* The table from ocean_jobs_update on 1, 2, 3 and 8 threads, and from
 * nv_ocean_update_surface_rows over odd blocks in any order, is bit for bit
 * the serial nv_ocean_update's. */
static void test_jobs_bit_identical(void** state) {
    (void)state;
    nv_ocean_params p = grid_params();
    p.resolution_z = 64; /* not square: rows and columns not confused */
    nv_ocean* serial = make(&p);
    nv_ocean* split = make(&p);
    const double t = 37.25;
    nv_ocean_update(serial, t);
    const size_t nodes = (size_t)128 * 64;
    float* h0 = malloc(nodes * sizeof *h0);
    float* v0 = malloc(nodes * sizeof *v0);
    float* h1 = malloc(nodes * sizeof *h1);
    float* v1 = malloc(nodes * sizeof *v1);
    assert_true(h0 && v0 && h1 && v1);
    read_table(serial, h0, v0);
    const uint32_t threads[] = {1, 2, 3, 8};
    for (int i = 0; i < 4; i++) {
        nv_error err;
        nv_jobs* pool = NULL;
        ASSERT_OK(nv_jobs_create(&pool, threads[i], &err), err);
        nv_ocean_update(split, 0.0); /* another state first: nothing left over */
        ocean_jobs_update(split, t, pool);
        nv_jobs_destroy(pool);
        read_table(split, h1, v1);
        assert_memory_equal(h0, h1, nodes * sizeof *h0);
        assert_memory_equal(v0, v1, nodes * sizeof *v0);
    }
    /* blocks of 1, 3 and 7 rows, the last first */
    nv_ocean_update(split, 0.0);
    nv_ocean_update(split, t);
    const int sizes[] = {7, 3, 1};
    for (int b = 0; b < 3; b++) {
        for (int z1 = 64; z1 > 0; z1 -= sizes[b])
            nv_ocean_update_surface_rows(split, z1 - sizes[b] < 0 ? 0 : z1 - sizes[b], z1);
        read_table(split, h1, v1);
        assert_memory_equal(h0, h1, nodes * sizeof *h0);
        assert_memory_equal(v0, v1, nodes * sizeof *v0);
    }
    free(h0);
    free(v0);
    free(h1);
    free(v1);
    nv_ocean_destroy(serial);
    nv_ocean_destroy(split);
}

/* The table has the same bits at every SIMD level (the AVX2 walk of eight
 * rows, the SSE2 walk of four), on a gentle sea and on a steep one whose
 * folds make walks fail and restart cold. */
static void test_table_same_at_every_level(void** state) {
    (void)state;
    nv_ocean_params seas[2] = {grid_params(), grid_params()};
    seas[1].size = 256.0, seas[1].wind_speed = 15.0, seas[1].hs_target = 6.0, seas[1].choppiness = 2.5;
    const size_t nodes = (size_t)128 * 128;
    float* h0 = malloc(nodes * sizeof *h0);
    float* v0 = malloc(nodes * sizeof *v0);
    float* h1 = malloc(nodes * sizeof *h1);
    float* v1 = malloc(nodes * sizeof *v1);
    assert_true(h0 && v0 && h1 && v1);
    for (int sea = 0; sea < 2; sea++) {
        nv_ocean* o = make(&seas[sea]);
        nv_simd_cap(SIMD_SSE2);
        nv_ocean_update(o, 10.0);
        read_table(o, h0, v0);
        for (int level = SIMD_AVX2; level <= nv_simd_cpu_level(); level++) {
            nv_simd_cap(level);
            nv_ocean_update(o, 0.0); /* another state first: nothing left over */
            nv_ocean_update(o, 10.0);
            read_table(o, h1, v1);
            for (size_t k = 0; k < nodes; k++)
                if (memcmp(&h0[k], &h1[k], sizeof(float)) || memcmp(&v0[k], &v1[k], sizeof(float)))
                    fail_msg("sea %d, node %zu: %s %.9g %.9g, sse2 %.9g %.9g", sea, k, nv_simd_name(level), h1[k],
                             v1[k], h0[k], v0[k]);
        }
        nv_simd_cap(SIMD_AVX512);
        nv_ocean_destroy(o);
    }
    if (nv_simd_cpu_level() < SIMD_AVX2) print_message("this CPU runs the SSE2 walk only\n");
    free(h0);
    free(v0);
    free(h1);
    free(v1);
}

/* A steep sea at choppiness 2.5 folds over ~4 % of its labels: there the
 * inversion has several answers or none, and every node and query must
 * still be finite. */
static void test_folds_stay_finite(void** state) {
    (void)state;
    nv_ocean_params p = grid_params();
    p.size = 256.0;
    p.wind_speed = 15.0;
    p.hs_target = 6.0;
    p.tp = 7.1; /* the 15 m/s fetch-limited peak: steeper than the default for 6 m (3.6 sqrt(6) = 8.8 s) */
    p.choppiness = 2.5;
    nv_ocean* o = make(&p);
    nv_ocean_update(o, 10.0);
    nv_ocean_stats st;
    nv_ocean_measure(o, &st);
    print_message("fold fraction %.3f\n", st.fold_fraction);
    assert_true(st.fold_fraction > 0.02); /* the test means something */
    const size_t nodes = (size_t)128 * 128;
    float* h = malloc(nodes * sizeof *h);
    float* v = malloc(nodes * sizeof *v);
    assert_true(h && v);
    read_table(o, h, v);
    for (size_t k = 0; k < nodes; k++) {
        assert_true(isfinite(h[k]));
        assert_true(isfinite(v[k]));
        assert_true(fabsf(h[k]) < 20.0f);
    }
    enum { K = 2000 };
    double x[K], z[K];
    float hq[K], nq[3 * K], vq[K], hn[K], dx[K], dz[K];
    for (int k = 0; k < K; k++) {
        x[k] = 0.37 * k - 100.0;
        z[k] = 0.61 * k * 0.5 + 3.0;
        dx[k] = (float)(x[k] - 200.0);
        dz[k] = (float)(z[k] - 300.0);
    }
    nv_water_query q = {.count = K, .x = x, .z = z, .height = hq, .normal = nq, .vertical_velocity = vq};
    nv_ocean_sample(o, &q);
    nv_ocean_surface(o)->sample_near(nv_ocean_surface(o), 200.0, 300.0, K, dx, dz, hn);
    for (int k = 0; k < K; k++) {
        assert_true(isfinite(hq[k]) && isfinite(vq[k]) && isfinite(hn[k]));
        assert_true(isfinite(nq[3 * k]) && isfinite(nq[3 * k + 1]) && isfinite(nq[3 * k + 2]));
    }
    free(h);
    free(v);
    nv_ocean_destroy(o);
}

/* sample_near (the vertex pass's query: a double origin, float offsets)
 * answers as sample does at the same points, up to the offsets' float
 * rounding, and a point's answer does not depend on its batch (eight or
 * four at a time or alone) nor on the SIMD level: the AVX2 gathers, the
 * SSE2 pairs and the scalar path give the same bits, also for cells on the
 * tile's edge (the second origin's points wrap). */
static void test_sample_near(void** state) {
    (void)state;
    nv_ocean_params p = grid_params();
    nv_ocean* o = make(&p);
    nv_ocean_update(o, 5.0);
    const nv_water_surface* w = nv_ocean_surface(o);
    assert_non_null(w->sample_near);
    enum { K = 203 };
    /* far from the origin (reduced into the tile); astride the tile's edge */
    const double origins[2][2] = {{1e5 + 17.3, -2e4 - 0.7}, {p.size * 3.0 - 20.0, p.size - 30.0}};
    for (int at = 0; at < 2; at++) {
        const double ox = origins[at][0], oz = origins[at][1];
        float dx[K], dz[K], hn[K], h1[K], hq[K];
        double x[K], z[K];
        for (int k = 0; k < K; k++) {
            dx[k] = (float)(0.53 * k - 50.0);
            dz[k] = (float)(10.0 * sin(0.1 * k) + 0.3 * k);
            x[k] = ox + dx[k];
            z[k] = oz + dz[k];
        }
        for (int k = 0; k < K; k++) w->sample_near(w, ox, oz, 1, dx + k, dz + k, h1 + k);
        for (int level = SIMD_SSE2; level <= nv_simd_cpu_level(); level++) {
            nv_simd_cap(level);
            memset(hn, 0, sizeof hn);
            w->sample_near(w, ox, oz, K, dx, dz, hn);
            for (int k = 0; k < K; k++)
                if (memcmp(&hn[k], &h1[k], sizeof(float)))
                    fail_msg("%s, origin %d, point %d: %.9g in a batch, %.9g alone", nv_simd_name(level), at, k, hn[k],
                             h1[k]);
        }
        nv_simd_cap(SIMD_AVX512);
        nv_water_query q = {.count = K, .x = x, .z = z, .height = hq};
        nv_ocean_sample(o, &q);
        for (int k = 0; k < K; k++) ASSERT_NEAR_ABS(hn[k], hq[k], 1e-3);
    }
    nv_ocean_destroy(o);
}

/* Several cascades are not periodic together: refused, by name. */
static void test_validate_refuses_cascades(void** state) {
    (void)state;
    nv_ocean_params p = grid_params();
    p.cascades = 3;
    nv_error err;
    assert_int_equal(nv_ocean_params_validate(&p, &err), -1);
    assert_non_null(strstr(err.message, "surface grid"));
    assert_non_null(strstr(err.message, "cascade"));
    assert_null(nv_ocean_create(&p, &err));
    p.surface_grid = 0;
    assert_int_equal(nv_ocean_params_validate(&p, &err), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nodes_match_exact),   cmocka_unit_test(test_between_nodes),
        cmocka_unit_test(test_jobs_bit_identical),  cmocka_unit_test(test_folds_stay_finite),
        cmocka_unit_test(test_sample_near),         cmocka_unit_test(test_validate_refuses_cascades),
        cmocka_unit_test(test_table_same_at_every_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
