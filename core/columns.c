// SPDX-License-Identifier: MIT
#include "naval/columns.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <emmintrin.h>

#include "grow.h"

nv_columns_build_options nv_columns_build_options_default(void) {
    nv_columns_build_options o = {.nx = 20, .nz = 5, .samples = 16, .mass = 0.0};
    return o;
}

void nv_columns_free(nv_columns_set* s) {
    free(s->columns);
    memset(s, 0, sizeof *s);
}

double nv_columns_total_volume(const nv_columns_set* s) {
    double v = 0.0;
    for (uint32_t i = 0; i < s->count; i++) v += s->columns[i].volume;
    return v;
}

void nv_columns_mass(const nv_columns_set* s, double* mass, nv_vec3* centre) {
    double m = 0.0;
    nv_vec3 moment = v3(0, 0, 0);
    for (uint32_t i = 0; i < s->count; i++) {
        const nv_columns_column* c = &s->columns[i];
        double w = c->density * c->volume;
        m += w;
        moment = v3_madd(moment, v3(c->x, 0.5 * (c->ymin + c->ymax), c->z), w);
    }
    if (mass) *mass = m;
    if (centre) *centre = m > 0.0 ? v3_scale(moment, 1.0 / m) : v3(0, 0, 0);
}

/* ---- building: vertical rays through the mesh ---- */

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

/* ---- the text format ---- */

static const char* const columns_field_names[6] = {"X", "Ymin", "Z", "Ymax", "Volume", "Density"};

int nv_columns_export(const nv_columns_set* s, const char* path, nv_error* err) {
    FILE* f = fopen(path, "w");
    if (!f) return nv_error_fail(err, NV_EIO, "%s: cannot write: %s", path, strerror(errno));
    fprintf(f, "# NB_LINE_PER_DATA\n%u\n\n# COORDINATE, VOLUME, DENSITY\n", s->count);
    for (uint32_t i = 0; i < s->count; i++) {
        const nv_columns_column* c = &s->columns[i];
        fprintf(f, "%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", c->x, c->ymin, c->z, c->ymax, c->volume, c->density);
    }
    int failed = ferror(f);
    if (fclose(f) || failed) return nv_error_fail(err, NV_EIO, "%s: write failed: %s", path, strerror(errno));
    return 0;
}

/* Copy of a piece of text for a message: at most 40 characters, anything
 * unprintable as '?'. */
static const char* columns_show(const char* p, size_t n, char* buf, size_t size) {
    size_t k = 0;
    for (; k < n && k + 4 < size && k < 40; k++) buf[k] = isprint((unsigned char)p[k]) ? p[k] : '?';
    if (k < n && k + 4 < size) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k] = '\0';
    return buf;
}

static void columns_trim(const char** p, size_t* n) {
    while (*n > 0 && isspace((unsigned char)**p)) (*p)++, (*n)--;
    while (*n > 0 && isspace((unsigned char)(*p)[*n - 1])) (*n)--;
}

/* The whole field must be one finite number. */
static int columns_number(const char* p, size_t n, double* out) {
    char buf[64];
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    char* end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end != buf + n || !isfinite(v) || errno == ERANGE) return -1;
    *out = v;
    return 0;
}

static int columns_parse_line(const char* p, size_t n, const char* name, unsigned line, nv_columns_column* c,
                              nv_error* err) {
    char show[64];
    double v[6];
    int field = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && p[i] != ',') continue;
        if (field == 6)
            return nv_error_set(err, "%s:%u: more than 6 fields (expected X,Ymin,Z,Ymax,Volume,Density)", name, line);
        const char* f = p + start;
        size_t len = i - start;
        columns_trim(&f, &len);
        if (len == 0)
            return nv_error_set(err, "%s:%u: field %s: empty (expected a number)", name, line,
                                columns_field_names[field]);
        if (columns_number(f, len, &v[field]))
            return nv_error_set(err, "%s:%u: field %s: expected a finite number, found '%s'", name, line,
                                columns_field_names[field], columns_show(f, len, show, sizeof show));
        field++;
        start = i + 1;
    }
    if (field < 6)
        return nv_error_set(err, "%s:%u: %d field%s, expected 6 (X,Ymin,Z,Ymax,Volume,Density); field %s is missing",
                            name, line, field, field == 1 ? "" : "s", columns_field_names[field]);
    c->x = v[0];
    c->ymin = v[1];
    c->z = v[2];
    c->ymax = v[3];
    c->volume = v[4];
    c->density = v[5];
    if (c->ymax < c->ymin)
        return nv_error_set(err, "%s:%u: field Ymax: %.10g is below Ymin %.10g", name, line, c->ymax, c->ymin);
    if (c->volume < 0.0) return nv_error_set(err, "%s:%u: field Volume: %.10g is negative", name, line, c->volume);
    if (c->volume > 0.0 && c->ymax == c->ymin)
        return nv_error_set(err, "%s:%u: field Ymax: equals Ymin while Volume is %.10g (a column with volume needs height)",
                            name, line, c->volume);
    if (!(c->density > 0.0))
        return nv_error_set(err, "%s:%u: field Density: %.10g must be positive", name, line, c->density);
    return 0;
}

