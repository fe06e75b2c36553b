/* notation_descriptive.c — English descriptive notation (seed 001,
 * "NOTATION"), read against the legal moves and written back.
 *
 * A move names the piece moved (P, Kt or N, B, R, Q, K, qualified by its
 * file: QP, KBP, QKt, KR), then '-' and the square reached, counted from
 * the mover's own side (Kt-KB3, Q-Q sq), or 'x' and the man taken (KtxP,
 * QPxKt, BxKBP); Castles, O-O, O-O-O. Reading collects every legal move the
 * text fits: one is the move, several are ambiguous, none is impossible.
 * Which Knight or Rook is the "King's" one is told by the half of the board
 * it stands on (a position does not record where a piece started); the
 * King's Bishop is the one on the colour of its start square, which never
 * changes. Writing tries the forms from the shortest up and keeps the first
 * that reads back to the move alone. Invariant: no function here changes
 * the position it is given. */
#include <stdio.h>
#include <string.h>

#include "games/chess/notation_seed.h"

enum { TK_K, TK_Q, TK_R, TK_B, TK_KT, TK_P, TK_X, TK_DASH, TK_SQ, TK_DIGIT, TK_EQ, TK_LP, TK_RP };

typedef struct dfile {
    int side; /* 0 none, 1 King's, 2 Queen's */
    int kind; /* 0 none (the K or Q file itself when side is set), else TK_R, TK_KT, TK_B */
} dfile_t;

typedef struct dsquare {
    dfile_t f;
    int rank; /* 1..8 from the mover's side; 0 = no square */
} dsquare_t;

typedef struct dpiece {
    int type; /* CH_PAWN .. CH_KING */
    dfile_t f;
    dsquare_t from; /* "Kt(KB3)": where it stands; rank 0 = not given */
} dpiece_t;

typedef struct dmove {
    int castle; /* 0 none, 1 either side, 2 King's side, 3 Queen's side */
    dpiece_t piece;
    bool capture;
    dpiece_t target; /* capture of a named man (target_sq.rank == 0) */
    dsquare_t to;    /* a move's square, or a capture onto a named square */
    int promo;       /* CH_KNIGHT..CH_QUEEN, or -1 */
} dmove_t;

static const char *const file_full[8] = {"QR", "QKt", "QB", "Q", "K", "KB", "KKt", "KR"};
static const char *const file_short[8] = {"R", "Kt", "B", "Q", "K", "B", "Kt", "R"};
static const char *const type_name[6] = {"P", "Kt", "B", "R", "Q", "K"};
static const char *const type_word[6] = {"Pawn", "Knight", "Bishop", "Rook", "Queen", "King"};

/* ---- text -> tokens ---- */

/* Copy `text` without blanks, commas and full stops, "'s" (ASCII or the
 * typographic apostrophe) as "sq", then drop trailing check, mate and
 * comment marks. Returns false when it does not fit. */
static bool compact(const char *text, char *out, size_t cap)
{
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == ' ' || *c == '\t' || *c == ',' || *c == '.') continue;
        bool apos = *c == '\'' || (c[0] == 0xE2 && c[1] == 0x80 && c[2] == 0x99);
        if (apos) {
            const unsigned char *s = c + (*c == '\'' ? 1 : 3);
            if (*s != 's') return false;
            if (n + 2 >= cap) return false;
            out[n++] = 's', out[n++] = 'q';
            c = s;
            continue;
        }
        if (n + 1 >= cap) return false;
        out[n++] = (char)*c;
    }
    out[n] = '\0';
    static const char *const marks[] = {"mate", "check", "ch", "dis", "dbl", "double",
                                        "ep",   "++",    "+",  "#",   "!",   "?"};
    for (bool again = true; again;) {
        again = false;
        for (size_t i = 0; i < sizeof marks / sizeof *marks; i++) {
            size_t k = strlen(marks[i]);
            if (n >= k + 1 && strcmp(out + n - k, marks[i]) == 0) {
                n -= k;
                out[n] = '\0';
                again = true;
            }
        }
    }
    return true;
}

