// SPDX-License-Identifier: MIT
/* Requests applied to the world, on the loop thread between ticks, in the
 * order they arrived: size and rate limits, decoding (every buffer
 * verified by proto), the admin token, vessel tokens, vessel limits, then
 * the action and its response. Every failure is a response with a status
 * and a reason; nothing a client sends can stop the server. */
#ifndef NAVAL_SERVER_COMMANDS_H
#define NAVAL_SERVER_COMMANDS_H

#include <stdint.h>

#include "clients.h"
#include "cmdq.h"
#include "config.h"
#include "metrics.h"
#include "net.h"
#include "owners.h"
#include "proto.h"
#include "sim.h"
#include "snapshot.h"

typedef struct cmd_server {
    sim* sim;
    snap_builder* snap;
    net* net;
    metrics* m;
    const cfg_server* cfg;
    clients clients;
    owners owners;
    proto_buf out;
    proto_request req;
    proto_response resp;
    int shutting_down;   /* every request gets SHUTTING_DOWN */
} cmd_server;

void cmd_init(cmd_server* c, sim* s, snap_builder* snap, net* n, metrics* m, const cfg_server* cfg);
void cmd_free(cmd_server* c);

/* One queued item: a request (answered through net_reply; its message is
 * freed) or a closed connection. */
void cmd_handle(cmd_server* c, const cmdq_item* item, uint64_t now_ns);

/* After each step: owners and client counts let go of the vessels the
 * world removed (sunk past the removal depth). */
void cmd_after_step(cmd_server* c);

/* Removes vessels orphaned longer than the configured timeout. */
void cmd_reap_orphans(cmd_server* c, uint64_t now_ns);

/* Constant time over the whole buffer: whether two admin secrets match
 * (an empty `expected` never matches). */
int cmd_secret_equal(const char* expected, const char* given);

#endif
