/* spec.h — the one settings schema and the one `name(key=value,...)` syntax
 * for games, agents, search knobs, configs and command-line options.
 *
 * Every component declares its settings as one table of param_def_t rows:
 * key, type, default, range or choices, units, one line of help, and where
 * the value lands (PARAM_AT: an offset into the component's struct). The
 * same rows are read from spec strings (params_bind), YAML configs and
 * `--set` overrides (config_bind, data/config.h) and command-line values
 * (cli_parse, apps/cli_opts.h), with the same messages: they name the key,
 * the value and what was expected, and an unknown key gets a "did you mean"
 * for a near miss (spec_unknown). Help texts, `hoyle games`, `hoyle agents`
 * and the docs tables are printed from the rows (params_describe,
 * params_markdown). Adding a setting is one row.
 *
 * A spec names a thing and sets some of its parameters: `gobang`,
 * `gobang(board=15,men=0)`, `mcts(sims=800,c=1.25)`. Parsing is in two steps:
 *   1. spec_parse()  splits the text into a name and raw key/value strings;
 *   2. params_bind() checks them against the thing's schema (param_def_t[]),
 *      fills in defaults, converts types and checks ranges.
 * Unknown keys, repeated keys, bad numbers and out-of-range values are errors
 * whose message names the key. Both functions write their output only on
 * success. */
#ifndef HOYLE_CORE_SPEC_H
#define HOYLE_CORE_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SPEC_NAME_MAX   32  /* longest name, including the NUL */
#define SPEC_VALUE_MAX  192 /* longest value, including the NUL */
#define SPEC_MAX_PARAMS 48  /* most key=value pairs in one spec or schema */

typedef struct spec {
    char name[SPEC_NAME_MAX];
    int num_params;
    struct {
        char key[SPEC_NAME_MAX];
        char value[SPEC_VALUE_MAX];
    } params[SPEC_MAX_PARAMS];
} spec_t;

/* Parse `name` or `name(k=v,...)`. Whitespace around tokens is ignored.
 * A value may itself contain balanced parentheses and commas inside them
 * (`eval=net(path=a.pt)`). Returns 0 or HOYLE_EINVAL with a message. */
int spec_parse(const char *text, spec_t *out);

typedef enum param_type {
    PARAM_INT,    /* integer in [min, max] */
    PARAM_DOUBLE, /* real in [min, max] */
    PARAM_BOOL,   /* true/false, 1/0, yes/no, on/off */
    PARAM_CHOICE, /* one of the '|'-separated words in `choices` */
    PARAM_STRING, /* free text (paths, nested specs) */
    /* Config schemas only (config_bind); a spec never holds these: */
    PARAM_LIST,    /* a list of text values; [min, max] bounds the count (0, 0: any) */
    PARAM_SECTION, /* a map checked against `fields` */
    PARAM_TABLE    /* a map of free keys to text values; `fields`, when set, is the
                      schema its keys are bound against later (docs list them) */
} param_type_t;

/* One setting of a schema. A schema is an array ending with {.key = NULL}. */
typedef struct param_def {
    const char *key;
    param_type_t type;
    const char *def;     /* default, as text (parsed like user input); NULL: none, or
                            set by the component before binding (the help says which) */
    double min, max;     /* inclusive range for INT and DOUBLE */
    const char *choices; /* PARAM_CHOICE: "english|losing|polish|devil" */
    const char *help;    /* one line for `hoyle games` / --help / the docs tables */
    const char *units;   /* "ms", "games", "plies"...; NULL for none */
    bool required;       /* config schemas: the key must be given */
    bool quiet;          /* params_format leaves the key out while it is at its default: a parameter
                            added after records, golden files and models were made under the old text
                            (a training run's effective config, train/loop_resume.c, likewise) */
    bool may_change;     /* config schemas: a later run of the same job may give it another value
                            (a resumed training run: train/loop_resume.c); every other key is part
                            of what the job is and must stay */
    const struct param_def *fields; /* PARAM_SECTION, PARAM_TABLE: the keys inside */
    /* Where the value lands, PARAM_AT(struct, member): INT, BOOL and CHOICE (the index)
     * into an integer or bool of 1, 2, 4 or 8 bytes, DOUBLE into a double or float,
     * STRING into a char array (a longer value is an error). size 0: read by name.
     * PARAM_SECTION: where the struct its fields land in lies (the fields' own PARAM_AT
     * are relative to it), so one table of rows serves every struct that embeds it. */
    size_t at, size;
} param_def_t;

/* The landing of a row: `PARAM_AT(run_t, opt_cfg.lr)`. */
#define PARAM_AT(type, member) .at = offsetof(type, member), .size = sizeof(((type *)0)->member)

/* Bound values, in schema order. */
typedef struct params {
    const param_def_t *defs;
    int num;
    double number[SPEC_MAX_PARAMS];             /* INT, DOUBLE, BOOL (0/1), CHOICE (index) */
    char text[SPEC_MAX_PARAMS][SPEC_VALUE_MAX]; /* the value as text, for every type */
} params_t;

