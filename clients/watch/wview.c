// SPDX-License-Identifier: MIT
#include "wview.h"
#include "clock.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct wview {
    nvc_view* view;
    proto_view_header h;
    uint16_t command_port;     /* the newest said (first updates, keyframes; 0: not yet) */
    int have;                  /* an update came */
    proto_snapshot snap;       /* its vessels: our storage (vessel_capacity 0) */
    uint32_t cap;
    wview_counts c;
    double sec_per_tick;       /* from two updates' sim times; 0: not known yet */
    uint32_t arrivals;
    double centre[2];          /* the settings as applied */
    float radius;
    uint32_t budget_kbps;
    double asked_centre[2];    /* as asked */
    float asked_radius;
};

int wview_open(wview** out, const wview_options* o, nv_error* err) {
    *out = NULL;
    wview* w = calloc(1, sizeof *w);
    if (!w) return nv_error_fail(err, NV_ENOMEM, "out of memory");
    nvc_view_options vo;
    nvc_view_options_default(&vo);
    vo.url = o->url;
    vo.center[0] = w->centre[0] = o->centre[0];
    vo.center[1] = w->centre[1] = o->centre[1];
    vo.radius = w->radius = o->radius;
    vo.budget_kbps = w->budget_kbps = o->budget_kbps;
    w->asked_centre[0] = o->centre[0];
    w->asked_centre[1] = o->centre[1];
    w->asked_radius = o->radius;
    if (nvc_view_open(&w->view, &vo, err)) {
        free(w);
        return -1;
    }
    *out = w;
    return 0;
}

void wview_close(wview* w) {
    if (!w) return;
    nvc_view_close(w->view);
    free(w->snap.vessels);
    free(w);
}

/* Velocity from the two newest samples (a view carries none). */
static void wview_velocity(const wview* w, const proto_view_vessel* v, float out[3]) {
    out[0] = out[1] = out[2] = 0.0f;
    if (v->sample_count < 2 || w->sec_per_tick <= 0.0 || v->samples[0].tick <= v->samples[1].tick) return;
    double dt = (double)(v->samples[0].tick - v->samples[1].tick) * w->sec_per_tick;
    for (int k = 0; k < 3; k++) out[k] = (float)((v->samples[0].position[k] - v->samples[1].position[k]) / dt);
}

static int wview_build_snapshot(wview* w) {
    uint32_t n;
    const proto_view_vessel* vs = nvc_view_vessels(w->view, &n);
    if (GROW(&w->snap.vessels, &w->cap, n, 0)) return -1;
    w->snap.tick = w->h.tick;
    w->snap.sim_time = w->h.sim_time;
    w->snap.send_time_ns = w->h.send_time_ns;
    w->snap.vessel_count = n;
    for (uint32_t i = 0; i < n; i++) {
        proto_vessel* p = &w->snap.vessels[i];
        memset(p, 0, sizeof *p);
        p->id = vs[i].id;
        p->type = vs[i].type;
        p->flags = vs[i].flags;
        /* Vessels not carried by this update are where their samples say they are now. */
        proto_view_sample_at(&vs[i], (double)w->h.tick, 3.0, p->position, p->orientation);
        wview_velocity(w, &vs[i], p->velocity);
    }
    return 0;
}

static void wview_count_events(wview* w) {
    uint32_t n;
    const proto_view_event* ev = nvc_view_events(w->view, &n);
    w->arrivals = 0;
    for (uint32_t i = 0; i < n; i++) switch (ev[i].kind) {
        case PROTO_VIEW_ENTERED: w->c.entered++, w->arrivals++; break;
        case PROTO_VIEW_SPAWNED: w->c.spawned++, w->arrivals++; break;
        case PROTO_VIEW_LEFT: w->c.left++; break;
        case PROTO_VIEW_GONE: w->c.gone++; break;
        }
}

int wview_poll(wview* w, int timeout_ms, nv_error* err) {
    proto_view_header h;
    if (nvc_view_poll(w->view, timeout_ms, &h, err)) {
        if (err && err->code == NV_EREFUSED) w->c.refusals++;
        return -1;
    }
    uint64_t now = clock_wall_ns();
    if (w->have && h.tick > w->h.tick) {
        w->c.ticks_missed += h.tick - w->h.tick - 1;
        double spt = (h.sim_time - w->h.sim_time) / (double)(h.tick - w->h.tick);
        if (spt > 0.0) w->sec_per_tick = spt;
    }
    w->h = h;
    w->have = 1;
    if (h.command_port) w->command_port = h.command_port;
    if (h.has_settings) {
        w->centre[0] = h.settings.center[0];
        w->centre[1] = h.settings.center[1];
        w->radius = h.settings.radius;
        w->budget_kbps = h.settings.budget_kbps;
    }
    nvc_view_counts vc;
    nvc_view_counts_get(w->view, &vc);
    w->c.updates = vc.updates;
    w->c.keyframes = vc.keyframes;
    w->c.bytes = vc.bytes;
    /* A clock step between the hosts can put the send time ahead of now. */
    double ms = now >= h.send_time_ns ? (double)(now - h.send_time_ns) * 1e-6 : 0.0;
    w->c.latency_sum += ms;
    if (ms > w->c.latency_max) w->c.latency_max = ms;
    wview_count_events(w);
    if (wview_build_snapshot(w)) return nv_error_fail(err, NV_ENOMEM, "out of memory");
    return 0;
}

const proto_snapshot* wview_snapshot(const wview* w) { return &w->snap; }
const proto_view_header* wview_header(const wview* w) { return &w->h; }
uint16_t wview_command_port(const wview* w) { return w->command_port; }
uint32_t wview_arrivals(const wview* w) { return w->arrivals; }
void wview_counts_get(const wview* w, wview_counts* out) { *out = w->c; }

void wview_settings(const wview* w, double centre[2], float* radius, uint32_t* budget_kbps) {
    centre[0] = w->centre[0];
    centre[1] = w->centre[1];
    *radius = w->radius;
    *budget_kbps = w->budget_kbps;
}

int wview_move(wview* w, double x, double z, nv_error* err) {
    if (nvc_view_move(w->view, x, z, w->asked_radius, err)) return -1;
    w->centre[0] = w->asked_centre[0] = x;
    w->centre[1] = w->asked_centre[1] = z;
    return 0;
}

int wview_probe(wview* w, nv_error* err) {
    return nvc_view_move(w->view, w->asked_centre[0], w->asked_centre[1], w->asked_radius, err);
}
