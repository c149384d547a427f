// SPDX-License-Identifier: MIT
/* The wire protocol's FlatBuffers messages: round trips of every message,
 * and hostile input: truncated, corrupted, random, wrong identifier, union
 * type mismatch, bad string lengths, oversized vectors. Run under ASan +
 * UBSan too (make test-sanitize): a decoder must reject, never crash or
 * read out of bounds. The compact encoding: test_proto_compact.c. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_proto_util.h"

/* ---- a tiny FlatBuffers reader, to aim corruptions at known fields ------------ */

static uint32_t rd32(const uint8_t* b, size_t o) {
    uint32_t v;
    memcpy(&v, b + o, 4);
    return v;
}
static uint16_t rd16(const uint8_t* b, size_t o) {
    uint16_t v;
    memcpy(&v, b + o, 2);
    return v;
}
/* Position of field `index` of the table at `table`, 0 when absent. */
static size_t fb_field(const uint8_t* b, size_t table, int index) {
    size_t vt = table - (size_t)(int32_t)rd32(b, table);
    uint16_t vt_size = rd16(b, vt);
    size_t slot = 4 + 2 * (size_t)index;
    uint16_t off = slot < vt_size ? rd16(b, vt + slot) : 0;
    return off ? table + off : 0;
}
static size_t fb_deref(const uint8_t* b, size_t pos) { return pos + rd32(b, pos); }

/* A mutable, aligned copy of the last encoded message. */
static uint8_t* copy_msg(const proto_buf* b) {
    uint8_t* m = malloc(b->size + 8);
    assert_non_null(m);
    memcpy(m, b->data, b->size);
    return m;
}

/* ---- round trips --------------------------------------------------------------- */

static void snapshot_round_trip(void** state) {
    (void)state;
    test_rng r = {11};
    enum { N = 1000 };
    proto_vessel* v = calloc(N, sizeof *v);
    random_fleet(&r, v, N, 12000.0, -8000.0, 30000.0);
    v[5].position[0] = 123456.789012345678; /* doubles go through to the bit */
    proto_snapshot s = {0}, d = {0};
    s.tick = 123456789012ull;
    s.sim_time = 2057.25;
    s.send_time_ns = 1700000000123456789ull;
    s.stats = (proto_tick_stats){1.5f, 0.25f, 0.5f, 0.5f, 0.25f, 0.125f, 4000, 7, 42, 0.0625f, 7701};
    s.vessels = v;
    s.vessel_count = N;
    proto_buf b = {0};
    proto_error err;
    ASSERT_PROTO_OK(proto_encode_snapshot(&b, &s, &err), err);
    assert_int_equal(proto_identify(b.data, b.size), PROTO_KIND_SNAPSHOT);
    assert_memory_equal(b.data + 4, PROTO_ID_SNAPSHOT, 4);
    assert_true(b.size < N * 72 + 200);
    ASSERT_PROTO_OK(proto_decode_snapshot(b.data, b.size, NULL, &d, &err), err);
    assert_int_equal(d.tick, s.tick);
    assert_true(d.sim_time == s.sim_time);
    assert_int_equal(d.send_time_ns, s.send_time_ns);
    assert_true(d.stats.step_ms == s.stats.step_ms && d.stats.water_ms == s.stats.water_ms &&
                d.stats.vertex_ms == s.stats.vertex_ms && d.stats.triangle_ms == s.stats.triangle_ms &&
                d.stats.integrate_ms == s.stats.integrate_ms && d.stats.snapshot_ms == s.stats.snapshot_ms &&
                d.stats.lod_ms == s.stats.lod_ms && d.stats.command_port == 7701);
    assert_true(d.stats.vessel_count == 4000 && d.stats.subscribers == 7 && d.stats.overruns == 42);
    assert_int_equal(d.vessel_count, N);
    assert_memory_equal(d.vessels, v, N * sizeof *v);

    /* The buffer is reused: the same message size lands in the same memory. */
    const uint8_t* first = b.data;
    ASSERT_PROTO_OK(proto_encode_snapshot(&b, &s, &err), err);
    assert_ptr_equal(b.data, first);
    /* Decoding again into the same struct keeps its array. */
    proto_vessel* kept = d.vessels;
    ASSERT_PROTO_OK(proto_decode_snapshot(b.data, b.size, NULL, &d, &err), err);
    assert_ptr_equal(d.vessels, kept);

    /* Contacts ride along, bit for bit; a snapshot without them has none. */
    assert_int_equal(d.contact_count, 0);
    proto_contact c[3] = {{.tick = 77,
                           .a = 4,
                           .b = 9,
                           .point = {1.5, -0.25, 123456.789012345678},
                           .normal = {0.6f, 0.0f, -0.8f},
                           .closing_speed = 3.5f,
                           .impulse = 1.25e5f},
                          {.tick = 78,
                           .a = 11,
                           .b = PROTO_CONTACT_GROUND,
                           .point = {-3, 0, 2},
                           .normal = {0, 1, 0},
                           .closing_speed = 0.5f,
                           .impulse = 900.0f},
                          {.tick = 78, .a = 2, .b = 3, .point = {7, 8, 9}, .normal = {1, 0, 0}}};
    s.contacts = c;
    s.contact_count = 3;
    ASSERT_PROTO_OK(proto_encode_snapshot(&b, &s, &err), err);
    ASSERT_PROTO_OK(proto_decode_snapshot(b.data, b.size, NULL, &d, &err), err);
    assert_int_equal(d.contact_count, 3);
    assert_memory_equal(d.contacts, c, sizeof c);
    assert_int_equal(d.vessel_count, N);
    s.contact_count = 0;
    ASSERT_PROTO_OK(proto_encode_snapshot(&b, &s, &err), err);
    ASSERT_PROTO_OK(proto_decode_snapshot(b.data, b.size, NULL, &d, &err), err);
    assert_int_equal(d.contact_count, 0);
    s.contacts = NULL;
    s.contact_count = 1;
    assert_int_equal(proto_encode_snapshot(&b, &s, &err), -1);
    assert_non_null(strstr(err.message, "contacts missing"));
    s.contact_count = 0;

    /* No vessels at all. */
    s.vessel_count = 0;
    ASSERT_PROTO_OK(proto_encode_snapshot(&b, &s, &err), err);
    ASSERT_PROTO_OK(proto_decode_snapshot(b.data, b.size, NULL, &d, &err), err);
    assert_int_equal(d.vessel_count, 0);

    /* A misaligned copy decodes the same (copied to aligned memory inside). */
    s.vessel_count = N;
    ASSERT_PROTO_OK(proto_encode_snapshot(&b, &s, &err), err);
    uint8_t* odd = malloc(b.size + 1);
    memcpy(odd + 1, b.data, b.size);
    ASSERT_PROTO_OK(proto_decode_snapshot(odd + 1, b.size, NULL, &d, &err), err);
    assert_memory_equal(d.vessels, v, N * sizeof *v);
    free(odd);
    proto_free_snapshot(&d);
    proto_free_buf(&b);
    free(v);
}

