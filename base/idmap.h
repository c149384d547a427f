// SPDX-License-Identifier: MIT
/* A map from 32-bit ids (vessel ids, pipe ids) to 32-bit values, open
 * addressing with linear probing and backward-shift deletion (no
 * tombstones): lookups stay O(1) however many clients or vessels there
 * are, and however many have come and gone. Its load stays at most 1/2;
 * a removal that leaves it below 1/8 halves it (down to
 * IDMAP_MIN_CAPACITY), so its memory follows the live keys down. Not
 * thread-safe. */
#ifndef NAVAL_PROTO_IDMAP_H
#define NAVAL_PROTO_IDMAP_H

#include <stdint.h>

#define IDMAP_EMPTY UINT32_MAX /* not a valid key */
#define IDMAP_MIN_CAPACITY 64u

typedef struct idmap {
    uint32_t* keys;
    uint32_t* values;
    uint32_t capacity; /* power of two, or 0 */
    uint32_t count;
} idmap;

void idmap_free(idmap* m);
/* 0, or -1 when out of memory (the map is unchanged). Replaces a value. */
int idmap_put(idmap* m, uint32_t key, uint32_t value);
/* Room for `count` keys in all: until then a put of a new key cannot
 * fail. 0, or -1 when out of memory (the map is unchanged). */
int idmap_reserve(idmap* m, uint32_t count);
/* 1 and *value when present, else 0. */
int idmap_get(const idmap* m, uint32_t key, uint32_t* value);
/* Empties the map, keeping its memory. */
void idmap_clear(idmap* m);
/* 1 when it was present. May shrink the map (out of memory, it stays). */
int idmap_remove(idmap* m, uint32_t key);

#endif
