// SPDX-License-Identifier: MIT
/* World checkpoints: a restored world has the same state hash and the same
 * future; every corrupt or truncated file is refused with a message that
 * names what is wrong; a failed write leaves the old file as it was; a
 * writer killed at any step leaves the newest whole checkpoint where a
 * restart finds it, and never a broken file over a good FILE.prev. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "naval/checkpoint.h"
#include "naval/jobs.h"
#include "naval/scenario.h"
#include "test_util.h"

/* An FFT sea, three vessel types with actuators and slamming memory (one
 * with its rudder in a propeller's race, which only the propeller's
 * diameter gives), one bare hull type (pure hydrostatics), vessels under
 * way with controls. */
static const char scenario_sea[] =
    "{\"tick_hz\": 30,"
    " \"ocean\": {\"spectrum\": \"jonswap\", \"wind\": 11, \"size\": 160, \"resolution\": 32, \"cascades\": 1,"
    "             \"seed\": 5, \"hs\": 1.2, \"tp\": 6.5},"
    " \"hull_types\": [{\"name\": \"barge\", \"hull\": \"builtin:barge:120\", \"mass\": 40000}],"
    " \"vessel_types\": [\"builtin:skiff\", \"builtin:patrol\","
    "                    {\"name\": \"launch\", \"hull\": \"builtin:patrol\", \"mass\": 80000, \"cg\": [-2.3, 1.1, 0],"
    "                     \"propellers\": [{\"position\": [-12.2, 0.4, 0], \"max_thrust\": 30000, \"diameter\": 0.8}],"
    "                     \"rudders\": [{\"position\": [-12.6, 0.5, 0], \"area\": 0.6}]}],"
    " \"vessels\": [{\"type\": \"patrol\", \"position\": [0, 0], \"heading_deg\": 20, \"velocity\": [3, 0, -1],"
    "                \"controls\": {\"throttle\": 1, \"rudder\": 0.6}},"
    "               {\"type\": \"skiff\", \"position\": [40, 10], \"heading_deg\": 200,"
    "                \"controls\": {\"throttle\": 0.8, \"rudder\": -1}},"
    "               {\"type\": \"barge\", \"position\": [-30, 25], \"velocity\": [0, 0, 1]},"
    "               {\"type\": \"launch\", \"position\": [-40, -60], \"heading_deg\": 90,"
    "                \"controls\": {\"throttle\": 1, \"rudder\": 1}}],"
    " \"fleets\": [{\"type\": \"skiff\", \"count\": 4, \"spacing\": 25, \"origin\": [0, 80], \"speed\": 4, \"seed\": 2,"
    "              \"controls\": {\"throttle\": 0.5, \"rudder\": 0.2}}]}";

/* Flat water, a cube and one skiff: a checkpoint of a couple of KB. */
static const char scenario_small[] =
    "{\"hull_types\": [{\"name\": \"box\", \"hull\": \"builtin:cube\", \"density\": 500}],"
    " \"vessel_types\": [\"builtin:skiff\"],"
    " \"vessels\": [{\"type\": \"box\", \"position\": [0, 0]},"
    "               {\"type\": \"skiff\", \"position\": [10, 0], \"controls\": {\"throttle\": 1, \"rudder\": 0.5}}]}";

typedef struct ckp_world {
    nv_scenario scn;
    nv_scenario_instance inst;
} ckp_world;

static void ckp_world_make(ckp_world* t, const char* json, nv_jobs* pool) {
    nv_error err;
    ASSERT_OK(nv_scenario_parse(json, strlen(json), "test", NULL, &t->scn, &err), err);
    ASSERT_OK(nv_scenario_instantiate(&t->scn, pool, &t->inst, &err), err);
}

static void ckp_world_free(ckp_world* t) {
    nv_scenario_instance_destroy(&t->inst);
    nv_scenario_free(&t->scn);
}

static nv_checkpoint_source ckp_source_of(const ckp_world* t, const void* blob, size_t blob_size) {
    nv_checkpoint_source src = {.world = t->inst.world,
                             .ocean = t->inst.ocean,
                             .hulls = t->scn.hulls,
                             .hull_count = t->scn.hull_count,
                             .terrain = &t->scn.terrain,
                             .structures = t->scn.structures,
                             .owner_blob = blob,
                             .owner_size = blob_size};
    return src;
}

static void ckp_encode_or_fail(const nv_checkpoint_source* src, uint8_t** data, size_t* size) {
    nv_error err;
    ASSERT_OK(nv_checkpoint_encode(src, data, size, &err), err);
}

/* Fails unless every vessel of a matches b's, field by field, bit for bit. */
static void ckp_assert_same_vessels(const nv_world* a, const nv_world* b) {
    assert_int_equal(nv_world_vessel_count(a), nv_world_vessel_count(b));
    assert_int_equal(nv_world_next_id(a), nv_world_next_id(b));
    for (uint32_t s = 0; s < nv_world_vessel_count(a); s++) {
        nv_world_vessel_record ra, rb;
        assert_int_equal(nv_world_export_vessel(a, s, &ra), 0);
        assert_int_equal(nv_world_export_vessel(b, s, &rb), 0);
        assert_int_equal(ra.slam_count, rb.slam_count);
        if (ra.slam_count) assert_memory_equal(ra.slam, rb.slam, ra.slam_count * sizeof(uint16_t));
        ra.slam = rb.slam = NULL;
        assert_int_equal(ra.flood == NULL, rb.flood == NULL);
        if (ra.flood) assert_memory_equal(ra.flood, rb.flood, sizeof *ra.flood);
        ra.flood = rb.flood = NULL;
        assert_memory_equal(&ra, &rb, sizeof ra);
    }
}

