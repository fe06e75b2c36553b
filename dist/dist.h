/* dist.h — hoyle over MPI: the launch check, MPI start-up, and the transports that spread a run
 * over ranks (docs/scaling.md).
 *
 * The same binary runs with and without a launcher: MPI is initialised only when the process was
 * started by one (mpirun, mpiexec, srun: their environment variables), so a plain `hoyle ...`
 * never touches MPI. A binary built without MPI that is started as several ranks refuses with
 * a one-line error instead of running N independent copies on one output file. */
#ifndef HOYLE_DIST_DIST_H
#define HOYLE_DIST_DIST_H

#include <stdbool.h>
#include <stdio.h>

#include "eval/tournament.h"
#include "train/loop.h"

/* Whether this binary was built with the MPI transports (HOYLE_WITH_MPI). */
bool dist_mpi_built(void);

/* The world size the launcher announced: 0 when not started by one, -1 when started by one that
 * does not say (PMIx without a size variable: MPI_Init will tell). */
int dist_launch_size(void);

/* Start MPI if the process was launched by an MPI launcher; *rank and *size are 0 and 1
 * otherwise. HOYLE_EUNSUP (with a message) when launched as several ranks by a binary built
 * without MPI. Call once, from the main thread, before any other thread starts; pair with
 * dist_finalize. */
int dist_init(int *rank, int *size);
/* Finalize MPI if dist_init started it; `failed` aborts the other ranks instead (a rank that
 * failed must not leave the others waiting for its messages). */
void dist_finalize(bool failed);

#ifdef HOYLE_MPI
#include <mpi.h>
/* MPI_Probe without the spin: Open MPI's blocking probe polls at 100% of a core, which on a
 * machine with as many ranks as cores takes that core from the ranks that play. This one tests
 * and sleeps 1 ms between tests (messages here are games or batches: tens of ms apart at
 * least). */
void dist_probe(int source, int tag, MPI_Status *st);
#endif

/* The tournament over the ranks of MPI_COMM_WORLD (every rank calls it with the same config):
 * rank 0 is the runner (schedule, the only writer of c->output, progress), every other rank
 * plays jobs on c->workers threads and returns the finished games. Games are seeded per job,
 * so the file holds the same games as tournament_run() with the same config. On rank 0 the
 * return and *stats are tournament_run()'s; other ranks return 0 with stats->played = the games
 * they played. With one rank it is tournament_run(). */
int dist_tournament_run(const tour_config_t *c, FILE *progress, tour_run_stats_t *stats);

/* The training loop over the ranks (every rank calls it with the same config; builds with
 * libtorch): rank 0 is the learner of train_run_learner(), owning the run folder, every other
 * rank an actor (train_run_actor) that plays self-play games with the newest net it was sent.
 * *rank receives this process's rank. With one rank, or without MPI, it is train_run(). */
int dist_train_run(const char *path, char *const *sets, int num_sets, FILE *progress,
                   train_summary_t *out, int *rank);

#endif
