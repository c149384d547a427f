// SPDX-License-Identifier: MIT
/* Damage to vessels (world.h): breaches by request and by contacts, the
 * pumps, and the step's damage events (a compartment full, a capsize, a
 * vessel sunk or removed at depth). The flooding itself runs per vessel
 * in the integration pass (nv_flood_step); this is the serial part after
 * it, in a fixed order, so the events are the same at every thread
 * count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "naval/ranges.h"
#include "naval/statics.h"
#include "world_internal.h"

static int damage_push(nv_world_damage_event** list, uint32_t* count, uint32_t* capacity, nv_world_damage_event e) {
    if (GROW(list, capacity, *count + 1, 16)) return -1;
    (*list)[(*count)++] = e;
    return 0;
}

/* The vessel's flooding state, made on first use. */
static nv_flood_state* damage_state(nv_world* w, uint32_t s) {
    if (!w->v.flood[s]) w->v.flood[s] = calloc(1, sizeof(nv_flood_state));
    return w->v.flood[s];
}

int nv_world_breach(nv_world* w, uint32_t id, nv_vec3 point, double area, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    uint32_t s = world_slot_of(w, id);
    if (s == UINT32_MAX) return nv_error_fail(err, NV_ENOENT, "breach: no vessel with id %u", id);
    const world_type* t = &w->types[w->v.type[s]];
    if (!t->compartments)
        return nv_error_set(err, "breach: vessel %u's type '%s' has no compartments", id, t->name);
    int fresh = w->v.flood[s] == NULL;
    nv_flood_state* fs = damage_state(w, s);
    if (!fs) return nv_error_fail(err, NV_ENOMEM, "breach: out of memory");
    if (nv_flood_breach(t->compartments, fs, point, area, err)) {
        if (fresh) free(fs), w->v.flood[s] = NULL;
        return -1;
    }
    world_damage* d = &w->damage;
    if (damage_push(&d->pending, &d->pending_count, &d->pending_capacity,
                    (nv_world_damage_event){0, id, WORLD_DAMAGE_BREACH, fs->holes[fs->hole_count - 1].compartment, area,
                                         point})) {
        fs->hole_count--; /* no hole without its event */
        if (fresh) free(fs), w->v.flood[s] = NULL;
        return nv_error_fail(err, NV_ENOMEM, "breach: out of memory");
    }
    WORLD_RECORD(w, breach, .id = id, .point = point, .area = area);
    return 0;
}

const nv_compartment_set* nv_world_type_compartments(const nv_world* w, uint32_t type) {
    return type < w->type_count ? w->types[type].compartments : NULL;
}

int nv_world_set_pumps(nv_world* w, uint32_t id, int on, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    uint32_t s = world_slot_of(w, id);
    if (s == UINT32_MAX) return nv_error_fail(err, NV_ENOENT, "pumps: no vessel with id %u", id);
    const world_type* t = &w->types[w->v.type[s]];
    if (!t->compartments)
        return nv_error_set(err, "pumps: vessel %u's type '%s' has no compartments", id, t->name);
    if (!(t->compartments->damage.pump_rate > 0.0))
        return nv_error_set(err, "pumps: vessel %u's type '%s' has no pumps", id, t->name);
    if (on || w->v.flood[s]) {
        nv_flood_state* fs = damage_state(w, s);
        if (!fs) return nv_error_fail(err, NV_ENOMEM, "pumps: out of memory");
        fs->pumping = on ? 1 : 0;
    }
    WORLD_RECORD(w, pumps, .id = id, .on = on);
    return 0;
}

int nv_world_set_sunk_removal_depth(nv_world* w, double depth, nv_error* err) {
    WORLD_CHECK_UNLOCKED(w);
    if (nv_range_check(NV_RANGE_WORLD_SUNK_REMOVAL_DEPTH, depth, "sunk_removal_depth", err)) return -1;
    w->cfg.sunk_removal_depth = depth;
    WORLD_RECORD(w, sunk_removal_depth, .depth = depth);
    return 0;
}

uint32_t nv_world_breached_count(const nv_world* w) {
    uint32_t n = 0;
    for (uint32_t s = 0; s < w->count; s++) n += w->v.flood[s] != NULL;
    return n;
}

