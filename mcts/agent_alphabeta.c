/* agent_alphabeta.c — the alpha-beta / expectiminimax agent
 * (mcts/alphabeta.h) behind the agent contract. */
#include <stdlib.h>
#include <string.h>

#include "core/models.h"
#include "mcts/agent_kind.h"
#include "mcts/alphabeta.h"
#include "mcts/eval_linear.h"
#include "mcts/tb_probe.h"

/* The agent's state: the search, and the weights of eval=FILE (the search's leaf values). */
typedef struct ab_agent {
    ab_t *t;
    eval_linear_t weights;
    tb_t *tb; /* tb=DIR's tables, or NULL */
} ab_agent_t;

static ab_t *search_of(agent_t *a) { return ((ab_agent_t *)a->impl)->t; }

static double weighted_eval(void *ctx, const void *s, int player)
{
    return eval_linear_value(ctx, s, player, NULL);
}

/* The agent's info from a result: value, depth and PV for the mover. */
static void fill_info(agent_t *a, const ab_result_t *r)
{
    agent_info_t *info = &a->info;
    info->value = r->value;
    info->depth = r->depth;
    info->nodes = r->nodes;
    info->seconds = r->seconds;
    info->pv_len = r->pv_len < AGENT_PV_MAX ? r->pv_len : AGENT_PV_MAX;
    memcpy(info->pv, r->pv, sizeof(int) * (size_t)info->pv_len);
}

static void on_iteration(void *ctx, const ab_result_t *r)
{
    agent_t *a = ctx;
    fill_info(a, r);
    if (a->on_iteration) a->on_iteration(a->on_iteration_ctx, &a->info);
}

static int alphabeta_act(agent_t *a, const void *state, int *action)
{
    const ab_result_t *r;
    ab_on_iteration(search_of(a), a->on_iteration ? on_iteration : NULL, a);
    int status = ab_search(search_of(a), state, &r);
    if (status) return status;
    /* The move of the deepest completed iteration (ab_search); value, depth
     * and PV are that iteration's, for the mover. */
    *action = r->best_action;
    fill_info(a, r);
    return HOYLE_OK;
}

/* The depth and time limit the spec asks for (see the depth key's help). */
static void spec_limits(const agent_t *a, ab_params_t *p)
{
    int depth = (int)params_int(&a->params, "depth");
    p->time_limit_ms = (double)params_int(&a->params, "time_ms");
    /* depth=0: with a time limit, deepen until it runs out; without one, 4 whole moves, or 2
     * in games with chance nodes, where each move multiplies the tree by the outcomes
     * (backgammon: 2 answers in a fraction of a second, 4 takes minutes) */
    int fixed = a->g->max_chance_outcomes > 0 ? 2 : 4;
    p->max_depth = depth > 0 ? depth : p->time_limit_ms > 0 ? 64 : fixed;
    p->max_nodes = 0;
    p->stop = NULL;
}

/* agent_set_limits: the driver's limits, or the spec's again. */
static int alphabeta_limits(agent_t *a, const agent_limits_t *l)
{
    ab_params_t p;
    ab_params_default(&p);
    if (l) {
        p.max_depth = l->depth; /* 0 = 64 (ab_set_limits) */
        p.time_limit_ms = l->time_ms;
        p.max_nodes = l->nodes > 0 ? (uint64_t)l->nodes : 0;
        p.stop = l->stop;
    } else {
        spec_limits(a, &p);
    }
    ab_set_limits(search_of(a), &p);
    return HOYLE_OK;
}

static void alphabeta_reset(agent_t *a) { ab_clear(search_of(a)); }
static void alphabeta_destroy(agent_t *a)
{
    if (a->impl) ab_free(search_of(a)), tb_close(((ab_agent_t *)a->impl)->tb);
    free(a->impl);
    a->impl = NULL;
}

/* Alpha-beta uses no randomness: a cleared search is a new one. */
static int alphabeta_reseed(agent_t *a)
{
    ab_clear(search_of(a));
    return HOYLE_OK;
}

/* The transposition table dominates: tt_mb as asked (ab_create rounds the
 * entry count down, so this is an upper bound). */
static size_t alphabeta_memory_bytes(const agent_t *a)
{
    return (size_t)params_int(&a->params, "tt_mb") << 20;
}

static const agent_vt_t alphabeta_vt = {.act = alphabeta_act,
                                        .memory_bytes = alphabeta_memory_bytes,
                                        .reset = alphabeta_reset,
                                        .destroy = alphabeta_destroy,
                                        .reseed = alphabeta_reseed,
                                        .limits = alphabeta_limits};

