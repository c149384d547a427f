// SPDX-License-Identifier: MIT
/* Kerner's hydrostatic pressure on eight triangles at a time, written once
 * on the lv_* lanes and included by hydrodyn_kernel.h (so each of its
 * builds has a copy, named by HK_NAME). Every build runs the same float
 * operations in the same order per lane: the same bits
 * (tests/test_hydrodyn_lanes.c).
 *
 * A triangle with corner depths d_i = -h_i, area A, unit normal n and
 * N x r_i (N = A n) in the hull's columns:
 *   wholly under: force -A s n / 3 and moment sum_i (d_i + s) N x r_i / 12,
 *                 s = d0 + d1 + d2 (pressure is linear over it);
 *   cut:          the same sums over its submerged piece(s), which lie in
 *                 its plane: the force weight F and moment weights M_i of
 *                 the corners (docs/hydrostatics.md, "Cut triangles").
 * The odd corner o (the lone wet one, or the lone dry one) comes first:
 * (o, a, b) is a cyclic turn of the corners, which keeps the winding; the
 * waterline crosses o-a at t_a and o-b at t_b from o's side when one
 * corner is wet, from a's and b's when two are. In a group with a cut
 * lane every lane computes both cases and keeps its own; groups branch
 * only on being wholly dry and on holding a cut lane, which in a hull
 * sorted by height come in long runs. */
#ifndef HK_NAME
#error "define HK_NAME and include a lanes_*.h first"
#endif

/* m0 ? a : m1 ? b : c */
static inline fv hs_pick(fv m0, fv m1, fv a, fv b, fv c) { return lv_sel(m0, a, lv_sel(m1, b, c)); }

/* What a group's cut lanes give (statics_cut), in each triangle's corner
 * order. */
typedef struct hs_cut_weights {
    fv force, m0, m1, m2, frac, c1, c2;
} hs_cut_weights;

/* What the water entry reads besides a group's heights: the group's
 * columns, the vessel's frame and the sums it adds to. */
typedef struct hs_entry_frame {
    const float* blk;
    const hydrodyn_lane_frame* frame;
    hydrodyn_lane_sums* sums;
} hs_entry_frame;

/* The water entry on a group's cut lanes (von Karman, 1929): a section
 * entering still water at V carries an added mass m_a = rho pi c^2 / 2 per
 * metre, c the half-width it has wetted, and keeps the momentum (M + m_a)
 * V, so the water pushes back with V dm_a/dt = rho pi c (dc/dt) V, the
 * waterline running out at dc/dt = V cot(beta) on a side of deadrise beta;
 * each side's waterline carries half. Here a side is a cut triangle: its
 * waterline is the cut, with middle m and length l along the hull (|x| of
 * its run: crosswise cuts, a planing bottom's spray root, have none, and
 * the planing lift counts that flow); its deadrise is the slope of the
 * heights in its plane, the wave's included, sin(beta) = |grad h| =
 * |(h2 - h0) e1 + (h0 - h1) e2| / 2A, held at WATER_ENTRY_MIN_DEADRISE_DEG
 * or more; c is m's distance across from the keel line. The force is
 * vertical, at m. It acts while the side moves down into the water it
 * faces (never on the way out: the water keeps what it was given),
 * weighted by Fn^2 / (1 + Fn^2), Fn^2 = V^2 / (g c): the theory holds the
 * free surface at zero potential, an entry fast against gravity; slower,
 * the wetted width's motion radiates waves, which the triangles and the
 * dampers count. The waterline's ends are o + s_x (x - o), x = a, b. */
