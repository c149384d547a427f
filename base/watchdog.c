// SPDX-License-Identifier: MIT
#include "watchdog.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static const char* _Atomic watchdog_head;
static const char* _Atomic watchdog_tail;
static const char* _Atomic watchdog_now;
static volatile sig_atomic_t watchdog_status;

static void watchdog_write(const char* s) {
    if (!s) return;
    ssize_t rc = write(STDERR_FILENO, s, strlen(s));
    (void)rc;
}

/* Async-signal-safe: write(2), strlen and _exit only. */
static void watchdog_fire(int sig) {
    (void)sig;
    watchdog_write(atomic_load(&watchdog_head));
    watchdog_write(atomic_load(&watchdog_now));
    watchdog_write(atomic_load(&watchdog_tail));
    _exit(watchdog_status);
}

void watchdog_step(const char* step) { atomic_store(&watchdog_now, step); }

void watchdog_arm(unsigned seconds, int status, const char* head, const char* tail) {
    atomic_store(&watchdog_head, head);
    atomic_store(&watchdog_tail, tail);
    watchdog_status = status;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = watchdog_fire;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    alarm(seconds);
}
