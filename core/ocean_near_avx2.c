// SPDX-License-Identifier: MIT
/* The surface lookup of the vertex pass (ocean_grid_sample_near) eight
 * points at a time: AVX2 gathers fetch each cell's four corners, about
 * twice as fast as the SSE2 path's paired loads. Built with -mavx2 and
 * never -mfma, so each lane rounds as the SSE2 and scalar paths do. */
#include <immintrin.h>

#include "ocean_internal.h"

size_t ocean_grid_near_avx2(const float* gh, int mx, int mz, int shift, float u0, float v0, float icx, float icz,
                            size_t count, const float* dx, const float* dz, float* height) {
    const __m256 vu0 = _mm256_set1_ps(u0), vv0 = _mm256_set1_ps(v0);
    const __m256 vicx = _mm256_set1_ps(icx), vicz = _mm256_set1_ps(icz);
    const __m256i vmx = _mm256_set1_epi32(mx), vmz = _mm256_set1_epi32(mz), one = _mm256_set1_epi32(1);
    const __m128i vshift = _mm_cvtsi32_si128(shift);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m256 u = _mm256_add_ps(vu0, _mm256_mul_ps(_mm256_loadu_ps(dx + i), vicx));
        const __m256 v = _mm256_add_ps(vv0, _mm256_mul_ps(_mm256_loadu_ps(dz + i), vicz));
        /* floor: truncation, minus one where that rounded up */
        __m256i iu = _mm256_cvttps_epi32(u), iv = _mm256_cvttps_epi32(v);
        iu = _mm256_add_epi32(iu, _mm256_castps_si256(_mm256_cmp_ps(u, _mm256_cvtepi32_ps(iu), _CMP_LT_OQ)));
        iv = _mm256_add_epi32(iv, _mm256_castps_si256(_mm256_cmp_ps(v, _mm256_cvtepi32_ps(iv), _CMP_LT_OQ)));
        const __m256 tx = _mm256_sub_ps(u, _mm256_cvtepi32_ps(iu)), tz = _mm256_sub_ps(v, _mm256_cvtepi32_ps(iv));
        const __m256i ix0 = _mm256_and_si256(iu, vmx), ix1 = _mm256_and_si256(_mm256_add_epi32(ix0, one), vmx);
        const __m256i r0 = _mm256_sll_epi32(_mm256_and_si256(iv, vmz), vshift);
        const __m256i r1 = _mm256_sll_epi32(_mm256_and_si256(_mm256_add_epi32(iv, one), vmz), vshift);
        const __m256 a00 = _mm256_i32gather_ps(gh, _mm256_add_epi32(r0, ix0), 4);
        const __m256 a10 = _mm256_i32gather_ps(gh, _mm256_add_epi32(r0, ix1), 4);
        const __m256 a01 = _mm256_i32gather_ps(gh, _mm256_add_epi32(r1, ix0), 4);
        const __m256 a11 = _mm256_i32gather_ps(gh, _mm256_add_epi32(r1, ix1), 4);
        const __m256 h0 = _mm256_add_ps(a00, _mm256_mul_ps(tx, _mm256_sub_ps(a10, a00)));
        const __m256 h1 = _mm256_add_ps(a01, _mm256_mul_ps(tx, _mm256_sub_ps(a11, a01)));
        _mm256_storeu_ps(height + i, _mm256_add_ps(h0, _mm256_mul_ps(tz, _mm256_sub_ps(h1, h0))));
    }
    return i;
}
