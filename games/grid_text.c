/* grid_text.c — positions that are a grid of small numbers as text (grid_text.h).
 * Invariant: a failed read writes nothing. */
#include "games/grid_text.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"

bool grid_text_put(char *buf, size_t cap, size_t *used, const char *fmt, ...)
{
    if (*used >= cap) return false;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, cap - *used, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= cap - *used) return false;
    *used += (size_t)n;
    return true;
}

bool grid_text_sep(char c) { return isspace((unsigned char)c) || c == ',' || c == '/'; }

long grid_text_number(const char **p, int max_digits)
{
    const char *q = *p;
    long v = 0;
    int digits = 0;
    while (isdigit((unsigned char)*q) && digits <= max_digits) v = v * 10 + (*q++ - '0'), digits++;
    if (digits == 0 || digits > max_digits || (*q && !grid_text_sep(*q))) return -1;
    *p = q;
    return v;
}

int grid_text_read(const grid_read_t *r, const char *text, uint8_t *out, int *count,
                   const char **rest)
{
    uint8_t tmp[256];
    bool seen[256] = {false};
    int n = 0, cap = r->cells < 256 ? r->cells : 256;
    const char *p = text;
    size_t stop = r->stop ? strlen(r->stop) : 0;
    for (;;) {
        while (grid_text_sep(*p)) p++;
        if (*p == '\0' || (stop && strncmp(p, r->stop, stop) == 0)) break;
        const char *at = p;
        long v = grid_text_number(&p, r->max_digits);
        if (v < 0) {
            int len = r->shown > 0 ? r->shown : (int)strcspn(at, " \t\n,/");
            if (r->shown == 0 && len > 20) len = 20;
            return hoyle_error(HOYLE_EINVAL, "%s: '%.*s' is not %s", r->what, len, at, r->bad);
        }
        if (v > r->max_value || v > 255)
            return hoyle_error(HOYLE_EINVAL, "%s: %s %ld is out of range 0..%d", r->what, r->noun,
                               v, r->max_value);
        if (seen[v] && (v || !r->zeros))
            return hoyle_error(HOYLE_EINVAL, "%s: %s %ld appears twice", r->what, r->noun, v);
        if (n == cap)
            return hoyle_error(HOYLE_EINVAL, "%s: more than %d %s", r->what, r->cells, r->many);
        seen[v] = true;
        tmp[n++] = (uint8_t)v;
    }
    memcpy(out, tmp, (size_t)n);
    *count = n;
    if (rest) *rest = p;
    return HOYLE_OK;
}
