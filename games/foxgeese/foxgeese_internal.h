/* foxgeese_internal.h — what the files of games/foxgeese/ share.
 *
 * Fox and Geese (seed 000, ch. XV, by Captain Crawley) on the 33-point cross
 * of the Solitaire board. Points are numbered 1..33 row by row as the seed
 * does ("the upper left-hand spot 1 ... to 33, at the lower right-hand
 * corner"); in code a point is its number - 1 (0..32). The cross sits in a
 * 7 x 7 grid: rows 0-1 and 5-6 hold columns 2-4 only, rows 2-4 all seven.
 *
 *         1  2  3                      row 0
 *         4  5  6                      row 1
 *   7  8  9 10 11 12 13                row 2
 *  14 15 16 17 18 19 20                row 3  (17 is the centre)
 *  21 22 23 24 25 26 27                row 4
 *        28 29 30                      row 5
 *        31 32 33                      row 6
 *
 * Lines are orthogonal only ("on the straight lines, not the diagonals").
 * Player 0 is the Geese (they move first), player 1 the Fox. The geese start
 * at the top and move "down or across": down (row + 1), left or right.
 *
 * Directions: 0 up, 1 left, 2 right, 3 down; d and 3 - d are opposite, and
 * the mirror (col -> 6 - col) swaps 1 and 2.
 *
 * Actions (fixed space, FG_ACTIONS = 264):
 *   from * 4 + dir               a one-point step (a goose or the fox)
 *   FG_JUMP + from * 4 + dir     the fox jumps the goose next to him in
 *                                `dir` and lands on the point behind it
 * A capture chain is one action per jump, the Fox keeping the move while he
 * can jump again (chain == 1); the goose jumped is removed at once. */
#ifndef HOYLE_GAMES_FOXGEESE_INTERNAL_H
#define HOYLE_GAMES_FOXGEESE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"

#define FG_POINTS    33
#define FG_GRID      7
#define FG_DIRS      4
#define FG_JUMP      (FG_POINTS * FG_DIRS) /* first jump action */
#define FG_ACTIONS   (2 * FG_JUMP)
#define FG_GEESE     0 /* player numbers */
#define FG_FOX       1
#define FG_QUIET_MAX 1000 /* largest quiet_limit */

enum { FG_ONGOING = 0, FG_WIN_GEESE, FG_WIN_FOX, FG_DRAW }; /* fg_state_t.result */

/* The state (24 bytes). Invariants: `fox` is not a goose point; chain == 1
 * only with side == FG_FOX and a jump available to the fox; quiet == 0
 * mid-chain; `result` is decided when a whole move ends (or the flock falls
 * to fox_wins_at mid-chain) and is a function of the rest; hash ==
 * fg_hash_compute(). */
typedef struct fg_state {
    uint64_t hash;
    uint64_t geese; /* bit p = a goose on point p + 1 */
    uint8_t fox;    /* the fox's point (0..32) */
    uint8_t side;   /* FG_GEESE or FG_FOX to move */
    uint8_t chain;  /* 1: the fox is in the middle of a capture chain */
    uint8_t result; /* FG_ONGOING ... FG_DRAW */
    uint16_t quiet; /* whole moves since a goose last moved down or the fox took */
    uint16_t pad;
} fg_state_t;

/* Immutable per-game tables (g->impl), made once in fg_impl_create(). */
typedef struct fg_impl {
    int geese0;      /* geese at the start (13, 15 or 17) */
    int fox0;        /* the fox's starting point */
    uint64_t start;  /* the geese's starting points */
    int fox_wins_at; /* the fox wins once the flock is down to this */
    int quiet_limit; /* quiet whole moves before the game is drawn */
    int8_t row[FG_POINTS], col[FG_POINTS];
    int8_t at[FG_GRID][FG_GRID];     /* point at (row, col), or -1 off the cross */
    int8_t nbr[FG_POINTS][FG_DIRS];  /* neighbour along a line, or -1 */
    int8_t gnbr[FG_POINTS][FG_DIRS]; /* nbr less the points a goose may not enter */
    int8_t jump[FG_POINTS][FG_DIRS]; /* the point two steps away, or -1 */
    int8_t mirror[FG_POINTS];        /* left-right image of each point */
    uint64_t z_goose[FG_POINTS], z_fox[FG_POINTS], z_side, z_chain;
    uint64_t z_quiet[FG_QUIET_MAX + 1]; /* one key per value of the draw counter */
    double eval_base;                   /* raw heuristic of the start (eval.c maps it to 0) */
} fg_impl_t;

