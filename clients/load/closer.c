// SPDX-License-Identifier: MIT
#include "closer.h"

#include <nng/nng.h>
#include <nng/supplemental/util/platform.h>
#include <stdlib.h>

typedef struct closer {
    void (*fn)(void*);
    void* arg;
    nng_mtx* lock;
    nng_cv* done_cv;
    int done, abandoned;
} closer;

static void closer_free(closer* c) {
    nng_cv_free(c->done_cv);
    nng_mtx_free(c->lock);
    free(c);
}

static void closer_main(void* arg) {
    closer* c = arg;
    c->fn(c->arg);
    nng_mtx_lock(c->lock);
    c->done = 1;
    int abandoned = c->abandoned;
    nng_cv_wake(c->done_cv);
    nng_mtx_unlock(c->lock);
    if (abandoned) closer_free(c); /* the waiter left: the last one out frees */
}

int closer_run(void (*fn)(void*), void* arg, double timeout_s) {
    closer* c = calloc(1, sizeof *c);
    nng_thread* t = NULL;
    if (!c || nng_mtx_alloc(&c->lock) != 0) {
        free(c);
        fn(arg);
        return 0;
    }
    if (nng_cv_alloc(&c->done_cv, c->lock) != 0) {
        nng_mtx_free(c->lock);
        free(c);
        fn(arg);
        return 0;
    }
    c->fn = fn;
    c->arg = arg;
    if (nng_thread_create(&t, closer_main, c) != 0) {
        closer_free(c);
        fn(arg);
        return 0;
    }
    nng_time deadline = nng_clock() + (nng_duration)(timeout_s * 1000.0);
    nng_mtx_lock(c->lock);
    while (!c->done && nng_cv_until(c->done_cv, deadline) != NNG_ETIMEDOUT) {
    }
    int done = c->done;
    if (!done) c->abandoned = 1;
    nng_mtx_unlock(c->lock);
    if (!done) return -1; /* its thread frees c if it ever finishes; t is never joined */
    nng_thread_destroy(t);
    closer_free(c);
    return 0;
}