int nv_columns_parse(const char* text, size_t size, const char* name, nv_columns_set* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    if (!name) name = "columns";
    if (!text && size > 0) return nv_error_set(err, "%s: no data", name);
    char show[64];
    enum { WANT_HEADER, WANT_COUNT, WANT_DATA } state = WANT_HEADER;
    uint32_t expected = 0, got = 0;
    unsigned line = 0;
    size_t pos = 0;
    while (pos < size) {
        size_t end = pos;
        while (end < size && text[end] != '\n') end++;
        line++;
        const char* p = text + pos;
        size_t n = end - pos;
        pos = end + 1;
        columns_trim(&p, &n);
        if (state == WANT_HEADER) {
            if (n == 0) continue;
            /* "# NB_LINE_PER_DATA", spaces after '#' optional */
            const char* q = p;
            size_t m = n;
            if (m > 0 && *q == '#') {
                q++, m--;
                columns_trim(&q, &m);
            }
            if (p[0] != '#' || m != 16 || memcmp(q, "NB_LINE_PER_DATA", 16)) {
                nv_columns_free(out);
                return nv_error_set(err, "%s:%u: expected the header '# NB_LINE_PER_DATA', found '%s'", name, line,
                                    columns_show(p, n, show, sizeof show));
            }
            state = WANT_COUNT;
            continue;
        }
        if (n == 0 || p[0] == '#') continue;
        if (state == WANT_COUNT) {
            double v;
            if (columns_number(p, n, &v) || v != floor(v) || v < 1.0 || v > COLUMNS_MAX_COUNT) {
                nv_columns_free(out);
                return nv_error_set(err, "%s:%u: NB_LINE_PER_DATA: expected a column count 1..%u, found '%s'", name,
                                    line, COLUMNS_MAX_COUNT, columns_show(p, n, show, sizeof show));
            }
            expected = (uint32_t)v;
            out->columns = calloc(expected, sizeof *out->columns);
            if (!out->columns) return nv_error_fail(err, NV_ENOMEM, "%s: out of memory for %u columns", name, expected);
            state = WANT_DATA;
            continue;
        }
        if (got == expected) {
            nv_columns_free(out);
            return nv_error_set(err, "%s:%u: more columns than NB_LINE_PER_DATA says (%u)", name, line, expected);
        }
        if (columns_parse_line(p, n, name, line, &out->columns[got], err)) {
            nv_columns_free(out);
            return -1;
        }
        got++;
    }
    if (state != WANT_DATA || got < expected) {
        nv_columns_free(out);
        if (line == 0) line = 1; /* an empty file */
        if (state == WANT_HEADER)
            return nv_error_set(err, "%s:%u: no '# NB_LINE_PER_DATA' header (empty file?)", name, line);
        if (state == WANT_COUNT) return nv_error_set(err, "%s:%u: end of file before the column count", name, line);
        return nv_error_set(err, "%s:%u: end of file after %u columns, NB_LINE_PER_DATA says %u (truncated?)", name,
                            line, got, expected);
    }
    out->count = got;
    return 0;
}

int nv_columns_import(const char* path, nv_columns_set* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    FILE* f = fopen(path, "rb");
    if (!f) return nv_error_fail(err, errno == ENOENT ? NV_ENOENT : NV_EIO, "%s: %s", path, strerror(errno));
    size_t cap = 1 << 16, size = 0;
    char* text = malloc(cap);
    while (text) {
        size += fread(text + size, 1, cap - size, f);
        if (size < cap) break;
        /* Each column is a line of ~60 bytes: a file many times that long is not one. */
        if (cap > (size_t)COLUMNS_MAX_COUNT * 512) {
            free(text);
            fclose(f);
            return nv_error_set(err, "%s: larger than %u MB: not a columns file", path, COLUMNS_MAX_COUNT * 512u >> 20);
        }
        if (grow_resize((void**)&text, cap * 2, 1)) {
            free(text);
            text = NULL;
            break;
        }
        cap *= 2;
    }
    int failed = ferror(f);
    fclose(f);
    if (!text) return nv_error_fail(err, NV_ENOMEM, "%s: out of memory reading it", path);
    if (failed) {
        free(text);
        return nv_error_set(err, "%s: read error", path);
    }
    int rc = nv_columns_parse(text, size, path, out, err);
    free(text);
    return rc;
}

