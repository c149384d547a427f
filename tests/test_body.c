// SPDX-License-Identifier: MIT
/* The rigid-body integrator: conservation laws and closed-form motions. */
#include <math.h>

#include "body.h"
#include "test_util.h"

static void rejects_bad_mass_and_inertia(void** state) {
    (void)state;
    body b;
    nv_error err;
    nv_mat3 i = m3_diag(1, 2, 3);
    assert_int_equal(body_init(&b, 0.0, &i, &err), -1);
    assert_non_null(strstr(err.message, "mass"));
    assert_int_equal(body_init(&b, NAN, &i, &err), -1);
    nv_mat3 singular = m3_diag(1, 0, 3);
    assert_int_equal(body_init(&b, 1.0, &singular, &err), -1);
    assert_non_null(strstr(err.message, "inertia"));
    nv_mat3 nan_i = m3_diag(1, NAN, 3);
    assert_int_equal(body_init(&b, 1.0, &nan_i, &err), -1);
    assert_non_null(strstr(err.message, "not finite"));
}

/* Semi-implicit Euler under constant force: v_n = v0 + a n dt exactly, and
 * x_n = x0 + v0 n dt + a dt^2 n (n + 1) / 2. */
static void constant_force_follows_the_scheme(void** state) {
    (void)state;
    body b;
    nv_error err;
    nv_mat3 i = m3_diag(1, 1, 1);
    ASSERT_OK(body_init(&b, 2.0, &i, &err), err);
    b.velocity = v3(1.0, 2.0, 0.0);
    const double dt = 0.01, a = -9.81;
    const int n = 500;
    for (int k = 0; k < n; k++) body_integrate(&b, v3(0, 2.0 * a, 0), v3(0, 0, 0), dt);
    ASSERT_NEAR_REL(b.velocity.y, 2.0 + a * n * dt, 1e-12);
    ASSERT_NEAR_REL(b.position.y, 2.0 * n * dt + a * dt * dt * n * (n + 1) / 2.0, 1e-10);
    ASSERT_NEAR_REL(b.position.x, 1.0 * n * dt, 1e-12);
}

/* A constant torque about a principal axis spins it up linearly and turns it
 * through tau t^2 / (2 I) (to first order in dt). */
static void constant_torque_spins_about_the_axis(void** state) {
    (void)state;
    body b;
    nv_error err;
    nv_mat3 i = m3_diag(2.0, 5.0, 9.0);
    ASSERT_OK(body_init(&b, 1.0, &i, &err), err);
    const double dt = 1e-3, tau = 3.0;
    const int n = 1000;
    for (int k = 0; k < n; k++) body_integrate(&b, v3(0, 0, 0), v3(0, tau, 0), dt);
    double t = n * dt;
    ASSERT_NEAR_REL(b.angular_velocity.y, tau * t / 5.0, 1e-12);
    double angle = 2.0 * atan2(b.orientation.y, b.orientation.w);
    ASSERT_NEAR_REL(angle, tau * t * t / (2.0 * 5.0), 2e-3);
    ASSERT_NEAR_ABS(b.angular_velocity.x, 0.0, 1e-12);
}

/* Torque-free tumbling of an asymmetric body near its unstable middle axis:
 * the derived angular velocity stays consistent with the momentum
 * (I_world w = L), the quaternion stays unit, the energy does not drift, and
 * the body really tumbles (w flips over). */
static void free_tumbling_stays_consistent(void** state) {
    (void)state;
    body b;
    nv_error err;
    nv_mat3 i = m3_diag(1.0, 2.0, 3.0);
    ASSERT_OK(body_init(&b, 1.0, &i, &err), err);
    body_set_angular_velocity(&b, v3(0.1, 3.0, 0.2));
    double e0 = body_kinetic_energy(&b);
    double emax = e0, emin = e0, wy_min = b.angular_velocity.y;
    for (int k = 0; k < 20000; k++) {
        body_integrate(&b, v3(0, 0, 0), v3(0, 0, 0), 1e-3);
        double e = body_kinetic_energy(&b);
        emax = fmax(emax, e);
        emin = fmin(emin, e);
        nv_vec3 body_w = quat_rotate((nv_quat){b.orientation.w, -b.orientation.x, -b.orientation.y, -b.orientation.z},
                                  b.angular_velocity);
        wy_min = fmin(wy_min, body_w.y);
        if (k % 997 == 0) {
            nv_mat3 iw = body_world_inertia(&b);
            nv_vec3 l = m3_mul_v3(&iw, b.angular_velocity);
            ASSERT_NEAR_ABS(l.x, b.angular_momentum.x, 1e-9);
            ASSERT_NEAR_ABS(l.y, b.angular_momentum.y, 1e-9);
            ASSERT_NEAR_ABS(l.z, b.angular_momentum.z, 1e-9);
        }
    }
    nv_quat q = b.orientation;
    ASSERT_NEAR_ABS(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z, 1.0, 1e-12);
    assert_true((emax - emin) < 0.02 * e0);
    assert_true(wy_min < -2.0); /* the spin about body y reversed: a real tumble */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rejects_bad_mass_and_inertia),
        cmocka_unit_test(constant_force_follows_the_scheme),
        cmocka_unit_test(constant_torque_spins_about_the_axis),
        cmocka_unit_test(free_tumbling_stays_consistent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
