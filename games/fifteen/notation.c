/* notation.c — the Fifteen puzzle as text: the board drawn for people, the
 * one-line position (the tiles row by row, 0 = the blank, as in Korf's
 * instance lists, then `moves=K` once moves were made) and the moves (u d l
 * r: where the blank goes; or the number of the tile to slide). Every parse
 * checks fully and writes its output only on success. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/fifteen/fifteen_internal.h"
#include "games/grid_text.h"

static const char dir_letter[FIF_DIRS] = {'u', 'd', 'l', 'r'};
static const char *const dir_word[FIF_DIRS] = {"up", "down", "left", "right"};

int fif_state_to_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const fif_impl_t *im = fif_impl(g);
    const fif_state_t *s = sv;
    size_t used = 0;
    bool ok = true;
    for (int r = 0; r <= im->n && ok; r++) {
        for (int c = 0; c < im->n && ok; c++) ok = grid_text_put(buf, cap, &used, "+----");
        ok = ok && grid_text_put(buf, cap, &used, "+\n");
        if (r == im->n) break;
        for (int c = 0; c < im->n && ok; c++) {
            int t = s->cell[r * im->n + c];
            ok = t ? grid_text_put(buf, cap, &used, "| %2d ", t)
                   : grid_text_put(buf, cap, &used, "|    ");
        }
        ok = ok && grid_text_put(buf, cap, &used, "|\n");
    }
    if (ok) {
        if (s->dist == 0)
            ok = grid_text_put(buf, cap, &used, "solved in %d moves\n", s->moves);
        else
            ok = grid_text_put(buf, cap, &used, "moves %d of %d, Manhattan distance %d\n", s->moves,
                               im->max_moves, s->dist);
    }
    if (!ok) return hoyle_error(HOYLE_EFULL, "fifteen: board text does not fit in %zu bytes", cap);
    return (int)used;
}

int fif_position_to_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const fif_impl_t *im = fif_impl(g);
    const fif_state_t *s = sv;
    size_t used = 0;
    bool ok = true;
    for (int c = 0; c < im->cells && ok; c++)
        ok = grid_text_put(buf, cap, &used, c ? " %d" : "%d", s->cell[c]);
    if (ok && s->moves) ok = grid_text_put(buf, cap, &used, " moves=%d", s->moves);
    if (!ok) return hoyle_error(HOYLE_EFULL, "fifteen: position does not fit in %zu bytes", cap);
    return (int)used;
}

/* The tiles of `text` up to an optional "moves=K" suffix: *rest points at
 * the suffix (or the end). */
static int parse_tiles(const fif_impl_t *im, const char *text, const char *what, uint8_t *cells,
                       const char **rest)
{
    uint8_t tmp[FIFTEEN_MAX_CELLS];
    int count = 0, last = im->cells - 1;
    char bad[64];
    snprintf(bad, sizeof bad, "a tile number (0..%d, 0 = the blank)", last);
    const grid_read_t r = {.what = what,
                           .noun = "tile",
                           .bad = bad,
                           .many = "tiles",
                           .cells = im->cells,
                           .max_value = last,
                           .max_digits = 5,
                           .stop = "moves="};
    int status = grid_text_read(&r, text, tmp, &count, rest);
    if (status) return status;
    if (count != im->cells)
        return hoyle_error(HOYLE_EINVAL, "%s: %d tiles, want %d (0..%d row by row, 0 = the blank)",
                           what, count, im->cells, last);
    if (!fif_solvable(im, tmp))
        return hoyle_error(HOYLE_EINVAL,
                           "%s: not solvable for the goal with the blank %s (the parity is odd: "
                           "swapping two tiles makes it solvable)",
                           what, im->blank_first ? "first" : "last");
    memcpy(cells, tmp, (size_t)im->cells);
    return HOYLE_OK;
}

int fif_parse_tiles(const fif_impl_t *im, const char *text, const char *what, uint8_t *cells)
{
    const char *rest;
    int status = parse_tiles(im, text, what, cells, &rest);
    if (status == 0 && *rest)
        return hoyle_error(HOYLE_EINVAL, "%s: unexpected '%.20s' after the tiles", what, rest);
    return status;
}

int fif_position_from_string(const game_t *g, const char *text, void *sv)
{
    const fif_impl_t *im = fif_impl(g);
    fif_state_t tmp;
    memset(&tmp, 0, sizeof tmp);
    const char *rest;
    int status = parse_tiles(im, text, "fifteen: position", tmp.cell, &rest);
    if (status) return status;
    if (*rest) {
        const char *p = rest + 6;
        long v = grid_text_number(&p, 5);
        while (grid_text_sep(*p)) p++;
        if (v < 0 || *p)
            return hoyle_error(HOYLE_EINVAL, "fifteen: position: bad move count '%.20s'", rest);
        if (v > im->max_moves)
            return hoyle_error(HOYLE_EINVAL, "fifteen: position: %ld moves, past the cap of %d", v,
                               im->max_moves);
        tmp.moves = (uint16_t)v;
    }
    fif_state_finish(im, &tmp);
    memcpy(sv, &tmp, sizeof tmp);
    return HOYLE_OK;
}

int fif_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap)
{
    (void)g, (void)s;
    if (cap < 2) return hoyle_error(HOYLE_EFULL, "fifteen: no room for a move");
    buf[0] = dir_letter[action], buf[1] = '\0';
    return 1;
}

/* A direction letter or word (where the blank goes), or the number of a
 * tile next to the blank (the tile to slide). */
int fif_action_from_string(const game_t *g, const void *sv, const char *text, int *action)
{
    const fif_impl_t *im = fif_impl(g);
    const fif_state_t *s = sv;
    char word[16];
    size_t len = strlen(text);
    while (len && isspace((unsigned char)text[len - 1])) len--;
    while (len && isspace((unsigned char)*text)) text++, len--;
    if (len == 0 || len >= sizeof word)
        return hoyle_error(HOYLE_EINVAL, "fifteen: bad move '%.20s' (u d l r or a tile number)",
                           text);
    for (size_t i = 0; i < len; i++) word[i] = (char)tolower((unsigned char)text[i]);
    word[len] = '\0';
    int dir = -1;
    for (int d = 0; d < FIF_DIRS && dir < 0; d++)
        if ((len == 1 && word[0] == dir_letter[d]) || strcmp(word, dir_word[d]) == 0) dir = d;
    if (dir >= 0) {
        if (im->nbr[s->blank][dir] < 0)
            return hoyle_error(HOYLE_EINVAL, "fifteen: the blank cannot move %s from the edge",
                               dir_word[dir]);
        *action = dir;
        return HOYLE_OK;
    }
    const char *p = word;
    long tile = grid_text_number(&p, 5);
    if (tile < 0 || *p)
        return hoyle_error(HOYLE_EINVAL, "fifteen: bad move '%s' (u d l r or a tile number)", word);
    for (int d = 0; d < FIF_DIRS; d++) {
        int c = im->nbr[s->blank][d];
        if (c >= 0 && tile > 0 && s->cell[c] == tile) {
            *action = d;
            return HOYLE_OK;
        }
    }
    return hoyle_error(HOYLE_EINVAL, "fifteen: tile %ld is not next to the blank", tile);
}
