/* config.h — YAML experiment configs: load, override, check, read.
 *
 * A config is a tree of maps, lists and scalars (text), each node with the
 * line it came from, so that every message can say `file:line: key ...`.
 * The usual sequence for a command:
 *
 *   config_t *c;
 *   config_load("configs/x.yaml", &c);          // YAML syntax errors: file:line
 *   config_set(c, "match.games=10");            // each --set, before checking
 *   config_bind(c, my_schema, &dst);            // unknown keys, types, ranges; land
 *   long long games = config_int(c, "match.games", 2);
 *   config_free(c);
 *
 * Conventions (docs/formats.md): the top level is a map; keys are plain
 * words; anchors/aliases, tags and multiple documents are not used (aliases
 * are refused). Every function that fails returns a negative status with a
 * message naming the file, the line and the dotted key. */
#ifndef HOYLE_DATA_CONFIG_H
#define HOYLE_DATA_CONFIG_H

#include <stdbool.h>

#include "core/spec.h"

typedef enum config_type { CONFIG_SCALAR, CONFIG_LIST, CONFIG_MAP } config_type_t;

typedef struct config_node config_node_t;
struct config_node {
    config_type_t type;
    int line;         /* 1-based line in the file; 0 = set by config_set (--set) */
    char *key;        /* key in the parent map; NULL for list items and the root */
    char *value;      /* CONFIG_SCALAR: the text ("" for an empty value) */
    bool quoted;      /* the scalar was quoted ('10' is text, not a number) */
    int num_children; /* CONFIG_LIST items or CONFIG_MAP entries, in file order */
    config_node_t **children;
    int cap_children; /* allocated length of children (grows by doubling) */
};

typedef struct config {
    char *name;          /* the file name, used in messages */
    config_node_t *root; /* always a CONFIG_MAP (empty for an empty file) */
} config_t;

/* Read and parse a YAML file. On success *out is a new config the caller
 * frees with config_free(). */
int config_load(const char *path, config_t **out);

/* Parse YAML text; `name` stands for the file in messages. */
int config_parse(const char *text, const char *name, config_t **out);

/* config_free(NULL) is a no-op. */
void config_free(config_t *c);

/* Apply one override `dotted.key=value` (a --set argument). The value is
 * parsed as YAML flow text: `10`, `abc`, `'quoted text'`, `[a, b]`. Missing
 * intermediate maps are created; an existing value is replaced. Errors
 * (no '=', empty key, a path through a non-map, bad YAML) leave c unchanged. */
int config_set(config_t *c, const char *assignment);

/* The node at a dotted path ("match.games"), or NULL. */
const config_node_t *config_find(const config_t *c, const char *path);

/* The child of a map node with this key, or NULL. */
const config_node_t *config_child(const config_node_t *map, const char *key);

/* ---- the settings schema (core/spec.h) ---- */

/* Check c against `schema`, rows of param_def_t: every key known (an unknown
 * one is `file:line: unknown key 'a.b' (did you mean 'a.c'? known: ...)`),
 * every required key present, every value of its type and range (worded as
 * param_value words it, after `file:line: key 'a.b'`); then, when dst is not
 * NULL, land every scalar row that has a landing (PARAM_AT): the value given
 * in the file or by --set, else the row's default; rows without a default
 * leave dst as it was (the component's own default, set before). Sections
 * absent from the file land their rows' defaults too; a section row's
 * landing (PARAM_AT) offsets its fields' landings. PARAM_LIST and
 * PARAM_TABLE values are checked for shape only and read by name. The whole
 * tree is checked before anything is written: a failed bind changes nothing. */
int config_bind(const config_t *c, const param_def_t *schema, void *dst);

/* The row of a dotted path ("optim.lr") in a schema of sections, or NULL. */
const param_def_t *config_row(const param_def_t *schema, const char *path);

/* ---- typed getters (use after config_bind; absent keys give def) ---- */

long long config_int(const config_t *c, const char *path, long long def);
double config_double(const config_t *c, const char *path, double def);
bool config_bool(const config_t *c, const char *path, bool def);
/* Borrowed from c; valid until config_free. */
const char *config_string(const config_t *c, const char *path, const char *def);
/* A list (PARAM_LIST): returns the count and sets *items to the list
 * node's children (each ->value is one string); 0 when absent. */
int config_strings(const config_t *c, const char *path, config_node_t *const **items);

/* Write c back as block YAML into a new NUL-terminated string (the caller
 * frees it): the effective config after overrides, for records and hashes. */
int config_dump(const config_t *c, char **out);

#endif
