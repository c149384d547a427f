// SPDX-License-Identifier: MIT
/* naval-ocean: builds the FFT ocean, advances it to a time and prints the
 * measured statistics of the field, the update time per step and the query
 * cost; optionally writes a shaded picture of the sea (PNG). */
#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "naval/ocean.h"
#include "naval/ranges.h"
#include "naval/vecmath.h"

static const char ocean_about[] =
    "Builds the FFT ocean, advances it to --time and prints the field's statistics:\n"
    "hs_measured (4 std of the grid heights), hs_spectrum (4 sqrt(m0) of the spectrum),\n"
    "hs_grid (4 sqrt of the variance the grids' waves hold on average), peak_period,\n"
    "max/min height, fold_fraction, the breaking crests over cascade 0's labels\n"
    "(breaking_fraction, breaking_strength_mean: the share of each that breaks), the\n"
    "update time per step and the cost of batched choppy-surface queries.";
static const char ocean_epilogue[] =
    "Exit status: 0 ok, 1 the picture could not be written (or memory ran out), 2 bad\n"
    "arguments (an --image path that cannot be created included).";

typedef struct ocean_args {
    nv_ocean_params p;
    double time;
    int steps;
    int json;
    int patch_bench;
    int wind_given;
    const char* image;
    int image_size;
    double image_extent;
} ocean_args;

/* The flags that set a quantity of the range table (naval/ranges.h): each
 * value is checked against its row (the row's id) as it is read, so a bad
 * one exits 2 with the range ("--wind: must be in [0, 60] m/s (got 1e+300)"). */
static int ocean_check_range(const cli_opt* o, double v, char* why, size_t n) {
    return nv_range_why((nv_range_id)o->id, v, why, n);
}

#define OCEAN_RANGED(name, t, field, range, vn, text) \
    {name, .type = t, CLI_FIELD(ocean_args, field), .check = ocean_check_range, .id = range, .value_name = vn, \
     .help = text}

static const char* const ocean_spectra[] = {"phillips", "pm", "jonswap", "tma", NULL};
static const char* const ocean_spreadings[] = {"auto", "cos2", "mitsuyasu", "donelan-banner", NULL};

