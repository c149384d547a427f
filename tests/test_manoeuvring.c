// SPDX-License-Identifier: MIT
/* The hull's manoeuvring forces (naval/manoeuvring.h): Clarke's linear
 * derivatives read back from the forces at small motions, the cross-flow
 * drag against its closed forms, the ship's symmetries, and the model
 * applied in place of the triangles' own sway force and yaw moment
 * (core/dynamics_manoeuvre.c), exactly, at any attitude and motion. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynamics.h"
#include "naval/hullgen.h"
#include "naval/manoeuvring.h"
#include "naval/particulars.h"
#include "naval/vessel_type.h"
#include "naval/world.h"
#include "test_util.h"

#define G 9.81
#define RHO 1025.0

/* a cargo ship's particulars (the model needs nothing else) */
static nv_particulars ship(void) {
    nv_particulars p;
    memset(&p, 0, sizeof p);
    p.length = 120.0;
    p.beam = 17.5;
    p.draft = 6.7;
    p.block = 0.62;
    return p;
}

static void test_hoerner_curve(void **state) {
    (void)state;
    /* the ends, held outside them, and between the points */
    ASSERT_NEAR_ABS(nv_manoeuvring_hoerner(0.0), 1.966, 1e-12);
    ASSERT_NEAR_ABS(nv_manoeuvring_hoerner(9.0), 0.559, 1e-12);
    ASSERT_NEAR_ABS(nv_manoeuvring_hoerner(0.99), 0.828, 1e-12);
    ASSERT_NEAR_ABS(nv_manoeuvring_hoerner(0.5 * (0.99 + 1.31)), 0.5 * (0.828 + 0.760), 1e-12);
    ASSERT_NEAR_ABS(nv_manoeuvring_hoerner(NAN), 1.966, 1e-12);
    /* a fuller section (larger B / 2T) meets the flow with less drag */
    double last = INFINITY;
    for (double r = 0.0; r <= 4.5; r += 0.01) {
        double c = nv_manoeuvring_hoerner(r);
        assert_true(c <= last + 1e-12 && c > 0.5 && c < 2.0);
        last = c;
    }
    nv_particulars bad = ship();
    bad.draft = 0.0;
    nv_manoeuvring m;
    assert_int_equal(nv_manoeuvring_init(&m, &bad, 0.0, RHO), -1);
    assert_true(m.length == 0.0);
    double y, n;
    nv_manoeuvring_forces(&m, 5.0, 1.0, 0.1, &y, &n);
    assert_true(y == 0.0 && n == 0.0);
}

/* Clarke's formulas (Clarke, Gedling and Hine 1983, as manoeuvring texts
 * quote them) as the model must hold them. */
static void clarke(const nv_particulars* p, double d[4]) {
    const double L = p->length, B = p->beam, T = p->draft, s = NV_PI * (T / L) * (T / L);
    d[0] = -s * (1.0 + 0.40 * p->block * B / T);
    d[1] = -s * (-0.5 + 2.2 * B / L - 0.080 * B / T);
    d[2] = -s * (0.5 + 2.4 * T / L);
    d[3] = -s * (0.25 + 0.039 * B / T - 0.56 * B / L);
}

/* The linear derivatives read back from the forces: at a small sway or yaw
 * rate the cross-flow drag (second order) is negligible, and each force
 * over its normalisation is the derivative. Ship axes: v to starboard is
 * body z, r to starboard is -body y, N to starboard is -body y. */
