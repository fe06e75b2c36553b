/* thirtyfour.h — what other modules (the solver in solve/) may know of a
 * Thirty-four game, beyond the game contract.
 *
 * The Thirty-four Game (seed 000, ch. XVIII, the American puzzles): the
 * blocks 1..N*N are put on an N x N board so that every row, every column
 * and both diagonals add up to the same sum, N (N*N + 1) / 2: 34 on the
 * seed's 4 x 4 board, 15 on 3 x 3. Cells are numbered row by row from the
 * top left (c = row * N + col); a board holds 0 on an empty cell. */
#ifndef HOYLE_GAMES_THIRTYFOUR_H
#define HOYLE_GAMES_THIRTYFOUR_H

#include <stdint.h>

#include "games/game.h"

#define THIRTYFOUR_MIN_N     3
#define THIRTYFOUR_MAX_N     4
#define THIRTYFOUR_MAX_CELLS (THIRTYFOUR_MAX_N * THIRTYFOUR_MAX_N)
#define THIRTYFOUR_MAX_LINES (2 * THIRTYFOUR_MAX_N + 2)

/* The lines of an N x N board that must each add up to the magic sum: the
 * rows, then the columns, then the main diagonal and the other diagonal. */
typedef struct thirtyfour_lines {
    int n, cells, magic, num;
    uint8_t cell[THIRTYFOUR_MAX_LINES][THIRTYFOUR_MAX_N];
} thirtyfour_lines_t;

/* Fill `out` for an n x n board (THIRTYFOUR_MIN_N <= n <= THIRTYFOUR_MAX_N). */
void thirtyfour_lines(int n, thirtyfour_lines_t *out);

/* The sum of |line sum - magic| over every line of a full board: 0 exactly
 * when the board is a magic square. */
int thirtyfour_deviation(const thirtyfour_lines_t *lines, const uint8_t *cell);

/* The board side of a thirtyfour game, and the blocks of state `s` (0 = an
 * empty cell) copied into out[0..N*N). */
int thirtyfour_size(const game_t *g);
void thirtyfour_board(const game_t *g, const void *s, uint8_t *out);

#endif
