// SPDX-License-Identifier: MIT
/* What naval-server keeps across a restart, without a server: the owner
 * blob (tokens and the autopilot) round trip and every truncation and
 * corruption refused with a message; the record log written and read back
 * to the bit, bad lines named; the settings of checkpoints, restore,
 * record and Agones from flags, environment and their cross-checks. */
#include <math.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "args.h"
#include "autopilot.h"
#include "naval/world.h"
#include "owners.h"
#include "record.h"
#include "resume.h"

static proto_token token_of(uint8_t seed) {
    proto_token t;
    for (size_t i = 0; i < sizeof t.bytes; i++) t.bytes[i] = (uint8_t)(seed * 31u + i * 7u);
    return t;
}

/* Two traffic lanes. */
static const lane LANES[2] = {
    {.cx = 5.0, .cz = -7.0, .axis = 0.3, .half_straight = 200.0, .radius = 300.0, .look = 40.0, .clear = 22.5, .throttle = 0.5, .speed = 3.0, .berth = 10.0, .berth_ticks = 600, .type = 0, .boats = 1},
    {.cx = 5.0, .cz = -7.0, .axis = 0.3, .half_straight = 200.0, .radius = 400.0, .look = 180.0, .clear = 195.0, .throttle = 0.5, .speed = 4.5, .berth = -1.0, .type = 2, .boats = 1},
};

/* Three owned vessels, an autopilot with five boats steering for
 * waypoints, whose generator has moved, and two on lanes. */
static void make_state(owners* o, autopilot** a) {
    memset(o, 0, sizeof *o);
    for (uint32_t i = 0; i < 3; i++) {
        proto_token t = token_of((uint8_t)(i + 1));
        assert_int_equal(owners_add_token(o, 100 + i, 7 + i, &t), 0);
    }
    *a = autopilot_create(42, 10.0, -20.0, 500.0);
    assert_non_null(*a);
    assert_int_equal(autopilot_set_lanes(*a, LANES, 2), 0);
    for (uint32_t i = 0; i < 5; i++) assert_int_equal(autopilot_add(*a, i * 3), 0);
    assert_int_equal(autopilot_add_on_lane(*a, 20, 1), 0);
    assert_int_equal(autopilot_add_on_lane(*a, 21, 0), 0);
    assert_int_equal(autopilot_add_on_lane(*a, 22, 2), -1); /* no such lane */
    autopilot_remove(*a, 3); /* the last moves into its place: order matters */
    /* the boat on lane 0, which has a berth, lies alongside until tick 12345 */
    autopilot_state st = autopilot_get_state(*a);
    autopilot_pilot pilots[8];
    memcpy(pilots, st.pilots, st.count * sizeof *pilots);
    for (uint32_t i = 0; i < st.count; i++)
        if (pilots[i].lane == 0) pilots[i].berth = 12345;
    st.pilots = pilots;
    autopilot* berthed = autopilot_restore(&st);
    assert_non_null(berthed);
    autopilot_destroy(*a);
    *a = berthed;
}

static void encode(const owners* o, const autopilot* a, resume_buf* b) {
    assert_int_equal(resume_encode(o, a, b), 0);
    assert_true(b->size > 4 && b->data[0] == RESUME_VERSION);
}

