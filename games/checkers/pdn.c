/* pdn.c — PDN game import/export (checkers.h), and the family's record
 * writer (the game_vt_t record_to_string slot) built on the export. The
 * reader keeps a line counter for its messages and works on a private copy
 * of the record, so a failed read leaves the caller's record untouched. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/checkers/checkers.h"
#include "games/checkers/checkers_internal.h"

/* Game-termination markers PDN 3.0 allows: the usual 1-0 / 0-1 / 1/2-1/2,
 * the two-points-per-game forms (2-0, 0-2, 1-1, 0-0) some archives use, and
 * "*" for unfinished. Any of them ends the movetext of one game. */
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

/* Parse one [Key "value"] tag at r->p (which points at '['). Backslash escapes
 * the next character in the value; a tag must fit on one line. r->p advances
 * only when the tag is well-formed. */
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
    /* The opening line is kept for the message: an unclosed group is reported
     * where it starts, not at the end of the text. */
    int depth = 0, line = r->line;
    do {
        if (!*r->p) return hoyle_error(HOYLE_EINVAL, "pdn: line %d: '%c' never closed", line, open);
        if (*r->p == open) depth++;
        if (*r->p == close) depth--;
        r->line += *r->p++ == '\n';
    } while (depth > 0);
    return HOYLE_OK;
}

/* Read one game: its tags, then movetext up to a result token, the next
 * game's '[' or the end of text. The position starts from the FEN tag if
 * there is one, and every move is parsed and applied against the position so
 * far, so an illegal move is reported with its line. */
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
    /* The start is kept in canonical FEN whether it came from a tag or the
     * initial position, so replay and write need no special case. */
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
        /* $n numeric annotation glyphs carry no move. */
        if (tok[0] == '$') continue;
        size_t k = 0;
        while (isdigit((unsigned char)tok[k])) k++;
        if (k > 0 && tok[k] == '.') { /* a move number, maybe glued to the move: "1.11-15" */
            while (tok[k] == '.') k++;
            memmove(tok, tok + k, n - k + 1);
            n -= k;
            if (n == 0) continue;
        }
        /* Strip move annotations ("11-15!?") and the "*" some writers glue to a
         * forced capture. */
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
            game_apply(g, s, acts[i]);
            pg->actions[pg->num_actions++] = acts[i];
        }
        pg->move_end[pg->num_moves++] = pg->num_actions;
    }
}

/* Read the first game of `text` into a heap copy (the record is large) and
 * copy it out only on success. Returns the bytes consumed so a caller can
 * loop over a multi-game file. Text with no tag, move or result at all is
 * not a game: the check on r.p tells "empty" from an explicit lone "*". */
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

/* Every step is re-checked: a record may come from a file edited by hand. */
int checkers_pdn_replay(const game_t *g, const checkers_pdn_game_t *pg, void *state)
{
    ck_state_t s;
    if (ck_position_from_string(g, pg->start, &s)) return HOYLE_EINVAL;
    for (int i = 0; i < pg->num_actions; i++) {
        if (!game_is_legal(g, &s, pg->actions[i]))
            return hoyle_error(HOYLE_EINVAL, "pdn: step %d is not legal", i + 1);
        game_apply(g, &s, pg->actions[i]);
    }
    memcpy(state, &s, sizeof s);
    return HOYLE_OK;
}

/* Writes tags, a FEN tag when the start is not the initial position (and the
 * tags do not already carry one), then numbered movetext in lines of at most
 * 78 characters, then the result. The text is built in a private buffer of cap+1
 * bytes so that `buf` is written only when everything fits. */
