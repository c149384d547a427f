// SPDX-License-Identifier: MIT
#include "cmdq.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

int cmdq_init(cmdq* q, uv_async_t* wake) {
    memset(q, 0, sizeof *q);
    q->wake = wake;
    return uv_mutex_init(&q->lock) ? -1 : 0;
}

void cmdq_destroy(cmdq* q) {
    for (uint32_t i = 0; i < q->count; i++) free(q->items[i].data);
    free(q->items);
    uv_mutex_destroy(&q->lock);
    memset(q, 0, sizeof *q);
}

int cmdq_push(cmdq* q, const cmdq_item* item) {
    uv_mutex_lock(&q->lock);
    if (q->count == q->capacity) {
        /* Requests are bounded by the edge's pending limit per
         * connection; connection events by connections. Growth is rare and short (no I/O). */
        if (GROW(&q->items, &q->capacity, q->count + 1, 64)) {
            uv_mutex_unlock(&q->lock);
            return -1;
        }
    }
    q->items[q->count++] = *item;
    uv_mutex_unlock(&q->lock);
    if (q->wake) uv_async_send(q->wake);
    return 0;
}

uint32_t cmdq_take(cmdq* q, cmdq_item** batch, uint32_t* batch_capacity) {
    uv_mutex_lock(&q->lock);
    uint32_t n = q->count;
    if (GROW(batch, batch_capacity, n, 0)) {
        /* Leave them queued: the next turn tries again. */
        uv_mutex_unlock(&q->lock);
        return 0;
    }
    if (n) memcpy(*batch, q->items, n * sizeof **batch);
    q->count = 0;
    uv_mutex_unlock(&q->lock);
    return n;
}
