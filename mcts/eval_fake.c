/* eval_fake.c — a seeded fake network (KataGo's debugSkipNeuralNet habit):
 * the same shapes as a policy/value network, deterministic pseudo-random
 * outputs from (seed, state hash), no libtorch. Priors are a softmax over
 * logits in [-2, 2] for every action; the value of player 0 is uniform in
 * (-1, 1), and two-player values are zero-sum. */
#include <math.h>
#include <stdlib.h>

#include "core/rng.h"
#include "mcts/evaluator.h"

typedef struct fake {
    uint64_t seed;
} fake_t;

/* The top 53 bits scaled by 2^-53: a double uniform in [0, 1). */
static double unit(uint64_t x) { return (double)(rng_mix(x) >> 11) * (1.0 / 9007199254740992.0); }

static int fake_evaluate(evaluator_t *e, const void *states, int n, double *values, float *priors)
{
    const game_t *g = e->g;
    const fake_t *f = e->impl;
    for (int i = 0; i < n; i++) {
        const char *s = (const char *)states + (size_t)i * g->state_size;
        /* Keyed by (hash ^ seed) only: a state always gets the same output from
         * one net, whatever the batch it arrives in, as a real network would. */
        uint64_t h = rng_mix(game_hash(g, s) ^ f->seed);
        double *v = values + (size_t)i * (size_t)g->num_players;
        v[0] = 2.0 * unit(h) - 1.0;
        if (g->num_players == 2) v[1] = -v[0];
        if (priors) {
            float *pr = priors + (size_t)i * (size_t)g->num_actions;
            double total = 0;
            for (int a = 0; a < g->num_actions; a++) {
                /* 0x9e3779b97f4a7c15 (2^64 / golden ratio, splitmix64's increment) spreads
                 * the per-action inputs so no two actions share a logit stream. */
                double logit = 4.0 * unit(h + 0x9e3779b97f4a7c15ULL * (uint64_t)(a + 1)) - 2.0;
                pr[a] = (float)exp(logit);
                total += pr[a];
            }
            for (int a = 0; a < g->num_actions; a++) pr[a] = (float)(pr[a] / total);
        }
    }
    return HOYLE_OK;
}

static void fake_destroy(evaluator_t *e)
{
    free(e->impl);
    free(e);
}

/* The outputs are a function of (seed, hash) only: a new seed is a new net. */
static void fake_reseed(evaluator_t *e, uint64_t seed)
{
    fake_t *f = e->impl;
    f->seed = seed;
}

/* The same net (its seed), whatever `seed` says: the copy must give the same values. */
static int fake_clone(const evaluator_t *e, uint64_t seed, evaluator_t **out)
{
    (void)seed;
    const fake_t *f = e->impl;
    return evaluator_fake_create(e->g, f->seed, e->max_batch, out);
}

static const evaluator_vt_t fake_vt = {
    .evaluate = fake_evaluate, .destroy = fake_destroy, .reseed = fake_reseed, .clone = fake_clone};

int evaluator_fake_create(const game_t *g, uint64_t seed, int max_batch, evaluator_t **out)
{
    if (max_batch < 1) return hoyle_error(HOYLE_EINVAL, "fake: max_batch must be >= 1");
    evaluator_t *e = calloc(1, sizeof *e);
    fake_t *f = calloc(1, sizeof *f);
    if (!e || !f) {
        free(e);
        free(f);
        return hoyle_error(HOYLE_ENOMEM, "fake: out of memory");
    }
    f->seed = seed;
    *e = (evaluator_t){.vt = &fake_vt,
                       .g = g,
                       .name = "fake",
                       .has_priors = true,
                       .max_batch = max_batch,
                       .impl = f};
    *out = e;
    return HOYLE_OK;
}
