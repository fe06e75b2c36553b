/* agent_gnubg.c — GNU Backgammon as an agent, `gnubg(plies=0|1|2)`, so that
 * hoyle's agents can be rated against a world-class program. The play itself
 * is games/backgammon/gnubg_player.h; this file is its agent kind (the seam
 * mcts/agent_kind.h), registered by game_agents_register(). Backgammon only. */
#include <string.h>

#include "agents/game_agents.h"
#include "games/backgammon/gnubg_player.h"
#include "games/registry.h"
#include "mcts/agent_kind.h"

static int gnubg_act(agent_t *a, const void *state, int *action)
{
    return gnubg_player_step(a->impl, state, action);
}

static void gnubg_reset(agent_t *a) { gnubg_player_reset(a->impl); }

static void gnubg_destroy(agent_t *a) { gnubg_player_close(a->impl); }

static const agent_vt_t gnubg_vt = {
    .act = gnubg_act, .reset = gnubg_reset, .destroy = gnubg_destroy};

static int gnubg_create(agent_t *a)
{
    if (strcmp(a->g->entry->name, "backgammon") != 0)
        return hoyle_error(HOYLE_EINVAL, "gnubg: plays only backgammon, not %s", a->g->spec);
    gnubg_player_t *p;
    int status =
        gnubg_player_open(params_str(&a->params, "path"), (int)params_int(&a->params, "plies"), &p);
    if (status) return status; /* nothing made: agent.c frees only the agent */
    a->impl = p;
    a->vt = &gnubg_vt;
    return HOYLE_OK;
}

static const param_def_t gnubg_params[] = {
    {.key = "plies",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = GNUBG_CLIENT_MAX_PLIES,
     .help = "gnubg's search depth: 0 (its network alone), 1, 2 (strong, ~50 ms a play)"},
    {.key = "path",
     .type = PARAM_STRING,
     .def = "",
     .help = "the gnubg program (empty: $HOYLE_GNUBG, else " GNUBG_DEFAULT_PATH ")"},
    {.key = NULL},
};

const agent_kind_t agent_gnubg_kind = {
    .name = "gnubg",
    .description = "GNU Backgammon's own play (backgammon only; needs the gnubg package)",
    .params = gnubg_params,
    .caps = AGENT_CAP_TWO_PLAYER | AGENT_CAP_CHANCE,
    .create = gnubg_create,
};