HK_INLINE void hs_entry(const hs_entry_frame* e, fv cut, fv h0, fv h1, fv h2, fv odd0, fv odd1, fv sa, fv sb) {
    const hydrodyn_lane_frame* f = e->frame;
    const fv zero = lv_set(0.0f), one = lv_set(1.0f), half = lv_set(0.5f), third = lv_set(1.0f / 3.0f);
    const float* blk = e->blk;
#define HS_COL(c) lv_load(blk + (c) * HULL_GROUP)
    /* the middle's and the run's weights on corners 1 and 2, less 1/3 for
     * the middle (the corners' weights from the centroid) */
    const fv wo = lv_sub(one, lv_mul(half, lv_add(sa, sb))), wa = lv_mul(half, sa), wb = lv_mul(half, sb);
    const fv ro = lv_sub(sa, sb), ra = lv_sub(zero, sa);
    const fv m1 = lv_sub(hs_pick(odd0, odd1, wa, wo, wb), third), m2 = lv_sub(hs_pick(odd0, odd1, wb, wa, wo), third);
    const fv r1 = hs_pick(odd0, odd1, ra, ro, sb), r2 = hs_pick(odd0, odd1, sb, ra, ro);
    const fv e1x = HS_COL(HULL_LANE_E1X), e1y = HS_COL(HULL_LANE_E1Y), e1z = HS_COL(HULL_LANE_E1Z);
    const fv e2x = HS_COL(HULL_LANE_E2X), e2y = HS_COL(HULL_LANE_E2Y), e2z = HS_COL(HULL_LANE_E2Z);
    const fv mx = lv_add(HS_COL(HULL_LANE_CX), lv_add(lv_mul(m1, e1x), lv_mul(m2, e2x)));
    const fv my = lv_add(HS_COL(HULL_LANE_CY), lv_add(lv_mul(m1, e1y), lv_mul(m2, e2y)));
    const fv mz = lv_add(HS_COL(HULL_LANE_CZ), lv_add(lv_mul(m1, e1z), lv_mul(m2, e2z)));
    const fv length = lv_andnot(lv_set(-0.0f), lv_add(lv_mul(r1, e1x), lv_mul(r2, e2x)));
    /* the middle's velocity relative to the water: down, and into the side */
    const fv wx = lv_set(f->w[0]), wy = lv_set(f->w[1]), wz = lv_set(f->w[2]);
    const fv px = lv_add(lv_set(f->v[0]), lv_sub(lv_mul(wy, mz), lv_mul(wz, my)));
    const fv py = lv_add(lv_set(f->v[1]), lv_sub(lv_mul(wz, mx), lv_mul(wx, mz)));
    const fv pz = lv_add(lv_set(f->v[2]), lv_sub(lv_mul(wx, my), lv_mul(wy, mx)));
    const fv ux = lv_set(f->up[0]), uy = lv_set(f->up[1]), uz = lv_set(f->up[2]);
    const fv down = lv_sub(zero, lv_add(lv_add(lv_mul(px, ux), lv_mul(py, uy)), lv_mul(pz, uz)));
    const fv vn = lv_add(lv_add(lv_mul(px, HS_COL(HULL_LANE_NX)), lv_mul(py, HS_COL(HULL_LANE_NY))),
                         lv_mul(pz, HS_COL(HULL_LANE_NZ)));
    const fv go = lv_and(lv_and(cut, lv_gt(down, zero)), lv_and(lv_gt(vn, zero), lv_gt(length, zero)));
    if (!lv_mask(go)) return;
    const fv g1 = lv_sub(h2, h0), g2 = lv_sub(h0, h1);
    const fv gx = lv_add(lv_mul(g1, e1x), lv_mul(g2, e2x)), gy = lv_add(lv_mul(g1, e1y), lv_mul(g2, e2y));
    const fv gz = lv_add(lv_mul(g1, e1z), lv_mul(g2, e2z));
    const fv area = HS_COL(HULL_LANE_AREA);
#undef HS_COL
    /* cot^2 = 1 / sin^2 - 1, the sine held in [sin of the least deadrise, 1] */
    const fv four_area2 = lv_mul(lv_mul(area, area), lv_set(4.0f));
    const fv grad2 = lv_max(lv_add(lv_add(lv_mul(gx, gx), lv_mul(gy, gy)), lv_mul(gz, gz)), lv_set(1e-30f));
    const fv inv_sin2 = lv_min(lv_max(lv_div(four_area2, grad2), one), lv_set(f->entry_max_inv_sin2));
    const fv cot_b = lv_sqrt(lv_sub(inv_sin2, one));
    /* c: the middle's distance from the keel line, across the vertical */
    const fv ay = lv_sub(my, lv_set(f->keel));
    const fv along = lv_add(lv_mul(ay, uy), lv_mul(mz, uz));
    const fv c = lv_sqrt(lv_max(lv_sub(lv_add(lv_mul(ay, ay), lv_mul(mz, mz)), lv_mul(along, along)), zero));
    /* Fn^2 / (1 + Fn^2) = V^2 / (g c + V^2) */
    const fv down2 = lv_mul(down, down);
    const fv fast = lv_div(down2, lv_add(lv_mul(lv_set(f->gravity), lv_max(c, lv_set(1e-3f))), down2));
    const fv lift = lv_and(go, lv_mul(lv_mul(lv_mul(fast, lv_set(f->entry_k)), lv_mul(c, down2)),
                                      lv_mul(cot_b, length)));
    const fv fx = lv_mul(lift, ux), fy = lv_mul(lift, uy), fz = lv_mul(lift, uz);
    float(*const sum)[HYDRODYN_LANES] = e->sums->lane;
    lv_store(sum[HYDRODYN_SUM_ENTRY_FORCE], lv_add(lv_load(sum[HYDRODYN_SUM_ENTRY_FORCE]), fx));
    lv_store(sum[HYDRODYN_SUM_ENTRY_FORCE + 1], lv_add(lv_load(sum[HYDRODYN_SUM_ENTRY_FORCE + 1]), fy));
    lv_store(sum[HYDRODYN_SUM_ENTRY_FORCE + 2], lv_add(lv_load(sum[HYDRODYN_SUM_ENTRY_FORCE + 2]), fz));
    const fv tx = lv_sub(lv_mul(my, fz), lv_mul(mz, fy)), ty = lv_sub(lv_mul(mz, fx), lv_mul(mx, fz));
    const fv tz = lv_sub(lv_mul(mx, fy), lv_mul(my, fx));
    lv_store(sum[HYDRODYN_SUM_ENTRY_TORQUE], lv_add(lv_load(sum[HYDRODYN_SUM_ENTRY_TORQUE]), tx));
    lv_store(sum[HYDRODYN_SUM_ENTRY_TORQUE + 1], lv_add(lv_load(sum[HYDRODYN_SUM_ENTRY_TORQUE + 1]), ty));
    lv_store(sum[HYDRODYN_SUM_ENTRY_TORQUE + 2], lv_add(lv_load(sum[HYDRODYN_SUM_ENTRY_TORQUE + 2]), tz));
}

