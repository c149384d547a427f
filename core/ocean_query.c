// SPDX-License-Identifier: MIT
/* Queries on the FFT ocean: bilinear sampling of the cascades' grids with
 * periodic wrap, inversion of the choppy displacement (Newton), normals,
 * vertical velocity, and the field statistics. Everything here only reads
 * the ocean. */
#include <math.h>
#include <string.h>
#include <emmintrin.h>

#include "naval/vecmath.h"
#include "ocean_internal.h"

/* Where a point falls in one cascade's grid: the rows and column of its
 * cell's corners and the bilinear weights. */
typedef struct grid_spot {
    size_t r0, r1; /* row offsets (complex elements) */
    int ix0, ix1;
    float w00, w10, w01, w11;
} grid_spot;

/* u, v in cells, within a few tiles of [0, n) */
static inline void grid_locate(const nv_ocean* o, float u, float v, grid_spot* s) {
    int iu = floor_int(u), iv = floor_int(v);
    float tx = u - (float)iu, tz = v - (float)iv;
    int ix0 = iu & (o->nx - 1), iz0 = iv & (o->nz - 1);
    s->ix0 = ix0;
    s->ix1 = (ix0 + 1) & (o->nx - 1);
    s->r0 = (size_t)iz0 * o->nx;
    s->r1 = (size_t)((iz0 + 1) & (o->nz - 1)) * o->nx;
    float ux = 1.0f - tx, uz = 1.0f - tz;
    s->w00 = ux * uz;
    s->w10 = tx * uz;
    s->w01 = ux * tz;
    s->w11 = tx * tz;
}

/* One pair (A, B) of a grid, as values (kept in registers). */
typedef struct fpair {
    float a, b;
} fpair;

/* Bilinear sample of one pair, summed as (w00 a00 + w01 a01) + (w10 a10 +
 * w11 a11) on every path (scalar, SSE2, four points at a time): a point's
 * answer has the same bits whichever path and batch computed it. */
static inline fpair grid_pair(const fftwf_complex* g, const grid_spot* s) {
    fpair r;
    const float* p00 = g[s->r0 + s->ix0];
    const float* p10 = g[s->r0 + s->ix1];
    const float* p01 = g[s->r1 + s->ix0];
    const float* p11 = g[s->r1 + s->ix1];
    r.a = (s->w00 * p00[0] + s->w01 * p01[0]) + (s->w10 * p10[0] + s->w11 * p11[0]);
    r.b = (s->w00 * p00[1] + s->w01 * p01[1]) + (s->w10 * p10[1] + s->w11 * p11[1]);
    return r;
}

/* Unit normal of the displaced surface from the summed derivatives:
 * tangents (1 + Dxx, hx, Dxz) and (Dxz, hz, 1 + Dzz). Falls back to the
 * plain height-field normal where the surface folds (J <= 0). */
static inline void surface_normal(float dxx, float dzz, float dxz, float hx, float hz, float* n) {
    float a = 1.0f + dxx, b = 1.0f + dzz, e = dxz;
    float nx = hz * e - b * hx;
    float ny = a * b - e * e;
    float nz = e * hx - hz * a;
    if (!(ny > 0.0f)) {
        nx = -hx;
        ny = 1.0f;
        nz = -hz;
    }
    float inv = 1.0f / sqrtf(nx * nx + ny * ny + nz * nz);
    n[0] = nx * inv;
    n[1] = ny * inv;
    n[2] = nz * inv;
}

typedef struct query_ctx {
    const nv_ocean* o;
    const nv_water_query* q;
    int nc, iters;
    float tol2;
    float icx[OCEAN_MAX_CASCADES], icz[OCEAN_MAX_CASCADES];
    int shift; /* log2(nx) */
} query_ctx;

/* One point: Newton on F(s) = s + D(q + s) = 0 for the offset s = x0 - q.
 * Returns 1 when it did not converge. */
