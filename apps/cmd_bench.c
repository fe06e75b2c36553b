/* cmd_bench.c — `hoyle bench`: deterministic speed figures for every game
 * variant (STYLE.md point 13). Fixed seeds and fixed work per item, so the
 * closing node count is a signature that changes only when behaviour does;
 * the rates vary with the machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/clock.h"
#include "core/progress.h"
#include "core/rng.h"
#include "eval/elo.h"
#include "games/registry.h"
#include "mcts/bench.h"
#include "mcts/mcts.h"
#include "solve/bench.h"

static const char help[] =
    "usage: hoyle bench [--games 'SPEC;SPEC...' | --solvers | --elo] [--json]\n\n"
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
    "Then what the generic path costs: for each game item with its own fast\n"
    "perft, the generic perft (the game contract: legal actions, copy, apply,\n"
    "legal_count at the last ply) to the same depth, and its time over the\n"
    "fast one's. Last, the Elo fit of 1,000,000 synthetic games among 200\n"
    "players (seeded, drawn from the Elo model itself); --elo runs only it,\n"
    "--games and --solvers skip it. These two sections print their own counts\n"
    "and stay out of the closing total.\n"
    "--mcts SIMS runs only MCTS searches of SIMS simulations (default games\n"
    "checkers and chess), on 1 and 2 threads (--threads LIST), each --repeat\n"
    "times, interleaved, and prints sims/s, tree bytes per simulation and the\n"
    "speedup over one thread side by side (not deterministic with threads > 1);\n"
    "--parallel tree,root adds root parallelism's rows (one tree per thread,\n"
    "merged at the root) after tree parallelism's, in the same rounds.\n"
    "One line per game with counts and rates; the last line is the total node\n"
    "count (perft leaves + random actions + simulations + alpha-beta nodes +\n"
    "solver nodes), a signature of behaviour, not of speed. A progress line\n"
    "(items done, ETA)"
    " goes to stderr.\n";

/* ---- the contract items (issue 35): what the generic path costs ---- */

/* For each game item whose game has its own fast perft, the generic perft
 * (game_perft_generic: the path searches, agents and Python use: legal
 * actions, copy, apply, and the legal_count slot's bulk count at the last
 * ply) to the depth the fast one reached, and the fast/generic ratio. Both
 * count the same leaves (a line says so where they do not). */
static void bench_contract(const char *const *specs, const int *depths, int n, json_t *j)
{
    bool header = false;
    if (j) json_open(j, "contract", '[');
    for (int i = 0; i < n; i++) {
        const game_t *g = NULL;
        if (depths[i] <= 0 || game_create(specs[i], &g)) continue;
        void *s = malloc(g->state_size);
        if (!game_has_fast_perft(g) || s == NULL) {
            free(s);
            game_free(g);
            continue;
        }
        game_init(g, s);
        double t0 = clock_seconds();
        uint64_t fast = game_perft(g, s, depths[i]);
        double fast_s = clock_seconds() - t0;
        t0 = clock_seconds();
        uint64_t nodes = game_perft_generic(g, s, depths[i]);
        double secs = clock_seconds() - t0;
        double rate = secs > 0 ? (double)nodes / secs : 0;
        double ratio = secs > 0 && fast_s > 0 ? secs / fast_s : 0;
        if (j) {
            json_open(j, NULL, '{');
            json_str(j, "game", g->spec);
            json_int(j, "perft_depth", depths[i]);
            json_u64(j, "generic_perft_nodes", nodes);
            json_num(j, "generic_perft_seconds", "%.6f", secs);
            json_num(j, "generic_perft_nodes_per_second", "%.0f", rate);
            json_num(j, "fast_perft_seconds", "%.6f", fast_s);
            json_num(j, "generic_over_fast_seconds", "%.2f", ratio);
            json_close(j);
        } else {
            if (!header)
                printf("%-50s %14s %9s %13s\n", "generic perft (the contract)", "perft", "Mnodes/s",
                       "x fast's time");
            header = true;
            char perft[32];
            snprintf(perft, sizeof perft, "d%d %llu", depths[i], (unsigned long long)nodes);
            printf("%-50s %14s %9.2f %13.2f%s\n", g->spec, perft, rate / 1e6, ratio,
                   nodes == fast ? "" : "  (differs from the fast perft!)");
            fflush(stdout);
        }
        free(s);
        game_free(g);
    }
    if (j) json_close(j);
}

