// SPDX-License-Identifier: MIT
/* Compartments (core/compartment.c): hulls cut by bulkheads into closed,
 * capped meshes whose volumes add up to the hull's; the water below a
 * level against an independent 2-D clip of a tilted box section; the level
 * that holds a volume; the lost-buoyancy sinkage of a box barge with a
 * midship compartment open to the sea (Tupper: dT = v / (A_w - a)); the
 * fill time of a compartment through a hole by the orifice law; refusals;
 * and in motion, a barge holed below the waterline: a midship compartment
 * floods to the lost-buoyancy draft with no trim, an end compartment
 * trims it and a wing compartment heels it by the lost-buoyancy method,
 * three of five flooded keep it afloat, four sink it. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "naval/compartment.h"
#include "naval/hull.h"
#include "naval/hullgen.h"
#include "naval/mesh.h"
#include "naval/world.h"
#include "vessel.h"

static nv_mesh box(double l, double b, double h) {
    nv_mesh m;
    nv_error e;
    if (nv_hullgen_box(&m, l, b, h, 8, 4, 4, &e)) fail_msg("%s", e.message);
    return m;
}

static nv_mat3 rot_x(double a) {
    nv_mat3 r = {{{1, 0, 0}, {0, cos(a), -sin(a)}, {0, sin(a), cos(a)}}};
    return r;
}

static const nv_mat3 IDENTITY = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};

static void box_splits_into_exact_slabs(void** state) {
    (void)state;
    nv_mesh m = box(10.0, 4.0, 3.0);
    double planes[] = {-2.5, 0.0, 1.25, 3.0};
    nv_compartment_set s;
    nv_error e;
    if (nv_compartment_split(&m, planes, 4, NULL, 0, &s, &e)) fail_msg("%s", e.message);
    assert_int_equal(s.count, 5);
    double sum = 0.0;
    for (uint32_t k = 0; k < s.count; k++) {
        assert_int_equal(nv_mesh_validate_closed(&s.meshes[k], NULL), 0);
        double want = 4.0 * 3.0 * (s.x_bounds[k + 1] - s.x_bounds[k]);
        assert_true(fabs(s.volume[k] - want) < 1e-5 * want);
        sum += s.volume[k];
    }
    assert_true(fabs(sum - 120.0) < 1e-4);
    assert_true(s.x_bounds[0] == -5.0 && s.x_bounds[5] == 5.0);
    nv_compartment_set_free(&s);
    nv_mesh_free(&m);
}

static void ship_volumes_add_up(void** state) {
    (void)state;
    nv_mesh m;
    nv_error e;
    if (nv_hullgen_ship(&m, 40.0, 8.0, 4.0, 3000, &e)) fail_msg("%s", e.message);
    double total = nv_mesh_signed_volume(&m);
    double planes[] = {-14.0, -7.0, 0.5, 8.0, 15.0};
    nv_compartment_set s;
    if (nv_compartment_split(&m, planes, 5, NULL, 0, &s, &e)) fail_msg("%s", e.message);
    double sum = 0.0;
    for (uint32_t k = 0; k < s.count; k++) {
        assert_int_equal(nv_mesh_validate_closed(&s.meshes[k], NULL), 0);
        assert_true(s.volume[k] > 0.0);
        sum += s.volume[k];
    }
    print_message("ship of %.2f m^3 in %u compartments: %.6f m^3 together\n", total, s.count, sum);
    assert_true(fabs(sum - total) < 1e-5 * total);
    nv_compartment_set_free(&s);
    /* With wing compartments too: 6 x 3 cells, closed, but for the wings
     * at the bow where the hull is narrower than the wing bulkheads. */
    double wings[] = {-2.0, 2.0};
    if (nv_compartment_split(&m, planes, 5, wings, 2, &s, &e)) fail_msg("%s", e.message);
    assert_int_equal(s.count, 18);
    sum = 0.0;
    uint32_t empty = 0;
    for (uint32_t k = 0; k < s.count; k++) {
        if (!s.meshes[k].triangle_count) {
            empty++;
            continue;
        }
        assert_int_equal(nv_mesh_validate_closed(&s.meshes[k], NULL), 0);
        sum += s.volume[k];
    }
    assert_true(empty <= 2);
    assert_true(fabs(sum - total) < 1e-5 * total);
    nv_compartment_set_free(&s);
    nv_mesh_free(&m);
}