/* Tokens of a compacted text; false on a character no descriptive move has. */
static bool tokenize(const char *s, int *tok, int *val, int cap, int *count)
{
    int n = 0;
    while (*s) {
        if (n == cap) return false;
        val[n] = 0;
        if (s[0] == 'K' && s[1] == 't')
            tok[n] = TK_KT, s += 2;
        else if (s[0] == 's' && s[1] == 'q')
            tok[n] = TK_SQ, s += 2;
        else if (*s >= '0' && *s <= '9')
            tok[n] = TK_DIGIT, val[n] = *s - '0', s++;
        else {
            const char *l = strchr("KQRBNPx-=()", *s);
            if (l == NULL) return false;
            static const int map[] = {TK_K, TK_Q,    TK_R,  TK_B,  TK_KT, TK_P,
                                      TK_X, TK_DASH, TK_EQ, TK_LP, TK_RP};
            tok[n] = map[l - "KQRBNPx-=()"];
            s++;
        }
        n++;
    }
    *count = n;
    return true;
}

static bool is_letter(int t) { return t <= TK_P; }
static int type_of_token(int t)
{
    return t == TK_K    ? CH_KING
           : t == TK_Q  ? CH_QUEEN
           : t == TK_R  ? CH_ROOK
           : t == TK_B  ? CH_BISHOP
           : t == TK_KT ? CH_KNIGHT
                        : CH_PAWN;
}

/* [K|Q]? [R|Kt|B]? then a rank or "sq". */
static int parse_square(const int *tok, const int *val, int n, int *i, dsquare_t *sq)
{
    memset(sq, 0, sizeof *sq);
    if (*i < n && (tok[*i] == TK_K || tok[*i] == TK_Q)) sq->f.side = tok[(*i)++] == TK_K ? 1 : 2;
    if (*i < n && (tok[*i] == TK_R || tok[*i] == TK_KT || tok[*i] == TK_B))
        sq->f.kind = tok[(*i)++];
    if (sq->f.side == 0 && sq->f.kind == 0) return hoyle_error(HOYLE_EINVAL, "no file named");
    if (*i < n && tok[*i] == TK_SQ) {
        sq->rank = 1;
        (*i)++;
    } else if (*i < n && tok[*i] == TK_DIGIT && val[*i] >= 1 && val[*i] <= 8) {
        sq->rank = val[(*i)++];
    } else {
        return hoyle_error(HOYLE_EINVAL, "a square needs a rank 1-8 or 'sq'");
    }
    return HOYLE_OK;
}

/* One to three letters naming a man (Kt, QP, KBP, QKt), then "(square)". */
static int parse_piece(const int *tok, const int *val, int n, int *i, dpiece_t *pc)
{
    memset(pc, 0, sizeof *pc);
    int l[3], k = 0;
    while (*i < n && is_letter(tok[*i]) && k < 3) l[k++] = tok[(*i)++];
    bool side0 = k > 0 && (l[0] == TK_K || l[0] == TK_Q);
    bool filekind = k > 1 && (l[k - 2] == TK_R || l[k - 2] == TK_KT || l[k - 2] == TK_B);
    if (k == 1) {
        pc->type = type_of_token(l[0]);
    } else if (k == 2 && l[1] == TK_P && (side0 || filekind)) {
        pc->type = CH_PAWN;
        if (side0)
            pc->f.side = l[0] == TK_K ? 1 : 2;
        else
            pc->f.kind = l[0];
    } else if (k == 2 && side0 && (l[1] == TK_R || l[1] == TK_KT || l[1] == TK_B)) {
        pc->type = type_of_token(l[1]);
        pc->f.side = l[0] == TK_K ? 1 : 2;
    } else if (k == 3 && side0 && filekind && l[2] == TK_P) {
        pc->type = CH_PAWN;
        pc->f.side = l[0] == TK_K ? 1 : 2;
        pc->f.kind = l[1];
    } else {
        return hoyle_error(HOYLE_EINVAL, "no man is named like that");
    }
    if (*i < n && tok[*i] == TK_LP) {
        (*i)++;
        if (parse_square(tok, val, n, i, &pc->from)) return HOYLE_EINVAL;
        if (*i >= n || tok[*i] != TK_RP) return hoyle_error(HOYLE_EINVAL, "')' missing");
        (*i)++;
    }
    return HOYLE_OK;
}

