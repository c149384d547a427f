// SPDX-License-Identifier: MIT
/* Hulls that collide as several convex pieces (core/shape_pieces.c, the
 * seams in core/world_pairs_narrow.c): a floating dock of one closed mesh
 * with a slip cut into its stern is cut into the two arms and the body,
 * every point of its surface inside a piece and the slip's water in none,
 * while the built-in hulls stay one piece; a boat sails into the slip
 * untouched and is stopped by its head wall; a boat sliding along the
 * dock's side across the seam between two pieces slides on as it does
 * along a dock without seams (a seam that held it would be a wall the hull
 * does not have). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "naval/hullgen.h"
#include "naval/vessel_type.h"
#include "naval/world.h"
#include "shape.h"
#include "test_util.h"

/* The dock's outline (x, z): 20 m x 8 m, the slip 8 m long and 3 m wide
 * open at x = 0; 3 m deep. */
#define DOCK_LENGTH 20.0
#define DOCK_BEAM 8.0
#define DOCK_DEPTH 3.0
#define SLIP_LENGTH 8.0
#define SLIP_WIDTH 3.0

/* The dock as one closed mesh: the U outline extruded, each cap six
 * triangles on the outline's own corners (no T-junction). slip 0: the
 * plain box of the same outline's extent. */
static void dock_mesh(nv_mesh* m, int slip) {
    const double lo = 0.5 * (DOCK_BEAM - SLIP_WIDTH), hi = 0.5 * (DOCK_BEAM + SLIP_WIDTH);
    const double u[8][2] = {{0, 0}, {DOCK_LENGTH, 0}, {DOCK_LENGTH, DOCK_BEAM}, {0, DOCK_BEAM},
                            {0, hi}, {SLIP_LENGTH, hi}, {SLIP_LENGTH, lo}, {0, lo}};
    const double box[4][2] = {{0, 0}, {DOCK_LENGTH, 0}, {DOCK_LENGTH, DOCK_BEAM}, {0, DOCK_BEAM}};
    const uint32_t u_caps[6][3] = {{0, 1, 6}, {0, 6, 7}, {1, 2, 5}, {1, 5, 6}, {2, 3, 5}, {3, 4, 5}};
    const uint32_t box_caps[2][3] = {{0, 1, 2}, {0, 2, 3}};
    const uint32_t n = slip ? 8 : 4, caps = slip ? 6 : 2;
    nv_error err;
    nv_mesh_init(m);
    for (uint32_t level = 0; level < 2; level++)
        for (uint32_t i = 0; i < n; i++) {
            const double* p = slip ? u[i] : box[i];
            ASSERT_OK(nv_mesh_add_vertex(m, (float)p[0], level ? (float)DOCK_DEPTH : 0.0f, (float)p[1], &err), err);
        }
    for (uint32_t k = 0; k < caps; k++) {
        const uint32_t* c = slip ? u_caps[k] : box_caps[k];
        ASSERT_OK(nv_mesh_add_triangle(m, c[0], c[1], c[2], &err), err);         /* the bottom */
        ASSERT_OK(nv_mesh_add_triangle(m, n + c[0], n + c[2], n + c[1], &err), err); /* the deck */
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = (i + 1) % n;
        ASSERT_OK(nv_mesh_add_triangle(m, i, n + j, j, &err), err);
        ASSERT_OK(nv_mesh_add_triangle(m, i, n + i, n + j, &err), err);
    }
    nv_mesh_options opts = nv_mesh_options_default();
    ASSERT_OK(nv_mesh_finish(m, &opts, "dock", NULL, &err), err);
}

/* The dock (with its slip or without) and a 4 m x 1.5 m box boat, in a
 * world at 60 Hz on flat water; both float half their depth. */
static nv_world* dock_world(int slip, uint32_t* dock_type, uint32_t* boat_type) {
    nv_world_config cfg = nv_world_config_default();
    cfg.tick_hz = 60.0;
    nv_world* w;
    nv_error err;
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, &err), err);
    nv_mesh m;
    dock_mesh(&m, slip);
    nv_mass_spec spec = nv_mass_spec_default();
    double volume = DOCK_LENGTH * DOCK_BEAM * DOCK_DEPTH - (slip ? SLIP_LENGTH * SLIP_WIDTH * DOCK_DEPTH : 0.0);
    spec.mass = 1025.0 * 0.5 * volume;
    ASSERT_OK(nv_world_add_hull_type(w, "dock", &m, &spec, dock_type, &err), err);
    nv_mesh_free(&m);
    ASSERT_OK(nv_hullgen_box(&m, 4.0, 1.5, 2.0, 8, 2, 4, &err), err);
    spec = nv_mass_spec_default();
    spec.mass = 1025.0 * 4.0 * 1.5 * 1.0;
    ASSERT_OK(nv_world_add_hull_type(w, "boat", &m, &spec, boat_type, &err), err);
    nv_mesh_free(&m);
    return w;
}