static void bad_bulkheads_refused(void** state) {
    (void)state;
    nv_mesh m = box(10.0, 4.0, 3.0);
    nv_compartment_set s;
    nv_error e;
    double unsorted[] = {1.0, -1.0}, outside[] = {6.0}, at_end[] = {4.999}, nan_plane[] = {NAN}, same[] = {1.0, 1.0};
    assert_int_equal(nv_compartment_split(&m, unsorted, 2, NULL, 0, &s, &e), -1);
    assert_non_null(strstr(e.message, "increase"));
    assert_int_equal(nv_compartment_split(&m, outside, 1, NULL, 0, &s, &e), -1);
    assert_non_null(strstr(e.message, "outside the hull"));
    assert_int_equal(nv_compartment_split(&m, at_end, 1, NULL, 0, &s, &e), -1);
    assert_int_equal(nv_compartment_split(&m, nan_plane, 1, NULL, 0, &s, &e), -1);
    assert_int_equal(nv_compartment_split(&m, same, 2, NULL, 0, &s, &e), -1);
    double many[COMPARTMENT_MAX];
    for (int i = 0; i < COMPARTMENT_MAX; i++) many[i] = -4.0 + 0.1 * i;
    assert_int_equal(nv_compartment_split(&m, many, COMPARTMENT_MAX, NULL, 0, &s, &e), -1);
    assert_int_equal(e.code, NV_ELIMIT);
    nv_mesh_free(&m);
}

/* The water in a box section (width b across z, height h up from y = 0, as
 * nv_hullgen_box makes it) tilted by angle a about x, below the level: a
 * 2-D clip done here, apart from the code under test. Area and centroid
 * (y, z). */
static double section_below(double b, double h, double a, double level, double* cy, double* cz) {
    double cy0[4] = {0, 0, h, h}, cz0[4] = {-b / 2, b / 2, b / 2, -b / 2};
    double py[8], pz[8];
    int n = 0;
    double ys[4], zs[4];
    for (int i = 0; i < 4; i++) {
        ys[i] = cos(a) * cy0[i] - sin(a) * cz0[i];
        zs[i] = sin(a) * cy0[i] + cos(a) * cz0[i];
    }
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        double di = ys[i] - level, dj = ys[j] - level;
        if (di <= 0) py[n] = ys[i], pz[n++] = zs[i];
        if ((di < 0 && dj > 0) || (di > 0 && dj < 0)) {
            double t = di / (di - dj);
            py[n] = ys[i] + t * (ys[j] - ys[i]);
            pz[n++] = zs[i] + t * (zs[j] - zs[i]);
        }
    }
    double area = 0, sy = 0, sz = 0;
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        double c = pz[i] * py[j] - pz[j] * py[i];
        area += c;
        sy += (py[i] + py[j]) * c;
        sz += (pz[i] + pz[j]) * c;
    }
    area *= 0.5;
    *cy = sy / (6 * area);
    *cz = sz / (6 * area);
    return fabs(area);
}

static void water_below_a_level(void** state) {
    (void)state;
    const double L = 6.0, B = 4.0, H = 3.0;
    nv_mesh m = box(L, B, H);
    for (int i = 0; i <= 6; i++) {
        double a = 0.1 * i, level = 0.4 + 0.2 * i;
        nv_mat3 r = rot_x(a);
        nv_vec3 c;
        double v = nv_compartment_volume_below(&m, &r, v3(0, 0, 0), level, &c);
        double cy, cz, want = L * section_below(B, H, a, level, &cy, &cz);
        assert_true(fabs(v - want) < 1e-9 * L * B * H);
        assert_true(fabs(c.x) < 1e-9 && fabs(c.y - cy) < 1e-9 && fabs(c.z - cz) < 1e-9);
        /* And back: the level that holds that volume. */
        nv_vec3 c2;
        double found = nv_compartment_level_for(&m, &r, v3(0, 0, 0), v, &c2);
        assert_true(fabs(found - level) < 1e-6);
    }
    /* Nothing below the bottom; everything above the top. */
    assert_true(nv_compartment_volume_below(&m, &IDENTITY, v3(0, 0, 0), -0.1, NULL) == 0.0);
    assert_true(fabs(nv_compartment_volume_below(&m, &IDENTITY, v3(0, 0, 0), H + 0.1, NULL) - L * B * H) < 1e-9);
    nv_mesh_free(&m);
}

