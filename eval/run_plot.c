/* run_plot.c — a training run's eval.csv as an SVG (run_plot.h): the CSV is
 * read by column name (later columns may be added), rows are grouped by
 * opponent in order of first appearance, and each group becomes one series
 * in each of two panels (score, Elo difference). */
#include "eval/run_plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "eval/score.h"
#include "eval/svg_plot.h"

enum { COL_GEN, COL_OPP, COL_SCORE, COL_ELO, COL_LO, COL_HI, NCOLS };
static const char *const col_names[NCOLS] = {"generation", "opponent",     "score",
                                             "elo_diff",   "elo_diff_low", "elo_diff_high"};

typedef struct rows {
    int n, cap;
    double *v[NCOLS]; /* per column (COL_OPP: the opponent's index) */
    char opp[RUN_PLOT_MAX_OPPONENTS][128];
    int n_opp;
} rows_t;

/* Split `line` at commas in place; returns the fields found (at most max). */
static int split(char *line, char **field, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; n < max;) {
        field[n++] = p;
        if ((p = strchr(p, ',')) == NULL) break;
        *p++ = '\0';
    }
    return n;
}

static int opponent_index(rows_t *r, const char *name)
{
    for (int i = 0; i < r->n_opp; i++)
        if (strcmp(r->opp[i], name) == 0) return i;
    if (r->n_opp == RUN_PLOT_MAX_OPPONENTS) return -1;
    snprintf(r->opp[r->n_opp], sizeof r->opp[0], "%s", name);
    return r->n_opp++;
}

/* One data line into r; `at` maps columns to fields. */
static int add_row(rows_t *r, char **field, int nf, const int *at, const char *path, int line)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        for (int c = 0; c < NCOLS; c++) {
            double *v = realloc(r->v[c], sizeof *v * (size_t)r->cap);
            if (v == NULL) return hoyle_error(HOYLE_ENOMEM, "plot: out of memory");
            r->v[c] = v;
        }
    }
    for (int c = 0; c < NCOLS; c++) {
        if (at[c] >= nf) return hoyle_error(HOYLE_EINVAL, "'%s':%d: too few fields", path, line);
        const char *text = field[at[c]];
        if (c == COL_OPP) {
            int k = opponent_index(r, text);
            if (k < 0)
                return hoyle_error(HOYLE_EINVAL, "'%s':%d: more than %d opponents", path, line,
                                   RUN_PLOT_MAX_OPPONENTS);
            r->v[c][r->n] = k;
            continue;
        }
        char *end;
        errno = 0;
        double x = strtod(text, &end);
        if (end == text || *end != '\0' || isnan(x))
            return hoyle_error(HOYLE_EINVAL, "'%s':%d: %s '%s' is not a number", path, line,
                               col_names[c], text);
        r->v[c][r->n] = x;
    }
    r->n++;
    return HOYLE_OK;
}

/* The whole file into r: the header names the columns, then one row a line. */
static int read_rows(FILE *in, const char *path, rows_t *r)
{
    char buf[4096], *field[64];
    int at[NCOLS], line = 1;
    if (fgets(buf, sizeof buf, in) == NULL)
        return hoyle_error(HOYLE_EINVAL, "'%s': empty (no header)", path);
    int nf = split(buf, field, 64);
    for (int c = 0; c < NCOLS; c++) {
        at[c] = -1;
        for (int i = 0; i < nf; i++)
            if (strcmp(field[i], col_names[c]) == 0) at[c] = i;
        if (at[c] < 0)
            return hoyle_error(HOYLE_EINVAL, "'%s': no column '%s' (not an eval.csv?)", path,
                               col_names[c]);
    }
    while (fgets(buf, sizeof buf, in)) {
        line++;
        if (buf[strspn(buf, " \r\n")] == '\0') continue;
        nf = split(buf, field, 64);
        int status = add_row(r, field, nf, at, path, line);
        if (status) return status;
    }
    if (r->n == 0) return hoyle_error(HOYLE_EINVAL, "'%s': no evaluation yet", path);
    return HOYLE_OK;
}

/* The series of opponent k in panel `which` (0 score, 1 Elo), its columns in `buf`
 * (4 x n doubles: x, y, lo, hi). */
static void make_series(const rows_t *r, int k, int which, double *buf, plot_series_t *se)
{
    double *x = buf, *y = buf + r->n, *lo = buf + 2 * r->n, *hi = buf + 3 * r->n;
    int m = 0;
    for (int i = 0; i < r->n; i++) {
        if ((int)r->v[COL_OPP][i] != k) continue;
        x[m] = r->v[COL_GEN][i];
        y[m] = which ? r->v[COL_ELO][i] : r->v[COL_SCORE][i];
        lo[m] = which ? r->v[COL_LO][i] : elo_to_score(r->v[COL_LO][i]);
        hi[m] = which ? r->v[COL_HI][i] : elo_to_score(r->v[COL_HI][i]);
        m++;
    }
    *se = (plot_series_t){
        .name = r->opp[k], .n = m, .x = x, .y = y, .lo = lo, .hi = hi, .colour = k + 1};
}

static int draw(const rows_t *r, const char *title, FILE *out)
{
    int per = 4 * r->n;
    double *buf = malloc(sizeof *buf * (size_t)per * (size_t)r->n_opp * 2);
    if (buf == NULL) return hoyle_error(HOYLE_ENOMEM, "plot: out of memory");
    plot_series_t se[2][RUN_PLOT_MAX_OPPONENTS];
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < r->n_opp; k++)
            make_series(r, k, w, buf + (size_t)per * (size_t)(w * r->n_opp + k), &se[w][k]);
    char t0[600], t1[600];
    snprintf(t0, sizeof t0, "%s: score of the new net by opponent (95%% interval)", title);
    snprintf(t1, sizeof t1, "%s: Elo difference to each opponent (95%% interval)", title);
    plot_panel_t panels[2] = {{.title = t0,
                               .x_label = "generation",
                               .integer_x = 1,
                               .y_label = "score",
                               .n_series = r->n_opp,
                               .series = se[0]},
                              {.title = t1,
                               .x_label = "generation",
                               .integer_x = 1,
                               .y_label = "Elo(new net - opponent)",
                               .min_y_span = 100,
                               .n_series = r->n_opp,
                               .series = se[1]}};
    int status = svg_plot_write(out, panels, 2);
    free(buf);
    return status;
}

int run_plot_eval_csv(const char *csv_path, const char *title, FILE *out)
{
    FILE *in = fopen(csv_path, "r");
    if (in == NULL) return hoyle_error(HOYLE_EIO, "'%s': %s", csv_path, strerror(errno));
    rows_t r;
    memset(&r, 0, sizeof r);
    int status = read_rows(in, csv_path, &r);
    fclose(in);
    if (status == 0) status = draw(&r, title ? title : csv_path, out);
    for (int c = 0; c < NCOLS; c++) free(r.v[c]);
    return status;
}
