// SPDX-License-Identifier: MIT
/* Player views on the server (docs/clients.md, "Views"): the view hub of
 * view/view.h fed with each tick's captured snapshot, its updates sent
 * to each view's PAIR1 connection, its requests taken from the cmdq, own
 * vessels checked against the owners' tokens. Loop thread only. */
#ifndef NAVAL_SERVER_VIEWS_H
#define NAVAL_SERVER_VIEWS_H

#include "cmdq.h"
#include "config.h"
#include "metrics.h"
#include "naval/jobs.h"
#include "net.h"
#include "owners.h"
#include "proto.h"
#include "view.h"

typedef struct views {
    view_hub* hub;      /* NULL with limits.max_views 0 */
    net* net;           /* borrowed */
    owners* owners;     /* borrowed: the command server's */
    metrics* m;
} views;

int views_init(views* v, const cfg_server* cfg, double tick_hz, owners* o, metrics* m, nv_error* err);
void views_free(views* v);
/* CMDQ_VIEW_*: the item's data is freed here. */
void views_handle(views* v, const cmdq_item* it);
/* Whether a view waits for updates (the snapshot must be captured). */
int views_wanted(const views* v);
/* This tick's updates from the captured snapshot, encoded on the pool. */
void views_tick(views* v, const proto_snapshot* s, nv_jobs* pool);

#endif
