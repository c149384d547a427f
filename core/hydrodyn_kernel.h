/* The moving-water and air forces on eight triangles at a time, written
 * once on the l8_* lanes: hydrodyn_sse2.c and hydrodyn_avx2.c include it
 * after their lanes8_*.h, and each defines HK_NAME to name its copy. Both
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
#error "define HK_NAME and include a lanes8_*.h first"
#endif

#define HK_LN2_INV 1.44269504f

/* log2(x) for x > 0 normal: exponent from the bits, the mantissa m in
 * [1, 2) through 2/ln2 atanh((m - 1) / (m + 1)) to s^9. */
static inline f8 hk_log2(f8 x) {
    i8 bits = l8_bits(x);
    i8 e = i8_sub(i8_srli(bits, 23), i8_set(127));
    f8 m = i8_bits(i8_or(i8_and(bits, i8_set(0x007fffff)), i8_set(0x3f800000)));
    f8 s = l8_div(l8_sub(m, l8_set(1.0f)), l8_add(m, l8_set(1.0f)));
    f8 s2 = l8_mul(s, s);
    f8 poly = l8_add(l8_set(1.0f / 7.0f), l8_mul(s2, l8_set(1.0f / 9.0f)));
    poly = l8_add(l8_set(1.0f / 5.0f), l8_mul(s2, poly));
    poly = l8_add(l8_set(1.0f / 3.0f), l8_mul(s2, poly));
    poly = l8_add(l8_set(1.0f), l8_mul(s2, poly));
    return l8_add(i8_to_f8(e), l8_mul(l8_mul(s, poly), l8_set(2.0f * HK_LN2_INV)));
}

/* 2^y for y in [-126, 0]: 2^floor(y) from the bits, 2^f by its Taylor
 * series in f ln2 to the 7th power. */
static inline f8 hk_exp2(f8 y) {
    y = l8_max(y, l8_set(-126.0f));
    i8 i = l8_trunc(y); /* toward zero: y <= 0, so ceil */
    f8 fi = i8_to_f8(i);
    i = i8_add(i, l8_bits(l8_gt(fi, y))); /* -1 where truncation went up */
    fi = i8_to_f8(i);
    f8 t = l8_mul(l8_sub(y, fi), l8_set(0.693147181f));
    f8 p = l8_add(l8_set(1.0f / 720.0f), l8_mul(t, l8_set(1.0f / 5040.0f)));
    p = l8_add(l8_set(1.0f / 120.0f), l8_mul(t, p));
    p = l8_add(l8_set(1.0f / 24.0f), l8_mul(t, p));
    p = l8_add(l8_set(1.0f / 6.0f), l8_mul(t, p));
    p = l8_add(l8_set(0.5f), l8_mul(t, p));
    p = l8_add(l8_set(1.0f), l8_mul(t, p));
    p = l8_add(l8_set(1.0f), l8_mul(t, p));
    return l8_mul(p, i8_bits(i8_slli(i8_add(i, i8_set(127)), 23)));
}

/* x^p for x in [0, 1]; 0 for x <= 0 and denormal x. The defaults'
 * exponents (1/2, 1, 2) are a square root or a product. */
static inline f8 hk_pow(f8 x, int kind, f8 p) {
    f8 pos = l8_max(x, l8_set(0.0f));
    switch (kind) {
    case HYDRODYN_POW_HALF: return l8_sqrt(pos);
    case HYDRODYN_POW_ONE: return pos;
    case HYDRODYN_POW_TWO: return l8_mul(pos, pos);
    default: {
        f8 ok = l8_gt(x, l8_set(1.17549435e-38f));
        f8 safe = l8_sel(ok, x, l8_set(1.0f));
        return l8_and(ok, hk_exp2(l8_mul(p, hk_log2(safe))));
    }
    }
}


/* Slamming memory as IEEE half floats (memory per vessel): |x| < 2^-14
 * flushes to 0, |x| is clamped to 65504 (NaN to -65504), rounding to
 * nearest even; the same integer steps as hydrodyn_half_encode. */
static inline i8 hk_half_encode(f8 x) {
    x = l8_min(l8_max(x, l8_set(-65504.0f)), l8_set(65504.0f));
    i8 bits = l8_bits(x);
    i8 sign = i8_and(i8_srli(bits, 16), i8_set(0x8000));
    i8 mag = i8_and(bits, i8_set(0x7fffffff));
    i8 big = i8_gt(mag, i8_set(0x387fffff)); /* >= 2^-14: a normal half */
    i8 r = i8_add(i8_add(mag, i8_set(0x0fff)), i8_and(i8_srli(mag, 13), i8_set(1)));
    r = i8_sub(i8_srli(r, 13), i8_set(112 << 10));
    return i8_or(sign, i8_and(big, r));
}

