// SPDX-License-Identifier: MIT
#include "naval/terrain.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "naval/ranges.h"

struct nv_terrain {
    nv_terrain_spec spec;
    uint32_t nx, nz;
    double inv_cell;
    float* elevation; /* nx * nz, row j (z) after row j - 1 */
    /* The highest node of each TERRAIN_BLOCK x TERRAIN_BLOCK cells (their
     * corner nodes included): a vessel far above its footprint's maximum
     * skips the terrain in one look. */
    float* block_max;
    uint32_t bx, bz;
};

enum { TERRAIN_BLOCK = 8 };

static void terrain_build_block_max(nv_terrain* t) {
    for (uint32_t bj = 0; bj < t->bz; bj++)
        for (uint32_t bi = 0; bi < t->bx; bi++) {
            uint32_t i0 = bi * TERRAIN_BLOCK, j0 = bj * TERRAIN_BLOCK;
            uint32_t i1 = i0 + TERRAIN_BLOCK < t->nx - 1 ? i0 + TERRAIN_BLOCK : t->nx - 1;
            uint32_t j1 = j0 + TERRAIN_BLOCK < t->nz - 1 ? j0 + TERRAIN_BLOCK : t->nz - 1;
            float m = -INFINITY;
            for (uint32_t j = j0; j <= j1; j++)
                for (uint32_t i = i0; i <= i1; i++) m = fmaxf(m, t->elevation[(size_t)j * t->nx + i]);
            t->block_max[(size_t)bj * t->bx + bi] = m;
        }
}

int nv_terrain_spec_validate(const nv_terrain_spec* s, nv_error* err) {
    const struct {
        const char* key;
        double value;
        nv_range_id range;
    } fields[] = {{"terrain: origin[0]", s->origin_x, NV_RANGE_WORLD_POSITION},
                  {"terrain: origin[1]", s->origin_z, NV_RANGE_WORLD_POSITION},
                  {"terrain: cell_size", s->cell_size, NV_RANGE_TERRAIN_CELL_SIZE},
                  {"terrain: min_elevation", s->min_elevation, NV_RANGE_TERRAIN_ELEVATION},
                  {"terrain: max_elevation", s->max_elevation, NV_RANGE_TERRAIN_ELEVATION}};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (nv_range_check(fields[i].range, fields[i].value, fields[i].key, err)) return -1;
    if (!(s->max_elevation > s->min_elevation))
        return nv_error_set(err, "terrain: max_elevation (%g) must be above min_elevation (%g)", s->max_elevation,
                            s->min_elevation);
    return 0;
}

static int terrain_alloc(nv_terrain** out, uint32_t nx, uint32_t nz, const nv_terrain_spec* spec, nv_error* err) {
    *out = NULL;
    if (nv_terrain_spec_validate(spec, err)) return -1;
    if (nx < 2 || nz < 2 || nx > TERRAIN_MAX_NODES || nz > TERRAIN_MAX_NODES)
        return nv_error_set(err, "terrain: %u x %u nodes (2..%u per axis)", nx, nz, TERRAIN_MAX_NODES);
    nv_terrain* t = calloc(1, sizeof *t);
    uint32_t bx = (nx - 2) / TERRAIN_BLOCK + 1, bz = (nz - 2) / TERRAIN_BLOCK + 1;
    float* e = t ? malloc((size_t)nx * nz * sizeof *e) : NULL;
    float* bm = e ? malloc((size_t)bx * bz * sizeof *bm) : NULL;
    if (!bm) {
        free(e);
        free(t);
        return nv_error_fail(err, NV_ENOMEM, "terrain: out of memory for %u x %u nodes", nx, nz);
    }
    t->spec = *spec;
    t->nx = nx;
    t->nz = nz;
    t->inv_cell = 1.0 / spec->cell_size;
    t->elevation = e;
    t->block_max = bm;
    t->bx = bx;
    t->bz = bz;
    *out = t;
    return 0;
}

int nv_terrain_create(nv_terrain** out, uint32_t nx, uint32_t nz, const float* elevation, const nv_terrain_spec* spec,
                      nv_error* err) {
    if (terrain_alloc(out, nx, nz, spec, err)) return -1;
    for (size_t k = 0; k < (size_t)nx * nz; k++) {
        double e = elevation[k];
        if (!(e >= spec->min_elevation && e <= spec->max_elevation)) {
            nv_terrain_destroy(*out);
            *out = NULL;
            return nv_error_set(err, "terrain: node (%zu, %zu) is %g m, outside [%g, %g]", k % nx, k / nx, e,
                                spec->min_elevation, spec->max_elevation);
        }
        (*out)->elevation[k] = (float)e;
    }
    terrain_build_block_max(*out);
    return 0;
}

