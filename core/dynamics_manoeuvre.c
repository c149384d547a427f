// SPDX-License-Identifier: MIT
/* A type's manoeuvring model applied in place of the triangles' own sway
 * force and yaw moment (dynamics.h, "dynamics_manoeuvre"). */
#include <stdlib.h>

#include "dynamics.h"

dynamics_manoeuvre* dynamics_manoeuvre_build(const dynamics_model* m, const nv_hull* h) {
    const nv_particulars* p = &m->particulars;
    dynamics_manoeuvre* t = calloc(1, sizeof *t);
    if (!t) return NULL;
    if (nv_manoeuvring_init(&t->target, p, nv_manoeuvring_mid_ahead(h, p), m->hydro.c.water_density)) {
        free(t);
        return NULL;
    }
    return t;
}

void dynamics_manoeuvre_apply(const dynamics_model* m, nv_vec3 vb, nv_vec3 wb, const hydro_sums* triangles,
                              double share, nv_vec3* force, nv_vec3* torque) {
    const dynamics_manoeuvre* t = m->manoeuvre;
    double fy, ny;
    nv_manoeuvring_forces(&t->target, vb.x, vb.z, wb.y, &fy, &ny);
    /* The added mass goes in as a mass along each body axis (the forces
     * divided by 1 + a): turning, the sway axis then carries (m + m_y) u r
     * of centripetal force and the surge axis (m + m_x) v r. A ship's
     * equations carry m u r in sway (Clarke's Y_r comes off the rotating
     * arm with the water's own share, Kirchhoff's -m_x u r, in it) and
     * (m + m_y) v r in surge (Kirchhoff's m_y v r; the triangles' surge
     * force has no ideal-fluid part). The differences given back, in ship
     * axes (r to starboard = -wb.y): + m_y u r in sway, + (m_y - m_x) v r
     * in surge. */
    double fx = 0.0;
    if (m->hydro.c.forces & HYDRODYN_ADDED_MASS) {
        const double mx = m->hydro.c.added_mass.x * m->particulars.mass, my = m->hydro.c.added_mass.z * m->particulars.mass;
        fy -= my * vb.x * wb.y;
        fx -= (my - mx) * vb.z * wb.y;
    }
    force->x += share * fx;
    force->z += share * fy;
    torque->y += share * ny;
    if (triangles) {
        /* taken off exactly, whatever the attitude, the immersion and the
         * motion: a table of them (the upright hull at rest draft) missed
         * most of them within a degree of straight ahead, and the hulls
         * wandered on a straight course (docs/seakeeping.md) */
        force->z -= triangles->drag_force.z;
        torque->y -= triangles->drag_torque.y;
    }
}
