// SPDX-License-Identifier: MIT
/* The world's layout, shared by world.c (storage, types, vessels, API),
 * world_records.c (checkpoint records), world_step.c (blocks and the
 * passes) and the world's other files. Not public API. */
#ifndef NAVAL_WORLD_INTERNAL_H
#define NAVAL_WORLD_INTERNAL_H

#include "body.h"
#include "dynamics.h"
#include "floater.h"
#include "breaking.h"
#include "hydro.h"
#include "naval/columns.h"
#include "shape.h"
#include "naval/compartment.h"
#include "naval/world.h"
#include "grow.h"
#include "idmap.h"
#include "keysort.h"

/* A run of one vessel's vertices or triangles: the unit of parallel work. */
typedef struct world_block {
    uint32_t slot;
    uint32_t first;
    uint32_t count;
} world_block;

typedef struct world_type {
    nv_hull hull;
    body body_template; /* mass, inverse mass, inertia and its inverse */
    shape shape;        /* the convex hull: contacts between vessels */
    shape* pieces;      /* the pieces it collides as (shape_build_pieces); NULL: shape alone */
    shape_region* piece_region; /* per piece: where it was cut from (its shared faces); NULL with pieces */
    uint32_t piece_count; /* 1 when pieces is NULL */
    double* piece_sphere; /* 4 per piece: its corners' bounding sphere, centre (body frame) and radius */
    char name[WORLD_NAME_MAX];
    nv_vessel_dynamics dynamics;   /* as given (hydrostatics only until set) */
    dynamics_model* model;      /* NULL: hydrostatics only, no actuators */
    nv_columns_model* columns;     /* NULL: no column model */
    double float_height;        /* CG above the waterline floating upright on flat water (floater model) */
    int can_float;              /* float_height is known: the hull does not sink */
    double floater_along;       /* the floater model's sample reach ahead and astern, m (the waterplane's) */
    double floater_across;      /* ... and to each side, m */
    double radius;              /* m, the farthest vertex from the CG */
    nv_compartment_set* compartments; /* NULL: none (cannot be breached) */
} world_type;

#define WORLD_MAX_PIECES 16u /* collision pieces (parts of the mesh, or cut from one) per hull type */
/* A part is cut into pieces where its surface lies deeper inside its
 * convex hull than this (m) or WORLD_PIECE_HOLLOW_BEAM of its beam,
 * whichever is more. The built-in hulls stay whole (their deepest: the
 * ship's 0.20 m, the freighter's 0.44 m at the forefoot, 0.05 of its
 * beam 0.88 m); a notch or a tunnel a boat could enter is cut out. */
#define WORLD_PIECE_HOLLOW 0.25
#define WORLD_PIECE_HOLLOW_BEAM 0.05

/* Piece k of type t's collision shape. */
static inline const shape* world_type_piece(const world_type* t, uint32_t k) { return t->pieces ? &t->pieces[k] : &t->shape; }

/* A static closed mesh vessels collide with (its convex hull). */
typedef struct world_structure {
    shape shape;     /* about `position`, in the structure's frame */
    nv_vec3 position;   /* world, m */
    nv_mat3 rotation;   /* structure -> world: the heading about +y */
    double heading;  /* radians */
} world_structure;

/* The ground and the contacts with it (world_ground.c). */
typedef struct world_ground {
    const nv_terrain* terrain;           /* NULL: open deep sea, no contacts */
    nv_world_contact_params params;
    struct contact_point** points;    /* per worker, point_capacity each */
    uint32_t point_capacity;          /* the most vertices of a hull type */
    uint32_t event_count;             /* compacted to the front of sv.ground_event */
} world_ground;

/* Of the pair solve's graph colouring, one bit each; pairs on a body
 * that has them all go to the overflow. */
#define PAIR_COLOURS 32

/* Contacts between vessels (world_pairs.c): scratch of the pass, grown as
 * needed, and which pairs touched in the last step (for events). */
