// SPDX-License-Identifier: MIT
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
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

/* n finite numbers separated by commas, nothing else. */
static int cli_parse_numbers(const char* text, int n, double* v) {
    const char* p = text;
    for (int i = 0; i < n; i++) {
        const char* comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if ((i < n - 1) != (comma != NULL) || len == 0 || len >= 64) return -1;
        char buf[64];
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (cli_parse_double(buf, &v[i])) return -1;
        p = comma ? comma + 1 : p + len;
    }
    return 0;
}

int cli_parse_triple(const char* text, nv_vec3* out) {
    double v[3];
    if (cli_parse_numbers(text, 3, v)) return -1;
    *out = v3(v[0], v[1], v[2]);
    return 0;
}

int cli_parse_point(const char* text, double* x, double* z) {
    double v[2];
    if (cli_parse_numbers(text, 2, v)) return -1;
    *x = v[0];
    *z = v[1];
    return 0;
}

int cli_parse_pair(const char* text, uint64_t min, uint64_t max, uint64_t* first, uint64_t* second) {
    const char* comma = strchr(text, ',');
    char head[32];
    if (!comma || comma == text || (size_t)(comma - text) >= sizeof head) return -1;
    memcpy(head, text, (size_t)(comma - text));
    head[comma - text] = '\0';
    uint64_t a, b;
    if (cli_parse_u64(head, min, max, &a) || cli_parse_u64(comma + 1, min, max, &b)) return -1;
    *first = a;
    *second = b;
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

/* ---- The table-driven option parser ---- */

int cli_usage_error(const char* prog, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(%s --help for usage)\n", prog);
    va_end(ap);
    return 2;
}

static int cli_matches(const cli_opt* o, const char* arg, size_t len) {
    const char* names[3] = {o->flag, o->alias, o->deprecated};
    for (int k = 0; k < 3; k++)
        if (names[k] && strlen(names[k]) == len && !strncmp(names[k], arg, len)) return 1;
    return 0;
}

static void* cli_target(const cli_opt* o, void* args) {
    return o->ptr ? o->ptr : (char*)args + o->offset;
}

static void cli_store_int(void* dst, size_t size, uint64_t bits) {
    switch (size) {
    case 1: { uint8_t v = (uint8_t)bits; memcpy(dst, &v, 1); break; }
    case 2: { uint16_t v = (uint16_t)bits; memcpy(dst, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)bits; memcpy(dst, &v, 4); break; }
    default: memcpy(dst, &bits, 8); break;
    }
}

/* The field's own range for an integer of `size` bytes. */
static void cli_int_range(const cli_opt* o, double* lo, double* hi) {
    size_t bits = (o->size ? o->size : 4) * 8;
    if (o->type == CLI_UINT) *lo = 0, *hi = ldexp(1.0, (int)bits) - 1.0;
    else *lo = -ldexp(1.0, (int)bits - 1), *hi = ldexp(1.0, (int)bits - 1) - 1.0;
    if (o->min != 0 || o->max != 0) *lo = o->min, *hi = o->max;
}

static void cli_range_words(const cli_opt* o, char* out, size_t n) {
    if (o->type == CLI_ENUM) {
        size_t used = (size_t)snprintf(out, n, "must be ");
        for (size_t k = 0; o->words && o->words[k] && used < n; k++)
            used += (size_t)snprintf(out + used, n - used, "%s%s", k ? (o->words[k + 1] ? ", " : " or ") : "",
                                     o->words[k]);
        return;
    }
    double lo, hi;
    if (o->type == CLI_DOUBLE) lo = o->min, hi = o->max;
    else cli_int_range(o, &lo, &hi);
    if (o->type == CLI_DOUBLE && lo == 0 && hi == 0) snprintf(out, n, "must be a number");
    else if (o->type == CLI_DOUBLE) snprintf(out, n, "must be a number in [%g, %g]", lo, hi);
    else snprintf(out, n, "must be a whole number in [%.0f, %.0f]", lo, hi);
}

/* 0, or -1 and why. */
static int cli_value(const cli_opt* o, const char* text, void* args, char* why, size_t n) {
    void* dst = cli_target(o, args);
    why[0] = '\0';
    switch (o->type) {
    case CLI_SWITCH:
        if (o->parse) return o->parse(o, NULL, args, why, n);
        cli_store_int(dst, o->size ? o->size : sizeof(int), 1);
        return 0;
    case CLI_STRING:
        if (o->parse) return o->parse(o, text, args, why, n);
        memcpy(dst, &text, sizeof text);
        return 0;
    case CLI_CUSTOM:
        return o->parse ? o->parse(o, text, args, why, n) : -1;
    case CLI_ENUM:
        for (size_t k = 0; o->words && o->words[k]; k++)
            if (!strcmp(o->words[k], text)) {
                cli_store_int(dst, o->size ? o->size : sizeof(int), k);
                return 0;
            }
        return -1;
    case CLI_DOUBLE: {
        double v;
        if (cli_parse_double(text, &v)) return -1;
        if ((o->min != 0 || o->max != 0) && !(v >= o->min && v <= o->max)) return -1;
        if (o->check && o->check(o, v, why, n)) return -1;
        if (o->size == sizeof(float)) {
            float f = (float)v;
            memcpy(dst, &f, sizeof f);
        } else {
            memcpy(dst, &v, sizeof v);
        }
        return 0;
    }
    case CLI_INT:
    case CLI_UINT: {
        double lo, hi, v;
        uint64_t bits;
        cli_int_range(o, &lo, &hi);
        int whole;
        if (o->type == CLI_UINT) {
            whole = !cli_parse_u64(text, 0, UINT64_MAX, &bits);
            v = (double)bits;
        } else {
            char* end = NULL;
            errno = 0;
            long long s = strtoll(text, &end, 10);
            whole = end != text && !*end && errno != ERANGE && !isspace((unsigned char)text[0]);
            bits = (uint64_t)s;
            v = (double)s;
        }
        if (!whole) {
            /* A number but not one the field holds (4.5, -1, 1e300): the
             * check says what the value must be, when the row has one. */
            if (o->check && !cli_parse_double(text, &v)) o->check(o, v, why, n);
            return -1;
        }
        if (!(v >= lo && v <= hi)) return -1;
        if (o->check && o->check(o, v, why, n)) return -1;
        cli_store_int(dst, o->size ? o->size : sizeof(int), bits);
        return 0;
    }
    }
    return -1;
}

static int cli_bad_value(const cli_spec* spec, const cli_opt* o, const char* name, const char* text, const char* why) {
    const char* sep = spec->flag_sep ? spec->flag_sep : ": ";
    if (why[0]) return cli_usage_error(spec->prog, "%s%s%s", name, sep, why);
    if (o->bad) return cli_usage_error(spec->prog, "%s (got '%s')", o->bad, text);
    char range[256];
    cli_range_words(o, range, sizeof range);
    return cli_usage_error(spec->prog, "%s%s%s (got '%s')", name, sep, range, text);
}

#define CLI_MAX_ROWS 128

int cli_parse(const cli_spec* spec, int argc, char** argv, void* args) {
    const char* known[2 * CLI_MAX_ROWS + 2];
    size_t nknown = 0;
    for (const cli_opt* o = spec->opts; o->flag && nknown < 2 * CLI_MAX_ROWS; o++) {
        known[nknown++] = o->flag;
        if (o->alias && o->alias[0] == '-' && o->alias[1] == '-') known[nknown++] = o->alias;
    }
    known[nknown++] = "--help";
    known[nknown] = NULL;
    char why[512];
    for (int i = 1; i < argc; i++) {
        const char* arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            cli_print_usage(spec, args, stdout);
            return 0;
        }
        if (arg[0] != '-' || !arg[1]) {
            if (!spec->positional) return cli_unknown_option(spec->prog, arg, known);
            why[0] = '\0';
            if (spec->positional(arg, args, why, sizeof why)) return cli_usage_error(spec->prog, "%s", why);
            continue;
        }
        const char* eq = arg[1] == '-' ? strchr(arg, '=') : NULL;
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const cli_opt* o = spec->opts;
        while (o->flag && !cli_matches(o, arg, len)) o++;
        if (!o->flag) return cli_unknown_option(spec->prog, arg, known);
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), arg);
        const char* text = NULL;
        if (o->type == CLI_SWITCH) {
            if (eq) return cli_usage_error(spec->prog, "%s: takes no value (got '%s')", name, eq + 1);
        } else if (eq) {
            text = eq + 1;
        } else if (i + 1 < argc) {
            text = argv[++i];
        } else {
            return cli_usage_error(spec->prog, "%s: missing value", name);
        }
        if (cli_value(o, text, args, why, sizeof why)) return cli_bad_value(spec, o, name, text ? text : "", why);
        if (o->seen) cli_store_int((char*)args + o->seen - 1, sizeof(int), 1);
    }
    return CLI_RUN;
}

