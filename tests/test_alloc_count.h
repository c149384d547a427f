// SPDX-License-Identifier: MIT
/* Counting every allocation a test program makes, for the contracts that
 * say "no allocation per step": the program links test_alloc_count.c with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc (tests/CMakeLists.txt),
 * so every malloc, calloc and realloc, the library's included, passes
 * through the counter. */
#ifndef NAVAL_TEST_ALLOC_COUNT_H
#define NAVAL_TEST_ALLOC_COUNT_H

#include <stddef.h>

/* Allocations so far (not thread-safe: count in single-threaded code). */
size_t test_allocations(void);

#endif
