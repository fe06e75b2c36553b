/* eval.c — the static evaluation alpha-beta and greedy search use, and the
 * noisy moves for quiescence search (captures and promotions).
 *
 * Terms, in centipawns for White, each a middlegame and an endgame value
 * blended by the phase (Fruit's tapered evaluation: phase 24 = all minor
 * pieces, rooks and queens on the board, 0 = none; N, B 1, R 2, Q 4):
 *   material  standard values P 100, N 320, B 330, R 500, Q 900, or, with
 *             the game parameter values=seed, the seed's "fighting value"
 *             ("if we take the Pawn as a unit ... a Knight is worth 3½
 *             Pawns", Bishop 5¼, Rook 9½, Queen 15);
 *   squares   piece-square tables (Michniewski's "simplified evaluation
 *             function"; an endgame King table that centralises, pawns worth
 *             more as they advance in the endgame);
 *   mobility  squares each piece attacks that hold no man of its own side
 *             and no enemy pawn guards, minus the average count;
 *   pawns     passed pawns by rank, doubled and isolated pawns;
 *   king      (middlegame only) the pawn shield in front of a castled King,
 *             and enemy pieces attacking the squares around it;
 *   bishops   the pair.
 * The value for `player` is tanh(cp / 1000): inside (-1, 1), so a mate
 * (+-1, from the rules) outranks every evaluation. Everything is computed
 * from the position each call (no incremental state).
 * For TDLeaf (train/tdleaf.h) the same terms are a linear model (ch_eval_terms, ch_eval_dot),
 * followed by terms of hand-set weight 0 that only learned weights use: corrections for each
 * piece on each square, and the 30 learned terms (threats, hanging men, rooks, outposts,
 * passed pawns; below). */
#include <math.h>
#include <stdlib.h>

#include "games/chess/chess_internal.h"

/* Tables from White's side, a8 first (as printed), so index sq ^ 56 for
 * White and sq for Black. */
static const int16_t pst_mg[6][64] = {
    {0,  0,   0,  0, 0,  0,  0,  0,   50,  50, 50, 50, 50, 50, 50, 50, 10, 10, 20, 30, 30,  20,
     10, 10,  5,  5, 10, 25, 25, 10,  5,   5,  0,  0,  0,  20, 20, 0,  0,  0,  5,  -5, -10, 0,
     0,  -10, -5, 5, 5,  10, 10, -20, -20, 10, 10, 5,  0,  0,  0,  0,  0,  0,  0,  0},
    {-50, -40, -30, -30, -30, -30, -40, -50, -40, -20, 0,   0,   0,   0,   -20, -40,
     -30, 0,   10,  15,  15,  10,  0,   -30, -30, 5,   15,  20,  20,  15,  5,   -30,
     -30, 0,   15,  20,  20,  15,  0,   -30, -30, 5,   10,  15,  15,  10,  5,   -30,
     -40, -20, 0,   5,   5,   0,   -20, -40, -50, -40, -30, -30, -30, -30, -40, -50},
    {-20, -10, -10, -10, -10, -10, -10, -20, -10, 0,   0,   0,   0,   0,   0,   -10,
     -10, 0,   5,   10,  10,  5,   0,   -10, -10, 5,   5,   10,  10,  5,   5,   -10,
     -10, 0,   10,  10,  10,  10,  0,   -10, -10, 10,  10,  10,  10,  10,  10,  -10,
     -10, 5,   0,   0,   0,   0,   5,   -10, -20, -10, -10, -10, -10, -10, -10, -20},
    {0, 0,  0,  0,  0,  0, 0, 0, 5, 10, 10, 10, 10, 10, 10, 5, -5, 0,  0,  0, 0, 0,
     0, -5, -5, 0,  0,  0, 0, 0, 0, -5, -5, 0,  0,  0,  0,  0, 0,  -5, -5, 0, 0, 0,
     0, 0,  0,  -5, -5, 0, 0, 0, 0, 0,  0,  -5, 0,  0,  0,  5, 5,  0,  0,  0},
    {-20, -10, -10, -5, -5, -10, -10, -20, -10, 0,   0,   0,  0,  0,   0,   -10,
     -10, 0,   5,   5,  5,  5,   0,   -10, -5,  0,   5,   5,  5,  5,   0,   -5,
     0,   0,   5,   5,  5,  5,   0,   -5,  -10, 5,   5,   5,  5,  5,   0,   -10,
     -10, 0,   5,   0,  0,  0,   0,   -10, -20, -10, -10, -5, -5, -10, -10, -20},
    {-30, -40, -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50, -40, -40, -30,
     -30, -40, -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50, -40, -40, -30,
     -20, -30, -30, -40, -40, -30, -30, -20, -10, -20, -20, -20, -20, -20, -20, -10,
     20,  20,  0,   0,   0,   0,   20,  20,  20,  30,  10,  0,   0,   10,  30,  20},
};

