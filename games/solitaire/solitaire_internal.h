/* solitaire_internal.h — what the files of games/solitaire/ share.
 *
 * English Solitaire (seed 000, ch. XIV): one player jumps marbles over
 * orthogonal neighbours into empty holes, removing the marble jumped, until
 * no jump is left. Parameters: the holes emptied at the start and the hole
 * the last marble should finish in. Each action is one jump (solitaire.h);
 * the seed's "move" (a run of jumps by one marble) is kept for counting and
 * for whole-move text: the state remembers where the last marble landed.
 * Double Solitaire (`players=2`): two players jump in turn, one jump a
 * turn; the player to move is the parity of the jumps made since the start,
 * so it is a function of the marbles and needs no field (nor hash key).
 * See docs/games/solitaire.md for the rules as implemented. */
#ifndef HOYLE_GAMES_SOLITAIRE_INTERNAL_H
#define HOYLE_GAMES_SOLITAIRE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "games/game.h"
#include "games/solitaire/solitaire.h"

#define SOL_PLANES        4 /* one player */
#define SOL_PLANES_DOUBLE 6 /* two: + the observer to move, the observer first */

/* The state. Invariants: pegs is a subset of SOL_FULL with at least one
 * hole empty; pegs_left == popcount(pegs); last is the hole the last jump
 * landed in (a marble is there) or -1 before the first jump, and moves (the
 * marble runs so far) is 0 exactly when last is -1; hash == the XOR of the
 * keys of the marbles (moves and last are not hashed: they decide neither
 * the legal jumps nor the result). */
typedef struct sol_state {
    uint64_t hash;
    uint64_t pegs;
    uint8_t pegs_left;
    uint8_t moves;
    int8_t last;
    uint8_t pad[5];
} sol_state_t;

/* Immutable per-game tables (g->impl). */
typedef struct sol_impl {
    sol_geometry_t geo;
    uint64_t start;  /* marbles at the start */
    int target;      /* hole index the last marble should end in, -1 = none */
    int players;     /* 1, or 2: Double Solitaire */
    bool goal_solve; /* two players: the first wins when the game ends solved, else the
                        second (goal=solve); false: the last to jump wins (goal=last) */
    int start_count; /* marbles at the start: who is to move is the parity of jumps made */
    uint64_t zob[SOL_HOLES];
} sol_impl_t;

static inline const sol_impl_t *sol_impl(const game_t *g) { return (const sol_impl_t *)g->impl; }

/* rules.c */
void sol_init(const game_t *g, void *s);
int sol_current_player(const game_t *g, const void *s);
int sol_legal_actions(const game_t *g, const void *s, int *out);
void sol_apply(const game_t *g, void *s, int action);
void sol_returns(const game_t *g, const void *s, double *out);
uint64_t sol_hash(const game_t *g, const void *s);
uint64_t sol_hash_recompute(const game_t *g, const void *s);
uint64_t sol_perft(const game_t *g, const void *s, int depth);
/* The return of a finished game with `pegs` left (docs: the map into [-1, 1]). */
double sol_score(const sol_impl_t *im, uint64_t pegs);
/* The player to move in a position with `count` marbles: 0 in the one-player
 * game; in Double Solitaire the parity of the jumps made since the start. */
static inline int sol_to_move(const sol_impl_t *im, int count)
{
    return im->players == 2 ? (im->start_count - count) & 1 : 0;
}

/* notation.c */
int sol_state_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int sol_position_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int sol_position_from_string(const game_t *g, const char *text, void *s);
int sol_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap);
int sol_action_from_string(const game_t *g, const void *s, const char *text, int *action);
int sol_move_from_string(const game_t *g, const void *s, const char *text, int *actions, int cap);
int sol_move_to_string(const game_t *g, const void *s, const int *actions, int n, char *buf,
                       size_t cap);

/* observe.c */
void sol_observe(const game_t *g, const void *s, int player, float *out);
void sol_symmetry_state(const game_t *g, sym_t sym, const void *s, void *out);
int sol_symmetry_action(const game_t *g, sym_t sym, int action);

#endif
