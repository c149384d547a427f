// SPDX-License-Identifier: MIT
/* The FFT ocean's fields: every field against a direct DFT sum on
 * non-square grids, Hermitian symmetry, zero mean, periodicity in space and
 * in time (repeat period), the Jacobian's mean, dispersion seen in a time
 * series, determinism (also when the update is split into jobs on threads,
 * and for queries in any batch), parameter validation. Calibration and
 * choppy queries: test_ocean_sea.c. */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_ocean_util.h"

/* All ten fields of cascade c at time t by direct summation over every wave
 * (n, m), in double, from the initial amplitudes h0 alone. out[f][iz][ix]. */
static void dft_fields(const nv_ocean* o, int c, double t, double* out, double* max_imag) {
    const nv_ocean_params* p = nv_ocean_get_params(o);
    int nx, nz;
    nv_ocean_resolution(o, &nx, &nz);
    double l = nv_ocean_cascade_size(o, c), lambda = p->choppiness;
    size_t cells = (size_t)nx * nz;
    /* per wave: kx, kz and the complex coefficient of each of the 9 fields */
    typedef struct wave {
        double kx, kz, re[9], im[9];
    } wave;
    wave* waves = malloc(sizeof(wave) * cells);
    assert_non_null(waves);
    size_t count = 0;
    for (int m = -nz / 2; m < nz / 2; m++) {
        for (int n = -nx / 2; n < nx / 2; n++) {
            if (n == 0 && m == 0) continue;
            double kx = 2.0 * NV_PI * n / l, kz = 2.0 * NV_PI * m / l, k = hypot(kx, kz);
            double pa[2], qa[2];
            nv_ocean_initial_amplitude(o, c, n, m, pa);
            nv_ocean_initial_amplitude(o, c, -n, -m, qa);
            double w = test_omega(p, k);
            double cw = cos(w * t), sw = sin(w * t);
            /* h~ = p e^{-iwt} + conj(q) e^{iwt} */
            double hr = pa[0] * cw + pa[1] * sw + qa[0] * cw + qa[1] * sw;
            double hi = pa[1] * cw - pa[0] * sw + qa[0] * sw - qa[1] * cw;
            /* dh~/dt = -iw p e^{-iwt} + iw conj(q) e^{iwt} */
            double vr = w * ((pa[1] * cw - pa[0] * sw) - (qa[0] * sw - qa[1] * cw));
            double vi = w * (-(pa[0] * cw + pa[1] * sw) + (qa[0] * cw + qa[1] * sw));
            /* fields: 0 h, 1 v, 2 Dx, 3 Dz, 4 hx, 5 hz, 6 Dxx, 7 Dzz, 8 Dxz:
             * factor fa + i fb times h~ (v: times dh~/dt) */
            const double fa[9] = {1, 1, 0, 0, 0, 0, -lambda * kx * kx / k, -lambda * kz * kz / k,
                                  -lambda * kx * kz / k};
            const double fb[9] = {0, 0, lambda * kx / k, lambda * kz / k, kx, kz, 0, 0, 0};
            wave* wv = &waves[count++];
            wv->kx = kx;
            wv->kz = kz;
            for (int f = 0; f < 9; f++) {
                double sr = f == 1 ? vr : hr, si = f == 1 ? vi : hi;
                wv->re[f] = fa[f] * sr - fb[f] * si;
                wv->im[f] = fa[f] * si + fb[f] * sr;
            }
        }
    }
    *max_imag = 0.0;
    for (int iz = 0; iz < nz; iz++) {
        for (int ix = 0; ix < nx; ix++) {
            double x = ix * l / nx, z = iz * l / nz;
            double re[9] = {0}, im[9] = {0};
            for (size_t i = 0; i < count; i++) {
                const wave* wv = &waves[i];
                double ph = wv->kx * x + wv->kz * z, ce = cos(ph), se = sin(ph);
                for (int f = 0; f < 9; f++) {
                    re[f] += wv->re[f] * ce - wv->im[f] * se;
                    im[f] += wv->re[f] * se + wv->im[f] * ce;
                }
            }
            size_t i = (size_t)iz * nx + ix;
            for (int f = 0; f < 9; f++) {
                out[f * cells + i] = re[f];
                if (fabs(im[f]) > *max_imag) *max_imag = fabs(im[f]);
            }
            out[9 * cells + i] = (1.0 + re[6]) * (1.0 + re[7]) - re[8] * re[8];
        }
    }
    free(waves);
}

