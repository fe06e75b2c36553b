/* solitaire.c — the Solitaire registry entry: parameter schema (start holes,
 * target hole), the seed's games as variants, the vtable and create/destroy.
 * Rules, text and observation live in the sibling files (see
 * solitaire_internal.h); docs/games/solitaire.md describes the game. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "games/registry.h"
#include "games/solitaire/solitaire_internal.h"

static const param_def_t solitaire_params[] = {
    {.key = "start",
     .type = PARAM_STRING,
     .def = "17",
     .help = "the holes emptied at the start, numbers 1..33 joined by '+' (17 = the centre)"},
    {.key = "target",
     .type = PARAM_INT,
     .def = "17",
     .min = 0,
     .max = SOL_HOLES,
     .help = "the hole the last marble should end in; 0 = none (fewest marbles only)"},
    {.key = "players",
     .type = PARAM_INT,
     .def = "1",
     .min = 1,
     .max = 2,
     .quiet = true, /* added after records and golden files: left out of specs at its default */
     .help = "2: Double Solitaire, two players jumping in turn, one jump a turn"},
    {.key = "goal",
     .type = PARAM_CHOICE,
     .def = "last",
     .choices = "last|solve",
     .quiet = true,
     .help = "players=2: last (who makes the last jump wins) or solve (the first player wins "
             "if the game ends solved, the second if not)"},
    {.key = NULL},
};

/* The seed's games whose start survives the lost diagrams (docs): Game I
 * (centre to centre), Game II (the upper right-hand corner hole, back to
 * it), Game III (the left-hand upper hole, back to it); and the centre start
 * scored by marbles left only. */
static const char *const solitaire_variants[] = {
    "solitaire",
    "solitaire(start=3,target=3)",
    "solitaire(start=1,target=1)",
    "solitaire(target=0)",
    "solitaire(players=2)",
    "solitaire(players=2,goal=solve)",
    NULL,
};

static const game_vt_t solitaire_vt = {
    .init = sol_init,
    .current_player = sol_current_player,
    .legal_actions = sol_legal_actions,
    .apply = sol_apply,
    .returns = sol_returns,
    .hash = sol_hash,
    .hash_recompute = sol_hash_recompute,
    .observe = sol_observe,
    .state_to_string = sol_state_to_string,
    .position_to_string = sol_position_to_string,
    .position_from_string = sol_position_from_string,
    .action_to_string = sol_action_to_string,
    .action_from_string = sol_action_from_string,
    .move_from_string = sol_move_from_string,
    .move_to_string = sol_move_to_string,
    .symmetry_state = sol_symmetry_state,
    .symmetry_action = sol_symmetry_action,
    .perft = sol_perft,
};

#define SOL_ZOBRIST_SEED 0x5011741e33ULL

/* `start` is one or more hole numbers joined by '+', each at most once. */
static int parse_start(const char *text, uint64_t *empty)
{
    uint64_t m = 0;
    const char *p = text;
    for (;;) {
        const char *end;
        int h = sol_parse_hole(p, &end);
        if (h < 0)
            return hoyle_error(HOYLE_EINVAL,
                               "solitaire: start: '%s' is not hole numbers 1..33 joined by '+'",
                               text);
        if (m >> h & 1)
            return hoyle_error(HOYLE_EINVAL, "solitaire: start: hole %d given twice", h + 1);
        m |= 1ULL << h;
        if (*end == '\0') break;
        if (*end != '+')
            return hoyle_error(HOYLE_EINVAL,
                               "solitaire: start: '%s' is not hole numbers 1..33 joined by '+'",
                               text);
        p = end + 1;
    }
    if (m == SOL_FULL) return hoyle_error(HOYLE_EINVAL, "solitaire: start: no marble left");
    *empty = m;
    return HOYLE_OK;
}

static int solitaire_create(game_t *g)
{
    uint64_t empty = 0;
    if (parse_start(params_str(&g->params, "start"), &empty)) return HOYLE_EINVAL;
    sol_impl_t *im = calloc(1, sizeof *im);
    if (im == NULL) return hoyle_error(HOYLE_ENOMEM, "solitaire: out of memory");
    sol_geometry_init(&im->geo);
    im->start = SOL_FULL & ~empty;
    im->target = (int)params_int(&g->params, "target") - 1;
    im->players = (int)params_int(&g->params, "players");
    im->goal_solve = params_choice(&g->params, "goal") == 1;
    im->start_count = __builtin_popcountll(im->start);
    if (im->goal_solve && im->players == 1) {
        free(im);
        return hoyle_error(HOYLE_EINVAL, "solitaire: goal: goes with players=2");
    }
    rng_t rng;
    rng_init(&rng, SOL_ZOBRIST_SEED);
    for (int h = 0; h < SOL_HOLES; h++) im->zob[h] = rng_next(&rng);
    g->impl = im;
    g->vt = &solitaire_vt;
    g->num_players = im->players;
    g->state_size = sizeof(sol_state_t);
    g->num_actions = SOL_JUMPS;
    g->max_legal = SOL_JUMPS;
    g->max_chance_outcomes = 0;
    g->max_game_length = SOL_HOLES - 2; /* one marble goes per jump; 32 at most, 1 stays */
    g->obs_shape[0] = im->players == 1 ? SOL_PLANES : SOL_PLANES_DOUBLE;
    g->obs_shape[1] = SOL_SIDE, g->obs_shape[2] = SOL_SIDE;
    /* only the symmetries that fix the target hole keep the returns (the
     * last to jump wins wherever the marbles are) */
    bool any_hole = im->target < 0 || (im->players == 2 && !im->goal_solve);
    g->num_symmetries = 0;
    for (int k = 0; k < SYM_COUNT; k++)
        if (any_hole || im->geo.sym_hole[k][im->target] == im->target)
            g->symmetries[g->num_symmetries++] = (sym_t)k;
    return HOYLE_OK;
}

static void solitaire_destroy(game_t *g)
{
    free(g->impl);
    g->impl = NULL;
}

uint64_t solitaire_state_pegs(const void *state) { return ((const sol_state_t *)state)->pegs; }
int solitaire_state_last(const void *state) { return ((const sol_state_t *)state)->last; }
int solitaire_state_moves(const void *state) { return ((const sol_state_t *)state)->moves; }
int solitaire_target(const game_t *g) { return sol_impl(g)->target; }

const game_entry_t solitaire_entry = {
    .name = "solitaire",
    .description = "English Solitaire (peg solitaire, 33 holes): jump to leave one marble; "
                   "players=2: Double Solitaire",
    .params = solitaire_params,
    .variants = solitaire_variants,
    .create = solitaire_create,
    .destroy = solitaire_destroy,
};
