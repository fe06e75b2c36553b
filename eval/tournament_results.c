/* tournament_results.c — record files -> rating pools -> tables
 * (tournament_results.h). Invariant: each pool's elo_input_t is exactly the
 * stored games (seat 0 as white, result as white's score). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "data/h5rec.h"
#include "eval/opening_table.h"
#include "eval/tournament_results.h"

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* Frees what a pool owns; the tres_set_t itself lives in t->sets. */
static void set_done(tres_set_t *s)
{
    free(s->label);
    for (int i = 0; i < s->n_players; i++) free(s->names[i]);
    free(s->names);
    free(s->games);
    for (int i = 0; i < s->n_groups; i++) free((char *)s->groups[i].label);
    free(s->groups);
}

void tres_done(tres_t *t)
{
    if (t == NULL) return;
    for (int i = 0; i < t->n_sets; i++) set_done(&t->sets[i]);
    free(t->sets);
    t->sets = NULL;
    t->n_sets = 0;
    for (int i = 0; i < t->n_files; i++) free(t->file_paths[i]);
    free(t->file_paths);
    free(t->file_ids);
    t->file_paths = NULL;
    t->file_ids = NULL;
    t->n_files = 0;
}

/* Remember the file's identity; refuse one seen before. */
static int note_file(tres_t *t, const char *path, uint64_t id)
{
    for (int i = 0; i < t->n_files; i++)
        if (t->file_ids[i] == id)
            return hoyle_error(HOYLE_EINVAL,
                               "'%s' is the same record file as '%s' (file_id %016llx): its games "
                               "would count twice",
                               path, t->file_paths[i], (unsigned long long)id);
    uint64_t *ids = realloc(t->file_ids, sizeof *ids * (size_t)(t->n_files + 1));
    if (ids) t->file_ids = ids;
    char **paths = ids ? realloc(t->file_paths, sizeof *paths * (size_t)(t->n_files + 1)) : NULL;
    if (paths) t->file_paths = paths;
    char *copy = paths ? dup_str(path) : NULL;
    if (copy == NULL) return hoyle_error(HOYLE_ENOMEM, "ratings: out of memory");
    t->file_ids[t->n_files] = id;
    t->file_paths[t->n_files++] = copy;
    return HOYLE_OK;
}

/* Find-or-append by label. Pools are few (one per game variant, or one when
 * pooled), so a linear scan is enough; on ENOMEM nothing is appended. */
static tres_set_t *find_set(tres_t *t, const char *label)
{
    for (int i = 0; i < t->n_sets; i++)
        if (strcmp(t->sets[i].label, label) == 0) return &t->sets[i];
    tres_set_t *p = realloc(t->sets, sizeof *p * (size_t)(t->n_sets + 1));
    if (p == NULL) return NULL;
    t->sets = p;
    tres_set_t *s = &p[t->n_sets];
    memset(s, 0, sizeof *s);
    s->label = dup_str(label);
    if (s->label == NULL) return NULL;
    t->n_sets++;
    return s;
}

/* Player index within a pool, by agent spec string: the same spec in two
 * files is the same player. Returns -1 on out of memory. */
static int player_id(tres_set_t *s, const char *name)
{
    for (int i = 0; i < s->n_players; i++)
        if (strcmp(s->names[i], name) == 0) return i;
    char **p = realloc(s->names, sizeof *p * (size_t)(s->n_players + 1));
    if (p == NULL) return -1;
    s->names = p;
    if ((p[s->n_players] = dup_str(name)) == NULL) return -1;
    return s->n_players++;
}

/* Per-opening W/D/L tally of the first seat, for the first-player report. */
static elo_group_t *group_of(tres_set_t *s, const char *label)
{
    for (int i = 0; i < s->n_groups; i++)
        if (strcmp(s->groups[i].label, label) == 0) return &s->groups[i];
    elo_group_t *p = realloc(s->groups, sizeof *p * (size_t)(s->n_groups + 1));
    if (p == NULL) return NULL;
    s->groups = p;
    elo_group_t *g = &p[s->n_groups];
    memset(g, 0, sizeof *g);
    if ((g->label = dup_str(label)) == NULL) return NULL;
    s->n_groups++;
    return g;
}

/* Add one stored game to its pool: white = seat 0, score = seat 0's result,
 * per the file's invariant. */
