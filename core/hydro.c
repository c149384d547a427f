// SPDX-License-Identifier: MIT
#include "hydro.h"

#include <assert.h>
#include <emmintrin.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydrodyn_lanes.h"
#include "kernels.h"

int hydro_scratch_alloc(hydro_scratch* s, uint32_t capacity, nv_error* err) {
    memset(s, 0, sizeof *s);
    size_t n = capacity ? capacity : 1;
    s->qx = malloc(n * sizeof(double));
    s->qz = malloc(n * sizeof(double));
    s->wy = malloc(n * sizeof(double));
    s->surface = malloc(n * sizeof(float));
    s->ox = malloc(n * sizeof(float));
    s->oy = malloc(n * sizeof(float));
    s->oz = malloc(n * sizeof(float));
    s->height = malloc(n * sizeof(float));
    if (!s->qx || !s->qz || !s->wy || !s->surface || !s->ox || !s->oy || !s->oz || !s->height) {
        hydro_scratch_free(s);
        return nv_error_fail(err, NV_ENOMEM, "hydro: out of memory for a scratch of %u vertices", capacity);
    }
    s->capacity = capacity;
    return 0;
}

void hydro_scratch_free(hydro_scratch* s) {
    free(s->qx);
    free(s->qz);
    free(s->wy);
    free(s->surface);
    free(s->ox);
    free(s->oy);
    free(s->oz);
    free(s->height);
    memset(s, 0, sizeof *s);
}

/* The two loops of the vertex pass that run on every vertex, apart so
 * their pointers are restrict parameters: GCC honours those, and without
 * them it would need more run-time overlap checks than it emits and leaves
 * the loops scalar. */
static void hydro_rotate_offsets(uint32_t n, const float r[3][3], const float* restrict bx, const float* restrict by,
                                 const float* restrict bz, float* restrict ox, float* restrict oy, float* restrict oz) {
    for (uint32_t k = 0; k < n; k++) {
        ox[k] = r[0][0] * bx[k] + r[0][1] * by[k] + r[0][2] * bz[k];
        oy[k] = r[1][0] * bx[k] + r[1][1] * by[k] + r[1][2] * bz[k];
        oz[k] = r[2][0] * bx[k] + r[2][1] * by[k] + r[2][2] * bz[k];
    }
}

static void hydro_heights_above(uint32_t n, float y, const float* restrict oy, const float* restrict surface,
                                float* restrict out) {
    for (uint32_t k = 0; k < n; k++) out[k] = (y + oy[k]) - surface[k];
}

/* The Smith effect (naval/water.h): each vertex's height above the wave
 * elevation that acts at its depth, eta' = m + (eta - m) e^(k min(0, y - m)).
 * e^x is (1 + x/32)^32 (x clamped at -32): within 2 % where it matters
 * (x > -2), plain multiplies that round alike everywhere. In SSE2 by hand:
 * GCC leaves the loop scalar (its selects), and it was an eighth of the
 * step. minps and maxps return their second operand for a NaN, as the
 * scalar tail's comparisons do. */
static inline float hydro_smith_one(float yv, float surface, float k, float mean) {
    return yv - water_smith_elevation(yv, surface, k, mean);
}

static void hydro_heights_smith(uint32_t n, float y, const float* restrict oy, const float* restrict surface, float k,
                                float mean, float* restrict out) {
    const __m128 vy = _mm_set1_ps(y), vk = _mm_set1_ps(k), vm = _mm_set1_ps(mean), zero = _mm_setzero_ps();
    const __m128 floor = _mm_set1_ps(-32.0f), one = _mm_set1_ps(1.0f), inv32 = _mm_set1_ps(1.0f / 32.0f);
    uint32_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128 yv = _mm_add_ps(vy, _mm_loadu_ps(oy + i));
        __m128 x = _mm_max_ps(_mm_mul_ps(vk, _mm_min_ps(_mm_sub_ps(yv, vm), zero)), floor);
        __m128 e = _mm_add_ps(one, _mm_mul_ps(x, inv32));
        e = _mm_mul_ps(e, e), e = _mm_mul_ps(e, e), e = _mm_mul_ps(e, e), e = _mm_mul_ps(e, e), e = _mm_mul_ps(e, e);
        __m128 eta = _mm_add_ps(vm, _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(surface + i), vm), e));
        _mm_storeu_ps(out + i, _mm_sub_ps(yv, eta));
    }
    for (; i < n; i++) out[i] = hydro_smith_one(y + oy[i], surface[i], k, mean);
}

