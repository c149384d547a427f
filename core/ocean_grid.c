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
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ocean_internal.h"
#include "ocean_walk.h"
#include "simd.h"

int ocean_has_surface_grid(const ocean* o) { return o->surface != NULL; }

/* Gap nodes are inverted in chunks so the stack stays small. */
#define OCEAN_GRID_CHUNK 64

static inline float* grid_heights(const ocean* o) { return o->surface; }
static inline float* grid_velocities(const ocean* o) { return o->surface + (size_t)o->nx * o->nz; }

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
 * Four rows go at a time (SSE2 lanes), or eight (AVX2, ocean_walk_avx2.c),
 * lane by lane the same operations,
 * and a row's walk does not depend on its neighbours or on the band: the
 * table is the same for any split of the rows. Nodes whose walk fails
 * (folds, where the map's Jacobian vanishes) are NaN here and get the
 * exact query afterwards; the next node starts cold. */


static void march_init(const ocean* o, ocean_march* m) {
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

#if defined(__SSE2__)
static inline __m128 select4(__m128 mask, __m128 a, __m128 b) {
    return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}
static inline __m128i selecti(__m128 mask, __m128i a, __m128i b) {
    __m128i m = _mm_castps_si128(mask);
    return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b));
}
/* floor for |f| < 2^31 */
static inline __m128i floor4(__m128 f) {
    __m128i i = _mm_cvttps_epi32(f);
    return _mm_add_epi32(i, _mm_castps_si128(_mm_cmplt_ps(f, _mm_cvtepi32_ps(i))));
}

/* Where the 2 x 2 labels of cells (ci, cj) are (wrapped): per lane, the
 * element of (ci, cj) and of (ci, cj + 1); `wrap` when a lane's ci + 1
 * wraps to 0 (its pairs are then not adjacent). */
typedef struct cells4 {
    _Alignas(16) int32_t k0[4], k1[4];
    int wrap;
} cells4;

static inline void locate_cells(const ocean_march* m, __m128i ci, __m128i cj, cells4* c) {
    const __m128i mx = _mm_set1_epi32(m->mx), mz = _mm_set1_epi32(m->mz);
    const __m128i sh = _mm_cvtsi32_si128(m->shift);
    const __m128i x0 = _mm_and_si128(ci, mx);
    const __m128i r0 = _mm_sll_epi32(_mm_and_si128(cj, mz), sh);
    const __m128i r1 = _mm_sll_epi32(_mm_and_si128(_mm_add_epi32(cj, _mm_set1_epi32(1)), mz), sh);
    _mm_store_si128((__m128i*)c->k0, _mm_add_epi32(r0, x0));
    _mm_store_si128((__m128i*)c->k1, _mm_add_epi32(r1, x0));
    c->wrap = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x0, mx)));
}

/* The cells' corner pairs: a[] from row cj, b[] from row cj + 1, transposed
 * so that a[0], a[1] are the first and second of the pair at ci and a[2],
 * a[3] those at ci + 1. */
static inline void gather_cells(const ocean_march* m, const float* pairs, const cells4* c, __m128 a[4], __m128 b[4]) {
    if (!c->wrap) { /* the usual case: each row's two pairs in one load */
        for (int l = 0; l < 4; l++) {
            a[l] = _mm_loadu_ps(pairs + 2 * (size_t)c->k0[l]);
            b[l] = _mm_loadu_ps(pairs + 2 * (size_t)c->k1[l]);
        }
    } else {
        for (int l = 0; l < 4; l++) {
            const size_t w = c->wrap >> l & 1 ? (size_t)m->nx : 0; /* ci + 1 is the row's first */
            const size_t k0 = (size_t)c->k0[l], k1 = (size_t)c->k1[l];
            a[l] = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64*)(pairs + 2 * k0)),
                                (const __m64*)(pairs + 2 * (k0 + 1 - w)));
            b[l] = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64*)(pairs + 2 * k1)),
                                (const __m64*)(pairs + 2 * (k1 + 1 - w)));
        }
    }
    _MM_TRANSPOSE4_PS(a[0], a[1], a[2], a[3]);
    _MM_TRANSPOSE4_PS(b[0], b[1], b[2], b[3]);
}

