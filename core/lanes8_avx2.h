/* Eight float lanes in one AVX2 register: the counterpart of
 * lanes8_sse2.h, operation for operation (no FMA: a fused multiply-add
 * rounds once where the SSE2 lanes round twice). Only for translation
 * units compiled with -mavx2 and called after a CPU check. */
#ifndef NAVAL_LANES8_AVX2_H
#define NAVAL_LANES8_AVX2_H

#include <immintrin.h>
#include <stdint.h>

typedef __m256 f8;
typedef __m256i i8;

static inline f8 l8_add(f8 a, f8 b) { return _mm256_add_ps(a, b); }
static inline f8 l8_sub(f8 a, f8 b) { return _mm256_sub_ps(a, b); }
static inline f8 l8_mul(f8 a, f8 b) { return _mm256_mul_ps(a, b); }
static inline f8 l8_div(f8 a, f8 b) { return _mm256_div_ps(a, b); }
static inline f8 l8_max(f8 a, f8 b) { return _mm256_max_ps(a, b); }
static inline f8 l8_min(f8 a, f8 b) { return _mm256_min_ps(a, b); }
static inline f8 l8_gt(f8 a, f8 b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline f8 l8_and(f8 a, f8 b) { return _mm256_and_ps(a, b); }
static inline f8 l8_andnot(f8 a, f8 b) { return _mm256_andnot_ps(a, b); }
static inline f8 l8_or(f8 a, f8 b) { return _mm256_or_ps(a, b); }
static inline f8 l8_set(float x) { return _mm256_set1_ps(x); }
static inline f8 l8_load(const float* p) { return _mm256_loadu_ps(p); }
static inline void l8_store(float* p, f8 a) { _mm256_storeu_ps(p, a); }
/* m ? a : b per lane, m all ones or all zeros (blendv reads the top bit) */
static inline f8 l8_sel(f8 m, f8 a, f8 b) { return _mm256_blendv_ps(b, a, m); }
static inline i8 i8_sel(i8 m, i8 a, i8 b) { return _mm256_blendv_epi8(b, a, m); }
static inline f8 l8_bits_all(void) { return _mm256_castsi256_ps(_mm256_set1_epi32(-1)); }
static inline f8 l8_sqrt(f8 a) { return _mm256_sqrt_ps(a); }
static inline int l8_any(f8 m) { return _mm256_movemask_ps(m) != 0; }

static inline i8 i8_add(i8 a, i8 b) { return _mm256_add_epi32(a, b); }
static inline i8 i8_sub(i8 a, i8 b) { return _mm256_sub_epi32(a, b); }
static inline i8 i8_and(i8 a, i8 b) { return _mm256_and_si256(a, b); }
static inline i8 i8_or(i8 a, i8 b) { return _mm256_or_si256(a, b); }
static inline i8 i8_andnot(i8 a, i8 b) { return _mm256_andnot_si256(a, b); }
static inline i8 i8_gt(i8 a, i8 b) { return _mm256_cmpgt_epi32(a, b); }
static inline i8 i8_set(int32_t x) { return _mm256_set1_epi32(x); }
static inline i8 i8_srli(i8 a, int n) { return _mm256_srli_epi32(a, n); }
static inline i8 i8_srai(i8 a, int n) { return _mm256_srai_epi32(a, n); }
static inline i8 i8_slli(i8 a, int n) { return _mm256_slli_epi32(a, n); }
static inline i8 l8_bits(f8 a) { return _mm256_castps_si256(a); }
static inline f8 i8_bits(i8 a) { return _mm256_castsi256_ps(a); }
static inline f8 i8_to_f8(i8 a) { return _mm256_cvtepi32_ps(a); }
static inline i8 l8_trunc(f8 a) { return _mm256_cvttps_epi32(a); }

static inline i8 i8_load_u16(const uint16_t* p) {
    return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i*)(const void*)p));
}
static inline void i8_store_u16(uint16_t* p, i8 a) {
    __m128i packed = _mm_packus_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    _mm_storeu_si128((__m128i*)(void*)p, packed);
}

/* Lane sums in the order of lanes8_sse2.h's l8_sum. */
static inline float l8_sum(f8 a) {
    float v[8];
    l8_store(v, a);
    return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
}

#endif
