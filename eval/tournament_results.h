/* tournament_results.h — ratings and tables from stored game records.
 *
 * Reads one or several record files (data/h5rec.h, journals included) into
 * rating pools: by default one pool per game spec (an agent's strength
 * depends on the game, and so does the first-move advantage), or one pool
 * over every game on request. Players are the stored agent specs; the
 * "white" of the Elo model (eval/elo.h) is seat 0, the player who moved
 * first from the game's initial position. Used by `hoyle tournament` (after
 * the run), `hoyle elo` and `hoyle report`, so that ratings never depend on
 * the run that made the games. */
#ifndef HOYLE_EVAL_TOURNAMENT_RESULTS_H
#define HOYLE_EVAL_TOURNAMENT_RESULTS_H

#include <stdint.h>
#include <stdio.h>

#include "data/record.h"
#include "eval/elo.h"
#include "eval/elo_report.h"

/* One rating pool. */
typedef struct tres_set {
    char *label; /* the game spec, or "all games" when pooled */
    int n_players;
    char **names;      /* [n_players] agent specs */
    elo_game_t *games; /* [n_games] */
    size_t n_games, cap_games;
    int n_groups;        /* first-player tally per opening */
    elo_group_t *groups; /* labels owned (cast away const when freeing) */
    double ends[RECORD_END_COUNT];
    double length_sum; /* actions over all games */
} tres_set_t;

typedef struct tres {
    int pooled;              /* set before the first tres_add_file */
    const char *game_filter; /* only records whose game spec starts with this; NULL = all */
    int n_sets;
    tres_set_t *sets;
    int64_t records; /* games read */
    int n_files;     /* files added, with their file_id and path (owned) */
    uint64_t *file_ids;
    char **file_paths;
} tres_t;

/* Add every game of the record file at `path`. Foreign or truncated files
 * give HOYLE_EIO / HOYLE_EINVAL naming the file (nothing is modified); a
 * file already added (the same file_id: the same file under another name,
 * or a copy of it) is HOYLE_EINVAL naming both, since its games would
 * count twice. */
int tres_add_file(tres_t *t, const char *path);
void tres_done(tres_t *t);

/* 0 when `name` is a player of at least one pool, else HOYLE_EINVAL with a
 * message naming it and the players ("anchor 'x' is not a player; players:
 * a, b"). */
int tres_check_anchor(const tres_t *t, const char *name);

typedef enum tres_format { TRES_TABLE = 0, TRES_CSV = 1, TRES_JSON = 2 } tres_format_t;

typedef struct tres_opts {
    const char *anchor; /* NULL = mean 0; an anchor missing from a pool is ignored there */
    int bootstrap;      /* replicates, 0 = none */
    uint64_t seed;      /* bootstrap seed */
    tres_format_t format;
    int crosstable;   /* table format: add the cross table */
    int los;          /* table format: add the likelihood-of-superiority matrix */
    int first_player; /* 1: the first player's score by opening; 2: one summary line */
    /* table format: also print this published table by opening beside the
     * games (eval/opening_table.h); NULL = none */
    const struct otable *seed_table;
} tres_opts_t;

/* Fit and print every pool. Returns 0, or the first fit's error status
 * (the other pools are still printed; the message names the pool). */
int tres_report(FILE *f, const tres_t *t, const tres_opts_t *o);

#endif
