/* eval.c — a quick heuristic for alpha-beta and greedy agents, and the
 * captures that quiescence search extends.
 *
 * Score for `player`, squashed by tanh into (-1, 1):
 *   material: man 1, king 1.5 (3 for a Polish flying king);
 *   advancement: 0.05 per row a man has gone towards its king row;
 *   mobility: 0.02 per legal step of the side to move (sign by side), in
 *     quiet positions only: when the side to move must capture, its few
 *     legal steps are a threat, not a lack of room, and it gets 0.9 (most
 *     of a man) instead — otherwise a one-ply search would offer men to
 *     forced captures to cut the opponent's mobility.
 * Losing Game: the material term is negated (fewer pieces is better).
 * Devil: tailors (White) gain with the devil's lack of room, 0.25 per
 * missing devil move, and lose 0.5 per tailor row the devil has passed. */
#include <math.h>

#include "games/checkers/checkers_internal.h"

static double side_score(const ck_game_t *cg, const ck_state_t *s, int c)
{
    uint32_t men = s->bb[c] & ~s->kings, kings = s->bb[c] & s->kings;
    double v = ck_popcount(men) + (cg->flying ? 3.0 : 1.5) * ck_popcount(kings);
    if (cg->variant == CK_LOSING) v = -v;
    for (uint32_t b = men; b; b &= b - 1) {
        int row = ck_row(ck_lsb(b));
        v += 0.05 * (c == 0 ? row : 7 - row);
    }
    return v;
}

double ck_evaluate(const game_t *g, const void *state, int player)
{
    const ck_game_t *cg = ck_game(g);
    const ck_state_t *s = state;
    int legal[CK_MAX_LEGAL];
    int n = ck_legal_actions(cg, s, legal);
    double sign = s->side == player ? 1 : -1;
    bool must_capture =
        s->chain != 0 ||
        (cg->huff ? ck_has_capture(cg, s->bb[s->side], s->bb[s->side ^ 1], s->kings, s->side)
                  : n > 0 && ck_is_capture(s, legal[0]));
    double mob = must_capture ? 0.9 * sign : 0.02 * n * sign;
    if (cg->variant == CK_DEVIL) {
        int devil = ck_lsb(s->bb[0] | 1u);
        uint32_t t = ck_quiet_targets(cg, s->bb[0], s->bb[1], devil, true, 0);
        double white = 0.25 * (4 - ck_popcount(t));
        for (uint32_t b = s->bb[1]; b; b &= b - 1)
            if (ck_row(ck_lsb(b)) < ck_row(devil)) white -= 0.5;
        return tanh((player == 1 ? white : -white) * 0.5);
    }
    double v = side_score(cg, s, player) - side_score(cg, s, player ^ 1) + mob;
    return tanh(v * 0.3);
}

bool ck_is_noisy(const game_t *g, const void *s, int action)
{
    (void)g;
    return ((const ck_state_t *)s)->chain != 0 || ck_is_capture(s, action);
}

/* The heuristic of English checkers as a linear model (the eval_terms slot, games/game.h):
 * the terms of ck_evaluate with its weights (0.3 x its scale), then three terms the hand-set
 * heuristic lacks, at weight 0 (men on their own back row, pieces on the eight centre
 * squares, pieces on the side columns), each as `player`'s count minus the opponent's.
 * Other variants have no linear model (0). */
enum {
    CKT_MEN,
    CKT_KINGS,
    CKT_ADVANCE,
    CKT_MOBILITY,
    CKT_THREAT,
    CKT_BACK,
    CKT_CENTRE,
    CKT_EDGE,
    CKT_COUNT
};

static void side_terms(const ck_state_t *s, int c, double *t, double sign)
{
    uint32_t men = s->bb[c] & ~s->kings, all = s->bb[c];
    t[CKT_MEN] += sign * ck_popcount(men);
    t[CKT_KINGS] += sign * ck_popcount(s->bb[c] & s->kings);
    for (uint32_t b = men; b; b &= b - 1) {
        int row = ck_row(ck_lsb(b));
        t[CKT_ADVANCE] += sign * (c == 0 ? row : 7 - row);
        t[CKT_BACK] += sign * (row == (c == 0 ? 0 : 7));
    }
    for (uint32_t b = all; b; b &= b - 1) {
        int sq = ck_lsb(b), row = ck_row(sq), col = ck_col(sq);
        t[CKT_CENTRE] += sign * (row >= 3 && row <= 4 && col >= 2 && col <= 5);
        t[CKT_EDGE] += sign * (col == 0 || col == 7);
    }
}

int ck_eval_terms(const game_t *g, const void *state, int player, double *out, const char **names,
                  double *weights)
{
    const ck_game_t *cg = ck_game(g);
    if (cg->variant != CK_ENGLISH || cg->flying) return 0;
    if (state == NULL) {
        static const char *const n[CKT_COUNT] = {"men",      "kings",        "advancement",
                                                 "mobility", "must_capture", "back_row",
                                                 "centre",   "edge"};
        static const double w[CKT_COUNT] = {0.3, 0.45, 0.015, 0.006, 0.27, 0, 0, 0};
        for (int i = 0; i < CKT_COUNT; i++) names[i] = n[i], weights[i] = w[i];
        return CKT_COUNT;
    }
    const ck_state_t *s = state;
    for (int i = 0; i < CKT_COUNT; i++) out[i] = 0;
    side_terms(s, player, out, 1);
    side_terms(s, player ^ 1, out, -1);
    int legal[CK_MAX_LEGAL];
    int n = ck_legal_actions(cg, s, legal);
    double sign = s->side == player ? 1 : -1;
    bool must_capture =
        s->chain != 0 ||
        (cg->huff ? ck_has_capture(cg, s->bb[s->side], s->bb[s->side ^ 1], s->kings, s->side)
                  : n > 0 && ck_is_capture(s, legal[0]));
    if (must_capture)
        out[CKT_THREAT] = sign;
    else
        out[CKT_MOBILITY] = sign * n;
    return CKT_COUNT;
}
