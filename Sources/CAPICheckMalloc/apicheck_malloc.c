#include "apicheck_malloc.h"

// Any libc header defines __GLIBC__ on glibc; without one the checks below are always false
// (they were, until a heap measurement showed neither function doing anything).
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void apicheck_tune_malloc(int arenas, int mmap_threshold) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, arenas);
    mallopt(M_MMAP_THRESHOLD, mmap_threshold);
#else
    (void)arenas;
    (void)mmap_threshold;
#endif
}

void apicheck_release_free_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
