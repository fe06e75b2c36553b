/* notation.c — the seed's numeric notation and PDN FEN.
 *
 * Steps: `11-15` (move), `15x22` (one capture step). Whole moves: `11-15`,
 * `9x18x27` (every landing square), or `9x27` (from and final square, when
 * only one capture path matches). Input also takes the seed's spellings:
 * any of `-`, `x`, `:` or blanks between squares (`22 18`, `3- 8`).
 *
 * Position: PDN FEN `W:W21,22,K30:B1,2,K3` (side to move, then each colour's
 * squares, K marks kings; ranges `1-12` accepted on input), extended with
 * optional fields written in this order:
 *   :C<a>x<b>   a capture chain is in progress: its last step went a -> b
 *   :X<list>    pieces taken so far in that chain (still on the board)
 *   :H<a-b,...> the reversible moves (king non-captures) since the last
 *               capture or man move, oldest first (40-move rule, repetition)
 *   :N<a-b>[K]  capture=huff: the move a-b just played neglected a capture
 *               (K: it crowned a man); the side to move may punish it
 *   :M          capture=huff: the side to move was compelled to capture
 * Huffs and compels (capture=huff, huff.c): `huff 14`, `compel`; a whole
 * move `huff 14 11-15` (the huff, then the huffer's move) or `compel`.
 * Every parser writes its output only on success. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/checkers/checkers_internal.h"

/* ---- strings with a bound ---- */

/* A bounded writer: once a piece does not fit, `full` sticks and sb_done()
 * reports EFULL, so callers write unconditionally and check once. */
typedef struct sbuf {
    char *p;
    size_t cap, len;
    bool full;
} sbuf_t;

/* Formats with up to two ints: every piece of checkers text is squares. */
static void sb_put(sbuf_t *b, const char *fmt, int a, int c)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, fmt, a, c);
    if (b->len + (size_t)n + 1 > b->cap) {
        b->full = true;
        return;
    }
    memcpy(b->p + b->len, tmp, (size_t)n + 1);
    b->len += (size_t)n;
}

static int sb_done(sbuf_t *b, const char *what)
{
    if (b->full) return hoyle_error(HOYLE_EFULL, "%s: buffer too small", what);
    return (int)b->len;
}

/* ---- steps ---- */

int ck_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap)
{
    (void)g;
    sbuf_t b = {buf, cap, 0, false};
    if (cap) buf[0] = '\0';
    int h = ck_huff_action_text(action, buf, cap);
    if (h != 0) return h;
    sb_put(&b, ck_is_capture(s, action) ? "%dx%d" : "%d-%d", (action >> 5) + 1, (action & 31) + 1);
    return sb_done(&b, "action_to_string");
}

/* Read squares separated by -, x, : or blanks into sq[] (0-based). */
static int parse_squares(const char *text, int *sq, int cap, const char *what)
{
    const char *p = text;
    int n = 0;
    while (isspace((unsigned char)*p)) p++;
    while (*p) {
        if (!isdigit((unsigned char)*p))
            return hoyle_error(HOYLE_EINVAL, "%s: unexpected '%c' in '%s'", what, *p, text);
        long v = 0;
        /* v stops growing at 1000, so a long digit run is a bad square, not
         * an overflow */
        while (isdigit((unsigned char)*p) && v < 1000) v = v * 10 + (*p++ - '0');
        if (v < 1 || v > 32)
            return hoyle_error(HOYLE_EINVAL, "%s: bad square %ld in '%s'", what, v, text);
        if (n == cap) return hoyle_error(HOYLE_EINVAL, "%s: too many squares in '%s'", what, text);
        sq[n++] = (int)v - 1;
        while (isspace((unsigned char)*p)) p++;
        if (*p == '-' || *p == 'x' || *p == 'X' || *p == ':') {
            p++;
            while (isspace((unsigned char)*p)) p++;
            if (!*p) return hoyle_error(HOYLE_EINVAL, "%s: '%s' ends in a separator", what, text);
        }
    }
    if (n < 2)
        return hoyle_error(HOYLE_EINVAL, "%s: '%s' is not a move (want e.g. 11-15)", what, text);
    return n;
}

/* One step must be a legal action as given; whole moves (with their
 * shortcuts) go through ck_move_from_string. */
int ck_action_from_string(const game_t *g, const void *s, const char *text, int *action)
{
    int sq[2], legal[CK_MAX_LEGAL];
    const char *rest;
    int huff, h = ck_huff_action_parse(g, s, text, &huff, &rest);
    if (h < 0) return h;
    if (h > 0) { /* written only once the whole text is read */
        while (isspace((unsigned char)*rest)) rest++;
        if (*rest) return hoyle_error(HOYLE_EINVAL, "action: one action, not '%s'", text);
        *action = huff;
        return HOYLE_OK;
    }
    int n = parse_squares(text, sq, 2, "action");
    if (n < 0) return n;
    int a = sq[0] * 32 + sq[1], m = ck_legal_actions(ck_game(g), s, legal);
    for (int i = 0; i < m; i++)
        if (legal[i] == a) {
            *action = a;
            return HOYLE_OK;
        }
    return hoyle_error(HOYLE_EINVAL, "action: %d-%d is not legal here", sq[0] + 1, sq[1] + 1);
}

