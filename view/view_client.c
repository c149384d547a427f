// SPDX-License-Identifier: MIT
/* One view's update for this tick: which vessels it holds, their
 * priorities, and the packet the budget allows (see view.h). Runs on any
 * worker: it touches only its own view and reads the frame. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "view_internal.h"

/* ---- which vessels are in the view ------------------------------------------------- */

typedef struct mark_ctx {
    view_hub* h;
    view_client* c;
    int own;
} mark_ctx;

static int mark(void* arg, uint32_t index, float dist) {
    mark_ctx* m = arg;
    view_client* c = m->c;
    uint32_t id = m->h->fr.f->vessels[index].id;
    view_entry* e = view_entry_find(c, id);
    if (!e) {
        if (c->in_view >= m->h->cfg.max_vessels) return 0; /* full: the rest wait */
        if (!(e = view_entry_add(c, id))) return -1;
    }
    if (!e->in_view) {
        if (c->in_view >= m->h->cfg.max_vessels && !m->own) return 0;
        e->in_view = 1;
        e->dist = dist;
        c->in_view++;
    } else if (dist < e->dist) {
        e->dist = dist;
    }
    e->slot = (int32_t)index;
    e->own |= (uint8_t)m->own;
    return 0;
}

static void find_centres(view_hub* h, view_client* c) {
    const proto_view_settings* s = &c->settings;
    c->center_count = 0;
    if (s->follow_own)
        for (uint32_t i = 0; i < s->own_count; i++) {
            uint32_t slot;
            if (!idmap_get(&h->fr.slots, s->own[i].id, &slot) || !h->fr.ok[slot]) continue;
            c->centers[c->center_count][0] = h->fr.f->vessels[slot].position[0];
            c->centers[c->center_count][1] = h->fr.f->vessels[slot].position[2];
            c->center_count++;
        }
    if (!c->center_count) {
        c->centers[0][0] = s->center[0];
        c->centers[0][1] = s->center[1];
        c->center_count = 1;
    }
}

static int find_vessels(view_hub* h, view_client* c) {
    for (uint32_t i = 0; i < c->entry_count; i++) {
        c->entries[i].in_view = 0;
        c->entries[i].own = 0;
        c->entries[i].slot = -1;
    }
    c->in_view = 0;
    mark_ctx m = {h, c, 1};
    /* The player's own vessels first: always in. */
    for (uint32_t i = 0; i < c->settings.own_count; i++) {
        uint32_t slot;
        if (idmap_get(&h->fr.slots, c->settings.own[i].id, &slot) && h->fr.ok[slot] && mark(&m, slot, 0.0f))
            return -1;
    }
    m.own = 0;
    for (uint32_t k = 0; k < c->center_count; k++)
        if (view_frame_query(&h->fr, c->centers[k][0], c->centers[k][1], c->settings.radius, mark, &m)) return -1;
    /* Entries out of the view and unknown to the client go; known ones
     * leave (gone when the world no longer has them). */
    uint32_t kept = 0;
    int moved = 0;
    for (uint32_t i = 0; i < c->entry_count; i++) {
        view_entry* e = &c->entries[i];
        if (e->in_view) {
            if (e->leave == 1) e->leave = 0;
        } else if (!e->known) {
            moved = 1;
            continue;
        } else {
            uint32_t slot;
            e->slot = idmap_get(&h->fr.slots, e->id, &slot) ? (int32_t)slot : -1; /* -1: gone */
            if (!e->leave) e->leave = 1;
            /* Its damage leaves with it: an entry goes with its next enter. */
            e->dmg_sent = 0;
            e->dmg_clear = 0;
        }
        if (kept != i) {
            c->entries[kept] = *e;
            moved = 1;
        }
        kept++;
    }
    if (moved) {
        c->entry_count = kept;
        idmap_clear(&c->ids);
        for (uint32_t i = 0; i < kept; i++)
            if (idmap_put(&c->ids, c->entries[i].id, i)) return -1;
    }
    return 0;
}

/* ---- priorities ---------------------------------------------------------------------- */

/* Per tick: near vessels gain 3.3x (30 updates a second where the rest
 * get 10 share the budget that way), own ones 4x more, ones the client
 * does not hold yet 4x (joining fills the view first). Speed barely
 * matters: the prediction carries a steady course. */
