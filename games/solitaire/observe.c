/* observe.c — Solitaire observation planes and board symmetries.
 *
 * Planes ([SOL_PLANES][7][7]): 0 marbles, 1 the holes of the board (ones on
 * the cross), 2 the target hole (zeros when there is none), 3 the marble
 * that jumped last (zeros before the first jump); Double Solitaire adds two
 * constant planes, 4 ones when the observer is to move and 5 ones when the
 * observer is the first player (goal=solve makes the seats differ). The
 * game lists only the
 * symmetries that fix its target hole, so plane 2 is invariant under them
 * and observe(symmetry_state(s)) equals sym_planes(observe(s)). */
#include <string.h>

#include "games/solitaire/solitaire_internal.h"

void sol_observe(const game_t *g, const void *sv, int player, float *out)
{
    const sol_impl_t *im = sol_impl(g);
    const sol_state_t *s = sv;
    const int nsq = SOL_SIDE * SOL_SIDE;
    memset(out, 0, sizeof(float) * (size_t)(g->obs_shape[0] * nsq));
    for (int h = 0; h < SOL_HOLES; h++) {
        int q = im->geo.row[h] * SOL_SIDE + im->geo.col[h];
        out[q] = (s->pegs >> h & 1) ? 1.0f : 0.0f;
        out[nsq + q] = 1.0f;
        out[2 * nsq + q] = h == im->target ? 1.0f : 0.0f;
        out[3 * nsq + q] = h == s->last ? 1.0f : 0.0f;
    }
    if (im->players == 1) return;
    float to_move = sol_to_move(im, s->pegs_left) == player ? 1.0f : 0.0f;
    for (int q = 0; q < nsq; q++) {
        out[4 * nsq + q] = to_move;
        out[5 * nsq + q] = player == 0 ? 1.0f : 0.0f;
    }
}

void sol_symmetry_state(const game_t *g, sym_t sym, const void *sv, void *outv)
{
    const sol_impl_t *im = sol_impl(g);
    const sol_state_t *s = sv;
    sol_state_t o = *s;
    o.pegs = sol_sym_mask(&im->geo, sym, s->pegs);
    o.last = s->last >= 0 ? im->geo.sym_hole[sym][s->last] : -1;
    o.hash = sol_hash_recompute(g, &o);
    memcpy(outv, &o, sizeof o);
}

int sol_symmetry_action(const game_t *g, sym_t sym, int action)
{
    return sol_impl(g)->geo.sym_jump[sym][action];
}
