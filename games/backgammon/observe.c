/* observe.c — Backgammon observation planes, [BG_PLANES][1][26], from the
 * view of `player` (so colour swap is built in: both colours see the same
 * planes for the same situation).
 *
 * Columns: 1..24 are `player`'s points. Planes 0-3 are his men, 4-7 the
 * opponent's, each as (count >= 1, >= 2, >= 3, (count - 3) / 2 beyond
 * three), TD-Gammon's encoding; a side's own bar is at the far end of its
 * path (column 25 for `player`, column 0 for the opponent) and its men borne
 * off at the near end (column 0 for `player`, 25 for the opponent), as
 * count / 15 in the first plane of the side. Planes 8-13: for die faces
 * 1..6, the uses of that face left in the play in progress / 4 (a constant
 * plane; zero when `player` is not playing). */
#include <string.h>

#include "games/backgammon/bg_internal.h"

static void fill_counts(float *planes, int col, int count)
{
    planes[0 * BG_POINTS + col] = count >= 1;
    planes[1 * BG_POINTS + col] = count >= 2;
    planes[2 * BG_POINTS + col] = count >= 3;
    planes[3 * BG_POINTS + col] = count > 3 ? (float)(count - 3) / 2.0f : 0.0f;
}

void bg_observe(const game_t *g, const void *sv, int player, float *out)
{
    (void)g;
    const bg_state_t *s = sv;
    const int8_t *me = s->board.men[player], *opp = s->board.men[1 - player];
    memset(out, 0, sizeof(float) * BG_PLANES * BG_POINTS);
    float *mine = out, *theirs = out + 4 * BG_POINTS;
    for (int q = 1; q <= 24; q++) {
        fill_counts(mine, q, me[q]);
        fill_counts(theirs, q, opp[25 - q]);
    }
    fill_counts(mine, 25, me[BG_BAR]);
    fill_counts(theirs, 0, opp[BG_BAR]);
    mine[0] = (float)me[BG_OFF] / BG_MEN;
    theirs[25] = (float)opp[BG_OFF] / BG_MEN;
    if (s->phase != BG_PLAY || s->to_move != player) return;
    int uses[7] = {0};
    if (s->dice[0] == s->dice[1]) {
        uses[s->dice[0]] = BG_MAX_STEPS - s->nsteps;
    } else {
        uses[s->dice[0]]++;
        uses[s->dice[1]]++;
        for (int k = 0; k < s->nsteps; k++) uses[bg_step_die(s->steps[k])]--;
    }
    for (int f = 1; f <= 6; f++)
        for (int c = 0; c < BG_POINTS; c++)
            out[(8 + f - 1) * BG_POINTS + c] = (float)uses[f] / BG_MAX_STEPS;
}
