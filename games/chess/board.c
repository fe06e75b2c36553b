/* board.c — positions: Zobrist keys, placing pieces, making a move.
 *
 * ch_pos_make keeps every ch_pos_t invariant of chess_internal.h: the key is
 * updated incrementally, castling rights drop as soon as a king or rook
 * leaves its start square or a rook is taken there, and the en-passant
 * square is set only when the opponent can legally use it (FIDE's notion of
 * "the same position"). ch_state_make adds the repetition history. */
#include <string.h>

#include "games/chess/chess_internal.h"

uint64_t ch_z_piece[12][64], ch_z_castle[16], ch_z_ep[8], ch_z_side;

/* Rights kept after a move touching square sq: a king or rook leaving its
 * start square, or anything landing there (a capture), clears them. */
static uint8_t castle_keep[64];

/* Called once from ch_attacks_init (fixed seed: keys equal in every run). */
void ch_zobrist_build(void);
void ch_zobrist_build(void)
{
    uint64_t x = 0x2545F4914F6CDD1Dull;
    /* splitmix64 */
#define NEXT()                                                                                     \
    (x += 0x9E3779B97F4A7C15ull, ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull) ^                       \
                                     (((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull) >> 27))
    for (int p = 0; p < 12; p++)
        for (int sq = 0; sq < 64; sq++) ch_z_piece[p][sq] = NEXT() * 0x94D049BB133111EBull;
    uint64_t right[4];
    for (int i = 0; i < 4; i++) right[i] = NEXT() * 0x94D049BB133111EBull;
    for (int c = 0; c < 16; c++) {
        ch_z_castle[c] = 0;
        for (int i = 0; i < 4; i++)
            if (c & (1 << i)) ch_z_castle[c] ^= right[i];
    }
    for (int f = 0; f < 8; f++) ch_z_ep[f] = NEXT() * 0x94D049BB133111EBull;
    ch_z_side = NEXT() * 0x94D049BB133111EBull;
#undef NEXT
    for (int sq = 0; sq < 64; sq++) castle_keep[sq] = 15;
    castle_keep[4] = (uint8_t) ~(CH_WK | CH_WQ) & 15;
    castle_keep[0] = (uint8_t)~CH_WQ & 15;
    castle_keep[7] = (uint8_t)~CH_WK & 15;
    castle_keep[60] = (uint8_t) ~(CH_BK | CH_BQ) & 15;
    castle_keep[56] = (uint8_t)~CH_BQ & 15;
    castle_keep[63] = (uint8_t)~CH_BK & 15;
}

uint64_t ch_key_compute(const ch_pos_t *p)
{
    uint64_t k = 0;
    for (int sq = 0; sq < 64; sq++)
        if (p->board[sq] != CH_EMPTY) k ^= ch_z_piece[p->board[sq]][sq];
    k ^= ch_z_castle[p->castling];
    if (p->ep != CH_NO_SQ) k ^= ch_z_ep[ch_file(p->ep)];
    if (p->side) k ^= ch_z_side;
    return k;
}

void ch_pos_clear(ch_pos_t *p)
{
    memset(p, 0, sizeof *p);
    memset(p->board, CH_EMPTY, sizeof p->board);
    p->ep = CH_NO_SQ;
}

void ch_pos_put(ch_pos_t *p, int piece, int sq)
{
    p->board[sq] = (uint8_t)piece;
    p->pieces[ch_piece_type(piece)] |= ch_bit(sq);
    p->colors[ch_piece_color(piece)] |= ch_bit(sq);
}

void ch_pos_start(ch_pos_t *p)
{
    static const int back[8] = {CH_ROOK, CH_KNIGHT, CH_BISHOP, CH_QUEEN,
                                CH_KING, CH_BISHOP, CH_KNIGHT, CH_ROOK};
    ch_pos_clear(p);
    for (int f = 0; f < 8; f++) {
        ch_pos_put(p, back[f], f);
        ch_pos_put(p, CH_PAWN, 8 + f);
        ch_pos_put(p, 6 + CH_PAWN, 48 + f);
        ch_pos_put(p, 6 + back[f], 56 + f);
    }
    p->castling = CH_WK | CH_WQ | CH_BK | CH_BQ;
    p->key = ch_key_compute(p);
}

/* Moving and removing pieces with the key kept in step. */
static inline void move_piece(ch_pos_t *p, int piece, int from, int to)
{
    uint64_t ft = ch_bit(from) | ch_bit(to);
    p->pieces[ch_piece_type(piece)] ^= ft;
    p->colors[ch_piece_color(piece)] ^= ft;
    p->board[from] = CH_EMPTY;
    p->board[to] = (uint8_t)piece;
    p->key ^= ch_z_piece[piece][from] ^ ch_z_piece[piece][to];
}

