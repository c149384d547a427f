// SPDX-License-Identifier: MIT
/* Player views: the hub, the views' requests and acknowledgements, and
 * the per-tick encode (see view.h; the grid is view_grid.c). */
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "proto_view.h"
#include "view_internal.h"

void view_config_default(view_config* c) {
    memset(c, 0, sizeof *c);
    c->tick_hz = 60.0;
    c->update_hz = 30.0;
    c->max_radius = 2000.0f;
    c->default_budget_kbps = 256;
    c->max_budget_kbps = 2048; /* the server's and the relay's default: they take it from here */
    c->max_vessels = 1024;
    c->max_views = 256;
    c->keyframe_interval_s = 1.0;
    c->changes_per_s = 20.0;
    c->allow_own = 1;
}

int view_hub_create(view_hub** out, const view_config* cfg, view_check_owner_fn* check, void* arg, nv_error* err) {
    *out = NULL;
    if (!cfg || !(cfg->tick_hz > 0.0 && cfg->tick_hz <= 1000.0) || !(cfg->update_hz > 0.0) || !(cfg->max_radius > 0.0f) ||
        !cfg->max_budget_kbps || !cfg->max_vessels || !cfg->max_views || !(cfg->keyframe_interval_s > 0.0) ||
        !(cfg->changes_per_s > 0.0))
        return nv_error_set(err, "views: a tick rate in (0, 1000], a radius, budget, vessel and view cap, keyframe "
                                 "interval and change rate above 0 are needed");
    view_hub* h = calloc(1, sizeof *h);
    if (!h) return nv_error_fail(err, NV_ENOMEM, "views: out of memory");
    h->cfg = *cfg;
    if (!h->cfg.default_budget_kbps || h->cfg.default_budget_kbps > h->cfg.max_budget_kbps)
        h->cfg.default_budget_kbps = h->cfg.max_budget_kbps < 256 ? h->cfg.max_budget_kbps : 256;
    /* Half the tick rate by default: the header is paid half as often and
     * the far vessels get the difference (15 Hz instead of 12 in a 1 km
     * view of the demo fleet's density at 256 kbit/s); near ones still get
     * every update. */
    double every = floor(h->cfg.tick_hz / h->cfg.update_hz + 0.5);
    h->update_every = every < 1.0 ? 1u : (uint32_t)every;
    h->check = check;
    h->check_arg = arg;
    *out = h;
    return 0;
}

static void client_free(view_client* c) {
    if (!c) return;
    free(c->entries);
    idmap_free(&c->ids);
    for (int i = 0; i < VIEW_RING; i++) {
        free(c->ring[i].recs);
        free(c->ring[i].events);
    }
    free(c->dev);
    free(c->con);
    free(c->dout);
    free(c->heap);
    free(c->puts);
    free(c->bits);
    proto_free_buf(&c->out);
    proto_free_buf(&c->refusal_buf);
    free(c);
}

void view_hub_set_command_port(view_hub* h, uint16_t port) { h->command_port = port; }

void view_hub_destroy(view_hub* h) {
    if (!h) return;
    for (uint32_t i = 0; i < h->count; i++) client_free(h->clients[i]);
    free(h->clients);
    idmap_free(&h->conns);
    view_frame_free(&h->fr);
    free(h->outputs);
    idmap_free(&h->dmg_ids);
    free(h->dmg_prev);
    free(h->repaired);
    proto_free_buf(&h->refusal_buf);
    free(h);
}

static view_client* client_of(const view_hub* h, uint32_t conn) {
    uint32_t i;
    return idmap_get(&h->conns, conn, &i) ? h->clients[i] : NULL;
}

int view_open(view_hub* h, uint32_t conn, nv_error* err) {
    if (client_of(h, conn)) return 0;
    if (h->count >= h->cfg.max_views)
        return nv_error_fail(err, NV_ELIMIT, "views: %u open, the limit (limits.max_views)", h->count);
    view_client* c = calloc(1, sizeof *c);
    if (!c || GROW(&h->clients, &h->cap, h->count + 1, PROTO_VIEW_GROW_MIN) ||
        idmap_put(&h->conns, conn, h->count)) {
        free(c);
        return nv_error_fail(err, NV_ENOMEM, "views: out of memory");
    }
    c->conn = conn;
    c->phase = conn % h->update_every; /* views spread over the ticks */
    c->change_tokens = h->cfg.changes_per_s;
    h->clients[h->count++] = c;
    return 0;
}

void view_close(view_hub* h, uint32_t conn) {
    uint32_t i;
    if (!idmap_get(&h->conns, conn, &i)) return;
    client_free(h->clients[i]);
    idmap_remove(&h->conns, conn);
    if (i != --h->count) {
        h->clients[i] = h->clients[h->count];
        idmap_put(&h->conns, h->clients[i]->conn, i);
    }
}

