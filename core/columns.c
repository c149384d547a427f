// SPDX-License-Identifier: MIT
/* Zephyr's column model: a set's totals, and at run time the forces of a
 * vessel on columns (four columns to an SSE2 lane group). Built from a mesh
 * in columns_build.c; read and written in columns_text.c. */
#include "naval/columns.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <emmintrin.h>

nv_columns_build_options nv_columns_build_options_default(void) {
    nv_columns_build_options o = {.nx = 20, .nz = 5, .samples = 16, .mass = 0.0};
    return o;
}

void nv_columns_free(nv_columns_set* s) {
    free(s->columns);
    memset(s, 0, sizeof *s);
}

double nv_columns_total_volume(const nv_columns_set* s) {
    double v = 0.0;
    for (uint32_t i = 0; i < s->count; i++) v += s->columns[i].volume;
    return v;
}

void nv_columns_mass(const nv_columns_set* s, double* mass, nv_vec3* centre) {
    double m = 0.0;
    nv_vec3 moment = v3(0, 0, 0);
    for (uint32_t i = 0; i < s->count; i++) {
        const nv_columns_column* c = &s->columns[i];
        double w = c->density * c->volume;
        m += w;
        moment = v3_madd(moment, v3(c->x, 0.5 * (c->ymin + c->ymax), c->z), w);
    }
    if (mass) *mass = m;
    if (centre) *centre = m > 0.0 ? v3_scale(moment, 1.0 / m) : v3(0, 0, 0);
}

/* ---- run time ---- */

/* Columns go four at a time (SSE2 lanes); the model's arrays are padded
 * to a multiple of four with empty columns (no volume, height 1). */
static uint32_t columns_padded(uint32_t n) { return (n + 3u) & ~3u; }

int nv_columns_model_create(nv_columns_model* m, const nv_columns_set* s, nv_vec3 cg, nv_error* err) {
    memset(m, 0, sizeof *m);
    m->damping_vertical = COLUMNS_DAMPING_VERTICAL;
    m->damping_horizontal = COLUMNS_DAMPING_HORIZONTAL;
    if (!v3_is_finite(cg)) return nv_error_set(err, "columns: non-finite centre of gravity");
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->count; i++) {
        const nv_columns_column* c = &s->columns[i];
        if (!(isfinite(c->x) && isfinite(c->ymin) && isfinite(c->z) && isfinite(c->ymax) && isfinite(c->volume)))
            return nv_error_set(err, "columns: column %u is not finite", i);
        if (c->volume > 0.0) {
            if (!(c->ymax > c->ymin)) return nv_error_set(err, "columns: column %u has volume but no height", i);
            n++;
        }
    }
    if (n == 0) return nv_error_set(err, "columns: no column has volume");
    uint32_t np = columns_padded(n);
    float* block = malloc((size_t)np * 6 * sizeof *block);
    if (!block) return nv_error_fail(err, NV_ENOMEM, "columns: out of memory for %u columns", n);
    m->ox = block;
    m->oy = block + np;
    m->oz = block + 2 * (size_t)np;
    m->height = block + 3 * (size_t)np;
    m->inv_height = block + 4 * (size_t)np;
    m->volume = block + 5 * (size_t)np;
    m->count = n;
    double keel = INFINITY;
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->count; i++) {
        const nv_columns_column* c = &s->columns[i];
        if (!(c->volume > 0.0)) continue;
        m->ox[k] = (float)(c->x - cg.x);
        m->oy[k] = (float)(0.5 * (c->ymin + c->ymax) - cg.y);
        m->oz[k] = (float)(c->z - cg.z);
        m->height[k] = (float)(c->ymax - c->ymin);
        m->inv_height[k] = 1.0f / m->height[k];
        m->volume[k] = (float)c->volume;
        m->total_volume += m->volume[k];
        keel = fmin(keel, c->ymin - cg.y);
        k++;
    }
    for (; k < np; k++) {
        m->ox[k] = m->oy[k] = m->oz[k] = 0.0f;
        m->height[k] = m->inv_height[k] = 1.0f;
        m->volume[k] = 0.0f;
    }
    m->keel = keel;
    return 0;
}

void nv_columns_model_destroy(nv_columns_model* m) {
    free(m->ox);
    memset(m, 0, sizeof *m);
}

size_t nv_columns_scratch_bytes(const nv_columns_model* m) {
    return (size_t)columns_padded(m->count) * (2 * sizeof(double) + 4 * sizeof(float));
}

static double columns_sum4(__m128 v) {
    float f[4];
    _mm_storeu_ps(f, v);
    return ((double)f[0] + f[1]) + ((double)f[2] + f[3]);
}

