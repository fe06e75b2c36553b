/* study.c — a study config: schema, budget axes, points, and the tournament
 * config it expands into (study.h). Invariant: a study that loads can be
 * played; every input error is found here, before anything is written, and
 * names file:line and the key. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "data/config.h"
#include "eval/study.h"
#include "games/registry.h"
#include "games/retro_index.h"
#include "mcts/agent.h"

#define STUDY_AT(member) PARAM_AT(study_t, member)
static const param_def_t accuracy_keys[] = {
    {.key = "tables",
     .type = PARAM_STRING,
     .def = "",
     .help = "folder of endgame tables (`hoyle tablebase`); \"\" = no accuracy column",
     STUDY_AT(accuracy_tables)},
    {.key = "positions",
     .type = PARAM_INT,
     .def = "100",
     .min = 1,
     .max = 1000000,
     .units = "positions",
     .help = "positions drawn from the tables per point (the same for every point)",
     STUDY_AT(accuracy_positions)},
    {.key = NULL},
};

/* The settings of a study config, each with its default and the study_t field it lands in
 * (config_bind); `hoyle study --keys` prints them as docs/study.md's table. `agents` is a
 * list read by name (expand_points). */
static const param_def_t study_schema_rows[] = {
    {.key = "name",
     .type = PARAM_STRING,
     .required = true,
     .help = "the study's name (progress lines, outputs)",
     STUDY_AT(name)},
    {.key = "game",
     .type = PARAM_STRING,
     .required = true,
     .help = "the game spec every point plays",
     STUDY_AT(game)},
    {.key = "agents",
     .type = PARAM_LIST,
     .required = true,
     .min = 1,
     .max = STUDY_MAX_SERIES,
     .help = "agent specs; one key may be a budget axis, a brace list: mcts(sims={50,200,800})"},
    {.key = "reference",
     .type = PARAM_STRING,
     .def = "",
     .help = "the fixed opponent of a gauntlet, held at Elo 0 (\"\" = none: round-robin only)",
     STUDY_AT(reference)},
    {.key = "schedule",
     .type = PARAM_CHOICE,
     .def = "gauntlet",
     .choices = "gauntlet|round-robin",
     .help = "the reference against every point, or every pair of points (and the reference)",
     STUDY_AT(schedule)},
    {.key = "games_per_pairing",
     .type = PARAM_INT,
     .def = "20",
     .min = 2,
     .max = 200000,
     .units = "games",
     .help = "games of each pairing (in a gauntlet: of each point), even: openings x 2 colours",
     STUDY_AT(games_per_pairing)},
    {.key = "openings",
     .type = PARAM_STRING,
     .def = "random:2",
     .help = "random:K (K random whole moves), book:PATH or none; each played with both colours",
     STUDY_AT(openings)},
    {.key = "max_moves",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1000000,
     .units = "moves",
     .help = "whole moves before a game is adjudicated a draw (0 = the rules only)",
     STUDY_AT(max_moves)},
    {.key = "workers",
     .type = PARAM_INT,
     .def = "1",
     .min = 0,
     .max = 256,
     .help = "worker threads (0 = one per core); not part of the stored config",
     STUDY_AT(workers)},
    {.key = "seed",
     .type = PARAM_INT,
     .def = "1",
     .min = 0,
     .max = 9007199254740991.0, /* 2^53 - 1, as the tournament's */
     .help = "seed of openings and games",
     STUDY_AT(seed)},
    {.key = "output",
     .type = PARAM_STRING,
     .required = true,
     .help = "the study's folder: games.h5 (the games), study.csv, study.json, study.svg",
     STUDY_AT(output)},
    {.key = "accuracy",
     .type = PARAM_SECTION,
     .fields = accuracy_keys,
     .help = "optional: each point's move accuracy against perfect play (`hoyle accuracy`)"},
    {.key = NULL},
};

const param_def_t *study_schema(void) { return study_schema_rows; }

void study_done(study_t *s)
{
    if (s == NULL) return;
    tournament_config_done(&s->tour);
    memset(s, 0, sizeof *s);
}

/* "file:line" of a node, "file (--set)" for an override, "file" for a key left to its
 * default and for the flags form (whose lines, -1, are no file's). */
static void where(const config_t *cf, const config_node_t *n, char *buf, size_t cap)
{
    if (n && n->line > 0)
        snprintf(buf, cap, "%s:%d", cf->name, n->line);
    else if (n && n->line == 0)
        snprintf(buf, cap, "%s (--set)", cf->name);
    else
        snprintf(buf, cap, "%s", cf->name);
}