static int sample_one(const query_ctx* k, size_t i) {
    const nv_ocean* o = k->o;
    const nv_water_query* q = k->q;
    const int nc = k->nc;
    grid_spot spots[OCEAN_MAX_CASCADES];
    float bu[OCEAN_MAX_CASCADES], bv[OCEAN_MAX_CASCADES];
    for (int c = 0; c < nc; c++) grid_base(o, &o->cascade[c], q->x[i], q->z[i], &bu[c], &bv[c]);
    float sx = 0.0f, sz = 0.0f, best_x = 0.0f, best_z = 0.0f, best_e = INFINITY;
    float bxx = 0.0f, bzz = 0.0f, bxz = 0.0f; /* derivatives at the best iterate */
    float ps2 = -1.0f;                        /* previous Newton step, squared */
    int converged = 0;
    for (int it = 0; it < k->iters; it++) {
        float dx = 0.0f, dz = 0.0f, dxx = 0.0f, dzz = 0.0f, dxz = 0.0f;
        for (int c = 0; c < nc; c++) {
            const ocean_cascade* cc = &o->cascade[c];
            grid_locate(o, bu[c] + sx * k->icx[c], bv[c] + sz * k->icz[c], &spots[c]);
            fpair p = grid_pair(cc->out[OCEAN_PAIR_DISP], &spots[c]);
            dx += p.a;
            dz += p.b;
            p = grid_pair(cc->out[OCEAN_PAIR_DIAG], &spots[c]);
            dxx += p.a;
            dzz += p.b;
            dxz += grid_pair(cc->out[OCEAN_PAIR_DXZ_J], &spots[c]).a;
        }
        float fx = sx + dx, fz = sz + dz;
        float e = fx * fx + fz * fz;
        if (e < best_e) {
            best_e = e;
            best_x = sx;
            best_z = sz;
            bxx = dxx;
            bzz = dzz;
            bxz = dxz;
        }
        if (e < k->tol2) {
            converged = 1;
            break;
        }
        if (it + 1 == k->iters) break;
        float a = 1.0f + dxx, b = 1.0f + dzz;
        float det = a * b - dxz * dxz;
        int newton = det > 0.2f;
        float stx, stz;
        if (newton) {
            float inv = 1.0f / det;
            stx = (b * fx - dxz * fz) * inv;
            stz = (a * fz - dxz * fx) * inv;
        } else { /* near a fold: fixed point x0 <- q - D(x0) */
            stx = fx;
            stz = fz;
        }
        sx -= stx;
        sz -= stz;
        /* Steps shrinking as d_i ~ C d_{i-1}^2 leave an error ~ d_i^3 / d_{i-1}^2
         * after this one: accept the new point, 4x under the tolerance,
         * without another evaluation. */
        float s2 = stx * stx + stz * stz;
        if (newton && ps2 > 0.0f && (s2 * s2) * s2 < ((0.0625f * k->tol2) * ps2) * ps2) {
            best_x = sx;
            best_z = sz;
            bxx = dxx;
            bzz = dzz;
            bxz = dxz;
            converged = 1;
            break;
        }
        ps2 = newton ? s2 : -1.0f;
    }
    float h = 0.0f, v = 0.0f, hx = 0.0f, hz = 0.0f;
    for (int c = 0; c < nc; c++) {
        const ocean_cascade* cc = &o->cascade[c];
        grid_locate(o, bu[c] + best_x * k->icx[c], bv[c] + best_z * k->icz[c], &spots[c]);
        fpair p = grid_pair(cc->out[OCEAN_PAIR_H_V], &spots[c]);
        h += p.a;
        v += p.b;
        if (q->normal) {
            p = grid_pair(cc->out[OCEAN_PAIR_SLOPE], &spots[c]);
            hx += p.a;
            hz += p.b;
        }
    }
    q->height[i] = h;
    if (q->vertical_velocity) q->vertical_velocity[i] = v;
    if (q->normal) {
        if (!converged) bxx = bzz = bxz = 0.0f; /* no trustworthy chart: height-field normal */
        surface_normal(bxx, bzz, bxz, hx, hz, q->normal + 3 * i);
    }
    return !converged;
}

/* Four points at once, lane by lane the same operations as sample_one (so
 * the same bits): the iterations of four independent points overlap instead
 * of waiting on each other's latency. */

typedef struct spot4 {
    int e00[4], e10[4], e01[4], e11[4]; /* element indices of the corners */
    __m128 w00, w10, w01, w11;
} spot4;

