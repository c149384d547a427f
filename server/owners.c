// SPDX-License-Identifier: MIT
#include "owners.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "grow.h"

void owners_free(owners* o) {
    free(o->list);
    idmap_free(&o->index);
    memset(o, 0, sizeof *o);
}

int owners_random_token(proto_token* out) {
    size_t got = 0;
    while (got < sizeof out->bytes) {
        ssize_t n = getrandom(out->bytes + got, sizeof out->bytes - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        got += (size_t)n;
    }
    return 0;
}

int owners_add(owners* o, uint32_t vessel, uint32_t pipe, proto_token* token) {
    if (owners_random_token(token)) return -1;
    return owners_add_token(o, vessel, pipe, token);
}

int owners_add_token(owners* o, uint32_t vessel, uint32_t pipe, const proto_token* token) {
    uint32_t at;
    if (idmap_get(&o->index, vessel, &at)) return -1;
    if (GROW(&o->list, &o->capacity, o->count + 1, 64)) return -1;
    if (idmap_put(&o->index, vessel, o->count)) return -1;
    owned* w = &o->list[o->count++];
    w->vessel = vessel;
    w->pipe = pipe;
    w->token = *token;
    w->orphan_since_ns = 0;
    w->player = 0;
    w->address = 0;
    return 0;
}

owned* owners_find(owners* o, uint32_t vessel) {
    uint32_t i;
    return idmap_get(&o->index, vessel, &i) ? &o->list[i] : NULL;
}

void owners_remove(owners* o, uint32_t vessel) {
    uint32_t i;
    if (!idmap_get(&o->index, vessel, &i)) return;
    idmap_remove(&o->index, vessel);
    if (i != --o->count) {
        o->list[i] = o->list[o->count];
        idmap_put(&o->index, o->list[i].vessel, i); /* replaces: never allocates */
    }
}

uint32_t owners_orphan(owners* o, uint32_t pipe, uint64_t now_ns) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < o->count; i++)
        if (o->list[i].pipe == pipe) {
            o->list[i].pipe = 0;
            o->list[i].orphan_since_ns = now_ns;
            n++;
        }
    return n;
}

uint32_t owners_expired(const owners* o, uint64_t now_ns, uint64_t timeout_ns, uint32_t* out, uint32_t max) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < o->count && n < max; i++) {
        const owned* w = &o->list[i];
        if (w->pipe == 0 && now_ns - w->orphan_since_ns >= timeout_ns) out[n++] = w->vessel;
    }
    return n;
}
