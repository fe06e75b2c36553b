/* eval_heuristic.c — the game's own heuristic as a leaf evaluator:
 * values[p] = game_evaluate(s, p) (in [-1, 1] by the game contract). */
#include <stdlib.h>

#include "mcts/evaluator.h"

static int heuristic_evaluate(evaluator_t *e, const void *states, int n, double *values,
                              float *priors)
{
    const game_t *g = e->g;
    for (int i = 0; i < n; i++) {
        const char *s = (const char *)states + (size_t)i * g->state_size;
        for (int p = 0; p < g->num_players; p++)
            values[(size_t)i * (size_t)g->num_players + (size_t)p] = game_evaluate(g, s, p);
        /* No policy: uniform priors for a caller that asks (mcts_expand renormalises). */
        if (priors)
            for (int a = 0; a < g->num_actions; a++)
                priors[(size_t)i * (size_t)g->num_actions + (size_t)a] = 1.0f;
    }
    return HOYLE_OK;
}

static void heuristic_destroy(evaluator_t *e) { free(e); }

/* The heuristic has no state: a copy is a new one (the game's evaluate is pure). */
static int heuristic_clone(const evaluator_t *e, uint64_t seed, evaluator_t **out)
{
    (void)seed;
    return evaluator_heuristic_create(e->g, out);
}

static const evaluator_vt_t heuristic_vt = {
    .evaluate = heuristic_evaluate, .destroy = heuristic_destroy, .clone = heuristic_clone};

int evaluator_heuristic_create(const game_t *g, evaluator_t **out)
{
    evaluator_t *e = calloc(1, sizeof *e);
    if (!e) return hoyle_error(HOYLE_ENOMEM, "heuristic: out of memory");
    *e = (evaluator_t){.vt = &heuristic_vt, .g = g, .name = "heuristic", .max_batch = 1 << 20};
    *out = e;
    return HOYLE_OK;
}
