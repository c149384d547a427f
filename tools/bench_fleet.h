// SPDX-License-Identifier: MIT
/* A fleet for the codec benchmarks (bench-proto, bench-view): boat i at
 * time t, in closed form, on a square of half-width `half` (m) around the
 * origin. */
#ifndef NAVAL_BENCH_FLEET_H
#define NAVAL_BENCH_FLEET_H

#include <stdint.h>

#include "proto.h"

/* Its own heading and speed (3-10 m/s), a slow turn, heave, roll and pitch
 * at wave periods of 6-10 s; id i + 1, type i mod 3. Deterministic. */
void bench_boat_state(uint32_t i, double t, double half, proto_vessel* v);

#endif
