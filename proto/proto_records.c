// SPDX-License-Identifier: MIT
/* Compact snapshot records: see proto_records.h for the layout. */
#include <math.h>
#include <string.h>

#include "proto_records.h"

static const uint8_t POS_ABS[4] = {12, 17, 22, 27};
static const uint8_t POS_DELTA[4] = {6, 10, 14, 18};
static const uint8_t ORI_DELTA[4] = {3, 5, 8, 12};
static const uint8_t VEL[4] = {5, 9, 13, 17};
static const uint8_t ID_DELTA[4] = {0, 8, 16, 32};

#define ORI_MAX ((1u << PROTO_COMPACT_ORI_BITS) - 1u)
#define SQRT1_2 0.70710678118654752440

size_t proto_flush_bits(proto_bitw* w) {
    for (; w->n > 0; w->n = w->n > 8 ? w->n - 8 : 0, w->acc >>= 8) w->p[w->pos++] = (uint8_t)w->acc;
    w->acc = 0;
    return w->pos;
}

/* Round half away from zero; |x| < 2^30 (checked by the callers). A cast
 * instead of llround: no libm call in the per-vessel loop. */
static inline int32_t round_i32(double x) { return (int32_t)(x < 0.0 ? x - 0.5 : x + 0.5); }

static int fits(int64_t v, unsigned bits) { return v > -((int64_t)1 << (bits - 1)) && v < ((int64_t)1 << (bits - 1)); }

static inline void put_group(proto_bitw* w, const int32_t v[3], const uint8_t widths[4]) {
    proto_put_group(w, v[0], v[1], v[2], widths);
}

static void put_u64(proto_bitw* w, uint64_t v) {
    proto_put_bits(w, (uint32_t)v, 32);
    proto_put_bits(w, (uint32_t)(v >> 32), 32);
}

static uint64_t get_u64(proto_bitr* r) {
    uint64_t lo = proto_get_bits(r, 32);
    return lo | (uint64_t)proto_get_bits(r, 32) << 32;
}
/* ---- quantisation --------------------------------------------------------- */

static int quantise_axis(double v, double scale, unsigned bits, int32_t* q) {
    double x = v * scale;
    if (!(fabs(x) < (double)((int64_t)1 << (bits - 1)) - 1.0)) return -1;  /* NaN too */
    *q = round_i32(x);
    return 0;
}

int proto_quantise_ori(const float v[4], uint8_t* index, uint16_t c[3]) {
    double q[4], norm = 0.0;
    for (int k = 0; k < 4; k++) {
        q[k] = v[k];
        norm += q[k] * q[k];
    }
    norm = sqrt(norm);
    if (!(isfinite(norm) && norm > 1e-6)) return -1;
    /* Smallest three: q and -q are the same rotation, so make the largest
     * component positive and send the other three, each within 1/sqrt(2). */
    int big = 0;
    for (int k = 1; k < 4; k++)
        if (fabs(q[k]) > fabs(q[big])) big = k;
    double scale = (q[big] < 0.0 ? -1.0 : 1.0) / (norm * PROTO_COMPACT_ORI_STEP);
    double offset = SQRT1_2 / PROTO_COMPACT_ORI_STEP;
    *index = (uint8_t)big;
    for (int k = 0, j = 0; k < 4; k++) {
        if (k == big) continue;
        double x = q[k] * scale + offset;
        int32_t u = round_i32(x < 0.0 ? 0.0 : x > ORI_MAX ? ORI_MAX : x);
        c[j++] = (uint16_t)u;
    }
    return 0;
}

void proto_dequantise_ori(uint8_t index, const uint16_t c[3], float out[4]) {
    double q[4], sum = 0.0;
    for (int k = 0, j = 0; k < 4; k++) {
        if (k == index) continue;
        q[k] = c[j++] * PROTO_COMPACT_ORI_STEP - SQRT1_2;
        sum += q[k] * q[k];
    }
    q[index] = sqrt(sum < 1.0 ? 1.0 - sum : 0.0);
    /* Hostile or rounded-up components can sum past 1: renormalise. */
    double norm = sqrt(sum + q[index] * q[index]);
    double inv = 1.0 / norm;
    for (int k = 0; k < 4; k++) out[k] = (float)(q[k] * inv);
}

/* Fills c from v: quantised when every field is in range, else raw. */
void proto_quantise_vessel(const proto_vessel* v, const double origin[3], proto_cvessel* c) {
    c->raw = 0;
    c->id = v->id;
    c->type = v->type;
    c->flags = v->flags;
    int ok = proto_quantise_ori(v->orientation, &c->ori_index, c->ori) == 0;
    for (int k = 0; k < 3 && ok; k++) {
        ok = quantise_axis(v->position[k] - origin[k], 1.0 / PROTO_COMPACT_POS_STEP, POS_ABS[3], &c->pos[k]) == 0 &&
             quantise_axis(v->velocity[k], 1.0 / PROTO_COMPACT_VEL_STEP, VEL[3], &c->vel[k]) == 0 &&
             quantise_axis(v->angular_velocity[k], 1.0 / PROTO_COMPACT_ANGVEL_STEP, VEL[3], &c->angvel[k]) == 0;
    }
    if (!ok) {
        memset(c, 0, sizeof *c);
        c->id = v->id;
        c->type = v->type;
        c->flags = v->flags;
        c->raw = 1;
        c->exact = *v;
    }
}

