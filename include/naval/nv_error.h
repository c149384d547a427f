// SPDX-License-Identifier: MIT
/* Error reporting shared by every module: a fixed buffer, no allocation, so
 * a failing call can always say what went wrong. */
#ifndef NAVAL_NV_ERROR_H
#define NAVAL_NV_ERROR_H

#include <stdarg.h>

#define NV_ERROR_MAX 512

typedef struct nv_error {
    char message[NV_ERROR_MAX];
} nv_error;

#if defined(__GNUC__)
#define NV_PRINTF_LIKE(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define NV_PRINTF_LIKE(fmt_index, first_arg)
#endif

/* Formats into err->message; err may be NULL. Always returns -1 so that
 * callers can write `return nv_error_set(err, "...")`. */
int nv_error_set(nv_error* err, const char* fmt, ...) NV_PRINTF_LIKE(2, 3);
int nv_error_setv(nv_error* err, const char* fmt, va_list args);
/* Prepends "prefix: " to an existing message (adds context on the way up). */
int nv_error_prefix(nv_error* err, const char* fmt, ...) NV_PRINTF_LIKE(2, 3);

#endif