/* Whether the compacted text is castling; sets m->castle. */
static bool parse_castle(const char *s, dmove_t *m)
{
    static const char *const forms[][2] = {
        {"O-O-O", "3"},     {"0-0-0", "3"},    {"O-O", "2"},       {"0-0", "2"},
        {"Castles", "1"},   {"CastlesK", "2"}, {"CastlesKR", "2"}, {"CastlesQ", "3"},
        {"CastlesQR", "3"}, {"castles", "1"}};
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++)
        if (strcmp(s, forms[i][0]) == 0) {
            m->castle = forms[i][1][0] - '0';
            return true;
        }
    return false;
}

/* Text -> dmove_t: 0, HOYLE_EINVAL (message without the move's text), or
 * CH_NOTATION_FOREIGN. */
static int parse_text(const char *text, dmove_t *m)
{
    char s[96];
    memset(m, 0, sizeof *m);
    m->promo = -1;
    if (!compact(text, s, sizeof s)) return CH_NOTATION_FOREIGN;
    if (parse_castle(s, m)) return HOYLE_OK;
    if (strchr("PKQRBN", s[0]) == NULL || s[0] == '\0') return CH_NOTATION_FOREIGN;
    int tok[48], val[48], n, i = 0;
    if (!tokenize(s, tok, val, 48, &n)) return CH_NOTATION_FOREIGN;
    bool sep = false;
    for (int k = 0; k < n; k++) sep |= tok[k] == TK_X || tok[k] == TK_DASH;
    if (!sep) return CH_NOTATION_FOREIGN;
    if (parse_piece(tok, val, n, &i, &m->piece)) return HOYLE_EINVAL;
    if (i < n && tok[i] == TK_DASH) {
        i++;
        if (parse_square(tok, val, n, &i, &m->to)) return HOYLE_EINVAL;
    } else if (i < n && tok[i] == TK_X) {
        i++;
        m->capture = true;
        int j = i;
        while (j < n && is_letter(tok[j])) j++;
        if (j < n && (tok[j] == TK_DIGIT || tok[j] == TK_SQ)) {
            if (parse_square(tok, val, n, &i, &m->to)) return HOYLE_EINVAL;
        } else if (parse_piece(tok, val, n, &i, &m->target)) {
            return HOYLE_EINVAL;
        }
    } else {
        return hoyle_error(HOYLE_EINVAL, "'-' or 'x' expected after the man moved");
    }
    if (i < n && (tok[i] == TK_EQ || tok[i] == TK_LP)) {
        bool paren = tok[i++] == TK_LP;
        if (i >= n || tok[i] == TK_P || tok[i] == TK_K || !is_letter(tok[i]))
            return hoyle_error(HOYLE_EINVAL, "a pawn is promoted to Q, R, B or Kt");
        m->promo = type_of_token(tok[i++]);
        if (paren && (i >= n || tok[i++] != TK_RP)) return hoyle_error(HOYLE_EINVAL, "')' missing");
    } else if (i < n && is_letter(tok[i]) && m->to.rank) {
        if (tok[i] == TK_P || tok[i] == TK_K)
            return hoyle_error(HOYLE_EINVAL, "a pawn is promoted to Q, R, B or Kt");
        m->promo = type_of_token(tok[i++]);
    }
    if (i < n) return hoyle_error(HOYLE_EINVAL, "unexpected text at the end");
    return HOYLE_OK;
}

/* ---- matching against the legal moves ---- */

static bool file_ok(dfile_t f, int file)
{
    if (f.kind == 0) return f.side == 0 || file == (f.side == 1 ? 4 : 3);
    int a = f.kind == TK_R ? 0 : f.kind == TK_KT ? 1 : 2;
    if (file != a && file != 7 - a) return false;
    return f.side == 0 || (f.side == 1) == (file >= 4);
}

static int rel_rank(int color, int sq)
{
    return color == CH_WHITE ? ch_rank(sq) + 1 : 8 - ch_rank(sq);
}

static bool square_ok(const dsquare_t *d, int color, int sq)
{
    return file_ok(d->f, ch_file(sq)) && rel_rank(color, sq) == d->rank;
}

/* Whether the man of `color` and `type` on `sq` is the one `d` names. */
static bool piece_ok(const dpiece_t *d, int color, int type, int sq)
{
    if (d->type != type) return false;
    if (d->from.rank && !square_ok(&d->from, color, sq)) return false;
    if (type == CH_PAWN) return file_ok(d->f, ch_file(sq));
    if (d->f.side == 0) return true;
    bool kings;
    if (type == CH_BISHOP) {
        /* f1 is a light square, f8 a dark one; a1 (0 + 0) is dark */
        bool light = ((ch_rank(sq) + ch_file(sq)) & 1) != 0;
        kings = light == (color == CH_WHITE);
    } else {
        kings = ch_file(sq) >= 4;
    }
    return kings == (d->f.side == 1);
}

