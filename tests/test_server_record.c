// SPDX-License-Identifier: MIT
/* Record and replay: a server with --record runs while one
 * client spawns boats and steers them with changing inputs for two
 * seconds and another spawns a boat and goes away (its boat is reaped as
 * an orphan); SIGTERM stops it. naval-replay on the base checkpoint and
 * the log matches every state hash (at two thread counts); a log with one
 * control value changed makes it exit 1 naming the tick; a checkpoint
 * that is not the log's base is refused with exit 2. Spawns placed in free
 * water (off the island, apart) are logged where they went and replay.
 * Restarts write new numbered files and keep the old; a killed server's
 * log is cut (exit 1, 0 with --accept-cut); a flood under a tiny cap
 * rotates the log, keeps the newest files and they replay in a row. */
#include <dirent.h>
#include <math.h>
#include <sys/stat.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "naval_client.h"
#include "test_server_logged.h"

static char dir[64], rec[128], base[128], final[128], log_path[128], out_path[128], err_path[128];
static server_proc srv;

static int group_setup(void** state) {
    (void)state;
    if (logged_tempdir(dir, sizeof dir, "naval_record")) return -1;
    snprintf(rec, sizeof rec, "%s/session.rec", dir);
    snprintf(base, sizeof base, "%s/session.rec.ckpt", dir);
    snprintf(final, sizeof final, "%s/final.ckpt", dir);
    snprintf(log_path, sizeof log_path, "%s/server.log", dir);
    snprintf(out_path, sizeof out_path, "%s/replay.out", dir);
    snprintf(err_path, sizeof err_path, "%s/replay.err", dir);
    return 0;
}

static int group_teardown(void** state) {
    (void)state;
    if (srv.pid > 0) proc_stop(&srv, SIGKILL, 5.0);
    logged_rmdir(dir);
    return 0;
}

static nvc_client* connect_to(const server_proc* p, int snapshots) {
    nvc_options o;
    nvc_options_default(&o);
    o.snapshot_url = snapshots ? p->snapshot_url : NULL;
    o.command_url = p->command_url;
    o.request_timeout_ms = 3000;
    o.queue_depth = 4;
    nvc_client* c = NULL;
    nv_error e;
    if (nvc_connect(&c, &o, &e)) fail_msg("connect: %s", e.message);
    return c;
}

static int count_lines(const char* path, const char* word) {
    char* text = logged_slurp(path, NULL);
    assert_non_null(text);
    int n = 0;
    for (const char* p = text; (p = strstr(p, word)) != NULL; p++) n++;
    free(text);
    return n;
}

/* naval-replay's exit code; its stdout in out_path, stderr in err_path. */
static int replay(const char* checkpoint, const char* log, const char* threads) {
    const char* argv[] = {NAVAL_REPLAY_PATH, checkpoint, log, "--threads", threads, "--json", NULL};
    return logged_run(argv, out_path, err_path, 30.0);
}

