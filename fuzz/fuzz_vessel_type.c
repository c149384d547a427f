// SPDX-License-Identifier: MIT
/* libFuzzer: vessel-type files (JSON: hull, mass, coefficients,
 * propellers, rudders, control rates). Parsing only: the hull is named,
 * not loaded. */
#include <stddef.h>
#include <stdint.h>

#include "naval/vessel_type.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    nv_vessel_type t;
    nv_error err;
    nv_vessel_type_parse((const char*)data, size, "fuzz.json", NULL, &t, &err);
    return 0;
}
