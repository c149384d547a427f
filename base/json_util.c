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
