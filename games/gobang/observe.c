/* observe.c — Go-Bang observation planes and board symmetries.
 *
 * Planes ([GB_PLANES][N][N], from `player`'s point of view):
 *   0  player's men            1  opponent's men
 *   2  all ones when `player` is White (the first player), else zeros
 *   3  player's men in hand / hand0      4  opponent's men in hand / hand0
 *   5  moving-phase moves / move_limit (zeros when there is no moving phase)
 * Planes 2..5 are constant, so observe(symmetry_state(s)) equals
 * sym_planes(observe(s)) for all eight symmetries.
 *
 * With `lines=true` GB_LINE_PLANES more follow (after the partnership
 * planes too): for `player`'s colour, then the opponent's, at each empty
 * square q, k = 4, 3, 2 in that order:
 *   k = 4     1 when a line of five through q holds four men of the colour
 *             and none of the other's (a man there makes five), else 0
 *   k = 3, 2  min(n, 4) / 4, n = the lines of five through q that hold k men
 *             of the colour and none of the other's
 * and zeros on occupied squares: what the heuristic (eval.c) counts, given
 * to a net as input. The lines of five are one set under every symmetry, so
 * the equality above holds for these planes too.
 *
 * Partnerships (players=4, [GB_PLANES_4][N][N]): `player` is a colour, seen
 * from its seat that acts next (the seat to move, or the one after it):
 *   0  that seat's men       1  its partner's men
 *   2  the men of the opponent seated after it   3  the other opponent's
 *   4..7  as planes 2..5 above (the hands are the partnerships'). */
#include <string.h>

#include "games/gobang/gobang_internal.h"

/* Planes 0..3 of the partnership game: the men of the four seats, starting
 * from `player`'s seat that acts next, in turn order from there. */
static void observe_seats(const gb_impl_t *im, const gb_state_t *s, int player, float *out)
{
    int own = gb_next_seat(im, s, player);
    /* seat k's men go to plane (k - own) mod 4 ordered own, partner, after, before */
    static const int plane_of_offset[4] = {0, 2, 1, 3};
    memset(out, 0, sizeof(float) * 4 * (size_t)im->nsq);
    for (int q = 0; q < im->nsq; q++) {
        if (s->cell[q] == GB_EMPTY) continue;
        int seat = s->cell[q] - 1 + 2 * gb_partner_at(im, s, q);
        out[(size_t)plane_of_offset[(seat - own + 4) % 4] * (size_t)im->nsq + (size_t)q] = 1.0f;
    }
}

/* The GB_LINE_PLANES line planes of `player` (see the top) into out. */
static void observe_lines(const gb_impl_t *im, const gb_state_t *s, int player, float *out)
{
    uint8_t count[2][3][GB_MAX_SQ]; /* [colour: player, opponent][k - 2][square] */
    memset(count, 0, sizeof count);
    for (int w = 0; w < im->num_windows; w++) {
        int cnt[3] = {0, 0, 0};
        for (int i = 0; i < 5; i++) cnt[s->cell[im->window[w][i]]]++;
        for (int c = 0; c < 2; c++) {
            int colour = c == 0 ? player : 1 - player;
            int k = cnt[colour + 1];
            if (k < 2 || cnt[2 - colour] != 0) continue;
            for (int i = 0; i < 5; i++) {
                int q = im->window[w][i];
                if (s->cell[q] == GB_EMPTY && count[c][k - 2][q] < 255) count[c][k - 2][q]++;
            }
        }
    }
    for (int c = 0; c < 2; c++)
        for (int k = 4; k >= 2; k--) {
            float *plane = out + (size_t)(c * 3 + 4 - k) * (size_t)im->nsq;
            for (int q = 0; q < im->nsq; q++) {
                int n = count[c][k - 2][q];
                plane[q] = k == 4 ? (n > 0 ? 1.0f : 0.0f) : (float)(n < 4 ? n : 4) / 4.0f;
            }
        }
}

void gb_observe(const game_t *g, const void *sv, int player, float *out)
{
    const gb_impl_t *im = gb_impl(g);
    const gb_state_t *s = sv;
    int nsq = im->nsq, opp = 1 - player;
    /* with partnerships the four men planes come first and the constant
     * planes follow: `lead` shifts them */
    int lead = 0;
    if (im->seats == 4) observe_seats(im, s, player, out), lead = 2;
    float *plane[GB_PLANES];
    for (int k = 0; k < GB_PLANES; k++) plane[k] = out + (size_t)(k + lead) * (size_t)nsq;
    float fill[GB_PLANES] = {
        0.0f,
        0.0f,
        player == 0 ? 1.0f : 0.0f,
        im->hand0[player] ? (float)s->in_hand[player] / (float)im->hand0[player] : 0.0f,
        im->hand0[opp] ? (float)s->in_hand[opp] / (float)im->hand0[opp] : 0.0f,
        im->moving ? (float)s->moves / (float)im->move_limit : 0.0f,
    };
    for (int q = 0; q < nsq && lead == 0; q++) {
        int v = s->cell[q];
        plane[0][q] = v == player + 1 ? 1.0f : 0.0f;
        plane[1][q] = v == opp + 1 ? 1.0f : 0.0f;
    }
    for (int k = 2; k < GB_PLANES; k++)
        for (int q = 0; q < nsq; q++) plane[k][q] = fill[k];
    if (im->lines) observe_lines(im, s, player, out + (size_t)(GB_PLANES + lead) * (size_t)nsq);
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
    if (im->seats == 4) { /* the owners move with their men */
        for (int q = 0; q < im->nsq; q++) cells[im->sq_map[sym][q]] = s->cell[im->nsq + q];
        memcpy(o->cell + im->nsq, cells, (size_t)im->nsq);
    }
    o->hash = gb_hash_compute(g, o);
}

int gb_symmetry_action(const game_t *g, sym_t sym, int action)
{
    const gb_impl_t *im = gb_impl(g);
    if (action < im->nsq) return im->sq_map[sym][action];
    int a = action - im->nsq, from = a / GB_DIRS, d = a % GB_DIRS;
    return im->nsq + im->sq_map[sym][from] * GB_DIRS + im->dir_map[sym][d];
}
