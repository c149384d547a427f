// SPDX-License-Identifier: MIT
/* The client's parts shared between its files. */
#ifndef NAVAL_NVC_INTERNAL_H
#define NAVAL_NVC_INTERNAL_H

#include <nng/nng.h>
#include <nng/supplemental/util/platform.h>
#include <stdatomic.h>

#include "naval_client.h"

struct nvc_client {
    nvc_options opts;
    char admin_token[PROTO_SECRET_MAX];
    /* snapshots */
    nng_socket sub;
    int sub_open;
    nng_aio* recv_aio;
    nng_mtx* lock;              /* guards the queue, counts, closing */
    nng_cv* ready;
    nng_msg** queue;            /* ring of queue_depth messages */
    uint32_t head, count;
    int closing;
    nvc_snapshot_counts counts;
    proto_compact_decoder* compact;
    nng_thread* helper;
    nvc_snapshot_fn* callback;
    void* callback_user;
    /* requests */
    nng_socket req;
    int req_open;
    atomic_uint_least64_t next_request_id;
    /* The player identity hellos present (nvc_set_player), or the one the
     * last hello was answered with. */
    nng_mtx* player_lock;
    int has_player;
    proto_token player;
};

/* nvc_snapshots.c */
int nvc_snapshots_open(nvc_client* c, nv_error* err);
void nvc_snapshots_close(nvc_client* c);

#endif
