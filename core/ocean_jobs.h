// SPDX-License-Identifier: MIT
/* The ocean update run as jobs on the pool: each phase of ocean.h's split
 * update becomes one parallel-for over (cascade x block) work items. The
 * result is bit-identical to nv_ocean_update for any thread count. */
#ifndef NAVAL_OCEAN_JOBS_H
#define NAVAL_OCEAN_JOBS_H

#include "naval/jobs.h"
#include "naval/ocean.h"
#include "naval/world.h"

/* pool may be NULL (runs inline). */
void ocean_jobs_update(nv_ocean* o, double time, nv_jobs* pool);

/* A world_water that floats the world on this ocean, updated with jobs. */
nv_world_water ocean_jobs_water(nv_ocean* o);

#endif
