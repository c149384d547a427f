// SPDX-License-Identifier: MIT
/* The resampled choppy surface: after each update, the surface's height and
 * vertical velocity at every world grid node, then queries that interpolate
 * heights bilinearly.
 *
 * Why: a vessel's vertex pass asks for hundreds of points per boat per
 * step, and the exact query costs ~45 ns a point (two Newton evaluations of
 * three field pairs). With one cascade the tile is periodic in world space
 * as well, so the surface itself can be tabulated on the same N x N grid
 * once per step, shared by every boat, and each query becomes one bilinear
 * lookup. The error is of the same order as the bilinear interpolation of
 * the fields the exact query already makes.
 *
 * The table is built by walking each world row (see "marching" below): a
 * node's answer meets the exact query's own criterion (the horizontal
 * residual of x0 + D(x0) = q under query_tolerance, with the same bilinear
 * D) at ~1/3 of its cost. Forward splatting (each label cell's quad solving
 * the nodes it covers in closed form) was built and measured too: as fast
 * (~140 instructions a node either way, the quad's sqrt and two divisions
 * against one gather and one division), but it needs a margin of label
 * rows around each band and a tie rule for nodes claimed by several quads;
 * the walk needs neither. */
#include <math.h>

#include "kernels.h"
#include "ocean_internal.h"
#include "ocean_walk.h"

int nv_ocean_has_surface_grid(const nv_ocean* o) { return o->surface != NULL; }

/* Gap nodes are inverted in chunks so the stack stays small. */
#define OCEAN_GRID_CHUNK 64

static inline float* grid_heights(const nv_ocean* o) { return o->surface; }
static inline float* grid_velocities(const nv_ocean* o) { return o->surface + (size_t)o->nx * o->nz; }

/* ------------------------------------------------------------- marching
 *
 * Each world row is walked node by node in +x. A node's label x0 (the
 * exact query's unknown) is held as a label cell (ci, cj) and the offset
 * (s, t) in it: inside a cell the displaced surface is exactly the bilinear
 * map of the cell's displaced corners,
 *     P(s, t) = p00 + s e + t f + s t g,
 * so Newton's step uses that map's own Jacobian (e + t g, f + s g) and the
 * residual after the step is exactly g ds dt: a node is done without
 * evaluating the map again. The first guess is the previous node's label
 * plus the inverse Jacobian's first column (x0 moves by J^-1 (1, 0) per
 * node), which is within ~1e-2 cells, so one step leaves a residual of
 * ~1e-5 cells: one gather of the cell's corners per node, against ~2
 * evaluations of three interpolated field pairs for the exact query. A
 * step that leaves the cell moves to the cell it points into. Rows start
 * cold from x0 = q - D(q).
 *
 * Eight rows go at a time (ocean_walk_kernel.h, on two SSE2 registers or
 * one AVX2 register), lane by lane the same operations, and a row's walk does not depend on its neighbours or on the band: the
 * table is the same for any split of the rows. Nodes whose walk fails
 * (folds, where the map's Jacobian vanishes) are NaN here and get the
 * exact query afterwards; the next node starts cold. */


static void march_init(const nv_ocean* o, ocean_march* m) {
    const ocean_cascade* cc = &o->cascade[0];
    m->disp = (const float*)cc->out[OCEAN_PAIR_DISP];
    m->hv = (const float*)cc->out[OCEAN_PAIR_H_V];
    m->gh = grid_heights(o);
    m->gv = grid_velocities(o);
    m->nx = o->nx;
    m->mx = o->nx - 1;
    m->mz = o->nz - 1;
    m->shift = 0;
    while ((1 << m->shift) < o->nx) m->shift++;
    m->icx = (float)cc->inv_cell_x;
    m->icz = (float)cc->inv_cell_z;
    const double cx = cc->size / o->nx, cz = cc->size / o->nz;
    m->cx2 = (float)(cx * cx);
    m->cz2 = (float)(cz * cz);
    m->tol2 = (float)(o->params.query_tolerance * o->params.query_tolerance);
}

static void exact_nodes(nv_ocean* o, int n, const double* xs, const double* zs, const size_t* at) {
    float height[OCEAN_GRID_CHUNK], velocity[OCEAN_GRID_CHUNK];
    nv_water_query q = {.count = (size_t)n, .x = xs, .z = zs, .height = height, .vertical_velocity = velocity};
    nv_ocean_sample_exact(o, &q);
    for (int m = 0; m < n; m++) {
        grid_heights(o)[at[m]] = height[m];
        grid_velocities(o)[at[m]] = velocity[m];
    }
}

