/* cli_opts.h — the option tables of the `hoyle` subcommands: one table per
 * command, one parser, --help generated from the tables and the same errors
 * as every other reader of settings.
 *
 * A command describes its options as a {NULL}-terminated array of cli_opt_t,
 * each a settings row of core/spec.h (the option's name as key, type, default,
 * range or choices, units, help) with the place its value lands, and its
 * positionals in a cli_command_t, then calls cli_parse() first thing:
 *
 *     int rc = cli_parse(&command, argc, argv);
 *     if (rc != CLI_CONTINUE) return rc;
 *
 * Values are checked by param_value() and unknown options reported by
 * spec_unknown(), the functions that check specs and configs, so the errors
 * read the same; each is one line on stderr and exit code 2 (cli.h):
 *     hoyle CMD: unknown option '--gmaes' (did you mean '--games'? known: --games, ...)
 *     hoyle CMD: --seed needs a value
 *     hoyle CMD: --seed: 'x' is not an integer
 *     hoyle CMD: --games: 0 is out of range [1, 1000000]
 *     hoyle CMD: --heuristic: 'x' is not one of md, lc, pdb
 *     hoyle CMD: expected GAME A B (try --help)
 *     hoyle CMD: unexpected argument 'x'
 * `--help` prints each row's help with its range, units and default;
 * `--help-markdown` prints the rows as the docs' table (params_markdown). */
#ifndef HOYLE_APPS_CLI_OPTS_H
#define HOYLE_APPS_CLI_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/spec.h"

/* One option: a settings row of core/spec.h and where its value lands. The row's key is the
 * option ("--games"); its type comes from the destination's C type (CLI_TYPE); .def, .min and
 * .max, .choices, .units and .help are what a spec's or a config's row has, and are checked by
 * the same function (param_value). Destinations by type:
 *   PARAM_BOOL    bool *: a flag (no value), set to true
 *   PARAM_INT     int * or uint64_t * (a uint64_t lands exactly, up to 2^64 - 1)
 *   PARAM_DOUBLE  double *
 *   PARAM_STRING, PARAM_CHOICE  const char **: the text, borrowed from argv (or the row's .def)
 *   PARAM_LIST    const char *[row.max], repeatable; the count in *count
 * A row with .def has its default landed before the command line is read (and --help says it);
 * without, the destination keeps the value the command gave it (its help says what that is).
 * A number row without a range (.min == .max) accepts any value of its C type (a uint64_t: any
 * non-negative one). */
typedef struct cli_opt {
    param_def_t row;   /* key, type, default, range or choices, units, help */
    void *dst;         /* where the value lands (type by row.type, above) */
    const char *value; /* the value's name in --help ("N", "SPEC"); NULL for flags */
    int *count;        /* PARAM_LIST: entries stored */
} cli_opt_t;

/* The settings type of a destination pointer; a pointer of any other type does not compile. */
#define CLI_TYPE(dest)                                                                             \
    _Generic((dest), bool *: PARAM_BOOL, int *: PARAM_INT, uint64_t *: PARAM_INT,                   \
             double *: PARAM_DOUBLE, const char **: PARAM_STRING)

/* A range without an upper end: .min = 1, .max = CLI_NO_MAX. */
#define CLI_NO_MAX 1e19

/* .def from a number macro: CLI_DEF(SERVE_MAX_PER_CLIENT) is `.def = "16"`. */
#define CLI_DEF(macro)      .def = CLI_DEF_TEXT(macro)
#define CLI_DEF_TEXT(macro) #macro

/* Table rows. The trailing arguments of CLI_OPT and CLI_OPT_CHOICE are more fields of the
 * row: CLI_OPT("--games", &games, "N", "games to play", .def = "10", .min = 1, .max = 1e6). */
#define CLI_OPT(name, dest, value_name, help_text, ...)                                            \
    {                                                                                              \
        .row = {.key = (name),                                                                     \
                .type = CLI_TYPE(dest),                                                            \
                .help = (help_text),                                                               \
                .size = sizeof *(dest),                                                            \
                __VA_ARGS__},                                                                      \
        .dst = (dest), .value = (value_name)                                                       \
    }
#define CLI_OPT_CHOICE(name, dest, value_name, word_list, help_text, ...)                          \
    {                                                                                              \
        .row = {.key = (name),                                                                     \
                .type = PARAM_CHOICE,                                                              \
                .choices = (word_list),                                                            \
                .help = (help_text),                                                               \
                .size = sizeof *(const char **){(dest)},                                           \
                __VA_ARGS__},                                                                      \
        .dst = (dest), .value = (value_name)                                                       \
    }
#define CLI_OPT_FLAG(name, dest, help_text)                                                        \
    {                                                                                              \
        .row = {.key = (name),                                                                     \
                .type = PARAM_BOOL,                                                                \
                .help = (help_text),                                                               \
                .size = sizeof *(bool *){(dest)}},                                                 \
        .dst = (dest)                                                                              \
    }
#define CLI_OPT_LIST(name, dest, num, most, value_name, help_text)                                 \
    {                                                                                              \
        .row = {.key = (name), .type = PARAM_LIST, .help = (help_text), .max = (most)},            \
        .dst = (const char **){(dest)}, .value = (value_name), .count = (num)                      \
    }
#define CLI_OPT_END                                                                                \
    {                                                                                              \
        .row = {.key = NULL }                                                                      \
    }

/* Rows several commands share. */
#define CLI_OPT_JSON(dst) CLI_OPT_FLAG("--json", dst, "one JSON object on stdout")
#define CLI_OPT_POSITION(dst)                                                                      \
    CLI_OPT("--position", dst, "P", "start from P (the game's position format)")

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
