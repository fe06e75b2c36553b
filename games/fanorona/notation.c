/* notation.c — Fanorona text: the seed's points and moves, and the one-line
 * position format.
 *
 * Points as the seed names them: a row letter A-E (A = Black's first line)
 * and a point number 1-9, `D5`. A step is `D5-C5` (a paika, no capture),
 * `D5-C5A` (capture by approach) or `B6-A5W` (by withdrawal); the stop of a
 * chain is `stop`. On input letters may be lower case, and a step may carry
 * the pieces it takes as the seed lists them, `D5-C5(B5,A5)`: the list must
 * be exactly what the step takes, and it alone tells approach from
 * withdrawal. A step without A/W or a list is accepted when only one capture
 * fits. Whole moves chain the points: `D6-C7A-B6A-B5A` (steps may also be
 * written out, `D6-C7A C7-B6A`); a chain that stops while it could go on is
 * written without the stop (it is the only way such a move can end there),
 * and parsing adds it; `stop` may also be written.
 *
 * Position: `<A>/<B>/<C>/<D>/<E> <side>[ open][ chain=P-P[ visited=P,...]][ quiet=N]`,
 * each row nine of `w`, `b`, `.` from point 1 to 9; side `w` or `b`; `open`
 * while the game's first move (one capture only) is to be made; `chain=C7-B6` the
 * last step of a capture chain in progress (the piece stands on B6 and may
 * not go on in the same direction); `visited=` the other points that piece
 * stood on this turn, in board order; `quiet=` the draw counter when not 0. The start position is
 * `bbbbbbbbb/bbbbbbbbb/bwbw.bwbw/wwwwwwwww/wwwwwwwww w open`.
 * Every parser writes its output only on success. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "games/fanorona/fanorona_internal.h"

/* ---- bounded writer ---- */

typedef struct sbuf {
    char *p;
    size_t cap, len;
    bool full;
} sbuf_t;

static void sb_str(sbuf_t *b, const char *str)
{
    size_t n = strlen(str);
    if (b->full || b->len + n + 1 > b->cap) {
        b->full = true;
        return;
    }
    memcpy(b->p + b->len, str, n + 1);
    b->len += n;
}

static void sb_point(sbuf_t *b, int p)
{
    char name[3];
    fn_point_name(p, name);
    sb_str(b, name);
}

static int sb_done(sbuf_t *b, const char *what)
{
    if (b->full) return hoyle_error(HOYLE_EFULL, "%s: buffer too small", what);
    return (int)b->len;
}

int fn_point_name(int p, char *buf)
{
    buf[0] = (char)('A' + p / FN_COLS);
    buf[1] = (char)('1' + p % FN_COLS);
    buf[2] = '\0';
    return 2;
}

/* A point at *pp (`D5`, any case); advances past it. -1 if none. */
static int read_point(const char **pp)
{
    const char *p = *pp;
    int r = toupper((unsigned char)p[0]) - 'A';
    if (r < 0 || r >= FN_ROWS || p[1] < '1' || p[1] > '9' || isdigit((unsigned char)p[2]))
        return -1;
    *pp = p + 2;
    return r * FN_COLS + (p[1] - '1');
}

/* ---- steps ---- */

int fn_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap)
{
    (void)s;
    const fn_game_t *fg = fn_game(g);
    sbuf_t b = {buf, cap, 0, false};
    if (cap) buf[0] = '\0';
    if (action == FN_STOP) {
        sb_str(&b, "stop");
        return sb_done(&b, "action_to_string");
    }
    if (action < 0 || action > FN_STOP ||
        fg->nbr[fn_action_from(action)][fn_action_dir(action)] < 0)
        return hoyle_error(HOYLE_EINVAL, "action_to_string: %d is not a step on the board", action);
    static const char *const suffix[FN_KINDS] = {"", "A", "W"};
    sb_point(&b, fn_action_from(action));
    sb_str(&b, "-");
    sb_point(&b, fg->nbr[fn_action_from(action)][fn_action_dir(action)]);
    sb_str(&b, suffix[fn_action_kind(action)]);
    return sb_done(&b, "action_to_string");
}

/* What the text says of one step: its destination, A/W if given (-1 not),
 * and the list of pieces taken if given. */
typedef struct step_text {
    int to, kind;
    bool has_list;
    uint64_t list;
} step_text_t;

