/* actors_dir.h — the training loop's actors through a shared folder, no MPI needed: many
 * `hoyle selfplay --model-dir RUN --output-dir RUN` processes, on any machines that share the
 * run folder, play with its newest net and leave shards in RUN/incoming/; `hoyle train CONFIG
 * --external-actors` is the learner that picks them up (docs/scaling.md). Built with libtorch. */
#ifndef HOYLE_TRAIN_ACTORS_DIR_H
#define HOYLE_TRAIN_ACTORS_DIR_H

#include <stdio.h>

#include "train/loop.h"

/* The learner's transport over its run folder (the folder of the nets it publishes; RUN/incoming
 * is made at the first): it waits for shards as long as it takes (Ctrl-C or a kill ends the
 * run; the same command resumes it). Free with train_dir_actors_free. */
int train_dir_actors(train_actors_t *out);
void train_dir_actors_free(train_actors_t *a);
/* While the learner waits for shards it calls watch(ctx) about ten times a second; a nonzero
 * (negative) status ends the wait with that status (an actor it depends on has died). */
void train_dir_actors_watch(train_actors_t *a, int (*watch)(void *ctx), void *ctx);

/* An actor on the run folder `dir`: waits for a learner's config.yaml, first net and
 * out/incoming/, then plays batches (train_run_actor) into out/incoming/ (out = dir for a
 * learner on dir), each batch's game records into out/games/, until dir/stop appears (the
 * learner's run finished). `actor` numbers its shards and seeds its games; give each actor
 * its own. `threads` > 0 replaces the config's train.threads (libtorch intra-op threads). */
int train_run_dir_actor(const char *dir, const char *out, int actor, int threads, FILE *progress);

#endif
