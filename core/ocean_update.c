// SPDX-License-Identifier: MIT
/* FFT ocean, time evolution and transforms (setup in ocean.c).
 *
 * Per cascade and step, each field f(x0) = sum_k F~(k) e^{i k.x0} is one
 * inverse 2D DFT, done as a z pass then an x pass:
 *   columns: for each kx column n >= 0 of the half plane, evolve h~ (and
 *            dh~/dt) down the column, form the six base spectra and transform
 *            each along z, written transposed into mid[b] (row z, column n);
 *   rows:    for each row z, multiply by the field's kx factor, pack two real
 *            fields A + iB into one complex row (Hermitian symmetry gives the
 *            kx < 0 half), one complex FFT along x: A in re, B in im.
 * 9 real fields cost 6 column transforms and 5 row transforms. The stack
 * holds the per-column and per-row scratch (under 64 KiB). */
#include <math.h>
#include <string.h>
#include <emmintrin.h>

#include "naval/vecmath.h"
#include "ocean_internal.h"

/* Per pair: base and kx multiplier of fields A (re) and B (im); -1 = none. */
static const int pair_base[OCEAN_PAIR_COUNT][2] = {{0, 5}, {2, 3}, {0, 1}, {2, 4}, {3, -1}};
static const int pair_mult[OCEAN_PAIR_COUNT] = {OCEAN_MULT_ONE, OCEAN_MULT_IKX, OCEAN_MULT_IKX, OCEAN_MULT_NEG_KX2,
                                                OCEAN_MULT_IKX}; /* B's is always 1 */

void nv_ocean_update_begin(nv_ocean* o, double time) {
    double period = o->params.repeat_period;
    double t = fmod(time, period);
    if (t < 0.0) t += period;
    if (!(t >= 0.0 && t < period)) t = 0.0; /* non-finite time, or rounding up to T */
    o->time = time;
    o->theta = 2.0 * NV_PI * t / period;
    /* e^{i j theta} = e^{i (j / B) B theta} e^{i (j % B) theta}: B + jmax / B
     * sin/cos pairs instead of jmax, accurate to double rounding */
    double* lo = o->phasor_lo;
    double* hi = o->phasor_hi;
    for (int j = 0; j < OCEAN_PHASOR_BLOCK; j++) {
        lo[2 * j] = cos(j * o->theta);
        lo[2 * j + 1] = sin(j * o->theta);
    }
    int nhi = o->jmax / OCEAN_PHASOR_BLOCK + 1;
    for (int j = 0; j < nhi; j++) {
        double a = (double)j * OCEAN_PHASOR_BLOCK * o->theta;
        hi[2 * j] = cos(a);
        hi[2 * j + 1] = sin(a);
    }
    for (int j = 0; j <= o->jmax; j++) {
        const double* h = hi + 2 * (j / OCEAN_PHASOR_BLOCK);
        const double* l = lo + 2 * (j % OCEAN_PHASOR_BLOCK);
        o->phasor[2 * j] = (float)(h[0] * l[0] - h[1] * l[1]);
        o->phasor[2 * j + 1] = (float)(h[0] * l[1] + h[1] * l[0]);
    }
}

/* ---------------------------------------------------------------- columns */

/* h~ = h0(k) e^{-iwt} + conj(h0(-k)) e^{iwt} down a column, from sigma and
 * delta: exactly Hermitian, since -k holds the same sigma and -delta. The
 * phasors are gathered first (into cs, sn, kept for the velocity), so that
 * the arithmetic vectorises. */
static void column_height(int nz, const int32_t* restrict widx, const float* restrict tab, const float* restrict amp,
                          float* restrict cs, float* restrict sn, float* restrict h) {
    for (int m = 0; m < nz; m++) {
        const int j = widx[m];
        cs[m] = tab[2 * j];
        sn[m] = tab[2 * j + 1];
    }
    for (int m = 0; m < nz; m++) {
        const float c = cs[m], s = sn[m];
        h[2 * m] = c * amp[4 * m] + s * amp[4 * m + 1];
        h[2 * m + 1] = c * amp[4 * m + 3] + s * amp[4 * m + 2];
    }
}