static void round_trip_keeps_hash_and_future(void** state) {
    (void)state;
    nv_error err;
    ckp_world a;
    ckp_world_make(&a, scenario_sea, NULL);
    nv_world* w = a.inst.world;
    for (int i = 0; i < 20; i++) nv_world_step(w);
    /* Slots no longer follow ids, and the id counter is past every id. */
    ASSERT_OK(nv_world_despawn(w, 0, &err), err);
    ASSERT_OK(nv_world_despawn(w, 4, &err), err);
    uint32_t id;
    nv_world_vessel_state first;
    assert_int_equal(nv_world_vessel_get(w, 1, &first), 0);
    ASSERT_OK(nv_world_spawn(w, 1, v3(-60, first.position.y, -40), quat_identity(), &id, &err), err);
    ASSERT_OK(nv_world_despawn(w, id, &err), err); /* the highest id is gone, the counter stays */
    ASSERT_OK(nv_world_spawn(w, 1, v3(-60, first.position.y, -40), quat_identity(), &id, &err), err);
    ASSERT_OK(nv_world_set_controls(w, id, -0.7, 0.3, &err), err);
    ASSERT_OK(nv_world_set_player(w, 2, 1, &err), err);
    ASSERT_OK(nv_world_set_vessel_model(w, 3, WORLD_MODEL_FLOATER, &err), err);
    for (int i = 0; i < 10; i++) nv_world_step(w);
    uint32_t next = nv_world_next_id(w);
    assert_true(next > id + 0u);

    const uint8_t blob[] = {0xde, 0xad, 0x00, 0xbe, 0xef};
    nv_checkpoint_source src = ckp_source_of(&a, blob, sizeof blob);
    uint8_t* data;
    size_t size;
    ckp_encode_or_fail(&src, &data, &size);
    nv_checkpoint c;
    ASSERT_OK(nv_checkpoint_decode(data, size, "mem", &c, &err), err);
    free(data);
    assert_int_equal(c.owner_size, sizeof blob);
    assert_memory_equal(c.owner_blob, blob, sizeof blob);
    assert_int_equal(c.tick, nv_world_tick(w));

    /* Restored on two threads: the pipeline is the same for any count. */
    nv_jobs* pool;
    ASSERT_OK(nv_jobs_create(&pool, 2, &err), err);
    nv_scenario_instance b;
    ASSERT_OK(nv_checkpoint_restore(&c, pool, &b, &err), err);
    nv_checkpoint_free(&c);
    assert_int_equal(nv_world_state_hash(b.world), nv_world_state_hash(w));
    assert_int_equal(nv_world_tick(b.world), nv_world_tick(w));
    assert_true(nv_world_time(b.world) == nv_world_time(w));
    ckp_assert_same_vessels(w, b.world);
    nv_world_vessel_state va, vb;
    assert_int_equal(nv_world_vessel_get(b.world, 3, &vb), 0);
    assert_int_equal(vb.model, WORLD_MODEL_FLOATER);
    assert_int_equal(nv_world_vessel_get(b.world, 2, &vb), 0);
    assert_true(vb.flags & WORLD_VESSEL_PLAYER);

    for (int i = 0; i < 100; i++) {
        nv_world_step(w);
        nv_world_step(b.world);
        if (nv_world_state_hash(w) != nv_world_state_hash(b.world))
            fail_msg("step %d after the restore: hashes %016llx and %016llx differ", i + 1,
                     (unsigned long long)nv_world_state_hash(w), (unsigned long long)nv_world_state_hash(b.world));
    }
    ckp_assert_same_vessels(w, b.world);
    /* Commanded controls survived (the hash covers only the actual ones). */
    assert_int_equal(nv_world_vessel_get(w, id, &va), 0);
    assert_int_equal(nv_world_vessel_get(b.world, id, &vb), 0);
    assert_true(va.throttle == vb.throttle && va.rudder == vb.rudder);
    /* Ids are never reused, in the restored world too. */
    uint32_t id_a, id_b;
    ASSERT_OK(nv_world_spawn(w, 0, v3(0, 0, 200), quat_identity(), &id_a, &err), err);
    ASSERT_OK(nv_world_spawn(b.world, 0, v3(0, 0, 200), quat_identity(), &id_b, &err), err);
    assert_int_equal(id_a, next);
    assert_int_equal(id_b, next);

    nv_scenario_instance_destroy(&b);
    nv_jobs_destroy(pool);
    ckp_world_free(&a);
}

/* A hull type's column grid travels with it: a vessel on columns comes
 * back on columns and steps on as it would have. */
static void columns_survive_a_restore(void** state) {
    (void)state;
    nv_error err;
    ckp_world a;
    ASSERT_OK(nv_scenario_parse(scenario_small, strlen(scenario_small), "test", NULL, &a.scn, &err), err);
    a.scn.hulls[1].columns_nx = 8;
    a.scn.hulls[1].columns_nz = 4;
    ASSERT_OK(nv_scenario_instantiate(&a.scn, NULL, &a.inst, &err), err);
    nv_world* w = a.inst.world;
    ASSERT_OK(nv_world_set_vessel_model(w, 1, WORLD_MODEL_COLUMNS, &err), err);
    for (int i = 0; i < 10; i++) nv_world_step(w);
    nv_checkpoint_source src = ckp_source_of(&a, NULL, 0);
    uint8_t* data;
    size_t size;
    ckp_encode_or_fail(&src, &data, &size);
    nv_checkpoint c;
    ASSERT_OK(nv_checkpoint_decode(data, size, "mem", &c, &err), err);
    assert_int_equal(c.hulls[1].columns_nx, 8);
    assert_int_equal(c.hulls[1].columns_nz, 4);
    assert_int_equal(c.hulls[0].columns_nx, 0);
    nv_scenario_instance b;
    ASSERT_OK(nv_checkpoint_restore(&c, NULL, &b, &err), err);
    nv_world_vessel_state vb;
    assert_int_equal(nv_world_vessel_get(b.world, 1, &vb), 0);
    assert_int_equal(vb.model, WORLD_MODEL_COLUMNS);
    for (int i = 0; i < 30; i++) {
        nv_world_step(w);
        nv_world_step(b.world);
    }
    assert_int_equal(nv_world_state_hash(b.world), nv_world_state_hash(w));
    nv_checkpoint_free(&c);
    free(data);
    /* a grid with one axis 0 is refused, named */
    a.scn.hulls[1].columns_nz = 0;
    ckp_encode_or_fail(&src, &data, &size);
    assert_int_equal(nv_checkpoint_decode(data, size, "mem", &c, &err), -1);
    assert_non_null(strstr(err.message, "columns 8 x 0"));
    free(data);
    nv_scenario_instance_destroy(&b);
    ckp_world_free(&a);
}

/* A type's rated Beaufort number travels with it (the server's autopilot
 * keeps its boats inside it after a restore, whatever the type's name). */
