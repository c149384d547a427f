// SPDX-License-Identifier: MIT
#include "naval/mass.h"

#include <math.h>
#include <string.h>

/* Second moments integral(r r^T dV) of the tetrahedron (0, a, b, c) for unit
 * density: det[a b c] / 120 * (A C A^T) with the canonical covariance
 * C = [[2,1,1],[1,2,1],[1,1,2]], A = [a b c] as columns. Expanded, entry ij is
 * det/120 * (sum_k a_ki a_kj ... ) = det/120 * (S_i S_j + sum_k v_ki v_kj)
 * where S = a + b + c. */
static void mass_add_tetra_moments(double second[3][3], nv_vec3 a, nv_vec3 b, nv_vec3 c, double det6) {
    double s[3] = {a.x + b.x + c.x, a.y + b.y + c.y, a.z + b.z + c.z};
    double va[3] = {a.x, a.y, a.z}, vb[3] = {b.x, b.y, b.z}, vc[3] = {c.x, c.y, c.z};
    double f = det6 / 120.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            second[i][j] += f * (s[i] * s[j] + va[i] * va[j] + vb[i] * vb[j] + vc[i] * vc[j]);
}

static nv_vec3 mass_vertex(const nv_mesh* m, uint32_t index, nv_vec3 origin) {
    const float* p = m->positions + 3 * (size_t)index;
    return v3((double)p[0] - origin.x, (double)p[1] - origin.y, (double)p[2] - origin.z);
}

int nv_mass_compute(const nv_mesh* m, nv_mass_properties* out, nv_error* err) {
    if (m->triangle_count == 0 || m->vertex_count == 0) return nv_error_set(err, "mass: the mesh is empty");
    /* Accumulate about a point inside the bounding box: the tetrahedra's
     * signed volumes then stay small and cancel with little round-off, even
     * for a hull modelled far from its file's origin. */
    float lo[3], hi[3];
    nv_mesh_bounds(m, lo, hi);
    nv_vec3 origin = v3(0.5 * ((double)lo[0] + hi[0]), 0.5 * ((double)lo[1] + hi[1]), 0.5 * ((double)lo[2] + hi[2]));

    double volume6 = 0.0, area2 = 0.0;
    nv_vec3 first = v3(0, 0, 0);
    double second[3][3] = {{0}};
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        const uint32_t* tri = m->indices + 3 * (size_t)t;
        nv_vec3 a = mass_vertex(m, tri[0], origin), b = mass_vertex(m, tri[1], origin), c = mass_vertex(m, tri[2], origin);
        double det6 = v3_dot(a, v3_cross(b, c)); /* 6 x signed volume */
        volume6 += det6;
        first = v3_madd(first, v3_add(v3_add(a, b), c), det6); /* centroid (a+b+c)/4 weighted by det6/6 */
        mass_add_tetra_moments(second, a, b, c, det6);
        area2 += v3_length(v3_cross(v3_sub(b, a), v3_sub(c, a)));
    }
    double volume = volume6 / 6.0;
    if (!(volume > 0.0) || !isfinite(volume))
        return nv_error_set(err, "mass: the mesh encloses no positive volume (%.6g m^3); it must be closed and wound outward",
                            volume);
    nv_vec3 centroid_local = v3_scale(first, 1.0 / (24.0 * volume));

    /* Move the second moments to the centroid, then inertia = tr(C) I - C. */
    double cl[3] = {centroid_local.x, centroid_local.y, centroid_local.z};
    double cov[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) cov[i][j] = second[i][j] - volume * cl[i] * cl[j];
    double trace = cov[0][0] + cov[1][1] + cov[2][2];
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) out->inertia.m[i][j] = (i == j ? trace : 0.0) - cov[i][j];
    out->volume = volume;
    out->centroid = v3_add(centroid_local, origin);
    out->surface_area = 0.5 * area2;
    return 0;
}

nv_mass_spec nv_mass_spec_default(void) {
    nv_mass_spec s;
    memset(&s, 0, sizeof s);
    s.density = 500.0;
    return s;
}

int nv_mass_resolve(const nv_mass_properties* props, const nv_mass_spec* spec, nv_mass_body* out, nv_error* err) {
    double mass = spec->mass;
    if (mass == 0.0) {
        if (!(spec->density > 0.0) || !isfinite(spec->density))
            return nv_error_set(err, "mass: density must be positive and finite (got %g kg/m^3)", spec->density);
        mass = spec->density * props->volume;
    }
    if (!(mass > 0.0) || !isfinite(mass)) return nv_error_set(err, "mass: mass must be positive and finite (got %g kg)", mass);
    if (!(props->volume > 0.0)) return nv_error_set(err, "mass: the mesh volume is not positive");
    nv_vec3 cg = spec->has_cg ? spec->cg : props->centroid;
    if (!v3_is_finite(cg)) return nv_error_set(err, "mass: the centre of gravity is not finite");

    nv_mat3 inertia;
    if (spec->has_gyration) {
        nv_vec3 k = spec->gyration;
        if (!(k.x > 0.0 && k.y > 0.0 && k.z > 0.0) || !v3_is_finite(k))
            return nv_error_set(err, "mass: radii of gyration must be positive and finite (got %g, %g, %g m)", k.x, k.y,
                                k.z);
        inertia = m3_diag(mass * k.x * k.x, mass * k.y * k.y, mass * k.z * k.z);
    } else {
        double scale = mass / props->volume; /* the mesh's inertia is for density 1 */
        nv_vec3 d = v3_sub(cg, props->centroid);
        double dd[3] = {d.x, d.y, d.z}, d2 = v3_dot(d, d);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                inertia.m[i][j] = props->inertia.m[i][j] * scale + mass * ((i == j ? d2 : 0.0) - dd[i] * dd[j]);
    }
    out->mass = mass;
    out->cg = cg;
    out->inertia = inertia;
    return 0;
}
