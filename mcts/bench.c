/* bench.c — the search items of `hoyle bench` (see bench.h).
 * Every item runs from fixed seeds, so its signature is the same on every
 * run and machine: a changed signature means the search changed, while the
 * seconds column alone measures speed. */
#include "mcts/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/rng.h"
#include "games/playout.h"
#include "mcts/alphabeta.h"
#include "mcts/mcts.h"
#include "mcts/mcts_internal.h"

/* 0x62656e6368 is "bench" in ASCII: a fixed stream, so games with dice
 * start every run from the same position. */
int bench_start(const game_t *g, void *s)
{
    rng_t rng;
    rng_init(&rng, 0x62656e6368ull);
    game_init(g, s);
    while (game_is_chance(g, s)) {
        int a = game_chance_sample_alloc(g, s, &rng);
        if (a < 0) return a;
        game_apply(g, s, a);
    }
    return HOYLE_OK;
}

int bench_mcts(const game_t *g, long long sims, uint64_t seed, bench_search_t *out)
{
    return bench_mcts_threads(g, sims, 1, 0, seed, out);
}

int bench_mcts_threads(const game_t *g, long long sims, int threads, size_t max_nodes,
                       uint64_t seed, bench_search_t *out)
{
    return bench_mcts_parallel(g, sims, threads, false, max_nodes, seed, out);
}

int bench_mcts_parallel(const game_t *g, long long sims, int threads, bool root, size_t max_nodes,
                        uint64_t seed, bench_search_t *out)
{
    /* Raw simulation throughput: a solved root would stop the search early and
     * a reused tree would carry work from one item into the next. */
    mcts_params_t p;
    mcts_params_default(&p);
    p.max_sims = sims;
    p.solver = false;
    p.reuse = false;
    p.seed = seed;
    p.max_nodes = max_nodes; /* 0: sized by mcts_create (mcts_nodes_for) */
    p.threads = threads;
    p.parallel = root ? MCTS_PARALLEL_ROOT : MCTS_PARALLEL_TREE;
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
        /* The signature mixes the work done and the move chosen; any change to the
         * search's decisions moves it. */
        if (!status) {
            out->count = r->sims;
            out->seconds = r->seconds;
            out->tree_nodes = r->nodes_used;
            out->tree_edges = r->edges_used;
            out->tree_bytes = r->tree_bytes;
            out->node_cap = r->arena_full;
            /* The tree's size as positions generated (the root and one per edge:
             * the node count before compact edges) does not depend on how the
             * unvisited moves are stored, so the signature did not move with them. */
            out->signature = rng_mix((uint64_t)r->sims ^ ((uint64_t)(r->edges_used + 1) << 32) ^
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

int bench_item(const char *spec, bench_item_t *row)
{
    const game_t *g = NULL;
    if (game_create(spec, &g)) return HOYLE_EINVAL;
    memset(row, 0, sizeof *row);
    snprintf(row->spec, sizeof row->spec, "%s", g->spec);
    void *s = malloc(g->state_size);
    if (s == NULL) {
        game_free(g);
        /* Deepen until one depth reaches BENCH_PERFT_NODES, or the game has no
         * nodes at that depth (0 from perft). */
        return hoyle_error(HOYLE_ENOMEM, "bench: out of memory");
    }
    game_init(g, s);
    for (int depth = 1; depth <= BENCH_PERFT_MAX_DEPTH; depth++) {
        double t0 = clock_seconds();
        uint64_t nodes = game_perft(g, s, depth);
        row->perft_seconds = clock_seconds() - t0;
        row->perft_depth = depth;
        row->perft_nodes = nodes;
        if (nodes >= BENCH_PERFT_NODES || nodes == 0) break;
    }
    double t0 = clock_seconds();
    int status = game_random_games(g, s, BENCH_RANDOM_GAMES, 1, &row->random);
    row->random_seconds = clock_seconds() - t0;
    if (status == 0) status = bench_mcts(g, BENCH_MCTS_SIMS, 1, &row->mcts);
    long long last = 0;
    for (int depth = 1; status == 0 && depth <= BENCH_AB_MAX_DEPTH; depth++) {
        status = bench_alphabeta(g, depth, &row->ab);
        row->ab_depth = depth;
        if (row->ab.count >= BENCH_AB_NODES) break;
        /* Dice multiply the tree by ~400 a move: stop when the next depth
         * would pass BENCH_AB_GROWTH_CAP nodes at this depth's growth. */
        if (last > 0 && row->ab.count * (row->ab.count / last) > BENCH_AB_GROWTH_CAP) break;
        last = row->ab.count;
    }
    free(s);
    game_free(g);
    return status;
}

uint64_t bench_item_nodes(const bench_item_t *it)
{
    return it->perft_nodes + it->random.actions + (uint64_t)it->mcts.count + (uint64_t)it->ab.count;
}
