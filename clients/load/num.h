// SPDX-License-Identifier: MIT
/* Strict parsing of command-line numbers for the client tools (naval-load,
 * naval-watch): the whole text must be a finite number in range, so that
 * "--duration 1O" is an error naming the flag, not a silent 1. The tools
 * cannot use tools/cli.c: it pulls in the simulation core. */
#ifndef NAVAL_CLIENT_NUM_H
#define NAVAL_CLIENT_NUM_H

#include <stdint.h>

/* 0 when text is a finite number in [min, max]. */
int num_double(const char* text, double min, double max, double* out);
/* 0 when text is a whole number in [min, max] (no sign, no blanks). */
int num_u64(const char* text, uint64_t min, uint64_t max, uint64_t* out);
/* "A,B": two finite numbers. */
int num_pair(const char* text, double* a, double* b);

#endif