static inline __m128 select4(__m128 mask, __m128 a, __m128 b) {
    return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

static inline void locate4(const nv_ocean* o, int shift, __m128 u, __m128 v, spot4* s) {
    __m128i iu = _mm_cvttps_epi32(u), iv = _mm_cvttps_epi32(v);
    /* floor: truncation, minus one where that rounded up (negative values) */
    iu = _mm_add_epi32(iu, _mm_castps_si128(_mm_cmplt_ps(u, _mm_cvtepi32_ps(iu))));
    iv = _mm_add_epi32(iv, _mm_castps_si128(_mm_cmplt_ps(v, _mm_cvtepi32_ps(iv))));
    __m128 tx = _mm_sub_ps(u, _mm_cvtepi32_ps(iu)), tz = _mm_sub_ps(v, _mm_cvtepi32_ps(iv));
    const __m128i mx = _mm_set1_epi32(o->nx - 1), mz = _mm_set1_epi32(o->nz - 1), one = _mm_set1_epi32(1);
    __m128i ix0 = _mm_and_si128(iu, mx), iz0 = _mm_and_si128(iv, mz);
    __m128i ix1 = _mm_and_si128(_mm_add_epi32(ix0, one), mx);
    __m128i iz1 = _mm_and_si128(_mm_add_epi32(iz0, one), mz);
    __m128i r0 = _mm_sll_epi32(iz0, _mm_cvtsi32_si128(shift)), r1 = _mm_sll_epi32(iz1, _mm_cvtsi32_si128(shift));
    _mm_storeu_si128((__m128i*)s->e00, _mm_add_epi32(r0, ix0));
    _mm_storeu_si128((__m128i*)s->e10, _mm_add_epi32(r0, ix1));
    _mm_storeu_si128((__m128i*)s->e01, _mm_add_epi32(r1, ix0));
    _mm_storeu_si128((__m128i*)s->e11, _mm_add_epi32(r1, ix1));
    const __m128 ones = _mm_set1_ps(1.0f);
    __m128 ux = _mm_sub_ps(ones, tx), uz = _mm_sub_ps(ones, tz);
    s->w00 = _mm_mul_ps(ux, uz);
    s->w10 = _mm_mul_ps(tx, uz);
    s->w01 = _mm_mul_ps(ux, tz);
    s->w11 = _mm_mul_ps(tx, tz);
}

static inline __m128 load_two(const fftwf_complex* g, int lo, int hi) {
    __m128 r = _mm_loadl_pi(_mm_setzero_ps(), (const __m64*)g[lo]);
    return _mm_loadh_pi(r, (const __m64*)g[hi]);
}

/* Bilinear sample of one pair for four points: *a and *b get the lanes. */
static inline void pair4(const fftwf_complex* g, const spot4* s, __m128* a, __m128* b) {
    __m128 t0 = load_two(g, s->e00[0], s->e10[0]), t1 = load_two(g, s->e00[1], s->e10[1]);
    __m128 t2 = load_two(g, s->e00[2], s->e10[2]), t3 = load_two(g, s->e00[3], s->e10[3]);
    _MM_TRANSPOSE4_PS(t0, t1, t2, t3); /* a00 b00 a10 b10, one lane per point */
    __m128 u0 = load_two(g, s->e01[0], s->e11[0]), u1 = load_two(g, s->e01[1], s->e11[1]);
    __m128 u2 = load_two(g, s->e01[2], s->e11[2]), u3 = load_two(g, s->e01[3], s->e11[3]);
    _MM_TRANSPOSE4_PS(u0, u1, u2, u3); /* a01 b01 a11 b11 */
    *a = _mm_add_ps(_mm_add_ps(_mm_mul_ps(s->w00, t0), _mm_mul_ps(s->w01, u0)),
                    _mm_add_ps(_mm_mul_ps(s->w10, t2), _mm_mul_ps(s->w11, u2)));
    *b = _mm_add_ps(_mm_add_ps(_mm_mul_ps(s->w00, t1), _mm_mul_ps(s->w01, u1)),
                    _mm_add_ps(_mm_mul_ps(s->w10, t3), _mm_mul_ps(s->w11, u3)));
}

/* grid_base for two coordinates along one axis, the same double operations:
 * returns 0 (and leaves *out alone) when a value is out of the fast range. */
static inline int base2(__m128d x, double inv_cell, double n, double inv_n, __m128* out, int half) {
    __m128d g = _mm_mul_pd(x, _mm_set1_pd(inv_cell));
    __m128d t = _mm_mul_pd(g, _mm_set1_pd(inv_n));
    const __m128d limit = _mm_set1_pd(1e9), abs_mask = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffffLL));
    __m128d in = _mm_and_pd(_mm_cmplt_pd(_mm_and_pd(g, abs_mask), _mm_set1_pd(1e15)),
                            _mm_cmplt_pd(_mm_and_pd(t, abs_mask), limit));
    if (_mm_movemask_pd(in) != 3) return 0;
    __m128d tr = _mm_cvtepi32_pd(_mm_cvttpd_epi32(t));
    __m128d fl = _mm_sub_pd(tr, _mm_and_pd(_mm_cmplt_pd(t, tr), _mm_set1_pd(1.0)));
    __m128 f = _mm_cvtpd_ps(_mm_sub_pd(g, _mm_mul_pd(_mm_set1_pd(n), fl)));
    *out = half ? _mm_movelh_ps(*out, f) : f;
    return 1;
}

