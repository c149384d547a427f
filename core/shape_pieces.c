// SPDX-License-Identifier: MIT
/* Collision pieces of a hull (shape.h, shape_build_pieces): one convex hull
 * per closed part of the mesh, and a part whose convex hull would fill a
 * hollow (a tunnel, a notch, a concave stern) cut further by planes across
 * (x) or along (z) the hull until each piece fits its convex hull.
 *
 * A piece is a region of one part: the part's triangles clipped to a box
 * [lo, hi] in x and z (a bound not cut is infinite), taken as connected
 * surface (triangles that share an edge inside the region), so a cut across
 * two prongs gives two pieces. Its convex hull is the hull of the clipped
 * triangles' corners: the caps a solid cut would add have no corner of
 * their own. How hollow a piece is, is how deep its farthest surface point
 * lies inside its convex hull; the hollowest piece is cut where that
 * depth falls most (each axis at the deepest point and at eighths of the
 * piece's extent), until every piece is within the tolerance or the
 * pieces run out. Everything is in a fixed order: the same pieces every
 * time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shape.h"

#define PIECES_POLY 10      /* a triangle clipped by four planes has at most 7 corners */
#define PIECES_EIGHTHS 8 /* cut positions per axis: the deepest point, its triangle's corners, 7 eighths */
#define PIECES_CANDIDATES (4 + PIECES_EIGHTHS - 1)
#define PIECES_ON_PLANE 1e-9

/* ---- the mesh's parts ---------------------------------------------------- */

/* The root of k in a union-find forest (path halving). */
static uint32_t pieces_find_root(uint32_t* parent, uint32_t k) {
    while (parent[k] != k) {
        parent[k] = parent[parent[k]];
        k = parent[k];
    }
    return k;
}

/* part[v]: each vertex's part, numbered by its first vertex in vertex
 * order (UINT32_MAX: used by no triangle); returns the number of parts. */
static uint32_t pieces_parts(const nv_hull* h, uint32_t* part, uint8_t* used) {
    const uint32_t n = h->vertex_count;
    for (uint32_t k = 0; k < n; k++) part[k] = k;
    for (uint32_t t = 0; t < h->triangle_count; t++) {
        used[h->triangles[3 * t]] = used[h->triangles[3 * t + 1]] = used[h->triangles[3 * t + 2]] = 1;
        for (int e = 1; e < 3; e++) {
            uint32_t ra = pieces_find_root(part, h->triangles[3 * t]), rb = pieces_find_root(part, h->triangles[3 * t + e]);
            if (ra != rb) part[ra > rb ? ra : rb] = ra < rb ? ra : rb; /* the lower index is the root */
        }
    }
    /* a root is the lowest vertex of its part and every link points lower,
     * so a vertex's link already holds its part's number when it is read */
    uint32_t parts = 0;
    for (uint32_t k = 0; k < n; k++) part[k] = !used[k] ? UINT32_MAX : part[k] == k ? parts++ : part[part[k]];
    return parts;
}

/* ---- a region of the surface --------------------------------------------- */

typedef struct pieces_ctx {
    const nv_hull* h;
    uint32_t* across; /* 3 per triangle: the triangle across each edge (k, k + 1), UINT32_MAX none */
    uint32_t* parent; /* union-find over triangles, scratch */
    double* corners;  /* scratch: 3 per corner of the clipped triangles */
    float* xyz;       /* the same as floats for qhull */
    uint32_t corner_capacity;
} pieces_ctx;

/* One piece while the decomposition runs. */
typedef struct piece_work {
    shape_region region;
    uint32_t* tris; /* the part's triangles that reach into the region */
    uint32_t tri_count;
    shape hull;
    double hollow;     /* m: the deepest surface point inside the hull */
    nv_vec3 deepest;   /* where */
    uint32_t deepest_tri; /* on which triangle */
    int final;         /* no cut makes it fit better */
} piece_work;

static nv_vec3 pieces_vertex(const nv_hull* h, uint32_t v) { return v3(h->vx[v], h->vy[v], h->vz[v]); }

static double pieces_axis(nv_vec3 p, int axis) { return axis == 0 ? p.x : p.z; }

