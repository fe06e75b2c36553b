/* eval.c — a Backgammon heuristic for expectiminimax and greedy play: the
 * race (pip counts), men borne off and home, safety (blots the opponent can
 * hit, weighted by how many of the 36 rolls hit them), made points in the
 * home table, and the longest prime. Squashed to (-1, 1) with tanh. */
#include <math.h>

#include "games/backgammon/bg_internal.h"

/* Rolls (of 36) that let a man `dist` pips away hit, ignoring blocks. */
static int hit_rolls(int dist)
{
    static const int direct[25] = {0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3,
                                   0, 0,  1,  1,  0,  1,  0,  1, 0, 0, 0, 1};
    return dist >= 1 && dist <= 24 ? direct[dist] : 0;
}

/* Expected exposure of `player`'s blots: for each blot, the most rolls any
 * enemy man behind it (or on the bar) has to hit it, weighted by how far
 * along the blot is. */
static double exposure(const bg_board_t *b, int player)
{
    const int8_t *me = b->men[player], *opp = b->men[1 - player];
    double risk = 0;
    for (int q = 1; q <= 24; q++) {
        if (me[q] != 1) continue;
        int best = 0;
        /* an enemy man on his point r sits on my point 25 - r and moves toward my higher points */
        for (int r = 1; r <= BG_BAR; r++) {
            if (!opp[r]) continue;
            int at = r == BG_BAR ? 0 : 25 - r;
            int rolls = hit_rolls(q - at);
            if (rolls > best) best = rolls;
        }
        risk += best / 36.0 * (25 - q) / 24.0; /* a hit far along costs more pips */
    }
    return risk;
}

static int longest_prime(const int8_t *me)
{
    int best = 0, run = 0;
    for (int q = 1; q <= 24; q++) {
        run = me[q] >= 2 ? run + 1 : 0;
        if (run > best) best = run;
    }
    return best;
}

static double side_score(const bg_board_t *b, int player)
{
    const int8_t *me = b->men[player];
    int home_points = 0, home_men = 0;
    for (int q = 1; q <= 6; q++) {
        home_points += me[q] >= 2;
        home_men += me[q];
    }
    return 0.25 * me[BG_OFF] + 0.12 * home_points + 0.03 * home_men + 0.10 * longest_prime(me) -
           0.9 * exposure(b, player) - 0.25 * me[BG_BAR];
}

double bg_evaluate(const game_t *g, const void *sv, int player)
{
    const bg_state_t *s = sv;
    if (s->phase == BG_OVER) {
        double r[2];
        bg_returns(g, s, r);
        return r[player];
    }
    const bg_board_t *b = &s->board;
    double race = (bg_pips(b, 1 - player) - bg_pips(b, player)) / 40.0;
    double x = race + side_score(b, player) - side_score(b, 1 - player);
    return 0.95 * tanh(x);
}

/* Hits are the noisy steps: they change the race by many pips. */
bool bg_is_noisy(const game_t *g, const void *sv, int action)
{
    (void)g;
    const bg_state_t *s = sv;
    if (s->phase != BG_PLAY) return false;
    int to = bg_step_to(action);
    return to != BG_OFF && s->board.men[1 - s->to_move][25 - to] == 1;
}
