/* evaluator.c — the evaluator wrappers and the by-name factory. */
#include "mcts/evaluator.h"

#include <string.h>

/* The one entry point: checks the batch against max_batch (the size the
 * implementation allocated its buffers for) and counts calls and
 * positions for the bench report. */
int evaluator_evaluate(evaluator_t *e, const void *states, int n, double *values, float *priors)
{
    if (n < 1 || n > e->max_batch)
        return hoyle_error(HOYLE_EINVAL, "evaluator %s: batch of %d (max %d)", e->name, n,
                           e->max_batch);
    e->calls++;
    e->evaluations += (uint64_t)n;
    return e->vt->evaluate(e, states, n, values, priors);
}

void evaluator_free(evaluator_t *e)
{
    if (e) e->vt->destroy(e);
}

/* The seed is salted per use by the caller (agent_search.c), so the rollout and
 * fake evaluators draw streams independent of the searcher's. */
void evaluator_reseed(evaluator_t *e, uint64_t seed)
{
    if (e && e->vt->reseed) e->vt->reseed(e, seed);
}

int evaluator_clone(const evaluator_t *e, uint64_t seed, evaluator_t **out)
{
    if (e->vt->clone == NULL)
        return hoyle_error(HOYLE_EUNSUP, "evaluator %s cannot be copied", e->name);
    return e->vt->clone(e, seed, out);
}

int evaluator_create_named(const game_t *g, const char *name, int rollouts, uint64_t seed,
                           evaluator_t **out)
{
    if (strcmp(name, "rollout") == 0) return evaluator_rollout_create(g, rollouts, seed, out);
    if (strcmp(name, "heuristic") == 0) return evaluator_heuristic_create(g, out);
    if (strcmp(name, "fake") == 0) return evaluator_fake_create(g, seed, 1 << 16, out);
    return hoyle_error(HOYLE_EINVAL,
                       "eval: unknown evaluator '%s' (known: rollout, heuristic, fake)", name);
}
