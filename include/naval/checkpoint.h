// SPDX-License-Identifier: MIT
/* World checkpoints: the whole simulation state in one versioned,
 * checksummed binary file, written atomically, from which a world resumes
 * with the same nv_world_state_hash and the same evolution.
 *
 * Format (version 13), little-endian throughout:
 *
 *   header, 32 bytes
 *     0  magic "NVCHKPT\n"
 *     8  u32 format version (13)
 *    12  u32 section count (6)
 *    16  u64 file size in bytes, header and trailer included
 *    24  u32 flags (0)
 *    28  u32 CRC-32 (IEEE 802.3, as zlib's crc32) of bytes 0..27
 *   sections, each: 4-byte tag, u32 0, u64 payload length, payload
 *     "WRLD"  tick, time (f64), nv_world_state_hash, next id, vessel count,
 *             hull type count, world_config (sunk_removal_depth last), wind
 *             (3 f64), levels of detail; then u32 n and n u64, the pairs
 *             touching after the last step, strictly ascending, each the
 *             lower vessel id << 32 | the higher (a structure k: UINT32_MAX
 *             - k), so that a pair still touching after a restore begins
 *             no second contact event; then per pair its normal (3 f64,
 *             unit, from the lower id to the higher), where the next
 *             step's narrowphase starts (version 11)
 *     "OCEN"  u8 present, then every ocean_params field in declaration order
 *             (tp after hs_target; size as the ocean resolved it): the ocean
 *             is a pure function of its params and the time
 *     "GRND"  u8 present, then the terrain's source ("builtin:NAME" or a
 *             heightmap path), its spec (5 f64) and nv_terrain_fingerprint
 *             of the terrain built from them; then the contact parameters
 *             (u8 enabled, 6 f64); then u32 n structures, each its mesh path
 *             ("" for a box), box (3 f64), position and heading (4 f64) and
 *             nv_world_structure_fingerprint
 *     "TYPS"  u32 count, per hull type in type order: name, source spec
 *             ("builtin:NAME[:TRIS]" or a mesh path), mesh options, mass
 *             spec, u8 has_dynamics + coefficients and actuators, the
 *             column grid, a fingerprint of the hull built from them (vertex
 *             and triangle counts, mass, FNV-1a of the vertices and
 *             triangles), then its compartments: u32 n + n f64 bulkheads,
 *             u32 m + m f64 longitudinal, pump rate, breach speed and area
 *             (3 f64), and u32 the compartment count the world holds
 *     "VSLS"  u32 count, per vessel in slot order: world_vessel_record
 *             (ids, flags, model, pose, velocities, angular momentum, last
 *             forces, controls commanded and actual, the surface's vertical
 *             velocity, then u32 n + n u16 of slamming memory, IEEE half floats),
 *             then u8 damaged, and when 1 its flood_state: u32 n holes, each
 *             u32 compartment, point (3 f64), area (f64); u64 full mask, u8
 *             pumping, u8 sunk, u16 under_ticks, then per compartment slot (COMPARTMENT_MAX)
 *             volume and level (2 f64)
 *     "OWNR"  opaque bytes for the embedder (the server's tokens and owners)
 *   trailer: u32 CRC-32 of every byte before it
 *
 * Strings are u16 length + bytes (no NUL); booleans u8 0/1; enums u32.
 * Reading checks, in order: size of the header, magic, version, the
 * header's checksum, the declared size against the file's (truncated at
 * byte N / bytes after the end), the whole file's checksum, then every
 * section's bounds and values; each refusal names what is wrong.
 *
 * Restoring rebuilds the hull types and the terrain from their sources and
 * refuses a hull or a terrain that no longer matches its fingerprint (a
 * mesh file or a heightmap that changed),
 * and finally compares the rebuilt world's state hash with the one stored.
 * A hull type's column model is stored as the grid it was built with
 * (scenario_hull columns_nx x columns_nz) and built again; a column model
 * set from a columns_set of one's own is not stored, nor the world_water
 * of a world that is not the FFT ocean or flat water (tests' travelling
 * sine waves). */
