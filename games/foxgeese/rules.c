/* rules.c — Fox and Geese move generation, application and outcome.
 *
 * The geese step down, left or right to an empty point; the fox steps along
 * any line, or jumps a goose next to him to the empty point behind it. A
 * jump is compulsory when one exists, and after a jump the fox keeps the
 * move while he can jump again (chain == 1: only jumps from his point are
 * legal). Invariant kept by fg_apply(): the hash is updated incrementally
 * and s->result is settled whenever a whole move ends. */
#include <string.h>

#include "games/foxgeese/foxgeese_internal.h"

void fg_init(const game_t *g, void *sv)
{
    const fg_impl_t *im = fg_impl(g);
    fg_state_t *s = sv;
    memset(s, 0, sizeof *s);
    s->geese = im->start;
    s->fox = (uint8_t)im->fox0;
    s->side = FG_GEESE;
    s->hash = fg_hash_compute(im, s);
}

int fg_current_player(const game_t *g, const void *sv)
{
    (void)g;
    const fg_state_t *s = sv;
    return s->result == FG_ONGOING ? s->side : PLAYER_TERMINAL;
}

bool fg_decode(const fg_impl_t *im, int action, int *from, int *to, bool *jump)
{
    if (action < 0 || action >= FG_ACTIONS) return false;
    *jump = action >= FG_JUMP;
    int a = *jump ? action - FG_JUMP : action, f = a / FG_DIRS, d = a % FG_DIRS;
    int t = *jump ? im->jump[f][d] : im->nbr[f][d];
    if (t < 0) return false;
    *from = f, *to = t;
    return true;
}

bool fg_fox_can_jump(const fg_impl_t *im, uint64_t geese, int fox)
{
    for (int d = 0; d < FG_DIRS; d++) {
        int m = im->nbr[fox][d], l = im->jump[fox][d];
        if (l >= 0 && (geese & fg_bit(m)) && !(geese & fg_bit(l))) return true;
    }
    return false;
}

int fg_fox_moves(const fg_impl_t *im, uint64_t geese, int fox)
{
    int n = 0;
    for (int d = 0; d < FG_DIRS; d++) {
        int m = im->nbr[fox][d], l = im->jump[fox][d];
        if (m < 0) continue;
        if (!(geese & fg_bit(m)))
            n++;
        else if (l >= 0 && !(geese & fg_bit(l)))
            n++;
    }
    return n;
}

bool fg_geese_can_move(const fg_impl_t *im, uint64_t geese, int fox)
{
    uint64_t occ = geese | fg_bit(fox);
    for (uint64_t b = geese; b; b &= b - 1)
        for (int d = 1; d < FG_DIRS; d++) { /* left, right, down: never up */
            int t = im->gnbr[fg_lsb(b)][d];
            if (t >= 0 && !(occ & fg_bit(t))) return true;
        }
    return false;
}

/* The order of the tests is the order of precedence: the flock too small to
 * confine the fox, then the side to move unable to move (it loses), then
 * the draw counter. */
void fg_settle(const fg_impl_t *im, fg_state_t *s)
{
    s->result = FG_ONGOING;
    if (fg_popcount(s->geese) <= im->fox_wins_at)
        s->result = FG_WIN_FOX;
    else if (s->side == FG_FOX ? fg_fox_moves(im, s->geese, s->fox) == 0
                               : !fg_geese_can_move(im, s->geese, s->fox))
        s->result = s->side == FG_FOX ? FG_WIN_GEESE : FG_WIN_FOX;
    else if (s->quiet >= im->quiet_limit)
        s->result = FG_DRAW;
}