static void check_against_dft(const nv_ocean* o, double t) {
    int nx, nz;
    nv_ocean_resolution(o, &nx, &nz);
    size_t cells = (size_t)nx * nz;
    double* ref = malloc(sizeof(double) * cells * OCEAN_FIELD_COUNT);
    assert_non_null(ref);
    for (int c = 0; c < nv_ocean_cascade_count(o); c++) {
        double max_imag;
        dft_fields(o, c, t, ref, &max_imag);
        double hmax = 0.0;
        for (size_t i = 0; i < cells; i++) hmax = fmax(hmax, fabs(ref[i]));
        assert_true(hmax > 1e-3); /* a real sea, not zeros compared with zeros */
        assert_true(max_imag < 1e-9 * (1.0 + hmax)); /* the spectrum is Hermitian */
        for (int f = 0; f < OCEAN_FIELD_COUNT; f++) {
            const double* r = ref + (size_t)f * cells;
            double scale = 0.0;
            for (size_t i = 0; i < cells; i++) scale = fmax(scale, fabs(f == 9 ? r[i] - 1.0 : r[i]));
            assert_true(scale > 0.0);
            for (int iz = 0; iz < nz; iz++)
                for (int ix = 0; ix < nx; ix++) {
                    double got = grid(o, c, (nv_ocean_field_id)f, ix, iz), want = r[(size_t)iz * nx + ix];
                    if (!(fabs(got - want) <= 2e-5 * scale + 1e-7))
                        fail_msg("cascade %d field %d at (%d, %d): %.9g, DFT %.9g (scale %.3g)", c, f, ix, iz, got,
                                 want, scale);
                }
        }
    }
    free(ref);
}

static nv_ocean_params small_params(void) {
    nv_ocean_params p = nv_ocean_params_default();
    p.cascades = 1;
    p.resolution = 16; /* x */
    p.resolution_z = 8;
    p.size = 120.0;
    p.wind_speed = 11.0;
    p.wind_direction = 30.0;
    p.choppiness = 0.9;
    p.depth = 25.0;
    p.seed = 99;
    return p;
}

static void test_fft_equals_dft(void** state) {
    (void)state;
    nv_ocean_params p = small_params();
    nv_ocean* o = make(&p);
    nv_ocean_update(o, 37.21);
    check_against_dft(o, 37.21);
    nv_ocean_destroy(o);
    /* two cascades, x shorter than z, Phillips, deep water, odd time */
    p.cascades = 2;
    p.resolution = 32;
    p.resolution_z = 64;
    p.cascade_ratio = 1.93;
    p.spectrum = SPECTRUM_PHILLIPS;
    p.depth = 0.0;
    p.choppiness = 1.4;
    o = make(&p);
    nv_ocean_update(o, -1234.5678);
    check_against_dft(o, -1234.5678);
    nv_ocean_destroy(o);
    /* the smallest grid: rows of 4 (32-byte rows for FFTW's alignment) */
    p = small_params();
    p.resolution = 4;
    p.resolution_z = 16;
    p.size = 40.0;
    o = make(&p);
    nv_ocean_update(o, 3.3);
    check_against_dft(o, 3.3);
    nv_ocean_destroy(o);
}

