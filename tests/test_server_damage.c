// SPDX-License-Identifier: MIT
/* Damage end to end: a server on a scenario with two patrol boats and a
 * barge the scenario holes in four places at 0.5 s. The barge sinks: the
 * full snapshots carry its fill bytes and the events breach, compartment
 * full, sunk and removed (past the scenario's removal depth), after which
 * it is gone from them, and the metrics count each kind. An admin holes a
 * patrol boat (the reply names the compartment), a player's request to do
 * so is refused, as are points off the hull and absurd areas; the owner
 * of a boat switches its pumps on, a wrong token cannot. naval-replay runs
 * the record log to the same state hashes, breaches, pumps and damage
 * events included. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "naval_client.h"
#include "test_server_logged.h"

#define ADMIN "test-admin-secret-0123456789"

static char dir[64], scn_path[128], rec[128], base[128], log_path[128], out_path[128], err_path[128];
static server_proc srv;

static const char scenario_json[] =
    "{\"tick_hz\": 60, \"sunk_removal_depth\": 20, \"damping\": {\"linear\": 0.05, \"angular\": 0.3},\n"
    " \"vessel_types\": [\"builtin:patrol\",\n"
    "   {\"name\": \"barge\", \"hull\": \"builtin:barge\", \"mass\": 40000, \"cg\": [0, 1.0, 0],\n"
    "    \"compartments\": {\"bulkheads\": [-2.5, 0, 2.5]}}],\n"
    " \"vessels\": [{\"type\": \"patrol\", \"position\": [0, 0]}, {\"type\": \"barge\", \"position\": [60, 0]}],\n"
    " \"events\": [{\"time\": 0.5, \"damage\": {\"vessel\": 1, \"point\": [-3.75, -0.95, 0], \"area\": 0.5}},\n"
    "            {\"time\": 0.5, \"damage\": {\"vessel\": 1, \"point\": [-1.25, -0.95, 0], \"area\": 0.5}},\n"
    "            {\"time\": 0.5, \"damage\": {\"vessel\": 1, \"point\": [1.25, -0.95, 0], \"area\": 0.5}},\n"
    "            {\"time\": 0.5, \"damage\": {\"vessel\": 1, \"point\": [3.75, -0.95, 0], \"area\": 0.5}}]}\n";

static int group_setup(void** state) {
    (void)state;
    if (logged_tempdir(dir, sizeof dir, "naval_damage")) return -1;
    snprintf(scn_path, sizeof scn_path, "%s/flood.json", dir);
    snprintf(rec, sizeof rec, "%s/session.rec", dir);
    snprintf(base, sizeof base, "%s/session.rec.ckpt", dir);
    snprintf(log_path, sizeof log_path, "%s/server.log", dir);
    snprintf(out_path, sizeof out_path, "%s/replay.out", dir);
    snprintf(err_path, sizeof err_path, "%s/replay.err", dir);
    setenv("NAVAL_ADMIN_TOKEN", ADMIN, 1);
    return logged_write(scn_path, scenario_json, sizeof scenario_json - 1);
}

static int group_teardown(void** state) {
    (void)state;
    if (srv.pid > 0) proc_stop(&srv, SIGKILL, 5.0);
    logged_rmdir(dir);
    return 0;
}

static nvc_client* connect_as(const char* admin, int snapshots) {
    nvc_options o;
    nvc_options_default(&o);
    o.snapshot_url = snapshots ? srv.snapshot_url : NULL;
    o.command_url = srv.command_url;
    o.request_timeout_ms = 5000;
    o.queue_depth = 256;
    o.admin_token = admin;
    nvc_client* c = NULL;
    nv_error e;
    if (nvc_connect(&c, &o, &e)) fail_msg("connect: %s", e.message);
    return c;
}

static int counter_in(const char* text, const char* series) {
    const char* p = strstr(text, series);
    return p ? atoi(p + strlen(series)) : -1;
}

static const proto_vessel_damage* damage_of(const proto_snapshot* s, uint32_t id) {
    for (uint32_t i = 0; i < s->damage_count; i++)
        if (s->damage[i].id == id) return &s->damage[i];
    return NULL;
}

static int has_vessel(const proto_snapshot* s, uint32_t id) {
    for (uint32_t i = 0; i < s->vessel_count; i++)
        if (s->vessels[i].id == id) return 1;
    return 0;
}

static void test_damage_session(void** state) {
    (void)state;
    const char* extra[] = {"--scenario", scn_path, "--threads", "2", "--record", rec, "--record-hash-interval", "30",
                           "--log-level", "info", NULL};
    if (logged_start(&srv, extra, log_path, 20.0)) fail_msg("naval-server did not start");
    nvc_client* admin = connect_as(ADMIN, 1);
    nvc_client* player = connect_as(NULL, 0);
    nv_error e;
    proto_world_info wi = {0};
    if (nvc_get_world_info(player, &wi, &e)) fail_msg("world info: %s", e.message);
    assert_int_equal(wi.types[0].compartment_count, 5); /* the patrol boat */
    assert_int_equal(wi.types[1].compartment_count, 4); /* the barge */
    assert_true(wi.types[0].pump_rate > 0.029f && wi.types[1].pump_rate == 0.0f);
    float volumes = 0.0f;
    for (uint32_t k = 0; k < 4; k++) volumes += wi.types[1].compartment_volumes[k];
    assert_true(volumes > 10.0f);
    proto_free_world_info(&wi);

    /* A player's own boat; the admin holes it in its engine room. */
    nvc_vessel own;
    if (nvc_spawn(player, "patrol", 0, -60.0, 0.0, 0.0, &own, &e)) fail_msg("spawn: %s", e.message);
    uint32_t compartment = 99;
    assert_int_equal(nvc_damage(player, own.id, -2.7f, -1.0f, 0.0f, 0.2f, &compartment, &e), -1);
    assert_int_equal(e.status, PROTO_STATUS_UNAUTHORIZED);
    if (nvc_damage(admin, own.id, -2.7f, -1.0f, 0.0f, 0.2f, &compartment, &e)) fail_msg("damage: %s", e.message);
    assert_int_equal(compartment, 1);
    assert_int_equal(nvc_damage(admin, own.id, 0.0f, 0.0f, 40.0f, 0.2f, NULL, &e), -1); /* off the hull */
    assert_int_equal(e.status, PROTO_STATUS_BAD_REQUEST);
    assert_non_null(strstr(e.message, "not on or in the hull"));
    /* an absurd area: the client's encoder refuses it already (the server's decoder would too) */
    assert_int_equal(nvc_damage(admin, own.id, -2.7f, -1.0f, 0.0f, 1e6f, NULL, &e), -1);
    assert_non_null(strstr(e.message, "area"));
    assert_int_equal(nvc_damage(admin, 987654, 0.0f, 0.0f, 0.0f, 0.2f, NULL, &e), -1);
    assert_int_equal(e.status, PROTO_STATUS_NOT_FOUND);
    nvc_vessel forged = {own.id, {{1, 2, 3}}, 0.0, 0.0};
    assert_int_equal(nvc_pumps(player, &forged, 1, &e), -1);
    assert_int_equal(e.status, PROTO_STATUS_UNAUTHORIZED);
    if (nvc_pumps(player, &own, 1, &e)) fail_msg("pumps: %s", e.message);

    /* Watch the full snapshots until the barge is gone and the patrol
     * boat has water aboard. */
    int breaches = 0, full = 0, sunk = 0, removed = 0, seen_fill = 0, own_pumping = 0, barge_gone = 0;
    uint32_t barge = 1;
    double give_up = proc_now() + 40.0;
    proto_snapshot s = {0};
    while (proc_now() < give_up && !(removed && barge_gone && own_pumping)) {
        if (nvc_poll_snapshot(admin, 1000, &s, &e) != 0) continue;
        for (uint32_t i = 0; i < s.damage_event_count; i++) {
            const proto_damage_event* d = &s.damage_events[i];
            if (d->kind == PROTO_DAMAGE_BREACH) breaches++;
            if (d->kind == PROTO_DAMAGE_FULL && d->id == barge) full++;
            if (d->kind == PROTO_DAMAGE_SUNK && d->id == barge) sunk++;
            if (d->kind == PROTO_DAMAGE_REMOVED && d->id == barge) removed++;
        }
        const proto_vessel_damage* b = damage_of(&s, barge);
        if (b && b->compartment_count == 4 && b->fill[1] > 0) seen_fill = 1;
        const proto_vessel_damage* o = damage_of(&s, own.id);
        if (o && (o->flags & PROTO_DAMAGE_PUMPING) && o->holes == 1 && o->fill[1] > 0) own_pumping = 1;
        if (removed) barge_gone = !has_vessel(&s, barge) && !b;
    }
    proto_free_snapshot(&s);
    print_message("breaches %d, barge: full %d, sunk %d, removed %d (fill seen %d, pumping %d, gone %d)\n", breaches,
                  full, sunk, removed, seen_fill, own_pumping, barge_gone);
    assert_true(seen_fill && own_pumping && barge_gone);
    assert_int_equal(breaches, 5); /* four scenario events and the admin's */
    assert_true(full >= 1);
    assert_int_equal(sunk, 1);
    assert_int_equal(removed, 1);

    static char text[1 << 16];
    assert_int_equal(proc_http_get(srv.http_port, "/metrics", text, sizeof text), 200);
    assert_int_equal(counter_in(text, "naval_damage_events_total{kind=\"breach\"} "), 5);
    assert_int_equal(counter_in(text, "naval_damage_events_total{kind=\"removed\"} "), 1);
    assert_int_equal(counter_in(text, "\nnaval_vessels_damaged "), 1);
    assert_true(counter_in(text, "naval_commands_total{type=\"damage\",status=\"unauthorized\"} ") >= 1);
    assert_int_equal(logged_stop(&srv, SIGTERM, 10.0, log_path, 0), 0);
    nvc_close(admin);
    nvc_close(player);

    /* The log replays to the same hashes, with its breaches, pumps and events. */
    char* log = logged_slurp(rec, NULL);
    assert_non_null(log);
    assert_non_null(strstr(log, " breach 1 "));
    assert_non_null(strstr(log, " pumps "));
    assert_non_null(strstr(log, " damage removed 1 -1"));
    free(log);
    const char* argv[] = {NAVAL_REPLAY_PATH, base, rec, "--threads", "1", "--json", NULL};
    int rc = logged_run(argv, out_path, err_path, 60.0);
    char* out = logged_slurp(out_path, NULL);
    if (rc != 0) {
        char* err = logged_slurp(err_path, NULL);
        fail_msg("naval-replay exited %d: %s %s", rc, out ? out : "", err ? err : "");
    }
    assert_non_null(strstr(out, "\"breaches\": 5"));
    assert_non_null(strstr(out, "\"pumps\": 1"));
    assert_non_null(strstr(out, "\"ok\": true"));
    free(out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_damage_session),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
