// SPDX-License-Identifier: MIT
#include "clients.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "edge.h"
#include "grow.h"
#include "owners.h"

/* ---- holders: slots with a keyed hash over their 16-byte keys ---------------- */

static uint64_t clients_mix(uint64_t h) {
    /* splitmix64's finalizer: every input bit moves every output bit. */
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

/* The chain a key hangs on. Keyed with the secret, so that a client who
 * picks its identities (or its IPv6 addresses) cannot aim them at one
 * chain. */
static uint32_t clients_hash(const clients* c, const uint8_t key[16]) {
    uint64_t a, b;
    memcpy(&a, key, 8);
    memcpy(&b, key + 8, 8);
    uint64_t h = clients_mix(clients_mix(a ^ c->key[0]) ^ b ^ c->key[1]);
    uint32_t k = (uint32_t)(h >> 32);
    return k == IDMAP_EMPTY ? 0 : k;
}

static client_holder* table_at(client_table* t, uint32_t slot) {
    if (slot == CLIENTS_NONE || slot > t->capacity) return NULL;
    client_holder* h = &t->slots[slot - 1];
    return h->used ? h : NULL;
}

static uint32_t table_find(client_table* t, uint32_t hash, const uint8_t key[16]) {
    uint32_t slot;
    if (!idmap_get(&t->heads, hash, &slot)) return CLIENTS_NONE;
    for (; slot != CLIENTS_NONE; slot = t->slots[slot - 1].next)
        if (memcmp(t->slots[slot - 1].key, key, 16) == 0) return slot;
    return CLIENTS_NONE;
}

/* A new holder for key with a full bucket of `burst`; CLIENTS_NONE when
 * out of memory. Moves the table: earlier pointers into it go stale. */
static uint32_t table_add(client_table* t, uint32_t hash, const uint8_t key[16], double burst, uint64_t now_ns) {
    if (t->free == CLIENTS_NONE) {
        uint32_t old = t->capacity;
        if (GROW(&t->slots, &t->capacity, (size_t)old + 1, 64)) return CLIENTS_NONE;
        memset(t->slots + old, 0, (size_t)(t->capacity - old) * sizeof *t->slots);
        /* The new slots join the free list, lowest first. */
        for (uint32_t s = t->capacity; s > old; s--) {
            t->slots[s - 1].next = t->free;
            t->free = s;
        }
    }
    uint32_t slot = t->free;
    uint32_t head;
    if (!idmap_get(&t->heads, hash, &head)) head = CLIENTS_NONE;
    if (idmap_put(&t->heads, hash, slot)) return CLIENTS_NONE;
    client_holder* h = &t->slots[slot - 1];
    t->free = h->next;
    memset(h, 0, sizeof *h);
    memcpy(h->key, key, 16);
    h->used = 1;
    h->next = head;
    h->tokens = burst;
    h->refill_ns = now_ns;
    h->seen_ns = now_ns;
    t->count++;
    return slot;
}

static void table_remove(client_table* t, uint32_t hash, uint32_t slot) {
    client_holder* h = table_at(t, slot);
    if (!h) return;
    uint32_t head;
    if (idmap_get(&t->heads, hash, &head)) {
        if (head == slot) {
            if (h->next != CLIENTS_NONE) idmap_put(&t->heads, hash, h->next); /* replaces: never allocates */
            else idmap_remove(&t->heads, hash);
        } else {
            for (uint32_t s = head; s != CLIENTS_NONE; s = t->slots[s - 1].next)
                if (t->slots[s - 1].next == slot) {
                    t->slots[s - 1].next = h->next;
                    break;
                }
        }
    }
    memset(h, 0, sizeof *h);
    h->next = t->free;
    t->free = slot;
    t->count--;
}

static void table_free(client_table* t) {
    free(t->slots);
    idmap_free(&t->heads);
    memset(t, 0, sizeof *t);
}

/* ---- connections ---------------------------------------------------------- */

void clients_init(clients* c, const clients_params* p) {
    memset(c, 0, sizeof *c);
    c->p = *p;
    if (c->p.burst < 1.0) c->p.burst = 1.0;
    if (c->p.address_burst < 1.0) c->p.address_burst = 1.0;
    if (c->p.admin_failures < 1) c->p.admin_failures = 1;
    proto_token secret;
    if (owners_random_token(&secret) == 0) {
        memcpy(c->key, secret.bytes, sizeof c->key);
    } else {
        /* No randomness: a key from the clock still differs per run. */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        c->key[0] = clients_mix((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30));
        c->key[1] = clients_mix(c->key[0] + 0x9e3779b97f4a7c15ull);
    }
}

void clients_free(clients* c) {
    free(c->list);
    idmap_free(&c->index);
    table_free(&c->players);
    table_free(&c->addresses);
    memset(c, 0, sizeof *c);
}

client_holder* clients_player(clients* c, uint32_t slot) { return table_at(&c->players, slot); }
client_holder* clients_address(clients* c, uint32_t slot) { return table_at(&c->addresses, slot); }

client* clients_find(clients* c, uint32_t pipe) {
    uint32_t i;
    return idmap_get(&c->index, pipe, &i) ? &c->list[i] : NULL;
}

static int holder_quiet(const client_holder* h) { return h->connections == 0 && h->vessels == 0; }

/* Room for one more address: past max_addresses the longest-quiet one is
 * forgotten (one with connections or vessels never is: its counts are
 * live, and connections and vessels have limits of their own). */
static void clients_make_room(clients* c) {
    client_table* t = &c->addresses;
    if (t->count < c->p.max_addresses) return;
    uint32_t oldest = CLIENTS_NONE;
    for (uint32_t s = 1; s <= t->capacity; s++) {
        const client_holder* h = &t->slots[s - 1];
        if (h->used && holder_quiet(h) && (oldest == CLIENTS_NONE || h->seen_ns < t->slots[oldest - 1].seen_ns))
            oldest = s;
    }
    if (oldest != CLIENTS_NONE) table_remove(t, clients_hash(c, t->slots[oldest - 1].key), oldest);
}

static uint32_t clients_address_slot(clients* c, const uint8_t addr[16], uint64_t now_ns) {
    uint32_t hash = clients_hash(c, addr);
    uint32_t slot = table_find(&c->addresses, hash, addr);
    if (slot != CLIENTS_NONE) return slot;
    clients_make_room(c);
    slot = table_add(&c->addresses, hash, addr, c->p.address_burst, now_ns);
    if (slot != CLIENTS_NONE) edge_address_text(addr, c->addresses.slots[slot - 1].text, CLIENTS_ADDRESS_TEXT);
    return slot;
}

static uint32_t clients_player_slot(clients* c, const uint8_t identity[16], uint64_t now_ns) {
    uint32_t hash = clients_hash(c, identity);
    uint32_t slot = table_find(&c->players, hash, identity);
    return slot != CLIENTS_NONE ? slot : table_add(&c->players, hash, identity, c->p.burst, now_ns);
}

static void clients_release_player(clients* c, uint32_t slot) {
    client_holder* h = table_at(&c->players, slot);
    if (h && holder_quiet(h)) table_remove(&c->players, clients_hash(c, h->key), slot);
}

client* clients_open(clients* c, uint32_t pipe, const uint8_t addr[16], uint64_t now_ns) {
    client* found = clients_find(c, pipe);
    if (found) return found;
    if (c->count >= c->p.max) return NULL;
    proto_token identity;
    if (owners_random_token(&identity)) return NULL;
    if (GROW(&c->list, &c->capacity, c->count + 1, 64)) return NULL;
    uint32_t a = clients_address_slot(c, addr, now_ns);
    if (a == CLIENTS_NONE) return NULL;
    uint32_t p = clients_player_slot(c, identity.bytes, now_ns);
    if (p == CLIENTS_NONE) return NULL; /* the address stays, quiet: swept later */
    if (idmap_put(&c->index, pipe, c->count)) {
        clients_release_player(c, p);
        return NULL;
    }
    client_holder* ah = &c->addresses.slots[a - 1];
    ah->connections++;
    ah->seen_ns = now_ns;
    c->players.slots[p - 1].connections++;
    client* cl = &c->list[c->count++];
    cl->pipe = pipe;
    cl->player = p;
    cl->address = a;
    return cl;
}

void clients_close(clients* c, uint32_t pipe, uint64_t now_ns) {
    uint32_t i;
    if (!idmap_get(&c->index, pipe, &i)) return;
    client gone = c->list[i];
    idmap_remove(&c->index, pipe);
    if (i != --c->count) {
        c->list[i] = c->list[c->count];
        idmap_put(&c->index, c->list[i].pipe, i); /* replaces: never allocates */
    }
    client_holder* a = clients_address(c, gone.address);
    if (a) {
        if (a->connections) a->connections--;
        a->seen_ns = now_ns;
    }
    client_holder* p = clients_player(c, gone.player);
    if (p && p->connections) p->connections--;
    clients_release_player(c, gone.player);
}

int clients_join(clients* c, client* cl, const proto_token* identity, uint64_t now_ns) {
    uint32_t pipe = cl->pipe;
    uint32_t p = clients_player_slot(c, identity->bytes, now_ns);
    if (p == CLIENTS_NONE) return -1;
    cl = clients_find(c, pipe); /* the list did not move, but say so plainly */
    if (p == cl->player) return 0;
    uint32_t before = cl->player;
    c->players.slots[p - 1].connections++;
    cl->player = p;
    client_holder* old = clients_player(c, before);
    if (old && old->connections) old->connections--;
    clients_release_player(c, before);
    return 0;
}

/* ---- limits ----------------------------------------------------------------- */

static int bucket_take(client_holder* h, double rate, double burst, uint64_t now_ns) {
    if (now_ns > h->refill_ns) {
        h->tokens += (double)(now_ns - h->refill_ns) * 1e-9 * rate;
        if (h->tokens > burst) h->tokens = burst;
        h->refill_ns = now_ns;
    }
    if (h->tokens < 1.0) return 0;
    h->tokens -= 1.0;
    return 1;
}

clients_verdict clients_allow(clients* c, const client* cl, uint64_t now_ns) {
    client_holder* a = clients_address(c, cl->address);
    if (a) {
        a->seen_ns = now_ns;
        if (!bucket_take(a, c->p.address_rate, c->p.address_burst, now_ns)) return CLIENTS_ADDRESS_RATE;
    }
    client_holder* p = clients_player(c, cl->player);
    if (p && !bucket_take(p, c->p.rate, c->p.burst, now_ns)) return CLIENTS_PLAYER_RATE;
    return CLIENTS_ALLOWED;
}

int clients_charge_player(clients* c, const client* cl, uint64_t now_ns) {
    client_holder* p = clients_player(c, cl->player);
    return !p || bucket_take(p, c->p.rate, c->p.burst, now_ns);
}

void clients_add_vessel(clients* c, uint32_t player, uint32_t address) {
    client_holder* p = clients_player(c, player);
    client_holder* a = clients_address(c, address);
    if (p) p->vessels++;
    if (a) a->vessels++;
}

void clients_drop_vessel(clients* c, uint32_t player, uint32_t address) {
    client_holder* a = clients_address(c, address);
    if (a && a->vessels) a->vessels--;
    client_holder* p = clients_player(c, player);
    if (p && p->vessels) p->vessels--;
    clients_release_player(c, player);
}

/* ---- admin tokens ------------------------------------------------------------ */

double clients_admin_locked(clients* c, uint32_t address, uint64_t now_ns) {
    client_holder* a = clients_address(c, address);
    return a && now_ns < a->admin_until_ns ? (double)(a->admin_until_ns - now_ns) * 1e-9 : 0.0;
}

double clients_admin_failed(clients* c, uint32_t address, uint64_t now_ns) {
    client_holder* a = clients_address(c, address);
    if (!a) return 0.0;
    a->seen_ns = now_ns;
    a->admin_wrong++;
    /* Quiet for the window since the last failure or lockout: a fresh start. */
    uint64_t last = a->admin_failed_ns > a->admin_until_ns ? a->admin_failed_ns : a->admin_until_ns;
    if (a->admin_failures && (double)(now_ns - last) * 1e-9 >= c->p.admin_window_s) {
        a->admin_failures = 0;
        a->admin_lockouts = 0;
    }
    a->admin_failures++;
    a->admin_failed_ns = now_ns;
    if (a->admin_failures < c->p.admin_failures) return 0.0;
    /* Each wrong token past the count doubles the lockout. */
    double s = c->p.admin_backoff_s * ldexp(1.0, (int)(a->admin_lockouts < 30 ? a->admin_lockouts : 30));
    if (s > CLIENTS_BACKOFF_MAX_S) s = CLIENTS_BACKOFF_MAX_S;
    a->admin_until_ns = now_ns + (uint64_t)(s * 1e9);
    a->admin_lockouts++;
    return s;
}

void clients_admin_succeeded(clients* c, uint32_t address) {
    client_holder* a = clients_address(c, address);
    if (!a) return;
    a->admin_failures = 0;
    a->admin_lockouts = 0;
}

/* ---- summaries and sweeping --------------------------------------------------- */

void clients_note_refusal(clients* c, uint32_t address, const char* why) {
    client_holder* a = clients_address(c, address);
    if (!a) return;
    a->refused++;
    a->refused_why = why;
}

static uint64_t holder_noted(const client_holder* h) { return h->refused + h->admin_wrong; }

uint32_t clients_summary(clients* c, uint32_t* out, uint32_t max, uint32_t* more) {
    /* The `max` noisiest by insertion into a short sorted list (max is a
     * handful); the rest are only counted. */
    uint32_t n = 0, rest = 0;
    client_table* t = &c->addresses;
    for (uint32_t s = 1; s <= t->capacity; s++) {
        const client_holder* h = &t->slots[s - 1];
        if (!h->used || !holder_noted(h)) continue;
        uint64_t k = holder_noted(h);
        uint32_t at;
        if (n < max) {
            at = n++;
        } else {
            rest++;
            if (max == 0 || holder_noted(&t->slots[out[max - 1] - 1]) >= k) continue;
            at = max - 1; /* the quietest listed gives way */
        }
        for (; at > 0 && holder_noted(&t->slots[out[at - 1] - 1]) < k; at--) out[at] = out[at - 1];
        out[at] = s;
    }
    *more = rest;
    return n;
}

void clients_summary_done(clients* c) {
    client_table* t = &c->addresses;
    for (uint32_t s = 1; s <= t->capacity; s++) {
        client_holder* h = &t->slots[s - 1];
        h->refused = h->admin_wrong = 0;
        h->refused_why = NULL;
    }
}

void clients_sweep(clients* c, uint64_t now_ns) {
    client_table* t = &c->addresses;
    double full_s = c->p.address_burst / c->p.address_rate;
    for (uint32_t s = 1; s <= t->capacity; s++) {
        client_holder* h = &t->slots[s - 1];
        if (!h->used || !holder_quiet(h) || holder_noted(h)) continue;
        if ((double)(now_ns - h->refill_ns) * 1e-9 < full_s) continue; /* its bucket is still refilling */
        if (now_ns < h->admin_until_ns) continue;
        uint64_t last = h->admin_failed_ns > h->admin_until_ns ? h->admin_failed_ns : h->admin_until_ns;
        if (h->admin_failures && (double)(now_ns - last) * 1e-9 < c->p.admin_window_s) continue;
        table_remove(t, clients_hash(c, h->key), s);
    }
}
