// Tells ThreadSanitizer about the slow paths of Synchronization.Mutex on Linux, for
// scripts/sanitize thread (built into a shared library and loaded with LD_PRELOAD).
//
// Why: a contended Mutex is taken in `_MutexHandle._lockSlow` (a spin, then FUTEX_LOCK_PI) and
// released in `_unlockSlow` (FUTEX_UNLOCK_PI). Those live in libswiftSynchronization.so, which is
// not instrumented, and the kernel hands the lock over, so TSan never sees the acquire that orders
// two critical sections and reports the second one's access to the Mutex's value as a race
// ("Swift access race" or "data race" in a `withLock` body, or in what the body calls). The fast
// paths are inlined into our code as atomics on the same word, which TSan does see.
//
// How: these definitions take the place of the library's (the executable calls them through the
// PLT), call the library's, and annotate the Mutex's word with __tsan_acquire after a slow lock
// and __tsan_release before a slow unlock: what TSan does for a pthread mutex. In a process
// without TSan (python3, git, swift build, started by tests) the weak __tsan_* are null and only
// the library's function runs.
//
// The symbols are Swift 6.x's (`swift-demangle` them): if a toolchain renames them, dlsym finds
// nothing and the process aborts with the name, rather than silently reporting false races.
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((weak)) void __tsan_acquire(void *address);
__attribute__((weak)) void __tsan_release(void *address);

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"

// Swift passes a method's `self` (here the handle's address: it is address-only) in the
// swiftself register, which clang spells `swift_context` under the swiftcall convention.
#define SWIFTCALL __attribute__((swiftcall))
#define SELF __attribute__((swift_context))

typedef SWIFTCALL void (*LockSlow)(uint32_t, void *SELF);
typedef SWIFTCALL void (*UnlockSlow)(void *SELF);
typedef SWIFTCALL bool (*TryLockSlow)(void *SELF);

static void *library(void **cache, const char *name) {
    void *function = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (function) return function;
    function = dlsym(RTLD_NEXT, name);
    if (!function) {
        fprintf(stderr, "scripts/tsan-mutex.c: %s is not in libswiftSynchronization.so\n", name);
        abort();
    }
    __atomic_store_n(cache, function, __ATOMIC_RELEASE);
    return function;
}

SWIFTCALL void lockSlow(uint32_t selfId, void *SELF handle) __asm__(LOCK_SLOW);
SWIFTCALL void lockSlow(uint32_t selfId, void *SELF handle) {
    static void *cache;
    ((LockSlow)library(&cache, LOCK_SLOW))(selfId, handle);
    if (__tsan_acquire) __tsan_acquire(handle);
}

SWIFTCALL void unlockSlow(void *SELF handle) __asm__(UNLOCK_SLOW);
SWIFTCALL void unlockSlow(void *SELF handle) {
    static void *cache;
    UnlockSlow function = (UnlockSlow)library(&cache, UNLOCK_SLOW);
    if (__tsan_release) __tsan_release(handle);
    function(handle);
}

SWIFTCALL bool tryLockSlow(void *SELF handle) __asm__(TRY_LOCK_SLOW);
SWIFTCALL bool tryLockSlow(void *SELF handle) {
    static void *cache;
    bool locked = ((TryLockSlow)library(&cache, TRY_LOCK_SLOW))(handle);
    if (locked && __tsan_acquire) __tsan_acquire(handle);
    return locked;
}
