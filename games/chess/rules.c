/* rules.c — the action encoding and how a game ends.
 *
 * Actions are AlphaZero's 8x8x73 policy (Silver et al., "A general
 * reinforcement learning algorithm that masters chess, shogi and Go through
 * self-play", Science 2018, supplementary table S2), seen from the mover's
 * side (ranks flipped for Black, files kept):
 *   action = from * 73 + plane, from = the from-square in that view,
 *   planes  0..55: queen-like moves, direction d * 7 + (distance - 1),
 *                  d = N NE E SE S SW W NW (0..7); queen promotions,
 *                  castling (the king's two-square step) included;
 *   planes 56..63: knight moves, (+1,+2) (+2,+1) (+2,-1) (+1,-2) (-1,-2)
 *                  (-2,-1) (-2,+1) (-1,+2) as (rank, file) steps;
 *   planes 64..72: underpromotions, 64 + (file step + 1) * 3 + (N 0, B 1, R 2).
 * Ends: checkmate and stalemate; then, automatically, the fifty-move rule
 * (100 plies without capture or pawn move, unless that last move mated),
 * threefold repetition (ch_pos_t keys compare positions as FIDE does) and,
 * unless the game was made with insufficient=play, dead material. */
#include <string.h>

#include "games/chess/chess_internal.h"

