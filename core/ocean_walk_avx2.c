// SPDX-License-Identifier: MIT
/* The surface table's row walk on one AVX2 register (ocean_walk_kernel.h).
 * Built with -mavx2 and never -mfma: each lane rounds as the SSE2 build's. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "lanes_avx2.h"
#include "ocean_walk.h"

#define OW_NAME(x) ocean_walk_avx2_##x
#include "ocean_walk_kernel.h"
