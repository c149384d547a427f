// SPDX-License-Identifier: MIT
/* The moving-water and air forces of a hull's triangles, eight at a time
 * (float lanes). The triangle pass marks a run of triangles wet (with the
 * wet fraction and centroid of a cut one), dry or neither, and the kernel
 * takes the run straight from the hull's tables: no copying, no gathering.
 * Per part the arithmetic is that of hydrodyn.h, with x^f from a polynomial
 * exp2(f log2 x) instead of pow where f is not 1/2, 1 or 2.
 *
 * Two builds of the same kernel: AVX2 (one 8-lane register) where the CPU
 * has it, SSE2 (two 4-lane registers) everywhere else. They give the same
 * bits, so a replay recorded on one machine checks on another. */
#ifndef NAVAL_HYDRODYN_LANES_H
#define NAVAL_HYDRODYN_LANES_H

#include <stdint.h>

#include "naval/hull.h"
#include "hull_layout.h"
#include "naval/hydrodyn.h"
#include "naval/simd.h"

#define HYDRODYN_LANES 8

enum { HYDRODYN_POW_HALF, HYDRODYN_POW_ONE, HYDRODYN_POW_TWO, HYDRODYN_POW_ANY };

/* A vessel's step constants in float, as every lane takes them. */
typedef struct hydrodyn_lane_frame {
    float v[3], w[3]; /* the CG's velocity relative to the water, angular velocity (body frame) */
    float air[3];     /* the CG's velocity relative to the air */
    float half_cf;
    float p1, p2, s1, s2; /* pressure and suction per |v| and |v|^2: C_PD1 / v_r, C_PD2 / v_r^2, ... */
    float fp, fs, slam_p, slam_scale, rate;
    /* the water entry: the world's vertical (body frame), the keel line's
     * height, pi rho / 2, g and 1 / sin^2 of the least deadrise */
    float up[3], keel, entry_k, gravity, entry_max_inv_sin2;
    int viscous, pressure, slamming, air_drag, entry, falloff_kind, slam_kind;
} hydrodyn_lane_frame;

void hydrodyn_lane_frame_init(hydrodyn_lane_frame* lf, const nv_hydrodyn_frame* f);
/* Whether the frame has any force for wet parts (else only air drag). */
static inline int hydrodyn_lane_frame_wet(const hydrodyn_lane_frame* lf) {
    return lf->viscous || lf->pressure || lf->slamming || lf->entry;
}

/* Running sums per lane, added over a block's spans and
 * reduced once, in a fixed order: the same total whatever ran them. */
enum {
    HYDRODYN_SUM_FORCE = 0,  /* x, y, z: friction and pressure */
    HYDRODYN_SUM_TORQUE = 3, /* about the CG */
    HYDRODYN_SUM_SLAM_FORCE = 6,
    HYDRODYN_SUM_SLAM_TORQUE = 9,
    HYDRODYN_SUM_AIR_AN = 12, /* sum of A (v_air . n) over dry triangles facing the wind */
    HYDRODYN_SUM_AIR_C = 13,  /* x, y, z: the same weights times the centroids */
    HYDRODYN_SUM_ENTRY_FORCE = 16, /* the water entry, apart (capped where it acts) */
    HYDRODYN_SUM_ENTRY_TORQUE = 19,
    HYDRODYN_SUM_COUNT = 22 /* even: reduced two at a time */
};

typedef struct hydrodyn_lane_sums {
    float lane[HYDRODYN_SUM_COUNT][HYDRODYN_LANES];
} hydrodyn_lane_sums;

void hydrodyn_lane_sums_clear(hydrodyn_lane_sums* s);
/* out[i] = the lanes of sum i added in one fixed order. */
void hydrodyn_lane_sums_reduce(const hydrodyn_lane_sums* s, double out[HYDRODYN_SUM_COUNT]);