static int alphabeta_create(agent_t *a)
{
    ab_params_t p;
    ab_params_default(&p);
    spec_limits(a, &p);
    /* 24 bytes per tt_entry_t (key, value, depth, kind, action with padding);
     * ab_create rounds the count down to a power of two. */
    p.tt_entries = (size_t)params_int(&a->params, "tt_mb") * ((size_t)1 << 20) / 24;
    p.quiescence = params_bool(&a->params, "quiescence");
    p.qdepth = (int)params_int(&a->params, "qdepth");
    p.null_r = (int)params_int(&a->params, "null_r");
    p.lmr = (int)params_int(&a->params, "lmr");
    p.check_ext = params_bool(&a->params, "check_ext");
    p.capture_ext = params_bool(&a->params, "capture_ext");
    p.star2 = params_bool(&a->params, "star2");
    p.mtdf = params_bool(&a->params, "mtdf");
    ab_agent_t *A = calloc(1, sizeof *A);
    if (A == NULL) return hoyle_error(HOYLE_ENOMEM, "alphabeta: out of memory");
    const char *weights = params_str(&a->params, "eval");
    char path[1024];
    int status =
        weights[0] ? model_find(weights, "eval", a->kind->name, path, sizeof path) : HOYLE_OK;
    if (weights[0] && !status) status = eval_linear_load(path, a->g, &A->weights);
    if (weights[0] && !status) {
        p.eval = weighted_eval;
        p.eval_ctx = &A->weights; /* stays put: A is on the heap */
    }
    const char *tb = params_str(&a->params, "tb");
    if (!status && tb[0] && (status = tb_open(a->g, tb, &A->tb)) != 0)
        status = hoyle_error_prefix(status, "%s", a->kind->name);
    p.tb = A->tb;
    if (!status) status = ab_create(a->g, &p, &A->t);
    if (status) {
        tb_close(A->tb);
        free(A);
        return status;
    }
    a->impl = A;
    a->vt = &alphabeta_vt;
    return HOYLE_OK;
}

static const param_def_t alphabeta_params[] = {
    {.key = "depth",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1000,
     .help = "depth in whole moves; 0 = 4 (2 in games with dice), or 64 with a time limit"},
    {.key = "time_ms",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1e9,
     .help = "time per move in ms (iterative deepening); 0 = depth only"},
    {.key = "tt_mb",
     .type = PARAM_INT,
     .def = "16",
     .min = 0,
     .max = 65536,
     .help = "transposition table size in MiB; 0 = none"},
    {.key = "quiescence",
     .type = PARAM_BOOL,
     .def = "false",
     .help = "search noisy actions (captures) past the depth"},
    {.key = "qdepth",
     .type = PARAM_INT,
     .def = "8",
     .min = 0,
     .max = 64,
     .help = "most quiescence plies"},
    {.key = "null_r",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 16,
     .help = "null-move pruning: the pass's depth reduction R (games with a null move: chess); 0 = "
             "off"},
    {.key = "lmr",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1000,
     .help = "late-move reductions from the lmr-th move on (quiet moves, depth >= 3); 0 = off"},
    {.key = "check_ext",
     .type = PARAM_BOOL,
     .def = "true",
     .help = "a move into a forcing state (chess: check) costs no depth"},
    {.key = "capture_ext",
     .type = PARAM_BOOL,
     .def = "false",
     .help = "a noisy move answering a noisy move (a recapture) costs no depth"},
    {.key = "star2",
     .type = PARAM_BOOL,
     .def = "false",
     .help = "Star2 probing at chance nodes (exact; games with dice)"},
    {.key = "mtdf",
     .type = PARAM_BOOL,
     .def = "false",
     .help = "MTD(f): null-window searches per iteration (exact; games without chance nodes)"},
    {.key = "eval",
     .type = PARAM_STRING,
     .def = "",
     .help = "leaf values from these term weights (hoyle train algorithm tdleaf's net-NNNNNN.eval, "
             "or a shipped model's name); \"\" = the game's"},
    {.key = "tb",
     .type = PARAM_STRING,
     .def = "",
     .help = "endgame tables (hoyle tablebase): positions they hold are valued exactly, shortest "
             "win first; \"\" = none"},
    {.key = NULL},
};

const agent_kind_t agent_alphabeta_kind = {
    .name = "alphabeta",
    .description = "alpha-beta / expectiminimax, iterative deepening, TT, killers, history",
    .params = alphabeta_params,
    .caps = AGENT_CAP_CHANCE,
    .model_key = "eval",
    .model_ext = "eval",
    .create = alphabeta_create,
};

/* The same search under the name games with dice call it. */
const agent_kind_t agent_expectimax_kind = {
    .name = "expectimax",
    .description = "expectiminimax (Star1 pruning at chance nodes): alphabeta by another name",
    .params = alphabeta_params,
    .caps = AGENT_CAP_CHANCE,
    .model_key = "eval",
    .model_ext = "eval",
    .create = alphabeta_create,
};
