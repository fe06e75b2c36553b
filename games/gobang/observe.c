/* observe.c — Go-Bang observation planes and board symmetries.
 *
 * Planes ([GB_PLANES][N][N], from `player`'s point of view):
 *   0  player's men            1  opponent's men
 *   2  all ones when `player` is White (the first player), else zeros
 *   3  player's men in hand / hand0      4  opponent's men in hand / hand0
 *   5  moving-phase moves / move_limit (zeros when there is no moving phase)
 * Planes 2..5 are constant, so observe(symmetry_state(s)) equals
 * sym_planes(observe(s)) for all eight symmetries. */
#include <string.h>

#include "games/gobang/gobang_internal.h"

void gb_observe(const game_t *g, const void *sv, int player, float *out)
{
    const gb_impl_t *im = gb_impl(g);
    const gb_state_t *s = sv;
    int nsq = im->nsq, opp = 1 - player;
    float *plane[GB_PLANES];
    for (int k = 0; k < GB_PLANES; k++) plane[k] = out + (size_t)k * (size_t)nsq;
    float fill[GB_PLANES] = {
        0.0f,
        0.0f,
        player == 0 ? 1.0f : 0.0f,
        im->hand0[player] ? (float)s->in_hand[player] / (float)im->hand0[player] : 0.0f,
        im->hand0[opp] ? (float)s->in_hand[opp] / (float)im->hand0[opp] : 0.0f,
        im->moving ? (float)s->moves / (float)im->move_limit : 0.0f,
    };
    for (int q = 0; q < nsq; q++) {
        int v = s->cell[q];
        plane[0][q] = v == player + 1 ? 1.0f : 0.0f;
        plane[1][q] = v == opp + 1 ? 1.0f : 0.0f;
    }
    for (int k = 2; k < GB_PLANES; k++)
        for (int q = 0; q < nsq; q++) plane[k][q] = fill[k];
}

void gb_symmetry_state(const game_t *g, sym_t sym, const void *sv, void *outv)
{
    const gb_impl_t *im = gb_impl(g);
    const gb_state_t *s = sv;
    gb_state_t *o = outv;
    if (o != s) memcpy(o, s, g->state_size);
    uint8_t cells[GB_MAX_SQ];
    for (int q = 0; q < im->nsq; q++) cells[im->sq_map[sym][q]] = s->cell[q];
    memcpy(o->cell, cells, (size_t)im->nsq);
    o->hash = gb_hash_compute(g, o);
}

int gb_symmetry_action(const game_t *g, sym_t sym, int action)
{
    const gb_impl_t *im = gb_impl(g);
    if (action < im->nsq) return im->sq_map[sym][action];
    int a = action - im->nsq, from = a / GB_DIRS, d = a % GB_DIRS;
    return im->nsq + im->sq_map[sym][from] * GB_DIRS + im->dir_map[sym][d];
}