typedef struct world_pairs {
    struct world_pair* pairs; /* the candidates, in slot order */
    uint32_t pair_count, pair_capacity;
    uint64_t *keys, *tmp_keys; /* the candidates as slot a << 32 | slot b, and the sort's room */
    uint32_t keys_capacity, tmp_keys_capacity;
    /* the grid: vessels taking part sorted by cell, slot order within one */
    double min_x, min_z, inv_cell;
    uint32_t grid_w, grid_h;
    uint32_t* cell_start; /* grid_w * grid_h + 1 */
    uint32_t cell_capacity;
    uint32_t *slots, *cell_of; /* sorted entries: index into ent, and cell */
    uint32_t entry_count;      /* entities taking part this step */
    uint32_t candidate_count;  /* pairs of entities whose swept spheres meet */
    struct pairs_entity* ent;  /* the entities taking part, in entity order */
    uint32_t ent_capacity;
    uint32_t sorted_capacity;
    /* fixed blocks of vessels, entries or candidates (PAIRS_BLOCK each,
     * whatever the thread count): what each found, and where its share of
     * the next array starts */
    struct pairs_block* blocks;
    uint32_t block_capacity;
    keysort sort; /* the grid's and the candidates' radix sort */
    struct contact_body* bodies;
    uint32_t body_count, body_capacity;
    uint32_t static_body; /* the structures' shared body this step, or UINT32_MAX */
    uint32_t* body_slot;
    uint32_t slot_capacity;
    /* per body, six vectors: how far the solve's substeps moved it from
     * the integrated pose (position, rotation vector), its velocity and
     * angular velocity as the integrator left them, and a substep's share
     * of what the step's forces changed in its velocity and angular
     * momentum */
    nv_vec3* motion;
    uint32_t motion_capacity;
    uint32_t* body_colours; /* per body: the colours its pairs took (one bit each) */
    uint32_t body_colours_capacity;
    uint32_t* coloured; /* the touching pairs' indices by colour, the overflow last */
    uint32_t coloured_capacity;
    uint32_t colour_start[PAIR_COLOURS + 2];
    uint32_t stage, stage_first; /* the solve's pass under way: which stage, which colour's first entry */
    double substep_dt, rewind; /* the substep's length; how much of the step is still ahead of it (s) */
    double gap_rate;           /* 1/s: a gap g may close at g x this */
    const struct contact_soft* soft; /* the overlap's spring over one substep */
    uint64_t *touching, *touching_next; /* id pairs (low << 32 | high) touching, sorted */
    uint32_t touching_count, touching_capacity, next_capacity;
    /* each touching pair's normal, from the lower id to the higher: where
     * the next step's narrowphase starts its search (shape_penetration_from) */
    nv_vec3 *touching_normal, *normal_next;
    uint32_t normal_capacity, normal_next_capacity;
    struct pairs_touch* touch_sort; /* pairs_record's scratch: keys with their normals, to sort */
    uint32_t touch_sort_capacity;
    nv_world_contact_event* events; /* the step's new contacts: the ground's, then the pairs' */
    uint32_t event_count, event_capacity;
} world_pairs;

/* Damage events (world_damage.c): the breaches made between steps wait
 * in `pending` for the next step, which puts them first in `events`. */
typedef struct world_damage {
    nv_world_damage_event *events, *pending;
    uint32_t event_count, event_capacity, pending_count, pending_capacity;
} world_damage;

/* Vessel ids and handles. An id is a vessel's public name (the API, the
 * wire, checkpoints, record logs): 32 bits, issued in order, never reused,
 * so a server that runs for months issues far more ids than it ever holds
 * vessels. Inside the core a vessel is reached through a generational
 * handle, as Box2D v3 does with b2BodyId: an index into `entries`, whose
 * entry holds the vessel's slot while it lives, and a generation, odd while
 * the entry is in use and bumped when its vessel goes, so a handle kept past
 * a despawn is recognised as stale rather than reaching whichever vessel
 * took the entry or the slot next. Freed entries chain into a free list and
 * are reused first: the table never holds more entries than the most
 * vessels alive at once. At the edge the project's id map (base/idmap.h:
 * open addressing, no tombstones, so lookups stay short however many
 * despawns) takes an id to its entry in O(1); it holds only live ids and
 * shrinks with the fleet. Nothing here is read inside a step. */
typedef struct world_handle {
    uint32_t index, generation;
} world_handle;
#define WORLD_HANDLE_NONE ((world_handle){UINT32_MAX, 0})
#define WORLD_ID_NONE IDMAP_EMPTY /* no vessel has it: the map's empty key */

