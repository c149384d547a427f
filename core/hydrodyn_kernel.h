// SPDX-License-Identifier: MIT
/* The moving-water and air forces on eight triangles at a time, written
 * once on the lv_* lanes: hydrodyn_sse2.c and hydrodyn_avx2.c include it
 * after their lanes_*.h, and each defines HK_NAME to name its copy. Both
 * copies run the same float operations in the same order per lane, so they
 * give the same bits (tests/test_hydrodyn.c checks it).
 *
 * Per wet part (centroid c, unit normal n, wet area A, velocity of the
 * point v = V + w x c relative to the water):
 *   friction  -1/2 rho C_F A |v|^2 along the unit tangential flow
 *   pressure  -(C_PD1 r + C_PD2 r^2) A (cos)^f_P n facing the flow,
 *             +(C_SD1 r + C_SD2 r^2) A |cos|^f_S n facing away, r = |v|/v_r
 *   slamming  the stopping force m (2 A / S_total) v / dt ramped by
 *             (Gamma / Gamma_max)^p along -v, Gamma from the change of the
 *             part's swept rate s = (A / A_triangle) v.n since the last step
 *             (kept per triangle as a half float)
 * and per dry triangle facing the wind, A (v_air . n) for the air drag. */
#ifndef HK_NAME
#error "define HK_NAME and include a lanes_*.h first"
#endif

#define HK_LN2_INV 1.44269504f
#define HK_INLINE __attribute__((always_inline)) static inline

/* log2(x) for x > 0 normal: exponent from the bits, the mantissa m in
 * [1, 2) through 2/ln2 atanh((m - 1) / (m + 1)) to s^9. */
static inline fv hk_log2(fv x) {
    iv bits = lv_bits(x);
    iv e = iv_sub(iv_srli(bits, 23), iv_set(127));
    fv m = iv_bits(iv_or(iv_and(bits, iv_set(0x007fffff)), iv_set(0x3f800000)));
    fv s = lv_div(lv_sub(m, lv_set(1.0f)), lv_add(m, lv_set(1.0f)));
    fv s2 = lv_mul(s, s);
    fv poly = lv_add(lv_set(1.0f / 7.0f), lv_mul(s2, lv_set(1.0f / 9.0f)));
    poly = lv_add(lv_set(1.0f / 5.0f), lv_mul(s2, poly));
    poly = lv_add(lv_set(1.0f / 3.0f), lv_mul(s2, poly));
    poly = lv_add(lv_set(1.0f), lv_mul(s2, poly));
    return lv_add(iv_to_fv(e), lv_mul(lv_mul(s, poly), lv_set(2.0f * HK_LN2_INV)));
}

/* 2^y for y in [-126, 0]: 2^floor(y) from the bits, 2^f by its Taylor
 * series in f ln2 to the 7th power. */
static inline fv hk_exp2(fv y) {
    y = lv_max(y, lv_set(-126.0f));
    iv i = lv_trunc(y); /* toward zero: y <= 0, so ceil */
    fv fi = iv_to_fv(i);
    i = iv_add(i, lv_bits(lv_gt(fi, y))); /* -1 where truncation went up */
    fi = iv_to_fv(i);
    fv t = lv_mul(lv_sub(y, fi), lv_set(0.693147181f));
    fv p = lv_add(lv_set(1.0f / 720.0f), lv_mul(t, lv_set(1.0f / 5040.0f)));
    p = lv_add(lv_set(1.0f / 120.0f), lv_mul(t, p));
    p = lv_add(lv_set(1.0f / 24.0f), lv_mul(t, p));
    p = lv_add(lv_set(1.0f / 6.0f), lv_mul(t, p));
    p = lv_add(lv_set(0.5f), lv_mul(t, p));
    p = lv_add(lv_set(1.0f), lv_mul(t, p));
    p = lv_add(lv_set(1.0f), lv_mul(t, p));
    return lv_mul(p, iv_bits(iv_slli(iv_add(i, iv_set(127)), 23)));
}

