/* config_check.c — checking a config tree against a schema (config_key_t
 * tables), typed boolean reading, and dumping the tree back to YAML.
 *
 * Every message starts with where the value came from: `file:line:` for
 * the file, `file (--set):` for overrides, then the dotted key. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "data/config_internal.h"

/* file name + ":line" or " (--set)": a path up to a few hundred bytes */
#define WHERE_MAX 300

/* Where `n` came from, as the start of a message (see the file comment). */
static void where(const config_t *c, const config_node_t *n, char *buf)
{
    if (n->line > 0)
        snprintf(buf, WHERE_MAX, "%s:%d", c->name, n->line);
    else
        snprintf(buf, WHERE_MAX, "%s (--set)", c->name);
}

/* The YAML 1.1 boolean words that people write in configs, in the three
 * common casings; "1"/"0" too, so that --set flag=1 works. Anything else is
 * an error in config_check() rather than a silent false. */
/* Parse a boolean word; -1 when it is none. */
static int parse_bool(const char *v)
{
    static const char *const yes[] = {"true", "True", "TRUE", "yes", "Yes", "on", "On", "1"};
    static const char *const no[] = {"false", "False", "FALSE", "no", "No", "off", "Off", "0"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        if (strcmp(v, yes[i]) == 0) return 1;
        if (strcmp(v, no[i]) == 0) return 0;
    }
    return -1;
}

/* Absent or not a boolean word: `def` (config_check() has already refused
 * the latter for keys in the schema). */
bool config_bool(const config_t *c, const char *path, bool def)
{
    const char *v = config_scalar_at_(c, path);
    int b = v ? parse_bool(v) : -1;
    return b < 0 ? def : b == 1;
}

static const char *kind_name(config_kind_t k)
{
    switch (k) {
    case CONFIG_INT: return "an integer";
    case CONFIG_DOUBLE: return "a number";
    case CONFIG_BOOL: return "true or false";
    case CONFIG_STRING: return "a text value";
    case CONFIG_STRINGS: return "a list of text values";
    case CONFIG_SECTION: return "a map of keys";
    case CONFIG_TABLE: return "a map of names to text values";
    }
    return "?";
}

static const char *type_name(const config_node_t *n)
{
    return n->type == CONFIG_MAP ? "a map" : n->type == CONFIG_LIST ? "a list" : "a scalar";
}

static int check_map(const config_t *c, const config_node_t *map, const config_key_t *schema,
                     const char *prefix);

/* Checks one value against its schema entry; `key` is the dotted path for the
 * message. A node of the wrong shape (list for a scalar, ...) falls out of the
 * switch to the one "expected X, got Y" message at the end. */
static int check_value(const config_t *c, const config_node_t *n, const config_key_t *k,
                       const char *key)
{
    char at[WHERE_MAX];
    where(c, n, at);
    /* min = max = 0 in a schema entry means "no bounds" */
    int bounded = !(k->min == 0 && k->max == 0);
    switch (k->kind) {
    case CONFIG_INT:
    case CONFIG_DOUBLE: {
        if (n->type != CONFIG_SCALAR) break;
        char *end = NULL;
        /* integers are read as long long then compared as double, so one
         * range check serves both kinds; base 0 accepts 0x.. like C */
        errno = 0;
        double v = 0;
        if (k->kind == CONFIG_INT) {
            long long i = strtoll(n->value, &end, 0);
            v = (double)i;
        } else {
            v = strtod(n->value, &end);
        }
        if (n->value[0] == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v))
            return hoyle_error(HOYLE_EINVAL, "%s: key '%s': expected %s, got '%s'", at, key,
                               kind_name(k->kind), n->value);
        if (bounded && (v < k->min || v > k->max))
            return hoyle_error(HOYLE_EINVAL, "%s: key '%s': %s is out of range [%g, %g]", at, key,
                               n->value, k->min, k->max);
        return HOYLE_OK;
    }
    case CONFIG_BOOL:
        if (n->type != CONFIG_SCALAR) break;
        if (parse_bool(n->value) < 0)
            return hoyle_error(HOYLE_EINVAL, "%s: key '%s': expected true or false, got '%s'", at,
                               key, n->value);
        return HOYLE_OK;
    case CONFIG_STRING:
        if (n->type != CONFIG_SCALAR) break;
        return HOYLE_OK;
    case CONFIG_STRINGS:
        if (n->type != CONFIG_LIST) break;
        for (int i = 0; i < n->num_children; i++) {
            if (n->children[i]->type != CONFIG_SCALAR) {
                where(c, n->children[i], at);
                return hoyle_error(HOYLE_EINVAL, "%s: key '%s': item %d is %s, expected text", at,
                                   key, i + 1, type_name(n->children[i]));
            }
        }
        if (bounded && (n->num_children < k->min || n->num_children > k->max))
            return hoyle_error(HOYLE_EINVAL, "%s: key '%s': %d items, expected %g to %g", at, key,
                               n->num_children, k->min, k->max);
        return HOYLE_OK;
    case CONFIG_SECTION:
        if (n->type != CONFIG_MAP) break;
        return check_map(c, n, k->fields, key);
    case CONFIG_TABLE:
        if (n->type != CONFIG_MAP) break;
        for (int i = 0; i < n->num_children; i++) {
            if (n->children[i]->type != CONFIG_SCALAR) {
                where(c, n->children[i], at);
                return hoyle_error(HOYLE_EINVAL, "%s: key '%s.%s': expected a text value, got %s",
                                   at, key, n->children[i]->key, type_name(n->children[i]));
            }
        }
        return HOYLE_OK;
    }
    return hoyle_error(HOYLE_EINVAL, "%s: key '%s': expected %s, got %s", at, key,
                       kind_name(k->kind), type_name(n));
}