/* The flags form's tree has no file: its nodes get line -1 (where() names no line). */
static void unlined(config_node_t *n)
{
    n->line = -1;
    for (int i = 0; i < n->num_children; i++) unlined(n->children[i]);
}

static const char *skip_space(const char *p)
{
    while (*p && isspace((unsigned char)*p)) p++;
    return p;
}

int study_split_axis(const char *spec, char *axis, char *prefix, char *suffix, double *values,
                     char (*texts)[STUDY_VALUE_MAX], int *n)
{
    const char *open = strchr(spec, '{'), *close = strchr(spec, '}');
    axis[0] = suffix[0] = '\0';
    *n = 0;
    if (open == NULL && close == NULL) {
        snprintf(prefix, GAME_SPEC_MAX, "%s", spec);
        values[0] = NAN;
        texts[0][0] = '\0';
        *n = 1;
        return HOYLE_OK;
    }
    if (open == NULL || close == NULL || close < open)
        return hoyle_error(HOYLE_EINVAL, "unbalanced braces in the budget axis");
    if (strchr(open + 1, '{') || strchr(close + 1, '}') || strchr(close + 1, '{'))
        return hoyle_error(HOYLE_EINVAL, "more than one budget axis (one {...} per spec)");
    /* the braces are one key's whole value: "(key={" or ",key={" before, "," or ")" after */
    const char *eq = open;
    while (eq > spec && isspace((unsigned char)eq[-1])) eq--;
    if (eq == spec || eq[-1] != '=')
        return hoyle_error(HOYLE_EINVAL, "the budget axis must be a key's value: key={a,b,...}");
    const char *kend = eq - 1, *k = kend;
    while (k > spec && isspace((unsigned char)k[-1])) k--, kend--;
    while (k > spec && (isalnum((unsigned char)k[-1]) || k[-1] == '_')) k--;
    const char *before = k;
    while (before > spec && isspace((unsigned char)before[-1])) before--;
    if (k == kend || before == spec || (before[-1] != '(' && before[-1] != ','))
        return hoyle_error(HOYLE_EINVAL, "the budget axis must be a key's value: key={a,b,...}");
    const char *after = skip_space(close + 1);
    if (*after != ',' && *after != ')')
        return hoyle_error(HOYLE_EINVAL, "the budget axis must be a key's whole value");
    if ((size_t)(kend - k) >= STUDY_AXIS_MAX) return hoyle_error(HOYLE_EINVAL, "axis key too long");
    memcpy(axis, k, (size_t)(kend - k));
    axis[kend - k] = '\0';
    if ((size_t)(open - spec) >= GAME_SPEC_MAX || strlen(close + 1) >= GAME_SPEC_MAX)
        return hoyle_error(HOYLE_EINVAL, "spec too long");
    memcpy(prefix, spec, (size_t)(open - spec));
    prefix[open - spec] = '\0';
    snprintf(suffix, GAME_SPEC_MAX, "%s", close + 1);
    /* the values: numbers separated by commas */
    const char *p = open + 1;
    for (;;) {
        const char *e = p;
        while (e < close && *e != ',') e++;
        const char *a = skip_space(p), *b = e;
        while (b > a && isspace((unsigned char)b[-1])) b--;
        if (a >= b) return hoyle_error(HOYLE_EINVAL, "empty value in the budget axis");
        if (*n == STUDY_MAX_VALUES)
            return hoyle_error(HOYLE_EINVAL, "more than %d values in the budget axis",
                               STUDY_MAX_VALUES);
        char text[STUDY_VALUE_MAX];
        if ((size_t)(b - a) >= sizeof text)
            return hoyle_error(HOYLE_EINVAL, "budget value too long");
        memcpy(text, a, (size_t)(b - a));
        text[b - a] = '\0';
        char *end;
        double v = strtod(text, &end);
        if (*end != '\0' || !isfinite(v))
            return hoyle_error(HOYLE_EINVAL, "budget value '%s' is not a number", text);
        for (int i = 0; i < *n; i++)
            if (values[i] == v)
                return hoyle_error(HOYLE_EINVAL, "budget value '%s' is listed twice", text);
        values[*n] = v;
        memcpy(texts[*n], text, sizeof text);
        (*n)++;
        if (e == close) break;
        p = e + 1;
    }
    return HOYLE_OK;
}

/* Whether `spec` is already a point or the reference. */
static int taken(const study_t *s, const char *spec)
{
    if (s->reference[0] && strcmp(s->reference, spec) == 0) return 1;
    for (int i = 0; i < s->num_points; i++)
        if (strcmp(s->points[i].spec, spec) == 0) return 1;
    return 0;
}

