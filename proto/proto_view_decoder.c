// SPDX-License-Identifier: MIT
/* The client's side of a player view (docs/protocol.md, "Player views").
 *
 * It keeps three things:
 *  - the base: each vessel's last two samples from the updates up to the
 *    newest base_seq a header named (the server bases its differences on
 *    exactly those: the updates this client acknowledged);
 *  - the pending updates: received after that base, as records, to be
 *    applied to the base once a header names them;
 *  - what it shows: every vessel's newest samples from all it received,
 *    and the damage of those that are damaged (each vessel's newest
 *    entry, dropped when it leaves; a keyframe starts afresh);
 * Applying an update to a base: a keyframe empties it first; an enter sets
 * the vessel's one sample; an update pushes a sample (or sets the only one,
 * when the vessel had left); a leave removes it. The server applies its
 * acknowledged updates by the same rules (view/view.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "proto_view.h"

#define VIEW_PENDING_MAX 64  /* the server keeps at most 32 updates unacknowledged */

typedef struct view_pending {
    uint32_t seq;
    int keyframe;
    uint32_t count, cap;
    proto_view_record* recs;
} view_pending;

struct proto_view_decoder {
    uint32_t max_vessels;
    proto_view_base* base;
    uint32_t base_count, base_cap;
    idmap base_ids;
    uint32_t base_seq;
    view_pending pend[VIEW_PENDING_MAX];   /* in seq order */
    uint32_t pend_count;
    proto_view_vessel* shown;
    uint32_t shown_count, shown_cap;
    idmap shown_ids;
    proto_view_event* events;
    uint32_t event_count, event_cap;
    proto_view_record* scratch;
    uint32_t scratch_cap;
    uint32_t newest, mask;                 /* received updates, for the acks */
    proto_view_damage_buf in;              /* the update being read */
    proto_vessel_damage* dmg;              /* held vessels' damage */
    uint32_t dmg_count, dmg_cap;
    idmap dmg_ids;
    proto_damage_event* dev;               /* the last update's damage events */
    uint32_t dev_count, dev_cap;
};

proto_view_decoder* proto_create_view_decoder(uint32_t max_vessels, proto_error* err) {
    proto_view_decoder* d = calloc(1, sizeof *d);
    if (!d) {
        nv_error_fail(err, NV_ENOMEM, "view decoder: out of memory");
        return NULL;
    }
    d->max_vessels = max_vessels ? max_vessels : 1;
    return d;
}

void proto_destroy_view_decoder(proto_view_decoder* d) {
    if (!d) return;
    for (uint32_t i = 0; i < VIEW_PENDING_MAX; i++) free(d->pend[i].recs);
    free(d->base);
    idmap_free(&d->base_ids);
    free(d->shown);
    idmap_free(&d->shown_ids);
    free(d->events);
    free(d->scratch);
    proto_view_damage_buf_free(&d->in);
    free(d->dmg);
    idmap_free(&d->dmg_ids);
    free(d->dev);
    free(d);
}

/* ---- the base ----------------------------------------------------------------- */

static proto_view_base* base_find(proto_view_decoder* d, uint32_t id) {
    uint32_t i;
    return idmap_get(&d->base_ids, id, &i) ? &d->base[i] : NULL;
}

static const proto_view_base* base_find_cb(void* arg, uint32_t id) { return base_find(arg, id); }

static void base_remove(proto_view_decoder* d, uint32_t id) {
    uint32_t i;
    if (!idmap_get(&d->base_ids, id, &i)) return;
    idmap_remove(&d->base_ids, id);
    if (i != --d->base_count) {
        d->base[i] = d->base[d->base_count];
        idmap_put(&d->base_ids, d->base[i].id, i);
    }
}

static int base_apply(proto_view_decoder* d, const view_pending* p) {
    if (p->keyframe) {
        d->base_count = 0;
        idmap_clear(&d->base_ids);
    }
    for (uint32_t k = 0; k < p->count; k++) {
        const proto_view_record* r = &p->recs[k];
        if (r->kind == PROTO_VIEW_LEAVE) {
            base_remove(d, r->id);
            continue;
        }
        proto_view_base* b = base_find(d, r->id);
        if (!b) {
            if (GROW(&d->base, &d->base_cap, d->base_count + 1, PROTO_VIEW_GROW_MIN) ||
                idmap_put(&d->base_ids, r->id, d->base_count))
                return -1;
            b = &d->base[d->base_count++];
            memset(b, 0, sizeof *b);
            b->id = r->id;
        }
        if (r->kind == PROTO_VIEW_ENTER) b->count = 0;
        proto_view_base_push(b, &r->state);
    }
    return 0;
}