/* Apart from the loop and never inlined: most groups have no cut lane,
 * and with this inside, the loop's sums and constants no longer fit the
 * registers. The water entry (entry not NULL) comes here for that reason:
 * it acts only at cut lanes. */
static __attribute__((noinline)) void HK_NAME(statics_cut)(fv h0, fv h1, fv h2, fv u0, fv u1, fv u2, fv cut,
                                                           hs_cut_weights* out, const hs_entry_frame* entry) {
    const fv zero = lv_set(0.0f), one = lv_set(1.0f), two_f = lv_set(2.0f), three = lv_set(3.0f);
    const fv four = lv_set(4.0f);
    /* two corners wet: the odd corner is the dry one */
    const fv two = lv_and(cut, lv_or(lv_or(lv_and(u0, u1), lv_and(u1, u2)), lv_and(u0, u2)));
    const fv odd0 = lv_xor(u0, two), odd1 = lv_xor(u1, two);
    const fv ho = hs_pick(odd0, odd1, h0, h1, h2), ha = hs_pick(odd0, odd1, h1, h2, h0);
    const fv hb = hs_pick(odd0, odd1, h2, h0, h1);
    /* one wet: t = d_o / (d_o + h_x); two wet: t = d_x / (d_x + h_o);
     * both are (a signed height) / (h_x - h_o), whose denominator
     * is positive in every cut lane */
    const fv ta = lv_div(lv_sel(two, ha, lv_sub(zero, ho)), lv_sel(cut, lv_sub(ha, ho), one));
    const fv tb = lv_div(lv_sel(two, hb, lv_sub(zero, ho)), lv_sel(cut, lv_sub(hb, ho), one));
    /* one wet corner: the piece (o, J_a, J_b) */
    const fv d = lv_sub(zero, ho), f = lv_mul(ta, tb), fd = lv_mul(f, d);
    const fv mo1 = lv_mul(fd, lv_sub(lv_sub(four, ta), tb)), ma1 = lv_mul(fd, ta), mb1 = lv_mul(fd, tb);
    const fv co1 = lv_mul(f, lv_sub(lv_sub(three, ta), tb)), ca1 = lv_mul(f, ta), cb1 = lv_mul(f, tb);
    /* two wet corners: the pieces (a, b, I_b) and (a, I_b, I_a) */
    const fv da = lv_sub(zero, ha), db = lv_sub(zero, hb), g1 = tb, g2 = lv_mul(ta, lv_sub(one, tb));
    const fv s1 = lv_add(da, db), g2da = lv_mul(g2, da), rest = lv_sub(one, tb), tab = lv_add(ta, tb);
    const fv force2 = lv_add(lv_mul(g1, s1), g2da);
    const fv ma2 = lv_add(lv_mul(g1, lv_add(da, s1)), lv_mul(g2da, lv_sub(three, ta)));
    const fv mb2 = lv_add(lv_mul(g1, lv_add(lv_add(db, s1), lv_mul(s1, rest))), lv_mul(g2da, rest));
    const fv mo2 = lv_add(lv_mul(lv_mul(g1, s1), tb), lv_mul(g2da, tab));
    const fv ca2 = lv_add(g1, lv_mul(g2, lv_sub(two_f, ta)));
    const fv cb2 = lv_add(lv_mul(g1, lv_sub(two_f, tb)), lv_mul(g2, rest));
    const fv co2 = lv_add(lv_mul(g1, tb), lv_mul(g2, tab));
    const fv mo = lv_sel(two, mo2, mo1), ma = lv_sel(two, ma2, ma1), mb = lv_sel(two, mb2, mb1);
    const fv co = lv_sel(two, co2, co1), ca = lv_sel(two, ca2, ca1), cb = lv_sel(two, cb2, cb1);
    /* back to the triangle's corner order */
    out->force = lv_sel(two, force2, fd);
    out->m0 = hs_pick(odd0, odd1, mo, mb, ma);
    out->m1 = hs_pick(odd0, odd1, ma, mo, mb);
    out->m2 = hs_pick(odd0, odd1, mb, ma, mo);
    out->frac = lv_sel(two, lv_add(g1, g2), f);
    out->c1 = lv_and(cut, hs_pick(odd0, odd1, ca, co, cb));
    out->c2 = lv_and(cut, hs_pick(odd0, odd1, cb, ca, co));
    if (entry)
        hs_entry(entry, cut, h0, h1, h2, odd0, odd1, lv_sel(two, lv_sub(one, ta), ta), lv_sel(two, lv_sub(one, tb), tb));
}

