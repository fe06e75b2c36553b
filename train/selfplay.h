/* selfplay.h — AlphaZero-style self-play over any evaluator_t.
 *
 * `parallel` games are in flight at once, each with its own PUCT search
 * (mcts/mcts.h); at every step the driver collects up to `batch` leaves from
 * every tree (virtual loss inside each tree), evaluates all of them with ONE
 * evaluator call (chunked by the evaluator's max_batch), and delivers the
 * results back. So a network sees batches of up to parallel * batch
 * positions, although each tree stays small. One thread; deterministic for a
 * given seed, parameters and evaluator.
 *
 * Per move (docs/training.md has the formulas and references):
 *   - root Dirichlet noise on full searches: P' = (1 - eps) P + eps Dir(alpha),
 *     alpha = noise_scale / L where L is the game's typical number of legal
 *     moves (mean over random playouts, measured once), unless noise_alpha > 0;
 *   - playout-cap randomisation (Wu 2019, KataGo): with fast_sims > 0 a move
 *     gets a full search (sims, noise, recorded as a sample) with probability
 *     full_prob, otherwise a fast search (fast_sims, no noise, not recorded);
 *   - move choice by visits^(1/T): T = temp for the first temp_moves actions of
 *     the game, temp_final afterwards (0 = most visited);
 *   - resignation: the mover resigns when its root value is below `resign`
 *     (< 0; 0 = never), except in a no_resign_frac share of games, chosen at
 *     random, where play continues and a would-be resignation that did not end
 *     in a loss counts as a false resign (stats.false_resigns / resign_checks).
 *   - Gumbel (gumbel=true; Danihelka et al. 2022): both trees use Gumbel root
 *     selection with Sequential Halving (mcts/mcts.h) instead of Dirichlet
 *     noise, the move played is the Gumbel choice (temperatures are not
 *     used) and the policy target is the improved policy
 *     softmax(logit + sigma(completed Q)).
 * Samples (train/samples.h) are written for the full searches: observation for
 * the player to move, visit distribution (or the improved policy), legal
 * mask, and once the game ends the final return of that player as the value
 * target. */
#ifndef HOYLE_TRAIN_SELFPLAY_H
#define HOYLE_TRAIN_SELFPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "core/progress.h"
#include "core/spec.h"
#include "mcts/evaluator.h"
#include "mcts/mcts.h"
#include "train/samples.h"

/* Every tunable, one line each (defaults in selfplay_param_defs, selfplay.c). */
typedef struct selfplay_params {
    mcts_params_t search; /* the full search, bound from the mcts/ keys (mcts_params.h):
                             sims, c, c_base, fpu, batch, vloss, noise_alpha (0 = scaled),
                             noise_eps, reuse, gumbel...; seed, max_nodes and the alpha
                             used are set per tree */
    int games;            /* games to play in one selfplay_run() */
    int parallel;         /* games in flight sharing each evaluator call */
    int fast_sims;        /* playout-cap randomisation: fast-search simulations (0 = off) */
    double full_prob;     /* probability of a full search when fast_sims > 0 */
    double noise_scale;   /* alpha = noise_scale / typical legal moves (search.dirichlet_alpha 0) */
    double temp;          /* move temperature for the first temp_moves actions */
    int temp_moves;       /* actions played with temp */
    double temp_final;    /* temperature afterwards (0 = most visited) */
    double resign;        /* resign when the mover's value < resign; 0 = never */
    double no_resign_frac; /* share of games played out regardless (false-resign check) */
    int max_moves;         /* actions before a game is adjudicated a draw; 0 = rules only */
    uint64_t seed;         /* seeds trees, noise, move choice, chance, resign choice */
    int64_t first_game_id; /* game_id of the first game of this run */
} selfplay_params_t;

/* The parameter schema (the search keys of mcts/mcts_params.h and the keys
 * of the fields above, except seed and first_game_id), for `hoyle selfplay GAME
 * 'sims=64,parallel=32'` and the `selfplay:` section of training configs. */
extern const param_def_t selfplay_param_defs[];

/* Fill *p from "k=v,..." text (NULL or "" = defaults); canonical text of every
 * parameter into canon[cap] when canon is not NULL. HOYLE_EINVAL names the key. */
int selfplay_params_parse(const char *text, selfplay_params_t *p, char *canon, size_t cap);

typedef struct selfplay_stats {
    int64_t games, actions, samples;       /* finished games, actions played, samples written */
    int64_t full_searches, fast_searches;  /* searches by kind */
    int64_t wins[2], draws;                /* results by seat (two-player games) */
    int64_t resigned;                      /* games ended by resignation */
    int64_t resign_checks, false_resigns;  /* no-resign games: would-be resignations, wrong ones */
    uint64_t evaluations, evaluator_calls; /* positions evaluated, evaluator calls */
    double eval_seconds;                   /* time inside the evaluator */
    double seconds;                        /* wall time of the run */
    double alpha;                          /* the Dirichlet alpha used */
    double typical_legal;                  /* L in alpha = noise_scale / L */
} selfplay_stats_t;

/* Called after each finished game (progress lines); may be NULL. */
typedef void (*selfplay_progress_fn)(void *ctx, const selfplay_stats_t *st);

/* The context of selfplay_progress_line: a progress line (core/progress.h) of
 * finished games out of `total`, with the samples written. */
typedef struct selfplay_progress {
    progress_t pg;
    int64_t total;
    int final_line; /* end the line at the last game (else the caller prints a summary) */
} selfplay_progress_t;

/* A selfplay_progress_fn; ctx is a selfplay_progress_t. */
void selfplay_progress_line(void *ctx, const selfplay_stats_t *st);

/* Play p->games games of `g` (two-player or one-player) with evaluator `e`
 * (borrowed), appending their samples to `out` (shapes of g). Game i gets
 * game_id p->first_game_id + i. Returns 0 with *st filled, or the first
 * evaluator / search error. */
int selfplay_run(const game_t *g, evaluator_t *e, const selfplay_params_t *p, sample_set_t *out,
                 selfplay_stats_t *st, selfplay_progress_fn progress, void *ctx);

/* Mean number of legal actions at decision states over `games` seeded random
 * games (L above). */
double selfplay_typical_legal(const game_t *g, int games, uint64_t seed);

#endif
