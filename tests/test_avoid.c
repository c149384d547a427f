// SPDX-License-Identifier: MIT
/* The autopilot's rules of the road (server/avoid.c), on flat water with
 * contacts on, two patrol boats on collision courses 600 m apart:
 *  - head-on (rule 14): both alter to starboard (their first turn; back to
 *    the track after) and pass without contact;
 *  - crossing (rule 15): the boat with the other on its starboard side
 *    gives way to starboard, the other stands on (its heading held within
 *    3 degrees) and neither touches;
 *  - overtaking (rule 13): a piloted boat coming up on a slow boat from
 *    astern keeps out of its way, to starboard, without contact;
 * and the encounter and the part taken are named by avoid_decide. The
 * same inputs give the same run (the state hash twice). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "autopilot.h"
#include "avoid.h"
#include "naval/scenario.h"
#include "naval/world.h"

#define DEG (NV_PI / 180.0)

/* A boat: where, heading (degrees), speed (m/s along the bow), and where
 * its pilot steers for (no pilot: throttle `throttle`, rudder amidships). */
typedef struct boat {
    double x, z, heading_deg, speed;
    int piloted;
    double wx, wz, throttle;
} boat;

typedef struct run {
    uint32_t contacts;          /* between the two */
    double turn_min[2], turn_max[2]; /* heading change from the start, radians (starboard negative) */
    double first_turn[2];            /* the first change past 5 degrees (0: none): which way it went */
    double closest;             /* m between CGs */
    uint64_t hash;
} run;

static double wrap(double a) {
    while (a > NV_PI) a -= 2.0 * NV_PI;
    while (a <= -NV_PI) a += 2.0 * NV_PI;
    return a;
}

static run sail(const boat b[2], double seconds) {
    char json[1024];
    snprintf(json, sizeof json,
             "{\"tick_hz\": 30, \"vessel_types\": [\"builtin:patrol\"], \"contacts\": {\"enabled\": true},"
             " \"vessels\": [{\"type\": \"patrol\", \"position\": [%g, %g], \"heading_deg\": %g, \"velocity\": [%g, 0, %g]},"
             "               {\"type\": \"patrol\", \"position\": [%g, %g], \"heading_deg\": %g, \"velocity\": [%g, 0, %g]}]}",
             b[0].x, b[0].z, b[0].heading_deg, b[0].speed * cos(b[0].heading_deg * DEG),
             -b[0].speed * sin(b[0].heading_deg * DEG), b[1].x, b[1].z, b[1].heading_deg,
             b[1].speed * cos(b[1].heading_deg * DEG), -b[1].speed * sin(b[1].heading_deg * DEG));
    nv_scenario scn;
    nv_scenario_instance inst;
    nv_error e;
    if (nv_scenario_parse(json, strlen(json), "avoid", NULL, &scn, &e) ||
        nv_scenario_instantiate(&scn, NULL, &inst, &e))
        fail_msg("%s", e.message);
    nv_world* w = inst.world;
    autopilot_pilot pilots[2];
    uint32_t np = 0;
    for (uint32_t i = 0; i < 2; i++) {
        uint32_t id = nv_world_vessel_id_at(w, i);
        if (b[i].piloted) pilots[np++] = (autopilot_pilot){id, b[i].wx, b[i].wz, 0.0, 0, AUTOPILOT_NO_LANE, 1.0, 0};
        else if (nv_world_set_controls(w, id, b[i].throttle, 0.0, &e)) fail_msg("%s", e.message);
    }
    autopilot_state st = {1, 0.0, 0.0, 10000.0, pilots, np, NULL, 0};
    autopilot* a = autopilot_restore(&st);
    assert_non_null(a);
    run r = {0, {0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}, INFINITY, 0};
    double h0[2];
    for (uint32_t i = 0; i < 2; i++) {
        nv_world_vessel_state s;
        assert_int_equal(nv_world_vessel_get(w, nv_world_vessel_id_at(w, i), &s), 0);
        h0[i] = autopilot_heading_of(s.orientation);
    }
    for (int k = 0; k < (int)(seconds * 30.0); k++) {
        autopilot_update(a, w, NULL);
        nv_world_step(w);
        uint32_t nc;
        const nv_world_contact_event* c = nv_world_contact_events(w, &nc);
        for (uint32_t j = 0; j < nc; j++) r.contacts += c[j].id_b != WORLD_CONTACT_GROUND;
        nv_world_vessel_state s[2];
        for (uint32_t i = 0; i < 2; i++) {
            assert_int_equal(nv_world_vessel_get(w, nv_world_vessel_id_at(w, i), &s[i]), 0);
            double turn = wrap(autopilot_heading_of(s[i].orientation) - h0[i]);
            r.turn_min[i] = fmin(r.turn_min[i], turn);
            r.turn_max[i] = fmax(r.turn_max[i], turn);
            if (r.first_turn[i] == 0.0 && fabs(turn) > 5.0 * DEG) r.first_turn[i] = turn;
        }
        r.closest = fmin(r.closest, hypot(s[0].position.x - s[1].position.x, s[0].position.z - s[1].position.z));
    }
    r.hash = nv_world_state_hash(w);
    autopilot_destroy(a);
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&scn);
    return r;
}