static const cli_opt ocean_opts[] = {
    {"--spectrum", .type = CLI_ENUM, CLI_FIELD(ocean_args, p.spectrum), .words = ocean_spectra,
     .help = "(default jonswap)"},
    {"--spreading", .type = CLI_ENUM, CLI_FIELD(ocean_args, p.spreading), .words = ocean_spreadings,
     .help = "(default auto)"},
    {"--wind", .type = CLI_DOUBLE, CLI_FIELD(ocean_args, p.wind_speed), CLI_SEEN(ocean_args, wind_given),
     .check = ocean_check_range, .id = NV_RANGE_OCEAN_WIND, .value_name = "M/S",
     .help = "wind speed at 10 m, U10, for every spectrum (default 10)"},
    OCEAN_RANGED("--wind-dir", CLI_DOUBLE, p.wind_direction, NV_RANGE_OCEAN_WIND_DIR, "DEG",
                 "toward which the wind blows: about +y from +x toward -z,\nas headings (default 0)"),
    OCEAN_RANGED("--fetch", CLI_DOUBLE, p.fetch, NV_RANGE_OCEAN_FETCH, "M", "(default 100000)"),
    OCEAN_RANGED("--depth", CLI_DOUBLE, p.depth, NV_RANGE_OCEAN_DEPTH, "M", "0 = deep (default 0); tma needs > 0"),
    OCEAN_RANGED("--gamma", CLI_DOUBLE, p.gamma, NV_RANGE_OCEAN_GAMMA, "G", "JONSWAP peak enhancement (default 3.3)"),
    OCEAN_RANGED("--swell", CLI_DOUBLE, p.swell, NV_RANGE_OCEAN_SWELL, "S", "0..1 (default 0)"),
    OCEAN_RANGED("--beaufort", CLI_INT, p.beaufort, NV_RANGE_OCEAN_BEAUFORT, "B",
                 "sea state 0..12: sets the wind and the target Hs"),
    OCEAN_RANGED("--hs", CLI_DOUBLE, p.hs_target, NV_RANGE_OCEAN_HS, "M",
                 "target significant height; without --wind, the wind of\na fully developed sea of that height"),
    OCEAN_RANGED("--tp", CLI_DOUBLE, p.tp, NV_RANGE_OCEAN_TP, "S",
                 "peak period of the --hs sea (pm, jonswap, tma; default: from\n"
                 "the wind and fetch, at least 3.6 sqrt(Hs): Hs / Lp <= 1/20)"),
    OCEAN_RANGED("--size", CLI_DOUBLE, p.size, NV_RANGE_OCEAN_SIZE, "M",
                 "tile of cascade 0 (default: 16 peak wavelengths)"),
    OCEAN_RANGED("--resolution", CLI_INT, p.resolution, NV_RANGE_OCEAN_RESOLUTION, "N",
                 "grid N x N, a power of two (default 256)"),
    OCEAN_RANGED("--cascades", CLI_INT, p.cascades, NV_RANGE_OCEAN_CASCADES, "K", "1..4 (default 3)"),
    OCEAN_RANGED("--ratio", CLI_DOUBLE, p.cascade_ratio, NV_RANGE_OCEAN_CASCADE_RATIO, "R",
                 "tile size ratio between cascades (default 5.23)"),
    OCEAN_RANGED("--choppiness", CLI_DOUBLE, p.choppiness, NV_RANGE_OCEAN_CHOPPINESS, "L", "lambda (default 1)"),
    OCEAN_RANGED("--seed", CLI_UINT, p.seed, NV_RANGE_WORLD_SEED, "S", "(default 1)"),
    {"--time", .type = CLI_DOUBLE, CLI_FIELD(ocean_args, time), .value_name = "T", .help = "seconds (default 0)"},
    {"--steps", .type = CLI_INT, CLI_FIELD(ocean_args, steps), .min = 1, .max = 100000, .value_name = "N",
     .help = "updates timed, ending at --time (default 20)"},
    {"--patch-bench", .type = CLI_SWITCH, CLI_FIELD(ocean_args, patch_bench),
     .help = "also measure a per-vessel water patch (bilinear lookups in\n"
             "a grid of choppy queries over the footprint) against\n"
             "direct queries, for two vessels and four patch spacings"},
    {"--json", .type = CLI_SWITCH, CLI_FIELD(ocean_args, json), .help = "one JSON object on stdout"},
    {"--image", .type = CLI_STRING, CLI_FIELD(ocean_args, image), .value_name = "FILE.png",
     .help = "shaded picture of the sea, seen from above (+x right, +z up)"},
    {"--image-size", .type = CLI_INT, CLI_FIELD(ocean_args, image_size), .min = 16, .max = 8192, .value_name = "PX",
     .help = "(default 512)"},
    {"--image-extent", .type = CLI_DOUBLE, CLI_FIELD(ocean_args, image_extent), .value_name = "M",
     .help = "side of the pictured square (default: the smaller of\ncascade 0's tile and 300 m)"},
    {0}};

static const cli_spec ocean_spec = {.prog = "naval-ocean", .synopsis = "naval-ocean [options]",
                                    .about = ocean_about, .opts = ocean_opts, .epilogue = ocean_epilogue};

/* 1 after --help, 2 after a usage error, else 0. */
static int parse_args(int argc, char** argv, ocean_args* a) {
    memset(a, 0, sizeof *a);
    a->p = nv_ocean_params_default();
    a->steps = 20;
    a->image_size = 512;
    int rc = cli_parse(&ocean_spec, argc, argv, a);
    if (rc != CLI_RUN) return rc ? rc : 1;
    if (a->p.hs_target > 0.0 && !a->wind_given && a->p.beaufort < 0)
        a->p.wind_speed = nv_spectrum_wind_for_hs(a->p.hs_target, a->p.gravity);
    return 0;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ------------------------------------------------------------------ image */

static unsigned char to_byte(double v) {
    v = v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
    return (unsigned char)(v * 255.0 + 0.5);
}

/* 8-bit RGB rows to a PNG file (row 0 at the top). */
/* 0 written; -1 the file could not be created (errno says why); 1 a write error. */
static int png_write_rgb(const char* path, unsigned char* rgb, int px, png_bytep* rows) {
    FILE* f = fopen(path, "wb");
    if (!f) return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        return 1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)px, (png_uint_32)px, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    for (int j = 0; j < px; j++) rows[j] = rgb + 3 * (size_t)(px - 1 - j) * px; /* +z up in the picture */
    png_set_rows(png, info, rows);
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    png_destroy_write_struct(&png, &info);
    return fclose(f) != 0;
}

