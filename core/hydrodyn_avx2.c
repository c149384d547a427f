// SPDX-License-Identifier: MIT
/* The force kernels of hydrodyn_kernel.h on one AVX2 register. Built with
 * -mavx2 (and never -mfma: see lanes_avx2.h); called only once
 * kernels_at has seen the CPU has AVX2 (kernels.c). */
#include <string.h>

#include "hydrodyn_lanes.h"
#include "lanes_avx2.h"

#define HK_NAME(x) hydrodyn_avx2_##x
#include "hydrodyn_kernel.h"
