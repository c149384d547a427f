// SPDX-License-Identifier: MIT
/* WebSocket frames (RFC 6455) as the edge speaks them: the handshake's
 * accept key, the server's (unmasked) frame headers, and a decoder for
 * the frames clients send, which must be masked. Pure functions on
 * buffers; the edge (edge.h) owns the sockets.
 *
 * Every rule a server must enforce is enforced here and answered with the
 * close code to send: reserved bits, unknown opcodes, unmasked client
 * frames, fragmented or oversized control frames, non-minimal lengths and
 * fragments out of sequence are protocol errors (1002); a frame over the
 * caller's limit is 1009. */
#ifndef NAVAL_SERVER_WSFRAME_H
#define NAVAL_SERVER_WSFRAME_H

#include <stddef.h>
#include <stdint.h>

#define WSFRAME_HEADER_MAX 10
#define WSFRAME_CONTROL_MAX 125
#define WSFRAME_ACCEPT_LEN 28

typedef enum wsframe_opcode {
    WSFRAME_CONTINUATION = 0x0,
    WSFRAME_TEXT = 0x1,
    WSFRAME_BINARY = 0x2,
    WSFRAME_CLOSE = 0x8,
    WSFRAME_PING = 0x9,
    WSFRAME_PONG = 0xA,
} wsframe_opcode;

enum {
    WSFRAME_CLOSE_NORMAL = 1000,
    WSFRAME_CLOSE_GOING_AWAY = 1001,
    WSFRAME_CLOSE_PROTOCOL = 1002,
    WSFRAME_CLOSE_UNSUPPORTED = 1003,
    WSFRAME_CLOSE_POLICY = 1008,
    WSFRAME_CLOSE_TOO_BIG = 1009,
};

typedef struct wsframe {
    int fin;
    wsframe_opcode opcode;
    uint8_t* payload;   /* inside the caller's buffer, unmasked */
    size_t size;
} wsframe;

/* Sec-WebSocket-Accept for a client's Sec-WebSocket-Key: out gets 28
 * characters and a NUL. -1 when the key is not the base64 of 16 bytes. */
int wsframe_accept_key(const char* key, size_t key_len, char out[WSFRAME_ACCEPT_LEN + 1]);

/* A server frame's header for `size` payload bytes; returns its length. */
size_t wsframe_header(uint8_t out[WSFRAME_HEADER_MAX], int fin, wsframe_opcode opcode, uint64_t size);

/* The whole frame at the start of data[0..len), its payload unmasked in
 * place: the bytes it took (> 0) with *out set, 0 when more bytes are
 * needed, or minus the close code to send (*why says what was wrong). */
long wsframe_decode(uint8_t* data, size_t len, size_t max_payload, wsframe* out, const char** why);

/* Fragments in order: a continuation only inside a message, a new data
 * frame only outside one (control frames may come between). */
typedef struct wsframe_sequence {
    int open;                /* a fragmented message has begun */
    wsframe_opcode opcode;   /* its first frame's */
} wsframe_sequence;

/* 0, or minus the close code (1002) when the frame breaks the order. */
int wsframe_sequence_check(wsframe_sequence* s, const wsframe* f, const char** why);

#endif
