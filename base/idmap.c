// SPDX-License-Identifier: MIT
#include "idmap.h"

#include <stdlib.h>

/* Fibonacci hashing: pipe and vessel ids are sequential, which a plain
 * modulo would cluster into one run. */
static uint32_t idmap_slot(const idmap* m, uint32_t key) {
    return (uint32_t)((key * 2654435769u) & (m->capacity - 1));
}

void idmap_free(idmap* m) {
    free(m->keys);
    free(m->values);
    m->keys = m->values = NULL;
    m->capacity = m->count = 0;
}

/* Rebuilds the map with `cap` slots (a power of two, above twice its keys):
 * -1 out of memory, the map unchanged. */
static int idmap_rehash(idmap* m, uint32_t cap) {
    idmap n = {malloc((size_t)cap * sizeof(uint32_t)), malloc((size_t)cap * sizeof(uint32_t)), cap, 0};
    if (!n.keys || !n.values) {
        free(n.keys);
        free(n.values);
        return -1;
    }
    for (uint32_t i = 0; i < cap; i++) n.keys[i] = IDMAP_EMPTY;
    for (uint32_t i = 0; i < m->capacity; i++)
        if (m->keys[i] != IDMAP_EMPTY) idmap_put(&n, m->keys[i], m->values[i]);
    idmap_free(m);
    *m = n;
    return 0;
}

int idmap_reserve(idmap* m, uint32_t count) {
    /* Load factor at most 1/2: probe runs stay short. */
    if (2ull * count <= m->capacity) return 0;
    uint64_t cap = m->capacity ? m->capacity : IDMAP_MIN_CAPACITY;
    while (cap < 2ull * count) cap *= 2;
    if (cap > (1ull << 31)) return -1;
    return idmap_rehash(m, (uint32_t)cap);
}

int idmap_put(idmap* m, uint32_t key, uint32_t value) {
    if (key == IDMAP_EMPTY) return -1;
    if (idmap_reserve(m, m->count + 1)) return -1;
    uint32_t i = idmap_slot(m, key);
    while (m->keys[i] != IDMAP_EMPTY && m->keys[i] != key) i = (i + 1) & (m->capacity - 1);
    if (m->keys[i] == IDMAP_EMPTY) m->count++;
    m->keys[i] = key;
    m->values[i] = value;
    return 0;
}

int idmap_get(const idmap* m, uint32_t key, uint32_t* value) {
    if (!m->capacity || key == IDMAP_EMPTY) return 0;
    for (uint32_t i = idmap_slot(m, key);; i = (i + 1) & (m->capacity - 1)) {
        if (m->keys[i] == IDMAP_EMPTY) return 0;
        if (m->keys[i] == key) {
            *value = m->values[i];
            return 1;
        }
    }
}

int idmap_remove(idmap* m, uint32_t key) {
    if (!m->capacity || key == IDMAP_EMPTY) return 0;
    uint32_t mask = m->capacity - 1, i = idmap_slot(m, key);
    while (m->keys[i] != key) {
        if (m->keys[i] == IDMAP_EMPTY) return 0;
        i = (i + 1) & mask;
    }
    /* Backward-shift deletion: no tombstones, so lookups never slow down
     * after many removals. */
    for (uint32_t j = (i + 1) & mask; m->keys[j] != IDMAP_EMPTY; j = (j + 1) & mask) {
        uint32_t home = idmap_slot(m, m->keys[j]);
        /* Move j into the hole at i unless its home lies cyclically in (i, j]. */
        int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            m->keys[i] = m->keys[j];
            m->values[i] = m->values[j];
            i = j;
        }
    }
    m->keys[i] = IDMAP_EMPTY;
    m->count--;
    /* Below 1/8 it halves (to 1/4 at most, away from the 1/2 that grows
     * it, so no run of puts and removes rehashes each time). */
    if (m->capacity > IDMAP_MIN_CAPACITY && 8ull * m->count < m->capacity) (void)idmap_rehash(m, m->capacity / 2);
    return 1;
}

void idmap_clear(idmap* m) {
    for (uint32_t i = 0; i < m->capacity; i++) m->keys[i] = IDMAP_EMPTY;
    m->count = 0;
}