uint32_t view_count(const view_hub* h) { return h->count; }

/* ---- entries -------------------------------------------------------------------- */

view_entry* view_entry_find(view_client* c, uint32_t id) {
    uint32_t i;
    return idmap_get(&c->ids, id, &i) ? &c->entries[i] : NULL;
}

view_entry* view_entry_add(view_client* c, uint32_t id) {
    view_entry* e = view_entry_find(c, id);
    if (e) return e;
    if (GROW(&c->entries, &c->entry_cap, c->entry_count + 1, PROTO_VIEW_GROW_MIN) ||
        idmap_put(&c->ids, id, c->entry_count))
        return NULL;
    e = &c->entries[c->entry_count++];
    memset(e, 0, sizeof *e);
    e->id = id;
    e->slot = -1;
    e->base.id = id;
    return e;
}

/* ---- acknowledgements ---------------------------------------------------------------- */

/* The client's base takes update p: the rules of proto_view_decoder.c. */
static int apply_packet(view_client* c, const view_packet* p) {
    if (p->keyframe)
        for (uint32_t i = 0; i < c->entry_count; i++) {
            c->entries[i].known = 0;
            c->entries[i].base.count = 0;
            c->entries[i].leave = 0;
        }
    for (uint32_t k = 0; k < p->count; k++) {
        const proto_view_record* r = &p->recs[k];
        view_entry* e = view_entry_add(c, r->id);
        if (!e) return -1;
        if (r->kind == PROTO_VIEW_LEAVE) {
            e->known = 0;
            e->base.count = 0;
            if (e->leave == 2 && e->leave_seq == p->seq) e->leave = 0;
            continue;
        }
        if (r->kind == PROTO_VIEW_ENTER || !e->known) e->base.count = 0;
        e->known = 1;
        proto_view_base_push(&e->base, &r->state);
    }
    if (p->keyframe) c->fallback = 0;
    return 0;
}

int view_requeue_events(view_client* c, const proto_damage_event* ev, uint32_t n, uint32_t* at) {
    if (!n) return 0;
    if (GROW(&c->dev, &c->dev_cap, c->dev_count + n, PROTO_VIEW_GROW_MIN)) return -1;
    memmove(c->dev + *at + n, c->dev + *at, (c->dev_count - *at) * sizeof *c->dev);
    memcpy(c->dev + *at, ev, n * sizeof *ev);
    c->dev_count += n;
    *at += n;
    if (c->dev_count > PROTO_VIEW_MAX_DAMAGE_EVENTS) {
        uint32_t drop = c->dev_count - PROTO_VIEW_MAX_DAMAGE_EVENTS;
        memmove(c->dev, c->dev + drop, (c->dev_count - drop) * sizeof *c->dev);
        c->dev_count -= drop;
        c->dev_dropped += drop;
        *at = *at > drop ? *at - drop : 0;
    }
    return 0;
}

/* A lost update's leaves and damage events go again; its damage entries
 * with the next update (a refresh). */
static int requeue_lost(view_client* c, const view_packet* p, uint32_t* at) {
    for (uint32_t k = 0; k < p->count; k++) {
        if (p->recs[k].kind != PROTO_VIEW_LEAVE) continue;
        view_entry* e = view_entry_find(c, p->recs[k].id);
        if (e && e->leave == 2 && e->leave_seq == p->seq) e->leave = 1;
    }
    if (p->damage) c->next_damage = 0;
    return view_requeue_events(c, p->events, p->event_count, at);
}

static int take_ack(view_client* c, uint32_t ack, uint32_t mask, nv_error* err) {
    if (!ack) return 0;
    if (ack > c->seq)
        return nv_error_set(err, "view: ack of update %u, which was never sent (the newest is %u)", ack, c->seq);
    if (ack <= c->acked) return 0; /* already known */
    uint32_t from = c->applied + 1;
    if (ack > VIEW_RING && from < ack - VIEW_RING) from = ack - VIEW_RING;
    uint32_t at = 0; /* where lost events go back: before those waiting, in order */
    for (uint32_t s = from; s <= ack; s++) {
        view_packet* p = &c->ring[s % VIEW_RING];
        if (!p->used || p->seq != s) continue; /* forgotten (keyframes only since) */
        int got = s == ack || ((mask >> (ack - 1 - s)) & 1u);
        if (got) {
            if (apply_packet(c, p)) return nv_error_fail(err, NV_ENOMEM, "views: out of memory");
            c->applied = s;
        } else if (requeue_lost(c, p, &at)) {
            return nv_error_fail(err, NV_ENOMEM, "views: out of memory");
        }
        p->used = 0;
    }
    c->acked = ack;
    return 0;
}

