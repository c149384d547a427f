// SPDX-License-Identifier: MIT
/* The demo fleet's seamanship (server/autopilot.c): above its type's rated
 * Beaufort number a boat slows and keeps the waves off the beam; at or
 * below it, it steers as before. The default world's demo fleet on its
 * traffic lanes (server/lanes.h) keeps to them and keeps station. And the
 * server's default world at sea: no capsize by the sea alone, no contact
 * between its boats closing faster than 1 m/s, no hull holed
 * (tests/sea_run.h).
 *
 *   test_autopilot [PATTERN]            the unit tests and a short sea run
 *   test_autopilot --sea-run MIN [BOATS [THREADS]]
 *                                       the default world (Beaufort 5, 200
 *                                       boats unless BOATS) for MIN minutes
 *                                       of sea time, its figures printed;
 *                                       exits 1 on a capsize by the sea,
 *                                       a contact above 1 m/s or a breach */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "apply.h"
#include "autopilot.h"
#include "avoid.h"
#include "config.h"
#include "lanes.h"
#include "naval/checkpoint.h"
#include "naval/terrain.h"
#include "naval/vessel_type.h"
#include "owners.h"
#include "resume.h"
#include "sea_run.h"
#include "sim.h"

#define DEG (NV_PI / 180.0)
/* The default world shortened for a test: its mix of boats, this many */
#define SEA_TEST_BOATS 40
#define SEA_TEST_MINUTES 3.0

static double wrap(double a) { return remainder(a, 2.0 * NV_PI); }

/* The waves off the beam: within AUTOPILOT_HEAD_DEG of the bow or
 * AUTOPILOT_FOLLOW_DEG of the stern (a hair of rounding allowed). */
static int off_the_beam(double course, double wave_heading) {
    double rel = fabs(wrap(course - wave_heading));
    return rel >= NV_PI - AUTOPILOT_HEAD_DEG * DEG - 1e-9 || rel <= AUTOPILOT_FOLLOW_DEG * DEG + 1e-9;
}

/* At or below the rating (over <= 0) the helm is the calm-water one, to
 * the bit: course the bearing, rudder from the error, full throttle but
 * 0.4 in a hard turn, whatever the waves. */
static void test_at_or_below_rating_as_before(void** state) {
    (void)state;
    for (int over = -3; over <= 0; over++)
        for (int i = 0; i < 36; i++)
            for (int j = 0; j < 36; j++) {
                double bearing = wrap(i * 10.0 * DEG + 0.3), heading = wrap(j * 10.0 * DEG - 0.1);
                double error = remainder(bearing - heading, 2.0 * NV_PI);
                autopilot_helm h = autopilot_steer(bearing, heading, over, 1.234 * j);
                assert_true(h.course == bearing);
                assert_true(h.rudder == autopilot_rudder_for(error));
                assert_true(h.throttle == (fabs(error) < 0.8 ? 1.0 : 0.4));
            }
}

/* Above the rating: every waypoint bearing, every heading, every wave
 * direction: the course keeps the waves off the beam, the throttle is
 * AUTOPILOT_SEA_SLOW per step over (half that turning hard, never under
 * AUTOPILOT_SEA_MIN_THROTTLE), the rudder never full; a waypoint already
 * in a safe sector is steered for straight. */
static void test_above_rating_slows_and_keeps_the_waves_off_the_beam(void** state) {
    (void)state;
    for (int over = 1; over <= 4; over++) {
        double cap = pow(AUTOPILOT_SEA_SLOW, over);
        for (int w = 0; w < 8; w++)
            for (int i = 0; i < 72; i++)
                for (int j = 0; j < 36; j++) {
                    double wave = wrap(w * 45.0 * DEG + 0.2), bearing = wrap(i * 5.0 * DEG + 0.01);
                    double heading = wrap(j * 10.0 * DEG);
                    autopilot_helm h = autopilot_steer(bearing, heading, over, wave);
                    if (!off_the_beam(h.course, wave))
                        fail_msg("over %d: course %.1f deg with waves toward %.1f deg", over, h.course / DEG,
                                 wave / DEG);
                    if (off_the_beam(bearing, wave)) assert_true(fabs(wrap(h.course - bearing)) < 1e-12);
                    /* never more than a quarter turn from the waypoint: it gets nearer */
                    assert_true(fabs(wrap(h.course - bearing)) < 0.5 * NV_PI);
                    double error = wrap(h.course - heading);
                    double want = fabs(error) < 0.8 ? cap : 0.5 * cap;
                    if (want < AUTOPILOT_SEA_MIN_THROTTLE) want = AUTOPILOT_SEA_MIN_THROTTLE;
                    assert_true(fabs(h.throttle - want) < 1e-12 && h.throttle <= AUTOPILOT_SEA_SLOW);
                    assert_true(fabs(h.rudder) <= AUTOPILOT_SEA_RUDDER);
                    assert_true(h.rudder * error <= 0.0); /* still toward the course */
                }
    }
}

