/* cmd_solve.c — `hoyle solve GAME ...`: the exact solver of the game's
 * family (one row of solve_families[] each, apps/solve_*.c), with --tables
 * endgame tables, with --prover proof-number search (any two-player game),
 * and, with --agent, any agent run N times on a one-player game (solved rate,
 * mean return, lengths) for comparing search algorithms with the exact answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/clock.h"
#include "core/rng.h"
#include "games/fifteen/fifteen.h"
#include "games/registry.h"
#include "games/solitaire/solitaire.h"
#include "games/thirtyfour/thirtyfour.h"
#include "mcts/agent.h"

/* What a family's end state measures besides its return (solitaire: the
 * marbles left), for the --agent table; NULL when nothing. */
typedef double (*solve_measure_fn)(const game_t *g, const void *state);

static double solitaire_marbles_left(const game_t *g, const void *state)
{
    (void)g;
    return (double)__builtin_popcountll(solitaire_state_pegs(state));
}

static double fifteen_distance_left(const game_t *g, const void *state)
{
    return (double)fifteen_distance(g, state);
}

static double thirtyfour_lines_missed(const game_t *g, const void *state)
{
    uint8_t cell[THIRTYFOUR_MAX_CELLS];
    thirtyfour_lines_t lines;
    thirtyfour_lines(thirtyfour_size(g), &lines);
    thirtyfour_board(g, state, cell);
    return (double)thirtyfour_deviation(&lines, cell);
}

/* One row per game family with a solver: `hoyle solve GAME ...` hands the
 * whole command line to `run` (argv[1] is GAME). */
static const struct solve_family {
    const char *family;
    int (*run)(int argc, char **argv);
    const char *measure_name; /* the --agent table's extra column, or NULL */
    solve_measure_fn measure;
} solve_families[] = {
    {"solitaire", solve_solitaire, "marbles left", solitaire_marbles_left},
    {"fifteen", solve_fifteen, "distance left", fifteen_distance_left},
    {"thirtyfour", solve_thirtyfour, "deviation", thirtyfour_lines_missed},
};
#define NUM_FAMILIES ((int)(sizeof solve_families / sizeof solve_families[0]))

static const char help[] =
    "usage: hoyle solve GAME [family options]\n"
    "       hoyle solve GAME --agent SPEC [--runs N] [--seed S] [--position P] [--json]\n"
    "       hoyle solve GAME --tables DIR --position P [--json]   (endgame tables)\n"
    "       hoyle solve GAME --prover dfpn|pns [--position P] [--nodes N] [--json]\n"
    "                                        (proof-number search, two players)\n\n"
    "Solve a game exactly with its family's solver (`hoyle solve GAME --help`\n"
    "for the family's options), or run an agent on a one-player game (a puzzle)\n"
    "N times (default 10), seeds derived from S (default 1) with rng_mix, and\n"
    "report how often it solves it (the best return, +1), the mean return, the\n"
    "mean number of actions and the family's own measure (solitaire: marbles\n"
    "left), and seconds per run. `hoyle match` is for two-player games.\n";

static void print_families(void)
{
    printf("\nFamilies with a solver:");
    for (int i = 0; i < NUM_FAMILIES; i++) printf(" %s", solve_families[i].family);
    printf("\n");
    cli_print_agent_kinds();
}

/* The --agent runner: exit 0 after the runs; 2 bad usage, spec, position or
 * a game with two players; 1 a run failed (out of memory). */
