/* retro_index.c — chess's retrograde index (games/retro_index.h): pawnless
 * material classes named as engines name them ("KQvKR", the stronger side
 * first), each position ranked as
 *     idx = ((kk * 64^m + s1 * 64^(m-1) + ... + sm) << 1) | side
 * where kk (0..461) is the pair of kings brought by one of the board's 8
 * symmetries into the canonical triangle (the first side's king on a1-d1-d4,
 * the other king on or below the a1-h8 diagonal when the first is on it),
 * s1..sm the squares of the other pieces (the first side's Q, R, B, N, then
 * the second side's) and side the colour to move.
 *
 * Invariant: index(unindex(i)) == i for every valid i, so each position has
 * one index: like pieces stand in ascending square order, and with both kings
 * on the diagonal the piece squares are the smaller of the position and its
 * reflection in the diagonal. A position whose material is the class's with
 * colours exchanged is ranked with the board mirrored (ranks) and colours
 * swapped, which keeps the value for the side to move. No castling rights,
 * no pawns (not supported yet: HOYLE_EUNSUP). */
#include <ctype.h>
#include <pthread.h>
#include <string.h>

#include "core/check.h"
#include "core/error.h"
#include "games/chess/chess_internal.h"
#include "games/retro_index.h"

#define KK_PAIRS   462
#define MAX_PIECES 3 /* besides the kings: up to 5-man classes */

static const char piece_letters[] = "PNBRQK";
static const int strength_order[] = {CH_QUEEN, CH_ROOK, CH_BISHOP, CH_KNIGHT};

typedef struct cls {
    int m;                 /* pieces besides the kings */
    int color[MAX_PIECES]; /* CH_WHITE: the first side's */
    int type[MAX_PIECES];  /* CH_QUEEN .. CH_KNIGHT, in class order */
    uint64_t size;         /* KK_PAIRS * 64^m * 2 */
} cls_t;

static int kk_index[64][64]; /* -1: not a canonical pair */
static uint8_t kk_sq[KK_PAIRS][2];
static pthread_once_t kk_once = PTHREAD_ONCE_INIT;

static int sq_of(int file, int rank) { return rank * 8 + file; }

/* Square `sq` under symmetry t: bit 0 mirrors files, bit 1 ranks, bit 2
 * reflects in the a1-h8 diagonal (applied last). */
static int sym_sq(int t, int sq)
{
    int f = ch_file(sq), r = ch_rank(sq);
    if (t & 1) f = 7 - f;
    if (t & 2) r = 7 - r;
    return t & 4 ? sq_of(r, f) : sq_of(f, r);
}

static bool in_triangle(int sq) { return ch_file(sq) <= 3 && ch_rank(sq) <= ch_file(sq); }
static bool on_diagonal(int sq) { return ch_file(sq) == ch_rank(sq); }
static bool below_diagonal(int sq) { return ch_rank(sq) <= ch_file(sq); }

static void kk_build(void)
{
    int n = 0;
    for (int w = 0; w < 64; w++)
        for (int b = 0; b < 64; b++) {
            kk_index[w][b] = -1;
            bool ok = in_triangle(w) && w != b && !(ch_king_att[w] & ch_bit(b)) &&
                      (!on_diagonal(w) || below_diagonal(b));
            if (!ok) continue;
            kk_sq[n][0] = (uint8_t)w, kk_sq[n][1] = (uint8_t)b;
            kk_index[w][b] = n++;
        }
    CHECK_EQ(n, KK_PAIRS); /* the count every pawnless tablebase uses */
}

static void kk_init(void)
{
    ch_attacks_init();
    pthread_once(&kk_once, kk_build);
}

/* The pieces of one side as letters in class order ("QR"), from counts. */
static void side_letters(const int count[6], char *out)
{
    int k = 0;
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < count[strength_order[i]]; c++)
            out[k++] = piece_letters[strength_order[i]];
    out[k] = '\0';
}

/* Whether side letters `a` come before `b` (the stronger side first: more
 * pieces, then the first differing piece the stronger). */
static bool side_before(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la != lb) return la > lb;
    for (size_t i = 0; i < la; i++)
        if (a[i] != b[i]) return strchr("QRBN", a[i]) < strchr("QRBN", b[i]);
    return true;
}

/* Count the letters of one side (after its K) into count[]. */
static int side_parse(const char *text, size_t n, int count[6], const char *whole)
{
    memset(count, 0, 6 * sizeof count[0]);
    if (n == 0 || toupper((unsigned char)text[0]) != 'K')
        return hoyle_error(HOYLE_EINVAL, "chess class '%s': each side starts with K", whole);
    for (size_t i = 1; i < n; i++) {
        const char *p = strchr(piece_letters, toupper((unsigned char)text[i]));
        if (p == NULL || *p == 'K' || text[i] == '\0')
            return hoyle_error(HOYLE_EINVAL, "chess class '%s': bad piece '%c'", whole, text[i]);
        if (*p == 'P')
            return hoyle_error(HOYLE_EUNSUP, "chess class '%s': pawns are not supported yet",
                               whole);
        count[p - piece_letters]++;
    }
    return 0;
}