static const int knight_step[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                      {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
static const int queen_dir[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                    {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

static inline int view(int sq, int side) { return side == CH_WHITE ? sq : sq ^ 56; }

/* The plane of a queen-like or knight move from -> to in the mover's view
 * (other pairs hold a value no legal move asks for); built once by
 * ch_attacks_init. */
static int8_t move_plane[64][64];

static int plane_of(int fv, int tv)
{
    int dr = ch_rank(tv) - ch_rank(fv), df = ch_file(tv) - ch_file(fv), plane;
    if (dr && df && dr != df && dr != -df) {
        plane = 56;
        for (int i = 0; i < 8; i++)
            if (knight_step[i][0] == dr && knight_step[i][1] == df) plane = 56 + i;
    } else {
        int sr = (dr > 0) - (dr < 0), sf = (df > 0) - (df < 0), d = 0;
        for (int i = 0; i < 8; i++)
            if (queen_dir[i][0] == sr && queen_dir[i][1] == sf) d = i;
        int dist = dr ? (dr > 0 ? dr : -dr) : (df > 0 ? df : -df);
        plane = d * 7 + dist - 1;
    }
    return plane;
}

/* Each action's move in the mover's view, for the unchecked decoder: the
 * from- and to-square (bits 0-5, 6-11), whether it steps two ranks forward
 * (bit 12: a pawn's double step) or two files (bit 13: a king's castling),
 * and the underpromotion (bits 14-15: 0 none, 1 N, 2 B, 3 R); ACT_NONE when
 * it leaves the board. Built once by ch_attacks_init. */
#define ACT_NONE 0xFFFF
static uint16_t act_info[CH_ACTIONS];

/* The action of the move from -> to (queen-like, knight, castling, queen
 * promotion) by `side`, in real squares: act_of[side][from][to], the table
 * form of ch_move_to_action for all but underpromotions. Built once. */
static uint16_t act_of[2][64][64];

void ch_rules_build(void);
void ch_rules_build(void)
{
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) move_plane[a][b] = (int8_t)(a == b ? -1 : plane_of(a, b));
    for (int side = 0; side < 2; side++)
        for (int a = 0; a < 64; a++)
            for (int b = 0; b < 64; b++) {
                int fv = view(a, side), tv = view(b, side);
                act_of[side][a][b] = (uint16_t)(a == b ? 0 : fv * 73 + move_plane[fv][tv]);
            }
    for (int action = 0; action < CH_ACTIONS; action++) {
        int fv = action / 73, plane = action % 73, dr, df, under = 0;
        if (plane < 56) {
            int d = plane / 7, dist = plane % 7 + 1;
            dr = queen_dir[d][0] * dist, df = queen_dir[d][1] * dist;
        } else if (plane < 64) {
            dr = knight_step[plane - 56][0], df = knight_step[plane - 56][1];
        } else {
            dr = 1, df = (plane - 64) / 3 - 1, under = 1 + (plane - 64) % 3;
        }
        int r = ch_rank(fv) + dr, f = ch_file(fv) + df;
        act_info[action] = ACT_NONE;
        if (r < 0 || r > 7 || f < 0 || f > 7) continue;
        act_info[action] = (uint16_t)(fv | (r * 8 + f) << 6 | (dr == 2) << 12 |
                                      (df == 2 || df == -2) << 13 | under << 14);
    }
}

static inline int move_action(int side, ch_move_t m)
{
    if (__builtin_expect(ch_kind(m) >= CH_MV_PROMO && ch_kind(m) < CH_MV_PROMO + 3, 0)) {
        int fv = view(ch_from(m), side), tv = view(ch_to(m), side);
        return fv * 73 + 64 + (ch_file(tv) - ch_file(fv) + 1) * 3 + (ch_promo_type(m) - CH_KNIGHT);
    }
    return act_of[side][ch_from(m)][ch_to(m)];
}

int ch_move_to_action(const ch_pos_t *p, ch_move_t m) { return move_action(p->side, m); }

/* The actions of a move list as a set bucketed by from-square (in the
 * mover's view): `from` holds a bit per square with a move, lo/hi[fv] the
 * move types 0..63 / 64..72 of that square's moves. Only the buckets whose
 * bit is set are written, so nothing is cleared first; ascending order is
 * the from-squares ascending, then the bits of each bucket. */
typedef struct {
    uint64_t from;
    uint64_t lo[64], hi[64];
} action_set_t;

static void action_set_fill(action_set_t *set, int side, const ch_move_t *m, int n)
{
    int flip = side == CH_WHITE ? 0 : 56;
    uint64_t from = 0;
    for (int i = 0; i < n; i++) {
        int fv = ch_from(m[i]) ^ flip;
        set->lo[fv] = set->hi[fv] = 0;
    }
    for (int i = 0; i < n; i++) {
        int fv = ch_from(m[i]) ^ flip, plane = move_action(side, m[i]) - fv * 73;
        uint64_t bit = 1ull << (plane & 63);
        if (plane < 64)
            set->lo[fv] |= bit;
        else
            set->hi[fv] |= bit;
        from |= 1ull << fv;
    }
    set->from = from;
}

/* Ascending: insertion sort for a few moves (quiescence, check), else the
 * bucketed set, cheaper than a comparison sort at a few dozen moves. */
void ch_moves_to_actions(const ch_pos_t *p, const ch_move_t *m, int n, int *out)
{
    int side = p->side;
    if (n <= 8) {
        for (int i = 0; i < n; i++) {
            int a = move_action(side, m[i]), j = i;
            while (j > 0 && out[j - 1] > a) out[j] = out[j - 1], j--;
            out[j] = a;
        }
        return;
    }
    action_set_t set;
    action_set_fill(&set, side, m, n);
    int k = 0;
    for (uint64_t u = set.from; u; u &= u - 1) {
        int fv = ch_lsb(u), base = fv * 73;
        for (uint64_t b = set.lo[fv]; b; b &= b - 1) out[k++] = base + ch_lsb(b);
        for (uint64_t b = set.hi[fv]; b; b &= b - 1) out[k++] = base + 64 + ch_lsb(b);
    }
}

/* The bit of rank k (0 = the lowest) in b, which has more than k bits. */
static inline int nth_bit(uint64_t b, int k)
{
    for (; k > 0; k--) b &= b - 1;
    return ch_lsb(b);
}

/* Walks the mover's men in the mover's view (ascending from-squares, as the actions sort),
 * each square's moves counted from its destination set (a pawn reaching the last rank: four),
 * to the square holding the k-th; then the move types of that square's moves as two bit sets
 * (types 0..63 from act_of, the underpromotions 64..72), and the k-th of those. */
int ch_targets_action_at(const ch_pos_t *p, const uint64_t tgt[64], int k)
{
    int side = p->side, flip = side == CH_WHITE ? 0 : 56;
    uint64_t last = side == CH_WHITE ? 0xFF00000000000000ull : 0xFFull;
    uint64_t men = p->colors[side], pawns = p->pieces[CH_PAWN] & men;
    if (side == CH_BLACK) men = __builtin_bswap64(men), pawns = __builtin_bswap64(pawns);
    int fv, sq;
    uint64_t t, promo;
    for (;; men &= men - 1) {
        fv = ch_lsb(men), sq = fv ^ flip, t = tgt[sq];
        promo = (pawns >> fv) & 1 ? t & last : 0;
        int count = ch_popcount(t) + 3 * ch_popcount(promo);
        if (k < count) break;
        k -= count;
    }
    uint64_t lo = 0, hi = 0;
    for (; t; t &= t - 1) lo |= 1ull << (act_of[side][sq][ch_lsb(t)] - fv * 73);
    for (; promo; promo &= promo - 1) /* 64 + (file step + 1) * 3 + (N 0, B 1, R 2) */
        hi |= 7ull << ((ch_file(ch_lsb(promo)) - ch_file(sq) + 1) * 3);
    int below = ch_popcount(lo);
    return fv * 73 + (k < below ? nth_bit(lo, k) : 64 + nth_bit(hi, k - below));
}

/* The table form of the decoding in the comment at the top: the same move
 * for every action, legal or not (the kind follows the man on the square). */
ch_move_t ch_action_decode(const ch_pos_t *p, int action)
{
    unsigned info = act_info[action];
    if (info == ACT_NONE) return 0;
    int flip = p->side == CH_WHITE ? 0 : 56;
    int from = (int)(info & 63) ^ flip, to = (int)((info >> 6) & 63) ^ flip;
    int piece = p->board[from];
    if (piece == CH_EMPTY) return 0;
    int type = ch_piece_type(piece), kind = CH_MV_NORMAL, under = (int)(info >> 14);
    if (type == CH_PAWN) {
        if (under)
            kind = CH_MV_PROMO + under - 1;
        else if (ch_rank(to) == 0 || ch_rank(to) == 7)
            kind = CH_MV_PROMO + CH_QUEEN - CH_KNIGHT;
        else if (to == p->ep)
            kind = CH_MV_EP;
        else if (info & (1u << 12))
            kind = CH_MV_DOUBLE;
    } else if (under) {
        return 0;
    } else if (type == CH_KING && (info & (1u << 13))) {
        kind = CH_MV_CASTLE;
    }
    return ch_move(from, to, kind);
}

ch_move_t ch_action_to_move(const ch_pos_t *p, int action)
{
    if (action < 0 || action >= CH_ACTIONS) return 0;
    ch_move_t m = ch_action_decode(p, action), moves[CH_MAX_MOVES];
    if (m == 0) return 0;
    int n = ch_gen_legal(p, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m) return m;
    return 0;
}

bool ch_insufficient(const ch_pos_t *p)
{
    if (p->pieces[CH_PAWN] | p->pieces[CH_ROOK] | p->pieces[CH_QUEEN]) return false;
    uint64_t minors = p->pieces[CH_KNIGHT] | p->pieces[CH_BISHOP];
    if (ch_popcount(minors) <= 1) return true;
    /* only bishops, all on squares of one colour: no mate can ever arise */
    const uint64_t dark = 0xAA55AA55AA55AA55ull;
    uint64_t b = p->pieces[CH_BISHOP];
    return p->pieces[CH_KNIGHT] == 0 && ((b & dark) == 0 || (b & ~dark) == 0);
}

int ch_repetitions(const ch_state_t *s)
{
    int count = 0;
    for (int i = (int)s->nhist - 2; i >= 0; i -= 2)
        if (s->hist[i] == s->pos.key) count++;
    return count;
}

void ch_state_finish(const ch_game_t *cg, ch_state_t *s)
{
    const ch_pos_t *p = &s->pos;
    s->result = CH_ONGOING;
    s->reason = CH_END_NONE;
    if (!ch_has_legal(p)) {
        if (ch_in_check(p)) {
            s->result = p->side == CH_WHITE ? CH_WIN_BLACK : CH_WIN_WHITE;
            s->reason = CH_END_MATE;
        } else {
            s->result = CH_DRAW;
            s->reason = CH_END_STALEMATE;
        }
        return;
    }
    int reason = CH_END_NONE;
    if (p->halfmove >= CH_FIFTY)
        reason = CH_END_FIFTY;
    else if (s->nhist >= 4 && ch_repetitions(s) >= 2)
        reason = CH_END_REPETITION;
    else if (cg->material_draw && ch_insufficient(p))
        reason = CH_END_MATERIAL;
    if (reason != CH_END_NONE) {
        s->result = CH_DRAW;
        s->reason = (uint8_t)reason;
    }
}
