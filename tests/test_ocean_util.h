// SPDX-License-Identifier: MIT
/* Helpers shared by the ocean's test programs (header-only). */
#ifndef NAVAL_TEST_OCEAN_UTIL_H
#define NAVAL_TEST_OCEAN_UTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_util.h"

#include "naval/ocean.h"
#include "naval/vecmath.h"

static inline nv_ocean* make(const nv_ocean_params* p) {
    nv_error err;
    nv_ocean* o = nv_ocean_create(p, &err);
    if (!o) fail_msg("nv_ocean_create: %s", err.message);
    return o;
}

static inline float grid(const nv_ocean* o, int c, nv_ocean_field_id f, int ix, int iz) {
    int nx;
    nv_ocean_resolution(o, &nx, NULL);
    return nv_ocean_field(o, c, f)[OCEAN_FIELD_STRIDE * ((size_t)iz * nx + ix)];
}

/* The test's own quantised dispersion: w = j 2 pi / T, j = round(w(k) T / 2 pi) >= 1. */
static inline double test_omega(const nv_ocean_params* p, double k) {
    double w = p->depth > 0.0 ? sqrt(p->gravity * k * tanh(k * p->depth)) : sqrt(p->gravity * k);
    double w0 = 2.0 * NV_PI / p->repeat_period;
    double j = floor(w / w0 + 0.5);
    return (j < 1.0 ? 1.0 : j) * w0;
}

#endif
