// SPDX-License-Identifier: MIT
/* JSON numbers checked against the range table (naval/ranges.h): the
 * part of the strict JSON reading (base/json_util.h) that knows the
 * simulation's inputs, so the reader itself sits below the core. */
#ifndef NAVAL_JSON_RANGED_H
#define NAVAL_JSON_RANGED_H

#include <stdint.h>

#include "json_util.h"
#include "naval/ranges.h"

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
#endif
