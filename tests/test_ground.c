// SPDX-License-Identifier: MIT
/* Vessels on the ground, against closed forms: a box dropped on dry land
 * stops without a bounce, rests within millimetres of it with no water
 * force, and makes one contact event with the impact's speed and
 * momentum; a box in water shallower than its draft rests on the seabed
 * with the buoyancy of the depth there; on a 1:10 dry slope friction 0.5
 * holds a box and friction 0.05 lets it slide at g (sin - mu cos); a
 * patrol boat driven onto a 1:10 beach grounds bow-up near the shoreline
 * and stays; the surf cuts the waves over a shallow shelf to the
 * breaking limit; the state hash is the same at 1, 2 and 3 threads. */
#include <math.h>
#include <time.h>

#include "naval/jobs.h"
#include "naval/scenario.h"
#include "naval/terrain.h"
#include "naval/world.h"
#include "test_util.h"

#define BOX_L 10.0
#define BOX_B 4.0
#define BOX_H 2.0

/* A terrain of n x n nodes `cell` apart from (x0, z0), elevation f(x, z). */
static nv_terrain* make_terrain(double x0, double z0, double cell, uint32_t n, double (*f)(double, double)) {
    float* e = malloc((size_t)n * n * sizeof *e);
    assert_non_null(e);
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t i = 0; i < n; i++) e[(size_t)j * n + i] = (float)f(x0 + i * cell, z0 + j * cell);
    nv_terrain_spec spec = {x0, z0, cell, -100.0, 100.0};
    nv_terrain* t;
    nv_error err;
    ASSERT_OK(nv_terrain_create(&t, n, n, e, &spec, &err), err);
    free(e);
    return t;
}

/* A world at tick_hz with one box hull type of the given mass (CG at its
 * centre: vertices from -H/2 to H/2 about it). */
