// SPDX-License-Identifier: MIT
/* Zephyr's column model of a hull, built from its mesh: vertical rays on a
 * grid through the closed mesh, each column the water a ray's inside
 * spans (nv_columns_build). */
#include "naval/columns.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A triangle seen from above, its corners ordered so that its projected
 * area on (x, z) is positive. */
typedef struct columns_tri {
    float x[3], z[3], y[3];
} columns_tri;

/* Side of (px, pz) against the line p0 -> p1 (positive: left of it in
 * the triangle's positive orientation). Evaluated from the
 * lexicographically smaller endpoint, so both triangles sharing an edge
 * get exactly opposite values whatever the rounding: a ray can never slip
 * between them or hit both. */
static double columns_edge(float x0, float z0, float x1, float z1, float px, float pz) {
    int swap = x0 > x1 || (x0 == x1 && z0 > z1);
    if (swap) {
        float t = x0; x0 = x1; x1 = t;
        t = z0; z0 = z1; z1 = t;
    }
    double e = ((double)x1 - x0) * ((double)pz - z0) - ((double)z1 - z0) * ((double)px - x0);
    return swap ? -e : e;
}

/* Half-open rule for a point exactly on an edge: of an edge's two
 * directions exactly one is owned, so of two triangles sharing it exactly
 * one takes the point; around a vertex exactly one triangle of the fan
 * does (the owned directions are a half-plane). */
static int columns_edge_owned(float x0, float z0, float x1, float z1) { return z1 > z0 || (z1 == z0 && x1 < x0); }

static int columns_inside(double w, float x0, float z0, float x1, float z1) {
    return w > 0.0 || (w == 0.0 && columns_edge_owned(x0, z0, x1, z1));
}

/* Height where the vertical line through (px, pz) crosses the triangle;
 * 0 when it misses. */
static int columns_ray_hit(const columns_tri* t, float px, float pz, double* y) {
    double wa = columns_edge(t->x[1], t->z[1], t->x[2], t->z[2], px, pz);
    if (!columns_inside(wa, t->x[1], t->z[1], t->x[2], t->z[2])) return 0;
    double wb = columns_edge(t->x[2], t->z[2], t->x[0], t->z[0], px, pz);
    if (!columns_inside(wb, t->x[2], t->z[2], t->x[0], t->z[0])) return 0;
    double wc = columns_edge(t->x[0], t->z[0], t->x[1], t->z[1], px, pz);
    if (!columns_inside(wc, t->x[0], t->z[0], t->x[1], t->z[1])) return 0;
    double sum = wa + wb + wc;
    if (!(sum > 0.0)) return 0;
    *y = (wa * t->y[0] + wb * t->y[1] + wc * t->y[2]) / sum;
    return 1;
}

static void columns_sort(double* a, uint32_t n) {
    for (uint32_t i = 1; i < n; i++) {
        double v = a[i];
        uint32_t j = i;
        for (; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];
        a[j] = v;
    }
}

/* Triangles whose footprint meets each cell (CSR: first[c] .. first[c + 1]). */
typedef struct columns_bins {
    columns_tri* tris;
    uint32_t* first;
    uint32_t* items;
    uint32_t largest;
} columns_bins;

static void columns_bins_free(columns_bins* b) {
    free(b->tris);
    free(b->first);
    free(b->items);
}

static uint32_t columns_cell_of(double v, double v0, double cell, uint32_t n, double nudge) {
    double t = floor((v - v0) / cell + nudge);
    if (!(t > 0.0)) return 0;
    if (t >= (double)n) return n - 1;
    return (uint32_t)t;
}

