/* retro_unmove.c — chess un-moves for the retrograde solver
 * (retro_index_t.unmoves, games/retro_index.h): the moves that lead to a
 * position within its class, played backwards.
 *
 * In a position S the side that moved last, M (not the side to move, X),
 * takes back one move that neither took nor promoted (captures and
 * promotions leave the class: their values come from the smaller tables):
 *   - a king, queen, rook, bishop or knight move: the piece goes back from
 *     its square to an empty one it attacks along empty lines (a move never
 *     passes over a man, and a non-capture leaves its square empty);
 *   - a pawn's step: one square back, never onto M's first rank; or a double
 *     step, from M's 4th rank back to its 2nd over an empty square.
 * The en-passant right the index keeps (games/chess/retro_index.c) is kept
 * as the game sets it (ch_pos_make: only when the capture is legal):
 *   - when S has it, the last move was that double step, S's only un-move;
 *   - without it, a double step is an un-move only when it leaves X no legal
 *     capture en passant (else the move would have given S the right);
 *   - each predecessor P comes without the right and, as well, with each one
 *     M could hold there: X's pawn on X's 4th rank with the two squares
 *     behind it empty, taken legally by an M pawn (X's previous move was that
 *     double step and M did not take). Those are distinct indices.
 * There is no un-castling (table positions have no castling rights). A
 * predecessor is kept when it is legal: X, not to move in P, is not in check
 * there. tests/test_retro.c checks these sets against every one-man change
 * of sampled positions tried forward, and the tables against the move-graph
 * generator's byte for byte. */
#include <string.h>

#include "core/error.h"
#include "games/chess/chess_internal.h"

int ch_unmove_class(const game_t *g, const char *name)
{
    (void)g, (void)name;
    return 1;
}

typedef struct un {
    ch_state_t prev; /* the predecessor being built: M to move */
    int x, m;        /* the side to move in S, and the side that moved last */
    int (*visit)(const void *pred, void *ctx);
    void *ctx;
} un_t;

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

/* Visit the predecessor in u->prev (no en-passant right) when X is not in
 * check there, then once for each en-passant right M could hold in it. */
static int emit(un_t *u)
{
    ch_pos_t *q = &u->prev.pos;
    uint64_t occ = ch_occupied(q);
    if (ch_attacked(q, ch_king_sq(q, u->x), u->m, occ)) return 0;
    q->ep = CH_NO_SQ, q->key = ch_key_compute(q);
    int rc = u->visit(&u->prev, u->ctx);
    /* X's pawns that may have just stepped two: on X's 4th rank */
    uint64_t fourth = u->x == CH_WHITE ? 0x00000000FF000000ull : 0x000000FF00000000ull;
    int back = u->x == CH_WHITE ? -8 : 8;
    for (uint64_t b = ch_pieces(q, u->x, CH_PAWN) & fourth; b && rc >= 0; b &= b - 1) {
        int sq = ch_lsb(b), ep = sq + back;
        if ((occ & (ch_bit(ep) | ch_bit(ep + back))) || !ch_ep_legal(q, ep)) continue;
        q->ep = (uint8_t)ep, q->key = ch_key_compute(q);
        rc = u->visit(&u->prev, u->ctx);
    }
    q->ep = CH_NO_SQ;
    return rc < 0 ? rc : 0;
}

/* Move M's man `piece` from `to` back to `from` in u->prev, emit, and undo. */
static int retract(un_t *u, int piece, int to, int from)
{
    ch_pos_t *q = &u->prev.pos;
    int type = piece % 6;
    uint64_t swap = ch_bit(to) | ch_bit(from);
    q->pieces[type] ^= swap, q->colors[u->m] ^= swap;
    q->board[to] = CH_EMPTY, q->board[from] = (uint8_t)piece;
    int rc = emit(u);
    q->pieces[type] ^= swap, q->colors[u->m] ^= swap;
    q->board[from] = CH_EMPTY, q->board[to] = (uint8_t)piece;
    return rc;
}

/* The retractions of M's king, queens, rooks, bishops and knights. */
static int piece_unmoves(un_t *u, const ch_pos_t *p)
{
    uint64_t occ = ch_occupied(p);
    for (uint64_t men = p->colors[u->m] & ~p->pieces[CH_PAWN]; men; men &= men - 1) {
        int to = ch_lsb(men), piece = p->board[to];
        for (uint64_t from = quiet_targets(piece % 6, to, occ); from; from &= from - 1) {
            int rc = retract(u, piece, to, ch_lsb(from));
            if (rc < 0) return rc;
        }
    }
    return 0;
}

/* The retractions of M's pawns: a step (not from M's first rank) and a
 * double step from M's 4th rank; with S's en-passant right, only the double
 * step that gave it (file comment). */
static int pawn_unmoves(un_t *u, const ch_pos_t *p)
{
    uint64_t occ = ch_occupied(p);
    int back = u->m == CH_WHITE ? -8 : 8, piece = u->m * 6 + CH_PAWN;
    int first = u->m == CH_WHITE ? 0 : 7, fourth = u->m == CH_WHITE ? 3 : 4;
    for (uint64_t men = ch_pieces(p, u->m, CH_PAWN); men; men &= men - 1) {
        int to = ch_lsb(men), mid = to + back, rc = 0;
        if (p->ep == CH_NO_SQ && ch_rank(mid) != first && !(occ & ch_bit(mid)))
            rc = retract(u, piece, to, mid);
        bool dbl = ch_rank(to) == fourth && !(occ & (ch_bit(mid) | ch_bit(mid + back)));
        if (dbl && (p->ep == CH_NO_SQ ? !ch_ep_legal(p, mid) : p->ep == mid) && rc >= 0)
            rc = retract(u, piece, to, mid + back);
        if (rc < 0) return rc;
    }
    return 0;
}

int ch_unmoves(const game_t *g, const void *state, int (*visit)(const void *pred, void *ctx),
               void *ctx)
{
    (void)g;
    const ch_state_t *s = state;
    const ch_pos_t *p = &s->pos;
    if (p->castling)
        return hoyle_error(HOYLE_EUNSUP, "chess un-moves: positions with castling rights");
    un_t *u = &(un_t){.x = p->side, .m = p->side ^ 1, .visit = visit, .ctx = ctx};
    memcpy(&u->prev, s, sizeof u->prev);
    u->prev.nhist = 0, u->prev.result = CH_ONGOING, u->prev.reason = 0;
    u->prev.pos.side = (uint8_t)u->m, u->prev.pos.halfmove = 0;
    int rc = p->ep == CH_NO_SQ ? piece_unmoves(u, p) : 0;
    if (rc == 0 && p->pieces[CH_PAWN] & p->colors[u->m]) rc = pawn_unmoves(u, p);
    return rc;
}
