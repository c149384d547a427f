// SPDX-License-Identifier: MIT
/* Player view records: see proto_view.h for the layout. */
#include "proto_view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const int32_t PROTO_VIEW_POS_UNIT[PROTO_VIEW_CLASSES] = {1, 4, 32, 128};
const int32_t PROTO_VIEW_ORI_UNIT[PROTO_VIEW_CLASSES] = {1, 2, 8, 16};

static const uint8_t POS_RES[4] = {2, 5, 10, 32};
static const uint8_t ORI_RES[4] = {2, 4, 7, 12};
static const uint8_t POS_REL[4] = {13, 18, 23, 32};
static const uint8_t ID_GAP[4] = {2, 5, 8, 32};

#define ORI_BITS PROTO_COMPACT_ORI_BITS
#define ORI_MAX ((int32_t)((1u << ORI_BITS) - 1u))
#define POS_MAX ((int64_t)PROTO_VIEW_POS_LIMIT - 1)


static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

int proto_view_quantise(const proto_vessel* v, uint32_t tick, proto_vq* q) {
    memset(q, 0, sizeof *q);
    for (int k = 0; k < 3; k++) {
        double x = v->position[k] / PROTO_VIEW_POS_STEP;
        if (!(fabs(x) < (double)POS_MAX)) return -1; /* NaN too */
        q->pos[k] = (int32_t)(x < 0.0 ? x - 0.5 : x + 0.5);
    }
    if (proto_quantise_ori(v->orientation, &q->ori_index, q->ori)) return -1;
    q->flags = v->flags;
    q->type = v->type;
    q->tick = tick;
    return 0;
}

void proto_view_dequantise(const proto_vq* q, double position[3], float orientation[4]) {
    for (int k = 0; k < 3; k++) position[k] = q->pos[k] * PROTO_VIEW_POS_STEP;
    proto_dequantise_ori(q->ori_index, q->ori, orientation);
}

void proto_view_predict(const proto_view_base* b, uint32_t tick, proto_vq* out) {
    const proto_vq* s1 = &b->s[1];
    *out = *s1;
    out->tick = tick;
    if (b->count < 2) return;
    const proto_vq* s0 = &b->s[0];
    uint32_t dt0 = s1->tick - s0->tick, dt = tick - s1->tick;
    if (dt0 == 0 || dt0 > PROTO_VIEW_PREDICT_MAX_TICKS || dt > PROTO_VIEW_PREDICT_MAX_TICKS) return;
    for (int k = 0; k < 3; k++) {
        int64_t step = proto_view_div_round(((int64_t)s1->pos[k] - s0->pos[k]) * dt, dt0);
        out->pos[k] = (int32_t)clamp64(s1->pos[k] + step, -POS_MAX, POS_MAX);
    }
    if (s0->ori_index != s1->ori_index) return;
    for (int k = 0; k < 3; k++) {
        int64_t step = proto_view_div_round(((int64_t)s1->ori[k] - s0->ori[k]) * dt, dt0);
        out->ori[k] = (uint16_t)clamp64(s1->ori[k] + step, 0, ORI_MAX);
    }
}

void proto_view_base_push(proto_view_base* b, const proto_vq* q) {
    b->s[0] = b->s[1];
    b->s[1] = *q;
    if (b->count < 2) b->count++;
}

static unsigned group_bits(const int32_t v[3], const uint8_t widths[4]) {
    if (!(v[0] | v[1] | v[2])) return 1;
    uint32_t m = proto_zigzag(v[0]) | proto_zigzag(v[1]) | proto_zigzag(v[2]);
    unsigned k = 0;
    while (k < 3 && (m >> widths[k]) != 0) k++;
    return 3 + 3u * widths[k];
}