/* The triangle's outward normal (not unit). */
static nv_vec3 pieces_normal(const nv_hull* h, uint32_t t) {
    nv_vec3 a = pieces_vertex(h, h->triangles[3 * t]), b = pieces_vertex(h, h->triangles[3 * t + 1]),
            c = pieces_vertex(h, h->triangles[3 * t + 2]);
    return v3_cross(v3_sub(b, a), v3_sub(c, a));
}

/* Sutherland-Hodgman against v[axis] * sign >= bound * sign. */
static uint32_t pieces_clip_plane(const nv_vec3* in, uint32_t n, int axis, double bound, double sign, nv_vec3* out) {
    uint32_t m = 0;
    for (uint32_t k = 0; k < n; k++) {
        nv_vec3 a = in[k], b = in[(k + 1) % n];
        double da = (pieces_axis(a, axis) - bound) * sign, db = (pieces_axis(b, axis) - bound) * sign;
        if (da >= 0.0) out[m++] = a;
        if ((da >= 0.0) != (db >= 0.0)) {
            double t = da / (da - db);
            nv_vec3 c = v3_add(a, v3_scale(v3_sub(b, a), t));
            if (axis == 0) c.x = bound;
            else c.z = bound;
            out[m++] = c;
        }
    }
    return m;
}

/* The triangle clipped to the region, into poly: its corner count, 0 when
 * nothing of it with an area is inside. A triangle lying in a bound's
 * plane belongs to the side its solid is on (opposite its outward normal):
 * the back wall of a notch cut along its wall goes with the body, not with
 * the prongs it would otherwise join. */
static uint32_t pieces_clip_triangle(const nv_hull* h, uint32_t t, const shape_region* r, nv_vec3* poly) {
    nv_vec3 buf[2][PIECES_POLY];
    uint32_t n = 3;
    for (int k = 0; k < 3; k++) buf[0][k] = pieces_vertex(h, h->triangles[3 * t + k]);
    int cur = 0;
    const nv_vec3 normal = pieces_normal(h, t);
    for (int a = 0; a < 2 && n >= 3; a++) {
        const int axis = a ? 2 : 0;
        for (int side = 0; side < 2 && n >= 3; side++) {
            double bound = side ? r->hi[a] : r->lo[a], sign = side ? -1.0 : 1.0;
            if (!isfinite(bound)) continue;
            int in_plane = 1;
            for (uint32_t k = 0; k < n; k++) in_plane &= fabs(pieces_axis(buf[cur][k], axis) - bound) <= PIECES_ON_PLANE;
            if (in_plane) {
                /* the solid lies where the outward normal does not point */
                if (pieces_axis(normal, axis) * sign >= 0.0) return 0;
                continue;
            }
            n = pieces_clip_plane(buf[cur], n, axis, bound, sign, buf[!cur]);
            cur = !cur;
        }
    }
    if (n < 3) return 0;
    nv_vec3 area = v3(0, 0, 0);
    for (uint32_t k = 1; k + 1 < n; k++)
        area = v3_add(area, v3_cross(v3_sub(buf[cur][k], buf[cur][0]), v3_sub(buf[cur][k + 1], buf[cur][0])));
    if (!(v3_dot(area, area) > 1e-18)) return 0;
    memcpy(poly, buf[cur], n * sizeof *poly);
    return n;
}

/* Whether the segment a..b has a length inside the region. */
static int pieces_segment_inside(nv_vec3 a, nv_vec3 b, const shape_region* r) {
    double t0 = 0.0, t1 = 1.0;
    for (int k = 0; k < 2; k++) {
        double pa = k ? a.z : a.x, d = (k ? b.z : b.x) - pa;
        for (int side = 0; side < 2; side++) {
            double bound = side ? r->hi[k] : r->lo[k];
            if (!isfinite(bound)) continue;
            if (fabs(d) < 1e-15) {
                if (side ? pa > bound : pa < bound) return 0;
                continue;
            }
            double t = (bound - pa) / d;
            if ((d > 0.0) != (side != 0)) t0 = fmax(t0, t); /* entering */
            else t1 = fmin(t1, t);
        }
    }
    return (t1 - t0) * v3_length(v3_sub(b, a)) > 1e-9;
}