/* The mesh's origin (the dock's corner) in the hull's body frame. */
static nv_vec3 mesh_origin(const nv_hull* h) {
    nv_vec3 o = v3(INFINITY, INFINITY, INFINITY);
    for (uint32_t k = 0; k < h->vertex_count; k++) o = v3(fmin(o.x, h->vx[k]), fmin(o.y, h->vy[k]), fmin(o.z, h->vz[k]));
    return o;
}

/* How deep a body-frame point lies inside the shape (< 0 outside). */
static double depth_in(const shape* s, nv_vec3 p) {
    double outside = -INFINITY;
    for (uint32_t f = 0; f < s->plane_count; f++) {
        const double* q = &s->planes[4 * f];
        outside = fmax(outside, q[0] * p.x + q[1] * p.y + q[2] * p.z + q[3]);
    }
    return -outside;
}

static void dock_is_cut_at_its_slip(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    dock_mesh(&m, 1);
    nv_hull h;
    nv_mass_spec spec = nv_mass_spec_default();
    ASSERT_OK(nv_hull_create(&h, &m, &spec, &err), err);
    shape* pieces;
    shape_region* regions;
    uint32_t count;
    ASSERT_OK(shape_build_pieces(&pieces, &regions, &count, &h, SHAPE_MAX_PIECES, 0.25, &err), err);
    assert_int_equal(count, 3);
    const nv_vec3 origin = mesh_origin(&h);
    double head_wall = origin.x + SLIP_LENGTH;
    for (uint32_t k = 0; k < count; k++) {
        /* each piece's region is cut at the slip's head wall and nowhere else */
        assert_false(isfinite(regions[k].lo[1]) || isfinite(regions[k].hi[1]));
        ASSERT_NEAR_ABS(isfinite(regions[k].lo[0]) ? regions[k].lo[0] : regions[k].hi[0], head_wall, 1e-4);
    }
    /* every surface point (corners, edge midpoints) in a piece; the slip's water in none */
    for (uint32_t t = 0; t < h.triangle_count; t++)
        for (int e = 0; e < 3; e++) {
            uint32_t a = h.triangles[3 * t + e], b = h.triangles[3 * t + (e + 1) % 3];
            nv_vec3 p[2] = {v3(h.vx[a], h.vy[a], h.vz[a]),
                            v3(0.5 * (h.vx[a] + h.vx[b]), 0.5 * (h.vy[a] + h.vy[b]), 0.5 * (h.vz[a] + h.vz[b]))};
            for (int j = 0; j < 2; j++) {
                double best = -INFINITY;
                for (uint32_t k = 0; k < count; k++) best = fmax(best, depth_in(&pieces[k], p[j]));
                assert_true(best > -1e-5);
            }
        }
    for (double x = 0.5; x < SLIP_LENGTH; x += 1.0) {
        nv_vec3 water = v3_add(origin, v3(x, 0.5 * DOCK_DEPTH, 0.5 * DOCK_BEAM));
        /* 1.5 m to either arm, SLIP_LENGTH - x to the body */
        for (uint32_t k = 0; k < count; k++) assert_true(depth_in(&pieces[k], water) < -fmin(1.5, SLIP_LENGTH - x) + 1e-3);
    }
    for (uint32_t k = 0; k < count; k++) shape_free(&pieces[k]);
    free(pieces);
    free(regions);
    nv_hull_destroy(&h);
    nv_mesh_free(&m);
    /* the dock without its slip, and the built-in hulls, are one piece
     * each (the catamaran three: its parts); the vessel types' meshes as
     * the world gets them */
    const char* names[] = {"skiff", "patrol", "freighter", "ship", "catamaran", "barge"};
    for (size_t i = 0; i <= sizeof names / sizeof *names; i++) {
        nv_vessel_type vt;
        nv_vessel_type_init(&vt);
        if (i < 3) {
            ASSERT_OK(nv_vessel_type_builtin(names[i], &vt, &err), err);
            ASSERT_OK(nv_vessel_type_load_mesh(&vt, &m, &err), err);
        } else if (i < sizeof names / sizeof *names) {
            ASSERT_OK(nv_hullgen_build(names[i], 0, &m, &err), err);
        } else {
            dock_mesh(&m, 0);
        }
        ASSERT_OK(nv_hull_create(&h, &m, &spec, &err), err);
        double z0 = INFINITY, z1 = -INFINITY;
        for (uint32_t k = 0; k < h.vertex_count; k++) z0 = fmin(z0, h.vz[k]), z1 = fmax(z1, h.vz[k]);
        /* the world's tolerance (WORLD_PIECE_HOLLOW, _BEAM) */
        ASSERT_OK(shape_build_pieces(&pieces, &regions, &count, &h, SHAPE_MAX_PIECES, fmax(0.25, 0.05 * (z1 - z0)), &err), err);
        print_message("%s: %u piece(s)\n", i < sizeof names / sizeof *names ? names[i] : "dock without a slip", count);
        assert_int_equal(count, i < sizeof names / sizeof *names && strcmp(names[i], "catamaran") == 0 ? 3 : 1);
        assert_true((pieces == NULL) == (count == 1) && (regions == NULL) == (count == 1));
        for (uint32_t k = 0; pieces && k < count; k++) shape_free(&pieces[k]);
        free(pieces);
        free(regions);
        nv_hull_destroy(&h);
        nv_mesh_free(&m);
    }
}

