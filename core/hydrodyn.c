// SPDX-License-Identifier: MIT
#include "naval/hydrodyn.h"

#include <math.h>
#include <string.h>

#include "naval/ranges.h"

nv_hydrodyn_coeffs nv_hydrodyn_coeffs_none(void) {
    nv_hydrodyn_coeffs c = nv_hydrodyn_coeffs_default();
    c.forces = 0;
    return c;
}

/* Defaults chosen against the checks in tests/test_hydrodyn.c: the pressure
 * terms are sized to give a floating hull a heave damping ratio of a few
 * per cent to ~0.1 (what wave radiation gives a real one), not Habrador's
 * Unity-scale 10; friction is the physical ITTC line. */
nv_hydrodyn_coeffs nv_hydrodyn_coeffs_default(void) {
    nv_hydrodyn_coeffs c;
    memset(&c, 0, sizeof c);
    c.forces = HYDRODYN_VISCOUS | HYDRODYN_PRESSURE_DRAG | HYDRODYN_SLAMMING | HYDRODYN_AIR_DRAG | HYDRODYN_ADDED_MASS |
               HYDRODYN_RESIDUAL | HYDRODYN_ROLL_DAMPING | HYDRODYN_HEAVE_PITCH_DAMPING | HYDRODYN_WATER_ENTRY;
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
    c.roll_damping[0] = c.roll_damping[1] = -1.0;
    return c;
}

