/* solitaire.h — exact solvers for English Solitaire (games/solitaire/).
 *
 * Positions are marble masks over the 33 holes (games/solitaire/solitaire.h:
 * bit i = hole number i + 1); solutions are jump sequences whose ids are the
 * game's actions, so `hoyle solve` prints and replays them through the game.
 *
 * solitaire_solve(): depth-first search for a jump sequence that leaves one
 * marble in `target`, with a transposition table of positions already shown
 * to fail (canonical under the board symmetries that fix the target) and,
 * unless turned off, the position-class prune (a position whose class is not
 * the target's can never reach it; solitaire.h explains the classes). With the
 * prune off it is an independent check of the class argument.
 *
 * solitaire_min_moves(): the fewest *moves* (runs of jumps by one marble, the
 * seed's notion) to one marble in `target`: iterative deepening on the
 * number of moves, a transposition table of (position, moving marble) keyed
 * canonically and holding the largest move budget proven too small, and a
 * lower bound from Merson regions (Beasley): the 8 corners and 4 disjoint
 * 2 x 2 blocks. While a region is full, no marble can land in it or jump
 * over one of its marbles from outside, so some move must start inside it;
 * a move starts in one region only, so the full regions (less the one the
 * moving marble stands in, which may go on for free) each need a move of
 * their own. */
#ifndef HOYLE_SOLVE_SOLITAIRE_H
#define HOYLE_SOLVE_SOLITAIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/solitaire/solitaire.h"

typedef enum solitaire_verdict {
    SOLITAIRE_SOLVED = 1,     /* jumps[] holds a solution */
    SOLITAIRE_UNSOLVABLE = 0, /* proven impossible (within max_moves for min_moves) */
    SOLITAIRE_LIMIT = 2       /* the node limit was reached first */
} solitaire_verdict_t;

typedef struct solitaire_options {
    bool use_classes;    /* prune by position class (default true) */
    uint64_t node_limit; /* 0 = none */
    size_t tt_bytes;     /* transposition table size; 0 = 64 MiB */
} solitaire_options_t;

/* What one search found. */
typedef struct solitaire_result {
    solitaire_verdict_t verdict;
    bool by_class;        /* unsolvable because the classes differ (no search needed) */
    int num_jumps;        /* solution length in jumps */
    int jumps[SOL_HOLES]; /* the solution's jumps (game actions) */
    int moves;            /* the solution's moves (marble runs) */
    int bound;            /* min_moves: the move bound proven (no solution in fewer) */
    uint64_t nodes;       /* positions searched */
    double seconds;       /* wall time */
} solitaire_result_t;

/* Called after each finished iteration of solitaire_min_moves: no solution
 * in `moves` moves or fewer (or `found`), with the totals so far. */
typedef void (*solitaire_progress_fn)(int moves, bool found, uint64_t nodes, double seconds,
                                      void *ctx);

void solitaire_options_default(solitaire_options_t *opt);

/* Search from `pegs` for one marble in hole index `target` (0..32; -1 = any
 * hole). Returns 0 with *out filled, or HOYLE_ENOMEM / HOYLE_EINVAL. */
int solitaire_solve(uint64_t pegs, int target, const solitaire_options_t *opt,
                    solitaire_result_t *out);

/* The fewest moves from `pegs` to one marble in `target`, at most
 * `max_moves`; `last` is the hole the last jump landed in (-1: none), whose
 * marble may go on without a new move. SOLITAIRE_UNSOLVABLE with bound =
 * max_moves + 1 when none is that short. */
int solitaire_min_moves(uint64_t pegs, int last, int target, int max_moves,
                        const solitaire_options_t *opt, solitaire_progress_fn progress, void *ctx,
                        solitaire_result_t *out);

/* The marble runs of a jump sequence played from a position whose last jump
 * landed in `last` (-1: none). */
int solitaire_count_moves(const sol_geometry_t *geo, int last, const int *jumps, int n);

#endif
