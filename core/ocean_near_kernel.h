// SPDX-License-Identifier: MIT
/* The vertex pass's surface lookup (ocean_grid_sample_near) eight points
 * at a time, written once on the lv_* lanes: ocean_near_sse2.c includes it
 * after lanes_sse2.h and ocean_near_avx2.c after lanes_avx2.h, each
 * defining ON_NAME. Every lane runs ocean_grid.c's near_one, operation for
 * operation, so a point's height does not depend on its batch or on the
 * SIMD level (tests/test_ocean_grid.c). */
#ifndef ON_NAME
#error "define ON_NAME and include a lanes_*.h first"
#endif

size_t ON_NAME(const float* gh, int mx, int mz, int shift, float u0, float v0, float icx, float icz, size_t count,
               const float* dx, const float* dz, float* height) {
    const fv vu0 = lv_set(u0), vv0 = lv_set(v0), vicx = lv_set(icx), vicz = lv_set(icz);
    const iv vmx = iv_set(mx), vmz = iv_set(mz), one = iv_set(1);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const fv u = lv_add(vu0, lv_mul(lv_load(dx + i), vicx));
        const fv v = lv_add(vv0, lv_mul(lv_load(dz + i), vicz));
        /* floor: truncation, minus one where that rounded up. Offsets from
         * a reduced origin stay far inside int range. */
        iv iu = lv_trunc(u), jv = lv_trunc(v);
        iu = iv_add(iu, lv_bits(lv_lt(u, iv_to_fv(iu))));
        jv = iv_add(jv, lv_bits(lv_lt(v, iv_to_fv(jv))));
        const fv tx = lv_sub(u, iv_to_fv(iu)), tz = lv_sub(v, iv_to_fv(jv));
        const iv ix0 = iv_and(iu, vmx), ix1 = iv_and(iv_add(ix0, one), vmx);
        const int wrap = lv_mask(iv_bits(iv_eq(ix0, vmx)));
        const iv r0 = iv_sll(iv_and(jv, vmz), shift), r1 = iv_sll(iv_and(iv_add(jv, one), vmz), shift);
        fv a00, a10, a01, a11;
        lv_load_neighbours(gh, iv_add(r0, ix0), iv_add(r0, ix1), wrap, &a00, &a10);
        lv_load_neighbours(gh, iv_add(r1, ix0), iv_add(r1, ix1), wrap, &a01, &a11);
        const fv h0 = lv_add(a00, lv_mul(tx, lv_sub(a10, a00)));
        const fv h1 = lv_add(a01, lv_mul(tx, lv_sub(a11, a01)));
        lv_store(height + i, lv_add(h0, lv_mul(tz, lv_sub(h1, h0))));
    }
    return i;
}
