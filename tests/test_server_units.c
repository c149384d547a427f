// SPDX-License-Identifier: MIT
/* naval-server's parts on their own: the id map, the token bucket, vessel
 * tokens and orphans, the admin secret comparison, the settings from file,
 * environment and flags (and their messages), the metrics text, the
 * autopilot steering a boat around its area, and the snapshot's capsized
 * flag. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "args.h"
#include "autopilot.h"
#include "clients.h"
#include "commands.h"
#include "config.h"
#include "idmap.h"
#include "log.h"
#include "metrics.h"
#include "naval/vessel_type.h"
#include "owners.h"
#include "naval/hullgen.h"
#include "sim.h"
#include "snapshot.h"

static void test_idmap_against_reference(void** state) {
    (void)state;
    enum { N = 5000 };
    static uint32_t ref[N]; /* key i -> value, UINT32_MAX when absent */
    for (int i = 0; i < N; i++) ref[i] = UINT32_MAX;
    idmap m = {0};
    uint64_t x = 12345;
    for (int step = 0; step < 200000; step++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint32_t key = (uint32_t)(x % N) * 7919u; /* spread, with collisions in the table */
        uint32_t i = key / 7919u;
        if ((x >> 20) % 3) {
            assert_int_equal(idmap_put(&m, key, (uint32_t)step), 0);
            ref[i] = (uint32_t)step;
        } else {
            assert_int_equal(idmap_remove(&m, key), ref[i] != UINT32_MAX);
            ref[i] = UINT32_MAX;
        }
    }
    uint32_t count = 0;
    for (int i = 0; i < N; i++) {
        uint32_t v;
        int present = idmap_get(&m, (uint32_t)i * 7919u, &v);
        assert_int_equal(present, ref[i] != UINT32_MAX);
        if (present) assert_int_equal(v, ref[i]);
        count += present;
    }
    assert_int_equal(count, m.count);
    assert_int_equal(idmap_put(&m, IDMAP_EMPTY, 1), -1);
    idmap_free(&m);
}

static const uint8_t addr_one[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1};
static const uint8_t addr_two[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 2};

static clients_params unit_params(void) {
    clients_params p = {.rate = 10.0, .burst = 3.0, .address_rate = 1000.0, .address_burst = 1000.0, .max = 2,
                        .max_addresses = 64, .admin_failures = 3, .admin_window_s = 60.0, .admin_backoff_s = 2.0};
    return p;
}

static void test_token_bucket(void** state) {
    (void)state;
    clients c;
    clients_params p = unit_params();
    clients_init(&c, &p);
    client* a = clients_open(&c, 11, addr_one, 0);
    assert_non_null(a);
    for (int i = 0; i < 3; i++) assert_int_equal(clients_allow(&c, a, 0), CLIENTS_ALLOWED);
    assert_int_equal(clients_allow(&c, a, 0), CLIENTS_PLAYER_RATE);
    assert_int_equal(clients_allow(&c, a, 50000000), CLIENTS_PLAYER_RATE); /* 0.05 s: half a token */
    assert_int_equal(clients_allow(&c, a, 100000000), CLIENTS_ALLOWED);   /* 0.1 s: one */
    assert_int_equal(clients_allow(&c, a, 100000000), CLIENTS_PLAYER_RATE);
    for (int i = 0; i < 3; i++) /* capped at the burst */
        assert_int_equal(clients_allow(&c, a, 10000000000ull), CLIENTS_ALLOWED);
    assert_int_equal(clients_allow(&c, a, 10000000000ull), CLIENTS_PLAYER_RATE);
    assert_non_null(clients_open(&c, 12, addr_one, 0));
    assert_null(clients_open(&c, 13, addr_one, 0)); /* max 2 */
    clients_close(&c, 11, 0);
    assert_null(clients_find(&c, 11));
    assert_non_null(clients_find(&c, 12));
    assert_non_null(clients_open(&c, 13, addr_two, 0));
    assert_int_equal(c.addresses.count, 2);
    clients_free(&c);
}

/* Connections that present one identity are one player: one bucket, one
 * vessel count; the address's bucket binds them all, identities or not. */