#ifndef NAVAL_CHECKPOINT_H
#define NAVAL_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jobs.h"
#include "nv_error.h"
#include "ocean.h"
#include "scenario.h"
#include "world.h"
#include "naval/nv_api.h"

NV_API_BEGIN

/* ---- a world's state, slot by slot ------------------------------------
 * A vessel's whole state out and back in, bit for bit, and the counters
 * a restored world needs, so that a restored world has the same
 * nv_world_state_hash and evolves identically. */

/* Everything a slot holds between steps, in the world's own precision. */
typedef struct nv_world_vessel_record {
    uint32_t id, type, flags;
    nv_world_model model;
    nv_vec3 position;
    nv_quat orientation;
    nv_vec3 velocity;
    nv_vec3 angular_momentum;   /* the integrated state */
    nv_vec3 angular_velocity;   /* derived from it, but kept to the bit */
    nv_vec3 force, torque;      /* last step's */
    float submerged_area;
    float throttle_cmd, rudder_cmd; /* commanded */
    float throttle, rudder;         /* actual */
    float water_vy;                 /* the surface's vertical velocity at the CG, last step */
    uint32_t slam_count;     /* triangles of slamming memory; 0 when the type keeps none */
    const uint16_t* slam;    /* half floats; export: the world's (valid until the next change); restore: copied */
    const nv_flood_state* flood; /* damage (naval/compartment.h), NULL: none; export: the world's; restore: copied */
} nv_world_vessel_record;

/* Slot order is part of the state (the hash and the block order follow
 * it): export slots 0..count-1 and restore them in that order. */
int nv_world_export_vessel(const nv_world* w, uint32_t slot, nv_world_vessel_record* out);
/* Appends the vessel at the next slot with its own id (which must be
 * free); ids below it that are not in use stay unused. Between steps. */
int nv_world_restore_vessel(nv_world* w, const nv_world_vessel_record* r, nv_error* err);
/* Raises the id counter (never lowers it below an id in use). */
int nv_world_set_next_id(nv_world* w, uint32_t next_id, nv_error* err);
/* Between steps: the tick, and the time it implies (tick / tick_hz). */
void nv_world_set_clock(nv_world* w, uint64_t tick);

/* 2: slamming memory as half floats; 3: hull types' column grids; 4: the
 * ground; 5: compartments, flooding and the sunk removal depth; 6: the
 * ocean's peak period (ocean_params.tp, after hs_target); 7: the wind's
 * direction turns toward -z as headings do (a 6 file's sea would be mirrored);
 * 8: roll damping (bilge keels, explicit coefficients) in a type's dynamics;
 * 9: each type's rated Beaufort number (the autopilot's seamanship), its
 * hull strength (plating, breach energy after the breach area), and a
 * flood state's steps wholly under the still water (u16 after `sunk`);
 * 12: a type's planing bottom (three doubles after its roll damping);
 * 13: a propeller's diameter (after its steering), for its race over a
 * rudder */
#define CHECKPOINT_VERSION 13u
#define CHECKPOINT_MAX_COLUMNS 256u /* per axis of a hull type's column grid */
#define CHECKPOINT_HEADER_SIZE 32u
/* Beside FILE, the checkpoint FILE replaced (nv_checkpoint_write_file). */
#define CHECKPOINT_PREVIOUS_SUFFIX ".prev"
/* FILE.tmp.XXXXXX: a write in progress, or one a crash cut short. */
#define CHECKPOINT_TEMPORARY_INFIX ".tmp."

/* What a checkpoint is taken from. The world must be between steps. */
typedef struct nv_checkpoint_source {
    const nv_world* world;
    const nv_ocean* ocean;           /* the world's water; NULL: flat water */
    const nv_scenario_hull* hulls;   /* how each hull type was built, one per type, in type order
                                     (dynamics are taken from the world itself) */
    uint32_t hull_count;
    const nv_scenario_terrain* terrain; /* how the world's terrain was made; NULL or "" without one */
    const nv_scenario_structure* structures; /* how each structure was made, in order (the world's count) */
    const void* owner_blob;          /* opaque bytes for the embedder; may be NULL when owner_size is 0 */
    size_t owner_size;
} nv_checkpoint_source;

