/* error.c — thread-local last-error message (see error.h).
 *
 * Invariant: last_message is always NUL-terminated. Every writer formats into
 * a stack temporary first and copies it in afterwards, because callers pass
 * hoyle_last_error() (a pointer into last_message) as an argument, and
 * vsnprintf into the buffer it is reading is undefined (in practice it
 * overwrites the reason with the prefix before reading it). */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_message[HOYLE_ERROR_MAX];

/* Copy `text` (NUL-terminated, shorter than the buffer) into last_message. */
static void store(const char *text) { memcpy(last_message, text, strlen(text) + 1); }

int hoyle_error(int code, const char *fmt, ...)
{
    char text[HOYLE_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    if (vsnprintf(text, sizeof text, fmt, ap) < 0) text[0] = '\0'; /* encoding error */
    va_end(ap);
    store(text);
    return code;
}

/* Append `src` to `dst` (holding `len` bytes), keeping at most
 * HOYLE_ERROR_MAX - 1 bytes; returns the new length. */
static size_t append(char *dst, size_t len, const char *src)
{
    size_t n = strlen(src), room = HOYLE_ERROR_MAX - 1 - len;
    if (n > room) n = room;
    memcpy(dst + len, src, n);
    return len + n;
}

int hoyle_error_prefix(int code, const char *fmt, ...)
{
    char prefix[HOYLE_ERROR_MAX], text[HOYLE_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    if (vsnprintf(prefix, sizeof prefix, fmt, ap) < 0) prefix[0] = '\0';
    va_end(ap);
    if (prefix[0] == '\0') return code;
    /* prefix first: a message too long for the buffer loses the tail of the
     * reason, never the context that says where it happened */
    size_t len = append(text, 0, prefix);
    if (last_message[0]) len = append(text, append(text, len, ": "), last_message);
    text[len] = '\0';
    store(text);
    return code;
}

const char *hoyle_last_error(void) { return last_message; }

void hoyle_clear_error(void) { last_message[0] = '\0'; }