typedef struct world_handle_entry {
    uint32_t slot;       /* in use: the vessel's slot; free: the next free entry (UINT32_MAX ends the list) */
    uint32_t generation; /* odd while in use; wraps after 2^31 reuses of one entry */
} world_handle_entry;

typedef struct world_ids {
    world_handle_entry* entries;
    uint32_t entry_count;    /* entries made, in use or free: at most the peak live fleet */
    uint32_t entry_capacity; /* room */
    uint32_t free_head;      /* first free entry, UINT32_MAX: none */
    idmap map;               /* live id -> entry: load at most 1/2, halves below 1/8 */
} world_ids;
enum { WORLD_IDS_MIN_MAP = IDMAP_MIN_CAPACITY, WORLD_IDS_MIN_ENTRIES = 64 };

/* Vessel state as structure of arrays, indexed by slot: every array is
 * listed once here, X(type, name), and the struct, its growth, the move
 * of a slot, the frees and the memory count are all derived from the
 * list. Every array has `capacity` entries; they are grown together
 * outside the tick. */
#define WORLD_VESSEL_FIELDS(X)                                                                                 \
    X(uint32_t, id) X(uint32_t, type) X(uint32_t, flags)                                                       \
    X(double, px) X(double, py) X(double, pz)                                                                  \
    X(double, qw) X(double, qx) X(double, qy) X(double, qz)                                                    \
    X(double, vx) X(double, vy) X(double, vz)                                                                  \
    X(double, lx) X(double, ly) X(double, lz) /* angular momentum: the integrated state */                     \
    X(double, wx) X(double, wy) X(double, wz) /* angular velocity, derived */                                  \
    X(double, fx) X(double, fy) X(double, fz) X(double, tx) X(double, ty) X(double, tz)                        \
    X(float, area)                                                                                             \
    X(float, throttle_cmd) X(float, rudder_cmd) /* commanded */                                                \
    X(float, throttle) X(float, rudder)         /* actual, rate limited */                                     \
    X(float, water_vy)                          /* the surface's vertical velocity at the CG, this step */      \
    X(uint16_t*, slam)                          /* half float per triangle (types with slamming), else NULL */ \
    X(uint32_t, model)                          /* world_model */                                              \
    X(uint32_t, vertex_offset)                  /* first entry of the vessel's heights */                       \
    X(uint32_t, tri_block_first)                /* first triangle block of the vessel */                        \
    X(uint32_t, tri_block_count)                                                                               \
    X(uint32_t, contact_points)                 /* last step, on the ground */                                  \
    X(float, penetration)                       /* last step, the deepest below the ground, m */ \
    X(nv_flood_state*, flood)                      /* water and holes (naval/compartment.h), else NULL */ \
    X(uint32_t, handle)                         /* the vessel's entry in world_ids (not carried: bound again) */

typedef struct world_vessels {
#define WORLD_VESSEL_ARRAY(type, name) type* name;
    WORLD_VESSEL_FIELDS(WORLD_VESSEL_ARRAY)
#undef WORLD_VESSEL_ARRAY
} world_vessels;

/* Per-slot scratch of the step, sized with the vessels (`capacity`) but
 * not part of a vessel's state: nothing moves with a slot. */
#define WORLD_SCRATCH_FIELDS(X)                                              \
    X(uint8_t, lod_next)      /* the model the level-of-detail pass chose */ \
    X(uint32_t, floater_slot) /* slots on the floater model, in slot order */ \
    X(uint8_t, ground_struck) /* the vessel's ground_event is new this step */ \
    X(nv_world_contact_event, ground_event)                                      \
    X(float, pair_margin) /* m: the shape's sweep, this step's reach */      \
    X(float, pair_reach)  /* m: the swept bounding sphere; 0 takes no part */ \
    X(uint32_t, pair_body) /* the pair solver's body, or UINT32_MAX */   \
    X(nv_vec3, force_velocity) /* what the step's forces changed in the velocity (the pair solve spreads it) */ \
    X(nv_vec3, force_momentum) /* and in the angular momentum */ \
    X(uint8_t, capsized_now) /* heel passed 90 degrees in this step */   \
    X(breaking_sections, breaker) /* the breaking crests along the hull (breaking.h); zeros where none breaks */ \
    X(uint64_t, became_full) /* compartments that filled in this step */

