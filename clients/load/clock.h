// SPDX-License-Identifier: MIT
/* The two clocks the clients read: monotonic seconds for intervals, and
 * the wall clock in ns since 1970, the server's send times' clock (for
 * latencies). */
#ifndef NAVAL_CLIENT_CLOCK_H
#define NAVAL_CLIENT_CLOCK_H

#include <stdint.h>

double clock_mono_s(void);
uint64_t clock_wall_ns(void);

#endif
