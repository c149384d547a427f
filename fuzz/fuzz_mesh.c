// SPDX-License-Identifier: MIT
/* libFuzzer: the mesh loaders (STL binary and ASCII, OBJ, OFF) and the
 * cleaning and validation every mesh goes through. The first byte picks
 * the format and the options; the rest is the file. */
#include <stddef.h>
#include <stdint.h>

#include "naval/mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    static const nv_mesh_format formats[] = {MESH_FORMAT_STL, MESH_FORMAT_OBJ, MESH_FORMAT_OFF};
    static const char* const names[] = {"fuzz.stl", "fuzz.obj", "fuzz.off"};
    uint8_t pick = data[0];
    nv_mesh_options o = nv_mesh_options_default();
    o.up = (pick & 4) ? 'z' : 'y';
    o.flip_inside_out = (pick & 8) != 0;
    o.max_triangles = 1u << 16; /* a lying count must be refused before it is allocated */
    nv_mesh m;
    nv_mesh_report rep;
    nv_error err;
    if (nv_mesh_load_memory(data + 1, size - 1, formats[pick % 3], names[pick % 3], &o, &m, &rep, &err) == 0)
        nv_mesh_free(&m);
    return 0;
}
