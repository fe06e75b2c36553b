/* playout.c — random actions and random playouts (see playout.h). */
#include "games/playout.h"

#include "core/check.h"

int game_scratch_actions(const game_t *g)
{
    return g->max_legal > g->max_chance_outcomes ? g->max_legal : g->max_chance_outcomes;
}

int game_random_action(const game_t *g, const void *s, rng_t *rng, int *legal, double *probs)
{
    if (game_is_chance(g, s)) {
        CHECK(probs != NULL);
        int n = game_chance_outcomes(g, s, legal, probs);
        CHECK_GE(n, 1);
        double u = rng_double(rng), acc = 0.0;
        for (int i = 0; i < n - 1; i++) {
            acc += probs[i];
            if (u < acc) return legal[i];
        }
        return legal[n - 1];
    }
    int n = game_legal_actions(g, s, legal);
    CHECK_GE(n, 1);
    return legal[rng_below(rng, (uint32_t)n)];
}

int game_random_playout(const game_t *g, void *s, rng_t *rng, int max_actions, int *legal,
                        double *probs)
{
    int applied = 0;
    while (applied < max_actions && !game_is_terminal(g, s)) {
        game_apply(g, s, game_random_action(g, s, rng, legal, probs));
        applied++;
    }
    return applied;
}
