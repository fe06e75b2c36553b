/* loop_internal.h — what the training loop's files share (not public). */
#ifndef HOYLE_TRAIN_LOOP_INTERNAL_H
#define HOYLE_TRAIN_LOOP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eval/sprt.h"
#include "games/game.h"
#include "mcts/mcts.h"
#include "train/loop.h"

/* The checkpointed progress (state.txt, written last in a generation): all a resumed run
 * needs besides the config and the files of the finished generations. */
typedef struct loop_state {
    int64_t generation; /* generations finished (net-<generation>.pt is the newest net) */
    int64_t steps;      /* optimiser steps taken, all generations */
    int64_t games;      /* self-play games played (also the next game's id) */
    int64_t samples;    /* training positions written to the shards */
    double seconds;     /* wall time spent, all runs together (train.minutes counts it) */
    double step_carry;  /* the fraction of an optimiser step owed to the next generation */
    double loss_policy; /* mean policy loss over the last generation's steps */
    double loss_value;  /* mean value loss over the last generation's steps */
    double loss_total;  /* mean total loss over the last generation's steps */
} loop_state_t;

/* Write `len` bytes to path atomically (PATH.tmp, fsync, rename). */
int loop_write_atomic(const char *path, const char *data, size_t len);

/* state.txt: 1 = absent (fresh run), 0 = loaded, negative = damaged. */
int loop_state_load(const char *path, loop_state_t *st);
int loop_state_save(const char *path, const loop_state_t *st);

/* Resuming: `was` and `now` are the effective configs of the stored config.yaml and of this
 * run as "key=value" lines with the same keys in the same order. Keys of LOOP_RESUME_KEYS may
 * differ: each change is added to DIR/resume.csv (generation,key,old,new) and config.yaml is
 * rewritten with `config_text`, both atomically. Any other difference is refused with
 * HOYLE_EINVAL naming each key with its old and new value, and nothing is written. */
#define LOOP_RESUME_KEYS                                                                           \
    "name", "output", "train.generations", "train.minutes", "train.threads", "eval.every",         \
        "eval.games", "train.stale", "train.actor_games"
int loop_resume_check(const char *dir, int64_t generation, const char *was, const char *now,
                      const char *config_text);

/* A CSV log kept in memory and rewritten atomically: a header line and rows
 * whose first field is the generation they belong to. */
typedef struct loop_log {
    char path[1300];
    char *text;
    size_t len, cap;
} loop_log_t;

/* Load path (or start with `header`), keeping only rows of generations <= max_gen. */
int loop_log_open(loop_log_t *log, const char *path, const char *header, int64_t max_gen);
int loop_log_add(loop_log_t *log, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int loop_log_save(const loop_log_t *log);
void loop_log_done(loop_log_t *log);

/* Evaluation settings (config section `eval`, docs/training.md "Evaluation"). */
#define LOOP_EVAL_MAX_ANCHORS 8
typedef struct loop_eval_cfg {
    int every;                    /* generations between evaluations (0 = never) */
    int games;                    /* games per opponent, even (colour-swapped pairs); the most
                                     with sprt */
    int sims;                     /* az simulations */
    int max_moves;                /* whole moves before a draw (0 = rules) */
    char baseline[GAME_SPEC_MAX]; /* fixed opponent spec ("" = none) */
    char openings[256];           /* random:K, book:PATH or none: games / 2 openings, the same
                                     set at every evaluation, each played with both colours */
    bool previous;                /* also play the previous evaluated net */
    int num_anchors;              /* fixed opponents besides the baseline: */
    char anchors[LOOP_EVAL_MAX_ANCHORS][GAME_SPEC_MAX]; /* agent specs, or net:G (net G) */
    bool sprt;                 /* eval.sprt given: each match stops at the SPRT's decision */
    sprt_params_t sprt_params; /* eval.sprt.elo0, elo1, alpha, beta */
    char search[256];          /* az keys of self-play's search (loop_eval_search_keys) */
    uint64_t seed;             /* the run's seed: the openings */
} loop_eval_cfg_t;

typedef struct loop_eval_out {
    double score_prev, score_base; /* the new net's scores (-1 = not played) */
    double elo, elo_lo, elo_hi;    /* the new net's Elo (gen 0 = 0) */
} loop_eval_out_t;

/* The az spec keys (",batch=4,...") that give an az agent self-play's search `sp`: the
 * keys whose value differs from az's default, noise and temperature left out. */
void loop_eval_search_keys(const mcts_params_t *sp, char *buf, size_t cap);

/* Check the evaluation settings against `g` before a run writes anything: the opening
 * source, each anchor (a spec of this game that needs no person, or net:G), the games
 * count (even), the SPRT bounds. HOYLE_EINVAL with a one-line message, *key the
 * config key at fault ("eval.anchors") for the caller to prefix with its place. */
int loop_eval_check(const game_t *g, const loop_eval_cfg_t *cfg, const char **key);

/* Evaluate net-`gen` (file in dir) against its opponents: the baseline, the anchors
 * and net-`prev` (prev < 0 or cfg->previous false: none), each over the same
 * cfg->games / 2 openings with colours swapped (an SPRT may stop a match early); append
 * per-game rows to games_log and one row per opponent to eval_log, refit Elo over all
 * evaluation games and rewrite elo.csv, elo.h5 and elo.svg in dir. Progress lines
 * (core/progress.h) go to `progress` (may be NULL). */
int loop_evaluate(const game_t *g, const char *dir, const loop_eval_cfg_t *cfg, int64_t gen,
                  int64_t prev, double seconds, uint64_t seed, loop_log_t *games_log,
                  loop_log_t *eval_log, FILE *progress, loop_eval_out_t *out);

#endif