static void test_blob_round_trip(void** state) {
    (void)state;
    owners o;
    autopilot* a;
    make_state(&o, &a);
    resume_buf b = {0};
    encode(&o, a, &b);
    owners o2 = {0};
    autopilot* a2 = NULL;
    nv_error err;
    if (resume_decode(b.data, b.size, NULL, 12345, &o2, &a2, &err)) fail_msg("%s", err.message);
    assert_int_equal(o2.count, o.count);
    for (uint32_t i = 0; i < o.count; i++) {
        owned* w = owners_find(&o2, o.list[i].vessel);
        assert_non_null(w);
        assert_memory_equal(w->token.bytes, o.list[i].token.bytes, sizeof w->token.bytes);
        assert_int_equal(w->pipe, 0);              /* connections are not kept: orphans */
        assert_int_equal(w->orphan_since_ns, 12345); /* from the restore on */
    }
    autopilot_state s1 = autopilot_get_state(a), s2 = autopilot_get_state(a2);
    assert_true(s1.rng == s2.rng && s1.cx == s2.cx && s1.cz == s2.cz && s1.half == s2.half);
    assert_int_equal(s1.count, s2.count);
    /* Field by field: the structs' padding is not part of the state. */
    for (uint32_t i = 0; i < s1.count; i++) {
        assert_int_equal(s1.pilots[i].id, s2.pilots[i].id);
        assert_memory_equal(&s1.pilots[i].wx, &s2.pilots[i].wx, sizeof(double));
        assert_memory_equal(&s1.pilots[i].wz, &s2.pilots[i].wz, sizeof(double));
        assert_memory_equal(&s1.pilots[i].turn, &s2.pilots[i].turn, sizeof(double));
        assert_int_equal(s1.pilots[i].slow, s2.pilots[i].slow);
        assert_int_equal(s1.pilots[i].lane, s2.pilots[i].lane);
        assert_memory_equal(&s1.pilots[i].pace, &s2.pilots[i].pace, sizeof(double));
        assert_true(s1.pilots[i].berth == s2.pilots[i].berth);
    }
    assert_int_equal(s2.lane_count, 2);
    for (uint32_t k = 0; k < 2; k++) {
        const lane *l1 = &s1.lanes[k], *l2 = &s2.lanes[k];
        assert_true(l1->cx == l2->cx && l1->cz == l2->cz && l1->axis == l2->axis && l1->half_straight == l2->half_straight &&
                    l1->radius == l2->radius && l1->look == l2->look && l1->clear == l2->clear && l1->throttle == l2->throttle && l1->speed == l2->speed &&
                    l1->berth == l2->berth && l1->berth_ticks == l2->berth_ticks &&
                    l1->type == l2->type && l1->boats == l2->boats);
    }
    uint32_t on_lanes = 0;
    for (uint32_t i = 0; i < s2.count; i++) on_lanes += s2.pilots[i].lane != AUTOPILOT_NO_LANE;
    assert_int_equal(on_lanes, 2);
    /* The same future: both draw the same next waypoints. */
    assert_int_equal(autopilot_add(a, 99), 0);
    assert_int_equal(autopilot_add(a2, 99), 0);
    s1 = autopilot_get_state(a);
    s2 = autopilot_get_state(a2);
    assert_true(s1.rng == s2.rng && s1.pilots[s1.count - 1].wx == s2.pilots[s2.count - 1].wx);
    /* Encoding again gives the same bytes. */
    autopilot_remove(a, 99);
    autopilot_remove(a2, 99);
    resume_buf b2 = {0};
    encode(&o2, a2, &b2);
    assert_int_equal(b2.size, b.size);
    resume_buf_free(&b2);
    autopilot_destroy(a2);
    owners_free(&o2);
    resume_buf_free(&b);
    autopilot_destroy(a);
    owners_free(&o);
}

/* A version 2 blob (before lanes: no lane section, pilots without lane
 * and pace) still reads, its pilots steering for waypoints. */