static inline f8 hk_half_decode(i8 h) {
    i8 sign = i8_slli(i8_and(h, i8_set(0x8000)), 16);
    i8 mag = i8_and(h, i8_set(0x7fff));
    i8 nonzero = i8_gt(mag, i8_set(0));
    i8 bits = i8_add(i8_slli(mag, 13), i8_set(112 << 23));
    return i8_bits(i8_or(sign, i8_and(nonzero, bits)));
}

typedef struct hk_consts {
    f8 vx, vy, vz, wx, wy, wz;
    f8 half_cf, inv_vr, neg_p1, neg_p2, s1, s2, fp, fs, slam_p, slam_scale, rate;
    f8 ax, ay, az; /* the CG's velocity relative to the air */
    int viscous, pressure, slamming, air, falloff_kind, slam_kind;
} hk_consts;

typedef struct hk_acc {
    f8 fx, fy, fz, tx, ty, tz;       /* friction and pressure, N and N m */
    f8 sfx, sfy, sfz, stx, sty, stz; /* slamming */
    f8 an, acx, acy, acz;            /* air: sum A (v.n), sum A (v.n) c */
} hk_acc;

static void hk_begin(const hydrodyn_lane_frame* f, hk_consts* k, hk_acc* a, const hydrodyn_lane_sums* sums) {
    k->vx = l8_set(f->v[0]), k->vy = l8_set(f->v[1]), k->vz = l8_set(f->v[2]);
    k->wx = l8_set(f->w[0]), k->wy = l8_set(f->w[1]), k->wz = l8_set(f->w[2]);
    k->ax = l8_set(f->air[0]), k->ay = l8_set(f->air[1]), k->az = l8_set(f->air[2]);
    k->half_cf = l8_set(f->half_cf), k->inv_vr = l8_set(f->inv_vr);
    k->neg_p1 = l8_set(-f->p1), k->neg_p2 = l8_set(-f->p2), k->s1 = l8_set(f->s1), k->s2 = l8_set(f->s2);
    k->fp = l8_set(f->fp), k->fs = l8_set(f->fs), k->slam_p = l8_set(f->slam_p);
    k->slam_scale = l8_set(f->slam_scale), k->rate = l8_set(f->rate);
    k->viscous = f->viscous, k->pressure = f->pressure, k->slamming = f->slamming, k->air = f->air_drag;
    k->falloff_kind = f->falloff_kind, k->slam_kind = f->slam_kind;
    const float(*s)[8] = sums->lane;
    f8* out[16] = {&a->fx,  &a->fy,  &a->fz,  &a->tx, &a->ty,  &a->tz,  &a->sfx, &a->sfy,
                   &a->sfz, &a->stx, &a->sty, &a->stz, &a->an, &a->acx, &a->acy, &a->acz};
    for (int i = 0; i < 16; i++) *out[i] = l8_load(s[i]);
}

static void hk_end(const hk_acc* a, hydrodyn_lane_sums* sums) {
    const f8* in[16] = {&a->fx,  &a->fy,  &a->fz,  &a->tx, &a->ty,  &a->tz,  &a->sfx, &a->sfy,
                        &a->sfz, &a->stx, &a->sty, &a->stz, &a->an, &a->acx, &a->acy, &a->acz};
    for (int i = 0; i < 16; i++) l8_store(sums->lane[i], *in[i]);
}

/* Eight wet parts (area 0 on lanes that are not): adds their forces to
 * `a`; returns each part's swept rate s = fraction v.n. `wet` masks the
 * lanes that may slam. */