/* A waypoint abeam, the waves toward 0 (from astern at heading 0): the
 * boat takes the nearer tack, and keeps the tack it is on while the
 * bearing drifts, until the other is better by the margin: no flapping. */
static void test_above_rating_tacks_with_hysteresis(void** state) {
    (void)state;
    const double up = (180.0 - AUTOPILOT_HEAD_DEG) * DEG, down = AUTOPILOT_FOLLOW_DEG * DEG;
    assert_true(AUTOPILOT_HEAD_DEG == 40.0 && AUTOPILOT_FOLLOW_DEG == 30.0 && AUTOPILOT_TACK_MARGIN_DEG == 50.0);
    /* bearing 100 deg: nearer the up tack (140) than the down (30) */
    assert_true(fabs(autopilot_steer(100 * DEG, 90 * DEG, 1, 0.0).course - up) < 1e-12);
    assert_true(fabs(autopilot_steer(70 * DEG, 90 * DEG, 1, 0.0).course - down) < 1e-12);
    /* on the up tack, the bearing drifting down past the middle (85): kept */
    assert_true(fabs(autopilot_steer(70 * DEG, up, 1, 0.0).course - up) < 1e-12);
    assert_true(fabs(autopilot_steer(62 * DEG, up, 1, 0.0).course - up) < 1e-12);
    /* ... until the down tack is better by the margin (bearing under 60) */
    assert_true(fabs(autopilot_steer(55 * DEG, up, 1, 0.0).course - down) < 1e-12);
    /* on the down tack, the bearing drifting up past the middle: kept, then up (over 110) */
    assert_true(fabs(autopilot_steer(105 * DEG, down, 1, 0.0).course - down) < 1e-12);
    assert_true(fabs(autopilot_steer(115 * DEG, down, 1, 0.0).course - up) < 1e-12);
    /* the other side of the waves: mirrored */
    assert_true(fabs(autopilot_steer(-100 * DEG, -90 * DEG, 1, 0.0).course + up) < 1e-12);
    assert_true(fabs(autopilot_steer(-70 * DEG, -up, 1, 0.0).course + up) < 1e-12);
    /* head and following seas are steered straight into */
    assert_true(fabs(autopilot_steer(170 * DEG, 0.0, 1, 0.0).course - 170 * DEG) < 1e-12);
    assert_true(fabs(autopilot_steer(-10 * DEG, 0.0, 2, 0.0).course + 10 * DEG) < 1e-12);
}

static void test_sea_state_and_ratings(void** state) {
    (void)state;
    assert_int_equal(autopilot_beaufort_for_hs(0.0), 0);
    assert_int_equal(autopilot_beaufort_for_hs(1.0), 4);
    assert_int_equal(autopilot_beaufort_for_hs(1.95), 5); /* the default world's sea */
    assert_int_equal(autopilot_beaufort_for_hs(2.5), 6);
    assert_int_equal(autopilot_beaufort_for_hs(40.0), 12);
    autopilot* a = autopilot_create(1, 0, 0, 100);
    assert_non_null(a);
    assert_int_equal(autopilot_sea_beaufort(a), -1);
    assert_int_equal(autopilot_rating(a, 0), -1);
    int rated[3] = {4, -1, 99};
    assert_int_equal(autopilot_set_ratings(a, rated, 3), 0);
    assert_int_equal(autopilot_rating(a, 0), 4);
    assert_int_equal(autopilot_rating(a, 1), -1);
    assert_int_equal(autopilot_rating(a, 2), -1); /* out of 0..12: not rated */
    assert_int_equal(autopilot_rating(a, 3), -1);
    autopilot_set_sea(a, 6, 1.0);
    assert_int_equal(autopilot_sea_beaufort(a), 6);
    autopilot_set_sea(a, 13, 1.0);
    assert_int_equal(autopilot_sea_beaufort(a), -1);
    autopilot_destroy(a);
}

static int rating_of(const sim* s, const char* name) {
    int t = nv_world_find_hull_type(s->world, name);
    return t < 0 ? -2 : autopilot_rating(s->pilot, (uint32_t)t);
}

/* `s` written to a checkpoint in memory (its autopilot in the owner blob,
 * nobody owning a vessel) and restored into `r`, owners in `o`. */
