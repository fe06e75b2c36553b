/* chess_internal.h — what the files of games/chess/ share.
 *
 * Squares: 0..63, a1 = 0, b1 = 1, ..., h8 = 63 (square = rank * 8 + file).
 * Bitboards: bit k = square k. White is player 0 and moves first.
 * Pieces: colour * 6 + type in the mailbox board[], CH_EMPTY for none.
 *
 * Position invariants (ch_pos_t): pieces[t] & colors[c] are the pieces of
 * type t and colour c; board[] agrees with the bitboards; exactly one king
 * each; `ep` is the en-passant target square only when the side to move has
 * a LEGAL en-passant capture there (else CH_NO_SQ) — so positions equal
 * under FIDE's repetition rule (article 9.2.3) have equal `key`s; `castling`
 * holds only rights whose king and rook stand on their start squares.
 * `key` is the Zobrist hash of pieces, side, castling and ep.
 *
 * State invariants (ch_state_t): hist[0..nhist) are the keys of the earlier
 * positions since the last irreversible move (capture, pawn move, loss of
 * a castling right), oldest first, nhist <= halfmove <= CH_FIFTY; entries
 * past nhist are zero (equal positions are equal bytes). `result` is decided
 * whenever a move ends and never changes after.
 *
 * Moves inside the module are ch_move_t (from | to << 6 | kind << 12); the
 * game's actions are AlphaZero's 8x8x73 encoding (ch_move_to_action). */
#ifndef HOYLE_GAMES_CHESS_INTERNAL_H
#define HOYLE_GAMES_CHESS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"

enum { CH_WHITE = 0, CH_BLACK = 1 };
enum { CH_PAWN = 0, CH_KNIGHT, CH_BISHOP, CH_ROOK, CH_QUEEN, CH_KING };
#define CH_EMPTY     12  /* board[] of an empty square */
#define CH_NO_SQ     64  /* no en-passant square */
#define CH_FIFTY     100 /* plies without capture or pawn move: draw (fifty-move rule) */
#define CH_HIST_MAX  CH_FIFTY
#define CH_MAX_MOVES 256  /* legal moves in any position (218 is the known maximum) */
#define CH_ACTIONS   4672 /* 64 from-squares x 73 move types */

/* castling rights */
enum { CH_WK = 1, CH_WQ = 2, CH_BK = 4, CH_BQ = 8 };

/* ch_move_t kinds */
enum {
    CH_MV_NORMAL = 0,
    CH_MV_DOUBLE = 1, /* pawn double step */
    CH_MV_CASTLE = 2, /* king's two-square step; the rook follows */
    CH_MV_EP = 3,     /* en-passant capture */
    CH_MV_PROMO = 4,  /* 4 + (type - CH_KNIGHT): =N 4, =B 5, =R 6, =Q 7 */
};
typedef uint16_t ch_move_t;
static inline ch_move_t ch_move(int from, int to, int kind)
{
    return (ch_move_t)(from | to << 6 | kind << 12);
}
static inline int ch_from(ch_move_t m) { return m & 63; }
static inline int ch_to(ch_move_t m) { return (m >> 6) & 63; }
static inline int ch_kind(ch_move_t m) { return m >> 12; }
static inline bool ch_is_promo(ch_move_t m) { return ch_kind(m) >= CH_MV_PROMO; }
/* The promoted-to type (CH_KNIGHT..CH_QUEEN) of a promotion. */
static inline int ch_promo_type(ch_move_t m) { return CH_KNIGHT + ch_kind(m) - CH_MV_PROMO; }

/* game result (ch_state_t.result) and why it ended (ch_state_t.reason) */
enum { CH_ONGOING = 0, CH_WIN_WHITE, CH_WIN_BLACK, CH_DRAW };
enum {
    CH_END_NONE = 0,
    CH_END_MATE,
    CH_END_STALEMATE,
    CH_END_FIFTY,
    CH_END_REPETITION,
    CH_END_MATERIAL,
};

/* The bare position: what perft and search need to generate moves. */
typedef struct ch_pos {
    uint64_t pieces[6]; /* by type, both colours */
    uint64_t colors[2]; /* by colour */
    uint64_t key;       /* Zobrist: pieces, side, castling, ep */
    uint8_t board[64];  /* colour * 6 + type, or CH_EMPTY */
    uint8_t side;       /* colour to move */
    uint8_t castling;   /* CH_WK | CH_WQ | CH_BK | CH_BQ */
    uint8_t ep;         /* legal en-passant target square, or CH_NO_SQ */
    uint8_t halfmove;   /* plies since the last capture or pawn move */
    uint8_t pad[4];
} ch_pos_t;

/* The game state: a position plus what the draw rules and the move number
 * need. About 1 KB, pointer-free. */
