// SPDX-License-Identifier: MIT
/* Bytes this process's SUB sockets have received, from nng's own counters:
 * naval-watch reads snapshots through the client library, which decodes
 * them and does not say how big they were. nng 1.5.2 keeps rx_bytes per
 * pipe (its per-socket counter stays 0), and a pipe's counter dies with a
 * reconnection, so each pipe's last value is remembered and only what was
 * added since is summed. */
#ifndef NAVAL_WATCH_NSTAT_H
#define NAVAL_WATCH_NSTAT_H

#include <stdint.h>

#define NSTAT_PIPES 32

typedef struct nstat {
    uint64_t total;
    uint32_t npipes;
    struct {
        uint64_t id, rx;
    } pipes[NSTAT_PIPES];
} nstat;

/* Adds what the SUB pipes received since the last call; the running total
 * (0 when nng keeps no statistics). */
uint64_t nstat_sub_rx(nstat* s);

#endif
