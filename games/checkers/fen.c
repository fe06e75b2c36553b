/* fen.c — reading the (extended) PDN FEN of notation.c into a state.
 * Validation is complete: a state that parses satisfies every invariant of
 * checkers_internal.h and respects the bounds the game declares (at most 12
 * pieces a side, no man on its own king row, a chain that can continue,
 * a history that undoes to a legal board). Writes `s` only on success. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "games/checkers/checkers_internal.h"

/* A full board with kings, a chain and a 40-move history is a few hundred
 * characters: 1024 refuses nonsense without limiting real positions. */
#define FEN_MAX 1024

/* 1-based square numbers on the text side, 0-based bits inside. The digit
 * loop stops growing v at 1000 so that a long digit string is "bad square"
 * rather than an overflow. */
static int read_square(const char **pp, int *sq, const char *what)
{
    const char *p = *pp;
    if (!isdigit((unsigned char)*p))
        return hoyle_error(HOYLE_EINVAL, "fen: %s: expected a square at '%.12s'", what, p);
    long v = 0;
    while (isdigit((unsigned char)*p) && v < 1000) v = v * 10 + (*p++ - '0');
    if (v < 1 || v > 32) return hoyle_error(HOYLE_EINVAL, "fen: %s: bad square '%ld'", what, v);
    *sq = (int)v - 1;
    *pp = p;
    return HOYLE_OK;
}

/* A colour's list: [K]n or n-m ranges, comma separated, possibly empty. */
static int read_pieces(const char *p, uint32_t *set, uint32_t *kings, const char *what)
{
    uint32_t s = 0, k = 0;
    while (*p) {
        bool king = false;
        if (*p == 'K' || *p == 'k') king = true, p++;
        int a, b;
        if (read_square(&p, &a, what)) return HOYLE_EINVAL;
        b = a;
        if (*p == '-') {
            p++;
            if (read_square(&p, &b, what)) return HOYLE_EINVAL;
            if (b < a)
                return hoyle_error(HOYLE_EINVAL, "fen: %s: bad range %d-%d", what, a + 1, b + 1);
        }
        for (int sq = a; sq <= b; sq++) {
            if ((s >> sq) & 1)
                return hoyle_error(HOYLE_EINVAL, "fen: %s: square %d listed twice", what, sq + 1);
            s |= ck_bit(sq);
            if (king) k |= ck_bit(sq);
        }
        if (*p == ',') {
            p++;
            if (!*p) return hoyle_error(HOYLE_EINVAL, "fen: %s: list ends in ','", what);
        } else if (*p) {
            return hoyle_error(HOYLE_EINVAL, "fen: %s: unexpected '%c'", what, *p);
        }
    }
    *set = s;
    *kings = k;
    return HOYLE_OK;
}

/* `allow`: a Polish man in mid-capture may stand on its king row uncrowned. */
/* Piece counts are checked because buffer sizes rely on them (CK_MAX_LEGAL
 * assumes at most 12 pieces a side, the most a side starts with); an uncrowned
 * man on its king row is a state no game can reach. */
static int check_board(const ck_game_t *cg, ck_state_t *t, uint32_t allow)
{
    static const char *const name[2] = {"black", "white"};
    if (t->bb[0] & t->bb[1])
        return hoyle_error(HOYLE_EINVAL, "fen: square %d is both black and white",
                           ck_lsb(t->bb[0] & t->bb[1]) + 1);
    for (int c = 0; c < 2; c++) {
        if (ck_popcount(t->bb[c]) > 12)
            return hoyle_error(HOYLE_EINVAL, "fen: %s has %d pieces (at most 12)", name[c],
                               ck_popcount(t->bb[c]));
        uint32_t bad = t->bb[c] & ~t->kings & ck_king_row(c) & ~allow;
        if (bad && cg->variant != CK_DEVIL)
            return hoyle_error(HOYLE_EINVAL, "fen: %s man on %d is on its king row (write K%d)",
                               name[c], ck_lsb(bad) + 1, ck_lsb(bad) + 1);
    }
    /* devil checkers: the one black piece is always a king (the devil), so
     * the K markers are implied rather than required */
    if (cg->variant == CK_DEVIL) {
        if (ck_popcount(t->bb[0]) != 1)
            return hoyle_error(HOYLE_EINVAL,
                               "fen: devil: black must have exactly one piece (the devil)");
        if (ck_popcount(t->bb[1]) > 4 || (t->bb[1] & t->kings))
            return hoyle_error(HOYLE_EINVAL,
                               "fen: devil: white has at most four men (the tailors) and no kings");
        t->kings = t->bb[0];
    }
    return HOYLE_OK;
}