static void test_hermitian_and_evolution(void** state) {
    (void)state;
    nv_ocean_params p = small_params();
    p.resolution = 32;
    p.resolution_z = 16;
    nv_ocean* o = make(&p);
    double t = 51.7;
    nv_ocean_update(o, t);
    int nonzero = 0;
    for (int m = -7; m < 8; m++) {
        for (int n = -15; n < 16; n++) {
            float a[2], b[2];
            nv_ocean_evolved_amplitude(o, 0, n, m, a);
            nv_ocean_evolved_amplitude(o, 0, -n, -m, b);
            /* h~(-k) = conj(h~(k)), bit for bit */
            assert_true(a[0] == b[0] && a[1] == -b[1]);
            /* and it is h0(k) e^{-iwt} + conj(h0(-k)) e^{iwt} */
            double pa[2], qa[2];
            nv_ocean_initial_amplitude(o, 0, n, m, pa);
            nv_ocean_initial_amplitude(o, 0, -n, -m, qa);
            double w = nv_ocean_wave_omega(o, 0, n, m);
            double cw = cos(w * t), sw = sin(w * t);
            double hr = pa[0] * cw + pa[1] * sw + qa[0] * cw + qa[1] * sw;
            double hi = pa[1] * cw - pa[0] * sw + qa[0] * sw - qa[1] * cw;
            double amp = hypot(pa[0], pa[1]) + hypot(qa[0], qa[1]);
            ASSERT_NEAR_ABS(a[0], hr, 1e-5 * amp + 1e-12);
            ASSERT_NEAR_ABS(a[1], hi, 1e-5 * amp + 1e-12);
            nonzero += amp > 0.0;
        }
    }
    assert_true(nonzero > 100);
    nv_ocean_destroy(o);
}

static void test_mean_zero_and_periodic(void** state) {
    (void)state;
    nv_ocean_params p = nv_ocean_params_default();
    p.cascades = 1;
    p.resolution = 64;
    p.size = 400.0;
    nv_ocean* o = make(&p);
    nv_ocean_update(o, 12.5);
    const float* h = nv_ocean_field(o, 0, OCEAN_FIELD_HEIGHT);
    double sum = 0.0, sum2 = 0.0;
    for (int i = 0; i < 64 * 64; i++) {
        sum += h[OCEAN_FIELD_STRIDE * i];
        sum2 += (double)h[OCEAN_FIELD_STRIDE * i] * h[OCEAN_FIELD_STRIDE * i];
    }
    double rms = sqrt(sum2 / 4096.0);
    assert_true(rms > 0.1);
    ASSERT_NEAR_ABS(sum / 4096.0, 0.0, 1e-6 * rms);
    /* periodic in x and z, for the labels and for the choppy query */
    double x[3] = {17.3, 17.3 + 400.0, 17.3 - 800.0}, z[3] = {-45.1, -45.1 - 400.0, -45.1 + 1200.0};
    nv_ocean_point pt[3];
    nv_ocean_sample_labels(o, 3, x, z, pt);
    float hq[3];
    nv_water_query q = {3, x, z, hq, NULL, NULL};
    assert_int_equal(nv_ocean_sample(o, &q), 0);
    for (int i = 1; i < 3; i++) {
        ASSERT_NEAR_ABS(pt[i].height, pt[0].height, 1e-4);
        ASSERT_NEAR_ABS(pt[i].disp_x, pt[0].disp_x, 1e-4);
        ASSERT_NEAR_ABS(pt[i].jacobian, pt[0].jacobian, 1e-4);
        ASSERT_NEAR_ABS(hq[i], hq[0], 1e-4);
    }
    nv_ocean_destroy(o);
}

