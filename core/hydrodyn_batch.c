#include "hydrodyn_batch.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* log2 and exp2 as plain float arithmetic, written once for a lane type:
 * the SSE2 path and the scalar reference run the same operations in the
 * same order, so both give the same bits per part. */
#define HYDRODYN_LN2_INV 1.44269504f

#if defined(__SSE2__)
typedef __m128 lane;
#define L_SET(x) _mm_set1_ps(x)
#define L_ADD(a, b) _mm_add_ps(a, b)
#define L_SUB(a, b) _mm_sub_ps(a, b)
#define L_MUL(a, b) _mm_mul_ps(a, b)
#define L_DIV(a, b) _mm_div_ps(a, b)
#define L_SQRT(a) _mm_sqrt_ps(a)
#define L_MAX(a, b) _mm_max_ps(a, b)
#define L_MIN(a, b) _mm_min_ps(a, b)
#define L_GT(a, b) _mm_cmpgt_ps(a, b)
#define L_AND(m, a) _mm_and_ps(m, a)
#define L_ANDM(m, n) _mm_and_ps(m, n)
#define L_SEL(m, a, b) _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b))
#define L_LOAD(p) _mm_loadu_ps(p)
#define L_STORE(p, a) _mm_storeu_ps(p, a)
#define L_ABS(a) _mm_andnot_ps(_mm_set1_ps(-0.0f), a)

/* log2(x) for x > 0 normal: exponent from the bits, the mantissa m in
 * [1, 2) through 2/ln2 atanh((m - 1) / (m + 1)) to s^9. */
static inline lane lane_log2(lane x) {
    __m128i bits = _mm_castps_si128(x);
    __m128i e = _mm_sub_epi32(_mm_srli_epi32(bits, 23), _mm_set1_epi32(127));
    lane m = _mm_castsi128_ps(_mm_or_si128(_mm_and_si128(bits, _mm_set1_epi32(0x007fffff)), _mm_set1_epi32(0x3f800000)));
    lane s = L_DIV(L_SUB(m, L_SET(1.0f)), L_ADD(m, L_SET(1.0f)));
    lane s2 = L_MUL(s, s);
    lane poly = L_ADD(L_SET(1.0f / 7.0f), L_MUL(s2, L_SET(1.0f / 9.0f)));
    poly = L_ADD(L_SET(1.0f / 5.0f), L_MUL(s2, poly));
    poly = L_ADD(L_SET(1.0f / 3.0f), L_MUL(s2, poly));
    poly = L_ADD(L_SET(1.0f), L_MUL(s2, poly));
    return L_ADD(_mm_cvtepi32_ps(e), L_MUL(L_MUL(s, poly), L_SET(2.0f * HYDRODYN_LN2_INV)));
}

/* 2^y for y in [-126, 0]: 2^floor(y) from the bits, 2^f by its Taylor
 * series in f ln2 to the 7th power. */
static inline lane lane_exp2(lane y) {
    y = L_MAX(y, L_SET(-126.0f));
    __m128i i = _mm_cvttps_epi32(y); /* toward zero: y <= 0, so ceil */
    lane fi = _mm_cvtepi32_ps(i);
    __m128i adjust = _mm_castps_si128(L_GT(fi, y)); /* -1 where truncation went up */
    i = _mm_add_epi32(i, adjust);
    fi = _mm_cvtepi32_ps(i);
    lane t = L_MUL(L_SUB(y, fi), L_SET(0.693147181f));
    lane p = L_ADD(L_SET(1.0f / 720.0f), L_MUL(t, L_SET(1.0f / 5040.0f)));
    p = L_ADD(L_SET(1.0f / 120.0f), L_MUL(t, p));
    p = L_ADD(L_SET(1.0f / 24.0f), L_MUL(t, p));
    p = L_ADD(L_SET(1.0f / 6.0f), L_MUL(t, p));
    p = L_ADD(L_SET(0.5f), L_MUL(t, p));
    p = L_ADD(L_SET(1.0f), L_MUL(t, p));
    p = L_ADD(L_SET(1.0f), L_MUL(t, p));
    lane scale = _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(i, _mm_set1_epi32(127)), 23));
    return L_MUL(p, scale);
}

/* x^p, 0 for x <= 0 (and denormal x) */
static inline lane lane_pow_unit(lane x, lane p) {
    lane ok = L_GT(x, L_SET(1.17549435e-38f));
    lane safe = L_SEL(ok, x, L_SET(1.0f));
    return L_AND(ok, lane_exp2(L_MUL(p, lane_log2(safe))));
}

/* The defaults' exponents (1/2, 1, 2) are a square root or a product: no
 * log or exp for them. The kind is the same for every lane of a batch. */
