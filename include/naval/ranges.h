// SPDX-License-Identifier: MIT
/* The ranges of every number that can make a world meaningless: one table
 * (core/ranges.c) that the ocean's parameters (nv_ocean_params_validate),
 * scenario files, vessel-type files, the hydrodynamic coefficients and the
 * actuators (their validate functions), the world's settings
 * (nv_world_create, contacts, terrain), naval-ocean's, naval-hull's and
 * naval-bench's flags and the server's config all check against, so each
 * bound is written once, with its unit and the reason for it.
 *
 * A refusal names the key, the range and the value, in the project's
 * style: "ocean.wind: must be in [0, 60] m/s (got 1e+300)",
 * "resolution: must be a power of two in [4, 2048] (got 100)". NaN and the
 * infinities are never inside a range.
 *
 * Rows are named by the quantity ("ocean.wind", "world.tick_hz",
 * "type.mass"); where a row serves several keys (a position in mesh
 * coordinates: "cg", "propellers[i].position", "compartments.bulkheads"),
 * the message names the key that was given. tests/test_ranges.c walks the
 * table through every consumer. */
#ifndef NAVAL_RANGES_H
#define NAVAL_RANGES_H

#include <stddef.h>

#include "nv_error.h"
#include "naval/nv_api.h"

NV_API_BEGIN


typedef enum nv_range_id {
    /* The ocean (ocean_params; scenario "ocean"; naval-ocean). */
    NV_RANGE_OCEAN_WIND,           /* also the length of the flat-water wind vector */
    NV_RANGE_OCEAN_WIND_DIR,
    NV_RANGE_OCEAN_FETCH,
    NV_RANGE_OCEAN_DEPTH,
    NV_RANGE_OCEAN_HS,
    NV_RANGE_OCEAN_TP,
    NV_RANGE_OCEAN_GAMMA,
    NV_RANGE_OCEAN_SWELL,
    NV_RANGE_OCEAN_CHOPPINESS,
    NV_RANGE_OCEAN_SIZE,
    NV_RANGE_OCEAN_GRID_SPACING,   /* derived: the finest cascade's tile / resolution */
    NV_RANGE_OCEAN_RESOLUTION,
    NV_RANGE_OCEAN_CASCADES,
    NV_RANGE_OCEAN_CASCADE_RATIO,
    NV_RANGE_OCEAN_BEAUFORT,
    NV_RANGE_OCEAN_MIN_WAVELENGTH,
    NV_RANGE_OCEAN_REPEAT_PERIOD,
    NV_RANGE_OCEAN_QUERY_ITERATIONS,
    NV_RANGE_OCEAN_QUERY_TOLERANCE,
    /* The world (scenario top level, world_config, the server). */
    NV_RANGE_WORLD_TICK_HZ,
    NV_RANGE_WORLD_WATER_DENSITY,
    NV_RANGE_WORLD_GRAVITY,
    NV_RANGE_WORLD_LINEAR_DAMPING,
    NV_RANGE_WORLD_ANGULAR_DAMPING,
    NV_RANGE_WORLD_SUNK_REMOVAL_DEPTH,
    NV_RANGE_WORLD_POSITION,       /* each coordinate of a place in the world */
    NV_RANGE_WORLD_HEADING,
    NV_RANGE_WORLD_SEED,
    /* Vessels and fleets. */
    NV_RANGE_VESSEL_SPEED,         /* the length of a velocity; a fleet's speed */
    NV_RANGE_VESSEL_TURN_RATE,     /* the length of an angular velocity */
    NV_RANGE_VESSEL_CONTROL,
    NV_RANGE_VESSEL_ID,
    NV_RANGE_FLEET_COUNT,
    NV_RANGE_FLEET_SPACING,
    /* The static world. */
    NV_RANGE_TERRAIN_CELL_SIZE,
    NV_RANGE_TERRAIN_ELEVATION,
    NV_RANGE_STRUCTURE_BOX,
    NV_RANGE_CONTACT_FRICTION,
    NV_RANGE_CONTACT_RESTITUTION,
    NV_RANGE_CONTACT_HERTZ,
    NV_RANGE_CONTACT_DAMPING_RATIO,
    NV_RANGE_CONTACT_PUSH_SPEED,
    NV_RANGE_EVENT_TIME,
    /* Vessel types: mass properties (in mesh coordinates, m). */
    NV_RANGE_TYPE_MASS,
    NV_RANGE_TYPE_DENSITY,
    NV_RANGE_TYPE_COORDINATE,      /* cg, actuator positions, bulkheads, a damage point */
    NV_RANGE_TYPE_GYRATION,
    /* Vessel types: hydrodynamic coefficients (hydrodyn.h). */
    NV_RANGE_TYPE_VISCOSITY,
    NV_RANGE_TYPE_REYNOLDS_MIN,
    NV_RANGE_TYPE_REFERENCE_LENGTH,
    NV_RANGE_TYPE_RESIDUAL,
    NV_RANGE_TYPE_PRESSURE_LINEAR,
    NV_RANGE_TYPE_PRESSURE_QUADRATIC,
    NV_RANGE_TYPE_PRESSURE_FALLOFF,
    NV_RANGE_TYPE_SUCTION_LINEAR,
    NV_RANGE_TYPE_SUCTION_QUADRATIC,
    NV_RANGE_TYPE_SUCTION_FALLOFF,
    NV_RANGE_TYPE_REFERENCE_SPEED,
    NV_RANGE_TYPE_SLAM_POWER,
    NV_RANGE_TYPE_SLAM_GAMMA_MAX,
    NV_RANGE_TYPE_AIR_DENSITY,
    NV_RANGE_TYPE_AIR_DRAG,
    NV_RANGE_TYPE_AREA_DAMPING,    /* damping_linear[], damping_angular[] */
    NV_RANGE_TYPE_ADDED_MASS,      /* added_mass, added_inertia */
    NV_RANGE_TYPE_BILGE_KEEL,      /* bilge_keels.length, .breadth */
    NV_RANGE_TYPE_ROLL_DAMPING,    /* roll_damping.linear, .quadratic */
    NV_RANGE_TYPE_RATED_BEAUFORT,  /* rated_beaufort */
    NV_RANGE_TYPE_PLANING_LENGTH,  /* planing.chine_beam, .length */
    NV_RANGE_TYPE_PLANING_DEADRISE, /* planing.deadrise */
    /* Vessel types: actuators (actuator.h). */
    NV_RANGE_TYPE_PROPELLER_DIRECTION,
    NV_RANGE_TYPE_MAX_THRUST,
    NV_RANGE_TYPE_REVERSE,
    NV_RANGE_TYPE_IMMERSION,
    NV_RANGE_TYPE_STEERING,
    NV_RANGE_TYPE_PROPELLER_DIAMETER,
    NV_RANGE_TYPE_RUDDER_AREA,
    NV_RANGE_TYPE_RUDDER_ANGLE,    /* max_angle, stall_angle */
    NV_RANGE_TYPE_LIFT_SLOPE,
    NV_RANGE_TYPE_RUDDER_DRAG,
    NV_RANGE_TYPE_CONTROL_RATE,    /* throttle_rate, rudder_rate */
    /* Vessel types: damage (compartment.h). */
    NV_RANGE_TYPE_PUMPS,
    NV_RANGE_TYPE_BREACH_SPEED,
    NV_RANGE_TYPE_HOLE_AREA,       /* compartments.breach_area; a scenario event's area */
    NV_RANGE_TYPE_PLATING,         /* hull_strength.plating */
    NV_RANGE_TYPE_BREACH_ENERGY,   /* hull_strength.breach_energy */
    NV_RANGE_COUNT
} nv_range_id;

