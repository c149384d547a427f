// SPDX-License-Identifier: MIT
/* libFuzzer: a stream of compact snapshots through one decoder, which
 * keeps its keyframe between messages. The input is a sequence of
 * messages, each preceded by its length (u32, little-endian; cut at the
 * input's end), so the fuzzer can grow keyframe + delta sequences. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    proto_error err;
    proto_compact_decoder* d = proto_create_compact_decoder(&err);
    if (!d) return 0;
    proto_limits limits = proto_default_limits();
    limits.max_vessels = 1u << 16;
    proto_snapshot snap;
    memset(&snap, 0, sizeof snap);
    size_t at = 0;
    for (int messages = 0; at + 4 <= size && messages < 64; messages++) {
        uint32_t len = (uint32_t)data[at] | (uint32_t)data[at + 1] << 8 | (uint32_t)data[at + 2] << 16 |
                       (uint32_t)data[at + 3] << 24;
        at += 4;
        size_t n = len < size - at ? len : size - at;
        proto_decode_compact(d, data + at, n, &limits, &snap, &err);
        at += n;
    }
    proto_free_snapshot(&snap);
    proto_destroy_compact_decoder(d);
    return 0;
}
