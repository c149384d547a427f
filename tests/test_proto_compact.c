// SPDX-License-Identifier: MIT
/* Compact snapshots: every decoded value within half a quantisation step of
 * the sent one (random fleets, seeded) through keyframes, deltas, spawns
 * and despawns; the raw fallback carries out-of-range vessels exactly; a
 * late decoder waits for a keyframe; corrupted and truncated messages are
 * rejected and leave the decoder's keyframe intact. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_proto_util.h"

/* Documented bound on the orientation's rotation angle (docs/protocol.md). */
#define ORI_ANGLE_BOUND (2.0 * sqrt(3.0) * PROTO_COMPACT_ORI_STEP)

typedef struct errors {
    double pos, vel, angvel, angle;
} errors;

static double quat_angle(const float a[4], const float b[4]) {
    double dot = 0.0, na = 0.0, nb = 0.0;
    for (int k = 0; k < 4; k++) {
        dot += (double)a[k] * b[k];
        na += (double)a[k] * a[k];
        nb += (double)b[k] * b[k];
    }
    double c = fabs(dot) / sqrt(na * nb);
    return 2.0 * acos(c > 1.0 ? 1.0 : c);
}

/* Asserts that `got` is `sent` within the documented steps; tracks the worst. */
static void assert_close(const proto_vessel* sent, const proto_vessel* got, errors* worst) {
    assert_int_equal(got->id, sent->id);
    assert_int_equal(got->type, sent->type);
    assert_int_equal(got->flags, sent->flags);
    for (int k = 0; k < 3; k++) {
        double ep = fabs(got->position[k] - sent->position[k]);
        double ev = fabs((double)got->velocity[k] - sent->velocity[k]);
        double ew = fabs((double)got->angular_velocity[k] - sent->angular_velocity[k]);
        if (!(ep <= PROTO_COMPACT_POS_STEP / 2 + 1e-9))
            fail_msg("vessel %u position[%d] off by %g m", sent->id, k, ep);
        if (!(ev <= PROTO_COMPACT_VEL_STEP / 2)) fail_msg("vessel %u velocity[%d] off by %g", sent->id, k, ev);
        if (!(ew <= PROTO_COMPACT_ANGVEL_STEP / 2)) fail_msg("vessel %u rate[%d] off by %g", sent->id, k, ew);
        worst->pos = fmax(worst->pos, ep);
        worst->vel = fmax(worst->vel, ev);
        worst->angvel = fmax(worst->angvel, ew);
    }
    double ea = quat_angle(sent->orientation, got->orientation);
    if (!(ea <= ORI_ANGLE_BOUND)) fail_msg("vessel %u orientation off by %g rad", sent->id, ea);
    worst->angle = fmax(worst->angle, ea);
}

/* Every sent vessel is decoded once, within the bounds (order may differ). */
static void assert_same_fleet(const proto_vessel* sent, uint32_t n, const proto_snapshot* got, errors* worst) {
    assert_int_equal(got->vessel_count, n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = 0;
        while (j < n && got->vessels[j].id != sent[i].id) j++;
        if (j == n) fail_msg("vessel %u missing", sent[i].id);
        assert_close(&sent[i], &got->vessels[j], worst);
    }
}

typedef struct codec {
    proto_compact_encoder* enc;
    proto_compact_decoder* dec;
    proto_buf buf;
    proto_snapshot out;
    proto_error err;
} codec;

static void codec_open(codec* c, uint32_t interval) {
    memset(c, 0, sizeof *c);
    c->enc = proto_create_compact_encoder(interval, &c->err);
    c->dec = proto_create_compact_decoder(&c->err);
    assert_non_null(c->enc);
    assert_non_null(c->dec);
}

static void codec_close(codec* c) {
    proto_destroy_compact_encoder(c->enc);
    proto_destroy_compact_decoder(c->dec);
    proto_free_buf(&c->buf);
    proto_free_snapshot(&c->out);
}

