/* notation.c — moves as text: UCI long algebraic and SAN, out and in, and
 * the game's text slots (FEN positions, UCI actions).
 *
 * Output: UCI `e2e4`, `e7e8q`, castling as the king's step `e1g1`; SAN
 * `Nf3`, `exd5`, `O-O`, `e8=Q+`, `Nbd7`, `R1e2#` (file, else rank, else both
 * to disambiguate, as the PGN standard says). Input (ch_move_parse) accepts
 * either, tolerantly: `0-0`, `e8Q`, `e8=q`, `exd6e.p.`, `Ng1-f3`-style
 * from-squares, a missing `x`, and trailing `+ # ! ?`. It never guesses: a
 * text that fits several legal moves or none is HOYLE_EINVAL listing the
 * candidates. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "games/chess/chess_internal.h"
#include "games/chess/notation_seed.h" /* ch_move_parse_any: SAN, UCI, German, descriptive */

void ch_square_name(int sq, char *buf)
{
    buf[0] = (char)('a' + ch_file(sq));
    buf[1] = (char)('1' + ch_rank(sq));
    buf[2] = '\0';
}

int ch_square_parse(const char *text)
{
    if (text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8') return -1;
    return (text[1] - '1') * 8 + (text[0] - 'a');
}

char ch_type_letter(int type) { return "PNBRQK"[type]; }

int ch_type_from_letter(char c)
{
    const char *l = strchr("PNBRQK", toupper((unsigned char)c));
    return l && c ? (int)(l - "PNBRQK") : -1;
}

void ch_move_to_uci(ch_move_t m, char *buf)
{
    ch_square_name(ch_from(m), buf);
    ch_square_name(ch_to(m), buf + 2);
    if (ch_is_promo(m)) {
        buf[4] = "pnbrqk"[ch_promo_type(m)];
        buf[5] = '\0';
    }
}

int ch_move_to_san(const ch_pos_t *p, ch_move_t m, char *buf, size_t cap)
{
    char t[16], sq[3];
    size_t n = 0;
    int from = ch_from(m), to = ch_to(m), type = ch_piece_type(p->board[from]);
    if (ch_kind(m) == CH_MV_CASTLE) {
        n = (size_t)snprintf(t, sizeof t, "%s", to > from ? "O-O" : "O-O-O");
    } else {
        if (type == CH_PAWN) {
            if (ch_is_capture(p, m)) t[n++] = (char)('a' + ch_file(from));
        } else {
            t[n++] = ch_type_letter(type);
            /* other pieces of the type that can also go to `to` */
            ch_move_t moves[CH_MAX_MOVES];
            int k = ch_gen_legal(p, moves);
            bool rival = false, same_file = false, same_rank = false;
            for (int i = 0; i < k; i++) {
                int f2 = ch_from(moves[i]);
                if (ch_to(moves[i]) != to || f2 == from || p->board[f2] != p->board[from]) continue;
                rival = true;
                same_file |= ch_file(f2) == ch_file(from);
                same_rank |= ch_rank(f2) == ch_rank(from);
            }
            if (rival && (!same_file || same_rank)) t[n++] = (char)('a' + ch_file(from));
            if (rival && same_file) t[n++] = (char)('1' + ch_rank(from));
        }
        if (ch_is_capture(p, m)) t[n++] = 'x';
        ch_square_name(to, sq);
        t[n++] = sq[0], t[n++] = sq[1];
        if (ch_is_promo(m)) t[n++] = '=', t[n++] = ch_type_letter(ch_promo_type(m));
    }
    ch_pos_t q = *p;
    ch_pos_make(&q, m);
    if (ch_in_check(&q)) t[n++] = ch_has_legal(&q) ? '+' : '#';
    t[n] = '\0';
    if (n + 1 > cap) return hoyle_error(HOYLE_EFULL, "san: buffer too small");
    memcpy(buf, t, n + 1);
    return (int)n;
}

/* What a move text asks for; -1 = not given. */
typedef struct want {
    int type, from_file, from_rank, to, promo, castle; /* castle: 1 short, 2 long */
    bool capture;
} want_t;

static bool parse_want(const char *text, want_t *w)
{
    char s[32];
    size_t n = 0;
    for (const char *c = text; *c && n + 1 < sizeof s; c++)
        if (!isspace((unsigned char)*c)) s[n++] = *c;
    s[n] = '\0';
    /* trailing marks, then "e.p." */
    while (n && strchr("+#!?", s[n - 1])) s[--n] = '\0';
    if (n >= 4 && strcmp(s + n - 4, "e.p.") == 0)
        s[n -= 4] = '\0';
    else if (n >= 2 && strcmp(s + n - 2, "ep") == 0)
        s[n -= 2] = '\0';
    *w = (want_t){-1, -1, -1, -1, -1, 0, false};
    if (!strcmp(s, "O-O") || !strcmp(s, "0-0") || !strcmp(s, "o-o")) return w->castle = 1, true;
    if (!strcmp(s, "O-O-O") || !strcmp(s, "0-0-0") || !strcmp(s, "o-o-o"))
        return w->castle = 2, true;
    if (n == 0) return false;
    const char *c = s, *end = s + n;
    /* promotion suffix: =Q, Q, or (UCI) q after the destination rank */
    if (n >= 3 && strchr("QRBNqrbn", end[-1]) &&
        (isdigit((unsigned char)end[-2]) || (end[-2] == '=' && n >= 4))) {
        w->promo = ch_type_from_letter(end[-1]);
        end -= end[-2] == '=' ? 2 : 1;
    }
    if (strchr("KQRBN", *c))
        w->type = ch_type_from_letter(*c++);
    else if (*c == 'P')
        w->type = CH_PAWN, c++;
    /* the destination is the last square */
    if (end - c < 2) return false;
    w->to = ch_square_parse(end - 2);
    if (w->to < 0) return false;
    end -= 2;
    if (end > c && strchr("x:-", end[-1])) w->capture = end[-1] != '-', end--;
    if (end > c && end[-1] >= '1' && end[-1] <= '8') w->from_rank = *--end - '1';
    if (end > c && end[-1] >= 'a' && end[-1] <= 'h') w->from_file = *--end - 'a';
    return end == c;
}

int ch_move_parse(const ch_pos_t *p, const char *text, ch_move_t *out)
{
    want_t w;
    if (!parse_want(text, &w))
        return hoyle_error(HOYLE_EINVAL, "move '%s': not a move in SAN or UCI notation", text);
    ch_move_t moves[CH_MAX_MOVES], hit[CH_MAX_MOVES];
    int n = ch_gen_legal(p, moves), k = 0;
    for (int i = 0; i < n; i++) {
        ch_move_t m = moves[i];
        int from = ch_from(m), type = ch_piece_type(p->board[from]);
        if (w.castle) {
            if (ch_kind(m) == CH_MV_CASTLE && (ch_to(m) > from) == (w.castle == 1)) hit[k++] = m;
            continue;
        }
        if (ch_to(m) != w.to) continue;
        /* no piece letter: a pawn move (SAN), or any piece from a given
         * square (UCI `g1f3`, `e1g1`) */
        if (w.type >= 0 ? type != w.type
                        : (type != CH_PAWN && (w.from_file < 0 || w.from_rank < 0)))
            continue;
        if (w.from_file >= 0 && ch_file(from) != w.from_file) continue;
        if (w.from_rank >= 0 && ch_rank(from) != w.from_rank) continue;
        if (w.capture && !ch_is_capture(p, m)) continue;
        /* a promotion without its piece stays a candidate (ambiguous) */
        if (w.promo >= 0 && (!ch_is_promo(m) || ch_promo_type(m) != w.promo)) continue;
        hit[k++] = m;
    }
    if (k == 1) {
        *out = hit[0];
        return HOYLE_OK;
    }
    /* k > 1: the matches are the candidates; k == 0: the legal moves to
     * that square, else those of that piece */
    bool ambiguous = k > 1;
    if (k == 0)
        for (int i = 0; i < n; i++) {
            int type = ch_piece_type(p->board[ch_from(moves[i])]);
            bool same_to = !w.castle && ch_to(moves[i]) == w.to;
            bool same_type = w.castle ? type == CH_KING : type == (w.type >= 0 ? w.type : CH_PAWN);
            if (same_to || same_type) hit[k++] = moves[i];
        }
    char list[400] = "", san[16];
    size_t used = 0;
    for (int i = 0; i < k && used + 16 < sizeof list; i++) {
        ch_move_to_san(p, hit[i], san, sizeof san);
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? " " : "", san);
    }
    if (ambiguous)
        return hoyle_error(HOYLE_EINVAL, "move '%s': ambiguous (candidates: %s)", text, list);
    if (k)
        return hoyle_error(HOYLE_EINVAL, "move '%s': not legal here (candidates: %s)", text, list);
    return hoyle_error(HOYLE_EINVAL, "move '%s': not legal here (no candidates)", text);
}

