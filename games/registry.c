/* registry.c — the game table and game_create()/game_free().
 * Adding a game: one folder under games/, one line in game_registry[].
 * Invariant: every game_t handed out has a canonical spec string (all
 * parameters explicit, in declaration order) and SYM_IDENTITY as its first
 * symmetry; game_registry_check proves each listed variant meets the vtable
 * contract in games/game.h. */
#include "games/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const game_entry_t backgammon_entry;
extern const game_entry_t checkers_entry;
extern const game_entry_t chess_entry;
extern const game_entry_t fanorona_entry;
extern const game_entry_t fifteen_entry;
extern const game_entry_t foxgeese_entry;
extern const game_entry_t gobang_entry;
extern const game_entry_t solitaire_entry;
extern const game_entry_t thirtyfour_entry;

/* NULL-terminated; the order is the order `hoyle games` lists them in. */
const game_entry_t *const game_registry[] = {
    &checkers_entry,   /* seed 001 (and the end of 000) */
    &gobang_entry,     /* seed 000 */
    &backgammon_entry, /* seed 001 */
    &chess_entry,      /* seed 001 */
    &fanorona_entry,   /* seeds 002 and 000 */
    &foxgeese_entry,   /* seed 000 */
    &solitaire_entry,  /* seed 000 */
    &fifteen_entry,    /* seed 000 (cut short: the standard rules) */
    &thirtyfour_entry, /* seed 000 (cut short: the arrangement the name gives) */
    NULL,
};

const game_entry_t *game_registry_find(const char *name)
{
    for (int i = 0; game_registry[i]; i++)
        if (strcmp(game_registry[i]->name, name) == 0) return game_registry[i];
    return NULL;
}

/* spec_name_fn over the registry, for the unknown-game message. */
static const char *registry_name_at(const void *ctx, int i)
{
    (void)ctx;
    for (int j = 0; j < i; j++)
        if (game_registry[j] == NULL) return NULL;
    return game_registry[i] ? game_registry[i]->name : NULL;
}

int game_create(const char *text, const game_t **out)
{
    spec_t spec;
    if (spec_parse(text, &spec)) return HOYLE_EINVAL;
    const game_entry_t *entry = game_registry_find(spec.name);
    if (entry == NULL) {
        return spec_unknown("unknown game", spec.name, registry_name_at, NULL);
    }
    game_t *g = calloc(1, sizeof *g);
    if (g == NULL) return hoyle_error(HOYLE_ENOMEM, "game_create: out of memory");
    g->entry = entry;
    /* Bind the spec's key=value pairs to the game's declared parameters, then
     * re-format them so g->spec is canonical: two spellings of one variant get
     * one spec string. */
    if (params_bind(entry->params, &spec, entry->name, &g->params) ||
        params_format(&g->params, entry->name, g->spec, sizeof g->spec) < 0) {
        free(g);
        return HOYLE_EINVAL;
    }
    /* Default: only the identity. A game's create() overrides this when it
     * declares more symmetries. */
    g->num_symmetries = 1;
    g->symmetries[0] = SYM_IDENTITY;
    int status = entry->create(g);
    if (status) {
        free(g);
        return status;
    }
    if (g->num_seats == 0) g->num_seats = g->num_players; /* one seat per player */
    *out = g;
    return HOYLE_OK;
}

void game_free(const game_t *g)
{
    if (g == NULL) return;
    /* Callers hold const game_t *; the game was calloc'd by game_create, so
     * casting away const here is sound. */
    game_t *mut = (game_t *)g;
    if (g->entry->destroy) g->entry->destroy(mut);
    free(mut);
}

/* Validation the conformance tests run: duplicate names, missing entry fields, and
 * for every listed variant the mandatory vtable slots and descriptive fields,
 * plus the pairings games/game.h requires (symmetries <-> symmetry slots,
 * more seats than players <-> current_seat,
 * chance outcomes <-> chance_outcomes, record writer <-> record_format). */
int game_registry_check(void)
{
    for (int i = 0; game_registry[i]; i++) {
        const game_entry_t *e = game_registry[i];
        for (int j = 0; j < i; j++)
            if (strcmp(game_registry[j]->name, e->name) == 0)
                return hoyle_error(HOYLE_EINVAL, "registry: game '%s' registered twice", e->name);
        if (!e->create || !e->description || !e->variants || !e->variants[0])
            return hoyle_error(HOYLE_EINVAL,
                               "registry: game '%s' lacks create/description/variants", e->name);
        for (int v = 0; e->variants[v]; v++) {
            const game_t *g = NULL;
            if (game_create(e->variants[v], &g)) return HOYLE_EINVAL;
            const game_vt_t *vt = g->vt;
            int ok = vt && vt->init && vt->current_player && vt->legal_actions && vt->apply &&
                     vt->returns && vt->hash && vt->hash_recompute && vt->observe &&
                     vt->state_to_string && vt->position_to_string && vt->position_from_string &&
                     vt->action_to_string && vt->action_from_string && g->state_size > 0 &&
                     g->num_actions > 0 && g->max_legal > 0 && g->num_players >= 1 &&
                     g->num_players <= GAME_MAX_PLAYERS && g->obs_shape[0] > 0 &&
                     g->num_seats % g->num_players == 0 &&
                     (g->num_seats == g->num_players || vt->current_seat) &&
                     g->symmetries[0] == SYM_IDENTITY &&
                     (g->num_symmetries == 1 || (vt->symmetry_state && vt->symmetry_action)) &&
                     (g->max_chance_outcomes == 0 || vt->chance_outcomes) &&
                     (vt->record_to_string == NULL || vt->record_format != NULL);
            game_free(g);
            if (!ok)
                return hoyle_error(HOYLE_EINVAL,
                                   "registry: variant '%s' has an incomplete description",
                                   e->variants[v]);
        }
    }
    return HOYLE_OK;
}