/* The Elo fit on a synthetic file of BENCH_ELO_GAMES games among
 * BENCH_ELO_PLAYERS players (issue 35): seeded true ratings, pairings and
 * results drawn from the model itself (elo_model_probs), then elo_fit with
 * the defaults `hoyle elo` uses; the fit's iterations are its count. */
enum { BENCH_ELO_PLAYERS = 200, BENCH_ELO_GAMES = 1000000 };

static int bench_elo(json_t *j)
{
    elo_game_t *games = malloc(sizeof *games * BENCH_ELO_GAMES);
    char(*names)[8] = malloc(sizeof *names * BENCH_ELO_PLAYERS);
    const char **np = malloc(sizeof *np * BENCH_ELO_PLAYERS);
    double *truth = malloc(sizeof *truth * BENCH_ELO_PLAYERS);
    if (!games || !names || !np || !truth) {
        free(games), free(names), free(np), free(truth);
        return hoyle_error(HOYLE_ENOMEM, "bench: out of memory");
    }
    rng_t rng;
    rng_init(&rng, 0x656c6f); /* "elo" */
    for (int i = 0; i < BENCH_ELO_PLAYERS; i++) {
        snprintf(names[i], sizeof names[i], "p%03d", i);
        np[i] = names[i];
        truth[i] = 800.0 * rng_double(&rng) - 400.0;
    }
    for (size_t k = 0; k < BENCH_ELO_GAMES; k++) {
        int w = (int)rng_below(&rng, BENCH_ELO_PLAYERS);
        int b = (int)rng_below(&rng, BENCH_ELO_PLAYERS - 1);
        if (b >= w) b++;
        double pw, pd, pl, u = rng_double(&rng);
        elo_model_probs(truth[w] - truth[b], 30.0, 100.0, &pw, &pd, &pl);
        double score = u < pw ? 1.0 : u < pw + pd ? 0.5 : 0.0;
        games[k] = (elo_game_t){.white = w, .black = b, .score = score};
    }
    elo_input_t in = {
        .n_players = BENCH_ELO_PLAYERS, .names = np, .games = games, .n_games = BENCH_ELO_GAMES};
    elo_result_t *r = NULL;
    double t0 = clock_seconds();
    int status = elo_fit(&in, NULL, &r);
    double secs = clock_seconds() - t0;
    if (status == HOYLE_OK) {
        double rate = secs > 0 ? BENCH_ELO_GAMES / secs : 0;
        if (j) {
            json_open(j, "elo", '[');
            json_open(j, NULL, '{');
            json_str(j, "item", "elo fit");
            json_int(j, "players", BENCH_ELO_PLAYERS);
            json_int(j, "fit_games", BENCH_ELO_GAMES);
            json_int(j, "iterations", r->iterations);
            json_num(j, "seconds", "%.6f", secs);
            json_num(j, "fit_games_per_second", "%.0f", rate);
            json_close(j);
            json_close(j);
        } else {
            printf("%-50s %9s %10s %9s %9s\n", "elo fit (synthetic)", "players", "games", "iter",
                   "s");
            printf("%-50s %9d %10d %9d %9.3f\n", "bench(players=200,games=1000000)",
                   BENCH_ELO_PLAYERS, BENCH_ELO_GAMES, r->iterations, secs);
        }
    }
    elo_result_free(r);
    free(games), free(names), free(np), free(truth);
    return status;
}

/* `hoyle bench --mcts SIMS`: the MCTS scaling table (its own function, apart
 * from the deterministic items). Each round runs every thread count once, in
 * order, so a load that changes during the run weighs on all of them alike;
 * a row's rate is its total simulations over its total seconds. */
/* The rows of the scaling table: --parallel's modes (tree, root) times
 * --threads' counts, at most 16; 0 rows after a usage error (message printed). */
