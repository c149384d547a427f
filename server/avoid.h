// SPDX-License-Identifier: MIT
/* Collision avoidance for the autopilot, as a skipper keeps the COLREGs
 * (../docs/architecture.md, "Autopilot"): every vessel near a piloted boat
 * is checked for a close quarters situation on the boat's wanted course
 * (closest point of approach with both on straight tracks: nearer than
 * one and a half times both half lengths and a margin, within
 * AVOID_HORIZON_S), the encounter
 * named by the rules, and the boat's part taken:
 *  - head-on (rule 14: the other nearly ahead, heading nearly the other
 *    way): alter course to starboard;
 *  - crossing with the other on the starboard side (rule 15): give way,
 *    to starboard (passing astern of it);
 *  - overtaking (rule 13: coming up from more than 22.5 degrees abaft the
 *    other's beam): keep out of its way, to starboard;
 *  - crossing with the other on the port side, or being overtaken: stand
 *    on (rule 17 (a)), unless the other has left it so late that it
 *    alone cannot avoid collision (rule 17 (b): within AVOID_LAST_S), then
 *    to starboard, never to port for a vessel on its port side (17 (c)).
 * The alteration is the smallest of 15, 30, 45, 60 and 90 degrees that
 * clears every threat (rule 16: early and substantial); when none does,
 * the boat turns 90 degrees and slows. Stateless and deterministic:
 * each update decides again from the world as it is, on the wanted
 * course, so a boat that has given way keeps its alteration until the
 * other has passed, then steers for its waypoint again.
 * Loop thread only, between steps. */
#ifndef NAVAL_SERVER_AVOID_H
#define NAVAL_SERVER_AVOID_H

#include <stdint.h>

#include "naval/world.h"

#define AVOID_HORIZON_S 45.0  /* close quarters looked for this far ahead */
#define AVOID_RANGE_M 400.0   /* vessels farther than this are not looked at */
#define AVOID_MARGIN_M 15.0   /* kept clear beyond both half lengths */
#define AVOID_LAST_S 12.0     /* rule 17 (b): the stand-on vessel acts this late */
#define AVOID_SLOW 0.3        /* throttle factor when no alteration clears */

/* The vessels as they are before the update, in a grid for the
 * neighbour search; rebuilt by avoid_snapshot, storage reused. */
typedef struct avoid avoid;

avoid* avoid_create(void);
void avoid_destroy(avoid* a);
/* Takes every vessel's position, velocity, heading and half length; -1
 * when out of memory (the old snapshot is dropped). */
int avoid_snapshot(avoid* a, const nv_world* w);
/* Vessel `id` of the snapshot follows traffic lane `lane` (lanes.h):
 * vessels on lanes do not avoid each other, the lanes and the station
 * kept on each lane keep them apart (a traffic separation scheme); every
 * vessel avoids those off the lanes (a player's), and those avoid all.
 * Until set, a vessel is on none. -1: not in the snapshot. */
#define AVOID_NO_LANE UINT32_MAX
int avoid_set_lane(avoid* a, uint32_t id, uint32_t lane);
/* The snapshot's vessels by index (slot order, the frozen and non-finite
 * left out): how many, and one's id, place and velocity; and
 * avoid_set_lane by index, for a pass over them all that has the ids'
 * lanes at hand (different indices from different threads at once). */
uint32_t avoid_count(const avoid* a);
/* With every lane set: the vessels on none listed, which is all a lane
 * boat's decisions then look at (the same decisions, faster). -1 when out
 * of memory (decisions search the grid, as before). */
int avoid_index_lanes(avoid* a);
void avoid_motion_at(const avoid* a, uint32_t i, uint32_t* id, double* x, double* z, double* vx, double* vz);
void avoid_set_lane_at(avoid* a, uint32_t i, uint32_t lane);

typedef enum avoid_role {
    AVOID_CLEAR = 0,     /* nothing to avoid */
    AVOID_HEAD_ON,       /* rule 14 */
    AVOID_GIVE_WAY,      /* rule 15: the other on the starboard side */
    AVOID_OVERTAKING,    /* rule 13 */
    AVOID_STAND_ON,      /* rule 17 (a): keeps course and speed */
    AVOID_LAST_MOMENT    /* rule 17 (b): the stand-on vessel acts */
} avoid_role;

typedef struct avoid_order {
    double course;          /* radians, as headings: the wanted course, or altered */
    double throttle_scale;  /* 1, or AVOID_SLOW */
    avoid_role role;        /* the most urgent encounter's */
    uint32_t other;         /* its vessel id (0 with AVOID_CLEAR) */
} avoid_order;

/* The course vessel `id` should steer instead of `wanted` (radians), at
 * `speed` m/s (its own, at least 1), and the part it takes. */
avoid_order avoid_decide(const avoid* a, uint32_t id, double wanted, double speed);

#endif