size_t hydro_vertex_pass(const nv_hull* h, uint32_t first, uint32_t count, nv_vec3 position, const nv_mat3* rotation,
                         const nv_water_surface* water, hydro_scratch* scratch, float* height) {
    if (water->sample_near) {
        /* Offsets in float (metres from the CG: micrometres kept), rotated
         * in a loop that vectorises; the surface takes them from the CG's
         * double position. */
        float r[3][3];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) r[i][j] = (float)rotation->m[i][j];
        hydro_rotate_offsets(count, r, h->vx + first, h->vy + first, h->vz + first, scratch->ox, scratch->oy,
                             scratch->oz);
        size_t approximate =
            water->sample_near(water, position.x, position.z, count, scratch->ox, scratch->oz, scratch->surface);
        /* y stays near the surface, where float keeps micrometres */
        if (water->pressure_decay > 0.0)
            hydro_heights_smith(count, (float)position.y, scratch->oy, scratch->surface, (float)water->pressure_decay,
                                (float)water->mean_level, height + first);
        else
            hydro_heights_above(count, (float)position.y, scratch->oy, scratch->surface, height + first);
        return approximate;
    }
    for (uint32_t k = 0; k < count; k++) {
        nv_vec3 r = hydro_vertex_offset(h, rotation, first + k);
        scratch->qx[k] = position.x + r.x;
        scratch->wy[k] = position.y + r.y;
        scratch->qz[k] = position.z + r.z;
    }
    nv_water_query q = {.count = count, .x = scratch->qx, .z = scratch->qz, .height = scratch->surface};
    size_t approximate = water_sample(water, &q);
    if (water->pressure_decay > 0.0) {
        double kd = water->pressure_decay, mean = water->mean_level;
        for (uint32_t k = 0; k < count; k++) {
            double below = fmin(scratch->wy[k] - mean, 0.0);
            double e = 1.0 + fmax(kd * below, -32.0) / 32.0; /* as hydro_heights_smith */
            e *= e, e *= e, e *= e, e *= e, e *= e;
            height[first + k] = (float)(scratch->wy[k] - (mean + ((double)scratch->surface[k] - mean) * e));
        }
    } else {
        for (uint32_t k = 0; k < count; k++) height[first + k] = (float)(scratch->wy[k] - (double)scratch->surface[k]);
    }
    return approximate;
}

static inline nv_vec3 hydro_lerp(nv_vec3 a, nv_vec3 b, double t) { return v3_madd(a, v3_sub(b, a), t); }

/* Appends a submerged piece (corners wound like the parent, with their
 * depths). */
static void hydro_cut_piece(hydro_cut* out, nv_vec3 a, nv_vec3 b, nv_vec3 c, double da, double db, double dc) {
    hydro_piece* k = &out->pieces[out->piece_count++];
    k->p[0] = a, k->p[1] = b, k->p[2] = c;
    k->depth[0] = da, k->depth[1] = db, k->depth[2] = dc;
}

/* Cuts by rotating the corners cyclically (which keeps the winding) so that
 * the odd one out comes first: the lone submerged corner, or the lone dry
 * one. Every denominator is a depth plus a non-negative height, so it is
 * positive: a corner exactly at h = 0 counts as dry and never drops the
 * triangle, and the cut stays continuous in the heights. The same cut as
 * the hydrostatic kernel's weights (hydro_statics_kernel.h), as pieces in
 * double: for tools, tests and the waterline segments. */
