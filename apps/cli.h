/* cli.h — what the `hoyle` subcommands share.
 *
 * Each subcommand is one cmd_*.c file with `int cmd_x(int argc, char **argv)`
 * (argv[0] is the subcommand name) listed in main.c's table. Conventions
 * (DESIGN.md, "Command-line conventions"): results to stdout as a table, or
 * one JSON object with --json; progress to stderr; exit 0 success, 1 the job
 * failed, 2 bad usage or bad input with a one-line message on stderr. */
#ifndef HOYLE_APPS_CLI_H
#define HOYLE_APPS_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "apps/cli_opts.h"
#include "core/json.h"
#include "games/game.h"

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

/* Print "hoyle CMD: message" to stderr and return EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Print "hoyle CMD: <hoyle_last_error()>" and return `exit_code`. */
int cli_fail(const char *cmd, int exit_code);

/* True when argv[i] is -h or --help. */
bool cli_is_help(const char *arg);

/* Parse a non-negative integer (a positional named `option`) through the settings checker
 * (param_value); on error prints "hoyle CMD: OPTION: 'TEXT' is not an integer" (or "-3 is
 * less than 0") and returns -1. */
int cli_parse_u64(const char *cmd, const char *option, const char *text, uint64_t *out);

/* Create a game from its spec, printing the error on failure (returns NULL). */
const game_t *cli_game(const char *cmd, const char *spec);

/* The arguments of a command run from a YAML config (tournament, train):
 * CONFIG.yaml, --set key=value (repeatable), --json, --quiet, --help. */
#define CLI_MAX_SETS 64
typedef struct cli_config_args {
    const char *path;
    char *sets[CLI_MAX_SETS]; /* borrowed from argv */
    int num_sets;
    bool json, quiet;
    bool external_actors; /* train only: --external-actors */
} cli_config_args_t;

/* Parse them into *out with the shared parser (cli_opts.h): CLI_CONTINUE,
 * EXIT_OK after printing `help`, or EXIT_USAGE after the error. */
int cli_config_args(const char *cmd, const char *help, int argc, char **argv,
                    cli_config_args_t *out);

/* `hoyle CMD --keys`: a config schema as the Markdown table of the docs (params_markdown),
 * on stdout; EXIT_OK, or EXIT_FAILED when it does not fit the buffer. */
int cli_print_keys(const param_def_t *schema);

/* Print "\nAgents:" and every agent kind with its parameters (for --help). */
void cli_print_agent_kinds(void);

/* Subcommands. */
int cmd_games(int argc, char **argv);
int cmd_agents(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_random(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_tournament(int argc, char **argv);
int cmd_study(int argc, char **argv);
int cmd_elo(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_sprt(int argc, char **argv);
int cmd_selfplay(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_uci(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_tablebase(int argc, char **argv);
int cmd_accuracy(int argc, char **argv);
int cmd_serve(int argc, char **argv);

/* The game families of `hoyle solve` (apps/solve_*.c, listed in cmd_solve.c):
 * each takes the whole command line, argv[1] being GAME. */
int solve_solitaire(int argc, char **argv);
int solve_fifteen(int argc, char **argv);
int solve_thirtyfour(int argc, char **argv);
int solve_tables(int argc, char **argv);
int solve_prover(int argc, char **argv);

/* `hoyle elo` (report = 0) and `hoyle report` (report = 1): ratings and
 * tables from stored record files (cmd_elo.c). */
int cli_ratings(int argc, char **argv, int report);

#endif