static bool move_ok(const ch_pos_t *p, const dmove_t *d, ch_move_t m)
{
    int us = p->side, from = ch_from(m), to = ch_to(m);
    if (d->castle) {
        if (ch_kind(m) != CH_MV_CASTLE) return false;
        return d->castle == 1 || (d->castle == 2) == (ch_file(to) == 6);
    }
    if (!piece_ok(&d->piece, us, ch_piece_type(p->board[from]), from)) return false;
    if (ch_is_capture(p, m) != d->capture) return false;
    if (d->to.rank && !square_ok(&d->to, us, to)) return false;
    if (d->capture && d->to.rank == 0) {
        int at = ch_kind(m) == CH_MV_EP ? (us == CH_WHITE ? to - 8 : to + 8) : to;
        if (!piece_ok(&d->target, us ^ 1, ch_piece_type(p->board[at]), at)) return false;
    }
    if (ch_is_promo(m)) return ch_promo_type(m) == (d->promo >= 0 ? d->promo : CH_QUEEN);
    return d->promo < 0;
}

static int matches(const ch_pos_t *p, const dmove_t *d, const ch_move_t *moves, int n,
                   ch_move_t *hits)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (move_ok(p, d, moves[i])) hits[k++] = moves[i];
    return k;
}

/* ---- writing ---- */

static int piece_text(const ch_pos_t *p, int sq, int level, char *buf, size_t cap)
{
    int piece = p->board[sq], type = ch_piece_type(piece), color = ch_piece_color(piece);
    int f = ch_file(sq);
    if (type == CH_PAWN && level == 1) return snprintf(buf, cap, "%sP", file_short[f]);
    if (type == CH_PAWN && level >= 2) return snprintf(buf, cap, "%sP", file_full[f]);
    if (level == 0 || type == CH_KING || type == CH_QUEEN)
        return snprintf(buf, cap, "%s", type_name[type]);
    bool kings = type == CH_BISHOP ? (((ch_rank(sq) + f) & 1) != 0) == (color == CH_WHITE) : f >= 4;
    return snprintf(buf, cap, "%s%s", kings ? "K" : "Q", type_name[type]);
}

static int square_text(int color, int sq, bool full, char *buf, size_t cap)
{
    int r = rel_rank(color, sq);
    const char *name = (full ? file_full : file_short)[ch_file(sq)];
    return r == 1 ? snprintf(buf, cap, "%s sq", name) : snprintf(buf, cap, "%s%d", name, r);
}

/* The candidate text for (piece level, target or square level). */
static void candidate(const ch_pos_t *p, ch_move_t m, int pl, int tl, char *buf, size_t cap)
{
    int us = p->side, from = ch_from(m), to = ch_to(m);
    char pc[24], tg[24];
    piece_text(p, from, pl > 2 ? 0 : pl, pc, sizeof pc);
    if (pl == 3) {
        size_t k = strlen(pc);
        pc[k++] = '(';
        square_text(us, from, true, pc + k, sizeof pc - k - 1);
        strcat(pc, ")");
    }
    if (ch_is_capture(p, m)) {
        int at = ch_kind(m) == CH_MV_EP ? (us == CH_WHITE ? to - 8 : to + 8) : to;
        if (tl == 3)
            square_text(us, to, true, tg, sizeof tg);
        else
            piece_text(p, at, tl, tg, sizeof tg);
        snprintf(buf, cap, "%sx%s", pc, tg);
    } else {
        square_text(us, to, tl > 0, tg, sizeof tg);
        snprintf(buf, cap, "%s-%s", pc, tg);
    }
    if (ch_is_promo(m)) {
        size_t k = strlen(buf);
        snprintf(buf + k, cap - k, "=%s", type_name[ch_promo_type(m)]);
    }
}

/* Whether `text` reads as `m` alone among `moves`. */
static bool reads_as(const ch_pos_t *p, const char *text, ch_move_t m, const ch_move_t *moves,
                     int n)
{
    dmove_t d;
    ch_move_t hits[CH_MAX_MOVES];
    return parse_text(text, &d) == 0 && matches(p, &d, moves, n, hits) == 1 && hits[0] == m;
}

