// SPDX-License-Identifier: MIT
/* Mooring lines: springs from points on a hull to fixed points, taut only.
 * A handful of vessels have them at any time (those alongside), so they
 * are a short list sorted by slot, not a column of every vessel's state;
 * the integration job of a slot finds its lines by a binary search. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "world_internal.h"

static int lines_valid(const nv_world_line* l) {
    return v3_is_finite(l->hull) && v3_is_finite(l->bollard) && isfinite(l->length) && l->length >= 0.0 &&
           isfinite(l->stiffness) && l->stiffness >= 0.0 && isfinite(l->damping) && l->damping >= 0.0;
}

int nv_world_set_lines(nv_world* w, uint32_t id, const nv_world_line* lines, uint32_t count, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    if (world_slot_of(w, id) == UINT32_MAX) return nv_error_fail(err, NV_ENOENT, "no vessel with id %u", id);
    if (count > NV_WORLD_MAX_LINES)
        return nv_error_set(err, "vessel %u: %u mooring lines, at most %u", id, count, NV_WORLD_MAX_LINES);
    for (uint32_t i = 0; i < count; i++)
        if (!lines_valid(&lines[i]))
            return nv_error_set(err, "vessel %u: mooring line %u: points must be finite, length, stiffness and "
                                     "damping finite and not negative (got length %g, stiffness %g, damping %g)",
                                id, i, lines[i].length, lines[i].stiffness, lines[i].damping);
    world_lines* t = &w->lines;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < t->count; i++)
        if (t->entries[i].id != id) t->entries[kept++] = t->entries[i];
    t->count = kept;
    if (GROW(&t->entries, &t->capacity, t->count + count, 16))
        return nv_error_fail(err, NV_ENOMEM, "vessel %u: out of memory for %u mooring lines", id, count);
    for (uint32_t i = 0; i < count; i++) t->entries[t->count++] = (world_line_entry){id, UINT32_MAX, lines[i]};
    return 0;
}

/* Slot order, then the order they were given: a stable insertion sort of
 * a few entries. */
void world_lines_resolve(nv_world* w) {
    world_lines* t = &w->lines;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < t->count; i++) {
        world_line_entry e = t->entries[i];
        e.slot = world_slot_of(w, e.id);
        if (e.slot == UINT32_MAX) continue; /* despawned since */
        uint32_t k = kept++;
        while (k > 0 && t->entries[k - 1].slot > e.slot) {
            t->entries[k] = t->entries[k - 1];
            k--;
        }
        t->entries[k] = e;
    }
    t->count = kept;
}

void world_lines_pull(const nv_world* w, uint32_t s, const body* b, nv_vec3* force, nv_vec3* torque) {
    const world_lines* t = &w->lines;
    uint32_t lo = 0, hi = t->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->entries[mid].slot < s) lo = mid + 1;
        else hi = mid;
    }
    if (lo == t->count || t->entries[lo].slot != s) return;
    const nv_mat3 r = quat_to_mat3(b->orientation);
    const nv_mat3 rt = m3_transpose(&r);
    for (uint32_t i = lo; i < t->count && t->entries[i].slot == s; i++) {
        const nv_world_line* l = &t->entries[i].line;
        const nv_vec3 arm = m3_mul_v3(&r, l->hull); /* world, from the CG */
        const nv_vec3 d = v3_sub(l->bollard, v3_add(b->position, arm));
        const double span = v3_length(d);
        if (!(span > l->length) || span <= 0.0) continue; /* slack */
        const nv_vec3 u = v3_scale(d, 1.0 / span);
        /* the rate the line lengthens: the point's velocity away from the bollard */
        const nv_vec3 vp = v3_add(b->velocity, v3_cross(b->angular_velocity, arm));
        const double tension = fmax(0.0, l->stiffness * (span - l->length) - l->damping * v3_dot(vp, u));
        const nv_vec3 f = v3_scale(u, tension);
        *force = v3_add(*force, m3_mul_v3(&rt, f));
        *torque = v3_add(*torque, m3_mul_v3(&rt, v3_cross(arm, f)));
    }
}

void world_lines_end_step(nv_world* w) { w->lines.count = 0; }

void world_lines_free(nv_world* w) {
    free(w->lines.entries);
    memset(&w->lines, 0, sizeof w->lines);
}
