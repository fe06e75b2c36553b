/* td.h — temporal-difference learning of a value net over afterstates
 * (TD(λ), Sutton 1988; TD-Gammon, Tesauro 1995), for any two-player game of
 * the contract: the player to move values the state after each of his whole
 * moves (game_whole_moves: a chain of his actions is one choice; dice are
 * chance nodes the move ends at), plays the best, and the net learns from
 * the next afterstate's value.
 *
 * The net (train/tdnet.h) predicts the game's outcome heads
 * (game_outcome_heads_t) from the view of the player who made the move; the
 * value of a move is the expected return bias + sum_k weight[k] y_k. With
 * afterstates a_1, a_2, ... (a_t made by player p_t) and heads y_t:
 *
 *   delta_t = view_{p_t}(y_{t+1}) - y_t     (y of a terminal a_{t+1}: its
 *                                             outcome targets, exactly)
 *   w      += alpha * sum_k delta_t[k] * e_t[k]
 *   e_t[k]  = grad y_t[k] + lambda * view_{p_t}(e_{t-1})[k]
 *
 * view_p() turns heads of the other player's view into p's (the heads'
 * other/complement; for traces, a permutation with signs), so the one net
 * serves both colours. delta is taken with the weights of step t, and the
 * gradient of y_{t+1} after the update (TD-Gammon's order).
 *
 * Features (td_features): `raw` = the observation planes (game_observe);
 * `expert` = the planes followed by the game's hand-made features (the
 * `features` slot of game.h; backgammon: blots, points, pips, primes,
 * shots). */
#ifndef HOYLE_TRAIN_TD_H
#define HOYLE_TRAIN_TD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"
#include "games/game.h"
#include "train/tdnet.h"

/* The number of inputs of feature set `set` ("raw" or "expert") for g:
 * HOYLE_EINVAL when the set is unknown or the game has no hand-made
 * features. */
int td_features_size(const game_t *g, const char *set);
/* The features of `s` from `player`'s view into out[td_features_size]. */
void td_features(const game_t *g, bool expert, const void *s, int player, float *out);
/* A fingerprint of the feature set on fixed positions of g (the start and
 * the first moves of a fixed line): a net file records it, so a net whose
 * inputs meant something else is refused. */
uint64_t td_features_signature(const game_t *g, bool expert);
/* Check that net n fits g: game spec, feature set, size and signature.
 * `what` names the net in the message (its file). */
int td_net_check(const game_t *g, const tdnet_t *n, const char *what);

/* The expected return of heads y from their player's view. */
double td_equity(const game_outcome_heads_t *h, const float *y);
/* Heads y of the other player's view turned into this one's (into out). */
void td_view_other(const game_outcome_heads_t *h, const float *y, float *out);

/* Scratch for valuing moves with one net (one per thread). */
typedef struct td_scratch {
    const game_t *g;
    const tdnet_t *net;
    bool expert;
    game_outcome_heads_t heads;
    int inputs;
    float *x, *h;      /* one position's features and hidden units */
    void *best;        /* the chosen afterstate (state_size) */
    int *best_actions; /* its move's actions (max_game_length + 1 room) */
    int best_n;
    float best_y[GAME_MAX_HEADS];
    bool best_terminal;
} td_scratch_t;

int td_scratch_init(td_scratch_t *t, const game_t *g, const tdnet_t *net);
void td_scratch_done(td_scratch_t *t);
/* The heads of afterstate `a` for `owner` (the player who moved into it):
 * the outcome targets when it is terminal, else the net's. */
void td_value(td_scratch_t *t, const void *a, int owner, float *y);

/* Choose the whole move of the player to move in the decision state `s`:
 * the afterstate of highest equity (ties: the first), or with probability
 * `explore` a uniformly random one (from rng). Writes it to t->best, its heads
 * to t->best_y, its actions to t->best_actions; returns the number of moves
 * (> 0), or a negative status. */
int td_choose(td_scratch_t *t, const void *s, double explore, rng_t *rng);

/* One learner: a net it updates, its traces and scratch. */
typedef struct td_learn_params {
    double alpha, lambda, explore;
} td_learn_params_t;

typedef struct td_learn_stats {
    int64_t games, moves;
    double abs_delta; /* sum over moves of |delta| of head 0 */
    int64_t first_wins, draws;
    int64_t gammons; /* games whose winner's heads 1.. fired (backgammon: gammon or more) */
} td_learn_stats_t;

/* Play one self-play game from the start with `net` choosing every move, and learn from it
 * (the update above, in place). Chance outcomes come from `rng` (game_chance_sample). */
int td_learn_game(const game_t *g, tdnet_t *net, const td_learn_params_t *p, rng_t *rng,
                  td_scratch_t *t, tdnet_trace_t *trace, td_learn_stats_t *stats);

#endif
