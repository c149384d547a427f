// SPDX-License-Identifier: MIT
#include "body.h"

#include <string.h>

int body_init(body* b, double mass, const nv_mat3* inertia, nv_error* err) {
    memset(b, 0, sizeof *b);
    if (!(mass > 0.0) || !isfinite(mass)) return nv_error_set(err, "body: mass must be positive and finite (got %g)", mass);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (!isfinite(inertia->m[i][j])) return nv_error_set(err, "body: the inertia tensor is not finite");
    if (!(inertia->m[0][0] > 0.0 && inertia->m[1][1] > 0.0 && inertia->m[2][2] > 0.0) ||
        !m3_inverse(inertia, &b->inverse_inertia))
        return nv_error_set(err, "body: the inertia tensor is singular or not positive");
    b->orientation = quat_identity();
    b->mass = mass;
    b->inverse_mass = 1.0 / mass;
    b->inertia = *inertia;
    return 0;
}

static nv_mat3 body_rotate_tensor(const body* b, const nv_mat3* tensor) {
    nv_mat3 r = body_rotation(b), rt = m3_transpose(&r);
    nv_mat3 tmp = m3_mul(&r, tensor);
    return m3_mul(&tmp, &rt);
}

nv_mat3 body_world_inertia(const body* b) { return body_rotate_tensor(b, &b->inertia); }
nv_mat3 body_world_inverse_inertia(const body* b) { return body_rotate_tensor(b, &b->inverse_inertia); }

void body_set_angular_velocity(body* b, nv_vec3 w) {
    nv_mat3 iw = body_world_inertia(b);
    b->angular_velocity = w;
    b->angular_momentum = m3_mul_v3(&iw, w);
}

void body_integrate_velocity(body* b, nv_vec3 force, nv_vec3 torque, double dt) {
    b->velocity = v3_madd(b->velocity, force, b->inverse_mass * dt);
    b->angular_momentum = v3_madd(b->angular_momentum, torque, dt);
    nv_mat3 inv = body_world_inverse_inertia(b);
    b->angular_velocity = m3_mul_v3(&inv, b->angular_momentum);
}

void body_integrate_position(body* b, double dt) {
    b->position = v3_madd(b->position, b->velocity, dt);
    nv_vec3 w = b->angular_velocity;
    double angle = v3_length(w) * dt;
    if (angle > 0.0) b->orientation = quat_normalize(quat_mul(quat_from_axis_angle(w, angle), b->orientation));
    /* The momentum is conserved through the rotation; the velocity follows
     * the new orientation's inertia. */
    nv_mat3 inv = body_world_inverse_inertia(b);
    b->angular_velocity = m3_mul_v3(&inv, b->angular_momentum);
}

void body_integrate(body* b, nv_vec3 force, nv_vec3 torque, double dt) {
    body_integrate_velocity(b, force, torque, dt);
    body_integrate_position(b, dt);
}

double body_kinetic_energy(const body* b) {
    return 0.5 * b->mass * v3_dot(b->velocity, b->velocity) + 0.5 * v3_dot(b->angular_velocity, b->angular_momentum);
}