static const int16_t king_eg[64] = {-50, -40, -30, -20, -20, -30, -40, -50, -30, -20, -10, 0,   0,
                                    -10, -20, -30, -30, -10, 20,  30,  30,  20,  -10, -30, -30, -10,
                                    30,  40,  40,  30,  -10, -30, -30, -10, 30,  40,  40,  30,  -10,
                                    -30, -30, -10, 20,  30,  30,  20,  -10, -30, -30, -30, 0,   0,
                                    0,   0,   -30, -30, -50, -30, -30, -30, -30, -30, -30, -50};

/* Pawns in the endgame, by rank from the pawn's side (1..8). */
static const int16_t pawn_eg_rank[8] = {0, 0, 5, 15, 30, 50, 80, 0};
static const int16_t passed_mg[8] = {0, 5, 5, 10, 20, 35, 60, 0};
static const int16_t passed_eg[8] = {0, 10, 15, 25, 45, 75, 120, 0};

static const int value_standard[6] = {100, 320, 330, 500, 900, 0};
static const int value_seed[6] = {100, 350, 525, 950, 1500, 0};
static const int phase_weight[6] = {0, 1, 1, 2, 4, 0};
/* mobility per square, mg and eg, and the count a piece is measured from */
static const int mob_mg[6] = {0, 4, 5, 2, 1, 0}, mob_eg[6] = {0, 4, 5, 4, 2, 0};
static const int mob_base[6] = {0, 4, 6, 6, 12, 0};
/* king-zone attack units by attacker (N B R Q) */
static const int attack_unit[6] = {0, 2, 2, 3, 5, 0};

#define FILE_A 0x0101010101010101ull

static inline uint64_t file_mask(int f) { return FILE_A << f; }
static inline uint64_t adjacent_files(int f)
{
    return (f > 0 ? file_mask(f - 1) : 0) | (f < 7 ? file_mask(f + 1) : 0);
}
static inline uint64_t pawn_attacks_all(uint64_t pawns, int color)
{
    uint64_t not_a = ~FILE_A, not_h = ~(FILE_A << 7);
    return color == CH_WHITE ? ((pawns & not_a) << 7) | ((pawns & not_h) << 9)
                             : ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7);
}

typedef struct score {
    int mg, eg;
} score_t;

/* The squares one side's men attack, by attacker (the learned terms' threats, below). */
typedef struct side_att {
    uint64_t pawn, minor, rook, queen, king;
} side_att_t;

/* The evaluation's terms, kept apart so that ch_eval_terms can weigh them (the eval_terms
 * slot, games/game.h); ch_evaluate_cp sums them, as integers, to the same total. */
enum {
    CHG_PAWN,
    CHG_KNIGHT,
    CHG_BISHOP,
    CHG_ROOK,
    CHG_QUEEN,   /* material, by piece */
    CHG_SQUARES, /* the piece-square tables, by piece: + CH_PAWN..CH_KING */
    CHG_MOBILITY = CHG_SQUARES + CH_KING + 1, /* mobility, by piece: + CH_KNIGHT..CH_QUEEN */
    CHG_PASSED = CHG_MOBILITY + CH_QUEEN - CH_KNIGHT + 1,
    CHG_DOUBLED,
    CHG_ISOLATED,
    CHG_KING_ATTACK,
    CHG_SHELTER,
    CHG_PAIR,
    CHG_COUNT
};

/* The square terms' slot of a man of `type` at `idx` (its square seen from its own side, a8
 * first): 32 squares a type, folded left-right; each slot is a middlegame and an endgame term. */
#define FOLD_RANK(r) 4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3, 4 * r + 3, 4 * r + 2, 4 * r + 1, 4 * r
static const uint8_t fold_slot[64] = {FOLD_RANK(0), FOLD_RANK(1), FOLD_RANK(2), FOLD_RANK(3),
                                      FOLD_RANK(4), FOLD_RANK(5), FOLD_RANK(6), FOLD_RANK(7)};
#undef FOLD_RANK
static inline int square_slot(int type, int idx) { return type * 32 + fold_slot[idx]; }

/* With square weights `sqw` (NULL: none), the men's middlegame and endgame weights into sq[2]. */
static inline void add_square(const double *sqw, int type, int idx, double *sq)
{
    if (sqw == NULL) return;
    const double *ws = sqw + 2 * square_slot(type, idx);
    sq[0] += ws[0], sq[1] += ws[1];
}

