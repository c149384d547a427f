// SPDX-License-Identifier: MIT
#include "water_entry.h"

#include <math.h>

/* A section entering still water at speed V carries an added mass
 * m_a = rho pi c^2 / 2 per metre, c the half-width it has wetted, and keeps
 * the momentum (M + m_a) V: the water pushes back with V dm_a/dt =
 * rho pi c (dc/dt) V, where the waterline runs out at dc/dt = V cot(beta)
 * on a side of deadrise beta. Each side's waterline carries half of it.
 * Here a side is a triangle the surface cuts: its waterline is the cut,
 * its deadrise is the slope of the heights along it (the wave's slope
 * included), c is the cut's distance across from the keel line, and the
 * strip's length is the cut's length along the hull. The force is vertical,
 * as the momentum the theory counts, at the cut's middle. It acts while the
 * side moves down into the water, never on the way out (the water keeps
 * what it was given), and only as far as the entry is fast against
 * gravity (below). Crosswise cuts (a planing bottom's spray root) have
 * no length along the hull: the planing lift counts that flow. */
void water_entry_sum(const nv_hull* h, const float* height, uint32_t first, uint32_t count, const float* wet,
                     const nv_hydrodyn_frame* f, nv_vec3* force, nv_vec3* torque) {
    const double min_sin = sin(WATER_ENTRY_MIN_DEADRISE_DEG * NV_PI / 180.0);
    const double keel_y = h->bounds_min[1];
    const nv_vec3 up = f->up;
    nv_vec3 fs = *force, ts = *torque;
    for (uint32_t i = 0; i < count; i++) {
        if (!(wet[i] > 0.0f && wet[i] < 1.0f)) continue;
        const uint32_t* tri = h->triangles + 3 * (size_t)(first + i);
        nv_vec3 p[3];
        double hh[3];
        for (int k = 0; k < 3; k++) {
            p[k] = v3(h->vx[tri[k]], h->vy[tri[k]], h->vz[tri[k]]);
            hh[k] = height[tri[k]];
        }
        /* the waterline: where the heights change sign along the edges */
        nv_vec3 q[2];
        int n_cut = 0;
        for (int k = 0; k < 3; k++) {
            const int j = (k + 1) % 3;
            if ((hh[k] < 0.0) == (hh[j] < 0.0) || n_cut == 2) continue;
            const double t = hh[k] / (hh[k] - hh[j]);
            q[n_cut++] = v3_madd(p[k], v3_sub(p[j], p[k]), t);
        }
        if (n_cut != 2) continue;
        const double length = fabs(q[1].x - q[0].x);
        if (!(length > 0.0)) continue;
        /* moving down, and the side advancing into the water it faces */
        const nv_vec3 mid = v3_scale(v3_add(q[0], q[1]), 0.5);
        const nv_vec3 v = v3_add(f->velocity, v3_cross(f->angular_velocity, mid));
        const double down = -v3_dot(v, up);
        if (!(down > 0.0)) continue;
        const nv_vec3 e1 = v3_sub(p[1], p[0]), e2 = v3_sub(p[2], p[0]);
        if (!(v3_dot(v, v3_cross(e1, e2)) > 0.0)) continue;
        /* the heights' gradient in the triangle's plane: |grad h| = sin(beta) */
        const double a11 = v3_dot(e1, e1), a12 = v3_dot(e1, e2), a22 = v3_dot(e2, e2);
        const double det = a11 * a22 - a12 * a12;
        if (!(det > 0.0)) continue;
        const double dh1 = hh[1] - hh[0], dh2 = hh[2] - hh[0];
        const nv_vec3 grad = v3_scale(v3_add(v3_scale(e1, dh1 * a22 - dh2 * a12), v3_scale(e2, dh2 * a11 - dh1 * a12)),
                                      1.0 / det);
        double sin_b = v3_length(grad);
        sin_b = sin_b < min_sin ? min_sin : sin_b > 1.0 ? 1.0 : sin_b;
        const double cot_b = sqrt(1.0 - sin_b * sin_b) / sin_b;
        const nv_vec3 across = v3(0.0, mid.y - keel_y, mid.z);
        const double c = v3_length(v3_madd(across, up, -v3_dot(across, up)));
        /* the theory holds the free surface at zero potential: an entry fast
         * against gravity, V^2 >> g c; slower, the wetted width's motion
         * radiates waves, which the triangles and the dampers count */
        const double froude2 = down * down * f->inv_gravity / (c > 1e-3 ? c : 1e-3);
        const double fast = froude2 / (1.0 + froude2);
        const double lift = fast * f->entry_half_pi_rho * c * down * cot_b * down * length;
        const nv_vec3 fi = v3_scale(up, lift);
        fs = v3_add(fs, fi);
        ts = v3_add(ts, v3_cross(mid, fi));
    }
    *force = fs;
    *torque = ts;
}
