// SPDX-License-Identifier: MIT
/* Player views (view/, proto_view*): a server-side hub and a client-side
 * decoder joined by a simulated link (delays, drops, a client that stops
 * acknowledging), on a fleet that steams, turns, heaves and rolls.
 * Asserted: every decoded position is within the distance class's half
 * step of the truth at its tick (so the two ends never disagree on a
 * base); the view holds every vessel inside it and none far outside;
 * near vessels get 30 updates a second and every vessel 10 at the target
 * density within 256 kbit/s; leaves, despawns and spawns arrive; a silent
 * client falls back to keyframes and recovers; refusals name the fault;
 * the bytes are the same at any thread count. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "grow.h"
#include "proto_view.h"
#include "view.h"
#include "view_internal.h" /* VIEW_DAMAGE_*: the encoder's size estimates, checked against the bytes */

#define HZ 60.0
#define PI 3.14159265358979323846
#define HISTORY 256

/* ---- a fleet ------------------------------------------------------------------ */

typedef struct fleet {
    proto_vessel* v;
    double* heading;
    double* speed;
    double* turn;
    uint32_t n, next_id;
    uint64_t tick;
    /* truth by tick (ring) and id -> index for the check */
    double (*pos)[3];   /* HISTORY x max_id */
    uint32_t max_id;
} fleet;

static uint64_t rng_state = 12345;
static double frand(void) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

static void fleet_orient(fleet* f, uint32_t i) {
    double t = (double)f->tick / HZ;
    double yaw = f->heading[i], roll = 0.08 * sin(1.1 * t + i), pitch = 0.03 * sin(0.7 * t + 2.0 * i);
    /* yaw about +y, then pitch about z, roll about x (body). */
    double cy = cos(yaw / 2), sy = sin(yaw / 2), cp = cos(pitch / 2), sp = sin(pitch / 2), cr = cos(roll / 2),
           sr = sin(roll / 2);
    double q[4] = {cy * cp * sr + sy * sp * cr, sy * cp * cr + cy * sp * sr, cy * sp * cr - sy * cp * sr,
                   cy * cp * cr - sy * sp * sr};
    for (int k = 0; k < 4; k++) f->v[i].orientation[k] = (float)q[k];
}

static void fleet_add(fleet* f, double x, double z) {
    uint32_t i = f->n++;
    memset(&f->v[i], 0, sizeof f->v[i]);
    f->v[i].id = f->next_id++;
    f->v[i].type = (uint16_t)(i % 3);
    f->v[i].position[0] = x;
    f->v[i].position[2] = z;
    f->heading[i] = 2.0 * PI * frand();
    f->speed[i] = 2.0 + 8.0 * frand();
    f->turn[i] = (frand() - 0.5) * 0.1;
    fleet_orient(f, i);
}

static fleet* fleet_create(uint32_t n, double half, uint32_t cap) {
    fleet* f = calloc(1, sizeof *f);
    f->v = calloc(cap, sizeof *f->v);
    f->heading = calloc(cap, sizeof(double));
    f->speed = calloc(cap, sizeof(double));
    f->turn = calloc(cap, sizeof(double));
    f->max_id = cap + 64;
    f->pos = calloc((size_t)HISTORY * f->max_id, sizeof *f->pos);
    for (uint32_t i = 0; i < n; i++) fleet_add(f, (2 * frand() - 1) * half, (2 * frand() - 1) * half);
    return f;
}

static void fleet_free(fleet* f) {
    free(f->v);
    free(f->heading);
    free(f->speed);
    free(f->turn);
    free(f->pos);
    free(f);
}

static void fleet_remove(fleet* f, uint32_t i) {
    f->n--;
    f->v[i] = f->v[f->n];
    f->heading[i] = f->heading[f->n];
    f->speed[i] = f->speed[f->n];
    f->turn[i] = f->turn[f->n];
}

static void fleet_step(fleet* f) {
    f->tick++;
    double dt = 1.0 / HZ, t = (double)f->tick / HZ;
    for (uint32_t i = 0; i < f->n; i++) {
        proto_vessel* v = &f->v[i];
        f->heading[i] += f->turn[i] * dt;
        double vx = f->speed[i] * cos(f->heading[i]), vz = -f->speed[i] * sin(f->heading[i]);
        v->position[0] += vx * dt;
        v->position[2] += vz * dt;
        v->position[1] = 0.6 * sin(2.0 * PI * t / 7.0 + i);
        v->velocity[0] = (float)vx;
        v->velocity[2] = (float)vz;
        fleet_orient(f, i);
    }
    for (uint32_t i = 0; i < f->n; i++)
        memcpy(f->pos[(f->tick % HISTORY) * f->max_id + f->v[i].id], f->v[i].position, sizeof f->v[i].position);
}

/* The contacts the next frame carries (step() clears them). */
static proto_contact g_contacts[8];
static uint32_t g_contact_count;

static view_frame fleet_frame(const fleet* f) {
    view_frame fr = {f->tick, (double)f->tick / HZ, 0, f->v, f->n, g_contacts, g_contact_count};
    return fr;
}

/* ---- a link -------------------------------------------------------------------- */

#define LINK_DELAY_MAX 64

typedef struct link {
    view_hub* hub;
    proto_view_decoder* dec;
    uint32_t conn;
    int ack_delay;              /* ticks before an ack reaches the hub */
    double drop;                /* probability that the server's edge drops an update */
    int silent;                 /* the client sends no acks */
    /* acks in flight: (due tick, ack, mask) */
    uint64_t due[LINK_DELAY_MAX];
    uint32_t acks[LINK_DELAY_MAX][2];
    int nacks;
    proto_buf buf;
    uint64_t bytes, updates, keyframes, decode_errors;
    uint16_t command_port;      /* what updates on no base must announce (view_hub_set_command_port), others never */
    proto_view_header last;
    double cx, cz, radius;      /* as set */
    /* damage */
    const fleet* f;             /* positions of the ticks, for the checks */
    int check_damage;           /* every entry is of a vessel held after its update, near the view */
    proto_damage_event* events; /* every damage event received, in order */
    uint32_t event_count, event_cap;
    uint64_t damage_entries, damage_updates;
    uint32_t watch_id, watch_entries;  /* entries of one vessel received */
    proto_contact* contacts;    /* every contact received, in order */
    uint32_t contact_count, contact_cap;
} link;

static void link_send_settings(link* l, const proto_view_settings* s, int expect_ok) {
    proto_view_request r;
    memset(&r, 0, sizeof r);
    r.has_settings = 1;
    r.settings = *s;
    proto_view_decoder_ack(l->dec, &r.ack, &r.ack_mask);
    assert_int_equal(proto_encode_view_request(&l->buf, &r, NULL), 0);
    nv_error err;
    int rc = view_handle(l->hub, l->conn, l->buf.data, l->buf.size, &err);
    if (expect_ok) {
        if (rc) fail_msg("settings refused: %s", err.message);
    } else {
        assert_int_equal(rc, -1);
    }
    l->cx = s->center[0];
    l->cz = s->center[1];
    l->radius = s->radius;
}

