// SPDX-License-Identifier: MIT
/* The jet of a breaking crest on a hull (HYDRODYN_BREAKING_CRESTS).
 *
 * Where a crest breaks (nv_water_surface.breaking), its water is thrown
 * forward at about the wave's speed; a hull in it is struck on the side
 * that faces the jet, over the crest's depth under the surface and as high
 * again above it (the lip). Each triangle of that band that the water
 * heads into (u . n < 0) takes the momentum of the water stopped against
 * it, rho w^2 per unit area along -n, w = u . n - min(v . n, 0) (v the
 * triangle's velocity): a face giving way is caught at the difference; a
 * face pushing out into the water meets that push as the triangles' own
 * drag already, so the jet adds its own flux and no more: the jet is a flow, not a wave's pressure, so
 * it acts on dry triangles within the lip's reach too. The hull below the
 * band meets still water (the triangles' own drag), which is what rolls a
 * hull struck beam-on: docs/hydrodynamics.md, "Breaking crests". */
#ifndef NAVAL_BREAKING_H
#define NAVAL_BREAKING_H

#include <stdint.h>

#include "hydro.h"

/* A crest breaks over a patch, not over a whole hull: in a short-crested
 * sea the breaking part of a crest is shorter than a 24 m boat, and a
 * crest met over the bow or the stern reaches one end before the other.
 * Asked at the CG alone, a crest breaking there struck the whole hull at
 * once. So the crest is asked at the middle of each of BREAKING_SECTIONS
 * equal lengths of the hull (along body x), and each length is struck by
 * its own answer: docs/hydrodynamics.md, "Breaking crests", "Along the
 * hull". */
#define BREAKING_SECTIONS 3

/* One section's crest: its water's horizontal velocity (world x, z, m/s)
 * and its reach (m); all 0 where none breaks. */
typedef struct breaking_crest {
    float water_x, water_z, reach;
} breaking_crest;

typedef struct breaking_sections {
    breaking_crest at[BREAKING_SECTIONS];
} breaking_sections;

/* Body x of the middle of the hull's section k. */
static inline double breaking_section_middle(const nv_hull* h, int k) {
    const double from = h->bounds_min[0], length = (double)h->bounds_max[0] - from;
    return from + length * (k + 0.5) / BREAKING_SECTIONS;
}

typedef struct breaking_jet {
    nv_vec3 water[BREAKING_SECTIONS]; /* each section's crest water, body frame, m/s */
    double reach[BREAKING_SECTIONS];  /* m: the band is |height above the surface| <= reach; 0 none */
    nv_vec3 velocity;                 /* the CG's (over the ground), body frame */
    nv_vec3 angular_velocity;         /* body frame */
    double density;                   /* kg/m^3 */
} breaking_jet;

/* The jet of `crest` on a hull in rotation `r` (body to world) moving at
 * `velocity` and `angular_velocity` (world frame). Returns 0 when no
 * section breaks (nothing to do). */
int breaking_jet_init(breaking_jet* jet, const breaking_sections* crest, const nv_mat3* r, nv_vec3 velocity,
                      nv_vec3 angular_velocity, double density);

/* Adds the jet's force and moment (about the CG, body frame) on triangles
 * [first, first + count) to acc->force and acc->torque, from the vessel's
 * vertex heights (hydro_vertex_pass); each triangle takes its section's
 * crest, by its centroid's body x. `first` a multiple of HULL_GROUP, as
 * for hydro_triangle_pass. Returns how many triangles it struck. */
uint32_t breaking_jet_pass(const nv_hull* h, const float* height, uint32_t first, uint32_t count,
                           const breaking_jet* jet, hydro_sums* acc);

#endif
