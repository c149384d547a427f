// SPDX-License-Identifier: MIT
/* Strict parsing of command-line values for the tools: the whole text must
 * be a finite number in range, or the caller reports which flag was wrong.
 *
 * One convention for every tool (README.md, "Command-line conventions"):
 * an unknown option is "PROG: unknown option 'ARG' (did you mean --X?)",
 * a file error names the path and strerror(errno), and every usage or
 * input error exits 2 (exit 1 is for runtime failures). */
#ifndef NAVAL_CLI_H
#define NAVAL_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "naval/vecmath.h"

int cli_parse_double(const char* text, double* out);
/* Integer in [min, max]. */
int cli_parse_u64(const char* text, uint64_t min, uint64_t max, uint64_t* out);
/* "X,Y,Z" */
int cli_parse_triple(const char* text, nv_vec3* out);
/* "X,Z": two finite numbers (a point on the sea). */
int cli_parse_point(const char* text, double* x, double* z);
/* "N,M": two integers, each in [min, max]. */
int cli_parse_pair(const char* text, uint64_t min, uint64_t max, uint64_t* first, uint64_t* second);

/* The option in `options` (NULL-terminated) nearest to `arg` by edit
 * distance (the part of arg before any '='), or NULL when none is close
 * (at most 2 edits, and fewer than half of arg's letters). */
const char* cli_suggest(const char* arg, const char* const* options);
/* Prints "PROG: unknown option 'ARG' (did you mean --X?)" and "(PROG
 * --help for usage)" to stderr; returns 2, the usage exit status. */
int cli_unknown_option(const char* prog, const char* arg, const char* const* options);
/* Prints "PROG: WHAT 'PATH': strerror(errno)" to stderr (errno as the
 * failed call left it); returns 2 when input says the file was an input
 * (usage error), else 1. */
int cli_file_error(const char* prog, const char* what, const char* path, int input);

/* ---- The table-driven option parser ----
 *
 * One row per option; cli_parse reads argv against the rows, writes each
 * value into the tool's args struct (at the row's offset) or through the
 * row's pointer, prints the usage generated from the rows for --help/-h,
 * and reports every mistake in the convention above (exit status 2).
 *
 *   static const cli_opt rows[] = {
 *       {"--steps", .type = CLI_UINT, CLI_FIELD(sim_args, steps), .min = 1, .max = 1e8,
 *        .value_name = "N", .help = "steps to run"},
 *       {"--json", .type = CLI_SWITCH, CLI_FIELD(sim_args, json), .help = "JSON summary"},
 *       {0}};
 *   static const cli_spec spec = {"naval-sim", "naval-sim SCENARIO.json [options]", rows, ...};
 *   int rc = cli_parse(&spec, argc, argv, &a);
 *   if (rc != CLI_RUN) return rc;
 */
typedef enum cli_type {
    CLI_SWITCH, /* no value: stores 1 (or calls .parse with text NULL) */
    CLI_INT,    /* signed integer in [min, max]; stored by the field's size */
    CLI_UINT,   /* unsigned integer in [min, max]; stored by the field's size */
    CLI_DOUBLE, /* finite number in [min, max] (double, or float by size) */
    CLI_STRING, /* stores the argv pointer (const char*) */
    CLI_ENUM,   /* one of .words; stores its index as an integer */
    CLI_CUSTOM  /* .parse does it all */
} cli_type;

typedef struct cli_opt cli_opt;

/* A number's own bound (e.g. a row of the range table, naval/ranges.h's
 * nv_range_why, for a tool that links the core): 0 when fine, else -1 and
 * in `why` what is wrong, "must be in [1, 1000] Hz (got 5000)". */
typedef int cli_check_fn(const cli_opt* o, double value, char* why, size_t n);
/* A custom value (CLI_CUSTOM; a CLI_SWITCH with text NULL): writes what it
 * parsed into `args` (the tool's struct); 0, or -1 and in `why` what is
 * wrong (without the flag: the parser names it). */
typedef int cli_parse_fn(const cli_opt* o, const char* text, void* args, char* why, size_t n);

struct cli_opt {
    const char* flag;       /* "--steps" */
    const char* alias;      /* another spelling ("-o"), listed in the usage; or NULL */
    const char* deprecated; /* a deprecated spelling ("--hz"): accepted, named in the usage */
    cli_type type;
    size_t offset, size;    /* the field in the args struct (CLI_FIELD) */
    void* ptr;              /* or the field itself, when not NULL */
    double min, max;        /* numbers: closed range; both 0: the field's own range */
    const char* const* words; /* CLI_ENUM: NULL-terminated */
    cli_check_fn* check;    /* after min/max (a row may give only the check) */
    cli_parse_fn* parse;    /* CLI_CUSTOM */
    const char* value_name; /* "N" in "--steps N" */
    const char* help;
    /* The whole message for a bad value instead of the generated
     * "FLAG: must be in [MIN, MAX]" ("--steps must be 1..100000000");
     * " (got 'TEXT')" is added. */
    const char* bad;
    size_t seen;            /* CLI_SEEN(type, field): an int set to 1 when given; 0: none */
    const void* data;       /* anything the callbacks want */
    int id;                 /* a number for the callbacks (e.g. an nv_range_id) */
    /* The usage ends the help with "(default V)", V the field's value when
     * --help is read: defaults set in code before cli_parse are shown from
     * where they live. */
    int show_default;
};

#define CLI_FIELD(type, field) .offset = offsetof(type, field), .size = sizeof(((type*)0)->field)
#define CLI_SEEN(type, field) .seen = offsetof(type, field) + 1
/* The common row: an unsigned field of struct T in [lo, hi], its default shown. */
#define CLI_UINT_OPT(T, name, field, lo, hi, vn, text)                                                          \
    {name, .type = CLI_UINT, CLI_FIELD(T, field), .min = lo, .max = hi, .value_name = vn, .help = text,      \
     .show_default = 1}

/* A positional argument (anything not starting with '-', and "-"): 0, or
 * -1 and in `why` the whole message ("one scenario file only (got 'x')"). */
typedef int cli_positional_fn(const char* arg, void* args, char* why, size_t n);

typedef struct cli_spec {
    const char* prog;     /* "naval-sim" */
    const char* synopsis; /* "naval-sim SCENARIO.json [options]" (after "usage: ") */
    const char* about;    /* a paragraph before the options, or NULL */
    const cli_opt* opts;  /* ends with a row whose flag is NULL */
    cli_positional_fn* positional; /* NULL: a positional argument is an unknown option */
    const char* epilogue; /* after the options, or NULL */
    /* Between the flag and what is wrong with its value: ": " when NULL
     * ("--size: expected COLSxROWS"), " " for "--mass must be ...". */
    const char* flag_sep;
} cli_spec;

/* cli_parse's "go on" (any other value is the exit status to return). */
#define CLI_RUN (-1)

/* Parses argv[1..] against the rows ("--flag VALUE" or "--flag=VALUE").
 * Returns CLI_RUN when the tool should run; 0 after --help/-h (the usage
 * on stdout); 2 after a usage error, said on stderr as
 * "PROG: ...\n(PROG --help for usage)". */
int cli_parse(const cli_spec* spec, int argc, char** argv, void* args);
/* The usage generated from the spec's rows (args: for the rows that show
 * their default; may be NULL). */
void cli_print_usage(const cli_spec* spec, const void* args, FILE* out);
/* "PROG: MESSAGE\n(PROG --help for usage)" on stderr; returns 2. For the
 * checks across flags that follow cli_parse. */
int cli_usage_error(const char* prog, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
