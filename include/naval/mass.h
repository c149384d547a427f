// SPDX-License-Identifier: MIT
/* Mass properties of a closed triangle mesh by signed tetrahedra (Bourg,
 * chapter 8), and the mass / centre of gravity / inertia a vessel is given. */
#ifndef NAVAL_MASS_H
#define NAVAL_MASS_H

#include <stdbool.h>

#include "mesh.h"
#include "nv_error.h"
#include "vecmath.h"
#include "naval/nv_api.h"

NV_API_BEGIN

typedef struct nv_mass_properties {
    double volume;        /* m^3, positive for an outward-wound closed mesh */
    nv_vec3 centroid;        /* volume centroid, mesh coordinates */
    double surface_area;  /* m^2 */
    nv_mat3 inertia;         /* about the centroid, mesh axes, solid of density 1 kg/m^3 */
} nv_mass_properties;

/* Fails on an empty mesh or a non-positive volume (not a closed outward mesh). */
int nv_mass_compute(const nv_mesh* m, nv_mass_properties* out, nv_error* err);

/* How a vessel's mass is given. Defaults (nv_mass_spec_default): uniform solid of
 * the mesh's volume at `density`, CG at the volume centroid, inertia of the
 * uniform solid. */
typedef struct nv_mass_spec {
    double mass;          /* kg; 0 means density * volume */
    double density;       /* kg/m^3, used when mass is 0 */
    bool has_cg;
    nv_vec3 cg;              /* centre of gravity, mesh coordinates */
    bool has_gyration;
    nv_vec3 gyration;        /* radii of gyration about body x, y, z through the CG, m */
} nv_mass_spec;

nv_mass_spec nv_mass_spec_default(void);

typedef struct nv_mass_body {
    double mass;          /* kg */
    nv_vec3 cg;              /* mesh coordinates */
    nv_mat3 inertia;         /* about the CG, body (= mesh) axes, kg m^2 */
} nv_mass_body;

/* Inertia from the mesh is the uniform solid's scaled to `mass` and moved to
 * the CG (parallel axes); radii of gyration replace it when given. */
int nv_mass_resolve(const nv_mass_properties* props, const nv_mass_spec* spec, nv_mass_body* out, nv_error* err);

NV_API_END

#endif