int nv_hydrodyn_coeffs_validate(const nv_hydrodyn_coeffs* c, nv_error* err) {
    if (c->forces & ~(uint32_t)HYDRODYN_KNOWN) return nv_error_set(err, "forces: unknown bits 0x%x", c->forces);
    /* The rows of naval/ranges.h, named as vessel-type files name them. */
    const struct {
        const char* key;
        double value;
        nv_range_id range;
    } fields[] = {
        {"water_density", c->water_density, NV_RANGE_WORLD_WATER_DENSITY},
        {"viscosity", c->viscosity, NV_RANGE_TYPE_VISCOSITY},
        {"reynolds_min", c->reynolds_min, NV_RANGE_TYPE_REYNOLDS_MIN},
        {"reference_length", c->reference_length, NV_RANGE_TYPE_REFERENCE_LENGTH},
        {"residual", c->residual, NV_RANGE_TYPE_RESIDUAL},
        {"pressure_linear", c->pressure_linear, NV_RANGE_TYPE_PRESSURE_LINEAR},
        {"pressure_quadratic", c->pressure_quadratic, NV_RANGE_TYPE_PRESSURE_QUADRATIC},
        {"pressure_falloff", c->pressure_falloff, NV_RANGE_TYPE_PRESSURE_FALLOFF},
        {"suction_linear", c->suction_linear, NV_RANGE_TYPE_SUCTION_LINEAR},
        {"suction_quadratic", c->suction_quadratic, NV_RANGE_TYPE_SUCTION_QUADRATIC},
        {"suction_falloff", c->suction_falloff, NV_RANGE_TYPE_SUCTION_FALLOFF},
        {"reference_speed", c->reference_speed, NV_RANGE_TYPE_REFERENCE_SPEED},
        {"slam_power", c->slam_power, NV_RANGE_TYPE_SLAM_POWER},
        {"slam_gamma_max", c->slam_gamma_max, NV_RANGE_TYPE_SLAM_GAMMA_MAX},
        {"air_density", c->air_density, NV_RANGE_TYPE_AIR_DENSITY},
        {"air_drag", c->air_drag, NV_RANGE_TYPE_AIR_DRAG},
        {"damping_linear[0]", c->damping_linear[0], NV_RANGE_TYPE_AREA_DAMPING},
        {"damping_linear[1]", c->damping_linear[1], NV_RANGE_TYPE_AREA_DAMPING},
        {"damping_angular[0]", c->damping_angular[0], NV_RANGE_TYPE_AREA_DAMPING},
        {"damping_angular[1]", c->damping_angular[1], NV_RANGE_TYPE_AREA_DAMPING},
        {"added_mass[0]", c->added_mass.x, NV_RANGE_TYPE_ADDED_MASS},
        {"added_mass[1]", c->added_mass.y, NV_RANGE_TYPE_ADDED_MASS},
        {"added_mass[2]", c->added_mass.z, NV_RANGE_TYPE_ADDED_MASS},
        {"added_inertia[0]", c->added_inertia.x, NV_RANGE_TYPE_ADDED_MASS},
        {"added_inertia[1]", c->added_inertia.y, NV_RANGE_TYPE_ADDED_MASS},
        {"added_inertia[2]", c->added_inertia.z, NV_RANGE_TYPE_ADDED_MASS},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (nv_range_check(fields[i].range, fields[i].value, fields[i].key, err)) return -1;
    /* Explicit (either given): both must be, within their range; else both
     * negative (Ikeda's estimate). */
    if ((c->roll_damping[0] >= 0.0 || c->roll_damping[1] >= 0.0 || isnan(c->roll_damping[0]) ||
         isnan(c->roll_damping[1])) &&
        (nv_range_check(NV_RANGE_TYPE_ROLL_DAMPING, c->roll_damping[0], "roll_damping.linear", err) ||
         nv_range_check(NV_RANGE_TYPE_ROLL_DAMPING, c->roll_damping[1], "roll_damping.quadratic", err)))
        return -1;
    /* none, or both sized */
    if (c->bilge_keel[0] != 0.0 || c->bilge_keel[1] != 0.0)
        if (nv_range_check(NV_RANGE_TYPE_BILGE_KEEL, c->bilge_keel[0], "bilge_keels.length", err) ||
            nv_range_check(NV_RANGE_TYPE_BILGE_KEEL, c->bilge_keel[1], "bilge_keels.breadth", err))
            return -1;
    /* none, or the whole planing bottom */
    if (c->planing[0] != 0.0 || c->planing[1] != 0.0 || c->planing[2] != 0.0)
        if (nv_range_check(NV_RANGE_TYPE_PLANING_LENGTH, c->planing[0], "planing.chine_beam", err) ||
            nv_range_check(NV_RANGE_TYPE_PLANING_DEADRISE, c->planing[1], "planing.deadrise", err) ||
            nv_range_check(NV_RANGE_TYPE_PLANING_LENGTH, c->planing[2], "planing.length", err))
            return -1;
    /* Clarke's regressions are of displacement ships' hulls at rest draft;
     * a planing bottom runs on its aft part, at its own trim */
    if ((c->forces & HYDRODYN_MANOEUVRING) && c->planing[0] != 0.0)
        return nv_error_set(err, "forces: \"manoeuvring\" is for displacement hulls (Clarke's derivatives); a type "
                                 "with a \"planing\" bottom cannot take it");
    return 0;
}

double nv_hydrodyn_ittc_cf(double rn, double rn_min) {
    if (!(rn >= rn_min)) rn = rn_min; /* also catches NaN */
    double d = log10(rn) - 2.0;
    return 0.075 / (d * d);
}

void nv_hydrodyn_model_init(nv_hydrodyn_model* m, const nv_hydrodyn_coeffs* c, double hull_length) {
    m->c = *c;
    m->length = c->reference_length > 0.0 ? c->reference_length : hull_length;
    m->gravity = 9.81;
}

void nv_hydrodyn_frame_init(nv_hydrodyn_frame* f, const nv_hydrodyn_model* m, const nv_mat3* rotation, nv_vec3 velocity,
                            nv_vec3 angular_velocity, double water_vertical, nv_vec3 wind, double mass, double total_area,
                            double dt) {
    const nv_hydrodyn_coeffs* c = &m->c;
    nv_mat3 rt = m3_transpose(rotation);
    nv_vec3 v_water = v3_sub(velocity, v3(0.0, water_vertical, 0.0));
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
    f->up = v3(rotation->m[1][0], rotation->m[1][1], rotation->m[1][2]);
    f->entry_half_pi_rho = (c->forces & HYDRODYN_WATER_ENTRY) ? 0.5 * NV_PI * c->water_density : 0.0;
    f->gravity = m->gravity;
}
