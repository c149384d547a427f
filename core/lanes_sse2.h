// SPDX-License-Identifier: MIT
/* Eight float lanes as two SSE2 registers: the same operations as
 * lanes_avx2.h, lane by lane, so a kernel written on lv_* gives the same
 * bits on every x86-64 machine whichever of the two it runs on. Include
 * only from a kernel's translation unit (it defines static functions). */
#ifndef NAVAL_LANES_SSE2_H
#define NAVAL_LANES_SSE2_H

#include <emmintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <xmmintrin.h>

#include "lanes_common.h"

typedef struct {
    __m128 lo, hi;
} fv;
typedef struct {
    __m128i lo, hi;
} iv;

#define L8_BIN(name, op)                                                                                             \
    static inline fv name(fv a, fv b) { return (fv){op(a.lo, b.lo), op(a.hi, b.hi)}; }
#define L8_IBIN(name, op)                                                                                            \
    static inline iv name(iv a, iv b) { return (iv){op(a.lo, b.lo), op(a.hi, b.hi)}; }
L8_BIN(lv_add, _mm_add_ps)
L8_BIN(lv_sub, _mm_sub_ps)
L8_BIN(lv_mul, _mm_mul_ps)
L8_BIN(lv_div, _mm_div_ps)
L8_BIN(lv_max, _mm_max_ps)
L8_BIN(lv_min, _mm_min_ps)
L8_BIN(lv_gt, _mm_cmpgt_ps)
L8_BIN(lv_ge, _mm_cmpge_ps)
L8_BIN(lv_lt, _mm_cmplt_ps)
L8_BIN(lv_le, _mm_cmple_ps)
L8_BIN(lv_and, _mm_and_ps)
L8_BIN(lv_andnot, _mm_andnot_ps) /* ~a & b */
L8_BIN(lv_or, _mm_or_ps)
L8_BIN(lv_xor, _mm_xor_ps)
L8_IBIN(iv_add, _mm_add_epi32)
L8_IBIN(iv_sub, _mm_sub_epi32)
L8_IBIN(iv_and, _mm_and_si128)
L8_IBIN(iv_or, _mm_or_si128)
L8_IBIN(iv_andnot, _mm_andnot_si128) /* ~a & b */
L8_IBIN(iv_gt, _mm_cmpgt_epi32)
L8_IBIN(iv_eq, _mm_cmpeq_epi32)
#undef L8_BIN
#undef L8_IBIN

static inline fv lv_set(float x) { return (fv){_mm_set1_ps(x), _mm_set1_ps(x)}; }
static inline fv lv_load(const float* p) { return (fv){_mm_loadu_ps(p), _mm_loadu_ps(p + 4)}; }
static inline void lv_store(float* p, fv a) {
    _mm_storeu_ps(p, a.lo);
    _mm_storeu_ps(p + 4, a.hi);
}
/* m ? a : b per lane, m all ones or all zeros */
static inline fv lv_sel(fv m, fv a, fv b) { return lv_or(lv_and(m, a), lv_andnot(m, b)); }
static inline fv lv_sqrt(fv a) { return (fv){_mm_sqrt_ps(a.lo), _mm_sqrt_ps(a.hi)}; }
/* all ones where a is NaN */
static inline fv lv_nan(fv a) { return (fv){_mm_cmpunord_ps(a.lo, a.lo), _mm_cmpunord_ps(a.hi, a.hi)}; }
/* one bit per lane, lane 0 the lowest */
static inline int lv_mask(fv m) { return _mm_movemask_ps(m.lo) | (_mm_movemask_ps(m.hi) << 4); }

