/* foxgeese.c — the Fox and Geese registry entry: parameter schema, variants,
 * the vtable and create/destroy. Rules, text, observation and evaluation
 * live in the sibling files (foxgeese_internal.h); docs/games/foxgeese.md
 * describes the game as implemented, with the seed line behind each rule. */
#include <stdlib.h>

#include "games/foxgeese/foxgeese_internal.h"
#include "games/registry.h"

static const param_def_t foxgeese_params[] = {
    {.key = "geese",
     .type = PARAM_CHOICE,
     .def = "17",
     .choices = "17|15|13",
     .help = "size of the flock, each with its standard start (17: the seed's, on 1-15, 19, 20)"},
    {.key = "fox",
     .type = PARAM_INT,
     .def = "17",
     .min = 1,
     .max = FG_POINTS,
     .help = "the fox's starting point, 1-33, not one of the geese's (seed: 17, the centre)"},
    {.key = "fox_wins_at",
     .type = PARAM_INT,
     .def = "6",
     .min = 0,
     .max = 16,
     .help = "the fox wins once the geese are reduced to this many (seed: six; 0 = all taken)"},
    {.key = "geese_keep",
     .type = PARAM_CHOICE,
     .def = "board",
     .choices = "board|bar",
     .quiet = true, /* added after records and golden files: left out of specs at its default */
     .help = "bar: the geese keep to the horizontal limits, never entering the lower arm "
             "(28-33; seed: a variation, our reading)"},
    {.key = "quiet_limit",
     .type = PARAM_INT,
     .def = "50",
     .min = 2,
     .max = FG_QUIET_MAX,
     .help = "moves (both sides) without a goose moving down or a capture before a draw"},
    {.key = NULL},
};

/* The variants listed by `hoyle games` and run by the conformance tests and
 * the bench: the seed's game and the two smaller flocks. */
static const char *const foxgeese_variants[] = {
    "foxgeese", "foxgeese(geese=15)", "foxgeese(geese=13)", "foxgeese(geese_keep=bar)", NULL,
};

static const game_vt_t foxgeese_vt = {
    .init = fg_init,
    .current_player = fg_current_player,
    .legal_actions = fg_legal_actions,
    .apply = fg_apply,
    .returns = fg_returns,
    .hash = fg_hash,
    .hash_recompute = fg_hash_recompute,
    .observe = fg_observe,
    .state_to_string = fg_state_to_string,
    .position_to_string = fg_position_to_string,
    .position_from_string = fg_position_from_string,
    .action_to_string = fg_action_to_string,
    .action_from_string = fg_action_from_string,
    .move_from_string = fg_move_from_string,
    .move_to_string = fg_move_to_string,
    .evaluate = fg_evaluate,
    .eval_terms = fg_eval_terms,
    .is_noisy = fg_is_noisy,
    .symmetry_state = fg_symmetry_state,
    .symmetry_action = fg_symmetry_action,
};

static int foxgeese_create(game_t *g)
{
    static const int flock[3] = {17, 15, 13}; /* the order of the `geese` choices */
    int geese = flock[params_choice(&g->params, "geese")];
    int fox = (int)params_int(&g->params, "fox") - 1;
    int fox_wins_at = (int)params_int(&g->params, "fox_wins_at");
    int quiet_limit = (int)params_int(&g->params, "quiet_limit");
    /* the schema bounds each key alone; together they must fit the flock */
    if (fg_start_geese(geese) & fg_bit(fox))
        return hoyle_error(HOYLE_EINVAL, "foxgeese: fox: point %d holds a goose at the start",
                           fox + 1);
    if (fox_wins_at >= geese)
        return hoyle_error(HOYLE_EINVAL, "foxgeese: fox_wins_at: %d is not below the %d geese",
                           fox_wins_at, geese);
    int status = fg_impl_create(g, geese, fox, fox_wins_at, quiet_limit);
    if (status) return status;
    fg_impl_t *im = (fg_impl_t *)g->impl;
    /* geese_keep=bar: no goose step ends on the lower arm (rows 5-6) */
    bool bar = params_choice(&g->params, "geese_keep") == 1;
    for (int p = 0; p < FG_POINTS; p++)
        for (int d = 0; d < FG_DIRS; d++) {
            int t = im->nbr[p][d];
            im->gnbr[p][d] = (int8_t)(t >= 0 && bar && im->row[t] >= 5 ? -1 : t);
        }
    g->vt = &foxgeese_vt;
    g->num_players = 2;
    g->state_size = sizeof(fg_state_t);
    g->num_actions = FG_ACTIONS;
    /* three steps per goose; the fox has at most four */
    g->max_legal = 3 * geese;
    g->max_chance_outcomes = 0;
    /* Progress (a goose moving down, at most 6 rows each, or a capture, at
     * most one per goose) happens at most 7 * geese times; between two, at
     * most quiet_limit quiet actions before the draw. */
    g->max_game_length = 7 * geese + (7 * geese + 1) * quiet_limit;
    g->obs_shape[0] = FG_PLANES, g->obs_shape[1] = FG_GRID, g->obs_shape[2] = FG_GRID;
    g->num_symmetries = 2;
    g->symmetries[0] = SYM_IDENTITY;
    g->symmetries[1] = SYM_FLIP_COLS;
    fg_state_t start;
    fg_init(g, &start);
    im->eval_base = fg_eval_raw(im, &start);
    return HOYLE_OK;
}

static void foxgeese_destroy(game_t *g)
{
    free(g->impl);
    g->impl = NULL;
}

const game_entry_t foxgeese_entry = {
    .name = "foxgeese",
    .description = "Fox and Geese on the 33-point cross: 17 geese hem in the fox, who jumps them",
    .params = foxgeese_params,
    .variants = foxgeese_variants,
    .create = foxgeese_create,
    .destroy = foxgeese_destroy,
};