static int add_record(tres_t *t, const game_record_t *r)
{
    const char *a = r->agent_spec[0], *b = r->agent_spec[1];
    /* Self-play and unlabeled games carry no information about relative
     * strength: they are skipped, not errors, so a file can mix both kinds. */
    if (!a || !b || !a[0] || !b[0] || strcmp(a, b) == 0) return HOYLE_OK; /* not a rated game */
    /* The filter is a prefix: "checkers" selects every checkers variant. */
    if (t->game_filter && strncmp(r->game_spec, t->game_filter, strlen(t->game_filter)) != 0)
        return HOYLE_OK;
    /* Ratings are per game spec by default: strength in one variant says little
     * about another. `pooled` puts all games in one pool. */
    tres_set_t *s = find_set(t, t->pooled ? "all games" : r->game_spec);
    if (s == NULL) return hoyle_error(HOYLE_ENOMEM, "ratings: out of memory");
    int w = player_id(s, a), bl = player_id(s, b);
    const char *label = r->opening_name && r->opening_name[0] ? r->opening_name : "start";
    elo_group_t *g = group_of(s, label);
    if (w < 0 || bl < 0 || g == NULL) return hoyle_error(HOYLE_ENOMEM, "ratings: out of memory");
    if (s->n_games == s->cap_games) {
        /* Geometric growth keeps appends amortised O(1) for large record files. */
        size_t nc = s->cap_games ? s->cap_games * 2 : 256;
        elo_game_t *p = realloc(s->games, sizeof *p * nc);
        if (p == NULL) return hoyle_error(HOYLE_ENOMEM, "ratings: out of memory");
        s->games = p;
        s->cap_games = nc;
    }
    s->games[s->n_games++] = (elo_game_t){.white = w, .black = bl, .score = r->result, .weight = 1};
    if (r->result == 1)
        g->wins += 1;
    else if (r->result == 0)
        g->losses += 1;
    else
        g->draws += 1;
    if (r->end >= 0 && r->end < RECORD_END_COUNT) s->ends[r->end] += 1;
    s->length_sum += r->num_actions;
    return HOYLE_OK;
}

int tres_add_file(tres_t *t, const char *path)
{
    h5rec_t *h;
    /* a file given by a user is untrusted: read in a child process */
    int status = h5rec_open_untrusted(path, &h);
    if (status) return status;
    status = note_file(t, path, h5rec_file_id(h));
    int64_t n = status ? 0 : h5rec_count(h);
    for (int64_t i = 0; i < n && status == 0; i++) {
        game_record_t r;
        status = h5rec_read(h, i, &r);
        if (status) break;
        /* The Elo models take win/draw/loss only; any other result is a corrupt or
         * foreign file and stops the import rather than being silently rounded. */
        if (r.result != 0 && r.result != 0.5 && r.result != 1)
            status = hoyle_error(HOYLE_EINVAL, "%s: game %lld has result %g", path, (long long)i,
                                 r.result);
        else
            status = add_record(t, &r);
        if (status == 0) t->records++;
        game_record_free(&r);
    }
    h5rec_close(h);
    return status;
}

/* Whether player k of pool i was already met in an earlier pool or slot. */
static int met_before(const tres_t *t, int i, int k)
{
    const char *name = t->sets[i].names[k];
    for (int j = 0; j <= i; j++)
        for (int m = 0; m < (j < i ? t->sets[j].n_players : k); m++)
            if (strcmp(t->sets[j].names[m], name) == 0) return 1;
    return 0;
}

int tres_check_anchor(const tres_t *t, const char *name)
{
    char list[400] = "";
    size_t len = 0;
    for (int i = 0; i < t->n_sets; i++)
        for (int k = 0; k < t->sets[i].n_players; k++) {
            if (strcmp(t->sets[i].names[k], name) == 0) return HOYLE_OK;
            if (len >= sizeof list - 1 || met_before(t, i, k)) continue;
            int w = snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "",
                             t->sets[i].names[k]);
            if (w > 0) len += (size_t)w;
        }
    if (len >= sizeof list - 1) memcpy(list + sizeof list - 4, "...", 4); /* cut short */
    return hoyle_error(HOYLE_EINVAL, "anchor '%s' is not a player; players: %s", name,
                       len ? list : "none");
}

static const char *end_label(int e)
{
    return e == RECORD_END_RULES        ? "rules"
           : e == RECORD_END_MOVE_LIMIT ? "move limit"
           : e == RECORD_END_RESIGN     ? "resign"
                                        : "error";
}

/* Fit and print one pool in the requested format. A pool that cannot be
 * fitted (fewer than two players, fit failure) still prints its header and
 * statistics; its error is returned so tres_report can report the first one. */
