// SPDX-License-Identifier: MIT
/* libFuzzer: the checkpoint reader. Each input is decoded as it is, which
 * exercises the header and checksum checks; then again with its checksums
 * and declared size made right, so that the fuzzer reaches the section
 * parser behind them (random bytes almost never pass a CRC-32). A decoded
 * checkpoint that is cheap to rebuild (flat water, built-in hulls at their
 * default size, a built-in terrain or none, a few box structures, few
 * vessels and ids) is also restored: nv_world_restore_vessel
 * must refuse what a world could not hold. */
#include <stdlib.h>
#include <string.h>

#include "naval/checkpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void fuzz_put_u32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static int fuzz_cheap_to_restore(const nv_checkpoint* c) {
    if (c->has_ocean || c->vessel_count > 64 || c->hull_count > 4) return 0;
    /* the ground from a built-in or none, structures as boxes: no files */
    if (c->terrain.source[0] && strncmp(c->terrain.source, "builtin:", 8) != 0) return 0;
    if (c->structure_count > 16) return 0;
    for (uint32_t i = 0; i < c->structure_count; i++)
        if (c->structures[i].source[0]) return 0;
    for (uint32_t i = 0; i < c->hull_count; i++) {
        const char* s = c->hulls[i].source;
        if (strncmp(s, "builtin:", 8) != 0 || strchr(s + 8, ':')) return 0;
    }
    return c->world.vertex_block <= 4096 && c->world.triangle_block <= 4096;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    nv_checkpoint c;
    nv_error err;
    if (nv_checkpoint_decode(data, size, "fuzz", &c, &err) == 0) nv_checkpoint_free(&c);
    if (size < CHECKPOINT_HEADER_SIZE + 4) return 0;
    uint8_t* fixed = malloc(size);
    if (!fixed) return 0;
    memcpy(fixed, data, size);
    memcpy(fixed, "NVCHKPT\n", 8);
    fuzz_put_u32(fixed + 8, CHECKPOINT_VERSION);
    for (int i = 0; i < 8; i++) fixed[16 + i] = (uint8_t)((uint64_t)size >> (8 * i));
    fuzz_put_u32(fixed + 28, nv_checkpoint_crc32(0, fixed, 28));
    fuzz_put_u32(fixed + size - 4, nv_checkpoint_crc32(0, fixed, size - 4));
    if (nv_checkpoint_decode(fixed, size, "fuzz", &c, &err) == 0) {
        if (fuzz_cheap_to_restore(&c)) {
            nv_scenario_instance inst;
            if (nv_checkpoint_restore(&c, NULL, &inst, &err) == 0) {
                nv_world_step(inst.world);
                nv_scenario_instance_destroy(&inst);
            }
        }
        nv_checkpoint_free(&c);
    }
    free(fixed);
    return 0;
}