static int columns_bin(const nv_mesh* m, const float lo[3], double dx, double dz, uint32_t nx, uint32_t nz,
                       columns_bins* b, nv_error* err) {
    memset(b, 0, sizeof *b);
    size_t cells = (size_t)nx * nz;
    b->tris = malloc((m->triangle_count ? m->triangle_count : 1) * sizeof *b->tris);
    b->first = calloc(cells + 1, sizeof *b->first);
    if (!b->tris || !b->first) goto oom;
    /* Two passes over the footprints: count, then fill. */
    uint32_t kept = 0;
    uint64_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        kept = 0;
        for (uint32_t t = 0; t < m->triangle_count; t++) {
            columns_tri tri;
            for (int c = 0; c < 3; c++) {
                const float* p = m->positions + 3 * (size_t)m->indices[3 * (size_t)t + c];
                tri.x[c] = p[0];
                tri.y[c] = p[1];
                tri.z[c] = p[2];
            }
            double area = columns_edge(tri.x[0], tri.z[0], tri.x[1], tri.z[1], tri.x[2], tri.z[2]);
            if (area == 0.0) continue; /* a wall seen edge-on: no vertical ray crosses it */
            if (area < 0.0) {
                float t0 = tri.x[1]; tri.x[1] = tri.x[2]; tri.x[2] = t0;
                t0 = tri.y[1]; tri.y[1] = tri.y[2]; tri.y[2] = t0;
                t0 = tri.z[1]; tri.z[1] = tri.z[2]; tri.z[2] = t0;
            }
            float x0 = fminf(tri.x[0], fminf(tri.x[1], tri.x[2])), x1 = fmaxf(tri.x[0], fmaxf(tri.x[1], tri.x[2]));
            float z0 = fminf(tri.z[0], fminf(tri.z[1], tri.z[2])), z1 = fmaxf(tri.z[0], fmaxf(tri.z[1], tri.z[2]));
            /* A cell's rays are at its sub-cell centres, never on its
             * border, but a nudge keeps rounding from losing a neighbour. */
            uint32_t i0 = columns_cell_of(x0, lo[0], dx, nx, -1e-6), i1 = columns_cell_of(x1, lo[0], dx, nx, 1e-6);
            uint32_t j0 = columns_cell_of(z0, lo[2], dz, nz, -1e-6), j1 = columns_cell_of(z1, lo[2], dz, nz, 1e-6);
            if (pass == 1) b->tris[kept] = tri;
            for (uint32_t i = i0; i <= i1; i++)
                for (uint32_t j = j0; j <= j1; j++) {
                    size_t c = (size_t)i * nz + j;
                    if (pass == 0) b->first[c + 1]++;
                    else b->items[b->first[c]++] = kept;
                }
            kept++;
        }
        if (pass == 0) {
            for (size_t c = 0; c < cells; c++) {
                if (b->first[c + 1] > b->largest) b->largest = b->first[c + 1];
                total += b->first[c + 1];
                if (total > UINT32_MAX) {
                    columns_bins_free(b);
                    return nv_error_set(err, "columns: too many triangle-cell pairs (use fewer columns)");
                }
                b->first[c + 1] += b->first[c];
            }
            b->items = malloc((total ? total : 1) * sizeof *b->items);
            if (!b->items) goto oom;
        }
    }
    /* The fill advanced each first[c] to the next cell's start: shift back. */
    for (size_t c = cells; c > 0; c--) b->first[c] = b->first[c - 1];
    b->first[0] = 0;
    return 0;
oom:
    columns_bins_free(b);
    return nv_error_fail(err, NV_ENOMEM, "columns: out of memory binning %u triangles", m->triangle_count);
}

