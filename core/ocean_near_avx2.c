// SPDX-License-Identifier: MIT
/* The surface lookup on one AVX2 register (ocean_near_kernel.h): gathers
 * fetch each cell's corners, about twice as fast as the SSE2 build's
 * paired loads. Built with -mavx2 and never -mfma: each lane rounds as the
 * SSE2 build's. */
#include <stddef.h>
#include <stdint.h>

#include "lanes_avx2.h"
#include "ocean_internal.h"

#define ON_NAME ocean_near_avx2
#include "ocean_near_kernel.h"
