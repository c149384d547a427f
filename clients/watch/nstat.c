// SPDX-License-Identifier: MIT
#include "nstat.h"

#include <nng/nng.h>
#include <string.h>

static nng_stat* nstat_child(nng_stat* item, const char* name) {
    for (nng_stat* c = nng_stat_child(item); c; c = nng_stat_next(c))
        if (!strcmp(nng_stat_name(c), name)) return c;
    return NULL;
}

uint64_t nstat_sub_rx(nstat* s) {
    nng_stat* root;
    if (nng_stats_get(&root) != 0) return s->total;
    uint64_t subs[16];
    int nsubs = 0;
    for (nng_stat* it = nng_stat_child(root); it; it = nng_stat_next(it)) {
        nng_stat* proto = nstat_child(it, "protocol");
        nng_stat* id = nstat_child(it, "id");
        if (!strcmp(nng_stat_name(it), "socket") && proto && id && nng_stat_type(proto) == NNG_STAT_STRING &&
            !strcmp(nng_stat_string(proto), "sub") && nsubs < 16)
            subs[nsubs++] = nng_stat_value(id);
    }
    uint32_t n = 0;
    uint64_t ids[NSTAT_PIPES], rxs[NSTAT_PIPES];
    for (nng_stat* it = nng_stat_child(root); it; it = nng_stat_next(it)) {
        if (strcmp(nng_stat_name(it), "pipe") != 0) continue;
        nng_stat *sock = nstat_child(it, "socket"), *id = nstat_child(it, "id"), *rx = nstat_child(it, "rx_bytes");
        if (!sock || !id || !rx) continue;
        int mine = 0;
        for (int i = 0; i < nsubs; i++) mine |= nng_stat_value(sock) == subs[i];
        if (!mine || n == NSTAT_PIPES) continue;
        ids[n] = nng_stat_value(id);
        rxs[n] = nng_stat_value(rx);
        uint64_t before = 0;
        for (uint32_t j = 0; j < s->npipes; j++)
            if (s->pipes[j].id == ids[n]) before = s->pipes[j].rx;
        if (rxs[n] >= before) s->total += rxs[n] - before;
        n++;
    }
    nng_stats_free(root);
    for (uint32_t i = 0; i < n; i++) {
        s->pipes[i].id = ids[i];
        s->pipes[i].rx = rxs[i];
    }
    s->npipes = n;
    return s->total;
}
