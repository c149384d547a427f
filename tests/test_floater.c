// SPDX-License-Identifier: MIT
/* The fake floater against its closed forms: the critically damped step
 * response up (0.2 s) and down (0.1 s), the same at any time step; the
 * tilt on a sine wave against the slope of the wave (and the exact
 * central difference the four samples make); NaN water held; the batch
 * stepping bit-identically to single floaters without allocating. */
#include <math.h>

#include "floater.h"
#include "test_alloc_count.h"
#include "test_util.h"

#define G 9.81

/* Remaining fraction of a step change after t seconds with smooth time T. */
static double gap_after(double t, double smooth_time) {
    double w = 2.0 / smooth_time;
    return (1.0 + w * t) * exp(-w * t);
}

/* Steps a floater resting at 0 on water that jumped to `level`, for n steps of dt. */
static double height_after(double level, double dt, int n) {
    nv_water_flat w;
    nv_water_flat_init(&w, level);
    floater_params p = floater_params_default();
    floater f = floater_make(3.0, 0.0, -7.0, 0.4);
    for (int i = 0; i < n; i++) assert_int_equal(floater_step(&f, &p, &w.base, dt), 0);
    return f.y;
}

static void follows_a_level_faster_down_than_up(void** state) {
    (void)state;
    floater_params p = floater_params_default();
    assert_true(p.up_time == 0.2 && p.down_time == 0.1);
    const double dt = 1.0 / 60.0;
    /* rising 1 m: 41 % of it left at 0.2 s; falling: the same at 0.1 s */
    double up_t = 12 * dt, down_t = 6 * dt;
    /* (the velocity is kept as a float: 1e-7 of the step) */
    ASSERT_NEAR_ABS(height_after(1.0, dt, 12), 1.0 - gap_after(up_t, 0.2), 1e-7);
    ASSERT_NEAR_ABS(height_after(-1.0, dt, 6), -(1.0 - gap_after(down_t, 0.1)), 1e-7);
    ASSERT_NEAR_ABS(gap_after(0.2, 0.2), 3.0 * exp(-2.0), 1e-15);
    /* asymmetry: at 0.1 s the fall is 59 % done, the rise only 26 % */
    double rise = height_after(1.0, dt, 6), fall = -height_after(-1.0, dt, 6);
    print_message("after 0.1 s: rise %.4f, fall %.4f of a 1 m step; after 0.2 s: rise %.4f\n", rise, fall,
                  height_after(1.0, dt, 12));
    ASSERT_NEAR_ABS(rise, 1.0 - 2.0 * exp(-1.0), 1e-7);
    assert_true(fall > 2.0 * rise);
    /* settles without overshoot (critically damped) */
    nv_water_flat w;
    nv_water_flat_init(&w, 1.0);
    floater f = floater_make(0, 0, 0, 0);
    for (int i = 0; i < 600; i++) {
        floater_step(&f, &p, &w.base, dt);
        assert_true(f.y <= 1.0);
    }
    ASSERT_NEAR_ABS(f.y, 1.0, 1e-9);
}

/* A level held still is followed the same way at any time step: each step
 * is the spring's exact solution. */
static void time_step_does_not_change_the_response(void** state) {
    (void)state;
    const double t = 0.3;
    const int steps[] = {3, 18, 72, 300, 3000};
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        ASSERT_NEAR_ABS(height_after(2.0, t / steps[k], steps[k]), 2.0 * (1.0 - gap_after(t, 0.2)), 2e-7);
        ASSERT_NEAR_ABS(height_after(-2.0, t / steps[k], steps[k]), -2.0 * (1.0 - gap_after(t, 0.1)), 2e-7);
    }
}

/* On a still sine wave h = A sin(k x) the floater's normal is the wave's:
 * its four samples give the central difference A cos(k x) sin(k r) / r
 * exactly (float heights aside), within sin(kr)/kr of the true slope. */
