// SPDX-License-Identifier: MIT
/* Flooding through holes (naval/compartment.h): the orifice law between
 * the sea and a compartment's free surface, and the water's weight at its
 * centroid, from the compartment's exact cut at the level that holds it. */
#include <math.h>
#include <string.h>

#include "naval/compartment.h"
#include "naval/ranges.h"

static nv_vec3 rotate(const nv_mat3* r, nv_vec3 v) {
    return v3(r->m[0][0] * v.x + r->m[0][1] * v.y + r->m[0][2] * v.z,
              r->m[1][0] * v.x + r->m[1][1] * v.y + r->m[1][2] * v.z,
              r->m[2][0] * v.x + r->m[2][1] * v.y + r->m[2][2] * v.z);
}

/* The closed mesh's winding number about p: 1 inside, 0 outside, 1/2 on
 * its skin (the solid angle of each triangle, Van Oosterom and
 * Strackee's formula, summed over 4 pi). */
static double winding_number(const nv_mesh* m, nv_vec3 p) {
    double sum = 0.0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        nv_vec3 r[3];
        for (int k = 0; k < 3; k++) {
            const float* q = &m->positions[3 * (size_t)m->indices[3 * (size_t)t + k]];
            r[k] = v3(q[0] - p.x, q[1] - p.y, q[2] - p.z);
        }
        double la = v3_length(r[0]), lb = v3_length(r[1]), lc = v3_length(r[2]);
        double num = v3_dot(r[0], v3_cross(r[1], r[2]));
        double den = la * lb * lc + v3_dot(r[0], r[1]) * lc + v3_dot(r[1], r[2]) * la + v3_dot(r[2], r[0]) * lb;
        sum += 2.0 * atan2(num, den);
    }
    return sum / (4.0 * 3.14159265358979323846);
}

int nv_flood_breach(const nv_compartment_set* cs, nv_flood_state* fs, nv_vec3 point, double area, nv_error* err) {
    if (!v3_is_finite(point)) return nv_error_set(err, "breach: the point is not finite");
    uint32_t k = nv_compartment_at(cs, point);
    /* Inside, or on the skin where holes are (a half there). */
    if (k != UINT32_MAX && winding_number(&cs->meshes[k], point) >= 0.25)
        return nv_flood_add_hole(cs, fs, k, point, area, err);
    return nv_error_set(err, "breach: the point (%g, %g, %g) m is not on or in the hull", point.x, point.y, point.z);
}

int nv_flood_add_hole(const nv_compartment_set* cs, nv_flood_state* fs, uint32_t k, nv_vec3 point, double area, nv_error* err) {
    if (k >= cs->count || !cs->meshes[k].triangle_count)
        return nv_error_set(err, "breach: no compartment %u in the hull", k);
    if (nv_range_check(NV_RANGE_TYPE_HOLE_AREA, area, "breach: area", err)) return -1;
    if (fs->hole_count == FLOOD_MAX_HOLES)
        return nv_error_fail(err, NV_ELIMIT, "breach: the vessel has %d holes already", FLOOD_MAX_HOLES);
    fs->holes[fs->hole_count++] = (nv_flood_hole){k, point, area};
    return 0;
}

double nv_flood_total(const nv_flood_state* fs) {
    double sum = 0.0;
    for (uint32_t k = 0; k < COMPARTMENT_MAX; k++) sum += fs->volume[k];
    return sum;
}

/* Water through one hole in dt, never past equal levels: the flow stops
 * where the inside reaches the sea (inflow) or the sea or the hole
 * (outflow). `inside` is the compartment's level now (-inf: dry). */