/* ---- run time ---- */

/* Columns go four at a time (SSE2 lanes); the model's arrays are padded
 * to a multiple of four with empty columns (no volume, height 1). */
static uint32_t columns_padded(uint32_t n) { return (n + 3u) & ~3u; }

int nv_columns_model_create(nv_columns_model* m, const nv_columns_set* s, nv_vec3 cg, nv_error* err) {
    memset(m, 0, sizeof *m);
    m->damping_vertical = COLUMNS_DAMPING_VERTICAL;
    m->damping_horizontal = COLUMNS_DAMPING_HORIZONTAL;
    if (!v3_is_finite(cg)) return nv_error_set(err, "columns: non-finite centre of gravity");
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->count; i++) {
        const nv_columns_column* c = &s->columns[i];
        if (!(isfinite(c->x) && isfinite(c->ymin) && isfinite(c->z) && isfinite(c->ymax) && isfinite(c->volume)))
            return nv_error_set(err, "columns: column %u is not finite", i);
        if (c->volume > 0.0) {
            if (!(c->ymax > c->ymin)) return nv_error_set(err, "columns: column %u has volume but no height", i);
            n++;
        }
    }
    if (n == 0) return nv_error_set(err, "columns: no column has volume");
    uint32_t np = columns_padded(n);
    float* block = malloc((size_t)np * 6 * sizeof *block);
    if (!block) return nv_error_fail(err, NV_ENOMEM, "columns: out of memory for %u columns", n);
    m->ox = block;
    m->oy = block + np;
    m->oz = block + 2 * (size_t)np;
    m->height = block + 3 * (size_t)np;
    m->inv_height = block + 4 * (size_t)np;
    m->volume = block + 5 * (size_t)np;
    m->count = n;
    double keel = INFINITY;
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->count; i++) {
        const nv_columns_column* c = &s->columns[i];
        if (!(c->volume > 0.0)) continue;
        m->ox[k] = (float)(c->x - cg.x);
        m->oy[k] = (float)(0.5 * (c->ymin + c->ymax) - cg.y);
        m->oz[k] = (float)(c->z - cg.z);
        m->height[k] = (float)(c->ymax - c->ymin);
        m->inv_height[k] = 1.0f / m->height[k];
        m->volume[k] = (float)c->volume;
        m->total_volume += m->volume[k];
        keel = fmin(keel, c->ymin - cg.y);
        k++;
    }
    for (; k < np; k++) {
        m->ox[k] = m->oy[k] = m->oz[k] = 0.0f;
        m->height[k] = m->inv_height[k] = 1.0f;
        m->volume[k] = 0.0f;
    }
    m->keel = keel;
    return 0;
}

void nv_columns_model_destroy(nv_columns_model* m) {
    free(m->ox);
    memset(m, 0, sizeof *m);
}

size_t nv_columns_scratch_bytes(const nv_columns_model* m) {
    return (size_t)columns_padded(m->count) * (2 * sizeof(double) + 4 * sizeof(float));
}

static double columns_sum4(__m128 v) {
    float f[4];
    _mm_storeu_ps(f, v);
    return ((double)f[0] + f[1]) + ((double)f[2] + f[3]);
}

