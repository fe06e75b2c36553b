/* bench.c — the search items of `hoyle bench` (see bench.h). */
#include "mcts/bench.h"

#include <stdlib.h>

#include "core/rng.h"
#include "mcts/alphabeta.h"
#include "mcts/chance.h"
#include "mcts/mcts.h"

/* The game's start, with any opening chance nodes (the opening roll) played
 * out by a fixed seed, so that searches begin at a decision. */
static int bench_start(const game_t *g, void *s)
{
    rng_t rng;
    rng_init(&rng, 0x62656e6368ull);
    game_init(g, s);
    while (game_is_chance(g, s)) {
        int a = chance_sample_alloc(g, s, &rng);
        if (a < 0) return a;
        game_apply(g, s, a);
    }
    return HOYLE_OK;
}

int bench_mcts(const game_t *g, long long sims, uint64_t seed, bench_search_t *out)
{
    mcts_params_t p;
    mcts_params_default(&p);
    p.max_sims = sims;
    p.solver = false;
    p.reuse = false;
    p.seed = seed;
    p.max_nodes = 0; /* sized by mcts_create (mcts_nodes_for) */
    evaluator_t *e = NULL;
    mcts_t *m = NULL;
    void *s = malloc(g->state_size);
    int status = s ? evaluator_rollout_create(g, 1, rng_mix(seed), &e)
                   : hoyle_error(HOYLE_ENOMEM, "bench: out of memory");
    if (!status) status = mcts_create(g, &p, e, &m);
    if (!status) {
        const mcts_result_t *r;
        status = bench_start(g, s);
        if (!status) status = mcts_search(m, s, &r);
        if (!status) {
            out->count = r->sims;
            out->seconds = r->seconds;
            out->signature = rng_mix((uint64_t)r->sims ^ ((uint64_t)r->nodes_used << 32) ^
                                     (uint64_t)(r->best_action + 1));
        }
    }
    mcts_free(m);
    evaluator_free(e);
    free(s);
    return status;
}

int bench_alphabeta(const game_t *g, int depth, bench_search_t *out)
{
    ab_params_t p;
    ab_params_default(&p);
    p.max_depth = depth;
    ab_t *t = NULL;
    void *s = malloc(g->state_size);
    int status = s ? ab_create(g, &p, &t) : hoyle_error(HOYLE_ENOMEM, "bench: out of memory");
    if (!status) {
        const ab_result_t *r;
        status = bench_start(g, s);
        if (!status) status = ab_search(t, s, &r);
        if (!status) {
            out->count = (long long)r->nodes;
            out->seconds = r->seconds;
            out->signature = rng_mix(r->nodes ^ ((uint64_t)(r->best_action + 1) << 40));
        }
    }
    ab_free(t);
    free(s);
    return status;
}
