/* fifteen_internal.h — what the files of games/fifteen/ share.
 *
 * The Fifteen puzzle (seed 000 names it among the American puzzles; the
 * rules are the standard ones): an N x N frame, N*N - 1 numbered tiles and
 * one empty cell, the blank. A move slides a tile next to the blank into it.
 * The goal puts the tiles in order, row by row, with the blank first (Korf's
 * instances: 0 1 2 ... 15) or last (1 2 ... 15 then the blank). One player;
 * the game ends when the tiles are in order or after `moves` moves. See
 * docs/games/fifteen.md for the rules as implemented.
 *
 * Cells: c = row * N + col, row 0 at the top. Tile 0 is the blank.
 *
 * Actions (4): the direction the blank moves, FIF_UP .. FIF_RIGHT; the tile
 * on that side slides the other way. `a ^ 1` undoes `a`. */
#ifndef HOYLE_GAMES_FIFTEEN_INTERNAL_H
#define HOYLE_GAMES_FIFTEEN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "games/fifteen/fifteen.h"
#include "games/game.h"

#define FIF_DIRS 4

/* The state (g->state_size bytes). Invariants: cell[] holds a permutation of
 * 0..cells-1 in its first `cells` entries, the rest are 0; cell[blank] == 0;
 * the permutation is solvable for the goal (fif_solvable); dist is the
 * Manhattan distance of the tiles (the blank not counted) to their goal
 * cells, so dist == 0 exactly when the puzzle is solved; hash ==
 * fif_hash_compute(). */
typedef struct fif_state {
    uint64_t hash;
    uint16_t moves; /* moves made so far (the cap counts these) */
    uint16_t dist;  /* Manhattan distance to the goal */
    uint8_t blank;  /* cell of the blank */
    uint8_t cell[FIFTEEN_MAX_CELLS];
} fif_state_t;

/* Immutable per-game tables (g->impl), made once in fif_impl_create(). */
typedef struct fif_impl {
    int n, cells;
    bool blank_first;                     /* goal puts the blank on cell 0 */
    int max_moves;                        /* moves after which an unsolved game ends */
    int dist_max;                         /* bound on dist, for the return's shaping */
    uint8_t goal_cell[FIFTEEN_MAX_CELLS]; /* tile -> its goal cell */
    uint8_t goal_tile[FIFTEEN_MAX_CELLS]; /* cell -> the tile the goal puts there */
    uint8_t mdist[FIFTEEN_MAX_CELLS][FIFTEEN_MAX_CELLS]; /* Manhattan distance, cell to cell */
    int8_t nbr[FIFTEEN_MAX_CELLS][FIF_DIRS];             /* cell one step in a direction, or -1 */
    uint64_t zob[FIFTEEN_MAX_CELLS][FIFTEEN_MAX_CELLS];  /* tile on cell (tile 0 unused) */
    fif_state_t start;                                   /* what init() writes */
} fif_impl_t;

static inline const fif_impl_t *fif_impl(const game_t *g) { return (const fif_impl_t *)g->impl; }

/* board.c */
/* Fill the tables and the start position: `start` ("random" or a position
 * text), `seed`, `scramble` as the parameters say. HOYLE_EINVAL for a start
 * position that does not parse or is not solvable. */
int fif_impl_create(game_t *g, int n, bool blank_first, int max_moves, uint64_t seed, int scramble,
                    const char *start);
uint64_t fif_hash_compute(const fif_impl_t *im, const fif_state_t *s);
uint64_t fif_key_moves(int moves);
/* Finish a state whose cell[] (and moves) are set: blank, dist, hash. */
void fif_state_finish(const fif_impl_t *im, fif_state_t *s);
/* Whether the permutation in cells[0..cells) can reach the goal: its parity
 * (as a permutation of cells onto goal cells) equals the parity of the
 * blank's Manhattan distance to its goal cell. */
bool fif_solvable(const fif_impl_t *im, const uint8_t *cells);

/* rules.c */
void fif_init(const game_t *g, void *s);
int fif_current_player(const game_t *g, const void *s);
int fif_legal_actions(const game_t *g, const void *s, int *out);
void fif_apply(const game_t *g, void *s, int action);
void fif_returns(const game_t *g, const void *s, double *out);
double fif_evaluate(const game_t *g, const void *s, int player);
uint64_t fif_hash(const game_t *g, const void *s);
uint64_t fif_hash_recompute(const game_t *g, const void *s);

/* notation.c */
int fif_state_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int fif_position_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int fif_position_from_string(const game_t *g, const char *text, void *s);
/* Parse the tile list of a position (no move count) into cells[], checked:
 * N*N numbers, a permutation, solvable. `what` prefixes the message. */
int fif_parse_tiles(const fif_impl_t *im, const char *text, const char *what, uint8_t *cells);
int fif_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap);
int fif_action_from_string(const game_t *g, const void *s, const char *text, int *action);

/* observe.c */
void fif_observe(const game_t *g, const void *s, int player, float *out);

#endif
