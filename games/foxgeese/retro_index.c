/* retro_index.c — Fox and Geese's retrograde index (games/retro_index.h):
 * one class per number of geese, "G7" for seven (any of "7", "g7", "7g").
 * A position is ranked as
 *     idx = (slot * C(32, n) + rank(geese)) << 1 | side
 * where slot numbers the fox's point among the 20 points of the left half
 * of the cross and its middle column (column <= 3), rank is the colex rank
 * of the n geese among the 32 points other than the fox's (the points above
 * the fox's shifted down by one), and side 0 when the geese move. The
 * mirror (column c -> 6 - c, the one symmetry that keeps "down") folds a fox
 * on the right half onto the left; with the fox on the middle column the
 * position and its mirror image have the same slot, and only the one whose
 * geese have the smaller rank is valid (the other index names no position).
 * Invariant: index(unindex(i)) == i for every valid i.
 *
 * What a table holds: the value of the position with the draw counter at 0
 * and the quiet-move rule set aside (play that never ends is a draw), the
 * convention of chess tables and the fifty-move rule. Under the game's rule
 * a draw is a draw, and a win or loss in d plies is the game's value when
 * d <= quiet_limit - quiet (the counter cannot reach its limit before the
 * game ends); `horizon` says so to search. Only whole-move boundaries are
 * indexed (no capture chain in progress), and only flocks larger than
 * fox_wins_at (a smaller one has lost). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "games/foxgeese/foxgeese_internal.h"
#include "games/retro_index.h"

#define FG_SLOTS 20 /* points with column <= 3 */

/* The slot of each point with column <= 3 (-1 for the others), and back. */
typedef struct slots {
    int8_t slot[FG_POINTS];
    int8_t point[FG_SLOTS];
} slots_t;

static void slots_make(const fg_impl_t *im, slots_t *t)
{
    int k = 0;
    for (int p = 0; p < FG_POINTS; p++) {
        t->slot[p] = -1;
        if (im->col[p] <= 3) t->point[k] = (int8_t)p, t->slot[p] = (int8_t)k++;
    }
}

/* The geese without the fox's point: points above it shifted down one. */
static uint64_t squeeze(uint64_t geese, int fox)
{
    uint64_t below = fg_bit(fox) - 1;
    return (geese & below) | ((geese >> 1) & ~below);
}

static uint64_t unsqueeze(uint64_t set, int fox)
{
    uint64_t below = fg_bit(fox) - 1;
    return (set & below) | ((set & ~below) << 1);
}

static uint64_t mirror_set(const fg_impl_t *im, uint64_t geese)
{
    uint64_t m = 0;
    for (; geese; geese &= geese - 1) m |= fg_bit(im->mirror[fg_lsb(geese)]);
    return m;
}

/* The number of geese of class `text`, or a negative status. */
static int class_geese(const game_t *g, const char *text)
{
    const fg_impl_t *im = fg_impl(g);
    const char *p = text;
    if (toupper((unsigned char)*p) == 'G') p++;
    char *end;
    long n = strtol(p, &end, 10);
    if (end == p || n < 0 || n > 99 ||
        !(*end == '\0' || (toupper((unsigned char)end[0]) == 'G' && end[1] == '\0' && p == text)))
        return hoyle_error(HOYLE_EINVAL, "foxgeese class '%s': want the number of geese, e.g. G7",
                           text);
    if (n <= im->fox_wins_at || n > im->geese0)
        return hoyle_error(HOYLE_EINVAL,
                           "foxgeese class '%s': %ld geese; this game has %d to %d before the fox "
                           "has won (fox_wins_at=%d)",
                           text, n, im->fox_wins_at + 1, im->geese0, im->fox_wins_at);
    return (int)n;
}

static int fg_class_parse(const game_t *g, const char *text, char *name, uint64_t *size)
{
    int n = class_geese(g, text);
    if (n < 0) return n;
    if (name) snprintf(name, RETRO_CLASS_MAX, "G%d", n);
    if (size) *size = (uint64_t)FG_SLOTS * retro_binom(FG_POINTS - 1, n) * 2;
    return 0;
}