static inline void base4(const nv_ocean* o, const ocean_cascade* cc, const double* x, const double* z, __m128* u,
                         __m128* v) {
    if (base2(_mm_loadu_pd(x), cc->inv_cell_x, o->nx, cc->inv_nx, u, 0) &&
        base2(_mm_loadu_pd(x + 2), cc->inv_cell_x, o->nx, cc->inv_nx, u, 1) &&
        base2(_mm_loadu_pd(z), cc->inv_cell_z, o->nz, cc->inv_nz, v, 0) &&
        base2(_mm_loadu_pd(z + 2), cc->inv_cell_z, o->nz, cc->inv_nz, v, 1))
        return;
    float tu[4], tv[4];
    for (int l = 0; l < 4; l++) grid_base(o, cc, x[l], z[l], &tu[l], &tv[l]);
    *u = _mm_loadu_ps(tu);
    *v = _mm_loadu_ps(tv);
}

static int sample_four(const query_ctx* k, size_t i0) {
    const nv_ocean* o = k->o;
    const nv_water_query* q = k->q;
    const int nc = k->nc;
    __m128 bu[OCEAN_MAX_CASCADES], bv[OCEAN_MAX_CASCADES];
    for (int c = 0; c < nc; c++) base4(o, &o->cascade[c], q->x + i0, q->z + i0, &bu[c], &bv[c]);
    const __m128 zero = _mm_setzero_ps(), ones = _mm_set1_ps(1.0f), tol2 = _mm_set1_ps(k->tol2);
    __m128 sx = zero, sz = zero, best_x = zero, best_z = zero, best_e = _mm_set1_ps(INFINITY);
    __m128 bxx = zero, bzz = zero, bxz = zero, ps2 = _mm_set1_ps(-1.0f);
    __m128 active = _mm_castsi128_ps(_mm_set1_epi32(-1)), conv = zero;
    spot4 s;
    for (int it = 0; it < k->iters && _mm_movemask_ps(active); it++) {
        __m128 dx = zero, dz = zero, dxx = zero, dzz = zero, dxz = zero;
        for (int c = 0; c < nc; c++) {
            const ocean_cascade* cc = &o->cascade[c];
            locate4(o, k->shift, _mm_add_ps(bu[c], _mm_mul_ps(sx, _mm_set1_ps(k->icx[c]))),
                    _mm_add_ps(bv[c], _mm_mul_ps(sz, _mm_set1_ps(k->icz[c]))), &s);
            __m128 pa, pb;
            pair4(cc->out[OCEAN_PAIR_DISP], &s, &pa, &pb);
            dx = _mm_add_ps(dx, pa);
            dz = _mm_add_ps(dz, pb);
            pair4(cc->out[OCEAN_PAIR_DIAG], &s, &pa, &pb);
            dxx = _mm_add_ps(dxx, pa);
            dzz = _mm_add_ps(dzz, pb);
            pair4(cc->out[OCEAN_PAIR_DXZ_J], &s, &pa, &pb);
            dxz = _mm_add_ps(dxz, pa);
        }
        __m128 fx = _mm_add_ps(sx, dx), fz = _mm_add_ps(sz, dz);
        __m128 e = _mm_add_ps(_mm_mul_ps(fx, fx), _mm_mul_ps(fz, fz));
        __m128 better = _mm_and_ps(active, _mm_cmplt_ps(e, best_e));
        best_e = select4(better, e, best_e);
        best_x = select4(better, sx, best_x);
        best_z = select4(better, sz, best_z);
        bxx = select4(better, dxx, bxx);
        bzz = select4(better, dzz, bzz);
        bxz = select4(better, dxz, bxz);
        __m128 done = _mm_and_ps(active, _mm_cmplt_ps(e, tol2));
        conv = _mm_or_ps(conv, done);
        active = _mm_andnot_ps(done, active);
        if (it + 1 == k->iters) break;
        __m128 a = _mm_add_ps(ones, dxx), b = _mm_add_ps(ones, dzz);
        __m128 det = _mm_sub_ps(_mm_mul_ps(a, b), _mm_mul_ps(dxz, dxz));
        __m128 inv = _mm_div_ps(ones, det);
        __m128 newton = _mm_cmpgt_ps(det, _mm_set1_ps(0.2f));
        __m128 stx = select4(newton, _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(b, fx), _mm_mul_ps(dxz, fz)), inv), fx);
        __m128 stz = select4(newton, _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(a, fz), _mm_mul_ps(dxz, fx)), inv), fz);
        sx = select4(active, _mm_sub_ps(sx, stx), sx);
        sz = select4(active, _mm_sub_ps(sz, stz), sz);
        __m128 s2 = _mm_add_ps(_mm_mul_ps(stx, stx), _mm_mul_ps(stz, stz));
        __m128 lhs = _mm_mul_ps(_mm_mul_ps(s2, s2), s2);
        __m128 rhs = _mm_mul_ps(_mm_mul_ps(_mm_mul_ps(_mm_set1_ps(0.0625f), tol2), ps2), ps2);
        __m128 accept =
            _mm_and_ps(_mm_and_ps(active, newton), _mm_and_ps(_mm_cmpgt_ps(ps2, zero), _mm_cmplt_ps(lhs, rhs)));
        best_x = select4(accept, sx, best_x);
        best_z = select4(accept, sz, best_z);
        bxx = select4(accept, dxx, bxx);
        bzz = select4(accept, dzz, bzz);
        bxz = select4(accept, dxz, bxz);
        conv = _mm_or_ps(conv, accept);
        active = _mm_andnot_ps(accept, active);
        ps2 = select4(active, select4(newton, s2, _mm_set1_ps(-1.0f)), ps2);
    }
    __m128 h = zero, v = zero, hx = zero, hz = zero;
    for (int c = 0; c < nc; c++) {
        const ocean_cascade* cc = &o->cascade[c];
        locate4(o, k->shift, _mm_add_ps(bu[c], _mm_mul_ps(best_x, _mm_set1_ps(k->icx[c]))),
                _mm_add_ps(bv[c], _mm_mul_ps(best_z, _mm_set1_ps(k->icz[c]))), &s);
        __m128 pa, pb;
        pair4(cc->out[OCEAN_PAIR_H_V], &s, &pa, &pb);
        h = _mm_add_ps(h, pa);
        v = _mm_add_ps(v, pb);
        if (q->normal) {
            pair4(cc->out[OCEAN_PAIR_SLOPE], &s, &pa, &pb);
            hx = _mm_add_ps(hx, pa);
            hz = _mm_add_ps(hz, pb);
        }
    }
    float out[4];
    _mm_storeu_ps(out, h);
    for (int l = 0; l < 4; l++) q->height[i0 + l] = out[l];
    if (q->vertical_velocity) {
        _mm_storeu_ps(out, v);
        for (int l = 0; l < 4; l++) q->vertical_velocity[i0 + l] = out[l];
    }
    if (q->normal) {
        /* as surface_normal, lane by lane */
        bxx = _mm_and_ps(conv, bxx);
        bzz = _mm_and_ps(conv, bzz);
        bxz = _mm_and_ps(conv, bxz);
        __m128 a = _mm_add_ps(ones, bxx), b = _mm_add_ps(ones, bzz);
        __m128 nx = _mm_sub_ps(_mm_mul_ps(hz, bxz), _mm_mul_ps(b, hx));
        __m128 ny = _mm_sub_ps(_mm_mul_ps(a, b), _mm_mul_ps(bxz, bxz));
        __m128 nz = _mm_sub_ps(_mm_mul_ps(bxz, hx), _mm_mul_ps(hz, a));
        __m128 up = _mm_cmpgt_ps(ny, zero);
        const __m128 sign = _mm_set1_ps(-0.0f);
        nx = select4(up, nx, _mm_xor_ps(hx, sign));
        ny = select4(up, ny, ones);
        nz = select4(up, nz, _mm_xor_ps(hz, sign));
        __m128 len2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, nx), _mm_mul_ps(ny, ny)), _mm_mul_ps(nz, nz));
        __m128 inv = _mm_div_ps(ones, _mm_sqrt_ps(len2));
        float fx[4], fy[4], fz[4];
        _mm_storeu_ps(fx, _mm_mul_ps(nx, inv));
        _mm_storeu_ps(fy, _mm_mul_ps(ny, inv));
        _mm_storeu_ps(fz, _mm_mul_ps(nz, inv));
        for (int l = 0; l < 4; l++) {
            q->normal[3 * (i0 + l)] = fx[l];
            q->normal[3 * (i0 + l) + 1] = fy[l];
            q->normal[3 * (i0 + l) + 2] = fz[l];
        }
    }
    static const int unconverged[16] = {4, 3, 3, 2, 3, 2, 2, 1, 3, 2, 2, 1, 2, 1, 1, 0};
    return unconverged[_mm_movemask_ps(conv)];
}