/* A hull the restore must rebuild bit for bit. */
typedef struct nv_checkpoint_fingerprint {
    uint32_t vertex_count, triangle_count;
    double mass;
    uint64_t geometry_hash;       /* FNV-1a of the hull's vertices and triangles */
} nv_checkpoint_fingerprint;

/* A decoded checkpoint (owns its arrays: nv_checkpoint_free). */
typedef struct nv_checkpoint {
    uint64_t tick;
    double time;
    uint64_t state_hash; /* nv_world_state_hash when written */
    uint32_t next_id;
    nv_world_config world;
    nv_vec3 wind;
    nv_world_lod lod;
    bool has_ocean;
    nv_ocean_params ocean;
    nv_scenario_terrain terrain; /* source "" without one */
    uint64_t terrain_fingerprint;
    nv_world_contact_params contacts;
    nv_scenario_structure* structures;
    uint64_t* structure_fingerprints;
    uint32_t structure_count;
    nv_scenario_hull* hulls;
    nv_checkpoint_fingerprint* fingerprints;
    uint32_t* compartment_counts; /* per hull type: the compartments its world held (0: none) */
    uint32_t hull_count;
    nv_world_vessel_record* vessels; /* slam arrays point into slam_storage; flood states are the checkpoint's */
    uint32_t vessel_count;
    uint16_t* slam_storage;
    uint8_t* owner_blob;
    size_t owner_size;
    uint64_t* touching; /* the vessel pairs touching after the last step, sorted (see the format) */
    nv_vec3* touching_normal; /* one per pair: lower id to higher */
    uint32_t touching_count;
} nv_checkpoint;

/* The checkpoint as bytes (malloc'd, the caller frees *out). */
int nv_checkpoint_encode(const nv_checkpoint_source* src, uint8_t** out, size_t* size, nv_error* err);

/* The same in two halves, for a server that must not stall its ticks:
 * nv_checkpoint_capture copies the world's state (between steps, on the
 * thread that steps it; about memcpy speed plus nv_world_state_hash), then
 * nv_checkpoint_encode_captured / nv_checkpoint_write_captured may run on any
 * other thread while the world moves on. Free *out with nv_checkpoint_free. */
int nv_checkpoint_capture(const nv_checkpoint_source* src, nv_checkpoint* out, nv_error* err);
int nv_checkpoint_encode_captured(const nv_checkpoint* c, uint8_t** out, size_t* size, nv_error* err);
int nv_checkpoint_write_captured(const char* path, const nv_checkpoint* c, nv_error* err);

/* Encodes and writes atomically: a temporary file in the same directory
 * (path + ".tmp.XXXXXX", mode 0600), fsync, the file already at `path`
 * renamed to path + ".prev" when it is a whole checkpoint (size and
 * checksums; a truncated or corrupt one is replaced and never displaces a
 * good path.prev), the new one renamed to `path`, fsync of the directory.
 * On failure the files at path and path.prev are as they were and the
 * temporary file is gone. A kill at any point leaves the newest whole
 * checkpoint in one of path, path.prev or a temporary file, which
 * nv_checkpoint_find_newest and nv_checkpoint_recover find. */
int nv_checkpoint_write_file(const char* path, const nv_checkpoint_source* src, nv_error* err);

/* The writer's steps, for tests that stop it where a kill -9 could
 * (nv_checkpoint_set_step_hook). */
