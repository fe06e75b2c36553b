/* spec.h — the one `name(key=value,...)` syntax for games, agents and configs.
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
    PARAM_STRING  /* free text (paths, nested specs) */
} param_type_t;

/* One parameter of a schema. A schema is an array ending with {.key = NULL}. */
typedef struct param_def {
    const char *key;
    param_type_t type;
    const char *def;     /* default, as text (parsed like user input) */
    double min, max;     /* inclusive range for INT and DOUBLE */
    const char *choices; /* PARAM_CHOICE: "english|losing|polish|devil" */
    const char *help;    /* one line for `hoyle games` / --help */
} param_def_t;

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
 * order; just `name` when the schema is empty. Returns the length, or
 * HOYLE_EFULL when `cap` is too small. */
int params_format(const params_t *p, const char *name, char *buf, size_t cap);

/* Describe a schema, one parameter per line, for help texts. */
int params_describe(const param_def_t *defs, char *buf, size_t cap);

#endif