/* Squares strictly in front of the men of `b` from `color`'s side, on their files. */
static inline uint64_t front_fill(int color, uint64_t b)
{
    if (color == CH_WHITE) {
        b <<= 8;
        b |= b << 8, b |= b << 16, b |= b << 32;
    } else {
        b >>= 8;
        b |= b >> 8, b |= b >> 16, b |= b >> 32;
    }
    return b;
}

/* The squares beside the men of `b` on the files left and right. */
static inline uint64_t beside(uint64_t b)
{
    return ((b << 1) & ~FILE_A) | ((b >> 1) & ~(FILE_A << 7));
}

/* The rank of `sq` seen from `color`'s side (0: its first rank). */
static inline int rel_rank(int color, int sq)
{
    return color == CH_WHITE ? ch_rank(sq) : 7 - ch_rank(sq);
}

/* The passed pawns of `color` among `ours` against the enemy pawns `theirs`: no enemy pawn in
 * front of them on their file or the next ones. */
static inline uint64_t passed_pawns(int color, uint64_t ours, uint64_t theirs)
{
    return ours & ~front_fill(color ^ 1, theirs | beside(theirs));
}

/* The pawn terms of one colour, set-wise: a pawn is passed when no enemy
 * pawn stands in front of it on its file or the next ones (it is behind the
 * enemy pawns and the squares beside them, seen from its own side), doubled when a
 * pawn of its own stands in front of it, isolated when no pawn of its own
 * stands on a neighbouring file. */
static inline __attribute__((always_inline)) void eval_pawns(const ch_pos_t *p, int us,
                                                             const int *value, score_t *s,
                                                             const double *sqw, double *sqsum)
{
    int them = us ^ 1;
    uint64_t ours = ch_pieces(p, us, CH_PAWN), theirs = ch_pieces(p, them, CH_PAWN);
    for (uint64_t b = ours; b; b &= b - 1) {
        int sq = ch_lsb(b), idx = us == CH_WHITE ? sq ^ 56 : sq, rel = rel_rank(us, sq);
        s[CHG_PAWN].mg += value[CH_PAWN];
        s[CHG_PAWN].eg += value[CH_PAWN];
        s[CHG_SQUARES + CH_PAWN].mg += pst_mg[CH_PAWN][idx];
        s[CHG_SQUARES + CH_PAWN].eg += pawn_eg_rank[rel];
        add_square(sqw, CH_PAWN, idx, sqsum);
    }
    for (uint64_t b = passed_pawns(us, ours, theirs); b; b &= b - 1) {
        int rel = rel_rank(us, ch_lsb(b));
        s[CHG_PASSED].mg += passed_mg[rel];
        s[CHG_PASSED].eg += passed_eg[rel];
    }
    int doubled = ch_popcount(ours & front_fill(them, ours));
    s[CHG_DOUBLED].mg -= 10 * doubled, s[CHG_DOUBLED].eg -= 20 * doubled;
    uint64_t files = front_fill(CH_WHITE, ours) | front_fill(CH_BLACK, ours) | ours;
    int isolated = ch_popcount(ours & ~beside(files));
    s[CHG_ISOLATED].mg -= 10 * isolated, s[CHG_ISOLATED].eg -= 15 * isolated;
}

/* Everything for one colour, added to s (White's sign applied by the caller), with square
 * weights `sqw` the men's square weights added to sqsum[2], and with `sa` (not NULL) the squares
 * its men attack into *sa. Inlined, as eval_groups is, so that each caller's copy has only the
 * work it asks for (the hand-set evaluation neither square weights nor attacks). */
