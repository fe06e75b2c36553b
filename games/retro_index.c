/* retro_index.c — the table of game families with a retrograde index
 * (retro_index.h): one row per family, looked up by registry name. */
#include <pthread.h>
#include <string.h>

#include "games/registry.h"
#include "games/retro_index.h"

extern const retro_index_t chess_retro_index, checkers_retro_index, foxgeese_retro_index;

static const retro_index_t *const families[] = {
    &chess_retro_index,
    &checkers_retro_index,
    &foxgeese_retro_index,
};

/* Pascal's triangle up to 64, made once (the indexes rank billions of sets). */
static uint64_t pascal[65][65];
static pthread_once_t pascal_once = PTHREAD_ONCE_INIT;

static void pascal_make(void)
{
    for (int n = 0; n <= 64; n++) {
        pascal[n][0] = 1;
        for (int k = 1; k <= n; k++) pascal[n][k] = pascal[n - 1][k - 1] + pascal[n - 1][k];
    }
}

uint64_t retro_binom(int n, int k)
{
    if (k < 0 || k > n || n > 64) return 0;
    pthread_once(&pascal_once, pascal_make);
    return pascal[n][k];
}

uint64_t retro_colex_rank(uint64_t set)
{
    uint64_t r = 0;
    for (int i = 1; set; set &= set - 1, i++) r += retro_binom(__builtin_ctzll(set), i);
    return r;
}

uint64_t retro_colex_unrank(uint64_t r, int k, int top)
{
    uint64_t set = 0;
    for (int i = k, p = top - 1; i >= 1; i--) {
        while (retro_binom(p, i) > r) p--;
        set |= 1ull << p;
        r -= retro_binom(p, i);
        p--;
    }
    return set;
}

int retro_index_locate(const retro_index_t *ix, const game_t *g, const void *state, char *name,
                       uint64_t *idx)
{
    int rc = ix->index(g, state, name, idx);
    if (rc < 0) {
        int why = ix->explain(g, state);
        return why < 0 ? why : hoyle_error(rc, "endgame tables: no class holds the position");
    }
    return 0;
}

const retro_index_t *retro_index_find(const game_t *g)
{
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (strcmp(families[i]->family, g->entry->name) == 0) return families[i];
    return NULL;
}
