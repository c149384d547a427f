// SPDX-License-Identifier: MIT
/* The server's world (server/sim.c: sim_create, sim_step with its
 * autopilot) run as fast as the machine steps it, counting capsizes apart
 * from collisions: a capsize (WORLD_DAMAGE_CAPSIZED) of a vessel that
 * touched nothing (no other vessel, no ground, no structure) in the
 * SEA_RUN_CONTACT_S seconds before it, and was never holed, is the sea's.
 * A holed vessel (a WORLD_DAMAGE_BREACH event: a hard contact; holes
 * never close) floods for minutes before it capsizes or sinks: the two
 * patrol boats whose capsizes the default world's half hour at 2f97761
 * gave the sea, 50 s and 6 minutes after their last contact, had 62 and
 * 113 m^3 of water aboard their 80 t. That capsize is the collision's,
 * counted apart (holed_capsizes). Uses
 * only sim.h, so that it builds against older commits too (the
 * before/after figures of tests/test_autopilot.c's --sea-run). */
#ifndef NAVAL_TESTS_SEA_RUN_H
#define NAVAL_TESTS_SEA_RUN_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"

#define SEA_RUN_CONTACT_S 30.0
#define SEA_RUN_TYPES 8
#define SEA_RUN_HARD_MS 1.0 /* a docking bump is slower (issue 30) */

typedef struct sea_run_result {
    uint32_t boats, types;
    double sea_time_s, wall_s;
    uint32_t by_type[SEA_RUN_TYPES];         /* boats per type at the start */
    uint32_t sea_capsizes[SEA_RUN_TYPES];    /* capsize events by the sea alone */
    uint32_t contact_capsizes[SEA_RUN_TYPES]; /* capsize events within SEA_RUN_CONTACT_S of a contact */
    uint32_t holed_capsizes[SEA_RUN_TYPES];  /* later ones of a vessel holed before (flooding) */
    uint32_t keel_up_end[SEA_RUN_TYPES];     /* heeled past 90 degrees at the end */
    uint32_t sea_capsized_boats;             /* distinct boats with a sea capsize */
    uint64_t contact_events;                 /* contacts begun (ground and vessels) */
    uint64_t hard_contacts;                  /* between vessels, closing faster than SEA_RUN_HARD_MS */
    uint64_t breaches;                       /* WORLD_DAMAGE_BREACH events */
    double first_hard_contact_s;             /* -1: none */
    double first_sea_capsize_s;              /* -1: none */
    char type_names[SEA_RUN_TYPES][48];
} sea_run_result;

static double sea_run_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Builds the world `cfg` describes (cfg_finish done) and steps it for
 * `seconds` of sea time; `progress` (may be NULL) gets a line a minute. */
