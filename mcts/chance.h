/* chance.h — sampling chance outcomes (dice) by their probabilities.
 * Used by rollouts, by MCTS's sampled descent and by the game drivers
 * (play, match) that advance PLAYER_CHANCE states. */
#ifndef HOYLE_MCTS_CHANCE_H
#define HOYLE_MCTS_CHANCE_H

#include "core/rng.h"
#include "games/game.h"

/* Sample an outcome action at the chance state `s`. `actions` and `probs` are
 * caller scratch of g->max_chance_outcomes entries (no allocation). Returns
 * the action, or HOYLE_ESTATE when `s` lists no outcomes. */
int chance_sample(const game_t *g, const void *s, rng_t *rng, int *actions, double *probs);

/* Same as chance_sample() with its own scratch (allocates; not for hot paths). */
int chance_sample_alloc(const game_t *g, const void *s, rng_t *rng);

#endif