static void fill_world_info(proto_world_info* w, proto_vessel_type* types, uint32_t ntypes) {
    memset(w, 0, sizeof *w);
    strcpy(w->server_name, "naval-test \xc3\xa9");  /* UTF-8 survives */
    w->tick_hz = 60.0;
    w->tick = 3600;
    w->sim_time = 60.0;
    w->gravity = 9.81;
    w->water_density = 1025.0;
    w->has_ocean = 1;
    proto_ocean_spec* o = &w->ocean;
    o->spectrum = 2;
    o->spreading = 2;
    o->gravity = 9.81;
    o->wind_speed = 12.5;
    o->wind_direction = 30.0;
    o->fetch = 1e5;
    o->depth = 0.0;
    o->gamma = 3.3;
    o->swell = 0.25;
    o->choppiness = 1.2;
    o->beaufort = -1;
    o->hs_target = 2.5;
    o->tp = 9.5;
    o->size = 1000.0;
    o->cascade_ratio = 5.23;
    o->cascades = 3;
    o->resolution = 256;
    o->resolution_z = 128;
    o->repeat_period = 1000.0;
    o->min_wavelength = 0.5;
    o->seed = 0xDEADBEEFCAFEF00Dull;
    o->query_iterations = 8;
    o->query_tolerance = 1e-3;
    o->surface_grid = 1;
    o->patch_sizes[0] = 1000.0;
    o->patch_sizes[1] = 1000.0 / 5.23;
    o->patch_sizes[2] = 1000.0 / (5.23 * 5.23);
    o->time = 61.5;
    for (uint32_t i = 0; i < ntypes; i++) {
        memset(&types[i], 0, sizeof types[i]);
        types[i].type = (uint16_t)i;
        snprintf(types[i].name, sizeof types[i].name, "type-%u", i);
        types[i].mass = 1000.0 * (i + 1);
        for (int k = 0; k < 3; k++) {
            types[i].bounds_min[k] = -1.0f - (float)k - (float)i;
            types[i].bounds_max[k] = 2.0f + (float)k + (float)i;
        }
        types[i].vertex_count = 100 + i;
        types[i].triangle_count = 196 + i;
    }
    w->types = types;
    w->type_count = ntypes;
}

static void assert_world_info_equal(const proto_world_info* a, const proto_world_info* b) {
    assert_int_equal(b->protocol_version, PROTO_VERSION);
    assert_string_equal(a->server_name, b->server_name);
    assert_true(a->tick_hz == b->tick_hz && a->tick == b->tick && a->sim_time == b->sim_time);
    assert_true(a->gravity == b->gravity && a->water_density == b->water_density);
    assert_int_equal(a->has_ocean, b->has_ocean);
    if (a->has_ocean) assert_memory_equal(&a->ocean, &b->ocean, sizeof a->ocean);
    assert_int_equal(a->type_count, b->type_count);
    for (uint32_t i = 0; i < a->type_count; i++) assert_memory_equal(&a->types[i], &b->types[i], sizeof a->types[i]);
}

