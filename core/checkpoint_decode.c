// SPDX-License-Identifier: MIT
/* The checked decoder: the bytes into a checkpoint, section by section,
 * every count bounded by the bytes that hold it; the records in the
 * sections are read in checkpoint_records.c. */
#include <stdlib.h>
#include <string.h>

#include "checkpoint_internal.h"

/* The section at r->pos must be `section`; sets r->end to its end. */
static int ckp_open_section(ckp_reader* r, int section, size_t body_end) {
    r->tag = ckp_tags[section];
    if (body_end - r->pos < CKP_SECTION_HEADER)
        return nv_error_fail(r->err, NV_EPROTO, "%s: section '%s' missing: %zu bytes left at byte %zu", r->name, r->tag,
                             body_end - r->pos, r->pos);
    const uint8_t* p = r->data + r->pos;
    if (memcmp(p, ckp_tags[section], 4) != 0) {
        char got[5];
        for (int i = 0; i < 4; i++) got[i] = (p[i] >= 32 && p[i] < 127) ? (char)p[i] : '?';
        got[4] = '\0';
        return nv_error_fail(r->err, NV_EPROTO, "%s: expected section '%s' at byte %zu, found '%s'", r->name, r->tag,
                             r->pos, got);
    }
    if (ckp_load_u32(p + 4) != 0)
        return nv_error_fail(r->err, NV_EPROTO, "%s: section '%s' has unknown flags %#x", r->name, r->tag,
                             ckp_load_u32(p + 4));
    uint64_t len = ckp_load_u64(p + 8);
    r->pos += CKP_SECTION_HEADER;
    if (len > body_end - r->pos)
        return nv_error_fail(r->err, NV_EPROTO, "%s: section '%s' at byte %zu claims %llu bytes, only %zu remain",
                             r->name, r->tag, r->pos - CKP_SECTION_HEADER, (unsigned long long)len, body_end - r->pos);
    r->end = r->pos + (size_t)len;
    r->failed = 0;
    return 0;
}

static int ckp_close_section(ckp_reader* r) {
    if (r->failed) return -1;
    if (r->pos != r->end)
        return nv_error_fail(r->err, NV_EPROTO, "%s: section '%s' has %zu unread bytes after its fields (at byte %zu)",
                             r->name, r->tag, r->end - r->pos, r->pos);
    return 0;
}

void nv_checkpoint_free(nv_checkpoint* c) {
    free(c->structures);
    free(c->structure_fingerprints);
    free(c->hulls);
    free(c->fingerprints);
    for (uint32_t i = 0; c->vessels && i < c->vessel_count; i++) free((nv_flood_state*)c->vessels[i].flood);
    free(c->vessels);
    free(c->compartment_counts);
    free(c->slam_storage);
    free(c->owner_blob);
    free(c->touching);
    free(c->touching_normal);
    memset(c, 0, sizeof *c);
}

/* The touching pairs: counted against the bytes left, strictly ascending,
 * each with its lower id first (checkpoint.h). */
static int ckp_get_touching(ckp_reader* r, nv_checkpoint* c) {
    if (!rd_need(r, 4, "the touching pairs' count")) return -1;
    uint32_t n = get_u32(r);
    if (!rd_need(r, (size_t)n * 32, "the touching pairs")) return -1;
    if (n && (!(c->touching = malloc((size_t)n * sizeof *c->touching)) ||
              !(c->touching_normal = malloc((size_t)n * sizeof *c->touching_normal)))) {
        nv_error_fail(r->err, NV_ENOMEM, "%s: out of memory for %u touching pairs", r->name, n);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint64_t key = get_u64(r);
        if ((key >> 32) >= (key & 0xFFFFFFFFu) || (i && key <= c->touching[i - 1])) {
            nv_error_fail(r->err, NV_EPROTO, "%s: touching pair %u (%016llx) is out of order or not a pair", r->name,
                          i, (unsigned long long)key);
            return -1;
        }
        c->touching[i] = key;
    }
    for (uint32_t i = 0; i < n; i++) {
        nv_vec3 v = get_v3(r);
        double len = v3_is_finite(v) ? v3_length(v) : NAN;
        if (!(fabs(len - 1.0) < 1e-6)) {
            nv_error_fail(r->err, NV_EPROTO, "%s: touching pair %u's normal is not a unit vector (length %g)", r->name, i,
                          len);
            return -1;
        }
        c->touching_normal[i] = v;
    }
    c->touching_count = n;
    return 0;
}