static void ratings_survive_a_restore(void** state) {
    (void)state;
    nv_error err;
    ckp_world a;
    ASSERT_OK(nv_scenario_parse(scenario_small, strlen(scenario_small), "test", NULL, &a.scn, &err), err);
    nv_vessel_type skiff;
    ASSERT_OK(nv_vessel_type_builtin("skiff", &skiff, &err), err);
    assert_false(a.scn.hulls[0].has_rating); /* the box: a hull type, unrated */
    assert_true(a.scn.hulls[1].has_rating);
    assert_int_equal(a.scn.hulls[1].rated_beaufort, skiff.rated_beaufort);
    a.scn.hulls[1].has_rating = false;
    a.scn.hulls[1].rated_beaufort = 0;
    a.scn.hulls[0].has_rating = true;
    a.scn.hulls[0].rated_beaufort = 9;
    ASSERT_OK(nv_scenario_instantiate(&a.scn, NULL, &a.inst, &err), err);
    nv_checkpoint_source src = ckp_source_of(&a, NULL, 0);
    uint8_t* data;
    size_t size;
    ckp_encode_or_fail(&src, &data, &size);
    nv_checkpoint c;
    ASSERT_OK(nv_checkpoint_decode(data, size, "mem", &c, &err), err);
    assert_true(c.hulls[0].has_rating);
    assert_int_equal(c.hulls[0].rated_beaufort, 9);
    assert_false(c.hulls[1].has_rating);
    nv_checkpoint_free(&c);
    free(data);
    /* past Beaufort 12 is refused, named */
    a.scn.hulls[0].rated_beaufort = 13;
    ckp_encode_or_fail(&src, &data, &size);
    assert_int_equal(nv_checkpoint_decode(data, size, "mem", &c, &err), -1);
    assert_non_null(strstr(err.message, "rated Beaufort number 13"));
    free(data);
    ckp_world_free(&a);
}

/* ---- files in a scratch directory -------------------------------------- */

typedef struct ckp_dir {
    char path[256];
} ckp_dir;

static void ckp_dir_make(ckp_dir* d) {
    const char* base = getenv("TMPDIR");
    snprintf(d->path, sizeof d->path, "%s/test_checkpoint.XXXXXX", base && base[0] ? base : "/tmp");
    assert_non_null(mkdtemp(d->path));
}