/* ---- whole moves ---- */

/* Search state for matching typed squares against the legal whole moves:
 * `found` keeps the last match, `matches` counts them, and an exact match
 * (every landing square given) ends the search and wins over shortcuts. */
typedef struct match {
    const ck_game_t *cg;
    const int *sq;
    int nsq;
    int acts[GAME_MAX_CHAIN];
    int found[GAME_MAX_CHAIN];
    int nfound, matches;
    bool exact;
} match_t;

/* Depth-first over the steps of each legal whole move: a chain continues
 * while the state says a capture is in progress. */
static void match_walk(match_t *m, const ck_state_t *s, int len)
{
    int legal[CK_MAX_LEGAL];
    int n = ck_legal_actions(m->cg, s, legal);
    for (int i = 0; i < n && !m->exact && len < GAME_MAX_CHAIN; i++) {
        if (legal[i] >= CK_HUFF_ACTION) continue; /* huff, compel: no squares to match */
        ck_state_t t = *s;
        ck_apply(m->cg, &t, legal[i]);
        m->acts[len] = legal[i];
        if (t.chain) {
            match_walk(m, &t, len + 1);
            continue;
        }
        int steps = len + 1, first = m->acts[0] >> 5, last = legal[i] & 31;
        bool exact = m->nsq == steps + 1 && m->sq[0] == first;
        for (int k = 0; k < steps && exact; k++) exact = m->sq[k + 1] == (m->acts[k] & 31);
        /* the from-to shortcut: accepted only when it names one path */
        bool ends = m->nsq == 2 && m->sq[0] == first && m->sq[1] == last;
        if (exact || ends) {
            memcpy(m->found, m->acts, sizeof(int) * (size_t)steps);
            m->nfound = steps;
            m->matches++;
            m->exact = exact;
        }
    }
}

/* Lists the legal whole moves into a bounded text ("14x23, 9x18x27, ..."). */
typedef struct move_list {
    const game_t *g;
    const void *s;
    char text[160];
    size_t used;
    int count;
} move_list_t;

static int list_move(const int *actions, int n, const void *after, void *ctx)
{
    (void)after;
    move_list_t *l = ctx;
    char mv[GAME_MOVE_MAX];
    if (l->count++ == 4) {
        snprintf(l->text + l->used, sizeof l->text - l->used, ", ...");
        return 1; /* four are enough to show what is meant */
    }
    if (ck_move_to_string(l->g, l->s, actions, n, mv, sizeof mv) < 0) return 0;
    int w = snprintf(l->text + l->used, sizeof l->text - l->used, "%s%s", l->used ? ", " : "", mv);
    if (w > 0) l->used += (size_t)w;
    if (l->used >= sizeof l->text) l->used = sizeof l->text - 1;
    return 0;
}

static int move_from_squares(const game_t *g, const void *s, const char *text, int *actions,
                             int cap);

/* A huff or compel first ("huff 14 11-15": the huff, then the huffer's own
 * move; "compel" alone), else the squares. */
int ck_move_from_string(const game_t *g, const void *s, const char *text, int *actions, int cap)
{
    const char *rest;
    int first, h = ck_huff_action_parse(g, s, text, &first, &rest);
    if (h < 0) return h;
    if (h == 0) return move_from_squares(g, s, text, actions, cap);
    while (isspace((unsigned char)*rest)) rest++;
    if (first == CK_COMPEL) {
        if (*rest)
            return hoyle_error(HOYLE_EINVAL, "move: 'compel' is a whole move, not '%s'", text);
        actions[0] = first;
        return 1;
    }
    ck_state_t t = *(const ck_state_t *)s;
    ck_huff_apply(ck_game(g), &t, first);
    if (!*rest) {
        /* a huff alone is a whole move only when it ends the game */
        if (t.result == CK_ONGOING)
            return hoyle_error(HOYLE_EINVAL,
                               "move: '%s': after a huff, the huffer's own move (huff N 11-15)",
                               text);
        actions[0] = first;
        return 1;
    }
    if (cap < 2) return hoyle_error(HOYLE_EFULL, "move: no room");
    int n = move_from_squares(g, &t, rest, actions + 1, cap - 1);
    if (n < 0) return n;
    actions[0] = first;
    return n + 1;
}

