/* cli.c — shared helpers of the subcommands (see cli.h). */
#include "apps/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcts/agent.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "hoyle %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_USAGE;
}

int cli_fail(const char *cmd, int exit_code)
{
    fprintf(stderr, "hoyle %s: %s\n", cmd, hoyle_last_error());
    return exit_code;
}

bool cli_is_help(const char *arg) { return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0; }

int cli_parse_u64(const char *cmd, const char *option, const char *text, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    if (text == NULL || text[0] == '-' || text[0] == '\0') {
        cli_usage_error(cmd, "%s: expected a non-negative integer, got '%s'", option,
                        text ? text : "nothing");
        return -1;
    }
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end != '\0') {
        cli_usage_error(cmd, "%s: expected a non-negative integer, got '%s'", option, text);
        return -1;
    }
    *out = v;
    return 0;
}

const game_t *cli_game(const char *cmd, const char *spec)
{
    const game_t *g = NULL;
    if (game_create(spec, &g)) {
        cli_fail(cmd, EXIT_USAGE);
        return NULL;
    }
    return g;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cli_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

void cli_print_agent_kinds(void)
{
    static char buf[16384];
    if (agent_describe_kinds(buf, sizeof buf) < 0) return;
    printf("\nAgents:\n%s", buf);
}

int cli_config_args(const char *cmd, int argc, char **argv, cli_config_args_t *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            out->help = true;
            return EXIT_OK;
        } else if (strcmp(argv[i], "--set") == 0) {
            if (i + 1 >= argc) return cli_usage_error(cmd, "--set needs key=value");
            if (out->num_sets == CLI_MAX_SETS)
                return cli_usage_error(cmd, "too many --set options");
            out->sets[out->num_sets++] = argv[++i];
        } else if (strcmp(argv[i], "--json") == 0) {
            out->json = true;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            out->quiet = true;
        } else if (argv[i][0] == '-') {
            return cli_usage_error(cmd, "unknown option '%s' (try --help)", argv[i]);
        } else if (out->path == NULL) {
            out->path = argv[i];
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
        }
    }
    if (out->path == NULL) return cli_usage_error(cmd, "expected CONFIG.yaml (try --help)");
    return EXIT_OK;
}
