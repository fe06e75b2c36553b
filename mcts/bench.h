/* bench.h — deterministic search benchmarks for `hoyle bench`.
 * One thread, fixed seeds, fixed counts: the node/simulation counts are a
 * signature that changes only when behaviour changes (Stockfish bench). */
#ifndef HOYLE_MCTS_BENCH_H
#define HOYLE_MCTS_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"
#include "games/playout.h"

typedef struct bench_search {
    long long count;    /* simulations (MCTS) or nodes (alpha-beta) */
    uint64_t signature; /* mixes counts and chosen actions: equal runs, equal signature */
    double seconds;
    size_t tree_nodes; /* MCTS: tree nodes at the end of the search */
    size_t tree_edges; /* MCTS: tree edges (moves of expanded nodes) at the end */
    size_t tree_bytes; /* MCTS: bytes of those nodes and edges; bytes/sim = this / count */
    bool node_cap;     /* MCTS: the search reached its node cap */
} bench_search_t;

/* The start of every search item: the game's initial state with any opening
 * chance nodes (the opening roll) played out by a fixed seed, so that
 * searches begin at a decision. `s` holds state_size bytes. */
int bench_start(const game_t *g, void *s);

/* `sims` MCTS simulations (UCT, one random rollout each, solver off, no
 * reuse) from the game's start, as one search, seed `seed`. */
int bench_mcts(const game_t *g, long long sims, uint64_t seed, bench_search_t *out);

/* The same search on `threads` threads (tree parallelism), with a tree of
 * `max_nodes` (0 = sized from sims): for `hoyle bench --mcts`, which prints
 * the simulations per second and bytes per simulation of threads 1 and 2 side
 * by side. With threads > 1 the signature is not repeatable. */
int bench_mcts_threads(const game_t *g, long long sims, int threads, size_t max_nodes,
                       uint64_t seed, bench_search_t *out);
/* The same with `root` true: root parallelism (threads trees of sims/threads
 * simulations each, merged; mcts_root.c), for `hoyle bench --mcts --parallel`.
 * Its signature is repeatable from the seed. */
int bench_mcts_parallel(const game_t *g, long long sims, int threads, bool root, size_t max_nodes,
                        uint64_t seed, bench_search_t *out);

/* Alpha-beta to `depth` (iterative deepening, TT of 2^20 entries) from the
 * game's start: nodes visited. */
int bench_alphabeta(const game_t *g, int depth, bench_search_t *out);

/* The fixed work of one `hoyle bench` item (one line per game variant). */
enum {
    BENCH_PERFT_NODES = 1000000, /* perft: first depth with this many leaves */
    BENCH_PERFT_MAX_DEPTH = 12,
    BENCH_RANDOM_GAMES = 2000, /* random games, seed 1 */
    BENCH_MCTS_SIMS = 5000,    /* simulations in one MCTS search, seed 1 */
    BENCH_AB_NODES = 200000,   /* alpha-beta: first depth with this many nodes */
    BENCH_AB_MAX_DEPTH = 12,
    BENCH_AB_GROWTH_CAP = 20000000 /* alpha-beta: predicted nodes of the next depth */
};

/* One item: its counts are the signature, its seconds the speed. */
typedef struct bench_item {
    char spec[GAME_SPEC_MAX]; /* the canonical spec */
    int perft_depth;          /* the first depth with BENCH_PERFT_NODES leaves (or the cap) */
    uint64_t perft_nodes;
    double perft_seconds;
    game_random_stats_t random; /* BENCH_RANDOM_GAMES random games from the start */
    double random_seconds;
    bench_search_t mcts; /* bench_mcts(BENCH_MCTS_SIMS, seed 1) */
    int ab_depth;        /* the alpha-beta depth the item stopped at */
    bench_search_t ab;   /* bench_alphabeta(ab_depth) */
} bench_item_t;

/* Run the item of `spec` from the game's start (one thread): perft to the
 * first depth with BENCH_PERFT_NODES leaves, the random games, one MCTS
 * search, alpha-beta to the first depth searching BENCH_AB_NODES nodes (or
 * the last before one predicted to pass BENCH_AB_GROWTH_CAP). HOYLE_EINVAL
 * for a bad spec. */
int bench_item(const char *spec, bench_item_t *out);

/* The item's share of the bench's closing count: perft leaves + random
 * actions + simulations + alpha-beta nodes. */
uint64_t bench_item_nodes(const bench_item_t *it);

#endif