typedef struct ch_state {
    ch_pos_t pos;
    uint16_t fullmove; /* FEN full-move number, from 1 */
    uint8_t result;    /* CH_ONGOING ... CH_DRAW */
    uint8_t reason;    /* CH_END_* */
    uint8_t nhist;     /* entries in hist */
    uint8_t prelude;   /* odds=pawn_two_moves: the receiver's moves left in his first turn */
    uint8_t pad[2];
    uint64_t hist[CH_HIST_MAX]; /* earlier keys since the last irreversible move */
} ch_state_t;

/* The immutable game description (g->impl). */
typedef struct ch_game {
    bool material_draw; /* insufficient material ends the game (default) */
    bool seed_values;   /* eval: the seed's piece values (values=seed), else standard */
    int odds;           /* CH_ODDS_*: the odds= parameter (odds.c) */
    ch_state_t start;   /* the start position of those odds */
} ch_game_t;

/* ---- odds.c: games at odds ---- */
enum {
    CH_ODDS_NONE = 0,
    CH_ODDS_PAWN_MOVE,
    CH_ODDS_PAWN_TWO_MOVES,
    CH_ODDS_QKNIGHT,
    CH_ODDS_KKNIGHT,
    CH_ODDS_QROOK,
    CH_ODDS_KROOK,
    CH_ODDS_QUEEN,
    CH_ODDS_EXCHANGE,
    CH_ODDS_NB
};
/* Set cg->odds and cg->start (cg->material_draw set first); the choice's
 * index in the parameter. */
int ch_odds_init(ch_game_t *cg, int odds);
const char *ch_odds_name(int odds);
/* The hash term of the prelude counter (0 when none). */
uint64_t ch_odds_key(const ch_state_t *s);
/* Keep only the moves the prelude allows (none past the fourth rank): the
 * new count; n when no prelude is on. */
int ch_odds_filter(const ch_state_t *s, ch_move_t *moves, int n);
bool ch_odds_allows(const ch_state_t *s, ch_move_t m);
/* ch_state_make, then the prelude: the receiver keeps the turn while moves
 * of his opening turn are left. */
void ch_odds_make(const ch_game_t *cg, ch_state_t *s, ch_move_t m);
/* FEN, plus " moves_left=N" while a prelude is on; read back likewise. */
int ch_odds_position_to_string(const ch_state_t *s, char *buf, size_t cap);
int ch_odds_position_from_string(const ch_game_t *cg, const char *text, ch_state_t *out);

static inline const ch_game_t *ch_game(const game_t *g) { return (const ch_game_t *)g->impl; }

/* The POPCNT instruction where the build enables it (HOYLE_POPCNT, README "Build options"); else
 * a SWAR popcount, since without -mpopcnt __builtin_popcountll is a libgcc call. */
static inline int ch_popcount(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}
static inline int ch_lsb(uint64_t x) { return __builtin_ctzll(x); }
static inline uint64_t ch_bit(int sq) { return 1ull << sq; }
static inline int ch_rank(int sq) { return sq >> 3; }
static inline int ch_file(int sq) { return sq & 7; }
static inline int ch_piece_color(int piece) { return piece / 6; }
static inline int ch_piece_type(int piece) { return piece % 6; }
static inline uint64_t ch_pieces(const ch_pos_t *p, int color, int type)
{
    return p->pieces[type] & p->colors[color];
}
static inline uint64_t ch_occupied(const ch_pos_t *p) { return p->colors[0] | p->colors[1]; }
static inline int ch_king_sq(const ch_pos_t *p, int color)
{
    return ch_lsb(ch_pieces(p, color, CH_KING));
}

/* ---- attacks.c: tables built once per process (fancy magic bitboards
 * found from a fixed seed), thread-safe ---- */
typedef struct ch_magic {
    uint64_t mask, magic;
    const uint64_t *table;
    int shift;
} ch_magic_t;
extern ch_magic_t ch_bishop_magic[64];
/* Rooks by "kindergarten" tables, 4.5 KB that stay in the first-level cache (a rook magic
 * table is 800 KB, and random games, which visit scattered positions, missed it): the
 * rank's six inner squares index ch_rank_att[file] (the rank's attacks as 8 bits); the
 * file's, gathered into six bits by one multiply, ch_file_att[rank] (attacks on file a). */
