// SPDX-License-Identifier: MIT
/* Writes the fuzzers' binary seed corpora with the project's own encoders,
 * so that the seeds are valid messages of the current format:
 *
 *   make-seeds DIR      (DIR/request, DIR/snapshot, DIR/compact, DIR/mesh,
 *                        DIR/checkpoint, DIR/view; the folders must exist)
 *
 * The JSON seeds (scenario, vessel_type) are copies of data files. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_view_fleet.h"
#include "naval/checkpoint.h"
#include "naval/hullgen.h"
#include "naval/scenario.h"
#include "proto.h"
#include "view.h"

static const char* seeds_dir;

static void seeds_die(const char* what, const char* why) {
    fprintf(stderr, "make-seeds: %s: %s\n", what, why);
    exit(1);
}

static void seeds_write(const char* corpus, const char* name, const void* data, size_t size) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/seed-%s", seeds_dir, corpus, name);
    FILE* f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f)) seeds_die(path, "cannot write");
}

static void seeds_requests(void) {
    proto_buf b = {0};
    proto_error err;
    proto_request r;
    memset(&r, 0, sizeof r);
    r.request_id = 7;
    r.kind = PROTO_BODY_HELLO;
    r.body.hello.protocol_version = PROTO_VERSION;
    snprintf(r.body.hello.client_name, sizeof r.body.hello.client_name, "seed");
    if (proto_encode_request(&b, &r, &err)) seeds_die("hello", err.message);
    seeds_write("request", "hello", b.data, b.size);
    memset(&r.body, 0, sizeof r.body);
    r.kind = PROTO_BODY_SPAWN;
    snprintf(r.body.spawn.type_name, sizeof r.body.spawn.type_name, "patrol");
    r.body.spawn.x = 120.5;
    r.body.spawn.z = -40.0;
    r.body.spawn.heading = 1.2;
    snprintf(r.admin_token, sizeof r.admin_token, "0123456789abcdef0123");
    if (proto_encode_request(&b, &r, &err)) seeds_die("spawn", err.message);
    seeds_write("request", "spawn", b.data, b.size);
    r.admin_token[0] = '\0';
    memset(&r.body, 0, sizeof r.body);
    r.kind = PROTO_BODY_CONTROL;
    r.body.control.vessel_id = 42;
    for (int i = 0; i < 16; i++) r.body.control.token.bytes[i] = (uint8_t)(i * 17 + 3);
    r.body.control.throttle = 0.75f;
    r.body.control.rudder = -0.25f;
    if (proto_encode_request(&b, &r, &err)) seeds_die("control", err.message);
    seeds_write("request", "control", b.data, b.size);
    proto_token token = r.body.control.token;
    memset(&r.body, 0, sizeof r.body);
    r.kind = PROTO_BODY_DESPAWN;
    r.body.despawn.vessel_id = 42;
    r.body.despawn.token = token;
    if (proto_encode_request(&b, &r, &err)) seeds_die("despawn", err.message);
    seeds_write("request", "despawn", b.data, b.size);
    memset(&r.body, 0, sizeof r.body);
    r.kind = PROTO_BODY_HULL;
    r.body.get_hull.type = 2;
    if (proto_encode_request(&b, &r, &err)) seeds_die("hull", err.message);
    seeds_write("request", "get-hull", b.data, b.size);
    r.kind = PROTO_BODY_WORLD_INFO;
    if (proto_encode_request(&b, &r, &err)) seeds_die("world info", err.message);
    seeds_write("request", "world-info", b.data, b.size);
    memset(&r.body, 0, sizeof r.body);
    r.kind = PROTO_BODY_DAMAGE;
    r.body.damage.vessel_id = 42;
    r.body.damage.point[0] = -2.7f, r.body.damage.point[1] = -1.0f;
    r.body.damage.area = 0.3f;
    snprintf(r.admin_token, sizeof r.admin_token, "0123456789abcdef0123");
    if (proto_encode_request(&b, &r, &err)) seeds_die("damage", err.message);
    seeds_write("request", "damage", b.data, b.size);
    r.admin_token[0] = '\0';
    memset(&r.body, 0, sizeof r.body);
    r.kind = PROTO_BODY_PUMPS;
    r.body.pumps.vessel_id = 42;
    r.body.pumps.token = token;
    r.body.pumps.on = 1;
    if (proto_encode_request(&b, &r, &err)) seeds_die("pumps", err.message);
    seeds_write("request", "pumps", b.data, b.size);

    proto_response res;
    memset(&res, 0, sizeof res);
    res.request_id = 9;
    res.status = PROTO_STATUS_OK;
    res.kind = PROTO_BODY_SPAWN;
    res.body.spawn.vessel_id = 42;
    res.body.spawn.token = token;
    if (proto_encode_response(&b, &res, &err)) seeds_die("spawn reply", err.message);
    seeds_write("request", "spawn-reply", b.data, b.size);
    memset(&res.body, 0, sizeof res.body);
    res.kind = PROTO_BODY_DAMAGE;
    res.body.damage_compartment = 3;
    if (proto_encode_response(&b, &res, &err)) seeds_die("damage reply", err.message);
    seeds_write("request", "damage-reply", b.data, b.size);
    if (proto_encode_error_response(&b, 10, PROTO_BODY_CONTROL, PROTO_STATUS_UNAUTHORIZED, "wrong token", &err))
        seeds_die("error reply", err.message);
    seeds_write("request", "error-reply", b.data, b.size);
    proto_free_buf(&b);
}

static void seeds_fleet(proto_snapshot* s, proto_vessel* v, uint32_t n, uint64_t tick) {
    memset(s, 0, sizeof *s);
    s->tick = tick;
    s->sim_time = (double)tick / 60.0;
    s->send_time_ns = 1700000000000000000ull + tick;
    s->stats.step_ms = 1.5f;
    s->stats.vessel_count = n;
    for (uint32_t i = 0; i < n; i++) {
        double t = s->sim_time, a = 0.3 * i + 0.05 * t;
        memset(&v[i], 0, sizeof v[i]);
        v[i].id = i * 3 + 1;
        v[i].type = (uint16_t)(i % 3);
        v[i].position[0] = 100.0 * i + 4.0 * t;
        v[i].position[1] = 0.4 * sin(t + i);
        v[i].position[2] = -50.0 * i;
        v[i].orientation[1] = (float)sin(a / 2);
        v[i].orientation[3] = (float)cos(a / 2);
        v[i].velocity[0] = 4.0f;
        v[i].angular_velocity[1] = 0.05f;
    }
    if (n > 4) v[4].position[0] = 5e6; /* far away: a raw record in compact form */
    s->vessels = v;
    s->vessel_count = n;
}

