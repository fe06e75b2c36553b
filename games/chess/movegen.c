/* movegen.c — fully legal move generation (no make-and-test).
 *
 * One pass computes the checkers and the pinned pieces; then every move is
 * generated only if legal: with a single check, non-king moves must land on
 * the check line (block or capture); with a double check only the king
 * moves; a pinned piece stays on the line through its king; the king steps
 * only to squares the opponent does not attack with the king itself lifted
 * off the board (so it cannot hide behind itself on a slider's line).
 * En passant, which lifts two pieces off one rank, is tested by its own
 * attack check (the horizontal-pin case). Castling: not out of, through or
 * into check; the squares between king and rook empty. The generator has a
 * counting mode (perft's bulk counting) and a noisy mode (only captures and
 * promotions, quiescence's moves) sharing the same code. */
#include "games/chess/chess_internal.h"

#define RANK1 0x00000000000000FFull
#define RANK3 0x0000000000FF0000ull
#define RANK6 0x0000FF0000000000ull
#define RANK8 0xFF00000000000000ull
#define FILEA 0x0101010101010101ull
#define FILEH 0x8080808080808080ull

static inline uint64_t shift_up(uint64_t b, int us) { return us == CH_WHITE ? b << 8 : b >> 8; }

/* What the steps of generate() share: the position, where moves go (`out`: a list; `tgt`: each
 * from-square's destinations, tgt[from] |= to; both NULL: counting only), the side and, once
 * step 2 has run, the check line, the pins and the pieces that may move. */
typedef struct gen {
    const ch_pos_t *p;
    ch_move_t *out;
    uint64_t *tgt;
    bool noisy;
    int us, them, ksq;
    uint64_t own, enemy, occ;
    uint64_t checkers; /* enemy men giving check */
    uint64_t mask;     /* where a non-king move must land: the check line, else not own men */
    uint64_t pmask;    /* mask, with `noisy` only onto enemy men */
    uint64_t pinned;   /* own men pinned to their king */
    uint64_t movable;  /* own men that may move (in check, a pinned one never can) */
} gen_t;

/* Writes (or counts) the moves from..to set bits `t`. */
static inline int emit(const gen_t *c, int n, int from, uint64_t t)
{
    if (c->tgt) c->tgt[from] |= t;
    if (!c->out) return n + ch_popcount(t);
    for (; t; t &= t - 1) c->out[n++] = ch_move(from, ch_lsb(t), CH_MV_NORMAL);
    return n;
}

/* Pawn moves given as destination sets with a fixed from-offset `delta`
 * (from = to - delta); promotions become four moves. */
static inline int emit_pawn(const gen_t *c, int n, uint64_t t, int delta, int kind, bool promo)
{
    ch_move_t *out = c->out;
    if (c->tgt)
        for (uint64_t b = t; b; b &= b - 1) c->tgt[ch_lsb(b) - delta] |= b & -b;
    if (!out) return n + ch_popcount(t) * (promo ? 4 : 1);
    for (; t; t &= t - 1) {
        int to = ch_lsb(t), from = to - delta;
        if (promo)
            for (int k = CH_MV_PROMO + 3; k >= CH_MV_PROMO; k--) out[n++] = ch_move(from, to, k);
        else
            out[n++] = ch_move(from, to, kind);
    }
    return n;
}

/* Whether the en-passant capture from `from` leaves the king safe. */
static bool ep_safe(const ch_pos_t *p, int from, int to)
{
    int us = p->side, them = us ^ 1, ksq = ch_king_sq(p, us);
    int victim = us == CH_WHITE ? to - 8 : to + 8;
    uint64_t occ = (ch_occupied(p) ^ ch_bit(from) ^ ch_bit(victim)) | ch_bit(to);
    uint64_t rq = (p->pieces[CH_ROOK] | p->pieces[CH_QUEEN]) & p->colors[them];
    uint64_t bq = (p->pieces[CH_BISHOP] | p->pieces[CH_QUEEN]) & p->colors[them];
    if ((ch_rook_att(ksq, occ) & rq) || (ch_bishop_att(ksq, occ) & bq)) return false;
    uint64_t leapers =
        (ch_knight_att[ksq] & p->pieces[CH_KNIGHT]) | (ch_pawn_att[us][ksq] & p->pieces[CH_PAWN]);
    return (leapers & p->colors[them] & ~ch_bit(victim)) == 0;
}

