// SPDX-License-Identifier: MIT
/* Stable LSD radix sort of 64-bit keys in fixed blocks (keysort.h). */
#include "keysort.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

int keysort_reserve(keysort* s, uint32_t n) {
    uint32_t blocks = (n + KEYSORT_BLOCK - 1) / KEYSORT_BLOCK;
    if (blocks <= s->block_capacity) return 0;
    uint32_t cap = (uint32_t)grow_capacity(s->block_capacity, blocks, 4);
    if (grow_resize((void**)&s->offsets, (size_t)cap * 256, sizeof *s->offsets) ||
        grow_resize((void**)&s->differ, cap, sizeof *s->differ))
        return -1;
    s->block_capacity = cap;
    return 0;
}

void keysort_free(keysort* s) {
    free(s->offsets);
    free(s->differ);
    memset(s, 0, sizeof *s);
}

typedef struct keysort_pass {
    keysort* s;
    const uint64_t* from;
    uint64_t* to;
    uint32_t n;
    int shift;
} keysort_pass;

static inline uint32_t keysort_block_end(uint32_t block, uint32_t n) {
    uint64_t end = (uint64_t)(block + 1) * KEYSORT_BLOCK;
    return end < n ? (uint32_t)end : n;
}

static void keysort_differ_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    const keysort_pass* p = ctx;
    for (uint32_t b = begin; b < end; b++) {
        uint64_t all_or = 0, all_and = ~0ull;
        for (uint32_t i = b * KEYSORT_BLOCK, last = keysort_block_end(b, p->n); i < last; i++)
            all_or |= p->from[i], all_and &= p->from[i];
        /* the first key stands in for the and, so blocks compare too */
        p->s->differ[b] = (all_or ^ all_and) | (p->from[b * KEYSORT_BLOCK] ^ p->from[0]);
    }
}

static void keysort_count_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    const keysort_pass* p = ctx;
    for (uint32_t b = begin; b < end; b++) {
        uint32_t* count = p->s->offsets + (size_t)b * 256;
        memset(count, 0, 256 * sizeof *count);
        for (uint32_t i = b * KEYSORT_BLOCK, last = keysort_block_end(b, p->n); i < last; i++)
            count[(p->from[i] >> p->shift) & 0xffu]++;
    }
}

static void keysort_scatter_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    const keysort_pass* p = ctx;
    for (uint32_t b = begin; b < end; b++) {
        uint32_t* at = p->s->offsets + (size_t)b * 256;
        for (uint32_t i = b * KEYSORT_BLOCK, last = keysort_block_end(b, p->n); i < last; i++)
            p->to[at[(p->from[i] >> p->shift) & 0xffu]++] = p->from[i];
    }
}

static void keysort_for(nv_jobs* pool, uint32_t blocks, nv_jobs_range_fn* fn, keysort_pass* p) {
    if (pool && blocks > 1)
        nv_jobs_parallel_for(pool, blocks, 1, fn, p);
    else
        fn(p, 0, blocks, 0);
}

uint64_t* keysort_run(keysort* s, nv_jobs* pool, uint64_t* keys, uint64_t* tmp, uint32_t n, int low_bit) {
    if (n < 2) return keys;
    const uint32_t blocks = (n + KEYSORT_BLOCK - 1) / KEYSORT_BLOCK;
    keysort_pass p = {s, keys, tmp, n, 0};
    keysort_for(pool, blocks, keysort_differ_job, &p);
    uint64_t differ = 0;
    for (uint32_t b = 0; b < blocks; b++) differ |= s->differ[b];
    for (int shift = low_bit; shift < 64; shift += 8) {
        if (!((differ >> shift) & 0xffu)) continue;
        p.shift = shift;
        keysort_for(pool, blocks, keysort_count_job, &p);
        /* digit by digit, block by block: each block's run of a digit
         * follows the earlier blocks' (stable) */
        uint32_t sum = 0;
        for (uint32_t digit = 0; digit < 256; digit++)
            for (uint32_t b = 0; b < blocks; b++) {
                uint32_t* c = s->offsets + (size_t)b * 256 + digit;
                uint32_t here = *c;
                *c = sum;
                sum += here;
            }
        keysort_for(pool, blocks, keysort_scatter_job, &p);
        uint64_t* done = p.to;
        p.to = (uint64_t*)p.from;
        p.from = done;
    }
    return (uint64_t*)p.from;
}
