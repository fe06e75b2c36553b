/* notation.c — the Thirty-four Game as text: the board drawn for people with
 * its line sums, the one-line position (the N*N blocks row by row, 0 = an
 * empty cell) and the moves (`5@11`: block 5 on cell 11, the cells numbered
 * 1..N*N row by row; a bare cell number places the next block). Every parse
 * checks fully and writes its output only on success. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/grid_text.h"
#include "games/thirtyfour/thirtyfour_internal.h"

static int line_sum(const thirtyfour_lines_t *ln, const uint8_t *cell, int l)
{
    int sum = 0;
    for (int k = 0; k < ln->n; k++) sum += cell[ln->cell[l][k]];
    return sum;
}

/* Rows with their sums at the right, the column sums below, the diagonals'
 * sums, then what is left to do. */
int tf_state_to_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const thirtyfour_lines_t *ln = &tf_impl(g)->lines;
    const tf_state_t *s = sv;
    int n = ln->n;
    size_t used = 0;
    bool ok = true;
    for (int r = 0; r < n && ok; r++) {
        for (int c = 0; c < n && ok; c++) {
            int b = s->cell[r * n + c];
            ok = b ? grid_text_put(buf, cap, &used, " %3d", b)
                   : grid_text_put(buf, cap, &used, "   .");
        }
        ok = ok && grid_text_put(buf, cap, &used, "  | %d\n", line_sum(ln, s->cell, r));
    }
    for (int c = 0; c < n && ok; c++) ok = grid_text_put(buf, cap, &used, " ---");
    ok = ok && grid_text_put(buf, cap, &used, "\n");
    for (int c = 0; c < n && ok; c++)
        ok = grid_text_put(buf, cap, &used, " %3d", line_sum(ln, s->cell, n + c));
    ok = ok &&
         grid_text_put(buf, cap, &used, "\ndiagonals %d and %d, lines to make %d\n",
                       line_sum(ln, s->cell, 2 * n), line_sum(ln, s->cell, 2 * n + 1), ln->magic);
    if (ok && s->placed < ln->cells)
        ok = grid_text_put(buf, cap, &used, "next block %d\n", s->placed + 1);
    else if (ok)
        ok = grid_text_put(buf, cap, &used, "%s\n",
                           thirtyfour_deviation(ln, s->cell) ? "not magic" : "magic");
    if (!ok)
        return hoyle_error(HOYLE_EFULL, "thirtyfour: board text does not fit in %zu bytes", cap);
    return (int)used;
}

int tf_position_to_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const tf_state_t *s = sv;
    size_t used = 0;
    bool ok = true;
    for (int c = 0; c < tf_impl(g)->lines.cells && ok; c++)
        ok = grid_text_put(buf, cap, &used, c ? " %d" : "%d", s->cell[c]);
    if (!ok) return hoyle_error(HOYLE_EFULL, "thirtyfour: position does not fit in %zu bytes", cap);
    return (int)used;
}

/* N*N numbers: the blocks 1..k once each (k the count of non-zero ones),
 * 0 on the other cells; blocks go on in order, so no other set is a
 * position of the game. */
int tf_position_from_string(const game_t *g, const char *text, void *sv)
{
    const tf_impl_t *im = tf_impl(g);
    int cells = im->lines.cells, count = 0, placed = 0;
    tf_state_t tmp;
    memset(&tmp, 0, sizeof tmp);
    const grid_read_t r = {.what = "thirtyfour: position",
                           .noun = "block",
                           .bad = "a block number",
                           .many = "cells",
                           .shown = 10,
                           .cells = cells,
                           .max_value = cells,
                           .max_digits = 3,
                           .zeros = true};
    int status = grid_text_read(&r, text, tmp.cell, &count, NULL);
    if (status) return status;
    bool seen[THIRTYFOUR_MAX_CELLS + 1] = {false};
    for (int c = 0; c < count; c++) {
        seen[tmp.cell[c]] = tmp.cell[c] != 0;
        placed += tmp.cell[c] != 0;
    }
    if (count != cells)
        return hoyle_error(HOYLE_EINVAL, "thirtyfour: position: %d cells, want %d (0 = empty)",
                           count, cells);
    for (int b = 1; b <= placed; b++)
        if (!seen[b])
            return hoyle_error(HOYLE_EINVAL,
                               "thirtyfour: position: %d blocks but not block %d (blocks go on "
                               "in order from 1)",
                               placed, b);
    tmp.placed = (uint8_t)placed;
    tmp.hash = tf_hash_compute(im, &tmp);
    memcpy(sv, &tmp, sizeof tmp);
    return HOYLE_OK;
}

int tf_action_to_string(const game_t *g, const void *sv, int action, char *buf, size_t cap)
{
    (void)g;
    int n = snprintf(buf, cap, "%d@%d", ((const tf_state_t *)sv)->placed + 1, action + 1);
    if (n < 0 || (size_t)n >= cap)
        return hoyle_error(HOYLE_EFULL, "thirtyfour: no room for a move");
    return n;
}

/* A decimal number of at most 3 digits at *p (advanced past it), or -1; what follows is
 * the caller's (`K@C`). */
static int read_number(const char **p)
{
    const char *q = *p;
    int v = 0, digits = 0;
    while (isdigit((unsigned char)*q) && digits < 4) v = v * 10 + (*q++ - '0'), digits++;
    if (digits == 0 || digits > 3) return -1;
    *p = q;
    return v;
}

/* `K@C` (block K, which must be the next, on cell C) or `C`. */
int tf_action_from_string(const game_t *g, const void *sv, const char *text, int *action)
{
    const tf_state_t *s = sv;
    int cells = tf_impl(g)->lines.cells;
    const char *p = text;
    while (isspace((unsigned char)*p)) p++;
    int a = read_number(&p), block = s->placed + 1;
    if (a >= 0 && *p == '@') {
        p++;
        if (a != block)
            return hoyle_error(HOYLE_EINVAL, "thirtyfour: block %d is not the next block (%d)", a,
                               block);
        a = read_number(&p);
    }
    while (isspace((unsigned char)*p)) p++;
    if (a < 0 || *p)
        return hoyle_error(HOYLE_EINVAL, "thirtyfour: bad move '%.20s' (K@C or a cell 1..%d)", text,
                           cells);
    if (s->placed >= cells) return hoyle_error(HOYLE_EINVAL, "thirtyfour: every block is placed");
    if (a < 1 || a > cells)
        return hoyle_error(HOYLE_EINVAL, "thirtyfour: cell %d is out of range 1..%d", a, cells);
    if (s->cell[a - 1])
        return hoyle_error(HOYLE_EINVAL, "thirtyfour: cell %d holds block %d", a, s->cell[a - 1]);
    *action = a - 1;
    return HOYLE_OK;
}
