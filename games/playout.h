/* playout.h — uniformly random play through the game contract: the random
 * agent, random rollouts, `hoyle random` and the conformance suite all use
 * these, so "random" means one thing everywhere. */
#ifndef HOYLE_GAMES_PLAYOUT_H
#define HOYLE_GAMES_PLAYOUT_H

#include "core/rng.h"
#include "games/game.h"

/* A random action in non-terminal `s`: uniform over legal actions for a
 * player, by the outcome probabilities at a chance node. `legal` is caller
 * scratch of g->max_legal ints (max_chance_outcomes when larger). */
int game_random_action(const game_t *g, const void *s, rng_t *rng, int *legal, double *probs);

/* Play random actions from `s` (modified in place) until the game ends or
 * `max_actions` have been applied; returns the number applied. `legal` and
 * `probs` are scratch as above (probs may be NULL for games without chance). */
int game_random_playout(const game_t *g, void *s, rng_t *rng, int max_actions, int *legal,
                        double *probs);

/* Scratch sizes for the two functions above. */
int game_scratch_actions(const game_t *g);

#endif
