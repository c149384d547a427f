// SPDX-License-Identifier: MIT
/* Hydrostatics: the cut's invariants on random triangles, and the pressure
 * force and moment against Archimedes and the wall-sided GZ formula. */
#include <math.h>

#include "hydro.h"
#include "naval/statics.h"
#include "naval/water.h"
#include "test_util.h"

#define RHO 1025.0
#define G 9.81

/* One vessel's vertex heights and scratch, for running both passes. */
typedef struct test_vertices {
    float* height;
    hydro_scratch scratch;
} test_vertices;

static void test_vertices_alloc(test_vertices* v, const nv_hull* h) {
    nv_error err;
    v->height = malloc(h->vertex_count * sizeof(float));
    assert_non_null(v->height);
    ASSERT_OK(hydro_scratch_alloc(&v->scratch, h->vertex_count, &err), err);
}

static void test_vertices_free(test_vertices* v) {
    free(v->height);
    hydro_scratch_free(&v->scratch);
}

static void test_passes(test_vertices* v, const nv_hull* h, nv_vec3 pos, const nv_mat3* r, const nv_water_surface* w,
                        hydro_sums* s, hydro_segment* seg) {
    hydro_vertex_pass(h, 0, h->vertex_count, pos, r, w, &v->scratch, v->height);
    hydro_sums_clear(s);
    hydro_triangle_pass(h, v->height, 0, h->triangle_count, RHO * G, NULL, NULL, s, seg);
    hydro_sums_to_world(s, r);
}

static double piece_area(const hydro_piece* k) {
    return 0.5 * v3_length(v3_cross(v3_sub(k->p[1], k->p[0]), v3_sub(k->p[2], k->p[0])));
}

static nv_vec3 triangle_normal_area(const nv_vec3 p[3]) {
    return v3_scale(v3_cross(v3_sub(p[1], p[0]), v3_sub(p[2], p[0])), 0.5);
}

static void cut_conserves_area_and_winding(void** state) {
    (void)state;
    test_rng rng = {42};
    for (int trial = 0; trial < 20000; trial++) {
        nv_vec3 p[3];
        double h[3], neg[3];
        for (int i = 0; i < 3; i++) {
            p[i] = v3(test_rng_uniform(&rng, -5, 5), test_rng_uniform(&rng, -5, 5), test_rng_uniform(&rng, -5, 5));
            h[i] = test_rng_uniform(&rng, -2, 2);
            if (trial % 7 == 0 && i == trial % 3) h[i] = 0.0; /* corners exactly on the surface */
            neg[i] = -h[i];
        }
        nv_vec3 n = triangle_normal_area(p);
        double area = v3_length(n);
        if (area < 1e-6) continue;
        hydro_cut wet, dry;
        hydro_cut_triangle(p, h, &wet);
        hydro_cut_triangle(p, neg, &dry);
        double wet_area = 0.0, dry_area = 0.0;
        for (int k = 0; k < wet.piece_count; k++) {
            wet_area += piece_area(&wet.pieces[k]);
            nv_vec3 nk = triangle_normal_area(wet.pieces[k].p);
            /* Same direction as the parent: n_k . n = |n_k| |n|. */
            if (v3_length(nk) > 1e-9 * area)
                ASSERT_NEAR_REL(v3_dot(nk, n), v3_length(nk) * area, 1e-9);
            for (int i = 0; i < 3; i++) assert_true(wet.pieces[k].depth[i] >= 0.0);
        }
        for (int k = 0; k < dry.piece_count; k++) dry_area += piece_area(&dry.pieces[k]);
        ASSERT_NEAR_REL(wet_area + dry_area, area, 1e-9);
        ASSERT_NEAR_REL(wet.area_fraction * area, wet_area, 1e-9);
        /* A corner exactly at h = 0 never drops a triangle that is wet elsewhere. */
        if ((h[0] < 0) || (h[1] < 0) || (h[2] < 0)) assert_true(wet.piece_count > 0 && wet_area > 0.0);
    }
}