static int report_one(FILE *f, const tres_set_t *s, const tres_opts_t *o, int index)
{
    elo_params_t p;
    elo_params_default(&p);
    p.bootstrap = o->bootstrap;
    /* Bootstrap resampling needs a seed; 0 means "default", mapped to 1 so that
     * reports are reproducible without a flag. */
    p.seed = o->seed ? o->seed : 1;
    /* An anchor absent from this pool is ignored here rather than failing: with
     * several pools the anchor may play in only some of them. */
    if (o->anchor && elo_find_player((const char *const *)s->names, s->n_players, o->anchor) >= 0)
        p.anchor = o->anchor;
    elo_input_t in = {.n_players = s->n_players,
                      .names = (const char *const *)s->names,
                      .games = s->games,
                      .n_games = s->n_games};
    elo_result_t *r = NULL;
    int status =
        s->n_players < 2 ? hoyle_error(HOYLE_EINVAL, "fewer than 2 players") : elo_fit(&in, &p, &r);
    if (status)
        status = hoyle_error_prefix(status, "ratings for %s (%zu games)", s->label, s->n_games);
    if (o->format == TRES_JSON) {
        fprintf(f, "%s{\"game\":", index ? "," : "");
        fputc('"', f);
        /* JSON string escape of the label; game specs contain no control characters. */
        for (const char *c = s->label; *c; c++) {
            if (*c == '"' || *c == '\\') fputc('\\', f);
            fputc(*c, f);
        }
        fprintf(f, "\",\"games\":%zu,\"ratings\":", s->n_games);
        if (r)
            elo_report_json(f, r);
        else
            fputs("null", f);
        if (o->first_player) {
            fputs(",\"first_player\":", f);
            elo_report_first_player_json(f, s->groups, s->n_groups, 0.95);
        }
        fputs("}", f);
    } else if (o->format == TRES_CSV) {
        if (r) {
            fprintf(f, "# %s\n", s->label);
            elo_report_csv(f, r);
        }
    } else {
        double n = (double)s->n_games;
        fprintf(f, "\n== %s: %zu games, mean length %.1f actions; ended by", s->label, s->n_games,
                n > 0 ? s->length_sum / n : 0);
        for (int e = 0; e < RECORD_END_COUNT; e++)
            if (s->ends[e] > 0) fprintf(f, " %s %.0f", end_label(e), s->ends[e]);
        fputs(" ==\n", f);
        if (r) {
            elo_report_table(f, r);
            if (o->crosstable) {
                fputs("\nCross table (row's points/games against column):\n", f);
                elo_report_crosstable(f, &in, r);
                fputs("\nBy seat (draw = 1/2, 95% Wilson interval):\n", f);
                elo_report_by_seat(f, &in, r, 0.95);
            }
            if (o->los) {
                fputs("\nLikelihood of superiority (%, row better than column):\n", f);
                elo_report_los(f, r);
            }
        } else {
            fprintf(f, "no ratings: %s\n", hoyle_last_error());
        }
        /* first_player == 2: one summary line over all openings; 1: one row per
         * opening. Intervals are Wilson score intervals at 95% (see elo_report.c). */
        if (o->first_player == 2 && s->n_groups > 0) {
            elo_group_t all = {.label = "all"};
            for (int i = 0; i < s->n_groups; i++) {
                all.wins += s->groups[i].wins;
                all.draws += s->groups[i].draws;
                all.losses += s->groups[i].losses;
            }
            elo_first_stat_t st;
            if (elo_first_player_stat(&all, 0.95, &st) == 0)
                fprintf(f,
                        "first player's score %.1f%% [%.1f%%, %.1f%%] over %.0f games "
                        "(W %.0f D %.0f L %.0f; %d openings; hoyle report for each opening)\n",
                        100 * st.score, 100 * st.lo, 100 * st.hi, st.games, all.wins, all.draws,
                        all.losses, s->n_groups);
        } else if (o->first_player && s->n_groups > 0) {
            fputs("\nFirst player's score by opening (draw = 1/2, 95% Wilson interval):\n", f);
            elo_report_first_player(f, s->groups, s->n_groups, 0.95);
        }
        /* printed even when the fit failed (all draws), like the table above */
        if (o->seed_table && s->n_groups > 0) {
            int st = otable_print(f, o->seed_table, s->groups, s->n_groups);
            if (status == 0) status = st;
        }
    }
    elo_result_free(r);
    return status;
}

/* Every pool is reported even after one fails, and the first failure is
 * returned with its message saved before later pools overwrite it. */
int tres_report(FILE *f, const tres_t *t, const tres_opts_t *o)
{
    int first_error = 0;
    char msg[700] = "";
    if (o->format == TRES_JSON) fprintf(f, "{\"records\":%lld,\"pools\":[", (long long)t->records);
    for (int i = 0; i < t->n_sets; i++) {
        int s = report_one(f, &t->sets[i], o, i);
        if (s && !first_error) {
            first_error = s;
            snprintf(msg, sizeof msg, "%s", hoyle_last_error());
        }
    }
    if (o->format == TRES_JSON) fputs("]}\n", f);
    if (first_error) return hoyle_error(first_error, "%s", msg);
    if (t->n_sets == 0) return hoyle_error(HOYLE_EINVAL, "no rated games");
    return ferror(f) ? hoyle_error(HOYLE_EIO, "write error") : HOYLE_OK;
}
