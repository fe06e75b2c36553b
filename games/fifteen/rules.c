/* rules.c — the Fifteen puzzle's moves, end and returns. Invariant: apply
 * keeps dist (the Manhattan distance) and the hash up to date in O(1), so
 * the end test is dist == 0. */
#include <string.h>

#include "games/fifteen/fifteen_internal.h"

void fif_init(const game_t *g, void *s) { memcpy(s, &fif_impl(g)->start, sizeof(fif_state_t)); }

static bool is_over(const fif_impl_t *im, const fif_state_t *s)
{
    return s->dist == 0 || s->moves >= im->max_moves;
}

int fif_current_player(const game_t *g, const void *sv)
{
    return is_over(fif_impl(g), sv) ? PLAYER_TERMINAL : 0;
}

int fif_legal_actions(const game_t *g, const void *sv, int *out)
{
    const fif_impl_t *im = fif_impl(g);
    const fif_state_t *s = sv;
    if (is_over(im, s)) return 0;
    int n = 0;
    for (int d = 0; d < FIF_DIRS; d++)
        if (im->nbr[s->blank][d] >= 0) out[n++] = d;
    return n;
}

/* The tile on the blank's `action` side slides onto the blank's cell. */
void fif_apply(const game_t *g, void *sv, int action)
{
    const fif_impl_t *im = fif_impl(g);
    fif_state_t *s = sv;
    int from = im->nbr[s->blank][action], to = s->blank, tile = s->cell[from];
    int goal = im->goal_cell[tile];
    s->dist = (uint16_t)(s->dist - im->mdist[from][goal] + im->mdist[to][goal]);
    s->hash ^= im->zob[tile][from] ^ im->zob[tile][to];
    s->hash ^= fif_key_moves(s->moves) ^ fif_key_moves(s->moves + 1);
    s->cell[to] = (uint8_t)tile;
    s->cell[from] = 0;
    s->blank = (uint8_t)from;
    s->moves++;
}

/* Solved: +1. Unsolved when the moves run out: -dist / dist_max, in
 * (-1, 0), so a position nearer the goal (in Manhattan distance) scores
 * higher. evaluate() gives the same shaping for positions in play. */
void fif_returns(const game_t *g, const void *sv, double *out)
{
    const fif_impl_t *im = fif_impl(g);
    const fif_state_t *s = sv;
    out[0] = s->dist == 0 ? 1.0 : -(double)s->dist / (double)im->dist_max;
}

double fif_evaluate(const game_t *g, const void *s, int player)
{
    double r;
    (void)player;
    fif_returns(g, s, &r);
    return r;
}

uint64_t fif_hash(const game_t *g, const void *s)
{
    (void)g;
    return ((const fif_state_t *)s)->hash;
}

uint64_t fif_hash_recompute(const game_t *g, const void *s)
{
    return fif_hash_compute(fif_impl(g), s);
}