/* The walk of four rows (one per lane): where each one is. */
typedef struct walker4 {
    int z, rows; /* rows z .. z + rows - 1; idle lanes repeat the last and write nothing */
    __m128i gz, ci, cj;
    __m128 gzf, s, t;
    int cold; /* lanes that start afresh at the next node */
} walker4;

static void walker_start(walker4* w, int z, int rows) {
    _Alignas(16) int32_t lane_row[4];
    for (int l = 0; l < 4; l++) lane_row[l] = z + (l < rows ? l : rows - 1);
    w->z = z;
    w->rows = rows;
    w->gz = _mm_load_si128((const __m128i*)lane_row);
    w->gzf = _mm_cvtepi32_ps(w->gz);
    w->ci = w->cj = _mm_setzero_si128();
    w->s = w->t = _mm_setzero_ps();
    w->cold = 15;
}

/* Node x of the walker's rows: solved, written, and the next guess made. */
static void walker_node(const ocean_march* m, walker4* w, int x) {
    const __m128 one = _mm_set1_ps(1.0f), zero = _mm_setzero_ps();
    const __m128 icx = _mm_set1_ps(m->icx), icz = _mm_set1_ps(m->icz);
    const __m128 lo = _mm_set1_ps(-OCEAN_CELL_SLACK), hi = _mm_set1_ps(1.0f + OCEAN_CELL_SLACK);
    const __m128i gx = _mm_set1_epi32(x), gz = w->gz;
    __m128i ci = w->ci, cj = w->cj;
    __m128 s = w->s, t = w->t;
    if (w->cold) {
        /* x0 = q - D(q): the label at the node, moved back */
        __m128 a[4], b[4];
        cells4 c0;
        locate_cells(m, gx, gz, &c0);
        gather_cells(m, m->disp, &c0, a, b);
        const __m128 ux = _mm_sub_ps(_mm_cvtepi32_ps(gx), _mm_mul_ps(a[0], icx));
        const __m128 uz = _mm_sub_ps(w->gzf, _mm_mul_ps(a[1], icz));
        const __m128i fx = floor4(ux), fz = floor4(uz);
        const __m128 c = _mm_castsi128_ps(_mm_cmpgt_epi32(
            _mm_and_si128(_mm_set1_epi32(w->cold), _mm_setr_epi32(1, 2, 4, 8)), _mm_setzero_si128()));
        ci = selecti(c, fx, ci);
        cj = selecti(c, fz, cj);
        s = select4(c, _mm_sub_ps(ux, _mm_cvtepi32_ps(fx)), s);
        t = select4(c, _mm_sub_ps(uz, _mm_cvtepi32_ps(fz)), t);
    }
    __m128 active = _mm_castsi128_ps(_mm_set1_epi32(-1)), done = zero;
    __m128 step_x = zero, step_z = zero; /* J^-1 (1, 0) at the answer */
    cells4 cell; /* done lanes stay in the cell they were last located in */
    for (int k = 0; k < OCEAN_MARCH_STEPS; k++) {
        __m128 a[4], b[4];
        locate_cells(m, ci, cj, &cell);
        gather_cells(m, m->disp, &cell, a, b);
        /* corners relative to the cell's label, in cells */
        const __m128 p00x = _mm_mul_ps(a[0], icx), p00z = _mm_mul_ps(a[1], icz);
        const __m128 p10x = _mm_add_ps(one, _mm_mul_ps(a[2], icx)), p10z = _mm_mul_ps(a[3], icz);
        const __m128 p01x = _mm_mul_ps(b[0], icx), p01z = _mm_add_ps(one, _mm_mul_ps(b[1], icz));
        const __m128 p11x = _mm_add_ps(one, _mm_mul_ps(b[2], icx));
        const __m128 p11z = _mm_add_ps(one, _mm_mul_ps(b[3], icz));
        const __m128 ex = _mm_sub_ps(p10x, p00x), ez = _mm_sub_ps(p10z, p00z);
        const __m128 fx = _mm_sub_ps(p01x, p00x), fz = _mm_sub_ps(p01z, p00z);
        const __m128 gx_ = _mm_sub_ps(_mm_sub_ps(p11x, p10x), fx), gz_ = _mm_sub_ps(_mm_sub_ps(p11z, p10z), fz);
        /* Jacobian columns and the residual P(s, t) - q */
        const __m128 jsx = _mm_add_ps(ex, _mm_mul_ps(t, gx_)), jsz = _mm_add_ps(ez, _mm_mul_ps(t, gz_));
        const __m128 jtx = _mm_add_ps(fx, _mm_mul_ps(s, gx_)), jtz = _mm_add_ps(fz, _mm_mul_ps(s, gz_));
        const __m128 hx = _mm_cvtepi32_ps(_mm_sub_epi32(gx, ci)), hz = _mm_cvtepi32_ps(_mm_sub_epi32(gz, cj));
        const __m128 rx = _mm_sub_ps(_mm_add_ps(_mm_add_ps(p00x, _mm_mul_ps(s, ex)), _mm_mul_ps(t, jtx)), hx);
        const __m128 rz = _mm_sub_ps(_mm_add_ps(_mm_add_ps(p00z, _mm_mul_ps(s, ez)), _mm_mul_ps(t, jtz)), hz);
        const __m128 det = _mm_sub_ps(_mm_mul_ps(jsx, jtz), _mm_mul_ps(jsz, jtx));
        const __m128 inv = _mm_div_ps(one, det);
        const __m128 ds = _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(jtz, rx), _mm_mul_ps(jtx, rz)), inv);
        const __m128 dt = _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(jsx, rz), _mm_mul_ps(jsz, rx)), inv);
        const __m128 s1 = _mm_sub_ps(s, ds), t1 = _mm_sub_ps(t, dt);
        /* the residual left: g ds dt, in metres squared */
        const __m128 dd = _mm_mul_ps(ds, dt);
        const __m128 lx = _mm_mul_ps(gx_, dd), lz = _mm_mul_ps(gz_, dd);
        const __m128 left = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(lx, lx), _mm_set1_ps(m->cx2)),
                                       _mm_mul_ps(_mm_mul_ps(lz, lz), _mm_set1_ps(m->cz2)));
        const __m128 good = _mm_and_ps(active, _mm_cmpgt_ps(det, _mm_set1_ps(OCEAN_MARCH_DET_MIN)));
        const __m128 in = _mm_and_ps(_mm_and_ps(_mm_cmpge_ps(s1, lo), _mm_cmple_ps(s1, hi)),
                                     _mm_and_ps(_mm_cmpge_ps(t1, lo), _mm_cmple_ps(t1, hi)));
        const __m128 fin = _mm_and_ps(good, _mm_and_ps(in, _mm_cmplt_ps(left, _mm_set1_ps(m->tol2))));
        step_x = select4(fin, _mm_mul_ps(jtz, inv), step_x);
        step_z = select4(fin, _mm_sub_ps(zero, _mm_mul_ps(jsz, inv)), step_z);
        /* lanes going on move to the cell their step points into */
        const __m128 go = _mm_andnot_ps(fin, good);
        const __m128i mi = floor4(select4(go, s1, zero)), mj = floor4(select4(go, t1, zero));
        s = select4(good, _mm_sub_ps(s1, _mm_cvtepi32_ps(mi)), s);
        t = select4(good, _mm_sub_ps(t1, _mm_cvtepi32_ps(mj)), t);
        ci = _mm_add_epi32(ci, mi);
        cj = _mm_add_epi32(cj, mj);
        done = _mm_or_ps(done, fin);
        active = go;
        if (!_mm_movemask_ps(active)) break;
    }
    /* the answer: the cell's heights and velocities at (s, t) */
    __m128 a[4], b[4];
    gather_cells(m, m->hv, &cell, a, b);
    const __m128 h0 = _mm_add_ps(a[0], _mm_mul_ps(s, _mm_sub_ps(a[2], a[0])));
    const __m128 h1 = _mm_add_ps(b[0], _mm_mul_ps(s, _mm_sub_ps(b[2], b[0])));
    const __m128 v0 = _mm_add_ps(a[1], _mm_mul_ps(s, _mm_sub_ps(a[3], a[1])));
    const __m128 v1 = _mm_add_ps(b[1], _mm_mul_ps(s, _mm_sub_ps(b[3], b[1])));
    const __m128 nan = _mm_set1_ps(NAN);
    _Alignas(16) float hh[4], vv[4];
    _mm_store_ps(hh, select4(done, _mm_add_ps(h0, _mm_mul_ps(t, _mm_sub_ps(h1, h0))), nan));
    _mm_store_ps(vv, select4(done, _mm_add_ps(v0, _mm_mul_ps(t, _mm_sub_ps(v1, v0))), nan));
    for (int l = 0; l < w->rows; l++) {
        const size_t k = ((size_t)(w->z + l) << m->shift) + (size_t)x;
        m->gh[k] = hh[l];
        m->gv[k] = vv[l];
    }
    /* the next node's guess */
    w->cold = 15 & ~_mm_movemask_ps(done);
    const __m128 s2 = _mm_add_ps(s, step_x), t2 = _mm_add_ps(t, step_z);
    const __m128i mi = floor4(select4(done, s2, zero)), mj = floor4(select4(done, t2, zero));
    w->s = _mm_sub_ps(s2, _mm_cvtepi32_ps(mi));
    w->t = _mm_sub_ps(t2, _mm_cvtepi32_ps(mj));
    w->ci = _mm_add_epi32(ci, mi);
    w->cj = _mm_add_epi32(cj, mj);
}

