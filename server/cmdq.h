/* The hand-over from nng's threads to the loop thread: requests and pipe
 * events are appended under a mutex (held for a few stores, never while
 * anything is processed) and the loop is woken with uv_async_send; the
 * loop thread takes the whole batch at once and works through it in
 * arrival order between ticks. */
#ifndef NAVAL_SERVER_CMDQ_H
#define NAVAL_SERVER_CMDQ_H

#include <nng/nng.h>
#include <stdint.h>
#include <uv.h>

typedef enum cmdq_kind {
    CMDQ_REQUEST = 0,   /* msg holds a request received on REP context `slot` */
    CMDQ_PIPE_CLOSED,   /* a command connection went away */
} cmdq_kind;

typedef struct cmdq_item {
    cmdq_kind kind;
    uint32_t slot;      /* REP context index (requests) */
    uint32_t pipe;      /* nng pipe id: the connection */
    uint64_t received_ns; /* uv_hrtime when it arrived */
    nng_msg* msg;       /* requests; the receiver frees it */
} cmdq_item;

typedef struct cmdq {
    uv_mutex_t lock;
    cmdq_item* items;
    uint32_t count, capacity;
    uv_async_t* wake;   /* borrowed: the loop's async handle */
} cmdq;

int cmdq_init(cmdq* q, uv_async_t* wake);
void cmdq_destroy(cmdq* q);  /* frees the messages still queued */

/* Any thread. -1 when out of memory (the caller still owns msg). */
int cmdq_push(cmdq* q, const cmdq_item* item);

/* Loop thread: moves everything queued into *batch (grown as needed; the
 * caller keeps it between calls and frees it with free()). Returns the count. */
uint32_t cmdq_take(cmdq* q, cmdq_item** batch, uint32_t* batch_capacity);

#endif