static inline __attribute__((always_inline)) void eval_side(const ch_pos_t *p, int us,
                                                            const int *value, score_t *s,
                                                            int *bishops, const double *sqw,
                                                            double *sqsum, side_att_t *sa)
{
    int them = us ^ 1;
    uint64_t occ = ch_occupied(p), own = p->colors[us];
    uint64_t our_pawns = ch_pieces(p, us, CH_PAWN), their_pawns = ch_pieces(p, them, CH_PAWN);
    uint64_t guarded = pawn_attacks_all(their_pawns, them);
    int their_king = ch_king_sq(p, them);
    uint64_t zone = ch_king_att[their_king] | ch_bit(their_king);
    int units = 0, attackers = 0;
    eval_pawns(p, us, value, s, sqw, sqsum);
    if (sa) {
        *sa = (side_att_t){0};
        sa->pawn = pawn_attacks_all(our_pawns, us);
        sa->king = ch_king_att[ch_king_sq(p, us)];
    }
    for (int t = CH_KNIGHT; t <= CH_KING; t++) {
        for (uint64_t b = ch_pieces(p, us, t); b; b &= b - 1) {
            int sq = ch_lsb(b), idx = us == CH_WHITE ? sq ^ 56 : sq;
            s[CHG_SQUARES + t].mg += pst_mg[t][idx];
            add_square(sqw, t, idx, sqsum);
            if (t == CH_KING) {
                s[CHG_SQUARES + t].eg += king_eg[idx];
                continue;
            }
            s[CHG_PAWN + t].mg += value[t];
            s[CHG_PAWN + t].eg += value[t];
            s[CHG_SQUARES + t].eg += pst_mg[t][idx];
            uint64_t att = t == CH_KNIGHT   ? ch_knight_att[sq]
                           : t == CH_BISHOP ? ch_bishop_att(sq, occ)
                           : t == CH_ROOK   ? ch_rook_att(sq, occ)
                                            : ch_queen_att(sq, occ);
            int mob = ch_popcount(att & ~own & ~guarded) - mob_base[t];
            s[CHG_MOBILITY + t - CH_KNIGHT].mg += mob * mob_mg[t];
            s[CHG_MOBILITY + t - CH_KNIGHT].eg += mob * mob_eg[t];
            if (sa) *(t == CH_ROOK ? &sa->rook : t == CH_QUEEN ? &sa->queen : &sa->minor) |= att;
            if (att & zone) {
                attackers++;
                units += attack_unit[t] * ch_popcount(att & zone);
            }
            if (t == CH_BISHOP) (*bishops)++;
        }
    }
    /* pressure on the enemy King: counts once two pieces join in */
    if (attackers >= 2) {
        int pen = units * units / 2;
        s[CHG_KING_ATTACK].mg += pen < 400 ? pen : 400;
    }
    /* our King's shelter: pawns on the three files in front of a King on
     * its first two ranks (castled or not yet moved far) */
    int k = ch_king_sq(p, us), rel = rel_rank(us, k);
    if (rel <= 1) {
        uint64_t files = file_mask(ch_file(k)) | adjacent_files(ch_file(k));
        uint64_t shield1 = files & (us == CH_WHITE ? 0xFFull << (8 * (ch_rank(k) + 1))
                                                   : 0xFFull << (8 * (ch_rank(k) - 1)));
        uint64_t shield2 = files & (us == CH_WHITE ? 0xFFull << (8 * (ch_rank(k) + 2))
                                                   : 0xFFull << (8 * (ch_rank(k) - 2)));
        s[CHG_SHELTER].mg +=
            12 * ch_popcount(our_pawns & shield1) + 6 * ch_popcount(our_pawns & shield2);
        for (int f = ch_file(k) - 1; f <= ch_file(k) + 1; f++)
            if (f >= 0 && f <= 7 && !(file_mask(f) & our_pawns))
                s[CHG_SHELTER].mg -= 15; /* open file */
    }
}

/* White's terms minus Black's into g[CHG_COUNT], and the phase (24 = every piece, 0 = none);
 * with square weights `sqw` (the square terms' weights, or NULL), White's square weights minus
 * Black's into sq[2] (middlegame, endgame); with `sa` (not NULL), each colour's attacks into
 * sa[2]. */
static inline __attribute__((always_inline)) int eval_groups(const ch_game_t *cg, const ch_pos_t *p,
                                                             score_t *g, const double *sqw,
                                                             double *sq, side_att_t *sa)
{
    const int *value = cg && cg->seed_values ? value_seed : value_standard;
    score_t w[CHG_COUNT] = {{0, 0}}, b[CHG_COUNT] = {{0, 0}};
    int wb = 0, bb = 0, phase = 0;
    for (int t = CH_KNIGHT; t <= CH_QUEEN; t++)
        phase += phase_weight[t] * ch_popcount(p->pieces[t]);
    if (phase > 24) phase = 24;
    double wsq[2] = {0, 0}, bsq[2] = {0, 0};
    eval_side(p, CH_WHITE, value, w, &wb, sqw, wsq, sa ? sa + CH_WHITE : NULL);
    eval_side(p, CH_BLACK, value, b, &bb, sqw, bsq, sa ? sa + CH_BLACK : NULL);
    if (sqw) sq[0] = wsq[0] - bsq[0], sq[1] = wsq[1] - bsq[1];
    w[CHG_PAIR] = wb >= 2 ? (score_t){30, 50} : (score_t){0, 0};
    b[CHG_PAIR] = bb >= 2 ? (score_t){30, 50} : (score_t){0, 0};
    for (int i = 0; i < CHG_COUNT; i++) g[i] = (score_t){w[i].mg - b[i].mg, w[i].eg - b[i].eg};
    return phase;
}

