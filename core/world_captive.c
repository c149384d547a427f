// SPDX-License-Identifier: MIT
/* A hull held still in the world's water: the load the water puts on it,
 * for tools that measure a type's wave excitation (a captive model test). */
#include <math.h>
#include <stdlib.h>

#include "world_internal.h"

int nv_world_type_water_load(const nv_world* w, uint32_t type, nv_vec3 position, nv_quat orientation, nv_vec3* force,
                             nv_vec3* torque, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    if (type >= w->type_count)
        return nv_error_fail(err, NV_ENOENT, "no hull type %u (the world has %u)", type, w->type_count);
    const double qn = sqrt(orientation.w * orientation.w + orientation.x * orientation.x +
                           orientation.y * orientation.y + orientation.z * orientation.z);
    if (!v3_is_finite(position) || !(qn > 0.0) || !isfinite(qn))
        return nv_error_set(err, "the pose must be finite, with a non-zero orientation");
    const nv_hull* h = &w->types[type].hull;
    hydro_scratch scratch;
    if (hydro_scratch_alloc(&scratch, h->vertex_count, err)) return -1;
    float* height = malloc((size_t)h->vertex_count * sizeof *height);
    if (!height) {
        hydro_scratch_free(&scratch);
        return nv_error_fail(err, NV_ENOMEM, "no memory for %u vertex heights", h->vertex_count);
    }
    const nv_quat q = {orientation.w / qn, orientation.x / qn, orientation.y / qn, orientation.z / qn};
    const nv_mat3 r = quat_to_mat3(q);
    hydro_vertex_pass(h, 0, h->vertex_count, position, &r, w->water.surface, &scratch, height);
    hydro_sums s;
    hydro_sums_clear(&s);
    hydro_triangle_pass(h, height, 0, h->triangle_count, w->cfg.water_density * w->cfg.gravity, NULL, NULL, &s, NULL);
    hydro_sums_to_world(&s, &r);
    free(height);
    hydro_scratch_free(&scratch);
    *force = s.force;
    *torque = s.torque;
    return 0;
}