static void world_info_round_trip(void** state) {
    (void)state;
    proto_vessel_type types[3];
    proto_world_info w, d = {0};
    fill_world_info(&w, types, 3);
    proto_buf b = {0};
    proto_error err;
    ASSERT_PROTO_OK(proto_encode_world_info(&b, &w, &err), err);
    assert_int_equal(proto_identify(b.data, b.size), PROTO_KIND_WORLD_INFO);
    ASSERT_PROTO_OK(proto_decode_world_info(b.data, b.size, NULL, &d, &err), err);
    w.protocol_version = PROTO_VERSION;
    assert_world_info_equal(&w, &d);
    /* Flat water: no ocean spec at all. */
    w.has_ocean = 0;
    ASSERT_PROTO_OK(proto_encode_world_info(&b, &w, &err), err);
    ASSERT_PROTO_OK(proto_decode_world_info(b.data, b.size, NULL, &d, &err), err);
    assert_world_info_equal(&w, &d);
    assert_false(d.terrain.present);
    /* The ground rides along, to the bit; a grid the wire does not allow is refused. */
    uint16_t heights[3 * 4];
    for (int k = 0; k < 12; k++) heights[k] = (uint16_t)(k * 5000 + 7);
    w.terrain = (proto_terrain_info){.present = 1,
                                     .origin_x = -300.5,
                                     .origin_z = 12.25,
                                     .cell_size = 4.0,
                                     .nx = 3,
                                     .nz = 4,
                                     .min_elevation = -30.0f,
                                     .max_elevation = 25.0f,
                                     .heights = heights};
    ASSERT_PROTO_OK(proto_encode_world_info(&b, &w, &err), err);
    ASSERT_PROTO_OK(proto_decode_world_info(b.data, b.size, NULL, &d, &err), err);
    assert_true(d.terrain.present && d.terrain.nx == 3 && d.terrain.nz == 4 && d.terrain.origin_x == -300.5 &&
                d.terrain.origin_z == 12.25 && d.terrain.cell_size == 4.0 && d.terrain.min_elevation == -30.0f &&
                d.terrain.max_elevation == 25.0f);
    assert_memory_equal(d.terrain.heights, heights, sizeof heights);
    w.terrain.nx = PROTO_TERRAIN_MAX_NODES + 1;
    ASSERT_PROTO_FAILS(proto_encode_world_info(&b, &w, &err), err, "terrain");
    w.terrain = (proto_terrain_info){0};
    /* Structures ride along, to the bit, decoded twice into the same
     * storage; an index past the corners is refused. */
    float corners[2][12] = {{0, 0, 0, 10, 0, 0, 0, 10, 0, 0, 0, 10}, {-5, -8, 40, 5, -8, 40, 0, 4, 40, 0, -8, 52}};
    uint32_t faces[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    proto_structure_info st[2] = {{.vertices = corners[0], .vertex_count = 4, .indices = faces, .triangle_count = 4},
                                  {.vertices = corners[1], .vertex_count = 4, .indices = faces, .triangle_count = 4}};
    w.structures = st;
    w.structure_count = 2;
    for (int round = 0; round < 2; round++) {
        ASSERT_PROTO_OK(proto_encode_world_info(&b, &w, &err), err);
        ASSERT_PROTO_OK(proto_decode_world_info(b.data, b.size, NULL, &d, &err), err);
        assert_int_equal(d.structure_count, 2);
        for (int k = 0; k < 2; k++) {
            assert_int_equal(d.structures[k].vertex_count, 4);
            assert_int_equal(d.structures[k].triangle_count, 4);
            assert_memory_equal(d.structures[k].vertices, corners[k], sizeof corners[k]);
            assert_memory_equal(d.structures[k].indices, faces, sizeof faces);
        }
    }
    faces[5] = 4;
    w.structure_count = 2;
    ASSERT_PROTO_FAILS(proto_encode_world_info(&b, &w, &err), err, "structure 0's index 5 is 4");
    faces[5] = 3;
    w.structures = NULL;
    w.structure_count = 0;
    ASSERT_PROTO_OK(proto_encode_world_info(&b, &w, &err), err);
    ASSERT_PROTO_OK(proto_decode_world_info(b.data, b.size, NULL, &d, &err), err);
    assert_int_equal(d.structure_count, 0);
    /* Values the wire cannot carry are refused, not truncated. */
    memset(types[1].name, 'x', sizeof types[1].name);
    ASSERT_PROTO_FAILS(proto_encode_world_info(&b, &w, &err), err, "too long");
    strcpy(types[1].name, "bad \xff utf8");
    ASSERT_PROTO_FAILS(proto_encode_world_info(&b, &w, &err), err, "UTF-8");
    assert_int_equal(b.size, 0);
    strcpy(types[1].name, "ok");
    w.has_ocean = 1;
    w.ocean.cascades = 5;
    ASSERT_PROTO_FAILS(proto_encode_world_info(&b, &w, &err), err, "cascades");
    proto_free_world_info(&d);
    proto_free_buf(&b);
}

/* A unit cube: 8 vertices, 12 triangles. */
static void fill_cube(proto_hull* h, float* verts, uint32_t* idx) {
    static const uint32_t tris[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                      2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};
    for (int i = 0; i < 8; i++) {
        verts[3 * i + 0] = (i & 1) ^ ((i >> 1) & 1) ? 0.5f : -0.5f;
        verts[3 * i + 1] = (i & 4) ? 0.5f : -0.5f;
        verts[3 * i + 2] = (i & 2) ? 0.5f : -0.5f;
    }
    memcpy(idx, tris, sizeof tris);
    memset(h, 0, sizeof *h);
    h->type = 7;
    strcpy(h->name, "cube");
    h->vertices = verts;
    h->vertex_count = 8;
    h->indices = idx;
    h->triangle_count = 12;
}

static void hull_round_trip(void** state) {
    (void)state;
    float verts[24];
    uint32_t idx[36];
    proto_hull h, d = {0};
    fill_cube(&h, verts, idx);
    proto_buf b = {0};
    proto_error err;
    ASSERT_PROTO_OK(proto_encode_hull(&b, &h, &err), err);
    assert_int_equal(proto_identify(b.data, b.size), PROTO_KIND_HULL);
    ASSERT_PROTO_OK(proto_decode_hull(b.data, b.size, NULL, &d, &err), err);
    assert_int_equal(d.type, 7);
    assert_string_equal(d.name, "cube");
    assert_int_equal(d.vertex_count, 8);
    assert_int_equal(d.triangle_count, 12);
    assert_memory_equal(d.vertices, verts, sizeof verts);
    assert_memory_equal(d.indices, idx, sizeof idx);
    idx[17] = 8;
    ASSERT_PROTO_FAILS(proto_encode_hull(&b, &h, &err), err, "index 17");
    proto_free_hull(&d);
    proto_free_buf(&b);
}

static proto_token token_of(uint8_t seed) {
    proto_token t;
    for (int i = 0; i < 16; i++) t.bytes[i] = (uint8_t)(seed * 37 + i * 11);
    return t;
}

static void request_round_trips(void** state) {
    (void)state;
    proto_request q[7];
    memset(q, 0, sizeof q);
    for (int i = 0; i < 7; i++) q[i].request_id = 1000 + (uint64_t)i;
    q[0].kind = PROTO_BODY_HELLO;
    q[0].body.hello.protocol_version = PROTO_VERSION;
    strcpy(q[0].body.hello.client_name, "test client");
    q[0].body.hello.has_player = 1; /* the optional identity travels */
    q[0].body.hello.player = token_of(3);
    strcpy(q[0].admin_token, "s3cret");
    q[1].kind = PROTO_BODY_SPAWN;
    q[1].body.spawn = (proto_spawn){2, "ship", -150.5, 220.25, 1.25};
    q[2].kind = PROTO_BODY_CONTROL;
    q[2].body.control = (proto_control){42, token_of(3), -0.75f, 1.0f};
    q[3].kind = PROTO_BODY_DESPAWN;
    q[3].body.despawn = (proto_despawn){42, token_of(4)};
    q[4].kind = PROTO_BODY_WORLD_INFO;
    q[5].kind = PROTO_BODY_HULL;
    q[5].body.get_hull.type = 9;
    q[6].kind = PROTO_BODY_STATS;
    proto_buf b = {0};
    proto_error err;
    for (int i = 0; i < 7; i++) {
        proto_request d;
        ASSERT_PROTO_OK(proto_encode_request(&b, &q[i], &err), err);
        assert_int_equal(proto_identify(b.data, b.size), PROTO_KIND_REQUEST);
        ASSERT_PROTO_OK(proto_decode_request(b.data, b.size, NULL, &d, &err), err);
        assert_int_equal(d.request_id, q[i].request_id);
        assert_string_equal(d.admin_token, q[i].admin_token);
        assert_int_equal(d.kind, q[i].kind);
        switch (d.kind) {
        case PROTO_BODY_HELLO: assert_memory_equal(&d.body.hello, &q[i].body.hello, sizeof d.body.hello); break;
        case PROTO_BODY_SPAWN: assert_memory_equal(&d.body.spawn, &q[i].body.spawn, sizeof d.body.spawn); break;
        case PROTO_BODY_CONTROL:
            assert_memory_equal(&d.body.control, &q[i].body.control, sizeof d.body.control);
            assert_true(proto_equal_tokens(&d.body.control.token, &q[i].body.control.token));
            break;
        case PROTO_BODY_DESPAWN:
            assert_memory_equal(&d.body.despawn, &q[i].body.despawn, sizeof d.body.despawn);
            break;
        case PROTO_BODY_HULL: assert_int_equal(d.body.get_hull.type, 9); break;
        default: break;
        }
    }
    /* Controls outside [-1, 1] or not finite never reach the wire. */
    q[2].body.control.rudder = 1.5f;
    ASSERT_PROTO_FAILS(proto_encode_request(&b, &q[2], &err), err, "[-1, 1]");
    q[2].body.control.rudder = NAN;
    ASSERT_PROTO_FAILS(proto_encode_request(&b, &q[2], &err), err, "[-1, 1]");
    q[1].body.spawn.x = INFINITY;
    ASSERT_PROTO_FAILS(proto_encode_request(&b, &q[1], &err), err, "finite");
    q[4].kind = PROTO_BODY_NONE;
    ASSERT_PROTO_FAILS(proto_encode_request(&b, &q[4], &err), err, "unknown kind");
    proto_token a = token_of(1), c = token_of(1);
    assert_true(proto_equal_tokens(&a, &c));
    c.bytes[15] ^= 1;
    assert_false(proto_equal_tokens(&a, &c));
    proto_free_buf(&b);
}

static void response_round_trips(void** state) {
    (void)state;
    proto_buf b = {0};
    proto_error err;
    proto_response r, d;
    memset(&d, 0, sizeof d);
    for (int kind = PROTO_BODY_HELLO; kind <= PROTO_BODY_STATS; kind++) {
        memset(&r, 0, sizeof r);
        r.request_id = 77 + (uint64_t)kind;
        r.kind = (proto_body)kind;
        proto_vessel_type types[2];
        float verts[24];
        uint32_t idx[36];
        r.body.hello = (proto_hello_reply){PROTO_VERSION, "srv", 60.0, 16, 1, token_of(5)};
        if (kind == PROTO_BODY_SPAWN) r.body.spawn = (proto_spawn_reply){99, token_of(9), 12.5, -7.25};
        if (kind == PROTO_BODY_STATS)
            r.body.stats = (proto_stats){1, 2.0, 3.0, 60.0, 4, 5, 6, 7.0f, 8.0f, 9.0f, 10, 11, 12, 13, 14};
        fill_world_info(&r.world_info, types, 2);
        fill_cube(&r.hull, verts, idx);
        ASSERT_PROTO_OK(proto_encode_response(&b, &r, &err), err);
        assert_int_equal(proto_identify(b.data, b.size), PROTO_KIND_RESPONSE);
        ASSERT_PROTO_OK(proto_decode_response(b.data, b.size, NULL, &d, &err), err);
        assert_int_equal(d.request_id, r.request_id);
        assert_int_equal(d.status, PROTO_STATUS_OK);
        assert_int_equal(d.kind, kind);
        if (kind == PROTO_BODY_HELLO) assert_memory_equal(&d.body.hello, &r.body.hello, sizeof d.body.hello);
        if (kind == PROTO_BODY_SPAWN) {
            assert_int_equal(d.body.spawn.vessel_id, r.body.spawn.vessel_id);
            assert_memory_equal(&d.body.spawn.token, &r.body.spawn.token, sizeof d.body.spawn.token);
            assert_true(d.body.spawn.x == 12.5 && d.body.spawn.z == -7.25);
        }
        if (kind == PROTO_BODY_STATS) assert_memory_equal(&d.body.stats, &r.body.stats, sizeof d.body.stats);
        if (kind == PROTO_BODY_WORLD_INFO) {
            r.world_info.protocol_version = PROTO_VERSION;
            assert_world_info_equal(&r.world_info, &d.world_info);
        }
        if (kind == PROTO_BODY_HULL) {
            assert_int_equal(d.hull.triangle_count, 12);
            assert_memory_equal(d.hull.indices, idx, sizeof idx);
        }
    }
    /* Failures: the status, the kind that failed, and the reason. */
    ASSERT_PROTO_OK(proto_encode_error_response(&b, 5, PROTO_BODY_CONTROL, PROTO_STATUS_UNAUTHORIZED,
                                                "wrong token for vessel 42", &err),
                    err);
    ASSERT_PROTO_OK(proto_decode_response(b.data, b.size, NULL, &d, &err), err);
    assert_int_equal(d.status, PROTO_STATUS_UNAUTHORIZED);
    assert_int_equal(d.kind, PROTO_BODY_CONTROL);
    assert_int_equal(d.request_id, 5);
    assert_string_equal(d.error, "wrong token for vessel 42");
    /* A long message is cut at a character boundary (each "é" is 2 bytes). */
    char longmsg[600];
    for (int i = 0; i < 299; i++) memcpy(longmsg + 2 * i, "\xc3\xa9", 2);
    longmsg[598] = '\0';
    ASSERT_PROTO_OK(proto_encode_error_response(&b, 6, PROTO_BODY_NONE, PROTO_STATUS_BAD_REQUEST, longmsg, &err),
                    err);
    ASSERT_PROTO_OK(proto_decode_response(b.data, b.size, NULL, &d, &err), err);
    assert_int_equal(strlen(d.error), 254);
    assert_string_equal(proto_status_name(d.status), "bad_request");
    /* An empty reason still decodes to a readable one. */
    ASSERT_PROTO_OK(proto_encode_error_response(&b, 7, PROTO_BODY_SPAWN, PROTO_STATUS_LIMIT_EXCEEDED, "", &err), err);
    ASSERT_PROTO_OK(proto_decode_response(b.data, b.size, NULL, &d, &err), err);
    assert_string_equal(d.error, "limit_exceeded");
    ASSERT_PROTO_FAILS(proto_encode_error_response(&b, 7, PROTO_BODY_SPAWN, PROTO_STATUS_OK, "x", &err), err, "ok");
    proto_free_response(&d);
    proto_free_buf(&b);
}

/* ---- hostile input --------------------------------------------------------------- */

/* One sample of every message kind, and a decoder for any kind. */
typedef struct samples {
    proto_buf buf[12];
    proto_kind kind[12];
    int count;
    proto_snapshot snap;
    proto_world_info world;
    proto_hull hull;
    proto_response resp;
} samples;

static void add_sample(samples* s, proto_kind kind, int rc, const proto_error* err) {
    if (rc != 0) fail_msg("sample %d: %s", s->count, err->message);
    s->kind[s->count++] = kind;
}

static void make_samples(samples* s) {
    memset(s, 0, sizeof *s);
    proto_error err;
    test_rng r = {5};
    proto_vessel v[20];
    random_fleet(&r, v, 20, 0.0, 0.0, 500.0);
    proto_contact contacts[2] = {{.tick = 9, .a = 1, .b = 2}, {.tick = 9, .a = 3, .b = PROTO_CONTACT_GROUND}};
    proto_snapshot snap = {.tick = 9, .vessels = v, .vessel_count = 20, .contacts = contacts, .contact_count = 2};
    add_sample(s, PROTO_KIND_SNAPSHOT, proto_encode_snapshot(&s->buf[s->count], &snap, &err), &err);
    proto_vessel_type types[3];
    proto_world_info w;
    fill_world_info(&w, types, 3);
    add_sample(s, PROTO_KIND_WORLD_INFO, proto_encode_world_info(&s->buf[s->count], &w, &err), &err);
    float verts[24];
    uint32_t idx[36];
    proto_hull h;
    fill_cube(&h, verts, idx);
    add_sample(s, PROTO_KIND_HULL, proto_encode_hull(&s->buf[s->count], &h, &err), &err);
    proto_request q;
    memset(&q, 0, sizeof q);
    q.kind = PROTO_BODY_HELLO;
    strcpy(q.body.hello.client_name, "hostile");
    add_sample(s, PROTO_KIND_REQUEST, proto_encode_request(&s->buf[s->count], &q, &err), &err);
    q.kind = PROTO_BODY_SPAWN;
    q.body.spawn = (proto_spawn){1, "barge", 1.0, 2.0, 0.5};
    add_sample(s, PROTO_KIND_REQUEST, proto_encode_request(&s->buf[s->count], &q, &err), &err);
    q.kind = PROTO_BODY_CONTROL;
    q.body.control = (proto_control){3, token_of(2), 0.5f, -0.5f};
    add_sample(s, PROTO_KIND_REQUEST, proto_encode_request(&s->buf[s->count], &q, &err), &err);
    proto_response resp;
    memset(&resp, 0, sizeof resp);
    resp.kind = PROTO_BODY_SPAWN;
    resp.body.spawn = (proto_spawn_reply){3, token_of(9), 0.0, 0.0};
    add_sample(s, PROTO_KIND_RESPONSE, proto_encode_response(&s->buf[s->count], &resp, &err), &err);
    resp.kind = PROTO_BODY_WORLD_INFO;
    resp.world_info = w;
    add_sample(s, PROTO_KIND_RESPONSE, proto_encode_response(&s->buf[s->count], &resp, &err), &err);
    add_sample(s, PROTO_KIND_RESPONSE,
               proto_encode_error_response(&s->buf[s->count], 1, PROTO_BODY_HULL, PROTO_STATUS_NOT_FOUND, "no", &err),
               &err);
}

static void free_samples(samples* s) {
    for (int i = 0; i < s->count; i++) proto_free_buf(&s->buf[i]);
    proto_free_snapshot(&s->snap);
    proto_free_world_info(&s->world);
    proto_free_hull(&s->hull);
    proto_free_response(&s->resp);
}

static int decode_as(samples* s, proto_kind kind, const void* data, size_t size, const proto_limits* lim,
                     proto_error* err) {
    proto_request q;
    switch (kind) {
    case PROTO_KIND_SNAPSHOT: return proto_decode_snapshot(data, size, lim, &s->snap, err);
    case PROTO_KIND_WORLD_INFO: return proto_decode_world_info(data, size, lim, &s->world, err);
    case PROTO_KIND_HULL: return proto_decode_hull(data, size, lim, &s->hull, err);
    case PROTO_KIND_REQUEST: return proto_decode_request(data, size, lim, &q, err);
    case PROTO_KIND_RESPONSE: return proto_decode_response(data, size, lim, &s->resp, err);
    default: fail_msg("no decoder for kind %d", (int)kind);
    }
    return -1;
}

static void hostile_truncated(void** state) {
    (void)state;
    samples s;
    make_samples(&s);
    proto_error err;
    for (int i = 0; i < s.count; i++) {
        for (size_t n = 0; n < s.buf[i].size; n++) {
            uint8_t* m = malloc(n + 1); /* exactly n bytes readable (ASan sees past them) */
            memcpy(m, s.buf[i].data, n);
            /* Cutting only zero bytes off the end may cut alignment padding,
             * which carries nothing; any other cut must be noticed. */
            int rc = decode_as(&s, s.kind[i], m, n, NULL, &err);
            if (rc != -1 && tail_has_data(&s.buf[i], n))
                fail_msg("sample %d cut to %zu of %zu bytes was accepted", i, n, s.buf[i].size);
            free(m);
        }
    }
    free_samples(&s);
}

static void hostile_corrupted_and_random(void** state) {
    (void)state;
    samples s;
    make_samples(&s);
    proto_error err;
    test_rng r = {77};
    int accepted = 0, rejected = 0;
    for (int i = 0; i < s.count; i++) {
        for (int t = 0; t < 3000; t++) {
            uint8_t* m = copy_msg(&s.buf[i]);
            int flips = 1 + (int)(test_rng_next(&r) % 4);
            for (int f = 0; f < flips; f++) m[test_rng_next(&r) % s.buf[i].size] ^= (uint8_t)(1 + test_rng_next(&r) % 255);
            int rc = decode_as(&s, s.kind[i], m, s.buf[i].size, NULL, &err);
            assert_true(rc == 0 || rc == -1);
            rc == 0 ? accepted++ : rejected++;
            free(m);
        }
    }
    /* Some corruptions hit plain values and are legal messages; most are not. */
    assert_true(rejected > 0 && accepted > 0);
    print_message("corrupted samples: %d rejected, %d accepted as legal\n", rejected, accepted);
    static const proto_kind kinds[] = {PROTO_KIND_SNAPSHOT, PROTO_KIND_WORLD_INFO, PROTO_KIND_HULL,
                                       PROTO_KIND_REQUEST, PROTO_KIND_RESPONSE};
    static const char* ids[] = {PROTO_ID_SNAPSHOT, PROTO_ID_WORLD_INFO, PROTO_ID_HULL, PROTO_ID_REQUEST,
                                PROTO_ID_RESPONSE};
    for (int t = 0; t < 20000; t++) {
        size_t n = test_rng_next(&r) % 600;
        uint8_t* m = malloc(n + 1);
        for (size_t k = 0; k < n; k++) m[k] = (uint8_t)test_rng_next(&r);
        int which = (int)(test_rng_next(&r) % 5);
        /* Half of them get the right identifier, to reach the verifier. */
        if (n >= 8 && (t & 1)) memcpy(m + 4, ids[which], 4);
        int rc = decode_as(&s, kinds[which], m, n, NULL, &err);
        if (!(t & 1)) assert_int_equal(rc, -1);
        free(m);
    }
    free_samples(&s);
}

static void hostile_wrong_identifier(void** state) {
    (void)state;
    samples s;
    make_samples(&s);
    proto_error err;
    for (int i = 0; i < s.count; i++) {
        for (proto_kind k = PROTO_KIND_SNAPSHOT; k <= PROTO_KIND_RESPONSE; k++) {
            if (k == s.kind[i] || k == PROTO_KIND_COMPACT) continue;
            ASSERT_PROTO_FAILS(decode_as(&s, k, s.buf[i].data, s.buf[i].size, NULL, &err), err,
                               "wrong file identifier");
            assert_int_equal(err.code, NV_EPROTO);
        }
        uint8_t* m = copy_msg(&s.buf[i]);
        m[7] = 'X';
        assert_int_equal(proto_identify(m, s.buf[i].size), PROTO_KIND_UNKNOWN);
        ASSERT_PROTO_FAILS(decode_as(&s, s.kind[i], m, s.buf[i].size, NULL, &err), err, "wrong file identifier");
        free(m);
    }
    free_samples(&s);
}

/* A control of 1.0000001 is refused with the value it had, not "1". */
static void request_range_named_exactly(void** state) {
    (void)state;
    proto_request q = {0}, d;
    q.kind = PROTO_BODY_CONTROL;
    q.request_id = 31;
    proto_buf b = {0};
    proto_error err;
    q.body.control = (proto_control){3, token_of(2), 0.5f, 0.25f};
    ASSERT_PROTO_OK(proto_encode_request(&b, &q, &err), err);
    /* Throttle is the Control table's third field (0 vessel, 1 token). */
    uint8_t* m = copy_msg(&b);
    size_t body = fb_deref(m, fb_field(m, rd32(m, 0), 3));
    size_t throttle = fb_field(m, body, 2);
    float over = 1.0000001f;
    memcpy(m + throttle, &over, 4);
    ASSERT_PROTO_FAILS(proto_decode_request(m, b.size, NULL, &d, &err), err, "throttle 1.00000012 ");
    assert_int_equal(d.request_id, 31);
    /* Its token left out (the vtable's slot zeroed): named as missing. */
    memcpy(m + throttle, &(float){0.5f}, 4);
    ASSERT_PROTO_OK(proto_decode_request(m, b.size, NULL, &d, &err), err);
    size_t vt = body - (size_t)(int32_t)rd32(m, body);
    memset(m + vt + 4 + 2 * 1, 0, 2);
    ASSERT_PROTO_FAILS(proto_decode_request(m, b.size, NULL, &d, &err), err, "control: the vessel's token is missing");
    assert_int_equal(d.request_id, 31);
    free(m);
    proto_free_buf(&b);
}

/* Request fields: 0 request_id, 1 admin_token, 2 body_type, 3 body. */
static void hostile_union_mismatch(void** state) {
    (void)state;
    samples s;
    make_samples(&s);
    proto_error err;
    proto_request q;
    const proto_buf* hello = &s.buf[3];
    uint8_t* m = copy_msg(hello);
    size_t type_pos = fb_field(m, rd32(m, 0), 2);
    assert_true(type_pos != 0);
    assert_int_equal(m[type_pos], PROTO_BODY_HELLO);
    ASSERT_PROTO_OK(proto_decode_request(m, hello->size, NULL, &q, &err), err);
    /* A Hello table read as a Control: the required token is not one, and
     * the refusal still names the request. */
    m[type_pos] = PROTO_BODY_CONTROL;
    ASSERT_PROTO_FAILS(proto_decode_request(m, hello->size, NULL, &q, &err), err, "malformed");
    uint64_t hello_id = proto_request_id(hello->data, hello->size);
    assert_int_equal(q.request_id, hello_id);
    assert_int_equal(proto_request_id(m, hello->size), hello_id);
    assert_int_equal(proto_request_id(m, 7), 0);
    m[type_pos] = 200;
    ASSERT_PROTO_FAILS(proto_decode_request(m, hello->size, NULL, &q, &err), err, "unknown kind");
    m[type_pos] = PROTO_BODY_NONE;
    ASSERT_PROTO_FAILS(proto_decode_request(m, hello->size, NULL, &q, &err), err, "no body");
    free(m);
    /* A SpawnReply read as a HelloReply: the token's bytes as a string offset. */
    const proto_buf* spawn = &s.buf[6];
    m = copy_msg(spawn);
    type_pos = fb_field(m, rd32(m, 0), 3); /* Response: 0 id, 1 status, 2 error, 3 body_type, 4 body */
    assert_int_equal(m[type_pos], PROTO_BODY_SPAWN);
    m[type_pos] = PROTO_BODY_HELLO;
    ASSERT_PROTO_FAILS(proto_decode_response(m, spawn->size, NULL, &s.resp, &err), err, "malformed");
    m[type_pos] = 99;
    ASSERT_PROTO_FAILS(proto_decode_response(m, spawn->size, NULL, &s.resp, &err), err, "unknown kind");
    free(m);
    free_samples(&s);
}

static uint8_t* find_bytes(uint8_t* hay, size_t n, const char* needle) {
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(hay + i, needle, k)) return hay + i;
    return NULL;
}

