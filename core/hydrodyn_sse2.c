// SPDX-License-Identifier: MIT
/* The force kernels of hydrodyn_kernel.h on two SSE2 registers: every
 * x86-64 CPU runs them. */
#include <string.h>

#include "hydrodyn_lanes.h"
#include "lanes_sse2.h"

#define HK_NAME(x) hydrodyn_sse2_##x
#include "hydrodyn_kernel.h"