static nv_world* box_world_damped(nv_jobs* pool, double mass, double damping, uint32_t* type) {
    nv_world_config cfg = nv_world_config_default();
    cfg.tick_hz = 60.0;
    cfg.linear_damping = damping;
    cfg.angular_damping = damping;
    nv_world* w;
    nv_error err;
    ASSERT_OK(nv_world_create(&w, &cfg, pool, &err), err);
    nv_mesh m;
    ASSERT_OK(nv_hullgen_box(&m, BOX_L, BOX_B, BOX_H, 10, 2, 4, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.mass = mass;
    ASSERT_OK(nv_world_add_hull_type(w, "box", &m, &spec, type, &err), err);
    nv_mesh_free(&m);
    return w;
}

static nv_world* box_world(nv_jobs* pool, double mass, uint32_t* type) { return box_world_damped(pool, mass, 0.0, type); }

static double flat_land(double x, double z) { return (void)x, (void)z, 3.0; }

static void box_lands_on_dry_ground(void** state) {
    (void)state;
    const double mass = 20000.0, drop = 0.5, g = 9.81;
    uint32_t type, id;
    nv_error err;
    nv_world* w = box_world(NULL, mass, &type);
    nv_terrain* t = make_terrain(-50.0, -50.0, 5.0, 21, flat_land);
    nv_world_set_terrain(w, t);
    ASSERT_OK(nv_world_spawn(w, type, v3(0.0, 3.0 + BOX_H / 2 + drop, 0.0), quat_identity(), &id, &err), err);
    uint32_t events = 0;
    nv_world_contact_event first = {0};
    double peak_up = 0.0, vy_after = 0.0;
    for (int i = 0; i < 600; i++) {
        nv_world_step(w);
        uint32_t n;
        const nv_world_contact_event* e = nv_world_contact_events(w, &n);
        nv_world_vessel_state s;
        ASSERT_OK(nv_world_vessel_get(w, id, &s), err);
        if (n && !events) first = e[0], vy_after = s.velocity.y;
        events += n;
        if (events && s.velocity.y > peak_up) peak_up = s.velocity.y;
        /* dry land: no water force at all, ever */
        assert_true(s.force.x == 0.0 && s.force.y == 0.0 && s.force.z == 0.0);
        assert_true(s.submerged_area == 0.0);
    }
    nv_world_vessel_state s;
    ASSERT_OK(nv_world_vessel_get(w, id, &s), err);
    assert_int_equal(events, 1);
    assert_int_equal(first.id_a, id);
    assert_int_equal(first.id_b, WORLD_CONTACT_GROUND);
    ASSERT_NEAR_ABS(first.normal.y, 1.0, 1e-9);
    /* struck at the free-fall speed (to within the step's g dt); the
     * impulse is the momentum it took in that step (the speculative contact
     * lets the box close the gap first, the next step stops it) */
    const double v_impact = sqrt(2.0 * g * drop);
    ASSERT_NEAR_ABS(first.closing_speed, v_impact, g / 60.0 + 1e-9);
    ASSERT_NEAR_REL(first.impulse, mass * (first.closing_speed + vy_after), 1e-3);
    ASSERT_NEAR_ABS(first.point.y, 3.0, 0.06);
    assert_true(peak_up < 0.05); /* no bounce */
    assert_true(s.flags & WORLD_VESSEL_GROUNDED);
    ASSERT_NEAR_ABS(s.position.y, 3.0 + BOX_H / 2, 0.01);
    assert_true(v3_length(s.velocity) < 0.01);
    assert_true(s.penetration < 0.01);
    assert_true(s.contact_points > 0);
    nv_world_destroy(w);
    nv_terrain_destroy(t);
}

/* The column model meets the ground too: the same box on columns comes to
 * rest on dry land, flagged, with no water force. */
static void columns_rest_on_the_ground(void** state) {
    (void)state;
    uint32_t type, id;
    nv_error err;
    nv_world* w = box_world(NULL, 20000.0, &type);
    ASSERT_OK(nv_world_build_type_columns(w, type, 10, 4, &err), err);
    nv_terrain* t = make_terrain(-50.0, -50.0, 5.0, 21, flat_land);
    nv_world_set_terrain(w, t);
    ASSERT_OK(nv_world_spawn(w, type, v3(0.0, 3.0 + BOX_H / 2 + 0.5, 0.0), quat_identity(), &id, &err), err);
    ASSERT_OK(nv_world_set_vessel_model(w, id, WORLD_MODEL_COLUMNS, &err), err);
    for (int i = 0; i < 600; i++) nv_world_step(w);
    nv_world_vessel_state s;
    ASSERT_OK(nv_world_vessel_get(w, id, &s), err);
    assert_int_equal(s.model, WORLD_MODEL_COLUMNS);
    assert_true(s.flags & WORLD_VESSEL_GROUNDED);
    ASSERT_NEAR_ABS(s.position.y, 3.0 + BOX_H / 2, 0.01);
    assert_true(v3_length(s.velocity) < 0.01);
    assert_true(s.force.y == 0.0);
    nv_world_destroy(w);
    nv_terrain_destroy(t);
}

static double slope_to_land(double x, double z) { return (void)z, 0.2 * x - 2.0; }

/* Levels of detail: far from every player a vessel becomes a floater,
 * except where the ground can reach it (a floater has no body to hold on
 * it): there it keeps a rigid model, columns. */
static void floaters_keep_off_the_ground(void** state) {
    (void)state;
    uint32_t type, player, near_land, open_sea;
    nv_error err;
    nv_world* w = box_world(NULL, 41000.0, &type);
    ASSERT_OK(nv_world_build_type_columns(w, type, 10, 4, &err), err);
    nv_terrain* t = make_terrain(-50.0, -50.0, 5.0, 21, slope_to_land);
    nv_world_set_terrain(w, t);
    double y;
    ASSERT_OK(nv_world_type_float_height(w, type, &y, &err), err);
    ASSERT_OK(nv_world_spawn(w, type, v3(3000.0, y, 0.0), quat_identity(), &player, &err), err);
    ASSERT_OK(nv_world_spawn(w, type, v3(-20.0, y, 0.0), quat_identity(), &near_land, &err), err); /* 6 m of water */
    ASSERT_OK(nv_world_spawn(w, type, v3(-600.0, y, 0.0), quat_identity(), &open_sea, &err), err);
    ASSERT_OK(nv_world_set_player(w, player, 1, &err), err);
    nv_world_lod lod = nv_world_lod_default();
    lod.enabled = 1;
    lod.mesh_within = 50.0;
    lod.columns_within = 100.0;
    nv_world_set_lod(w, &lod);
    for (int i = 0; i < 5; i++) nv_world_step(w);
    nv_world_vessel_state a, b;
    ASSERT_OK(nv_world_vessel_get(w, near_land, &a), err);
    ASSERT_OK(nv_world_vessel_get(w, open_sea, &b), err);
    assert_int_equal(a.model, WORLD_MODEL_COLUMNS);
    assert_int_equal(b.model, WORLD_MODEL_FLOATER);
    nv_world_destroy(w);
    nv_terrain_destroy(t);
}

static double shallow_seabed(double x, double z) { return (void)x, (void)z, -0.6; }

/* Floating draft 1 m, water 0.6 m deep: it sits on the bottom, and the
 * water still carries rho g L B 0.6 of its weight. */
static void box_rests_on_shallow_seabed(void** state) {
    (void)state;
    const double rho = nv_world_config_default().water_density, g = nv_world_config_default().gravity;
    const double mass = rho * BOX_L * BOX_B * 1.0;
    uint32_t type, id;
    nv_error err;
    nv_world* w = box_world(NULL, mass, &type);
    nv_terrain* t = make_terrain(-50.0, -50.0, 5.0, 21, shallow_seabed);
    nv_world_set_terrain(w, t);
    ASSERT_OK(nv_world_spawn(w, type, v3(0.0, 0.5, 0.0), quat_identity(), &id, &err), err);
    for (int i = 0; i < 900; i++) nv_world_step(w);
    nv_world_vessel_state s;
    ASSERT_OK(nv_world_vessel_get(w, id, &s), err);
    assert_true(s.flags & WORLD_VESSEL_GROUNDED);
    ASSERT_NEAR_ABS(s.position.y, -0.6 + BOX_H / 2, 0.02);
    assert_true(v3_length(s.velocity) < 0.01);
    ASSERT_NEAR_REL(s.force.y, rho * g * BOX_L * BOX_B * 0.6, 0.03);
    nv_world_destroy(w);
    nv_terrain_destroy(t);
}

static double shelf(double x, double z) { return (void)x, (void)z, -2.0; }
static double deep(double x, double z) { return (void)x, (void)z, -40.0; }

/* A box of draft 0.5 m floating in a regular wave of amplitude 1.2 m and
 * 160 m length over flat ground `seabed`: its CG's lowest and highest
 * heights over 30 s after 10 s, and whether it touched the ground. */
static void heave_over(double (*seabed)(double, double), double* low, double* high, int* grounded) {
    const double rho = nv_world_config_default().water_density;
    uint32_t type, id;
    nv_error err;
    /* heave and pitch damped, heave at about a third of critical (the
     * box has no hydrodynamic model: undamped, every kink of the cut
     * wave would add to its bobbing and pitching) */
    nv_world* w = box_world_damped(NULL, rho * BOX_L * BOX_B * 0.5, 2.0, &type);
    nv_water_sine wave;
    assert_int_equal(nv_water_sine_init(&wave, 1.2, 160.0, 0.0, nv_world_config_default().gravity), 0);
    nv_world_water water = {.surface = &wave.base, .update = NULL};
    nv_world_set_water(w, &water);
    nv_terrain* t = make_terrain(-100.0, -100.0, 5.0, 41, seabed);
    nv_world_set_terrain(w, t);
    ASSERT_OK(nv_world_spawn(w, type, v3(0.0, BOX_H / 2 - 0.5, 0.0), quat_identity(), &id, &err), err);
    *low = INFINITY, *high = -INFINITY, *grounded = 0;
    for (int i = 0; i < 40 * 60; i++) {
        nv_water_sine_set_time(&wave, nv_world_time(w));
        nv_world_step(w);
        nv_world_vessel_state v;
        ASSERT_OK(nv_world_vessel_get(w, id, &v), err);
        if (i < 10 * 60) continue; /* the start's jolt */
        *grounded |= (v.flags & WORLD_VESSEL_GROUNDED) != 0;
        *low = fmin(*low, v.position.y), *high = fmax(*high, v.position.y);
    }
    nv_world_destroy(w);
    nv_terrain_destroy(t);
}

/* The surf (NV_WORLD_SURF_BREAKING): over 2 m of water a wave stands
 * at most 0.78 x 2 = 1.56 m high, so a box that rides the 2.4 m wave
 * over 40 m of water rises and falls little more than that over the
 * shelf, and after the start never touches it (its bottom 1.5 m down at
 * rest, 2.3 m at the uncut trough). */
static void surf_cuts_the_waves_on_a_shelf(void** state) {
    (void)state;
    double low, high, shallow_low, shallow_high;
    int grounded, shallow_grounded;
    heave_over(deep, &low, &high, &grounded);
    heave_over(shelf, &shallow_low, &shallow_high, &shallow_grounded);
    const double limit = NV_WORLD_SURF_BREAKING * 2.0;
    print_message("heave crest to trough: %.2f m over 40 m of water, %.2f m over 2 m (the surf's limit %.2f m)\n",
                  high - low, shallow_high - shallow_low, limit);
    assert_false(grounded);
    assert_false(shallow_grounded);
    assert_true(high - low > 2.2); /* the 2.4 m wave, the damping's lag */
    /* the cut wave's limit, and the box's heave carrying it on a little
     * where the surface stops short at the cut */
    assert_true(shallow_high - shallow_low > 0.9 * limit);
    assert_true(shallow_high - shallow_low < limit + 0.3);
    assert_true(shallow_high - shallow_low < 0.8 * (high - low));
    /* about the box's still-water place, the draft's 0.5 m below its centre */
    ASSERT_NEAR_ABS(0.5 * (shallow_high + shallow_low), BOX_H / 2 - 0.5, 0.15);
}

static double dry_slope(double x, double z) { return (void)z, 10.0 + 0.1 * x; }

/* A box laid on a dry 1:10 slope (rising along +x), at rest: returns its
 * speed along the slope after each second (3 of them). */
static void slide_on_slope(double friction, double speeds[3]) {
    const double theta = atan(0.1);
    uint32_t type, id;
    nv_error err;
    nv_world* w = box_world(NULL, 20000.0, &type);
    nv_terrain* t = make_terrain(-80.0, -50.0, 5.0, 33, dry_slope);
    nv_world_set_terrain(w, t);
    nv_world_contact_params cp = nv_world_contacts_default();
    cp.ground_friction = friction;
    ASSERT_OK(nv_world_set_contacts(w, &cp, &err), err);
    /* bottom face on the slope: the CG H/2 along the normal above x = 0 */
    nv_vec3 normal = v3(-sin(theta), cos(theta), 0.0);
    nv_vec3 cg = v3_madd(v3(0.0, dry_slope(0.0, 0.0) + 0.002, 0.0), normal, BOX_H / 2);
    ASSERT_OK(nv_world_spawn(w, type, cg, quat_from_axis_angle(v3(0, 0, 1), theta), &id, &err), err);
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 60; i++) nv_world_step(w);
        nv_world_vessel_state s;
        ASSERT_OK(nv_world_vessel_get(w, id, &s), err);
        assert_true(s.flags & WORLD_VESSEL_GROUNDED);
        speeds[k] = -v3_dot(s.velocity, v3(cos(theta), sin(theta), 0.0)); /* down the slope */
    }
    nv_world_destroy(w);
    nv_terrain_destroy(t);
}

