// SPDX-License-Identifier: MIT
/* Breaking crests: the jet's force and moment on a box against the
 * momentum flux in closed form; a world's hull struck only where a crest
 * breaks and only when its type takes breaking crests; and where the FFT
 * ocean's crests break, and how fast their water moves. */
#include <math.h>

#include "breaking.h"
#include "hydro.h"
#include "naval/hullgen.h"
#include "naval/ocean.h"
#include "naval/statics.h"
#include "naval/vessel_type.h"
#include "naval/water.h"
#include "naval/world.h"
#include "test_util.h"

#define RHO 1025.0
#define G 9.81

/* The 10 x 4 x 2 barge, its CG 1 m forward of mid-length and 0.5 m above
 * the keel, floating upright at 0.8 m on flat water: its vertex heights. */
static void barge_heights(nv_hull* h, float** height) {
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_build("barge", 600, &m, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.density = 500.0;
    spec.has_cg = true;
    spec.cg = v3(1.0, 0.5, 0.0);
    ASSERT_OK(nv_hull_create(h, &m, &spec, &err), err);
    nv_mesh_free(&m);
    hydro_scratch scratch;
    ASSERT_OK(hydro_scratch_alloc(&scratch, h->vertex_count, &err), err);
    *height = malloc(h->vertex_count * sizeof **height);
    assert_non_null(*height);
    nv_water_flat flat;
    nv_water_flat_init(&flat, 0.0);
    const nv_mat3 r = m3_diag(1, 1, 1);
    hydro_vertex_pass(h, 0, h->vertex_count, v3(0.0, 0.5 - 0.8, 0.0), &r, &flat.base, &scratch, *height);
    hydro_scratch_free(&scratch);
}

static hydro_sums jet_on(const nv_hull* h, const float* height, nv_vec3 water, nv_vec3 velocity, double reach) {
    hydro_sums s;
    hydro_sums_clear(&s);
    breaking_jet jet = {.velocity = velocity, .angular_velocity = v3(0, 0, 0), .density = RHO};
    for (int k = 0; k < BREAKING_SECTIONS; k++) jet.water[k] = water, jet.reach[k] = reach;
    /* in blocks, as the world runs it: the sum is the blocks' sum */
    for (uint32_t first = 0; first < h->triangle_count; first += 64) {
        const uint32_t n = h->triangle_count - first < 64 ? h->triangle_count - first : 64;
        breaking_jet_pass(h, height, first, n, &jet, &s);
    }
    return s;
}

/* A jet across the barge, reaching over all of it, stops against its
 * starboard side (z = 2, 10 x 2 m): rho u^2 A along -z, at the side's
 * centre (-1, 0.5, 2) from the CG; the other faces meet it edge-on or
 * face away. The hull moving with half the jet's speed meets a quarter of
 * it; one outrunning it, none; one moving into it, the jet's own flux;
 * one rolling, the part giving way less; a band thinner than the side,
 * part. */
static void jet_stops_against_the_side(void** state) {
    (void)state;
    nv_hull h;
    float* height;
    barge_heights(&h, &height);
    const double u = 6.0, area = 10.0 * 2.0, f = RHO * u * u * area;
    hydro_sums s = jet_on(&h, height, v3(0, 0, -u), v3(0, 0, 0), 100.0);
    ASSERT_NEAR_ABS(s.force.x, 0.0, 1e-9 * f);
    ASSERT_NEAR_ABS(s.force.y, 0.0, 1e-9 * f);
    ASSERT_NEAR_REL(s.force.z, -f, 1e-6);
    /* (-1, 0.5, 2) x (0, 0, -f) = (-0.5 f, -f, 0) */
    ASSERT_NEAR_REL(s.torque.x, -0.5 * f, 1e-6);
    ASSERT_NEAR_REL(s.torque.y, -f, 1e-6);
    ASSERT_NEAR_ABS(s.torque.z, 0.0, 1e-6 * f);

    s = jet_on(&h, height, v3(0, 0, -u), v3(0, 0, -0.5 * u), 100.0);
    ASSERT_NEAR_REL(s.force.z, -0.25 * f, 1e-6);
    s = jet_on(&h, height, v3(0, 0, -u), v3(0, 0, -1.5 * u), 100.0);
    assert_true(s.force.z == 0.0 && s.torque.x == 0.0);
    /* moving into the jet: its own flux, no more (the push is the triangles' drag) */
    s = jet_on(&h, height, v3(0, 0, -u), v3(0, 0, 0.5 * u), 100.0);
    ASSERT_NEAR_REL(s.force.z, -f, 1e-6);
    /* rolling at w about x: the side's points move at w y along z (its
     * centre is at y = 0 on the CG's height), so the part above the CG
     * pushes out into the jet (the jet's own flux, u^2) and the part below
     * gives way (u - w |y|); the side runs from y = -0.5 to 1.5 */
    const double w = 2.0;
    hydro_sums_clear(&s);
    breaking_jet rolling = {.velocity = v3(0, 0, 0), .angular_velocity = v3(w, 0, 0), .density = RHO};
    for (int k = 0; k < BREAKING_SECTIONS; k++) rolling.water[k] = v3(0, 0, -u), rolling.reach[k] = 100.0;
    breaking_jet_pass(&h, height, 0, h.triangle_count, &rolling, &s);
    /* 10 m long: 10 rho (int_0^0.5 (u - w y)^2 dy + 1.5 u^2) */
    const double below = u * u * 0.5 - u * w * 0.25 + w * w * 0.125 / 3.0;
    ASSERT_NEAR_REL(s.force.z, -RHO * 10.0 * (below + 1.5 * u * u), 0.01);
    /* head-on against the forward end (x = 5, 4 x 2 m) */
    s = jet_on(&h, height, v3(-u, 0, 0), v3(0, 0, 0), 100.0);
    ASSERT_NEAR_REL(s.force.x, -RHO * u * u * 8.0, 1e-6);
    /* a band 0.3 m either side of the waterline: some of the side, not all of it */
    s = jet_on(&h, height, v3(0, 0, -u), v3(0, 0, 0), 0.3);
    assert_true(s.force.z < 0.0 && s.force.z > -0.5 * f);
    s = jet_on(&h, height, v3(0, 0, -u), v3(0, 0, 0), 0.0);
    assert_true(s.force.z == 0.0);
    free(height);
    nv_hull_destroy(&h);
}

/* Each section of the hull is struck by its own crest: the side's thirds
 * (body x -6..4, the CG 1 m forward of mid-length) struck one at a time
 * sum to the whole side struck at once, each a third of it within a
 * triangle's width, at its own third's middle; a section whose crest does
 * not break (reach 0) takes nothing, and a world-frame crest is turned
 * into the body frame by breaking_jet_init. */
static void each_section_struck_by_its_own_crest(void** state) {
    (void)state;
    nv_hull h;
    float* height;
    barge_heights(&h, &height);
    const double u = 6.0, f = RHO * u * u * 10.0 * 2.0;
    const double from = h.bounds_min[0], length = (double)h.bounds_max[0] - h.bounds_min[0];
    ASSERT_NEAR_ABS(from, -6.0, 1e-6);
    ASSERT_NEAR_ABS(length, 10.0, 1e-6);
    const hydro_sums whole = jet_on(&h, height, v3(0, 0, -u), v3(0, 0, 0), 100.0);
    nv_vec3 force = v3(0, 0, 0), torque = v3(0, 0, 0);
    for (int k = 0; k < BREAKING_SECTIONS; k++) {
        breaking_sections crest = {0};
        /* world frame: the barge turned 90 degrees about y (its bow to
         * world -z), so a crest running along world -x runs along body -z */
        crest.at[k] = (breaking_crest){.water_x = (float)-u, .water_z = 0.0f, .reach = 100.0f};
        const double c = 0.0, sn = 1.0;
        const nv_mat3 r = {{{c, 0.0, sn}, {0.0, 1.0, 0.0}, {-sn, 0.0, c}}};
        breaking_jet jet;
        assert_true(breaking_jet_init(&jet, &crest, &r, v3(0, 0, 0), v3(0, 0, 0), RHO));
        for (int j = 0; j < BREAKING_SECTIONS; j++) assert_true((jet.reach[j] > 0.0) == (j == k));
        ASSERT_NEAR_ABS(jet.water[k].x, 0.0, 1e-9);
        ASSERT_NEAR_ABS(jet.water[k].z, -u, 1e-9);
        hydro_sums s;
        hydro_sums_clear(&s);
        breaking_jet_pass(&h, height, 0, h.triangle_count, &jet, &s);
        /* a third of the side, within the width of a column of triangles */
        assert_true(s.force.z < -0.25 * f && s.force.z > -0.42 * f);
        /* (x, y, z) x (0, 0, F) = (y F, -x F, 0): the struck part's centre */
        const double centre = -s.torque.y / s.force.z, middle = breaking_section_middle(&h, k);
        ASSERT_NEAR_ABS(centre, middle, 0.5);
        force = v3_add(force, s.force), torque = v3_add(torque, s.torque);
    }
    ASSERT_NEAR_REL(force.z, whole.force.z, 1e-9);
    ASSERT_NEAR_REL(torque.x, whole.torque.x, 1e-9);
    ASSERT_NEAR_REL(torque.y, whole.torque.y, 1e-9);
    /* no section breaks: nothing to strike */
    breaking_sections none = {0};
    breaking_jet jet;
    const nv_mat3 id = m3_diag(1, 1, 1);
    assert_false(breaking_jet_init(&jet, &none, &id, v3(0, 0, 0), v3(0, 0, 0), RHO));
    /* a non-finite crest is no crest */
    none.at[1] = (breaking_crest){.water_x = NAN, .water_z = 1.0f, .reach = 2.0f};
    assert_false(breaking_jet_init(&jet, &none, &id, v3(0, 0, 0), v3(0, 0, 0), RHO));
    free(height);
    nv_hull_destroy(&h);
}

/* A built-in type in a world on regular beam waves, its forces with or
 * without breaking crests. */
typedef struct strike_world {
    nv_world* w;
    nv_water_sine sine;
    double amplitude, ramp; /* reached after `ramp` s, smoothly: no start-up transient */
    uint32_t id;
} strike_world;

static void sine_update(void* ctx, double time, nv_jobs* pool) {
    (void)pool;
    strike_world* s = ctx;
    const double f = fmin(time / s->ramp, 1.0);
    s->sine.amplitude = s->amplitude * f * f * (3.0 - 2.0 * f);
    nv_water_sine_set_time(&s->sine, time);
}

static void strike_world_make(strike_world* s, const char* type_name, int breaking_crests, double height_ratio,
                              double breaking_from) {
    nv_error err;
    nv_vessel_type vt;
    nv_mesh mesh;
    ASSERT_OK(nv_vessel_type_builtin(type_name, &vt, &err), err);
    if (breaking_crests) vt.dynamics.coeffs.forces |= HYDRODYN_BREAKING_CRESTS;
    else vt.dynamics.coeffs.forces &= ~(uint32_t)HYDRODYN_BREAKING_CRESTS;
    ASSERT_OK(nv_vessel_type_load_mesh(&vt, &mesh, &err), err);
    nv_world_config cfg = nv_world_config_default();
    ASSERT_OK(nv_world_create(&s->w, &cfg, NULL, &err), err);
    uint32_t type;
    ASSERT_OK(nv_world_add_hull_type(s->w, vt.name, &mesh, &vt.mass, &type, &err), err);
    ASSERT_OK(nv_world_set_type_dynamics(s->w, type, &vt.dynamics, &err), err);
    const nv_hull* h = nv_world_hull_type(s->w, type);
    const double length = (double)h->bounds_max[0] - (double)h->bounds_min[0], height = height_ratio * length;
    /* from starboard, at Stokes' limiting steepness */
    assert_int_equal(nv_water_sine_init(&s->sine, 0.5 * height, height / WATER_BREAKING_STEEPNESS, 0.5 * NV_PI, G), 0);
    const double period = 2.0 * NV_PI / s->sine.omega;
    s->amplitude = 0.5 * height;
    s->ramp = 3.0 * period;
    nv_water_sine_set_breaking(&s->sine, breaking_from * period, (breaking_from + 1.0) * period);
    nv_world_water water = {&s->sine.base, sine_update, s};
    nv_world_set_water(s->w, &water);
    double y;
    ASSERT_OK(nv_statics_balance_height_of(h, cfg.water_density, cfg.gravity, quat_identity(), &y, &err), err);
    ASSERT_OK(nv_world_spawn(s->w, type, v3(0.0, y, 0.0), quat_identity(), &s->id, &err), err);
    nv_mesh_free(&mesh);
}

static double strike_tilt_deg(const strike_world* s) {
    nv_world_vessel_state st;
    assert_int_equal(nv_world_vessel_get(s->w, s->id, &st), 0);
    const nv_vec3 up = quat_rotate(st.orientation, v3(0, 1, 0));
    return acos(fmax(-1.0, fmin(1.0, up.y))) * 180.0 / NV_PI;
}

/* The patrol boat beam-on to a wave 40 % of its length high (ramped up
 * over 3 periods): step for step the same with and without breaking
 * crests until the crest breaks (5 periods in), then struck only where
 * the type takes them, and rolled over (past the 35 % the crest's speed
 * is calibrated to); without them it rides the same wave. */
static void struck_only_where_a_crest_breaks(void** state) {
    (void)state;
    strike_world with, without;
    strike_world_make(&with, "patrol", 1, 0.40, 5.0);
    strike_world_make(&without, "patrol", 0, 0.40, 5.0);
    const double period = 2.0 * NV_PI / with.sine.omega;
    double most_with = 0.0, most_without = 0.0;
    int apart_before = 0;
    while (nv_world_time(with.w) < 9.0 * period) {
        nv_world_step(with.w);
        nv_world_step(without.w);
        nv_world_vessel_state a, b;
        nv_world_vessel_get(with.w, with.id, &a);
        nv_world_vessel_get(without.w, without.id, &b);
        const int same = memcmp(&a.position, &b.position, sizeof a.position) == 0 &&
                         memcmp(&a.orientation, &b.orientation, sizeof a.orientation) == 0;
        if (nv_world_time(with.w) < 5.0 * period) apart_before |= !same;
        most_with = fmax(most_with, strike_tilt_deg(&with));
        most_without = fmax(most_without, strike_tilt_deg(&without));
    }
    assert_false(apart_before);
    if (!(most_with > 130.0 && most_without < 60.0))
        fail_msg("largest tilt with breaking crests %.1f deg (must pass 130), without %.1f (must stay under 60)", most_with,
                 most_without);
    nv_world_destroy(with.w);
    nv_world_destroy(without.w);
}

/* A plane of water, sloping up toward +x and -z (SLOPE_X, SLOPE_Z) through
 * the level 0 at (100, -50), whose crests break where the test says: it
 * keeps the points the world asks, with the heights they came with, and
 * answers a crest running at `water` (world x, z) reaching 5 m at the
 * asked point nearest `at`, none elsewhere. */
#define SLOPE_X 0.01
#define SLOPE_Z (-0.02)
typedef struct scripted_sea {
    nv_water_flat flat; /* first: the world's surface is &flat.base */
    double asked_x[16], asked_z[16];
    float asked_h[16];
    size_t asked;
    int breaks;
    double at_x, at_z, water_x, water_z;
} scripted_sea;

static double scripted_height(double x, double z) {
    return SLOPE_X * (x - 100.0) + SLOPE_Z * (z + 50.0);
}

static size_t scripted_sample(const nv_water_surface* self, const nv_water_query* q) {
    (void)self;
    const double n = sqrt(1.0 + SLOPE_X * SLOPE_X + SLOPE_Z * SLOPE_Z);
    for (size_t i = 0; i < q->count; i++) {
        q->height[i] = (float)scripted_height(q->x[i], q->z[i]);
        if (q->normal)
            q->normal[3 * i] = (float)(-SLOPE_X / n), q->normal[3 * i + 1] = (float)(1.0 / n),
                          q->normal[3 * i + 2] = (float)(-SLOPE_Z / n);
        if (q->vertical_velocity) q->vertical_velocity[i] = 0.0f;
    }
    return 0;
}

static void scripted_breaking(const nv_water_surface* self, size_t count, const double* x, const double* z,
                              const float* height, float* out) {
    scripted_sea* sea = (scripted_sea*)(void*)self;
    size_t nearest = 0;
    for (size_t i = 0; i < count; i++) {
        if (sea->asked < 16) sea->asked_x[sea->asked] = x[i], sea->asked_z[sea->asked] = z[i], sea->asked_h[sea->asked] = height[i];
        sea->asked++;
        if (hypot(x[i] - sea->at_x, z[i] - sea->at_z) < hypot(x[nearest] - sea->at_x, z[nearest] - sea->at_z)) nearest = i;
        out[3 * i] = out[3 * i + 1] = out[3 * i + 2] = 0.0f;
    }
    if (sea->breaks && count)
        out[3 * nearest] = (float)sea->water_x, out[3 * nearest + 1] = (float)sea->water_z, out[3 * nearest + 2] = 5.0f;
}

/* One step of the patrol boat on scripted_sea, lying at (100, -50)
 * heading 30 degrees, struck at section `k` (-1: none);
 * the step's water force and moment, and where it asked. Ahead of it in
 * the world's slots lie a patrol boat on the floater model (skipped by the
 * hull passes, so the heave job's batch and the slots differ) and one of
 * a type that does not take breaking crests, 300 m off: asked nothing,
 * it must not take the first's crests either. */
static void scripted_step(int k, nv_vec3* force, nv_vec3* torque, nv_vec3* other_force, scripted_sea* sea,
                          nv_vec3 middle[3]) {
    nv_error err;
    nv_vessel_type vt;
    nv_mesh mesh;
    ASSERT_OK(nv_vessel_type_builtin("patrol", &vt, &err), err);
    assert_true(vt.dynamics.coeffs.forces & HYDRODYN_BREAKING_CRESTS); /* the built-in takes them */
    ASSERT_OK(nv_vessel_type_load_mesh(&vt, &mesh, &err), err);
    nv_world_config cfg = nv_world_config_default();
    nv_world* w;
    ASSERT_OK(nv_world_create(&w, &cfg, NULL, &err), err);
    uint32_t type, plain, id, other;
    ASSERT_OK(nv_world_add_hull_type(w, vt.name, &mesh, &vt.mass, &type, &err), err);
    ASSERT_OK(nv_world_set_type_dynamics(w, type, &vt.dynamics, &err), err);
    ASSERT_OK(nv_world_add_hull_type(w, "patrol-without-crests", &mesh, &vt.mass, &plain, &err), err);
    nv_vessel_dynamics without = vt.dynamics;
    without.coeffs.forces &= ~(uint32_t)HYDRODYN_BREAKING_CRESTS;
    ASSERT_OK(nv_world_set_type_dynamics(w, plain, &without, &err), err);
    nv_mesh_free(&mesh);
    const nv_hull* h = nv_world_hull_type(w, type);
    memset(sea, 0, sizeof *sea);
    nv_water_flat_init(&sea->flat, 0.0);
    sea->flat.base.sample = scripted_sample;
    sea->flat.base.sample_near = NULL;
    sea->flat.base.breaking = scripted_breaking;
    const double yaw = 30.0 * NV_PI / 180.0;
    const nv_quat q = quat_from_axis_angle(v3(0, 1, 0), yaw);
    double y;
    ASSERT_OK(nv_statics_balance_height_of(h, cfg.water_density, cfg.gravity, q, &y, &err), err);
    const nv_vec3 pos = v3(100.0, y, -50.0);
    for (int c = 0; c < BREAKING_SECTIONS; c++) {
        const nv_vec3 at = quat_rotate(q, v3(breaking_section_middle(h, c), 0.0, 0.0));
        middle[c] = v3(pos.x + at.x, 0.0, pos.z + at.z);
    }
    /* across the hull, into its port side */
    const nv_vec3 across = quat_rotate(q, v3(0.0, 0.0, 1.0));
    sea->water_x = 6.0 * across.x, sea->water_z = 6.0 * across.z;
    sea->breaks = k >= 0;
    if (k >= 0 && k < BREAKING_SECTIONS) sea->at_x = middle[k].x, sea->at_z = middle[k].z;
    nv_world_water water = {&sea->flat.base, NULL, NULL};
    nv_world_set_water(w, &water);
    uint32_t floater;
    ASSERT_OK(nv_world_spawn(w, type, v3(pos.x, y + scripted_height(pos.x, pos.z + 300.0), pos.z + 300.0), q, &floater,
                             &err),
              err);
    ASSERT_OK(nv_world_set_vessel_model(w, floater, WORLD_MODEL_FLOATER, &err), err);
    ASSERT_OK(nv_world_spawn(w, plain, v3(pos.x - 300.0, y + scripted_height(pos.x - 300.0, pos.z), pos.z), q, &other,
                             &err),
              err);
    ASSERT_OK(nv_world_spawn(w, type, pos, q, &id, &err), err);
    nv_world_step(w);
    nv_world_vessel_state st, st_other;
    assert_int_equal(nv_world_vessel_get(w, id, &st), 0);
    assert_int_equal(nv_world_vessel_get(w, other, &st_other), 0);
    *force = st.force, *torque = st.torque, *other_force = st_other.force;
    nv_world_destroy(w);
}

/* The world asks a type that takes breaking crests (the built-in patrol
 * boat) at the middle of each third of its hull, turned with it, with the
 * surface's height there; a crest at one third strikes it along the
 * crest's water, turning the bow downstream when it breaks at the bow
 * and the stern when at the stern (that only that third is struck, and
 * the thirds add up to the whole: each_section_struck_by_its_own_crest). */
static void world_asks_each_third_and_strikes_it(void** state) {
    (void)state;
    scripted_sea sea;
    nv_vec3 middle[3], calm_f, calm_t, calm_other, f[3], t[3], other;
    scripted_step(-1, &calm_f, &calm_t, &calm_other, &sea, middle);
    assert_int_equal(sea.asked, BREAKING_SECTIONS); /* only the boat that takes them, once per third */
    for (int c = 0; c < BREAKING_SECTIONS; c++) {
        /* at the middle, with the surface's height there (not the CG's) */
        const float h = (float)scripted_height(middle[c].x, middle[c].z);
        int found = 0;
        for (size_t i = 0; i < sea.asked; i++)
            found |= fabs(sea.asked_x[i] - middle[c].x) < 1e-9 && fabs(sea.asked_z[i] - middle[c].z) < 1e-9 &&
                     fabsf(sea.asked_h[i] - h) < 1e-5f;
        if (!found) fail_msg("section %d's middle (%.3f, %.3f), height %.4f m, was not asked", c, middle[c].x, middle[c].z, h);
    }
    /* the bow's third stands 0.1 m higher than the stern's, so a height taken at the CG would show */
    assert_true(scripted_height(middle[0].x, middle[0].z) - scripted_height(middle[2].x, middle[2].z) < -0.1);
    const nv_vec3 water = v3(sea.water_x, 0.0, sea.water_z);
    for (int k = 0; k < BREAKING_SECTIONS; k++) {
        scripted_step(k, &f[k], &t[k], &other, &sea, middle);
        assert_memory_equal(&other, &calm_other, sizeof other); /* the other boat is not struck */
        f[k] = v3_sub(f[k], calm_f), t[k] = v3_sub(t[k], calm_t);
        /* pushed along the crest's water */
        if (!(v3_dot(f[k], water) > 0.2 * v3_length(f[k]) * v3_length(water)))
            fail_msg("section %d: the strike (%.0f, %.0f, %.0f) N is not along the water", k, f[k].x, f[k].y, f[k].z);
    }
    /* the yaw: (r x F).y, r from the CG to the struck third's middle */
    const nv_vec3 cg = v3(100.0, 0.0, -50.0);
    for (int k = 0; k < BREAKING_SECTIONS; k += 2) {
        const nv_vec3 r = v3_sub(middle[k], cg);
        const double expect = v3_cross(r, water).y;
        if (!(t[k].y * expect > 0.0))
            fail_msg("section %d: yaw moment %.0f N m, the crest there turns it the other way (%.1f)", k, t[k].y, expect);
    }
    assert_true(t[0].y * t[2].y < 0.0); /* bow and stern turned opposite ways */
}

/* The dominant waves' squeeze at the label of world point (x, z): the
 * convergence of the choppy map by central differences `d` either side,
 * from the ocean's public label fields (three fixed-point steps to the
 * label, as docs/ocean.md describes). */
static double squeeze_at(const nv_ocean* o, double x, double z, double d) {
    double lx = x, lz = z;
    nv_ocean_point p;
    for (int step = 0; step < 3 /* OCEAN_BREAKING_STEPS */; step++) {
        nv_ocean_sample_labels(o, 1, &lx, &lz, &p);
        lx = x - p.disp_x, lz = z - p.disp_z;
    }
    const double sx[4] = {lx - d, lx + d, lx, lx}, sz[4] = {lz, lz, lz - d, lz + d};
    nv_ocean_point q[4];
    nv_ocean_sample_labels(o, 4, sx, sz, q);
    return -((q[1].disp_x - q[0].disp_x) + (q[3].disp_z - q[2].disp_z)) / (2.0 * d);
}

/* The FFT ocean: no crest breaks in a Beaufort 4 sea; in a Beaufort 9
 * sea some do, each at a crest, reaching the part of its height over the
 * mean level that its squeeze past the threshold says, its water moving
 * down the wind at WATER_BREAKING_JET times the phase speed of the
 * steepest wave its height makes (no faster than the peak's). */
static void ocean_crests_break_in_a_gale(void** state) {
    (void)state;
    enum { POINTS = 32 };
    double x[POINTS], z[POINTS];
    for (int i = 0; i < POINTS; i++) x[i] = 37.0 * i, z[i] = 23.0 * (i % 8) - 11.0 * i;
    for (int b = 4; b <= 9; b += 5) {
        nv_ocean_params p = nv_ocean_params_default();
        p.beaufort = b;
        p.wind_direction = 30.0;
        nv_error err;
        nv_ocean* o = nv_ocean_create(&p, &err);
        ASSERT_OK(o ? 0 : -1, err);
        const nv_water_surface* s = nv_ocean_surface(o);
        assert_non_null(s->breaking);
        const double wd = -30.0 * NV_PI / 180.0, k_peak = s->pressure_decay;
        int breaking = 0, partial = 0;
        for (double t = 0.0; t < 120.0; t += 0.25) {
            nv_ocean_update(o, t);
            float out[3 * POINTS], height[POINTS];
            nv_water_query q = {.count = POINTS, .x = x, .z = z, .height = height};
            water_sample(s, &q);
            water_breaking(s, POINTS, x, z, height, out);
            /* the answers do not depend on the batch: asked one at a time,
             * and in the reverse order, the same bits */
            float one[3 * POINTS], back[3 * POINTS];
            double rx[POINTS], rz[POINTS];
            float rh[POINTS];
            for (int i = 0; i < POINTS; i++) {
                water_breaking(s, 1, &x[i], &z[i], &height[i], &one[3 * i]);
                rx[POINTS - 1 - i] = x[i], rz[POINTS - 1 - i] = z[i], rh[POINTS - 1 - i] = height[i];
            }
            water_breaking(s, POINTS, rx, rz, rh, back);
            assert_memory_equal(one, out, sizeof out);
            for (int i = 0; i < POINTS; i++) assert_memory_equal(&back[3 * (POINTS - 1 - i)], &out[3 * i], 3 * sizeof *out);
            for (int i = 0; i < POINTS; i++) {
                const double reach = out[3 * i + 2];
                if (reach == 0.0) {
                    assert_true(out[3 * i] == 0.0f && out[3 * i + 1] == 0.0f);
                    continue;
                }
                breaking++;
                /* at a crest, the part of its height over the mean level
                 * that its squeeze past the threshold says breaks: the
                 * squeeze recomputed here from the labels' displacements */
                const double eta = (double)height[i] - s->mean_level, strength = reach / eta;
                assert_true(eta > 0.0 && strength > 0.0 && strength <= 1.0 + 1e-6);
                const double squeeze = squeeze_at(o, x[i], z[i], 0.25 * NV_PI / k_peak);
                const double want = fmin(1.0, (squeeze - 0.2) / (NV_PI * WATER_BREAKING_STEEPNESS - 0.2));
                /* the same float sums in the same order: the same bits */
                if (out[3 * i + 2] != (float)(eta * want))
                    fail_msg("t %.2f point %d: reach %.9g m, the squeeze %.9g says %.9g", t, i, reach, squeeze,
                             (double)(float)(eta * want));
                if (strength < 0.5) partial++;
                const double k = fmax(NV_PI * WATER_BREAKING_STEEPNESS / eta, k_peak);
                const double c = WATER_BREAKING_JET * sqrt(G / k);
                ASSERT_NEAR_REL(out[3 * i], c * cos(wd), 1e-5);
                ASSERT_NEAR_REL(out[3 * i + 1], c * sin(wd), 1e-5);
            }
        }
        if (b == 4) assert_int_equal(breaking, 0);
        else if (breaking == 0) fail_msg("no crest broke at any of %d points in 120 s of a Beaufort 9 sea", POINTS);
        /* most crests barely past the threshold break over a small part of their height */
        if (b == 9) assert_true(partial > 0);
        print_message("Beaufort %d: %d breaking answers, %d of them over less than half the crest\n", b, breaking, partial);
        nv_ocean_destroy(o);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(jet_stops_against_the_side),
        cmocka_unit_test(each_section_struck_by_its_own_crest),
        cmocka_unit_test(struck_only_where_a_crest_breaks),
        cmocka_unit_test(world_asks_each_third_and_strikes_it),
        cmocka_unit_test(ocean_crests_break_in_a_gale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
