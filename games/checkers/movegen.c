/* movegen.c — per-step legal actions and their application.
 *
 * An action is one step, from * 32 + to: a move, or one capture step (a
 * jump, or for a Polish flying king one straight flight taking every
 * opponent piece it passes on that line). While a capture chain can go on,
 * the same player keeps the move; pieces taken stay on the board until the
 * move ends (they block and cannot be taken twice). Polish majority rule:
 * only steps that lie on a sequence taking the most pieces are legal. A
 * flying king's next flight must leave the line of the previous one, so
 * that one step sequence is one path in the perft sense. */
#include <string.h>

#include "games/checkers/checkers_internal.h"

int ck_capture_steps(const ck_game_t *cg, uint32_t own, uint32_t opp, uint32_t captured, int sq,
                     bool king, int color, int forbid, ck_step_t *out)
{
    /* devil checkers has no captures: the devil only blocks */
    if (cg->variant == CK_DEVIL) return 0;
    /* pieces already taken in this chain stay on the board as blockers
     * (they are in opp, so not empty) but are no longer prey */
    uint32_t empty = ~(own | opp), prey = opp & ~captured, from = ck_bit(sq);
    int n = 0;
    if (king && cg->flying) {
        /* slide over empty squares to the first piece; if it is prey, every
         * empty square behind it is a landing square, and a further prey
         * with an empty square behind it extends the same flight */
        for (int d = 0; d < 4; d++) {
            if (d == forbid) continue;
            uint32_t t = ck_shift(d, from);
            while (t & empty) t = ck_shift(d, t);
            if (!(t & prey)) continue;
            uint32_t cap = t, l = ck_shift(d, t);
            while (l & empty) {
                while (l & empty) {
                    out[n++] = (ck_step_t){.to = ck_lsb(l), .dir = d, .cap = cap};
                    l = ck_shift(d, l);
                }
                if ((l & prey) && (ck_shift(d, l) & empty)) {
                    cap |= l;
                    l = ck_shift(d, l);
                }
            }
        }
        return n;
    }
    /* men move and capture forward only in the non-flying variants; kings
     * and flying-variant men use all four diagonals */
    int d0 = 0, d1 = 3;
    if (!king && !cg->flying) d0 = ck_fwd0(color), d1 = d0 + 1;
    for (int d = d0; d <= d1; d++) {
        uint32_t m = ck_shift(d, from);
        if (!(m & prey)) continue;
        uint32_t l = ck_shift(d, m);
        if (l & empty) out[n++] = (ck_step_t){.to = ck_lsb(l), .dir = d, .cap = m};
    }
    return n;
}

/* Most pieces the piece on `sq` can still take from here (depth-first over
 * the continuations): the majority rule compares these totals. */
int ck_max_capture(const ck_game_t *cg, uint32_t own, uint32_t opp, uint32_t captured, int sq,
                   bool king, int color, int forbid)
{
    ck_step_t st[32];
    int n = ck_capture_steps(cg, own, opp, captured, sq, king, color, forbid, st), best = 0;
    for (int i = 0; i < n; i++) {
        int v = ck_popcount(st[i].cap) + ck_max_capture(cg, own ^ ck_bit(sq) ^ ck_bit(st[i].to),
                                                        opp, captured | st[i].cap, st[i].to, king,
                                                        color, king && cg->flying ? st[i].dir : -1);
        if (v > best) best = v;
    }
    return best;
}

uint32_t ck_quiet_targets(const ck_game_t *cg, uint32_t own, uint32_t opp, int sq, bool king,
                          int color)
{
    uint32_t empty = ~(own | opp), from = ck_bit(sq), t = 0;
    if (!king) return (ck_shift(ck_fwd0(color), from) | ck_shift(ck_fwd0(color) + 1, from)) & empty;
    for (int d = 0; d < 4; d++) {
        uint32_t r = ck_shift(d, from) & empty;
        t |= r;
        if (cg->flying)
            while (r) r = ck_shift(d, r) & empty, t |= r;
    }
    return t;
}

/* Any capture for `color`: bitboard shifts test every short jump of all men
 * and short kings at once, one direction per pass; only flying kings need the
 * per-piece scan. Called on every position, so it must stay cheap. */
