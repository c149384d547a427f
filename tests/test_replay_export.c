// SPDX-License-Identifier: MIT
/* naval-replay --export-web: a server with --record runs for about two
 * seconds at 60 Hz (demo boats on the island run aground; a client spawns
 * a boat, steers it and despawns another), SIGTERM stops it and writes
 * its final checkpoint. The export of that log at 10 Hz decodes with the
 * C decoders: the header, the world info as of the base tick, one hull
 * per type with the world info's vertex and triangle counts, then one
 * snapshot every 6 ticks from the base tick and the last tick, ticks
 * increasing, as many as the duration times the rate (at 60 Hz, every
 * tick once: the last one written again in place); every contact of the
 * log once; the last snapshot's vessels are the final checkpoint's,
 * to the bit. A tampered log exits 1 and leaves no file; an export path
 * that cannot be created exits 2 naming it, a write that fails midway
 * exits 1 naming it and leaves no file. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "naval/checkpoint.h"
#include "naval_client.h"
#include "test_server_logged.h"

#define TICK_HZ 60
#define RATE_HZ 10

static char dir[64], rec[128], base[128], final[128], log_path[128], out_path[128], err_path[128], web[128];
static server_proc srv;

static int group_setup(void** state) {
    (void)state;
    if (logged_tempdir(dir, sizeof dir, "naval_export")) return -1;
    snprintf(rec, sizeof rec, "%s/session.rec", dir);
    snprintf(base, sizeof base, "%s/session.rec.ckpt", dir);
    snprintf(final, sizeof final, "%s/final.ckpt", dir);
    snprintf(log_path, sizeof log_path, "%s/server.log", dir);
    snprintf(out_path, sizeof out_path, "%s/replay.out", dir);
    snprintf(err_path, sizeof err_path, "%s/replay.err", dir);
    snprintf(web, sizeof web, "%s/session.nvreplay", dir);
    return 0;
}

static int group_teardown(void** state) {
    (void)state;
    if (srv.pid > 0) proc_stop(&srv, SIGKILL, 5.0);
    logged_rmdir(dir);
    return 0;
}

static int count_lines(const char* path, const char* word) {
    char* text = logged_slurp(path, NULL);
    assert_non_null(text);
    int n = 0;
    for (const char* p = text; (p = strstr(p, word)) != NULL; p++) n++;
    free(text);
    return n;
}

static int export_at(const char* log, const char* file, const char* rate) {
    const char* argv[] = {NAVAL_REPLAY_PATH, base, log, "--threads", "2", "--export-web", file, "--rate", rate, "--json", NULL};
    return logged_run(argv, out_path, err_path, 30.0);
}

static int export_web(const char* log, const char* file) {
    return export_at(log, file, "10");
}

static uint32_t u32_at(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The next record of the file: its kind, and its message copied (so that
 * the decoders see their own buffer); NULL at the end. */
static uint8_t* next_record(const uint8_t* file, size_t size, size_t* at, uint32_t* kind, size_t* length) {
    if (*at == size) return NULL;
    assert_true(*at + 8 <= size);
    *length = u32_at(file + *at);
    *kind = u32_at(file + *at + 4);
    assert_true(*at + 8 + *length <= size);
    uint8_t* msg = malloc(*length);
    assert_non_null(msg);
    memcpy(msg, file + *at + 8, *length);
    assert_int_equal((*at + 8) % 8, 0); /* every message starts 8-aligned */
    *at += 8 + *length + (8 - *length % 8) % 8;
    return msg;
}

static void record_session(void) {
    const char* extra[] = {"--boats", "10", "--threads", "1", "--tick-hz", "60", "--record", rec,
                           "--record-hash-interval", "30", "--checkpoint", final, "--checkpoint-interval", "0",
                           /* boats on the island: they run aground, contacts in the log */
                           "--spawn-anywhere", NULL};
    if (logged_start(&srv, extra, log_path, 20.0)) fail_msg("naval-server did not start");
    nvc_options o;
    nvc_options_default(&o);
    o.snapshot_url = NULL;
    o.command_url = srv.command_url;
    o.request_timeout_ms = 3000;
    nvc_client* c = NULL;
    nv_error e;
    if (nvc_connect(&c, &o, &e)) fail_msg("connect: %s", e.message);
    nvc_vessel boats[2];
    if (nvc_spawn(c, "patrol", 0, 40.0, 20.0, 0.5, &boats[0], &e) ||
        nvc_spawn(c, "skiff", 0, -40.0, 10.0, 2.0, &boats[1], &e))
        fail_msg("spawn: %s", e.message);
    double end = proc_now() + 2.0, give_up = proc_now() + 30.0;
    uint64_t tick = 0;
    for (int i = 0; (proc_now() < end || tick < 120) && proc_now() < give_up; i++) {
        if (nvc_control(c, &boats[0], (float)sin(i * 0.3), (float)cos(i * 0.2), &e)) fail_msg("control: %s", e.message);
        proto_stats st;
        if (i % 10 == 0 && nvc_get_stats(c, &st, &e) == 0) tick = st.tick;
        proc_sleep_ms(40);
    }
    if (nvc_despawn(c, &boats[1], &e)) fail_msg("despawn: %s", e.message);
    proc_sleep_ms(100);
    assert_int_equal(logged_stop(&srv, SIGTERM, 10.0, log_path, 0), 0);
    nvc_close(c);
}