static inline iv iv_set(int32_t x) { return (iv){_mm_set1_epi32(x), _mm_set1_epi32(x)}; }
static inline iv iv_srli(iv a, int n) { return (iv){_mm_srli_epi32(a.lo, n), _mm_srli_epi32(a.hi, n)}; }
static inline iv iv_srai(iv a, int n) { return (iv){_mm_srai_epi32(a.lo, n), _mm_srai_epi32(a.hi, n)}; }
static inline iv iv_slli(iv a, int n) { return (iv){_mm_slli_epi32(a.lo, n), _mm_slli_epi32(a.hi, n)}; }
static inline iv lv_bits(fv a) { return (iv){_mm_castps_si128(a.lo), _mm_castps_si128(a.hi)}; }
static inline fv iv_bits(iv a) { return (fv){_mm_castsi128_ps(a.lo), _mm_castsi128_ps(a.hi)}; }
static inline fv iv_to_fv(iv a) { return (fv){_mm_cvtepi32_ps(a.lo), _mm_cvtepi32_ps(a.hi)}; }
static inline iv lv_trunc(fv a) { return (iv){_mm_cvttps_epi32(a.lo), _mm_cvttps_epi32(a.hi)}; }
/* shift by a count known only at run time */
static inline iv iv_sll(iv a, int n) {
    const __m128i c = _mm_cvtsi32_si128(n);
    return (iv){_mm_sll_epi32(a.lo, c), _mm_sll_epi32(a.hi, c)};
}
static inline iv iv_sel(fv m, iv a, iv b) { return iv_or(iv_and(lv_bits(m), a), iv_andnot(lv_bits(m), b)); }
static inline iv iv_load(const int32_t* p) {
    return (iv){_mm_loadu_si128((const __m128i*)(const void*)p), _mm_loadu_si128((const __m128i*)(const void*)(p + 4))};
}
static inline void iv_store(int32_t* p, iv a) {
    _mm_storeu_si128((__m128i*)(void*)p, a.lo);
    _mm_storeu_si128((__m128i*)(void*)(p + 4), a.hi);
}

/* Per lane l, the four floats from p + 2 k[l] (two pairs), except that a
 * lane whose bit in `wrap` is set takes its second pair from
 * p + 2 (k[l] + 1 - back); out[i] is float i of every lane. */
static inline void lv_load_pairs(const float* p, const int32_t k[8], int wrap, size_t back, fv out[4]) {
    __m128 r[8];
    for (int l = 0; l < 8; l++) r[l] = lanes_load_two_pairs(p, k[l], wrap >> l & 1, back);
    _MM_TRANSPOSE4_PS(r[0], r[1], r[2], r[3]);
    _MM_TRANSPOSE4_PS(r[4], r[5], r[6], r[7]);
    for (int i = 0; i < 4; i++) out[i] = (fv){r[i], r[4 + i]};
}

/* Per lane l, p[k0[l]] into *a and p[k1[l]] into *b, where k1 = k0 + 1 in
 * every lane whose bit in `wrap` is clear (a cell's two corners along a
 * row). Without a wrap, each lane's two floats come in one 64-bit load. */
static inline void lv_load_neighbours(const float* p, iv k0, iv k1, int wrap, fv* a, fv* b) {
    _Alignas(16) int32_t e0[8];
    iv_store(e0, k0);
    if (!wrap) {
        __m128 lo[2], hi[2];
        for (int h = 0; h < 2; h++) {
            const int32_t* e = e0 + 4 * h;
            const __m128 p0 =
                _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64*)(p + e[0])), (const __m64*)(p + e[1]));
            const __m128 p1 =
                _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64*)(p + e[2])), (const __m64*)(p + e[3]));
            lo[h] = _mm_shuffle_ps(p0, p1, _MM_SHUFFLE(2, 0, 2, 0));
            hi[h] = _mm_shuffle_ps(p0, p1, _MM_SHUFFLE(3, 1, 3, 1));
        }
        *a = (fv){lo[0], lo[1]};
        *b = (fv){hi[0], hi[1]};
        return;
    }
    _Alignas(16) int32_t e1[8];
    iv_store(e1, k1);
    *a = (fv){_mm_setr_ps(p[e0[0]], p[e0[1]], p[e0[2]], p[e0[3]]), _mm_setr_ps(p[e0[4]], p[e0[5]], p[e0[6]], p[e0[7]])};
    *b = (fv){_mm_setr_ps(p[e1[0]], p[e1[1]], p[e1[2]], p[e1[3]]), _mm_setr_ps(p[e1[4]], p[e1[5]], p[e1[6]], p[e1[7]])};
}

