/* study.h — `hoyle study`: agents compared across search budgets, a driver
 * over the tournament machinery (eval/tournament.h).
 *
 * A study config (YAML, docs/study.md; schema study_schema()) names one game,
 * a list of agent specs in which one parameter may be a budget axis
 * (`mcts(sims={50,200,800})`: a brace list of numbers as the value of one
 * key), an optional fixed reference agent, and the tournament's own knobs
 * (games per pairing, openings, move limit, workers, seed). Loading it:
 *   1. binds the keys against the schema (unknown keys, types, ranges: the
 *      settings schema of core/spec.h, through config_bind);
 *   2. expands every spec into points, one per axis value (`mcts(sims=50)`,
 *      `mcts(sims=200)`, ...): a point is an agent spec whose text is its
 *      player name in the record file; every point is created on the game
 *      here, so a bad spec is an error naming file:line and the entry;
 *   3. writes the equivalent tournament config (a gauntlet of the reference
 *      against every point, or a round robin over the reference, if any, and
 *      every point) and loads it with tournament_config_from(): the schedule,
 *      the record file `OUTPUT/games.h5`, resume, workers and MPI are the
 *      tournament's. That expanded config is what the file stores and what a
 *      resume compares, so a killed study resumes without replaying a game.
 * Results are read back from the file (eval/study_results.h). */
#ifndef HOYLE_EVAL_STUDY_H
#define HOYLE_EVAL_STUDY_H

#include <stdint.h>

#include "eval/tournament.h"

#define STUDY_MAX_SERIES 16 /* agent specs in `agents` */
#define STUDY_MAX_VALUES 16 /* values of one budget axis */
#define STUDY_AXIS_MAX   32 /* bytes of an axis key ("sims") */

/* One entry of `agents`: a spec with at most one budget axis. */
typedef struct study_series {
    char spec[GAME_SPEC_MAX];  /* as written, braces included: "mcts(sims={50,200})" */
    char axis[STUDY_AXIS_MAX]; /* the key the axis sets ("sims"); "" = a single point */
    int first, count;          /* its points: points[first .. first + count) */
} study_series_t;

/* One agent spec at one budget. */
typedef struct study_point {
    int series;               /* index into series[] */
    double budget;            /* the axis value; NAN when the series has no axis */
    char spec[GAME_SPEC_MAX]; /* the expanded spec, "mcts(sims=50)": the player's name */
} study_point_t;

typedef enum study_schedule {
    STUDY_GAUNTLET = 0,   /* the reference against every point */
    STUDY_ROUND_ROBIN = 1 /* every pair among the reference (if any) and the points */
} study_schedule_t;

/* A loaded study (study_load; release with study_done). */
typedef struct study {
    char name[64];
    char game[GAME_SPEC_MAX];      /* as written; tour.games[0] is the game */
    char reference[GAME_SPEC_MAX]; /* "" = none (round robin only) */
    study_schedule_t schedule;
    int games_per_pairing;     /* even: each opening is played with both colours */
    char openings[256];        /* "random:K", "book:PATH" or "none" */
    int max_moves;             /* whole moves before a draw is adjudicated; 0 = the rules */
    int workers;               /* threads (0 = one per core) */
    uint64_t seed;             /* seed of openings and games */
    char output[900];          /* the study's folder: games.h5, study.csv, study.json, study.svg */
    char accuracy_tables[900]; /* endgame tables for the accuracy metric; "" = none */
    int accuracy_positions;    /* positions per point for it */
    int num_series;
    study_series_t series[STUDY_MAX_SERIES];
    int num_points;
    study_point_t points[TOUR_MAX_AGENTS];
    tour_config_t tour; /* the expanded tournament (agents: reference first, then points) */
} study_t;

/* Load the study at `path` with the --set overrides sets[0..num_sets), or
 * (path NULL) the YAML `text` named `name` in messages (the flags form of the
 * command). On success *out is filled; errors (HOYLE_EINVAL, HOYLE_EIO) name
 * file:line and the key, and write nothing. */
int study_load(const char *path, const char *text, const char *name, char *const *sets,
               int num_sets, study_t *out);
void study_done(study_t *s);

/* The settings schema of a study config (core/spec.h rows; `hoyle study --keys`). */
const struct param_def *study_schema(void);

/* Split `spec` at its budget axis: on 0, *n values (up to STUDY_MAX_VALUES)
 * are in values[] (as written in texts[]), the axis key in axis[STUDY_AXIS_MAX] and each point's
 * spec is prefix + value + suffix (prefix[GAME_SPEC_MAX] ends with "key=", suffix[GAME_SPEC_MAX]
 * starts after the closing brace). A spec without braces is one point: *n = 1, axis "" and prefix =
 * the spec. HOYLE_EINVAL names the problem (two axes, an empty or non-numeric value, a repeated
 * value, braces that are not one key's whole value). */
#define STUDY_VALUE_MAX 32 /* bytes of one axis value's text */
int study_split_axis(const char *spec, char *axis, char *prefix, char *suffix, double *values,
                     char (*texts)[STUDY_VALUE_MAX], int *n);

#endif
