// SPDX-License-Identifier: MIT
/* naval-server end to end: a real server process on loopback (random free
 * ports, 20 demo boats) driven through the client library over tcp and
 * WebSocket: snapshots with increasing ticks, spawn / steer / despawn with
 * tokens, refusals, hostile bytes, limits, metrics, and a clean SIGTERM;
 * a second server with the sea flags places spawns in free water. */
#include <math.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdio.h>
#include <string.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <nng/nng.h>
#include <nng/protocol/reqrep0/rep.h>
#include <nng/supplemental/util/platform.h>

#include "naval_client.h"
#include "proto.h"
#include "test_server_proc.h"

#define BOATS 20
#define ADMIN "test-admin-secret-0123456789"

static server_proc srv;
static nvc_client* cli;

static nvc_client* connect_to(const char* snapshots, const char* commands) {
    nvc_client* c = proc_client(snapshots, commands, 3000, 8);
    assert_non_null(c);
    return c;
}

/* A web root: a page, a script in a folder, and files that must not be served. */
static char web_root[64];

static void write_file(const char* dir, const char* name, const char* text) {
    char path[160];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE* f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void make_web_root(void) {
    snprintf(web_root, sizeof web_root, "/tmp/naval_web_XXXXXX");
    if (!mkdtemp(web_root)) return;
    char js[96];
    snprintf(js, sizeof js, "%s/js", web_root);
    mkdir(js, 0700);
    write_file(web_root, "index.html", "<html>naval-test-page</html>");
    write_file(js, "app.js", "console.log('naval-test-script');");
    write_file(web_root, ".secret", "hidden");
}

static void remove_web_root(void) {
    char path[160];
    static const char* const files[] = {"index.html", "js/app.js", ".secret", "js", NULL};
    for (int i = 0; files[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", web_root, files[i]);
        remove(path);
    }
    rmdir(web_root);
}

static int group_setup(void** state) {
    (void)state;
    setenv("NAVAL_ADMIN_TOKEN", ADMIN, 1);
    make_web_root();
    const char* extra[] = {"--boats", "20", "--threads", "2", "--tick-hz", "30", "--log-level", "warn",
                           "--max-request-bytes", "4096", "--keyframe-interval", "10", "--requests-per-second",
                           "1000", "--request-burst", "1000", "--web-root", web_root,
                           /* the contacts test beaches a boat on purpose */
                           "--spawn-anywhere", NULL};
    if (proc_start(&srv, NAVAL_SERVER_PATH, extra, 15.0)) {
        fprintf(stderr, "naval-server did not start\n");
        return -1;
    }
    cli = connect_to(srv.snapshot_url, srv.command_url);
    return 0;
}

static int group_teardown(void** state) {
    (void)state;
    nvc_close(cli);
    if (srv.pid > 0) proc_stop(&srv, SIGKILL, 5.0);
    remove_web_root();
    return 0;
}

/* The next snapshot, failing the test after 3 s. */
static void next_snapshot(nvc_client* c, proto_snapshot* s) {
    nv_error e;
    if (nvc_poll_snapshot(c, 3000, s, &e)) fail_msg("no snapshot: %s", e.message);
}

static const proto_vessel* find_vessel(const proto_snapshot* s, uint32_t id) {
    for (uint32_t i = 0; i < s->vessel_count; i++)
        if (s->vessels[i].id == id) return &s->vessels[i];
    return NULL;
}

/* The server is alive and stepping: a later tick than `after` arrives. */
static uint64_t assert_ticking(uint64_t after) {
    proto_snapshot s = {0};
    double deadline = proc_now() + 3.0;
    uint64_t tick = 0;
    while (proc_now() < deadline && tick <= after) {
        next_snapshot(cli, &s);
        tick = s.tick;
    }
    proto_free_snapshot(&s);
    assert_true(proc_alive(&srv));
    if (tick <= after) fail_msg("the server stopped ticking at %llu", (unsigned long long)after);
    return tick;
}

static void test_snapshots_tick_up(void** state) {
    (void)state;
    proto_snapshot s = {0};
    next_snapshot(cli, &s);
    uint64_t last = s.tick;
    double last_time = s.sim_time;
    for (int i = 0; i < 5; i++) {
        next_snapshot(cli, &s);
        assert_true(s.tick > last);
        assert_true(s.sim_time > last_time);
        assert_true(s.vessel_count >= BOATS);
        assert_true(s.send_time_ns > 1600000000ull * 1000000000ull);
        for (uint32_t v = 0; v < s.vessel_count; v++) {
            const proto_vessel* b = &s.vessels[v];
            assert_true(isfinite(b->position[0]) && isfinite(b->position[1]) && isfinite(b->position[2]));
            double q = b->orientation[0] * b->orientation[0] + b->orientation[1] * b->orientation[1] +
                       b->orientation[2] * b->orientation[2] + b->orientation[3] * b->orientation[3];
            assert_true(fabs(q - 1.0) < 1e-3);
        }
        last = s.tick;
        last_time = s.sim_time;
    }
    proto_free_snapshot(&s);
}

static void test_world_info_and_hull(void** state) {
    (void)state;
    nv_error e;
    proto_hello_reply h;
    if (nvc_hello(cli, "test_server", &h, &e)) fail_msg("%s", e.message);
    assert_int_equal(h.protocol_version, PROTO_VERSION);
    assert_true(fabs(h.tick_hz - 30.0) < 1e-9);
    proto_world_info w = {0};
    if (nvc_get_world_info(cli, &w, &e)) fail_msg("%s", e.message);
    assert_int_equal(w.type_count, 3);
    assert_string_equal(w.types[0].name, "skiff");
    assert_string_equal(w.types[1].name, "patrol");
    assert_string_equal(w.types[2].name, "freighter");
    assert_true(w.has_ocean);
    assert_int_equal(w.ocean.resolution, 256);
    assert_int_equal(w.ocean.cascades, 1);
    assert_int_equal(w.ocean.surface_grid, 1);
    assert_true(w.tick > 0);
    /* the default world's ground: builtin:harbour's 301 x 301 nodes, every
     * other one on the wire; the island's top (25 m at (-60, 0)) is there */
    assert_true(w.terrain.present && w.terrain.nx == 151 && w.terrain.nz == 151 && w.terrain.cell_size == 4.0);
    double top = -1e9;
    for (uint32_t k = 0; k < w.terrain.nx * w.terrain.nz; k++)
        top = fmax(top, w.terrain.min_elevation +
                            w.terrain.heights[k] / 65535.0 * (w.terrain.max_elevation - w.terrain.min_elevation));
    if (!(fabs(top - 25.0) < 0.01)) fail_msg("the terrain on the wire tops at %.3f m, the island at 25 m", top);
    for (uint16_t t = 0; t < w.type_count; t++) {
        proto_hull hull = {0};
        if (nvc_get_hull(cli, t, &hull, &e)) fail_msg("%s", e.message);
        assert_int_equal(hull.type, t);
        assert_int_equal(hull.vertex_count, w.types[t].vertex_count);
        assert_int_equal(hull.triangle_count, w.types[t].triangle_count);
        /* About the CG: inside the type's bounds, which straddle the origin. */
        for (uint32_t i = 0; i < hull.vertex_count; i++)
            for (int k = 0; k < 3; k++) {
                assert_true(hull.vertices[3 * i + k] >= w.types[t].bounds_min[k] - 1e-4f);
                assert_true(hull.vertices[3 * i + k] <= w.types[t].bounds_max[k] + 1e-4f);
            }
        for (int k = 0; k < 3; k++) assert_true(w.types[t].bounds_min[k] < 0 && w.types[t].bounds_max[k] > 0);
        proto_free_hull(&hull);
    }
    proto_hull none = {0};
    assert_int_equal(nvc_get_hull(cli, 3, &none, &e), -1);
    assert_int_equal(e.code, NV_EREFUSED);
    assert_int_equal(e.status, PROTO_STATUS_NOT_FOUND);
    proto_free_hull(&none);
    proto_free_world_info(&w);
}

/* Heading (about +y from +x toward -z) of a snapshot's vessel. */
static double heading_of(const proto_vessel* v) {
    double x = v->orientation[0], y = v->orientation[1], z = v->orientation[2], w = v->orientation[3];
    double bx = 1 - 2 * (y * y + z * z), bz = 2 * (x * z - w * y); /* the bow: R (1, 0, 0) */
    return atan2(-bz, bx);
}

/* Polls until `id` is in a snapshot at least `seconds` of sim time after
 * `since` (or anywhere when since < 0); copies it out. */
static proto_vessel wait_for_vessel(uint32_t id, double since, double seconds) {
    proto_snapshot s = {0};
    proto_vessel out;
    /* Sanitizer builds step far slower than real time. */
    double deadline = proc_now() + 30.0;
    for (;;) {
        if (proc_now() > deadline) fail_msg("vessel %u not seen in time", id);
        next_snapshot(cli, &s);
        const proto_vessel* v = find_vessel(&s, id);
        if (v && (since < 0 || s.sim_time >= since + seconds)) {
            out = *v;
            out.flags = 0;
            break;
        }
    }
    proto_free_snapshot(&s);
    return out;
}

static double sim_time_now(void) {
    proto_snapshot s = {0};
    next_snapshot(cli, &s);
    double t = s.sim_time;
    proto_free_snapshot(&s);
    return t;
}

static void test_spawn_steer_despawn(void** state) {
    (void)state;
    nv_error e;
    nvc_vessel boat;
    if (nvc_spawn(cli, "skiff", 0, 3000.0, -2000.0, 0.0, &boat, &e)) fail_msg("%s", e.message);
    proto_vessel v0 = wait_for_vessel(boat.id, -1, 0);
    assert_true(fabs(v0.position[0] - 3000.0) < 1.0 && fabs(v0.position[2] + 2000.0) < 1.0);
    /* Full ahead, rudder amidships: it moves along +x (heading 0). */
    if (nvc_control(cli, &boat, 1.0f, 0.0f, &e)) fail_msg("%s", e.message);
    double t0 = sim_time_now();
    proto_vessel v1 = wait_for_vessel(boat.id, t0, 3.0);
    double dx = v1.position[0] - v0.position[0], dz = v1.position[2] - v0.position[2];
    if (!(dx > 2.0 && fabs(dz) < dx)) fail_msg("ahead: moved (%.2f, %.2f) m, expected > 2 m along +x", dx, dz);
    /* Starboard rudder: the heading decreases (turns toward +z). */
    if (nvc_control(cli, &boat, 1.0f, 1.0f, &e)) fail_msg("%s", e.message);
    double h1 = heading_of(&v1);
    proto_vessel v2 = wait_for_vessel(boat.id, sim_time_now(), 2.0);
    double turned = remainder(heading_of(&v2) - h1, 2 * 3.14159265358979323846);
    if (!(turned < -0.03)) fail_msg("starboard rudder turned the heading by %.3f rad, expected < -0.03", turned);
    /* The owner despawns it; it leaves the snapshots. */
    if (nvc_despawn(cli, &boat, &e)) fail_msg("%s", e.message);
    proto_snapshot s = {0};
    double deadline = proc_now() + 10.0;
    do next_snapshot(cli, &s);
    while (find_vessel(&s, boat.id) && proc_now() < deadline);
    assert_null(find_vessel(&s, boat.id));
    for (int i = 0; i < 3; i++) {
        next_snapshot(cli, &s);
        assert_null(find_vessel(&s, boat.id));
    }
    proto_free_snapshot(&s);
    assert_int_equal(nvc_control(cli, &boat, 0.5f, 0.0f, &e), -1);
    assert_int_equal(e.status, PROTO_STATUS_NOT_FOUND);
}

static int counter_in(const char* text, const char* series) {
    const char* p = strstr(text, series);
    return p ? atoi(p + strlen(series)) : -1;
}

/* Contacts reach the snapshots and the metrics: a patrol boat spawned on
 * the default world's beach, in 0.8 m of water, is on the ground at once;
 * two driven at each other in open water collide, each pushed away from
 * the other. */
static void test_contacts_in_snapshots(void** state) {
    (void)state;
    nv_error e;
    nvc_vessel beached, a, b;
    if (nvc_spawn(cli, "patrol", 0, -60.0, -148.0, 0.0, &beached, &e) ||
        nvc_spawn(cli, "patrol", 0, 400.0, 400.0, 0.0, &a, &e) ||
        nvc_spawn(cli, "patrol", 0, 432.0, 400.0, 3.14159265358979323846, &b, &e))
        fail_msg("%s", e.message);
    if (nvc_control(cli, &a, 1.0f, 0.0f, &e) || nvc_control(cli, &b, 1.0f, 0.0f, &e)) fail_msg("%s", e.message);
    int ground = 0, flagged = 0, collided = 0;
    proto_snapshot s = {0};
    double deadline = proc_now() + 60.0; /* sanitizer builds step slowly */
    while (!(ground && flagged && collided) && proc_now() < deadline) {
        next_snapshot(cli, &s);
        for (uint32_t i = 0; i < s.contact_count; i++) {
            const proto_contact* c = &s.contacts[i];
            assert_true(c->tick <= s.tick && c->tick + 1 >= s.tick);
            if (c->a == beached.id && c->b == PROTO_CONTACT_GROUND) ground = 1;
            if (!collided && ((c->a == a.id && c->b == b.id) || (c->a == b.id && c->b == a.id))) {
                /* the first time they meet: the normal pushes the event's
                 * first vessel away from the other (their pointed bows may
                 * meet at an angle: not necessarily along x) */
                collided = 1;
                assert_true(c->closing_speed > 0.5f && c->impulse > 0.0f);
                const proto_vessel *pa = find_vessel(&s, c->a), *pb = find_vessel(&s, c->b);
                assert_true(pa && pb);
                double away = c->normal[0] * (pa->position[0] - pb->position[0]) +
                              c->normal[2] * (pa->position[2] - pb->position[2]);
                if (!(away > 0.0))
                    fail_msg("contact normal (%.3f, %.3f, %.3f) pushes vessel %u toward %u", c->normal[0], c->normal[1],
                             c->normal[2], c->a, c->b);
            }
        }
        const proto_vessel* v = find_vessel(&s, beached.id);
        if (v && (v->flags & PROTO_VESSEL_GROUNDED)) flagged = 1;
    }
    proto_free_snapshot(&s);
    if (!(ground && flagged && collided))
        fail_msg("ground contact %d, grounded flag %d, collision %d", ground, flagged, collided);
    static char text[1 << 16];
    assert_int_equal(proc_http_get(srv.http_port, "/metrics", text, sizeof text), 200);
    assert_true(counter_in(text, "naval_contacts_total{with=\"ground\"} ") >= 1);
    assert_true(counter_in(text, "naval_contacts_total{with=\"vessel\"} ") >= 1);
    assert_non_null(strstr(text, "\nnaval_vessels_grounded "));
    if (nvc_despawn(cli, &beached, &e) || nvc_despawn(cli, &a, &e) || nvc_despawn(cli, &b, &e))
        fail_msg("%s", e.message);
}

static void test_wrong_token_refused(void** state) {
    (void)state;
    nv_error e;
    nvc_vessel boat;
    if (nvc_spawn(cli, NULL, 0, -3000.0, 500.0, 1.0, &boat, &e)) fail_msg("%s", e.message);
    nvc_vessel forged = boat;
    forged.token.bytes[7] ^= 0x40;
    assert_int_equal(nvc_control(cli, &forged, 1.0f, 0.0f, &e), -1);
    assert_int_equal(e.code, NV_EREFUSED);
    assert_int_equal(e.status, PROTO_STATUS_UNAUTHORIZED);
    assert_non_null(strstr(e.message, "wrong token"));
    assert_int_equal(nvc_despawn(cli, &forged, &e), -1);
    assert_int_equal(e.status, PROTO_STATUS_UNAUTHORIZED);
    /* A demo boat has no token a client could know. */
    proto_snapshot s = {0};
    next_snapshot(cli, &s);
    nvc_vessel demo = {s.vessels[0].id, {{0}}, 0.0, 0.0};
    proto_free_snapshot(&s);
    assert_int_equal(nvc_control(cli, &demo, 1.0f, 0.0f, &e), -1);
    assert_int_equal(e.status, PROTO_STATUS_UNAUTHORIZED);
    /* Another connection with the right token may steer it (and takes it over). */
    nvc_client* other = connect_to(NULL, srv.command_url);
    if (nvc_control(other, &boat, 0.5f, 0.0f, &e)) fail_msg("%s", e.message);
    if (nvc_despawn(other, &boat, &e)) fail_msg("%s", e.message);
    nvc_close(other);
    /* Out of range is clamped; NaN never leaves the client (proto refuses it). */
    assert_int_equal(nvc_control(cli, &boat, NAN, 0.0f, &e), -1);
    assert_int_equal(e.code, NV_EINVAL);
}

/* Sends raw bytes and expects a refusal with `status`. */
static void expect_refusal(const void* data, size_t size, proto_status status, const char* what) {
    proto_response r = {0};
    nv_error e;
    if (nvc_request_raw(cli, data, size, &r, &e)) fail_msg("%s: no answer: %s", what, e.message);
    if (r.status != status)
        fail_msg("%s: status %s, expected %s (%s)", what, proto_status_name(r.status), proto_status_name(status),
                 r.error);
    assert_true(r.error[0] != '\0');
    proto_free_response(&r);
}

static void encode_control(proto_buf* b, float throttle) {
    proto_request req = {0};
    req.request_id = 77;
    req.kind = PROTO_BODY_CONTROL;
    req.body.control.vessel_id = 1;
    req.body.control.throttle = throttle;
    proto_error pe;
    if (proto_encode_request(b, &req, &pe)) fail_msg("%s", pe.message);
}

static void test_hostile_bytes(void** state) {
    (void)state;
    uint64_t tick = assert_ticking(0);
    /* Random bytes. */
    uint8_t noise[512];
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < sizeof noise; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        noise[i] = (uint8_t)x;
    }
    expect_refusal(noise, sizeof noise, PROTO_STATUS_BAD_REQUEST, "random bytes");
    expect_refusal(noise, 3, PROTO_STATUS_BAD_REQUEST, "three bytes");
    expect_refusal("", 0, PROTO_STATUS_BAD_REQUEST, "empty message");
    /* Truncated: a valid request cut in half. */
    proto_buf b = {0};
    encode_control(&b, 0.8125f);
    expect_refusal(b.data, b.size / 2, PROTO_STATUS_BAD_REQUEST, "truncated request");
    /* Mismatched: a request with another message's identifier, and a
     * snapshot sent as a request. */
    uint8_t copy[1024];
    assert_true(b.size <= sizeof copy);
    memcpy(copy, b.data, b.size);
    memcpy(copy + 4, PROTO_ID_SNAPSHOT, 4);
    expect_refusal(copy, b.size, PROTO_STATUS_BAD_REQUEST, "request labelled as a snapshot");
    proto_vessel one = {0};
    one.orientation[3] = 1.0f;
    proto_snapshot snap = {0};
    snap.vessels = &one;
    snap.vessel_count = 1;
    proto_buf sb = {0};
    proto_error pe;
    if (proto_encode_snapshot(&sb, &snap, &pe)) fail_msg("%s", pe.message);
    expect_refusal(sb.data, sb.size, PROTO_STATUS_BAD_REQUEST, "snapshot as a request");
    proto_free_buf(&sb);
    /* NaN controls: the float 0.8125 patched to a NaN in the wire bytes. */
    memcpy(copy, b.data, b.size);
    const uint8_t pattern[4] = {0x00, 0x00, 0x50, 0x3f}, nan_bytes[4] = {0x00, 0x00, 0xc0, 0x7f};
    int found = 0;
    for (size_t i = 0; i + 4 <= b.size; i++)
        if (memcmp(copy + i, pattern, 4) == 0) {
            memcpy(copy + i, nan_bytes, 4);
            found++;
        }
    assert_int_equal(found, 1);
    expect_refusal(copy, b.size, PROTO_STATUS_BAD_REQUEST, "NaN throttle");
    /* Out of range on the wire: proto's decoder refuses it too (the world
     * would clamp it; nothing out of range gets that far). */
    const uint8_t one_and_half[4] = {0x00, 0x00, 0xc0, 0x3f};
    memcpy(copy, b.data, b.size);
    for (size_t i = 0; i + 4 <= b.size; i++)
        if (memcmp(copy + i, pattern, 4) == 0) memcpy(copy + i, one_and_half, 4);
    expect_refusal(copy, b.size, PROTO_STATUS_BAD_REQUEST, "throttle 1.5");
    proto_free_buf(&b);
    /* Oversized: over the server's 4096-byte request limit. */
    static uint8_t big[8192];
    memset(big, 0xab, sizeof big);
    expect_refusal(big, sizeof big, PROTO_STATUS_LIMIT_EXCEEDED, "oversized message");
    /* The server keeps ticking, and still answers properly. */
    tick = assert_ticking(tick);
    nv_error e;
    assert_int_equal(nvc_hello(cli, "after", NULL, &e), 0);
    assert_ticking(tick);
}

static void test_websocket_and_compact(void** state) {
    (void)state;
    nvc_client* ws = connect_to(srv.ws_snapshots, srv.ws_commands);
    proto_snapshot s = {0};
    nv_error e;
    if (nvc_poll_snapshot(ws, 3000, &s, &e)) fail_msg("ws snapshot: %s", e.message);
    assert_true(s.vessel_count >= BOATS);
    proto_stats st;
    if (nvc_get_stats(ws, &st, &e)) fail_msg("ws stats: %s", e.message);
    assert_true(st.tick > 0 && st.vessel_count >= BOATS && st.subscribers >= 2);
    nvc_close(ws);
    /* The compact stream decodes to the same fleet (within quantisation). */
    nvc_client* cc = connect_to(srv.compact_url, NULL);
    if (nvc_poll_snapshot(cc, 3000, &s, &e)) fail_msg("compact snapshot: %s", e.message);
    assert_true(s.vessel_count >= BOATS);
    for (uint32_t i = 0; i < s.vessel_count; i++) assert_true(isfinite(s.vessels[i].position[0]));
    nvc_close(cc);
    nvc_client* wc = connect_to(srv.ws_compact, NULL);
    if (nvc_poll_snapshot(wc, 3000, &s, &e)) fail_msg("ws compact snapshot: %s", e.message);
    assert_true(s.vessel_count >= BOATS);
    nvc_close(wc);
    proto_free_snapshot(&s);
}

typedef struct callback_log {
    nng_mtx* lock;
    uint32_t count;
    uint64_t last_tick;
    int out_of_order;
} callback_log;

static void on_snapshot(void* user, const proto_snapshot* s) {
    callback_log* l = user;
    nng_mtx_lock(l->lock);
    if (l->count && s->tick <= l->last_tick) l->out_of_order = 1;
    l->last_tick = s->tick;
    l->count++;
    nng_mtx_unlock(l->lock);
}

static void test_client_callback_timeout_errors(void** state) {
    (void)state;
    /* Callback mode: snapshots arrive on the helper thread, in order; poll is off. */
    callback_log log = {0};
    assert_int_equal(nng_mtx_alloc(&log.lock), 0);
    nvc_client* c = connect_to(srv.snapshot_url, NULL);
    nv_error e;
    assert_int_equal(nvc_set_snapshot_callback(c, on_snapshot, &log, &e), 0);
    assert_int_equal(nvc_set_snapshot_callback(c, on_snapshot, &log, &e), -1);
    assert_int_equal(e.code, NV_ESTATE);
    proto_snapshot s = {0};
    assert_int_equal(nvc_poll_snapshot(c, 10, &s, &e), -1);
    assert_int_equal(e.code, NV_ESTATE);
    proc_sleep_ms(600);
    nvc_close(c); /* joins the helper: log is ours again */
    if (!(log.count >= 3 && !log.out_of_order)) fail_msg("%u snapshots by callback, out of order: %d", log.count,
                                                          log.out_of_order);
    nng_mtx_free(log.lock);
    /* No snapshot URL: poll says so. Requests time out against a REP that
     * never answers, and a closed port is named. */
    c = connect_to(NULL, srv.command_url);
    assert_int_equal(nvc_poll_snapshot(c, 10, &s, &e), -1);
    assert_int_equal(e.code, NV_ESTATE);
    nvc_close(c);
    char url[64];
    snprintf(url, sizeof url, "tcp://127.0.0.1:%d", proc_free_port());
    nng_socket mute;
    assert_int_equal(nng_rep0_open(&mute), 0);
    assert_int_equal(nng_listen(mute, url, NULL, 0), 0);
    nvc_options o;
    nvc_options_default(&o);
    o.command_url = url;
    o.request_timeout_ms = 300;
    assert_int_equal(nvc_connect(&c, &o, &e), 0);
    double t0 = proc_now();
    assert_int_equal(nvc_hello(c, "x", NULL, &e), -1);
    assert_int_equal(e.code, NV_ETIMEDOUT);
    assert_true(proc_now() - t0 < 2.0);
    assert_non_null(strstr(e.message, "300 ms"));
    nvc_close(c);
    nng_close(mute);
    snprintf(url, sizeof url, "tcp://127.0.0.1:%d", proc_free_port());
    o.command_url = url;
    assert_int_equal(nvc_connect(&c, &o, &e), -1);
    assert_int_equal(e.code, NV_ECONNECT);
    assert_non_null(strstr(e.message, url));
    o.command_url = NULL;
    assert_int_equal(nvc_connect(&c, &o, &e), -1);
    assert_int_equal(e.code, NV_EINVAL);
}

static void test_admin_and_metrics(void** state) {
    (void)state;
    /* The admin may steer a demo boat; a wrong admin token is refused. */
    proto_snapshot s = {0};
    next_snapshot(cli, &s);
    uint32_t demo = s.vessels[0].id;
    proto_free_snapshot(&s);
    nvc_options o;
    nvc_options_default(&o);
    o.command_url = srv.command_url;
    o.admin_token = "not-the-admin-secret-at-all";
    nvc_client* bad = NULL;
    nv_error e;
    if (nvc_connect(&bad, &o, &e)) fail_msg("%s", e.message);
    nvc_vessel v = {demo, {{0}}, 0.0, 0.0};
    assert_int_equal(nvc_control(bad, &v, 0.0f, 0.0f, &e), -1);
    assert_int_equal(e.status, PROTO_STATUS_UNAUTHORIZED);
    nvc_close(bad);
    o.admin_token = ADMIN;
    nvc_client* admin = NULL;
    if (nvc_connect(&admin, &o, &e)) fail_msg("%s", e.message);
    if (nvc_control(admin, &v, 0.0f, 0.0f, &e)) fail_msg("admin control: %s", e.message);
    nvc_close(admin);
    /* Metrics count what happened; health says ok. */
    static char text[1 << 16];
    assert_int_equal(proc_http_get(srv.http_port, "/metrics", text, sizeof text), 200);
    assert_true(counter_in(text, "naval_commands_total{type=\"spawn\",status=\"ok\"} ") >= 2);
    assert_true(counter_in(text, "naval_commands_total{type=\"none\",status=\"bad_request\"} ") >= 4);
    assert_true(counter_in(text, "naval_commands_total{type=\"control\",status=\"unauthorized\"} ") >= 3);
    assert_true(counter_in(text, "\nnaval_vessels ") >= BOATS);
    assert_non_null(strstr(text, "naval_tick_duration_seconds_bucket{le=\"+Inf\"}"));
    /* The passes' time: every pass named, the step's counted. */
    const char* passes[] = {"commands", "step", "after_step", "capture", "full_encode", "full_publish",
                            "compact_encode", "compact_publish", "views_encode", "views_send"};
    double pass_s[10];
    for (int k = 0; k < 10; k++) {
        char series[96];
        snprintf(series, sizeof series, "naval_tick_pass_seconds_total{pass=\"%s\"} ", passes[k]);
        const char* at = strstr(text, series);
        if (!at) fail_msg("/metrics has no %s", series);
        pass_s[k] = strtod(at + strlen(series), NULL);
        assert_true(pass_s[k] >= 0.0);
    }
    assert_true(pass_s[1] > 0.0);
    assert_non_null(strstr(text, "naval_subscribers{stream=\"full\"} "));
    assert_int_equal(proc_http_get(srv.http_port, "/healthz", text, sizeof text), 200);
    assert_non_null(strstr(text, "ok"));
    /* The web root, and nothing outside it or hidden in it. */
    assert_int_equal(proc_http_get(srv.http_port, "/", text, sizeof text), 200);
    assert_non_null(strstr(text, "naval-test-page"));
    assert_int_equal(proc_http_get(srv.http_port, "/js/app.js", text, sizeof text), 200);
    assert_non_null(strstr(text, "naval-test-script"));
    assert_int_equal(proc_http_get(srv.http_port, "/no/such/file", text, sizeof text), 404);
    assert_int_equal(proc_http_get(srv.http_port, "/.secret", text, sizeof text), 404);
    /* Dot segments are refused outright (no browser sends them). */
    assert_int_equal(proc_http_get(srv.http_port, "/../../../../etc/passwd", text, sizeof text), 400);
    assert_int_equal(proc_http_get(srv.http_port, "/js/../../../../etc/passwd", text, sizeof text), 400);
}

/* Half the length of a type: its bounding circle is at least that wide. */
static double half_length(const proto_world_info* w, uint32_t t) {
    return fmax(-w->types[t].bounds_min[0], w->types[t].bounds_max[0]);
}

/* A server of its own with the sea flags and a 100 m spawn search: its
 * WorldInfo reports Beaufort 6's sea toward --wind-dir; a patrol boat asked for inside a
 * freighter (12 m aft of its centre, 3.3 m off its centreline) comes out
 * alongside it, clear of its footprint; a skiff asked for on the beach goes to water deeper than
 * its keel; a second freighter asked for on the first lies alongside it; a skiff in the
 * island's middle (140 m of land around), are refused with the reason.
 * A sea flag on a server without a sane value exits 2 with the range. */
static void test_spawns_in_free_water_and_sea_flags(void** state) {
    (void)state;
    server_proc sea;
    const char* extra[] = {"--boats", "0", "--threads", "1", "--tick-hz", "30", "--log-level", "warn",
                           "--beaufort", "6", "--wind-dir", "90", "--spawn-search", "100", NULL};
    if (proc_start(&sea, NAVAL_SERVER_PATH, extra, 15.0)) fail_msg("naval-server --beaufort 6 did not start");
    nvc_client* c = connect_to(sea.snapshot_url, sea.command_url);
    nv_error e;
    proto_world_info w = {0};
    if (nvc_get_world_info(c, &w, &e)) fail_msg("%s", e.message);
    assert_true(w.has_ocean);
    /* Beaufort 6: a strong breeze, 10.8 to 13.8 m/s; Hs about 3 m */
    if (!(w.ocean.beaufort == 6 && w.ocean.wind_speed >= 10.8 && w.ocean.wind_speed <= 13.8 &&
          w.ocean.hs_target > 2.0 && w.ocean.hs_target < 5.0))
        fail_msg("--beaufort 6: WorldInfo says beaufort %d, wind %.2f m/s, hs %.2f m", w.ocean.beaufort,
                 w.ocean.wind_speed, w.ocean.hs_target);
    if (w.ocean.wind_direction != 90.0) fail_msg("--wind-dir 90: WorldInfo says %g", w.ocean.wind_direction);
    nvc_vessel big, small, skiff, refused;
    if (nvc_spawn(c, "freighter", 0, 4000.0, 4000.0, 0.0, &big, &e)) fail_msg("%s", e.message);
    if (nvc_spawn(c, "patrol", 0, 4000.0 - 12.0, 4000.0 + 3.3, 0.0, &small, &e)) fail_msg("%s", e.message);
    /* the beach (the island's -z side, 130 m from its centre): land */
    if (nvc_spawn(c, "skiff", 0, -60.0, -130.0, 0.0, &skiff, &e)) fail_msg("%s", e.message);
    /* a second freighter asked for on the first: alongside it (or the
     * patrol boat alongside it), within two beams of its centreline, not
     * refused and not a half length away */
    nvc_vessel twin;
    if (nvc_spawn(c, "freighter", 0, 4000.0, 4000.0, 0.0, &twin, &e)) fail_msg("%s", e.message);
    {
        const proto_vessel_type* f = &w.types[2];
        double beam = f->bounds_max[2] - f->bounds_min[2], length = f->bounds_max[0] - f->bounds_min[0];
        double off_z = fabs(twin.z - 4000.0), off_x = fabs(twin.x - 4000.0);
        if (!((off_z >= beam + 1.5 && off_z <= 2.0 * beam) || off_x >= length + 1.5))
            fail_msg("the second freighter went to (%.1f, %.1f): beam %.1f m, length %.1f m", twin.x, twin.z, beam,
                     length);
    }
    assert_int_equal(nvc_spawn(c, "skiff", 0, -60.0, 0.0, 0.0, &refused, &e), -1);
    assert_int_equal(e.status, PROTO_STATUS_LIMIT_EXCEEDED);
    if (!strstr(e.message, "no free water within 100 m of (-60, 0)")) fail_msg("got '%s'", e.message);
    /* Where they went: the next snapshot that has all three. */
    proto_snapshot s = {0};
    const proto_vessel *vb = NULL, *vs = NULL, *vk = NULL;
    double deadline = proc_now() + 30.0;
    while (!(vb && vs && vk) && proc_now() < deadline) {
        nv_error pe;
        if (nvc_poll_snapshot(c, 3000, &s, &pe)) fail_msg("no snapshot: %s", pe.message);
        vb = find_vessel(&s, big.id), vs = find_vessel(&s, small.id), vk = find_vessel(&s, skiff.id);
    }
    assert_true(vb && vs && vk);
    /* Alongside, not a half length away: the footprints (both at heading
     * 0, the boxes of WorldInfo's bounds) clear by the 2 m spawn clearance
     * along x or z where the reply placed it (0.5 m for the freighter's
     * drift before the spawn), and nearer than their half lengths. */
    const proto_vessel_type *fb = &w.types[2], *pb = &w.types[1];
    double gap_x = fmax(small.x + pb->bounds_min[0] - (4000.0 + fb->bounds_max[0]),
                        4000.0 + fb->bounds_min[0] - (small.x + pb->bounds_max[0]));
    double gap_z = fmax(small.z + pb->bounds_min[2] - (4000.0 + fb->bounds_max[2]),
                        4000.0 + fb->bounds_min[2] - (small.z + pb->bounds_max[2]));
    double d = hypot(small.x - 4000.0, small.z - 4000.0);
    if (!(fmax(gap_x, gap_z) >= 2.0 - 0.5 && d < half_length(&w, 2) + half_length(&w, 1)))
        fail_msg("the patrol boat went to (%.1f, %.1f), %.1f m from the freighter's centre: clear by %.2f m along x, "
                 "%.2f m along z",
                 small.x, small.z, d, gap_x, gap_z);
    /* the reply says where each went */
    if (!(fabs(small.x - vs->position[0]) < 2.0 && fabs(small.z - vs->position[2]) < 2.0 &&
          fabs(big.x - 4000.0) < 1e-9 && fabs(big.z - 4000.0) < 1e-9))
        fail_msg("SpawnReply placed the patrol boat at (%.1f, %.1f), the snapshot at (%.1f, %.1f)", small.x, small.z,
                 vs->position[0], vs->position[2]);
    double moved = hypot(vk->position[0] + 60.0, vk->position[2] + 130.0);
    /* the ground under it, from WorldInfo's terrain (its nearest node) */
    const proto_terrain_info* t = &w.terrain;
    long i = lround((vk->position[0] - t->origin_x) / t->cell_size);
    long j = lround((vk->position[2] - t->origin_z) / t->cell_size);
    assert_true(i >= 0 && j >= 0 && i < (long)t->nx && j < (long)t->nz);
    double ground = t->min_elevation + t->heights[j * t->nx + i] / 65535.0 * (t->max_elevation - t->min_elevation);
    if (!(moved > 5.0 && ground < -(0.33 + 2.0) + 0.5))
        fail_msg("the skiff asked for on the beach went %.1f m to (%.1f, %.1f), ground %.2f m", moved,
                 vk->position[0], vk->position[2], ground);
    proto_free_snapshot(&s);
    proto_free_world_info(&w);
    nvc_close(c);
    assert_int_equal(proc_stop(&sea, SIGTERM, 10.0), 0);
    /* --wind out of range: exit 2 with the range */
    char cmd[1024], out[512] = "";
    snprintf(cmd, sizeof cmd, "'%s' --wind 1e9 --check-config 2>&1", NAVAL_SERVER_PATH);
    FILE* p = popen(cmd, "r");
    assert_non_null(p);
    size_t got = fread(out, 1, sizeof out - 1, p);
    out[got] = '\0';
    int status = pclose(p);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
    if (!strstr(out, "--wind: must be a number in [0, 60] m/s (got '1e9')")) fail_msg("got '%s'", out);
}

static void test_sigterm_exits_cleanly(void** state) {
    (void)state;
    assert_ticking(0);
    assert_int_equal(proc_stop(&srv, SIGTERM, 10.0), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snapshots_tick_up),
        cmocka_unit_test(test_world_info_and_hull),
        cmocka_unit_test(test_spawn_steer_despawn),
        cmocka_unit_test(test_contacts_in_snapshots),
        cmocka_unit_test(test_wrong_token_refused),
        cmocka_unit_test(test_hostile_bytes),
        cmocka_unit_test(test_websocket_and_compact),
        cmocka_unit_test(test_admin_and_metrics),
        cmocka_unit_test(test_client_callback_timeout_errors),
        cmocka_unit_test(test_spawns_in_free_water_and_sea_flags),
        cmocka_unit_test(test_sigterm_exits_cleanly),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