/* An agent spec must create on the game and not be a person at the terminal. */
static int check_agent(const game_t *g, const char *spec, const char *at, const char *key)
{
    agent_t *a;
    if (agent_create(g, spec, 0, &a)) return hoyle_error_prefix(HOYLE_EINVAL, "%s: %s", at, key);
    int human = agent_is_human(a);
    agent_free(a);
    if (human)
        return hoyle_error(HOYLE_EINVAL, "%s: %s: human players cannot play studies", at, key);
    return HOYLE_OK;
}

/* Step 2 of study.h: every entry of `agents` into its points, each checked on the game. */
static int expand_points(study_t *s, const config_t *cf, const game_t *g)
{
    char at[1200];
    config_node_t *const *items;
    int ns = config_strings(cf, "agents", &items);
    int room = TOUR_MAX_AGENTS - (s->reference[0] ? 1 : 0);
    for (int i = 0; i < ns; i++) {
        study_series_t *se = &s->series[s->num_series++];
        char key[48], prefix[GAME_SPEC_MAX], suffix[GAME_SPEC_MAX];
        char texts[STUDY_MAX_VALUES][STUDY_VALUE_MAX];
        double values[STUDY_MAX_VALUES];
        int nv;
        where(cf, items[i], at, sizeof at);
        snprintf(key, sizeof key, "key 'agents[%d]'", i);
        if (strlen(items[i]->value) >= GAME_SPEC_MAX || items[i]->value[0] == '\0')
            return hoyle_error(HOYLE_EINVAL, "%s: %s: empty or too long", at, key);
        snprintf(se->spec, sizeof se->spec, "%s", items[i]->value);
        if (study_split_axis(se->spec, se->axis, prefix, suffix, values, texts, &nv))
            return hoyle_error_prefix(HOYLE_EINVAL, "%s: %s: '%s'", at, key, se->spec);
        se->first = s->num_points;
        se->count = nv;
        for (int v = 0; v < nv; v++) {
            if (s->num_points == room)
                return hoyle_error(HOYLE_EINVAL, "%s: %s: more than %d points in all", at, key,
                                   room);
            study_point_t *pt = &s->points[s->num_points];
            pt->series = s->num_series - 1;
            pt->budget = values[v];
            if ((size_t)snprintf(pt->spec, sizeof pt->spec, "%s%s%s", prefix, texts[v], suffix) >=
                sizeof pt->spec)
                return hoyle_error(HOYLE_EINVAL, "%s: %s: expanded spec too long", at, key);
            if (taken(s, pt->spec))
                return hoyle_error(HOYLE_EINVAL, "%s: %s: '%s' is listed twice", at, key, pt->spec);
            if (check_agent(g, pt->spec, at, key)) return HOYLE_EINVAL;
            s->num_points++;
        }
    }
    return HOYLE_OK;
}

/* Steps 1 and 2 of study.h's load, and the checks that need several keys. */
static int check_study(study_t *s, const config_t *cf, const game_t **gp)
{
    char at[1200];
    where(cf, config_find(cf, "game"), at, sizeof at);
    if (game_create(s->game, gp)) return hoyle_error_prefix(HOYLE_EINVAL, "%s: key 'game'", at);
    const game_t *g = *gp;
    if (g->num_players != 2)
        return hoyle_error(HOYLE_EINVAL, "%s: key 'game': %s is not a two-player game", at,
                           g->spec);
    where(cf, config_find(cf, "reference"), at, sizeof at);
    if (s->reference[0] && check_agent(g, s->reference, at, "key 'reference'")) return HOYLE_EINVAL;
    if (s->schedule == STUDY_GAUNTLET && s->reference[0] == '\0')
        return hoyle_error(HOYLE_EINVAL,
                           "%s: key 'reference': a gauntlet needs a reference agent (or "
                           "schedule: round-robin)",
                           at);
    where(cf, config_find(cf, "games_per_pairing"), at, sizeof at);
    if (s->games_per_pairing % 2)
        return hoyle_error(HOYLE_EINVAL,
                           "%s: key 'games_per_pairing': %d is odd (each opening is played "
                           "with both colours)",
                           at, s->games_per_pairing);
    where(cf, config_find(cf, "openings"), at, sizeof at);
    int k;
    int how = openings_parse_random(s->openings, &k);
    if (how < 0)
        return hoyle_error(HOYLE_EINVAL, "%s: key 'openings': '%s': K in random:K must be 0..%d",
                           at, s->openings, OPENINGS_RANDOM_MAX);
    if (how == 0 && strcmp(s->openings, "none") != 0 && strncmp(s->openings, "book:", 5) != 0)
        return hoyle_error(HOYLE_EINVAL,
                           "%s: key 'openings': '%s' is not random:K, book:PATH or none", at,
                           s->openings);
    where(cf, config_find(cf, "output"), at, sizeof at);
    if (s->output[0] == '\0') return hoyle_error(HOYLE_EINVAL, "%s: key 'output': empty", at);
    if (expand_points(s, cf, g)) return HOYLE_EINVAL;
    if (s->num_points + (s->reference[0] ? 1 : 0) < 2)
        return hoyle_error(HOYLE_EINVAL, "%s: key 'agents': a round robin needs two agents",
                           cf->name);
    where(cf, config_find(cf, "accuracy"), at, sizeof at);
    if (s->accuracy_tables[0] && retro_index_find(g) == NULL)
        return hoyle_error(HOYLE_EINVAL, "%s: key 'accuracy.tables': %s has no endgame tables", at,
                           g->spec);
    return HOYLE_OK;
}

