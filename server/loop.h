// SPDX-License-Identifier: MIT
/* The server's main loop on libuv: a fixed-rate tick driven by uv_hrtime
 * and an accumulator (a timer wakes the loop when the next step is due),
 * commands applied between steps in arrival order, a snapshot published
 * after every step (catch-up steps included, so a subscriber counts drops
 * from gaps in the tick numbers; none is built while nobody subscribes),
 * SIGINT / SIGTERM for a clean stop.
 *
 * No spiral of death: one loop turn runs at most max_catchup steps; time
 * beyond that is dropped (counted in naval_ticks_dropped_total) so the
 * simulation falls behind the wall clock instead of queueing ever more
 * work. A tick whose work takes longer than the period counts as an
 * overrun.
 *
 * Threads: everything here runs on the loop thread; nv_world_step uses the
 * job pool's workers inside sim_step; nng's threads only touch cmdq and
 * the metrics' atomics. */
#ifndef NAVAL_SERVER_LOOP_H
#define NAVAL_SERVER_LOOP_H

#include "config.h"

/* Builds everything from the settings, runs until a signal, tears down.
 * Returns the process exit code: 0 after a clean stop, 1 when starting
 * failed (the reason is logged). */
int loop_run(const cfg_server* cfg);

#endif