static void HK_NAME(statics)(const hydro_statics_span* sp, hydro_statics_sums* sums) {
    const fv zero = lv_set(0.0f), one = lv_set(1.0f), dry_mark = lv_set(-1.0f);
    const float* blk = sp->lanes;
    const int32_t* corner = sp->corners;
    const float* height = sp->height;
    float *wet_out = sp->wet, *b1_out = sp->b1, *b2_out = sp->b2;
    fv fx = zero, fy = zero, fz = zero, tx = zero, ty = zero, tz = zero, area_sum = zero;
    uint32_t wetted = 0;
    int poisoned = 0;
    const uint32_t count = sp->count;
    for (uint32_t i = 0; i < count; i += 8, blk += HULL_LANE_BLOCK, corner += 3 * HULL_GROUP) {
        fv valid = iv_bits(iv_set(-1));
        if (count - i < 8) {
            /* the run's last lanes: past its end they are marked neither */
            _Alignas(32) int32_t in[8];
            for (uint32_t l = 0; l < 8; l++) in[l] = i + l < count ? -1 : 0;
            valid = iv_bits(iv_load(in));
        }
        const fv h0 = lv_gather(height, corner), h1 = lv_gather(height, corner + HULL_GROUP);
        const fv h2 = lv_gather(height, corner + 2 * HULL_GROUP);
        const fv bad = lv_and(valid, lv_nan(lv_add(lv_add(h0, h1), h2)));
        const fv u0 = lv_lt(h0, zero), u1 = lv_lt(h1, zero), u2 = lv_lt(h2, zero);
        /* a NaN corner compares dry, so a NaN lane could pass as cut */
        const fv any = lv_andnot(bad, lv_and(valid, lv_or(lv_or(u0, u1), u2)));
        const int any_bits = lv_mask(any);
        if (lv_mask(bad)) poisoned = 1;
        if (!any_bits) {
            /* all dry: the hull's top, a run of whole groups (its triangles
             * are sorted by height) */
            lv_store(wet_out + i, lv_and(lv_andnot(bad, valid), dry_mark));
            lv_store(b1_out + i, zero), lv_store(b2_out + i, zero);
            continue;
        }
        wetted += (uint32_t)__builtin_popcount((unsigned)any_bits);
        const fv full = lv_and(any, lv_and(lv_and(u0, u1), u2));
        const fv d0 = lv_sub(zero, h0), d1 = lv_sub(zero, h1), d2 = lv_sub(zero, h2);
        const fv s = lv_add(lv_add(d0, d1), d2);
        fv force = s, m0 = lv_add(d0, s), m1 = lv_add(d1, s), m2 = lv_add(d2, s), frac = one;
        fv c1 = zero, c2 = zero;
        const fv cut = lv_andnot(full, any);
        if (lv_mask(cut)) {
            hs_cut_weights w;
            const hs_entry_frame entry = {blk, sp->entry_frame, sp->entry_sums};
            HK_NAME(statics_cut)(h0, h1, h2, u0, u1, u2, cut, &w, sp->entry_frame ? &entry : NULL);
            force = lv_sel(cut, w.force, force);
            m0 = lv_sel(cut, w.m0, m0), m1 = lv_sel(cut, w.m1, m1), m2 = lv_sel(cut, w.m2, m2);
            frac = lv_sel(cut, w.frac, one);
            c1 = w.c1, c2 = w.c2;
        }
#define HS_COL(c) lv_load(blk + (c) * HULL_GROUP)
        const fv area = HS_COL(HULL_LANE_AREA);
        const fv af = lv_and(any, lv_mul(area, force));
        m0 = lv_and(any, m0), m1 = lv_and(any, m1), m2 = lv_and(any, m2);
        fx = lv_add(fx, lv_mul(af, HS_COL(HULL_LANE_NX)));
        fy = lv_add(fy, lv_mul(af, HS_COL(HULL_LANE_NY)));
        fz = lv_add(fz, lv_mul(af, HS_COL(HULL_LANE_NZ)));
        tx = lv_add(tx, lv_add(lv_add(lv_mul(m0, HS_COL(HULL_LANE_K0X)), lv_mul(m1, HS_COL(HULL_LANE_K1X))),
                               lv_mul(m2, HS_COL(HULL_LANE_K2X))));
        ty = lv_add(ty, lv_add(lv_add(lv_mul(m0, HS_COL(HULL_LANE_K0Y)), lv_mul(m1, HS_COL(HULL_LANE_K1Y))),
                               lv_mul(m2, HS_COL(HULL_LANE_K2Y))));
        tz = lv_add(tz, lv_add(lv_add(lv_mul(m0, HS_COL(HULL_LANE_K0Z)), lv_mul(m1, HS_COL(HULL_LANE_K1Z))),
                               lv_mul(m2, HS_COL(HULL_LANE_K2Z))));
#undef HS_COL
        area_sum = lv_add(area_sum, lv_and(any, lv_mul(frac, area)));
        /* the marks: the wet fraction (a cut one that rounds to no area is
         * left dry), dry, or neither (NaN, past the run) */
        const fv wet = lv_and(any, lv_gt(frac, zero));
        lv_store(wet_out + i, lv_sel(wet, frac, lv_and(lv_andnot(bad, valid), dry_mark)));
        lv_store(b1_out + i, c1), lv_store(b2_out + i, c2);
    }
    _Alignas(32) float out[HYDRO_SUM_COUNT][8];
    lv_store(out[HYDRO_SUM_FORCE], fx), lv_store(out[HYDRO_SUM_FORCE + 1], fy);
    lv_store(out[HYDRO_SUM_FORCE + 2], fz), lv_store(out[HYDRO_SUM_TORQUE], tx);
    lv_store(out[HYDRO_SUM_TORQUE + 1], ty), lv_store(out[HYDRO_SUM_TORQUE + 2], tz);
    lv_store(out[HYDRO_SUM_AREA], area_sum);
    for (int k = 0; k < HYDRO_SUM_COUNT; k++)
        for (int l = 0; l < 8; l++) sums->lane[k][l] += (double)out[k][l];
    sums->wetted += wetted;
    sums->poisoned |= poisoned;
}
