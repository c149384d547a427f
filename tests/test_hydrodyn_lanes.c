// SPDX-License-Identifier: MIT
/* The force kernels (core/hydrodyn_kernel.h): each lane against a direct
 * double-precision evaluation of the documented formulas, the AVX2 and SSE2
 * builds against each other bit for bit, and the half-float slamming
 * memory against its definition. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hydro.h"
#include "hydrodyn_lanes.h"
#include "kernels.h"
#include "test_util.h"

#define N 200 /* lanes of the test span: a multiple of 8 */

typedef struct lane_case {
    float column[HULL_LANE_COLUMNS][N];
    float wet[N], b1[N], b2[N];
    uint16_t slam[N];
    nv_hydrodyn_model model;
    nv_hydrodyn_frame frame;
} lane_case;

static double rnd(unsigned* state, double lo, double hi) {
    *state = *state * 1103515245u + 12345u;
    return lo + (hi - lo) * ((*state >> 8) & 0xffffff) / 16777216.0;
}

/* Random parts: wet all over, cut (with a centroid shift), dry, or marked
 * neither; random slamming memory; a vessel moving and turning. */
static void lane_case_make(lane_case* c, const nv_hydrodyn_coeffs* k, unsigned seed) {
    unsigned s = seed;
    for (int i = 0; i < N; i++) {
        double n[3] = {rnd(&s, -1, 1), rnd(&s, -1, 1), rnd(&s, -1, 1)};
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) + 1e-3;
        for (int a = 0; a < 3; a++) {
            c->column[HULL_LANE_CX + a][i] = (float)rnd(&s, -6, 6);
            c->column[HULL_LANE_NX + a][i] = (float)(n[a] / len);
            c->column[HULL_LANE_E1X + a][i] = (float)rnd(&s, -1, 1);
            c->column[HULL_LANE_E2X + a][i] = (float)rnd(&s, -1, 1);
        }
        c->column[HULL_LANE_AREA][i] = (float)rnd(&s, 0.05, 2.0);
        double pick = rnd(&s, 0, 1);
        c->b1[i] = c->b2[i] = 0.0f;
        if (pick < 0.35) {
            c->wet[i] = 1.0f;
        } else if (pick < 0.55) {
            c->wet[i] = (float)rnd(&s, 0.01, 0.99);
            c->b1[i] = (float)(3.0 * c->wet[i] * rnd(&s, 0.0, 0.6)); /* weights times 3 fraction */
            c->b2[i] = (float)(3.0 * c->wet[i] * rnd(&s, 0.0, 0.6));
        } else if (pick < 0.9) {
            c->wet[i] = -1.0f;
        } else {
            c->wet[i] = 0.0f;
        }
        c->slam[i] = hydrodyn_half_encode((float)rnd(&s, -4, 4));
    }
    nv_hydrodyn_model_init(&c->model, k, 30.0);
    nv_mat3 r = {{{0.96, -0.28, 0.0}, {0.28, 0.96, 0.0}, {0.0, 0.0, 1.0}}};
    nv_hydrodyn_frame_init(&c->frame, &c->model, &r, v3(6.0, -0.8, 0.7), v3(0.05, 0.3, -0.1), 0.4, v3(-12, 0, 3), 2.0e5,
                           400.0, 1.0 / 60.0);
}

static void lane_case_run(lane_case* c, const hydrodyn_kernels* kern, double out[HYDRODYN_SUM_COUNT],
                          uint16_t slam_out[N]) {
    hydrodyn_lane_frame lf;
    hydrodyn_lane_frame_init(&lf, &c->frame);
    /* the hull's layout: a block of every column per group of eight */
    static float blocks[N / HULL_GROUP][HULL_LANE_BLOCK];
    for (int k = 0; k < HULL_LANE_COLUMNS; k++)
        for (int i = 0; i < N; i++) blocks[i / HULL_GROUP][k * HULL_GROUP + i % HULL_GROUP] = c->column[k][i];
    hydrodyn_span sp = {.lanes = blocks[0], .wet = c->wet, .b1 = c->b1, .b2 = c->b2, .slam = slam_out, .count = N};
    memcpy(slam_out, c->slam, sizeof c->slam);
    hydrodyn_lane_sums sums;
    hydrodyn_lane_sums_clear(&sums);
    kern->span(&lf, &sp, &sums);
    hydrodyn_lane_sums_reduce(&sums, out);
}

