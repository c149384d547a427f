// SPDX-License-Identifier: MIT
#include "naval/hydrodyn.h"

#include <math.h>
#include <string.h>

hydrodyn_coeffs nv_hydrodyn_coeffs_none(void) {
    hydrodyn_coeffs c = nv_hydrodyn_coeffs_default();
    c.forces = 0;
    return c;
}

/* Defaults chosen against the checks in tests/test_hydrodyn.c: the pressure
 * terms are sized to give a floating hull a heave damping ratio of a few
 * per cent to ~0.1 (what wave radiation gives a real one), not Habrador's
 * Unity-scale 10; friction is the physical ITTC line. */
hydrodyn_coeffs nv_hydrodyn_coeffs_default(void) {
    hydrodyn_coeffs c;
    memset(&c, 0, sizeof c);
    c.forces = HYDRODYN_VISCOUS | HYDRODYN_PRESSURE_DRAG | HYDRODYN_SLAMMING | HYDRODYN_AIR_DRAG | HYDRODYN_ADDED_MASS |
               HYDRODYN_RESIDUAL;
    c.water_density = 1025.0;
    c.viscosity = 1.19e-6;
    c.reynolds_min = 1e5;
    c.reference_length = 0.0;
    c.residual = 2e-3;
    c.pressure_linear = 300.0;
    c.pressure_quadratic = 30.0;
    c.pressure_falloff = 0.5;
    c.suction_linear = 150.0;
    c.suction_quadratic = 15.0;
    c.suction_falloff = 0.5;
    c.reference_speed = 1.0;
    c.slam_power = 2.0;
    c.slam_gamma_max = 400.0;
    c.air_density = 1.225;
    c.air_drag = 0.8;
    c.damping_linear[0] = 0.1;
    c.damping_linear[1] = 0.05;
    c.damping_angular[0] = 0.5;
    c.damping_angular[1] = 0.1;
    c.added_mass = v3(0.1, 0.5, 0.5);
    c.added_inertia = v3(0.2, 0.2, 0.4);
    return c;
}

static int hydrodyn_check(nv_error* err, const char* key, double v, double lo, double hi) {
    if (!isfinite(v) || v < lo || v > hi) return nv_error_set(err, "%s must be in [%g, %g] (got %g)", key, lo, hi, v);
    return 0;
}

int nv_hydrodyn_coeffs_validate(const hydrodyn_coeffs* c, nv_error* err) {
    if (c->forces & ~(uint32_t)HYDRODYN_ALL) return nv_error_set(err, "forces: unknown bits 0x%x", c->forces);
    if (hydrodyn_check(err, "water_density", c->water_density, 1.0, 1e5) ||
        hydrodyn_check(err, "viscosity", c->viscosity, 1e-9, 1.0) ||
        hydrodyn_check(err, "reynolds_min", c->reynolds_min, 1e3, 1e12) ||
        hydrodyn_check(err, "reference_length", c->reference_length, 0.0, 1e4) ||
        hydrodyn_check(err, "residual", c->residual, 0.0, 0.1) ||
        hydrodyn_check(err, "pressure_linear", c->pressure_linear, 0.0, 1e7) ||
        hydrodyn_check(err, "pressure_quadratic", c->pressure_quadratic, 0.0, 1e7) ||
        hydrodyn_check(err, "pressure_falloff", c->pressure_falloff, 0.01, 1.0) ||
        hydrodyn_check(err, "suction_linear", c->suction_linear, 0.0, 1e7) ||
        hydrodyn_check(err, "suction_quadratic", c->suction_quadratic, 0.0, 1e7) ||
        hydrodyn_check(err, "suction_falloff", c->suction_falloff, 0.01, 1.0) ||
        hydrodyn_check(err, "reference_speed", c->reference_speed, 1e-3, 1e3) ||
        hydrodyn_check(err, "slam_power", c->slam_power, 1.0, 10.0) ||
        hydrodyn_check(err, "slam_gamma_max", c->slam_gamma_max, 1e-3, 1e9) ||
        hydrodyn_check(err, "air_density", c->air_density, 0.0, 100.0) ||
        hydrodyn_check(err, "air_drag", c->air_drag, 0.0, 10.0) ||
        hydrodyn_check(err, "damping_linear[0]", c->damping_linear[0], 0.0, 1e3) ||
        hydrodyn_check(err, "damping_linear[1]", c->damping_linear[1], 0.0, 1e3) ||
        hydrodyn_check(err, "damping_angular[0]", c->damping_angular[0], 0.0, 1e3) ||
        hydrodyn_check(err, "damping_angular[1]", c->damping_angular[1], 0.0, 1e3) ||
        hydrodyn_check(err, "added_mass.x", c->added_mass.x, 0.0, 10.0) ||
        hydrodyn_check(err, "added_mass.y", c->added_mass.y, 0.0, 10.0) ||
        hydrodyn_check(err, "added_mass.z", c->added_mass.z, 0.0, 10.0) ||
        hydrodyn_check(err, "added_inertia.x", c->added_inertia.x, 0.0, 10.0) ||
        hydrodyn_check(err, "added_inertia.y", c->added_inertia.y, 0.0, 10.0) ||
        hydrodyn_check(err, "added_inertia.z", c->added_inertia.z, 0.0, 10.0))
        return -1;
    return 0;
}

double nv_hydrodyn_ittc_cf(double rn, double rn_min) {
    if (!(rn >= rn_min)) rn = rn_min; /* also catches NaN */
    double d = log10(rn) - 2.0;
    return 0.075 / (d * d);
}

void nv_hydrodyn_model_init(hydrodyn_model* m, const hydrodyn_coeffs* c, double hull_length) {
    m->c = *c;
    m->length = c->reference_length > 0.0 ? c->reference_length : hull_length;
}

void nv_hydrodyn_frame_init(hydrodyn_frame* f, const hydrodyn_model* m, const mat3* rotation, vec3 velocity,
                            vec3 angular_velocity, double water_vertical, vec3 wind, double mass, double total_area,
                            double dt) {
    const hydrodyn_coeffs* c = &m->c;
    mat3 rt = m3_transpose(rotation);
    vec3 v_water = v3_sub(velocity, v3(0.0, water_vertical, 0.0));
    f->model = m;
    f->velocity = m3_mul_v3(&rt, v_water);
    f->angular_velocity = m3_mul_v3(&rt, angular_velocity);
    f->air_velocity = m3_mul_v3(&rt, v3_sub(velocity, wind));
    /* Rn from the speed through the water, not counting the surface's heave */
    double speed = v3_length(velocity);
    double rn = c->viscosity > 0.0 ? speed * m->length / c->viscosity : 0.0;
    double cf = (c->forces & HYDRODYN_VISCOUS) ? nv_hydrodyn_ittc_cf(rn, c->reynolds_min) : 0.0;
    double cr = (c->forces & HYDRODYN_RESIDUAL) ? c->residual : 0.0;
    f->half_rho_cf = 0.5 * c->water_density * (cf + cr);
    f->inv_ref_speed = 1.0 / c->reference_speed;
    f->half_rho_air_c = (c->forces & HYDRODYN_AIR_DRAG) ? 0.5 * c->air_density * c->air_drag : 0.0;
    f->inv_dt = dt > 0.0 ? 1.0 / dt : 0.0;
    f->slam_scale = total_area > 0.0 ? mass * 2.0 / total_area * f->inv_dt : 0.0;
    f->inv_gamma_max = 1.0 / c->slam_gamma_max;
}