/* x^p for x in [0, 1]; 0 for x <= 0 and denormal x. The defaults'
 * exponents (1/2, 1, 2) are a square root or a product. */
HK_INLINE fv hk_pow(fv x, int kind, fv p) {
    fv pos = lv_max(x, lv_set(0.0f));
    switch (kind) {
    case HYDRODYN_POW_HALF: return lv_sqrt(pos);
    case HYDRODYN_POW_ONE: return pos;
    case HYDRODYN_POW_TWO: return lv_mul(pos, pos);
    default: {
        fv ok = lv_gt(x, lv_set(1.17549435e-38f));
        fv safe = lv_sel(ok, x, lv_set(1.0f));
        return lv_and(ok, hk_exp2(lv_mul(p, hk_log2(safe))));
    }
    }
}

/* Slamming memory as IEEE half floats (memory per vessel): |x| < 2^-14
 * flushes to a zero of x's sign, |x| is clamped to 65504 (NaN to -65504),
 * rounding to nearest even: hydrodyn_half_encode's steps. The memory only
 * ever holds what this makes (nv_world_restore_vessel refuses anything else),
 * so every build (SSE2, AVX2, AVX-512) reads it back alike. */
HK_INLINE hv hk_half_encode(fv x) {
    x = lv_min(lv_max(x, lv_set(-65504.0f)), lv_set(65504.0f));
    fv sign = lv_set(-0.0f);
    fv normal = lv_gt(lv_andnot(sign, x), iv_bits(iv_set(0x387fffff))); /* >= 2^-14 */
    return lv_to_half(lv_and(lv_or(normal, sign), x));
}

typedef struct hk_consts {
    fv vx, vy, vz, wx, wy, wz;
    fv half_cf, p1, p2, s1, s2, fp, fs, slam_p, slam_scale, rate;
    fv ax, ay, az; /* the CG's velocity relative to the air */
} hk_consts;

/* Which forces and powers a span computes: hk_run is inlined with the
 * default model's as constants (no tests of them per group, the powers as a
 * square root and a product) and once with them read from the frame. */
typedef struct hk_mode {
    int viscous, pressure, slamming, air, falloff_kind, slam_kind;
} hk_mode;

static void hk_begin(const hydrodyn_lane_frame* f, hk_consts* k) {
    k->vx = lv_set(f->v[0]), k->vy = lv_set(f->v[1]), k->vz = lv_set(f->v[2]);
    k->wx = lv_set(f->w[0]), k->wy = lv_set(f->w[1]), k->wz = lv_set(f->w[2]);
    k->ax = lv_set(f->air[0]), k->ay = lv_set(f->air[1]), k->az = lv_set(f->air[2]);
    k->half_cf = lv_set(f->half_cf);
    k->p1 = lv_set(-f->p1), k->p2 = lv_set(-f->p2), k->s1 = lv_set(f->s1), k->s2 = lv_set(f->s2);
    k->fp = lv_set(f->fp), k->fs = lv_set(f->fs), k->slam_p = lv_set(f->slam_p);
    k->slam_scale = lv_set(f->slam_scale), k->rate = lv_set(f->rate);
}

/* Sums that only some groups touch (slamming, air) stay in memory: the
 * registers hold the friction and pressure sums and the constants. */
HK_INLINE void hk_add(float* sum, fv x) { lv_store(sum, lv_add(lv_load(sum), x)); }

/* The air drag of a group's dry lanes. */
HK_INLINE void hk_air(const hk_consts* k, hydrodyn_lane_sums* sums, fv dry, fv cx, fv cy, fv cz, fv nx, fv ny, fv nz,
                      fv area) {
    fv an = lv_mul(area, lv_add(lv_add(lv_mul(k->ax, nx), lv_mul(k->ay, ny)), lv_mul(k->az, nz)));
    an = lv_and(dry, lv_max(an, lv_set(0.0f)));
    hk_add(sums->lane[HYDRODYN_SUM_AIR_AN], an);
    hk_add(sums->lane[HYDRODYN_SUM_AIR_C], lv_mul(cx, an));
    hk_add(sums->lane[HYDRODYN_SUM_AIR_C + 1], lv_mul(cy, an));
    hk_add(sums->lane[HYDRODYN_SUM_AIR_C + 2], lv_mul(cz, an));
}

