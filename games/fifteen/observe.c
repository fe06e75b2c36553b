/* observe.c — the Fifteen puzzle's observation planes.
 *
 * Planes ([N*N + 1][N][N]): plane t (0 = the blank, then tile 1..N*N-1) is 1
 * on the cell tile t is on, 0 elsewhere; the last plane is constant, the
 * moves made divided by the cap (the return depends on the moves left).
 * There is one player, so the point of view changes nothing. */
#include "games/fifteen/fifteen_internal.h"

void fif_observe(const game_t *g, const void *sv, int player, float *out)
{
    const fif_impl_t *im = fif_impl(g);
    const fif_state_t *s = sv;
    (void)player;
    int cells = im->cells;
    for (int i = 0; i < cells * cells; i++) out[i] = 0.0f;
    for (int c = 0; c < cells; c++) out[(size_t)s->cell[c] * (size_t)cells + (size_t)c] = 1.0f;
    float used = (float)s->moves / (float)im->max_moves;
    for (int c = 0; c < cells; c++) out[(size_t)cells * (size_t)cells + (size_t)c] = used;
}