static double hole_flow(const nv_compartment_set* cs, const nv_flood_state* fs, const nv_flood_hole* h, double inside,
                        nv_vec3 position, const nv_mat3* rotation, const nv_water_surface* water, double gravity, double dt) {
    const nv_mesh* m = &cs->meshes[h->compartment];
    double volume = fs->volume[h->compartment];
    nv_vec3 at = v3_add(position, rotate(rotation, h->point));
    float sea;
    nv_water_query q = {1, &at.x, &at.z, &sea, NULL, NULL};
    water_sample(water, &q);
    /* Heads measured from the hole: only water above it pushes. */
    double head_out = sea > at.y ? sea - at.y : 0.0, head_in = inside > at.y ? inside - at.y : 0.0;
    double dv = nv_compartment_orifice_flow(FLOOD_CD, h->area, gravity, head_out - head_in) * dt;
    if (dv == 0.0) return 0.0;
    double settle = fmax(sea, at.y);
    double target = nv_compartment_volume_below(m, rotation, position, settle, NULL);
    if (dv > 0.0 && volume + dv > target) dv = fmax(0.0, target - volume);
    if (dv < 0.0 && volume + dv < target) dv = fmin(0.0, target - volume);
    if (volume + dv > cs->volume[h->compartment]) dv = cs->volume[h->compartment] - volume;
    if (volume + dv < 0.0) dv = -volume;
    return dv;
}

uint64_t nv_flood_step(const nv_compartment_set* cs, nv_flood_state* fs, nv_vec3 position, const nv_mat3* rotation,
                       const nv_water_surface* water, double density, double gravity, double dt, nv_vec3* force,
                       nv_vec3* torque, nv_flood_mass* mass) {
    if (mass) memset(mass, 0, sizeof *mass);
    /* Each holed compartment's level now, from where it was last step. */
    double inside[COMPARTMENT_MAX];
    uint8_t holed[COMPARTMENT_MAX] = {0};
    for (uint32_t i = 0; i < fs->hole_count; i++) holed[fs->holes[i].compartment] = 1;
    for (uint32_t k = 0; k < cs->count; k++) {
        inside[k] = -INFINITY;
        if (!holed[k] || !(fs->volume[k] > 0.0)) continue;
        inside[k] = fs->level[k] = nv_compartment_level_near(&cs->meshes[k], rotation, position, fs->volume[k],
                                                             fs->level[k], NULL);
    }
    for (uint32_t i = 0; i < fs->hole_count; i++) {
        const nv_flood_hole* h = &fs->holes[i];
        fs->volume[h->compartment] += hole_flow(cs, fs, h, inside[h->compartment], position, rotation, water,
                                                gravity, dt);
    }
    if (fs->pumping && cs->damage.pump_rate > 0.0)
        for (uint32_t k = 0; k < cs->count; k++) fs->volume[k] = fmax(0.0, fs->volume[k] - cs->damage.pump_rate * dt);
    uint64_t became_full = 0;
    for (uint32_t k = 0; k < cs->count; k++) {
        uint64_t bit = (uint64_t)1 << k;
        if (!(fs->full & bit) && fs->volume[k] >= FLOOD_FULL * cs->volume[k] && cs->volume[k] > 0.0)
            fs->full |= bit, became_full |= bit;
        else if ((fs->full & bit) && fs->volume[k] < FLOOD_NOT_FULL * cs->volume[k])
            fs->full &= ~bit;
        if (!(fs->volume[k] > 0.0)) continue;
        nv_vec3 c;
        fs->level[k] = nv_compartment_level_near(&cs->meshes[k], rotation, position, fs->volume[k], fs->level[k], &c);
        nv_vec3 w = v3(0.0, -density * gravity * fs->volume[k], 0.0), r = v3_sub(c, position);
        *force = v3_add(*force, w);
        *torque = v3_add(*torque, v3_cross(r, w));
        if (!mass) continue;
        double m = density * fs->volume[k], rr = v3_dot(r, r);
        const double rv[3] = {r.x, r.y, r.z};
        mass->mass += m;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) mass->inertia.m[i][j] += m * ((i == j ? rr : 0.0) - rv[i] * rv[j]);
    }
    return became_full;
}
