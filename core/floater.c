// SPDX-License-Identifier: MIT
#include "floater.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

floater_params floater_params_default(void) {
    floater_params p = {.up_time = 0.2, .down_time = 0.1, .radius = 0.5};
    return p;
}

int floater_params_validate(const floater_params* p, nv_error* err) {
    if (!(p->up_time > 0.0) || !isfinite(p->up_time))
        return nv_error_set(err, "floater: up_time %g s must be positive", p->up_time);
    if (!(p->down_time > 0.0) || !isfinite(p->down_time))
        return nv_error_set(err, "floater: down_time %g s must be positive", p->down_time);
    if (!(p->radius > 0.0) || !isfinite(p->radius))
        return nv_error_set(err, "floater: radius %g m must be positive", p->radius);
    return 0;
}

static int floater_params_ok(const floater_params* p) {
    return p->up_time > 0.0 && isfinite(p->up_time) && p->down_time > 0.0 && isfinite(p->down_time) &&
           p->radius > 0.0 && isfinite(p->radius);
}

floater floater_make(double x, double y, double z, double heading) {
    floater f = {.x = x, .z = z, .y = y, .vy = 0.0f, .heading = (float)heading, .nx = 0.0f, .nz = 0.0f};
    return f;
}

/* The four sample points of a floater: ahead, astern, starboard, port. */
static void floater_sample_points(double x, double z, double heading, double along, double across, double* qx,
                                  double* qz) {
    /* bow (cos h, -sin h) and starboard (sin h, cos h) in (x, z) */
    double c = cos(heading), s = sin(heading);
    double ca = c * along, sa = s * along, cs = c * across, ss = s * across;
    qx[0] = x + ca, qz[0] = z - sa;
    qx[1] = x - ca, qz[1] = z + sa;
    qx[2] = x + ss, qz[2] = z + cs;
    qx[3] = x - ss, qz[3] = z - cs;
}

/* The shared step of one floater from its four water heights; returns 1
 * (state untouched) when a height is not finite. */
static int floater_advance(double* y, float* vy, float* nx, float* nz, double heading, double along, double across,
                           const float h[4], const floater_params* p, double dt) {
    if (!(isfinite(h[0]) && isfinite(h[1]) && isfinite(h[2]) && isfinite(h[3]))) return 1;
    double target = 0.25 * ((double)h[0] + h[1] + h[2] + h[3]);
    double e0 = *y - target, v0 = *vy;
    double omega = 2.0 / (target < *y ? p->down_time : p->up_time);
    /* exact critically damped motion over dt toward a target held still */
    double decay = exp(-omega * dt);
    double a = v0 + omega * e0;
    double e1 = (e0 + a * dt) * decay;
    double v1 = (v0 - omega * a * dt) * decay;
    *y = target + e1;
    *vy = (float)v1;

    double g_along = ((double)h[0] - h[1]) / (2.0 * along), g_across = ((double)h[2] - h[3]) / (2.0 * across);
    double c = cos(heading), s = sin(heading);
    double gx = g_along * c + g_across * s, gz = -g_along * s + g_across * c;
    double n = 1.0 / sqrt(1.0 + gx * gx + gz * gz);
    *nx = (float)(-gx * n);
    *nz = (float)(-gz * n);
    return 0;
}

int floater_step(floater* f, const floater_params* p, const nv_water_surface* water, double dt) {
    if (!(dt > 0.0) || !isfinite(dt) || !floater_params_ok(p)) return -1;
    double qx[4], qz[4];
    float h[4];
    floater_sample_points(f->x, f->z, f->heading, p->radius, p->radius, qx, qz);
    nv_water_query q = {.count = 4, .x = qx, .z = qz, .height = h};
    water_sample(water, &q);
    return floater_advance(&f->y, &f->vy, &f->nx, &f->nz, f->heading, p->radius, p->radius, h, p, dt);
}

static nv_quat floater_orientation(double heading, double nx, double nz) {
    double ny = sqrt(fmax(0.0, 1.0 - nx * nx - nz * nz));
    nv_quat yaw = quat_from_axis_angle(v3(0, 1, 0), heading);
    /* shortest arc from +y to n: axis +y x n, the half angle from 1 + cos */
    nv_quat tilt = quat_normalize((nv_quat){1.0 + ny, nz, 0.0, -nx});
    return quat_normalize(quat_mul(tilt, yaw));
}

double floater_heading_of(nv_quat q) {
    /* q = tilt(n) yaw(h) with tilt the shortest arc from +y to the body's up
     * axis n: undo the tilt and read the yaw's angle. */
    nv_vec3 n = quat_rotate(q, v3(0, 1, 0));
    if (!(n.y > -0.999)) { /* near upside down no tilt is the shortest: the bow's bearing */
        nv_vec3 bow = quat_rotate(q, v3(1, 0, 0));
        return atan2(-bow.z, bow.x);
    }
    nv_quat tilt = quat_normalize((nv_quat){1.0 + n.y, n.z, 0.0, -n.x});
    nv_quat yaw = quat_mul((nv_quat){tilt.w, -tilt.x, -tilt.y, -tilt.z}, q);
    /* q and -q are one rotation: the half angle's cosine taken >= 0 keeps
     * the heading in -pi..pi */
    if (yaw.w < 0.0) yaw.y = -yaw.y, yaw.w = -yaw.w;
    return 2.0 * atan2(yaw.y, yaw.w);
}

