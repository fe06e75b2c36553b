/* observe.c — Fox and Geese observation planes and the left-right mirror.
 *
 * Planes [FG_PLANES][7][7] over the grid that holds the cross (the same
 * picture for both players: the sides have different pieces and rules, so
 * nothing is turned):
 *   0 geese                      1 the fox
 *   2 the cross (1 on the 33 points, 0 on the corners off the board)
 *   3 constant: 1 when `player` is the fox
 *   4 constant: 1 when the fox is to move
 *   5 constant: 1 while the fox is in the middle of a capture chain
 *   6 constant: quiet moves / quiet_limit (the draw counter)
 * The only symmetry is SYM_FLIP_COLS (col c -> 6 - c): it keeps "down",
 * which the geese's moves depend on. The cross and the constant planes are
 * invariant under it, so observe(mirror(s)) == sym_planes(observe(s)). */
#include <string.h>

#include "games/foxgeese/foxgeese_internal.h"

void fg_observe(const game_t *g, const void *sv, int player, float *out)
{
    const fg_impl_t *im = fg_impl(g);
    const fg_state_t *s = sv;
    enum { AREA = FG_GRID * FG_GRID };
    memset(out, 0, sizeof(float) * FG_PLANES * AREA);
    for (int p = 0; p < FG_POINTS; p++) {
        int cell = im->row[p] * FG_GRID + im->col[p];
        if (s->geese & fg_bit(p)) out[cell] = 1.0f;
        if (s->fox == p) out[AREA + cell] = 1.0f;
        out[2 * AREA + cell] = 1.0f;
    }
    float fill[4] = {player == FG_FOX ? 1.0f : 0.0f, s->side == FG_FOX ? 1.0f : 0.0f,
                     s->chain ? 1.0f : 0.0f, (float)s->quiet / (float)im->quiet_limit};
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < AREA; i++) out[(3 + k) * AREA + i] = fill[k];
}

void fg_symmetry_state(const game_t *g, sym_t sym, const void *sv, void *outv)
{
    const fg_impl_t *im = fg_impl(g);
    const fg_state_t *s = sv;
    fg_state_t o = *s;
    if (sym == SYM_FLIP_COLS) {
        o.geese = 0;
        for (uint64_t b = s->geese; b; b &= b - 1) o.geese |= fg_bit(im->mirror[fg_lsb(b)]);
        o.fox = (uint8_t)im->mirror[s->fox];
    }
    o.hash = fg_hash_compute(im, &o);
    memcpy(outv, &o, sizeof o);
}

int fg_symmetry_action(const game_t *g, sym_t sym, int action)
{
    const fg_impl_t *im = fg_impl(g);
    if (sym != SYM_FLIP_COLS || action < 0 || action >= FG_ACTIONS) return action;
    int base = action >= FG_JUMP ? FG_JUMP : 0, a = action - base;
    return base + im->mirror[a / FG_DIRS] * FG_DIRS + fg_mirror_dir(a % FG_DIRS);
}