static void test_record_session(void** state) {
    (void)state;
    const char* extra[] = {"--boats", "10", "--threads", "1", "--tick-hz", "60", "--record", rec,
                           "--record-hash-interval", "10", "--orphan-timeout", "0.2", "--checkpoint", final,
                           "--checkpoint-interval", "0", "--log-level", "debug",
                           /* boats on the island: they run aground, contacts to replay */
                           "--spawn-anywhere", NULL};
    if (logged_start(&srv, extra, log_path, 20.0)) fail_msg("naval-server did not start");
    nvc_client* a = connect_to(&srv, 1);
    nvc_client* b = connect_to(&srv, 0);
    nv_error e;
    nvc_vessel boats[2], lone;
    if (nvc_spawn(a, "patrol", 0, 30.0, 20.0, 0.5, &boats[0], &e) ||
        nvc_spawn(a, "skiff", 0, -30.0, 10.0, 2.0, &boats[1], &e) ||
        nvc_spawn(b, "skiff", 0, 0.0, -50.0, 1.0, &lone, &e))
        fail_msg("spawn: %s", e.message);
    if (nvc_control(b, &lone, 0.7f, 0.1f, &e)) fail_msg("control: %s", e.message);
    nvc_close(b); /* its boat is an orphan now, removed after 0.2 s */
    /* Two seconds and at least 120 ticks (a slow machine or a sanitizer
     * build steps slower than the clock). */
    int controls = 1;
    double end = proc_now() + 2.0, give_up = proc_now() + 30.0;
    uint64_t tick = 0;
    for (int i = 0; (proc_now() < end || tick < 120) && proc_now() < give_up; i++) {
        float t = (float)sin(i * 0.37), r = (float)cos(i * 0.23);
        if (nvc_control(a, &boats[i % 2], t, r, &e)) fail_msg("control: %s", e.message);
        controls++;
        proto_stats st;
        if (i % 10 == 0 && nvc_get_stats(a, &st, &e) == 0) tick = st.tick;
        proc_sleep_ms(40);
    }
    if (nvc_despawn(a, &boats[1], &e)) fail_msg("despawn: %s", e.message);
    /* The reaper runs once a second: wait for the orphan to go. */
    double deadline = proc_now() + 4.0;
    while (count_lines(log_path, "orphaned for") == 0 && proc_now() < deadline) proc_sleep_ms(100);
    /* Stop the server before `a` leaves: closed first, a's other boat was
     * an orphan the reaper could remove while a slow (sanitizer) build
     * shuts down, a third despawn in the record. */
    assert_int_equal(logged_stop(&srv, SIGTERM, 10.0, log_path, 0), 0);
    nvc_close(a);

    assert_int_equal(count_lines(rec, " spawn "), 3);
    assert_int_equal(count_lines(rec, " control "), controls);
    assert_int_equal(count_lines(rec, " despawn "), 2); /* the client's and the reaper's */
    assert_true(count_lines(rec, " hash ") >= 12); /* 120 ticks or more, one every 10 */
    assert_int_equal(count_lines(rec, "\nend "), 1);
    assert_true(logged_contains(log_path, "recording to"));

    int rc = replay(base, rec, "2");
    char* out = logged_slurp(out_path, NULL);
    if (rc != 0) {
        char* err = logged_slurp(err_path, NULL);
        fail_msg("naval-replay exited %d: %s %s", rc, out ? out : "", err ? err : "");
    }
    assert_non_null(strstr(out, "\"ok\": true"));
    assert_non_null(strstr(out, "\"spawns\": 3"));
    assert_non_null(strstr(out, "\"despawns\": 2"));
    assert_non_null(strstr(out, "\"clean_end\": true"));
    unsigned matched = 0;
    const char* m = strstr(out, "\"hashes_matched\": ");
    assert_non_null(m);
    sscanf(m, "\"hashes_matched\": %u", &matched);
    assert_int_equal((int)matched, count_lines(rec, " hash "));
    /* Boats spawned on the default world's island run aground: their
     * contacts are logged and the replay makes the same ones. */
    int contacts = count_lines(rec, " contact ");
    assert_true(contacts >= 1);
    m = strstr(out, "\"contacts_matched\": ");
    assert_non_null(m);
    sscanf(m, "\"contacts_matched\": %u", &matched);
    assert_int_equal((int)matched, contacts);
    free(out);
    /* The thread count does not matter. */
    assert_int_equal(replay(base, rec, "1"), 0);
}