/* What the first phase of hk_run leaves per group for the second. */
enum {
    HK_PRE_CX, HK_PRE_CY, HK_PRE_CZ, HK_PRE_PX, HK_PRE_PY, HK_PRE_PZ, HK_PRE_V2, HK_PRE_VN,
    HK_PRE_SPEED, HK_PRE_KV, HK_PRE_COS, HK_PRE_FALLOFF, HK_PRE_COUNT
};
#define HK_PRE_GROUPS 32 /* groups per phase: 12 KiB of stack */

/* The first phase: per wet group, the wet part's centroid c (a cut one's
 * moved), p = v + w x c, and what needs the divider: |p|, 1/|p_t| (zero
 * where there is no tangential flow), cos = p.n / |p| and the pressure's
 * falloff |cos|^f. Apart from the second phase, its chain of two square
 * roots, a division and a third root overlaps across groups; in one loop
 * with the sums the out-of-order window held little more than one group
 * (2 % less time per triangle on Zen 3 this way). */
HK_INLINE void hk_prepare(const hk_consts* k, const hk_mode m, const hydrodyn_span* sp, uint32_t first, uint32_t end,
                          float (*pre)[HK_PRE_COUNT][8]) {
    const fv zero = lv_set(0.0f), one = lv_set(1.0f), tiny = lv_set(1e-12f);
    const float* blk = sp->lanes + (size_t)(first / HULL_GROUP) * HULL_LANE_BLOCK;
#define HK_COL(c) lv_load(blk + (c) * HULL_GROUP)
    for (uint32_t i = first; i < end; i += 8, blk += HULL_LANE_BLOCK, pre++) {
        fv frac = lv_load(sp->wet + i);
        fv wet = lv_gt(frac, zero);
        if (!lv_mask(wet)) continue;
        fv cx = HK_COL(HULL_LANE_CX), cy = HK_COL(HULL_LANE_CY), cz = HK_COL(HULL_LANE_CZ);
        fv cut = lv_and(wet, lv_gt(one, frac));
        if (lv_mask(cut)) {
            /* cut triangles: the wet part's centroid, its barycentric
             * weights b / (3 fraction) less the triangle centroid's 1/3 */
            fv inv = lv_div(lv_set(1.0f / 3.0f), lv_sel(cut, frac, one));
            fv third = lv_set(1.0f / 3.0f);
            fv b1 = lv_and(cut, lv_sub(lv_mul(lv_load(sp->b1 + i), inv), third));
            fv b2 = lv_and(cut, lv_sub(lv_mul(lv_load(sp->b2 + i), inv), third));
            cx = lv_add(cx, lv_add(lv_mul(b1, HK_COL(HULL_LANE_E1X)), lv_mul(b2, HK_COL(HULL_LANE_E2X))));
            cy = lv_add(cy, lv_add(lv_mul(b1, HK_COL(HULL_LANE_E1Y)), lv_mul(b2, HK_COL(HULL_LANE_E2Y))));
            cz = lv_add(cz, lv_add(lv_mul(b1, HK_COL(HULL_LANE_E1Z)), lv_mul(b2, HK_COL(HULL_LANE_E2Z))));
        }
        fv nx = HK_COL(HULL_LANE_NX), ny = HK_COL(HULL_LANE_NY), nz = HK_COL(HULL_LANE_NZ);
        fv px = lv_add(k->vx, lv_sub(lv_mul(k->wy, cz), lv_mul(k->wz, cy)));
        fv py = lv_add(k->vy, lv_sub(lv_mul(k->wz, cx), lv_mul(k->wx, cz)));
        fv pz = lv_add(k->vz, lv_sub(lv_mul(k->wx, cy), lv_mul(k->wy, cx)));
        fv v2 = lv_add(lv_add(lv_mul(px, px), lv_mul(py, py)), lv_mul(pz, pz));
        fv vn = lv_add(lv_add(lv_mul(px, nx), lv_mul(py, ny)), lv_mul(pz, nz));
        fv t2 = lv_sub(v2, lv_mul(vn, vn));
        fv moving = lv_gt(v2, tiny);
        fv speed = lv_sqrt(lv_max(v2, tiny)), tlen = lv_sqrt(lv_max(t2, tiny));
        fv q = lv_div(one, lv_mul(speed, tlen));
        fv cos_t = lv_and(moving, lv_mul(vn, lv_mul(tlen, q)));
        lv_store((*pre)[HK_PRE_CX], cx), lv_store((*pre)[HK_PRE_CY], cy), lv_store((*pre)[HK_PRE_CZ], cz);
        lv_store((*pre)[HK_PRE_PX], px), lv_store((*pre)[HK_PRE_PY], py), lv_store((*pre)[HK_PRE_PZ], pz);
        lv_store((*pre)[HK_PRE_V2], v2), lv_store((*pre)[HK_PRE_VN], vn);
        lv_store((*pre)[HK_PRE_SPEED], speed);
        lv_store((*pre)[HK_PRE_KV], lv_and(lv_gt(t2, tiny), lv_mul(speed, q)));
        lv_store((*pre)[HK_PRE_COS], cos_t);
        if (m.pressure) {
            fv abs_cos = lv_andnot(lv_set(-0.0f), cos_t);
            fv facing = lv_gt(cos_t, zero);
            lv_store((*pre)[HK_PRE_FALLOFF],
                     m.falloff_kind == HYDRODYN_POW_ANY ? hk_pow(abs_cos, HYDRODYN_POW_ANY, lv_sel(facing, k->fp, k->fs))
                                                        : hk_pow(abs_cos, m.falloff_kind, k->fp));
        }
    }
#undef HK_COL
}

