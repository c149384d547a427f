// SPDX-License-Identifier: MIT
/* The surface table's row walk (see ocean_grid.c), eight rows at a time,
 * written once on the lv_* lanes: ocean_grid.c includes it after
 * lanes_sse2.h and ocean_walk_avx2.c after lanes_avx2.h, each defining
 * OW_NAME to name its copy. Both run the same float operations in the same
 * order per lane, so the table has the same bits at every SIMD level
 * (tests/test_ocean_grid.c). A lane that has finished (or failed) is left
 * as it was by the Newton steps its neighbours still take, so a row's walk
 * does not depend on the rows beside it. */
#ifndef OW_NAME
#error "define OW_NAME and include a lanes_*.h first"
#endif

/* floor for |f| < 2^31: truncation, minus one where that rounded up */
static inline iv OW_NAME(floor)(fv f) {
    const iv i = lv_trunc(f);
    return iv_add(i, lv_bits(lv_lt(f, iv_to_fv(i))));
}

/* Per lane, the element of cell (ci, cj) and of (ci, cj + 1) (wrapped);
 * `wrap` bit l when lane l's ci + 1 wraps to 0. */
typedef struct OW_NAME(cells) {
    int32_t k0[8], k1[8];
    int wrap;
} OW_NAME(cells);

static inline void OW_NAME(locate)(const ocean_march* m, iv ci, iv cj, OW_NAME(cells) * c) {
    const iv mx = iv_set(m->mx), mz = iv_set(m->mz);
    const iv x0 = iv_and(ci, mx);
    iv_store(c->k0, iv_add(iv_sll(iv_and(cj, mz), m->shift), x0));
    iv_store(c->k1, iv_add(iv_sll(iv_and(iv_add(cj, iv_set(1)), mz), m->shift), x0));
    c->wrap = lv_mask(iv_bits(iv_eq(x0, mx)));
}

/* The cells' corner pairs: a[] from row cj, b[] from row cj + 1; a[0], a[1]
 * the pair at ci, a[2], a[3] the pair at ci + 1 (the row's first when it
 * wraps). */
static inline void OW_NAME(gather)(const ocean_march* m, const float* pairs, const OW_NAME(cells) * c, fv a[4],
                                   fv b[4]) {
    lv_load_pairs(pairs, c->k0, c->wrap, (size_t)m->nx, a);
    lv_load_pairs(pairs, c->k1, c->wrap, (size_t)m->nx, b);
}

typedef struct OW_NAME(walker) {
    int z, rows; /* rows z .. z + rows - 1; idle lanes repeat the last and write nothing */
    iv gz, ci, cj;
    fv gzf, s, t;
    int cold; /* lanes that start afresh at the next node */
} OW_NAME(walker);