/* ---- what is shown ------------------------------------------------------------- */

static proto_view_vessel* shown_find(const proto_view_decoder* d, uint32_t id) {
    uint32_t i;
    return idmap_get(&d->shown_ids, id, &i) ? &d->shown[i] : NULL;
}

static void shown_remove(proto_view_decoder* d, uint32_t id) {
    uint32_t i;
    if (!idmap_get(&d->shown_ids, id, &i)) return;
    idmap_remove(&d->shown_ids, id);
    if (i != --d->shown_count) {
        d->shown[i] = d->shown[d->shown_count];
        idmap_put(&d->shown_ids, d->shown[i].id, i);
    }
}

static int event_add(proto_view_decoder* d, uint32_t id, proto_view_event_kind kind) {
    if (GROW(&d->events, &d->event_cap, d->event_count + 1, PROTO_VIEW_GROW_MIN)) return -1;
    d->events[d->event_count++] = (proto_view_event){id, kind};
    return 0;
}

static int shown_apply(proto_view_decoder* d, const proto_view_header* h, const proto_view_record* recs,
                       uint32_t n) {
    d->event_count = 0;
    if (h->keyframe) {
        d->shown_count = 0;
        idmap_clear(&d->shown_ids);
    }
    for (uint32_t k = 0; k < n; k++) {
        const proto_view_record* r = &recs[k];
        proto_view_vessel* v = shown_find(d, r->id);
        if (r->kind == PROTO_VIEW_LEAVE) {
            if (v && event_add(d, r->id, r->reason ? PROTO_VIEW_GONE : PROTO_VIEW_LEFT)) return -1;
            shown_remove(d, r->id);
            continue;
        }
        if (!v) {
            if (GROW(&d->shown, &d->shown_cap, d->shown_count + 1, PROTO_VIEW_GROW_MIN) ||
                idmap_put(&d->shown_ids, r->id, d->shown_count))
                return -1;
            v = &d->shown[d->shown_count++];
            memset(v, 0, sizeof *v);
            v->id = r->id;
            if (event_add(d, r->id, r->kind == PROTO_VIEW_ENTER && r->reason ? PROTO_VIEW_SPAWNED : PROTO_VIEW_ENTERED))
                return -1;
        }
        if (r->kind == PROTO_VIEW_ENTER) v->sample_count = 0;
        v->type = r->state.type;
        v->flags = r->state.flags;
        memmove(&v->samples[1], &v->samples[0], (PROTO_VIEW_HISTORY - 1) * sizeof v->samples[0]);
        if (v->sample_count < PROTO_VIEW_HISTORY) v->sample_count++;
        v->samples[0].tick = h->tick;
        proto_view_dequantise(&r->state, v->samples[0].position, v->samples[0].orientation);
    }
    return 0;
}

/* ---- damage ------------------------------------------------------------------------ */

int proto_damage_is_clear(const proto_vessel_damage* d) {
    if (d->flags || d->holes) return 0;
    for (uint32_t k = 0; k < d->compartment_count && k < PROTO_MAX_COMPARTMENTS; k++)
        if (d->fill[k]) return 0;
    return 1;
}

static void dmg_remove_at(proto_view_decoder* d, uint32_t i) {
    idmap_remove(&d->dmg_ids, d->dmg[i].id);
    if (i != --d->dmg_count) {
        d->dmg[i] = d->dmg[d->dmg_count];
        idmap_put(&d->dmg_ids, d->dmg[i].id, i);
    }
}

/* After the records: the damage of vessels no longer held goes, the
 * update's entries of held vessels apply, its events are kept. */
static int dmg_apply(proto_view_decoder* d, const proto_view_header* h) {
    if (h->keyframe) {
        d->dmg_count = 0;
        idmap_clear(&d->dmg_ids);
    }
    for (uint32_t i = d->dmg_count; i-- > 0;)
        if (!shown_find(d, d->dmg[i].id)) dmg_remove_at(d, i);
    for (uint32_t k = 0; k < h->damage_count; k++) {
        const proto_vessel_damage* e = &h->damage[k];
        if (!shown_find(d, e->id)) continue; /* not held: nothing to say of it */
        uint32_t i;
        int have = idmap_get(&d->dmg_ids, e->id, &i);
        if (proto_damage_is_clear(e)) {
            if (have) dmg_remove_at(d, i);
            continue;
        }
        if (!have) {
            if (GROW(&d->dmg, &d->dmg_cap, d->dmg_count + 1, PROTO_VIEW_GROW_MIN) ||
                idmap_put(&d->dmg_ids, e->id, d->dmg_count))
                return -1;
            i = d->dmg_count++;
        }
        d->dmg[i] = *e;
    }
    d->dev_count = 0;
    if (h->damage_event_count) {
        if (GROW(&d->dev, &d->dev_cap, h->damage_event_count, PROTO_VIEW_GROW_MIN)) return -1;
        memcpy(d->dev, h->damage_events, h->damage_event_count * sizeof *d->dev);
        d->dev_count = h->damage_event_count;
    }
    return 0;
}