static void tilts_to_the_slope_of_a_sine_wave(void** state) {
    (void)state;
    const double amp = 0.5, lambda = 20.0, k = 2.0 * NV_PI / lambda;
    const double dirs[] = {0.0, 0.5 * NV_PI, 0.9};
    const double headings[] = {0.0, 0.7, -2.0};
    floater_params p = floater_params_default();
    for (int d = 0; d < 3; d++) {
        nv_water_sine w;
        assert_int_equal(nv_water_sine_init(&w, amp, lambda, dirs[d], G), 0);
        nv_water_sine_set_time(&w, 0.0);
        double ux = cos(dirs[d]), uz = -sin(dirs[d]); /* toward -z, as headings */
        for (int hd = 0; hd < 3; hd++)
            for (int i = 0; i < 8; i++) {
                double s = 1.3 + 2.37 * i; /* distance along the wave */
                floater f = floater_make(s * ux + 1.0 * uz, 0.0, s * uz - 1.0 * ux, headings[hd]);
                for (int n = 0; n < 120; n++) floater_step(&f, &p, &w.base, 1.0 / 60.0);
                double slope = amp * k * cos(k * s);
                nv_vec3 n_true = v3_normalize(v3(-slope * ux, 1.0, -slope * uz));
                nv_vec3 pos;
                nv_quat q;
                floater_pose(&f, &pos, &q);
                nv_vec3 up = quat_rotate(q, v3(0, 1, 0));
                double angle = acos(fmin(1.0, v3_dot(up, n_true))) * 180.0 / NV_PI;
                assert_true(angle < 0.25); /* degrees; the slope reaches 9 degrees */
                if (hd == 0 && d != 2) {
                    /* samples along the wave at +-r: the exact central difference */
                    double r = p.radius, cd = amp * cos(k * s) * sin(k * r) / r;
                    nv_vec3 n_cd = v3_normalize(v3(-cd * ux, 1.0, -cd * uz));
                    ASSERT_NEAR_ABS(up.x, n_cd.x, 2e-6);
                    ASSERT_NEAR_ABS(up.z, n_cd.z, 2e-6);
                }
                /* height: the mean of the four samples, settled */
                assert_true(fabs(pos.y - amp * sin(k * s)) < 0.01);
                /* the bow keeps its heading: the body x axis, seen from above */
                nv_vec3 bow = quat_rotate(q, v3(1, 0, 0));
                double hx = cos(headings[hd]), hz = -sin(headings[hd]);
                double cross = bow.x * hz - bow.z * hx;
                assert_true(fabs(cross) < 0.01 * sqrt(bow.x * bow.x + bow.z * bow.z));
                assert_true(bow.x * hx + bow.z * hz > 0.0);
            }
    }
}

/* A floater standing in for a hull samples at the hull's own reaches
 * (floater_batch_set_reach): on a still sine wave along its heading it
 * tilts to the central difference over +-along, across its heading to the
 * one over +-across, and its height settles on the mean of the four. */
static void batch_samples_at_each_floaters_own_reach(void** state) {
    (void)state;
    const double amp = 0.8, lambda = 60.0, k = 2.0 * NV_PI / lambda, along = 12.0, across = 3.0;
    floater_params p = floater_params_default();
    floater_batch b;
    nv_error err;
    ASSERT_OK(floater_batch_init(&b, 4, &p, &err), err);
    floater_scratch* scratch = malloc(sizeof *scratch);
    assert_non_null(scratch);
    const double s = 7.3; /* distance along the wave */
    for (int d = 0; d < 2; d++) {
        /* d 0: the wave runs along +x (the bow); d 1: along -z (to port) */
        nv_water_sine w;
        assert_int_equal(nv_water_sine_init(&w, amp, lambda, d ? 0.5 * NV_PI : 0.0, G), 0);
        nv_water_sine_set_time(&w, 0.0);
        b.count = 0;
        assert_int_equal(floater_batch_add(&b, d ? 0.0 : s, 0.0, d ? -s : 0.0, 0.0, &err), 0);
        assert_int_equal(floater_batch_set_reach(&b, 0, along, across), 0);
        for (int n = 0; n < 240; n++) assert_int_equal(floater_batch_step(&b, 0, 1, &w.base, 1.0 / 60.0, scratch), 0);
        double reach = d ? across : along;
        double cd = amp * cos(k * s) * sin(k * reach) / reach; /* dh/ds */
        nv_vec3 want = d ? v3_normalize(v3(0.0, 1.0, cd)) : v3_normalize(v3(-cd, 1.0, 0.0));
        nv_vec3 pos;
        nv_quat q;
        floater_batch_pose(&b, 0, &pos, &q);
        nv_vec3 up = quat_rotate(q, v3(0, 1, 0));
        ASSERT_NEAR_ABS(up.x, want.x, 2e-6);
        ASSERT_NEAR_ABS(up.z, want.z, 2e-6);
        double mean = amp * sin(k * s) * (1.0 + cos(k * reach)) / 2.0;
        ASSERT_NEAR_ABS(pos.y, mean, 1e-5);
    }
    /* a reach that is not positive and finite is refused, the old one kept */
    assert_int_equal(floater_batch_set_reach(&b, 0, 0.0, 1.0), -1);
    assert_int_equal(floater_batch_set_reach(&b, 0, 1.0, NAN), -1);
    assert_int_equal(floater_batch_set_reach(&b, 4, 1.0, 1.0), -1);
    assert_true(b.reach_along[0] == along && b.reach_across[0] == across);
    free(scratch);
    floater_batch_free(&b);
}