static void cut_is_continuous_in_the_heights(void** state) {
    (void)state;
    test_rng rng = {7};
    for (int trial = 0; trial < 5000; trial++) {
        nv_vec3 p[3];
        double h[3], h2[3];
        for (int i = 0; i < 3; i++)
            p[i] = v3(test_rng_uniform(&rng, -1, 1), test_rng_uniform(&rng, -1, 1), test_rng_uniform(&rng, -1, 1));
        for (int i = 0; i < 3; i++) {
            /* Other corners at least 5 cm from the surface, either side. */
            h[i] = test_rng_uniform(&rng, 0.05, 1.0) * ((test_rng_next(&rng) & 1) ? 1.0 : -1.0);
            /* Step across the surface at one corner: the worst case for a cut. */
            if (i == trial % 3) h[i] = (trial & 8) ? 0.0 : 1e-12;
            h2[i] = h[i] + ((i == trial % 3) ? -2e-7 : test_rng_uniform(&rng, -1e-7, 1e-7));
        }
        hydro_cut a, b;
        hydro_cut_triangle(p, h, &a);
        hydro_cut_triangle(p, h2, &b);
        /* The cut parameters t = d / (d + h) move by at most ~2e-7 / 0.05
         * when one corner crosses the surface by 2e-7: no jump in area. */
        assert_true(fabs(a.area_fraction - b.area_fraction) < 1e-4);
    }
}

/* A closed hull held entirely under flat water, in random orientations:
 * F = rho g V up, no horizontal force, no torque about the volume centroid. */
static void submerged_hull_obeys_archimedes(void** state) {
    (void)state;
    nv_hull h;
    test_hull_builtin(&h, "ship", 3000, 500.0); /* CG at the volume centroid */
    test_vertices v;
    test_vertices_alloc(&v, &h);
    nv_water_flat flat;
    nv_water_flat_init(&flat, 0.0);
    test_rng rng = {2026};
    double weight = RHO * G * h.mesh_props.volume;
    double length = 50.0;
    for (int trial = 0; trial < 10; trial++) {
        nv_vec3 axis = v3(test_rng_uniform(&rng, -1, 1), test_rng_uniform(&rng, -1, 1), test_rng_uniform(&rng, -1, 1));
        nv_quat q = quat_from_axis_angle(axis, test_rng_uniform(&rng, 0, 2 * NV_PI));
        nv_mat3 r = quat_to_mat3(q);
        nv_vec3 pos = v3(test_rng_uniform(&rng, -100, 100), -40.0 - test_rng_uniform(&rng, 0, 20), test_rng_uniform(&rng, -100, 100));
        hydro_sums s;
        test_passes(&v, &h, pos, &r, &flat.base, &s, NULL);
        ASSERT_NEAR_REL(s.force.y, weight, 1e-5);
        assert_true(hypot(s.force.x, s.force.z) < 1e-5 * weight);
        assert_true(v3_length(s.torque) < 1e-5 * weight * length);
        assert_int_equal(s.wetted_triangles, h.triangle_count);
        ASSERT_NEAR_REL(s.submerged_area, h.total_area, 1e-6);
        assert_int_equal(s.segment_count, 0);
    }
    test_vertices_free(&v);
    nv_hull_destroy(&h);
}

/* The moment is exact: with the CG away from the centroid, the torque of a
 * submerged hull is (centroid - CG) x F. */
static void submerged_torque_about_an_offset_cg(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_build("ship", 1500, &m, &err), err);
    nv_mass_spec spec = nv_mass_spec_default();
    spec.has_cg = true;
    spec.cg = v3(3.0, 0.5, -0.7);
    nv_hull h;
    ASSERT_OK(nv_hull_create(&h, &m, &spec, &err), err);
    nv_mesh_free(&m);
    test_vertices v;
    test_vertices_alloc(&v, &h);
    nv_water_flat flat;
    nv_water_flat_init(&flat, 0.0);
    nv_quat q = quat_from_axis_angle(v3(0.3, 1.0, -0.4), 0.9);
    nv_mat3 r = quat_to_mat3(q);
    hydro_sums s;
    test_passes(&v, &h, v3(0, -30, 0), &r, &flat.base, &s, NULL);
    nv_vec3 arm = m3_mul_v3(&r, v3_sub(h.mesh_props.centroid, spec.cg));
    nv_vec3 expected = v3_cross(arm, s.force);
    double scale = s.force.y * 50.0;
    ASSERT_NEAR_ABS(s.torque.x, expected.x, 1e-6 * scale);
    ASSERT_NEAR_ABS(s.torque.y, expected.y, 1e-6 * scale);
    ASSERT_NEAR_ABS(s.torque.z, expected.z, 1e-6 * scale);
    test_vertices_free(&v);
    nv_hull_destroy(&h);
}