static void hostile_strings(void** state) {
    (void)state;
    proto_buf b = {0};
    proto_error err;
    proto_request q, d;
    memset(&q, 0, sizeof q);
    q.kind = PROTO_BODY_HELLO;
    strcpy(q.body.hello.client_name, "abcdef");
    memset(q.admin_token, 'x', 100);
    ASSERT_PROTO_OK(proto_encode_request(&b, &q, &err), err);
    uint8_t* m = copy_msg(&b);
    uint8_t* str = find_bytes(m, b.size, "abcdef");
    assert_non_null(str);
    uint32_t len = 1000; /* past the end of the buffer */
    memcpy(str - 4, &len, 4);
    ASSERT_PROTO_FAILS(proto_decode_request(m, b.size, NULL, &d, &err), err, "malformed");
    len = 3; /* no NUL where the length says */
    memcpy(str - 4, &len, 4);
    ASSERT_PROTO_FAILS(proto_decode_request(m, b.size, NULL, &d, &err), err, "malformed");
    len = 6;
    memcpy(str - 4, &len, 4);
    ASSERT_PROTO_OK(proto_decode_request(m, b.size, NULL, &d, &err), err);
    str[2] = 0xff;
    ASSERT_PROTO_FAILS(proto_decode_request(m, b.size, NULL, &d, &err), err, "UTF-8");
    str[2] = 0;
    ASSERT_PROTO_FAILS(proto_decode_request(m, b.size, NULL, &d, &err), err, "NUL");
    str[2] = 'c';
    /* A well-formed string longer than the name's room: aim the client
     * name's offset at the 100-byte admin token. */
    size_t root = rd32(m, 0);
    size_t admin = fb_deref(m, fb_field(m, root, 1));
    size_t hello = fb_deref(m, fb_field(m, root, 3));
    size_t name_field = fb_field(m, hello, 1);
    assert_true(admin > name_field);
    uint32_t off = (uint32_t)(admin - name_field);
    memcpy(m + name_field, &off, 4);
    ASSERT_PROTO_FAILS(proto_decode_request(m, b.size, NULL, &d, &err), err, "client name is too long");
    free(m);
    /* The encoder refuses what the decoder would. */
    memset(q.body.hello.client_name, 'n', sizeof q.body.hello.client_name);
    ASSERT_PROTO_FAILS(proto_encode_request(&b, &q, &err), err, "too long");
    proto_free_buf(&b);
}

