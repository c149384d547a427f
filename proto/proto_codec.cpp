// SPDX-License-Identifier: MIT
// The FlatBuffers codec: the only C++ in the project. flatc generates
// naval_generated.h from naval.fbs at build time; this unit turns it into
// the C API of proto.h. Nothing may escape into C: every entry point catches
// everything (std::bad_alloc included) and returns -1 with a message.
//
// Reading hostile input: the size is capped, a misaligned buffer is copied
// to an aligned one (FlatBuffers reads scalars through casts, which UBSan
// rightly calls undefined when misaligned), the Verifier checks every
// offset, and vectors of doubles or structs are copied out with memcpy
// because the Verifier only checks that a vector's length is 4-aligned.
#include "proto_fb.hpp"

namespace {

// ---- snapshots --------------------------------------------------------------

fb::Offset<np::TickStats> put_stats(fb::FlatBufferBuilder& fbb, const proto_tick_stats& s) {
    return np::CreateTickStats(fbb, s.step_ms, s.water_ms, s.vertex_ms, s.triangle_ms, s.integrate_ms,
                               s.snapshot_ms, s.vessel_count, s.subscribers, s.overruns, s.lod_ms, s.command_port);
}

proto_tick_stats get_stats(const np::TickStats* s) {
    proto_tick_stats o{};
    if (!s) return o;
    o.step_ms = s->step_ms();
    o.water_ms = s->water_ms();
    o.vertex_ms = s->vertex_ms();
    o.triangle_ms = s->triangle_ms();
    o.integrate_ms = s->integrate_ms();
    o.snapshot_ms = s->snapshot_ms();
    o.vessel_count = s->vessel_count();
    o.subscribers = s->subscribers();
    o.overruns = s->overruns();
    o.lod_ms = s->lod_ms();
    o.command_port = s->command_port();
    return o;
}

int encode_snapshot(proto_buf* out, const proto_snapshot* s, proto_error* err) {
    if (!s) return nv_error_fail(err, NV_EINVAL, "snapshot: no input");
    if (s->vessel_count && !s->vessels) return nv_error_fail(err, NV_EINVAL, "snapshot: vessels missing");
    const proto_limits lim = proto_default_limits();
    if (s->vessel_count > lim.max_vessels)
        return nv_error_fail(err, NV_ELIMIT, "snapshot: %u vessels, over the limit of %u", s->vessel_count,
                             lim.max_vessels);
    auto& fbb = builder_of(out);
    // Same layout (asserted above): the builder copies the array as bytes.
    auto vessels = fbb.CreateVectorOfStructs(reinterpret_cast<const np::VesselState*>(s->vessels), s->vessel_count);
    contact_vector contacts;
    damage_vector damage;
    damage_event_vector events;
    if (put_contacts(fbb, s->contacts, s->contact_count, lim.max_vessels, "snapshot", &contacts, err) != 0 ||
        put_damage(fbb, s->damage, s->damage_count, lim.max_vessels, &damage, err) != 0 ||
        put_damage_events(fbb, s->damage_events, s->damage_event_count, lim.max_vessels, &events, err) != 0)
        return -1;
    auto stats = put_stats(fbb, s->stats);
    finish(out, fbb,
           np::CreateSnapshot(fbb, s->tick, s->sim_time, s->send_time_ns, stats, vessels, contacts, damage, events),
           PROTO_ID_SNAPSHOT);
    return 0;
}

int decode_snapshot(const void* data, size_t size, const proto_limits* limits, proto_snapshot* out,
                    proto_error* err) {
    if (!out) return nv_error_fail(err, NV_EINVAL, "snapshot: no output");
    out->vessel_count = 0;
    out->contact_count = 0;
    out->damage_count = out->damage_event_count = 0;
    const proto_limits lim = proto_effective_limits(limits);
    std::vector<uint64_t> scratch;
    auto* s = verified_root<np::Snapshot>(data, size, lim, PROTO_ID_SNAPSHOT, "snapshot", scratch, err);
    if (!s) return -1;
    auto* v = s->vessels();
    size_t n = v ? v->size() : 0;
    if (n > lim.max_vessels)
        return nv_error_fail(err, NV_ELIMIT, "snapshot: %zu vessels, over the limit of %u", n, lim.max_vessels);
    if (grow(&out->vessels, &out->vessel_capacity, n, err) != 0) return -1;
    if (n) std::memcpy(out->vessels, v->Data(), n * sizeof(proto_vessel));
    if (get_contacts(s->contacts(), lim.max_vessels, "snapshot", &out->contacts, &out->contact_capacity,
                     &out->contact_count, err) != 0 ||
        get_damage(s->damage(), lim.max_vessels, &out->damage, &out->damage_capacity, &out->damage_count, err) != 0 ||
        get_damage_events(s->damage_events(), lim.max_vessels, &out->damage_events, &out->damage_event_capacity,
                          &out->damage_event_count, err) != 0)
        return -1;
    out->tick = s->tick();
    out->sim_time = s->sim_time();
    out->send_time_ns = s->send_time_ns();
    out->stats = get_stats(s->stats());
    out->vessel_count = static_cast<uint32_t>(n);
    return 0;
}

int wrap_compact(proto_buf* out, const proto_compact_header* h, const uint8_t* bits, size_t nbytes) {
    auto& fbb = builder_of(out);
    auto data = fbb.CreateVector(bits, nbytes);
    auto stats = put_stats(fbb, h->stats);
    np::Vec3d origin(h->origin[0], h->origin[1], h->origin[2]);
    auto root = np::CreateCompactSnapshot(fbb, h->tick, h->sim_time, h->send_time_ns, stats, h->keyframe_tick,
                                          h->keyframe != 0, h->keyframe_count, &origin, h->vessel_count, data);
    finish(out, fbb, root, PROTO_ID_COMPACT);
    return 0;
}

int unwrap_compact(const void* data, size_t size, const proto_limits* limits, proto_compact_header* h,
                   const uint8_t** bits, size_t* nbytes, proto_error* err) {
    const proto_limits lim = proto_effective_limits(limits);
    std::vector<uint64_t> scratch;
    auto* c = verified_root<np::CompactSnapshot>(data, size, lim, PROTO_ID_COMPACT, "compact snapshot", scratch, err);
    if (!c) return -1;
    if (!c->origin()) return proto_set_error(err, "compact snapshot: no origin");
    *h = proto_compact_header{};
    h->tick = c->tick();
    h->sim_time = c->sim_time();
    h->send_time_ns = c->send_time_ns();
    h->stats = get_stats(c->stats());
    h->keyframe_tick = c->keyframe_tick();
    h->keyframe = c->keyframe() ? 1 : 0;
    h->keyframe_count = c->keyframe_count();
    h->origin[0] = c->origin()->x();
    h->origin[1] = c->origin()->y();
    h->origin[2] = c->origin()->z();
    h->vessel_count = c->vessel_count();
    auto* d = c->data();
    *nbytes = d ? d->size() : 0;
    // Point into the caller's buffer, not the scratch copy that dies here.
    const uint8_t* base = scratch.empty() ? static_cast<const uint8_t*>(data)
                                          : reinterpret_cast<const uint8_t*>(scratch.data());
    *bits = d ? static_cast<const uint8_t*>(data) + (d->Data() - base) : nullptr;
    return 0;
}

// ---- world info --------------------------------------------------------------

int put_world_info(fb::FlatBufferBuilder& fbb, const proto_world_info* w, fb::Offset<np::WorldInfo>* o,
                   proto_error* err) {
    if (w->type_count > PROTO_MAX_TYPES)
        return nv_error_fail(err, NV_ELIMIT, "world info: %u vessel types, over the limit of %u", w->type_count,
                             PROTO_MAX_TYPES);
    if (w->type_count && !w->types) return nv_error_fail(err, NV_EINVAL, "world info: vessel types missing");
    std::vector<fb::Offset<np::VesselType>> types(w->type_count);
    for (uint32_t i = 0; i < w->type_count; i++) {
        const proto_vessel_type& t = w->types[i];
        fb::Offset<fb::String> name;
        if (put_string(fbb, t.name, sizeof t.name, "vessel type name", &name, err) != 0) return -1;
        np::Vec3f lo(t.bounds_min[0], t.bounds_min[1], t.bounds_min[2]);
        np::Vec3f hi(t.bounds_max[0], t.bounds_max[1], t.bounds_max[2]);
        if (t.compartment_count > PROTO_MAX_COMPARTMENTS)
            return proto_set_error(err, "world info: vessel type %u has %u compartments (at most %u)", t.type,
                                   t.compartment_count, PROTO_MAX_COMPARTMENTS);
        fb::Offset<fb::Vector<float>> volumes;
        if (t.compartment_count) volumes = fbb.CreateVector(t.compartment_volumes, t.compartment_count);
        types[i] = np::CreateVesselType(fbb, t.type, name, t.mass, &lo, &hi, t.vertex_count, t.triangle_count,
                                        volumes, t.pump_rate);
    }
    auto types_vec = fbb.CreateVector(types);
    fb::Offset<np::OceanSpec> ocean;
    if (w->has_ocean) {
        const proto_ocean_spec& s = w->ocean;
        if (s.cascades < 1 || s.cascades > PROTO_MAX_CASCADES)
            return proto_set_error(err, "world info: %d cascades (1..%d)", s.cascades, PROTO_MAX_CASCADES);
        if (s.spectrum > (uint8_t)np::SpectrumKind::MAX || s.spreading > (uint8_t)np::Spreading::MAX)
            return proto_set_error(err, "world info: unknown spectrum %u or spreading %u", s.spectrum, s.spreading);
        auto patches = fbb.CreateVector(s.patch_sizes, static_cast<size_t>(s.cascades));
        ocean = np::CreateOceanSpec(
            fbb, static_cast<np::SpectrumKind>(s.spectrum), static_cast<np::Spreading>(s.spreading), s.gravity,
            s.wind_speed, s.wind_direction, s.fetch, s.depth, s.gamma, s.swell, s.choppiness, s.beaufort,
            s.hs_target, s.size, s.cascade_ratio, s.cascades, s.resolution, s.resolution_z, s.repeat_period,
            s.min_wavelength, s.seed, s.query_iterations, s.query_tolerance, s.surface_grid, patches, s.time, s.tp);
    }
    fb::Offset<np::TerrainInfo> terrain;
    if (w->terrain.present) {
        const proto_terrain_info& t = w->terrain;
        if (t.nx < 2 || t.nz < 2 || t.nx > PROTO_TERRAIN_MAX_NODES || t.nz > PROTO_TERRAIN_MAX_NODES || !t.heights)
            return proto_set_error(err, "world info: terrain of %u x %u nodes (2..%u per axis, heights needed)", t.nx,
                                   t.nz, PROTO_TERRAIN_MAX_NODES);
        auto heights = fbb.CreateVector(t.heights, static_cast<size_t>(t.nx) * t.nz);
        terrain = np::CreateTerrainInfo(fbb, t.origin_x, t.origin_z, t.cell_size, t.nx, t.nz, t.min_elevation,
                                        t.max_elevation, heights);
    }
    fb::Offset<fb::Vector<fb::Offset<np::StructureInfo>>> structures;
    if (w->structure_count) {
        if (w->structure_count > PROTO_MAX_STRUCTURES || !w->structures)
            return proto_set_error(err, "world info: %u structures (at most %u, array needed)", w->structure_count,
                                   PROTO_MAX_STRUCTURES);
        std::vector<fb::Offset<np::StructureInfo>> list(w->structure_count);
        for (uint32_t i = 0; i < w->structure_count; i++) {
            const proto_structure_info& st = w->structures[i];
            if (!st.vertices || !st.indices || st.vertex_count < 4 || st.triangle_count < 4)
                return proto_set_error(err, "world info: structure %u has %u vertices and %u triangles (4 each)", i,
                                       st.vertex_count, st.triangle_count);
            for (size_t k = 0; k < 3 * (size_t)st.triangle_count; k++)
                if (st.indices[k] >= st.vertex_count)
                    return proto_set_error(err, "world info: structure %u's index %zu is %u, not below %u", i, k,
                                           st.indices[k], st.vertex_count);
            auto verts = fbb.CreateVectorOfStructs(reinterpret_cast<const np::Vec3f*>(st.vertices), st.vertex_count);
            auto idx = fbb.CreateVector(st.indices, 3 * (size_t)st.triangle_count);
            list[i] = np::CreateStructureInfo(fbb, verts, idx);
        }
        structures = fbb.CreateVector(list);
    }
    fb::Offset<fb::String> server;
    if (put_string(fbb, w->server_name, sizeof w->server_name, "server name", &server, err) != 0) return -1;
    *o = np::CreateWorldInfo(fbb, PROTO_VERSION, server, w->tick_hz, w->tick, w->sim_time, w->gravity,
                             w->water_density, ocean, types_vec, terrain, structures);
    return 0;
}

// The structures into out (its arrays reused); each checked as a hull is.
static int get_structures(const np::WorldInfo* w, const proto_limits& lim, proto_world_info* out, proto_error* err) {
    out->structure_count = 0;
    auto* list = w->structures();
    size_t n = list ? list->size() : 0;
    if (n > PROTO_MAX_STRUCTURES)
        return nv_error_fail(err, NV_ELIMIT, "world info: %zu structures, over the limit of %u", n, PROTO_MAX_STRUCTURES);
    uint32_t had = out->structure_capacity;
    if (grow(&out->structures, &out->structure_capacity, n, err) != 0) return -1;
    if (out->structure_capacity > had)  // new entries own nothing yet
        std::memset(static_cast<void*>(out->structures + had), 0,
                    (out->structure_capacity - had) * sizeof *out->structures);
    for (size_t i = 0; i < n; i++) {
        auto* st = list->Get(static_cast<fb::uoffset_t>(i));
        proto_structure_info& o = out->structures[i];
        auto* v = st ? st->vertices() : nullptr;
        auto* idx = st ? st->indices() : nullptr;
        size_t nv = v ? v->size() : 0, ni = idx ? idx->size() : 0;
        if (nv < 4 || ni < 12 || ni % 3 != 0)
            return proto_set_error(err, "world info: structure %zu has %zu vertices and %zu indices", i, nv, ni);
        if (nv > lim.max_hull_vertices || ni / 3 > lim.max_hull_triangles)
            return nv_error_fail(err, NV_ELIMIT, "world info: structure %zu of %zu vertices, %zu triangles: over the "
                                 "limits (%u, %u)", i, nv, ni / 3, lim.max_hull_vertices, lim.max_hull_triangles);
        if (grow(&o.vertices, &o.vertex_capacity, 3 * nv, err) != 0) return -1;
        if (grow(&o.indices, &o.index_capacity, ni, err) != 0) return -1;
        std::memcpy(o.vertices, v->Data(), nv * sizeof(np::Vec3f));
        copy_vector(o.indices, idx);
        for (size_t k = 0; k < ni; k++)
            if (o.indices[k] >= nv)
                return proto_set_error(err, "world info: structure %zu's index %zu is %u, not below %zu", i, k,
                                       o.indices[k], nv);
        o.vertex_count = static_cast<uint32_t>(nv);
        o.triangle_count = static_cast<uint32_t>(ni / 3);
        out->structure_count = static_cast<uint32_t>(i + 1);
    }
    return 0;
}

int get_world_info(const np::WorldInfo* w, const proto_limits& lim, proto_world_info* out, proto_error* err) {
    out->type_count = 0;
    auto* types = w->vessel_types();
    size_t n = types ? types->size() : 0;
    if (n > lim.max_types)
        return nv_error_fail(err, NV_ELIMIT, "world info: %zu vessel types, over the limit of %u", n, lim.max_types);
    if (copy_string(w->server_name(), out->server_name, sizeof out->server_name, "server name", err) != 0) return -1;
    if (grow(&out->types, &out->type_capacity, n, err) != 0) return -1;
    for (size_t i = 0; i < n; i++) {
        auto* t = types->Get(static_cast<fb::uoffset_t>(i));
        proto_vessel_type& o = out->types[i];
        o = proto_vessel_type{};
        if (!t) return proto_set_error(err, "world info: vessel type %zu missing", i);
        if (copy_string(t->name(), o.name, sizeof o.name, "vessel type name", err) != 0) return -1;
        o.type = t->type();
        o.mass = t->mass();
        if (auto* b = t->bounds_min()) o.bounds_min[0] = b->x(), o.bounds_min[1] = b->y(), o.bounds_min[2] = b->z();
        if (auto* b = t->bounds_max()) o.bounds_max[0] = b->x(), o.bounds_max[1] = b->y(), o.bounds_max[2] = b->z();
        o.vertex_count = t->vertex_count();
        o.triangle_count = t->triangle_count();
        auto* vol = t->compartment_volumes();
        size_t k = vol ? vol->size() : 0;
        if (k > PROTO_MAX_COMPARTMENTS)
            return proto_set_error(err, "world info: vessel type %u has %zu compartments (at most %u)", o.type, k,
                                   PROTO_MAX_COMPARTMENTS);
        o.compartment_count = static_cast<uint32_t>(k);
        if (k) std::memcpy(o.compartment_volumes, vol->Data(), k * sizeof(float));
        o.pump_rate = t->pump_rate();
    }
    out->protocol_version = w->protocol_version();
    out->tick_hz = w->tick_hz();
    out->tick = w->tick();
    out->sim_time = w->sim_time();
    out->gravity = w->gravity();
    out->water_density = w->water_density();
    proto_terrain_info& t = out->terrain;
    t.present = 0;
    if (auto* g = w->terrain()) {
        auto* h = g->heights();
        uint32_t nx = g->nx(), nz = g->nz();
        if (nx < 2 || nz < 2 || nx > PROTO_TERRAIN_MAX_NODES || nz > PROTO_TERRAIN_MAX_NODES || !h ||
            h->size() != static_cast<size_t>(nx) * nz)
            return proto_set_error(err, "world info: terrain of %u x %u nodes with %u heights", nx, nz,
                                   h ? h->size() : 0u);
        if (grow(&t.heights, &t.height_capacity, h->size(), err) != 0) return -1;
        copy_vector(t.heights, h);
        t.present = 1;
        t.origin_x = g->origin_x();
        t.origin_z = g->origin_z();
        t.cell_size = g->cell_size();
        t.nx = nx;
        t.nz = nz;
        t.min_elevation = g->min_elevation();
        t.max_elevation = g->max_elevation();
    }
    if (get_structures(w, lim, out, err) != 0) return -1;
    out->has_ocean = w->ocean() != nullptr;
    out->ocean = proto_ocean_spec{};
    if (auto* s = w->ocean()) {
        proto_ocean_spec& o = out->ocean;
        o.spectrum = static_cast<uint8_t>(s->spectrum());
        o.spreading = static_cast<uint8_t>(s->spreading());
        if (o.spectrum > (uint8_t)np::SpectrumKind::MAX || o.spreading > (uint8_t)np::Spreading::MAX)
            return proto_set_error(err, "world info: unknown spectrum %u or spreading %u", o.spectrum, o.spreading);
        o.cascades = s->cascades();
        if (o.cascades < 1 || o.cascades > PROTO_MAX_CASCADES)
            return proto_set_error(err, "world info: %d cascades (1..%d)", o.cascades, PROTO_MAX_CASCADES);
        auto* p = s->patch_sizes();
        if (p && p->size() > PROTO_MAX_CASCADES)
            return proto_set_error(err, "world info: %u patch sizes (max %d)", p->size(), PROTO_MAX_CASCADES);
        copy_vector(o.patch_sizes, p);
        o.gravity = s->gravity();
        o.wind_speed = s->wind_speed();
        o.wind_direction = s->wind_direction();
        o.fetch = s->fetch();
        o.depth = s->depth();
        o.gamma = s->gamma();
        o.swell = s->swell();
        o.choppiness = s->choppiness();
        o.beaufort = s->beaufort();
        o.hs_target = s->hs_target();
        o.tp = s->tp();
        o.size = s->size();
        o.cascade_ratio = s->cascade_ratio();
        o.resolution = s->resolution();
        o.resolution_z = s->resolution_z();
        o.repeat_period = s->repeat_period();
        o.min_wavelength = s->min_wavelength();
        o.seed = s->seed();
        o.query_iterations = s->query_iterations();
        o.query_tolerance = s->query_tolerance();
        o.surface_grid = s->surface_grid();
        o.time = s->time();
    }
    out->type_count = static_cast<uint32_t>(n);
    return 0;
}

// ---- hull meshes ----------------------------------------------------------------

int put_hull(fb::FlatBufferBuilder& fbb, const proto_hull* h, fb::Offset<np::HullMesh>* o, proto_error* err) {
    const proto_limits lim = proto_default_limits();
    if (h->vertex_count > lim.max_hull_vertices || h->triangle_count > lim.max_hull_triangles)
        return nv_error_fail(err, NV_ELIMIT, "hull: %u vertices, %u triangles: over the limits (%u, %u)",
                             h->vertex_count, h->triangle_count, lim.max_hull_vertices, lim.max_hull_triangles);
    if ((h->vertex_count && !h->vertices) || (h->triangle_count && !h->indices))
        return nv_error_fail(err, NV_EINVAL, "hull: arrays missing");
    for (size_t i = 0; i < 3 * (size_t)h->triangle_count; i++)
        if (h->indices[i] >= h->vertex_count)
            return proto_set_error(err, "hull: index %zu is %u, not below the vertex count %u", i, h->indices[i],
                                   h->vertex_count);
    fb::Offset<fb::String> name;
    if (put_string(fbb, h->name, sizeof h->name, "hull name", &name, err) != 0) return -1;
    auto verts = fbb.CreateVectorOfStructs(reinterpret_cast<const np::Vec3f*>(h->vertices), h->vertex_count);
    auto idx = fbb.CreateVector(h->indices, 3 * (size_t)h->triangle_count);
    *o = np::CreateHullMesh(fbb, h->type, name, verts, idx);
    return 0;
}

int get_hull(const np::HullMesh* m, const proto_limits& lim, proto_hull* out, proto_error* err) {
    out->vertex_count = out->triangle_count = 0;
    auto* v = m->vertices();
    auto* idx = m->indices();
    size_t nv = v ? v->size() : 0, ni = idx ? idx->size() : 0;
    if (ni % 3 != 0) return proto_set_error(err, "hull: %zu indices, not a multiple of 3", ni);
    if (nv > lim.max_hull_vertices || ni / 3 > lim.max_hull_triangles)
        return nv_error_fail(err, NV_ELIMIT, "hull: %zu vertices, %zu triangles: over the limits (%u, %u)", nv, ni / 3,
                             lim.max_hull_vertices, lim.max_hull_triangles);
    if (copy_string(m->name(), out->name, sizeof out->name, "hull name", err) != 0) return -1;
    if (grow(&out->vertices, &out->vertex_capacity, 3 * nv, err) != 0) return -1;
    if (grow(&out->indices, &out->index_capacity, ni, err) != 0) return -1;
    if (nv) std::memcpy(out->vertices, v->Data(), nv * sizeof(np::Vec3f));
    copy_vector(out->indices, idx);
    for (size_t i = 0; i < ni; i++)
        if (out->indices[i] >= nv)
            return proto_set_error(err, "hull: index %zu is %u, not below the vertex count %zu", i, out->indices[i], nv);
    out->type = m->type();
    out->vertex_count = static_cast<uint32_t>(nv);
    out->triangle_count = static_cast<uint32_t>(ni / 3);
    return 0;
}

// ---- requests -----------------------------------------------------------------

bool in_unit_range(float v) { return std::isfinite(v) && v >= -1.0f && v <= 1.0f; }

// A hole: a finite point, an area above 0 and at most PROTO_MAX_HOLE_AREA.
bool damage_is_valid(const proto_damage& d) {
    return std::isfinite(d.point[0]) && std::isfinite(d.point[1]) && std::isfinite(d.point[2]) && d.area > 0.0f &&
           d.area <= PROTO_MAX_HOLE_AREA;
}

int damage_refusal(const proto_damage& d, proto_error* err) {
    return proto_set_error(err, "damage: the point (%.9g, %.9g, %.9g) must be finite and the area %.9g in (0, %g] m^2",
                           (double)d.point[0], (double)d.point[1], (double)d.point[2], (double)d.area,
                           PROTO_MAX_HOLE_AREA);
}

int encode_request(proto_buf* out, const proto_request* r, proto_error* err) {
    if (!r) return nv_error_fail(err, NV_EINVAL, "request: no input");
    auto& fbb = builder_of(out);
    fb::Offset<fb::String> admin;
    if (put_string(fbb, r->admin_token, sizeof r->admin_token, "admin token", &admin, err) != 0) return -1;
    fb::Offset<void> body;
    switch (r->kind) {
    case PROTO_BODY_HELLO: {
        fb::Offset<fb::String> name;
        if (put_string(fbb, r->body.hello.client_name, PROTO_NAME_MAX, "client name", &name, err) != 0) return -1;
        np::Token player = token_to_wire(r->body.hello.player);
        body = np::CreateHello(fbb, r->body.hello.protocol_version, name, r->body.hello.has_player ? &player : nullptr)
                   .Union();
        break;
    }
    case PROTO_BODY_SPAWN: {
        const proto_spawn& s = r->body.spawn;
        if (!std::isfinite(s.x) || !std::isfinite(s.z) || !std::isfinite(s.heading))
            return proto_set_error(err, "spawn: position and heading must be finite");
        fb::Offset<fb::String> name;
        if (put_string(fbb, s.type_name, sizeof s.type_name, "type name", &name, err) != 0) return -1;
        body = np::CreateSpawn(fbb, s.type, name, s.x, s.z, s.heading).Union();
        break;
    }
    case PROTO_BODY_CONTROL: {
        const proto_control& c = r->body.control;
        if (!in_unit_range(c.throttle) || !in_unit_range(c.rudder))
            return proto_set_error(err, "control: throttle %.9g and rudder %.9g must be in [-1, 1]", (double)c.throttle,
                                   (double)c.rudder);
        np::Token t = token_to_wire(c.token);
        body = np::CreateControl(fbb, c.vessel_id, &t, c.throttle, c.rudder).Union();
        break;
    }
    case PROTO_BODY_DESPAWN: {
        np::Token t = token_to_wire(r->body.despawn.token);
        body = np::CreateDespawn(fbb, r->body.despawn.vessel_id, &t).Union();
        break;
    }
    case PROTO_BODY_WORLD_INFO: body = np::CreateGetWorldInfo(fbb).Union(); break;
    case PROTO_BODY_HULL: body = np::CreateGetHull(fbb, r->body.get_hull.type).Union(); break;
    case PROTO_BODY_STATS: body = np::CreateGetStats(fbb).Union(); break;
    case PROTO_BODY_DAMAGE: {
        const proto_damage& d = r->body.damage;
        if (!damage_is_valid(d)) return damage_refusal(d, err);
        np::Vec3f p(d.point[0], d.point[1], d.point[2]);
        body = np::CreateDamage(fbb, d.vessel_id, &p, d.area).Union();
        break;
    }
    case PROTO_BODY_PUMPS: {
        np::Token t = token_to_wire(r->body.pumps.token);
        body = np::CreatePumps(fbb, r->body.pumps.vessel_id, &t, r->body.pumps.on != 0).Union();
        break;
    }
    default: return proto_set_error(err, "request: unknown kind %d", (int)r->kind);
    }
    auto root = np::CreateRequest(fbb, r->request_id, admin, static_cast<np::RequestBody>(r->kind), body);
    finish(out, fbb, root, PROTO_ID_REQUEST);
    return 0;
}

// What a request that fails verification still says, read with the same
// bounds checks on the root table alone: its id (so that the answer names
// it), and the body's kind and table when those verify too.
struct request_peek {
    uint64_t id = 0;
    np::RequestBody kind = np::RequestBody::NONE;
    const fb::Table* body = nullptr;
};

request_peek peek_request(const void* data, size_t size, std::vector<uint64_t>& scratch) {
    request_peek p;
    if (!data || size < 8 || size > PROTO_HARD_MAX_MESSAGE) return p;
    scratch.resize((size + 7) / 8);
    std::memcpy(scratch.data(), data, size);
    const uint8_t* buf = reinterpret_cast<const uint8_t*>(scratch.data());
    if (!fb::BufferHasIdentifier(buf, PROTO_ID_REQUEST) || fb::ReadScalar<fb::uoffset_t>(buf) > size - 4) return p;
    fb::Verifier v(buf, size);
    auto* t = fb::GetRoot<fb::Table>(buf);
    if (!t->VerifyTableStart(v) || !t->VerifyField<uint64_t>(v, np::Request::VT_REQUEST_ID, 8)) return p;
    p.id = t->GetField<uint64_t>(np::Request::VT_REQUEST_ID, 0);
    if (!t->VerifyField<uint8_t>(v, np::Request::VT_BODY_TYPE, 1) || !t->VerifyOffset(v, np::Request::VT_BODY)) return p;
    p.kind = static_cast<np::RequestBody>(t->GetField<uint8_t>(np::Request::VT_BODY_TYPE, 0));
    auto* body = t->GetPointer<const fb::Table*>(np::Request::VT_BODY);
    if (body && body->VerifyTableStart(v)) p.body = body;
    return p;
}

int decode_request(const void* data, size_t size, const proto_limits* limits, proto_request* out, proto_error* err) {
    if (!out) return nv_error_fail(err, NV_EINVAL, "request: no output");
    std::memset(out, 0, sizeof *out);
    const proto_limits lim = proto_effective_limits(limits);
    std::vector<uint64_t> scratch;
    auto* r = verified_root<np::Request>(data, size, lim, PROTO_ID_REQUEST, "request", scratch, err);
    if (!r) {
        request_peek p = peek_request(data, size, scratch);
        out->request_id = p.id;
        // The schema's only required fields: name what is missing.
        if (p.body && p.kind == np::RequestBody::Control && !p.body->GetStruct<const np::Token*>(np::Control::VT_TOKEN))
            proto_set_error(err, "control: the vessel's token is missing");
        else if (p.body && p.kind == np::RequestBody::Despawn &&
                 !p.body->GetStruct<const np::Token*>(np::Despawn::VT_TOKEN))
            proto_set_error(err, "despawn: the vessel's token is missing");
        else if (p.body && p.kind == np::RequestBody::Pumps && !p.body->GetStruct<const np::Token*>(np::Pumps::VT_TOKEN))
            proto_set_error(err, "pumps: the vessel's token is missing");
        return -1;
    }
    auto type = r->body_type();
    if (type == np::RequestBody::NONE) return proto_set_error(err, "request: no body");
    if (type > np::RequestBody::MAX) return proto_set_error(err, "request: unknown kind %d", (int)type);
    if (!r->body()) return proto_set_error(err, "request: body of kind %d missing", (int)type);
    if (copy_string(r->admin_token(), out->admin_token, sizeof out->admin_token, "admin token", err) != 0) return -1;
    out->request_id = r->request_id();
    out->kind = static_cast<proto_body>(type);
    switch (type) {
    case np::RequestBody::Hello: {
        auto* h = r->body_as_Hello();
        out->body.hello.protocol_version = h->protocol_version();
        if (h->player()) {
            out->body.hello.has_player = 1;
            out->body.hello.player = token_from_wire(h->player());
        }
        return copy_string(h->client_name(), out->body.hello.client_name, PROTO_NAME_MAX, "client name", err);
    }
    case np::RequestBody::Spawn: {
        auto* s = r->body_as_Spawn();
        proto_spawn& o = out->body.spawn;
        o.type = s->type();
        o.x = s->x();
        o.z = s->z();
        o.heading = s->heading();
        if (!std::isfinite(o.x) || !std::isfinite(o.z) || !std::isfinite(o.heading))
            return proto_set_error(err, "spawn: position and heading must be finite");
        return copy_string(s->type_name(), o.type_name, sizeof o.type_name, "type name", err);
    }
    case np::RequestBody::Control: {
        auto* c = r->body_as_Control();
        proto_control& o = out->body.control;
        o.vessel_id = c->vessel_id();
        o.token = token_from_wire(c->token());
        o.throttle = c->throttle();
        o.rudder = c->rudder();
        if (!in_unit_range(o.throttle) || !in_unit_range(o.rudder))
            return proto_set_error(err, "control: throttle %.9g and rudder %.9g must be in [-1, 1]", (double)o.throttle,
                                   (double)o.rudder);
        return 0;
    }
    case np::RequestBody::Despawn: {
        auto* d = r->body_as_Despawn();
        out->body.despawn.vessel_id = d->vessel_id();
        out->body.despawn.token = token_from_wire(d->token());
        return 0;
    }
    case np::RequestBody::GetHull: out->body.get_hull.type = r->body_as_GetHull()->type(); return 0;
    case np::RequestBody::Damage: {
        auto* d = r->body_as_Damage();
        proto_damage& o = out->body.damage;
        o.vessel_id = d->vessel_id();
        if (!d->point()) return proto_set_error(err, "damage: the point is missing");
        o.point[0] = d->point()->x(), o.point[1] = d->point()->y(), o.point[2] = d->point()->z();
        o.area = d->area();
        return damage_is_valid(o) ? 0 : damage_refusal(o, err);
    }
    case np::RequestBody::Pumps: {
        auto* p = r->body_as_Pumps();
        out->body.pumps.vessel_id = p->vessel_id();
        out->body.pumps.token = token_from_wire(p->token());
        out->body.pumps.on = p->on() ? 1 : 0;
        return 0;
    }
    default: return 0;  // GetWorldInfo, GetStats: no fields
    }
}

// ---- responses -------------------------------------------------------------------

int encode_response(proto_buf* out, const proto_response* r, proto_error* err) {
    if (!r) return nv_error_fail(err, NV_EINVAL, "response: no input");
    if ((unsigned)r->status > PROTO_STATUS_SHUTTING_DOWN)
        return proto_set_error(err, "response: unknown status %d", (int)r->status);
    if ((unsigned)r->kind > PROTO_BODY_PUMPS) return proto_set_error(err, "response: unknown kind %d", (int)r->kind);
    auto& fbb = builder_of(out);
    fb::Offset<fb::String> error;
    if (put_string(fbb, r->error, sizeof r->error, "error text", &error, err) != 0) return -1;
    if (r->status != PROTO_STATUS_OK && !r->error[0])
        error = fbb.CreateString(proto_status_name(r->status));
    fb::Offset<void> body;
    if (r->status == PROTO_STATUS_OK) {
        switch (r->kind) {
        case PROTO_BODY_HELLO: {
            fb::Offset<fb::String> name;
            if (put_string(fbb, r->body.hello.server_name, PROTO_NAME_MAX, "server name", &name, err) != 0) return -1;
            np::Token player = token_to_wire(r->body.hello.player);
            body = np::CreateHelloReply(fbb, r->body.hello.protocol_version, name, r->body.hello.tick_hz,
                                        r->body.hello.max_vessels_per_client,
                                        r->body.hello.has_player ? &player : nullptr)
                       .Union();
            break;
        }
        case PROTO_BODY_SPAWN: {
            np::Token t = token_to_wire(r->body.spawn.token);
            body = np::CreateSpawnReply(fbb, r->body.spawn.vessel_id, &t, r->body.spawn.x, r->body.spawn.z).Union();
            break;
        }
        case PROTO_BODY_CONTROL: body = np::CreateControlReply(fbb).Union(); break;
        case PROTO_BODY_DESPAWN: body = np::CreateDespawnReply(fbb).Union(); break;
        case PROTO_BODY_WORLD_INFO: {
            fb::Offset<np::WorldInfo> w;
            if (put_world_info(fbb, &r->world_info, &w, err) != 0) return -1;
            body = w.Union();
            break;
        }
        case PROTO_BODY_HULL: {
            fb::Offset<np::HullMesh> h;
            if (put_hull(fbb, &r->hull, &h, err) != 0) return -1;
            body = h.Union();
            break;
        }
        case PROTO_BODY_STATS: {
            const proto_stats& s = r->body.stats;
            body = np::CreateStatsReply(fbb, s.tick, s.sim_time, s.uptime_s, s.tick_hz, s.vessel_count, s.clients,
                                        s.subscribers, s.step_ms_p50, s.step_ms_p99, s.step_ms_max, s.overruns,
                                        s.snapshots_sent, s.bytes_out, s.requests, s.request_errors)
                       .Union();
            break;
        }
        case PROTO_BODY_DAMAGE: body = np::CreateDamageReply(fbb, r->body.damage_compartment).Union(); break;
        case PROTO_BODY_PUMPS: body = np::CreatePumpsReply(fbb).Union(); break;
        default: return proto_set_error(err, "response: status ok needs a kind");
        }
    }
    // A failure keeps the kind (which request failed) without a body.
    auto root = np::CreateResponse(fbb, r->request_id, static_cast<np::Status>(r->status), error,
                                   static_cast<np::ResponseBody>(r->kind), body);
    finish(out, fbb, root, PROTO_ID_RESPONSE);
    return 0;
}

int decode_response(const void* data, size_t size, const proto_limits* limits, proto_response* out,
                    proto_error* err) {
    if (!out) return nv_error_fail(err, NV_EINVAL, "response: no output");
    out->request_id = 0;
    out->status = PROTO_STATUS_INTERNAL;
    out->error[0] = '\0';
    out->kind = PROTO_BODY_NONE;
    std::memset(&out->body, 0, sizeof out->body);
    out->world_info.type_count = 0;
    out->hull.vertex_count = out->hull.triangle_count = 0;
    const proto_limits lim = proto_effective_limits(limits);
    std::vector<uint64_t> scratch;
    auto* r = verified_root<np::Response>(data, size, lim, PROTO_ID_RESPONSE, "response", scratch, err);
    if (!r) return -1;
    if (r->status() > np::Status::MAX) return proto_set_error(err, "response: unknown status %d", (int)r->status());
    auto type = r->body_type();
    if (type > np::ResponseBody::MAX) return proto_set_error(err, "response: unknown kind %d", (int)type);
    if (copy_string(r->error(), out->error, sizeof out->error, "error text", err) != 0) return -1;
    out->request_id = r->request_id();
    out->status = static_cast<proto_status>(r->status());
    out->kind = static_cast<proto_body>(type);
    if (out->status != PROTO_STATUS_OK) {
        if (!out->error[0]) std::snprintf(out->error, sizeof out->error, "%s", proto_status_name(out->status));
        return 0;
    }
    if (type == np::ResponseBody::NONE) return proto_set_error(err, "response: status ok without a body");
    if (!r->body()) return proto_set_error(err, "response: body of kind %d missing", (int)type);
    switch (type) {
    case np::ResponseBody::HelloReply: {
        auto* h = r->body_as_HelloReply();
        proto_hello_reply& o = out->body.hello;
        o.protocol_version = h->protocol_version();
        o.tick_hz = h->tick_hz();
        o.max_vessels_per_client = h->max_vessels_per_client();
        if (h->player()) {
            o.has_player = 1;
            o.player = token_from_wire(h->player());
        }
        return copy_string(h->server_name(), o.server_name, sizeof o.server_name, "server name", err);
    }
    case np::ResponseBody::SpawnReply: {
        auto* s = r->body_as_SpawnReply();
        out->body.spawn.vessel_id = s->vessel_id();
        out->body.spawn.token = token_from_wire(s->token());
        out->body.spawn.x = s->x();
        out->body.spawn.z = s->z();
        return 0;
    }
    case np::ResponseBody::WorldInfo: return get_world_info(r->body_as_WorldInfo(), lim, &out->world_info, err);
    case np::ResponseBody::HullMesh: return get_hull(r->body_as_HullMesh(), lim, &out->hull, err);
    case np::ResponseBody::StatsReply: {
        auto* s = r->body_as_StatsReply();
        proto_stats& o = out->body.stats;
        o.tick = s->tick();
        o.sim_time = s->sim_time();
        o.uptime_s = s->uptime_s();
        o.tick_hz = s->tick_hz();
        o.vessel_count = s->vessel_count();
        o.clients = s->clients();
        o.subscribers = s->subscribers();
        o.step_ms_p50 = s->step_ms_p50();
        o.step_ms_p99 = s->step_ms_p99();
        o.step_ms_max = s->step_ms_max();
        o.overruns = s->overruns();
        o.snapshots_sent = s->snapshots_sent();
        o.bytes_out = s->bytes_out();
        o.requests = s->requests();
        o.request_errors = s->request_errors();
        return 0;
    }
    case np::ResponseBody::DamageReply: out->body.damage_compartment = r->body_as_DamageReply()->compartment(); return 0;
    default: return 0;  // ControlReply, DespawnReply, PumpsReply: no fields
    }
}

}  // namespace