int ch_evaluate_cp(const ch_game_t *cg, const ch_pos_t *p)
{
    score_t g[CHG_COUNT];
    int phase = eval_groups(cg, p, g, NULL, NULL, NULL), mg = 0, eg = 0;
    for (int i = 0; i < CHG_COUNT; i++) mg += g[i].mg, eg += g[i].eg;
    return (mg * phase + eg * (24 - phase)) / 24;
}

/* The learned terms the hand-set evaluation lacks (hand-set weight 0, after the square terms
 * below), each White's count minus Black's in units of 100 centipawns, a middlegame and an
 * endgame part tapered like the groups':
 *   tempo          the side to move (+1 White, -1 Black);
 *   threat_*       enemy men attacked by a cheaper man: knights, bishops, rooks and queens by
 *                  pawns, rooks and queens by knights and bishops, queens by rooks;
 *   hanging        enemy men (pawns too, not the King) attacked and not defended;
 *                  each threat and hanging term twice: `mover` counts the threats of the side
 *                  to move (at a quiet leaf, those it chose not to take), `waiter` those of the
 *                  other side (against the men of the side to move, which it must still meet);
 *   rook_open      rooks on a file without pawns; rook_semiopen: without pawns of their own;
 *   rook_seventh   rooks on the seventh rank from their side;
 *   outpost        knights and bishops on the 4th to 6th rank from their side, guarded by a
 *                  pawn of their own, on a square no enemy pawn can ever attack;
 *   passed_free    passed pawns whose next square is empty;
 *   passed_king    for each passed pawn, the enemy King's distance to its next square minus its
 *                  own King's (kings' moves, in units of 25 centipawns). */
enum {
    CHX_TEMPO,
    CHX_THREAT_PAWN, /* mover, then waiter: + 1 */
    CHX_THREAT_MINOR = CHX_THREAT_PAWN + 2,
    CHX_THREAT_ROOK = CHX_THREAT_MINOR + 2,
    CHX_HANGING = CHX_THREAT_ROOK + 2,
    CHX_ROOK_OPEN = CHX_HANGING + 2,
    CHX_ROOK_SEMIOPEN,
    CHX_ROOK_SEVENTH,
    CHX_OUTPOST,
    CHX_PASSED_FREE,
    CHX_PASSED_KING,
    CHX_COUNT
};

static inline int king_distance(int a, int b)
{
    int dr = abs(ch_rank(a) - ch_rank(b)), df = abs(ch_file(a) - ch_file(b));
    return dr > df ? dr : df;
}

/* One colour's learned terms (above), counted for `us`, into x[CHX_COUNT] with `sign`; the
 * threat and hanging counts go to the mover's or the waiter's slot as `us` is to move. */
static void extra_side(const ch_pos_t *p, int us, const side_att_t *sa, int sign, int *x)
{
    int them = us ^ 1, mover = p->side == us ? 0 : 1;
    const side_att_t *a = sa + us, *e = sa + them;
    uint64_t their = p->colors[them], our_pawns = ch_pieces(p, us, CH_PAWN);
    uint64_t their_pawns = ch_pieces(p, them, CH_PAWN);
    uint64_t queens = their & p->pieces[CH_QUEEN],
             rooks_queens = queens | (their & p->pieces[CH_ROOK]);
    uint64_t pieces = rooks_queens | (their & (p->pieces[CH_KNIGHT] | p->pieces[CH_BISHOP]));
    uint64_t all = a->pawn | a->minor | a->rook | a->queen | a->king;
    uint64_t defended = e->pawn | e->minor | e->rook | e->queen | e->king;
    x[CHX_THREAT_PAWN + mover] += sign * ch_popcount(a->pawn & pieces);
    x[CHX_THREAT_MINOR + mover] += sign * ch_popcount(a->minor & rooks_queens);
    x[CHX_THREAT_ROOK + mover] += sign * ch_popcount(a->rook & queens);
    x[CHX_HANGING + mover] += sign * ch_popcount(all & (pieces | their_pawns) & ~defended);
    uint64_t all_pawns = p->pieces[CH_PAWN];
    for (uint64_t b = ch_pieces(p, us, CH_ROOK); b; b &= b - 1) {
        int sq = ch_lsb(b);
        uint64_t file = file_mask(ch_file(sq));
        if (!(file & all_pawns))
            x[CHX_ROOK_OPEN] += sign;
        else if (!(file & our_pawns))
            x[CHX_ROOK_SEMIOPEN] += sign;
        if (rel_rank(us, sq) == 6) x[CHX_ROOK_SEVENTH] += sign;
    }
    /* every square an enemy pawn attacks now or after it advances */
    uint64_t span = pawn_attacks_all(their_pawns | front_fill(them, their_pawns), them);
    uint64_t middle = us == CH_WHITE ? 0x0000FFFFFF000000ull : 0x000000FFFFFF0000ull;
    uint64_t minors = ch_pieces(p, us, CH_KNIGHT) | ch_pieces(p, us, CH_BISHOP);
    x[CHX_OUTPOST] += sign * ch_popcount(minors & middle & a->pawn & ~span);
    uint64_t occ = ch_occupied(p);
    int our_king = ch_king_sq(p, us), their_king = ch_king_sq(p, them);
    for (uint64_t b = passed_pawns(us, our_pawns, their_pawns); b; b &= b - 1) {
        int stop = ch_lsb(b) + (us == CH_WHITE ? 8 : -8);
        if (stop < 0 || stop > 63) continue;
        if (!(occ & ch_bit(stop))) x[CHX_PASSED_FREE] += sign;
        x[CHX_PASSED_KING] +=
            sign * (king_distance(their_king, stop) - king_distance(our_king, stop));
    }
}

