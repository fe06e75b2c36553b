/* cli_opts.c — the table-driven option parser of the subcommands
 * (cli_opts.h). Invariant: a parse that fails prints exactly one line. */
#include "apps/cli_opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"

static const cli_opt_t *find_opt(const cli_opt_t *opts, const char *name)
{
    for (int i = 0; opts && opts[i].name; i++)
        if (strcmp(opts[i].name, name) == 0) return &opts[i];
    return NULL;
}

/* min < max marks a ranged option; a zeroed range means "any value". */
static bool has_range(const cli_opt_t *o) { return o->min < o->max; }

static int out_of_range(const char *cmd, const cli_opt_t *o, const char *text)
{
    /* CLI_NO_MAX as max means "at least min": the message says so instead of
     * printing a huge upper bound. */
    if (o->max >= CLI_NO_MAX)
        return cli_usage_error(cmd, "%s: %s is less than %.0f", o->name, text, o->min);
    if (o->kind == CLI_DOUBLE)
        return cli_usage_error(cmd, "%s: %s is not in [%g, %g]", o->name, text, o->min, o->max);
    return cli_usage_error(cmd, "%s: %s is not in [%.0f, %.0f]", o->name, text, o->min, o->max);
}

/* Store the value `text` of option `o`; EXIT_USAGE after the message. */
static int store(const char *cmd, const cli_opt_t *o, const char *text)
{
    char *end = NULL;
    errno = 0;
    switch (o->kind) {
    case CLI_U64: {
        uint64_t v;
        if (cli_parse_u64(cmd, o->name, text, &v)) return EXIT_USAGE;
        if (has_range(o) && ((double)v < o->min || (double)v > o->max))
            return out_of_range(cmd, o, text);
        *(uint64_t *)o->dst = v;
        return EXIT_OK;
    }
    case CLI_INT: {
        long long v = strtoll(text, &end, 10);
        /* Kept to the int range before the cast so an overlong number is an error,
         * not a wrapped value. */
        if (errno || end == text || *end || v < -2147483647LL || v > 2147483647LL)
            return cli_usage_error(cmd, "%s: '%s' is not an integer", o->name, text);
        if (has_range(o) && ((double)v < o->min || (double)v > o->max))
            return out_of_range(cmd, o, text);
        *(int *)o->dst = (int)v;
        return EXIT_OK;
    }
    case CLI_DOUBLE: {
        double v = strtod(text, &end);
        if (errno || end == text || *end)
            return cli_usage_error(cmd, "%s: '%s' is not a number", o->name, text);
        if (has_range(o) && (v < o->min || v > o->max)) return out_of_range(cmd, o, text);
        *(double *)o->dst = v;
        return EXIT_OK;
    }
    /* Strings are borrowed from argv, which outlives the command. */
    case CLI_STRING: *(const char **)o->dst = text; return EXIT_OK;
    case CLI_LIST:
        /* For lists, max is the capacity of the caller's array. */
        if (*o->count >= (int)o->max)
            return cli_usage_error(cmd, "%s: more than %.0f given", o->name, o->max);
        ((const char **)o->dst)[(*o->count)++] = text;
        return EXIT_OK;
    case CLI_FLAG: break;
    }
    *(bool *)o->dst = true;
    return EXIT_OK;
}

void cli_print_options(const cli_opt_t *opts)
{
    if (opts == NULL || opts[0].name == NULL) return;
    printf("\nOptions:\n");
    for (int i = 0; opts[i].name; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s%s%s", opts[i].name, opts[i].value ? " " : "",
                 opts[i].value ? opts[i].value : "");
        printf("  %-18s %s\n", left, opts[i].help ? opts[i].help : "");
    }
    printf("  %-18s %s\n", "-h, --help", "this text");
}

/* An option, not a positional: "-x", "--x", but not "-" or "-3". */
/* Leading "-" followed by a digit or "." is a negative number, so
 * `--min -0.5` or a positional "-3" is not taken for an option. */
static bool is_option(const char *a)
{
    return a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.';
}

int cli_parse(const cli_command_t *c, int argc, char **argv)
{
    int npos = 0;
    /* Help is looked for first, anywhere on the line: `cmd --bad --help` shows
     * the help instead of complaining about --bad. */
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            fputs(c->help, stdout);
            cli_print_options(c->opts);
            if (c->more_help) c->more_help();
            return EXIT_OK;
        }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (is_option(a)) {
            const cli_opt_t *o = find_opt(c->opts, a);
            if (o == NULL) return cli_usage_error(c->name, "unknown option '%s' (try --help)", a);
            if (o->kind != CLI_FLAG && i + 1 >= argc)
                return cli_usage_error(c->name, "%s needs a value", a);
            if (store(c->name, o, o->kind == CLI_FLAG ? NULL : argv[++i])) return EXIT_USAGE;
        } else if (npos < c->max_pos) {
            c->pos[npos++] = a;
        } else {
            return cli_usage_error(c->name, "unexpected argument '%s'", a);
        }
    }
    if (npos < c->min_pos)
        return cli_usage_error(c->name, "expected %s (try --help)", c->positional);
    if (c->num_pos) *c->num_pos = npos;
    /* CLI_CONTINUE: parsed, the command should run; anything else is the exit
     * code to return at once (EXIT_OK after help, EXIT_USAGE after a message). */
    return CLI_CONTINUE;
}

int cli_parse_one(const char *name, const char *help, const cli_opt_t *opts, const char *what,
                  void (*more_help)(void), const char **pos, int argc, char **argv)
{
    const cli_command_t command = {.name = name,
                                   .help = help,
                                   .opts = opts,
                                   .positional = what,
                                   .min_pos = 1,
                                   .max_pos = 1,
                                   .pos = pos,
                                   .more_help = more_help};
    return cli_parse(&command, argc, argv);
}
