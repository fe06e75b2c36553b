/* observe.c — the observation planes and the board drawing.
 *
 * Planes [7][8][8], (row, col) of the 8x8 board seen by `player` so that the
 * player's men always move up (towards row 0): White (player 1) sees the
 * board as numbered (row 0 = squares 1-4), Black sees it turned half a
 * circle (square k <-> 33 - k).
 *   0 player's men        1 player's kings
 *   2 opponent's men      3 opponent's kings
 *   4 the piece in mid-capture (1 on its square)
 *   5 pieces already taken in that capture (still on the board)
 *   6 constant: reversible moves so far / 80 (the 40-move rule counter) */
#include <stdio.h>
#include <string.h>

#include "games/checkers/checkers_internal.h"

void ck_observe(const game_t *g, const void *state, int player, float *out)
{
    (void)g;
    const ck_state_t *s = state;
    memset(out, 0, sizeof(float) * CK_PLANES * 64);
    uint32_t own = s->bb[player], opp = s->bb[player ^ 1];
    uint32_t plane[6] = {own & ~s->kings,
                         own & s->kings,
                         opp & ~s->kings,
                         opp & s->kings,
                         s->chain ? ck_bit(s->chain - 1) : 0,
                         s->captured};
    for (int p = 0; p < 6; p++)
        for (uint32_t b = plane[p]; b; b &= b - 1) {
            /* Black's view turns the board: square k becomes 33 - k (1-based) */
            int sq = ck_lsb(b), v = player == 0 ? 31 - sq : sq;
            out[p * 64 + ck_row(v) * 8 + ck_col(v)] = 1.0f;
        }
    /* in variants without the draw rules quiet stays 0, so the plane is 0 */
    float q = (float)s->quiet / (float)CK_QUIET_MAX;
    for (int i = 0; i < 64; i++) out[6 * 64 + i] = q;
}

int ck_state_to_string(const game_t *g, const void *state, char *buf, size_t cap)
{
    const ck_state_t *s = state;
    char text[GAME_TEXT_MAX], fen[GAME_TEXT_MAX];
    size_t n = 0;
    for (int r = 0; r < 8; r++) {
        n += (size_t)snprintf(text + n, sizeof text - n, "  ");
        for (int c = 0; c < 8; c++) {
            char ch = ' ';
            /* only the dark squares are playable; they carry the numbers */
            if ((r + c) & 1) {
                int sq = r * 4 + c / 2;
                uint32_t bit = ck_bit(sq);
                ch = '.';
                if (s->bb[0] & bit) ch = (s->kings & bit) ? 'B' : 'b';
                if (s->bb[1] & bit) ch = (s->kings & bit) ? 'W' : 'w';
                if (s->captured & bit) ch = 'x';
            }
            n += (size_t)snprintf(text + n, sizeof text - n, "%c%s", ch, c < 7 ? " " : "");
        }
        n += (size_t)snprintf(text + n, sizeof text - n, "   %2d-%2d\n", r * 4 + 1, r * 4 + 4);
    }
    static const char *const who[2] = {"Black", "White"};
    if (s->result == CK_ONGOING)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s to move%s", who[s->side],
                              s->chain ? " (capture in progress)" : "");
    else if (s->result == CK_DRAW)
        n += (size_t)snprintf(text + n, sizeof text - n, "drawn");
    else
        n += (size_t)snprintf(text + n, sizeof text - n, "%s wins", who[s->result - CK_WIN0]);
    if (ck_position_to_string(g, s, fen, sizeof fen) >= 0)
        n += (size_t)snprintf(text + n, sizeof text - n, "\n%s\n", fen);
    if (n >= sizeof text) n = sizeof text - 1;
    if (n + 1 > cap) return hoyle_error(HOYLE_EFULL, "state_to_string: buffer too small");
    memcpy(buf, text, n + 1);
    return (int)n;
}
