/* symmetry.h — the dihedral symmetries of a square board (sym_t in game.h).
 *
 * For an N x N board, sym_map() sends (row, col) to its image:
 *   ROT90 (r,c)->(c, N-1-r)      ROT180 (r,c)->(N-1-r, N-1-c)   ROT270 (r,c)->(N-1-c, r)
 *   FLIP_ROWS (r,c)->(N-1-r, c)  FLIP_COLS (r,c)->(r, N-1-c)
 *   TRANSPOSE (r,c)->(c, r)      ANTI_TRANSPOSE (r,c)->(N-1-c, N-1-r)
 * Games use it to map squares (and so actions and states); training uses
 * sym_planes() to map observation tensors, so data augmentation needs no
 * game-specific code. */
#ifndef HOYLE_GAMES_SYMMETRY_H
#define HOYLE_GAMES_SYMMETRY_H

#include "games/game.h"

void sym_map(sym_t sym, int n, int row, int col, int *out_row, int *out_col);

/* out[c][sym(r,k)] = in[c][r][k] for `channels` planes of n x n floats. */
void sym_planes(sym_t sym, int channels, int n, const float *in, float *out);

/* The symmetry that undoes `sym`. */
sym_t sym_inverse(sym_t sym);

const char *sym_name(sym_t sym);

#endif