static inline f8 hk_water(const hk_consts* k, hk_acc* a, f8 cx, f8 cy, f8 cz, f8 nx, f8 ny, f8 nz, f8 area,
                          f8 fraction, f8 prev, f8 wet) {
    const f8 zero = l8_set(0.0f), one = l8_set(1.0f), tiny = l8_set(1e-12f);
    f8 px = l8_add(k->vx, l8_sub(l8_mul(k->wy, cz), l8_mul(k->wz, cy)));
    f8 py = l8_add(k->vy, l8_sub(l8_mul(k->wz, cx), l8_mul(k->wx, cz)));
    f8 pz = l8_add(k->vz, l8_sub(l8_mul(k->wx, cy), l8_mul(k->wy, cx)));
    f8 v2 = l8_add(l8_add(l8_mul(px, px), l8_mul(py, py)), l8_mul(pz, pz));
    f8 vn = l8_add(l8_add(l8_mul(px, nx), l8_mul(py, ny)), l8_mul(pz, nz));
    f8 t2 = l8_sub(v2, l8_mul(vn, vn));
    f8 moving = l8_gt(v2, tiny), has_t = l8_gt(t2, tiny);
    f8 speed = l8_sqrt(v2), tlen = l8_sqrt(l8_max(t2, zero));
    /* 1/|v| and 1/|v_t| from one division */
    f8 sd = l8_sel(moving, speed, one), td = l8_sel(has_t, tlen, one);
    f8 q = l8_div(one, l8_mul(sd, td));
    f8 inv_speed = l8_and(moving, l8_mul(td, q)), inv_t = l8_and(has_t, l8_mul(sd, q));
    /* g = kp v + kn n: friction along the tangential flow v - (v.n) n,
     * pressure along the normal */
    f8 kp = zero, kn = zero;
    if (k->viscous) {
        /* -1/2 rho C_F A |v|^2 along the unit tangential flow */
        f8 kv = l8_mul(l8_mul(l8_mul(k->half_cf, area), v2), inv_t);
        kp = l8_sub(zero, kv);
        kn = l8_mul(kv, vn);
    }
    f8 cos_t = l8_mul(vn, inv_speed);
    if (k->pressure) {
        /* facing the flow: -(C_PD1 r + C_PD2 r^2) cos^f_P; away: +(C_SD1 r + C_SD2 r^2) |cos|^f_S */
        f8 r = l8_mul(speed, k->inv_vr);
        f8 front = l8_gt(cos_t, zero);
        f8 abs_cos = l8_andnot(l8_set(-0.0f), cos_t);
        f8 falloff = k->falloff_kind == HYDRODYN_POW_ANY ? hk_pow(abs_cos, HYDRODYN_POW_ANY, l8_sel(front, k->fp, k->fs))
                                                         : hk_pow(abs_cos, k->falloff_kind, k->fp);
        f8 c1 = l8_sel(front, k->neg_p1, k->s1), c2 = l8_sel(front, k->neg_p2, k->s2);
        f8 mag = l8_mul(l8_mul(area, falloff), l8_mul(l8_add(c1, l8_mul(c2, r)), r));
        kn = l8_add(kn, mag);
    }
    f8 gx = l8_add(l8_mul(kp, px), l8_mul(kn, nx));
    f8 gy = l8_add(l8_mul(kp, py), l8_mul(kn, ny));
    f8 gz = l8_add(l8_mul(kp, pz), l8_mul(kn, nz));
    a->fx = l8_add(a->fx, gx), a->fy = l8_add(a->fy, gy), a->fz = l8_add(a->fz, gz);
    a->tx = l8_add(a->tx, l8_sub(l8_mul(cy, gz), l8_mul(cz, gy)));
    a->ty = l8_add(a->ty, l8_sub(l8_mul(cz, gx), l8_mul(cx, gz)));
    a->tz = l8_add(a->tz, l8_sub(l8_mul(cx, gy), l8_mul(cy, gx)));
    f8 swept = l8_mul(fraction, vn);
    if (k->slamming) {
        /* Gamma / Gamma_max = |s - s_prev| / (dt Gamma_max) */
        f8 ratio = l8_mul(l8_andnot(l8_set(-0.0f), l8_sub(swept, prev)), k->rate);
        f8 hit = l8_and(l8_and(wet, l8_gt(vn, zero)), l8_and(moving, l8_gt(ratio, l8_set(1e-3f))));
        if (l8_any(hit)) {
            f8 ramp = hk_pow(l8_min(ratio, one), k->slam_kind, k->slam_p);
            f8 ks = l8_and(hit, l8_sub(zero, l8_mul(l8_mul(ramp, cos_t), l8_mul(k->slam_scale, area))));
            f8 hx = l8_mul(ks, px), hy = l8_mul(ks, py), hz = l8_mul(ks, pz);
            a->sfx = l8_add(a->sfx, hx), a->sfy = l8_add(a->sfy, hy), a->sfz = l8_add(a->sfz, hz);
            a->stx = l8_add(a->stx, l8_sub(l8_mul(cy, hz), l8_mul(cz, hy)));
            a->sty = l8_add(a->sty, l8_sub(l8_mul(cz, hx), l8_mul(cx, hz)));
            a->stz = l8_add(a->stz, l8_sub(l8_mul(cx, hy), l8_mul(cy, hx)));
        }
    }
    return swept;
}

/* The air drag of a group's dry lanes. */
static inline void hk_air(const hk_consts* k, hk_acc* a, f8 dry, f8 cx, f8 cy, f8 cz, f8 nx, f8 ny, f8 nz, f8 area) {
    f8 an = l8_mul(area, l8_add(l8_add(l8_mul(k->ax, nx), l8_mul(k->ay, ny)), l8_mul(k->az, nz)));
    an = l8_and(dry, l8_max(an, l8_set(0.0f)));
    a->an = l8_add(a->an, an);
    a->acx = l8_add(a->acx, l8_mul(cx, an));
    a->acy = l8_add(a->acy, l8_mul(cy, an));
    a->acz = l8_add(a->acz, l8_mul(cz, an));
}