static inline const fg_impl_t *fg_impl(const game_t *g) { return (const fg_impl_t *)g->impl; }
static inline uint64_t fg_bit(int p) { return 1ull << p; }
static inline int fg_popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int fg_lsb(uint64_t x) { return __builtin_ctzll(x); }
static inline int fg_mirror_dir(int d) { return d == 1 ? 2 : d == 2 ? 1 : d; }

/* ---- board.c ---- */
/* Build the tables for this flock; `geese` is 13, 15 or 17. */
int fg_impl_create(game_t *g, int geese, int fox, int fox_wins_at, int quiet_limit);
uint64_t fg_hash_compute(const fg_impl_t *im, const fg_state_t *s);
/* The standard start of a flock of `geese` (a point set), 0 for other sizes. */
uint64_t fg_start_geese(int geese);

/* ---- rules.c ---- */
void fg_init(const game_t *g, void *s);
int fg_current_player(const game_t *g, const void *s);
int fg_legal_actions(const game_t *g, const void *s, int *out);
void fg_apply(const game_t *g, void *s, int action);
void fg_returns(const game_t *g, const void *s, double *out);
uint64_t fg_hash(const game_t *g, const void *s);
uint64_t fg_hash_recompute(const game_t *g, const void *s);
/* Whether the fox on `fox` can jump a goose (some d with a goose next to him
 * and an empty point behind it). */
bool fg_fox_can_jump(const fg_impl_t *im, uint64_t geese, int fox);
/* Number of one-point steps and jumps the fox has / steps the geese have. */
int fg_fox_moves(const fg_impl_t *im, uint64_t geese, int fox);
bool fg_geese_can_move(const fg_impl_t *im, uint64_t geese, int fox);
/* Decide s->result for the side now to move (import, end of a whole move). */
void fg_settle(const fg_impl_t *im, fg_state_t *s);
/* Origin and destination of an action in the space (false: outside it, or
 * off the cross); *jump tells a jump from a step. State is not looked at. */
bool fg_decode(const fg_impl_t *im, int action, int *from, int *to, bool *jump);

/* ---- notation.c ---- */
int fg_state_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int fg_position_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int fg_position_from_string(const game_t *g, const char *text, void *s);
int fg_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap);
int fg_action_from_string(const game_t *g, const void *s, const char *text, int *action);
int fg_move_from_string(const game_t *g, const void *s, const char *text, int *actions, int cap);
int fg_move_to_string(const game_t *g, const void *s, const int *actions, int n, char *buf,
                      size_t cap);

/* ---- observe.c ---- */
#define FG_PLANES 7
void fg_observe(const game_t *g, const void *s, int player, float *out);
void fg_symmetry_state(const game_t *g, sym_t sym, const void *s, void *out);
int fg_symmetry_action(const game_t *g, sym_t sym, int action);

/* ---- eval.c ---- */
/* The heuristic before scaling, for the geese (eval_base is this at the start). */
double fg_eval_raw(const fg_impl_t *im, const fg_state_t *s);
double fg_evaluate(const game_t *g, const void *s, int player);
/* The heuristic as a linear model (the eval_terms slot of games/game.h). */
int fg_eval_terms(const game_t *g, const void *s, int player, double *out, const char **names,
                  double *weights);
bool fg_is_noisy(const game_t *g, const void *s, int action);

#endif