/* The squares `by`'s pawns, knights and king attack. */
static inline uint64_t leaper_attacks(const ch_pos_t *p, int by)
{
    uint64_t pawns = p->pieces[CH_PAWN] & p->colors[by], up = shift_up(pawns, by);
    uint64_t a = ((up & ~FILEA) >> 1) | ((up & ~FILEH) << 1);
    for (uint64_t b = p->pieces[CH_KNIGHT] & p->colors[by]; b; b &= b - 1)
        a |= ch_knight_att[ch_lsb(b)];
    return a | ch_king_att[ch_king_sq(p, by)];
}

/* One move written (or counted). */
static inline int put(const gen_t *c, int n, int from, int to, int kind)
{
    if (c->tgt) c->tgt[from] |= ch_bit(to);
    if (c->out) c->out[n] = ch_move(from, to, kind);
    return n + 1;
}

/* 1. King steps: the leapers' attacks once, then the sliders per square, with the king
 * lifted off the board. With `any` the first one is enough. */
static inline __attribute__((always_inline)) int gen_king(const gen_t *c, int n, bool any)
{
    const ch_pos_t *p = c->p;
    uint64_t kocc = c->occ ^ ch_bit(c->ksq);
    uint64_t steps =
        ch_king_att[c->ksq] & (c->noisy ? c->enemy : ~c->own) & ~leaper_attacks(p, c->them);
    uint64_t erq = (p->pieces[CH_ROOK] | p->pieces[CH_QUEEN]) & c->enemy;
    uint64_t ebq = (p->pieces[CH_BISHOP] | p->pieces[CH_QUEEN]) & c->enemy;
    for (uint64_t t = steps; t; t &= t - 1) {
        int to = ch_lsb(t);
        if ((erq && (ch_rook_att(to, kocc) & erq)) || (ebq && (ch_bishop_att(to, kocc) & ebq)))
            continue;
        n = put(c, n, c->ksq, to, CH_MV_NORMAL);
        if (any) return n;
    }
    return n;
}

/* 2. The check line and the pins. */
static inline __attribute__((always_inline)) void gen_pins(gen_t *c)
{
    const ch_pos_t *p = c->p;
    c->mask = ~c->own;
    if (c->checkers) c->mask = ch_between[c->ksq][ch_lsb(c->checkers)] | c->checkers;
    c->pmask = c->noisy ? c->mask & c->enemy : c->mask;
    uint64_t rq = (p->pieces[CH_ROOK] | p->pieces[CH_QUEEN]) & c->enemy;
    uint64_t bq = (p->pieces[CH_BISHOP] | p->pieces[CH_QUEEN]) & c->enemy;
    uint64_t snipers =
        (ch_rook_att(c->ksq, c->enemy) & rq) | (ch_bishop_att(c->ksq, c->enemy) & bq);
    c->pinned = 0;
    for (; snipers; snipers &= snipers - 1) {
        uint64_t b = ch_between[c->ksq][ch_lsb(snipers)] & c->occ;
        if (b && !(b & (b - 1))) c->pinned |= b & c->own;
    }
    /* in check a pinned piece has no legal move (its line meets the check
     * line only at the king) */
    c->movable = c->checkers ? c->own & ~c->pinned : c->own;
}