bool ck_has_capture(const ck_game_t *cg, uint32_t own, uint32_t opp, uint32_t kings, int color)
{
    if (cg->variant == CK_DEVIL) return false;
    uint32_t empty = ~(own | opp), men = own & ~kings;
    uint32_t short_kings = cg->flying ? 0 : own & kings;
    for (int d = 0; d < 4; d++) {
        uint32_t movers = short_kings;
        if (cg->flying || d == ck_fwd0(color) || d == ck_fwd0(color) + 1) movers |= men;
        if (ck_shift(d, ck_shift(d, movers) & opp) & empty) return true;
    }
    if (cg->flying) {
        ck_step_t st[32];
        for (uint32_t b = own & kings; b; b &= b - 1)
            if (ck_capture_steps(cg, own, opp, 0, ck_lsb(b), true, color, -1, st)) return true;
    }
    return false;
}

/* f and f + 1 are the two forward directions, f ^ 2 and (f ^ 2) + 1 the two
 * backward ones (ck_fwd0), which only kings use for quiet moves. */
bool ck_has_move(const ck_game_t *cg, uint32_t own, uint32_t opp, uint32_t kings, int color)
{
    uint32_t empty = ~(own | opp), men = own & ~kings, k = own & kings;
    int f = ck_fwd0(color);
    if ((ck_shift(f, men | k) | ck_shift(f + 1, men | k) | ck_shift(f ^ 2, k) |
         ck_shift((f ^ 2) + 1, k)) &
        empty)
        return true;
    return ck_has_capture(cg, own, opp, kings, color);
}

/* Insertion sort (the lists are short): capture lists come out ascending,
 * as the quiet-move scan produces them by construction. */
static void sort_actions(int *a, int n)
{
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i;
        while (j > 0 && a[j - 1] > v) a[j] = a[j - 1], j--;
        a[j] = v;
    }
}

/* Capture steps of the piece on `sq`; under the majority rule each gets its
 * total (pieces taken by it and the best continuation) in vals[]. */
static int piece_captures(const ck_game_t *cg, const ck_state_t *s, int sq, int forbid, int *acts,
                          int *vals)
{
    int c = s->side;
    bool king = (s->kings >> sq) & 1;
    ck_step_t st[32];
    int n = ck_capture_steps(cg, s->bb[c], s->bb[c ^ 1], s->captured, sq, king, c, forbid, st);
    for (int i = 0; i < n; i++) {
        acts[i] = sq * 32 + st[i].to;
        vals[i] = 0;
        if (cg->flying)
            vals[i] =
                ck_popcount(st[i].cap) +
                ck_max_capture(cg, s->bb[c] ^ ck_bit(sq) ^ ck_bit(st[i].to), s->bb[c ^ 1],
                               s->captured | st[i].cap, st[i].to, king, c, king ? st[i].dir : -1);
    }
    return n;
}

int ck_legal_actions(const ck_game_t *cg, const ck_state_t *s, int *out)
{
    if (s->result != CK_ONGOING) return 0;
    int c = s->side, n = 0;
    uint32_t own = s->bb[c], opp = s->bb[c ^ 1];
    /* captures are compulsory: once one exists, quiet moves are not legal;
     * with capture=huff only after the opponent compelled one */
    bool compulsory = !cg->huff || ck_huff_phase(s) == CK_HUFF_COMPELLED;
    if (s->chain || (compulsory && ck_has_capture(cg, own, opp, s->kings, c))) {
        int vals[CK_MAX_LEGAL + 32], best = 0;
        if (s->chain) {
            int sq = s->chain - 1, forbid = -1;
            uint32_t between;
            /* a flying king may not double back along the line it came in on */
            if (cg->flying && ((s->kings >> sq) & 1))
                forbid = ck_line(s->chain_prev - 1, sq, &between);
            n = piece_captures(cg, s, sq, forbid, out, vals);
        } else {
            for (uint32_t b = own; b; b &= b - 1)
                n += piece_captures(cg, s, ck_lsb(b), -1, out + n, vals + n);
        }
        if (cg->flying) {
            for (int i = 0; i < n; i++) best = vals[i] > best ? vals[i] : best;
            int m = 0;
            for (int i = 0; i < n; i++)
                if (vals[i] == best) out[m++] = out[i];
            n = m;
        }
        sort_actions(out, n);
        return n;
    }
    int vals[CK_MAX_LEGAL];
    if (cg->huff) /* a capture may be neglected: captures and quiet moves */
        for (uint32_t b = own; b; b &= b - 1)
            n += piece_captures(cg, s, ck_lsb(b), -1, out + n, vals + n);
    for (uint32_t b = own; b; b &= b - 1) {
        int sq = ck_lsb(b);
        for (uint32_t t = ck_quiet_targets(cg, own, opp, sq, (s->kings >> sq) & 1, c); t;
             t &= t - 1)
            out[n++] = sq * 32 + ck_lsb(t);
    }
    if (cg->huff) {
        sort_actions(out, n);
        n += ck_huff_actions(cg, s, out + n);
    }
    return n;
}

