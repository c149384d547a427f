// SPDX-License-Identifier: MIT
/* libFuzzer: scenario files (JSON: ocean, hull and vessel types, vessels,
 * fleets). Parsing only: mesh files are named, not loaded; vessel-type
 * files named in "vessel_types" are read, so inputs that name device or
 * kernel files are skipped (reading /dev/zero is not a parser bug). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "naval/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static int fuzz_names_system_files(const uint8_t* data, size_t size) {
    static const char* const bad[] = {"dev/", "proc/", "sys/"};
    for (size_t b = 0; b < 3; b++) {
        size_t n = strlen(bad[b]);
        for (size_t i = 0; i + n <= size; i++)
            if (!memcmp(data + i, bad[b], n)) return 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (fuzz_names_system_files(data, size)) return 0;
    nv_scenario s;
    nv_error err;
    if (nv_scenario_parse((const char*)data, size, "fuzz.json", NULL, &s, &err) == 0) nv_scenario_free(&s);
    return 0;
}