/* Upright box at draft T: F = rho g L B T, waterline 2 (L + B) long, wetted
 * area L B + 2 (L + B) T, centre of buoyancy at T / 2. */
static void floating_box_matches_closed_form(void** state) {
    (void)state;
    const double l = 10.0, b = 4.0, draft = 0.8;
    nv_hull h;
    test_hull_builtin(&h, "barge", 600, 500.0); /* 10 x 4 x 2, CG at (0, 1, 0) */
    test_vertices v;
    test_vertices_alloc(&v, &h);
    hydro_segment* seg = malloc(h.triangle_count * sizeof *seg);
    nv_water_flat flat;
    nv_water_flat_init(&flat, 0.0);
    nv_mat3 r = m3_diag(1, 1, 1);
    nv_vec3 pos = v3(12.0, 1.0 - draft, -7.0);
    hydro_sums s;
    test_passes(&v, &h, pos, &r, &flat.base, &s, seg);
    ASSERT_NEAR_REL(s.force.y, RHO * G * l * b * draft, 1e-6);
    assert_true(v3_length(s.torque) < 1e-6 * s.force.y);
    ASSERT_NEAR_REL(s.submerged_area, l * b + 2 * (l + b) * draft, 1e-6);
    double length = 0.0;
    for (uint32_t i = 0; i < s.segment_count; i++) {
        nv_vec3 a = v3(seg[i].a[0], seg[i].a[1], seg[i].a[2]), c = v3(seg[i].b[0], seg[i].b[1], seg[i].b[2]);
        ASSERT_NEAR_ABS(pos.y + a.y, 0.0, 1e-5); /* on the surface */
        length += v3_length(v3_sub(c, a));
    }
    ASSERT_NEAR_REL(length, 2 * (l + b), 1e-5);
    nv_vec3 cb;
    double vol = nv_statics_buoyancy_center(&h, v.height, pos, &r, 0.0, &cb);
    ASSERT_NEAR_REL(vol, l * b * draft, 1e-6);
    ASSERT_NEAR_ABS(cb.x, pos.x, 1e-5);
    ASSERT_NEAR_ABS(cb.y, -draft / 2, 1e-6);
    ASSERT_NEAR_ABS(cb.z, pos.z, 1e-5);
    free(seg);
    test_vertices_free(&v);
    nv_hull_destroy(&h);
}

/* Net upward force at a given CG height and heel (box heeled about x). */
static double heeled_lift(const nv_hull* h, test_vertices* v, const nv_water_surface* w, double y, double heel, hydro_sums* s) {
    nv_quat q = quat_from_axis_angle(v3(1, 0, 0), heel);
    nv_mat3 r = quat_to_mat3(q);
    test_passes(v, h, v3(0, y, 0), &r, w, s, NULL);
    return s->force.y;
}

/* Wall-sided box at constant displacement: GZ = sin(phi) (GM + BM tan^2(phi) / 2). */
static void heeled_box_righting_arm(void** state) {
    (void)state;
    const double l = 10.0, b = 4.0, hgt = 2.0, rho_b = 500.0;
    nv_hull h;
    test_hull_builtin(&h, "barge", 800, rho_b);
    test_vertices v;
    test_vertices_alloc(&v, &h);
    nv_water_flat flat;
    nv_water_flat_init(&flat, 0.0);
    double t = rho_b / RHO * hgt, kb = t / 2, bm = b * b / (12 * t), kg = hgt / 2, gm = kb + bm - kg;
    double volume = l * b * t;
    const double heels_deg[] = {2.0, 5.0, 10.0, 15.0};
    for (int k = 0; k < 4; k++) {
        double phi = heels_deg[k] * NV_PI / 180.0;
        double lo = -3, hi = 3;
        hydro_sums s;
        for (int i = 0; i < 80; i++) {
            double mid = 0.5 * (lo + hi);
            if (heeled_lift(&h, &v, &flat.base, mid, phi, &s) > RHO * G * volume) lo = mid;
            else hi = mid;
        }
        heeled_lift(&h, &v, &flat.base, 0.5 * (lo + hi), phi, &s);
        double gz = -s.torque.x / (RHO * G * volume); /* righting: opposes the heel */
        double expected = sin(phi) * (gm + 0.5 * bm * tan(phi) * tan(phi));
        ASSERT_NEAR_REL(gz, expected, 1e-5);
    }
    test_vertices_free(&v);
    nv_hull_destroy(&h);
}

