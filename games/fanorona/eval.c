/* eval.c — Fanorona heuristic and noisy-action test.
 *
 * The heuristic counts material (a piece 1.0) plus a small bonus for pieces
 * on the strong points, those with diagonals (eight lines instead of four:
 * more ways to capture and to escape). In the véla form, while the
 * restrictions hold, only the strong points count: Black gives up his
 * pieces by rule, and the phase is about where the survivors stand.
 * The difference maps through tanh into (-1, 1) (terminal states get their
 * returns, exactly -1, 0 or 1); fn_eval_terms gives the same as a linear model
 * for TDLeaf(λ) to learn. Captures (approach and withdrawal steps) are noisy:
 * quiescence search extends them, and so whole chains. */
#include <math.h>

#include "games/fanorona/fanorona_internal.h"

#define STRONG_BONUS 0.1 /* a piece on a point with diagonals */
#define EVAL_SCALE   4.0 /* material difference that maps to tanh(1) */

/* Points with (row + col) even: the ones the diagonals pass through. */
static uint64_t strong_points(void)
{
    uint64_t x = 0;
    for (int p = 0; p < FN_POINTS; p++)
        if ((p / FN_COLS + p % FN_COLS) % 2 == 0) x |= fn_bit(p);
    return x;
}

/* Piece counts, all and on strong points, of each side. */
static void side_counts(const fn_state_t *s, int count[2], int strong_count[2])
{
    uint64_t strong = strong_points();
    for (int c = 0; c < 2; c++) {
        count[c] = fn_popcount(s->bb[c]);
        strong_count[c] = fn_popcount(s->bb[c] & strong);
    }
}

double fn_evaluate(const game_t *g, const void *sv, int player)
{
    const fn_game_t *fg = fn_game(g);
    const fn_state_t *s = sv;
    if (s->result != FN_ONGOING) {
        double r[2];
        g->vt->returns(g, s, r);
        return r[player];
    }
    int count[2], strong[2];
    side_counts(s, count, strong);
    double score[2];
    for (int c = 0; c < 2; c++)
        score[c] = (fn_vela_active(fg, s) ? 0 : count[c]) + STRONG_BONUS * strong[c];
    double v = tanh((score[FN_WHITE] - score[FN_BLACK]) / EVAL_SCALE);
    return player == FN_WHITE ? v : -v;
}

/* The heuristic as a linear model (the eval_terms slot, games/game.h): material (0 while
 * the véla restrictions hold) and the strong points, weighted as fn_evaluate does, then
 * terms it lacks at weight 0 for TDLeaf(λ) to weigh: whether the side to move must capture,
 * its steps when it need not (mobility), pieces on the middle row and on the board's edge.
 * Each is `player`'s minus the opponent's, or the side to move's with its sign. */
enum { FNT_MATERIAL, FNT_STRONG, FNT_CAPTURE, FNT_MOBILITY, FNT_MIDDLE, FNT_EDGE, FNT_COUNT };

static uint64_t row_points(int row) { return ((UINT64_C(1) << FN_COLS) - 1) << (row * FN_COLS); }

static uint64_t edge_points(void)
{
    uint64_t x = row_points(0) | row_points(FN_ROWS - 1);
    for (int r = 0; r < FN_ROWS; r++) x |= fn_bit(r * FN_COLS) | fn_bit(r * FN_COLS + FN_COLS - 1);
    return x;
}

int fn_eval_terms(const game_t *g, const void *sv, int player, double *out, const char **names,
                  double *weights)
{
    if (sv == NULL) {
        static const char *const n[FNT_COUNT] = {"material", "strong_points", "must_capture",
                                                 "mobility", "middle_row",    "edge"};
        static const double w[FNT_COUNT] = {1 / EVAL_SCALE, STRONG_BONUS / EVAL_SCALE, 0, 0, 0, 0};
        for (int i = 0; i < FNT_COUNT; i++) names[i] = n[i], weights[i] = w[i];
        return FNT_COUNT;
    }
    const fn_game_t *fg = fn_game(g);
    const fn_state_t *s = sv;
    int count[2], strong[2], me = player, opp = player ^ 1;
    side_counts(s, count, strong);
    for (int i = 0; i < FNT_COUNT; i++) out[i] = 0;
    if (!fn_vela_active(fg, s)) out[FNT_MATERIAL] = count[me] - count[opp];
    out[FNT_STRONG] = strong[me] - strong[opp];
    uint64_t middle = row_points(FN_ROWS / 2), edge = edge_points();
    out[FNT_MIDDLE] = fn_popcount(s->bb[me] & middle) - fn_popcount(s->bb[opp] & middle);
    out[FNT_EDGE] = fn_popcount(s->bb[me] & edge) - fn_popcount(s->bb[opp] & edge);
    int legal[FN_MAX_LEGAL];
    int n = fn_legal_actions(fg, s, legal);
    double sign = s->side == player ? 1 : -1;
    if (s->chain != 0 || (n > 0 && fn_is_noisy(g, s, legal[0])))
        out[FNT_CAPTURE] = sign;
    else
        out[FNT_MOBILITY] = sign * n;
    return FNT_COUNT;
}

bool fn_is_noisy(const game_t *g, const void *s, int action)
{
    (void)g;
    (void)s;
    return action >= 0 && action < FN_STOP && fn_action_kind(action) != FN_PAIKA;
}
