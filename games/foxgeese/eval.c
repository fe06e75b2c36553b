/* eval.c — Fox and Geese heuristic and noisy-move test.
 *
 * A raw score for the geese, in geese:
 *   + 1.00 per goose left (each capture is a step towards the fox's win)
 *   - 0.12 per point of the fox's room (empty points he can reach by steps:
 *          the geese win by shrinking it to nothing, "pin him in a corner")
 *   + 0.04 per row the geese have advanced in total ("the whole principle of
 *          the game is Advance")
 *   - 0.10 per move the fox has now (mobility)
 *   - 0.30 per goose en prise (the fox next to it, the point behind empty),
 *          0.80 when the fox is the one to move (he must take)
 * The start's raw score (eval_base) maps to 0; the difference goes through
 * tanh into (-0.9, 0.9), for the geese, negated for the fox. Terminal
 * states give the game's return. */
#include <math.h>

#include "games/foxgeese/foxgeese_internal.h"

#define W_GOOSE    1.00
#define W_ROOM     0.12
#define W_ADVANCE  0.04
#define W_MOBILE   0.10
#define W_PRISE    0.30
#define W_TAKE     0.80
#define EVAL_SCALE 3.0 /* raw difference that maps to tanh(1) */

/* Empty points the fox reaches by steps alone (flood fill from his point). */
static int fox_room(const fg_impl_t *im, const fg_state_t *s)
{
    uint64_t seen = fg_bit(s->fox), blocked = s->geese;
    int stack[FG_POINTS], top = 0, room = 0;
    stack[top++] = s->fox;
    while (top > 0) {
        int p = stack[--top];
        for (int d = 0; d < FG_DIRS; d++) {
            int q = im->nbr[p][d];
            if (q < 0 || ((seen | blocked) & fg_bit(q))) continue;
            seen |= fg_bit(q);
            stack[top++] = q;
            room++;
        }
    }
    return room;
}

double fg_eval_raw(const fg_impl_t *im, const fg_state_t *s)
{
    int advance = 0, prise = 0;
    for (uint64_t b = s->geese; b; b &= b - 1) advance += im->row[fg_lsb(b)];
    for (int d = 0; d < FG_DIRS; d++) {
        int m = im->nbr[s->fox][d], l = im->jump[s->fox][d];
        if (l >= 0 && (s->geese & fg_bit(m)) && !(s->geese & fg_bit(l))) prise++;
    }
    return W_GOOSE * fg_popcount(s->geese) - W_ROOM * fox_room(im, s) + W_ADVANCE * advance -
           W_MOBILE * fg_fox_moves(im, s->geese, s->fox) -
           (s->side == FG_FOX ? W_TAKE : W_PRISE) * prise;
}

double fg_evaluate(const game_t *g, const void *sv, int player)
{
    const fg_impl_t *im = fg_impl(g);
    const fg_state_t *s = sv;
    if (s->result != FG_ONGOING) {
        double r[2];
        fg_returns(g, s, r);
        return r[player];
    }
    double v = 0.9 * tanh((fg_eval_raw(im, s) - im->eval_base) / EVAL_SCALE);
    return player == FG_GEESE ? v : -v;
}

/* Jumps are the captures quiescence search extends. */
bool fg_is_noisy(const game_t *g, const void *sv, int action)
{
    (void)g, (void)sv;
    return action >= FG_JUMP && action < FG_ACTIONS;
}
