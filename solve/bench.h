/* bench.h — the exact solvers' items of `hoyle bench` (bench.c): fixed instances, so each
 * item's node count is part of the bench signature and its seconds give the speed. */
#ifndef HOYLE_SOLVE_BENCH_H
#define HOYLE_SOLVE_BENCH_H

#include <stdint.h>

/* One deterministic solver item. */
typedef struct solve_bench_item {
    const char *name;  /* "fifteen(size=3) pdb 4-4, 2000 seeded starts" */
    int instances;     /* instances decided (solved optimally, or proven) */
    long total_length; /* sum of the solution lengths (or of the proven bounds) */
    uint64_t nodes;
    double seconds; /* search only (tables built first are not timed) */
} solve_bench_item_t;

#define FIFTEEN_BENCH_ITEMS   2
#define SOLITAIRE_BENCH_ITEMS 2
#define SOLVE_BENCH_ITEMS     (FIFTEEN_BENCH_ITEMS + SOLITAIRE_BENCH_ITEMS)

/* Every solver's items, the Fifteen puzzle's first: 0 or the first failure. */
int solve_bench(solve_bench_item_t out[SOLVE_BENCH_ITEMS]);

/* The Fifteen puzzle's (fifteen_bench.c): 2000 seeded 3 x 3 starts with the 4-4 tables
 * (built in memory), five of Korf's instances (the shortest) with linear conflicts. */
int fifteen_bench(solve_bench_item_t out[FIFTEEN_BENCH_ITEMS]);
/* Solitaire's (solitaire_bench.c): every single-hole start against the centre target by the
 * depth-first search (solved or proven impossible), and the fewest-moves search proving that
 * the centre game has no solution in 14 moves. */
int solitaire_bench(solve_bench_item_t out[SOLITAIRE_BENCH_ITEMS]);

#endif
