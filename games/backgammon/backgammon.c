/* backgammon.c — the Backgammon registry entry: parameter schema, variants,
 * the vtable and create/destroy. Rules, text, observation and evaluation
 * live in the sibling files (see bg_internal.h); docs/games/backgammon.md
 * describes the game as implemented. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "games/backgammon/bg_internal.h"
#include "games/registry.h"

static const param_def_t backgammon_params[] = {
    {.key = "scoring",
     .type = PARAM_CHOICE,
     .def = "win",
     .choices = "win|points",
     .help = "win: every win is +1; points: single, gammon, backgammon score 1/3, 2/3, 1"},
    {.key = "max_turns",
     .type = PARAM_INT,
     .def = "1000",
     .min = 2,
     .max = 10000,
     .help = "rolls (both sides) after which an unfinished game is drawn (a safety net)"},
    {.key = "numbering",
     .type = PARAM_CHOICE,
     .def = "modern",
     .choices = "modern|foster",
     .help = "move text: modern (gnubg; the back men on 24) or foster (the seed's: back men on 1)"},
    {.key = NULL},
};

static const char *const backgammon_variants[] = {
    "backgammon",
    "backgammon(scoring=points)",
    "backgammon(numbering=foster)",
    NULL,
};

static const game_vt_t backgammon_vt = {
    .init = bg_init,
    .current_player = bg_current_player,
    .legal_actions = bg_legal_actions,
    .apply = bg_apply,
    .returns = bg_returns,
    .hash = bg_hash,
    .hash_recompute = bg_hash_recompute,
    .observe = bg_observe,
    .state_to_string = bg_state_to_string,
    .position_to_string = bg_position_to_string,
    .position_from_string = bg_position_from_string,
    .action_to_string = bg_action_to_string,
    .action_from_string = bg_action_from_string,
    .chance_outcomes = bg_chance_outcomes,
    .move_from_string = bg_move_from_string,
    .move_to_string = bg_move_to_string,
    .evaluate = bg_evaluate,
    .is_noisy = bg_is_noisy,
    .perft = bg_perft,
    .features = bg_features,
    .outcome_heads = bg_outcome_heads,
    .outcome_targets = bg_outcome_targets,
};

static int backgammon_create(game_t *g)
{
    bool points = strcmp(params_str(&g->params, "scoring"), "points") == 0;
    bool foster = strcmp(params_str(&g->params, "numbering"), "foster") == 0;
    int status = bg_impl_create(g, points, (int)params_int(&g->params, "max_turns"), foster);
    if (status) return status;
    g->vt = &backgammon_vt;
    g->num_players = 2;
    /* the state is a flat struct (no pointers): copies are memcpy */
    g->state_size = (sizeof(bg_state_t) + 7) / 8 * 8;
    g->num_actions = BG_NUM_ACTIONS;
    /* the largest action set is every step plus the pass; rolls (36
     * actions) fit below it */
    g->max_legal = BG_NUM_ACTIONS;
    /* 21 distinct rolls, or 30 ordered die pairs for the opening roll
     * (doubles re-rolled) */
    g->max_chance_outcomes = 30;
    /* each turn is one roll and at most four steps; +1 for the opening */
    g->max_game_length = 1 + bg_impl(g)->max_turns * (1 + BG_MAX_STEPS);
    g->obs_shape[0] = BG_PLANES, g->obs_shape[1] = 1, g->obs_shape[2] = BG_POINTS;
    return HOYLE_OK;
}

static void backgammon_destroy(game_t *g)
{
    free(g->impl);
    g->impl = NULL;
}

const game_entry_t backgammon_entry = {
    .name = "backgammon",
    .description =
        "Backgammon: race your fifteen men round and off the board; dice are chance nodes",
    .params = backgammon_params,
    .variants = backgammon_variants,
    .create = backgammon_create,
    .destroy = backgammon_destroy,
};
