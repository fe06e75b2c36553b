/* spec.c — parsing and binding of `name(key=value,...)` specs (see spec.h).
 * Invariant: outputs are written only after the whole input has been checked. */
#include "core/spec.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

static const char *skip_space(const char *p)
{
    while (*p && isspace((unsigned char)*p)) p++;
    return p;
}

/* Copy [begin, end) trimmed of spaces into dst[cap]; error if too long. */
static int copy_token(const char *begin, const char *end, char *dst, size_t cap, const char *what,
                      const char *text)
{
    while (begin < end && isspace((unsigned char)*begin)) begin++;
    while (end > begin && isspace((unsigned char)end[-1])) end--;
    size_t len = (size_t)(end - begin);
    if (len >= cap) return hoyle_error(HOYLE_EINVAL, "spec '%s': %s too long", text, what);
    memcpy(dst, begin, len);
    dst[len] = '\0';
    return HOYLE_OK;
}

/* Grammar: name [ '(' item (',' item)* ')' ], item = key '=' value, where a
 * value may itself contain a parenthesised spec ("agent=mcts(sims=100)") and
 * so may contain commas and '=' at depth > 0. The result is built in a local
 * and copied to *out only on success (the file's invariant). */
int spec_parse(const char *text, spec_t *out)
{
    spec_t s;
    memset(&s, 0, sizeof s);
    if (text == NULL) return hoyle_error(HOYLE_EINVAL, "spec: empty");
    const char *p = skip_space(text);
    const char *name_begin = p;
    /* Names are [A-Za-z0-9_-]+, so a name never contains the '(' that starts the
     * parameter list. */
    while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '-')) p++;
    if (p == name_begin) return hoyle_error(HOYLE_EINVAL, "spec '%s': expected a name", text);
    if (copy_token(name_begin, p, s.name, sizeof s.name, "name", text)) return HOYLE_EINVAL;
    p = skip_space(p);
    if (*p == '(') {
        p++;
        /* The last ')' closes the list: inner ')' belong to nested specs in values. */
        const char *close = strrchr(p, ')');
        if (close == NULL) return hoyle_error(HOYLE_EINVAL, "spec '%s': missing ')'", text);
        if (*skip_space(close + 1) != '\0')
            return hoyle_error(HOYLE_EINVAL, "spec '%s': text after ')'", text);
        if (skip_space(p) == close) goto done; /* `name()` */
        while (p < close) {
            /* One item runs to the next comma at depth 0. */
            const char *item = p, *eq = NULL;
            int depth = 0;
            while (p < close && (depth > 0 || *p != ',')) {
                if (*p == '(') depth++;
                if (*p == ')') depth--;
                if (depth < 0) return hoyle_error(HOYLE_EINVAL, "spec '%s': unbalanced ')'", text);
                /* The first '=' at depth 0 splits key from value; later ones belong to the
                 * value. */
                if (*p == '=' && eq == NULL && depth == 0) eq = p;
                p++;
            }
            if (depth != 0) return hoyle_error(HOYLE_EINVAL, "spec '%s': unbalanced '('", text);
            if (eq == NULL) {
                /* Best effort: a too-long item is truncated in the message, not reported. */
                char bad[SPEC_VALUE_MAX];
                copy_token(item, p, bad, sizeof bad, "item", text);
                return hoyle_error(HOYLE_EINVAL, "spec '%s': expected key=value, got '%s'", text,
                                   bad);
            }
            if (s.num_params == SPEC_MAX_PARAMS)
                return hoyle_error(HOYLE_EINVAL, "spec '%s': more than %d parameters", text,
                                   SPEC_MAX_PARAMS);
            char *key = s.params[s.num_params].key, *value = s.params[s.num_params].value;
            if (copy_token(item, eq, key, SPEC_NAME_MAX, "key", text)) return HOYLE_EINVAL;
            if (copy_token(eq + 1, p, value, SPEC_VALUE_MAX, "value", text)) return HOYLE_EINVAL;
            if (key[0] == '\0') return hoyle_error(HOYLE_EINVAL, "spec '%s': empty key", text);
            if (value[0] == '\0')
                return hoyle_error(HOYLE_EINVAL, "spec '%s': empty value for '%s'", text, key);
            for (int i = 0; i < s.num_params; i++)
                if (strcmp(s.params[i].key, key) == 0)
                    return hoyle_error(HOYLE_EINVAL, "spec '%s': key '%s' given twice", text, key);
            s.num_params++;
            /* After skipping the comma, reaching ')' means the list ended in ",)". */
            if (p < close) p++; /* the comma */
            if (p == close && p[-1] == ',')
                return hoyle_error(HOYLE_EINVAL, "spec '%s': trailing ','", text);
        }
    } else if (*p != '\0') {
        return hoyle_error(HOYLE_EINVAL, "spec '%s': unexpected '%c' after name", text, *p);
    }
