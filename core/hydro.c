// SPDX-License-Identifier: MIT
#include "hydro.h"

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
 * (x > -2), plain multiplies that vectorise and round alike everywhere. */
static void hydro_heights_smith(uint32_t n, float y, const float* restrict oy, const float* restrict surface, float k,
                                float mean, float* restrict out) {
    for (uint32_t i = 0; i < n; i++) {
        float yv = y + oy[i];
        float below = yv - mean < 0.0f ? yv - mean : 0.0f;
        float x = k * below;
        x = x > -32.0f ? x : -32.0f;
        float e = 1.0f + x * (1.0f / 32.0f);
        e *= e, e *= e, e *= e, e *= e, e *= e;
        out[i] = yv - (mean + (surface[i] - mean) * e);
    }
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

/* Receives each submerged piece (corners wound like the parent, with their
 * depths). Always inlined with a known sink, so the pieces never go through
 * memory: the hot path accumulates them where they are computed. */
typedef void (*hydro_piece_sink)(void* ctx, nv_vec3 a, nv_vec3 b, nv_vec3 c, double da, double db, double dc);

/* Cuts by rotating the corners cyclically (which keeps the winding) so that
 * the odd one out comes first: the lone submerged corner, or the lone dry
 * one. Every denominator is a depth plus a non-negative height, so it is
 * positive: a corner exactly at h = 0 counts as dry and never drops the
 * triangle, and the cut stays continuous in the heights. Returns the
 * submerged area fraction; `segment` gets the waterline crossing (when the
 * triangle crosses) and *crosses says whether it does. */
__attribute__((always_inline)) static inline double hydro_cut_emit(const nv_vec3 p[3], const double h[3],
                                                                   hydro_piece_sink sink, void* ctx, nv_vec3 segment[2],
                                                                   int* crosses) {
    int under = (h[0] < 0.0) + (h[1] < 0.0) + (h[2] < 0.0);
    *crosses = 0;
    if (under == 0) return 0.0;
    if (under == 3) {
        sink(ctx, p[0], p[1], p[2], -h[0], -h[1], -h[2]);
        return 1.0;
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
    *crosses = 1;
    if (under == 1) {
        /* Lone submerged corner o: the piece is the small triangle at o. */
        double d = -ho;
        double ta = d / (d + ha), tb = d / (d + hb);
        nv_vec3 ja = hydro_lerp(o, a, ta), jb = hydro_lerp(o, b, tb);
        sink(ctx, o, ja, jb, d, 0.0, 0.0);
        segment[0] = ja;
        segment[1] = jb;
        return ta * tb;
    }
    /* Lone dry corner o: the submerged quad a, b, I_b, I_a. */
    double da = -ha, db = -hb;
    double ta = da / (da + ho), tb = db / (db + ho);
    nv_vec3 ia_pt = hydro_lerp(a, o, ta), ib_pt = hydro_lerp(b, o, tb);
    sink(ctx, a, b, ib_pt, da, db, 0.0);
    sink(ctx, a, ib_pt, ia_pt, da, 0.0, 0.0);
    segment[0] = ib_pt;
    segment[1] = ia_pt;
    return 1.0 - (1.0 - ta) * (1.0 - tb);
}

static inline void hydro_store_piece(void* ctx, nv_vec3 a, nv_vec3 b, nv_vec3 c, double da, double db, double dc) {
    hydro_cut* out = ctx;
    hydro_piece* k = &out->pieces[out->piece_count++];
    k->p[0] = a, k->p[1] = b, k->p[2] = c;
    k->depth[0] = da, k->depth[1] = db, k->depth[2] = dc;
}

void hydro_cut_triangle(const nv_vec3 p[3], const double h[3], hydro_cut* out) {
    out->piece_count = 0;
    out->area_fraction = hydro_cut_emit(p, h, hydro_store_piece, out, out->segment, &out->has_segment);
}

/* A cut triangle's pressure, as weights on its own corners. Each piece of
 * the cut lies in the triangle's plane with the same winding, so its
 * area-weighted normal is (its area fraction) N, and each of its corners is
 * a fixed mix of the triangle's corners (a corner, or a point on an edge at
 * the crossing). The piece's first moment of pressure then becomes a mix of
 * the hull's precomputed N x r_i: no cross product, no vertex position.
 * With the triangle's corners rotated so the odd one o comes first (o, a, b)
 * as in hydro_cut_emit:
 *   one corner wet:  piece (o, J_a, J_b), J = o + t (x - o), t = d / (d + h)
 *   two corners wet: pieces (a, b, I_b) and (a, I_b, I_a), I = x + t (o - x)
 * `force` multiplies N (the full triangle's sum d), `moment[i]` N x r_i (the
 * full triangle's d_i + sum d), `centroid[i]` the corners' positions. */
typedef struct hydro_cut_weights {
    double force;
    double moment[3];
    double fraction;    /* submerged area / triangle area */
    double centroid[3]; /* barycentric weights of the submerged part's centroid, times 3 fraction */
    int odd;
    double ta, tb;      /* the crossings, as in hydro_cut_emit */
} hydro_cut_weights;

static inline void hydro_cut_weigh(const double h[3], hydro_cut_weights* w) {
    int under = (h[0] < 0.0) + (h[1] < 0.0) + (h[2] < 0.0);
    int odd = under == 1 ? (h[0] < 0.0 ? 0 : (h[1] < 0.0 ? 1 : 2)) : (h[0] >= 0.0 ? 0 : (h[1] >= 0.0 ? 1 : 2));
    double ho = h[odd], ha = h[(odd + 1) % 3], hb = h[(odd + 2) % 3];
    double mo, ma, mb, co, ca, cb;
    if (under == 1) {
        double d = -ho, ta = d / (d + ha), tb = d / (d + hb), f = ta * tb;
        w->force = f * d;
        mo = f * d * (4.0 - ta - tb);
        ma = f * d * ta;
        mb = f * d * tb;
        w->fraction = f;
        co = f * (3.0 - ta - tb);
        ca = f * ta;
        cb = f * tb;
        w->ta = ta, w->tb = tb;
    } else {
        double da = -ha, db = -hb, ta = da / (da + ho), tb = db / (db + ho);
        double f1 = tb, f2 = ta * (1.0 - tb), s1 = da + db;
        w->force = f1 * s1 + f2 * da;
        ma = f1 * (da + s1) + f2 * da * (3.0 - ta);
        mb = f1 * (db + s1 + s1 * (1.0 - tb)) + f2 * da * (1.0 - tb);
        mo = f1 * s1 * tb + f2 * da * (ta + tb);
        w->fraction = f1 + f2;
        /* unnormalised: the kernel divides by 3 fraction, eight at a time */
        ca = f1 + f2 * (2.0 - ta);
        cb = f1 * (2.0 - tb) + f2 * (1.0 - tb);
        co = f1 * tb + f2 * (ta + tb);
        w->ta = ta, w->tb = tb;
    }
    w->odd = odd;
    /* back to the triangle's corner order, by value: indexed stores into the
     * arrays stall the loads that follow (store forwarding) */
    switch (odd) {
    case 0:
        w->moment[0] = mo, w->moment[1] = ma, w->moment[2] = mb;
        w->centroid[0] = co, w->centroid[1] = ca, w->centroid[2] = cb;
        break;
    case 1:
        w->moment[0] = mb, w->moment[1] = mo, w->moment[2] = ma;
        w->centroid[0] = cb, w->centroid[1] = co, w->centroid[2] = ca;
        break;
    default:
        w->moment[0] = ma, w->moment[1] = mb, w->moment[2] = mo;
        w->centroid[0] = ca, w->centroid[1] = cb, w->centroid[2] = co;
        break;
    }
}

/* Triangles per run of the force kernels: the pass marks a run's
 * triangles wet or dry, then the kernels take the whole run from the hull's
 * tables (kept in L1 between the two). A multiple of HYDRODYN_LANES. */
#define HYDRO_CHUNK 256

void hydro_triangle_pass(const nv_hull* h, const float* height, uint32_t first, uint32_t count,
                         double pressure_per_depth, const nv_hydrodyn_frame* dyn, uint16_t* slam_state, hydro_sums* acc,
                         hydro_segment* segments) {
    const float *vx = h->vx, *vy = h->vy, *vz = h->vz;
    /* Sums in geometric units (m^3, m^4), body frame; rho g is applied once
     * at the end. A fully submerged triangle is linear in its depths: with
     * s = d0 + d1 + d2 its force is -N s / 3 and its moment
     * sum_i (d_i + s) (N x r_i) / 12, from the hull's precomputed N and
     * N x r_i; a cut triangle is the same sums with the weights of
     * hydro_cut_weigh. Kept unscaled until the end. */
    double full_f[3] = {0, 0, 0}, full_t[3] = {0, 0, 0};
    /* Moving water and air: the pass marks each run of triangles wet (with
     * a cut one's wet fraction and centroid shift) or dry, and the kernels
     * take the run from the hull's tables. */
    const hydrodyn_kernels* kern = NULL;
    hydrodyn_lane_frame lf;
    _Alignas(64) hydrodyn_lane_sums lane_sums;
    int marking = 0;
    uint16_t* slam = NULL;
    if (dyn) {
        hydrodyn_lane_frame_init(&lf, dyn);
        marking = hydrodyn_lane_frame_wet(&lf) || lf.air_drag;
        slam = lf.slamming ? slam_state : NULL;
        kern = kernels_active()->hydrodyn;
        hydrodyn_lane_sums_clear(&lane_sums);
    }
    /* on cache lines: the kernels load eight floats at a time, and the
     * main thread's stack is aligned only to 16 bytes, differently in each
     * process (one run in several split every other load) */
    _Alignas(64) float wet[HYDRO_CHUNK];
    _Alignas(64) float b1[HYDRO_CHUNK];
    _Alignas(64) float b2[HYDRO_CHUNK];
    /* The kernels read a cut lane's weights only (the rest are masked
     * off), so these are cleared once per call, not per chunk: a lane's
     * stale weights from an earlier chunk are finite and never used. */
    if (dyn) {
        memset(b1, 0, sizeof b1);
        memset(b2, 0, sizeof b2);
    }
    double area = 0.0;
    uint32_t wetted = 0, seg_n = acc->segment_count;
    int poisoned = 0;
    const uint32_t* tris = h->triangles;
    const uint32_t end = first + count;
    for (uint32_t chunk = first; chunk < end; chunk += HYDRO_CHUNK) {
        const uint32_t chunk_end = end - chunk < HYDRO_CHUNK ? end : chunk + HYDRO_CHUNK;
        const uint32_t lanes = (chunk_end - chunk + HYDRODYN_LANES - 1) & ~(uint32_t)(HYDRODYN_LANES - 1);
        if (marking) {
            /* every triangle dry until the loop says otherwise (most are,
             * and this fill is a few vector stores); whole lanes: the tail
             * marked neither (the hull's tables and the slamming memory are
             * padded for it) */
            for (uint32_t i = 0; i < lanes; i++) wet[i] = -1.0f;
            for (uint32_t i = chunk_end - chunk; i < lanes; i++) wet[i] = 0.0f;
        }
        for (uint32_t t = chunk; t < chunk_end; t++) {
            uint32_t i0 = tris[3 * t], i1 = tris[3 * t + 1], i2 = tris[3 * t + 2];
            float h0 = height[i0], h1 = height[i1], h2 = height[i2];
            const float* row = h->triangle_table + (size_t)HULL_TRIANGLE_STRIDE * t;
            if (h0 >= 0.0f && h1 >= 0.0f && h2 >= 0.0f) continue; /* dry: the common case, kept cheap */
            if (h0 < 0.0f && h1 < 0.0f && h2 < 0.0f) {
                const float* k = row + HULL_TRI_NORMAL;
                double d0 = -(double)h0, d1 = -(double)h1, d2 = -(double)h2;
                double a = row[HULL_TRI_AREA];
                double s = d0 + d1 + d2, w0 = d0 + s, w1 = d1 + s, w2 = d2 + s, as = a * s;
                for (int i = 0; i < 3; i++) {
                    full_f[i] += k[i] * as;
                    full_t[i] += (w0 * k[3 + i] + w1 * k[6 + i]) + w2 * k[9 + i];
                }
                wetted++;
                area += a;
                if (marking) wet[t - chunk] = 1.0f;
                continue;
            }
            if (isnan(h0 + h1 + h2)) {
                /* A NaN compares as neither wet nor dry: never guess. */
                if (marking) wet[t - chunk] = 0.0f;
                poisoned = 1;
                continue;
            }
            double hh[3] = {h0, h1, h2};
            hydro_cut_weights cw;
            hydro_cut_weigh(hh, &cw);
            const float* k = row + HULL_TRI_NORMAL;
            double a = row[HULL_TRI_AREA], af = a * cw.force;
            for (int i = 0; i < 3; i++) {
                full_f[i] += k[i] * af;
                full_t[i] += (cw.moment[0] * k[3 + i] + cw.moment[1] * k[6 + i]) + cw.moment[2] * k[9 + i];
            }
            wetted++;
            area += cw.fraction * a;
            if (marking) {
                if (cw.fraction > 0.0) {
                    /* the wet part's centroid, as barycentric weights */
                    uint32_t j = t - chunk;
                    wet[j] = (float)cw.fraction;
                    b1[j] = (float)cw.centroid[1];
                    b2[j] = (float)cw.centroid[2];
                } /* else a wet area that rounds to none: left dry */
            }
            if (segments) {
                /* where the triangle crosses the surface, for tools and tests */
                const uint32_t idx[3] = {i0, i1, i2};
                uint32_t o = idx[cw.odd], ca = idx[(cw.odd + 1) % 3], cb = idx[(cw.odd + 2) % 3];
                nv_vec3 po = v3(vx[o], vy[o], vz[o]), pa = v3(vx[ca], vy[ca], vz[ca]), pb = v3(vx[cb], vy[cb], vz[cb]);
                nv_vec3 s0, s1;
                if ((hh[cw.odd] < 0.0)) { /* one corner wet: J_a, J_b */
                    s0 = hydro_lerp(po, pa, cw.ta);
                    s1 = hydro_lerp(po, pb, cw.tb);
                } else { /* I_b, I_a */
                    s0 = hydro_lerp(pb, po, cw.tb);
                    s1 = hydro_lerp(pa, po, cw.ta);
                }
                hydro_segment* sg = &segments[seg_n++];
                sg->a[0] = (float)s0.x, sg->a[1] = (float)s0.y, sg->a[2] = (float)s0.z;
                sg->b[0] = (float)s1.x, sg->b[1] = (float)s1.y, sg->b[2] = (float)s1.z;
            }
        }
        if (marking) {
            hydrodyn_span sp = {.wet = wet, .b1 = b1, .b2 = b2, .slam = slam ? slam + chunk : NULL, .count = lanes};
            for (int c = 0; c < HULL_LANE_COLUMNS; c++) sp.column[c] = hull_lane(h, c) + chunk;
            kern->span(&lf, &sp, &lane_sums);
        }
    }
    nv_vec3 dyn_f = v3(0, 0, 0), dyn_t = v3(0, 0, 0), slam_f = v3(0, 0, 0), slam_t = v3(0, 0, 0);
    if (marking) {
        double r[HYDRODYN_SUM_COUNT];
        hydrodyn_lane_sums_reduce(&lane_sums, r);
        dyn_f = v3(r[HYDRODYN_SUM_FORCE], r[HYDRODYN_SUM_FORCE + 1], r[HYDRODYN_SUM_FORCE + 2]);
        dyn_t = v3(r[HYDRODYN_SUM_TORQUE], r[HYDRODYN_SUM_TORQUE + 1], r[HYDRODYN_SUM_TORQUE + 2]);
        slam_f = v3(r[HYDRODYN_SUM_SLAM_FORCE], r[HYDRODYN_SUM_SLAM_FORCE + 1], r[HYDRODYN_SUM_SLAM_FORCE + 2]);
        slam_t = v3(r[HYDRODYN_SUM_SLAM_TORQUE], r[HYDRODYN_SUM_SLAM_TORQUE + 1], r[HYDRODYN_SUM_SLAM_TORQUE + 2]);
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
    nv_vec3 force = v3_scale(v3(full_f[0], full_f[1], full_f[2]), -1.0 / 3.0);
    nv_vec3 torque = v3_scale(v3(full_t[0], full_t[1], full_t[2]), 1.0 / 12.0);
    force = v3_madd(dyn_f, force, pressure_per_depth);
    torque = v3_madd(dyn_t, torque, pressure_per_depth);
    if (poisoned) {
        /* Non-finite heights (bad water, a vessel gone to infinity) make the
         * sums NaN so the owner sees it and contains the vessel. */
        force = v3(NAN, NAN, NAN);
        torque = force;
    }
    acc->force = v3_add(acc->force, force);
    acc->torque = v3_add(acc->torque, torque);
    acc->slam_force = v3_add(acc->slam_force, slam_f);
    acc->slam_torque = v3_add(acc->slam_torque, slam_t);
    acc->submerged_area += area;
    acc->wetted_triangles += wetted;
    acc->segment_count = seg_n;
}

void hydro_sums_to_world(hydro_sums* s, const nv_mat3* rotation) {
    s->force = m3_mul_v3(rotation, s->force);
    s->torque = m3_mul_v3(rotation, s->torque);
    s->slam_force = m3_mul_v3(rotation, s->slam_force);
    s->slam_torque = m3_mul_v3(rotation, s->slam_torque);
}