static void friction_holds_or_slides(void** state) {
    (void)state;
    const double theta = atan(0.1), g = nv_world_config_default().gravity;
    double v[3];
    slide_on_slope(0.5, v);
    for (int k = 0; k < 3; k++) assert_true(fabs(v[k]) < 0.005);
    slide_on_slope(0.05, v);
    /* Coulomb: a = g (sin theta - mu cos theta), from the speeds 1 s apart */
    const double a = g * (sin(theta) - 0.05 * cos(theta));
    ASSERT_NEAR_REL(v[2] - v[1], a, 0.03);
    ASSERT_NEAR_REL(v[1] - v[0], a, 0.03);
}

/* A 1:10 beach rising along +x, the shoreline at x = 0; the seabed 12 m
 * down offshore. */
static double beach(double x, double z) { return (void)z, fmax(-12.0, 0.1 * x); }

static const char* beach_scenario =
    "{\"tick_hz\": 30, \"vessel_types\": [\"builtin:patrol\"],"
    " \"vessels\": [{\"type\": \"patrol\", \"position\": [-80, 0], \"heading_deg\": 0,"
    "               \"velocity\": [4, 0, 0], \"controls\": {\"throttle\": 1, \"rudder\": 0}}]}";

static void patrol_boat_runs_aground(void** state) {
    (void)state;
    nv_scenario sc;
    nv_scenario_instance inst;
    nv_error err;
    ASSERT_OK(nv_scenario_parse(beach_scenario, strlen(beach_scenario), "beach", NULL, &sc, &err), err);
    ASSERT_OK(nv_scenario_instantiate(&sc, NULL, &inst, &err), err);
    nv_terrain* t = make_terrain(-200.0, -100.0, 4.0, 76, beach);
    nv_world_set_terrain(inst.world, t);
    uint32_t id = nv_world_vessel_id_at(inst.world, 0), events = 0;
    const nv_hull* h = nv_world_hull_type(inst.world, 0);
    double length = h->bounds_max[0] - h->bounds_min[0];
    for (int i = 0; i < 60 * 30; i++) {
        nv_world_step(inst.world);
        uint32_t n;
        nv_world_contact_events(inst.world, &n);
        events += n;
    }
    nv_world_vessel_state s;
    ASSERT_OK(nv_world_vessel_get(inst.world, id, &s), err);
    nv_vec3 bow_dir = quat_rotate(s.orientation, v3(1, 0, 0));
    nv_vec3 bow = v3_madd(s.position, bow_dir, h->bounds_max[0]);
    print_message("patrol: CG (%.2f, %.2f, %.2f), bow x %.2f, pitch %.2f deg, speed %.3f m/s, %u points, %u events\n",
                  s.position.x, s.position.y, s.position.z, bow.x, asin(bow_dir.y) * 180.0 / NV_PI,
                  v3_length(s.velocity), s.contact_points, events);
    assert_true(s.flags & WORLD_VESSEL_GROUNDED);
    assert_true(events >= 1);
    assert_true(bow_dir.y > 0.02);            /* bow-up */
    assert_true(fabs(bow.x) < length);        /* near the shoreline */
    assert_true(v3_length(s.velocity) < 0.1); /* and it stays */
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&sc);
    nv_terrain_destroy(t);
}

