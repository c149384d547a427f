// SPDX-License-Identifier: MIT
/* Requests applied to the world, on the loop thread between ticks, in the
 * order they arrived: rate limits (per address, then per player:
 * clients.h), size, decoding (every buffer verified by proto), the admin
 * token (with a back-off per address), vessel tokens, vessel limits (per
 * player, per address, in the world), then the action and its response.
 * Every failure is a response with a status and a reason; refusals by a
 * limit or a token are counted in /metrics by reason and summed into one
 * log line per interval naming the addresses. Client text reaches the log
 * quoted (log_quote). Nothing a client sends can stop the server. */
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
    uint64_t last_summary_ns; /* the last summary of refusals by address */
} cmd_server;

void cmd_init(cmd_server* c, sim* s, snap_builder* snap, net* n, metrics* m, const cfg_server* cfg);
void cmd_free(cmd_server* c);

/* One queued item: a request (answered through net_reply; its message is
 * freed), a connection opened (from its address) or closed. */
void cmd_handle(cmd_server* c, const cmdq_item* item, uint64_t now_ns);

/* After each step: owners and client counts let go of the vessels the
 * world removed (sunk past the removal depth). */
void cmd_after_step(cmd_server* c);

/* Removes vessels orphaned longer than the configured timeout; every
 * limits.log_interval_s also writes the refusals' summary by address and
 * forgets the quiet addresses whose state has run out. Call it every
 * second or so. */
void cmd_reap_orphans(cmd_server* c, uint64_t now_ns);

/* Constant time over the whole buffer: whether two admin secrets match
 * (an empty `expected` never matches). */
int cmd_secret_equal(const char* expected, const char* given);

#endif
