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

#include <stdint.h>

#include "naval/vecmath.h"

int cli_parse_double(const char* text, double* out);
/* Integer in [min, max]. */
int cli_parse_u64(const char* text, uint64_t min, uint64_t max, uint64_t* out);
/* "X,Y,Z" */
int cli_parse_triple(const char* text, nv_vec3* out);

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

#endif