void proto_view_make_update(const proto_view_base* base, const proto_vq* cur, unsigned cls, proto_view_put* p) {
    memset(p, 0, sizeof *p);
    proto_vq pred;
    proto_view_predict(base, cur->tick, &pred);
    proto_vq* s = &p->rec.state;
    *s = pred;
    s->flags = cur->flags;
    s->type = base->s[1].type;
    p->rec.id = base->id;
    p->rec.kind = PROTO_VIEW_UPDATE;
    p->cls = (uint8_t)cls;
    p->flags_changed = cur->flags != base->s[1].flags;
    int32_t pu = PROTO_VIEW_POS_UNIT[cls], ou = PROTO_VIEW_ORI_UNIT[cls];
    for (int k = 0; k < 3; k++) {
        p->dpos[k] = (int32_t)proto_view_div_round((int64_t)cur->pos[k] - pred.pos[k], pu);
        s->pos[k] = (int32_t)clamp64((int64_t)pred.pos[k] + (int64_t)p->dpos[k] * pu, -POS_MAX, POS_MAX);
    }
    p->ori_same = cur->ori_index == pred.ori_index;
    if (p->ori_same) {
        for (int k = 0; k < 3; k++) {
            p->dori[k] = (int32_t)proto_view_div_round((int64_t)cur->ori[k] - pred.ori[k], ou);
            s->ori[k] = (uint16_t)clamp64((int64_t)pred.ori[k] + (int64_t)p->dori[k] * ou, 0, ORI_MAX);
        }
    } else {
        s->ori_index = cur->ori_index;
        memcpy(s->ori, cur->ori, sizeof s->ori);
    }
    p->bits = 1 + 2 + 1 + (p->flags_changed ? 16u : 0u) + group_bits(p->dpos, POS_RES) + 1 +
              (p->ori_same ? group_bits(p->dori, ORI_RES) : 2u + 3u * ORI_BITS);
}

static void rel_origin(const proto_vq* q, const int32_t origin[2], int32_t rel[3]) {
    rel[0] = (int32_t)((int64_t)q->pos[0] - (int64_t)origin[0] * 512);
    rel[1] = q->pos[1];
    rel[2] = (int32_t)((int64_t)q->pos[2] - (int64_t)origin[1] * 512);
}

void proto_view_make_enter(uint32_t id, const proto_vq* cur, int spawned, const int32_t origin[2], proto_view_put* p) {
    memset(p, 0, sizeof *p);
    p->rec.id = id;
    p->rec.kind = PROTO_VIEW_ENTER;
    p->rec.reason = spawned != 0;
    p->rec.state = *cur;
    int32_t rel[3];
    rel_origin(cur, origin, rel);
    /* The type costs 1 bit when it repeats the previous enter's: counted
     * as 17 here, so the estimate is an upper bound. */
    p->bits = 2 + 1 + 17 + (cur->flags ? 17u : 1u) + group_bits(rel, POS_REL) + 2u + 3u * ORI_BITS;
}

void proto_view_make_leave(uint32_t id, int gone, proto_view_put* p) {
    memset(p, 0, sizeof *p);
    p->rec.id = id;
    p->rec.kind = PROTO_VIEW_LEAVE;
    p->rec.reason = gone != 0;
    p->bits = 3;
}

static unsigned id_class(uint32_t gap) { return gap < 4 ? 0 : gap < 32 ? 1 : gap < 256 ? 2 : 3; }

unsigned proto_view_id_bits(uint32_t prev_id, uint32_t id) { return 2 + ID_GAP[id_class(id - prev_id - 1u)]; }

static void put_flags(proto_bitw* w, uint16_t flags) {
    proto_put_bits(w, flags != 0, 1);
    if (flags) proto_put_bits(w, flags, 16);
}

static void put_ori(proto_bitw* w, const proto_vq* q) {
    proto_put_bits(w, q->ori_index, 2);
    for (int k = 0; k < 3; k++) proto_put_bits(w, q->ori[k], ORI_BITS);
}

void proto_view_put_record(proto_bitw* w, const proto_view_put* p, const int32_t origin[2], uint32_t* prev_id,
                           uint16_t* prev_type) {
    const proto_view_record* r = &p->rec;
    uint32_t gap = r->id - *prev_id - 1u;
    unsigned c = id_class(gap);
    proto_put_bits(w, c, 2);
    proto_put_bits(w, gap, ID_GAP[c]);
    *prev_id = r->id;
    switch (r->kind) {
    case PROTO_VIEW_UPDATE:
        proto_put_bits(w, 0, 1);
        proto_put_bits(w, p->cls, 2);
        proto_put_bits(w, p->flags_changed, 1);
        if (p->flags_changed) proto_put_bits(w, r->state.flags, 16);
        proto_put_group(w, p->dpos[0], p->dpos[1], p->dpos[2], POS_RES);
        proto_put_bits(w, p->ori_same, 1);
        if (p->ori_same)
            proto_put_group(w, p->dori[0], p->dori[1], p->dori[2], ORI_RES);
        else
            put_ori(w, &r->state);
        break;
    case PROTO_VIEW_ENTER: {
        proto_put_bits(w, 1, 2); /* "10", first bit first */
        proto_put_bits(w, r->reason, 1);
        proto_put_bits(w, r->state.type == *prev_type, 1);
        if (r->state.type != *prev_type) proto_put_bits(w, r->state.type, 16);
        *prev_type = r->state.type;
        put_flags(w, r->state.flags);
        int32_t rel[3];
        rel_origin(&r->state, origin, rel);
        proto_put_group(w, rel[0], rel[1], rel[2], POS_REL);
        put_ori(w, &r->state);
        break;
    }
    default:
        proto_put_bits(w, 3, 2); /* "11" */
        proto_put_bits(w, r->reason, 1);
        break;
    }
}

