/* td_loop.h — `hoyle train` with `algorithm: td`: TD(λ) self-play
 * (train/td.h) in generations of `train.games` games, the peer of the
 * AlphaZero loop (train/loop.h), sharing its run folder, state file, logs,
 * resume rules and in-loop evaluation (train/loop_internal.h).
 *
 * One generation G:
 *   1. rounds until train.games games: each of td.workers threads copies
 *      net-G's weights, plays td.sync_games games learning as it goes, then
 *      the copies are averaged (one worker: plain sequential TD(λ));
 *   2. save net-(G+1).td (atomic) and a row of train.csv;
 *   3. every eval.every generations: the `td` agent of net-(G+1) against the
 *      baseline, the anchors and the previous evaluated net (eval.csv,
 *      elo.csv, elo.svg, as the AZ loop);
 *   4. write state.txt (atomic): the generation is done.
 * Worker w of generation G draws from rng_mix(seed, G, w) only, so a resumed
 * run (the same command after kill -9) redoes the generation in flight and
 * continues bit for bit as the uninterrupted run would have. */
#ifndef HOYLE_TRAIN_TD_LOOP_H
#define HOYLE_TRAIN_TD_LOOP_H

#include <stdbool.h>
#include <stdio.h>

#include "train/loop.h"

/* The `algorithm` of the config at `path` after --set overrides: 0 for "az"
 * (or none), 1 for "td", 2 for "tdleaf". HOYLE_EINVAL for another value or a
 * config that does not load. */
int train_config_algorithm(const char *path, char *const *sets, int num_sets, int *algorithm);

/* The settings schema of a TD config (core/spec.h rows: algorithm, name, game, output,
 * seed, sections td, tdleaf, train and eval); `hoyle train --keys td` prints it. */
struct param_def;
const struct param_def *td_config_schema(void);

/* Run (or resume) the TD loop of the config at `path`; as train_run(). The
 * summary's samples are the positions learned from, steps the TD updates,
 * loss_value the mean |delta| of the first head in the last generation. */
int td_train_run(const char *path, char *const *sets, int num_sets, FILE *progress,
                 train_summary_t *out);

#endif