static double bumps(double x, double z) { return -1.5 + 0.8 * sin(0.21 * x) * cos(0.17 * z); }

static void same_hash_at_any_thread_count(void** state) {
    (void)state;
    uint64_t hashes[3];
    nv_terrain* t = make_terrain(-60.0, -60.0, 3.0, 41, bumps);
    for (uint32_t threads = 1; threads <= 3; threads++) {
        nv_jobs* pool = NULL;
        nv_error err;
        if (threads > 1) ASSERT_OK(nv_jobs_create(&pool, threads, &err), err);
        uint32_t type, id;
        nv_world* w = box_world(pool, 30000.0, &type);
        nv_world_set_terrain(w, t);
        for (int k = 0; k < 12; k++) {
            nv_quat q = quat_from_axis_angle(v3(0.3, 1.0, 0.2), 0.4 * k);
            ASSERT_OK(nv_world_spawn(w, type, v3(-40.0 + 7.0 * k, 1.5, 5.0 * (k % 3)), q, &id, &err), err);
            ASSERT_OK(nv_world_set_velocity(w, id, v3(1.0, 0, 0.5 * (k % 2)), v3(0, 0.1, 0), &err), err);
        }
        for (int i = 0; i < 300; i++) nv_world_step(w);
        hashes[threads - 1] = nv_world_state_hash(w);
        nv_world_destroy(w);
        nv_jobs_destroy(pool);
    }
    nv_terrain_destroy(t);
    assert_true(hashes[0] == hashes[1]);
    assert_true(hashes[0] == hashes[2]);
}