size_t nv_ocean_sample(const nv_ocean* o, const nv_water_query* q) {
    return o->surface ? ocean_grid_sample(o, q) : nv_ocean_sample_exact(o, q);
}

size_t nv_ocean_sample_exact(const nv_ocean* o, const nv_water_query* q) {
    query_ctx k;
    k.o = o;
    k.q = q;
    k.nc = o->cascade_count;
    k.iters = o->params.query_iterations;
    k.tol2 = (float)(o->params.query_tolerance * o->params.query_tolerance);
    for (int c = 0; c < k.nc; c++) {
        k.icx[c] = (float)o->cascade[c].inv_cell_x;
        k.icz[c] = (float)o->cascade[c].inv_cell_z;
    }
    k.shift = 0;
    while ((1 << k.shift) < o->nx) k.shift++;
    size_t failed = 0, i = 0;
    for (; i + 4 <= q->count; i += 4) failed += (size_t)sample_four(&k, i);
    for (; i < q->count; i++) failed += (size_t)sample_one(&k, i);
    return failed;
}

void nv_ocean_sample_labels(const nv_ocean* o, size_t count, const double* x0, const double* z0, nv_ocean_point* out) {
    grid_spot s;
    for (size_t i = 0; i < count; i++) {
        fpair acc[OCEAN_PAIR_COUNT];
        memset(acc, 0, sizeof acc);
        for (int c = 0; c < o->cascade_count; c++) {
            const ocean_cascade* cc = &o->cascade[c];
            float u, v;
            grid_base(o, cc, x0[i], z0[i], &u, &v);
            grid_locate(o, u, v, &s);
            for (int p = 0; p < OCEAN_PAIR_COUNT; p++) {
                fpair r = grid_pair(cc->out[p], &s);
                acc[p].a += r.a;
                acc[p].b += r.b;
            }
        }
        nv_ocean_point pt;
        pt.height = acc[OCEAN_PAIR_H_V].a;
        pt.velocity_y = acc[OCEAN_PAIR_H_V].b;
        pt.disp_x = acc[OCEAN_PAIR_DISP].a;
        pt.disp_z = acc[OCEAN_PAIR_DISP].b;
        pt.slope_x = acc[OCEAN_PAIR_SLOPE].a;
        pt.slope_z = acc[OCEAN_PAIR_SLOPE].b;
        pt.dxx = acc[OCEAN_PAIR_DIAG].a;
        pt.dzz = acc[OCEAN_PAIR_DIAG].b;
        pt.dxz = acc[OCEAN_PAIR_DXZ_J].a;
        pt.jacobian = (1.0f + pt.dxx) * (1.0f + pt.dzz) - pt.dxz * pt.dxz;
        out[i] = pt;
    }
}