static void test_blob_version_2(void** state) {
    (void)state;
    owners o = {0};
    autopilot* a = autopilot_create(42, 10.0, -20.0, 500.0);
    assert_non_null(a);
    for (uint32_t i = 0; i < 3; i++) assert_int_equal(autopilot_add(a, i), 0);
    resume_buf b = {0};
    encode(&o, a, &b);
    /* header, no owners, area; then drop the lane count and each pilot's 12 last bytes */
    const size_t lanes_at = 4 + 4 + 32;
    uint8_t v2[256];
    size_t n = 0;
    memcpy(v2, b.data, lanes_at);
    v2[0] = 2;
    n = lanes_at;
    memcpy(v2 + n, b.data + lanes_at + 4, 4); /* the pilot count */
    n += 4;
    for (uint32_t i = 0; i < 3; i++, n += 29) memcpy(v2 + n, b.data + lanes_at + 8 + i * 49, 29);
    owners o2 = {0};
    autopilot* a2 = NULL;
    nv_error err;
    if (resume_decode(v2, n, NULL, 0, &o2, &a2, &err)) fail_msg("%s", err.message);
    autopilot_state st = autopilot_get_state(a2);
    assert_int_equal(st.count, 3);
    assert_int_equal(st.lane_count, 0);
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(st.pilots[i].id, i);
        assert_int_equal(st.pilots[i].lane, AUTOPILOT_NO_LANE);
        assert_true(st.pilots[i].pace == 1.0);
        assert_true(st.pilots[i].wx == autopilot_get_state(a).pilots[i].wx);
    }
    autopilot_destroy(a2);
    owners_free(&o2);
    resume_buf_free(&b);
    autopilot_destroy(a);
}

/* A version 3 blob (lanes and pilots without berths) still reads: no
 * lane has a berth, no boat lies alongside, the rest as it was. */
static void test_blob_version_3(void** state) {
    (void)state;
    owners o;
    autopilot* a;
    make_state(&o, &a);
    resume_buf b = {0};
    encode(&o, a, &b);
    const size_t lanes_at = 4 + 4 + 3 * 20 + 32 + 4, pilots_at = lanes_at + 2 * 96 + 4;
    uint8_t v3[1024];
    size_t n = lanes_at;
    memcpy(v3, b.data, lanes_at);
    v3[0] = 3;
    for (uint32_t k = 0; k < 2; k++, n += 80) {
        memcpy(v3 + n, b.data + lanes_at + k * 96, 72);          /* nine f64 */
        memcpy(v3 + n + 72, b.data + lanes_at + k * 96 + 88, 8); /* type, boats */
    }
    memcpy(v3 + n, b.data + pilots_at - 4, 4); /* the pilot count */
    n += 4;
    for (uint32_t i = 0; i < 6; i++, n += 41) memcpy(v3 + n, b.data + pilots_at + i * 49, 41);
    owners o2 = {0};
    autopilot* a2 = NULL;
    nv_error err;
    if (resume_decode(v3, n, NULL, 0, &o2, &a2, &err)) fail_msg("%s", err.message);
    autopilot_state s1 = autopilot_get_state(a), s2 = autopilot_get_state(a2);
    assert_int_equal(s2.lane_count, 2);
    assert_int_equal(s2.count, s1.count);
    for (uint32_t k = 0; k < 2; k++) {
        assert_true(s2.lanes[k].berth < 0.0 && s2.lanes[k].berth_ticks == 0);
        assert_true(s2.lanes[k].radius == s1.lanes[k].radius && s2.lanes[k].type == s1.lanes[k].type);
    }
    for (uint32_t i = 0; i < s1.count; i++) {
        assert_int_equal(s2.pilots[i].id, s1.pilots[i].id);
        assert_int_equal(s2.pilots[i].lane, s1.pilots[i].lane);
        assert_true(s2.pilots[i].berth == 0 && s2.pilots[i].pace == s1.pilots[i].pace);
    }
    autopilot_destroy(a2);
    owners_free(&o2);
    resume_buf_free(&b);
    autopilot_destroy(a);
    owners_free(&o);
}

/* The blob refused with a message containing `expect`; nothing kept. */
static void assert_refused(const uint8_t* data, size_t size, const nv_world* w, const char* expect) {
    owners o = {0};
    autopilot* a = (autopilot*)1;
    nv_error err;
    if (resume_decode(data, size, w, 0, &o, &a, &err) == 0) fail_msg("accepted a bad blob (expected '%s')", expect);
    if (!strstr(err.message, expect)) fail_msg("message '%s' lacks '%s'", err.message, expect);
    assert_null(a);
    assert_int_equal(o.count, 0);
    assert_null(o.list);
}