extern uint8_t ch_rank_att[8][64];
extern uint64_t ch_file_att[8][64];
#define CH_FILE_GATHER 0x0080402010080400ull /* a2..a7 -> bits 63..58 of the product */
extern uint64_t ch_knight_att[64], ch_king_att[64], ch_pawn_att[2][64];
extern uint64_t ch_between[64][64]; /* squares strictly between two aligned squares, else 0 */
extern uint64_t ch_line[64][64];    /* the whole line through two aligned squares, else 0 */
/* Build every table (idempotent; call before any lookup: game create does). */
void ch_attacks_init(void);
static inline uint64_t ch_rook_att(int sq, uint64_t occ)
{
    int r = ch_rank(sq), f = ch_file(sq);
    uint64_t rank = (uint64_t)ch_rank_att[f][(occ >> (r * 8 + 1)) & 63] << (r * 8);
    uint64_t file = ((occ >> f) & 0x0101010101010101ull) * CH_FILE_GATHER >> 58;
    return rank | ch_file_att[r][file] << f;
}
static inline uint64_t ch_bishop_att(int sq, uint64_t occ)
{
    const ch_magic_t *m = &ch_bishop_magic[sq];
    return m->table[((occ & m->mask) * m->magic) >> m->shift];
}
static inline uint64_t ch_queen_att(int sq, uint64_t occ)
{
    return ch_rook_att(sq, occ) | ch_bishop_att(sq, occ);
}
/* Pieces of both colours attacking `sq` with occupancy `occ`. */
uint64_t ch_attackers(const ch_pos_t *p, int sq, uint64_t occ);
/* Whether colour `by` attacks `sq` with occupancy `occ`. */
bool ch_attacked(const ch_pos_t *p, int sq, int by, uint64_t occ);
/* Pieces giving check to the side to move. */
static inline uint64_t ch_checkers(const ch_pos_t *p)
{
    return ch_attackers(p, ch_king_sq(p, p->side), ch_occupied(p)) & p->colors[p->side ^ 1];
}
static inline bool ch_in_check(const ch_pos_t *p) { return ch_checkers(p) != 0; }

/* ---- board.c ---- */
/* Zobrist keys (fixed seed, built by ch_attacks_init's once). */
extern uint64_t ch_z_piece[12][64], ch_z_castle[16], ch_z_ep[8], ch_z_side;
uint64_t ch_key_compute(const ch_pos_t *p);
/* An empty position (no pieces, White to move, no rights). */
void ch_pos_clear(ch_pos_t *p);
void ch_pos_put(ch_pos_t *p, int piece, int sq);
void ch_pos_start(ch_pos_t *p);
/* Make a legal move in place: updates everything including key, ep (set
 * only when the opponent can legally take en passant) and halfmove. */
void ch_pos_make(ch_pos_t *p, ch_move_t m);
/* Whether the side to move has a legal en-passant capture onto `ep_sq`. */
bool ch_ep_legal(const ch_pos_t *p, int ep_sq);
/* The start position as a state; make a move on a state (keeps the
 * repetition history, decides the result with ch_state_finish). */
void ch_state_start(const ch_game_t *cg, ch_state_t *s);
void ch_state_make(const ch_game_t *cg, ch_state_t *s, ch_move_t m);

/* ---- movegen.c ---- */
/* Every legal move of the side to move, written to out (CH_MAX_MOVES room);
 * returns the count. Order: by piece, not sorted. */
int ch_gen_legal(const ch_pos_t *p, ch_move_t *out);
/* Only the legal captures (en passant included) and promotions, in the
 * order ch_gen_legal gives them (quiescence's moves). */
int ch_gen_noisy(const ch_pos_t *p, ch_move_t *out);
/* Only the count (perft's bulk counting). */
int ch_count_legal(const ch_pos_t *p);
/* Whether the side to move has any legal move. */
bool ch_has_legal(const ch_pos_t *p);
/* The legal moves as each from-square's destination set, tgt[from] (written for the squares
 * of the mover's men only, 0 for one without moves; a promotion is one bit for its four
 * moves); returns the count ch_gen_legal would (a random playout's pick,
 * ch_targets_action_at, needs no list). */
int ch_gen_targets(const ch_pos_t *p, uint64_t tgt[64]);
/* Whether `m` (legal) captures (en passant included). */
static inline bool ch_is_capture(const ch_pos_t *p, ch_move_t m)
{
    return p->board[ch_to(m)] != CH_EMPTY || ch_kind(m) == CH_MV_EP;
}
/* Whether the legal move `m` gives check. */
bool ch_gives_check(const ch_pos_t *p, ch_move_t m);

/* ---- rules.c ---- */
/* The AlphaZero action of the legal move `m` (mover's view), and back:
 * the legal move an action names, or 0 (no move is 0: from == to) when the
 * action is not legal in `p`. */
int ch_move_to_action(const ch_pos_t *p, ch_move_t m);
ch_move_t ch_action_to_move(const ch_pos_t *p, int action);
/* The actions of the legal moves m[0..n) of `p`, ascending, into out. */
void ch_moves_to_actions(const ch_pos_t *p, const ch_move_t *m, int n, int *out);
/* What ch_moves_to_actions would write at out[k], 0 <= k < n (n from ch_gen_targets),
 * given the moves as ch_gen_targets' destination sets, without listing them (a random
 * playout's uniform pick). */
