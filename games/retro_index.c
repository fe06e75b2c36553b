/* retro_index.c — the table of game families with a retrograde index
 * (retro_index.h): one row per family, looked up by registry name. */
#include <string.h>

#include "games/registry.h"
#include "games/retro_index.h"

extern const retro_index_t chess_retro_index, checkers_retro_index;

static const retro_index_t *const families[] = {
    &chess_retro_index,
    &checkers_retro_index,
};

const retro_index_t *retro_index_find(const game_t *g)
{
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (strcmp(families[i]->family, g->entry->name) == 0) return families[i];
    return NULL;
}
