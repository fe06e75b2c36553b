/* fifteen.h — the optimal solver of the Fifteen puzzle (games/fifteen/):
 * IDA* (Korf 1985) with one of three admissible heuristics.
 *
 *   md   the Manhattan distance of the tiles to their goal cells;
 *   lc   md plus linear conflicts (Hansson, Mayer & Yung 1992): two tiles in
 *        their goal row (column) but in the wrong order there need two moves
 *        more than md counts; per line, 2 x (tiles in their goal line - the
 *        longest run of them already in goal order);
 *   pdb  additive pattern databases (Korf & Felner 2002): the tiles split
 *        into disjoint patterns (6-6-3 on 4 x 4, 4-4 on 3 x 3); a pattern's
 *        table holds, for every placement of its tiles, the fewest moves *of
 *        its own tiles* that bring them home, so the tables add up; and the
 *        maximum with the same sum taken on the position mirrored in the main
 *        diagonal (the goal is its own mirror image after renaming the tiles).
 *
 * The search is a depth-first loop on one mutable board with undo: the
 * heuristic changes incrementally (one tile moves: one table index, one md
 * term, two lines of conflicts), the move that undoes the last is never
 * tried, nothing is allocated. `nodes` counts the positions generated (every
 * move tried), over all iterations. Solutions are the game's actions (the
 * blank's moves, FIFTEEN_UP ...), so callers print and replay them through
 * the game. */
#ifndef HOYLE_SOLVE_FIFTEEN_H
#define HOYLE_SOLVE_FIFTEEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "games/fifteen/fifteen.h"

#define FIFTEEN_SOLVE_MAX_LEN 255 /* longest solution searched for */

typedef enum fifteen_heuristic {
    FIFTEEN_H_MD = 0,
    FIFTEEN_H_LC = 1,
    FIFTEEN_H_PDB = 2,
} fifteen_heuristic_t;

/* The pattern databases of one board size and blank goal cell. */
typedef struct fifteen_pdb fifteen_pdb_t;

/* How the 4 x 4 tiles are split (3 x 3 always 4-4). */
typedef enum fifteen_partition {
    FIFTEEN_PDB_663 = 0, /* 6-6-3: the default, built in ~15 s, 33 MB */
    FIFTEEN_PDB_555 = 1, /* 5-5-5: weaker, built in ~1 s, 3 MB (tests) */
} fifteen_partition_t;

/* Load the tables for side `n` (3 or 4), the blank's goal cell
 * `blank_goal` (the first or last cell) and `partition` from the cache directory `dir`, or build
 * them (seconds) and write them there (temporary file + rename). NULL `dir`: the default,
 * $XDG_CACHE_HOME/hoyle, else $HOME/.cache/hoyle; "" = no cache (build in
 * memory). A cache file that is truncated, fails its checksum, or was made
 * for other tables is reported on `log` (may be NULL) and rebuilt; a cache
 * that cannot be written is reported and the tables are used from memory.
 * Returns 0 with *out owning the tables (fifteen_pdb_free), HOYLE_EUNSUP
 * for a size without tables, HOYLE_ENOMEM. */
int fifteen_pdb_open(int n, int blank_goal, fifteen_partition_t partition, const char *dir,
                     FILE *log, fifteen_pdb_t **out);
void fifteen_pdb_free(fifteen_pdb_t *p);

/* The cache file the tables were loaded from or written to ("" = none). */
const char *fifteen_pdb_path(const fifteen_pdb_t *p);

/* Whether the tables were read from the cache (false: built this run). */
bool fifteen_pdb_from_cache(const fifteen_pdb_t *p);

/* The heuristic of a board (its n and blank goal must match the tables). */
int fifteen_pdb_value(const fifteen_pdb_t *p, const fifteen_board_t *b);

/* What one search is given. */
typedef struct fifteen_solve_params {
    fifteen_heuristic_t heuristic;
    const fifteen_pdb_t *pdb; /* required for FIFTEEN_H_PDB, borrowed for the call */
    uint64_t max_nodes;       /* give up after this many nodes; 0 = no limit */
    /* Called every 2^22 nodes and after each iteration (may be NULL). */
    void (*progress)(uint64_t nodes, int bound, void *ctx);
    void *ctx;
} fifteen_solve_params_t;

/* What one search found. */
typedef struct fifteen_solve_result {
    bool solved; /* false: the node limit or FIFTEEN_SOLVE_MAX_LEN stopped it */
    int length;  /* moves of the optimal solution */
    int h0;      /* the heuristic of the start */
    int bound;   /* the last bound searched */
    uint64_t nodes;
    double seconds;
    uint8_t moves[FIFTEEN_SOLVE_MAX_LEN]; /* the solution: game actions */
} fifteen_solve_result_t;

/* The heuristic of a board by `heuristic` (tests check admissibility). */
int fifteen_heuristic_value(const fifteen_board_t *b, fifteen_heuristic_t heuristic,
                            const fifteen_pdb_t *pdb);

/* Solve board `b` optimally. HOYLE_EINVAL for a board that is not solvable
 * or a PDB made for another goal; otherwise 0 with *out filled (solved or
 * stopped). */
int fifteen_solve(const fifteen_board_t *b, const fifteen_solve_params_t *p,
                  fifteen_solve_result_t *out);

/* `hoyle bench`: fifteen_bench() in solve/bench.h. */

#endif
