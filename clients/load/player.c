// SPDX-License-Identifier: MIT
#include "player.h"
#include "clock.h"

#include <math.h>
#include <nng/nng.h>
#include <nng/supplemental/util/platform.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "naval_client.h"

#define PLAYER_PI 3.14159265358979323846

typedef struct boat {
    nvc_vessel v;
    double throttle_period, rudder_period, phase;
    double jump;            /* a random offset added to the rudder, changed now and then */
} boat;

struct player {
    player_config cfg;
    nvc_client* client;
    sub_stream* sub;
    pview* view;
    boat* boats;
    uint32_t nboats;
    uint64_t rng;
    nng_thread* thread;
    atomic_int stop, measuring;
    nng_mtx* lock;          /* guards totals and rtt */
    player_totals totals;
    samples rtt;
};

static double player_random(uint64_t* st) {
    uint64_t z = (*st += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}

static void player_error(player* p, const nv_error* e, const char* what, int setup) {
    nng_mtx_lock(p->lock);
    if (setup) p->totals.setup_errors++;
    snprintf(p->totals.last_error, sizeof p->totals.last_error, "%s: %s", what, e->message);
    nng_mtx_unlock(p->lock);
}

static void player_steer(void* arg) {
    player* p = arg;
    double t0 = clock_mono_s(), period = 1.0 / p->cfg.input_hz, next = t0;
    while (!atomic_load(&p->stop)) {
        double now = clock_mono_s();
        if (now < next) {
            double wait = (next - now) * 1e3;
            nng_msleep((nng_duration)(wait < 50.0 ? wait + 0.5 : 50.0)); /* wake often enough to stop */
            continue;
        }
        /* Behind schedule (slow answers): skip rounds rather than burst. */
        next = next + period < now ? now + period : next + period;
        double t = now - t0;
        for (uint32_t i = 0; i < p->nboats && !atomic_load(&p->stop); i++) {
            boat* b = &p->boats[i];
            if (player_random(&p->rng) < 0.2 * period) b->jump = 0.6 * (2.0 * player_random(&p->rng) - 1.0);
            float throttle = (float)(0.55 + 0.45 * sin(2.0 * PLAYER_PI * t / b->throttle_period + b->phase));
            double r = sin(2.0 * PLAYER_PI * t / b->rudder_period + 2.0 * b->phase) + b->jump;
            float rudder = (float)(r > 1.0 ? 1.0 : r < -1.0 ? -1.0 : r);
            nv_error e;
            double s = clock_mono_s();
            int rc = nvc_control(p->client, &b->v, throttle, rudder, &e);
            double ms = (clock_mono_s() - s) * 1e3;
            if (!atomic_load(&p->measuring)) continue;
            nng_mtx_lock(p->lock);
            if (rc == 0) {
                p->totals.commands++;
                samples_add(&p->rtt, ms);
            } else {
                p->totals.command_errors++;
                snprintf(p->totals.last_error, sizeof p->totals.last_error, "control of boat %u: %s", b->v.id, e.message);
            }
            nng_mtx_unlock(p->lock);
        }
    }
}

/* After the spawns: the view follows the boats the player got. */
static int player_open_view(player* p, char* err, size_t errlen) {
    nvc_vessel own[PROTO_VIEW_MAX_OWN];
    uint32_t n = p->nboats < PROTO_VIEW_MAX_OWN ? p->nboats : PROTO_VIEW_MAX_OWN;
    for (uint32_t i = 0; i < n; i++) own[i] = p->boats[i].v;
    pview_config vc = {
        .url = p->cfg.view_url, .radius = p->cfg.view_radius, .budget_kbps = p->cfg.budget_kbps, .own = own,
        .own_count = n, .centre = {p->cfg.centre_x, p->cfg.centre_z}, .truth = p->cfg.truth,
        .tick_hz = p->cfg.tick_hz,
    };
    return pview_start(&p->view, &vc, err, errlen);
}

int player_start(player** out, const player_config* cfg, char* err, size_t errlen) {
    *out = NULL;
    player* p = calloc(1, sizeof *p);
    if (!p || nng_mtx_alloc(&p->lock) != 0) {
        free(p);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    p->cfg = *cfg;
    p->rng = cfg->seed * 0x9E3779B97F4A7C15ull + 1;
    nvc_options o;
    nvc_options_default(&o);
    o.command_url = cfg->command_url;
    o.request_timeout_ms = cfg->request_timeout_ms;
    nv_error e;
    if (nvc_connect(&p->client, &o, &e) || nvc_hello(p->client, "naval-load", NULL, &e)) {
        snprintf(err, errlen, "%s", e.message);
        player_free(p);
        return -1;
    }
    if (cfg->snapshot_url && !cfg->view_url &&
        sub_open(&p->sub, cfg->snapshot_url, cfg->compact, 0, cfg->max_snapshot_bytes, err, errlen)) {
        player_free(p);
        return -1;
    }
    p->boats = calloc(cfg->boats ? cfg->boats : 1, sizeof *p->boats);
    if (!p->boats) {
        snprintf(err, errlen, "out of memory");
        player_free(p);
        return -1;
    }
    for (uint32_t i = 0; i < cfg->boats; i++) {
        double a = 2.0 * PLAYER_PI * player_random(&p->rng), r = cfg->spread * sqrt(player_random(&p->rng));
        double heading = 2.0 * PLAYER_PI * player_random(&p->rng);
        boat* b = &p->boats[p->nboats];
        if (nvc_spawn(p->client, cfg->type_name, 0, cfg->centre_x + r * cos(a), cfg->centre_z + r * sin(a), heading,
                      &b->v, &e)) {
            player_error(p, &e, "spawn", 1);
            continue;
        }
        b->throttle_period = 8.0 + 12.0 * player_random(&p->rng);
        b->rudder_period = 5.0 + 10.0 * player_random(&p->rng);
        b->phase = 2.0 * PLAYER_PI * player_random(&p->rng);
        p->nboats++;
    }
    p->totals.spawned = p->nboats;
    if (cfg->view_url && player_open_view(p, err, errlen)) {
        player_stop(p);
        player_free(p);
        return -1;
    }
    if (p->nboats && nng_thread_create(&p->thread, player_steer, p) != 0) {
        snprintf(err, errlen, "cannot start a thread");
        player_stop(p);
        player_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

void player_measure(player* p) {
    nng_mtx_lock(p->lock);
    p->totals.commands = p->totals.command_errors = 0;
    samples_clear(&p->rtt);
    nng_mtx_unlock(p->lock);
    if (p->sub) sub_reset(p->sub);
    atomic_store(&p->measuring, 1);
}

void player_stop(player* p) {
    if (!p) return;
    atomic_store(&p->stop, 1);
    if (p->thread) {
        nng_thread_destroy(p->thread); /* joins */
        p->thread = NULL;
    }
    atomic_store(&p->measuring, 0);
    /* The stream's window ends with the steering, not after the despawns. */
    sub_freeze(p->sub);
    pview_stop(p->view);
    for (uint32_t i = 0; i < p->nboats; i++) {
        nv_error e;
        if (nvc_despawn(p->client, &p->boats[i].v, &e) == 0) {
            nng_mtx_lock(p->lock);
            p->totals.despawned++;
            nng_mtx_unlock(p->lock);
        } else {
            player_error(p, &e, "despawn", 1);
        }
    }
    p->nboats = 0;
}

void player_totals_get(player* p, player_totals* out) {
    nng_mtx_lock(p->lock);
    *out = p->totals;
    nng_mtx_unlock(p->lock);
}

const samples* player_rtt_ms(const player* p) { return &p->rtt; }
sub_stream* player_sub(player* p) { return p->sub; }
pview* player_view(player* p) { return p->view; }

void player_free(player* p) {
    if (!p) return;
    player_stop(p);
    sub_free(p->sub);
    pview_free(p->view);
    nvc_close(p->client);
    free(p->boats);
    samples_free(&p->rtt);
    if (p->lock) nng_mtx_free(p->lock);
    free(p);
}
