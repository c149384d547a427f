// SPDX-License-Identifier: MIT
#include "breaking.h"

#include <math.h>

#include "hull_layout.h"

int breaking_jet_init(breaking_jet* jet, const breaking_sections* crest, const nv_mat3* r, nv_vec3 velocity,
                      nv_vec3 angular_velocity, double density) {
    const nv_mat3 body_of = m3_transpose(r);
    int any = 0;
    for (int k = 0; k < BREAKING_SECTIONS; k++) {
        const breaking_crest* c = &crest->at[k];
        const int breaks = c->reach > 0.0f && isfinite(c->reach) && isfinite(c->water_x) && isfinite(c->water_z);
        jet->reach[k] = breaks ? c->reach : 0.0;
        jet->water[k] = breaks ? m3_mul_v3(&body_of, v3(c->water_x, 0.0, c->water_z)) : v3(0, 0, 0);
        any |= breaks;
    }
    jet->velocity = m3_mul_v3(&body_of, velocity);
    jet->angular_velocity = m3_mul_v3(&body_of, angular_velocity);
    jet->density = density;
    return any;
}

uint32_t breaking_jet_pass(const nv_hull* h, const float* height, uint32_t first, uint32_t count,
                           const breaking_jet* jet, hydro_sums* acc) {
    const uint32_t end = first + count < h->triangle_count ? first + count : h->triangle_count;
    const double from = h->bounds_min[0], length = (double)h->bounds_max[0] - from;
    const double per_section = length > 0.0 ? BREAKING_SECTIONS / length : 0.0;
    nv_vec3 force = v3(0, 0, 0), torque = v3(0, 0, 0);
    uint32_t struck = 0;
    for (uint32_t g = first; g < end; g += HULL_GROUP) {
        const float* blk = hull_lane_block(h, g);
        const int32_t* corner = hull_corner_block(h, g);
        for (uint32_t lane = 0; lane < HULL_GROUP && g + lane < end; lane++) {
            const double mid = ((double)height[corner[lane]] + height[corner[HULL_GROUP + lane]] +
                                height[corner[2 * HULL_GROUP + lane]]) /
                               3.0;
            const nv_vec3 c = v3(blk[HULL_LANE_CX * HULL_GROUP + lane], blk[HULL_LANE_CY * HULL_GROUP + lane],
                                 blk[HULL_LANE_CZ * HULL_GROUP + lane]);
            const double at = (c.x - from) * per_section;
            const int k = at >= BREAKING_SECTIONS - 1 ? BREAKING_SECTIONS - 1 : at > 0.0 ? (int)at : 0;
            if (!(fabs(mid) <= jet->reach[k])) continue;
            const nv_vec3 n = v3(blk[HULL_LANE_NX * HULL_GROUP + lane], blk[HULL_LANE_NY * HULL_GROUP + lane],
                                 blk[HULL_LANE_NZ * HULL_GROUP + lane]);
            /* the crest's water heads into this face (u . n < 0) and
             * catches it: a face giving way (v . n < 0) meets u - v; a
             * face pushing out into the water already meets that push as
             * the triangles' own drag, so the jet adds only its own u */
            const double water_n = v3_dot(jet->water[k], n);
            if (!(water_n < 0.0)) continue;
            const nv_vec3 point = v3_add(jet->velocity, v3_cross(jet->angular_velocity, c));
            const double un = water_n - fmin(v3_dot(point, n), 0.0);
            if (!(un < 0.0)) continue;
            const double push = jet->density * un * un * blk[HULL_LANE_AREA * HULL_GROUP + lane];
            const nv_vec3 f = v3_scale(n, -push);
            force = v3_add(force, f);
            torque = v3_add(torque, v3_cross(c, f));
            struck++;
        }
    }
    acc->force = v3_add(acc->force, force);
    acc->torque = v3_add(acc->torque, torque);
    return struck;
}