/* The summed displacement at four labels at once, lane by lane the bits
 * of the scalar bilinear sum (base4, locate4 and pair4 are sample_four's,
 * the same operations as grid_base, grid_locate and grid_pair): the
 * breaking stencil's four points cost one lookup's latency, not four. */
static void ocean_label_disp4(const nv_ocean* o, int shift, const double* x, const double* z, float* a, float* b) {
    __m128 sum_a = _mm_setzero_ps(), sum_b = _mm_setzero_ps();
    for (int c = 0; c < o->cascade_count; c++) {
        const ocean_cascade* cc = &o->cascade[c];
        __m128 u, v, pa, pb;
        spot4 s;
        base4(o, cc, x, z, &u, &v);
        locate4(o, shift, u, v, &s);
        pair4(cc->out[OCEAN_PAIR_DISP], &s, &pa, &pb);
        sum_a = _mm_add_ps(sum_a, pa), sum_b = _mm_add_ps(sum_b, pb);
    }
    _mm_storeu_ps(a, sum_a);
    _mm_storeu_ps(b, sum_b);
}

typedef struct ocean_breaking_ctx {
    const nv_ocean* o;
    const double *x, *z;
    const float* height;
    float* out;
    double k, g, mean, cx, cz, d;
    int shift;
} ocean_breaking_ctx;

