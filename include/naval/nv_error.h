// SPDX-License-Identifier: MIT
/* The one error type of the simulation library, the codec and the client
 * library (as nng has nng_err): a code a program can act on, and a
 * message a person can read, in a fixed buffer (no allocation, so a
 * failing call can always say what went wrong). Every function that can
 * fail returns 0, or -1 with its nv_error (which may be NULL) filled. */
#ifndef NAVAL_NV_ERROR_H
#define NAVAL_NV_ERROR_H

#include <stdarg.h>
#include "naval/nv_api.h"

NV_API_BEGIN


#define NV_ERROR_MAX 512

typedef enum nv_code {
    NV_OK = 0,
    NV_EINVAL,     /* a bad argument, option or value, or input that breaks the rules */
    NV_ENOENT,     /* no such vessel, vessel type or file */
    NV_ELIMIT,     /* a limit or capacity reached (vessels, types, sizes) */
    NV_ENOMEM,     /* out of memory */
    NV_EIO,        /* reading or writing a file failed */
    NV_ESTATE,     /* not possible in this state (a hull that sinks, a client in callback mode) */
    NV_EPROTO,     /* data that does not decode or fails its checks (messages, checkpoints) */
    NV_ECONNECT,   /* cannot reach the URL */
    NV_ETIMEDOUT,  /* no answer or snapshot in time */
    NV_ECLOSED,    /* closing or closed */
    NV_EREFUSED,   /* the server refused the request: `status` has its protocol status */
    NV_EINTERNAL,  /* a failure that is the library's, not the caller's */
    NV_CODES
} nv_code;

typedef struct nv_error {
    nv_code code;
    int status; /* with NV_EREFUSED: the server's proto_status */
    char message[NV_ERROR_MAX];
} nv_error;

#if defined(__GNUC__)
#define NV_PRINTF_LIKE(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define NV_PRINTF_LIKE(fmt_index, first_arg)
#endif

/* Formats into err->message with that code; err may be NULL. Always
 * returns -1 so that callers can write `return nv_error_fail(err, ...)`. */
int nv_error_fail(nv_error* err, nv_code code, const char* fmt, ...) NV_PRINTF_LIKE(3, 4);
int nv_error_failv(nv_error* err, nv_code code, const char* fmt, va_list args);
/* nv_error_fail with NV_EINVAL, the usual case: the caller's input. */
int nv_error_set(nv_error* err, const char* fmt, ...) NV_PRINTF_LIKE(2, 3);
int nv_error_setv(nv_error* err, const char* fmt, va_list args);
/* Prepends "prefix: " to an existing message (adds context on the way
 * up); the code stays. */
int nv_error_prefix(nv_error* err, const char* fmt, ...) NV_PRINTF_LIKE(2, 3);
/* Clears err to NV_OK and an empty message (err may be NULL). */
void nv_error_clear(nv_error* err);
/* "invalid", "not found", ...: the code in words ("?" for none). */
const char* nv_code_name(nv_code code);


NV_API_END

#endif
