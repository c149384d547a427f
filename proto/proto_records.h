// SPDX-License-Identifier: MIT
/* Compact snapshot records (docs/protocol.md, "Compact snapshots"): the
 * little-endian bit stream inside a CompactSnapshot: quantisation, bit
 * packing and one vessel's record. proto_compact.c keeps the keyframes
 * around them; proto_codec.cpp wraps the stream in its FlatBuffers header.
 *
 * Record layout, in order (widths in bits; "group" is the vector code below):
 *   keyframe, per vessel:  id delta (2 + 0/8/16/32), type (1 [+16]),
 *                          flags (1 [+16]), then a body
 *   body: raw bit 0 + quantised: group(pos, POS_ABS), ori (2 + 3 x 11),
 *                                group(vel, VEL), group(angvel, ANGVEL)
 *         raw bit 1 + raw: position 3 x 64, orientation 4 x 32,
 *                          velocity 3 x 32, angular velocity 3 x 32
 *   delta, per keyframe vessel in keyframe order, a prefix code:
 *     0     unchanged from the keyframe
 *     10    changed: flags (1 [+16]), group(dpos, POS_DELTA), ori (1: same
 *           largest component, group(dori, ORI_DELTA); 0: 2 + 3 x 11),
 *           group(dvel, VEL), group(dangvel, ANGVEL)
 *     110   flags (1 [+16]) + quantised body (without the raw bit)
 *     1110  flags (1 [+16]) + raw body (without the raw bit)
 *     1111  gone
 *   then the vessels new since the keyframe, as keyframe records.
 * group(v[3]): 0 when all zero, else 1, a 2-bit width class, 3 zigzag
 * values of that width. Deltas are against the keyframe's quantised values,
 * so errors never accumulate: every decoded value is within half a step. */
#ifndef NAVAL_PROTO_RECORDS_H
#define NAVAL_PROTO_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "proto_internal.h"

/* Generous: a raw record with every optional field is under 600 bits. */
#define PROTO_RECORD_MAX_BYTES 80

/* One vessel as the compact code sees it. */
typedef struct proto_cvessel {
    uint32_t id;
    uint16_t type, flags;
    uint8_t raw;           /* 1: `exact` holds it; else the quantised fields */
    uint8_t ori_index;     /* the largest component, dropped */
    uint16_t ori[3];       /* the other three, in order, 0 .. 2^PROTO_COMPACT_ORI_BITS - 1 */
    int32_t pos[3], vel[3], angvel[3];
    proto_vessel exact;
} proto_cvessel;

/* ---- bits ---------------------------------------------------------------- */

/* The writer and the reader keep up to 63 bits in a register and move 32
 * at a time. Their state is copied into locals on every call: stores
 * through the byte pointer may alias anything, and would otherwise force
 * the compiler to reload the state after each byte. */
typedef struct proto_bitw {
    uint8_t* p;
    size_t pos;
    uint64_t acc;
    unsigned n;   /* bits in acc, < 32 between calls */
} proto_bitw;

static inline void proto_put_bits(proto_bitw* w, uint32_t v, unsigned bits) {
    uint64_t acc = w->acc | (uint64_t)(bits < 32 ? v & ((1u << bits) - 1u) : v) << w->n;
    unsigned n = w->n + bits;
    if (n >= 32) {
        uint8_t* p = w->p + w->pos;
        p[0] = (uint8_t)acc;
        p[1] = (uint8_t)(acc >> 8);
        p[2] = (uint8_t)(acc >> 16);
        p[3] = (uint8_t)(acc >> 24);
        w->pos += 4;
        acc >>= 32;
        n -= 32;
    }
    w->acc = acc;
    w->n = n;
}

typedef struct proto_bitr {
    const uint8_t* p;
    size_t size, pos;
    uint64_t acc;
    unsigned n;
    int bad;  /* read past the end */
} proto_bitr;