static void restore_through_a_checkpoint(const sim* s, sim* r, owners* o) {
    owners none = {0};
    resume_buf b = {0};
    assert_int_equal(resume_encode(&none, s->pilot, &b), 0);
    nv_checkpoint_source src = sim_checkpoint_source(s, b.data, b.size);
    uint8_t* bytes;
    size_t size;
    nv_error err;
    if (nv_checkpoint_encode(&src, &bytes, &size, &err)) fail_msg("%s", err.message);
    nv_checkpoint c;
    if (nv_checkpoint_decode(bytes, size, "test", &c, &err)) fail_msg("%s", err.message);
    if (sim_restore(r, &c, 1, 0, o, &err)) fail_msg("%s", err.message);
    nv_checkpoint_free(&c);
    free(bytes);
    resume_buf_free(&b);
}

/* The default world gives its autopilot the sea (Beaufort 5 from its Hs
 * of 1.95 m; --beaufort as given) and the built-in types' ratings, and a
 * checkpoint's restore derives the same: the restored world steps on to
 * the same state as the original. */
static void test_default_world_plumbing_and_restore(void** state) {
    (void)state;
    cfg_server cfg;
    cfg_defaults(&cfg);
    cfg.boats = 12;
    cfg.threads = 1;
    nv_error err;
    if (cfg_finish(&cfg, &err)) fail_msg("%s", err.message);
    sim s;
    if (sim_create(&s, &cfg, &err)) fail_msg("%s", err.message);
    assert_int_equal(autopilot_sea_beaufort(s.pilot), 5);
    for (int i = 0; i < nv_vessel_type_builtin_count(); i++) {
        nv_vessel_type vt;
        assert_int_equal(nv_vessel_type_builtin(nv_vessel_type_builtin_name(i), &vt, &err), 0);
        assert_int_equal(rating_of(&s, vt.name), vt.rated_beaufort);
    }
    for (int i = 0; i < 30; i++) sim_step(&s);
    sim r;
    owners o2 = {0};
    restore_through_a_checkpoint(&s, &r, &o2);
    assert_int_equal(autopilot_sea_beaufort(r.pilot), 5);
    assert_int_equal(rating_of(&r, "skiff"), rating_of(&s, "skiff"));
    for (int i = 0; i < 60; i++) sim_step(&s), sim_step(&r);
    assert_true(nv_world_state_hash(s.world) == nv_world_state_hash(r.world));
    sim_destroy(&r);
    owners_free(&o2);
    sim_destroy(&s);
    /* --beaufort 7: the patrol boat at its rating, the skiff 3 over */
    cfg_defaults(&cfg);
    cfg.boats = 3;
    cfg.threads = 1;
    cfg.sea_beaufort = 7;
    if (cfg_finish(&cfg, &err)) fail_msg("%s", err.message);
    if (sim_create(&s, &cfg, &err)) fail_msg("%s", err.message);
    assert_int_equal(autopilot_sea_beaufort(s.pilot), 7);
    sim_destroy(&s);
}

/* A scenario's own type keeps its "rated_beaufort" whatever its name, and
 * so does a checkpoint of it. */
static void test_scenario_type_rating_survives_a_restore(void** state) {
    (void)state;
    char path[] = "/tmp/naval_rating_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE* f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("{\"vessel_types\": [{\"name\": \"tug\", \"hull\": \"builtin:patrol\", \"rated_beaufort\": 5},"
          " {\"name\": \"lighter\", \"hull\": \"builtin:barge\"}],"
          " \"vessels\": [{\"type\": \"tug\", \"position\": [0, 0]}, {\"type\": \"lighter\", \"position\": [60, 0]}]}",
          f);
    fclose(f);
    cfg_server cfg;
    cfg_defaults(&cfg);
    snprintf(cfg.scenario, sizeof cfg.scenario, "%s", path);
    cfg.boats = 0;
    cfg.threads = 1;
    nv_error err;
    if (cfg_finish(&cfg, &err)) fail_msg("%s", err.message);
    sim s;
    int rc = sim_create(&s, &cfg, &err);
    remove(path);
    if (rc) fail_msg("%s", err.message);
    assert_int_equal(rating_of(&s, "tug"), 5);
    assert_int_equal(rating_of(&s, "lighter"), -1);
    sim r;
    owners o2 = {0};
    restore_through_a_checkpoint(&s, &r, &o2);
    assert_int_equal(rating_of(&r, "tug"), 5);
    assert_int_equal(rating_of(&r, "lighter"), -1);
    sim_destroy(&r);
    owners_free(&o2);
    sim_destroy(&s);
}

