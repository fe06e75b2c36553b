/* observe.c — the observation planes and the board drawing.
 *
 * Planes [21][8][8] from `player`'s view: row 0 is that player's back rank
 * (ranks flipped for Black, files kept), so the AlphaZero action encoding
 * and the planes agree for both colours.
 *    0-5  player's pawns, knights, bishops, rooks, queens, king
 *    6-11 the opponent's, same order
 *   12    all ones when the position has occurred before (once or more)
 *   13    all ones when it has occurred twice before (a third time ends it)
 *   14    all ones when `player` is White
 *   15-16 player's castling rights: king side, queen side (all ones if held)
 *   17-18 the opponent's
 *   19    constant: halfmove clock / 100 (the fifty-move rule)
 *   20    constant: full-move number / 200, capped at 1 */
#include <stdio.h>
#include <string.h>

#include "games/chess/chess_internal.h"

static void fill(float *plane, float v)
{
    for (int i = 0; i < 64; i++) plane[i] = v;
}

void ch_observe(const game_t *g, const void *state, int player, float *out)
{
    (void)g;
    const ch_state_t *s = state;
    const ch_pos_t *p = &s->pos;
    memset(out, 0, sizeof(float) * CH_PLANES * 64);
    int flip = player == CH_WHITE ? 0 : 56;
    for (uint64_t b = ch_occupied(p); b; b &= b - 1) {
        int sq = ch_lsb(b), piece = p->board[sq];
        int plane = ch_piece_type(piece) + (ch_piece_color(piece) == player ? 0 : 6);
        out[plane * 64 + (sq ^ flip)] = 1.0f;
    }
    int reps = ch_repetitions(s);
    if (reps >= 1) fill(out + 12 * 64, 1.0f);
    if (reps >= 2) fill(out + 13 * 64, 1.0f);
    if (player == CH_WHITE) fill(out + 14 * 64, 1.0f);
    int own_k = player == CH_WHITE ? CH_WK : CH_BK, own_q = player == CH_WHITE ? CH_WQ : CH_BQ;
    int opp_k = player == CH_WHITE ? CH_BK : CH_WK, opp_q = player == CH_WHITE ? CH_BQ : CH_WQ;
    if (p->castling & own_k) fill(out + 15 * 64, 1.0f);
    if (p->castling & own_q) fill(out + 16 * 64, 1.0f);
    if (p->castling & opp_k) fill(out + 17 * 64, 1.0f);
    if (p->castling & opp_q) fill(out + 18 * 64, 1.0f);
    fill(out + 19 * 64, (float)p->halfmove / (float)CH_FIFTY);
    fill(out + 20 * 64, s->fullmove >= 200 ? 1.0f : (float)s->fullmove / 200.0f);
}

int ch_state_to_string(const game_t *g, const void *state, char *buf, size_t cap)
{
    (void)g;
    const ch_state_t *s = state;
    const ch_pos_t *p = &s->pos;
    char text[GAME_TEXT_MAX], fen[128];
    size_t n = 0;
    for (int r = 7; r >= 0; r--) {
        n += (size_t)snprintf(text + n, sizeof text - n, "%d ", r + 1);
        for (int f = 0; f < 8; f++) {
            int piece = p->board[r * 8 + f];
            n += (size_t)snprintf(text + n, sizeof text - n, " %c",
                                  piece == CH_EMPTY ? '.' : "PNBRQKpnbrqk"[piece]);
        }
        n += (size_t)snprintf(text + n, sizeof text - n, "\n");
    }
    n += (size_t)snprintf(text + n, sizeof text - n, "   a b c d e f g h\n");
    static const char *const who[2] = {"White", "Black"};
    static const char *const why[] = {"",
                                      "checkmate",
                                      "stalemate",
                                      "fifty-move rule",
                                      "threefold repetition",
                                      "insufficient material"};
    if (s->result == CH_ONGOING)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s to move%s", who[p->side],
                              ch_in_check(p) ? " (in check)" : "");
    else if (s->result == CH_DRAW)
        n += (size_t)snprintf(text + n, sizeof text - n, "drawn (%s)", why[s->reason]);
    else
        n += (size_t)snprintf(text + n, sizeof text - n, "%s wins (%s)",
                              who[s->result - CH_WIN_WHITE], why[s->reason]);
    ch_fen_write(p, s->fullmove, fen, sizeof fen);
    n += (size_t)snprintf(text + n, sizeof text - n, "\n%s\n", fen);
    if (n >= sizeof text) n = sizeof text - 1;
    if (n + 1 > cap) return hoyle_error(HOYLE_EFULL, "state_to_string: buffer too small");
    memcpy(buf, text, n + 1);
    return (int)n;
}