static void print_run(const char* what, const run* r) {
    print_message("%s: %u contacts, closest %.1f m; boat 0 turned %.1f..%.1f deg, boat 1 %.1f..%.1f deg "
                  "(starboard negative)\n",
                  what, r->contacts, r->closest, r->turn_min[0] / DEG, r->turn_max[0] / DEG, r->turn_min[1] / DEG,
                  r->turn_max[1] / DEG);
}

/* Head-on along x: each to starboard (its heading falls), no contact. */
static void head_on_both_turn_to_starboard(void** state) {
    (void)state;
    const boat b[2] = {{-300.0, 0.0, 0.0, 6.0, 1, 900.0, 0.0, 0.0}, {300.0, 0.0, 180.0, 6.0, 1, -900.0, 0.0, 0.0}};
    run r = sail(b, 90.0);
    print_run("head-on", &r);
    assert_int_equal(r.contacts, 0);
    assert_true(r.turn_min[0] < -10.0 * DEG && r.turn_min[1] < -10.0 * DEG);
    assert_true(r.first_turn[0] < 0.0 && r.first_turn[1] < 0.0); /* to starboard first; back to the track after */
    assert_true(r.closest > 24.0);                                        /* more than a hull length */
    run again = sail(b, 90.0);
    assert_true(again.hash == r.hash);
}

/* Crossing: boat 0 heads +x (east); boat 1 comes from its starboard side
 * (+z, the right of a bow along +x) heading -z, both 300 m from the
 * crossing point at the same speed. Boat 0 gives way to starboard; boat 1
 * stands on. */
static void crossing_the_give_way_boat_turns_the_other_stands_on(void** state) {
    (void)state;
    const boat b[2] = {{-300.0, 0.0, 0.0, 6.0, 1, 900.0, 0.0, 0.0}, {0.0, 300.0, 90.0, 6.0, 1, 0.0, -900.0, 0.0}};
    run r = sail(b, 90.0);
    print_run("crossing", &r);
    assert_int_equal(r.contacts, 0);
    assert_true(r.turn_min[0] < -10.0 * DEG && r.first_turn[0] < 0.0);               /* gave way, to starboard */
    assert_true(fabs(r.turn_min[1]) < 3.0 * DEG && fabs(r.turn_max[1]) < 3.0 * DEG); /* stood on */
    assert_true(r.closest > 24.0);
}

/* Overtaking: boat 1 plods east at throttle 0.15 (no pilot); boat 0 comes
 * up from 300 m astern at full speed on the same line and keeps out of
 * its way, to starboard. */
static void the_overtaking_boat_keeps_out_of_the_way(void** state) {
    (void)state;
    const boat b[2] = {{-300.0, 0.0, 0.0, 8.0, 1, 2000.0, 0.0, 0.0}, {0.0, 0.0, 0.0, 1.5, 0, 0.0, 0.0, 0.15}};
    run r = sail(b, 120.0);
    print_run("overtaking", &r);
    assert_int_equal(r.contacts, 0);
    assert_true(r.turn_min[0] < -10.0 * DEG && r.first_turn[0] < 0.0);
    assert_true(r.closest > 24.0);
}

