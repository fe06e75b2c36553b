/* perft.c — fast whole-move perft on bare bitboards with bulk counting at
 * the last ply. It counts exactly what game_perft_generic() counts: paths
 * (a multi-jump is one move, two jump paths are two), Polish majority
 * capture, and the draw and devil rules that end a game (a terminal
 * position above the last ply has no moves). No allocation per node: the
 * reversible-move history is one stack shared by the recursion, each node
 * seeing its window hist[base, base + quiet). */
#include <stdlib.h>

#include "core/check.h"
#include "games/checkers/checkers_internal.h"

typedef struct pf {
    const ck_game_t *cg;
    uint16_t *hist;
} pf_t;

/* What a node needs and no more: no hash, no result, no chain fields (a
 * chain is walked to its end inside pf_chain). */
typedef struct pfpos {
    uint32_t bb[2], kings;
    int side;
} pfpos_t;

static uint64_t pf_node(pf_t *p, const pfpos_t *x, int base, int quiet, int depth);

/* The position after a whole move (side already switched), `depth` plies left. */
static uint64_t pf_child(pf_t *p, const pfpos_t *x, int base, int quiet, int depth)
{
    if (depth == 0) return 1;
    const ck_game_t *cg = p->cg;
    if (cg->variant == CK_DEVIL && ck_devil_free(x->bb[0], x->bb[1])) return 0;
    /* the same end-of-game rules as ck_finish, checked only once four
     * reversible moves make a repetition possible */
    if (cg->draws && quiet >= 4) {
        if (quiet >= CK_QUIET_MAX) return 0;
        if (ck_count_reps(x->bb[0] & x->kings, x->bb[1] & x->kings, x->side, p->hist + base,
                          quiet) >= 2)
            return 0;
    }
    return pf_node(p, x, base, quiet, depth);
}

/* Continue the capture chain of the piece on `sq`; `ncap` taken so far,
 * `need` the majority count (0 when the majority rule is off). */
static uint64_t pf_chain(pf_t *p, const pfpos_t *x, int sq, bool king, uint32_t captured,
                         int forbid, int ncap, int need, int base, int depth)
{
    const ck_game_t *cg = p->cg;
    int c = x->side;
    ck_step_t st[32];
    int n = 0;
    bool stop = ncap > 0 && !king && !cg->flying && (ck_bit(sq) & ck_king_row(c));
    if (!stop) n = ck_capture_steps(cg, x->bb[c], x->bb[c ^ 1], captured, sq, king, c, forbid, st);
    if (n == 0) {
        /* a capture path counts only at its end, and under the majority rule
         * only if it took the most pieces available */
        if (ncap == 0 || (need && ncap != need)) return 0;
        if (depth == 1) return 1;
        pfpos_t y = *x;
        y.bb[c ^ 1] &= ~captured;
        y.kings &= ~captured;
        /* the move is over: lift the captured pieces, crown on arrival */
        if (!king && (ck_bit(sq) & ck_king_row(c))) y.kings |= ck_bit(sq);
        y.side ^= 1;
        return pf_child(p, &y, base, 0, depth - 1);
    }
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        pfpos_t y = *x;
        uint32_t mv = ck_bit(sq) | ck_bit(st[i].to);
        y.bb[c] ^= mv;
        if (king) y.kings ^= mv;
        total += pf_chain(p, &y, st[i].to, king, captured | st[i].cap,
                          king && cg->flying ? st[i].dir : -1, ncap + ck_popcount(st[i].cap), need,
                          base, depth);
    }
    return total;
}

