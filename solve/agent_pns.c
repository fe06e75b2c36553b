/* agent_pns.c — the `pns` agent (agent_oracle.h registers it): proof-number
 * search (solve/dfpn.h) for a forced win of the mover, the winning move
 * played when one is proven; otherwise alpha-beta (mcts/alphabeta.h) picks
 * the move. With time_ms the prover gets half of the time, alpha-beta the
 * rest. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mcts/agent_kind.h"
#include "mcts/alphabeta.h"
#include "solve/agent_oracle.h"
#include "solve/dfpn.h"

typedef struct pns_agent {
    pn_t *prover;
    ab_t *ab;
    double time_ms;
} pns_agent_t;

static int pns_act(agent_t *a, const void *state, int *action)
{
    pns_agent_t *p = a->impl;
    int me = game_current_player(a->g, state);
    pn_result_t r;
    pn_clear(p->prover);
    int status = pn_prove(p->prover, state, me, &r);
    if (status) return status;
    memset(&a->info, 0, sizeof a->info);
    a->info.kind = "pns";
    if (r.status == PN_PROVEN && r.best_action >= 0) {
        *action = r.best_action;
        a->info.value = 1;
        a->info.proven = 1;
        a->info.nodes = r.nodes;
        a->info.seconds = r.seconds;
        a->info.pv[0] = r.best_action;
        a->info.pv_len = 1;
        return HOYLE_OK;
    }
    const ab_result_t *ar;
    status = ab_search(p->ab, state, &ar);
    if (status) return status;
    *action = ar->best_action;
    a->info.value = ar->value;
    a->info.depth = ar->depth;
    a->info.nodes = r.nodes + ar->nodes;
    a->info.seconds = r.seconds + ar->seconds;
    a->info.pv_len = ar->pv_len < AGENT_PV_MAX ? ar->pv_len : AGENT_PV_MAX;
    memcpy(a->info.pv, ar->pv, sizeof(int) * (size_t)a->info.pv_len);
    return HOYLE_OK;
}

static void pns_reset(agent_t *a)
{
    pns_agent_t *p = a->impl;
    pn_clear(p->prover);
    ab_clear(p->ab);
}

static int pns_reseed(agent_t *a)
{
    pns_reset(a);
    return HOYLE_OK;
}

static void pns_destroy(agent_t *a)
{
    pns_agent_t *p = a->impl;
    if (p == NULL) return;
    pn_free(p->prover);
    ab_free(p->ab);
    free(p);
    a->impl = NULL;
}

static size_t pns_memory_bytes(const agent_t *a)
{
    return (size_t)params_int(&a->params, "tt_mb") << 21; /* the prover's and alpha-beta's */
}

static const agent_vt_t pns_vt = {.act = pns_act,
                                  .memory_bytes = pns_memory_bytes,
                                  .reset = pns_reset,
                                  .destroy = pns_destroy,
                                  .reseed = pns_reseed};

static int pns_create(agent_t *a)
{
    pn_params_t pp;
    pn_params_default(&pp);
    size_t bytes = (size_t)params_int(&a->params, "tt_mb") << 20;
    pp.algorithm = strcmp(params_str(&a->params, "search"), "pns") == 0 ? PN_PNS : PN_DFPN;
    pp.max_nodes = (uint64_t)params_int(&a->params, "nodes");
    pp.tt_entries = bytes / 40 < 1024 ? 1024 : bytes / 40;
    double time_ms = (double)params_int(&a->params, "time_ms");
    pp.time_limit_ms = time_ms / 2;
    ab_params_t ap;
    ab_params_default(&ap);
    int depth = (int)params_int(&a->params, "depth");
    ap.max_depth = depth > 0 ? depth : time_ms > 0 ? 64 : 4;
    ap.time_limit_ms = time_ms / 2;
    ap.tt_entries = bytes / 24;
    pns_agent_t *p = calloc(1, sizeof *p);
    if (p == NULL) return hoyle_error(HOYLE_ENOMEM, "pns: out of memory");
    int status = pn_create(a->g, &pp, &p->prover);
    if (!status) status = ab_create(a->g, &ap, &p->ab);
    a->impl = p;
    if (status) {
        pns_destroy(a);
        return hoyle_error_prefix(status, "pns");
    }
    a->vt = &pns_vt;
    return HOYLE_OK;
}

static const param_def_t pns_params[] = {
    {.key = "search",
     .type = PARAM_CHOICE,
     .def = "dfpn",
     .choices = "dfpn|pns",
     .help = "df-pn (depth-first, transposition table) or PNS (best-first tree)"},
    {.key = "nodes",
     .type = PARAM_INT,
     .def = "100000",
     .min = 1,
     .max = 1e12,
     .help = "most nodes the prover expands per move"},
    {.key = "depth",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1000,
     .help = "alpha-beta's depth when no win is proven; 0 = 4, or 64 with a time limit"},
    {.key = "time_ms",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1e9,
     .help = "time per move in ms, half for the prover, half for alpha-beta; 0 = none"},
    {.key = "tt_mb",
     .type = PARAM_INT,
     .def = "16",
     .min = 1,
     .max = 65536,
     .help = "MiB for the prover's table (or tree) and as much for alpha-beta's"},
    {.key = NULL},
};

const agent_kind_t agent_pns_kind = {
    .name = "pns",
    .description = "proof-number search for a forced win (df-pn or PNS), else alpha-beta",
    .params = pns_params,
    .caps = AGENT_CAP_TWO_PLAYER,
    .create = pns_create,
};