static double test_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* An island 40 m square, 5 m high, in 30 m of water. */
static double island(double x, double z) { return fabs(x) < 20.0 && fabs(z) < 20.0 ? 5.0 : -30.0; }

/* A box lying flat at yaw `a` (about +y from +x toward -z): its xz
 * corners in order round the rectangle. */
static void flat_corners(double x, double z, double a, double c[4][2]) {
    static const double sign[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
    double ux = cos(a), uz = -sin(a); /* the bow */
    for (int k = 0; k < 4; k++) {
        double u = sign[k][0] * BOX_L / 2, v = sign[k][1] * BOX_B / 2;
        c[k][0] = x + u * ux - v * uz;
        c[k][1] = z + u * uz + v * ux;
    }
}

static double cross2(const double o[2], const double a[2], const double b[2]) {
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

static double point_segment(const double p[2], const double a[2], const double b[2]) {
    double dx = b[0] - a[0], dz = b[1] - a[1], l2 = dx * dx + dz * dz;
    double t = l2 > 0.0 ? fmin(1.0, fmax(0.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dz) / l2)) : 0.0;
    return hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dz);
}

static int inside(const double p[2], double c[4][2]) {
    int pos = 0, neg = 0;
    for (int k = 0; k < 4; k++) {
        double s = cross2(c[k], c[(k + 1) % 4], p);
        pos |= s > 0.0, neg |= s < 0.0;
    }
    return !(pos && neg);
}