static nv_vec3 col3(const lane_case* c, int first, int i) {
    return v3(c->column[first][i], c->column[first + 1][i], c->column[first + 2][i]);
}

/* The formulas of hydrodyn_kernel.h's header, in double, lane by lane;
 * `scale` gets the sum of each term's size (for a relative tolerance). */
static void lane_case_reference(const lane_case* c, double out[HYDRODYN_SUM_COUNT], double scale[HYDRODYN_SUM_COUNT],
                                float slam_out[N], int keep[N]) {
    const nv_hydrodyn_frame* f = &c->frame;
    const nv_hydrodyn_coeffs* k = &c->model.c;
    memset(out, 0, HYDRODYN_SUM_COUNT * sizeof(double));
    memset(scale, 0, HYDRODYN_SUM_COUNT * sizeof(double));
    for (int i = 0; i < N; i++) {
        double frac = c->wet[i], area = c->column[HULL_LANE_AREA][i];
        nv_vec3 cen = col3(c, HULL_LANE_CX, i), n = col3(c, HULL_LANE_NX, i);
        keep[i] = frac == 0.0;
        slam_out[i] = 0.0f;
        if (frac < 0.0) {
            double an = area * v3_dot(f->air_velocity, n);
            if (an > 0.0) {
                double v[4] = {an, an * cen.x, an * cen.y, an * cen.z};
                for (int a = 0; a < 4; a++) out[HYDRODYN_SUM_AIR_AN + a] += v[a], scale[HYDRODYN_SUM_AIR_AN + a] += fabs(v[a]);
            }
            continue;
        }
        if (frac == 0.0) continue;
        if (frac < 1.0) {
            double b1 = c->b1[i] / (3.0 * frac) - 1.0 / 3.0, b2 = c->b2[i] / (3.0 * frac) - 1.0 / 3.0;
            cen = v3_add(cen, v3_add(v3_scale(col3(c, HULL_LANE_E1X, i), b1), v3_scale(col3(c, HULL_LANE_E2X, i), b2)));
        }
        double a_wet = frac * area;
        nv_vec3 p = v3_add(f->velocity, v3_cross(f->angular_velocity, cen));
        double v2 = v3_dot(p, p), vn = v3_dot(p, n), t2 = v2 - vn * vn, speed = sqrt(v2);
        nv_vec3 g = v3(0, 0, 0);
        if (t2 > 1e-12) g = v3_scale(v3_sub(p, v3_scale(n, vn)), -f->half_rho_cf * a_wet * v2 / sqrt(t2));
        double cos_t = v2 > 1e-12 ? vn / speed : 0.0, r = speed * f->inv_ref_speed;
        if (cos_t > 0.0)
            g = v3_madd(g, n, -a_wet * pow(cos_t, k->pressure_falloff) * (k->pressure_linear * r + k->pressure_quadratic * r * r));
        else
            g = v3_madd(g, n, a_wet * pow(-cos_t, k->suction_falloff) * (k->suction_linear * r + k->suction_quadratic * r * r));
        nv_vec3 t = v3_cross(cen, g);
        double v6[6] = {g.x, g.y, g.z, t.x, t.y, t.z};
        for (int a = 0; a < 6; a++) out[HYDRODYN_SUM_FORCE + a] += v6[a], scale[HYDRODYN_SUM_FORCE + a] += fabs(v6[a]);
        double swept = frac * vn, prev = hydrodyn_half_decode(c->slam[i]);
        double ratio = fabs(swept - prev) * f->inv_dt * f->inv_gamma_max;
        if (vn > 0.0 && v2 > 1e-12 && ratio > 1e-3) {
            double ks = -pow(fmin(ratio, 1.0), k->slam_power) * cos_t * f->slam_scale * a_wet;
            nv_vec3 h = v3_scale(p, ks), ht = v3_cross(cen, h);
            double s6[6] = {h.x, h.y, h.z, ht.x, ht.y, ht.z};
            for (int a = 0; a < 6; a++) out[HYDRODYN_SUM_SLAM_FORCE + a] += s6[a], scale[HYDRODYN_SUM_SLAM_FORCE + a] += fabs(s6[a]);
        }
        slam_out[i] = (float)swept;
    }
}

