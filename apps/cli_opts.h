/* cli_opts.h — the option tables of the `hoyle` subcommands: one table per
 * command, one parser, generated --help option lists and uniform errors.
 *
 * A command describes its options as a {NULL}-terminated array of cli_opt_t
 * (name, value kind, destination, help, range) and its positionals in a
 * cli_command_t, then calls cli_parse() first thing:
 *
 *     int rc = cli_parse(&command, argc, argv);
 *     if (rc != CLI_CONTINUE) return rc;
 *
 * Errors are one line on stderr and exit code 2 (cli.h), worded the same for
 * every command:
 *     hoyle CMD: unknown option '--x' (try --help)
 *     hoyle CMD: --seed needs a value
 *     hoyle CMD: --seed: 'x' is not a non-negative integer
 *     hoyle CMD: --games: 0 is not in [1, 1000000]
 *     hoyle CMD: expected GAME A B (try --help)
 *     hoyle CMD: unexpected argument 'x'
 * Destinations keep their value when the option is absent (the default). */
#ifndef HOYLE_APPS_CLI_OPTS_H
#define HOYLE_APPS_CLI_OPTS_H

#include <stdbool.h>
#include <stdint.h>

typedef enum cli_opt_kind {
    CLI_FLAG,   /* no value; dst is bool*, set to true */
    CLI_INT,    /* dst is int*; a signed integer */
    CLI_U64,    /* dst is uint64_t*; a non-negative integer */
    CLI_DOUBLE, /* dst is double* */
    CLI_STRING, /* dst is const char** (borrowed from argv) */
    CLI_LIST    /* repeatable string; dst is const char** [max], count in *count */
} cli_opt_kind_t;

typedef struct cli_opt {
    const char *name;    /* "--games" */
    cli_opt_kind_t kind; /* what the value is */
    void *dst;           /* where it goes (type by kind) */
    const char *value;   /* the value's name in --help ("N", "SPEC"); NULL for flags */
    const char *help;    /* one line, with the default */
    double min, max;     /* numbers: the accepted range when min < max; CLI_LIST: max entries */
    int *count;          /* CLI_LIST: entries stored */
} cli_opt_t;

/* A range without an upper end: CLI_OPT_RANGE(..., 1, CLI_NO_MAX). */
#define CLI_NO_MAX 1e19

/* Table rows: a valued option, one with a range, a flag, a repeatable
 * string, and the terminator. */
#define CLI_OPT(name, kind, dst, value, help)                                                      \
    {                                                                                              \
        name, kind, dst, value, help, 0, 0, NULL                                                   \
    }
#define CLI_OPT_RANGE(name, kind, dst, value, help, lo, hi)                                        \
    {                                                                                              \
        name, kind, dst, value, help, lo, hi, NULL                                                 \
    }
#define CLI_OPT_FLAG(name, dst, help)                                                              \
    {                                                                                              \
        name, CLI_FLAG, dst, NULL, help, 0, 0, NULL                                                \
    }
#define CLI_OPT_LIST(name, dst, count, max, value, help)                                           \
    {                                                                                              \
        name, CLI_LIST, dst, value, help, 0, max, count                                            \
    }
#define CLI_OPT_END                                                                                \
    {                                                                                              \
        NULL, CLI_FLAG, NULL, NULL, NULL, 0, 0, NULL                                               \
    }

/* Rows several commands share. */
#define CLI_OPT_JSON(dst) CLI_OPT_FLAG("--json", dst, "one JSON object on stdout")
#define CLI_OPT_POSITION(dst)                                                                      \
    CLI_OPT("--position", CLI_STRING, dst, "P", "start from P (the game's position format)")

typedef struct cli_command {
    const char *name;        /* "match": error prefix "hoyle match: " */
    const char *help;        /* usage line and description, printed by --help */
    const cli_opt_t *opts;   /* {NULL}-terminated */
    const char *positional;  /* "GAME A B", named by the count error */
    int min_pos, max_pos;    /* accepted positional counts */
    const char **pos;        /* receives the positionals (max_pos entries); may be NULL if 0 */
    int *num_pos;            /* how many were given; may be NULL */
    void (*more_help)(void); /* printed after the option list (agent kinds); may be NULL */
} cli_command_t;

/* cli_parse(): go on with the command (otherwise return the value). */
#define CLI_CONTINUE (-1)

/* Parse argv[1..argc) (argv[0] is the command's name). Returns CLI_CONTINUE
 * with every destination written; EXIT_OK after printing --help (-h) to
 * stdout; or EXIT_USAGE after printing the one-line error. An argument that
 * starts with '-' followed by anything but a digit is an option; option
 * values are the next argument, whatever it looks like. */
int cli_parse(const cli_command_t *c, int argc, char **argv);

/* cli_parse() for the common shape: exactly one positional (named `what`,
 * "GAME" or "CONFIG.yaml") into *pos, and `more_help` (may be NULL) after
 * the option list. */
int cli_parse_one(const char *name, const char *help, const cli_opt_t *opts, const char *what,
                  void (*more_help)(void), const char **pos, int argc, char **argv);

/* Print the generated option list ("Options:" and one line each). */
void cli_print_options(const cli_opt_t *opts);

#endif