static void seeds_snapshots(void) {
    proto_buf b = {0};
    proto_error err;
    proto_vessel v[6];
    proto_snapshot s;
    seeds_fleet(&s, v, 3, 120);
    if (proto_encode_snapshot(&b, &s, &err)) seeds_die("snapshot", err.message);
    seeds_write("snapshot", "snapshot", b.data, b.size);
    /* with contacts: between two vessels, with the ground, with a structure */
    proto_contact c[3] = {
        {.tick = 120, .a = 0, .b = 1, .point = {1, 0, 2}, .normal = {1, 0, 0}, .closing_speed = 3, .impulse = 5e4f},
        {.tick = 120, .a = 2, .b = PROTO_CONTACT_GROUND, .normal = {0, 1, 0}, .impulse = 10},
        {.tick = 120, .a = 1, .b = PROTO_CONTACT_GROUND, .normal = {0, 0, 1}, .structure = 1}};
    s.contacts = c;
    s.contact_count = 3;
    if (proto_encode_snapshot(&b, &s, &err)) seeds_die("snapshot", err.message);
    seeds_write("snapshot", "snapshot-contacts", b.data, b.size);
    s.contacts = NULL;
    s.contact_count = 0;

    proto_world_info w;
    memset(&w, 0, sizeof w);
    w.protocol_version = PROTO_VERSION;
    snprintf(w.server_name, sizeof w.server_name, "seed");
    w.tick_hz = 60;
    w.tick = 120;
    w.sim_time = 2;
    w.gravity = 9.81;
    w.water_density = 1025;
    w.has_ocean = 1;
    w.ocean.spectrum = 2;
    w.ocean.gravity = 9.81;
    w.ocean.wind_speed = 9;
    w.ocean.fetch = 1e5;
    w.ocean.gamma = 3.3;
    w.ocean.choppiness = 1;
    w.ocean.beaufort = -1;
    w.ocean.size = 600;
    w.ocean.cascade_ratio = 5.23;
    w.ocean.cascades = 1;
    w.ocean.resolution = w.ocean.resolution_z = 256;
    w.ocean.repeat_period = 1000;
    w.ocean.seed = 1;
    w.ocean.query_iterations = 8;
    w.ocean.query_tolerance = 1e-3;
    w.ocean.surface_grid = 1;
    w.ocean.patch_sizes[0] = 600;
    w.ocean.time = 2;
    proto_vessel_type types[2];
    memset(types, 0, sizeof types);
    snprintf(types[0].name, sizeof types[0].name, "skiff");
    types[0].mass = 1500;
    types[0].vertex_count = 150;
    types[0].triangle_count = 296;
    types[1].type = 1;
    snprintf(types[1].name, sizeof types[1].name, "patrol");
    types[1].mass = 80000;
    w.types = types;
    w.type_count = 2;
    if (proto_encode_world_info(&b, &w, &err)) seeds_die("world info", err.message);
    seeds_write("snapshot", "world-info", b.data, b.size);
    uint16_t heights[4 * 3];
    for (int k = 0; k < 12; k++) heights[k] = (uint16_t)(k * 5000);
    w.terrain = (proto_terrain_info){.present = 1,
                                     .origin_x = -10,
                                     .origin_z = -5,
                                     .cell_size = 4,
                                     .nx = 4,
                                     .nz = 3,
                                     .min_elevation = -30,
                                     .max_elevation = 25,
                                     .heights = heights};
    if (proto_encode_world_info(&b, &w, &err)) seeds_die("world info", err.message);
    seeds_write("snapshot", "world-info-terrain", b.data, b.size);
    w.terrain = (proto_terrain_info){0};
    float corners[12] = {-40, -4, 10, -30, -4, 10, -40, 4, 10, -40, -4, 22};
    uint32_t faces[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    proto_structure_info quay = {.vertices = corners, .vertex_count = 4, .indices = faces, .triangle_count = 4};
    w.structures = &quay;
    w.structure_count = 1;
    if (proto_encode_world_info(&b, &w, &err)) seeds_die("world info", err.message);
    seeds_write("snapshot", "world-info-structures", b.data, b.size);
    w.structures = NULL;
    w.structure_count = 0;

    nv_mesh m;
    nv_error e;
    if (nv_hullgen_build("cube", 12, &m, &e)) seeds_die("cube", e.message);
    proto_hull h;
    memset(&h, 0, sizeof h);
    snprintf(h.name, sizeof h.name, "cube");
    h.vertices = m.positions;
    h.vertex_count = m.vertex_count;
    h.indices = m.indices;
    h.triangle_count = m.triangle_count;
    if (proto_encode_hull(&b, &h, &err)) seeds_die("hull", err.message);
    seeds_write("snapshot", "hull", b.data, b.size);
    nv_mesh_free(&m);
    proto_free_buf(&b);
}

/* Keyframe, then deltas (one with a despawn and a spawn), each framed by
 * its u32 length as fuzz_compact.c reads them. */
static void seeds_compact(void) {
    proto_error err;
    proto_compact_encoder* e = proto_create_compact_encoder(30, &err);
    if (!e) seeds_die("compact encoder", err.message);
    proto_buf b = {0};
    uint8_t* stream = NULL;
    size_t size = 0;
    proto_vessel v[6];
    for (uint64_t tick = 0; tick < 4; tick++) {
        proto_snapshot s;
        seeds_fleet(&s, v, 6, tick);
        if (tick == 3) {
            v[1] = v[5]; /* vessel 5 took despawned vessel 1's place */
            v[5].id = 99;
        }
        if (proto_encode_compact(e, &s, &b, NULL, &err)) seeds_die("compact", err.message);
        uint8_t* grown = realloc(stream, size + 4 + b.size);
        if (!grown) seeds_die("compact", "out of memory");
        stream = grown;
        for (int i = 0; i < 4; i++) stream[size + i] = (uint8_t)(b.size >> (8 * i));
        memcpy(stream + size + 4, b.data, b.size);
        size += 4 + b.size;
        if (tick == 0) seeds_write("compact", "keyframe", stream, size);
    }
    seeds_write("compact", "keyframe-and-deltas", stream, size);
    free(stream);
    proto_free_buf(&b);
    proto_destroy_compact_encoder(e);
}

/* The mesh harness reads a selector byte (0 STL, 1 OBJ, 2 OFF), then the file. */
static void seeds_meshes(void) {
    nv_mesh m;
    nv_error e;
    if (nv_hullgen_build("cube", 12, &m, &e)) seeds_die("cube", e.message);
    size_t cap = 64 + (size_t)m.triangle_count * 400 + (size_t)m.vertex_count * 100;
    char* text = malloc(cap);
    if (!text) seeds_die("mesh", "out of memory");
    size_t n = 0;
    text[n++] = 1;
    for (uint32_t i = 0; i < m.vertex_count; i++)
        n += (size_t)snprintf(text + n, cap - n, "v %g %g %g\n", m.positions[3 * i], m.positions[3 * i + 1],
                              m.positions[3 * i + 2]);
    for (uint32_t t = 0; t < m.triangle_count; t++)
        n += (size_t)snprintf(text + n, cap - n, "f %u %u %u\n", m.indices[3 * t] + 1, m.indices[3 * t + 1] + 1,
                              m.indices[3 * t + 2] + 1);
    seeds_write("mesh", "cube.obj", text, n);
    n = 0;
    text[n++] = 2;
    n += (size_t)snprintf(text + n, cap - n, "OFF\n%u %u 0\n", m.vertex_count, m.triangle_count);
    for (uint32_t i = 0; i < m.vertex_count; i++)
        n += (size_t)snprintf(text + n, cap - n, "%g %g %g\n", m.positions[3 * i], m.positions[3 * i + 1],
                              m.positions[3 * i + 2]);
    for (uint32_t t = 0; t < m.triangle_count; t++)
        n += (size_t)snprintf(text + n, cap - n, "3 %u %u %u\n", m.indices[3 * t], m.indices[3 * t + 1],
                              m.indices[3 * t + 2]);
    seeds_write("mesh", "cube.off", text, n);
    n = 0;
    text[n++] = 0;
    n += (size_t)snprintf(text + n, cap - n, "solid cube\n");
    for (uint32_t t = 0; t < m.triangle_count; t++) {
        n += (size_t)snprintf(text + n, cap - n, "facet normal 0 0 0\nouter loop\n");
        for (int k = 0; k < 3; k++) {
            const float* p = &m.positions[3 * m.indices[3 * t + k]];
            n += (size_t)snprintf(text + n, cap - n, "vertex %g %g %g\n", p[0], p[1], p[2]);
        }
        n += (size_t)snprintf(text + n, cap - n, "endloop\nendfacet\n");
    }
    n += (size_t)snprintf(text + n, cap - n, "endsolid cube\n");
    seeds_write("mesh", "cube-ascii.stl", text, n);
    /* binary STL: 80-byte header, u32 count, 50 bytes per triangle */
    n = 0;
    text[n++] = 0;
    memset(text + n, 0, 80);
    memcpy(text + n, "binary cube", 11);
    n += 80;
    for (int i = 0; i < 4; i++) text[n++] = (char)(m.triangle_count >> (8 * i));
    for (uint32_t t = 0; t < m.triangle_count; t++) {
        float f[12] = {0};
        for (int k = 0; k < 3; k++) memcpy(&f[3 + 3 * k], &m.positions[3 * m.indices[3 * t + k]], 12);
        memcpy(text + n, f, 48);
        n += 48;
        text[n++] = 0;
        text[n++] = 0;
    }
    seeds_write("mesh", "cube-binary.stl", text, n);
    free(text);
    nv_mesh_free(&m);
}

/* A small world on flat water: a cube hull and a skiff (slamming memory,
 * actuators), a step taken, one vessel gone. */
static void seeds_checkpoint(void) {
    static const char json[] =
        "{\"hull_types\": [{\"name\": \"box\", \"hull\": \"builtin:cube\", \"density\": 500}],"
        " \"vessel_types\": [\"builtin:skiff\"], \"terrain\": \"builtin:harbour\","
        " \"structures\": [{\"box\": [10, 8, 40], \"position\": [200, -5, 200], \"heading_deg\": 30}],"
        " \"vessels\": [{\"type\": \"box\", \"position\": [0, 0]}, {\"type\": \"box\", \"position\": [5, 5]},"
        "               {\"type\": \"skiff\", \"position\": [10, 0], \"controls\": {\"throttle\": 1, \"rudder\": 0.5}}]}";
    nv_scenario s;
    nv_scenario_instance inst;
    nv_error e;
    if (nv_scenario_parse(json, sizeof json - 1, "seed", NULL, &s, &e) || nv_scenario_instantiate(&s, NULL, &inst, &e))
        seeds_die("checkpoint world", e.message);
    nv_world_step(inst.world);
    if (nv_world_despawn(inst.world, 1, &e)) seeds_die("despawn", e.message);
    nv_checkpoint_source src = {.world = inst.world,
                             .hulls = s.hulls,
                             .hull_count = s.hull_count,
                             .terrain = &s.terrain,
                             .structures = s.structures,
                             .owner_blob = "owners",
                             .owner_size = 6};
    uint8_t* data;
    size_t size;
    if (nv_checkpoint_encode(&src, &data, &size, &e)) seeds_die("checkpoint", e.message);
    seeds_write("checkpoint", "small-world", data, size);
    free(data);
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&s);

    /* Damage: a patrol boat holed twice, pumping, a few steps on. */
    static const char flooding[] =
        "{\"vessel_types\": [\"builtin:patrol\"], \"sunk_removal_depth\": 30,"
        " \"vessels\": [{\"type\": \"patrol\", \"position\": [0, 0]}, {\"type\": \"patrol\", \"position\": [30, 0]}]}";
    if (nv_scenario_parse(flooding, sizeof flooding - 1, "seed", NULL, &s, &e) ||
        nv_scenario_instantiate(&s, NULL, &inst, &e) ||
        nv_world_breach(inst.world, 0, v3(-2.7, -1.0, 0.0), 0.1, &e) ||
        nv_world_breach(inst.world, 0, v3(6.0, -0.6, 0.0), 0.05, &e) || nv_world_set_pumps(inst.world, 0, 1, &e))
        seeds_die("flooding world", e.message);
    for (int i = 0; i < 5; i++) nv_world_step(inst.world);
    src = (nv_checkpoint_source){.world = inst.world, .hulls = s.hulls, .hull_count = s.hull_count, .terrain = &s.terrain};
    if (nv_checkpoint_encode(&src, &data, &size, &e)) seeds_die("checkpoint", e.message);
    seeds_write("checkpoint", "flooding", data, size);
    free(data);
    nv_scenario_instance_destroy(&inst);
    nv_scenario_free(&s);
}