static int sea_run_main(int argc, char** argv) {
    double minutes = atof(argv[2]);
    cfg_server cfg;
    cfg_defaults(&cfg);
    if (argc > 3) cfg.boats = atof(argv[3]);
    cfg.threads = argc > 4 ? atof(argv[4]) : 0;
    nv_error err;
    if (!(minutes > 0) || cfg_finish(&cfg, &err)) {
        fprintf(stderr, "usage: %s --sea-run MINUTES [BOATS [THREADS]]%s%s\n", argv[0], minutes > 0 ? ": " : "",
                minutes > 0 ? err.message : "");
        return 2;
    }
    sea_run_result r;
    if (sea_run(&cfg, minutes * 60.0, &r, stdout, &err)) {
        fprintf(stderr, "sea-run: %s\n", err.message);
        return 2;
    }
    sea_run_print(&r, stdout);
    return sea_run_total(r.sea_capsizes, r.types) || r.hard_contacts || r.breaches ? 1 : 0;
}

/* The default world shortened (SEA_TEST_BOATS boats, 2 threads). */
static void default_world_on(cfg_server* cfg, sim* s, int threads) {
    cfg_defaults(cfg);
    cfg->boats = SEA_TEST_BOATS;
    cfg->threads = threads;
    nv_error err;
    if (cfg_finish(cfg, &err) || sim_create(s, cfg, &err)) fail_msg("%s", err.message);
}

static void default_world(cfg_server* cfg, sim* s) { default_world_on(cfg, s, 2); }

/* Under the sanitizers (NAVAL_TEST_LIGHT) a smaller fleet, still with the
 * harbour's berth and beach lanes (fifteen skiffs or more: 35 boats or
 * more); else the default world shortened. */
static void harbour_world(cfg_server* cfg, sim* s) {
    cfg_defaults(cfg);
    cfg->boats = getenv("NAVAL_TEST_LIGHT") ? 36 : SEA_TEST_BOATS;
    cfg->threads = 2;
    nv_error err;
    if (cfg_finish(cfg, &err) || sim_create(s, cfg, &err)) fail_msg("%s", err.message);
}

/* The helms are worked out in parallel (autopilot.h): the default world,
 * with two waypoint boats added (their helms drawn in pilot order on the
 * loop thread), is bit for bit the same after 20 s on 1, 2 and 3 threads. */
static void test_same_at_any_thread_count(void** state) {
    (void)state;
    uint64_t hash[3];
    double pace[3];
    for (int threads = 1; threads <= 3; threads++) {
        cfg_server cfg;
        sim s;
        nv_error err;
        default_world_on(&cfg, &s, threads);
        for (int k = 0; k < 2; k++) {
            uint32_t id;
            if (sim_spawn(&s, 0, -40.0 + 80.0 * k, 40.0, 0.0, &id, &err)) fail_msg("%s", err.message);
            assert_int_equal(autopilot_add(s.pilot, id), 0);
        }
        /* under the sanitizers, 4 s: a helm and an avoidance round for every boat */
        const double seconds = getenv("NAVAL_TEST_LIGHT") ? 4.0 : 20.0;
        for (int i = 0; i < (int)(seconds * s.tick_hz); i++) sim_step(&s);
        autopilot_state st = autopilot_get_state(s.pilot);
        assert_int_equal(st.count, SEA_TEST_BOATS + 2);
        pace[threads - 1] = 0.0;
        for (uint32_t i = 0; i < st.count; i++) pace[threads - 1] += st.pilots[i].pace;
        hash[threads - 1] = nv_world_state_hash(s.world);
        print_message("%d thread(s): state hash %016llx, pace sum %.17g\n", threads,
                      (unsigned long long)hash[threads - 1], pace[threads - 1]);
        sim_destroy(&s);
    }
    for (int k = 1; k < 3; k++) {
        assert_true(hash[k] == hash[0]);
        assert_true(memcmp(&pace[k], &pace[0], sizeof pace[0]) == 0);
    }
}

/* Take the helm as the page does (issue 30): a skiff spawned at a boat of
 * the default world, bow along its heading, placed by the server's search
 * for free water clear of the next 15 s of every track near it
 * (server/commands.c), then left alone with its engine stopped. In 30 s
 * nothing touches it: the boats on their lanes give way to it as to a
 * boat lying stopped. Once beside a boat of each type. */