/* ---- settings ------------------------------------------------------------------------ */

static int refuse(nv_error* err, proto_status status, const char* why) {
    nv_error_fail(err, NV_EREFUSED, "%s", why);
    if (err) err->status = status;
    return -1;
}

static int take_settings(view_hub* h, view_client* c, const proto_view_settings* in, nv_error* err) {
    if (c->change_tokens < 1.0) return refuse(err, PROTO_STATUS_RATE_LIMITED, "view: settings changed too often");
    c->change_tokens -= 1.0;
    proto_view_settings s = *in;
    if (!(s.radius > 0.0f)) return nv_error_set(err, "view: the radius must be above 0 m");
    double lim = PROTO_VIEW_POS_LIMIT * PROTO_VIEW_POS_STEP;
    if (!(fabs(s.center[0]) < lim && fabs(s.center[1]) < lim))
        return nv_error_set(err, "view: the centre (%g, %g) is beyond %.0f m", s.center[0], s.center[1], lim);
    if (s.own_count && !h->cfg.allow_own)
        return refuse(err, PROTO_STATUS_UNSUPPORTED, "view: own vessels need the server (a relay cannot check tokens)");
    if (s.follow_own && !s.own_count) return nv_error_set(err, "view: follow_own without own vessels");
    for (uint32_t i = 0; i < s.own_count; i++)
        if (!h->check || !h->check(h->check_arg, s.own[i].id, &s.own[i].token)) {
            char why[96];
            snprintf(why, sizeof why, "view: vessel %u is not yours (wrong token or no such vessel)", s.own[i].id);
            return refuse(err, PROTO_STATUS_UNAUTHORIZED, why);
        }
    /* Absurd values are capped, not refused: the echo says what applies. */
    if (s.radius > h->cfg.max_radius) s.radius = h->cfg.max_radius;
    if (!s.budget_kbps) s.budget_kbps = h->cfg.default_budget_kbps;
    if (s.budget_kbps > h->cfg.max_budget_kbps) s.budget_kbps = h->cfg.max_budget_kbps;
    c->settings = s;
    c->budget_bps = 1000.0 * s.budget_kbps;
    c->configured = 1;
    c->echo = 1;
    return 0;
}

int view_handle(view_hub* h, uint32_t conn, const void* msg, size_t size, nv_error* err) {
    view_client* c = client_of(h, conn);
    if (!c) return nv_error_fail(err, NV_ESTATE, "view: connection %u has no view", conn);
    proto_view_request req;
    if (proto_decode_view_request(msg, size, &req, err)) {
        h->refusals++;
        return -1;
    }
    int rc = take_ack(c, req.ack, req.ack_mask, err);
    if (!rc && req.has_settings) rc = take_settings(h, c, &req.settings, err);
    if (rc) h->refusals++;
    return rc;
}

int view_refusal(view_hub* h, uint32_t conn, const nv_error* why, const uint8_t** data, size_t* size) {
    view_client* c = client_of(h, conn);
    if (!why) return -1;
    proto_view_header hd;
    memset(&hd, 0, sizeof hd);
    hd.status = why->code == NV_EREFUSED ? (proto_status)why->status : proto_status_of(why->code);
    if (hd.status == PROTO_STATUS_OK) hd.status = PROTO_STATUS_BAD_REQUEST;
    size_t n = strnlen(why->message, sizeof hd.error - 1);
    while (n > 0 && (why->message[n] & 0xC0) == 0x80) n--; /* a whole UTF-8 character */
    memcpy(hd.error, why->message, n);
    if (!hd.error[0]) snprintf(hd.error, sizeof hd.error, "%s", proto_status_name(hd.status));
    proto_buf* buf = c ? &c->refusal_buf : &h->refusal_buf;
    if (proto_wrap_view_update(buf, &hd, NULL, 0, NULL)) return -1;
    *data = buf->data;
    *size = buf->size;
    return 0;
}

/* ---- the tick ------------------------------------------------------------------------ */

static void encode_range(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    view_hub* h = ctx;
    for (uint32_t i = begin; i < end; i++) {
        view_client* c = h->clients[i];
        c->failed = view_client_tick(h, c) != 0;
    }
}

