// SPDX-License-Identifier: MIT
/* The surface lookup on two SSE2 registers (ocean_near_kernel.h): every
 * x86-64 CPU runs it. */
#include <stddef.h>
#include <stdint.h>

#include "lanes_sse2.h"
#include "ocean_internal.h"

#define ON_NAME ocean_near_sse2
#include "ocean_near_kernel.h"
