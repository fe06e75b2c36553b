/* perft.c — Fanorona's fast whole-move perft: the same count as
 * game_perft_generic() (games/game.h), walked directly on fn_state_t.
 *
 * A whole move is a paika, a chain that ends by itself, or a chain ended by
 * a stop; while the mover keeps the turn (a chain in progress) the walk goes
 * on at the same depth. A move that ends the game counts as a leaf only at
 * the last level, like the generic perft. */
#include "games/fanorona/fanorona_internal.h"

/* Whole-move paths of `depth` (>= 1) from `s`, a state with a player to move
 * (at the start of a turn or mid-chain). */
static uint64_t perft_moves(const fn_game_t *fg, const fn_state_t *s, int depth)
{
    int legal[FN_MAX_LEGAL];
    int n = fn_legal_actions(fg, s, legal);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        /* bulk count: a paika or a stop ends the move (and the turn) */
        if (depth == 1 && (legal[i] == FN_STOP || fn_action_kind(legal[i]) == FN_PAIKA)) {
            total++;
            continue;
        }
        fn_state_t t = *s;
        fn_apply(fg, &t, legal[i]);
        if (t.result == FN_ONGOING && t.side == s->side)
            total += perft_moves(fg, &t, depth); /* the chain goes on */
        else if (depth == 1)
            total++;
        else if (t.result == FN_ONGOING)
            total += perft_moves(fg, &t, depth - 1);
    }
    return total;
}

uint64_t fn_perft(const game_t *g, const void *sv, int depth)
{
    const fn_state_t *s = sv;
    if (depth <= 0) return 1;
    if (s->result != FN_ONGOING) return 0;
    return perft_moves(fn_game(g), s, depth);
}
