/* tournament_parts.h — the two halves of a tournament run, the public seam for the transports
 * that drive them (eval/ and dist/):
 * the runner (the schedule, the record file, the jobs still to play, progress) and the player
 * (agents kept across games, one game per job).
 *
 * tournament_run() (tournament_run.c) drives both with threads in one process; the MPI transport
 * (dist/tournament_mpi.c) keeps the runner on rank 0 and players on the other ranks, with job
 * indices and results as its messages. Both store through tour_runner_store(), so the file's
 * invariant (a subset of the schedule, each job at most once) does not depend on the transport.
 * Thread-safety: every tour_runner_* call may be made from any thread (one mutex); a player is
 * used by one thread at a time. */
#ifndef HOYLE_EVAL_TOURNAMENT_PARTS_H
#define HOYLE_EVAL_TOURNAMENT_PARTS_H

#include <stdio.h>

#include "eval/tournament.h"

typedef struct tour_runner tour_runner_t;
typedef struct tour_player tour_player_t;

/* Build the schedule and create or resume c->output (the checks of tournament_run); on success
 * *out is a runner whose pending jobs are those the file lacks, and stats->total/already are
 * set. `progress` (may be NULL) receives the progress line. */
int tour_runner_open(const tour_config_t *c, FILE *progress, tour_runner_t **out,
                     tour_run_stats_t *stats);
/* The next pending job's index, in schedule order; -1 when none is left, a stop was requested
 * (tournament_request_stop) or a store failed. */
int tour_runner_next(tour_runner_t *r);
/* Job `idx` of the schedule, NULL when out of range. */
const tour_job_t *tour_runner_job(const tour_runner_t *r, int idx);
/* Append job idx's finished game to the file (durable on return) and count it; a job already
 * stored is refused (HOYLE_EINVAL). A failed append also stops tour_runner_next. `res` stays
 * the caller's. */
int tour_runner_store(tour_runner_t *r, int idx, tour_game_result_t *res);
/* Record a failure (the first one's message is kept) and stop handing out jobs. */
void tour_runner_fail(tour_runner_t *r, int status);
/* Checkpoint and close the file, fill stats->played/interrupted/seconds, free the runner.
 * Returns the first recorded failure, else the close's status. */
int tour_runner_close(tour_runner_t *r, tour_run_stats_t *stats);

/* A player keeps the agents of its last pairing and reseeds them, so consecutive jobs of one
 * pairing do not create agents again (the game is the same as with fresh agents). */
tour_player_t *tour_player_new(void);
void tour_player_free(tour_player_t *p);
/* Play job j of config c; on 0 *res is filled (free with tour_game_result_done). */
int tour_player_play(tour_player_t *p, const tour_config_t *c, const tour_job_t *j,
                     tour_game_result_t *res);

#endif