static void test_helm_spawn_left_alone(void** state) {
    (void)state;
    cfg_server cfg;
    sim s;
    default_world(&cfg, &s);
    nv_error err;
    for (int i = 0; i < (int)(10.0 * s.tick_hz); i++) sim_step(&s);
    owners o = {0};
    uint32_t mine[3], n = 0;
    int seen[3] = {0, 0, 0};
    for (uint32_t k = 0; k < nv_world_vessel_count(s.world) && n < 3; k++) {
        nv_world_vessel_state v;
        assert_int_equal(nv_world_vessel_get(s.world, nv_world_vessel_id_at(s.world, k), &v), 0);
        if (v.type >= 3 || seen[v.type]) continue;
        seen[v.type] = 1;
        double x, z, heading = autopilot_heading_of(v.orientation);
        if (nv_world_find_free_water_ahead(s.world, 0, v.position.x, v.position.z, heading, cfg.spawn_search,
                                           cfg.spawn_clearance, 15.0, &x, &z, NULL, &err))
            fail_msg("%s", err.message);
        proto_token token;
        if (apply_spawn(&s, &o, 1, 0, x, z, heading, NULL, &mine[n], &token, &err)) fail_msg("%s", err.message);
        print_message("helm: a skiff spawned at (%.0f, %.0f), asked beside a boat of type %u at (%.0f, %.0f)\n", x, z,
                      v.type, v.position.x, v.position.z);
        n++;
    }
    assert_int_equal(n, 3);
    for (int i = 0; i < (int)(30.0 * s.tick_hz); i++) {
        sim_step(&s);
        uint32_t ne;
        const nv_world_contact_event* ce = nv_world_contact_events(s.world, &ne);
        for (uint32_t k = 0; k < ne; k++)
            for (uint32_t j = 0; j < n; j++)
                if (ce[k].id_a == mine[j] || ce[k].id_b == mine[j])
                    fail_msg("%.1f s after the spawn: the helm's skiff %u touched %u at %.2f m/s", i / s.tick_hz, mine[j],
                             ce[k].id_a == mine[j] ? ce[k].id_b : ce[k].id_a, ce[k].closing_speed);
    }
    owners_free(&o);
    sim_destroy(&s);
}

/* The harbour's berth and beach lanes watched in one run (both tests
 * read it: under the sanitizers a second world would double their cost). */
typedef struct harbour_watch {
    int done;
    double tick_hz, seconds;
    char berth_failure[256], beach_failure[256]; /* "" none */
    /* the berth lane's two skiffs: ticks alongside, visits, the farthest
     * from the berth's line off the face and the speed summed once
     * settled, the hardest touch */
    lane berth;
    double at_berth; /* their centre off the face at the berth */
    uint32_t ids[2], lying[2], visits[2], settled[2];
    double off[2], speed_sum[2], hardest[2];
    /* the beach lane's skiff */
    lane beach;
    uint32_t beach_id, landings, aground, afloat_again;
    double beach_hardest, nearest, farthest;
} harbour_watch;

static harbour_watch harbour;