static void test_players_and_addresses(void** state) {
    (void)state;
    clients c;
    clients_params p = unit_params();
    p.max = 100;
    p.address_burst = 8.0;
    p.address_rate = 1.0;
    clients_init(&c, &p);
    proto_token who = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};
    client* x = clients_open(&c, 1, addr_one, 0);
    assert_non_null(x);
    assert_int_equal(clients_join(&c, x, &who, 0), 0);
    client* y = clients_open(&c, 2, addr_one, 0);
    assert_int_equal(clients_join(&c, clients_find(&c, 2), &who, 0), 0);
    x = clients_find(&c, 1);
    y = clients_find(&c, 2);
    assert_int_equal(x->player, y->player);
    assert_int_equal(c.players.count, 1); /* the anonymous players were let go */
    assert_int_equal(clients_player(&c, x->player)->connections, 2);
    /* A burst of 3 for the player, whichever connection asks. */
    assert_int_equal(clients_allow(&c, x, 0), CLIENTS_ALLOWED);
    assert_int_equal(clients_allow(&c, y, 0), CLIENTS_ALLOWED);
    assert_int_equal(clients_allow(&c, x, 0), CLIENTS_ALLOWED);
    assert_int_equal(clients_allow(&c, y, 0), CLIENTS_PLAYER_RATE);
    /* Other players from the address: 8 requests for all (4 spent, the
     * refused one included). */
    client* z = clients_open(&c, 3, addr_one, 0);
    assert_int_not_equal(z->player, x->player);
    for (int i = 0; i < 3; i++) assert_int_equal(clients_allow(&c, z, 0), CLIENTS_ALLOWED);
    z = clients_open(&c, 4, addr_one, 0);
    assert_int_equal(clients_allow(&c, z, 0), CLIENTS_ALLOWED);
    assert_int_equal(clients_allow(&c, z, 0), CLIENTS_ADDRESS_RATE);
    client* far = clients_open(&c, 5, addr_two, 0);
    assert_int_equal(clients_allow(&c, far, 0), CLIENTS_ALLOWED);
    /* Vessels follow the player and the address; a player with vessels
     * outlives its connections. */
    x = clients_find(&c, 1);
    uint32_t pl = x->player, ad = x->address;
    clients_add_vessel(&c, pl, ad);
    clients_add_vessel(&c, pl, ad);
    clients_close(&c, 1, 0);
    clients_close(&c, 2, 0);
    assert_non_null(clients_player(&c, pl));
    assert_int_equal(clients_player(&c, pl)->vessels, 2);
    assert_int_equal(clients_address(&c, ad)->vessels, 2);
    client* back = clients_open(&c, 6, addr_one, 0);
    assert_int_equal(clients_join(&c, back, &who, 0), 0);
    assert_int_equal(clients_find(&c, 6)->player, pl);
    clients_close(&c, 6, 0);
    clients_drop_vessel(&c, pl, ad);
    clients_drop_vessel(&c, pl, ad);
    assert_null(clients_player(&c, pl)); /* nothing left: forgotten */
    assert_int_equal(clients_address(&c, ad)->vessels, 0);
    clients_free(&c);
}

/* Wrong admin tokens: a lockout after the count, doubling with each one
 * after, forgotten on success; quiet addresses are swept or evicted. */