int nv_columns_build(const nv_mesh* m, const nv_columns_build_options* opts, nv_columns_set* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    nv_columns_build_options o = opts ? *opts : nv_columns_build_options_default();
    if (o.nx < 1 || o.nx > COLUMNS_MAX_GRID || o.nz < 1 || o.nz > COLUMNS_MAX_GRID)
        return nv_error_set(err, "columns: grid %u x %u: each side must be 1..%u", o.nx, o.nz, COLUMNS_MAX_GRID);
    if (o.samples < 1 || o.samples > COLUMNS_MAX_SAMPLES)
        return nv_error_set(err, "columns: %u samples per side: must be 1..%u", o.samples, COLUMNS_MAX_SAMPLES);
    if (!(o.mass >= 0.0) || !isfinite(o.mass))
        return nv_error_set(err, "columns: mass %g: must be 0 (density 1) or positive", o.mass);
    if (!m || m->triangle_count == 0) return nv_error_set(err, "columns: empty mesh");
    float lo[3], hi[3];
    nv_mesh_bounds(m, lo, hi);
    double dx = ((double)hi[0] - lo[0]) / o.nx, dz = ((double)hi[2] - lo[2]) / o.nz;
    if (!(dx > 0.0) || !(dz > 0.0) || !isfinite(dx) || !isfinite(dz))
        return nv_error_set(err, "columns: the mesh has no extent along x or z");

    columns_bins bins;
    if (columns_bin(m, lo, dx, dz, o.nx, o.nz, &bins, err)) return -1;
    size_t cells = (size_t)o.nx * o.nz;
    out->columns = calloc(cells, sizeof *out->columns);
    double* hits = malloc((bins.largest ? bins.largest : 1) * sizeof *hits);
    if (!out->columns || !hits) {
        free(hits);
        columns_bins_free(&bins);
        nv_columns_free(out);
        return nv_error_fail(err, NV_ENOMEM, "columns: out of memory for %zu columns", cells);
    }
    out->count = (uint32_t)cells;
    out->nx = o.nx;
    out->nz = o.nz;
    const uint32_t k = o.samples;
    const double ray_area = dx * dz / ((double)k * k);
    for (uint32_t i = 0; i < o.nx; i++)
        for (uint32_t j = 0; j < o.nz; j++) {
            size_t c = (size_t)i * o.nz + j;
            const uint32_t* items = bins.items + bins.first[c];
            uint32_t item_count = bins.first[c + 1] - bins.first[c];
            /* moments of the inside's height distribution, heights from
             * the mesh's bottom (less cancellation in the variance) */
            double sum_length = 0.0, sum_y1 = 0.0, sum_y2 = 0.0, sum_x = 0.0, sum_z = 0.0;
            for (uint32_t a = 0; a < k; a++)
                for (uint32_t b = 0; b < k; b++) {
                    /* Float ray positions, like the vertices: the edge test
                     * then works on exact differences. */
                    float px = (float)(lo[0] + (i + (a + 0.5) / k) * dx);
                    float pz = (float)(lo[2] + (j + (b + 0.5) / k) * dz);
                    uint32_t n = 0;
                    for (uint32_t t = 0; t < item_count; t++) {
                        double y;
                        if (columns_ray_hit(&bins.tris[items[t]], px, pz, &y)) hits[n++] = y;
                    }
                    if (n == 0) continue;
                    if (n & 1u) {
                        out->skipped_rays++;
                        continue;
                    }
                    columns_sort(hits, n);
                    double length = 0.0;
                    for (uint32_t h = 0; h < n; h += 2) {
                        double y0 = hits[h] - lo[1], y1 = hits[h + 1] - lo[1];
                        length += y1 - y0;
                        sum_y1 += (y1 * y1 - y0 * y0) / 2.0;
                        sum_y2 += (y1 * y1 * y1 - y0 * y0 * y0) / 3.0;
                    }
                    if (!(length > 0.0)) continue; /* grazing an edge of the outline */
                    sum_length += length;
                    sum_x += px * length;
                    sum_z += pz * length;
                }
            nv_columns_column* col = &out->columns[c];
            col->volume = sum_length * ray_area;
            if (sum_length > 0.0) {
                col->x = sum_x / sum_length;
                col->z = sum_z / sum_length;
                /* the uniform column with the same mean height and variance */
                double mean = sum_y1 / sum_length;
                double var = fmax(0.0, sum_y2 / sum_length - mean * mean);
                /* a variance is at least the rays' own (L^2 / 12 each): zero
                 * only by rounding, and a column with volume needs height */
                double half = fmax(0.5 * sqrt(12.0 * var), 1e-9 * ((double)hi[1] - lo[1]));
                col->ymin = lo[1] + (mean - half);
                col->ymax = lo[1] + (mean + half);
            } else {
                col->x = lo[0] + (i + 0.5) * dx;
                col->z = lo[2] + (j + 0.5) * dz;
                col->ymin = lo[1];
                col->ymax = hi[1];
            }
        }
    free(hits);
    columns_bins_free(&bins);
    double total = nv_columns_total_volume(out);
    if (!(total > 0.0)) {
        nv_columns_free(out);
        return nv_error_set(err, "columns: no ray found the inside of the mesh (not closed?)");
    }
    double density = o.mass > 0.0 ? o.mass / total : 1.0;
    for (uint32_t c = 0; c < out->count; c++) out->columns[c].density = density;
    return 0;
}