static void link_open(link* l, view_hub* hub, uint32_t conn, double cx, double cz, float radius, uint32_t kbps) {
    memset(l, 0, sizeof *l);
    l->hub = hub;
    l->conn = conn;
    l->dec = proto_create_view_decoder(4096, NULL);
    assert_non_null(l->dec);
    assert_int_equal(view_open(hub, conn, NULL), 0);
    proto_view_settings s;
    memset(&s, 0, sizeof s);
    s.center[0] = cx;
    s.center[1] = cz;
    s.radius = radius;
    s.budget_kbps = kbps;
    link_send_settings(l, &s, 1);
}

static void link_close(link* l) {
    proto_destroy_view_decoder(l->dec);
    proto_free_buf(&l->buf);
    free(l->events);
    free(l->contacts);
}

static const proto_vessel* fleet_find(const fleet* f, uint32_t id) {
    for (uint32_t i = 0; i < f->n; i++)
        if (f->v[i].id == id) return &f->v[i];
    return NULL;
}

/* An update's damage: its events kept; its entries only of vessels the
 * client holds, none far outside the view; what the decoder keeps is the
 * newest entry of each held vessel. */
static void link_damage(link* l, const fleet* f, const proto_view_header* h) {
    uint32_t n;
    const proto_damage_event* ev = proto_view_decoder_damage_events(l->dec, &n);
    assert_int_equal(n, h->damage_event_count);
    if (l->event_count + n > l->event_cap) {
        l->event_cap = 2 * (l->event_cap + n);
        l->events = realloc(l->events, l->event_cap * sizeof *l->events);
    }
    if (n) memcpy(l->events + l->event_count, ev, n * sizeof *ev);
    l->event_count += n;
    l->damage_entries += h->damage_count;
    for (uint32_t k = 0; k < h->damage_count; k++) l->watch_entries += h->damage[k].id == l->watch_id;
    l->damage_updates += h->damage_count > 0;
    if (!l->check_damage) return;
    for (uint32_t k = 0; k < h->damage_count; k++) {
        const proto_vessel_damage* d = &h->damage[k];
        if (!proto_view_decoder_find(l->dec, d->id)) fail_msg("a damage entry of vessel %u, which is not held", d->id);
        const proto_vessel_damage* kept = proto_view_decoder_damage(l->dec, d->id);
        if (proto_damage_is_clear(d) ? kept != NULL : !kept || memcmp(kept, d, sizeof *d) != 0)
            fail_msg("vessel %u: the decoder does not keep its newest entry", d->id);
    }
    for (uint32_t k = 0; k < n; k++) {
        const proto_vessel* v = fleet_find(f, ev[k].id);
        if (v && hypot(v->position[0] - l->cx, v->position[2] - l->cz) > l->radius + 100.0)
            fail_msg("a damage event of vessel %u, %.0f m out", ev[k].id,
                     hypot(v->position[0] - l->cx, v->position[2] - l->cz));
    }
}

/* Max error per axis allowed for a sample at distance d (m) from the centre. */
static double bound_for(double d) {
    unsigned cls = d < 300.0 ? 0 : d < 600.0 ? 1 : d < 1200.0 ? 2 : 3;
    return (PROTO_VIEW_POS_UNIT[cls] * 0.5 + 0.5) * PROTO_VIEW_POS_STEP + 1e-9;
}

/* The hub's output for this link this tick, delivered (or dropped), its
 * samples checked against the truth; acks queued. Returns 1 when an update
 * arrived. */
static int link_tick(link* l, const fleet* f, double* worst) {
    int got = 0;
    for (uint32_t i = 0; i < view_hub_output_count(l->hub); i++) {
        uint32_t conn;
        const uint8_t* data;
        size_t size;
        view_hub_output(l->hub, i, &conn, &data, &size);
        if (conn != l->conn) continue;
        if (frand() < l->drop) continue;
        proto_view_header h;
        nv_error err;
        if (proto_decode_view_update(l->dec, data, size, &h, &err)) fail_msg("decode: %s", err.message);
        l->last = h;
        l->bytes += size;
        l->updates++;
        l->keyframes += (uint64_t)h.keyframe;
        assert_int_equal(h.command_port, h.keyframe || h.base_seq == 0 ? l->command_port : 0);
        got = 1;
        link_damage(l, f, &h);
        assert_true(h.contact_count <= PROTO_VIEW_MAX_CONTACTS);
        if (h.contact_count) {
            assert_int_equal(GROW(&l->contacts, &l->contact_cap, l->contact_count + h.contact_count, 64), 0);
            memcpy(l->contacts + l->contact_count, h.contacts, h.contact_count * sizeof *h.contacts);
            l->contact_count += h.contact_count;
        }
        uint32_t count;
        const proto_view_vessel* vs = proto_view_decoder_vessels(l->dec, &count);
        for (uint32_t k = 0; k < count; k++) {
            const proto_view_sample* s = &vs[k].samples[0];
            if (s->tick != h.tick) continue;
            const double* truth = f->pos[(s->tick % HISTORY) * f->max_id + vs[k].id];
            double d = hypot(truth[0] - l->cx, truth[2] - l->cz);
            for (int a = 0; a < 3; a++) {
                double e = fabs(s->position[a] - truth[a]);
                if (worst && e > *worst) *worst = e;
                if (e > bound_for(d))
                    fail_msg("vessel %u at %.0f m: axis %d off by %.4f m (bound %.4f)", vs[k].id, d, a, e,
                             bound_for(d));
            }
        }
        if (!l->silent && l->nacks < LINK_DELAY_MAX) {
            l->due[l->nacks] = f->tick + (uint64_t)l->ack_delay;
            proto_view_decoder_ack(l->dec, &l->acks[l->nacks][0], &l->acks[l->nacks][1]);
            l->nacks++;
        }
    }
    /* Acks that arrive now, in order. */
    int k = 0;
    while (k < l->nacks && l->due[k] <= f->tick) {
        proto_view_request r;
        memset(&r, 0, sizeof r);
        r.ack = l->acks[k][0];
        r.ack_mask = l->acks[k][1];
        assert_int_equal(proto_encode_view_request(&l->buf, &r, NULL), 0);
        nv_error err;
        if (view_handle(l->hub, l->conn, l->buf.data, l->buf.size, &err)) fail_msg("ack refused: %s", err.message);
        k++;
    }
    memmove(l->due, l->due + k, (size_t)(l->nacks - k) * sizeof l->due[0]);
    memmove(l->acks, l->acks + k, (size_t)(l->nacks - k) * sizeof l->acks[0]);
    l->nacks -= k;
    return got;
}

static view_hub* hub_new(void) {
    view_config c;
    view_config_default(&c);
    c.tick_hz = HZ;
    view_hub* h = NULL;
    assert_int_equal(view_hub_create(&h, &c, NULL, NULL, NULL), 0);
    return h;
}

/* ---- damage ----------------------------------------------------------------------- */

/* The damage a test gives the hub each tick: per vessel id, whether it is
 * damaged and its entry; the tick's events. */
typedef struct damage_world {
    uint8_t* damaged;            /* by id */
    proto_vessel_damage* by_id;
    uint32_t max_id;
    proto_vessel_damage* list;   /* this tick's, in the fleet's order */
    uint32_t count;
    proto_damage_event* events;
    uint32_t event_count, event_cap;
    int demo;                    /* every 4th vessel damaged, water moving, two events a tick */
} damage_world;

