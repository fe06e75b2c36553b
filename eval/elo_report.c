/* elo_report.c — text, CSV and JSON writers for ratings and first-player tables.
 *
 * Writers only read the result; every line they print is derived from the
 * result's arrays (and, for the cross table, from the input games). A write
 * error on the stream is reported as HOYLE_EIO after the attempt. */
#include "eval/elo_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "eval/score.h"

/* ---- helpers ---- */

static _Thread_local const elo_result_t *sort_ctx;

/* Highest rating first; equal ratings by name, so that the order (and every
 * report) is the same on every platform's qsort. */
static int by_rank(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    double ri = sort_ctx->rating[i], rj = sort_ctx->rating[j];
    if (ri != rj) return ri > rj ? -1 : 1;
    return strcmp(sort_ctx->names[i], sort_ctx->names[j]);
}

/* New array of player ids in rank order (caller frees), NULL on ENOMEM. */
static int *rank_order(const elo_result_t *r)
{
    int *order = malloc((size_t)r->n * sizeof *order);
    if (!order) return NULL;
    for (int i = 0; i < r->n; i++) order[i] = i;
    sort_ctx = r; /* qsort has no context argument in C11; thread-local keeps threads apart */
    qsort(order, (size_t)r->n, sizeof *order, by_rank);
    sort_ctx = NULL;
    return order;
}

/* Every writer ends here: a stream error anywhere during the writes shows in
 * ferror() once, instead of a check after each fprintf. */
static int finish(FILE *f, int *order)
{
    free(order);
    if (ferror(f)) return hoyle_error(HOYLE_EIO, "elo report: write failed");
    return HOYLE_OK;
}

/* Wide enough for the longest name and for the "Name" header. */
static int name_width(const elo_result_t *r)
{
    int w = 4;
    for (int i = 0; i < r->n; i++) {
        int len = (int)strlen(r->names[i]);
        if (len > w) w = len;
    }
    return w;
}