// ---- the C API ------------------------------------------------------------------

extern "C" {

void proto_free_buf(proto_buf* b) {
    if (!b) return;
    delete static_cast<buf_impl*>(b->impl);
    std::free(b->mem);
    *b = proto_buf{};
}

int proto_encode_snapshot(proto_buf* out, const proto_snapshot* s, proto_error* err) {
    return guarded_encode(out, err, [&] { return encode_snapshot(out, s, err); });
}

int proto_decode_snapshot(const void* data, size_t size, const proto_limits* limits, proto_snapshot* out,
                          proto_error* err) {
    return guarded(err, [&] { return decode_snapshot(data, size, limits, out, err); });
}

void proto_free_snapshot(proto_snapshot* s) {
    if (!s) return;
    if (s->vessel_capacity) std::free(s->vessels);
    if (s->contact_capacity) std::free(s->contacts);
    if (s->damage_capacity) std::free(s->damage);
    if (s->damage_event_capacity) std::free(s->damage_events);
    *s = proto_snapshot{};
}

int proto_wrap_compact(proto_buf* out, const proto_compact_header* h, const uint8_t* bits, size_t nbytes,
                       proto_error* err) {
    return guarded_encode(out, err, [&] { return wrap_compact(out, h, bits, nbytes); });
}

int proto_unwrap_compact(const void* data, size_t size, const proto_limits* limits, proto_compact_header* h,
                         const uint8_t** bits, size_t* nbytes, proto_error* err) {
    return guarded(err, [&] { return unwrap_compact(data, size, limits, h, bits, nbytes, err); });
}

int proto_encode_world_info(proto_buf* out, const proto_world_info* w, proto_error* err) {
    return guarded_encode(out, err, [&] {
        if (!w) return nv_error_fail(err, NV_EINVAL, "world info: no input");
        auto& fbb = builder_of(out);
        fb::Offset<np::WorldInfo> root;
        if (put_world_info(fbb, w, &root, err) != 0) return -1;
        finish(out, fbb, root, PROTO_ID_WORLD_INFO);
        return 0;
    });
}

int proto_decode_world_info(const void* data, size_t size, const proto_limits* limits, proto_world_info* out,
                            proto_error* err) {
    return guarded(err, [&] {
        if (!out) return nv_error_fail(err, NV_EINVAL, "world info: no output");
        out->type_count = 0;
        const proto_limits lim = proto_effective_limits(limits);
        std::vector<uint64_t> scratch;
        auto* w = verified_root<np::WorldInfo>(data, size, lim, PROTO_ID_WORLD_INFO, "world info", scratch, err);
        return w ? get_world_info(w, lim, out, err) : -1;
    });
}

void proto_free_world_info(proto_world_info* w) {
    if (!w) return;
    if (w->type_capacity) std::free(w->types);
    if (w->terrain.height_capacity) std::free(w->terrain.heights);
    for (uint32_t i = 0; w->structure_capacity && i < w->structure_capacity; i++) {
        if (w->structures[i].vertex_capacity) std::free(w->structures[i].vertices);
        if (w->structures[i].index_capacity) std::free(w->structures[i].indices);
    }
    if (w->structure_capacity) std::free(w->structures);
    *w = proto_world_info{};
}

int proto_encode_hull(proto_buf* out, const proto_hull* h, proto_error* err) {
    return guarded_encode(out, err, [&] {
        if (!h) return nv_error_fail(err, NV_EINVAL, "hull: no input");
        auto& fbb = builder_of(out);
        fb::Offset<np::HullMesh> root;
        if (put_hull(fbb, h, &root, err) != 0) return -1;
        finish(out, fbb, root, PROTO_ID_HULL);
        return 0;
    });
}

int proto_decode_hull(const void* data, size_t size, const proto_limits* limits, proto_hull* out,
                      proto_error* err) {
    return guarded(err, [&] {
        if (!out) return nv_error_fail(err, NV_EINVAL, "hull: no output");
        out->vertex_count = out->triangle_count = 0;
        const proto_limits lim = proto_effective_limits(limits);
        std::vector<uint64_t> scratch;
        auto* m = verified_root<np::HullMesh>(data, size, lim, PROTO_ID_HULL, "hull", scratch, err);
        return m ? get_hull(m, lim, out, err) : -1;
    });
}

void proto_free_hull(proto_hull* h) {
    if (!h) return;
    if (h->vertex_capacity) std::free(h->vertices);
    if (h->index_capacity) std::free(h->indices);
    *h = proto_hull{};
}

int proto_encode_request(proto_buf* out, const proto_request* r, proto_error* err) {
    return guarded_encode(out, err, [&] { return encode_request(out, r, err); });
}

int proto_decode_request(const void* data, size_t size, const proto_limits* limits, proto_request* out,
                         proto_error* err) {
    return guarded(err, [&] { return decode_request(data, size, limits, out, err); });
}

uint64_t proto_request_id(const void* data, size_t size) {
    try {
        std::vector<uint64_t> scratch;
        return peek_request(data, size, scratch).id;
    } catch (...) {
        return 0;
    }
}

int proto_encode_response(proto_buf* out, const proto_response* r, proto_error* err) {
    return guarded_encode(out, err, [&] { return encode_response(out, r, err); });
}

int proto_encode_error_response(proto_buf* out, uint64_t request_id, proto_body kind, proto_status status,
                                const char* message, proto_error* err) {
    return guarded_encode(out, err, [&] {
        if (status == PROTO_STATUS_OK) return proto_set_error(err, "error response: status is ok");
        proto_response r{};
        r.request_id = request_id;
        r.kind = kind;
        r.status = status;
        const char* m = message ? message : "";
        size_t n = std::strlen(m);
        if (n > sizeof r.error - 1) n = sizeof r.error - 1;
        // Cut before a UTF-8 continuation byte, never inside a character.
        while (n > 0 && n < std::strlen(m) && (static_cast<unsigned char>(m[n]) & 0xC0) == 0x80) n--;
        std::memcpy(r.error, m, n);
        r.error[n] = '\0';
        if (!proto_check_utf8(r.error, n)) return proto_set_error(err, "error response: message is not UTF-8");
        return encode_response(out, &r, err);
    });
}

int proto_decode_response(const void* data, size_t size, const proto_limits* limits, proto_response* out,
                          proto_error* err) {
    return guarded(err, [&] { return decode_response(data, size, limits, out, err); });
}

void proto_free_response(proto_response* r) {
    if (!r) return;
    proto_free_world_info(&r->world_info);
    proto_free_hull(&r->hull);
    *r = proto_response{};
}

}  // extern "C"
