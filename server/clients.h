// SPDX-License-Identifier: MIT
/* Whom the request limits apply to. Loop thread only.
 *
 * A command connection (an edge pipe) plays as a player and comes from a
 * remote address. A player is an identity, not a socket: the connections
 * that present the same 128-bit identity in their hello (Hello.player)
 * share one record, the vessels it owns and one token bucket of requests
 * per second; a connection that presents none is a player of its own,
 * whose identity the hello reply hands out. Every connection from one
 * address shares the address's record as well (its vessels, its bucket,
 * its wrong admin tokens), so that neither more connections nor more
 * identities multiply the limits.
 *
 * Records (holders) live while something counts against them: a player
 * while it has connections or vessels (orphans included); an address also
 * while quiet, since its bucket and admin back-off must outlast a
 * reconnect, until its state has run out (clients_sweep) or, past
 * max_addresses, the longest-quiet is forgotten. Holders are named by slot
 * numbers from 1 (owned vessels keep them); a slot is reused only once
 * nothing names it. Lookups by key go through a hash keyed with a secret
 * from the OS, so that a client cannot choose identities that collide. */
#ifndef NAVAL_SERVER_CLIENTS_H
#define NAVAL_SERVER_CLIENTS_H

#include <stdint.h>

#include "idmap.h"
#include "proto.h"

#define CLIENTS_NONE 0u            /* no holder (slots count from 1) */
#define CLIENTS_ADDRESS_TEXT 48    /* "ffff:...:ffff" with its NUL */
#define CLIENTS_BACKOFF_MAX_S 3600.0 /* an admin lockout never grows past an hour */

/* A player or an address: what counts against it. */
typedef struct client_holder {
    uint8_t key[16];           /* the player's identity, or the address (edge.h's form) */
    uint32_t connections;      /* open connections counted against it */
    uint32_t vessels;          /* live vessels it owns, orphans included */
    double tokens;             /* requests it may still make at once */
    uint64_t refill_ns;        /* when tokens was last topped up */
    uint64_t seen_ns;          /* last open, close or request: who is longest quiet */
    uint32_t next;             /* next slot on its hash chain, or on the free list */
    uint8_t used;
    /* Addresses only. */
    char text[CLIENTS_ADDRESS_TEXT];  /* printable, for messages and logs */
    uint32_t admin_failures;   /* wrong admin tokens in a row (within the window) */
    uint32_t admin_lockouts;   /* lockouts since the last success: the next lasts backoff * 2^lockouts */
    uint64_t admin_failed_ns;  /* the last wrong admin token */
    uint64_t admin_until_ns;   /* locked out of admin requests until */
    /* Since the last summary (clients_summary). */
    uint64_t refused, admin_wrong;
    const char* refused_why;   /* the last refusal, in words ("requests per address") */
} client_holder;

typedef struct client_table {
    client_holder* slots;      /* slot s is slots[s - 1] */
    uint32_t count, capacity;  /* slots in use, allocated */
    uint32_t free;             /* first free slot, CLIENTS_NONE when none */
    idmap heads;               /* keyed hash -> first slot of its chain */
} client_table;

/* A connection. */
typedef struct client {
    uint32_t pipe;
    uint32_t player;           /* slot in players */
    uint32_t address;          /* slot in addresses */
} client;

typedef struct clients_params {
    double rate, burst;                  /* per player: requests per second, bucket size */
    double address_rate, address_burst;  /* per address */
    uint32_t max;                        /* connections tracked at once */
    uint32_t max_addresses;              /* addresses kept before the longest-quiet is forgotten */
    uint32_t admin_failures;             /* wrong admin tokens before a lockout */
    double admin_window_s;               /* quiet after which they are forgotten */
    double admin_backoff_s;              /* the first lockout; each wrong token after doubles it */
} clients_params;

typedef struct clients {
    clients_params p;
    client* list;
    uint32_t count, capacity;
    idmap index;               /* pipe -> position in list */
    client_table players, addresses;
    uint64_t key[2];           /* the hash's secret */
} clients;

void clients_init(clients* c, const clients_params* p);
void clients_free(clients* c);

/* A connection came from addr (16 bytes, edge.h's form): its record,
 * playing as a new player of its own with a random identity. NULL when
 * `max` connections are tracked, no randomness or no memory. Pointers into
 * the tables are valid until the next open, join or sweep. */
client* clients_open(clients* c, uint32_t pipe, const uint8_t addr[16], uint64_t now_ns);
client* clients_find(clients* c, uint32_t pipe);
/* The connection went: its player and address lose it; a player left with
 * nothing is forgotten (an address is kept, quiet). */
void clients_close(clients* c, uint32_t pipe, uint64_t now_ns);

/* NULL for CLIENTS_NONE or a slot not in use. */
client_holder* clients_player(clients* c, uint32_t slot);
client_holder* clients_address(clients* c, uint32_t slot);

/* The connection plays as the player named `identity` from now on (made
 * when new); the player it leaves is forgotten if left with nothing. -1
 * when out of memory (nothing changed). */
int clients_join(clients* c, client* cl, const proto_token* identity, uint64_t now_ns);

typedef enum clients_verdict {
    CLIENTS_ALLOWED = 0,
    CLIENTS_ADDRESS_RATE,      /* the address's bucket is empty */
    CLIENTS_PLAYER_RATE        /* the player's */
} clients_verdict;
/* Spends a request from the address's bucket, then the player's. */
clients_verdict clients_allow(clients* c, const client* cl, uint64_t now_ns);

/* One more request from the connection's player alone: the hello that
 * joins a player is charged to it too, so that new connections joining
 * cannot outrun its bucket with requests of their own. 1 when allowed. */
int clients_charge_player(clients* c, const client* cl, uint64_t now_ns);

/* A vessel owned by (player, address) came or went; CLIENTS_NONE counts
 * against nobody. */
void clients_add_vessel(clients* c, uint32_t player, uint32_t address);
void clients_drop_vessel(clients* c, uint32_t player, uint32_t address);

/* Seconds the address is still locked out of admin requests; 0 when not. */
double clients_admin_locked(clients* c, uint32_t address, uint64_t now_ns);
/* A wrong admin token from the address: the seconds of the lockout it
 * started (0 when none). */
double clients_admin_failed(clients* c, uint32_t address, uint64_t now_ns);
/* A right one: the count starts again. */
void clients_admin_succeeded(clients* c, uint32_t address);

/* A request from the address was refused (`why` a static string): counted
 * for the next summary. */
void clients_note_refusal(clients* c, uint32_t address, const char* why);
/* Up to `max` of the addresses refused or sent wrong admin tokens since
 * the last call, most first, into out (slots); their counts restart after
 * the caller has read them (clients_summary_done). Returns how many, and
 * in *more the addresses left out. */
uint32_t clients_summary(clients* c, uint32_t* out, uint32_t max, uint32_t* more);
void clients_summary_done(clients* c);

/* Forgets the quiet addresses whose state has run out: a full bucket
 * again, no admin failures within the window, nothing to summarize. */
void clients_sweep(clients* c, uint64_t now_ns);

#endif
