// SPDX-License-Identifier: MIT
/* What the parts of the checkpoint code share; private to core. The
 * format is described in include/naval/checkpoint.h. The parts:
 *   checkpoint_format.c   the layout's size checks, magic, tags, CRC-32, the frame
 *   checkpoint_encode.c   a captured checkpoint into the format's bytes
 *   checkpoint_decode.c   the bytes into a checkpoint, section by section
 *   checkpoint_records.c  the decoder's readers of the sections' records
 *   checkpoint_world.c    a world into a checkpoint (capture) and back (restore)
 *   checkpoint_file.c     the atomic file write, reading, the newest file after a crash */
#ifndef NAVAL_CHECKPOINT_INTERNAL_H
#define NAVAL_CHECKPOINT_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "naval/checkpoint.h"

/* ---- the layout (checkpoint_format.c) --------------------------------- */

extern const uint8_t ckp_magic[8];

/* Section tags, in file order. */
enum { CKP_WORLD, CKP_OCEAN, CKP_GROUND, CKP_TYPES, CKP_VESSELS, CKP_OWNER, CKP_SECTION_COUNT };
extern const char ckp_tags[CKP_SECTION_COUNT][5];
#define CKP_SECTION_HEADER 16u
#define CKP_TRAILER 4u
/* Bytes of a vessel record without its slamming memory. */
#define CKP_VESSEL_FIXED (4u * 4 + 22u * 8 + 6u * 4 + 4 + 1)
/* Bytes of a flood state after its holes. */
#define CKP_FLOOD_FIXED (8u + 2 + 2 + COMPARTMENT_MAX * 16u) /* after the hole count */

/* The fixed header and the checksums: everything but the sections. */
int ckp_check_frame(const uint8_t* d, size_t size, const char* name, nv_error* err);

/* ---- little-endian bytes ---------------------------------------------- */

static inline void ckp_store_u32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void ckp_store_u64(uint8_t* p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint32_t ckp_load_u32(const uint8_t* p) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i);
    return v;
}
static inline uint64_t ckp_load_u64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* ---- the decoder's reader (checkpoint_decode.c, checkpoint_records.c) -- */

typedef struct ckp_reader {
    const uint8_t* data;
    size_t pos, end; /* absolute offsets; end: the current section's */
    const char* name;
    const char* tag;
    nv_error* err;
    int failed;
} ckp_reader;

/* Whether n more bytes of `what` lie inside the section; names the place
 * when not. Once failed, every later read answers zeros. */
static inline int rd_need(ckp_reader* r, size_t n, const char* what) {
    if (r->failed) return 0;
    if (n > r->end - r->pos) {
        nv_error_set(r->err, "%s: section '%s' ends at byte %zu, inside %s (%zu bytes needed, %zu left)", r->name,
                     r->tag, r->end, what, n, r->end - r->pos);
        r->failed = 1;
        return 0;
    }
    return 1;
}
/* "NAME: section 'TAG': WHAT: MESSAGE"; the first failure wins. */
static inline int rd_fail(ckp_reader* r, const char* what, const char* fmt, ...) NV_PRINTF_LIKE(3, 4);
static inline int rd_fail(ckp_reader* r, const char* what, const char* fmt, ...) {
    if (!r->failed) {
        char msg[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        nv_error_fail(r->err, NV_EPROTO, "%s: section '%s': %s: %s", r->name, r->tag, what, msg);
    }
    r->failed = 1;
    return -1;
}

static inline uint8_t get_u8(ckp_reader* r) { return r->failed ? 0 : r->data[r->pos++]; }
static inline uint16_t get_u16(ckp_reader* r) {
    if (r->failed) return 0;
    uint16_t v = (uint16_t)(r->data[r->pos] | r->data[r->pos + 1] << 8);
    r->pos += 2;
    return v;
}
static inline uint32_t get_u32(ckp_reader* r) {
    if (r->failed) return 0;
    uint32_t v = ckp_load_u32(r->data + r->pos);
    r->pos += 4;
    return v;
}
static inline uint64_t get_u64(ckp_reader* r) {
    if (r->failed) return 0;
    uint64_t v = ckp_load_u64(r->data + r->pos);
    r->pos += 8;
    return v;
}
static inline int get_i32(ckp_reader* r) {
    uint32_t u = get_u32(r);
    int v;
    memcpy(&v, &u, sizeof v); /* two's complement, as written */
    return v;
}
static inline float get_f32(ckp_reader* r) {
    uint32_t u = get_u32(r);
    float v;
    memcpy(&v, &u, 4);
    return v;
}
static inline double get_f64(ckp_reader* r) {
    uint64_t u = get_u64(r);
    double v;
    memcpy(&v, &u, 8);
    return v;
}
static inline nv_vec3 get_v3(ckp_reader* r) {
    nv_vec3 v;
    v.x = get_f64(r);
    v.y = get_f64(r);
    v.z = get_f64(r);
    return v;
}
static inline bool get_bool(ckp_reader* r, const char* what) {
    if (!rd_need(r, 1, what)) return false;
    uint8_t v = get_u8(r);
    if (v > 1) rd_fail(r, what, "must be 0 or 1 (got %u)", (unsigned)v);
    return v == 1;
}
/* A u16-length string into buf (NUL-terminated): no NUL inside, fits. */
static inline void get_str(ckp_reader* r, char* buf, size_t cap, const char* what) {
    buf[0] = '\0';
    if (!rd_need(r, 2, what)) return;
    uint16_t n = get_u16(r);
    if (!rd_need(r, n, what)) return;
    if (n >= cap) {
        rd_fail(r, what, "a string of %u bytes, longer than %zu", (unsigned)n, cap - 1);
        return;
    }
    if (memchr(r->data + r->pos, '\0', n)) {
        rd_fail(r, what, "a string of %u bytes holds a NUL byte", (unsigned)n);
        return;
    }
    memcpy(buf, r->data + r->pos, n);
    buf[n] = '\0';
    r->pos += n;
}

/* The records of the sections (checkpoint_records.c). */
void ckp_get_config(ckp_reader* r, nv_world_config* c);
void ckp_get_ocean(ckp_reader* r, nv_ocean_params* p);
void ckp_get_type(ckp_reader* r, uint32_t index, nv_scenario_hull* h, nv_checkpoint_fingerprint* f, uint32_t* compartments);
void ckp_get_vessel(ckp_reader* r, uint32_t index, nv_world_vessel_record* v, uint16_t** slam_next,
                    const uint16_t* slam_end);
/* After the slamming memory: the vessel's damage, if any. */
void ckp_get_flood(ckp_reader* r, uint32_t index, nv_world_vessel_record* v);

#endif