/* The boat (4 m long) sails at 2 m/s along the slip's centre line into
 * it: no contact until its bow reaches the head wall (a dock of one convex
 * hull would stop it at the slip's mouth, 8 m earlier), then held there. */
static void boat_enters_the_slip(void** state) {
    (void)state;
    uint32_t dock_type, boat_type;
    nv_world* w = dock_world(1, &dock_type, &boat_type);
    /* the dock's mesh origin at world (0, ., 0) */
    const nv_vec3 origin = mesh_origin(nv_world_hull_type(w, dock_type));
    const double cg_x = -origin.x, cg_z = -origin.z;
    uint32_t dock = test_spawn_afloat(w, dock_type, cg_x, cg_z, v3(0, 0, 0));
    uint32_t boat = test_spawn_afloat(w, boat_type, -6.0, 0.5 * DOCK_BEAM, v3(2.0, 0, 0));
    double first_contact_bow = NAN, deepest = 0.0;
    for (int i = 0; i < 600; i++) {
        nv_world_step(w);
        uint32_t n;
        const nv_world_contact_event* e = nv_world_contact_events(w, &n);
        nv_world_vessel_state b = test_vessel_state(w, boat);
        for (uint32_t k = 0; k < n; k++)
            if (isnan(first_contact_bow) && e[k].structure == 0 && (e[k].id_a == boat || e[k].id_b == boat))
                first_contact_bow = b.position.x + 2.0;
        deepest = fmax(deepest, b.penetration);
    }
    nv_world_vessel_state b = test_vessel_state(w, boat), d = test_vessel_state(w, dock);
    const double head_wall = d.position.x - cg_x + SLIP_LENGTH;
    print_message("first contact with the bow at x %.3f m (the head wall at %.3f, the mouth at 0); boat at %.3f m/s, "
                  "bow %.3f m; deepest %.4f m\n",
                  first_contact_bow, head_wall, b.velocity.x, b.position.x + 2.0, deepest);
    assert_false(isnan(first_contact_bow));
    assert_true(first_contact_bow > SLIP_LENGTH - 0.2);
    assert_true(b.position.x + 2.0 < head_wall + 0.05); /* held at the wall */
    assert_true(deepest < 0.05);
    nv_world_destroy(w);
}

/* The boat, pressed against the dock's side (its velocity into it set to
 * 0.1 m/s and its yaw rate to 0 each step, the dock held still, friction
 * off so that only the normals act), slides
 * along it at 2 m/s from abreast of the body to abreast of an arm, across
 * the seam at the slip's head wall. Against the dock without a slip (no
 * seam) it slides the same: its speed along the side at the end within
 * 0.1 m/s and its way within 0.3 m of that run's. */