int nv_columns_force(const nv_columns_model* m, const nv_columns_pose* pose, const nv_water_surface* water, double water_density,
                     double gravity, void* scratch, size_t scratch_bytes, nv_columns_result* out) {
    memset(out, 0, sizeof *out);
    const uint32_t n = columns_padded(m->count);
    if (scratch_bytes < nv_columns_scratch_bytes(m) || (!scratch && n > 0) || ((uintptr_t)scratch & 7u)) return -1;
    double* qx = scratch;
    double* qz = qx + n;
    float* wx = (float*)(qz + n);
    float* wy = wx + n;
    float* wz = wy + n;
    float* surface = wz + n;
    /* Offsets in float (metres from the CG), as the vertex pass does. */
    float r[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r[i][j] = (float)pose->rotation.m[i][j];
    __m128 rm[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) rm[i][j] = _mm_set1_ps(r[i][j]);
    for (uint32_t k = 0; k < n; k += 4) {
        __m128 bx = _mm_loadu_ps(m->ox + k), by = _mm_loadu_ps(m->oy + k), bz = _mm_loadu_ps(m->oz + k);
        for (int i = 0; i < 3; i++) {
            __m128 o = _mm_add_ps(_mm_add_ps(_mm_mul_ps(rm[i][0], bx), _mm_mul_ps(rm[i][1], by)), _mm_mul_ps(rm[i][2], bz));
            _mm_storeu_ps((i == 0 ? wx : i == 1 ? wy : wz) + k, o);
        }
    }
    const nv_vec3 p = pose->position;
    if (water->sample_near) {
        out->approximate = water->sample_near(water, p.x, p.z, n, wx, wz, surface);
    } else {
        for (uint32_t k = 0; k < n; k++) {
            qx[k] = p.x + wx[k];
            qz[k] = p.z + wz[k];
        }
        nv_water_query q = {.count = n, .x = qx, .z = qz, .height = surface};
        out->approximate = water_sample(water, &q);
    }
    if (water->pressure_decay > 0.0) {
        /* The Smith effect, as the mesh's vertex pass takes it: a column's
         * buoyancy is the pressure on its bottom, where the wave's share of
         * it has fallen with depth. Without it a short steep wave's whole
         * elevation pushed on a deep hull's bottom, and the far boats
         * rolled over in seas the mesh rides. */
        const float k = (float)water->pressure_decay, mean = (float)water->mean_level;
        for (uint32_t i = 0; i < m->count; i++) {
            float bottom = (float)p.y + wy[i] - 0.5f * m->height[i];
            surface[i] = water_smith_elevation(bottom, surface[i], k, mean);
        }
    }
    /* The forces are linear in each column's submerged volume vf and its
     * point a, and the damping in its velocity v + w x a, so the sums
     * need only the moments S0 = sum vf, S1 = sum vf a and S2 = sum vf a a^T
     * (ten per column, four columns a lane in float, the lanes added in
     * double); force and torque follow from them once per call. */
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f), half = _mm_set1_ps(0.5f);
    const __m128 py = _mm_set1_ps((float)p.y);
    /* the columns' own axis (body +y) in the world, turned to point up
     * when the hull is upside down: the submerged part is the lower end */
    const float flip = r[1][1] < 0.0f ? -1.0f : 1.0f;
    const __m128 upx = _mm_set1_ps(flip * r[0][1]), upy = _mm_set1_ps(flip * r[1][1]), upz = _mm_set1_ps(flip * r[2][1]);
    __m128 s0 = zero, s1x = zero, s1y = zero, s1z = zero;
    __m128 sxx = zero, syy = zero, szz = zero, sxy = zero, sxz = zero, syz = zero;
    uint32_t wet = 0;
    for (uint32_t k = 0; k < n; k += 4) {
        __m128 cy = _mm_loadu_ps(wy + k);
        __m128 hh = _mm_mul_ps(half, _mm_loadu_ps(m->height + k));
        __m128 bottom = _mm_sub_ps(_mm_add_ps(py, cy), hh);
        __m128 f = _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(surface + k), bottom), _mm_loadu_ps(m->inv_height + k));
        /* min/max return their second operand on NaN: a NaN height stays NaN */
        f = _mm_max_ps(zero, _mm_min_ps(one, f));
        __m128 vf = _mm_mul_ps(_mm_loadu_ps(m->volume + k), f);
        /* the submerged part's centre, down the column's own axis (see columns.h) */
        __m128 down = _mm_mul_ps(_mm_sub_ps(f, one), hh);
        __m128 ax = _mm_add_ps(_mm_loadu_ps(wx + k), _mm_mul_ps(upx, down));
        __m128 ay = _mm_add_ps(cy, _mm_mul_ps(upy, down));
        __m128 az = _mm_add_ps(_mm_loadu_ps(wz + k), _mm_mul_ps(upz, down));
        __m128 vx = _mm_mul_ps(vf, ax), vy = _mm_mul_ps(vf, ay), vz = _mm_mul_ps(vf, az);
        s0 = _mm_add_ps(s0, vf);
        s1x = _mm_add_ps(s1x, vx);
        s1y = _mm_add_ps(s1y, vy);
        s1z = _mm_add_ps(s1z, vz);
        sxx = _mm_add_ps(sxx, _mm_mul_ps(vx, ax));
        syy = _mm_add_ps(syy, _mm_mul_ps(vy, ay));
        szz = _mm_add_ps(szz, _mm_mul_ps(vz, az));
        sxy = _mm_add_ps(sxy, _mm_mul_ps(vx, ay));
        sxz = _mm_add_ps(sxz, _mm_mul_ps(vx, az));
        syz = _mm_add_ps(syz, _mm_mul_ps(vy, az));
        int mask = _mm_movemask_ps(_mm_cmpgt_ps(vf, zero));
        wet += (uint32_t)((mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1));
    }
    double S0 = columns_sum4(s0);
    nv_vec3 S1 = v3(columns_sum4(s1x), columns_sum4(s1y), columns_sum4(s1z));
    double xy = columns_sum4(sxy), xz = columns_sum4(sxz), yz = columns_sum4(syz);
    const double S2[3][3] = {{columns_sum4(sxx), xy, xz}, {xy, columns_sum4(syy), yz}, {xz, yz, columns_sum4(szz)}};

    const double rho_g = water_density * gravity;
    const double d[3] = {-m->damping_horizontal * water_density, -m->damping_vertical * water_density,
                         -m->damping_horizontal * water_density};
    const nv_vec3 v0 = v3_sub(pose->velocity, pose->water_velocity), w = pose->angular_velocity;
    /* sum vf u = v0 S0 + w x S1 */
    nv_vec3 vu = v3_add(v3_scale(v0, S0), v3_cross(w, S1));
    out->force = v3(d[0] * vu.x, rho_g * S0 + d[1] * vu.y, d[2] * vu.z);
    /* sum a x F = rho g S1 x y + S1 x (D v0) + sum vf a x (D (w x a)); the
     * last is eps_ijk M_kl S2_jl with M = D W (W a = w x a) */
    const double W[3][3] = {{0.0, -w.z, w.y}, {w.z, 0.0, -w.x}, {-w.y, w.x, 0.0}};
    double M[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) M[i][j] = d[i] * W[i][j];
    double t3[3];
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3; /* eps_ijk = +1; eps_ikj = -1 */
        double a = 0.0;
        for (int l = 0; l < 3; l++) a += M[k][l] * S2[j][l] - M[j][l] * S2[k][l];
        t3[i] = a;
    }
    nv_vec3 torque = v3_add(v3(-rho_g * S1.z, 0.0, rho_g * S1.x), v3_cross(S1, v3(d[0] * v0.x, d[1] * v0.y, d[2] * v0.z)));
    out->torque = v3_add(torque, v3(t3[0], t3[1], t3[2]));
    out->submerged_volume = S0;
    out->wet_columns = wet;
    return 0;
}

