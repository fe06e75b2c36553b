/* spec.c — parsing and binding of `name(key=value,...)` specs (see spec.h).
 * Invariant: outputs are written only after the whole input has been checked. */
#include "core/spec.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "core/json.h"

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

/* Index of `word` in "a|b|c", or -1. */
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

/* "a|b|c" as "a, b, c" (cut to fit). */
static void choice_list(const char *choices, char *buf, size_t cap)
{
    size_t n = 0;
    for (const char *c = choices; *c && n + 3 < cap; c++) {
        if (*c == '|')
            buf[n++] = ',', buf[n++] = ' ';
        else
            buf[n++] = *c;
    }
    buf[n] = '\0';
}

/* Whether `word` is one of "a|b|c" ignoring case (configs write True, YES). */
static bool word_in(const char *choices, const char *word)
{
    for (const char *c = choices; c;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == strlen(word) && strncasecmp(c, word, len) == 0) return true;
        c = bar ? bar + 1 : NULL;
    }
    return false;
}

/* "WHAT: KEY" or "WHAT" when key is NULL: the start of every value message. */
#define VALUE_ERROR(what, key, fmt, ...)                                                           \
    hoyle_error(HOYLE_EINVAL, "%s%s%s: " fmt, what, key ? ": " : "", key ? key : "", __VA_ARGS__)

/* `WHAT: KEY: 99 is out of range [5, 19]`, or `... 0 is less than 1` for a range without
 * an upper end (max 9e15 or more) and a value under it; the value as the user wrote it. */
static int out_of_range(const param_def_t *d, const char *key, const char *value, double v,
                        const char *what)
{
    char lo[32], hi[32];
    if (d->max >= 9e15 && v < d->min)
        return VALUE_ERROR(what, key, "%s is less than %s", value, bound_text(d->min, lo));
    return VALUE_ERROR(what, key, "%s is out of range [%s, %s]", value, bound_text(d->min, lo),
                       bound_text(d->max, hi));
}

/* Convert one textual value per its definition into *number (the int,
 * double, 0/1 bool or choice index; strings keep only their text, stored by
 * the caller). Rejects trailing junk, overflow (errno) and, for doubles,
 * inf/nan, so a bound value is always finite and within [min, max]. */
int param_value(const param_def_t *d, const char *key, const char *value, const char *what,
                double *number)
{
    char *end = NULL;
    switch (d->type) {
    case PARAM_INT: {
        errno = 0;
        /* A row of non-negative values reads up to 2^64 - 1 (seeds); "-1" is read signed, to
         * be refused as out of range rather than wrapped. */
        bool sign = strchr(value, '-') != NULL || d->min < 0;
        double v = sign ? (double)strtoll(value, &end, 10) : (double)strtoull(value, &end, 10);
        if (errno || end == value || *end != '\0')
            return VALUE_ERROR(what, key, "'%s' is not an integer", value);
        /* Ranges are stored as doubles for both numeric types; every int a schema
         * uses is exactly representable. */
        if (v < d->min || v > d->max) return out_of_range(d, key, value, v, what);
        *number = v;
        return HOYLE_OK;
    }
    case PARAM_DOUBLE: {
        errno = 0;
        double v = strtod(value, &end);
        if (errno || end == value || *end != '\0' || !isfinite(v))
            return VALUE_ERROR(what, key, "'%s' is not a number", value);
        if (v < d->min || v > d->max) return out_of_range(d, key, value, v, what);
        *number = v;
        return HOYLE_OK;
    }
    case PARAM_BOOL: {
        bool t = word_in("true|1|yes|on", value), f = word_in("false|0|no|off", value);
        if (!t && !f) return VALUE_ERROR(what, key, "'%s' is not a boolean (true/false)", value);
        *number = t ? 1.0 : 0.0;
        return HOYLE_OK;
    }
    case PARAM_CHOICE: {
        int i = choice_index(d->choices, value);
        if (i < 0) {
            char list[SPEC_VALUE_MAX];
            choice_list(d->choices, list, sizeof list);
            return VALUE_ERROR(what, key, "'%s' is not one of %s", value, list);
        }
        *number = i;
        return HOYLE_OK;
    }
    case PARAM_STRING: *number = 0; return HOYLE_OK;
    case PARAM_LIST:
    case PARAM_SECTION:
    case PARAM_TABLE: break;
    }
    return VALUE_ERROR(what, key ? key : d->key, "%s", "not a scalar setting");
}