static int scaling_rows(const char *thread_list, const char *parallel_list, int *threads,
                        bool *root)
{
    int counts[8], nt = 0, n = 0;
    char *list = strdup(thread_list), *save = NULL;
    for (char *t = strtok_r(list, ",", &save); t && nt < 8; t = strtok_r(NULL, ",", &save)) {
        char *end;
        long v = strtol(t, &end, 10);
        if (*end != '\0' || v < 1 || v > MCTS_MAX_THREADS) {
            cli_usage_error("bench", "--threads: '%s' is not a thread count in [1, %d]", t,
                            MCTS_MAX_THREADS);
            free(list);
            return 0;
        }
        counts[nt++] = (int)v;
    }
    free(list);
    if (nt == 0) return cli_usage_error("bench", "--threads: no thread count"), 0;
    list = strdup(parallel_list);
    for (char *t = strtok_r(list, ",", &save); t && n < 16; t = strtok_r(NULL, ",", &save)) {
        if (strcmp(t, "tree") != 0 && strcmp(t, "root") != 0) {
            cli_usage_error("bench", "--parallel: '%s' is not tree or root", t);
            free(list);
            return 0;
        }
        for (int i = 0; i < nt && n < 16; i++, n++) {
            threads[n] = counts[i];
            root[n] = strcmp(t, "root") == 0;
        }
    }
    free(list);
    if (n == 0) cli_usage_error("bench", "--parallel: no mode");
    return n;
}