/* p[k[l]] per lane l: eight loads */
static inline fv lv_gather(const float* p, const int32_t* k) {
    return (fv){_mm_setr_ps(p[k[0]], p[k[1]], p[k[2]], p[k[3]]), _mm_setr_ps(p[k[4]], p[k[5]], p[k[6]], p[k[7]])};
}

/* Eight IEEE half floats (the slamming memory) by integer steps: the
 * same bits as F16C (lanes_avx2.h) for the values lv_to_half is given (zeros
 * and normal halves) and for the halves it makes. */
typedef __m128i hv;
static inline hv hv_load(const uint16_t* p) { return _mm_loadu_si128((const __m128i*)(const void*)p); }
static inline void hv_store(uint16_t* p, hv a) { _mm_storeu_si128((__m128i*)(void*)p, a); }
static inline hv hv_zero(void) { return _mm_setzero_si128(); }
static inline hv hv_mask(fv m) { return _mm_packs_epi32(_mm_castps_si128(m.lo), _mm_castps_si128(m.hi)); }
static inline hv hv_sel(hv m, hv a, hv b) { return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b)); }

static inline __m128 lv_half4_to_float(__m128i h) {
    __m128i sign = _mm_slli_epi32(_mm_and_si128(h, _mm_set1_epi32(0x8000)), 16);
    __m128i mag = _mm_and_si128(h, _mm_set1_epi32(0x7fff));
    __m128i nonzero = _mm_cmpgt_epi32(mag, _mm_setzero_si128());
    __m128i bits = _mm_add_epi32(_mm_slli_epi32(mag, 13), _mm_set1_epi32(112 << 23)); /* rebias 15 -> 127 */
    return _mm_castsi128_ps(_mm_or_si128(sign, _mm_and_si128(nonzero, bits)));
}
static inline fv lv_from_half(hv h) {
    __m128i z = _mm_setzero_si128();
    return (fv){lv_half4_to_float(_mm_unpacklo_epi16(h, z)), lv_half4_to_float(_mm_unpackhi_epi16(h, z))};
}

static inline __m128i lv_float4_to_half(__m128 x) {
    __m128i bits = _mm_castps_si128(x);
    __m128i sign = _mm_and_si128(_mm_srli_epi32(bits, 16), _mm_set1_epi32(0x8000));
    __m128i mag = _mm_and_si128(bits, _mm_set1_epi32(0x7fffffff));
    __m128i nonzero = _mm_cmpgt_epi32(mag, _mm_setzero_si128());
    /* the mantissa rounded to 10 bits, nearest even; a carry moves the exponent */
    __m128i r = _mm_add_epi32(_mm_add_epi32(mag, _mm_set1_epi32(0x0fff)), _mm_and_si128(_mm_srli_epi32(mag, 13), _mm_set1_epi32(1)));
    r = _mm_sub_epi32(_mm_srli_epi32(r, 13), _mm_set1_epi32(112 << 10));
    /* signed pack is exact: every lane is in [0, 0xfbff] less 0x8000 */
    return _mm_sub_epi32(_mm_or_si128(sign, _mm_and_si128(nonzero, r)), _mm_set1_epi32(0x8000));
}
/* nearest, ties to even; x is 0 or within a normal half's range */
static inline hv lv_to_half(fv x) {
    __m128i packed = _mm_packs_epi32(lv_float4_to_half(x.lo), lv_float4_to_half(x.hi));
    return _mm_xor_si128(packed, _mm_set1_epi16((short)0x8000));
}

#endif