/* A box barge (L x B, draft T) with a midship compartment of length l open
 * to the sea sinks bodily by dT = l T / (L - l): the intact hull's volume
 * below the new waterline, less the sea in the compartment, is the old
 * displacement (lost buoyancy; the added-weight method agrees). */
static void lost_buoyancy_of_a_box_barge(void** state) {
    (void)state;
    const double L = 40.0, B = 8.0, H = 5.0, T = 2.0, l = 8.0;
    nv_mesh m = box(L, B, H);
    double planes[] = {-l / 2, l / 2};
    nv_compartment_set s;
    nv_error e;
    if (nv_compartment_split(&m, planes, 2, NULL, 0, &s, &e)) fail_msg("%s", e.message);
    nv_vec3 at = v3(0, 0, 0); /* the keel at y = 0: a level is a draft */
    double displacement = L * B * T;
    double lo = T, hi = H;
    for (int i = 0; i < 80; i++) {
        double t = 0.5 * (lo + hi);
        double afloat = nv_compartment_volume_below(&m, &IDENTITY, at, t, NULL) -
                        nv_compartment_volume_below(&s.meshes[1], &IDENTITY, at, t, NULL);
        if (afloat < displacement) lo = t;
        else hi = t;
    }
    double draft = 0.5 * (lo + hi), want = T + l * T / (L - l);
    print_message("flooded midship: draft %.6f m, closed form %.6f m\n", draft, want);
    assert_true(fabs(draft - want) < 1e-6);
    nv_compartment_set_free(&s);
    nv_mesh_free(&m);
}

/* A box compartment of plan area S, holed at its bottom (area A, Cd), the
 * sea h0 above the hole: fills in t = 2 S sqrt(h0) / (Cd A sqrt(2 g)). */
static void fill_time_by_the_orifice_law(void** state) {
    (void)state;
    const double S = 32.0, A = 0.05, cd = 0.6, g = 9.81, h0 = 2.0;
    double inside = 0.0, t = 0.0, dt = 1e-3;
    while (h0 - inside > 1e-6 && t < 1e4) {
        /* RK4 on the inside level. */
        double k1 = nv_compartment_orifice_flow(cd, A, g, h0 - inside) / S;
        double k2 = nv_compartment_orifice_flow(cd, A, g, h0 - (inside + 0.5 * dt * k1)) / S;
        double k3 = nv_compartment_orifice_flow(cd, A, g, h0 - (inside + 0.5 * dt * k2)) / S;
        double k4 = nv_compartment_orifice_flow(cd, A, g, h0 - (inside + dt * k3)) / S;
        inside += dt * (k1 + 2 * k2 + 2 * k3 + k4) / 6;
        t += dt;
    }
    double want = 2.0 * S * sqrt(h0) / (cd * A * sqrt(2.0 * g));
    print_message("filled in %.2f s, closed form %.2f s\n", t, want);
    assert_true(fabs(t - want) < 0.005 * want);
    assert_true(nv_compartment_orifice_flow(cd, A, g, -1.0) < 0.0); /* outflow */
}

/* ---- flooding in motion ----------------------------------------------------------- */

/* A 40 x 8 x 5 m barge floating at draft t, cut into five 8 m compartments. */
typedef struct barge {
    nv_hull h;
    nv_compartment_set cs;
    vessel v;
    double cg_y;
} barge;

