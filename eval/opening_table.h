/* opening_table.h — a published table of first-player results by opening
 * (the seed's 1,500 chess games from the New York Sun), read from a data
 * file and printed in its own form beside the same figures for stored
 * games: `hoyle report FILE.h5 --seed-table configs/books/chess_seed_results.txt`.
 *
 * File format (configs/books/chess_seed_results.txt): '#' comments, then
 * one row a line, `row | won lost drew total pct_won pct_all | openings`,
 * the openings being book names separated by ';' or '*' (every opening no
 * other row names), and a last line `Total | won lost drew total pct_won`.
 * The reader checks that won + lost + drew = total in every row and that
 * the rows add up to the Total line. */
#ifndef HOYLE_EVAL_OPENING_TABLE_H
#define HOYLE_EVAL_OPENING_TABLE_H

#include <stdio.h>

#include "eval/elo_report.h"

#define OTABLE_NAME_MAX 96

typedef struct otable_row {
    char name[OTABLE_NAME_MAX];
    double won, lost, drew, total; /* the first player's results as published */
    double pct_won, pct_all;       /* the per cents as printed (not recomputed) */
    int n_openings;                /* names in openings[]; 0 with rest = the '*' row */
    char (*openings)[OTABLE_NAME_MAX];
    int rest; /* counts every opening no other row names */
} otable_row_t;

typedef struct otable {
    int n_rows;
    otable_row_t *rows;
    double won, lost, drew, total, pct_won; /* the Total line */
} otable_t;

/* Read `path` into *out (free with otable_done). Errors name the file and
 * line (`results.txt:12: ...`); *out is untouched on error. */
int otable_load(const char *path, otable_t *out);
void otable_done(otable_t *t);

/* The row `opening` (a book name) is counted in: the row naming it, else
 * the '*' row, else -1. */
int otable_row_of(const otable_t *t, const char *opening);

/* The table in the published form, with the figures of `groups` (first
 * player W/D/L by opening, as tres_t keeps them) on the left and the
 * published ones on the right, then the first player's overall per cent
 * (draws one half) of both. Openings that fall in no row are counted in a
 * line of their own ("not in the table"). */
int otable_print(FILE *f, const otable_t *t, const elo_group_t *groups, int n_groups);

#endif