static void test_blob_truncated(void** state) {
    (void)state;
    owners o;
    autopilot* a;
    make_state(&o, &a);
    resume_buf b = {0};
    encode(&o, a, &b);
    for (size_t n = 0; n < b.size; n++) assert_refused(b.data, n, NULL, n < 4 ? "truncated" : "");
    assert_refused(b.data, 0, NULL, "truncated in the header");
    assert_refused(b.data, b.size - 1, NULL, "6 pilots do not fit");
    resume_buf_free(&b);
    autopilot_destroy(a);
    owners_free(&o);
}

static void put32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void test_blob_corrupt(void** state) {
    (void)state;
    owners o;
    autopilot* a;
    make_state(&o, &a);
    resume_buf b = {0};
    encode(&o, a, &b);
    uint8_t* d = malloc(b.size + 1);
    assert_non_null(d);
    const size_t owned_at = 4 + 4, area_at = owned_at + 3 * 20, lanes_at = area_at + 32 + 4;
    const size_t pilots_at = lanes_at + 2 * 96 + 4;
#define MUTATE(stmt, len, msg)             \
    do {                                   \
        memcpy(d, b.data, b.size);         \
        stmt;                              \
        assert_refused(d, len, NULL, msg); \
    } while (0)
    MUTATE(d[0] = 1, b.size, "version 1 is not supported (this server reads versions 2 to 5)");
    MUTATE(d[2] = 1, b.size, "reserved header bytes");
    MUTATE(put32(d + 4, 0xFFFFFFFFu), b.size, "owned vessels do not fit");
    MUTATE(put32(d + lanes_at - 4, 1000000), b.size, "lanes do not fit");
    MUTATE(put32(d + pilots_at - 4, 1000000), b.size, "pilots do not fit");
    MUTATE(memset(d + lanes_at + 96 + 32, 0, 8), b.size, "lane 1: centre");
    MUTATE(memset(d + lanes_at + 72, 0x7F, 8), b.size, "berth");
    MUTATE(memset(d + lanes_at + 64, 0, 8), b.size, "speed 0, berth");
    MUTATE(put32(d + lanes_at + 84, 2), b.size, "beach 2 is not valid");
    MUTATE(memset(d + lanes_at + 48, 0, 8), b.size, "clear 0");
    MUTATE(memset(d + lanes_at + 16, 0xFF, 8), b.size, "lane 0: centre");
    MUTATE(put32(d + owned_at + 20, 100), b.size, "owned vessel 100 is listed twice");
    MUTATE(put32(d + pilots_at + 49, 0), b.size, "vessel 0 is piloted twice");
    MUTATE(put32(d + pilots_at + 4 * 49 + 29, 2), b.size, "sails lane 2 of 2");
    MUTATE(memset(d + pilots_at + 4 * 49 + 33, 0x40, 8), b.size, "pace");
    MUTATE(memset(d + pilots_at + 4 * 49 + 41, 0xF0, 8), b.size, "berth -");
    MUTATE(memset(d + pilots_at + 20, 0x40, 8), b.size, "avoidance turn");
    MUTATE(d[pilots_at + 28] = 2, b.size, "and slow 2 (0 or 1)");
    MUTATE(memset(d + pilots_at + 4, 0xFF, 8), b.size, "not finite");
    MUTATE(memset(d + area_at + 24, 0, 8), b.size, "autopilot area");
    MUTATE(d[b.size] = 0, b.size + 1, "1 bytes after the end");
#undef MUTATE
    /* Every vessel named must be in the world. */
    nv_world* w;
    nv_world_config cfg = nv_world_config_default();
    nv_error err;
    if (nv_world_create(&w, &cfg, NULL, &err)) fail_msg("%s", err.message);
    assert_refused(b.data, b.size, w, "owned vessel 100 is not in the checkpoint's world");
    owners empty = {0};
    resume_buf b2 = {0};
    encode(&empty, a, &b2);
    assert_refused(b2.data, b2.size, w, "piloted vessel 0 is not in the checkpoint's world");
    resume_buf_free(&b2);
    nv_world_destroy(w);
    free(d);
    resume_buf_free(&b);
    autopilot_destroy(a);
    owners_free(&o);
}