static void barge_make_cut(barge* b, double t, const double* x, uint32_t nx, const double* z, uint32_t nz) {
    nv_mesh m = box(40.0, 8.0, 5.0);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 1025.0 * 40.0 * 8.0 * t;
    spec.has_cg = true;
    spec.cg = v3(0.0, 1.5, 0.0);
    nv_error e;
    if (nv_hull_create(&b->h, &m, &spec, &e)) fail_msg("%s", e.message);
    /* The compartments in the body frame, about the CG, as the hull. */
    for (uint32_t i = 0; i < m.vertex_count; i++) m.positions[3 * i + 1] -= 1.5f;
    if (nv_compartment_split(&m, x, nx, z, nz, &b->cs, &e)) fail_msg("%s", e.message);
    nv_mesh_free(&m);
    if (vessel_init(&b->v, &b->h, &e)) fail_msg("%s", e.message);
    b->cg_y = 1.5 - t; /* the keel at -t */
    vessel_place(&b->v, v3(0.0, b->cg_y, 0.0), quat_identity());
}

/* Five 8 m compartments. */
static void barge_make(barge* b, double t) {
    static const double planes[] = {-12.0, -4.0, 4.0, 12.0};
    barge_make_cut(b, t, planes, 4, NULL, 0);
}

static void barge_free(barge* b) {
    vessel_free(&b->v);
    nv_compartment_set_free(&b->cs);
    nv_hull_destroy(&b->h);
}

/* Steps the barge on flat water with its flooding for `seconds`. */
static void barge_run(barge* b, nv_flood_state* fs, double seconds) {
    nv_water_flat sea;
    nv_water_flat_init(&sea, 0.0);
    vessel_env env = vessel_env_default();
    env.linear_damping = 0.3;
    env.angular_damping = 0.3;
    const double dt = 1.0 / 30.0;
    body* bd = &b->v.body;
    for (int i = 0; i < (int)(seconds / dt); i++) {
        vessel_update_hydrostatics(&b->v, &sea.base, &env);
        nv_vec3 force = b->v.hydro.force, torque = b->v.hydro.torque;
        force.y -= bd->mass * env.gravity;
        force = v3_madd(force, bd->velocity, -env.linear_damping * bd->mass);
        nv_mat3 iw = body_world_inertia(bd);
        torque = v3_madd(torque, m3_mul_v3(&iw, bd->angular_velocity), -env.angular_damping);
        nv_mat3 r = body_rotation(bd);
        nv_flood_step(&b->cs, fs, bd->position, &r, &sea.base, env.water_density, env.gravity, dt, &force, &torque,
                      NULL);
        body_integrate(bd, force, torque, dt);
        if (bd->position.y < -50.0) break; /* gone */
    }
}

static void midship_breach_settles_at_the_lost_buoyancy_draft(void** state) {
    (void)state;
    const double t = 2.0, l = 8.0, L = 40.0;
    barge b;
    barge_make(&b, t);
    nv_flood_state fs;
    memset(&fs, 0, sizeof fs);
    nv_error e;
    /* A hole in the bottom of the middle compartment. */
    if (nv_flood_breach(&b.cs, &fs, v3(0.0, -1.5, 0.0), 2.0, &e)) fail_msg("%s", e.message);
    assert_int_equal(fs.holes[0].compartment, 2);
    barge_run(&b, &fs, 150.0);
    double draft = -(b.v.body.position.y - 1.5);
    nv_quat q = b.v.body.orientation;
    /* Trim and heel: the rotations about z and x, small here. */
    double trim = asin(2.0 * (q.w * q.z + q.x * q.y)) * 180.0 / 3.14159265358979323846;
    double heel = asin(2.0 * (q.w * q.x - q.y * q.z)) * 180.0 / 3.14159265358979323846;
    double want = t + l * t / (L - l);
    print_message("midship flooded: draft %.4f m (closed form %.4f), trim %.4f, heel %.4f deg, %.2f m^3 of water "
                  "(%.2f at the final draft)\n",
                  draft, want, trim, heel, fs.volume[2], l * 8.0 * want);
    assert_true(fabs(draft - want) < 0.01);
    assert_true(fabs(trim) < 0.05 && fabs(heel) < 0.05);
    assert_true(fabs(fs.volume[2] - l * 8.0 * want) < 0.01 * l * 8.0 * want);
    barge_free(&b);
}

