// SPDX-License-Identifier: MIT
#include "json_ranged.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