static float weight(const view_entry* e, float speed) {
    const float near_w = 3.3f;
    float d = e->dist;
    const float ramp = 1.1f * VIEW_NEAR_M; /* past "near", so a boat crossing it is not short */
    float w = d <= ramp ? near_w : d >= VIEW_FAR_M ? 1.0f : 1.0f + (near_w - 1.0f) * (VIEW_FAR_M - d) / (VIEW_FAR_M - ramp);
    if (e->own) w *= 4.0f;
    w *= 1.0f + (speed < 20.0f ? speed : 20.0f) / 100.0f;
    if (!e->known) w *= 4.0f;
    return w;
}

static unsigned distance_class(float d) { return d < VIEW_NEAR_M ? 0 : d < VIEW_FAR_M ? 1 : d < 1200.0f ? 2 : 3; }

/* A max-heap of keys: the priority's bits (a float >= 0 orders as its bit
 * pattern) above the entry's index, inverted so that ties go to the
 * earlier entry. Comparing plain integers in one array keeps the sift
 * inside the cache; the order depends on nothing but the view's state. */
static uint64_t heap_key(const view_entry* e, uint32_t i) {
    uint32_t bits;
    float p = e->priority > 0.0f ? e->priority : 0.0f;
    memcpy(&bits, &p, sizeof bits);
    return (uint64_t)bits << 32 | (UINT32_MAX - i);
}

static void sift_down(uint64_t* heap, uint32_t n, uint32_t i) {
    uint64_t k = heap[i];
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = l;
        if (l >= n) break;
        if (r < n && heap[r] > heap[l]) m = r;
        if (heap[m] <= k) break;
        heap[i] = heap[m];
        i = m;
    }
    heap[i] = k;
}

static int by_id(const void* a, const void* b) {
    uint32_t x = ((const proto_view_put*)a)->rec.id, y = ((const proto_view_put*)b)->rec.id;
    return x < y ? -1 : x > y;
}

/* ---- damage ---------------------------------------------------------------------------------- */

/* The client holds it, as far as the server knows, and keeps it. */
static int held(const view_entry* e) { return e->in_view && e->known && !e->leave; }

/* Per tick: the events of vessels the view has (in it, or held and
 * leaving) wait for the next update; vessels no longer damaged owe a
 * clearing entry where their damage went. */
static int take_damage(view_hub* h, view_client* c) {
    for (uint32_t k = 0; k < h->dmg_event_count; k++) {
        const proto_damage_event* ev = &h->dmg_events[k];
        if (!view_entry_find(c, ev->id)) continue;
        uint32_t at = c->dev_count;
        if (view_requeue_events(c, ev, 1, &at)) return -1;
    }
    for (uint32_t k = 0; k < h->repaired_count; k++) {
        view_entry* e = view_entry_find(c, h->repaired[k]);
        if (!e || !e->dmg_sent) continue;
        e->dmg_sent = 0;
        e->dmg_clear = 1;
        c->dmg_clears++;
    }
    return 0;
}

static int damage_wanted(const view_entry* e, const proto_vessel_damage* d, int refresh) {
    return refresh || !e->dmg_sent || e->dmg_flags != d->flags || e->dmg_holes != d->holes;
}

/* Before filling: the bytes of the entries of held vessels that go in
 * this update; 1 when one must go now (new, changed, cleared, or the
 * refresh of one). Entering vessels pay for theirs in fill. */
static int damage_due(const view_hub* h, view_client* c, int refresh, double* bytes) {
    int due = 0;
    *bytes = 0.0;
    for (uint32_t i = 0; i < h->dmg_count; i++) {
        const proto_vessel_damage* d = &h->dmg[i];
        const view_entry* e = view_entry_find(c, d->id);
        if (!e || !held(e) || !damage_wanted(e, d, refresh)) continue;
        due = 1;
        *bytes += view_damage_bytes(d);
    }
    if (c->dmg_clears) {
        due = 1;
        *bytes += (double)VIEW_DAMAGE_ENTRY_BYTES * c->dmg_clears;
    }
    if (due) *bytes += VIEW_DAMAGE_LIST_BYTES;
    return due;
}

static int damage_add(view_client* c, view_entry* e, const proto_vessel_damage* d) {
    if (GROW(&c->dout, &c->dout_cap, c->dout_count + 1, PROTO_VIEW_GROW_MIN)) return -1;
    c->dout[c->dout_count++] = *d;
    if (e) {
        e->dmg_sent = 1; /* a clearing entry too: what the server lists is sent once, then on change */
        e->dmg_flags = d->flags;
        e->dmg_holes = d->holes;
        e->dmg_clear = 0;
    }
    return 0;
}

