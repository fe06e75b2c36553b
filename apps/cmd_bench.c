/* cmd_bench.c — `hoyle bench`: deterministic speed figures for every game
 * variant (STYLE.md point 13). Fixed seeds and fixed work per item, so the
 * closing node count is a signature that changes only when behaviour does;
 * the rates vary with the machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/progress.h"
#include "games/registry.h"
#include "mcts/bench.h"
#include "solve/bench.h"

static const char help[] =
    "usage: hoyle bench [--games 'SPEC;SPEC...' | --solvers] [--json]\n\n"
    "For every registered variant (or the listed games), from the start:\n"
    "  perft     to the first depth with at least 1,000,000 leaves (at most 12)\n"
    "  random    2000 uniformly random games, seed 1 (games/s)\n"
    "  mcts      one search of 5000 UCT simulations, one random rollout each\n"
    "  alphabeta iterative deepening to the first depth searching >= 200,000 nodes\n"
    "            (or the last before one predicted to pass 20,000,000)\n"
    "Games with dice start after the opening roll, played by a fixed seed.\n"
    "Then the exact solvers on fixed instances (nodes/s): the Fifteen puzzle's\n"
    "IDA* on 2000 seeded 3x3 starts (4-4 tables) and five of Korf's instances\n"
    "(linear conflicts); Solitaire's search from every single-hole start to the\n"
    "centre, and its proof that the centre game needs more than 14 moves.\n"
    "--games skips them; --solvers runs only them.\n"
    "One line per game with counts and rates; the last line is the total node\n"
    "count (perft leaves + random actions + simulations + alpha-beta nodes +\n"
    "solver nodes), a signature of behaviour, not of speed. A progress line\n"
    "(items done, ETA)"
    " goes to stderr.\n";

/* Exit codes: 0 done; 2 a --games spec is bad (the user's input); 1 a
 * registered variant failed, which is a bug in hoyle, not in the input. */
/* One game's line (or object): perft, random games, MCTS simulations, alpha-beta nodes. */
static void report_item(json_t *j, bool json, const bench_item_t *r)
{
    double prate = r->perft_seconds > 0 ? (double)r->perft_nodes / r->perft_seconds : 0;
    double grate = r->random_seconds > 0 ? (double)r->random.games / r->random_seconds : 0;
    double arate = r->random_seconds > 0 ? (double)r->random.actions / r->random_seconds : 0;
    double mrate = r->mcts.seconds > 0 ? (double)r->mcts.count / r->mcts.seconds : 0;
    double abrate = r->ab.seconds > 0 ? (double)r->ab.count / r->ab.seconds : 0;
    if (json) {
        json_open(j, NULL, '{');
        json_str(j, "game", r->spec);
        json_int(j, "perft_depth", r->perft_depth);
        json_u64(j, "perft_nodes", r->perft_nodes);
        json_num(j, "perft_seconds", "%.6f", r->perft_seconds);
        json_num(j, "perft_nodes_per_second", "%.0f", prate);
        json_u64(j, "random_games", r->random.games);
        json_u64(j, "random_actions", r->random.actions);
        json_num(j, "random_seconds", "%.6f", r->random_seconds);
        json_num(j, "random_games_per_second", "%.1f", grate);
        json_num(j, "random_actions_per_second", "%.0f", arate);
        json_int(j, "mcts_sims", r->mcts.count);
        json_num(j, "mcts_seconds", "%.6f", r->mcts.seconds);
        json_num(j, "mcts_sims_per_second", "%.0f", mrate);
        json_int(j, "alphabeta_depth", r->ab_depth);
        json_int(j, "alphabeta_nodes", r->ab.count);
        json_num(j, "alphabeta_seconds", "%.6f", r->ab.seconds);
        json_num(j, "alphabeta_nodes_per_second", "%.0f", abrate);
        json_close(j);
        return;
    }
    char perft[32], ab[32];
    snprintf(perft, sizeof perft, "d%d %llu", r->perft_depth, (unsigned long long)r->perft_nodes);
    snprintf(ab, sizeof ab, "d%d %lld", r->ab_depth, r->ab.count);
    printf("%-50s %14s %9.2f | %9.0f | %9.0f | %13s %9.0f\n", r->spec, perft, prate / 1e6, grate,
           mrate, ab, abrate);
}