void nv_terrain_destroy(nv_terrain* t) {
    if (!t) return;
    free(t->elevation);
    free(t->block_max);
    free(t);
}

/* What a read has allocated so far: on the heap, so that it survives
 * libpng's longjmp and the caller frees it whatever happened. */
typedef struct terrain_png_state {
    nv_terrain* t;
    png_bytep row;
    char message[200]; /* libpng's last error */
} terrain_png_state;

static void terrain_png_error(png_structp png, png_const_charp msg) {
    terrain_png_state* st = png_get_error_ptr(png);
    snprintf(st->message, sizeof st->message, "%s", msg);
    png_longjmp(png, 1);
}

static void terrain_png_warning(png_structp png, png_const_charp msg) { (void)png, (void)msg; }

/* The image's rows into st->t (a 16-bit grayscale PNG is big-endian). */
static int terrain_png_read(png_structp png, png_infop info, const char* path, const nv_terrain_spec* spec,
                            terrain_png_state* st, nv_error* err) {
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    int depth = png_get_bit_depth(png, info), type = png_get_color_type(png, info);
    if (type != PNG_COLOR_TYPE_GRAY || depth != 16)
        return nv_error_set(err, "%s: the heightmap must be 16-bit grayscale (this one is %d-bit, colour type %d)",
                            path, depth, type);
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE)
        return nv_error_set(err, "%s: the heightmap must not be interlaced", path);
    if (terrain_alloc(&st->t, (uint32_t)w, (uint32_t)h, spec, err)) return nv_error_prefix(err, "%s", path);
    if (!(st->row = malloc((size_t)w * 2))) return nv_error_fail(err, NV_ENOMEM, "%s: out of memory for a row", path);
    const double scale = (spec->max_elevation - spec->min_elevation) / 65535.0;
    for (png_uint_32 j = 0; j < h; j++) {
        png_read_row(png, st->row, NULL);
        for (png_uint_32 i = 0; i < w; i++) {
            unsigned v = (unsigned)st->row[2 * i] << 8 | st->row[2 * i + 1];
            st->t->elevation[(size_t)j * w + i] = (float)(spec->min_elevation + v * scale);
        }
    }
    terrain_build_block_max(st->t);
    return 0;
}

