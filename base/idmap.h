// SPDX-License-Identifier: MIT
/* A map from 32-bit ids (vessel ids, nng pipe ids) to 32-bit values, open
 * addressing with linear probing: lookups on the loop thread per request
 * stay O(1) however many clients or vessels there are. Not thread-safe. */
#ifndef NAVAL_PROTO_IDMAP_H
#define NAVAL_PROTO_IDMAP_H

#include <stdint.h>

#define IDMAP_EMPTY UINT32_MAX /* not a valid key */

typedef struct idmap {
    uint32_t* keys;
    uint32_t* values;
    uint32_t capacity; /* power of two, or 0 */
    uint32_t count;
} idmap;

void idmap_free(idmap* m);
/* 0, or -1 when out of memory (the map is unchanged). Replaces a value. */
int idmap_put(idmap* m, uint32_t key, uint32_t value);
/* 1 and *value when present, else 0. */
int idmap_get(const idmap* m, uint32_t key, uint32_t* value);
/* Empties the map, keeping its memory. */
void idmap_clear(idmap* m);
/* 1 when it was present. */
int idmap_remove(idmap* m, uint32_t key);

#endif
