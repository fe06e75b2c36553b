/* tt.h — transposition table for alpha-beta, keyed by the game's Zobrist hash.
 *
 * A power-of-two array of entries indexed by the low bits of the hash and
 * checked against the full 64-bit key; always-replace. Entries store a value
 * from the view of the player to move, its kind (exact, lower bound, upper
 * bound), the remaining depth it was searched to and the best action
 * (move ordering). Allocated once (tt_create), cleared between games. */
#ifndef HOYLE_MCTS_TT_H
#define HOYLE_MCTS_TT_H

#include <stddef.h>
#include <stdint.h>

enum { TT_NONE = 0, TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

typedef struct tt_entry {
    uint64_t key;   /* full hash; 0 = empty slot (a real 0 hash just misses) */
    double value;   /* for the player to move */
    int16_t depth;  /* remaining depth searched */
    uint8_t kind;   /* TT_EXACT / TT_LOWER / TT_UPPER */
    int32_t action; /* best action found, or -1 */
} tt_entry_t;

typedef struct tt {
    tt_entry_t *entries;
    size_t mask; /* entries - 1 */
} tt_t;

/* Allocate at least `entries` (rounded down to a power of two, >= 1024).
 * Returns 0 or HOYLE_ENOMEM. Free with tt_done(). */
int tt_init(tt_t *t, size_t entries);
void tt_done(tt_t *t);
void tt_clear(tt_t *t);

/* The entry for `key`, or NULL. Valid until the next store. */
const tt_entry_t *tt_probe(const tt_t *t, uint64_t key);
void tt_store(tt_t *t, uint64_t key, double value, int depth, int kind, int action);

#endif