static char tmp_path[64];

static const char* temp_file(void) {
    snprintf(tmp_path, sizeof tmp_path, "/tmp/naval_resume_XXXXXX");
    int fd = mkstemp(tmp_path);
    assert_true(fd >= 0);
    close(fd);
    return tmp_path;
}

static void write_text(const char* path, const char* text) {
    FILE* f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_record_round_trip(void** state) {
    (void)state;
    const char* path = temp_file();
    record* r;
    nv_error err;
    if (record_open(&r, path, "/somewhere/base.ckpt", 120, 0x0123456789abcdefull, 30, &err))
        fail_msg("%s", err.message);
    proto_token t = token_of(9);
    record_spawn(r, 120, 7, 2, 0.1, -1.0 / 3.0, 1e-300, &t);
    record_control(r, 125, 7, -0.30000001192092896, 1.0);
    record_hash(r, 150, 0xfedcba9876543210ull);
    record_despawn(r, 150, 7);
    /* What the size cap counts is what the file holds. */
    record_flush(r);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(record_bytes(r), (uint64_t)st.st_size);
    record_close(r, 151, 1);

    record_reader rd;
    if (record_reader_open(&rd, path, &err)) fail_msg("%s", err.message);
    assert_int_equal(rd.base_tick, 120);
    assert_true(rd.base_hash == 0x0123456789abcdefull);
    assert_string_equal(rd.base_path, "/somewhere/base.ckpt");
    assert_int_equal(rd.hash_interval, 30);
    record_event ev;
    assert_int_equal(record_read(&rd, &ev, &err), 1);
    assert_int_equal(ev.kind, RECORD_SPAWN);
    assert_true(ev.tick == 120 && ev.id == 7 && ev.type == 2);
    assert_true(ev.x == 0.1 && ev.z == -1.0 / 3.0 && ev.heading == 1e-300); /* to the bit */
    assert_memory_equal(ev.token.bytes, t.bytes, sizeof t.bytes);
    assert_int_equal(record_read(&rd, &ev, &err), 1);
    assert_true(ev.kind == RECORD_CONTROL && ev.tick == 125 && ev.id == 7);
    assert_true(ev.throttle == -0.30000001192092896 && ev.rudder == 1.0);
    assert_int_equal(record_read(&rd, &ev, &err), 1);
    assert_true(ev.kind == RECORD_HASH && ev.hash == 0xfedcba9876543210ull && ev.tick == 150);
    assert_int_equal(record_read(&rd, &ev, &err), 1);
    assert_true(ev.kind == RECORD_DESPAWN && ev.id == 7);
    assert_int_equal(record_read(&rd, &ev, &err), 1);
    assert_true(ev.kind == RECORD_END && ev.tick == 151);
    assert_int_equal(record_read(&rd, &ev, &err), 0);
    assert_true(rd.ended && !rd.partial);
    record_reader_close(&rd);
    unlink(path);
}

/* The reader refuses `text` at open (at_open) or at its first bad event. */
static void assert_log_refused(const char* text, int at_open, const char* expect) {
    const char* path = temp_file();
    write_text(path, text);
    record_reader rd;
    nv_error err;
    int rc = record_reader_open(&rd, path, &err);
    if (!at_open) {
        if (rc) fail_msg("%s", err.message);
        record_event ev;
        while ((rc = record_read(&rd, &ev, &err)) == 1) {
        }
        rc = rc < 0 ? -1 : 0;
        record_reader_close(&rd);
    }
    unlink(path);
    if (rc == 0) fail_msg("accepted a bad log (expected '%s')", expect);
    if (!strstr(err.message, expect)) fail_msg("message '%s' lacks '%s'", err.message, expect);
}

/* "next TICK FILE": the log goes on in FILE; the reader stops there. */
static void test_record_next(void** state) {
    (void)state;
    const char* path = temp_file();
    write_text(path, "naval-record 4\nbase 10 00000000000000ff /x.ckpt\nhash_interval 60\n12 hash 00000000000000aa\n"
                     "next 12 x.rec.000002\n");
    record_reader rd;
    nv_error err;
    if (record_reader_open(&rd, path, &err)) fail_msg("%s", err.message);
    record_event ev;
    assert_int_equal(record_read(&rd, &ev, &err), 1);
    assert_int_equal(ev.kind, RECORD_HASH);
    assert_int_equal(record_read(&rd, &ev, &err), 1);
    assert_true(ev.kind == RECORD_NEXT && ev.tick == 12);
    assert_string_equal(rd.next, "x.rec.000002");
    assert_int_equal(record_read(&rd, &ev, &err), 0);
    assert_true(rd.ended);
    record_reader_close(&rd);
    unlink(path);
    assert_log_refused("naval-record 4\nbase 10 00000000000000ff /x.ckpt\nhash_interval 60\nnext 12\n", 0,
                       ":4: not a record event");
}

static void test_record_refusals(void** state) {
    (void)state;
    const char* head = "naval-record 2\nbase 10 00000000000000ff /x.ckpt\nhash_interval 60\n";
    char text[512];
    assert_log_refused("something else\n", 1, "not a naval-server record log");
    assert_log_refused("naval-record 6\n", 1, "version 6 is not supported");
    assert_log_refused("naval-record 1\n", 1, "version 1 is not supported"); /* no contacts in it */
    assert_log_refused("naval-record 2\nbase ten\n", 1, ":2: expected 'base");
    snprintf(text, sizeof text, "%s12 contact 5 4294967295 0 0.5\n", head);
    assert_log_refused(text, 0, ":4: not a record event");
    snprintf(text, sizeof text, "%s12 contact 5 x 0 0.5 10\n", head);
    assert_log_refused(text, 0, ":4: not a record event");
    snprintf(text, sizeof text, "%s12 breach 5 0 -1 0\n", head); /* no area */
    assert_log_refused(text, 0, ":4: not a record event");
    snprintf(text, sizeof text, "%s12 pumps 5 2\n", head);
    assert_log_refused(text, 0, ":4: not a record event");
    snprintf(text, sizeof text, "%s12 damage flooded 5 1\n", head); /* no such kind */
    assert_log_refused(text, 0, ":4: not a record event");
    snprintf(text, sizeof text, "%s12 damage full 5 x\n", head);
    assert_log_refused(text, 0, ":4: not a record event");
    snprintf(text, sizeof text, "%s12 control 5 0.5\n", head);
    assert_log_refused(text, 0, ":4: not a record event");
    snprintf(text, sizeof text, "%s12 control 5 nan 0\n", head);
    assert_log_refused(text, 0, ":4: not a record event");
    snprintf(text, sizeof text, "%s12 spawn 5 0 1 2 3 00ff\n", head);
    assert_log_refused(text, 0, ":4: not a record event");
    snprintf(text, sizeof text, "%s12 hash 12\n", head);
    assert_log_refused(text, 0, ":4: not a record event");
    snprintf(text, sizeof text, "%s12 despawn 5\n11 despawn 6\n", head);
    assert_log_refused(text, 0, ":5: tick 11 goes back");
    snprintf(text, sizeof text, "%s9 despawn 5\n", head);
    assert_log_refused(text, 0, "tick 9 goes back (after 10)");
    /* A last line cut short (a crash mid-write) is not an event. */
    const char* path = temp_file();
    snprintf(text, sizeof text, "%s12 despawn 5\n13 contr", head);
    write_text(path, text);
    record_reader rd;
    nv_error err;
    if (record_reader_open(&rd, path, &err)) fail_msg("%s", err.message);
    record_event ev;
    assert_int_equal(record_read(&rd, &ev, &err), 1);
    assert_int_equal(record_read(&rd, &ev, &err), 0);
    assert_true(rd.partial && !rd.ended);
    record_reader_close(&rd);
    unlink(path);
}

static void test_settings(void** state) {
    (void)state;
    cfg_server c;
    args_result r;
    nv_error err;
    unsetenv("AGONES_SDK_HTTP_PORT");
    char* a1[] = {"naval-server", "--restore", "/tmp/w.ckpt", "--agones", "--record", "/tmp/r.log", NULL};
    if (args_parse(6, a1, &c, &r, &err)) fail_msg("%s", err.message);
    assert_string_equal(c.checkpoint, "/tmp/w.ckpt"); /* defaults to the restore file */
    assert_true(c.boats == -1 && c.tick_hz == 0);      /* the checkpoint's, not resolved */
    assert_true(c.agones == 1 && c.checkpoint_interval_s == 10 && c.record_hash_interval == 60);
    assert_string_equal(c.agones_url, "http://127.0.0.1:9358");
    setenv("AGONES_SDK_HTTP_PORT", "9444", 1);
    setenv("NAVAL_AGONES", "true", 1);
    char* a2[] = {"naval-server", "--checkpoint-interval", "0.5", NULL};
    if (args_parse(3, a2, &c, &r, &err)) fail_msg("%s", err.message);
    assert_true(c.agones == 1 && c.checkpoint_interval_s == 0.5 && c.boats == 200 && !c.checkpoint[0]);
    assert_string_equal(c.agones_url, "http://127.0.0.1:9444");
    char* a3[] = {"naval-server", "--agones=0", NULL};
    if (args_parse(2, a3, &c, &r, &err)) fail_msg("%s", err.message);
    assert_true(c.agones == 0);
    setenv("NAVAL_AGONES", "maybe", 1);
    assert_int_equal(args_parse(1, a3, &c, &r, &err), -1);
    assert_non_null(strstr(err.message, "NAVAL_AGONES: must be 1 or 0"));
    unsetenv("NAVAL_AGONES");
    setenv("AGONES_SDK_HTTP_PORT", "http", 1);
    if (args_parse(2, a3, &c, &r, &err)) fail_msg("a bad AGONES_SDK_HTTP_PORT without --agones: %s", err.message);
    assert_string_equal(c.agones_url, "");
    assert_int_equal(args_parse(6, a1, &c, &r, &err), -1);
    assert_non_null(strstr(err.message, "AGONES_SDK_HTTP_PORT: must be a port"));
    unsetenv("AGONES_SDK_HTTP_PORT");
    char* a4[] = {"naval-server", "--agones-url", "tcp://127.0.0.1:5", NULL};
    assert_int_equal(args_parse(3, a4, &c, &r, &err), -1);
    assert_non_null(strstr(err.message, "--agones-url: must be an http:// URL"));
    char* a5[] = {"naval-server", "--checkpoint", "/tmp/a", "--record", "/tmp/a", NULL};
    assert_int_equal(args_parse(5, a5, &c, &r, &err), -1);
    assert_non_null(strstr(err.message, "must not be the checkpoint file"));
    char* a6[] = {"naval-server", "--checkpoint-interval", "-1", NULL};
    assert_int_equal(args_parse(3, a6, &c, &r, &err), -1);
    assert_non_null(strstr(err.message, "--checkpoint-interval: must be a number in [0, 86400]"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blob_round_trip),   cmocka_unit_test(test_blob_truncated),
        cmocka_unit_test(test_blob_version_2),
        cmocka_unit_test(test_blob_version_3),
        cmocka_unit_test(test_blob_corrupt),      cmocka_unit_test(test_record_round_trip),
        cmocka_unit_test(test_record_refusals),
        cmocka_unit_test(test_record_next),   cmocka_unit_test(test_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
