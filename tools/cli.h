// SPDX-License-Identifier: MIT
/* Strict parsing of command-line values for the tools: the whole text must
 * be a finite number in range, or the caller reports which flag was wrong. */
#ifndef NAVAL_CLI_H
#define NAVAL_CLI_H

#include <stdint.h>

#include "naval/vecmath.h"

int cli_parse_double(const char* text, double* out);
/* Integer in [min, max]. */
int cli_parse_u64(const char* text, uint64_t min, uint64_t max, uint64_t* out);
/* "X,Y,Z" */
int cli_parse_triple(const char* text, vec3* out);

#endif