/* One group of eight lanes at offset i of the span. */
__attribute__((always_inline)) static inline void hk_group(const hk_consts* k, hk_acc* a, const hydrodyn_span* sp,
                                                           uint32_t i, int water) {
    const f8 zero = l8_set(0.0f);
    const float* const* col = sp->column;
    f8 frac = l8_load(sp->wet + i);
    f8 cx = l8_load(col[HULL_LANE_CX] + i), cy = l8_load(col[HULL_LANE_CY] + i), cz = l8_load(col[HULL_LANE_CZ] + i);
    f8 nx = l8_load(col[HULL_LANE_NX] + i), ny = l8_load(col[HULL_LANE_NY] + i), nz = l8_load(col[HULL_LANE_NZ] + i);
    f8 area = l8_load(col[HULL_LANE_AREA] + i);
    f8 dry = l8_gt(zero, frac);
    if (k->air && l8_any(dry)) hk_air(k, a, dry, cx, cy, cz, nx, ny, nz, area);
    if (!water) return;
    f8 wet = l8_gt(frac, zero);
    i8 old = sp->slam ? i8_load_u16(sp->slam + i) : i8_set(0);
    /* dry lanes forget their memory, lanes marked 0 keep it */
    i8 keep = l8_bits(l8_andnot(l8_or(wet, dry), l8_bits_all()));
    if (!l8_any(wet)) {
        /* nothing wet: the hull's dry top (triangles are sorted by height) */
        if (sp->slam) i8_store_u16(sp->slam + i, i8_and(keep, old));
        return;
    }
    f8 cut = l8_and(wet, l8_gt(l8_set(1.0f), frac));
    if (l8_any(cut)) {
        /* cut triangles: the wet part's centroid, its barycentric weights
         * u / (3 fraction) less the triangle centroid's 1/3 */
        f8 inv = l8_div(l8_set(1.0f / 3.0f), l8_sel(cut, frac, l8_set(1.0f)));
        f8 third = l8_set(1.0f / 3.0f);
        f8 b1 = l8_and(cut, l8_sub(l8_mul(l8_load(sp->b1 + i), inv), third));
        f8 b2 = l8_and(cut, l8_sub(l8_mul(l8_load(sp->b2 + i), inv), third));
        cx = l8_add(cx, l8_add(l8_mul(b1, l8_load(col[HULL_LANE_E1X] + i)), l8_mul(b2, l8_load(col[HULL_LANE_E2X] + i))));
        cy = l8_add(cy, l8_add(l8_mul(b1, l8_load(col[HULL_LANE_E1Y] + i)), l8_mul(b2, l8_load(col[HULL_LANE_E2Y] + i))));
        cz = l8_add(cz, l8_add(l8_mul(b1, l8_load(col[HULL_LANE_E1Z] + i)), l8_mul(b2, l8_load(col[HULL_LANE_E2Z] + i))));
    }
    f8 wet_area = l8_and(wet, l8_mul(frac, area));
    f8 swept = hk_water(k, a, cx, cy, cz, nx, ny, nz, wet_area, frac, hk_half_decode(old), wet);
    if (sp->slam) {
        i8 fresh = hk_half_encode(l8_and(wet, swept));
        i8_store_u16(sp->slam + i, i8_sel(keep, old, fresh));
    }
}

/* A run of triangles from the hull's tables, as the triangle pass marked
 * them (hydrodyn_span). */
static void HK_NAME(span)(const hydrodyn_lane_frame* f, const hydrodyn_span* sp, hydrodyn_lane_sums* sums) {
    hk_consts k;
    hk_acc a;
    hk_begin(f, &k, &a, sums);
    const int water = k.viscous || k.pressure || k.slamming;
    for (uint32_t i = 0; i < sp->count; i += 8) hk_group(&k, &a, sp, i, water);
    hk_end(&a, sums);
}

static void HK_NAME(half_encode)(const float* in, uint16_t* out) { i8_store_u16(out, hk_half_encode(l8_load(in))); }
static void HK_NAME(half_decode)(const uint16_t* in, float* out) { l8_store(out, hk_half_decode(i8_load_u16(in))); }
static float HK_NAME(pow)(float x, float p) {
    float in[8] = {x, x, x, x, x, x, x, x}, out[8];
    l8_store(out, hk_pow(l8_load(in), HYDRODYN_POW_ANY, l8_set(p)));
    return out[0];
}

const hydrodyn_kernels HK_NAME(kernels) = {HK_NAME(span), HK_NAME(half_encode), HK_NAME(half_decode), HK_NAME(pow)};
