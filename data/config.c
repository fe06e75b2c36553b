/* config.c — YAML text -> config tree (libyaml's event parser), overrides,
 * lookups and dumping. Checking against a schema is config_bind.c; dumping, config_dump.c.
 *
 * Invariant: the root is a CONFIG_MAP; map children have unique keys;
 * every node owns its strings and children. */
#include "data/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/error.h"
#include "data/config_internal.h"

/* Bounds the recursion of parse_node(): a hostile file of nested '[' must
 * give an error, not a stack overflow. */
#define CONFIG_MAX_DEPTH 64

/* Frees a node and its whole subtree; NULL is a no-op, so error paths can
 * free whatever was built so far. */
static void node_free(config_node_t *n)
{
    if (n == NULL) return;
    for (int i = 0; i < n->num_children; i++) node_free(n->children[i]);
    free(n->children);
    free(n->key);
    free(n->value);
    free(n);
}

static config_node_t *node_new(config_type_t type, int line)
{
    config_node_t *n = calloc(1, sizeof *n);
    if (n) {
        n->type = type;
        n->line = line;
    }
    return n;
}

/* Appends `child`; on failure the caller still owns it (and frees it). The
 * array doubles, so a list of n items costs O(n), not O(n^2) copies. */
static int node_add(config_node_t *parent, config_node_t *child)
{
    if (parent->num_children == parent->cap_children) {
        int cap = parent->cap_children ? 2 * parent->cap_children : 4;
        config_node_t **c = realloc(parent->children, (size_t)cap * sizeof *c);
        if (c == NULL) return hoyle_error(HOYLE_ENOMEM, "config: out of memory");
        parent->children = c;
        parent->cap_children = cap;
    }
    parent->children[parent->num_children++] = child;
    return HOYLE_OK;
}

const config_node_t *config_child(const config_node_t *map, const char *key)
{
    if (map == NULL || map->type != CONFIG_MAP) return NULL;
    for (int i = 0; i < map->num_children; i++)
        if (strcmp(map->children[i]->key, key) == 0) return map->children[i];
    return NULL;
}

/* ---- parsing ---- */

typedef struct parse_ctx {
    yaml_parser_t parser;
    const char *name;
} parse_ctx_t;

/* libyaml reports its own problem text and a 0-based mark: both go into the
 * one-line message, the line made 1-based like every other config message. */
static int next_event(parse_ctx_t *p, yaml_event_t *ev)
{
    if (yaml_parser_parse(&p->parser, ev)) return HOYLE_OK;
    const yaml_parser_t *y = &p->parser;
    return hoyle_error(HOYLE_EINVAL, "%s:%d: YAML error: %s%s%s", p->name,
                       (int)y->problem_mark.line + 1, y->problem ? y->problem : "malformed",
                       y->context ? " " : "", y->context ? y->context : "");
}

static int parse_node(parse_ctx_t *p, yaml_event_t *ev, int depth, config_node_t **out);

/* A scalar's text as a new C string in *out. A NUL inside it ("a\0b.h5",
 * written with YAML's \0 escape) is refused: as a C string it would
 * silently end the text early (a file "a" instead of "a\0b.h5"). */
static int scalar_text(parse_ctx_t *p, const yaml_event_t *ev, const char *what, char **out)
{
    const char *v = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    if (memchr(v, '\0', n) != NULL)
        return hoyle_error(HOYLE_EINVAL, "%s:%d: %s contains a NUL character (\\0)", p->name,
                           (int)ev->start_mark.line + 1, what);
    if ((*out = strndup(v, n)) == NULL) return hoyle_error(HOYLE_ENOMEM, "config: out of memory");
    return HOYLE_OK;
}

/* The keys met so far in one map, hashed (open addressing, FNV-1a), so that
 * the duplicate check of a map with n keys costs O(n), not O(n^2). */
typedef struct key_set {
    const char **slot;
    size_t cap, count;
} key_set_t;

static size_t key_hash(const char *k)
{
    size_t h = (size_t)1469598103934665603ull;
    for (const unsigned char *c = (const unsigned char *)k; *c; c++) h = (h ^ *c) * 1099511628211u;
    return h;
}

/* 1 when `key` was already in the set, 0 when added, -1 out of memory. The
 * set borrows the keys (they live in the map's children). */
