// SPDX-License-Identifier: MIT
#include "pview.h"
#include "clock.h"

#include <math.h>
#include <nng/nng.h>
#include <nng/supplemental/util/platform.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grow.h"
#include "idmap.h"

#define PVIEW_NOT_YET UINT64_MAX
#define PVIEW_UPDATE_RING 64   /* updates kept until the truth of their tick came */
#define PVIEW_TRUTH_WAIT 60    /* ticks the truth waits for a view that sends nothing */

/* What one boat did for this player during the window, counted by whole
 * seconds (tick_hz ticks from the window's start): a second counts for a
 * zone when the truth had the boat in it at every tick of that second, and
 * its rate is the updates in those seconds over their number. Whole
 * seconds, not ticks: a boat sent every other tick at 60 Hz is updated 30
 * times in every second, where updates / ticks near drifts below 30 with
 * the parity of its stay. */
typedef struct pview_boat {
    uint32_t id;
    uint64_t second;                      /* the second being counted (tick - first) / hz */
    uint32_t sec_near, sec_view;          /* ticks of it in the zone */
    uint32_t sec_near_updates, sec_view_updates;
    uint32_t near_seconds, view_seconds;  /* whole seconds in the zone */
    uint32_t near_updates, view_updates;  /* updates in those seconds */
} pview_boat;

/* The vessels one update carried (sorted ids), until the truth of its tick comes. */
typedef struct pview_update {
    uint64_t tick;         /* PVIEW_NOT_YET: none */
    uint32_t* ids;
    uint32_t count, cap;
} pview_update;

/* A held vessel reconstructed at the playout tick (the library's
 * interpolation), awaiting the truth of that tick. */
typedef struct pview_state {
    uint32_t id;
    int drawn;                 /* its samples reach back to the playout tick */
    double position[3];
} pview_state;


struct pview {
    pview_config cfg;
    nvc_vessel own[PROTO_VIEW_MAX_OWN];
    nvc_view* view;
    nng_thread* thread;
    atomic_int stop;
    _Atomic uint64_t first_tick, end_tick;  /* the window [first, end) */
    uint64_t error_stride;     /* update ticks between error samples */
    uint64_t delay_ticks;      /* the playout's delay */
    uint32_t second_ticks;     /* ticks of a second, for the update rates */
    double opened;             /* s, monotonic */
    /* the thread's */
    uint64_t next_truth;       /* PVIEW_NOT_YET until the window starts */
    uint64_t next_error;
    uint64_t last_tick;        /* the newest update's */
    uint64_t last_bytes;
    pview_state* states;
    uint32_t nstates, states_cap;
    uint64_t pending_tick;     /* the playout tick of states, while pending */
    int pending;
    pview_update updates[PVIEW_UPDATE_RING];
    pview_boat* boats;
    uint32_t nboats, boats_cap;
    idmap ids;                 /* id -> boats[] */
    hist err_near, err_far;
    samples latency;
    pview_totals t;
};

static int pview_in_window(const pview* p, uint64_t tick) {
    return tick >= atomic_load(&p->first_tick) && tick < atomic_load(&p->end_tick);
}

static pview_boat* pview_boat_get(pview* p, uint32_t id) {
    uint32_t i;
    if (idmap_get(&p->ids, id, &i)) return &p->boats[i];
    if (GROW(&p->boats, &p->boats_cap, p->nboats + 1, 256)) return NULL;
    if (idmap_put(&p->ids, id, p->nboats)) return NULL;
    pview_boat* b = &p->boats[p->nboats++];
    memset(b, 0, sizeof *b);
    b->id = id;
    return b;
}

/* The second a boat was being counted in is over: it counts where the boat
 * spent all of it. */
static void pview_boat_close_second(const pview* p, pview_boat* b) {
    if (b->sec_near == p->second_ticks) {
        b->near_seconds++;
        b->near_updates += b->sec_near_updates;
    }
    if (b->sec_view == p->second_ticks) {
        b->view_seconds++;
        b->view_updates += b->sec_view_updates;
    }
    b->sec_near = b->sec_view = b->sec_near_updates = b->sec_view_updates = 0;
}

/* Squared distance in the horizontal plane to the nearest of n centres:
 * the server's distance (views are discs around the own boats). */
static double pview_dist2(const double c[][2], uint32_t n, double x, double z) {
    double best = INFINITY;
    for (uint32_t i = 0; i < n; i++) {
        double dx = x - c[i][0], dz = z - c[i][1], d = dx * dx + dz * dz;
        if (d < best) best = d;
    }
    return best;
}

/* A player without boats (its spawns were refused) looks at a fixed point. */
static uint32_t pview_centre_fixed(const pview* p, double c[][2]) {
    c[0][0] = p->cfg.centre[0];
    c[0][1] = p->cfg.centre[1];
    return 1;
}

