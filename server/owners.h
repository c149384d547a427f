// SPDX-License-Identifier: MIT
/* Who may steer which vessel: every vessel a client spawned has a random
 * 128-bit token (from the OS, getrandom) and an owning connection. A
 * connection that closes leaves its vessels orphaned; a control or despawn
 * with the token from another connection adopts them; orphans older than
 * the timeout are removed by the loop. Loop thread only. */
#ifndef NAVAL_SERVER_OWNERS_H
#define NAVAL_SERVER_OWNERS_H

#include <stdint.h>

#include "idmap.h"
#include "proto.h"

typedef struct owned {
    uint32_t vessel;
    uint32_t pipe;            /* owning connection; 0 while orphaned */
    proto_token token;
    uint64_t orphan_since_ns;
    /* Whom it counts against (clients.h slots; 0: nobody, as a restored
     * vessel until taken over). Kept while orphaned: a player's vessels
     * count against it however its connections come and go. */
    uint32_t player, address;
} owned;

typedef struct owners {
    owned* list;
    uint32_t count, capacity;
    idmap index;              /* vessel id -> position in list */
} owners;

void owners_free(owners* o);

/* 128 random bits from the OS; -1 when it cannot provide them. */
int owners_random_token(proto_token* out);

/* A new owned vessel with a fresh token (*token). -1: no memory or no
 * randomness (nothing added). */
int owners_add(owners* o, uint32_t vessel, uint32_t pipe, proto_token* token);
/* The same with a token given (a restored or replayed vessel). -1: no
 * memory, or the vessel is listed already. */
int owners_add_token(owners* o, uint32_t vessel, uint32_t pipe, const proto_token* token);
/* Valid until the next add or remove. */
owned* owners_find(owners* o, uint32_t vessel);
void owners_remove(owners* o, uint32_t vessel);
/* The connection closed: its vessels become orphans from now_ns. */
uint32_t owners_orphan(owners* o, uint32_t pipe, uint64_t now_ns);
/* Up to max vessels orphaned for at least timeout_ns (they stay listed
 * until removed). */
uint32_t owners_expired(const owners* o, uint64_t now_ns, uint64_t timeout_ns, uint32_t* out, uint32_t max);

#endif
