/* child.h — an external program as a child process spoken to by lines: the
 * one helper behind hoyle's clients of other programs (GNU Backgammon,
 * games/backgammon/gnubg_client.h; UCI engines, mcts/agent_uci.c).
 *
 * The child's stdin and stdout are one end of an AF_UNIX socket pair, its
 * stderr is /dev/null. Writes use send(MSG_NOSIGNAL), so a dead child is an
 * EPIPE error, never a SIGPIPE. Every read waits until a deadline at most.
 *
 * Invariant: after any I/O failure (end of input, a timeout, a write to a
 * dead child, a line longer than CHILD_LINE_MAX) the child is *broken*:
 * every later read or write fails at once with HOYLE_EIO, and closing it
 * kills the process without a grace period (a broken child may be hung).
 * Messages start with the name given to child_open ("uci: no reply within
 * 500 ms"). One child is used by one thread at a time. */
#ifndef HOYLE_CORE_CHILD_H
#define HOYLE_CORE_CHILD_H

#include <stdbool.h>
#include <stddef.h>

#define CHILD_LINE_MAX (1u << 20) /* longest line accepted from a child, in bytes */

typedef struct child child_t;

/* The monotonic clock in milliseconds, the time base of every deadline below. */
long long child_now_ms(void);

/* Whether `program` can be executed: a path with a '/' is checked as is, a
 * bare name is looked up in $PATH (as execvp would). */
bool child_program_exists(const char *program);

/* Start argv[0] (a path, or a bare name looked up in $PATH) with the
 * arguments argv[1..] (NULL-terminated) and the environment envp (NULL =
 * ours). `name` (copied, at most 31 characters) starts every message. On
 * success *out owns the process; free it with child_close(). Errors:
 * HOYLE_EUNSUP when the program is missing or not executable (callers may
 * skip), HOYLE_EIO when the process cannot be set up, HOYLE_ENOMEM. *out is
 * untouched on error. A program that starts but cannot be executed shows up
 * as end of input on the first read (see child_exit_status). */
int child_open(const char *name, char *const argv[], char *const envp[], child_t **out);

/* The next line from the child (without its '\n', and without a '\r'
 * before it), NUL-terminated in the child's buffer: valid until the next
 * read. Waits until `deadline_ms` (child_now_ms() time) at most. Errors:
 * HOYLE_EIO (end of input, timeout, poll/read failure, line too long; the
 * child is broken from then on), HOYLE_ENOMEM. */
int child_read_line(child_t *c, long long deadline_ms, char **line);

/* child_read_line() that may come back empty-handed: 1 with a line, 0 when
 * `deadline_ms` passed first (the child stays usable), or a negative status
 * as child_read_line(). For waits that check something else meanwhile. */
int child_poll_line(child_t *c, long long deadline_ms, char **line);

/* Send `n` bytes (all of them, or HOYLE_EIO with the child broken). */
int child_send(child_t *c, const char *text, size_t n);

/* Send printf-style text (at most 64 KiB). */
int child_printf(child_t *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* True after an I/O failure (see the invariant above). */
bool child_broken(const child_t *c);

/* Mark the child broken with a message (a protocol error the caller found in
 * a line it read); returns HOYLE_EIO. */
int child_fail(child_t *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Wait up to `grace_ms` for the child to exit, then kill it (SIGKILL) and
 * reap it. Returns its wait status, or -1 when it had to be killed or was
 * already reaped. Used after end of input to tell "could not execute" (exit
 * status 127) from other failures. */
int child_exit_status(child_t *c, int grace_ms);

/* Stop the child and free it: unless it is broken, send `quit_line` (may be
 * NULL) and wait up to `grace_ms` for it to exit; then kill it. NULL is a
 * no-op. */
void child_close(child_t *c, const char *quit_line, int grace_ms);

#endif