/* The update's damage entries: every entering vessel's (a keyframe's are
 * all entering), then those of held vessels that are new, changed or
 * refreshed, then the clearing ones. */
static int damage_collect(view_hub* h, view_client* c, int keyframe, int refresh) {
    c->dout_count = 0;
    if (keyframe) {
        for (uint32_t i = 0; i < c->entry_count; i++) c->entries[i].dmg_sent = c->entries[i].dmg_clear = 0;
        c->dmg_clears = 0;
    }
    for (uint32_t k = 0; k < c->put_count; k++) {
        const proto_view_record* r = &c->puts[k].rec;
        if (r->kind != PROTO_VIEW_ENTER) continue;
        view_entry* e = view_entry_find(c, r->id);
        /* A repeated enter (the first not yet acknowledged) keeps what the
         * client had of it: a vessel no longer damaged says so. */
        int owed = e && (e->dmg_sent || e->dmg_clear);
        if (e) e->dmg_sent = e->dmg_clear = 0;
        const proto_vessel_damage* d = view_damage_of(h, r->id);
        proto_vessel_damage clear;
        memset(&clear, 0, sizeof clear);
        clear.id = r->id;
        if (d ? damage_add(c, e, d) : owed && damage_add(c, e, &clear)) return -1;
    }
    if (!keyframe) {
        for (uint32_t i = 0; i < h->dmg_count; i++) {
            const proto_vessel_damage* d = &h->dmg[i];
            view_entry* e = view_entry_find(c, d->id);
            if (e && held(e) && damage_wanted(e, d, refresh) && damage_add(c, e, d)) return -1;
        }
        if (c->dmg_clears)
            for (uint32_t i = 0; i < c->entry_count; i++) {
                view_entry* e = &c->entries[i];
                if (!e->dmg_clear) continue;
                e->dmg_clear = 0;
                if (!held(e)) continue;
                proto_vessel_damage clear;
                memset(&clear, 0, sizeof clear);
                clear.id = e->id;
                if (damage_add(c, e, &clear)) return -1;
            }
        c->dmg_clears = 0;
    }
    if (refresh) c->next_damage = h->fr.f->tick + (uint64_t)ceil(VIEW_DAMAGE_REFRESH_S * h->cfg.tick_hz);
    return 0;
}

static double events_bytes(const view_client* c) {
    double events = c->dev_count ? VIEW_DAMAGE_LIST_BYTES + (double)VIEW_DAMAGE_EVENT_BYTES * c->dev_count : 0.0;
    return events + (c->con_count ? VIEW_DAMAGE_LIST_BYTES + (double)VIEW_CONTACT_BYTES * c->con_count : 0.0);
}

/* ---- contacts ---------------------------------------------------------------------------- */

/* A vessel the client has or is told of: in the view, or held and leaving. */
static int has_entry(const view_entry* e) { return e && (e->in_view || e->known); }

/* The tick's contacts of vessels the view has wait for its next update;
 * past PROTO_VIEW_MAX_CONTACTS the oldest give way. They are for drawing
 * (flashes, spray): a lost update's are not sent again, the damage events
 * are the record. */
static int take_contacts(view_hub* h, view_client* c) {
    const view_frame* f = h->fr.f;
    for (uint32_t k = 0; k < f->contact_count; k++) {
        const proto_contact* ct = &f->contacts[k];
        const view_entry* b = ct->b == PROTO_CONTACT_GROUND ? NULL : view_entry_find(c, ct->b);
        if (!has_entry(view_entry_find(c, ct->a)) && !has_entry(b)) continue;
        if (c->con_count == PROTO_VIEW_MAX_CONTACTS) {
            memmove(c->con, c->con + 1, (c->con_count - 1) * sizeof *c->con);
            c->con_count--;
        }
        if (GROW(&c->con, &c->con_cap, c->con_count + 1, PROTO_VIEW_GROW_MIN)) return -1;
        c->con[c->con_count++] = *ct;
    }
    return 0;
}

/* ---- the packet -------------------------------------------------------------------------- */

static int add_put(view_client* c, const proto_view_put* p) {
    if (GROW(&c->puts, &c->put_cap, c->put_count + 1, PROTO_VIEW_GROW_MIN)) return -1;
    c->puts[c->put_count++] = *p;
    return 0;
}

