/* tournament_config.c — the tournament's YAML config: schema, overrides,
 * and the checks that need the registry (games, agents, opening books).
 * Invariant: a config that loads can be scheduled and played; every error
 * is found here, before anything is written. Schema: docs/formats.md,
 * "Tournament config". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/file.h"
#include "core/rng.h"
#include "data/config.h"
#include "eval/tournament.h"
#include "games/registry.h"
#include "mcts/agent.h"

/* The settings of a tournament config, each with its default and the tour_config_t field it
 * lands in (config_bind); `hoyle tournament --keys` prints them as docs/formats.md's table.
 * games and agents are lists, openings a map: check_semantics() reads those by name. */
#define TOUR_AT(member) PARAM_AT(tour_config_t, member)
static const param_def_t tour_schema[] = {
    {.key = "name",
     .type = PARAM_STRING,
     .required = true,
     .help = "the tournament's name (progress lines, PDN Event)",
     TOUR_AT(name)},
    {.key = "games",
     .type = PARAM_LIST,
     .required = true,
     .min = 1,
     .max = TOUR_MAX_GAMES,
     .help = "game specs; each game is rated on its own"},
    {.key = "agents",
     .type = PARAM_LIST,
     .required = true,
     .min = 2,
     .max = TOUR_MAX_AGENTS,
     .help = "agent specs; the spec text as written is the player's name"},
    {.key = "schedule",
     .type = PARAM_CHOICE,
     .def = "round-robin",
     .choices = "round-robin|gauntlet",
     .help = "every pair, or the first agent against each other",
     TOUR_AT(schedule)},
    {.key = "games_per_opening",
     .type = PARAM_INT,
     .def = "1",
     .min = 1,
     .max = 10000,
     .help = "colour-swapped game pairs per pairing and opening",
     TOUR_AT(games_per_opening)},
    {.key = "openings",
     .type = PARAM_TABLE,
     .help = "per game name: book:PATH, random:K (K random whole moves) or none (the default)"},
    {.key = "openings_per_pairing",
     .type = PARAM_INT,
     .def = "1",
     .min = 0,
     .max = 100000,
     .help = "openings each pairing plays (0 = the whole pool)",
     TOUR_AT(openings_per_pairing)},
    {.key = "max_moves",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1000000,
     .help = "whole moves before a game is adjudicated a draw (0 = the rules only)",
     TOUR_AT(max_moves)},
    {.key = "workers",
     .type = PARAM_INT,
     .def = "1",
     .min = 0,
     .max = 256,
     .help = "worker threads (0 = one per core); not part of the stored config",
     TOUR_AT(workers)},
    {.key = "seed",
     .type = PARAM_INT,
     .def = "1",
     .min = 0,
     /* 2^53 - 1: the largest integer a double (the config's number type) holds
      * exactly, so every accepted seed round-trips. */
     .max = 9007199254740991.0,
     .help = "seed of openings and games",
     TOUR_AT(seed)},
    {.key = "output",
     .type = PARAM_STRING,
     .required = true,
     .help = "the HDF5 record file; not part of the stored config",
     TOUR_AT(output)},
    {.key = "anchor",
     .type = PARAM_STRING,
     .def = "",
     .help = "agent held at Elo 0 in the printed tables (\"\" = mean 0)",
     TOUR_AT(anchor)},
    {.key = NULL},
};

const param_def_t *tournament_config_schema(void) { return tour_schema; }

/* "file:line" of a node ("file (--set)" for overrides). */
static void where(const config_t *cf, const config_node_t *n, char *buf, size_t cap)
{
    if (n && n->line > 0)
        snprintf(buf, cap, "%s:%d", cf->name, n->line);
    else
        snprintf(buf, cap, "%s (--set)", cf->name);
}

void tournament_config_done(tour_config_t *c)
{
    if (c == NULL) return;
    for (int i = 0; i < c->num_games; i++) {
        game_free(c->games[i]);
        opening_list_done(&c->openings[i]);
    }
    free(c->config_text);
    memset(c, 0, sizeof *c);
}