/* A YAML double-quoted scalar. */
static void yaml_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Step 3 of study.h: the tournament config of the study, as YAML text (malloc'd). */
static char *tournament_text(const study_t *s, const game_t *g)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL) return NULL;
    int none = strcmp(s->openings, "none") == 0, half = s->games_per_pairing / 2;
    fputs("name: ", f);
    yaml_quoted(f, s->name);
    fputs("\ngames: [", f);
    yaml_quoted(f, s->game);
    fputs("]\nagents:\n", f);
    if (s->reference[0]) {
        fputs("  - ", f);
        yaml_quoted(f, s->reference);
        fputc('\n', f);
    }
    for (int i = 0; i < s->num_points; i++) {
        fputs("  - ", f);
        yaml_quoted(f, s->points[i].spec);
        fputc('\n', f);
    }
    /* From one start position (none) the pairs repeat it with new seeds; otherwise each
     * pair of games has its own opening, so that the pool is sampled as widely as it can. */
    fprintf(f, "schedule: %s\ngames_per_opening: %d\nopenings_per_pairing: %d\n",
            s->schedule == STUDY_GAUNTLET ? "gauntlet" : "round-robin", none ? half : 1,
            none ? 1 : half);
    fprintf(f, "openings: {%s: ", g->entry->name);
    yaml_quoted(f, s->openings);
    fprintf(f, "}\nmax_moves: %d\nworkers: %d\nseed: %llu\noutput: ", s->max_moves, s->workers,
            (unsigned long long)s->seed);
    char out[1024];
    snprintf(out, sizeof out, "%s/games.h5", s->output);
    yaml_quoted(f, out);
    if (s->reference[0]) {
        fputs("\nanchor: ", f);
        yaml_quoted(f, s->reference);
    }
    fputc('\n', f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int study_load(const char *path, const char *text, const char *name, char *const *sets,
               int num_sets, study_t *out)
{
    config_t *cf = NULL, *tc = NULL;
    const game_t *g = NULL;
    char *ttext = NULL;
    study_t *s = calloc(1, sizeof *s);
    if (s == NULL) return hoyle_error(HOYLE_ENOMEM, "study: out of memory");
    int status = path ? config_load(path, &cf) : config_parse(text, name, &cf);
    if (status == 0 && path == NULL) unlined(cf->root);
    for (int i = 0; status == 0 && i < num_sets; i++) status = config_set(cf, sets[i]);
    if (status == 0) status = config_bind(cf, study_schema_rows, s);
    if (status == 0) status = check_study(s, cf, &g);
    if (status == 0 && (ttext = tournament_text(s, g)) == NULL)
        status = hoyle_error(HOYLE_ENOMEM, "study: out of memory");
    /* Named as the study's file, so that a book path resolves beside it as in a tournament. */
    if (status == 0) status = config_parse(ttext, cf->name, &tc);
    if (status == 0) status = tournament_config_from(tc, cf->name, &s->tour);
    /* A pool smaller than the openings asked for would play fewer games than the study says. */
    int want = s->games_per_pairing / 2;
    if (status == 0 && strcmp(s->openings, "none") != 0 && s->tour.openings[0].n < want) {
        char at[1200];
        where(cf, config_find(cf, "openings"), at, sizeof at);
        status = hoyle_error(HOYLE_EINVAL,
                             "%s: key 'openings': '%s' gives %d openings, fewer than the %d "
                             "that games_per_pairing %d needs",
                             at, s->openings, s->tour.openings[0].n, want, s->games_per_pairing);
    }
    if (status == 0) {
        *out = *s;
    } else {
        tournament_config_done(&s->tour);
    }
    free(ttext);
    game_free(g);
    config_free(tc);
    config_free(cf);
    free(s);
    return status;
}