/* Every key of `map` must be in `schema` (a typo is an error, not an ignored
 * key), then every required key must be present. Stops at the first problem. */
static int check_map(const config_t *c, const config_node_t *map, const config_key_t *schema,
                     const char *prefix)
{
    char key[256], at[WHERE_MAX];
    for (int i = 0; i < map->num_children; i++) {
        const config_node_t *n = map->children[i];
        snprintf(key, sizeof key, "%s%s%s", prefix, prefix[0] ? "." : "", n->key);
        const config_key_t *k = schema;
        while (k && k->key && strcmp(k->key, n->key) != 0) k++;
        if (k == NULL || k->key == NULL) {
            /* the list of known keys is a hint: cut at the buffer, never an
             * error of its own */
            char known[200] = "";
            size_t len = 0;
            for (k = schema; k && k->key && len < sizeof known; k++)
                len += (size_t)snprintf(known + len, sizeof known - len, "%s%s",
                                        k == schema ? "" : ", ", k->key);
            where(c, n, at);
            return hoyle_error(HOYLE_EINVAL, "%s: key '%s' is not known (known: %s)", at, key,
                               known[0] ? known : "none");
        }
        int rc = check_value(c, n, k, key);
        if (rc < 0) return rc;
    }
    for (const config_key_t *k = schema; k && k->key; k++) {
        if (k->required && config_child(map, k->key) == NULL) {
            where(c, map, at);
            return hoyle_error(HOYLE_EINVAL, "%s: key '%s%s%s' is required but missing", at, prefix,
                               prefix[0] ? "." : "", k->key);
        }
    }
    return HOYLE_OK;
}

int config_check(const config_t *c, const config_key_t *schema)
{
    return check_map(c, c->root, schema, "");
}

/* ---- dump ---- */

/* A growing text buffer; after one failed allocation every emit is a no-op
 * and config_dump reports ENOMEM once. */
typedef struct out {
    char *buf;
    size_t len, cap;
    int failed;
} out_t;

static void emit(out_t *o, const char *s, size_t n)
{
    if (o->failed) return;
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 1024;
        while (cap < o->len + n + 1) cap *= 2;
        char *b = realloc(o->buf, cap);
        if (b == NULL) {
            o->failed = 1;
            return;
        }
        o->buf = b;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

static void emits(out_t *o, const char *s) { emit(o, s, strlen(s)); }

static void indent(out_t *o, int depth)
{
    for (int i = 0; i < depth; i++) emits(o, "  ");
}

/* Plain-safe words are written bare, everything else double-quoted. */
static void emit_text(out_t *o, const char *s, bool force_quote)
{
    bool plain = !force_quote && s[0] != '\0';
    for (const char *p = s; plain && *p; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                strchr("_.+-()=/,", *p) != NULL;
    /* a leading '-' followed by a space would read back as a list item */
    if (plain && strchr("-", s[0])) plain = strlen(s) > 1 && s[1] != ' ';
    if (plain) {
        emits(o, s);
        return;
    }
    emits(o, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        if (*p == '"' || *p == '\\')
            snprintf(esc, sizeof esc, "\\%c", *p);
        else if (*p < 0x20)
            snprintf(esc, sizeof esc, "\\x%02x", *p);
        else
            snprintf(esc, sizeof esc, "%c", *p);
        emits(o, esc);
    }
    emits(o, "\"");
}

/* Emitting writes the config back in block style, two spaces a level, keys in
 * file order, so that a dumped config parses to the same tree (tournaments
 * and training store the dump with their output). */
static void emit_node(out_t *o, const config_node_t *n, int depth);

static void emit_after_key(out_t *o, const config_node_t *n, int depth)
{
    if (n->type == CONFIG_SCALAR) {
        emits(o, " ");
        emit_text(o, n->value, n->quoted);
        emits(o, "\n");
    } else if (n->num_children == 0) {
        emits(o, n->type == CONFIG_MAP ? " {}\n" : " []\n");
    } else {
        emits(o, "\n");
        emit_node(o, n, depth + 1);
    }
}

static void emit_node(out_t *o, const config_node_t *n, int depth)
{
    for (int i = 0; i < n->num_children; i++) {
        const config_node_t *ch = n->children[i];
        indent(o, depth);
        if (n->type == CONFIG_MAP) {
            emit_text(o, ch->key, false);
            emits(o, ":");
        } else {
            emits(o, "-");
        }
        if (n->type == CONFIG_LIST && ch->type == CONFIG_MAP && ch->num_children > 0) {
            /* "- key: value" with the other keys aligned under the first */
            out_t sub = {0};
            emit_node(&sub, ch, depth + 1);
            if (sub.failed)
                o->failed = 1;
            else
                /* sub's first line carries the indent of depth+1: drop it so
                 * that the first key follows "- " */
                emits(o, " "), emits(o, sub.buf + 2 * (size_t)(depth + 1));
            free(sub.buf);
            continue;
        }
        emit_after_key(o, ch, depth);
    }
}

int config_dump(const config_t *c, char **out)
{
    out_t o = {0};
    /* an empty dump must still be a valid (empty) string, never NULL */
    emits(&o, "");
    if (c->root->num_children == 0)
        emits(&o, "{}\n");
    else
        emit_node(&o, c->root, 0);
    if (o.failed) {
        free(o.buf);
        return hoyle_error(HOYLE_ENOMEM, "config: out of memory");
    }
    *out = o.buf;
    return HOYLE_OK;
}