/* ---- one update ------------------------------------------------------------------- */

static int received(const proto_view_decoder* d, uint32_t seq) {
    if (!seq || !d->newest || seq > d->newest) return 0;
    if (seq == d->newest) return 1;
    uint32_t back = d->newest - seq - 1;
    return back < 32 && ((d->mask >> back) & 1u);
}

/* The pending updates up to base_seq join the base, in order. */
static int advance_base(proto_view_decoder* d, uint32_t base_seq, proto_error* err) {
    uint32_t done = 0;
    while (done < d->pend_count && d->pend[done].seq <= base_seq) {
        if (base_apply(d, &d->pend[done])) return nv_error_fail(err, NV_ENOMEM, "view decoder: out of memory");
        done++;
    }
    if (done) {
        /* Rotate the applied slots (and their memory) to the end. */
        view_pending tmp[VIEW_PENDING_MAX];
        memcpy(tmp, d->pend, done * sizeof tmp[0]);
        memmove(d->pend, d->pend + done, (VIEW_PENDING_MAX - done) * sizeof tmp[0]);
        memcpy(d->pend + VIEW_PENDING_MAX - done, tmp, done * sizeof tmp[0]);
        d->pend_count -= done;
    }
    d->base_seq = base_seq;
    return 0;
}

int proto_decode_view_update(proto_view_decoder* d, const void* data, size_t size, proto_view_header* h,
                             proto_error* err) {
    if (!d || !h) return nv_error_fail(err, NV_EINVAL, "view update: no decoder or header");
    const uint8_t* bits;
    size_t nbytes;
    if (proto_unwrap_view_update(data, size, h, &bits, &nbytes, &d->in, d->max_vessels * 2u + 64u, err)) return -1;
    if (h->status != PROTO_STATUS_OK) {
        d->event_count = 0;
        d->dev_count = 0;
        return 0;
    }
    if (!h->seq || (d->newest && h->seq <= d->newest))
        return proto_set_error(err, "view update: seq %u does not follow %u", h->seq, d->newest);
    if (h->keyframe ? h->base_seq != 0 : (h->base_seq >= h->seq || (h->base_seq && !received(d, h->base_seq))))
        return proto_set_error(err, "view update: base %u is not an update this client received", h->base_seq);
    if (!h->keyframe && h->base_seq < d->base_seq)
        return proto_set_error(err, "view update: base %u goes back from %u", h->base_seq, d->base_seq);
    /* Every record takes at least 3 bits: a cheap cap before any allocation. */
    if (h->record_count > d->max_vessels * 2u + 64u || h->record_count > nbytes * 8 / 3 + 1)
        return proto_set_error(err, "view update: %u records cannot be in %zu bytes or this view", h->record_count,
                               nbytes);
    if (!h->keyframe && advance_base(d, h->base_seq, err)) return -1;
    if (d->pend_count == VIEW_PENDING_MAX)
        return proto_set_error(err, "view update: more than %d updates ahead of their base", VIEW_PENDING_MAX);
    if (GROW(&d->scratch, &d->scratch_cap, h->record_count, PROTO_VIEW_GROW_MIN))
        return nv_error_fail(err, NV_ENOMEM, "view decoder: out of memory");
    /* A keyframe is decoded against an empty base. */
    proto_view_decoder empty = {0};
    proto_view_decoder* against = h->keyframe ? &empty : d;
    proto_bitr r = {bits, nbytes, 0, 0, 0, 0};
    uint32_t prev_id = UINT32_MAX, enters = 0;
    uint16_t prev_type = 0;
    for (uint32_t k = 0; k < h->record_count; k++) {
        proto_view_record* rec = &d->scratch[k];
        if (proto_view_get_record(&r, h->origin, (uint32_t)h->tick, &prev_id, &prev_type, base_find_cb, against, rec,
                                  err))
            return -1;
        if (h->keyframe && rec->kind != PROTO_VIEW_ENTER)
            return proto_set_error(err, "view update: a keyframe holds only entering vessels");
        enters += rec->kind != PROTO_VIEW_LEAVE && !shown_find(d, rec->id);
    }
    if (proto_check_bits_end(&r, "view update", err)) return -1;
    if ((h->keyframe ? 0 : d->shown_count) + enters > d->max_vessels)
        return nv_error_fail(err, NV_ELIMIT, "view update: over %u vessels", d->max_vessels);
    /* Commit: keep it for the base, show it, note it for the acks. */
    view_pending* p = &d->pend[d->pend_count];
    if (GROW(&p->recs, &p->cap, h->record_count, PROTO_VIEW_GROW_MIN))
        return nv_error_fail(err, NV_ENOMEM, "view decoder: out of memory");
    p->seq = h->seq;
    p->keyframe = h->keyframe;
    p->count = h->record_count;
    if (h->record_count) memcpy(p->recs, d->scratch, h->record_count * sizeof *p->recs);
    d->pend_count++;
    if (shown_apply(d, h, d->scratch, h->record_count) || dmg_apply(d, h))
        return nv_error_fail(err, NV_ENOMEM, "view decoder: out of memory");
    uint32_t shift = d->newest ? h->seq - d->newest : 0;
    d->mask = shift >= 33 ? 0 : shift == 32 ? 1u << 31 : shift ? (d->mask << shift) | (1u << (shift - 1)) : 0;
    d->newest = h->seq;
    return 0;
}