static void hostile_oversized(void** state) {
    (void)state;
    samples s;
    make_samples(&s);
    proto_error err;
    proto_limits lim = proto_default_limits();
    lim.max_vessels = 19;
    ASSERT_PROTO_FAILS(decode_as(&s, PROTO_KIND_SNAPSHOT, s.buf[0].data, s.buf[0].size, &lim, &err), err,
                       "20 vessels, over the limit of 19");
    assert_int_equal(err.code, NV_ELIMIT);
    lim = proto_default_limits();
    lim.max_message_size = s.buf[0].size - 1;
    ASSERT_PROTO_FAILS(decode_as(&s, PROTO_KIND_SNAPSHOT, s.buf[0].data, s.buf[0].size, &lim, &err), err,
                       "over the limit");
    lim = proto_default_limits();
    lim.max_types = 2;
    ASSERT_PROTO_FAILS(decode_as(&s, PROTO_KIND_WORLD_INFO, s.buf[1].data, s.buf[1].size, &lim, &err), err,
                       "3 vessel types");
    ASSERT_PROTO_FAILS(decode_as(&s, PROTO_KIND_RESPONSE, s.buf[7].data, s.buf[7].size, &lim, &err), err,
                       "3 vessel types");
    lim = proto_default_limits();
    lim.max_hull_vertices = 7;
    ASSERT_PROTO_FAILS(decode_as(&s, PROTO_KIND_HULL, s.buf[2].data, s.buf[2].size, &lim, &err), err, "limits");
    lim = proto_default_limits();
    lim.max_hull_triangles = 11;
    ASSERT_PROTO_FAILS(decode_as(&s, PROTO_KIND_HULL, s.buf[2].data, s.buf[2].size, &lim, &err), err, "limits");

    /* Vector lengths that lie. Snapshot: 0 tick, 1 sim_time, 2 send_time, 3 stats, 4 vessels. */
    uint8_t* m = copy_msg(&s.buf[0]);
    size_t vec = fb_deref(m, fb_field(m, rd32(m, 0), 4));
    assert_int_equal(rd32(m, vec), 20);
    uint32_t len = 0x7fffffff;
    memcpy(m + vec, &len, 4);
    ASSERT_PROTO_FAILS(proto_decode_snapshot(m, s.buf[0].size, NULL, &s.snap, &err), err, "malformed");
    assert_int_equal(s.snap.vessel_count, 0);
    free(m);
    /* Hull: 0 type, 1 name, 2 vertices, 3 indices. */
    m = copy_msg(&s.buf[2]);
    size_t idx = fb_deref(m, fb_field(m, rd32(m, 0), 3));
    assert_int_equal(rd32(m, idx), 36);
    len = 35;
    memcpy(m + idx, &len, 4);
    ASSERT_PROTO_FAILS(proto_decode_hull(m, s.buf[2].size, NULL, &s.hull, &err), err, "multiple of 3");
    assert_int_equal(err.code, NV_EPROTO);
    len = 36;
    memcpy(m + idx, &len, 4);
    len = 8;
    memcpy(m + idx + 4 + 4 * 5, &len, 4);
    ASSERT_PROTO_FAILS(proto_decode_hull(m, s.buf[2].size, NULL, &s.hull, &err), err, "index 5");
    free(m);
    free_samples(&s);
}