static int write_packet(view_hub* h, view_client* c, int keyframe) {
    const view_frame* f = h->fr.f;
    if (c->put_count > 1) qsort(c->puts, c->put_count, sizeof *c->puts, by_id);
    int32_t origin[2] = {(int32_t)lround(c->centers[0][0]), (int32_t)lround(c->centers[0][1])};
    uint32_t worst = 0;
    for (uint32_t k = 0; k < c->put_count; k++) worst += c->puts[k].bits + 34;
    if (GROW(&c->bits, &c->bits_cap, worst / 8 + 8, PROTO_VIEW_GROW_MIN)) return -1;
    proto_bitw w = {c->bits, 0, 0, 0};
    uint32_t prev_id = UINT32_MAX;
    uint16_t prev_type = 0;
    for (uint32_t k = 0; k < c->put_count; k++) proto_view_put_record(&w, &c->puts[k], origin, &prev_id, &prev_type);
    size_t nbytes = proto_flush_bits(&w);
    proto_view_header hd;
    memset(&hd, 0, sizeof hd);
    hd.seq = ++c->seq;
    hd.base_seq = keyframe ? 0 : c->applied;
    hd.keyframe = keyframe;
    hd.tick = f->tick;
    hd.sim_time = f->sim_time;
    hd.send_time_ns = f->send_time_ns;
    hd.origin[0] = origin[0];
    hd.origin[1] = origin[1];
    hd.record_count = c->put_count;
    /* Said while the client holds no base (its first updates) and in keyframes. */
    if (keyframe || hd.base_seq == 0) hd.command_port = h->command_port;
    if (c->echo) {
        hd.has_settings = 1;
        hd.settings = c->settings;
        c->echo = 0;
    }
    hd.damage = c->dout;
    hd.damage_count = c->dout_count;
    hd.damage_events = c->dev;
    hd.damage_event_count = c->dev_count;
    hd.contacts = c->con;
    hd.contact_count = c->con_count;
    if (proto_wrap_view_update(&c->out, &hd, c->bits, nbytes, NULL)) return -1;
    /* Keep what the client will hold once it acknowledges this, and the
     * events to send again if it does not arrive. */
    view_packet* p = &c->ring[hd.seq % VIEW_RING];
    if (GROW(&p->recs, &p->cap, c->put_count, PROTO_VIEW_GROW_MIN) ||
        GROW(&p->events, &p->event_cap, c->dev_count, PROTO_VIEW_GROW_MIN))
        return -1;
    p->seq = hd.seq;
    p->used = 1;
    p->keyframe = (uint8_t)keyframe;
    p->damage = c->dout_count > 0;
    p->event_count = c->dev_count;
    if (c->dev_count) memcpy(p->events, c->dev, c->dev_count * sizeof *c->dev);
    c->out_events = c->dev_count;
    c->dev_count = 0;
    c->con_count = 0;
    p->count = c->put_count;
    for (uint32_t k = 0; k < c->put_count; k++) {
        p->recs[k] = c->puts[k].rec;
        view_entry* e = view_entry_find(c, c->puts[k].rec.id);
        if (!e) continue;
        if (c->puts[k].rec.kind == PROTO_VIEW_LEAVE) {
            e->leave = 2;
            e->leave_seq = hd.seq;
        } else {
            e->priority = 0.0f;
        }
    }
    /* The wire's framing counts against the budget too. */
    c->tokens -= 8.0 * (double)(c->out.size + VIEW_FRAMING_BYTES);
    c->has_out = 1;
    c->last_out = f->tick;
    c->out_keyframe = keyframe;
    c->out_records = c->put_count;
    return 0;
}

static proto_view_put put_for(view_hub* h, const view_entry* e, int keyframe) {
    const proto_vq* q = &h->fr.vq[e->slot];
    proto_view_put p;
    int32_t origin[2] = {0, 0}; /* sizing only: the enter's real origin is the packet's */
    if (!keyframe && e->known)
        proto_view_make_update(&e->base, q, distance_class(e->dist), &p);
    else
        proto_view_make_enter(e->id, q, view_frame_spawned(h, e->id), origin, &p);
    return p;
}

/* Fills the packet: leaves first (tiny, and owed), then by priority while
 * the saved budget lasts. */
