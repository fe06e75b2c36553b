/* eval_rollout.c — random-rollout evaluator: the value of a state is the
 * mean return of `rollouts` uniformly random playouts to the end (classic
 * Monte-Carlo evaluation, Abramson 1990; the default leaf evaluator of UCT).
 * Invariant: all scratch (one state, one legal-action list, chance buffers)
 * is allocated at creation; evaluate() allocates nothing. */
#include <stdlib.h>
#include <string.h>

#include "games/playout.h"
#include "mcts/evaluator.h"

typedef struct rollout {
    int rollouts;
    rng_t rng;
    void *state;
    int *legal;
    int *chance_actions;
    double *chance_probs;
} rollout_t;

/* Play one random game from `s` (copied into r->state); add returns to acc. */
static int rollout_once(evaluator_t *e, rollout_t *r, const void *s, double *acc)
{
    const game_t *g = e->g;
    memcpy(r->state, s, g->state_size);
    /* The step limit turns a game that overruns its declared max_game_length
     * (a game bug) into an error instead of a hang. */
    int steps = 0, limit = g->max_game_length + 1;
    for (;;) {
        int player = game_current_player(g, r->state);
        if (player == PLAYER_TERMINAL) break;
        int a;
        if (player == PLAYER_CHANCE) {
            a = game_chance_sample(g, r->state, &r->rng, r->chance_actions, r->chance_probs);
            if (a < 0) return a;
        } else {
            int n = game_legal_actions(g, r->state, r->legal);
            if (n <= 0)
                return hoyle_error(HOYLE_ESTATE, "%s: no legal actions in a live state", g->spec);
            /* Uniform over the legal actions: the classic light playout. */
            a = r->legal[rng_below(&r->rng, (uint32_t)n)];
        }
        game_apply(g, r->state, a);
        if (++steps > limit)
            return hoyle_error(HOYLE_ESTATE, "%s: rollout exceeded max_game_length", g->spec);
    }
    double ret[GAME_MAX_PLAYERS];
    game_returns(g, r->state, ret);
    for (int p = 0; p < g->num_players; p++) acc[p] += ret[p];
    return HOYLE_OK;
}

static int rollout_evaluate(evaluator_t *e, const void *states, int n, double *values,
                            float *priors)
{
    rollout_t *r = e->impl;
    const game_t *g = e->g;
    int np = g->num_players;
    for (int i = 0; i < n; i++) {
        const char *s = (const char *)states + (size_t)i * g->state_size;
        double *v = values + (size_t)i * (size_t)np;
        for (int p = 0; p < np; p++) v[p] = 0;
        for (int k = 0; k < r->rollouts; k++) {
            int status = rollout_once(e, r, s, v);
            if (status) return status;
        }
        for (int p = 0; p < np; p++) v[p] /= r->rollouts;
        /* Rollouts have no policy (has_priors is false); a caller that asks
         * anyway gets uniform priors, which mcts_expand renormalises. */
        if (priors) {
            float *pr = priors + (size_t)i * (size_t)g->num_actions;
            for (int a = 0; a < g->num_actions; a++) pr[a] = 1.0f;
        }
    }
    return HOYLE_OK;
}

static void rollout_destroy(evaluator_t *e)
{
    rollout_t *r = e->impl;
    free(r->state);
    free(r->legal);
    free(r->chance_actions);
    free(r->chance_probs);
    free(r);
    free(e);
}

/* The playouts' one random stream, restarted as evaluator_rollout_create seeds it. */
static void rollout_reseed(evaluator_t *e, uint64_t seed)
{
    rollout_t *r = e->impl;
    rng_init(&r->rng, seed);
}

/* The same number of playouts per leaf, on the stream of `seed`. */
static int rollout_clone(const evaluator_t *e, uint64_t seed, evaluator_t **out)
{
    const rollout_t *r = e->impl;
    return evaluator_rollout_create(e->g, r->rollouts, seed, out);
}

static const evaluator_vt_t rollout_vt = {.evaluate = rollout_evaluate,
                                          .destroy = rollout_destroy,
                                          .reseed = rollout_reseed,
                                          .clone = rollout_clone};

int evaluator_rollout_create(const game_t *g, int rollouts, uint64_t seed, evaluator_t **out)
{
    if (rollouts < 1)
        return hoyle_error(HOYLE_EINVAL, "rollout: rollouts must be >= 1, got %d", rollouts);
    evaluator_t *e = calloc(1, sizeof *e);
    rollout_t *r = calloc(1, sizeof *r);
    int nc = g->max_chance_outcomes > 0 ? g->max_chance_outcomes : 1;
    if (e && r) {
        r->state = malloc(g->state_size);
        r->legal = malloc(sizeof(int) * (size_t)g->max_legal);
        r->chance_actions = malloc(sizeof(int) * (size_t)nc);
        r->chance_probs = malloc(sizeof(double) * (size_t)nc);
    }
    if (!e || !r || !r->state || !r->legal || !r->chance_actions || !r->chance_probs) {
        if (r) {
            free(r->state);
            free(r->legal);
            free(r->chance_actions);
            free(r->chance_probs);
        }
        free(r);
        free(e);
        return hoyle_error(HOYLE_ENOMEM, "rollout: out of memory");
    }
    r->rollouts = rollouts;
    rng_init(&r->rng, seed);
    /* No per-batch buffers, so any batch size works; max_batch only rejects
     * nonsense sizes. */
    *e = (evaluator_t){
        .vt = &rollout_vt, .g = g, .name = "rollout", .max_batch = 1 << 20, .impl = r};
    *out = e;
    return HOYLE_OK;
}