/* The sea over a square of side `extent`, seen from above: heights from the choppy
 * query; slopes from differences of those heights one pixel apart (a filter:
 * waves shorter than a pixel would only add noise); a low sun from -x; foam
 * where the surface folds or nearly does. */
static int write_image(const nv_ocean* o, const char* path, int px, double extent, double hs) {
    double step = extent / px;
    size_t n = (size_t)px * px;
    double* x = malloc(n * sizeof(double));
    double* z = malloc(n * sizeof(double));
    float* h = malloc(n * sizeof(float));
    nv_ocean_point* lab = malloc(n * sizeof(nv_ocean_point));
    unsigned char* rgb = malloc(3 * n);
    png_bytep* rows = malloc((size_t)px * sizeof(png_bytep));
    int rc = 1;
    if (!x || !z || !h || !lab || !rgb || !rows) goto done;
    for (int j = 0; j < px; j++)
        for (int i = 0; i < px; i++) {
            x[(size_t)j * px + i] = (i + 0.5) * step;
            z[(size_t)j * px + i] = (j + 0.5) * step;
        }
    nv_water_query q = {n, x, z, h, NULL, NULL};
    nv_ocean_sample(o, &q);
    nv_ocean_sample_labels(o, n, x, z, lab); /* the Jacobian, about where the pixel's label is */
    const double elev = 0.45, sun[3] = {-cos(elev), sin(elev), 0.0};
    double amp = hs > 0.0 ? 0.5 * hs : 1.0;
    for (int j = 0; j < px; j++) {
        for (int i = 0; i < px; i++) {
            size_t k = (size_t)j * px + i;
            int i0 = i > 0 ? i - 1 : i, i1 = i + 1 < px ? i + 1 : i;
            int j0 = j > 0 ? j - 1 : j, j1 = j + 1 < px ? j + 1 : j;
            double gx = (h[(size_t)j * px + i1] - h[(size_t)j * px + i0]) / ((i1 - i0) * step);
            double gz = (h[(size_t)j1 * px + i] - h[(size_t)j0 * px + i]) / ((j1 - j0) * step);
            double len = sqrt(gx * gx + 1.0 + gz * gz);
            double nx = -gx / len, ny = 1.0 / len, nz = -gz / len;
            double diff = fmax(0.0, nx * sun[0] + ny * sun[1] + nz * sun[2]);
            /* sky reflection toward a viewer above: brighter where the sea faces the sun */
            double glint = pow(fmax(0.0, 0.5 + 0.5 * (nx * sun[0] + nz * sun[2]) / 0.2), 4.0) * 0.15;
            double t = 0.5 + 0.5 * tanh(h[k] / amp); /* 0 trough .. 1 crest */
            const double deep[3] = {0.01, 0.10, 0.20}, crest[3] = {0.08, 0.34, 0.44};
            double foam = lab[k].jacobian < 0.5f ? fmin(1.0, (0.5 - lab[k].jacobian) / 0.5) : 0.0;
            for (int c = 0; c < 3; c++) {
                double base = deep[c] + (crest[c] - deep[c]) * t;
                double col = base * (0.25 + 1.6 * diff) + glint;
                col = col * (1.0 - foam) + 0.95 * foam;
                rgb[3 * k + c] = to_byte(col);
            }
        }
    }
    rc = png_write_rgb(path, rgb, px, rows);
done:
    free(x);
    free(z);
    free(h);
    free(lab);
    free(rgb);
    free(rows);
    return rc;
}

/* ----------------------------------------------------------- patch bench */

/* Kerner's "water section" for one vessel: choppy queries on a regular grid
 * over the footprint, then each hull vertex by bilinear lookup (height,
 * normal, vertical velocity). Measured against direct batched queries of
 * the vertices: time for the whole pass (patch built each time, as it must
 * be every step) and the error of the patch's answers. */
