/* tt.c — the transposition table (see tt.h).
 * One entry per slot, always-replace: the newest result of a search wins,
 * so the table never holds a bound from an older root over a fresher one.
 * Invariant: the size is a power of two (at least 1024), so a slot is
 * key & mask. */
#include "mcts/tt.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* Rounds down to a power of two so indexing is a mask, not a division;
 * 1024 is the floor so a tiny request still gets a usable table. */
int tt_init(tt_t *t, size_t entries)
{
    size_t n = 1024;
    while (n * 2 <= entries) n *= 2;
    t->entries = calloc(n, sizeof *t->entries);
    if (t->entries == NULL) return hoyle_error(HOYLE_ENOMEM, "tt: cannot allocate %zu entries", n);
    t->mask = n - 1;
    return HOYLE_OK;
}

void tt_done(tt_t *t)
{
    free(t->entries);
    t->entries = NULL;
}

void tt_clear(tt_t *t)
{
    if (t->entries) memset(t->entries, 0, sizeof *t->entries * (t->mask + 1));
}

/* The full 64-bit key is compared: two positions that share a slot are
 * told apart, leaving only true 64-bit collisions undetected. */
const tt_entry_t *tt_probe(const tt_t *t, uint64_t key)
{
    const tt_entry_t *e = &t->entries[key & t->mask];
    return e->key == key && e->kind != TT_NONE ? e : NULL;
}

void tt_store(tt_t *t, uint64_t key, double value, int depth, int kind, int action)
{
    tt_entry_t *e = &t->entries[key & t->mask];
    *e = (tt_entry_t){.key = key,
                      .value = value,
                      .depth = (int16_t)depth,
                      .kind = (uint8_t)kind,
                      .action = action};
}
