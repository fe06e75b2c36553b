/* tt.c — the transposition table (see tt.h). */
#include "mcts/tt.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

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