/* Top-level keys that do not change the games: left out of the stored config
 * (and so of its hash) and of the resume comparison. `workers` is how many
 * threads play, `output` where the file is, so a file may be moved and resumed. */
static int ignored_key(const char *key)
{
    return strcmp(key, "workers") == 0 || strcmp(key, "output") == 0;
}

/* The config's dump without the top-level `workers:` and `output:` lines
 * (ignored_key; both are one-line scalars at column 0 in a dump). */
static char *strip_ignored(char *text)
{
    char *p = text;
    /* Invariant: p is at the start of a line. Only top-level keys start in
     * column 0, so a nested "workers:" (none exists today) would be kept. */
    while (p && *p) {
        char *nl = strchr(p, '\n');
        if (strncmp(p, "workers:", 8) == 0 || strncmp(p, "output:", 7) == 0) {
            if (nl)
                memmove(p, nl + 1, strlen(nl + 1) + 1);
            else
                *p = '\0';
            continue;
        }
        p = nl ? nl + 1 : NULL;
    }
    return text;
}

/* Gauntlet: the first agent against each other one; round-robin: every
 * unordered pair. */
static int npairings(const tour_config_t *c)
{
    return c->schedule == TOUR_GAUNTLET ? c->num_agents - 1
                                        : c->num_agents * (c->num_agents - 1) / 2;
}

/* Resolve a book path: as given (from the working folder), else relative to
 * the config's folder. When neither is readable, HOYLE_EIO naming both
 * places as absolute paths, so the message says where it looked. */
static int book_path(const char *cfg_path, const char *p, char *out, size_t cap)
{
    snprintf(out, cap, "%s", p);
    /* Relative to the working directory first (what a user typing the path
     * means), then the config's folder (what a config shipped with its book
     * means). */
    if (access(p, R_OK) == 0) return HOYLE_OK;
    if (p[0] == '/') return hoyle_error(HOYLE_EIO, "book '%s': %s", p, strerror(errno));
    char cfg_dir[1024] = ".", here[1100], there[2200];
    const char *slash = strrchr(cfg_path, '/');
    if (slash) snprintf(cfg_dir, sizeof cfg_dir, "%.*s", (int)(slash - cfg_path), cfg_path);
    snprintf(out, cap, "%s/%s", cfg_dir, p);
    if (access(out, R_OK) == 0) return HOYLE_OK;
    return hoyle_error(HOYLE_EIO, "book '%s' not found: neither %s nor %s", p,
                       file_resolved(p, here, sizeof here),
                       file_resolved(out, there, sizeof there));
}

/* Build game i's opening pool from its source text. */
static int load_openings(tour_config_t *c, const config_t *cf, int i, const char *src,
                         const char *at)
{
    const game_t *g = c->games[i];
    int k = c->openings_per_pairing;
    /* Per-game opening seed: 0x6f70656e is "open", a domain tag that keeps this
     * stream apart from the game seeds derived from the same c->seed; mixing in
     * i gives each game of the config its own openings. */
    uint64_t seed = rng_mix(c->seed ^ rng_mix(0x6f70656eULL + (uint64_t)i));
    opening_list_t *l = &c->openings[i];
    if (strcmp(src, "none") == 0) return openings_random(g, 0, 1, seed, l);
    int moves, how = openings_parse_random(src, &moves);
    if (how < 0)
        return hoyle_error(HOYLE_EINVAL, "%s: key 'openings.%s': '%s': K in random:K must be 0..%d",
                           at, g->entry->name, src, OPENINGS_RANDOM_MAX);
    if (how == 1) {
        /* Ask for distinct openings for every pairing first, so no two pairings
         * share one; a game with too few distinct k-move openings falls back to
         * k openings that all pairings share. */
        int want = (k > 0 ? k : 1) * npairings(c);
        if (openings_random(g, moves, want, seed, l) == 0) return HOYLE_OK;
        if (openings_random(g, moves, k > 0 ? k : 1, seed, l) == 0) return HOYLE_OK;
        return hoyle_error_prefix(HOYLE_EINVAL, "%s: key 'openings.%s'", at, g->entry->name);
    }
    if (strncmp(src, "book:", 5) == 0) {
        char path[1024];
        if (book_path(cf->name, src + 5, path, sizeof path) || openings_load_book(g, path, l))
            return hoyle_error_prefix(HOYLE_EINVAL, "%s: key 'openings.%s'", at, g->entry->name);
        /* seeded shuffle, so that pairings rotate through the whole book */
        rng_t r;
        rng_init(&r, seed);
        /* Fisher-Yates: every permutation equally likely. */
        for (int j = l->n - 1; j > 0; j--) {
            int m = (int)rng_below(&r, (uint32_t)j + 1);
            opening_t t = l->items[j];
            l->items[j] = l->items[m];
            l->items[m] = t;
        }
        return HOYLE_OK;
    }
    return hoyle_error(HOYLE_EINVAL,
                       "%s: key 'openings.%s': '%s' is not book:PATH, random:K or none", at,
                       g->entry->name, src);
}

