/* loop_run.h — the AlphaZero loop's run (run_t), shared by the loop's rooms (not
 * public): loop.c (the start, the learner, the actors), loop_config.c (the config, the
 * checks before a run writes, resume) and loop_generation.c (one generation). */
#ifndef HOYLE_TRAIN_LOOP_RUN_H
#define HOYLE_TRAIN_LOOP_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "data/config.h"
#include "train/loop_internal.h"
#include "train/replay.h"
#include "train/selfplay.h"

/* One run of the loop: what it read from its config (the config key in backquotes) and
 * the objects it owns. Every default lives in run_defaults() and nowhere else: load_config()
 * reads each key with the field's current value as its fallback, so a key left out of the
 * YAML keeps the value set there (docs/training.md, "Config keys", lists the same values). */
typedef struct run {
    config_t *cfg;            /* the config after --set overrides (owned) */
    char *config_text;        /* cfg as YAML: config.yaml and every shard's metadata (owned) */
    const game_t *g;          /* `game` (owned) */
    char dir[1024];           /* `output`: the run folder */
    uint64_t seed;            /* `seed`: everything random derives from it and the generation */
    tch_net_config_t net_cfg; /* `net.*`: the tower; C, H, W, A from the game, 1 value */
    tch_opt_config_t opt_cfg; /* `optim.*`: kind, lr, schedule...; betas and eps as
                                 tch_opt_config_default */
    int heads[3];             /* `net.policy_head, value_head, trunk` as chosen (LOOP_AUTO) */
    int keep_every;           /* `train.keep_every`: retention (loop_keep_net) */
    int keep_last;            /* `train.keep_last`: the newest nets always kept */
    char init_from[1024];     /* `train.init_from`: the warm start ("" = none) */
    int batch;                /* `optim.batch`: positions per optimiser step */
    selfplay_params_t sp;     /* `selfplay.*` (defaults: train/selfplay.h) */
    char sp_canon[2048];      /* sp as canonical text, recorded in every shard */
    int64_t window_samples;   /* `replay.window_samples`: newest samples drawn from (0 = all) */
    int64_t window_games;     /* `replay.window_games`: newest games kept (0 = all) */
    int64_t min_samples;      /* `replay.min_samples`: no optimiser step below this many */
    bool augment;             /* `replay.augment`: a random board symmetry per drawn sample */
    bool growing;             /* `replay.window`: growing (true) or fixed */
    int64_t window_min;       /* `replay.window_min`, `_alpha`, `_beta`: the growing window */
    double window_alpha, window_beta;
    int heldout_games;           /* `train.heldout_games`: games of the held-out set */
    sample_set_t heldout;        /* the held-out samples (RUN/heldout.h5) */
    selfplay_session_t *session; /* self-play workers and their games (selfplay.carry) */
    int64_t generations;         /* `train.generations`: stop after this many */
    double minutes;              /* `train.minutes`: stop after this much wall time (0 = none) */
    double sample_reuse;         /* `train.sample_reuse`: samples trained on per new sample */
    int threads;                 /* `train.threads`: libtorch intra-op threads */
    int cache;                   /* `train.cache`: network cache entries during self-play */
    int stale;            /* `train.stale`: distributed runs take samples of nets G-stale.. */
    int actor_games;      /* `train.actor_games`: games per batch an actor sends */
    int processes;        /* `selfplay.processes`: actor processes of the learner (0 = none) */
    loop_eval_cfg_t eval; /* `eval.*` (loop_internal.h) */
    int lock_fd;          /* the locked DIR/lock while the run holds the folder, else -1 */
} run_t;

/* ---- loop_config.c ---- */

/* Load the config at path, apply the --set overrides `sets`, check it against the schema
 * (train_config_schema) and land every key in *r (zeroed by the caller), which then owns
 * cfg, config_text and g (loop_run_free). HOYLE_EINVAL with the file, line and key. */
int loop_run_load(run_t *r, const char *path, char *const *sets, int num_sets);
/* The checks that need more than the schema, before anything is written. */
int loop_run_check(const run_t *r);
/* A resumed run against the config.yaml it was made with (the rows marked LOOP_MAY_CHANGE may
 * change). */
int loop_run_resume_check(const run_t *r, int64_t generation);
/* Free what r owns (the session, the held-out set, the game, the config); not the lock. */
void loop_run_free(run_t *r);
/* RUN/net-GGGGGG.pt */
void loop_run_net_path(const run_t *r, int64_t gen, char *buf, size_t cap);
/* Seconds as H:MM:SS for the progress lines. */
void loop_fmt_time(double s, char *buf, size_t cap);

/* ---- loop_generation.c ---- */

/* The columns of train.csv after the first twelve (docs/training.md, "Files of a run"). */
#define TRAIN_CSV_MORE                                                                             \
    "wins_first,wins_second,draws,resigned,truncated,mean_game_length,cache_hit_rate,"             \
    "mean_forward_batch,selfplay_seconds,optimise_seconds,eval_seconds,lr,policy_entropy,"         \
    "policy_kl_prior,heldout_loss_policy,heldout_loss_value"

/* One generation (loop.h): self-play with net-G (here, or by `actors`), a shard, optimiser
 * steps on the replay window, net-(G+1), the evaluation every eval.every generations, a row
 * of train.csv (logs[0]; logs[1], logs[2]: eval_games.csv, eval.csv), then state.txt. */
int loop_generation(run_t *r, tch_net_t *net, tch_opt_t *opt, replay_t *rb, loop_state_t *st,
                    const train_actors_t *actors, loop_log_t *logs, FILE *progress,
                    train_summary_t *out);

#endif
