// SPDX-License-Identifier: MIT
/* A hull type's collision shape: the convex hull of its vertices (qhull),
 * kept as the hull's corner points in the body frame, and its support
 * mapping for MPR (libccd), swept by a sphere so that two shapes
 * "touch" a margin before they meet (speculative contacts).
 *
 * Why the convex hull: a ship's hull is nearly convex above the keel, one
 * shape per type costs one support search per MPR iteration over a few
 * dozen points, and it never misses a contact (it can only add a little
 * volume at a concave stern). A hull made of several closed parts (a
 * catamaran's two hulls) has one convex hull per part, so the water
 * between them stays water, and a hollow part (a dock's slip) is cut
 * into pieces that fit (shape_build_pieces, core/shape_pieces.c). */
#ifndef NAVAL_SHAPE_H
#define NAVAL_SHAPE_H

#include <stdint.h>

#include "naval/hull.h"
#include "naval/nv_error.h"
#include "naval/vecmath.h"

typedef struct shape {
    double* points; /* 3 per corner, body frame (relative to the CG) */
    uint32_t count;
    double* planes; /* 4 per face: outward unit normal n and offset d, n . p + d <= 0 inside */
    uint32_t plane_count;
    uint32_t* triangles; /* 3 per face, indices into points, counter-clockwise seen from outside (for drawing) */
    uint32_t triangle_count;
    double radius; /* m, the farthest corner from the CG */
    /* the corners again as three columns (x, then y, then z), each
     * soa_stride long (count rounded up to 4, the last corner repeated):
     * the support distance's loop, two lanes at a time */
    double* soa;
    uint32_t soa_stride;
} shape;

/* The convex hull of the hull's vertices. */
int shape_build(shape* s, const nv_hull* h, nv_error* err);
/* The convex hull of n points (x[k * stride], y[k * stride], z[k * stride]). */
int shape_build_points(shape* s, const float* x, const float* y, const float* z, uint32_t stride, uint32_t n,
                       nv_error* err);
void shape_free(shape* s);
/* The pieces a hull collides as (core/shape_pieces.c): one convex hull
 * per connected part of its mesh (triangles that share a vertex are one
 * part: a catamaran's two hulls and the deck between them are three),
 * numbered in the order of each part's first vertex, and a part whose
 * surface lies deeper than `tolerance` m inside its convex hull (a notch,
 * a tunnel, a concave stern; 0: never) cut across (x) or along (z) the
 * hull into pieces that fit, at most max_pieces (SHAPE_MAX_PIECES at
 * most) in all. Each piece's region is where it was cut from (x, z bounds
 * in the body frame; infinite where not cut): a bound is a face the piece
 * shares with the piece beyond it. More parts than max_pieces is refused
 * before any is built. A hull that stays one piece gets none (*out and
 * *regions NULL, *count 1): its shape_build is the piece. */
#define SHAPE_MAX_PIECES 16u
typedef struct shape_region {
    double lo[2], hi[2]; /* x, then z */
} shape_region;
int shape_build_pieces(shape** out, shape_region** regions, uint32_t* count, const nv_hull* h, uint32_t max_pieces,
                       double tolerance, nv_error* err);

/* A shape placed in the world, swept by a sphere of `margin` m. */
typedef struct shape_pose {
    const shape* shape;
    nv_vec3 position;
    nv_mat3 rotation; /* body -> world */
    double margin;
} shape_pose;

/* The penetration of two placed shapes: 0 when the swept shapes overlap
 * (MPR, libccd), with the least depth of that overlap found (MPR's normal
 * refined on the sphere, the face normals near it, and every face normal
 * of both when that leaves the cores more than 2 cm into each other), the
 * unit normal pointing from a to b (b moved by depth along it would only
 * touch a) and a point in the overlap; -1 when they do not. */
int shape_penetration(const shape_pose* a, const shape_pose* b, double* depth, nv_vec3* normal, nv_vec3* point);
/* The same, for a pair that overlapped last step along *hint (unit, a to
 * b): the least overlap moves little in a step, so the search starts from
 * there (and MPR's) instead of sweeping the whole sphere, which is what
 * made a pair that stays deep for many steps cost 0.3 ms each step. NULL:
 * shape_penetration. */
int shape_penetration_from(const shape_pose* a, const shape_pose* b, const nv_vec3* hint, double* depth,
                           nv_vec3* normal, nv_vec3* point);

/* The least overlap of two placed shapes (their sweeps counted) over the
 * horizontal directions, and that direction (unit, y 0, from a to b): how
 * far b must move across the water, not over or under a, to only touch
 * it. A sampled search over the circle refined by golden section: the
 * overlap along a direction is the sum of two support distances, convex
 * in the direction but not in its angle, so the samples find the basin. */
double shape_overlap_horizontal(const shape_pose* a, const shape_pose* b, nv_vec3* normal);
/* The same over the directions in the plane of the unit vectors u and v
 * (perpendicular): the least overlap that does not cross a given axis. */
double shape_overlap_in_plane(const shape_pose* a, const shape_pose* b, nv_vec3 u, nv_vec3 v, nv_vec3* normal);
/* How far the placed shapes overlap along the unit direction n (a to b),
 * their sweeps counted. */
double shape_overlap_along(const shape_pose* a, const shape_pose* b, nv_vec3 n);

/* How far a world point lies outside the placed shape (its farthest face
 * plane; <= 0 inside), the sweep not counted. */
double shape_outside(const shape_pose* p, nv_vec3 point);

#endif
