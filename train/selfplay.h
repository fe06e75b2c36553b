/* selfplay.h — AlphaZero-style self-play over any evaluator_t.
 *
 * `parallel` games are in flight at once per worker, each with its own PUCT
 * search tree (mcts/mcts.h); at every step a worker collects up to `batch`
 * leaves from every tree (virtual loss inside each tree), evaluates all of
 * them with ONE call of its evaluator (chunked by the evaluator's max_batch),
 * and delivers the results back. So a network sees batches of up to
 * parallel * batch positions, although each tree stays small.
 *
 * Workers (`threads`): selfplay_run_workers() runs one worker per evaluator,
 * each on its own thread with its own games, trees and evaluator (the
 * evaluators may share one network when its forward is thread-safe, as
 * train/tch's is). Worker w plays the games w, w + T, w + 2T, ... of a run
 * (T workers), so with carry off the result is deterministic for a given seed, parameters,
 * evaluators and T; the samples are merged in worker order. Between T = 1
 * and T = 2 a game's moves can differ only through the evaluator's answers
 * (a network's float rounding depends on the batch it is in, a cache on
 * what was asked before); with a batch-independent evaluator (the fake one)
 * the samples are the same set, in another order.
 *
 * Sessions and the generation tail: a session (selfplay_session_t) keeps
 * its games between runs. With `carry` on, every worker keeps its slots busy
 * until the workers together have finished `games` games (a few more when
 * games end in the same step), and the games still in flight continue in the
 * next run of the session (with that run's evaluators: the trees are cleared
 * at the start of a run), so evaluator batches stay full to the end and no
 * worker waits idle for another. Which worker finishes how many games then
 * depends on their speed, so with T >= 2 and carry on a run is not
 * repeatable (each game's moves still derive from its id). With carry off
 * (the default) each worker starts exactly its share of `games` and finishes
 * them all; the last batches shrink as games end. selfplay_run() is a
 * one-run session.
 *
 * Per move (docs/training.md has the formulas and references):
 *   - root Dirichlet noise on full searches: P' = (1 - eps) P + eps Dir(alpha),
 *     alpha = noise_scale / L where L is the game's typical number of legal
 *     moves (mean over random playouts, measured once), unless noise_alpha > 0;
 *   - forced moves: a decision state with one legal action is played at
 *     once, without a search and without a sample (stats.forced);
 *   - playout-cap randomisation (Wu 2019, KataGo): with fast_sims > 0 a move
 *     gets a full search (sims, noise, recorded as a sample) with probability
 *     full_prob, otherwise a fast search (fast_sims, no noise, not recorded).
 *     Both run on the game's one tree (mcts_set_limits / mcts_set_noise per
 *     search), so each reuses what the other searched;
 *   - move choice by visits^(1/T): T = temp for the first temp_moves actions of
 *     the game, temp_final afterwards (0 = most visited);
 *   - resignation: the mover resigns when its root value is below `resign`
 *     (< 0; 0 = never), except in a no_resign_frac share of games, chosen at
 *     random, where play continues and a would-be resignation that did not end
 *     in a loss counts as a false resign (stats.false_resigns / resign_checks).
 *   - move cap: a game reaching max_moves actions is truncated (stats.
 *     truncated, samples flagged SAMPLE_TRUNCATED); its value targets are
 *     `truncate`: bootstrap (default) = the last search's root value, per
 *     player, in place of the final result; drop = its samples are not
 *     written; draw = 0 (the behaviour before truncation was marked);
 *   - value targets: value_target=result (default) takes the final result z;
 *     value_target=mix takes (1 - value_mix) z + value_mix v, v the root
 *     value of the sample's own search (for games with dice, where z alone is
 *     noisy);
 *   - Gumbel (gumbel=true; Danihelka et al. 2022): the searches use Gumbel root
 *     selection with Sequential Halving (mcts/mcts.h) instead of Dirichlet
 *     noise, the move played is the Gumbel choice (temperatures are not
 *     used) and the policy target is the improved policy
 *     softmax(logit + sigma(completed Q)).
 * Samples (train/samples.h) are written for the full searches: observation for
 * the player to move, visit distribution (or the improved policy), legal
 * mask, and once the game ends its value target (above). A game's samples
 * are appended to the output when the game ends, in move order. */
#ifndef HOYLE_TRAIN_SELFPLAY_H
#define HOYLE_TRAIN_SELFPLAY_H

#include <stdbool.h>
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
    int max_moves;         /* actions before a game is truncated; 0 = rules only */
    int truncate;          /* a selfplay_truncate_t: value targets of truncated games */
    int value_target;      /* a selfplay_value_target_t */
    double value_mix;      /* value_target mix: weight of the root value */
    int threads;           /* workers in the training loop (selfplay_run plays on one) */
    bool carry;            /* keep unfinished games for the session's next run */
    uint64_t seed;         /* seeds trees, noise, move choice, chance, resign choice */
    int64_t first_game_id; /* game_id of the first game of this run */
} selfplay_params_t;

typedef enum selfplay_truncate {
    SELFPLAY_TRUNCATE_BOOTSTRAP = 0, /* value target = the last root value */
    SELFPLAY_TRUNCATE_DROP = 1,      /* the game's samples are not written */
    SELFPLAY_TRUNCATE_DRAW = 2       /* value target 0 */
} selfplay_truncate_t;

