/* fuzz_mutate.c — the fuzz suite's mutations and report escaping (see fuzz_mutate.h). */
#include "tests/fuzz_mutate.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fuzz_escaped(const char *s)
{
    static char out[FUZZ_TEXT_MAX * 4 + 16];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n < sizeof out - 8; p++) {
        if (*p == '\\' || *p == '"')
            n += (size_t)sprintf(out + n, "\\%c", *p);
        else if (*p == '\n')
            n += (size_t)sprintf(out + n, "\\n");
        else if (*p == '\t')
            n += (size_t)sprintf(out + n, "\\t");
        else if (*p == '\r')
            n += (size_t)sprintf(out + n, "\\r");
        else if (*p < 0x20 || *p >= 0x7f)
            n += (size_t)sprintf(out + n, "\\%03o", *p);
        else
            out[n++] = (char)*p;
    }
    out[n] = '\0';
    return out;
}

typedef struct text {
    char buf[FUZZ_TEXT_MAX + 1];
    size_t len;
} text_t;

static void text_set(text_t *t, const char *s)
{
    size_t n = strlen(s);
    if (n > FUZZ_TEXT_MAX) n = FUZZ_TEXT_MAX;
    memcpy(t->buf, s, n);
    t->buf[n] = '\0';
    t->len = n;
}

/* Replace t[at, at+del) with ins[0, n), keeping at most FUZZ_TEXT_MAX bytes. */
static void text_splice(text_t *t, size_t at, size_t del, const char *ins, size_t n)
{
    if (at > t->len) at = t->len;
    if (del > t->len - at) del = t->len - at;
    if (t->len - del + n > FUZZ_TEXT_MAX) n = FUZZ_TEXT_MAX - (t->len - del);
    memmove(t->buf + at + n, t->buf + at + del, t->len - at - del + 1);
    memcpy(t->buf + at, ins, n);
    t->len = t->len - del + n;
}

size_t fuzz_pick(rng_t *rng, size_t n) { return n ? rng_below(rng, (uint32_t)n) : 0; }

/* One mutation of `t`; `other` is another valid input for splicing. */
static void mutate_once(rng_t *rng, text_t *t, const char *other)
{
    static const char *const numbers[] = {"99999999999999999999",
                                          "-1",
                                          "0",
                                          "2147483647",
                                          "2147483648",
                                          "-2147483649",
                                          "4294967296",
                                          "18446744073709551616",
                                          "1e308",
                                          "-0",
                                          "00000000000000000001",
                                          "nan",
                                          "inf",
                                          "65",
                                          "33",
                                          "255",
                                          "256",
                                          "+7"};
    static const char *const controls[] = {"\n",   "\r\n", "\t",       "\x1b[0m", "\x01",
                                           "\x7f", "\xff", "\xc3\xa9", "  "};
    static const char pool[] = " ,;:/-x()=.0123456789abcdefghoWBwbKkOX*?";
    char c;
    size_t at = fuzz_pick(rng, t->len + 1);
    switch (rng_below(rng, 12)) {
    case 0: /* flip one bit */
        if (t->len) {
            t->buf[at % t->len] ^= (char)(1u << rng_below(rng, 8));
            if (t->buf[at % t->len] == '\0') t->buf[at % t->len] = '\x02';
        }
        break;
    case 1: /* replace a byte with a likely one */
        c = pool[fuzz_pick(rng, sizeof pool - 1)];
        if (t->len) t->buf[at % t->len] = c;
        break;
    case 2: /* insert a byte */
        c = rng_below(rng, 2) ? pool[fuzz_pick(rng, sizeof pool - 1)]
                              : (char)(1 + rng_below(rng, 255));
        text_splice(t, at, 0, &c, 1);
        break;
    case 3: /* delete a few bytes */ text_splice(t, at, 1 + fuzz_pick(rng, 4), "", 0); break;
    case 4: /* truncate */ text_splice(t, at, t->len, "", 0); break;
    case 5: { /* splice: our prefix, the other's suffix */
        size_t olen = strlen(other), from = fuzz_pick(rng, olen + 1);
        text_splice(t, at, t->len, other + from, olen - from);
        break;
    }
    case 6: { /* a huge or edge number over a digit run (or anywhere) */
        size_t b = at, e = at;
        while (b > 0 && isdigit((unsigned char)t->buf[b - 1])) b--;
        while (e < t->len && isdigit((unsigned char)t->buf[e])) e++;
        const char *n = numbers[fuzz_pick(rng, sizeof numbers / sizeof *numbers)];
        text_splice(t, b, e - b, n, strlen(n));
        break;
    }
    case 7: { /* repeat a token many times */
        size_t len = 1 + fuzz_pick(rng, 16),
               times = 2 + fuzz_pick(rng, rng_below(rng, 4) ? 8 : 400);
        if (at + len > t->len) len = t->len - at;
        char token[17];
        memcpy(token, t->buf + at, len);
        for (size_t k = 0; k < times && len; k++) text_splice(t, at, 0, token, len);
        break;
    }
    case 8: { /* a control character or odd spacing */
        const char *ctl = controls[fuzz_pick(rng, sizeof controls / sizeof *controls)];
        text_splice(t, at, 0, ctl, strlen(ctl));
        break;
    }
    case 9: /* the text twice */
        if (t->len * 2 + 1 <= FUZZ_TEXT_MAX) {
            size_t len = t->len;
            text_splice(t, t->len, 0, " ", 1);
            memcpy(t->buf + len + 1, t->buf, len); /* len * 2 + 1 <= FUZZ_TEXT_MAX */
            t->len = len * 2 + 1;
            t->buf[t->len] = '\0';
        }
        break;
    case 10: /* swap two bytes */
        if (t->len > 1) {
            size_t a = at % t->len, b = fuzz_pick(rng, t->len);
            c = t->buf[a], t->buf[a] = t->buf[b], t->buf[b] = c;
        }
        break;
    default: /* change a letter's case */
        if (t->len && isalpha((unsigned char)t->buf[at % t->len])) t->buf[at % t->len] ^= 0x20;
        break;
    }
}

char *fuzz_mutated(rng_t *rng, const char *base, const char *other, int *changed)
{
    text_t *t = malloc(sizeof *t);
    text_set(t, base);
    int ops = rng_below(rng, 8) == 0 ? 0 : 1 + (int)rng_below(rng, 4);
    for (int k = 0; k < ops; k++) mutate_once(rng, t, other);
    char *out = malloc(t->len + 1);
    memcpy(out, t->buf, t->len + 1);
    *changed = strcmp(out, base) != 0;
    free(t);
    return out;
}