static int sea_run(const cfg_server* cfg, double seconds, sea_run_result* r, FILE* progress, nv_error* err) {
    memset(r, 0, sizeof *r);
    r->first_sea_capsize_s = -1.0;
    r->first_hard_contact_s = -1.0;
    sim s;
    if (sim_create(&s, cfg, err)) return -1;
    const double hz = s.tick_hz;
    const uint64_t window = (uint64_t)(SEA_RUN_CONTACT_S * hz);
    uint32_t n = nv_world_vessel_count(s.world), cap = nv_world_next_id(s.world) + 1;
    r->boats = n;
    r->types = s.type_count < SEA_RUN_TYPES ? s.type_count : SEA_RUN_TYPES;
    for (uint32_t t = 0; t < r->types; t++)
        snprintf(r->type_names[t], sizeof r->type_names[t], "%s", nv_world_hull_type_name(s.world, t));
    /* per vessel id: the tick after its last contact (0: none yet), its type, a sea capsize seen, holed */
    uint64_t* touched = calloc(cap, sizeof *touched);
    uint32_t* type_of = calloc(cap, sizeof *type_of);
    uint8_t* sea_hit = calloc(cap, 1);
    uint8_t* holed = calloc(cap, 1);
    nv_world_vessel_state* batch = malloc((n ? n : 1) * sizeof *batch);
    /* per vessel id, sampled each second for the capsize lines: speed (m/s),
     * the waves' angle off the stern (deg; 180 head seas) and the throttle */
    float* seen = calloc((size_t)cap * 3, sizeof *seen);
    /* per vessel id: its last contact begun (the other party, its closing
     * speed and tick), for the breach lines */
    uint32_t* met = calloc(cap, sizeof *met);
    float* met_speed = calloc(cap, sizeof *met_speed);
    uint64_t* met_tick = calloc(cap, sizeof *met_tick);
    const double wave = s.inst.ocean ? nv_ocean_get_params(s.inst.ocean)->wind_direction * NV_PI / 180.0 : 0.0;
    if (!touched || !type_of || !sea_hit || !holed || !batch || !seen || !met || !met_speed || !met_tick) {
        free(touched), free(type_of), free(sea_hit), free(holed), free(batch), free(seen);
        free(met), free(met_speed), free(met_tick);
        sim_destroy(&s);
        return nv_error_fail(err, NV_ENOMEM, "out of memory");
    }
    for (uint32_t k = 0; k < n; k++) {
        nv_world_vessel_state v;
        nv_world_vessel_get(s.world, nv_world_vessel_id_at(s.world, k), &v);
        type_of[v.id] = v.type;
        if (v.type < r->types) r->by_type[v.type]++;
    }
    const uint64_t steps = (uint64_t)(seconds * hz + 0.5);
    double t0 = sea_run_now();
    for (uint64_t i = 1; i <= steps; i++) {
        sim_step(&s);
        const uint64_t tick = nv_world_tick(s.world);
        uint32_t ne;
        const nv_world_contact_event* ce = nv_world_contact_events(s.world, &ne);
        r->contact_events += ne;
        for (uint32_t k = 0; k < ne; k++) {
            if (ce[k].id_b != WORLD_CONTACT_GROUND && ce[k].closing_speed > SEA_RUN_HARD_MS) {
                r->hard_contacts++;
                if (r->first_hard_contact_s < 0) r->first_hard_contact_s = (double)tick / hz;
                if (progress && r->hard_contacts <= 20)
                    fprintf(progress, "sea-run: %.1f s: vessels %u and %u struck at %.2f m/s\n", (double)tick / hz,
                            ce[k].id_a, ce[k].id_b, ce[k].closing_speed);
            }
            if (ce[k].id_a < cap) touched[ce[k].id_a] = tick;
            if (ce[k].id_b < cap) touched[ce[k].id_b] = tick;
            const uint32_t pair[2] = {ce[k].id_a, ce[k].id_b};
            for (int e = 0; e < 2; e++)
                if (pair[e] < cap)
                    met[pair[e]] = pair[1 - e], met_speed[pair[e]] = (float)ce[k].closing_speed, met_tick[pair[e]] = tick;
        }
        uint32_t live = nv_world_vessel_count(s.world);
        for (uint32_t first = 0; first < live; first += n) {
            uint32_t got = nv_world_read_vessels(s.world, first, n, batch);
            for (uint32_t k = 0; k < got; k++) {
                const nv_world_vessel_state* v = &batch[k];
                if (v->id >= cap) continue;
                if (v->contact_points || (v->flags & WORLD_VESSEL_GROUNDED)) touched[v->id] = tick;
                if (tick % (uint64_t)hz == 0 && !nv_world_capsized(v->orientation)) {
                    nv_vec3 bow = quat_rotate(v->orientation, v3(1.0, 0.0, 0.0));
                    float* f = &seen[3 * (size_t)v->id];
                    f[0] = (float)sqrt(v->velocity.x * v->velocity.x + v->velocity.z * v->velocity.z);
                    f[1] = (float)(fabs(remainder(atan2(-bow.z, bow.x) - wave, 2.0 * NV_PI)) * 180.0 / NV_PI);
                    f[2] = (float)v->throttle;
                }
            }
        }
        uint32_t nd;
        const nv_world_damage_event* de = nv_world_damage_events(s.world, &nd);
        for (uint32_t k = 0; k < nd; k++) {
            if (de[k].id >= cap) continue;
            /* the step's breaches come before its capsizes */
            if (de[k].kind == WORLD_DAMAGE_BREACH) {
                const uint32_t id = de[k].id;
                holed[id] = 1, r->breaches++;
                if (progress && r->breaches <= 20) {
                    char with[48];
                    if (met[id] == WORLD_CONTACT_GROUND) snprintf(with, sizeof with, "the ground");
                    else snprintf(with, sizeof with, "vessel %u", met[id]);
                    fprintf(progress, "sea-run: %.1f s: %s %u holed, %.2f m^2 (its last contact begun: with %s at %.2f m/s, "
                            "%.1f s before)\n", (double)tick / hz, r->type_names[type_of[id] < r->types ? type_of[id] : 0],
                            id, de[k].area, met_tick[id] ? with : "none", met_speed[id],
                            met_tick[id] ? (double)(tick - met_tick[id]) / hz : 0.0);
                }
            }
            if (de[k].kind != WORLD_DAMAGE_CAPSIZED) continue;
            uint32_t id = de[k].id, t = type_of[id] < r->types ? type_of[id] : 0;
            int after_contact = touched[id] && tick - touched[id] <= window;
            if (!after_contact && !holed[id]) {
                r->sea_capsizes[t]++;
                if (!sea_hit[id]) sea_hit[id] = 1, r->sea_capsized_boats++;
                if (r->first_sea_capsize_s < 0) r->first_sea_capsize_s = (double)tick / hz;
                if (progress)
                    fprintf(progress, "sea-run: %.1f s: %s %u capsized by the sea (a second before: %.1f m/s, waves %.0f "
                            "deg off the stern, throttle %.2f)\n", (double)tick / hz, r->type_names[t], id,
                            seen[3 * (size_t)id], seen[3 * (size_t)id + 1], seen[3 * (size_t)id + 2]);
            } else if (after_contact) {
                r->contact_capsizes[t]++;
            } else {
                r->holed_capsizes[t]++;
            }
        }
        if (progress && i % (uint64_t)(60.0 * hz) == 0) {
            uint32_t sea = 0, hit = 0, holes = 0;
            for (uint32_t t = 0; t < r->types; t++)
                sea += r->sea_capsizes[t], hit += r->contact_capsizes[t], holes += r->holed_capsizes[t];
            fprintf(progress,
                    "sea-run: %5.1f min sea time, %6.1f s wall: %u sea capsizes (%u boats), %u after contact, %u holed; "
                    "%llu vessel contacts above %.0f m/s, %llu breaches\n",
                    (double)i / hz / 60.0, sea_run_now() - t0, sea, r->sea_capsized_boats, hit, holes,
                    (unsigned long long)r->hard_contacts, SEA_RUN_HARD_MS, (unsigned long long)r->breaches);
            fflush(progress);
        }
    }
    r->wall_s = sea_run_now() - t0;
    r->sea_time_s = (double)steps / hz;
    uint32_t live = nv_world_vessel_count(s.world);
    for (uint32_t first = 0; first < live; first += n) {
        uint32_t got = nv_world_read_vessels(s.world, first, n, batch);
        for (uint32_t k = 0; k < got; k++)
            if (batch[k].type < r->types && nv_world_capsized(batch[k].orientation)) r->keel_up_end[batch[k].type]++;
    }
    free(touched), free(type_of), free(sea_hit), free(holed), free(batch), free(seen);
    free(met), free(met_speed), free(met_tick);
    sim_destroy(&s);
    return 0;
}

