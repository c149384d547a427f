// SPDX-License-Identifier: MIT
#include "lanes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "avoid.h"
#include "naval/vecmath.h"

#define LANES_STEP_M 10.0      /* the terrain looked at along a lane this often */
#define LANES_LIMIT_M 20000.0  /* no lane wider than this */
#define LANES_RADIUS_MIN 40.0

/* The lane's frame: u along the axis, w to port of it (heading + 90 degrees). */
static void lane_axes(const lane* l, double* ux, double* uz, double* wx, double* wz) {
    *ux = cos(l->axis), *uz = -sin(l->axis);
    *wx = -sin(l->axis), *wz = -cos(l->axis);
}

double lane_perimeter(const lane* l) { return 4.0 * l->half_straight + 2.0 * NV_PI * l->radius; }

/* s into [0, P): a step or two without a division for the arcs the helm
 * asks (an arc plus a look ahead), fmod for the rest. */
static double lane_wrap(double s, double P) {
    if (s >= P) s -= P;
    else if (s < 0.0) s += P;
    if (s >= 0.0 && s < P) return s;
    s = fmod(s, P);
    return s < 0.0 ? s + P : s;
}

/* Round the stadium counterclockwise in (u, w), so always turning to port:
 * the starboard straight (w = -r) along +u, the far end, the port straight
 * back, the near end. (dx, dz): the unit tangent, the way round. */
void lane_frame(const lane* l, double s, double* x, double* z, double* dx, double* dz) {
    const double L = l->half_straight, r = l->radius, P = lane_perimeter(l);
    s = lane_wrap(s, P);
    double u, w, tu, tw;
    if (s < 2.0 * L) {
        u = -L + s, w = -r, tu = 1.0, tw = 0.0;
    } else if (s < 2.0 * L + NV_PI * r) {
        double th = (s - 2.0 * L) / r;
        u = L + r * sin(th), w = -r * cos(th), tu = cos(th), tw = sin(th);
    } else if (s < 4.0 * L + NV_PI * r) {
        u = L - (s - 2.0 * L - NV_PI * r), w = r, tu = -1.0, tw = 0.0;
    } else {
        double th = (s - 4.0 * L - NV_PI * r) / r;
        u = -L - r * sin(th), w = r * cos(th), tu = -cos(th), tw = -sin(th);
    }
    double ux, uz, wx, wz;
    lane_axes(l, &ux, &uz, &wx, &wz);
    *x = l->cx + u * ux + w * wx;
    *z = l->cz + u * uz + w * wz;
    *dx = tu * ux + tw * wx;
    *dz = tu * uz + tw * wz;
}

void lane_point(const lane* l, double s, double* x, double* z, double* heading) {
    double dx, dz;
    lane_frame(l, s, x, z, &dx, &dz);
    if (heading) *heading = atan2(-dz, dx);
}

double lane_project(const lane* l, double x, double z) {
    const double L = l->half_straight, r = l->radius;
    double ux, uz, wx, wz;
    lane_axes(l, &ux, &uz, &wx, &wz);
    const double dx = x - l->cx, dz = z - l->cz;
    const double u = dx * ux + dz * uz, w = dx * wx + dz * wz;
    double s;
    if (u > L) s = 2.0 * L + r * atan2(u - L, -w);                     /* theta in [0, pi] */
    else if (u < -L) s = 4.0 * L + NV_PI * r + r * atan2(-(u + L), w); /* theta in [0, pi] */
    else if (w < 0.0) s = u + L;
    else s = 2.0 * L + NV_PI * r + (L - u);
    return lane_wrap(s, lane_perimeter(l));
}

double lane_ahead(const lane* l, double from, double to) { return lane_wrap(to - from, lane_perimeter(l)); }

lane lanes_berth(double face_x, double z_from, double z_to, double berth_z, double beam, double gap, double radius,
                 double length, double speed, uint32_t type, uint32_t ticks) {
    /* the axis toward -z (heading +90 degrees): the port straight, the
     * stadium's west side, runs back up it toward +z */
    const double half = 0.5 * fabs(z_to - z_from);
    lane l = {.cx = face_x + 0.5 * beam + gap + radius, .cz = 0.5 * (z_from + z_to), .axis = 0.5 * NV_PI,
              .half_straight = half, .radius = radius, .look = fmax(10.0, 2.0 * length),
              .clear = 1.5 * length + AVOID_MARGIN_M, .throttle = LANES_THROTTLE, .speed = speed,
              .berth_ticks = ticks, .type = type, .boats = 0};
    /* the port straight begins (s = 2L + pi r) at its south end, z = cz - L */
    const double up = berth_z - (l.cz - half);
    l.berth = 2.0 * half + NV_PI * radius + (up < 0.0 ? 0.0 : (up > 2.0 * half ? 2.0 * half : up));
    return l;
}