static int fill(view_hub* h, view_client* c, double budget_bits, int keyframe) {
    c->put_count = 0;
    double used = 0.0;
    if (!keyframe)
        for (uint32_t i = 0; i < c->entry_count; i++) {
            view_entry* e = &c->entries[i];
            if (e->leave != 1) continue;
            proto_view_put p;
            proto_view_make_leave(e->id, e->slot < 0, &p);
            used += p.bits + VIEW_ID_BITS_GUESS;
            if (add_put(c, &p)) return -1;
        }
    if (GROW(&c->heap, &c->heap_cap, c->entry_count, PROTO_VIEW_GROW_MIN)) return -1;
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->entry_count; i++)
        if (c->entries[i].in_view) c->heap[n++] = heap_key(&c->entries[i], i);
    for (uint32_t i = n / 2; i-- > 0;) sift_down(c->heap, n, i);
    /* The enter's position is relative to the packet's origin: sizes here
     * take the widest code for it (POS_REL's top class) when unsure. */
    while (n) {
        const view_entry* e = &c->entries[UINT32_MAX - (uint32_t)c->heap[0]];
        proto_view_put p = put_for(h, e, keyframe);
        double cost = p.bits + VIEW_ID_BITS_GUESS;
        if (p.rec.kind == PROTO_VIEW_ENTER) {
            const proto_vessel_damage* d = view_damage_of(h, e->id);
            cost += 27.0 + (d ? 8.0 * view_damage_bytes(d) : 0.0); /* an entering vessel brings its damage */
        }
        if (used + cost > budget_bits) break;
        used += cost;
        if (add_put(c, &p)) return -1;
        c->heap[0] = c->heap[--n];
        sift_down(c->heap, n, 0);
    }
    return 0;
}

int view_client_tick(view_hub* h, view_client* c) {
    c->has_out = 0;
    double hz = h->cfg.tick_hz;
    c->change_tokens += h->cfg.changes_per_s / hz;
    if (c->change_tokens > h->cfg.changes_per_s) c->change_tokens = h->cfg.changes_per_s;
    if (!c->configured) return 0;
    const view_frame* f = h->fr.f;
    find_centres(h, c);
    if (find_vessels(h, c) || take_damage(h, c) || take_contacts(h, c)) return -1;
    for (uint32_t i = 0; i < c->entry_count; i++) {
        view_entry* e = &c->entries[i];
        if (e->in_view) e->priority += weight(e, h->fr.speed[e->slot]);
    }
    c->tokens += c->budget_bps / hz;
    if (!c->fallback && c->seq + 1 - c->applied > VIEW_RING) {
        /* Too far behind: forget what is outstanding, send keyframes. */
        c->fallback = 1;
        c->next_keyframe = f->tick;
    }
    if (c->fallback) {
        double cap = c->budget_bps * h->cfg.keyframe_interval_s;
        if (c->tokens > cap) c->tokens = cap;
        if (f->tick < c->next_keyframe) return 0;
        c->next_keyframe = f->tick + (uint64_t)ceil(h->cfg.keyframe_interval_s * hz);
        for (int i = 0; i < VIEW_RING; i++) c->ring[i].used = 0;
        if (fill(h, c, c->tokens - VIEW_HEADER_BITS - 8.0 * events_bytes(c), 1) || damage_collect(h, c, 1, 1))
            return -1;
        return write_packet(h, c, 1);
    }
    /* A few ticks of burst at most: over any second the view gets its
     * budget, not a saved-up surplus on top. */
    double cap = fmax(4.0 * c->budget_bps / hz, 3.0 * VIEW_HEADER_BITS);
    if (c->tokens > cap) c->tokens = cap;
    /* An empty view still hears from the server once per keyframe
     * interval: its client can tell "nothing here" from "nobody there". */
    int heartbeat = f->tick - c->last_out >= (uint64_t)ceil(h->cfg.keyframe_interval_s * hz);
    if ((f->tick + c->phase) % h->update_every && !c->echo) return 0;
    if (c->tokens < 2 * VIEW_HEADER_BITS && !c->echo && !heartbeat) return 0; /* save up: headers are not free */
    /* Damage news (events, a first or changed entry, the refresh) makes an
     * update of its own; its bytes come before the records'. */
    int refresh = f->tick >= c->next_damage;
    double dmg_bytes;
    int news = damage_due(h, c, refresh, &dmg_bytes) || c->dev_count;
    if (fill(h, c, c->tokens - VIEW_HEADER_BITS - 8.0 * (dmg_bytes + events_bytes(c)), 0)) return -1;
    if (!c->put_count && !c->echo && !heartbeat && !news) return 0;
    if (damage_collect(h, c, 0, refresh)) return -1;
    return write_packet(h, c, 0);
}