int nv_columns_force(const nv_columns_model* m, const nv_columns_pose* pose, const nv_water_surface* water, double water_density,
                     double gravity, void* scratch, size_t scratch_bytes, nv_columns_result* out) {
    memset(out, 0, sizeof *out);
    const uint32_t n = columns_padded(m->count);
    if (scratch_bytes < nv_columns_scratch_bytes(m) || (!scratch && n > 0) || ((uintptr_t)scratch & 7u)) return -1;
    double* qx = scratch;
    double* qz = qx + n;
    float* wx = (float*)(qz + n);
    float* wy = wx + n;
    float* wz = wy + n;
    float* surface = wz + n;
    /* Offsets in float (metres from the CG), as the vertex pass does. */
    float r[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r[i][j] = (float)pose->rotation.m[i][j];
    __m128 rm[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) rm[i][j] = _mm_set1_ps(r[i][j]);
    for (uint32_t k = 0; k < n; k += 4) {
        __m128 bx = _mm_loadu_ps(m->ox + k), by = _mm_loadu_ps(m->oy + k), bz = _mm_loadu_ps(m->oz + k);
        for (int i = 0; i < 3; i++) {
            __m128 o = _mm_add_ps(_mm_add_ps(_mm_mul_ps(rm[i][0], bx), _mm_mul_ps(rm[i][1], by)), _mm_mul_ps(rm[i][2], bz));
            _mm_storeu_ps((i == 0 ? wx : i == 1 ? wy : wz) + k, o);
        }
    }
    const nv_vec3 p = pose->position;
    if (water->sample_near) {
        out->approximate = water->sample_near(water, p.x, p.z, n, wx, wz, surface);
    } else {
        for (uint32_t k = 0; k < n; k++) {
            qx[k] = p.x + wx[k];
            qz[k] = p.z + wz[k];
        }
        nv_water_query q = {.count = n, .x = qx, .z = qz, .height = surface};
        out->approximate = water_sample(water, &q);
    }
    if (water->pressure_decay > 0.0) {
        /* The Smith effect, as the mesh's vertex pass takes it: a column's
         * buoyancy is the pressure on its bottom, where the wave's share of
         * it has fallen with depth. Without it a short steep wave's whole
         * elevation pushed on a deep hull's bottom, and the far boats
         * rolled over in seas the mesh rides. */
        const float k = (float)water->pressure_decay, mean = (float)water->mean_level;
        for (uint32_t i = 0; i < m->count; i++) {
            float bottom = (float)p.y + wy[i] - 0.5f * m->height[i];
            surface[i] = water_smith_elevation(bottom, surface[i], k, mean);
        }
    }
    /* The forces are linear in each column's submerged volume vf and its
     * point a, and the damping in its velocity v + w x a, so the sums
     * need only the moments S0 = sum vf, S1 = sum vf a and S2 = sum vf a a^T
     * (ten per column, four columns a lane in float, the lanes added in
     * double); force and torque follow from them once per call. */
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f), half = _mm_set1_ps(0.5f);
    const __m128 py = _mm_set1_ps((float)p.y);
    /* the columns' own axis (body +y) in the world, turned to point up
     * when the hull is upside down: the submerged part is the lower end */
    const float flip = r[1][1] < 0.0f ? -1.0f : 1.0f;
    const __m128 upx = _mm_set1_ps(flip * r[0][1]), upy = _mm_set1_ps(flip * r[1][1]), upz = _mm_set1_ps(flip * r[2][1]);
    __m128 s0 = zero, s1x = zero, s1y = zero, s1z = zero;
    __m128 sxx = zero, syy = zero, szz = zero, sxy = zero, sxz = zero, syz = zero;
    uint32_t wet = 0;
    for (uint32_t k = 0; k < n; k += 4) {
        __m128 cy = _mm_loadu_ps(wy + k);
        __m128 hh = _mm_mul_ps(half, _mm_loadu_ps(m->height + k));
        __m128 bottom = _mm_sub_ps(_mm_add_ps(py, cy), hh);
        __m128 f = _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(surface + k), bottom), _mm_loadu_ps(m->inv_height + k));
        /* min/max return their second operand on NaN: a NaN height stays NaN */
        f = _mm_max_ps(zero, _mm_min_ps(one, f));
        __m128 vf = _mm_mul_ps(_mm_loadu_ps(m->volume + k), f);
        /* the submerged part's centre, down the column's own axis (see columns.h) */
        __m128 down = _mm_mul_ps(_mm_sub_ps(f, one), hh);
        __m128 ax = _mm_add_ps(_mm_loadu_ps(wx + k), _mm_mul_ps(upx, down));
        __m128 ay = _mm_add_ps(cy, _mm_mul_ps(upy, down));
        __m128 az = _mm_add_ps(_mm_loadu_ps(wz + k), _mm_mul_ps(upz, down));
        __m128 vx = _mm_mul_ps(vf, ax), vy = _mm_mul_ps(vf, ay), vz = _mm_mul_ps(vf, az);
        s0 = _mm_add_ps(s0, vf);
        s1x = _mm_add_ps(s1x, vx);
        s1y = _mm_add_ps(s1y, vy);
        s1z = _mm_add_ps(s1z, vz);
        sxx = _mm_add_ps(sxx, _mm_mul_ps(vx, ax));
        syy = _mm_add_ps(syy, _mm_mul_ps(vy, ay));
        szz = _mm_add_ps(szz, _mm_mul_ps(vz, az));
        sxy = _mm_add_ps(sxy, _mm_mul_ps(vx, ay));
        sxz = _mm_add_ps(sxz, _mm_mul_ps(vx, az));
        syz = _mm_add_ps(syz, _mm_mul_ps(vy, az));
        int mask = _mm_movemask_ps(_mm_cmpgt_ps(vf, zero));
        wet += (uint32_t)((mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1));
    }
    double S0 = columns_sum4(s0);
    nv_vec3 S1 = v3(columns_sum4(s1x), columns_sum4(s1y), columns_sum4(s1z));
    double xy = columns_sum4(sxy), xz = columns_sum4(sxz), yz = columns_sum4(syz);
    const double S2[3][3] = {{columns_sum4(sxx), xy, xz}, {xy, columns_sum4(syy), yz}, {xz, yz, columns_sum4(szz)}};

    const double rho_g = water_density * gravity;
    const double d[3] = {-m->damping_horizontal * water_density, -m->damping_vertical * water_density,
                         -m->damping_horizontal * water_density};
    const nv_vec3 v0 = v3_sub(pose->velocity, pose->water_velocity), w = pose->angular_velocity;
    /* sum vf u = v0 S0 + w x S1 */
    nv_vec3 vu = v3_add(v3_scale(v0, S0), v3_cross(w, S1));
    out->force = v3(d[0] * vu.x, rho_g * S0 + d[1] * vu.y, d[2] * vu.z);
    /* sum a x F = rho g S1 x y + S1 x (D v0) + sum vf a x (D (w x a)); the
     * last is eps_ijk M_kl S2_jl with M = D W (W a = w x a) */
    const double W[3][3] = {{0.0, -w.z, w.y}, {w.z, 0.0, -w.x}, {-w.y, w.x, 0.0}};
    double M[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) M[i][j] = d[i] * W[i][j];
    double t3[3];
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3; /* eps_ijk = +1; eps_ikj = -1 */
        double a = 0.0;
        for (int l = 0; l < 3; l++) a += M[k][l] * S2[j][l] - M[j][l] * S2[k][l];
        t3[i] = a;
    }
    nv_vec3 torque = v3_add(v3(-rho_g * S1.z, 0.0, rho_g * S1.x), v3_cross(S1, v3(d[0] * v0.x, d[1] * v0.y, d[2] * v0.z)));
    out->torque = v3_add(torque, v3(t3[0], t3[1], t3[2]));
    out->submerged_volume = S0;
    out->wet_columns = wet;
    return 0;
}

