/* agent_greedy.c — one-ply greedy: the move whose resulting state the game's evaluate()
 * likes best for the mover (an expectation over the outcomes when the move leads to a
 * chance node); one action, or with whole=true the mover's whole turn (a chain: checkers'
 * multi-jumps, backgammon's steps of one roll). The body is agent_ply_create over the
 * heuristic evaluator; ties are broken at random by the agent's seeded stream. */
#include "mcts/agent_kind.h"

static int greedy_create(agent_t *a)
{
    evaluator_t *e = NULL;
    int status = evaluator_heuristic_create(a->g, &e);
    if (status) return status;
    return agent_ply_create(a, e, params_bool(&a->params, "whole"), NULL, NULL);
}

static const param_def_t greedy_params[] = {
    {.key = "whole",
     .type = PARAM_BOOL,
     .def = "false",
     .help = "value the mover's whole turn (his chain of actions), not one action"},
    {.key = NULL},
};

const agent_kind_t agent_greedy_kind = {
    .name = "greedy",
    .description = "one-ply: the move the game's heuristic likes best",
    .params = greedy_params,
    .caps = AGENT_CAP_CHANCE | AGENT_CAP_SEEDED,
    .create = greedy_create,
};
