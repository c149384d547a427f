// SPDX-License-Identifier: MIT
/* Small double-precision vector, quaternion and 3x3 matrix helpers.
 * World frame: right-handed, +y up. Vessel body frame: +x forward (bow),
 * +y up, +z starboard. */
#ifndef NAVAL_VECMATH_H
#define NAVAL_VECMATH_H

#include <math.h>
#include "naval/nv_api.h"

NV_API_BEGIN

#define NV_PI 3.14159265358979323846

typedef struct nv_vec3 { double x, y, z; } nv_vec3;
typedef struct nv_quat { double w, x, y, z; } nv_quat;   /* unit quaternion: body -> world */
typedef struct nv_mat3 { double m[3][3]; } nv_mat3;      /* row-major */

static inline nv_vec3 v3(double x, double y, double z) { nv_vec3 r = {x, y, z}; return r; }
static inline nv_vec3 v3_add(nv_vec3 a, nv_vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline nv_vec3 v3_sub(nv_vec3 a, nv_vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline nv_vec3 v3_scale(nv_vec3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }
static inline nv_vec3 v3_madd(nv_vec3 a, nv_vec3 b, double s) { return v3(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s); }
static inline double v3_dot(nv_vec3 a, nv_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline nv_vec3 v3_cross(nv_vec3 a, nv_vec3 b) {
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double v3_length(nv_vec3 a) { return sqrt(v3_dot(a, a)); }
/* Unit vector; the zero vector stays zero (no division by zero). */
static inline nv_vec3 v3_normalize(nv_vec3 a) {
    double l = v3_length(a);
    return l > 0.0 ? v3_scale(a, 1.0 / l) : a;
}
static inline int v3_is_finite(nv_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

static inline nv_quat quat_identity(void) { nv_quat q = {1.0, 0.0, 0.0, 0.0}; return q; }
static inline nv_quat quat_mul(nv_quat a, nv_quat b) {
    nv_quat r = {
        a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
        a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
        a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
        a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
    };
    return r;
}
static inline nv_quat quat_from_axis_angle(nv_vec3 axis, double angle) {
    double len = v3_length(axis);
    if (!(len > 0.0)) return quat_identity();
    double s = sin(0.5 * angle) / len;
    nv_quat q = {cos(0.5 * angle), axis.x * s, axis.y * s, axis.z * s};
    return q;
}
static inline nv_quat quat_normalize(nv_quat q) {
    double n = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    if (!(n > 0.0)) return quat_identity();
    nv_quat r = {q.w / n, q.x / n, q.y / n, q.z / n};
    return r;
}
static inline nv_vec3 quat_rotate(nv_quat q, nv_vec3 v) {
    /* v + 2 u x (u x v + w v), u = vector part */
    nv_vec3 u = v3(q.x, q.y, q.z);
    nv_vec3 t = v3_madd(v3_cross(u, v), v, q.w);
    return v3_madd(v, v3_cross(u, t), 2.0);
}
static inline nv_mat3 quat_to_mat3(nv_quat q) {
    double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    nv_mat3 r = {{
        {1.0 - 2.0 * (yy + zz), 2.0 * (xy - wz), 2.0 * (xz + wy)},
        {2.0 * (xy + wz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz - wx)},
        {2.0 * (xz - wy), 2.0 * (yz + wx), 1.0 - 2.0 * (xx + yy)},
    }};
    return r;
}

static inline nv_vec3 m3_mul_v3(const nv_mat3* a, nv_vec3 v) {
    return v3(a->m[0][0] * v.x + a->m[0][1] * v.y + a->m[0][2] * v.z,
              a->m[1][0] * v.x + a->m[1][1] * v.y + a->m[1][2] * v.z,
              a->m[2][0] * v.x + a->m[2][1] * v.y + a->m[2][2] * v.z);
}
static inline nv_mat3 m3_mul(const nv_mat3* a, const nv_mat3* b) {
    nv_mat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
    return r;
}
static inline nv_mat3 m3_transpose(const nv_mat3* a) {
    nv_mat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r.m[i][j] = a->m[j][i];
    return r;
}
static inline nv_mat3 m3_diag(double a, double b, double c) {
    nv_mat3 r = {{{a, 0, 0}, {0, b, 0}, {0, 0, c}}};
    return r;
}
static inline double m3_det(const nv_mat3* a) {
    const double(*m)[3] = a->m;
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}
/* Inverse; returns 0 (and leaves *out untouched) when the matrix is singular. */
static inline int m3_inverse(const nv_mat3* a, nv_mat3* out) {
    double det = m3_det(a);
    if (!(fabs(det) > 0.0) || !isfinite(det)) return 0;
    const double(*m)[3] = a->m;
    double inv = 1.0 / det;
    nv_mat3 r = {{
        {(m[1][1] * m[2][2] - m[1][2] * m[2][1]) * inv, (m[0][2] * m[2][1] - m[0][1] * m[2][2]) * inv,
         (m[0][1] * m[1][2] - m[0][2] * m[1][1]) * inv},
        {(m[1][2] * m[2][0] - m[1][0] * m[2][2]) * inv, (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * inv,
         (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * inv},
        {(m[1][0] * m[2][1] - m[1][1] * m[2][0]) * inv, (m[0][1] * m[2][0] - m[0][0] * m[2][1]) * inv,
         (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * inv},
    }};
    *out = r;
    return 1;
}

NV_API_END

#endif
