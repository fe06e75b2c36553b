/* agent_az.c — the `az` agent (agent_az.h): the search agent body
 * (mcts/agent_search.c) with PUCT over a network evaluator with a position
 * cache, on one net loaded from `model`. The search keys are the mcts/
 * fragments with az's defaults (c=1.25, batch 8, fpu 0.2 from the parent). */
#include <stdlib.h>
#include <string.h>

#include "mcts/agent_kind.h"
#include "train/agent_az.h"
#include "train/net_eval.h"

static void az_release(void *net) { tch_net_free(net); }

static int az_create(agent_t *a)
{
    const params_t *pp = &a->params;
    const char *model = params_str(pp, "model");
    if (model[0] == '\0') return hoyle_error(HOYLE_EINVAL, "az: model=PATH is required");
    mcts_params_t p;
    mcts_params_default(&p);
    p.select = MCTS_PUCT;
    if (mcts_params_bind(pp, &p)) return HOYLE_EINVAL;
    tch_net_t *net = NULL;
    evaluator_t *eval = NULL;
    int status = tch_load(model, &net, NULL);
    if (status) return status;
    status = net_evaluator_create(a->g, net, p.batch, (int)params_int(pp, "cache"), &eval);
    if (status) {
        tch_net_free(net);
        return status;
    }
    /* tree salt "az" as always; the net evaluator has no random stream (salt unused) */
    return agent_search_create(a, &p, eval, 0x617aULL, 0, az_release, net);
}

static const param_def_t az_params[] = {
    {.key = "model",
     .type = PARAM_STRING,
     .def = "",
     .help = "network file written by tch_save (hoyle train's net-NNNNNN.pt)"},
    {.key = "sims",
     .type = PARAM_INT,
     .def = "200",
     .min = 1,
     .max = 1e8,
     .help = "simulations per move"},
    MCTS_PUCT_PARAM_DEFS("1.25"),
    MCTS_FPU_PARENT_PARAM_DEF,
    MCTS_BATCH_PARAM_DEFS("8", "0.3", "0"),
    AGENT_SEARCH_PARAM_DEFS,
    {.key = "cache",
     .type = PARAM_INT,
     .def = "16384",
     .min = 0,
     .max = 1 << 24,
     .help = "network cache entries (0 = none)"},
    MCTS_PARAM_DEFS /* each entry ends with a comma */
    {.key = NULL},
};

static const agent_kind_t agent_az_kind = {
    .name = "az",
    .description = "AlphaZero: PUCT search with a trained policy/value network",
    .params = az_params,
    .create = az_create,
};

int train_register_agents(void) { return agent_register_kind(&agent_az_kind); }