static void harbour_run(void) {
    harbour_watch* h = &harbour;
    if (h->done) return;
    h->done = 1;
    cfg_server cfg;
    sim s;
    harbour_world(&cfg, &s);
    h->tick_hz = s.tick_hz;
    /* under the sanitizers (NAVAL_TEST_LIGHT): the first boat's first
     * visit alongside, the first landing */
    h->seconds = getenv("NAVAL_TEST_LIGHT") ? 90.0 : 400.0;
    autopilot_state st = autopilot_get_state(s.pilot);
    uint32_t berth_lane = UINT32_MAX, beach_lane = UINT32_MAX, n = 0;
    for (uint32_t k = 0; k < st.lane_count; k++) {
        if (st.lanes[k].berth >= 0.0 && !st.lanes[k].beach) berth_lane = k;
        if (st.lanes[k].beach) beach_lane = k;
    }
    assert_true(berth_lane != UINT32_MAX && beach_lane != UINT32_MAX);
    h->berth = st.lanes[berth_lane], h->beach = st.lanes[beach_lane];
    assert_int_equal(h->berth.boats, 2);
    assert_int_equal(h->beach.boats, 1);
    const nv_hull* hull = nv_world_hull_type(s.world, h->berth.type);
    h->at_berth = (double)hull->bounds_max[2] + AUTOPILOT_BERTH_GAP_M;
    h->beach_id = UINT32_MAX;
    for (uint32_t i = 0; i < st.count; i++) {
        if (st.pilots[i].lane == berth_lane) h->ids[n++] = st.pilots[i].id;
        if (st.pilots[i].lane == beach_lane) h->beach_id = st.pilots[i].id;
    }
    assert_int_equal(n, 2);
    int was[2] = {0, 0}, beach_was = 0;
    h->nearest = INFINITY;
    for (uint64_t t = 0; t < (uint64_t)(h->seconds * s.tick_hz); t++) {
        sim_step(&s);
        uint32_t ne, nd;
        const nv_world_contact_event* ce = nv_world_contact_events(s.world, &ne);
        const nv_world_damage_event* de = nv_world_damage_events(s.world, &nd);
        for (uint32_t k = 0; k < ne; k++) {
            for (uint32_t j = 0; j < 2; j++)
                if (ce[k].id_a == h->ids[j] || ce[k].id_b == h->ids[j]) h->hardest[j] = fmax(h->hardest[j], ce[k].closing_speed);
            if (ce[k].id_a == h->beach_id || ce[k].id_b == h->beach_id)
                h->beach_hardest = fmax(h->beach_hardest, ce[k].closing_speed);
        }
        for (uint32_t k = 0; k < nd; k++) {
            for (uint32_t j = 0; j < 2; j++)
                if (de[k].id == h->ids[j] && de[k].kind == WORLD_DAMAGE_BREACH && !h->berth_failure[0])
                    snprintf(h->berth_failure, sizeof h->berth_failure, "vessel %u holed at %.1f s (hardest touch %.2f m/s)",
                             h->ids[j], t / s.tick_hz, h->hardest[j]);
            if (de[k].id == h->beach_id && (de[k].kind == WORLD_DAMAGE_BREACH || de[k].kind == WORLD_DAMAGE_CAPSIZED) &&
                !h->beach_failure[0])
                snprintf(h->beach_failure, sizeof h->beach_failure, "the beach skiff %s at %.1f s (hardest touch %.2f m/s)",
                         de[k].kind == WORLD_DAMAGE_BREACH ? "holed" : "capsized", t / s.tick_hz, h->beach_hardest);
        }
        st = autopilot_get_state(s.pilot);
        for (uint32_t i = 0; i < st.count; i++) {
            const autopilot_pilot* p = &st.pilots[i];
            nv_world_vessel_state v;
            if (p->id == h->beach_id) {
                assert_int_equal(nv_world_vessel_get(s.world, p->id, &v), 0);
                const double from_beach = hypot(v.position.x - NV_HARBOUR_BEACH_X, v.position.z - NV_HARBOUR_BEACH_Z);
                h->nearest = fmin(h->nearest, from_beach);
                h->farthest = fmax(h->farthest, from_beach);
                const int landed = p->berth > 0;
                if (landed && !beach_was) h->landings++;
                if (landed) h->aground += (v.flags & WORLD_VESSEL_GROUNDED) != 0;
                if (beach_was && !landed) h->afloat_again++;
                beach_was = landed;
                continue;
            }
            for (uint32_t j = 0; j < 2; j++) {
                if (p->id != h->ids[j]) continue;
                int now = p->berth > 0;
                if (now && !was[j]) h->visits[j]++;
                was[j] = now;
                if (!now) continue;
                assert_int_equal(nv_world_vessel_get(s.world, h->ids[j], &v), 0);
                h->lying[j]++;
                if ((v.position.z < NV_HARBOUR_QUAY_Z0 - 10.0 || v.position.z > NV_HARBOUR_QUAY_Z1 + 10.0) &&
                    !h->berth_failure[0])
                    snprintf(h->berth_failure, sizeof h->berth_failure,
                             "vessel %u lies alongside at z %.1f, off the quay's face (z %.0f..%.0f)", h->ids[j],
                             v.position.z, NV_HARBOUR_QUAY_Z0, NV_HARBOUR_QUAY_Z1);
                /* settled: 10 s after coming alongside */
                if (p->berth - (int64_t)nv_world_tick(s.world) < (int64_t)(h->berth.berth_ticks - 10.0 * s.tick_hz)) {
                    h->off[j] = fmax(h->off[j], fabs(v.position.x - NV_HARBOUR_QUAY_X1 - h->at_berth));
                    h->speed_sum[j] += hypot(v.velocity.x, v.velocity.z);
                    h->settled[j]++;
                }
            }
        }
    }
    sim_destroy(&s);
}

/* The harbour's berthing skiffs (server/sim.c, lanes_berth): each comes
 * alongside the quay's face and lies there moored (autopilot.h: bow,
 * stern and breast lines), engine stopped, for its whole 40 s in the
 * Beaufort 5 sea: held within 1 m of where the lines put it (its centre
 * a half beam and the 1.5 m gap off the face) once drawn in from its lane
 * 3.5 m off, swung by the seas' orbital
 * motion (1-1.5 m/s either way) but making no way; it touches the face no
 * harder than a fender's 1 m/s and is never holed; then casts off, sails
 * round the basin and comes back. */