void proto_view_decoder_ack(const proto_view_decoder* d, uint32_t* ack, uint32_t* mask) {
    *ack = d->newest;
    *mask = d->mask;
}

const proto_view_vessel* proto_view_decoder_vessels(const proto_view_decoder* d, uint32_t* count) {
    *count = d->shown_count;
    return d->shown;
}

const proto_view_event* proto_view_decoder_events(const proto_view_decoder* d, uint32_t* count) {
    *count = d->event_count;
    return d->events;
}

const proto_view_vessel* proto_view_decoder_find(const proto_view_decoder* d, uint32_t id) {
    return shown_find(d, id);
}

const proto_vessel_damage* proto_view_decoder_damage(const proto_view_decoder* d, uint32_t id) {
    uint32_t i;
    return idmap_get(&d->dmg_ids, id, &i) ? &d->dmg[i] : NULL;
}

const proto_vessel_damage* proto_view_decoder_damaged(const proto_view_decoder* d, uint32_t* count) {
    *count = d->dmg_count;
    return d->dmg;
}

const proto_damage_event* proto_view_decoder_damage_events(const proto_view_decoder* d, uint32_t* count) {
    *count = d->dev_count;
    return d->dev;
}

/* ---- playout ------------------------------------------------------------------------ */

static void nlerp(const float a[4], const float b[4], double t, float out[4]) {
    double dot = 0.0, q[4], n = 0.0;
    for (int k = 0; k < 4; k++) dot += (double)a[k] * b[k];
    double sb = dot < 0.0 ? -1.0 : 1.0; /* the shorter way round */
    for (int k = 0; k < 4; k++) {
        q[k] = (1.0 - t) * a[k] + t * sb * b[k];
        n += q[k] * q[k];
    }
    n = n > 0.0 ? 1.0 / sqrt(n) : 0.0;
    for (int k = 0; k < 4; k++) out[k] = n > 0.0 ? (float)(q[k] * n) : a[k];
}

void proto_view_sample_at(const proto_view_vessel* v, double tick, double max_extrapolate, double position[3],
                          float orientation[4]) {
    uint32_t n = v->sample_count ? v->sample_count : 1;
    const proto_view_sample* s = v->samples;
    /* Newest first: find the pair around `tick`. */
    uint32_t i = 0;
    while (i + 1 < n && (double)s[i].tick > tick) i++;
    const proto_view_sample *a, *b; /* a older, b newer */
    double t;
    if (i == 0 && n >= 2 && tick > (double)s[0].tick) {
        a = &s[1];
        b = &s[0];
        double ahead = tick - (double)s[0].tick;
        if (ahead > max_extrapolate) ahead = max_extrapolate;
        double span = (double)(b->tick - a->tick);
        t = span > 0.0 ? 1.0 + ahead / span : 1.0;
    } else if (i == 0 || (double)s[i].tick > tick) {
        memcpy(position, s[i].position, sizeof s[i].position);
        memcpy(orientation, s[i].orientation, sizeof s[i].orientation);
        return;
    } else {
        a = &s[i];
        b = &s[i - 1];
        double span = (double)(b->tick - a->tick);
        t = span > 0.0 ? (tick - (double)a->tick) / span : 1.0;
    }
    for (int k = 0; k < 3; k++) position[k] = a->position[k] + t * (b->position[k] - a->position[k]);
    nlerp(a->orientation, b->orientation, t, orientation);
}
