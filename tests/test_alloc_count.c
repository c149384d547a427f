// SPDX-License-Identifier: MIT
#include "test_alloc_count.h"

void* __real_malloc(size_t size);
void* __real_calloc(size_t count, size_t size);
void* __real_realloc(void* p, size_t size);
void* __wrap_malloc(size_t size);
void* __wrap_calloc(size_t count, size_t size);
void* __wrap_realloc(void* p, size_t size);

static size_t test_allocation_count;

size_t test_allocations(void) { return test_allocation_count; }

void* __wrap_malloc(size_t size) {
    test_allocation_count++;
    return __real_malloc(size);
}

void* __wrap_calloc(size_t count, size_t size) {
    test_allocation_count++;
    return __real_calloc(count, size);
}

void* __wrap_realloc(void* p, size_t size) {
    test_allocation_count++;
    return __real_realloc(p, size);
}