static void test_linear_derivatives(void **state) {
    (void)state;
    nv_particulars p = ship();
    double d[4];
    clarke(&p, d);
    nv_manoeuvring m;
    assert_int_equal(nv_manoeuvring_init(&m, &p, 0.0, RHO), 0);
    const double L = p.length, U = 7.0, q = 0.5 * RHO * U, eps = 1e-5;
    double y, n;
    nv_manoeuvring_forces(&m, U, eps * U, 0.0, &y, &n);
    ASSERT_NEAR_REL(y / (q * L * L * eps * U), d[0], 1e-4);
    ASSERT_NEAR_REL(-n / (q * L * L * L * eps * U), d[2], 1e-4);
    const double r = eps * U / L; /* r L / U = eps, to starboard */
    nv_manoeuvring_forces(&m, U, 0.0, -r, &y, &n);
    ASSERT_NEAR_REL(y / (q * L * L * L * r), d[1], 1e-4);
    ASSERT_NEAR_REL(-n / (q * L * L * L * L * r), d[3], 1e-4);
    /* a ship's signs: sway and yaw damped; the Munk moment turns a hull
     * drifting to starboard further across the flow (bow to port, + about
     * y); Y_r of a slender ship is small and positive */
    assert_true(d[0] < 0.0 && d[3] < 0.0 && d[2] < 0.0 && d[1] > 0.0);
    nv_manoeuvring_forces(&m, U, 0.1 * U, 0.0, &y, &n);
    assert_true(y < 0.0 && n > 0.0);
    /* taken about a CG behind the mid-length, the same forces, the moment
     * moved by the lever: N_cg = N_mid + x_mid Y (ship axes) */
    nv_manoeuvring off;
    assert_int_equal(nv_manoeuvring_init(&off, &p, 4.0, RHO), 0);
    double y2, n2;
    const double v = 0.2 * U, rr = 0.02;
    /* the mid-length 4 m ahead meets v_m = v + x_m r_s, r_s = -r (ship):
     * the model about that CG is the mid-length model at v_m, moved */
    nv_manoeuvring_forces(&off, U, v, rr, &y2, &n2);
    nv_manoeuvring_forces(&m, U, v + 4.0 * -rr, rr, &y, &n);
    ASSERT_NEAR_REL(y2, y, 1e-12);
    ASSERT_NEAR_REL(-n2, -n + 4.0 * y, 1e-12);
}

/* Clarke's regression against two hulls' captive-model derivatives in
 * the MMG database (normalised by 1/2 rho L d U^2 and 1/2 rho L^2 d U^2:
 * Clarke's times L / d): KVLCC2 (Yasukawa and Yoshimura, J. Mar. Sci.
 * Technol. 20, 2015) and the training ship Seiun Maru (Yoshimura and
 * Masumoto, MARSIM 2012), as the mmgdynamics package records them. A
 * regression meets a particular hull within its scatter (Y'_v +23 % and
 * -9 %, N'_r +7 % and -39 %: those bounds only record the scatter);
 * N'_v, which depends on T / L alone, meets both within 3 %, which a
 * misquoted coefficient would not. Y'_r is left
 * out: the database's carries the added mass's m_x u r on the other side
 * of the equation, so the two are not the same quantity. */
static void test_against_captive_tests(void **state) {
    (void)state;
    static const struct {
        double L, B, T, cb, yv, nv, nr;
    } hulls[] = {
        {320.0, 58.0, 20.8, 0.810, -0.315, -0.137, -0.049},   /* KVLCC2 */
        {105.0, 17.91, 5.966, 0.508, -0.317, -0.1136, -0.0795}, /* Seiun Maru */
    };
    for (size_t i = 0; i < sizeof hulls / sizeof hulls[0]; i++) {
        nv_particulars p;
        memset(&p, 0, sizeof p);
        p.length = hulls[i].L, p.beam = hulls[i].B, p.draft = hulls[i].T, p.block = hulls[i].cb;
        nv_manoeuvring m;
        assert_int_equal(nv_manoeuvring_init(&m, &p, 0.0, RHO), 0);
        const double to_mmg = p.length / p.draft;
        print_message("captive: Y'v %.3f vs %.3f, N'v %.4f vs %.4f, N'r %.4f vs %.4f\n", m.yv * to_mmg, hulls[i].yv,
                      m.nv * to_mmg, hulls[i].nv, m.nr * to_mmg, hulls[i].nr);
        ASSERT_NEAR_REL(m.nv * to_mmg, hulls[i].nv, 0.03);
        ASSERT_NEAR_REL(m.yv * to_mmg, hulls[i].yv, 0.25);
        ASSERT_NEAR_REL(m.nr * to_mmg, hulls[i].nr, 0.40);
    }
}