/* One solver item's line (or object). */
static void report_solver(json_t *j, bool json, const solve_bench_item_t *sv)
{
    double rate = sv->seconds > 0 ? (double)sv->nodes / sv->seconds : 0;
    if (json) {
        json_open(j, NULL, '{');
        json_str(j, "solver", sv->name);
        json_int(j, "instances", sv->instances);
        json_int(j, "total_length", sv->total_length);
        json_u64(j, "nodes", sv->nodes);
        json_num(j, "seconds", "%.6f", sv->seconds);
        json_num(j, "nodes_per_second", "%.0f", rate);
        json_close(j);
    } else
        printf("%-50s %9d %7ld %14llu %9.2f\n", sv->name, sv->instances, sv->total_length,
               (unsigned long long)sv->nodes, rate / 1e6);
}

int cmd_bench(int argc, char **argv)
{
    bool json = false;
    const char *only = NULL;
    bool solvers_only = false;
    const cli_opt_t opts[] = {
        CLI_OPT_FLAG("--solvers", &solvers_only, "only the solver items"),
        CLI_OPT("--games", CLI_STRING, &only, "'SPEC;SPEC'", "only these games (default: all)"),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    const cli_command_t command = {.name = "bench", .help = help, .opts = opts};
    int rc = cli_parse(&command, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    /* The list of specs: the registry's variants, or --games split on ';'. */
    /* At most 64 items: further variants or --games entries are ignored
     * rather than overflowing specs[]. */
    const char *specs[64];
    int n = 0;
    char *copy = NULL;
    if (solvers_only) {
        if (only) return cli_usage_error("bench", "--games and --solvers exclude each other");
    } else if (only) {
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
    json_t j;
    if (json) {
        json_begin(&j, stdout);
        json_open(&j, "items", '[');
    } else if (n > 0)
        printf("%-50s %14s %9s | %9s | %9s | %13s %9s\n", "game", "perft", "Mnodes/s", "games/s",
               "sims/s", "alphabeta", "nodes/s");
    progress_t pg;
    progress_start(&pg, stderr, "[bench]", "games", 0);
    for (int i = 0; i < n; i++) {
        bench_item_t r;
        if (bench_item(specs[i], &r)) {
            free(copy);
            return cli_fail("bench", only ? EXIT_USAGE : EXIT_FAILED);
        }
        total += bench_item_nodes(&r);
        progress_clear(&pg); /* stdout and stderr may share a terminal */
        report_item(&j, json, &r);
        /* Flushed per line: a full bench takes minutes, and a pipe would
         * otherwise show nothing until the end. */
        fflush(stdout);
        char extra[GAME_SPEC_MAX + 8];
        snprintf(extra, sizeof extra, "last %s", r.spec);
        progress_update(&pg, i + 1, n, extra, i + 1 == n);
    }
    /* the solver items, after the games (not with --games) */
    solve_bench_item_t sv[SOLVE_BENCH_ITEMS];
    int nsv = only ? 0 : SOLVE_BENCH_ITEMS;
    if (nsv && solve_bench(sv)) {
        free(copy);
        return cli_fail("bench", EXIT_FAILED);
    }
    if (json) {
        json_close(&j);
        json_open(&j, "solvers", '[');
    } else if (nsv)
        printf("%-50s %9s %7s %14s %9s\n", "solver", "instances", "length", "nodes", "Mnodes/s");
    for (int i = 0; i < nsv; i++) {
        total += sv[i].nodes;
        report_solver(&j, json, &sv[i]);
    }
    if (json) {
        json_close(&j);
        json_u64(&j, "nodes", total);
        json_end(&j);
    } else
        printf("%llu nodes\n", (unsigned long long)total);
    free(copy);
    return EXIT_OK;
}
