/* pdn.c — PDN game import/export (checkers.h). The reader keeps a line
 * counter for its messages and works on a private copy of the record, so a
 * failed read leaves the caller's record untouched. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/checkers/checkers.h"
#include "games/checkers/checkers_internal.h"

static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "2-0", "0-2",
                                      "1-1", "0-0", "*",       NULL};

typedef struct reader {
    const char *p;
    int line;
} reader_t;

static void skip_blank(reader_t *r)
{
    for (;;) {
        while (isspace((unsigned char)*r->p)) r->line += *r->p++ == '\n';
        if (*r->p == '%' || *r->p == ';') { /* escape and rest-of-line comments */
            while (*r->p && *r->p != '\n') r->p++;
            continue;
        }
        return;
    }
}

static int read_tag(reader_t *r, checkers_pdn_game_t *pg)
{
    const char *p = r->p + 1;
    char key[32];
    size_t n = 0;
    while (isspace((unsigned char)*p)) p++;
    while (isalnum((unsigned char)*p) || *p == '_') {
        if (n + 1 >= sizeof key)
            return hoyle_error(HOYLE_EINVAL, "pdn: line %d: tag name too long", r->line);
        key[n++] = *p++;
    }
    key[n] = '\0';
    while (*p == ' ' || *p == '\t') p++;
    if (n == 0 || *p != '"')
        return hoyle_error(HOYLE_EINVAL, "pdn: line %d: malformed tag (want [Key \"value\"])",
                           r->line);
    p++;
    char value[160];
    n = 0;
    while (*p && *p != '"' && *p != '\n') {
        if (*p == '\\' && p[1]) p++;
        if (n + 1 >= sizeof value)
            return hoyle_error(HOYLE_EINVAL, "pdn: line %d: tag '%s' value too long", r->line, key);
        value[n++] = *p++;
    }
    value[n] = '\0';
    if (*p != '"')
        return hoyle_error(HOYLE_EINVAL, "pdn: line %d: tag '%s' value not closed", r->line, key);
    p++;
    while (*p == ' ' || *p == '\t') p++;
    if (*p != ']')
        return hoyle_error(HOYLE_EINVAL, "pdn: line %d: tag '%s' not closed with ']'", r->line,
                           key);
    r->p = p + 1;
    if (pg->num_tags == CHECKERS_PDN_TAGS)
        return hoyle_error(HOYLE_EINVAL, "pdn: line %d: more than %d tags", r->line,
                           CHECKERS_PDN_TAGS);
    snprintf(pg->tags[pg->num_tags].key, sizeof pg->tags[0].key, "%s", key);
    snprintf(pg->tags[pg->num_tags].value, sizeof pg->tags[0].value, "%s", value);
    pg->num_tags++;
    return HOYLE_OK;
}

/* Skip a {comment} or a (variation), nested. */
static int skip_group(reader_t *r)
{
    char open = *r->p, close = open == '{' ? '}' : ')';
    int depth = 0, line = r->line;
    do {
        if (!*r->p) return hoyle_error(HOYLE_EINVAL, "pdn: line %d: '%c' never closed", line, open);
        if (*r->p == open) depth++;
        if (*r->p == close) depth--;
        r->line += *r->p++ == '\n';
    } while (depth > 0);
    return HOYLE_OK;
}

static int read_game(const game_t *g, reader_t *r, checkers_pdn_game_t *pg, ck_state_t *s)
{
    skip_blank(r);
    while (*r->p == '[') {
        if (read_tag(r, pg)) return HOYLE_EINVAL;
        skip_blank(r);
    }
    game_init(g, s);
    for (int i = 0; i < pg->num_tags; i++)
        if (strcmp(pg->tags[i].key, "FEN") == 0) {
            if (ck_position_from_string(g, pg->tags[i].value, s))
                return hoyle_error_prefix(HOYLE_EINVAL, "pdn: FEN tag");
        }
    ck_position_to_string(g, s, pg->start, sizeof pg->start);
    snprintf(pg->result, sizeof pg->result, "*");
    for (;;) {
        skip_blank(r);
        if (!*r->p || *r->p == '[') return HOYLE_OK;
        if (*r->p == '{' || *r->p == '(') {
            if (skip_group(r)) return HOYLE_EINVAL;
            continue;
        }
        char tok[GAME_MOVE_MAX];
        size_t n = 0;
        while (*r->p && !isspace((unsigned char)*r->p) && !strchr("{}()[]", *r->p)) {
            if (n + 1 >= sizeof tok)
                return hoyle_error(HOYLE_EINVAL, "pdn: line %d: token too long", r->line);
            tok[n++] = *r->p++;
        }
        tok[n] = '\0';
        if (n == 0)
            return hoyle_error(HOYLE_EINVAL, "pdn: line %d: unexpected '%c'", r->line, *r->p);
        for (int i = 0; results[i]; i++)
            if (strcmp(tok, results[i]) == 0) {
                snprintf(pg->result, sizeof pg->result, "%.7s", tok);
                return HOYLE_OK;
            }
        if (tok[0] == '$') continue;
        size_t k = 0;
        while (isdigit((unsigned char)tok[k])) k++;
        if (k > 0 && tok[k] == '.') { /* a move number, maybe glued to the move: "1.11-15" */
            while (tok[k] == '.') k++;
            memmove(tok, tok + k, n - k + 1);
            n -= k;
            if (n == 0) continue;
        }
        while (n > 0 && (tok[n - 1] == '!' || tok[n - 1] == '?' || tok[n - 1] == '*'))
            tok[--n] = '\0';
        if (s->result != CK_ONGOING)
            return hoyle_error(HOYLE_EINVAL, "pdn: line %d: move '%s' after the game ended",
                               r->line, tok);
        int acts[GAME_MAX_CHAIN];
        int m = ck_move_from_string(g, s, tok, acts, GAME_MAX_CHAIN);
        if (m < 0)
            return hoyle_error_prefix(HOYLE_EINVAL, "pdn: line %d: move %d '%s'", r->line,
                                      pg->num_moves + 1, tok);
        if (pg->num_moves == CHECKERS_PDN_MOVES || pg->num_actions + m > CHECKERS_PDN_ACTIONS)
            return hoyle_error(HOYLE_EINVAL, "pdn: line %d: game too long", r->line);
        for (int i = 0; i < m; i++) {
            ck_apply(ck_game(g), s, acts[i]);
            pg->actions[pg->num_actions++] = acts[i];
        }
        pg->move_end[pg->num_moves++] = pg->num_actions;
    }
}