void hydro_cut_triangle(const nv_vec3 p[3], const double h[3], hydro_cut* out) {
    out->piece_count = 0;
    out->has_segment = 0;
    out->area_fraction = 0.0;
    int under = (h[0] < 0.0) + (h[1] < 0.0) + (h[2] < 0.0);
    if (under == 0) return;
    if (under == 3) {
        hydro_cut_piece(out, p[0], p[1], p[2], -h[0], -h[1], -h[2]);
        out->area_fraction = 1.0;
        return;
    }
    int odd = 0;
    if (under == 1) {
        odd = h[0] < 0.0 ? 0 : (h[1] < 0.0 ? 1 : 2);
    } else {
        odd = h[0] >= 0.0 ? 0 : (h[1] >= 0.0 ? 1 : 2);
    }
    int ia = (odd + 1) % 3, ib = (odd + 2) % 3;
    nv_vec3 o = p[odd], a = p[ia], b = p[ib];
    double ho = h[odd], ha = h[ia], hb = h[ib];
    out->has_segment = 1;
    if (under == 1) {
        /* Lone submerged corner o: the piece is the small triangle at o. */
        double d = -ho;
        double ta = d / (d + ha), tb = d / (d + hb);
        nv_vec3 ja = hydro_lerp(o, a, ta), jb = hydro_lerp(o, b, tb);
        hydro_cut_piece(out, o, ja, jb, d, 0.0, 0.0);
        out->segment[0] = ja;
        out->segment[1] = jb;
        out->area_fraction = ta * tb;
        return;
    }
    /* Lone dry corner o: the submerged quad a, b, I_b, I_a. */
    double da = -ha, db = -hb;
    double ta = da / (da + ho), tb = db / (db + ho);
    nv_vec3 ia_pt = hydro_lerp(a, o, ta), ib_pt = hydro_lerp(b, o, tb);
    hydro_cut_piece(out, a, b, ib_pt, da, db, 0.0);
    hydro_cut_piece(out, a, ib_pt, ia_pt, da, 0.0, 0.0);
    out->segment[0] = ib_pt;
    out->segment[1] = ia_pt;
    out->area_fraction = 1.0 - (1.0 - ta) * (1.0 - tb);
}

/* Triangles per run of the kernels: the hydrostatic kernel marks a run's
 * triangles wet or dry, then the force kernel takes the same run from the
 * hull's tables (kept in L1 between the two). A multiple of
 * HYDRODYN_LANES. */
#define HYDRO_CHUNK 256
_Static_assert(HULL_GROUP == HYDRODYN_LANES, "the hull's groups are the kernels' lanes");
_Static_assert(HYDRO_CHUNK % HULL_GROUP == 0, "runs of whole groups");

/* Where triangles [first, end) cross the surface, for tools and tests:
 * the cut of hydro_cut_triangle, in double, from the same heights. */
static uint32_t hydro_write_segments(const nv_hull* h, const float* height, uint32_t first, uint32_t end,
                                     hydro_segment* segments, uint32_t n) {
    for (uint32_t t = first; t < end; t++) {
        const uint32_t* tri = h->triangles + 3 * (size_t)t;
        int under = 0;
        for (int i = 0; i < 3; i++) under += height[tri[i]] < 0.0f;
        if (under == 0 || under == 3 || isnan(height[tri[0]] + height[tri[1]] + height[tri[2]])) continue;
        nv_vec3 p[3];
        double hh[3];
        for (int i = 0; i < 3; i++) {
            p[i] = v3(h->vx[tri[i]], h->vy[tri[i]], h->vz[tri[i]]);
            hh[i] = height[tri[i]];
        }
        hydro_cut c;
        hydro_cut_triangle(p, hh, &c);
        hydro_segment* sg = &segments[n++];
        sg->a[0] = (float)c.segment[0].x, sg->a[1] = (float)c.segment[0].y, sg->a[2] = (float)c.segment[0].z;
        sg->b[0] = (float)c.segment[1].x, sg->b[1] = (float)c.segment[1].y, sg->b[2] = (float)c.segment[1].z;
    }
    return n;
}

