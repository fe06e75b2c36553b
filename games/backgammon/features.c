/* features.c — Backgammon's hand-made inputs for value learning (the game
 * contract's `features` slot: TD(λ)'s `expert` feature set, train/td.h) and
 * its outcome heads (win, gammon and backgammon for each side, as gnubg's
 * nets have them).
 *
 * The features of each side, from `player`'s view (his side first, then the
 * opponent's): pip count / 167 (the start), men borne off / 15, men on the
 * bar / 15, blots / 15, points made in the home table / 6, the longest prime
 * / 6, men back in the other side's home table or on the bar / 15, anchors
 * there / 6, and shots: the rolls of 36 with which the other side can hit
 * at least one of the side's blots, counting direct hits, combination shots
 * whose landing points are open, and (for the side on the bar) entering
 * first; blocks beyond the landing points are not checked, so it is the
 * classic approximation, not a move generation. Last, one feature: 1 when
 * contact is broken (a pure race). TD-Gammon 2 (Tesauro 1995) and gnubg add
 * inputs of this kind to the raw board. */
#include <string.h>

#include "games/backgammon/bg_internal.h"

#define BG_FEATURES_SIDE 9
#define BG_FEATURES      (2 * BG_FEATURES_SIDE + 1)

static int longest_prime(const int8_t *men)
{
    int best = 0, run = 0;
    for (int q = 1; q <= 24; q++) {
        run = men[q] >= 2 ? run + 1 : 0;
        if (run > best) best = run;
    }
    return best;
}

/* Can the attacker, with men at `from[]` (count per defender point: index 0
 * is his bar, 1..24 the defender's points, moving upwards), reach a defender
 * blot (blot[q]) with the dice steps `d` (n of them, doubles: 4), landing on
 * open points (open[q]) on the way? */
static bool roll_hits(const int *from, const bool *blot, const bool *open, const int *d, int n,
                      bool on_bar)
{
    for (int a = 0; a <= 24; a++) {
        if (!from[a] || (on_bar && a != 0)) continue;
        /* one die, or the dice in either order (two orders matter only for two dice) */
        for (int order = 0; order < (n == 2 ? 2 : 1); order++) {
            int at = a;
            for (int k = 0; k < n; k++) {
                int step = n == 2 ? d[(k + order) % 2] : d[k];
                at += step;
                if (at > 24 || !open[at]) break;
                if (blot[at]) return true;
            }
        }
    }
    return false;
}

/* Rolls of 36 with which the other side hits a blot of `side`. */
static int shots(const bg_board_t *b, int side)
{
    const int8_t *me = b->men[side], *opp = b->men[1 - side];
    bool blot[25] = {false}, open[25] = {false}, any = false;
    for (int q = 1; q <= 24; q++) {
        blot[q] = me[q] == 1;
        open[q] = me[q] <= 1;
        any |= blot[q];
    }
    if (!any) return 0;
    int from[25] = {0};
    from[0] = opp[BG_BAR];
    for (int r = 1; r <= 24; r++) from[25 - r] = opp[r];
    int total = 0;
    for (int d1 = 1; d1 <= 6; d1++)
        for (int d2 = d1; d2 <= 6; d2++) {
            int d[4] = {d1, d2, d1, d1}, n = d1 == d2 ? 4 : 2;
            if (roll_hits(from, blot, open, d, n, from[0] > 0)) total += d1 == d2 ? 1 : 2;
        }
    return total;
}

static void side_features(const bg_board_t *b, int side, float *out)
{
    const int8_t *me = b->men[side];
    int blots = 0, home = 0, back = me[BG_BAR], anchors = 0;
    for (int q = 1; q <= 24; q++) {
        blots += me[q] == 1;
        if (q <= 6) home += me[q] >= 2;
        if (q >= 19) {
            back += me[q];
            anchors += me[q] >= 2;
        }
    }
    out[0] = (float)bg_pips(b, side) / 167.0f;
    out[1] = (float)me[BG_OFF] / BG_MEN;
    out[2] = (float)me[BG_BAR] / BG_MEN;
    out[3] = (float)blots / BG_MEN;
    out[4] = (float)home / 6.0f;
    out[5] = (float)longest_prime(me) / 6.0f;
    out[6] = (float)back / BG_MEN;
    out[7] = (float)anchors / 6.0f;
    out[8] = (float)shots(b, side) / 36.0f;
}

/* Contact: some man of one side still has an enemy man ahead of it. */
static bool contact(const bg_board_t *b)
{
    int my_back = 0, their_back = 0; /* the farthest man of each, in player 0's numbering */
    for (int q = BG_BAR; q >= 1 && !my_back; q--)
        if (b->men[0][q]) my_back = q;
    for (int r = BG_BAR; r >= 1 && !their_back; r--)
        if (b->men[1][r]) their_back = 25 - r; /* his point r is player 0's 25 - r */
    return my_back > their_back;
}

int bg_features(const game_t *g, const void *sv, int player, float *out)
{
    (void)g;
    if (out == NULL) return BG_FEATURES;
    const bg_state_t *s = sv;
    side_features(&s->board, player, out);
    side_features(&s->board, 1 - player, out + BG_FEATURES_SIDE);
    out[2 * BG_FEATURES_SIDE] = contact(&s->board) ? 0.0f : 1.0f;
    return BG_FEATURES;
}

/* Heads: win, win a gammon (or more), win a backgammon, lose a gammon (or more), lose a
 * backgammon; from the other side, win is the complement of win and the gammon heads
 * swap. Single-game scoring pays 1 a game (2 p(win) - 1); scoring=points pays 1, 2, 3
 * scaled by 1/3 (bg_returns). */
void bg_outcome_heads(const game_t *g, game_outcome_heads_t *h)
{
    bool points = bg_impl(g)->points_scoring;
    *h = (game_outcome_heads_t){
        .n = 5,
        .names = {"win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"},
        .other = {0, 3, 4, 1, 2},
        .complement = {true, false, false, false, false},
        .weight = {2, 0, 0, 0, 0},
        .bias = -1,
    };
    if (points) {
        double w[5] = {2.0 / 3, 1.0 / 3, 1.0 / 3, -1.0 / 3, -1.0 / 3};
        memcpy(h->weight, w, sizeof w);
        h->bias = -1.0 / 3;
    }
}

void bg_outcome_targets(const game_t *g, const void *sv, int player, float *out)
{
    (void)g;
    const bg_state_t *s = sv;
    memset(out, 0, 5 * sizeof *out);
    if (s->phase != BG_OVER || s->result == BG_RESULT_NONE) return;
    if (s->result == BG_DRAW) { /* the max_turns safety net: half a win */
        out[0] = 0.5f;
        return;
    }
    bool won = s->winner == player;
    int kind = s->result; /* BG_SINGLE, BG_GAMMON, BG_BACKGAMMON */
    out[0] = won;
    out[won ? 1 : 3] = kind >= BG_GAMMON;
    out[won ? 2 : 4] = kind >= BG_BACKGAMMON;
}
