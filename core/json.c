/* json.c — the JSON writer of the subcommands and of hoyle serve (json.h). Invariant: each
 * member is preceded by a comma exactly when it is not the first of its
 * container. */
#include "core/json.h"

#include <math.h>

/* RFC 8259 escaping: quote, backslash and the control characters below
 * 0x20 must be escaped; bytes >= 0x80 pass through (the text is UTF-8). */
void json_escape(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p == '\r')
            fputs("\\r", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

/* The comma and the key of the next member. */
static void member(json_t *j, const char *key)
{
    if (!j->first[j->depth]) fputc(',', j->out);
    j->first[j->depth] = false;
    if (key) {
        json_escape(j->out, key);
        fputc(':', j->out);
    }
}

void json_open(json_t *j, const char *key, char bracket)
{
    member(j, key);
    fputc(bracket, j->out);
    /* Past JSON_MAX_DEPTH the depth stops growing: deeper containers still
     * nest correctly in the output, only their comma bookkeeping is shared. */
    if (j->depth + 1 < JSON_MAX_DEPTH) j->depth++;
    j->first[j->depth] = true;
    j->close[j->depth] = bracket == '[' ? ']' : '}';
}

void json_close(json_t *j)
{
    /* Never closes the outer object: json_end() does, with its newline. */
    if (j->depth == 0) return;
    fputc(j->close[j->depth], j->out);
    j->depth--;
}

void json_begin(json_t *j, FILE *out)
{
    j->out = out;
    j->depth = 0;
    j->first[0] = true;
    json_open(j, NULL, '{');
}

void json_begin_array(json_t *j, FILE *out)
{
    j->out = out;
    j->depth = 0;
    j->first[0] = true;
    json_open(j, NULL, '[');
}

void json_end(json_t *j)
{
    /* Closes whatever is still open, so an early return in a command cannot
     * leave a truncated document on stdout. */
    while (j->depth > 0) json_close(j);
    fputc('\n', j->out);
}

void json_str(json_t *j, const char *key, const char *s)
{
    member(j, key);
    json_escape(j->out, s);
}

void json_int(json_t *j, const char *key, long long v)
{
    member(j, key);
    fprintf(j->out, "%lld", v);
}

void json_u64(json_t *j, const char *key, uint64_t v)
{
    member(j, key);
    fprintf(j->out, "%llu", (unsigned long long)v);
}

void json_bool(json_t *j, const char *key, bool v)
{
    member(j, key);
    fputs(v ? "true" : "false", j->out);
}

void json_num(json_t *j, const char *key, const char *fmt, double v)
{
    member(j, key);
    /* JSON has no NaN or infinity: a missing statistic (an Elo with no games)
     * is written as null. */
    if (isfinite(v))
        fprintf(j->out, fmt, v);
    else
        fputs("null", j->out);
}