/* floater_heading_of gives back the heading floater_pose wrote, at any
 * tilt; the bow's bearing seen from above does not (it turns with the
 * tilt), which made a vessel on the floater model drift in heading as it
 * was read back each step. */
static void heading_survives_the_tilt(void** state) {
    (void)state;
    test_rng rng = {11};
    double worst = 0.0, bearing_worst = 0.0;
    for (int i = 0; i < 2000; i++) {
        double h = test_rng_uniform(&rng, -3.14, 3.14);
        double tilt = test_rng_uniform(&rng, 0.0, 1.2), dir = test_rng_uniform(&rng, -NV_PI, NV_PI);
        floater f = floater_make(0.0, 0.0, 0.0, h);
        f.nx = (float)(sin(tilt) * cos(dir));
        f.nz = (float)(sin(tilt) * sin(dir));
        nv_quat q;
        floater_pose(&f, NULL, &q);
        worst = fmax(worst, fabs(remainder(floater_heading_of(q) - (double)f.heading, 2.0 * NV_PI)));
        /* -q is the same rotation: the same heading, in -pi..pi */
        double back = floater_heading_of((nv_quat){-q.w, -q.x, -q.y, -q.z});
        assert_true(back >= -NV_PI && back <= NV_PI);
        worst = fmax(worst, fabs(back - (double)f.heading));
        nv_vec3 bow = quat_rotate(q, v3(1, 0, 0));
        bearing_worst = fmax(bearing_worst, fabs(remainder(atan2(-bow.z, bow.x) - (double)f.heading, 2.0 * NV_PI)));
    }
    assert_true(worst < 1e-9);
    assert_true(bearing_worst > 0.1); /* the bow's bearing is off by radians at these tilts */
    /* upside down: the bow's bearing */
    nv_quat flipped = quat_mul(quat_from_axis_angle(v3(1, 0, 0), NV_PI), quat_from_axis_angle(v3(0, 1, 0), 0.4));
    nv_vec3 bow = quat_rotate(flipped, v3(1, 0, 0));
    ASSERT_NEAR_ABS(floater_heading_of(flipped), atan2(-bow.z, bow.x), 1e-12);
}

static size_t nan_sample(const nv_water_surface* self, const nv_water_query* q) {
    (void)self;
    for (size_t i = 0; i < q->count; i++) q->height[i] = (i % 4 == 2) ? NAN : 0.25f;
    return 0;
}

static void keeps_its_last_state_on_nan_water(void** state) {
    (void)state;
    nv_water_sine w;
    assert_int_equal(nv_water_sine_init(&w, 0.5, 20.0, 0.3, G), 0);
    floater_params p = floater_params_default();
    floater f = floater_make(4.0, 0.0, 1.0, 0.2);
    for (int n = 0; n < 30; n++) assert_int_equal(floater_step(&f, &p, &w.base, 1.0 / 60.0), 0);
    floater before = f;
    nv_water_surface bad = {.sample = nan_sample, .sample_near = NULL};
    for (int n = 0; n < 10; n++) assert_int_equal(floater_step(&f, &p, &bad, 1.0 / 60.0), 1);
    assert_memory_equal(&f, &before, sizeof f);
    nv_vec3 pos;
    nv_quat q;
    floater_pose(&f, &pos, &q);
    assert_true(v3_is_finite(pos) && isfinite(q.w) && isfinite(q.x) && isfinite(q.y) && isfinite(q.z));
    /* and recovers when the water does */
    assert_int_equal(floater_step(&f, &p, &w.base, 1.0 / 60.0), 0);
    /* bad arguments are refused, the state untouched */
    assert_int_equal(floater_step(&f, &p, &w.base, 0.0), -1);
    assert_int_equal(floater_step(&f, &p, &w.base, NAN), -1);
    floater_params bad_p = p;
    bad_p.down_time = 0.0;
    nv_error err;
    assert_int_equal(floater_params_validate(&bad_p, &err), -1);
    assert_non_null(strstr(err.message, "down_time"));
    assert_int_equal(floater_step(&f, &bad_p, &w.base, 1.0 / 60.0), -1);
}

