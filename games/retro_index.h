/* retro_index.h — the optional part of a game that the retrograde solver
 * (solve/retro.h) needs: its positions split into material classes, each
 * with a perfect index (rank/unrank) over the game's symmetries.
 *
 * A game family that can be solved by retrograde analysis fills one
 * retro_index_t beside its rules (games/chess/retro_index.c) and lists it in
 * retro_index_find()'s table (games/retro_index.c); nothing else in the game
 * contract changes. Successors come from the contract (game_whole_moves).
 * A family may also give un-moves (the `unmoves` slot): the solver then walks
 * back from the positions each level decides and holds no move graph
 * (solve/retro_unmove.c); without them it builds the class's move graph once
 * and iterates to the fixpoint over it (solve/retro_gen.c).
 *
 * Class names are short canonical strings (chess "KQvKR", the way endgame
 * engines name them). Every function is thread-safe and allocates nothing. */
#ifndef HOYLE_GAMES_RETRO_INDEX_H
#define HOYLE_GAMES_RETRO_INDEX_H

#include <stdint.h>

#include "games/game.h"

#define RETRO_CLASS_MAX  32 /* bytes of a class name, NUL included */
#define RETRO_SUBCLASSES 64 /* most classes one move can lead to */

typedef struct retro_index {
    const char *family; /* the registry name it serves: "chess" */
    /* Parse `text` (any case: "kqvkr") into the canonical class name `name`
     * (RETRO_CLASS_MAX bytes) and its index range `size`; a negative status
     * and message for a name that is malformed or not supported. */
    int (*class_parse)(const game_t *g, const char *text, char *name, uint64_t *size);
    /* Set `state` to position `idx` of class `name` (a canonical name) and
     * return 1; return 0, state unspecified, for an index that names no
     * legal position (two pieces on one square, the side not to move in
     * check, a non-canonical order of like pieces). */
    int (*unindex)(const game_t *g, const char *name, uint64_t idx, void *state);
    /* The class (into `name`) and index of a legal, non-terminal `state`;
     * HOYLE_EUNSUP when no class of this index holds it (castling rights,
     * more pieces than any class), another negative status for a state no
     * class can hold. Sets no message: search probes ask this at every node
     * and most of them miss; explain() (or retro_index_locate) says why. */
    int (*index)(const game_t *g, const void *state, char *name, uint64_t *idx);
    /* The status index() gives `state`, with the one-line message of a
     * refusal set (0, no message, when index() accepts it). */
    int (*explain)(const game_t *g, const void *state);
    /* The player whose turn it is in `state`, a terminal one included (the
     * contract's current_player says PLAYER_TERMINAL there): whose value
     * the table holds for a mated or stalemated position. */
    int (*to_move)(const game_t *g, const void *state);
    /* The classes, other than `name` itself, that one move from class `name`
     * can reach without ending the game by rule (captures, promotions),
     * written to out (RETRO_SUBCLASSES rows); returns their count. A class
     * that only ends the game (chess K v K: dead material) is left out. */
    int (*subclasses)(const game_t *g, const char *name, char out[][RETRO_CLASS_MAX]);
    /* Optional (NULL: `hoyle tablebase --all` is refused). Every class of at
     * most `men` men, written to out[0..max) with the classes of fewer men
     * first (dead material left out); returns their count, or a negative
     * status and message when `men` is out of range or more than `max` match. */
    int (*classes)(const game_t *g, int men, char out[][RETRO_CLASS_MAX], int max);
    /* Optional (NULL: none). The tables ignore the state's move-count draw
     * counter (they index positions without history); this gives the plies
     * left in `state` before that counter could end the game in a draw. A
     * win or loss of a longer distance may then not be the game's value
     * there (draws stay draws), so search probes (solve/retro_tb.c) use it
     * only within this many plies. Fox and Geese's quiet_limit. */
    int (*horizon)(const game_t *g, const void *state);
    /* Optional (NULL: none; the solver keeps its move-graph generator).
     * Whether `unmoves` serves class `name` (canonical): 1 or 0. */
    int (*unmove_class)(const game_t *g, const char *name);
    /* Optional, with unmove_class. The predecessors of `state`, a position
     * of a class unmove_class() accepts, within that class: for every move
     * that does not take and does not promote (nor leave the class in any
     * other way) and that leads from a legal position P to `state`, call
     * visit(P, ctx) once per such move (P may come more than once; the
     * solver dedupes by index). P's position is set as index() reads it
     * (pieces, side to move); its history and result are unspecified. A
     * negative return of visit stops the walk and is returned; else 0. */
    int (*unmoves)(const game_t *g, const void *state, int (*visit)(const void *pred, void *ctx),
                   void *ctx);
} retro_index_t;

/* Helpers the indexes share: C(n, k) (0 outside 0 <= k <= n <= 64); the colex rank
 * of a set of points (bit i = point i) among the sets of its size,
 * sum over its members' positions i-th from the lowest (i = 1..k) of
 * C(point, i); and its inverse, the set of `k` points below `top` of rank r. */
uint64_t retro_binom(int n, int k);
uint64_t retro_colex_rank(uint64_t set);
uint64_t retro_colex_unrank(uint64_t r, int k, int top);

/* ix->index(), with explain()'s message when it refuses `state`: for callers
 * off the search's hot path (generation, the CLI's probes). */
int retro_index_locate(const retro_index_t *ix, const game_t *g, const void *state, char *name,
                       uint64_t *idx);

/* The retrograde index of `g`'s family, or NULL when it has none. */
const retro_index_t *retro_index_find(const game_t *g);

#endif
