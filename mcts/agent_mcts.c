/* agent_mcts.c — the MCTS agent (mcts/mcts.h) with its own evaluator
 * (random rollouts, heuristic or the fake network), tree reuse through
 * agent_observe and temperature-based move choice for self-play. */
#include <stdlib.h>
#include <string.h>

#include "mcts/agent_internal.h"
#include "mcts/mcts.h"

typedef struct mcts_agent {
    mcts_t *m;
    evaluator_t *eval;
    double temp;    /* move-choice temperature */
    int temp_moves; /* own moves played with temperature (0 = all) */
    int moves;      /* own moves since reset */
} mcts_agent_t;

int agent_search_act(agent_t *a, mcts_t *m, const void *state, double temperature, int *action)
{
    const mcts_result_t *r;
    int status = mcts_search(m, state, &r);
    if (status) return status;
    if ((status = mcts_choose(m, temperature, action))) return status;
    agent_info_t *info = &a->info;
    info->num_moves = r->num_children;
    info->actions = r->actions;
    info->visits = r->visits;
    info->q = r->q;
    info->priors = r->priors;
    info->value = r->root_proven ? r->proven_value[r->player] : r->value[r->player];
    info->proven = r->root_proven;
    info->pv_len = r->pv_len < AGENT_PV_MAX ? r->pv_len : AGENT_PV_MAX;
    memcpy(info->pv, r->pv, sizeof(int) * (size_t)info->pv_len);
    info->sims = r->sims;
    info->nodes = r->nodes_used;
    info->seconds = r->seconds;
    info->arena_full = r->arena_full;
    return HOYLE_OK;
}

static int mcts_agent_act(agent_t *a, const void *state, int *action)
{
    mcts_agent_t *ma = a->impl;
    double temp = ma->temp_moves == 0 || ma->moves < ma->temp_moves ? ma->temp : 0.0;
    int status = agent_search_act(a, ma->m, state, temp, action);
    if (status == HOYLE_OK) ma->moves++;
    return status;
}

static void mcts_agent_observe(agent_t *a, const void *state_before, int action)
{
    mcts_agent_t *ma = a->impl;
    mcts_advance(ma->m, state_before, action);
}

static void mcts_agent_reset(agent_t *a)
{
    mcts_agent_t *ma = a->impl;
    mcts_clear(ma->m);
    ma->moves = 0;
}

static void mcts_agent_destroy(agent_t *a)
{
    mcts_agent_t *ma = a->impl;
    if (ma == NULL) return;
    mcts_free(ma->m);
    evaluator_free(ma->eval);
    free(ma);
}

static const agent_vt_t mcts_agent_vt = {.act = mcts_agent_act,
                                         .observe = mcts_agent_observe,
                                         .reset = mcts_agent_reset,
                                         .destroy = mcts_agent_destroy};

/* fpu=inf | fpu=parent | fpu=parent-R | fpu=<value in [-1, 1]> */
static int parse_fpu(const char *text, mcts_params_t *p)
{
    char *end;
    if (strcmp(text, "inf") == 0) {
        p->fpu = MCTS_FPU_INF;
        return HOYLE_OK;
    }
    if (strncmp(text, "parent", 6) == 0) {
        p->fpu = MCTS_FPU_PARENT;
        p->fpu_value = 0;
        if (text[6] == '\0') return HOYLE_OK;
        double r = strtod(text + 6, &end);
        if (text[6] == '-' && *end == '\0' && r <= 0 && r >= -2) {
            p->fpu_value = -r;
            return HOYLE_OK;
        }
    } else {
        double v = strtod(text, &end);
        if (end != text && *end == '\0' && v >= -1 && v <= 1) {
            p->fpu = MCTS_FPU_VALUE;
            p->fpu_value = v;
            return HOYLE_OK;
        }
    }
    return hoyle_error(HOYLE_EINVAL,
                       "mcts: fpu: '%s' is not inf, parent, parent-R or a value in [-1, 1]", text);
}

