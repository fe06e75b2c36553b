/* retro_index.c — checkers's retrograde index (games/retro_index.h): classes
 * by the kings (K) and men (M) of each side, the stronger side first (more
 * pieces, then more kings): "KMvK" is a king and a man against a king. A
 * position is ranked as
 *     idx = (((r0 * C1 + r1) * C2 + r2) * C3 + r3) << 1 | side
 * where r0..r3 are the colex ranks of the square sets of the first side's
 * men, its kings, the second side's men and kings among the 32 squares
 * (C1..C3 the counts of such sets) and side 0 when the first side moves.
 * The first side plays as Black (player 0, moving down the board); a
 * position where White is the stronger side is ranked with the board turned
 * half round (square k -> 31 - k) and the colours swapped, which keeps the
 * value for the side to move (the rules are the same for both colours once
 * the game is under way). When both sides have the same pieces ("KMvKM")
 * the side to move is always made the first side, so such a class has no
 * side bit and half the indices (tables built before stored both and are
 * refused by their size). Invariant: index(unindex(i)) == i for every valid
 * i. Only whole-move boundaries are indexed (no chain in progress).
 *
 * Devil among the Tailors is not symmetric under the colour swap (the
 * devil is Black's one king, the tailors White's men, and neither side
 * captures), so its classes keep the colours as they are: "KvMMMM" is the
 * devil against four tailors, the devil always first, no half turn, and a
 * tailor may stand on row 0 (tailors are never crowned). No move changes
 * the material, so these classes have no subclasses. */
#include <ctype.h>
#include <string.h>

#include "core/error.h"
#include "games/checkers/checkers_internal.h"
#include "games/retro_index.h"

#define MAX_PIECES 6

/* counts: [0] first side's men, [1] its kings, [2] second's men, [3] kings */
typedef struct cls {
    int n[4];
    uint64_t c[4]; /* C(32, n[g]) */
    bool like;     /* both sides the same pieces: no side bit (file comment) */
    uint64_t size;
} cls_t;

static void cls_name(const int n[4], char *out)
{
    int k = 0;
    for (int side = 0; side < 2; side++) {
        for (int i = 0; i < n[2 * side + 1]; i++) out[k++] = 'K';
        for (int i = 0; i < n[2 * side]; i++) out[k++] = 'M';
        if (side == 0) out[k++] = 'v';
    }
    out[k] = '\0';
}

/* Whether side (m0, k0) comes before (m1, k1): more pieces, then more kings. */
static bool side_before(int m0, int k0, int m1, int k1)
{
    if (m0 + k0 != m1 + k1) return m0 + k0 > m1 + k1;
    return k0 >= k1;
}

static void cls_fill(cls_t *c)
{
    c->like = c->n[0] == c->n[2] && c->n[1] == c->n[3];
    c->size = c->like ? 1 : 2;
    for (int g = 0; g < 4; g++) c->c[g] = retro_binom(32, c->n[g]), c->size *= c->c[g];
}

/* Devil among the Tailors: the devil (one king) first, 1 to 4 tailors (men). */
static int devil_order(const char *text, int n[4])
{
    if (n[0] == 0 && n[1] == 1 && n[3] == 0 && n[2] >= 1 && n[2] <= 4) return 0;
    if (n[2] == 0 && n[3] == 1 && n[1] == 0 && n[0] >= 1 && n[0] <= 4) {
        n[2] = n[0], n[0] = 0, n[1] = 1, n[3] = 0;
        return 0;
    }
    return hoyle_error(HOYLE_EINVAL,
                       "checkers(variant=devil) class '%s': want the devil (K) against 1 to 4 "
                       "tailors (M), e.g. KvMMMM",
                       text);
}

