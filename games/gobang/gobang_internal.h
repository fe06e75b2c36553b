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

enum { GB_EMPTY = 0, GB_WHITE = 1, GB_BLACK = 2 };  /* cell values: player + 1 */
enum { GB_ONGOING = 0, GB_WIN0, GB_WIN1, GB_DRAW }; /* gb_state_t.result */

/* (drow, dcol) of each direction; dir and 7 - dir are opposites. */
extern const int gb_dirs[GB_DIRS][2];

/* The state: a header and N*N cells (g->state_size bytes in all, rounded up
 * to 8). Invariants: stones of a side on the board + its men in hand ==
 * impl->hand0[side] (no captures in Go-Bang); moves == 0 while any man is in
 * hand; `result` is a function of the rest (a five for the side that moved
 * last, the move limit, or no legal move for the side to move); `hash` ==
 * gb_hash_compute(). */
typedef struct gb_state {
    uint64_t hash;
    uint16_t in_hand[2]; /* men still to place */
    uint16_t moves;      /* moving-phase moves made, both sides (the draw counter) */
    uint8_t to_move;     /* 0 White, 1 Black */
    uint8_t result;      /* GB_ONGOING ... GB_DRAW */
    uint8_t cell[];      /* N*N cells, GB_EMPTY / GB_WHITE / GB_BLACK */
} gb_state_t;

/* Immutable per-game tables (g->impl), made once in gb_impl_create(). */
typedef struct gb_impl {
    int n, nsq;                 /* board side, squares */
    int men;                    /* parameter as given (0 = fill the board) */
    int hand0[2];               /* men each side starts with in hand (Black one fewer at odds) */
    bool exact;                 /* only runs of exactly five win */
    bool moving;                /* a moving phase can happen (men > 0, 2*men < nsq) */
    int move_limit;             /* moving-phase moves (both sides) before a draw */
    uint64_t zob[2][GB_MAX_SQ]; /* stone keys */
    uint64_t zob_side;          /* Black to move */
    int16_t nbr[GB_MAX_SQ][GB_DIRS]; /* neighbour square or -1 */
    uint16_t sq_map[SYM_COUNT][GB_MAX_SQ];
    uint8_t dir_map[SYM_COUNT][GB_DIRS];
    int num_windows; /* every line of five cells */
    int16_t window[GB_MAX_WINDOWS][5];
} gb_impl_t;

static inline const gb_impl_t *gb_impl(const game_t *g) { return (const gb_impl_t *)g->impl; }

/* board.c */
/* odds: Black has one man fewer (men - 1), the seed's odds of eleven against twelve. */
int gb_impl_create(game_t *g, int n, int men, bool odds, bool exact, int move_limit);
uint64_t gb_hash_compute(const game_t *g, const gb_state_t *s);
/* Length of the run of `color` through `sq` along direction pair (d, 7-d). */
int gb_run(const gb_impl_t *im, const gb_state_t *s, int sq, int d, int color);
/* True when the stone on `sq` is part of a winning line (>= 5, or == 5 if exact). */
bool gb_wins_at(const gb_impl_t *im, const gb_state_t *s, int sq);
/* True when `color` has a winning line anywhere (position import). */
bool gb_has_five(const gb_impl_t *im, const gb_state_t *s, int color);
/* True when `player` (to move, moving phase) has at least one step. */
bool gb_can_move(const gb_impl_t *im, const gb_state_t *s, int player);
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
#define GB_PLANES 6
void gb_observe(const game_t *g, const void *s, int player, float *out);
void gb_symmetry_state(const game_t *g, sym_t sym, const void *s, void *out);
int gb_symmetry_action(const game_t *g, sym_t sym, int action);

/* eval.c */
double gb_evaluate(const game_t *g, const void *s, int player);
bool gb_is_noisy(const game_t *g, const void *s, int action);
void gb_threat_hints(const game_t *g, const void *s, const int *actions, int n, int *out);

#endif