static void test_admin_backoff_and_eviction(void** state) {
    (void)state;
    clients c;
    clients_params p = unit_params();
    p.max = 100;
    p.max_addresses = 3;
    clients_init(&c, &p);
    client* x = clients_open(&c, 1, addr_one, 0);
    uint32_t a = x->address;
    const uint64_t s = 1000000000ull;
    assert_true(clients_admin_failed(&c, a, 0) == 0.0);
    assert_true(clients_admin_failed(&c, a, 1) == 0.0);
    assert_true(clients_admin_failed(&c, a, 2) == 2.0); /* the third: 2 s */
    assert_true(clients_admin_locked(&c, a, 1 * s) > 0.9);
    assert_true(clients_admin_locked(&c, a, 3 * s) == 0.0);
    assert_true(clients_admin_failed(&c, a, 3 * s) == 4.0); /* doubled */
    assert_true(clients_admin_failed(&c, a, 8 * s) == 8.0);
    clients_admin_succeeded(&c, a);
    assert_true(clients_admin_failed(&c, a, 20 * s) == 0.0);
    /* Quiet for the window: the count starts again. */
    assert_true(clients_admin_failed(&c, a, 21 * s) == 0.0);
    assert_true(clients_admin_failed(&c, a, 100 * s) == 0.0);
    /* The summary names it. */
    uint32_t out[2], more;
    assert_int_equal(clients_summary(&c, out, 2, &more), 1);
    assert_int_equal(out[0], a);
    assert_int_equal(more, 0);
    clients_summary_done(&c);
    assert_int_equal(clients_summary(&c, out, 2, &more), 0);
    /* Three quiet addresses at most: the longest-quiet gives way. */
    clients_close(&c, 1, 200 * s);
    for (uint8_t i = 0; i < 4; i++) {
        uint8_t other[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 1, i};
        assert_non_null(clients_open(&c, 10 + i, other, (201 + i) * s));
        clients_close(&c, 10 + i, (201 + i) * s);
    }
    assert_true(c.addresses.count <= 3);
    /* Swept once their buckets are full again and nothing is pending. */
    clients_sweep(&c, 10000 * s);
    assert_int_equal(c.addresses.count, 0);
    clients_free(&c);
}

static void test_log_quote(void** state) {
    (void)state;
    char out[LOG_QUOTE_MAX];
    assert_string_equal(log_quote(out, sizeof out, "skiff"), "\"skiff\"");
    assert_string_equal(log_quote(out, sizeof out, "a\nb\r\t\"\\\x1b[31m\xc3\xa9"),
                        "\"a\\nb\\r\\t\\\"\\\\\\x1b[31m\\xc3\\xa9\"");
    char small[12];
    assert_string_equal(log_quote(small, sizeof small, "abcdefghijkl"), "\"abcdef...\"");
    char longest[64];
    memset(longest, '\n', 63);
    longest[63] = '\0';
    log_quote(out, sizeof out, longest); /* every byte escaped: still whole */
    assert_int_equal(strlen(out), 2 + 63 * 2);
}

static void test_owners_tokens_and_orphans(void** state) {
    (void)state;
    owners o = {0};
    proto_token t[100];
    for (uint32_t i = 0; i < 100; i++) assert_int_equal(owners_add(&o, i, i % 2 ? 7 : 8, &t[i]), 0);
    for (int i = 0; i < 100; i++)
        for (int j = 0; j < i; j++) assert_false(proto_equal_tokens(&t[i], &t[j]));
    assert_true(proto_equal_tokens(&owners_find(&o, 42)->token, &t[42]));
    assert_int_equal(owners_orphan(&o, 7, 1000), 50);
    uint32_t out[100];
    assert_int_equal(owners_expired(&o, 1500, 1000, out, 100), 0);
    assert_int_equal(owners_expired(&o, 2000, 1000, out, 100), 50);
    for (int i = 0; i < 50; i++) assert_int_equal(out[i] % 2, 1);
    owners_remove(&o, 43);
    assert_null(owners_find(&o, 43));
    assert_int_equal(owners_find(&o, 44)->pipe, 8);
    owners_free(&o);
}

static void test_secret_compare(void** state) {
    (void)state;
    char a[PROTO_SECRET_MAX] = "0123456789abcdef", b[PROTO_SECRET_MAX] = "0123456789abcdef";
    assert_true(cmd_secret_equal(a, b));
    b[15] = 'g';
    assert_false(cmd_secret_equal(a, b));
    strcpy(b, "0123456789abcdef0");
    assert_false(cmd_secret_equal(a, b));
    strcpy(b, "0123456789abcde");
    assert_false(cmd_secret_equal(a, b));
    char empty[PROTO_SECRET_MAX] = "";
    assert_false(cmd_secret_equal(empty, empty)); /* no secret configured: nothing matches */
}

