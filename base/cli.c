// SPDX-License-Identifier: MIT
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
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

int cli_parse_triple(const char* text, nv_vec3* out) {
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

/* Levenshtein distance, both strings short (longer ones are not options). */
static size_t cli_distance(const char* a, size_t la, const char* b) {
    size_t lb = strlen(b);
    if (la > 63 || lb > 63) return (size_t)-1;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char* cli_suggest(const char* arg, const char* const* options) {
    if (!arg || !options) return NULL;
    const char* eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const char* best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t k = 0; options[k]; k++) {
        size_t d = cli_distance(arg, len, options[k]);
        if (d < best_d) best_d = d, best = options[k];
    }
    /* Dashes count as letters too: "-steps" is one edit from "--steps". */
    if (!best || best_d == 0 || best_d > 2 || 2 * best_d >= len) return NULL;
    return best;
}

int cli_unknown_option(const char* prog, const char* arg, const char* const* options) {
    const char* near = cli_suggest(arg, options);
    if (near)
        fprintf(stderr, "%s: unknown option '%s' (did you mean %s?)\n(%s --help for usage)\n", prog, arg, near, prog);
    else
        fprintf(stderr, "%s: unknown option '%s'\n(%s --help for usage)\n", prog, arg, prog);
    return 2;
}

int cli_file_error(const char* prog, const char* what, const char* path, int input) {
    int e = errno;
    fprintf(stderr, "%s: %s '%s': %s\n", prog, what, path, e ? strerror(e) : "failed");
    return input ? 2 : 1;
}