static int key_set_add(key_set_t *ks, const char *key)
{
    if (2 * (ks->count + 1) > ks->cap) {
        size_t cap = ks->cap ? 2 * ks->cap : 16;
        const char **slot = calloc(cap, sizeof *slot);
        if (slot == NULL) return -1;
        for (size_t i = 0; i < ks->cap; i++) {
            if (ks->slot[i] == NULL) continue;
            size_t j = key_hash(ks->slot[i]) & (cap - 1);
            while (slot[j]) j = (j + 1) & (cap - 1);
            slot[j] = ks->slot[i];
        }
        free(ks->slot);
        ks->slot = slot;
        ks->cap = cap;
    }
    size_t j = key_hash(key) & (ks->cap - 1);
    for (; ks->slot[j]; j = (j + 1) & (ks->cap - 1))
        if (strcmp(ks->slot[j], key) == 0) return 1;
    ks->slot[j] = key;
    ks->count++;
    return 0;
}

/* Reads the children of a map or list until its end event. For a map each
 * child is a key scalar, then a value node: a duplicate key is an error here,
 * because libyaml's event parser does not check it and a later lookup would
 * silently see only the first. */
static int parse_children_(parse_ctx_t *p, config_node_t *n, int depth, key_set_t *keys);

static int parse_children(parse_ctx_t *p, config_node_t *n, int depth)
{
    key_set_t keys = {NULL, 0, 0};
    int rc = parse_children_(p, n, depth, &keys);
    free(keys.slot);
    return rc;
}

static int parse_children_(parse_ctx_t *p, config_node_t *n, int depth, key_set_t *keys)
{
    yaml_event_type_t end =
        n->type == CONFIG_MAP ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT;
    for (;;) {
        yaml_event_t ev;
        int rc = next_event(p, &ev);
        if (rc < 0) return rc;
        if (ev.type == end) {
            yaml_event_delete(&ev);
            return HOYLE_OK;
        }
        char *key = NULL;
        int key_line = (int)ev.start_mark.line + 1;
        if (n->type == CONFIG_MAP) {
            if (ev.type != YAML_SCALAR_EVENT) {
                yaml_event_delete(&ev);
                return hoyle_error(HOYLE_EINVAL, "%s:%d: map keys must be plain text", p->name,
                                   key_line);
            }
            rc = scalar_text(p, &ev, "a key", &key);
            yaml_event_delete(&ev);
            if (rc < 0) return rc;
            int dup = key_set_add(keys, key);
            if (dup != 0) {
                rc = dup < 0
                         ? hoyle_error(HOYLE_ENOMEM, "config: out of memory")
                         : hoyle_error(HOYLE_EINVAL, "%s:%d: key '%s' appears twice in this map",
                                       p->name, key_line, key);
                free(key);
                return rc;
            }
            if ((rc = next_event(p, &ev)) < 0) {
                free(key);
                return rc;
            }
        }
        config_node_t *child = NULL;
        rc = parse_node(p, &ev, depth + 1, &child);
        /* a map child is reported at its key's line, which is where the
         * user looks; a list item keeps its own line */
        if (rc == 0) {
            child->key = key;
            key = NULL;
            if (n->type == CONFIG_MAP) child->line = key_line;
            rc = node_add(n, child);
            if (rc < 0) node_free(child);
        }
        free(key);
        if (rc < 0) return rc;
    }
}

/* Build the node that starts with *ev (consumed here). */
static int parse_node(parse_ctx_t *p, yaml_event_t *ev, int depth, config_node_t **out)
{
    int line = (int)ev->start_mark.line + 1, rc = HOYLE_OK;
    config_node_t *n = NULL;
    if (depth > CONFIG_MAX_DEPTH) {
        rc = hoyle_error(HOYLE_EINVAL, "%s:%d: nested deeper than %d levels", p->name, line,
                         CONFIG_MAX_DEPTH);
    } else if (ev->type == YAML_SCALAR_EVENT) {
        n = node_new(CONFIG_SCALAR, line);
        if (n == NULL) {
            rc = hoyle_error(HOYLE_ENOMEM, "config: out of memory");
        } else {
            rc = scalar_text(p, ev, "a value", &n->value);
            /* kept so that a dump writes '10' back quoted: quoted is text */
            n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
        }
    } else if (ev->type == YAML_SEQUENCE_START_EVENT || ev->type == YAML_MAPPING_START_EVENT) {
        n = node_new(ev->type == YAML_MAPPING_START_EVENT ? CONFIG_MAP : CONFIG_LIST, line);
        if (n == NULL) rc = hoyle_error(HOYLE_ENOMEM, "config: out of memory");
    } else if (ev->type == YAML_ALIAS_EVENT) {
        rc = hoyle_error(HOYLE_EINVAL, "%s:%d: aliases (*name) are not supported in configs",
                         p->name, line);
    } else {
        rc = hoyle_error(HOYLE_EINVAL, "%s:%d: unexpected YAML event", p->name, line);
    }
    yaml_event_delete(ev);
    if (rc == 0 && n->type != CONFIG_SCALAR) rc = parse_children(p, n, depth);
    if (rc < 0) {
        node_free(n);
        return rc;
    }
    *out = n;
    return HOYLE_OK;
}