int view_hub_set_damage(view_hub* h, const proto_vessel_damage* damage, uint32_t damage_count,
                        const proto_damage_event* events, uint32_t event_count, nv_error* err) {
    h->dmg = NULL;
    h->dmg_count = h->dmg_event_count = 0;
    h->dmg_events = NULL;
    if ((damage_count && !damage) || (event_count && !events))
        return nv_error_fail(err, NV_EINVAL, "views: damage: a count without its array");
    for (uint32_t i = 0; i < damage_count; i++)
        if (damage[i].compartment_count > PROTO_MAX_COMPARTMENTS || damage[i].id == IDMAP_EMPTY)
            return nv_error_fail(err, NV_EINVAL, "views: damage: vessel %u has %u compartments (at most %u)",
                                 damage[i].id, damage[i].compartment_count, PROTO_MAX_COMPARTMENTS);
    for (uint32_t i = 0; i < event_count; i++)
        if (events[i].kind > PROTO_DAMAGE_REMOVED)
            return nv_error_fail(err, NV_EINVAL, "views: damage event %u has unknown kind %u", i, events[i].kind);
    h->dmg = damage;
    h->dmg_count = damage_count;
    h->dmg_events = events;
    h->dmg_event_count = event_count;
    return 0;
}

/* The tick's damage looked up by id, and the vessels no longer damaged. */
static int damage_prepare(view_hub* h) {
    idmap_clear(&h->dmg_ids);
    for (uint32_t i = 0; i < h->dmg_count; i++)
        if (idmap_put(&h->dmg_ids, h->dmg[i].id, i)) return -1;
    h->repaired_count = 0;
    for (uint32_t i = 0; i < h->dmg_prev_count; i++) {
        uint32_t k;
        if (idmap_get(&h->dmg_ids, h->dmg_prev[i], &k)) continue;
        if (GROW(&h->repaired, &h->repaired_cap, h->repaired_count + 1, PROTO_VIEW_GROW_MIN))
            return -1;
        h->repaired[h->repaired_count++] = h->dmg_prev[i];
    }
    if (GROW(&h->dmg_prev, &h->dmg_prev_cap, h->dmg_count, PROTO_VIEW_GROW_MIN)) return -1;
    for (uint32_t i = 0; i < h->dmg_count; i++) h->dmg_prev[i] = h->dmg[i].id;
    h->dmg_prev_count = h->dmg_count;
    return 0;
}

static void damage_forget(view_hub* h) {
    h->dmg = NULL;
    h->dmg_events = NULL;
    h->dmg_count = h->dmg_event_count = 0;
}

int view_hub_encode(view_hub* h, const view_frame* f, nv_jobs* pool, nv_error* err) {
    h->output_count = 0;
    if (view_frame_build(h, f) || damage_prepare(h)) {
        damage_forget(h);
        return nv_error_fail(err, NV_ENOMEM, "views: out of memory");
    }
    if (!h->count) {
        damage_forget(h);
        return 0;
    }
    if (pool)
        nv_jobs_parallel_for(pool, h->count, 1, encode_range, h);
    else
        encode_range(h, 0, h->count, 0);
    damage_forget(h);
    if (GROW(&h->outputs, &h->output_cap, h->count, PROTO_VIEW_GROW_MIN))
        return nv_error_fail(err, NV_ENOMEM, "views: out of memory");
    int failed = 0;
    for (uint32_t i = 0; i < h->count; i++) {
        view_client* c = h->clients[i];
        failed |= c->failed;
        h->damage_events_dropped += c->dev_dropped;
        c->dev_dropped = 0;
        if (!c->has_out) continue;
        h->outputs[h->output_count++] = i;
        h->updates++;
        h->keyframes += c->out_keyframe;
        h->bytes += c->out.size;
        h->records += c->out_records;
        h->damage_entries += c->dout_count;
        h->damage_events += c->out_events;
    }
    return failed ? nv_error_fail(err, NV_ENOMEM, "views: out of memory") : 0;
}

uint32_t view_hub_output_count(const view_hub* h) { return h->output_count; }

void view_hub_output(const view_hub* h, uint32_t i, uint32_t* conn, const uint8_t** data, size_t* size) {
    const view_client* c = h->clients[h->outputs[i]];
    *conn = c->conn;
    *data = c->out.data;
    *size = c->out.size;
}

void view_hub_stats(const view_hub* h, view_stats* out) {
    memset(out, 0, sizeof *out);
    out->views = h->count;
    for (uint32_t i = 0; i < h->count; i++) out->fallback += (uint32_t)h->clients[i]->fallback;
    out->updates = h->updates;
    out->keyframes = h->keyframes;
    out->bytes = h->bytes;
    out->records = h->records;
    out->refusals = h->refusals;
    out->damage_entries = h->damage_entries;
    out->damage_events = h->damage_events;
    out->damage_events_dropped = h->damage_events_dropped;
    for (uint32_t i = 0; i < h->count; i++) out->damage_events_dropped += h->clients[i]->dev_dropped;
}
