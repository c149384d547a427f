// SPDX-License-Identifier: MIT
/* Every public header in one C++ translation unit, beside the names a
 * game engine has of its own (a world, a mesh, a hull, a vec3...): the
 * headers compile as C++, declare C linkage (the calls below link against
 * the C library), and every public type is nv_ prefixed, so nothing here
 * clashes. */
struct world { int engine_world; };
struct mesh { int engine_mesh; };
struct hull { int engine_hull; };
struct ocean { int engine_ocean; };
struct scenario { int engine_scenario; };
struct checkpoint { int engine_checkpoint; };
struct jobs { int engine_jobs; };
struct terrain { int engine_terrain; };
struct vec3 { float x, y, z; };
struct quat { float x, y, z, w; };
struct vessel_type { int engine_type; };

#include "naval/actuator.h"
#include "naval/checkpoint.h"
#include "naval/columns.h"
#include "naval/compartment.h"
#include "naval/hull.h"
#include "naval/hullgen.h"
#include "naval/hydrodyn.h"
#include "naval/jobs.h"
#include "naval/mass.h"
#include "naval/mesh.h"
#include "naval/nv_error.h"
#include "naval/ocean.h"
#include "naval/ocean_spectrum.h"
#include "naval/ranges.h"
#include "naval/scenario.h"
#include "naval/simd.h"
#include "naval/statics.h"
#include "naval/terrain.h"
#include "naval/vecmath.h"
#include "naval/vessel_type.h"
#include "naval/water.h"
#include "naval/world.h"

#include <cstdio>
#include <cstring>

int main() {
    world w{1};
    vec3 v{1.0f, 2.0f, 3.0f};
    nv_vec3 nv = {1.0, 2.0, 3.0};
    nv_error err;
    nv_error_set(&err, "engine world %d, vector %g, naval vector %g", w.engine_world, (double)v.z, nv.z);
    nv_world_config cfg = nv_world_config_default();
    nv_world* nw = nullptr;
    if (nv_world_create(&nw, &cfg, nullptr, &err) != 0) {
        std::printf("nv_world_create: %s\n", err.message);
        return 1;
    }
    unsigned count = nv_world_vessel_count(nw);
    nv_world_destroy(nw);
    const nv_range* r = nv_range_get(NV_RANGE_OCEAN_WIND);
    if (count != 0 || !r || std::strcmp(r->name, "ocean.wind") != 0) {
        std::printf("unexpected: %u vessels, range %s\n", count, r ? r->name : "(none)");
        return 1;
    }
    std::printf("every public header compiles as C++ beside an engine's own world, mesh, hull, vec3...; "
                "a world made and freed through C linkage\n");
    return 0;
}
