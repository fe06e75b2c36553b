/* eval.c — a basic material evaluation and the noisy moves for
 * quiescence search (captures and promotions).
 *
 * Score for `player`: material difference in pawns (P 1, N 3, B 3, R 5,
 * Q 9), squashed by tanh(diff / 8) into (-1, 1). */
#include <math.h>

#include "games/chess/chess_internal.h"

double ch_evaluate(const game_t *g, const void *state, int player)
{
    (void)g;
    const ch_pos_t *p = &((const ch_state_t *)state)->pos;
    static const int value[5] = {1, 3, 3, 5, 9};
    int diff = 0;
    for (int t = CH_PAWN; t <= CH_QUEEN; t++)
        diff += value[t] *
                (ch_popcount(ch_pieces(p, player, t)) - ch_popcount(ch_pieces(p, player ^ 1, t)));
    return tanh(diff / 8.0);
}

bool ch_is_noisy(const game_t *g, const void *state, int action)
{
    (void)g;
    const ch_pos_t *p = &((const ch_state_t *)state)->pos;
    ch_move_t m = action >= 0 && action < CH_ACTIONS ? ch_action_decode(p, action) : 0;
    return m != 0 && (ch_is_capture(p, m) || ch_is_promo(m));
}
