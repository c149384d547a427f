// SPDX-License-Identifier: MIT
#include "num.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int num_double(const char* text, double min, double max, double* out) {
    if (!text || !text[0] || isspace((unsigned char)text[0])) return -1;
    char* end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v) || v < min || v > max) return -1;
    *out = v;
    return 0;
}

int num_u64(const char* text, uint64_t min, uint64_t max, uint64_t* out) {
    /* strtoull skips blanks and takes a sign: " -1" would wrap to 2^64 - 1. */
    if (!text || !isdigit((unsigned char)text[0])) return -1;
    char* end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE || v < min || v > max) return -1;
    *out = v;
    return 0;
}

int num_pair(const char* text, double* a, double* b) {
    const char* comma = text ? strchr(text, ',') : NULL;
    if (!comma || (size_t)(comma - text) >= 64) return -1;
    char first[64];
    memcpy(first, text, (size_t)(comma - text));
    first[comma - text] = '\0';
    return num_double(first, -INFINITY, INFINITY, a) || num_double(comma + 1, -INFINITY, INFINITY, b) ? -1 : 0;
}