/* The export of the session at `rate` Hz, decoded and checked against the log and the checkpoints. */
static void check_export(const char* path, uint32_t rate) {
    const uint32_t want_stride = TICK_HZ / rate;
    char text[16];
    snprintf(text, sizeof text, "%u", rate);
    int rc = export_at(rec, path, text);
    char* out = logged_slurp(out_path, NULL);
    if (rc != 0) {
        char* err = logged_slurp(err_path, NULL);
        fail_msg("naval-replay --export-web exited %d: %s %s", rc, out ? out : "", err ? err : "");
    }
    assert_non_null(strstr(out, "\"ok\": true"));
    free(out);

    nv_checkpoint first, last;
    nv_error e;
    if (nv_checkpoint_read_file(base, &first, &e) || nv_checkpoint_read_file(final, &last, &e))
        fail_msg("checkpoint: %s", e.message);
    size_t size = 0;
    uint8_t* file = (uint8_t*)logged_slurp(path, &size);
    assert_non_null(file);
    assert_true(size > 32);
    assert_memory_equal(file, "NVREPLAY", 8);
    assert_int_equal(u32_at(file + 8), 1);
    uint32_t types = u32_at(file + 12), snapshots = u32_at(file + 16), stride = u32_at(file + 20);
    assert_int_equal(stride, want_stride);
    assert_int_equal(types, first.hull_count);

    /* the world info as of the log's base, then one hull per type */
    size_t at = 32, length;
    uint32_t kind;
    uint8_t* msg = next_record(file, size, &at, &kind, &length);
    assert_non_null(msg);
    assert_int_equal(kind, 1);
    proto_response r;
    memset(&r, 0, sizeof r);
    proto_error pe;
    if (proto_decode_response(msg, length, NULL, &r, &pe)) fail_msg("world info: %s", pe.message);
    free(msg);
    assert_int_equal(r.kind, PROTO_BODY_WORLD_INFO);
    assert_int_equal(r.world_info.tick, first.tick);
    assert_true(r.world_info.tick_hz == TICK_HZ);
    assert_int_equal(r.world_info.type_count, types);
    uint32_t vertex_counts[PROTO_MAX_TYPES], triangle_counts[PROTO_MAX_TYPES];
    for (uint32_t t = 0; t < types; t++) {
        vertex_counts[t] = r.world_info.types[t].vertex_count;
        triangle_counts[t] = r.world_info.types[t].triangle_count;
    }
    for (uint32_t t = 0; t < types; t++) {
        msg = next_record(file, size, &at, &kind, &length);
        assert_non_null(msg);
        assert_int_equal(kind, 2);
        proto_free_response(&r);
        memset(&r, 0, sizeof r);
        if (proto_decode_response(msg, length, NULL, &r, &pe)) fail_msg("hull %u: %s", t, pe.message);
        free(msg);
        assert_int_equal(r.kind, PROTO_BODY_HULL);
        assert_int_equal(r.hull.type, t);
        assert_int_equal(r.hull.vertex_count, vertex_counts[t]);
        assert_int_equal(r.hull.triangle_count, triangle_counts[t]);
    }
    proto_free_response(&r);

    /* the snapshots: from the base tick every want_stride ticks, and the last */
    proto_snapshot s;
    memset(&s, 0, sizeof s);
    uint32_t n = 0;
    uint64_t prev = 0, contacts = 0;
    while ((msg = next_record(file, size, &at, &kind, &length)) != NULL) {
        assert_int_equal(kind, 3);
        if (proto_decode_snapshot(msg, length, NULL, &s, &pe)) fail_msg("snapshot %u: %s", n, pe.message);
        free(msg);
        if (n == 0) assert_int_equal(s.tick, first.tick);
        else assert_true(s.tick > prev);
        if (s.tick != last.tick) assert_int_equal((s.tick - first.tick) % want_stride, 0);
        assert_true(fabs(s.sim_time - first.time - (double)(s.tick - first.tick) / TICK_HZ) < 1e-9);
        assert_int_equal(s.send_time_ns, 0);
        contacts += s.contact_count;
        prev = s.tick;
        n++;
    }
    assert_int_equal(n, snapshots);
    double duration = (double)(last.tick - first.tick) / TICK_HZ;
    assert_true(duration >= 2.0);
    /* one at the start, `rate` a second after it, and the last unless on the stride */
    assert_true(fabs((double)n - (1.0 + duration * rate)) <= 1.0);
    if (want_stride == 1) assert_int_equal(n, last.tick - first.tick + 1);
    assert_int_equal(s.tick, last.tick);
    /* every contact the session began, each in one snapshot */
    int logged = count_lines(rec, " contact ");
    assert_true(logged >= 1);
    assert_int_equal((int)contacts, logged);

    /* the end: the final checkpoint's vessels, to the bit */
    assert_int_equal(s.vessel_count, last.vessel_count);
    for (uint32_t i = 0; i < s.vessel_count; i++) {
        const nv_world_vessel_record* v = &last.vessels[i];
        assert_int_equal(s.vessels[i].id, v->id);
        assert_int_equal(s.vessels[i].type, v->type);
        assert_true(s.vessels[i].position[0] == v->position.x && s.vessels[i].position[1] == v->position.y &&
                    s.vessels[i].position[2] == v->position.z);
        assert_true(s.vessels[i].orientation[3] == (float)v->orientation.w);
    }
    proto_free_snapshot(&s);
    free(file);
    nv_checkpoint_free(&first);
    nv_checkpoint_free(&last);
}