int nv_world_flooding(const nv_world* w, uint32_t id, nv_flood_state* out) {
    uint32_t s = world_slot_of(w, id);
    memset(out, 0, sizeof *out);
    if (s == UINT32_MAX) return -1;
    if (w->v.flood[s]) *out = *w->v.flood[s];
    return 0;
}

const nv_flood_state* nv_world_flood_of(const nv_world* w, uint32_t id) {
    uint32_t s = world_slot_of(w, id);
    return s == UINT32_MAX ? NULL : w->v.flood[s];
}

uint32_t nv_world_damaged_ids(const nv_world* w, uint32_t* ids, uint32_t cap) {
    uint32_t n = 0;
    for (uint32_t s = 0; s < w->count; s++)
        if (w->v.flood[s]) {
            if (n < cap) ids[n] = w->v.id[s];
            n++;
        }
    return n;
}

/* One definition of capsized, the statics' (core/statics.c does not know
 * the world). */
int nv_world_capsized(nv_quat q) { return nv_statics_capsized(q); }

const nv_world_damage_event* nv_world_damage_events(const nv_world* w, uint32_t* count) {
    *count = w->damage.event_count;
    return w->damage.events;
}

static int damage_breaks(const nv_world* w, uint32_t s, double closing) {
    const nv_compartment_set* cs = w->types[w->v.type[s]].compartments;
    return cs && cs->damage.breach_speed > 0.0 && closing > cs->damage.breach_speed;
}

/* A hole of `area` m^2 in vessel s at the contact's point, in the
 * compartment whose cell holds it (the point lies on the skin, or a little
 * off it: it is kept inside the cells). */
static void damage_from_contact(nv_world* w, uint32_t s, nv_vec3 point, double area, uint64_t tick) {
    const world_type* t = &w->types[w->v.type[s]];
    const nv_compartment_set* cs = t->compartments;
    if (!cs || !(area > 0.0) || w->v.flags[s] & WORLD_VESSEL_FROZEN) return;
    body b = world_load_body(w, s);
    nv_mat3 r = quat_to_mat3(b.orientation);
    nv_mat3 rt = m3_transpose(&r);
    nv_vec3 p = m3_mul_v3(&rt, v3_sub(point, b.position));
    nv_vec3 cell = v3(fmin(fmax(p.x, cs->x_bounds[0]), cs->x_bounds[cs->nx]), p.y,
                   fmin(fmax(p.z, cs->z_bounds[0]), cs->z_bounds[cs->nz]));
    uint32_t k = nv_compartment_at(cs, cell);
    nv_flood_state* fs = damage_state(w, s);
    if (k == UINT32_MAX || !fs || nv_flood_add_hole(cs, fs, k, p, area, NULL)) return;
    world_damage* d = &w->damage;
    damage_push(&d->events, &d->event_count, &d->event_capacity,
                (nv_world_damage_event){tick, w->v.id[s], WORLD_DAMAGE_BREACH, k, area, p});
}

/* 1 / the mass vessel s puts against a blow at `point` along the unit `n`
 * (world): its mass with the added mass of the water it must push (the
 * type's fractions per body axis, when its forces include added mass),
 * and its rotation about the CG: 1/m_n + (r x n) . I^-1 (r x n), as a
 * contact solver's effective mass. */
static double damage_inverse_mass(const nv_world* w, uint32_t s, nv_vec3 point, nv_vec3 n) {
    const world_type* t = &w->types[w->v.type[s]];
    body b = world_load_body(w, s);
    nv_mat3 r = quat_to_mat3(b.orientation), rt = m3_transpose(&r);
    nv_vec3 nb = m3_mul_v3(&rt, n); /* body frame */
    nv_vec3 added = v3(0.0, 0.0, 0.0);
    if (t->dynamics.coeffs.forces & HYDRODYN_ADDED_MASS) added = t->dynamics.coeffs.added_mass;
    double inv = nb.x * nb.x / (b.mass * (1.0 + added.x)) + nb.y * nb.y / (b.mass * (1.0 + added.y)) +
                 nb.z * nb.z / (b.mass * (1.0 + added.z));
    nv_vec3 rn = v3_cross(m3_mul_v3(&rt, v3_sub(point, b.position)), nb);
    inv += v3_dot(rn, m3_mul_v3(&b.inverse_inertia, rn));
    return isfinite(inv) && inv > 0.0 ? inv : 0.0;
}

