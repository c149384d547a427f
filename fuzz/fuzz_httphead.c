// SPDX-License-Identifier: MIT
/* libFuzzer: HTTP request heads as the edge reads them (net/httphead.h),
 * fed whole and then in two pieces at a point the input picks: both must
 * agree, every slice must lie inside the input, a decoded path must hold
 * no NUL or control character and no dot segment. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "httphead.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void check_slice(const httphead_slice* s, const char* base, size_t size) {
    assert(s->p >= base && s->p + s->n <= base + size);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static httphead_request whole, split;
    httphead_limits lim = {2048, 4096};
    const char* d = (const char*)data;
    httphead_scan scan = {0, 0};
    httphead_result r = httphead_parse(d, size, &lim, &scan, &whole);
    if (r == HTTPHEAD_OK) {
        assert(whole.head_size <= size);
        check_slice(&whole.method, d, size);
        check_slice(&whole.target, d, size);
        for (uint32_t i = 0; i < whole.field_count; i++) {
            check_slice(&whole.fields[i].name, d, size);
            check_slice(&whole.fields[i].value, d, size);
        }
        for (const char* p = whole.path; *p; p++) assert((unsigned char)*p >= 0x20 && *p != 0x7f);
        assert(!strstr(whole.path, "/../") && !strstr(whole.path, "/./"));
        (void)httphead_has_token(httphead_find(&whole, "Connection"), "upgrade");
    }
    size_t cut = size ? data[0] % (size + 1) : 0;
    httphead_scan scan2 = {0, 0};
    httphead_result first = httphead_parse(d, cut, &lim, &scan2, &split);
    httphead_result second = first == HTTPHEAD_INCOMPLETE ? httphead_parse(d, size, &lim, &scan2, &split) : first;
    /* A refusal may come earlier with fewer bytes, never an acceptance
     * that the whole input refuses. */
    if (second == HTTPHEAD_OK) assert(r == HTTPHEAD_OK && split.head_size == whole.head_size);
    return 0;
}