done:
    *out = s;
    return HOYLE_OK;
}

/* Index of `word` in "a|b|c", or -1. */
/* A bound as people write it: whole numbers in full (1000000000, not 1e+09),
 * others by %g. `buf` holds 32 bytes. */
static const char *bound_text(double v, char *buf)
{
    if (v == floor(v) && fabs(v) < 1e18)
        snprintf(buf, 32, "%.0f", v);
    else
        snprintf(buf, 32, "%g", v);
    return buf;
}

static int choice_index(const char *choices, const char *word)
{
    size_t wlen = strlen(word);
    int index = 0;
    for (const char *c = choices; c;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == wlen && strncmp(c, word, len) == 0) return index;
        index++;
        c = bar ? bar + 1 : NULL;
    }
    return -1;
}

/* Convert one textual value per its definition into *number (the int,
 * double, 0/1 bool or choice index; strings keep only their text, stored by
 * the caller). Rejects trailing junk, overflow (errno) and, for doubles,
 * inf/nan, so a bound value is always finite and within [min, max]. */
static int bind_one(const param_def_t *d, const char *value, const char *what, double *number)
{
    char *end = NULL;
    switch (d->type) {
    case PARAM_INT: {
        errno = 0;
        long long v = strtoll(value, &end, 10);
        if (errno || end == value || *end != '\0')
            return hoyle_error(HOYLE_EINVAL, "%s: %s: '%s' is not an integer", what, d->key, value);
        /* Ranges are stored as doubles for both numeric types; every int a schema
         * uses is exactly representable. */
        char lo[32], hi[32];
        if ((double)v < d->min || (double)v > d->max)
            return hoyle_error(HOYLE_EINVAL, "%s: %s: %lld is out of range [%s, %s]", what, d->key,
                               v, bound_text(d->min, lo), bound_text(d->max, hi));
        *number = (double)v;
        return HOYLE_OK;
    }
    case PARAM_DOUBLE: {
        errno = 0;
        double v = strtod(value, &end);
        if (errno || end == value || *end != '\0' || !isfinite(v))
            return hoyle_error(HOYLE_EINVAL, "%s: %s: '%s' is not a number", what, d->key, value);
        char lo[32], hi[32];
        if (v < d->min || v > d->max)
            return hoyle_error(HOYLE_EINVAL, "%s: %s: %g is out of range [%s, %s]", what, d->key, v,
                               bound_text(d->min, lo), bound_text(d->max, hi));
        *number = v;
        return HOYLE_OK;
    }
    case PARAM_BOOL: {
        int t = choice_index("true|1|yes|on", value), f = choice_index("false|0|no|off", value);
        if (t < 0 && f < 0)
            return hoyle_error(HOYLE_EINVAL, "%s: %s: '%s' is not a boolean (true/false)", what,
                               d->key, value);
        *number = t >= 0 ? 1.0 : 0.0;
        return HOYLE_OK;
    }
    case PARAM_CHOICE: {
        int i = choice_index(d->choices, value);
        if (i < 0)
            return hoyle_error(HOYLE_EINVAL, "%s: %s: '%s' is not one of %s", what, d->key, value,
                               d->choices);
        *number = i;
        return HOYLE_OK;
    }
    case PARAM_STRING: *number = 0; return HOYLE_OK;
    }
    return hoyle_error(HOYLE_EINVAL, "%s: %s: bad schema type", what, d->key);
}

