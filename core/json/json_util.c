// SPDX-License-Identifier: MIT
#include "json_util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int json_fail(const json_ctx* c, const char* path, const char* fmt, ...) {
    char what[NV_ERROR_MAX];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    return nv_error_set(c->err, "%s: %s%s%s", c->name, path, path[0] ? ": " : "", what);
}

/* A path too long for the buffer is cut short: it only ever labels a
 * message. */
void json_path_key(char* out, size_t n, const char* path, const char* key) {
    if (snprintf(out, n, "%s%s%s", path, path[0] ? "." : "", key) < 0) out[0] = '\0';
}

void json_path_index(char* out, size_t n, const char* path, int index) {
    if (snprintf(out, n, "%s[%d]", path, index) < 0) out[0] = '\0';
}

const char* json_type_name(const cJSON* v) {
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsBool(v)) return cJSON_IsTrue(v) ? "true" : "false";
    if (cJSON_IsNull(v)) return "null";
    if (cJSON_IsArray(v)) return "an array";
    if (cJSON_IsObject(v)) return "an object";
    return "something else";
}

int json_check_keys(const json_ctx* c, const cJSON* obj, const char* path, const char* const* allowed) {
    if (!cJSON_IsObject(obj)) return json_fail(c, path, "expected an object (got %s)", json_type_name(obj));
    for (const cJSON* it = obj->child; it; it = it->next) {
        char full[JSON_PATH_MAX];
        json_path_key(full, sizeof full, path, it->string);
        int known = 0;
        for (const char* const* k = allowed; *k; k++)
            if (strcmp(it->string, *k) == 0) known = 1;
        if (!known) return json_fail(c, full, "unknown key");
        /* cJSON keeps both copies of a repeated key and finds the first: the
         * second would be silently ignored. */
        for (const cJSON* before = obj->child; before != it; before = before->next)
            if (strcmp(before->string, it->string) == 0) return json_fail(c, full, "given twice");
    }
    return 0;
}

/* v's length when it is an array of min_n..max_n elements; else -1 and why. */
static int json_array_of(const json_ctx* c, const cJSON* v, const char* full, int min_n, int max_n) {
    int n = cJSON_GetArraySize(v);
    if (cJSON_IsArray(v) && n >= min_n && n <= max_n) return n;
    const char* got = cJSON_IsArray(v) ? "" : json_type_name(v);
    char count[32];
    if (cJSON_IsArray(v)) snprintf(count, sizeof count, "%d element%s", n, n == 1 ? "" : "s");
    if (min_n == max_n)
        return json_fail(c, full, "expected an array of %d numbers (got %s)", min_n, got[0] ? got : count);
    return json_fail(c, full, "expected an array of %d to %d numbers (got %s)", min_n, max_n, got[0] ? got : count);
}

int json_check_ranged(const json_ctx* c, const cJSON* v, const char* path, nv_range_id id, double* out) {
    if (!cJSON_IsNumber(v)) return json_fail(c, path, "expected a number (got %s)", json_type_name(v));
    char why[256];
    /* cJSON turns 1e999 into infinity: refused with the range. */
    if (nv_range_why(id, v->valuedouble, why, sizeof why)) return json_fail(c, path, "%s", why);
    *out = v->valuedouble;
    return 0;
}

int json_get_ranged(const json_ctx* c, const cJSON* obj, const char* path, const char* key, nv_range_id id,
                    double* out) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return 0;
    char full[JSON_PATH_MAX];
    json_path_key(full, sizeof full, path, key);
    return json_check_ranged(c, v, full, id, out) ? -1 : 1;
}

int json_get_ranged_int(const json_ctx* c, const cJSON* obj, const char* path, const char* key, nv_range_id id,
                        int64_t* out) {
    double d = (double)*out;
    int got = json_get_ranged(c, obj, path, key, id, &d);
    if (got <= 0) return got;
    if (d != floor(d)) {
        char full[JSON_PATH_MAX];
        json_path_key(full, sizeof full, path, key);
        return json_fail(c, full, "expected a whole number (got %g)", d);
    }
    *out = (int64_t)d;
    return 1;
}

int json_get_ranged_numbers(const json_ctx* c, const cJSON* obj, const char* path, const char* key, int min_n,
                            int max_n, nv_range_id id, double* out) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return 0;
    char full[JSON_PATH_MAX];
    json_path_key(full, sizeof full, path, key);
    int n = json_array_of(c, v, full, min_n, max_n);
    if (n < 0) return -1;
    int i = 0;
    for (const cJSON* it = v->child; it; it = it->next, i++) {
        char elem[JSON_PATH_MAX];
        json_path_index(elem, sizeof elem, full, i);
        if (json_check_ranged(c, it, elem, id, &out[i])) return -1;
    }
    return n;
}

