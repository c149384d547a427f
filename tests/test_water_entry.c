// SPDX-License-Identifier: MIT
/* The water entry (von Karman's momentum, the hydrostatic kernel's hs_entry): its force on a
 * V prism against the closed form, and a prism dropped onto still water
 * slowing where momentum theory says, whatever the tick rate. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "body.h"
#include "dynamics.h"
#include "hydro.h"
#include "naval/statics.h"
#include "naval/world.h"
#include "test_util.h"
#include "water_entry.h"

#define RHO 1025.0
#define G 9.81
#define LENGTH 10.0
#define HALF_WIDTH 1.0

/* A prism along x of V section (deadrise beta, keel at y = 0, chines at
 * z = +-HALF_WIDTH), a flat deck and flat ends: n_along stations, n_side
 * facets per side of the V. */
static void wedge_mesh(nv_mesh* m, double beta_deg, int n_along, int n_side) {
    nv_error e;
    nv_mesh_init(m);
    const double top = HALF_WIDTH * tan(beta_deg * NV_PI / 180.0);
    const int np = 2 * n_side + 1;
    for (int i = 0; i <= n_along; i++) {
        const double x = -LENGTH / 2 + LENGTH * i / n_along;
        for (int k = 0; k < np; k++) {
            const double z = -HALF_WIDTH + 2.0 * HALF_WIDTH * k / (np - 1);
            ASSERT_OK(nv_mesh_add_vertex(m, (float)x, (float)(fabs(z) / HALF_WIDTH * top), (float)z, &e), e);
        }
    }
    for (int i = 0; i < n_along; i++) {
        for (int k = 0; k < np - 1; k++) {
            const uint32_t a = (uint32_t)(i * np + k), c = (uint32_t)((i + 1) * np + k);
            ASSERT_OK(nv_mesh_add_triangle(m, a, a + 1, c + 1, &e), e);
            ASSERT_OK(nv_mesh_add_triangle(m, a, c + 1, c, &e), e);
        }
        const uint32_t p0 = (uint32_t)(i * np), s0 = p0 + np - 1, p1 = p0 + np, s1 = p1 + np - 1;
        ASSERT_OK(nv_mesh_add_triangle(m, p0, p1, s1, &e), e);
        ASSERT_OK(nv_mesh_add_triangle(m, p0, s1, s0, &e), e);
    }
    const uint32_t base = (uint32_t)((n_along + 1) * np);
    for (int end = 0; end < 2; end++) {
        const int i = end ? n_along : 0;
        ASSERT_OK(nv_mesh_add_vertex(m, (float)(-LENGTH / 2 + LENGTH * i / n_along), (float)(0.6 * top), 0.0f, &e), e);
        for (int k = 0; k < np; k++) {
            const uint32_t a = (uint32_t)(i * np + k), b = (uint32_t)(i * np + (k + 1) % np);
            if (end) ASSERT_OK(nv_mesh_add_triangle(m, base + 1, a, b, &e), e);
            else ASSERT_OK(nv_mesh_add_triangle(m, base, b, a, &e), e);
        }
    }
    nv_mesh_options o = {0};
    o.flip_inside_out = true;
    nv_mesh_report r;
    ASSERT_OK(nv_mesh_finish(m, &o, "wedge", &r, &e), e);
}

/* The entry force (the slamming sums, where it is capped with slamming) on
 * the upright prism with its keel `depth` under flat water at 0, moving at v. */
static nv_vec3 entry_force(double beta_deg, double depth, nv_vec3 v, uint32_t forces) {
    nv_error err;
    nv_mesh m;
    wedge_mesh(&m, beta_deg, 20, 4);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 2000.0;
    nv_hull h;
    ASSERT_OK(nv_hull_create(&h, &m, &spec, &err), err);
    nv_mesh_free(&m);
    hydro_scratch scratch;
    ASSERT_OK(hydro_scratch_alloc(&scratch, h.vertex_count, &err), err);
    float* height = malloc(h.vertex_count * sizeof(float));
    assert_non_null(height);
    nv_water_flat flat;
    nv_water_flat_init(&flat, 0.0);
    nv_mat3 r = m3_diag(1, 1, 1);
    hydro_vertex_pass(&h, 0, h.vertex_count, v3(0, -depth - h.bounds_min[1], 0), &r, &flat.base, &scratch, height);
    nv_hydrodyn_coeffs c = nv_hydrodyn_coeffs_default();
    c.forces = forces;
    nv_hydrodyn_model model;
    nv_hydrodyn_model_init(&model, &c, LENGTH);
    model.gravity = G;
    nv_hydrodyn_frame f;
    nv_hydrodyn_frame_init(&f, &model, &r, v, v3(0, 0, 0), 0.0, v3(0, 0, 0), h.body.mass, h.total_area, 1.0 / 60.0);
    hydro_sums s;
    hydro_sums_clear(&s);
    hydro_triangle_pass(&h, height, 0, h.triangle_count, 0.0, &f, NULL, &s, NULL);
    free(height);
    hydro_scratch_free(&scratch);
    nv_hull_destroy(&h);
    return s.entry_force;
}

