// SPDX-License-Identifier: MIT
#include "naval/nv_error.h"

#include <stdio.h>
#include <string.h>

int nv_error_failv(nv_error* err, nv_code code, const char* fmt, va_list args) {
    if (err) {
        err->code = code;
        err->status = 0;
        vsnprintf(err->message, sizeof err->message, fmt, args);
    }
    return -1;
}

int nv_error_fail(nv_error* err, nv_code code, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    nv_error_failv(err, code, fmt, args);
    va_end(args);
    return -1;
}

int nv_error_setv(nv_error* err, const char* fmt, va_list args) { return nv_error_failv(err, NV_EINVAL, fmt, args); }

int nv_error_set(nv_error* err, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    nv_error_failv(err, NV_EINVAL, fmt, args);
    va_end(args);
    return -1;
}

void nv_error_clear(nv_error* err) {
    if (!err) return;
    err->code = NV_OK;
    err->status = 0;
    err->message[0] = '\0';
}

const char* nv_code_name(nv_code code) {
    static const char* const names[NV_CODES] = {
        [NV_OK] = "ok",
        [NV_EINVAL] = "invalid",
        [NV_ENOENT] = "not found",
        [NV_ELIMIT] = "limit reached",
        [NV_ENOMEM] = "out of memory",
        [NV_EIO] = "input/output",
        [NV_ESTATE] = "wrong state",
        [NV_EPROTO] = "does not decode",
        [NV_ECONNECT] = "cannot connect",
        [NV_ETIMEDOUT] = "timed out",
        [NV_ECLOSED] = "closed",
        [NV_EREFUSED] = "refused by the server",
        [NV_EINTERNAL] = "internal",
    };
    return (unsigned)code < NV_CODES && names[code] ? names[code] : "?";
}

int nv_error_prefix(nv_error* err, const char* fmt, ...) {
    if (!err) return -1;
    char prefix[NV_ERROR_MAX];
    va_list args;
    va_start(args, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, args);
    va_end(args);
    /* Truncation is fine here: the message stays a valid, shortened string. */
    size_t plen = strlen(prefix);
    if (plen > NV_ERROR_MAX - 3) plen = NV_ERROR_MAX - 3;
    size_t keep = NV_ERROR_MAX - 1 - plen - 2;
    size_t olen = strnlen(err->message, NV_ERROR_MAX - 1);
    if (olen > keep) olen = keep;
    memmove(err->message + plen + 2, err->message, olen);
    memcpy(err->message, prefix, plen);
    err->message[plen] = ':';
    err->message[plen + 1] = ' ';
    err->message[plen + 2 + olen] = '\0';
    return -1;
}
