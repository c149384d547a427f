// SPDX-License-Identifier: MIT
/* Shared between the codec (C++, FlatBuffers) and the C parts of proto/;
 * not installed, not for callers. */
#ifndef NAVAL_PROTO_INTERNAL_H
#define NAVAL_PROTO_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define PROTO_PRINTF_LIKE(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define PROTO_PRINTF_LIKE(fmt_index, first_arg)
#endif

/* Formats into err->message (err may be NULL) with NV_EPROTO, what most
 * of the codec's failures are (input that does not decode); returns -1.
 * Other codes: nv_error_fail. */
int proto_set_error(proto_error* err, const char* fmt, ...) PROTO_PRINTF_LIKE(2, 3);

/* 1 when s[0..len) is valid UTF-8 without NUL bytes. */
int proto_check_utf8(const char* s, size_t len);

/* A name for the wire: NUL-terminated within `cap` bytes, valid UTF-8.
 * 0 or -1 with "<what> ..." in err. */
int proto_check_name(const char* s, size_t cap, const char* what, proto_error* err);

/* The FlatBuffers verifier asserts that a buffer is under 2 GiB; no
 * message may come near. */
#define PROTO_HARD_MAX_MESSAGE ((size_t)1 << 30)

/* The limits a decoder applies: the caller's, or the defaults, with the
 * message size clamped under what the FlatBuffers verifier accepts. */
proto_limits proto_effective_limits(const proto_limits* limits);

/* The FlatBuffers header of a compact snapshot; the vessels are the bit
 * stream that proto_compact.c writes and reads. */
typedef struct proto_compact_header {
    uint64_t tick;
    double sim_time;
    uint64_t send_time_ns;
    proto_tick_stats stats;
    uint64_t keyframe_tick;
    int keyframe;
    uint32_t keyframe_count;
    double origin[3];
    uint32_t vessel_count;
} proto_compact_header;

/* Builds the CompactSnapshot message around `bits` (copied). */
int proto_wrap_compact(proto_buf* out, const proto_compact_header* h, const uint8_t* bits, size_t nbytes,
                       proto_error* err);
/* Verifies a CompactSnapshot and reads its header; *bits points into
 * `data` (valid as long as it is). */
int proto_unwrap_compact(const void* data, size_t size, const proto_limits* limits, proto_compact_header* h,
                         const uint8_t** bits, size_t* nbytes, proto_error* err);

#ifdef __cplusplus
}
#endif

#endif
