// SPDX-License-Identifier: MIT
/* The hand-over from the edge's thread to the loop thread: requests and
 * connection events are appended under a mutex (held for a few stores, never while
 * anything is processed) and the loop is woken with uv_async_send; the
 * loop thread takes the whole batch at once and works through it in
 * arrival order between ticks. */
#ifndef NAVAL_SERVER_CMDQ_H
#define NAVAL_SERVER_CMDQ_H

#include <stdint.h>
#include <uv.h>

typedef enum cmdq_kind {
    CMDQ_REQUEST = 0,   /* data holds a request from connection `pipe`, answered with `tag` */
    CMDQ_PIPE_OPEN,     /* a command connection came, from `addr` */
    CMDQ_PIPE_CLOSED,   /* a command connection went away */
    CMDQ_VIEW_OPEN,     /* a player view's connection came (views.h), from `addr` */
    CMDQ_VIEW_MESSAGE,  /* data holds a ViewRequest from it */
    CMDQ_VIEW_CLOSED,   /* it went */
} cmdq_kind;

typedef struct cmdq_item {
    cmdq_kind kind;
    uint32_t tag;       /* the edge's handle for the answer (requests) */
    uint32_t pipe;      /* the connection's id (edge.h: never reused) */
    uint64_t received_ns; /* uv_hrtime when it arrived */
    uint8_t* data;      /* requests: malloc'd body; the receiver frees it */
    size_t size;
    uint8_t addr[16];   /* opens: the remote IP address (edge.h's key; IPv4 as ::ffff:a.b.c.d) */
} cmdq_item;

typedef struct cmdq {
    uv_mutex_t lock;
    cmdq_item* items;
    uint32_t count, capacity;
    uv_async_t* wake;   /* borrowed: the loop's async handle */
} cmdq;

int cmdq_init(cmdq* q, uv_async_t* wake);
void cmdq_destroy(cmdq* q);  /* frees the requests still queued */

/* Any thread. -1 when out of memory (the caller still owns data). */
int cmdq_push(cmdq* q, const cmdq_item* item);

/* Loop thread: moves everything queued into *batch (grown as needed; the
 * caller keeps it between calls and frees it with free()). Returns the count. */
uint32_t cmdq_take(cmdq* q, cmdq_item** batch, uint32_t* batch_capacity);

#endif