static void patch_bench(const nv_ocean* o) {
    const double len[2] = {10.0, 100.0}, beam[2] = {4.0, 20.0};
    const int verts[2] = {250, 2500};
    const double spacing[4] = {0.14, 0.5, 1.0, 2.0};
    printf("water patch vs direct queries (best of 30 passes):\n");
    for (int v = 0; v < 2; v++) {
        int n = verts[v];
        double* x = malloc((size_t)n * sizeof(double));
        double* z = malloc((size_t)n * sizeof(double));
        float* out = malloc((size_t)n * 10 * sizeof(float)); /* direct h, n, w; patch h, n, w */
        if (!x || !z || !out) exit(1);
        uint64_t r = 99;
        for (int i = 0; i < n; i++) { /* vertices spread over the footprint */
            r = nv_spectrum_hash64(r);
            x[i] = 300.0 + len[v] * (double)(r >> 11) * 0x1.0p-53;
            r = nv_spectrum_hash64(r);
            z[i] = 200.0 + beam[v] * (double)(r >> 11) * 0x1.0p-53;
        }
        float *h = out, *nn = out + n, *w = out + 4 * n, *ph = out + 5 * n, *pn = out + 6 * n, *pw = out + 9 * n;
        nv_water_query q = {(size_t)n, x, z, h, nn, w};
        double direct = INFINITY;
        for (int rep = 0; rep < 30; rep++) {
            double t0 = now_s();
            nv_ocean_sample(o, &q);
            direct = fmin(direct, now_s() - t0);
        }
        printf("  vessel %g x %g m, %d vertices: direct %.1f us (%.1f ns/vertex)\n", len[v], beam[v], n, direct * 1e6,
               direct / n * 1e9);
        for (int s = 0; s < 4; s++) {
            double d = spacing[s], x0 = 300.0 - d, z0 = 200.0 - d;
            int gx = (int)ceil(len[v] / d) + 3, gz = (int)ceil(beam[v] / d) + 3;
            size_t g = (size_t)gx * gz;
            double* px = malloc(g * sizeof(double));
            double* pz = malloc(g * sizeof(double));
            float* pd = malloc(g * 5 * sizeof(float));
            if (!px || !pz || !pd) exit(1);
            double best = INFINITY;
            for (int rep = 0; rep < 30; rep++) {
                double t0 = now_s();
                for (int j = 0; j < gz; j++)
                    for (int i = 0; i < gx; i++) {
                        px[(size_t)j * gx + i] = x0 + i * d;
                        pz[(size_t)j * gx + i] = z0 + j * d;
                    }
                nv_water_query pq = {g, px, pz, pd, pd + g, pd + 4 * g};
                nv_ocean_sample(o, &pq);
                for (int k = 0; k < n; k++) {
                    double u = (x[k] - x0) / d, t = (z[k] - z0) / d;
                    int i = (int)u, j = (int)t;
                    float tx = (float)(u - i), tz = (float)(t - j);
                    size_t a = (size_t)j * gx + i, b = a + 1, c = a + gx, e = c + 1;
                    float w00 = (1 - tx) * (1 - tz), w10 = tx * (1 - tz), w01 = (1 - tx) * tz, w11 = tx * tz;
                    ph[k] = w00 * pd[a] + w10 * pd[b] + w01 * pd[c] + w11 * pd[e];
                    pw[k] = w00 * pd[4 * g + a] + w10 * pd[4 * g + b] + w01 * pd[4 * g + c] + w11 * pd[4 * g + e];
                    for (int m = 0; m < 3; m++)
                        pn[3 * k + m] = w00 * pd[g + 3 * a + m] + w10 * pd[g + 3 * b + m] + w01 * pd[g + 3 * c + m] +
                                        w11 * pd[g + 3 * e + m];
                }
                best = fmin(best, now_s() - t0);
            }
            double emax = 0.0, erms = 0.0, nmax = 0.0;
            for (int k = 0; k < n; k++) {
                double e = fabs(ph[k] - h[k]);
                emax = fmax(emax, e);
                erms += e * e;
                for (int m = 0; m < 3; m++) nmax = fmax(nmax, fabs(pn[3 * k + m] - nn[3 * k + m]));
            }
            printf("    patch %.2f m: %zu nodes, %.1f us (%.2f x direct); height error max %.3f m, rms %.4f m; "
                   "normal error max %.3f\n",
                   d, g, best * 1e6, best / direct, emax, sqrt(erms / n), nmax);
            free(px);
            free(pz);
            free(pd);
        }
        free(x);
        free(z);
        free(out);
    }
}

/* ------------------------------------------------------------------ main */

/* The breaking crests the surface answers (nv_water_surface.breaking) at
 * the surface points of cascade 0's labels: the share of labels that
 * break, and the mean part of a breaking crest's height that breaks (its
 * reach over its height above the mean level). What a renderer draws as
 * whitecaps is checked against these (tests/test_web_ocean.mjs). */
typedef struct ocean_breaking_stats {
    double stencil; /* the squeeze's half-width, m (0: the surface has no peak) */
    double fraction, strength_mean;
} ocean_breaking_stats;

