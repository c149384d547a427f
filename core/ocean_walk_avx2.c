/* The surface table's row walk, eight rows per AVX2 register: ocean_grid.c's
 * walker_node line by line on twice the lanes (see the walk's description
 * there). Built with -mavx2 and never -mfma, so each lane rounds as the SSE2
 * walker and the scalar row do: the table has the same bits at every SIMD
 * level (tests/test_ocean_grid.c). Extra Newton steps leave a lane that
 * has finished (or failed) as it was, so lanes stopping at different steps
 * in a wider register change nothing. */
#include <immintrin.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "ocean_walk.h"

static inline __m256 walk_select(__m256 mask, __m256 a, __m256 b) { return _mm256_blendv_ps(b, a, mask); }
static inline __m256i walk_selecti(__m256 mask, __m256i a, __m256i b) {
    return _mm256_blendv_epi8(b, a, _mm256_castps_si256(mask));
}
/* floor for |f| < 2^31 */
static inline __m256i walk_floor(__m256 f) {
    __m256i i = _mm256_cvttps_epi32(f);
    return _mm256_add_epi32(i, _mm256_castps_si256(_mm256_cmp_ps(f, _mm256_cvtepi32_ps(i), _CMP_LT_OQ)));
}

/* Per lane, the element of cell (ci, cj) and of (ci, cj + 1) (wrapped);
 * `wrap` bit l when lane l's ci + 1 wraps to 0. */
typedef struct walk_cells {
    _Alignas(32) int32_t k0[8], k1[8];
    int wrap;
} walk_cells;

static inline void walk_locate(const ocean_march* m, __m256i ci, __m256i cj, walk_cells* c) {
    const __m256i mx = _mm256_set1_epi32(m->mx), mz = _mm256_set1_epi32(m->mz);
    const __m128i sh = _mm_cvtsi32_si128(m->shift);
    const __m256i x0 = _mm256_and_si256(ci, mx);
    const __m256i r0 = _mm256_sll_epi32(_mm256_and_si256(cj, mz), sh);
    const __m256i r1 = _mm256_sll_epi32(_mm256_and_si256(_mm256_add_epi32(cj, _mm256_set1_epi32(1)), mz), sh);
    _mm256_store_si256((__m256i*)c->k0, _mm256_add_epi32(r0, x0));
    _mm256_store_si256((__m256i*)c->k1, _mm256_add_epi32(r1, x0));
    c->wrap = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(x0, mx)));
}

/* Lane l's two pairs of element k (the pair at ci, then at ci + 1). */
static inline __m128 walk_pairs(const ocean_march* m, const float* pairs, int32_t k, int wraps) {
    if (!wraps) return _mm_loadu_ps(pairs + 2 * (size_t)k);
    const size_t next = (size_t)k + 1 - (size_t)m->nx; /* ci + 1 is the row's first */
    return _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64*)(pairs + 2 * (size_t)k)),
                        (const __m64*)(pairs + 2 * next));
}

/* 4 x 4 transposes within each 128-bit half: in[j] holds lane j's four
 * values low and lane j + 4's high; out[i] value i of lanes 0..7. */
