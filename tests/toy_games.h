/* toy_games.h — small games built by hand for the search tests.
 *
 * Each toy is a complete game_t with its own vtable, small enough for
 * brute-force minimax / expectation:
 *   nim     take 1-3 stones from 15, taking the last stone wins (2 players);
 *   chain   nim from 13 where taking 1 stone gives the same player another
 *           action (once per turn): a chain;
 *   dice    2 players, 4 turns: roll 1-3 (p = .5/.3/.2), then bank the roll
 *           or gamble (chance: 40% double, 60% nothing); higher total wins;
 *   puzzle  1 player: from 1 reach 10 with +1, *2, +3 in at most 6 moves;
 *           return 1 - 0.4 (moves - 3) when reached, -1 when not;
 *   ttt     tic-tac-toe (2 players).
 * Heuristic evaluate(): a deterministic pseudo-random zero-sum value of the
 * state (in [-0.9, 0.9]) so that depth-limited searches have something to
 * disagree about; nim's take-3 and ttt's centre are "noisy". */
#ifndef HOYLE_TESTS_TOY_GAMES_H
#define HOYLE_TESTS_TOY_GAMES_H

#include "games/game.h"

/* NULL-terminated names of the toys. */
extern const char *const toy_names[];

/* A new toy game (free with toy_free), or NULL for an unknown name. */
const game_t *toy_create(const char *name);
void toy_free(const game_t *g);

/* The exact value of s for `player`, by brute-force minimax / expectation over the whole tree
 * (no depth limit): for toys and other games small enough (states of at most 256 bytes, at
 * most 16 actions or chance outcomes). */
double toy_solve(const game_t *g, const void *s, int player);

/* The solved positions the threaded-search tests prove: nim, tic-tac-toe (a win, a draw), the
 * chain toy, the dice toy (chance nodes), the one-player puzzle. TOY_POSITIONS of them. */
#define TOY_POSITIONS 6
/* Position i: its toy (free with toy_free), the state reached by its moves (malloc'd, free it)
 * and the player to move there; *name is the toy's name. */
const game_t *toy_position(int i, void **state, int *player, const char **name);

#endif
