/* fifteen.c — the Fifteen-puzzle registry entry: parameter schema,
 * variants, the vtable and create/destroy, and the plain-data view of a
 * board for the solver (fifteen.h). Rules, text and observation live in the
 * sibling files (see fifteen_internal.h); docs/games/fifteen.md describes
 * the game as implemented. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "games/fifteen/fifteen_internal.h"
#include "games/registry.h"

static const param_def_t fifteen_params[] = {
    {.key = "size",
     .type = PARAM_INT,
     .def = "4",
     .min = FIFTEEN_MIN_N,
     .max = FIFTEEN_MAX_N,
     .help = "board side N (N x N cells, N*N - 1 tiles; 4 = the Fifteen puzzle, 3 = the Eight)"},
    {.key = "blank",
     .type = PARAM_CHOICE,
     .def = "last",
     .choices = "last|first",
     .help = "the blank's goal cell: last (1 2 ... 15 then the blank) or first (Korf: 0 1 ... 15)"},
    {.key = "seed",
     .type = PARAM_INT,
     .def = "1",
     .min = 0,
     .max = 2147483647,
     .help = "seed of the random start position"},
    {.key = "scramble",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 100000,
     .help = "0: a uniformly random solvable start; K > 0: K random moves from the goal"},
    {.key = "start",
     .type = PARAM_STRING,
     .def = "random",
     .help = "'random' (seed, scramble), or a start position: the N*N tiles row by row, 0 = blank"},
    {.key = "moves",
     .type = PARAM_INT,
     .def = "400",
     .min = 1,
     .max = 60000,
     .help = "moves after which an unsolved game ends (returns then shaped by distance)"},
    {.key = NULL},
};

/* The variants listed by `hoyle games` and run by the conformance tests: the
 * Fifteen puzzle with either goal, and the Eight puzzle. */
static const char *const fifteen_variants[] = {
    "fifteen",
    "fifteen(blank=first)",
    "fifteen(size=3)",
    NULL,
};

static const game_vt_t fifteen_vt = {
    .init = fif_init,
    .current_player = fif_current_player,
    .legal_actions = fif_legal_actions,
    .apply = fif_apply,
    .returns = fif_returns,
    .hash = fif_hash,
    .hash_recompute = fif_hash_recompute,
    .observe = fif_observe,
    .state_to_string = fif_state_to_string,
    .position_to_string = fif_position_to_string,
    .position_from_string = fif_position_from_string,
    .action_to_string = fif_action_to_string,
    .action_from_string = fif_action_from_string,
    .evaluate = fif_evaluate,
};

static int fifteen_create(game_t *g)
{
    int n = (int)params_int(&g->params, "size");
    bool blank_first = params_choice(&g->params, "blank") == 1;
    int status =
        fif_impl_create(g, n, blank_first, (int)params_int(&g->params, "moves"),
                        (uint64_t)params_int(&g->params, "seed"),
                        (int)params_int(&g->params, "scramble"), params_str(&g->params, "start"));
    if (status) return status;
    g->vt = &fifteen_vt;
    g->num_players = 1;
    g->state_size = (sizeof(fif_state_t) + 7) / 8 * 8;
    g->num_actions = FIF_DIRS;
    g->max_legal = FIF_DIRS;
    g->max_chance_outcomes = 0;
    g->max_game_length = fif_impl(g)->max_moves;
    /* one plane per tile (the blank's first), then the moves used */
    g->obs_shape[0] = n * n + 1, g->obs_shape[1] = n, g->obs_shape[2] = n;
    /* No symmetries: a reflection or rotation moves the goal, or keeps it
     * (the transpose) only after renaming the tiles, which is not a map of
     * the observation planes onto themselves (docs/games/fifteen.md). */
    g->num_symmetries = 1;
    return HOYLE_OK;
}

static void fifteen_destroy(game_t *g)
{
    free(g->impl);
    g->impl = NULL;
}

const game_entry_t fifteen_entry = {
    .name = "fifteen",
    .description = "the Fifteen puzzle (N x N sliding tiles): put the tiles in order",
    .params = fifteen_params,
    .variants = fifteen_variants,
    .create = fifteen_create,
    .destroy = fifteen_destroy,
};

void fifteen_board(const game_t *g, const void *sv, fifteen_board_t *out)
{
    const fif_impl_t *im = fif_impl(g);
    const fif_state_t *s = sv;
    memset(out, 0, sizeof *out);
    out->n = im->n;
    out->cells = im->cells;
    memcpy(out->cell, s->cell, (size_t)im->cells);
    memcpy(out->goal_cell, im->goal_cell, (size_t)im->cells);
}

int fifteen_distance(const game_t *g, const void *s)
{
    (void)g;
    return ((const fif_state_t *)s)->dist;
}