/* An end compartment open to the sea trims the barge by the lost-buoyancy
 * method: at draft 1 m, the bow compartment (x from 12 to 20 m) flooded
 * leaves the intact waterplane 32 m long with its centroid at x = -4:
 * parallel sinkage to 1.25 m there, and tan(trim) = (x_G - x_B') / GM_L'
 * with GM_L' = KB' + I_L / V - KG = 0.625 + 8 x 32^3 / 12 / 320 - 1.5
 * (a wall-sided box: the tan^2 term changes it by 0.2 %). */
static void end_compartment_trims_by_lost_buoyancy(void** state) {
    (void)state;
    barge b;
    barge_make(&b, 1.0);
    nv_flood_state fs;
    memset(&fs, 0, sizeof fs);
    nv_error e;
    if (nv_flood_breach(&b.cs, &fs, v3(16.0, -1.5, 0.0), 2.0, &e)) fail_msg("%s", e.message);
    assert_int_equal(fs.holes[0].compartment, 4);
    barge_run(&b, &fs, 150.0);
    nv_quat q = b.v.body.orientation;
    double trim = asin(2.0 * (q.w * q.z + q.x * q.y)) * 180.0 / 3.14159265358979323846;
    double gm_l = 0.625 + 8.0 * 32.0 * 32.0 * 32.0 / 12.0 / 320.0 - 1.5;
    double want = -atan(4.0 / gm_l) * 180.0 / 3.14159265358979323846; /* bow down */
    nv_mat3 r = body_rotation(&b.v.body);
    nv_vec3 keel_at_f = v3_add(b.v.body.position, m3_mul_v3(&r, v3(-4.0, -1.5, 0.0)));
    print_message("bow compartment flooded: trim %.3f deg (lost buoyancy %.3f), draft at the centre of flotation "
                  "%.4f m (1.25)\n",
                  trim, want, -keel_at_f.y);
    assert_true(fabs(trim - want) < 0.02 * fabs(want));
    assert_true(fabs(-keel_at_f.y - 1.25) < 0.02);
    barge_free(&b);
}

/* A wing compartment (x from -4 to 4 m, z from 2 to 4 m: starboard)
 * open to the sea heels the barge by the lost-buoyancy method, its free
 * surface and all: at draft 1 m the intact waterplane (304 m^2) has its
 * centroid at z = -48 / 304 and its inertia about it
 * 40 x 8^3 / 12 - (8 x 2^3 / 12 + 16 x 3^2) - 304 z_F^2; parallel sinkage to
 * 320 / 304 m; tan(heel) = (z_G - z_F) / GM' with GM' = T' / 2 + I / V - KG. */
static void wing_compartment_heels_by_lost_buoyancy(void** state) {
    (void)state;
    static const double x[] = {-4.0, 4.0}, z[] = {2.0};
    barge b;
    barge_make_cut(&b, 1.0, x, 2, z, 1);
    assert_int_equal(b.cs.count, 6);
    nv_flood_state fs;
    memset(&fs, 0, sizeof fs);
    nv_error e;
    if (nv_flood_breach(&b.cs, &fs, v3(0.0, -1.5, 3.0), 2.0, &e)) fail_msg("%s", e.message);
    assert_int_equal(fs.holes[0].compartment, nv_compartment_at(&b.cs, v3(0.0, -1.5, 3.0)));
    assert_int_equal(fs.holes[0].compartment, 3);
    barge_run(&b, &fs, 150.0);
    nv_quat q = b.v.body.orientation;
    double heel = asin(2.0 * (q.w * q.x - q.y * q.z)) * 180.0 / 3.14159265358979323846;
    double area = 304.0, zf = -48.0 / 304.0, tp = 320.0 / 304.0;
    double inertia = 40.0 * 512.0 / 12.0 - (8.0 * 8.0 / 12.0 + 16.0 * 9.0) - area * zf * zf;
    double gm = tp / 2.0 + inertia / 320.0 - 1.5;
    double want = atan((0.0 - zf) / gm) * 180.0 / 3.14159265358979323846; /* starboard down */
    print_message("starboard wing flooded: heel %.3f deg (lost buoyancy %.3f), %.2f m^3 of water\n", heel, want,
                  fs.volume[3]);
    assert_true(fabs(heel - want) < 0.02 * fabs(want));
    barge_free(&b);
}