/* von Karman per metre, rho pi c (dc/dt) V with dc/dt = V cot(beta), as far
 * as the entry is fast against gravity: V^2 / (g c) over 1 + V^2 / (g c). */
static double von_karman_force(double beta_deg, double depth, double speed) {
    const double cot = 1.0 / tan(beta_deg * NV_PI / 180.0), c = depth * cot, fr2 = speed * speed / (G * c);
    return fr2 / (1.0 + fr2) * RHO * NV_PI * c * speed * cot * speed * LENGTH;
}

static void force_is_von_karmans(void** state) {
    (void)state;
    const double betas[] = {15.0, 30.0, 45.0}, speeds[] = {0.5, 2.0, 6.0};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            const double depth = 0.15, want = von_karman_force(betas[i], depth, speeds[j]);
            const nv_vec3 got = entry_force(betas[i], depth, v3(0, -speeds[j], 0), HYDRODYN_WATER_ENTRY);
            printf("beta %2.0f deg, V %.1f m/s, keel %.2f m down: %.1f N (von Karman %.1f)\n", betas[i], speeds[j],
                   depth, got.y, want);
            assert_true(fabs(got.y - want) < 1e-4 * want);
            assert_true(fabs(got.x) < 1e-6 * want && fabs(got.z) < 1e-4 * want); /* the sides' pushes balance */
        }
    }
    /* nothing on the way out, nor moving along the surface, nor switched off */
    assert_true(v3_length(entry_force(30.0, 0.15, v3(0, 2.0, 0), HYDRODYN_WATER_ENTRY)) == 0.0);
    assert_true(v3_length(entry_force(30.0, 0.15, v3(3.0, 0, 0), HYDRODYN_WATER_ENTRY)) == 0.0);
    assert_true(v3_length(entry_force(30.0, 0.15, v3(0, -2.0, 0), HYDRODYN_PRESSURE_DRAG)) == 0.0);
    /* a flat bottom: the deadrise is held at WATER_ENTRY_MIN_DEADRISE_DEG */
    const double flat = entry_force(1.0, 0.002, v3(0, -4.0, 0), HYDRODYN_WATER_ENTRY).y;
    const double c = 0.002 / tan(1.0 * NV_PI / 180.0), fr2 = 16.0 / (G * c);
    const double held = fr2 / (1.0 + fr2) * RHO * NV_PI * c * 16.0 / tan(WATER_ENTRY_MIN_DEADRISE_DEG * NV_PI / 180.0) * LENGTH;
    printf("a 1-degree bottom at 4 m/s: %.0f N (the deadrise held at %.0f degrees: %.0f)\n", flat, WATER_ENTRY_MIN_DEADRISE_DEG,
           held);
    assert_true(fabs(flat - held) < 1e-3 * held);
}

/* Depth of the keel under still water when the prism, dropped at v0, has
 * slowed to half of it. */
static double drop_half_speed_depth(double tick_hz, uint32_t forces, double v0) {
    nv_error err;
    nv_mesh m;
    wedge_mesh(&m, 30.0, 40, 10);
    nv_world_config cfg = nv_world_config_default();
    cfg.tick_hz = tick_hz;
    nv_world* w;
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 200.0 * LENGTH; /* floats with part of its V under */
    uint32_t type, id;
    ASSERT_OK(nv_world_add_hull_type(w, "wedge", &m, &spec, &type, &err), err);
    nv_mesh_free(&m);
    nv_vessel_dynamics d;
    d.coeffs = nv_hydrodyn_coeffs_default();
    d.coeffs.forces = forces;
    nv_actuator_set_init(&d.actuators);
    ASSERT_OK(nv_world_set_type_dynamics(w, type, &d, &err), err);
    const double keel = nv_world_hull_type(w, type)->bounds_min[1];
    ASSERT_OK(nv_world_spawn(w, type, v3(0, -keel + 0.01, 0), (nv_quat){1, 0, 0, 0}, &id, &err), err);
    ASSERT_OK(nv_world_set_velocity(w, id, v3(0, -v0, 0), v3(0, 0, 0), &err), err);
    double depth = NAN;
    for (int i = 0; i < (int)(0.5 * tick_hz) && isnan(depth); i++) {
        nv_world_step(w);
        nv_world_vessel_state st;
        ASSERT_OK(nv_world_vessel_get(w, id, &st), err);
        if (-st.velocity.y < 0.5 * v0) depth = -(st.position.y + keel);
    }
    nv_world_destroy(w);
    return depth;
}

