/* study_results.c — a study's figures from its record file, and the table,
 * CSV, JSON and SVG made from them (study_results.h). Every figure is a
 * function of the stored games (and, for accuracy, of the tables and the
 * seed), never of the run that made them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/file.h"
#include "core/json.h"
#include "data/h5rec.h"
#include "eval/elo.h"
#include "eval/elo_report.h"
#include "eval/score.h"
#include "eval/study_results.h"
#include "eval/svg_plot.h"
#include "solve/retro_accuracy.h"

/* The row of a stored player name, or -1. */
static int row_of(const study_results_t *r, const char *name)
{
    for (int i = 0; i < r->n_rows; i++)
        if (name && strcmp(r->rows[i].spec, name) == 0) return i;
    return -1;
}

/* Add the thinking time of the actions each seat chose (the game replayed from its start:
 * opening actions and chance outcomes are nobody's choice). */
static int add_times(const game_t *g, const game_record_t *rec, const int seat_row[2],
                     study_results_t *r, double *ms_sum, void *state)
{
    game_init(g, state);
    for (int i = 0; i < rec->num_actions; i++) {
        int p = game_current_player(g, state);
        if (i >= rec->opening_len && (p == 0 || p == 1) && rec->action_ms) {
            ms_sum[seat_row[p]] += rec->action_ms[i];
            r->rows[seat_row[p]].moves++;
        }
        if (game_apply_checked(g, state, rec->actions[i]))
            return hoyle_error_prefix(HOYLE_EINVAL, "game %d", rec->game_index);
    }
    return HOYLE_OK;
}

/* Fill the tallies and the games to fit from the file. */
static int read_games(const study_t *s, const char *path, study_results_t *r, elo_game_t **gamesp,
                      size_t *ngp, double *ms_sum)
{
    h5rec_t *h = NULL;
    const game_t *g = s->tour.games[0];
    int status = h5rec_open_read(path, &h);
    if (status) return status;
    int64_t n = h5rec_count(h);
    elo_game_t *games = calloc((size_t)(n > 0 ? n : 1), sizeof *games);
    void *state = aligned_alloc(GAME_STATE_ALIGN, (g->state_size + GAME_STATE_ALIGN - 1) /
                                                      GAME_STATE_ALIGN * GAME_STATE_ALIGN);
    if (games == NULL || state == NULL) status = hoyle_error(HOYLE_ENOMEM, "study: out of memory");
    size_t ng = 0;
    for (int64_t i = 0; i < n && status == 0; i++) {
        game_record_t rec;
        if ((status = h5rec_read(h, i, &rec))) break;
        int seat[2] = {row_of(r, rec.agent_spec[0]), row_of(r, rec.agent_spec[1])};
        if (seat[0] < 0 || seat[1] < 0 || strcmp(rec.game_spec, g->spec) != 0) {
            status =
                hoyle_error(HOYLE_EINVAL, "%s: game %lld (%s: %s vs %s) is not of this study", path,
                            (long long)i, rec.game_spec, rec.agent_spec[0], rec.agent_spec[1]);
        } else {
            games[ng++] = (elo_game_t){.white = seat[0], .black = seat[1], .score = rec.result};
            for (int p = 0; p < 2; p++) {
                study_row_t *w = &r->rows[seat[p]];
                double sc = p == 0 ? rec.result : 1 - rec.result;
                w->games += 1;
                w->wins += sc == 1, w->draws += sc == 0.5, w->losses += sc == 0;
            }
            if (add_times(g, &rec, seat, r, ms_sum, state))
                status = hoyle_error_prefix(HOYLE_EINVAL, "%s", path);
        }
        game_record_free(&rec);
    }
    h5rec_close(h);
    free(state);
    r->games = (int64_t)ng;
    *gamesp = games;
    *ngp = ng;
    return status;
}

