// SPDX-License-Identifier: MIT
/* Closing nng sockets under a time limit. nng 1.5.2's nng_close can hang
 * for good on a missed wake-up (nanomsg/nng#1543, fixed after 1.5.2; seen
 * here about once in 300 closes of a socket in naval-load's teardown): a tool
 * that has printed its results must not hang there. closer_run runs the
 * teardown on a thread and gives up waiting after the limit; the caller
 * then leaves with _exit. */
#ifndef NAVAL_CLIENT_CLOSER_H
#define NAVAL_CLIENT_CLOSER_H

/* 0 when fn(arg) returned within timeout_s (or ran on the caller's thread
 * when no thread could be started); -1 when it did not: it keeps running
 * on its thread. */
int closer_run(void (*fn)(void*), void* arg, double timeout_s);

#endif