/* The distance between two flat boxes' footprints (0 when they meet),
 * from their edges: independent of the separating axes core uses. */
static double footprint_distance(double ax, double az, double aa, double bx, double bz, double ba) {
    double a[4][2], b[4][2];
    flat_corners(ax, az, aa, a);
    flat_corners(bx, bz, ba, b);
    double d = INFINITY;
    for (int i = 0; i < 4; i++) {
        if (inside(a[i], b) || inside(b[i], a)) return 0.0;
        for (int j = 0; j < 4; j++) {
            const double *p = a[i], *q = a[(i + 1) % 4], *r = b[j], *s2 = b[(j + 1) % 4];
            if (cross2(p, q, r) * cross2(p, q, s2) < 0.0 && cross2(r, s2, p) * cross2(r, s2, q) < 0.0) return 0.0;
            d = fmin(d, fmin(fmin(point_segment(p, r, s2), point_segment(q, r, s2)),
                             fmin(point_segment(r, p, q), point_segment(s2, p, q))));
        }
    }
    return d;
}

/* Spawns' free water (nv_world_find_free_water) by footprints: a spot
 * inside another hull moves just clear of its rectangle (alongside, closer
 * than their bounding circles would allow), for either heading and with
 * the other boat turned; one on the island moves to water deeper than the
 * keel; none within reach is refused with the reason. A crowd of 2,025
 * boxes too close to take one more costs one bounded search (its time
 * printed), which ends clear of every one of them. */