int study_results_read(const study_t *s, study_results_t *out)
{
    study_results_t *r = calloc(1, sizeof *r);
    double ms_sum[TOUR_MAX_AGENTS] = {0};
    if (r == NULL) return hoyle_error(HOYLE_ENOMEM, "study: out of memory");
    if (s->reference[0]) r->rows[r->n_rows++] = (study_row_t){.spec = s->reference, .point = -1};
    for (int i = 0; i < s->num_points; i++)
        r->rows[r->n_rows++] = (study_row_t){.spec = s->points[i].spec, .point = i};
    int np = r->n_rows;
    r->expected = (int64_t)s->games_per_pairing *
                  (s->schedule == STUDY_GAUNTLET ? np - 1 : (int64_t)np * (np - 1) / 2);
    r->advantage = r->drawelo = NAN;
    elo_game_t *games = NULL;
    size_t ng = 0;
    int status = read_games(s, s->tour.output, r, &games, &ng, ms_sum);
    /* The fit is over the players with games (a partial study's points without games yet
     * would leave the data disconnected): id[] maps a row to its fit index, -1 = none. */
    elo_result_t *fit = NULL;
    int id[TOUR_MAX_AGENTS], nf = 0;
    const char *names[TOUR_MAX_AGENTS];
    for (int i = 0; i < np; i++) {
        id[i] = r->rows[i].games > 0 ? nf : -1;
        if (id[i] >= 0) names[nf++] = r->rows[i].spec;
    }
    if (status == 0 && ng > 0 && nf >= 2) {
        for (size_t k = 0; k < ng; k++) {
            games[k].white = id[games[k].white];
            games[k].black = id[games[k].black];
        }
        elo_input_t in = {.n_players = nf, .names = names, .games = games, .n_games = ng};
        elo_params_t ep;
        elo_params_default(&ep);
        ep.anchor = s->reference[0] && id[0] >= 0 ? s->reference : NULL;
        if (elo_fit(&in, &ep, &fit) == 0) {
            elo_scale_text(fit, r->scale, sizeof r->scale);
            r->advantage = fit->advantage, r->drawelo = fit->drawelo;
        }
    }
    for (int i = 0; i < np; i++) {
        study_row_t *w = &r->rows[i];
        int k = id[i];
        w->score = w->score_lo = w->score_hi = NAN;
        w->elo = fit && k >= 0 ? fit->rating[k] : NAN;
        w->elo_lo = fit && k >= 0 ? fit->lo[k] : NAN;
        w->elo_hi = fit && k >= 0 ? fit->hi[k] : NAN;
        w->ms_per_move = w->moves > 0 ? ms_sum[i] / (double)w->moves : NAN;
        w->accuracy = w->accuracy_lo = w->accuracy_hi = w->best = w->blunders = NAN;
        if (w->games > 0) {
            w->score = (w->wins + w->draws / 2) / w->games;
            wilson_interval(w->score, w->games, 1.96, &w->score_lo, &w->score_hi);
        }
    }
    if (fit == NULL && r->scale[0] == '\0')
        snprintf(r->scale, sizeof r->scale, "no fit (%s)",
                 ng == 0 ? "no games yet" : "the fit failed");
    elo_result_free(fit);
    free(games);
    if (status == 0) *out = *r;
    free(r);
    return status;
}

#define ACC_MAX_CLASSES 64

static int accuracy_on(const study_t *s) { return s->accuracy_tables[0] != '\0'; }

/* Agent `spec` moves in every position; its shares into row w. */
static int accuracy_of(const study_t *s, retro_tables_t *t, const uint8_t *states, size_t stride,
                       study_row_t *w)
{
    const game_t *g = s->tour.games[0];
    agent_t *a = NULL;
    retro_acc_t acc;
    memset(&acc, 0, sizeof acc);
    int status = agent_create(g, w->spec, s->seed, &a);
    for (int k = 0; k < s->accuracy_positions && status == 0; k++) {
        status = agent_reseed(a, rng_mix(s->seed + (uint64_t)k));
        if (status == 0) status = retro_accuracy_one(t, a, states + (size_t)k * stride, &acc);
    }
    agent_free(a);
    if (status) return hoyle_error_prefix(status, "accuracy of %s", w->spec);
    double n = (double)acc.n;
    w->accuracy = (double)acc.kept / n;
    wilson_interval(w->accuracy, n, 1.96, &w->accuracy_lo, &w->accuracy_hi);
    w->best = (double)acc.optimal / n, w->blunders = (double)acc.blunders / n;
    return HOYLE_OK;
}

