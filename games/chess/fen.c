/* fen.c — Forsyth-Edwards Notation in and out, fully validated.
 *
 * Read: six fields (the last two, halfmove clock and move number, may be
 * left out: 0 and 1). Rejected with a one-line message naming the problem:
 * a wrong field count, a bad piece letter, a rank that is not 8 squares,
 * not 8 ranks, not exactly one king a side, a pawn on the first or last
 * rank, more than 16 pieces or 8 pawns a side or more promoted pieces than
 * missing pawns, a bad side field, the side not to move in check, castling
 * rights without their king and rook at home, a bad or impossible
 * en-passant square, bad counters. Write: the en-passant square only when a
 * legal en-passant capture exists (hoyle's positions keep no other). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/chess/chess_internal.h"

static const char letters[] = "PNBRQKpnbrqk";

static int fen_error(const char *text, const char *what)
{
    return hoyle_error(HOYLE_EINVAL, "fen: %s in '%s'", what, text);
}

/* Split `text` on blanks into at most 7 fields (a 7th means too many). */
static int split(const char *text, char fields[7][96])
{
    int n = 0;
    const char *p = text;
    while (*p) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        if (n == 7) return 8;
        size_t len = 0;
        while (*p && !isspace((unsigned char)*p)) {
            if (len + 1 < 96) fields[n][len++] = *p;
            p++;
        }
        fields[n++][len] = '\0';
    }
    return n;
}

