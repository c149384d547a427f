// SPDX-License-Identifier: MIT
/* The view hub's parts: view.c (hub, requests, acks), view_frame.c (the
 * tick's vessels and their grid), view_client.c (one view's update). */
#ifndef NAVAL_VIEW_INTERNAL_H
#define NAVAL_VIEW_INTERNAL_H

#include "idmap.h"
#include "proto_view.h"
#include "view.h"

#define VIEW_RING 32             /* updates a view may have unacknowledged */
#define VIEW_HEADER_BITS 640     /* a ViewUpdate's header, about 80 bytes with its framing */
#define VIEW_FRAMING_BYTES 12    /* SP over tcp: the 8-byte length and PAIR1's 4-byte hop count */
#define VIEW_ID_BITS_GUESS 8     /* an id gap, before the records are in id order */
#define VIEW_NEAR_M 300.0f       /* "near": the finest steps and the highest rate */
#define VIEW_FAR_M 600.0f
/* Damage in an update (docs/protocol.md, "Damage"), as test_view measures
 * it: each list (entries, events) 32 bytes of its own (the header's field,
 * the vector's length, a vtable, alignment); a VesselDamage 28 bytes plus
 * its fill bytes rounded up to 4 (25.6 + that in a list of 40, the
 * vtables shared); a DamageEvent 32. */
#define VIEW_DAMAGE_LIST_BYTES 40u
#define VIEW_DAMAGE_ENTRY_BYTES 28u
#define VIEW_DAMAGE_EVENT_BYTES 32u
/* a Contact struct on the wire */
#define VIEW_CONTACT_BYTES 64u
#define VIEW_DAMAGE_REFRESH_S 1.0 /* every held damaged vessel again at least this often */

typedef struct view_entry {
    uint32_t id;
    int32_t slot;                /* in this tick's frame; -1: not in the world */
    float priority;
    float dist;                  /* to the nearest centre, m */
    uint8_t in_view, known, own;
    uint8_t leave;               /* 0: none; 1: to send; 2: sent in update leave_seq */
    uint8_t dmg_sent;            /* an entry went (with dmg_flags, dmg_holes) since it last entered */
    uint8_t dmg_flags, dmg_holes;
    uint8_t dmg_clear;           /* it was damaged and is no more: a clearing entry is owed */
    uint32_t leave_seq;
    proto_view_base base;        /* the client's base, when known */
} view_entry;

typedef struct view_packet {
    uint32_t seq;
    uint8_t used, keyframe;
    uint8_t damage;              /* it carried damage entries */
    proto_view_record* recs;
    uint32_t count, cap;
    proto_damage_event* events;  /* the damage events it carried (again if it is lost) */
    uint32_t event_count, event_cap;
} view_packet;

typedef struct view_client {
    uint32_t conn;
    int configured;              /* its settings came */
    int echo;                    /* they changed: the next update says what applies */
    proto_view_settings settings;
    double budget_bps;
    uint32_t seq;                /* the newest update sent */
    uint32_t applied;            /* the newest the base holds (acknowledged and applied) */
    uint32_t acked;              /* the newest acknowledged */
    int fallback;                /* keyframes only, until one is acknowledged */
    uint64_t next_keyframe;      /* tick */
    uint64_t last_out;           /* tick of the last update sent */
    uint32_t phase;              /* its updates go on ticks where (tick + phase) % update_every == 0 */
    double tokens;               /* bits the budget has saved */
    double change_tokens;
    view_entry* entries;
    uint32_t entry_count, entry_cap;
    idmap ids;                   /* id -> entry */
    view_packet ring[VIEW_RING];
    /* this tick */
    double centers[PROTO_VIEW_MAX_OWN][2];
    uint32_t center_count, in_view;
    uint64_t* heap;                /* priority keys of the entries in view */
    uint32_t heap_cap;
    proto_view_put* puts;
    uint32_t put_count, put_cap;
    uint8_t* bits;
    uint32_t bits_cap;
    proto_buf out;
    int has_out, out_keyframe, failed;
    uint32_t out_records;
    proto_buf refusal_buf;
    /* damage */
    proto_damage_event* dev;     /* events waiting for the next update, oldest first */
    uint32_t dev_count, dev_cap;
    uint64_t dev_dropped;        /* over the cap (the hub sums them after each encode) */
    uint32_t dmg_clears;         /* entries with dmg_clear (a scan is due when above 0) */
    uint64_t next_damage;        /* tick of the next full damage refresh */
    proto_vessel_damage* dout;   /* this update's entries */
    uint32_t dout_count, dout_cap;
    uint32_t out_events;
    /* contacts of vessels in the view waiting for the next update */
    proto_contact* con;
    uint32_t con_count, con_cap;
} view_client;

