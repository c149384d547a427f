// SPDX-License-Identifier: MIT
/* The surface table's row walk on two SSE2 registers (ocean_walk_kernel.h):
 * every x86-64 CPU runs it. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "lanes_sse2.h"
#include "ocean_walk.h"

#define OW_NAME(x) ocean_walk_sse2_##x
#include "ocean_walk_kernel.h"
