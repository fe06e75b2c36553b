/* chance.c — inverse-CDF sampling of chance outcomes (see chance.h). */
#include "mcts/chance.h"

#include <stdlib.h>

int chance_sample(const game_t *g, const void *s, rng_t *rng, int *actions, double *probs)
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

int chance_sample_alloc(const game_t *g, const void *s, rng_t *rng)
{
    int cap = g->max_chance_outcomes > 0 ? g->max_chance_outcomes : 1;
    int *actions = malloc(sizeof *actions * (size_t)cap);
    double *probs = malloc(sizeof *probs * (size_t)cap);
    int a = actions && probs ? chance_sample(g, s, rng, actions, probs)
                             : hoyle_error(HOYLE_ENOMEM, "chance: out of memory");
    free(actions);
    free(probs);
    return a;
}
