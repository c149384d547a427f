// SPDX-License-Identifier: MIT
#include "kernels.h"

#include "naval/simd.h"

/* AVX-512 adds registers, not lanes: the surface kernels have no build of
 * their own there and run their AVX2 one. */
static const kernels kernels_table[SIMD_LEVELS] = {
    [SIMD_SSE2] = {SIMD_SSE2, &hydrodyn_sse2_kernels, ocean_walk_sse2_rows, ocean_near_sse2},
    [SIMD_AVX2] = {SIMD_AVX2, &hydrodyn_avx2_kernels, ocean_walk_avx2_rows, ocean_near_avx2},
    [SIMD_AVX512] = {SIMD_AVX512, &hydrodyn_avx512_kernels, ocean_walk_avx2_rows, ocean_near_avx2},
};

const kernels* kernels_at(int level) {
    if (level < 0 || level >= SIMD_LEVELS || level > nv_simd_cpu_level()) return NULL;
    return &kernels_table[level];
}

const kernels* kernels_active(void) { return &kernels_table[nv_simd_level()]; }
