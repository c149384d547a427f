// SPDX-License-Identifier: MIT
#include "naval/simd.h"

#include <stdatomic.h>
#include <string.h>
#include <cpuid.h>

/* Asked once: cpuid traps to the hypervisor, microseconds in a VM. AVX2
 * needs F16C too (the slamming memory's conversions), which every AVX2 CPU
 * has but a hypervisor may hide. __builtin_cpu_supports checks that the OS
 * saves the wider registers as well. */
static int simd_ask_cpu(void) {
    unsigned a, b, c, d;
    if (!__builtin_cpu_supports("avx2") || !__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_F16C)) return SIMD_SSE2;
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512vl")) return SIMD_AVX2;
    return SIMD_AVX512;
}

static atomic_int simd_known = -1; /* -1: not asked yet */
static atomic_int simd_max = SIMD_AVX512;

int nv_simd_cpu_level(void) {
    int known = atomic_load_explicit(&simd_known, memory_order_relaxed);
    if (known < 0) {
        known = simd_ask_cpu();
        atomic_store_explicit(&simd_known, known, memory_order_relaxed);
    }
    return known;
}

int nv_simd_level(void) {
    int cpu = nv_simd_cpu_level(), cap = atomic_load_explicit(&simd_max, memory_order_relaxed);
    return cpu < cap ? cpu : cap;
}

void nv_simd_cap(int level) { atomic_store(&simd_max, level); }

static const char* const simd_names[SIMD_LEVELS] = {"sse2", "avx2", "avx512"};

const char* nv_simd_name(int level) { return level >= 0 && level < SIMD_LEVELS ? simd_names[level] : "?"; }

int nv_simd_level_of(const char* name) {
    for (int level = 0; level < SIMD_LEVELS; level++)
        if (!strcmp(name, simd_names[level])) return level;
    return -1;
}