/* The crests at points i[0..3] (four crests at a time: their labels'
 * fixed-point steps, each point's own arithmetic, in one lookup per step). */
static void ocean_breaking_four(const ocean_breaking_ctx* c, const size_t* i) {
    double lx[4], lz[4];
    for (int l = 0; l < 4; l++) lx[l] = c->x[i[l]], lz[l] = c->z[i[l]];
    for (int step = 0; step < OCEAN_BREAKING_STEPS; step++) {
        float da[4], db[4];
        ocean_label_disp4(c->o, c->shift, lx, lz, da, db);
        for (int l = 0; l < 4; l++) lx[l] = c->x[i[l]] - da[l], lz[l] = c->z[i[l]] - db[l];
    }
    for (int l = 0; l < 4; l++) {
        const double d = c->d;
        const double sx[4] = {lx[l] - d, lx[l] + d, lx[l], lx[l]}, sz[4] = {lz[l], lz[l], lz[l] - d, lz[l] + d};
        float da[4], db[4];
        ocean_label_disp4(c->o, c->shift, sx, sz, da, db);
        const double squeeze = -((da[1] - da[0]) + (db[3] - db[2])) / (2.0 * d);
        if (!(squeeze > OCEAN_BREAKING_SQUEEZE)) continue;
        const double eta = (double)c->height[i[l]] - c->mean;
        const double k_break = fmax(NV_PI * WATER_BREAKING_STEEPNESS / eta, c->k);
        const double jet = WATER_BREAKING_JET * sqrt(c->g / k_break);
        float* out = c->out + 3 * i[l];
        out[0] = (float)(jet * c->cx);
        out[1] = (float)(jet * c->cz);
        /* how much of the crest breaks: none at the threshold, all of it
         * from the limiting wave's steepness on (OCEAN_BREAKING_FULL) */
        const double past = squeeze - OCEAN_BREAKING_SQUEEZE;
        const double strength = fmin(1.0, past / (OCEAN_BREAKING_FULL - OCEAN_BREAKING_SQUEEZE));
        out[2] = (float)(eta * strength);
    }
}

double nv_ocean_breaking_stencil(const nv_ocean* o) {
    const double k = o->base.pressure_decay;
    return k > 0.0 ? 0.25 * NV_PI / k : 0.0;
}