/* Encodes and decodes one tick; returns whether it was a keyframe. */
static int codec_tick(codec* c, uint64_t tick, proto_vessel* v, uint32_t n) {
    proto_snapshot s = {.tick = tick, .sim_time = tick / 60.0, .vessels = v, .vessel_count = n};
    int key = -1;
    ASSERT_PROTO_OK(proto_encode_compact(c->enc, &s, &c->buf, &key, &c->err), c->err);
    assert_int_equal(proto_identify(c->buf.data, c->buf.size), PROTO_KIND_COMPACT);
    ASSERT_PROTO_OK(proto_decode_compact(c->dec, c->buf.data, c->buf.size, NULL, &c->out, &c->err), c->err);
    assert_int_equal(c->out.tick, tick);
    return key;
}

static void compact_keyframe_error_bounds(void** state) {
    (void)state;
    enum { N = 4000 };
    test_rng r = {2024};
    proto_vessel* v = calloc(N, sizeof *v);
    /* A 40 km world far from the origin. */
    random_fleet(&r, v, N, -35000.0, 52000.0, 40000.0);
    codec c;
    codec_open(&c, 30);
    assert_int_equal(codec_tick(&c, 100, v, N), 1);
    errors worst = {0};
    for (uint32_t i = 0; i < N; i++) assert_close(&v[i], &c.out.vessels[i], &worst); /* keyframe keeps order */
    print_message("keyframe: %.1f bytes/vessel; worst errors: position %.3g m, velocity %.3g m/s, "
                  "rate %.3g rad/s, orientation %.3g rad (bound %.3g)\n",
                  (double)c.buf.size / N, worst.pos, worst.vel, worst.angvel, worst.angle, ORI_ANGLE_BOUND);
    assert_true(c.buf.size < N * 30);
    /* The bounds are tight, not loose: the worst case comes close. */
    assert_true(worst.pos > 0.4 * PROTO_COMPACT_POS_STEP);
    assert_true(worst.vel > 0.4 * PROTO_COMPACT_VEL_STEP);
    codec_close(&c);
    free(v);
}

static void compact_deltas_through_spawns_and_despawns(void** state) {
    (void)state;
    enum { N = 1000, CAP = 1100 };
    test_rng r = {7};
    proto_vessel* v = calloc(CAP, sizeof *v);
    uint32_t n = N, next_id = 100000;
    random_fleet(&r, v, N, 800.0, -300.0, 3000.0);
    codec c;
    codec_open(&c, 10);
    errors worst = {0};
    size_t key_bytes = 0, delta_bytes = 0;
    int deltas = 0;
    for (uint64_t tick = 0; tick < 35; tick++) {
        if (tick == 4 || tick == 13) /* despawn: the world moves the last slot into the hole */
            for (int k = 0; k < 25; k++) {
                uint32_t hole = (uint32_t)(test_rng_next(&r) % n);
                v[hole] = v[n - 1];
                n--;
            }
        if (tick == 6 || tick == 17) { /* spawn */
            random_fleet(&r, v + n, 30, 800.0, -300.0, 3000.0);
            for (int k = 0; k < 30; k++) v[n + k].id = next_id++;
            n += 30;
        }
        if (tick == 8) v[3].position[0] += 300.0; /* a jump past the delta's range */
        int key = codec_tick(&c, 1000 + tick, v, n);
        assert_int_equal(key, tick % 10 == 0);
        assert_same_fleet(v, n, &c.out, &worst);
        if (key)
            key_bytes = c.buf.size;
        else if (tick % 10 == 9)
            delta_bytes += c.buf.size, deltas++;
        move_fleet(&r, v, n, 1.0 / 60.0);
    }
    print_message("moving fleet of %u: keyframe %.1f, delta 9 ticks after it %.1f bytes/vessel\n", n,
                  (double)key_bytes / n, (double)delta_bytes / deltas / n);
    assert_true(delta_bytes / deltas < key_bytes);
    /* A fleet at rest costs about a bit per vessel between keyframes. */
    proto_force_keyframe(c.enc);
    assert_int_equal(codec_tick(&c, 2000, v, n), 1);
    assert_int_equal(codec_tick(&c, 2001, v, n), 0);
    print_message("fleet at rest: delta %zu bytes for %u vessels\n", c.buf.size, n);
    assert_true(c.buf.size < n / 8 + 200);
    assert_same_fleet(v, n, &c.out, &worst);
    /* A tick from the past starts over with a keyframe. */
    assert_int_equal(codec_tick(&c, 1500, v, n), 1);
    codec_close(&c);
    free(v);
}

