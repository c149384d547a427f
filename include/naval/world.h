// SPDX-License-Identifier: MIT
/* The world: hull types shared by many vessels, vessels as structure-of-
 * arrays state, and the fixed-step pipeline that advances them all:
 *
 *   0. levels of detail — jobs over vessels: each one's model from its
 *                      distance to the nearest player (when enabled), then
 *                      the blocks are cut again if a model changed
 *   1. water update (the ocean, split into jobs by its owner's hook)
 *   2. vertex pass   — jobs over vertex blocks: signed heights of every vertex
 *   3. triangle pass — jobs over triangle blocks: cut + pressure force, one
 *                      partial sum per block
 *   4. integration   — jobs over vessels: block sums added in block order,
 *                      gravity, damping, semi-implicit Euler with the ground's
 *                      contacts solved between velocities and pose,
 *                      non-finite check; floaters in batches of FLOATER_CHUNK,
 *                      one water query each
 *   5. contacts      — between vessels: grid broadphase and MPR narrowphase
 *                      as jobs, one solve in pair order
 *
 * Blocks depend only on the vessels, never on the thread count, and every
 * sum is reduced in a fixed order: the state after N steps is bit-identical
 * for any number of threads. */
#ifndef NAVAL_WORLD_H
#define NAVAL_WORLD_H

#include <stddef.h>
#include <stdint.h>

#include "hull.h"
#include "jobs.h"
#include "mass.h"
#include "mesh.h"
#include "nv_error.h"
#include "terrain.h"
#include "vecmath.h"
#include "vessel_type.h"
#include "water.h"
#include "naval/nv_api.h"

NV_API_BEGIN

#define WORLD_MAX_HULL_TYPES 1024u
#define WORLD_MAX_VESSELS (1u << 24)
#define WORLD_NAME_MAX 48

enum {
    WORLD_VESSEL_FROZEN = 1u << 0, /* its state went non-finite or out of the world (world.position of
                                      naval/ranges.h): kept at its last state, at rest */
    WORLD_VESSEL_PLAYER = 1u << 1, /* levels of detail are chosen by distance from these */
    WORLD_VESSEL_GROUNDED = 1u << 2, /* touched the ground (seabed, beach, land) in the last step */
};

/* How a vessel meets the water (its level of detail): Kerner's
 * per-triangle model, Zephyr columns (its type must have them), or a
 * floater that follows the surface with no rigid-body forces. */
typedef enum nv_world_model {
    WORLD_MODEL_MESH = 0,
    WORLD_MODEL_COLUMNS = 1,
    WORLD_MODEL_FLOATER = 2,
} nv_world_model;

/* Automatic levels of detail: a vessel within `mesh_within` metres
 * (horizontal) of the nearest player vessel gets the mesh model, within
 * `columns_within` the columns (when its type has them), farther the
 * floater. A vessel moves to a cheaper model only once it is `hysteresis`
 * (a fraction) beyond the threshold, so it does not flap on the border.
 * Players always get the mesh. */
typedef struct nv_world_lod {
    int enabled;
    double mesh_within;    /* m (300) */
    double columns_within; /* m (1500) */
    double hysteresis;     /* (0.1) */
} nv_world_lod;

nv_world_lod nv_world_lod_default(void);

typedef struct nv_world_config {
    double tick_hz;          /* fixed step rate, Hz */
    double water_density;    /* kg/m^3 */
    double gravity;          /* m/s^2 */
    double linear_damping;   /* 1/s: F = -c m v, beside the hydrodynamic forces (0 leaves them alone) */
    double angular_damping;  /* 1/s: tau = -c I w */
    uint32_t vertex_block;   /* vertices per vertex-pass block */
    uint32_t triangle_block; /* triangles per triangle-pass block */
    double sunk_removal_depth; /* m: a sunk vessel whose CG passes this depth below the still water
                                  is removed (WORLD_DAMAGE_REMOVED); 0: never */
} nv_world_config;

nv_world_config nv_world_config_default(void);

/* The water the world floats on. `update` (may be NULL) advances it to a
 * time before each step's passes and may use the job pool; `surface` is only
 * read during the passes. */
typedef struct nv_world_water {
    const nv_water_surface* surface;
    void (*update)(void* ctx, double time, nv_jobs* pool);
    void* ctx;
} nv_world_water;