static void test_repeat_period(void** state) {
    (void)state;
    nv_ocean_params p = small_params();
    p.repeat_period = 200.0;
    p.cascades = 2;
    p.resolution = 64;
    p.resolution_z = 64;
    p.cascade_ratio = 3.7;
    nv_ocean* o = make(&p);
    /* every frequency is a whole number of turns per period */
    for (int c = 0; c < 2; c++)
        for (int m = -32; m < 32; m += 3)
            for (int n = -32; n < 32; n += 5) {
                if (!n && !m) continue;
                double turns = nv_ocean_wave_omega(o, c, n, m) * p.repeat_period / (2.0 * NV_PI);
                ASSERT_NEAR_ABS(turns, floor(turns + 0.5), 1e-9);
                assert_true(turns >= 1.0 - 1e-9);
            }
    size_t cells = 64 * 64 * OCEAN_FIELD_STRIDE;
    float* a = malloc(sizeof(float) * cells);
    assert_non_null(a);
    const double times[] = {3.25, 77.0};
    for (int i = 0; i < 2; i++) {
        nv_ocean_update(o, times[i]);
        memcpy(a, nv_ocean_field(o, 1, OCEAN_FIELD_HEIGHT), sizeof(float) * cells);
        /* one period later, and after a week of server time */
        const double later[] = {times[i] + p.repeat_period, times[i] + 3024.0 * p.repeat_period};
        for (int k = 0; k < 2; k++) {
            nv_ocean_update(o, later[k]);
            const float* b = nv_ocean_field(o, 1, OCEAN_FIELD_HEIGHT);
            for (size_t j = 0; j < cells; j++) ASSERT_NEAR_ABS(b[j], a[j], 2e-5);
        }
    }
    /* and a different time is a different sea */
    nv_ocean_update(o, 3.25 + 0.5 * p.repeat_period);
    double diff = 0.0;
    for (size_t j = 0; j < cells; j++) diff = fmax(diff, fabs(nv_ocean_field(o, 1, OCEAN_FIELD_HEIGHT)[j] - a[j]));
    assert_true(diff > 1e-3);
    free(a);
    nv_ocean_destroy(o);
}

static void test_mean_jacobian(void** state) {
    (void)state;
    const double lambdas[] = {0.0, 0.6, 2.0, 5.0};
    int folded = 0;
    for (int l = 0; l < 4; l++) {
        nv_ocean_params p = nv_ocean_params_default();
        p.cascades = 2;
        p.resolution = 64;
        p.cascade_ratio = 3.5;
        p.size = 300.0;
        p.wind_speed = 16.0;
        p.choppiness = lambdas[l];
        nv_ocean* o = make(&p);
        nv_ocean_update(o, 8.0);
        for (int c = 0; c < 2; c++) {
            const float* j = nv_ocean_field(o, c, OCEAN_FIELD_JACOBIAN);
            const float* h = nv_ocean_field(o, c, OCEAN_FIELD_HEIGHT);
            double sum = 0.0, hj = 0.0;
            int folds = 0;
            for (int i = 0; i < 64 * 64; i++) {
                sum += j[OCEAN_FIELD_STRIDE * i];
                hj += (double)h[OCEAN_FIELD_STRIDE * i] * j[OCEAN_FIELD_STRIDE * i];
                folds += j[OCEAN_FIELD_STRIDE * i] < 0.0f;
            }
            ASSERT_NEAR_ABS(sum / 4096.0, 1.0, 1e-5);
            if (lambdas[l] == 0.0) {
                for (int i = 0; i < 64 * 64; i++) assert_true(j[OCEAN_FIELD_STRIDE * i] == 1.0f);
            } else {
                /* crests sharpen: the surface's area-weighted mean height
                 * (sum of h J over labels) is below zero */
                assert_true(hj < 0.0);
            }
            if (lambdas[l] == 5.0) folded += folds;
        }
        nv_ocean_destroy(o);
    }
    assert_true(folded > 0); /* lambda 5 folds, and the mean is still 1 */
    /* the reported fold fraction is the share of labels with J < 0 */
    nv_ocean_params p = nv_ocean_params_default();
    p.cascades = 1;
    p.resolution = 64;
    p.size = 120.0;
    p.wind_speed = 16.0;
    p.choppiness = 6.0;
    nv_ocean* o = make(&p);
    const float* j = nv_ocean_field(o, 0, OCEAN_FIELD_JACOBIAN);
    int folds = 0;
    for (int i = 0; i < 64 * 64; i++) folds += j[OCEAN_FIELD_STRIDE * i] < 0.0f;
    nv_ocean_stats st;
    nv_ocean_measure(o, &st);
    assert_true(folds > 0);
    ASSERT_NEAR_ABS(st.fold_fraction, folds / 4096.0, 1e-12);
    nv_ocean_destroy(o);
}