/* dh~/dt = -iw h0(k) e^{-iwt} + iw conj(h0(-k)) e^{iwt} */
static void column_velocity(int nz, const float* restrict cs, const float* restrict sn, const float* restrict wv,
                            const float* restrict amp, float* restrict v) {
    for (int m = 0; m < nz; m++) {
        const float c = cs[m], s = sn[m], w = wv[m];
        v[2 * m] = w * (c * amp[4 * m + 1] - s * amp[4 * m]);
        v[2 * m + 1] = w * (c * amp[4 * m + 2] - s * amp[4 * m + 3]);
    }
}

/* x = i kz h */
static void column_ikz(int nz, const float* restrict kz, const float* restrict h, float* restrict x) {
    for (int m = 0; m < nz; m++) {
        x[2 * m] = -kz[m] * h[2 * m + 1];
        x[2 * m + 1] = kz[m] * h[2 * m];
    }
}

/* h *= g, real g */
static void column_scale(int nz, const float* restrict g, float* restrict h) {
    for (int m = 0; m < nz; m++) {
        h[2 * m] *= g[m];
        h[2 * m + 1] *= g[m];
    }
}

/* Columns go through in blocks of up to COLUMN_BLOCK_CELLS / nz, base by
 * base: the z pass writes each base's block down the rows of mid, and those
 * cache lines stay hot from one column to the next. Every column is still
 * transformed alone, by the plan of its parity: the bits do not depend on
 * how the columns are grouped into jobs. */
#define COLUMN_BLOCK_CELLS 2048
#define COLUMN_BLOCK_MAX 8

void nv_ocean_update_columns(nv_ocean* o, int c, int col_begin, int col_end) {
    ocean_cascade* cc = &o->cascade[c];
    const int nz = o->nz;
    const float w0 = (float)o->omega0;
    const float* tab = o->phasor;
    _Alignas(64) float cs[COLUMN_BLOCK_CELLS > OCEAN_MAX_RESOLUTION ? COLUMN_BLOCK_CELLS : OCEAN_MAX_RESOLUTION];
    _Alignas(64) float sn[COLUMN_BLOCK_CELLS > OCEAN_MAX_RESOLUTION ? COLUMN_BLOCK_CELLS : OCEAN_MAX_RESOLUTION];
    _Alignas(64) fftwf_complex hb[COLUMN_BLOCK_CELLS > OCEAN_MAX_RESOLUTION ? COLUMN_BLOCK_CELLS
                                                                            : OCEAN_MAX_RESOLUTION]; /* h~, g~ */
    _Alignas(64) fftwf_complex xb[OCEAN_MAX_RESOLUTION];
    _Alignas(64) fftwf_complex yb[OCEAN_MAX_RESOLUTION];
    float* x = (float*)xb;
    float* y = (float*)yb;
    int block = COLUMN_BLOCK_CELLS / nz;
    if (block > COLUMN_BLOCK_MAX) block = COLUMN_BLOCK_MAX;
    if (block < 1) block = 1;
    if (col_end > cc->ncols) col_end = cc->ncols; /* columns past ncols are 0 for good */
    for (int n0 = col_begin; n0 < col_end; n0 += block) {
        const int count = col_end - n0 < block ? col_end - n0 : block;
        const size_t cell0 = (size_t)n0 * nz, len = (size_t)count * nz;
        const int32_t* widx = cc->widx + cell0;
        const float* amp = cc->amp + 4 * cell0;
        column_height((int)len, widx, tab, amp, cs, sn, (float*)hb);
#define COLUMN(j) ((float*)hb + 2 * (size_t)(j) * nz)
#define PLAN(j) cc->plan_z[(n0 + (j)) & 1]
        for (int j = 0; j < count; j++) /* out of place: the input survives */
            fftwf_execute_dft(PLAN(j), (fftwf_complex*)COLUMN(j), cc->mid[0] + n0 + j);
        for (int j = 0; j < count; j++) {
            column_ikz(nz, cc->kz, COLUMN(j), x);
            fftwf_execute_dft(PLAN(j), xb, cc->mid[1] + n0 + j);
        }
        column_scale((int)len, cc->ginv + cell0, (float*)hb); /* g~ = lambda h~ / k */
        for (int j = 0; j < count; j++)
            fftwf_execute_dft(PLAN(j), (fftwf_complex*)COLUMN(j), cc->mid[2] + n0 + j);
        for (int j = 0; j < count; j++) {
            column_ikz(nz, cc->kz, COLUMN(j), x); /* i kz g~ */
            fftwf_execute_dft(PLAN(j), xb, cc->mid[3] + n0 + j);
            column_ikz(nz, cc->kz, x, y); /* -kz^2 g~ = i kz (i kz g~) */
            fftwf_execute_dft(PLAN(j), yb, cc->mid[4] + n0 + j);
        }
        float* wv = (float*)hb; /* g~ is done with: w per cell */
        for (size_t i = 0; i < len; i++) wv[i] = (float)widx[i] * w0;
        for (int j = 0; j < count; j++) {
            const size_t off = (size_t)j * nz;
            column_velocity(nz, cs + off, sn + off, wv + off, amp + 4 * off, x);
            fftwf_execute_dft(PLAN(j), xb, cc->mid[5] + n0 + j);
        }
#undef COLUMN
#undef PLAN
    }
}