int nv_terrain_load_png(nv_terrain** out, const char* path, const nv_terrain_spec* spec, nv_error* err) {
    *out = NULL;
    if (nv_terrain_spec_validate(spec, err)) return -1;
    FILE* f = fopen(path, "rb");
    if (!f)
        return nv_error_fail(err, errno == ENOENT ? NV_ENOENT : NV_EIO, "%s: cannot open: %s", path, strerror(errno));
    unsigned char sig[8];
    terrain_png_state* st = calloc(1, sizeof *st);
    if (!st || fread(sig, 1, sizeof sig, f) != sizeof sig || png_sig_cmp(sig, 0, sizeof sig)) {
        fclose(f);
        free(st);
        return st ? nv_error_fail(err, NV_EPROTO, "%s: not a PNG file", path)
                  : nv_error_fail(err, NV_ENOMEM, "%s: out of memory", path);
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, st, terrain_png_error, terrain_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    int rc;
    if (!png || !info) {
        rc = nv_error_fail(err, NV_ENOMEM, "%s: out of memory for the PNG reader", path);
    } else if (setjmp(png_jmpbuf(png))) {
        rc = nv_error_fail(err, NV_EPROTO, "%s: unreadable PNG (%s)", path, st->message[0] ? st->message : "truncated?");
    } else {
        png_init_io(png, f);
        png_set_sig_bytes(png, sizeof sig);
        rc = terrain_png_read(png, info, path, spec, st, err);
    }
    png_destroy_read_struct(&png, &info, NULL);
    fclose(f);
    free(st->row);
    if (rc) nv_terrain_destroy(st->t);
    else *out = st->t;
    free(st);
    return rc ? -1 : 0;
}

/* Cell and fractions of (x, z); 0 outside the grid. */
static int terrain_locate(const nv_terrain* t, double x, double z, uint32_t* i, uint32_t* j, double* fx, double* fz) {
    double u = (x - t->spec.origin_x) * t->inv_cell, v = (z - t->spec.origin_z) * t->inv_cell;
    if (!(u >= 0.0 && v >= 0.0 && u <= (double)(t->nx - 1) && v <= (double)(t->nz - 1))) return 0;
    double iu = floor(u), iv = floor(v);
    /* the last row and column belong to the cell before them */
    if (iu >= (double)(t->nx - 1)) iu = (double)(t->nx - 2);
    if (iv >= (double)(t->nz - 1)) iv = (double)(t->nz - 2);
    *i = (uint32_t)iu, *j = (uint32_t)iv;
    *fx = u - iu, *fz = v - iv;
    return 1;
}

double nv_terrain_sample(const nv_terrain* t, double x, double z, nv_vec3* normal) {
    uint32_t i, j;
    double fx, fz;
    if (!terrain_locate(t, x, z, &i, &j, &fx, &fz)) {
        if (normal) *normal = v3(0.0, 1.0, 0.0);
        return TERRAIN_DEEP;
    }
    const float* r0 = t->elevation + (size_t)j * t->nx + i;
    const float* r1 = r0 + t->nx;
    const double e00 = r0[0], e10 = r0[1], e01 = r1[0], e11 = r1[1];
    const double h0 = e00 + fx * (e10 - e00), h1 = e01 + fx * (e11 - e01);
    if (normal) {
        /* the bilinear patch's slopes: d/dx along x, d/dz along z */
        const double dx = ((1.0 - fz) * (e10 - e00) + fz * (e11 - e01)) * t->inv_cell;
        const double dz = (h1 - h0) * t->inv_cell;
        *normal = v3_normalize(v3(-dx, 1.0, -dz));
    }
    return h0 + fz * (h1 - h0);
}

double nv_terrain_elevation(const nv_terrain* t, double x, double z) { return nv_terrain_sample(t, x, z, NULL); }

void nv_terrain_size(const nv_terrain* t, uint32_t* nx, uint32_t* nz) {
    *nx = t->nx;
    *nz = t->nz;
}

double nv_terrain_max_in(const nv_terrain* t, double x0, double z0, double x1, double z1) {
    double u0 = (x0 - t->spec.origin_x) * t->inv_cell, u1 = (x1 - t->spec.origin_x) * t->inv_cell;
    double v0 = (z0 - t->spec.origin_z) * t->inv_cell, v1 = (z1 - t->spec.origin_z) * t->inv_cell;
    double cells_x = (double)(t->nx - 1), cells_z = (double)(t->nz - 1);
    if (!(u1 >= 0.0 && v1 >= 0.0 && u0 <= cells_x && v0 <= cells_z)) return TERRAIN_DEEP; /* NaN too */
    double outside = (u0 < 0.0 || v0 < 0.0 || u1 > cells_x || v1 > cells_z) ? TERRAIN_DEEP : -INFINITY;
    /* cells touched, clamped to the grid, then their blocks */
    uint32_t i0 = u0 > 0.0 ? (uint32_t)fmin(floor(u0), cells_x - 1.0) : 0;
    uint32_t i1 = (uint32_t)fmin(floor(u1), cells_x - 1.0);
    uint32_t j0 = v0 > 0.0 ? (uint32_t)fmin(floor(v0), cells_z - 1.0) : 0;
    uint32_t j1 = (uint32_t)fmin(floor(v1), cells_z - 1.0);
    double m = outside;
    for (uint32_t bj = j0 / TERRAIN_BLOCK; bj <= j1 / TERRAIN_BLOCK; bj++)
        for (uint32_t bi = i0 / TERRAIN_BLOCK; bi <= i1 / TERRAIN_BLOCK; bi++)
            m = fmax(m, t->block_max[(size_t)bj * t->bx + bi]);
    return m;
}

static uint64_t terrain_fnv(uint64_t h, const void* data, size_t n) {
    const unsigned char* p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

uint64_t nv_terrain_fingerprint(const nv_terrain* t) {
    uint64_t h = 0xcbf29ce484222325ull;
    h = terrain_fnv(h, &t->nx, sizeof t->nx);
    h = terrain_fnv(h, &t->nz, sizeof t->nz);
    const double spec[5] = {t->spec.origin_x, t->spec.origin_z, t->spec.cell_size, t->spec.min_elevation,
                            t->spec.max_elevation};
    h = terrain_fnv(h, spec, sizeof spec);
    return terrain_fnv(h, t->elevation, (size_t)t->nx * t->nz * sizeof *t->elevation);
}

const nv_terrain_spec* nv_terrain_get_spec(const nv_terrain* t) { return &t->spec; }