static int parse_count(const char *s, long lo, long hi, long *out)
{
    char *end;
    if (!isdigit((unsigned char)s[0])) return -1;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static const char *const colour[2] = {"white", "black"};

/* FEN field 1, the placement (rank 8 first), into p. */
static int read_placement(const char *text, const char *field, ch_pos_t *p)
{
    char msg[128];
    /* 1. placement, rank 8 first */
    int rank = 7, file = 0;
    for (const char *c = field; *c; c++) {
        if (*c == '/') {
            if (file != 8) {
                snprintf(msg, sizeof msg, "rank %d has %d squares, not 8", rank + 1, file);
                return fen_error(text, msg);
            }
            if (--rank < 0) return fen_error(text, "more than 8 ranks");
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            file += *c - '0';
            if (file > 8) {
                snprintf(msg, sizeof msg, "rank %d has more than 8 squares", rank + 1);
                return fen_error(text, msg);
            }
        } else {
            const char *l = strchr(letters, *c);
            if (!l || !*c) {
                snprintf(msg, sizeof msg, "bad piece letter '%c'", *c);
                return fen_error(text, msg);
            }
            if (file > 7) {
                snprintf(msg, sizeof msg, "rank %d has more than 8 squares", rank + 1);
                return fen_error(text, msg);
            }
            int piece = (int)(l - letters);
            ch_pos_put(p, piece, rank * 8 + file++);
        }
    }
    if (file != 8) {
        snprintf(msg, sizeof msg, "rank %d has %d squares, not 8", rank + 1, file);
        return fen_error(text, msg);
    }
    if (rank != 0) {
        snprintf(msg, sizeof msg, "%d ranks, not 8", 8 - rank);
        return fen_error(text, msg);
    }
    return HOYLE_OK;
}

/* One king a side, at most 16 men and 8 pawns, promoted pieces within the missing pawns, no pawn on
 * the back ranks. */
static int check_material(const char *text, const ch_pos_t *p)
{
    char msg[128];
    for (int c = 0; c < 2; c++) {
        int k = ch_popcount(ch_pieces(p, c, CH_KING));
        if (k != 1) {
            snprintf(msg, sizeof msg, "%d %s kings, not 1", k, colour[c]);
            return fen_error(text, msg);
        }
        int pawns = ch_popcount(ch_pieces(p, c, CH_PAWN));
        if (ch_popcount(p->colors[c]) > 16 || pawns > 8) {
            snprintf(msg, sizeof msg, "too many %s pieces or pawns", colour[c]);
            return fen_error(text, msg);
        }
        int extra = 0;
        static const int home[6] = {8, 2, 2, 2, 1, 1};
        for (int t = CH_KNIGHT; t <= CH_QUEEN; t++) {
            int n = ch_popcount(ch_pieces(p, c, t));
            extra += n > home[t] ? n - home[t] : 0;
        }
        if (extra > 8 - pawns) {
            snprintf(msg, sizeof msg, "%d promoted %s pieces but only %d pawns missing", extra,
                     colour[c], 8 - pawns);
            return fen_error(text, msg);
        }
    }
    if (p->pieces[CH_PAWN] & 0xFF000000000000FFull)
        return fen_error(text, "a pawn on the first or last rank");
    return HOYLE_OK;
}

/* FEN field 2, the side to move (the other side must not be in check). */
static int read_side(const char *text, const char *field, ch_pos_t *p)
{
    char msg[128];
    /* 2. side */
    if (strcmp(field, "w") == 0)
        p->side = CH_WHITE;
    else if (strcmp(field, "b") == 0)
        p->side = CH_BLACK;
    else {
        snprintf(msg, sizeof msg, "bad side to move '%.16s' (w or b)", field);
        return fen_error(text, msg);
    }
    p->side ^= 1;
    bool other_in_check = ch_in_check(p);
    p->side ^= 1;
    if (other_in_check) {
        snprintf(msg, sizeof msg, "%s is in check but %s is to move", colour[p->side ^ 1],
                 colour[p->side]);
        return fen_error(text, msg);
    }
    return HOYLE_OK;
}

/* FEN field 3, the castling rights, each with its king and rook at home. */
static int read_castling(const char *text, const char *field, ch_pos_t *p)
{
    char msg[128];
    /* 3. castling */
    if (strcmp(field, "-") != 0) {
        static const char right_letter[] = "KQkq";
        static const int king_sq[4] = {4, 4, 60, 60}, rook_sq[4] = {7, 0, 63, 56};
        for (const char *c = field; *c; c++) {
            const char *r = strchr(right_letter, *c);
            if (!r || !*c) {
                snprintf(msg, sizeof msg, "bad castling field '%.16s'", field);
                return fen_error(text, msg);
            }
            int i = (int)(r - right_letter), col = i / 2;
            if (p->castling & (1 << i)) {
                snprintf(msg, sizeof msg, "castling right '%c' given twice", *c);
                return fen_error(text, msg);
            }
            char sq[3];
            if (p->board[king_sq[i]] != col * 6 + CH_KING) {
                ch_square_name(king_sq[i], sq);
                snprintf(msg, sizeof msg, "castling right '%c' but no %s king on %s", *c,
                         colour[col], sq);
                return fen_error(text, msg);
            }
            if (p->board[rook_sq[i]] != col * 6 + CH_ROOK) {
                ch_square_name(rook_sq[i], sq);
                snprintf(msg, sizeof msg, "castling right '%c' but no %s rook on %s", *c,
                         colour[col], sq);
                return fen_error(text, msg);
            }
            p->castling |= (uint8_t)(1 << i);
        }
    }
    return HOYLE_OK;
}

/* FEN field 4, the en-passant square (kept only where a capture there is legal). */
static int read_en_passant(const char *text, const char *field, ch_pos_t *p)
{
    char msg[128];
    /* 4. en passant: the pawn that just stepped two squares stands in front
     * of the square, which and the square behind are empty */
    if (strcmp(field, "-") != 0) {
        int ep = ch_square_parse(field);
        int need_rank = p->side == CH_WHITE ? 5 : 2;
        if (ep < 0 || field[2]) {
            snprintf(msg, sizeof msg, "bad en-passant field '%.16s'", field);
            return fen_error(text, msg);
        }
        int pawn_sq = p->side == CH_WHITE ? ep - 8 : ep + 8;
        int from_sq = p->side == CH_WHITE ? ep + 8 : ep - 8;
        if (ch_rank(ep) != need_rank || p->board[pawn_sq] != (p->side ^ 1) * 6 + CH_PAWN ||
            p->board[ep] != CH_EMPTY || p->board[from_sq] != CH_EMPTY) {
            snprintf(msg, sizeof msg,
                     "impossible en-passant square %.8s (no %s pawn just moved two)", field,
                     colour[p->side ^ 1]);
            return fen_error(text, msg);
        }
        if (ch_ep_legal(p, ep)) p->ep = (uint8_t)ep;
    }
    return HOYLE_OK;
}

int ch_fen_read(const ch_game_t *cg, const char *text, ch_state_t *out)
{
    char f[7][96], msg[128];
    int nf = split(text, f);
    if (nf < 4 || nf > 6) {
        snprintf(msg, sizeof msg, "%d fields, expected 6 (or 4)", nf > 7 ? 7 : nf);
        return fen_error(text, msg);
    }
    ch_state_t s;
    memset(&s, 0, sizeof s);
    ch_pos_t *p = &s.pos;
    ch_pos_clear(p);
    int status = read_placement(text, f[0], p);
    if (!status) status = check_material(text, p);
    if (!status) status = read_side(text, f[1], p);
    if (!status) status = read_castling(text, f[2], p);
    if (!status) status = read_en_passant(text, f[3], p);
    if (status) return status;
    /* 5. counters */
    long half = 0, full = 1;
    if (nf >= 5 && parse_count(f[4], 0, CH_FIFTY, &half)) {
        snprintf(msg, sizeof msg, "bad halfmove clock '%.16s' (0..%d)", f[4], CH_FIFTY);
        return fen_error(text, msg);
    }
    if (nf >= 6 && parse_count(f[5], 1, 65535, &full)) {
        snprintf(msg, sizeof msg, "bad move number '%.16s' (1..65535)", f[5]);
        return fen_error(text, msg);
    }
    p->halfmove = (uint8_t)half;
    s.fullmove = (uint16_t)full;
    p->key = ch_key_compute(p);
    ch_state_finish(cg, &s);
    memcpy(out, &s, sizeof s);
    return HOYLE_OK;
}

int ch_fen_write(const ch_pos_t *p, int fullmove, char *buf, size_t cap)
{
    char t[128];
    size_t n = 0;
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 8; f++) {
            int piece = p->board[r * 8 + f];
            if (piece == CH_EMPTY) {
                empty++;
                continue;
            }
            if (empty) t[n++] = (char)('0' + empty), empty = 0;
            t[n++] = letters[piece];
        }
        if (empty) t[n++] = (char)('0' + empty);
        if (r) t[n++] = '/';
    }
    t[n++] = ' ';
    t[n++] = p->side == CH_WHITE ? 'w' : 'b';
    t[n++] = ' ';
    if (!p->castling) t[n++] = '-';
    for (int i = 0; i < 4; i++)
        if (p->castling & (1 << i)) t[n++] = "KQkq"[i];
    t[n++] = ' ';
    if (p->ep == CH_NO_SQ)
        t[n++] = '-';
    else {
        ch_square_name(p->ep, t + n);
        n += 2;
    }
    n += (size_t)snprintf(t + n, sizeof t - n, " %d %d", p->halfmove, fullmove);
    if (n + 1 > cap) return hoyle_error(HOYLE_EFULL, "fen: buffer too small");
    memcpy(buf, t, n + 1);
    return (int)n;
}
