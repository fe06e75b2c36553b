/* retro_accuracy.h — measuring an agent against perfect play: positions
 * drawn from endgame tables (solve/retro.h), the agent's move in each valued
 * by the tables (`hoyle accuracy`, docs/search.md). */
#ifndef HOYLE_SOLVE_RETRO_ACCURACY_H
#define HOYLE_SOLVE_RETRO_ACCURACY_H

#include <stdint.h>

#include "core/rng.h"
#include "mcts/agent.h"
#include "solve/retro.h"

/* Tallies over the positions an agent moved in. Value classes [0] lost,
 * [1] drawn, [2] won (for the side to move, by the tables). */
typedef struct retro_acc {
    uint64_t n;        /* positions */
    uint64_t kept;     /* the move keeps the position's value */
    uint64_t optimal;  /* the move is one of the best (same value and distance) */
    uint64_t blunders; /* win -> draw or loss, draw -> loss */
    uint64_t failed;   /* the agent failed to move (counted as blunders too) */
    uint64_t by_value[3], kept_by_value[3];
    uint64_t extra_n; /* won or lost positions whose value the move kept */
    double extra_sum; /* their extra plies: longer wins, shorter losses */
    double extra_sq;
    double seconds; /* in agent_act */
} retro_acc_t;

/* Draw a position uniformly from the classes `names` (each class equally
 * likely, then an index uniformly among its valid, non-terminal positions)
 * into `state`. The game's index must know the names (class_parse). */
int retro_sample(const game_t *g, const char *const *names, int n, rng_t *rng, void *state);

/* Let `a` move in `state` (its whole turn: actions until another player
 * moves) and add the result to `acc`. A failed act is tallied (failed and
 * blunder), not returned; a position outside the tables is an error. */
int retro_accuracy_one(retro_tables_t *t, agent_t *a, const void *state, retro_acc_t *acc);

#endif