static void spawns_find_free_water(void** state) {
    (void)state;
    uint32_t type, a, b;
    nv_error err;
    nv_world* w = box_world(NULL, 20000.0, &type);
    nv_terrain* t = make_terrain(-200.0, -200.0, 2.0, 201, island);
    nv_world_set_terrain(w, t);
    double y;
    ASSERT_OK(nv_world_type_float_height(w, type, &y, &err), err);
    ASSERT_OK(nv_world_spawn(w, type, v3(60.0, y, 0.0), quat_identity(), &a, &err), err);
    const double half_pi = 0.5 * NV_PI;
    ASSERT_OK(nv_world_spawn(w, type, v3(100.0, y, -100.0), quat_from_axis_angle(v3(0, 1, 0), half_pi), &b, &err),
              err);
    const double r = sqrt(5.0 * 5.0 + 2.0 * 2.0 + 1.0 * 1.0), margin = 1.0, step = 2.0;
    double x, z;
    uint32_t tried;
    /* Free water where asked: it stays. */
    ASSERT_OK(nv_world_find_free_water(w, type, 100.0, 50.0, 0.0, 100.0, margin, &x, &z, &tried, &err), err);
    assert_true(x == 100.0 && z == 50.0 && tried == 1);
    /* Inside vessel a (heading 0), asked at heading 0: alongside it, 5 m
     * off its centreline (the half beams and the margin), give or take a
     * ring; its bounding circle would have kept it 12 m away. */
    ASSERT_OK(nv_world_find_free_water(w, type, 62.0, 1.0, 0.0, 100.0, margin, &x, &z, &tried, &err), err);
    double gap = footprint_distance(x, z, 0.0, 60.0, 0.0, 0.0), moved = hypot(x - 62.0, z - 1.0);
    if (!(gap >= margin - 1e-9 && moved <= 4.0 + step + 1e-9 && hypot(x - 60.0, z) < 2.0 * r + margin))
        fail_msg("inside the other box: placed at (%.2f, %.2f): %.2f m clear of it, moved %.2f m", x, z, gap, moved);
    /* Asked across it (heading 90): clear of its rectangle too. */
    ASSERT_OK(nv_world_find_free_water(w, type, 60.0, 0.0, half_pi, 100.0, margin, &x, &z, &tried, &err), err);
    gap = footprint_distance(x, z, half_pi, 60.0, 0.0, 0.0), moved = hypot(x - 60.0, z);
    if (!(gap >= margin - 1e-9 && moved <= 8.0 + step + 1e-9))
        fail_msg("across the other box: placed at (%.2f, %.2f): %.2f m clear of it, moved %.2f m", x, z, gap, moved);
    /* Inside vessel b, which lies along z: beside it along x. */
    ASSERT_OK(nv_world_find_free_water(w, type, 101.0, -100.0, half_pi, 100.0, margin, &x, &z, &tried, &err), err);
    gap = footprint_distance(x, z, half_pi, 100.0, -100.0, half_pi), moved = hypot(x - 101.0, z + 100.0);
    if (!(gap >= margin - 1e-9 && moved <= 4.0 + step + 1e-9))
        fail_msg("inside the turned box: placed at (%.2f, %.2f): %.2f m clear of it, moved %.2f m", x, z, gap, moved);
    /* On the island: off it, the ground under the footprint below the keel. */
    ASSERT_OK(nv_world_find_free_water(w, type, 0.0, 0.0, 0.0, 100.0, margin, &x, &z, &tried, &err), err);
    double keel = y - BOX_H / 2;
    assert_true(nv_terrain_max_in(t, x - BOX_L / 2, z - BOX_B / 2, x + BOX_L / 2, z + BOX_B / 2) < keel - margin);
    assert_true(hypot(x, z) < 20.0 + r + 2.0 + 8.0);
    /* No free water within reach. */
    assert_int_equal(nv_world_find_free_water(w, type, 0.0, 0.0, 0.0, 5.0, margin, &x, &z, &tried, &err), -1);
    assert_int_equal(err.code, NV_ELIMIT);
    if (!strstr(err.message, "no free water within 5 m of (0, 0)")) fail_msg("got '%s'", err.message);
    assert_int_equal(nv_world_find_free_water(w, type, 0.0, 0.0, NAN, 5.0, margin, &x, &z, &tried, &err), -1);
    /* A crowd: 45 x 45 boxes 12 m apart along x and 6 m along z (2 m gaps:
     * no room for a 4 m beam and the margins) around (1000, 1000). */
    for (int i = 0; i < 45; i++)
        for (int j = 0; j < 45; j++) {
            uint32_t id;
            ASSERT_OK(nv_world_spawn(w, type, v3(1000.0 + 12.0 * (i - 22), y, 1000.0 + 6.0 * (j - 22)),
                                     quat_identity(), &id, &err),
                      err);
        }
    double t0 = test_now();
    ASSERT_OK(nv_world_find_free_water(w, type, 1000.0, 1000.0, 0.0, 500.0, margin, &x, &z, &tried, &err), err);
    double ms = 1e3 * (test_now() - t0);
    for (int i = 0; i < 45; i++)
        for (int j = 0; j < 45; j++) {
            double d = footprint_distance(x, z, 0.0, 1000.0 + 12.0 * (i - 22), 1000.0 + 6.0 * (j - 22), 0.0);
            if (d < margin - 1e-9) fail_msg("placed at (%.1f, %.1f), %.2f m from box (%d, %d)", x, z, d, i, j);
        }
    assert_true(fabs(x - 1000.0) >= 22 * 12.0 + BOX_L + margin - 1e-6 ||
                fabs(z - 1000.0) >= 22 * 6.0 + BOX_B + margin - 1e-6);
    printf("free water out of a crowd of 2025: %u candidates, %.2f ms, placed (%.1f, %.1f)\n", tried, ms, x, z);
    nv_world_destroy(w);
    nv_terrain_destroy(t);
}

