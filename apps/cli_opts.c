/* cli_opts.c — the table-driven option parser of the subcommands (cli_opts.h). An option
 * is a settings row (core/spec.h): its values are checked by param_value, its unknown names
 * reported by spec_unknown and its help printed from the row, as a spec's or a config's are.
 * Invariant: a parse that fails prints exactly one line. */
#include "apps/cli_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/error.h"

static const cli_opt_t *find_opt(const cli_opt_t *opts, const char *name)
{
    for (int i = 0; opts && opts[i].row.key; i++)
        if (strcmp(opts[i].row.key, name) == 0) return &opts[i];
    return NULL;
}

/* The row as param_value checks it: a number row without a range takes its C type's. */
static param_def_t checked_row(const cli_opt_t *o)
{
    param_def_t d = o->row;
    if (d.min < d.max || (d.type != PARAM_INT && d.type != PARAM_DOUBLE)) return d;
    d.min = d.type == PARAM_DOUBLE ? -1e308 : d.size == sizeof(int) ? -2147483647.0 : 0;
    d.max = d.type == PARAM_DOUBLE ? 1e308 : d.size == sizeof(int) ? 2147483647.0 : 0x1p64;
    return d;
}

/* Check `text` against option o's row and land it; EXIT_USAGE after the one-line message,
 * worded as a spec's or a config's value is: `--games: 0 is out of range [1, 1000000]`. */
static int store(const char *cmd, const cli_opt_t *o, const char *text)
{
    param_def_t row = checked_row(o);
    double v = 0;
    if (row.type == PARAM_BOOL && o->value == NULL) { /* a flag */
        *(bool *)o->dst = true;
        return EXIT_OK;
    }
    if (row.type == PARAM_LIST) {
        /* For lists, max is the capacity of the caller's array. */
        if (*o->count >= (int)row.max)
            return cli_usage_error(cmd, "%s: more than %.0f given", row.key, row.max);
        ((const char **)o->dst)[(*o->count)++] = text;
        return EXIT_OK;
    }
    if (param_value(&row, NULL, text, row.key, &v))
        return cli_usage_error(cmd, "%s", hoyle_last_error());
    if (row.type == PARAM_STRING || row.type == PARAM_CHOICE)
        *(const char **)o->dst = text; /* borrowed from argv (or the row), which outlive the
                                          command */
    else if (row.type == PARAM_INT && row.size == sizeof(uint64_t))
        *(uint64_t *)o->dst = strtoull(text, NULL, 10); /* exact past 2^53; checked above */
    else
        param_store(&row, v, text, o->dst);
    return EXIT_OK;
}

static const char *option_name_at(const void *opts, int i)
{
    const cli_opt_t *o = opts;
    for (int j = 0; j < i; j++)
        if (o[j].row.key == NULL) return NULL;
    return o[i].row.key;
}

/* "--games N": an option's left column. */
static int left_text(const cli_opt_t *o, char *buf, size_t cap)
{
    const char *value = o->value ? o->value : "";
    return snprintf(buf, cap, "%s%s%s", o->row.key, value[0] ? " " : "", value);
}

/* One option's help line: the row's help, its range or choices, units and default. */
static void print_option(const cli_opt_t *o, int width)
{
    const param_def_t *d = &o->row;
    char left[64], range[160] = "", units[40] = "", def[SPEC_VALUE_MAX + 16] = "";
    left_text(o, left, sizeof left);
    if (d->type == PARAM_CHOICE ||
        ((d->type == PARAM_INT || d->type == PARAM_DOUBLE) && d->min < d->max))
        param_range_text(d, range, sizeof range);
    if (d->units) snprintf(units, sizeof units, " %s", d->units);
    if (d->def) snprintf(def, sizeof def, " (default %s)", d->def);
    printf("  %-*s %s%s%s%s\n", width, left, d->help ? d->help : "", range, units, def);
}

void cli_print_options(const cli_opt_t *opts)
{
    if (opts == NULL || opts[0].row.key == NULL) return;
    int width = 18; /* the widest left column, at least 18 */
    for (int i = 0; opts[i].row.key; i++) {
        char left[64];
        int w = left_text(&opts[i], left, sizeof left);
        if (w > width) width = w;
    }
    printf("\nOptions:\n");
    for (int i = 0; opts[i].row.key; i++) print_option(&opts[i], width);
    printf("  %-*s %s\n", width, "-h, --help", "this text");
    printf("  %-*s %s\n", width, "--help-markdown", "these options as a Markdown table (the docs)");
}

/* `--help-markdown`: the rows as the docs' table (params_markdown), the same printer as
 * `hoyle train --keys` and `hoyle agents --markdown`. */
static int print_markdown(const char *cmd, const cli_opt_t *opts)
{
    param_def_t rows[SPEC_MAX_PARAMS + 1] = {{0}};
    static char table[32768];
    int n = 0;
    for (; opts && opts[n].row.key; n++) {
        if (n == SPEC_MAX_PARAMS)
            return cli_usage_error(cmd, "more than %d options", SPEC_MAX_PARAMS);
        rows[n] = opts[n].row;
    }
    if (params_markdown(rows, "", table, sizeof table) < 0) return cli_fail(cmd, EXIT_FAILED);
    fputs(table, stdout);
    return EXIT_OK;
}

/* Every row's default, landed through the same check as a value from the command line (a
 * bad default in a table is reported the first time the command runs). */
static int land_defaults(const cli_command_t *c)
{
    for (int i = 0; c->opts && c->opts[i].row.key; i++)
        if (c->opts[i].row.def && store(c->name, &c->opts[i], c->opts[i].row.def))
            return EXIT_USAGE;
    return EXIT_OK;
}

/* An option, not a positional: "-x", "--x", but not "-" or "-3". */
/* Leading "-" followed by a digit or "." is a negative number, so
 * `--min -0.5` or a positional "-3" is not taken for an option. */
static bool is_option(const char *a)
{
    return a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.';
}

/* Help is looked for first, anywhere on the line: `cmd --bad --help` shows the help instead
 * of complaining about --bad. Returns CLI_CONTINUE when there is none. */
static int help(const cli_command_t *c, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help-markdown") == 0) return print_markdown(c->name, c->opts);
        if (!cli_is_help(argv[i])) continue;
        fputs(c->help, stdout);
        cli_print_options(c->opts);
        if (c->more_help) c->more_help();
        return EXIT_OK;
    }
    return CLI_CONTINUE;
}

int cli_parse(const cli_command_t *c, int argc, char **argv)
{
    int npos = 0, rc = help(c, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (land_defaults(c)) return EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (is_option(a)) {
            const cli_opt_t *o = find_opt(c->opts, a);
            if (o == NULL) {
                spec_unknown("unknown option", a, option_name_at, c->opts);
                return cli_fail(c->name, EXIT_USAGE);
            }
            bool flag = o->row.type == PARAM_BOOL && o->value == NULL;
            if (!flag && i + 1 >= argc) return cli_usage_error(c->name, "%s needs a value", a);
            if (store(c->name, o, flag ? NULL : argv[++i])) return EXIT_USAGE;
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

int cli_parse_one(const char *name, const char *help_text, const cli_opt_t *opts, const char *what,
                  void (*more_help)(void), const char **pos, int argc, char **argv)
{
    const cli_command_t command = {.name = name,
                                   .help = help_text,
                                   .opts = opts,
                                   .positional = what,
                                   .min_pos = 1,
                                   .max_pos = 1,
                                   .pos = pos,
                                   .more_help = more_help};
    return cli_parse(&command, argc, argv);
}
