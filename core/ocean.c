// SPDX-License-Identifier: MIT
/* FFT ocean: parameters, random spectrum, time evolution and transforms.
 * Queries live in ocean_query.c; the layout in ocean_internal.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "naval/ranges.h"
#include "naval/vecmath.h"
#include "ocean_internal.h"

/* Field -> (pair, slot) in the interleaved output. */
static const int field_pair[OCEAN_FIELD_COUNT] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4};


/* ------------------------------------------------------------ parameters */

nv_ocean_params nv_ocean_params_default(void) {
    nv_ocean_params p;
    memset(&p, 0, sizeof p);
    p.spectrum = SPECTRUM_JONSWAP;
    p.spreading = SPREADING_AUTO;
    p.gravity = 9.81;
    p.wind_speed = 10.0;
    p.wind_direction = 0.0;
    p.fetch = 100000.0;
    p.depth = 0.0;
    p.gamma = 3.3;
    p.swell = 0.0;
    p.choppiness = 1.0;
    p.beaufort = -1;
    p.hs_target = 0.0;
    p.tp = 0.0;
    p.size = 0.0; /* from the spectrum's peak */
    p.cascade_ratio = 5.23;
    p.cascades = 3;
    p.resolution = 256;
    p.resolution_z = 0;
    p.repeat_period = 1000.0;
    p.min_wavelength = 0.0;
    p.seed = 1;
    p.query_iterations = 8;
    p.query_tolerance = 1e-3;
    return p;
}

