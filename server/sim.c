// SPDX-License-Identifier: MIT
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "grow.h"
#include "lanes.h"
#include "naval/mesh.h"
#include "naval/ocean_spectrum.h"
#include "naval/vessel_type.h"
#include "persist.h"
#include "record.h"
#include "resume.h"

/* The default sea: a fresh breeze's JONSWAP sea (U10 9 m/s, like every
 * wind; 100 km of fetch, short of full development: Hs 1.95 m, Tp 6.0 s)
 * on one 256^2 cascade, so that the world uses the surface-grid fast path. */
static void sim_default_ocean(nv_ocean_params* p, uint64_t seed) {
    *p = nv_ocean_params_default();
    p->spectrum = SPECTRUM_JONSWAP;
    p->wind_speed = 9.0;
    p->wind_direction = -30.0;
    p->size = 600.0;
    p->resolution = 256;
    p->cascades = 1;
    p->surface_grid = 1;
    p->seed = seed;
}

static int sim_default_scenario(const cfg_server* cfg, nv_scenario* s, nv_error* err) {
    memset(s, 0, sizeof *s);
    s->world = nv_world_config_default();
    s->contacts = nv_world_contacts_default();
    s->has_ocean = true;
    sim_default_ocean(&s->ocean, (uint64_t)cfg->seed);
    /* The sea flags (config.h: -1 unset), as naval-ocean takes them: a
     * Beaufort number sets the wind and Hs; Hs alone gets the wind of a
     * fully developed sea of that height. The tile stays 600 m. */
    if (cfg->sea_beaufort >= 0) s->ocean.beaufort = (int)cfg->sea_beaufort;
    if (cfg->sea_wind >= 0) s->ocean.wind_speed = cfg->sea_wind;
    if (cfg->sea_hs >= 0) {
        s->ocean.hs_target = cfg->sea_hs;
        if (cfg->sea_wind < 0) s->ocean.wind_speed = nv_spectrum_wind_for_hs(cfg->sea_hs, s->ocean.gravity);
    }
    if (cfg->sea_tp >= 0) s->ocean.tp = cfg->sea_tp;
    if (cfg->sea_wind_dir != CFG_WIND_DIR_UNSET) s->ocean.wind_direction = cfg->sea_wind_dir;
    int flags = cfg->sea_beaufort >= 0 || cfg->sea_wind >= 0 || cfg->sea_hs >= 0 || cfg->sea_tp >= 0 ||
                cfg->sea_wind_dir != CFG_WIND_DIR_UNSET;
    if (nv_ocean_params_validate(&s->ocean, err)) return flags ? nv_error_prefix(err, "the sea flags") : -1;
    int n = nv_vessel_type_builtin_count();
    s->hulls = calloc((size_t)n, sizeof *s->hulls);
    if (!s->hulls) return nv_error_fail(err, NV_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++) {
        nv_vessel_type t;
        if (nv_vessel_type_builtin(nv_vessel_type_builtin_name(i), &t, err)) return -1;
        nv_scenario_hull_from_type(&t, true, &s->hulls[s->hull_count++]);
    }
    return 0;
}

static void sim_warn_overlap(void* ctx, const char* message) { log_warn("%s: %s", (const char*)ctx, message); }

static int sim_load_scenario(const cfg_server* cfg, nv_scenario* s, nv_error* err) {
    int rc = cfg->scenario[0] ? nv_scenario_load_file(cfg->scenario, s, err) : sim_default_scenario(cfg, s, err);
    if (rc) return -1;
    if (cfg->tick_hz > 0) s->world.tick_hz = cfg->tick_hz;
    /* A sunk boat lingers to the seabed or the removal depth: 50 m on the
     * default world, the scenario's (0: never) unless the setting says. */
    if (cfg->sunk_removal_depth >= 0) s->world.sunk_removal_depth = cfg->sunk_removal_depth;
    else if (!cfg->scenario[0]) s->world.sunk_removal_depth = SIM_DEFAULT_SUNK_REMOVAL_DEPTH;
    const char* ground = cfg->terrain[0] ? cfg->terrain : (cfg->scenario[0] ? NULL : "builtin:harbour");
    if (ground && nv_scenario_terrain_from_spec(ground, &s->terrain, err)) return nv_error_prefix(err, "terrain");
    return 0;
}

