// SPDX-License-Identifier: MIT
/* The stop's watchdog: a process that is shutting down and may hang in a
 * library's close (nng 1.5.2's nng_close: nanomsg/nng#1503, #1813) arms
 * it once; if the stop outlasts it, the process says so on stderr and
 * exits with the status it was given rather than waiting for the
 * supervisor's SIGKILL. Used by naval-server (server/loop.c) and
 * naval-relay. One per process (it takes SIGALRM). */
#ifndef NAVAL_WATCHDOG_H
#define NAVAL_WATCHDOG_H

/* After `seconds`, writes head, the step last named by watchdog_step (if
 * any) and tail (if not NULL) to stderr and _exit(status). The strings
 * must outlive the process's stop (string literals). */
void watchdog_arm(unsigned seconds, int status, const char* head, const char* tail);
/* What the stop is doing now, for the message (a string literal). */
void watchdog_step(const char* step);

#endif