/* Parse a class name into `c` and its canonical name. */
static int cls_parse(const char *text, cls_t *c, char *name)
{
    const char *v = strpbrk(text, "vV");
    if (v == NULL || strpbrk(v + 1, "vV"))
        return hoyle_error(HOYLE_EINVAL, "chess class '%s': want KxvKy, e.g. KQvKR", text);
    int count[2][6];
    int rc = side_parse(text, (size_t)(v - text), count[0], text);
    if (rc == 0) rc = side_parse(v + 1, strlen(v + 1), count[1], text);
    if (rc < 0) return rc;
    char s[2][8];
    side_letters(count[0], s[0]);
    side_letters(count[1], s[1]);
    int first = side_before(s[0], s[1]) ? 0 : 1;
    int m = (int)(strlen(s[0]) + strlen(s[1]));
    if (m > MAX_PIECES)
        return hoyle_error(HOYLE_EUNSUP, "chess class '%s': at most %d men", text, MAX_PIECES + 2);
    c->m = 0;
    for (int side = 0; side < 2; side++)
        for (const char *p = s[first ^ side]; *p; p++) {
            c->color[c->m] = side;
            c->type[c->m++] = (int)(strchr(piece_letters, *p) - piece_letters);
        }
    c->size = (uint64_t)KK_PAIRS * 2;
    for (int i = 0; i < m; i++) c->size *= 64;
    if (name) snprintf(name, RETRO_CLASS_MAX, "K%svK%s", s[first], s[first ^ 1]);
    return 0;
}

static int chess_class_parse(const game_t *g, const char *text, char *name, uint64_t *size)
{
    (void)g;
    cls_t c;
    char canon[RETRO_CLASS_MAX];
    int rc = cls_parse(text, &c, canon);
    if (rc < 0) return rc;
    if (name) memcpy(name, canon, RETRO_CLASS_MAX);
    if (size) *size = c.size;
    return 0;
}

/* Like pieces (same colour and type) stand in ascending square order. */
static void sort_like(const cls_t *c, int *sq)
{
    for (int i = 1; i < c->m; i++)
        for (int j = i; j > 0 && c->color[j] == c->color[j - 1] && c->type[j] == c->type[j - 1] &&
                        sq[j] < sq[j - 1];
             j--) {
            int t = sq[j];
            sq[j] = sq[j - 1], sq[j - 1] = t;
        }
}

/* With both kings on the diagonal: the squares of the position's reflection
 * in it (like pieces sorted) compared with its own; <0 when smaller. */
static int reflected_cmp(const cls_t *c, const int *sq, int *refl)
{
    for (int i = 0; i < c->m; i++) refl[i] = sym_sq(4, sq[i]);
    sort_like(c, refl);
    for (int i = 0; i < c->m; i++)
        if (refl[i] != sq[i]) return refl[i] < sq[i] ? -1 : 1;
    return 0;
}

static uint64_t rank_of(const cls_t *c, int kk, const int *sq, int side)
{
    uint64_t idx = (uint64_t)kk;
    for (int i = 0; i < c->m; i++) idx = idx * 64 + (uint64_t)sq[i];
    return idx << 1 | (uint64_t)side;
}

static int chess_unindex(const game_t *g, const char *name, uint64_t idx, void *state)
{
    kk_init();
    cls_t c;
    if (cls_parse(name, &c, NULL) < 0 || idx >= c.size) return 0;
    int side = (int)(idx & 1), sq[MAX_PIECES], refl[MAX_PIECES];
    uint64_t rest = idx >> 1;
    for (int i = c.m - 1; i >= 0; i--) sq[i] = (int)(rest % 64), rest /= 64;
    int wk = kk_sq[rest][0], bk = kk_sq[rest][1];
    uint64_t used = ch_bit(wk) | ch_bit(bk);
    for (int i = 0; i < c.m; i++) {
        if (used & ch_bit(sq[i])) return 0;
        used |= ch_bit(sq[i]);
        if (i > 0 && c.color[i] == c.color[i - 1] && c.type[i] == c.type[i - 1] &&
            sq[i] < sq[i - 1])
            return 0;
    }
    if (on_diagonal(wk) && on_diagonal(bk) && reflected_cmp(&c, sq, refl) < 0) return 0;
    ch_state_t *s = state;
    memset(s, 0, sizeof *s);
    ch_pos_t *p = &s->pos;
    ch_pos_clear(p);
    ch_pos_put(p, CH_WHITE * 6 + CH_KING, wk);
    ch_pos_put(p, CH_BLACK * 6 + CH_KING, bk);
    for (int i = 0; i < c.m; i++) ch_pos_put(p, c.color[i] * 6 + c.type[i], sq[i]);
    p->side = (uint8_t)side;
    if (ch_attacked(p, ch_king_sq(p, side ^ 1), side, ch_occupied(p))) return 0;
    p->key = ch_key_compute(p);
    s->fullmove = 1;
    ch_state_finish(ch_game(g), s);
    return 1;
}

