// SPDX-License-Identifier: MIT
/* Growable arrays: the one place the project grows a block with realloc.
 * An array is a pointer and a capacity (in elements); growing keeps its
 * contents, and out of memory (or a size that would overflow) leaves the
 * old block and its capacity as they were, so the caller still owns and
 * frees one block. */
#ifndef NAVAL_BASE_GROW_H
#define NAVAL_BASE_GROW_H

#include <stddef.h>
#include <stdint.h>

/* Resizes *p to exactly `count` elements of `size` bytes (one byte at the
 * least, so a zero count still gives a block): 0, or -1 when out of
 * memory or when count * size overflows, *p unchanged. */
int grow_resize(void** p, size_t count, size_t size);

/* The capacity for `need` elements: cap doubled (from `min` when cap is 0)
 * until it holds need; cap itself when it already does. For arrays that
 * share one capacity and grow together with grow_resize. */
size_t grow_capacity(size_t cap, size_t need, size_t min);

/* Room for `need` elements of `size` bytes in *p, which has room for

 * *cap. Nothing happens while need <= *cap; else the capacity doubles
 * from *cap (from `min` when *cap is 0) until it holds need, or becomes
 * exactly need when min is 0. 0, or -1 when out of memory or overflow,
 * *p and *cap unchanged. */
int grow_reserve(void** p, size_t* cap, size_t need, size_t size, size_t min);
/* The same for a uint32_t capacity: it stops at UINT32_MAX elements. */
int grow_reserve32(void** p, uint32_t* cap, size_t need, size_t size, size_t min);

/* Appends n bytes of data at *buf + *len (room doubling from 1024 bytes):
 * 0, or -1 when out of memory, the buffer unchanged. */
int grow_append(uint8_t** buf, size_t* len, size_t* cap, const void* data, size_t n);

/* GROW(&array, &capacity, need, min): grow_reserve or grow_reserve32 by
 * the capacity's type, the element size taken from the array. */
#define GROW(pp, capp, need, min)                                                                                     \
    _Generic(*(capp), uint32_t: grow_reserve32, default: grow_reserve)((void**)(pp), (capp), (need), sizeof **(pp), \
                                                                        (min))

#endif