/* JSON number or null. */
/* JSON has no inf or nan; %.10g keeps ratings exact to far below a point */
static void json_num(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.10g", x);
    else
        fputs("null", f);
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* RFC 4180: quote only when needed, double the quotes inside. */
static void csv_str(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_num(FILE *f, double x)
/* a missing value (no bootstrap) is an empty CSV field */
{
    if (isfinite(x)) fprintf(f, "%.10g", x);
}

/* The bootstrap's percentile interval when it ran (it can be asymmetric),
 * else the normal interval around the rating. */
/* Distances from the rating to its upper and lower bounds. */
static void plus_minus(const elo_result_t *r, int i, double *plus, double *minus)
{
    if (r->boot_lo) {
        *plus = r->boot_hi[i] - r->rating[i];
        *minus = r->rating[i] - r->boot_lo[i];
    } else {
        *plus = r->hi[i] - r->rating[i];
        *minus = r->rating[i] - r->lo[i];
    }
}

/* ---- ratings ---- */

/* BayesElo-style table: +/- are the distances to the interval's bounds,
 * score the points per game, oppo the game-weighted mean opponent rating,
 * draws the draw fraction (all from the real games, prior excluded). */
int elo_report_table(FILE *f, const elo_result_t *r)
{
    int *order = rank_order(r);
    if (!order) return hoyle_error(HOYLE_ENOMEM, "elo report: out of memory");
    int w = name_width(r);
    fprintf(f, "Rank %-*s   Elo    +    - games score oppo. draws\n", w, "Name");
    for (int k = 0; k < r->n; k++) {
        int i = order[k];
        double plus, minus;
        plus_minus(r, i, &plus, &minus);
        fprintf(f, "%4d %-*s %5.0f %4.0f %4.0f %5.0f %4.0f%% %5.0f %4.0f%%\n", k + 1, w,
                r->names[i], r->rating[i], plus, minus, r->games[i], 100 * r->score[i], r->oppo[i],
                100 * r->draws[i]);
    }
    /* Two-sided: a `confidence` interval is +/- z with Phi(z) = (1 + confidence) / 2. */
    double z = elo_normal_quantile(0.5 + 0.5 * r->confidence);
    fprintf(f, "advantage %.1f +/- %.1f, drawelo %.1f +/- %.1f (%g%% intervals%s)\n", r->advantage,
            z * r->advantage_se, r->drawelo, z * r->drawelo_se, 100 * r->confidence,
            r->boot_lo ? "; +/- columns from the bootstrap" : "");
    char scale[300];
    elo_scale_text(r, scale, sizeof scale);
    fprintf(f, "Elo scale: %s (BayesElo model; only differences mean anything)\n", scale);
    return finish(f, order);
}

void elo_scale_text(const elo_result_t *r, char *out, size_t cap)
{
    if (r->anchor >= 0)
        snprintf(out, cap, "anchor '%s' held at %.0f", r->names[r->anchor], r->rating[r->anchor]);
    else
        snprintf(out, cap, "mean 0 over these %d players", r->n);
}

/* LOS[i][j] = P(r_i > r_j) under the fit's normal approximation (elo.h),
 * printed in percent with rows and columns in rank order; columns are
 * labelled by rank to keep the matrix narrow. */
int elo_report_los(FILE *f, const elo_result_t *r)
{
    int *order = rank_order(r);
    if (!order) return hoyle_error(HOYLE_ENOMEM, "elo report: out of memory");
    int w = name_width(r);
    fprintf(f, "%-*s", w, "");
    for (int k = 0; k < r->n; k++) fprintf(f, " %3d", k + 1);
    fputc('\n', f);
    for (int a = 0; a < r->n; a++) {
        int i = order[a];
        fprintf(f, "%-*s", w, r->names[i]);
        for (int b = 0; b < r->n; b++) {
            if (a == b)
                fputs("    ", f);
            else
                fprintf(f, " %3.0f", 100 * r->los[i * r->n + order[b]]);
        }
        fputc('\n', f);
    }
    return finish(f, order);
}

int elo_report_crosstable(FILE *f, const elo_input_t *in, const elo_result_t *r)
{
    if (in->n_players != r->n)
        return hoyle_error(HOYLE_EINVAL, "elo report: input has %d players, result %d",
                           in->n_players, r->n);
    size_t nn = (size_t)r->n * (size_t)r->n;
    double *pts = calloc(nn, sizeof *pts), *cnt = calloc(nn, sizeof *cnt);
    int *order = rank_order(r);
    if (!pts || !cnt || !order) {
        free(pts);
        free(cnt);
        free(order);
        return hoyle_error(HOYLE_ENOMEM, "elo report: out of memory");
    }
    for (size_t g = 0; g < in->n_games; g++) {
        const elo_game_t *gm = &in->games[g];
        /* the cross table counts games as given, weighted, skipping ids the
         * result does not have rather than indexing out of range */
        if (gm->white < 0 || gm->white >= r->n || gm->black < 0 || gm->black >= r->n) continue;
        /* weight 0 means one game (elo.h), so zero-initialised inputs are unweighted. */
        double wt = gm->weight == 0 ? 1 : gm->weight;
        size_t wb = (size_t)gm->white * (size_t)r->n + (size_t)gm->black;
        size_t bw = (size_t)gm->black * (size_t)r->n + (size_t)gm->white;
        pts[wb] += wt * gm->score;
        pts[bw] += wt * (1 - gm->score);
        cnt[wb] += wt;
        cnt[bw] += wt;
    }
    /* Cell width: the longest "points/games". */
    char cell[64];
    int cw = 3;
    for (size_t q = 0; q < nn; q++) {
        int len = snprintf(cell, sizeof cell, "%g/%g", pts[q], cnt[q]);
        if (len > cw) cw = len;
    }
    int w = name_width(r);
    fprintf(f, "%4s %-*s", "", w, "");
    for (int k = 0; k < r->n; k++) fprintf(f, " %*d", cw, k + 1);
    fputc('\n', f);
    for (int a = 0; a < r->n; a++) {
        int i = order[a];
        fprintf(f, "%4d %-*s", a + 1, w, r->names[i]);
        for (int b = 0; b < r->n; b++) {
            size_t q = (size_t)i * (size_t)r->n + (size_t)order[b];
            if (a == b)
                snprintf(cell, sizeof cell, "-");
            else if (cnt[q] == 0)
                cell[0] = '\0';
            else
                snprintf(cell, sizeof cell, "%g/%g", pts[q], cnt[q]);
            fprintf(f, " %*s", cw, cell);
        }
        fputc('\n', f);
    }
    free(pts);
    free(cnt);
    return finish(f, order);
}

/* A player's numbers, after its rank and name, in the order and under the names of both
 * formats (CSV columns, JSON keys), so that the two carry the same numbers. */
enum { ROW_VALUES = 10 };
static const char *const row_keys[ROW_VALUES] = {"elo",     "se",    "lo",    "hi",   "boot_lo",
                                                 "boot_hi", "games", "score", "oppo", "draws"};

static void row_values(const elo_result_t *r, int i, double v[ROW_VALUES])
{
    double row[ROW_VALUES] = {r->rating[i],
                              r->se[i],
                              r->lo[i],
                              r->hi[i],
                              r->boot_lo ? r->boot_lo[i] : NAN,
                              r->boot_hi ? r->boot_hi[i] : NAN,
                              r->games[i],
                              r->score[i],
                              r->oppo[i],
                              r->draws[i]};
    memcpy(v, row, sizeof row);
}

/* One row per player in rank order. */
int elo_report_csv(FILE *f, const elo_result_t *r)
{
    int *order = rank_order(r);
    if (!order) return hoyle_error(HOYLE_ENOMEM, "elo report: out of memory");
    fputs("rank,name", f);
    for (int c = 0; c < ROW_VALUES; c++) fprintf(f, ",%s", row_keys[c]);
    fputc('\n', f);
    for (int k = 0; k < r->n; k++) {
        int i = order[k];
        fprintf(f, "%d,", k + 1);
        csv_str(f, r->names[i]);
        double v[ROW_VALUES];
        row_values(r, i, v);
        for (int c = 0; c < ROW_VALUES; c++) {
            fputc(',', f);
            csv_num(f, v[c]);
        }
        fputc('\n', f);
    }
    return finish(f, order);
}

/* A model parameter (advantage, drawelo) with its standard error and, when
 * the bootstrap ran, its percentile bounds (null otherwise). */
static void json_param(FILE *f, const char *key, double v, double se, double lo, double hi)
{
    fprintf(f, "\"%s\": {\"elo\": ", key);
    json_num(f, v);
    fputs(", \"se\": ", f);
    json_num(f, se);
    fputs(", \"boot_lo\": ", f);
    json_num(f, lo);
    fputs(", \"boot_hi\": ", f);
    json_num(f, hi);
    fputs("}", f);
}

int elo_report_json(FILE *f, const elo_result_t *r)
{
    int *order = rank_order(r);
    if (!order) return hoyle_error(HOYLE_ENOMEM, "elo report: out of memory");
    fputs("{\"players\": [", f);
    for (int k = 0; k < r->n; k++) {
        int i = order[k];
        fprintf(f, "%s\n  {\"rank\": %d, \"name\": ", k ? "," : "", k + 1);
        json_str(f, r->names[i]);
        double v[ROW_VALUES];
        row_values(r, i, v);
        for (int c = 0; c < ROW_VALUES; c++) {
            fprintf(f, ", \"%s\": ", row_keys[c]);
            json_num(f, v[c]);
        }
        fputc('}', f);
    }
    fputs("],\n", f);
    json_param(f, "advantage", r->advantage, r->advantage_se, r->advantage_boot_lo,
               r->advantage_boot_hi);
    fputs(",\n", f);
    json_param(f, "drawelo", r->drawelo, r->drawelo_se, r->drawelo_boot_lo, r->drawelo_boot_hi);
    fputs(",\n\"confidence\": ", f);
    json_num(f, r->confidence);
    fputs(", \"anchor\": ", f);
    if (r->anchor >= 0)
        json_str(f, r->names[r->anchor]);
    else
        fputs("null", f);
    char scale[300];
    elo_scale_text(r, scale, sizeof scale);
    fputs(", \"scale\": ", f);
    json_str(f, scale);
    fputs(", \"log_likelihood\": ", f);
    json_num(f, r->log_likelihood);
    fprintf(
        f,
        ", \"iterations\": %d,\n\"bootstrap\": {\"replicates\": %d, \"failed\": %d},\n\"los\": [",
        r->iterations, r->boot_done, r->boot_failed);
    /* The LOS matrix in rank order, matching the players array's order. */
    for (int a = 0; a < r->n; a++) {
        fputs(a ? ",\n  [" : "\n  [", f);
        for (int b = 0; b < r->n; b++) {
            if (b) fputs(", ", f);
            json_num(f, r->los[order[a] * r->n + order[b]]);
        }
        fputc(']', f);
    }
    fputs("]}\n", f);
    return finish(f, order);
}

/* ---- first player ---- */

/* The first player's score with a Wilson score interval. Draws make a game
 * worth 0, 1/2 or 1, so the binomial n is replaced by the effective number of
 * games n_eff = n s (1 - s) / var that gives the observed per-game variance;
 * without draws n_eff = n and this is the plain Wilson interval. */
int elo_first_player_stat(const elo_group_t *g, double confidence, elo_first_stat_t *out)
{
    const char *label = g->label ? g->label : "(unnamed)";
    if (!(g->wins >= 0 && g->draws >= 0 && g->losses >= 0) || isinf(g->wins + g->draws + g->losses))
        return hoyle_error(HOYLE_EINVAL,
                           "first player: group '%s' has a negative or non-finite count", label);
    if (!(confidence > 0 && confidence < 1))
        return hoyle_error(HOYLE_EINVAL, "first player: confidence must be in (0, 1), got %g",
                           confidence);
    double n = g->wins + g->draws + g->losses;
    if (!(n > 0)) return hoyle_error(HOYLE_EINVAL, "first player: group '%s' has no games", label);
    double s = (g->wins + 0.5 * g->draws) / n;
    double var =
        (g->wins * (1 - s) * (1 - s) + g->draws * (0.5 - s) * (0.5 - s) + g->losses * s * s) / n;
    /* var = 0 only when every game had the same result (all wins, all draws or
     * all losses); then n itself is the honest count. */
    double neff = var > 0 ? n * s * (1 - s) / var : n;
    double z = elo_normal_quantile(0.5 + 0.5 * confidence);
    out->games = n;
    out->score = s;
    wilson_interval(s, neff, z, &out->lo, &out->hi);
    out->elo = score_to_elo(s); /* a clean sweep: +-inf */
    return HOYLE_OK;
}

/* Sum of all groups into *all. */
static void group_total(const elo_group_t *groups, int n, elo_group_t *all)
{
    *all = (elo_group_t){"all", 0, 0, 0};
    for (int i = 0; i < n; i++) {
        all->wins += groups[i].wins;
        all->draws += groups[i].draws;
        all->losses += groups[i].losses;
    }
}

int elo_report_first_player(FILE *f, const elo_group_t *groups, int n_groups, double confidence)
{
    elo_first_stat_t st;
    elo_group_t all;
    int status, w = 5;
    if (n_groups < 1) return hoyle_error(HOYLE_EINVAL, "first player: no groups");
    for (int i = 0; i < n_groups; i++) { /* validate everything before printing anything */
        if ((status = elo_first_player_stat(&groups[i], confidence, &st)) < 0) return status;
        int len = groups[i].label ? (int)strlen(groups[i].label) : 9;
        if (len > w) w = len;
    }
    group_total(groups, n_groups, &all);
    fprintf(f, "%-*s  games  first%%  [%2.0f%% interval]   elo      W      D      L\n", w, "Group",
            100 * confidence);
    /* The extra last row (i == n_groups) is the total over all groups. The stat
     * cannot fail here: every group was validated above and the total of valid
     * groups is valid. */
    for (int i = 0; i <= n_groups; i++) {
        const elo_group_t *g = i < n_groups ? &groups[i] : &all;
        elo_first_player_stat(g, confidence, &st);
        fprintf(f, "%-*s %6.0f  %5.1f%%  [%5.1f%%, %5.1f%%] %5.0f %6.0f %6.0f %6.0f\n", w,
                g->label ? g->label : "(unnamed)", st.games, 100 * st.score, 100 * st.lo,
                100 * st.hi, st.elo, g->wins, g->draws, g->losses);
    }
    if (ferror(f)) return hoyle_error(HOYLE_EIO, "first player: write failed");
    return HOYLE_OK;
}

int elo_report_by_seat(FILE *f, const elo_input_t *in, const elo_result_t *r, double confidence)
{
    if (in->n_players != r->n)
        return hoyle_error(HOYLE_EINVAL, "elo report: input has %d players, result %d",
                           in->n_players, r->n);
    elo_group_t *seat = calloc((size_t)r->n * 2, sizeof *seat); /* [player][seat] */
    int *order = rank_order(r);
    if (!seat || !order) {
        free(seat);
        free(order);
        return hoyle_error(HOYLE_ENOMEM, "elo report: out of memory");
    }
    for (size_t g = 0; g < in->n_games; g++) {
        const elo_game_t *gm = &in->games[g];
        if (gm->white < 0 || gm->white >= r->n || gm->black < 0 || gm->black >= r->n) continue;
        double wt = gm->weight == 0 ? 1 : gm->weight; /* as the cross table */
        for (int k = 0; k < 2; k++) {
            elo_group_t *c = &seat[2 * (k == 0 ? gm->white : gm->black) + k];
            double score = k == 0 ? gm->score : 1 - gm->score;
            c->wins += score > 0.5 ? wt : 0;
            c->draws += score == 0.5 ? wt : 0;
            c->losses += score < 0.5 ? wt : 0;
        }
    }
    int w = name_width(r);
    fprintf(f, "%4s %-*s  seat    games  score  [%2.0f%% interval]      W      D      L\n", "", w,
            "", 100 * confidence);
    for (int a = 0; a < r->n; a++)
        for (int k = 0; k < 2; k++) {
            elo_group_t *c = &seat[2 * order[a] + k];
            elo_first_stat_t st;
            if (c->wins + c->draws + c->losses <= 0) continue; /* never in this seat */
            if (elo_first_player_stat(c, confidence, &st) < 0) {
                free(seat);
                free(order);
                return HOYLE_EINVAL; /* a bad confidence, with its message */
            }
            fprintf(f, "%4d %-*s  %-6s %6.0f  %5.1f%%  [%5.1f%%, %5.1f%%] %6.0f %6.0f %6.0f\n",
                    a + 1, w, r->names[order[a]], k == 0 ? "first" : "second", st.games,
                    100 * st.score, 100 * st.lo, 100 * st.hi, c->wins, c->draws, c->losses);
        }
    free(seat);
    return finish(f, order);
}

static void json_group(FILE *f, const elo_group_t *g, const elo_first_stat_t *st)
{
    fputs("{\"label\": ", f);
    json_str(f, g->label ? g->label : "");
    fputs(", \"games\": ", f);
    json_num(f, st->games);
    fputs(", \"score\": ", f);
    json_num(f, st->score);
    fputs(", \"lo\": ", f);
    json_num(f, st->lo);
    fputs(", \"hi\": ", f);
    json_num(f, st->hi);
    fputs(", \"elo\": ", f);
    json_num(f, st->elo);
    fprintf(f, ", \"wins\": %.10g, \"draws\": %.10g, \"losses\": %.10g}", g->wins, g->draws,
            g->losses);
}

int elo_report_first_player_json(FILE *f, const elo_group_t *groups, int n_groups,
                                 double confidence)
{
    elo_first_stat_t st;
    elo_group_t all;
    int status;
    if (n_groups < 1) return hoyle_error(HOYLE_EINVAL, "first player: no groups");
    for (int i = 0; i < n_groups; i++)
        if ((status = elo_first_player_stat(&groups[i], confidence, &st)) < 0) return status;
    group_total(groups, n_groups, &all);
    fputs("{\"confidence\": ", f);
    json_num(f, confidence);
    fputs(", \"groups\": [", f);
    for (int i = 0; i < n_groups; i++) {
        elo_first_player_stat(&groups[i], confidence, &st);
        fputs(i ? ",\n  " : "\n  ", f);
        json_group(f, &groups[i], &st);
    }
    fputs("],\n\"all\": ", f);
    elo_first_player_stat(&all, confidence, &st);
    json_group(f, &all, &st);
    fputs("}\n", f);
    if (ferror(f)) return hoyle_error(HOYLE_EIO, "first player: write failed");
    return HOYLE_OK;
}