static void lanes_match_the_formulas(const nv_hydrodyn_coeffs* k, unsigned seed) {
    static lane_case c;
    lane_case_make(&c, k, seed);
    double got[HYDRODYN_SUM_COUNT], want[HYDRODYN_SUM_COUNT], scale[HYDRODYN_SUM_COUNT];
    uint16_t slam[N];
    float want_slam[N];
    int keep[N];
    lane_case_run(&c, kernels_active()->hydrodyn, got, slam);
    lane_case_reference(&c, want, scale, want_slam, keep);
    for (int a = 0; a < HYDRODYN_SUM_COUNT - 1; a++) {
        double tol = 2e-5 * scale[a] + 1e-9;
        if (fabs(got[a] - want[a]) > tol)
            fail_msg("sum %d: kernel %.9g, formula %.9g (tolerance %.3g)", a, got[a], want[a], tol);
    }
    assert_true(scale[HYDRODYN_SUM_FORCE] > 0.0 && scale[HYDRODYN_SUM_SLAM_FORCE] > 0.0 &&
                scale[HYDRODYN_SUM_AIR_AN] > 0.0); /* every force took part */
    for (int i = 0; i < N; i++) {
        if (keep[i]) {
            assert_int_equal(slam[i], c.slam[i]);
            continue;
        }
        double back = hydrodyn_half_decode(slam[i]), tol = fabs(want_slam[i]) * 1e-3 + 1e-4;
        if (fabs(back - want_slam[i]) > tol) fail_msg("lane %d: memory %.6g, swept rate %.6g", i, back, want_slam[i]);
    }
}

static void kernel_matches_formulas_default(void** state) {
    (void)state;
    nv_hydrodyn_coeffs k = nv_hydrodyn_coeffs_default();
    lanes_match_the_formulas(&k, 7);
}

static void kernel_matches_formulas_general_powers(void** state) {
    (void)state;
    nv_hydrodyn_coeffs k = nv_hydrodyn_coeffs_default();
    k.pressure_falloff = 0.7; /* different falloffs: x^p by exp2(p log2 x) */
    k.suction_falloff = 0.35;
    k.slam_power = 1.5;
    lanes_match_the_formulas(&k, 11);
}

/* Random vertex heights on the built-in ship (every kind of triangle, NaN
 * corners when `poison`), for the hydrostatic kernel. */
typedef struct statics_case {
    nv_hull hull;
    float* height;
    float *wet, *b1, *b2; /* room for whole groups */
    hydrodyn_lane_frame entry;  /* a vessel moving down and rolling, for the water entry */
    hydrodyn_lane_sums entry_sums;
} statics_case;

static void statics_case_make(statics_case* c, unsigned tris, unsigned seed, int poison) {
    test_hull_builtin(&c->hull, "ship", tris, 500.0);
    size_t lanes = hull_group_count(c->hull.triangle_count) * HULL_GROUP;
    c->height = malloc(c->hull.vertex_count * sizeof(float));
    c->wet = malloc(lanes * sizeof(float)), c->b1 = malloc(lanes * sizeof(float)), c->b2 = malloc(lanes * sizeof(float));
    assert_true(c->height && c->wet && c->b1 && c->b2);
    unsigned s = seed;
    double tilt = rnd(&s, -0.3, 0.3), level = rnd(&s, -0.5, 0.5);
    for (uint32_t i = 0; i < c->hull.vertex_count; i++) {
        double pick = rnd(&s, 0, 1);
        c->height[i] = pick < 0.03   ? 0.0f
                       : poison && pick > 0.995 ? NAN
                                    : (float)(c->hull.vy[i] + tilt * c->hull.vx[i] + level + rnd(&s, -0.3, 0.3));
    }
    memset(&c->entry, 0, sizeof c->entry);
    c->entry.entry = 1;
    for (int k = 0; k < 3; k++) c->entry.v[k] = (float)rnd(&s, -2.0, 2.0), c->entry.w[k] = (float)rnd(&s, -0.5, 0.5);
    c->entry.v[1] = (float)rnd(&s, -4.0, -1.0);
    c->entry.up[0] = (float)sin(tilt), c->entry.up[1] = (float)cos(tilt);
    c->entry.keel = c->hull.bounds_min[1];
    c->entry.entry_k = (float)(0.5 * NV_PI * 1025.0), c->entry.gravity = 9.81f;
    c->entry.entry_max_inv_sin2 = 131.6f;
}