/* games_per_opening > 1 plays each opening again with the same seats: for a
 * pairing of two agents whose moves do not depend on their seeds
 * (agent_is_seeded) on a game without dice, every repeat is the same game,
 * which the ratings would count as new evidence, so such a config is refused. */
static int check_repeats(const tour_config_t *c, const game_t *g, const bool *seeded,
                         const char *at)
{
    if (c->games_per_opening < 2 || g->max_chance_outcomes > 0) return HOYLE_OK;
    for (int a = 0; a < c->num_agents; a++)
        for (int b = a + 1; b < c->num_agents; b++) {
            if (c->schedule == TOUR_GAUNTLET && a != 0) continue;
            if (!seeded[a] && !seeded[b])
                return hoyle_error(HOYLE_EINVAL,
                                   "%s: key 'games_per_opening': %d would repeat one game: '%s' "
                                   "and '%s' play %s the same whatever their seeds (set it to 1)",
                                   at, c->games_per_opening, c->agents[a], c->agents[b], g->spec);
        }
    return HOYLE_OK;
}

/* The checks config_bind cannot do because they need the registry or the
 * other keys: schedule name, unique agents that create on every game and are
 * not human, two-player games listed once, openings keys naming listed games,
 * and the opening lists themselves. Every message names file:line of the key. */