/* The cross-flow drag's closed forms: broadside (u = 0, r = 0) the whole
 * length meets 1/2 rho T C_D v |v| per metre; turning on the spot the
 * moment is -1/2 rho T C_D r |r| L^4 / 32 (the strips' midpoint rule on
 * x^3 over each half, n / 2 strips, falls short by 1 / (2 (n / 2)^2) of
 * it) and no sway; no lift at u = 0. */
static void test_cross_flow(void **state) {
    (void)state;
    nv_particulars p = ship();
    nv_manoeuvring m;
    assert_int_equal(nv_manoeuvring_init(&m, &p, 0.0, RHO), 0);
    const double cd = nv_manoeuvring_hoerner(p.beam / (2.0 * p.draft)), L = p.length, T = p.draft;
    ASSERT_NEAR_ABS(m.cross_flow_drag, cd, 1e-15);
    double y, n;
    nv_manoeuvring_forces(&m, 0.0, 1.5, 0.0, &y, &n);
    ASSERT_NEAR_REL(y, -0.5 * RHO * T * cd * 1.5 * 1.5 * L, 1e-12);
    ASSERT_NEAR_ABS(n, 0.0, 1e-6 * fabs(y) * L);
    const double r = 0.05; /* about +y: bow to port */
    nv_manoeuvring_forces(&m, 0.0, 0.0, r, &y, &n);
    ASSERT_NEAR_ABS(y, 0.0, 1e-9);
    const double closed = 0.5 * RHO * T * cd * r * r * pow(L, 4) / 32.0;
    const double half = 0.5 * NV_MANOEUVRING_STRIPS;
    ASSERT_NEAR_REL(n, -closed * (1.0 - 1.0 / (2.0 * half * half)), 1e-9);
    /* at 90 degrees of drift under way is broadside: only the cross flow */
    double yb, nb;
    nv_manoeuvring_forces(&m, 0.0, -2.0, 0.0, &yb, &nb);
    ASSERT_NEAR_REL(yb, 0.5 * RHO * T * cd * 4.0 * L, 1e-12);
}

/* The waterline's mid-length on a box (its mesh from -20 to 20 m) whose
 * CG sits 3 m ahead of its middle: 3 m behind the CG; and the waterline's
 * length, between the same ends, the particulars' L_wl. */
