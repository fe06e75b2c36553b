/* notation_german.c — the German notation of seed 001 ("GERMAN NOTATION")
 * read and written, and the chain of readers `hoyle play chess` uses.
 *
 * A move is the piece's letter (K König, D Dame, T Thurm, L Läufer,
 * S Springer; none for a pawn, "simply the square it comes from"), the
 * square it stands on, '-' or 'n' ("nimmt": a capture), the square it goes
 * to, and '+' for check: e2-e4, Sg1-f3, Sf3ne5, De8-c6+. Where the seed is
 * silent hoyle writes 0-0 / 0-0-0 for castling, a promotion's letter after
 * the square (e7-e8D) and '#' for mate, and reads ':' and 'x' for 'n'.
 * The from- and to-squares name one move, so reading is never ambiguous;
 * a wrong letter or capture mark is an error, not a guess. */
#include <stdio.h>
#include <string.h>

#include "games/chess/notation_seed.h"

static const char german_letter[6] = {'B', 'S', 'L', 'T', 'D', 'K'}; /* Bauer ... König */

static int type_of_german(char c)
{
    const char *l = strchr("SLTDK", c);
    return l && c ? CH_KNIGHT + (int)(l - "SLTDK") : -1;
}

int ch_move_to_german(const ch_pos_t *p, ch_move_t m, char *buf, size_t cap)
{
    char t[24], a[3], b[3];
    int type = ch_piece_type(p->board[ch_from(m)]);
    if (ch_kind(m) == CH_MV_CASTLE) {
        snprintf(t, sizeof t, "%s", ch_file(ch_to(m)) == 6 ? "0-0" : "0-0-0");
    } else {
        ch_square_name(ch_from(m), a);
        ch_square_name(ch_to(m), b);
        size_t n = 0;
        if (type != CH_PAWN) t[n++] = german_letter[type];
        n += (size_t)snprintf(t + n, sizeof t - n, "%s%c%s", a, ch_is_capture(p, m) ? 'n' : '-', b);
        if (ch_is_promo(m)) t[n++] = german_letter[ch_promo_type(m)], t[n] = '\0';
    }
    ch_pos_t q = *p;
    ch_pos_make(&q, m);
    const char *mark = !ch_in_check(&q) ? "" : ch_has_legal(&q) ? "+" : "#";
    int len = snprintf(buf, cap, "%s%s", t, mark);
    if (len < 0 || (size_t)len >= cap) return hoyle_error(HOYLE_EFULL, "german: buffer too small");
    return len;
}

/* Text without blanks and without trailing + # ! ? and e.p.; false if too long. */
static bool german_compact(const char *text, char *s, size_t cap)
{
    size_t n = 0;
    for (const char *c = text; *c; c++) {
        if (*c == ' ' || *c == '\t') continue;
        if (n + 1 >= cap) return false;
        s[n++] = *c;
    }
    s[n] = '\0';
    for (bool again = true; again;) {
        again = false;
        static const char *const marks[] = {"e.p.", "ep", "+", "#", "!", "?"};
        for (size_t i = 0; i < sizeof marks / sizeof *marks; i++) {
            size_t k = strlen(marks[i]);
            if (n > k && strcmp(s + n - k, marks[i]) == 0) {
                n -= k;
                s[n] = '\0';
                again = true;
            }
        }
    }
    return true;
}

