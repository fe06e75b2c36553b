/* retro_unmove.c — chess un-moves for the retrograde solver
 * (retro_index_t.unmoves, games/retro_index.h): the moves that lead to a
 * position within its class, played backwards.
 *
 * Served: the pawnless classes. The side that moved last (not the side to
 * move) takes back a king, queen, rook, bishop or knight move: the piece
 * goes back from its square to an empty one it attacks along empty lines
 * (a move never passes over a man, and a non-capture leaves its square
 * empty). Captures are not un-made (they come from the smaller class) and
 * there is no un-castling (table positions have no castling rights). The
 * predecessor is kept when it is legal: the side to move in the position
 * given, not to move in the predecessor, is not in check there. Classes with
 * pawns are not served (the solver builds their move graph): a pawn's
 * retraction would also have to re-create the en-passant rights the index
 * keeps (games/chess/retro_index.c), and pawn classes need promotions. */
#include <string.h>

#include "core/error.h"
#include "games/chess/chess_internal.h"

int ch_unmove_class(const game_t *g, const char *name)
{
    (void)g;
    return strchr(name, 'P') == NULL && strchr(name, 'p') == NULL;
}

/* The squares a `type` piece on `sq` moves to without taking, given `occ`. */
static uint64_t quiet_targets(int type, int sq, uint64_t occ)
{
    uint64_t a = type == CH_KNIGHT   ? ch_knight_att[sq]
                 : type == CH_BISHOP ? ch_bishop_att(sq, occ)
                 : type == CH_ROOK   ? ch_rook_att(sq, occ)
                 : type == CH_QUEEN  ? ch_queen_att(sq, occ)
                                     : ch_king_att[sq];
    return a & ~occ;
}

int ch_unmoves(const game_t *g, const void *state, int (*visit)(const void *pred, void *ctx),
               void *ctx)
{
    (void)g;
    const ch_state_t *s = state;
    const ch_pos_t *p = &s->pos;
    if (p->pieces[CH_PAWN] || p->castling || p->ep != CH_NO_SQ)
        return hoyle_error(HOYLE_EUNSUP, "chess un-moves: pawnless positions only");
    int mover = p->side ^ 1, king = ch_king_sq(p, p->side);
    uint64_t occ = ch_occupied(p);
    ch_state_t prev;
    memcpy(&prev, s, sizeof prev);
    prev.nhist = 0, prev.result = CH_ONGOING, prev.reason = 0;
    ch_pos_t *q = &prev.pos;
    q->side = (uint8_t)mover, q->halfmove = 0;
    for (uint64_t men = p->colors[mover]; men; men &= men - 1) {
        int to = ch_lsb(men), piece = p->board[to], type = piece % 6;
        for (uint64_t from = quiet_targets(type, to, occ); from; from &= from - 1) {
            int f = ch_lsb(from);
            uint64_t swap = ch_bit(to) | ch_bit(f);
            q->pieces[type] ^= swap, q->colors[mover] ^= swap;
            q->board[to] = CH_EMPTY, q->board[f] = (uint8_t)piece;
            if (!ch_attacked(q, king, mover, occ ^ swap)) {
                q->key = ch_key_compute(q);
                int rc = visit(&prev, ctx);
                if (rc < 0) return rc;
            }
            q->pieces[type] ^= swap, q->colors[mover] ^= swap;
            q->board[f] = CH_EMPTY, q->board[to] = (uint8_t)piece;
        }
    }
    return 0;
}
