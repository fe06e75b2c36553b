/* playout.c — random actions and random playouts (see playout.h). */
#include "games/playout.h"

#include <stdlib.h>

#include "core/check.h"

int game_chance_sample(const game_t *g, const void *s, rng_t *rng, int *actions, double *probs)
{
    int n = game_chance_outcomes(g, s, actions, probs);
    if (n <= 0) return hoyle_error(HOYLE_ESTATE, "%s: chance node without outcomes", g->spec);
    double total = 0;
    for (int i = 0; i < n; i++) total += probs[i];
    double u = rng_double(rng) * total;
    for (int i = 0; i < n - 1; i++) {
        if (u < probs[i]) return actions[i];
        u -= probs[i];
    }
    return actions[n - 1];
}

int game_chance_sample_alloc(const game_t *g, const void *s, rng_t *rng)
{
    int cap = g->max_chance_outcomes > 0 ? g->max_chance_outcomes : 1;
    int *actions = malloc(sizeof *actions * (size_t)cap);
    double *probs = malloc(sizeof *probs * (size_t)cap);
    int a = actions && probs ? game_chance_sample(g, s, rng, actions, probs)
                             : hoyle_error(HOYLE_ENOMEM, "chance: out of memory");
    free(actions);
    free(probs);
    return a;
}

int game_scratch_actions(const game_t *g)
{
    return g->max_legal > g->max_chance_outcomes ? g->max_legal : g->max_chance_outcomes;
}

int game_random_action(const game_t *g, const void *s, rng_t *rng, int *legal, double *probs)
{
    if (game_is_chance(g, s)) {
        CHECK(probs != NULL);
        int a = game_chance_sample(g, s, rng, legal, probs);
        CHECK_GE(a, 0);
        return a;
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