static uint64_t pf_node(pf_t *p, const pfpos_t *x, int base, int quiet, int depth)
{
    const ck_game_t *cg = p->cg;
    int c = x->side, f = ck_fwd0(c);
    uint32_t own = x->bb[c], opp = x->bb[c ^ 1], empty = ~(own | opp);
    uint32_t men = own & ~x->kings, kings = own & x->kings;
    if (ck_has_capture(cg, own, opp, x->kings, c)) {
        /* the majority count is found before walking any path, since each
         * path is checked against the best of all of them */
        int need = 0;
        if (cg->flying)
            for (uint32_t b = own; b; b &= b - 1) {
                int sq = ck_lsb(b);
                int m = ck_max_capture(cg, own, opp, 0, sq, (x->kings >> sq) & 1, c, -1);
                need = m > need ? m : need;
            }
        uint64_t total = 0;
        for (uint32_t b = own; b; b &= b - 1) {
            int sq = ck_lsb(b);
            /* captures reset the reversible window: the child's starts at
             * base + quiet */
            total += pf_chain(p, x, sq, (x->kings >> sq) & 1, 0, -1, 0, need, base + quiet, depth);
        }
        return total;
    }
    uint32_t kr = cg->variant == CK_DEVIL ? 0 : ck_king_row(c);
    uint64_t total = 0;
    /* men: forward steps, irreversible */
    for (int d = f; d <= f + 1; d++) {
        uint32_t t = ck_shift(d, men) & empty;
        if (depth == 1) {
            total += (uint64_t)ck_popcount(t);
            continue;
        }
        for (; t; t &= t - 1) {
            /* 3 - d is the opposite direction: step back to find the man */
            uint32_t to = t & -t, from = ck_shift(3 - d, to);
            pfpos_t y = *x;
            y.bb[c] ^= from | to;
            y.kings |= to & kr;
            y.side ^= 1;
            total += pf_child(p, &y, base + quiet, 0, depth - 1);
        }
    }
    /* kings: reversible */
    for (uint32_t b = kings; b; b &= b - 1) {
        int sq = ck_lsb(b);
        uint32_t t = ck_quiet_targets(cg, own, opp, sq, true, c);
        if (depth == 1) {
            total += (uint64_t)ck_popcount(t);
            continue;
        }
        for (; t; t &= t - 1) {
            int to = ck_lsb(t);
            pfpos_t y = *x;
            uint32_t mv = ck_bit(sq) | ck_bit(to);
            y.bb[c] ^= mv;
            y.kings ^= mv;
            y.side ^= 1;
            if (cg->draws) {
                p->hist[base + quiet] = (uint16_t)(sq | to << 5);
                total += pf_child(p, &y, base, quiet + 1, depth - 1);
            } else {
                total += pf_child(p, &y, base + quiet, 0, depth - 1);
            }
        }
    }
    return total;
}

uint64_t ck_perft(const game_t *g, const void *state, int depth)
{
    const ck_game_t *cg = ck_game(g);
    const ck_state_t *s = state;
    if (depth <= 0) return 1;
    if (s->result != CK_ONGOING) return 0;
    pf_t p = {.cg = cg, .hist = malloc(sizeof(uint16_t) * (size_t)(CK_QUIET_MAX + depth + 2))};
    /* A few hundred bytes for any depth `hoyle perft` accepts (at most 64):
     * running out here is not an input condition, and the perft slot (a node
     * count) has no error channel. */
    CHECK(p.hist != NULL);
    for (int i = 0; i < s->quiet; i++) p.hist[i] = s->rev[i];
    pfpos_t x = {.bb = {s->bb[0], s->bb[1]}, .kings = s->kings, .side = s->side};
    uint64_t n;
    if (s->chain) {
        int sq = s->chain - 1, forbid = -1;
        bool king = (s->kings >> sq) & 1;
        uint32_t between;
        if (king && cg->flying) forbid = ck_line(s->chain_prev - 1, sq, &between);
        int need = 0, done = ck_popcount(s->captured);
        if (cg->flying)
            need = done + ck_max_capture(cg, x.bb[x.side], x.bb[x.side ^ 1], s->captured, sq, king,
                                         x.side, forbid);
        n = pf_chain(&p, &x, sq, king, s->captured, forbid, done, need, 0, depth);
    } else {
        n = pf_node(&p, &x, 0, s->quiet, depth);
    }
    free(p.hist);
    return n;
}
