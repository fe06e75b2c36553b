/* fifteen_internal.h — what solve/fifteen_pdb.c and solve/fifteen_ida.c
 * share: the pattern-database layout.
 *
 * The solver names a tile by its goal cell (its *label*), so the goal is
 * label c on cell c and the blank's label is its goal cell. A pattern is a
 * set of at most FPDB_MAX_TILES labels; its table is indexed sparsely, 4 bits
 * per tile: index = sum over slot j of cell(label_j) << 4j (16^k entries,
 * most of them unused placements, in exchange for an O(1) incremental index
 * when one tile moves). Entry = the fewest moves of the pattern's tiles that
 * bring them home (0xFF: placement not reachable, never read). */
#ifndef HOYLE_SOLVE_FIFTEEN_INTERNAL_H
#define HOYLE_SOLVE_FIFTEEN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "solve/fifteen.h"

#define FPDB_MAX_PATTERNS 3
#define FPDB_MAX_TILES    6
#define FPDB_MAX_CELLS    16 /* 4 bits per cell in an index */

struct fifteen_pdb {
    int n, cells, blank_goal;
    int num_patterns;
    int size[FPDB_MAX_PATTERNS];                      /* tiles in each pattern */
    uint8_t label[FPDB_MAX_PATTERNS][FPDB_MAX_TILES]; /* its tiles, slot order */
    uint8_t *table[FPDB_MAX_PATTERNS];                /* 16^size entries each, inside `block` */
    int8_t pat_of[FPDB_MAX_CELLS];                    /* label -> its pattern (-1: the blank) */
    uint8_t shift_of[FPDB_MAX_CELLS];                 /* label -> 4 * its slot */
    uint8_t transpose[FPDB_MAX_CELLS];                /* cell (r, c) -> cell (c, r) */
    uint8_t *block;                                   /* every table, one allocation */
    size_t block_bytes;
    bool from_cache;
    char path[1024];
};

/* The pattern indices of a position given as pos[label] = cell, and the
 * same for its mirror image in the main diagonal (tile T(l) on T(pos[l])). */
void fpdb_indices(const fifteen_pdb_t *p, const uint8_t *pos, uint32_t *idx, uint32_t *ridx);

#endif
