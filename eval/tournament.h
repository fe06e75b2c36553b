/* tournament.h — round-robin and gauntlet tournaments between agents, with
 * durable, resumable HDF5 results (data/h5rec.h).
 *
 * A tournament is built in three steps:
 *   1. tournament_config_load(): the YAML config (schema in docs/formats.md,
 *      "Tournament config") plus --set overrides, checked in full: games and
 *      agents are created once, opening books are read. Errors name
 *      file:line and the key; nothing is written.
 *   2. tournament_schedule(): games x pairings x openings x repeats x colours
 *      -> a numbered list of jobs. Job i has its own seed rng_mix(seed ^
 *      rng_mix(i + 1)); a job's game depends only on the config and i, never
 *      on which worker plays it or when, so resuming = skipping the job
 *      indices already in the file.
 *   3. tournament_run(): worker threads pull jobs from a shared counter,
 *      play them (tournament_play) and append each finished game to the
 *      record file at once, under a mutex. SIGINT/SIGTERM stop the workers
 *      after their games in flight; the file stays consistent.
 * Ratings are computed afterwards from the file (eval/tournament_results.h),
 * so they never depend on the run that made them. */
#ifndef HOYLE_EVAL_TOURNAMENT_H
#define HOYLE_EVAL_TOURNAMENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "data/record.h"
#include "eval/openings.h"
#include "games/game.h"
#include "mcts/agent.h"

#define TOUR_MAX_GAMES  16
#define TOUR_MAX_AGENTS 64

typedef enum tour_schedule_kind {
    TOUR_ROUND_ROBIN = 0, /* every pair of agents */
    TOUR_GAUNTLET = 1     /* the first agent against each of the others */
} tour_schedule_kind_t;

/* A checked config (owned by the caller: tournament_config_done). */
typedef struct tour_config {
    char name[64];
    int num_games;
    const game_t *games[TOUR_MAX_GAMES];      /* owned */
    opening_list_t openings[TOUR_MAX_GAMES];  /* per game: the opening pool (>= 1 entry) */
    char opening_source[TOUR_MAX_GAMES][256]; /* "book:PATH", "random:K" or "none" */
    int num_agents;
    char agents[TOUR_MAX_AGENTS][GAME_SPEC_MAX]; /* specs as written (these are the names) */
    tour_schedule_kind_t schedule;
    int games_per_opening;    /* colour-swapped pairs per opening and pairing */
    int openings_per_pairing; /* openings each pairing plays; 0 = the whole pool */
    int max_moves;            /* whole moves before adjudication as a draw; 0 = rules only */
    int workers;              /* threads */
    uint64_t seed;
    char output[1024];
    char anchor[GAME_SPEC_MAX]; /* "" = mean 0 */
    char *config_text;          /* effective YAML (after --set, minus `workers`, `output`), owned */
    char config_path[1024];
} tour_config_t;

/* Load and check `path` with the --set overrides `sets[0..num_sets)`. On
 * success *out is filled (release with tournament_config_done). On error
 * (HOYLE_EINVAL / HOYLE_EIO) the message names file:line: key. */
int tournament_config_load(const char *path, char *const *sets, int num_sets, tour_config_t *out);
/* The same checks on a config tree already parsed (and overridden): what
 * tournament_config_load does after reading `path`, for drivers that build the
 * tree themselves (`hoyle study` expands its own YAML into one, eval/study.h).
 * `path` is the name kept in c->config_path; cf stays the caller's. */
struct config;
int tournament_config_from(const struct config *cf, const char *path, tour_config_t *out);
/* The settings schema of a tournament config (core/spec.h rows; docs/formats.md's table). */
const struct param_def *tournament_config_schema(void);
void tournament_config_done(tour_config_t *c);

/* One game to play. */
typedef struct tour_job {
    int index;   /* position in the schedule, 0-based; stored as the record's game_index */
    int game;    /* index into config games[] */
    int pairing; /* pairing number within its game */
    int repeat;  /* 0 .. games_per_opening-1; stored as the record's round */
    int opening; /* index into config openings[game] */
    int seat[2]; /* agent index playing seat 0 (moves first) and seat 1 */
    uint64_t seed;
} tour_job_t;

/* Build the schedule. *jobs is a new array of *num_jobs entries (free()). */
int tournament_schedule(const tour_config_t *c, tour_job_t **jobs, int *num_jobs);

/* ---- one game ---- */

typedef struct tour_game_result {
    double returns[2];
    record_end_t end;
    int num_actions;             /* opening included */
    int32_t *actions;            /* [num_actions], malloc'd (free) */
    float *action_ms;            /* [num_actions], 0 for the opening's actions */
    char error[HOYLE_ERROR_MAX]; /* end == RECORD_END_ERROR: what went wrong */
} tour_game_result_t;

/* Play one game of `g` between agent specs seat_spec[0] (moves first) and
 * seat_spec[1] from `opening` (NULL = initial position). Agents are created
 * with seeds tournament_agent_seed(seed, seat) and observe the opening.
 * After max_moves whole moves (0 = no limit) the game is adjudicated a draw
 * (end MOVE_LIMIT). An agent that fails or plays an illegal action loses
 * (end ERROR, the forfeit rule of agent_play() in mcts/agent.h). Returns 0
 * with *out filled, or a negative status for failures that are not the
 * agents' moves (out of memory, a bad spec or opening). */
int tournament_play(const game_t *g, const char *const seat_spec[2], const opening_t *opening,
                    uint64_t seed, int max_moves, tour_game_result_t *out);

/* The same game with agents the caller keeps across games: the caller
 * reseeds them with agent_reseed(agents[p], tournament_agent_seed(seed, p))
 * first, so the game equals tournament_play()'s. seat_spec names the seats
 * in forfeit messages. */
int tournament_play_agents(const game_t *g, agent_t *const agents[2],
                           const char *const seat_spec[2], const opening_t *opening, uint64_t seed,
                           int max_moves, tour_game_result_t *out);

/* The seed of the agent in `seat` (0 or 1) for the game seeded `seed`. */
uint64_t tournament_agent_seed(uint64_t seed, int seat);
void tour_game_result_done(tour_game_result_t *r);

/* Whether a record file made with the config text `stored` (its `config`
 * attribute) may be resumed by c: the same value for every top-level key
 * but `workers` and `output` (maps compared by key, scalars by text), except
 * that openings_per_pairing may grow (the schedule for k is a prefix of the
 * one for a larger k, schedule.c). 0 when so; else HOYLE_EINVAL naming `file`
 * and each differing key with its stored and new value. */
int tournament_config_compare(const tour_config_t *c, const char *stored, const char *file);

/* ---- the run ---- */

typedef struct tour_run_stats {
    int total;   /* jobs in the schedule */
    int already; /* found in the file at start (resume) */
    int played;  /* finished by this run */
    bool interrupted;
    double seconds;
    int ranks;     /* MPI ranks of the run (1 = one process, dist/dist.h) */
    double busy_s; /* ranks > 1: rank 0's time receiving, storing and answering (not waiting) */
} tour_run_stats_t;

/* Run the tournament: create c->output (or resume it: same config and
 * games required), play every job not in it yet. `progress` (may be NULL)
 * receives the progress line. Returns 0 (also when interrupted: see
 * stats->interrupted), or a negative status with a message. */
int tournament_run(const tour_config_t *c, FILE *progress, tour_run_stats_t *stats);

/* Ask a running tournament_run() to stop after the games in flight
 * (async-signal-safe; the SIGINT handler calls it). */
void tournament_request_stop(void);

#endif
