// SPDX-License-Identifier: MIT
/* Watertight compartments of a hull (damaged stability, the first part of
 * flooding): the hull's closed mesh cut by transverse bulkheads (planes
 * x = const in the body frame) and longitudinal ones (z = const: wing
 * compartments) into closed, capped meshes, one per
 * compartment; and the water in a compartment: the level of a flat free
 * surface (horizontal in the world) that holds a given volume, with the
 * water's volume and centroid below any level, by the same exact cut as
 * the hydrostatics (Tupper, Biran: "cutting the compartment at the level
 * that holds the volume"). Prefix nv_compartment_. */
#ifndef NAVAL_COMPARTMENT_H
#define NAVAL_COMPARTMENT_H

#include <stdint.h>

#include "mesh.h"
#include "nv_error.h"
#include "vecmath.h"
#include "water.h"
#include "naval/nv_api.h"

NV_API_BEGIN

#define COMPARTMENT_MAX 64           /* compartments per hull */
#define COMPARTMENT_MIN_GAP 0.01     /* m between bulkheads, and from the hull's ends */

/* How a hull type takes damage, beside its compartments' shapes. */
typedef struct nv_compartment_damage {
    double pump_rate;                /* m^3/s each compartment's pump removes when pumping; 0: no pumps */
    double breach_speed;             /* m/s: a contact closing faster holes the hull; 0: contacts never do */
    double breach_area;              /* m^2, the hole such a contact makes */
    /* By impact energy instead (Minorsky), when plating > 0: the hull's
     * share of the energy a contact absorbs, past breach_energy, opens a
     * hole of (share - breach_energy) / (MINORSKY_ENERGY_PER_VOLUME x
     * plating) m^2 (world_damage.c). */
    double plating;                  /* m: steel-equivalent thickness of the shell plating */
    double breach_energy;            /* J a contact's share must pass to hole it */
} nv_compartment_damage;

/* Minorsky (1959): 47.2 MJ per m^3 of structural steel destroyed. */
#define MINORSKY_ENERGY_PER_VOLUME 47.2e6

typedef struct nv_compartment_set {
    uint32_t count;                  /* nx * nz */
    uint32_t nx, nz;                 /* transverse bulkheads + 1, longitudinal + 1 */
    double x_bounds[COMPARTMENT_MAX + 1]; /* compartment (ix, iz) spans x_bounds[ix] .. [ix + 1] */
    double z_bounds[COMPARTMENT_MAX + 1]; /*   and z_bounds[iz] .. [iz + 1]; the hull's extent outside */
    nv_mesh meshes[COMPARTMENT_MAX];    /* index ix * nz + iz; closed, outward, body frame; empty where
                                        the hull does not reach (a wing cell at a narrow bow) */
    double volume[COMPARTMENT_MAX];  /* m^3 */
    nv_compartment_damage damage;
} nv_compartment_set;

/* Cuts the closed hull mesh (body frame) at the transverse bulkheads
 * x = bulkheads[0] < ... < bulkheads[n - 1] and the longitudinal ones
 * z = longitudinal[0] < ... (wing compartments), and caps every cut.
 * Refused with the reason: unsorted or repeated planes, a plane outside
 * the hull or within COMPARTMENT_MIN_GAP of its sides, more than
 * COMPARTMENT_MAX compartments, a section that does not close into simple
 * loops. Free with nv_compartment_set_free. */
int nv_compartment_split(const nv_mesh* hull, const double* bulkheads, uint32_t n, const double* longitudinal, uint32_t m,
                         nv_compartment_set* out, nv_error* err);
/* The compartment whose cell holds the point (body frame), or UINT32_MAX. */
uint32_t nv_compartment_at(const nv_compartment_set* s, nv_vec3 point);
void nv_compartment_set_free(nv_compartment_set* s);

/* The part of a closed mesh below the horizontal plane y = level, with the
 * mesh placed by world = rotation * body + position: its volume (m^3) and
 * centroid (world). Exact for the mesh: every triangle is cut at the
 * plane and the volume summed in tetrahedra from a point on the plane, so
 * the cut's cap adds nothing. */
double nv_compartment_volume_below(const nv_mesh* m, const nv_mat3* rotation, nv_vec3 position, double level, nv_vec3* centroid);

