// SPDX-License-Identifier: MIT
#include "naval/water.h"

#include <math.h>

#include "naval/vecmath.h"

static size_t water_flat_sample(const nv_water_surface* self, const nv_water_query* q) {
    const nv_water_flat* w = (const nv_water_flat*)self;
    float level = (float)w->level;
    for (size_t i = 0; i < q->count; i++) q->height[i] = level;
    if (q->normal)
        for (size_t i = 0; i < q->count; i++) {
            q->normal[3 * i + 0] = 0.0f;
            q->normal[3 * i + 1] = 1.0f;
            q->normal[3 * i + 2] = 0.0f;
        }
    if (q->vertical_velocity)
        for (size_t i = 0; i < q->count; i++) q->vertical_velocity[i] = 0.0f;
    return 0;
}

void nv_water_flat_init(nv_water_flat* w, double level) {
    w->base.sample = water_flat_sample;
    w->base.sample_near = NULL;
    w->base.breaking = NULL;
    w->base.pressure_decay = 0.0;
    w->base.mean_level = level;
    w->level = level;
}

static size_t water_sine_sample(const nv_water_surface* self, const nv_water_query* q) {
    const nv_water_sine* w = (const nv_water_sine*)self;
    double kx = w->wavenumber * cos(w->direction);
    double kz = -w->wavenumber * sin(w->direction);
    double phase0 = w->phase - w->omega * w->time;
    for (size_t i = 0; i < q->count; i++) {
        double arg = kx * q->x[i] + kz * q->z[i] + phase0;
        double s = sin(arg), c = cos(arg);
        q->height[i] = (float)(w->amplitude * s);
        if (q->normal) {
            /* n ~ (-dh/dx, 1, -dh/dz) */
            double dhdx = w->amplitude * kx * c, dhdz = w->amplitude * kz * c;
            double inv = 1.0 / sqrt(1.0 + dhdx * dhdx + dhdz * dhdz);
            q->normal[3 * i + 0] = (float)(-dhdx * inv);
            q->normal[3 * i + 1] = (float)inv;
            q->normal[3 * i + 2] = (float)(-dhdz * inv);
        }
        if (q->vertical_velocity) q->vertical_velocity[i] = (float)(-w->amplitude * w->omega * c);
    }
    return 0;
}

static void water_sine_breaking(const nv_water_surface* self, size_t count, const double* x, const double* z,
                                const float* height, float* out) {
    (void)height; /* its own crest test is exact */
    const nv_water_sine* w = (const nv_water_sine*)self;
    const int on = w->time >= w->breaking_from && w->time < w->breaking_until;
    const double kx = w->wavenumber * cos(w->direction), kz = -w->wavenumber * sin(w->direction);
    const double phase0 = w->phase - w->omega * w->time, c = WATER_BREAKING_JET * w->omega / w->wavenumber;
    for (size_t i = 0; i < count; i++) {
        const double eta = w->amplitude * sin(kx * x[i] + kz * z[i] + phase0);
        const int crest = on && eta > 0.5 * w->amplitude;
        out[3 * i + 0] = crest ? (float)(c * cos(w->direction)) : 0.0f;
        out[3 * i + 1] = crest ? (float)(-c * sin(w->direction)) : 0.0f;
        out[3 * i + 2] = crest ? (float)eta : 0.0f;
    }
}

int nv_water_sine_init(nv_water_sine* w, double amplitude, double wavelength, double direction, double gravity) {
    if (!(amplitude >= 0.0) || !isfinite(amplitude) || !(wavelength > 0.0) || !isfinite(wavelength) ||
        !isfinite(direction) || !(gravity > 0.0))
        return -1;
    w->base.sample = water_sine_sample;
    w->base.sample_near = NULL;
    w->base.breaking = water_sine_breaking;
    w->breaking_from = w->breaking_until = 0.0;
    w->amplitude = amplitude;
    w->wavelength = wavelength;
    w->direction = direction;
    w->phase = 0.0;
    w->wavenumber = 2.0 * NV_PI / wavelength;
    w->omega = sqrt(gravity * w->wavenumber);
    w->time = 0.0;
    w->base.pressure_decay = w->wavenumber;
    w->base.mean_level = 0.0;
    return 0;
}

void nv_water_sine_set_time(nv_water_sine* w, double time) { w->time = time; }

void nv_water_sine_set_breaking(nv_water_sine* w, double from, double until) {
    w->breaking_from = from;
    w->breaking_until = until;
}
