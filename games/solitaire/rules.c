/* rules.c — Solitaire's rules: jumps, the end, returns, hashing and a fast
 * perft. Invariant: sol_state_t's invariants (solitaire_internal.h) hold
 * after every apply. */
#include <string.h>

#include "games/solitaire/solitaire_internal.h"

uint64_t sol_hash_recompute(const game_t *g, const void *sv)
{
    const sol_impl_t *im = sol_impl(g);
    const sol_state_t *s = sv;
    uint64_t h = 0;
    for (int i = 0; i < SOL_HOLES; i++)
        if (s->pegs >> i & 1) h ^= im->zob[i];
    return h;
}

uint64_t sol_hash(const game_t *g, const void *sv)
{
    (void)g;
    return ((const sol_state_t *)sv)->hash;
}

void sol_init(const game_t *g, void *sv)
{
    sol_state_t *s = sv;
    memset(s, 0, sizeof *s);
    s->pegs = sol_impl(g)->start;
    s->pegs_left = (uint8_t)__builtin_popcountll(s->pegs);
    s->last = -1;
    s->hash = sol_hash_recompute(g, s);
}

static int legal_jumps(const sol_geometry_t *geo, uint64_t pegs, int *out)
{
    int n = 0;
    for (int j = 0; j < SOL_JUMPS; j++) {
        const sol_jump_t *jp = &geo->jump[j];
        if ((pegs & jp->from_bit) && (pegs & jp->over_bit) && !(pegs & jp->to_bit)) out[n++] = j;
    }
    return n;
}

static bool any_jump(const sol_geometry_t *geo, uint64_t pegs)
{
    for (int j = 0; j < SOL_JUMPS; j++) {
        const sol_jump_t *jp = &geo->jump[j];
        if ((pegs & jp->from_bit) && (pegs & jp->over_bit) && !(pegs & jp->to_bit)) return true;
    }
    return false;
}

int sol_current_player(const game_t *g, const void *sv)
{
    const sol_state_t *s = sv;
    const sol_impl_t *im = sol_impl(g);
    return any_jump(&im->geo, s->pegs) ? sol_to_move(im, s->pegs_left) : PLAYER_TERMINAL;
}

int sol_legal_actions(const game_t *g, const void *sv, int *out)
{
    return legal_jumps(&sol_impl(g)->geo, ((const sol_state_t *)sv)->pegs, out);
}

/* A jump by the marble that made the last jump continues its move; any
 * other jump starts a new one. */
void sol_apply(const game_t *g, void *sv, int action)
{
    const sol_impl_t *im = sol_impl(g);
    sol_state_t *s = sv;
    const sol_jump_t *jp = &im->geo.jump[action];
    s->pegs ^= jp->from_bit | jp->over_bit | jp->to_bit;
    s->hash ^= im->zob[jp->from] ^ im->zob[jp->over] ^ im->zob[jp->to];
    s->pegs_left--;
    if (s->last != jp->from) s->moves++;
    s->last = jp->to;
}

/* r = 1 - 2 (pegs - 1 + miss) / 32, miss = 1 when a target hole is set and
 * empty: one marble in the target is +1, each further marble (or missing the
 * target) costs 1/16; 32 marbles left and no target is -1. */
double sol_score(const sol_impl_t *im, uint64_t pegs)
{
    int miss = im->target >= 0 && !(pegs >> im->target & 1);
    return 1.0 - 2.0 * (double)(__builtin_popcountll(pegs) - 1 + miss) / 32.0;
}

/* Double Solitaire: with goal=last the player to move, who has no jump,
 * loses; with goal=solve the first player wins exactly when the one-player
 * game would score +1 (one marble, in the target when there is one). */
void sol_returns(const game_t *g, const void *sv, double *out)
{
    const sol_impl_t *im = sol_impl(g);
    const sol_state_t *s = sv;
    double r = sol_score(im, s->pegs);
    if (im->players == 1) {
        out[0] = r;
        return;
    }
    int winner = im->goal_solve ? (r >= 1.0 ? 0 : 1) : 1 - sol_to_move(im, s->pegs_left);
    out[winner] = 1.0;
    out[1 - winner] = -1.0;
}

static uint64_t perft_pegs(const sol_geometry_t *geo, uint64_t pegs, int depth)
{
    int jumps[SOL_JUMPS];
    int n = legal_jumps(geo, pegs, jumps);
    if (depth == 1) return (uint64_t)n;
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        const sol_jump_t *jp = &geo->jump[jumps[i]];
        nodes += perft_pegs(geo, pegs ^ (jp->from_bit | jp->over_bit | jp->to_bit), depth - 1);
    }
    return nodes;
}

/* Each jump is one whole move (a one-player game), so perft counts jump
 * sequences. */
uint64_t sol_perft(const game_t *g, const void *sv, int depth)
{
    if (depth == 0) return 1;
    return perft_pegs(&sol_impl(g)->geo, ((const sol_state_t *)sv)->pegs, depth);
}
