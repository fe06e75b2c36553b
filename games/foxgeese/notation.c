/* notation.c — Fox and Geese text: point-number moves, the board drawing and the position line.
 *
 * Moves as the seed writes them ("moved 11 to 18": `11-18`; a fox jump
 * `17x15`, a chain `17x15x29`). The one-line position format is
 *
 *     <row 1>/<row 2>/.../<row 7> <g|f|f+> <quiet>
 *
 * rows top to bottom, 3,3,7,7,7,3,3 characters: `g` goose, `f` fox, `.`
 * empty; then the side to move (`f+`: the fox, in the middle of a capture
 * chain) and the draw counter. Import checks everything and writes the
 * state only on success. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "games/foxgeese/foxgeese_internal.h"

/* Text is built in a local buffer far larger than any board or position
 * (FG_TEXT bytes; cat() clamps, so nothing can run past it) and handed to
 * the caller's buffer by deliver(), the one place that checks its size. */
enum { FG_TEXT = 1024 };

static void cat(char *text, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(text + *len, FG_TEXT - *len, fmt, ap);
    va_end(ap);
    if (k > 0) *len = *len + (size_t)k < FG_TEXT ? *len + (size_t)k : FG_TEXT - 1;
}

static int deliver(char *buf, size_t cap, const char *text, size_t len)
{
    if (len + 1 > cap)
        return hoyle_error(HOYLE_EFULL, "foxgeese: text needs %zu bytes, the buffer has %zu",
                           len + 1, cap);
    memcpy(buf, text, len + 1);
    return (int)len;
}

/* ---- actions and whole moves ---- */

int fg_action_to_string(const game_t *g, const void *sv, int action, char *buf, size_t cap)
{
    (void)sv;
    int from, to;
    bool jump;
    if (!fg_decode(fg_impl(g), action, &from, &to, &jump))
        return hoyle_error(HOYLE_EINVAL, "foxgeese: action %d is not a step or a jump", action);
    char text[FG_TEXT];
    size_t len = 0;
    cat(text, &len, "%d%c%d", from + 1, jump ? 'x' : '-', to + 1);
    return deliver(buf, cap, text, len);
}

/* Points separated by `-`, `x` or blanks into pt[] (0-based); the count, or
 * HOYLE_EINVAL naming the problem. */
static int parse_points(const char *text, int *pt, int cap, const char *what)
{
    const char *p = text;
    int n = 0;
    while (isspace((unsigned char)*p)) p++;
    while (*p) {
        if (!isdigit((unsigned char)*p))
            return hoyle_error(HOYLE_EINVAL, "foxgeese %s: unexpected '%c' in '%.40s'", what, *p,
                               text);
        long v = 0;
        while (isdigit((unsigned char)*p) && v < 1000) v = v * 10 + (*p++ - '0');
        if (v < 1 || v > FG_POINTS || isdigit((unsigned char)*p))
            return hoyle_error(HOYLE_EINVAL, "foxgeese %s: no point %ld (1-33) in '%.40s'", what, v,
                               text);
        if (n == cap)
            return hoyle_error(HOYLE_EINVAL, "foxgeese %s: too many points in '%.40s'", what, text);
        pt[n++] = (int)v - 1;
        while (isspace((unsigned char)*p)) p++;
        if (*p == '-' || *p == 'x' || *p == 'X') {
            p++;
            while (isspace((unsigned char)*p)) p++;
            if (!*p)
                return hoyle_error(HOYLE_EINVAL, "foxgeese %s: '%.40s' ends in a separator", what,
                                   text);
        }
    }
    if (n < 2)
        return hoyle_error(HOYLE_EINVAL, "foxgeese %s: '%.40s' is not a move (e.g. 11-18, 17x15)",
                           what, text);
    return n;
}

int fg_action_from_string(const game_t *g, const void *sv, const char *text, int *action)
{
    const fg_impl_t *im = fg_impl(g);
    const fg_state_t *s = sv;
    int pt[2], legal[FG_ACTIONS];
    int n = parse_points(text, pt, 2, "action");
    if (n < 0) return n;
    if (s->result != FG_ONGOING) return hoyle_error(HOYLE_ESTATE, "foxgeese: the game is over");
    int m = fg_legal_actions(g, s, legal);
    for (int i = 0; i < m; i++) {
        int from, to;
        bool jump;
        fg_decode(im, legal[i], &from, &to, &jump);
        if (from == pt[0] && to == pt[1]) {
            *action = legal[i];
            return HOYLE_OK;
        }
    }
    /* say why: the most common mistakes each get their own message */
    const char *who = s->side == FG_FOX ? "the fox" : "the geese";
    if (s->side == FG_FOX && pt[0] != s->fox)
        return hoyle_error(HOYLE_EINVAL, "foxgeese: %d-%d: the fox is on %d", pt[0] + 1, pt[1] + 1,
                           s->fox + 1);
    if (s->side == FG_GEESE && !(s->geese & fg_bit(pt[0])))
        return hoyle_error(HOYLE_EINVAL, "foxgeese: %d-%d: no goose on %d", pt[0] + 1, pt[1] + 1,
                           pt[0] + 1);
    if (s->side == FG_FOX && (s->chain || fg_fox_can_jump(im, s->geese, s->fox)))
        return hoyle_error(HOYLE_EINVAL, "foxgeese: %d-%d: the fox must jump", pt[0] + 1,
                           pt[1] + 1);
    return hoyle_error(HOYLE_EINVAL, "foxgeese: %d-%d is not a legal move for %s", pt[0] + 1,
                       pt[1] + 1, who);
}