/* Parse `-C5`, `-C5A`, `-C5(B5,A5)` at *pp (which points at the '-'). */
static int read_step_tail(const char **pp, step_text_t *st, const char *text, const char *what)
{
    const char *p = *pp + 1;
    *st = (step_text_t){.kind = -1};
    if ((st->to = read_point(&p)) < 0)
        return hoyle_error(HOYLE_EINVAL, "%s: expected a point after '-' in '%s'", what, text);
    int c = toupper((unsigned char)*p);
    if ((c == 'A' || c == 'W') && !isdigit((unsigned char)p[1])) {
        st->kind = c == 'A' ? FN_APPROACH : FN_WITHDRAWAL;
        p++;
    }
    if (*p == '(') {
        st->has_list = true;
        p++;
        for (;;) {
            while (*p == ' ') p++;
            int x = read_point(&p);
            if (x < 0 || (st->list & fn_bit(x)))
                return hoyle_error(HOYLE_EINVAL, "%s: bad list of pieces taken in '%s'", what,
                                   text);
            st->list |= fn_bit(x);
            while (*p == ' ') p++;
            if (*p == ')') break;
            if (*p++ != ',')
                return hoyle_error(HOYLE_EINVAL, "%s: bad list of pieces taken in '%s'", what,
                                   text);
        }
        p++;
    }
    *pp = p;
    return HOYLE_OK;
}

/* The one legal action of `s` that moves the piece on `from` as `st` says. */
static int resolve_step(const fn_game_t *fg, const fn_state_t *s, int from, const step_text_t *st,
                        const char *text, const char *what, int *action)
{
    int legal[FN_MAX_LEGAL], n = fn_legal_actions(fg, s, legal), found = -1, matches = 0;
    bool shape = false; /* some legal step goes from -> to */
    for (int i = 0; i < n; i++) {
        int a = legal[i];
        if (a == FN_STOP || fn_action_from(a) != from || fg->nbr[from][fn_action_dir(a)] != st->to)
            continue;
        shape = true;
        if (st->kind >= 0 && fn_action_kind(a) != st->kind) continue;
        if (st->has_list && fn_taken(fg, s, a) != st->list) continue;
        found = a;
        matches++;
    }
    char f[3], t[3];
    fn_point_name(from, f);
    fn_point_name(st->to, t);
    if (matches == 0 && shape)
        return hoyle_error(HOYLE_EINVAL, "%s: in '%s', %s-%s %s", what, text, f, t,
                           st->has_list ? "does not take the pieces listed" : "cannot capture so");
    if (matches == 0)
        return hoyle_error(HOYLE_EINVAL, "%s: in '%s', %s-%s is not legal here", what, text, f, t);
    if (matches > 1)
        return hoyle_error(HOYLE_EINVAL,
                           "%s: in '%s', %s-%s is ambiguous (approach or withdrawal: add A or W)",
                           what, text, f, t);
    *action = found;
    return HOYLE_OK;
}

static bool is_stop(const char *p)
{
    return strncasecmp(p, "stop", 4) == 0 && (p[4] == '\0' || isspace((unsigned char)p[4]));
}

int fn_action_from_string(const game_t *g, const void *sv, const char *text, int *action)
{
    const fn_game_t *fg = fn_game(g);
    const fn_state_t *s = sv;
    const char *p = text;
    while (isspace((unsigned char)*p)) p++;
    int a;
    if (is_stop(p)) {
        if (!s->chain) return hoyle_error(HOYLE_EINVAL, "action: no capture chain to stop");
        p += 4;
        a = FN_STOP;
    } else {
        int from = read_point(&p);
        step_text_t st;
        if (from < 0 || *p != '-')
            return hoyle_error(HOYLE_EINVAL, "action: '%s' is not a step (want e.g. D5-C5A)", text);
        if (read_step_tail(&p, &st, text, "action") ||
            resolve_step(fg, s, from, &st, text, "action", &a))
            return HOYLE_EINVAL;
    }
    while (isspace((unsigned char)*p)) p++;
    if (*p) return hoyle_error(HOYLE_EINVAL, "action: unexpected '%c' in '%s'", *p, text);
    *action = a;
    return HOYLE_OK;
}

/* ---- whole moves ---- */