int param_fits(const param_def_t *d, const char *key, const char *text, const char *what)
{
    if (d->size == 0 || d->type != PARAM_STRING || strlen(text) < d->size) return HOYLE_OK;
    return VALUE_ERROR(what, key, "'%.40s...' is longer than %zu characters", text, d->size - 1);
}

void param_store(const param_def_t *d, double number, const char *text, void *dst)
{
    if (d->size == 0 || dst == NULL) return;
    unsigned char *at = (unsigned char *)dst + d->at;
    if (d->type == PARAM_STRING) {
        snprintf((char *)at, d->size, "%s", text);
    } else if (d->type == PARAM_DOUBLE && d->size == sizeof(float)) {
        float f = (float)number;
        memcpy(at, &f, sizeof f);
    } else if (d->type == PARAM_DOUBLE) {
        memcpy(at, &number, sizeof number);
    } else if (d->size == 1) { /* bool, or a char-sized integer */
        at[0] = (unsigned char)(long long)number;
    } else if (d->size == 2) {
        int16_t v = (int16_t)number;
        memcpy(at, &v, sizeof v);
    } else if (d->size == 4) {
        int32_t v = (int32_t)number;
        memcpy(at, &v, sizeof v);
    } else {
        int64_t v = (int64_t)number;
        memcpy(at, &v, sizeof v);
    }
}

void params_store(const params_t *p, void *dst)
{
    for (int j = 0; j < p->num; j++) param_store(&p->defs[j], p->number[j], p->text[j], dst);
}

/* The integer of an INT, BOOL or CHOICE landing of 1, 2, 4 or 8 bytes. */
static int64_t load_integer(const unsigned char *at, size_t size)
{
    if (size == 1) return at[0];
    if (size == 2) {
        int16_t v;
        memcpy(&v, at, sizeof v);
        return v;
    }
    if (size == 4) {
        int32_t v;
        memcpy(&v, at, sizeof v);
        return v;
    }
    int64_t v;
    memcpy(&v, at, sizeof v);
    return v;
}

/* Number `v` of row d as param_text writes it. */
static int number_text(const param_def_t *d, double v, int64_t whole, char *buf, size_t cap)
{
    switch (d->type) {
    case PARAM_INT:
        return d->min >= 0 ? snprintf(buf, cap, "%" PRIu64, (uint64_t)whole)
                           : snprintf(buf, cap, "%" PRId64, whole);
    case PARAM_DOUBLE: return snprintf(buf, cap, "%.17g", v);
    case PARAM_BOOL: return snprintf(buf, cap, "%s", whole ? "true" : "false");
    case PARAM_CHOICE: {
        const char *c = d->choices;
        for (int64_t i = 0; c && i < whole; i++) {
            c = strchr(c, '|');
            if (c) c++;
        }
        size_t len = c ? strcspn(c, "|") : 0;
        return snprintf(buf, cap, "%.*s", (int)len, c ? c : "");
    }
    default: return snprintf(buf, cap, "%s", "");
    }
}

int param_text(const param_def_t *d, const void *src, char *buf, size_t cap)
{
    const unsigned char *at = (const unsigned char *)src + d->at;
    int n = 0;
    if (d->size == 0 || d->type > PARAM_STRING) {
        n = snprintf(buf, cap, "%s", "");
    } else if (d->type == PARAM_STRING) {
        n = snprintf(buf, cap, "%.*s", (int)strnlen((const char *)at, d->size), (const char *)at);
    } else if (d->type == PARAM_DOUBLE && d->size == sizeof(float)) {
        float f;
        memcpy(&f, at, sizeof f);
        n = number_text(d, f, 0, buf, cap);
    } else if (d->type == PARAM_DOUBLE) {
        double v;
        memcpy(&v, at, sizeof v);
        n = number_text(d, v, 0, buf, cap);
    } else {
        n = number_text(d, 0, load_integer(at, d->size), buf, cap);
    }
    if (n < 0 || (size_t)n >= cap)
        return hoyle_error(HOYLE_EFULL, "%s: value text longer than %zu bytes", d->key, cap);
    return n;
}

bool param_is_default(const param_def_t *d, const char *text)
{
    double v = 0;
    char def[SPEC_VALUE_MAX];
    if (d->def == NULL || d->type > PARAM_STRING || param_value(d, d->key, d->def, "", &v))
        return false;
    if (d->type == PARAM_STRING)
        snprintf(def, sizeof def, "%s", d->def);
    else
        number_text(d, v, (int64_t)v, def, sizeof def);
    return strcmp(def, text) == 0;
}

