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
#include "naval/ranges.h"

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

/* Numbers are bounded by a row of the range table (naval/ranges.h), the
 * one place their ranges are written: a finite number within row id,
 * checked at `path`; its message names the range and unit
 * ("ocean.wind: must be in [0, 60] m/s (got 61)"). Integer rows also need
 * a whole number. */
int json_check_ranged(const json_ctx* c, const cJSON* v, const char* path, nv_range_id id, double* out);
/* Optional member `key`: *out keeps its value when the key is absent;
 * 1 when read, 0 when absent, -1 on error. */
int json_get_ranged(const json_ctx* c, const cJSON* obj, const char* path, const char* key, nv_range_id id,
                    double* out);
/* A whole number within row id. */
int json_get_ranged_int(const json_ctx* c, const cJSON* obj, const char* path, const char* key, nv_range_id id,
                        int64_t* out);
/* An array of min_n..max_n numbers (each within row id); returns how many
 * were read, 0 when absent, -1 on error. */
int json_get_ranged_numbers(const json_ctx* c, const cJSON* obj, const char* path, const char* key, int min_n,
                            int max_n, nv_range_id id, double* out);
/* An array of n numbers whose length (Euclidean norm) is within row id
 * (a velocity, a wind): "wind: its length must be in [0, 60] m/s (got
 * 300.008)"; n when read, 0 when absent, -1 on error. */
int json_get_ranged_vector(const json_ctx* c, const cJSON* obj, const char* path, const char* key, int n, nv_range_id id,
                           double* out);
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