static damage_world* damage_world_new(const fleet* f) {
    damage_world* w = calloc(1, sizeof *w);
    w->max_id = f->max_id;
    w->damaged = calloc(w->max_id, 1);
    w->by_id = calloc(w->max_id, sizeof *w->by_id);
    w->list = calloc(w->max_id, sizeof *w->list);
    return w;
}

static void damage_world_free(damage_world* w) {
    if (!w) return;
    free(w->damaged);
    free(w->by_id);
    free(w->list);
    free(w->events);
    free(w);
}

static void damage_set(damage_world* w, uint32_t id, uint8_t flags, uint8_t holes, uint32_t compartments,
                       uint32_t seed) {
    proto_vessel_damage* d = &w->by_id[id];
    memset(d, 0, sizeof *d);
    d->id = id;
    d->flags = flags;
    d->holes = holes;
    d->compartment_count = (uint8_t)compartments;
    for (uint32_t k = 0; k < compartments; k++) d->fill[k] = (uint8_t)((id * 13u + k * 40u + seed) % 256u);
    w->damaged[id] = 1;
}

static void damage_event(damage_world* w, uint64_t tick, uint32_t id, uint8_t kind) {
    if (w->event_count == w->event_cap) {
        w->event_cap = 2 * w->event_cap + 16;
        w->events = realloc(w->events, w->event_cap * sizeof *w->events);
    }
    proto_damage_event* e = &w->events[w->event_count++];
    memset(e, 0, sizeof *e);
    e->tick = tick;
    e->id = id;
    e->kind = kind;
    e->compartment = kind <= PROTO_DAMAGE_FULL ? (uint8_t)(tick % 5) : PROTO_DAMAGE_NO_COMPARTMENT;
    e->area = kind == PROTO_DAMAGE_BREACH ? 0.25f : 0.0f;
    e->point[0] = (float)(id % 7);
}

static void damage_list(damage_world* w, const fleet* f) {
    w->count = 0;
    if (w->demo) {
        for (uint32_t i = 0; i < f->n; i++)
            if (f->v[i].id % 4 == 0)
                damage_set(w, f->v[i].id, (uint8_t)(f->v[i].id % 8 == 0), 1, 5, (uint32_t)(f->tick / 20));
        for (uint32_t k = 0; k < 2 && f->n; k++)
            damage_event(w, f->tick, f->v[(f->tick * 7 + k * 31) % f->n].id, (uint8_t)((f->tick + k) % 4));
    }
    for (uint32_t i = 0; i < f->n; i++)
        if (w->damaged[f->v[i].id]) w->list[w->count++] = w->by_id[f->v[i].id];
}

static damage_world* g_damage; /* the damage step() gives the hub (NULL: none) */

static void step(view_hub* hub, fleet* f, nv_jobs* pool) {
    fleet_step(f);
    view_frame fr = fleet_frame(f);
    nv_error err;
    if (g_damage) {
        damage_list(g_damage, f);
        if (view_hub_set_damage(hub, g_damage->list, g_damage->count, g_damage->events, g_damage->event_count, &err))
            fail_msg("set damage: %s", err.message);
        g_damage->event_count = 0;
    }
    if (view_hub_encode(hub, &fr, pool, &err)) fail_msg("encode: %s", err.message);
    g_contact_count = 0;
}

/* ---- tests ---------------------------------------------------------------------- */

/* Within the view after a join: everything inside, nothing far outside. */
static void assert_covered(const link* l, const fleet* f, double margin) {
    for (uint32_t i = 0; i < f->n; i++) {
        double d = hypot(f->v[i].position[0] - l->cx, f->v[i].position[2] - l->cz);
        const proto_view_vessel* v = proto_view_decoder_find(l->dec, f->v[i].id);
        if (d < l->radius - margin && !v) fail_msg("vessel %u at %.0f m is not held", f->v[i].id, d);
        if (d > l->radius + margin && v) fail_msg("vessel %u at %.0f m is still held", f->v[i].id, d);
    }
}

static void join_then_follow(void** state) {
    (void)state;
    rng_state = 7;
    fleet* f = fleet_create(800, 2500.0, 1000);
    view_hub* hub = hub_new();
    link l;
    link_open(&l, hub, 1, 100.0, -50.0, 1000.0f, 256);
    l.ack_delay = 6;
    l.drop = 0.05;
    double worst = 0.0;
    uint64_t joined = 0;
    for (int t = 0; t < 1200; t++) {
        step(hub, f, NULL);
        link_tick(&l, f, &worst);
        if (!joined) {
            int all = 1;
            for (uint32_t i = 0; i < f->n && all; i++)
                if (hypot(f->v[i].position[0] - l.cx, f->v[i].position[2] - l.cz) < l.radius - 20.0)
                    all = proto_view_decoder_find(l.dec, f->v[i].id) != NULL;
            if (all) joined = f->tick;
        }
    }
    assert_true(joined > 0 && joined < 60); /* under a second */
    assert_covered(&l, f, 60.0);
    assert_true(l.last.has_settings == 0);
    /* 256 kbit/s over 20 s, give or take the quarter second of burst. */
    double kbps = 8.0 * (double)l.bytes / 20.0 / 1000.0;
    assert_true(kbps <= 256.0 * 1.02);
    print_message("joined in %llu ticks, %.1f kbit/s, %llu updates, worst error %.2f mm\n",
                  (unsigned long long)joined, kbps, (unsigned long long)l.updates, worst * 1000.0);
    link_close(&l);
    view_hub_destroy(hub);
    fleet_free(f);
}

/* The target density: 4,000 boats on the demo fleet's square
 * (half-width 45 sqrt(n) m), a 1 km view, 256 kbit/s. */
static void rates_at_target_density(void** state) {
    (void)state;
    rng_state = 11;
    fleet* f = fleet_create(4000, 45.0 * sqrt(4000.0), 4000);
    view_hub* hub = hub_new();
    link l;
    link_open(&l, hub, 9, 0.0, 0.0, 1000.0f, 256);
    l.ack_delay = 3;
    uint32_t* updates = calloc(f->max_id, sizeof *updates);
    uint64_t bytes0 = 0;
    for (int t = 0; t < 360; t++) {
        step(hub, f, NULL);
        int got = link_tick(&l, f, NULL);
        if (t == 119) bytes0 = l.bytes;
        if (t < 120 || !got) continue;
        uint32_t count;
        const proto_view_vessel* vs = proto_view_decoder_vessels(l.dec, &count);
        for (uint32_t k = 0; k < count; k++)
            if (vs[k].samples[0].tick == l.last.tick) updates[vs[k].id]++;
    }
    /* Over the last 4 s: near (300 m) at 30 Hz, in the view at 10 Hz. */
    double near_min = 1e9, view_min = 1e9;
    uint32_t near = 0, in_view = 0;
    for (uint32_t i = 0; i < f->n; i++) {
        double d = hypot(f->v[i].position[0], f->v[i].position[2]);
        double hz = updates[f->v[i].id] / 4.0;
        if (d < 290.0) near++, near_min = hz < near_min ? hz : near_min;
        if (d < 980.0) in_view++, view_min = hz < view_min ? hz : view_min;
    }
    double kbps = 8.0 * (double)(l.bytes - bytes0) / 4.0 / 1000.0;
    view_stats st;
    view_hub_stats(hub, &st);
    print_message("%u near: >= %.1f Hz; %u in the view: >= %.1f Hz; %.1f kbit/s; %.1f bits/record, %.0f records/update\n",
                  near, near_min, in_view, view_min, kbps, 8.0 * st.bytes / st.records, (double)st.records / st.updates);
    assert_true(near > 10 && in_view > 200);
    assert_true(near_min >= 30.0);
    assert_true(view_min >= 10.0);
    assert_true(kbps <= 256.0 * 1.02);
    free(updates);
    link_close(&l);
    view_hub_destroy(hub);
    fleet_free(f);
}