/* Nodes of the rows [z0, z1) whose walk failed (NaN): the exact query. */
static void fill_gaps(nv_ocean* o, int z0, int z1) {
    const int nx = o->nx;
    const double cell_x = o->cascade[0].size / o->nx, cell_z = o->cascade[0].size / o->nz;
    const float* gh = grid_heights(o);
    double xs[OCEAN_GRID_CHUNK], zs[OCEAN_GRID_CHUNK];
    size_t at[OCEAN_GRID_CHUNK];
    int n = 0;
    for (int iz = z0; iz < z1; iz++) {
        for (int ix = 0; ix < nx; ix++) {
            size_t k = (size_t)iz * nx + ix;
            if (gh[k] == gh[k]) continue;
            xs[n] = ix * cell_x;
            zs[n] = iz * cell_z;
            at[n++] = k;
            if (n == OCEAN_GRID_CHUNK) {
                exact_nodes(o, n, xs, zs, at);
                n = 0;
            }
        }
    }
    if (n > 0) exact_nodes(o, n, xs, zs, at);
}

void nv_ocean_update_surface_rows(nv_ocean* o, int row_begin, int row_end) {
    if (!o->surface || row_begin >= row_end) return;
    ocean_march m;
    march_init(o, &m);
    kernels_ocean_walk_fn* walk = kernels_active()->ocean_walk;
    for (int z = row_begin; z < row_end; z += 8) walk(&m, z, row_end - z < 8 ? row_end - z : 8);
    fill_gaps(o, row_begin, row_end);
}

size_t ocean_grid_sample(const nv_ocean* o, const nv_water_query* q) {
    const ocean_cascade* cc = &o->cascade[0];
    const float* gh = grid_heights(o);
    const float* gv = grid_velocities(o);
    const int mx = o->nx - 1, mz = o->nz - 1, nx = o->nx;
    const float icx = (float)cc->inv_cell_x, icz = (float)cc->inv_cell_z;
    for (size_t i = 0; i < q->count; i++) {
        float u, v;
        grid_base(o, cc, q->x[i], q->z[i], &u, &v);
        int iu = floor_int(u), iv = floor_int(v);
        float tx = u - (float)iu, tz = v - (float)iv;
        int ix0 = iu & mx, ix1 = (ix0 + 1) & mx;
        size_t r0 = (size_t)(iv & mz) * nx, r1 = (size_t)((iv + 1) & mz) * nx;
        /* the same arithmetic as ocean_grid_sample_near */
        float h0 = gh[r0 + ix0] + tx * (gh[r0 + ix1] - gh[r0 + ix0]);
        float h1 = gh[r1 + ix0] + tx * (gh[r1 + ix1] - gh[r1 + ix0]);
        q->height[i] = h0 + tz * (h1 - h0);
        if (q->vertical_velocity) {
            float v0 = gv[r0 + ix0] + tx * (gv[r0 + ix1] - gv[r0 + ix0]);
            float v1 = gv[r1 + ix0] + tx * (gv[r1 + ix1] - gv[r1 + ix0]);
            q->vertical_velocity[i] = v0 + tz * (v1 - v0);
        }
        if (q->normal) {
            float hx = ((1.0f - tz) * (gh[r0 + ix1] - gh[r0 + ix0]) + tz * (gh[r1 + ix1] - gh[r1 + ix0])) * icx;
            float hz = (h1 - h0) * icz;
            float inv = 1.0f / sqrtf(hx * hx + 1.0f + hz * hz);
            q->normal[3 * i] = -hx * inv;
            q->normal[3 * i + 1] = inv;
            q->normal[3 * i + 2] = -hz * inv;
        }
    }
    return 0;
}

/* One point of ocean_grid_sample_near; the lanes (ocean_near_kernel.h) do the same
 * operations lane by lane, so a point's height does not depend on its
 * batch. */
static inline float near_one(const float* gh, int mx, int mz, int shift, float u, float v) {
    int iu = floor_int(u), iv = floor_int(v);
    float tx = u - (float)iu, tz = v - (float)iv;
    int ix0 = iu & mx, ix1 = (ix0 + 1) & mx;
    size_t r0 = (size_t)(iv & mz) << shift, r1 = (size_t)((iv + 1) & mz) << shift;
    float h0 = gh[r0 + ix0] + tx * (gh[r0 + ix1] - gh[r0 + ix0]);
    float h1 = gh[r1 + ix0] + tx * (gh[r1 + ix1] - gh[r1 + ix0]);
    return h0 + tz * (h1 - h0);
}

size_t ocean_grid_sample_near(const nv_water_surface* self, double x0, double z0, size_t count, const float* dx,
                              const float* dz, float* height) {
    const nv_ocean* o = (const nv_ocean*)self;
    const ocean_cascade* cc = &o->cascade[0];
    const float* gh = grid_heights(o);
    const int mx = o->nx - 1, mz = o->nz - 1;
    int shift = 0;
    while ((1 << shift) < o->nx) shift++;
    const float icx = (float)cc->inv_cell_x, icz = (float)cc->inv_cell_z;
    /* The origin is reduced into the tile once, in double; offsets of a
     * hull are small, so float cells are exact to ~1e-5 of a cell. */
    float u0, v0;
    grid_base(o, cc, x0, z0, &u0, &v0);
    size_t i = kernels_active()->ocean_near(gh, mx, mz, shift, u0, v0, icx, icz, count, dx, dz, height);
    for (; i < count; i++) height[i] = near_one(gh, mx, mz, shift, u0 + dx[i] * icx, v0 + dz[i] * icz);
    return 0;
}
