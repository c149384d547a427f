// SPDX-License-Identifier: MIT
/* The simulation the server runs: the job pool, the ocean and the world
 * (the default world, or a scenario file), the demo fleet and its
 * autopilot. Owned and used by the loop thread alone; the job pool's
 * workers only run inside sim_step. */
#ifndef NAVAL_SERVER_SIM_H
#define NAVAL_SERVER_SIM_H

#include <stdint.h>

#include "autopilot.h"
#include "config.h"
#include "naval/checkpoint.h"
#include "naval/jobs.h"
#include "naval/nv_error.h"
#include "naval/ocean.h"
#include "naval/scenario.h"
#include "naval/world.h"
#include "owners.h"

/* The column grid the server gives every hull type when levels of detail
 * are on (as naval-bench --model columns). */
#define SIM_LOD_COLUMNS_NX 20
#define SIM_LOD_COLUMNS_NZ 5
#define SIM_DEFAULT_SUNK_REMOVAL_DEPTH 50.0 /* m, on the default world */

typedef struct sim {
    nv_jobs* pool;
    nv_scenario_instance inst;  /* world + ocean (NULL on flat water) */
    nv_world* world;            /* = inst.world */
    autopilot* pilot;
    nv_world_config world_cfg;  /* as built (tick rate, water) */
    double tick_hz;
    uint32_t demo_boats;
    double area;             /* demo area half-width, m */
    uint32_t type_count;
    nv_scenario_hull* hulls;    /* how each type was built, for checkpoints (type_count) */
    nv_scenario_terrain terrain; /* how the terrain was made, for checkpoints (source "" for none) */
    nv_scenario_structure* structures; /* how each structure was made, for checkpoints */
    uint32_t structure_count;
    struct record* rec;      /* the record log when recording: the world's recorder (sim_set_record) */
    nv_scenario_event* events;  /* the scenario's damage, in time order (apply_scenario_events) */
    uint32_t event_count, event_next;
    uint64_t pilot_ns;          /* the last sim_step's autopilot update, ns (bench-server) */
} sim;

/* Builds the world the settings describe: --scenario or the default (an
 * FFT sea on one 256^2 cascade with the surface grid, and the built-in
 * vessel types), plus cfg->boats demo boats on autopilot; with cfg->lod,
 * column models for every type and automatic levels of detail. A
 * restored world keeps the levels of detail it was saved with. */
int sim_create(sim* s, const cfg_server* cfg, nv_error* err);
void sim_destroy(sim* s);

/* The world of a checkpoint instead (include/naval/checkpoint.h): the world as it
 * was, its clock included, the owned vessels into *o (empty on entry) as
 * orphans since now_ns, the autopilot from the owner blob (resume.h). */
int sim_restore(sim* s, const nv_checkpoint* c, uint32_t threads, uint64_t now_ns, owners* o, nv_error* err);

/* What nv_checkpoint_capture reads: the world, its ocean and hull sources,
 * and the owner blob given. */
nv_checkpoint_source sim_checkpoint_source(const sim* s, const void* blob, size_t blob_size);

/* Checks what sim_create would build without building it: the scenario
 * file parses and the demo fleet has a type with propellers; with
 * cfg->restore, that a checkpoint (or its .prev) and its owner blob read. */
int sim_check(const cfg_server* cfg, nv_error* err);

/* Autopilot (not recorded: a replay runs it again), then one world step
 * on the pool. */
void sim_step(sim* s);

/* The record log (NULL: none) becomes s->rec and the world's recorder. */
void sim_set_record(sim* s, struct record* r);

/* Afloat at (x, z), bow toward `heading` (radians about +y from +x toward
 * -z). */
int sim_spawn(sim* s, uint32_t type, double x, double z, double heading, uint32_t* id, nv_error* err);

#endif
