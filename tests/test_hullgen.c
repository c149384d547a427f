// SPDX-License-Identifier: MIT
/* Procedural hulls: closed, outward, the requested size, the right shape. */
#include <math.h>

#include "test_util.h"

static void box_is_closed_with_exact_volume(void** state) {
    (void)state;
    const unsigned divs[][3] = {{1, 1, 1}, {2, 3, 4}, {20, 4, 8}};
    for (size_t k = 0; k < sizeof divs / sizeof divs[0]; k++) {
        nv_mesh m;
        nv_error err;
        ASSERT_OK(nv_hullgen_box(&m, 10.0, 4.0, 2.0, divs[k][0], divs[k][1], divs[k][2], &err), err);
        unsigned nx = divs[k][0], ny = divs[k][1], nz = divs[k][2];
        assert_int_equal(m.triangle_count, 4 * (nx * ny + ny * nz + nx * nz));
        assert_int_equal(m.vertex_count, (nx + 1) * (ny + 1) * (nz + 1) - (nx - 1) * (ny - 1) * (nz - 1));
        ASSERT_OK(nv_mesh_validate_closed(&m, &err), err);
        ASSERT_NEAR_REL(nv_mesh_signed_volume(&m), 80.0, 1e-12);
        assert_int_equal(nv_mesh_count_components(&m), 1);
        nv_mesh_free(&m);
    }
}

static void ship_resolution_follows_the_request(void** state) {
    (void)state;
    const unsigned targets[] = {100, 500, 2000, 5000};
    for (size_t k = 0; k < 4; k++) {
        nv_mesh m;
        nv_error err;
        ASSERT_OK(nv_hullgen_ship(&m, 50.0, 9.0, 5.0, targets[k], &err), err);
        assert_true(m.triangle_count >= targets[k] / 2 && m.triangle_count <= targets[k] * 3 / 2);
        ASSERT_OK(nv_mesh_validate_closed(&m, &err), err);
        assert_int_equal(nv_mesh_count_components(&m), 1);
        double v = nv_mesh_signed_volume(&m);
        /* A ship is far from its bounding box: block coefficient 0.5 .. 0.9. */
        assert_true(v > 0.5 * 50 * 9 * 5 && v < 0.9 * 50 * 9 * 5);
        nv_mesh_free(&m);
    }
}

static void ship_has_a_pointed_bow_and_a_flat_transom(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    ASSERT_OK(nv_hullgen_ship(&m, 50.0, 9.0, 5.0, 2000, &err), err);
    float lo[3], hi[3];
    nv_mesh_bounds(&m, lo, hi);
    ASSERT_NEAR_ABS(lo[0], -25.0, 1e-5);
    ASSERT_NEAR_ABS(hi[0], 25.0, 1e-5);
    ASSERT_NEAR_ABS(hi[2], 4.5, 1e-5);
    ASSERT_NEAR_ABS(lo[2], -4.5, 1e-5);
    unsigned transom = 0;
    for (uint32_t i = 0; i < m.vertex_count; i++) {
        const float* p = m.positions + 3 * i;
        if (p[0] == 25.0f) assert_true(p[2] == 0.0f); /* every bow point lies on the stem */
        if (p[0] == -25.0f) transom++;
    }
    assert_true(transom > 8); /* the transom is a face, not a point */
    nv_mesh_free(&m);
}

static void builtin_names_and_specs(void** state) {
    (void)state;
    nv_mesh m;
    nv_error err;
    assert_int_equal(nv_hullgen_from_spec("builtin:ship:3000", &m, NULL, &err), 1);
    assert_true(m.triangle_count > 2000 && m.triangle_count < 4500);
    nv_mesh_free(&m);
    assert_int_equal(nv_hullgen_from_spec("builtin:cube", &m, NULL, &err), 1);
    assert_int_equal(m.triangle_count, 12);
    ASSERT_NEAR_REL(nv_mesh_signed_volume(&m), 1.0, 1e-12);
    nv_mesh_free(&m);
    assert_int_equal(nv_hullgen_from_spec("hull.stl", &m, NULL, &err), 0);
    assert_int_equal(nv_hullgen_from_spec("builtin:dinghy", &m, NULL, &err), -1);
    assert_non_null(strstr(err.message, "unknown built-in hull 'dinghy'"));
    assert_non_null(strstr(err.message, "barge"));
    assert_int_equal(nv_hullgen_from_spec("builtin:ship:lots", &m, NULL, &err), -1);
    assert_non_null(strstr(err.message, "triangle count"));
    assert_int_equal(nv_hullgen_box(&m, -1.0, 1.0, 1.0, 1, 1, 1, &err), -1);
    assert_non_null(strstr(err.message, "positive"));
}

/* builtin:catamaran: two ship hulls 4 m apart and a deck clear of both,
 * three closed parts whose volumes add up. */
static void catamaran_is_three_closed_parts(void** state) {
    (void)state;
    nv_mesh m, hull;
    nv_error err;
    assert_int_equal(nv_hullgen_from_spec("builtin:catamaran", &m, NULL, &err), 1);
    ASSERT_OK(nv_mesh_validate_closed(&m, &err), err);
    assert_int_equal(nv_mesh_count_components(&m), 3);
    float lo[3], hi[3];
    nv_mesh_bounds(&m, lo, hi);
    ASSERT_NEAR_ABS(lo[0], -6.0, 1e-5);
    ASSERT_NEAR_ABS(hi[0], 6.0, 1e-5);
    ASSERT_NEAR_ABS(lo[1], 0.0, 1e-5);
    ASSERT_NEAR_ABS(hi[1], 1.5, 1e-5);
    ASSERT_NEAR_ABS(lo[2], -2.6, 1e-5);
    ASSERT_NEAR_ABS(hi[2], 2.6, 1e-5);
    ASSERT_OK(nv_hullgen_ship(&hull, 12.0, 1.2, 1.5, 400, &err), err);
    ASSERT_NEAR_REL(nv_mesh_signed_volume(&m), 2.0 * nv_mesh_signed_volume(&hull) + 8.0 * 2.6 * 0.3, 1e-5);
    /* nothing between the hulls below the deck: the open water */
    for (uint32_t i = 0; i < m.vertex_count; i++) {
        const float* p = m.positions + 3 * i;
        if (fabsf(p[2]) < 1.35f) assert_true(p[1] >= 1.2f - 1e-5f);
    }
    nv_mesh_free(&hull);
    nv_mesh_free(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(box_is_closed_with_exact_volume),
        cmocka_unit_test(ship_resolution_follows_the_request),
        cmocka_unit_test(ship_has_a_pointed_bow_and_a_flat_transom),
        cmocka_unit_test(builtin_names_and_specs),
        cmocka_unit_test(catamaran_is_three_closed_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