/* A spawn with a look-ahead (nv_world_find_free_water_ahead) keeps out of
 * a moving boat's track: a box heading along +x at 5 m/s, 60 m short of
 * the asked spot, is clear of it now (the plain search takes the spot)
 * but would run it down in 12 s; with 15 s of look-ahead the new box goes
 * beside the track, clear of every position the box will pass through,
 * and no farther than the track's half width and the margins. */
static void spawns_keep_out_of_tracks(void** state) {
    (void)state;
    uint32_t type, a;
    nv_error err;
    nv_world* w = box_world(NULL, 20000.0, &type);
    double y;
    ASSERT_OK(nv_world_type_float_height(w, type, &y, &err), err);
    ASSERT_OK(nv_world_spawn(w, type, v3(-60.0, y, 0.0), quat_identity(), &a, &err), err);
    ASSERT_OK(nv_world_set_velocity(w, a, v3(5.0, 0.0, 0.0), v3(0.0, 0.0, 0.0), &err), err);
    const double margin = 1.0;
    double x, z;
    uint32_t tried;
    ASSERT_OK(nv_world_find_free_water(w, type, 0.0, 0.0, 0.0, 200.0, margin, &x, &z, &tried, &err), err);
    assert_true(x == 0.0 && z == 0.0);
    ASSERT_OK(nv_world_find_free_water_ahead(w, type, 0.0, 0.0, 0.0, 200.0, margin, 15.0, &x, &z, &tried, &err), err);
    print_message("look-ahead 15 s: placed at (%.2f, %.2f) after %u candidates\n", x, z, tried);
    for (double t = 0.0; t <= 15.0; t += 0.05) {
        double d = footprint_distance(x, z, 0.0, -60.0 + 5.0 * t, 0.0, 0.0);
        if (d < margin - 1e-9) fail_msg("at %.2f s the box passes %.2f m from the new one", t, d);
    }
    /* beside the track (half beams 2 + 2 and the margin), not sent far away */
    assert_true(fabs(z) >= BOX_B + margin - 1e-9 && hypot(x, z) <= BOX_B + margin + 2.0 + 1e-9);
    /* past the track's end (75 m of travel) the spot stays free */
    ASSERT_OK(nv_world_find_free_water_ahead(w, type, 40.0, 0.0, 0.0, 200.0, margin, 15.0, &x, &z, &tried, &err), err);
    assert_true(x == 40.0 && z == 0.0);
    assert_int_equal(nv_world_find_free_water_ahead(w, type, 0.0, 0.0, 0.0, 10.0, margin, 601.0, &x, &z, &tried, &err),
                     -1);
    assert_non_null(strstr(err.message, "look-ahead in [0, 600] s"));
    nv_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(box_lands_on_dry_ground),       cmocka_unit_test(box_rests_on_shallow_seabed),
        cmocka_unit_test(friction_holds_or_slides),      cmocka_unit_test(patrol_boat_runs_aground),
        cmocka_unit_test(same_hash_at_any_thread_count), cmocka_unit_test(columns_rest_on_the_ground),
        cmocka_unit_test(floaters_keep_off_the_ground),   cmocka_unit_test(surf_cuts_the_waves_on_a_shelf),   cmocka_unit_test(spawns_find_free_water), cmocka_unit_test(spawns_keep_out_of_tracks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