/* ---- player views: fuzz_view.c's requests, sessions and update streams ---- */

typedef struct seeds_chunks {
    uint8_t* data;
    size_t size;
} seeds_chunks;

/* fuzz_view.c's chunk: a 16-bit little-endian length, then the bytes. */
static void seeds_chunk(seeds_chunks* c, const void* data, size_t size) {
    if (size > 0xFFFF) seeds_die("view chunk", "over 64 KiB");
    uint8_t* grown = realloc(c->data, c->size + 2 + size);
    if (!grown) seeds_die("view chunk", "out of memory");
    c->data = grown;
    c->data[c->size] = (uint8_t)size;
    c->data[c->size + 1] = (uint8_t)(size >> 8);
    if (size) memcpy(c->data + c->size + 2, data, size);
    c->size += 2 + size;
}

static void seeds_view_request(proto_buf* b, uint32_t ack, uint32_t mask, const proto_view_settings* s) {
    proto_view_request r;
    memset(&r, 0, sizeof r);
    r.ack = ack;
    r.ack_mask = mask;
    if (s) {
        r.has_settings = 1;
        r.settings = *s;
    }
    proto_error err;
    if (proto_encode_view_request(b, &r, &err)) seeds_die("view request", err.message);
}

static proto_view_settings seeds_view_settings(double x, double z, float radius, int own) {
    proto_view_settings s;
    memset(&s, 0, sizeof s);
    s.center[0] = x;
    s.center[1] = z;
    s.radius = radius;
    if (own) {
        s.follow_own = 1;
        s.own_count = 1;
        s.own[0].id = FUZZ_VIEW_OWN_ID;
        memset(s.own[0].token.bytes, FUZZ_VIEW_OWN_BYTE, sizeof s.own[0].token.bytes);
    }
    return s;
}