typedef struct world_scratch_arrays {
#define WORLD_VESSEL_ARRAY(type, name) type* name;
    WORLD_SCRATCH_FIELDS(WORLD_VESSEL_ARRAY)
#undef WORLD_VESSEL_ARRAY
} world_scratch_arrays;

/* Bytes one slot takes in all the arrays. */
#define WORLD_VESSEL_SIZE(type, name) +sizeof(type)
enum { WORLD_VESSEL_BYTES = 0 WORLD_VESSEL_FIELDS(WORLD_VESSEL_SIZE) WORLD_SCRATCH_FIELDS(WORLD_VESSEL_SIZE) };
#undef WORLD_VESSEL_SIZE
#define WORLD_VESSEL_ONE(type, name) +1
enum { WORLD_VESSEL_ARRAYS = 0 WORLD_VESSEL_FIELDS(WORLD_VESSEL_ONE) };
#undef WORLD_VESSEL_ONE

/* Mooring lines for the next step (world_lines.c): set by vessel id
 * between steps, resolved to slots and sorted by slot when the step
 * begins, dropped when it ends. */
typedef struct world_line_entry {
    uint32_t id, slot;
    nv_world_line line;
} world_line_entry;
typedef struct world_lines {
    world_line_entry* entries;
    uint32_t count, capacity;
} world_lines;

struct nv_world {
    int locked; /* inside nv_world_step: the between-steps calls are refused (debug builds abort) */
    nv_world_config cfg;
    double dt;
    nv_jobs* pool;
    uint32_t threads;
    nv_world_water water;
    nv_vec3 wind;          /* m/s, world: the air drag's reference */
    nv_water_flat flat;

    world_type* types;
    uint32_t type_count;

    world_vessels v;
    world_scratch_arrays sv;
    uint32_t count, capacity;
    double *player_x, *player_z; /* players' positions, gathered before the level-of-detail pass */
    uint32_t player_total, player_capacity; /* vessels flagged WORLD_VESSEL_PLAYER; room in player_x/z */
    uint32_t player_gathered;               /* in player_x/z this step */
    uint32_t floater_count; /* entries of sv.floater_slot */

    world_ids ids;    /* id -> handle -> slot */
    uint32_t next_id; /* the next spawn's id: ids are never reused */

    /* Totals for the vessels present; the tables below are reserved at spawn
     * time so that the rebuild between steps never allocates or fails. */
    uint64_t need_heights, need_vertex_blocks, need_tri_blocks;
    float* heights; /* every vessel's vertex heights, back to back */
    uint32_t height_capacity;
    world_block* vertex_blocks;
    uint32_t vertex_block_count, vertex_block_capacity;
    world_block* tri_blocks;
    hydro_sums* tri_sums;
    uint32_t tri_block_count, tri_block_capacity;
    int blocks_dirty;

    hydro_scratch* scratch; /* one per worker */
    int timing_detail;
    double (*worker_ms)[8];  /* per worker: vertex and triangle thread time (a cache line each) */
    void** column_scratch;  /* one per worker, column_scratch_bytes each */
    size_t column_scratch_bytes;
    nv_world_lod lod;
    floater_batch* floaters;  /* one per worker, FLOATER_CHUNK each */
    floater_scratch* floater_scratch;

    world_ground ground;
    world_lines lines;
    world_pairs pairs;
    world_damage damage;
    world_structure* structures;
    uint32_t structure_count, structure_capacity;

    uint64_t tick;
    double time;
    nv_world_timing timing;

    const nv_world_recorder* recorder; /* nv_world_set_recorder; NULL: not recording */
    void* recorder_arg;
};

/* The attached recorder's callback for operation `name` (naval/world.h's
 * NV_WORLD_OPS), with the fields as designated initializers; after the
 * change succeeded. */
#define WORLD_RECORD(w, name, ...)                                                  \
    do {                                                                            \
        const nv_world_recorder* rec_ = (w)->recorder;                              \
        if (rec_ && rec_->name) {                                                   \
            const nv_world_op_##name op_ = {__VA_ARGS__};                            \
            rec_->name((w)->recorder_arg, (w)->tick, &op_);                          \
        }                                                                           \
    } while (0)