static uint32_t sea_run_total(const uint32_t* per_type, uint32_t types) {
    uint32_t sum = 0;
    for (uint32_t t = 0; t < types; t++) sum += per_type[t];
    return sum;
}

static void sea_run_print(const sea_run_result* r, FILE* out) {
    fprintf(out, "sea-run: %u boats, %.1f min of sea time in %.1f s wall (%.1fx real time); contacts begun: %llu\n",
            r->boats, r->sea_time_s / 60.0, r->wall_s, r->wall_s > 0 ? r->sea_time_s / r->wall_s : 0.0,
            (unsigned long long)r->contact_events);
    fprintf(out, "sea-run: vessel contacts closing above %.0f m/s: %llu (first at %.0f s); hull breaches: %llu\n",
            SEA_RUN_HARD_MS, (unsigned long long)r->hard_contacts, r->first_hard_contact_s,
            (unsigned long long)r->breaches);
    fprintf(out, "sea-run: %-10s %6s %13s %17s %15s %12s\n", "type", "boats", "sea capsizes", "contact capsizes",
            "holed capsizes", "keel-up end");
    for (uint32_t t = 0; t < r->types; t++)
        fprintf(out, "sea-run: %-10s %6u %13u %17u %15u %12u\n", r->type_names[t], r->by_type[t], r->sea_capsizes[t],
                r->contact_capsizes[t], r->holed_capsizes[t], r->keel_up_end[t]);
    fprintf(out,
            "sea-run: total: %u sea capsizes (%u boats, first at %.0f s), %u after contact, %u of holed boats later, "
            "%u keel-up at the end\n",
            sea_run_total(r->sea_capsizes, r->types), r->sea_capsized_boats, r->first_sea_capsize_s,
            sea_run_total(r->contact_capsizes, r->types), sea_run_total(r->holed_capsizes, r->types),
            sea_run_total(r->keel_up_end, r->types));
}

#endif