static inline uint32_t proto_get_bits(proto_bitr* r, unsigned bits) {
    uint64_t acc = r->acc;
    unsigned n = r->n;
    if (n < bits) {
        size_t pos = r->pos;
        if (r->size - pos >= 4) {
            const uint8_t* p = r->p + pos;
            acc |= ((uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24) << n;
            n += 32;
            pos += 4;
        } else {
            while (n < bits && pos < r->size) {
                acc |= (uint64_t)r->p[pos++] << n;
                n += 8;
            }
            if (n < bits) {
                r->bad = 1;
                r->pos = pos;
                r->acc = 0;
                r->n = 0;
                return 0;
            }
        }
        r->pos = pos;
    }
    uint32_t v = (uint32_t)(bits < 32 ? acc & ((1u << bits) - 1u) : acc);
    r->acc = bits < 64 ? acc >> bits : 0;
    r->n = n - bits;
    return v;
}

/* ---- codes shared by the compact and view streams ---------------------- */

static inline uint32_t proto_zigzag(int32_t v) { return ((uint32_t)v << 1) ^ (uint32_t)-(int32_t)((uint32_t)v >> 31); }
static inline int32_t proto_unzigzag(uint32_t u) { return (int32_t)((u >> 1) ^ (0u - (u & 1u))); }


/* By value, and inlined: the callers build v just before, and reading it
 * back from memory as one wide load stalls on store forwarding. */
static inline void proto_put_group(proto_bitw* w, int32_t a, int32_t b, int32_t c, const uint8_t widths[4]) {
    if (!(a | b | c)) {
        proto_put_bits(w, 0, 1);
        return;
    }
    uint32_t za = proto_zigzag(a), zb = proto_zigzag(b), zc = proto_zigzag(c);
    uint32_t m = za | zb | zc;
    unsigned k = 0;
    while (k < 3 && (m >> widths[k]) != 0) k++;
    proto_put_bits(w, 1u | k << 1, 3);
    proto_put_bits(w, za, widths[k]);
    proto_put_bits(w, zb, widths[k]);
    proto_put_bits(w, zc, widths[k]);
}


static inline void proto_get_group(proto_bitr* r, int32_t v[3], const uint8_t widths[4]) {
    v[0] = v[1] = v[2] = 0;
    if (!proto_get_bits(r, 1)) return;
    unsigned c = proto_get_bits(r, 2);
    for (int k = 0; k < 3; k++) v[k] = proto_unzigzag(proto_get_bits(r, widths[c]));
}

size_t proto_flush_bits(proto_bitw* w);
/* 0, or -1 when the records ran past the end of the data or left bytes unread. */
int proto_check_bits_end(const proto_bitr* r, const char* what, proto_error* err);

/* Smallest three (docs/protocol.md, "Values"): -1 for a zero or non-finite
 * quaternion. Shared by the compact and the view streams. */
int proto_quantise_ori(const float q[4], uint8_t* index, uint16_t c[3]);
void proto_dequantise_ori(uint8_t index, const uint16_t c[3], float q[4]);

/* Quantised when every field is in range, else raw (exact). */
void proto_quantise_vessel(const proto_vessel* v, const double origin[3], proto_cvessel* c);
void proto_dequantise_vessel(const proto_cvessel* c, const double origin[3], proto_vessel* v);

/* A whole vessel (keyframes and new vessels); *prev_id and *prev_type carry
 * the previous record's (start with UINT32_MAX and 0). */
void proto_put_full_record(proto_bitw* w, const proto_cvessel* c, uint32_t* prev_id, uint16_t* prev_type);
void proto_get_full_record(proto_bitr* r, proto_cvessel* c, uint32_t* prev_id, uint16_t* prev_type);
/* Vessel c against its keyframe entry k (the same id). */
void proto_put_delta_record(proto_bitw* w, const proto_cvessel* c, const proto_cvessel* k);
/* A keyframe vessel that is gone. */
void proto_put_gone_record(proto_bitw* w);
/* 0: the vessel in *c; 1: gone; -1: malformed. */
int proto_get_delta_record(proto_bitr* r, const proto_cvessel* k, proto_cvessel* c);

#endif
