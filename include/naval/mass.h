// SPDX-License-Identifier: MIT
/* Mass properties of a closed triangle mesh by signed tetrahedra (Bourg,
 * chapter 8), and the mass / centre of gravity / inertia a vessel is given. */
#ifndef NAVAL_MASS_H
#define NAVAL_MASS_H

#include <stdbool.h>

#include "mesh.h"
#include "nv_error.h"
#include "vecmath.h"

/* Exported: core is built with -fvisibility=hidden, so what this header
 * does not declare stays inside the library. */
#pragma GCC visibility push(default)

typedef struct mass_properties {
    double volume;        /* m^3, positive for an outward-wound closed mesh */
    vec3 centroid;        /* volume centroid, mesh coordinates */
    double surface_area;  /* m^2 */
    mat3 inertia;         /* about the centroid, mesh axes, solid of density 1 kg/m^3 */
} mass_properties;

/* Fails on an empty mesh or a non-positive volume (not a closed outward mesh). */
int nv_mass_compute(const mesh* m, mass_properties* out, nv_error* err);

/* How a vessel's mass is given. Defaults (nv_mass_spec_default): uniform solid of
 * the mesh's volume at `density`, CG at the volume centroid, inertia of the
 * uniform solid. */
typedef struct mass_spec {
    double mass;          /* kg; 0 means density * volume */
    double density;       /* kg/m^3, used when mass is 0 */
    bool has_cg;
    vec3 cg;              /* centre of gravity, mesh coordinates */
    bool has_gyration;
    vec3 gyration;        /* radii of gyration about body x, y, z through the CG, m */
} mass_spec;

mass_spec nv_mass_spec_default(void);

typedef struct mass_body {
    double mass;          /* kg */
    vec3 cg;              /* mesh coordinates */
    mat3 inertia;         /* about the CG, body (= mesh) axes, kg m^2 */
} mass_body;

/* Inertia from the mesh is the uniform solid's scaled to `mass` and moved to
 * the CG (parallel axes); radii of gyration replace it when given. */
int nv_mass_resolve(const mass_properties* props, const mass_spec* spec, mass_body* out, nv_error* err);

#pragma GCC visibility pop

#endif
