// SPDX-License-Identifier: MIT
/* What the levels of detail cost the players: the same fleet stepped with
 * automatic levels and with the mesh everywhere, from the same start, and
 * each vessel's pose compared at the end, grouped by the model it had in
 * the run with levels (naval-bench --lod P --lod-error). */
#ifndef NAVAL_TOOLS_LOD_ERROR_H
#define NAVAL_TOOLS_LOD_ERROR_H

#include <stdint.h>
#include <stdio.h>

#include "naval/world.h"

typedef struct lod_error_band {
    uint32_t vessels;
    /* p50, p99, max over the band's vessels */
    double horizontal_m[3]; /* the CG's distance across the water */
    double vertical_m[3];   /* its height */
    double tilt_deg[3];     /* angle between the two decks' normals: heel and trim together */
    double heading_deg[3];  /* angle between the two bows seen from above */
} lod_error_band;

/* lod and ref: the vessels in the same order (the same scenario), n each;
 * bands[model] for mesh, columns, floater. -1 when the ids do not pair. */
int lod_error_compare(const nv_world_vessel_state* lod, const nv_world_vessel_state* ref, uint32_t n,
                      lod_error_band bands[3]);

void lod_error_print_text(FILE* out, const lod_error_band bands[3], double seconds);
void lod_error_print_json(FILE* out, const lod_error_band bands[3], double seconds);

#endif
