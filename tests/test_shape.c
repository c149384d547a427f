// SPDX-License-Identifier: MIT
/* The narrowphase's least overlap (core/shape.c): the whole search, and the
 * search that starts from last step's normal (shape_penetration_from),
 * which a pair that stays in contact takes every step after its first.
 * Each answer must be a move that parts the two shapes, and the tracked
 * one as short as the whole search's while the pair slides. */
#include <math.h>

#include "shape.h"
#include "test_util.h"

static void box_shape(shape* s, double lx, double ly, double lz) {
    float x[8], y[8], z[8];
    for (int k = 0; k < 8; k++) {
        x[k] = (float)((k & 1 ? 0.5 : -0.5) * lx);
        y[k] = (float)((k & 2 ? 0.5 : -0.5) * ly);
        z[k] = (float)((k & 4 ? 0.5 : -0.5) * lz);
    }
    nv_error err;
    ASSERT_OK(shape_build_points(s, x, y, z, 1, 8, &err), err);
}

static nv_mat3 rotation_of(double yaw, double roll, double pitch) {
    nv_quat q = quat_mul(quat_mul(quat_from_axis_angle(v3(0, 1, 0), yaw), quat_from_axis_angle(v3(1, 0, 0), roll)),
                         quat_from_axis_angle(v3(0, 0, 1), pitch));
    return quat_to_mat3(q);
}

/* b moved by depth along n (and a hair more) no longer overlaps a. */
static void assert_parts(const shape_pose* a, shape_pose b, double depth, nv_vec3 n) {
    b.position = v3_madd(b.position, n, depth + 1e-4);
    double d;
    nv_vec3 nn, p;
    assert_int_equal(shape_penetration(a, &b, &d, &nn, &p), -1);
}

static uint32_t lcg(uint32_t* s) { return *s = *s * 1664525u + 1013904223u; }
static double uniform(uint32_t* s, double lo, double hi) { return lo + (hi - lo) * (lcg(s) >> 8) / 16777216.0; }

/* Deep overlaps in random poses: both searches answer with a move that
 * parts the shapes, and starting from the whole search's own normal finds
 * no longer a move than it did. */
static void both_searches_part_the_shapes(void** state) {
    (void)state;
    shape hull, box;
    box_shape(&hull, 24.0, 3.0, 5.0); /* a patrol boat's bounding box */
    box_shape(&box, 5.0, 1.5, 2.0);   /* a skiff's */
    uint32_t seed = 7;
    int deep = 0;
    for (int k = 0; k < 200; k++) {
        shape_pose a = {&hull, v3(0, 0, 0), rotation_of(uniform(&seed, -3.2, 3.2), uniform(&seed, -0.4, 0.4), 0.0), 0.0};
        shape_pose b = {&box, v3(uniform(&seed, -12, 12), uniform(&seed, -1, 1), uniform(&seed, -4, 4)),
                        rotation_of(uniform(&seed, -3.2, 3.2), uniform(&seed, -0.5, 0.5), uniform(&seed, -0.2, 0.2)),
                        0.0};
        double d0, d1;
        nv_vec3 n0, n1, p;
        if (shape_penetration(&a, &b, &d0, &n0, &p) != 0) continue;
        assert_parts(&a, b, d0, n0);
        assert_int_equal(shape_penetration_from(&a, &b, &n0, &d1, &n1, &p), 0);
        assert_parts(&a, b, d1, n1);
        assert_true(d1 <= d0 + 1e-9);
        deep += d0 > 0.05;
    }
    print_message("%d deep overlaps among the 200 poses\n", deep);
    assert_true(deep > 50);
    shape_free(&hull);
    shape_free(&box);
}

/* A skiff pressed into a patrol boat's side and sliding along it while it
 * turns: the search from last step's normal follows the least overlap
 * step by step as the whole search finds it. */
static void the_tracked_normal_follows_a_sliding_pair(void** state) {
    (void)state;
    shape hull, box;
    box_shape(&hull, 24.0, 3.0, 5.0);
    box_shape(&box, 5.0, 1.5, 2.0);
    shape_pose a = {&hull, v3(0, 0, 0), rotation_of(0.0, 0.05, 0.0), 0.02};
    nv_vec3 hint = v3(0, 0, 1);
    double worst = 0.0;
    for (int k = 0; k < 240; k++) {
        double t = k / 240.0;
        shape_pose b = {&box, v3(-10.0 + 20.0 * t, 0.2 * sin(6.0 * t), 2.9 - 0.6 * sin(3.0 * t)),
                        rotation_of(0.8 * t, 0.1 * sin(5.0 * t), 0.05), 0.02};
        double full, tracked;
        nv_vec3 nf, nt, p;
        assert_int_equal(shape_penetration(&a, &b, &full, &nf, &p), 0);
        assert_int_equal(shape_penetration_from(&a, &b, &hint, &tracked, &nt, &p), 0);
        assert_parts(&a, b, tracked, nt);
        worst = fmax(worst, tracked - full);
        hint = nt;
    }
    print_message("tracked minus whole search, worst over 240 steps: %.2e m\n", worst);
    assert_true(worst < 1e-3);
    shape_free(&hull);
    shape_free(&box);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(both_searches_part_the_shapes),
        cmocka_unit_test(the_tracked_normal_follows_a_sliding_pair),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