static const char* write_temp(const char* text) {
    static char path[64];
    snprintf(path, sizeof path, "/tmp/naval_cfg_%d.json", (int)getpid());
    FILE* f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void assert_bad_file(const char* text, const char* expect) {
    cfg_server c;
    cfg_defaults(&c);
    nv_error err;
    const char* path = write_temp(text);
    assert_int_equal(cfg_load_file(&c, path, &err), -1);
    if (!strstr(err.message, expect)) fail_msg("message '%s' lacks '%s'", err.message, expect);
    unlink(path);
}

static void test_config_file(void** state) {
    (void)state;
    cfg_server c;
    cfg_defaults(&c);
    nv_error err;
    const char* path = write_temp("{\"boats\": 12, \"tick_hz\": 30, \"http\": \"\", \"limits\": "
                                  "{\"vessels_per_client\": 3, \"requests_per_second\": 2.5}}");
    if (cfg_load_file(&c, path, &err)) fail_msg("%s", err.message);
    unlink(path);
    assert_true(c.boats == 12 && c.tick_hz == 30 && c.http[0] == '\0');
    assert_true(c.limits.vessels_per_client == 3 && c.limits.requests_per_second == 2.5);
    assert_bad_file("{\"botas\": 3}", "botas: unknown key");
    assert_bad_file("{\"limits\": {\"vessels\": 3}}", "limits.vessels: unknown key");
    assert_bad_file("{\"boats\": 1.5}", "boats: must be an integer");
    assert_bad_file("{\"boats\": \"many\"}", "boats: expected a number");
    assert_bad_file("{\"tick_hz\": 0}", "tick_hz: must be a number in [1, 1000] Hz");
    assert_bad_file("{\"snapshot_url\": \"http://x:1\"}", "snapshot_url: is not a URL of the form tcp://");
    assert_bad_file("{\"http\": \"localhost\"}", "http: must be HOST:PORT");
    assert_bad_file("{\"log_level\": \"loud\"}", "log_level: must be debug");
    assert_bad_file("{\"admin_token\": \"short\"}", "admin_token: must be at least 16");
    assert_bad_file("{\"boats\": 3", "line");
    assert_bad_file("{\"boats\": 3, \"boats\": 4}", "given twice");
}

static void test_args_priority(void** state) {
    (void)state;
    const char* path = write_temp("{\"boats\": 12, \"seed\": 5, \"threads\": 1}");
    setenv("NAVAL_BOATS", "13", 1);
    setenv("NAVAL_SEED", "6", 1);
    char* argv[] = {"naval-server", "--config", (char*)path, "--boats=14", "--tick-hz", "25", NULL};
    cfg_server c;
    args_result r;
    nv_error err;
    if (args_parse(6, argv, &c, &r, &err)) fail_msg("%s", err.message);
    assert_true(c.boats == 14 && c.seed == 6 && c.threads == 1 && c.tick_hz == 25);
    setenv("NAVAL_SEED", "six", 1);
    assert_int_equal(args_parse(6, argv, &c, &r, &err), -1);
    assert_non_null(strstr(err.message, "NAVAL_SEED: must be an integer"));
    unsetenv("NAVAL_SEED");
    unsetenv("NAVAL_BOATS");
    unlink(path);
    char* bad1[] = {"naval-server", "--tick-hz", NULL};
    assert_int_equal(args_parse(2, bad1, &c, &r, &err), -1);
    assert_non_null(strstr(err.message, "--tick-hz: missing value"));
    char* bad2[] = {"naval-server", "--frobnicate", "1", NULL};
    assert_int_equal(args_parse(3, bad2, &c, &r, &err), -1);
    assert_non_null(strstr(err.message, "unknown option '--frobnicate'"));
    assert_null(strstr(err.message, "did you mean"));
    char* bad4[] = {"naval-server", "--tick-hzz", "30", NULL};
    assert_int_equal(args_parse(3, bad4, &c, &r, &err), -1);
    assert_non_null(strstr(err.message, "unknown option '--tick-hzz' (did you mean --tick-hz?)"));
    char* bad3[] = {"naval-server", "--snapshot-url", "tcp://127.0.0.1:5", "--command-url", "tcp://127.0.0.1:5", NULL};
    assert_int_equal(args_parse(5, bad3, &c, &r, &err), -1);
    assert_non_null(strstr(err.message, "must differ"));
    char* help[] = {"naval-server", "--boats", "x", "--help", NULL};
    assert_int_equal(args_parse(4, help, &c, &r, &err), 0);
    assert_true(r.help);
}

static void test_metrics_text(void** state) {
    (void)state;
    static metrics m;
    metrics_init(&m, 0);
    metrics_record_tick(&m, 1000, 3000000, 2000000, 100000, 16666667);
    metrics_record_tick(&m, 2000, 20000000, 19000000, 100000, 16666667);
    metrics_record_command(&m, PROTO_BODY_SPAWN, PROTO_STATUS_OK);
    metrics_record_command(&m, PROTO_BODY_CONTROL, PROTO_STATUS_UNAUTHORIZED);
    metrics_record_pass(&m, METRICS_PASS_STEP, 2000000);
    metrics_record_pass(&m, METRICS_PASS_STEP, 19000000);
    metrics_record_pass(&m, METRICS_PASS_VIEWS_SEND, 1500);
    metrics_record_pass(&m, METRICS_PASSES, 7); /* not a pass: ignored */
    static edge_stats es;
    atomic_store(&es.bytes[METRICS_FULL], 3000);
    atomic_store(&es.refused[EDGE_REFUSED_ADDRESS_FULL], 7);
    atomic_store(&es.timeouts[EDGE_TIMEOUT_HEAD], 5);
    metrics_attach_edge(&m, &es);
    size_t len;
    char* t = metrics_render(&m, 5000000000ull, &len);
    assert_non_null(t);
    assert_int_equal(strlen(t), len);
    assert_non_null(strstr(t, "naval_tick_duration_seconds_bucket{le=\"0.004\"} 1\n"));
    assert_non_null(strstr(t, "naval_tick_duration_seconds_bucket{le=\"0.033\"} 2\n"));
    assert_non_null(strstr(t, "naval_tick_duration_seconds_count 2\n"));
    assert_non_null(strstr(t, "naval_tick_overruns_total 1\n"));
    assert_non_null(strstr(t, "naval_commands_total{type=\"spawn\",status=\"ok\"} 1\n"));
    assert_non_null(strstr(t, "naval_commands_total{type=\"control\",status=\"unauthorized\"} 1\n"));
    assert_non_null(strstr(t, "naval_snapshot_bytes_total{stream=\"full\"} 3000\n"));
    assert_non_null(strstr(t, "naval_connections_refused_total{reason=\"address_full\"} 7\n"));
    assert_non_null(strstr(t, "naval_connection_timeouts_total{kind=\"head\"} 5\n"));
    assert_non_null(strstr(t, "naval_heap_bytes "));
    assert_non_null(strstr(t, "naval_uptime_seconds 5.000\n"));
    assert_non_null(strstr(t, "naval_tick_pass_seconds_total{pass=\"step\"} 0.021000000\n"));
    assert_non_null(strstr(t, "naval_tick_pass_seconds_total{pass=\"views_send\"} 0.000001500\n"));
    assert_non_null(strstr(t, "naval_tick_pass_seconds_total{pass=\"compact_publish\"} 0.000000000\n"));
    float p50, p99, max;
    metrics_step_percentiles(&m, &p50, &p99, &max);
    assert_true(fabsf(max - 19.0f) < 1e-4f && fabsf(p50 - 2.0f) < 1e-4f);
    assert_int_equal(metrics_requests(&m), 2);
    assert_int_equal(metrics_request_errors(&m), 1);
    free(t);
}

static void test_autopilot_rules(void** state) {
    (void)state;
    /* Positive error (the target is to port, heading must grow): port rudder. */
    assert_true(autopilot_rudder_for(0.2) < 0);
    assert_true(autopilot_rudder_for(-0.2) > 0);
    assert_true(autopilot_rudder_for(3.0) == -1.0 && autopilot_rudder_for(-3.0) == 1.0);
    nv_quat q = quat_from_axis_angle(v3(0, 1, 0), 0.7);
    assert_true(fabs(autopilot_heading_of(q) - 0.7) < 1e-12);
}

/* A skiff on flat water chasing waypoints in a 150 m square for 90 s: it
 * must keep coming back (never far outside) and cover ground. */
static void test_autopilot_keeps_a_boat_in_its_area(void** state) {
    (void)state;
    cfg_server cfg;
    cfg_defaults(&cfg);
    const char* path = write_temp("{\"tick_hz\": 30, \"vessel_types\": [\"builtin:skiff\"], \"vessels\": []}");
    snprintf(cfg.scenario, sizeof cfg.scenario, "%s", path);
    cfg.boats = 1;
    cfg.threads = 1;
    cfg.area = 150;
    nv_error err;
    if (cfg_finish(&cfg, &err)) fail_msg("%s", err.message);
    sim s;
    if (sim_create(&s, &cfg, &err)) fail_msg("%s", err.message);
    unlink(path);
    assert_int_equal(autopilot_count(s.pilot), 1);
    uint32_t id = nv_world_vessel_id_at(s.world, 0);
    double far = 0, travelled = 0;
    nv_world_vessel_state st, prev;
    nv_world_vessel_get(s.world, id, &prev);
    for (int i = 0; i < 90 * 30; i++) {
        sim_step(&s);
        nv_world_vessel_get(s.world, id, &st);
        far = fmax(far, fmax(fabs(st.position.x), fabs(st.position.z)));
        travelled += v3_length(v3_sub(st.position, prev.position));
        prev = st;
    }
    assert_false(st.flags & WORLD_VESSEL_FROZEN);
    if (!(far < 150 + 120)) fail_msg("the skiff went %.0f m out (area 150 m)", far);
    if (!(travelled > 300)) fail_msg("the skiff covered only %.0f m in 90 s", travelled);
    sim_destroy(&s);
}

/* The default world's harbour: the demo fleet starts in open water around
 * the island (its lanes: server/lanes.h), any waypoints lie in deep water,
 * and boats steer clear of the land: over 60 s few are ever aground. */
static void test_demo_fleet_keeps_off_the_land(void** state) {
    (void)state;
    cfg_server cfg;
    cfg_defaults(&cfg);
    cfg.boats = 80;
    cfg.threads = 2;
    cfg.tick_hz = 30;
    cfg.area = 350;
    nv_error err;
    if (cfg_finish(&cfg, &err)) fail_msg("%s", err.message);
    sim s;
    if (sim_create(&s, &cfg, &err)) fail_msg("%s", err.message);
    const nv_terrain* t = nv_world_get_terrain(s.world);
    assert_non_null(t);
    uint32_t n = nv_world_vessel_count(s.world), worst = 0, on_island_side = 0;
    autopilot_state ap = autopilot_get_state(s.pilot);
    for (uint32_t k = 0; k < n; k++) {
        nv_world_vessel_state v;
        nv_world_vessel_get(s.world, nv_world_vessel_id_at(s.world, k), &v);
        /* the berth lane's skiffs start in the 9 m basin by the quay, clear
         * of its face; the beach lane's off the beach, in 3.5 m or more */
        int berthing = 0, beaching = 0;
        for (uint32_t i = 0; i < ap.count; i++)
            if (ap.pilots[i].id == v.id && ap.pilots[i].lane < ap.lane_count) {
                berthing = ap.lanes[ap.pilots[i].lane].berth >= 0.0;
                beaching = ap.lanes[ap.pilots[i].lane].beach != 0;
            }
        const double reach = berthing ? 2.0 : 15.0, depth = beaching ? -2.0 : (berthing ? -5.0 : -10.0);
        if (!(nv_terrain_max_in(t, v.position.x - reach, v.position.z - reach, v.position.x + reach,
                                v.position.z + reach) < depth))
            fail_msg("boat %u starts over %.1f m of water", k, nv_terrain_elevation(t, v.position.x, v.position.z));
        on_island_side += hypot(v.position.x + 60, v.position.z) < 450;
    }
    assert_true(on_island_side > n / 4); /* the test means something: boats around the island */
    for (int i = 0; i < 60 * 30; i++) {
        sim_step(&s);
        autopilot_state st = autopilot_get_state(s.pilot);
        uint32_t aground = 0;
        for (uint32_t k = 0; k < n; k++) {
            nv_world_vessel_state v;
            nv_world_vessel_get(s.world, nv_world_vessel_id_at(s.world, k), &v);
            aground += (v.flags & WORLD_VESSEL_GROUNDED) != 0;
        }
        if (aground > worst) worst = aground;
        for (uint32_t k = 0; k < st.count; k++)
            if (st.pilots[k].lane == AUTOPILOT_NO_LANE && !(nv_terrain_elevation(t, st.pilots[k].wx, st.pilots[k].wz) < -8.0))
                fail_msg("pilot %u steers for (%.0f, %.0f), over %.1f m", k, st.pilots[k].wx, st.pilots[k].wz,
                         nv_terrain_elevation(t, st.pilots[k].wx, st.pilots[k].wz));
    }
    print_message("demo fleet on the harbour: at most %u of %u aground at once\n", worst, n);
    assert_true(worst <= n / 20);
    sim_destroy(&s);
}

/* The snapshot's capture flags a vessel heeled past 90 degrees (bit 5,
 * nv_world_capsized of its orientation), not one upright nor one standing
 * on its bow; the bit comes through the full and the compact encodings. */
static void test_snapshot_flags_capsized(void** state) {
    (void)state;
    nv_error err;
    nv_world_config cfg = nv_world_config_default();
    nv_world* w = NULL;
    if (nv_world_create(&w, &cfg, NULL, &err)) fail_msg("%s", err.message);
    nv_mesh m;
    if (nv_hullgen_build("barge", 300, &m, &err)) fail_msg("%s", err.message);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 40000.0;
    uint32_t type, ids[4];
    if (nv_world_add_hull_type(w, "barge", &m, &spec, &type, &err)) fail_msg("%s", err.message);
    nv_mesh_free(&m);
    const double d2r = 3.14159265358979323846 / 180.0;
    const nv_quat q[4] = {quat_identity(), quat_from_axis_angle(v3(1, 0, 0), 120.0 * d2r),
                       quat_from_axis_angle(v3(1, 0, 0), -180.0 * d2r), quat_from_axis_angle(v3(0, 0, 1), -95.0 * d2r)};
    const int capsized[4] = {0, 1, 1, 0};
    for (int i = 0; i < 4; i++)
        if (nv_world_spawn(w, type, v3(30.0 * i, 0.0, 0.0), q[i], &ids[i], &err)) fail_msg("%s", err.message);
    snap_builder b;
    if (snap_init(&b, 1, &err)) fail_msg("%s", err.message);
    proto_tick_stats stats;
    memset(&stats, 0, sizeof stats);
    if (snap_capture(&b, w, &stats, &err) || snap_encode_full(&b, &err) || snap_encode_compact(&b, &err))
        fail_msg("%s", err.message);
    proto_snapshot full, compact;
    memset(&full, 0, sizeof full);
    memset(&compact, 0, sizeof compact);
    proto_compact_decoder* dec = proto_create_compact_decoder(&err);
    assert_non_null(dec);
    if (proto_decode_snapshot(b.full.data, b.full.size, NULL, &full, &err) ||
        proto_decode_compact(dec, b.compact.data, b.compact.size, NULL, &compact, &err))
        fail_msg("%s", err.message);
    assert_int_equal(full.vessel_count, 4);
    assert_int_equal(compact.vessel_count, 4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(nv_world_capsized(q[i]), capsized[i]);
        const proto_snapshot* snaps[3] = {&b.snap, &full, &compact};
        for (int k = 0; k < 3; k++) {
            const proto_vessel* v = NULL;
            for (uint32_t j = 0; j < snaps[k]->vessel_count; j++)
                if (snaps[k]->vessels[j].id == ids[i]) v = &snaps[k]->vessels[j];
            assert_non_null(v);
            assert_int_equal((v->flags & PROTO_VESSEL_CAPSIZED) != 0, capsized[i]);
        }
    }
    proto_destroy_compact_decoder(dec);
    proto_free_snapshot(&full);
    proto_free_snapshot(&compact);
    snap_free(&b);
    nv_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idmap_against_reference), cmocka_unit_test(test_token_bucket),
        cmocka_unit_test(test_players_and_addresses),   cmocka_unit_test(test_admin_backoff_and_eviction),
        cmocka_unit_test(test_log_quote),
        cmocka_unit_test(test_owners_tokens_and_orphans), cmocka_unit_test(test_secret_compare),
        cmocka_unit_test(test_config_file),             cmocka_unit_test(test_args_priority),
        cmocka_unit_test(test_metrics_text),            cmocka_unit_test(test_autopilot_rules),
        cmocka_unit_test(test_autopilot_keeps_a_boat_in_its_area),
        cmocka_unit_test(test_demo_fleet_keeps_off_the_land),
        cmocka_unit_test(test_snapshot_flags_capsized),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