/* Whole requests (for proto_decode_view_request and the hub). */
static void seeds_view_requests(void) {
    proto_buf b = {0};
    proto_view_settings s = seeds_view_settings(0.0, 0.0, 500.0f, 0);
    seeds_view_request(&b, 0, 0, &s);
    seeds_write("view", "settings", b.data, b.size);
    seeds_view_request(&b, 5, 0x1Fu, NULL);
    seeds_write("view", "ack", b.data, b.size);
    s = seeds_view_settings(0.0, 0.0, 300.0f, 1);
    s.budget_kbps = 64;
    seeds_view_request(&b, 0, 0, &s);
    seeds_write("view", "settings-own", b.data, b.size);
    proto_free_buf(&b);
}

/* A session for the hub: settings, the client's acks (1-byte chunks, odd)
 * and frames without requests (even), a move, own vessels, a reconnect. */
static void seeds_view_session(void) {
    proto_buf b = {0};
    seeds_chunks c = {NULL, 0};
    static const uint8_t ack = 1, idle = 0;
    proto_view_settings s = seeds_view_settings(0.0, 0.0, 400.0f, 0);
    seeds_view_request(&b, 0, 0, &s);
    seeds_chunk(&c, b.data, b.size);
    for (int i = 0; i < 12; i++) seeds_chunk(&c, i % 4 == 3 ? &idle : &ack, 1);
    s = seeds_view_settings(150.0, -60.0, 2000.0f, 0);
    seeds_view_request(&b, 0, 0, &s);
    seeds_chunk(&c, b.data, b.size);
    for (int i = 0; i < 8; i++) seeds_chunk(&c, &ack, 1);
    seeds_chunk(&c, NULL, 0);
    s = seeds_view_settings(0.0, 0.0, 200.0f, 1);
    seeds_view_request(&b, 0, 0, &s);
    seeds_chunk(&c, b.data, b.size);
    for (int i = 0; i < 8; i++) seeds_chunk(&c, &ack, 1);
    seeds_write("view", "session", c.data, c.size);
    /* a client that stops acknowledging: keyframes once a second */
    seeds_chunks q = {NULL, 0};
    s = seeds_view_settings(0.0, 0.0, 800.0f, 0);
    seeds_view_request(&b, 0, 0, &s);
    seeds_chunk(&q, b.data, b.size);
    for (int i = 0; i < 60; i++) seeds_chunk(&q, &idle, 1);
    seeds_chunk(&q, &ack, 1);
    seeds_write("view", "session-silent", q.data, q.size);
    free(c.data);
    free(q.data);
    proto_free_buf(&b);
}