/* The tick's vessels, quantised once for every view, and a grid of them. */
typedef struct view_frame_data {
    const view_frame* f;
    proto_vq* vq;
    float* speed;
    uint8_t* ok;                 /* representable (finite, within the position limit) */
    uint32_t cap;
    idmap slots;                 /* id -> index */
    idmap seen[2];               /* id -> low 32 bits of the tick first seen (spawned: < 1 s ago) */
    int seen_cur;
    double x0, z0, cell;
    uint32_t nx, nz;
    uint32_t* cell_start;        /* nx * nz + 1 */
    uint32_t* cell_items;
    uint32_t cell_cap;
} view_frame_data;

struct view_hub {
    view_config cfg;
    uint16_t command_port;       /* announced in keyframes (view_hub_set_command_port) */
    view_check_owner_fn* check;
    void* check_arg;
    view_client** clients;
    uint32_t count, cap;
    idmap conns;                 /* conn -> index */
    view_frame_data fr;
    uint32_t* outputs;
    uint32_t output_count, output_cap;
    uint64_t updates, keyframes, bytes, records, refusals;
    uint32_t update_every;       /* ticks from one update of a view to its next */
    /* damage of this tick (view_hub_set_damage), read by every view */
    const proto_vessel_damage* dmg;
    uint32_t dmg_count;
    const proto_damage_event* dmg_events;
    uint32_t dmg_event_count;
    idmap dmg_ids;               /* id -> index in dmg */
    uint32_t* dmg_prev;          /* the previous encode's damaged ids */
    uint32_t dmg_prev_count, dmg_prev_cap;
    uint32_t* repaired;          /* damaged then, not now */
    uint32_t repaired_count, repaired_cap;
    uint64_t damage_entries, damage_events, damage_events_dropped;
    proto_buf refusal_buf;       /* a refusal to a connection that is no view (view_open refused it) */
};

/* The damage entry of vessel id this tick, or NULL. */
static inline const proto_vessel_damage* view_damage_of(const view_hub* h, uint32_t id) {
    uint32_t i;
    return h->dmg_count && idmap_get(&h->dmg_ids, id, &i) ? &h->dmg[i] : NULL;
}

static inline uint32_t view_damage_bytes(const proto_vessel_damage* d) {
    return VIEW_DAMAGE_ENTRY_BYTES + ((d->compartment_count + 3u) & ~3u);
}

/* Puts a lost update's events back before those waiting (at *at, which
 * moves past them: lost updates come back in order), dropping the oldest
 * beyond the cap. -1 when out of memory. */
int view_requeue_events(view_client* c, const proto_damage_event* ev, uint32_t n, uint32_t* at);

view_entry* view_entry_find(view_client* c, uint32_t id);
view_entry* view_entry_add(view_client* c, uint32_t id);

/* view_frame.c */
int view_frame_build(view_hub* h, const view_frame* f);
void view_frame_free(view_frame_data* fr);
/* Calls fn(arg, index, distance) for each representable vessel within r of (x, z). */
typedef int view_visit_fn(void* arg, uint32_t index, float dist);
int view_frame_query(const view_frame_data* fr, double x, double z, double r, view_visit_fn* fn, void* arg);
/* 1 when the vessel first showed up less than a second ago. */
int view_frame_spawned(const view_hub* h, uint32_t id);

/* view_client.c: this tick's update of one view, into c->out. -1 when out of memory. */
int view_client_tick(view_hub* h, view_client* c);

#endif
