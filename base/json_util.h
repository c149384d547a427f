// SPDX-License-Identifier: MIT
/* Strict reading of the project's JSON files (scenarios, vessel types) with
 * cJSON: every key must be known, every value of the right type and range,
 * and every message names the file and the key's path, e.g.
 * "patrol.json: propellers[0].max_thrust: must be > 0 (got -5)". */
#ifndef NAVAL_JSON_UTIL_H
#define NAVAL_JSON_UTIL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "naval/nv_error.h"

#define JSON_PATH_MAX 256
#define JSON_MAX_FILE (64u << 20)
#define JSON_DIR_MAX 1024

typedef struct json_ctx {
    const char* name;     /* prefixes every message (the file name) */
    const char* base_dir; /* resolves relative paths; NULL: as given */
    nv_error* err;
} json_ctx;

/* Sets "NAME: PATH: what" (no PATH part when path is ""); returns -1. */
int json_fail(const json_ctx* c, const char* path, const char* fmt, ...) NV_PRINTF_LIKE(3, 4);

/* "path.key", or "key" at the top level. */
void json_path_key(char* out, size_t n, const char* path, const char* key);
/* "path[index]". */
void json_path_index(char* out, size_t n, const char* path, int index);

/* "a string", "an array", ...: for "expected X (got Y)". */
const char* json_type_name(const cJSON* v);

/* obj must be an object whose keys are all in `allowed` (NULL-terminated),
 * each at most once. */
int json_check_keys(const json_ctx* c, const cJSON* obj, const char* path, const char* const* allowed);

/* A non-empty string: NULL when absent (an error when required) or wrong;
 * *failed says which. */
const char* json_get_string(const json_ctx* c, const cJSON* obj, const char* path, const char* key, bool required,
                            int* failed);
/* 0 when obj has `key`; else -1 and "PATH.KEY: missing (what)". */
int json_require(const json_ctx* c, const cJSON* obj, const char* path, const char* key, const char* what);
/* Optional true / false. */
int json_get_bool(const json_ctx* c, const cJSON* obj, const char* path, const char* key, bool* out);

/* Parses text; invalid JSON is reported as "NAME: line L, column C". */
cJSON* json_parse_text(const json_ctx* c, const char* text, size_t length);
/* Reads the file (at most JSON_MAX_FILE bytes) and hands its text to
 * `parse` with the path as the name and the file's folder as base_dir. */
typedef int json_parse_fn(const char* text, size_t length, const char* name, const char* base_dir, void* out,
                          nv_error* err);
int json_load_file(const char* path, json_parse_fn* parse, void* out, nv_error* err);
/* `file` as given when it is absolute, a "builtin:" name or base_dir is
 * NULL; else base_dir/file. Fails (at `path`) when it does not fit. */
int json_resolve_path(const json_ctx* c, const char* path, const char* file, char* out, size_t n);

#endif