static inline void walk_transpose(const __m256 in[4], __m256 out[4]) {
    const __m256 t0 = _mm256_unpacklo_ps(in[0], in[1]), t1 = _mm256_unpacklo_ps(in[2], in[3]);
    const __m256 t2 = _mm256_unpackhi_ps(in[0], in[1]), t3 = _mm256_unpackhi_ps(in[2], in[3]);
    out[0] = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
    out[1] = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
    out[2] = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
    out[3] = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

/* The cells' corner pairs, as gather_cells in ocean_grid.c: a[] from row
 * cj, b[] from row cj + 1; a[0], a[1] the pair at ci, a[2], a[3] at ci + 1. */
static inline void walk_gather(const ocean_march* m, const float* pairs, const walk_cells* c, __m256 a[4],
                               __m256 b[4]) {
    __m256 ra[4], rb[4];
    for (int l = 0; l < 4; l++) {
        const int lo = c->wrap >> l & 1, hi = c->wrap >> (l + 4) & 1;
        ra[l] = _mm256_set_m128(walk_pairs(m, pairs, c->k0[l + 4], hi), walk_pairs(m, pairs, c->k0[l], lo));
        rb[l] = _mm256_set_m128(walk_pairs(m, pairs, c->k1[l + 4], hi), walk_pairs(m, pairs, c->k1[l], lo));
    }
    walk_transpose(ra, a);
    walk_transpose(rb, b);
}

typedef struct walk8 {
    int z, rows; /* rows z .. z + rows - 1; idle lanes repeat the last and write nothing */
    __m256i gz, ci, cj;
    __m256 gzf, s, t;
    int cold; /* lanes that start afresh at the next node */
} walk8;

static void walk_node(const ocean_march* m, walk8* w, int x) {
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    const __m256 icx = _mm256_set1_ps(m->icx), icz = _mm256_set1_ps(m->icz);
    const __m256 lo = _mm256_set1_ps(-OCEAN_CELL_SLACK), hi = _mm256_set1_ps(1.0f + OCEAN_CELL_SLACK);
    const __m256i gx = _mm256_set1_epi32(x), gz = w->gz;
    __m256i ci = w->ci, cj = w->cj;
    __m256 s = w->s, t = w->t;
    if (w->cold) {
        /* x0 = q - D(q): the label at the node, moved back */
        __m256 a[4], b[4];
        walk_cells c0;
        walk_locate(m, gx, gz, &c0);
        walk_gather(m, m->disp, &c0, a, b);
        const __m256 ux = _mm256_sub_ps(_mm256_cvtepi32_ps(gx), _mm256_mul_ps(a[0], icx));
        const __m256 uz = _mm256_sub_ps(w->gzf, _mm256_mul_ps(a[1], icz));
        const __m256i fx = walk_floor(ux), fz = walk_floor(uz);
        const __m256 c = _mm256_castsi256_ps(_mm256_cmpgt_epi32(
            _mm256_and_si256(_mm256_set1_epi32(w->cold), _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128)),
            _mm256_setzero_si256()));
        ci = walk_selecti(c, fx, ci);
        cj = walk_selecti(c, fz, cj);
        s = walk_select(c, _mm256_sub_ps(ux, _mm256_cvtepi32_ps(fx)), s);
        t = walk_select(c, _mm256_sub_ps(uz, _mm256_cvtepi32_ps(fz)), t);
    }
    __m256 active = _mm256_castsi256_ps(_mm256_set1_epi32(-1)), done = zero;
    __m256 step_x = zero, step_z = zero; /* J^-1 (1, 0) at the answer */
    walk_cells cell; /* done lanes stay in the cell they were last located in */
    for (int k = 0; k < OCEAN_MARCH_STEPS; k++) {
        __m256 a[4], b[4];
        walk_locate(m, ci, cj, &cell);
        walk_gather(m, m->disp, &cell, a, b);
        /* corners relative to the cell's label, in cells */
        const __m256 p00x = _mm256_mul_ps(a[0], icx), p00z = _mm256_mul_ps(a[1], icz);
        const __m256 p10x = _mm256_add_ps(one, _mm256_mul_ps(a[2], icx)), p10z = _mm256_mul_ps(a[3], icz);
        const __m256 p01x = _mm256_mul_ps(b[0], icx), p01z = _mm256_add_ps(one, _mm256_mul_ps(b[1], icz));
        const __m256 p11x = _mm256_add_ps(one, _mm256_mul_ps(b[2], icx));
        const __m256 p11z = _mm256_add_ps(one, _mm256_mul_ps(b[3], icz));
        const __m256 ex = _mm256_sub_ps(p10x, p00x), ez = _mm256_sub_ps(p10z, p00z);
        const __m256 fx = _mm256_sub_ps(p01x, p00x), fz = _mm256_sub_ps(p01z, p00z);
        const __m256 gx_ = _mm256_sub_ps(_mm256_sub_ps(p11x, p10x), fx);
        const __m256 gz_ = _mm256_sub_ps(_mm256_sub_ps(p11z, p10z), fz);
        /* Jacobian columns and the residual P(s, t) - q */
        const __m256 jsx = _mm256_add_ps(ex, _mm256_mul_ps(t, gx_)), jsz = _mm256_add_ps(ez, _mm256_mul_ps(t, gz_));
        const __m256 jtx = _mm256_add_ps(fx, _mm256_mul_ps(s, gx_)), jtz = _mm256_add_ps(fz, _mm256_mul_ps(s, gz_));
        const __m256 hx = _mm256_cvtepi32_ps(_mm256_sub_epi32(gx, ci));
        const __m256 hz = _mm256_cvtepi32_ps(_mm256_sub_epi32(gz, cj));
        const __m256 rx =
            _mm256_sub_ps(_mm256_add_ps(_mm256_add_ps(p00x, _mm256_mul_ps(s, ex)), _mm256_mul_ps(t, jtx)), hx);
        const __m256 rz =
            _mm256_sub_ps(_mm256_add_ps(_mm256_add_ps(p00z, _mm256_mul_ps(s, ez)), _mm256_mul_ps(t, jtz)), hz);
        const __m256 det = _mm256_sub_ps(_mm256_mul_ps(jsx, jtz), _mm256_mul_ps(jsz, jtx));
        const __m256 inv = _mm256_div_ps(one, det);
        const __m256 ds = _mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(jtz, rx), _mm256_mul_ps(jtx, rz)), inv);
        const __m256 dt = _mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(jsx, rz), _mm256_mul_ps(jsz, rx)), inv);
        const __m256 s1 = _mm256_sub_ps(s, ds), t1 = _mm256_sub_ps(t, dt);
        /* the residual left: g ds dt, in metres squared */
        const __m256 dd = _mm256_mul_ps(ds, dt);
        const __m256 lx = _mm256_mul_ps(gx_, dd), lz = _mm256_mul_ps(gz_, dd);
        const __m256 left = _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(lx, lx), _mm256_set1_ps(m->cx2)),
                                          _mm256_mul_ps(_mm256_mul_ps(lz, lz), _mm256_set1_ps(m->cz2)));
        const __m256 good =
            _mm256_and_ps(active, _mm256_cmp_ps(det, _mm256_set1_ps(OCEAN_MARCH_DET_MIN), _CMP_GT_OQ));
        const __m256 in = _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(s1, lo, _CMP_GE_OQ), _mm256_cmp_ps(s1, hi, _CMP_LE_OQ)),
                                        _mm256_and_ps(_mm256_cmp_ps(t1, lo, _CMP_GE_OQ), _mm256_cmp_ps(t1, hi, _CMP_LE_OQ)));
        const __m256 fin =
            _mm256_and_ps(good, _mm256_and_ps(in, _mm256_cmp_ps(left, _mm256_set1_ps(m->tol2), _CMP_LT_OQ)));
        step_x = walk_select(fin, _mm256_mul_ps(jtz, inv), step_x);
        step_z = walk_select(fin, _mm256_sub_ps(zero, _mm256_mul_ps(jsz, inv)), step_z);
        /* lanes going on move to the cell their step points into */
        const __m256 go = _mm256_andnot_ps(fin, good);
        const __m256i mi = walk_floor(walk_select(go, s1, zero)), mj = walk_floor(walk_select(go, t1, zero));
        s = walk_select(good, _mm256_sub_ps(s1, _mm256_cvtepi32_ps(mi)), s);
        t = walk_select(good, _mm256_sub_ps(t1, _mm256_cvtepi32_ps(mj)), t);
        ci = _mm256_add_epi32(ci, mi);
        cj = _mm256_add_epi32(cj, mj);
        done = _mm256_or_ps(done, fin);
        active = go;
        if (!_mm256_movemask_ps(active)) break;
    }
    /* the answer: the cell's heights and velocities at (s, t) */
    __m256 a[4], b[4];
    walk_gather(m, m->hv, &cell, a, b);
    const __m256 h0 = _mm256_add_ps(a[0], _mm256_mul_ps(s, _mm256_sub_ps(a[2], a[0])));
    const __m256 h1 = _mm256_add_ps(b[0], _mm256_mul_ps(s, _mm256_sub_ps(b[2], b[0])));
    const __m256 v0 = _mm256_add_ps(a[1], _mm256_mul_ps(s, _mm256_sub_ps(a[3], a[1])));
    const __m256 v1 = _mm256_add_ps(b[1], _mm256_mul_ps(s, _mm256_sub_ps(b[3], b[1])));
    const __m256 nan = _mm256_set1_ps(NAN);
    _Alignas(32) float hh[8], vv[8];
    _mm256_store_ps(hh, walk_select(done, _mm256_add_ps(h0, _mm256_mul_ps(t, _mm256_sub_ps(h1, h0))), nan));
    _mm256_store_ps(vv, walk_select(done, _mm256_add_ps(v0, _mm256_mul_ps(t, _mm256_sub_ps(v1, v0))), nan));
    for (int l = 0; l < w->rows; l++) {
        const size_t k = ((size_t)(w->z + l) << m->shift) + (size_t)x;
        m->gh[k] = hh[l];
        m->gv[k] = vv[l];
    }
    /* the next node's guess */
    w->cold = 255 & ~_mm256_movemask_ps(done);
    const __m256 s2 = _mm256_add_ps(s, step_x), t2 = _mm256_add_ps(t, step_z);
    const __m256i mi = walk_floor(walk_select(done, s2, zero)), mj = walk_floor(walk_select(done, t2, zero));
    w->s = _mm256_sub_ps(s2, _mm256_cvtepi32_ps(mi));
    w->t = _mm256_sub_ps(t2, _mm256_cvtepi32_ps(mj));
    w->ci = _mm256_add_epi32(ci, mi);
    w->cj = _mm256_add_epi32(cj, mj);
}

void ocean_walk_rows_avx2(const ocean_march* m, int z, int rows) {
    _Alignas(32) int32_t lane_row[8];
    for (int l = 0; l < 8; l++) lane_row[l] = z + (l < rows ? l : rows - 1);
    walk8 w;
    w.z = z;
    w.rows = rows;
    w.gz = _mm256_load_si256((const __m256i*)lane_row);
    w.gzf = _mm256_cvtepi32_ps(w.gz);
    w.ci = w.cj = _mm256_setzero_si256();
    w.s = w.t = _mm256_setzero_ps();
    w.cold = 255;
    for (int x = 0; x < m->nx; x++) walk_node(m, &w, x);
}