int nv_ocean_params_validate(const nv_ocean_params* p, nv_error* err) {
    if (!p) return nv_error_set(err, "ocean: no parameters");
    if ((int)p->spectrum < SPECTRUM_PHILLIPS || (int)p->spectrum > SPECTRUM_TMA)
        return nv_error_set(err, "spectrum: unknown spectrum %d", (int)p->spectrum);
    if ((int)p->spreading < SPREADING_AUTO || (int)p->spreading > SPREADING_DONELAN_BANNER)
        return nv_error_set(err, "spreading: unknown spreading %d", (int)p->spreading);
    /* The bounds are the rows of naval/ranges.h; keys as scenario files name them. */
    const struct {
        const char* key;
        double value;
        nv_range_id range;
    } fields[] = {
        {"gravity", p->gravity, NV_RANGE_WORLD_GRAVITY},
        {"hs", p->hs_target, NV_RANGE_OCEAN_HS},
        {"tp", p->tp, NV_RANGE_OCEAN_TP},
        {"wind", p->wind_speed, NV_RANGE_OCEAN_WIND},
        {"wind_dir", p->wind_direction, NV_RANGE_OCEAN_WIND_DIR},
        {"fetch", p->fetch, NV_RANGE_OCEAN_FETCH},
        {"depth", p->depth, NV_RANGE_OCEAN_DEPTH},
        {"gamma", p->gamma, NV_RANGE_OCEAN_GAMMA},
        {"swell", p->swell, NV_RANGE_OCEAN_SWELL},
        {"choppiness", p->choppiness, NV_RANGE_OCEAN_CHOPPINESS},
        {"size", p->size, NV_RANGE_OCEAN_SIZE},
        {"cascades", p->cascades, NV_RANGE_OCEAN_CASCADES},
        {"resolution", p->resolution, NV_RANGE_OCEAN_RESOLUTION},
        {"repeat_period", p->repeat_period, NV_RANGE_OCEAN_REPEAT_PERIOD},
        {"min_wavelength", p->min_wavelength, NV_RANGE_OCEAN_MIN_WAVELENGTH},
        {"query_iterations", p->query_iterations, NV_RANGE_OCEAN_QUERY_ITERATIONS},
        {"query_tolerance", p->query_tolerance, NV_RANGE_OCEAN_QUERY_TOLERANCE},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (nv_range_check(fields[i].range, fields[i].value, fields[i].key, err)) return -1;
    if (p->beaufort != -1 && nv_range_check(NV_RANGE_OCEAN_BEAUFORT, p->beaufort, "beaufort (or -1: unused)", err))
        return -1;
    if (p->resolution_z != 0 && nv_range_check(NV_RANGE_OCEAN_RESOLUTION, p->resolution_z, "resolution_z (or 0)", err))
        return -1;
    if (p->spectrum == SPECTRUM_TMA && !(p->depth > 0.0))
        return nv_error_set(err, "depth: the TMA spectrum needs a finite depth > 0 m");
    int n = p->resolution_z > 0 && p->resolution_z < p->resolution ? p->resolution_z : p->resolution;
    if (p->cascades > 1) {
        if (nv_range_check(NV_RANGE_OCEAN_CASCADE_RATIO, p->cascade_ratio, "cascade_ratio", err)) return -1;
        /* the coarser tile must resolve the cut: CUT * 2 pi r / L <= pi N / L */
        if (2.0 * OCEAN_CASCADE_CUT * p->cascade_ratio > n)
            return nv_error_set(err, "resolution %d is too small for %d cascades of ratio %g (needs >= %g)", n,
                                p->cascades, p->cascade_ratio, 2.0 * OCEAN_CASCADE_CUT * p->cascade_ratio);
    }
    /* The finest tile's grid spacing (L_c = size / ratio^c, along its finer
     * axis); an automatic size (0) is checked when the ocean resolves it. */
    int n_max = p->resolution_z > p->resolution ? p->resolution_z : p->resolution;
    double spacing = p->size / pow(p->cascades > 1 ? p->cascade_ratio : 1.0, p->cascades - 1) / n_max;
    char why[256];
    if (p->size != 0.0 && nv_range_why(NV_RANGE_OCEAN_GRID_SPACING, spacing, why, sizeof why))
        return nv_error_set(err, "size: the finest grid spacing (size / cascade_ratio^%d / resolution %d) %s",
                            p->cascades - 1, n_max, why);
    if (p->tp > 0.0 && p->spectrum == SPECTRUM_PHILLIPS)
        return nv_error_set(err, "tp: the Phillips spectrum has no peak period to set (pm, jonswap and tma have)");
    if (p->tp > 0.0 && !(p->hs_target > 0.0) && p->beaufort < 0)
        return nv_error_set(err, "tp %g s needs hs (or beaufort): it is the peak period of a sea of that height",
                            p->tp);
    if (p->surface_grid != 0 && p->surface_grid != 1)
        return nv_error_set(err, "surface grid must be 0 or 1 (got %d)", p->surface_grid);
    if (p->surface_grid && p->cascades != 1)
        return nv_error_set(err, "surface grid needs exactly 1 cascade (got %d): several tiles of different "
                                 "sizes are not periodic together", p->cascades);
    return 0;
}

/* ------------------------------------------------------------ amplitudes */

static int wrap_index(int n, int size) { return n < size / 2 ? n : n - size; }

/* h0(k) for wave (n, m) of cascade c, before amp_scale; 0 outside the band.
 * Returns the expected |h0|^2 = S(k) dk^2 / 2. */
static double wave_amplitude(const nv_ocean* o, int c, int n, int m, double out[2]) {
    const ocean_cascade* cc = &o->cascade[c];
    out[0] = out[1] = 0.0;
    if (n <= -o->nx / 2 || n >= o->nx / 2 || m <= -o->nz / 2 || m >= o->nz / 2) return 0.0; /* Nyquist */
    if (n == 0 && m == 0) return 0.0;
    double kx = cc->dk * n, kz = cc->dk * m;
    double k = sqrt(kx * kx + kz * kz);
    if (!(k >= cc->k_lo && k < cc->k_hi)) return 0.0;
    if (o->params.min_wavelength > 0.0 && k > 2.0 * NV_PI / o->params.min_wavelength) return 0.0;
    double s = nv_spectrum_density_2d(&o->model, kx, kz, o->wind_dir);
    if (!(s > 0.0)) return 0.0;
    double a = 0.5 * sqrt(s) * cc->dk; /* E |h0|^2 = S dk^2 / 2 */
    double xi[2];
    nv_spectrum_gaussian_pair(o->params.seed, c, n, m, xi);
    out[0] = a * xi[0];
    out[1] = a * xi[1];
    return 2.0 * a * a;
}

static int wave_omega_index(const nv_ocean* o, const ocean_cascade* cc, int n, int m) {
    double kx = cc->dk * n, kz = cc->dk * m;
    double k = sqrt(kx * kx + kz * kz);
    if (!(k > 0.0)) return 0;
    double w = nv_spectrum_dispersion(k, o->params.depth, o->params.gravity);
    double j = floor(w / o->omega0 + 0.5);
    return j < 1.0 ? 1 : (int)j;
}

/* Fills the per-cell cache of cascade c (amp without amp_scale). Returns the
 * cascade's share of 2 sum |h0|^2 (its time-mean height variance). */
static double cascade_fill(nv_ocean* o, int c) {
    ocean_cascade* cc = &o->cascade[c];
    float lambda = (float)o->params.choppiness;
    double variance = 0.0;
    cc->jmax = 0;
    cc->ncols = 0;
    for (int m = 0; m < o->nz; m++) cc->kz[m] = (float)(cc->dk * wrap_index(m, o->nz));
    for (int n = 0; n < o->hx; n++) {
        float kx = (float)(cc->dk * n);
        cc->kx[n] = kx;
        cc->mul_ikx[2 * n] = -kx;
        cc->mul_ikx[2 * n + 1] = kx;
        cc->mul_kx2[2 * n] = cc->mul_kx2[2 * n + 1] = -kx * kx;
        for (int m = 0; m < o->nz; m++) {
            int ms = wrap_index(m, o->nz);
            size_t i = (size_t)n * o->nz + m;
            double p[2], q[2];
            double ep = wave_amplitude(o, c, n, ms, p);
            double eq = wave_amplitude(o, c, -n, -ms, q);
            float* a = cc->amp + 4 * i;
            a[0] = (float)(p[0] + q[0]);
            a[1] = (float)(p[1] + q[1]);
            a[2] = (float)(q[0] - p[0]);
            a[3] = (float)(p[1] - q[1]);
            int empty = p[0] == 0.0 && p[1] == 0.0 && q[0] == 0.0 && q[1] == 0.0;
            cc->widx[i] = empty ? 0 : wave_omega_index(o, cc, n, ms);
            if (cc->widx[i] > cc->jmax) cc->jmax = cc->widx[i];
            if (!empty && n + 1 > cc->ncols) cc->ncols = n + 1;
            double k = cc->dk * sqrt((double)n * n + (double)ms * ms);
            cc->ginv[i] = k > 0.0 ? (float)(lambda / k) : 0.0f;
            /* 2 sum |h0|^2 over the full plane: a stored cell holds k and
             * -k; the kx = 0 column holds both halves itself, count it half */
            double e = p[0] * p[0] + p[1] * p[1] + q[0] * q[0] + q[1] * q[1];
            variance += (n == 0 ? 1.0 : 2.0) * e;
            o->expected_variance += (n == 0 ? 1.0 : 2.0) * (ep + eq);
        }
    }
    if (cc->ncols == 0) cc->ncols = 1; /* flat: transform zeros all the same */
    return variance;
}

/* ---------------------------------------------------------------- layout */

/* size 0: cascade 0's tile holds OCEAN_AUTO_SIZE_WAVELENGTHS peak
 * wavelengths (1000 m for a flat sea), no less than the finest grid
 * spacing allows and within the size's range (naval/ranges.h). */
static double auto_size(const nv_ocean_params* p, const nv_spectrum_model* m) {
    double s = 1000.0;
    if (m->omega_p > 0.0) s = OCEAN_AUTO_SIZE_WAVELENGTHS * 2.0 * NV_PI * m->gravity / (m->omega_p * m->omega_p);
    int n_max = p->resolution_z > p->resolution ? p->resolution_z : p->resolution;
    double finest = n_max * pow(p->cascades > 1 ? p->cascade_ratio : 1.0, p->cascades - 1);
    const nv_range* spacing = nv_range_get(NV_RANGE_OCEAN_GRID_SPACING);
    const nv_range* size = nv_range_get(NV_RANGE_OCEAN_SIZE);
    if (s < spacing->lo * finest) s = spacing->lo * finest * (1.0 + 1e-9); /* clear of rounding at the bound */
    return s < size->lo ? size->lo : s > size->hi ? size->hi : s;
}

/* The cut between cascades c and c + 1 placed from the peak, or 0 for the
 * default cut (OCEAN_CASCADE_CUT wavelengths of c + 1's tile): when the
 * peak band (up to k_p OCEAN_PEAK_BAND_HI) reaches above the default cut
 * but ends below c's Nyquist (along both axes), the cut goes to the band's
 * top and c's grid holds the whole peak. Otherwise the band ends below the
 * default cut (the peak is c's or a coarser cascade's), or c cannot hold it
 * (the peak is finer cascades' business: their own cuts). */
static double cascade_moved_cut(const nv_ocean* o, int c, double kp) {
    const nv_ocean_params* p = &o->params;
    double lo = OCEAN_CASCADE_CUT * 2.0 * NV_PI * pow(p->cascade_ratio, c + 1) / p->size;
    int n = o->nx < o->nz ? o->nx : o->nz;
    double hi = (n / 2 - 1) * 2.0 * NV_PI * pow(p->cascade_ratio, c) / p->size;
    double top = kp * OCEAN_PEAK_BAND_HI;
    return kp > 0.0 && top > lo && top <= hi ? top : 0.0;
}

/* ------------------------------------------------------------- lifecycle */

static void cascade_free(ocean_cascade* cc) {
    for (int i = 0; i < 2; i++)
        if (cc->plan_z[i]) fftwf_destroy_plan(cc->plan_z[i]);
    if (cc->plan_x) fftwf_destroy_plan(cc->plan_x);
    for (int b = 0; b < OCEAN_BASE_COUNT; b++) fftwf_free(cc->mid[b]);
    for (int p = 0; p < OCEAN_PAIR_COUNT; p++) fftwf_free(cc->out[p]);
    free(cc->amp);
    free(cc->widx);
    free(cc->ginv);
    free(cc->kz);
    free(cc->kx);
    free(cc->mul_ikx);
    free(cc->mul_kx2);
}

void nv_ocean_destroy(nv_ocean* o) {
    if (!o) return;
    for (int c = 0; c < OCEAN_MAX_CASCADES; c++) cascade_free(&o->cascade[c]);
    free(o->surface);
    free(o->phasor);
    free(o->phasor_lo);
    free(o->phasor_hi);
    free(o);
}

static size_t ocean_water_sample(const nv_water_surface* self, const nv_water_query* q) {
    return nv_ocean_sample((const nv_ocean*)self, q);
}

static int cascade_alloc(nv_ocean* o, ocean_cascade* cc) {
    size_t cells = (size_t)o->nz * o->hx;
    size_t mid = (size_t)o->mid_stride * o->nz;
    size_t full = (size_t)o->nz * o->nx;
    cc->amp = calloc(4 * cells, sizeof(float));
    cc->widx = calloc(cells, sizeof(int32_t));
    cc->ginv = calloc(cells, sizeof(float));
    cc->kz = calloc((size_t)o->nz, sizeof(float));
    cc->kx = calloc((size_t)o->hx, sizeof(float));
    cc->mul_ikx = calloc(2 * (size_t)o->hx, sizeof(float));
    cc->mul_kx2 = calloc(2 * (size_t)o->hx, sizeof(float));
    if (!cc->amp || !cc->widx || !cc->ginv || !cc->kz || !cc->kx || !cc->mul_ikx || !cc->mul_kx2) return -1;
    for (int b = 0; b < OCEAN_BASE_COUNT; b++) {
        cc->mid[b] = fftwf_alloc_complex(mid);
        if (!cc->mid[b]) return -1;
        memset(cc->mid[b], 0, mid * sizeof(fftwf_complex));
    }
    for (int p = 0; p < OCEAN_PAIR_COUNT; p++) {
        cc->out[p] = fftwf_alloc_complex(full);
        if (!cc->out[p]) return -1;
        memset(cc->out[p], 0, full * sizeof(fftwf_complex));
    }
    return 0;
}

static int cascade_plan(nv_ocean* o, ocean_cascade* cc) {
    int nz = o->nz, nx = o->nx;
    /* FFTW_ESTIMATE: the same plan every run, and arrays untouched while
     * planning. The z pass reads a contiguous column (any 64-byte aligned
     * buffer) and writes down column n of mid: odd n are 8 bytes off the
     * alignment of even ones, hence two plans. */
    fftwf_complex* in = fftwf_alloc_complex((size_t)nz);
    if (!in) return -1;
    for (int i = 0; i < 2; i++)
        cc->plan_z[i] = fftwf_plan_many_dft(1, &nz, 1, in, NULL, 1, nz, cc->mid[0] + i, NULL, o->mid_stride, 1,
                                            FFTW_BACKWARD, FFTW_ESTIMATE);
    fftwf_free(in);
    /* planned on two output rows; executed from the (equally aligned) stack scratch */
    cc->plan_x = fftwf_plan_many_dft(1, &nx, 1, cc->out[1], NULL, 1, nx, cc->out[0], NULL, 1, nx, FFTW_BACKWARD,
                                     FFTW_ESTIMATE);
    return cc->plan_z[0] && cc->plan_z[1] && cc->plan_x ? 0 : -1;
}

/* The dispersion relation inverted: omega^2 = g k tanh(k depth) (deep
 * water: depth <= 0), by Newton's method from the deep-water root. */
static double ocean_wavenumber_of(double omega, double depth, double gravity) {
    double k = omega * omega / gravity;
    if (!(depth > 0.0)) return k;
    for (int i = 0; i < 60; i++) {
        double t = tanh(k * depth);
        double f = gravity * k * t - omega * omega;
        double df = gravity * (t + k * depth * (1.0 - t * t));
        double step = f / df;
        k -= step;
        if (!(k > 0.0)) k = 1e-9;
        if (fabs(step) <= 1e-12 * k) break;
    }
    return k;
}

nv_ocean* nv_ocean_create(const nv_ocean_params* params, nv_error* err) {
    if (nv_ocean_params_validate(params, err) != 0) return NULL;
    nv_ocean* o = calloc(1, sizeof *o);
    if (!o) {
        nv_error_fail(err, NV_ENOMEM, "ocean: out of memory");
        return NULL;
    }
    o->base.sample = ocean_water_sample;
    o->base.breaking = ocean_breaking;
    o->params = *params;
    nv_ocean_params* p = &o->params;
    if (p->beaufort >= 0) {
        p->wind_speed = nv_spectrum_beaufort_wind(p->beaufort);
        p->hs_target = nv_spectrum_beaufort_hs(p->beaufort);
    }
    if (p->resolution_z == 0) p->resolution_z = p->resolution;
    o->nx = p->resolution;
    o->nz = p->resolution_z;
    o->hx = o->nx / 2; /* the Nyquist column is always 0 and is not stored */
    o->mid_stride = o->hx + 4; /* off power-of-two strides: the z pass writes down columns */
    o->cascade_count = p->cascades;
    /* The spectrum measures angles from +x toward +z; the public convention
     * (headings, wind) turns toward -z. */
    o->wind_dir = -p->wind_direction * NV_PI / 180.0;
    o->omega0 = 2.0 * NV_PI / p->repeat_period;
    o->amp_scale = 1.0;

    nv_spectrum_model* m = &o->model;
    m->type = p->spectrum;
    m->spreading = p->spreading;
    m->gravity = p->gravity;
    m->wind_speed = p->wind_speed;
    m->fetch = p->fetch;
    m->depth = p->depth;
    m->gamma = p->gamma;
    m->swell = p->swell;
    m->scale = 1.0;
    m->peak_period = p->tp;
    nv_spectrum_model_prepare(m);
    /* a sea given by its height alone is no steeper than SPECTRUM_MAX_STEEPNESS */
    if (p->hs_target > 0.0 && !(p->tp > 0.0) && m->type != SPECTRUM_PHILLIPS && m->omega_p > 0.0) {
        double tp_min = nv_spectrum_min_peak_period(p->hs_target, p->gravity);
        if (2.0 * NV_PI / m->omega_p < tp_min) {
            m->peak_period = tp_min;
            nv_spectrum_model_prepare(m);
        }
    }
    if (!(p->size > 0.0)) {
        p->size = auto_size(p, m);
        if (nv_ocean_params_validate(p, err) != 0) {
            nv_error_prefix(err, "the size from the spectrum's peak (%g m)", p->size);
            nv_ocean_destroy(o);
            return NULL;
        }
    }

    double variance = 0.0, kp = m->omega_p * m->omega_p / m->gravity, moved = 0.0;
    for (int c = 0; c < o->cascade_count; c++) {
        ocean_cascade* cc = &o->cascade[c];
        cc->size = p->size / pow(p->cascade_ratio, c);
        cc->dk = 2.0 * NV_PI / cc->size;
        cc->k_lo = c == 0 ? 0.0 : moved > 0.0 ? moved : OCEAN_CASCADE_CUT * cc->dk;
        moved = c + 1 < o->cascade_count ? cascade_moved_cut(o, c, kp) : 0.0;
        double cut = moved > 0.0 ? moved : OCEAN_CASCADE_CUT * 2.0 * NV_PI * pow(p->cascade_ratio, c + 1) / p->size;
        cc->k_hi = c + 1 < o->cascade_count ? cut : INFINITY;
        cc->inv_cell_x = o->nx / cc->size;
        cc->inv_cell_z = o->nz / cc->size;
        cc->inv_nx = 1.0 / o->nx;
        cc->inv_nz = 1.0 / o->nz;
        if (cascade_alloc(o, cc) != 0) {
            nv_error_fail(err, NV_ENOMEM, "ocean: out of memory for a %dx%d cascade", o->nx, o->nz);
            nv_ocean_destroy(o);
            return NULL;
        }
        variance += cascade_fill(o, c);
        if (cc->jmax > o->jmax) o->jmax = cc->jmax;
    }
    if (p->hs_target > 0.0) {
        if (!(variance > 0.0)) {
            nv_error_set(err, "hs target %g m: the spectrum is flat (wind speed 0?), nothing to scale", p->hs_target);
            nv_ocean_destroy(o);
            return NULL;
        }
        double s = 0.25 * p->hs_target / sqrt(variance);
        o->amp_scale = s;
        m->scale = s * s;
        o->expected_variance *= s * s;
        for (int c = 0; c < o->cascade_count; c++) {
            ocean_cascade* cc = &o->cascade[c];
            size_t cells4 = 4 * (size_t)o->nz * o->hx;
            for (size_t i = 0; i < cells4; i++) cc->amp[i] = (float)(cc->amp[i] * s);
        }
    }
    o->phasor = calloc(2 * ((size_t)o->jmax + 1), sizeof(float));
    o->phasor_lo = calloc(2 * OCEAN_PHASOR_BLOCK, sizeof(double));
    o->phasor_hi = calloc(2 * ((size_t)o->jmax / OCEAN_PHASOR_BLOCK + 1), sizeof(double));
    if (!o->phasor || !o->phasor_lo || !o->phasor_hi) {
        nv_error_fail(err, NV_ENOMEM, "ocean: out of memory");
        nv_ocean_destroy(o);
        return NULL;
    }
    if (p->surface_grid) {
        o->surface = calloc(2 * (size_t)o->nx * o->nz, sizeof(float));
        if (!o->surface) {
            nv_error_fail(err, NV_ENOMEM, "ocean: out of memory for a %dx%d surface grid", o->nx, o->nz);
            nv_ocean_destroy(o);
            return NULL;
        }
        o->base.sample_near = ocean_grid_sample_near;
    }
    o->peak_omega = nv_spectrum_peak_omega(m);
    o->m0 = nv_spectrum_m0(m);
    /* the Smith effect at the spectral peak's wavenumber (naval/water.h):
     * the sea's shorter waves fall off faster still, so this errs toward
     * the hydrostatic pressure it replaces */
    o->base.pressure_decay = o->peak_omega > 0.0 ? ocean_wavenumber_of(o->peak_omega, m->depth, m->gravity) : 0.0;
    o->base.mean_level = 0.0;
    for (int c = 0; c < o->cascade_count; c++) {
        if (cascade_plan(o, &o->cascade[c]) != 0) {
            nv_error_set(err, "ocean: FFTW could not plan a %dx%d transform", o->nx, o->nz);
            nv_ocean_destroy(o);
            return NULL;
        }
    }
    nv_ocean_update(o, 0.0);
    return o;
}

/* --------------------------------------------------------- introspection */

const nv_water_surface* nv_ocean_surface(const nv_ocean* o) { return &o->base; }
const nv_ocean_params* nv_ocean_get_params(const nv_ocean* o) { return &o->params; }
const nv_spectrum_model* nv_ocean_get_model(const nv_ocean* o) { return &o->model; }
int nv_ocean_cascade_count(const nv_ocean* o) { return o->cascade_count; }
double nv_ocean_cascade_size(const nv_ocean* o, int c) { return o->cascade[c].size; }
double nv_ocean_time(const nv_ocean* o) { return o->time; }

void nv_ocean_cascade_band(const nv_ocean* o, int c, double* k_lo, double* k_hi) {
    if (k_lo) *k_lo = o->cascade[c].k_lo;
    if (k_hi) *k_hi = o->cascade[c].k_hi;
}

void nv_ocean_resolution(const nv_ocean* o, int* nx, int* nz) {
    if (nx) *nx = o->nx;
    if (nz) *nz = o->nz;
}

const float* nv_ocean_field(const nv_ocean* o, int c, nv_ocean_field_id f) {
    if (c < 0 || c >= o->cascade_count || (int)f < 0 || f >= OCEAN_FIELD_COUNT) return NULL;
    return (const float*)o->cascade[c].out[field_pair[f]] + (f & 1);
}

void nv_ocean_initial_amplitude(const nv_ocean* o, int c, int n, int m, double out[2]) {
    wave_amplitude(o, c, n, m, out);
    out[0] *= o->amp_scale;
    out[1] *= o->amp_scale;
}

double nv_ocean_wave_omega(const nv_ocean* o, int c, int n, int m) {
    return wave_omega_index(o, &o->cascade[c], n, m) * o->omega0;
}

void nv_ocean_evolved_amplitude(const nv_ocean* o, int c, int n, int m, float out[2]) {
    const ocean_cascade* cc = &o->cascade[c];
    out[0] = out[1] = 0.0f;
    if (n <= -o->nx / 2 || n >= o->nx / 2 || m <= -o->nz / 2 || m >= o->nz / 2) return;
    /* the cache holds kx >= 0; -k is the conjugate of the stored cell */
    int conj = n < 0;
    if (conj) {
        n = -n;
        m = -m;
    }
    size_t i = (size_t)n * o->nz + (m < 0 ? m + o->nz : m);
    const float* a = cc->amp + 4 * i;
    int j = cc->widx[i];
    float cs = o->phasor[2 * j], sn = o->phasor[2 * j + 1];
    float hr = cs * a[0] + sn * a[1];
    float hi = cs * a[3] + sn * a[2];
    out[0] = hr;
    out[1] = conj ? -hi : hi;
}
