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

typedef struct breaking_jet {
    nv_vec3 water;    /* the crest water's velocity, body frame, m/s */
    nv_vec3 velocity; /* the CG's (over the ground), body frame */
    nv_vec3 angular_velocity; /* body frame */
    double reach;     /* m: the band is |height above the surface| <= reach */
    double density;   /* kg/m^3 */
} breaking_jet;

/* Adds the jet's force and moment (about the CG, body frame) on triangles
 * [first, first + count) to acc->force and acc->torque, from the vessel's
 * vertex heights (hydro_vertex_pass). `first` a multiple of HULL_GROUP, as
 * for hydro_triangle_pass. Returns how many triangles it struck. */
uint32_t breaking_jet_pass(const nv_hull* h, const float* height, uint32_t first, uint32_t count,
                           const breaking_jet* jet, hydro_sums* acc);

#endif