int fn_move_from_string(const game_t *g, const void *sv, const char *text, int *actions, int cap)
{
    const fn_game_t *fg = fn_game(g);
    fn_state_t t = *(const fn_state_t *)sv;
    int acts[GAME_MAX_CHAIN], n = 0, mover = t.side;
    const char *p = text;
    while (isspace((unsigned char)*p)) p++;
    int cur = -1;
    if (!is_stop(p)) {
        cur = read_point(&p);
        if (cur < 0)
            return hoyle_error(HOYLE_EINVAL, "move: '%s' is not a move (want e.g. D5-C5A)", text);
    }
    if (t.result != FN_ONGOING) return hoyle_error(HOYLE_EINVAL, "move: the game is over");
    if (t.chain && cur >= 0 && cur != t.chain - 1) {
        char c[3];
        fn_point_name(t.chain - 1, c);
        return hoyle_error(HOYLE_EINVAL, "move: '%s': the chain of the piece on %s goes on", text,
                           c);
    }
    bool stopped = false;
    for (;;) {
        while (isspace((unsigned char)*p) || *p == ',' || *p == ';') p++;
        if (!*p) break;
        bool open = t.result == FN_ONGOING && t.side == mover && (n == 0 || t.chain);
        if (stopped || !open)
            return hoyle_error(HOYLE_EINVAL, "move: '%s' goes on after the turn ended", text);
        if (is_stop(p)) {
            if (!t.chain) return hoyle_error(HOYLE_EINVAL, "move: '%s': nothing to stop", text);
            p += 4;
            fn_apply(fg, &t, FN_STOP);
            acts[n++] = FN_STOP;
            stopped = true;
            continue;
        }
        if (*p != '-') {
            /* a step written out in full restates where the piece stands */
            int q = read_point(&p);
            if (q < 0 || q != cur || *p != '-')
                return hoyle_error(HOYLE_EINVAL, "move: '%s' does not continue the chain", text);
        }
        step_text_t st;
        int a;
        if (read_step_tail(&p, &st, text, "move") ||
            resolve_step(fg, &t, cur, &st, text, "move", &a))
            return HOYLE_EINVAL;
        if (n == GAME_MAX_CHAIN) return hoyle_error(HOYLE_EINVAL, "move: '%s' is too long", text);
        fn_apply(fg, &t, a);
        acts[n++] = a;
        cur = st.to;
    }
    if (n == 0) return hoyle_error(HOYLE_EINVAL, "move: '%s' has no step", text);
    /* a chain that could go on and is not continued stops */
    if (t.result == FN_ONGOING && t.side == mover && t.chain && n < GAME_MAX_CHAIN)
        acts[n++] = FN_STOP;
    if (n > cap) return hoyle_error(HOYLE_EFULL, "move: '%s' has more than %d actions", text, cap);
    memcpy(actions, acts, sizeof(int) * (size_t)n);
    return n;
}

int fn_move_to_string(const game_t *g, const void *sv, const int *actions, int n, char *buf,
                      size_t cap)
{
    const fn_game_t *fg = fn_game(g);
    fn_state_t t = *(const fn_state_t *)sv;
    sbuf_t b = {buf, cap, 0, false};
    if (cap) buf[0] = '\0';
    if (n < 1) return hoyle_error(HOYLE_EINVAL, "move_to_string: empty move");
    static const char *const suffix[FN_KINDS] = {"", "A", "W"};
    int legal[FN_MAX_LEGAL], mover = t.side;
    for (int i = 0; i < n; i++) {
        int a = actions[i], m = fn_legal_actions(fg, &t, legal), ok = 0;
        for (int k = 0; k < m; k++) ok |= legal[k] == a;
        if (!ok || (i > 0 && t.side != mover))
            return hoyle_error(HOYLE_EINVAL, "move_to_string: action %d (step %d) is not legal", a,
                               i + 1);
        if (a == FN_STOP) {
            if (i == 0) sb_str(&b, "stop");
        } else {
            int from = fn_action_from(a);
            if (i == 0) sb_point(&b, from);
            sb_str(&b, "-");
            sb_point(&b, fg->nbr[from][fn_action_dir(a)]);
            sb_str(&b, suffix[fn_action_kind(a)]);
        }
        fn_apply(fg, &t, a);
    }
    return sb_done(&b, "move_to_string");
}

/* ---- positions ---- */

