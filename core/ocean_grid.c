/* The resampled choppy surface: one exact inversion per world grid node at
 * each update, then queries that interpolate heights bilinearly.
 *
 * Why: a vessel's vertex pass asks for hundreds of points per boat per
 * step, and the inversion costs ~45 ns a point (two Newton evaluations of
 * three field pairs). With one cascade the tile is periodic in world space
 * as well, so the surface itself can be tabulated on the same N x N grid
 * once per step (65k inversions for 256^2, shared by every boat) and each
 * query becomes one bilinear lookup. The error is of the same order as the
 * bilinear interpolation of the fields the exact query already makes. */
#include <math.h>

#include "ocean_internal.h"

int ocean_has_surface_grid(const ocean* o) { return o->surface != NULL; }

/* Nodes are inverted in chunks so the stack stays small at any resolution. */
#define OCEAN_GRID_CHUNK 256

void ocean_update_surface_rows(ocean* o, int row_begin, int row_end) {
    if (!o->surface) return;
    const ocean_cascade* cc = &o->cascade[0];
    const double cell_x = cc->size / o->nx, cell_z = cc->size / o->nz;
    double xs[OCEAN_GRID_CHUNK], zs[OCEAN_GRID_CHUNK];
    float height[OCEAN_GRID_CHUNK], velocity[OCEAN_GRID_CHUNK];
    for (int iz = row_begin; iz < row_end; iz++) {
        float* row = o->surface + 2 * (size_t)iz * o->nx;
        for (int x0 = 0; x0 < o->nx; x0 += OCEAN_GRID_CHUNK) {
            int n = o->nx - x0 < OCEAN_GRID_CHUNK ? o->nx - x0 : OCEAN_GRID_CHUNK;
            for (int i = 0; i < n; i++) {
                xs[i] = (x0 + i) * cell_x;
                zs[i] = iz * cell_z;
            }
            water_query q = {.count = (size_t)n, .x = xs, .z = zs, .height = height, .vertical_velocity = velocity};
            ocean_sample_exact(o, &q);
            for (int i = 0; i < n; i++) {
                row[2 * (x0 + i)] = height[i];
                row[2 * (x0 + i) + 1] = velocity[i];
            }
        }
    }
}

size_t ocean_grid_sample(const ocean* o, const water_query* q) {
    const ocean_cascade* cc = &o->cascade[0];
    const float* g = o->surface;
    const int mx = o->nx - 1, mz = o->nz - 1, nx = o->nx;
    const float icx = (float)cc->inv_cell_x, icz = (float)cc->inv_cell_z;
    for (size_t i = 0; i < q->count; i++) {
        float u, v;
        grid_base(o, cc, q->x[i], q->z[i], &u, &v);
        int iu = floor_int(u), iv = floor_int(v);
        float tx = u - (float)iu, tz = v - (float)iv;
        int ix0 = iu & mx, ix1 = (ix0 + 1) & mx;
        size_t r0 = (size_t)(iv & mz) * nx, r1 = (size_t)((iv + 1) & mz) * nx;
        const float *p00 = g + 2 * (r0 + ix0), *p10 = g + 2 * (r0 + ix1);
        const float *p01 = g + 2 * (r1 + ix0), *p11 = g + 2 * (r1 + ix1);
        float ux = 1.0f - tx, uz = 1.0f - tz;
        float h0 = ux * p00[0] + tx * p10[0], h1 = ux * p01[0] + tx * p11[0];
        q->height[i] = uz * h0 + tz * h1;
        if (q->vertical_velocity)
            q->vertical_velocity[i] = uz * (ux * p00[1] + tx * p10[1]) + tz * (ux * p01[1] + tx * p11[1]);
        if (q->normal) {
            float hx = (uz * (p10[0] - p00[0]) + tz * (p11[0] - p01[0])) * icx;
            float hz = (h1 - h0) * icz;
            float inv = 1.0f / sqrtf(hx * hx + 1.0f + hz * hz);
            q->normal[3 * i] = -hx * inv;
            q->normal[3 * i + 1] = inv;
            q->normal[3 * i + 2] = -hz * inv;
        }
    }
    return 0;
}

size_t ocean_grid_sample_near(const water_surface* self, double x0, double z0, size_t count, const float* dx,
                              const float* dz, float* height) {
    const ocean* o = (const ocean*)self;
    const ocean_cascade* cc = &o->cascade[0];
    const float* g = o->surface;
    const int mx = o->nx - 1, mz = o->nz - 1, nx = o->nx;
    const float icx = (float)cc->inv_cell_x, icz = (float)cc->inv_cell_z;
    /* The origin is reduced into the tile once, in double; offsets of a
     * hull are small, so float cells are exact to ~1e-5 of a cell. */
    float u0, v0;
    grid_base(o, cc, x0, z0, &u0, &v0);
    for (size_t i = 0; i < count; i++) {
        float u = u0 + dx[i] * icx, v = v0 + dz[i] * icz;
        int iu = floor_int(u), iv = floor_int(v);
        float tx = u - (float)iu, tz = v - (float)iv;
        int ix0 = iu & mx, ix1 = (ix0 + 1) & mx;
        size_t r0 = (size_t)(iv & mz) * nx, r1 = (size_t)((iv + 1) & mz) * nx;
        float h0 = g[2 * (r0 + ix0)] + tx * (g[2 * (r0 + ix1)] - g[2 * (r0 + ix0)]);
        float h1 = g[2 * (r1 + ix0)] + tx * (g[2 * (r1 + ix1)] - g[2 * (r1 + ix0)]);
        height[i] = h0 + tz * (h1 - h0);
    }
    return 0;
}
