// SPDX-License-Identifier: MIT
/* A stable LSD radix sort of 64-bit keys on the job system, for the
 * passes that sort every step (the contact pass's grid and its pairs).
 *
 * The keys are cut into fixed blocks of KEYSORT_BLOCK whatever the thread
 * count; each byte that some keys differ in is one pass: a histogram per
 * block (parallel), the offsets digit by digit and block by block (serial,
 * 256 x blocks adds), the scatter per block (parallel). The result is the
 * serial sort's, bit for bit, at any thread count. Bytes every key shares
 * cost nothing, so keys of small slots sort in two or three passes. */
#ifndef NAVAL_BASE_KEYSORT_H
#define NAVAL_BASE_KEYSORT_H

#include <stdint.h>

#include "naval/jobs.h"

#define KEYSORT_BLOCK 4096u

/* The sort's own room: a histogram per block. Starts zeroed. */
typedef struct keysort {
    uint32_t* offsets;      /* 256 per block */
    uint64_t* differ;       /* per block: the bits its keys do not all share (or ^ and) */
    uint32_t block_capacity;
} keysort;

/* Room to sort n keys: 0, or -1 when out of memory (the room as it was). */
int keysort_reserve(keysort* s, uint32_t n);

/* Sorts keys[0, n) ascending by their bits from `low_bit` up (a multiple
 * of 8; 0 sorts by the whole key), stably, using tmp[0, n) as the other
 * buffer, on pool's threads (NULL: the caller's alone). Returns the
 * buffer that holds the result, keys or tmp; the other holds garbage.
 * keysort_reserve must have been called for n. Keys already in order by
 * their low bits need only the high ones sorted: low_bit 32 sorts
 * (cell << 32 | index) by cell in two passes, not four. */
uint64_t* keysort_run(keysort* s, nv_jobs* pool, uint64_t* keys, uint64_t* tmp, uint32_t n, int low_bit);

void keysort_free(keysort* s);

#endif