/* The learned terms of `p`, White's minus Black's, into x[CHX_COUNT] (counts; passed_king in
 * kings' moves), from the colours' attacks sa[2]. */
static void eval_extra(const ch_pos_t *p, const side_att_t *sa, int *x)
{
    for (int i = 0; i < CHX_COUNT; i++) x[i] = 0;
    x[CHX_TEMPO] = p->side == CH_WHITE ? 1 : -1;
    extra_side(p, CH_WHITE, sa, 1, x);
    extra_side(p, CH_BLACK, sa, -1, x);
}

/* Centipawns per count of each learned term. */
static const int extra_unit[CHX_COUNT] = {100, 100, 100, 100, 100, 100, 100, 100,
                                          100, 100, 100, 100, 100, 100, 25};

/* The square terms after the groups' (KnightCap's learned piece-square tables): for each
 * piece type and square, folded left-right (a file with h, b with g, ...) and seen from the
 * piece's own side (a8 is the eighth rank for White, the first for Black), a middlegame and an
 * endgame term = the men there, White's minus Black's, tapered by the phase, in units of 100
 * centipawns; hand-set weight 0, so they are corrections to the tables of the groups above. */
#define SQ_TERM(pc, f, r) "pst_" pc "_" f r "_mg", "pst_" pc "_" f r "_eg"
#define SQ_RANK(pc, r)                                                                             \
    SQ_TERM(pc, "a", r), SQ_TERM(pc, "b", r), SQ_TERM(pc, "c", r), SQ_TERM(pc, "d", r)
#define SQ_PIECE(pc)                                                                               \
    SQ_RANK(pc, "8"), SQ_RANK(pc, "7"), SQ_RANK(pc, "6"), SQ_RANK(pc, "5"), SQ_RANK(pc, "4"),      \
        SQ_RANK(pc, "3"), SQ_RANK(pc, "2"), SQ_RANK(pc, "1")
enum {
    SQ_TERMS = 6 * 32 * 2,
    GROUP_TERMS = 2 * CHG_COUNT,
    EXTRA_FIRST = GROUP_TERMS + SQ_TERMS, /* the learned terms' (above), after the squares' */
    ALL_TERMS = EXTRA_FIRST + 2 * CHX_COUNT
};
static const char *const sq_names[SQ_TERMS] = {SQ_PIECE("pawn"),   SQ_PIECE("knight"),
                                               SQ_PIECE("bishop"), SQ_PIECE("rook"),
                                               SQ_PIECE("queen"),  SQ_PIECE("king")};

/* The first (middlegame) term of a man of `color` and `type` on `sq`; the endgame's is next. */
static inline int square_term(int color, int type, int sq)
{
    return GROUP_TERMS + 2 * square_slot(type, color == CH_WHITE ? sq ^ 56 : sq);
}

/* The non-zero square terms of `p` for White: at most 32 men x 2 phases into idx[] (term
 * numbers) and val[] (a term may appear twice, once per colour); returns the count. */
static int square_terms(const ch_pos_t *p, int phase, int *idx, double *val)
{
    int m = 0;
    for (int c = CH_WHITE; c <= CH_BLACK; c++) {
        double sign = c == CH_WHITE ? 1 : -1;
        for (int t = CH_PAWN; t <= CH_KING; t++) {
            for (uint64_t b = ch_pieces(p, c, t); b; b &= b - 1) {
                int k = square_term(c, t, ch_lsb(b));
                idx[m] = k, val[m++] = sign * phase / 240.0;
                idx[m] = k + 1, val[m++] = sign * (24 - phase) / 240.0;
            }
        }
    }
    return m;
}

