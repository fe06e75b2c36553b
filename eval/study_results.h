/* study_results.h — a study's figures, read back from its record file
 * (eval/study.h), and the outputs made from them: a table for people, CSV,
 * JSON and an SVG plot of strength against budget and against the measured
 * time per move (eval/svg_plot.h).
 *
 * Per player (the reference, then every point in config order): games,
 * wins / draws / losses and the mean score with a 95% Wilson interval
 * (eval/score.h), the Elo of one BayesElo fit over every game of the file
 * (eval/elo.h; the reference held at 0, else mean 0) with its 95% interval,
 * the mean thinking time per move (the records' action_ms over the actions
 * the player chose), and, when the study asks for it, the share of moves
 * that keep the value of positions drawn from endgame tables
 * (solve/retro_accuracy.h). Figures come from the file only, so a resumed or
 * a finished study reports the same numbers as an uninterrupted one. */
#ifndef HOYLE_EVAL_STUDY_RESULTS_H
#define HOYLE_EVAL_STUDY_RESULTS_H

#include <stdint.h>
#include <stdio.h>

#include "eval/study.h"

typedef struct study_row {
    const char *spec;                          /* the player (borrowed from the study) */
    int point;                                 /* index into study_t.points; -1 = the reference */
    double games, wins, draws, losses;         /* from this player's side, every opponent */
    double score, score_lo, score_hi;          /* mean score (draw = 1/2), 95% Wilson interval */
    double elo, elo_lo, elo_hi;                /* NAN when the fit failed or had no games */
    double ms_per_move;                        /* mean ms per action chosen; NAN without one */
    int64_t moves;                             /* actions chosen (openings and chance excluded) */
    double accuracy, accuracy_lo, accuracy_hi; /* kept-value share, 95% Wilson; NAN = not run */
    double best, blunders;                     /* shares of best moves and blunders; NAN idem */
} study_row_t;

typedef struct study_results {
    int n_rows; /* the reference first (when there is one), then the points */
    study_row_t rows[TOUR_MAX_AGENTS];
    int64_t games;             /* games in the file */
    int64_t expected;          /* games in the study's schedule */
    char scale[160];           /* the Elo convention in words (elo_scale_text) */
    double advantage, drawelo; /* the fit's first-move advantage and draw width (Elo) */
} study_results_t;

/* Read the study's record file (journal included) into *out. HOYLE_EIO /
 * HOYLE_EINVAL with a message naming the file when it cannot be read or
 * holds a player the study does not have. */
int study_results_read(const study_t *s, study_results_t *out);

/* The accuracy columns (study.accuracy.tables set): every point moves in the
 * same accuracy.positions positions drawn from the tables (seed: the
 * study's), reseeded per position. Progress lines go to `progress` (may be
 * NULL). A no-op when the study has no tables. */
int study_results_accuracy(const study_t *s, study_results_t *r, FILE *progress);

/* The writers: 0, or HOYLE_EIO when the stream reports an error. */
int study_write_table(FILE *f, const study_t *s, const study_results_t *r);
int study_write_csv(FILE *f, const study_t *s, const study_results_t *r);
int study_write_json(FILE *f, const study_t *s, const study_results_t *r);
int study_write_svg(FILE *f, const study_t *s, const study_results_t *r);

/* study.csv, study.json and study.svg in the study's folder, each written
 * atomically (core/file.h). */
int study_write_outputs(const study_t *s, const study_results_t *r);

#endif
