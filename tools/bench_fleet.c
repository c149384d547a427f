// SPDX-License-Identifier: MIT
#include "bench_fleet.h"

#include <math.h>
#include <string.h>

/* Boat i at time t, in closed form: a heading and speed of its own, a slow
 * turn, heave, roll and pitch at wave periods of 6-10 s. Deterministic. */
void bench_boat_state(uint32_t i, double t, double half, proto_vessel* v) {
    uint64_t h = (uint64_t)i * 0x9E3779B97F4A7C15ull;
    double u0 = (double)((h >> 11) & 0xFFFF) / 65536.0, u1 = (double)((h >> 27) & 0xFFFF) / 65536.0;
    double u2 = (double)((h >> 43) & 0xFFFF) / 65536.0;
    double speed = 3.0 + 7.0 * u2, turn = 0.02 * (u0 - 0.5), heading = 6.283185307179586 * u1 + turn * t;
    double w = 6.283185307179586 / (6.0 + 4.0 * u0), phase = 6.283185307179586 * u2;
    double roll = 0.08 * sin(w * t + phase), pitch = 0.03 * sin(w * t + phase + 1.0);
    memset(v, 0, sizeof *v);
    v->id = i + 1;
    v->type = (uint16_t)(i % 3);
    /* A square of that half-width, boats on their tracks. */
    v->position[0] = -half + 2.0 * half * u0 + speed * cos(heading) * t;
    v->position[1] = -2.0 + 0.8 * sin(w * t + phase);
    v->position[2] = -half + 2.0 * half * u1 - speed * sin(heading) * t;
    /* Yaw about +y, then pitch about +z, then roll about +x (half angles). */
    double cy = cos(heading / 2), sy = sin(heading / 2), cp = cos(pitch / 2), sp = sin(pitch / 2);
    double cr = cos(roll / 2), sr = sin(roll / 2);
    v->orientation[0] = (float)(cy * cp * sr + sy * sp * cr);
    v->orientation[1] = (float)(sy * cp * cr - cy * sp * sr);
    v->orientation[2] = (float)(cy * sp * cr - sy * cp * sr);
    v->orientation[3] = (float)(cy * cp * cr + sy * sp * sr);
    v->velocity[0] = (float)(speed * cos(heading));
    v->velocity[1] = (float)(0.8 * w * cos(w * t + phase));
    v->velocity[2] = (float)(-speed * sin(heading));
    v->angular_velocity[0] = (float)(0.08 * w * cos(w * t + phase) * cos(heading));
    v->angular_velocity[1] = (float)turn;
    v->angular_velocity[2] = (float)(-0.08 * w * cos(w * t + phase) * sin(heading));
}

