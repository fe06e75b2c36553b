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
#include "mcts/mcts.h"
#include "solve/bench.h"

static const char help[] =
    "usage: hoyle bench [--games 'SPEC;SPEC...' | --solvers] [--json]\n\n"
    "For every registered variant (or the listed games), from the start:\n"
    "  perft     to the first depth with at least 1,000,000 leaves (at most 12)\n"
    "  random    2000 uniformly random games, seed 1 (games/s)\n"
    "  mcts      one search of 5000 UCT simulations, one random rollout each\n"
    "            (sims/s, and B/sim: tree bytes per simulation)\n"
    "  alphabeta iterative deepening to the first depth searching >= 200,000 nodes\n"
    "            (or the last before one predicted to pass 20,000,000)\n"
    "Games with dice start after the opening roll, played by a fixed seed.\n"
    "Then the exact solvers on fixed instances (nodes/s): the Fifteen puzzle's\n"
    "IDA* on 2000 seeded 3x3 starts (4-4 tables) and five of Korf's instances\n"
    "(linear conflicts); Solitaire's search from every single-hole start to the\n"
    "centre, and its proof that the centre game needs more than 14 moves.\n"
    "--games skips them; --solvers runs only them.\n"
    "--mcts SIMS runs only MCTS searches of SIMS simulations (default games\n"
    "checkers and chess), on 1 and 2 threads (--threads LIST), each --repeat\n"
    "times, interleaved, and prints sims/s, tree bytes per simulation and the\n"
    "speedup over one thread side by side (not deterministic with threads > 1).\n"
    "One line per game with counts and rates; the last line is the total node\n"
    "count (perft leaves + random actions + simulations + alpha-beta nodes +\n"
    "solver nodes), a signature of behaviour, not of speed. A progress line\n"
    "(items done, ETA)"
    " goes to stderr.\n";

/* `hoyle bench --mcts SIMS`: the MCTS scaling table (its own function, apart
 * from the deterministic items). Each round runs every thread count once, in
 * order, so a load that changes during the run weighs on all of them alike;
 * a row's rate is its total simulations over its total seconds. */
static int bench_mcts_scaling(const char *games, long long sims, const char *thread_list,
                              int repeat, bool json)
{
    int threads[8], nt = 0;
    char *list = strdup(thread_list), *save = NULL;
    for (char *t = strtok_r(list, ",", &save); t && nt < 8; t = strtok_r(NULL, ",", &save)) {
        char *end;
        long v = strtol(t, &end, 10);
        if (*end != '\0' || v < 1 || v > MCTS_MAX_THREADS) {
            int rc = cli_usage_error("bench", "--threads: '%s' is not a thread count in [1, %d]", t,
                                     MCTS_MAX_THREADS);
            free(list);
            return rc;
        }
        threads[nt++] = (int)v;
    }
    free(list);
    if (nt == 0) return cli_usage_error("bench", "--threads: no thread count");
    char *copy = strdup(games ? games : "checkers;chess");
    json_t j;
    if (json) {
        json_begin(&j, stdout);
        json_int(&j, "sims", sims);
        json_int(&j, "repeat", repeat);
        json_open(&j, "mcts", '[');
    } else
        printf("%-40s %7s %10s %10s %12s %8s %8s\n", "game", "threads", "sims/s", "speedup",
               "tree nodes", "B/sim", "cap");
    int code = EXIT_OK;
    for (char *spec = strtok_r(copy, ";", &save); spec && code == EXIT_OK;
         spec = strtok_r(NULL, ";", &save)) {
        const game_t *g = NULL;
        if (game_create(spec, &g)) {
            code = cli_fail("bench", EXIT_USAGE);
            break;
        }
        double secs[8] = {0};
        long long done[8] = {0};
        bench_search_t last[8];
        for (int round = 0; round < repeat && code == EXIT_OK; round++)
            for (int i = 0; i < nt; i++) {
                if (bench_mcts_threads(g, sims, threads[i], 0, 1 + (uint64_t)round, &last[i])) {
                    code = cli_fail("bench", EXIT_FAILED);
                    break;
                }
                secs[i] += last[i].seconds;
                done[i] += last[i].count;
            }
        for (int i = 0; i < nt && code == EXIT_OK; i++) {
            double rate = secs[i] > 0 ? (double)done[i] / secs[i] : 0;
            double base = secs[0] > 0 ? (double)done[0] / secs[0] : 0;
            double bps = last[i].count > 0 ? (double)last[i].tree_bytes / (double)last[i].count : 0;
            if (json) {
                json_open(&j, NULL, '{');
                json_str(&j, "game", g->spec);
                json_int(&j, "threads", threads[i]);
                json_num(&j, "sims_per_second", "%.0f", rate);
                json_num(&j, "speedup", "%.3f", base > 0 ? rate / base : 0);
                json_u64(&j, "tree_nodes", last[i].tree_nodes);
                json_num(&j, "bytes_per_sim", "%.1f", bps);
                json_bool(&j, "node_cap_reached", last[i].node_cap);
                json_close(&j);
            } else
                printf("%-40s %7d %10.0f %9.2fx %12zu %8.1f %8s\n", g->spec, threads[i], rate,
                       base > 0 ? rate / base : 0, last[i].tree_nodes, bps,
                       last[i].node_cap ? "reached" : "-");
            fflush(stdout);
        }
        game_free(g);
    }
    if (json && code == EXIT_OK) {
        json_close(&j);
        json_end(&j);
    }
    free(copy);
    return code;
}

