// SPDX-License-Identifier: MIT
/* The plain-C parts of the protocol API that need no FlatBuffers: errors,
 * limits, identification, tokens, status names, name checks. */
#include <stdio.h>
#include <string.h>

#include "proto_internal.h"

int proto_set_error(proto_error* err, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    nv_error_failv(err, NV_EPROTO, fmt, args);
    va_end(args);
    return -1;
}

int proto_check_utf8(const char* s, size_t len) {
    const unsigned char* p = (const unsigned char*)s;
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i];
        if (c == 0) return 0;
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t n;
        unsigned min;
        if ((c & 0xE0) == 0xC0) {
            n = 1;
            min = 0x80;
            c &= 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2;
            min = 0x800;
            c &= 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3;
            min = 0x10000;
            c &= 0x07;
        } else {
            return 0;
        }
        if (len - i <= n) return 0;
        for (size_t k = 1; k <= n; k++) {
            if ((p[i + k] & 0xC0) != 0x80) return 0;
            c = (c << 6) | (p[i + k] & 0x3F);
        }
        /* Overlong forms, surrogates and code points past U+10FFFF are not UTF-8. */
        if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
        i += n + 1;
    }
    return 1;
}

int proto_check_name(const char* s, size_t cap, const char* what, proto_error* err) {
    const char* end = memchr(s, '\0', cap);
    if (!end) return proto_set_error(err, "%s is too long (max %zu bytes)", what, cap - 1);
    if (!proto_check_utf8(s, (size_t)(end - s))) return proto_set_error(err, "%s is not valid UTF-8", what);
    return 0;
}

proto_limits proto_default_limits(void) {
    proto_limits l;
    l.max_message_size = (size_t)256 << 20;
    l.max_vessels = 1u << 22;
    l.max_types = PROTO_MAX_TYPES;
    l.max_hull_vertices = 1u << 20;
    l.max_hull_triangles = 1u << 21;
    return l;
}

proto_limits proto_effective_limits(const proto_limits* limits) {
    proto_limits l = limits ? *limits : proto_default_limits();
    if (l.max_message_size > PROTO_HARD_MAX_MESSAGE) l.max_message_size = PROTO_HARD_MAX_MESSAGE;
    if (l.max_types > PROTO_MAX_TYPES) l.max_types = PROTO_MAX_TYPES;
    return l;
}

proto_kind proto_identify(const void* data, size_t size) {
    static const struct {
        const char* id;
        proto_kind kind;
    } ids[] = {
        {PROTO_ID_SNAPSHOT, PROTO_KIND_SNAPSHOT}, {PROTO_ID_COMPACT, PROTO_KIND_COMPACT},
        {PROTO_ID_WORLD_INFO, PROTO_KIND_WORLD_INFO}, {PROTO_ID_HULL, PROTO_KIND_HULL},
        {PROTO_ID_REQUEST, PROTO_KIND_REQUEST}, {PROTO_ID_RESPONSE, PROTO_KIND_RESPONSE},
        {PROTO_ID_VIEW_REQUEST, PROTO_KIND_VIEW_REQUEST}, {PROTO_ID_VIEW_UPDATE, PROTO_KIND_VIEW_UPDATE},
    };
    /* The root offset (4 bytes), the identifier, and at least a vtable offset. */
    if (!data || size < 12) return PROTO_KIND_UNKNOWN;
    const char* p = (const char*)data + 4;
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (memcmp(p, ids[i].id, 4) == 0) return ids[i].kind;
    return PROTO_KIND_UNKNOWN;
}

int proto_equal_tokens(const proto_token* a, const proto_token* b) {
    /* volatile: the compiler must not turn the loop into an early-exit memcmp. */
    volatile unsigned char diff = 0;
    for (size_t i = 0; i < sizeof a->bytes; i++) diff |= (unsigned char)(a->bytes[i] ^ b->bytes[i]);
    return diff == 0;
}

proto_status proto_status_of(nv_code code) {
    switch (code) {
    case NV_OK:
        return PROTO_STATUS_OK;
    case NV_EINVAL:
    case NV_ESTATE:
    case NV_EPROTO:
        return PROTO_STATUS_BAD_REQUEST;
    case NV_ENOENT:
        return PROTO_STATUS_NOT_FOUND;
    case NV_ELIMIT:
        return PROTO_STATUS_LIMIT_EXCEEDED;
    case NV_ECLOSED:
        return PROTO_STATUS_SHUTTING_DOWN;
    default:
        return PROTO_STATUS_INTERNAL;
    }
}

const char* proto_status_name(proto_status s) {
    switch (s) {
    case PROTO_STATUS_OK: return "ok";
    case PROTO_STATUS_BAD_REQUEST: return "bad_request";
    case PROTO_STATUS_UNAUTHORIZED: return "unauthorized";
    case PROTO_STATUS_NOT_FOUND: return "not_found";
    case PROTO_STATUS_LIMIT_EXCEEDED: return "limit_exceeded";
    case PROTO_STATUS_RATE_LIMITED: return "rate_limited";
    case PROTO_STATUS_UNSUPPORTED: return "unsupported";
    case PROTO_STATUS_INTERNAL: return "internal";
    case PROTO_STATUS_SHUTTING_DOWN: return "shutting_down";
    }
    return "unknown";
}