int fn_position_to_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const fn_state_t *s = sv;
    sbuf_t b = {buf, cap, 0, false};
    if (cap) buf[0] = '\0';
    for (int r = 0; r < FN_ROWS; r++) {
        char row[FN_COLS + 2];
        for (int c = 0; c < FN_COLS; c++) {
            int p = r * FN_COLS + c;
            row[c] = (s->bb[FN_WHITE] & fn_bit(p))   ? 'w'
                     : (s->bb[FN_BLACK] & fn_bit(p)) ? 'b'
                                                     : '.';
        }
        row[FN_COLS] = r + 1 < FN_ROWS ? '/' : '\0';
        row[FN_COLS + 1] = '\0';
        sb_str(&b, row);
    }
    sb_str(&b, s->side == FN_WHITE ? " w" : " b");
    if (s->opening) sb_str(&b, " open");
    if (s->chain) {
        int to = s->chain - 1, from = fn_game(g)->nbr[to][7 - (s->last_dir - 1)];
        sb_str(&b, " chain=");
        sb_point(&b, from);
        sb_str(&b, "-");
        sb_point(&b, to);
        uint64_t rest = s->visited & ~(fn_bit(from) | fn_bit(to));
        for (int i = 0; rest; rest &= rest - 1, i++) {
            sb_str(&b, i ? "," : " visited=");
            sb_point(&b, fn_lsb(rest));
        }
    }
    if (s->quiet) {
        char q[24];
        snprintf(q, sizeof q, " quiet=%d", s->quiet);
        sb_str(&b, q);
    }
    return sb_done(&b, "position_to_string");
}

/* Read `P,P,...` into a set of points; advances past it. */
static int read_point_list(const char **pp, uint64_t *set)
{
    uint64_t x = 0;
    for (;;) {
        int q = read_point(pp);
        if (q < 0 || (x & fn_bit(q))) return HOYLE_EINVAL;
        x |= fn_bit(q);
        if (**pp != ',') break;
        (*pp)++;
    }
    *set = x;
    return HOYLE_OK;
}

int fn_position_from_string(const game_t *g, const char *text, void *out)
{
    const fn_game_t *fg = fn_game(g);
    fn_state_t t = {0};
    const char *p = text;
    for (int r = 0; r < FN_ROWS; r++) {
        for (int c = 0; c < FN_COLS; c++, p++) {
            int q = r * FN_COLS + c;
            if (*p == 'w')
                t.bb[FN_WHITE] |= fn_bit(q);
            else if (*p == 'b')
                t.bb[FN_BLACK] |= fn_bit(q);
            else if (*p != '.')
                return hoyle_error(HOYLE_EINVAL, "position: row %c: want nine of w, b, '.' in '%s'",
                                   'A' + r, text);
        }
        if (*p++ != (r + 1 < FN_ROWS ? '/' : ' '))
            return hoyle_error(HOYLE_EINVAL,
                               "position: want five rows of nine, then the side, in '%s'", text);
    }
    if ((*p != 'w' && *p != 'b') || (p[1] != ' ' && p[1] != '\0'))
        return hoyle_error(HOYLE_EINVAL, "position: side to move must be w or b in '%s'", text);
    t.side = *p++ == 'w' ? FN_WHITE : FN_BLACK;
    int from = -1, to = -1;
    bool seen_open = false, seen_quiet = false, seen_visited = false;
    while (*p == ' ') {
        p++;
        long v;
        char *end;
        if (strncmp(p, "open", 4) == 0 && !seen_open) {
            seen_open = true;
            t.opening = 1;
            p += 4;
        } else if (strncmp(p, "chain=", 6) == 0 && from < 0) {
            p += 6;
            from = read_point(&p);
            if (from < 0 || *p++ != '-' || (to = read_point(&p)) < 0)
                return hoyle_error(HOYLE_EINVAL, "position: want chain=FROM-TO in '%s'", text);
        } else if (strncmp(p, "visited=", 8) == 0 && !seen_visited) {
            p += 8;
            seen_visited = true;
            if (read_point_list(&p, &t.visited))
                return hoyle_error(HOYLE_EINVAL, "position: bad visited= list in '%s'", text);
        } else if (strncmp(p, "quiet=", 6) == 0 && !seen_quiet && isdigit((unsigned char)p[6]) &&
                   (v = strtol(p + 6, &end, 10)) <= fg->draw_moves) {
            seen_quiet = true;
            t.quiet = (uint16_t)v;
            p = end;
        } else {
            return hoyle_error(HOYLE_EINVAL, "position: unexpected field '%s' in '%s'", p, text);
        }
        if (*p != ' ' && *p != '\0')
            return hoyle_error(HOYLE_EINVAL, "position: unexpected '%c' in '%s'", *p, text);
    }
    if (*p) return hoyle_error(HOYLE_EINVAL, "position: unexpected '%c' in '%s'", *p, text);
    for (int c = 0; c < 2; c++)
        if (fn_popcount(t.bb[c]) > FN_MAX_PIECES)
            return hoyle_error(HOYLE_EINVAL, "position: %s has more than %d pieces",
                               c ? "Black" : "White", FN_MAX_PIECES);
    if (t.bb[t.side ^ 1] == 0)
        return hoyle_error(HOYLE_EINVAL, "position: the side not to move has no pieces");
    uint64_t empty = FN_ALL & ~(t.bb[0] | t.bb[1]);
    if (from >= 0) {
        int dir = -1;
        for (int d = 0; d < FN_DIRS; d++)
            if (fg->nbr[from][d] == to) dir = d;
        t.visited |= fn_bit(from) | fn_bit(to);
        if (dir < 0 || !(t.bb[t.side] & fn_bit(to)) || (t.visited & ~fn_bit(to) & ~empty))
            return hoyle_error(HOYLE_EINVAL,
                               "position: chain= must be a step to a piece of the side to move, "
                               "from points left empty, in '%s'",
                               text);
        if (t.opening || t.quiet || fn_vela_active(fg, &t))
            return hoyle_error(HOYLE_EINVAL,
                               "position: no chain during the first move, after a quiet move or "
                               "under the vela restrictions");
        t.chain = (uint8_t)(to + 1);
        t.last_dir = (uint8_t)(dir + 1);
        if (!fn_can_continue(fg, &t, to))
            return hoyle_error(HOYLE_EINVAL,
                               "position: the chain piece on %c%c cannot capture again",
                               'A' + to / FN_COLS, '1' + to % FN_COLS);
    } else if (seen_visited) {
        return hoyle_error(HOYLE_EINVAL, "position: visited= without chain= in '%s'", text);
    }
    if (!t.chain) fn_settle(fg, &t);
    t.hash = fn_hash_compute(fg, &t);
    memcpy(out, &t, sizeof t);
    return HOYLE_OK;
}