int study_results_accuracy(const study_t *s, study_results_t *r, FILE *progress)
{
    if (!accuracy_on(s)) return HOYLE_OK;
    const game_t *g = s->tour.games[0];
    char names[ACC_MAX_CLASSES][RETRO_CLASS_MAX];
    const char *use[ACC_MAX_CLASSES];
    int nc = retro_tables_list(g, s->accuracy_tables, names, ACC_MAX_CLASSES);
    if (nc <= 0)
        return hoyle_error(HOYLE_EINVAL, "accuracy.tables: '%s': no endgame tables of %s",
                           s->accuracy_tables, g->spec);
    for (int i = 0; i < nc; i++) use[i] = names[i];
    size_t stride = (g->state_size + GAME_STATE_ALIGN - 1) / GAME_STATE_ALIGN * GAME_STATE_ALIGN;
    uint8_t *states = aligned_alloc(GAME_STATE_ALIGN, stride * (size_t)s->accuracy_positions);
    retro_tables_t *t = NULL;
    int status = states ? retro_tables_open(g, s->accuracy_tables, &t)
                        : hoyle_error(HOYLE_ENOMEM, "study: out of memory");
    /* the same positions for every player: drawn once from the study's seed */
    rng_t rng;
    rng_init(&rng, s->seed);
    for (int k = 0; k < s->accuracy_positions && status == 0; k++) {
        retro_code_t v;
        status = retro_sample(g, use, nc, &rng, states + (size_t)k * stride);
        if (status == 0) status = retro_probe(t, states + (size_t)k * stride, &v);
    }
    for (int i = 0; i < r->n_rows && status == 0; i++) {
        if (progress)
            fprintf(progress, "[%s] accuracy of %s on %d positions\n", s->name, r->rows[i].spec,
                    s->accuracy_positions);
        status = accuracy_of(s, t, states, stride, &r->rows[i]);
    }
    retro_tables_close(t);
    free(states);
    return status;
}

/* The budget of a row as text ("" for the reference and for series without an axis). */
static void budget_text(const study_t *s, const study_row_t *w, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (w->point >= 0 && isfinite(s->points[w->point].budget))
        snprintf(buf, cap, "%g", s->points[w->point].budget);
}

static const char *axis_of(const study_t *s, const study_row_t *w)
{
    return w->point >= 0 ? s->series[s->points[w->point].series].axis : "";
}

static const char *series_of(const study_t *s, const study_row_t *w)
{
    return w->point >= 0 ? s->series[s->points[w->point].series].spec : "reference";
}

int study_write_table(FILE *f, const study_t *s, const study_results_t *r)
{
    fprintf(f, "study %s: %s, %lld of %lld games, %s; Elo: %s\n", s->name, s->tour.games[0]->spec,
            (long long)r->games, (long long)r->expected,
            s->schedule == STUDY_GAUNTLET ? "gauntlet" : "round-robin", r->scale);
    fprintf(f, "%-32s %8s %6s %-22s %-22s %9s", "agent", "budget", "games", "score [95%]",
            "Elo [95%]", "ms/move");
    if (accuracy_on(s)) fprintf(f, " %-22s", "accuracy [95%]");
    fputc('\n', f);
    for (int i = 0; i < r->n_rows; i++) {
        const study_row_t *w = &r->rows[i];
        char b[32], sc[48], e[48], a[48];
        budget_text(s, w, b, sizeof b);
        char ms[24] = "-";
        snprintf(sc, sizeof sc, "%.3f [%.3f, %.3f]", w->score, w->score_lo, w->score_hi);
        snprintf(e, sizeof e, "%+.0f [%+.0f, %+.0f]", w->elo, w->elo_lo, w->elo_hi);
        if (!isfinite(w->score)) snprintf(sc, sizeof sc, "-");
        if (!isfinite(w->elo)) snprintf(e, sizeof e, "-");
        if (isfinite(w->ms_per_move)) snprintf(ms, sizeof ms, "%.2f", w->ms_per_move);
        fprintf(f, "%-32s %8s %6.0f %-22s %-22s %9s", w->spec, b[0] ? b : "-", w->games, sc, e, ms);
        if (accuracy_on(s)) {
            snprintf(a, sizeof a, "%.3f [%.3f, %.3f]", w->accuracy, w->accuracy_lo, w->accuracy_hi);
            fprintf(f, " %-22s", a);
        }
        fputc('\n', f);
    }
    return ferror(f) ? hoyle_error(HOYLE_EIO, "study: write failed") : HOYLE_OK;
}