/* At draft 1.8 m: three compartments flooded give 1.8 x 40 / 16 = 4.5 m,
 * under the 5 m deck; four would need 9 m: it sinks. */
static void four_flooded_sink_three_float(void** state) {
    (void)state;
    for (int flooded = 3; flooded <= 4; flooded++) {
        barge b;
        barge_make(&b, 1.8);
        nv_flood_state fs;
        memset(&fs, 0, sizeof fs);
        nv_error e;
        static const double at[5] = {-16.0, -8.0, 0.0, 8.0, 16.0};
        for (int k = 0; k < flooded; k++)
            if (nv_flood_breach(&b.cs, &fs, v3(at[k + (5 - flooded) / 2], -1.5, 0.0), 2.0, &e)) fail_msg("%s", e.message);
        barge_run(&b, &fs, 150.0);
        double keel = b.v.body.position.y - 1.5;
        print_message("%d flooded: keel at %.2f m\n", flooded, keel);
        if (flooded == 3) assert_true(keel > -4.6 && keel < -4.4);
        else assert_true(keel < -5.5);
        barge_free(&b);
    }
}

static void breach_refusals(void** state) {
    (void)state;
    barge b;
    barge_make(&b, 2.0);
    nv_flood_state fs;
    memset(&fs, 0, sizeof fs);
    nv_error e;
    assert_int_equal(nv_flood_breach(&b.cs, &fs, v3(0.0, -1.5, 6.0), 0.5, &e), -1); /* beside the hull */
    assert_non_null(strstr(e.message, "not on or in the hull"));
    assert_int_equal(nv_flood_breach(&b.cs, &fs, v3(30.0, 0.0, 0.0), 0.5, &e), -1); /* ahead of it */
    assert_int_equal(nv_flood_breach(&b.cs, &fs, v3(0.0, -1.5, 0.0), 0.0, &e), -1);
    assert_int_equal(nv_flood_breach(&b.cs, &fs, v3(0.0, NAN, 0.0), 0.5, &e), -1);
    for (int i = 0; i < FLOOD_MAX_HOLES; i++) assert_int_equal(nv_flood_breach(&b.cs, &fs, v3(1.0, -1.5, 0.0), 0.1, &e), 0);
    assert_int_equal(nv_flood_breach(&b.cs, &fs, v3(1.0, -1.5, 0.0), 0.1, &e), -1);
    assert_int_equal(e.code, NV_ELIMIT);
    barge_free(&b);
}

/* ---- in the world --------------------------------------------------------------- */

/* Three barges in a world at the given thread count: one holed midship,
 * one at the bow, one intact; 150 s. Returns the state hash. */
static uint64_t world_of_barges(uint32_t threads, double drafts[3], double trims[3]) {
    nv_jobs* pool = NULL;
    nv_error e;
    if (threads > 1 && nv_jobs_create(&pool, threads, &e)) fail_msg("%s", e.message);
    nv_world_config cfg = nv_world_config_default();
    cfg.tick_hz = 30.0;
    cfg.linear_damping = 0.3;
    cfg.angular_damping = 0.3;
    nv_world* w = NULL;
    if (nv_world_create(&w, &cfg, pool, &e)) fail_msg("%s", e.message);
    nv_mesh m = box(40.0, 8.0, 5.0);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 1025.0 * 40.0 * 8.0 * 2.0;
    spec.has_cg = true;
    spec.cg = v3(0.0, 1.5, 0.0);
    uint32_t type;
    if (nv_world_add_hull_type(w, "barge", &m, &spec, &type, &e)) fail_msg("%s", e.message);
    for (uint32_t i = 0; i < m.vertex_count; i++) m.positions[3 * i + 1] -= 1.5f;
    double planes[] = {-12.0, -4.0, 4.0, 12.0};
    nv_compartment_set cs;
    if (nv_compartment_split(&m, planes, 4, NULL, 0, &cs, &e) || nv_world_set_type_compartments(w, type, &cs, &e))
        fail_msg("%s", e.message);
    assert_int_equal(cs.count, 0); /* taken over */
    nv_mesh_free(&m);
    uint32_t ids[3];
    for (int k = 0; k < 3; k++)
        if (nv_world_spawn(w, type, v3(100.0 * k, -0.5, 0.0), quat_identity(), &ids[k], &e)) fail_msg("%s", e.message);
    if (nv_world_breach(w, ids[0], v3(0.0, -1.5, 0.0), 2.0, &e) || nv_world_breach(w, ids[1], v3(16.0, -1.5, 0.0), 2.0, &e))
        fail_msg("%s", e.message);
    assert_int_equal(nv_world_breached_count(w), 2);
    for (int i = 0; i < 150 * 30; i++) nv_world_step(w);
    for (int k = 0; k < 3; k++) {
        nv_world_vessel_state st;
        nv_world_vessel_get(w, ids[k], &st);
        nv_quat q = st.orientation;
        trims[k] = asin(2.0 * (q.w * q.z + q.x * q.y)) * 180.0 / 3.14159265358979323846;
        drafts[k] = -(st.position.y - 1.5);
    }
    uint64_t hash = nv_world_state_hash(w);
    /* Breached worlds are not checkpointed yet: refused, not restored dry. */
    nv_world_destroy(w);
    nv_jobs_destroy(pool);
    return hash;
}