/* Exit codes: 0 done; 2 a --games spec is bad (the user's input); 1 a
 * registered variant failed, which is a bug in hoyle, not in the input. */
int cmd_bench(int argc, char **argv)
{
    bool json = false;
    const char *only = NULL;
    bool solvers_only = false;
    uint64_t mcts_sims = 0;
    const char *thread_list = "1,2";
    int repeat = 1;
    const cli_opt_t opts[] = {
        CLI_OPT_RANGE("--mcts", CLI_U64, &mcts_sims, "SIMS",
                      "only MCTS searches of SIMS simulations (threads side by side)", 1, 1e9),
        CLI_OPT("--threads", CLI_STRING, &thread_list, "LIST",
                "with --mcts: thread counts (default 1,2)"),
        CLI_OPT_RANGE("--repeat", CLI_INT, &repeat, "R", "with --mcts: rounds (default 1)", 1,
                      1000),
        CLI_OPT_FLAG("--solvers", &solvers_only, "only the solver items"),
        CLI_OPT("--games", CLI_STRING, &only, "'SPEC;SPEC'", "only these games (default: all)"),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    const cli_command_t command = {.name = "bench", .help = help, .opts = opts};
    int rc = cli_parse(&command, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (mcts_sims > 0) {
        if (solvers_only)
            return cli_usage_error("bench", "--mcts and --solvers exclude each other");
        return bench_mcts_scaling(only, (long long)mcts_sims, thread_list, repeat, json);
    }
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
        printf("%-50s %14s %9s | %9s | %9s %6s | %13s %9s\n", "game", "perft", "Mnodes/s",
               "games/s", "sims/s", "B/sim", "alphabeta", "nodes/s");
    progress_t pg;
    progress_start(&pg, stderr, "[bench]", "games", 0);
    for (int i = 0; i < n; i++) {
        bench_item_t r;
        if (bench_item(specs[i], &r)) {
            free(copy);
            return cli_fail("bench", only ? EXIT_USAGE : EXIT_FAILED);
        }
        double prate = r.perft_seconds > 0 ? (double)r.perft_nodes / r.perft_seconds : 0;
        double grate = r.random_seconds > 0 ? (double)r.random.games / r.random_seconds : 0;
        double arate = r.random_seconds > 0 ? (double)r.random.actions / r.random_seconds : 0;
        double mrate = r.mcts.seconds > 0 ? (double)r.mcts.count / r.mcts.seconds : 0;
        double mbytes = r.mcts.count > 0 ? (double)r.mcts.tree_bytes / (double)r.mcts.count : 0;
        double abrate = r.ab.seconds > 0 ? (double)r.ab.count / r.ab.seconds : 0;
        total += bench_item_nodes(&r);
        progress_clear(&pg); /* stdout and stderr may share a terminal */
        if (json) {
            json_open(&j, NULL, '{');
            json_str(&j, "game", r.spec);
            json_int(&j, "perft_depth", r.perft_depth);
            json_u64(&j, "perft_nodes", r.perft_nodes);
            json_num(&j, "perft_seconds", "%.6f", r.perft_seconds);
            json_num(&j, "perft_nodes_per_second", "%.0f", prate);
            json_u64(&j, "random_games", r.random.games);
            json_u64(&j, "random_actions", r.random.actions);
            json_num(&j, "random_seconds", "%.6f", r.random_seconds);
            json_num(&j, "random_games_per_second", "%.1f", grate);
            json_num(&j, "random_actions_per_second", "%.0f", arate);
            json_int(&j, "mcts_sims", r.mcts.count);
            json_num(&j, "mcts_seconds", "%.6f", r.mcts.seconds);
            json_num(&j, "mcts_sims_per_second", "%.0f", mrate);
            json_num(&j, "mcts_bytes_per_sim", "%.1f", mbytes);
            json_int(&j, "alphabeta_depth", r.ab_depth);
            json_int(&j, "alphabeta_nodes", r.ab.count);
            json_num(&j, "alphabeta_seconds", "%.6f", r.ab.seconds);
            json_num(&j, "alphabeta_nodes_per_second", "%.0f", abrate);
            json_close(&j);
        } else {
            char perft[32];
            snprintf(perft, sizeof perft, "d%d %llu", r.perft_depth,
                     (unsigned long long)r.perft_nodes);
            char ab[32];
            snprintf(ab, sizeof ab, "d%d %lld", r.ab_depth, r.ab.count);
            printf("%-50s %14s %9.2f | %9.0f | %9.0f %6.0f | %13s %9.0f\n", r.spec, perft,
                   prate / 1e6, grate, mrate, mbytes, ab, abrate);
        }
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
        double rate = sv[i].seconds > 0 ? (double)sv[i].nodes / sv[i].seconds : 0;
        total += sv[i].nodes;
        if (json) {
            json_open(&j, NULL, '{');
            json_str(&j, "solver", sv[i].name);
            json_int(&j, "instances", sv[i].instances);
            json_int(&j, "total_length", sv[i].total_length);
            json_u64(&j, "nodes", sv[i].nodes);
            json_num(&j, "seconds", "%.6f", sv[i].seconds);
            json_num(&j, "nodes_per_second", "%.0f", rate);
            json_close(&j);
        } else
            printf("%-50s %9d %7ld %14llu %9.2f\n", sv[i].name, sv[i].instances, sv[i].total_length,
                   (unsigned long long)sv[i].nodes, rate / 1e6);
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
