/* thirtyfour_internal.h — what the files of games/thirtyfour/ share.
 *
 * The Thirty-four Game as a one-player game: the blocks go on the board in
 * their order, 1 first, one block an action, and the game ends when the
 * last block is placed. Each arrangement of the blocks is the end of exactly
 * one game, so the game's end states are the arrangements, and a search
 * meets no transpositions. See docs/games/thirtyfour.md.
 *
 * Actions (N*N): the cell the next block goes on. */
#ifndef HOYLE_GAMES_THIRTYFOUR_INTERNAL_H
#define HOYLE_GAMES_THIRTYFOUR_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "games/game.h"
#include "games/thirtyfour/thirtyfour.h"

#define TF_PLANES 3

/* The state. Invariants: cell[] holds the blocks 1..placed once each and 0
 * elsewhere (entries past N*N are 0); hash == tf_hash_compute(). */
typedef struct tf_state {
    uint64_t hash;
    uint8_t placed; /* blocks on the board: the next block is placed + 1 */
    uint8_t cell[THIRTYFOUR_MAX_CELLS];
    uint8_t pad[7];
} tf_state_t;

/* Immutable per-game tables (g->impl). */
typedef struct tf_impl {
    thirtyfour_lines_t lines;
    int dev_max;                                                  /* bound on the deviation */
    int8_t sym_cell[SYM_COUNT][THIRTYFOUR_MAX_CELLS];             /* image of a cell */
    uint64_t zob[THIRTYFOUR_MAX_CELLS + 1][THIRTYFOUR_MAX_CELLS]; /* block on cell */
} tf_impl_t;

static inline const tf_impl_t *tf_impl(const game_t *g) { return (const tf_impl_t *)g->impl; }

/* rules.c */
uint64_t tf_hash_compute(const tf_impl_t *im, const tf_state_t *s);
void tf_init(const game_t *g, void *s);
int tf_current_player(const game_t *g, const void *s);
int tf_legal_actions(const game_t *g, const void *s, int *out);
void tf_apply(const game_t *g, void *s, int action);
void tf_returns(const game_t *g, const void *s, double *out);
uint64_t tf_hash(const game_t *g, const void *s);
uint64_t tf_hash_recompute(const game_t *g, const void *s);
void tf_observe(const game_t *g, const void *s, int player, float *out);
void tf_symmetry_state(const game_t *g, sym_t sym, const void *s, void *out);
int tf_symmetry_action(const game_t *g, sym_t sym, int action);

/* notation.c */
int tf_state_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int tf_position_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int tf_position_from_string(const game_t *g, const char *text, void *s);
int tf_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap);
int tf_action_from_string(const game_t *g, const void *s, const char *text, int *action);

#endif