static void statics_case_free(statics_case* c) {
    free(c->height);
    free(c->wet);
    free(c->b1);
    free(c->b2);
    nv_hull_destroy(&c->hull);
}

static void statics_case_run(statics_case* c, const hydrodyn_kernels* kern, hydro_statics_sums* sums) {
    memset(sums, 0, sizeof *sums);
    memset(&c->entry_sums, 0, sizeof c->entry_sums);
    hydro_statics_span sp = {.corners = hull_corner_block(&c->hull, 0), .lanes = hull_lane_block(&c->hull, 0),
                             .height = c->height, .wet = c->wet, .b1 = c->b1, .b2 = c->b2,
                             .entry_frame = &c->entry, .entry_sums = &c->entry_sums,
                             .count = c->hull.triangle_count};
    kern->statics(&sp, sums);
}

/* The force kernels' build at a SIMD level, NULL where this CPU cannot run it. */
static const hydrodyn_kernels* build_at(int level) {
    const kernels* k = kernels_at(level);
    return k ? k->hydrodyn : NULL;
}

/* A replay recorded on a machine with AVX2 or AVX-512 checks on one
 * without: every build this CPU runs against the SSE2 one. */
static void every_build_gives_the_sse2_bits(void** state) {
    (void)state;
    if (!build_at(SIMD_AVX2)) {
        printf("  this CPU has no AVX2: only the SSE2 build runs here\n");
        skip();
    }
    nv_hydrodyn_coeffs variants[3] = {nv_hydrodyn_coeffs_default(), nv_hydrodyn_coeffs_default(),
                                   nv_hydrodyn_coeffs_default()};
    variants[1].pressure_falloff = 0.8, variants[1].slam_power = 3.0;
    variants[2].forces = HYDRODYN_AIR_DRAG | HYDRODYN_SLAMMING;
    for (int level = SIMD_AVX2; level <= SIMD_AVX512; level++) {
        const hydrodyn_kernels* wide = build_at(level);
        if (!wide) {
            printf("  this CPU cannot run the %s build\n", nv_simd_name(level));
            continue;
        }
        int entered = 0;
        for (unsigned seed = 1; seed <= 10; seed++) {
            /* the hydrostatic kernel: its sums and marks */
            statics_case c;
            statics_case_make(&c, seed & 1 ? 500 : 300, seed, seed == 7);
            size_t lanes = hull_group_count(c.hull.triangle_count) * HULL_GROUP, bytes = lanes * sizeof(float);
            hydro_statics_sums a, b;
            statics_case_run(&c, &hydrodyn_sse2_kernels, &a);
            const hydrodyn_lane_sums entry = c.entry_sums;
            for (int l = 0; l < HYDRODYN_LANES; l++) entered += entry.lane[HYDRODYN_SUM_ENTRY_FORCE + 1][l] != 0.0f;
            float* marks = malloc(3 * bytes);
            assert_non_null(marks);
            memcpy(marks, c.wet, bytes);
            memcpy(marks + lanes, c.b1, bytes);
            memcpy(marks + 2 * lanes, c.b2, bytes);
            statics_case_run(&c, wide, &b);
            assert_memory_equal(&a, &b, sizeof a);
            assert_memory_equal(&entry, &c.entry_sums, sizeof entry); /* the water entry's force and moment */
            assert_memory_equal(marks, c.wet, bytes);
            assert_memory_equal(marks + lanes, c.b1, bytes);
            assert_memory_equal(marks + 2 * lanes, c.b2, bytes);
            free(marks);
            statics_case_free(&c);
        }
        assert_true(entered >= 10); /* the water entry took part */
        for (int v = 0; v < 3; v++)
            for (unsigned seed = 1; seed <= 20; seed++) {
                static lane_case c;
                lane_case_make(&c, &variants[v], seed * 31u + (unsigned)v);
                double a[HYDRODYN_SUM_COUNT], b[HYDRODYN_SUM_COUNT];
                uint16_t sa[N], sb[N];
                lane_case_run(&c, &hydrodyn_sse2_kernels, a, sa);
                lane_case_run(&c, wide, b, sb);
                assert_memory_equal(a, b, sizeof a);
                assert_memory_equal(sa, sb, sizeof sa);
            }
    }
}

