/* opening_table.c — a published first-player table by opening, read and
 * printed beside stored games (opening_table.h). Invariant: a loaded table
 * is consistent (each row's results add up to its total, the rows add up
 * to the Total line). */
#include "eval/opening_table.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

void otable_done(otable_t *t)
{
    if (t == NULL) return;
    for (int i = 0; i < t->n_rows; i++) free(t->rows[i].openings);
    free(t->rows);
    memset(t, 0, sizeof *t);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

/* The ';'-separated names of `list` into r (or '*'). */
static int parse_openings(char *list, otable_row_t *r, const char *where)
{
    if (strcmp(list, "*") == 0) {
        r->rest = 1;
        return HOYLE_OK;
    }
    for (char *save = NULL, *tok = strtok_r(list, ";", &save); tok;
         tok = strtok_r(NULL, ";", &save)) {
        char *name = trim(tok);
        if (*name == '\0') continue;
        void *p = realloc(r->openings, sizeof *r->openings * (size_t)(r->n_openings + 1));
        if (p == NULL) return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", where);
        r->openings = p;
        snprintf(r->openings[r->n_openings++], OTABLE_NAME_MAX, "%s", name);
    }
    if (r->n_openings == 0) return hoyle_error(HOYLE_EINVAL, "%s: no openings named", where);
    return HOYLE_OK;
}

/* One line (not a comment) into the table. */
static int parse_line(char *t, otable_t *tab, int *have_total, const char *where)
{
    char *bar1 = strchr(t, '|');
    if (bar1 == NULL)
        return hoyle_error(HOYLE_EINVAL, "%s: 'row | figures | openings' expected", where);
    *bar1 = '\0';
    char *name = trim(t), *figs = bar1 + 1, *bar2 = strchr(figs, '|');
    if (bar2) *bar2 = '\0';
    double v[6];
    int n = sscanf(figs, "%lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]);
    if (*have_total) return hoyle_error(HOYLE_EINVAL, "%s: a row after the Total line", where);
    if (strcmp(name, "Total") == 0) {
        if (n != 5 || bar2)
            return hoyle_error(HOYLE_EINVAL, "%s: Total needs won lost drew total per-cent", where);
        tab->won = v[0], tab->lost = v[1], tab->drew = v[2], tab->total = v[3], tab->pct_won = v[4];
        *have_total = 1;
        return HOYLE_OK;
    }
    if (n != 6 || bar2 == NULL)
        return hoyle_error(HOYLE_EINVAL, "%s: row '%s' needs six figures and its openings", where,
                           name);
    for (int i = 0; i < 6; i++)
        if (!(v[i] >= 0)) return hoyle_error(HOYLE_EINVAL, "%s: a negative figure", where);
    if (v[0] + v[1] + v[2] != v[3])
        return hoyle_error(HOYLE_EINVAL, "%s: row '%s': %g + %g + %g is not %g", where, name, v[0],
                           v[1], v[2], v[3]);
    void *p = realloc(tab->rows, sizeof *tab->rows * (size_t)(tab->n_rows + 1));
    if (p == NULL) return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", where);
    tab->rows = p;
    otable_row_t *r = &tab->rows[tab->n_rows++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    r->won = v[0], r->lost = v[1], r->drew = v[2], r->total = v[3], r->pct_won = v[4],
    r->pct_all = v[5];
    return parse_openings(trim(bar2 + 1), r, where);
}

int otable_load(const char *path, otable_t *out)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) return hoyle_error(HOYLE_EIO, "table %s: %s", path, strerror(errno));
    otable_t t;
    memset(&t, 0, sizeof t);
    char line[2048], where[600];
    int status = HOYLE_OK, lineno = 0, have_total = 0;
    while (status == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        char *s = trim(line);
        if (*s == '\0' || *s == '#') continue;
        snprintf(where, sizeof where, "table %s:%d", path, lineno);
        status = parse_line(s, &t, &have_total, where);
    }
    fclose(f);
    if (status == 0 && !have_total)
        status = hoyle_error(HOYLE_EINVAL, "table %s: no Total line", path);
    double sum[4] = {0, 0, 0, 0};
    for (int i = 0; i < t.n_rows; i++) {
        sum[0] += t.rows[i].won, sum[1] += t.rows[i].lost, sum[2] += t.rows[i].drew;
        sum[3] += t.rows[i].total;
    }
    if (status == 0 &&
        (sum[0] != t.won || sum[1] != t.lost || sum[2] != t.drew || sum[3] != t.total))
        status = hoyle_error(HOYLE_EINVAL,
                             "table %s: the rows add up to %g %g %g %g, not the Total line", path,
                             sum[0], sum[1], sum[2], sum[3]);
    if (status) {
        otable_done(&t);
        return status;
    }
    *out = t;
    return HOYLE_OK;
}

int otable_row_of(const otable_t *t, const char *opening)
{
    int rest = -1;
    for (int i = 0; i < t->n_rows; i++) {
        if (t->rows[i].rest) rest = i;
        for (int k = 0; k < t->rows[i].n_openings; k++)
            if (strcmp(t->rows[i].openings[k], opening) == 0) return i;
    }
    return rest;
}

static double pct_won(double w, double l, double d)
{
    double n = w + l + d;
    return n > 0 ? 100 * (w + d / 2) / n : 0;
}

/* One line: name, our W L D total %won %all (or dashes), then the seed's. */
static void print_line(FILE *f, const char *name, const double *ours, double all,
                       const otable_row_t *seed)
{
    fprintf(f, "%-22.22s", name);
    if (ours[3] > 0)
        fprintf(f, " %5.0f %5.0f %5.0f %6.0f %6.1f %6.1f", ours[0], ours[1], ours[2], ours[3],
                pct_won(ours[0], ours[1], ours[2]), all > 0 ? 100 * ours[3] / all : 0);
    else
        fprintf(f, " %5s %5s %5s %6s %6s %6s", "-", "-", "-", "0", "-", "-");
    if (seed)
        fprintf(f, "   %5.0f %5.0f %5.0f %6.0f %6.0f %6.0f\n", seed->won, seed->lost, seed->drew,
                seed->total, seed->pct_won, seed->pct_all);
    else
        fputc('\n', f);
}

int otable_print(FILE *f, const otable_t *t, const elo_group_t *groups, int n_groups)
{
    double(*ours)[4] = calloc((size_t)t->n_rows + 1, sizeof *ours); /* last: not in the table */
    if (ours == NULL) return hoyle_error(HOYLE_ENOMEM, "table: out of memory");
    double all[4] = {0, 0, 0, 0};
    for (int i = 0; i < n_groups; i++) {
        int r = otable_row_of(t, groups[i].label ? groups[i].label : "");
        double *o = ours[r < 0 ? t->n_rows : r];
        /* wins / losses / draws of the first player, the table's order */
        double add[4] = {groups[i].wins, groups[i].losses, groups[i].draws,
                         groups[i].wins + groups[i].losses + groups[i].draws};
        for (int k = 0; k < 4; k++) o[k] += add[k], all[k] += add[k];
    }
    fprintf(f, "\nThe seed's table of 1,500 games (first player = White), beside these games:\n");
    fprintf(f, "%-22s %-39s   %s\n", "", "------------- these games -------------",
            "-------------- the seed ---------------");
    fprintf(f, "%-22s %5s %5s %5s %6s %6s %6s   %5s %5s %5s %6s %6s %6s\n", "Openings", "won",
            "lost", "drew", "total", "%won", "%all", "won", "lost", "drew", "total", "%won",
            "%all");
    for (int i = 0; i < t->n_rows; i++)
        print_line(f, t->rows[i].name, ours[i], all[3], &t->rows[i]);
    if (ours[t->n_rows][3] > 0) print_line(f, "(not in the table)", ours[t->n_rows], all[3], NULL);
    otable_row_t total = {.won = t->won,
                          .lost = t->lost,
                          .drew = t->drew,
                          .total = t->total,
                          .pct_won = pct_won(t->won, t->lost, t->drew),
                          .pct_all = 100};
    print_line(f, "Total", all, all[3], &total);
    fprintf(f,
            "The first player won %.1f per cent of games played, counting drawn games as one-half",
            pct_won(all[0], all[1], all[2]));
    fprintf(f, " (the seed: %.1f).\n", t->pct_won);
    free(ours);
    if (ferror(f)) return hoyle_error(HOYLE_EIO, "table: write failed");
    return HOYLE_OK;
}