int json_get_ranged_vector(const json_ctx* c, const cJSON* obj, const char* path, const char* key, int n, nv_range_id id,
                           double* out) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return 0;
    char full[JSON_PATH_MAX];
    json_path_key(full, sizeof full, path, key);
    if (json_array_of(c, v, full, n, n) < 0) return -1;
    double length = 0.0;
    int i = 0;
    for (const cJSON* it = v->child; it; it = it->next, i++) {
        if (!cJSON_IsNumber(it)) {
            char elem[JSON_PATH_MAX];
            json_path_index(elem, sizeof elem, full, i);
            return json_fail(c, elem, "expected a number (got %s)", json_type_name(it));
        }
        out[i] = it->valuedouble; /* cJSON reads 1e999 as infinity: its length is refused */
        length = hypot(length, out[i]);
    }
    const nv_range* r = nv_range_get(id);
    if (!nv_range_contains(r, length)) {
        char range[128];
        nv_range_describe(r, range, sizeof range);
        return json_fail(c, full, "its length must be %s (got %g)", range, length);
    }
    return n;
}

const char* json_get_string(const json_ctx* c, const cJSON* obj, const char* path, const char* key, bool required,
                            int* failed) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char full[JSON_PATH_MAX];
    json_path_key(full, sizeof full, path, key);
    *failed = 0;
    if (!v) {
        if (required) *failed = json_fail(c, full, "missing (a string is required)");
        return NULL;
    }
    if (!cJSON_IsString(v) || !v->valuestring[0]) {
        *failed = json_fail(c, full, "expected a non-empty string (got %s)", json_type_name(v));
        return NULL;
    }
    return v->valuestring;
}

int json_require(const json_ctx* c, const cJSON* obj, const char* path, const char* key, const char* what) {
    if (cJSON_GetObjectItemCaseSensitive(obj, key)) return 0;
    char full[JSON_PATH_MAX];
    json_path_key(full, sizeof full, path, key);
    return json_fail(c, full, "missing (%s)", what);
}

int json_get_bool(const json_ctx* c, const cJSON* obj, const char* path, const char* key, bool* out) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return 0;
    if (!cJSON_IsBool(v)) {
        char full[JSON_PATH_MAX];
        json_path_key(full, sizeof full, path, key);
        return json_fail(c, full, "expected true or false (got %s)", json_type_name(v));
    }
    *out = cJSON_IsTrue(v);
    return 1;
}

cJSON* json_parse_text(const json_ctx* c, const char* text, size_t length) {
    const char* end = NULL;
    cJSON* root = cJSON_ParseWithLengthOpts(text, length, &end, 0);
    if (root) return root;
    /* cJSON points at where parsing stopped: turn it into line:column. */
    int line = 1, col = 1;
    const char* stop = end && end >= text && end <= text + length ? end : text + length;
    for (const char* p = text; p < stop; p++) {
        if (*p == '\n')
            line++, col = 1;
        else
            col++;
    }
    nv_error_set(c->err, "%s: line %d, column %d: invalid JSON", c->name, line, col);
    return NULL;
}

static char* json_read_file(const char* path, size_t* length, nv_error* err) {
    FILE* f = fopen(path, "rb");
    if (!f) {
        nv_error_fail(err, errno == ENOENT ? NV_ENOENT : NV_EIO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    char* text = malloc(JSON_MAX_FILE + 1);
    size_t n = text ? fread(text, 1, JSON_MAX_FILE + 1, f) : 0;
    int read_error = ferror(f);
    fclose(f);
    if (!text) {
        nv_error_fail(err, NV_ENOMEM, "%s: out of memory", path);
        return NULL;
    }
    if (read_error || n > JSON_MAX_FILE) {
        free(text);
        if (read_error)
            nv_error_set(err, "%s: read error", path);
        else
            nv_error_set(err, "%s: larger than %u MiB", path, JSON_MAX_FILE >> 20);
        return NULL;
    }
    *length = n;
    return text;
}

/* The folder of a file path ("." when it has none); -1 when it does not fit. */
static int json_dir_of(const char* path, char* out, size_t n) {
    const char* slash = strrchr(path, '/');
    if (!slash) return snprintf(out, n, ".") < 0 ? -1 : 0;
    if (slash == path) return snprintf(out, n, "/") < 0 ? -1 : 0;
    size_t len = (size_t)(slash - path);
    if (len >= n) return -1;
    memcpy(out, path, len);
    out[len] = '\0';
    return 0;
}

int json_load_file(const char* path, json_parse_fn* parse, void* out, nv_error* err) {
    size_t n = 0;
    char dir[JSON_DIR_MAX];
    if (json_dir_of(path, dir, sizeof dir))
        return nv_error_set(err, "%.200s...: the folder's path is longer than %d characters", path, JSON_DIR_MAX - 1);
    char* text = json_read_file(path, &n, err);
    if (!text) return -1;
    int rc = parse(text, n, path, dir, out, err);
    free(text);
    return rc;
}

int json_resolve_path(const json_ctx* c, const char* path, const char* file, char* out, size_t n) {
    int len;
    if (strncmp(file, "builtin:", 8) == 0 || file[0] == '/' || !c->base_dir)
        len = snprintf(out, n, "%s", file);
    else
        len = snprintf(out, n, "%s/%s", c->base_dir, file);
    if (len < 0 || (size_t)len >= n) return json_fail(c, path, "the path is longer than %zu characters", n - 1);
    return 0;
}
