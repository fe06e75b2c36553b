/* sandbox.h — run a function in a forked child process, so that a crash
 * inside it (a library tripping over a damaged file) is an error for the
 * caller instead of the end of the caller's process.
 *
 * The child runs `fn(arg, fd)`, which writes its answer to `fd` (a pipe);
 * the parent collects every byte until end of file and reaps the child.
 * The child leaves with _exit(fn's status < 0 ? 1 : 0): no atexit handlers,
 * no stdio flush of the parent's buffers. The child's own limits are a CPU
 * time (RLIMIT_CPU) and, outside sanitizer builds, an address-space cap
 * (RLIMIT_AS); the parent adds a wall-clock deadline and a cap on the bytes
 * it accepts, killing the child past either.
 *
 * Threads: fork() copies only the calling thread. `fn` must use nothing
 * another thread of the parent may hold locked at the time of the call
 * (hoyle's callers hold the one lock around HDF5 while they call this);
 * malloc and stdio are safe (glibc resets their locks in the child). */
#ifndef HOYLE_CORE_SANDBOX_H
#define HOYLE_CORE_SANDBOX_H

#include <stddef.h>
#include <stdint.h>

/* Limits of one run; fill with sandbox_limits_default(). */
typedef struct sandbox_limits {
    int cpu_s;           /* CPU seconds of the child (RLIMIT_CPU), >= 1 */
    long long wall_ms;   /* wall-clock deadline of the whole run, >= 1 */
    size_t memory_bytes; /* RLIMIT_AS of the child; 0 = unlimited (sanitizer builds ignore it) */
    size_t output_bytes; /* the most the parent reads from the child */
} sandbox_limits_t;

/* cpu 60 s, wall 120 s, memory 4 GiB, output 1 GiB. */
void sandbox_limits_default(sandbox_limits_t *lim);

/* The child's body: write the answer to `fd` (blocking writes; the parent
 * reads concurrently) and return 0, or a negative status. */
typedef int (*sandbox_fn)(void *arg, int fd);

/* Run fn(arg, fd) in a child. On success (the child exited with status 0)
 * *out is a malloc'd buffer of *len bytes (NUL-terminated one past the end,
 * not counted) that the caller frees. Errors, with a message that starts
 * with `what`: HOYLE_EIO when the child died by a signal ("... crashed
 * (signal 11, Segmentation fault)"), ran past a limit, exited non-zero, or
 * could not be started; HOYLE_ENOMEM. *out is NULL on error. */
int sandbox_run(const char *what, sandbox_fn fn, void *arg, const sandbox_limits_t *lim,
                uint8_t **out, size_t *len);

/* 1 in a child started by sandbox_run (tests use it to check isolation). */
int sandbox_in_child(void);

#endif