int checkers_pdn_read(const game_t *g, const char *text, checkers_pdn_game_t *out)
{
    checkers_pdn_game_t *pg = calloc(1, sizeof *pg);
    if (pg == NULL) return hoyle_error(HOYLE_ENOMEM, "pdn: out of memory");
    reader_t r = {.p = text, .line = 1};
    ck_state_t s;
    int status = read_game(g, &r, pg, &s);
    if (status == HOYLE_OK && pg->num_tags == 0 && pg->num_moves == 0 &&
        strcmp(pg->result, "*") == 0 && r.p == text)
        status = hoyle_error(HOYLE_EINVAL, "pdn: no game in the text");
    if (status == HOYLE_OK) memcpy(out, pg, sizeof *pg);
    free(pg);
    return status == HOYLE_OK ? (int)(r.p - text) : status;
}

int checkers_pdn_replay(const game_t *g, const checkers_pdn_game_t *pg, void *state)
{
    ck_state_t s;
    if (ck_position_from_string(g, pg->start, &s)) return HOYLE_EINVAL;
    for (int i = 0; i < pg->num_actions; i++) {
        if (!game_is_legal(g, &s, pg->actions[i]))
            return hoyle_error(HOYLE_EINVAL, "pdn: step %d is not legal", i + 1);
        ck_apply(ck_game(g), &s, pg->actions[i]);
    }
    memcpy(state, &s, sizeof s);
    return HOYLE_OK;
}

int checkers_pdn_write(const game_t *g, const checkers_pdn_game_t *pg, char *buf, size_t cap)
{
    ck_state_t s, init;
    if (ck_position_from_string(g, pg->start, &s)) return HOYLE_EINVAL;
    game_init(g, &init);
    char *out = malloc(cap + 1);
    if (!out) return hoyle_error(HOYLE_ENOMEM, "pdn: out of memory");
    size_t n = 0, col = 0;
#define EMIT(...) (n += (n < cap ? (size_t)snprintf(out + n, cap + 1 - n, __VA_ARGS__) : 0))
    bool has_fen = false;
    for (int i = 0; i < pg->num_tags; i++) {
        EMIT("[%s \"%s\"]\n", pg->tags[i].key, pg->tags[i].value);
        has_fen |= strcmp(pg->tags[i].key, "FEN") == 0;
    }
    if (!has_fen && (s.bb[0] != init.bb[0] || s.bb[1] != init.bb[1] || s.kings != init.kings ||
                     s.side != init.side))
        EMIT("[FEN \"%s\"]\n", pg->start);
    if (pg->num_tags || !has_fen) EMIT("\n");
    int number = 1, at = 0;
    for (int m = 0; m < pg->num_moves; m++) {
        char mv[GAME_MOVE_MAX], word[GAME_MOVE_MAX + 16];
        int steps = pg->move_end[m] - at, wl;
        if (steps < 1 || ck_move_to_string(g, &s, pg->actions + at, steps, mv, sizeof mv) < 0) {
            free(out);
            return hoyle_error(HOYLE_EINVAL, "pdn: move %d cannot be written", m + 1);
        }
        if (s.side == 0)
            wl = snprintf(word, sizeof word, "%d. %s", number, mv);
        else if (m == 0)
            wl = snprintf(word, sizeof word, "%d... %s", number, mv);
        else
            wl = snprintf(word, sizeof word, "%s", mv);
        if (s.side == 1) number++;
        for (; at < pg->move_end[m]; at++) {
            if (!game_is_legal(g, &s, pg->actions[at])) {
                free(out);
                return hoyle_error(HOYLE_EINVAL, "pdn: move %d is not legal", m + 1);
            }
            ck_apply(ck_game(g), &s, pg->actions[at]);
        }
        if (col && col + (size_t)wl + 1 > 78) EMIT("\n"), col = 0;
        EMIT("%s%s", col ? " " : "", word);
        col += (size_t)wl + (col ? 1 : 0);
    }
    EMIT("%s%s\n", col ? " " : "", pg->result[0] ? pg->result : "*");
#undef EMIT
    if (n >= cap) {
        free(out);
        return hoyle_error(HOYLE_EFULL, "pdn: buffer too small");
    }
    memcpy(buf, out, n + 1);
    free(out);
    return (int)n;
}
