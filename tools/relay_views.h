// SPDX-License-Identifier: MIT
/* naval-relay's player views (docs/scaling.md, "Views on relays"): the
 * upstream's snapshots, full or compact, decoded and fed to a view hub
 * (view/view.h) on a thread of its own, and the hub's updates sent to the
 * PAIR1 peers of the relay's edge.
 *
 * Three threads meet here, and none waits on another's work:
 *  - the receiving thread offers each upstream message (relay_views_offer);
 *  - the edge's thread reports peers coming, sending and going
 *    (relay_views_on_open / _on_message / _on_closed);
 *  - the view thread takes both under one lock, applies the peers' events
 *    first (their refusals go out at once), decodes the messages and
 *    encodes the newest frame for every view.
 *
 * Lifetime: create, then start with the edge once the edge exists; stop
 * (joins the view thread) before edge_destroy, destroy after it (the edge
 * may still report peers closing while it shuts down). Prefix relay_views_. */
#ifndef NAVAL_RELAY_VIEWS_H
#define NAVAL_RELAY_VIEWS_H

#include <nng/nng.h>
#include <stdint.h>

#include "edge.h"
#include "naval/nv_error.h"
#include "view.h"

typedef struct relay_views relay_views;

/* cfg as for view_hub_create (allow_own is forced off: a relay cannot
 * check tokens); threads for the encoder's job pool (1: the view thread
 * alone); max_message: the largest upstream message decoded. */
int relay_views_create(relay_views** out, const view_config* cfg, uint32_t threads, size_t max_message,
                       nv_error* err);
/* Starts the view thread, which sends on e. */
int relay_views_start(relay_views* v, edge* e, nv_error* err);
/* Joins the view thread (safe when it never started). */
void relay_views_stop(relay_views* v);
/* Frees everything still queued, the hub and the pool. Safe on NULL. */
void relay_views_destroy(relay_views* v);

/* The receiving thread: an upstream message for the views (ownership
 * passes; freed here whatever happens). */
void relay_views_offer(relay_views* v, nng_msg* m);

/* The edge's thread: a PAIR1 peer came, sent a message (copied), went. */
void relay_views_on_open(relay_views* v, uint32_t conn);
void relay_views_on_message(relay_views* v, uint32_t conn, const uint8_t* body, size_t size);
void relay_views_on_closed(relay_views* v, uint32_t conn);

#endif