/* The group terms of `s` for `player` into out[GROUP_TERMS] and the learned ones into
 * out[EXTRA_FIRST..]; returns the phase. */
static int group_terms(const game_t *g, const ch_state_t *s, int player, double *out)
{
    score_t grp[CHG_COUNT];
    side_att_t sa[2];
    int phase = eval_groups(ch_game(g), &s->pos, grp, NULL, NULL, sa), x[CHX_COUNT];
    eval_extra(&s->pos, sa, x);
    double sign = player == CH_WHITE ? 1 : -1;
    for (int i = 0; i < CHG_COUNT; i++) {
        out[2 * i] = sign * grp[i].mg * phase / 24000.0;
        out[2 * i + 1] = sign * grp[i].eg * (24 - phase) / 24000.0;
    }
    for (int i = 0; i < CHX_COUNT; i++) {
        out[EXTRA_FIRST + 2 * i] = sign * x[i] * extra_unit[i] * phase / 24000.0;
        out[EXTRA_FIRST + 2 * i + 1] = sign * x[i] * extra_unit[i] * (24 - phase) / 24000.0;
    }
    return phase;
}

/* The eval_terms slot: each group's middlegame and endgame parts as separate terms, tapered
 * by the phase and in units of 1000 centipawns for `player`, weight 1 each: the weighted
 * sum is ch_evaluate's argument before the integer division of the taper; then the square
 * terms above, weight 0 each. */
int ch_eval_terms(const game_t *g, const void *state, int player, double *out, const char **names,
                  double *weights)
{
    static const char *const n[GROUP_TERMS] = {"pawn_mg",
                                               "pawn_eg",
                                               "knight_mg",
                                               "knight_eg",
                                               "bishop_mg",
                                               "bishop_eg",
                                               "rook_mg",
                                               "rook_eg",
                                               "queen_mg",
                                               "queen_eg",
                                               "squares_pawn_mg",
                                               "squares_pawn_eg",
                                               "squares_knight_mg",
                                               "squares_knight_eg",
                                               "squares_bishop_mg",
                                               "squares_bishop_eg",
                                               "squares_rook_mg",
                                               "squares_rook_eg",
                                               "squares_queen_mg",
                                               "squares_queen_eg",
                                               "squares_king_mg",
                                               "squares_king_eg",
                                               "mobility_knight_mg",
                                               "mobility_knight_eg",
                                               "mobility_bishop_mg",
                                               "mobility_bishop_eg",
                                               "mobility_rook_mg",
                                               "mobility_rook_eg",
                                               "mobility_queen_mg",
                                               "mobility_queen_eg",
                                               "passed_mg",
                                               "passed_eg",
                                               "doubled_mg",
                                               "doubled_eg",
                                               "isolated_mg",
                                               "isolated_eg",
                                               "king_attack_mg",
                                               "king_attack_eg",
                                               "shelter_mg",
                                               "shelter_eg",
                                               "bishop_pair_mg",
                                               "bishop_pair_eg"};
    static const char *const x[2 * CHX_COUNT] = {"tempo_mg",
                                                 "tempo_eg",
                                                 "threat_pawn_mover_mg",
                                                 "threat_pawn_mover_eg",
                                                 "threat_pawn_waiter_mg",
                                                 "threat_pawn_waiter_eg",
                                                 "threat_minor_mover_mg",
                                                 "threat_minor_mover_eg",
                                                 "threat_minor_waiter_mg",
                                                 "threat_minor_waiter_eg",
                                                 "threat_rook_mover_mg",
                                                 "threat_rook_mover_eg",
                                                 "threat_rook_waiter_mg",
                                                 "threat_rook_waiter_eg",
                                                 "hanging_mover_mg",
                                                 "hanging_mover_eg",
                                                 "hanging_waiter_mg",
                                                 "hanging_waiter_eg",
                                                 "rook_open_mg",
                                                 "rook_open_eg",
                                                 "rook_semiopen_mg",
                                                 "rook_semiopen_eg",
                                                 "rook_seventh_mg",
                                                 "rook_seventh_eg",
                                                 "outpost_mg",
                                                 "outpost_eg",
                                                 "passed_free_mg",
                                                 "passed_free_eg",
                                                 "passed_king_mg",
                                                 "passed_king_eg"};
    if (state == NULL) {
        for (int i = 0; i < GROUP_TERMS; i++) names[i] = n[i], weights[i] = 1;
        for (int i = 0; i < SQ_TERMS; i++) names[GROUP_TERMS + i] = sq_names[i];
        for (int i = 0; i < 2 * CHX_COUNT; i++) names[EXTRA_FIRST + i] = x[i];
        for (int i = GROUP_TERMS; i < ALL_TERMS; i++) weights[i] = 0;
        return ALL_TERMS;
    }
    const ch_state_t *s = state;
    for (int i = GROUP_TERMS; i < EXTRA_FIRST; i++) out[i] = 0;
    int phase = group_terms(g, s, player, out), idx[64];
    double val[64], sign = player == CH_WHITE ? 1 : -1;
    int m = square_terms(&s->pos, phase, idx, val);
    for (int j = 0; j < m; j++) out[idx[j]] += sign * val[j];
    return ALL_TERMS;
}