int nv_columns_balance_height(const nv_columns_model* m, double mass, double water_density, double gravity,
                              nv_quat orientation, double* y, nv_error* err) {
    if (!(mass > 0.0) || !(water_density > 0.0) || !(gravity > 0.0))
        return nv_error_set(err, "columns: mass, water density and gravity must be positive");
    if (mass >= water_density * m->total_volume)
        return nv_error_set(err,
                            "columns: the hull sinks: its mass %.6g kg is not less than the %.6g kg of water its "
                            "columns displace at %g kg/m^3",
                            mass, water_density * m->total_volume, water_density);
    size_t bytes = nv_columns_scratch_bytes(m);
    void* scratch = malloc(bytes ? bytes : 1);
    if (!scratch) return nv_error_fail(err, NV_ENOMEM, "columns: out of memory");
    nv_water_flat flat;
    nv_water_flat_init(&flat, 0.0);
    nv_columns_pose pose;
    memset(&pose, 0, sizeof pose);
    pose.rotation = quat_to_mat3(quat_normalize(orientation));
    double extent = 0.0;
    for (uint32_t k = 0; k < m->count; k++) {
        double o = sqrt((double)m->ox[k] * m->ox[k] + (double)m->oy[k] * m->oy[k] + (double)m->oz[k] * m->oz[k]);
        extent = fmax(extent, o + m->height[k]);
    }
    /* Lift minus weight falls monotonically as the body rises: bisect
     * between fully under and fully dry. */
    double lo = -extent - 1.0, hi = extent + 1.0;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * (1.0 + extent); i++) {
        double mid = 0.5 * (lo + hi);
        pose.position = v3(0, mid, 0);
        nv_columns_result r;
        nv_columns_force(m, &pose, &flat.base, water_density, gravity, scratch, bytes, &r);
        if (r.force.y - mass * gravity > 0.0)
            lo = mid;
        else
            hi = mid;
    }
    free(scratch);
    *y = 0.5 * (lo + hi);
    return 0;
}
