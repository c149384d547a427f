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

#include "proto_view.h"
#include "view.h"

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

static view_frame fleet_frame(const fleet* f) {
    view_frame fr = {f->tick, (double)f->tick / HZ, 0, f->v, f->n};
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
    proto_view_header last;
    double cx, cz, radius;      /* as set */
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
        got = 1;
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

static void step(view_hub* hub, fleet* f, jobs* pool) {
    fleet_step(f);
    view_frame fr = fleet_frame(f);
    nv_error err;
    if (view_hub_encode(hub, &fr, pool, &err)) fail_msg("encode: %s", err.message);
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

/* A client that stops acknowledging gets one keyframe a second, then
 * deltas again once it acknowledges. */
static void silent_client_falls_back(void** state) {
    (void)state;
    rng_state = 5;
    fleet* f = fleet_create(400, 1500.0, 400);
    view_hub* hub = hub_new();
    link l;
    link_open(&l, hub, 3, 0.0, 0.0, 1000.0f, 256);
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
        view_hub* hub = hub_new();
        link ls[6];
        for (int k = 0; k < 6; k++) link_open(&ls[k], hub, 100 + k, -1500.0 + 600.0 * k, 0.0, 900.0f, 128 + 64 * k);
        jobs* pool = NULL;
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
        fleet_free(f);
    }
    assert_true(digest[0] == digest[1]);
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
