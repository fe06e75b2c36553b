/* cmd_bench.c — `hoyle bench`: deterministic speed figures for every game
 * variant (STYLE.md point 13). Fixed seeds and fixed work per item, so the
 * closing node count is a signature that changes only when behaviour does;
 * the rates vary with the machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "games/registry.h"

static const char help[] =
    "usage: hoyle bench [--games 'SPEC;SPEC...'] [--json]\n\n"
    "For every registered variant (or the listed games): perft from the start\n"
    "to the first depth with at least 1,000,000 leaves (at most 12), and 2000\n"
    "uniformly random games with seed 1. One line per game with counts and\n"
    "rates; the last line is the total node count (perft leaves + random\n"
    "actions), a signature of behaviour, not of speed.\n";

enum { BENCH_PERFT_NODES = 1000000, BENCH_PERFT_MAX_DEPTH = 12, BENCH_RANDOM_GAMES = 2000 };

typedef struct bench_row {
    char spec[GAME_SPEC_MAX];
    int perft_depth;
    uint64_t perft_nodes;
    double perft_seconds;
    random_stats_t random;
} bench_row_t;

static int bench_game(const char *spec, bench_row_t *row)
{
    const game_t *g = NULL;
    if (game_create(spec, &g)) return HOYLE_EINVAL;
    memset(row, 0, sizeof *row);
    snprintf(row->spec, sizeof row->spec, "%s", g->spec);
    void *s = malloc(g->state_size);
    game_init(g, s);
    for (int depth = 1; depth <= BENCH_PERFT_MAX_DEPTH; depth++) {
        double t0 = cli_now();
        uint64_t nodes = game_perft(g, s, depth);
        row->perft_seconds = cli_now() - t0;
        row->perft_depth = depth;
        row->perft_nodes = nodes;
        if (nodes >= BENCH_PERFT_NODES || nodes == 0) break;
    }
    int status = random_games(g, s, BENCH_RANDOM_GAMES, 1, &row->random);
    free(s);
    game_free(g);
    return status;
}

int cmd_bench(int argc, char **argv)
{
    bool json = false;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) return fputs(help, stdout), EXIT_OK;
        if (strcmp(argv[i], "--json") == 0) json = true;
        else if (strcmp(argv[i], "--games") == 0 && i + 1 < argc) only = argv[++i];
        else return cli_usage_error("bench", "unknown argument '%s' (see --help)", argv[i]);
    }
    /* The list of specs: the registry's variants, or --games split on ';'. */
    const char *specs[64];
    int n = 0;
    char *copy = NULL;
    if (only) {
        copy = strdup(only);
        char *save = NULL;
        for (char *t = strtok_r(copy, ";", &save); t && n < 64; t = strtok_r(NULL, ";", &save))
            specs[n++] = t;
    } else {
        for (int i = 0; game_registry[i]; i++)
            for (int v = 0; game_registry[i]->variants[v] && n < 64; v++)
                specs[n++] = game_registry[i]->variants[v];
    }
    uint64_t total = 0;
    if (json) printf("{\"items\":[");
    else printf("%-34s %14s %8s %9s | %7s %9s %10s\n", "game", "perft", "s", "Mnodes/s", "games",
                "games/s", "actions/s");
    for (int i = 0; i < n; i++) {
        bench_row_t r;
        if (bench_game(specs[i], &r)) {
            free(copy);
            return cli_fail("bench", only ? EXIT_USAGE : EXIT_FAILED);
        }
        double prate = r.perft_seconds > 0 ? (double)r.perft_nodes / r.perft_seconds : 0;
        double grate = r.random.seconds > 0 ? (double)r.random.games / r.random.seconds : 0;
        double arate = r.random.seconds > 0 ? (double)r.random.actions / r.random.seconds : 0;
        total += r.perft_nodes + r.random.actions;
        if (json) {
            printf("%s{\"game\":", i ? "," : "");
            cli_json_string(stdout, r.spec);
            printf(",\"perft_depth\":%d,\"perft_nodes\":%llu,\"perft_seconds\":%.6f,"
                   "\"perft_nodes_per_second\":%.0f,\"random_games\":%llu,\"random_actions\":%llu,"
                   "\"random_seconds\":%.6f,\"random_games_per_second\":%.1f}",
                   r.perft_depth, (unsigned long long)r.perft_nodes,
                   r.perft_seconds, prate, (unsigned long long)r.random.games,
                   (unsigned long long)r.random.actions, r.random.seconds, grate);
        } else {
            char perft[32];
            snprintf(perft, sizeof perft, "d%d %llu", r.perft_depth, (unsigned long long)r.perft_nodes);
            printf("%-34s %14s %8.3f %9.2f | %7llu %9.0f %10.0f\n", r.spec, perft, r.perft_seconds,
                   prate / 1e6, (unsigned long long)r.random.games, grate, arate);
        }
        fflush(stdout);
    }
    if (json) printf("],\"nodes\":%llu}\n", (unsigned long long)total);
    else printf("%llu nodes\n", (unsigned long long)total);
    free(copy);
    return EXIT_OK;
}