/* Parse a whole stream of at most one document; *out = its root (NULL if empty). */
/* A stream is events: stream start, optional document start, the root node,
 * document end, stream end. Everything but the root node is skipped; a second
 * document is refused because only the first would ever be read. */
static int parse_stream(parse_ctx_t *p, config_node_t **out)
{
    config_node_t *root = NULL;
    int rc = HOYLE_OK, docs = 0;
    for (;;) {
        yaml_event_t ev;
        if ((rc = next_event(p, &ev)) < 0) break;
        yaml_event_type_t t = ev.type;
        int line = (int)ev.start_mark.line + 1;
        if (t == YAML_STREAM_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        if (t == YAML_DOCUMENT_START_EVENT && ++docs > 1) {
            yaml_event_delete(&ev);
            rc =
                hoyle_error(HOYLE_EINVAL, "%s:%d: a config holds one YAML document", p->name, line);
            break;
        }
        if (t == YAML_SCALAR_EVENT || t == YAML_SEQUENCE_START_EVENT ||
            t == YAML_MAPPING_START_EVENT || t == YAML_ALIAS_EVENT) {
            if ((rc = parse_node(p, &ev, 0, &root)) < 0) break;
        } else {
            yaml_event_delete(&ev);
        }
    }
    if (rc < 0) {
        node_free(root);
        return rc;
    }
    *out = root;
    return HOYLE_OK;
}

static int parse_text(const char *text, const char *name, config_node_t **out)
{
    parse_ctx_t p = {.name = name};
    if (!yaml_parser_initialize(&p.parser))
        return hoyle_error(HOYLE_ENOMEM, "config: out of memory");
    yaml_parser_set_input_string(&p.parser, (const unsigned char *)text, strlen(text));
    int rc = parse_stream(&p, out);
    yaml_parser_delete(&p.parser);
    return rc;
}

int config_parse(const char *text, const char *name, config_t **out)
{
    config_node_t *root = NULL;
    int rc = parse_text(text, name, &root);
    if (rc < 0) return rc;
    /* an empty file is an empty map, so that all keys take their defaults */
    if (root == NULL)
        root = node_new(CONFIG_MAP, 1);
    else if (root->type != CONFIG_MAP) {
        rc = hoyle_error(HOYLE_EINVAL, "%s:%d: the top level of a config must be a map of keys",
                         name, root->line);
        node_free(root);
        return rc;
    }
    config_t *c = calloc(1, sizeof *c);
    if (c == NULL || root == NULL || (c->name = strdup(name)) == NULL) {
        free(c);
        node_free(root);
        return hoyle_error(HOYLE_ENOMEM, "config: out of memory");
    }
    c->root = root;
    *out = c;
    return HOYLE_OK;
}

int config_load(const char *path, config_t **out)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return hoyle_error(HOYLE_EIO, "%s: cannot open: %s", path, strerror(errno));
    /* read in doubling chunks: configs are small but the size is unknown for
     * pipes such as /dev/stdin */
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    while (text) {
        len += fread(text + len, 1, cap - 1 - len, f);
        if (len < cap - 1) break;
        char *t = realloc(text, cap * 2);
        if (t == NULL) free(text);
        text = t;
        cap *= 2;
    }
    int err = ferror(f);
    fclose(f);
    if (text == NULL) return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", path);
    if (err) {
        free(text);
        return hoyle_error(HOYLE_EIO, "%s: read error", path);
    }
    text[len] = '\0';
    /* libyaml takes a C string: a NUL would silently end the text early */
    if (strlen(text) != len) {
        free(text);
        return hoyle_error(HOYLE_EINVAL, "%s: contains a NUL byte", path);
    }
    int rc = config_parse(text, path, out);
    free(text);
    return rc;
}

void config_free(config_t *c)
{
    if (c == NULL) return;
    node_free(c->root);
    free(c->name);
    free(c);
}

/* ---- overrides ---- */

/* Line 0 marks a node as coming from --set, so messages say "(--set)" and not
 * a line the file never had. */
static void mark_override(config_node_t *n)
{
    n->line = 0;
    for (int i = 0; i < n->num_children; i++) mark_override(n->children[i]);
}

/* Two phases, so that a failed --set leaves the config as it was (STYLE.md
 * point 5): steps 1-2 only read, step 3 is the first write. */