/* The own boats where the truth had them at a locked tick. */
static uint32_t pview_centres_truth(pview* p, uint64_t tick, double c[][2]) {
    if (!p->cfg.own_count) return pview_centre_fixed(p, c);
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->cfg.own_count; i++) {
        const proto_vessel* v = truth_find(p->cfg.truth, tick, p->own[i].id);
        if (!v) continue;
        c[n][0] = v->position[0];
        c[n][1] = v->position[2];
        n++;
    }
    return n;
}

static int pview_cmp_id(const void* a, const void* b) {
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

/* ---- per tick: which boats the truth had near and in view, which the view carried ---- */

/* The ids the view's update of `tick` carried, or NULL (none came, or
 * it is no longer kept). */
static const pview_update* pview_update_of(const pview* p, uint64_t tick) {
    const pview_update* u = &p->updates[tick % PVIEW_UPDATE_RING];
    return u->tick == tick ? u : NULL;
}

static void pview_truth_tick(pview* p, uint64_t tick) {
    const proto_snapshot* s = truth_lock(p->cfg.truth, tick);
    if (!s) {
        p->t.truth_missing++;
        return;
    }
    double c[PROTO_VIEW_MAX_OWN][2];
    uint32_t n = pview_centres_truth(p, tick, c);
    double r2 = (double)p->cfg.radius * p->cfg.radius, near2 = PVIEW_NEAR_M * PVIEW_NEAR_M;
    const pview_update* u = pview_update_of(p, tick);
    if (!n) p->t.truth_missing++; /* its own boats are not in the world: no view to speak of */
    for (uint32_t i = 0; n && i < s->vessel_count; i++) {
        double d2 = pview_dist2(c, n, s->vessels[i].position[0], s->vessels[i].position[2]);
        if (d2 > r2) continue;
        pview_boat* b = pview_boat_get(p, s->vessels[i].id);
        if (!b) break;
        int near = d2 < near2;
        int carried = u && bsearch(&b->id, u->ids, u->count, sizeof *u->ids, pview_cmp_id);
        uint64_t second = (tick - atomic_load(&p->first_tick)) / p->second_ticks;
        if (second != b->second) {
            pview_boat_close_second(p, b);
            b->second = second;
        }
        b->sec_view++;
        b->sec_near += (uint32_t)near;
        b->sec_view_updates += (uint32_t)carried;
        b->sec_near_updates += (uint32_t)(carried && near);
    }
    truth_unlock(p->cfg.truth, tick);
}

/* Every tick of the window that both the truth and the view have by now
 * (or that the view skipped: it is far enough behind the truth). */
static void pview_catch_up(pview* p, int final) {
    uint64_t first = atomic_load(&p->first_tick), end = atomic_load(&p->end_tick), newest;
    if (first == PVIEW_NOT_YET || end <= first || !truth_newest(p->cfg.truth, &newest)) return;
    if (p->next_truth == PVIEW_NOT_YET) p->next_truth = first;
    uint64_t last = newest < end ? newest : end - 1;
    if (!final && p->last_tick < last && last - p->last_tick < PVIEW_TRUTH_WAIT) last = p->last_tick;
    for (; p->next_truth <= last; p->next_truth++) pview_truth_tick(p, p->next_truth);
}

/* ---- the view's side ---------------------------------------------------------------- */

/* Which vessels this update carried: the truth of its tick says where they were. */
static void pview_keep_update(pview* p, uint64_t tick) {
    uint32_t count;
    const proto_view_vessel* vs = nvc_view_vessels(p->view, &count);
    pview_update* u = &p->updates[tick % PVIEW_UPDATE_RING];
    u->tick = PVIEW_NOT_YET;
    u->count = 0;
    if (GROW(&u->ids, &u->cap, count, 0)) return;
    for (uint32_t i = 0; i < count; i++)
        if (vs[i].samples[0].tick == tick) u->ids[u->count++] = vs[i].id;
    qsort(u->ids, u->count, sizeof *u->ids, pview_cmp_id);
    u->tick = tick;
}

/* ---- the client's playout ------------------------------------------------------------ */

/* The held vessels at the playout tick, as a client would draw them; the
 * truth of that tick may come later. */
static void pview_take_states(pview* p, uint64_t playout) {
    uint32_t count;
    const proto_view_vessel* vs = nvc_view_vessels(p->view, &count);
    if (GROW(&p->states, &p->states_cap, count, 0)) return;
    p->nstates = 0;
    for (uint32_t i = 0; i < count; i++) {
        pview_state* s = &p->states[p->nstates++];
        float q[4];
        s->id = vs[i].id;
        /* A vessel that came after the playout tick is not drawn yet. */
        s->drawn = vs[i].samples[vs[i].sample_count - 1].tick <= playout;
        proto_view_sample_at(&vs[i], (double)playout, PVIEW_EXTRAPOLATE_TICKS, s->position, q);
    }
    p->pending_tick = playout;
    p->pending = 1;
}

static double pview_dist3(const double a[3], const double b[3]) {
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* The pending states against the truth, once it has their tick. */
static void pview_check_states(pview* p) {
    if (!p->pending) return;
    uint64_t tick = p->pending_tick, newest;
    const proto_snapshot* s = truth_lock(p->cfg.truth, tick);
    if (!s) {
        /* Not there yet, or lost for good. */
        if (truth_newest(p->cfg.truth, &newest) && newest > tick + 2) p->pending = 0;
        return;
    }
    p->pending = 0;
    double c[PROTO_VIEW_MAX_OWN][2];
    uint32_t n = pview_centres_truth(p, tick, c);
    double r2 = (double)p->cfg.radius * p->cfg.radius, near2 = PVIEW_NEAR_M * PVIEW_NEAR_M;
    for (uint32_t i = 0; n && i < p->nstates; i++) {
        const pview_state* st = &p->states[i];
        const proto_vessel* v = truth_find(p->cfg.truth, tick, st->id);
        if (!v) continue;
        double d2 = pview_dist2(c, n, v->position[0], v->position[2]);
        if (d2 > r2) continue;
        if (st->drawn) hist_add(d2 < near2 ? &p->err_near : &p->err_far, pview_dist3(st->position, v->position));
    }
    truth_unlock(p->cfg.truth, tick);
}

/* Joined when the view holds every boat the truth has well inside it, at
 * the update's tick or the newest truth before it (the full stream may
 * come a little after the view's update; the margin covers the metres a
 * boat makes meanwhile). */
static void pview_check_join(pview* p, uint64_t tick) {
    uint64_t newest;
    if (!truth_newest(p->cfg.truth, &newest)) return;
    uint64_t t = tick < newest ? tick : newest;
    const proto_snapshot* s = NULL;
    for (int k = 0; k < 30 && !(s = truth_lock(p->cfg.truth, t)) && t; k++) t--;
    if (!s) return;
    double c[PROTO_VIEW_MAX_OWN][2];
    uint32_t n = pview_centres_truth(p, t, c);
    double lim = p->cfg.radius - PVIEW_JOIN_MARGIN_M, lim2 = lim > 0.0 ? lim * lim : 0.0;
    int all = n > 0;
    for (uint32_t i = 0; all && i < s->vessel_count; i++)
        if (pview_dist2(c, n, s->vessels[i].position[0], s->vessels[i].position[2]) <= lim2 &&
            !nvc_view_find(p->view, s->vessels[i].id))
            all = 0;
    truth_unlock(p->cfg.truth, t);
    if (!all) return;
    p->t.joined = 1;
    p->t.join_ms = (clock_mono_s() - p->opened) * 1e3;
}

static void pview_on_update(pview* p, const proto_view_header* h) {
    uint64_t now_ns = clock_wall_ns();
    nvc_view_counts c;
    nvc_view_counts_get(p->view, &c);
    uint64_t bytes = c.bytes - p->last_bytes;
    p->last_bytes = c.bytes;
    p->last_tick = h->tick;
    if (!p->t.joined) pview_check_join(p, h->tick);
    if (!pview_in_window(p, h->tick)) return;
    uint32_t held;
    nvc_view_vessels(p->view, &held);
    p->t.updates++;
    p->t.bytes += bytes;
    p->t.keyframes += (uint64_t)h->keyframe;
    p->t.held_sum += held;
    /* A clock step between the hosts can put the send time ahead of now. */
    samples_add(&p->latency, now_ns >= h->send_time_ns ? (double)(now_ns - h->send_time_ns) * 1e-6 : 0.0);
    pview_keep_update(p, h->tick);
    if (h->tick >= p->next_error && h->tick >= p->delay_ticks && pview_in_window(p, h->tick - p->delay_ticks)) {
        p->next_error = h->tick + p->error_stride;
        pview_take_states(p, h->tick - p->delay_ticks);
    }
}

static void pview_on_error(pview* p, const nv_error* e) {
    snprintf(p->t.last_error, sizeof p->t.last_error, "view: %s", e->message);
    /* A connection that is gone (nng redials) must not make this a busy loop. */
    if (e->code == NV_ECLOSED || e->code == NV_ECONNECT) nng_msleep(50);
}

static void pview_run(void* arg) {
    pview* p = arg;
    double stop_at = 0.0;
    /* Done once the window's last tick came (every player at once, when
     * the window ends), or a little after pview_stop when it does not come. */
    while (p->last_tick + 1 < atomic_load(&p->end_tick)) {
        if (atomic_load(&p->stop)) {
            if (stop_at == 0.0) stop_at = clock_mono_s();
            if (clock_mono_s() - stop_at > 0.3) break;
        }
        proto_view_header h;
        nv_error e;
        /* Updates come every tick or so: the timeout only keeps the truth's
         * side going without them. Short ones cost: nng's timer thread then
         * spins on the clock. */
        if (nvc_view_poll(p->view, 100, &h, &e) == 0) pview_on_update(p, &h);
        else if (e.code != NV_ETIMEDOUT) pview_on_error(p, &e);
        pview_catch_up(p, 0);
        pview_check_states(p);
    }
    pview_catch_up(p, 1);
    pview_check_states(p);
}

static uint64_t pview_ticks(double seconds, double hz) {
    double n = floor(seconds * hz + 0.5);
    return n < 1.0 ? 1 : (uint64_t)n;
}

int pview_start(pview** out, const pview_config* cfg, char* err, size_t errlen) {
    *out = NULL;
    pview* p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    p->cfg = *cfg;
    if (p->cfg.own_count > PROTO_VIEW_MAX_OWN) p->cfg.own_count = PROTO_VIEW_MAX_OWN;
    memcpy(p->own, cfg->own, p->cfg.own_count * sizeof *p->own);
    p->cfg.own = p->own;
    p->error_stride = pview_ticks(1.0 / PVIEW_ERROR_HZ, cfg->tick_hz);
    p->delay_ticks = pview_ticks(PVIEW_DELAY_S, cfg->tick_hz);
    p->second_ticks = (uint32_t)pview_ticks(1.0, cfg->tick_hz);
    atomic_store(&p->first_tick, PVIEW_NOT_YET);
    atomic_store(&p->end_tick, PVIEW_NOT_YET);
    p->next_truth = PVIEW_NOT_YET;
    for (int i = 0; i < PVIEW_UPDATE_RING; i++) p->updates[i].tick = PVIEW_NOT_YET;
    nvc_view_options o;
    nvc_view_options_default(&o);
    o.url = cfg->url;
    o.radius = cfg->radius;
    o.budget_kbps = cfg->budget_kbps;
    o.own = p->own;
    o.own_count = p->cfg.own_count;
    o.follow_own = p->cfg.own_count > 0;
    o.center[0] = cfg->centre[0];
    o.center[1] = cfg->centre[1];
    nv_error e;
    p->opened = clock_mono_s();
    if (nvc_view_open(&p->view, &o, &e)) {
        snprintf(err, errlen, "view: %s", e.message);
        pview_free(p);
        return -1;
    }
    if (nng_thread_create(&p->thread, pview_run, p) != 0) {
        snprintf(err, errlen, "cannot start a thread");
        pview_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

void pview_measure(pview* p, uint64_t first_tick) { atomic_store(&p->first_tick, first_tick); }

void pview_end(pview* p, uint64_t end_tick) { atomic_store(&p->end_tick, end_tick); }

void pview_stop(pview* p) {
    if (!p || !p->thread) return;
    atomic_store(&p->stop, 1);
    nng_thread_destroy(p->thread); /* joins */
    p->thread = NULL;
}

void pview_totals_get(pview* p, pview_totals* out) {
    *out = p->t;
    uint64_t first = atomic_load(&p->first_tick), end = atomic_load(&p->end_tick);
    out->window_ticks = first != PVIEW_NOT_YET && end != PVIEW_NOT_YET && end > first ? end - first : 0;
    if (p->view && !p->thread) {
        nvc_view_counts c;
        nvc_view_counts_get(p->view, &c);
        out->refusals = c.refusals;
        out->undecodable = c.undecodable;
    }
}

void pview_rates(pview* p, double min_s, double* near_hz, double* view_hz) {
    *near_hz = *view_hz = NAN;
    for (uint32_t i = 0; i < p->nboats; i++) {
        pview_boat* b = &p->boats[i];
        pview_boat_close_second(p, b); /* the last one, if it was whole */
        double near = b->near_updates / (double)b->near_seconds, view = b->view_updates / (double)b->view_seconds;
        if (b->near_seconds >= min_s && !(near >= *near_hz)) *near_hz = near;
        if (b->view_seconds >= min_s && !(view >= *view_hz)) *view_hz = view;
    }
}

const hist* pview_error_near(const pview* p) { return &p->err_near; }
const hist* pview_error_far(const pview* p) { return &p->err_far; }
const samples* pview_latency_ms(const pview* p) { return &p->latency; }

void pview_free(pview* p) {
    if (!p) return;
    atomic_store(&p->end_tick, 0); /* nothing more to wait for */
    pview_stop(p);
    nvc_view_close(p->view);
    free(p->states);
    for (int i = 0; i < PVIEW_UPDATE_RING; i++) free(p->updates[i].ids);
    free(p->boats);
    idmap_free(&p->ids);
    samples_free(&p->latency);
    free(p);
}