int nv_checkpoint_decode(const void* data, size_t size, const char* name, nv_checkpoint* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    const uint8_t* d = data;
    if (!name) name = "checkpoint";
    if (ckp_check_frame(d, size, name, err)) return -1;
    size_t body_end = size - CKP_TRAILER;
    ckp_reader r = {.data = d, .pos = CHECKPOINT_HEADER_SIZE, .name = name, .err = err};
    nv_checkpoint* c = out;

    if (ckp_open_section(&r, CKP_WORLD, body_end)) goto fail;
    uint32_t vessel_count = 0, type_count = 0;
    if (rd_need(&r, 8 + 8 + 8 + 4 * 3, "the clock and counts")) {
        c->tick = get_u64(&r);
        c->time = get_f64(&r);
        c->state_hash = get_u64(&r);
        c->next_id = get_u32(&r);
        vessel_count = get_u32(&r);
        type_count = get_u32(&r);
    }
    ckp_get_config(&r, &c->world);
    if (rd_need(&r, 3 * 8 + 1 + 3 * 8, "the wind and levels of detail")) {
        c->wind = get_v3(&r);
        c->lod.enabled = get_bool(&r, "levels of detail");
        c->lod.mesh_within = get_f64(&r);
        c->lod.columns_within = get_f64(&r);
        c->lod.hysteresis = get_f64(&r);
    }
    if (ckp_get_touching(&r, c)) goto fail;
    if (ckp_close_section(&r)) goto fail;
    /* the world derives its time from the tick this way, never by adding */
    if (!(c->world.tick_hz > 0.0) || (double)c->tick * (1.0 / c->world.tick_hz) != c->time) {
        nv_error_fail(err, NV_EPROTO, "%s: time %.17g is not tick %llu at %g Hz", name, c->time,
                      (unsigned long long)c->tick, c->world.tick_hz);
        goto fail;
    }

    if (ckp_open_section(&r, CKP_OCEAN, body_end)) goto fail;
    c->has_ocean = get_bool(&r, "the ocean's presence");
    if (c->has_ocean) ckp_get_ocean(&r, &c->ocean);
    if (ckp_close_section(&r)) goto fail;

    if (ckp_open_section(&r, CKP_GROUND, body_end)) goto fail;
    if (get_bool(&r, "the terrain's presence")) {
        get_str(&r, c->terrain.source, sizeof c->terrain.source, "the terrain's source");
        if (!r.failed && !c->terrain.source[0]) rd_fail(&r, "the terrain's source", "an empty source");
        if (rd_need(&r, 5 * 8 + 8, "the terrain's spec")) {
            c->terrain.spec.origin_x = get_f64(&r);
            c->terrain.spec.origin_z = get_f64(&r);
            c->terrain.spec.cell_size = get_f64(&r);
            c->terrain.spec.min_elevation = get_f64(&r);
            c->terrain.spec.max_elevation = get_f64(&r);
            c->terrain_fingerprint = get_u64(&r);
        }
    }
    c->contacts.enabled = get_bool(&r, "contacts enabled");
    if (rd_need(&r, 6 * 8, "the contact parameters")) {
        c->contacts.ground_friction = get_f64(&r);
        c->contacts.vessel_friction = get_f64(&r);
        c->contacts.restitution = get_f64(&r);
        c->contacts.hertz = get_f64(&r);
        c->contacts.damping_ratio = get_f64(&r);
        c->contacts.push_speed = get_f64(&r);
    }
    if (rd_need(&r, 4, "the structure count")) c->structure_count = get_u32(&r);
    /* each takes at least a string length, 7 numbers and a fingerprint */
    if (!r.failed && (uint64_t)c->structure_count * (2 + 7 * 8 + 8) > r.end - r.pos) {
        nv_error_fail(err, NV_EPROTO, "%s: section 'GRND' lists %u structures, more than its bytes hold", name,
                      c->structure_count);
        goto fail;
    }
    if (!r.failed && c->structure_count) {
        c->structures = calloc(c->structure_count, sizeof *c->structures);
        c->structure_fingerprints = calloc(c->structure_count, sizeof *c->structure_fingerprints);
        if (!c->structures || !c->structure_fingerprints) {
            nv_error_fail(err, NV_ENOMEM, "%s: out of memory for %u structures", name, c->structure_count);
            goto fail;
        }
        for (uint32_t i = 0; i < c->structure_count && !r.failed; i++) {
            nv_scenario_structure* st = &c->structures[i];
            get_str(&r, st->source, sizeof st->source, "a structure's mesh");
            if (!rd_need(&r, 7 * 8 + 8, "a structure's box and pose")) break;
            for (int k = 0; k < 3; k++) st->box[k] = get_f64(&r);
            st->x = get_f64(&r);
            st->y = get_f64(&r);
            st->z = get_f64(&r);
            st->heading_deg = get_f64(&r);
            c->structure_fingerprints[i] = get_u64(&r);
        }
    }
    if (ckp_close_section(&r)) goto fail;

    if (ckp_open_section(&r, CKP_TYPES, body_end)) goto fail;
    if (rd_need(&r, 4, "the hull type count")) c->hull_count = get_u32(&r);
    if (r.failed) goto fail;
    if (c->hull_count != type_count || c->hull_count > WORLD_MAX_HULL_TYPES ||
        (size_t)c->hull_count > (r.end - r.pos) / 40) {
        nv_error_fail(err, NV_ELIMIT,
                      "%s: section 'TYPS' lists %u hull types, the world section %u (at most %u, and each needs "
                      "40 bytes)",
                      name, c->hull_count, type_count, WORLD_MAX_HULL_TYPES);
        goto fail;
    }
    c->hulls = calloc(c->hull_count ? c->hull_count : 1, sizeof *c->hulls);
    c->fingerprints = calloc(c->hull_count ? c->hull_count : 1, sizeof *c->fingerprints);
    c->compartment_counts = calloc(c->hull_count ? c->hull_count : 1, sizeof *c->compartment_counts);
    if (!c->hulls || !c->fingerprints || !c->compartment_counts) {
        nv_error_fail(err, NV_ENOMEM, "%s: out of memory for %u hull types", name, c->hull_count);
        goto fail;
    }
    for (uint32_t i = 0; i < c->hull_count && !r.failed; i++) {
        ckp_get_type(&r, i, &c->hulls[i], &c->fingerprints[i], &c->compartment_counts[i]);
        for (uint32_t k = 0; k < i && !r.failed; k++)
            if (!strcmp(c->hulls[k].name, c->hulls[i].name)) rd_fail(&r, "hull types", "%u and %u are both named '%s'", k, i, c->hulls[i].name);
    }
    if (ckp_close_section(&r)) goto fail;

    if (ckp_open_section(&r, CKP_VESSELS, body_end)) goto fail;
    uint32_t listed = 0;
    if (rd_need(&r, 4, "the vessel count")) listed = get_u32(&r);
    if (r.failed) goto fail;
    size_t room = r.end - r.pos;
    if (listed != vessel_count || listed > WORLD_MAX_VESSELS || (size_t)listed > room / CKP_VESSEL_FIXED) {
        nv_error_fail(err, NV_ELIMIT,
                      "%s: section 'VSLS' lists %u vessels, the world section %u (at most %u, and each needs %u "
                      "bytes)",
                      name, listed, vessel_count, WORLD_MAX_VESSELS, CKP_VESSEL_FIXED);
        goto fail;
    }
    c->vessel_count = listed;
    /* Slamming memory fits in what the records leave of the section. */
    size_t slam_room = (room - (size_t)listed * CKP_VESSEL_FIXED) / 2;
    c->vessels = calloc(listed ? listed : 1, sizeof *c->vessels);
    c->slam_storage = malloc((slam_room ? slam_room : 1) * sizeof(uint16_t));
    if (!c->vessels || !c->slam_storage) {
        nv_error_fail(err, NV_ENOMEM, "%s: out of memory for %u vessels", name, listed);
        goto fail;
    }
    uint16_t* slam_next = c->slam_storage;
    for (uint32_t i = 0; i < listed && !r.failed; i++) {
        nv_world_vessel_record* v = &c->vessels[i];
        ckp_get_vessel(&r, i, v, &slam_next, c->slam_storage + slam_room);
        ckp_get_flood(&r, i, v);
        if (r.failed) break;
        if (v->type >= c->hull_count)
            rd_fail(&r, "vessels", "vessel %u (slot %u) has hull type %u, the list has %u", v->id, i, v->type,
                    c->hull_count);
        else if (v->id >= c->next_id)
            rd_fail(&r, "vessels", "vessel %u (slot %u) has an id at or past the next id %u", v->id, i, c->next_id);
    }
    if (ckp_close_section(&r)) goto fail;

    if (ckp_open_section(&r, CKP_OWNER, body_end)) goto fail;
    c->owner_size = r.end - r.pos;
    c->owner_blob = malloc(c->owner_size ? c->owner_size : 1);
    if (!c->owner_blob) {
        nv_error_fail(err, NV_ENOMEM, "%s: out of memory for an owner blob of %zu bytes", name, c->owner_size);
        goto fail;
    }
    memcpy(c->owner_blob, d + r.pos, c->owner_size);
    r.pos = r.end;
    if (r.pos != body_end) {
        nv_error_fail(err, NV_EPROTO, "%s: %zu bytes between the last section and the checksum (at byte %zu)", name,
                      body_end - r.pos, r.pos);
        goto fail;
    }
    return 0;
fail:
    nv_checkpoint_free(out);
    return -1;
}