static int measure_breaking(const nv_ocean* o, ocean_breaking_stats* bs) {
    int nx, nz;
    nv_ocean_resolution(o, &nx, &nz);
    const nv_water_surface* surface = nv_ocean_surface(o);
    const double size = nv_ocean_cascade_size(o, 0);
    const size_t n = (size_t)nx * nz;
    double* x = malloc(2 * n * sizeof *x);
    float* height = malloc(n * sizeof *height);
    float* out = malloc(3 * n * sizeof *out);
    nv_ocean_point* pt = malloc(n * sizeof *pt);
    if (!x || !height || !out || !pt) {
        free(x), free(height), free(out), free(pt);
        return -1;
    }
    double* z = x + n;
    for (int iz = 0; iz < nz; iz++)
        for (int ix = 0; ix < nx; ix++) {
            x[(size_t)iz * nx + ix] = ix * size / nx;
            z[(size_t)iz * nx + ix] = iz * size / nz;
        }
    nv_ocean_sample_labels(o, n, x, z, pt);
    for (size_t i = 0; i < n; i++) {
        x[i] += pt[i].disp_x, z[i] += pt[i].disp_z;
        height[i] = pt[i].height;
    }
    water_breaking(surface, n, x, z, height, out);
    size_t breaking = 0;
    double strength = 0.0;
    for (size_t i = 0; i < n; i++) {
        const double eta = (double)height[i] - surface->mean_level;
        if (!(out[3 * i + 2] > 0.0f && eta > 0.0)) continue;
        breaking++;
        strength += out[3 * i + 2] / eta;
    }
    bs->stencil = nv_ocean_breaking_stencil(o);
    bs->fraction = (double)breaking / (double)n;
    bs->strength_mean = breaking ? strength / (double)breaking : 0.0;
    free(x), free(height), free(out), free(pt);
    return 0;
}

static const char* spectrum_name(nv_spectrum_type t) {
    switch (t) {
    case SPECTRUM_PHILLIPS: return "phillips";
    case SPECTRUM_PIERSON_MOSKOWITZ: return "pm";
    case SPECTRUM_JONSWAP: return "jonswap";
    case SPECTRUM_TMA: return "tma";
    }
    return "?";
}