static int check_semantics(tour_config_t *c, const config_t *cf)
{
    char at[1200];
    config_node_t *const *items;
    if (c->workers == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        /* sysconf may fail (-1); one worker is always a valid fallback. */
        c->workers = n > 0 ? (int)n : 1;
    }
    if (c->output[0] == '\0') {
        where(cf, config_find(cf, "output"), at, sizeof at);
        return hoyle_error(HOYLE_EINVAL, "%s: key 'output': empty file name", at);
    }
    /* agents: each must create on each game; names must be distinct */
    int na = config_strings(cf, "agents", &items);
    for (int i = 0; i < na; i++) {
        where(cf, items[i], at, sizeof at);
        if (strlen(items[i]->value) >= GAME_SPEC_MAX || items[i]->value[0] == '\0')
            return hoyle_error(HOYLE_EINVAL, "%s: key 'agents[%d]': empty or too long", at, i);
        for (int j = 0; j < c->num_agents; j++)
            if (strcmp(c->agents[j], items[i]->value) == 0)
                return hoyle_error(HOYLE_EINVAL, "%s: key 'agents[%d]': '%s' is listed twice", at,
                                   i, items[i]->value);
        snprintf(c->agents[c->num_agents++], GAME_SPEC_MAX, "%s", items[i]->value);
    }
    if (c->anchor[0]) {
        int found = 0;
        for (int j = 0; j < c->num_agents; j++) found |= strcmp(c->agents[j], c->anchor) == 0;
        where(cf, config_find(cf, "anchor"), at, sizeof at);
        if (!found)
            return hoyle_error(HOYLE_EINVAL, "%s: key 'anchor': '%s' is not one of the agents", at,
                               c->anchor);
    }
    int ng = config_strings(cf, "games", &items);
    for (int i = 0; i < ng; i++) {
        where(cf, items[i], at, sizeof at);
        const game_t *g;
        if (game_create(items[i]->value, &g))
            return hoyle_error_prefix(HOYLE_EINVAL, "%s: key 'games[%d]'", at, i);
        c->games[c->num_games++] = g;
        if (g->num_players != 2)
            return hoyle_error(HOYLE_EINVAL, "%s: key 'games[%d]': %s is not a two-player game", at,
                               i, g->spec);
        for (int j = 0; j < i; j++)
            if (strcmp(c->games[j]->spec, g->spec) == 0)
                return hoyle_error(HOYLE_EINVAL, "%s: key 'games[%d]': %s is listed twice", at, i,
                                   g->spec);
        bool seeded[TOUR_MAX_AGENTS];
        for (int a = 0; a < c->num_agents; a++) {
            agent_t *probe;
            /* A probe agent per (game, agent): a spec that fails on one game only must
             * fail here, not after hours of play. */
            if (agent_create(g, c->agents[a], 0, &probe)) {
                const config_node_t *an = NULL;
                config_node_t *const *ai;
                if (config_strings(cf, "agents", &ai) > a) an = ai[a];
                where(cf, an, at, sizeof at);
                return hoyle_error_prefix(HOYLE_EINVAL, "%s: key 'agents[%d]'", at, a);
            }
            int human = agent_is_human(probe);
            seeded[a] = agent_is_seeded(probe);
            agent_free(probe);
            /* A human agent would block a worker on stdin. */
            if (human)
                return hoyle_error(HOYLE_EINVAL,
                                   "%s: key 'agents[%d]': human players cannot play tournaments",
                                   at, a);
        }
        if (check_repeats(c, g, seeded, at)) return HOYLE_EINVAL;
    }
    /* openings: keys are game names of listed games */
    const config_node_t *op = config_find(cf, "openings");
    for (int k = 0; op && k < op->num_children; k++) {
        const config_node_t *e = op->children[k];
        int found = 0;
        for (int i = 0; i < c->num_games; i++)
            found |= strcmp(c->games[i]->entry->name, e->key) == 0;
        where(cf, e, at, sizeof at);
        if (!found)
            return hoyle_error(
                HOYLE_EINVAL, "%s: key 'openings.%s': no game of that name in 'games'", at, e->key);
    }
    for (int i = 0; i < c->num_games; i++) {
        const config_node_t *e = op ? config_child(op, c->games[i]->entry->name) : NULL;
        /* Games without an openings entry play from the initial position. */
        const char *src = e ? e->value : "none";
        where(cf, e ? e : op, at, sizeof at);
        snprintf(c->opening_source[i], sizeof c->opening_source[i], "%s", src);
        if (load_openings(c, cf, i, src, at)) return HOYLE_EINVAL;
    }
    return HOYLE_OK;
}

/* Steps: 1. parse the file; 2. apply the --set overrides (so they are
 * checked like the file); then tournament_config_from: 3. schema check, landing the scalar keys in
 * c; 4. semantic checks, which build the games and openings; 5. dump the merged config, the text
 * whose hash a resume compares. *out is written only on success. */
int tournament_config_load(const char *path, char *const *sets, int num_sets, tour_config_t *out)
{
    config_t *cf = NULL;
    int status = config_load(path, &cf);
    for (int i = 0; status == 0 && i < num_sets; i++) status = config_set(cf, sets[i]);
    if (status == 0) status = tournament_config_from(cf, path, out);
    config_free(cf);
    return status;
}

int tournament_config_from(const config_t *cf, const char *path, tour_config_t *out)
{
    tour_config_t *c = calloc(1, sizeof *c);
    if (c == NULL) return hoyle_error(HOYLE_ENOMEM, "tournament: out of memory");
    int status = config_bind(cf, tour_schema, c);
    if (status == 0) status = check_semantics(c, cf);
    if (status == 0) status = config_dump(cf, &c->config_text);
    if (status == 0) {
        strip_ignored(c->config_text);
        snprintf(c->config_path, sizeof c->config_path, "%s", path);
        *out = *c;
    } else {
        tournament_config_done(c);
    }
    free(c);
    return status;
}

