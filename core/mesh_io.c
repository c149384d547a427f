// SPDX-License-Identifier: MIT
/* Mesh loaders: reading the file, choosing the format, binary STL. The text
 * formats are in mesh_text.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "grow.h"
#include "mesh_internal.h"
#include "naval/mesh.h"

#define MESH_STL_HEADER 84u
#define MESH_STL_RECORD 50u

/* Whole-file reads are capped: text formats have no count to check up
 * front, so the size is the only guard against a runaway input. About 512
 * bytes per allowed triangle covers verbose ASCII STL. */
#define MESH_FILE_BASE_LIMIT (64u << 20)
#define MESH_FILE_BYTES_PER_TRIANGLE 512u

static uint32_t mesh_max_triangles(const nv_mesh_options* opts) {
    return opts->max_triangles ? opts->max_triangles : MESH_DEFAULT_MAX_TRIANGLES;
}

static size_t mesh_file_limit(uint32_t max_triangles) {
    uint64_t limit = (uint64_t)MESH_FILE_BASE_LIMIT + (uint64_t)max_triangles * MESH_FILE_BYTES_PER_TRIANGLE;
    return limit > SIZE_MAX ? SIZE_MAX : (size_t)limit;
}

static const char* mesh_strerror(int errnum, char* buf, size_t size) {
    /* strerror_r (XSI form under _POSIX_C_SOURCE): loaders are reentrant. */
    if (strerror_r(errnum, buf, size) != 0) snprintf(buf, size, "error %d", errnum);
    return buf;
}

static int mesh_format_from_name(const char* name, nv_mesh_format* fmt, nv_error* err) {
    if (!name) return nv_error_set(err, "mesh: no file name to tell the format from");
    const char* slash = strrchr(name, '/');
    const char* base = slash ? slash + 1 : name;
    const char* dot = strrchr(base, '.');
    if (!dot || dot == base)
        return nv_error_set(err, "%s: no file extension to tell the mesh format from (expected .stl, .obj or .off)",
                            name);
    char ext[8] = "";
    size_t len = strlen(dot + 1);
    if (len < sizeof ext) {
        for (size_t i = 0; i < len; i++) {
            char c = dot[1 + i];
            ext[i] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
        }
        ext[len] = '\0';
    }
    if (strcmp(ext, "stl") == 0)
        *fmt = MESH_FORMAT_STL;
    else if (strcmp(ext, "obj") == 0)
        *fmt = MESH_FORMAT_OBJ;
    else if (strcmp(ext, "off") == 0)
        *fmt = MESH_FORMAT_OFF;
    else
        return nv_error_set(err, "%s: unknown mesh file extension '%s' (expected .stl, .obj or .off)", name, dot);
    return 0;
}