int params_bind(const param_def_t *defs, const spec_t *spec, const char *what, params_t *out)
{
    params_t p;
    memset(&p, 0, sizeof p);
    p.defs = defs;
    /* Count the NULL-key-terminated schema, stopping one past the limit so an
     * oversized schema is detected without reading further. */
    while (defs && defs[p.num].key && p.num <= SPEC_MAX_PARAMS) p.num++;
    if (p.num > SPEC_MAX_PARAMS)
        return hoyle_error(HOYLE_EFULL, "%s: the schema has more than %d parameters", what,
                           SPEC_MAX_PARAMS);
    /* First pass: reject unknown keys before anything is bound, so a typo is
     * reported as such and not masked by a range error elsewhere. */
    for (int i = 0; i < spec->num_params; i++) {
        int found = 0;
        for (int j = 0; j < p.num; j++) found |= strcmp(defs[j].key, spec->params[i].key) == 0;
        if (!found) {
            char known[512] = "";
            size_t used = 0;
            for (int j = 0; j < p.num && used < sizeof known; j++)
                used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", j ? ", " : "",
                                         defs[j].key);
            return hoyle_error(HOYLE_EINVAL, "%s: unknown parameter '%s' (known: %s)", what,
                               spec->params[i].key, p.num ? known : "none");
        }
    }
    /* Second pass, in schema order: the given value, else the default ("" for
     * none). Defaults go through bind_one too, so a bad default in a schema is
     * caught the first time it is used. */
    for (int j = 0; j < p.num; j++) {
        const char *value = defs[j].def ? defs[j].def : "";
        for (int i = 0; i < spec->num_params; i++)
            if (strcmp(defs[j].key, spec->params[i].key) == 0) value = spec->params[i].value;
        if (bind_one(&defs[j], value, what, &p.number[j])) return HOYLE_EINVAL;
        snprintf(p.text[j], SPEC_VALUE_MAX, "%s", value);
    }
    *out = p;
    return HOYLE_OK;
}

static int index_of(const params_t *p, const char *key)
{
    for (int j = 0; j < p->num; j++)
        if (strcmp(p->defs[j].key, key) == 0) return j;
    return -1;
}

bool params_has(const params_t *p, const char *key) { return index_of(p, key) >= 0; }

/* Typed getters abort on an unknown key: asking for a key that is not in the
 * schema is a programmer error, not input to report. */
static int find(const params_t *p, const char *key)
{
    int j = index_of(p, key);
    if (j >= 0) return j;
    fprintf(stderr, "params: no parameter '%s' in schema\n", key);
    abort();
}

long long params_int(const params_t *p, const char *key)
{
    return (long long)p->number[find(p, key)];
}
double params_double(const params_t *p, const char *key) { return p->number[find(p, key)]; }
bool params_bool(const params_t *p, const char *key) { return p->number[find(p, key)] != 0.0; }
int params_choice(const params_t *p, const char *key) { return (int)p->number[find(p, key)]; }
const char *params_str(const params_t *p, const char *key) { return p->text[find(p, key)]; }

/* snprintf returns the would-be length, so `used` may pass `cap`; the loop
 * stops then and the final check turns any truncation into HOYLE_EFULL. */
int params_format(const params_t *p, const char *name, char *buf, size_t cap)
{
    size_t used = (size_t)snprintf(buf, cap, "%s", name);
    for (int j = 0; j < p->num && used < cap; j++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%s=%s", j ? "," : "(", p->defs[j].key,
                                 p->text[j]);
    if (p->num > 0 && used < cap) used += (size_t)snprintf(buf + used, cap - used, ")");
    if (used >= cap) return hoyle_error(HOYLE_EFULL, "spec '%s': formatted text too long", name);
    return (int)used;
}

int params_describe(const param_def_t *defs, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int j = 0; defs && defs[j].key && used < cap; j++) {
        const param_def_t *d = &defs[j];
        char range[96] = "";
        char lo[32], hi[32];
        if (d->type == PARAM_INT || d->type == PARAM_DOUBLE)
            snprintf(range, sizeof range, " [%s..%s]", bound_text(d->min, lo),
                     bound_text(d->max, hi));
        else if (d->type == PARAM_CHOICE)
            snprintf(range, sizeof range, " {%s}", d->choices);
        else if (d->type == PARAM_BOOL)
            snprintf(range, sizeof range, " {true|false}");
        used += (size_t)snprintf(buf + used, cap - used, "  %-10s = %-8s%s  %s\n", d->key,
                                 d->def ? d->def : "", range, d->help ? d->help : "");
    }
    if (used >= cap) return hoyle_error(HOYLE_EFULL, "schema description too long");
    return (int)used;
}