int nv_columns_balance_height(const nv_columns_model* m, double mass, double water_density, double gravity,
                              nv_quat orientation, double* y, nv_error* err) {
    if (!(mass > 0.0) || !(water_density > 0.0) || !(gravity > 0.0))
        return nv_error_set(err, "columns: mass, water density and gravity must be positive");
    if (mass >= water_density * m->total_volume)
        return nv_error_set(err,
                            "columns: the hull sinks: its mass %.6g kg is not less than the %.6g kg of water its "
                            "columns displace at %g kg/m^3",
                            mass, water_density * m->total_volume, water_density);
    size_t bytes = nv_columns_scratch_bytes(m);
    void* scratch = malloc(bytes ? bytes : 1);
    if (!scratch) return nv_error_fail(err, NV_ENOMEM, "columns: out of memory");
    nv_water_flat flat;
    nv_water_flat_init(&flat, 0.0);
    nv_columns_pose pose;
    memset(&pose, 0, sizeof pose);
    pose.rotation = quat_to_mat3(quat_normalize(orientation));
    double extent = 0.0;
    for (uint32_t k = 0; k < m->count; k++) {
        double o = sqrt((double)m->ox[k] * m->ox[k] + (double)m->oy[k] * m->oy[k] + (double)m->oz[k] * m->oz[k]);
        extent = fmax(extent, o + m->height[k]);
    }
    /* Lift minus weight falls monotonically as the body rises: bisect
     * between fully under and fully dry. */
    double lo = -extent - 1.0, hi = extent + 1.0;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * (1.0 + extent); i++) {
        double mid = 0.5 * (lo + hi);
        pose.position = v3(0, mid, 0);
        nv_columns_result r;
        nv_columns_force(m, &pose, &flat.base, water_density, gravity, scratch, bytes, &r);
        if (r.force.y - mass * gravity > 0.0)
            lo = mid;
        else
            hi = mid;
    }
    free(scratch);
    *y = 0.5 * (lo + hi);
    return 0;
}
