/* elo_report.h — tables and machine-readable dumps of an elo_result_t, and
 * the first-player (opening) table.
 *
 * Every writer prints to a caller-owned FILE* and returns 0, or HOYLE_EIO
 * when the stream reports an error, or HOYLE_EINVAL / HOYLE_ENOMEM with a
 * message. Players appear in rank order (rating descending, ties by name). */
#ifndef HOYLE_EVAL_ELO_REPORT_H
#define HOYLE_EVAL_ELO_REPORT_H

#include <stdio.h>

#include "eval/elo.h"

/* BayesElo-style table, one line per player:
 *   Rank Name Elo + - games score oppo draws
 * "+"/"-" are the distances to the interval bounds: the bootstrap percentile
 * bounds when the result has them, else z * se. A footer line gives the
 * advantage and drawelo with their intervals, a second the scale (see
 * elo_scale_text). */
int elo_report_table(FILE *f, const elo_result_t *r);

/* The one Elo convention, in words, for every table and JSON object that
 * shows ratings (docs/ratings.md, "Scale"): "mean 0 over these N players"
 * or "anchor 'NAME' held at R" (the tournament config's `anchor`, --anchor). */
void elo_scale_text(const elo_result_t *r, char *out, size_t cap);

/* Likelihood of superiority, BayesElo's `los`: row i, column j is
 * 100 * P(r_i > r_j), rounded; columns numbered by rank. */
int elo_report_los(FILE *f, const elo_result_t *r);

/* Cross table: cell (row, column) = "points/games" the row player scored
 * against the column player over all games in `in` (either colour, weights
 * applied). `in` must be the input `r` was fitted from. */
int elo_report_crosstable(FILE *f, const elo_input_t *in, const elo_result_t *r);

/* CSV with a header line:
 *   rank,name,elo,se,lo,hi,boot_lo,boot_hi,games,score,oppo,draws
 * (score and draws as fractions; empty fields where there is no value;
 * names quoted per RFC 4180 when needed). */
int elo_report_csv(FILE *f, const elo_result_t *r);

/* One JSON object: {"players": [...rank order...], "advantage": {...},
 * "drawelo": {...}, "confidence", "anchor", "log_likelihood", "iterations",
 * "bootstrap": {...}, "los": [[...]] (rows and columns in rank order)}.
 * Non-finite numbers are written as null. Ends with a newline. */
int elo_report_json(FILE *f, const elo_result_t *r);

/* First-player results of one group of games (an opening, a game variant...):
 * wins/draws/losses counted from the side that moved first, weights allowed. */
typedef struct elo_group {
    const char *label;
    double wins, draws, losses;
} elo_group_t;

typedef struct elo_first_stat {
    double games;  /* wins + draws + losses */
    double score;  /* (wins + draws/2) / games */
    double lo, hi; /* interval for the expected first-player score (see below) */
    double elo;    /* 400 log10(score / (1 - score)); +-inf at 1 and 0 */
} elo_first_stat_t;

/* Score of the first player with a Wilson score interval at `confidence`
 * (Wilson 1927) whose sample size is the effective n = games * s(1-s)/var,
 * var being the observed per-game variance of the 1/0.5/0 scores, so draws
 * narrow the interval as they should (n itself when var is 0). EINVAL on
 * negative/NaN counts, no games or a bad confidence. */
int elo_first_player_stat(const elo_group_t *g, double confidence, elo_first_stat_t *out);

/* Table "Group games first-score [lo, hi] elo W D L", one line per group and
 * an "all" line summing them. */
int elo_report_first_player(FILE *f, const elo_group_t *groups, int n_groups, double confidence);

/* Each player's results by seat, in rank order: "Name seat games score [lo, hi] W D L",
 * two lines a player (first to move, second), the interval as elo_first_player_stat's;
 * a seat the player never took is left out. For games whose sides differ (Fox and Geese:
 * the geese move first), where one score over both seats hides two. `in` must be the
 * input `r` was fitted from. */
int elo_report_by_seat(FILE *f, const elo_input_t *in, const elo_result_t *r, double confidence);

/* Same rows as one JSON object {"confidence":..., "groups":[...], "all":{...}}. */
int elo_report_first_player_json(FILE *f, const elo_group_t *groups, int n_groups,
                                 double confidence);

#endif
