/* cli.c — shared helpers of the subcommands (see cli.h).
 * Every error path prints one line, "hoyle CMD: reason", on stderr and
 * returns the exit code to end with: EXIT_USAGE (2) for bad usage or bad
 * input, EXIT_FAILED (1) when a well-formed job fails. */
#include "apps/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcts/agent.h"

/* Through hoyle_error, the one place that escapes control characters, so
 * user input quoted here (an option, a path) cannot break the line.
 * Returns EXIT_USAGE so callers can `return cli_usage_error(...)`. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char text[HOYLE_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    if (vsnprintf(text, sizeof text, fmt, ap) < 0) text[0] = '\0';
    va_end(ap);
    hoyle_error(HOYLE_EINVAL, "%s", text);
    return cli_fail(cmd, EXIT_USAGE);
}

/* The reason is the library's last error (core/error.h); the caller picks
 * the exit code, since the same failure can be usage or job. */
int cli_fail(const char *cmd, int exit_code)
{
    fprintf(stderr, "hoyle %s: %s\n", cmd, hoyle_last_error());
    return exit_code;
}

bool cli_is_help(const char *arg) { return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0; }

int cli_parse_u64(const char *cmd, const char *option, const char *text, uint64_t *out)
{
    /* The one value checker (core/spec.h), so a positional reads like an option: "-1" is
     * refused as less than 0, never wrapped to 2^64 - 1. */
    const param_def_t row = {.key = option, .type = PARAM_INT, .min = 0, .max = CLI_NO_MAX};
    double v = 0;
    if (param_value(&row, NULL, text ? text : "", option, &v)) {
        cli_fail(cmd, EXIT_USAGE);
        return -1;
    }
    *out = strtoull(text, NULL, 10); /* exact past 2^53 */
    return 0;
}

/* A game spec the registry rejects is the user's input, hence EXIT_USAGE. */
const game_t *cli_game(const char *cmd, const char *spec)
{
    const game_t *g = NULL;
    if (game_create(spec, &g)) {
        cli_fail(cmd, EXIT_USAGE);
        return NULL;
    }
    return g;
}

/* Static: the kind list is printed once per --help, and 16 KiB holds it;
 * a list that does not fit is left out rather than printed cut. */

int cli_print_keys(const param_def_t *schema)
{
    static char table[65536];
    if (params_markdown(schema, "", table, sizeof table) < 0) return cli_fail("keys", EXIT_FAILED);
    fputs(table, stdout);
    return EXIT_OK;
}

void cli_print_agent_kinds(void)
{
    static char buf[16384];
    if (agent_describe_kinds(buf, sizeof buf) < 0) return;
    printf("\nAgents:\n%s", buf);
}

int cli_config_args(const char *cmd, const char *help, int argc, char **argv,
                    cli_config_args_t *out)
{
    memset(out, 0, sizeof *out);
    cli_opt_t opts[] = {
        CLI_OPT_LIST("--set", (const char **)out->sets, &out->num_sets, CLI_MAX_SETS, "key=value",
                     "override a config key (repeatable)"),
        CLI_OPT_FLAG("--json", &out->json, "one JSON object on stdout"),
        CLI_OPT_FLAG("--quiet", &out->quiet, "no progress lines on stderr"),
        CLI_OPT_FLAG("--external-actors", &out->external_actors,
                     "self-play by `hoyle selfplay --model-dir RUN` processes (docs/scaling.md)"),
        CLI_OPT_END,
    };
    /* --external-actors is train's alone: the table ends before it for the other commands */
    if (strcmp(cmd, "train") != 0) opts[3] = (cli_opt_t)CLI_OPT_END;
    return cli_parse_one(cmd, help, opts, "CONFIG.yaml", NULL, &out->path, argc, argv);
}
