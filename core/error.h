/* error.h — the status + message convention shared by every hoyle module.
 *
 * Functions that can fail return an int: 0 (HOYLE_OK) on success, a negative
 * HOYLE_E* code on failure. The failing function records a one-line message
 * (thread-local, so concurrent workers do not clobber each other) that the
 * caller reads with hoyle_last_error(); control characters in it (from
 * quoted user input) are stored escaped (\n, \xHH), so it stays one line.
 * A failed call changes nothing the caller owns (STYLE.md point 5). Only
 * apps/ turns an error into an exit. */
#ifndef HOYLE_CORE_ERROR_H
#define HOYLE_CORE_ERROR_H

enum {
    HOYLE_OK = 0,
    HOYLE_EINVAL = -1, /* bad input: malformed text, out-of-range value, illegal move */
    HOYLE_ENOMEM = -2, /* allocation failed */
    HOYLE_EIO = -3,    /* file could not be read or written */
    HOYLE_EFULL = -4,  /* a fixed-size arena or buffer is full (reported, not a crash) */
    HOYLE_ESTATE = -5, /* operation not valid in this state (e.g. terminal) */
    HOYLE_EUNSUP = -6  /* the game or build does not support this operation */
};

/* Size of the per-thread message buffer, terminating NUL included: longer
 * messages are truncated. */
#define HOYLE_ERROR_MAX 512

/* Record a printf-style message for this thread and return `code`, so every
 * error site is one line: `return hoyle_error(HOYLE_EINVAL, "fen: bad ...");`
 * The arguments may point into the current message. To add context to an
 * error a callee reported, use hoyle_error_prefix(). */
int hoyle_error(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Put a printf-style context before this thread's current message and return
 * `code`, so a caller adds where the error happened without losing why:
 *   if (game_create(text, &g)) return hoyle_error_prefix(HOYLE_EINVAL, "%s: key 'games'", at);
 * turns "gobang: board: 99 is out of range [5, 19]" into
 * "t.yaml:2: key 'games': gobang: board: 99 is out of range [5, 19]". The
 * prefix and the message are joined by ": " (no separator when the current
 * message is empty; an empty prefix leaves the message as it was). The
 * arguments may point into the current message (hoyle_last_error()). The
 * result is cut at HOYLE_ERROR_MAX - 1 bytes, the end of the reason first.
 * Never format hoyle_last_error() into hoyle_error() by hand for this. */
int hoyle_error_prefix(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The last message recorded on this thread ("" if none). Valid until the next
 * hoyle_error() call on the same thread. */
const char *hoyle_last_error(void);

/* Forget the last message. */
void hoyle_clear_error(void);

#endif