const char *params_key_at(const void *defs, int i)
{
    const param_def_t *d = defs;
    for (int j = 0; j < i; j++)
        if (d == NULL || d[j].key == NULL) return NULL;
    return d ? d[i].key : NULL;
}

/* Edit distance of a and b counting a swap of two neighbours as one edit (optimal string
 * alignment), capped at 3: anything farther is no suggestion. */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 3;
    int d[64][64];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb] < 3 ? d[la][lb] : 3;
}

/* A dotted word ("optim.lrr") is matched by its last part, the key within its section. */
const char *spec_nearest(const char *word, spec_name_fn name_at, const void *ctx)
{
    const char *dot = strrchr(word, '.');
    if (dot && dot[1]) word = dot + 1;
    const char *best = NULL;
    int best_score = 100;
    size_t len = strlen(word);
    for (int i = 0; name_at(ctx, i); i++) {
        const char *name = name_at(ctx, i);
        int d = distance(word, name), score = 2 * d; /* half steps: a prefix ranks at 3 */
        bool near = (d == 1 && len >= 2) || (d == 2 && len >= 5);
        if (!near && len >= 3 && strncmp(name, word, len) == 0) near = true, score = 3;
        if (near && score < best_score) best = name, best_score = score;
    }
    return best;
}

int spec_unknown(const char *lead, const char *word, spec_name_fn name_at, const void *ctx)
{
    /* The list is a hint: cut at the buffer, never an error of its own. */
    char known[400] = "";
    size_t used = 0;
    for (int i = 0; name_at(ctx, i) && used < sizeof known; i++)
        used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                 name_at(ctx, i));
    const char *near = spec_nearest(word, name_at, ctx);
    char guess[SPEC_NAME_MAX + 24] = "";
    if (near) snprintf(guess, sizeof guess, "did you mean '%s'? ", near);
    return hoyle_error(HOYLE_EINVAL, "%s '%s' (%sknown: %s)", lead, word, guess,
                       known[0] ? known : "none");
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
            char lead[160];
            snprintf(lead, sizeof lead, "%s: unknown parameter", what);
            return spec_unknown(lead, spec->params[i].key, params_key_at, defs);
        }
    }
    /* Second pass, in schema order: the given value, else the default ("" for
     * none). Defaults go through param_value too, so a bad default in a schema is
     * caught the first time it is used. */
    for (int j = 0; j < p.num; j++) {
        const char *value = defs[j].def ? defs[j].def : "";
        for (int i = 0; i < spec->num_params; i++)
            if (strcmp(defs[j].key, spec->params[i].key) == 0) value = spec->params[i].value;
        if (param_value(&defs[j], defs[j].key, value, what, &p.number[j]) ||
            param_fits(&defs[j], defs[j].key, value, what))
            return HOYLE_EINVAL;
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
    int shown = 0;
    /* an empty text (a string left at "") is left out: the parser refuses `key=`, and the
     * default gives it back */
    for (int j = 0; j < p->num && used < cap; j++)
        if (p->text[j][0] != '\0' &&
            !(p->defs[j].quiet && p->defs[j].def && strcmp(p->text[j], p->defs[j].def) == 0))
            used += (size_t)snprintf(buf + used, cap - used, "%s%s=%s", shown++ ? "," : "(",
                                     p->defs[j].key, p->text[j]);
    if (shown > 0 && used < cap) used += (size_t)snprintf(buf + used, cap - used, ")");
    if (used >= cap) return hoyle_error(HOYLE_EFULL, "spec '%s': formatted text too long", name);
    return (int)used;
}

void param_range_text(const param_def_t *d, char *buf, size_t cap)
{
    buf[0] = '\0';
    char lo[32], hi[32];
    if ((d->type == PARAM_INT || d->type == PARAM_DOUBLE) && d->max >= 9e15)
        snprintf(buf, cap, " [%s..]", bound_text(d->min, lo));
    else if (d->type == PARAM_INT || d->type == PARAM_DOUBLE)
        snprintf(buf, cap, " [%s..%s]", bound_text(d->min, lo), bound_text(d->max, hi));
    else if (d->type == PARAM_CHOICE)
        snprintf(buf, cap, " {%s}", d->choices);
    else if (d->type == PARAM_BOOL)
        snprintf(buf, cap, " {true|false}");
}