/* The board as the seed draws it, row A on top, with its lines:
 *
 *      1   2   3   4   5   6   7   8   9
 *   A  b - b - b - b - b - b - b - b - b
 *      | \ | / | \ | / | \ | / | \ | / |
 *   B  b - ...                                                               */
int fn_state_to_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const fn_state_t *s = sv;
    sbuf_t b = {buf, cap, 0, false};
    if (cap) buf[0] = '\0';
    sb_str(&b, "    1   2   3   4   5   6   7   8   9\n");
    for (int r = 0; r < FN_ROWS; r++) {
        char line[64];
        int n = snprintf(line, sizeof line, "%c  ", 'A' + r);
        for (int c = 0; c < FN_COLS; c++) {
            int p = r * FN_COLS + c;
            char ch = (s->bb[FN_WHITE] & fn_bit(p))   ? 'w'
                      : (s->bb[FN_BLACK] & fn_bit(p)) ? 'b'
                                                      : '.';
            if (s->chain == p + 1) ch = (char)toupper(ch);
            n += snprintf(line + n, sizeof line - (size_t)n, c ? " - %c" : " %c", ch);
        }
        sb_str(&b, line);
        sb_str(&b, "\n");
        if (r + 1 == FN_ROWS) break;
        n = snprintf(line, sizeof line, "    ");
        for (int c = 0; c < FN_COLS; c++) {
            n += snprintf(line + n, sizeof line - (size_t)n, "|");
            if (c + 1 < FN_COLS)
                n += snprintf(line + n, sizeof line - (size_t)n, (r + c) % 2 == 0 ? " \\ " : " / ");
        }
        sb_str(&b, line);
        sb_str(&b, "\n");
    }
    char tail[96];
    static const char *const names[2] = {"White (w)", "Black (b)"};
    if (s->result == FN_DRAW)
        snprintf(tail, sizeof tail, "drawn (%d moves without a capture)\n", fn_game(g)->draw_moves);
    else if (s->result != FN_ONGOING)
        snprintf(tail, sizeof tail, "%s wins\n", names[s->result == FN_WIN0 ? 0 : 1]);
    else
        snprintf(tail, sizeof tail, "%s to move%s%s\n", names[s->side],
                 s->chain ? ", continuing the chain of the capital piece (or stop)" : "",
                 s->opening ? ", first move: one capture only" : "");
    sb_str(&b, tail);
    return sb_done(&b, "state_to_string");
}