/* One error type: the codec's failures carry the codes core and the
 * client library use, and each code maps to the status a server answers. */
static void error_codes_map_to_statuses(void** state) {
    (void)state;
    proto_buf out = {0};
    proto_error err;
    assert_int_equal(proto_encode_snapshot(&out, NULL, &err), -1);
    assert_int_equal(err.code, NV_EINVAL);
    proto_free_buf(&out);
    const struct {
        nv_code code;
        proto_status status;
    } map[] = {
        {NV_OK, PROTO_STATUS_OK},           {NV_EINVAL, PROTO_STATUS_BAD_REQUEST},
        {NV_ESTATE, PROTO_STATUS_BAD_REQUEST}, {NV_EPROTO, PROTO_STATUS_BAD_REQUEST},
        {NV_ENOENT, PROTO_STATUS_NOT_FOUND}, {NV_ELIMIT, PROTO_STATUS_LIMIT_EXCEEDED},
        {NV_ECLOSED, PROTO_STATUS_SHUTTING_DOWN}, {NV_ENOMEM, PROTO_STATUS_INTERNAL},
        {NV_EIO, PROTO_STATUS_INTERNAL},     {NV_EINTERNAL, PROTO_STATUS_INTERNAL},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        assert_int_equal(proto_status_of(map[i].code), map[i].status);
        assert_string_not_equal(nv_code_name(map[i].code), "?");
    }
    assert_string_equal(nv_code_name(NV_CODES), "?");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(snapshot_round_trip),
        cmocka_unit_test(world_info_round_trip),
        cmocka_unit_test(hull_round_trip),
        cmocka_unit_test(request_round_trips),
        cmocka_unit_test(response_round_trips),
        cmocka_unit_test(hostile_truncated),
        cmocka_unit_test(hostile_corrupted_and_random),
        cmocka_unit_test(hostile_wrong_identifier),
        cmocka_unit_test(request_range_named_exactly), cmocka_unit_test(hostile_union_mismatch),
        cmocka_unit_test(hostile_strings),
        cmocka_unit_test(hostile_oversized),
        cmocka_unit_test(error_codes_map_to_statuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
