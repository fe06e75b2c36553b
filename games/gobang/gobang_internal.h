/* gobang_internal.h — what the files of games/gobang/ share.
 *
 * Go-Bang (seed 000, ch. XVI "Go-Ban"): an N x N board, each side places its
 * men one at a time, then moves them one square (8 directions) to an empty
 * neighbour; five (or more, unless `exact`) in a line wins in either phase.
 * See docs/games/gobang.md for the rules as implemented.
 *
 * Squares: sq = row * N + col, row 0 = rank 1, col 0 = file a (chess
 * notation, as the seed uses). Player 0 is White ('x', moves first), player 1
 * Black ('o').
 *
 * Partnerships (players=4, the seed's "four persons, taking partners as in
 * whist"): the players are still the two colours, each a partnership of two
 * seats taking turns in whist order W1, B1, W2, B2 (seat k plays colour
 * k % 2; partners sit opposite). Each seat owns the men it placed and only
 * it moves them; a five of one colour wins for the partnership whoever's men
 * make it. The seat to move is not stored: it is (placements + moves) % 4,
 * since every action passes the turn to the next seat.
 *
 * Actions (fixed space per game):
 *   [0, N*N)                      place a man on sq
 *   N*N + from * 8 + dir          move the man on `from` one step in `dir`
 *                                 (only when a moving phase can happen:
 *                                 men > 0 and 2*men < N*N)
 * dir indexes gb_dirs[] below: (drow, dcol). */
#ifndef HOYLE_GAMES_GOBANG_INTERNAL_H
#define HOYLE_GAMES_GOBANG_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "games/game.h"

#define GB_MAX_N       19
#define GB_MIN_N       5
#define GB_MAX_SQ      (GB_MAX_N * GB_MAX_N)
#define GB_MAX_WINDOWS (4 * GB_MAX_N * GB_MAX_N) /* generous bound on 5-cell lines */
#define GB_DIRS        8
#define GB_MAX_SEATS   4
/* uint64_t words of a local buffer that holds any state (cells and owners) */
#define GB_STATE_WORDS ((sizeof(struct gb_state) + 2 * GB_MAX_SQ) / 8 + 1)

enum { GB_EMPTY = 0, GB_WHITE = 1, GB_BLACK = 2 };  /* cell values: player + 1 */
enum { GB_ONGOING = 0, GB_WIN0, GB_WIN1, GB_DRAW }; /* gb_state_t.result */

/* (drow, dcol) of each direction; dir and 7 - dir are opposites. */
extern const int gb_dirs[GB_DIRS][2];

/* The state: a header and N*N cells (g->state_size bytes in all, rounded up
 * to 8). Invariants: stones of a side on the board + its men in hand ==
 * impl->hand0[side] (no captures in Go-Bang); moves == 0 while any man is in
 * hand; `result` is a function of the rest (a five for the side that moved
 * last, the move limit, or no legal move for the side to move); `hash` ==
 * gb_hash_compute(). With players=4 the N*N cells are followed by N*N owner
 * bytes: which partner placed the man on each square (0 = the colour's first
 * seat W1/B1, 1 = its second W2/B2; 0 on empty squares). */
typedef struct gb_state {
    uint64_t hash;
    uint16_t in_hand[2]; /* men still to place */
    uint16_t moves;      /* moving-phase moves made, both sides (the draw counter) */
    uint8_t to_move;     /* 0 White, 1 Black */
    uint8_t result;      /* GB_ONGOING ... GB_DRAW */
    uint8_t cell[];      /* N*N cells, GB_EMPTY / GB_WHITE / GB_BLACK, then the owners
                            (players=4) */
} gb_state_t;

/* Immutable per-game tables (g->impl), made once in gb_impl_create(). */
typedef struct gb_impl {
    int n, nsq;                 /* board side, squares */
    int men;                    /* parameter as given (0 = fill the board) */
    int hand0[2];               /* men each side starts with in hand (Black one fewer at odds) */
    int seats;                  /* 2, or 4 in partnership play (players=4) */
    bool exact;                 /* only runs of exactly five win */
    bool lines;                 /* the observation adds GB_LINE_PLANES (observe.c) */
    bool moving;                /* a moving phase can happen (men > 0, 2*men < nsq) */
    int move_limit;             /* moving-phase moves (both sides) before a draw */
    uint64_t zob[2][GB_MAX_SQ]; /* stone keys */
    uint64_t zob_side;          /* Black to move */
    uint64_t zob_partner[GB_MAX_SQ]; /* a second partner's man on the square (players=4) */
    int16_t nbr[GB_MAX_SQ][GB_DIRS]; /* neighbour square or -1 */
    uint16_t sq_map[SYM_COUNT][GB_MAX_SQ];
    uint8_t dir_map[SYM_COUNT][GB_DIRS];
    int num_windows; /* every line of five cells */
    int16_t window[GB_MAX_WINDOWS][5];
} gb_impl_t;