/* A value as flow YAML into buf[cap] (at most cap - 1 bytes, cut if longer). */
static void node_text(const config_node_t *n, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    if (n == NULL) {
        snprintf(buf, cap, "(not set)");
        return;
    }
    if (n->type == CONFIG_SCALAR) {
        snprintf(buf, cap, "%s", n->value);
        return;
    }
    used += (size_t)snprintf(buf, cap, "%s", n->type == CONFIG_LIST ? "[" : "{");
    for (int i = 0; i < n->num_children && used + 1 < cap; i++) {
        const config_node_t *k = n->children[i];
        if (i) used += (size_t)snprintf(buf + used, cap - used, ", ");
        if (used + 1 >= cap) break;
        if (n->type == CONFIG_MAP) used += (size_t)snprintf(buf + used, cap - used, "%s: ", k->key);
        if (used + 1 >= cap) break;
        node_text(k, buf + used, cap - used);
        used += strlen(buf + used);
    }
    if (used + 1 < cap) snprintf(buf + used, cap - used, "%s", n->type == CONFIG_LIST ? "]" : "}");
}

/* Same value: scalars by text, lists in order, maps by key (any order). */
static int node_equal(const config_node_t *a, const config_node_t *b)
{
    if (a == NULL || b == NULL) return a == b;
    if (a->type != b->type || a->num_children != b->num_children) return 0;
    if (a->type == CONFIG_SCALAR) return strcmp(a->value, b->value) == 0;
    for (int i = 0; i < a->num_children; i++) {
        const config_node_t *ka = a->children[i];
        const config_node_t *kb = a->type == CONFIG_MAP ? config_child(b, ka->key) : b->children[i];
        if (!node_equal(ka, kb)) return 0;
    }
    return 1;
}

/* Note one differing top-level key in msg (a "; "-separated list). */
static void note_key(char *msg, size_t cap, const char *key, const config_node_t *was,
                     const config_node_t *now)
{
    char a[160], b[160];
    size_t used = strlen(msg);
    if (used + 1 >= cap) return;
    node_text(was, a, sizeof a);
    node_text(now, b, sizeof b);
    snprintf(msg + used, cap - used, "%skey '%s' was '%s' (file), now '%s'", used ? "; " : "", key,
             a, b);
}

int tournament_config_compare(const tour_config_t *c, const char *stored, const char *file)
{
    config_t *was = NULL, *now = NULL;
    char msg[HOYLE_ERROR_MAX] = "";
    int differ = 0;
    if (config_parse(stored, file, &was))
        return hoyle_error_prefix(HOYLE_EINVAL, "%s: the stored config does not read", file);
    if (config_parse(c->config_text, c->config_path, &now)) {
        config_free(was);
        return HOYLE_EINVAL;
    }
    /* every top-level key of either side, each once */
    for (int side = 0; side < 2; side++) {
        const config_node_t *root = side ? now->root : was->root;
        for (int i = 0; i < root->num_children; i++) {
            const char *key = root->children[i]->key;
            if (ignored_key(key) || (side && config_child(was->root, key))) continue;
            const config_node_t *a = config_child(was->root, key),
                                *b = config_child(now->root, key);
            if (node_equal(a, b)) continue;
            /* More openings per pairing only appends jobs (schedule.c keeps the
             * schedule for k a prefix of the one for a larger k); fewer, or the
             * whole pool before, would drop stored games. */
            if (strcmp(key, "openings_per_pairing") == 0) {
                long long ka = a ? atoll(a->value) : 1, kb = b ? atoll(b->value) : 1;
                if (ka != 0 && (kb == 0 || kb > ka)) continue;
            }
            differ = 1;
            note_key(msg, sizeof msg, key, a, b);
        }
    }
    config_free(was);
    config_free(now);
    if (!differ) return HOYLE_OK;
    return hoyle_error(HOYLE_EINVAL, "%s: made by another config: %s", file, msg);
}