static int pieces_reserve_corners(pieces_ctx* c, uint32_t n) {
    if (n <= c->corner_capacity) return 0;
    uint32_t cap = c->corner_capacity ? c->corner_capacity : 256;
    while (cap < n) cap *= 2;
    double* d = realloc(c->corners, (size_t)cap * 3 * sizeof *d);
    if (!d) return -1;
    c->corners = d;
    float* f = realloc(c->xyz, (size_t)cap * 3 * sizeof *f);
    if (!f) return -1;
    c->xyz = f;
    c->corner_capacity = cap;
    return 0;
}

/* How deep a body-frame point lies inside the shape (<= 0: outside or on it). */
static double pieces_depth(const shape* s, nv_vec3 q) {
    double outside = -INFINITY;
    for (uint32_t f = 0; f < s->plane_count; f++) {
        const double* pl = &s->planes[4 * f];
        outside = fmax(outside, pl[0] * q.x + pl[1] * q.y + pl[2] * q.z + pl[3]);
    }
    return -outside;
}

/* The piece's convex hull from its triangles' clipped corners, and how
 * hollow it is: the deepest of each clipped triangle's corners, edge
 * midpoints and centroid (a notch's corners lie on the hull's top and
 * bottom faces; its walls' midpoints do not). */
static int pieces_measure(pieces_ctx* c, piece_work* p, nv_error* err) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->tri_count; i++) {
        nv_vec3 poly[PIECES_POLY];
        uint32_t m = pieces_clip_triangle(c->h, p->tris[i], &p->region, poly);
        if (pieces_reserve_corners(c, n + m)) return nv_error_fail(err, NV_ENOMEM, "shape: out of memory");
        for (uint32_t k = 0; k < m; k++, n++) {
            c->corners[3 * n] = poly[k].x, c->corners[3 * n + 1] = poly[k].y, c->corners[3 * n + 2] = poly[k].z;
            c->xyz[3 * n] = (float)poly[k].x, c->xyz[3 * n + 1] = (float)poly[k].y, c->xyz[3 * n + 2] = (float)poly[k].z;
        }
    }
    if (shape_build_points(&p->hull, c->xyz, c->xyz + 1, c->xyz + 2, 3, n, err)) return -1;
    p->hollow = 0.0;
    p->deepest = v3(0, 0, 0);
    p->deepest_tri = UINT32_MAX;
    for (uint32_t i = 0; i < p->tri_count; i++) {
        nv_vec3 poly[PIECES_POLY];
        uint32_t m = pieces_clip_triangle(c->h, p->tris[i], &p->region, poly);
        nv_vec3 centre = v3(0, 0, 0);
        for (uint32_t k = 0; k < m; k++) {
            nv_vec3 q[2] = {poly[k], v3_scale(v3_add(poly[k], poly[(k + 1) % m]), 0.5)};
            centre = v3_add(centre, poly[k]);
            for (int j = 0; j < 2; j++) {
                double d = pieces_depth(&p->hull, q[j]);
                if (d > p->hollow) p->hollow = d, p->deepest = q[j], p->deepest_tri = p->tris[i];
            }
        }
        if (!m) continue;
        centre = v3_scale(centre, 1.0 / m);
        double d = pieces_depth(&p->hull, centre);
        if (d > p->hollow) p->hollow = d, p->deepest = centre, p->deepest_tri = p->tris[i];
    }
    return 0;
}

static void pieces_work_free(piece_work* p) {
    free(p->tris);
    shape_free(&p->hull);
    memset(p, 0, sizeof *p);
}

/* The connected pieces of `tris` inside region r, measured, appended to
 * out (room for `room`): their count, or -1 (out of memory, more than
 * room, or a piece qhull cannot enclose). */