/* Types the demo fleet may use: those with a propeller (the autopilot
 * needs thrust and a rudder or a swivelling drive). */
static uint32_t sim_demo_types(const nv_scenario* s, uint32_t* out) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->hull_count; i++)
        if (s->hulls[i].has_dynamics && s->hulls[i].dynamics.actuators.propeller_count > 0) out[n++] = i;
    return n;
}

static double sim_random(uint64_t* st) {
    uint64_t z = (*st += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}

static int sim_append(nv_scenario* s, const nv_scenario_vessel* v, nv_error* err) {
    if (GROW(&s->vessels, &s->vessel_capacity, s->vessel_count + 1, 64))
        return nv_error_fail(err, NV_ENOMEM, "out of memory for the demo fleet");
    s->vessels[s->vessel_count++] = *v;
    return 0;
}

/* The harbour's berthing boats (lanes_berth): this many of the smallest
 * type when it is shorter than SIM_BERTH_MAX_M and has five times as many
 * boats, on a stadium of SIM_BERTH_RADIUS_M up the quay's face,
 * SIM_BERTH_GAP_M off it, at SIM_BERTH_SPEED (m/s), lying alongside for
 * SIM_BERTH_S each lap. */
#define SIM_BERTH_BOATS 2u
#define SIM_BERTH_MAX_M 10.0
#define SIM_BERTH_RADIUS_M 25.0
#define SIM_BERTH_GAP_M AUTOPILOT_BERTH_APPROACH_M /* the moored boat lies nearer: autopilot.h */
#define SIM_BERTH_SPEED 3.0 /* what a skiff makes at the least throttle that steers it */
#define SIM_BERTH_RUN_IN_M 20.0 /* of straight before the face: three skiff lengths */
#define SIM_BERTH_S 40.0 /* under half a lap: the berth is free when the next boat comes */
#define SIM_BERTH_THROTTLE 0.1 /* where the keeper starts: about the berth lane's speed for a skiff */
/* And one that runs up the island's beach each lap (lanes_beach): its
 * lane SIM_BEACH_STANDOFF_M off the shoreline (3.5 m of water), aground
 * for SIM_BEACH_S. */
#define SIM_BEACH_BOATS 1u
#define SIM_BEACH_STANDOFF_M 35.0
#define SIM_BEACH_HALF_M 30.0
#define SIM_BEACH_RADIUS_M 20.0
#define SIM_BEACH_S 30.0

/* The demo fleet as planned: where it starts in the scenario's vessels,
 * its lanes, and each of its boats' lane. */
typedef struct sim_demo {
    uint32_t first;
    lane* lanes;
    uint32_t lane_count;
    uint32_t* lane_of;
} sim_demo;

static void sim_demo_free(sim_demo* d) {
    free(d->lanes);
    free(d->lane_of);
    memset(d, 0, sizeof *d);
}

/* Length (bow to stern) and beam of each hull type, m, from its mesh. */
static int sim_hull_sizes(const nv_scenario* s, double* out, double* beam, nv_error* err) {
    for (uint32_t i = 0; i < s->hull_count; i++) {
        nv_mesh m;
        if (nv_vessel_type_load_hull(s->hulls[i].source, &s->hulls[i].mesh, &m, err))
            return nv_error_prefix(err, "hull type '%s'", s->hulls[i].name);
        float lo = INFINITY, hi = -INFINITY, side = 0.0f;
        for (uint32_t v = 0; v < m.vertex_count; v++) {
            lo = fminf(lo, m.positions[3 * v]), hi = fmaxf(hi, m.positions[3 * v]);
            side = fmaxf(side, fabsf(m.positions[3 * v + 2]));
        }
        out[i] = m.vertex_count ? (double)(hi - lo) : 0.0;
        beam[i] = 2.0 * (double)side;
        nv_mesh_free(&m);
    }
    return 0;
}

/* The demo fleet: types mixed (mostly small boats; in the default world
 * half skiffs, a third patrol boats, the rest freighters), each type on
 * its own traffic lanes (lanes.h) round the area's centre, the straights
 * along the waves, evenly spaced on them and moving ahead along them; in
 * the built-in harbour (`harbour`) a few small ones on a lane that brings
 * them alongside its quay. d->lane_of[k] is the lane of the demo fleet's
 * k-th boat. */
static int sim_add_demo(nv_scenario* s, const uint32_t* types, uint32_t ntypes, uint32_t boats, double half,
                        const nv_terrain* ground, int harbour, uint64_t seed, sim_demo* d, nv_error* err) {
    uint64_t rng = seed * 0x9E3779B97F4A7C15ull + 3;
    uint32_t* count = calloc(s->hull_count, sizeof *count);
    double* length = calloc(s->hull_count, sizeof *length);
    double* beam = calloc(s->hull_count, sizeof *beam);
    lanes_fleet* fleets = calloc(ntypes, sizeof *fleets);
    d->lane_of = malloc((boats ? boats : 1) * sizeof *d->lane_of);
    int rc = 0;
    if (!count || !length || !beam || !fleets || !d->lane_of) {
        rc = nv_error_fail(err, NV_ENOMEM, "out of memory for the demo fleet");
        goto done;
    }
    for (uint32_t i = 0; i < boats; i++) {
        double u = sim_random(&rng);
        count[types[ntypes == 3 ? (u < 0.5 ? 0 : (u < 0.85 ? 1 : 2)) : (uint32_t)(u * ntypes) % ntypes]]++;
    }
    if ((rc = sim_hull_sizes(s, length, beam, err))) goto done;
    /* In the harbour a few of the smallest boats (under SIM_BERTH_MAX_M)
     * keep to the basin, lying alongside the quay a while each lap. */
    uint32_t small = UINT32_MAX, berthing = 0, beaching = 0;
    for (uint32_t k = 0; k < ntypes; k++)
        if (length[types[k]] < SIM_BERTH_MAX_M && (small == UINT32_MAX || length[types[k]] < length[small])) small = types[k];
    if (harbour && small != UINT32_MAX && count[small] >= 5 * (SIM_BERTH_BOATS + SIM_BEACH_BOATS)) {
        berthing = SIM_BERTH_BOATS;
        beaching = SIM_BEACH_BOATS;
        count[small] -= berthing + beaching;
    }
    for (uint32_t k = 0; k < ntypes; k++)
        fleets[k] = (lanes_fleet){.type = types[k], .boats = count[types[k]], .length = length[types[k]]};
    /* the straights along the waves (any way on flat water) */
    const double axis = s->has_ocean ? s->ocean.wind_direction * NV_PI / 180.0 : 0.0;
    char why[96];
    if (lanes_plan(ground, 0.0, 0.0, axis, 0.4 * half, fleets, ntypes, &d->lanes, &d->lane_count, why, sizeof why)) {
        rc = nv_error_set(err, "--boats %u: no traffic lanes for the demo fleet: %s", boats, why);
        goto done;
    }
    if (berthing) {
        lane* more = realloc(d->lanes, (d->lane_count + 2) * sizeof *more);
        if (!more) {
            rc = nv_error_fail(err, NV_ENOMEM, "out of memory for the demo fleet");
            goto done;
        }
        d->lanes = more;
        lane* b = &d->lanes[d->lane_count++];
        /* up the quay's face from a run-in south of it (the basin is deep
         * there) to its middle, the north turn well clear of the jetty
         * (a skiff's turn in the seas runs 7 m wide), the berth on the
         * face's southern half */
        *b = lanes_berth(NV_HARBOUR_QUAY_X1, NV_HARBOUR_QUAY_Z0 - SIM_BERTH_RUN_IN_M,
                         0.5 * (NV_HARBOUR_QUAY_Z0 + NV_HARBOUR_QUAY_Z1) + 5.0,
                         0.5 * (NV_HARBOUR_QUAY_Z0 + NV_HARBOUR_QUAY_Z1) - 7.5, beam[small], SIM_BERTH_GAP_M,
                         SIM_BERTH_RADIUS_M, length[small], SIM_BERTH_SPEED, small,
                         (uint32_t)(SIM_BERTH_S * s->world.tick_hz));
        b->boats = berthing;
        b->throttle = SIM_BERTH_THROTTLE;
        lane* c = &d->lanes[d->lane_count++];
        *c = lanes_beach(NV_HARBOUR_BEACH_X, NV_HARBOUR_BEACH_Z, SIM_BEACH_STANDOFF_M, SIM_BEACH_HALF_M,
                         SIM_BEACH_RADIUS_M, length[small], SIM_BERTH_SPEED, small, (uint32_t)(SIM_BEACH_S * s->world.tick_hz));
        c->boats = beaching;
        c->throttle = SIM_BERTH_THROTTLE;
    }
    /* On each lane its boats evenly spaced, each lane's first at a place
     * of its own (lanes side by side do not start with boats abreast). */
    uint32_t placed = 0;
    for (uint32_t k = 0; k < d->lane_count; k++) {
        const lane* l = &d->lanes[k];
        const double P = lane_perimeter(l), gap = l->boats ? P / l->boats : P, offset = sim_random(&rng) * gap;
        for (uint32_t j = 0; j < l->boats; j++) {
            nv_scenario_vessel v;
            memset(&v, 0, sizeof v);
            v.hull = l->type;
            v.afloat = true;
            double heading;
            lane_point(l, offset + j * gap, &v.x, &v.z, &heading);
            v.heading_deg = heading * 180.0 / NV_PI;
            v.velocity = v3(l->speed * cos(heading), 0.0, -l->speed * sin(heading));
            if ((rc = sim_append(s, &v, err))) goto done;
            d->lane_of[placed++] = k;
        }
    }
done:
    free(count), free(length), free(beam), free(fleets);
    return rc;
}

/* What the autopilot's seamanship needs, from the world as built (the same
 * at a restore): the sea's Beaufort number (the ocean's own, else that of
 * its significant height; 0 on flat water) and the way its waves travel,
 * and each type's rated Beaufort number (its "rated_beaufort", carried by
 * scenarios and checkpoints; -1 for a type without one). */
static int sim_pilot_seamanship(sim* s, nv_error* err) {
    int beaufort = 0;
    double wave_heading = 0.0;
    if (s->inst.ocean) {
        const nv_ocean_params* p = nv_ocean_get_params(s->inst.ocean);
        nv_ocean_stats st;
        if (p->beaufort >= 0) {
            beaufort = p->beaufort;
        } else {
            nv_ocean_measure(s->inst.ocean, &st);
            beaufort = autopilot_beaufort_for_hs(st.hs_spectrum);
        }
        wave_heading = p->wind_direction * NV_PI / 180.0;
    }
    autopilot_set_sea(s->pilot, beaufort, wave_heading);
    int* rated = malloc((s->type_count ? s->type_count : 1) * sizeof *rated);
    if (!rated) return nv_error_fail(err, NV_ENOMEM, "out of memory");
    for (uint32_t t = 0; t < s->type_count; t++)
        rated[t] = s->hulls[t].has_rating ? s->hulls[t].rated_beaufort : -1;
    int rc = autopilot_set_ratings(s->pilot, rated, s->type_count);
    free(rated);
    return rc ? nv_error_fail(err, NV_ENOMEM, "out of memory") : 0;
}

static double sim_area_for(const cfg_server* cfg, uint32_t boats) {
    if (cfg->area > 0) return cfg->area;
    double half = 45.0 * sqrt((double)boats);
    return half < 400.0 ? 400.0 : half;
}

static int sim_prepare(const cfg_server* cfg, nv_scenario* s, sim_demo* demo, nv_error* err) {
    memset(demo, 0, sizeof *demo);
    if (sim_load_scenario(cfg, s, err)) return -1;
    demo->first = s->vessel_count;
    uint32_t boats = (uint32_t)cfg->boats;
    if (!boats) return 0;
    uint32_t* types = malloc((s->hull_count ? s->hull_count : 1) * sizeof *types);
    if (!types) return nv_error_fail(err, NV_ENOMEM, "out of memory");
    uint32_t n = sim_demo_types(s, types);
    int rc = 0;
    nv_terrain* ground = NULL;
    if (!n)
        rc = nv_error_set(err,
                          "--boats %u: the scenario has no vessel type with a propeller for the demo fleet "
                          "(add e.g. \"vessel_types\": [\"builtin:patrol\"], or --boats 0)",
                          boats);
    else if (!(rc = nv_scenario_load_terrain(&s->terrain, &ground, err)))
        rc = sim_add_demo(s, types, n, boats, sim_area_for(cfg, boats), ground,
                          strcmp(s->terrain.source, "builtin:harbour") == 0, (uint64_t)cfg->seed, demo, err);
    nv_terrain_destroy(ground);
    free(types);
    return rc;
}

int sim_check(const cfg_server* cfg, nv_error* err) {
    if (cfg->restore[0]) {
        nv_checkpoint c;
        if (persist_read(cfg->restore, &c, err)) return -1;
        owners o = {0};
        autopilot* a = NULL;
        int rc = resume_decode(c.owner_blob, c.owner_size, NULL, 0, &o, &a, err);
        autopilot_destroy(a);
        owners_free(&o);
        nv_checkpoint_free(&c);
        return rc;
    }
    nv_scenario s;
    sim_demo demo;
    int rc = sim_prepare(cfg, &s, &demo, err);
    sim_demo_free(&demo);
    nv_scenario_free(&s);
    return rc;
}

/* A copy of the structures' descriptions, for checkpoints. */
static int sim_keep_structures(sim* s, const nv_scenario_structure* st, uint32_t n, nv_error* err) {
    s->structure_count = 0;
    if (!n) return 0;
    s->structures = malloc(n * sizeof *s->structures);
    if (!s->structures) return nv_error_fail(err, NV_ENOMEM, "out of memory");
    memcpy(s->structures, st, n * sizeof *st);
    s->structure_count = n;
    return 0;
}

/* A copy of the hull descriptions: a checkpoint names how each type was built. */
static int sim_keep_hulls(sim* s, const nv_scenario_hull* hulls, uint32_t n, nv_error* err) {
    s->hulls = malloc((n ? n : 1) * sizeof *s->hulls);
    if (!s->hulls) return nv_error_fail(err, NV_ENOMEM, "out of memory");
    if (n) memcpy(s->hulls, hulls, n * sizeof *hulls);
    return 0;
}

int sim_create(sim* s, const cfg_server* cfg, nv_error* err) {
    memset(s, 0, sizeof *s);
    nv_scenario scn;
    sim_demo demo;
    if (sim_prepare(cfg, &scn, &demo, err)) {
        sim_demo_free(&demo);
        nv_scenario_free(&scn);
        return -1;
    }
    if (cfg->lod)
        for (uint32_t i = 0; i < scn.hull_count; i++)
            if (!scn.hulls[i].columns_nx) {
                scn.hulls[i].columns_nx = SIM_LOD_COLUMNS_NX;
                scn.hulls[i].columns_nz = SIM_LOD_COLUMNS_NZ;
            }
    s->world_cfg = scn.world;
    s->tick_hz = scn.world.tick_hz;
    s->demo_boats = (uint32_t)cfg->boats;
    s->area = sim_area_for(cfg, s->demo_boats);
    int rc = -1;
    if (nv_jobs_create(&s->pool, (uint32_t)cfg->threads, err)) goto done;
    if (nv_scenario_instantiate(&scn, s->pool, &s->inst, err)) goto done;
    s->world = s->inst.world;
    /* The scenario's own vessels overlapping at the start: a warning each
     * (the demo fleet, drawn apart, is not checked). */
    if (cfg->scenario[0]) nv_scenario_check_overlaps(&scn, &s->inst, sim_warn_overlap, (void*)cfg->scenario);
    if (cfg->lod) {
        nv_world_lod lod = nv_world_lod_default();
        lod.enabled = 1;
        lod.mesh_within = cfg->lod_mesh_within;
        lod.columns_within = cfg->lod_columns_within;
        nv_world_set_lod(s->world, &lod);
    }
    s->type_count = nv_world_hull_type_count(s->world);
    s->pilot = autopilot_create((uint64_t)cfg->seed, 0.0, 0.0, s->area);
    if (!s->pilot) {
        nv_error_fail(err, NV_ENOMEM, "out of memory");
        goto done;
    }
    if (sim_keep_hulls(s, scn.hulls, scn.hull_count, err)) goto done;
    if (scn.event_count) {
        s->events = malloc(scn.event_count * sizeof *s->events);
        if (!s->events) {
            nv_error_fail(err, NV_ENOMEM, "out of memory");
            goto done;
        }
        memcpy(s->events, scn.events, scn.event_count * sizeof *s->events);
        s->event_count = scn.event_count;
    }
    s->terrain = scn.terrain;
    if (sim_keep_structures(s, scn.structures, scn.structure_count, err)) goto done;
    /* nv_scenario_instantiate spawns in order: vessel i has slot i. */
    if (autopilot_set_lanes(s->pilot, demo.lanes, demo.lane_count)) {
        nv_error_fail(err, NV_ENOMEM, "out of memory");
        goto done;
    }
    for (uint32_t i = demo.first; i < scn.vessel_count; i++)
        if (autopilot_add_on_lane(s->pilot, nv_world_vessel_id_at(s->world, i), demo.lane_of[i - demo.first])) {
            nv_error_fail(err, NV_ENOMEM, "out of memory");
            goto done;
        }
    if (sim_pilot_seamanship(s, err)) goto done;
    autopilot_update(s->pilot, s->world, s->pool);
    rc = 0;
done:
    sim_demo_free(&demo);
    nv_scenario_free(&scn);
    if (rc) sim_destroy(s);
    return rc;
}

int sim_restore(sim* s, const nv_checkpoint* c, uint32_t threads, uint64_t now_ns, owners* o, nv_error* err) {
    memset(s, 0, sizeof *s);
    s->world_cfg = c->world;
    s->tick_hz = c->world.tick_hz;
    int rc = -1;
    if (nv_jobs_create(&s->pool, threads, err)) goto done;
    if (nv_checkpoint_restore(c, s->pool, &s->inst, err)) goto done;
    s->world = s->inst.world;
    s->type_count = nv_world_hull_type_count(s->world);
    if (sim_keep_hulls(s, c->hulls, c->hull_count, err)) goto done;
    s->terrain = c->terrain;
    if (sim_keep_structures(s, c->structures, c->structure_count, err)) goto done;
    /* No autopilot_update here: the controls are the checkpoint's, and the
     * next step's update is the one the original run would have made. */
    if (c->owner_size == 0) {
        /* No owner blob (naval-sim --record's base): nobody owns or pilots a vessel. */
        s->pilot = autopilot_create(0, 0.0, 0.0, 0.0);
        if (!s->pilot) {
            nv_error_fail(err, NV_ENOMEM, "out of memory");
            goto done;
        }
    } else if (resume_decode(c->owner_blob, c->owner_size, s->world, now_ns, o, &s->pilot, err)) {
        goto done;
    }
    if (sim_pilot_seamanship(s, err)) goto done;
    autopilot_state st = autopilot_get_state(s->pilot);
    s->demo_boats = st.count;
    s->area = st.half;
    rc = 0;
done:
    if (rc) sim_destroy(s);
    return rc;
}

nv_checkpoint_source sim_checkpoint_source(const sim* s, const void* blob, size_t blob_size) {
    nv_checkpoint_source src = {s->world,    s->inst.ocean, s->hulls, s->type_count,
                             &s->terrain, s->structures, blob,     blob_size};
    return src;
}

void sim_destroy(sim* s) {
    autopilot_destroy(s->pilot);
    nv_scenario_instance_destroy(&s->inst);
    nv_jobs_destroy(s->pool);
    free(s->hulls);
    free(s->events);
    free(s->structures);
    memset(s, 0, sizeof *s);
}

void sim_step(sim* s) {
    /* The autopilot is the server's, run again by a replay: its controls
     * are not inputs from outside, and are not recorded. */
    void* arg;
    const nv_world_recorder* r = nv_world_get_recorder(s->world, &arg);
    nv_world_set_recorder(s->world, NULL, NULL);
    const uint64_t t0 = uv_hrtime();
    autopilot_update(s->pilot, s->world, s->pool);
    s->pilot_ns = uv_hrtime() - t0;
    nv_world_set_recorder(s->world, r, arg);
    nv_world_step(s->world);
}

void sim_set_record(sim* s, struct record* r) {
    s->rec = r;
    if (s->world) record_attach(s->world, r);
}

int sim_spawn(sim* s, uint32_t type, double x, double z, double heading, uint32_t* id, nv_error* err) {
    if (type >= s->type_count)
        return nv_error_fail(err, NV_ENOENT, "no vessel type %u (the world has %u)", type, s->type_count);
    double y;
    if (nv_world_type_float_height(s->world, type, &y, err)) return -1;
    nv_quat q = quat_from_axis_angle(v3(0.0, 1.0, 0.0), heading);
    return nv_world_spawn(s->world, type, v3(x, y, z), q, id, err);
}
