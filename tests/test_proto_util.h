// SPDX-License-Identifier: MIT
/* Helpers of the protocol tests (test_proto, test_proto_compact). */
#ifndef NAVAL_TEST_PROTO_UTIL_H
#define NAVAL_TEST_PROTO_UTIL_H

#include <math.h>

#include "proto.h"
#include "test_util.h"

#define ASSERT_PROTO_OK(call, err)                                        \
    do {                                                                  \
        if ((call) != 0) fail_msg("%s failed: %s", #call, (err).message); \
    } while (0)

/* Fails unless the call returns -1 with a message containing `needle`. */
#define ASSERT_PROTO_FAILS(call, err, needle)                                                         \
    do {                                                                                              \
        (err).message[0] = '\0';                                                                      \
        int rc_ = (call);                                                                             \
        if (rc_ != -1) fail_msg("%s returned %d, expected -1", #call, rc_);                           \
        if (!strstr((err).message, (needle)))                                                         \
            fail_msg("%s: message \"%s\" does not mention \"%s\"", #call, (err).message, (needle));    \
    } while (0)

static inline double uni(test_rng* r, double lo, double hi) { return test_rng_uniform(r, lo, hi); }

static inline void random_quat(test_rng* r, float q[4]) {
    double v[4], n = 0.0;
    do {
        n = 0.0;
        for (int k = 0; k < 4; k++) {
            v[k] = uni(r, -1.0, 1.0);
            n += v[k] * v[k];
        }
    } while (n < 0.01 || n > 1.0);
    for (int k = 0; k < 4; k++) q[k] = (float)(v[k] / sqrt(n));
}

/* A fleet spread over `span` metres around (cx, cz), moving like ships. */
static inline void random_fleet(test_rng* r, proto_vessel* v, uint32_t n, double cx, double cz, double span) {
    for (uint32_t i = 0; i < n; i++) {
        memset(&v[i], 0, sizeof v[i]);
        v[i].id = 1 + i * 3;
        v[i].type = (uint16_t)(i % 3);
        v[i].flags = (uint16_t)(i % 17 == 0 ? PROTO_VESSEL_FROZEN : 0);
        v[i].position[0] = cx + uni(r, -span / 2, span / 2);
        v[i].position[1] = uni(r, -3.0, 1.0);
        v[i].position[2] = cz + uni(r, -span / 2, span / 2);
        random_quat(r, v[i].orientation);
        for (int k = 0; k < 3; k++) {
            v[i].velocity[k] = (float)uni(r, -12.0, 12.0);
            v[i].angular_velocity[k] = (float)uni(r, -0.5, 0.5);
        }
    }
}

/* One tick of plausible motion: drift with the velocity, a little turn and
 * roll, velocities wandering. */
static inline void move_fleet(test_rng* r, proto_vessel* v, uint32_t n, double dt) {
    for (uint32_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            v[i].position[k] += v[i].velocity[k] * dt;
            v[i].velocity[k] += (float)uni(r, -0.05, 0.05);
            v[i].angular_velocity[k] += (float)uni(r, -0.01, 0.01);
        }
        double q[4], n2 = 0.0;
        for (int k = 0; k < 4; k++) {
            q[k] = v[i].orientation[k] + uni(r, -0.003, 0.003);
            n2 += q[k] * q[k];
        }
        for (int k = 0; k < 4; k++) v[i].orientation[k] = (float)(q[k] / sqrt(n2));
    }
}

/* Whether bytes [n, size) of the message hold anything but zeros. */
static inline int tail_has_data(const proto_buf* b, size_t n) {
    for (size_t k = n; k < b->size; k++)
        if (b->data[k]) return 1;
    return 0;
}

#endif
