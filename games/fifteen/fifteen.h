/* fifteen.h — what other modules (the solver in solve/) may know of a
 * Fifteen-puzzle game and state, beyond the game contract.
 *
 * Cells are numbered row by row from the top left (c = row * N + col); tile
 * 0 is the blank. Actions are the four directions the blank moves in: the
 * tile on that side slides into the blank. */
#ifndef HOYLE_GAMES_FIFTEEN_H
#define HOYLE_GAMES_FIFTEEN_H

#include <stdbool.h>
#include <stdint.h>

#include "games/game.h"

#define FIFTEEN_MIN_N     3
#define FIFTEEN_MAX_N     6
#define FIFTEEN_MAX_CELLS (FIFTEEN_MAX_N * FIFTEEN_MAX_N)

/* The actions: the blank moves up, down, left, right. a ^ 1 undoes a. */
enum { FIFTEEN_UP = 0, FIFTEEN_DOWN = 1, FIFTEEN_LEFT = 2, FIFTEEN_RIGHT = 3 };

/* A position as plain data: cell[c] is the tile on cell c (0 = the blank),
 * goal_cell[t] the cell the goal puts tile t on (goal_cell[0]: the blank's). */
typedef struct fifteen_board {
    int n;     /* side */
    int cells; /* n * n */
    uint8_t cell[FIFTEEN_MAX_CELLS];
    uint8_t goal_cell[FIFTEEN_MAX_CELLS];
} fifteen_board_t;

/* The board of state `s` of a Fifteen-puzzle game `g`. */
void fifteen_board(const game_t *g, const void *s, fifteen_board_t *out);

/* The Manhattan distance of state `s`'s tiles to their goal cells (0 =
 * solved): what is left to do, the measure `hoyle solve --agent` reports. */
int fifteen_distance(const game_t *g, const void *s);

#endif