/* The hull's shell, if it is holed by impact energy (plating > 0): the
 * plating in m, else 0 (rigid for the split: a structure, the ground, a
 * type without it). */
static double damage_plating(const nv_world* w, uint32_t s) {
    if (s == UINT32_MAX) return 0.0;
    const nv_compartment_set* cs = w->types[w->v.type[s]].compartments;
    return cs && cs->damage.plating > 0.0 ? cs->damage.plating : 0.0;
}

/* The hole a blow of `share` J makes in vessel s's shell by Minorsky's
 * correlation, energy = 47.2 MJ per m^3 of steel destroyed: the share past
 * the type's breach_energy tears (share - E0) / (47.2e6 t) m^2 of plating
 * of thickness t. 0: no hole. */
static double damage_hole_area(const nv_world* w, uint32_t s, double share) {
    const nv_compartment_set* cs = w->types[w->v.type[s]].compartments;
    double torn = share - cs->damage.breach_energy;
    if (!(torn > 0.0)) return 0.0;
    double area = torn / (MINORSKY_ENERGY_PER_VOLUME * cs->damage.plating);
    const nv_range* r = nv_range_get(NV_RANGE_TYPE_HOLE_AREA);
    return fmin(area, r->hi);
}

/* A contact's damage. By impact energy where a hull has a plating: the
 * kinetic energy the blow takes out of the closing motion, fully plastic
 * along the normal, E = v^2 / (2 (1/M_a + 1/M_b)) with each side's mass
 * against the blow (the ground's is infinite), shared between the two
 * shells as their compliances (1 / plating: the thinner crumples more; a
 * side without plating is rigid). Else by the type's breach_speed. */
static void damage_from_contact_event(nv_world* w, const nv_world_contact_event* c, uint64_t tick) {
    uint32_t sa = world_slot_of(w, c->id_a);
    uint32_t sb = c->id_b == WORLD_CONTACT_GROUND ? UINT32_MAX : world_slot_of(w, c->id_b);
    double ta = sa == UINT32_MAX ? 0.0 : damage_plating(w, sa), tb = damage_plating(w, sb);
    if (ta > 0.0 || tb > 0.0) {
        double inv = (sa == UINT32_MAX ? 0.0 : damage_inverse_mass(w, sa, c->point, c->normal)) +
                     (sb == UINT32_MAX ? 0.0 : damage_inverse_mass(w, sb, c->point, c->normal));
        double v = c->closing_speed, energy = inv > 0.0 && isfinite(v) ? 0.5 * v * v / inv : 0.0;
        double ca = ta > 0.0 ? 1.0 / ta : 0.0, cb = tb > 0.0 ? 1.0 / tb : 0.0;
        if (ta > 0.0) damage_from_contact(w, sa, c->point, damage_hole_area(w, sa, energy * ca / (ca + cb)), tick);
        if (tb > 0.0) damage_from_contact(w, sb, c->point, damage_hole_area(w, sb, energy * cb / (ca + cb)), tick);
    }
    if (sa != UINT32_MAX && ta == 0.0 && damage_breaks(w, sa, c->closing_speed))
        damage_from_contact(w, sa, c->point, w->types[w->v.type[sa]].compartments->damage.breach_area, tick);
    if (sb != UINT32_MAX && tb == 0.0 && damage_breaks(w, sb, c->closing_speed))
        damage_from_contact(w, sb, c->point, w->types[w->v.type[sb]].compartments->damage.breach_area, tick);
}

/* The hull's highest point is under the still water (y = 0): the bounding
 * sphere decides most cases, the vertices the rest. */
static int damage_hull_under(const nv_world* w, uint32_t s) {
    const world_type* t = &w->types[w->v.type[s]];
    double y = w->v.py[s];
    if (y + t->radius < 0.0) return 1;
    if (y - t->radius >= 0.0) return 0;
    body b = world_load_body(w, s);
    nv_mat3 r = quat_to_mat3(b.orientation);
    const nv_hull* h = &t->hull;
    for (uint32_t i = 0; i < h->vertex_count; i++)
        if (y + r.m[1][0] * h->vx[i] + r.m[1][1] * h->vy[i] + r.m[1][2] * h->vz[i] >= 0.0) return 0;
    return 1;
}

