/* config_bind.c — checking a config tree against a settings schema
 * (param_def_t rows, core/spec.h) and landing its values (config.h).
 *
 * Values are checked by core's param_value(), so a config, a `--set`, a spec
 * and a command-line flag word the same problem the same way. Every message
 * starts with where the value came from: `file:line:` for the file,
 * `file (--set):` for overrides, then the dotted key. The invariant: the
 * whole tree is checked (first pass) before anything is written (second). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "data/config_internal.h"

/* file name + ":line: key 'a.b.c'": a path up to a few hundred bytes */
#define WHERE_MAX 400

/* Where `n` came from and its key, as the start of a message (the file
 * comment); n NULL: an absent key, named with the file alone. */
static void where(const config_t *c, const config_node_t *n, const char *key, char *buf)
{
    if (n && n->line > 0)
        snprintf(buf, WHERE_MAX, "%s:%d: key '%s'", c->name, n->line, key);
    else
        snprintf(buf, WHERE_MAX, "%s%s: key '%s'", c->name, n ? " (--set)" : "", key);
}

static const char *type_expected(param_type_t t)
{
    switch (t) {
    case PARAM_LIST: return "a list of text values";
    case PARAM_SECTION: return "a map of keys";
    case PARAM_TABLE: return "a map of names to text values";
    default: return "a value";
    }
}

static const char *shape_name(const config_node_t *n)
{
    return n->type == CONFIG_MAP ? "a map" : n->type == CONFIG_LIST ? "a list" : "a scalar";
}

/* One pass over a map: check (dst NULL) or land (dst set). */
static int bind_map(const config_t *c, const config_node_t *map, const param_def_t *schema,
                    const char *prefix, void *dst, bool land);

/* Check or land one value `n` (NULL: absent) of row d, dotted key `key`. */
static int bind_value(const config_t *c, const config_node_t *n, const param_def_t *d,
                      const char *key, void *dst, bool land)
{
    char at[WHERE_MAX];
    where(c, n, key, at);
    if (d->type == PARAM_SECTION && n && n->type != CONFIG_MAP)
        return hoyle_error(HOYLE_EINVAL, "%s: expected %s, got %s", at, type_expected(d->type),
                           shape_name(n));
    if (d->type == PARAM_SECTION) /* absent: the defaults inside; fields land at d->at */
        return bind_map(c, n, d->fields, key, dst ? (char *)dst + d->at : NULL, land);
    if (n == NULL && d->def == NULL) return HOYLE_OK; /* nothing to land */
    if (d->type == PARAM_LIST || d->type == PARAM_TABLE) {
        if (n == NULL) return HOYLE_OK; /* read by name, never landed */
        bool ok = n->type == (d->type == PARAM_LIST ? CONFIG_LIST : CONFIG_MAP);
        if (!ok)
            return hoyle_error(HOYLE_EINVAL, "%s: expected %s, got %s", at, type_expected(d->type),
                               shape_name(n));
        for (int i = 0; i < n->num_children; i++) {
            const config_node_t *item = n->children[i];
            if (item->type == CONFIG_SCALAR) continue;
            if (d->type == PARAM_LIST) {
                where(c, item, key, at);
                return hoyle_error(HOYLE_EINVAL, "%s: item %d is %s, expected text", at, i + 1,
                                   shape_name(item));
            }
            char item_key[300];
            snprintf(item_key, sizeof item_key, "%s.%s", key, item->key);
            where(c, item, item_key, at);
            return hoyle_error(HOYLE_EINVAL, "%s: expected a text value, got %s", at,
                               shape_name(item));
        }
        if (d->type == PARAM_LIST && !(d->min == 0 && d->max == 0) &&
            (n->num_children < d->min || n->num_children > d->max))
            return hoyle_error(HOYLE_EINVAL, "%s: %d items, expected %g to %g", at, n->num_children,
                               d->min, d->max);
        return HOYLE_OK;
    }
    if (n && n->type != CONFIG_SCALAR)
        return hoyle_error(HOYLE_EINVAL, "%s: expected a value, got %s", at, shape_name(n));
    const char *text = n ? n->value : d->def;
    double number = 0;
    if (param_value(d, NULL, text, at, &number) || param_fits(d, NULL, text, at))
        return HOYLE_EINVAL;
    if (land) param_store(d, number, text, dst);
    return HOYLE_OK;
}

static int bind_map(const config_t *c, const config_node_t *map, const param_def_t *schema,
                    const char *prefix, void *dst, bool land)
{
    char key[256], at[WHERE_MAX];
    /* 1. every key of the map is in the schema (a typo is an error, not an ignored key) */
    for (int i = 0; map && !land && i < map->num_children; i++) {
        const config_node_t *n = map->children[i];
        const param_def_t *d = schema;
        while (d && d->key && strcmp(d->key, n->key) != 0) d++;
        if (d && d->key) continue;
        snprintf(key, sizeof key, "%s%s%s", prefix, prefix[0] ? "." : "", n->key);
        if (n->line > 0)
            snprintf(at, sizeof at, "%s:%d: unknown key", c->name, n->line);
        else
            snprintf(at, sizeof at, "%s (--set): unknown key", c->name);
        return spec_unknown(at, key, params_key_at, schema);
    }
    /* 2. every row, given or not: required keys present, values checked or landed */
    for (const param_def_t *d = schema; d && d->key; d++) {
        snprintf(key, sizeof key, "%s%s%s", prefix, prefix[0] ? "." : "", d->key);
        const config_node_t *n = map ? config_child(map, d->key) : NULL;
        if (n == NULL && d->required) {
            where(c, map, key, at);
            return hoyle_error(HOYLE_EINVAL, "%s is required but missing", at);
        }
        int rc = bind_value(c, n, d, key, dst, land);
        if (rc < 0) return rc;
    }
    return HOYLE_OK;
}

int config_bind(const config_t *c, const param_def_t *schema, void *dst)
{
    int rc = bind_map(c, c->root, schema, "", NULL, false);
    if (rc == HOYLE_OK && dst) rc = bind_map(c, c->root, schema, "", dst, true);
    return rc;
}

const param_def_t *config_row(const param_def_t *schema, const char *path)
{
    const char *dot = strchr(path, '.');
    size_t len = dot ? (size_t)(dot - path) : strlen(path);
    for (const param_def_t *d = schema; d && d->key; d++) {
        if (strlen(d->key) != len || strncmp(d->key, path, len) != 0) continue;
        if (dot == NULL) return d;
        return d->type == PARAM_SECTION ? config_row(d->fields, dot + 1) : NULL;
    }
    return NULL;
}