static int pos_ok(int64_t v) { return v >= -POS_MAX && v <= POS_MAX; }

int proto_view_get_record(proto_bitr* r, const int32_t origin[2], uint32_t tick, uint32_t* prev_id,
                          uint16_t* prev_type, proto_view_find_fn* find, void* arg, proto_view_record* out,
                          proto_error* err) {
    memset(out, 0, sizeof *out);
    unsigned c = proto_get_bits(r, 2);
    uint32_t gap = proto_get_bits(r, ID_GAP[c]);
    uint64_t id = (uint64_t)(uint32_t)(*prev_id + 1u) + gap;
    if (r->bad) return proto_set_error(err, "view update: the records end early");
    if ((*prev_id != UINT32_MAX && id > UINT32_MAX - 1u) || id == UINT32_MAX)
        return proto_set_error(err, "view update: a vessel id past 2^32 - 2");
    *prev_id = (uint32_t)id;
    out->id = (uint32_t)id;
    proto_vq* s = &out->state;
    s->tick = tick;
    if (!proto_get_bits(r, 1)) {
        out->kind = PROTO_VIEW_UPDATE;
        const proto_view_base* b = find(arg, out->id);
        if (!b || !b->count)
            return proto_set_error(err, "view update: an update of vessel %u, which its base does not hold", out->id);
        unsigned cls = proto_get_bits(r, 2);
        proto_vq pred;
        proto_view_predict(b, tick, &pred);
        *s = pred;
        s->type = b->s[1].type;
        s->flags = proto_get_bits(r, 1) ? (uint16_t)proto_get_bits(r, 16) : b->s[1].flags;
        int32_t d[3];
        proto_get_group(r, d, POS_RES);
        for (int k = 0; k < 3; k++)
            s->pos[k] = (int32_t)clamp64((int64_t)pred.pos[k] + (int64_t)d[k] * PROTO_VIEW_POS_UNIT[cls], -POS_MAX,
                                         POS_MAX);
        if (proto_get_bits(r, 1)) {
            proto_get_group(r, d, ORI_RES);
            for (int k = 0; k < 3; k++)
                s->ori[k] = (uint16_t)clamp64((int64_t)pred.ori[k] + (int64_t)d[k] * PROTO_VIEW_ORI_UNIT[cls], 0,
                                              ORI_MAX);
        } else {
            s->ori_index = (uint8_t)proto_get_bits(r, 2);
            for (int k = 0; k < 3; k++) s->ori[k] = (uint16_t)proto_get_bits(r, ORI_BITS);
        }
    } else if (!proto_get_bits(r, 1)) {
        out->kind = PROTO_VIEW_ENTER;
        out->reason = (uint8_t)proto_get_bits(r, 1);
        s->type = proto_get_bits(r, 1) ? *prev_type : (uint16_t)proto_get_bits(r, 16);
        *prev_type = s->type;
        s->flags = proto_get_bits(r, 1) ? (uint16_t)proto_get_bits(r, 16) : 0;
        int32_t rel[3];
        proto_get_group(r, rel, POS_REL);
        int64_t x = (int64_t)rel[0] + (int64_t)origin[0] * 512, z = (int64_t)rel[2] + (int64_t)origin[1] * 512;
        if (!pos_ok(x) || !pos_ok(rel[1]) || !pos_ok(z))
            return proto_set_error(err, "view update: vessel %u enters beyond the position limit", out->id);
        s->pos[0] = (int32_t)x;
        s->pos[1] = rel[1];
        s->pos[2] = (int32_t)z;
        s->ori_index = (uint8_t)proto_get_bits(r, 2);
        for (int k = 0; k < 3; k++) s->ori[k] = (uint16_t)proto_get_bits(r, ORI_BITS);
    } else {
        out->kind = PROTO_VIEW_LEAVE;
        out->reason = (uint8_t)proto_get_bits(r, 1);
    }
    if (r->bad) return proto_set_error(err, "view update: the records end early");
    return 0;
}
