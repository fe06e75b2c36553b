/* playout.h — the dice and uniformly random play through the game contract:
 * search, rollouts, the game drivers, the random agent, `hoyle random`,
 * `hoyle bench` and the conformance suite all use these, so a seeded roll and
 * "random" mean one thing everywhere. */
#ifndef HOYLE_GAMES_PLAYOUT_H
#define HOYLE_GAMES_PLAYOUT_H

#include "core/rng.h"
#include "games/game.h"

/* Sample an outcome at the chance state `s` by its probability: one
 * rng_double() draw u, scaled by the sum of the probabilities (so they need
 * not add up to 1 exactly), then the first outcome whose probability exceeds
 * what is left of u (inverse CDF). This is the one chance sampler: rollouts,
 * MCTS's sampled descent, the game drivers and random play all draw dice
 * through it, so a seed means the same rolls everywhere. `actions` and
 * `probs` are caller scratch of g->max_chance_outcomes entries (no
 * allocation). Returns the action, or HOYLE_ESTATE when `s` lists none. */
int game_chance_sample(const game_t *g, const void *s, rng_t *rng, int *actions, double *probs);

/* Same as game_chance_sample() with its own scratch (allocates; not for hot
 * paths). HOYLE_ENOMEM when that fails. */
int game_chance_sample_alloc(const game_t *g, const void *s, rng_t *rng);

/* A random action in non-terminal `s`: uniform over legal actions for a
 * player, by game_chance_sample() at a chance node. `legal` is caller
 * scratch of g->max_legal ints (max_chance_outcomes when larger). */
int game_random_action(const game_t *g, const void *s, rng_t *rng, int *legal, double *probs);

/* Play random actions from `s` (modified in place) until the game ends or
 * `max_actions` have been applied; returns the number applied. `legal` and
 * `probs` are scratch as above (probs may be NULL for games without chance). */
int game_random_playout(const game_t *g, void *s, rng_t *rng, int max_actions, int *legal,
                        double *probs);

/* Scratch sizes for the two functions above. */
int game_scratch_actions(const game_t *g);

/* What a batch of random games showed (`hoyle random`, `hoyle bench`). */
typedef struct game_random_stats {
    uint64_t games, actions, moves; /* games played; actions and whole moves in them */
    uint64_t wins[GAME_MAX_PLAYERS], draws;
    double score_first;     /* sum of the first player's score (1, 1/2, 0) */
    double score_first_sq;  /* sum of squares, for the interval */
    double len_sum, len_sq; /* actions per game */
    int len_min, len_max;
} game_random_stats_t;

/* Play `games` random games (game_random_action) from `start` with one
 * stream seeded by `seed`, one after another. HOYLE_ESTATE when a game runs
 * past g->max_game_length (a rules bug), HOYLE_ENOMEM. */
int game_random_games(const game_t *g, const void *start, uint64_t games, uint64_t seed,
                      game_random_stats_t *st);

#endif
