/* Eight float lanes as two SSE2 registers: the same operations as
 * lanes8_avx2.h, lane by lane, so a kernel written on l8_* gives the same
 * bits on every x86-64 machine whichever of the two it runs on. Include
 * only from a kernel's translation unit (it defines static functions). */
#ifndef NAVAL_LANES8_SSE2_H
#define NAVAL_LANES8_SSE2_H

#include <emmintrin.h>
#include <stdint.h>

typedef struct {
    __m128 lo, hi;
} f8;
typedef struct {
    __m128i lo, hi;
} i8;

#define L8_BIN(name, op)                                                                                             \
    static inline f8 name(f8 a, f8 b) { return (f8){op(a.lo, b.lo), op(a.hi, b.hi)}; }
#define L8_IBIN(name, op)                                                                                            \
    static inline i8 name(i8 a, i8 b) { return (i8){op(a.lo, b.lo), op(a.hi, b.hi)}; }
L8_BIN(l8_add, _mm_add_ps)
L8_BIN(l8_sub, _mm_sub_ps)
L8_BIN(l8_mul, _mm_mul_ps)
L8_BIN(l8_div, _mm_div_ps)
L8_BIN(l8_max, _mm_max_ps)
L8_BIN(l8_min, _mm_min_ps)
L8_BIN(l8_gt, _mm_cmpgt_ps)
L8_BIN(l8_and, _mm_and_ps)
L8_BIN(l8_andnot, _mm_andnot_ps) /* ~a & b */
L8_BIN(l8_or, _mm_or_ps)
L8_IBIN(i8_add, _mm_add_epi32)
L8_IBIN(i8_sub, _mm_sub_epi32)
L8_IBIN(i8_and, _mm_and_si128)
L8_IBIN(i8_or, _mm_or_si128)
L8_IBIN(i8_andnot, _mm_andnot_si128) /* ~a & b */
L8_IBIN(i8_gt, _mm_cmpgt_epi32)
#undef L8_BIN
#undef L8_IBIN

static inline f8 l8_set(float x) { return (f8){_mm_set1_ps(x), _mm_set1_ps(x)}; }
static inline f8 l8_load(const float* p) { return (f8){_mm_loadu_ps(p), _mm_loadu_ps(p + 4)}; }
static inline void l8_store(float* p, f8 a) {
    _mm_storeu_ps(p, a.lo);
    _mm_storeu_ps(p + 4, a.hi);
}
/* m ? a : b per lane, m all ones or all zeros */
static inline f8 l8_sel(f8 m, f8 a, f8 b) { return l8_or(l8_and(m, a), l8_andnot(m, b)); }
static inline i8 i8_sel(i8 m, i8 a, i8 b) { return i8_or(i8_and(m, a), i8_andnot(m, b)); }
static inline f8 l8_bits_all(void) { __m128 m = _mm_castsi128_ps(_mm_set1_epi32(-1)); return (f8){m, m}; }
static inline f8 l8_sqrt(f8 a) { return (f8){_mm_sqrt_ps(a.lo), _mm_sqrt_ps(a.hi)}; }
static inline int l8_any(f8 m) { return (_mm_movemask_ps(m.lo) | _mm_movemask_ps(m.hi)) != 0; }

static inline i8 i8_set(int32_t x) { return (i8){_mm_set1_epi32(x), _mm_set1_epi32(x)}; }
static inline i8 i8_srli(i8 a, int n) { return (i8){_mm_srli_epi32(a.lo, n), _mm_srli_epi32(a.hi, n)}; }
static inline i8 i8_srai(i8 a, int n) { return (i8){_mm_srai_epi32(a.lo, n), _mm_srai_epi32(a.hi, n)}; }
static inline i8 i8_slli(i8 a, int n) { return (i8){_mm_slli_epi32(a.lo, n), _mm_slli_epi32(a.hi, n)}; }
static inline i8 l8_bits(f8 a) { return (i8){_mm_castps_si128(a.lo), _mm_castps_si128(a.hi)}; }
static inline f8 i8_bits(i8 a) { return (f8){_mm_castsi128_ps(a.lo), _mm_castsi128_ps(a.hi)}; }
static inline f8 i8_to_f8(i8 a) { return (f8){_mm_cvtepi32_ps(a.lo), _mm_cvtepi32_ps(a.hi)}; }
static inline i8 l8_trunc(f8 a) { return (i8){_mm_cvttps_epi32(a.lo), _mm_cvttps_epi32(a.hi)}; }

/* Eight 16-bit values widened to 32 bits without sign, and back (values
 * already in [0, 65535]). */
static inline i8 i8_load_u16(const uint16_t* p) {
    __m128i v = _mm_loadu_si128((const __m128i*)(const void*)p);
    __m128i z = _mm_setzero_si128();
    return (i8){_mm_unpacklo_epi16(v, z), _mm_unpackhi_epi16(v, z)};
}
static inline void i8_store_u16(uint16_t* p, i8 a) {
    /* no unsigned pack in SSE2: centre on 0, pack with signed saturation
     * (exact in range), shift back */
    __m128i bias = _mm_set1_epi32(32768);
    __m128i packed = _mm_packs_epi32(_mm_sub_epi32(a.lo, bias), _mm_sub_epi32(a.hi, bias));
    _mm_storeu_si128((__m128i*)(void*)p, _mm_xor_si128(packed, _mm_set1_epi16((short)0x8000)));
}

/* Lane sums in one fixed order: ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7)). */
static inline float l8_sum(f8 a) {
    float v[8];
    l8_store(v, a);
    return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
}

#endif
