// SPDX-License-Identifier: MIT
/* The one export macro of every public header: NV_API_BEGIN opens its
 * declarations and NV_API_END closes them. Inside, functions have C
 * linkage from C++ and default visibility out of a library built with
 * -fvisibility=hidden (core is: what include/naval/ does not declare stays
 * inside it; tests/core_symbols.sh checks the archive). Every public type
 * and function carries the prefix nv_, so a game engine's own `world` or
 * `mesh` cannot clash (tests/test_headers.cpp includes them all in C++
 * beside such types). */
#ifndef NAVAL_NV_API_H
#define NAVAL_NV_API_H

#ifdef __cplusplus
#define NV_API_BEGIN _Pragma("GCC visibility push(default)") extern "C" {
#define NV_API_END } _Pragma("GCC visibility pop")
#else
#define NV_API_BEGIN _Pragma("GCC visibility push(default)")
#define NV_API_END _Pragma("GCC visibility pop")
#endif

#endif