static void half_memory_rounds_and_clamps(void** state) {
    (void)state;
    /* every float exponent, with mantissas around the rounding points */
    const hydrodyn_kernels* kerns[3] = {&hydrodyn_sse2_kernels, build_at(SIMD_AVX2),
                                        build_at(SIMD_AVX512)};
    for (uint32_t e = 0; e < 256; e++)
        for (uint32_t m = 0; m < 64; m++) {
            float in[8];
            for (int j = 0; j < 8; j++) {
                uint32_t bits = ((uint32_t)(j & 1) << 31) | (e << 23) | (m << 17) | ((uint32_t)j * 0x0fffu) | (j == 3 ? 0x1000u : 0);
                memcpy(&in[j], &bits, sizeof bits);
            }
            uint16_t scalar[8];
            for (int j = 0; j < 8; j++) scalar[j] = hydrodyn_half_encode(in[j]);
            for (int k = 0; k < 3; k++) {
                if (!kerns[k]) continue;
                uint16_t lanes[8];
                float back[8];
                kerns[k]->half_encode(in, lanes);
                assert_memory_equal(lanes, scalar, sizeof lanes);
                kerns[k]->half_decode(lanes, back);
                for (int j = 0; j < 8; j++) assert_true(back[j] == hydrodyn_half_decode(lanes[j]));
            }
            for (int j = 0; j < 8; j++) {
                float x = in[j], y = hydrodyn_half_decode(scalar[j]);
                if (isnan(x)) assert_true(y == -65504.0f);
                else if (fabsf(x) >= 65504.0f) assert_true(y == copysignf(65504.0f, x));
                else if (fabsf(x) < 6.103515625e-05f) assert_true(y == 0.0f);
                else if (!(fabsf(y - x) <= fabsf(x) * (1.0f / 2048.0f))) fail_msg("%.9g came back as %.9g", x, y);
            }
        }
    /* nearest, ties to even: 1 + 2^-11 is halfway between 1 and 1 + 2^-10 */
    assert_true(hydrodyn_half_decode(hydrodyn_half_encode(1.0f + 1.0f / 2048.0f)) == 1.0f);
    assert_true(hydrodyn_half_decode(hydrodyn_half_encode(1.0f + 3.0f / 2048.0f)) == 1.0f + 2.0f / 1024.0f);
    assert_true(hydrodyn_half_encode(-0.0f) == 0x8000 && hydrodyn_half_encode(65504.0f) == 0x7bff);
}

/* The hydrostatic kernel's marks against the cut in double: each
 * triangle's wet fraction, and the barycentric weights (times 3 fraction)
 * of its wet part's centroid; lanes past the hull marked neither. */
static void statics_marks_match_the_cut(void** state) {
    (void)state;
    for (unsigned seed = 1; seed <= 5; seed++) {
        statics_case c;
        statics_case_make(&c, 500, seed, seed == 5);
        hydro_statics_sums sums;
        statics_case_run(&c, kernels_active()->hydrodyn, &sums);
        int nan_seen = 0;
        for (uint32_t t = 0; t < c.hull.triangle_count; t++) {
            const uint32_t* tri = c.hull.triangles + 3 * t;
            nv_vec3 p[3];
            double h[3];
            for (int i = 0; i < 3; i++) p[i] = v3(c.hull.vx[tri[i]], c.hull.vy[tri[i]], c.hull.vz[tri[i]]), h[i] = c.height[tri[i]];
            if (isnan(h[0] + h[1] + h[2])) {
                assert_true(c.wet[t] == 0.0f);
                nan_seen = 1;
                continue;
            }
            hydro_cut cut;
            hydro_cut_triangle(p, h, &cut);
            if (cut.piece_count == 0) {
                assert_true(c.wet[t] == -1.0f);
                continue;
            }
            if (cut.area_fraction == 1.0) {
                assert_true(c.wet[t] == 1.0f);
                continue;
            }
            if (fabs(c.wet[t] - cut.area_fraction) > 1e-5)
                fail_msg("triangle %u: wet fraction %.7g, cut %.7g", t, c.wet[t], cut.area_fraction);
            /* the wet part's centroid, area-weighted over its pieces */
            nv_vec3 cen = v3(0, 0, 0);
            double area = 0.0;
            for (int q = 0; q < cut.piece_count; q++) {
                const hydro_piece* k = &cut.pieces[q];
                double a = 0.5 * v3_length(v3_cross(v3_sub(k->p[1], k->p[0]), v3_sub(k->p[2], k->p[0])));
                cen = v3_madd(cen, v3_scale(v3_add(v3_add(k->p[0], k->p[1]), k->p[2]), 1.0 / 3.0), a);
                area += a;
            }
            if (area < 1e-9) continue; /* a sliver: its centroid is any point of it */
            cen = v3_scale(cen, 1.0 / area);
            nv_vec3 e1 = v3_sub(p[1], p[0]), e2 = v3_sub(p[2], p[0]), n = v3_cross(e1, e2), r = v3_sub(cen, p[0]);
            double nn = v3_dot(n, n);
            double beta1 = v3_dot(v3_cross(r, e2), n) / nn, beta2 = v3_dot(v3_cross(e1, r), n) / nn;
            double f3 = 3.0 * cut.area_fraction;
            if (fabs(c.b1[t] - f3 * beta1) > 1e-4 * f3 + 1e-6 || fabs(c.b2[t] - f3 * beta2) > 1e-4 * f3 + 1e-6)
                fail_msg("triangle %u: centroid weights %.7g %.7g, cut %.7g %.7g", t, c.b1[t], c.b2[t], f3 * beta1,
                         f3 * beta2);
        }
        for (size_t t = c.hull.triangle_count; t < hull_group_count(c.hull.triangle_count) * HULL_GROUP; t++)
            assert_true(c.wet[t] == 0.0f);
        assert_int_equal(sums.poisoned, nan_seen);
        statics_case_free(&c);
    }
}