static int bench_mcts_scaling(const char *games, long long sims, const char *thread_list,
                              const char *parallel_list, int repeat, bool json)
{
    int threads[16];
    bool root[16];
    int nt = scaling_rows(thread_list, parallel_list, threads, root);
    if (nt == 0) return EXIT_USAGE;
    char *save = NULL;
    char *copy = strdup(games ? games : "checkers;chess");
    json_t j;
    if (json) {
        json_begin(&j, stdout);
        json_int(&j, "sims", sims);
        json_int(&j, "repeat", repeat);
        json_open(&j, "mcts", '[');
    } else
        printf("%-40s %8s %7s %10s %10s %12s %12s %8s %8s\n", "game", "parallel", "threads",
               "sims/s", "speedup", "tree nodes", "tree edges", "B/sim", "cap");
    int code = EXIT_OK;
    for (char *spec = strtok_r(copy, ";", &save); spec && code == EXIT_OK;
         spec = strtok_r(NULL, ";", &save)) {
        const game_t *g = NULL;
        if (game_create(spec, &g)) {
            code = cli_fail("bench", EXIT_USAGE);
            break;
        }
        double secs[16] = {0};
        long long done[16] = {0};
        bench_search_t last[16];
        for (int round = 0; round < repeat && code == EXIT_OK; round++)
            for (int i = 0; i < nt; i++) {
                if (bench_mcts_parallel(g, sims, threads[i], root[i], 0, 1 + (uint64_t)round,
                                        &last[i])) {
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
                json_str(&j, "parallel", root[i] ? "root" : "tree");
                json_num(&j, "sims_per_second", "%.0f", rate);
                json_num(&j, "speedup", "%.3f", base > 0 ? rate / base : 0);
                json_u64(&j, "tree_nodes", last[i].tree_nodes);
                json_u64(&j, "tree_edges", last[i].tree_edges);
                json_num(&j, "bytes_per_sim", "%.1f", bps);
                json_bool(&j, "node_cap_reached", last[i].node_cap);
                json_close(&j);
            } else
                printf("%-40s %8s %7d %10.0f %9.2fx %12zu %12zu %8.1f %8s\n", g->spec,
                       root[i] ? "root" : "tree", threads[i], rate, base > 0 ? rate / base : 0,
                       last[i].tree_nodes, last[i].tree_edges, bps,
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
/* One game's line (or object): perft, random games, MCTS simulations, alpha-beta nodes. */
static void report_item(json_t *j, bool json, const bench_item_t *r)
{
    double prate = r->perft_seconds > 0 ? (double)r->perft_nodes / r->perft_seconds : 0;
    double grate = r->random_seconds > 0 ? (double)r->random.games / r->random_seconds : 0;
    double arate = r->random_seconds > 0 ? (double)r->random.actions / r->random_seconds : 0;
    double mrate = r->mcts.seconds > 0 ? (double)r->mcts.count / r->mcts.seconds : 0;
    double mbytes = r->mcts.count > 0 ? (double)r->mcts.tree_bytes / (double)r->mcts.count : 0;
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
        json_num(j, "mcts_bytes_per_sim", "%.1f", mbytes);
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
    printf("%-50s %14s %9.2f | %9.0f | %9.0f %6.0f | %13s %9.0f\n", r->spec, perft, prate / 1e6,
           grate, mrate, mbytes, ab, abrate);
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
    bool solvers_only = false, elo_only = false;
    uint64_t mcts_sims = 0;
    const char *thread_list = NULL, *parallel_list = NULL;
    int repeat = 0;
    const cli_opt_t opts[] = {
        CLI_OPT("--mcts", &mcts_sims, "SIMS",
                "only MCTS searches of SIMS simulations (threads side by side)", .min = 1,
                .max = 1e9),
        CLI_OPT("--threads", &thread_list, "LIST", "with --mcts: thread counts", .def = "1,2"),
        CLI_OPT("--parallel", &parallel_list, "LIST",
                "with --mcts: tree, root or tree,root (root parallelism's rows)", .def = "tree"),
        CLI_OPT("--repeat", &repeat, "R", "with --mcts: rounds", .def = "1", .min = 1, .max = 1000),
        CLI_OPT_FLAG("--solvers", &solvers_only, "only the solver items"),
        CLI_OPT_FLAG("--elo", &elo_only, "only the Elo fit item"),
        CLI_OPT("--games", &only, "'SPEC;SPEC'", "only these games (default: all)"),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    const cli_command_t command = {.name = "bench", .help = help, .opts = opts};
    int rc = cli_parse(&command, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (mcts_sims > 0) {
        if (solvers_only)
            return cli_usage_error("bench", "--mcts and --solvers exclude each other");
        return bench_mcts_scaling(only, (long long)mcts_sims, thread_list, parallel_list, repeat,
                                  json);
    }
    /* The list of specs: the registry's variants, or --games split on ';'. */
    /* At most 64 items: further variants or --games entries are ignored
     * rather than overflowing specs[]. */
    const char *specs[64];
    int n = 0;
    char *copy = NULL;
    if (solvers_only + elo_only + (only != NULL) > 1)
        return cli_usage_error("bench", "--games, --solvers and --elo exclude each other");
    if (solvers_only || elo_only) {
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
    int depths[64];
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
        total += bench_item_nodes(&r);
        depths[i] = r.perft_depth;
        progress_clear(&pg); /* stdout and stderr may share a terminal */
        report_item(&j, json, &r);
        /* Flushed per line: a full bench takes minutes, and a pipe would
         * otherwise show nothing until the end. */
        fflush(stdout);
        char extra[GAME_SPEC_MAX + 8];
        snprintf(extra, sizeof extra, "last %s", r.spec);
        progress_update(&pg, i + 1, n, extra, i + 1 == n);
    }
    if (json) json_close(&j);
    /* what the generic path costs, for the games above */
    bench_contract(specs, depths, n, json ? &j : NULL);
    /* the solver items, after the games (not with --games or --elo) */
    solve_bench_item_t sv[SOLVE_BENCH_ITEMS];
    int nsv = only || elo_only ? 0 : SOLVE_BENCH_ITEMS;
    if (nsv && solve_bench(sv)) {
        free(copy);
        return cli_fail("bench", EXIT_FAILED);
    }
    if (json) {
        json_open(&j, "solvers", '[');
    } else if (nsv)
        printf("%-50s %9s %7s %14s %9s\n", "solver", "instances", "length", "nodes", "Mnodes/s");
    for (int i = 0; i < nsv; i++) {
        total += sv[i].nodes;
        report_solver(&j, json, &sv[i]);
    }
    if (json) json_close(&j);
    /* the Elo fit (not with --games or --solvers) */
    if (!only && !solvers_only && bench_elo(json ? &j : NULL)) {
        free(copy);
        return cli_fail("bench", EXIT_FAILED);
    }
    if (json) {
        json_u64(&j, "nodes", total);
        json_end(&j);
    } else
        printf("%llu nodes\n", (unsigned long long)total);
    free(copy);
    return EXIT_OK;
}
