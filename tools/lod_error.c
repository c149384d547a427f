// SPDX-License-Identifier: MIT
#include "lod_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "naval/vecmath.h"

static int lod_error_order(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

/* p50, p99 and max of v[0..n) (sorted in place). */
static void lod_error_percentiles(double* v, uint32_t n, double out[3]) {
    if (!n) {
        out[0] = out[1] = out[2] = NAN;
        return;
    }
    qsort(v, n, sizeof *v, lod_error_order);
    out[0] = v[(size_t)(0.50 * (n - 1))];
    out[1] = v[(size_t)(0.99 * (n - 1))];
    out[2] = v[n - 1];
}

static double lod_error_angle_deg(nv_vec3 a, nv_vec3 b) {
    double la = sqrt(a.x * a.x + a.y * a.y + a.z * a.z), lb = sqrt(b.x * b.x + b.y * b.y + b.z * b.z);
    if (!(la > 0.0) || !(lb > 0.0)) return NAN;
    double c = (a.x * b.x + a.y * b.y + a.z * b.z) / (la * lb);
    return acos(c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c) * (180.0 / 3.14159265358979323846);
}

int lod_error_compare(const nv_world_vessel_state* lod, const nv_world_vessel_state* ref, uint32_t n,
                      lod_error_band bands[3]) {
    memset(bands, 0, 3 * sizeof *bands);
    double* v = malloc((size_t)(n ? n : 1) * 4 * sizeof *v);
    if (!v) return -1;
    for (int m = 0; m < 3; m++) {
        double *h = v, *y = v + n, *t = v + 2 * (size_t)n, *hd = v + 3 * (size_t)n;
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (lod[i].id != ref[i].id) {
                free(v);
                return -1;
            }
            if ((int)lod[i].model != m) continue;
            nv_vec3 d = v3_sub(lod[i].position, ref[i].position);
            h[k] = sqrt(d.x * d.x + d.z * d.z);
            y[k] = fabs(d.y);
            t[k] = lod_error_angle_deg(quat_rotate(lod[i].orientation, v3(0, 1, 0)),
                                       quat_rotate(ref[i].orientation, v3(0, 1, 0)));
            nv_vec3 bl = quat_rotate(lod[i].orientation, v3(1, 0, 0)), br = quat_rotate(ref[i].orientation, v3(1, 0, 0));
            bl.y = br.y = 0.0;
            hd[k] = lod_error_angle_deg(bl, br);
            k++;
        }
        bands[m].vessels = k;
        lod_error_percentiles(h, k, bands[m].horizontal_m);
        lod_error_percentiles(y, k, bands[m].vertical_m);
        lod_error_percentiles(t, k, bands[m].tilt_deg);
        lod_error_percentiles(hd, k, bands[m].heading_deg);
    }
    free(v);
    return 0;
}

static const char* const lod_error_models[3] = {"mesh", "columns", "floater"};

void lod_error_print_text(FILE* out, const lod_error_band bands[3], double seconds) {
    fprintf(out, "  lod error    after %.1f s, each vessel against the same fleet all on the mesh (p50 / p99 / max):\n",
            seconds);
    for (int m = 0; m < 3; m++) {
        const lod_error_band* b = &bands[m];
        if (!b->vessels) continue;
        fprintf(out,
                "    %-8s %5u vessels  across %.3f / %.3f / %.3f m  height %.3f / %.3f / %.3f m  "
                "tilt %.2f / %.2f / %.2f deg  heading %.2f / %.2f / %.2f deg\n",
                lod_error_models[m], b->vessels, b->horizontal_m[0], b->horizontal_m[1], b->horizontal_m[2],
                b->vertical_m[0], b->vertical_m[1], b->vertical_m[2], b->tilt_deg[0], b->tilt_deg[1], b->tilt_deg[2],
                b->heading_deg[0], b->heading_deg[1], b->heading_deg[2]);
    }
}

static void lod_error_triple(FILE* out, const char* name, const double v[3]) {
    fprintf(out, "\"%s\": [", name);
    for (int i = 0; i < 3; i++) {
        if (isfinite(v[i])) fprintf(out, "%s%.4f", i ? ", " : "", v[i]);
        else fprintf(out, "%snull", i ? ", " : "");
    }
    fputc(']', out);
}

void lod_error_print_json(FILE* out, const lod_error_band bands[3], double seconds) {
    fprintf(out, "\"lod_error\": {\"seconds\": %.3f, \"percentiles\": [50, 99, 100]", seconds);
    for (int m = 0; m < 3; m++) {
        const lod_error_band* b = &bands[m];
        fprintf(out, ", \"%s\": {\"vessels\": %u, ", lod_error_models[m], b->vessels);
        lod_error_triple(out, "horizontal_m", b->horizontal_m);
        fputs(", ", out);
        lod_error_triple(out, "vertical_m", b->vertical_m);
        fputs(", ", out);
        lod_error_triple(out, "tilt_deg", b->tilt_deg);
        fputs(", ", out);
        lod_error_triple(out, "heading_deg", b->heading_deg);
        fputc('}', out);
    }
    fputc('}', out);
}