static void test_boats_berth_at_the_quay(void** state) {
    (void)state;
    harbour_run();
    const harbour_watch* h = &harbour;
    const int light = getenv("NAVAL_TEST_LIGHT") != NULL;
    if (h->berth_failure[0]) fail_msg("%s", h->berth_failure);
    const double lie_s = h->berth.berth_ticks / h->tick_hz;
    uint32_t stayed = 0;
    for (uint32_t j = 0; j < 2; j++) {
        print_message("berth: vessel %u alongside %u times, %.0f s in all (%.0f s a visit); moored at most %.2f m from "
                      "its place, %.2f m/s on average; hardest touch %.2f m/s\n", h->ids[j], h->visits[j],
                      h->lying[j] / h->tick_hz, lie_s, h->off[j],
                      h->settled[j] ? h->speed_sum[j] / h->settled[j] : 0.0, h->hardest[j]);
        assert_true(h->hardest[j] <= 1.0);
        if (!h->settled[j]) continue;
        assert_true(h->off[j] < 1.0);
        assert_true(h->speed_sum[j] / h->settled[j] < 0.8);
        stayed += h->lying[j] / h->tick_hz >= 0.9 * lie_s;
    }
    assert_true(stayed >= (light ? 1u : 2u));
    /* and each sailed on and came back */
    if (!light)
        for (uint32_t j = 0; j < 2; j++) assert_true(h->visits[j] >= 2);
}

/* The harbour's beach skiff (server/sim.c, lanes_beach): each lap it turns
 * in at the middle of the island's beach, runs up the 1:10 sand at a
 * walking pace, the Beaufort 5 seas (cut by the surf) setting it on at up
 * to 2 m/s, lies aground its half minute held up the sand by its screw,
 * backs off afloat and sails on round; never holed, never capsized. */
static void test_boat_lands_on_the_beach(void** state) {
    (void)state;
    harbour_run();
    const harbour_watch* h = &harbour;
    const int light = getenv("NAVAL_TEST_LIGHT") != NULL;
    if (h->beach_failure[0]) fail_msg("%s", h->beach_failure);
    const lane l = h->beach;
    /* the lane's farthest point from the beach's middle: its far bend
     * (lanes_beach: the lane's centre a standoff and a radius seaward) */
    const double standoff = NV_HARBOUR_BEACH_Z - l.cz - l.radius;
    const double reach = hypot(l.half_straight + l.radius, standoff + 2.0 * l.radius);
    print_message("beach: %u landings, aground %.0f s in all (%.0f s a landing), %u backed off; %.1f m from the "
                  "beach's middle at the nearest, %.1f m at the farthest (the lane reaches %.1f m); hardest touch "
                  "%.2f m/s\n", h->landings, h->aground / h->tick_hz, l.berth_ticks / h->tick_hz, h->afloat_again,
                  h->nearest, h->farthest, reach, h->beach_hardest);
    assert_true(h->farthest < reach + 0.5 * l.clear + LANES_MARGIN_M); /* backed off, it takes to its lane again */
    assert_true(h->landings >= 1);
    assert_true(h->aground / h->tick_hz >= 0.5 * l.berth_ticks / h->tick_hz); /* the surf lifts it now and then */
    assert_true(h->beach_hardest <= 2.0);
    if (!light) assert_true(h->landings >= 2 && h->afloat_again >= 2);
}

/* Close quarters of two boats (avoid.h) of `length` m. */
static double close_quarters(double length) { return 1.5 * length + AVOID_MARGIN_M; }

/* The default world's fleet after two minutes in its Beaufort 5 sea: every
 * boat within half its lanes' separation of its lane (never nearer a
 * neighbouring lane's boats than its own lane), every lane's boats in
 * their order apart by more than close quarters, and moving along the
 * lane (but on the berth lane, whose boats stop). */
