/* rules.c — Go-Bang move generation, application, outcome and perft.
 *
 * Invariant kept by gb_apply(): the hash is updated incrementally (stones,
 * side to move, men in hand, moving-phase counter) and s->result is settled
 * locally by gb_settle(): a line can only be made through the square a man
 * arrives at (with `exact`, also by leaving the end of a six), so no full
 * board scan is needed. */
#include <string.h>

#include "games/gobang/gobang_internal.h"

#define GB_MAX_LEGAL (8 * (GB_MAX_SQ / 2)) /* moving phase: 8 steps per man */

void gb_init(const game_t *g, void *sv)
{
    const gb_impl_t *im = gb_impl(g);
    gb_state_t *s = sv;
    memset(s, 0, g->state_size);
    s->in_hand[0] = (uint16_t)im->hand0[0];
    s->in_hand[1] = (uint16_t)im->hand0[1];
    s->hash = gb_hash_compute(g, s);
}

int gb_current_player(const game_t *g, const void *sv)
{
    (void)g;
    const gb_state_t *s = sv;
    return s->result == GB_ONGOING ? s->to_move : PLAYER_TERMINAL;
}

int gb_current_seat(const game_t *g, const void *sv)
{
    const gb_state_t *s = sv;
    return s->result == GB_ONGOING ? gb_seat(gb_impl(g), s) : PLAYER_TERMINAL;
}

/* False for an action this game cannot have at all (out of range, a step in a
 * placing-only game, a step off the board); it does not check the state. */
bool gb_decode(const gb_impl_t *im, int action, int *from, int *to)
{
    if (action < 0) return false;
    if (action < im->nsq) {
        *from = -1, *to = action;
        return true;
    }
    if (!im->moving || action >= im->nsq * (1 + GB_DIRS)) return false;
    int a = action - im->nsq, f = a / GB_DIRS, t = im->nbr[f][a % GB_DIRS];
    if (t < 0) return false;
    *from = f, *to = t;
    return true;
}

int gb_legal_actions(const game_t *g, const void *sv, int *out)
{
    const gb_impl_t *im = gb_impl(g);
    const gb_state_t *s = sv;
    int n = 0;
    if (s->result != GB_ONGOING) return 0;
    /* a side places while it has men in hand, then moves them */
    if (s->in_hand[s->to_move] > 0) {
        for (int q = 0; q < im->nsq; q++)
            if (s->cell[q] == GB_EMPTY) out[n++] = q;
        return n;
    }
    int seat = gb_seat(im, s);
    for (int q = 0; q < im->nsq; q++) {
        if (!gb_owns(im, s, q, seat)) continue;
        for (int d = 0; d < GB_DIRS; d++) {
            int t = im->nbr[q][d];
            if (t >= 0 && s->cell[t] == GB_EMPTY) out[n++] = im->nsq + q * GB_DIRS + d;
        }
    }
    return n;
}

void gb_apply(const game_t *g, void *sv, int action)
{
    const gb_impl_t *im = gb_impl(g);
    gb_state_t *s = sv;
    int p = s->to_move, from = -1, to = -1;
    bool ok = gb_decode(im, action, &from, &to);
    (void)ok; /* legality is the caller's contract (game_apply_checked for untrusted input) */
    if (im->seats == 4) {
        /* the man's owner moves with it; a second partner's man has a key */
        uint8_t *owner = s->cell + im->nsq;
        int partner = gb_seat(im, s) / 2;
        if (from >= 0) owner[from] = 0, s->hash ^= partner ? im->zob_partner[from] : 0;
        owner[to] = (uint8_t)partner;
        s->hash ^= partner ? im->zob_partner[to] : 0;
    }
    if (from < 0) {
        int h = s->in_hand[p];
        /* hand counts are hashed by value: swap the old count's key for the
         * new one */
        s->hash ^= gb_key_hand(p, h) ^ gb_key_hand(p, h - 1);
        s->in_hand[p] = (uint16_t)(h - 1);
    } else {
        s->cell[from] = GB_EMPTY;
        s->hash ^= im->zob[p][from];
        s->hash ^= gb_key_moves(s->moves) ^ gb_key_moves(s->moves + 1);
        s->moves++;
    }
    s->cell[to] = (uint8_t)(p + 1);
    s->hash ^= im->zob[p][to] ^ im->zob_side;
    s->to_move = (uint8_t)(1 - p);
    gb_settle(im, s, from, to);
}

void gb_returns(const game_t *g, const void *sv, double *out)
{
    (void)g;
    const gb_state_t *s = sv;
    out[0] = s->result == GB_WIN0 ? 1.0 : s->result == GB_WIN1 ? -1.0 : 0.0;
    out[1] = -out[0];
}

uint64_t gb_hash(const game_t *g, const void *sv)
{
    (void)g;
    return ((const gb_state_t *)sv)->hash;
}

uint64_t gb_hash_recompute(const game_t *g, const void *sv) { return gb_hash_compute(g, sv); }

/* Players (and seats) always alternate, so a whole move is one action and the last ply
 * is bulk-counted from the legal-action count. */
static uint64_t perft_rec(const game_t *g, const gb_state_t *s, int depth)
{
    if (depth == 0) return 1;
    if (s->result != GB_ONGOING) return 0;
    int legal[GB_MAX_LEGAL];
    int n = gb_legal_actions(g, s, legal);
    if (depth == 1) return (uint64_t)n;
    uint64_t child_buf[GB_STATE_WORDS];
    gb_state_t *t = (gb_state_t *)child_buf;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        memcpy(t, s, g->state_size);
        gb_apply(g, t, legal[i]);
        total += perft_rec(g, t, depth - 1);
    }
    return total;
}

uint64_t gb_perft(const game_t *g, const void *s, int depth) { return perft_rec(g, s, depth); }
