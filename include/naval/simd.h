// SPDX-License-Identifier: MIT
/* Which vector instructions the hot kernels may use. Each kernel with a
 * wider build (the force kernels, the surface lookup) gives the same bits
 * in every build, so the level is a matter of speed only: a replay
 * recorded on one machine checks on any. Benchmarks and tests cap it to
 * compare the builds. */
#ifndef NAVAL_SIMD_H
#define NAVAL_SIMD_H

#include "naval/nv_api.h"

NV_API_BEGIN

enum {
    SIMD_SSE2,   /* every x86-64 CPU */
    SIMD_AVX2,   /* AVX2 and F16C */
    SIMD_AVX512, /* and AVX-512F + VL (used for its 32 registers, on 8 lanes) */
    SIMD_LEVELS
};

/* The widest level this CPU (and its OS) runs. */
int nv_simd_cpu_level(void);
/* The level the kernels use: the CPU's, no wider than the cap. */
int nv_simd_level(void);
/* Caps the level (SIMD_AVX512 lifts the cap). Not for use while a world
 * steps on other threads. */
void nv_simd_cap(int level);
const char* nv_simd_name(int level);
/* "sse2", "avx2" or "avx512" to its level; -1 for anything else. */
int nv_simd_level_of(const char* name);

NV_API_END

#endif