/* The eval_dot slot: the same sum from the groups and the men's squares, each phase's part
 * summed in the units of its table before the taper (no term array: the search's path). */
double ch_eval_dot(const game_t *g, const void *state, int player, const double *w, int n)
{
    const ch_state_t *s = state;
    if (n < ALL_TERMS) { /* fewer weights than terms: the dense sum (the slot's contract) */
        double t[ALL_TERMS], x = 0;
        ch_eval_terms(g, state, player, t, NULL, NULL);
        for (int i = 0; i < n; i++) x += w[i] * t[i];
        return x;
    }
    score_t grp[CHG_COUNT];
    side_att_t sa[2];
    double sq[2];
    int phase = eval_groups(ch_game(g), &s->pos, grp, w + GROUP_TERMS, sq, sa), ex[CHX_COUNT];
    eval_extra(&s->pos, sa, ex);
    /* the middlegame and the endgame sum side by side (the weights are in that order) */
    typedef double pair_t __attribute__((vector_size(16)));
    pair_t sum = {0, 0};
    for (int i = 0; i < CHG_COUNT; i++)
        sum += (pair_t){w[2 * i], w[2 * i + 1]} * (pair_t){grp[i].mg, grp[i].eg};
    const double *wx = w + EXTRA_FIRST;
    for (int i = 0; i < CHX_COUNT; i++) {
        double c = ex[i] * extra_unit[i];
        sum += (pair_t){wx[2 * i], wx[2 * i + 1]} * (pair_t){c, c};
    }
    double mg = sum[0], eg = sum[1];
    double x =
        (mg * phase + eg * (24 - phase)) / 24000.0 + (sq[0] * phase + sq[1] * (24 - phase)) / 240.0;
    return player == CH_WHITE ? x : -x;
}

double ch_evaluate(const game_t *g, const void *state, int player)
{
    const ch_state_t *s = state;
    if (s->result != CH_ONGOING) {
        if (s->result == CH_DRAW) return 0;
        return (s->result == CH_WIN_WHITE) == (player == CH_WHITE) ? 1 : -1;
    }
    int cp = ch_evaluate_cp(ch_game(g), &s->pos);
    return tanh((player == CH_WHITE ? cp : -cp) / 1000.0);
}

bool ch_is_noisy(const game_t *g, const void *state, int action)
{
    (void)g;
    const ch_pos_t *p = &((const ch_state_t *)state)->pos;
    ch_move_t m = action >= 0 && action < CH_ACTIONS ? ch_action_decode(p, action) : 0;
    return m != 0 && (ch_is_capture(p, m) || ch_is_promo(m));
}

/* MVV-LVA: victim first (a promotion counts as winning the new piece),
 * then the cheaper attacker. */
int ch_noisy_order(const game_t *g, const void *state, int action)
{
    (void)g;
    const ch_pos_t *p = &((const ch_state_t *)state)->pos;
    ch_move_t m = action >= 0 && action < CH_ACTIONS ? ch_action_decode(p, action) : 0;
    if (m == 0) return 0;
    int victim = ch_kind(m) == CH_MV_EP           ? CH_PAWN
                 : p->board[ch_to(m)] == CH_EMPTY ? -1
                                                  : ch_piece_type(p->board[ch_to(m)]);
    int gain = (victim >= 0 ? value_standard[victim] : 0) +
               (ch_is_promo(m) ? value_standard[ch_promo_type(m)] - 100 : 0);
    return gain * 8 + 7 - ch_piece_type(p->board[ch_from(m)]);
}

bool ch_is_forcing(const game_t *g, const void *state)
{
    (void)g;
    const ch_state_t *s = state;
    return s->result == CH_ONGOING && ch_in_check(&s->pos);
}