/* Matching typed points against the legal whole moves (game_whole_moves
 * lists them): an exact match (every landing point) wins; `from-last`
 * names a chain when only one chain from `from` ends on `last`. */
typedef struct match {
    const fg_impl_t *im;
    const int *pt;
    int npt;
    int found[GAME_MAX_CHAIN];
    int nfound, matches;
    bool exact;
} match_t;

static int match_visit(const int *actions, int n, const void *after, void *ctx)
{
    (void)after;
    match_t *m = ctx;
    int from[GAME_MAX_CHAIN] = {0}, to[GAME_MAX_CHAIN] = {0};
    bool jump;
    for (int k = 0; k < n; k++) fg_decode(m->im, actions[k], &from[k], &to[k], &jump);
    bool exact = m->npt == n + 1 && m->pt[0] == from[0];
    for (int k = 0; k < n && exact; k++) exact = m->pt[k + 1] == to[k];
    bool ends = m->npt == 2 && m->pt[0] == from[0] && m->pt[1] == to[n - 1];
    if (exact || ends) {
        memcpy(m->found, actions, sizeof(int) * (size_t)n);
        m->nfound = n;
        m->matches++;
        m->exact = exact;
    }
    return exact ? 1 : 0; /* an exact match ends the walk */
}

int fg_move_from_string(const game_t *g, const void *sv, const char *text, int *actions, int cap)
{
    const fg_state_t *s = sv;
    int pt[GAME_MAX_CHAIN + 1];
    int n = parse_points(text, pt, GAME_MAX_CHAIN + 1, "move");
    if (n < 0) return n;
    if (s->result != FG_ONGOING) return hoyle_error(HOYLE_ESTATE, "foxgeese: the game is over");
    match_t m = {.im = fg_impl(g), .pt = pt, .npt = n};
    int st = game_whole_moves(g, s, match_visit, &m);
    if (st < 0) return st;
    if (m.matches == 0) {
        /* a single step gets action_from_string's reason */
        int a;
        if (n == 2 && fg_action_from_string(g, s, text, &a) < 0) return HOYLE_EINVAL;
        return hoyle_error(HOYLE_EINVAL, "foxgeese: '%.40s' is not a legal move here", text);
    }
    if (m.matches > 1 && !m.exact)
        return hoyle_error(HOYLE_EINVAL,
                           "foxgeese: '%.40s' is ambiguous (%d jump paths; give every point)", text,
                           m.matches);
    if (m.nfound > cap)
        return hoyle_error(HOYLE_EFULL, "foxgeese: '%.40s' has more than %d steps", text, cap);
    memcpy(actions, m.found, sizeof(int) * (size_t)m.nfound);
    return m.nfound;
}

int fg_move_to_string(const game_t *g, const void *sv, const int *actions, int n, char *buf,
                      size_t cap)
{
    (void)sv;
    const fg_impl_t *im = fg_impl(g);
    if (n < 1) return hoyle_error(HOYLE_EINVAL, "foxgeese: empty move");
    char text[FG_TEXT];
    size_t len = 0;
    int prev = -1;
    for (int i = 0; i < n; i++) {
        int from, to;
        bool jump;
        if (!fg_decode(im, actions[i], &from, &to, &jump))
            return hoyle_error(HOYLE_EINVAL, "foxgeese: action %d is not a step or a jump",
                               actions[i]);
        if (i > 0 && from != prev)
            return hoyle_error(HOYLE_EINVAL, "foxgeese: step %d does not continue the move", i + 1);
        if (i == 0) cat(text, &len, "%d", from + 1);
        cat(text, &len, "%c%d", jump ? 'x' : '-', to + 1);
        prev = to;
    }
    return deliver(buf, cap, text, len);
}

/* ---- the board and the position line ---- */

static char glyph(const fg_state_t *s, int p)
{
    return p == s->fox ? 'f' : (s->geese & fg_bit(p)) ? 'g' : '.';
}