/* One hub step: the next frame encoded, its update (if any) appended and
 * decoded by the client, which acknowledges it when `acks`. */
static void seeds_view_step(view_hub* h, proto_view_decoder* d, uint32_t step, int acks, seeds_chunks* c,
                            proto_buf* b) {
    proto_vessel v[FUZZ_VIEW_FLEET_MAX];
    view_frame f;
    memset(&f, 0, sizeof f);
    f.count = fuzz_view_fleet(step, v, &f.tick);
    f.sim_time = (double)f.tick / 60.0;
    f.send_time_ns = f.tick;
    f.vessels = v;
    nv_error err;
    proto_vessel_damage dmg[FUZZ_VIEW_DAMAGE_MAX];
    proto_damage_event ev[1];
    uint32_t ndmg, nev;
    fuzz_view_damage(step, dmg, &ndmg, ev, &nev);
    if (view_hub_set_damage(h, dmg, ndmg, ev, nev, &err) || view_hub_encode(h, &f, NULL, &err))
        seeds_die("view encode", err.message);
    for (uint32_t i = 0; i < view_hub_output_count(h); i++) {
        uint32_t conn;
        const uint8_t* out;
        size_t n;
        view_hub_output(h, i, &conn, &out, &n);
        seeds_chunk(c, out, n);
        proto_view_header hd;
        if (proto_decode_view_update(d, out, n, &hd, &err)) seeds_die("view update", err.message);
    }
    if (!acks) return;
    uint32_t ack, mask;
    proto_view_decoder_ack(d, &ack, &mask);
    seeds_view_request(b, ack, mask, NULL);
    if (view_handle(h, FUZZ_VIEW_CONN, b->data, b->size, &err)) seeds_die("view ack", err.message);
}

