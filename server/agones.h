// SPDX-License-Identifier: MIT
/* The Agones SDK sidecar's local REST API (https://agones.dev/site/docs/
 * guides/client-sdks/rest/), through nng's HTTP client: POST {} to /ready
 * once the world is built and the sockets listen (again each period until
 * the sidecar has said yes), then POST {} to /health every period while
 * the loop runs. A sidecar that fails or does not answer is logged (the
 * first failure, then at most every 30 s with a count) and counted in
 * /metrics, never fatal: the sea goes on ticking. No /shutdown: the
 * container exiting tells Agones.
 *
 * Threads: agones_open, agones_call and agones_close on the loop thread,
 * which never waits on the network: one call at a time goes to an aio, and
 * its callback (nng's thread) touches only the call's own objects, the
 * metrics' atomics and the log. */
#ifndef NAVAL_SERVER_AGONES_H
#define NAVAL_SERVER_AGONES_H

#include "metrics.h"
#include "naval/nv_error.h"

/* Seconds between calls; Agones' health check (docker/k8s/fleet.yaml:
 * every 5 s, 3 misses) tolerates a few lost ones. */
#define AGONES_PERIOD_S 2
/* A call not answered within this is a failure (less than the period). */
#define AGONES_TIMEOUT_MS 1500

typedef struct agones agones;

/* `base_url`: "http://HOST:PORT". Sends nothing yet. */
int agones_open(agones** out, const char* base_url, metrics* m, nv_error* err);
/* The next call: /ready until it succeeded, then /health. Skipped while
 * the previous call is still waiting for its answer. */
void agones_call(agones* a);
/* Waits for the call in flight (at most its timeout), then frees
 * everything; before nng_fini. Safe on NULL. */
void agones_close(agones* a);

#endif