/* The level (world y) at which the part below holds `volume` (clamped to
 * [0, the mesh's volume]); its centroid in *centroid (may be NULL). */
double nv_compartment_level_for(const nv_mesh* m, const nv_mat3* rotation, nv_vec3 position, double volume, nv_vec3* centroid);
/* The same starting from `hint` (the level a step before): secant steps
 * on the volume, a few cuts instead of bisection's forty; bisection when
 * they stray. */
double nv_compartment_level_near(const nv_mesh* m, const nv_mat3* rotation, nv_vec3 position, double volume, double hint,
                                 nv_vec3* centroid);

/* Flow through a hole of `area` m^2 with discharge coefficient `cd` under a
 * head `dh` m (outside level minus inside level): the orifice law
 * Q = cd area sqrt(2 g |dh|), m^3/s, signed like dh (positive: inflow). */
double nv_compartment_orifice_flow(double cd, double area, double gravity, double dh);

/* ---- flooding (core/flood.c) ------------------------------------------------ */

#define FLOOD_MAX_HOLES 16
#define FLOOD_CD 0.6                 /* a sharp-edged hole's discharge coefficient */

typedef struct nv_flood_hole {
    uint32_t compartment;            /* the one that holds the point */
    nv_vec3 point;                      /* body frame */
    double area;                     /* m^2 */
} nv_flood_hole;

#define FLOOD_FULL 0.99              /* of its volume: a compartment is full (reported once) */
#define FLOOD_NOT_FULL 0.9           /*   until it drains below this again */

/* One vessel's flooding: water per compartment, the holes, the pumps, and
 * what has been reported (events are given once). */
typedef struct nv_flood_state {
    double volume[COMPARTMENT_MAX];  /* m^3 of water */
    double level[COMPARTMENT_MAX];   /* its level (world y) last step: where the next one starts looking */
    nv_flood_hole holes[FLOOD_MAX_HOLES];
    uint32_t hole_count;
    uint64_t full;                   /* bit k: compartment k reported full */
    uint8_t pumping;                 /* the pumps are on */
    uint8_t sunk;                    /* reported sunk */
    uint16_t under_ticks;            /* steps in a row it has lain wholly under the still water (saturates) */
} nv_flood_state;

/* A hole at `point` (body frame) of `area` m^2, in the compartment whose
 * slab holds the point. Refused with the reason: a point outside every
 * compartment's mesh, a non-positive area, too many holes. */
int nv_flood_breach(const nv_compartment_set* cs, nv_flood_state* fs, nv_vec3 point, double area, nv_error* err);

/* The water aboard as mass: kg, and its inertia about the CG (point
 * masses at each compartment's water centroid, world axes: the water's
 * free surface keeps it from turning with the hull, so its own inertia
 * about its centroid is left out). */
typedef struct nv_flood_mass {
    double mass;
    nv_mat3 inertia;
} nv_flood_mass;

/* One step of dt: water flows through each hole by the orifice law
 * between the sea outside (the surface's height above the hole) and the
 * compartment's level inside (a flat surface holding its water), both
 * measured from the hole; pumps, when on, remove up to pump_rate dt from
 * each compartment; each compartment's water is then a weight at its
 * centroid. Adds that weight's force and its torque about the CG
 * (`position`, world) to *force and *torque, and (when `mass` is not
 * NULL) gives the water's mass and inertia in *mass.
 * Returns the compartments that became full in this step (bits; they are
 * marked in fs->full). */
uint64_t nv_flood_step(const nv_compartment_set* cs, nv_flood_state* fs, nv_vec3 position, const nv_mat3* rotation,
                       const nv_water_surface* water, double density, double gravity, double dt, nv_vec3* force,
                       nv_vec3* torque, nv_flood_mass* mass);
/* A hole in compartment k at `point` (body frame) without the test that
 * the point is on the hull (a contact's point lies a little off it). */
int nv_flood_add_hole(const nv_compartment_set* cs, nv_flood_state* fs, uint32_t k, nv_vec3 point, double area, nv_error* err);
/* The water aboard, m^3. */
double nv_flood_total(const nv_flood_state* fs);

NV_API_END

#endif