/* Open ends; an infinite end is no bound. */
enum { NV_RANGE_CLOSED = 0, NV_RANGE_LO_OPEN = 1, NV_RANGE_HI_OPEN = 2 };
/* What else a value must be; NV_RANGE_OR_ZERO: 0 is also taken (it means
 * "automatic" or "off": "0 or in [1, 100000] m"). */
enum { NV_RANGE_INTEGER = 1, NV_RANGE_POW2 = 2, NV_RANGE_OR_ZERO = 4 };

/* Which consumers read the quantity (tests/test_ranges.c walks each). */
enum {
    NV_RANGE_BY_OCEAN = 1 << 0,       /* nv_ocean_params_validate */
    NV_RANGE_BY_SCENARIO = 1 << 1,    /* scenario files */
    NV_RANGE_BY_VESSEL_TYPE = 1 << 2, /* vessel-type files */
    NV_RANGE_BY_TOOL = 1 << 3,        /* naval-ocean, naval-hull or naval-bench flags */
    NV_RANGE_BY_SERVER = 1 << 4,      /* the server's config */
    NV_RANGE_BY_CORE = 1 << 5         /* a core validate or setter (world, hydrodyn, actuators, terrain) */
};

typedef struct nv_range {
    const char* name;   /* "ocean.wind" */
    double lo, hi;
    unsigned open;      /* NV_RANGE_LO_OPEN | NV_RANGE_HI_OPEN */
    unsigned kind;      /* NV_RANGE_INTEGER | NV_RANGE_POW2 */
    const char* unit;   /* "m/s"; "" for none */
    unsigned consumers; /* NV_RANGE_BY_* */
    const char* reason; /* why these bounds */
} nv_range;

/* The row of an id (NULL outside the table); the row named `name` (NULL
 * when none). */
const nv_range* nv_range_get(nv_range_id id);
const nv_range* nv_range_find(const char* name);

/* 1 when v is finite, within the range and (for integer and power-of-two
 * rows) whole and a power of two, or 0 on an NV_RANGE_OR_ZERO row; else 0. */
int nv_range_contains(const nv_range* r, double v);

/* The range in words: "in [0, 60] m/s", "a power of two in [4, 2048]",
 * ">= 0.01 m", "an integer in [1, 4]", "0 or in [1, 100000] m". */
void nv_range_describe(const nv_range* r, char* out, size_t n);

/* 0 when nv_range_contains(id's row, v); else -1 and, in `out`, why:
 * "must be in [0, 60] m/s (got 1e+300)" (the value as short as it reads
 * back exactly). For messages that name the key their own way (a file's
 * path, a flag). */
int nv_range_why(nv_range_id id, double v, char* out, size_t n);

/* 0 when inside; else -1 and "KEY: must be ... (got V)" in err (KEY: the
 * row's name when NULL). */
int nv_range_check(nv_range_id id, double v, const char* key, nv_error* err);


NV_API_END

#endif