typedef enum selfplay_value_target {
    SELFPLAY_VALUE_RESULT = 0, /* the final result */
    SELFPLAY_VALUE_MIX = 1     /* (1 - value_mix) result + value_mix root value */
} selfplay_value_target_t;

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
    int64_t truncated;                     /* games cut at max_moves */
    int64_t forced;                        /* forced moves played without a search */
    int64_t game_actions;                  /* actions of the finished games (mean length) */
    int64_t dropped;                       /* samples not written (truncate=drop) */
    int64_t resign_checks, false_resigns;  /* no-resign games: would-be resignations, wrong ones */
    uint64_t evaluations, evaluator_calls; /* positions evaluated, evaluator calls (mean
                                              evaluator batch = evaluations / calls) */
    uint64_t batch_capacity;               /* leaves one call could hold: parallel * batch */
    double eval_seconds;                   /* time inside the evaluator (summed over workers) */
    uint64_t cache_hits, forwards, forwarded; /* the evaluators' cache hits, network calls and
                                                 positions forwarded: filled in by callers that
                                                 know their evaluators (the loop's actors), 0
                                                 from selfplay_run */
    double seconds;                           /* wall time of the run */
    int64_t in_flight;                        /* games left in flight at the end (carry) */
    int workers;                              /* workers that played */
    double alpha;                             /* the Dirichlet alpha used */
    double typical_legal;                     /* L in alpha = noise_scale / L */
} selfplay_stats_t;

/* Add the counts and times of *a to *to (alpha, typical_legal, batch_capacity, in_flight
 * and workers are left as they are). */
void selfplay_stats_add(selfplay_stats_t *to, const selfplay_stats_t *a);

/* A learner's batches from several actors (dist/train_mpi.c, train/actors_dir.c): the
 * counts summed; at the end, seconds the mean playing time per contributing actor, so that
 * the rates logged from the total are those of all actors together. Zero it to start. */
typedef struct selfplay_tally {
    selfplay_stats_t sum;
    int actors; /* contributing actors (as the caller tells them apart) */
} selfplay_tally_t;
/* Add one batch; `new_actor` when its actor has sent none before in this tally. */
void selfplay_tally_add(selfplay_tally_t *t, const selfplay_stats_t *batch, bool new_actor);
/* Add the tally (seconds made the mean per actor) to *ss. */
void selfplay_tally_end(selfplay_tally_t *t, selfplay_stats_t *ss);

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

/* A finished game as self-play played it (for game records, data/record.h). */
typedef struct selfplay_game {
    int64_t game_id;
    uint64_t seed;                    /* the game's own seed (chance, resign choice) */
    double returns[GAME_MAX_PLAYERS]; /* final returns (0 for a truncated game) */
    int end;                          /* a record_end_t: rules, move_limit or resign */
    int num_actions;                  /* actions, chance outcomes included */
    int32_t *actions;                 /* [num_actions] from the initial position (owned) */
} selfplay_game_t;

/* The finished games of runs (caller storage: zero it, selfplay_games_done frees). */
typedef struct selfplay_games {
    int64_t n, cap;
    selfplay_game_t *game;
} selfplay_games_t;
void selfplay_games_done(selfplay_games_t *gs);

/* Store the games of gs as a new game-record file at `path` (data/h5rec.h, the tournaments'
 * schema of docs/formats.md; `hoyle show` and `hoyle report` read it): seat agents `agent`
 * (the second seat empty in one-player games), round `round`, game_index the game id,
 * pairing 0, config `config` (may be NULL). A file or journal already at `path` (a
 * generation rewritten after a kill) is replaced. The file is complete once this returns. */
int selfplay_games_write(const char *path, const game_t *g, const selfplay_games_t *gs,
                         const char *agent, int32_t round, const char *config);

/* Play p->games games of `g` (two-player or one-player) with evaluator `e`
 * (borrowed) on one thread, appending their samples to `out` (shapes of g).
 * Game i gets game_id p->first_game_id + i. Returns 0 with *st filled, or the
 * first evaluator / search error. */
int selfplay_run(const game_t *g, evaluator_t *e, const selfplay_params_t *p, sample_set_t *out,
                 selfplay_stats_t *st, selfplay_progress_fn progress, void *ctx);
/* The same, keeping the finished games in `games` (caller storage, zeroed; may be NULL):
 * what `hoyle selfplay --record` stores. */
int selfplay_run_games(const game_t *g, evaluator_t *e, const selfplay_params_t *p,
                       sample_set_t *out, selfplay_games_t *games, selfplay_stats_t *st,
                       selfplay_progress_fn progress, void *ctx);

/* Games in flight between runs (see "Sessions" above). */
typedef struct selfplay_session selfplay_session_t;

/* A session of `workers` workers (1..64) for `g` with parameters *p (the search
 * parameters, parallel, max_moves, ... are fixed for the session; p->seed
 * seeds the Dirichlet alpha measurement and the game ids start at
 * p->first_game_id). */
int selfplay_session_create(const game_t *g, const selfplay_params_t *p, int workers,
                            selfplay_session_t **out);
void selfplay_session_free(selfplay_session_t *s);
/* Games in flight now. */
int64_t selfplay_session_in_flight(const selfplay_session_t *s);

/* One run: evals[0..workers) (one per worker, borrowed, used by that worker's thread
 * only) play until p->games games are finished (games started now take their seeds from
 * p->seed; with carry the unfinished ones stay in flight). Samples go to `out`, the
 * finished games to `games` (may be NULL). Game ids are unique within the session:
 * first_game_id + w + T * k for worker w's k-th game. */
int selfplay_session_run(selfplay_session_t *s, evaluator_t *const *evals,
                         const selfplay_params_t *p, sample_set_t *out, selfplay_games_t *games,
                         selfplay_stats_t *st, selfplay_progress_fn progress, void *ctx);

/* Mean number of legal actions at decision states over `games` seeded random
 * games (L above). */
double selfplay_typical_legal(const game_t *g, int games, uint64_t seed);

#endif