/* Parse class `text`; `devil`: the Devil variant's classes (devil_order). */
static int cls_parse(const char *text, cls_t *c, bool devil)
{
    int n[4] = {0}, side = 0;
    for (const char *p = text; *p; p++) {
        int ch = toupper((unsigned char)*p);
        if (ch == 'V' && side == 0)
            side = 1;
        else if (ch == 'K')
            n[2 * side + 1]++;
        else if (ch == 'M')
            n[2 * side]++;
        else
            return hoyle_error(HOYLE_EINVAL,
                               "checkers class '%s': want kings K and men M per side, e.g. KMvK",
                               text);
    }
    if (side == 0 || n[0] + n[1] == 0 || n[2] + n[3] == 0)
        return hoyle_error(HOYLE_EINVAL, "checkers class '%s': want two sides, e.g. KMvK", text);
    if (devil) {
        int rc = devil_order(text, n);
        if (rc < 0) return rc;
    } else if (n[0] + n[1] + n[2] + n[3] > MAX_PIECES) {
        return hoyle_error(HOYLE_EUNSUP, "checkers class '%s': at most %d pieces", text,
                           MAX_PIECES);
    } else if (!side_before(n[0], n[1], n[2], n[3])) {
        int t0 = n[0], t1 = n[1];
        n[0] = n[2], n[1] = n[3], n[2] = t0, n[3] = t1;
    }
    memcpy(c->n, n, sizeof n);
    cls_fill(c);
    return 0;
}

static bool is_devil(const game_t *g) { return ck_game(g)->variant == CK_DEVIL; }

static int variant_ok(const game_t *g)
{
    if (ck_game(g)->huff)
        return hoyle_error(HOYLE_EUNSUP, "checkers tables: capture=huff has no index");
    return 0;
}

static int ck_class_parse(const game_t *g, const char *text, char *name, uint64_t *size)
{
    cls_t c;
    int rc = variant_ok(g);
    if (rc == 0) rc = cls_parse(text, &c, is_devil(g));
    if (rc < 0) return rc;
    if (name) cls_name(c.n, name);
    if (size) *size = c.size;
    return 0;
}

static int ck_unindex(const game_t *g, const char *name, uint64_t idx, void *state)
{
    cls_t c;
    bool devil = is_devil(g);
    if (cls_parse(name, &c, devil) < 0 || idx >= c.size) return 0;
    int side = c.like ? 0 : (int)(idx & 1);
    uint64_t rest = c.like ? idx : idx >> 1;
    uint32_t set[4];
    for (int gi = 3; gi >= 0; gi--) {
        set[gi] = (uint32_t)retro_colex_unrank(rest % c.c[gi], c.n[gi], 32);
        rest /= c.c[gi];
    }
    if ((set[0] | set[1]) & (set[2] | set[3]) || set[0] & set[1] || set[2] & set[3]) return 0;
    if ((set[0] & CK_ROW7) || (!devil && (set[2] & CK_ROW0))) return 0; /* men on king rows */
    ck_state_t *s = state;
    memset(s, 0, sizeof *s);
    s->bb[0] = set[0] | set[1];
    s->bb[1] = set[2] | set[3];
    s->kings = set[1] | set[3];
    s->side = (uint8_t)side;
    s->hash = ck_hash_compute(ck_game(g), s);
    ck_finish(ck_game(g), s);
    return 1;
}

static uint32_t rotate(uint32_t set)
{
    uint32_t r = 0;
    for (; set; set &= set - 1) r |= ck_bit(31 - ck_lsb(set));
    return r;
}

/* A miss: the status, with its message only when `why` (retro_index_t.index
 * sets none: search asks at every node). */
#define MISS(why, code, ...) ((why) ? hoyle_error((code), __VA_ARGS__) : (code))

static int devil_locate(const ck_state_t *s, char *name, uint64_t *idx, bool why)
{
    uint32_t devil = s->bb[0], tailors = s->bb[1];
    int n = ck_popcount(tailors);
    if (ck_popcount(devil) != 1 || (devil & ~s->kings) || (tailors & s->kings) || n < 1 || n > 4)
        return MISS(why, HOYLE_EUNSUP,
                    "checkers(variant=devil) tables: want the devil against 1 "
                    "to 4 tailors");
    cls_t c = {.n = {0, 1, n, 0}};
    cls_fill(&c);
    cls_name(c.n, name);
    *idx = (ck_lsb(devil) * c.c[2] + retro_colex_rank(tailors)) << 1 | s->side;
    return 0;
}

