// SPDX-License-Identifier: MIT
#include "wsframe.h"

#include <mbedtls/base64.h>
#include <mbedtls/sha1.h>
#include <string.h>

/* RFC 6455 1.3 */
static const char wsframe_guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

int wsframe_accept_key(const char* key, size_t key_len, char out[WSFRAME_ACCEPT_LEN + 1]) {
    unsigned char raw[32];
    size_t raw_len = 0;
    if (key_len != 24 || mbedtls_base64_decode(raw, sizeof raw, &raw_len, (const unsigned char*)key, key_len) != 0 ||
        raw_len != 16)
        return -1;
    unsigned char text[24 + sizeof wsframe_guid];
    memcpy(text, key, 24);
    memcpy(text + 24, wsframe_guid, sizeof wsframe_guid - 1);
    unsigned char digest[20];
    if (mbedtls_sha1_ret(text, 24 + sizeof wsframe_guid - 1, digest) != 0) return -1;
    size_t n = 0;
    if (mbedtls_base64_encode((unsigned char*)out, WSFRAME_ACCEPT_LEN + 1, &n, digest, sizeof digest) != 0 ||
        n != WSFRAME_ACCEPT_LEN)
        return -1;
    out[WSFRAME_ACCEPT_LEN] = '\0';
    return 0;
}

size_t wsframe_header(uint8_t out[WSFRAME_HEADER_MAX], int fin, wsframe_opcode opcode, uint64_t size) {
    out[0] = (uint8_t)((fin ? 0x80 : 0) | (opcode & 0x0f));
    if (size < 126) {
        out[1] = (uint8_t)size;
        return 2;
    }
    if (size <= 0xffff) {
        out[1] = 126;
        out[2] = (uint8_t)(size >> 8);
        out[3] = (uint8_t)size;
        return 4;
    }
    out[1] = 127;
    for (int i = 0; i < 8; i++) out[2 + i] = (uint8_t)(size >> (56 - 8 * i));
    return 10;
}

static long wsframe_refuse(const char** why, const char* text, int code) {
    *why = text;
    return -code;
}

long wsframe_decode(uint8_t* d, size_t len, size_t max_payload, wsframe* out, const char** why) {
    if (len < 2) return 0;
    int fin = d[0] & 0x80, opcode = d[0] & 0x0f, masked = d[1] & 0x80;
    uint64_t size = d[1] & 0x7f;
    if (d[0] & 0x70) return wsframe_refuse(why, "reserved bits set (no extension was agreed)", WSFRAME_CLOSE_PROTOCOL);
    int control = opcode & 0x08;
    if ((opcode > WSFRAME_BINARY && !control) || opcode > WSFRAME_PONG)
        return wsframe_refuse(why, "unknown opcode", WSFRAME_CLOSE_PROTOCOL);
    if (control && !fin) return wsframe_refuse(why, "a fragmented control frame", WSFRAME_CLOSE_PROTOCOL);
    if (control && size > WSFRAME_CONTROL_MAX)
        return wsframe_refuse(why, "a control frame over 125 bytes", WSFRAME_CLOSE_PROTOCOL);
    if (!masked) return wsframe_refuse(why, "an unmasked frame from a client", WSFRAME_CLOSE_PROTOCOL);
    size_t at = 2;
    if (size == 126) {
        if (len < 4) return 0;
        size = ((uint64_t)d[2] << 8) | d[3];
        if (size < 126) return wsframe_refuse(why, "a length not in its shortest form", WSFRAME_CLOSE_PROTOCOL);
        at = 4;
    } else if (size == 127) {
        if (len < 10) return 0;
        size = 0;
        for (int i = 0; i < 8; i++) size = (size << 8) | d[2 + i];
        if (size >> 63) return wsframe_refuse(why, "a length with its top bit set", WSFRAME_CLOSE_PROTOCOL);
        if (size <= 0xffff) return wsframe_refuse(why, "a length not in its shortest form", WSFRAME_CLOSE_PROTOCOL);
        at = 10;
    }
    if (size > max_payload) return wsframe_refuse(why, "a frame over the size limit", WSFRAME_CLOSE_TOO_BIG);
    if (len < at + 4 || len - at - 4 < size) return 0;
    const uint8_t* mask = d + at;
    uint8_t* p = d + at + 4;
    for (size_t i = 0; i < size; i++) p[i] ^= mask[i & 3];
    out->fin = fin != 0;
    out->opcode = (wsframe_opcode)opcode;
    out->payload = p;
    out->size = (size_t)size;
    return (long)(at + 4 + size);
}

int wsframe_sequence_check(wsframe_sequence* s, const wsframe* f, const char** why) {
    if (f->opcode & 0x08) return 0;
    if (f->opcode == WSFRAME_CONTINUATION) {
        if (!s->open) return (int)wsframe_refuse(why, "a continuation outside a message", WSFRAME_CLOSE_PROTOCOL);
    } else {
        if (s->open) return (int)wsframe_refuse(why, "a new message inside a fragmented one", WSFRAME_CLOSE_PROTOCOL);
        s->opcode = f->opcode;
    }
    s->open = !f->fin;
    return 0;
}