typedef enum nv_checkpoint_step {
    CHECKPOINT_STEP_TEMP_PARTIAL = 0, /* half the bytes are in the temporary file */
    CHECKPOINT_STEP_TEMP_WRITTEN,     /* all of them, not yet fsynced */
    CHECKPOINT_STEP_TEMP_SYNCED,      /* fsynced and closed */
    CHECKPOINT_STEP_OLD_MOVED,        /* the whole old file is path.prev now (skipped when there was none) */
    CHECKPOINT_STEP_RENAMED,          /* the new file is at path */
    CHECKPOINT_STEP_DIR_SYNCED,       /* the directory is fsynced: done */
    CHECKPOINT_STEP_COUNT
} nv_checkpoint_step;
typedef void nv_checkpoint_step_fn(const char* path, nv_checkpoint_step step);
/* Test only: fn is called after each step of every write (in the writing
 * thread); a test's fn may _exit there. NULL (the default): none. */
void nv_checkpoint_set_step_hook(nv_checkpoint_step_fn* fn);

/* Parses and checks bytes; `name` prefixes messages. *out is zeroed first
 * and left empty on failure. */
int nv_checkpoint_decode(const void* data, size_t size, const char* name, nv_checkpoint* out, nv_error* err);
int nv_checkpoint_read_file(const char* path, nv_checkpoint* out, nv_error* err);
/* Which file a restore used. */
enum { CHECKPOINT_USED_FILE = 0, CHECKPOINT_USED_PREVIOUS = 1, CHECKPOINT_USED_TEMPORARY = 2 };

typedef struct nv_checkpoint_recovery {
    int used;          /* CHECKPOINT_USED_* */
    char file[4096];   /* the file read (after nv_checkpoint_recover: where it is now) */
    nv_error refused;  /* why `path` itself was not used ("" when it was) */
    nv_error tidy;     /* nv_checkpoint_recover: a rename or removal that failed ("" none) */
    int removed;       /* nv_checkpoint_recover: temporary files removed */
} nv_checkpoint_recovery;

/* The newest whole checkpoint a writer (nv_checkpoint_write_file) left at
 * `path`: of path, path.prev and every complete path.tmp.* (a write a
 * crash cut short before its rename), the one that decodes and was
 * written last (modification time, then the higher tick, then path before
 * path.prev before a temporary). Files that do not decode are skipped;
 * none usable: -1 with the reasons path and path.prev were refused. Reads
 * only. */
int nv_checkpoint_find_newest(const char* path, nv_checkpoint* out, nv_checkpoint_recovery* info, nv_error* err);
/* The same, then puts the files in order for the next write: a temporary
 * that was used takes path's place (a whole path moving to path.prev),
 * and every other path.tmp.* is removed. A failure there does not fail
 * the restore: it is in info->tidy. */
int nv_checkpoint_recover(const char* path, nv_checkpoint* out, nv_checkpoint_recovery* info, nv_error* err);
/* Removes every path.tmp.* (a server starting a new world at path);
 * *removed (may be NULL): how many. -1 when the directory cannot be read. */
int nv_checkpoint_remove_temporaries(const char* path, int* removed, nv_error* err);
/* nv_checkpoint_find_newest's choice: *used (may be NULL) is
 * CHECKPOINT_USED_*; `refused` (may be NULL) gets why `path` was not used
 * ("" when it was). */
int nv_checkpoint_read_newest(const char* path, nv_checkpoint* out, int* used, nv_error* refused, nv_error* err);
void nv_checkpoint_free(nv_checkpoint* c);

/* Builds the ocean and the world the checkpoint describes on `pool` (may
 * be NULL), puts every vessel back in its slot, and restores the id
 * counter and the clock; refuses a hull whose rebuild differs from its
 * fingerprint and a result whose state hash differs from the stored one. */
int nv_checkpoint_restore(const nv_checkpoint* c, nv_jobs* pool, nv_scenario_instance* out, nv_error* err);

/* CRC-32 (IEEE, reflected, as zlib's crc32()); `crc` is 0 to start, or a
 * previous result to continue. */
uint32_t nv_checkpoint_crc32(uint32_t crc, const void* data, size_t size);

NV_API_END

#endif