void floater_pose(const floater* f, nv_vec3* position, nv_quat* orientation) {
    if (position) *position = v3(f->x, f->y, f->z);
    if (orientation) *orientation = floater_orientation(f->heading, f->nx, f->nz);
}

/* ---- batches ---- */

int floater_batch_init(floater_batch* b, size_t capacity, const floater_params* p, nv_error* err) {
    memset(b, 0, sizeof *b);
    floater_params params = p ? *p : floater_params_default();
    if (floater_params_validate(&params, err)) return -1;
    if (capacity == 0 || capacity > ((size_t)1 << 30))
        return nv_error_set(err, "floater: capacity %zu must be 1..2^30", capacity);
    b->x = malloc(capacity * 5 * sizeof(double));
    b->vy = malloc(capacity * 4 * sizeof(float));
    if (!b->x || !b->vy) {
        floater_batch_free(b);
        return nv_error_fail(err, NV_ENOMEM, "floater: out of memory for %zu floaters", capacity);
    }
    b->z = b->x + capacity;
    b->y = b->z + capacity;
    b->heading = b->vy + capacity;
    b->nx = b->heading + capacity;
    b->nz = b->nx + capacity;
    b->reach_along = b->y + capacity;
    b->reach_across = b->reach_along + capacity;
    b->capacity = capacity;
    b->params = params;
    return 0;
}

void floater_batch_free(floater_batch* b) {
    free(b->x);
    free(b->vy);
    memset(b, 0, sizeof *b);
}

floater floater_batch_get(const floater_batch* b, size_t i) {
    floater f = {.x = b->x[i], .z = b->z[i], .y = b->y[i], .vy = b->vy[i], .heading = b->heading[i],
                 .nx = b->nx[i], .nz = b->nz[i]};
    return f;
}

void floater_batch_set(floater_batch* b, size_t i, const floater* f) {
    b->x[i] = f->x;
    b->z[i] = f->z;
    b->y[i] = f->y;
    b->vy[i] = f->vy;
    b->heading[i] = f->heading;
    b->nx[i] = f->nx;
    b->nz[i] = f->nz;
}

long floater_batch_add(floater_batch* b, double x, double y, double z, double heading, nv_error* err) {
    if (b->count >= b->capacity) return nv_error_set(err, "floater: batch full (%zu floaters)", b->capacity);
    if (!(isfinite(x) && isfinite(y) && isfinite(z) && isfinite(heading)))
        return nv_error_set(err, "floater: non-finite position or heading");
    floater f = floater_make(x, y, z, heading);
    floater_batch_set(b, b->count, &f);
    b->reach_along[b->count] = b->reach_across[b->count] = b->params.radius;
    return (long)b->count++;
}

int floater_batch_set_reach(floater_batch* b, size_t i, double along, double across) {
    if (i >= b->capacity || !(along > 0.0) || !(across > 0.0) || !isfinite(along) || !isfinite(across)) return -1;
    b->reach_along[i] = along;
    b->reach_across[i] = across;
    return 0;
}

void floater_batch_remove(floater_batch* b, size_t i) {
    if (i >= b->count) return;
    b->count--;
    if (i != b->count) {
        floater last = floater_batch_get(b, b->count);
        floater_batch_set(b, i, &last);
        b->reach_along[i] = b->reach_along[b->count];
        b->reach_across[i] = b->reach_across[b->count];
    }
}

long floater_batch_step(floater_batch* b, size_t first, size_t count, const nv_water_surface* water, double dt,
                        floater_scratch* scratch) {
    if (!(dt > 0.0) || !isfinite(dt) || first > b->count || count > b->count - first || !scratch) return -1;
    long held = 0;
    for (size_t c0 = first; c0 < first + count; c0 += FLOATER_CHUNK) {
        size_t n = first + count - c0 < FLOATER_CHUNK ? first + count - c0 : FLOATER_CHUNK;
        for (size_t k = 0; k < n; k++)
            floater_sample_points(b->x[c0 + k], b->z[c0 + k], b->heading[c0 + k], b->reach_along[c0 + k],
                                  b->reach_across[c0 + k], scratch->qx + 4 * k, scratch->qz + 4 * k);
        nv_water_query q = {.count = 4 * n, .x = scratch->qx, .z = scratch->qz, .height = scratch->height};
        water_sample(water, &q);
        for (size_t k = 0; k < n; k++) {
            size_t i = c0 + k;
            held += floater_advance(&b->y[i], &b->vy[i], &b->nx[i], &b->nz[i], b->heading[i], b->reach_along[i],
                                    b->reach_across[i], scratch->height + 4 * k, &b->params, dt);
        }
    }
    return held;
}

void floater_batch_pose(const floater_batch* b, size_t i, nv_vec3* position, nv_quat* orientation) {
    floater f = floater_batch_get(b, i);
    floater_pose(&f, position, orientation);
}
