/* actors_local.h — `selfplay.processes`: the learner starts its own actor processes on this
 * machine, over the run-folder transport (actors_dir.h). Each actor is this program run as
 * `hoyle selfplay --model-dir RUN --actor I --threads 1 --quiet` (I = 1..P): separate processes
 * scale where threads of one process contend inside libtorch (docs/results/training-journal.md).
 * Built with libtorch. */
#ifndef HOYLE_TRAIN_ACTORS_LOCAL_H
#define HOYLE_TRAIN_ACTORS_LOCAL_H

#include "train/loop.h"

/* The learner's transport with `processes` (1..64) actor processes of its own: the run-folder
 * transport, which starts the actors when the first net is published (after a finished run's
 * stop file is gone), watches them while it waits for shards (an actor that exits before the
 * run ends fails the wait: HOYLE_EIO naming the actor and its exit status), and at the stop
 * writes RUN/stop, waits for them a few seconds, then ends them with SIGTERM. The actors get
 * SIGTERM when the learner dies (Linux: PR_SET_PDEATHSIG). Free with train_local_actors_free
 * (after the stop). */
int train_local_actors(int processes, train_actors_t *out);
void train_local_actors_free(train_actors_t *a);

#endif
