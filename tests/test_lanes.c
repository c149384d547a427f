// SPDX-License-Identifier: MIT
/* The demo fleet's traffic lanes (server/lanes.h): the stadium's
 * geometry against its closed form, and the plan's spacing, separation
 * and deep water. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "avoid.h"
#include "lanes.h"
#include "naval/vecmath.h"

static lane test_lane(double axis) {
    return (lane){.cx = 30.0, .cz = -20.0, .axis = axis, .half_straight = 200.0, .radius = 150.0, .look = 40.0,
                  .throttle = 0.5, .type = 0, .boats = 1};
}

/* Every point lies at `radius` from the segment between the ends'
 * centres, the heading is the way round (the tangent of the next point),
 * and projecting a point gives back its arc position. */
static void test_stadium_geometry(void** state) {
    (void)state;
    for (int k = 0; k < 4; k++) {
        lane l = test_lane(k * 0.9 - 1.3);
        const double P = lane_perimeter(&l);
        assert_true(fabs(P - (800.0 + 2.0 * NV_PI * 150.0)) < 1e-9);
        const double ux = cos(l.axis), uz = -sin(l.axis);
        for (double s = 0.0; s < P; s += 7.3) {
            double x, z, h, x2, z2;
            lane_point(&l, s, &x, &z, &h);
            /* distance from the axis segment */
            double u = (x - l.cx) * ux + (z - l.cz) * uz, uc = fmax(-200.0, fmin(200.0, u));
            double px = l.cx + uc * ux, pz = l.cz + uc * uz;
            assert_true(fabs(hypot(x - px, z - pz) - 150.0) < 1e-6);
            /* the heading points to the point a little further on */
            lane_point(&l, s + 0.01, &x2, &z2, NULL);
            double step = atan2(-(z2 - z), x2 - x);
            assert_true(fabs(remainder(step - h, 2.0 * NV_PI)) < 1e-3);
            /* round trip, also from 30 m either side of the lane */
            assert_true(fabs(lane_ahead(&l, s, lane_project(&l, x, z))) < 1e-6 ||
                        fabs(lane_ahead(&l, s, lane_project(&l, x, z)) - P) < 1e-6);
            for (int side = -1; side <= 1; side += 2) {
                double nx = sin(h) * side * 30.0, nz = cos(h) * side * 30.0; /* starboard: (sin h, cos h) */
                double d = lane_ahead(&l, s, lane_project(&l, x + nx, z + nz));
                assert_true(d < 1e-6 || P - d < 1e-6);
            }
        }
        /* always turning to port: the heading increases round the lane */
        double turned = 0.0, h0, h1, x, z;
        lane_point(&l, 0.0, &x, &z, &h0);
        for (double s = 1.0; s < P + 1.0; s += 1.0) {
            lane_point(&l, fmin(s, P), &x, &z, &h1);
            double dh = remainder(h1 - h0, 2.0 * NV_PI);
            assert_true(dh > -1e-9);
            turned += dh;
            h0 = h1;
        }
        assert_true(fabs(turned - 2.0 * NV_PI) < 1e-6);
    }
}

/* The plan: each fleet on lanes of its own, boats at least LANES_ROOM
 * close quarters apart along a lane, lanes a close quarters of the two
 * types apart and more, the shortest boats innermost. */
static void test_plan_spacing(void** state) {
    (void)state;
    const lanes_fleet f[3] = {{2, 33, 120.0}, {0, 105, 5.0}, {1, 62, 24.0}};
    lane* l;
    uint32_t n;
    char why[96];
    assert_int_equal(lanes_plan(NULL, 0.0, 0.0, 0.5, 250.0, f, 3, &l, &n, why, sizeof why), 0);
    uint32_t boats[3] = {0, 0, 0};
    const double len[3] = {5.0, 24.0, 120.0};
    for (uint32_t i = 0; i < n; i++) {
        assert_true(l[i].type < 3);
        boats[l[i].type] += l[i].boats;
        const double cq = 1.5 * len[l[i].type] + AVOID_MARGIN_M;
        assert_true(lane_perimeter(&l[i]) / (l[i].boats ? l[i].boats : 1) >= LANES_ROOM * cq);
        if (i) {
            assert_true(l[i].type >= l[i - 1].type); /* skiff 0, patrol 1, freighter 2: by length */
            const double cq2 = 0.75 * (len[l[i].type] + len[l[i - 1].type]) + AVOID_MARGIN_M;
            assert_true(l[i].radius - l[i - 1].radius >= cq2 + LANES_MARGIN_M - 1e-9);
        }
    }
    assert_int_equal(boats[0], 105);
    assert_int_equal(boats[1], 62);
    assert_int_equal(boats[2], 33);
    free(l);
}

/* On the built-in harbour, every lane lies over water deeper than
 * LANES_DEPTH_M, also half a spacing either side. */
static void test_plan_deep_water(void** state) {
    (void)state;
    nv_terrain* t;
    nv_error err;
    assert_int_equal(nv_terrain_builtin("harbour", &t, &err), 0);
    const lanes_fleet f[2] = {{0, 60, 5.0}, {1, 40, 24.0}};
    lane* l;
    uint32_t n;
    char why[96];
    assert_int_equal(lanes_plan(t, 0.0, 0.0, 0.52, 250.0, f, 2, &l, &n, why, sizeof why), 0);
    assert_true(n >= 2);
    for (uint32_t i = 0; i < n; i++)
        for (double s = 0.0; s < lane_perimeter(&l[i]); s += 2.0) {
            double x, z;
            lane_point(&l[i], s, &x, &z, NULL);
            assert_true(nv_terrain_elevation(t, x, z) < -LANES_DEPTH_M);
        }
    /* the innermost skiff lane is as near the island as the depth allows:
     * 10 m less and it would cross shallows */
    lane in = l[0];
    in.radius -= 10.0;
    int shallow = 0;
    for (double s = 0.0; s < lane_perimeter(&in) && !shallow; s += 2.0) {
        double x, z;
        lane_point(&in, s, &x, &z, NULL);
        shallow = nv_terrain_max_in(t, x - 24.0, z - 24.0, x + 24.0, z + 24.0) > -LANES_DEPTH_M;
    }
    assert_true(shallow);
    free(l);
    nv_terrain_destroy(t);
}

/* A fleet that would need too many lanes is refused, saying why. */
static void test_plan_refuses(void** state) {
    (void)state;
    const lanes_fleet f[1] = {{0, 2000000, 120.0}};
    lane* l;
    uint32_t n;
    char why[96] = "";
    assert_int_equal(lanes_plan(NULL, 0.0, 0.0, 0.0, 100.0, f, 1, &l, &n, why, sizeof why), -1);
    assert_non_null(strstr(why, "lanes"));
    assert_null(l);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stadium_geometry),
        cmocka_unit_test(test_plan_spacing),
        cmocka_unit_test(test_plan_deep_water),
        cmocka_unit_test(test_plan_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