static uint64_t cli_load_int(const void* src, size_t size, int is_signed) {
    switch (size) {
    case 1: { uint8_t v; memcpy(&v, src, 1); return is_signed ? (uint64_t)(int64_t)(int8_t)v : v; }
    case 2: { uint16_t v; memcpy(&v, src, 2); return is_signed ? (uint64_t)(int64_t)(int16_t)v : v; }
    case 4: { uint32_t v; memcpy(&v, src, 4); return is_signed ? (uint64_t)(int64_t)(int32_t)v : v; }
    default: { uint64_t v; memcpy(&v, src, 8); return v; }
    }
}

/* " (default V)" from the field's present value. */
static void cli_print_default(const cli_opt* o, const void* args, FILE* out) {
    const void* src = o->ptr ? o->ptr : (const char*)args + o->offset;
    size_t size = o->size ? o->size : sizeof(int);
    uint64_t bits;
    switch (o->type) {
    case CLI_INT:
        fprintf(out, " (default %lld)", (long long)cli_load_int(src, size, 1));
        break;
    case CLI_UINT:
        fprintf(out, " (default %llu)", (unsigned long long)cli_load_int(src, size, 0));
        break;
    case CLI_DOUBLE:
        if (size == sizeof(float)) {
            float f;
            memcpy(&f, src, sizeof f);
            fprintf(out, " (default %g)", (double)f);
        } else {
            double d;
            memcpy(&d, src, sizeof d);
            fprintf(out, " (default %g)", d);
        }
        break;
    case CLI_ENUM:
        bits = cli_load_int(src, size, 0);
        for (size_t k = 0; o->words && o->words[k]; k++)
            if (k == bits) fprintf(out, " (default %s)", o->words[k]);
        break;
    case CLI_STRING: {
        const char* text;
        memcpy(&text, src, sizeof text);
        if (text) fprintf(out, " (default %s)", text);
        break;
    }
    default:
        break;
    }
}