static inline void remove_piece(ch_pos_t *p, int sq)
{
    int piece = p->board[sq];
    p->pieces[ch_piece_type(piece)] ^= ch_bit(sq);
    p->colors[ch_piece_color(piece)] ^= ch_bit(sq);
    p->board[sq] = CH_EMPTY;
    p->key ^= ch_z_piece[piece][sq];
}

static inline void add_piece(ch_pos_t *p, int piece, int sq)
{
    ch_pos_put(p, piece, sq);
    p->key ^= ch_z_piece[piece][sq];
}

bool ch_ep_legal(const ch_pos_t *p, int ep_sq)
{
    int us = p->side, them = us ^ 1;
    uint64_t takers = ch_pawn_att[them][ep_sq] & ch_pieces(p, us, CH_PAWN);
    if (!takers) return false;
    int victim = us == CH_WHITE ? ep_sq - 8 : ep_sq + 8;
    int ksq = ch_king_sq(p, us);
    uint64_t rq = (p->pieces[CH_ROOK] | p->pieces[CH_QUEEN]) & p->colors[them];
    uint64_t bq = (p->pieces[CH_BISHOP] | p->pieces[CH_QUEEN]) & p->colors[them];
    uint64_t others = p->colors[them] & ~ch_bit(victim);
    uint64_t leapers =
        (ch_knight_att[ksq] & p->pieces[CH_KNIGHT]) | (ch_pawn_att[us][ksq] & p->pieces[CH_PAWN]);
    for (; takers; takers &= takers - 1) {
        int from = ch_lsb(takers);
        uint64_t occ = (ch_occupied(p) ^ ch_bit(from) ^ ch_bit(victim)) | ch_bit(ep_sq);
        /* after the capture: no slider sees the king, and no knight or pawn
         * (other than the victim) gives check */
        if ((ch_rook_att(ksq, occ) & rq) || (ch_bishop_att(ksq, occ) & bq)) continue;
        if (leapers & others) continue;
        return true;
    }
    return false;
}

void ch_pos_make(ch_pos_t *p, ch_move_t m)
{
    int from = ch_from(m), to = ch_to(m), kind = ch_kind(m);
    int us = p->side, piece = p->board[from];
    p->halfmove++;
    if (p->ep != CH_NO_SQ) {
        p->key ^= ch_z_ep[ch_file(p->ep)];
        p->ep = CH_NO_SQ;
    }
    if (p->board[to] != CH_EMPTY) {
        remove_piece(p, to);
        p->halfmove = 0;
    }
    move_piece(p, piece, from, to);
    if (ch_piece_type(piece) == CH_PAWN) {
        p->halfmove = 0;
        if (kind == CH_MV_EP) {
            remove_piece(p, us == CH_WHITE ? to - 8 : to + 8);
        } else if (kind >= CH_MV_PROMO) {
            remove_piece(p, to);
            add_piece(p, us * 6 + ch_promo_type(m), to);
        }
    } else if (kind == CH_MV_CASTLE) {
        int rfrom = to > from ? to + 1 : to - 2, rto = to > from ? to - 1 : to + 1;
        move_piece(p, us * 6 + CH_ROOK, rfrom, rto);
    }
    uint8_t rights = p->castling & castle_keep[from] & castle_keep[to];
    if (rights != p->castling) {
        p->key ^= ch_z_castle[p->castling] ^ ch_z_castle[rights];
        p->castling = rights;
    }
    p->side ^= 1;
    p->key ^= ch_z_side;
    if (kind == CH_MV_DOUBLE) {
        int ep = (from + to) / 2;
        if (ch_ep_legal(p, ep)) {
            p->ep = (uint8_t)ep;
            p->key ^= ch_z_ep[ch_file(ep)];
        }
    }
}

void ch_state_start(const ch_game_t *cg, ch_state_t *s)
{
    (void)cg;
    memset(s, 0, sizeof *s);
    ch_pos_start(&s->pos);
    s->fullmove = 1;
}

void ch_state_make(const ch_game_t *cg, ch_state_t *s, ch_move_t m)
{
    uint64_t before = s->pos.key;
    uint8_t rights = s->pos.castling;
    ch_pos_make(&s->pos, m);
    if (s->pos.side == CH_WHITE) s->fullmove++;
    /* An irreversible move (capture, pawn move, or a castling right lost)
     * starts a new history: no earlier position can come back. */
    if (s->pos.halfmove == 0 || rights != s->pos.castling) {
        memset(s->hist, 0, sizeof(uint64_t) * s->nhist);
        s->nhist = 0;
    } else {
        if (s->nhist == CH_HIST_MAX) {
            /* only reachable from a FEN with a large halfmove clock: drop
             * the oldest (it is more than 100 plies back) */
            memmove(s->hist, s->hist + 1, sizeof(uint64_t) * (CH_HIST_MAX - 1));
            s->nhist--;
        }
        s->hist[s->nhist++] = before;
    }
    ch_state_finish(cg, s);
}
