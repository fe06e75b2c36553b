/* eval.c — Fanorona heuristic and noisy-action test.
 *
 * The heuristic counts material (a piece 1.0) plus a small bonus for pieces
 * on the strong points, those with diagonals (eight lines instead of four:
 * more ways to capture and to escape). In the véla form, while the
 * restrictions hold, only the strong points count: Black gives up his
 * pieces by rule, and the phase is about where the survivors stand.
 * The difference maps through tanh into (-0.9, 0.9); terminal states get
 * their returns. Captures (approach and withdrawal steps) are noisy:
 * quiescence search extends them, and so whole chains. */
#include <math.h>

#include "games/fanorona/fanorona_internal.h"

#define STRONG_BONUS 0.1 /* a piece on a point with diagonals */
#define EVAL_SCALE   4.0 /* material difference that maps to tanh(1) */

/* Points with (row + col) even: the ones the diagonals pass through. */
static uint64_t strong_points(void)
{
    uint64_t x = 0;
    for (int p = 0; p < FN_POINTS; p++)
        if ((p / FN_COLS + p % FN_COLS) % 2 == 0) x |= fn_bit(p);
    return x;
}

double fn_evaluate(const game_t *g, const void *sv, int player)
{
    const fn_game_t *fg = fn_game(g);
    const fn_state_t *s = sv;
    if (s->result != FN_ONGOING) {
        double r[2];
        g->vt->returns(g, s, r);
        return r[player];
    }
    uint64_t strong = strong_points();
    double score[2];
    for (int c = 0; c < 2; c++)
        score[c] = fn_popcount(s->bb[c]) + STRONG_BONUS * fn_popcount(s->bb[c] & strong);
    if (fn_vela_active(fg, s))
        for (int c = 0; c < 2; c++) score[c] = STRONG_BONUS * fn_popcount(s->bb[c] & strong);
    double v = 0.9 * tanh((score[FN_WHITE] - score[FN_BLACK]) / EVAL_SCALE);
    return player == FN_WHITE ? v : -v;
}

bool fn_is_noisy(const game_t *g, const void *s, int action)
{
    (void)g;
    (void)s;
    return action >= 0 && action < FN_STOP && fn_action_kind(action) != FN_PAIKA;
}