/* The lane sums reduce in the documented order, in double. */
static void lane_sums_reduce_in_order(void** state) {
    (void)state;
    unsigned seed = 5;
    hydrodyn_lane_sums s;
    for (int i = 0; i < HYDRODYN_SUM_COUNT; i++)
        for (int l = 0; l < HYDRODYN_LANES; l++) s.lane[i][l] = (float)rnd(&seed, -1e6, 1e6) * (l == 3 ? 1e-7f : 1.0f);
    double out[HYDRODYN_SUM_COUNT];
    hydrodyn_lane_sums_reduce(&s, out);
    for (int i = 0; i < HYDRODYN_SUM_COUNT; i++) {
        const float* v = s.lane[i];
        double want = (((double)v[0] + v[1]) + ((double)v[2] + v[3])) + (((double)v[4] + v[5]) + ((double)v[6] + v[7]));
        assert_memory_equal(&out[i], &want, sizeof want);
    }
}

/* Every half the memory may hold (zeros and normal halves) reads back the
 * same in every build, and the restore check tells them from the rest. */
static void half_memory_canonical_values(void** state) {
    (void)state;
    const hydrodyn_kernels* wide[2] = {build_at(SIMD_AVX2),
                                       build_at(SIMD_AVX512)};
    for (uint32_t h = 0; h < 65536; h += 8) {
        uint16_t in[8];
        float a[8], b[2][8];
        for (int j = 0; j < 8; j++) in[j] = (uint16_t)(h + (uint32_t)j);
        hydrodyn_sse2_kernels.half_decode(in, a);
        for (int w = 0; w < 2; w++)
            if (wide[w]) wide[w]->half_decode(in, b[w]);
        for (int j = 0; j < 8; j++) {
            uint32_t exponent = (in[j] >> 10) & 0x1f, mantissa = in[j] & 0x3ff;
            int canonical = exponent == 0 ? mantissa == 0 : exponent < 31;
            assert_int_equal(hydrodyn_half_is_canonical(in[j]), canonical);
            if (!canonical) continue;
            assert_true(a[j] == hydrodyn_half_decode(in[j]));
            assert_true(hydrodyn_half_encode(a[j]) == in[j]);
            for (int w = 0; w < 2; w++)
                if (wide[w]) assert_memory_equal(&a[j], &b[w][j], sizeof(float));
        }
    }
}

int main(void) {
    printf("force kernels on this CPU: %s\n", nv_simd_name(kernels_active()->level));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernel_matches_formulas_default), cmocka_unit_test(kernel_matches_formulas_general_powers),
        cmocka_unit_test(every_build_gives_the_sse2_bits), cmocka_unit_test(half_memory_rounds_and_clamps),
        cmocka_unit_test(half_memory_canonical_values),    cmocka_unit_test(lane_sums_reduce_in_order),
        cmocka_unit_test(statics_marks_match_the_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