typedef struct nv_world_vessel_state {
    uint32_t id;
    uint32_t type;
    uint32_t flags;
    nv_vec3 position;          /* CG, world */
    nv_quat orientation;
    nv_vec3 velocity;
    nv_vec3 angular_velocity;
    nv_vec3 force;             /* last step: water and air forces, world, N (no gravity) */
    nv_vec3 torque;            /* last step: about the CG, N m */
    double submerged_area;  /* last step, m^2 */
    double throttle, rudder;             /* commanded, [-1, 1] */
    double throttle_actual, rudder_actual; /* after the type's rate limits */
    nv_world_model model;
    uint32_t contact_points; /* last step: hull points pressed on the ground, and vessels touched */
    double penetration;      /* last step: the deepest of them below the ground, or into a vessel, m */
} nv_world_vessel_state;

typedef struct nv_world_timing {
    /* Wall time of each pass; step_ms is all of them. lod_ms: the choice
     * of models and cutting the blocks again (after spawns too). */
    double lod_ms, water_ms, vertex_ms, triangle_ms, integrate_ms, step_ms;
    /* Contacts between vessels (broadphase, narrowphase, solve); part of
     * step_ms. Contacts with the ground are inside integrate_ms. */
    double contacts_ms;
    /* With nv_world_set_timing_detail on: thread time in the per-vertex and
     * per-triangle work, summed over the workers (a small hull runs both
     * in one job, so the wall times above cannot split them). */
    double vertex_cpu_ms, triangle_cpu_ms;
} nv_world_timing;

typedef struct nv_world nv_world;

/* `pool` is borrowed (NULL runs everything on the caller's thread). */
int nv_world_create(nv_world** out, const nv_world_config* cfg, nv_jobs* pool, nv_error* err);
void nv_world_destroy(nv_world* w);
/* Default: flat water at height 0. The surface must outlive the world. */
void nv_world_set_water(nv_world* w, const nv_world_water* water);

int nv_world_add_hull_type(nv_world* w, const char* name, const nv_mesh* m, const nv_mass_spec* spec, uint32_t* type_out,
                           nv_error* err);
uint32_t nv_world_hull_type_count(const nv_world* w);
const nv_hull* nv_world_hull_type(const nv_world* w, uint32_t type);
const char* nv_world_hull_type_name(const nv_world* w, uint32_t type);
/* Index of the type with that name, or -1. */
int nv_world_find_hull_type(const nv_world* w, const char* name);

/* A hull type's forces and actuators (default: pure hydrostatics, no
 * actuators). Between steps only; vessels of the type keep their state. */
int nv_world_set_type_dynamics(nv_world* w, uint32_t type, const nv_vessel_dynamics* d, nv_error* err);
const nv_vessel_dynamics* nv_world_type_dynamics(const nv_world* w, uint32_t type);
/* The type's particulars (upright, level, still water) and its roll damper
 * (naval/roll_damping.h), as its dynamics computed them; NULL without
 * dynamics, or without roll damping (a hull that cannot float upright). */
const struct nv_particulars* nv_world_type_particulars(const nv_world* w, uint32_t type);
const struct nv_roll_damper* nv_world_type_roll_damper(const nv_world* w, uint32_t type);
/* Its heave and pitch wave damper (naval/heave_pitch.h), or NULL when the
 * type has none ("heave_pitch_damping" off, or no upright stability). */
const struct nv_heave_pitch_damper* nv_world_type_heave_pitch_damper(const nv_world* w, uint32_t type);
/* A hull type's watertight compartments (naval/compartment.h, body frame
 * about the CG, e.g. from nv_vessel_type_compartments): the world takes
 * *cs over (it is left empty). Between steps, before any breach. */
int nv_world_set_type_compartments(nv_world* w, uint32_t type, nv_compartment_set* cs, nv_error* err);
/* The type's compartments, or NULL. */
const nv_compartment_set* nv_world_type_compartments(const nv_world* w, uint32_t type);
/* A hole of `area` m^2 at `point` (body frame about the CG) in vessel id's
 * hull: from the next step water flows through it by the orifice law into
 * the compartment that holds the point (nv_flood_step, on mesh and column
 * models). Refused with the reason: no such vessel, a type without
 * compartments, a point not on or in the hull, a bad area, too many holes. */
