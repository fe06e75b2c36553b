/* eval_linear.h — a game's heuristic as a weighted sum of its terms
 * (the eval_terms slot of games/game.h): value = tanh(sum_i w_i t_i(s)),
 * with the game's hand-set weights or weights read from a file that TDLeaf(λ)
 * wrote (train/tdleaf.h); the alpha-beta agent's `eval=FILE`.
 *
 * File (docs/formats.md, "Evaluation weights"): text lines
 *     HOYLE-EVAL 2
 *     game <canonical spec>
 *     terms <n>
 *     <name> <weight>          (n lines, in the game's term order)
 *     checksum <16 hex digits> (FNV-1a 64 of every byte before this line)
 * A file for another game, with other term names, a missing or extra line,
 * a weight that is not a finite number, or a checksum that differs (a cut or
 * damaged file) is refused with one line. Version 1 files (no checksum line)
 * are still read. */
#ifndef HOYLE_MCTS_EVAL_LINEAR_H
#define HOYLE_MCTS_EVAL_LINEAR_H

#include "games/game.h"

typedef struct eval_linear {
    const game_t *g; /* borrowed */
    int n;
    const char *names[GAME_MAX_TERMS]; /* the game's (static strings) */
    double w[GAME_MAX_TERMS];
} eval_linear_t;

/* The game's terms with its hand-set weights; HOYLE_EINVAL when g has no
 * linear model (no eval_terms, or not for this variant). */
int eval_linear_default(const game_t *g, eval_linear_t *e);
/* Weights from a file for g (all or nothing: *e changes only on success). */
int eval_linear_load(const char *path, const game_t *g, eval_linear_t *e);
/* Write the weights to path atomically. */
int eval_linear_save(const eval_linear_t *e, const char *path);
/* The value of `s` for `player` in [-1, 1]: the returns at a terminal state,
 * else tanh(w . terms); the terms go to terms[] when it is not NULL. */
double eval_linear_value(const eval_linear_t *e, const void *s, int player, double *terms);

#endif
