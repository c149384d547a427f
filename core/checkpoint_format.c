// SPDX-License-Identifier: MIT
/* The checkpoint format's fixed parts (the layout in checkpoint.h): the
 * checks that keep the written structs in step with it, the magic and the
 * section tags, CRC-32, and the frame around the sections (header and
 * checksums). */
#include <string.h>

#include "checkpoint_internal.h"

const uint8_t ckp_magic[8] = {'N', 'V', 'C', 'H', 'K', 'P', 'T', '\n'};
const char ckp_tags[CKP_SECTION_COUNT][5] = {"WRLD", "OCEN", "GRND", "TYPS", "VSLS", "OWNR"};

/* Every struct below is written field by field. A field added to one of
 * them would silently be left out of checkpoints: these sizes make the
 * build fail instead, so that the field gets written (checkpoint_encode.c)
 * and read (checkpoint_records.c, checkpoint_decode.c) and
 * CHECKPOINT_VERSION goes up. (LP64: x86-64 and aarch64.) */
_Static_assert(sizeof(nv_world_config) == 56, "world_config changed: update checkpoint_*.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(nv_world_lod) == 32, "world_lod changed: update checkpoint_*.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(nv_ocean_params) == 176, "ocean_params changed: update checkpoint_*.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(nv_mesh_options) == 12, "mesh_options changed: update checkpoint_*.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(nv_mass_spec) == 80, "mass_spec changed: update checkpoint_*.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(nv_hydrodyn_coeffs) == 272, "hydrodyn_coeffs changed: update checkpoint_*.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(nv_actuator_propeller) == 88,
               "actuator_propeller changed: update checkpoint_*.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(nv_actuator_rudder) == 64, "actuator_rudder changed: update checkpoint_*.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(nv_actuator_set) == 4 * 88 + 8 + 4 * 64 + 8 + 16,
               "actuator_set changed: update checkpoint_*.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(nv_terrain_spec) == 40, "terrain_spec changed: update checkpoint_*.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(nv_world_contact_params) == 56,
               "world_contact_params changed: update checkpoint_*.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(nv_compartment_damage) == 40,
               "compartment_damage changed: update checkpoint_*.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(nv_flood_state) == 64 * 16 + 16 * 40 + 8 + 8 + 8,
               "flood_state changed: update checkpoint_*.c and CHECKPOINT_VERSION");
_Static_assert(sizeof(nv_world_vessel_record) == 240,
               "world_vessel_record changed: update checkpoint_*.c and CHECKPOINT_VERSION");

/* ---- CRC-32 ----------------------------------------------------------- */

uint32_t nv_checkpoint_crc32(uint32_t crc, const void* data, size_t size) {
    /* Slicing by 8 (eight bytes per step through eight tables): a big
     * checkpoint is tens of MB. The tables cost ~4k operations to build:
     * cheaper to make per call than to share safely between threads. */
    uint32_t t[8][256];
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int k = 1; k < 8; k++) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFFu];
    const uint8_t* p = data;
    crc = ~crc;
    for (; size >= 8; size -= 8, p += 8) {
        uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
        crc = t[7][lo & 0xFFu] ^ t[6][(lo >> 8) & 0xFFu] ^ t[5][(lo >> 16) & 0xFFu] ^ t[4][lo >> 24] ^
              t[3][hi & 0xFFu] ^ t[2][(hi >> 8) & 0xFFu] ^ t[1][(hi >> 16) & 0xFFu] ^ t[0][hi >> 24];
    }
    for (; size; size--, p++) crc = t[0][(crc ^ *p) & 0xFFu] ^ (crc >> 8);
    return ~crc;
}

/* ---- the frame ------------------------------------------------------- */

/* The fixed header and the checksums: everything but the sections. */
int ckp_check_frame(const uint8_t* d, size_t size, const char* name, nv_error* err) {
    if (size < CHECKPOINT_HEADER_SIZE)
        return nv_error_fail(err, NV_EPROTO, "%s: truncated at byte %zu: a checkpoint starts with a %u-byte header",
                             name, size, CHECKPOINT_HEADER_SIZE);
    if (memcmp(d, ckp_magic, sizeof ckp_magic) != 0)
        return nv_error_fail(err, NV_EPROTO, "%s: bad magic: not a naval checkpoint (no \"NVCHKPT\" at byte 0)", name);
    uint32_t version = ckp_load_u32(d + 8);
    uint32_t header_crc = ckp_load_u32(d + 28), header_want = nv_checkpoint_crc32(0, d, 28);
    if (header_crc != header_want)
        return nv_error_fail(err, NV_EPROTO,
                             "%s: header checksum mismatch (stored %08x, computed %08x): the header is corrupt", name,
                             header_crc, header_want);
    if (version != CHECKPOINT_VERSION)
        return nv_error_fail(err, NV_EPROTO, "%s: format version %u, this build reads version %u", name, version,
                             CHECKPOINT_VERSION);
    if (ckp_load_u32(d + 24) != 0)
        return nv_error_fail(err, NV_EPROTO, "%s: unknown header flags %#x", name, ckp_load_u32(d + 24));
    if (ckp_load_u32(d + 12) != CKP_SECTION_COUNT)
        return nv_error_fail(err, NV_EPROTO, "%s: %u sections, version %u has %u", name, ckp_load_u32(d + 12),
                             CHECKPOINT_VERSION, CKP_SECTION_COUNT);
    uint64_t declared = ckp_load_u64(d + 16);
    if (declared < CHECKPOINT_HEADER_SIZE + CKP_TRAILER)
        return nv_error_fail(err, NV_EPROTO, "%s: the header declares %llu bytes, fewer than a header and a checksum",
                             name, (unsigned long long)declared);
    if (size < declared)
        return nv_error_fail(err, NV_EPROTO, "%s: truncated at byte %zu (the header declares %llu bytes)", name, size,
                             (unsigned long long)declared);
    if (size > declared)
        return nv_error_fail(err, NV_EPROTO, "%s: %zu bytes after the end the header declares (byte %llu)", name,
                             size - (size_t)declared, (unsigned long long)declared);
    uint32_t stored = ckp_load_u32(d + size - CKP_TRAILER), want = nv_checkpoint_crc32(0, d, size - CKP_TRAILER);
    if (stored != want)
        return nv_error_fail(err, NV_EPROTO,
                             "%s: checksum mismatch (stored %08x, computed %08x over bytes 0..%zu): the file is "
                             "corrupt",
                             name, stored, want, size - CKP_TRAILER - 1);
    return 0;
}
