// SPDX-License-Identifier: MIT
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int cli_parse_double(const char* text, double* out) {
    char* end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int cli_parse_u64(const char* text, uint64_t min, uint64_t max, uint64_t* out) {
    /* strtoull skips blanks and accepts a sign: " -1" would wrap to 2^64 - 1. */
    if (!isdigit((unsigned char)text[0])) return -1;
    char* end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < min || v > max) return -1;
    *out = v;
    return 0;
}

int cli_parse_triple(const char* text, vec3* out) {
    double v[3];
    const char* p = text;
    for (int i = 0; i < 3; i++) {
        const char* comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if ((i < 2) != (comma != NULL) || len == 0 || len >= 64) return -1;
        char buf[64];
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (cli_parse_double(buf, &v[i])) return -1;
        p = comma ? comma + 1 : p + len;
    }
    *out = v3(v[0], v[1], v[2]);
    return 0;
}