void cli_print_usage(const cli_spec* spec, const void* args, FILE* out) {
    fprintf(out, "usage: %s\n", spec->synopsis ? spec->synopsis : spec->prog);
    if (spec->about) fprintf(out, "\n%s\n", spec->about);
    fprintf(out, "\noptions:\n");
    for (const cli_opt* o = spec->opts; o->flag; o++) {
        char head[128];
        int w = snprintf(head, sizeof head, "%s%s%s", o->flag, o->alias ? ", " : "", o->alias ? o->alias : "");
        if (o->type == CLI_ENUM && !o->value_name && o->words)
            for (size_t k = 0; o->words[k] && w > 0 && (size_t)w < sizeof head; k++)
                w += snprintf(head + w, sizeof head - (size_t)w, "%s%s", k ? "|" : " ", o->words[k]);
        else if (o->type != CLI_SWITCH && w > 0 && (size_t)w < sizeof head)
            snprintf(head + w, sizeof head - (size_t)w, " %s", o->value_name ? o->value_name : "VALUE");
        fprintf(out, "  %-24s", head);
        if (strlen(head) >= 24) fprintf(out, "\n  %-24s", "");
        /* The help text, its lines indented under the first. */
        for (const char* p = o->help ? o->help : ""; *p;) {
            const char* nl = strchr(p, '\n');
            size_t l = nl ? (size_t)(nl - p) : strlen(p);
            fprintf(out, "%.*s", (int)l, p);
            p += l;
            if (*p) p++, fprintf(out, "\n  %-24s", "");
        }
        if (o->show_default && (args || o->ptr)) cli_print_default(o, args, out);
        if (o->deprecated) fprintf(out, " (%s is a deprecated alias)", o->deprecated);
        fprintf(out, "\n");
    }
    fprintf(out, "  %-24s%s\n", "--help, -h", "this text");
    if (spec->epilogue) fprintf(out, "\n%s\n", spec->epilogue);
}
