/* The rigid-body integrator: conservation laws and closed-form motions. */
#include <math.h>

#include "body.h"
#include "test_util.h"

static void rejects_bad_mass_and_inertia(void** state) {
    (void)state;
    body b;
    nv_error err;
    mat3 i = m3_diag(1, 2, 3);
    assert_int_equal(body_init(&b, 0.0, &i, &err), -1);
    assert_non_null(strstr(err.message, "mass"));
    assert_int_equal(body_init(&b, NAN, &i, &err), -1);
    mat3 singular = m3_diag(1, 0, 3);
    assert_int_equal(body_init(&b, 1.0, &singular, &err), -1);
    assert_non_null(strstr(err.message, "inertia"));
    mat3 nan_i = m3_diag(1, NAN, 3);
    assert_int_equal(body_init(&b, 1.0, &nan_i, &err), -1);
    assert_non_null(strstr(err.message, "not finite"));
}

/* Semi-implicit Euler under constant force: v_n = v0 + a n dt exactly, and
 * x_n = x0 + v0 n dt + a dt^2 n (n + 1) / 2. */
static void constant_force_follows_the_scheme(void** state) {
    (void)state;
    body b;
    nv_error err;
    mat3 i = m3_diag(1, 1, 1);
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
    mat3 i = m3_diag(2.0, 5.0, 9.0);
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

/* Torque-free tumbling of an asymmetric body: angular momentum is exactly
 * conserved, the quaternion stays unit, and the energy does not drift. */
static void free_tumbling_conserves_momentum_and_energy(void** state) {
    (void)state;
    body b;
    nv_error err;
    mat3 i = m3_diag(1.0, 2.0, 3.0);
    ASSERT_OK(body_init(&b, 1.0, &i, &err), err);
    body_set_angular_velocity(&b, v3(0.1, 3.0, 0.2)); /* near the unstable middle axis */
    vec3 l0 = b.angular_momentum;
    double e0 = body_kinetic_energy(&b);
    double emax = e0, emin = e0;
    for (int k = 0; k < 20000; k++) {
        body_integrate(&b, v3(0, 0, 0), v3(0, 0, 0), 1e-3);
        double e = body_kinetic_energy(&b);
        emax = fmax(emax, e);
        emin = fmin(emin, e);
    }
    ASSERT_NEAR_ABS(b.angular_momentum.x, l0.x, 1e-12);
    ASSERT_NEAR_ABS(b.angular_momentum.y, l0.y, 1e-12);
    ASSERT_NEAR_ABS(b.angular_momentum.z, l0.z, 1e-12);
    quat q = b.orientation;
    ASSERT_NEAR_ABS(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z, 1.0, 1e-12);
    assert_true((emax - emin) < 0.02 * e0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rejects_bad_mass_and_inertia),
        cmocka_unit_test(constant_force_follows_the_scheme),
        cmocka_unit_test(constant_torque_spins_about_the_axis),
        cmocka_unit_test(free_tumbling_conserves_momentum_and_energy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