static void compact_raw_fallback(void** state) {
    (void)state;
    enum { N = 50 };
    test_rng r = {99};
    proto_vessel v[N];
    random_fleet(&r, v, N, 5000.0, 5000.0, 2000.0);
    v[10].position[0] = 5000.0 + 500000.0;  /* far outside the range */
    v[11].velocity[2] = 1000.0f;            /* too fast for the widest field */
    v[12].orientation[1] = NAN;             /* not a rotation at all */
    v[13].angular_velocity[0] = -INFINITY;
    codec c;
    codec_open(&c, 4);
    errors worst = {0};
    for (uint64_t tick = 0; tick < 9; tick++) {
        codec_tick(&c, tick, v, N);
        assert_int_equal(c.out.vessel_count, N);
        for (uint32_t i = 0; i < N; i++) {
            uint32_t j = 0;
            while (c.out.vessels[j].id != v[i].id) j++;
            if (i >= 10 && i <= 13)
                assert_memory_equal(&c.out.vessels[j], &v[i], sizeof v[i]); /* raw: bit-exact */
            else
                assert_close(&v[i], &c.out.vessels[j], &worst);
        }
        move_fleet(&r, v, 10, 1.0 / 60.0);
        /* Vessel 14 alternates between raw and quantised. */
        v[14].velocity[0] = tick % 2 ? 5.0f : 2000.0f;
        v[14].position[0] += 0.01;
    }
    codec_close(&c);
}

static void compact_waits_for_keyframe(void** state) {
    (void)state;
    enum { N = 64 };
    test_rng r = {3};
    proto_vessel v[N];
    random_fleet(&r, v, N, 0.0, 0.0, 400.0);
    codec c;
    codec_open(&c, 5);
    proto_compact_decoder* late = proto_create_compact_decoder(&c.err);
    proto_snapshot out = {0};
    out.vessel_count = 12345; /* untouched while waiting */
    for (uint64_t tick = 0; tick < 16; tick++) {
        int key = codec_tick(&c, tick, v, N);
        if (tick < 2 || tick == 10) { /* joins at tick 2; keyframe 10 is lost on the way */
            assert_int_equal(key, tick % 5 == 0);
            move_fleet(&r, v, N, 1.0 / 60.0);
            continue;
        }
        int rc = proto_decode_compact(late, c.buf.data, c.buf.size, NULL, &out, &c.err);
        if (tick < 5) {
            assert_int_equal(rc, PROTO_NEED_KEYFRAME);
            assert_int_equal(out.vessel_count, 12345);
        } else if (tick > 10 && tick < 15) {
            assert_int_equal(rc, PROTO_NEED_KEYFRAME); /* deltas against keyframe 10, it holds 5 */
        } else {
            assert_int_equal(rc, 0);
            assert_int_equal(out.vessel_count, N);
            assert_int_equal(out.tick, tick);
        }
        move_fleet(&r, v, N, 1.0 / 60.0);
    }
    proto_destroy_compact_decoder(late);
    proto_free_snapshot(&out);
    codec_close(&c);
}

/* CompactSnapshot fields: 8 vessel_count, 9 data. */
static size_t field_pos(const uint8_t* m, int index) {
    uint32_t root;
    memcpy(&root, m, 4);
    int32_t soff;
    memcpy(&soff, m + root, 4);
    size_t vt = root - (size_t)soff;
    uint16_t off;
    memcpy(&off, m + vt + 4 + 2 * index, 2);
    return off ? root + off : 0;
}