/* ------------------------------------------------------------------- rows */

/* Packs A + iB over kx = 1 .. len: lo[i] = a + ib at kx = i + 1 and, walking
 * down from the end of the row, hi[len - 1 - i] = conj(a) + i conj(b) at -kx,
 * where a = mult(kx) fa (mult: 1, i kx or -kx^2 as the table `mul` holds it,
 * two floats per kx) and b = fb. With d = i b: lo = a + d, hi = conj(a - d).
 * The SSE2 path does the very same IEEE operations as the scalar one. */
static void row_pack(int type, int len, const float* restrict mul, const float* restrict fa,
                     const float* restrict fb, float* restrict lo, float* restrict hi) {
    int i = 0;
    const __m128 neg_re = _mm_castsi128_ps(_mm_set_epi32(0, (int)0x80000000, 0, (int)0x80000000));
    const __m128 neg_im = _mm_castsi128_ps(_mm_set_epi32((int)0x80000000, 0, (int)0x80000000, 0));
    for (; i + 2 <= len; i += 2) {
        __m128 va = _mm_loadu_ps(fa + 2 * i);
        if (type == OCEAN_MULT_IKX)
            va = _mm_mul_ps(_mm_shuffle_ps(va, va, _MM_SHUFFLE(2, 3, 0, 1)), _mm_loadu_ps(mul + 2 * i));
        else if (type == OCEAN_MULT_NEG_KX2)
            va = _mm_mul_ps(va, _mm_loadu_ps(mul + 2 * i));
        __m128 vb = _mm_loadu_ps(fb + 2 * i);
        __m128 vd = _mm_xor_ps(_mm_shuffle_ps(vb, vb, _MM_SHUFFLE(2, 3, 0, 1)), neg_re); /* (-bi, br) */
        _mm_storeu_ps(lo + 2 * i, _mm_add_ps(va, vd));
        __m128 vh = _mm_xor_ps(_mm_sub_ps(va, vd), neg_im);
        _mm_storeu_ps(hi + 2 * (len - 2 - i), _mm_shuffle_ps(vh, vh, _MM_SHUFFLE(1, 0, 3, 2)));
    }
    for (; i < len; i++) {
        float ar = fa[2 * i], ai = fa[2 * i + 1];
        if (type == OCEAN_MULT_IKX) {
            ar = mul[2 * i] * fa[2 * i + 1];
            ai = mul[2 * i + 1] * fa[2 * i];
        } else if (type == OCEAN_MULT_NEG_KX2) {
            ar = fa[2 * i] * mul[2 * i];
            ai = fa[2 * i + 1] * mul[2 * i + 1];
        }
        const float dr = -fb[2 * i + 1], di = fb[2 * i];
        const int j = len - 1 - i;
        lo[2 * i] = ar + dr;
        lo[2 * i + 1] = ai + di;
        hi[2 * j] = ar - dr;
        hi[2 * j + 1] = -(ai - di);
    }
}

