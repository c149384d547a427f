// SPDX-License-Identifier: MIT
/* Eight float lanes in one AVX2 register: the counterpart of
 * lanes_sse2.h, operation for operation (no FMA: a fused multiply-add
 * rounds once where the SSE2 lanes round twice). Only for translation
 * units compiled with -mavx2 and called after a CPU check. */
#ifndef NAVAL_LANES_AVX2_H
#define NAVAL_LANES_AVX2_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lanes_common.h"

typedef __m256 fv;
typedef __m256i iv;

static inline fv lv_add(fv a, fv b) { return _mm256_add_ps(a, b); }
static inline fv lv_sub(fv a, fv b) { return _mm256_sub_ps(a, b); }
static inline fv lv_mul(fv a, fv b) { return _mm256_mul_ps(a, b); }
static inline fv lv_div(fv a, fv b) { return _mm256_div_ps(a, b); }
static inline fv lv_max(fv a, fv b) { return _mm256_max_ps(a, b); }
static inline fv lv_min(fv a, fv b) { return _mm256_min_ps(a, b); }
static inline fv lv_gt(fv a, fv b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline fv lv_ge(fv a, fv b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
static inline fv lv_lt(fv a, fv b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline fv lv_le(fv a, fv b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
static inline fv lv_and(fv a, fv b) { return _mm256_and_ps(a, b); }
static inline fv lv_andnot(fv a, fv b) { return _mm256_andnot_ps(a, b); }
static inline fv lv_or(fv a, fv b) { return _mm256_or_ps(a, b); }
static inline fv lv_xor(fv a, fv b) { return _mm256_xor_ps(a, b); }
/* all ones where a is NaN */
static inline fv lv_nan(fv a) { return _mm256_cmp_ps(a, a, _CMP_UNORD_Q); }
static inline fv lv_set(float x) { return _mm256_set1_ps(x); }
static inline fv lv_load(const float* p) { return _mm256_loadu_ps(p); }
static inline void lv_store(float* p, fv a) { _mm256_storeu_ps(p, a); }
/* m ? a : b per lane, m all ones or all zeros (blendv reads the top bit) */
static inline fv lv_sel(fv m, fv a, fv b) { return _mm256_blendv_ps(b, a, m); }
static inline fv lv_sqrt(fv a) { return _mm256_sqrt_ps(a); }
/* one bit per lane, lane 0 the lowest */
static inline int lv_mask(fv m) { return _mm256_movemask_ps(m); }

static inline iv iv_add(iv a, iv b) { return _mm256_add_epi32(a, b); }
static inline iv iv_sub(iv a, iv b) { return _mm256_sub_epi32(a, b); }
static inline iv iv_and(iv a, iv b) { return _mm256_and_si256(a, b); }
static inline iv iv_or(iv a, iv b) { return _mm256_or_si256(a, b); }
static inline iv iv_andnot(iv a, iv b) { return _mm256_andnot_si256(a, b); }
static inline iv iv_gt(iv a, iv b) { return _mm256_cmpgt_epi32(a, b); }
static inline iv iv_set(int32_t x) { return _mm256_set1_epi32(x); }
static inline iv iv_srli(iv a, int n) { return _mm256_srli_epi32(a, n); }
static inline iv iv_srai(iv a, int n) { return _mm256_srai_epi32(a, n); }
static inline iv iv_slli(iv a, int n) { return _mm256_slli_epi32(a, n); }
static inline iv lv_bits(fv a) { return _mm256_castps_si256(a); }
static inline fv iv_bits(iv a) { return _mm256_castsi256_ps(a); }
static inline fv iv_to_fv(iv a) { return _mm256_cvtepi32_ps(a); }
static inline iv lv_trunc(fv a) { return _mm256_cvttps_epi32(a); }
static inline iv iv_eq(iv a, iv b) { return _mm256_cmpeq_epi32(a, b); }
/* shift by a count known only at run time */
static inline iv iv_sll(iv a, int n) { return _mm256_sll_epi32(a, _mm_cvtsi32_si128(n)); }
static inline iv iv_sel(fv m, iv a, iv b) { return _mm256_blendv_epi8(b, a, _mm256_castps_si256(m)); }
static inline iv iv_load(const int32_t* p) { return _mm256_loadu_si256((const __m256i*)(const void*)p); }
static inline void iv_store(int32_t* p, iv a) { _mm256_storeu_si256((__m256i*)(void*)p, a); }

/* Per lane l, the four floats from p + 2 k[l] (two pairs), except that a
 * lane whose bit in `wrap` is set takes its second pair from
 * p + 2 (k[l] + 1 - back); out[i] is float i of every lane. */
static inline void lv_load_pairs(const float* p, const int32_t k[8], int wrap, size_t back, fv out[4]) {
    __m128 r[8];
    for (int l = 0; l < 8; l++) r[l] = lanes_load_two_pairs(p, k[l], wrap >> l & 1, back);
    /* lane j low, lane j + 4 high, then 4 x 4 transposes in each half */
    const fv a0 = _mm256_set_m128(r[4], r[0]), a1 = _mm256_set_m128(r[5], r[1]);
    const fv a2 = _mm256_set_m128(r[6], r[2]), a3 = _mm256_set_m128(r[7], r[3]);
    const fv t0 = _mm256_unpacklo_ps(a0, a1), t1 = _mm256_unpacklo_ps(a2, a3);
    const fv t2 = _mm256_unpackhi_ps(a0, a1), t3 = _mm256_unpackhi_ps(a2, a3);
    out[0] = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
    out[1] = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
    out[2] = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
    out[3] = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

/* Per lane l, p[k0[l]] into *a and p[k1[l]] into *b (lanes_sse2.h's
 * contract). Without a wrap each lane's two floats come in one 64-bit
 * load, as in lanes_sse2.h, then split into the two registers: on Zen 3
 * that is faster than two gathers. */
static inline void lv_load_neighbours(const float* p, iv k0, iv k1, int wrap, fv* a, fv* b) {
    if (wrap) {
        *a = _mm256_i32gather_ps(p, k0, 4);
        *b = _mm256_i32gather_ps(p, k1, 4);
        return;
    }
    _Alignas(32) int32_t e[8];
    iv_store(e, k0);
    __m128 q[4];
    for (int h = 0; h < 4; h++)
        q[h] = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64*)(const void*)(p + e[2 * h])),
                            (const __m64*)(const void*)(p + e[2 * h + 1]));
    /* lanes 0, 1, 4, 5 and 2, 3, 6, 7, each as (a, b) pairs */
    const fv lo = _mm256_set_m128(q[2], q[0]), hi = _mm256_set_m128(q[3], q[1]);
    *a = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
    *b = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
}

/* p[k[l]] per lane l, as eight loads: faster than vgatherdps on Zen 3
 * (2.6 against 3.2 ns per triangle in the hydrostatic kernel), and Intel's
 * gathers are slower still since the GDS microcode */
static inline fv lv_gather(const float* p, const int32_t* k) {
    /* the indices two at a time: a 64-bit load and a shift instead of two
     * loads (the kernel that calls this is bound by its loads) */
    uint64_t a, b, c, d;
    memcpy(&a, k, 8), memcpy(&b, k + 2, 8), memcpy(&c, k + 4, 8), memcpy(&d, k + 6, 8);
    return _mm256_setr_ps(p[(uint32_t)a], p[a >> 32], p[(uint32_t)b], p[b >> 32], p[(uint32_t)c], p[c >> 32],
                          p[(uint32_t)d], p[d >> 32]);
}

/* Eight IEEE half floats (the slamming memory), converted by F16C, which
 * every AVX2 CPU has: exact both ways for the values lv_to_half is given
 * (zeros and normal halves), the same bits as lanes_sse2.h's integer
 * steps. */
typedef __m128i hv;
static inline hv hv_load(const uint16_t* p) { return _mm_loadu_si128((const __m128i*)(const void*)p); }
static inline void hv_store(uint16_t* p, hv a) { _mm_storeu_si128((__m128i*)(void*)p, a); }
static inline hv hv_zero(void) { return _mm_setzero_si128(); }
/* a lane mask as 16-bit lanes */
static inline hv hv_mask(fv m) {
    __m256i b = _mm256_castps_si256(m);
    return _mm_packs_epi32(_mm256_castsi256_si128(b), _mm256_extracti128_si256(b, 1));
}
static inline hv hv_sel(hv m, hv a, hv b) { return _mm_blendv_epi8(b, a, m); }
static inline fv lv_from_half(hv h) { return _mm256_cvtph_ps(h); }
/* nearest, ties to even; x is 0 or within a normal half's range */
static inline hv lv_to_half(fv x) { return _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT); }

#endif
