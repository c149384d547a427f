// SPDX-License-Identifier: MIT
/* libFuzzer: the request and response decoders (every command a server
 * receives, every answer a client receives) on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    proto_limits limits = proto_default_limits();
    /* the server's request cap (config.c's default), so that the size
     * check is exercised too */
    limits.max_message_size = 65536;
    proto_error err;
    proto_request req;
    proto_decode_request(data, size, &limits, &req, &err);
    proto_response res = {0};
    proto_decode_response(data, size, NULL, &res, &err);
    proto_free_response(&res);
    return 0;
}