int params_describe(const param_def_t *defs, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int j = 0; defs && defs[j].key && used < cap; j++) {
        const param_def_t *d = &defs[j];
        char range[96], units[40] = "";
        param_range_text(d, range, sizeof range);
        if (d->units) snprintf(units, sizeof units, " (%s)", d->units);
        used += (size_t)snprintf(buf + used, cap - used, "  %-10s = %-8s%s  %s%s\n", d->key,
                                 d->def ? d->def : "", range, d->help ? d->help : "", units);
    }
    if (used >= cap) return hoyle_error(HOYLE_EFULL, "schema description too long");
    return (int)used;
}

/* The type column of a docs table: "int 1–64 games", "one of a, b", "list (≤ 8)". */
static void markdown_type(const param_def_t *d, char *buf, size_t cap)
{
    static const char *const names[] = {"int",  "number", "bool",    "one of",
                                        "text", "list",   "section", "map"};
    char range[160] = "", lo[32], hi[32]; /* bounds in full: 10000000, not 1e+07 */
    if ((d->type == PARAM_INT || d->type == PARAM_DOUBLE) && d->max >= 9e15)
        snprintf(range, sizeof range, " ≥ %s", bound_text(d->min, lo));
    else if (d->type == PARAM_INT || d->type == PARAM_DOUBLE)
        snprintf(range, sizeof range, " %s–%s", bound_text(d->min, lo), bound_text(d->max, hi));
    else if (d->type == PARAM_CHOICE) {
        range[0] = ' ';
        choice_list(d->choices, range + 1, sizeof range - 1);
    } else if (d->type == PARAM_LIST && d->max > 0)
        snprintf(range, sizeof range, " (%g–%g)", d->min, d->max);
    snprintf(buf, cap, "%s%s%s%s%s", names[d->type], range, d->units ? " " : "",
             d->units ? d->units : "", d->required ? ", required" : "");
}

static size_t markdown_rows(const param_def_t *defs, const char *prefix, char *buf, size_t cap,
                            size_t used)
{
    for (int j = 0; defs && defs[j].key && used < cap; j++) {
        const param_def_t *d = &defs[j];
        char key[128], type[200];
        snprintf(key, sizeof key, "%s%s", prefix, d->key);
        markdown_type(d, type, sizeof type);
        const char *def = d->def ? d->def : d->required ? "" : "—";
        used += (size_t)snprintf(
            buf + used, cap > used ? cap - used : 0, "| `%s` | %s | %s%s%s | %s%s |\n", key, type,
            def[0] && d->def ? "`" : "", def, def[0] && d->def ? "`" : "", d->help ? d->help : "",
            d->may_change ? " (a resume may change it)" : "");
        if ((d->type == PARAM_SECTION || d->type == PARAM_TABLE) && d->fields) {
            char inner[sizeof key + 1];
            snprintf(inner, sizeof inner, "%s.", key);
            used = markdown_rows(d->fields, inner, buf, cap, used);
        }
    }
    return used;
}

int params_markdown(const param_def_t *defs, const char *prefix, char *buf, size_t cap)
{
    size_t used = (size_t)snprintf(buf, cap,
                                   "| key | type | default | meaning |\n"
                                   "| --- | --- | --- | --- |\n");
    used = markdown_rows(defs, prefix ? prefix : "", buf, cap, used);
    if (used >= cap) return hoyle_error(HOYLE_EFULL, "schema table too long");
    return (int)used;
}

void params_json(struct json *j, const char *key, const param_def_t *defs)
{
    static const char *const types[] = {"int",    "double", "bool",    "choice",
                                        "string", "list",   "section", "map"};
    json_open(j, key, '[');
    for (int p = 0; defs && defs[p].key; p++) {
        const param_def_t *d = &defs[p];
        json_open(j, NULL, '{');
        json_str(j, "key", d->key);
        json_str(j, "type", types[d->type]);
        json_str(j, "default", d->def ? d->def : "");
        if (d->type == PARAM_INT || d->type == PARAM_DOUBLE) {
            json_num(j, "min", "%.17g", d->min);
            json_num(j, "max", "%.17g", d->max);
        }
        if (d->type == PARAM_CHOICE) {
            json_open(j, "choices", '[');
            for (const char *c = d->choices ? d->choices : ""; *c;) {
                const char *bar = strchr(c, '|');
                size_t n = bar ? (size_t)(bar - c) : strlen(c);
                char word[SPEC_VALUE_MAX];
                snprintf(word, sizeof word, "%.*s", (int)n, c);
                json_str(j, NULL, word);
                c += bar ? n + 1 : n;
            }
            json_close(j);
        }
        if (d->units) json_str(j, "units", d->units);
        json_str(j, "help", d->help ? d->help : "");
        json_close(j);
    }
    json_close(j);
}
