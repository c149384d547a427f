// SPDX-License-Identifier: MIT
#include "views.h"

#include <stdlib.h>
#include <uv.h>

#include "log.h"

static log_counter views_refused = LOG_COUNTER("view request refused");

static int views_check_owner(void* arg, uint32_t id, const proto_token* token) {
    owned* o = owners_find(arg, id);
    return o && proto_equal_tokens(&o->token, token);
}

int views_init(views* v, const cfg_server* cfg, double tick_hz, owners* o, metrics* m, nv_error* err) {
    v->hub = NULL;
    v->net = NULL;
    v->owners = o;
    v->m = m;
    if (cfg->limits.max_views <= 0) return 0;
    view_config vc;
    view_config_default(&vc);
    vc.tick_hz = tick_hz;
    vc.update_hz = cfg->limits.view_hz < tick_hz ? cfg->limits.view_hz : tick_hz;
    vc.max_radius = (float)cfg->limits.max_view_radius;
    vc.default_budget_kbps = (uint32_t)cfg->limits.view_budget_kbps;
    vc.max_budget_kbps = (uint32_t)cfg->limits.max_view_budget_kbps;
    vc.max_vessels = (uint32_t)cfg->limits.max_view_vessels;
    vc.max_views = (uint32_t)cfg->limits.max_views;
    return view_hub_create(&v->hub, &vc, views_check_owner, o, err);
}

void views_free(views* v) {
    view_hub_destroy(v->hub);
    v->hub = NULL;
}

static void views_refuse(views* v, uint32_t conn, const nv_error* why) {
    const uint8_t* data;
    size_t size;
    log_event(&views_refused, "view connection %u: %s", conn, why->message);
    if (!view_refusal(v->hub, conn, why, &data, &size)) net_send_view(v->net, conn, data, size);
}

/* No room (the edge found no idle view to close): the newcomer is told
 * why and closed, never left waiting in silence. */
static void views_refuse_open(views* v, const cmdq_item* it, const nv_error* why) {
    const uint8_t* data;
    size_t size;
    char addr[64];
    edge_address_text(it->addr, addr, sizeof addr);
    log_event(&views_refused, "view connection %u from %s: %s", it->pipe, addr, why->message);
    if (!view_refusal(v->hub, it->pipe, why, &data, &size)) net_send_view_last(v->net, it->pipe, data, size);
}

void views_handle(views* v, const cmdq_item* it) {
    nv_error err;
    if (!v->hub) {
        if (it->kind == CMDQ_VIEW_MESSAGE) free(it->data);
        return;
    }
    switch (it->kind) {
    case CMDQ_VIEW_OPEN:
        if (view_open(v->hub, it->pipe, &err)) views_refuse_open(v, it, &err);
        break;
    case CMDQ_VIEW_MESSAGE:
        if (view_handle(v->hub, it->pipe, it->data, it->size, &err)) views_refuse(v, it->pipe, &err);
        free(it->data);
        break;
    case CMDQ_VIEW_CLOSED: view_close(v->hub, it->pipe); break;
    default: break;
    }
    if (v->m) atomic_store_explicit(&v->m->views, view_count(v->hub), memory_order_relaxed);
}

int views_wanted(const views* v) { return v->hub && view_count(v->hub) > 0; }

void views_tick(views* v, const proto_snapshot* s, nv_jobs* pool) {
    if (!views_wanted(v)) return;
    uint64_t t0 = uv_hrtime();
    view_frame f = {s->tick, s->sim_time, s->send_time_ns, s->vessels, s->vessel_count, s->contacts, s->contact_count};
    nv_error err;
    if (view_hub_set_damage(v->hub, s->damage, s->damage_count, s->damage_events, s->damage_event_count, &err))
        log_error("views: %s", err.message);
    if (view_hub_encode(v->hub, &f, pool, &err)) log_error("views: %s", err.message);
    uint64_t t1 = uv_hrtime();
    for (uint32_t i = 0; i < view_hub_output_count(v->hub); i++) {
        uint32_t conn;
        const uint8_t* data;
        size_t size;
        view_hub_output(v->hub, i, &conn, &data, &size);
        net_send_view(v->net, conn, data, size);
    }
    if (v->m) {
        uint64_t t2 = uv_hrtime();
        view_stats st;
        view_hub_stats(v->hub, &st);
        metrics_record_views(v->m, &st, t2 - t0);
        metrics_record_pass(v->m, METRICS_PASS_VIEWS_ENCODE, t1 - t0);
        metrics_record_pass(v->m, METRICS_PASS_VIEWS_SEND, t2 - t1);
    }
}