/* J = (1 + Dxx)(1 + Dzz) - Dxz^2 into the free slot of pair 4. */
static void row_jacobian(int nx, const float* restrict diag, float* restrict dxz_j) {
    for (int i = 0; i < nx; i++) {
        const float a = 1.0f + diag[2 * i], b = 1.0f + diag[2 * i + 1], e = dxz_j[2 * i];
        dxz_j[2 * i + 1] = a * b - e * e;
    }
}

void nv_ocean_transform_pair_rows(nv_ocean* o, int c, int pair, int row_begin, int row_end) {
    ocean_cascade* cc = &o->cascade[c];
    const int nx = o->nx, hx = o->hx, ncols = cc->ncols;
    const int ba = pair_base[pair][0], bb = pair_base[pair][1];
    const int type = pair_mult[pair];
    const float* mul = type == OCEAN_MULT_IKX ? cc->mul_ikx : cc->mul_kx2;
    _Alignas(64) fftwf_complex scratch[OCEAN_MAX_RESOLUTION];
    _Alignas(64) float zero[OCEAN_MAX_RESOLUTION];
    float* row = (float*)scratch;
    if (bb < 0) memset(zero, 0, 2 * (size_t)ncols * sizeof(float));
    /* band-limited columns and the Nyquist column stay 0 */
    for (int n = ncols; n <= hx; n++) {
        row[2 * n] = row[2 * n + 1] = 0.0f;
        row[2 * (nx - n)] = row[2 * (nx - n) + 1] = 0.0f;
    }
    for (int z = row_begin; z < row_end; z++) {
        const float* fa = (const float*)(cc->mid[ba] + (size_t)z * o->mid_stride);
        const float* fb = bb >= 0 ? (const float*)(cc->mid[bb] + (size_t)z * o->mid_stride) : zero;
        /* kx = 0: the real parts only (the imaginary ones are rounding); the
         * multipliers i kx and -kx^2 vanish there */
        row[0] = type == OCEAN_MULT_ONE ? fa[0] : 0.0f;
        row[1] = fb[0];
        row_pack(type, ncols - 1, mul + 2, fa + 2, fb + 2, row + 2, row + 2 * (nx - ncols + 1));
        fftwf_complex* dst = cc->out[pair] + (size_t)z * nx;
        fftwf_execute_dft(cc->plan_x, scratch, dst);
        if (pair == OCEAN_PAIR_DXZ_J)
            row_jacobian(nx, (const float*)(cc->out[OCEAN_PAIR_DIAG] + (size_t)z * nx), (float*)dst);
    }
}

void nv_ocean_update(nv_ocean* o, double time) {
    nv_ocean_update_begin(o, time);
    for (int c = 0; c < o->cascade_count; c++) {
        nv_ocean_update_columns(o, c, 0, o->hx);
        for (int p = 0; p < OCEAN_PAIR_COUNT; p++) nv_ocean_transform_pair_rows(o, c, p, 0, o->nz);
    }
    if (o->surface) nv_ocean_update_surface_rows(o, 0, o->nz);
}