/* Whether the vessel can no longer float: its whole watertight volume less
 * the water already in it would displace less than it weighs, fully
 * immersed (the lost-buoyancy balance rho (V - V_flood) < m; the hull's
 * volume is its compartments'). A wave trough does not change it. */
static int damage_cannot_float(const nv_world* w, uint32_t s, const nv_flood_state* fs) {
    const world_type* t = &w->types[w->v.type[s]];
    const nv_compartment_set* cs = t->compartments;
    double intact = 0.0;
    for (uint32_t k = 0; k < cs->count; k++) intact += cs->volume[k] - fs->volume[k];
    return w->cfg.water_density * intact < t->body_template.mass;
}

/* Steps in a row wholly under the still water after which a breached
 * vessel is sunk whatever its reserve (pinned down, or its volume gone
 * where the compartments do not see it): several seconds, so that a sea
 * breaking over it never counts. */
#define DAMAGE_SUNK_UNDER_S 5.0


void world_damage_step(nv_world* w) {
    world_damage* d = &w->damage;
    uint64_t tick = w->tick;
    d->event_count = 0;
    for (uint32_t i = 0; i < d->pending_count; i++) {
        nv_world_damage_event e = d->pending[i];
        e.tick = tick;
        damage_push(&d->events, &d->event_count, &d->event_capacity, e);
    }
    d->pending_count = 0;
    uint32_t nc;
    const nv_world_contact_event* contacts = nv_world_contact_events(w, &nc);
    for (uint32_t i = 0; i < nc; i++) damage_from_contact_event(w, &contacts[i], tick);
    uint32_t removed = 0;
    for (uint32_t s = 0; s < w->count; s++) {
        uint32_t id = w->v.id[s];
        nv_flood_state* fs = w->v.flood[s];
        for (uint64_t full = fs ? w->sv.became_full[s] : 0; full; full &= full - 1)
            damage_push(&d->events, &d->event_count, &d->event_capacity,
                        (nv_world_damage_event){tick, id, WORLD_DAMAGE_FULL, (uint32_t)__builtin_ctzll(full), 0.0,
                                             v3(0.0, 0.0, 0.0)});
        if (w->sv.capsized_now[s])
            damage_push(&d->events, &d->event_count, &d->event_capacity,
                        (nv_world_damage_event){tick, id, WORLD_DAMAGE_CAPSIZED, UINT32_MAX, 0.0, v3(0.0, 0.0, 0.0)});
        if (!fs || w->v.flags[s] & WORLD_VESSEL_FROZEN) continue;
        double depth = -w->v.py[s];
        int breached = nv_flood_total(fs) > 0.0;
        if (breached && !fs->sunk && damage_hull_under(w, s)) {
            if (fs->under_ticks < UINT16_MAX) fs->under_ticks++;
        } else {
            fs->under_ticks = 0;
        }
        int under_long = fs->under_ticks >= (uint32_t)ceil(DAMAGE_SUNK_UNDER_S / w->dt);
        if (!fs->sunk && breached && (damage_cannot_float(w, s, fs) || under_long)) {
            fs->sunk = 1;
            damage_push(&d->events, &d->event_count, &d->event_capacity,
                        (nv_world_damage_event){tick, id, WORLD_DAMAGE_SUNK, UINT32_MAX, 0.0, v3(0.0, 0.0, 0.0)});
        }
        if (fs->sunk && w->cfg.sunk_removal_depth > 0.0 && depth > w->cfg.sunk_removal_depth) {
            damage_push(&d->events, &d->event_count, &d->event_capacity,
                        (nv_world_damage_event){tick, id, WORLD_DAMAGE_REMOVED, UINT32_MAX, 0.0, v3(0.0, 0.0, 0.0)});
            removed++;
        }
    }
    /* After the walk: a despawn moves the last slot into the gap. */
    for (uint32_t i = 0; removed && i < d->event_count; i++)
        if (d->events[i].kind == WORLD_DAMAGE_REMOVED) world_despawn(w, d->events[i].id, NULL);
}

void world_damage_free(nv_world* w) {
    free(w->damage.events);
    free(w->damage.pending);
    memset(&w->damage, 0, sizeof w->damage);
}