static void test_export_decodes(void** state) {
    (void)state;
    record_session();
    check_export(web, RATE_HZ);
}

/* Every tick: the last tick's snapshot, written at the step, is written
 * again in place with the changes after the step (no tick twice). */
static void test_export_every_tick(void** state) {
    (void)state;
    char every[160];
    snprintf(every, sizeof every, "%s/every.nvreplay", dir);
    check_export(every, TICK_HZ);
}

/* A log that no longer replays: exit 1, and no file left that could pass for the session. */
static void test_diverged_leaves_no_file(void** state) {
    (void)state;
    size_t size = 0;
    char* text = logged_slurp(rec, &size);
    assert_non_null(text);
    /* the last control: no later one overrides it */
    char* line = NULL;
    for (char* p = strstr(text, " control "); p; p = strstr(p + 1, " control ")) line = p;
    assert_non_null(line);
    while (line > text && line[-1] != '\n') line--;
    char* nl = strchr(line, '\n');
    assert_non_null(nl);
    unsigned long long tick;
    unsigned id;
    double thr, rud;
    assert_int_equal(sscanf(line, "%llu control %u %lf %lf", &tick, &id, &thr, &rud), 4);
    char changed[128], tampered[160], file[160];
    snprintf(changed, sizeof changed, "%llu control %u %.17g %.17g", tick, id, thr > 0 ? -1.0 : 1.0, -rud);
    snprintf(tampered, sizeof tampered, "%s/tampered.rec", dir);
    snprintf(file, sizeof file, "%s/tampered.nvreplay", dir);
    FILE* f = fopen(tampered, "wb");
    assert_non_null(f);
    fwrite(text, 1, (size_t)(line - text), f);
    fputs(changed, f);
    fwrite(nl, 1, size - (size_t)(nl - text), f);
    fclose(f);
    free(text);
    assert_int_equal(export_web(tampered, file), 1);
    struct stat st;
    assert_int_not_equal(stat(file, &st), 0);
    assert_true(logged_contains(err_path, "removed: not the recorded session"));
}

static void test_unwritable_path(void** state) {
    (void)state;
    char file[160];
    snprintf(file, sizeof file, "%s/no-such-dir/x.nvreplay", dir);
    assert_int_equal(export_web(rec, file), 2);
    assert_true(logged_contains(err_path, "cannot write"));
    assert_true(logged_contains(err_path, "no-such-dir/x.nvreplay"));
    assert_true(logged_contains(err_path, "No such file or directory"));
}

/* A write that fails midway (a file size limit of three quarters of the
 * whole export's, inherited by naval-replay): a run-time failure, exit 1,
 * named, and no file left. */
static void test_write_fails_midway(void** state) {
    (void)state;
    char file[160];
    snprintf(file, sizeof file, "%s/big.nvreplay", dir);
    struct stat whole;
    assert_int_equal(stat(web, &whole), 0);
    struct rlimit was, small;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
    small = was;
    small.rlim_cur = (rlim_t)whole.st_size * 3 / 4;
    void (*old)(int) = signal(SIGXFSZ, SIG_IGN); /* EFBIG instead of the signal */
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    int rc = export_web(rec, file);
    setrlimit(RLIMIT_FSIZE, &was);
    signal(SIGXFSZ, old);
    assert_int_equal(rc, 1);
    assert_true(logged_contains(err_path, "cannot write"));
    assert_true(logged_contains(err_path, "big.nvreplay"));
    assert_true(logged_contains(err_path, "File too large"));
    struct stat st;
    assert_int_not_equal(stat(file, &st), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_export_decodes),
        cmocka_unit_test(test_export_every_tick),
        cmocka_unit_test(test_diverged_leaves_no_file),
        cmocka_unit_test(test_unwritable_path),
        cmocka_unit_test(test_write_fails_midway),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