static void boat_slides_across_a_seam(void** state) {
    (void)state;
    double end_x[2], end_vx[2], deepest[2] = {0, 0};
    for (int slip = 0; slip < 2; slip++) {
        uint32_t dock_type, boat_type;
        nv_world* w = dock_world(slip, &dock_type, &boat_type);
        nv_error err;
        nv_world_contact_params cp = nv_world_get_contacts(w);
        cp.vessel_friction = 0.0;
        ASSERT_OK(nv_world_set_contacts(w, &cp, &err), err);
        const nv_vec3 origin = mesh_origin(nv_world_hull_type(w, dock_type));
        uint32_t dock = test_spawn_afloat(w, dock_type, -origin.x, -origin.z, v3(0, 0, 0));
        uint32_t boat = test_spawn_afloat(w, boat_type, 16.0, -0.74, v3(-2.0, 0, 0.1));
        for (int i = 0; i < 480; i++) {
            /* the dock held still, the boat held to its heading and pressed on */
            ASSERT_OK(nv_world_set_velocity(w, dock, v3(0, 0, 0), v3(0, 0, 0), &err), err);
            nv_world_vessel_state b = test_vessel_state(w, boat);
            ASSERT_OK(nv_world_set_velocity(w, boat, v3(b.velocity.x, b.velocity.y, 0.1),
                                            v3(b.angular_velocity.x, 0.0, b.angular_velocity.z), &err),
                      err);
            nv_world_step(w);
            deepest[slip] = fmax(deepest[slip], test_vessel_state(w, boat).penetration);
        }
        nv_world_vessel_state b = test_vessel_state(w, boat);
        end_x[slip] = b.position.x, end_vx[slip] = b.velocity.x;
        nv_world_destroy(w);
    }
    print_message("along the side for 8 s from x 16 m: without a seam to x %.3f m at %.3f m/s (deepest %.4f m), "
                  "across the seam at x 8 m to x %.3f m at %.3f m/s (deepest %.4f m)\n",
                  end_x[0], end_vx[0], deepest[0], end_x[1], end_vx[1], deepest[1]);
    assert_true(end_x[0] < SLIP_LENGTH - 1.0); /* past the seam's place */
    ASSERT_NEAR_ABS(end_vx[1], end_vx[0], 0.1);
    ASSERT_NEAR_ABS(end_x[1], end_x[0], 0.3);
    assert_true(deepest[1] < 0.05);
}

/* The boat, turned 45 degrees, driven at 1 m/s corner first into the
 * dock's side right at the seam (the slip's head wall, x 8 m): stopped by
 * the side as by a side without a seam, not turned along it or let in. */
static void corner_on_a_seam(void** state) {
    (void)state;
    double end_z[2], end_x[2], deepest[2] = {0, 0};
    for (int slip = 0; slip < 2; slip++) {
        uint32_t dock_type, boat_type;
        nv_world* w = dock_world(slip, &dock_type, &boat_type);
        nv_error err;
        const nv_vec3 origin = mesh_origin(nv_world_hull_type(w, dock_type));
        uint32_t dock = test_spawn_afloat(w, dock_type, -origin.x, -origin.z, v3(0, 0, 0));
        /* the corner of a 4 x 1.5 box turned 45 degrees lies 2.652 m from its centre along -z */
        double y;
        ASSERT_OK(nv_world_type_float_height(w, boat_type, &y, &err), err);
        uint32_t boat;
        ASSERT_OK(nv_world_spawn(w, boat_type, v3(SLIP_LENGTH + 0.8839, y, -0.5 - 2.0 * 0.7071 - 0.75 * 0.7071),
                                 quat_from_axis_angle(v3(0, 1, 0), 0.25 * NV_PI), &boat, &err),
                  err);
        for (int i = 0; i < 240; i++) {
            ASSERT_OK(nv_world_set_velocity(w, dock, v3(0, 0, 0), v3(0, 0, 0), &err), err);
            nv_world_vessel_state b = test_vessel_state(w, boat);
            ASSERT_OK(nv_world_set_velocity(w, boat, v3(b.velocity.x, b.velocity.y, 1.0), v3(b.angular_velocity.x, 0.0, b.angular_velocity.z), &err), err);
            nv_world_step(w);
            deepest[slip] = fmax(deepest[slip], test_vessel_state(w, boat).penetration);
        }
        nv_world_vessel_state b = test_vessel_state(w, boat);
        end_x[slip] = b.position.x, end_z[slip] = b.position.z;
        nv_world_destroy(w);
    }
    print_message("corner on the seam: without a seam at x %.3f z %.3f (deepest %.4f m), with it at x %.3f z %.3f (deepest %.4f m)\n",
                  end_x[0], end_z[0], deepest[0], end_x[1], end_z[1], deepest[1]);
    /* free, it would be at z 1.56 m; its corner stopped at the side (z 0) puts it at -0.69 */
    assert_true(end_z[0] < -0.6);
    ASSERT_NEAR_ABS(end_z[1], end_z[0], 0.05);
    ASSERT_NEAR_ABS(end_x[1], end_x[0], 0.1);
    assert_true(deepest[1] < 0.05);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dock_is_cut_at_its_slip),
        cmocka_unit_test(boat_enters_the_slip),
        cmocka_unit_test(boat_slides_across_a_seam),
        cmocka_unit_test(corner_on_a_seam),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
