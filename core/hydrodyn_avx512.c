// SPDX-License-Identifier: MIT
/* The AVX2 kernels again, built with AVX-512VL: the same eight lanes and
 * intrinsics, but the compiler has 32 vector registers instead of 16, so
 * the kernel's sums and constants stop spilling (6-9 % less time per span
 * on Sapphire/Emerald Rapids). Same operations in the same order, so the
 * same bits; never -mfma (lanes_avx2.h). Called only once
 * kernels_at has seen AVX-512F and VL (kernels.c). */
#include <string.h>

#include "hydrodyn_lanes.h"
#include "lanes_avx2.h"

#define HK_NAME(x) hydrodyn_avx512_##x
#include "hydrodyn_kernel.h"