/* The dominant waves' breaking crests (nv_water_surface.breaking). Each
 * point's label by fixed-point steps on the summed displacement; there,
 * the dominant waves' squeeze (the convergence of the choppy map, 1 - J
 * to first order), by central differences over points a quarter of the
 * peak's half wavelength either side: they keep 90 % of the peak's slope
 * and little of waves much shorter, whatever the cascades hold (one fine
 * tile holds them all). A crest (the surface at the point, as sampled,
 * above the mean level by eta) squeezed past OCEAN_BREAKING_SQUEEZE
 * breaks, over the part of eta its squeeze past the threshold says
 * (OCEAN_BREAKING_FULL). It breaks as the steepest wave its height can
 * make does (Stokes' limit, H / lambda WATER_BREAKING_STEEPNESS with
 * H = 2 eta, no longer than the peak's), so its water moves down the wind
 * at WATER_BREAKING_JET times that wave's deep-water phase speed: the
 * ocean's breakers are the breaker the seakeeping trial strikes hulls
 * with (docs/hydrodynamics.md, "Breaking crests"). */
void ocean_breaking(const nv_water_surface* self, size_t count, const double* x, const double* z, const float* height,
                    float* out) {
    const nv_ocean* o = (const nv_ocean*)self;
    ocean_breaking_ctx c = {.o = o, .x = x, .z = z, .height = height, .out = out};
    c.k = o->base.pressure_decay, c.g = o->model.gravity, c.mean = o->base.mean_level;
    c.cx = cos(o->wind_dir), c.cz = sin(o->wind_dir);
    c.d = nv_ocean_breaking_stencil(o);
    while ((1 << c.shift) < o->nx) c.shift++;
    size_t crest[4];
    int n = 0;
    for (size_t i = 0; i < count; i++) {
        out[3 * i + 0] = out[3 * i + 1] = out[3 * i + 2] = 0.0f;
        /* only a crest breaks: the surface at the point above the mean level */
        const double eta = (double)height[i] - c.mean;
        if (!(c.d > 0.0 && eta > 0.0)) continue;
        crest[n++] = i;
        if (n == 4) ocean_breaking_four(&c, crest), n = 0;
    }
    if (n == 0) return;
    for (int l = n; l < 4; l++) crest[l] = crest[n - 1]; /* the last again: the same answer twice */
    ocean_breaking_four(&c, crest);
}

void nv_ocean_measure(const nv_ocean* o, nv_ocean_stats* st) {
    memset(st, 0, sizeof *st);
    const size_t cells = (size_t)o->nx * o->nz;
    double var = 0.0;
    for (int c = 0; c < o->cascade_count; c++) {
        const float* h = nv_ocean_field(o, c, OCEAN_FIELD_HEIGHT);
        double sum = 0.0, sum2 = 0.0;
        for (size_t i = 0; i < cells; i++) {
            double v = h[OCEAN_FIELD_STRIDE * i];
            sum += v;
            sum2 += v * v;
        }
        double mean = sum / (double)cells;
        double vc = sum2 / (double)cells - mean * mean;
        var += vc > 0.0 ? vc : 0.0;
    }
    st->hs_measured = 4.0 * sqrt(var);
    st->hs_spectrum = 4.0 * sqrt(o->m0);
    st->hs_grid = 4.0 * sqrt(o->expected_variance);
    st->peak_period = o->peak_omega > 0.0 ? 2.0 * NV_PI / o->peak_omega : 0.0;

    /* the surface over cascade 0's labels, all cascades summed */
    const ocean_cascade* c0 = &o->cascade[0];
    double dx = c0->size / o->nx, dz = c0->size / o->nz;
    double hmax = -INFINITY, hmin = INFINITY, hsum = 0.0;
    size_t folds = 0;
    for (int iz = 0; iz < o->nz; iz++) {
        for (int ix = 0; ix < o->nx; ix++) {
            double h;
            float j;
            if (o->cascade_count == 1) {
                size_t i = (size_t)iz * o->nx + ix;
                h = c0->out[OCEAN_PAIR_H_V][i][0];
                j = c0->out[OCEAN_PAIR_DXZ_J][i][1];
            } else {
                double x = ix * dx, z = iz * dz;
                nv_ocean_point p;
                nv_ocean_sample_labels(o, 1, &x, &z, &p);
                h = p.height;
                j = p.jacobian;
            }
            if (h > hmax) hmax = h;
            if (h < hmin) hmin = h;
            hsum += h;
            folds += j < 0.0f;
        }
    }
    st->max_height = hmax;
    st->min_height = hmin;
    st->mean_height = hsum / (double)cells;
    st->fold_fraction = (double)folds / (double)cells;
}
