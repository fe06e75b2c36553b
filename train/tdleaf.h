/* tdleaf.h — TDLeaf(λ) (Baxter, Tridgell and Weaver 1998, "KnightCap"): the
 * weights of a game's heuristic (mcts/eval_linear.h: value = tanh(w . t(s)))
 * learned from self-play games of alpha-beta that searches with them.
 *
 * In a game with positions x_1 .. x_N (either player to move), the search
 * from x_t returns a principal variation; its leaf l_t (quiescence moves
 * included) is the position whose static value the search backed up. With
 * v_t = tanh(w . t(l_t)) from player 0's view, and v_N the game's result
 * (its return for player 0; a game stopped at the move limit ends with the
 * last v), after the game:
 *
 *   d_t  = v_{t+1} - v_t
 *   g    = sum_t (1 - v_t^2) t(l_t) * sum_{j >= t} lambda^(j-t) d_j
 *   w_i += alpha * (r_i g_i + scale_rate * ((g . w) / (w . w)) w_i)
 *
 * with r_i = new_rate for the terms at hand-set weight 0 (those the hand-set
 * heuristic lacks, such as chess's square corrections) and 1 for the rest: a
 * term that is rarely non-zero gets few updates, and a new one starts far from
 * any weight that matters, so it may be given a higher rate than the terms the
 * heuristic already weighs. new_rate 1 is the plain rule.
 *
 * The second term learns the evaluation's overall scale (the part of g along w)
 * scale_rate times faster than the rest. Alpha-beta's choices ignore that scale,
 * but the values' fit to the results depends on it: learned at the plain rate, a
 * scale that starts wrong is corrected mostly through the terms that are often
 * non-zero (material, squares), which then grow against the rare ones (doubled
 * or passed pawns) for no reason of play. scale_rate 0 is the plain rule.
 *
 * Self-play starts from `opening_plies` uniformly random actions (alpha-beta
 * is deterministic; the openings make the games differ) drawn from the
 * caller's stream. The search has no transposition table, so the principal
 * variation is never cut short by a table hit. */
#ifndef HOYLE_TRAIN_TDLEAF_H
#define HOYLE_TRAIN_TDLEAF_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"
#include "mcts/alphabeta.h"
#include "mcts/eval_linear.h"

typedef struct tdleaf_params {
    double alpha, lambda;
    int depth;         /* search depth in whole moves */
    bool quiescence;   /* search captures past the depth (the leaf is the quiet position) */
    int opening_plies; /* random actions before the search plays */
    int max_moves;     /* whole moves after the opening before the game is stopped */
    double scale_rate; /* extra rate of the update's part along w (above); 0: none */
    double new_rate;   /* rate of the terms at hand-set weight 0, relative (above); 1: plain */
} tdleaf_params_t;

typedef struct tdleaf_stats {
    int64_t games, moves;
    double abs_delta; /* sum of |d_t| */
    int64_t first_wins, draws, stopped;
} tdleaf_stats_t;

/* One learner: its search over its own weights. */
typedef struct tdleaf {
    const game_t *g;
    eval_linear_t w; /* the weights it plays and learns with */
    tdleaf_params_t p;
    ab_t *search;
    double *terms; /* per move: the leaf's terms (GAME_MAX_TERMS each) */
    double *v;     /* per move: the leaf's value */
    int cap;
} tdleaf_t;

int tdleaf_init(tdleaf_t *l, const game_t *g, const eval_linear_t *w, const tdleaf_params_t *p);
void tdleaf_done(tdleaf_t *l);
/* Play one self-play game and update l->w as above. */
int tdleaf_learn_game(tdleaf_t *l, rng_t *rng, tdleaf_stats_t *stats);
/* The update of one finished game from its leaf values v[0..n] (v[n] the result) and
 * terms (n rows of e->n), applied to e->w: the rule above, shared with the test. */
void tdleaf_update(eval_linear_t *e, const double *v, const double *terms, int n,
                   const tdleaf_params_t *p, double *abs_delta);

#endif