static void batch_steps_like_single_floaters_without_allocating(void** state) {
    (void)state;
    enum { N = 1000 };
    floater_batch b;
    nv_error err;
    floater_params p = floater_params_default();
    p.radius = 0.8;
    size_t at_init = test_allocations();
    ASSERT_OK(floater_batch_init(&b, N, &p, &err), err);
    assert_true(test_allocations() > at_init); /* the counter sees the library's allocations */
    floater* single = malloc(N * sizeof *single);
    assert_non_null(single);
    test_rng rng = {7};
    for (int i = 0; i < N; i++) {
        double x = test_rng_uniform(&rng, -500, 500), z = test_rng_uniform(&rng, -500, 500);
        double y = test_rng_uniform(&rng, -2, 2), h = test_rng_uniform(&rng, -NV_PI, NV_PI);
        assert_int_equal(floater_batch_add(&b, x, y, z, h, &err), i);
        single[i] = floater_make(x, y, z, h);
    }
    assert_int_equal(floater_batch_add(&b, 0, 0, 0, 0, &err), -1);
    assert_non_null(strstr(err.message, "full"));
    nv_water_sine w;
    assert_int_equal(nv_water_sine_init(&w, 1.2, 45.0, 0.6, G), 0);
    floater_scratch* scratch = malloc(sizeof *scratch);
    assert_non_null(scratch);
    size_t before = test_allocations();
    for (int n = 0; n < 60; n++) {
        nv_water_sine_set_time(&w, n / 60.0);
        /* in two uneven ranges, as two threads would */
        assert_int_equal(floater_batch_step(&b, 0, 333, &w.base, 1.0 / 60.0, scratch), 0);
        assert_int_equal(floater_batch_step(&b, 333, N - 333, &w.base, 1.0 / 60.0, scratch), 0);
    }
    assert_int_equal(test_allocations(), before);
    for (int n = 0; n < 60; n++) {
        nv_water_sine_set_time(&w, n / 60.0);
        for (int i = 0; i < N; i++) floater_step(&single[i], &p, &w.base, 1.0 / 60.0);
    }
    for (int i = 0; i < N; i++) {
        floater got = floater_batch_get(&b, (size_t)i);
        assert_memory_equal(&got, &single[i], sizeof got);
    }
    /* bad ranges */
    assert_int_equal(floater_batch_step(&b, 990, 11, &w.base, 1.0 / 60.0, scratch), -1);
    assert_int_equal(floater_batch_step(&b, 0, 10, &w.base, -1.0, scratch), -1);
    /* removal moves the last floater into the hole */
    floater last = floater_batch_get(&b, N - 1);
    floater_batch_remove(&b, 5);
    assert_int_equal(b.count, N - 1);
    floater moved = floater_batch_get(&b, 5);
    assert_memory_equal(&moved, &last, sizeof moved);
    assert_int_equal(sizeof(floater), 40);
    free(scratch);
    free(single);
    floater_batch_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(follows_a_level_faster_down_than_up),
        cmocka_unit_test(time_step_does_not_change_the_response),
        cmocka_unit_test(tilts_to_the_slope_of_a_sine_wave),
        cmocka_unit_test(batch_samples_at_each_floaters_own_reach),
        cmocka_unit_test(heading_survives_the_tilt),
        cmocka_unit_test(keeps_its_last_state_on_nan_water),
        cmocka_unit_test(batch_steps_like_single_floaters_without_allocating),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