static void ckp_remove_tree(const char* path) {
    DIR* dir = opendir(path);
    if (dir) {
        struct dirent* e;
        while ((e = readdir(dir))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char child[1024];
            snprintf(child, sizeof child, "%s/%s", path, e->d_name);
            ckp_remove_tree(child);
        }
        closedir(dir);
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* Entries of the directory whose name holds ".tmp." (left-over temporaries). */
static int ckp_count_temporaries(const char* path) {
    DIR* dir = opendir(path);
    assert_non_null(dir);
    int n = 0;
    struct dirent* e;
    while ((e = readdir(dir)))
        if (strstr(e->d_name, ".tmp.")) n++;
    closedir(dir);
    return n;
}

static uint8_t* ckp_slurp(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s: %s", path, strerror(errno));
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t* data = malloc((size_t)n + 1);
    assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return data;
}

static void ckp_spit(const char* path, const uint8_t* data, size_t size) {
    FILE* f = fopen(path, "wb");
    if (!f) fail_msg("cannot create %s: %s", path, strerror(errno));
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
}

static void ckp_assert_message(const nv_error* err, const char* part) {
    if (!strstr(err->message, part)) fail_msg("message \"%s\" does not say \"%s\"", err->message, part);
}

static void file_round_trip_and_previous(void** state) {
    (void)state;
    nv_error err, refused;
    ckp_dir d;
    ckp_dir_make(&d);
    char path[400], prev[512];
    snprintf(path, sizeof path, "%s/world.ckpt", d.path);
    snprintf(prev, sizeof prev, "%s.prev", path);
    ckp_world a;
    ckp_world_make(&a, scenario_small, NULL);
    nv_checkpoint_source src = ckp_source_of(&a, "token", 5);
    ASSERT_OK(nv_checkpoint_write_file(path, &src, &err), err);
    uint64_t first_hash = nv_world_state_hash(a.inst.world);
    for (int i = 0; i < 5; i++) nv_world_step(a.inst.world);
    ASSERT_OK(nv_checkpoint_write_file(path, &src, &err), err);
    assert_int_equal(ckp_count_temporaries(d.path), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0077, 0); /* it holds owners' tokens: not for other users */

    nv_checkpoint c;
    ASSERT_OK(nv_checkpoint_read_file(path, &c, &err), err);
    assert_int_equal(c.tick, 5);
    nv_scenario_instance b;
    ASSERT_OK(nv_checkpoint_restore(&c, NULL, &b, &err), err);
    assert_int_equal(nv_world_state_hash(b.world), nv_world_state_hash(a.inst.world));
    nv_scenario_instance_destroy(&b);
    nv_checkpoint_free(&c);
    ASSERT_OK(nv_checkpoint_read_file(prev, &c, &err), err);
    assert_int_equal(c.state_hash, first_hash);
    nv_checkpoint_free(&c);

    /* The newest is damaged: the previous one is used, and why is said. */
    size_t size;
    uint8_t* bytes = ckp_slurp(path, &size);
    bytes[size / 2] ^= 0x10;
    ckp_spit(path, bytes, size);
    int used = -1;
    ASSERT_OK(nv_checkpoint_read_newest(path, &c, &used, &refused, &err), err);
    assert_int_equal(used, 1);
    assert_int_equal(c.tick, 0);
    ckp_assert_message(&refused, "checksum mismatch");
    nv_checkpoint_free(&c);
    /* Both damaged: refused, with both reasons. */
    ckp_spit(prev, bytes, size / 3);
    assert_int_equal(nv_checkpoint_read_newest(path, &c, &used, &refused, &err), -1);
    ckp_assert_message(&err, "checksum mismatch");
    ckp_assert_message(&err, "truncated at byte");
    /* Neither there. */
    unlink(path);
    unlink(prev);
    assert_int_equal(nv_checkpoint_read_newest(path, &c, &used, &refused, &err), -1);
    ckp_assert_message(&err, "cannot open");
    free(bytes);
    ckp_world_free(&a);
    ckp_remove_tree(d.path);
}

/* ---- hostile and damaged bytes ----------------------------------------- */

static void every_corruption_and_truncation_is_refused(void** state) {
    (void)state;
    nv_error err;
    ckp_world a;
    ckp_world_make(&a, scenario_small, NULL);
    for (int i = 0; i < 3; i++) nv_world_step(a.inst.world);
    nv_checkpoint_source src = ckp_source_of(&a, "owner", 5);
    uint8_t* good;
    size_t size;
    ckp_encode_or_fail(&src, &good, &size);
    assert_true(size < 4096);
    nv_checkpoint c;
    ASSERT_OK(nv_checkpoint_decode(good, size, "small", &c, &err), err);
    nv_checkpoint_free(&c);

    uint8_t* bad = malloc(size);
    const uint8_t flips[] = {0x01, 0x80, 0xff};
    for (size_t i = 0; i < size; i++)
        for (size_t f = 0; f < sizeof flips; f++) {
            memcpy(bad, good, size);
            bad[i] ^= flips[f];
            err.message[0] = '\0';
            if (nv_checkpoint_decode(bad, size, "small", &c, &err) == 0)
                fail_msg("byte %zu ^ %#x was accepted", i, flips[f]);
            const char* want = i < 8 ? "bad magic" : (i < 32 ? "header checksum mismatch" : "checksum mismatch");
            if (strncmp(err.message, "small: ", 7) || !strstr(err.message, want))
                fail_msg("byte %zu ^ %#x: \"%s\" (wanted \"%s\")", i, flips[f], err.message, want);
            assert_null(c.vessels); /* nothing left behind */
        }
    for (size_t n = 0; n < size; n++) {
        char want[64];
        snprintf(want, sizeof want, "truncated at byte %zu", n);
        if (nv_checkpoint_decode(good, n, "small", &c, &err) == 0) fail_msg("a cut at byte %zu was accepted", n);
        if (!strstr(err.message, want)) fail_msg("cut at %zu: \"%s\"", n, err.message);
    }
    free(bad);
    free(good);
    ckp_world_free(&a);
}

/* A file damaged after its checksums were computed again: the section
 * checks must still name the problem. */
static void ckp_fix_checksums(uint8_t* d, size_t size) {
    uint32_t h = nv_checkpoint_crc32(0, d, 28);
    for (int i = 0; i < 4; i++) d[28 + i] = (uint8_t)(h >> (8 * i));
    uint32_t t = nv_checkpoint_crc32(0, d, size - 4); /* over the new header checksum too */
    for (int i = 0; i < 4; i++) d[size - 4 + i] = (uint8_t)(t >> (8 * i));
}

static size_t ckp_find(const uint8_t* d, size_t size, const char* tag) {
    for (size_t i = 32; i + 4 <= size; i++)
        if (!memcmp(d + i, tag, 4)) return i;
    fail_msg("no section %s", tag);
    return 0;
}

static void ckp_expect_refusal(uint8_t* d, size_t size, const char* part) {
    nv_error err;
    nv_checkpoint c;
    ckp_fix_checksums(d, size);
    if (nv_checkpoint_decode(d, size, "crafted", &c, &err) == 0) fail_msg("accepted; wanted \"%s\"", part);
    ckp_assert_message(&err, part);
}

static void consistent_but_wrong_files_are_refused(void** state) {
    (void)state;
    ckp_world a;
    ckp_world_make(&a, scenario_small, NULL);
    nv_checkpoint_source src = ckp_source_of(&a, NULL, 0);
    uint8_t* good;
    size_t size;
    ckp_encode_or_fail(&src, &good, &size);
    uint8_t* d = malloc(size + 8);

    memcpy(d, good, size);
    d[8] = (uint8_t)(CHECKPOINT_VERSION + 1); /* a future version */
    char want[80];
    snprintf(want, sizeof want, "format version %u, this build reads version %u", CHECKPOINT_VERSION + 1,
             CHECKPOINT_VERSION);
    ckp_expect_refusal(d, size, want);
    d[8] = 1; /* version 1 kept slamming memory as floats */
    snprintf(want, sizeof want, "format version 1, this build reads version %u", CHECKPOINT_VERSION);
    ckp_expect_refusal(d, size, want);

    memcpy(d, good, size);
    size_t vs = ckp_find(d, size, "VSLS");
    d[vs + 16] = 3; /* three vessels listed, two in the world section */
    ckp_expect_refusal(d, size, "section 'VSLS' lists 3 vessels");

    memcpy(d, good, size);
    d[vs + 16 + 4 + 12] = 7; /* the first vessel's model */
    ckp_expect_refusal(d, size, "unknown model 7");

    memcpy(d, good, size);
    memcpy(d + ckp_find(d, size, "OCEN"), "OCEX", 4);
    ckp_expect_refusal(d, size, "expected section 'OCEN'");

    memcpy(d, good, size);
    size_t ts = ckp_find(d, size, "TYPS");
    d[ts + 8] += 1; /* the type section claims a byte more than it has */
    ckp_expect_refusal(d, size, "section 'TYPS'");

    memcpy(d, good, size);
    d[ts + 16 + 4 + 2] = 0; /* a NUL inside the first type's name */
    ckp_expect_refusal(d, size, "holds a NUL byte");

    /* A byte too many: the header's size no longer matches the file's. */
    memcpy(d, good, size);
    d[size] = 0;
    nv_error err;
    nv_checkpoint c;
    assert_int_equal(nv_checkpoint_decode(d, size + 1, "long", &c, &err), -1);
    ckp_assert_message(&err, "1 bytes after the end the header declares");

    free(d);
    free(good);
    ckp_world_free(&a);
}

static void restore_refuses_a_different_world(void** state) {
    (void)state;
    nv_error err;
    ckp_world a;
    ckp_world_make(&a, scenario_small, NULL);
    nv_checkpoint_source src = ckp_source_of(&a, NULL, 0);
    uint8_t* data;
    size_t size;
    ckp_encode_or_fail(&src, &data, &size);
    nv_checkpoint c;
    ASSERT_OK(nv_checkpoint_decode(data, size, "mem", &c, &err), err);
    nv_scenario_instance b;
    /* The hull's source now builds another hull (a mesh file that changed). */
    char saved[SCENARIO_PATH_MAX];
    snprintf(saved, sizeof saved, "%s", c.hulls[0].source);
    snprintf(c.hulls[0].source, sizeof c.hulls[0].source, "builtin:barge");
    assert_int_equal(nv_checkpoint_restore(&c, NULL, &b, &err), -1);
    ckp_assert_message(&err, "hull type 'box' from builtin:barge is not the hull the checkpoint was taken with");
    assert_null(b.world);
    snprintf(c.hulls[0].source, sizeof c.hulls[0].source, "%s", saved);
    /* A state the hash does not vouch for. */
    c.vessels[1].position.x += 1e-9;
    assert_int_equal(nv_checkpoint_restore(&c, NULL, &b, &err), -1);
    ckp_assert_message(&err, "state hash");
    c.vessels[1].position.x -= 1e-9;
    uint32_t id1 = c.vessels[1].id;
    c.vessels[1].id = c.vessels[0].id; /* two vessels, one id */
    assert_int_equal(nv_checkpoint_restore(&c, NULL, &b, &err), -1);
    ckp_assert_message(&err, "is in use already");
    c.vessels[1].id = id1;
    /* Slamming memory the world never writes (an infinite half): the
     * kernel builds would read it differently. */
    assert_true(c.vessels[1].slam_count > 0);
    uint16_t* slam = (uint16_t*)c.vessels[1].slam;
    uint16_t kept = slam[0];
    slam[0] = 0x7c00;
    assert_int_equal(nv_checkpoint_restore(&c, NULL, &b, &err), -1);
    ckp_assert_message(&err, "is 0x7c00, not a value the world writes");
    slam[0] = kept;
    nv_checkpoint_free(&c);
    free(data);
    ckp_world_free(&a);
}

static void failed_write_keeps_the_old_file(void** state) {
    (void)state;
    nv_error err;
    ckp_dir d;
    ckp_dir_make(&d);
    ckp_world a;
    ckp_world_make(&a, scenario_small, NULL);
    nv_checkpoint_source src = ckp_source_of(&a, NULL, 0);
    char path[600], blocker[640];
    snprintf(path, sizeof path, "%s/world.ckpt", d.path);
    ASSERT_OK(nv_checkpoint_write_file(path, &src, &err), err);
    size_t old_size;
    uint8_t* old = ckp_slurp(path, &old_size);
    nv_world_step(a.inst.world);

    /* The new file is written, but cannot take the old one's place: a
     * directory stands where the previous file would go. */
    snprintf(blocker, sizeof blocker, "%s.prev", path);
    assert_int_equal(mkdir(blocker, 0700), 0);
    char inside[700];
    snprintf(inside, sizeof inside, "%s/keep", blocker);
    ckp_spit(inside, (const uint8_t*)"x", 1);
    assert_int_equal(nv_checkpoint_write_file(path, &src, &err), -1);
    ckp_assert_message(&err, "cannot move");
    size_t now_size;
    uint8_t* now = ckp_slurp(path, &now_size);
    assert_int_equal(now_size, old_size);
    assert_memory_equal(now, old, old_size);
    free(now);
    assert_int_equal(ckp_count_temporaries(d.path), 0);
    ckp_remove_tree(blocker);

    /* The temporary file cannot be created: its name is too long for the
     * file system while the checkpoint's own name is not. */
    char longname[600];
    memset(longname, 'n', 250);
    longname[250] = '\0';
    char longpath[900];
    snprintf(longpath, sizeof longpath, "%s/%s", d.path, longname);
    ckp_spit(longpath, old, old_size);
    assert_int_equal(nv_checkpoint_write_file(longpath, &src, &err), -1);
    ckp_assert_message(&err, "cannot create a temporary file");
    now = ckp_slurp(longpath, &now_size);
    assert_int_equal(now_size, old_size);
    assert_memory_equal(now, old, old_size);
    free(now);

    /* Without the right to write the directory (not for root, who has it). */
    if (geteuid() != 0) {
        assert_int_equal(chmod(d.path, 0500), 0);
        assert_int_equal(nv_checkpoint_write_file(path, &src, &err), -1);
        ckp_assert_message(&err, "cannot create a temporary file");
        assert_int_equal(chmod(d.path, 0700), 0);
        now = ckp_slurp(path, &now_size);
        assert_memory_equal(now, old, old_size);
        free(now);
    }
    assert_int_equal(ckp_count_temporaries(d.path), 0);

    /* A missing directory is named. */
    char nowhere[700];
    snprintf(nowhere, sizeof nowhere, "%s/missing/world.ckpt", d.path);
    assert_int_equal(nv_checkpoint_write_file(nowhere, &src, &err), -1);
    ckp_assert_message(&err, "No such file or directory");

    free(old);
    ckp_world_free(&a);
    ckp_remove_tree(d.path);
}

/* ---- kill -9 at every step of the writer -------------------------------- */

static nv_checkpoint_step ckp_crash_step;

/* The writer's step hook in a child: ends the process there, as a kill
 * would, with nothing flushed or undone. */
static void ckp_crash_here(const char* path, nv_checkpoint_step step) {
    (void)path;
    if (step == ckp_crash_step) _exit(0);
}

/* Writes `src` to path in a child stopped after `step`: 0, or 3 when the
 * write never came to that step (and finished). */
static int ckp_write_and_crash(const char* path, const nv_checkpoint_source* src, nv_checkpoint_step step) {
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        nv_error err;
        ckp_crash_step = step;
        nv_checkpoint_set_step_hook(ckp_crash_here);
        nv_checkpoint_write_file(path, src, &err);
        _exit(3); /* the hook did not fire */
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_true(WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3);
    return WEXITSTATUS(status);
}

static uint64_t ckp_tick_of(const char* path) {
    nv_checkpoint c;
    nv_error err;
    ASSERT_OK(nv_checkpoint_read_file(path, &c, &err), err);
    uint64_t tick = c.tick;
    nv_checkpoint_free(&c);
    return tick;
}

/* For each step of the writer and two starting points (path and path.prev
 * both good; path truncated, as after a restore that fell back to
 * path.prev): a kill there, then a restart, finds the newest whole
 * checkpoint, leaves no temporary file, and keeps a whole path.prev; the
 * next write after it never puts a broken file at path.prev. */
static void a_kill_at_any_step_keeps_the_newest(void** state) {
    (void)state;
    for (int truncated = 0; truncated <= 1; truncated++)
        for (int k = 0; k < CHECKPOINT_STEP_COUNT; k++) {
            nv_error err;
            ckp_dir d;
            ckp_dir_make(&d);
            char path[400], prev[512];
            snprintf(path, sizeof path, "%s/world.ckpt", d.path);
            snprintf(prev, sizeof prev, "%s.prev", path);
            ckp_world a;
            ckp_world_make(&a, scenario_small, NULL);
            nv_checkpoint_source src = ckp_source_of(&a, "token", 5);
            ASSERT_OK(nv_checkpoint_write_file(path, &src, &err), err); /* tick 0 */
            for (int i = 0; i < 5; i++) nv_world_step(a.inst.world);
            ASSERT_OK(nv_checkpoint_write_file(path, &src, &err), err); /* tick 5; tick 0 is path.prev */
            uint64_t before = 5;
            if (truncated) {
                assert_int_equal(truncate(path, 100), 0);
                before = 0;
            }
            for (int i = 0; i < 5; i++) nv_world_step(a.inst.world);
            int finished = ckp_write_and_crash(path, &src, (nv_checkpoint_step)k); /* tick 10 */
            /* Only a whole old file moves to path.prev: a truncated one is
             * replaced where it is, with no step between. */
            assert_int_equal(finished, truncated && k == CHECKPOINT_STEP_OLD_MOVED ? 3 : 0);
            /* Once all its bytes are written the new file is whole (a kill
             * loses no page cache); half written, it is nothing. */
            uint64_t want = k >= CHECKPOINT_STEP_TEMP_WRITTEN ? 10 : before;
            nv_checkpoint c;
            nv_checkpoint_recovery info;
            if (nv_checkpoint_recover(path, &c, &info, &err))
                fail_msg("step %d, truncated %d: no checkpoint after the kill: %s", k, truncated, err.message);
            if (c.tick != want)
                fail_msg("step %d, truncated %d: restored tick %llu from %s, want %llu", k, truncated,
                         (unsigned long long)c.tick, info.file, (unsigned long long)want);
            assert_string_equal(info.tidy.message, "");
            nv_checkpoint_free(&c);
            assert_int_equal(ckp_count_temporaries(d.path), 0);
            /* What the restart found is where the next restart finds it. */
            int used = -1;
            ASSERT_OK(nv_checkpoint_read_newest(path, &c, &used, NULL, &err), err);
            assert_int_equal(c.tick, want);
            nv_checkpoint_free(&c);
            assert_int_not_equal(used, CHECKPOINT_USED_TEMPORARY);
            assert_true(ckp_tick_of(prev) <= want); /* path.prev is whole */
            /* The server goes on and writes again: path.prev is still whole. */
            for (int i = 0; i < 5; i++) nv_world_step(a.inst.world);
            ASSERT_OK(nv_checkpoint_write_file(path, &src, &err), err);
            assert_int_equal(ckp_tick_of(path), 15);
            assert_true(ckp_tick_of(prev) < 15);
            ckp_world_free(&a);
            ckp_remove_tree(d.path);
        }
}

/* The case step by step: path truncated, the restore falls back to
 * path.prev; the first new write is killed before its rename: the good
 * path.prev is still there, and the complete temporary is newer. */
static void a_truncated_file_never_displaces_the_previous(void** state) {
    (void)state;
    nv_error err;
    ckp_dir d;
    ckp_dir_make(&d);
    char path[400], prev[512];
    snprintf(path, sizeof path, "%s/w.ckpt", d.path);
    snprintf(prev, sizeof prev, "%s.prev", path);
    ckp_world a;
    ckp_world_make(&a, scenario_small, NULL);
    nv_checkpoint_source src = ckp_source_of(&a, NULL, 0);
    ASSERT_OK(nv_checkpoint_write_file(path, &src, &err), err);
    nv_world_step(a.inst.world);
    ASSERT_OK(nv_checkpoint_write_file(path, &src, &err), err);
    assert_int_equal(truncate(path, 1000), 0);
    nv_checkpoint c;
    nv_checkpoint_recovery info;
    ASSERT_OK(nv_checkpoint_recover(path, &c, &info, &err), err);
    assert_int_equal(info.used, CHECKPOINT_USED_PREVIOUS);
    ckp_assert_message(&info.refused, "truncated");
    nv_checkpoint_free(&c);
    nv_world_step(a.inst.world);
    assert_int_equal(ckp_write_and_crash(path, &src, CHECKPOINT_STEP_TEMP_SYNCED), 0);
    assert_int_equal(ckp_tick_of(prev), 0); /* not the truncated file */
    assert_int_equal(ckp_count_temporaries(d.path), 1);
    ASSERT_OK(nv_checkpoint_find_newest(path, &c, &info, &err), err);
    assert_int_equal(info.used, CHECKPOINT_USED_TEMPORARY);
    assert_int_equal(c.tick, 2);
    nv_checkpoint_free(&c);
    assert_int_equal(ckp_count_temporaries(d.path), 1); /* finding only reads */
    ckp_world_free(&a);
    ckp_remove_tree(d.path);
}

/* Temporaries a crash left long ago or cut short are not used, and go:
 * a half-written one, and a whole one of a higher tick written before
 * path (a world started anew at path since). */
static void stale_temporaries_are_removed(void** state) {
    (void)state;
    nv_error err;
    ckp_dir d;
    ckp_dir_make(&d);
    char path[400], old_tmp[512], half_tmp[512];
    snprintf(path, sizeof path, "%s/world.ckpt", d.path);
    snprintf(old_tmp, sizeof old_tmp, "%s.tmp.OLD123", path);
    snprintf(half_tmp, sizeof half_tmp, "%s.tmp.HALF45", path);
    ckp_world a, b;
    ckp_world_make(&a, scenario_small, NULL);
    ckp_world_make(&b, scenario_small, NULL);
    nv_checkpoint_source src = ckp_source_of(&a, NULL, 0);
    for (int i = 0; i < 7; i++) nv_world_step(a.inst.world);
    ASSERT_OK(nv_checkpoint_write_file(old_tmp, &src, &err), err); /* a whole checkpoint, tick 7 */
    struct timespec long_ago[2] = {{1000000, 0}, {1000000, 0}};
    assert_int_equal(utimensat(AT_FDCWD, old_tmp, long_ago, 0), 0);
    size_t size;
    uint8_t* bytes = ckp_slurp(old_tmp, &size);
    ckp_spit(half_tmp, bytes, size / 2);
    free(bytes);
    nv_checkpoint_source fresh = ckp_source_of(&b, NULL, 0);
    ASSERT_OK(nv_checkpoint_write_file(path, &fresh, &err), err); /* tick 0, written last */
    nv_checkpoint c;
    nv_checkpoint_recovery info;
    ASSERT_OK(nv_checkpoint_find_newest(path, &c, &info, &err), err);
    assert_int_equal(info.used, CHECKPOINT_USED_FILE);
    assert_int_equal(c.tick, 0);
    nv_checkpoint_free(&c);
    assert_int_equal(ckp_count_temporaries(d.path), 2);
    ASSERT_OK(nv_checkpoint_recover(path, &c, &info, &err), err);
    assert_int_equal(info.used, CHECKPOINT_USED_FILE);
    assert_int_equal(c.tick, 0);
    assert_int_equal(info.removed, 2);
    nv_checkpoint_free(&c);
    assert_int_equal(ckp_count_temporaries(d.path), 0);
    int removed = -1;
    ASSERT_OK(nv_checkpoint_remove_temporaries(path, &removed, &err), err);
    assert_int_equal(removed, 0);
    ckp_world_free(&b);
    ckp_world_free(&a);
    ckp_remove_tree(d.path);
}

/* The ground travels: boats running onto the harbour's beach, saved while
 * some are aground, go on identically after the restore; the contact
 * parameters come back; a terrain that changed since is refused. */
static void grounded_world_survives_a_restore(void** state) {
    (void)state;
    const char* json =
        "{\"tick_hz\": 30, \"vessel_types\": [\"builtin:patrol\"], \"terrain\": \"builtin:harbour\","
        " \"contacts\": {\"ground_friction\": 0.4},"
        " \"structures\": [{\"box\": [12, 8, 30], \"position\": [-95, -5, -178], \"heading_deg\": 10}],"
        " \"vessels\": [{\"type\": \"patrol\", \"position\": [-80, -185], \"heading_deg\": 270,"
        "                \"velocity\": [0, 0, 5], \"controls\": {\"throttle\": 1, \"rudder\": 0}},"
        "               {\"type\": \"patrol\", \"position\": [-50, -195], \"heading_deg\": 260,"
        "                \"velocity\": [0, 0, 5], \"controls\": {\"throttle\": 1, \"rudder\": 0.2}}]}";
    ckp_world a;
    ckp_world_make(&a, json, NULL);
    nv_world* w = a.inst.world;
    uint32_t aground = 0;
    for (int i = 0; i < 600 && aground < 2; i++) {
        nv_world_step(w);
        aground = 0;
        for (uint32_t s = 0; s < nv_world_vessel_count(w); s++) {
            nv_world_vessel_state v;
            assert_int_equal(nv_world_vessel_get(w, nv_world_vessel_id_at(w, s), &v), 0);
            aground += (v.flags & WORLD_VESSEL_GROUNDED) != 0;
        }
    }
    assert_int_equal(aground, 2);
    nv_checkpoint_source src = ckp_source_of(&a, NULL, 0);
    uint8_t* data;
    size_t size;
    ckp_encode_or_fail(&src, &data, &size);
    nv_checkpoint c;
    nv_error err;
    ASSERT_OK(nv_checkpoint_decode(data, size, "mem", &c, &err), err);
    free(data);
    assert_string_equal(c.terrain.source, "builtin:harbour");
    assert_true(c.contacts.enabled && c.contacts.ground_friction == 0.4);
    assert_int_equal(c.structure_count, 1);
    assert_true(c.structures[0].box[2] == 30.0 && c.structures[0].heading_deg == 10.0);
    nv_scenario_instance b;
    ASSERT_OK(nv_checkpoint_restore(&c, NULL, &b, &err), err);
    assert_non_null(nv_world_get_terrain(b.world));
    for (int i = 0; i < 120; i++) {
        nv_world_step(w);
        nv_world_step(b.world);
        assert_true(nv_world_state_hash(w) == nv_world_state_hash(b.world));
    }
    ckp_assert_same_vessels(w, b.world);
    nv_scenario_instance_destroy(&b);
    c.terrain_fingerprint ^= 1;
    assert_int_equal(nv_checkpoint_restore(&c, NULL, &b, &err), -1);
    ckp_assert_message(&err, "did its heightmap change?");
    c.terrain_fingerprint ^= 1;
    c.structures[0].heading_deg = 11.0;
    assert_int_equal(nv_checkpoint_restore(&c, NULL, &b, &err), -1);
    ckp_assert_message(&err, "structure 0 from a box is not the one");
    nv_checkpoint_free(&c);
    ckp_world_free(&a);
}

/* The vessel-vessel contact events of a step, as "a-b" keys. */
static uint32_t ckp_vessel_events(const nv_world* w) {
    uint32_t n, count = 0;
    const nv_world_contact_event* e = nv_world_contact_events(w, &n);
    for (uint32_t k = 0; k < n; k++) count += e[k].id_b != WORLD_CONTACT_GROUND;
    return count;
}

/* Two patrol boats pressed bow to bow under full throttle touch step
 * after step; a checkpoint taken while they touch keeps the pair (version 10)
 * and its normal (version 11), so the restored world begins no second
 * contact for it and its narrowphase starts where the original's does: its
 * events and state are the original's, step for step. A corrupt list is
 * refused. */
static void touching_pairs_survive_a_restore(void** state) {
    (void)state;
    const char* json =
        "{\"tick_hz\": 30, \"vessel_types\": [\"builtin:patrol\"],"
        " \"vessels\": [{\"type\": \"patrol\", \"position\": [0, 0], \"heading_deg\": 0,"
        "                \"velocity\": [2, 0, 0], \"controls\": {\"throttle\": 1, \"rudder\": 0}},"
        "               {\"type\": \"patrol\", \"position\": [30, 0], \"heading_deg\": 180,"
        "                \"velocity\": [-2, 0, 0], \"controls\": {\"throttle\": 1, \"rudder\": 0}}]}";
    ckp_world a;
    ckp_world_make(&a, json, NULL);
    nv_world* w = a.inst.world;
    uint32_t begun = 0, i = 0;
    for (; i < 600 && !begun; i++) {
        nv_world_step(w);
        begun = ckp_vessel_events(w);
    }
    assert_int_equal(begun, 1);
    /* a step on which they still touch (no new contact begun) */
    int still = 0;
    for (int k = 0; k < 300 && !still; k++) {
        nv_world_step(w);
        nv_world_vessel_state v0, v1;
        assert_int_equal(nv_world_vessel_get(w, 0, &v0), 0);
        assert_int_equal(nv_world_vessel_get(w, 1, &v1), 0);
        still = k > 5 && v0.contact_points && v1.contact_points && ckp_vessel_events(w) == 0;
    }
    assert_true(still);
    nv_checkpoint_source src = ckp_source_of(&a, NULL, 0);
    uint8_t* data;
    size_t size;
    ckp_encode_or_fail(&src, &data, &size);
    nv_checkpoint c;
    nv_error err;
    ASSERT_OK(nv_checkpoint_decode(data, size, "mem", &c, &err), err);
    assert_int_equal(c.touching_count, 1);
    assert_true(c.touching[0] == ((uint64_t)0 << 32 | 1u));
    /* its normal (version 11), a unit vector from id 0 toward id 1: where
     * the restored world's narrowphase starts */
    nv_world_vessel_state p0, p1;
    assert_int_equal(nv_world_vessel_get(w, 0, &p0), 0);
    assert_int_equal(nv_world_vessel_get(w, 1, &p1), 0);
    nv_vec3 n = c.touching_normal[0];
    print_message("the touching pair's normal: (%.4f, %.4f, %.4f)\n", n.x, n.y, n.z);
    assert_true(fabs(v3_length(n) - 1.0) < 1e-9);
    assert_true(v3_dot(n, v3_sub(p1.position, p0.position)) > 0.0);
    nv_scenario_instance b;
    ASSERT_OK(nv_checkpoint_restore(&c, NULL, &b, &err), err);
    uint32_t events_a = 0, events_b = 0;
    for (int k = 0; k < 60; k++) {
        nv_world_step(w);
        nv_world_step(b.world);
        events_a += ckp_vessel_events(w);
        events_b += ckp_vessel_events(b.world);
        assert_true(nv_world_state_hash(w) == nv_world_state_hash(b.world));
    }
    print_message("touching after the restore: %u new contacts in the original, %u in the restored world\n", events_a,
                  events_b);
    assert_int_equal(events_b, events_a);
    nv_scenario_instance_destroy(&b);
    /* a pair with its ids the wrong way round is refused by name */
    c.touching[0] = (uint64_t)1 << 32 | 0u;
    uint8_t* bad;
    size_t bad_size;
    ASSERT_OK(nv_checkpoint_encode_captured(&c, &bad, &bad_size, &err), err);
    nv_checkpoint d;
    assert_int_equal(nv_checkpoint_decode(bad, bad_size, "mem", &d, &err), -1);
    ckp_assert_message(&err, "touching pair 0 (0000000100000000) is out of order or not a pair");
    free(bad);
    /* and a normal that is not a unit vector */
    c.touching[0] = (uint64_t)0 << 32 | 1u;
    c.touching_normal[0] = v3(2.0, 0.0, 0.0);
    ASSERT_OK(nv_checkpoint_encode_captured(&c, &bad, &bad_size, &err), err);
    assert_int_equal(nv_checkpoint_decode(bad, bad_size, "mem", &d, &err), -1);
    ckp_assert_message(&err, "touching pair 0's normal is not a unit vector (length 2)");
    free(bad);
    nv_checkpoint_free(&c);
    free(data);
    ckp_world_free(&a);
}

static void crc32_matches_the_standard(void** state) {
    (void)state;
    /* The check value of CRC-32/ISO-HDLC (zlib's crc32). */
    assert_int_equal(nv_checkpoint_crc32(0, "123456789", 9), 0xCBF43926u);
    /* Continuing a CRC equals computing it in one go. */
    assert_int_equal(nv_checkpoint_crc32(nv_checkpoint_crc32(0, "1234", 4), "56789", 5), 0xCBF43926u);
}

/* A checkpoint taken mid-flooding: two patrol boats holed in their engine
 * rooms, one pumping, the other also holed forward; restored, the world
 * has the same hash and floods on identically, bit for bit. */
static void flooding_survives_a_restore(void** state) {
    (void)state;
    static const char json[] =
        "{\"tick_hz\": 30, \"vessel_types\": [\"builtin:patrol\"], \"sunk_removal_depth\": 40,"
        " \"vessels\": [{\"type\": \"patrol\", \"position\": [0, 0]}, {\"type\": \"patrol\", \"position\": [40, 0]}]}";
    nv_error err;
    ckp_world a;
    ckp_world_make(&a, json, NULL);
    nv_world* w = a.inst.world;
    assert_true(nv_world_get_config(w)->sunk_removal_depth == 40.0);
    for (int i = 0; i < 10; i++) nv_world_step(w);
    ASSERT_OK(nv_world_breach(w, 0, v3(-2.7, -1.0, 0.0), 0.05, &err), err);
    ASSERT_OK(nv_world_breach(w, 1, v3(-2.7, -1.0, 0.0), 0.05, &err), err);
    ASSERT_OK(nv_world_breach(w, 1, v3(6.0, -0.6, 0.0), 0.02, &err), err);
    ASSERT_OK(nv_world_set_pumps(w, 0, 1, &err), err);
    for (int i = 0; i < 45; i++) nv_world_step(w);
    nv_flood_state mid;
    assert_int_equal(nv_world_flooding(w, 1, &mid), 0);
    fprintf(stderr, "mid-flooding: %.4f m^3 in the engine room, %.4f forward\n", mid.volume[1], mid.volume[3]);
    assert_true(mid.volume[1] > 0.05 && mid.volume[3] > 0.0 && mid.hole_count == 2); /* filling, not full */

    nv_checkpoint_source src = ckp_source_of(&a, NULL, 0);
    uint8_t* data;
    size_t size;
    ckp_encode_or_fail(&src, &data, &size);
    nv_checkpoint c;
    ASSERT_OK(nv_checkpoint_decode(data, size, "mem", &c, &err), err);
    free(data);
    nv_jobs* pool;
    ASSERT_OK(nv_jobs_create(&pool, 2, &err), err);
    nv_scenario_instance b;
    ASSERT_OK(nv_checkpoint_restore(&c, pool, &b, &err), err);
    nv_checkpoint_free(&c);
    assert_int_equal(nv_world_state_hash(b.world), nv_world_state_hash(w));
    assert_true(nv_world_get_config(b.world)->sunk_removal_depth == 40.0);
    ckp_assert_same_vessels(w, b.world);
    for (int i = 0; i < 90; i++) {
        nv_world_step(w);
        nv_world_step(b.world);
    }
    assert_int_equal(nv_world_state_hash(b.world), nv_world_state_hash(w));
    ckp_assert_same_vessels(w, b.world);
    nv_flood_state later, pumped;
    assert_int_equal(nv_world_flooding(b.world, 1, &later), 0);
    assert_int_equal(nv_world_flooding(b.world, 0, &pumped), 0);
    assert_true(later.volume[1] > mid.volume[1]);
    assert_true(pumped.pumping && pumped.volume[1] < later.volume[1]);
    nv_scenario_instance_destroy(&b);
    nv_jobs_destroy(pool);

    /* A damaged vessel whose type lost its compartments is refused. */
    ckp_encode_or_fail(&src, &data, &size);
    ASSERT_OK(nv_checkpoint_decode(data, size, "mem", &c, &err), err);
    free(data);
    memset(&c.hulls[0].compartments, 0, sizeof c.hulls[0].compartments);
    assert_int_not_equal(nv_checkpoint_restore(&c, NULL, &b, &err), 0);
    assert_non_null(strstr(err.message, "compartments"));
    nv_checkpoint_free(&c);
    ckp_world_free(&a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(crc32_matches_the_standard),
        cmocka_unit_test(round_trip_keeps_hash_and_future),
        cmocka_unit_test(columns_survive_a_restore),
        cmocka_unit_test(ratings_survive_a_restore),
        cmocka_unit_test(grounded_world_survives_a_restore),
        cmocka_unit_test(touching_pairs_survive_a_restore),
        cmocka_unit_test(flooding_survives_a_restore),
        cmocka_unit_test(file_round_trip_and_previous),
        cmocka_unit_test(every_corruption_and_truncation_is_refused),
        cmocka_unit_test(consistent_but_wrong_files_are_refused),
        cmocka_unit_test(restore_refuses_a_different_world),
        cmocka_unit_test(failed_write_keeps_the_old_file),
        cmocka_unit_test(a_kill_at_any_step_keeps_the_newest),
        cmocka_unit_test(a_truncated_file_never_displaces_the_previous),
        cmocka_unit_test(stale_temporaries_are_removed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