int ch_german_parse(const ch_pos_t *p, const char *text, ch_move_t *out)
{
    char s[48];
    if (!german_compact(text, s, sizeof s)) return CH_NOTATION_FOREIGN;
    ch_move_t moves[CH_MAX_MOVES];
    int n = ch_gen_legal(p, moves);
    if (strcmp(s, "0-0") == 0 || strcmp(s, "0-0-0") == 0) {
        int file = s[3] ? 2 : 6;
        for (int i = 0; i < n; i++)
            if (ch_kind(moves[i]) == CH_MV_CASTLE && ch_file(ch_to(moves[i])) == file) {
                *out = moves[i];
                return HOYLE_OK;
            }
        return hoyle_error(HOYLE_EINVAL, "german move '%s': %s cannot castle on that side now",
                           text, p->side == CH_WHITE ? "White" : "Black");
    }
    const char *c = s;
    int letter = -1;
    if (type_of_german(*c) >= 0) letter = type_of_german(*c++);
    int from = ch_square_parse(c), to = from >= 0 ? ch_square_parse(c + 3) : -1;
    char sep = from >= 0 ? c[2] : 0;
    if (from < 0 || to < 0 || !strchr("-n:x", sep)) return CH_NOTATION_FOREIGN;
    c += 5;
    int promo = -1;
    if (*c == '=') c++;
    if (*c) {
        promo = type_of_german(*c);
        if (promo < 0 || promo == CH_KING || c[1])
            return hoyle_error(HOYLE_EINVAL, "german move '%s': unexpected '%s' at the end", text,
                               c);
        c++;
    }
    int piece = p->board[from];
    if (piece == CH_EMPTY || ch_piece_color(piece) != p->side)
        return hoyle_error(HOYLE_EINVAL, "german move '%s': no man of the side to move on %.2s",
                           text, s + (letter >= 0));
    int type = ch_piece_type(piece);
    if ((letter < 0 ? CH_PAWN : letter) != type)
        return hoyle_error(HOYLE_EINVAL, "german move '%s': the man on %.2s is %c, not %c", text,
                           s + (letter >= 0), german_letter[type],
                           letter < 0 ? 'B' : german_letter[letter]);
    char list[300] = "";
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        if (ch_from(moves[i]) != from) continue;
        if (ch_to(moves[i]) == to && (!ch_is_promo(moves[i]) ||
                                      ch_promo_type(moves[i]) == (promo >= 0 ? promo : CH_QUEEN))) {
            bool capture = ch_is_capture(p, moves[i]);
            if (capture != (sep != '-'))
                return hoyle_error(HOYLE_EINVAL, "german move '%s': %s, write '%c'", text,
                                   capture ? "the move captures" : "nothing is captured",
                                   capture ? 'n' : '-');
            if (promo >= 0 && !ch_is_promo(moves[i]))
                return hoyle_error(HOYLE_EINVAL, "german move '%s': not a promotion", text);
            *out = moves[i];
            return HOYLE_OK;
        }
        char g[24];
        if (len + 30 < sizeof list && ch_move_to_german(p, moves[i], g, sizeof g) > 0)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", g);
    }
    return hoyle_error(HOYLE_EINVAL, "german move '%s' is not legal; the man on %.2s can play: %s",
                       text, s + (letter >= 0), len ? list : "nothing");
}

/* ---- the chain and the game writers ---- */

int ch_move_parse_any(const ch_pos_t *p, const char *text, ch_move_t *out)
{
    if (ch_move_parse(p, text, out) == HOYLE_OK) return HOYLE_OK;
    char san_error[HOYLE_ERROR_MAX];
    snprintf(san_error, sizeof san_error, "%s", hoyle_last_error());
    int rc = ch_german_parse(p, text, out);
    if (rc <= 0) return rc;
    rc = ch_descriptive_parse(p, text, out);
    if (rc <= 0) return rc;
    return hoyle_error(HOYLE_EINVAL, "%s", san_error);
}

int ch_notation_from_name(const char *name)
{
    static const char *const names[] = {"san", "uci", "descriptive", "german"};
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0) return i;
    return -1;
}

int ch_move_to_notation(const ch_pos_t *p, ch_move_t m, int notation, char *buf, size_t cap)
{
    switch (notation) {
    case CH_NOTE_UCI:
        if (cap < 6) return hoyle_error(HOYLE_EFULL, "uci: buffer too small");
        ch_move_to_uci(m, buf);
        return (int)strlen(buf);
    case CH_NOTE_DESCRIPTIVE: return ch_move_to_descriptive(p, m, buf, cap);
    case CH_NOTE_GERMAN: return ch_move_to_german(p, m, buf, cap);
    default: return ch_move_to_san(p, m, buf, cap);
    }
}

int ch_game_to_notation(const game_t *g, const void *start, const int *actions, int n, int notation,
                        char *buf, size_t cap)
{
    ch_state_t s;
    memcpy(&s, start, sizeof s);
    size_t len = 0;
    if (cap) buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        ch_move_t m = ch_action_to_move(&s.pos, actions[i]);
        if (m == 0 || s.result != CH_ONGOING)
            return hoyle_error(HOYLE_EINVAL, "chess: action %d (move %d) is not legal", actions[i],
                               i + 1);
        char mv[64];
        if (ch_move_to_notation(&s.pos, m, notation, mv, sizeof mv) < 0) return HOYLE_EINVAL;
        int w = s.pos.side == CH_WHITE || i == 0
                    ? snprintf(buf + len, cap - len, "%s%d.%s %s", len ? " " : "", s.fullmove,
                               s.pos.side == CH_WHITE ? "" : "..", mv)
                    : snprintf(buf + len, cap - len, " %s", mv);
        if (w < 0 || (size_t)w >= cap - len)
            return hoyle_error(HOYLE_EFULL, "chess: text too long");
        len += (size_t)w;
        ch_state_make(ch_game(g), &s, m);
    }
    return (int)len;
}