/* ---- the game's text slots ---- */

int ch_position_to_string(const game_t *g, const void *state, char *buf, size_t cap)
{
    (void)g;
    return ch_odds_position_to_string(state, buf, cap);
}

int ch_position_from_string(const game_t *g, const char *text, void *state)
{
    return ch_odds_position_from_string(ch_game(g), text, state);
}

int ch_action_to_string(const game_t *g, const void *state, int action, char *buf, size_t cap)
{
    (void)g;
    const ch_state_t *s = state;
    ch_move_t m = action >= 0 && action < CH_ACTIONS ? ch_action_decode(&s->pos, action) : 0;
    if (m == 0) return hoyle_error(HOYLE_EINVAL, "action_to_string: no move %d", action);
    char t[8];
    ch_move_to_uci(m, t);
    size_t n = strlen(t);
    if (n + 1 > cap) return hoyle_error(HOYLE_EFULL, "action_to_string: buffer too small");
    memcpy(buf, t, n + 1);
    return (int)n;
}

/* For people (game_move_to_display): SAN, `Nf3`, `exd5`, `O-O`, `e8=Q+`. */
int ch_move_to_display(const game_t *g, const void *state, const int *actions, int n, char *buf,
                       size_t cap)
{
    (void)g;
    const ch_state_t *s = state;
    ch_move_t m = n == 1 && actions[0] >= 0 && actions[0] < CH_ACTIONS
                      ? ch_action_decode(&s->pos, actions[0])
                      : 0;
    if (n == 2 && s->prelude == 2) { /* odds of two moves: White's turn is both, "e4 d4" */
        m = actions[0] >= 0 && actions[0] < CH_ACTIONS ? ch_action_decode(&s->pos, actions[0]) : 0;
        ch_state_t t = *s;
        int a = m ? ch_move_to_san(&t.pos, m, buf, cap) : -1;
        if (a < 0 || (size_t)a + 2 > cap)
            return hoyle_error(HOYLE_EINVAL, "move_to_display: not a move");
        ch_odds_make(ch_game(g), &t, m);
        ch_move_t m2 =
            actions[1] >= 0 && actions[1] < CH_ACTIONS ? ch_action_decode(&t.pos, actions[1]) : 0;
        buf[a] = ' ';
        int b = m2 ? ch_move_to_san(&t.pos, m2, buf + a + 1, cap - (size_t)a - 1) : -1;
        if (b < 0) return hoyle_error(HOYLE_EINVAL, "move_to_display: not a move");
        return a + 1 + b;
    }
    if (m == 0) return hoyle_error(HOYLE_EINVAL, "move_to_display: not one chess move");
    return ch_move_to_san(&s->pos, m, buf, cap);
}