/* C<a>x<b> and X<list>: a chain in progress. */
/* The chain fields describe a capture sequence stopped between steps: the
 * mover's piece is on b, came from a (now empty), and took the pieces in X.
 * Accepted only if the last step really captured and another capture is
 * available, since otherwise the turn would already have ended. */
static int check_chain(const ck_game_t *cg, ck_state_t *t, const char *cf, const char *xf)
{
    int a, b;
    const char *p = cf;
    if (read_square(&p, &a, "chain") || (*p != 'x' && *p != 'X') ||
        (p++, read_square(&p, &b, "chain")) || *p)
        return hoyle_error(HOYLE_EINVAL, "fen: chain: want C<from>x<to>, got 'C%s'", cf);
    uint32_t between, cap, k;
    int c = t->side, d = ck_line(a, b, &between);
    if (d < 0)
        return hoyle_error(HOYLE_EINVAL, "fen: chain: %d and %d are not on one diagonal", a + 1,
                           b + 1);
    if (!((t->bb[c] >> b) & 1))
        return hoyle_error(HOYLE_EINVAL, "fen: chain: no piece of the side to move on %d", b + 1);
    if (((t->bb[0] | t->bb[1]) >> a) & 1)
        return hoyle_error(HOYLE_EINVAL, "fen: chain: square %d should be empty", a + 1);
    if (read_pieces(xf, &cap, &k, "captured")) return HOYLE_EINVAL;
    if (!cap || k || (cap & ~t->bb[c ^ 1]))
        return hoyle_error(HOYLE_EINVAL, "fen: captured: need one or more opponent squares");
    if (!(between & cap))
        return hoyle_error(HOYLE_EINVAL, "fen: chain: the last step %dx%d took nothing", a + 1,
                           b + 1);
    t->captured = cap;
    t->chain = (uint8_t)(b + 1);
    t->chain_prev = (uint8_t)(a + 1);
    bool king = (t->kings >> b) & 1;
    ck_step_t st[32];
    /* without flying kings a man that reaches the king row crowns and its
     * capture ends there, so it cannot be mid-chain on that row */
    bool stop = !king && !cg->flying && (ck_bit(b) & ck_king_row(c));
    if (stop || !ck_capture_steps(cg, t->bb[c], t->bb[c ^ 1], cap, b, king, c,
                                  king && cg->flying ? d : -1, st))
        return hoyle_error(HOYLE_EINVAL, "fen: chain: no capture continues from %d", b + 1);
    return HOYLE_OK;
}

/* H<a-b,...>: undo the moves from the newest to check them. */
/* The history holds the reversible moves (king non-captures) behind the 40-move
 * rule and repetition. Undoing them newest first proves that each one was a
 * legal king move into the position as given; rev[] stores from | to << 5. */
static int check_history(const ck_game_t *cg, ck_state_t *t, const char *hf)
{
    const char *p = hf;
    int n = 0;
    uint16_t rev[CK_QUIET_MAX];
    while (*p) {
        int a, b;
        if (n == CK_QUIET_MAX)
            return hoyle_error(HOYLE_EINVAL, "fen: history: more than %d moves", CK_QUIET_MAX);
        if (read_square(&p, &a, "history") || *p != '-' || (p++, read_square(&p, &b, "history")))
            return hoyle_error(HOYLE_EINVAL, "fen: history: want moves like 30-26, got '%s'", hf);
        rev[n++] = (uint16_t)(a | b << 5);
        if (*p == ',')
            p++;
        else if (*p)
            return hoyle_error(HOYLE_EINVAL, "fen: history: unexpected '%c'", *p);
    }
    if (!cg->draws && n) return hoyle_error(HOYLE_EINVAL, "fen: history: this variant keeps none");
    uint32_t bb[2] = {t->bb[0], t->bb[1]}, kings = t->kings;
    int mover = t->side ^ 1;
    /* the mover alternates backwards from the side that just moved */
    for (int i = n - 1; i >= 0; i--, mover ^= 1) {
        int a = rev[i] & 31, b = rev[i] >> 5;
        uint32_t between;
        bool ok = ck_line(a, b, &between) >= 0 && ((bb[mover] & kings) >> b & 1) &&
                  !(((bb[0] | bb[1]) >> a) & 1) && !(between & (bb[0] | bb[1])) &&
                  (cg->flying || !between);
        if (!ok)
            return hoyle_error(HOYLE_EINVAL,
                               "fen: history: %d-%d is not a king move that leads here", a + 1,
                               b + 1);
        bb[mover] ^= ck_bit(a) | ck_bit(b);
        kings ^= ck_bit(a) | ck_bit(b);
    }
    memcpy(t->rev, rev, sizeof rev[0] * (size_t)n);
    t->quiet = (uint8_t)n;
    return HOYLE_OK;
}