/* 3. Knights (a pinned knight never moves), 4. sliders (a pinned one along its line). */
static inline __attribute__((always_inline)) int gen_pieces(const gen_t *c, int n, bool any)
{
    const ch_pos_t *p = c->p;
    for (uint64_t b = p->pieces[CH_KNIGHT] & c->movable & ~c->pinned; b; b &= b - 1) {
        int from = ch_lsb(b);
        n = emit(c, n, from, ch_knight_att[from] & c->pmask);
    }
    if (any && n) return n;
    for (uint64_t b = (p->pieces[CH_BISHOP] | p->pieces[CH_QUEEN]) & c->movable; b; b &= b - 1) {
        int from = ch_lsb(b);
        uint64_t t = ch_bishop_att(from, c->occ) & c->pmask;
        if (c->pinned & ch_bit(from)) t &= ch_line[c->ksq][from];
        n = emit(c, n, from, t);
    }
    for (uint64_t b = (p->pieces[CH_ROOK] | p->pieces[CH_QUEEN]) & c->movable; b; b &= b - 1) {
        int from = ch_lsb(b);
        uint64_t t = ch_rook_att(from, c->occ) & c->pmask;
        if (c->pinned & ch_bit(from)) t &= ch_line[c->ksq][from];
        n = emit(c, n, from, t);
    }
    return n;
}

/* 5a. Free pawns, set-wise: pushes, double pushes, captures, promotions. */
static inline __attribute__((always_inline)) int gen_free_pawns(const gen_t *c, int n)
{
    int us = c->us, up = us == CH_WHITE ? 8 : -8;
    uint64_t empty = ~c->occ, mask = c->mask;
    uint64_t last = us == CH_WHITE ? RANK8 : RANK1, third = us == CH_WHITE ? RANK3 : RANK6;
    uint64_t free_pawns = c->p->pieces[CH_PAWN] & c->movable & ~c->pinned;
    uint64_t one = shift_up(free_pawns, us) & empty;
    uint64_t two = shift_up(one & third, us) & empty & mask;
    one &= mask;
    uint64_t capl = shift_up(free_pawns & ~FILEA, us), capr = shift_up(free_pawns & ~FILEH, us);
    /* one rank up, then one file left / right: white +7 / +9, black -9 / -7 */
    capl = (capl >> 1) & c->enemy & mask;
    capr = (capr << 1) & c->enemy & mask;
    int dl = up - 1, dr = up + 1;
    if (!c->noisy) n = emit_pawn(c, n, one & ~last, up, CH_MV_NORMAL, false);
    n = emit_pawn(c, n, one & last, up, 0, true);
    if (!c->noisy) n = emit_pawn(c, n, two, 2 * up, CH_MV_DOUBLE, false);
    n = emit_pawn(c, n, capl & ~last, dl, CH_MV_NORMAL, false);
    n = emit_pawn(c, n, capl & last, dl, 0, true);
    n = emit_pawn(c, n, capr & ~last, dr, CH_MV_NORMAL, false);
    return emit_pawn(c, n, capr & last, dr, 0, true);
}

/* 5b. Pinned pawns, one by one, along the line through their king. */
static inline __attribute__((always_inline)) int gen_pinned_pawns(const gen_t *c, int n)
{
    int us = c->us;
    uint64_t empty = ~c->occ, last = us == CH_WHITE ? RANK8 : RANK1;
    uint64_t third = us == CH_WHITE ? RANK3 : RANK6;
    for (uint64_t b = c->p->pieces[CH_PAWN] & c->movable & c->pinned; b; b &= b - 1) {
        int from = ch_lsb(b);
        uint64_t line = ch_line[c->ksq][from];
        uint64_t o = shift_up(ch_bit(from), us) & empty;
        uint64_t t2 = c->noisy ? 0 : shift_up(o & third, us) & empty & line;
        if (c->noisy) o &= last;
        uint64_t t = (o | (ch_pawn_att[us][from] & c->enemy)) & line;
        for (; t; t &= t - 1) {
            int to = ch_lsb(t);
            if (!(ch_bit(to) & last)) {
                n = put(c, n, from, to, CH_MV_NORMAL);
            } else if (c->out) {
                for (int k = CH_MV_PROMO + 3; k >= CH_MV_PROMO; k--)
                    c->out[n++] = ch_move(from, to, k);
            } else {
                if (c->tgt) c->tgt[from] |= ch_bit(to);
                n += 4;
            }
        }
        if (t2) n = put(c, n, from, ch_lsb(t2), CH_MV_DOUBLE);
    }
    return n;
}

/* 6. En passant (ep is set only when some capture is legal; each taker is still tested, one
 * may be pinned). */