static int pieces_components(pieces_ctx* c, const uint32_t* tris, uint32_t count, const shape_region* r, piece_work* out,
                             uint32_t room, nv_error* err) {
    const nv_hull* h = c->h;
    uint32_t* keep = malloc((size_t)(count ? count : 1) * sizeof *keep);
    if (!keep) return nv_error_fail(err, NV_ENOMEM, "shape: out of memory");
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; i++) {
        nv_vec3 poly[PIECES_POLY];
        if (pieces_clip_triangle(h, tris[i], r, poly)) {
            keep[kept++] = tris[i];
            c->parent[tris[i]] = tris[i];
        }
    }
    /* triangles joined across an edge that reaches into the region; the
     * parent array is indexed by triangle and reset for the kept ones */
    uint8_t* in = calloc(h->triangle_count ? h->triangle_count : 1, 1);
    if (!in) {
        free(keep);
        return nv_error_fail(err, NV_ENOMEM, "shape: out of memory");
    }
    for (uint32_t i = 0; i < kept; i++) in[keep[i]] = 1;
    for (uint32_t i = 0; i < kept; i++) {
        uint32_t t = keep[i];
        for (int e = 0; e < 3; e++) {
            uint32_t u = c->across[3 * t + e];
            if (u == UINT32_MAX || u < t || !in[u]) continue;
            if (!pieces_segment_inside(pieces_vertex(h, h->triangles[3 * t + e]), pieces_vertex(h, h->triangles[3 * t + (e + 1) % 3]), r))
                continue;
            uint32_t ra = pieces_find_root(c->parent, t), rb = pieces_find_root(c->parent, u);
            if (ra != rb) c->parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
        }
    }
    free(in);
    /* each component in the order of its first triangle */
    int made = 0;
    for (uint32_t i = 0; i < kept && made >= 0; i++) {
        uint32_t root = pieces_find_root(c->parent, keep[i]);
        if (root != keep[i]) continue;
        if ((uint32_t)made >= room) {
            made = -1;
            nv_error_set(err, "shape: too many pieces");
            break;
        }
        piece_work* p = &out[made];
        memset(p, 0, sizeof *p);
        p->region = *r;
        p->tris = malloc((size_t)kept * sizeof *p->tris);
        if (!p->tris) {
            nv_error_fail(err, NV_ENOMEM, "shape: out of memory");
            made = -1;
            break;
        }
        for (uint32_t j = i; j < kept; j++)
            if (pieces_find_root(c->parent, keep[j]) == root) p->tris[p->tri_count++] = keep[j];
        made++;
        if (pieces_measure(c, p, err)) made = -1;
    }
    if (made < 0)
        for (uint32_t k = 0; k < room; k++)
            if (out[k].tris) pieces_work_free(&out[k]);
    free(keep);
    return made;
}

/* The extent of the piece's hull along axis (0 x, 2 z). */
static void pieces_extent(const shape* s, int axis, double* lo, double* hi) {
    *lo = INFINITY, *hi = -INFINITY;
    for (uint32_t k = 0; k < s->count; k++) *lo = fmin(*lo, s->points[3 * k + axis]), *hi = fmax(*hi, s->points[3 * k + axis]);
}

/* The hollowest of a set of pieces. */
static double pieces_worst(const piece_work* p, uint32_t n) {
    double w = 0.0;
    for (uint32_t k = 0; k < n; k++) w = fmax(w, p[k].hollow);
    return w;
}

/* Cuts piece p where that leaves its pieces least hollow: into best (its
 * count, 0 when no cut helps). room: how many pieces it may become. */
static int pieces_best_cut(pieces_ctx* c, const piece_work* p, uint32_t room, piece_work* best) {
    int best_n = 0;
    double best_worst = p->hollow;
    piece_work trial[2 * SHAPE_MAX_PIECES];
    for (int a = 0; a < 2; a++) {
        const int axis = a ? 2 : 0;
        double lo, hi;
        pieces_extent(&p->hull, axis, &lo, &hi);
        /* a wall of the hollow is often where the deepest point's
         * triangle has its corners */
        double at[PIECES_CANDIDATES];
        at[0] = pieces_axis(p->deepest, axis);
        for (int k = 0; k < 3; k++)
            at[1 + k] = p->deepest_tri == UINT32_MAX ? NAN : pieces_axis(pieces_vertex(c->h, c->h->triangles[3 * p->deepest_tri + k]), axis);
        for (int k = 1; k < PIECES_EIGHTHS; k++) at[3 + k] = lo + (hi - lo) * k / PIECES_EIGHTHS;
        for (int k = 0; k < PIECES_CANDIDATES; k++) {
            if (!(at[k] > lo + 1e-3 && at[k] < hi - 1e-3)) continue;
            int seen = 0;
            for (int j = 0; j < k; j++) seen |= at[j] == at[k];
            if (seen) continue;
            shape_region below = p->region, above = p->region;
            below.hi[a] = at[k], above.lo[a] = at[k];
            memset(trial, 0, sizeof trial);
            nv_error ignored;
            int n0 = pieces_components(c, p->tris, p->tri_count, &below, trial, room, &ignored);
            if (n0 < 0) continue; /* a sliver qhull cannot enclose, or too many: not this cut */
            int n1 = pieces_components(c, p->tris, p->tri_count, &above, trial + n0, room - (uint32_t)n0, &ignored);
            if (n1 < 0) {
                for (int j = 0; j < n0; j++) pieces_work_free(&trial[j]);
                continue;
            }
            int n = n0 + n1;
            double worst = pieces_worst(trial, (uint32_t)n);
            /* better by a millimetre at least, then fewer pieces */
            if (worst < best_worst - 1e-3 || (best_n && worst < best_worst + 1e-9 && n < best_n)) {
                for (int j = 0; j < best_n; j++) pieces_work_free(&best[j]);
                memcpy(best, trial, (size_t)n * sizeof *trial);
                best_n = n, best_worst = worst;
            } else {
                for (int j = 0; j < n; j++) pieces_work_free(&trial[j]);
            }
        }
    }
    return best_n;
}