int ch_action_from_string(const game_t *g, const void *state, const char *text, int *action)
{
    (void)g;
    const ch_state_t *s = state;
    if (s->result != CH_ONGOING)
        return hoyle_error(HOYLE_EINVAL, "move '%s': the game is over", text);
    ch_move_t m;
    int rc = ch_move_parse_any(&s->pos, text, &m);
    if (rc) return rc;
    if (!ch_odds_allows(s, m))
        return hoyle_error(HOYLE_EINVAL,
                           "move '%s': not before Black's first move (odds of two moves: no man "
                           "past the fourth rank)",
                           text);
    *action = ch_move_to_action(&s->pos, m);
    return HOYLE_OK;
}

int ch_move_from_string(const game_t *g, const void *state, const char *text, int *actions, int cap)
{
    if (cap < 1) return hoyle_error(HOYLE_EFULL, "move_from_string: no room");
    const ch_state_t *s = state;
    if (s->prelude != 2) {
        int rc = ch_action_from_string(g, state, text, actions);
        return rc ? rc : 1;
    }
    /* odds of two moves: White's whole move is his two moves, "e4 d4" or
     * "e4,d4" (one token, as books write it) */
    char first[64];
    const char *p = text;
    while (*p == ' ') p++;
    size_t len = strcspn(p, " \t,");
    const char *second = p + len;
    while (*second == ' ' || *second == '\t' || *second == ',') second++;
    if (len == 0 || len >= sizeof first || *second == '\0')
        return hoyle_error(HOYLE_EINVAL,
                           "move '%s': at the odds of two moves White's turn is two moves (e4 d4)",
                           text);
    if (cap < 2) return hoyle_error(HOYLE_EFULL, "move_from_string: no room");
    memcpy(first, p, len);
    first[len] = '\0';
    int rc = ch_action_from_string(g, state, first, &actions[0]);
    if (rc) return rc;
    ch_state_t t = *s;
    ch_odds_make(ch_game(g), &t, ch_action_decode(&t.pos, actions[0]));
    rc = ch_action_from_string(g, &t, second, &actions[1]);
    return rc ? rc : 2;
}
