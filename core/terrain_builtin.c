// SPDX-License-Identifier: MIT
/* Built-in terrains, made from closed forms (no files to ship):
 *
 * "harbour": 600 m x 600 m around the origin, 2 m cells. An island of
 * radius 140 m at (-60, 0) rising to 25 m, its shores falling 1:4 to the
 * 30 m deep sea floor, except a beach on its -z side that runs 1:10 from
 * the shoreline; to the east a basin dredged to 9 m with a quay, a solid
 * block of fill standing 2 m out of the water with vertical walls
 * (x 60..100, z -60..-20), and a jetty (x 100..190, z 8..20) reaching out
 * from the island's side of the basin. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "naval/terrain.h"

#define HARBOUR_NODES 301u
#define HARBOUR_CELL 2.0
#define HARBOUR_ORIGIN (-300.0)
#define HARBOUR_FLOOR (-30.0)

static double terrain_smoothstep(double e0, double e1, double x) {
    double t = (x - e0) / (e1 - e0);
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    return t * t * (3.0 - 2.0 * t);
}

static int terrain_in_box(double x, double z, double x0, double x1, double z0, double z1) {
    return x >= x0 && x <= x1 && z >= z0 && z <= z1;
}

static double terrain_harbour(double x, double z) {
    const double cx = -60.0, cz = 0.0, shore = 140.0;
    double dx = x - cx, dz = z - cz, r = sqrt(dx * dx + dz * dz);
    /* the island: a dome above the shoreline, 1:4 below it */
    double rock = r < shore ? 25.0 * (1.0 - (r / shore) * (r / shore)) : -(r - shore) / 4.0;
    /* the beach: 1:10 through the shoreline, on the side facing -z, blended
     * into the rock over 25 degrees either side */
    double facing = r > 0.0 ? -dz / r : 0.0; /* 1 straight toward -z */
    double w = terrain_smoothstep(cos(50.0 * NV_PI / 180.0), cos(25.0 * NV_PI / 180.0), facing);
    double sand = (shore - r) / 10.0;
    double e = r < shore ? fmin(rock, (1.0 - w) * rock + w * sand) : (1.0 - w) * rock + w * sand;
    e = fmax(e, HARBOUR_FLOOR);
    /* the basin east of the island, 9 m deep off its shore */
    if (r >= shore && terrain_in_box(x, z, 40.0, 260.0, -120.0, 80.0)) e = -9.0;
    /* the quay and the jetty: fill 2 m above the water, vertical sides */
    if (terrain_in_box(x, z, NV_HARBOUR_QUAY_X0, NV_HARBOUR_QUAY_X1, NV_HARBOUR_QUAY_Z0, NV_HARBOUR_QUAY_Z1) ||
        terrain_in_box(x, z, 70.0, 190.0, 8.0, 20.0))
        e = 2.0;
    return e;
}

int nv_terrain_builtin(const char* name, nv_terrain** out, nv_error* err) {
    *out = NULL;
    if (strcmp(name, "harbour") != 0)
        return nv_error_set(err, "terrain: no built-in terrain '%s' (there is: harbour)", name);
    float* e = malloc((size_t)HARBOUR_NODES * HARBOUR_NODES * sizeof *e);
    if (!e) return nv_error_fail(err, NV_ENOMEM, "terrain: out of memory for builtin:%s", name);
    for (uint32_t j = 0; j < HARBOUR_NODES; j++)
        for (uint32_t i = 0; i < HARBOUR_NODES; i++)
            e[(size_t)j * HARBOUR_NODES + i] =
                (float)terrain_harbour(HARBOUR_ORIGIN + i * HARBOUR_CELL, HARBOUR_ORIGIN + j * HARBOUR_CELL);
    nv_terrain_spec spec = {HARBOUR_ORIGIN, HARBOUR_ORIGIN, HARBOUR_CELL, HARBOUR_FLOOR, 25.0};
    int rc = nv_terrain_create(out, HARBOUR_NODES, HARBOUR_NODES, e, &spec, err);
    free(e);
    return rc;
}