/* The triangle across each edge of every triangle (a closed mesh: each
 * edge has one partner), by sorting the edges. */
typedef struct pieces_edge {
    uint32_t lo, hi, slot; /* its vertices, low first; 3 x triangle + edge */
} pieces_edge;

static int pieces_edge_compare(const void* x, const void* y) {
    const pieces_edge *a = x, *b = y;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    return (a->slot > b->slot) - (a->slot < b->slot);
}

static int pieces_adjacency(pieces_ctx* c) {
    const nv_hull* h = c->h;
    const size_t n = 3 * (size_t)h->triangle_count;
    pieces_edge* e = malloc((n ? n : 1) * sizeof *e);
    c->across = malloc((n ? n : 1) * sizeof *c->across);
    c->parent = malloc((h->triangle_count ? h->triangle_count : 1) * sizeof *c->parent);
    if (!e || !c->across || !c->parent) {
        free(e);
        return -1;
    }
    for (uint32_t t = 0; t < h->triangle_count; t++)
        for (uint32_t k = 0; k < 3; k++) {
            uint32_t a = h->triangles[3 * t + k], b = h->triangles[3 * t + (k + 1) % 3];
            e[3 * t + k] = (pieces_edge){a < b ? a : b, a < b ? b : a, 3 * t + k};
            c->across[3 * t + k] = UINT32_MAX;
        }
    qsort(e, n, sizeof *e, pieces_edge_compare);
    for (size_t i = 0; i + 1 < n; i++)
        if (e[i].lo == e[i + 1].lo && e[i].hi == e[i + 1].hi) {
            c->across[e[i].slot] = e[i + 1].slot / 3;
            c->across[e[i + 1].slot] = e[i].slot / 3;
        }
    free(e);
    return 0;
}

static void pieces_ctx_free(pieces_ctx* c) {
    free(c->across);
    free(c->parent);
    free(c->corners);
    free(c->xyz);
}

/* The convex hull of part q's vertices, in vertex order (as a part that
 * is not cut always was). */
static int pieces_whole_part(const nv_hull* h, const uint32_t* part, uint32_t q, float* xyz, shape* out, nv_error* err) {
    uint32_t m = 0;
    for (uint32_t k = 0; k < h->vertex_count; k++)
        if (part[k] == q) xyz[3 * m] = h->vx[k], xyz[3 * m + 1] = h->vy[k], xyz[3 * m + 2] = h->vz[k], m++;
    return shape_build_points(out, xyz, xyz + 1, xyz + 2, 3, m, err);
}

/* Cuts the parts' pieces while one is hollower than `tolerance` and a cut
 * helps: work[0, *n) in, the pieces out (in place, in order). */