/* A run of triangles from the hull's tables, as the triangle pass marked
 * them (hydrodyn_span), eight lanes a group, in two phases (hk_prepare,
 * then the forces and sums). Per wet lane (wet area A, centroid c,
 * normal n), with p = v + w x c:
 *   |p| and |p_t| as square roots clamped at 1e-6, 1/|p| and 1/|p_t| from
 *   one division; friction g = -k_F A |p|^2 p_t / |p_t|; pressure
 *   (c1 + c2 |p|) |p| A |cos|^f n, the coefficients with 1/v_r folded in. */
HK_INLINE void hk_run(const hk_consts* k, const hk_mode m, const hydrodyn_span* sp, hydrodyn_lane_sums* sums) {
    const fv zero = lv_set(0.0f), one = lv_set(1.0f);
    const float* blk = sp->lanes;
    const float* const wet_in = sp->wet;
    uint16_t* const slam_mem = sp->slam;
    const uint32_t count = sp->count;
    fv fx = lv_load(sums->lane[HYDRODYN_SUM_FORCE]), fy = lv_load(sums->lane[HYDRODYN_SUM_FORCE + 1]);
    fv fz = lv_load(sums->lane[HYDRODYN_SUM_FORCE + 2]), tx = lv_load(sums->lane[HYDRODYN_SUM_TORQUE]);
    fv ty = lv_load(sums->lane[HYDRODYN_SUM_TORQUE + 1]), tz = lv_load(sums->lane[HYDRODYN_SUM_TORQUE + 2]);
    const int water = m.viscous || m.pressure || m.slamming;
    _Alignas(32) float pre[HK_PRE_GROUPS][HK_PRE_COUNT][8];
#define HK_COL(c) lv_load(blk + (c) * HULL_GROUP)
    for (uint32_t first = 0; first < count; first += HK_PRE_GROUPS * 8) {
        const uint32_t end = count - first < HK_PRE_GROUPS * 8 ? count : first + HK_PRE_GROUPS * 8;
        if (water) hk_prepare(k, m, sp, first, end, pre);
        for (uint32_t i = first; i < end; i += 8, blk += HULL_LANE_BLOCK) {
            const float(*const g)[8] = pre[(i - first) / 8];
            fv frac = lv_load(wet_in + i);
            fv dry = lv_gt(zero, frac), wet = lv_gt(frac, zero);
            int dry_bits = lv_mask(dry), wet_bits = lv_mask(wet);
            if (m.air && dry_bits)
                hk_air(k, sums, dry, HK_COL(HULL_LANE_CX), HK_COL(HULL_LANE_CY), HK_COL(HULL_LANE_CZ),
                       HK_COL(HULL_LANE_NX), HK_COL(HULL_LANE_NY), HK_COL(HULL_LANE_NZ), HK_COL(HULL_LANE_AREA));
            if (!water) continue;
            uint16_t* slam = slam_mem ? slam_mem + i : NULL;
            if (!wet_bits) {
                /* nothing wet (the hull's dry top: triangles are sorted by
                 * height): dry lanes forget their memory, lanes marked 0 keep it */
                if (slam) {
                    if (dry_bits == 0xff) hv_store(slam, hv_zero());
                    else hv_store(slam, hv_sel(hv_mask(dry), hv_zero(), hv_load(slam)));
                }
                continue;
            }
            hv old = slam ? hv_load(slam) : hv_zero();
            fv cx = lv_load(g[HK_PRE_CX]), cy = lv_load(g[HK_PRE_CY]), cz = lv_load(g[HK_PRE_CZ]);
            fv nx = HK_COL(HULL_LANE_NX), ny = HK_COL(HULL_LANE_NY), nz = HK_COL(HULL_LANE_NZ);
            fv area = lv_and(wet, lv_mul(frac, HK_COL(HULL_LANE_AREA)));
            fv px = lv_load(g[HK_PRE_PX]), py = lv_load(g[HK_PRE_PY]), pz = lv_load(g[HK_PRE_PZ]);
            fv v2 = lv_load(g[HK_PRE_V2]), vn = lv_load(g[HK_PRE_VN]);
            fv speed = lv_load(g[HK_PRE_SPEED]), cos_t = lv_load(g[HK_PRE_COS]);
            fv facing = lv_gt(cos_t, zero);
            /* g = kn n - kv p: friction along the tangential flow p - (p.n) n,
             * pressure along the normal */
            fv kn = zero, kv = zero;
            if (m.viscous) {
                kv = lv_mul(lv_mul(lv_mul(k->half_cf, area), v2), lv_load(g[HK_PRE_KV]));
                kn = lv_mul(kv, vn);
            }
            if (m.pressure) {
                fv falloff = lv_load(g[HK_PRE_FALLOFF]);
                fv c1 = lv_sel(facing, k->p1, k->s1), c2 = lv_sel(facing, k->p2, k->s2);
                kn = lv_add(kn, lv_mul(lv_mul(area, falloff), lv_mul(lv_add(c1, lv_mul(c2, speed)), speed)));
            }
            if (m.viscous || m.pressure) {
                fv gx = lv_sub(lv_mul(kn, nx), lv_mul(kv, px));
                fv gy = lv_sub(lv_mul(kn, ny), lv_mul(kv, py));
                fv gz = lv_sub(lv_mul(kn, nz), lv_mul(kv, pz));
                fx = lv_add(fx, gx), fy = lv_add(fy, gy), fz = lv_add(fz, gz);
                tx = lv_add(tx, lv_sub(lv_mul(cy, gz), lv_mul(cz, gy)));
                ty = lv_add(ty, lv_sub(lv_mul(cz, gx), lv_mul(cx, gz)));
                tz = lv_add(tz, lv_sub(lv_mul(cx, gy), lv_mul(cy, gx)));
            }
            fv swept = lv_mul(frac, vn);
            if (m.slamming) {
                /* Gamma / Gamma_max = |s - s_prev| / (dt Gamma_max) */
                fv ratio = lv_mul(lv_andnot(lv_set(-0.0f), lv_sub(swept, lv_from_half(old))), k->rate);
                fv hit = lv_and(lv_and(wet, facing), lv_gt(ratio, lv_set(1e-3f)));
                /* no test of `hit`: at sea most groups under water have a lane
                 * that slams, and which ones changes every step (a branch on it
                 * mispredicts more than the sums cost); lanes not hit add 0 */
                fv ramp = hk_pow(lv_min(ratio, one), m.slam_kind, k->slam_p);
                fv ks = lv_and(hit, lv_sub(zero, lv_mul(lv_mul(ramp, cos_t), lv_mul(k->slam_scale, area))));
                fv hx = lv_mul(ks, px), hy = lv_mul(ks, py), hz = lv_mul(ks, pz);
                hk_add(sums->lane[HYDRODYN_SUM_SLAM_FORCE], hx);
                hk_add(sums->lane[HYDRODYN_SUM_SLAM_FORCE + 1], hy);
                hk_add(sums->lane[HYDRODYN_SUM_SLAM_FORCE + 2], hz);
                hk_add(sums->lane[HYDRODYN_SUM_SLAM_TORQUE], lv_sub(lv_mul(cy, hz), lv_mul(cz, hy)));
                hk_add(sums->lane[HYDRODYN_SUM_SLAM_TORQUE + 1], lv_sub(lv_mul(cz, hx), lv_mul(cx, hz)));
                hk_add(sums->lane[HYDRODYN_SUM_SLAM_TORQUE + 2], lv_sub(lv_mul(cx, hy), lv_mul(cy, hx)));
            }
            if (slam) {
                /* wet lanes remember their swept rate, dry ones forget, lanes
                 * marked 0 keep theirs */
                hv fresh = hk_half_encode(lv_and(wet, swept));
                fv known = lv_or(wet, dry);
                hv_store(slam, lv_mask(known) == 0xff ? fresh : hv_sel(hv_mask(known), fresh, old));
            }
        }
    }
#undef HK_COL
    lv_store(sums->lane[HYDRODYN_SUM_FORCE], fx), lv_store(sums->lane[HYDRODYN_SUM_FORCE + 1], fy);
    lv_store(sums->lane[HYDRODYN_SUM_FORCE + 2], fz), lv_store(sums->lane[HYDRODYN_SUM_TORQUE], tx);
    lv_store(sums->lane[HYDRODYN_SUM_TORQUE + 1], ty), lv_store(sums->lane[HYDRODYN_SUM_TORQUE + 2], tz);
}