bool ck_is_capture(const ck_state_t *s, int action)
{
    uint32_t between;
    if (action < 0 || action >= 1024 || ck_line(action >> 5, action & 31, &between) < 0)
        return false;
    return (between & s->bb[s->side ^ 1]) != 0;
}

/* Crowning, the reversible-move history (only king non-captures count, and
 * only in variants with the draw rules), then the turn passes. A man crowns
 * only when its move ends on the king row, never in passing mid-chain. */
static void end_move(const ck_game_t *cg, ck_state_t *s, int to, bool reversible, int from)
{
    int c = s->side;
    if (!((s->kings >> to) & 1) && cg->variant != CK_DEVIL && (ck_bit(to) & ck_king_row(c))) {
        s->kings |= ck_bit(to);
        s->hash ^= cg->z_piece[c][0][to] ^ cg->z_piece[c][1][to];
    }
    if (reversible) {
        s->rev[s->quiet++] = (uint16_t)(from | to << 5);
    } else {
        memset(s->rev, 0, sizeof s->rev[0] * s->quiet);
        s->quiet = 0;
    }
    s->side ^= 1;
    s->hash ^= cg->z_side;
    ck_finish(cg, s);
}

void ck_apply(const ck_game_t *cg, ck_state_t *s, int action)
{
    int from = action >> 5, to = action & 31, c = s->side;
    uint32_t between;
    int d = ck_line(from, to, &between);
    uint32_t cap = between & s->bb[c ^ 1];
    int king = (s->kings >> from) & 1;
    s->bb[c] ^= ck_bit(from) | ck_bit(to);
    if (king) s->kings ^= ck_bit(from) | ck_bit(to);
    s->hash ^= cg->z_piece[c][king][from] ^ cg->z_piece[c][king][to];
    if (!cap) {
        end_move(cg, s, to, king && cg->draws, from);
        return;
    }
    /* mid-chain the hash covers the captured set and the chain squares, so
     * transpositions inside a capture never meet positions between moves */
    for (uint32_t b = cap; b; b &= b - 1) s->hash ^= cg->z_cap[ck_lsb(b)];
    s->captured |= cap;
    if (s->chain) s->hash ^= cg->z_chain[s->chain - 1] ^ cg->z_prev[s->chain_prev - 1];
    s->chain = (uint8_t)(to + 1);
    s->chain_prev = (uint8_t)(from + 1);
    s->hash ^= cg->z_chain[to] ^ cg->z_prev[from];
    if (s->quiet) {
        memset(s->rev, 0, sizeof s->rev[0] * s->quiet);
        s->quiet = 0;
    }
    /* without flying kings a man that reaches the king row crowns and ends
     * its move there, even if another capture were available */
    bool stop = !king && !cg->flying && (ck_bit(to) & ck_king_row(c));
    ck_step_t st[32];
    if (!stop && ck_capture_steps(cg, s->bb[c], s->bb[c ^ 1], s->captured, to, king, c,
                                  king && cg->flying ? d : -1, st) > 0)
        return;
    /* the move is over: lift the captured pieces all at once */
    for (uint32_t b = s->captured; b; b &= b - 1) {
        int sq = ck_lsb(b);
        s->hash ^= cg->z_cap[sq] ^ cg->z_piece[c ^ 1][(s->kings >> sq) & 1][sq];
    }
    s->bb[c ^ 1] &= ~s->captured;
    s->kings &= ~s->captured;
    s->captured = 0;
    s->hash ^= cg->z_chain[to] ^ cg->z_prev[from];
    s->chain = s->chain_prev = 0;
    end_move(cg, s, to, false, from);
}