/* The encounters as avoid_decide names them, from one snapshot. */
static void encounters_are_named(void** state) {
    (void)state;
    static const char json[] =
        "{\"vessel_types\": [\"builtin:patrol\"],"
        " \"vessels\": [{\"type\": \"patrol\", \"position\": [0, 0], \"velocity\": [6, 0, 0]},"
        "               {\"type\": \"patrol\", \"position\": [200, 0], \"heading_deg\": 180, \"velocity\": [-6, 0, 0]},"
        "               {\"type\": \"patrol\", \"position\": [1950, 150], \"heading_deg\": 90, \"velocity\": [0, 0, -6]},"
        "               {\"type\": \"patrol\", \"position\": [1800, 0], \"velocity\": [6, 0, 0]}]}";
    nv_scenario scn;
    nv_scenario_instance inst;
    nv_error e;
    if (nv_scenario_parse(json, strlen(json), "names", NULL, &scn, &e) || nv_scenario_instantiate(&scn, NULL, &inst, &e))
        fail_msg("%s", e.message);
    nv_world* w = inst.world;
    avoid* a = avoid_create();
    assert_non_null(a);
    assert_int_equal(avoid_snapshot(a, w), 0);
    uint32_t id[4];
    for (uint32_t i = 0; i < 4; i++) id[i] = nv_world_vessel_id_at(w, i);
    avoid_order o = avoid_decide(a, id[0], 0.0, 6.0);
    assert_int_equal(o.role, AVOID_HEAD_ON);
    assert_int_equal(o.other, id[1]);
    assert_true(o.course < 0.0 && o.course >= -90.0 * DEG); /* to starboard */
    /* boat 3 (east from 1800, 0) has boat 2 on its starboard side, both 25 s from (1950, 0): it gives way */
    o = avoid_decide(a, id[3], 0.0, 6.0);
    assert_int_equal(o.role, AVOID_GIVE_WAY);
    assert_int_equal(o.other, id[2]);
    assert_true(o.course < 0.0);
    /* boat 2 has boat 3 on its port side: stands on, its course kept */
    o = avoid_decide(a, id[2], 90.0 * DEG, 6.0);
    assert_int_equal(o.role, AVOID_STAND_ON);
    assert_true(o.course == 90.0 * DEG && o.throttle_scale == 1.0);
    /* nobody near on a course away: clear */
    o = avoid_decide(a, id[0], 180.0 * DEG, 6.0);
    assert_int_equal(o.role, AVOID_CLEAR);
    /* On lanes (a traffic separation scheme): boats on lanes leave each
     * other to the lanes, on different lanes or one... */
    assert_int_equal(avoid_set_lane(a, id[0], 0), 0);
    assert_int_equal(avoid_set_lane(a, id[1], 1), 0);
    assert_int_equal(avoid_decide(a, id[0], 0.0, 6.0).role, AVOID_CLEAR);
    assert_int_equal(avoid_set_lane(a, id[1], 0), 0);
    assert_int_equal(avoid_decide(a, id[0], 0.0, 6.0).role, AVOID_CLEAR);
    /* ...but one off the lanes (a player's) is avoided by the boat on a lane, and avoids it */
    assert_int_equal(avoid_set_lane(a, id[1], AVOID_NO_LANE), 0);
    o = avoid_decide(a, id[0], 0.0, 6.0);
    assert_int_equal(o.role, AVOID_HEAD_ON);
    assert_true(o.course < 0.0);
    o = avoid_decide(a, id[1], 180.0 * DEG, 6.0);
    assert_int_equal(o.role, AVOID_HEAD_ON);
    assert_int_equal(avoid_set_lane(a, 987654, 0), -1); /* not in the snapshot */
    avoid_destroy(a);
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&scn);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(encounters_are_named),
        cmocka_unit_test(head_on_both_turn_to_starboard),
        cmocka_unit_test(crossing_the_give_way_boat_turns_the_other_stands_on),
        cmocka_unit_test(the_overtaking_boat_keeps_out_of_the_way),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