enum { POW_HALF, POW_ONE, POW_TWO, POW_ANY };

static int pow_kind(double p) { return p == 0.5 ? POW_HALF : p == 1.0 ? POW_ONE : p == 2.0 ? POW_TWO : POW_ANY; }

static inline lane lane_pow_kind(lane x, int kind, lane p) {
    switch (kind) {
    case POW_HALF: return L_SQRT(L_MAX(x, L_SET(0.0f)));
    case POW_ONE: return L_MAX(x, L_SET(0.0f));
    case POW_TWO: return L_MUL(L_MAX(x, L_SET(0.0f)), L_MAX(x, L_SET(0.0f)));
    default: return lane_pow_unit(x, p);
    }
}

static inline float lane_sum(lane a) {
    float v[4];
    L_STORE(v, a);
    return (v[0] + v[1]) + (v[2] + v[3]);
}

float hydrodyn_pow_unit(float x, float p) {
    float out[4];
    L_STORE(out, lane_pow_unit(L_SET(x), L_SET(p)));
    return out[0];
}

void hydrodyn_batch_run(const hydrodyn_frame* fr, hydrodyn_batch* b, vec3* force, vec3* torque, vec3* slam_force,
                        vec3* slam_torque) {
    const hydrodyn_coeffs* k = &fr->model->c;
    /* pad to whole lanes with parts of no area: they add nothing */
    uint32_t n = (b->count + 3u) & ~3u;
    for (uint32_t i = b->count; i < n; i++) {
        b->cx[i] = b->cy[i] = b->cz[i] = 0.0f;
        b->nx[i] = 1.0f, b->ny[i] = b->nz[i] = 0.0f;
        b->area[i] = b->tri_area[i] = b->prev[i] = 0.0f;
    }
    const int viscous = (k->forces & (HYDRODYN_VISCOUS | HYDRODYN_RESIDUAL)) != 0;
    const int pressure = (k->forces & HYDRODYN_PRESSURE_DRAG) != 0;
    const int slamming = (k->forces & HYDRODYN_SLAMMING) != 0;
    const lane vx = L_SET((float)fr->velocity.x), vy = L_SET((float)fr->velocity.y), vz = L_SET((float)fr->velocity.z);
    const lane wx = L_SET((float)fr->angular_velocity.x), wy = L_SET((float)fr->angular_velocity.y),
               wz = L_SET((float)fr->angular_velocity.z);
    const lane half_cf = L_SET((float)fr->half_rho_cf), inv_vr = L_SET((float)fr->inv_ref_speed);
    const lane c_p1 = L_SET((float)k->pressure_linear), c_p2 = L_SET((float)k->pressure_quadratic);
    const lane c_s1 = L_SET((float)k->suction_linear), c_s2 = L_SET((float)k->suction_quadratic);
    const lane f_p = L_SET((float)k->pressure_falloff), f_s = L_SET((float)k->suction_falloff);
    /* one power per part: the falloff of whichever side it faces */
    const int falloff_kind = k->pressure_falloff == k->suction_falloff ? pow_kind(k->pressure_falloff) : POW_ANY;
    const int slam_kind = pow_kind(k->slam_power);
    const lane slam_p = L_SET((float)k->slam_power), slam_scale = L_SET((float)fr->slam_scale);
    const lane rate = L_SET((float)(fr->inv_dt * fr->inv_gamma_max));
    const lane tiny = L_SET(1e-12f), zero = L_SET(0.0f), one = L_SET(1.0f);
    lane fx = zero, fy = zero, fz = zero, tx = zero, ty = zero, tz = zero;
    lane sfx = zero, sfy = zero, sfz = zero, stx = zero, sty = zero, stz = zero;
    for (uint32_t i = 0; i < n; i += 4) {
        lane cx = L_LOAD(b->cx + i), cy = L_LOAD(b->cy + i), cz = L_LOAD(b->cz + i);
        lane nx = L_LOAD(b->nx + i), ny = L_LOAD(b->ny + i), nz = L_LOAD(b->nz + i);
        lane area = L_LOAD(b->area + i);
        /* point velocity v = V + w x c */
        lane px = L_ADD(vx, L_SUB(L_MUL(wy, cz), L_MUL(wz, cy)));
        lane py = L_ADD(vy, L_SUB(L_MUL(wz, cx), L_MUL(wx, cz)));
        lane pz = L_ADD(vz, L_SUB(L_MUL(wx, cy), L_MUL(wy, cx)));
        lane v2 = L_ADD(L_ADD(L_MUL(px, px), L_MUL(py, py)), L_MUL(pz, pz));
        lane vn = L_ADD(L_ADD(L_MUL(px, nx), L_MUL(py, ny)), L_MUL(pz, nz));
        lane moving = L_GT(v2, tiny);
        lane speed = L_SQRT(v2);
        lane inv_speed = L_AND(moving, L_DIV(one, L_SEL(moving, speed, one)));
        lane gx = zero, gy = zero, gz = zero;
        if (viscous) {
            /* -1/2 rho C_F A |v|^2 along the unit tangential flow */
            lane t2 = L_SUB(v2, L_MUL(vn, vn));
            lane has_t = L_GT(t2, tiny);
            lane kv = L_AND(has_t, L_DIV(L_MUL(L_MUL(half_cf, area), v2), L_SQRT(L_SEL(has_t, t2, one))));
            gx = L_SUB(gx, L_MUL(kv, L_SUB(px, L_MUL(vn, nx))));
            gy = L_SUB(gy, L_MUL(kv, L_SUB(py, L_MUL(vn, ny))));
            gz = L_SUB(gz, L_MUL(kv, L_SUB(pz, L_MUL(vn, nz))));
        }
        if (pressure) {
            lane cos_t = L_MUL(vn, inv_speed), r = L_MUL(speed, inv_vr);
            lane front = L_GT(cos_t, zero);
            lane falloff = lane_pow_kind(L_ABS(cos_t), falloff_kind, L_SEL(front, f_p, f_s));
            lane drag = L_ADD(L_MUL(c_p1, r), L_MUL(L_MUL(c_p2, r), r));
            lane suck = L_ADD(L_MUL(c_s1, r), L_MUL(L_MUL(c_s2, r), r));
            lane mag = L_MUL(L_MUL(area, falloff), L_SEL(front, L_SUB(zero, drag), suck));
            gx = L_ADD(gx, L_MUL(mag, nx));
            gy = L_ADD(gy, L_MUL(mag, ny));
            gz = L_ADD(gz, L_MUL(mag, nz));
        }
        fx = L_ADD(fx, gx), fy = L_ADD(fy, gy), fz = L_ADD(fz, gz);
        tx = L_ADD(tx, L_SUB(L_MUL(cy, gz), L_MUL(cz, gy)));
        ty = L_ADD(ty, L_SUB(L_MUL(cz, gx), L_MUL(cx, gz)));
        tz = L_ADD(tz, L_SUB(L_MUL(cx, gy), L_MUL(cy, gx)));
        lane swept = L_MUL(area, vn);
        L_STORE(b->swept + i, swept);
        if (slamming) {
            /* Gamma / Gamma_max = |swept - prev| / (S dt Gamma_max); the
             * stopping force m (2 A / S_total) v / dt, ramped, along -v */
            lane tri = L_LOAD(b->tri_area + i);
            lane has_s = L_GT(tri, zero);
            lane ratio = L_DIV(L_MUL(L_ABS(L_SUB(swept, L_LOAD(b->prev + i))), rate), L_SEL(has_s, tri, one));
            lane hit = L_ANDM(L_ANDM(has_s, L_GT(vn, zero)), L_ANDM(moving, L_GT(ratio, L_SET(1e-3f))));
            if (_mm_movemask_ps(hit) == 0) continue; /* the common case: no lane slams */
            lane ramp = lane_pow_kind(L_MIN(ratio, one), slam_kind, slam_p);
            lane ks = L_AND(hit, L_SUB(zero, L_MUL(L_MUL(ramp, L_MUL(vn, inv_speed)), L_MUL(slam_scale, area))));
            lane hx = L_MUL(ks, px), hy = L_MUL(ks, py), hz = L_MUL(ks, pz);
            sfx = L_ADD(sfx, hx), sfy = L_ADD(sfy, hy), sfz = L_ADD(sfz, hz);
            stx = L_ADD(stx, L_SUB(L_MUL(cy, hz), L_MUL(cz, hy)));
            sty = L_ADD(sty, L_SUB(L_MUL(cz, hx), L_MUL(cx, hz)));
            stz = L_ADD(stz, L_SUB(L_MUL(cx, hy), L_MUL(cy, hx)));
        }
    }
    *force = v3_add(*force, v3(lane_sum(fx), lane_sum(fy), lane_sum(fz)));
    *torque = v3_add(*torque, v3(lane_sum(tx), lane_sum(ty), lane_sum(tz)));
    *slam_force = v3_add(*slam_force, v3(lane_sum(sfx), lane_sum(sfy), lane_sum(sfz)));
    *slam_torque = v3_add(*slam_torque, v3(lane_sum(stx), lane_sum(sty), lane_sum(stz)));
}
#else
#error "hydrodyn_batch.c needs SSE2 (every x86-64); add a scalar lane type for other targets"
#endif