int checkers_pdn_write(const game_t *g, const checkers_pdn_game_t *pg, char *buf, size_t cap)
{
    ck_state_t s, init;
    if (ck_position_from_string(g, pg->start, &s)) return HOYLE_EINVAL;
    game_init(g, &init);
    char *out = malloc(cap + 1);
    if (!out) return hoyle_error(HOYLE_ENOMEM, "pdn: out of memory");
    size_t n = 0, col = 0;
/* Append to `out`; once n reaches cap further output is dropped and the
 * final n >= cap check reports HOYLE_EFULL. */
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
        /* Move numbers count full rounds: "N." before the first side's move,
         * "N..." when a game starts with the second side to move. */
        if (s.side == 0)
            wl = snprintf(word, sizeof word, "%d. %s", number, mv);
        else if (m == 0)
            wl = snprintf(word, sizeof word, "%d... %s", number, mv);
        else
            wl = snprintf(word, sizeof word, "%s", mv);
        if (s.side == 1) number++;
        /* Advance the position after the move is formatted: its notation is written
         * from the position it is played in. */
        for (; at < pg->move_end[m]; at++) {
            if (!game_is_legal(g, &s, pg->actions[at])) {
                free(out);
                return hoyle_error(HOYLE_EINVAL, "pdn: move %d is not legal", m + 1);
            }
            game_apply(g, &s, pg->actions[at]);
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

static void add_tag(checkers_pdn_game_t *pg, const char *key, const char *value)
{
    if (pg->num_tags >= CHECKERS_PDN_TAGS) return;
    snprintf(pg->tags[pg->num_tags].key, sizeof pg->tags[0].key, "%s", key);
    snprintf(pg->tags[pg->num_tags].value, sizeof pg->tags[0].value, "%s", value);
    pg->num_tags++;
}

/* The record's tags in PDN's names and order (Black is seat 0, who moves
 * first; "1-0" a win of seat 0, as in the Open Checker Archive), and its
 * actions cut into whole moves, each step checked for legality. */
static int record_fill(const game_t *g, const game_record_tags_t *tags, const void *start,
                       const int *actions, int n, checkers_pdn_game_t *pg)
{
    char round[16];
    if (tags->event) add_tag(pg, "Event", tags->event);
    snprintf(round, sizeof round, "%d", tags->round);
    if (tags->round > 0) add_tag(pg, "Round", round);
    add_tag(pg, "Black", tags->players[0] ? tags->players[0] : "?");
    add_tag(pg, "White", tags->players[1] ? tags->players[1] : "?");
    double sc = tags->score;
    const char *res = sc == 1 ? "1-0" : sc == 0 ? "0-1" : sc > 0 && sc < 1 ? "1/2-1/2" : "*";
    add_tag(pg, "Result", res);
    if (tags->opening && tags->opening[0]) add_tag(pg, "Opening", tags->opening);
    if (tags->termination) add_tag(pg, "Termination", tags->termination);
    snprintf(pg->result, sizeof pg->result, "%s", res);
    if (ck_position_to_string(g, start, pg->start, sizeof pg->start) < 0) return HOYLE_EINVAL;
    if (n > CHECKERS_PDN_ACTIONS)
        return hoyle_error(HOYLE_EINVAL, "pdn: %d actions, more than the %d of one record", n,
                           CHECKERS_PDN_ACTIONS);
    ck_state_t s;
    memcpy(&s, start, sizeof s);
    for (int i = 0; i < n; i++) {
        /* A whole move ends when the turn passes (or at the last action), which is
         * where a multi-jump's steps are grouped into one PDN move. */
        int p = game_current_player(g, &s);
        if (game_apply_checked(g, &s, actions[i])) return HOYLE_EINVAL;
        pg->actions[i] = actions[i];
        if (game_current_player(g, &s) != p || i + 1 == n) {
            if (pg->num_moves >= CHECKERS_PDN_MOVES)
                return hoyle_error(HOYLE_EINVAL, "pdn: more than %d moves in one record",
                                   CHECKERS_PDN_MOVES);
            pg->move_end[pg->num_moves++] = i + 1;
        }
    }
    pg->num_actions = n;
    return HOYLE_OK;
}

int ck_record_to_string(const game_t *g, const game_record_tags_t *tags, const void *start,
                        const int *actions, int n, char *buf, size_t cap)
{
    checkers_pdn_game_t *pg = calloc(1, sizeof *pg);
    if (pg == NULL) return hoyle_error(HOYLE_ENOMEM, "pdn: out of memory");
    int status = record_fill(g, tags, start, actions, n, pg);
    if (status == HOYLE_OK) status = checkers_pdn_write(g, pg, buf, cap);
    free(pg);
    return status;
}