int fg_state_to_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const fg_impl_t *im = fg_impl(g);
    const fg_state_t *s = sv;
    char text[FG_TEXT];
    size_t len = 0;
    for (int r = 0; r < FG_GRID; r++) {
        for (int c = 0; c < FG_GRID; c++) {
            int p = im->at[r][c];
            char ch = p < 0 ? ' ' : glyph(s, p);
            cat(text, &len, " %c", ch == 'f' ? 'F' : ch == 'g' ? 'G' : ch);
        }
        cat(text, &len, "    ");
        for (int c = 0; c < FG_GRID; c++) {
            int p = im->at[r][c];
            if (p < 0)
                cat(text, &len, "   ");
            else
                cat(text, &len, " %2d", p + 1);
        }
        cat(text, &len, "\n");
    }
    int geese = fg_popcount(s->geese);
    switch (s->result) {
    case FG_WIN_GEESE: cat(text, &len, "the geese win: the fox cannot move\n"); break;
    case FG_WIN_FOX:
        cat(text, &len, "the fox wins: %s\n",
            geese <= im->fox_wins_at ? "too few geese to confine him" : "the geese cannot move");
        break;
    case FG_DRAW:
        cat(text, &len, "draw: %d moves without a goose moving down or a capture\n", s->quiet);
        break;
    default:
        cat(text, &len, "%s to move%s\n", s->side == FG_FOX ? "fox" : "geese",
            s->chain ? " (continuing his jumps)" : "");
    }
    cat(text, &len, "geese %d (fox wins at %d); quiet moves %d of %d\n", geese, im->fox_wins_at,
        s->quiet, im->quiet_limit);
    return deliver(buf, cap, text, len);
}

int fg_position_to_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const fg_impl_t *im = fg_impl(g);
    const fg_state_t *s = sv;
    char text[FG_TEXT];
    size_t len = 0;
    /* points are numbered row by row, so one pass writes the rows in order */
    for (int p = 0; p < FG_POINTS; p++)
        cat(text, &len, p > 0 && im->row[p] != im->row[p - 1] ? "/%c" : "%c", glyph(s, p));
    cat(text, &len, " %s %d", s->side == FG_GEESE ? "g" : s->chain ? "f+" : "f", s->quiet);
    return deliver(buf, cap, text, len);
}

int fg_position_from_string(const game_t *g, const char *text, void *sv)
{
    const fg_impl_t *im = fg_impl(g);
    fg_state_t t;
    memset(&t, 0, sizeof t);
    const char *p = text;
    int foxes = 0;
    for (int r = 0; r < FG_GRID; r++) {
        for (int c = 0; c < FG_GRID; c++) {
            int pt = im->at[r][c];
            if (pt < 0) continue;
            if (*p == 'g')
                t.geese |= fg_bit(pt);
            else if (*p == 'f')
                t.fox = (uint8_t)pt, foxes++;
            else if (*p != '.')
                return hoyle_error(HOYLE_EINVAL,
                                   "foxgeese position: row %d needs %d points of g/f/. in '%.60s'",
                                   r + 1, r < 2 || r > 4 ? 3 : 7, text);
            p++;
        }
        if (r < FG_GRID - 1 && *p++ != '/')
            return hoyle_error(HOYLE_EINVAL,
                               "foxgeese position: expected '/' after row %d in '%.60s'", r + 1,
                               text);
    }
    if (foxes != 1)
        return hoyle_error(HOYLE_EINVAL, "foxgeese position: %d foxes on the board, not one",
                           foxes);
    if (*p++ != ' ')
        return hoyle_error(HOYLE_EINVAL, "foxgeese position: expected ' g', ' f' or ' f+' after "
                                         "the board");
    if (p[0] == 'g' && p[1] == ' ')
        t.side = FG_GEESE, p += 2;
    else if (p[0] == 'f' && p[1] == ' ')
        t.side = FG_FOX, p += 2;
    else if (p[0] == 'f' && p[1] == '+' && p[2] == ' ')
        t.side = FG_FOX, t.chain = 1, p += 3;
    else
        return hoyle_error(HOYLE_EINVAL, "foxgeese position: side to move must be g, f or f+");
    int quiet = 0, len = 0;
    while (isdigit((unsigned char)p[len]) && len < 6) quiet = quiet * 10 + (p[len] - '0'), len++;
    if (len == 0 || len > 5 || (len > 1 && p[0] == '0'))
        return hoyle_error(HOYLE_EINVAL, "foxgeese position: expected the quiet-move count");
    p += len;
    while (*p == ' ' || *p == '\n' || *p == '\r') p++;
    if (*p) return hoyle_error(HOYLE_EINVAL, "foxgeese position: trailing text '%.20s'", p);
    int geese = fg_popcount(t.geese);
    if (geese > im->geese0)
        return hoyle_error(HOYLE_EINVAL, "foxgeese position: %d geese, more than the flock of %d",
                           geese, im->geese0);
    if (geese < im->fox_wins_at)
        return hoyle_error(HOYLE_EINVAL,
                           "foxgeese position: %d geese; the game ends when they are %d", geese,
                           im->fox_wins_at);
    if (quiet > im->quiet_limit)
        return hoyle_error(HOYLE_EINVAL, "foxgeese position: quiet count %d over the limit %d",
                           quiet, im->quiet_limit);
    if (t.chain && (quiet != 0 || geese <= im->fox_wins_at || !fg_fox_can_jump(im, t.geese, t.fox)))
        return hoyle_error(HOYLE_EINVAL, "foxgeese position: 'f+' needs a jump for the fox, "
                                         "more geese than fox_wins_at and quiet count 0");
    t.quiet = (uint16_t)quiet;
    if (!t.chain) fg_settle(im, &t);
    t.hash = fg_hash_compute(im, &t);
    memcpy(sv, &t, sizeof t);
    return HOYLE_OK;
}
