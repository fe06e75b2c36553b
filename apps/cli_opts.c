/* cli_opts.c — the table-driven option parser of the subcommands
 * (cli_opts.h). Invariant: a parse that fails prints exactly one line. */
#include "apps/cli_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/error.h"
#include "core/spec.h"

static const cli_opt_t *find_opt(const cli_opt_t *opts, const char *name)
{
    for (int i = 0; opts && opts[i].name; i++)
        if (strcmp(opts[i].name, name) == 0) return &opts[i];
    return NULL;
}

/* The option's value as a settings row (core/spec.h): min < max marks a ranged option, a
 * zeroed range means any value of the C type; CLI_NO_MAX reads "at least min". */
static param_def_t option_row(const cli_opt_t *o)
{
    bool ranged = o->min < o->max;
    param_def_t d = {.key = o->name, .type = o->kind == CLI_DOUBLE ? PARAM_DOUBLE : PARAM_INT};
    d.min = ranged ? o->min : o->kind == CLI_INT ? -2147483647.0 : o->kind == CLI_U64 ? 0 : -1e308;
    d.max = ranged ? o->max : o->kind == CLI_INT ? 2147483647.0 : 1e308;
    return d;
}

/* Store the value `text` of option `o`; EXIT_USAGE after the message, worded as a spec's or
 * a config's value is (param_value): `--games: 0 is out of range [1, 1000000]`. */
static int store(const char *cmd, const cli_opt_t *o, const char *text)
{
    param_def_t row = option_row(o);
    double v = 0;
    switch (o->kind) {
    case CLI_U64: {
        uint64_t u;
        if (cli_parse_u64(cmd, o->name, text, &u)) return EXIT_USAGE;
        if ((double)u > row.max && param_value(&row, NULL, text, o->name, &v))
            return cli_usage_error(cmd, "%s", hoyle_last_error());
        if ((double)u < row.min && param_value(&row, NULL, text, o->name, &v))
            return cli_usage_error(cmd, "%s", hoyle_last_error());
        *(uint64_t *)o->dst = u;
        return EXIT_OK;
    }
    case CLI_INT:
    case CLI_DOUBLE:
        if (param_value(&row, NULL, text, o->name, &v))
            return cli_usage_error(cmd, "%s", hoyle_last_error());
        if (o->kind == CLI_INT)
            *(int *)o->dst = (int)v;
        else
            *(double *)o->dst = v;
        return EXIT_OK;
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

static const char *option_name_at(const void *opts, int i)
{
    const cli_opt_t *o = opts;
    for (int j = 0; j < i; j++)
        if (o[j].name == NULL) return NULL;
    return o[i].name;
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
            const char *near = o ? NULL : spec_nearest(a, option_name_at, c->opts);
            if (o == NULL && near)
                return cli_usage_error(
                    c->name, "unknown option '%s' (did you mean '%s'? try --help)", a, near);
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