#endif

/* One row alone, lane by lane what walker_node does (builds without SSE2). */
static void march_row(const ocean_march* m, int z) {
    int ci = 0, cj = 0, cold = 1;
    float s = 0.0f, t = 0.0f;
    for (int x = 0; x < m->nx; x++) {
        const size_t k = ((size_t)z << m->shift) + (size_t)x;
        if (cold) {
            const float* d = m->disp + 2 * k;
            const float ux = (float)x - d[0] * m->icx, uz = (float)z - d[1] * m->icz;
            if (!(fabsf(ux) < 1e6f && fabsf(uz) < 1e6f)) { /* a NaN field */
                m->gh[k] = m->gv[k] = NAN;
                continue;
            }
            ci = floor_int(ux);
            cj = floor_int(uz);
            s = ux - (float)ci;
            t = uz - (float)cj;
        }
        int done = 0;
        float step_x = 0.0f, step_z = 0.0f;
        for (int step = 0; step < OCEAN_MARCH_STEPS; step++) {
            const size_t r0 = (size_t)(cj & m->mz) << m->shift, r1 = (size_t)((cj + 1) & m->mz) << m->shift;
            const size_t x0 = (size_t)(ci & m->mx), x1 = (size_t)((ci + 1) & m->mx);
            const float *a0 = m->disp + 2 * (r0 + x0), *a1 = m->disp + 2 * (r0 + x1);
            const float *b0 = m->disp + 2 * (r1 + x0), *b1 = m->disp + 2 * (r1 + x1);
            const float p00x = a0[0] * m->icx, p00z = a0[1] * m->icz;
            const float p10x = 1.0f + a1[0] * m->icx, p10z = a1[1] * m->icz;
            const float p01x = b0[0] * m->icx, p01z = 1.0f + b0[1] * m->icz;
            const float p11x = 1.0f + b1[0] * m->icx, p11z = 1.0f + b1[1] * m->icz;
            const float ex = p10x - p00x, ez = p10z - p00z, fx = p01x - p00x, fz = p01z - p00z;
            const float gx = (p11x - p10x) - fx, gz = (p11z - p10z) - fz;
            const float jsx = ex + t * gx, jsz = ez + t * gz, jtx = fx + s * gx, jtz = fz + s * gz;
            const float hx = (float)(x - ci), hz = (float)(z - cj);
            const float rx = ((p00x + s * ex) + t * jtx) - hx, rz = ((p00z + s * ez) + t * jtz) - hz;
            const float det = jsx * jtz - jsz * jtx;
            if (!(det > OCEAN_MARCH_DET_MIN)) break;
            const float inv = 1.0f / det;
            const float ds = (jtz * rx - jtx * rz) * inv, dt = (jsx * rz - jsz * rx) * inv;
            const float s1 = s - ds, t1 = t - dt;
            const float dd = ds * dt, lx = gx * dd, lz = gz * dd;
            const float left = (lx * lx) * m->cx2 + (lz * lz) * m->cz2;
            if (s1 >= -OCEAN_CELL_SLACK && s1 <= 1.0f + OCEAN_CELL_SLACK && t1 >= -OCEAN_CELL_SLACK &&
                t1 <= 1.0f + OCEAN_CELL_SLACK && left < m->tol2) {
                s = s1;
                t = t1;
                step_x = jtz * inv;
                step_z = 0.0f - jsz * inv;
                done = 1;
                break;
            }
            if (!(fabsf(s1) < 1e6f && fabsf(t1) < 1e6f)) break;
            const int mi = floor_int(s1), mj = floor_int(t1);
            s = s1 - (float)mi;
            t = t1 - (float)mj;
            ci += mi;
            cj += mj;
        }
        cold = !done;
        if (!done) {
            m->gh[k] = m->gv[k] = NAN;
            continue;
        }
        const size_t r0 = (size_t)(cj & m->mz) << m->shift, r1 = (size_t)((cj + 1) & m->mz) << m->shift;
        const size_t x0 = (size_t)(ci & m->mx), x1 = (size_t)((ci + 1) & m->mx);
        const float *a0 = m->hv + 2 * (r0 + x0), *a1 = m->hv + 2 * (r0 + x1);
        const float *b0 = m->hv + 2 * (r1 + x0), *b1 = m->hv + 2 * (r1 + x1);
        const float h0 = a0[0] + s * (a1[0] - a0[0]), h1 = b0[0] + s * (b1[0] - b0[0]);
        const float v0 = a0[1] + s * (a1[1] - a0[1]), v1 = b0[1] + s * (b1[1] - b0[1]);
        m->gh[k] = h0 + t * (h1 - h0);
        m->gv[k] = v0 + t * (v1 - v0);
        const float s2 = s + step_x, t2 = t + step_z;
        const int mi = floor_int(s2), mj = floor_int(t2);
        s = s2 - (float)mi;
        t = t2 - (float)mj;
        ci += mi;
        cj += mj;
    }
}

