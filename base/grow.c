// SPDX-License-Identifier: MIT
#include "grow.h"

#include <stdlib.h>
#include <string.h>

int grow_resize(void** p, size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) return -1;
    size_t bytes = count * size;
    void* q = realloc(*p, bytes ? bytes : 1);
    if (!q) return -1;
    *p = q;
    return 0;
}

/* The capacity that holds need, from cap (or min) doubling, at most limit;
 * 0 when need is past the limit. */
static size_t grow_limited(size_t cap, size_t need, size_t min, size_t limit) {
    if (need > limit) return 0;
    size_t c = cap ? cap : min ? min : 1;
    while (c < need) c = c > limit / 2 ? limit : 2 * c;
    return c;
}

size_t grow_capacity(size_t cap, size_t need, size_t min) { return grow_limited(cap, need, min, SIZE_MAX); }

int grow_reserve(void** p, size_t* cap, size_t need, size_t size, size_t min) {
    if (need <= *cap) return 0;
    size_t c = min ? grow_limited(*cap, need, min, SIZE_MAX) : need;
    if (!c || grow_resize(p, c, size)) return -1;
    *cap = c;
    return 0;
}

int grow_reserve32(void** p, uint32_t* cap, size_t need, size_t size, size_t min) {
    if (need <= *cap) return 0;
    size_t c = min ? grow_limited(*cap, need, min, UINT32_MAX) : need;

    if (!c || c > UINT32_MAX || grow_resize(p, c, size)) return -1;
    *cap = (uint32_t)c;
    return 0;
}

int grow_append(uint8_t** buf, size_t* len, size_t* cap, const void* data, size_t n) {
    if (n > SIZE_MAX - *len || grow_reserve((void**)buf, cap, *len + n, 1, 1024)) return -1;
    if (n) memcpy(*buf + *len, data, n);
    *len += n;
    return 0;
}
