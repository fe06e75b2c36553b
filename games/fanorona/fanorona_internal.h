/* fanorona_internal.h — what the files of games/fanorona/ share.
 *
 * Fanorona (seed 002, also the end of seed 000, ch. XVII): a 5 x 9 board of
 * points, rows A-E (A = Black's first line), points 1-9. Point p = row * 9 +
 * col (A1 = 0, E9 = 44). Orthogonal lines join every neighbour; diagonals run
 * through the points with (row + col) even (the diagonals of the eight larger
 * squares). Player 0 is White (moves first, on rows D and E), player 1 Black.
 * See docs/games/fanorona.md for the rules as implemented.
 *
 * Actions (fixed space, FN_NUM_ACTIONS):
 *   (from * 8 + dir) * 3 + kind   a step of the piece on `from` in `dir`;
 *                                 kind 0 paika (no capture), 1 approach,
 *                                 2 withdrawal
 *   FN_STOP                       end a capture chain that could continue
 * After a capture step the same player acts again while the same piece can
 * capture again (a continuation step or FN_STOP); otherwise the turn passes.
 *
 * State invariants (fn_state_t): bb[0] & bb[1] == 0, both within FN_ALL;
 * chain == 0 iff no chain is in progress, and then visited == 0 and
 * last_dir == 0; mid-chain the chain piece can capture again, quiet == 0
 * and opening == 0; `result` is decided whenever a turn ends and never
 * changed after; `hash` == fn_hash_compute(). */
#ifndef HOYLE_GAMES_FANORONA_INTERNAL_H
#define HOYLE_GAMES_FANORONA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"

#define FN_ROWS        5
#define FN_COLS        9
#define FN_POINTS      45
#define FN_DIRS        8
#define FN_KINDS       3
#define FN_STOP        (FN_POINTS * FN_DIRS * FN_KINDS) /* 1080 */
#define FN_NUM_ACTIONS (FN_STOP + 1)
#define FN_MAX_PIECES  22                                /* a side's pieces at the set-up */
#define FN_MAX_LEGAL   (FN_MAX_PIECES * FN_DIRS * 2 + 1) /* A and W per step, + stop */
#define FN_VELA_FIVE   5 /* véla: the victor's ordinary rules begin at five pieces */
#define FN_ALL         ((UINT64_C(1) << FN_POINTS) - 1)

enum { FN_WHITE = 0, FN_BLACK = 1 };
enum { FN_PAIKA = 0, FN_APPROACH = 1, FN_WITHDRAWAL = 2 };
enum { FN_ONGOING = 0, FN_WIN0, FN_WIN1, FN_DRAW };

/* (drow, dcol) of each direction; dir and 7 - dir are opposites. */
extern const int fn_dirs[FN_DIRS][2];

typedef struct fn_state {
    uint64_t hash;
    uint64_t bb[2];   /* pieces of White (0) and Black (1), bit p = point p */
    uint64_t visited; /* points the chain piece stood on this turn (its path) */
    uint16_t quiet;   /* whole moves in a row without a capture (the draw counter) */
    uint8_t side;     /* player to move */
    uint8_t chain;    /* 1 + point of the piece in a capture chain, 0 if none */
    uint8_t last_dir; /* 1 + direction of the chain's last step, 0 if none */
    uint8_t opening;  /* 1 while the game's first move is to be made (one capture only) */
    uint8_t result;   /* FN_ONGOING ... FN_DRAW */
    uint8_t pad;
} fn_state_t;

/* Immutable per-game tables (g->impl). */
typedef struct fn_game {
    bool vela;                      /* the véla form: Black (the victor) gives up pieces */
    int draw_moves;                 /* whole moves without a capture that draw the game */
    int8_t nbr[FN_POINTS][FN_DIRS]; /* neighbour along a line, or -1 */
    uint64_t z_piece[2][FN_POINTS];
    uint64_t z_side, z_open, z_chain[FN_POINTS], z_visit[FN_POINTS], z_dir[FN_DIRS];
    uint8_t sq_map[SYM_COUNT][FN_POINTS]; /* the board's reflections (observe.c) */
    uint8_t dir_map[SYM_COUNT][FN_DIRS];
} fn_game_t;

static inline const fn_game_t *fn_game(const game_t *g) { return (const fn_game_t *)g->impl; }
static inline int fn_popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int fn_lsb(uint64_t x) { return __builtin_ctzll(x); }
static inline uint64_t fn_bit(int p) { return UINT64_C(1) << p; }
static inline int fn_action(int from, int dir, int kind)
{
    return (from * FN_DIRS + dir) * 3 + kind;
}
static inline int fn_action_from(int a) { return a / (FN_DIRS * FN_KINDS); }
static inline int fn_action_dir(int a) { return (a / FN_KINDS) % FN_DIRS; }
static inline int fn_action_kind(int a) { return a % FN_KINDS; }

/* ---- board.c ---- */
void fn_tables_init(fn_game_t *fg);
uint64_t fn_hash_compute(const fn_game_t *fg, const fn_state_t *s);
/* The hash key of the draw counter's value. */
uint64_t fn_key_quiet(int quiet);
void fn_start_position(const fn_game_t *fg, fn_state_t *s);

/* ---- movegen.c ---- */
/* Whether the véla restrictions hold now: the véla form and Black (the
 * victor) has more than five pieces. */
static inline bool fn_vela_active(const fn_game_t *fg, const fn_state_t *s)
{
    return fg->vela && fn_popcount(s->bb[FN_BLACK]) > FN_VELA_FIVE;
}
int fn_legal_actions(const fn_game_t *fg, const fn_state_t *s, int *out);
void fn_apply(const fn_game_t *fg, fn_state_t *s, int action);
/* The enemy pieces a step action takes in `s` (0 for paika and stop; the
 * action need not be legal, only on the board). */
uint64_t fn_taken(const fn_game_t *fg, const fn_state_t *s, int action);
/* Whether the chain piece on `p` may capture again (the chain rules). */
bool fn_can_continue(const fn_game_t *fg, const fn_state_t *s, int p);
/* Decide s->result at the start of a turn (side to move set). */
void fn_settle(const fn_game_t *fg, fn_state_t *s);

/* ---- perft.c ---- */
/* The game_vt_t perft slot: whole-move paths, equal to game_perft_generic. */
uint64_t fn_perft(const game_t *g, const void *s, int depth);

/* ---- notation.c ---- */
int fn_state_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int fn_position_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int fn_position_from_string(const game_t *g, const char *text, void *s);
int fn_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap);
int fn_action_from_string(const game_t *g, const void *s, const char *text, int *action);
int fn_move_from_string(const game_t *g, const void *s, const char *text, int *actions, int cap);
int fn_move_to_string(const game_t *g, const void *s, const int *actions, int n, char *buf,
                      size_t cap);
/* Write point p as `D5`; returns 2. buf needs 3 bytes. */
int fn_point_name(int p, char *buf);

/* ---- observe.c ---- */
#define FN_PLANES 8
void fn_observe(const game_t *g, const void *s, int player, float *out);
void fn_symmetry_state(const game_t *g, sym_t sym, const void *s, void *out);
int fn_symmetry_action(const game_t *g, sym_t sym, int action);
void fn_symmetry_init(fn_game_t *fg);

/* ---- eval.c ---- */
double fn_evaluate(const game_t *g, const void *s, int player);
/* The heuristic as a linear model (the eval_terms slot of games/game.h). */
int fn_eval_terms(const game_t *g, const void *s, int player, double *out, const char **names,
                  double *weights);
bool fn_is_noisy(const game_t *g, const void *s, int action);

#endif