int fg_legal_actions(const game_t *g, const void *sv, int *out)
{
    const fg_impl_t *im = fg_impl(g);
    const fg_state_t *s = sv;
    if (s->result != FG_ONGOING) return 0;
    uint64_t occ = s->geese | fg_bit(s->fox);
    int n = 0;
    if (s->side == FG_GEESE) {
        for (uint64_t b = s->geese; b; b &= b - 1) {
            int p = fg_lsb(b);
            for (int d = 1; d < FG_DIRS; d++) {
                int t = im->gnbr[p][d];
                if (t >= 0 && !(occ & fg_bit(t))) out[n++] = p * FG_DIRS + d;
            }
        }
        return n;
    }
    int f = s->fox;
    /* "the Fox must take him": a jump, when there is one, is compulsory */
    for (int d = 0; d < FG_DIRS; d++) {
        int m = im->nbr[f][d], l = im->jump[f][d];
        if (l >= 0 && (s->geese & fg_bit(m)) && !(s->geese & fg_bit(l)))
            out[n++] = FG_JUMP + f * FG_DIRS + d;
    }
    if (n > 0 || s->chain) return n;
    for (int d = 0; d < FG_DIRS; d++) {
        int t = im->nbr[f][d];
        if (t >= 0 && !(occ & fg_bit(t))) out[n++] = f * FG_DIRS + d;
    }
    return n;
}

/* The whole move is over: the turn passes and the outcome is settled. */
static void end_move(const fg_impl_t *im, fg_state_t *s)
{
    if (s->chain) s->hash ^= im->z_chain;
    s->chain = 0;
    s->side ^= 1;
    s->hash ^= im->z_side;
    fg_settle(im, s);
}

static void set_quiet(const fg_impl_t *im, fg_state_t *s, int quiet)
{
    s->hash ^= im->z_quiet[s->quiet] ^ im->z_quiet[quiet];
    s->quiet = (uint16_t)quiet;
}

void fg_apply(const game_t *g, void *sv, int action)
{
    const fg_impl_t *im = fg_impl(g);
    fg_state_t *s = sv;
    int from = 0, to = 0;
    bool jump = false;
    bool ok = fg_decode(im, action, &from, &to, &jump);
    (void)ok; /* legality is the caller's contract (game_apply_checked for untrusted input) */
    if (!jump) {
        if (s->side == FG_GEESE) {
            s->geese ^= fg_bit(from) | fg_bit(to);
            s->hash ^= im->z_goose[from] ^ im->z_goose[to];
        } else {
            s->fox = (uint8_t)to;
            s->hash ^= im->z_fox[from] ^ im->z_fox[to];
        }
        /* only a goose moving down (or a capture) is progress */
        bool down = s->side == FG_GEESE && im->row[to] > im->row[from];
        set_quiet(im, s, down ? 0 : s->quiet + 1);
        end_move(im, s);
        return;
    }
    int mid = im->nbr[from][(action - FG_JUMP) % FG_DIRS];
    s->geese &= ~fg_bit(mid);
    s->hash ^= im->z_goose[mid] ^ im->z_fox[from] ^ im->z_fox[to];
    s->fox = (uint8_t)to;
    set_quiet(im, s, 0);
    /* "so long as he can take, he continues his move" — unless the flock is
     * already too small to confine him: then the game is over at once */
    if (fg_popcount(s->geese) > im->fox_wins_at && fg_fox_can_jump(im, s->geese, to)) {
        if (!s->chain) s->hash ^= im->z_chain;
        s->chain = 1;
        return;
    }
    end_move(im, s);
}

void fg_returns(const game_t *g, const void *sv, double *out)
{
    (void)g;
    const fg_state_t *s = sv;
    out[0] = s->result == FG_WIN_GEESE ? 1.0 : s->result == FG_WIN_FOX ? -1.0 : 0.0;
    out[1] = -out[0];
}

uint64_t fg_hash(const game_t *g, const void *sv)
{
    (void)g;
    return ((const fg_state_t *)sv)->hash;
}

uint64_t fg_hash_recompute(const game_t *g, const void *sv)
{
    return fg_hash_compute(fg_impl(g), sv);
}