static inline const gb_impl_t *gb_impl(const game_t *g) { return (const gb_impl_t *)g->impl; }

/* The seat to move (seats 0..3 = W1, B1, W2, B2; with two seats, the side). */
static inline int gb_seat(const gb_impl_t *im, const gb_state_t *s)
{
    if (im->seats == 2) return s->to_move;
    int placed = im->hand0[0] + im->hand0[1] - s->in_hand[0] - s->in_hand[1];
    return (placed + s->moves) % 4;
}

/* The seat that makes `side`'s next action (the seat to move, or the one
 * after it). */
static inline int gb_next_seat(const gb_impl_t *im, const gb_state_t *s, int side)
{
    int t = gb_seat(im, s);
    return t % 2 == side ? t : (t + 1) % im->seats;
}

/* Which partner owns the man on `q` (0 with two seats or on an empty square). */
static inline int gb_partner_at(const gb_impl_t *im, const gb_state_t *s, int q)
{
    return im->seats == 4 ? s->cell[im->nsq + q] : 0;
}

/* True when `seat` may move the man on `q`: its colour, and its own. */
static inline bool gb_owns(const gb_impl_t *im, const gb_state_t *s, int q, int seat)
{
    return s->cell[q] == seat % 2 + 1 && gb_partner_at(im, s, q) == seat / 2;
}

/* board.c */
/* odds: Black has one man fewer (men - 1), the seed's odds of eleven against
 * twelve; seats: 2, or 4 for partnerships (the men split between partners). */
int gb_impl_create(game_t *g, int n, int men, bool odds, bool exact, int move_limit, int seats);
uint64_t gb_hash_compute(const game_t *g, const gb_state_t *s);
/* Length of the run of `color` through `sq` along direction pair (d, 7-d). */
int gb_run(const gb_impl_t *im, const gb_state_t *s, int sq, int d, int color);
/* True when the stone on `sq` is part of a winning line (>= 5, or == 5 if exact). */
bool gb_wins_at(const gb_impl_t *im, const gb_state_t *s, int sq);
/* True when `color` has a winning line anywhere (position import). */
bool gb_has_five(const gb_impl_t *im, const gb_state_t *s, int color);
/* True when `seat` (to move, moving phase) has at least one step. */
bool gb_can_move(const gb_impl_t *im, const gb_state_t *s, int seat);
/* Men `seat` has in hand (its colour's hand split between partners, the
 * first partner placing first). */
int gb_seat_hand(const gb_impl_t *im, const gb_state_t *s, int seat);
/* Set s->result once the side not to move has made an action from `from`
 * (-1: a placement) to `to` (-1: no action, only the draw rules are checked,
 * for import). With `exact`, leaving `from` can shorten a six to a five, so
 * the lines through `from` are checked too. */
void gb_settle(const gb_impl_t *im, gb_state_t *s, int from, int to);
uint64_t gb_key_hand(int side, int count);
uint64_t gb_key_moves(int moves);

/* rules.c */
void gb_init(const game_t *g, void *s);
int gb_current_player(const game_t *g, const void *s);
int gb_current_seat(const game_t *g, const void *s);
int gb_legal_actions(const game_t *g, const void *s, int *out);
void gb_apply(const game_t *g, void *s, int action);
void gb_returns(const game_t *g, const void *s, double *out);
uint64_t gb_hash(const game_t *g, const void *s);
uint64_t gb_hash_recompute(const game_t *g, const void *s);
uint64_t gb_perft(const game_t *g, const void *s, int depth);
/* Destination square of a legal-shaped action, and its origin (-1 = placement);
 * returns false when the action is outside the space or steps off the board. */
bool gb_decode(const gb_impl_t *im, int action, int *from, int *to);

/* notation.c */
int gb_state_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int gb_position_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int gb_position_from_string(const game_t *g, const char *text, void *s);
int gb_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap);
int gb_action_from_string(const game_t *g, const void *s, const char *text, int *action);

/* observe.c */
#define GB_PLANES      6
#define GB_PLANES_4    8 /* players=4: own, partner, two opponents, then as planes 2..5 */
#define GB_LINE_PLANES 6 /* lines=true: lines of five by colour and men, after the rest */
void gb_observe(const game_t *g, const void *s, int player, float *out);
void gb_symmetry_state(const game_t *g, sym_t sym, const void *s, void *out);
int gb_symmetry_action(const game_t *g, sym_t sym, int action);

/* eval.c */
double gb_evaluate(const game_t *g, const void *s, int player);
bool gb_is_noisy(const game_t *g, const void *s, int action);
void gb_threat_hints(const game_t *g, const void *s, const int *actions, int n, int *out);

#endif
