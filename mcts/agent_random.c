/* agent_random.c — uniformly random legal actions (the baseline). */
#include "mcts/agent_kind.h"

static int random_act(agent_t *a, const void *state, int *action)
{
    int n = game_legal_actions(a->g, state, a->legal);
    if (n <= 0) return hoyle_error(HOYLE_ESTATE, "random: no legal action");
    /* The agent's own seeded stream: a seeded match replays move for move. */
    *action = a->legal[rng_below(&a->rng, (uint32_t)n)];
    return HOYLE_OK;
}

static const agent_vt_t random_vt = {.act = random_act};

static int random_create(agent_t *a)
{
    a->vt = &random_vt;
    return HOYLE_OK;
}

static const param_def_t random_params[] = {{.key = NULL}};

const agent_kind_t agent_random_kind = {
    .name = "random",
    .description = "uniformly random legal action",
    .params = random_params,
    .caps = AGENT_CAP_CHANCE | AGENT_CAP_SEEDED,
    .create = random_create,
};