static void test_dispersion_time_series(void** state) {
    (void)state;
    nv_ocean_params p = small_params();
    p.resolution = 8;
    p.resolution_z = 8;
    p.size = 50.0;
    p.depth = 4.0; /* finite depth: w^2 = g k tanh(k h) */
    p.repeat_period = 20.0;
    nv_ocean* o = make(&p);
    enum { M = 64 };
    double series[M];
    int ix = 3, iz = 5;
    for (int s = 0; s < M; s++) {
        nv_ocean_update(o, s * p.repeat_period / M);
        series[s] = grid(o, 0, OCEAN_FIELD_HEIGHT, ix, iz);
    }
    double x = ix * p.size / 8, z = iz * p.size / 8, w0 = 2.0 * NV_PI / p.repeat_period;
    /* Over one period the time DFT is a line spectrum: the e^{-iwt} part of
     * wave k sits at bin +j (w = j w0), the e^{+iwt} part at -j. */
    double pred_re[M] = {0}, pred_im[M] = {0}, peak = 0.0;
    for (int m = -4; m < 4; m++)
        for (int n = -4; n < 4; n++) {
            if (!n && !m) continue;
            double kx = 2.0 * NV_PI * n / p.size, kz = 2.0 * NV_PI * m / p.size;
            int j = (int)floor(test_omega(&p, hypot(kx, kz)) / w0 + 0.5);
            assert_true(j > 0 && j < M / 2);
            double pa[2], qa[2];
            nv_ocean_initial_amplitude(o, 0, n, m, pa);
            nv_ocean_initial_amplitude(o, 0, -n, -m, qa);
            double ce = cos(kx * x + kz * z), se = sin(kx * x + kz * z);
            pred_re[j] += pa[0] * ce - pa[1] * se; /* p e^{ikx} */
            pred_im[j] += pa[0] * se + pa[1] * ce;
            pred_re[M - j] += qa[0] * ce + qa[1] * se; /* conj(q) e^{ikx} */
            pred_im[M - j] += qa[0] * se - qa[1] * ce;
        }
    int best = 0;
    for (int j = 0; j < M; j++) {
        double re = 0.0, im = 0.0;
        for (int s = 0; s < M; s++) {
            double a = j * w0 * s * p.repeat_period / M;
            re += series[s] * cos(a) / M;
            im += series[s] * sin(a) / M;
        }
        ASSERT_NEAR_ABS(re, pred_re[j], 1e-5);
        ASSERT_NEAR_ABS(im, pred_im[j], 1e-5);
        double mag = hypot(re, im);
        if (mag > peak) peak = mag, best = j;
    }
    /* the strongest line is at the dispersion frequency of some wave */
    assert_true(peak > 1e-3);
    assert_true(hypot(pred_re[best], pred_im[best]) > 0.0);
    nv_ocean_destroy(o);
}

/* ---- determinism -------------------------------------------------------- */

static int same_fields(const nv_ocean* a, const nv_ocean* b) {
    int nx, nz;
    nv_ocean_resolution(a, &nx, &nz);
    for (int c = 0; c < nv_ocean_cascade_count(a); c++)
        for (int f = 0; f < OCEAN_FIELD_COUNT; f += 2) /* pairs: both floats of each */
            if (memcmp(nv_ocean_field(a, c, (nv_ocean_field_id)f), nv_ocean_field(b, c, (nv_ocean_field_id)f),
                       sizeof(float) * OCEAN_FIELD_STRIDE * nx * nz) != 0)
                return 0;
    return 1;
}

typedef struct split_job {
    nv_ocean* o;
    int part, parts; /* this thread's share */
} split_job;

/* The split update, blocks handed out round-robin, in reverse order. */
static void* split_columns(void* arg) {
    split_job* j = arg;
    int nx;
    nv_ocean_resolution(j->o, &nx, NULL);
    for (int c = nv_ocean_cascade_count(j->o) - 1; c >= 0; c--)
        for (int b = nx / 2 / 3 + 1 - 1 - j->part; b >= 0; b -= j->parts)
            nv_ocean_update_columns(j->o, c, 3 * b, 3 * b + 3 > nx / 2 ? nx / 2 : 3 * b + 3);
    return NULL;
}

