/* error.c — thread-local last-error message (see error.h).
 *
 * Invariant: last_message is always NUL-terminated and one line: control
 * characters (a newline in user input quoted by a message) are stored as
 * escapes, \n \r \t or \xHH. Every writer formats into a stack temporary
 * first and copies it in afterwards, because callers pass
 * hoyle_last_error() (a pointer into last_message) as an argument, and
 * vsnprintf into the buffer it is reading is undefined (in practice it
 * overwrites the reason with the prefix before reading it). */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_message[HOYLE_ERROR_MAX];

/* Copy `text` (NUL-terminated, shorter than the buffer) into last_message,
 * control characters escaped; an escape that does not fit is left out with
 * the rest. Idempotent: an escaped message is stored unchanged. */
static void store(const char *text)
{
    char out[HOYLE_ERROR_MAX];
    size_t len = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        char esc[5] = {(char)*c, '\0'};
        if (*c < 0x20 || *c == 0x7f) {
            const char *named = *c == '\n' ? "\\n" : *c == '\r' ? "\\r" : *c == '\t' ? "\\t" : NULL;
            if (named)
                memcpy(esc, named, 3);
            else
                snprintf(esc, sizeof esc, "\\x%02x", *c);
        }
        size_t n = strlen(esc);
        if (len + n > sizeof out - 1) break;
        memcpy(out + len, esc, n);
        len += n;
    }
    out[len] = '\0';
    memcpy(last_message, out, len + 1);
}

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