static void exact_nodes(ocean* o, int n, const double* xs, const double* zs, const size_t* at) {
    float height[OCEAN_GRID_CHUNK], velocity[OCEAN_GRID_CHUNK];
    water_query q = {.count = (size_t)n, .x = xs, .z = zs, .height = height, .vertical_velocity = velocity};
    ocean_sample_exact(o, &q);
    for (int m = 0; m < n; m++) {
        grid_heights(o)[at[m]] = height[m];
        grid_velocities(o)[at[m]] = velocity[m];
    }
}

/* Nodes of the rows [z0, z1) whose walk failed (NaN): the exact query. */
static void fill_gaps(ocean* o, int z0, int z1) {
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

void ocean_update_surface_rows(ocean* o, int row_begin, int row_end) {
    if (!o->surface || row_begin >= row_end) return;
    ocean_march m;
    march_init(o, &m);
    int z = row_begin;
    if (simd_level() >= SIMD_AVX2)
        for (; z < row_end; z += 8) ocean_walk_rows_avx2(&m, z, row_end - z < 8 ? row_end - z : 8);
#if defined(__SSE2__)
    for (; z < row_end; z += 4) {
        walker4 w;
        walker_start(&w, z, row_end - z < 4 ? row_end - z : 4);
        for (int x = 0; x < m.nx; x++) walker_node(&m, &w, x);
    }
#endif
    for (; z < row_end; z++) march_row(&m, z);
    fill_gaps(o, row_begin, row_end);
}

size_t ocean_grid_sample(const ocean* o, const water_query* q) {
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

/* One point of ocean_grid_sample_near; the SSE2 path does the same
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

size_t ocean_grid_sample_near(const water_surface* self, double x0, double z0, size_t count, const float* dx,
                              const float* dz, float* height) {
    const ocean* o = (const ocean*)self;
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
    size_t i = 0;
    if (simd_level() >= SIMD_AVX2) i = ocean_grid_near_avx2(gh, mx, mz, shift, u0, v0, icx, icz, count, dx, dz, height);
#if defined(__SSE2__)
    const __m128 vu0 = _mm_set1_ps(u0), vv0 = _mm_set1_ps(v0), vicx = _mm_set1_ps(icx), vicz = _mm_set1_ps(icz);
    const __m128i vmx = _mm_set1_epi32(mx), vmz = _mm_set1_epi32(mz), one = _mm_set1_epi32(1);
    const __m128i vshift = _mm_cvtsi32_si128(shift);
    for (; i + 4 <= count; i += 4) {
        __m128 u = _mm_add_ps(vu0, _mm_mul_ps(_mm_loadu_ps(dx + i), vicx));
        __m128 v = _mm_add_ps(vv0, _mm_mul_ps(_mm_loadu_ps(dz + i), vicz));
        /* floor: truncation, minus one where that rounded up. Offsets from
         * a reduced origin stay far inside int range. */
        __m128i iu = _mm_cvttps_epi32(u), iv = _mm_cvttps_epi32(v);
        iu = _mm_add_epi32(iu, _mm_castps_si128(_mm_cmplt_ps(u, _mm_cvtepi32_ps(iu))));
        iv = _mm_add_epi32(iv, _mm_castps_si128(_mm_cmplt_ps(v, _mm_cvtepi32_ps(iv))));
        __m128 tx = _mm_sub_ps(u, _mm_cvtepi32_ps(iu)), tz = _mm_sub_ps(v, _mm_cvtepi32_ps(iv));
        __m128i ix0 = _mm_and_si128(iu, vmx);
        __m128i r0 = _mm_sll_epi32(_mm_and_si128(iv, vmz), vshift);
        __m128i r1 = _mm_sll_epi32(_mm_and_si128(_mm_add_epi32(iv, one), vmz), vshift);
        _Alignas(16) int e0[4], e1[4];
        _mm_store_si128((__m128i*)e0, _mm_add_epi32(r0, ix0));
        _mm_store_si128((__m128i*)e1, _mm_add_epi32(r1, ix0));
        __m128 a00, a10, a01, a11;
        if (!_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(ix0, vmx)))) {
            /* no lane's cell wraps in x: each row's two corners in one load */
            const __m128 p0 = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64*)(gh + e0[0])),
                                           (const __m64*)(gh + e0[1]));
            const __m128 p1 = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64*)(gh + e0[2])),
                                           (const __m64*)(gh + e0[3]));
            const __m128 q0 = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64*)(gh + e1[0])),
                                           (const __m64*)(gh + e1[1]));
            const __m128 q1 = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64*)(gh + e1[2])),
                                           (const __m64*)(gh + e1[3]));
            a00 = _mm_shuffle_ps(p0, p1, _MM_SHUFFLE(2, 0, 2, 0));
            a10 = _mm_shuffle_ps(p0, p1, _MM_SHUFFLE(3, 1, 3, 1));
            a01 = _mm_shuffle_ps(q0, q1, _MM_SHUFFLE(2, 0, 2, 0));
            a11 = _mm_shuffle_ps(q0, q1, _MM_SHUFFLE(3, 1, 3, 1));
        } else {
            _Alignas(16) int f0[4], f1[4];
            const __m128i ix1 = _mm_and_si128(_mm_add_epi32(ix0, one), vmx);
            _mm_store_si128((__m128i*)f0, _mm_add_epi32(r0, ix1));
            _mm_store_si128((__m128i*)f1, _mm_add_epi32(r1, ix1));
            a00 = _mm_setr_ps(gh[e0[0]], gh[e0[1]], gh[e0[2]], gh[e0[3]]);
            a10 = _mm_setr_ps(gh[f0[0]], gh[f0[1]], gh[f0[2]], gh[f0[3]]);
            a01 = _mm_setr_ps(gh[e1[0]], gh[e1[1]], gh[e1[2]], gh[e1[3]]);
            a11 = _mm_setr_ps(gh[f1[0]], gh[f1[1]], gh[f1[2]], gh[f1[3]]);
        }
        __m128 h0 = _mm_add_ps(a00, _mm_mul_ps(tx, _mm_sub_ps(a10, a00)));
        __m128 h1 = _mm_add_ps(a01, _mm_mul_ps(tx, _mm_sub_ps(a11, a01)));
        _mm_storeu_ps(height + i, _mm_add_ps(h0, _mm_mul_ps(tz, _mm_sub_ps(h1, h0))));
    }
#endif
    for (; i < count; i++) height[i] = near_one(gh, mx, mz, shift, u0 + dx[i] * icx, v0 + dz[i] * icz);
    return 0;
}