int nv_world_breach(nv_world* w, uint32_t id, nv_vec3 point, double area, nv_error* err);
/* The vessel's flooding (zeroed when it has none); -1 when no such vessel. */
int nv_world_flooding(const nv_world* w, uint32_t id, nv_flood_state* out);
/* The vessel's flooding without a copy (NULL: none, or no such vessel);
 * valid until the world next changes. */
const nv_flood_state* nv_world_flood_of(const nv_world* w, uint32_t id);
/* The damaged vessels' ids in slot order, at most cap of them; returns how
 * many there are. */
uint32_t nv_world_damaged_ids(const nv_world* w, uint32_t* ids, uint32_t cap);
/* How many vessels have been breached (or had their pumps set). */
uint32_t nv_world_breached_count(const nv_world* w);
/* Switches vessel id's pumps (the type's compartment_damage.pump_rate from
 * each compartment) on or off. Refused for a type without compartments. */
int nv_world_set_pumps(nv_world* w, uint32_t id, int on, nv_error* err);
/* Sets world_config.sunk_removal_depth (world.sunk_removal_depth of
 * naval/ranges.h). Between steps. */
int nv_world_set_sunk_removal_depth(nv_world* w, double depth, nv_error* err);
/* Heeled past 90 degrees about the body's own x axis (a hull standing on
 * its bow or stern, trimmed 60 degrees or more, has not capsized):
 * nv_statics_capsized, the one definition. */
int nv_world_capsized(nv_quat orientation);

/* What damage did, in order: the breaches applied before the step
 * (nv_world_breach, in call order), then the holes its contacts made (a
 * contact closing faster than the type's breach_speed), then per vessel in
 * slot order: compartments that became full (>= FLOOD_FULL of their
 * volume), a capsize (any vessel: heel passing 90 degrees), sunk (a breached
 * vessel that cannot float: its compartments' volume less the water in
 * them, times the water's density, is less than its mass; or one that has
 * lain wholly under the still water, its highest vertex below y = 0, for
 * 5 s in a row: a wave trough or a sea over the deck sinks nothing; once,
 * it stays), removed (sunk past sunk_removal_depth: the vessel is gone
 * after the step). */
typedef enum nv_world_damage_kind {
    WORLD_DAMAGE_BREACH = 0,
    WORLD_DAMAGE_FULL,
    WORLD_DAMAGE_CAPSIZED,
    WORLD_DAMAGE_SUNK,
    WORLD_DAMAGE_REMOVED,
} nv_world_damage_kind;
typedef struct nv_world_damage_event {
    uint64_t tick;        /* the step's tick (nv_world_tick after it) */
    uint32_t id;          /* the vessel */
    uint32_t kind;        /* world_damage_kind */
    uint32_t compartment; /* breach, full: which one; else UINT32_MAX */
    double area;          /* breach: the hole, m^2 */
    nv_vec3 point;           /* breach: where, body frame about the CG */
} nv_world_damage_event;
/* The last step's damage events; valid until the next step. */
const nv_world_damage_event* nv_world_damage_events(const nv_world* w, uint32_t* count);
/* Gives a hull type the column model (columns in mesh coordinates, see
 * include/naval/columns.h), so its vessels can use WORLD_MODEL_COLUMNS. Between
 * steps. */
struct nv_columns_set;
int nv_world_set_type_columns(nv_world* w, uint32_t type, const struct nv_columns_set* columns, nv_error* err);
/* Builds the columns from the type's own hull (nx x nz columns, their
 * density from the type's mass) and sets them. */
int nv_world_build_type_columns(nv_world* w, uint32_t type, uint32_t nx, uint32_t nz, nv_error* err);
/* Between steps: the vessel keeps its pose and velocities across a switch. */
int nv_world_set_vessel_model(nv_world* w, uint32_t id, nv_world_model model, nv_error* err);
int nv_world_set_player(nv_world* w, uint32_t id, int player, nv_error* err);
/* NULL turns automatic levels of detail off (vessels keep their models). */
void nv_world_set_lod(nv_world* w, const nv_world_lod* lod);

/* Wind over the water, world frame, m/s (air drag). Default: still air. */
void nv_world_set_wind(nv_world* w, nv_vec3 wind);