/* Check `spec`'s key/values against `defs`, apply defaults, convert. `what`
 * prefixes messages ("gobang: board: 99 is out of range [5, 19]"). A schema
 * of more than SPEC_MAX_PARAMS keys is HOYLE_EFULL (the message names `what`). */
int params_bind(const param_def_t *defs, const spec_t *spec, const char *what, params_t *out);

/* Whether `key` is in p's schema (for binders shared by several schemas). */
bool params_has(const params_t *p, const char *key);

/* Typed getters; the key must exist in the schema (programmer error otherwise). */
long long params_int(const params_t *p, const char *key);
double params_double(const params_t *p, const char *key);
bool params_bool(const params_t *p, const char *key);
int params_choice(const params_t *p, const char *key); /* index into choices */
const char *params_str(const params_t *p, const char *key);

/* Canonical text `name(k1=v1,k2=v2,...)` with every parameter, in schema
 * order, less `quiet` rows at their default; just `name` when none is left. Returns the length, or
 * HOYLE_EFULL when `cap` is too small. */
int params_format(const params_t *p, const char *name, char *buf, size_t cap);

/* The range or choices of row d as help texts print them: " [5..19]", " [1..]" (no upper
 * end: max 9e15 or more), " {a|b}", " {true|false}"; "" for text. */
void param_range_text(const param_def_t *d, char *buf, size_t cap);

/* Describe a schema, one parameter per line, for help texts. */
int params_describe(const param_def_t *defs, char *buf, size_t cap);

/* ---- the pieces every reader of settings shares ---- */

/* Check one textual value against row d and convert it (the int, double,
 * 0/1 bool or choice index; 0 for text). Messages read `WHAT: KEY: '8.5' is
 * not an integer`, `WHAT: KEY: 99 is out of range [5, 19]` (`WHAT: ...` when
 * key is NULL). Scalar types only. Returns 0 or HOYLE_EINVAL. */
int param_value(const param_def_t *d, const char *key, const char *value, const char *what,
                double *number);

/* Write one converted value where row d lands in dst (nothing when d->size
 * is 0). The value must have passed param_value; a STRING longer than its
 * array is refused by param_value's caller through param_fits(). */
void param_store(const param_def_t *d, double number, const char *text, void *dst);

/* Whether text fits row d's landing (STRING into a char array); 0 or
 * HOYLE_EINVAL with `WHAT: KEY: 'TEXT...' is longer than N characters`. */
int param_fits(const param_def_t *d, const char *key, const char *text, const char *what);

/* Land every bound value of p whose row has a landing into dst. */
void params_store(const params_t *p, void *dst);

/* The value row d landed in src (param_store's inverse) as text into buf[cap]: an INT in
 * full (unsigned when the row's min is >= 0), a DOUBLE by %.17g (exact), a BOOL as true or
 * false, a CHOICE as its word, a STRING as it is. Scalar rows with a landing only (0 bytes
 * written otherwise). Returns the length, or HOYLE_EFULL when cap is too small. */
int param_text(const param_def_t *d, const void *src, char *buf, size_t cap);

/* Whether text is row d's default written as param_text writes values (false when the row
 * has no default). */
bool param_is_default(const param_def_t *d, const char *text);

/* Names for spec_unknown(): name i, or NULL past the last. */
typedef const char *(*spec_name_fn)(const void *ctx, int i);

/* The name among name_at's closest to word (edit distance at most 2, and
 * under half of word's length; or word a prefix of it, 3 letters or more),
 * or NULL when none is that near. */
const char *spec_nearest(const char *word, spec_name_fn name_at, const void *ctx);

/* The one "unknown name" message: `LEAD 'WORD' (did you mean 'X'? known: A, B)`,
 * the suggestion only for a near miss, the list cut to fit. Returns HOYLE_EINVAL. */
int spec_unknown(const char *lead, const char *word, spec_name_fn name_at, const void *ctx);

/* spec_name_fn over a schema (ctx: the param_def_t array). */
const char *params_key_at(const void *defs, int i);

/* A schema as the JSON array of the API and of `--json` listings, under `key`: one object
 * per row, {key, type (int|double|bool|choice|string|list|section|map), default, min and max
 * for numbers, choices for CHOICE, units when set, help}. */
struct json;
void params_json(struct json *j, const char *key, const param_def_t *defs);

/* A schema as a Markdown table (| key | type | default | meaning |), each key
 * with `prefix` before it ("optim."), `may_change` rows marked "(a resume may change it)"
 * after their help, sections expanded below their row and
 * a PARAM_TABLE's `fields` listed as `prefix.key.*`. Returns the length or
 * HOYLE_EFULL. docs tables are this text (tests/cli/docs_tables.sh). */
int params_markdown(const param_def_t *defs, const char *prefix, char *buf, size_t cap);

#endif