static void the_world_floods_its_barges(void** state) {
    (void)state;
    double d1[3], t1[3], d3[3], t3[3];
    uint64_t h1 = world_of_barges(1, d1, t1), h3 = world_of_barges(3, d3, t3);
    print_message("world: midship %.4f m (2.5), bow trim %.3f deg, intact %.4f m; hash %016llx\n", d1[0], t1[1], d1[2],
                  (unsigned long long)h1);
    assert_true(fabs(d1[0] - 2.5) < 0.01 && fabs(t1[0]) < 0.05);
    assert_true(t1[1] < -1.0); /* bow down */
    assert_true(fabs(d1[2] - 2.0) < 0.01 && fabs(t1[2]) < 0.01);
    assert_true(h1 == h3);
}

static void the_world_refuses_bad_breaches(void** state) {
    (void)state;
    nv_world_config cfg = nv_world_config_default();
    nv_world* w = NULL;
    nv_error e;
    if (nv_world_create(&w, &cfg, NULL, &e)) fail_msg("%s", e.message);
    nv_mesh m = box(10.0, 4.0, 3.0);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = 20000.0;
    uint32_t type, id;
    if (nv_world_add_hull_type(w, "box", &m, &spec, &type, &e)) fail_msg("%s", e.message);
    nv_mesh_free(&m);
    if (nv_world_spawn(w, type, v3(0, 0, 0), quat_identity(), &id, &e)) fail_msg("%s", e.message);
    assert_int_equal(nv_world_breach(w, id, v3(0, 0, 0), 1.0, &e), -1);
    assert_non_null(strstr(e.message, "no compartments"));
    assert_int_equal(nv_world_breach(w, id + 1, v3(0, 0, 0), 1.0, &e), -1);
    assert_int_equal(e.code, NV_ENOENT);
    nv_flood_state fs;
    assert_int_equal(nv_world_flooding(w, id, &fs), 0);
    assert_int_equal(fs.hole_count, 0);
    nv_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(box_splits_into_exact_slabs), cmocka_unit_test(ship_volumes_add_up),
        cmocka_unit_test(bad_bulkheads_refused),       cmocka_unit_test(water_below_a_level),
        cmocka_unit_test(lost_buoyancy_of_a_box_barge), cmocka_unit_test(fill_time_by_the_orifice_law),
        cmocka_unit_test(midship_breach_settles_at_the_lost_buoyancy_draft),
        cmocka_unit_test(end_compartment_trims_by_lost_buoyancy),
        cmocka_unit_test(wing_compartment_heels_by_lost_buoyancy),
        cmocka_unit_test(four_flooded_sink_three_float),
        cmocka_unit_test(breach_refusals),
        cmocka_unit_test(the_world_floods_its_barges),
        cmocka_unit_test(the_world_refuses_bad_breaches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
