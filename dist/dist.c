/* dist.c — the launch check and MPI start-up of dist.h; without HOYLE_MPI, the refusal to run as
 * several ranks and the one-process tournament. */
#include "dist/dist.h"

#include <stdlib.h>
#include <time.h>

#include "core/error.h"

#ifdef HOYLE_MPI
#include <mpi.h>
#endif

bool dist_mpi_built(void)
{
#ifdef HOYLE_MPI
    return true;
#else
    return false;
#endif
}

int dist_launch_size(void)
{
    /* Open MPI's mpirun, the PMI-1/2 launchers (MPICH's hydra, Slurm's srun --mpi=pmi2), then
     * PMIx launchers that set only the rank. */
    const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return atoi(v) > 0 ? atoi(v) : -1;
    }
    return getenv("PMIX_RANK") ? -1 : 0;
}

#ifdef HOYLE_MPI
void dist_probe(int source, int tag, MPI_Status *st)
{
    for (;;) {
        int flag = 0;
        MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, st);
        if (flag) return;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

static bool started;

int dist_init(int *rank, int *size)
{
    *rank = 0;
    *size = 1;
    if (dist_launch_size() == 0) return HOYLE_OK;
    /* FUNNELED: only the thread that called MPI_Init calls MPI; the worker threads that play
     * games hand their results to it (tournament_mpi.c). */
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return hoyle_error(HOYLE_EIO, "MPI_Init_thread failed");
    started = true;
    if (provided < MPI_THREAD_FUNNELED) {
        MPI_Finalize();
        started = false;
        return hoyle_error(HOYLE_EUNSUP, "this MPI library offers no MPI_THREAD_FUNNELED");
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    return HOYLE_OK;
}

void dist_finalize(bool failed)
{
    if (!started) return;
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (failed && size > 1) MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Finalize();
    started = false;
}
#else
int dist_init(int *rank, int *size)
{
    *rank = 0;
    *size = 1;
    int n = dist_launch_size();
    if (n > 1 || n < 0)
        return hoyle_error(HOYLE_EUNSUP,
                           "started as an MPI job, but this hoyle was built without MPI "
                           "(configure with libopenmpi-dev installed, or -DHOYLE_WITH_MPI=ON); "
                           "every rank would play the whole run into the same file");
    return HOYLE_OK;
}

void dist_finalize(bool failed) { (void)failed; }

int dist_tournament_run(const tour_config_t *c, FILE *progress, tour_run_stats_t *stats)
{
    return tournament_run(c, progress, stats);
}

#ifdef HOYLE_TORCH
int dist_train_run(const char *path, char *const *sets, int num_sets, FILE *progress,
                   train_summary_t *out, int *rank)
{
    *rank = 0;
    return train_run(path, sets, num_sets, progress, out);
}
#endif
#endif