/* On a wave much longer than the hull, a small box floats like a cork: the
 * force follows the local surface. */
static void sine_wave_shifts_the_waterline(void** state) {
    (void)state;
    nv_hull h;
    test_hull_builtin(&h, "cube", 12, 500.0);
    test_vertices v;
    test_vertices_alloc(&v, &h);
    nv_water_sine wave;
    assert_int_equal(nv_water_sine_init(&wave, 1.0, 400.0, 0.0, G), 0);
    /* Crest at x = 100 (quarter wavelength), time 0. */
    nv_mat3 r = m3_diag(1, 1, 1);
    hydro_sums s;
    test_passes(&v, &h, v3(100.0, 1.0 - 0.5, 0.0), &r, &wave.base, &s, NULL);
    /* Keel at 0.0, water at ~1.0: the whole cube (top at 1.0) is just awash. */
    ASSERT_NEAR_REL(s.force.y, RHO * G * 1.0, 2e-3);
    nv_water_sine_set_time(&wave, NV_PI / wave.omega); /* half a period: trough at x = 100 */
    test_passes(&v, &h, v3(100.0, 1.0 - 0.5, 0.0), &r, &wave.base, &s, NULL);
    ASSERT_NEAR_ABS(s.force.y, 0.0, 1e-9); /* water at -1.0, keel at 0.0: dry */
    test_vertices_free(&v);
    nv_hull_destroy(&h);
}

/* The triangle pass (its float lanes, whichever build this CPU runs)
 * against the cut's pieces integrated in double: pressure rho g d, linear
 * over each piece, gives -rho g A s / 3 n and a moment about the CG of
 * rho g (A n) x sum_i (d_i + s) r_i / 12. Random vertex heights around a
 * tilted plane make every kind of triangle (dry, under, cut one or two
 * corners wet, corners exactly at the surface); the barge's 300 triangles
 * end in a part group. */