void agent_search_params(const params_t *pp, mcts_params_t *p)
{
    p->c_uct = p->c_init = params_double(pp, "c");
    p->c_base = params_double(pp, "c_base");
    p->max_sims = params_int(pp, "sims");
    p->batch = (int)params_int(pp, "batch");
    p->virtual_loss = params_double(pp, "vloss");
    p->dirichlet_alpha = params_double(pp, "noise_alpha");
    p->dirichlet_eps = params_double(pp, "noise_eps");
    p->reuse = params_bool(pp, "reuse");
    p->gumbel = params_bool(pp, "gumbel");
    p->gumbel_m = (int)params_int(pp, "gumbel_m");
    p->c_visit = params_double(pp, "c_visit");
    p->c_scale = params_double(pp, "c_scale");
}

static int mcts_agent_create(agent_t *a)
{
    const params_t *pp = &a->params;
    mcts_params_t p;
    mcts_params_default(&p);
    p.select = params_choice(pp, "select") == 1 ? MCTS_PUCT : MCTS_UCT;
    agent_search_params(pp, &p);
    p.time_limit_ms = (double)params_int(pp, "time_ms");
    if (p.max_sims == 0 && p.time_limit_ms == 0) p.max_sims = 1000;
    p.solver = params_bool(pp, "solver");
    p.seed = rng_mix(a->seed ^ 0x6d637473ULL);
    if (strcmp(params_str(pp, "fpu"), "auto") == 0) {
        p.fpu = p.select == MCTS_PUCT ? MCTS_FPU_PARENT : MCTS_FPU_INF;
        p.fpu_value = 0;
    } else if (parse_fpu(params_str(pp, "fpu"), &p)) {
        return HOYLE_EINVAL;
    }
    long long nodes = params_int(pp, "nodes");
    if (nodes == 0) {
        long long branch = a->g->max_legal < 64 ? a->g->max_legal : 64;
        nodes = p.max_sims > 0 ? (p.max_sims + 16) * branch * 2 + 4096 : 1 << 20;
        if (nodes > (1 << 22)) nodes = 1 << 22;
    }
    p.max_nodes = (size_t)nodes;
    mcts_agent_t *ma = calloc(1, sizeof *ma);
    if (ma == NULL) return hoyle_error(HOYLE_ENOMEM, "mcts: out of memory");
    ma->temp = params_double(pp, "temp");
    ma->temp_moves = (int)params_int(pp, "temp_moves");
    int status =
        evaluator_create_named(a->g, params_str(pp, "eval"), (int)params_int(pp, "rollouts"),
                               rng_mix(a->seed ^ 0x6576616cULL), &ma->eval);
    if (!status) status = mcts_create(a->g, &p, ma->eval, &ma->m);
    if (status) {
        evaluator_free(ma->eval);
        free(ma);
        return status;
    }
    a->impl = ma;
    a->vt = &mcts_agent_vt;
    return HOYLE_OK;
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
    {.key = "c",
     .type = PARAM_DOUBLE,
     .def = "1.4",
     .min = 0,
     .max = 100,
     .help = "exploration: UCT c, or PUCT c_init"},
    {.key = "c_base",
     .type = PARAM_DOUBLE,
     .def = "19652",
     .min = 1,
     .max = 1e9,
     .help = "PUCT c_base"},
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
    {.key = "batch",
     .type = PARAM_INT,
     .def = "1",
     .min = 1,
     .max = 4096,
     .help = "leaves per evaluator call (virtual loss)"},
    AGENT_SEARCH_PARAM_DEFS,
    {.key = "nodes",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1e9,
     .help = "tree capacity in nodes (48 bytes each); 0 = sized from sims"},
    MCTS_GUMBEL_PARAM_DEFS,
    {.key = NULL},
};

const agent_kind_t agent_mcts_kind = {
    .name = "mcts",
    .description = "Monte-Carlo tree search (UCT/PUCT, chance nodes, solver, batching)",
    .params = mcts_agent_params,
    .create = mcts_agent_create,
};