void proto_dequantise_vessel(const proto_cvessel* c, const double origin[3], proto_vessel* v) {
    if (c->raw) {
        *v = c->exact;
        v->id = c->id;
        v->type = c->type;
        v->flags = c->flags;
        return;
    }
    v->id = c->id;
    v->type = c->type;
    v->flags = c->flags;
    proto_dequantise_ori(c->ori_index, c->ori, v->orientation);
    for (int k = 0; k < 3; k++) {
        v->position[k] = origin[k] + c->pos[k] * PROTO_COMPACT_POS_STEP;
        v->velocity[k] = (float)(c->vel[k] * PROTO_COMPACT_VEL_STEP);
        v->angular_velocity[k] = (float)(c->angvel[k] * PROTO_COMPACT_ANGVEL_STEP);
    }
}

static int same_state(const proto_cvessel* a, const proto_cvessel* b) {
    if (a->raw != b->raw || a->flags != b->flags) return 0;
    if (a->raw) return memcmp(&a->exact, &b->exact, sizeof a->exact) == 0;
    return a->ori_index == b->ori_index && !memcmp(a->ori, b->ori, sizeof a->ori) &&
           !memcmp(a->pos, b->pos, sizeof a->pos) && !memcmp(a->vel, b->vel, sizeof a->vel) &&
           !memcmp(a->angvel, b->angvel, sizeof a->angvel);
}
/* ---- records --------------------------------------------------------------- */

static void put_flags(proto_bitw* w, uint16_t flags) {
    proto_put_bits(w, flags != 0, 1);
    if (flags) proto_put_bits(w, flags, 16);
}

static uint16_t get_flags(proto_bitr* r) { return proto_get_bits(r, 1) ? (uint16_t)proto_get_bits(r, 16) : 0; }

static void put_ori(proto_bitw* w, const proto_cvessel* c) {
    proto_put_bits(w, c->ori_index, 2);
    for (int k = 0; k < 3; k++) proto_put_bits(w, c->ori[k], PROTO_COMPACT_ORI_BITS);
}

static void get_ori(proto_bitr* r, proto_cvessel* c) {
    c->ori_index = (uint8_t)proto_get_bits(r, 2);
    for (int k = 0; k < 3; k++) c->ori[k] = (uint16_t)proto_get_bits(r, PROTO_COMPACT_ORI_BITS);
}

static void put_quantised(proto_bitw* w, const proto_cvessel* c) {
    put_group(w, c->pos, POS_ABS);
    put_ori(w, c);
    put_group(w, c->vel, VEL);
    put_group(w, c->angvel, VEL);
}

static void get_quantised(proto_bitr* r, proto_cvessel* c) {
    c->raw = 0;
    proto_get_group(r, c->pos, POS_ABS);
    get_ori(r, c);
    proto_get_group(r, c->vel, VEL);
    proto_get_group(r, c->angvel, VEL);
}

static void put_raw(proto_bitw* w, const proto_vessel* v) {
    uint64_t d;
    uint32_t f;
    for (int k = 0; k < 3; k++) memcpy(&d, &v->position[k], 8), put_u64(w, d);
    for (int k = 0; k < 4; k++) memcpy(&f, &v->orientation[k], 4), proto_put_bits(w, f, 32);
    for (int k = 0; k < 3; k++) memcpy(&f, &v->velocity[k], 4), proto_put_bits(w, f, 32);
    for (int k = 0; k < 3; k++) memcpy(&f, &v->angular_velocity[k], 4), proto_put_bits(w, f, 32);
}

static void get_raw(proto_bitr* r, proto_cvessel* c) {
    uint64_t d;
    uint32_t f;
    c->raw = 1;
    for (int k = 0; k < 3; k++) d = get_u64(r), memcpy(&c->exact.position[k], &d, 8);
    for (int k = 0; k < 4; k++) f = proto_get_bits(r, 32), memcpy(&c->exact.orientation[k], &f, 4);
    for (int k = 0; k < 3; k++) f = proto_get_bits(r, 32), memcpy(&c->exact.velocity[k], &f, 4);
    for (int k = 0; k < 3; k++) f = proto_get_bits(r, 32), memcpy(&c->exact.angular_velocity[k], &f, 4);
}

/* Runs of ids and types cost a few bits. */
void proto_put_full_record(proto_bitw* w, const proto_cvessel* c, uint32_t* prev_id, uint16_t* prev_type) {
    uint32_t d = proto_zigzag((int32_t)(c->id - (*prev_id + 1u)));
    unsigned cls = d == 0 ? 0 : d < 256 ? 1 : d < 65536 ? 2 : 3;
    proto_put_bits(w, cls, 2);
    proto_put_bits(w, d, ID_DELTA[cls]);
    proto_put_bits(w, c->type == *prev_type, 1);
    if (c->type != *prev_type) proto_put_bits(w, c->type, 16);
    put_flags(w, c->flags);
    proto_put_bits(w, c->raw, 1);
    if (c->raw)
        put_raw(w, &c->exact);
    else
        put_quantised(w, c);
    *prev_id = c->id;
    *prev_type = c->type;
}

