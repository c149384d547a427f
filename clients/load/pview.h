// SPDX-License-Identifier: MIT
/* One player's view for naval-load (--view-radius): a view that follows
 * the player's own boats (clients/naval_client.h, nvc_view_*), read on a
 * thread of its own, measured against the truth (truth.h, the full stream
 * every player shares) over a window of ticks:
 *  - bytes, updates and their latency;
 *  - per boat and tick, by the truth: whether it was near (< PVIEW_NEAR_M
 *    from the nearest own boat, as the server measures) or in the view
 *    (<= the radius), and whether the view's update of that tick carried
 *    it (its newest sample is at the update's tick): its update rates
 *    while near and while in view;
 *  - ten times a second, every held vessel reconstructed at the playout
 *    tick (the update's tick less ~100 ms) as nvc_view_sample draws it (the
 *    library's interpolation on its PROTO_VIEW_HISTORY samples; a vessel
 *    whose samples do not reach back that far is not drawn yet) against the
 *    truth of that tick;
 *  - the join: from the view's opening until it holds every boat the truth
 *    has within (radius - PVIEW_JOIN_MARGIN_M), once.
 * Only this thread touches the view and the figures until pview_stop; read
 * them after it. */
#ifndef NAVAL_LOAD_PVIEW_H
#define NAVAL_LOAD_PVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "naval_client.h"
#include "samples.h"
#include "truth.h"

#define PVIEW_NEAR_M 300.0         /* the server's "near" (view/view_internal.h) */
#define PVIEW_JOIN_MARGIN_M 20.0   /* boats this close to the edge may come and go while joining */
#define PVIEW_DELAY_S 0.1          /* interpolation delay of a client's playout */
#define PVIEW_EXTRAPOLATE_TICKS 3.0
#define PVIEW_ERROR_HZ 10.0        /* error samples per second per player */

typedef struct pview_config {
    const char* url;
    float radius;               /* m */
    uint32_t budget_kbps;       /* 0: the server's default */
    const nvc_vessel* own;      /* the player's boats with their tokens: the view follows them */
    uint32_t own_count;         /* at most PROTO_VIEW_MAX_OWN are named */
    double centre[2];           /* x, z: the view's centre when there is no own boat */
    truth* truth;
    double tick_hz;
} pview_config;

typedef struct pview pview;

typedef struct pview_totals {
    uint64_t updates, bytes, keyframes;  /* in the window */
    uint64_t refusals, undecodable;      /* since the view opened */
    uint64_t truth_missing;              /* sampled truth ticks that were not there (lost or overwritten) */
    uint64_t held_sum;                   /* vessels held after each update in the window */
    uint64_t window_ticks;               /* the window's length in ticks */
    int joined;
    double join_ms;
    char last_error[NV_ERROR_MAX + 32];
} pview_totals;

/* Opens the view (a refused connection fails here, with the reason in err)
 * and starts reading it. */
int pview_start(pview** out, const pview_config* cfg, char* err, size_t errlen);
/* The window: ticks from first_tick on count (call once, when measuring
 * starts) ... */
void pview_measure(pview* p, uint64_t first_tick);
/* ... up to end_tick, not included: the thread finishes with the truth
 * and stops once the update of the window's last tick came. */
void pview_end(pview* p, uint64_t end_tick);
/* Waits for the thread (0.3 s more at most when that update does not
 * come). The view stays open. */
void pview_stop(pview* p);
/* After pview_stop. */
void pview_totals_get(pview* p, pview_totals* out);
/* After pview_stop: the lowest update rate (Hz) of the boats that were near
 * (and in the view) for at least min_s whole seconds (updates in those
 * seconds / their number); NaN where none was. */
void pview_rates(pview* p, double min_s, double* near_hz, double* view_hz);
const hist* pview_error_near(const pview* p);   /* m */
const hist* pview_error_far(const pview* p);
const samples* pview_latency_ms(const pview* p);
/* Stops (if not yet), closes the view, frees. Safe on NULL. */
void pview_free(pview* p);

#endif