/* A contact line changed (its impulse) or dropped: the replay says where. */
static void test_tampered_contact(void** state) {
    (void)state;
    size_t size = 0;
    char* text = logged_slurp(rec, &size);
    assert_non_null(text);
    char* line = strstr(text, " contact ");
    assert_non_null(line);
    while (line > text && line[-1] != '\n') line--;
    char* nl = strchr(line, '\n');
    assert_non_null(nl);
    unsigned long long tick;
    unsigned a, b, structure;
    double closing, impulse;
    assert_int_equal(sscanf(line, "%llu contact %u %u %u %lf %lf", &tick, &a, &b, &structure, &closing, &impulse), 6);
    char changed[200], tampered[160];
    snprintf(changed, sizeof changed, "%llu contact %u %u %u %.17g %.17g", tick, a, b, structure, closing,
             impulse * 1.001);
    snprintf(tampered, sizeof tampered, "%s/contact.rec", dir);
    for (int drop = 0; drop < 2; drop++) {
        FILE* f = fopen(tampered, "wb");
        assert_non_null(f);
        fwrite(text, 1, (size_t)(line - text), f);
        if (!drop) fputs(changed, f);
        fwrite(drop ? nl + 1 : nl, 1, size - (size_t)(nl - text) - (drop ? 1 : 0), f);
        fclose(f);
        assert_int_equal(replay(base, tampered, "1"), 1);
        char* err = logged_slurp(err_path, NULL);
        /* dropped, the next contact of that tick, or the tick's end, shows it */
        if (!strstr(err, "in the replay") && !(drop && strstr(err, "which the log does not have")))
            fail_msg("drop %d: %s", drop, err);
        free(err);
    }
    free(text);
}

/* One control changed: the next hash differs, and says where. */
static void test_tampered_log(void** state) {
    (void)state;
    size_t size = 0;
    char* text = logged_slurp(rec, &size);
    assert_non_null(text);
    /* The tenth control line. */
    char* line = strstr(text, " control ");
    for (int i = 0; line && i < 10; i++) line = strstr(line + 1, " control ");
    assert_non_null(line);
    while (line > text && line[-1] != '\n') line--;
    char* nl = strchr(line, '\n');
    assert_non_null(nl);
    unsigned long long tick;
    unsigned id;
    double thr, rud;
    assert_int_equal(sscanf(line, "%llu control %u %lf %lf", &tick, &id, &thr, &rud), 4);
    char changed[128];
    /* The other way: rate limits absorb a change that keeps the direction
     * the actual throttle and rudder move in until the next control. */
    snprintf(changed, sizeof changed, "%llu control %u %.17g %.17g", tick, id, thr > 0 ? -1.0 : 1.0,
             rud > 0 ? -1.0 : 1.0);
    char tampered[160];
    snprintf(tampered, sizeof tampered, "%s/tampered.rec", dir);
    FILE* f = fopen(tampered, "wb");
    assert_non_null(f);
    fwrite(text, 1, (size_t)(line - text), f);
    fputs(changed, f);
    fwrite(nl, 1, size - (size_t)(nl - text), f);
    fclose(f);
    free(text);
    assert_int_equal(replay(base, tampered, "2"), 1);
    char* err = logged_slurp(err_path, NULL);
    unsigned long long bad = 0;
    const char* at = strstr(err, ": tick ");
    if (!at || sscanf(at, ": tick %llu", &bad) != 1 || !strstr(err, "expected, got"))
        fail_msg("no mismatch named: %s", err);
    assert_true(bad > tick && bad <= tick + 10); /* the first hash after the change */
    free(err);
    char* out = logged_slurp(out_path, NULL);
    assert_non_null(strstr(out, "\"ok\": false"));
    assert_non_null(strstr(out, "\"mismatch_tick\""));
    free(out);

    /* Not the log's base (the shutdown's checkpoint), or not a checkpoint: exit 2. */
    assert_int_equal(replay(final, rec, "1"), 2);
    assert_true(logged_contains(err_path, "not this log's base"));
    assert_int_equal(replay(rec, rec, "1"), 2);
    assert_true(logged_contains(err_path, "session.rec"));
}

/* A restart with the same --record keeps the run before it: each run
 * writes the next numbered file (LOG and LOG.ckpt link to the newest), the
 * earlier one stays as it was and still replays. */
