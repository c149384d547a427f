// SPDX-License-Identifier: MIT
/* libFuzzer: naval-server's JSON config (--config FILE): strict keys,
 * types and ranges, then the cross-field checks. Parsing only; nothing is
 * opened but what cfg_finish checks (a web_root folder's existence). */
#include <stddef.h>
#include <stdint.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    cfg_server c;
    nv_error err;
    cfg_defaults(&c);
    if (cfg_parse_text(&c, (const char*)data, size, "fuzz.json", &err) == 0) (void)cfg_finish(&c, &err);
    return 0;
}