static uint32_t mesh_read_le32(const unsigned char* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float mesh_read_lef32(const unsigned char* p) {
    uint32_t u = mesh_read_le32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static bool mesh_stl_is_ascii(const unsigned char* data, size_t size) {
    size_t i = 0;
    if (size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF) i = 3; /* UTF-8 BOM */
    while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n')) i++;
    if (size - i < 5) return false;
    for (int k = 0; k < 5; k++) {
        unsigned char c = data[i + (size_t)k];
        if (c >= 'A' && c <= 'Z') c = (unsigned char)(c - 'A' + 'a');
        if (c != (unsigned char)"solid"[k]) return false;
    }
    /* Binary headers often start with "solid" too; text never holds NUL,
     * while a binary count or float almost always does. */
    return memchr(data, 0, size) == NULL;
}

static int mesh_parse_stl_binary(const unsigned char* data, size_t size, uint32_t max_triangles, nv_mesh* out,
                                 nv_error* err) {
    if (size < MESH_STL_HEADER)
        return nv_error_set(err,
                            "truncated binary STL: %zu bytes, shorter than the %u-byte header (and no 'solid' for "
                            "ASCII STL)",
                            size, MESH_STL_HEADER);
    uint32_t count = mesh_read_le32(data + 80);
    uint64_t expected = (uint64_t)MESH_STL_HEADER + (uint64_t)count * MESH_STL_RECORD;
    uint64_t room = (size - MESH_STL_HEADER) / MESH_STL_RECORD;
    if ((uint64_t)size < expected)
        return nv_error_set(err,
                            "truncated binary STL: the header says %u triangles (%llu bytes) but the file has %zu "
                            "bytes; triangle %llu is incomplete",
                            count, (unsigned long long)expected, size, (unsigned long long)room);
    if ((uint64_t)size > expected)
        return nv_error_set(err,
                            "binary STL size mismatch: the header says %u triangles (%llu bytes) but the file has "
                            "%zu bytes (room for %llu triangles%s); the count is wrong or data follows",
                            count, (unsigned long long)expected, size, (unsigned long long)room,
                            (size - MESH_STL_HEADER) % MESH_STL_RECORD ? " and some" : "");
    if (count > max_triangles)
        return nv_error_set(err, "binary STL has %u triangles, more than max_triangles (%u)", count, max_triangles);
    if (count > UINT32_MAX / 3) return nv_error_set(err, "binary STL has too many triangles (%u)", count);
    if (nv_mesh_reserve(out, count * 3, count, err)) return -1;

    const unsigned char* rec = data + MESH_STL_HEADER;
    for (uint32_t t = 0; t < count; t++, rec += MESH_STL_RECORD) {
        /* The stored normal (first 12 bytes) is ignored: the winding decides. */
        float* p = out->positions + (size_t)t * 9;
        for (int k = 0; k < 9; k++) p[k] = mesh_read_lef32(rec + 12 + 4 * k);
        for (int v = 0; v < 3; v++)
            if (!isfinite(p[3 * v]) || !isfinite(p[3 * v + 1]) || !isfinite(p[3 * v + 2]))
                return nv_error_set(err, "triangle %u: vertex %d has a non-finite coordinate (%g, %g, %g)", t, v,
                                    p[3 * v], p[3 * v + 1], p[3 * v + 2]);
        uint32_t* s = out->indices + (size_t)t * 3;
        s[0] = 3 * t;
        s[1] = 3 * t + 1;
        s[2] = 3 * t + 2;
    }
    out->vertex_count = count * 3;
    out->triangle_count = count;
    return 0;
}

static int mesh_parse(const unsigned char* data, size_t size, nv_mesh_format fmt, uint32_t max_triangles, nv_mesh* out,
                      nv_error* err) {
    static const char* const names[] = {"", "STL", "OBJ", "OFF"};
    if (size == 0) return nv_error_set(err, "empty file (0 bytes), not a valid %s mesh", names[fmt]);
    switch (fmt) {
    case MESH_FORMAT_STL:
        if (size >= MESH_STL_HEADER &&
            (uint64_t)size == MESH_STL_HEADER + (uint64_t)mesh_read_le32(data + 80) * MESH_STL_RECORD)
            return mesh_parse_stl_binary(data, size, max_triangles, out, err);
        if (mesh_stl_is_ascii(data, size))
            return mesh_parse_stl_ascii((const char*)data, size, max_triangles, out, err);
        return mesh_parse_stl_binary(data, size, max_triangles, out, err);
    case MESH_FORMAT_OBJ:
        return mesh_parse_obj((const char*)data, size, max_triangles, out, err);
    case MESH_FORMAT_OFF:
        return mesh_parse_off((const char*)data, size, max_triangles, out, err);
    case MESH_FORMAT_AUTO:
        break;
    }
    return nv_error_set(err, "unknown mesh format %d", (int)fmt);
}

int nv_mesh_load_memory(const void* data, size_t size, nv_mesh_format fmt, const char* name, const nv_mesh_options* opts,
                        nv_mesh* out, nv_mesh_report* report, nv_error* err) {
    nv_mesh_options defaults = nv_mesh_options_default();
    if (!opts) opts = &defaults;
    nv_mesh_init(out);
    if (report) memset(report, 0, sizeof *report);
    if (fmt == MESH_FORMAT_AUTO && mesh_format_from_name(name, &fmt, err)) return -1;
    if (fmt != MESH_FORMAT_STL && fmt != MESH_FORMAT_OBJ && fmt != MESH_FORMAT_OFF)
        return nv_error_set(err, "%s: unknown mesh format %d", name ? name : "mesh", (int)fmt);
    if (!data && size > 0) return nv_error_set(err, "%s: no data", name ? name : "mesh");
    if (mesh_parse(data, size, fmt, mesh_max_triangles(opts), out, err)) {
        nv_mesh_free(out);
        return nv_error_prefix(err, "%s", name ? name : "mesh");
    }
    if (nv_mesh_finish(out, opts, name, report, err)) {
        nv_mesh_free(out);
        return -1;
    }
    return 0;
}

/* The whole file in one buffer: one read, and the parsers can scan it with
 * plain pointers. */
static int mesh_read_file(const char* path, size_t limit, unsigned char** data, size_t* size, nv_error* err) {
    char why[128];
    *data = NULL;
    *size = 0;
    FILE* f = fopen(path, "rb");
    if (!f)
        return nv_error_fail(err, errno == ENOENT ? NV_ENOENT : NV_EIO, "%s: cannot open: %s", path,
                             mesh_strerror(errno, why, sizeof why));
    struct stat st;
    size_t cap = 1 << 16;
    if (fstat(fileno(f), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            fclose(f);
            return nv_error_fail(err, NV_EIO, "%s: cannot read: %s", path, mesh_strerror(EISDIR, why, sizeof why));
        }
        if (S_ISREG(st.st_mode)) {
            if ((uint64_t)st.st_size > limit) {
                fclose(f);
                return nv_error_set(err, "%s: file is %lld bytes, more than the %zu-byte limit set by max_triangles",
                                    path, (long long)st.st_size, limit);
            }
            cap = (size_t)st.st_size + 1; /* +1 to see EOF without growing */
        }
    }
    unsigned char* buf = malloc(cap);
    size_t len = 0;
    for (;;) {
        if (!buf) {
            fclose(f);
            return nv_error_fail(err, NV_ENOMEM, "%s: out of memory reading the file", path);
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len > limit) {
            free(buf);
            fclose(f);
            return nv_error_set(err, "%s: file is more than the %zu-byte limit set by max_triangles", path, limit);
        }
        if (len < cap) break;
        size_t grown = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
        if (grow_resize((void**)&buf, grown, 1)) {
            free(buf);
            buf = NULL;
        }
        cap = grown;
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        return nv_error_fail(err, NV_EIO, "%s: read error: %s", path, mesh_strerror(e, why, sizeof why));
    }
    fclose(f);
    *data = buf;
    *size = len;
    return 0;
}

int nv_mesh_load_file(const char* path, nv_mesh_format fmt, const nv_mesh_options* opts, nv_mesh* out, nv_mesh_report* report,
                      nv_error* err) {
    nv_mesh_options defaults = nv_mesh_options_default();
    if (!opts) opts = &defaults;
    nv_mesh_init(out);
    if (report) memset(report, 0, sizeof *report);
    if (!path) return nv_error_set(err, "mesh: no file name");
    /* Before opening: a wrong extension is the more useful message. */
    if (fmt == MESH_FORMAT_AUTO && mesh_format_from_name(path, &fmt, err)) return -1;
    unsigned char* data;
    size_t size;
    if (mesh_read_file(path, mesh_file_limit(mesh_max_triangles(opts)), &data, &size, err)) return -1;
    int rc = nv_mesh_load_memory(data, size, fmt, path, opts, out, report, err);
    free(data);
    return rc;
}
