/* fanorona.c — the `fanorona` game family: parameters, variants, vtable and
 * registry entry. Rules in movegen.c, text in notation.c, observation and
 * symmetries in observe.c, heuristic in eval.c (see fanorona_internal.h);
 * docs/games/fanorona.md describes the game as implemented. */
#include <stdlib.h>

#include "games/fanorona/fanorona_internal.h"
#include "games/registry.h"

static void fn_init(const game_t *g, void *s) { fn_start_position(fn_game(g), s); }

/* `result` is decided when a turn ends, so an ended game has no player to
 * move; mid-chain the mover keeps the turn (game_whole_moves groups it). */
static int fn_current_player(const game_t *g, const void *state)
{
    (void)g;
    const fn_state_t *s = state;
    return s->result == FN_ONGOING ? s->side : PLAYER_TERMINAL;
}

static int fn_legal(const game_t *g, const void *s, int *out)
{
    return fn_legal_actions(fn_game(g), s, out);
}

static void fn_do(const game_t *g, void *s, int action) { fn_apply(fn_game(g), s, action); }

static void fn_returns(const game_t *g, const void *state, double *out)
{
    (void)g;
    const fn_state_t *s = state;
    out[0] = out[1] = 0.0;
    if (s->result == FN_WIN0) out[0] = 1.0, out[1] = -1.0;
    if (s->result == FN_WIN1) out[0] = -1.0, out[1] = 1.0;
}

static uint64_t fn_hash(const game_t *g, const void *s)
{
    (void)g;
    return ((const fn_state_t *)s)->hash;
}

static uint64_t fn_rehash(const game_t *g, const void *s) { return fn_hash_compute(fn_game(g), s); }

static const game_vt_t fanorona_vt = {
    .init = fn_init,
    .current_player = fn_current_player,
    .legal_actions = fn_legal,
    .apply = fn_do,
    .returns = fn_returns,
    .hash = fn_hash,
    .hash_recompute = fn_rehash,
    .observe = fn_observe,
    .state_to_string = fn_state_to_string,
    .position_to_string = fn_position_to_string,
    .position_from_string = fn_position_from_string,
    .action_to_string = fn_action_to_string,
    .action_from_string = fn_action_from_string,
    .move_from_string = fn_move_from_string,
    .move_to_string = fn_move_to_string,
    .evaluate = fn_evaluate,
    .eval_terms = fn_eval_terms,
    .is_noisy = fn_is_noisy,
    .symmetry_state = fn_symmetry_state,
    .symmetry_action = fn_symmetry_action,
    .perft = fn_perft,
};

static const param_def_t fanorona_params[] = {
    {.key = "vela",
     .type = PARAM_BOOL,
     .def = "false",
     .help = "the vela form (seed 002): White, the vanquished, opens; while Black has more than "
             "five pieces he only steps and White takes one piece a turn"},
    {.key = "draw_moves",
     .type = PARAM_INT,
     .def = "50",
     .min = 1,
     .max = 1000,
     .help = "whole moves in a row (both sides together) without a capture that draw the game"},
    {.key = NULL},
};

/* The variants `hoyle games` lists and the conformance suite runs. */
static const char *const fanorona_variants[] = {
    "fanorona",
    "fanorona(vela=true)",
    NULL,
};

static int fanorona_create(game_t *g)
{
    fn_game_t *fg = calloc(1, sizeof *fg);
    if (fg == NULL) return hoyle_error(HOYLE_ENOMEM, "fanorona: out of memory");
    fg->vela = params_bool(&g->params, "vela");
    fg->draw_moves = (int)params_int(&g->params, "draw_moves");
    fn_tables_init(fg);
    g->impl = fg;
    g->vt = &fanorona_vt;
    g->num_players = 2;
    g->state_size = sizeof(fn_state_t);
    g->num_actions = FN_NUM_ACTIONS;
    g->max_legal = FN_MAX_LEGAL;
    g->max_chance_outcomes = 0;
    /* Each capture step takes a piece (<= 44 of them, each maybe followed by
     * a stop); between two captures at most draw_moves paika moves. */
    g->max_game_length = 2 * 2 * FN_MAX_PIECES + (2 * FN_MAX_PIECES + 1) * fg->draw_moves;
    g->obs_shape[0] = FN_PLANES;
    g->obs_shape[1] = FN_ROWS;
    g->obs_shape[2] = FN_COLS;
    /* The 5 x 9 board's reflections, which keep the diagonal pattern (a point
     * with row + col even maps to one): up-down, left-right and both. */
    g->num_symmetries = 4;
    g->symmetries[0] = SYM_IDENTITY;
    g->symmetries[1] = SYM_FLIP_ROWS;
    g->symmetries[2] = SYM_FLIP_COLS;
    g->symmetries[3] = SYM_ROT180;
    return HOYLE_OK;
}

static void fanorona_destroy(game_t *g)
{
    free(g->impl);
    g->impl = NULL;
}

const game_entry_t fanorona_entry = {
    .name = "fanorona",
    .description =
        "Fanorona (Madagascar): capture by approach or withdrawal, chains; the vela form",
    .params = fanorona_params,
    .variants = fanorona_variants,
    .create = fanorona_create,
    .destroy = fanorona_destroy,
};