void hydro_triangle_pass(const nv_hull* h, const float* height, uint32_t first, uint32_t count,
                         double pressure_per_depth, const nv_hydrodyn_frame* dyn, uint16_t* slam_state, hydro_sums* acc,
                         hydro_segment* segments) {
    /* Hydrostatics in geometric units (m^3, m^4), body frame, from the
     * kernel's lanes; rho g is applied once at the end. Moving water and
     * air: the force kernel takes each run as the hydrostatic one marked
     * it. */
    assert(first % HULL_GROUP == 0);
    const hydrodyn_kernels* kern = kernels_active()->hydrodyn;
    hydro_statics_sums statics;
    hydro_statics_sums_clear(&statics);
    hydrodyn_lane_frame lf;
    _Alignas(64) hydrodyn_lane_sums lane_sums;
    int marking = 0;
    uint16_t* slam = NULL;
    if (dyn) {
        hydrodyn_lane_frame_init(&lf, dyn);
        lf.keel = h->bounds_min[1];
        marking = hydrodyn_lane_frame_wet(&lf) || lf.air_drag;
        slam = lf.slamming ? slam_state : NULL;
        hydrodyn_lane_sums_clear(&lane_sums);
    }
    /* on cache lines: the kernels load eight floats at a time, and the
     * main thread's stack is aligned only to 16 bytes, differently in each
     * process (one run in several split every other load) */
    _Alignas(64) float wet[HYDRO_CHUNK];
    _Alignas(64) float b1[HYDRO_CHUNK];
    _Alignas(64) float b2[HYDRO_CHUNK];
    uint32_t seg_n = acc->segment_count;
    const uint32_t end = first + count;
    for (uint32_t chunk = first; chunk < end; chunk += HYDRO_CHUNK) {
        const uint32_t chunk_end = end - chunk < HYDRO_CHUNK ? end : chunk + HYDRO_CHUNK;
        hydro_statics_span ss = {.height = height, .wet = wet, .b1 = b1, .b2 = b2, .count = chunk_end - chunk};
        ss.entry_frame = dyn && lf.entry ? &lf : NULL, ss.entry_sums = &lane_sums;
        ss.corners = hull_corner_block(h, chunk);
        ss.lanes = hull_lane_block(h, chunk);
        kern->statics(&ss, &statics);
        if (marking) {
            const uint32_t lanes = (ss.count + HYDRODYN_LANES - 1) & ~(uint32_t)(HYDRODYN_LANES - 1);
            hydrodyn_span sp = {.wet = wet, .b1 = b1, .b2 = b2, .slam = slam ? slam + chunk : NULL, .count = lanes};
            sp.lanes = ss.lanes;
            kern->span(&lf, &sp, &lane_sums);
        }
        if (segments) seg_n = hydro_write_segments(h, height, chunk, chunk_end, segments, seg_n);
    }
    nv_vec3 dyn_f = v3(0, 0, 0), dyn_t = v3(0, 0, 0), slam_f = v3(0, 0, 0), slam_t = v3(0, 0, 0);
    nv_vec3 entry_f = v3(0, 0, 0), entry_t = v3(0, 0, 0), drag_f = v3(0, 0, 0), drag_t = v3(0, 0, 0);
    if (marking) {
        double r[HYDRODYN_SUM_COUNT];
        hydrodyn_lane_sums_reduce(&lane_sums, r);
        dyn_f = v3(r[HYDRODYN_SUM_FORCE], r[HYDRODYN_SUM_FORCE + 1], r[HYDRODYN_SUM_FORCE + 2]);
        dyn_t = v3(r[HYDRODYN_SUM_TORQUE], r[HYDRODYN_SUM_TORQUE + 1], r[HYDRODYN_SUM_TORQUE + 2]);
        drag_f = dyn_f, drag_t = dyn_t;
        slam_f = v3(r[HYDRODYN_SUM_SLAM_FORCE], r[HYDRODYN_SUM_SLAM_FORCE + 1], r[HYDRODYN_SUM_SLAM_FORCE + 2]);
        slam_t = v3(r[HYDRODYN_SUM_SLAM_TORQUE], r[HYDRODYN_SUM_SLAM_TORQUE + 1], r[HYDRODYN_SUM_SLAM_TORQUE + 2]);
        entry_f = v3(r[HYDRODYN_SUM_ENTRY_FORCE], r[HYDRODYN_SUM_ENTRY_FORCE + 1], r[HYDRODYN_SUM_ENTRY_FORCE + 2]);
        entry_t = v3(r[HYDRODYN_SUM_ENTRY_TORQUE], r[HYDRODYN_SUM_ENTRY_TORQUE + 1], r[HYDRODYN_SUM_ENTRY_TORQUE + 2]);
        double air_an = r[HYDRODYN_SUM_AIR_AN];
        if (lf.air_drag && air_an > 0.0) {
            /* -1/2 rho_air C A (v.n) v on each dry triangle facing the
             * relative wind, with v the CG's (air speeds dwarf what
             * rotation adds): one force and torque per block */
            nv_vec3 air_c = v3(r[HYDRODYN_SUM_AIR_C], r[HYDRODYN_SUM_AIR_C + 1], r[HYDRODYN_SUM_AIR_C + 2]);
            double k = -dyn->half_rho_air_c;
            dyn_f = v3_madd(dyn_f, dyn->air_velocity, k * air_an);
            dyn_t = v3_add(dyn_t, v3_cross(air_c, v3_scale(dyn->air_velocity, k)));
        }
    }
    /* the lanes added in one fixed order */
    double total[HYDRO_SUM_COUNT];
    for (int k = 0; k < HYDRO_SUM_COUNT; k++) {
        const double* l = statics.lane[k];
        total[k] = ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
    }
    nv_vec3 force = v3_scale(v3(total[HYDRO_SUM_FORCE], total[HYDRO_SUM_FORCE + 1], total[HYDRO_SUM_FORCE + 2]),
                             -1.0 / 3.0);
    nv_vec3 torque = v3_scale(
        v3(total[HYDRO_SUM_TORQUE], total[HYDRO_SUM_TORQUE + 1], total[HYDRO_SUM_TORQUE + 2]), 1.0 / 12.0);
    force = v3_madd(dyn_f, force, pressure_per_depth);
    torque = v3_madd(dyn_t, torque, pressure_per_depth);
    if (statics.poisoned) {
        /* Non-finite heights (bad water, a vessel gone to infinity) make the
         * sums NaN so the owner sees it and contains the vessel. */
        force = v3(NAN, NAN, NAN);
        torque = force;
    }
    acc->force = v3_add(acc->force, force);
    acc->torque = v3_add(acc->torque, torque);
    acc->slam_force = v3_add(acc->slam_force, slam_f);
    acc->slam_torque = v3_add(acc->slam_torque, slam_t);
    acc->entry_force = v3_add(acc->entry_force, entry_f);
    acc->entry_torque = v3_add(acc->entry_torque, entry_t);
    acc->drag_force = v3_add(acc->drag_force, drag_f);
    acc->drag_torque = v3_add(acc->drag_torque, drag_t);
    acc->submerged_area += total[HYDRO_SUM_AREA];
    acc->wetted_triangles += statics.wetted;
    acc->segment_count = seg_n;
}

void hydro_sums_to_world(hydro_sums* s, const nv_mat3* rotation) {
    s->force = m3_mul_v3(rotation, s->force);
    s->torque = m3_mul_v3(rotation, s->torque);
    s->slam_force = m3_mul_v3(rotation, s->slam_force);
    s->slam_torque = m3_mul_v3(rotation, s->slam_torque);
    s->entry_force = m3_mul_v3(rotation, s->entry_force);
    s->entry_torque = m3_mul_v3(rotation, s->entry_torque);
}