int ck_position_from_string(const game_t *g, const char *text, void *out)
{
    const ck_game_t *cg = ck_game(g);
    char buf[FEN_MAX];
    size_t len = strlen(text);
    /* tolerate surrounding blanks and the trailing '.' of PDN's FEN tag */
    while (len && isspace((unsigned char)text[len - 1])) len--;
    while (len && isspace((unsigned char)*text)) text++, len--;
    if (len && text[len - 1] == '.') len--;
    if (len == 0) return hoyle_error(HOYLE_EINVAL, "fen: empty position");
    if (len >= sizeof buf) return hoyle_error(HOYLE_EINVAL, "fen: position too long");
    for (size_t i = 0; i < len; i++)
        if (isspace((unsigned char)text[i]))
            return hoyle_error(HOYLE_EINVAL, "fen: unexpected blank in '%.40s'", text);
    memcpy(buf, text, len);
    buf[len] = '\0';
    ck_state_t t;
    memset(&t, 0, sizeof t);
    char *field[8];
    int nf = 0;
    for (char *p = buf;; p++) {
        if (nf == 8) return hoyle_error(HOYLE_EINVAL, "fen: too many fields");
        field[nf++] = p;
        p = strchr(p, ':');
        if (!p) break;
        *p = '\0';
    }
    if (strcmp(field[0], "B") == 0 || strcmp(field[0], "b") == 0)
        t.side = 0;
    else if (strcmp(field[0], "W") == 0 || strcmp(field[0], "w") == 0)
        t.side = 1;
    else
        return hoyle_error(HOYLE_EINVAL, "fen: side to move must be B or W, got '%s'", field[0]);
    const char *cf = NULL, *xf = NULL, *hf = NULL;
    bool seen[2] = {false, false};
    /* fields are split on ':': side, W, B, then C, X, H; the spare slots
     * let a stray extra field get its own message */
    int order = 0; /* W/B fields, then C, X, H in that order */
    for (int i = 1; i < nf; i++) {
        char tag = (char)toupper((unsigned char)field[i][0]);
        const char *rest = field[i] + (field[i][0] ? 1 : 0);
        if (tag == 'W' || tag == 'B') {
            int c = tag == 'W';
            uint32_t k;
            if (seen[c] || order)
                return hoyle_error(HOYLE_EINVAL, "fen: field '%c' repeated or misplaced", tag);
            if (read_pieces(rest, &t.bb[c], &k, c ? "white" : "black")) return HOYLE_EINVAL;
            t.kings |= k;
            seen[c] = true;
        } else if (tag == 'C' && order < 1) {
            cf = rest, order = 1;
        } else if (tag == 'X' && order == 1) {
            xf = rest, order = 2;
        } else if (tag == 'H' && order < 3 && order != 1) {
            hf = rest, order = 3;
        } else {
            return hoyle_error(HOYLE_EINVAL, "fen: unexpected field '%s'", field[i]);
        }
    }
    if (!seen[0] || !seen[1]) return hoyle_error(HOYLE_EINVAL, "fen: need both a W and a B field");
    uint32_t allow = 0;
    /* the piece standing on the chain's square may be a man on its king row
     * (see check_board): find that square before the board check */
    const char *cx = cf ? strpbrk(cf, "xX") : NULL;
    if (cx && cg->flying) {
        int sq = atoi(cx + 1);
        if (sq >= 1 && sq <= 32) allow = ck_bit(sq - 1) & t.bb[t.side];
    }
    if (check_board(cg, &t, allow)) return HOYLE_EINVAL;
    if (cf && !xf)
        return hoyle_error(HOYLE_EINVAL, "fen: chain field C needs the captured field X");
    if (cf && hf) return hoyle_error(HOYLE_EINVAL, "fen: no history while a chain is in progress");
    if (cf && check_chain(cg, &t, cf, xf)) return HOYLE_EINVAL;
    if (hf && check_history(cg, &t, hf)) return HOYLE_EINVAL;
    t.hash = ck_hash_compute(cg, &t);
    /* ck_finish sets the result (no moves, draw rules) of a position that is
     * not mid-chain, exactly as after a move */
    if (!t.chain) ck_finish(cg, &t);
    memcpy(out, &t, sizeof t);
    return HOYLE_OK;
}