/* Node x of the walker's rows: solved, written, and the next guess made. */
static void OW_NAME(node)(const ocean_march* m, OW_NAME(walker) * w, int x) {
    const fv one = lv_set(1.0f), zero = lv_set(0.0f);
    const fv icx = lv_set(m->icx), icz = lv_set(m->icz);
    const fv lo = lv_set(-OCEAN_CELL_SLACK), hi = lv_set(1.0f + OCEAN_CELL_SLACK);
    const iv gx = iv_set(x), gz = w->gz;
    iv ci = w->ci, cj = w->cj;
    fv s = w->s, t = w->t;
    if (w->cold) {
        /* x0 = q - D(q): the label at the node, moved back */
        fv a[4], b[4];
        OW_NAME(cells) c0;
        OW_NAME(locate)(m, gx, gz, &c0);
        OW_NAME(gather)(m, m->disp, &c0, a, b);
        const fv ux = lv_sub(iv_to_fv(gx), lv_mul(a[0], icx));
        const fv uz = lv_sub(w->gzf, lv_mul(a[1], icz));
        const iv fx = OW_NAME(floor)(ux), fz = OW_NAME(floor)(uz);
        _Alignas(32) static const int32_t bit[8] = {1, 2, 4, 8, 16, 32, 64, 128};
        const fv c = iv_bits(iv_gt(iv_and(iv_set(w->cold), iv_load(bit)), iv_set(0)));
        ci = iv_sel(c, fx, ci);
        cj = iv_sel(c, fz, cj);
        s = lv_sel(c, lv_sub(ux, iv_to_fv(fx)), s);
        t = lv_sel(c, lv_sub(uz, iv_to_fv(fz)), t);
    }
    fv active = iv_bits(iv_set(-1)), done = zero;
    fv step_x = zero, step_z = zero; /* J^-1 (1, 0) at the answer */
    OW_NAME(cells) cell; /* done lanes stay in the cell they were last located in */
    for (int k = 0; k < OCEAN_MARCH_STEPS; k++) {
        fv a[4], b[4];
        OW_NAME(locate)(m, ci, cj, &cell);
        OW_NAME(gather)(m, m->disp, &cell, a, b);
        /* corners relative to the cell's label, in cells */
        const fv p00x = lv_mul(a[0], icx), p00z = lv_mul(a[1], icz);
        const fv p10x = lv_add(one, lv_mul(a[2], icx)), p10z = lv_mul(a[3], icz);
        const fv p01x = lv_mul(b[0], icx), p01z = lv_add(one, lv_mul(b[1], icz));
        const fv p11x = lv_add(one, lv_mul(b[2], icx)), p11z = lv_add(one, lv_mul(b[3], icz));
        const fv ex = lv_sub(p10x, p00x), ez = lv_sub(p10z, p00z);
        const fv fx = lv_sub(p01x, p00x), fz = lv_sub(p01z, p00z);
        const fv gx_ = lv_sub(lv_sub(p11x, p10x), fx), gz_ = lv_sub(lv_sub(p11z, p10z), fz);
        /* Jacobian columns and the residual P(s, t) - q */
        const fv jsx = lv_add(ex, lv_mul(t, gx_)), jsz = lv_add(ez, lv_mul(t, gz_));
        const fv jtx = lv_add(fx, lv_mul(s, gx_)), jtz = lv_add(fz, lv_mul(s, gz_));
        const fv hx = iv_to_fv(iv_sub(gx, ci)), hz = iv_to_fv(iv_sub(gz, cj));
        const fv rx = lv_sub(lv_add(lv_add(p00x, lv_mul(s, ex)), lv_mul(t, jtx)), hx);
        const fv rz = lv_sub(lv_add(lv_add(p00z, lv_mul(s, ez)), lv_mul(t, jtz)), hz);
        const fv det = lv_sub(lv_mul(jsx, jtz), lv_mul(jsz, jtx));
        const fv inv = lv_div(one, det);
        const fv ds = lv_mul(lv_sub(lv_mul(jtz, rx), lv_mul(jtx, rz)), inv);
        const fv dt = lv_mul(lv_sub(lv_mul(jsx, rz), lv_mul(jsz, rx)), inv);
        const fv s1 = lv_sub(s, ds), t1 = lv_sub(t, dt);
        /* the residual left: g ds dt, in metres squared */
        const fv dd = lv_mul(ds, dt);
        const fv lx = lv_mul(gx_, dd), lz = lv_mul(gz_, dd);
        const fv left = lv_add(lv_mul(lv_mul(lx, lx), lv_set(m->cx2)), lv_mul(lv_mul(lz, lz), lv_set(m->cz2)));
        const fv good = lv_and(active, lv_gt(det, lv_set(OCEAN_MARCH_DET_MIN)));
        const fv in = lv_and(lv_and(lv_ge(s1, lo), lv_le(s1, hi)), lv_and(lv_ge(t1, lo), lv_le(t1, hi)));
        const fv fin = lv_and(good, lv_and(in, lv_lt(left, lv_set(m->tol2))));
        step_x = lv_sel(fin, lv_mul(jtz, inv), step_x);
        step_z = lv_sel(fin, lv_sub(zero, lv_mul(jsz, inv)), step_z);
        /* lanes going on move to the cell their step points into */
        const fv go = lv_andnot(fin, good);
        const iv mi = OW_NAME(floor)(lv_sel(go, s1, zero)), mj = OW_NAME(floor)(lv_sel(go, t1, zero));
        s = lv_sel(good, lv_sub(s1, iv_to_fv(mi)), s);
        t = lv_sel(good, lv_sub(t1, iv_to_fv(mj)), t);
        ci = iv_add(ci, mi);
        cj = iv_add(cj, mj);
        done = lv_or(done, fin);
        active = go;
        if (!lv_mask(active)) break;
    }
    /* the answer: the cell's heights and velocities at (s, t) */
    fv a[4], b[4];
    OW_NAME(gather)(m, m->hv, &cell, a, b);
    const fv h0 = lv_add(a[0], lv_mul(s, lv_sub(a[2], a[0])));
    const fv h1 = lv_add(b[0], lv_mul(s, lv_sub(b[2], b[0])));
    const fv v0 = lv_add(a[1], lv_mul(s, lv_sub(a[3], a[1])));
    const fv v1 = lv_add(b[1], lv_mul(s, lv_sub(b[3], b[1])));
    const fv nan = lv_set(NAN);
    float hh[8], vv[8];
    lv_store(hh, lv_sel(done, lv_add(h0, lv_mul(t, lv_sub(h1, h0))), nan));
    lv_store(vv, lv_sel(done, lv_add(v0, lv_mul(t, lv_sub(v1, v0))), nan));
    for (int l = 0; l < w->rows; l++) {
        const size_t k = ((size_t)(w->z + l) << m->shift) + (size_t)x;
        m->gh[k] = hh[l];
        m->gv[k] = vv[l];
    }
    /* the next node's guess */
    w->cold = 255 & ~lv_mask(done);
    const fv s2 = lv_add(s, step_x), t2 = lv_add(t, step_z);
    const iv mi = OW_NAME(floor)(lv_sel(done, s2, zero)), mj = OW_NAME(floor)(lv_sel(done, t2, zero));
    w->s = lv_sub(s2, iv_to_fv(mi));
    w->t = lv_sub(t2, iv_to_fv(mj));
    w->ci = iv_add(ci, mi);
    w->cj = iv_add(cj, mj);
}

/* Rows z .. z + rows - 1 (rows 1..8), node by node across the table. */
void OW_NAME(rows)(const ocean_march* m, int z, int rows) {
    int32_t lane_row[8];
    for (int l = 0; l < 8; l++) lane_row[l] = z + (l < rows ? l : rows - 1);
    OW_NAME(walker) w;
    w.z = z;
    w.rows = rows;
    w.gz = iv_load(lane_row);
    w.gzf = iv_to_fv(w.gz);
    w.ci = w.cj = iv_set(0);
    w.s = w.t = lv_set(0.0f);
    w.cold = 255;
    for (int x = 0; x < m->nx; x++) OW_NAME(node)(m, &w, x);
}
