/* gobang.c — the Go-Bang registry entry: parameter schema, variants, the
 * vtable and create/destroy. Rules, text, observation and evaluation live in
 * the sibling files (see gobang_internal.h); docs/games/gobang.md describes
 * the game as implemented. */
#include <stddef.h>
#include <stdlib.h>

#include "games/gobang/gobang_internal.h"
#include "games/registry.h"

static const param_def_t gobang_params[] = {
    {.key = "board",
     .type = PARAM_INT,
     .def = "8",
     .min = GB_MIN_N,
     .max = GB_MAX_N,
     .help = "board side N (an N x N board; the seed plays on the 8x8 chess-board)"},
    {.key = "men",
     .type = PARAM_INT,
     .def = "12",
     .min = 0,
     .max = GB_MAX_SQ / 2,
     .help = "men per side, at most N*N/2; 0 = place in turn until the board is full (Gomoku)"},
    {.key = "odds",
     .type = PARAM_BOOL,
     .def = "false",
     .quiet = true, /* added after records and models: left out of specs at false */
     .help = "Black (the second player) has one man fewer: the seed's odds, 'a superior player "
             "having eleven against twelve men' (needs men >= 2 and a moving phase)"},
    {.key = "players",
     .type = PARAM_INT,
     .def = "2",
     .min = 2,
     .max = 4,
     .quiet = true, /* added after records and models: left out of specs at 2 */
     .help = "2, or 4: two partnerships of two seats playing in turn as at whist (W1, B1, W2, "
             "B2), the seed's 'four persons, taking partners'; `men` is then per partnership, "
             "shared equally (six men each by default)"},
    {.key = "exact",
     .type = PARAM_BOOL,
     .def = "false",
     .help = "only exactly five wins (a line of six or more does not)"},
    {.key = "lines",
     .type = PARAM_BOOL,
     .def = "false",
     .quiet = true, /* added after records and models: left out of specs at false */
     .help = "the observation adds 6 planes, the lines of five through each empty square by "
             "colour and men in them (a net's input; the rules are unchanged)"},
    {.key = "move_limit",
     .type = PARAM_INT,
     .def = "200",
     .min = 1,
     .max = 10000,
     .help = "moving-phase moves (both sides together) after which the game is drawn"},
    {.key = NULL},
};

/* The variants listed by `hoyle games` and run by the conformance tests:
 * the seed's game, Gomoku, the exact-five rule, a small board, the seed's
 * odds (eleven men against twelve) and its four-player partnership game. */
static const char *const gobang_variants[] = {
    "gobang",
    "gobang(board=15,men=0)",
    "gobang(exact=true)",
    "gobang(board=15,men=0,exact=true)",
    "gobang(board=5,men=6)",
    "gobang(odds=true)",
    "gobang(players=4)",
    "gobang(board=5,men=6,players=4)",
    NULL,
};

static const game_vt_t gobang_vt = {
    .init = gb_init,
    .current_player = gb_current_player,
    .legal_actions = gb_legal_actions,
    .apply = gb_apply,
    .returns = gb_returns,
    .hash = gb_hash,
    .hash_recompute = gb_hash_recompute,
    .observe = gb_observe,
    .state_to_string = gb_state_to_string,
    .position_to_string = gb_position_to_string,
    .position_from_string = gb_position_from_string,
    .action_to_string = gb_action_to_string,
    .action_from_string = gb_action_from_string,
    .evaluate = gb_evaluate,
    .is_noisy = gb_is_noisy,
    .threat_hints = gb_threat_hints,
    .symmetry_state = gb_symmetry_state,
    .symmetry_action = gb_symmetry_action,
    .perft = gb_perft,
    .current_seat = gb_current_seat,
};

static int gobang_create(game_t *g)
{
    int n = (int)params_int(&g->params, "board");
    int men = (int)params_int(&g->params, "men");
    bool exact = params_bool(&g->params, "exact");
    bool odds = params_bool(&g->params, "odds");
    int move_limit = (int)params_int(&g->params, "move_limit");
    int seats = (int)params_int(&g->params, "players");
    /* the schema bounds each key alone; together they must fit the board */
    if (2 * men > n * n)
        return hoyle_error(HOYLE_EINVAL,
                           "gobang: men: %d men a side need %d squares, board=%d has %d", men,
                           2 * men, n, n * n);
    if (odds && (men < 2 || 2 * men >= n * n))
        return hoyle_error(HOYLE_EINVAL,
                           "gobang: odds: needs men >= 2 with room to move (men=%d, board=%d)", men,
                           n);
    if (seats == 3)
        return hoyle_error(HOYLE_EINVAL,
                           "gobang: players: 2, or 4 in two partnerships; 3 cannot be seated");
    if (seats == 4 && men % 2)
        return hoyle_error(HOYLE_EINVAL,
                           "gobang: men: with players=4 a partnership's men are shared equally "
                           "by its two seats; %d is odd",
                           men);
    if (seats == 4 && odds)
        return hoyle_error(HOYLE_EINVAL, "gobang: odds: not with players=4 (the seed gives odds "
                                         "only in the two-player game)");
    int status = gb_impl_create(g, n, men, odds, exact, move_limit, seats);
    if (status) return status;
    ((gb_impl_t *)g->impl)->lines = params_bool(&g->params, "lines");
    const gb_impl_t *im = gb_impl(g);
    g->vt = &gobang_vt;
    g->num_players = 2; /* the colours; with players=4 each is a partnership of two seats */
    g->num_seats = seats;
    /* the state ends in one byte per square: size it for this board only,
     * rounded to 8 so that copies stay word-aligned */
    size_t size = offsetof(gb_state_t, cell) + (size_t)im->nsq * (seats == 4 ? 2 : 1);
    g->state_size = (size + 7) / 8 * 8;
    /* placements are 0..nsq-1; steps are nsq + from * 8 + direction */
    g->num_actions = im->moving ? im->nsq * (1 + GB_DIRS) : im->nsq;
    int most_steps = im->moving ? GB_DIRS * men : 0;
    g->max_legal = im->nsq > most_steps ? im->nsq : most_steps;
    g->max_chance_outcomes = 0;
    /* every placement, then at most move_limit steps */
    g->max_game_length = im->hand0[0] + im->hand0[1] + (im->moving ? move_limit : 0);
    g->obs_shape[0] = (seats == 4 ? GB_PLANES_4 : GB_PLANES) + (im->lines ? GB_LINE_PLANES : 0),
    g->obs_shape[1] = n, g->obs_shape[2] = n;
    /* placements are one plane; steps are from-square-major over the 8 directions */
    g->policy_planes = im->moving ? 1 + GB_DIRS : 1, g->policy_lead = 1;
    g->num_symmetries = SYM_COUNT;
    for (int k = 0; k < SYM_COUNT; k++) g->symmetries[k] = (sym_t)k;
    return HOYLE_OK;
}

static void gobang_destroy(game_t *g)
{
    free(g->impl);
    g->impl = NULL;
}

const game_entry_t gobang_entry = {
    .name = "gobang",
    .description = "Go-Bang (Go-Ban): five in a row; place your men, then move them one square",
    .params = gobang_params,
    .variants = gobang_variants,
    .create = gobang_create,
    .destroy = gobang_destroy,
};