int ch_targets_action_at(const ch_pos_t *p, const uint64_t tgt[64], int k);
/* The move an action names, unchecked (apply's fast path: `action` must be
 * legal in `p`); 0 when it names no move at all. */
ch_move_t ch_action_decode(const ch_pos_t *p, int action);
/* Neither side can mate by any series of legal moves in the cases hoyle
 * detects: K v K, K+minor v K, K+B v K+B with bishops on one colour. */
bool ch_insufficient(const ch_pos_t *p);
/* How many earlier positions in the history equal the current one. */
int ch_repetitions(const ch_state_t *s);
/* Decide s->result / s->reason after a move (or a FEN load). */
void ch_state_finish(const ch_game_t *cg, ch_state_t *s);
uint64_t ch_perft(const game_t *g, const void *s, int depth);

/* ---- fen.c ---- */
/* Parse FEN into *out (written only on success; nhist = 0, result decided);
 * HOYLE_EINVAL with a one-line message naming the problem. */
int ch_fen_read(const ch_game_t *cg, const char *text, ch_state_t *out);
/* FEN of `p` with full-move number `fullmove`: length or HOYLE_EFULL. */
int ch_fen_write(const ch_pos_t *p, int fullmove, char *buf, size_t cap);
#define CH_START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* ---- notation.c ---- */
/* UCI long algebraic (e2e4, e7e8q, e1g1) into buf (>= 6 bytes). */
void ch_move_to_uci(ch_move_t m, char *buf);
/* SAN (Nf3, exd5, O-O, e8=Q+, Nbd7, R1e2#) of the legal move `m`: length or
 * HOYLE_EFULL. */
int ch_move_to_san(const ch_pos_t *p, ch_move_t m, char *buf, size_t cap);
/* Read one move in UCI or SAN (tolerant: 0-0, e8Q, exd6 e.p., trailing +#!?)
 * against the legal moves of `p`: HOYLE_EINVAL with a one-line message
 * listing the candidates when ambiguous or impossible. */
int ch_move_parse(const ch_pos_t *p, const char *text, ch_move_t *out);
/* "a1".."h8" for a square into buf (3 bytes); square of "e4" or -1. */
void ch_square_name(int sq, char *buf);
int ch_square_parse(const char *text);
/* 'P','N',... of a type (upper case); type of a letter (either case) or -1. */
char ch_type_letter(int type);
int ch_type_from_letter(char c);

/* ---- game slots (chess.c, notation.c, observe.c, eval.c) ---- */
int ch_position_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int ch_position_from_string(const game_t *g, const char *text, void *s);
int ch_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap);
int ch_action_from_string(const game_t *g, const void *s, const char *text, int *action);
int ch_move_to_display(const game_t *g, const void *s, const int *actions, int n, char *buf,
                       size_t cap);
int ch_move_from_string(const game_t *g, const void *s, const char *text, int *actions, int cap);

/* observe.c: planes from the mover's view; see docs/games/chess.md */
#define CH_PLANES 21
void ch_observe(const game_t *g, const void *s, int player, float *out);
int ch_state_to_string(const game_t *g, const void *s, char *buf, size_t cap);

/* pgn.c: the record writer (game_vt_t record_to_string), PGN export format */
int ch_record_to_string(const game_t *g, const game_record_tags_t *tags, const void *start,
                        const int *actions, int n, char *buf, size_t cap);

/* eval.c */
double ch_evaluate(const game_t *g, const void *s, int player);
/* The heuristic as a linear model (the eval_terms slot of games/game.h). */
int ch_eval_terms(const game_t *g, const void *s, int player, double *out, const char **names,
                  double *weights);
/* Their weighted sum (the eval_dot slot), touching only the non-zero square terms. */
double ch_eval_dot(const game_t *g, const void *s, int player, const double *w, int n);
bool ch_is_noisy(const game_t *g, const void *s, int action);
/* The evaluation in centipawns for White (cg NULL: standard values), and
 * whether the side to move is in check (the forcing slot: alpha-beta's
 * check extension), and the MVV-LVA order of a noisy move. */
int ch_evaluate_cp(const ch_game_t *cg, const ch_pos_t *p);
bool ch_is_forcing(const game_t *g, const void *s);
int ch_noisy_order(const game_t *g, const void *s, int action);

/* Chess un-moves for the retrograde solver (retro_unmove.c; the contract of
 * retro_index_t.unmove_class and .unmoves in games/retro_index.h). */
int ch_unmove_class(const game_t *g, const char *name);
int ch_unmoves(const game_t *g, const void *state, int (*visit)(const void *pred, void *ctx),
               void *ctx);

#endif