/* Contacts with the ground: hull vertices below (or about to pass below)
 * the terrain are held on it by soft constraints with Coulomb friction,
 * and where the ground rises above the water there is no water (the
 * vertex pass sees the higher of the two surfaces). See docs/contacts.md. */
typedef struct nv_world_contact_params {
    int enabled;            /* 0: no contacts at all (1) */
    double ground_friction; /* Coulomb coefficient, hull on the ground (0.5: steel on sand) */
    double vessel_friction; /* hull on hull (0.3: wet steel) */
    double restitution;     /* of impacts between vessels faster than 1 m/s, [0, 1] (0.2) */
    double hertz;           /* the ground's overlap spring; 0: tick_hz / 4, at most 30 (0). Between
                               vessels: a quarter of the solve's substep rate, critically damped */
    double damping_ratio;   /* of the ground's spring (10: no bounce) */
    double push_speed;      /* m/s, the fastest an overlap is pushed out (2) */
} nv_world_contact_params;

nv_world_contact_params nv_world_contacts_default(void);
/* Refuses (EINVAL, naming the field) a negative or non-finite value. */
int nv_world_set_contacts(nv_world* w, const nv_world_contact_params* params, nv_error* err);
nv_world_contact_params nv_world_get_contacts(const nv_world* w);
/* The surf: over the ground the waves are cut to the highest that can
 * stand in that depth, NV_WORLD_SURF_BREAKING times the still water's
 * depth crest to trough (McCowan 1894; the wave breaks beyond it), so a
 * boat on a beach or in its shallows is not lifted and dropped by the
 * open sea's full waves. Applied to the heights a vessel the ground can
 * reach sees (and its water's vertical motion); see docs/contacts.md. */
#define NV_WORLD_SURF_BREAKING 0.78
/* The ground, borrowed: it must outlive the world (NULL: open deep sea). */
void nv_world_set_terrain(nv_world* w, const nv_terrain* t);
const nv_terrain* nv_world_get_terrain(const nv_world* w);

#define WORLD_CONTACT_GROUND UINT32_MAX /* id_b of a contact with the ground or a structure */

/* A static structure (a quay, a pier, a breakwater): a closed mesh in its
 * own frame, placed with its origin at `position` and turned `heading`
 * radians about +y. Vessels collide with its convex hull: give a
 * non-convex one as several. Between steps; *index is its number (events'
 * `structure` - 1). */
int nv_world_add_structure(nv_world* w, const nv_mesh* m, nv_vec3 position, double heading, uint32_t* index, nv_error* err);
uint32_t nv_world_structure_count(const nv_world* w);
/* FNV-1a of structure k's convex hull and pose (0 when there is none): a
 * restore tells whether it rebuilt the same structure. */
uint64_t nv_world_structure_fingerprint(const nv_world* w, uint32_t k);
/* Structure k as vessels meet it, for drawing: its convex hull's corners
 * in its own frame and its triangles (counter-clockwise seen from
 * outside), placed by `rotation` (its frame to the world's) and
 * `position`. The pointers are the world's, valid until it changes. -1
 * when there is no structure k. */
typedef struct nv_world_structure_shape {
    nv_vec3 position;
    nv_mat3 rotation;
    const double* points;       /* 3 per corner */
    uint32_t point_count;
    const uint32_t* triangles;  /* 3 per triangle, indices of corners */
    uint32_t triangle_count;
} nv_world_structure_shape;
int nv_world_structure_shape_get(const nv_world* w, uint32_t k, nv_world_structure_shape* out);

/* A contact that began in the last step: a vessel that was not touching
 * the ground, or a pair of vessels that were not touching each other, in
 * the step before. */
typedef struct nv_world_contact_event {
    uint64_t tick;        /* the step's tick (nv_world_tick after it) */
    uint32_t id_a;        /* a vessel */
    uint32_t id_b;        /* the other, or WORLD_CONTACT_GROUND */
    nv_vec3 point;           /* world, the impulse-weighted mean of the points, m */
    nv_vec3 normal;          /* unit, the way a is pushed */
    double closing_speed; /* m/s along the normal when it struck (the fastest point) */
    double impulse;       /* N s along the normals in the step */
    uint32_t structure;   /* with id_b WORLD_CONTACT_GROUND: 0 the terrain, k + 1 structure k */
} nv_world_contact_event;

/* The last step's new contacts: with the ground in slot order, then
 * between vessels in slot order of the pair; valid until the next step. */
