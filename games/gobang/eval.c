/* eval.c — Go-Bang heuristic and noisy-move test.
 *
 * The heuristic scores every line of five cells (the seed's 96 "positions of
 * the five" on 8x8): a line holding k men of one side and none of the other
 * is worth LINE_WEIGHT[k] to that side, so an open four (two such lines of
 * four) or a broken four counts by the lines it makes. Tactics on top:
 *   - the side to move with a four it can complete next action (a man in
 *     hand, or a man of its own beside the gap and outside the line) wins;
 *   - otherwise a side not to move with two such gaps cannot be stopped.
 * The rest maps through tanh into (-0.8, 0.8). Values are for `player`. */
#include <math.h>

#include "games/gobang/gobang_internal.h"

static const double LINE_WEIGHT[6] = {0.0, 1.0, 6.0, 36.0, 216.0, 0.0};
#define EVAL_SCALE  300.0 /* score difference that maps to tanh(1) */
#define EVAL_FORCED 0.95  /* value of a win next action */
#define EVAL_DOUBLE 0.9   /* value of two completable fours */

/* Can `side` fill `gap` on its next action without taking a man off the line
 * `win` (a window index)? With partnerships only the seat that acts next for
 * `side` can, with a man of its own. */
static bool can_fill(const gb_impl_t *im, const gb_state_t *s, int side, int gap, int win)
{
    if (s->in_hand[side] > 0) return true;
    if (s->in_hand[1 - side] > 0) return false; /* would have to place first */
    int seat = gb_next_seat(im, s, side);
    for (int d = 0; d < GB_DIRS; d++) {
        int a = im->nbr[gap][d];
        if (a < 0 || !gb_owns(im, s, a, seat)) continue;
        bool in_line = false;
        for (int i = 0; i < 5; i++) in_line |= im->window[win][i] == a;
        if (!in_line) return true;
    }
    return false;
}

double gb_evaluate(const game_t *g, const void *sv, int player)
{
    const gb_impl_t *im = gb_impl(g);
    const gb_state_t *s = sv;
    if (s->result != GB_ONGOING) {
        double r[2];
        gb_returns(g, s, r);
        return r[player];
    }
    double score[2] = {0.0, 0.0};
    int gaps[2] = {0, 0}, first_gap[2] = {-1, -1};
    for (int w = 0; w < im->num_windows; w++) {
        int cnt[3] = {0, 0, 0}, gap = -1;
        for (int i = 0; i < 5; i++) {
            int v = s->cell[im->window[w][i]];
            cnt[v]++;
            if (v == GB_EMPTY) gap = im->window[w][i];
        }
        for (int side = 0; side < 2; side++) {
            if (cnt[2 - side] != 0) continue;
            int k = cnt[side + 1];
            score[side] += LINE_WEIGHT[k];
            if (k == 4 && gap != first_gap[side] && can_fill(im, s, side, gap, w)) {
                if (first_gap[side] < 0) first_gap[side] = gap;
                gaps[side]++;
            }
        }
    }
    int mover = s->to_move, other = 1 - mover;
    double v; /* for the mover */
    if (gaps[mover] > 0)
        v = EVAL_FORCED;
    else if (gaps[other] > 1)
        v = -EVAL_DOUBLE;
    else
        v = 0.8 * tanh((score[mover] - score[other]) / EVAL_SCALE);
    return player == mover ? v : -v;
}

bool gb_is_noisy(const game_t *g, const void *sv, int action)
{
    const gb_impl_t *im = gb_impl(g);
    const gb_state_t *s = sv;
    int from, to;
    if (!gb_decode(im, action, &from, &to)) return false;
    /* Noisy: `to` completes a line of five cells whose other four are all of
     * one side (the mover makes five, or blocks the opponent's four). */
    for (int d = 4; d < 8; d++)
        for (int back = 0; back < 5; back++) {
            int start = to, ok = 1;
            for (int i = 0; i < back && ok; i++) ok = (start = im->nbr[start][7 - d]) >= 0;
            if (!ok) continue;
            int cells[5] = {start};
            for (int i = 1; i < 5 && ok; i++) ok = (cells[i] = im->nbr[cells[i - 1]][d]) >= 0;
            if (!ok) continue;
            int cnt[3] = {0, 0, 0};
            for (int i = 0; i < 5; i++)
                if (cells[i] != to) cnt[cells[i] == from ? GB_EMPTY : s->cell[cells[i]]]++;
            if (cnt[GB_WHITE] == 4 || cnt[GB_BLACK] == 4) return true;
        }
    return false;
}

/* Threat hints (game.h): one pass over the lines of five marks, per side,
 * the empty cells where a man would make a four (a line with three or more of
 * its men and none of the other's) or an open three (two lines in one
 * direction with two), and the gaps of its fours. A placement or step is a
 * threat when its destination is such a cell, or (a step) when it brings a
 * man beside a gap of the mover's four, to fill it next; a block when its
 * destination is such a cell of the opponent's. (With partnerships the man
 * stepped is filled in by the partner's next action only if he owns one
 * beside the gap too: hints need not be exact.) */
void gb_threat_hints(const game_t *g, const void *sv, const int *actions, int n, int *out)
{
    const gb_impl_t *im = gb_impl(g);
    const gb_state_t *s = sv;
    uint8_t four[2][GB_MAX_SQ] = {{0}}, gap[2][GB_MAX_SQ] = {{0}}, three[2][GB_MAX_SQ][4] = {{{0}}};
    for (int w = 0; w < im->num_windows; w++) {
        const int16_t *cells = im->window[w];
        int step = cells[1] - cells[0];
        int dir = step == 1 ? 0 : step == im->n ? 1 : step == im->n + 1 ? 2 : 3;
        int cnt[3] = {0, 0, 0};
        for (int i = 0; i < 5; i++) cnt[s->cell[cells[i]]]++;
        for (int side = 0; side < 2; side++) {
            int own = cnt[side + 1];
            if (cnt[2 - side] != 0 || own < 2) continue;
            for (int i = 0; i < 5; i++) {
                int c = cells[i];
                if (s->cell[c] != GB_EMPTY) continue;
                if (own >= 3)
                    four[side][c] = 1;
                else if (three[side][c][dir] < 2)
                    three[side][c][dir]++;
                if (own == 4) gap[side][c] = 1;
            }
        }
    }
    int me = s->to_move;
    for (int i = 0; i < n; i++) {
        int from, to, h = 0;
        if (gb_decode(im, actions[i], &from, &to)) {
            for (int side = 0; side < 2; side++) {
                const uint8_t *t3 = three[side][to];
                if (four[side][to] || t3[0] == 2 || t3[1] == 2 || t3[2] == 2 || t3[3] == 2)
                    h |= side == me ? GAME_THREAT_MAKES : GAME_THREAT_BLOCKS;
            }
            for (int d = 0; d < GB_DIRS && from >= 0 && !(h & GAME_THREAT_MAKES); d++) {
                int b = im->nbr[to][d];
                if (b >= 0 && b != from && gap[me][b]) h |= GAME_THREAT_MAKES;
            }
        }
        out[i] = h;
    }
}
