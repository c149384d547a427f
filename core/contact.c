// SPDX-License-Identifier: MIT
#include "contact.h"

#include <math.h>

contact_soft contact_soft_make(double hertz, double damping_ratio, double dt) {
    contact_soft s = {0.0, 1.0, 0.0};
    if (!(hertz > 0.0) || !(dt > 0.0)) return s; /* rigid: no spring, the full effective mass */
    /* The implicit spring-damper of stiffness m omega^2 and damping
     * 2 zeta m omega, integrated over dt, as an impulse on the velocity
     * error: unconditionally stable, whatever the step. */
    const double omega = 2.0 * NV_PI * hertz;
    const double a1 = 2.0 * damping_ratio + dt * omega;
    const double a2 = dt * omega * a1;
    const double a3 = 1.0 / (1.0 + a2);
    s.bias_rate = omega / a1;
    s.mass_scale = a2 * a3;
    s.impulse_scale = a3;
    return s;
}

/* R diag(d) R^T: a body-axis diagonal in the world frame. */
static nv_mat3 contact_rotate_diag(const nv_mat3* r, nv_vec3 d) {
    nv_mat3 out;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out.m[i][j] = r->m[i][0] * d.x * r->m[j][0] + r->m[i][1] * d.y * r->m[j][1] + r->m[i][2] * d.z * r->m[j][2];
    return out;
}

void contact_body_init(contact_body* cb, const body* b, nv_vec3 added_mass, nv_vec3 added_inertia) {
    const nv_mat3 r = body_rotation(b);
    const double im = b->inverse_mass;
    cb->velocity = b->velocity;
    cb->angular_momentum = b->angular_momentum;
    cb->angular_velocity = b->angular_velocity;
    /* the integrator divides every force by (1 + a) along the body axes:
     * an impulse is a force over a step, so it meets the same mass */
    cb->inverse_mass =
        contact_rotate_diag(&r, v3(im / (1.0 + added_mass.x), im / (1.0 + added_mass.y), im / (1.0 + added_mass.z)));
    cb->momentum_response = contact_rotate_diag(
        &r, v3(1.0 / (1.0 + added_inertia.x), 1.0 / (1.0 + added_inertia.y), 1.0 / (1.0 + added_inertia.z)));
    cb->inverse_inertia = body_world_inverse_inertia(b);
}

void contact_body_store(const contact_body* cb, body* b) {
    b->velocity = cb->velocity;
    b->angular_momentum = cb->angular_momentum;
    b->angular_velocity = cb->angular_velocity;
}

double contact_response(const contact_body* cb, nv_vec3 r, nv_vec3 d) {
    nv_vec3 lin = m3_mul_v3(&cb->inverse_mass, d);
    nv_vec3 dl = m3_mul_v3(&cb->momentum_response, v3_cross(r, d));
    nv_vec3 dw = m3_mul_v3(&cb->inverse_inertia, dl);
    return v3_dot(d, v3_add(lin, v3_cross(dw, r)));
}

void contact_apply(contact_body* cb, nv_vec3 r, nv_vec3 impulse) {
    cb->velocity = v3_add(cb->velocity, m3_mul_v3(&cb->inverse_mass, impulse));
    nv_vec3 dl = m3_mul_v3(&cb->momentum_response, v3_cross(r, impulse));
    cb->angular_momentum = v3_add(cb->angular_momentum, dl);
    cb->angular_velocity = v3_add(cb->angular_velocity, m3_mul_v3(&cb->inverse_inertia, dl));
}

void contact_tangents(nv_vec3 n, nv_vec3 tangent[2]) {
    /* any unit vector across n, then the third by the cross product */
    nv_vec3 a = fabs(n.x) < 0.57735 ? v3(1.0, 0.0, 0.0) : v3(0.0, 1.0, 0.0);
    tangent[0] = v3_normalize(v3_cross(n, a));
    tangent[1] = v3_cross(n, tangent[0]);
}

void contact_prepare(const contact_body* cb, contact_point* p, uint32_t count) {
    for (uint32_t k = 0; k < count; k++) {
        contact_point* c = &p[k];
        nv_vec3 n = c->normal;
        contact_tangents(n, c->tangent);
        c->normal_mass = contact_safe_inverse(contact_response(cb, c->r, n));
        for (int t = 0; t < 2; t++)
            c->tangent_mass[t] = contact_safe_inverse(contact_response(cb, c->r, c->tangent[t]));
        c->normal_impulse = c->tangent_impulse[0] = c->tangent_impulse[1] = 0.0;
        c->closing_speed = -v3_dot(contact_point_velocity(cb, c->r), n);
    }
}

void contact_solve_static(contact_body* cb, contact_point* p, uint32_t count, const contact_params* params,
                          const contact_soft* soft, double dt, int use_bias) {
    const double inv_dt = dt > 0.0 ? 1.0 / dt : 0.0;
    const uint32_t passes = use_bias ? params->iterations : params->relax_iterations;
    for (uint32_t it = 0; it < passes; it++)
        for (uint32_t k = 0; k < count; k++) {
            contact_point* c = &p[k];
            /* normal: a gap may close this step and no more (speculative);
             * an overlap is pushed out by the soft spring, capped */
            double bias = 0.0, mass_scale = 1.0, impulse_scale = 0.0;
            if (c->separation > 0.0) {
                bias = c->separation * inv_dt;
            } else if (use_bias) {
                bias = fmax(soft->bias_rate * c->separation, -params->push_speed);
                mass_scale = soft->mass_scale;
                impulse_scale = soft->impulse_scale;
            }
            double vn = v3_dot(contact_point_velocity(cb, c->r), c->normal);
            double j = -c->normal_mass * mass_scale * (vn + bias) - impulse_scale * c->normal_impulse;
            double total = fmax(c->normal_impulse + j, 0.0);
            j = total - c->normal_impulse;
            c->normal_impulse = total;
            contact_apply(cb, c->r, v3_scale(c->normal, j));
            /* friction: both tangents, then back inside the cone */
            nv_vec3 v = contact_point_velocity(cb, c->r);
            double limit = params->friction * c->normal_impulse;
            double t0 = c->tangent_impulse[0] - c->tangent_mass[0] * v3_dot(v, c->tangent[0]);
            double t1 = c->tangent_impulse[1] - c->tangent_mass[1] * v3_dot(v, c->tangent[1]);
            contact_clamp_cone(&t0, &t1, limit);
            nv_vec3 jt = v3_add(v3_scale(c->tangent[0], t0 - c->tangent_impulse[0]),
                             v3_scale(c->tangent[1], t1 - c->tangent_impulse[1]));
            c->tangent_impulse[0] = t0, c->tangent_impulse[1] = t1;
            contact_apply(cb, c->r, jt);
        }
}
