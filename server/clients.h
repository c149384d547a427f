// SPDX-License-Identifier: MIT
/* Command connections (nng pipes) as the limits see them: a token bucket
 * of requests per second and the number of vessels each owns. A record
 * lives from a connection's first request until nng reports it closed.
 * Loop thread only. */
#ifndef NAVAL_SERVER_CLIENTS_H
#define NAVAL_SERVER_CLIENTS_H

#include <stdint.h>

#include "idmap.h"

typedef struct client {
    uint32_t pipe;
    uint32_t vessels;   /* live vessels it owns */
    double tokens;      /* requests it may still make at once */
    uint64_t refill_ns; /* when tokens was last topped up */
} client;

typedef struct clients {
    client* list;
    uint32_t count, capacity, max;
    idmap index;        /* pipe -> position in list */
    double rate, burst; /* requests per second, bucket size */
} clients;

void clients_init(clients* c, double rate, double burst, uint32_t max);
void clients_free(clients* c);

/* The connection's record, made (with a full bucket) on first sight. NULL
 * when `max` connections are tracked already or memory is short. The
 * pointer is valid until the next clients_get or clients_remove. */
client* clients_get(clients* c, uint32_t pipe, uint64_t now_ns);
client* clients_find(clients* c, uint32_t pipe);
/* 1 when the connection may make a request now (and spends a token). */
int clients_allow(const clients* c, client* cl, uint64_t now_ns);
void clients_remove(clients* c, uint32_t pipe);

#endif