static inline __attribute__((always_inline)) int gen_ep(const gen_t *c, int n)
{
    const ch_pos_t *p = c->p;
    if (p->ep == CH_NO_SQ) return n;
    for (uint64_t b = ch_pawn_att[c->them][p->ep] & p->pieces[CH_PAWN] & c->own; b; b &= b - 1) {
        int from = ch_lsb(b);
        if (ep_safe(p, from, p->ep)) n = put(c, n, from, p->ep, CH_MV_EP);
    }
    return n;
}

/* 7. Castling: not out of, through or into check, the squares between king and rook empty. */
static inline __attribute__((always_inline)) int gen_castling(const gen_t *c, int n)
{
    const ch_pos_t *p = c->p;
    int us = c->us, them = c->them;
    uint64_t occ = c->occ;
    if (c->noisy || c->checkers ||
        !(p->castling & (us == CH_WHITE ? CH_WK | CH_WQ : CH_BK | CH_BQ)))
        return n;
    int base = us == CH_WHITE ? 0 : 56;
    int kr = us == CH_WHITE ? CH_WK : CH_BK, qr = us == CH_WHITE ? CH_WQ : CH_BQ;
    if ((p->castling & kr) && !(occ & (ch_bit(base + 5) | ch_bit(base + 6))) &&
        !ch_attacked(p, base + 5, them, occ) && !ch_attacked(p, base + 6, them, occ))
        n = put(c, n, base + 4, base + 6, CH_MV_CASTLE);
    if ((p->castling & qr) && !(occ & (ch_bit(base + 1) | ch_bit(base + 2) | ch_bit(base + 3))) &&
        !ch_attacked(p, base + 3, them, occ) && !ch_attacked(p, base + 2, them, occ))
        n = put(c, n, base + 4, base + 2, CH_MV_CASTLE);
    return n;
}

/* Every legal move, or with `noisy` only the captures and promotions
 * (quiescence's moves: the same moves the full list holds, in its order).
 * With `any` (counting only) it stops after the first group of pieces that
 * has a move: a count > 0 then means "some legal move", not how many. */
static inline __attribute__((always_inline)) int generate(const ch_pos_t *p, ch_move_t *out,
                                                          uint64_t *tgt, bool noisy, bool any)
{
    gen_t c = {.p = p, .out = out, .tgt = tgt, .noisy = noisy, .us = p->side, .them = p->side ^ 1};
    c.own = p->colors[c.us], c.enemy = p->colors[c.them], c.occ = c.own | c.enemy;
    c.ksq = ch_king_sq(p, c.us);
    int n = gen_king(&c, 0, any);
    if (any && n) return n;
    c.checkers = ch_attackers(p, c.ksq, c.occ) & c.enemy;
    if (c.checkers && (c.checkers & (c.checkers - 1))) return n; /* double check */
    gen_pins(&c);
    n = gen_pieces(&c, n, any);
    if (any && n) return n;
    n = gen_pinned_pawns(&c, gen_free_pawns(&c, n));
    if (any && n) return n;
    return gen_castling(&c, gen_ep(&c, n));
}

int ch_gen_legal(const ch_pos_t *p, ch_move_t *out) { return generate(p, out, NULL, false, false); }

int ch_gen_noisy(const ch_pos_t *p, ch_move_t *out) { return generate(p, out, NULL, true, false); }

int ch_count_legal(const ch_pos_t *p) { return generate(p, NULL, NULL, false, false); }

int ch_gen_targets(const ch_pos_t *p, uint64_t tgt[64])
{
    for (uint64_t b = p->colors[p->side]; b; b &= b - 1) tgt[ch_lsb(b)] = 0;
    return generate(p, NULL, tgt, false, false);
}

/* Every position a move reaches asks this (mate or stalemate?): the first
 * group of pieces with a move answers, usually the king or the knights. */
bool ch_has_legal(const ch_pos_t *p) { return generate(p, NULL, NULL, false, true) > 0; }

bool ch_gives_check(const ch_pos_t *p, ch_move_t m)
{
    ch_pos_t q = *p;
    ch_pos_make(&q, m);
    return ch_in_check(&q);
}