static void test_restart_keeps_previous_log(void** state) {
    (void)state;
    size_t size = 0, kept_size = 0;
    char* before = logged_slurp(rec, &size); /* through the link: run 1's file */
    assert_non_null(before);
    const char* extra[] = {"--boats", "3", "--threads", "1", "--record", rec, NULL};
    for (int run = 2; run <= 3; run++) {
        if (logged_start(&srv, extra, log_path, 20.0)) fail_msg("naval-server did not restart");
        assert_int_equal(logged_stop(&srv, SIGTERM, 10.0, log_path, 0), 0);
    }
    char first[160], first_base[170], third[160], link[200];
    snprintf(first, sizeof first, "%s.000001", rec);
    snprintf(first_base, sizeof first_base, "%s.000001.ckpt", rec);
    snprintf(third, sizeof third, "%s.000003", rec);
    char* kept = logged_slurp(first, &kept_size);
    assert_non_null(kept);
    assert_int_equal(kept_size, size);
    assert_memory_equal(kept, before, size);
    free(kept);
    free(before);
    ssize_t n = readlink(rec, link, sizeof link - 1);
    assert_true(n > 0);
    link[n] = '\0';
    assert_string_equal(link, "session.rec.000003");
    assert_true(logged_contains(log_path, "recording to"));
    assert_int_equal(replay(first_base, first, "1"), 0);
    assert_int_equal(replay(base, rec, "1"), 0); /* the links: run 3 */
    struct stat sb;
    assert_int_equal(stat(third, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600); /* it holds tokens */
    /* Run 3 is a new world, not run 2 going on: refused in a row. */
    char second[160];
    snprintf(second, sizeof second, "%s.000002", rec);
    const char* argv[] = {NAVAL_REPLAY_PATH, first_base, first, second, NULL};
    assert_int_equal(logged_run(argv, out_path, err_path, 30.0), 2);
    assert_true(logged_contains(err_path, "not the log that goes on from it"));
}

/* A session killed with SIGKILL: its log has no end line; naval-replay
 * says so and exits 1, and 0 with --accept-cut. */
static void test_killed_log_is_cut(void** state) {
    (void)state;
    char killed[160], killed_base[170];
    snprintf(killed, sizeof killed, "%s/killed.rec", dir);
    snprintf(killed_base, sizeof killed_base, "%s/killed.rec.ckpt", dir);
    const char* extra[] = {"--boats", "3", "--threads", "1", "--record", killed, "--record-hash-interval", "5", NULL};
    if (logged_start(&srv, extra, log_path, 20.0)) fail_msg("naval-server did not start");
    proc_sleep_ms(1500); /* a flush (every second) with some hashes in it */
    proc_stop(&srv, SIGKILL, 5.0);
    assert_int_equal(count_lines(killed, "\nend "), 0);
    assert_int_equal(replay(killed_base, killed, "1"), 1);
    assert_true(logged_contains(err_path, "ends without its end line"));
    assert_true(logged_contains(out_path, "\"cut\": true"));
    const char* argv[] = {NAVAL_REPLAY_PATH, killed_base, killed, "--threads", "1", "--accept-cut", NULL};
    assert_int_equal(logged_run(argv, out_path, err_path, 30.0), 0);
    assert_true(logged_contains(out_path, "no end line"));
}

/* A flood of controls under a tiny cap: the log goes on in new files, each
 * near the cap, only the newest --record-keep stay (with their bases), and
 * they replay in a row from the oldest kept one's base, each one alone too. */
static void test_capped_log_rotates(void** state) {
    (void)state;
    /* A file ends at the first turn of the loop after it reaches the cap:
     * past it by at most what one turn logged (here a few lines). */
    enum { CAP = 2000, KEEP = 3, SLACK = 1024 };
    char flood[160];
    snprintf(flood, sizeof flood, "%s/flood/f.rec", dir);
    char sub[160];
    snprintf(sub, sizeof sub, "%s/flood", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    const char* extra[] = {"--boats", "2", "--threads", "1", "--record", flood, "--record-max-bytes", "2000",
                           "--record-keep", "3", "--record-hash-interval", "1", "--checkpoint-interval", "1", NULL};
    if (logged_start(&srv, extra, log_path, 20.0)) fail_msg("naval-server did not start");
    nvc_client* a = connect_to(&srv, 0);
    nv_error e;
    nvc_vessel boat;
    if (nvc_spawn(a, "skiff", 0, 40.0, -40.0, 0.5, &boat, &e)) fail_msg("spawn: %s", e.message);
    /* As fast as the rate limit lets one connection (100 a second), until
     * the log has gone on into file KEEP + 2 and a little past (a
     * sanitizer's build answers slower: up to 30 s). */
    char newest[200];
    snprintf(newest, sizeof newest, "%s/f.rec.%06u", sub, (unsigned)KEEP + 2);
    double end = proc_now() + 30.0;
    int past = 0;
    struct stat found;
    for (int i = 0; proc_now() < end && past < 50; i++) {
        if (nvc_control(a, &boat, (float)sin(i * 0.1), (float)cos(i * 0.07), &e)) fail_msg("control: %s", e.message);
        if (past || (i % 10 == 0 && stat(newest, &found) == 0)) past++;
        proc_sleep_ms(12);
    }
    assert_int_equal(logged_stop(&srv, SIGTERM, 10.0, log_path, 0), 0);
    nvc_close(a);
    /* The files there: KEEP logs and their bases, numbered in a row. */
    DIR* d = opendir(sub);
    assert_non_null(d);
    unsigned lo = 0, hi = 0, logs = 0, bases = 0;
    struct dirent* ent;
    while ((ent = readdir(d)) != NULL) {
        unsigned n = 0;
        char tail[32] = "";
        if (sscanf(ent->d_name, "f.rec.%6u%31s", &n, tail) < 1) continue;
        if (!strcmp(tail, ".ckpt")) bases++;
        else if (!tail[0]) logs++;
        else fail_msg("unexpected file %s", ent->d_name);
        if (!lo || n < lo) lo = n;
        if (n > hi) hi = n;
        char path[512];
        snprintf(path, sizeof path, "%s/%.300s", sub, ent->d_name);
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        if (!tail[0] && st.st_size > CAP + SLACK) fail_msg("%s: %lld bytes, cap %d", path, (long long)st.st_size, CAP);
    }
    closedir(d);
    if (hi < KEEP + 2) fail_msg("only %u files: the flood did not rotate the log", hi);
    assert_int_equal(logs, KEEP);
    assert_int_equal(bases, KEEP);
    assert_int_equal(hi - lo + 1, KEEP);
    assert_true(logged_contains(log_path, "removed"));
    /* In a row, from the oldest kept base. */
    char paths[KEEP][180], first_base[190];
    for (unsigned k = 0; k < KEEP; k++) snprintf(paths[k], sizeof paths[k], "%s.%06u", flood, lo + k);
    snprintf(first_base, sizeof first_base, "%s.ckpt", paths[0]);
    const char* argv[] = {NAVAL_REPLAY_PATH, first_base, paths[0], paths[1], paths[2], "--threads", "1", "--json",
                          NULL};
    int rc = logged_run(argv, out_path, err_path, 60.0);
    if (rc != 0) {
        char* err = logged_slurp(err_path, NULL);
        fail_msg("naval-replay of %u..%u in a row exited %d: %s", lo, hi, rc, err ? err : "");
    }
    assert_true(logged_contains(out_path, "\"logs\": 3"));
    assert_true(logged_contains(out_path, "\"clean_end\": true"));
    /* The middle one alone, from its own base: it ends with "next". */
    char mid_base[190];
    snprintf(mid_base, sizeof mid_base, "%s.ckpt", paths[1]);
    assert_int_equal(count_lines(paths[1], "\nnext "), 1);
    assert_int_equal(replay(mid_base, paths[1], "1"), 0);
    /* Out of order: refused. */
    const char* wrong[] = {NAVAL_REPLAY_PATH, first_base, paths[0], paths[2], NULL};
    assert_int_equal(logged_run(wrong, out_path, err_path, 60.0), 2);
}

/* Spawns go to free water (placed off the island, their footprints clear
 * of each other):
 * the log records where they went, and the replay matches. */
static void test_placed_spawns_replay(void** state) {
    (void)state;
    char placed[160], placed_base[170];
    snprintf(placed, sizeof placed, "%s/placed.rec", dir);
    snprintf(placed_base, sizeof placed_base, "%s/placed.rec.ckpt", dir);
    const char* extra[] = {"--boats", "3", "--threads", "1", "--record", placed, "--record-hash-interval", "5",
                           NULL};
    if (logged_start(&srv, extra, log_path, 20.0)) fail_msg("naval-server did not start");
    nvc_client* a = connect_to(&srv, 0);
    nv_error e;
    nvc_vessel boats[2];
    if (nvc_spawn(a, "patrol", 0, -30.0, 10.0, 0.5, &boats[0], &e) ||
        nvc_spawn(a, "patrol", 0, -30.0, 10.0, 0.5, &boats[1], &e))
        fail_msg("spawn: %s", e.message);
    proto_world_info wi = {0};
    if (nvc_get_world_info(a, &wi, &e)) fail_msg("world info: %s", e.message);
    assert_string_equal(wi.types[1].name, "patrol");
    const double length = wi.types[1].bounds_max[0] - wi.types[1].bounds_min[0];
    const double beam = wi.types[1].bounds_max[2] - wi.types[1].bounds_min[2];
    proto_free_world_info(&wi);
    proto_stats st = {0};
    double give_up = proc_now() + 30.0;
    while (st.tick < 40 && proc_now() < give_up) {
        proc_sleep_ms(50);
        if (nvc_get_stats(a, &st, &e)) fail_msg("stats: %s", e.message);
    }
    assert_int_equal(logged_stop(&srv, SIGTERM, 10.0, log_path, 0), 0);
    nvc_close(a);
    char* text = logged_slurp(placed, NULL);
    assert_non_null(text);
    double at[2][2];
    const char* p = text;
    for (int k = 0; k < 2; k++) {
        p = strstr(p, " spawn ");
        assert_non_null(p);
        unsigned id, type;
        /* version 5: the world's spawn, "spawn ID TYPE X Y Z QW QX QY QZ" */
        assert_int_equal(sscanf(p, " spawn %u %u %lf %*f %lf", &id, &type, &at[k][0], &at[k][1]), 4);
        p++;
        /* off the island (radius 140 m about (-60, 0)) */
        if (!(hypot(at[k][0] + 60.0, at[k][1]) > 140.0)) fail_msg("spawn %d at (%g, %g)", k, at[k][0], at[k][1]);
    }
    free(text);
    /* their footprints (heading 0.5: the bow along (cos, -sin)) clear by
     * the 2 m spawn clearance along the bow or across it */
    double dx = at[1][0] - at[0][0], dz = at[1][1] - at[0][1];
    double along = fabs(dx * cos(0.5) - dz * sin(0.5)), across = fabs(dx * sin(0.5) + dz * cos(0.5));
    if (!(along >= length + 2.0 - 1e-6 || across >= beam + 2.0 - 1e-6))
        fail_msg("the second patrol boat is %.2f m along and %.2f m across the first (length %.1f, beam %.1f)", along,
                 across, length, beam);
    int rc = replay(placed_base, placed, "2");
    if (rc != 0) {
        char* err = logged_slurp(err_path, NULL);
        fail_msg("naval-replay exited %d: %s", rc, err ? err : "");
    }
    char* out = logged_slurp(out_path, NULL);
    assert_non_null(strstr(out, "\"ok\": true"));
    assert_non_null(strstr(out, "\"spawns\": 2"));
    free(out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_session),
        cmocka_unit_test(test_tampered_log),
        cmocka_unit_test(test_tampered_contact),
        cmocka_unit_test(test_restart_keeps_previous_log),
        cmocka_unit_test(test_placed_spawns_replay),
        cmocka_unit_test(test_killed_log_is_cut),
        cmocka_unit_test(test_capped_log_rotates),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