int config_set(config_t *c, const char *assignment)
{
    const char *eq = strchr(assignment, '=');
    if (eq == NULL || eq == assignment)
        return hoyle_error(HOYLE_EINVAL, "--set '%s': expected key=value", assignment);
    char *path = strndup(assignment, (size_t)(eq - assignment));
    if (path == NULL) return hoyle_error(HOYLE_ENOMEM, "config: out of memory");
    size_t n = strlen(path);
    int rc = HOYLE_OK;
    if (path[0] == '.' || path[n - 1] == '.' || strstr(path, "..") || strpbrk(path, " \t"))
        rc = hoyle_error(HOYLE_EINVAL, "--set '%s': bad key '%s'", assignment, path);
    /* 1. parse the value alone */
    config_node_t *value = NULL;
    if (rc == 0) rc = parse_text(eq + 1, "--set", &value);
    if (rc == 0 && value == NULL) value = node_new(CONFIG_SCALAR, 0);
    if (rc == 0 && value->type == CONFIG_SCALAR && value->value == NULL) value->value = strdup("");
    if (rc == 0 && (value == NULL || (value->type == CONFIG_SCALAR && value->value == NULL)))
        rc = hoyle_error(HOYLE_ENOMEM, "config: out of memory");
    /* 2. check the path: every segment but the last must be a map or absent */
    config_node_t *map = c->root;
    char *seg = path;
    for (char *dot; rc == 0 && map && (dot = strchr(seg, '.')); seg = dot + 1) {
        *dot = '\0';
        config_node_t *next = (config_node_t *)config_child(map, seg);
        if (next && next->type != CONFIG_MAP)
            rc = hoyle_error(HOYLE_EINVAL, "--set '%s': '%s' is not a map", assignment, seg);
        map = next;
        *dot = '.';
    }
    if (rc < 0) {
        node_free(value);
        free(path);
        return rc;
    }
    /* 3. commit: create missing maps, replace or add the value */
    mark_override(value);
    map = c->root;
    seg = path;
    for (char *dot; rc == 0 && (dot = strchr(seg, '.')); seg = dot + 1) {
        *dot = '\0';
        config_node_t *next = (config_node_t *)config_child(map, seg);
        if (next == NULL) {
            next = node_new(CONFIG_MAP, 0);
            if (next == NULL || (next->key = strdup(seg)) == NULL || node_add(map, next) < 0) {
                node_free(next);
                rc = hoyle_error(HOYLE_ENOMEM, "config: out of memory");
            }
        }
        map = next;
    }
    if (rc == 0 && (value->key = strdup(seg)) == NULL)
        rc = hoyle_error(HOYLE_ENOMEM, "config: out of memory");
    if (rc == 0) {
        int i = 0;
        while (i < map->num_children && strcmp(map->children[i]->key, seg) != 0) i++;
        if (i < map->num_children) {
            node_free(map->children[i]);
            map->children[i] = value;
        } else {
            rc = node_add(map, value);
        }
    }
    if (rc < 0) node_free(value);
    free(path);
    return rc;
}

/* ---- lookups ---- */

/* Dotted paths walk maps only; a segment longer than any key cannot match,
 * so it ends the walk instead of being truncated into a wrong key. */
const config_node_t *config_find(const config_t *c, const char *path)
{
    const config_node_t *n = c->root;
    char seg[256];
    while (n && *path) {
        const char *dot = strchr(path, '.');
        size_t len = dot ? (size_t)(dot - path) : strlen(path);
        if (len >= sizeof seg) return NULL;
        memcpy(seg, path, len);
        seg[len] = '\0';
        n = config_child(n, seg);
        path += len + (dot != NULL);
    }
    return n;
}

const char *config_scalar_at_(const config_t *c, const char *path)
{
    const config_node_t *n = config_find(c, path);
    return n && n->type == CONFIG_SCALAR ? n->value : NULL;
}

/* The typed getters do not validate: they are for use after config_bind()
 * has compared each value against its schema (see config.h). */
long long config_int(const config_t *c, const char *path, long long def)
{
    const char *v = config_scalar_at_(c, path);
    return v ? strtoll(v, NULL, 0) : def;
}

double config_double(const config_t *c, const char *path, double def)
{
    const char *v = config_scalar_at_(c, path);
    return v ? strtod(v, NULL) : def;
}

const char *config_string(const config_t *c, const char *path, const char *def)
{
    const char *v = config_scalar_at_(c, path);
    return v ? v : def;
}

/* Borrowed: *items stays valid until the config is changed or freed. */
int config_strings(const config_t *c, const char *path, config_node_t *const **items)
{
    const config_node_t *n = config_find(c, path);
    if (n == NULL || n->type != CONFIG_LIST) return 0;
    *items = n->children;
    return n->num_children;
}
