// SPDX-License-Identifier: MIT
#include "hydrodyn_lanes.h"
#include "water_entry.h"

#include <emmintrin.h>
#include <math.h>
#include <string.h>

static int hydrodyn_pow_kind(double p) {
    return p == 0.5 ? HYDRODYN_POW_HALF : p == 1.0 ? HYDRODYN_POW_ONE : p == 2.0 ? HYDRODYN_POW_TWO : HYDRODYN_POW_ANY;
}

void hydrodyn_lane_frame_init(hydrodyn_lane_frame* lf, const nv_hydrodyn_frame* f) {
    const nv_hydrodyn_coeffs* k = &f->model->c;
    lf->v[0] = (float)f->velocity.x, lf->v[1] = (float)f->velocity.y, lf->v[2] = (float)f->velocity.z;
    lf->w[0] = (float)f->angular_velocity.x, lf->w[1] = (float)f->angular_velocity.y;
    lf->w[2] = (float)f->angular_velocity.z;
    lf->air[0] = (float)f->air_velocity.x, lf->air[1] = (float)f->air_velocity.y, lf->air[2] = (float)f->air_velocity.z;
    lf->half_cf = (float)f->half_rho_cf;
    double r = f->inv_ref_speed;
    lf->p1 = (float)(k->pressure_linear * r), lf->p2 = (float)(k->pressure_quadratic * r * r);
    lf->s1 = (float)(k->suction_linear * r), lf->s2 = (float)(k->suction_quadratic * r * r);
    lf->fp = (float)k->pressure_falloff, lf->fs = (float)k->suction_falloff;
    lf->slam_p = (float)k->slam_power;
    lf->slam_scale = (float)f->slam_scale;
    lf->rate = (float)(f->inv_dt * f->inv_gamma_max);
    lf->viscous = (k->forces & (HYDRODYN_VISCOUS | HYDRODYN_RESIDUAL)) != 0;
    lf->pressure = (k->forces & HYDRODYN_PRESSURE_DRAG) != 0;
    lf->slamming = (k->forces & HYDRODYN_SLAMMING) != 0;
    lf->air_drag = (k->forces & HYDRODYN_AIR_DRAG) != 0;
    lf->entry = f->entry_half_pi_rho > 0.0;
    lf->up[0] = (float)f->up.x, lf->up[1] = (float)f->up.y, lf->up[2] = (float)f->up.z;
    lf->keel = 0.0f; /* the hull's bounds_min[1]: the triangle pass sets it */
    lf->entry_k = (float)f->entry_half_pi_rho;
    lf->gravity = (float)f->gravity;
    const double min_sin = sin(WATER_ENTRY_MIN_DEADRISE_DEG * NV_PI / 180.0);
    lf->entry_max_inv_sin2 = (float)(1.0 / (min_sin * min_sin));
    /* one power per part: the falloff of whichever side it faces */
    lf->falloff_kind =
        k->pressure_falloff == k->suction_falloff ? hydrodyn_pow_kind(k->pressure_falloff) : HYDRODYN_POW_ANY;
    lf->slam_kind = hydrodyn_pow_kind(k->slam_power);
}

void hydrodyn_lane_sums_clear(hydrodyn_lane_sums* s) {
    /* vector stores: memset's rep stos has a start-up of tens of cycles,
     * and this runs once per block of every vessel */
    const __m128 zero = _mm_setzero_ps();
    for (int i = 0; i < HYDRODYN_SUM_COUNT; i++) {
        _mm_storeu_ps(s->lane[i], zero);
        _mm_storeu_ps(s->lane[i] + 4, zero);
    }
}

void hydro_statics_sums_clear(hydro_statics_sums* s) {
    const __m128d zero = _mm_setzero_pd();
    for (int i = 0; i < HYDRO_SUM_COUNT; i++)
        for (int l = 0; l < HYDRODYN_LANES; l += 2) _mm_storeu_pd(s->lane[i] + l, zero);
    s->wetted = 0;
    s->poisoned = 0;
}

void hydrodyn_lane_sums_reduce(const hydrodyn_lane_sums* s, double out[HYDRODYN_SUM_COUNT]) {
    /* Two sums at a time in double, each ((l0 + l1) + (l2 + l3)) + ((l4 + l5)
     * + (l6 + l7)): once per block, a loop of scalar conversions cost as much
     * as a fifth of the force kernels on a small hull. */
    for (int i = 0; i < HYDRODYN_SUM_COUNT; i += 2) {
        const float *a = s->lane[i], *b = s->lane[i + 1];
        __m128d pair[4];
        for (int k = 0; k < 4; k++) {
            __m128d x = _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i*)(const void*)(a + 2 * k))));
            __m128d y = _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i*)(const void*)(b + 2 * k))));
            pair[k] = _mm_add_pd(_mm_unpacklo_pd(x, y), _mm_unpackhi_pd(x, y));
        }
        _mm_storeu_pd(out + i, _mm_add_pd(_mm_add_pd(pair[0], pair[1]), _mm_add_pd(pair[2], pair[3])));
    }
}

/* The steps of hk_half_encode / hk_half_decode, on one value. */
uint16_t hydrodyn_half_encode(float x) {
    if (!(x >= -65504.0f)) x = -65504.0f; /* NaN too, as the lanes' max */
    if (x > 65504.0f) x = 65504.0f;
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    uint32_t sign = (bits >> 16) & 0x8000u, mag = bits & 0x7fffffffu;
    if (mag <= 0x387fffffu) return (uint16_t)sign;
    uint32_t r = ((mag + 0x0fffu + ((mag >> 13) & 1u)) >> 13) - (112u << 10);
    return (uint16_t)(sign | r);
}

float hydrodyn_half_decode(uint16_t h) {
    uint32_t mag = h & 0x7fffu, bits = (uint32_t)(h & 0x8000u) << 16;
    if (mag) bits |= (mag << 13) + (112u << 23);
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

int hydrodyn_half_is_canonical(uint16_t h) {
    uint32_t exponent = (h >> 10) & 0x1fu;
    return exponent == 0 ? (h & 0x3ffu) == 0 : exponent < 31;
}

float hydrodyn_pow_unit(float x, float p) { return hydrodyn_sse2_kernels.pow_unit(x, p); }