static void pieces_cut(pieces_ctx* c, piece_work* work, uint32_t* n, uint32_t max_pieces, double tolerance) {
    piece_work best[2 * SHAPE_MAX_PIECES];
    for (;;) {
        uint32_t k = UINT32_MAX;
        for (uint32_t i = 0; i < *n; i++)
            if (!work[i].final && work[i].hollow > tolerance && (k == UINT32_MAX || work[i].hollow > work[k].hollow)) k = i;
        if (k == UINT32_MAX || *n >= max_pieces) return;
        int m = pieces_best_cut(c, &work[k], max_pieces - (*n - 1), best);
        if (m <= 0) {
            work[k].final = 1;
            continue;
        }
        pieces_work_free(&work[k]);
        memmove(&work[k + (uint32_t)m], &work[k + 1], (*n - k - 1) * sizeof *work);
        memcpy(&work[k], best, (size_t)m * sizeof *best);
        *n += (uint32_t)m - 1;
    }
}

int shape_build_pieces(shape** out, shape_region** regions, uint32_t* count, const nv_hull* h, uint32_t max_pieces,
                       double tolerance, nv_error* err) {
    *out = NULL;
    *regions = NULL;
    *count = 1;
    if (max_pieces > SHAPE_MAX_PIECES) max_pieces = SHAPE_MAX_PIECES;
    const uint32_t nv = h->vertex_count;
    uint32_t* part = malloc((size_t)(nv ? nv : 1) * sizeof *part);
    uint8_t* used = calloc(nv ? nv : 1, 1);
    float* xyz = malloc((size_t)(nv ? nv : 1) * 3 * sizeof *xyz);
    pieces_ctx c = {.h = h};
    piece_work work[SHAPE_MAX_PIECES];
    memset(work, 0, sizeof work);
    uint32_t n = 0;
    int rc = 0;
    if (!part || !used || !xyz || pieces_adjacency(&c)) {
        rc = nv_error_fail(err, NV_ENOMEM, "shape: out of memory");
        goto done;
    }
    const uint32_t parts = pieces_parts(h, part, used);
    if (parts > max_pieces) {
        rc = nv_error_set(err, "the mesh has %u separate closed parts; at most %u", parts, max_pieces);
        goto done;
    }
    /* each part a piece, its triangles in order, its region the whole space */
    for (uint32_t q = 0; q < parts; q++) {
        piece_work* p = &work[n++];
        p->region = (shape_region){{-INFINITY, -INFINITY}, {INFINITY, INFINITY}};
        p->tris = malloc((size_t)(h->triangle_count ? h->triangle_count : 1) * sizeof *p->tris);
        if (!p->tris) {
            rc = nv_error_fail(err, NV_ENOMEM, "shape: out of memory");
            goto done;
        }
        for (uint32_t t = 0; t < h->triangle_count; t++)
            if (part[h->triangles[3 * t]] == q) p->tris[p->tri_count++] = t;
        if (pieces_measure(&c, p, err)) {
            rc = nv_error_prefix(err, "part %u of %u", q + 1, parts);
            goto done;
        }
    }
    if (tolerance > 0.0) pieces_cut(&c, work, &n, max_pieces, tolerance);
    if (n <= 1) goto done; /* one piece: the type's own shape */
    shape* pieces = calloc(n, sizeof *pieces);
    shape_region* reg = malloc((size_t)n * sizeof *reg);
    if (!pieces || !reg) {
        free(pieces), free(reg);
        rc = nv_error_fail(err, NV_ENOMEM, "shape: out of memory");
        goto done;
    }
    for (uint32_t k = 0; k < n; k++) {
        reg[k] = work[k].region;
        int whole = !isfinite(reg[k].lo[0]) && !isfinite(reg[k].hi[0]) && !isfinite(reg[k].lo[1]) && !isfinite(reg[k].hi[1]);
        if (whole) {
            /* a part not cut: as parts always were (the same corners, the same order) */
            if (pieces_whole_part(h, part, part[h->triangles[3 * work[k].tris[0]]], xyz, &pieces[k], err)) {
                for (uint32_t j = 0; j < k; j++) shape_free(&pieces[j]);
                free(pieces), free(reg);
                rc = nv_error_prefix(err, "piece %u of %u", k + 1, n);
                goto done;
            }
        } else {
            pieces[k] = work[k].hull;
            memset(&work[k].hull, 0, sizeof work[k].hull);
        }
    }
    *out = pieces;
    *regions = reg;
    *count = n;
done:
    for (uint32_t k = 0; k < n; k++) pieces_work_free(&work[k]);
    pieces_ctx_free(&c);
    free(part);
    free(used);
    free(xyz);
    return rc;
}