/* Collect the non-king pieces of `col` from `p`, in class order. */
static int side_pieces(const ch_pos_t *p, int col, int *types, int *sqs, int count[6])
{
    int n = 0;
    memset(count, 0, 6 * sizeof count[0]);
    for (int i = 0; i < 4; i++)
        for (uint64_t b = ch_pieces(p, col, strength_order[i]); b; b &= b - 1) {
            if (n == MAX_PIECES) return -1;
            types[n] = strength_order[i], sqs[n++] = ch_lsb(b);
            count[strength_order[i]]++;
        }
    return n;
}

static int chess_index(const game_t *g, const void *state, char *name, uint64_t *idx)
{
    (void)g;
    kk_init();
    const ch_pos_t *p = &((const ch_state_t *)state)->pos;
    if (p->pieces[CH_PAWN] || p->castling)
        return hoyle_error(HOYLE_EUNSUP, "chess tables: positions with pawns or castling "
                                         "rights are not indexed");
    int types[2][MAX_PIECES], sqs[2][MAX_PIECES], count[2][6];
    int n0 = side_pieces(p, CH_WHITE, types[0], sqs[0], count[0]);
    int n1 = side_pieces(p, CH_BLACK, types[1], sqs[1], count[1]);
    if (n0 < 0 || n1 < 0 || n0 + n1 > MAX_PIECES)
        return hoyle_error(HOYLE_EUNSUP, "chess tables: more than %d men", MAX_PIECES + 2);
    char s[2][8];
    side_letters(count[0], s[0]);
    side_letters(count[1], s[1]);
    int first = side_before(s[0], s[1]) ? 0 : 1; /* the colour of the class's first side */
    cls_t c;
    c.m = 0;
    int sq[MAX_PIECES], refl[MAX_PIECES];
    int flip = first == CH_BLACK ? 56 : 0; /* mirror the ranks when colours swap */
    for (int side = 0; side < 2; side++) {
        int col = first ^ side, n = col ? n1 : n0;
        for (int i = 0; i < n; i++) {
            c.color[c.m] = side, c.type[c.m] = types[col][i];
            sq[c.m++] = sqs[col][i] ^ flip;
        }
    }
    int k[2] = {ch_king_sq(p, first) ^ flip, ch_king_sq(p, first ^ 1) ^ flip};
    int t = 0;
    while (!in_triangle(sym_sq(t, k[0]))) t++;
    if (on_diagonal(sym_sq(t, k[0])) && !below_diagonal(sym_sq(t, k[1]))) t |= 4;
    for (int i = 0; i < c.m; i++) sq[i] = sym_sq(t, sq[i]);
    sort_like(&c, sq);
    int wk = sym_sq(t, k[0]), bk = sym_sq(t, k[1]);
    if (on_diagonal(wk) && on_diagonal(bk) && reflected_cmp(&c, sq, refl) < 0)
        memcpy(sq, refl, sizeof sq);
    if (kk_index[wk][bk] < 0)
        return hoyle_error(HOYLE_EINVAL, "chess tables: kings on adjacent squares");
    snprintf(name, RETRO_CLASS_MAX, "K%svK%s", s[first], s[first ^ 1]);
    *idx = rank_of(&c, kk_index[wk][bk], sq, p->side ^ first);
    return 0;
}

static int chess_to_move(const game_t *g, const void *state)
{
    (void)g;
    return ((const ch_state_t *)state)->pos.side;
}

/* One capture removes one piece; a class left with one minor piece or none
 * ends the game by dead material (unless insufficient=play). */
static int chess_subclasses(const game_t *g, const char *name, char out[][RETRO_CLASS_MAX])
{
    cls_t c;
    if (cls_parse(name, &c, NULL) < 0) return 0;
    int n = 0;
    for (int drop = 0; drop < c.m; drop++) {
        char side[2][8] = {"K", "K"};
        int majors = 0, minors = 0;
        for (int i = 0; i < c.m; i++) {
            if (i == drop) continue;
            size_t len = strlen(side[c.color[i]]);
            side[c.color[i]][len] = piece_letters[c.type[i]], side[c.color[i]][len + 1] = '\0';
            if (c.type[i] >= CH_ROOK)
                majors++;
            else
                minors++;
        }
        if (ch_game(g)->material_draw && majors == 0 && minors <= 1) continue;
        char text[RETRO_CLASS_MAX], canon[RETRO_CLASS_MAX];
        snprintf(text, sizeof text, "%sv%s", side[0], side[1]);
        uint64_t size;
        if (chess_class_parse(g, text, canon, &size) < 0) continue;
        bool seen = false;
        for (int i = 0; i < n; i++) seen |= strcmp(out[i], canon) == 0;
        if (!seen && n < RETRO_SUBCLASSES) memcpy(out[n++], canon, RETRO_CLASS_MAX);
    }
    return n;
}

const retro_index_t chess_retro_index = {
    .family = "chess",
    .class_parse = chess_class_parse,
    .unindex = chess_unindex,
    .index = chess_index,
    .to_move = chess_to_move,
    .subclasses = chess_subclasses,
};
