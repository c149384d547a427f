// SPDX-License-Identifier: MIT
/* libFuzzer: what a client decodes from the server's streams and replies:
 * full snapshots, world info and hull meshes, reusing each decoder's
 * arrays across inputs as a client does. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    proto_limits limits = proto_default_limits();
    /* small caps: a lying count must be refused, not allocated */
    limits.max_vessels = 1u << 16;
    limits.max_hull_vertices = 1u << 16;
    limits.max_hull_triangles = 1u << 17;
    proto_error err;
    proto_snapshot snap;
    memset(&snap, 0, sizeof snap);
    proto_decode_snapshot(data, size, &limits, &snap, &err);
    proto_decode_snapshot(data, size, &limits, &snap, &err); /* into the grown arrays */
    proto_free_snapshot(&snap);
    proto_world_info info;
    memset(&info, 0, sizeof info);
    proto_decode_world_info(data, size, &limits, &info, &err);
    proto_free_world_info(&info);
    proto_hull hull;
    memset(&hull, 0, sizeof hull);
    proto_decode_hull(data, size, &limits, &hull, &err);
    proto_free_hull(&hull);
    return 0;
}
