/* config_dump.c — typed boolean reading, and dumping the tree back to YAML
 * (config_dump: config.yaml of a run, the shards' metadata). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "data/config_internal.h"

/* The YAML 1.1 boolean words that people write in configs, in the three
 * common casings; "1"/"0" too, so that --set flag=1 works. Anything else is
 * an error in config_bind() rather than a silent false. */
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

/* Absent or not a boolean word: `def` (config_bind() has already refused
 * the latter for keys in the schema). */
bool config_bool(const config_t *c, const char *path, bool def)
{
    const char *v = config_scalar_at_(c, path);
    int b = v ? parse_bool(v) : -1;
    return b < 0 ? def : b == 1;
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