static void pass_matches_the_pieces_on_random_heights(void** state) {
    (void)state;
    const char* names[2] = {"ship", "barge"};
    const unsigned tris[2] = {500, 300};
    test_rng rng = {7};
    for (int k = 0; k < 2; k++) {
        nv_hull h;
        test_hull_builtin(&h, names[k], tris[k], 500.0);
        float* height = malloc(h.vertex_count * sizeof(float));
        assert_non_null(height);
        for (int round = 0; round < 20; round++) {
            double a = test_rng_uniform(&rng, -0.3, 0.3), b = test_rng_uniform(&rng, 0.5, 1.5);
            double c = test_rng_uniform(&rng, -0.5, 0.5), noise = test_rng_uniform(&rng, 0.0, 0.4);
            for (uint32_t i = 0; i < h.vertex_count; i++) {
                double hv = b * h.vy[i] + a * h.vx[i] + c + noise * test_rng_uniform(&rng, -1.0, 1.0);
                height[i] = test_rng_uniform(&rng, 0.0, 1.0) < 0.03 ? 0.0f : (float)hv;
            }
            nv_vec3 want_f = v3(0, 0, 0), want_t = v3(0, 0, 0), size_f = v3(0, 0, 0), size_t_ = v3(0, 0, 0);
            double want_area = 0.0;
            uint32_t want_wet = 0;
            for (uint32_t t = 0; t < h.triangle_count; t++) {
                const uint32_t* tri = h.triangles + 3 * t;
                nv_vec3 p[3];
                double hh[3];
                for (int i = 0; i < 3; i++) p[i] = v3(h.vx[tri[i]], h.vy[tri[i]], h.vz[tri[i]]), hh[i] = height[tri[i]];
                hydro_cut cut;
                hydro_cut_triangle(p, hh, &cut);
                want_wet += cut.piece_count > 0;
                for (int q = 0; q < cut.piece_count; q++) {
                    const hydro_piece* pc = &cut.pieces[q];
                    nv_vec3 na = triangle_normal_area(pc->p);
                    double sd = pc->depth[0] + pc->depth[1] + pc->depth[2];
                    nv_vec3 f = v3_scale(na, -RHO * G * sd / 3.0), m = v3(0, 0, 0);
                    for (int i = 0; i < 3; i++) m = v3_madd(m, pc->p[i], pc->depth[i] + sd);
                    nv_vec3 tq = v3_scale(v3_cross(na, m), RHO * G / 12.0);
                    want_f = v3_add(want_f, f), want_t = v3_add(want_t, tq);
                    size_f = v3_add(size_f, v3(fabs(f.x), fabs(f.y), fabs(f.z)));
                    size_t_ = v3_add(size_t_, v3(fabs(tq.x), fabs(tq.y), fabs(tq.z)));
                    want_area += v3_length(na);
                }
            }
            hydro_sums got;
            hydro_sums_clear(&got);
            hydro_triangle_pass(&h, height, 0, h.triangle_count, RHO * G, NULL, NULL, &got, NULL);
            assert_int_equal(got.wetted_triangles, want_wet);
            /* float lanes: a few float roundings of each term */
            const double f_tol[3] = {size_f.x, size_f.y, size_f.z}, t_tol[3] = {size_t_.x, size_t_.y, size_t_.z};
            const double f_got[3] = {got.force.x, got.force.y, got.force.z}, f_want[3] = {want_f.x, want_f.y, want_f.z};
            const double t_got[3] = {got.torque.x, got.torque.y, got.torque.z}, t_want[3] = {want_t.x, want_t.y, want_t.z};
            for (int i = 0; i < 3; i++) {
                ASSERT_NEAR_ABS(f_got[i], f_want[i], 1e-5 * f_tol[i] + 1e-9);
                ASSERT_NEAR_ABS(t_got[i], t_want[i], 1e-5 * t_tol[i] + 1e-9);
            }
            ASSERT_NEAR_REL(got.submerged_area, want_area, 1e-5);
        }
        free(height);
        nv_hull_destroy(&h);
    }
}

/* A NaN height (broken water, a vessel at infinity) is never taken as dry:
 * the sums turn NaN so the owner contains the vessel. */
static void nan_height_poisons_the_sums(void** state) {
    (void)state;
    nv_hull h;
    test_hull_builtin(&h, "barge", 300, 500.0);
    test_vertices v;
    test_vertices_alloc(&v, &h);
    nv_water_flat flat;
    nv_water_flat_init(&flat, 0.0);
    nv_mat3 r = m3_diag(1, 1, 1);
    hydro_sums s;
    test_passes(&v, &h, v3(0, 0.5, 0), &r, &flat.base, &s, NULL);
    assert_true(v3_is_finite(s.force) && s.force.y > 0.0);
    v.height[h.triangles[0]] = NAN; /* one corner of the first triangle */
    hydro_sums_clear(&s);
    hydro_triangle_pass(&h, v.height, 0, h.triangle_count, RHO * G, NULL, NULL, &s, NULL);
    assert_true(isnan(s.force.x) && isnan(s.force.y) && isnan(s.torque.z));
    test_vertices_free(&v);
    nv_hull_destroy(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cut_conserves_area_and_winding),
        cmocka_unit_test(cut_is_continuous_in_the_heights),
        cmocka_unit_test(submerged_hull_obeys_archimedes),
        cmocka_unit_test(submerged_torque_about_an_offset_cg),
        cmocka_unit_test(floating_box_matches_closed_form),
        cmocka_unit_test(heeled_box_righting_arm),
        cmocka_unit_test(sine_wave_shifts_the_waterline),
        cmocka_unit_test(nan_height_poisons_the_sums),
        cmocka_unit_test(pass_matches_the_pieces_on_random_heights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