lane lanes_beach(double sx, double sz, double standoff, double half_straight, double radius, double length,
                 double speed, uint32_t type, uint32_t ticks) {
    /* the axis toward -x: port (w) is +z, the shore's side */
    lane l = {.cx = sx, .cz = sz - standoff - radius, .axis = NV_PI, .half_straight = half_straight,
              .radius = radius, .look = fmax(10.0, 2.0 * length), .clear = 1.5 * length + AVOID_MARGIN_M,
              .throttle = LANES_THROTTLE, .speed = speed, .berth_ticks = ticks, .beach = 1, .type = type, .boats = 0};
    l.berth = 3.0 * half_straight + NV_PI * radius; /* the port straight's middle */
    return l;
}

/* Deep water all along the lane, `reach` metres either side. */
static int lanes_clear(const nv_terrain* t, const lane* l, double reach) {
    if (!t) return 1;
    const double P = lane_perimeter(l);
    for (double s = 0.0; s < P; s += LANES_STEP_M) {
        double x, z;
        lane_point(l, s, &x, &z, NULL);
        if (nv_terrain_max_in(t, x - reach, z - reach, x + reach, z + reach) > -LANES_DEPTH_M) return 0;
    }
    return 1;
}

/* Close quarters between boats of lengths a and b (avoid.h), and room for the waves. */
static double lanes_apart(double a, double b) { return 1.5 * 0.5 * (a + b) + AVOID_MARGIN_M + LANES_MARGIN_M; }

static int lanes_shorter(const void* pa, const void* pb) {
    const lanes_fleet *a = pa, *b = pb;
    if (a->length != b->length) return a->length < b->length ? -1 : 1;
    return a->type < b->type ? -1 : (a->type > b->type);
}

int lanes_plan(const nv_terrain* t, double cx, double cz, double axis, double half_straight, const lanes_fleet* f,
               uint32_t n, lane** out, uint32_t* count, char* why, size_t why_size) {
    *out = NULL;
    *count = 0;
    lanes_fleet* order = malloc((n ? n : 1) * sizeof *order);
    lane* lanes = malloc(LANES_MAX * sizeof *lanes);
    if (!order || !lanes) {
        free(order), free(lanes);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) order[i] = f[i];
    qsort(order, n, sizeof *order, lanes_shorter);
    uint32_t made = 0;
    double r = LANES_RADIUS_MIN, prev_len = -1.0;
    for (uint32_t k = 0; k < n; k++) {
        const lanes_fleet* g = &order[k];
        if (!g->boats) continue;
        const double spacing = lanes_apart(g->length, g->length); /* also the lanes' separation */
        const double sep = prev_len < 0.0 ? 0.0 : lanes_apart(prev_len, g->length);
        r += sep;
        uint32_t first = made;
        double room = 0.0; /* boats the fleet's lanes hold at its spacing */
        while (room < g->boats) {
            if (made == LANES_MAX || r > LANES_LIMIT_M) {
                snprintf(why, why_size, "%u boats of type %u need more than %u lanes within %.0f km", g->boats, g->type,
                         LANES_MAX, LANES_LIMIT_M / 1000.0);
                free(order), free(lanes);
                return -1;
            }
            lane* l = &lanes[made];
            *l = (lane){.cx = cx, .cz = cz, .axis = axis, .half_straight = half_straight, .radius = r,
                        .look = fmax(40.0, 1.5 * g->length),
                        .clear = 1.5 * g->length + AVOID_MARGIN_M, .throttle = LANES_THROTTLE,
                        .speed = g->length > LANES_SHIP_M ? LANES_SHIP_SPEED : LANES_SPEED, .berth = -1.0,
                        .type = g->type};
            if (!lanes_clear(t, l, 0.5 * spacing)) {
                r += LANES_STEP_M;
                continue;
            }
            room += floor(lane_perimeter(l) / (LANES_ROOM * spacing));
            made++;
            r += spacing;
        }
        r -= spacing;
        /* The boats shared out by lane length, the rest to the first lanes. */
        double total = 0.0;
        for (uint32_t i = first; i < made; i++) total += lane_perimeter(&lanes[i]);
        uint32_t given = 0;
        for (uint32_t i = first; i < made; i++) {
            lanes[i].boats = (uint32_t)floor(g->boats * lane_perimeter(&lanes[i]) / total);
            given += lanes[i].boats;
        }
        for (uint32_t i = first; given < g->boats; i = i + 1 < made ? i + 1 : first) lanes[i].boats++, given++;
        prev_len = g->length;
    }
    free(order);
    *out = lanes;
    *count = made;
    return 0;
}