/* A hull small enough for one job to run both its passes, its vertex
 * heights in the worker's scratch (none kept per vessel). */
static inline int world_hull_fuses(const nv_world* w, const nv_hull* h) {
    return h->vertex_count <= w->cfg.vertex_block && h->triangle_count <= w->cfg.triangle_block;
}

/* The live handle of a vessel id, WORLD_HANDLE_NONE when there is none. */
static inline world_handle world_handle_of(const nv_world* w, uint32_t id) {
    uint32_t h;
    if (!idmap_get(&w->ids.map, id, &h)) return WORLD_HANDLE_NONE; /* WORLD_ID_NONE is nobody's id */
    return (world_handle){h, w->ids.entries[h].generation};
}

/* Slot of the vessel a handle names, UINT32_MAX when the handle is stale
 * (its vessel is gone, whatever has the entry or the slot now). */
static inline uint32_t world_handle_slot(const nv_world* w, world_handle h) {
    const world_ids* t = &w->ids;
    return h.index < t->entry_count && t->entries[h.index].generation == h.generation && (h.generation & 1u)
               ? t->entries[h.index].slot
               : UINT32_MAX;
}

/* Slot of a vessel id, UINT32_MAX when there is none. */
static inline uint32_t world_slot_of(const nv_world* w, uint32_t id) {
    return world_handle_slot(w, world_handle_of(w, id));
}

/* Room for one more live id (between steps), so that world_bind_id
 * cannot fail: NV_ENOMEM else, nothing changed. */
int world_ids_reserve(nv_world* w, nv_error* err);
/* Gives the vessel in `slot` (v.id[slot] == id, an id no live vessel has)
 * a fresh handle and maps its id to it; after world_ids_reserve. */
void world_bind_id(nv_world* w, uint32_t id, uint32_t slot);
/* Frees the handle of the vessel in `slot` (its generation moves on) and
 * drops its id from the map, which may shrink. The slot is left as is. */
void world_unbind_slot(nv_world* w, uint32_t slot);
void world_ids_free(world_ids* t);

body world_load_body(const nv_world* w, uint32_t s);
/* The share of its type's added mass vessel s carried through this step's
 * integration (dynamics_added_share of its wetted area; a floater, which
 * keeps no area, all of it): what the ground's contact solve takes. */
double world_added_share(const nv_world* w, uint32_t s);
/* A parallel-for over [0, count) on the world's pool (or inline). */
void world_run(nv_world* w, uint32_t count, uint32_t grain, nv_jobs_range_fn* fn);

static inline int world_body_is_finite(const body* b) {
    return v3_is_finite(b->position) && v3_is_finite(b->velocity) && v3_is_finite(b->angular_momentum) &&
           v3_is_finite(b->angular_velocity) && isfinite(b->orientation.w) && isfinite(b->orientation.x) &&
           isfinite(b->orientation.y) && isfinite(b->orientation.z);
}
/* world_lod.c: the automatic switches before a step's passes (a job
 * over vessels, then the switches in slot order), the forces of a vessel
 * on columns (world frame, about its CG), and the floaters' pass. */
void world_lod_update(nv_world* w);
void world_columns_force(nv_world* w, uint32_t s, uint32_t worker, const body* b, nv_vec3* force, nv_vec3* torque,
                         double* submerged_area);
void world_lod_free(nv_world* w);
/* Jobs over chunks of FLOATER_CHUNK floater vessels (world_floater_chunks):
 * the surface follower moves their poses, no forces. */
uint32_t world_floater_chunks(const nv_world* w);
void world_floater_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker);
int world_lod_alloc(nv_world* w, nv_error* err);
/* Room for one more player's position (between steps: the pass never
 * allocates). */
int world_reserve_player(nv_world* w, nv_error* err);
/* world.c's storage, shared with world_records.c: room for `need` vessel
 * slots; room in the per-vertex and per-block tables for one more vessel
 * of h; a vessel of h counted in (sign +1) or out (-1) of those tables; a
 * vessel's slamming memory (one half float per triangle, padded for the
 * force kernels' whole lanes). */