const nv_world_contact_event* nv_world_contact_events(const nv_world* w, uint32_t* count);

/* Between steps only. Ids are never reused; other vessels keep theirs. */
/* The nearest free water for a vessel of `type` asked for at (x, z)
 * with `heading` (radians about +y from +x toward -z) (core/world_place.c):
 * its footprint (the xz rectangle of its bounding box, upright at that
 * heading) `margin` m clear of every vessel's footprint as it lies (the
 * rectangle holding its posed bounding box, along its bow) and of every
 * structure's bounding circle, with the ground under the footprint
 * `margin` m below its keel floating upright. Candidates lie on rings
 * around (x, z) out to `reach` m (at most 64 rings, at least 2 m and a
 * quarter of the hull's radius apart: about 13,000 candidates at most),
 * nearest first, each ring from +x turning toward +z; the first free one
 * goes to *out_x, *out_z. *tried (may be NULL) gets the candidates
 * tested. None free: -1 with NV_ELIMIT, "no free water within R m of
 * (x, z) ...". Between steps. */
int nv_world_find_free_water(const nv_world* w, uint32_t type, double x, double z, double heading, double reach,
                             double margin, double* out_x, double* out_z, uint32_t* tried, nv_error* err);
/* The same, and clear of every nearby vessel's track for `ahead` seconds
 * (0..600): its footprint moved along its present velocity, sampled at
 * most a half beam apart. A spawn away from traffic rather than into its
 * path: a new boat is not run down by a boat that was about to pass. */
int nv_world_find_free_water_ahead(const nv_world* w, uint32_t type, double x, double z, double heading, double reach,
                                   double margin, double ahead, double* out_x, double* out_z, uint32_t* tried,
                                   nv_error* err);
/* Two vessels whose hulls overlap (their convex shapes, as the contacts
 * see them): ids a < b, their centres' distance and the overlap's depth. */
typedef struct nv_world_overlap {
    uint32_t a, b;
    double distance; /* m, CG to CG */
    double depth;    /* m: the contacts' penetration estimate (MPR), not the least */
} nv_world_overlap;
/* The pairs of vessels whose hulls overlap now (bounding spheres, then
 * the shapes), sorted by ids; the first `cap` go to out, *count gets them
 * all. Between steps; -1 only out of memory. */
int nv_world_find_overlaps(const nv_world* w, nv_world_overlap* out, uint32_t cap, uint32_t* count, nv_error* err);
/* Vessel ids are 32 bits, issued in order and never reused (they name a
 * vessel on the wire, in checkpoints and in record logs); what the world
 * keeps to find them is bounded by the live fleet, not by the ids issued.
 * Every call that takes an id and an nv_error fails with NV_ENOENT for an
 * id no vessel has (never issued, or despawned; the others return -1 or
 * NULL); a spawn once all 2^32 - 1 ids have been issued fails with
 * NV_ELIMIT. */
int nv_world_spawn(nv_world* w, uint32_t type, nv_vec3 position, nv_quat orientation, uint32_t* id_out, nv_error* err);
int nv_world_despawn(nv_world* w, uint32_t id, nv_error* err);
int nv_world_set_velocity(nv_world* w, uint32_t id, nv_vec3 velocity, nv_vec3 angular_velocity, nv_error* err);
/* Commands, applied from the next step through the type's rate limits.
 * Non-finite values are refused (nothing changes); others are clamped to
 * [-1, 1]. */
int nv_world_set_controls(nv_world* w, uint32_t id, double throttle, double rudder, nv_error* err);
/* Mooring lines: each from a point on the hull (body frame, m, about the
 * CG) to a fixed point in the world (a bollard), pulling as a spring of
 * `stiffness` N/m with `damping` N s/m when stretched past `length` m and
 * never pushing (slack). For the next step only: whoever holds a vessel
 * alongside sets its lines before every step (the server's autopilot
 * does), as nothing else would take them in a checkpoint or a record.
 * Replaces the vessel's lines; count 0 clears them. At most
 * NV_WORLD_MAX_LINES; every figure finite, length, stiffness and damping
 * not negative. */
