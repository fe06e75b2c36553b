/* solitaire_bench.c — Solitaire's solver items of `hoyle bench` (bench.h): fixed problems, so
 * the node counts are a signature of the searches and the seconds their speed. */
#include "core/error.h"
#include "solve/bench.h"
#include "solve/solitaire.h"

/* The fewest-moves item proves this many moves too few for the centre game (12 to 14 take
 * under a second; 15 about 5 s, 17 minutes: docs/games/solitaire.md). */
enum { BENCH_MOVES = 14 };

int solitaire_bench(solve_bench_item_t out[SOLITAIRE_BENCH_ITEMS])
{
    out[0] = (solve_bench_item_t){.name = "solitaire dfs, 33 single-hole starts -> centre"};
    out[1] = (solve_bench_item_t){.name = "solitaire fewest moves: centre game, none in 14"};
    solitaire_options_t opt;
    solitaire_options_default(&opt);
    opt.tt_bytes = (size_t)16 << 20;
    /* about 100 times what they take: a regression fails the item instead of hanging it */
    opt.node_limit = 50000000;
    for (int h = 0; h < SOL_HOLES; h++) {
        solitaire_result_t r;
        int status = solitaire_solve(SOL_FULL & ~(1ULL << h), SOL_CENTRE, &opt, &r);
        if (status) return status;
        if (r.verdict == SOLITAIRE_LIMIT)
            return hoyle_error(HOYLE_ESTATE, "bench: solitaire from hole %d undecided", h + 1);
        out[0].instances++;
        out[0].total_length += r.verdict == SOLITAIRE_SOLVED ? r.num_jumps : 0;
        out[0].nodes += r.nodes;
        out[0].seconds += r.seconds;
    }
    solitaire_result_t r;
    int status = solitaire_min_moves(SOL_FULL & ~(1ULL << SOL_CENTRE), -1, SOL_CENTRE, BENCH_MOVES,
                                     &opt, NULL, NULL, &r);
    if (status) return status;
    if (r.verdict != SOLITAIRE_UNSOLVABLE)
        return hoyle_error(HOYLE_ESTATE, "bench: the centre game in %d moves was not refuted",
                           BENCH_MOVES);
    out[1].instances = 1;
    out[1].total_length = r.bound;
    out[1].nodes = r.nodes;
    out[1].seconds = r.seconds;
    return HOYLE_OK;
}
