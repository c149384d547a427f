// SPDX-License-Identifier: MIT
/* libFuzzer: WebSocket frames from clients (net/wsframe.h), decoded one
 * after another as the edge does, with the fragment order checked: no read
 * or write outside the buffer, every accepted frame inside it, and a
 * decode that needs more bytes never accepts fewer. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wsframe.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* buf = malloc(size ? size : 1);
    if (!buf) return 0;
    memcpy(buf, data, size);
    wsframe_sequence seq = {0, WSFRAME_CONTINUATION};
    size_t at = 0, max = size ? (size_t)data[0] * 64 : 0;
    while (at < size) {
        wsframe f;
        const char* why = NULL;
        long n = wsframe_decode(buf + at, size - at, max, &f, &why);
        if (n <= 0) {
            assert(n == 0 || why);
            break;
        }
        assert((size_t)n <= size - at);
        assert(f.payload >= buf + at && f.payload + f.size <= buf + at + (size_t)n);
        assert(f.size <= max);
        if (wsframe_sequence_check(&seq, &f, &why)) break;
        at += (size_t)n;
    }
    char accept[WSFRAME_ACCEPT_LEN + 1];
    if (size >= 24 && wsframe_accept_key((const char*)data, 24, accept) == 0) assert(strlen(accept) == 28);
    free(buf);
    return 0;
}
