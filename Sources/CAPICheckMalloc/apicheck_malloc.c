#include "apicheck_malloc.h"

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
