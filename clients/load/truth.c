// SPDX-License-Identifier: MIT
#include "truth.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "idmap.h"

typedef struct truth_slot {
    pthread_rwlock_t lock;
    int used;
    proto_snapshot snap;
    idmap index;         /* id -> position in snap.vessels */
} truth_slot;

struct truth {
    truth_slot* slots;
    uint32_t count;
    _Atomic uint64_t newest;   /* tick + 1; 0: none yet */
};

truth* truth_create(uint32_t ticks) {
    truth* t = calloc(1, sizeof *t);
    if (!t || !ticks || !(t->slots = calloc(ticks, sizeof *t->slots))) {
        free(t);
        return NULL;
    }
    for (uint32_t i = 0; i < ticks; i++, t->count++)
        if (pthread_rwlock_init(&t->slots[i].lock, NULL)) {
            truth_free(t);
            return NULL;
        }
    return t;
}

void truth_free(truth* t) {
    if (!t) return;
    for (uint32_t i = 0; i < t->count; i++) {
        pthread_rwlock_destroy(&t->slots[i].lock);
        proto_free_snapshot(&t->slots[i].snap);
        idmap_free(&t->slots[i].index);
    }
    free(t->slots);
    free(t);
}

void truth_put(truth* t, proto_snapshot* s) {
    uint64_t tick = s->tick;
    truth_slot* slot = &t->slots[tick % t->count];
    pthread_rwlock_wrlock(&slot->lock);
    proto_snapshot old = slot->snap;
    slot->snap = *s;
    *s = old;
    idmap_clear(&slot->index);
    int ok = 1;
    for (uint32_t i = 0; i < slot->snap.vessel_count && ok; i++)
        ok = idmap_put(&slot->index, slot->snap.vessels[i].id, i) == 0;
    /* Out of memory: the tick is as good as never received. */
    slot->used = ok;
    pthread_rwlock_unlock(&slot->lock);
    if (ok && tick + 1 > atomic_load(&t->newest)) atomic_store(&t->newest, tick + 1);
}

int truth_newest(truth* t, uint64_t* tick) {
    uint64_t n = atomic_load(&t->newest);
    if (!n) return 0;
    *tick = n - 1;
    return 1;
}

const proto_snapshot* truth_lock(truth* t, uint64_t tick) {
    truth_slot* slot = &t->slots[tick % t->count];
    pthread_rwlock_rdlock(&slot->lock);
    if (slot->used && slot->snap.tick == tick) return &slot->snap;
    pthread_rwlock_unlock(&slot->lock);
    return NULL;
}

void truth_unlock(truth* t, uint64_t tick) { pthread_rwlock_unlock(&t->slots[tick % t->count].lock); }

const proto_vessel* truth_find(truth* t, uint64_t tick, uint32_t id) {
    truth_slot* slot = &t->slots[tick % t->count];
    uint32_t i;
    return idmap_get(&slot->index, id, &i) ? &slot->snap.vessels[i] : NULL;
}
