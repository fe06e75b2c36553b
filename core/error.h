/* error.h — the status + message convention shared by every hoyle module.
 *
 * Functions that can fail return an int: 0 (HOYLE_OK) on success, a negative
 * HOYLE_E* code on failure. The failing function records a one-line message
 * (thread-local, so concurrent workers do not clobber each other) that the
 * caller reads with hoyle_last_error(). A failed call changes nothing the
 * caller owns (STYLE.md point 5). Only apps/ turns an error into an exit. */
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

/* Record a printf-style message for this thread and return `code`, so every
 * error site is one line: `return hoyle_error(HOYLE_EINVAL, "fen: bad ...");` */
int hoyle_error(int code, const char *fmt, ...)
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