static int descriptive_text(const ch_pos_t *p, ch_move_t m, const ch_move_t *moves, int n, char *t,
                            size_t cap)
{
    if (ch_kind(m) == CH_MV_CASTLE) {
        snprintf(t, cap, "%s", ch_file(ch_to(m)) == 6 ? "O-O" : "O-O-O");
        return HOYLE_OK;
    }
    bool cap_move = ch_is_capture(p, m);
    /* shortest first: the levels' sum, the man before the target */
    for (int sum = 0; sum <= 6; sum++)
        for (int pl = 0; pl <= 3 && pl <= sum; pl++) {
            int tl = sum - pl;
            if (tl > (cap_move ? 3 : 1)) continue;
            candidate(p, m, pl, tl, t, cap);
            if (reads_as(p, t, m, moves, n)) return HOYLE_OK;
        }
    return hoyle_error(HOYLE_EINVAL, "descriptive: no unambiguous text for the move");
}

int ch_move_to_descriptive(const ch_pos_t *p, ch_move_t m, char *buf, size_t cap)
{
    ch_move_t moves[CH_MAX_MOVES];
    int n = ch_gen_legal(p, moves);
    char t[64];
    if (descriptive_text(p, m, moves, n, t, sizeof t)) return HOYLE_EINVAL;
    ch_pos_t q = *p;
    ch_pos_make(&q, m);
    const char *mark = !ch_in_check(&q) ? "" : ch_has_legal(&q) ? " ch" : " mate";
    const char *ep = ch_kind(m) == CH_MV_EP ? " e.p." : "";
    int len = snprintf(buf, cap, "%s%s%s", t, ep, mark);
    if (len < 0 || (size_t)len >= cap)
        return hoyle_error(HOYLE_EFULL, "descriptive: buffer too small");
    return len;
}

/* ---- reading ---- */

/* "Kt-QB3 (Nc3), Kt-KB3 (Nf3)" for up to 12 moves. */
static void list_moves(const ch_pos_t *p, const ch_move_t *list, int k, const ch_move_t *moves,
                       int n, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < k && i < 12 && len < cap; i++) {
        char d[64], san[16];
        if (descriptive_text(p, list[i], moves, n, d, sizeof d)) snprintf(d, sizeof d, "?");
        if (ch_move_to_san(p, list[i], san, sizeof san) < 0) snprintf(san, sizeof san, "?");
        int w = snprintf(buf + len, cap - len, "%s%s (%s)", i ? ", " : "", d, san);
        if (w > 0) len += (size_t)w;
    }
    if (k > 12 && len + 6 < cap) strcat(buf, ", ...");
}

int ch_descriptive_parse(const ch_pos_t *p, const char *text, ch_move_t *out)
{
    dmove_t d;
    int rc = parse_text(text, &d);
    if (rc == CH_NOTATION_FOREIGN) return rc;
    if (rc) return hoyle_error_prefix(HOYLE_EINVAL, "descriptive move '%s'", text);
    ch_move_t moves[CH_MAX_MOVES], hits[CH_MAX_MOVES];
    int n = ch_gen_legal(p, moves), k = matches(p, &d, moves, n, hits);
    const char *side = p->side == CH_WHITE ? "White" : "Black";
    char list[400];
    if (k == 1) {
        *out = hits[0];
        return HOYLE_OK;
    }
    if (k > 1) {
        list_moves(p, hits, k, moves, n, list, sizeof list);
        return hoyle_error(HOYLE_EINVAL, "descriptive move '%s' is ambiguous for %s: %s", text,
                           side, list);
    }
    /* impossible: list what the named man (or the King, castling) can do */
    int type = d.castle ? CH_KING : d.piece.type;
    ch_move_t own[CH_MAX_MOVES] = {0};
    int m = 0;
    for (int i = 0; i < n; i++)
        if (ch_piece_type(p->board[ch_from(moves[i])]) == type) own[m++] = moves[i];
    list_moves(p, own, m, moves, n, list, sizeof list);
    return hoyle_error(HOYLE_EINVAL,
                       "descriptive move '%s' is not legal for %s; the %s's moves: %s", text, side,
                       type_word[type], m ? list : "none");
}