static int move_from_squares(const game_t *g, const void *s, const char *text, int *actions,
                             int cap)
{
    int sq[GAME_MAX_CHAIN + 1];
    int n = parse_squares(text, sq, GAME_MAX_CHAIN + 1, "move");
    if (n < 0) return n;
    match_t m = {.cg = ck_game(g), .sq = sq, .nsq = n};
    match_walk(&m, s, 0);
    int legal[CK_MAX_LEGAL];
    if (m.matches == 0 && (!ck_game(g)->huff || ck_huff_phase(s) == CK_HUFF_COMPELLED) &&
        ck_legal_actions(ck_game(g), s, legal) > 0 && ck_is_capture(s, legal[0])) {
        /* captures are compulsory: say so, and which, rather than only "not legal" */
        move_list_t l = {.g = g, .s = s};
        game_whole_moves(g, s, list_move, &l);
        return hoyle_error(HOYLE_EINVAL, "move: '%s' is not legal here: you must capture: %s", text,
                           l.text);
    }
    if (m.matches == 0) return hoyle_error(HOYLE_EINVAL, "move: '%s' is not legal here", text);
    if (m.matches > 1 && !m.exact)
        return hoyle_error(HOYLE_EINVAL,
                           "move: '%s' is ambiguous (%d capture paths; give every square)", text,
                           m.matches);
    if (m.nfound > cap)
        return hoyle_error(HOYLE_EFULL, "move: '%s' has more than %d steps", text, cap);
    memcpy(actions, m.found, sizeof(int) * (size_t)m.nfound);
    return m.nfound;
}

int ck_move_to_string(const game_t *g, const void *s, const int *actions, int n, char *buf,
                      size_t cap)
{
    (void)g;
    if (n < 1) return hoyle_error(HOYLE_EINVAL, "move_to_string: empty move");
    sbuf_t b = {buf, cap, 0, false};
    if (cap) buf[0] = '\0';
    if (actions[0] >= CK_HUFF_ACTION) { /* "compel", or "huff 14 " and the move after it */
        char head[16];
        int h = ck_huff_action_text(actions[0], head, sizeof head);
        if (h <= 0) return hoyle_error(HOYLE_EINVAL, "move_to_string: no action %d", actions[0]);
        if (actions[0] == CK_COMPEL || n == 1) {
            if (n > 1) return hoyle_error(HOYLE_EINVAL, "move_to_string: compel is a whole move");
            if ((size_t)h + 1 > cap)
                return hoyle_error(HOYLE_EFULL, "move_to_string: buffer too small");
            memcpy(buf, head, (size_t)h + 1);
            return h;
        }
        ck_state_t t = *(const ck_state_t *)s;
        ck_huff_apply(ck_game(g), &t, actions[0]);
        if ((size_t)h + 2 > cap)
            return hoyle_error(HOYLE_EFULL, "move_to_string: buffer too small");
        memcpy(buf, head, (size_t)h);
        buf[h] = ' ';
        int r = ck_move_to_string(g, &t, actions + 1, n - 1, buf + h + 1, cap - (size_t)h - 1);
        return r < 0 ? r : h + 1 + r;
    }
    bool capture = ck_is_capture(s, actions[0]);
    sb_put(&b, "%d", (actions[0] >> 5) + 1, 0);
    for (int i = 0; i < n; i++) {
        if (i > 0 && (actions[i] >> 5) != (actions[i - 1] & 31))
            return hoyle_error(HOYLE_EINVAL, "move_to_string: step %d does not continue the move",
                               i + 1);
        sb_put(&b, capture ? "x%d" : "-%d", (actions[i] & 31) + 1, 0);
    }
    return sb_done(&b, "move_to_string");
}

/* ---- PDN FEN ---- */

/* Kings are written with K, squares ascending; the C, X and H fields only
 * when present, so a plain position prints as plain PDN FEN. */
int ck_position_to_string(const game_t *g, const void *state, char *buf, size_t cap)
{
    (void)g;
    const ck_state_t *s = state;
    sbuf_t b = {buf, cap, 0, false};
    if (cap) buf[0] = '\0';
    static const char *const color = "BW";
    sb_put(&b, "%c", color[s->side], 0);
    for (int c = 1; c >= 0; c--) {
        sb_put(&b, ":%c", color[c], 0);
        int i = 0;
        for (uint32_t x = s->bb[c]; x; x &= x - 1, i++) {
            int sq = ck_lsb(x);
            if (i) sb_put(&b, ",", 0, 0);
            sb_put(&b, (s->kings >> sq) & 1 ? "K%d" : "%d", sq + 1, 0);
        }
    }
    if (s->chain) {
        sb_put(&b, ":C%dx%d", s->chain_prev, s->chain);
        sb_put(&b, ":X", 0, 0);
        int i = 0;
        for (uint32_t x = s->captured; x; x &= x - 1, i++)
            sb_put(&b, i ? ",%d" : "%d", ck_lsb(x) + 1, 0);
    }
    for (int i = 0; i < s->quiet; i++)
        sb_put(&b, i ? ",%d-%d" : ":H%d-%d", (s->rev[i] & 31) + 1, ((s->rev[i] >> 5) & 31) + 1);
    char huff[24];
    if (ck_huff_position_suffix(s, huff, sizeof huff) > 0) {
        size_t hl = strlen(huff);
        if (b.len + hl + 1 > b.cap)
            b.full = true;
        else
            memcpy(b.p + b.len, huff, hl + 1), b.len += hl;
    }
    return sb_done(&b, "position_to_string");
}