static void drop_slows_where_momentum_theory_says(void** state) {
    (void)state;
    /* von Karman: M V0 = (M + rho pi c^2 / 2) V, c = z cot(beta): half speed
     * where the added mass equals M, 0.20 m down; Wagner's pile-up, 0.13 m */
    const double cot = 1.0 / tan(30.0 * NV_PI / 180.0);
    const double von_karman = sqrt(2.0 * 200.0 / (RHO * NV_PI)) / cot;
    const uint32_t kerner = HYDRODYN_VISCOUS | HYDRODYN_PRESSURE_DRAG | HYDRODYN_SLAMMING | HYDRODYN_ADDED_MASS;
    const double hz[] = {30.0, 60.0, 240.0};
    double lo = INFINITY, hi = 0.0;
    for (int i = 0; i < 3; i++) {
        const double with = drop_half_speed_depth(hz[i], kerner | HYDRODYN_WATER_ENTRY, 4.0);
        const double without = drop_half_speed_depth(hz[i], kerner, 4.0);
        printf("prism dropped at 4 m/s, %3.0f Hz: half speed %.3f m down (%.3f without the entry; von Karman %.3f)\n",
               hz[i], with, without, von_karman);
        assert_true(fabs(with - von_karman) < 0.25 * von_karman);
        assert_true(without > 2.0 * von_karman); /* Kerner's slamming alone lands it deep */
        lo = fmin(lo, with), hi = fmax(hi, with);
    }
    assert_true(hi - lo < 0.3 * von_karman); /* and the tick rate barely matters */
}

/* The cap on the entry's impulse: it may stop the point where the force
 * acts, against the mass the body has there, never throw it back. */
static void impulse_stops_the_point_it_acts_at(void** state) {
    (void)state;
    nv_error err;
    body b;
    const nv_mat3 inertia = m3_diag(100.0, 200.0, 200.0);
    ASSERT_OK(body_init(&b, 1000.0, &inertia, &err), err);
    const double dt = 1.0 / 60.0;
    const nv_vec3 v = v3(0.0, -2.0, 0.0), up = v3(0.0, 60e3, 0.0);
    /* through the CG: the whole mass, 2000 N s stops it */
    assert_true(dynamics_impulse_share(&b, v, up, v3(0, 0, 0), dt) == 1.0);
    assert_true(fabs(dynamics_impulse_share(&b, v, v3_scale(up, 4.0), v3(0, 0, 0), dt) - 0.5) < 1e-12);
    /* 1 m off the CG across: 1 / (1/1000 + 1/100) kg there, 2 m/s closing */
    const nv_vec3 side = v3_cross(v3(0.0, 0.0, 1.0), up);
    const double m_there = 1.0 / (1.0 / 1000.0 + 1.0 / 100.0);
    assert_true(fabs(dynamics_impulse_share(&b, v, up, side, dt) - 2.0 * m_there / (60e3 * dt)) < 1e-12);
    /* rolling that side down at 1 rad/s closes it at 3 m/s */
    body_set_angular_velocity(&b, v3(1.0, 0.0, 0.0));
    const double k = dynamics_impulse_share(&b, v, up, side, dt);
    assert_true(fabs(k - 3.0 * m_there / (60e3 * dt)) < 1e-12);
    /* and that impulse leaves the point at rest along the force */
    const nv_mat3 inv_i = body_world_inverse_inertia(&b);
    const nv_vec3 j = v3_scale(up, k * dt), r = v3(0.0, 0.0, 1.0);
    const nv_vec3 v_after = v3_add(v3_madd(v, j, b.inverse_mass),
                                   v3_cross(v3_add(b.angular_velocity, m3_mul_v3(&inv_i, v3_cross(r, j))), r));
    assert_true(fabs(v_after.y) < 1e-12);
    /* moving away, or no force: nothing to stop, nothing taken */
    assert_true(dynamics_impulse_share(&b, v3(0.0, 5.0, 0.0), up, v3(0, 0, 0), dt) == 0.0);
    assert_true(dynamics_impulse_share(&b, v, v3(0, 0, 0), v3(0, 0, 0), dt) == 1.0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(force_is_von_karmans),
        cmocka_unit_test(drop_slows_where_momentum_theory_says),
        cmocka_unit_test(impulse_stops_the_point_it_acts_at),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
