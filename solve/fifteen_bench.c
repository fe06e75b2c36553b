/* fifteen_bench.c — the Fifteen-puzzle solver's items of `hoyle bench`:
 * fixed instances, fixed heuristics, so the node counts are a signature of
 * the search and the seconds its speed (the 6-6-3 tables take ~15 s to
 * build, so the full Korf run is `hoyle solve fifteen --korf` instead). */
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "games/registry.h"
#include "solve/bench.h"
#include "solve/fifteen.h"

enum { BENCH_3X3_STARTS = 2000 };

/* Korf's instances 55, 79, 42, 12 and 9 (tests/data/fifteen/korf100.txt):
 * optimal lengths 41, 42, 42, 45, 46. */
static const char *const korf_short[] = {
    "13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11", "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15",
    "4 5 7 2 9 14 12 13 0 3 6 11 8 1 15 10", "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15",
    "3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0",
};

/* Solve the start of `spec` (or `position` in it) into *it. */
static int solve_one(const char *spec, const char *position, const fifteen_solve_params_t *p,
                     solve_bench_item_t *it)
{
    const game_t *g = NULL;
    if (game_create(spec, &g)) return HOYLE_EINVAL;
    void *s = malloc(g->state_size);
    int status = s ? HOYLE_OK : hoyle_error(HOYLE_ENOMEM, "bench: out of memory");
    if (!status) {
        game_init(g, s);
        if (position) status = game_position_from_string(g, position, s);
    }
    fifteen_solve_result_t r;
    if (!status) {
        fifteen_board_t b;
        fifteen_board(g, s, &b);
        status = fifteen_solve(&b, p, &r);
    }
    if (!status && !r.solved) status = hoyle_error(HOYLE_ESTATE, "bench: %s not solved", spec);
    if (!status) {
        it->instances++;
        it->total_length += r.length;
        it->nodes += r.nodes;
        it->seconds += r.seconds;
    }
    free(s);
    game_free(g);
    return status;
}

int fifteen_bench(solve_bench_item_t out[FIFTEEN_BENCH_ITEMS])
{
    out[0] = (solve_bench_item_t){.name = "fifteen(size=3) pdb 4-4, 2000 seeded starts"};
    out[1] = (solve_bench_item_t){.name = "fifteen(blank=first) lc, Korf 55 79 42 12 9"};
    fifteen_pdb_t *pdb = NULL;
    int status = fifteen_pdb_open(3, 8, FIFTEEN_PDB_663, "", NULL, &pdb);
    fifteen_solve_params_t p = {.heuristic = FIFTEEN_H_PDB, .pdb = pdb};
    for (int k = 1; k <= BENCH_3X3_STARTS && !status; k++) {
        char spec[64];
        snprintf(spec, sizeof spec, "fifteen(size=3,seed=%d)", k);
        status = solve_one(spec, NULL, &p, &out[0]);
    }
    fifteen_pdb_free(pdb);
    p = (fifteen_solve_params_t){.heuristic = FIFTEEN_H_LC};
    for (size_t k = 0; k < sizeof korf_short / sizeof *korf_short && !status; k++)
        status = solve_one("fifteen(blank=first)", korf_short[k], &p, &out[1]);
    return status;
}
