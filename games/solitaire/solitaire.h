/* solitaire.h — the 33-hole English Solitaire board, for the game and its solver.
 *
 * The board is the cross of 33 holes on a 7 x 7 grid (the four 2 x 2 corners
 * cut away). Holes are numbered 1..33 row by row, top to bottom, left to right
 * (docs/games/solitaire.md draws the numbering); the centre is 17. Inside
 * the code a hole is its index 0..32 (number - 1) and a set of holes is a
 * 64-bit mask, bit i = hole i. A jump takes a marble from `from` over an
 * orthogonal neighbour `over` into the empty hole `to` beyond it and removes
 * the marble jumped; there are SOL_JUMPS geometric jumps, listed in
 * ascending order of (from, direction), and jump j is action j of the game.
 *
 * Position classes (the "rule of three", de Bruijn 1972): colour hole (r, c)
 * with (r + c) mod 3 and, separately, with (r - c) mod 3. A jump covers three
 * consecutive holes, one of each colour, and changes each colour's marble
 * count by one, so the parities of the three counts all flip. The two
 * parities "count0 + count1" and "count1 + count2" of each colouring are
 * therefore invariant: 4 bits, 16 classes. A position can only ever become a
 * single marble in hole t if its class is the class of {t}. */
#ifndef HOYLE_GAMES_SOLITAIRE_SOLITAIRE_H
#define HOYLE_GAMES_SOLITAIRE_SOLITAIRE_H

#include <stdint.h>

#include "games/game.h"

#define SOL_HOLES  33
#define SOL_SIDE   7  /* the grid the cross sits on */
#define SOL_JUMPS  76 /* geometric jumps (the action space) */
#define SOL_CENTRE 16 /* hole index of the centre, hole number 17 */
#define SOL_FULL   ((1ULL << SOL_HOLES) - 1)

/* One jump: hole indexes and their masks. */
typedef struct sol_jump {
    int8_t from, over, to;
    uint64_t from_bit, over_bit, to_bit;
} sol_jump_t;

/* The board's tables, made by sol_geometry_init() (deterministic, no heap). */
typedef struct sol_geometry {
    int8_t row[SOL_HOLES], col[SOL_HOLES]; /* grid coordinates of each hole */
    int8_t hole_at[SOL_SIDE][SOL_SIDE];    /* hole index, or -1 off the board */
    sol_jump_t jump[SOL_JUMPS];
    int8_t jump_id[SOL_HOLES][SOL_HOLES];  /* jump from -> to, or -1 */
    int8_t sym_hole[SYM_COUNT][SOL_HOLES]; /* image of each hole under a symmetry */
    int8_t sym_jump[SYM_COUNT][SOL_JUMPS]; /* image of each jump */
    uint64_t sym_byte[SYM_COUNT][5][256];  /* image of byte k of a mask (fast sol_sym_mask) */
    uint64_t colour[2][3];                 /* masks of the holes of each colour */
    uint64_t corner_mask;                  /* the 8 corners: no marble can jump over them */
} sol_geometry_t;

void sol_geometry_init(sol_geometry_t *geo);

/* The image of a set of holes under a symmetry of the board. */
static inline uint64_t sol_sym_mask(const sol_geometry_t *geo, sym_t sym, uint64_t m)
{
    const uint64_t(*t)[256] = geo->sym_byte[sym];
    return t[0][m & 0xff] | t[1][(m >> 8) & 0xff] | t[2][(m >> 16) & 0xff] |
           t[3][(m >> 24) & 0xff] | t[4][(m >> 32) & 0xff];
}

/* The position class of a set of marbles (0..15, see above). */
int sol_class(const sol_geometry_t *geo, uint64_t pegs);

/* What the solver and the CLI read of a `solitaire` game and its states
 * (g must be a solitaire game, state one of its states): the marbles, the
 * hole the last jump landed in (-1 before the first), the moves (marble runs)
 * made, the target hole index (-1 = none). */
uint64_t solitaire_state_pegs(const void *state);
int solitaire_state_last(const void *state);
int solitaire_state_moves(const void *state);
int solitaire_target(const game_t *g);

/* Parse a hole number "1".."33" (surrounding spaces not allowed) into its
 * index; -1 when `text` is not one. `end` gets the first unread character. */
int sol_parse_hole(const char *text, const char **end);

#endif
