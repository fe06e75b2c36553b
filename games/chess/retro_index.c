/* retro_index.c — chess's retrograde index (games/retro_index.h): material
 * classes of up to 5 men named as engines name them ("KQvKR", "KRPvKR": the
 * stronger side first, pieces in the order Q R B N P). A pawnless position is
 * ranked as
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
 * swapped, which keeps the value for the side to move. When both sides have
 * the same men ("KRvKR") the side to move is always made the first side, so
 * such a class has no side bit (idx = kk * 64^m + ...) and half the indices
 * (tables built before this fold stored both colourings and are refused by
 * their size).
 *
 * A class with pawns has only the left-right mirror: the first side's king
 * on files a-d, kk = (rank * 4 + file) * 64 + the other king's square
 * (KK_PAWN pairs, adjacent ones invalid), then the pieces' squares as above
 * in "class space", where the first side plays up the board like White (a
 * colour swap mirrors the ranks). A pawn can never stand on its first or
 * last rank, so those squares carry the en-passant right: the first side's
 * pawn "on rank 1" stands on rank 4 and has just advanced two squares, and
 * the second side's "on rank 8" stands on rank 5 (valid only when the
 * capture is legal, as the game sets its ep square). No castling rights. */
#include <ctype.h>
#include <pthread.h>
#include <string.h>

#include "core/check.h"
#include "core/error.h"
#include "games/chess/chess_internal.h"
#include "games/retro_index.h"

#define KK_PAIRS   462
#define KK_PAWN    (32 * 64) /* king pairs of a pawn class: files a-d x any square */
#define MAX_PIECES 3         /* besides the kings: up to 5-man classes */
#define N_TYPES    5         /* Q R B N P */

static const char piece_letters[] = "PNBRQK";
static const char class_order[] = "QRBNP";
static const int strength_order[N_TYPES] = {CH_QUEEN, CH_ROOK, CH_BISHOP, CH_KNIGHT, CH_PAWN};