/* What a hub sends one client (for the decoder, chunk by chunk): joining,
 * steady updates, a move, a refusal; and a silent client's keyframes. */
static void seeds_view_updates(int silent, const char* name) {
    view_config cfg;
    fuzz_view_config(&cfg);
    view_hub* h;
    nv_error err;
    if (view_hub_create(&h, &cfg, fuzz_view_owner, NULL, &err) || view_open(h, FUZZ_VIEW_CONN, &err))
        seeds_die("view hub", err.message);
    proto_view_decoder* d = proto_create_view_decoder(64, &err);
    if (!d) seeds_die("view decoder", err.message);
    proto_buf b = {0};
    seeds_chunks c = {NULL, 0};
    proto_view_settings s = seeds_view_settings(0.0, 0.0, 300.0f, !silent);
    seeds_view_request(&b, 0, 0, &s);
    if (view_handle(h, FUZZ_VIEW_CONN, b.data, b.size, &err)) seeds_die("view settings", err.message);
    uint32_t steps = silent ? 150 : 40;
    for (uint32_t step = 0; step < steps; step++) {
        if (step == 20 && !silent) {
            s = seeds_view_settings(-300.0, 200.0, 900.0f, 0);
            seeds_view_request(&b, 0, 0, &s);
            if (view_handle(h, FUZZ_VIEW_CONN, b.data, b.size, &err)) seeds_die("view move", err.message);
        }
        seeds_view_step(h, d, step, !silent, &c, &b);
    }
    /* an ack of an update never sent: refused */
    seeds_view_request(&b, 100000, 0, NULL);
    const uint8_t* out;
    size_t n;
    if (!view_handle(h, FUZZ_VIEW_CONN, b.data, b.size, &err))
        seeds_die("view refusal", "the hub took an ack of an update never sent");
    if (view_refusal(h, FUZZ_VIEW_CONN, &err, &out, &n)) seeds_die("view refusal", "none");
    seeds_chunk(&c, out, n);
    seeds_write("view", name, c.data, c.size);
    free(c.data);
    proto_free_buf(&b);
    proto_destroy_view_decoder(d);
    view_hub_destroy(h);
}

static void seeds_views(void) {
    seeds_view_requests();
    seeds_view_session();
    seeds_view_updates(0, "updates");
    seeds_view_updates(1, "updates-keyframes");
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make-seeds DIR (holding request/ snapshot/ compact/ mesh/ checkpoint/ view/)\n");
        return 2;
    }
    seeds_dir = argv[1];
    seeds_requests();
    seeds_snapshots();
    seeds_compact();
    seeds_meshes();
    seeds_checkpoint();
    seeds_views();
    return 0;
}