/* Leaves when the view moves, despawns as GONE, spawns as SPAWNED. */
static void leave_despawn_spawn(void** state) {
    (void)state;
    rng_state = 3;
    fleet* f = fleet_create(300, 1500.0, 400);
    view_hub* hub = hub_new();
    link l;
    link_open(&l, hub, 2, 0.0, 0.0, 800.0f, 512);
    l.ack_delay = 2;
    for (int t = 0; t < 120; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
    /* Despawn one held vessel, spawn one at the centre. */
    uint32_t gone_id = UINT32_MAX, spawned_id = f->next_id;
    for (uint32_t i = 0; i < f->n; i++)
        if (proto_view_decoder_find(l.dec, f->v[i].id)) {
            gone_id = f->v[i].id;
            fleet_remove(f, i);
            break;
        }
    fleet_add(f, 10.0, 10.0);
    int saw_gone = 0, saw_spawn = 0;
    for (int t = 0; t < 60; t++) {
        step(hub, f, NULL);
        if (!link_tick(&l, f, NULL)) continue;
        uint32_t n;
        const proto_view_event* ev = proto_view_decoder_events(l.dec, &n);
        for (uint32_t k = 0; k < n; k++) {
            saw_gone |= ev[k].id == gone_id && ev[k].kind == PROTO_VIEW_GONE;
            saw_spawn |= ev[k].id == spawned_id && ev[k].kind == PROTO_VIEW_SPAWNED;
        }
    }
    assert_true(saw_gone && saw_spawn);
    assert_null(proto_view_decoder_find(l.dec, gone_id));
    /* Move the view 3 km away: everything left, then the new area joins. */
    proto_view_settings s;
    memset(&s, 0, sizeof s);
    s.center[0] = 3000.0;
    s.radius = 800.0f;
    s.budget_kbps = 512;
    link_send_settings(&l, &s, 1);
    for (int t = 0; t < 240; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
    assert_covered(&l, f, 60.0);
    link_close(&l);
    view_hub_destroy(hub);
    fleet_free(f);
}

/* A client that stops acknowledging gets one keyframe a second (each
 * announcing the request port, as the first updates did), then
 * deltas again once it acknowledges. */
static void silent_client_falls_back(void** state) {
    (void)state;
    rng_state = 5;
    fleet* f = fleet_create(400, 1500.0, 400);
    view_hub* hub = hub_new();
    view_hub_set_command_port(hub, 7701); /* every keyframe says it */
    link l;
    link_open(&l, hub, 3, 0.0, 0.0, 1000.0f, 256);
    l.command_port = 7701;
    l.ack_delay = 2;
    for (int t = 0; t < 60; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
    l.silent = 1;
    uint64_t u0 = l.updates, k0 = l.keyframes;
    for (int t = 0; t < 300; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
    view_stats st;
    view_hub_stats(hub, &st);
    assert_int_equal(st.fallback, 1);
    uint64_t sent = l.updates - u0, keys = l.keyframes - k0;
    /* At most 32 deltas before the fallback, then one keyframe a second. */
    assert_true(sent <= 32 + 6 && keys >= 4 && keys <= 6);
    l.silent = 0;
    for (int t = 0; t < 180; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
    view_hub_stats(hub, &st);
    assert_int_equal(st.fallback, 0);
    assert_covered(&l, f, 60.0);
    link_close(&l);
    view_hub_destroy(hub);
    fleet_free(f);
}

static int owner_check(void* arg, uint32_t id, const proto_token* t) {
    (void)arg;
    return id == 5 && t->bytes[0] == 0xAB;
}

/* Refusals: acks of updates never sent, bad own vessels, floods; absurd
 * radius and budget are capped and echoed. */
static void refusals(void** state) {
    (void)state;
    rng_state = 9;
    fleet* f = fleet_create(50, 500.0, 50);
    view_config c;
    view_config_default(&c);
    c.tick_hz = HZ;
    c.max_radius = 1500.0f;
    c.max_budget_kbps = 512;
    view_hub* hub = NULL;
    assert_int_equal(view_hub_create(&hub, &c, owner_check, NULL, NULL), 0);
    link l;
    link_open(&l, hub, 4, 0.0, 0.0, 1e9f, 100000);
    step(hub, f, NULL);
    link_tick(&l, f, NULL);
    assert_true(l.last.has_settings);
    assert_true(l.last.settings.radius == 1500.0f && l.last.settings.budget_kbps == 512);
    /* An ack far in the future. */
    proto_view_request r;
    memset(&r, 0, sizeof r);
    r.ack = 1000000;
    assert_int_equal(proto_encode_view_request(&l.buf, &r, NULL), 0);
    nv_error err;
    assert_int_equal(view_handle(hub, 4, l.buf.data, l.buf.size, &err), -1);
    assert_non_null(strstr(err.message, "never sent"));
    const uint8_t* data;
    size_t size;
    assert_int_equal(view_refusal(hub, 4, &err, &data, &size), 0);
    proto_view_header h;
    assert_int_equal(proto_decode_view_update(l.dec, data, size, &h, NULL), 0);
    assert_int_equal(h.status, PROTO_STATUS_BAD_REQUEST);
    assert_non_null(strstr(h.error, "never sent"));
    /* Garbage. */
    assert_int_equal(view_handle(hub, 4, "nonsense-bytes", 14, &err), -1);
    /* Someone else's vessel. */
    proto_view_settings s;
    memset(&s, 0, sizeof s);
    s.radius = 500.0f;
    s.own_count = 1;
    s.own[0].id = 5;
    s.own[0].token.bytes[0] = 0xAC;
    link_send_settings(&l, &s, 0);
    s.own[0].token.bytes[0] = 0xAB;
    link_send_settings(&l, &s, 1);
    /* A flood of changes: the rate limit answers. */
    int refused = 0;
    for (int i = 0; i < 100; i++) {
        proto_view_request q;
        memset(&q, 0, sizeof q);
        q.has_settings = 1;
        q.settings = s;
        q.settings.center[0] = i;
        assert_int_equal(proto_encode_view_request(&l.buf, &q, NULL), 0);
        if (view_handle(hub, 4, l.buf.data, l.buf.size, &err)) {
            assert_int_equal(err.code, NV_EREFUSED);
            assert_int_equal(err.status, PROTO_STATUS_RATE_LIMITED);
            refused++;
        }
    }
    assert_true(refused >= 75);
    /* A view per connection, up to the cap. */
    assert_int_equal(view_handle(hub, 77, l.buf.data, l.buf.size, &err), -1);
    link_close(&l);
    view_hub_destroy(hub);
    fleet_free(f);
}

/* Hostile updates: every truncation of a real update is refused, and
 * thousands of corrupted ones never crash a decoder (ASan and UBSan run
 * this in make test-sanitize). */
static void hostile_updates(void** state) {
    (void)state;
    rng_state = 13;
    fleet* f = fleet_create(200, 800.0, 220);
    damage_world* w = damage_world_new(f);
    w->demo = 1; /* the session carries damage too */
    g_damage = w;
    view_hub* hub = hub_new();
    link l;
    link_open(&l, hub, 5, 0.0, 0.0, 700.0f, 256);
    l.ack_delay = 2;
    /* A session: keep every update's bytes. */
    enum { KEEP = 120 };
    uint8_t* msgs[KEEP];
    size_t sizes[KEEP];
    int kept = 0;
    for (int t = 0; t < 240 && kept < KEEP; t++) {
        step(hub, f, NULL);
        for (uint32_t i = 0; i < view_hub_output_count(hub) && kept < KEEP; i++) {
            uint32_t conn;
            const uint8_t* data;
            size_t size;
            view_hub_output(hub, i, &conn, &data, &size);
            msgs[kept] = malloc(size);
            memcpy(msgs[kept], data, size);
            sizes[kept++] = size;
        }
        link_tick(&l, f, NULL);
    }
    assert_true(kept > 60);
    /* Truncations of the first update (a join: many enters). */
    for (size_t n = 0; n < sizes[0]; n++) {
        proto_view_decoder* d = proto_create_view_decoder(4096, NULL);
        proto_view_header h;
        if (proto_decode_view_update(d, msgs[0], n, &h, NULL) == 0) fail_msg("a truncation to %zu bytes decoded", n);
        proto_destroy_view_decoder(d);
    }
    /* Corruptions: flip bytes, then go on with the rest of the session. */
    for (int trial = 0; trial < 300; trial++) {
        proto_view_decoder* d = proto_create_view_decoder(4096, NULL);
        int bad_at = (int)(frand() * kept);
        for (int k = 0; k < kept; k++) {
            uint8_t* m = msgs[k];
            size_t n = sizes[k];
            uint8_t* copy = NULL;
            if (k == bad_at) {
                copy = malloc(n);
                memcpy(copy, m, n);
                int flips = 1 + (int)(frand() * 4);
                for (int j = 0; j < flips; j++) copy[(size_t)(frand() * n)] ^= (uint8_t)(1u + frand() * 255);
                m = copy;
            }
            proto_view_header h;
            proto_decode_view_update(d, m, n, &h, NULL);
            uint32_t count;
            const proto_view_vessel* vs = proto_view_decoder_vessels(d, &count);
            for (uint32_t i = 0; i < count; i++) {
                double p[3];
                float q[4];
                proto_view_sample_at(&vs[i], (double)vs[i].samples[0].tick + 0.5, 2.0, p, q);
                assert_true(isfinite(p[0]) && isfinite(q[3]));
            }
            free(copy);
        }
        proto_destroy_view_decoder(d);
    }
    for (int k = 0; k < kept; k++) free(msgs[k]);
    g_damage = NULL;
    damage_world_free(w);
    link_close(&l);
    view_hub_destroy(hub);
    fleet_free(f);
}

/* The same bytes whatever the pool. */
static void same_bytes_at_any_thread_count(void** state) {
    (void)state;
    uint64_t digest[2] = {0, 0};
    for (int run = 0; run < 2; run++) {
        rng_state = 21;
        fleet* f = fleet_create(1500, 2000.0, 1500);
        damage_world* w = damage_world_new(f);
        w->demo = 1;
        g_damage = w;
        view_hub* hub = hub_new();
        link ls[6];
        for (int k = 0; k < 6; k++) link_open(&ls[k], hub, 100 + k, -1500.0 + 600.0 * k, 0.0, 900.0f, 128 + 64 * k);
        nv_jobs* pool = NULL;
        assert_int_equal(nv_jobs_create(&pool, run ? 4 : 1, NULL), 0);
        uint64_t h = 1469598103934665603ull;
        for (int t = 0; t < 200; t++) {
            step(hub, f, pool);
            for (uint32_t i = 0; i < view_hub_output_count(hub); i++) {
                uint32_t conn;
                const uint8_t* data;
                size_t size;
                view_hub_output(hub, i, &conn, &data, &size);
                h = (h ^ conn) * 1099511628211ull;
                /* Skip the send time; everything else counts. */
                for (size_t b = 0; b < size; b++) h = (h ^ data[b]) * 1099511628211ull;
            }
            for (int k = 0; k < 6; k++) link_tick(&ls[k], f, NULL);
        }
        digest[run] = h;
        nv_jobs_destroy(pool);
        for (int k = 0; k < 6; k++) link_close(&ls[k]);
        view_hub_destroy(hub);
        g_damage = NULL;
        damage_world_free(w);
        fleet_free(f);
    }
    assert_true(digest[0] == digest[1]);
}

/* ---- damage ---------------------------------------------------------------------- */

/* The client holds the damage of exactly the damaged vessels it holds, as
 * the hub has it now (fill: as of `fill_ok`, when given). */
static void assert_damage_held(const link* l, const damage_world* w, int exact_fill) {
    uint32_t n, damaged = 0;
    const proto_view_vessel* vs = proto_view_decoder_vessels(l->dec, &n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id = vs[i].id;
        const proto_vessel_damage* d = proto_view_decoder_damage(l->dec, id);
        if (!w->damaged[id]) {
            if (d) fail_msg("vessel %u is intact, the client holds damage", id);
            continue;
        }
        damaged++;
        if (!d) fail_msg("vessel %u is damaged and held, without its damage", id);
        const proto_vessel_damage* t = &w->by_id[id];
        if (d->flags != t->flags || d->holes != t->holes || d->compartment_count != t->compartment_count)
            fail_msg("vessel %u: flags %u holes %u compartments %u, expected %u %u %u", id, d->flags, d->holes,
                     d->compartment_count, t->flags, t->holes, t->compartment_count);
        if (exact_fill && memcmp(d->fill, t->fill, t->compartment_count) != 0) fail_msg("vessel %u: its fill differs", id);
    }
    uint32_t count;
    proto_view_decoder_damaged(l->dec, &count);
    assert_int_equal(count, damaged);
    if (!damaged) fail_msg("none of the %u vessels held is damaged", n);
}

/* Ticks (at most `limit`) until the client holds vessel id's damage as
 * `want` says (NULL: none). */
static int ticks_until(view_hub* hub, fleet* f, link* l, uint32_t id, const proto_vessel_damage* want, int limit) {
    for (int t = 1; t <= limit; t++) {
        step(hub, f, NULL);
        link_tick(l, f, NULL);
        const proto_vessel_damage* d = proto_view_decoder_damage(l->dec, id);
        if (want ? d && memcmp(d, want, sizeof *d) == 0 : d == NULL) return t;
    }
    fail_msg("vessel %u: the client did not get its damage within %d ticks", id, limit);
    return -1;
}

static uint32_t held_id(const link* l, const damage_world* w, int damaged, uint32_t not) {
    uint32_t n;
    const proto_view_vessel* vs = proto_view_decoder_vessels(l->dec, &n);
    double best = 1e18;
    uint32_t id = UINT32_MAX;
    /* The nearest to the centre: it stays in the view. */
    for (uint32_t i = 0; i < n; i++) {
        if (vs[i].id == not || (w->damaged[vs[i].id] != 0) != (damaged != 0)) continue;
        double d = hypot(vs[i].samples[0].position[0] - l->cx, vs[i].samples[0].position[2] - l->cz);
        if (d < best) best = d, id = vs[i].id;
    }
    assert_true(id != UINT32_MAX);
    return id;
}

/* Damage entries reach the client for the vessels it holds, and only
 * those: all of them within a second of joining and in every keyframe, a
 * new or changed flag or hole within an update or two, the water within a
 * second, a repaired vessel cleared; what leaves takes its damage along. */
static void damage_follows_held_vessels(void** state) {
    (void)state;
    rng_state = 17;
    fleet* f = fleet_create(300, 1500.0, 320);
    damage_world* w = damage_world_new(f);
    g_damage = w;
    for (uint32_t i = 0; i < f->n; i++)
        if (f->v[i].id % 5 == 0) damage_set(w, f->v[i].id, 0, (uint8_t)(1 + f->v[i].id % 3), 5, 0);
    view_hub* hub = hub_new();
    link l;
    link_open(&l, hub, 6, 0.0, 0.0, 800.0f, 512);
    l.ack_delay = 3;
    l.check_damage = 1;
    for (int t = 0; t < 60; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
    assert_damage_held(&l, w, 1);
    /* A held damaged vessel starts pumping: in the next update. */
    uint32_t x = held_id(&l, w, 1, UINT32_MAX);
    w->by_id[x].flags |= PROTO_DAMAGE_PUMPING;
    int pumps = ticks_until(hub, f, &l, x, &w->by_id[x], 4);
    /* A held intact vessel is holed: the same. */
    uint32_t y = held_id(&l, w, 0, x);
    damage_set(w, y, 0, 1, 5, 7);
    int holed = ticks_until(hub, f, &l, y, &w->by_id[y], 4);
    /* Water alone rises: within a second. */
    w->by_id[x].fill[0] = (uint8_t)(w->by_id[x].fill[0] + 50);
    int water = ticks_until(hub, f, &l, x, &w->by_id[x], 62);
    /* Sunk: at once. */
    w->by_id[x].flags |= PROTO_DAMAGE_SUNK_FLAG;
    int sunk = ticks_until(hub, f, &l, x, &w->by_id[x], 4);
    /* Pumped dry and no longer damaged (gone from the list): cleared. */
    w->damaged[y] = 0;
    int cleared = ticks_until(hub, f, &l, y, NULL, 4);
    print_message("pumps in %d ticks, a hole in %d, water in %d, sunk in %d, cleared in %d\n", pumps, holed, water, sunk,
                  cleared);
    /* Listed with nothing to say (pumps switched on, then off: no flags,
     * holes or water): its entry goes once and with the refreshes, not
     * in every update; the client holds no damage of it. */
    uint32_t z = held_id(&l, w, 0, y);
    damage_set(w, z, 0, 0, 5, 0);
    memset(w->by_id[z].fill, 0, sizeof w->by_id[z].fill);
    l.watch_id = z;
    uint64_t u0 = l.updates;
    for (int t = 0; t < 120; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
    assert_null(proto_view_decoder_damage(l.dec, z));
    print_message("a listed vessel without damage: %u entries in %llu updates\n", l.watch_entries,
                  (unsigned long long)(l.updates - u0));
    assert_true(l.watch_entries >= 1 && l.watch_entries <= 3);
    w->damaged[z] = 0;
    for (int t = 0; t < 62; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
    assert_damage_held(&l, w, 1);
    /* Silent: keyframes only, each with the damage of its vessels. */
    l.silent = 1;
    int keyframes = 0;
    for (int t = 0; t < 200; t++) {
        step(hub, f, NULL);
        if (link_tick(&l, f, NULL) && l.last.keyframe) {
            keyframes++;
            assert_damage_held(&l, w, 1);
        }
    }
    assert_true(keyframes >= 2);
    l.silent = 0;
    /* The view moves away: what left took its damage along; the new area's come. */
    proto_view_settings s;
    memset(&s, 0, sizeof s);
    const proto_vessel* vx = fleet_find(f, x);
    s.center[0] = vx->position[0] > 0.0 ? -1100.0 : 1100.0; /* x is 1,100 m away or more */
    s.radius = 800.0f;
    s.budget_kbps = 512;
    link_send_settings(&l, &s, 1);
    for (int t = 0; t < 120; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
    assert_null(proto_view_decoder_find(l.dec, x));
    assert_null(proto_view_decoder_damage(l.dec, x));
    assert_damage_held(&l, w, 1);
    view_stats st;
    view_hub_stats(hub, &st);
    assert_true(st.damage_entries >= l.damage_entries && l.damage_entries > 0);
    print_message("%llu damage entries in %llu of %llu updates\n", (unsigned long long)l.damage_entries,
                  (unsigned long long)l.damage_updates, (unsigned long long)l.updates);
    g_damage = NULL;
    link_close(&l);
    view_hub_destroy(hub);
    damage_world_free(w);
    fleet_free(f);
}

static int same_event(const proto_damage_event* a, const proto_damage_event* b) {
    return a->tick == b->tick && a->id == b->id && a->kind == b->kind && a->compartment == b->compartment;
}

/* Events of vessels in the view arrive exactly once, in order, though six
 * ticks pass between updates and a tenth of the updates are lost; those of
 * vessels far outside never; a burst beyond the cap keeps the newest. */
/* Contacts go to the views whose client has one of their vessels: those
 * of vessels near the centre all arrive, once, whole; those of vessels
 * far out never; a lost update's contacts are not sent again. */
static void contacts_of_vessels_in_view(void** state) {
    (void)state;
    rng_state = 23;
    fleet* f = fleet_create(300, 1500.0, 320);
    view_config c;
    view_config_default(&c);
    c.tick_hz = HZ;
    c.update_hz = 10.0; /* six ticks between updates: contacts wait in the view */
    view_hub* hub = NULL;
    assert_int_equal(view_hub_create(&hub, &c, NULL, NULL, NULL), 0);
    for (double drop = 0.0; drop < 0.5; drop += 0.3) {
        link l;
        link_open(&l, hub, 7, 0.0, 0.0, 700.0f, 256);
        l.ack_delay = 4;
        l.drop = drop;
        for (int t = 0; t < 60; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
        enum { GEN_MAX = 1024 };
        proto_contact* gen = calloc(GEN_MAX, sizeof *gen);
        double* dist = calloc(GEN_MAX, sizeof *dist);
        uint32_t ngen = 0;
        for (int t = 0; t < 300; t++) {
            /* two between vessels, one with the ground; the impulse tags each */
            for (uint32_t k = 0; k < 3; k++) {
                uint32_t i = (uint32_t)((f->tick * (5 + 4 * k) + 3 * k) % f->n), j = (i + 1 + k) % f->n;
                proto_contact* ct = &g_contacts[g_contact_count++];
                memset(ct, 0, sizeof *ct);
                ct->tick = f->tick + 1;
                ct->a = f->v[i].id;
                ct->b = k == 2 ? PROTO_CONTACT_GROUND : f->v[j].id;
                memcpy(ct->point, f->v[i].position, sizeof ct->point);
                ct->normal[1] = 1.0f;
                ct->closing_speed = 1.5f;
                ct->impulse = (float)ngen;
                gen[ngen] = *ct;
                double di = hypot(f->v[i].position[0], f->v[i].position[2]);
                double dj = k == 2 ? INFINITY : hypot(f->v[j].position[0], f->v[j].position[2]);
                dist[ngen++] = fmin(di, dj);
            }
            step(hub, f, NULL);
            link_tick(&l, f, NULL);
        }
        for (int t = 0; t < 30; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
        uint32_t near = 0, far = 0, arrived = 0;
        for (uint32_t g = 0; g < ngen; g++) {
            uint32_t found = 0;
            for (uint32_t k = 0; k < l.contact_count; k++)
                found += memcmp(&gen[g], &l.contacts[k], sizeof gen[g]) == 0;
            if (found > 1) fail_msg("contact %u arrived %u times", g, found);
            arrived += found;
            if (dist[g] < l.radius - 20.0) {
                if (!found && drop == 0.0) fail_msg("contact %u, %.0f m from the centre, never arrived", g, dist[g]);
                near++;
            } else if (dist[g] > l.radius + 100.0) {
                if (found) fail_msg("contact %u, %.0f m from the centre, arrived", g, dist[g]);
                far++;
            }
        }
        assert_true(near > 50 && far > 200);
        assert_int_equal(arrived, l.contact_count); /* nothing else arrived */
        print_message("drop %.1f: %u contacts near the view, %u far, %u arrived\n", drop, near, far, arrived);
        if (drop > 0.0) assert_true(arrived < near); /* the lost ones stay lost */
        free(gen);
        free(dist);
        view_close(hub, 7);
        link_close(&l);
    }
    view_hub_destroy(hub);
    fleet_free(f);
}

static void damage_events_exactly_once(void** state) {
    (void)state;
    rng_state = 19;
    fleet* f = fleet_create(300, 1500.0, 320);
    damage_world* w = damage_world_new(f);
    g_damage = w;
    view_config c;
    view_config_default(&c);
    c.tick_hz = HZ;
    c.update_hz = 10.0; /* six ticks between updates */
    view_hub* hub = NULL;
    assert_int_equal(view_hub_create(&hub, &c, NULL, NULL, NULL), 0);
    link l;
    link_open(&l, hub, 7, 0.0, 0.0, 700.0f, 256);
    l.ack_delay = 4;
    l.drop = 0.1;
    for (int t = 0; t < 60; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
    enum { GEN_MAX = 4096 };
    proto_damage_event* gen = calloc(GEN_MAX, sizeof *gen);
    double* dist = calloc(GEN_MAX, sizeof *dist);
    uint32_t ngen = 0;
    for (int t = 0; t < 600; t++) {
        /* Three events a tick, of vessels anywhere (next tick's positions are a tick away). */
        for (uint32_t k = 0; k < 3; k++) {
            uint32_t i = (uint32_t)((f->tick * (7 + 6 * k) + 11 * k) % f->n);
            damage_event(w, f->tick + 1, f->v[i].id, (uint8_t)((f->tick + k) % 4));
            gen[ngen] = w->events[w->event_count - 1];
            dist[ngen++] = hypot(f->v[i].position[0] - l.cx, f->v[i].position[2] - l.cz);
        }
        step(hub, f, NULL);
        link_tick(&l, f, NULL);
    }
    for (int t = 0; t < 120; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
    /* Each received once, in the order made; the near ones all, the far none. */
    uint32_t near = 0, far = 0, between = 0;
    for (uint32_t g = 0; g < ngen; g++) {
        uint32_t found = 0;
        for (uint32_t k = 0; k < l.event_count; k++) found += same_event(&gen[g], &l.events[k]);
        if (found > 1) fail_msg("event %u (vessel %u, tick %llu) arrived %u times", g, gen[g].id,
                                (unsigned long long)gen[g].tick, found);
        if (dist[g] < l.radius - 20.0) {
            if (!found) fail_msg("event %u of vessel %u at %.0f m never arrived", g, gen[g].id, dist[g]);
            near++;
        } else if (dist[g] > l.radius + 100.0) {
            if (found) fail_msg("event %u of vessel %u at %.0f m arrived", g, gen[g].id, dist[g]);
            far++;
        } else {
            between++;
        }
    }
    assert_true(near > 100 && far > 300);
    /* Nothing else arrived (a lost update's events come with a later one). */
    uint32_t strays = 0;
    for (uint32_t k = 0; k < l.event_count; k++) {
        int known = 0;
        for (uint32_t g = 0; g < ngen && !known; g++) known = same_event(&gen[g], &l.events[k]);
        strays += !known;
    }
    assert_int_equal(strays, 0);
    view_stats st;
    view_hub_stats(hub, &st);
    print_message("%u near, %u far, %u at the edge; %u received, %llu sent (lost updates' again), %llu updates\n",
                  near, far, between, l.event_count, (unsigned long long)st.damage_events,
                  (unsigned long long)l.updates);
    assert_true(st.damage_events > l.event_count); /* some went twice: their first update was lost */
    assert_int_equal(st.damage_events_dropped, 0);
    /* A burst over the cap in one tick: the newest PROTO_VIEW_MAX_DAMAGE_EVENTS go. */
    l.drop = 0.0;
    uint32_t before = l.event_count, id = held_id(&l, w, 0, UINT32_MAX);
    for (uint32_t k = 0; k < PROTO_VIEW_MAX_DAMAGE_EVENTS + 100; k++) damage_event(w, f->tick + 1, id, PROTO_DAMAGE_FULL);
    for (int t = 0; t < 30; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
    assert_int_equal(l.event_count - before, PROTO_VIEW_MAX_DAMAGE_EVENTS);
    view_hub_stats(hub, &st);
    assert_int_equal(st.damage_events_dropped, 100);
    free(gen);
    free(dist);
    g_damage = NULL;
    link_close(&l);
    view_hub_destroy(hub);
    damage_world_free(w);
    fleet_free(f);
}

/* What damage costs on the wire, against the encoder's estimates, and a
 * view full of damage keeping its budget. */
static void damage_bytes(void** state) {
    (void)state;
    proto_buf b = {0};
    proto_view_header h;
    memset(&h, 0, sizeof h);
    h.seq = 5;
    h.tick = 1000;
    assert_int_equal(proto_wrap_view_update(&b, &h, NULL, 0, NULL), 0);
    size_t empty = b.size;
    proto_vessel_damage d[40];
    memset(d, 0, sizeof d);
    const uint32_t sizes[] = {1, 5, 7, 8, 64};
    for (uint32_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (uint32_t i = 0; i < 40; i++) {
            d[i].id = 1000 + 17 * i;
            d[i].flags = (uint8_t)(i % 3);
            d[i].holes = (uint8_t)(i % 4);
            d[i].compartment_count = (uint8_t)sizes[s];
            for (uint32_t k = 0; k < sizes[s]; k++) d[i].fill[k] = (uint8_t)(i + k);
        }
        h.damage = d;
        h.damage_count = 1;
        assert_int_equal(proto_wrap_view_update(&b, &h, NULL, 0, NULL), 0);
        size_t first = b.size - empty;
        h.damage_count = 40;
        assert_int_equal(proto_wrap_view_update(&b, &h, NULL, 0, NULL), 0);
        double per = (double)(b.size - empty) / 40.0;
        print_message("a damage entry of %u compartments: %.1f bytes in a list of 40, %zu alone (estimate %u)\n",
                      sizes[s], per, first, view_damage_bytes(&d[0]));
        /* The estimate holds for a list of any length, within a word, plus the list's own bytes. */
        assert_true(per <= view_damage_bytes(&d[0]) && per >= view_damage_bytes(&d[0]) - 4.0);
        assert_true(first <= view_damage_bytes(&d[0]) + VIEW_DAMAGE_LIST_BYTES);
    }
    h.damage_count = 0;
    proto_damage_event ev[40];
    memset(ev, 0, sizeof ev);
    for (uint32_t i = 0; i < 40; i++) ev[i].id = i, ev[i].tick = 999, ev[i].kind = (uint8_t)(i % 5);
    h.damage_events = ev;
    h.damage_event_count = 1;
    assert_int_equal(proto_wrap_view_update(&b, &h, NULL, 0, NULL), 0);
    size_t one = b.size;
    h.damage_event_count = 40;
    assert_int_equal(proto_wrap_view_update(&b, &h, NULL, 0, NULL), 0);
    print_message("damage events: the first %zu bytes, each more %.1f\n", one - empty, (double)(b.size - one) / 39.0);
    assert_true(b.size - one == 39 * VIEW_DAMAGE_EVENT_BYTES);
    assert_true(one - empty <= VIEW_DAMAGE_LIST_BYTES + VIEW_DAMAGE_EVENT_BYTES);
    /* Over the cap: the encoder refuses what a decoder would. */
    proto_damage_event many[PROTO_VIEW_MAX_DAMAGE_EVENTS + 1];
    memset(many, 0, sizeof many);
    h.damage_events = many;
    h.damage_event_count = PROTO_VIEW_MAX_DAMAGE_EVENTS + 1;
    assert_int_equal(proto_wrap_view_update(&b, &h, NULL, 0, NULL), -1);
    proto_free_buf(&b);

    /* A quarter of a dense fleet damaged, water moving, two events a tick: 256 kbit/s still. */
    rng_state = 23;
    fleet* f = fleet_create(1500, 2000.0, 1500);
    damage_world* w = damage_world_new(f);
    w->demo = 1;
    g_damage = w;
    view_hub* hub = hub_new();
    link l;
    link_open(&l, hub, 8, 0.0, 0.0, 1000.0f, 256);
    l.ack_delay = 3;
    l.check_damage = 1;
    for (int t = 0; t < 360; t++) step(hub, f, NULL), link_tick(&l, f, NULL);
    double kbps = 8.0 * (double)l.bytes / 6.0 / 1000.0;
    view_stats st;
    view_hub_stats(hub, &st);
    print_message("%.1f kbit/s with %llu damage entries and %u events in %llu updates\n", kbps,
                  (unsigned long long)l.damage_entries, l.event_count, (unsigned long long)l.updates);
    assert_true(kbps <= 256.0 * 1.02);
    assert_true(l.bytes == st.bytes && l.damage_entries == st.damage_entries && l.event_count == st.damage_events);
    assert_true(l.damage_entries > 200 && l.event_count > 100);
    assert_damage_held(&l, w, 0);
    g_damage = NULL;
    link_close(&l);
    view_hub_destroy(hub);
    damage_world_free(w);
    fleet_free(f);
}

/* The hub refuses damage it could not send. */
static void damage_refused(void** state) {
    (void)state;
    view_hub* hub = hub_new();
    proto_vessel_damage d;
    memset(&d, 0, sizeof d);
    d.id = 3;
    d.compartment_count = PROTO_MAX_COMPARTMENTS + 1;
    nv_error err;
    assert_int_equal(view_hub_set_damage(hub, &d, 1, NULL, 0, &err), -1);
    assert_non_null(strstr(err.message, "compartments"));
    d.compartment_count = 2;
    proto_damage_event e;
    memset(&e, 0, sizeof e);
    e.kind = 9;
    assert_int_equal(view_hub_set_damage(hub, &d, 1, &e, 1, &err), -1);
    assert_non_null(strstr(err.message, "kind"));
    assert_int_equal(view_hub_set_damage(hub, NULL, 2, NULL, 0, &err), -1);
    e.kind = PROTO_DAMAGE_SUNK;
    assert_int_equal(view_hub_set_damage(hub, &d, 1, &e, 1, &err), 0);
    view_hub_destroy(hub);
}

/* The integer prediction and rounding both ends share. */
static void integer_rules(void** state) {
    (void)state;
    assert_int_equal(proto_view_div_round(5, 2), 3);   /* 2.5 -> 3 */
    assert_int_equal(proto_view_div_round(-5, 2), -2); /* -2.5 -> -2 */
    assert_int_equal(proto_view_div_round(-7, 3), -2);
    assert_int_equal(proto_view_div_round(7, 3), 2);
    assert_int_equal(proto_view_div_round(0, 5), 0);
    proto_view_base b;
    memset(&b, 0, sizeof b);
    b.count = 2;
    b.s[0].pos[0] = 100;
    b.s[0].tick = 10;
    b.s[1].pos[0] = 130;
    b.s[1].tick = 13;
    proto_vq p;
    proto_view_predict(&b, 17, &p);
    assert_int_equal(p.pos[0], 170);
    proto_view_predict(&b, 13 + PROTO_VIEW_PREDICT_MAX_TICKS + 1, &p);
    assert_int_equal(p.pos[0], 130); /* too far ahead: no extrapolation */
}

int main(int argc, char** argv) {
    if (argc > 1) cmocka_set_test_filter(argv[1]); /* one test, e.g. under ThreadSanitizer */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integer_rules),
        cmocka_unit_test(join_then_follow),
        cmocka_unit_test(rates_at_target_density),
        cmocka_unit_test(leave_despawn_spawn),
        cmocka_unit_test(silent_client_falls_back),
        cmocka_unit_test(refusals),
        cmocka_unit_test(hostile_updates),
        cmocka_unit_test(same_bytes_at_any_thread_count),
        cmocka_unit_test(damage_follows_held_vessels),
        cmocka_unit_test(contacts_of_vessels_in_view),
        cmocka_unit_test(damage_events_exactly_once),
        cmocka_unit_test(damage_bytes),
        cmocka_unit_test(damage_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
