#ifndef APICHECK_MALLOC_H
#define APICHECK_MALLOC_H

/// Limits glibc's allocator to `arenas` arenas and maps blocks of `mmap_threshold` bytes and more
/// (a fixed threshold: glibc otherwise raises it after each large free, and a long-running
/// process then keeps freed memory it cannot return). Does nothing on other C libraries.
void apicheck_tune_malloc(int arenas, int mmap_threshold);

/// Returns the allocator's free memory to the system (glibc's malloc_trim; nothing elsewhere).
void apicheck_release_free_memory(void);

#endif
