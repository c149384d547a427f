// SPDX-License-Identifier: MIT
/* Player view records (docs/protocol.md, "Player views"): the bit stream
 * inside a ViewUpdate, shared by the server's encoder (view/) and the
 * client's decoder (proto_view_decoder.c). Both ends predict a vessel from
 * the same two acknowledged samples with integer arithmetic only, so the
 * residuals they exchange mean the same everywhere (C, TypeScript).
 *
 * A vessel's state here is integers: position in 1/512 m steps of the world
 * frame (|p| < 2^29 per axis), orientation as the smallest three (the
 * compact stream's 11-bit code), flags and type.
 *
 * Records, in ascending id order, each:
 *   id gap    2-bit class + 2/5/8/32 bits: id = previous id + 1 + gap
 *   kind      0 update | 10 enter | 11 leave
 *   update:   class (2 bits), flags (1 [+16]), group(position residual,
 *             POS_RES) in units of VIEW_POS_UNIT[class], orientation: 1 +
 *             group(residual, ORI_RES) in units of VIEW_ORI_UNIT[class]
 *             when the predicted largest component is kept, else 0 + 2 +
 *             3 x 11 bits
 *   enter:    reason (1: spawned), type (1: as the previous enter, else 0 +
 *             16), flags (1 [+16]), group(position - origin, POS_REL), 2 +
 *             3 x 11 bits of orientation
 *   leave:    reason (1: gone from the world) */
#ifndef NAVAL_PROTO_VIEW_H
#define NAVAL_PROTO_VIEW_H

#include <stdint.h>

#include "grow.h"
#include "proto_internal.h"
#include "proto_records.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PROTO_VIEW_CLASSES 4
/* Beyond this many ticks between the two samples, or ahead of the newer,
 * the prediction is the newer sample itself. */
#define PROTO_VIEW_PREDICT_MAX_TICKS 120

extern const int32_t PROTO_VIEW_POS_UNIT[PROTO_VIEW_CLASSES];
extern const int32_t PROTO_VIEW_ORI_UNIT[PROTO_VIEW_CLASSES];

typedef struct proto_vq {
    int32_t pos[3];
    uint8_t ori_index;
    uint16_t ori[3];
    uint16_t flags, type;
    uint32_t tick;     /* low 32 bits of the tick it was sampled at */
} proto_vq;

/* What both ends hold of a vessel: its last two acknowledged samples. */
typedef struct proto_view_base {
    uint32_t id;
    uint32_t count;    /* 0, 1 (s[1] only) or 2 */
    proto_vq s[2];     /* s[1] the newer */
} proto_view_base;

typedef enum proto_view_kind { PROTO_VIEW_UPDATE = 0, PROTO_VIEW_ENTER = 1, PROTO_VIEW_LEAVE = 2 } proto_view_kind;

/* One record as both ends store it: the state it leaves the vessel in
 * (updates and enters), or the leave. */
typedef struct proto_view_record {
    uint32_t id;
    uint8_t kind;      /* proto_view_kind */
    uint8_t reason;    /* enter: spawned; leave: gone */
    proto_vq state;
} proto_view_record;

/* 0 and *q from a vessel's state; -1 when it cannot be sent (non-finite,
 * a zero quaternion, beyond PROTO_VIEW_POS_LIMIT). */
int proto_view_quantise(const proto_vessel* v, uint32_t tick, proto_vq* q);
void proto_view_dequantise(const proto_vq* q, double position[3], float orientation[4]);

/* The prediction both ends make at `tick` from a base with count >= 1. */
void proto_view_predict(const proto_view_base* b, uint32_t tick, proto_vq* out);
/* A new acknowledged sample. */
void proto_view_base_push(proto_view_base* b, const proto_vq* q);

/* floor((2a + b) / 2b) for b > 0: a / b rounded, halves up. */
static inline int64_t proto_view_div_round(int64_t a, int64_t b) {
    int64_t n = 2 * a + b, d = 2 * b;
    int64_t q = n / d;
    return (n % d != 0 && n < 0) ? q - 1 : q;
}

/* ---- writing: the encoder sizes a record before it decides to send it. */

typedef struct proto_view_put {
    proto_view_record rec;   /* what the record leaves at the client */
    uint8_t cls;
    uint8_t flags_changed;
    uint8_t ori_same;
    int32_t dpos[3];         /* residuals, in the class's units */
    int32_t dori[3];
    uint32_t bits;           /* the record's size without its id gap */
} proto_view_put;

/* An update of `cur` against the prediction from `base`, in class cls. */
void proto_view_make_update(const proto_view_base* base, const proto_vq* cur, unsigned cls, proto_view_put* p);
/* An enter (spawned or entered) relative to the origin, in whole metres. */
void proto_view_make_enter(uint32_t id, const proto_vq* cur, int spawned, const int32_t origin[2], proto_view_put* p);
void proto_view_make_leave(uint32_t id, int gone, proto_view_put* p);
/* Bits the id gap from prev_id (UINT32_MAX before the first) takes. */
unsigned proto_view_id_bits(uint32_t prev_id, uint32_t id);

/* Writes a record; *prev_id and *prev_type carry the stream's chain
 * (UINT32_MAX and 0 at the start). */
void proto_view_put_record(proto_bitw* w, const proto_view_put* p, const int32_t origin[2], uint32_t* prev_id,
                           uint16_t* prev_type);

/* Reads a record's id and kind, then its body. find(arg, id) gives the
 * base an update is relative to (NULL: the stream is wrong). -1 when
 * malformed. */
typedef const proto_view_base* proto_view_find_fn(void* arg, uint32_t id);
int proto_view_get_record(proto_bitr* r, const int32_t origin[2], uint32_t tick, uint32_t* prev_id,
                          uint16_t* prev_type, proto_view_find_fn* find, void* arg, proto_view_record* out,
                          proto_error* err);

/* The views' arrays grow with GROW (grow.h), doubling from 64. */
#define PROTO_VIEW_GROW_MIN 64

/* The FlatBuffers header around the records (proto_view_codec.cpp),
 * with the update's damage entries and events (h->damage*, at most
 * PROTO_VIEW_MAX_DAMAGE_EVENTS events). */
int proto_wrap_view_update(proto_buf* out, const proto_view_header* h, const uint8_t* bits, size_t nbytes,
                           proto_error* err);
/* Where an unwrapped update's damage goes (grown as needed, free()d by its owner). */
typedef struct proto_view_damage_buf {
    proto_vessel_damage* damage;
    uint32_t damage_cap;
    proto_damage_event* events;
    uint32_t event_cap;
    proto_contact* contacts;
    uint32_t contact_cap;
} proto_view_damage_buf;
/* h->damage* and h->contacts point into *dmg (NULL dmg: neither is read,
 * counts 0); more than max_damage entries, PROTO_VIEW_MAX_DAMAGE_EVENTS
 * events or PROTO_VIEW_MAX_CONTACTS contacts are refused. */
int proto_unwrap_view_update(const void* data, size_t size, proto_view_header* h, const uint8_t** bits,
                             size_t* nbytes, proto_view_damage_buf* dmg, uint32_t max_damage, proto_error* err);
void proto_view_damage_buf_free(proto_view_damage_buf* b);

#ifdef __cplusplus
}
#endif

#endif