static void test_lanes_kept(void** state) {
    (void)state;
    cfg_server cfg;
    sim s;
    default_world(&cfg, &s);
    const double seconds = getenv("NAVAL_TEST_LIGHT") ? 20.0 : 120.0;
    for (uint64_t i = 0; i < (uint64_t)(seconds * s.tick_hz); i++) sim_step(&s);
    autopilot_state st = autopilot_get_state(s.pilot);
    assert_int_equal(st.count, SEA_TEST_BOATS);
    assert_true(st.lane_count >= 3);
    double worst_off = 0.0, slowest = INFINITY;
    for (uint32_t k = 0; k < st.lane_count; k++) {
        const lane* l = &st.lanes[k];
        const nv_hull* h = nv_world_hull_type(s.world, l->type);
        const double length = h->bounds_max[0] - h->bounds_min[0], P = lane_perimeter(l);
        double arcs[SEA_TEST_BOATS];
        uint32_t n = 0, beached = 0;
        for (uint32_t i = 0; i < st.count; i++) {
            if (st.pilots[i].lane != k) continue;
            nv_world_vessel_state v;
            assert_int_equal(nv_world_vessel_get(s.world, st.pilots[i].id, &v), 0);
            assert_int_equal(v.type, l->type);
            double arc = lane_project(l, v.position.x, v.position.z), x, z, heading;
            lane_point(l, arc, &x, &z, &heading);
            double off = hypot(v.position.x - x, v.position.z - z);
            double along = v.velocity.x * cos(heading) - v.velocity.z * sin(heading);
            /* a beach lane's boat runs in, lies aground, backs off and
             * makes its way back to its lane each lap: off it by design
             * (counted, not measured; test_boat_lands_on_the_beach bounds
             * how far) */
            if (l->beach) {
                beached++;
                continue;
            }
            if (off > 0.5 * (close_quarters(length) + LANES_MARGIN_M))
                fail_msg("vessel %u is %.1f m off its lane %u (type %u)", v.id, off, k, l->type);
            worst_off = fmax(worst_off, off / (close_quarters(length) + LANES_MARGIN_M));
            /* a berth lane's boats lie alongside and wait their turn
             * (test_boats_berth_at_the_quay) */
            if (l->berth < 0.0) slowest = fmin(slowest, along);
            arcs[n++] = arc;
        }
        assert_int_equal(n + beached, l->boats);
        for (uint32_t i = 0; i < n; i++) {
            double gap = P;
            for (uint32_t j = 0; j < n; j++)
                if (j != i) gap = fmin(gap, lane_ahead(l, arcs[i], arcs[j]));
            if (n > 1 && gap < close_quarters(length))
                fail_msg("lane %u: two boats %.1f m apart along it (close quarters %.1f m)", k, gap, close_quarters(length));
        }
    }
    print_message("lanes: %u boats on %u lanes after %.0f s: the farthest off its lane by %.2f of the separation, "
                  "the slowest along it at %.2f m/s\n", st.count, st.lane_count, seconds, worst_off, slowest);
    assert_true(slowest > 0.5);
    sim_destroy(&s);
}

/* The default world shortened for a test (issue 29: no boat capsized by
 * the sea alone): SEA_TEST_BOATS boats of the same mix in the same
 * Beaufort 5 sea for SEA_TEST_MINUTES of sea time. The full half hour
 * with 200 boats: test_autopilot --sea-run 30 (docs/architecture.md). */
static void test_default_world_no_capsize_by_the_sea(void** state) {
    (void)state;
    cfg_server cfg;
    cfg_defaults(&cfg);
    cfg.boats = SEA_TEST_BOATS;
    cfg.threads = 2;
    nv_error err;
    if (cfg_finish(&cfg, &err)) fail_msg("%s", err.message);
    sea_run_result r;
    /* under the sanitizers (NAVAL_TEST_LIGHT): half a minute */
    double minutes = getenv("NAVAL_TEST_LIGHT") ? 0.5 : SEA_TEST_MINUTES;
    if (sea_run(&cfg, minutes * 60.0, &r, NULL, &err)) fail_msg("%s", err.message);
    sea_run_print(&r, stdout);
    assert_true(r.by_type[0] > 0); /* skiffs, the type above its rating, are there */
    assert_int_equal(sea_run_total(r.sea_capsizes, r.types), 0);
    assert_int_equal(r.hard_contacts, 0);
    assert_int_equal(r.breaches, 0);
}

int main(int argc, char** argv) {
    if (argc > 2 && !strcmp(argv[1], "--sea-run")) return sea_run_main(argc, argv);
    if (argc > 1 && argv[1][0] != '-') cmocka_set_test_filter(argv[1]); /* test_autopilot 'test_above*' */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_at_or_below_rating_as_before),
        cmocka_unit_test(test_above_rating_slows_and_keeps_the_waves_off_the_beam),
        cmocka_unit_test(test_above_rating_tacks_with_hysteresis),
        cmocka_unit_test(test_sea_state_and_ratings),
        cmocka_unit_test(test_default_world_plumbing_and_restore),
        cmocka_unit_test(test_scenario_type_rating_survives_a_restore),
        cmocka_unit_test(test_lanes_kept),
        cmocka_unit_test(test_same_at_any_thread_count),
        cmocka_unit_test(test_helm_spawn_left_alone),
        cmocka_unit_test(test_boats_berth_at_the_quay),
        cmocka_unit_test(test_boat_lands_on_the_beach),
        cmocka_unit_test(test_default_world_no_capsize_by_the_sea),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
