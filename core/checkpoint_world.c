// SPDX-License-Identifier: MIT
/* Between a world and a checkpoint: the capture (a copy of everything the
 * checkpoint holds, taken between ticks) and the restore (a world rebuilt
 * from one, the same to the bit). */
#include <stdlib.h>
#include <string.h>

#include "checkpoint_internal.h"
#include "world_internal.h" /* the touching pairs */
#include "naval/hull.h"

static uint64_t ckp_fnv(uint64_t h, const void* data, size_t n) {
    const uint8_t* p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static nv_checkpoint_fingerprint ckp_fingerprint_of(const nv_hull* h) {
    nv_checkpoint_fingerprint f = {h->vertex_count, h->triangle_count, h->body.mass, 0xcbf29ce484222325ull};
    f.geometry_hash = ckp_fnv(f.geometry_hash, h->vx, h->vertex_count * sizeof(float));
    f.geometry_hash = ckp_fnv(f.geometry_hash, h->vy, h->vertex_count * sizeof(float));
    f.geometry_hash = ckp_fnv(f.geometry_hash, h->vz, h->vertex_count * sizeof(float));
    f.geometry_hash = ckp_fnv(f.geometry_hash, h->triangles, 3u * h->triangle_count * sizeof(uint32_t));
    return f;
}

static int ckp_check_source(const nv_checkpoint_source* src, nv_error* err) {
    if (!src->world) return nv_error_set(err, "checkpoint: no world");
    uint32_t types = nv_world_hull_type_count(src->world);
    if (src->hull_count != types || (types && !src->hulls))
        return nv_error_set(err, "checkpoint: %u hull type descriptions for a world of %u hull types", src->hull_count,
                            types);
    for (uint32_t i = 0; i < types; i++) {
        const nv_scenario_hull* h = &src->hulls[i];
        const char* name = nv_world_hull_type_name(src->world, i);
        if (strnlen(h->name, sizeof h->name) == sizeof h->name || strcmp(h->name, name) != 0)
            return nv_error_set(err, "checkpoint: hull type %u is '%s' in the world but '%.*s' in its description", i,
                                name, (int)sizeof h->name, h->name);
        if (strnlen(h->source, sizeof h->source) == sizeof h->source || !h->source[0])
            return nv_error_set(err, "checkpoint: hull type '%s' has no source to rebuild it from", name);
    }
    if (src->owner_size && !src->owner_blob)
        return nv_error_set(err, "checkpoint: owner blob of %zu bytes is NULL", src->owner_size);
    int described = src->terrain && src->terrain->source[0];
    if (described != (nv_world_get_terrain(src->world) != NULL))
        return nv_error_set(err, "checkpoint: the world %s a terrain but its description %s",
                            described ? "has no" : "has", described ? "names one" : "names none");
    if (described && strnlen(src->terrain->source, sizeof src->terrain->source) == sizeof src->terrain->source)
        return nv_error_set(err, "checkpoint: the terrain's source is not terminated");
    uint32_t structures = nv_world_structure_count(src->world);
    if (structures && !src->structures)
        return nv_error_set(err, "checkpoint: the world has %u structures but no descriptions of them", structures);
    for (uint32_t i = 0; i < structures; i++)
        if (strnlen(src->structures[i].source, sizeof src->structures[i].source) == sizeof src->structures[i].source)
            return nv_error_set(err, "checkpoint: structure %u's source is not terminated", i);
    return 0;
}

int nv_checkpoint_capture(const nv_checkpoint_source* src, nv_checkpoint* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    if (ckp_check_source(src, err)) return -1;
    const nv_world* wd = src->world;
    nv_checkpoint* c = out;
    c->tick = nv_world_tick(wd);
    c->time = nv_world_time(wd);
    c->state_hash = nv_world_state_hash(wd);
    c->next_id = nv_world_next_id(wd);
    c->world = *nv_world_get_config(wd);
    c->wind = nv_world_get_wind(wd);
    c->lod = nv_world_get_lod(wd);
    uint32_t touching;
    const uint64_t* keys = world_pairs_touching(wd, &touching);
    if (touching) {
        if (!(c->touching = malloc(touching * sizeof *c->touching)) ||
            !(c->touching_normal = malloc(touching * sizeof *c->touching_normal))) {
            free(c->touching);
            c->touching = NULL;
            return nv_error_fail(err, NV_ENOMEM, "checkpoint: out of memory for %u touching pairs", touching);
        }
        memcpy(c->touching, keys, touching * sizeof *c->touching);
        memcpy(c->touching_normal, world_pairs_touching_normals(wd), touching * sizeof *c->touching_normal);
        c->touching_count = touching;
    }
    c->has_ocean = src->ocean != NULL;
    if (src->ocean) c->ocean = *nv_ocean_get_params(src->ocean);
    if (src->terrain) c->terrain = *src->terrain;
    const nv_terrain* ground = nv_world_get_terrain(wd);
    c->terrain_fingerprint = ground ? nv_terrain_fingerprint(ground) : 0;
    c->contacts = nv_world_get_contacts(wd);
    c->structure_count = nv_world_structure_count(wd);
    if (c->structure_count) {
        c->structures = malloc(c->structure_count * sizeof *c->structures);
        c->structure_fingerprints = malloc(c->structure_count * sizeof *c->structure_fingerprints);
        if (!c->structures || !c->structure_fingerprints) {
            nv_checkpoint_free(c);
            return nv_error_fail(err, NV_ENOMEM, "checkpoint: out of memory for %u structures",
                                 nv_world_structure_count(wd));
        }
        for (uint32_t i = 0; i < c->structure_count; i++) {
            c->structures[i] = src->structures[i];
            c->structure_fingerprints[i] = nv_world_structure_fingerprint(wd, i);
        }
    }
    c->hull_count = src->hull_count;
    c->vessel_count = nv_world_vessel_count(wd);
    size_t slam_total = 0;
    for (uint32_t s = 0; s < c->vessel_count; s++) {
        nv_world_vessel_record r;
        nv_world_export_vessel(wd, s, &r);
        slam_total += r.slam_count;
    }
    c->hulls = calloc(c->hull_count ? c->hull_count : 1, sizeof *c->hulls);
    c->fingerprints = calloc(c->hull_count ? c->hull_count : 1, sizeof *c->fingerprints);
    c->compartment_counts = calloc(c->hull_count ? c->hull_count : 1, sizeof *c->compartment_counts);
    c->vessels = calloc(c->vessel_count ? c->vessel_count : 1, sizeof *c->vessels);
    c->slam_storage = malloc((slam_total ? slam_total : 1) * sizeof(uint16_t));
    c->owner_size = src->owner_size;
    c->owner_blob = malloc(src->owner_size ? src->owner_size : 1);
    if (!c->hulls || !c->fingerprints || !c->compartment_counts || !c->vessels || !c->slam_storage ||
        !c->owner_blob) {
        nv_checkpoint_free(c);
        return nv_error_fail(err, NV_ENOMEM, "checkpoint: out of memory for %u vessels", nv_world_vessel_count(wd));
    }
    for (uint32_t i = 0; i < c->hull_count; i++) {
        c->hulls[i] = src->hulls[i];
        /* the world's dynamics are the ones in force (and carry its water density) */
        if (c->hulls[i].has_dynamics) c->hulls[i].dynamics = *nv_world_type_dynamics(wd, i);
        c->fingerprints[i] = ckp_fingerprint_of(nv_world_hull_type(wd, i));
        const nv_compartment_set* cs = nv_world_type_compartments(wd, i);
        c->compartment_counts[i] = cs ? cs->count : 0;
        const nv_vessel_compartments* d = &c->hulls[i].compartments;
        if (cs && !d->bulkhead_count && !d->longitudinal_count) {
            nv_error_set(err, "checkpoint: hull type '%s' has compartments its description does not name",
                         c->hulls[i].name);
            nv_checkpoint_free(c);
            return -1;
        }
    }
    uint16_t* slam = c->slam_storage;
    for (uint32_t s = 0; s < c->vessel_count; s++) {
        nv_world_vessel_record* r = &c->vessels[s];
        nv_world_export_vessel(wd, s, r);
        if (r->slam_count) {
            memcpy(slam, r->slam, (size_t)r->slam_count * sizeof(uint16_t));
            r->slam = slam;
            slam += r->slam_count;
        }
        if (r->flood) {
            nv_flood_state* copy = malloc(sizeof *copy);
            if (!copy) {
                r->flood = NULL;
                nv_checkpoint_free(c);
                return nv_error_fail(err, NV_ENOMEM, "checkpoint: out of memory for a vessel's flooding");
            }
            *copy = *r->flood;
            r->flood = copy;
        }
    }
    if (src->owner_size) memcpy(c->owner_blob, src->owner_blob, src->owner_size);
    return 0;
}

/* ---- restore ---------------------------------------------------------- */

int nv_checkpoint_restore(const nv_checkpoint* c, nv_jobs* pool, nv_scenario_instance* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    /* The types and the water through the same path the scenario took, so
     * every derived number is computed the same way. */
    nv_scenario scn;
    memset(&scn, 0, sizeof scn);
    scn.world = c->world;
    scn.has_ocean = c->has_ocean;
    scn.ocean = c->ocean;
    scn.wind = c->wind;
    scn.hulls = c->hulls;
    scn.hull_count = c->hull_count;
    scn.terrain = c->terrain;
    scn.contacts = c->contacts;
    scn.structures = c->structures;
    scn.structure_count = c->structure_count;
    if (nv_scenario_instantiate(&scn, pool, out, err)) return nv_error_prefix(err, "restore");
    nv_world* w = out->world;
    if (out->terrain && nv_terrain_fingerprint(out->terrain) != c->terrain_fingerprint) {
        nv_error_set(err,
                     "restore: the terrain from %s is not the one the checkpoint was taken with: did its "
                     "heightmap change?",
                     c->terrain.source);
        goto fail;
    }
    for (uint32_t i = 0; i < c->structure_count; i++)
        if (nv_world_structure_fingerprint(w, i) != c->structure_fingerprints[i]) {
            nv_error_set(err,
                         "restore: structure %u from %s is not the one the checkpoint was taken with: did its mesh "
                         "change?",
                         i, c->structures[i].source[0] ? c->structures[i].source : "a box");
            goto fail;
        }
    nv_world_set_wind(w, c->wind);
    nv_world_set_lod(w, &c->lod);
    for (uint32_t i = 0; i < c->hull_count; i++) {
        nv_checkpoint_fingerprint now = ckp_fingerprint_of(nv_world_hull_type(w, i));
        const nv_checkpoint_fingerprint* then = &c->fingerprints[i];
        if (now.vertex_count != then->vertex_count || now.triangle_count != then->triangle_count ||
            now.mass != then->mass || now.geometry_hash != then->geometry_hash) {
            nv_error_set(err,
                         "restore: hull type '%s' from %s is not the hull the checkpoint was taken with (%u vertices, "
                         "%u triangles, %.9g kg now; %u, %u, %.9g kg then): did its mesh file change?",
                         c->hulls[i].name, c->hulls[i].source, now.vertex_count, now.triangle_count, now.mass,
                         then->vertex_count, then->triangle_count, then->mass);
            goto fail;
        }
        const nv_compartment_set* cs = nv_world_type_compartments(w, i);
        if ((cs ? cs->count : 0) != c->compartment_counts[i]) {
            nv_error_set(err, "restore: hull type '%s' has %u compartments now, %u then", c->hulls[i].name,
                         cs ? cs->count : 0, c->compartment_counts[i]);
            goto fail;
        }
    }
    for (uint32_t i = 0; i < c->vessel_count; i++)
        if (nv_world_restore_vessel(w, &c->vessels[i], err)) goto fail;
    if (nv_world_set_next_id(w, c->next_id, err)) goto fail;
    if (world_pairs_set_touching(w, c->touching, c->touching_normal, c->touching_count)) {
        nv_error_fail(err, NV_ENOMEM, "restore: out of memory for %u touching pairs", c->touching_count);
        goto fail;
    }
    nv_world_set_clock(w, c->tick);
    uint64_t hash = nv_world_state_hash(w);
    if (hash != c->state_hash) {
        nv_error_set(err, "restore: the rebuilt world's state hash %016llx differs from the checkpoint's %016llx",
                     (unsigned long long)hash, (unsigned long long)c->state_hash);
        goto fail;
    }
    return 0;
fail:
    nv_scenario_instance_destroy(out);
    return -1;
}