static int run_agent(int argc, char **argv, const struct solve_family *fam)
{
    const char *spec = NULL, *agent_spec_text = NULL, *position = NULL;
    uint64_t runs = 0, seed = 0; /* their rows give the defaults */
    bool json = false;
    const cli_opt_t opts[] = {
        CLI_OPT("--agent", &agent_spec_text, "SPEC", "the agent to run"),
        CLI_OPT("--runs", &runs, "N", "runs", .def = "10", .min = 1, .max = 1000000),
        CLI_OPT("--seed", &seed, "S", "seed the runs are derived from", .def = "1"),
        CLI_OPT_POSITION(&position),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    int rc = cli_parse_one("solve", help, opts, "GAME", print_families, &spec, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    const game_t *g = cli_game("solve", spec);
    if (g == NULL) return EXIT_USAGE;
    if (g->num_players != 1) {
        rc = cli_usage_error("solve", "--agent: %s is not a one-player game (use hoyle match)",
                             g->spec);
        game_free(g);
        return rc;
    }
    void *start = malloc(g->state_size), *s = malloc(g->state_size);
    agent_t *a = NULL;
    int32_t *actions = malloc(sizeof(int32_t) * (size_t)agent_game_capacity(g));
    game_init(g, start);
    rc = EXIT_OK;
    if (position && game_position_from_string(g, position, start)) rc = EXIT_USAGE;
    if (rc == EXIT_OK && agent_create(g, agent_spec_text, seed, &a)) rc = EXIT_USAGE;
    if (rc != EXIT_OK) cli_fail("solve", rc);
    uint64_t solved = 0;
    double sum_return = 0, sum_len = 0, sum_measure = 0, sum_seconds = 0;
    int best_len = 0;
    for (uint64_t i = 0; rc == EXIT_OK && i < runs; i++) {
        agent_game_result_t res;
        agent_game_opts_t o = {.start = start, .actions = actions};
        double t0 = clock_seconds();
        if (agent_reseed(a, rng_mix(seed + i)) || agent_play(g, &a, &o, &res)) {
            rc = cli_fail("solve", EXIT_FAILED);
            break;
        }
        sum_seconds += clock_seconds() - t0;
        memcpy(s, start, g->state_size);
        for (int k = 0; k < res.num_actions; k++) game_apply(g, s, actions[k]);
        bool ok = res.end == AGENT_GAME_RULES && res.returns[0] >= 1.0 - 1e-9;
        solved += ok;
        if (ok && (best_len == 0 || res.num_actions < best_len)) best_len = res.num_actions;
        sum_return += res.returns[0];
        sum_len += res.num_actions;
        if (fam && fam->measure) sum_measure += fam->measure(g, s);
    }
    if (rc == EXIT_OK) {
        double n = (double)runs;
        if (json) {
            json_t j;
            json_begin(&j, stdout);
            json_str(&j, "game", g->spec);
            json_str(&j, "agent", agent_spec(a));
            json_u64(&j, "runs", runs);
            json_u64(&j, "seed", seed);
            json_u64(&j, "solved", solved);
            json_num(&j, "mean_return", "%.4f", sum_return / n);
            json_num(&j, "mean_actions", "%.2f", sum_len / n);
            if (fam && fam->measure) json_num(&j, "mean_measure", "%.3f", sum_measure / n);
            if (fam && fam->measure) json_str(&j, "measure", fam->measure_name);
            json_num(&j, "seconds_per_run", "%.4f", sum_seconds / n);
            json_end(&j);
        } else {
            printf("%s on %s, %llu runs from seed %llu\n", agent_spec(a), g->spec,
                   (unsigned long long)runs, (unsigned long long)seed);
            printf("solved          %llu (%.1f%%)\n", (unsigned long long)solved,
                   100.0 * (double)solved / n);
            printf("mean return     %.4f\n", sum_return / n);
            printf("mean actions    %.2f\n", sum_len / n);
            if (fam && fam->measure)
                printf("mean %-10s %.3f\n", fam->measure_name, sum_measure / n);
            printf("seconds per run %.4f\n", sum_seconds / n);
        }
    }
    agent_free(a);
    free(actions);
    free(s);
    free(start);
    game_free(g);
    return rc;
}

int cmd_solve(int argc, char **argv)
{
    bool agent = false, tables = false, prover = false;
    for (int i = 1; i < argc; i++) agent |= strcmp(argv[i], "--agent") == 0;
    for (int i = 1; i < argc; i++) tables |= strcmp(argv[i], "--tables") == 0;
    for (int i = 1; i < argc; i++) prover |= strcmp(argv[i], "--prover") == 0;
    if (tables && !agent) return solve_tables(argc, argv);
    if (prover && !agent) return solve_prover(argc, argv);
    if (argc < 2 || (argv[1][0] == '-' && !agent)) {
        if (argc >= 2 && cli_is_help(argv[1])) {
            fputs(help, stdout);
            print_families();
            return EXIT_OK;
        }
        return cli_usage_error("solve", "expected GAME (try --help)");
    }
    /* the family is the spec's name: `solitaire(start=3)` is solitaire */
    char family[GAME_NAME_MAX] = "";
    size_t n = strcspn(argv[1], "(");
    if (argv[1][0] != '-' && n < sizeof family) memcpy(family, argv[1], n), family[n] = '\0';
    const struct solve_family *fam = NULL;
    for (int i = 0; i < NUM_FAMILIES; i++)
        if (strcmp(solve_families[i].family, family) == 0) fam = &solve_families[i];
    if (agent) return run_agent(argc, argv, fam);
    if (fam == NULL) {
        const game_t *g = cli_game("solve", argv[1]);
        if (g == NULL) return EXIT_USAGE;
        game_free(g);
        return cli_usage_error("solve", "no solver for %s (try --help); --agent runs an agent",
                               family);
    }
    return fam->run(argc, argv);
}
