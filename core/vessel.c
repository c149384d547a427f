// SPDX-License-Identifier: MIT
#include "vessel.h"

#include <stdlib.h>
#include <string.h>

vessel_env vessel_env_default(void) {
    vessel_env e = {.water_density = 1025.0, .gravity = 9.81, .linear_damping = 0.0, .angular_damping = 0.0};
    return e;
}

int vessel_init(vessel* v, const nv_hull* h, nv_error* err) {
    memset(v, 0, sizeof *v);
    v->hull = h;
    if (body_init(&v->body, h->body.mass, &h->body.inertia, err)) return -1;
    if (hydro_scratch_alloc(&v->scratch, h->vertex_count, err)) {
        vessel_free(v);
        return -1;
    }
    v->height = malloc((h->vertex_count ? h->vertex_count : 1) * sizeof *v->height);
    v->segments = malloc((h->triangle_count ? h->triangle_count : 1) * sizeof *v->segments);
    if (!v->height || !v->segments) {
        vessel_free(v);
        return nv_error_fail(err, NV_ENOMEM, "vessel: out of memory");
    }
    hydro_sums_clear(&v->hydro);
    return 0;
}

void vessel_free(vessel* v) {
    hydro_scratch_free(&v->scratch);
    free(v->height);
    free(v->segments);
    v->height = NULL;
    v->segments = NULL;
}

void vessel_place(vessel* v, nv_vec3 position, nv_quat orientation) {
    v->body.position = position;
    v->body.orientation = quat_normalize(orientation);
    v->body.velocity = v3(0, 0, 0);
    v->body.angular_momentum = v3(0, 0, 0);
    v->body.angular_velocity = v3(0, 0, 0);
}

void vessel_update_hydrostatics(vessel* v, const nv_water_surface* water, const vessel_env* env) {
    nv_mat3 r = body_rotation(&v->body);
    hydro_vertex_pass(v->hull, 0, v->hull->vertex_count, v->body.position, &r, water, &v->scratch, v->height);
    hydro_sums_clear(&v->hydro);
    hydro_triangle_pass(v->hull, v->height, 0, v->hull->triangle_count, env->water_density * env->gravity, NULL, NULL, &v->hydro,
                        v->segments);
    hydro_sums_to_world(&v->hydro, &r);
}

void vessel_step(vessel* v, const nv_water_surface* water, const vessel_env* env, double dt) {
    vessel_update_hydrostatics(v, water, env);
    body* b = &v->body;
    nv_vec3 force = v->hydro.force;
    force.y -= b->mass * env->gravity;
    force = v3_madd(force, b->velocity, -env->linear_damping * b->mass);
    nv_vec3 torque = v->hydro.torque;
    if (env->angular_damping > 0.0) {
        nv_mat3 iw = body_world_inertia(b);
        torque = v3_madd(torque, m3_mul_v3(&iw, b->angular_velocity), -env->angular_damping);
    }
    body_integrate(b, force, torque, dt);
}
