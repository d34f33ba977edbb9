// Preloaded into `apicheck serve` under valgrind by Benchmarks/serve-instructions.sh, nowhere else.
// libdispatch's dispatch_main() parks the main thread in sigsuspend() with a mask that is a constant
// in read-only memory, and valgrind 3.19 (Debian 12) writes into that mask before the system call:
// it dies with SIGSEGV. Passing a copy on the stack keeps the call's meaning.
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, sizeof(unsigned long));
}
