/* loop.h — the AlphaZero training loop behind `hoyle train CONFIG.yaml`.
 * Built only with libtorch. The config schema, the files of a run and the
 * algorithm are documented in docs/training.md.
 *
 * One generation G (G = 0, 1, ...):
 *   1. self-play `selfplay.games` games with net-G (train/selfplay.h) through
 *      the network evaluator; write them as samples/shard-G.h5 (atomic);
 *   2. add the shard to the replay buffer (train/replay.h) and take
 *      floor(new_samples * sample_reuse / batch + carry) optimiser steps on
 *      uniform minibatches from the window (the sample:step ratio);
 *   3. save net-(G+1).pt with its optimiser (tch_save, atomic);
 *   4. every eval.every generations: net-(G+1) against the previous evaluated
 *      net and against the fixed baseline agent; Elo by elo_fit over all
 *      evaluation games, logged to eval.csv, elo.csv, elo.h5 and elo.svg;
 *   5. write state.txt (atomic): the generation is done.
 * Resume: the same command reads state.txt and continues with the next
 * generation; files of a generation in flight are rewritten, logs are cut
 * back to the finished generations, the replay window is reloaded from the
 * shards. Everything random is derived from (seed, generation), so the
 * resumed run continues as the uninterrupted run would have. */
#ifndef HOYLE_TRAIN_LOOP_H
#define HOYLE_TRAIN_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What a run did (for `hoyle train --json`). */
typedef struct train_summary {
    char output[1024];
    int64_t generation; /* generations finished */
    int64_t steps, games, samples;
    double loss_policy, loss_value, loss_total; /* mean over the last generation's steps */
    double elo;                                 /* newest evaluated net, gen 0 = 0 */
    int64_t elo_generation;                     /* which net that is (-1 = none yet) */
    double seconds;                             /* total, over all resumes */
    int resumed;                                /* 1 when state.txt was found */
} train_summary_t;

struct sample_set;
struct selfplay_stats;
struct selfplay_games;
struct game;

/* Where a generation's games come from when actors play them in other processes (the ranks
 * of an MPI job, dist/train_mpi.c): the learner hands each new net to the actors and collects
 * samples from them instead of playing. Samples carry the generation of the net that made
 * them; the learner takes those of nets no older than `train.stale` generations. */
typedef struct train_actors {
    /* Net `gen` is at `path` (a checkpoint written by tch_save): give it to the actors. */
    int (*publish)(void *ctx, int64_t gen, const char *path);
    /* Append to `set` the samples of at least `games` finished games made by nets of
     * generation >= min_gen, adding the actors' statistics to *ss; samples of older nets are
     * dropped and counted in *stale. */
    int (*collect)(void *ctx, int64_t min_gen, int64_t games, struct sample_set *set,
                   struct selfplay_stats *ss, int64_t *stale);
    /* The run ends (finished or failed): release the actors. */
    void (*stop)(void *ctx);
    void *ctx;
} train_actors_t;

/* The actor's side of the same transport. */
typedef struct train_actor_io {
    /* The newest net: when `wait`, block until one newer than `have` exists; else return at
     * once. Returns 0 with *gen and the checkpoint's path in path[cap] for a newer net, 1
     * when the run is over, 2 (only without `wait`) when there is nothing newer. */
    int (*fetch)(void *ctx, bool wait, int64_t have, int64_t *gen, char *path, size_t cap);
    /* Send the samples of finished games made by net `gen`, with their statistics. */
    int (*send)(void *ctx, int64_t gen, const struct sample_set *set,
                const struct selfplay_stats *ss);
    void *ctx;
    /* Optional (NULL: the games are not kept): store the records of the same batch's finished
     * games (selfplay_games_write's arguments), called just before `send`. */
    int (*record)(void *ctx, int64_t gen, const struct game *g, const struct selfplay_games *games,
                  const char *agent, const char *config);
} train_actor_io_t;

/* The settings schema of a training config (core/spec.h rows, sections for net, optim,
 * replay, train and eval): `hoyle train --keys` prints it, docs/training.md's table is it. */
const struct param_def *train_config_schema(void);

/* Run (or resume) the loop of the YAML config at `path` with --set overrides
 * sets[0..num_sets). Progress lines go to `progress` (may be NULL).
 * HOYLE_EINVAL for a bad config (message names file:line: key), other
 * negative statuses for failures of the job. */
int train_run(const char *path, char *const *sets, int num_sets, FILE *progress,
              train_summary_t *out);
/* The same loop as the learner of a distributed run: `actors` plays the games (NULL =
 * train_run). */
int train_run_learner(const char *path, char *const *sets, int num_sets, FILE *progress,
                      const train_actors_t *actors, train_summary_t *out);
/* An actor: read the same config (nothing is written to the run folder), then until the run is
 * over: take the newest net, play a batch of `train.actor_games` finished self-play games with
 * it, send their samples (and, with io->record, their records). The batches are runs of one
 * self-play session (one worker): with `selfplay.carry` the games unfinished at the end of a
 * batch continue in the next one, with the net newest then, so forward batches stay full.
 * `actor` (1, 2, ...) seeds its games and numbers them apart from other actors'. */
int train_run_actor(const char *path, char *const *sets, int num_sets, int actor,
                    const train_actor_io_t *io, FILE *progress);

/* The net file `from` names: itself, or for a run folder its newest finished net
 * (FROM/net-<generation>.pt, generation from FROM/state.txt). HOYLE_EINVAL when it is neither
 * a file nor a run folder. */
int train_net_file(const char *from, char *path, size_t cap);

#endif