int world_reserve_vessels(nv_world* w, uint32_t need, nv_error* err);
int world_reserve_for(nv_world* w, const nv_hull* h, nv_error* err);
void world_count_vessel(nv_world* w, const nv_hull* h, int sign);
uint16_t* world_slam_alloc(const nv_hull* h);
/* The floater model's reference height for a new hull type. */
void world_lod_prepare_type(nv_world* w, uint32_t type);
void world_store_body(nv_world* w, uint32_t s, const body* b);

/* world_ground.c. Whether the ground can reach any vertex of the vessel at
 * pos within `reach` metres (its footprint's highest ground against its
 * lowest possible point): far from it, nothing below costs more. */
int world_ground_near(const nv_world* w, const world_type* t, nv_vec3 pos, double reach);
/* The water a vessel on columns at pos floats on: the world's, or near
 * the ground the world's with none over dry ground, made in `room` (the
 * caller's: nothing is allocated). */
typedef struct world_dry_surface_room {
    void* space[7];
} world_dry_surface_room;
const nv_water_surface* world_ground_water(const nv_world* w, const world_type* t, nv_vec3 pos, world_dry_surface_room* room);
/* The surf: over ground `ground` (elevation) a wave can stand no higher
 * than NV_WORLD_SURF_BREAKING times the still water's depth (McCowan's
 * breaking limit, include/naval/world.h); the largest crest or trough
 * there, m from the mean level, half that height (0 over dry ground). */
double world_surf_limit(double mean_level, double ground);
/* The vertex pass's heights near the ground: the wave cut to the surf's
 * limit (world_surf_limit), and over dry ground above the higher of the
 * water and the ground (a vessel world_ground_near reaches). */
void world_ground_mask(const nv_world* w, const nv_hull* h, uint32_t first, uint32_t count, nv_vec3 pos, const nv_mat3* r,
                       float* height);
/* Integrates the vessel in slot s (forces in the world frame) with its
 * contacts on the ground solved between velocities and positions; sets its
 * contact fields, flag and event. */
void world_ground_integrate(nv_world* w, uint32_t s, uint32_t worker, body* b, nv_vec3 force, nv_vec3 torque);
/* Mooring lines (world_lines.c): the ids to slots, in slot order, before
 * the integration; the pull of slot s's lines on body b, body frame about
 * its CG, added to *force and *torque (jobs: reads only); all dropped
 * after the step. */
void world_lines_resolve(nv_world* w);
void world_lines_pull(const nv_world* w, uint32_t s, const body* b, nv_vec3* force, nv_vec3* torque);
void world_lines_end_step(nv_world* w);
void world_lines_free(nv_world* w);
/* After the integration pass: the new contacts to the front, slot order. */
void world_ground_publish(nv_world* w);
/* Room for every vertex of a new hull type in each worker's points. */
int world_ground_reserve(nv_world* w, uint32_t vertex_count, nv_error* err);
void world_ground_free(nv_world* w);
/* world_pairs.c: contacts between vessels, after the integration pass. */
void world_pairs_step(nv_world* w);
void world_pairs_free(nv_world* w);
/* The pairs touching after the last step, sorted (a checkpoint keeps them:
 * a pair still touching after a restore begins no new contact), and
 * setting them again; -1 when out of memory. */
const uint64_t* world_pairs_touching(const nv_world* w, uint32_t* count);
/* Their normals, one per key, from the lower id to the higher. */
const nv_vec3* world_pairs_touching_normals(const nv_world* w);
int world_pairs_set_touching(nv_world* w, const uint64_t* keys, const nv_vec3* normals, uint32_t count);
/* world_damage.c: after the step (unlocked): holes from contacts, the
 * step's damage events, sunk vessels removed. */
void world_damage_step(nv_world* w);
/* nv_world_despawn without recording it: the world removing a vessel itself. */
int world_despawn(nv_world* w, uint32_t id, nv_error* err);
void world_damage_free(nv_world* w);

/* The "between steps only" rule of world.h, checked in debug builds as
 * Box2D asserts world->locked: a call from inside a step (the water's
 * update hook, a job) would tear the arrays the passes are reading. */
#ifndef NDEBUG
void world_check_unlocked(const nv_world* w, const char* function);
#define WORLD_CHECK_UNLOCKED(w) world_check_unlocked((w), __func__)
#else
#define WORLD_CHECK_UNLOCKED(w) ((void)(w))
#endif

#endif
