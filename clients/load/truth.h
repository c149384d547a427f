// SPDX-License-Identifier: MIT
/* The truth for naval-load's player views: the recent full snapshots of
 * one subscription, by tick, shared by every player. The subscription's
 * thread puts each snapshot in; the players' threads read the tick they
 * need (what a view showed at a tick is compared with where the boats
 * were at that tick), each slot under a read-write lock so that any number
 * of players read while the next snapshot goes into another slot. A slot
 * holds an index by id, built once per snapshot for all players. */
#ifndef NAVAL_LOAD_TRUTH_H
#define NAVAL_LOAD_TRUTH_H

#include <stdint.h>

#include "proto.h"

typedef struct truth truth;

/* Keeps the newest `ticks` ticks. NULL when out of memory. */
truth* truth_create(uint32_t ticks);
void truth_free(truth* t);

/* A new snapshot (the subscription's listener): swapped with the storage
 * of the slot it replaces, so *s comes back holding that slot's arrays. */
void truth_put(truth* t, proto_snapshot* s);
/* 1 and the newest tick put in, 0 before the first. */
int truth_newest(truth* t, uint64_t* tick);

/* The snapshot of `tick`, read-locked until truth_unlock(t, tick); NULL
 * (nothing locked) when it never came or was replaced already. */
const proto_snapshot* truth_lock(truth* t, uint64_t tick);
void truth_unlock(truth* t, uint64_t tick);
/* While `tick` is locked: the vessel with that id, or NULL. */
const proto_vessel* truth_find(truth* t, uint64_t tick, uint32_t id);

#endif