static int fg_unindex(const game_t *g, const char *name, uint64_t idx, void *state)
{
    const fg_impl_t *im = fg_impl(g);
    int n = name[0] == 'G' ? atoi(name + 1) : -1;
    uint64_t sets = retro_binom(FG_POINTS - 1, n);
    if (n <= im->fox_wins_at || n > im->geese0 || idx >= FG_SLOTS * sets * 2) return 0;
    slots_t t;
    slots_make(im, &t);
    uint64_t rest = idx >> 1, rank = rest % sets;
    int fox = t.point[rest / sets];
    uint64_t geese = unsqueeze(retro_colex_unrank(rank, n, FG_POINTS - 1), fox);
    if (im->col[fox] == 3 && retro_colex_rank(squeeze(mirror_set(im, geese), fox)) < rank)
        return 0; /* the mirror image is the valid one */
    fg_state_t *s = state;
    memset(s, 0, sizeof *s);
    s->geese = geese;
    s->fox = (uint8_t)fox;
    s->side = (uint8_t)(idx & 1);
    fg_settle(im, s);
    s->hash = fg_hash_compute(im, s);
    return 1;
}

/* A miss: the status, with its message only when `why` (retro_index_t.index
 * sets none: search asks at every node). */
#define MISS(why, code, ...) ((why) ? hoyle_error((code), __VA_ARGS__) : (code))

static int fg_locate(const game_t *g, const void *state, char *name, uint64_t *idx, bool why)
{
    const fg_impl_t *im = fg_impl(g);
    const fg_state_t *s = state;
    int n = fg_popcount(s->geese);
    if (s->chain) return MISS(why, HOYLE_EUNSUP, "foxgeese tables: a capture is in progress");
    if (n <= im->fox_wins_at || n > im->geese0)
        return MISS(why, HOYLE_EUNSUP, "foxgeese tables: %d geese (the fox has won)", n);
    uint64_t geese = s->geese;
    int fox = s->fox;
    if (im->col[fox] > 3) geese = mirror_set(im, geese), fox = im->mirror[fox];
    uint64_t rank = retro_colex_rank(squeeze(geese, fox));
    if (im->col[fox] == 3) {
        uint64_t other = retro_colex_rank(squeeze(mirror_set(im, geese), fox));
        if (other < rank) rank = other;
    }
    slots_t t;
    slots_make(im, &t);
    snprintf(name, RETRO_CLASS_MAX, "G%d", n);
    *idx = ((uint64_t)t.slot[fox] * retro_binom(FG_POINTS - 1, n) + rank) << 1 | s->side;
    return 0;
}

static int fg_index(const game_t *g, const void *state, char *name, uint64_t *idx)
{
    return fg_locate(g, state, name, idx, false);
}

static int fg_explain(const game_t *g, const void *state)
{
    char name[RETRO_CLASS_MAX];
    uint64_t idx;
    return fg_locate(g, state, name, &idx, true);
}

static int fg_to_move(const game_t *g, const void *state)
{
    (void)g;
    return ((const fg_state_t *)state)->side;
}

/* A fox's move takes any number of geese, down to fox_wins_at + 1 (fewer
 * ends the game); a goose's move changes nothing. */
static int fg_subclasses(const game_t *g, const char *name, char out[][RETRO_CLASS_MAX])
{
    const fg_impl_t *im = fg_impl(g);
    int n = atoi(name + 1), count = 0;
    for (int m = n - 1; m > im->fox_wins_at && count < RETRO_SUBCLASSES; m--)
        snprintf(out[count++], RETRO_CLASS_MAX, "G%d", m);
    return count;
}

/* The quiet moves left before the counter draws the game (see the top). */
static int fg_horizon(const game_t *g, const void *state)
{
    return fg_impl(g)->quiet_limit - ((const fg_state_t *)state)->quiet;
}

const retro_index_t foxgeese_retro_index = {
    .family = "foxgeese",
    .class_parse = fg_class_parse,
    .unindex = fg_unindex,
    .index = fg_index,
    .explain = fg_explain,
    .to_move = fg_to_move,
    .subclasses = fg_subclasses,
    .horizon = fg_horizon,
};
