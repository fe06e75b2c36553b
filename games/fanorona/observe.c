/* observe.c — Fanorona's observation tensor and board reflections.
 *
 * Observation: FN_PLANES planes of 5 x 9 (row A first) from `player`'s view;
 * Black (player 1) sees the board turned 180 degrees, so each side sees its
 * own pieces start on the two bottom rows (the set-up is symmetric under the
 * turn with the colours swapped). Planes:
 *   0 own pieces          1 enemy pieces
 *   2 the piece in a capture chain (the mover's)
 *   3 the points that piece stood on this turn (it may not return)
 *   4 the point the direction rule closes to it (chain + last direction)
 *   5 all ones while the game's first move (one capture only) is to be made
 *   6 all ones while the véla restrictions hold
 *   7 the draw counter, quiet / draw_moves, on every point
 *
 * Symmetries: the 5 x 9 board has no quarter turns; its reflections are
 * given by the sym_t names read on its (row, col): SYM_FLIP_ROWS row r ->
 * 4 - r (A <-> E), SYM_FLIP_COLS col c -> 8 - c (1 <-> 9), SYM_ROT180 both.
 * Each maps points with row + col even to such points (4 and 8 are even), so
 * the diagonals, and with them the rules, are preserved. */
#include <string.h>

#include "games/fanorona/fanorona_internal.h"

void fn_symmetry_init(fn_game_t *fg)
{
    for (int k = 0; k < SYM_COUNT; k++) {
        bool fr = k == SYM_FLIP_ROWS || k == SYM_ROT180;
        bool fc = k == SYM_FLIP_COLS || k == SYM_ROT180;
        for (int p = 0; p < FN_POINTS; p++) {
            int r = p / FN_COLS, c = p % FN_COLS;
            if (fr) r = FN_ROWS - 1 - r;
            if (fc) c = FN_COLS - 1 - c;
            fg->sq_map[k][p] = (uint8_t)(r * FN_COLS + c);
        }
        for (int d = 0; d < FN_DIRS; d++) {
            int dr = fn_dirs[d][0] * (fr ? -1 : 1), dc = fn_dirs[d][1] * (fc ? -1 : 1);
            for (int e = 0; e < FN_DIRS; e++)
                if (fn_dirs[e][0] == dr && fn_dirs[e][1] == dc) fg->dir_map[k][d] = (uint8_t)e;
        }
    }
}

static uint64_t map_bits(const fn_game_t *fg, sym_t sym, uint64_t x)
{
    uint64_t y = 0;
    for (; x; x &= x - 1) y |= fn_bit(fg->sq_map[sym][fn_lsb(x)]);
    return y;
}

void fn_symmetry_state(const game_t *g, sym_t sym, const void *sv, void *out)
{
    const fn_game_t *fg = fn_game(g);
    const fn_state_t *s = sv;
    fn_state_t *t = out;
    *t = *s;
    for (int c = 0; c < 2; c++) t->bb[c] = map_bits(fg, sym, s->bb[c]);
    t->visited = map_bits(fg, sym, s->visited);
    if (s->chain) t->chain = (uint8_t)(fg->sq_map[sym][s->chain - 1] + 1);
    if (s->last_dir) t->last_dir = (uint8_t)(fg->dir_map[sym][s->last_dir - 1] + 1);
    t->hash = fn_hash_compute(fg, t);
}

int fn_symmetry_action(const game_t *g, sym_t sym, int action)
{
    const fn_game_t *fg = fn_game(g);
    if (action < 0 || action >= FN_STOP) return action;
    return fn_action(fg->sq_map[sym][fn_action_from(action)],
                     fg->dir_map[sym][fn_action_dir(action)], fn_action_kind(action));
}

void fn_observe(const game_t *g, const void *sv, int player, float *out)
{
    const fn_game_t *fg = fn_game(g);
    const fn_state_t *s = sv;
    const int plane = FN_POINTS;
    memset(out, 0, sizeof(float) * FN_PLANES * FN_POINTS);
    /* Black sees the board turned: point p is drawn at FN_POINTS - 1 - p */
    int me = player == FN_BLACK ? FN_BLACK : FN_WHITE;
#define AT(pl, p) out[(pl)*plane + (me == FN_BLACK ? FN_POINTS - 1 - (p) : (p))]
    for (int p = 0; p < FN_POINTS; p++) {
        if (s->bb[me] & fn_bit(p)) AT(0, p) = 1.0f;
        if (s->bb[me ^ 1] & fn_bit(p)) AT(1, p) = 1.0f;
        if (s->visited & fn_bit(p)) AT(3, p) = 1.0f;
    }
    if (s->chain) {
        int p = s->chain - 1, q = fg->nbr[p][s->last_dir - 1];
        AT(2, p) = 1.0f;
        if (q >= 0) AT(4, q) = 1.0f;
    }
#undef AT
    float quiet = (float)s->quiet / (float)fg->draw_moves;
    for (int p = 0; p < FN_POINTS; p++) {
        out[5 * plane + p] = s->opening ? 1.0f : 0.0f;
        out[6 * plane + p] = fn_vela_active(fg, s) ? 1.0f : 0.0f;
        out[7 * plane + p] = quiet;
    }
}