static void* split_rows(void* arg) {
    split_job* j = arg;
    int nz;
    nv_ocean_resolution(j->o, NULL, &nz);
    for (int c = 0; c < nv_ocean_cascade_count(j->o); c++)
        for (int b = j->part; b * 5 < nz; b += j->parts)
            for (int pair = OCEAN_PAIR_COUNT - 1; pair >= 0; pair--) {
                /* pair 4 needs pair 3 on its rows: 3 first when both are ours */
                int pr = pair == 4 ? 3 : pair == 3 ? 4 : pair;
                nv_ocean_transform_pair_rows(j->o, c, pr, 5 * b, 5 * b + 5 > nz ? nz : 5 * b + 5);
            }
    return NULL;
}

static void test_bit_identical(void** state) {
    (void)state;
    nv_ocean_params p = nv_ocean_params_default();
    p.cascades = 3;
    p.resolution = 128;
    p.resolution_z = 64;
    p.cascade_ratio = 3.9;
    nv_ocean* a = make(&p);
    nv_ocean* b = make(&p);
    nv_ocean_update(a, 123.4);
    nv_ocean_update(b, 123.4);
    assert_true(same_fields(a, b));
    /* a different seed is a different sea */
    p.seed = 2;
    nv_ocean* c = make(&p);
    nv_ocean_update(c, 123.4);
    assert_false(same_fields(a, c));
    /* the split update on two threads, blocks in another order */
    nv_ocean_update(b, 999.0);
    nv_ocean_update_begin(b, 123.4);
    pthread_t th[2];
    split_job jobs[2] = {{b, 0, 2}, {b, 1, 2}};
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&th[i], NULL, split_columns, &jobs[i]), 0);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&th[i], NULL, split_rows, &jobs[i]), 0);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    assert_true(same_fields(a, b));
    /* queries read the same bits too, and a point's answer does not depend
     * on the batch it came in (four at a time, or alone) */
    enum { QN = 37 };
    double x[QN], z[QN];
    float ha[QN], hb[QN], na[3 * QN], nb[3 * QN], va[QN], vb[QN];
    for (int i = 0; i < QN; i++) {
        x[i] = 11.0 * i - 150.0 + (i == 5 ? 1e5 : 0.0);
        z[i] = 7.3 * i + 0.25 - (i == 9 ? 3e4 : 0.0);
    }
    x[3] = 0.0; /* on the wrap of every cascade */
    z[3] = 0.0;
    nv_water_query qa = {QN, x, z, ha, na, va};
    size_t fa = nv_ocean_sample(a, &qa);
    size_t fb = 0;
    for (int i = 0; i < QN; i++) {
        nv_water_query q1 = {1, &x[i], &z[i], &hb[i], &nb[3 * i], &vb[i]};
        fb += nv_ocean_sample(b, &q1);
    }
    assert_int_equal(fa, fb);
    assert_memory_equal(ha, hb, sizeof ha);
    assert_memory_equal(na, nb, sizeof na);
    assert_memory_equal(va, vb, sizeof va);
    nv_ocean_destroy(a);
    nv_ocean_destroy(b);
    nv_ocean_destroy(c);
}

/* ---- parameters ---------------------------------------------------------- */

static void expect_error(nv_ocean_params p, const char* word) {
    nv_error err;
    err.message[0] = 0;
    assert_int_equal(nv_ocean_params_validate(&p, &err), -1);
    if (!strstr(err.message, word)) fail_msg("message '%s' does not name '%s'", err.message, word);
    assert_null(nv_ocean_create(&p, &err));
}