void proto_get_full_record(proto_bitr* r, proto_cvessel* c, uint32_t* prev_id, uint16_t* prev_type) {
    memset(c, 0, sizeof *c);
    unsigned cls = proto_get_bits(r, 2);
    c->id = *prev_id + 1u + (uint32_t)proto_unzigzag(proto_get_bits(r, ID_DELTA[cls]));
    c->type = proto_get_bits(r, 1) ? *prev_type : (uint16_t)proto_get_bits(r, 16);
    c->flags = get_flags(r);
    if (proto_get_bits(r, 1))
        get_raw(r, c);
    else
        get_quantised(r, c);
    *prev_id = c->id;
    *prev_type = c->type;
}

void proto_put_delta_record(proto_bitw* w, const proto_cvessel* c, const proto_cvessel* k) {
    if (same_state(c, k)) {
        proto_put_bits(w, 0, 1);
        return;
    }
    int32_t dp[3], dv[3], dw[3];
    int small = !c->raw && !k->raw;
    for (int a = 0; a < 3 && small; a++) {
        dp[a] = c->pos[a] - k->pos[a];
        dv[a] = c->vel[a] - k->vel[a];
        dw[a] = c->angvel[a] - k->angvel[a];
        small = fits(dp[a], POS_DELTA[3]) && fits(dv[a], VEL[3]) && fits(dw[a], VEL[3]);
    }
    if (small) {
        proto_put_bits(w, 1, 2); /* "10", first bit first */
        put_flags(w, c->flags);
        proto_put_group(w, dp[0], dp[1], dp[2], POS_DELTA);
        proto_put_bits(w, c->ori_index == k->ori_index, 1);
        if (c->ori_index == k->ori_index) {
            int32_t dq[3] = {c->ori[0] - k->ori[0], c->ori[1] - k->ori[1], c->ori[2] - k->ori[2]};
            proto_put_group(w, dq[0], dq[1], dq[2], ORI_DELTA);
        } else {
            put_ori(w, c);
        }
        proto_put_group(w, dv[0], dv[1], dv[2], VEL);
        proto_put_group(w, dw[0], dw[1], dw[2], VEL);
    } else if (!c->raw) {
        proto_put_bits(w, 3, 3); /* "110" */
        put_flags(w, c->flags);
        put_quantised(w, c);
    } else {
        proto_put_bits(w, 7, 4); /* "1110" */
        put_flags(w, c->flags);
        put_raw(w, &c->exact);
    }
}

int proto_get_delta_record(proto_bitr* r, const proto_cvessel* k, proto_cvessel* c) {
    *c = *k;
    if (!proto_get_bits(r, 1)) return 0;
    if (!proto_get_bits(r, 1)) {
        c->flags = get_flags(r);
        if (k->raw) return -1; /* the encoder never sends a delta against a raw entry */
        int32_t d[3];
        proto_get_group(r, d, POS_DELTA);
        for (int a = 0; a < 3; a++) c->pos[a] = k->pos[a] + d[a];
        if (proto_get_bits(r, 1)) {
            proto_get_group(r, d, ORI_DELTA);
            for (int a = 0; a < 3; a++) {
                int32_t o = (int32_t)k->ori[a] + d[a];
                if (o < 0 || o > (int32_t)ORI_MAX) return -1;
                c->ori[a] = (uint16_t)o;
            }
        } else {
            get_ori(r, c);
        }
        proto_get_group(r, d, VEL);
        for (int a = 0; a < 3; a++) c->vel[a] = k->vel[a] + d[a];
        proto_get_group(r, d, VEL);
        for (int a = 0; a < 3; a++) c->angvel[a] = k->angvel[a] + d[a];
        return 0;
    }
    if (!proto_get_bits(r, 1)) {
        c->flags = get_flags(r);
        get_quantised(r, c);
        return 0;
    }
    if (!proto_get_bits(r, 1)) {
        c->flags = get_flags(r);
        get_raw(r, c);
        return 0;
    }
    return 1;
}
int proto_check_bits_end(const proto_bitr* r, const char* what, proto_error* err) {
    /* Every byte used, and nothing read past the end: a stream with spare
     * bytes or a short one is corrupt (or from a different encoding). */
    if (r->bad) return proto_set_error(err, "compact %s: records run past the end of the data", what);
    size_t used = (r->pos * 8 - r->n + 7) / 8;
    if (used != r->size) return proto_set_error(err, "compact %s: %zu bytes left after the records", what, r->size - used);
    return 0;
}

void proto_put_gone_record(proto_bitw* w) { proto_put_bits(w, 15, 4); /* "1111" */ }