typedef struct cls {
    int m;                 /* pieces besides the kings */
    bool pawns;            /* any pawn: the mirror-only index */
    int color[MAX_PIECES]; /* CH_WHITE: the first side's */
    int type[MAX_PIECES];  /* CH_QUEEN .. CH_PAWN, in class order */
    bool like;             /* both sides the same men: no side bit (file comment) */
    uint64_t size;         /* (KK_PAIRS or KK_PAWN) * 64^m, * 2 unless like */
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
    for (int i = 0; i < N_TYPES; i++)
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
        if (a[i] != b[i]) return strchr(class_order, a[i]) < strchr(class_order, b[i]);
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
    c->pawns = count[0][CH_PAWN] + count[1][CH_PAWN] > 0;
    for (int side = 0; side < 2; side++)
        for (const char *p = s[first ^ side]; *p; p++) {
            c->color[c->m] = side;
            c->type[c->m++] = (int)(strchr(piece_letters, *p) - piece_letters);
        }
    c->like = strcmp(s[0], s[1]) == 0;
    c->size = (uint64_t)(c->pawns ? KK_PAWN : KK_PAIRS) * (c->like ? 1 : 2);
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

/* The kings of index pair `kk` of class `c`; false when they touch. */
static bool kings_of(const cls_t *c, uint64_t kk, int *wk, int *bk)
{
    if (!c->pawns) {
        *wk = kk_sq[kk][0], *bk = kk_sq[kk][1];
        return true;
    }
    int w = (int)(kk / 64);
    *wk = sq_of(w % 4, w / 4), *bk = (int)(kk % 64);
    return *wk != *bk && !(ch_king_att[*wk] & ch_bit(*bk));
}

/* The board square of piece i at class square `code` (a pawn's en-passant
 * code decoded, file comment), or -1 for a pawn on its last rank. Sets *ep
 * to the square passed over and *origin to where the pawn came from. */
static int decode_sq(const cls_t *c, int i, int code, int *ep, int *origin)
{
    if (c->type[i] != CH_PAWN) return code;
    int up = c->color[i] == 0, r = ch_rank(code);
    if (r == (up ? 7 : 0)) return -1;
    if (r != (up ? 0 : 7)) return code;
    *ep = up ? code + 16 : code - 16;
    *origin = up ? code + 8 : code - 8;
    return up ? code + 24 : code - 24;
}

/* The board squares of the pieces of index `rest` (the kings' pair left in
 * *rest), checked: no two on one square, like pieces in order, at most one
 * en-passant pawn (of the side not to move, its path empty). */
static bool decode_pieces(const cls_t *c, uint64_t *rest, int side, int *sq, int *real, int *ep)
{
    for (int i = c->m - 1; i >= 0; i--) sq[i] = (int)(*rest % 64), *rest /= 64;
    int origin = CH_NO_SQ, wk, bk;
    *ep = CH_NO_SQ;
    if (!kings_of(c, *rest, &wk, &bk)) return false;
    uint64_t used = ch_bit(wk) | ch_bit(bk);
    for (int i = 0; i < c->m; i++) {
        int e = CH_NO_SQ;
        real[i] = decode_sq(c, i, sq[i], &e, &origin);
        if (real[i] < 0 || (used & ch_bit(real[i]))) return false;
        if (e != CH_NO_SQ && (*ep != CH_NO_SQ || c->color[i] == side)) return false;
        if (e != CH_NO_SQ) *ep = e;
        used |= ch_bit(real[i]);
        if (i > 0 && c->color[i] == c->color[i - 1] && c->type[i] == c->type[i - 1] &&
            sq[i] < sq[i - 1])
            return false;
    }
    return *ep == CH_NO_SQ || !(used & (ch_bit(*ep) | ch_bit(origin)));
}

static int chess_unindex(const game_t *g, const char *name, uint64_t idx, void *state)
{
    kk_init();
    cls_t c;
    if (cls_parse(name, &c, NULL) < 0 || idx >= c.size) return 0;
    int side = c.like ? 0 : (int)(idx & 1), sq[MAX_PIECES], real[MAX_PIECES], refl[MAX_PIECES];
    int ep, wk, bk;
    uint64_t rest = c.like ? idx : idx >> 1;
    if (!decode_pieces(&c, &rest, side, sq, real, &ep)) return 0;
    kings_of(&c, rest, &wk, &bk);
    if (!c.pawns && on_diagonal(wk) && on_diagonal(bk) && reflected_cmp(&c, sq, refl) < 0) return 0;
    ch_state_t *s = state;
    memset(s, 0, sizeof *s);
    ch_pos_t *p = &s->pos;
    ch_pos_clear(p);
    ch_pos_put(p, CH_WHITE * 6 + CH_KING, wk);
    ch_pos_put(p, CH_BLACK * 6 + CH_KING, bk);
    for (int i = 0; i < c.m; i++) ch_pos_put(p, c.color[i] * 6 + c.type[i], real[i]);
    p->side = (uint8_t)side;
    if (ch_attacked(p, ch_king_sq(p, side ^ 1), side, ch_occupied(p))) return 0;
    if (ep != CH_NO_SQ && !ch_ep_legal(p, ep)) return 0; /* the game keeps only legal ones */
    p->ep = (uint8_t)ep;
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
    for (int i = 0; i < N_TYPES; i++)
        for (uint64_t b = ch_pieces(p, col, strength_order[i]); b; b &= b - 1) {
            if (n == MAX_PIECES) return -1;
            types[n] = strength_order[i], sqs[n++] = ch_lsb(b);
            count[strength_order[i]]++;
        }
    return n;
}

/* The symmetry that brings kings k[0], k[1] (class space) into the index's
 * region: for a pawn class the file mirror only. */
static int canonical_sym(const cls_t *c, const int *k)
{
    if (c->pawns) return ch_file(k[0]) >= 4 ? 1 : 0;
    int t = 0;
    while (!in_triangle(sym_sq(t, k[0]))) t++;
    if (on_diagonal(sym_sq(t, k[0])) && !below_diagonal(sym_sq(t, k[1]))) t |= 4;
    return t;
}

/* Put the en-passant code (file comment) on the pawn that may be taken:
 * `ep` is the target square in class space, `side` the class side to move. */
static void encode_ep(const cls_t *c, int *sq, int ep, int side)
{
    int pawn = side == 1 ? ep + 8 : ep - 8; /* the pawn that just advanced */
    for (int i = 0; i < c->m; i++)
        if (c->type[i] == CH_PAWN && c->color[i] != side && sq[i] == pawn)
            sq[i] = side == 1 ? pawn - 24 : pawn + 24;
}

static uint64_t kk_of(const cls_t *c, int wk, int bk)
{
    if (c->pawns) return (uint64_t)(ch_rank(wk) * 4 + ch_file(wk)) * 64 + (uint64_t)bk;
    return (uint64_t)kk_index[wk][bk];
}

/* A miss: the status, with its message only when `why` (retro_index_t.index
 * sets none: search asks at every node). */
#define MISS(why, code, ...) ((why) ? hoyle_error((code), __VA_ARGS__) : (code))

static int chess_locate(const void *state, char *name, uint64_t *idx, bool why)
{
    kk_init();
    const ch_pos_t *p = &((const ch_state_t *)state)->pos;
    if (p->castling)
        return MISS(why, HOYLE_EUNSUP,
                    "chess tables: positions with castling rights are not "
                    "indexed");
    int types[2][MAX_PIECES], sqs[2][MAX_PIECES], count[2][6];
    int n0 = side_pieces(p, CH_WHITE, types[0], sqs[0], count[0]);
    int n1 = side_pieces(p, CH_BLACK, types[1], sqs[1], count[1]);
    if (n0 < 0 || n1 < 0 || n0 + n1 > MAX_PIECES)
        return MISS(why, HOYLE_EUNSUP, "chess tables: more than %d men", MAX_PIECES + 2);
    char s[2][8];
    side_letters(count[0], s[0]);
    side_letters(count[1], s[1]);
    /* the colour of the class's first side: the side to move when both have the same men */
    bool like = strcmp(s[0], s[1]) == 0;
    int first = like ? p->side : side_before(s[0], s[1]) ? 0 : 1;
    cls_t c = {.m = 0, .pawns = p->pieces[CH_PAWN] != 0};
    int sq[MAX_PIECES], refl[MAX_PIECES];
    int flip = first == CH_BLACK ? 56 : 0; /* mirror the ranks when colours swap */
    int k[2] = {ch_king_sq(p, first) ^ flip, ch_king_sq(p, first ^ 1) ^ flip};
    int t = canonical_sym(&c, k), side = p->side ^ first;
    for (int col = 0; col < 2; col++) {
        int real = first ^ col, n = real ? n1 : n0;
        for (int i = 0; i < n; i++) {
            c.color[c.m] = col, c.type[c.m] = types[real][i];
            sq[c.m++] = sym_sq(t, sqs[real][i] ^ flip);
        }
    }
    if (p->ep != CH_NO_SQ) encode_ep(&c, sq, sym_sq(t, p->ep ^ flip), side);
    sort_like(&c, sq);
    int wk = sym_sq(t, k[0]), bk = sym_sq(t, k[1]);
    if (!c.pawns && on_diagonal(wk) && on_diagonal(bk) && reflected_cmp(&c, sq, refl) < 0)
        memcpy(sq, refl, sizeof sq);
    if (wk == bk || (ch_king_att[wk] & ch_bit(bk)))
        return MISS(why, HOYLE_EINVAL, "chess tables: kings on adjacent squares");
    snprintf(name, RETRO_CLASS_MAX, "K%svK%s", s[first], s[first ^ 1]);
    uint64_t rank = kk_of(&c, wk, bk);
    for (int i = 0; i < c.m; i++) rank = rank * 64 + (uint64_t)sq[i];
    *idx = like ? rank : rank << 1 | (uint64_t)side;
    return 0;
}

static int chess_index(const game_t *g, const void *state, char *name, uint64_t *idx)
{
    (void)g;
    return chess_locate(state, name, idx, false);
}

static int chess_explain(const game_t *g, const void *state)
{
    (void)g;
    char name[RETRO_CLASS_MAX];
    uint64_t idx;
    return chess_locate(state, name, &idx, true);
}

static int chess_to_move(const game_t *g, const void *state)
{
    (void)g;
    return ((const ch_state_t *)state)->pos.side;
}

/* Whether men of these types (besides the kings) are dead material, which
 * ends the game at once when the game's material_draw rule is on. */
static bool dead_material(const game_t *g, const int *types, int n)
{
    int strong = 0;
    for (int i = 0; i < n; i++) strong += types[i] >= CH_ROOK || types[i] == CH_PAWN;
    return ch_game(g)->material_draw && strong == 0 && n - strong <= 1;
}

/* Add the class of the pieces of `c` with piece `drop` taken (-1: none) and
 * piece `promo` turned into `to` (-1: none) to out[0..*n), unless it is dead
 * material (with material_draw, which ends the game) or already there. */
static void add_sub(const game_t *g, const cls_t *c, int drop, int promo, int to,
                    char out[][RETRO_CLASS_MAX], int *n)
{
    char side[2][8] = {"K", "K"};
    int types[MAX_PIECES], k = 0;
    for (int i = 0; i < c->m; i++) {
        if (i == drop) continue;
        int type = types[k++] = i == promo ? to : c->type[i];
        size_t len = strlen(side[c->color[i]]);
        side[c->color[i]][len] = piece_letters[type], side[c->color[i]][len + 1] = '\0';
    }
    if (dead_material(g, types, k)) return;
    char text[RETRO_CLASS_MAX], canon[RETRO_CLASS_MAX];
    snprintf(text, sizeof text, "%sv%s", side[0], side[1]);
    uint64_t size;
    if (chess_class_parse(g, text, canon, &size) < 0) return;
    for (int i = 0; i < *n; i++)
        if (strcmp(out[i], canon) == 0) return;
    if (*n < RETRO_SUBCLASSES) memcpy(out[(*n)++], canon, RETRO_CLASS_MAX);
}

/* One move takes one piece, promotes one pawn (to Q, R, B or N), or both (a
 * pawn taking on its last rank, the piece taken the other side's). */
static int chess_subclasses(const game_t *g, const char *name, char out[][RETRO_CLASS_MAX])
{
    cls_t c;
    if (cls_parse(name, &c, NULL) < 0) return 0;
    int n = 0;
    for (int drop = -1; drop < c.m; drop++)
        for (int promo = -1; promo < c.m; promo++) {
            if (promo >= 0 && c.type[promo] != CH_PAWN) continue;
            if (promo >= 0 && drop >= 0 && c.color[drop] == c.color[promo]) continue;
            if (promo < 0 && drop < 0) continue;
            for (int to = CH_KNIGHT; to <= (promo >= 0 ? CH_QUEEN : CH_KNIGHT); to++)
                add_sub(g, &c, drop, promo, to, out, &n);
        }
    return n;
}

/* Every class of `men` men: the multisets of Q R B N P (letters in class
 * order, from position `from` on) split between the two sides. */
static int classes_of(const game_t *g, int left, int from, int *types, int n,
                      char out[][RETRO_CLASS_MAX], int *count, int max)
{
    if (left == 0) {
        if (dead_material(g, types, n)) return 0;
        for (int mask = 0; mask < 1 << n; mask++) { /* the bits: the first side's men */
            char text[RETRO_CLASS_MAX] = "K", canon[RETRO_CLASS_MAX];
            int len = 1;
            for (int pass = 0; pass < 2; pass++) {
                if (pass) text[len++] = 'v', text[len++] = 'K';
                for (int i = 0; i < n; i++)
                    if ((mask >> i & 1) != pass) text[len++] = piece_letters[types[i]];
            }
            text[len] = '\0';
            int rc = chess_class_parse(g, text, canon, NULL);
            if (rc < 0) return rc;
            bool seen = false;
            for (int i = 0; i < *count && !seen; i++) seen = strcmp(out[i], canon) == 0;
            if (seen) continue;
            if (*count == max) return hoyle_error(HOYLE_EFULL, "chess classes: more than %d", max);
            memcpy(out[(*count)++], canon, RETRO_CLASS_MAX);
        }
        return 0;
    }
    for (int t = from; t < N_TYPES; t++) {
        types[n] = strength_order[t];
        int rc = classes_of(g, left - 1, t, types, n + 1, out, count, max);
        if (rc < 0) return rc;
    }
    return 0;
}

static int chess_classes(const game_t *g, int men, char out[][RETRO_CLASS_MAX], int max)
{
    if (men < 3 || men > MAX_PIECES + 2)
        return hoyle_error(HOYLE_EINVAL, "chess classes: %d men (want 3 to %d)", men,
                           MAX_PIECES + 2);
    int count = 0, types[MAX_PIECES];
    for (int m = 1; m <= men - 2; m++) {
        int rc = classes_of(g, m, 0, types, 0, out, &count, max);
        if (rc < 0) return rc;
    }
    return count;
}

const retro_index_t chess_retro_index = {
    .family = "chess",
    .class_parse = chess_class_parse,
    .unindex = chess_unindex,
    .index = chess_index,
    .explain = chess_explain,
    .to_move = chess_to_move,
    .subclasses = chess_subclasses,
    .classes = chess_classes,
    .unmove_class = ch_unmove_class,
    .unmoves = ch_unmoves,
};
