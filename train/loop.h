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

/* Run (or resume) the loop of the YAML config at `path` with --set overrides
 * sets[0..num_sets). Progress lines go to `progress` (may be NULL).
 * HOYLE_EINVAL for a bad config (message names file:line: key), other
 * negative statuses for failures of the job. */
int train_run(const char *path, char *const *sets, int num_sets, FILE *progress,
              train_summary_t *out);

#endif