static void test_waterline_mid(void **state) {
    (void)state;
    nv_mesh mesh;
    nv_error err;
    ASSERT_OK(nv_hullgen_box(&mesh, 40.0, 8.0, 6.0, 3, 2, 3, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.density = 400.0;
    spec.has_cg = true;
    spec.cg = v3(3.0, 2.0, 0.0);
    nv_hull hull;
    ASSERT_OK(nv_hull_create(&hull, &mesh, &spec, &err), err);
    nv_mesh_free(&mesh);
    nv_particulars p;
    ASSERT_OK(nv_particulars_compute(&hull, RHO, G, 0.0, &p, &err), err);
    const double mid = nv_manoeuvring_mid_ahead(&hull, &p);
    print_message("box: waterline mid %.6f m ahead of the CG, L_wl %.4f m\n", mid, p.length);
    ASSERT_NEAR_ABS(mid, -3.0, 1e-5);
    ASSERT_NEAR_REL(p.length, 40.0, 1e-5);
    nv_hull_destroy(&hull);
}

/* Port mirrors starboard; astern is the hull mirrored fore and aft (with
 * the mid-length at the CG: otherwise the mirror moves it). */
static void test_symmetries(void **state) {
    (void)state;
    nv_particulars p = ship();
    nv_manoeuvring m;
    assert_int_equal(nv_manoeuvring_init(&m, &p, 0.0, RHO), 0);
    const double cases[][3] = {{7.0, 0.4, 0.01}, {3.0, -1.2, 0.03}, {0.5, 2.0, -0.02}, {6.0, 0.0, 0.04}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const double u = cases[i][0], v = cases[i][1], r = cases[i][2];
        double y, n, ym, nm, ya, na;
        nv_manoeuvring_forces(&m, u, v, r, &y, &n);
        nv_manoeuvring_forces(&m, u, -v, -r, &ym, &nm);
        ASSERT_NEAR_REL(ym, -y, 1e-12);
        ASSERT_NEAR_REL(nm, -n, 1e-12);
        /* astern: x -> -x takes (u, v, r) to (-u, v, -r), the moment to -N */
        nv_manoeuvring_forces(&m, -u, v, -r, &ya, &na);
        ASSERT_NEAR_REL(ya, y, 1e-12);
        ASSERT_NEAR_REL(na, -n, 1e-12);
    }
}

/* A built-in type's hull and dynamics as a world makes them; it must
 * apply the manoeuvring model. */
static void builtin_model(const char* name, nv_vessel_type* vt, nv_hull* hull, dynamics_model* dm) {
    nv_error err;
    ASSERT_OK(nv_vessel_type_builtin(name, vt, &err), err);
    assert_true(vt->dynamics.coeffs.forces & HYDRODYN_MANOEUVRING);
    nv_mesh mesh;
    ASSERT_OK(nv_vessel_type_load_mesh(vt, &mesh, &err), err);
    ASSERT_OK(nv_hull_create(hull, &mesh, &vt->mass, &err), err);
    nv_mesh_free(&mesh);
    dynamics_model_init(dm, &vt->dynamics, hull, G);
    assert_non_null(dm->manoeuvre);
}

/* The triangle pass sums its moving water's friction and pressure apart
 * (drag_force, drag_torque): the whole force less the same pass without
 * the motion. With the model applied, the hull's sway force and yaw
 * moment are the hydrostatics' and the model's alone, whatever the
 * attitude and however small the motion (a table of the triangles' forces
 * on the upright hull at rest missed most of them within a degree of
 * straight ahead, and the hulls wandered off a straight course). */
static void test_triangles_taken_off(void **state) {
    (void)state;
    nv_vessel_type vt;
    nv_hull hull;
    dynamics_model dm;
    builtin_model("patrol", &vt, &hull, &dm);
    assert_true(dm.drag.lateral_from_model);
    const nv_particulars* pp = &dm.particulars;
    float* height = malloc(sizeof *height * hull.vertex_count);
    assert_non_null(height);
    /* heeled 4 degrees, trimmed 1.5 by the stern, 0.12 m deeper */
    const double heel = 4.0 * NV_PI / 180.0, trim = 1.5 * NV_PI / 180.0;
    for (uint32_t i = 0; i < hull.vertex_count; i++) {
        const double x = hull.vx[i], y = hull.vy[i], z = hull.vz[i];
        const double y1 = y * cos(heel) + z * sin(heel); /* about x */
        height[i] = (float)(pp->cg_height - 0.12 + x * sin(trim) + y1 * cos(trim));
    }
    nv_hydrodyn_model model = dm.hydro;
    model.c.forces &= ~(uint32_t)(HYDRODYN_SLAMMING | HYDRODYN_AIR_DRAG);
    const double rho_g = RHO * G;
    hydro_sums still;
    hydro_sums_clear(&still);
    hydro_triangle_pass(&hull, height, 0, hull.triangle_count, rho_g, NULL, NULL, &still, NULL);
    assert_true(still.drag_force.z == 0.0 && still.drag_torque.y == 0.0);
    const double L = pp->length;
    /* u, v (body z), r (body y), and a roll rate: drifts of 0.25 and 0.5
     * degrees, r' of 0.005, a turn with drift, astern, broadside */
    const double cases[][4] = {
        {10.0, 0.0436, 0.0, 0.0},      {10.0, -0.0873, 0.0, 0.0}, {10.0, 0.0, 0.005 * 10.0 / L, 0.0},
        {8.0, 0.3, -0.1 * 8.0 / L, 0.05}, {-3.0, 0.2, 0.02, 0.0},  {0.0, 1.5, 0.0, -0.1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const double u = cases[k][0], v = cases[k][1], r = cases[k][2], p = cases[k][3];
        nv_mat3 upright = {{{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}}};
        nv_hydrodyn_frame frame;
        nv_hydrodyn_frame_init(&frame, &model, &upright, v3(u, 0.0, v), v3(p, r, 0.0), 0.0, v3(0.0, 0.0, 0.0),
                               hull.body.mass, hull.total_area, 1.0 / 60.0);
        hydro_sums moving;
        hydro_sums_clear(&moving);
        hydro_triangle_pass(&hull, height, 0, hull.triangle_count, rho_g, &frame, NULL, &moving, NULL);
        const nv_vec3 df = v3_sub(moving.force, still.force), dt = v3_sub(moving.torque, still.torque);
        /* the same sums, the hydrostatics' rounding apart (float lanes of
         * forces of order rho g V) */
        const double slack = 1e-6 * rho_g * pp->volume;
        ASSERT_NEAR_ABS(moving.drag_force.z, df.z, slack);
        ASSERT_NEAR_ABS(moving.drag_force.x, df.x, slack);
        ASSERT_NEAR_ABS(moving.drag_torque.y, dt.y, slack * L);
        ASSERT_NEAR_ABS(moving.drag_torque.x, dt.x, slack * L);
        /* the model in their place: the hydrostatics' sway and yaw and
         * the model's, nothing of the triangles' moving water */
        const double share = 0.9;
        nv_vec3 f = moving.force, t = moving.torque;
        dynamics_manoeuvre_apply(&dm, v3(u, 0.0, v), v3(p, r, 0.0), &moving, share, &f, &t);
        double my, mn;
        nv_manoeuvring_forces(&dm.manoeuvre->target, u, v, r, &my, &mn);
        const double m_y = vt.dynamics.coeffs.added_mass.z * pp->mass;
        printf("  u %5.1f v %7.4f r %8.5f p %5.2f: triangles' sway %9.1f N, yaw %10.1f N m; model %9.1f, %10.1f\n", u,
               v, r, p, moving.drag_force.z, moving.drag_torque.y, my, mn);
        ASSERT_NEAR_ABS(f.z, still.force.z + share * (my - m_y * u * r), slack);
        ASSERT_NEAR_ABS(t.y, still.torque.y + share * mn, slack * L);
        /* the rest untouched: surge resistance, heave, roll, pitch */
        assert_true(f.y == moving.force.y && t.x == moving.torque.x && t.z == moving.torque.z);
    }
    free(height);
    dynamics_model_release(&dm);
    nv_hull_destroy(&hull);
}

/* The triangles' own forces taken off across a vessel's blocks: a patrol
 * boat turning at full throttle for 20 s in one triangle block and in
 * blocks of 64 triangles (the sums added in block order) ends in the same
 * place to round-off, and not where it ends without the model. */
static void run_turn(uint32_t block, int manoeuvring, nv_world_vessel_state* out) {
    nv_error err;
    nv_vessel_type vt;
    ASSERT_OK(nv_vessel_type_builtin("patrol", &vt, &err), err);
    if (!manoeuvring) vt.dynamics.coeffs.forces &= ~(uint32_t)HYDRODYN_MANOEUVRING;
    nv_mesh mesh;
    ASSERT_OK(nv_vessel_type_load_mesh(&vt, &mesh, &err), err);
    nv_world_config cfg = nv_world_config_default();
    cfg.triangle_block = block;
    nv_world* w;
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, &err), err);
    uint32_t type, id;
    ASSERT_OK(nv_world_add_hull_type(w, "patrol", &mesh, &vt.mass, &type, &err), err);
    nv_mesh_free(&mesh);
    ASSERT_OK(nv_world_set_type_dynamics(w, type, &vt.dynamics, &err), err);
    ASSERT_OK(nv_world_spawn(w, type, v3(0.0, 0.0, 0.0), quat_identity(), &id, &err), err);
    ASSERT_OK(nv_world_set_controls(w, id, 1.0, 0.3, &err), err);
    for (int i = 0; i < 20 * 60; i++) nv_world_step(w);
    ASSERT_OK(nv_world_vessel_get(w, id, out), err);
    nv_world_destroy(w);
}

static void test_taken_off_across_blocks(void **state) {
    (void)state;
    nv_world_vessel_state one, split, without;
    run_turn(4096, 1, &one);
    run_turn(64, 1, &split);
    run_turn(4096, 0, &without);
    const double gap = v3_length(v3_sub(one.position, split.position));
    const double apart = v3_length(v3_sub(one.position, without.position));
    printf("  after 20 s: one block at (%.3f, %.3f), blocks of 64 %.2e m from it, without the model %.2f m\n",
           one.position.x, one.position.z, gap, apart);
    assert_true(gap < 1e-4);
    assert_true(apart > 1.0);
}

/* What the dynamics add: the model times the immersion less the
 * triangles' own (the mesh), or the model alone (the columns and
 * floaters) times the immersion, with the
 * added mass's turning forces made a ship's (+ m_y u r in sway, + (m_y -
 * m_x) v r in surge, ship axes); and what a type may declare. */
static void test_apply(void **state) {
    (void)state;
    nv_vessel_type vt;
    nv_hull hull;
    dynamics_model dm;
    nv_error err;
    builtin_model("freighter", &vt, &hull, &dm);
    const nv_vec3 vb = v3(6.0, 0.1, -0.7), wb = v3(0.01, 0.02, -0.003);
    double my, mn;
    nv_manoeuvring_forces(&dm.manoeuvre->target, vb.x, vb.z, wb.y, &my, &mn);
    hydro_sums tri;
    hydro_sums_clear(&tri);
    tri.drag_force = v3(7.0e3, 8.0e3, 9.0e3), tri.drag_torque = v3(1.0e4, 1.1e4, 1.2e4);
    const double ty = tri.drag_force.z, tn = tri.drag_torque.y;
    const double m_x = vt.dynamics.coeffs.added_mass.x * dm.particulars.mass;
    const double m_y = vt.dynamics.coeffs.added_mass.z * dm.particulars.mass;
    const double my_u_r = m_y * vb.x * -wb.y, dm_v_r = (m_y - m_x) * vb.z * -wb.y;
    nv_vec3 f = v3(1.0, 2.0, 3.0), t = v3(4.0, 5.0, 6.0);
    dynamics_manoeuvre_apply(&dm, vb, wb, &tri, 0.5, &f, &t);
    assert_true(f.y == 2.0 && t.x == 4.0 && t.z == 6.0);
    ASSERT_NEAR_REL(f.x - 1.0, 0.5 * dm_v_r, 1e-12);
    ASSERT_NEAR_REL(f.z - 3.0, 0.5 * (my + my_u_r) - ty, 1e-12);
    ASSERT_NEAR_REL(t.y - 5.0, 0.5 * mn - tn, 1e-12);
    f = v3(0.0, 0.0, 0.0), t = v3(0.0, 0.0, 0.0);
    dynamics_manoeuvre_apply(&dm, vb, wb, NULL, 1.0, &f, &t);
    ASSERT_NEAR_REL(f.z, my + my_u_r, 1e-12);
    ASSERT_NEAR_REL(f.x, dm_v_r, 1e-12);
    ASSERT_NEAR_REL(t.y, mn, 1e-12);
    dynamics_model_release(&dm);
    nv_hull_destroy(&hull);

    /* the force by name; refused with a planing bottom, naming both */
    const char* ok = "{\"name\": \"m\", \"hull\": \"builtin:patrol\", \"coefficients\": {\"forces\": [\"viscous\", "
                     "\"manoeuvring\"]}}";
    ASSERT_OK(nv_vessel_type_parse(ok, strlen(ok), "m.json", NULL, &vt, &err), err);
    assert_int_equal(vt.dynamics.coeffs.forces, HYDRODYN_VISCOUS | HYDRODYN_MANOEUVRING);
    const char* planing = "{\"name\": \"m\", \"hull\": \"builtin:skiff\", \"coefficients\": {\"forces\": "
                          "[\"manoeuvring\"]}, \"planing\": {\"chine_beam\": 1.7, \"deadrise\": 0, \"length\": 3.5}}";
    assert_int_not_equal(nv_vessel_type_parse(planing, strlen(planing), "m.json", NULL, &vt, &err), 0);
    printf("  refused: %s\n", err.message);
    assert_non_null(strstr(err.message, "manoeuvring"));
    assert_non_null(strstr(err.message, "planing"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hoerner_curve),   cmocka_unit_test(test_linear_derivatives),
        cmocka_unit_test(test_cross_flow),      cmocka_unit_test(test_symmetries),
        cmocka_unit_test(test_triangles_taken_off), cmocka_unit_test(test_taken_off_across_blocks), cmocka_unit_test(test_apply),
        cmocka_unit_test(test_waterline_mid),    cmocka_unit_test(test_against_captive_tests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
