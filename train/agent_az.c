/* agent_az.c — the `az` agent (agent_az.h): one net loaded from `model`, a
 * network evaluator with a position cache, and a PUCT tree reused between
 * moves. Parameters mirror the mcts agent's PUCT ones. */
#include <stdlib.h>
#include <string.h>

#include "mcts/agent_internal.h"
#include "mcts/mcts.h"
#include "train/agent_az.h"
#include "train/net_eval.h"

typedef struct az_agent {
    tch_net_t *net;
    evaluator_t *eval;
    mcts_t *m;
    double temp;
    int temp_moves, moves;
} az_agent_t;

static int az_act(agent_t *a, const void *state, int *action)
{
    az_agent_t *az = a->impl;
    double temp = az->temp_moves == 0 || az->moves < az->temp_moves ? az->temp : 0.0;
    int status = agent_search_act(a, az->m, state, temp, action);
    if (status == HOYLE_OK) az->moves++;
    return status;
}

static void az_observe(agent_t *a, const void *state_before, int action)
{
    az_agent_t *az = a->impl;
    mcts_advance(az->m, state_before, action);
}

static void az_reset(agent_t *a)
{
    az_agent_t *az = a->impl;
    mcts_clear(az->m);
    az->moves = 0;
}

static void az_destroy(agent_t *a)
{
    az_agent_t *az = a->impl;
    if (az == NULL) return;
    mcts_free(az->m);
    evaluator_free(az->eval);
    tch_net_free(az->net);
    free(az);
}

static const agent_vt_t az_vt = {
    .act = az_act, .observe = az_observe, .reset = az_reset, .destroy = az_destroy};

static int az_create(agent_t *a)
{
    const params_t *pp = &a->params;
    const char *model = params_str(pp, "model");
    if (model[0] == '\0') return hoyle_error(HOYLE_EINVAL, "az: model=PATH is required");
    mcts_params_t p;
    mcts_params_default(&p);
    p.select = MCTS_PUCT;
    agent_search_params(pp, &p);
    p.fpu = MCTS_FPU_PARENT;
    p.fpu_value = params_double(pp, "fpu");
    p.seed = rng_mix(a->seed ^ 0x617aULL);
    long long branch = a->g->max_legal < 128 ? a->g->max_legal : 128;
    p.max_nodes = (size_t)((2LL * (p.max_sims + p.batch + 2)) * branch + 4096);
    az_agent_t *az = calloc(1, sizeof *az);
    if (az == NULL) return hoyle_error(HOYLE_ENOMEM, "az: out of memory");
    az->temp = params_double(pp, "temp");
    az->temp_moves = (int)params_int(pp, "temp_moves");
    int status = tch_load(model, &az->net, NULL);
    if (!status)
        status =
            net_evaluator_create(a->g, az->net, p.batch, (int)params_int(pp, "cache"), &az->eval);
    if (!status) status = mcts_create(a->g, &p, az->eval, &az->m);
    if (status) {
        a->impl = az;
        az_destroy(a);
        a->impl = NULL;
        return status;
    }
    a->impl = az;
    a->vt = &az_vt;
    return HOYLE_OK;
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
    {.key = "c", .type = PARAM_DOUBLE, .def = "1.25", .min = 0, .max = 100, .help = "PUCT c_init"},
    {.key = "c_base",
     .type = PARAM_DOUBLE,
     .def = "19652",
     .min = 1,
     .max = 1e9,
     .help = "PUCT c_base"},
    {.key = "fpu",
     .type = PARAM_DOUBLE,
     .def = "0.2",
     .min = 0,
     .max = 2,
     .help = "first-play urgency: parent Q minus this"},
    {.key = "batch",
     .type = PARAM_INT,
     .def = "8",
     .min = 1,
     .max = 4096,
     .help = "leaves per network call (virtual loss)"},
    AGENT_SEARCH_PARAM_DEFS,
    {.key = "cache",
     .type = PARAM_INT,
     .def = "16384",
     .min = 0,
     .max = 1 << 24,
     .help = "network cache entries (0 = none)"},
    MCTS_GUMBEL_PARAM_DEFS,
    {.key = NULL},
};

static const agent_kind_t agent_az_kind = {
    .name = "az",
    .description = "AlphaZero: PUCT search with a trained policy/value network",
    .params = az_params,
    .create = az_create,
};

int train_register_agents(void) { return agent_register_kind(&agent_az_kind); }