static void HK_NAME(span)(const hydrodyn_lane_frame* f, const hydrodyn_span* sp, hydrodyn_lane_sums* sums) {
    hk_consts k;
    hk_begin(f, &k);
    const hk_mode m = {f->viscous, f->pressure, f->slamming, f->air_drag, f->falloff_kind, f->slam_kind};
    if (m.viscous && m.pressure && m.slamming && m.air && m.falloff_kind == HYDRODYN_POW_HALF &&
        m.slam_kind == HYDRODYN_POW_TWO)
        hk_run(&k, (hk_mode){1, 1, 1, 1, HYDRODYN_POW_HALF, HYDRODYN_POW_TWO}, sp, sums);
    else
        hk_run(&k, m, sp, sums);
}

static void HK_NAME(half_encode)(const float* in, uint16_t* out) { hv_store(out, hk_half_encode(lv_load(in))); }
static void HK_NAME(half_decode)(const uint16_t* in, float* out) { lv_store(out, lv_from_half(hv_load(in))); }
static float HK_NAME(pow)(float x, float p) {
    float out[8];
    lv_store(out, hk_pow(lv_set(x), HYDRODYN_POW_ANY, lv_set(p)));
    return out[0];
}

/* the hydrostatic kernel of the same lanes, in this build too */
#include "hydro_statics_kernel.h"

const hydrodyn_kernels HK_NAME(kernels) = {HK_NAME(statics), HK_NAME(span), HK_NAME(half_encode), HK_NAME(half_decode), HK_NAME(pow)};
