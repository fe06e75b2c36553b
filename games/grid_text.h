/* grid_text.h — the text of positions that are a grid of small numbers, row by row (the
 * Fifteen puzzle's tiles, the Thirty-four Game's blocks): one bounded writer and one
 * reader that checks every number, for the games' notation files. */
#ifndef HOYLE_GAMES_GRID_TEXT_H
#define HOYLE_GAMES_GRID_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Append printf output at buf + *used; false (the buffer left terminated) once it does
 * not fit in cap. */
bool grid_text_put(char *buf, size_t cap, size_t *used, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Whether c separates numbers: white space, ',' or '/'. */
bool grid_text_sep(char c);

/* A decimal number of 1 to max_digits digits at *p that ends at a separator or at the end
 * of the text (*p advanced past it), or -1 (*p unchanged). */
long grid_text_number(const char **p, int max_digits);

/* What grid_text_read reads and how its messages name things. */
typedef struct grid_read {
    const char *what; /* the message prefix: "fifteen: position" */
    const char *noun; /* one number: "tile", "block" */
    const char *bad;  /* what a bad token is not: "a tile number (0..15, 0 = the blank)" */
    const char *many; /* the things counted: "tiles", "cells" */
    int shown;        /* a bad token in the message: 0 up to the next separator (20
                         characters at most), N > 0 the N characters from its start */
    int cells;        /* the most numbers (out's size) */
    int max_value;    /* each in 0..max_value (at most 255) */
    int max_digits;   /* each of 1..max_digits digits */
    bool zeros;       /* 0 may stand more than once (empty cells) */
    const char *stop; /* a word that ends the numbers ("moves="), or NULL */
} grid_read_t;

/* Read the numbers of text into out[0..*count), each checked in this order: a number
 * (`WHAT: 'TOKEN' is not BAD`), in range (`WHAT: NOUN V is out of range 0..MAX`), not seen
 * before (`WHAT: NOUN V appears twice`; 0 exempt with zeros), room left (`WHAT: more than
 * CELLS MANY`). Stops at the end of text or at r->stop after separators (*rest: there).
 * The count is the caller's to check. 0 or HOYLE_EINVAL; out and *count are written only
 * on success. */
int grid_text_read(const grid_read_t *r, const char *text, uint8_t *out, int *count,
                   const char **rest);

#endif
