/* eval_linear.c — weighted game heuristics and their files (eval_linear.h). */
#include "mcts/eval_linear.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/file.h"

#define EVAL_MAGIC    "HOYLE-EVAL 2"
#define EVAL_MAGIC_V1 "HOYLE-EVAL 1" /* no checksum line: read, never written */
enum { EVAL_FILE_MAX = 1 << 16 };    /* 512 terms of about 40 bytes, and the header */

int eval_linear_default(const game_t *g, eval_linear_t *e)
{
    memset(e, 0, sizeof *e);
    e->g = g;
    e->n = game_eval_terms(g, NULL, 0, NULL, e->names, e->w);
    if (e->n <= 0)
        return hoyle_error(HOYLE_EINVAL, "%s has no heuristic of weighted terms (eval=FILE)",
                           g->spec);
    return HOYLE_OK;
}

/* FNV-1a 64 over bytes: the checksum of a file's lines before its last. */
static uint64_t fnv1a(const void *data, size_t len)
{
    const unsigned char *b = data;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

int eval_linear_save(const eval_linear_t *e, const char *path)
{
    enum { cap = EVAL_FILE_MAX };
    char *buf = malloc(cap);
    if (buf == NULL) return hoyle_error(HOYLE_ENOMEM, "eval weights: out of memory");
    int n = snprintf(buf, cap, EVAL_MAGIC "\ngame %s\nterms %d\n", e->g->spec, e->n);
    for (int i = 0; i < e->n && n > 0 && n < cap; i++)
        n += snprintf(buf + n, cap - (size_t)n, "%s %.17g\n", e->names[i], e->w[i]);
    if (n > 0 && n < cap)
        n += snprintf(buf + n, cap - (size_t)n, "checksum %016" PRIx64 "\n", fnv1a(buf, (size_t)n));
    int status = n < 0 || n >= cap ? hoyle_error(HOYLE_EFULL, "eval weights '%s': too long", path)
                                   : file_write_atomic(path, buf, (size_t)n);
    free(buf);
    return status;
}

/* One line without its newline into buf; false at the end of the file or a line too long. */
static bool read_line(FILE *f, char *buf, size_t cap)
{
    if (!fgets(buf, (int)cap, f)) return false;
    size_t len = strlen(buf);
    if (len == 0 || buf[len - 1] != '\n') return false;
    buf[len - 1] = '\0';
    return true;
}

static int parse(FILE *f, const char *text, const char *path, eval_linear_t *e)
{
    char line[1024];
    if (!read_line(f, line, sizeof line) ||
        (strcmp(line, EVAL_MAGIC) != 0 && strcmp(line, EVAL_MAGIC_V1) != 0))
        return hoyle_error(HOYLE_EINVAL, "'%s': not a hoyle evaluation file (no '%s' line)", path,
                           EVAL_MAGIC);
    bool v1 = strcmp(line, EVAL_MAGIC_V1) == 0;
    if (!read_line(f, line, sizeof line) || strncmp(line, "game ", 5) != 0)
        return hoyle_error(HOYLE_EINVAL, "'%s': line 2: no 'game SPEC'", path);
    if (strcmp(line + 5, e->g->spec) != 0)
        return hoyle_error(HOYLE_EINVAL, "'%s': weights for '%s', not for '%s'", path, line + 5,
                           e->g->spec);
    int n = -1;
    char extra;
    if (!read_line(f, line, sizeof line) || sscanf(line, "terms %d %c", &n, &extra) != 1 ||
        n != e->n)
        return hoyle_error(HOYLE_EINVAL, "'%s': line 3: want 'terms %d' (the game's terms)", path,
                           e->n);
    for (int i = 0; i < n; i++) {
        char name[128];
        double w;
        if (!read_line(f, line, sizeof line) || sscanf(line, "%127s %lf %c", name, &w, &extra) != 2)
            return hoyle_error(HOYLE_EINVAL, "'%s': line %d: want '%s WEIGHT'", path, 4 + i,
                               e->names[i]);
        if (strcmp(name, e->names[i]) != 0)
            return hoyle_error(HOYLE_EINVAL, "'%s': line %d: term '%s', the game's is '%s'", path,
                               4 + i, name, e->names[i]);
        if (!isfinite(w) || fabs(w) > 1e6)
            return hoyle_error(HOYLE_EINVAL, "'%s': line %d: weight %g out of range", path, 4 + i,
                               w);
        e->w[i] = w;
    }
    /* version 2: the checksum of every byte before its line (a damaged or cut file) */
    long body = ftell(f);
    uint64_t want = 0;
    if (!v1 && (!read_line(f, line, sizeof line) ||
                sscanf(line, "checksum %16" SCNx64 " %c", &want, &extra) != 1))
        return hoyle_error(HOYLE_EINVAL, "'%s': line %d: want 'checksum HEX' (a cut file?)", path,
                           4 + n);
    if (!v1 && fnv1a(text, (size_t)body) != want)
        return hoyle_error(HOYLE_EINVAL, "'%s': checksum mismatch (a damaged file)", path);
    if (fgets(line, sizeof line, f))
        return hoyle_error(HOYLE_EINVAL, "'%s': line %d: %s", path, 4 + n + !v1,
                           v1 ? "more than the terms" : "more after the checksum");
    return HOYLE_OK;
}

int eval_linear_load(const char *path, const game_t *g, eval_linear_t *e)
{
    eval_linear_t tmp;
    int status = eval_linear_default(g, &tmp);
    if (status) return status;
    /* the whole file in memory: the checksum covers its bytes */
    FILE *f = fopen(path, "rb");
    if (f == NULL) return hoyle_error(HOYLE_EIO, "eval weights '%s': %s", path, strerror(errno));
    char *text = malloc(EVAL_FILE_MAX + 1);
    size_t len = text ? fread(text, 1, EVAL_FILE_MAX + 1, f) : 0;
    bool err = ferror(f);
    fclose(f);
    if (text == NULL) return hoyle_error(HOYLE_ENOMEM, "eval weights: out of memory");
    if (err || len == 0 || len > EVAL_FILE_MAX || memchr(text, '\0', len)) {
        free(text);
        return hoyle_error(HOYLE_EINVAL, "'%s': not a hoyle evaluation file (%s)", path,
                           err                   ? "read error"
                           : len == 0            ? "empty"
                           : len > EVAL_FILE_MAX ? "too long"
                                                 : "binary");
    }
    f = fmemopen(text, len, "r");
    if (f == NULL) {
        free(text);
        return hoyle_error(HOYLE_ENOMEM, "eval weights: out of memory");
    }
    status = parse(f, text, path, &tmp);
    fclose(f);
    free(text);
    if (!status) *e = tmp;
    return status;
}

double eval_linear_value(const eval_linear_t *e, const void *s, int player, double *terms)
{
    if (game_is_terminal(e->g, s)) {
        for (int i = 0; terms && i < e->n; i++) terms[i] = 0;
        return game_evaluate(e->g, s, player);
    }
    if (terms == NULL) return tanh(game_eval_dot(e->g, s, player, e->w, e->n)); /* the search's */
    game_eval_terms(e->g, s, player, terms, NULL, NULL);
    double x = 0;
    for (int i = 0; i < e->n; i++) x += e->w[i] * terms[i];
    return tanh(x);
}
