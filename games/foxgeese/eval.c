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
 * tanh into (-1, 1), for the geese, negated for the fox. Terminal states
 * give the game's return (exactly -1, 0 or 1). fg_eval_terms gives the same
 * as a linear model for TDLeaf(λ) to learn. */
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

/* The terms for the geese (the fox's are their negation), in FGT_ order. */
enum {
    FGT_BIAS,
    FGT_GEESE,
    FGT_ROOM,
    FGT_ADVANCE,
    FGT_MOBILITY,
    FGT_PRISE,
    FGT_TAKE,
    FGT_PAST,
    FGT_FOX_ROW,
    FGT_COUNT
};
/* The hand-set weights of the raw score (before EVAL_SCALE; the bias is eval_base's). */
static const double raw_weight[FGT_COUNT] = {0,        W_GOOSE, -W_ROOM, W_ADVANCE, -W_MOBILE,
                                             -W_PRISE, -W_TAKE, 0,       0};

static void geese_terms(const fg_impl_t *im, const fg_state_t *s, double *t)
{
    int advance = 0, prise = 0, past = 0;
    for (uint64_t b = s->geese; b; b &= b - 1) {
        int p = fg_lsb(b);
        advance += im->row[p];
        past += im->row[p] > im->row[s->fox];
    }
    for (int d = 0; d < FG_DIRS; d++) {
        int m = im->nbr[s->fox][d], l = im->jump[s->fox][d];
        if (l >= 0 && (s->geese & fg_bit(m)) && !(s->geese & fg_bit(l))) prise++;
    }
    t[FGT_BIAS] = 1;
    t[FGT_GEESE] = fg_popcount(s->geese);
    t[FGT_ROOM] = fox_room(im, s);
    t[FGT_ADVANCE] = advance;
    t[FGT_MOBILITY] = fg_fox_moves(im, s->geese, s->fox);
    t[FGT_PRISE] = s->side == FG_FOX ? 0 : prise;
    t[FGT_TAKE] = s->side == FG_FOX ? prise : 0;
    t[FGT_PAST] = past;
    t[FGT_FOX_ROW] = im->row[s->fox];
}

double fg_eval_raw(const fg_impl_t *im, const fg_state_t *s)
{
    double t[FGT_COUNT], raw = 0;
    geese_terms(im, s, t);
    for (int i = 0; i < FGT_COUNT; i++) raw += raw_weight[i] * t[i];
    return raw;
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
    double v = tanh((fg_eval_raw(im, s) - im->eval_base) / EVAL_SCALE);
    return player == FG_GEESE ? v : -v;
}

/* The heuristic as a linear model (the eval_terms slot, games/game.h): fg_evaluate's terms
 * with its weights over EVAL_SCALE, the start's score as the bias, then two terms it lacks
 * at weight 0 for TDLeaf(λ) to weigh: the geese below the fox's row (they cannot come back
 * up to hem him in) and the fox's row. For `player`: the geese's terms, negated for the fox. */
int fg_eval_terms(const game_t *g, const void *sv, int player, double *out, const char **names,
                  double *weights)
{
    const fg_impl_t *im = fg_impl(g);
    if (sv == NULL) {
        static const char *const n[FGT_COUNT] = {"bias",        "geese",          "fox_room",
                                                 "advancement", "fox_mobility",   "geese_prise",
                                                 "fox_to_take", "geese_past_fox", "fox_row"};
        for (int i = 0; i < FGT_COUNT; i++)
            names[i] = n[i], weights[i] = raw_weight[i] / EVAL_SCALE;
        weights[FGT_BIAS] = -im->eval_base / EVAL_SCALE;
        return FGT_COUNT;
    }
    geese_terms(im, sv, out);
    if (player == FG_FOX)
        for (int i = 0; i < FGT_COUNT; i++) out[i] = -out[i];
    return FGT_COUNT;
}

/* Jumps are the captures quiescence search extends. */
bool fg_is_noisy(const game_t *g, const void *sv, int action)
{
    (void)g, (void)sv;
    return action >= FG_JUMP && action < FG_ACTIONS;
}