#define NV_WORLD_MAX_LINES 8u
typedef struct nv_world_line {
    nv_vec3 hull, bollard;
    double length, stiffness, damping;
} nv_world_line;
int nv_world_set_lines(nv_world* w, uint32_t id, const nv_world_line* lines, uint32_t count, nv_error* err);
/* 0, or -1 (out untouched) when no vessel has that id. */
int nv_world_vessel_get(const nv_world* w, uint32_t id, nv_world_vessel_state* out);
uint32_t nv_world_vessel_count(const nv_world* w);
/* Id of the vessel in slot i (0 <= i < count); slot order is stable between
 * spawns and despawns. */
uint32_t nv_world_vessel_id_at(const nv_world* w, uint32_t slot);
/* The vessels in slots [first, first + count) into out[0..], in slot
 * order, in one pass over the arrays, without id lookups. Returns how
 * many were written (fewer at the end of the world). */
uint32_t nv_world_read_vessels(const nv_world* w, uint32_t first, uint32_t count, nv_world_vessel_state* out);

/* What a snapshot or a view sends of a vessel: a third less to read than
 * the whole state, which at 16,000 vessels is memory traffic. */
typedef struct nv_world_vessel_pose {
    uint32_t id, type, flags;
    nv_world_model model;
    nv_vec3 position; /* CG, world */
    nv_quat orientation;
    nv_vec3 velocity;
    nv_vec3 angular_velocity;
} nv_world_vessel_pose;

/* nv_world_read_vessels for poses: slots [first, first + count). */
uint32_t nv_world_read_poses(const nv_world* w, uint32_t first, uint32_t count, nv_world_vessel_pose* out);
/* nv_world_vessel_get for a pose (half the state's reads: a helm's); -1
 * when there is no such vessel. */
int nv_world_vessel_pose_get(const nv_world* w, uint32_t id, nv_world_vessel_pose* out);
/* The CG height at which a vessel of the type floats upright on flat
 * water, found once when the type was added (spawns "afloat" use it).
 * Fails, naming why, for a type that sinks. */
int nv_world_type_float_height(const nv_world* w, uint32_t type, double* y, nv_error* err);

/* A captive model test: the water's force (world frame, N) and moment about
 * the CG (N m) on the type's hull held at this pose in the world's water as
 * it stands now (the pressure the vertex and triangle passes give: the
 * hydrostatics on the waves' surface, with its Smith effect; no motion, so
 * no hydrodynamic forces; no ground). Not during a step. */
int nv_world_type_water_load(const nv_world* w, uint32_t type, nv_vec3 position, nv_quat orientation, nv_vec3* force,
                             nv_vec3* torque, nv_error* err);

void nv_world_step(nv_world* w);

uint64_t nv_world_tick(const nv_world* w);
double nv_world_time(const nv_world* w);
const nv_world_timing* nv_world_last_timing(const nv_world* w);
/* Benchmarks: time the vertex and triangle work apart (two clock reads per
 * vessel and pass). Off by default. */
void nv_world_set_timing_detail(nv_world* w, int on);
/* FNV-1a over every vessel's id, flags and state bits, in slot order. */
uint64_t nv_world_state_hash(const nv_world* w);
/* Bytes held per vessel (state, heights, blocks, sums) and shared (hull
 * types, per-worker scratch), for the benchmark's memory figures. */
void nv_world_memory(const nv_world* w, size_t* per_vessel_total, size_t* shared_total);

/* The id the next spawn gets (ids are never reused). */
uint32_t nv_world_next_id(const nv_world* w);
const nv_world_config* nv_world_get_config(const nv_world* w);
nv_vec3 nv_world_get_wind(const nv_world* w);
nv_world_lod nv_world_get_lod(const nv_world* w);


/* ---- recording: the world's inputs --------------------------------------
 * Every call from outside that changes the world between steps, as one
 * list: X(NAME, name, FIELDS) with the call's arguments as FIELDS. From it
 * come a struct per operation (nv_world_op_NAME), their kinds
 * (NV_WORLD_OP_NAME), one tagged event (nv_world_op) and the recorder's
 * callbacks, so that an operation added here is recorded and replayed
 * everywhere, or fails to compile where a recorder does not handle it.
 *
 * A recorder attached with nv_world_set_recorder is called from inside
 * these nv_world_* calls, after the change and only when it succeeded (a
 * refused call records nothing), with `tick`, nv_world_tick then: the
 * change takes effect in the step to tick + 1. Each callback receives the
 * call's arguments as given (a spawn also its id), so that calling the
 * same function with them on the same world does the same thing
 * (nv_world_apply_op). Not recorded: what the world does to itself in a
 * step (the removal of a sunk vessel: a damage event) and its
 * construction (hull types and their dynamics, compartments and columns,
 * the water, the terrain, structures, a checkpoint's restore): a recording
 * starts from a checkpoint of the world built. A NULL callback skips its
 * operation; off by default (one pointer test per call). */
