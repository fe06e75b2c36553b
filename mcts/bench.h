/* bench.h — deterministic search benchmarks for `hoyle bench`.
 * One thread, fixed seeds, fixed counts: the node/simulation counts are a
 * signature that changes only when behaviour changes (Stockfish bench). */
#ifndef HOYLE_MCTS_BENCH_H
#define HOYLE_MCTS_BENCH_H

#include <stdint.h>

#include "games/game.h"

typedef struct bench_search {
    long long count;    /* simulations (MCTS) or nodes (alpha-beta) */
    uint64_t signature; /* mixes counts and chosen actions: equal runs, equal signature */
    double seconds;
} bench_search_t;

/* `sims` MCTS simulations (UCT, one random rollout each, solver off, no
 * reuse) from the game's start, as one search, seed `seed`. */
int bench_mcts(const game_t *g, long long sims, uint64_t seed, bench_search_t *out);

/* Alpha-beta to `depth` (iterative deepening, TT of 2^20 entries) from the
 * game's start: nodes visited. */
int bench_alphabeta(const game_t *g, int depth, bench_search_t *out);

#endif