/* Triangles [0, count) of a hull's tables (count a multiple of 8: the
 * tables are padded), as the triangle pass marked them in wet[]:
 *   > 0  under water: the wet fraction of the triangle's area (1 when all
 *        of it); a cut one's wet part has its centroid at the triangle's
 *        moved by b1' e1 + b2' e2, b' = b / (3 fraction) - 1/3 (b1, b2
 *        the barycentric weights of corners 1 and 2 times 3 fraction)
 *   < 0  dry: air drag, and its slamming memory forgets
 *   0    neither (poisoned, padding): skipped, its memory kept
 * slam: the triangles' memory (half floats), NULL when the type keeps none. */
typedef struct hydrodyn_span {
    const float* lanes; /* the hull's (hull_lane_block), from the run's first group */
    const float *wet, *b1, *b2;
    uint16_t* slam;
    uint32_t count;
} hydrodyn_span;

/* Kerner's hydrostatic pressure on a run of triangles, eight at a time
 * (hydro_statics_kernel.h): from the vessel's vertex heights (< 0 under
 * water) each triangle is dry, wholly under or cut at the waterline, and
 * its pressure force and moment are weights on the hull's columns. The run
 * is also marked for hydrodyn_span: wet[], b1[] and b2[] get whole lanes
 * (count rounded up to 8; lanes past count are marked neither). */
typedef struct hydro_statics_span {
    const int32_t* corners; /* hull_corner_block, from the run's first group */
    const float* lanes;     /* hull_lane_block, likewise */
    const float* height;                    /* the vessel's vertex heights */
    float *wet, *b1, *b2;
    /* the water entry (hs_entry), at the cut lanes: the vessel's frame
     * (NULL: none) and the sums its force and moment go to */
    const hydrodyn_lane_frame* entry_frame;
    hydrodyn_lane_sums* entry_sums;
    uint32_t count;
} hydro_statics_span;

/* Geometric sums per lane, body frame, before rho g: sum A F n (force
 * times -3), sum of the moment weights times N x r_i (torque times 12),
 * wet area. Each run's float lanes are added to these doubles once. */
enum { HYDRO_SUM_FORCE = 0, HYDRO_SUM_TORQUE = 3, HYDRO_SUM_AREA = 6, HYDRO_SUM_COUNT = 7 };
typedef struct hydro_statics_sums {
    double lane[HYDRO_SUM_COUNT][HYDRODYN_LANES];
    uint32_t wetted;  /* triangles with a submerged part */
    int poisoned;     /* a NaN height was met */
} hydro_statics_sums;

void hydro_statics_sums_clear(hydro_statics_sums* s);

typedef struct hydrodyn_kernels {
    void (*statics)(const hydro_statics_span* sp, hydro_statics_sums* sums);
    void (*span)(const hydrodyn_lane_frame* f, const hydrodyn_span* sp, hydrodyn_lane_sums* sums);
    void (*half_encode)(const float in[8], uint16_t out[8]);
    void (*half_decode)(const uint16_t in[8], float out[8]);
    float (*pow_unit)(float x, float p);
} hydrodyn_kernels;

/* Builds of the kernels, one per level of simd.h; every build gives the
 * same bits (tests/test_hydrodyn_lanes.c). */
extern const hydrodyn_kernels hydrodyn_sse2_kernels;   /* every x86-64 CPU */
extern const hydrodyn_kernels hydrodyn_avx2_kernels;   /* AVX2 and F16C */
extern const hydrodyn_kernels hydrodyn_avx512_kernels; /* the AVX2 build with AVX-512VL's 32 registers */
/* Which build runs: kernels.h's table. */

/* One value's half-float slamming memory, the lanes' steps in scalar code. */
uint16_t hydrodyn_half_encode(float x);
float hydrodyn_half_decode(uint16_t h);
/* Whether h is a value the memory holds: a zero or a normal half (what
 * hydrodyn_half_encode makes). The builds read only those alike (F16C
 * gives subnormals, infinities and NaN their IEEE values), so a restored
 * memory must hold nothing else. */
int hydrodyn_half_is_canonical(uint16_t h);

/* x^p for x in [0, 1], p in (0, 10]: the lanes' approximation, to ~2e-6
 * relative (exposed for its test). */
float hydrodyn_pow_unit(float x, float p);

#endif