/* A CSV field, quoted per RFC 4180 (specs hold commas). */
static void csv_text(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* A number, or an empty field when it is not finite. */
static void csv_num(FILE *f, const char *fmt, double v)
{
    fputc(',', f);
    if (isfinite(v)) fprintf(f, fmt, v);
}

int study_write_csv(FILE *f, const study_t *s, const study_results_t *r)
{
    fputs("agent,series,axis,budget,games,wins,draws,losses,score,score_lo,score_hi,elo,elo_lo,"
          "elo_hi,ms_per_move,moves,accuracy,accuracy_lo,accuracy_hi,best,blunders\n",
          f);
    for (int i = 0; i < r->n_rows; i++) {
        const study_row_t *w = &r->rows[i];
        char b[32];
        budget_text(s, w, b, sizeof b);
        csv_text(f, w->spec);
        fputc(',', f);
        csv_text(f, series_of(s, w));
        fprintf(f, ",%s,%s,%.0f,%.0f,%.0f,%.0f", axis_of(s, w), b, w->games, w->wins, w->draws,
                w->losses);
        csv_num(f, "%.4f", w->score);
        csv_num(f, "%.4f", w->score_lo);
        csv_num(f, "%.4f", w->score_hi);
        csv_num(f, "%.1f", w->elo);
        csv_num(f, "%.1f", w->elo_lo);
        csv_num(f, "%.1f", w->elo_hi);
        csv_num(f, "%.3f", w->ms_per_move);
        fprintf(f, ",%lld", (long long)w->moves);
        csv_num(f, "%.4f", w->accuracy);
        csv_num(f, "%.4f", w->accuracy_lo);
        csv_num(f, "%.4f", w->accuracy_hi);
        csv_num(f, "%.4f", w->best);
        csv_num(f, "%.4f", w->blunders);
        fputc('\n', f);
    }
    return ferror(f) ? hoyle_error(HOYLE_EIO, "study: write failed") : HOYLE_OK;
}

int study_write_json(FILE *f, const study_t *s, const study_results_t *r)
{
    json_t j;
    json_begin(&j, f);
    json_str(&j, "study", s->name);
    json_str(&j, "game", s->tour.games[0]->spec);
    json_str(&j, "schedule", s->schedule == STUDY_GAUNTLET ? "gauntlet" : "round-robin");
    json_str(&j, "reference", s->reference);
    json_int(&j, "games_per_pairing", s->games_per_pairing);
    json_str(&j, "openings", s->openings);
    json_u64(&j, "seed", s->seed);
    json_str(&j, "file", s->tour.output);
    json_int(&j, "games", r->games);
    json_int(&j, "expected", r->expected);
    json_str(&j, "scale", r->scale);
    json_num(&j, "advantage", "%.1f", r->advantage);
    json_num(&j, "drawelo", "%.1f", r->drawelo);
    json_open(&j, "points", '[');
    for (int i = 0; i < r->n_rows; i++) {
        const study_row_t *w = &r->rows[i];
        json_open(&j, NULL, '{');
        json_str(&j, "agent", w->spec);
        json_str(&j, "series", series_of(s, w));
        json_str(&j, "axis", axis_of(s, w));
        json_num(&j, "budget", "%g", w->point >= 0 ? s->points[w->point].budget : NAN);
        json_num(&j, "games", "%.0f", w->games);
        json_num(&j, "wins", "%.0f", w->wins);
        json_num(&j, "draws", "%.0f", w->draws);
        json_num(&j, "losses", "%.0f", w->losses);
        json_num(&j, "score", "%.4f", w->score);
        json_num(&j, "score_lo", "%.4f", w->score_lo);
        json_num(&j, "score_hi", "%.4f", w->score_hi);
        json_num(&j, "elo", "%.1f", w->elo);
        json_num(&j, "elo_lo", "%.1f", w->elo_lo);
        json_num(&j, "elo_hi", "%.1f", w->elo_hi);
        json_num(&j, "ms_per_move", "%.3f", w->ms_per_move);
        json_int(&j, "moves", w->moves);
        if (accuracy_on(s)) {
            json_num(&j, "accuracy", "%.4f", w->accuracy);
            json_num(&j, "accuracy_lo", "%.4f", w->accuracy_lo);
            json_num(&j, "accuracy_hi", "%.4f", w->accuracy_hi);
            json_num(&j, "best", "%.4f", w->best);
            json_num(&j, "blunders", "%.4f", w->blunders);
        }
        json_close(&j);
    }
    json_close(&j);
    json_end(&j);
    return ferror(f) ? hoyle_error(HOYLE_EIO, "study: write failed") : HOYLE_OK;
}

/* One series of the plot per study series: x the budget (or the ms per move), y the Elo. */
typedef struct plot_data {
    double x[TOUR_MAX_AGENTS], t[TOUR_MAX_AGENTS], y[TOUR_MAX_AGENTS], lo[TOUR_MAX_AGENTS],
        hi[TOUR_MAX_AGENTS];
} plot_data_t;

int study_write_svg(FILE *f, const study_t *s, const study_results_t *r)
{
    plot_data_t *d = calloc((size_t)s->num_series + 1, sizeof *d);
    plot_series_t *by_axis = calloc((size_t)s->num_series + 1, sizeof *by_axis);
    plot_series_t *by_time = calloc((size_t)s->num_series + 1, sizeof *by_time);
    plot_panel_t panels[STUDY_MAX_SERIES + 1];
    char titles[STUDY_MAX_SERIES + 1][GAME_SPEC_MAX + 200], xlabels[STUDY_MAX_SERIES + 1][64];
    if (d == NULL || by_axis == NULL || by_time == NULL) {
        free(d), free(by_axis), free(by_time);
        return hoyle_error(HOYLE_ENOMEM, "study: out of memory");
    }
    int base = s->reference[0] ? 1 : 0; /* rows[base + k] is points[k] */
    for (int k = 0; k < s->num_series; k++) {
        const study_series_t *se = &s->series[k];
        for (int i = 0; i < se->count; i++) {
            const study_row_t *w = &r->rows[base + se->first + i];
            d[k].x[i] = s->points[se->first + i].budget;
            d[k].t[i] = w->ms_per_move;
            d[k].y[i] = w->elo, d[k].lo[i] = w->elo_lo, d[k].hi[i] = w->elo_hi;
        }
        by_axis[k] = (plot_series_t){.name = se->spec,
                                     .n = se->count,
                                     .x = d[k].x,
                                     .y = d[k].y,
                                     .lo = d[k].lo,
                                     .hi = d[k].hi,
                                     .colour = k + 1};
        by_time[k] = by_axis[k];
        by_time[k].x = d[k].t;
    }
    /* one panel per axis key (sims and depth are not one scale), then all against time */
    int np = 0;
    const char *ylabel = s->reference[0] ? "Elo (reference = 0)" : "Elo (mean 0)";
    for (int k = 0; k < s->num_series; k++) {
        const char *ax = s->series[k].axis;
        int seen = 0;
        for (int m = 0; m < k; m++) seen |= strcmp(s->series[m].axis, ax) == 0;
        if (ax[0] == '\0' || seen) continue;
        /* the series of this axis, gathered into a list of their own */
        int n = 0;
        for (int m = k; m < s->num_series; m++) n += strcmp(s->series[m].axis, ax) == 0;
        plot_series_t *list = calloc((size_t)n, sizeof *list);
        if (list == NULL) break;
        n = 0;
        for (int m = k; m < s->num_series; m++)
            if (strcmp(s->series[m].axis, ax) == 0) list[n++] = by_axis[m];
        snprintf(titles[np], sizeof titles[np], "%s: Elo against %s, %s", s->name, ax, s->game);
        snprintf(xlabels[np], sizeof xlabels[np], "%s (log scale)", ax);
        panels[np] = (plot_panel_t){.title = titles[np],
                                    .x_label = xlabels[np],
                                    .y_label = ylabel,
                                    .log_x = 1,
                                    .n_series = n,
                                    .series = list};
        np++;
    }
    snprintf(titles[np], sizeof titles[np], "%s: Elo against time per move, %s", s->name, s->game);
    panels[np] = (plot_panel_t){.title = titles[np],
                                .x_label = "ms per move (log scale)",
                                .y_label = ylabel,
                                .log_x = 1,
                                .n_series = s->num_series,
                                .series = by_time};
    np++;
    int status = svg_plot_write(f, panels, np);
    for (int p = 0; p < np - 1; p++) free((void *)panels[p].series);
    free(d), free(by_axis), free(by_time);
    return status;
}

typedef int (*writer_fn)(FILE *, const study_t *, const study_results_t *);

/* One output file, made in memory and written atomically. */
static int write_file(const study_t *s, const study_results_t *r, const char *name, writer_fn fn)
{
    char path[1100], *text = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/%s", s->output, name);
    FILE *f = open_memstream(&text, &len);
    if (f == NULL) return hoyle_error(HOYLE_ENOMEM, "study: out of memory");
    int status = fn(f, s, r);
    if (fclose(f) != 0 && status == 0) status = hoyle_error(HOYLE_ENOMEM, "study: out of memory");
    if (status == 0) status = file_write_atomic(path, text, len);
    free(text);
    return status;
}

int study_write_outputs(const study_t *s, const study_results_t *r)
{
    int status = write_file(s, r, "study.csv", study_write_csv);
    if (status == 0) status = write_file(s, r, "study.json", study_write_json);
    if (status == 0) status = write_file(s, r, "study.svg", study_write_svg);
    return status;
}