static void compact_hostile(void** state) {
    (void)state;
    enum { N = 200 };
    test_rng r = {31};
    proto_vessel v[N];
    random_fleet(&r, v, N, 0.0, 0.0, 1000.0);
    v[7].position[2] = 1e6; /* one raw record too */
    codec c;
    codec_open(&c, 100);
    proto_buf msgs[2] = {{0}, {0}};
    proto_snapshot s = {.tick = 1, .vessels = v, .vessel_count = N};
    ASSERT_PROTO_OK(proto_encode_compact(c.enc, &s, &msgs[0], NULL, &c.err), c.err);
    move_fleet(&r, v, N, 0.1);
    s.tick = 2;
    s.vessel_count = N - 3; /* three gone */
    ASSERT_PROTO_OK(proto_encode_compact(c.enc, &s, &msgs[1], NULL, &c.err), c.err);
    int accepted = 0;
    for (int which = 0; which < 2; which++) {
        const proto_buf* b = &msgs[which];
        for (size_t n = 0; n < b->size; n++) {
            ASSERT_PROTO_OK(proto_decode_compact(c.dec, msgs[0].data, msgs[0].size, NULL, &c.out, &c.err), c.err);
            uint8_t* m = malloc(n + 1);
            memcpy(m, b->data, n);
            int rc = proto_decode_compact(c.dec, m, n, NULL, &c.out, &c.err);
            if (rc != -1 && tail_has_data(b, n)) fail_msg("message %d cut to %zu of %zu bytes was accepted", which, n, b->size);
            free(m);
        }
        size_t data = field_pos(b->data, 9);
        uint32_t data_off;
        memcpy(&data_off, b->data + data, 4);
        size_t bits = data + data_off + 4, nbits = b->size - bits;
        for (int t = 0; t < 3000; t++) {
            ASSERT_PROTO_OK(proto_decode_compact(c.dec, msgs[0].data, msgs[0].size, NULL, &c.out, &c.err), c.err);
            uint8_t* m = malloc(b->size);
            memcpy(m, b->data, b->size);
            for (int f = 0; f < 3; f++) m[bits + test_rng_next(&r) % nbits] ^= (uint8_t)(1u << (test_rng_next(&r) % 8));
            int rc = proto_decode_compact(c.dec, m, b->size, NULL, &c.out, &c.err);
            assert_true(rc == 0 || rc == -1);
            if (rc == 0) assert_true(c.out.vessel_count <= N), accepted++;
            free(m);
        }
        /* Record counts that lie (a keyframe's two counts must agree, so
         * both change there). */
        uint8_t* m = malloc(b->size);
        const char* why[3] = {"cannot fit", "past the end", "left after"};
        for (int k = 0; k < (which == 0 ? 3 : 2); k++) {
            ASSERT_PROTO_OK(proto_decode_compact(c.dec, msgs[0].data, msgs[0].size, NULL, &c.out, &c.err), c.err);
            memcpy(m, b->data, b->size);
            for (int f = (which == 0 ? 6 : 8); f <= 8; f += 2) {
                size_t at = field_pos(m, f);
                uint32_t count;
                memcpy(&count, m + at, 4);
                count = k == 0 ? 0x3FFFFFu : k == 1 ? count + 1 : count - 8;
                memcpy(m + at, &count, 4);
            }
            ASSERT_PROTO_FAILS(proto_decode_compact(c.dec, m, b->size, NULL, &c.out, &c.err), c.err, why[k]);
        }
        free(m);
    }
    print_message("corrupted compact records accepted as legal: %d of 6000\n", accepted);
    /* A bad delta leaves the keyframe: the good delta still decodes. */
    ASSERT_PROTO_OK(proto_decode_compact(c.dec, msgs[0].data, msgs[0].size, NULL, &c.out, &c.err), c.err);
    uint8_t* m = malloc(msgs[1].size - 1);
    memcpy(m, msgs[1].data, msgs[1].size - 1);
    assert_int_equal(proto_decode_compact(c.dec, m, msgs[1].size - 1, NULL, &c.out, &c.err), -1);
    free(m);
    ASSERT_PROTO_OK(proto_decode_compact(c.dec, msgs[1].data, msgs[1].size, NULL, &c.out, &c.err), c.err);
    assert_int_equal(c.out.vessel_count, N - 3);
    /* Limits apply before anything is allocated. */
    proto_limits lim = proto_default_limits();
    lim.max_vessels = N - 1;
    ASSERT_PROTO_FAILS(proto_decode_compact(c.dec, msgs[0].data, msgs[0].size, &lim, &c.out, &c.err), c.err,
                       "over the limit");
    proto_free_buf(&msgs[0]);
    proto_free_buf(&msgs[1]);
    codec_close(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compact_keyframe_error_bounds),
        cmocka_unit_test(compact_deltas_through_spawns_and_despawns),
        cmocka_unit_test(compact_raw_fallback),
        cmocka_unit_test(compact_waits_for_keyframe),
        cmocka_unit_test(compact_hostile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
