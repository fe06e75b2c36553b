/* thirtyfour.h — every magic square of the Thirty-four Game
 * (games/thirtyfour/), counted and listed, behind `hoyle solve thirtyfour`.
 *
 * A depth-first search fills the cells in an order chosen so that a line
 * gets its last cell as early as possible: a cell that completes a line
 * takes the one value the line leaves (34 less the other three), so on the
 * 4 x 4 board only 8 cells are chosen freely and the rest are forced or
 * refused. Every solution is reported with whether it is the representative
 * of its class under the board's 8 symmetries (rotations and reflections):
 * the one whose cells, read row by row, are lexicographically smallest
 * among its 8 images. The known counts (Frénicle 1693): 7,040 squares of
 * order 4, 880 up to symmetry; 8 of order 3, 1 up to symmetry. */
#ifndef HOYLE_SOLVE_THIRTYFOUR_H
#define HOYLE_SOLVE_THIRTYFOUR_H

#include <stdbool.h>
#include <stdint.h>

#include "games/thirtyfour/thirtyfour.h"

/* Called for each magic square found, `cell` row by row (valid for the
 * call), `canonical` true for its class's representative. Return nonzero to
 * stop the search (thirtyfour_solve then returns that value). */
typedef int (*thirtyfour_visit_fn)(const uint8_t *cell, bool canonical, void *ctx);

typedef struct thirtyfour_result {
    uint64_t solutions; /* magic squares that complete the given cells */
    uint64_t folded;    /* of them, the class representatives */
    uint64_t nodes;     /* cells tried */
    double seconds;
} thirtyfour_result_t;

/* Every magic square of side n that agrees with `given` (N*N cells, 0 =
 * free; NULL = none given). `visit` may be NULL. Returns 0, or
 * HOYLE_EINVAL with a message for a bad side or given blocks that repeat or
 * are out of range, or the visitor's nonzero value. */
int thirtyfour_solve(int n, const uint8_t *given, thirtyfour_visit_fn visit, void *ctx,
                     thirtyfour_result_t *out);

/* Whether `cell` (a full n x n board) is its symmetry class's
 * representative (see above). */
bool thirtyfour_canonical(int n, const uint8_t *cell);

#endif