#define NV_WORLD_OPS(X)                                                                       \
    X(SPAWN, spawn, uint32_t id; uint32_t type; nv_vec3 position; nv_quat orientation;)        \
    X(DESPAWN, despawn, uint32_t id;)                                                         \
    X(VELOCITY, velocity, uint32_t id; nv_vec3 velocity; nv_vec3 angular_velocity;)           \
    X(CONTROLS, controls, uint32_t id; double throttle; double rudder;)                       \
    X(BREACH, breach, uint32_t id; nv_vec3 point; double area;)                               \
    X(PUMPS, pumps, uint32_t id; int on;)                                                     \
    X(MODEL, model, uint32_t id; nv_world_model model;)                                       \
    X(PLAYER, player, uint32_t id; int player;)                                               \
    X(LOD, lod, nv_world_lod lod;)                                                            \
    X(WIND, wind, nv_vec3 wind;)                                                              \
    X(CONTACTS, contacts, nv_world_contact_params params;)                                    \
    X(SUNK_REMOVAL_DEPTH, sunk_removal_depth, double depth;)

/* nv_world_spawn (id: the one it gave), nv_world_despawn, nv_world_set_velocity,
 * nv_world_set_controls, nv_world_breach, nv_world_set_pumps,
 * nv_world_set_vessel_model, nv_world_set_player, nv_world_set_lod (the
 * levels of detail it left: NULL leaves them with enabled 0),
 * nv_world_set_wind, nv_world_set_contacts, nv_world_set_sunk_removal_depth. */
#define NV_WORLD_OP_STRUCT_(NAME, name, FIELDS) typedef struct nv_world_op_##name { FIELDS } nv_world_op_##name;
NV_WORLD_OPS(NV_WORLD_OP_STRUCT_)
#undef NV_WORLD_OP_STRUCT_

typedef enum nv_world_op_kind {
#define NV_WORLD_OP_ENUM_(NAME, name, FIELDS) NV_WORLD_OP_##NAME,
    NV_WORLD_OPS(NV_WORLD_OP_ENUM_)
#undef NV_WORLD_OP_ENUM_
    NV_WORLD_OP_COUNT
} nv_world_op_kind;

/* One operation with its tick, for logs and replays. */
typedef struct nv_world_op {
    nv_world_op_kind kind;
    uint64_t tick;
    union {
#define NV_WORLD_OP_MEMBER_(NAME, name, FIELDS) nv_world_op_##name name;
        NV_WORLD_OPS(NV_WORLD_OP_MEMBER_)
#undef NV_WORLD_OP_MEMBER_
    } u;
} nv_world_op;

typedef struct nv_world_recorder {
#define NV_WORLD_OP_CALLBACK_(NAME, name, FIELDS) \
    void (*name)(void* arg, uint64_t tick, const nv_world_op_##name* op);
    NV_WORLD_OPS(NV_WORLD_OP_CALLBACK_)
#undef NV_WORLD_OP_CALLBACK_
} nv_world_recorder;

/* Attaches a recorder (borrowed: it and arg must outlive the attachment);
 * NULL detaches. One at a time. */
void nv_world_set_recorder(nv_world* w, const nv_world_recorder* r, void* arg);
/* The attached recorder (NULL: none) and its arg (may be NULL). */
const nv_world_recorder* nv_world_get_recorder(const nv_world* w, void** arg);
/* "spawn", "controls", ...: the X-macro's names; NULL out of range. */
const char* nv_world_op_name(nv_world_op_kind kind);
/* Calls the operation's nv_world_* function with its fields (between
 * steps; op->tick is not checked): a replay. A spawn that gives another id
 * than op's fails (NV_EINTERNAL, the vessel spawned stays). The recorder
 * attached, if any, records it as any call. */
int nv_world_apply_op(nv_world* w, const nv_world_op* op, nv_error* err);

NV_API_END

#endif
