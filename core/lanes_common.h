// SPDX-License-Identifier: MIT
/* What lanes_sse2.h and lanes_avx2.h share: 128-bit steps both lane layers
 * take the same way. */
#ifndef NAVAL_LANES_COMMON_H
#define NAVAL_LANES_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <xmmintrin.h>

/* Four floats from p + 2 k (two pairs); with `wraps`, the second pair from
 * p + 2 (k + 1 - back) instead (a row that wraps around). */
static inline __m128 lanes_load_two_pairs(const float* p, int32_t k, int wraps, size_t back) {
    const float* first = p + 2 * (size_t)k;
    if (!wraps) return _mm_loadu_ps(first);
    return _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64*)first),
                        (const __m64*)(p + 2 * ((size_t)k + 1 - back)));
}

#endif