static int ck_locate(const game_t *g, const void *state, char *name, uint64_t *idx, bool why)
{
    const ck_state_t *s = state;
    if (ck_game(g)->huff)
        return MISS(why, HOYLE_EUNSUP, "checkers tables: capture=huff has no index");
    if (s->chain) return MISS(why, HOYLE_EUNSUP, "checkers tables: a capture is in progress");
    if (is_devil(g)) return devil_locate(s, name, idx, why);
    int m0 = ck_popcount(s->bb[0] & ~s->kings), k0 = ck_popcount(s->bb[0] & s->kings);
    int m1 = ck_popcount(s->bb[1] & ~s->kings), k1 = ck_popcount(s->bb[1] & s->kings);
    if (m0 + k0 + m1 + k1 > MAX_PIECES || m0 + k0 == 0 || m1 + k1 == 0)
        return MISS(why, HOYLE_EUNSUP, "checkers tables: %d pieces (1 to %d a side, %d in all)",
                    m0 + k0 + m1 + k1, MAX_PIECES - 1, MAX_PIECES);
    bool like = m0 == m1 && k0 == k1; /* then the side to move is made the first side */
    int first = like ? s->side : side_before(m0, k0, m1, k1) ? 0 : 1;
    uint32_t own = s->bb[first], opp = s->bb[first ^ 1];
    uint32_t set[4] = {own & ~s->kings, own & s->kings, opp & ~s->kings, opp & s->kings};
    if (first == 1)
        for (int i = 0; i < 4; i++) set[i] = rotate(set[i]);
    cls_t c;
    for (int i = 0; i < 4; i++) c.n[i] = ck_popcount(set[i]);
    cls_fill(&c);
    uint64_t r = 0;
    for (int i = 0; i < 4; i++) r = r * c.c[i] + retro_colex_rank(set[i]);
    cls_name(c.n, name);
    *idx = c.like ? r : r << 1 | (uint64_t)(s->side ^ first);
    return 0;
}

static int ck_index(const game_t *g, const void *state, char *name, uint64_t *idx)
{
    return ck_locate(g, state, name, idx, false);
}

static int ck_explain(const game_t *g, const void *state)
{
    char name[RETRO_CLASS_MAX];
    uint64_t idx;
    return ck_locate(g, state, name, &idx, true);
}

static int ck_to_move(const game_t *g, const void *state)
{
    (void)g;
    return ((const ck_state_t *)state)->side;
}

/* Add the class of counts n (if both sides have pieces and it is new). */
static void add_class(int n[4], const char *self, char out[][RETRO_CLASS_MAX], int *count)
{
    if (n[0] + n[1] == 0 || n[2] + n[3] == 0) return;
    cls_t c;
    char text[RETRO_CLASS_MAX];
    cls_name(n, text);
    if (cls_parse(text, &c, false) < 0) return;
    cls_name(c.n, text);
    if (strcmp(text, self) == 0) return;
    for (int i = 0; i < *count; i++)
        if (strcmp(out[i], text) == 0) return;
    if (*count < RETRO_SUBCLASSES) memcpy(out[(*count)++], text, RETRO_CLASS_MAX);
}

/* A move takes opponent pieces (any mix, not all: a side left with none
 * has lost) and may crown one of the mover's men. */
static int ck_subclasses(const game_t *g, const char *name, char out[][RETRO_CLASS_MAX])
{
    cls_t c;
    if (is_devil(g) || cls_parse(name, &c, false) < 0) return 0; /* the devil captures nothing */
    int count = 0;
    for (int mover = 0; mover < 2; mover++) {
        int me = 2 * mover, op = 2 * (mover ^ 1);
        for (int crown = 0; crown <= (c.n[me] > 0); crown++)
            for (int om = 0; om <= c.n[op]; om++)
                for (int ok = 0; ok <= c.n[op + 1]; ok++) {
                    int n[4];
                    memcpy(n, c.n, sizeof n);
                    n[me] -= crown, n[me + 1] += crown;
                    n[op] = om, n[op + 1] = ok;
                    add_class(n, name, out, &count);
                }
    }
    return count;
}

const retro_index_t checkers_retro_index = {
    .family = "checkers",
    .class_parse = ck_class_parse,
    .unindex = ck_unindex,
    .index = ck_index,
    .explain = ck_explain,
    .to_move = ck_to_move,
    .subclasses = ck_subclasses,
};