int main(int argc, char** argv) {
    ocean_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc == 1) return 0; /* --help */
    if (rc != 0) return rc;
    if (!(a.image_extent >= 0.0) || a.image_extent > 1e6)
        return cli_usage_error("naval-ocean", "--image-extent must be in (0, 1e6] m");
    nv_error err;
    if (nv_ocean_params_validate(&a.p, &err) != 0) {
        fprintf(stderr, "naval-ocean: %s\n", err.message);
        return 2;
    }
    nv_ocean* o = nv_ocean_create(&a.p, &err);
    if (!o) {
        fprintf(stderr, "naval-ocean: %s\n", err.message);
        return 2;
    }
    /* the update, timed over --steps steps at 60 Hz ending at --time */
    double best = INFINITY, total = 0.0;
    for (int s = 0; s < a.steps; s++) {
        double t = a.time - (a.steps - 1 - s) / 60.0;
        double t0 = now_s();
        nv_ocean_update(o, t);
        double dt = now_s() - t0;
        total += dt;
        if (dt < best) best = dt;
    }
    nv_ocean_stats st;
    nv_ocean_measure(o, &st);
    ocean_breaking_stats bs;
    if (measure_breaking(o, &bs) != 0) {
        fprintf(stderr, "naval-ocean: out of memory measuring the breaking crests\n");
        nv_ocean_destroy(o);
        return 1;
    }
    /* batched queries as a vessel makes them: 2500 points in a 60 m x 20 m box */
    enum { QN = 2500 };
    static double qx[QN], qz[QN];
    static float qh[QN], qn[3 * QN], qv[QN];
    uint64_t r = 12345;
    for (int i = 0; i < QN; i++) {
        r = nv_spectrum_hash64(r);
        qx[i] = 137.0 + 60.0 * (double)(r >> 11) * 0x1.0p-53;
        r = nv_spectrum_hash64(r);
        qz[i] = -58.0 + 20.0 * (double)(r >> 11) * 0x1.0p-53;
    }
    nv_water_query q = {QN, qx, qz, qh, qn, qv};
    double qbest = INFINITY;
    size_t failed = 0;
    for (int rep = 0; rep < 20; rep++) {
        double t0 = now_s();
        failed = nv_ocean_sample(o, &q);
        double dt = now_s() - t0;
        if (dt < qbest) qbest = dt;
    }
    const nv_ocean_params* p = nv_ocean_get_params(o);
    int nx, nz;
    nv_ocean_resolution(o, &nx, &nz);
    if (a.json) {
        printf(
            "{\"spectrum\": \"%s\", \"wind\": %.6g, \"wind_dir\": %.6g, \"fetch\": %.6g, \"depth\": %.6g, "
            "\"size\": %.6g, \"resolution\": %d, \"cascades\": %d, \"choppiness\": %.6g, \"seed\": %llu, "
            "\"time\": %.6g, \"hs_target\": %.6g, \"tp\": %.6g, \"fully_developed_fetch\": %.6g,\n",
            spectrum_name(p->spectrum), p->wind_speed, p->wind_direction, p->fetch, p->depth, p->size, nx, p->cascades,
            p->choppiness, (unsigned long long)p->seed, a.time, p->hs_target, p->tp,
            nv_spectrum_fully_developed_fetch(p->wind_speed, p->gravity));
        printf(" \"hs_measured\": %.6g, \"hs_spectrum\": %.6g, \"hs_grid\": %.6g, \"peak_period\": %.6g, "
               "\"max_height\": %.6g, \"min_height\": %.6g, \"mean_height\": %.6g, \"fold_fraction\": %.6g,\n",
               st.hs_measured, st.hs_spectrum, st.hs_grid, st.peak_period, st.max_height, st.min_height,
               st.mean_height, st.fold_fraction);
        printf(" \"breaking_stencil\": %.9g, \"breaking_fraction\": %.6g, \"breaking_strength_mean\": %.6g,\n",
               bs.stencil, bs.fraction, bs.strength_mean);
        printf(" \"steps\": %d, \"update_ms\": %.6g, \"update_ms_mean\": %.6g, \"query_points\": %d, "
               "\"query_ns_per_point\": %.6g, \"query_failed\": %zu}\n",
               a.steps, best * 1e3, total / a.steps * 1e3, QN, qbest / QN * 1e9, failed);
    } else {
        printf("ocean: %s, wind %.3g m/s (U10) toward %.3g deg, fetch %.3g m (fully developed from %.3g m), depth %s\n",
               spectrum_name(p->spectrum), p->wind_speed, p->wind_direction, p->fetch,
               nv_spectrum_fully_developed_fetch(p->wind_speed, p->gravity), p->depth > 0.0 ? "finite" : "deep");
        printf("grid: %d x %d, %d cascade(s) from %.4g m, choppiness %.3g, seed %llu, t = %.4g s\n", nx, nz,
               p->cascades, p->size, p->choppiness, (unsigned long long)p->seed, a.time);
        printf("hs_measured    %.4f m\n", st.hs_measured);
        printf("hs_spectrum    %.4f m\n", st.hs_spectrum);
        printf("hs_grid        %.4f m   (the grids' own expected Hs)\n", st.hs_grid);
        printf("peak_period    %.3f s\n", st.peak_period);
        printf("max_height     %.4f m\n", st.max_height);
        printf("min_height     %.4f m\n", st.min_height);
        printf("fold_fraction  %.5f\n", st.fold_fraction);
        printf("breaking       %.5f of the labels, over %.3f of their height on the mean (stencil %.3f m)\n",
               bs.fraction, bs.strength_mean, bs.stencil);
        printf("update         %.3f ms per step (best of %d; mean %.3f ms)\n", best * 1e3, a.steps,
               total / a.steps * 1e3);
        printf("query          %.1f ns per point (%d clustered points, height+normal+velocity; %zu failed)\n",
               qbest / QN * 1e9, QN, failed);
    }
    if (a.patch_bench) patch_bench(o);
    if (a.image) {
        double extent = a.image_extent > 0.0 ? a.image_extent : fmin(nv_ocean_cascade_size(o, 0), 300.0);
        errno = 0;
        int wrc = write_image(o, a.image, a.image_size, extent, st.hs_measured);
        if (wrc != 0) {
            /* A path that cannot be created is a bad argument (2); a failed write, 1. */
            int frc = cli_file_error("naval-ocean", wrc < 0 ? "--image: cannot create" : "--image: could not write",
                                     a.image, wrc < 0);
            nv_ocean_destroy(o);
            return frc;
        }
        if (!a.json)
            printf("image          %s (%d x %d px over %.4g m)\n", a.image, a.image_size, a.image_size, extent);
    }
    nv_ocean_destroy(o);
    return 0;
}
