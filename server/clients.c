// SPDX-License-Identifier: MIT
#include "clients.h"

#include <stdlib.h>
#include <string.h>

void clients_init(clients* c, double rate, double burst, uint32_t max) {
    memset(c, 0, sizeof *c);
    c->rate = rate;
    c->burst = burst < 1.0 ? 1.0 : burst;
    c->max = max;
}

void clients_free(clients* c) {
    free(c->list);
    idmap_free(&c->index);
    memset(c, 0, sizeof *c);
}

client* clients_find(clients* c, uint32_t pipe) {
    uint32_t i;
    return idmap_get(&c->index, pipe, &i) ? &c->list[i] : NULL;
}

client* clients_get(clients* c, uint32_t pipe, uint64_t now_ns) {
    client* found = clients_find(c, pipe);
    if (found) return found;
    if (c->count >= c->max) return NULL;
    if (c->count == c->capacity) {
        uint32_t cap = c->capacity ? c->capacity * 2 : 64;
        client* n = realloc(c->list, cap * sizeof *n);
        if (!n) return NULL;
        c->list = n;
        c->capacity = cap;
    }
    if (idmap_put(&c->index, pipe, c->count)) return NULL;
    client* cl = &c->list[c->count++];
    cl->pipe = pipe;
    cl->vessels = 0;
    cl->tokens = c->burst;
    cl->refill_ns = now_ns;
    return cl;
}

int clients_allow(const clients* c, client* cl, uint64_t now_ns) {
    if (now_ns > cl->refill_ns) {
        cl->tokens += (double)(now_ns - cl->refill_ns) * 1e-9 * c->rate;
        if (cl->tokens > c->burst) cl->tokens = c->burst;
        cl->refill_ns = now_ns;
    }
    if (cl->tokens < 1.0) return 0;
    cl->tokens -= 1.0;
    return 1;
}

void clients_remove(clients* c, uint32_t pipe) {
    uint32_t i;
    if (!idmap_get(&c->index, pipe, &i)) return;
    idmap_remove(&c->index, pipe);
    if (i != --c->count) {
        c->list[i] = c->list[c->count];
        idmap_put(&c->index, c->list[i].pipe, i); /* replaces: never allocates */
    }
}
