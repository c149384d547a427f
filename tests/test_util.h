// SPDX-License-Identifier: MIT
/* Helpers shared by the test programs (header-only: each test is one program). */
#ifndef NAVAL_TEST_UTIL_H
#define NAVAL_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "naval/hull.h"
#include "naval/hullgen.h"
#include "naval/mass.h"
#include "naval/mesh.h"
#include "naval/world.h"

/* Fails the test with the library's message when a call returns non-zero. */
#define ASSERT_OK(call, err)                                                  \
    do {                                                                      \
        if ((call) != 0) fail_msg("%s failed: %s", #call, (err).message);     \
    } while (0)

#define ASSERT_NEAR_REL(actual, expected, rel)                                                          \
    do {                                                                                                \
        double a_ = (actual), e_ = (expected);                                                          \
        if (!(fabs(a_ - e_) <= (rel) * fabs(e_)))                                                       \
            fail_msg("%s = %.10g, expected %.10g within %.3g relative (off by %.3g)", #actual, a_, e_,  \
                     (double)(rel), fabs(a_ - e_) / fabs(e_));                                          \
    } while (0)

#define ASSERT_NEAR_ABS(actual, expected, tol)                                                  \
    do {                                                                                        \
        double a_ = (actual), e_ = (expected);                                                  \
        if (!(fabs(a_ - e_) <= (tol)))                                                          \
            fail_msg("%s = %.10g, expected %.10g within %.3g", #actual, a_, e_, (double)(tol)); \
    } while (0)

/* Built-in hull as a hull type of uniform density. */
static inline void test_hull_builtin(nv_hull* out, const char* name, unsigned tris, double density) {
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_build(name, tris, &m, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.density = density;
    ASSERT_OK(nv_hull_create(out, &m, &spec, &err), err);
    nv_mesh_free(&m);
}

/* A box of l x b x h (divisions nx, ny, nz along them) as a world hull type
 * of density 500 kg/m^3: its CG at the box's centre. */
static inline uint32_t test_world_box_type(nv_world* w, double l, double b, double h, unsigned nx, unsigned ny,
                                           unsigned nz) {
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_box(&m, l, b, h, nx, ny, nz, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.density = 500.0;
    uint32_t type;
    ASSERT_OK(nv_world_add_hull_type(w, "box", &m, &spec, &type, &err), err);
    nv_mesh_free(&m);
    return type;
}

/* Deterministic pseudo-random numbers (splitmix64): tests must not depend on
 * the C library's rand(). */
typedef struct test_rng {
    uint64_t state;
} test_rng;

static inline uint64_t test_rng_next(test_rng* r) {
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi). */
static inline double test_rng_uniform(test_rng* r, double lo, double hi) {
    return lo + (hi - lo) * ((double)(test_rng_next(r) >> 11) * (1.0 / 9007199254740992.0));
}

/* A vessel of `type` spawned upright at (x, z), floating at its balance
 * height, moving at `velocity`: its id. */
static inline uint32_t test_spawn_afloat(nv_world* w, uint32_t type, double x, double z, nv_vec3 velocity) {
    nv_error err;
    double y;
    uint32_t id;
    ASSERT_OK(nv_world_type_float_height(w, type, &y, &err), err);
    ASSERT_OK(nv_world_spawn(w, type, v3(x, y, z), quat_identity(), &id, &err), err);
    ASSERT_OK(nv_world_set_velocity(w, id, velocity, v3(0, 0, 0), &err), err);
    return id;
}

/* Vessel `id`'s state (it must exist). */
static inline nv_world_vessel_state test_vessel_state(const nv_world* w, uint32_t id) {
    nv_world_vessel_state s;
    assert_int_equal(nv_world_vessel_get(w, id, &s), 0);
    return s;
}

#endif