static void test_validation(void** state) {
    (void)state;
    nv_ocean_params d = nv_ocean_params_default(), p;
    assert_int_equal(nv_ocean_params_validate(&d, NULL), 0);
    p = d, p.wind_speed = -1.0, expect_error(p, "wind");
    p = d, p.wind_speed = NAN, expect_error(p, "wind");
    p = d, p.resolution = 100, expect_error(p, "resolution");
    p = d, p.resolution = 8192, expect_error(p, "resolution");
    p = d, p.resolution_z = 48, expect_error(p, "resolution_z");
    p = d, p.fetch = 0.0, expect_error(p, "fetch");
    p = d, p.depth = -2.0, expect_error(p, "depth");
    p = d, p.spectrum = SPECTRUM_TMA, p.depth = 0.0, expect_error(p, "depth");
    p = d, p.cascades = 5, expect_error(p, "cascades");
    p = d, p.cascade_ratio = 1.0, expect_error(p, "ratio");
    p = d, p.resolution = 16, expect_error(p, "resolution"); /* too coarse for 3 cascades of 5.23 */
    p = d, p.choppiness = -0.5, expect_error(p, "choppiness");
    p = d, p.size = -1.0, expect_error(p, "size"); /* 0 is valid: from the spectrum's peak */
    p = d, p.tp = -1.0, expect_error(p, "tp");
    p = d, p.tp = 8.0, expect_error(p, "tp");                                 /* a peak period needs hs */
    p = d, p.tp = 8.0, p.hs_target = 2.0, p.spectrum = SPECTRUM_PHILLIPS, expect_error(p, "tp");
    p = d, p.repeat_period = 0.0, expect_error(p, "repeat");
    p = d, p.beaufort = 13, expect_error(p, "beaufort");
    p = d, p.gamma = 0.5, expect_error(p, "gamma");
    p = d, p.spectrum = (nv_spectrum_type)9, expect_error(p, "spectrum");
    /* a target Hs needs waves to scale */
    nv_error err;
    p = d, p.wind_speed = 0.0, p.hs_target = 2.0;
    assert_null(nv_ocean_create(&p, &err));
    assert_non_null(strstr(err.message, "hs"));
    /* zero wind alone: a flat, valid sea */
    p = d, p.wind_speed = 0.0;
    nv_ocean* o = make(&p);
    float h[1];
    double x[1] = {3.0}, z[1] = {4.0};
    nv_water_query q = {1, x, z, h, NULL, NULL};
    assert_int_equal(nv_ocean_sample(o, &q), 0);
    assert_true(h[0] == 0.0f);
    nv_ocean_destroy(o);
}

/* The wind's direction turns about +y from +x toward -z, as headings do
 * (docs/ocean.md): the initial amplitudes' energy lies on the side of k
 * the wind blows toward, and a crest moves that way. */
static double energy_toward(const nv_ocean* o, int nx, int nz, double dir_x, double dir_z) {
    double sum = 0.0;
    for (int m = -nz / 2 + 1; m < nz / 2; m++)
        for (int n = -nx / 2 + 1; n < nx / 2; n++) {
            double a[2];
            nv_ocean_initial_amplitude(o, 0, n, m, a);
            if (n * dir_x + m * dir_z > 0.0) sum += a[0] * a[0] + a[1] * a[1];
        }
    return sum;
}

static void test_wind_direction_as_headings(void** state) {
    (void)state;
    static const double dirs[][3] = {{0.0, 1.0, 0.0}, {90.0, 0.0, -1.0}, {-90.0, 0.0, 1.0}, {180.0, -1.0, 0.0}};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        nv_ocean_params p = small_params();
        p.resolution_z = 16;
        p.wind_direction = dirs[i][0];
        nv_ocean* o = make(&p);
        double down = energy_toward(o, 16, 16, dirs[i][1], dirs[i][2]);
        double up = energy_toward(o, 16, 16, -dirs[i][1], -dirs[i][2]);
        assert_true(down > 0.0);
        assert_true(down > 20.0 * up);
        nv_ocean_destroy(o);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fft_equals_dft),
        cmocka_unit_test(test_hermitian_and_evolution),
        cmocka_unit_test(test_mean_zero_and_periodic),
        cmocka_unit_test(test_repeat_period),
        cmocka_unit_test(test_mean_jacobian),
        cmocka_unit_test(test_dispersion_time_series),
        cmocka_unit_test(test_bit_identical),
        cmocka_unit_test(test_validation),
        cmocka_unit_test(test_wind_direction_as_headings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
