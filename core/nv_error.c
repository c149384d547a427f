// SPDX-License-Identifier: MIT
#include "naval/nv_error.h"

#include <stdio.h>
#include <string.h>

int nv_error_setv(nv_error* err, const char* fmt, va_list args) {
    if (err) vsnprintf(err->message, sizeof err->message, fmt, args);
    return -1;
}

int nv_error_set(nv_error* err, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    nv_error_setv(err, fmt, args);
    va_end(args);
    return -1;
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
