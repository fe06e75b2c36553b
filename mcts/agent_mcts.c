/* agent_mcts.c — the `mcts` agent: the search agent body (agent_search.c)
 * over one of its own evaluators (random rollouts, heuristic or the fake
 * network), with the whole search configurable from its spec: UCT or PUCT,
 * fpu, solver, time or simulation limits, tree size. */
#include <string.h>

#include "core/error.h"
#include "mcts/agent_kind.h"
#include "mcts/tb_probe.h"

/* Seed salts of the tree and the evaluator ("mcts", "eval"): fixed, so seeded
 * results stay what they have always been. */
#define MCTS_AGENT_TREE_SALT 0x6d637473ULL
#define MCTS_AGENT_EVAL_SALT 0x6576616cULL

static int mcts_agent_create(agent_t *a)
{
    const params_t *pp = &a->params;
    mcts_params_t p;
    mcts_params_default(&p);
    if (mcts_params_bind(pp, &p)) return HOYLE_EINVAL;
    /* The evaluator's own salted seed: rollouts never replay the tree's draws
     * (noise, chance sampling), which would correlate the two. */
    evaluator_t *eval = NULL;
    int status =
        evaluator_create_named(a->g, params_str(pp, "eval"), (int)params_int(pp, "rollouts"),
                               rng_mix(a->seed ^ MCTS_AGENT_EVAL_SALT), &eval);
    if (status) return status;
    /* tb=DIR: the tables, freed with the agent (the search body's owner) */
    tb_t *tb = NULL;
    const char *tb_dir = params_str(pp, "tb");
    if (tb_dir[0] && (status = tb_open(a->g, tb_dir, &tb)) != 0) {
        evaluator_free(eval);
        return hoyle_error_prefix(status, "mcts");
    }
    p.tb = tb;
    /* The variants that learn from the playouts' moves (AMAF, MAST, NST, progressive
     * history) need the searcher to play them itself (mcts_playout.c): the same number,
     * uniformly random unless mast or nst shapes them. */
    if (strcmp(params_str(pp, "eval"), "rollout") == 0 &&
        (p.rave || p.grave > 0 || p.mast > 0 || p.nst > 0 || p.phist > 0))
        p.playouts = (int)params_int(pp, "rollouts");
    return agent_search_create(a, &p, eval, MCTS_AGENT_TREE_SALT, MCTS_AGENT_EVAL_SALT,
                               tb ? tb_release : NULL, tb);
}

static const param_def_t mcts_agent_params[] = {
    {.key = "sims",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1e9,
     .help = "simulations per move; 0 = 1000, or unlimited with time_ms"},
    {.key = "time_ms",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1e9,
     .help = "time per move in ms; 0 = simulations only"},
    {.key = "select",
     .type = PARAM_CHOICE,
     .def = "uct",
     .choices = "uct|puct",
     .help = "UCT (Kocsis & Szepesvari) or PUCT (AlphaZero)"},
    MCTS_PUCT_PARAM_DEFS("1.4"),
    {.key = "fpu",
     .type = PARAM_STRING,
     .def = "auto",
     .help = "first-play urgency: auto, inf, parent, parent-R or a value"},
    {.key = "eval",
     .type = PARAM_CHOICE,
     .def = "rollout",
     .choices = "rollout|heuristic|fake",
     .help = "leaf evaluator"},
    {.key = "rollouts",
     .type = PARAM_INT,
     .def = "1",
     .min = 1,
     .max = 100000,
     .help = "random rollouts per leaf (eval=rollout)"},
    {.key = "solver",
     .type = PARAM_BOOL,
     .def = "true",
     .help = "MCTS-Solver: back up proven values"},
    {.key = "tb",
     .type = PARAM_STRING,
     .def = "",
     .help = "endgame tables (hoyle tablebase): leaves they hold take their exact value (proven "
             "with the solver); \"\" = none"},
    MCTS_BATCH_PARAM_DEFS("1", "0.3", "0"),
    AGENT_SEARCH_PARAM_DEFS,
    {.key = "nodes",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = MCTS_MAX_NODES - 1, /* the cap mcts_create checks: edges are numbered in 32 bits */
     .help = "tree capacity in nodes' worth of bytes (48 a node; 12-byte edges share it); "
             "0 = sized from sims"},
    {.key = "memory_mb",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = MCTS_MAX_MEMORY_MB - 1, /* the same cap in megabytes */
     .help = "tree capacity in MB instead of nodes; 0 = nodes decides"},
    {.key = "threads",
     .type = PARAM_INT,
     .def = "1",
     .min = 1,
     .max = MCTS_MAX_THREADS,
     .help = "threads of one search (tree parallelism, virtual loss)"},
    {.key = "parallel",
     .type = PARAM_CHOICE,
     .def = "tree",
     .choices = "tree|root",
     .help = "threads > 1: one shared tree (virtual loss), or one tree per thread merged at the "
             "root (the node cap split between them)"},
    MCTS_PARAM_DEFS /* each entry ends with a comma */
    {.key = NULL},
};

/* Random rollouts and the fake network draw from the seed; the heuristic does not. */
static bool mcts_agent_seeded(const agent_t *a)
{
    return agent_search_seeded(a, strcmp(params_str(&a->params, "eval"), "heuristic") != 0);
}

const agent_kind_t agent_mcts_kind = {
    .name = "mcts",
    .description = "Monte-Carlo tree search (UCT/PUCT, chance nodes, solver, batching)",
    .params = mcts_agent_params,
    .caps = AGENT_CAP_CHANCE | AGENT_CAP_SEEDED,
    .create = mcts_agent_create,
    .seeded = mcts_agent_seeded,
};
